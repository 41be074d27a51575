//! Tile-interpreted kernels: fused elementwise and row-reduction kernels run
//! by an interpreter over precompiled operations instead of being compiled.
//!
//! Compiling a kernel with LLVM costs 10-30 ms however little it computes
//! (a softmax's four kernels, each with an inlined `exp`, took 50-60 ms on
//! two cores); XLA runs such fusions on precompiled kernels. Here a kernel
//! whose values are float or `pred` rows ([`plan`] says which) becomes tile
//! code, a list of words the interpreter ([`run`]) executes a row at a time
//! in chunks of [`library::TILE`] lanes, calling one library function
//! ([`library`]) per operation and chunk. The library is compiled once per
//! machine into the routine cache, from the same code generator as compiled
//! kernels, so results agree bit for bit but for the order of float
//! reductions. The kernel's entry point stays, a stub calling the
//! interpreter, so launches, threads and profiles are unchanged.
//!
//! What it costs at run time: every operation reads and writes a chunk in
//! L1 or L2 instead of registers, plus a call per operation and chunk (1.5-3x
//! a compiled kernel's time); what it saves is the kernel's whole compile.
//! Where math functions dominate (activations, exponentials) the library's
//! loops are as fast as compiled ones and the overhead shrinks to 0-15%.
//! [`TileMode::Auto`] therefore interprets only programs with little work
//! ([`AUTO_MAX_WORK`]) or a small estimated slowdown ([`AUTO_MAX_SLOWDOWN`]),
//! in long rows ([`AUTO_MIN_LANES`]), all of whose kernels it can run (then
//! the program's own module is glue, compiled at level 0 in a millisecond),
//! and never kernels in while loops, which run many times.

mod library;
mod plan;
mod run;

use std::collections::HashMap;

use smelt_kernel::{Program, Step};
use smelt_llvm::codegen::launch_shape;

pub(crate) use library::TileGroup;
#[cfg(test)]
pub(crate) use library::{TILE, TileFn};
pub(crate) use plan::TileKernel;
pub use run::{TILE_RUN_SYMBOL, tile_run_address};

/// The most work ([`launch_shape`]'s scalar operations, summed over a
/// program's kernels) [`TileMode::Auto`] interprets: about a millisecond of
/// compiled code on one core. Interpreted kernels ran 1.5-3x slower than
/// compiled ones (a layer norm, a softmax and elementwise chains over 4-16M
/// elements; AMD EPYC, Zen 2), so past this the time a compile saves (10-50
/// ms) is soon spent again by a program run in a loop.
const AUTO_MAX_WORK: f64 = (1u64 << 22) as f64;

/// The most estimated slowdown ([`plan::slowdown`], weighted by the
/// kernels' work) at which [`TileMode::Auto`] interprets programs of any
/// work: kernels dominated by math functions, which the library computes
/// about as fast as compiled code does, so that the compile (30-60 ms) buys
/// little. Interpreted over compiled run time against the estimate (AMD
/// EPYC, Zen 2; `docs/benchmarks.md`): `ew_unary_chain_f32` 0.98 (1.09),
/// `log_softmax` 1.13-1.20 (1.21), `gates` 1.02 (1.28), `softmax` 1.13-1.20
/// (1.28), a column softmax over `[2048, 2048]` 1.42 (1.29); above the
/// bound `row_logit_stats` 1.40 (1.37), `ew_activations` 1.62 (1.76),
/// `layernorm` 1.56 (2.57).
const AUTO_MAX_SLOWDOWN: f64 = 1.3;

/// The fewest lanes per call [`TileMode::Auto`] interprets: over shorter rows
/// the interpreter's dispatch outweighs the work (a broadcast over rows of
/// 16 ran 4.6 us against 0.1 compiled).
const AUTO_MIN_LANES: i64 = 128;

/// Which kernels the tile interpreter runs (`SMELT_TILES`: `off`, `auto`, `all`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TileMode {
    /// Every kernel is compiled.
    Off,
    /// The kernels of programs with little work whose every launched
    /// kernel can be interpreted and none of which runs in a loop.
    #[default]
    Auto,
    /// Every kernel that can be interpreted (tests and measurements).
    All,
}

impl TileMode {
    /// The mode `SMELT_TILES` names, else [`TileMode::Auto`].
    pub fn from_env() -> TileMode {
        match std::env::var("SMELT_TILES").as_deref().map(str::trim) {
            Ok("off" | "0") => TileMode::Off,
            Ok("all" | "1") => TileMode::All,
            _ => TileMode::Auto,
        }
    }
}

/// The kernels of `program` to interpret under `mode`, by kernel id.
/// Epilogue kernels of products and convolutions are never among them (the
/// routines call them per block).
pub(crate) fn plan_program(program: &Program, mode: TileMode) -> HashMap<u32, TileKernel> {
    let mut plans = HashMap::new();
    if mode == TileMode::Off {
        return plans;
    }
    // Kernels steps launch, and whether in a loop.
    let mut launched: Vec<(u32, bool)> = Vec::new();
    let mut epilogues: Vec<u32> = Vec::new();
    collect(&program.steps, false, &mut launched, &mut epilogues);
    // The program's work, and its work weighted by the kernels' estimated
    // slowdowns.
    let (mut work, mut slowed) = (0.0, 0.0);
    for &(kid, in_loop) in &launched {
        if epilogues.contains(&kid) || plans.contains_key(&kid) {
            continue;
        }
        let planned = program.kernels.get(kid as usize).and_then(plan::plan);
        if let Some(shape) = program.kernels.get(kid as usize).and_then(|k| launch_shape(k).ok()) {
            let w = shape.n as f64 * shape.cost;
            work += w;
            slowed += w * planned.as_ref().map_or(1.0, |p| p.slowdown);
        }
        match planned {
            Some(p) if mode == TileMode::All || (!in_loop && p.lanes >= AUTO_MIN_LANES) => {
                plans.insert(kid, p);
            }
            _ if mode == TileMode::Auto => return HashMap::new(),
            _ => {}
        }
    }
    if mode == TileMode::Auto && work > AUTO_MAX_WORK && slowed > work * AUTO_MAX_SLOWDOWN {
        return HashMap::new();
    }
    plans
}

fn collect(steps: &[Step], in_loop: bool, launched: &mut Vec<(u32, bool)>, epilogues: &mut Vec<u32>) {
    for s in steps {
        match s {
            Step::Kernel { kernel, .. } => launched.push((kernel.0, in_loop)),
            Step::Dot(d) => epilogues.extend(d.epilogue.iter().map(|e| e.0.0)),
            Step::Conv(c) => epilogues.extend(c.epilogue.iter().map(|e| e.0.0)),
            Step::While { cond, body, .. } => {
                collect(cond, true, launched, epilogues);
                collect(body, true, launched, epilogues);
            }
            Step::Conditional { branches, .. } => {
                for b in branches {
                    collect(b, in_loop, launched, epilogues);
                }
            }
            Step::Copy { .. } | Step::ParallelCopy { .. } | Step::CustomCall(_) => {}
        }
    }
}

/// The library groups `plans` call.
pub(crate) fn groups(plans: &HashMap<u32, TileKernel>) -> Vec<TileGroup> {
    let mut v: Vec<TileGroup> = Vec::new();
    for p in plans.values() {
        for f in &p.fns {
            if let Some(g) = f.group()
                && !v.contains(&g)
            {
                v.push(g);
            }
        }
    }
    v.sort_by_key(|g| (g.dtype.byte_size(), g.math));
    v
}

/// Whether `plans` leaves `program`'s module nothing but glue: every kernel
/// a step launches is interpreted, no product or convolution (whose
/// epilogues compile), no loop. Such a module is optimized and code
/// generated at a low level (its code calls; nothing in it loops over data).
pub(crate) fn glue_only(program: &Program, plans: &HashMap<u32, TileKernel>) -> bool {
    let (mut launched, mut epilogues) = (Vec::new(), Vec::new());
    collect(&program.steps, false, &mut launched, &mut epilogues);
    !plans.is_empty()
        && epilogues.is_empty()
        && launched.iter().all(|(k, in_loop)| !in_loop && plans.contains_key(k))
        && !program.steps.iter().any(|s| matches!(s, Step::Dot(_) | Step::Conv(_) | Step::CustomCall(_)))
}

/// Whether the tile interpreter can run every kernel `program` launches,
/// leaving its module glue only, in rows long enough to pay
/// ([`AUTO_MIN_LANES`]): what the JIT's tiered mode may run first while LLVM
/// compiles.
pub fn runs_interpreted(program: &Program) -> bool {
    let plans = plan_program(program, TileMode::All);
    glue_only(program, &plans) && plans.values().all(|p| p.lanes >= AUTO_MIN_LANES)
}
