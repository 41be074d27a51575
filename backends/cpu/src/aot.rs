//! Ahead-of-time objects: the program's module with a C entry point, made
//! self-contained for linking into any program with a plain C compiler.
//!
//! [`compile_aot`] builds the same module as [`crate::compile`] for any
//! target LLVM knows, then:
//! - adds `NAME_run(args, results, temp)`, which copies the parameters the
//!   program writes (donated buffers) into the caller's scratch, zeroes results
//!   the program does not write in full, and calls `smelt_run` with
//!   subnormals flushed as XLA CPU runs (MXCSR FTZ/DAZ, AArch64 FPCR.FZ),
//!   restoring the caller's state before it returns;
//! - adds `NAME_arg_bytes`, `NAME_result_bytes` and `NAME_temp_bytes`;
//! - makes every other symbol internal, so several AOT objects link together;
//! - defines the half-precision conversions LLVM calls where the ISA has
//!   none (`__extendhfsf2`, `__truncsfhf2`, `__truncdfhf2`; x86-64 without F16C)
//!   as weak hidden functions, so the object needs no compiler runtime;
//! - defines `smelt_parallel_for`: with `threads > 1` a fork-join over
//!   pthreads (no thread pool: the object owns no state), else a serial loop
//!   (routines such as GEMM call it whatever the kernel options);
//! - defines `smelt_parallel_threads` (the routines' task grids follow it)
//!   as the constant `threads`;
//! - defines `smelt_scratch_alloc`/`smelt_scratch_free`, the routines' scratch
//!   memory, as `aligned_alloc` and `free` (the JIT's keep large blocks for
//!   reuse; an object owns no state).
//!
//! What is left undefined is libc (`memcpy`, `memset`, `aligned_alloc`,
//! `free`, `abort`), libm for the few functions LLVM calls by name, and
//! `pthread_create`/`pthread_join` with threads.

use inkwell::attributes::{Attribute, AttributeLoc};
use inkwell::context::Context;
use inkwell::module::{Linkage, Module};
use inkwell::targets::FileType;
use inkwell::types::BasicType;
use inkwell::values::{BasicValue, FunctionValue, GlobalValue, IntValue};
use inkwell::{AddressSpace, GlobalVisibility, IntPredicate};
use smelt_kernel::VerifiedProgram;
use smelt_kernel::{ArrayType, Program};

use crate::driver::{ModuleInfo, Routines};
use crate::error::{CpuError, Result};
use crate::{CompileOptions, optimized_module_with, target_machine};

/// Alignment of the caller's scratch and of the parameter copies in it.
const TEMP_ALIGN: usize = 64;

/// An AOT object and the facts its header states.
#[derive(Clone, Debug)]
pub struct AotObject {
    pub name: String,
    /// The object file's bytes.
    pub object: Vec<u8>,
    /// Flattened entry parameters and results.
    pub params: Vec<ArrayType>,
    pub results: Vec<ArrayType>,
    /// The element types the module declares for them: a complex one's
    /// buffer holds its parts (`c64[3]` as `f32[3,2]`, `smelt_hlo::complex`).
    pub declared_params: Vec<smelt_hlo::DType>,
    pub declared_results: Vec<smelt_hlo::DType>,
    /// Scratch bytes the caller provides (`NAME_temp_bytes`).
    pub temp_bytes: usize,
    /// The target triple and CPU the code is for.
    pub triple: String,
    pub cpu: String,
}

/// Whether `name` is a C identifier (and not one C reserves for itself).
pub fn is_c_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    let first_ok = chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
    first_ok && chars.all(|c| c.is_ascii_alphanumeric() || c == '_') && !name.starts_with("__")
}

/// The target of the first custom-call step, at any depth.
fn first_custom_call(steps: &[smelt_kernel::Step]) -> Option<String> {
    use smelt_kernel::Step;
    steps.iter().find_map(|s| match s {
        Step::CustomCall(c) => Some(c.call.target.clone()),
        Step::While { cond, body, .. } => first_custom_call(cond).or_else(|| first_custom_call(body)),
        Step::Conditional { branches, .. } => branches.iter().find_map(|b| first_custom_call(b)),
        _ => None,
    })
}

/// Compiles `program` into an object exporting `NAME_run` and its sizes.
/// `options.triple`/`cpu`/`features` choose the target; `threads` > 1 makes
/// large kernels run on that many pthreads.
pub fn compile_aot(
    program: &VerifiedProgram<'_>,
    name: &str,
    options: &CompileOptions,
    threads: usize,
) -> Result<AotObject> {
    if !is_c_identifier(name) {
        return Err(CpuError::unsupported(format!(
            "'{name}' is not a C identifier (letters, digits, _; not starting with a digit or __)"
        )));
    }
    if let Some(target) = first_custom_call(&program.steps) {
        return Err(CpuError::unsupported(format!(
            "custom-call target \"{target}\": its routine is in smelt's runtime library (smelt_linalg), which \
             self-contained AOT objects do not carry; run the program through the JIT (`smelt run`, Python) instead"
        )));
    }
    let mut options = options.clone();
    options.parallel = threads > 1;
    options.profile = false;
    let cx = Context::create();
    let tm = target_machine(&options)?;
    let mut temp_bytes = 0;
    let triple = tm.get_triple().as_str().to_string_lossy().into_owned();
    let (module, _) = optimized_module_with(&cx, program, &options, &tm, Routines::InModule, &mut |module, info| {
        temp_bytes = entry(module, program, info, name, &triple)?;
        half_conversions(module)?;
        parallel_for(module, threads)?;
        thread_count(module, threads)?;
        scratch(module)?;
        internalize(module, name);
        Ok(())
    })?;
    let object = tm
        .write_to_memory_buffer(&module, FileType::Object)
        .map_err(|e| CpuError::llvm(e.to_string()))?
        .as_slice()
        .to_vec();
    Ok(AotObject {
        name: name.to_string(),
        object,
        params: program.params.clone(),
        results: program.results.clone(),
        declared_params: program.params.iter().map(|t| t.dtype).collect(),
        declared_results: program.results.iter().map(|t| t.dtype).collect(),
        temp_bytes,
        triple,
        cpu: tm.get_cpu().to_string(),
    })
}

/// The value a call returns.
fn basic(call: inkwell::values::CallSiteValue<'_>) -> Result<inkwell::values::BasicValueEnum<'_>> {
    match call.try_as_basic_value() {
        inkwell::values::ValueKind::Basic(v) => Ok(v),
        inkwell::values::ValueKind::Instruction(_) => Err(CpuError::llvm("a call that returns nothing")),
    }
}

fn llvm<T>(r: std::result::Result<T, inkwell::builder::BuilderError>) -> Result<T> {
    r.map_err(|e| CpuError::llvm(format!("AOT entry: {e}")))
}

fn sizes_global<'ctx>(module: &Module<'ctx>, name: &str, sizes: &[u64]) -> GlobalValue<'ctx> {
    let cx = module.get_context();
    let i64t = cx.i64_type();
    let values: Vec<IntValue<'ctx>> = sizes.iter().map(|&s| i64t.const_int(s, false)).collect();
    let ty = i64t.array_type(sizes.len() as u32);
    let g = module.add_global(ty, None, name);
    g.set_initializer(&i64t.const_array(&values));
    g.set_constant(true);
    g.set_linkage(Linkage::External);
    g
}

/// Sets XLA CPU's floating-point environment (subnormals flushed, as
/// `smelt_runtime::fpenv` does for the JIT) on targets that have the control:
/// MXCSR's FTZ and DAZ on x86-64, FPCR.FZ on AArch64. Returns what restores
/// the caller's state. Threads the run creates inherit the mode (POSIX).
fn enter_fpenv<'ctx>(module: &Module<'ctx>, b: &inkwell::builder::Builder<'ctx>, triple: &str) -> Result<FpEnv<'ctx>> {
    let cx = module.get_context();
    let (void, i32t, i64t, ptr) = (cx.void_type(), cx.i32_type(), cx.i64_type(), cx.ptr_type(AddressSpace::default()));
    let intrinsic = |name: &str, ty| module.get_function(name).unwrap_or_else(|| module.add_function(name, ty, None));
    if triple.starts_with("x86_64") {
        let (st, ld) = (
            intrinsic("llvm.x86.sse.stmxcsr", void.fn_type(&[ptr.into()], false)),
            intrinsic("llvm.x86.sse.ldmxcsr", void.fn_type(&[ptr.into()], false)),
        );
        let saved = llvm(b.build_alloca(i32t, "mxcsr_saved"))?;
        let flushing = llvm(b.build_alloca(i32t, "mxcsr_run"))?;
        llvm(b.build_call(st, &[saved.into()], ""))?;
        let word = llvm(b.build_load(i32t, saved, "mxcsr"))?.into_int_value();
        let word = llvm(b.build_or(word, i32t.const_int((1 << 15) | (1 << 6), false), "ftz_daz"))?;
        llvm(b.build_store(flushing, word))?;
        llvm(b.build_call(ld, &[flushing.into()], ""))?;
        Ok(FpEnv::Mxcsr { ld, saved })
    } else if triple.starts_with("aarch64") {
        let (get, set) = (
            intrinsic("llvm.aarch64.get.fpcr", i64t.fn_type(&[], false)),
            intrinsic("llvm.aarch64.set.fpcr", void.fn_type(&[i64t.into()], false)),
        );
        let saved = basic(llvm(b.build_call(get, &[], "fpcr"))?)?.into_int_value();
        let word = llvm(b.build_or(saved, i64t.const_int(1 << 24, false), "fz"))?;
        llvm(b.build_call(set, &[word.into()], ""))?;
        Ok(FpEnv::Fpcr { set, saved })
    } else {
        Ok(FpEnv::Untouched)
    }
}

/// How the AOT entry restores the caller's floating-point state.
enum FpEnv<'ctx> {
    Mxcsr { ld: inkwell::values::FunctionValue<'ctx>, saved: inkwell::values::PointerValue<'ctx> },
    Fpcr { set: inkwell::values::FunctionValue<'ctx>, saved: inkwell::values::IntValue<'ctx> },
    Untouched,
}

impl<'ctx> FpEnv<'ctx> {
    fn restore(&self, b: &inkwell::builder::Builder<'ctx>) -> Result<()> {
        match *self {
            FpEnv::Mxcsr { ld, saved } => drop(llvm(b.build_call(ld, &[saved.into()], ""))?),
            FpEnv::Fpcr { set, saved } => drop(llvm(b.build_call(set, &[saved.into()], ""))?),
            FpEnv::Untouched => {}
        }
        Ok(())
    }
}

/// Adds `NAME_run` and the size globals; returns the scratch size.
fn entry(module: &Module<'_>, program: &Program, info: &ModuleInfo, name: &str, triple: &str) -> Result<usize> {
    let cx = module.get_context();
    let (i32t, i64t, ptr) = (cx.i32_type(), cx.i64_type(), cx.ptr_type(AddressSpace::default()));
    let Some(run) = module.get_function("smelt_run") else {
        return Err(CpuError::llvm("the module has no smelt_run"));
    };
    // Scratch: the program's arena, then private copies of written parameters.
    let mut temp = info.arena_bytes.next_multiple_of(TEMP_ALIGN);
    let mut copies = Vec::new();
    for (i, t) in program.params.iter().enumerate() {
        if info.written_params.get(i).copied().unwrap_or(false) {
            copies.push((i, temp, t.byte_size()));
            temp = (temp + t.byte_size()).next_multiple_of(TEMP_ALIGN);
        }
    }
    let temp_bytes = if temp == 0 { 0 } else { temp };
    let arg_sizes: Vec<u64> = program.params.iter().map(|t| t.byte_size() as u64).collect();
    let result_sizes: Vec<u64> = program.results.iter().map(|t| t.byte_size() as u64).collect();
    sizes_global(module, &format!("{name}_arg_bytes"), &arg_sizes);
    sizes_global(module, &format!("{name}_result_bytes"), &result_sizes);
    let g = module.add_global(i64t, None, &format!("{name}_temp_bytes"));
    g.set_initializer(&i64t.const_int(temp_bytes as u64, false));
    g.set_constant(true);
    g.set_linkage(Linkage::External);

    let f = module.add_function(
        &format!("{name}_run"),
        i32t.fn_type(&[ptr.into(), ptr.into(), ptr.into()], false),
        Some(Linkage::External),
    );
    let b = cx.create_builder();
    let bb = cx.append_basic_block(f, "entry");
    b.position_at_end(bb);
    let (args, results, scratch) = (
        f.get_nth_param(0).map(|p| p.into_pointer_value()),
        f.get_nth_param(1).map(|p| p.into_pointer_value()),
        f.get_nth_param(2).map(|p| p.into_pointer_value()),
    );
    let (Some(args), Some(results), Some(scratch)) = (args, results, scratch) else {
        return Err(CpuError::llvm("AOT entry parameters"));
    };
    let n = program.params.len().max(1) as u32;
    let params = llvm(b.build_alloca(ptr.array_type(n), "params"))?;
    for i in 0..program.params.len() {
        let idx = i64t.const_int(i as u64, false);
        // SAFETY: in-bounds GEPs into arrays of `params.len()` pointers.
        let src_slot = llvm(unsafe { b.build_gep(ptr, args, &[idx], "arg_slot") })?;
        let mut arg = llvm(b.build_load(ptr, src_slot, "arg"))?.into_pointer_value();
        if let Some(&(_, offset, bytes)) = copies.iter().find(|c| c.0 == i) {
            let off = i64t.const_int(offset as u64, false);
            // SAFETY: the copy lies inside the caller's scratch (`temp_bytes`).
            let dst = llvm(unsafe { b.build_gep(cx.i8_type(), scratch, &[off], "copy") })?;
            llvm(b.build_memcpy(dst, TEMP_ALIGN as u32, arg, 1, i64t.const_int(bytes as u64, false)))
                .map_err(|e| CpuError::llvm(format!("AOT entry: {e}")))?;
            arg = dst;
        }
        // SAFETY: as above.
        let dst_slot = llvm(unsafe { b.build_gep(ptr, params, &[idx], "param_slot") })?;
        llvm(b.build_store(dst_slot, arg))?;
    }
    for (j, t) in program.results.iter().enumerate() {
        if !info.written_results.get(j).copied().unwrap_or(false) && t.byte_size() > 0 {
            let idx = i64t.const_int(j as u64, false);
            // SAFETY: in-bounds GEP into the results array.
            let slot = llvm(unsafe { b.build_gep(ptr, results, &[idx], "result_slot") })?;
            let out = llvm(b.build_load(ptr, slot, "result"))?.into_pointer_value();
            llvm(b.build_memset(out, 1, cx.i8_type().const_zero(), i64t.const_int(t.byte_size() as u64, false)))
                .map_err(|e| CpuError::llvm(format!("AOT entry: {e}")))?;
        }
    }
    let fpenv = enter_fpenv(module, &b, triple)?;
    let call = llvm(b.build_call(run, &[params.into(), results.into(), scratch.into()], "rc"))?;
    let rc = basic(call)?;
    fpenv.restore(&b)?;
    llvm(b.build_return(Some(&rc)))?;
    Ok(temp_bytes)
}

/// Every defined symbol but the entry and its sizes becomes internal.
fn internalize(module: &Module<'_>, name: &str) {
    let keep = |s: &str| s.starts_with(&format!("{name}_"));
    for f in module.get_functions() {
        let fname = f.get_name().to_string_lossy().into_owned();
        let weak = matches!(f.get_linkage(), Linkage::WeakODR);
        if f.count_basic_blocks() > 0 && !keep(&fname) && !weak {
            f.set_linkage(Linkage::Internal);
        }
    }
    for g in module.get_globals() {
        let gname = g.get_name().to_string_lossy().into_owned();
        if g.get_initializer().is_some() && !keep(&gname) {
            g.set_linkage(Linkage::Internal);
        }
    }
}

/// A weak, hidden definition: binds this object's calls, yields to a strong one.
fn weak_fn<'ctx>(
    module: &Module<'ctx>,
    name: &str,
    ty: inkwell::types::FunctionType<'ctx>,
) -> Option<FunctionValue<'ctx>> {
    if module.get_function(name).is_some_and(|f| f.count_basic_blocks() > 0) {
        return None;
    }
    let f = module.get_function(name).unwrap_or_else(|| module.add_function(name, ty, None));
    f.set_linkage(Linkage::WeakODR);
    f.as_global_value().set_visibility(GlobalVisibility::Hidden);
    let cx = module.get_context();
    f.add_attribute(AttributeLoc::Function, cx.create_enum_attribute(Attribute::get_named_enum_kind_id("nounwind"), 0));
    Some(f)
}

/// `__extendhfsf2`, `__truncsfhf2` and `__truncdfhf2` in integer arithmetic,
/// rounding to nearest even and keeping NaNs quiet as `half::f16` does.
fn half_conversions(module: &Module<'_>) -> Result<()> {
    let cx = module.get_context();
    let (i16t, i32t, i64t) = (cx.i16_type(), cx.i32_type(), cx.i64_type());
    let (f16t, f32t, f64t) = (cx.f16_type(), cx.f32_type(), cx.f64_type());
    let b = cx.create_builder();
    let c32 = |v: u64| i32t.const_int(v, false);

    if let Some(f) = weak_fn(module, "__extendhfsf2", f32t.fn_type(&[f16t.into()], false)) {
        b.position_at_end(cx.append_basic_block(f, "entry"));
        let x = f.get_nth_param(0).ok_or_else(|| CpuError::llvm("half parameter"))?;
        let h = llvm(b.build_bit_cast(x, i16t, "h"))?.into_int_value();
        let h = llvm(b.build_int_z_extend(h, i32t, "h32"))?;
        let sign = llvm(b.build_left_shift(llvm(b.build_and(h, c32(0x8000), "s"))?, c32(16), "sign"))?;
        let exp = llvm(b.build_and(llvm(b.build_right_shift(h, c32(10), false, "e"))?, c32(0x1f), "exp"))?;
        let mant = llvm(b.build_and(h, c32(0x3ff), "mant"))?;
        let m13 = llvm(b.build_left_shift(mant, c32(13), "m13"))?;
        let normal = llvm(b.build_or(
            llvm(b.build_left_shift(llvm(b.build_int_add(exp, c32(112), "e"))?, c32(23), "e23"))?,
            m13,
            "n",
        ))?;
        let special = llvm(b.build_or(c32(0x7f80_0000), m13, "inf_nan"))?;
        // Subnormals: mant * 2^-24, exact in f32.
        let mf = llvm(b.build_unsigned_int_to_float(mant, f32t, "mf"))?;
        let sub = llvm(b.build_float_mul(mf, f32t.const_float(5.960_464_477_539_063e-8), "sub"))?;
        let sub = llvm(b.build_bit_cast(sub, i32t, "subbits"))?.into_int_value();
        let is_zero_exp = llvm(b.build_int_compare(IntPredicate::EQ, exp, c32(0), "e0"))?;
        let is_max_exp = llvm(b.build_int_compare(IntPredicate::EQ, exp, c32(0x1f), "e31"))?;
        let mag = llvm(b.build_select(is_max_exp, special, normal, "m1"))?.into_int_value();
        let mag = llvm(b.build_select(is_zero_exp, sub, mag, "m2"))?.into_int_value();
        let bits = llvm(b.build_or(sign, mag, "bits"))?;
        let r = llvm(b.build_bit_cast(bits, f32t, "r"))?;
        llvm(b.build_return(Some(&r)))?;
    }

    // Float (of `bits` bits in total, `mbits` of mantissa) to half bits.
    let trunc = |f: FunctionValue<'_>, wide: bool| -> Result<()> {
        let (it, ft) = if wide { (i64t, f64t.as_basic_type_enum()) } else { (i32t, f32t.as_basic_type_enum()) };
        let c = |v: u64| it.const_int(v, false);
        let shift = if wide { 42 } else { 13 };
        let (sign_mask, abs_mask) = if wide { (1u64 << 63, (1u64 << 63) - 1) } else { (1u64 << 31, (1u64 << 31) - 1) };
        let (inf_bits, inf_threshold, min_normal, rebias) = if wide {
            (0x7ff0_0000_0000_0000u64, 0x40ef_fe00_0000_0000u64, 0x3f10_0000_0000_0000u64, (1023u64 - 15) << 10)
        } else {
            (0x7f80_0000u64, 0x477f_f000u64, 0x3880_0000u64, (127u64 - 15) << 10)
        };
        b.position_at_end(cx.append_basic_block(f, "entry"));
        let x = f.get_nth_param(0).ok_or_else(|| CpuError::llvm("float parameter"))?;
        let bits = llvm(b.build_bit_cast(x, it, "bits"))?.into_int_value();
        let sign = llvm(b.build_and(bits, c(sign_mask), "s"))?;
        let sign = llvm(b.build_right_shift(sign, c(if wide { 48 } else { 16 }), false, "sign"))?;
        let ax = llvm(b.build_and(bits, c(abs_mask), "ax"))?;
        // NaN: quiet, top mantissa bits kept.
        let mant = llvm(b.build_and(ax, c(if wide { (1 << 52) - 1 } else { (1 << 23) - 1 }), "mant"))?;
        let nan = llvm(b.build_or(c(0x7e00), llvm(b.build_right_shift(mant, c(shift), false, "mt"))?, "nan"))?;
        // Normal: round to nearest even at the cut, rebias the exponent.
        let lsb = llvm(b.build_and(llvm(b.build_right_shift(ax, c(shift), false, "l"))?, c(1), "lsb"))?;
        let round = llvm(b.build_int_add(ax, llvm(b.build_int_add(c((1 << (shift - 1)) - 1), lsb, "r"))?, "rounded"))?;
        let normal =
            llvm(b.build_int_sub(llvm(b.build_right_shift(round, c(shift), false, "n"))?, c(rebias), "normal"))?;
        // Subnormal or zero: |x| * 2^24, rounded to nearest even.
        let fv = llvm(b.build_bit_cast(ax, ft, "absf"))?.into_float_value();
        let ftype = fv.get_type();
        let scaled = llvm(b.build_float_mul(fv, ftype.const_float(16_777_216.0), "scaled"))?;
        let roundeven = inkwell::intrinsics::Intrinsic::find("llvm.roundeven")
            .and_then(|i| i.get_declaration(module, &[ftype.into()]))
            .ok_or_else(|| CpuError::llvm("llvm.roundeven"))?;
        let rounded = basic(llvm(b.build_call(roundeven, &[scaled.into()], "re"))?)?.into_float_value();
        let sub = llvm(b.build_float_to_unsigned_int(rounded, it, "sub"))?;
        let is_nan = llvm(b.build_int_compare(IntPredicate::UGT, ax, c(inf_bits), "isnan"))?;
        let is_inf = llvm(b.build_int_compare(IntPredicate::UGE, ax, c(inf_threshold), "isinf"))?;
        let is_sub = llvm(b.build_int_compare(IntPredicate::ULT, ax, c(min_normal), "issub"))?;
        let mag = llvm(b.build_select(is_sub, sub, normal, "m1"))?.into_int_value();
        let mag = llvm(b.build_select(is_inf, c(0x7c00), mag, "m2"))?.into_int_value();
        let mag = llvm(b.build_select(is_nan, nan, mag, "m3"))?.into_int_value();
        let h = llvm(b.build_or(sign, mag, "h"))?;
        let h = llvm(b.build_int_truncate(h, i16t, "h16"))?;
        let r = llvm(b.build_bit_cast(h, f16t, "r"))?;
        llvm(b.build_return(Some(&r)))?;
        Ok(())
    };
    if let Some(f) = weak_fn(module, "__truncsfhf2", f16t.fn_type(&[f32t.into()], false)) {
        trunc(f, false)?;
    }
    if let Some(f) = weak_fn(module, "__truncdfhf2", f16t.fn_type(&[f64t.into()], false)) {
        trunc(f, true)?;
    }
    Ok(())
}

/// Defines `smelt_parallel_threads()` (if declared) as the constant `threads`.
fn thread_count(module: &Module<'_>, threads: usize) -> Result<()> {
    let Some(f) = module.get_function(crate::runtime::THREADS_SYMBOL).filter(|f| f.count_basic_blocks() == 0) else {
        return Ok(());
    };
    let cx = module.get_context();
    f.set_linkage(Linkage::Internal);
    let b = cx.create_builder();
    b.position_at_end(cx.append_basic_block(f, "entry"));
    llvm(b.build_return(Some(&cx.i64_type().const_int(threads.max(1) as u64, false))))?;
    Ok(())
}

/// Defines the scratch functions the routines declared (if any):
/// `smelt_scratch_alloc(bytes)` as `aligned_alloc(64, bytes rounded up to 64)`
/// and `smelt_scratch_free(p)` as `free(p)`.
fn scratch(module: &Module<'_>) -> Result<()> {
    let cx = module.get_context();
    let (i64t, ptr) = (cx.i64_type(), cx.ptr_type(AddressSpace::default()));
    let b = cx.create_builder();
    if let Some(f) = module.get_function(smelt_runtime::scratch::ALLOC_SYMBOL).filter(|f| f.count_basic_blocks() == 0) {
        f.set_linkage(Linkage::Internal);
        let aligned_alloc = module.get_function("aligned_alloc").unwrap_or_else(|| {
            module.add_function("aligned_alloc", ptr.fn_type(&[i64t.into(), i64t.into()], false), None)
        });
        b.position_at_end(cx.append_basic_block(f, "entry"));
        let bytes = f.get_nth_param(0).ok_or_else(|| CpuError::llvm("scratch size"))?.into_int_value();
        let c = |v| i64t.const_int(v, false);
        let size = llvm(b.build_and(llvm(b.build_int_add(bytes, c(63), ""))?, c(!63), ""))?;
        let size =
            llvm(b.build_select(llvm(b.build_int_compare(IntPredicate::SLT, size, c(64), ""))?, c(64), size, ""))?;
        let p = llvm(b.build_call(aligned_alloc, &[c(64).into(), size.into()], ""))?
            .try_as_basic_value()
            .basic()
            .ok_or_else(|| CpuError::llvm("aligned_alloc returns nothing"))?;
        llvm(b.build_return(Some(&p)))?;
    }
    if let Some(f) = module.get_function(smelt_runtime::scratch::FREE_SYMBOL).filter(|f| f.count_basic_blocks() == 0) {
        f.set_linkage(Linkage::Internal);
        let free = module
            .get_function("free")
            .unwrap_or_else(|| module.add_function("free", cx.void_type().fn_type(&[ptr.into()], false), None));
        b.position_at_end(cx.append_basic_block(f, "entry"));
        let p = f.get_nth_param(0).ok_or_else(|| CpuError::llvm("scratch pointer"))?;
        llvm(b.build_call(free, &[p.into()], ""))?;
        llvm(b.build_return(None))?;
    }
    Ok(())
}

/// `smelt_parallel_for(task, ctx, n, grain)` as a fork-join over `threads`
/// pthreads: `[0, n)` in `threads` contiguous ranges (multiples of `grain`),
/// the caller running the first. With one thread (or one grain of work) it
/// runs `task(ctx, 0, n)` and the pthread code folds away.
fn parallel_for(module: &Module<'_>, threads: usize) -> Result<()> {
    let cx = module.get_context();
    let (i32t, i64t, ptr, void) = (cx.i32_type(), cx.i64_type(), cx.ptr_type(AddressSpace::default()), cx.void_type());
    let name = crate::runtime::PARALLEL_FOR_SYMBOL;
    let ty = void.fn_type(&[ptr.into(), ptr.into(), i64t.into(), i64t.into()], false);
    let f = module.get_function(name).unwrap_or_else(|| module.add_function(name, ty, None));
    if f.count_basic_blocks() > 0 {
        return Ok(());
    }
    f.set_linkage(Linkage::Internal);
    // A job: { task, ctx, begin, end }.
    let job = cx.struct_type(&[ptr.into(), ptr.into(), i64t.into(), i64t.into()], false);
    let task_ty = void.fn_type(&[ptr.into(), i64t.into(), i64t.into()], false);
    let create = module.get_function("pthread_create").unwrap_or_else(|| {
        module.add_function(
            "pthread_create",
            i32t.fn_type(&[ptr.into(), ptr.into(), ptr.into(), ptr.into()], false),
            None,
        )
    });
    let join = module
        .get_function("pthread_join")
        .unwrap_or_else(|| module.add_function("pthread_join", i32t.fn_type(&[i64t.into(), ptr.into()], false), None));
    // The thread body: runs one job.
    let body = module.add_function("smelt_parallel_job", ptr.fn_type(&[ptr.into()], false), Some(Linkage::Internal));
    let b = cx.create_builder();
    b.position_at_end(cx.append_basic_block(body, "entry"));
    let jp = body.get_nth_param(0).ok_or_else(|| CpuError::llvm("job"))?.into_pointer_value();
    let task = load_field(&b, job, jp, 0, ptr.into())?.into_pointer_value();
    let tctx = load_field(&b, job, jp, 1, ptr.into())?;
    let begin = load_field(&b, job, jp, 2, i64t.into())?;
    let end = load_field(&b, job, jp, 3, i64t.into())?;
    llvm(b.build_indirect_call(task_ty, task, &[tctx.into(), begin.into(), end.into()], ""))?;
    llvm(b.build_return(Some(&ptr.const_null())))?;

    let entry = cx.append_basic_block(f, "entry");
    let serial = cx.append_basic_block(f, "serial");
    let fork = cx.append_basic_block(f, "fork");
    b.position_at_end(entry);
    let p = |k| f.get_nth_param(k).ok_or_else(|| CpuError::llvm("parallel_for parameter"));
    let (task, tctx, n, grain) = (p(0)?.into_pointer_value(), p(1)?, p(2)?.into_int_value(), p(3)?.into_int_value());
    let one = i64t.const_int(1, false);
    let grain =
        llvm(b.build_select(llvm(b.build_int_compare(IntPredicate::SLT, grain, one, "g0"))?, one, grain, "grain"))?
            .into_int_value();
    let small = if threads > 1 {
        llvm(b.build_int_compare(IntPredicate::SLE, n, grain, "small"))?
    } else {
        cx.bool_type().const_int(1, false)
    };
    llvm(b.build_conditional_branch(small, serial, fork))?;
    b.position_at_end(serial);
    llvm(b.build_indirect_call(task_ty, task, &[tctx.into(), i64t.const_zero().into(), n.into()], ""))?;
    llvm(b.build_return(None))?;
    b.position_at_end(fork);
    let t = threads as u64;
    let jobs = llvm(b.build_alloca(job.array_type(t as u32), "jobs"))?;
    let tids = llvm(b.build_alloca(i64t.array_type(t as u32), "tids"))?;
    // Range per thread, rounded up to a multiple of grain.
    let chunks = llvm(b.build_int_unsigned_div(
        llvm(b.build_int_add(n, llvm(b.build_int_sub(grain, one, "g1"))?, "nc"))?,
        grain,
        "chunks",
    ))?;
    let per = llvm(b.build_int_unsigned_div(
        llvm(b.build_int_add(chunks, i64t.const_int(t - 1, false), "pc"))?,
        i64t.const_int(t, false),
        "per",
    ))?;
    let span = llvm(b.build_int_mul(per, grain, "span"))?;
    for k in 0..t {
        let kk = i64t.const_int(k, false);
        // SAFETY: in-bounds GEPs into the `threads` jobs.
        let jk = llvm(unsafe { b.build_gep(job.array_type(t as u32), jobs, &[i64t.const_zero(), kk], "job") })?;
        let begin = min_int(&b, llvm(b.build_int_mul(span, kk, "b"))?, n)?;
        let end = min_int(&b, llvm(b.build_int_mul(span, i64t.const_int(k + 1, false), "e"))?, n)?;
        for (i, v) in [task.as_basic_value_enum(), tctx, begin.as_basic_value_enum(), end.as_basic_value_enum()]
            .into_iter()
            .enumerate()
        {
            let gep = llvm(b.build_struct_gep(job, jk, i as u32, "jf"))?;
            llvm(b.build_store(gep, v))?;
        }
        if k > 0 {
            // SAFETY: in-bounds GEP into the thread ids.
            let tid = llvm(unsafe { b.build_gep(i64t.array_type(t as u32), tids, &[i64t.const_zero(), kk], "tid") })?;
            llvm(b.build_call(
                create,
                &[tid.into(), ptr.const_null().into(), body.as_global_value().as_pointer_value().into(), jk.into()],
                "",
            ))?;
        }
    }
    // SAFETY: job 0 is in bounds.
    let j0 =
        llvm(unsafe { b.build_gep(job.array_type(t as u32), jobs, &[i64t.const_zero(), i64t.const_zero()], "job0") })?;
    llvm(b.build_call(body, &[j0.into()], ""))?;
    for k in 1..t {
        // SAFETY: in-bounds GEP into the thread ids.
        let tid = llvm(unsafe {
            b.build_gep(i64t.array_type(t as u32), tids, &[i64t.const_zero(), i64t.const_int(k, false)], "tid")
        })?;
        let id = llvm(b.build_load(i64t, tid, "id"))?;
        llvm(b.build_call(join, &[id.into(), ptr.const_null().into()], ""))?;
    }
    llvm(b.build_return(None))?;
    Ok(())
}

fn load_field<'ctx>(
    b: &inkwell::builder::Builder<'ctx>,
    ty: inkwell::types::StructType<'ctx>,
    p: inkwell::values::PointerValue<'ctx>,
    k: u32,
    t: inkwell::types::BasicTypeEnum<'ctx>,
) -> Result<inkwell::values::BasicValueEnum<'ctx>> {
    let gep = llvm(b.build_struct_gep(ty, p, k, "f"))?;
    llvm(b.build_load(t, gep, "v"))
}

fn min_int<'ctx>(b: &inkwell::builder::Builder<'ctx>, x: IntValue<'ctx>, y: IntValue<'ctx>) -> Result<IntValue<'ctx>> {
    let lt = llvm(b.build_int_compare(IntPredicate::SLT, x, y, "lt"))?;
    Ok(llvm(b.build_select(lt, x, y, "min"))?.into_int_value())
}
