//! smelt's reference interpreter: what every HLO program means.
//!
//! Every backend is tested against this crate, and constant folding reuses it,
//! so correctness comes first: each opcode follows XLA's operation semantics,
//! and where XLA leaves a choice to the implementation (integer division by
//! zero, shifts out of range, float -> int overflow, NaN in max/min) it does what
//! XLA CPU does (see [`edge`](crate::edge)). Speed comes second but matters:
//! values stay typed (`Vec<f32>`, not boxed scalars), kernels run typed loops,
//! and reducers/comparators compile to small scalar programs.
//!
//! Complex values are computed on as their parts: a module with `c64`/`c128`
//! values is first rewritten by `smelt_hlo::complex::lower` (the one place
//! complex semantics live, XLA CPU's formulas), and its complex arguments and
//! results are passed as parts (`c64[3]` as `f32[3,2]`).
//!
//! The interpreter accepts any module, verified or not: malformed input (bad
//! operand shapes, indices out of range, absurd sizes, recursion) is an
//! [`InterpError`] naming the computation and instruction, never a panic or a
//! giant allocation.
//!
//! Code map: [`eval`](crate::eval) walks computations and holds control flow;
//! `elementwise`, `shape_ops`, `reduce`, `dot`, `conv`, `gather`, `sort`, `rng`
//! and `batchnorm` are the kernels; `num` and `edge` define per-element
//! semantics, and [`scalar`] makes them public for every other executor;
//! `value` and `apply` handle scalars and scalar programs; `index` does index
//! arithmetic.

mod apply;
mod batchnorm;
mod conv;
mod dot;
mod edge;
mod elementwise;
mod error;
mod eval;
mod gather;
mod index;
mod num;
mod reduce;
mod rng;
pub mod scalar;
mod shape_ops;
mod sort;
mod value;

use smelt_hlo::{CompId, InstId, Literal, Module, Shape, budget};

pub use error::InterpError;
pub use sort::merge_sort;

/// The largest array (in elements) the interpreter creates. Anything larger is
/// an [`InterpError::TooLarge`] rather than an attempt to allocate it.
pub const MAX_ELEMENTS: usize = 1 << 28;

/// Limits on an evaluation. The default imposes none beyond [`MAX_ELEMENTS`],
/// which is XLA's semantics; a caller that must not hang on a non-terminating
/// loop (a constant folder, a fuzzer) sets `max_while_iterations`.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Iterations any one `while` may run before evaluation fails with
    /// [`InterpError::IterationLimit`].
    pub max_while_iterations: Option<u64>,
    /// The memory budget the arguments and result are checked against
    /// (None: the environment's, [`budget::MemoryBudget::from_env`]).
    pub memory: Option<budget::MemoryBudget>,
}

/// XLA's `rng-bit-generator` on concrete values: `(new state, bits of out's
/// shape)`. Public so every executor of the kernel form shares one definition
/// of the bit streams.
pub fn rng_bit_generator(
    algorithm: smelt_hlo::attrs::RngAlgorithm,
    state: &smelt_hlo::Array,
    out: &smelt_hlo::ArrayShape,
) -> Result<Literal, String> {
    rng::rng_bit_generator(algorithm, state, out).map_err(error::Fail::message)
}

/// XLA's `dot` on concrete arrays, with general dimension numbers (products
/// accumulate in f32 for f16, bf16 and f32 results, f64 for f64, wrapping i64
/// for integers; see `dot.rs`): the one definition of a product's arithmetic,
/// which every executor of the kernel form shares.
pub fn dot(
    lhs: &smelt_hlo::Array,
    rhs: &smelt_hlo::Array,
    dims: &smelt_hlo::attrs::DotDims,
    out: smelt_hlo::DType,
) -> Result<smelt_hlo::Array, String> {
    dot::dot(lhs, rhs, dims, out).map_err(error::Fail::message)
}

/// XLA's `convolution` on concrete arrays, as [`dot`] is for products.
pub fn convolution(
    lhs: &smelt_hlo::Array,
    rhs: &smelt_hlo::Array,
    attrs: &smelt_hlo::attrs::ConvAttrs,
    out: smelt_hlo::DType,
) -> Result<smelt_hlo::Array, String> {
    conv::convolution(lhs, rhs, attrs, out).map_err(error::Fail::message)
}

/// Evaluates the module's entry computation on `args` (one per parameter, in
/// parameter order). Argument count, shapes and element types are checked;
/// layouts are ignored, as values are logical.
pub fn evaluate(module: &Module, args: &[Literal]) -> Result<Literal, InterpError> {
    evaluate_computation(module, module.entry, args)
}

/// Evaluates computation `comp` of `module` on `args`.
pub fn evaluate_computation(module: &Module, comp: CompId, args: &[Literal]) -> Result<Literal, InterpError> {
    evaluate_with(module, comp, args, &Options::default())
}

/// Evaluates computation `comp` of `module` on `args` within `options`' limits.
pub fn evaluate_with(
    module: &Module,
    comp: CompId,
    args: &[Literal],
    options: &Options,
) -> Result<Literal, InterpError> {
    // The arguments and the result, against the memory budget, as every
    // compiled backend checks its programs.
    let c = module.comp(comp);
    let shapes = c.params().into_iter().chain([c.root]).map(|id| &c.inst(id).shape);
    let leaves = shapes.flat_map(Shape::leaves).map(|a| (&a.dims[..], a.dtype));
    let what = || format!("the parameters and result of computation '{}'", c.name);
    match options.memory {
        Some(memory) => memory.check_arrays(leaves, what)?,
        None => budget::check_arrays(leaves, what)?,
    }
    let refs: Vec<&Literal> = args.iter().collect();
    // Complex values are computed on as their parts (`smelt_hlo::complex`), and
    // are passed and returned as such.
    if smelt_hlo::complex::has_complex(module) {
        let mut lowered = module.clone();
        smelt_hlo::complex::lower(&mut lowered)?;
        return eval::Evaluator::new(&lowered, options).call(comp, &refs);
    }
    eval::Evaluator::new(module, options).call(comp, &refs)
}

/// Evaluates the single instruction `inst` of computation `comp` on the given
/// operand values (one per operand, matching the operands' declared shapes):
/// what constant folding needs. Called computations (reducers, loop bodies) run
/// as usual; a `parameter` has no value here and is an error.
pub fn evaluate_instruction(
    module: &Module,
    comp: CompId,
    inst: InstId,
    operands: &[Literal],
) -> Result<Literal, InterpError> {
    let refs: Vec<&Literal> = operands.iter().collect();
    eval::Evaluator::new(module, &Options::default()).instruction(comp, inst, &refs)
}

#[cfg(test)]
mod tests;
