//! The kernel form's verifier: what every backend may assume of a [`Program`].
//!
//! Lowering makes programs, but so do tests, fuzzers and (one day) files; a code
//! generator that met a malformed one would index out of bounds or emit IR that
//! LLVM rejects. [`verify`] checks once what every renderer relies on, and its
//! proof, [`VerifiedProgram`], is what every backend's `compile` takes (as the
//! lowering takes HLO's `Verified`):
//!
//! - buffers: every parameter, result and constant index exists, every view fits
//!   in its buffer (temporaries in the arena), constants hold their bytes;
//! - steps: kernel ids exist and their operands match the kernel's declared
//!   types; dot and convolution shapes agree with their operands and outputs,
//!   epilogues are loop kernels over the output; loop predicates and branch
//!   indices are scalars of the right type;
//! - graphs: one type per node, operands before their users, loads of existing
//!   inputs with one `s64` index per dimension, loop indices within the space,
//!   parameters within their scalar function, results of reductions from
//!   reductions, and every node's type what its operation gives (the
//!   interpreter's rules, through [`crate::sem`]);
//! - kernel bodies: roots in their graphs, outputs shaped like the space they
//!   are stored over, reducers and comparators taking and giving what their
//!   body passes them.
//!
//! What it does not check is what cannot be known ahead of run time (values of
//! indices, which the lowering clamps) and what is a backend's own business
//! (whether it has a routine for a step).

use std::ops::Deref;

use smelt_hlo::DType;
use smelt_hlo::budget::{Limits, MemoryBudget};

use crate::ir::{
    ArrayType, BufRef, Buffer, ConvStep, DotStep, Graph, InlineReduce, Kernel, KernelBody, KernelId, Node, NodeId,
    Program, Scalar, ScalarFn, Step,
};
use crate::sem;

/// Why a program is malformed: where (a step path, kernel and node) and what.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("kernel program '{program}': {place}: {message}")]
pub struct InvalidProgram {
    pub program: String,
    pub place: String,
    pub message: String,
}

/// A program [`verify`] accepted. Backends take one; only [`verify`] makes one.
#[derive(Clone, Copy, Debug)]
pub struct VerifiedProgram<'p>(&'p Program);

impl<'p> VerifiedProgram<'p> {
    pub fn program(&self) -> &'p Program {
        self.0
    }
}

impl Deref for VerifiedProgram<'_> {
    type Target = Program;
    fn deref(&self) -> &Program {
        self.0
    }
}

type Result<T> = std::result::Result<T, String>;

/// Checks `program` against the budgets of the environment
/// ([`Limits::from_env`]) and returns the proof that it is well formed.
pub fn verify(program: &Program) -> std::result::Result<VerifiedProgram<'_>, InvalidProgram> {
    let limits = Limits::from_env().map_err(|e| InvalidProgram {
        program: program.name.clone(),
        place: "budget".into(),
        message: e.to_string(),
    })?;
    verify_within(program, &limits)
}

/// Checks `program`, within `limits`, and returns the proof that it is well formed.
pub fn verify_within<'p>(
    program: &'p Program,
    limits: &Limits,
) -> std::result::Result<VerifiedProgram<'p>, InvalidProgram> {
    let err = |place: String, message: String| InvalidProgram { program: program.name.clone(), place, message };
    for (what, types) in [("parameter", &program.params), ("result", &program.results)] {
        for (i, t) in types.iter().enumerate() {
            sized(t).map_err(|m| err(format!("{what} {i}"), m))?;
        }
    }
    for (i, c) in program.constants.iter().enumerate() {
        if c.ty.checked_byte_size() != Some(c.bytes.len()) {
            return Err(err(format!("constant {i}"), format!("{} bytes for {}", c.bytes.len(), &c.ty)));
        }
    }
    within_budget(program, &limits.memory).map_err(|e| err("memory".into(), e.to_string()))?;
    let nodes = program.kernels.iter().map(|k| k.body.graph().map_or(0, |g| g.nodes.len())).sum();
    limits.compile.check_kernel_ops(nodes, || "its kernels".into()).map_err(|e| err("size".into(), e.to_string()))?;
    for (i, k) in program.kernels.iter().enumerate() {
        kernel(k).map_err(|m| err(format!("kernel {i} '{}'", k.name), m))?;
    }
    let v = Verifier { program };
    v.steps(&program.steps, "step").map_err(|(place, m)| err(place, m))?;
    Ok(VerifiedProgram(program))
}

/// An index space whose points can be counted in an `i64`.
fn extent(dims: &[i64], what: &str) -> Result<()> {
    let count = dims.iter().try_fold(1i64, |n, &d| if d < 0 { None } else { n.checked_mul(d) });
    check(count.is_some(), || format!("the {what} {dims:?} has no point count"))
}

/// The parameters, results and temporaries a run holds at once, against the
/// memory budget (constants are already in memory).
fn within_budget(program: &Program, budget: &MemoryBudget) -> std::result::Result<(), smelt_hlo::budget::BudgetError> {
    let arrays = program.params.iter().chain(&program.results).map(|t| (&t.dims[..], t.dtype));
    let temporaries = (&[program.temp_bytes as i64][..], DType::U8);
    budget.check_arrays(arrays.chain([temporaries]), || {
        let results: Vec<String> = program.results.iter().map(|t| t.to_string()).collect();
        format!("the buffers of a run (results {}, {} temporary bytes)", results.join(", "), program.temp_bytes)
    })
}

/// `t` has a size in bytes (no negative dimension, no overflow).
fn sized(t: &ArrayType) -> Result<()> {
    t.checked_byte_size().map(|_| ()).ok_or_else(|| format!("{} has no size in bytes", t))
}

fn check(ok: bool, message: impl FnOnce() -> String) -> Result<()> {
    if ok { Ok(()) } else { Err(message()) }
}

struct Verifier<'p> {
    program: &'p Program,
}

type StepResult = std::result::Result<(), (String, String)>;

impl Verifier<'_> {
    fn steps(&self, steps: &[Step], path: &str) -> StepResult {
        for (i, s) in steps.iter().enumerate() {
            let place = format!("{path} {i}");
            self.step(s, &place).map_err(|e| match e {
                StepError::Here(m) => (place.clone(), m),
                StepError::Nested(p, m) => (p, m),
            })?;
        }
        Ok(())
    }

    fn step(&self, s: &Step, place: &str) -> std::result::Result<(), StepError> {
        match s {
            Step::Kernel { kernel, inputs, outputs } => {
                let k = self.kernel(*kernel)?;
                operands(&k.inputs, inputs, "input")?;
                operands(&k.outputs, outputs, "output")?;
                for b in inputs.iter().chain(outputs) {
                    self.buffer(b)?;
                }
            }
            Step::Copy { src, dst } => {
                self.buffer(src)?;
                self.buffer(dst)?;
                check(src.ty.byte_size() == dst.ty.byte_size(), || format!("copy of {} into {}", &src.ty, &dst.ty))?;
            }
            Step::ParallelCopy { moves } => self.moves(moves)?,
            Step::Dot(d) => self.dot(d)?,
            Step::Conv(c) => self.conv(c)?,
            Step::CustomCall(c) => {
                let types = |bufs: &[BufRef]| -> Vec<(DType, Vec<i64>)> {
                    bufs.iter().map(|b| (b.ty.dtype, b.ty.dims.to_vec())).collect()
                };
                for b in c.inputs.iter().chain(&c.outputs) {
                    self.buffer(b)?;
                }
                check(
                    types(&c.inputs) == c.call.operand_types() && types(&c.outputs) == c.call.result_types(),
                    || format!("buffers that do not fit the call `{}`", c.call.spec()),
                )?;
            }
            Step::While { cond, pred, body, update } => {
                self.buffer(pred)?;
                check(pred.ty.dtype == DType::Pred && pred.ty.element_count() == 1, || {
                    format!("the loop predicate is {}, not a pred scalar", &pred.ty)
                })?;
                self.moves(update)?;
                self.steps(cond, &format!("{place} condition step")).map_err(StepError::nested)?;
                self.steps(body, &format!("{place} body step")).map_err(StepError::nested)?;
            }
            Step::Conditional { index, branches } => {
                self.buffer(index)?;
                check(matches!(index.ty.dtype, DType::Pred | DType::S32) && index.ty.element_count() == 1, || {
                    format!("the branch index is {}, not a pred or s32 scalar", &index.ty)
                })?;
                check(!branches.is_empty(), || "a conditional without branches".into())?;
                check(index.ty.dtype != DType::Pred || branches.len() == 2, || {
                    format!("a pred-indexed conditional with {} branches", branches.len())
                })?;
                for (b, steps) in branches.iter().enumerate() {
                    self.steps(steps, &format!("{place} branch {b} step")).map_err(StepError::nested)?;
                }
            }
        }
        Ok(())
    }

    fn kernel(&self, id: KernelId) -> Result<&Kernel> {
        self.program.kernels.get(id.0 as usize).ok_or_else(|| format!("kernel {} does not exist", id.0))
    }

    fn moves(&self, moves: &[(BufRef, BufRef)]) -> Result<()> {
        for (src, dst) in moves {
            self.buffer(src)?;
            self.buffer(dst)?;
            check(src.ty.byte_size() == dst.ty.byte_size(), || format!("move of {} into {}", &src.ty, &dst.ty))?;
        }
        Ok(())
    }

    /// `b` fits in the buffer it names.
    fn buffer(&self, b: &BufRef) -> Result<()> {
        let p = self.program;
        sized(&b.ty)?;
        let size = b.ty.byte_size();
        let (what, room) = match b.buffer {
            Buffer::Param(n) => ("parameter", p.params.get(n as usize).map(ArrayType::byte_size)),
            Buffer::Result(n) => ("result", p.results.get(n as usize).map(ArrayType::byte_size)),
            Buffer::Const(n) => ("constant", p.constants.get(n as usize).map(|c| c.bytes.len())),
            Buffer::Temp(offset) => ("temporary", Some(p.temp_bytes.saturating_sub(offset))),
        };
        match room {
            None => Err(format!("{what} buffer {:?} does not exist", b.buffer)),
            Some(room) if room < size => {
                Err(format!("{} ({size} bytes) does not fit in {what} buffer {:?} ({room} bytes)", &b.ty, b.buffer))
            }
            Some(_) => Ok(()),
        }
    }

    fn dot(&self, d: &DotStep) -> Result<()> {
        for b in [&d.lhs, &d.rhs, &d.out] {
            self.buffer(b)?;
        }
        let dims_ok = d.batch >= 0 && d.m >= 0 && d.n >= 0 && d.k >= 0;
        let count = |a: i64, b: i64, c: i64| a.checked_mul(b).and_then(|x| x.checked_mul(c));
        let fits = |b: &BufRef, n: Option<i64>| n.is_some_and(|n| b.ty.element_count() as i64 == n);
        check(
            dims_ok
                && fits(&d.lhs, count(d.batch, d.m, d.k))
                && fits(&d.rhs, count(d.batch, d.k, d.n))
                && fits(&d.out, count(d.batch, d.m, d.n)),
            || {
                format!(
                    "dot of {} and {} into {} does not fit batch {}, m {}, n {}, k {}",
                    &d.lhs.ty, &d.rhs.ty, &d.out.ty, d.batch, d.m, d.n, d.k
                )
            },
        )?;
        let (l, r, o) = (d.lhs.ty.dtype, d.rhs.ty.dtype, self.program.product_dtype(&d.out, &d.epilogue));
        // Two integer types (u8 x s8, quantized layers) need a wide signed result, as in HLO.
        let mixed_ok = l.is_int() && r.is_int() && o.is_signed_int() && o.bit_width() >= 32;
        check(l == r || mixed_ok, || format!("dot of {l} and {r} into {o}"))?;
        self.epilogue(&d.epilogue, &d.out)
    }

    fn conv(&self, c: &ConvStep) -> Result<()> {
        for b in [&c.input, &c.kernel, &c.out] {
            self.buffer(b)?;
        }
        check(c.window.len() == c.window_reversal.len(), || "window and reversal differ in length".into())?;
        check(c.feature_group_count >= 1 && c.batch_group_count >= 1, || "group counts below 1".into())?;
        let natural = c.natural_output_dims();
        let count =
            natural.as_ref().and_then(|d| d.iter().try_fold(1usize, |n, &x| n.checked_mul(usize::try_from(x).ok()?)));
        check(count == Some(c.out.ty.element_count()), || {
            format!(
                "convolution of {} by {} gives {natural:?}, which {} does not hold",
                &c.input.ty, &c.kernel.ty, &c.out.ty
            )
        })?;
        self.epilogue(&c.epilogue, &c.out)
    }

    /// An epilogue is a loop kernel over `out`'s dims whose input 0 is typed as
    /// `out` and whose single output is `out`.
    fn epilogue(&self, e: &Option<(KernelId, Vec<BufRef>)>, out: &BufRef) -> Result<()> {
        let Some((id, extra)) = e else { return Ok(()) };
        let k = self.kernel(*id)?;
        let KernelBody::Loop { space, .. } = &k.body else {
            return Err(format!("epilogue kernel '{}' is not a loop kernel", k.name));
        };
        check(k.outputs.len() == 1 && k.outputs[0] == out.ty && space == &out.ty.dims, || {
            format!("epilogue kernel '{}' does not compute {}", k.name, &out.ty)
        })?;
        // The product has `out`'s dims, and its type or an integer one.
        check(
            k.inputs.first().is_some_and(|t| t.dims == out.ty.dims && (t.dtype == out.ty.dtype || t.dtype.is_int())),
            || format!("epilogue kernel '{}' does not take the product as input 0", k.name),
        )?;
        operands(&k.inputs[1..], extra, "epilogue input")?;
        extra.iter().try_for_each(|b| self.buffer(b))
    }
}

/// Where a step's error came from: the step itself, or a nested one (whose
/// place is already complete).
enum StepError {
    Here(String),
    Nested(String, String),
}

impl StepError {
    fn nested((place, m): (String, String)) -> StepError {
        StepError::Nested(place, m)
    }
}

impl From<String> for StepError {
    fn from(m: String) -> StepError {
        StepError::Here(m)
    }
}

/// Buffers passed for a kernel's declared operands: as many, each of the
/// declared type.
fn operands(declared: &[ArrayType], given: &[BufRef], what: &str) -> Result<()> {
    check(declared.len() == given.len(), || format!("{} {what}s given for {}", given.len(), declared.len()))?;
    for (i, (t, b)) in declared.iter().zip(given).enumerate() {
        check(*t == b.ty, || format!("{what} {i} is {}, declared {}", &b.ty, t))?;
    }
    Ok(())
}

/// What a graph may refer to.
#[derive(Clone, Copy)]
struct Scope<'a> {
    /// Rank of the index space (`Index(d)` needs `d < rank`).
    rank: usize,
    /// Kernel inputs a load may read.
    inputs: &'a [ArrayType],
    /// Parameter types (scalar functions only).
    params: &'a [DType],
    /// The enclosing graph's types (reduction bodies only), up to the reduce node.
    outer: &'a [DType],
}

fn kernel(k: &Kernel) -> Result<()> {
    let scope = |rank| Scope { rank, inputs: &k.inputs, params: &[], outer: &[] };
    let outs = |space: &[i64], n: usize| -> Result<()> {
        check(k.outputs.len() == n, || format!("{} outputs declared, the body stores {n}", k.outputs.len()))?;
        for (i, o) in k.outputs.iter().enumerate() {
            check(o.dims == space, || format!("output {i} is {}, not shaped like the space {space:?}", o))?;
        }
        Ok(())
    };
    for t in k.inputs.iter().chain(&k.outputs) {
        sized(t)?;
    }
    match &k.body {
        KernelBody::Loop { space, .. }
        | KernelBody::Reduce { space, .. }
        | KernelBody::Scan { space, .. }
        | KernelBody::UpdateSlice { space, .. }
        | KernelBody::Scatter { space, .. } => extent(space, "space")?,
        KernelBody::Sort { dims, .. } => extent(dims, "space")?,
        KernelBody::SelectAndScatter { .. } | KernelBody::RngBitGenerator { .. } => {}
    }
    match &k.body {
        KernelBody::Loop { space, graph, outputs } => {
            graph_ok(graph, scope(space.len()))?;
            outs(space, outputs.len())?;
            stores(graph, outputs, &k.outputs)
        }
        KernelBody::Reduce { space, reduced, graph, init, values, reducer, reduce_outputs, extra } => {
            graph_ok(graph, scope(space.len()))?;
            check(reduced.windows(2).all(|w| w[0] < w[1]) && reduced.iter().all(|&d| d < space.len()), || {
                format!("reduced dimensions {reduced:?} are not ascending dimensions of {space:?}")
            })?;
            roots(graph, init)?;
            roots(graph, values)?;
            no_index(graph, init)?;
            let kept: Vec<i64> =
                space.iter().enumerate().filter(|(d, _)| !reduced.contains(d)).map(|(_, &x)| x).collect();
            check(reduce_outputs.len() == init.len(), || {
                format!("{} accumulators stored into {} outputs", init.len(), reduce_outputs.len())
            })?;
            for (r, &o) in reduce_outputs.iter().enumerate() {
                let t =
                    k.outputs.get(o).ok_or_else(|| format!("result {r} goes to output {o}, which does not exist"))?;
                check(t.dims == kept && t.dtype == graph.dtype(init[r]), || {
                    format!("result {r} is stored into {}, not {}[{kept:?}]", t, graph.dtype(init[r]))
                })?;
            }
            for &(o, n) in extra {
                let t = k.outputs.get(o).ok_or_else(|| format!("extra output {o} does not exist"))?;
                roots(graph, &[n])?;
                check(t.dims == *space && t.dtype == graph.dtype(n), || {
                    format!("extra output {o} is {}, not {}{space:?}", t, graph.dtype(n))
                })?;
            }
            reducer_ok(reducer, graph, init, values)
        }
        KernelBody::Scan { space, axis, graph, init, values, reducer, .. } => {
            graph_ok(graph, scope(space.len()))?;
            check(*axis < space.len(), || format!("scan axis {axis} of a rank-{} space", space.len()))?;
            roots(graph, init)?;
            roots(graph, values)?;
            no_index(graph, init)?;
            outs(space, init.len())?;
            let types: Vec<DType> = init.iter().map(|&i| graph.dtype(i)).collect();
            check(k.outputs.iter().map(|o| o.dtype).eq(types.iter().copied()), || {
                "scan outputs differ in type from the accumulators".into()
            })?;
            reducer_ok(reducer, graph, init, values)
        }
        KernelBody::UpdateSlice { space, graph, start, value } => {
            graph_ok(graph, scope(space.len()))?;
            roots(graph, start)?;
            roots(graph, &[*value])?;
            no_index(graph, start)?;
            let out = k.outputs.first().filter(|_| k.outputs.len() == 1).ok_or("an update-slice has one output")?;
            check(k.inputs.first() == Some(out), || "input 0 of an update-slice is not typed as its output".into())?;
            check(start.len() == out.dims.len() && space.len() == out.dims.len(), || {
                format!("a rank-{} update of {} at {} start indices", space.len(), out, start.len())
            })?;
            check(start.iter().all(|&s| graph.dtype(s) == DType::S64), || "start indices are not s64".into())?;
            check(graph.dtype(*value) == out.dtype, || format!("a {} value stored into {}", graph.dtype(*value), out))
        }
        KernelBody::Scatter { space, graph, target, in_bounds, values, combiner } => {
            graph_ok(graph, scope(space.len()))?;
            roots(graph, target)?;
            roots(graph, values)?;
            roots(graph, &[*in_bounds])?;
            check(graph.dtype(*in_bounds) == DType::Pred, || "the in-bounds flag is not pred".into())?;
            check(!k.outputs.is_empty() && k.outputs.len() == values.len(), || {
                format!("{} update values for {} outputs", values.len(), k.outputs.len())
            })?;
            let rank = k.outputs[0].dims.len();
            check(target.len() == rank && target.iter().all(|&t| graph.dtype(t) == DType::S64), || {
                format!("{} s64 target indices needed, {} given", rank, target.len())
            })?;
            let outs: Vec<DType> = k.outputs.iter().map(|o| o.dtype).collect();
            let news: Vec<DType> = values.iter().map(|&v| graph.dtype(v)).collect();
            function(combiner, &[outs.clone(), news].concat(), &outs, "combiner")
        }
        KernelBody::Sort { dims, dimension, comparator, .. } => {
            check(*dimension < dims.len(), || format!("sort dimension {dimension} of rank {}", dims.len()))?;
            check(k.inputs.len() == k.outputs.len() && !k.inputs.is_empty(), || {
                "sort takes n inputs to n outputs".into()
            })?;
            for (a, b) in k.inputs.iter().zip(&k.outputs) {
                check(a == b && a.dims == *dims, || format!("sort of {} into {} over {dims:?}", a, b))?;
            }
            let pairs: Vec<DType> = k.inputs.iter().flat_map(|t| [t.dtype, t.dtype]).collect();
            function(comparator, &pairs, &[DType::Pred], "comparator")
        }
        KernelBody::SelectAndScatter { window, select, scatter } => {
            let ([operand, source, init], [out]) = (&k.inputs[..], &k.outputs[..]) else {
                return Err("select-and-scatter takes operand, source and init to one output".into());
            };
            check(init.dims.is_empty() && out == operand, || "select-and-scatter's init or output is mistyped".into())?;
            let windows = crate::ir::WindowSpec::output_dims(window, &operand.dims);
            check(windows.as_deref() == Some(&source.dims[..]), || {
                format!("the source {} does not have one element per window of {}", source, operand)
            })?;
            let t = operand.dtype;
            function(select, &[t, t], &[DType::Pred], "select")?;
            function(scatter, &[t, source.dtype], &[t], "scatter")
        }
        KernelBody::RngBitGenerator { .. } => {
            let ([state], [new_state, bits]) = (&k.inputs[..], &k.outputs[..]) else {
                return Err("rng-bit-generator takes a state and gives a state and bits".into());
            };
            check(state.dtype == DType::U64 && state.dims.len() == 1 && new_state == state, || {
                format!("the state is {}, not u64[n]", state)
            })?;
            check(bits.dtype != DType::Pred, || "random bits cannot be pred".into())
        }
    }
}

/// The reducer takes every accumulator then every value and returns the
/// accumulators.
fn reducer_ok(reducer: &ScalarFn, graph: &Graph, init: &[NodeId], values: &[NodeId]) -> Result<()> {
    let accs: Vec<DType> = init.iter().map(|&i| graph.dtype(i)).collect();
    let vals: Vec<DType> = values.iter().map(|&v| graph.dtype(v)).collect();
    function(reducer, &[accs.clone(), vals].concat(), &accs, "reducer")
}

/// A scalar function taking `params` and giving `results`.
fn function(f: &ScalarFn, params: &[DType], results: &[DType], what: &str) -> Result<()> {
    check(f.params == params, || format!("the {what} takes {:?}, but is called with {params:?}", f.params))?;
    graph_ok(&f.graph, Scope { rank: 0, inputs: &[], params: &f.params, outer: &[] })
        .map_err(|m| format!("{what}: {m}"))?;
    roots(&f.graph, &f.outputs)?;
    let got: Vec<DType> = f.outputs.iter().map(|&o| f.graph.dtype(o)).collect();
    check(got == results, || format!("the {what} gives {got:?}, {results:?} wanted"))
}

/// Stores of `roots` into outputs of the given types.
fn stores(graph: &Graph, roots_: &[NodeId], outputs: &[ArrayType]) -> Result<()> {
    roots(graph, roots_)?;
    for (i, (&r, o)) in roots_.iter().zip(outputs).enumerate() {
        check(graph.dtype(r) == o.dtype, || format!("a {} value stored into output {i}, {}", graph.dtype(r), o))?;
    }
    Ok(())
}

fn roots(graph: &Graph, ids: &[NodeId]) -> Result<()> {
    match ids.iter().find(|n| n.0 as usize >= graph.len()) {
        Some(n) => Err(format!("node {} is not in the graph of {} nodes", n.0, graph.len())),
        None => Ok(()),
    }
}

/// `ids` depend on no loop index (they are computed once, before the loops).
fn no_index(graph: &Graph, ids: &[NodeId]) -> Result<()> {
    let live = graph.live(ids);
    match graph.nodes.iter().enumerate().find(|&(i, n)| live[i] && matches!(n, Node::Index(_))) {
        Some((i, _)) => Err(format!("an initial value or start index depends on loop index node {i}")),
        None => Ok(()),
    }
}

fn zero(t: DType) -> Scalar {
    if t.is_float() { Scalar::Float(t, 0.0) } else { Scalar::Int(t, 0) }
}

/// Checks a graph in `scope`.
fn graph_ok(graph: &Graph, scope: Scope<'_>) -> Result<()> {
    check(graph.types.len() == graph.nodes.len(), || {
        format!("a graph has {} nodes but {} types", graph.nodes.len(), graph.types.len())
    })?;
    for (i, node) in graph.nodes.iter().enumerate() {
        node_ok(graph, i, node, scope).map_err(|m| format!("node {i}: {m}"))?;
    }
    Ok(())
}

fn node_ok(graph: &Graph, i: usize, node: &Node, scope: Scope<'_>) -> Result<()> {
    let mut later = None;
    node.for_each_operand(|o| {
        if o.0 as usize >= i {
            later = Some(o);
        }
    });
    if let Some(o) = later {
        return Err(format!("refers to node {}, which does not come before it", o.0));
    }
    let t = graph.types[i];
    let ty = |n: &NodeId| graph.dtype(*n);
    let same = |want: DType| check(t == want, || format!("is typed {t}, but its operation gives {want}"));
    match node {
        Node::Index(d) => {
            check(*d < scope.rank, || format!("index of dimension {d} in a rank-{} space", scope.rank))?;
            same(DType::S64)
        }
        Node::Param(n) => {
            let p = scope.params.get(*n).ok_or_else(|| format!("parameter {n} of {}", scope.params.len()))?;
            same(*p)
        }
        Node::Const(c) => same(c.dtype()),
        Node::Load { input, index } => {
            let a =
                scope.inputs.get(*input).ok_or_else(|| format!("load of input {input} of {}", scope.inputs.len()))?;
            check(index.len() == a.dims.len(), || format!("{} indices into {}", index.len(), a))?;
            check(index.iter().all(|n| ty(n) == DType::S64), || "load indices are not s64".into())?;
            same(a.dtype)
        }
        Node::Unary { op, x } => same(sem::unary(*op, zero(ty(x))).map(Scalar::dtype)?),
        Node::Binary { op, a, b } => {
            sem::binary(*op, zero(ty(a)), zero(ty(b)))?;
            check(!crate::legalize::needs(*op, ty(a)), || {
                format!("{op:?} on {} is not legalized (smelt_kernel::legalize makes its edge cases explicit)", ty(a))
            })?;
            check(!op.is_unchecked() || ty(a).is_int(), || format!("{op:?} on {}", ty(a)))?;
            same(ty(a))
        }
        Node::Compare { direction, compare_type, a, b } => {
            sem::compare(*direction, *compare_type, zero(ty(a)), zero(ty(b)))?;
            same(DType::Pred)
        }
        Node::Select { pred, on_true, on_false } => {
            check(ty(pred) == DType::Pred, || format!("select on a {} value", ty(pred)))?;
            check(ty(on_true) == ty(on_false), || format!("select of {} and {}", ty(on_true), ty(on_false)))?;
            same(ty(on_true))
        }
        Node::Clamp { min, x, max } => {
            sem::clamp(zero(ty(min)), zero(ty(x)), zero(ty(max)))?;
            same(ty(x))
        }
        Node::MulAdd { a, b, c } => {
            sem::mul_add(zero(ty(a)), zero(ty(b)), zero(ty(c)))?;
            same(ty(a))
        }
        Node::Convert { to, .. } => same(*to),
        Node::Bitcast { x, to } => {
            sem::bitcast(zero(ty(x)), *to)?;
            same(*to)
        }
        Node::Reduce(r) => reduce_ok(graph, i, r, scope),
        Node::ReduceResult { reduce, index } => {
            let Some(Node::Reduce(r)) = graph.nodes.get(reduce.0 as usize) else {
                return Err(format!("result of node {}, which is not a reduction", reduce.0));
            };
            let init =
                r.init.get(*index).ok_or_else(|| format!("result {index} of a {}-result reduction", r.init.len()))?;
            same(ty(init))
        }
        Node::Outer(n) => {
            let o = scope
                .outer
                .get(n.0 as usize)
                .ok_or_else(|| format!("refers to enclosing node {}, out of reach", n.0))?;
            same(*o)
        }
    }
}

fn reduce_ok(graph: &Graph, i: usize, r: &InlineReduce, scope: Scope<'_>) -> Result<()> {
    extent(&r.window, "window")?;
    let body_scope = Scope { rank: r.window.len(), inputs: scope.inputs, params: &[], outer: &graph.types[..i] };
    graph_ok(&r.body, body_scope).map_err(|m| format!("reduction body: {m}"))?;
    roots(&r.body, &r.values)?;
    // One value per accumulator, or one more: a validity flag the reducer reads.
    check(r.values.len() == r.init.len() || r.values.len() == r.init.len() + 1, || {
        format!("{} accumulators and {} values", r.init.len(), r.values.len())
    })?;
    let accs: Vec<DType> = r.init.iter().map(|&n| graph.dtype(n)).collect();
    let vals: Vec<DType> = r.values.iter().map(|&v| r.body.dtype(v)).collect();
    function(&r.reducer, &[accs.clone(), vals].concat(), &accs, "reducer")?;
    check(accs.first().is_none_or(|&t| t == graph.types[i]), || "a reduction not typed as its first accumulator".into())
}

#[cfg(test)]
mod tests {
    use smelt_hlo::parse_module;
    use smelt_hlo::reducers::{ADD, LT};

    use super::*;
    use crate::ir::{BinaryOp, Buffer, KernelId, UnaryOp};

    /// A program with a fused dot and epilogue, a row reduction, a sort and a
    /// while loop: every kind of step and most kernel bodies.
    fn program() -> Program {
        let text = r#"HloModule m
cond {
  s = (s32[], f32[5]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(3)
  ROOT lt = pred[] compare(i, n), direction=LT
}
body {
  s = (s32[], f32[5]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  one = s32[] constant(1)
  j = s32[] add(i, one)
  x = f32[5] get-tuple-element(s), index=1
  y = f32[5] exponential(x)
  ROOT t = (s32[], f32[5]) tuple(j, y)
}
"#;
        let entry = r#"ENTRY e {
  a = f32[4,3] parameter(0)
  b = f32[3,5] parameter(1)
  d = f32[4,5] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  z = f32[] constant(0)
  zb = f32[4,5] broadcast(z), dimensions={}
  relu = f32[4,5] maximum(d, zb)
  r = f32[4] reduce(relu, z), dimensions={1}, to_apply=add
  s = f32[4] sort(r), dimensions={0}, to_apply=lt
  i0 = s32[] constant(0)
  v = f32[5] parameter(2)
  st = (s32[], f32[5]) tuple(i0, v)
  w = (s32[], f32[5]) while(st), condition=cond, body=body
  wv = f32[5] get-tuple-element(w), index=1
  ROOT out = (f32[4,5], f32[4], f32[5]) tuple(relu, s, wv)
}
"#;
        let text = [text, ADD, LT, entry].concat();
        let m = parse_module(&text).unwrap_or_else(|e| panic!("{}", e.render("test")));
        let mut m = m;
        let mut cx = smelt_passes::PassContext::new(smelt_passes::Options::default());
        smelt_passes::default_pipeline(&smelt_passes::Options::default()).run_on(&mut m, &mut cx).unwrap();
        crate::lower_module(&m).unwrap()
    }

    fn first_graph(p: &mut Program) -> &mut Graph {
        for k in &mut p.kernels {
            if let KernelBody::Loop { graph, .. } | KernelBody::Reduce { graph, .. } = &mut k.body
                && graph.nodes.iter().any(|n| matches!(n, Node::Load { index, .. } if !index.is_empty()))
            {
                return graph;
            }
        }
        panic!("no loop or reduce kernel with a load");
    }

    fn first_kernel_step(p: &mut Program) -> (&mut KernelId, &mut Vec<BufRef>) {
        for s in &mut p.steps {
            if let Step::Kernel { kernel, inputs, .. } = s
                && !inputs.is_empty()
            {
                return (kernel, inputs);
            }
        }
        panic!("no kernel step with inputs");
    }

    /// Applies `f` to a fresh copy of the program and returns the verifier's
    /// complaint, which must exist.
    fn refused(what: &str, f: impl FnOnce(&mut Program)) -> String {
        let mut p = program();
        f(&mut p);
        match verify(&p) {
            Ok(_) => panic!("{what}: the verifier accepted a malformed program"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn lowered_programs_verify() {
        let p = program();
        verify(&p).unwrap_or_else(|e| panic!("{e}\n{p}"));
        assert!(p.steps.iter().any(|s| matches!(s, Step::Dot(_))));
        assert!(p.steps.iter().any(|s| matches!(s, Step::While { .. })));
    }

    #[test]
    fn malformed_programs_are_errors_naming_the_place() {
        let e = refused("missing kernel", |p| *first_kernel_step(p).0 = KernelId(999));
        assert!(e.contains("kernel 999 does not exist"), "{e}");
        let e = refused("temporary past the arena", |p| {
            let t = p.temp_bytes;
            first_kernel_step(p).1[0].buffer = Buffer::Temp(t + 4096);
        });
        assert!(e.contains("does not fit"), "{e}");
        let e = refused("missing parameter", |p| first_kernel_step(p).1[0].buffer = Buffer::Param(77));
        assert!(e.contains("does not exist") && e.contains("step"), "{e}");
        let e = refused("wrong operand type", |p| first_kernel_step(p).1[0].ty.dtype = DType::S8);
        assert!(e.contains("declared"), "{e}");
        let e = refused("forward reference", |p| {
            let g = first_graph(p);
            let n = g.nodes.len() as u32;
            g.nodes.push(Node::Unary { op: UnaryOp::Neg, x: NodeId(n + 3) });
            g.types.push(DType::F32);
        });
        assert!(e.contains("does not come before it"), "{e}");
        let e = refused("load of a missing input", |p| {
            let g = first_graph(p);
            let i = g.nodes.iter().position(|n| matches!(n, Node::Load { .. })).unwrap();
            if let Node::Load { input, .. } = &mut g.nodes[i] {
                *input = 40;
            }
        });
        assert!(e.contains("load of input 40"), "{e}");
        let e = refused("too few load indices", |p| {
            let g = first_graph(p);
            let i = g.nodes.iter().position(|n| matches!(n, Node::Load { index, .. } if !index.is_empty())).unwrap();
            if let Node::Load { index, .. } = &mut g.nodes[i] {
                index.pop();
            }
        });
        assert!(e.contains("indices into"), "{e}");
        let e = refused("index beyond the space", |p| {
            let g = first_graph(p);
            g.nodes.push(Node::Index(9));
            g.types.push(DType::S64);
        });
        assert!(e.contains("index of dimension 9"), "{e}");
        let e = refused("mixed operand types", |p| {
            let g = first_graph(p);
            g.nodes.push(Node::Const(Scalar::Int(DType::S32, 1)));
            g.nodes.push(Node::Const(Scalar::Float(DType::F32, 1.0)));
            let n = g.nodes.len() as u32;
            g.nodes.push(Node::Binary { op: BinaryOp::Add, a: NodeId(n - 2), b: NodeId(n - 1) });
            g.types.extend([DType::S32, DType::F32, DType::S32]);
        });
        assert!(e.contains("Add of s32 and f32"), "{e}");
        let e = refused("popcnt of a float", |p| {
            let g = first_graph(p);
            g.nodes.push(Node::Const(Scalar::Float(DType::F32, 1.0)));
            let n = g.nodes.len() as u32;
            g.nodes.push(Node::Unary { op: UnaryOp::Popcnt, x: NodeId(n - 1) });
            g.types.extend([DType::F32, DType::F32]);
        });
        assert!(e.contains("Popcnt is not defined on f32"), "{e}");
        let e = refused("a node typed against its operation", |p| {
            let g = first_graph(p);
            let i = g.nodes.iter().position(|n| matches!(n, Node::Load { .. })).unwrap();
            g.types[i] = DType::U16;
        });
        assert!(e.contains("is typed u16"), "{e}");
        let e = refused("a graph with a missing type", |p| {
            first_graph(p).types.pop();
        });
        assert!(e.contains("types"), "{e}");
        let e = refused("a result of something that is not a reduction", |p| {
            let g = first_graph(p);
            g.nodes.push(Node::ReduceResult { reduce: NodeId(0), index: 0 });
            g.types.push(DType::F32);
        });
        assert!(e.contains("not a reduction"), "{e}");
        let e = refused("an enclosing node out of reach", |p| {
            let g = first_graph(p);
            g.nodes.push(Node::Outer(NodeId(0)));
            g.types.push(DType::F32);
        });
        assert!(e.contains("out of reach"), "{e}");
        let e = refused("a reducer of the wrong arity", |p| {
            for k in &mut p.kernels {
                if let KernelBody::Reduce { reducer, .. } = &mut k.body {
                    reducer.params.push(DType::F32);
                    return;
                }
            }
            panic!("no reduce kernel");
        });
        assert!(e.contains("reducer"), "{e}");
        let e = refused("a comparator that is not a predicate", |p| {
            for k in &mut p.kernels {
                if let KernelBody::Sort { comparator, .. } = &mut k.body {
                    let o = comparator.outputs[0];
                    comparator.graph.types[o.0 as usize] = DType::F32;
                    return;
                }
            }
            panic!("no sort kernel");
        });
        assert!(e.contains("comparator"), "{e}");
        let e = refused("a dot that does not fit its operands", |p| {
            for s in &mut p.steps {
                if let Step::Dot(d) = s {
                    d.k += 1;
                    return;
                }
            }
            panic!("no dot");
        });
        assert!(e.contains("does not fit batch"), "{e}");
        let e = refused("a loop predicate that is not pred", |p| {
            for s in &mut p.steps {
                if let Step::While { pred, .. } = s {
                    pred.ty.dtype = DType::S32;
                    return;
                }
            }
            panic!("no while");
        });
        assert!(e.contains("loop predicate"), "{e}");
        let e = refused("a constant short of bytes", |p| {
            p.constants
                .push(crate::ir::ConstData { ty: ArrayType { dtype: DType::F32, dims: vec![4] }, bytes: vec![0; 3] });
        });
        assert!(e.contains("constant"), "{e}");
    }

    /// Random damage never panics the verifier; nearly all of it is refused.
    #[test]
    fn random_damage_is_refused_without_panics() {
        let base = program();
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n.max(1) as u64) as usize
        };
        let mut refused = 0;
        let trials = 300;
        for _ in 0..trials {
            let mut p = base.clone();
            let k = next(p.kernels.len());
            let kernel = &mut p.kernels[k];
            let graph = match &mut kernel.body {
                KernelBody::Loop { graph, .. } | KernelBody::Reduce { graph, .. } => graph,
                KernelBody::Sort { comparator, .. } => &mut comparator.graph,
                _ => continue,
            };
            let n = graph.nodes.len();
            if n == 0 {
                continue;
            }
            let at = next(n);
            let any = NodeId(next(n + 3) as u32);
            match next(4) {
                0 => graph.types[at] = DType::ALL[next(13)],
                1 => graph.nodes[at] = Node::Convert { x: any, to: DType::ALL[next(13)] },
                2 => graph.nodes[at] = Node::Select { pred: any, on_true: NodeId(0), on_false: any },
                _ => graph.nodes[at] = Node::Bitcast { x: any, to: DType::ALL[next(13)] },
            }
            if p != base && verify(&p).is_err() {
                refused += 1;
            }
        }
        assert!(refused > trials / 2, "only {refused} of {trials} damaged programs were refused");
    }
}
