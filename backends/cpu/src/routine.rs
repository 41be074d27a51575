//! What the generated library routines (GEMM, convolution) share: their error type,
//! the vector ISA read from the `TargetMachine`, element-type conversions written
//! as plain integer/float IR (so nothing links beyond libc), and a small builder
//! wrapper for loops and conditionals.
//!
//! Conversions to and from f16/bf16 are bit manipulations rather than LLVM's
//! `fpext`/`fptrunc` on `half`/`bfloat`: on targets without native support those
//! lower to compiler-rt calls (`__truncsfhf2`, ...), which the AOT contract (link
//! against libc/libm/libpthread only) forbids.

use inkwell::AddressSpace;
use inkwell::IntPredicate;
use inkwell::attributes::{Attribute, AttributeLoc};
use inkwell::basic_block::BasicBlock;
use inkwell::builder::{Builder, BuilderError};
use inkwell::context::ContextRef;
use inkwell::intrinsics::Intrinsic;
use inkwell::module::{Linkage, Module};
use inkwell::targets::TargetMachine;
use inkwell::types::{BasicType, BasicTypeEnum, FunctionType, VectorType};
use inkwell::values::{
    BasicMetadataValueEnum, BasicValue, BasicValueEnum, FunctionValue, IntMathValue, IntValue, PointerValue,
};
use smelt_hlo::DType;

pub use crate::caches::Caches;

/// Errors of the routine generators: a spec they cannot implement, or LLVM refusing
/// what they built (a bug).
#[derive(Debug, thiserror::Error)]
pub enum RoutineError {
    #[error("unsupported: {0}")]
    Unsupported(String),
    #[error("invalid convolution: {0}")]
    InvalidConv(String),
    #[error("internal error building LLVM IR: {0}")]
    Llvm(String),
}

impl From<BuilderError> for RoutineError {
    fn from(e: BuilderError) -> Self {
        RoutineError::Llvm(e.to_string())
    }
}

pub(crate) type R<T> = Result<T, RoutineError>;

/// The vector unit the routines are shaped for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Isa {
    /// Width of one vector register in bits.
    pub vector_bits: u32,
    /// Number of vector registers.
    pub registers: u32,
    /// AVX512-BF16's `vdpbf16ps` (bf16 pairs multiplied exactly, added into f32).
    pub bf16_pairs: bool,
    /// Integer products in s16 pairs added into i32 with wrapping (exact for
    /// 8-bit and 16-bit integer products): AVX512-VNNI's (on 256-bit vectors
    /// AVX-VNNI's) `vpdpwssd` where [`Isa::vnni`], else `vpmaddwd` and an add
    /// (AVX2, AVX512-BW), the same sums in two instructions.
    pub int16_pairs: bool,
    /// AVX512-VNNI or AVX-VNNI: `vpdpwssd` and `vpdpbusd` exist.
    pub vnni: bool,
    /// AVX512-VNNI's `vpdpbusd` (u8 x s8 quads multiplied, added into i32
    /// with wrapping: exact, as four products of a u8 and an s8 fit i32), or
    /// AVX-VNNI's on 256-bit vectors. Never emulated: without VNNI the only
    /// quad instruction, `vpmaddubsw`, saturates its 16-bit pair sums.
    pub int8_quads: bool,
    /// The data caches: the host's when the target is the host, else
    /// [`Caches::DEFAULT`].
    pub caches: Caches,
}

impl Isa {
    /// Reads the target's triple and feature string: AVX-512 (32 x 512 bits,
    /// with or without BF16), AVX2
    /// (16 x 256), NEON (32 x 128) and SSE-level x86 or anything else (16 x 128).
    pub fn of(target: &TargetMachine) -> Isa {
        let triple = target.get_triple();
        let is_host = triple == TargetMachine::get_default_triple()
            && target.get_cpu().to_str() == TargetMachine::get_host_cpu_name().to_str();
        let caches = if is_host { Caches::host() } else { Caches::DEFAULT };
        let triple = triple.as_str().to_string_lossy();
        let features = target.get_feature_string().to_string_lossy().into_owned();
        let has = |f: &str| features.split(',').any(|x| x == format!("+{f}"));
        let (vector_bits, registers, bf16_pairs, int16_pairs, vnni) =
            if triple.starts_with("aarch64") || triple.starts_with("arm64") {
                (128, 32, false, false, false)
            } else if has("avx512f") {
                // On the host, bf16 pairs only where they beat converting to f32.
                let pairs = has("avx512bf16") && (!is_host || bf16_pairs_pay());
                let vnni = has("avx512vnni");
                (512, 32, pairs, vnni || has("avx512bw"), vnni)
            } else if has("avx2") || has("avx") {
                // AVX-VNNI: the VEX-encoded 256-bit vpdpwssd and vpdpbusd.
                let vnni = has("avx2") && has("avxvnni");
                (256, 16, false, has("avx2"), vnni)
            } else {
                (128, 16, false, false, false)
            };
        Isa { vector_bits, registers, bf16_pairs, int16_pairs, vnni, int8_quads: vnni, caches }
    }
}

/// Whether `vdpbf16ps` (two bf16 multiply-adds per f32 lane) outruns
/// `vfmadd231ps` (one) on this machine, measured once per process: both in
/// a loop of twelve independent accumulators, the best of five short runs.
/// Machines differ: on a Zen 4 `vdpbf16ps` issues as often as an FMA, so
/// bf16 products run up to twice as fast as pairs; on an Intel Xeon
/// (Emerald Rapids, AMX not exposed) it issued at a quarter of the FMA rate
/// and pairs ran 1.75x slower than converting to f32 (docs/benchmarks.md).
/// Pairs are used when they do at least 10% more multiply-adds per second.
pub fn bf16_pairs_pay() -> bool {
    static PAY: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *PAY.get_or_init(|| {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx512f") && std::arch::is_x86_feature_detected!("avx512bf16") {
            let best = |f: fn(u64)| {
                (0..5)
                    .map(|_| {
                        let t = std::time::Instant::now();
                        f(4096);
                        t.elapsed().as_secs_f64()
                    })
                    .fold(f64::INFINITY, f64::min)
            };
            // SAFETY: the features the loops use were detected just above.
            let (fma, pairs) = (best(|n| unsafe { throughput::fma(n) }), best(|n| unsafe { throughput::pairs(n) }));
            // Per instruction a pair does twice the multiply-adds.
            return fma / pairs * 2.0 >= 1.1;
        }
        false
    })
}

#[cfg(target_arch = "x86_64")]
mod throughput {
    //! Issue-rate loops for [`super::bf16_pairs_pay`]: twelve independent
    //! accumulators, so latency never limits them.

    macro_rules! twelve {
        ($name:ident, $op:literal, $features:literal) => {
            #[target_feature(enable = $features)]
            pub unsafe fn $name(iterations: u64) {
                // SAFETY: register-only arithmetic on clobbered registers.
                unsafe {
                    std::arch::asm!(
                        "vpxord zmm0, zmm0, zmm0", "vpxord zmm1, zmm1, zmm1", "vpxord zmm2, zmm2, zmm2",
                        "vpxord zmm3, zmm3, zmm3", "vpxord zmm4, zmm4, zmm4", "vpxord zmm5, zmm5, zmm5",
                        "vpxord zmm6, zmm6, zmm6", "vpxord zmm7, zmm7, zmm7", "vpxord zmm8, zmm8, zmm8",
                        "vpxord zmm9, zmm9, zmm9", "vpxord zmm10, zmm10, zmm10", "vpxord zmm11, zmm11, zmm11",
                        "vpxord zmm12, zmm12, zmm12", "vpxord zmm13, zmm13, zmm13",
                        "2:",
                        concat!($op, " zmm0, zmm12, zmm13"), concat!($op, " zmm1, zmm12, zmm13"),
                        concat!($op, " zmm2, zmm12, zmm13"), concat!($op, " zmm3, zmm12, zmm13"),
                        concat!($op, " zmm4, zmm12, zmm13"), concat!($op, " zmm5, zmm12, zmm13"),
                        concat!($op, " zmm6, zmm12, zmm13"), concat!($op, " zmm7, zmm12, zmm13"),
                        concat!($op, " zmm8, zmm12, zmm13"), concat!($op, " zmm9, zmm12, zmm13"),
                        concat!($op, " zmm10, zmm12, zmm13"), concat!($op, " zmm11, zmm12, zmm13"),
                        "dec {n}",
                        "jnz 2b",
                        n = inout(reg) iterations => _,
                        out("zmm0") _, out("zmm1") _, out("zmm2") _, out("zmm3") _, out("zmm4") _,
                        out("zmm5") _, out("zmm6") _, out("zmm7") _, out("zmm8") _, out("zmm9") _,
                        out("zmm10") _, out("zmm11") _, out("zmm12") _, out("zmm13") _,
                        options(nostack, nomem),
                    );
                }
            }
        };
    }
    twelve!(fma, "vfmadd231ps", "avx512f");
    twelve!(pairs, "vdpbf16ps", "avx512f,avx512bf16");
}

/// The arithmetic type products accumulate in (XLA's rule: f32 for f16/bf16/f32
/// results, f64 for f64, wrapping integers of the result's width class).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ct {
    F32,
    F64,
    I32,
    I64,
}

impl Ct {
    pub fn for_output(out: DType) -> R<Ct> {
        Ok(match out {
            DType::F16 | DType::Bf16 | DType::F32 => Ct::F32,
            DType::F64 => Ct::F64,
            DType::S8 | DType::S16 | DType::S32 | DType::U8 | DType::U16 | DType::U32 => Ct::I32,
            DType::S64 | DType::U64 => Ct::I64,
            DType::Pred => return Err(RoutineError::Unsupported("pred products".into())),
            DType::C64 | DType::C128 => return Err(RoutineError::Unsupported("complex products".into())),
        })
    }

    pub fn bytes(self) -> u32 {
        match self {
            Ct::F32 | Ct::I32 => 4,
            Ct::F64 | Ct::I64 => 8,
        }
    }

    pub fn is_float(self) -> bool {
        matches!(self, Ct::F32 | Ct::F64)
    }

    pub fn name(self) -> &'static str {
        match self {
            Ct::F32 => "f32",
            Ct::F64 => "f64",
            Ct::I32 => "i32",
            Ct::I64 => "i64",
        }
    }

    pub fn ty<'ctx>(self, cx: ContextRef<'ctx>) -> BasicTypeEnum<'ctx> {
        match self {
            Ct::F32 => cx.f32_type().into(),
            Ct::F64 => cx.f64_type().into(),
            Ct::I32 => cx.i32_type().into(),
            Ct::I64 => cx.i64_type().into(),
        }
    }

    /// Whether inputs of type `d` can be converted into this accumulator type.
    pub fn accepts(self, d: DType) -> bool {
        match d {
            DType::Pred => false,
            d if d.is_float() => self.is_float(),
            _ => true,
        }
    }

    /// The accumulator type of a `what` (a dot, a convolution) of operands `ins`
    /// with an `out` result, or why there is none.
    pub fn for_product(what: &str, ins: [DType; 2], out: DType) -> R<Ct> {
        let ct = Ct::for_output(out)?;
        for d in ins {
            if !ct.accepts(d) {
                return Err(RoutineError::Unsupported(format!(
                    "{what} of {} operands with a {} result",
                    d.name(),
                    out.name()
                )));
            }
        }
        Ok(ct)
    }
}

/// The in-memory LLVM type of one element of `d` (f16/bf16 as `i16` bits).
pub(crate) fn mem_type<'ctx>(cx: ContextRef<'ctx>, d: DType) -> BasicTypeEnum<'ctx> {
    match d {
        DType::Pred | DType::S8 | DType::U8 => cx.i8_type().into(),
        DType::S16 | DType::U16 | DType::F16 | DType::Bf16 => cx.i16_type().into(),
        DType::S32 | DType::U32 => cx.i32_type().into(),
        DType::S64 | DType::U64 => cx.i64_type().into(),
        // Complex values reach no routine (`smelt_hlo::complex`); parts stand in.
        DType::F32 | DType::C64 => cx.f32_type().into(),
        DType::F64 | DType::C128 => cx.f64_type().into(),
    }
}

/// Sets the target CPU and features on a generated function, so any engine or
/// target machine that compiles it uses the same vector ISA it was shaped for.
pub(crate) fn set_target_attrs(cx: ContextRef<'_>, f: FunctionValue<'_>, target: &TargetMachine, isa: Isa) {
    let cpu = target.get_cpu().to_string();
    let features = target.get_feature_string().to_string_lossy().into_owned();
    if !cpu.is_empty() {
        f.add_attribute(AttributeLoc::Function, cx.create_string_attribute("target-cpu", &cpu));
    }
    if !features.is_empty() {
        f.add_attribute(AttributeLoc::Function, cx.create_string_attribute("target-features", &features));
    }
    let bits = isa.vector_bits.to_string();
    f.add_attribute(AttributeLoc::Function, cx.create_string_attribute("min-legal-vector-width", &bits));
    f.add_attribute(AttributeLoc::Function, cx.create_string_attribute("prefer-vector-width", &bits));
    f.add_attribute(AttributeLoc::Function, enum_attr(cx, "nounwind"));
}

pub(crate) fn enum_attr(cx: ContextRef<'_>, name: &str) -> Attribute {
    cx.create_enum_attribute(Attribute::get_named_enum_kind_id(name), 0)
}

/// Returns the function `name` or declares it with `ty` (external).
pub(crate) fn declare<'ctx>(module: &Module<'ctx>, name: &str, ty: FunctionType<'ctx>) -> FunctionValue<'ctx> {
    module.get_function(name).unwrap_or_else(|| module.add_function(name, ty, Some(Linkage::External)))
}

/// A builder positioned in one function, with helpers for the loop nests the
/// routines are made of. Values are i64 indices unless stated otherwise.
pub(crate) struct Ir<'a, 'ctx> {
    pub cx: ContextRef<'ctx>,
    pub module: &'a Module<'ctx>,
    pub b: Builder<'ctx>,
    pub func: FunctionValue<'ctx>,
    entry: BasicBlock<'ctx>,
}

impl<'a, 'ctx> Ir<'a, 'ctx> {
    /// Starts the body of `func` (which has no blocks yet).
    pub fn new(module: &'a Module<'ctx>, func: FunctionValue<'ctx>) -> Self {
        let cx = module.get_context();
        let b = cx.create_builder();
        let entry = cx.append_basic_block(func, "entry");
        b.position_at_end(entry);
        Ir { cx, module, b, func, entry }
    }

    pub fn i64t(&self) -> inkwell::types::IntType<'ctx> {
        self.cx.i64_type()
    }

    pub fn ptrt(&self) -> inkwell::types::PointerType<'ctx> {
        self.cx.ptr_type(AddressSpace::default())
    }

    pub fn c(&self, v: i64) -> IntValue<'ctx> {
        self.cx.i64_type().const_int(v as u64, true)
    }

    pub fn param_int(&self, i: u32) -> IntValue<'ctx> {
        self.func.get_nth_param(i).map(|p| p.into_int_value()).unwrap_or_else(|| self.c(0))
    }

    pub fn param_ptr(&self, i: u32) -> PointerValue<'ctx> {
        self.func.get_nth_param(i).map(|p| p.into_pointer_value()).unwrap_or_else(|| self.ptrt().const_null())
    }

    pub fn add(&self, a: IntValue<'ctx>, b: IntValue<'ctx>) -> R<IntValue<'ctx>> {
        Ok(self.b.build_int_add(a, b, "")?)
    }
    pub fn sub(&self, a: IntValue<'ctx>, b: IntValue<'ctx>) -> R<IntValue<'ctx>> {
        Ok(self.b.build_int_sub(a, b, "")?)
    }
    pub fn mul(&self, a: IntValue<'ctx>, b: IntValue<'ctx>) -> R<IntValue<'ctx>> {
        Ok(self.b.build_int_mul(a, b, "")?)
    }
    pub fn div(&self, a: IntValue<'ctx>, b: IntValue<'ctx>) -> R<IntValue<'ctx>> {
        Ok(self.b.build_int_signed_div(a, b, "")?)
    }
    pub fn rem(&self, a: IntValue<'ctx>, b: IntValue<'ctx>) -> R<IntValue<'ctx>> {
        Ok(self.b.build_int_signed_rem(a, b, "")?)
    }
    /// `ceil(a / b)` for `a >= 0`, `b > 0`.
    pub fn ceil_div(&self, a: IntValue<'ctx>, b: IntValue<'ctx>) -> R<IntValue<'ctx>> {
        let t = self.add(a, self.sub(b, self.c(1))?)?;
        self.div(t, b)
    }
    pub fn cmp(&self, p: IntPredicate, a: IntValue<'ctx>, b: IntValue<'ctx>) -> R<IntValue<'ctx>> {
        Ok(self.b.build_int_compare(p, a, b, "")?)
    }
    pub fn select(&self, c: IntValue<'ctx>, a: IntValue<'ctx>, b: IntValue<'ctx>) -> R<IntValue<'ctx>> {
        Ok(self.b.build_select(c, a, b, "")?.into_int_value())
    }
    /// `lo <= v < hi` (signed).
    pub fn in_range(&self, v: IntValue<'ctx>, lo: i64, hi: i64) -> R<IntValue<'ctx>> {
        let (a, b) = (self.cmp(IntPredicate::SGE, v, self.c(lo))?, self.cmp(IntPredicate::SLT, v, self.c(hi))?);
        Ok(self.b.build_and(a, b, "")?)
    }
    pub fn min(&self, a: IntValue<'ctx>, b: IntValue<'ctx>) -> R<IntValue<'ctx>> {
        let c = self.cmp(IntPredicate::SLT, a, b)?;
        self.select(c, a, b)
    }
    pub fn max(&self, a: IntValue<'ctx>, b: IntValue<'ctx>) -> R<IntValue<'ctx>> {
        let c = self.cmp(IntPredicate::SGT, a, b)?;
        self.select(c, a, b)
    }
    pub fn clamp(&self, x: IntValue<'ctx>, lo: IntValue<'ctx>, hi: IntValue<'ctx>) -> R<IntValue<'ctx>> {
        self.max(self.min(x, hi)?, lo)
    }

    /// Address of element `idx` of an array of `elem` at `ptr`.
    pub fn gep(
        &self,
        elem: BasicTypeEnum<'ctx>,
        ptr: PointerValue<'ctx>,
        idx: IntValue<'ctx>,
    ) -> R<PointerValue<'ctx>> {
        Ok(unsafe { self.b.build_in_bounds_gep(elem, ptr, &[idx], "")? })
    }

    pub fn load(&self, ty: BasicTypeEnum<'ctx>, ptr: PointerValue<'ctx>, align: u32) -> R<BasicValueEnum<'ctx>> {
        let v = self.b.build_load(ty, ptr, "")?;
        if let Some(i) = v.as_instruction_value() {
            i.set_alignment(align).map_err(|e| RoutineError::Llvm(e.to_string()))?;
        }
        Ok(v)
    }

    pub fn store(&self, ptr: PointerValue<'ctx>, v: BasicValueEnum<'ctx>, align: u32) -> R<()> {
        let s = self.b.build_store(ptr, v)?;
        s.set_alignment(align).map_err(|e| RoutineError::Llvm(e.to_string()))?;
        Ok(())
    }

    /// An `alloca` in the entry block (so mem2reg/SROA promote it).
    pub fn alloca(&self, ty: BasicTypeEnum<'ctx>) -> R<PointerValue<'ctx>> {
        let here = self.b.get_insert_block();
        match self.entry.get_first_instruction() {
            Some(i) => self.b.position_before(&i),
            None => self.b.position_at_end(self.entry),
        }
        let p = self.b.build_alloca(ty, "")?;
        if let Some(h) = here {
            self.b.position_at_end(h);
        }
        Ok(p)
    }

    pub fn call(
        &self,
        f: FunctionValue<'ctx>,
        args: &[BasicMetadataValueEnum<'ctx>],
    ) -> R<Option<BasicValueEnum<'ctx>>> {
        Ok(self.b.build_call(f, args, "")?.try_as_basic_value().basic())
    }

    /// `for i in (start..end).step_by(step)` (`step > 0`); `body` gets `i`.
    pub fn for_range(
        &self,
        start: IntValue<'ctx>,
        end: IntValue<'ctx>,
        step: i64,
        body: impl FnMut(IntValue<'ctx>) -> R<()>,
    ) -> R<()> {
        self.for_step(start, end, self.c(step), body)
    }

    /// `for i in (start..end).step_by(step)` with a run-time `step > 0`.
    pub fn for_step(
        &self,
        start: IntValue<'ctx>,
        end: IntValue<'ctx>,
        step: IntValue<'ctx>,
        mut body: impl FnMut(IntValue<'ctx>) -> R<()>,
    ) -> R<()> {
        let pre = self.b.get_insert_block().ok_or_else(|| RoutineError::Llvm("builder not positioned".into()))?;
        let head = self.cx.append_basic_block(self.func, "loop");
        let bodyb = self.cx.append_basic_block(self.func, "body");
        let exit = self.cx.append_basic_block(self.func, "exit");
        self.b.build_unconditional_branch(head)?;
        self.b.position_at_end(head);
        let phi = self.b.build_phi(self.i64t(), "i")?;
        phi.add_incoming(&[(&start, pre)]);
        let i = phi.as_basic_value().into_int_value();
        let go = self.cmp(IntPredicate::SLT, i, end)?;
        self.b.build_conditional_branch(go, bodyb, exit)?;
        self.b.position_at_end(bodyb);
        body(i)?;
        let next = self.add(i, step)?;
        let latch = self.b.get_insert_block().ok_or_else(|| RoutineError::Llvm("builder not positioned".into()))?;
        self.b.build_unconditional_branch(head)?;
        phi.add_incoming(&[(&next, latch)]);
        self.b.position_at_end(exit);
        Ok(())
    }

    /// Runs `then` when `cond` (an i1) holds.
    pub fn if_(&self, cond: IntValue<'ctx>, then: impl FnOnce() -> R<()>) -> R<()> {
        let t = self.cx.append_basic_block(self.func, "then");
        let j = self.cx.append_basic_block(self.func, "join");
        self.b.build_conditional_branch(cond, t, j)?;
        self.b.position_at_end(t);
        then()?;
        self.b.build_unconditional_branch(j)?;
        self.b.position_at_end(j);
        Ok(())
    }

    pub fn if_else(&self, cond: IntValue<'ctx>, then: impl FnOnce() -> R<()>, els: impl FnOnce() -> R<()>) -> R<()> {
        let t = self.cx.append_basic_block(self.func, "then");
        let e = self.cx.append_basic_block(self.func, "else");
        let j = self.cx.append_basic_block(self.func, "join");
        self.b.build_conditional_branch(cond, t, e)?;
        self.b.position_at_end(t);
        then()?;
        self.b.build_unconditional_branch(j)?;
        self.b.position_at_end(e);
        els()?;
        self.b.build_unconditional_branch(j)?;
        self.b.position_at_end(j);
        Ok(())
    }

    pub fn ret(&self) -> R<()> {
        self.b.build_return(None)?;
        Ok(())
    }

    // ---- memory ---------------------------------------------------------------

    /// 64-byte aligned scratch memory from the runtime (`smelt_runtime::scratch`;
    /// an AOT object's own wrapper over `aligned_alloc`); aborts when memory
    /// runs out.
    pub fn alloc(&self, bytes: IntValue<'ctx>) -> R<PointerValue<'ctx>> {
        let p = self.ptrt();
        let name = smelt_runtime::scratch::ALLOC_SYMBOL;
        let f = declare(self.module, name, p.fn_type(&[self.i64t().into()], false));
        let ptr = self
            .call(f, &[bytes.into()])?
            .ok_or_else(|| RoutineError::Llvm(format!("{name} returned void")))?
            .into_pointer_value();
        let null = self.b.build_is_null(ptr, "")?;
        self.if_(null, || {
            let abort = declare(self.module, "abort", self.cx.void_type().fn_type(&[], false));
            self.call(abort, &[])?;
            Ok(())
        })?;
        Ok(ptr)
    }

    /// The number of threads a parallel job runs on (`smelt_parallel_threads`).
    pub fn thread_count(&self) -> R<IntValue<'ctx>> {
        let name = smelt_runtime::pool::THREADS_SYMBOL;
        let f = declare(self.module, name, self.i64t().fn_type(&[], false));
        Ok(self.call(f, &[])?.ok_or_else(|| RoutineError::Llvm(format!("{name} returned void")))?.into_int_value())
    }

    /// Releases memory from [`Ir::alloc`].
    pub fn free(&self, ptr: PointerValue<'ctx>) -> R<()> {
        let name = smelt_runtime::scratch::FREE_SYMBOL;
        let f = declare(self.module, name, self.cx.void_type().fn_type(&[self.ptrt().into()], false));
        self.call(f, &[ptr.into()])?;
        Ok(())
    }

    // ---- element values ---------------------------------------------------------

    /// The vector type of `n` elements of accumulator type `ct`.
    pub fn vec(&self, ct: Ct, n: u32) -> VectorType<'ctx> {
        match ct {
            Ct::F32 => self.cx.f32_type().vec_type(n),
            Ct::F64 => self.cx.f64_type().vec_type(n),
            Ct::I32 => self.cx.i32_type().vec_type(n),
            Ct::I64 => self.cx.i64_type().vec_type(n),
        }
    }

    /// `n` lanes of memory type for `d` (`n == 0`: the scalar type).
    pub fn mem_ty(&self, d: DType, n: u32) -> BasicTypeEnum<'ctx> {
        let t = mem_type(self.cx, d);
        if n == 0 {
            return t;
        }
        match t {
            BasicTypeEnum::FloatType(f) => f.vec_type(n).into(),
            BasicTypeEnum::IntType(i) => i.vec_type(n).into(),
            other => other,
        }
    }

    /// Constant `v` splatted to the shape of `like` (scalar or vector of i32 or f32).
    fn int_like(&self, like: BasicValueEnum<'ctx>, bits: u32, v: u64) -> BasicValueEnum<'ctx> {
        let it = int_ty(self.cx, bits);
        match like {
            BasicValueEnum::VectorValue(vv) => {
                let n = vv.get_type().get_size();
                let c = it.const_int(v, false);
                VectorType::const_vector(&vec![c; n as usize]).into()
            }
            _ => it.const_int(v, false).into(),
        }
    }

    fn shape_ty(&self, like: BasicValueEnum<'ctx>, elem: BasicTypeEnum<'ctx>) -> BasicTypeEnum<'ctx> {
        match like {
            BasicValueEnum::VectorValue(vv) => {
                let n = vv.get_type().get_size();
                match elem {
                    BasicTypeEnum::FloatType(f) => f.vec_type(n).into(),
                    BasicTypeEnum::IntType(i) => i.vec_type(n).into(),
                    other => other,
                }
            }
            _ => elem,
        }
    }

    fn ibin(&self, op: &str, a: BasicValueEnum<'ctx>, b: BasicValueEnum<'ctx>) -> R<BasicValueEnum<'ctx>> {
        use BasicValueEnum::*;
        Ok(match (a, b) {
            (IntValue(x), IntValue(y)) => self.int_op(op, x, y)?,
            (VectorValue(x), VectorValue(y)) => self.int_op(op, x, y)?,
            _ => return Err(RoutineError::Llvm(format!("integer op {op} on mismatched values"))),
        })
    }

    /// [`Ir::ibin`] on two integer scalars or two integer vectors.
    fn int_op<T: IntMathValue<'ctx>>(&self, op: &str, x: T, y: T) -> R<BasicValueEnum<'ctx>> {
        let v = match op {
            "and" => self.b.build_and(x, y, "")?,
            "or" => self.b.build_or(x, y, "")?,
            "xor" => self.b.build_xor(x, y, "")?,
            "add" => self.b.build_int_add(x, y, "")?,
            "sub" => self.b.build_int_sub(x, y, "")?,
            "shl" => self.b.build_left_shift(x, y, "")?,
            _ => self.b.build_right_shift(x, y, false, "")?,
        };
        Ok(v.as_basic_value_enum())
    }

    fn icmp_v(&self, p: IntPredicate, a: BasicValueEnum<'ctx>, b: BasicValueEnum<'ctx>) -> R<BasicValueEnum<'ctx>> {
        use BasicValueEnum::*;
        Ok(match (a, b) {
            (IntValue(x), IntValue(y)) => self.b.build_int_compare(p, x, y, "")?.into(),
            (VectorValue(x), VectorValue(y)) => self.b.build_int_compare(p, x, y, "")?.into(),
            _ => return Err(RoutineError::Llvm("compare on mismatched values".into())),
        })
    }

    fn sel_v(
        &self,
        c: BasicValueEnum<'ctx>,
        a: BasicValueEnum<'ctx>,
        b: BasicValueEnum<'ctx>,
    ) -> R<BasicValueEnum<'ctx>> {
        Ok(match c {
            BasicValueEnum::IntValue(c) => self.b.build_select(c, a, b, "")?,
            BasicValueEnum::VectorValue(c) => self.b.build_select(c, a, b, "")?,
            _ => return Err(RoutineError::Llvm("select on a non-boolean".into())),
        })
    }

    fn bitcast(&self, v: BasicValueEnum<'ctx>, elem: BasicTypeEnum<'ctx>) -> R<BasicValueEnum<'ctx>> {
        let ty = self.shape_ty(v, elem);
        Ok(self.b.build_bit_cast(v, ty, "")?)
    }

    fn int_resize(&self, v: BasicValueEnum<'ctx>, bits: u32, signed: bool) -> R<BasicValueEnum<'ctx>> {
        let ty = self.shape_ty(v, int_ty(self.cx, bits).into());
        Ok(match (v, ty) {
            (BasicValueEnum::IntValue(x), BasicTypeEnum::IntType(t)) => {
                self.b.build_int_cast_sign_flag(x, t, signed, "")?.into()
            }
            (BasicValueEnum::VectorValue(x), BasicTypeEnum::VectorType(t)) => {
                let from = x.get_type().get_element_type().into_int_type().get_bit_width();
                if from == bits {
                    x.into()
                } else if from > bits {
                    self.b.build_int_truncate(x, t, "")?.into()
                } else if signed {
                    self.b.build_int_s_extend(x, t, "")?.into()
                } else {
                    self.b.build_int_z_extend(x, t, "")?.into()
                }
            }
            _ => return Err(RoutineError::Llvm("integer resize of a non-integer".into())),
        })
    }

    fn float_resize(&self, v: BasicValueEnum<'ctx>, to: BasicTypeEnum<'ctx>) -> R<BasicValueEnum<'ctx>> {
        let ty = self.shape_ty(v, to);
        Ok(match (v, ty) {
            (BasicValueEnum::FloatValue(x), BasicTypeEnum::FloatType(t)) => self.b.build_float_cast(x, t, "")?.into(),
            (BasicValueEnum::VectorValue(x), BasicTypeEnum::VectorType(t)) => {
                let from = self.b.build_bit_cast(x, x.get_type(), "")?.into_vector_value();
                let fb = from.get_type().get_element_type().into_float_type();
                let tb = t.get_element_type().into_float_type();
                let (fs, ts) = (float_bits(self.cx, fb), float_bits(self.cx, tb));
                if fs == ts {
                    x.into()
                } else if fs < ts {
                    self.b.build_float_ext(x, t, "")?.into()
                } else {
                    self.b.build_float_trunc(x, t, "")?.into()
                }
            }
            _ => return Err(RoutineError::Llvm("float resize of a non-float".into())),
        })
    }

    fn int_to_float(&self, v: BasicValueEnum<'ctx>, to: BasicTypeEnum<'ctx>, signed: bool) -> R<BasicValueEnum<'ctx>> {
        let ty = self.shape_ty(v, to);
        Ok(match (v, ty) {
            (BasicValueEnum::IntValue(x), BasicTypeEnum::FloatType(t)) => {
                if signed {
                    self.b.build_signed_int_to_float(x, t, "")?.into()
                } else {
                    self.b.build_unsigned_int_to_float(x, t, "")?.into()
                }
            }
            (BasicValueEnum::VectorValue(x), BasicTypeEnum::VectorType(t)) => {
                if signed {
                    self.b.build_signed_int_to_float(x, t, "")?.into()
                } else {
                    self.b.build_unsigned_int_to_float(x, t, "")?.into()
                }
            }
            _ => return Err(RoutineError::Llvm("int-to-float of a non-integer".into())),
        })
    }

    fn fmul_v(&self, a: BasicValueEnum<'ctx>, b: BasicValueEnum<'ctx>) -> R<BasicValueEnum<'ctx>> {
        Ok(match (a, b) {
            (BasicValueEnum::FloatValue(x), BasicValueEnum::FloatValue(y)) => self.b.build_float_mul(x, y, "")?.into(),
            (BasicValueEnum::VectorValue(x), BasicValueEnum::VectorValue(y)) => {
                self.b.build_float_mul(x, y, "")?.into()
            }
            _ => return Err(RoutineError::Llvm("float multiply on mismatched values".into())),
        })
    }

    /// f16 bits (i16, scalar or vector) to f32: the exponent is rebased with one
    /// multiply by 2^112 (which also scales subnormals right), Inf/NaN patched.
    fn f16_to_f32(&self, h: BasicValueEnum<'ctx>) -> R<BasicValueEnum<'ctx>> {
        let x = self.int_resize(h, 32, false)?;
        let k = |v: u64| self.int_like(x, 32, v);
        let sign = self.ibin("shl", self.ibin("and", x, k(0x8000))?, k(16))?;
        let em = self.ibin("and", x, k(0x7fff))?;
        let shifted = self.ibin("shl", em, k(13))?;
        let f = self.bitcast(shifted, self.cx.f32_type().into())?;
        let magic = self.bitcast(k(0x7780_0000), self.cx.f32_type().into())?;
        let scaled = self.bitcast(self.fmul_v(f, magic)?, self.cx.i32_type().into())?;
        let special = self.icmp_v(IntPredicate::UGE, em, k(0x7c00))?;
        let infnan = self.ibin("or", shifted, k(0x7f80_0000))?;
        let bits = self.ibin("or", sign, self.sel_v(special, infnan, scaled)?)?;
        self.bitcast(bits, self.cx.f32_type().into())
    }

    /// f32 to f16 bits (i16) rounding to nearest even; overflow to Inf, NaN to a
    /// quiet NaN.
    fn f32_to_f16(&self, v: BasicValueEnum<'ctx>) -> R<BasicValueEnum<'ctx>> {
        let x = self.bitcast(v, self.cx.i32_type().into())?;
        let k = |v: u64| self.int_like(x, 32, v);
        let sign = self.ibin("and", x, k(0x8000_0000))?;
        let f = self.ibin("xor", x, sign)?;
        // Large: Inf or NaN.
        let is_nan = self.icmp_v(IntPredicate::UGT, f, k(0x7f80_0000))?;
        let big = self.sel_v(is_nan, k(0x7e00), k(0x7c00))?;
        let too_big = self.icmp_v(IntPredicate::UGE, f, k((127 + 16) << 23))?;
        // Small: let the FPU round into the subnormal range.
        let denorm_magic = ((127 - 15) + (23 - 10) + 1) << 23;
        let ff = self.bitcast(f, self.cx.f32_type().into())?;
        let dm = self.bitcast(k(denorm_magic), self.cx.f32_type().into())?;
        let sum = match (ff, dm) {
            (BasicValueEnum::FloatValue(a), BasicValueEnum::FloatValue(b)) => self.b.build_float_add(a, b, "")?.into(),
            (BasicValueEnum::VectorValue(a), BasicValueEnum::VectorValue(b)) => {
                self.b.build_float_add(a, b, "")?.into()
            }
            _ => return Err(RoutineError::Llvm("f16 rounding on mismatched values".into())),
        };
        let small = self.ibin("sub", self.bitcast(sum, self.cx.i32_type().into())?, k(denorm_magic))?;
        let is_small = self.icmp_v(IntPredicate::ULT, f, k(113 << 23))?;
        // Normal: rebias and round to nearest even.
        let odd = self.ibin("and", self.ibin("lshr", f, k(13))?, k(1))?;
        let rebias = ((15u64.wrapping_sub(127)) << 23).wrapping_add(0xfff) & 0xffff_ffff;
        let normal = self.ibin("lshr", self.ibin("add", self.ibin("add", f, k(rebias))?, odd)?, k(13))?;
        let o = self.sel_v(is_small, small, normal)?;
        let o = self.sel_v(too_big, big, o)?;
        let o = self.ibin("or", o, self.ibin("lshr", sign, k(16))?)?;
        self.int_resize(o, 16, false)
    }

    /// f32 to bf16 bits (i16) rounding to nearest even; NaN stays a quiet NaN.
    fn f32_to_bf16(&self, v: BasicValueEnum<'ctx>) -> R<BasicValueEnum<'ctx>> {
        let x = self.bitcast(v, self.cx.i32_type().into())?;
        let k = |v: u64| self.int_like(x, 32, v);
        let lsb = self.ibin("and", self.ibin("lshr", x, k(16))?, k(1))?;
        let rounded = self.ibin("lshr", self.ibin("add", self.ibin("add", x, k(0x7fff))?, lsb)?, k(16))?;
        let quiet = self.ibin("or", self.ibin("lshr", x, k(16))?, k(0x40))?;
        let abs = self.ibin("and", x, k(0x7fff_ffff))?;
        let is_nan = self.icmp_v(IntPredicate::UGT, abs, k(0x7f80_0000))?;
        let o = self.sel_v(is_nan, quiet, rounded)?;
        self.int_resize(o, 16, false)
    }

    /// Converts loaded elements of type `d` (memory form) to accumulator type `ct`.
    pub fn to_ct(&self, v: BasicValueEnum<'ctx>, d: DType, ct: Ct) -> R<BasicValueEnum<'ctx>> {
        let ct_ty = ct.ty(self.cx);
        match d {
            DType::F16 => {
                let f = self.f16_to_f32(v)?;
                self.float_resize(f, ct_ty)
            }
            DType::Bf16 => {
                let x = self.int_resize(v, 32, false)?;
                let k = self.int_like(x, 32, 16);
                let f = self.bitcast(self.ibin("shl", x, k)?, self.cx.f32_type().into())?;
                self.float_resize(f, ct_ty)
            }
            DType::F32 | DType::F64 => self.float_resize(v, ct_ty),
            d => {
                let signed = d.is_signed_int();
                if ct.is_float() {
                    self.int_to_float(v, ct_ty, signed)
                } else {
                    self.int_resize(v, ct.bytes() * 8, signed)
                }
            }
        }
    }

    /// Converts accumulator values to the memory form of `d`.
    pub fn ct_to(&self, v: BasicValueEnum<'ctx>, ct: Ct, d: DType) -> R<BasicValueEnum<'ctx>> {
        match d {
            DType::F16 => self.f32_to_f16(self.float_resize(v, self.cx.f32_type().into())?),
            DType::Bf16 => self.f32_to_bf16(self.float_resize(v, self.cx.f32_type().into())?),
            DType::F32 => self.float_resize(v, self.cx.f32_type().into()),
            DType::F64 => self.float_resize(v, self.cx.f64_type().into()),
            d => {
                if ct.is_float() {
                    return Err(RoutineError::Unsupported(format!("float products stored as {}", d.name())));
                }
                self.int_resize(v, (d.byte_size() * 8) as u32, d.is_signed_int())
            }
        }
    }

    /// Prefetches the cache line at `base + bytes` for writing (a hint that never
    /// faults, so the address may lie outside any object).
    pub fn prefetch(&self, base: PointerValue<'ctx>, bytes: IntValue<'ctx>) -> R<()> {
        self.prefetch_for(base, bytes, true)
    }

    /// A hint that `base + bytes` will be read (`write`: written) soon, into
    /// every cache level; no access, so the address may lie outside any object.
    pub fn prefetch_for(&self, base: PointerValue<'ctx>, bytes: IntValue<'ctx>, write: bool) -> R<()> {
        let p = unsafe { self.b.build_gep(self.cx.i8_type(), base, &[bytes], "")? };
        let f = Intrinsic::find("llvm.prefetch")
            .and_then(|i| i.get_declaration(self.module, &[self.ptrt().into()]))
            .ok_or_else(|| RoutineError::Llvm("llvm.prefetch not found".into()))?;
        let i32t = self.cx.i32_type();
        let (rw, locality, data) =
            (i32t.const_int(u64::from(write), false), i32t.const_int(3, false), i32t.const_int(1, false));
        self.call(f, &[p.into(), rw.into(), locality.into(), data.into()])?;
        Ok(())
    }

    /// A vector of type `vty` read from `ptr` where `mask` (`<n x i1>`) is
    /// set, zeros elsewhere. Lanes off the mask read nothing, so they may lie
    /// outside any object (form `ptr` with [`Ir::gep_wrapping`]).
    pub fn masked_load(
        &self,
        vty: BasicTypeEnum<'ctx>,
        ptr: PointerValue<'ctx>,
        mask: inkwell::values::VectorValue<'ctx>,
    ) -> R<BasicValueEnum<'ctx>> {
        let f = Intrinsic::find("llvm.masked.load")
            .and_then(|i| i.get_declaration(self.module, &[vty, self.ptrt().into()]))
            .ok_or_else(|| RoutineError::Llvm("llvm.masked.load not found".into()))?;
        self.call(f, &[ptr.into(), mask.into(), vty.const_zero().into()])?
            .ok_or_else(|| RoutineError::Llvm("llvm.masked.load returns nothing".into()))
    }

    /// Stores the lanes of vector `v` where `mask` is set; the others write
    /// nothing (their addresses may lie outside any object).
    pub fn masked_store(
        &self,
        v: BasicValueEnum<'ctx>,
        ptr: PointerValue<'ctx>,
        mask: inkwell::values::VectorValue<'ctx>,
    ) -> R<()> {
        let f = Intrinsic::find("llvm.masked.store")
            .and_then(|i| i.get_declaration(self.module, &[v.get_type(), self.ptrt().into()]))
            .ok_or_else(|| RoutineError::Llvm("llvm.masked.store not found".into()))?;
        self.call(f, &[v.into(), ptr.into(), mask.into()])?;
        Ok(())
    }

    /// `lo <= base + i < hi` for each lane `i` of `n`, as an `<n x i1>` mask,
    /// and'ed with `also`.
    pub fn lanes_in_range(
        &self,
        base: IntValue<'ctx>,
        n: u32,
        lo: i64,
        hi: i64,
        also: IntValue<'ctx>,
    ) -> R<inkwell::values::VectorValue<'ctx>> {
        let i32t = self.cx.i32_type();
        let iota: Vec<IntValue<'ctx>> = (0..n).map(|i| i32t.const_int(i as u64, false)).collect();
        let base = self.b.build_int_truncate(base, i32t, "")?;
        let cols = self.b.build_int_add(
            self.splat(base.into(), n)?.into_vector_value(),
            VectorType::const_vector(&iota),
            "",
        )?;
        let lo = self.splat(i32t.const_int(lo as u64, true).into(), n)?.into_vector_value();
        let hi = self.splat(i32t.const_int(hi as u64, true).into(), n)?.into_vector_value();
        let inside = self.b.build_and(
            self.b.build_int_compare(IntPredicate::SGE, cols, lo, "")?,
            self.b.build_int_compare(IntPredicate::SLT, cols, hi, "")?,
            "",
        )?;
        let also = self.splat(also.into(), n)?.into_vector_value();
        Ok(self.b.build_and(inside, also, "")?)
    }

    /// `ptr + idx` elements of `elem`, wrapping: the address may lie outside
    /// any object (for masked accesses).
    pub fn gep_wrapping(
        &self,
        elem: BasicTypeEnum<'ctx>,
        ptr: PointerValue<'ctx>,
        idx: IntValue<'ctx>,
    ) -> R<PointerValue<'ctx>> {
        Ok(unsafe { self.b.build_gep(elem, ptr, &[idx], "")? })
    }

    /// `acc + a * b` in `ct` (fused where the target can, wrapping for ints).
    pub fn mul_add(
        &self,
        ct: Ct,
        a: BasicValueEnum<'ctx>,
        b: BasicValueEnum<'ctx>,
        acc: BasicValueEnum<'ctx>,
    ) -> R<BasicValueEnum<'ctx>> {
        if ct.is_float() {
            // fmuladd, not fma: fused where the target has FMA, a multiply and an
            // add elsewhere (llvm.fma would become calls to libm's fmaf there).
            let fma = Intrinsic::find("llvm.fmuladd")
                .and_then(|i| i.get_declaration(self.module, &[a.get_type()]))
                .ok_or_else(|| RoutineError::Llvm("llvm.fmuladd not found".into()))?;
            self.call(fma, &[a.into(), b.into(), acc.into()])?
                .ok_or_else(|| RoutineError::Llvm("llvm.fmuladd returned void".into()))
        } else {
            let p = match (a, b) {
                (BasicValueEnum::IntValue(x), BasicValueEnum::IntValue(y)) => self.b.build_int_mul(x, y, "")?.into(),
                (BasicValueEnum::VectorValue(x), BasicValueEnum::VectorValue(y)) => {
                    self.b.build_int_mul(x, y, "")?.into()
                }
                _ => return Err(RoutineError::Llvm("integer multiply on mismatched values".into())),
            };
            self.ibin("add", acc, p)
        }
    }

    /// `a + b` in `ct`.
    pub fn add_ct(&self, ct: Ct, a: BasicValueEnum<'ctx>, b: BasicValueEnum<'ctx>) -> R<BasicValueEnum<'ctx>> {
        if ct.is_float() {
            Ok(match (a, b) {
                (BasicValueEnum::FloatValue(x), BasicValueEnum::FloatValue(y)) => {
                    self.b.build_float_add(x, y, "")?.into()
                }
                (BasicValueEnum::VectorValue(x), BasicValueEnum::VectorValue(y)) => {
                    self.b.build_float_add(x, y, "")?.into()
                }
                _ => return Err(RoutineError::Llvm("float add on mismatched values".into())),
            })
        } else {
            self.ibin("add", a, b)
        }
    }

    /// The zero of `ct`, as a scalar (`n == 0`) or an `n`-lane vector.
    pub fn zero(&self, ct: Ct, n: u32) -> BasicValueEnum<'ctx> {
        if n == 0 { ct.ty(self.cx).const_zero() } else { self.vec(ct, n).const_zero().into() }
    }

    /// Broadcasts a scalar to `n` lanes.
    pub fn splat(&self, v: BasicValueEnum<'ctx>, n: u32) -> R<BasicValueEnum<'ctx>> {
        let vt = match v.get_type() {
            BasicTypeEnum::FloatType(f) => f.vec_type(n),
            BasicTypeEnum::IntType(i) => i.vec_type(n),
            _ => return Err(RoutineError::Llvm("splat of a non-scalar".into())),
        };
        let undef = vt.get_poison();
        let ins = self.b.build_insert_element(undef, v, self.cx.i32_type().const_zero(), "")?;
        let mask = VectorType::const_vector(&vec![self.cx.i32_type().const_zero(); n as usize]);
        Ok(self.b.build_shuffle_vector(ins, undef, mask, "")?.into())
    }

    /// `shufflevector a, b, mask` with a constant mask (`None`: poison lane).
    pub fn shuffle(
        &self,
        a: BasicValueEnum<'ctx>,
        b: BasicValueEnum<'ctx>,
        mask: &[Option<u32>],
    ) -> R<BasicValueEnum<'ctx>> {
        let i32t = self.cx.i32_type();
        let m: Vec<BasicValueEnum<'ctx>> = mask
            .iter()
            .map(|x| match x {
                Some(i) => i32t.const_int(*i as u64, false).into(),
                None => i32t.get_poison().into(),
            })
            .collect();
        let mask = VectorType::const_vector(&m);
        Ok(self.b.build_shuffle_vector(a.into_vector_value(), b.into_vector_value(), mask, "")?.into())
    }

    pub fn ptr_to_int(&self, p: PointerValue<'ctx>) -> R<IntValue<'ctx>> {
        Ok(self.b.build_ptr_to_int(p, self.i64t(), "")?)
    }

    pub fn int_to_ptr(&self, i: IntValue<'ctx>) -> R<PointerValue<'ctx>> {
        Ok(self.b.build_int_to_ptr(i, self.ptrt(), "")?)
    }
}

fn float_bits(cx: ContextRef<'_>, t: inkwell::types::FloatType<'_>) -> u32 {
    if t == cx.f64_type() {
        64
    } else if t == cx.f32_type() {
        32
    } else {
        16
    }
}

/// A context struct on the stack: an array of i64 slots (pointers stored as
/// integers) that task functions read back.
pub(crate) struct Slots<'ctx> {
    pub ptr: PointerValue<'ctx>,
    pub n: u32,
}

impl<'ctx> Slots<'ctx> {
    pub fn alloc(ir: &Ir<'_, 'ctx>, n: u32) -> R<Slots<'ctx>> {
        let ptr = ir.alloca(ir.i64t().array_type(n).as_basic_type_enum())?;
        Ok(Slots { ptr, n })
    }

    pub fn at(ptr: PointerValue<'ctx>, n: u32) -> Slots<'ctx> {
        Slots { ptr, n }
    }

    fn slot(&self, ir: &Ir<'_, 'ctx>, i: u32) -> R<PointerValue<'ctx>> {
        debug_assert!(i < self.n);
        ir.gep(ir.i64t().into(), self.ptr, ir.c(i as i64))
    }

    pub fn set(&self, ir: &Ir<'_, 'ctx>, i: u32, v: IntValue<'ctx>) -> R<()> {
        ir.store(self.slot(ir, i)?, v.into(), 8)
    }

    pub fn set_ptr(&self, ir: &Ir<'_, 'ctx>, i: u32, p: PointerValue<'ctx>) -> R<()> {
        let v = ir.ptr_to_int(p)?;
        self.set(ir, i, v)
    }

    pub fn get(&self, ir: &Ir<'_, 'ctx>, i: u32) -> R<IntValue<'ctx>> {
        Ok(ir.load(ir.i64t().into(), self.slot(ir, i)?, 8)?.into_int_value())
    }

    pub fn get_ptr(&self, ir: &Ir<'_, 'ctx>, i: u32) -> R<PointerValue<'ctx>> {
        let v = self.get(ir, i)?;
        ir.int_to_ptr(v)
    }
}

/// The type of task functions: `void (ptr ctx, i64 begin, i64 end)`.
pub(crate) fn task_type<'ctx>(cx: ContextRef<'ctx>) -> FunctionType<'ctx> {
    let p = cx.ptr_type(AddressSpace::default());
    cx.void_type().fn_type(&[p.into(), cx.i64_type().into(), cx.i64_type().into()], false)
}

/// Adds an internal task function `name` (of [`task_type`]) shaped for `isa`.
pub(crate) fn task_function<'ctx>(
    module: &Module<'ctx>,
    target: &TargetMachine,
    isa: Isa,
    name: &str,
) -> FunctionValue<'ctx> {
    let cx = module.get_context();
    let f = module.add_function(name, task_type(cx), Some(Linkage::Internal));
    set_target_attrs(cx, f, target, isa);
    f
}

/// Starts the body of task function `f`: its builder, its context of `slots`
/// slots and its range `lo..hi`.
pub(crate) fn task_entry<'a, 'ctx>(
    module: &'a Module<'ctx>,
    f: FunctionValue<'ctx>,
    slots: u32,
) -> (Ir<'a, 'ctx>, Slots<'ctx>, IntValue<'ctx>, IntValue<'ctx>) {
    let ir = Ir::new(module, f);
    let s = Slots::at(ir.param_ptr(0), slots);
    let (lo, hi) = (ir.param_int(1), ir.param_int(2));
    (ir, s, lo, hi)
}

/// The type of epilogue callbacks: `void (ptr ctx, i64 b, i64 i0, i64 i1, i64 j0, i64 j1)`.
pub(crate) fn epilogue_type<'ctx>(cx: ContextRef<'ctx>) -> FunctionType<'ctx> {
    let p = cx.ptr_type(AddressSpace::default());
    let i = cx.i64_type();
    cx.void_type().fn_type(&[p.into(), i.into(), i.into(), i.into(), i.into(), i.into()], false)
}

/// `declare void @smelt_parallel_for(ptr task, ptr ctx, i64 n, i64 grain)`.
pub(crate) fn parallel_for<'ctx>(module: &Module<'ctx>) -> FunctionValue<'ctx> {
    let cx = module.get_context();
    let p = cx.ptr_type(AddressSpace::default());
    let i = cx.i64_type();
    let ty = cx.void_type().fn_type(&[p.into(), p.into(), i.into(), i.into()], false);
    declare(module, "smelt_parallel_for", ty)
}

/// Multiply-adds below which a routine runs its tasks on the calling thread: a
/// fork-join costs microseconds, more than such work takes.
pub(crate) const INLINE_WORK: i64 = 1 << 16;

/// Runs `task(ctx, begin, end)` over `[0, n)`: through `smelt_parallel_for`, or in
/// one call on the calling thread when `inline` (an i1) holds.
pub(crate) fn run_tasks<'ctx>(
    ir: &Ir<'_, 'ctx>,
    task: FunctionValue<'ctx>,
    ctx: PointerValue<'ctx>,
    n: IntValue<'ctx>,
    grain: IntValue<'ctx>,
    inline: IntValue<'ctx>,
) -> R<()> {
    ir.if_else(
        inline,
        || {
            ir.call(task, &[ctx.into(), ir.c(0).into(), n.into()])?;
            Ok(())
        },
        || {
            let fp = task.as_global_value().as_pointer_value();
            ir.call(parallel_for(ir.module), &[fp.into(), ctx.into(), n.into(), grain.into()])?;
            Ok(())
        },
    )
}

/// Calls `epilogue(ctx, b, i0, i1, j0, j1)` when `epilogue` is not null.
pub(crate) fn call_epilogue<'ctx>(
    ir: &Ir<'_, 'ctx>,
    epi: PointerValue<'ctx>,
    ectx: PointerValue<'ctx>,
    args: [IntValue<'ctx>; 5],
) -> R<()> {
    let present = ir.b.build_is_not_null(epi, "")?;
    ir.if_(present, || {
        let ty = epilogue_type(ir.cx);
        let a: Vec<BasicMetadataValueEnum<'ctx>> =
            std::iter::once(ectx.into()).chain(args.iter().map(|&x| x.into())).collect();
        ir.b.build_indirect_call(ty, epi, &a, "")?;
        Ok(())
    })
}

/// The integer type of `bits` (8, 16, 32 or 64).
pub(crate) fn int_ty<'ctx>(cx: ContextRef<'ctx>, bits: u32) -> inkwell::types::IntType<'ctx> {
    match bits {
        8 => cx.i8_type(),
        16 => cx.i16_type(),
        32 => cx.i32_type(),
        _ => cx.i64_type(),
    }
}
