//! Transcendental functions as LLVM IR: the math library (`smelt_math`)
//! emitted through LLVM.
//!
//! The CPU backend renders kernels as loops for LLVM's loop vectorizer. A call to
//! libm in such a loop blocks vectorization (and links the JIT or AOT object to a
//! particular libm), so every float function that is not a native instruction is
//! built instead: an `internal`, `alwaysinline` function of straight-line code
//! that `smelt_math` writes through [`emit::Em`]. After inlining, a loop that calls
//! it vectorizes for any target (AVX-512 on the host, NEON on aarch64). The GPU
//! backend renders through the same code, and the Cranelift tier emits the same
//! library inline, so every tier computes the same bits.
//!
//! - `emit`: the emitter over LLVM IR.
//! - `tests`: accuracy (the table in `docs/math.md`) and vectorization.

mod emit;
#[cfg(test)]
mod tests;

use inkwell::attributes::{Attribute, AttributeLoc};
use inkwell::module::{Linkage, Module};
use inkwell::types::FloatType;
use inkwell::values::FunctionValue;

pub use smelt_math::MathOp;

use emit::Em;

/// What the target computes in one instruction, which the library then uses
/// (the results are the same bits either way). Every module of one target
/// passes the same.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MathTarget {
    /// Multiply-adds are single FMAs (the target has them).
    pub fused: bool,
    /// `p * 2^n` is one instruction that rounds once (x86 AVX-512's
    /// `vscalef`, which LLVM selects for `llvm.ldexp`): exp and the functions
    /// built on it scale their result with it instead of two multiplications by
    /// powers of two built from exponent bits.
    pub native_ldexp: bool,
    /// The code runs with subnormals flushed (FTZ and DAZ, XLA CPU's
    /// environment, which the CPU backend's runs set): values made on the bits
    /// (libm's `fmod`) are flushed explicitly, and every function is marked
    /// with [`denormal_preserve_sign`] before optimization.
    pub flush_subnormals: bool,
}

impl MathTarget {
    /// The decision for an LLVM target: FMA on aarch64 and wherever `+fma` is
    /// among the features; `vscalef` on x86 with `+avx512f`.
    pub fn of(triple: &str, features: &str) -> MathTarget {
        let has = |f: &str| features.split(',').any(|x| x == f);
        MathTarget {
            fused: triple.starts_with("aarch64") || has("+fma"),
            native_ldexp: triple.starts_with("x86_64") && has("+avx512f"),
            flush_subnormals: false,
        }
    }
}

/// An `internal`, `alwaysinline`, branch-free (selects, no calls, no loops) function
/// computing `op` on scalars of `ty` (f32 or f64); created once per module (cached by name).
/// Pow and Atan2 take two arguments, the rest one; `target` says what the
/// target does in one instruction. After inlining into a loop, LLVM's loop vectorizer vectorizes calls to it.
///
/// # Panics
///
/// If `ty` is neither `f32` nor `f64` (f16 and bf16 are computed in f32 by the caller).
pub fn math_function<'ctx>(
    module: &Module<'ctx>,
    op: MathOp,
    ty: FloatType<'ctx>,
    target: MathTarget,
) -> FunctionValue<'ctx> {
    let ctx = module.get_context();
    let wide = if ty == ctx.f64_type() {
        true
    } else {
        assert!(ty == ctx.f32_type(), "math_function: {op:?} is built for f32 and f64 only, not {ty}");
        false
    };
    let name = format!("smelt.math.{}.{}", op.name(), if wide { "f64" } else { "f32" });
    if let Some(f) = module.get_function(&name) {
        return f;
    }

    let params = vec![ty.into(); op.arity()];
    let f = module.add_function(&name, ty.fn_type(&params, false), Some(Linkage::Internal));
    for attr in ["alwaysinline", "nounwind", "willreturn", "nofree", "nosync"] {
        f.add_attribute(AttributeLoc::Function, enum_attribute(module, attr, 0));
    }
    // memory(none): the function reads and writes no memory.
    f.add_attribute(AttributeLoc::Function, enum_attribute(module, "memory", 0));

    let builder = ctx.create_builder();
    builder.position_at_end(ctx.append_basic_block(f, "entry"));
    let e = Em::new(&builder, module, wide, target);
    let arg = |i: u32| f.get_nth_param(i).expect("declared above").into_float_value();
    let result = smelt_math::build(&e, op, arg(0), if op.arity() == 2 { Some(arg(1)) } else { None });
    builder.build_return(Some(&result)).expect("builder is positioned");
    f
}

/// Marks every function defined in `module` as running with subnormal
/// operands and results flushed to the zero of their sign
/// ([`MathTarget::flush_subnormals`]), so LLVM neither folds nor rewrites a
/// float comparison as if subnormals were nonzero (`x == 0` into a test of the
/// bits, say). All of a module's functions get it: inlining needs the caller's
/// and the callee's modes to agree.
pub fn denormal_preserve_sign(module: &Module<'_>) {
    let attr = module.get_context().create_string_attribute("denormal-fp-math", "preserve-sign,preserve-sign");
    for f in module.get_functions().filter(|f| f.count_basic_blocks() > 0) {
        f.add_attribute(AttributeLoc::Function, attr);
    }
}

fn enum_attribute<'ctx>(module: &Module<'ctx>, name: &str, value: u64) -> Attribute {
    let kind = Attribute::get_named_enum_kind_id(name);
    module.get_context().create_enum_attribute(kind, value)
}
