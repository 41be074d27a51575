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
//! library inline, so every tier computes the same bits. A function with a rare
//! path (sin, cos and tan of huge arguments) keeps it in a companion behind a
//! branch, with vector variants the vectorizer calls (`rare_function`).
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
    /// The rare path of a function (sin, cos and tan past the Cody-Waite
    /// range) is a companion function behind a branch with vector variants
    /// for the loop vectorizer (see [`math_function`]); else (the GPU, which
    /// has no vectorizer) the companion is inlined, its branch intact.
    pub vector_variants: bool,
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
            vector_variants: triple.starts_with("x86_64") || triple.starts_with("aarch64"),
        }
    }
}

/// An `internal`, `alwaysinline`, branch-free (selects, no loops) function
/// computing `op` on scalars of `ty` (f32 or f64); created once per module (cached by name).
/// Its only call is, for an op with a rare path, to that path's companion
/// (`rare_function`; give the companions the caller's target attributes,
/// [`out_of_line`]).
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
    let y = if op.arity() == 2 { Some(arg(1)) } else { None };
    let result = match smelt_math::rare_bound(op, wide) {
        None => smelt_math::build(&e, op, arg(0), y),
        Some(bound) => {
            let common = smelt_math::build_common(&e, op, arg(0), y);
            let rare = rare_function(module, op, ty, target, &name, bound);
            let call = builder.build_call(rare, &[arg(0).into(), common.into()], "").expect("builder is positioned");
            call.try_as_basic_value().unwrap_basic().into_float_value()
        }
    };
    builder.build_return(Some(&result)).expect("builder is positioned");
    f
}

/// `NAME.rare(x, common)`: `common` (the function's common path, computed by
/// the caller) unless `|x| >= bound`, else `NAME.exact(x)` (the exact
/// straight-line function), behind a branch. A loop that calls it still
/// vectorizes: with `target.vector_variants` neither is inlined, and the
/// vector variants of `NAME.rare` (`.v2` to `.v16`, named to the vectorizers
/// by the `vector-function-abi-variant` attribute) test all lanes at once and
/// run `NAME.exact` on every lane only when one needs it, so a vector of
/// common arguments costs a call, a compare and a branch. (The variants call
/// `NAME.exact`, which has no variants, so the SLP vectorizer cannot turn
/// their lanes back into a call of themselves.) Without, both are inlined
/// like the others and the branch stays (no vectorizer undoes it).
fn rare_function<'ctx>(
    module: &Module<'ctx>,
    op: MathOp,
    ty: FloatType<'ctx>,
    target: MathTarget,
    name: &str,
    bound: f64,
) -> FunctionValue<'ctx> {
    let ctx = module.get_context();
    let wide = ty == ctx.f64_type();
    let rare_name = format!("{name}.rare");
    if let Some(f) = module.get_function(&rare_name) {
        return f;
    }
    let inline = if target.vector_variants { "noinline" } else { "alwaysinline" };
    let declare = |fname: &str, params: u32| {
        let params = vec![ty.into(); params as usize];
        let f = module.add_function(fname, ty.fn_type(&params, false), Some(Linkage::Internal));
        for attr in [inline, "nounwind", "willreturn", "nofree", "nosync"] {
            f.add_attribute(AttributeLoc::Function, enum_attribute(module, attr, 0));
        }
        f.add_attribute(AttributeLoc::Function, enum_attribute(module, "memory", 0));
        f
    };
    let builder = ctx.create_builder();
    let exact = declare(&format!("{name}.exact"), 1);
    if target.vector_variants {
        // Run only for rare arguments: not worth optimizing (or compiling
        // slowly) in every program that calls the function.
        exact.add_attribute(AttributeLoc::Function, enum_attribute(module, "optnone", 0));
    }
    builder.position_at_end(ctx.append_basic_block(exact, "entry"));
    let e = Em::new(&builder, module, wide, target);
    let x = exact.get_nth_param(0).expect("declared above").into_float_value();
    let r = smelt_math::build(&e, op, x, None);
    builder.build_return(Some(&r)).expect("builder is positioned");

    let f = declare(&rare_name, 2);
    let (entry, rare, common) =
        (ctx.append_basic_block(f, "entry"), ctx.append_basic_block(f, "rare"), ctx.append_basic_block(f, "common"));
    builder.position_at_end(entry);
    let x = f.get_nth_param(0).expect("declared above").into_float_value();
    let cond = smelt_math::rare_path(&e, op, x).expect("an op with a rare bound has a rare path");
    builder.build_conditional_branch(cond, rare, common).expect("builder is positioned");
    builder.position_at_end(rare);
    let r = builder.build_call(exact, &[x.into()], "").expect("builder is positioned");
    builder.build_return(Some(&r.try_as_basic_value().unwrap_basic())).expect("builder is positioned");
    builder.position_at_end(common);
    builder.build_return(Some(&f.get_nth_param(1).expect("declared above"))).expect("builder is positioned");
    if target.vector_variants {
        let mut variants = Vec::new();
        for lanes in [2u32, 4, 8, 16] {
            let v = vector_variant(module, &rare_name, exact, ty, lanes, bound);
            let vname = v.get_name().to_str().expect("ASCII name").to_string();
            variants.push(format!("_ZGV_LLVM_N{lanes}vv_{rare_name}({vname})"));
        }
        let attr = ctx.create_string_attribute("vector-function-abi-variant", &variants.join(","));
        f.add_attribute(AttributeLoc::Function, attr);
        keep_vector_variants(module);
    }
    f
}

/// `NAME.rare` over `lanes`-wide vectors (`NAME.rare.vN`): if no lane's `|x|`
/// reaches `bound`, `common` as it is; else `exact` on every lane (through
/// `NAME.exact.vN`), kept where `|x|` reaches it.
fn vector_variant<'ctx>(
    module: &Module<'ctx>,
    rare_name: &str,
    exact: FunctionValue<'ctx>,
    ty: FloatType<'ctx>,
    lanes: u32,
    bound: f64,
) -> FunctionValue<'ctx> {
    let ctx = module.get_context();
    let vt = ty.vec_type(lanes);
    let f = module.add_function(
        &format!("{rare_name}.v{lanes}"),
        vt.fn_type(&[vt.into(), vt.into()], false),
        Some(Linkage::Internal),
    );
    // No caller before the loop vectorizer's: [`INLINE_VECTOR_VARIANTS`] then
    // inlines them into the vector loops, so the common case is a compare and
    // a branch there, not a call that spills every vector register.
    for attr in ["alwaysinline", "nounwind", "willreturn", "nofree", "nosync"] {
        f.add_attribute(AttributeLoc::Function, enum_attribute(module, attr, 0));
    }
    f.add_attribute(AttributeLoc::Function, enum_attribute(module, "memory", 0));
    const POS: &str = "builder is positioned";
    let b = ctx.create_builder();
    let (entry, rare, common) =
        (ctx.append_basic_block(f, "entry"), ctx.append_basic_block(f, "rare"), ctx.append_basic_block(f, "common"));
    b.position_at_end(entry);
    let x = f.get_nth_param(0).expect("declared above").into_vector_value();
    let fallback = f.get_nth_param(1).expect("declared above").into_vector_value();
    let intrinsic = |name: &str, types: &[inkwell::types::BasicTypeEnum<'ctx>]| {
        inkwell::intrinsics::Intrinsic::find(name)
            .and_then(|i| i.get_declaration(module, types))
            .expect("LLVM has its vector intrinsics")
    };
    let abs = b.build_call(intrinsic("llvm.fabs", &[vt.into()]), &[x.into()], "").expect(POS);
    let abs = abs.try_as_basic_value().unwrap_basic().into_vector_value();
    let splat = inkwell::types::VectorType::const_vector(&vec![ty.const_float(bound); lanes as usize]);
    let hit = b.build_float_compare(inkwell::FloatPredicate::OGE, abs, splat, "").expect(POS);
    let any = b.build_call(intrinsic("llvm.vector.reduce.or", &[hit.get_type().into()]), &[hit.into()], "").expect(POS);
    let any = any.try_as_basic_value().unwrap_basic().into_int_value();
    b.build_conditional_branch(any, rare, common).expect(POS);
    b.position_at_end(common);
    b.build_return(Some(&fallback)).expect(POS);
    b.position_at_end(rare);
    let lanes_exact = lane_by_lane(module, exact, vt);
    let exact_lanes = b.build_call(lanes_exact, &[x.into()], "").expect(POS);
    let exact_lanes = exact_lanes.try_as_basic_value().unwrap_basic().into_vector_value();
    let out = b.build_select(hit, exact_lanes, fallback, "").expect(POS);
    b.build_return(Some(&out)).expect(POS);
    f
}

/// `NAME.exact.vN(x)`: `exact` on each lane of `x`, out of line so that the
/// vector loop the variant is inlined into holds one call, not `N`.
fn lane_by_lane<'ctx>(
    module: &Module<'ctx>,
    exact: FunctionValue<'ctx>,
    vt: inkwell::types::VectorType<'ctx>,
) -> FunctionValue<'ctx> {
    const POS: &str = "builder is positioned";
    let ctx = module.get_context();
    let lanes = vt.get_size();
    let name = format!("{}.v{lanes}", exact.get_name().to_str().expect("ASCII name"));
    let f = module.add_function(&name, vt.fn_type(&[vt.into()], false), Some(Linkage::Internal));
    for attr in ["noinline", "optnone", "nounwind", "willreturn", "nofree", "nosync"] {
        f.add_attribute(AttributeLoc::Function, enum_attribute(module, attr, 0));
    }
    f.add_attribute(AttributeLoc::Function, enum_attribute(module, "memory", 0));
    let b = ctx.create_builder();
    b.position_at_end(ctx.append_basic_block(f, "entry"));
    let x = f.get_nth_param(0).expect("declared above").into_vector_value();
    let mut out = x;
    for lane in 0..lanes {
        let i = ctx.i32_type().const_int(lane as u64, false);
        let xi = b.build_extract_element(x, i, "").expect(POS);
        let r = b.build_call(exact, &[xi.into()], "").expect(POS);
        out = b.build_insert_element(out, r.try_as_basic_value().unwrap_basic(), i, "").expect(POS);
    }
    b.build_return(Some(&out)).expect(POS);
    f
}

/// The pass to run after the optimization pipeline of a module with vector
/// variants: it inlines the calls the loop vectorizer made to them.
pub const INLINE_VECTOR_VARIANTS: &str = "always-inline";

/// The functions `f` (a [`math_function`]) calls that may stay calls: its
/// rare path's companions and their vector variants. The caller gives them
/// its target attributes.
pub fn out_of_line<'ctx>(module: &Module<'ctx>, f: FunctionValue<'ctx>) -> Vec<FunctionValue<'ctx>> {
    let Ok(name) = f.get_name().to_str() else { return Vec::new() };
    let (rare, exact) = (format!("{name}.rare"), format!("{name}.exact"));
    module
        .get_functions()
        .filter(|g| g.get_name().to_str().is_ok_and(|n| n.starts_with(&exact) || n.starts_with(&rare)))
        .collect()
}

/// Lists every vector variant of the module in `llvm.compiler.used`, which
/// keeps them from being deleted as unused before the loop vectorizer, their
/// first user, runs (the list is made anew with each companion).
fn keep_vector_variants(module: &Module<'_>) {
    let ctx = module.get_context();
    let variants: Vec<_> = module
        .get_functions()
        .filter(|f| f.get_name().to_str().is_ok_and(|n| n.starts_with("smelt.math.") && n.contains(".rare.v")))
        .map(|f| f.as_global_value().as_pointer_value())
        .collect();
    if let Some(old) = module.get_global("llvm.compiler.used") {
        // SAFETY: the list is this module's and nothing else refers to it.
        unsafe { old.delete() };
    }
    let ptr = ctx.ptr_type(inkwell::AddressSpace::default());
    let list = module.add_global(ptr.array_type(variants.len() as u32), None, "llvm.compiler.used");
    list.set_linkage(Linkage::Appending);
    list.set_section(Some("llvm.metadata"));
    list.set_initializer(&ptr.const_array(&variants));
}

/// Lets go of the vector variants [`keep_vector_variants`] kept alive for the
/// loop vectorizer; returns whether there were any. Call it after the
/// optimization pipeline and [`INLINE_VECTOR_VARIANTS`], then run
/// `globaldce`: it deletes the widths no loop called (three of a function's
/// four on any target, each with its lane-by-lane companion), which code
/// generation would otherwise compile for nothing (a module with `sin` and
/// `cos`: 14 of its 21 functions). Over the five corpus and unseen programs
/// with sine, cosine or tangent (AMD EPYC, Zen 2) compile time fell by 18%
/// (`sincos_encoding` 65 -> 51 ms, `cond_switch` 75 -> 61), run times
/// unchanged.
pub fn release_vector_variants(module: &Module<'_>) -> bool {
    match module.get_global("llvm.compiler.used") {
        Some(list) => {
            // SAFETY: the list is this module's, made by `keep_vector_variants`,
            // and nothing refers to it.
            unsafe { list.delete() };
            true
        }
        None => false,
    }
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
