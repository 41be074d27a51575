//! Which tier runs a tiered compilation's first launches: the CPU backend's
//! tile interpreter (programs it runs whole) or Cranelift code while LLVM
//! compiles in the background, or LLVM code compiled in the foreground. The baseline exists to give a first result sooner; when its
//! run would outlast LLVM's compile, waiting for LLVM is sooner (a BERT
//! encoder: 360 ms to the first result through Cranelift, its products on
//! the portable dot routine beside LLVM's compile, 285-320 ms through LLVM;
//! `sort_argsort`: 672 against 156 ms).
//!
//! Both sides are estimates in nanoseconds of this machine's time, so their
//! ratio, not their scale, decides: the baseline's run from the program's
//! work ([`smelt_kernel::ProgramWork`]) at the Cranelift tier's rates, LLVM's
//! compile from its kernel count. The rates were fitted on twelve corpus
//! programs at benchmark size (products, kernels, sorts, copies) on an AMD
//! EPYC (Zen 2); a faster machine speeds both sides alike. A while loop's
//! body counts once, so a long loop's baseline run is underestimated and the
//! baseline still runs first (an LSTM training step: 370 ms to its first
//! result, where LLVM alone took 500 ms to compile).

use smelt_kernel::{Program, ProgramWork};

/// The baseline's nanoseconds per unit of work: a scalar kernel operation
/// (0.1 to 2 measured, by the operations' mix), a byte copied, a multiply-add
/// of the portable dot routine (0.022 to 0.057), a sort's comparison (37:
/// the baseline sorts with a generic comparator call).
const KERNEL_OP_NS: f64 = 0.5;
const COPY_BYTE_NS: f64 = 0.1;
const PRODUCT_MAC_NS: f64 = 0.03;
const SORT_COMPARE_NS: f64 = 30.0;

/// The tile interpreter's nanoseconds per scalar kernel operation (CPU
/// backend, every kernel interpreted): 4.5x Cranelift's speed (2.4 to 6.8
/// over a softmax, a log-softmax, a layer norm and an elementwise chain at
/// benchmark size, AMD EPYC Zen 2).
const TILE_KERNEL_OP_NS: f64 = 0.11;

/// The tile interpreter's compile (glue at level 0; the library is built
/// once per machine), nanoseconds: 6-7 ms measured, 20 with a program's
/// worth of elementwise chains.
const TILES_COMPILE_NS: f64 = 8e6;

/// How much longer interpreted kernels run than compiled ones: 1.47x in
/// geomean over nine programs at benchmark size (1.0 to 2.2).
const TILES_SLOWDOWN: f64 = 1.5;

/// LLVM's compile: a fixed part and a part per kernel, in nanoseconds.
const LLVM_FIXED_NS: f64 = 20e6;
const LLVM_KERNEL_NS: f64 = 8e6;

/// How much longer the baseline's run takes than alone: LLVM compiles on the
/// same cores meanwhile (a BERT encoder's baseline run: 164 ms alone, about
/// 320 beside the compile, on 2 cores). It also stands for LLVM's own run,
/// which waiting for LLVM adds.
const SHARED_CORES: f64 = 1.5;

/// The two estimates for `program`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FirstTierEstimate {
    /// One run on the Cranelift tier, nanoseconds.
    pub baseline_run_ns: f64,
    /// One run with every kernel on the tile interpreter, nanoseconds
    /// (products, sorts and copies as LLVM code runs them: none of them in
    /// programs the interpreter runs whole).
    pub tiles_run_ns: f64,
    /// LLVM's compile, nanoseconds.
    pub llvm_compile_ns: f64,
}

impl FirstTierEstimate {
    pub fn of(program: &Program) -> FirstTierEstimate {
        let w = ProgramWork::of(program);
        FirstTierEstimate {
            baseline_run_ns: w.kernel * KERNEL_OP_NS
                + w.copy * COPY_BYTE_NS
                + w.product * PRODUCT_MAC_NS
                + w.sort * SORT_COMPARE_NS,
            tiles_run_ns: w.kernel * TILE_KERNEL_OP_NS + w.copy * COPY_BYTE_NS,
            llvm_compile_ns: LLVM_FIXED_NS + LLVM_KERNEL_NS * program.kernels.len() as f64,
        }
    }

    /// Whether running the baseline first gives the first result sooner.
    pub fn baseline_first(&self) -> bool {
        self.baseline_run_ns * SHARED_CORES <= self.llvm_compile_ns
    }

    /// Whether running the tile interpreter first (for a program it runs
    /// whole) gives the first result sooner: its compile and run against
    /// LLVM's compile and run ([`TILES_SLOWDOWN`] times shorter). The
    /// background compile waits for the first run, which has the cores.
    pub fn tiles_first(&self) -> bool {
        TILES_COMPILE_NS + self.tiles_run_ns <= self.llvm_compile_ns + self.tiles_run_ns / TILES_SLOWDOWN
    }
}
