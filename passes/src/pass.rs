//! The pass interface and the pipeline that runs passes.
//!
//! A pass is a small type with a kebab-case [`Pass::name`] (used by dumps, timing
//! and `--disable-pass`) and a [`Pass::run`] that rewrites a module and says whether
//! it changed anything. A [`Pipeline`] is itself a pass and does the bookkeeping:
//! it verifies after every pass when asked (a verifier failure after a pass is a
//! compiler bug and is reported naming the pass), times each pass, skips disabled
//! passes, and writes numbered dumps like XLA's `--xla_dump_to`. [`FixedPoint`]
//! repeats a pass until nothing changes, up to an iteration cap. The passes
//! themselves implement [`Rewrite`], which names them with a constant.

use std::collections::{BTreeMap, HashSet};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use smelt_hlo::budget::{CompileBudget, Deadline};
use smelt_hlo::verifier::{MAX_OPTIMIZER_CALL_DEPTH, check_call_depth};
use smelt_hlo::{Module, print_module, verify};

use crate::options::Options;

#[derive(Debug, thiserror::Error)]
pub enum PassError {
    /// The module no longer verifies after a pass: a bug in that pass.
    #[error("internal compiler error: the module does not verify after pass '{pass}': {message}")]
    BrokenByPass { pass: String, message: String },
    /// The module given to the pipeline does not verify.
    #[error("the input module does not verify: {0}")]
    InvalidInput(String),
    #[error("cannot write dump {path}: {source}")]
    Dump { path: String, source: std::io::Error },
    /// A pass met something it cannot handle (names the instruction).
    #[error("{pass}: {message}")]
    Unsupported { pass: String, message: String },
    /// The module or the compilation is over the compile budget.
    #[error(transparent)]
    OverBudget(#[from] smelt_hlo::budget::BudgetError),
}

pub type Result<T> = std::result::Result<T, PassError>;

/// One fusion decision that was declined, with its reason (for `--explain-fusion`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FusionNote {
    pub computation: String,
    pub producer: String,
    pub consumer: String,
    pub reason: String,
}

/// State shared by the passes of one pipeline run.
#[derive(Debug, Default)]
pub struct PassContext {
    pub options: Options,
    /// Verify after every pass (on in tests and debug builds by default).
    pub verify_each: bool,
    /// Names of passes to skip.
    pub disabled: HashSet<String>,
    /// Where to write `NNNN.input.hlo` / `NNNN.after.<pass>.hlo`, if anywhere.
    pub dump_dir: Option<PathBuf>,
    dump_counter: usize,
    /// Wall time per pass name, summed over runs.
    pub timings: BTreeMap<String, Duration>,
    /// Order in which pass names first ran, for reports.
    pub pass_order: Vec<String>,
    /// Declined fusions.
    pub fusion_notes: Vec<FusionNote>,
    /// Counters passes report (`fusions`, `constants_folded`, ...).
    pub counters: BTreeMap<String, i64>,
    /// The compile budget [`Pipeline::run_on`] checks (None: from the environment).
    pub budget: Option<CompileBudget>,
    /// When the compilation must finish, checked after every pass ([`Pipeline::run_on`]
    /// starts it when unset; a caller that compiles further passes it on).
    pub deadline: Option<Deadline>,
}

impl PassContext {
    pub fn new(options: Options) -> PassContext {
        PassContext { options, verify_each: cfg!(debug_assertions), ..PassContext::default() }
    }

    pub fn count(&mut self, name: &str, by: i64) {
        *self.counters.entry(name.to_string()).or_default() += by;
    }

    /// Adds `rewrites` to counter `name` when there were any, and says whether
    /// there were: the end of most passes' `rewrite`.
    pub fn counted(&mut self, name: &str, rewrites: usize) -> bool {
        if rewrites > 0 {
            self.count(name, rewrites as i64);
        }
        rewrites > 0
    }

    fn dump(&mut self, module: &Module, what: &str) -> Result<()> {
        let Some(dir) = &self.dump_dir else {
            return Ok(());
        };
        let path = dir.join(format!("{:04}.{what}.hlo", self.dump_counter));
        self.dump_counter += 1;
        std::fs::create_dir_all(dir)
            .and_then(|()| std::fs::write(&path, print_module(module)))
            .map_err(|source| PassError::Dump { path: path.display().to_string(), source })
    }
}

/// A module-to-module rewrite.
pub trait Pass {
    /// Short kebab-case name: `dce`, `algebraic-simplifier`, `fusion`.
    fn name(&self) -> &'static str;

    /// Rewrites `module`; returns whether anything changed.
    fn run(&mut self, module: &mut Module, cx: &mut PassContext) -> Result<bool>;

    /// True for passes that only run other passes (which dump and time themselves).
    fn is_container(&self) -> bool {
        false
    }
}

/// A pass with a fixed name, as every pass of the default pipeline is; a
/// blanket impl makes it a [`Pass`]. (Containers name themselves at run time and
/// implement [`Pass`] directly.)
pub trait Rewrite {
    /// The kebab-case [`Pass::name`].
    const NAME: &'static str;

    /// [`Pass::run`]: rewrites `module`; returns whether anything changed.
    fn rewrite(&mut self, module: &mut Module, cx: &mut PassContext) -> Result<bool>;
}

impl<R: Rewrite> Pass for R {
    fn name(&self) -> &'static str {
        R::NAME
    }

    fn run(&mut self, module: &mut Module, cx: &mut PassContext) -> Result<bool> {
        self.rewrite(module, cx)
    }
}

/// Runs passes in order, with verification, timing, disabling and dumps.
pub struct Pipeline {
    name: &'static str,
    passes: Vec<Box<dyn Pass>>,
}

impl Pipeline {
    pub fn new(name: &'static str) -> Pipeline {
        Pipeline { name, passes: Vec::new() }
    }

    pub fn with(self, pass: impl Pass + 'static) -> Pipeline {
        self.with_boxed(Box::new(pass))
    }

    pub fn with_boxed(mut self, pass: Box<dyn Pass>) -> Pipeline {
        self.passes.push(pass);
        self
    }

    pub fn pass_names(&self) -> Vec<&'static str> {
        self.passes.iter().map(|p| p.name()).collect()
    }

    /// Runs the pipeline on a module, verifying the input first and dumping it as
    /// `0000.input.hlo` when dumps are on. This is the entry point for callers; a
    /// nested pipeline is run through [`Pass::run`].
    pub fn run_on(&mut self, module: &mut Module, cx: &mut PassContext) -> Result<bool> {
        let budget = match cx.budget {
            Some(b) => b,
            None => CompileBudget::from_env()?,
        };
        budget.check_instructions(module.instruction_count(), || format!("module '{}'", module.name))?;
        cx.deadline.get_or_insert_with(|| budget.start());
        verify(module).map_err(|e| PassError::InvalidInput(e.to_string()))?;
        check_call_depth(module, MAX_OPTIMIZER_CALL_DEPTH)
            .map_err(|e| PassError::Unsupported { pass: "optimizer".into(), message: e.to_string() })?;
        cx.dump(module, "input")?;
        let changed = self.run(module, cx)?;
        // Always check the result, even when passes are not verified one by one.
        verify(module).map_err(|e| PassError::BrokenByPass { pass: self.name.to_string(), message: e.to_string() })?;
        Ok(changed)
    }
}

impl Pass for Pipeline {
    fn name(&self) -> &'static str {
        self.name
    }

    fn is_container(&self) -> bool {
        true
    }

    fn run(&mut self, module: &mut Module, cx: &mut PassContext) -> Result<bool> {
        let mut changed = false;
        for pass in &mut self.passes {
            let name = pass.name();
            if cx.disabled.contains(name) {
                continue;
            }
            let start = Instant::now();
            let pass_changed = pass.run(module, cx)?;
            // Nested pipelines account for their own passes.
            let elapsed = start.elapsed();
            if !cx.timings.contains_key(name) {
                cx.pass_order.push(name.to_string());
            }
            *cx.timings.entry(name.to_string()).or_default() += elapsed;
            if let Some(deadline) = &cx.deadline {
                deadline.check(|| format!("pass '{name}'"))?;
            }
            if cx.verify_each {
                verify(module)
                    .map_err(|e| PassError::BrokenByPass { pass: name.to_string(), message: e.to_string() })?;
            }
            if pass_changed && !pass.is_container() {
                cx.dump(module, &format!("after.{name}"))?;
            }
            changed |= pass_changed;
        }
        Ok(changed)
    }
}

/// Runs a pass until it reports no change, at most `max_iterations` times.
pub struct FixedPoint<P> {
    name: &'static str,
    pass: P,
    max_iterations: usize,
}

impl<P: Pass> FixedPoint<P> {
    pub fn new(name: &'static str, pass: P, max_iterations: usize) -> Self {
        FixedPoint { name, pass, max_iterations }
    }
}

impl<P: Pass> Pass for FixedPoint<P> {
    fn name(&self) -> &'static str {
        self.name
    }

    fn is_container(&self) -> bool {
        self.pass.is_container()
    }

    fn run(&mut self, module: &mut Module, cx: &mut PassContext) -> Result<bool> {
        let mut changed = false;
        for _ in 0..self.max_iterations {
            if !self.pass.run(module, cx)? {
                break;
            }
            changed = true;
        }
        Ok(changed)
    }
}
