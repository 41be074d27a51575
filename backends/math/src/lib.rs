//! Transcendental functions as straight-line code, written once for every
//! code generator.
//!
//! Every float function that is not a native instruction (exp, log, the
//! trigonometric functions, erf, pow, ...) is built from an [`Emit`]ter's
//! primitives: range reduction, a minimax polynomial, exponent arithmetic on
//! the integer view of the bits, and selects for the special values, with no
//! branches, loops or calls. The LLVM renderers (CPU and GPU) and the Cranelift
//! renderer implement [`Emit`] over their own IR and call [`build`], so every
//! tier emits the same operations in the same order and computes the same bits
//! (with [`Emit::fused`] agreeing, which each decides from the host). After
//! LLVM inlines a function into a loop, the loop still vectorizes. A rare
//! path (sin, cos and tan of huge arguments) is computed by [`build`] for
//! every argument; [`build_common`] and [`rare_path`] let a code generator put
//! it behind a branch instead, so the common case does not pay for it.
//!
//! The special values (NaN, ±inf, ±0, subnormals, overflow and underflow) follow
//! C99/IEEE 754 as the reference interpreter computes them with libm; the
//! accuracy of each function is measured by the CPU backend's `math` tests and
//! tabulated in `docs/math.md`, which also says how each one is approximated.
//!
//! - `emit`: the emitter interface and the building blocks written on it
//!   (polynomials, the shifter trick, `ldexp`, double-word arithmetic).
//! - `coeffs`: the polynomial coefficients (generated, see `docs/math.md`).
//! - `exp`, `log`, `trig`, `special`: the functions, grouped by shared kernels.

mod coeffs;
mod emit;
mod exp;
mod log;
mod special;
mod trig;

use smelt_kernel::{BinaryOp, UnaryOp};

pub use emit::{Emit, FCmp, ICmp, ldexp_in_two_steps};

/// A float function the library builds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MathOp {
    Exp,
    Expm1,
    Log,
    Log1p,
    Tanh,
    Logistic,
    Erf,
    Sin,
    Cos,
    Tan,
    /// `pow(x, y)`, C99 semantics (`pow(x, 0) = 1` even for NaN `x`).
    Pow,
    /// `atan2(y, x)`: the first argument is `y`.
    Atan2,
    Rsqrt,
    Cbrt,
}

impl MathOp {
    pub const ALL: [MathOp; 14] = [
        MathOp::Exp,
        MathOp::Expm1,
        MathOp::Log,
        MathOp::Log1p,
        MathOp::Tanh,
        MathOp::Logistic,
        MathOp::Erf,
        MathOp::Sin,
        MathOp::Cos,
        MathOp::Tan,
        MathOp::Pow,
        MathOp::Atan2,
        MathOp::Rsqrt,
        MathOp::Cbrt,
    ];

    /// The name used in the function's symbol (`smelt.math.<name>.<type>`).
    pub fn name(self) -> &'static str {
        match self {
            MathOp::Exp => "exp",
            MathOp::Expm1 => "expm1",
            MathOp::Log => "log",
            MathOp::Log1p => "log1p",
            MathOp::Tanh => "tanh",
            MathOp::Logistic => "logistic",
            MathOp::Erf => "erf",
            MathOp::Sin => "sin",
            MathOp::Cos => "cos",
            MathOp::Tan => "tan",
            MathOp::Pow => "pow",
            MathOp::Atan2 => "atan2",
            MathOp::Rsqrt => "rsqrt",
            MathOp::Cbrt => "cbrt",
        }
    }

    /// How many arguments the function takes (2 for `Pow` and `Atan2`).
    pub fn arity(self) -> usize {
        match self {
            MathOp::Pow | MathOp::Atan2 => 2,
            _ => 1,
        }
    }

    /// The function a float kernel op needs, if it is not a native instruction.
    pub fn of_unary(op: UnaryOp) -> Option<MathOp> {
        Some(match op {
            UnaryOp::Exp => MathOp::Exp,
            UnaryOp::Expm1 => MathOp::Expm1,
            UnaryOp::Log => MathOp::Log,
            UnaryOp::Log1p => MathOp::Log1p,
            UnaryOp::Tanh => MathOp::Tanh,
            UnaryOp::Logistic => MathOp::Logistic,
            UnaryOp::Erf => MathOp::Erf,
            UnaryOp::Sin => MathOp::Sin,
            UnaryOp::Cos => MathOp::Cos,
            UnaryOp::Tan => MathOp::Tan,
            UnaryOp::Rsqrt => MathOp::Rsqrt,
            UnaryOp::Cbrt => MathOp::Cbrt,
            _ => return None,
        })
    }

    /// The function a float binary kernel op needs (`Pow`, `Atan2`), if any.
    pub fn of_binary(op: BinaryOp) -> Option<MathOp> {
        match op {
            BinaryOp::Pow => Some(MathOp::Pow),
            BinaryOp::Atan2 => Some(MathOp::Atan2),
            _ => None,
        }
    }
}

/// Emits `op` on `x` (and `y`, the second argument of `Pow` and `Atan2`) at
/// the emitter's position, exact (within the function's accuracy) for every
/// argument: straight-line code that also computes the rare path of an op
/// that has one (see [`rare_bound`]) for every argument and selects.
pub fn build<E: Emit>(e: &E, op: MathOp, x: E::F, y: Option<E::F>) -> E::F {
    build_with(e, op, x, y, true)
}

/// [`build`] without the rare path: the same bits wherever [`rare_path`] is
/// false, meaningless where it is true. A code generator that can branch
/// emits this, and [`build`] behind a branch on [`rare_path`] (the CPU
/// backend's vector variants, Cranelift's blocks), so the common case pays
/// nothing for the rare one.
pub fn build_common<E: Emit>(e: &E, op: MathOp, x: E::F, y: Option<E::F>) -> E::F {
    build_with(e, op, x, y, false)
}

/// `|x|` from which `op` may need its rare path (in the argument's type,
/// f64 when `wide`): sin, cos and tan past the Cody-Waite reduction's range
/// (the Payne-Hanek reduction); None for ops without one. Just below where
/// the rare path starts, so [`build_common`] equals [`build`] under it.
pub fn rare_bound(op: MathOp, wide: bool) -> Option<f64> {
    match op {
        MathOp::Sin | MathOp::Cos | MathOp::Tan => Some(trig::rare_bound(wide)),
        _ => None,
    }
}

/// Whether `x` is at or past [`rare_bound`] (false for NaN); None for ops
/// without a rare path.
pub fn rare_path<E: Emit>(e: &E, op: MathOp, x: E::F) -> Option<E::B> {
    rare_bound(op, e.wide()).map(|b| e.ge(e.abs(x), e.c(b)))
}

fn build_with<E: Emit>(e: &E, op: MathOp, x: E::F, y: Option<E::F>, exact: bool) -> E::F {
    // A unary function given no second argument gets NaN, never a panic.
    let y = || y.unwrap_or_else(|| e.nan());
    let r = match op {
        MathOp::Exp => exp::exp(e, x),
        MathOp::Expm1 => exp::expm1(e, x),
        MathOp::Tanh => exp::tanh(e, x),
        MathOp::Logistic => exp::logistic(e, x),
        MathOp::Log => log::log(e, x),
        MathOp::Log1p => log::log1p(e, x),
        MathOp::Pow => log::pow(e, x, y()),
        MathOp::Sin => trig::sin(e, x, exact),
        MathOp::Cos => trig::cos(e, x, exact),
        MathOp::Tan => trig::tan(e, x, exact),
        MathOp::Atan2 => trig::atan2(e, x, y()),
        MathOp::Erf => special::erf(e, x),
        MathOp::Rsqrt => special::rsqrt(e, x),
        MathOp::Cbrt => special::cbrt(e, x),
    };
    // XLA CPU's sin, tan, expm1 and f32 tanh return a
    // subnormal argument as it is, where the floating-point environment would
    // read it as zero (the interpreter's rule, `smelt_interp`'s `edge`). Under
    // DAZ the comparison sees zero, so the select is the only thing that reads
    // the argument's bits; without DAZ it returns `x`, the correctly rounded
    // value for these functions anyway.
    let tiny = |v: E::F| e.lt(e.abs(v), e.c(e.min_normal()));
    match op {
        MathOp::Sin | MathOp::Tan | MathOp::Expm1 => e.sel(tiny(x), x, r),
        MathOp::Tanh if !e.wide() => e.sel(tiny(x), x, r),
        _ => r,
    }
}
