//! Code generation: a kernel-form [`Program`] rendered as one LLVM module.
//!
//! [`Cg`] holds the LLVM context, module and builder, and the small machinery
//! every emitter shares: element types in registers and in memory, functions
//! with an entry block for allocas, counted loops, element loads and stores.
//! The emitters live in submodules:
//!
//! - `scalar`: every unary, binary, compare, convert and bitcast operation with
//!   the interpreter's exact semantics (NaN rules, f16/bf16 computed in f32 and
//!   rounded after every operation; integer edge cases arrive legalized);
//! - `graph`: expression graphs (loads through index arithmetic, inline
//!   reductions, scalar functions such as reducers and comparators);
//! - `launch`: where each kernel runs (launch shapes, the cost model, loop
//!   levels, reduction and scan task geometry), read by the emitters below;
//! - `kernels`: the loop nest of each kernel kind, one function per kernel and
//!   buffer-aliasing pattern (`kernel_N(ptr bufs, i64 begin, i64 end)`);
//! - `reduce`, `scan`, `sort`, `rng`: the reduction, scan, sort and random-bit
//!   kernels.
//!
//! The CPU backend's step driver (`smelt_cpu`'s `driver.rs`) and the GPU
//! backend's launch strategies put these bodies into their functions.
//!
//! Before anything is emitted, [`check_sizes`] rejects negative or absurd
//! sizes, and emission checks every value's type where it is used, so a
//! malformed program is a [`LlvmError::InvalidProgram`], never a panic.

mod graph;
mod kernels;
mod launch;
mod reduce;
mod rng;
mod scalar;
mod scan;
mod sort;

use std::collections::HashMap;

use inkwell::attributes::{Attribute, AttributeLoc};
use inkwell::basic_block::BasicBlock;
use inkwell::builder::Builder;
use inkwell::context::Context;
use inkwell::intrinsics::Intrinsic;
use inkwell::module::{Linkage, Module};
use inkwell::targets::TargetMachine;
use inkwell::types::{BasicMetadataTypeEnum, BasicType, BasicTypeEnum, FloatType, IntType, PointerType, VoidType};
use inkwell::values::{
    BasicMetadataValueEnum, BasicValue, BasicValueEnum, FunctionValue, IntValue, PhiValue, PointerValue,
};
use inkwell::{AddressSpace, IntPredicate};
use smelt_hlo::DType;
use smelt_kernel::Program;

use crate::error::{LlvmError, Result};

pub use graph::{Env, Io, Task, as_int};
pub use kernels::{Slot, param};
pub use launch::{LaunchShape, launch_shape, loop_is_flat, node_levels, par_dim, par_extent};

/// Target attributes stamped on every function so the optimizer's cost models
/// and instruction selection see the same CPU.
#[derive(Clone, Debug, Default)]
pub struct TargetAttrs {
    pub cpu: String,
    pub features: String,
    /// Whether kernel launches may go through `smelt_parallel_for`.
    pub parallel: bool,
    /// Whether to time every step (see `run`).
    pub profile: bool,
    /// The widest vectors the target has, in bits: what loops are vectorized
    /// with. LLVM's default for some CPUs is narrower (256 bits on Intel's
    /// AVX-512 server parts); on an Intel Xeon with AVX-512 the full width
    /// made the corpus's kernels 7% faster in geomean (transcendental chains
    /// 1.3-1.6x, memory-bound ones within 5%; docs/benchmarks.md). 0 leaves
    /// LLVM's choice.
    pub vector_bits: u32,
    /// What the math library may use in one instruction: FMA (the Cranelift
    /// tier decides the same way for the host, so both tiers compute the same
    /// bits) and `vscalef` (the same bits either way).
    pub math: crate::math::MathTarget,
}

/// LLVM types of the element types and a few others.
#[derive(Clone, Copy)]
pub struct Types<'ctx> {
    pub void: VoidType<'ctx>,
    pub i1: IntType<'ctx>,
    pub i8: IntType<'ctx>,
    pub i16: IntType<'ctx>,
    pub i32: IntType<'ctx>,
    pub i64: IntType<'ctx>,
    pub f16: FloatType<'ctx>,
    pub f32: FloatType<'ctx>,
    pub f64: FloatType<'ctx>,
    pub ptr: PointerType<'ctx>,
}

/// One function under construction: allocas go to its first block, which falls
/// through to the code once the function is finished.
struct FnState<'ctx> {
    func: FunctionValue<'ctx>,
    allocas: BasicBlock<'ctx>,
    start: BasicBlock<'ctx>,
    alloca_builder: Builder<'ctx>,
    /// Where the main builder was before this function began.
    resume: Option<BasicBlock<'ctx>>,
    /// Counted loops open at the builder (see [`Cg::outside_vector_loops`]).
    loop_depth: std::cell::Cell<u32>,
    /// Whether code outside this function's own loops runs outside any
    /// counted loop too (kernel bodies and `smelt_run`; not helpers, which are
    /// inlined anywhere).
    straight_line: bool,
}

/// A counted loop being emitted (see [`Cg::loop_begin`]).
pub struct Loop<'ctx> {
    header: BasicBlock<'ctx>,
    exit: BasicBlock<'ctx>,
    phi: PhiValue<'ctx>,
    step: IntValue<'ctx>,
    pub index: IntValue<'ctx>,
    /// Whether it counts as a loop the vectorizer may widen.
    counted: bool,
    /// [`Cg::math_calls`] when the loop began.
    math_before: usize,
}

/// What [`Cg::loop_hints`] tells LLVM about a loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LoopHint {
    NoVectorize,
    NoUnroll,
    NoInterleave,
    FoldTail,
}

/// A while loop being emitted (see [`Cg::while_begin`]).
pub struct While<'ctx> {
    header: BasicBlock<'ctx>,
    exit: BasicBlock<'ctx>,
}

pub struct Cg<'ctx, 'p> {
    pub cx: &'ctx Context,
    pub module: Module<'ctx>,
    pub b: Builder<'ctx>,
    pub t: Types<'ctx>,
    pub program: &'p Program,
    pub target: TargetAttrs,
    /// The machine the code is for (the GEMM and convolution generators size
    /// their tiles by its vector width).
    pub tm: &'p TargetMachine,
    /// Whether `tm` is an x86 machine (float max/min are emitted from its
    /// `maxss`-style compares and selects; see `scalar.rs`).
    pub x86: bool,
    /// Whether the target has AVX512DQ's `vrange`: one instruction for a max
    /// or min with `-0 < +0` (see `scalar.rs`).
    pub x86_range: bool,
    fns: Vec<FnState<'ctx>>,
    /// Helper functions by name (rounding helpers, generators, ...).
    helpers: HashMap<String, FunctionValue<'ctx>>,
    /// Kernel bodies by kernel and buffer-aliasing pattern, with the name of
    /// their entry point.
    bodies: HashMap<(u32, Vec<Slot>), (String, FunctionValue<'ctx>)>,
    /// Kernel entry points (`void(ptr bufs, i64 begin, i64 end)`), the same way.
    variants: HashMap<(u32, Vec<Slot>), FunctionValue<'ctx>>,
    /// Per kernel, the first kernel identical to it but for the name: kernels
    /// share functions by it, so the layers of an unrolled network, lowered to
    /// the same kernels, are generated and optimized once.
    canonical: Vec<u32>,
    /// Entry-point names by canonical kernel and slots, in request order
    /// (`kernel_N`, then `kernel_N_1`, ... for more aliasing patterns).
    names: HashMap<(u32, Vec<Slot>), String>,
    /// Per canonical kernel: whether its entry points are defined in another
    /// module (parallel code generation, [`Cg::remote_entries`]); this module
    /// only declares them. Empty: every kernel is defined here.
    pub remote: Vec<bool>,
    /// The entry points declared for another module to define: kernel, slots
    /// and name, in the order requested.
    pub remote_entries: Vec<(smelt_kernel::KernelId, Vec<Slot>, String)>,
    /// Math-library calls emitted so far: a counted loop whose body made one
    /// is not interleaved (see [`Cg::loop_end`]).
    math_calls: std::cell::Cell<usize>,
    /// Kernels the CPU backend's tile interpreter runs, by canonical kernel:
    /// their bodies only call it ([`TileStub`]).
    pub tiles: HashMap<u32, TileStub>,
}

/// A kernel run by the CPU backend's tile interpreter: its body calls
/// `smelt_tile_run(ptr code, i64 words, ptr fns, ptr bufs, i64 begin, i64
/// end)` with `code` (a constant of the module) and a table of the library
/// functions `fns` names.
#[derive(Clone, Debug, PartialEq)]
pub struct TileStub {
    pub code: Vec<i64>,
    pub fns: Vec<String>,
}

/// The interpreter's symbol ([`TileStub`]).
pub const TILE_RUN_SYMBOL: &str = "smelt_tile_run";

/// [`Cg::canonical`] for `program`: kernels keyed by their buffer types and
/// body (everything the generated code depends on), not their names.
fn canonical_kernels(program: &Program) -> Vec<u32> {
    let mut first: HashMap<String, u32> = HashMap::new();
    let mut canonical = Vec::with_capacity(program.kernels.len());
    for (i, k) in program.kernels.iter().enumerate() {
        canonical.push(*first.entry(kernel_key(k)).or_insert(i as u32));
    }
    canonical
}

/// What a kernel's generated code depends on. A sort whose comparator
/// compares operand 0 alone (`FnPattern::LessThan`) moves its other operands
/// as bits, by a permutation: its code depends on their widths, not their
/// types, so an argsort's index payload and a value payload of the same key
/// type share one function (`sort_argsort`: its s32 and f32 payloads).
fn kernel_key(k: &smelt_kernel::Kernel) -> String {
    if let smelt_kernel::KernelBody::Sort { dims, dimension, stable, comparator } = &k.body
        && let Some(pattern @ smelt_kernel::FnPattern::LessThan { .. }) = &comparator.pattern
    {
        let as_bits = |types: &[smelt_kernel::ArrayType]| -> Vec<String> {
            types
                .iter()
                .enumerate()
                .map(|(j, t)| match (j, t.dtype.byte_size()) {
                    (0, _) => format!("{}{:?}", t.dtype, t.dims),
                    (_, n @ (1 | 2 | 4 | 8)) => format!("b{n}{:?}", t.dims),
                    _ => format!("{}{:?}", t.dtype, t.dims),
                })
                .collect()
        };
        return format!(
            "sort|{:?}|{:?}|{dims:?}|{dimension}|{stable}|{pattern:?}",
            as_bits(&k.inputs),
            as_bits(&k.outputs)
        );
    }
    format!("{:?}|{:?}|{:?}", k.inputs, k.outputs, k.body)
}

impl<'ctx, 'p> Cg<'ctx, 'p> {
    /// An emitter for `program` on the machine `tm` (the CPU's, or NVPTX for
    /// smelt-gpu, which renders kernel bodies with the same code).
    pub fn new(cx: &'ctx Context, program: &'p Program, target: &TargetAttrs, tm: &'p TargetMachine) -> Self {
        let module = cx.create_module(&program.name);
        let t = Types {
            void: cx.void_type(),
            i1: cx.bool_type(),
            i8: cx.i8_type(),
            i16: cx.i16_type(),
            i32: cx.i32_type(),
            i64: cx.i64_type(),
            f16: cx.f16_type(),
            f32: cx.f32_type(),
            f64: cx.f64_type(),
            ptr: cx.ptr_type(AddressSpace::default()),
        };
        Cg {
            cx,
            module,
            b: cx.create_builder(),
            t,
            program,
            target: target.clone(),
            x86: tm.get_triple().as_str().to_string_lossy().starts_with("x86"),
            x86_range: tm.get_triple().as_str().to_string_lossy().starts_with("x86")
                && target.features.split(',').any(|f| f == "+avx512dq"),
            tm,
            fns: Vec::new(),
            helpers: HashMap::new(),
            math_calls: std::cell::Cell::new(0),
            bodies: HashMap::new(),
            variants: HashMap::new(),
            canonical: canonical_kernels(program),
            names: HashMap::new(),
            remote: Vec::new(),
            remote_entries: Vec::new(),
            tiles: HashMap::new(),
        }
    }

    /// The kernel functions named so far: canonical kernel and entry-point
    /// name (its body is `NAME.body`).
    pub fn kernel_functions(&self) -> Vec<(u32, String)> {
        self.names.iter().map(|((kid, _), name)| (*kid, name.clone())).collect()
    }

    /// The entry-point name of canonical kernel `kid` with `slots`.
    pub(crate) fn entry_name(&mut self, kid: u32, slots: &[Slot]) -> String {
        let key = (kid, slots.to_vec());
        if let Some(n) = self.names.get(&key) {
            return n.clone();
        }
        let taken = self.names.keys().filter(|(id, _)| *id == kid).count();
        let name = if taken == 0 { format!("kernel_{kid}") } else { format!("kernel_{kid}_{taken}") };
        self.names.insert(key, name.clone());
        name
    }

    /// Defines the entry point `name` of kernel `kid` with `slots` (a module of
    /// kernels that another module's `remote_entries` declared).
    pub fn define_entry(&mut self, kid: smelt_kernel::KernelId, slots: Vec<Slot>, name: &str) -> Result<()> {
        let kid = self.canonical_kernel(kid);
        self.names.insert((kid.0, slots.clone()), name.to_string());
        self.kernel_fn(kid, slots).map(drop)
    }

    /// The kernel whose functions kernel `kid` uses ([`Cg::canonical`]).
    pub fn canonical_kernel(&self, kid: smelt_kernel::KernelId) -> smelt_kernel::KernelId {
        smelt_kernel::KernelId(self.canonical.get(kid.0 as usize).copied().unwrap_or(kid.0))
    }

    // ---- types ----

    /// The type a value of `d` has in registers (pred is `i1`, bf16 its `i16` bits).
    pub fn reg_type(&self, d: DType) -> BasicTypeEnum<'ctx> {
        let t = &self.t;
        match d {
            DType::Pred => t.i1.into(),
            DType::S8 | DType::U8 => t.i8.into(),
            DType::S16 | DType::U16 | DType::Bf16 => t.i16.into(),
            DType::S32 | DType::U32 => t.i32.into(),
            DType::S64 | DType::U64 => t.i64.into(),
            DType::F16 => t.f16.into(),
            DType::F32 => t.f32.into(),
            DType::F64 => t.f64.into(),
            // The kernel verifier refuses complex types (they are lowered to their
            // parts first, `smelt_hlo::complex`): a part's type stands in.
            DType::C64 => t.f32.into(),
            DType::C128 => t.f64.into(),
        }
    }

    /// The type of one element in memory (pred is one byte).
    pub fn mem_type(&self, d: DType) -> BasicTypeEnum<'ctx> {
        match d {
            DType::Pred => self.t.i8.into(),
            _ => self.reg_type(d),
        }
    }

    /// The integer type of `d`'s width (pred: i8).
    pub fn int_type_of(&self, d: DType) -> IntType<'ctx> {
        match d.byte_size() {
            1 => self.t.i8,
            2 => self.t.i16,
            4 => self.t.i32,
            _ => self.t.i64,
        }
    }

    pub fn i64c(&self, v: i64) -> IntValue<'ctx> {
        self.t.i64.const_int(v as u64, true)
    }

    // ---- functions ----

    /// Adds the attributes every function gets (target, no unwinding).
    pub fn stamp(&self, f: FunctionValue<'ctx>) {
        let cx = self.cx;
        if !self.target.cpu.is_empty() {
            f.add_attribute(AttributeLoc::Function, cx.create_string_attribute("target-cpu", &self.target.cpu));
        }
        if !self.target.features.is_empty() {
            f.add_attribute(
                AttributeLoc::Function,
                cx.create_string_attribute("target-features", &self.target.features),
            );
        }
        if self.target.vector_bits > 0 {
            let bits = self.target.vector_bits.to_string();
            f.add_attribute(AttributeLoc::Function, cx.create_string_attribute("prefer-vector-width", &bits));
        }
        f.add_attribute(AttributeLoc::Function, self.enum_attr("nounwind", 0));
    }

    pub fn enum_attr(&self, name: &str, value: u64) -> Attribute {
        self.cx.create_enum_attribute(Attribute::get_named_enum_kind_id(name), value)
    }

    /// An internal function that is always inlined.
    pub fn internal_inline(&self, f: FunctionValue<'ctx>) {
        f.set_linkage(Linkage::Internal);
        f.add_attribute(AttributeLoc::Function, self.enum_attr("alwaysinline", 0));
    }

    /// Starts emitting the body of `f`; the builder moves into it.
    pub fn begin_fn(&mut self, f: FunctionValue<'ctx>) {
        let allocas = self.cx.append_basic_block(f, "allocas");
        let start = self.cx.append_basic_block(f, "start");
        let alloca_builder = self.cx.create_builder();
        alloca_builder.position_at_end(allocas);
        let resume = self.b.get_insert_block();
        self.b.position_at_end(start);
        self.fns.push(FnState {
            func: f,
            allocas,
            start,
            alloca_builder,
            resume,
            loop_depth: std::cell::Cell::new(0),
            straight_line: false,
        });
    }

    /// Declares that the function being emitted runs only where no counted
    /// loop encloses it (a kernel body, `smelt_run`): code it emits outside
    /// its own loops may then use instructions the loop vectorizer cannot
    /// widen.
    pub fn mark_straight_line(&mut self) {
        if let Some(s) = self.fns.last_mut() {
            s.straight_line = true;
        }
    }

    /// Whether the builder is outside every counted loop, in a function that
    /// runs outside them too: what it emits now is never loop-vectorized, so
    /// target instructions that have no vector form in LLVM's loop vectorizer
    /// cost nothing there.
    pub fn outside_vector_loops(&self) -> bool {
        self.fns.last().is_some_and(|s| s.straight_line && s.loop_depth.get() == 0)
    }

    /// Finishes the current function (the builder must have terminated its last
    /// block) and returns to where the builder was before.
    pub fn end_fn(&mut self) -> Result<()> {
        let Some(s) = self.fns.pop() else {
            return Err(LlvmError::Llvm("end_fn without begin_fn".into()));
        };
        s.alloca_builder.position_at_end(s.allocas);
        s.alloca_builder.build_unconditional_branch(s.start)?;
        match s.resume {
            Some(bb) => self.b.position_at_end(bb),
            None => self.b.clear_insertion_position(),
        }
        Ok(())
    }

    pub fn cur_fn(&self) -> Result<FunctionValue<'ctx>> {
        self.fns.last().map(|s| s.func).ok_or_else(|| LlvmError::Llvm("no function under construction".into()))
    }

    /// A new block in the current function.
    pub fn block(&self, name: &str) -> Result<BasicBlock<'ctx>> {
        Ok(self.cx.append_basic_block(self.cur_fn()?, name))
    }

    /// A stack slot in the current function's entry block.
    pub fn alloca(&self, ty: impl BasicType<'ctx>, name: &str) -> Result<PointerValue<'ctx>> {
        let s = self.fns.last().ok_or_else(|| LlvmError::Llvm("alloca outside a function".into()))?;
        Ok(s.alloca_builder.build_alloca(ty, name)?)
    }

    /// A stack array of `n` elements in the entry block.
    pub fn alloca_array(&self, ty: impl BasicType<'ctx>, n: u32, name: &str) -> Result<PointerValue<'ctx>> {
        self.alloca(ty.array_type(n.max(1)), name)
    }

    /// A declared (or already defined) function named `name`.
    pub fn function(
        &self,
        name: &str,
        ret: Option<BasicTypeEnum<'ctx>>,
        params: &[BasicMetadataTypeEnum<'ctx>],
    ) -> FunctionValue<'ctx> {
        if let Some(f) = self.module.get_function(name) {
            return f;
        }
        let ty = match ret {
            Some(r) => r.fn_type(params, false),
            None => self.t.void.fn_type(params, false),
        };
        self.module.add_function(name, ty, None)
    }

    pub fn helper(&self, name: &str) -> Option<FunctionValue<'ctx>> {
        self.helpers.get(name).copied()
    }

    pub fn set_helper(&mut self, name: &str, f: FunctionValue<'ctx>) {
        self.helpers.insert(name.to_string(), f);
    }

    /// Calls `f` and returns its result (None for void functions).
    pub fn call(
        &self,
        f: FunctionValue<'ctx>,
        args: &[BasicMetadataValueEnum<'ctx>],
    ) -> Result<Option<BasicValueEnum<'ctx>>> {
        let c = self.b.build_call(f, args, "")?;
        Ok(match c.try_as_basic_value() {
            inkwell::values::ValueKind::Basic(v) => Some(v),
            inkwell::values::ValueKind::Instruction(_) => None,
        })
    }

    /// Calls the LLVM intrinsic `name` overloaded on `types`.
    pub fn intrinsic(
        &self,
        name: &str,
        types: &[BasicTypeEnum<'ctx>],
        args: &[BasicMetadataValueEnum<'ctx>],
    ) -> Result<BasicValueEnum<'ctx>> {
        let i = Intrinsic::find(name).ok_or_else(|| LlvmError::Llvm(format!("no intrinsic {name}")))?;
        let f =
            i.get_declaration(&self.module, types).ok_or_else(|| LlvmError::Llvm(format!("bad intrinsic {name}")))?;
        self.call(f, args)?.ok_or_else(|| LlvmError::Llvm(format!("intrinsic {name} returns nothing")))
    }

    // ---- loops ----

    /// Opens `for (i = lo; i < hi; i += step)`; the builder moves into the body.
    /// Close it with [`Cg::loop_end`].
    pub fn loop_begin(&self, lo: IntValue<'ctx>, hi: IntValue<'ctx>, step: i64, name: &str) -> Result<Loop<'ctx>> {
        let pre = self.b.get_insert_block().ok_or_else(|| LlvmError::Llvm("loop outside a block".into()))?;
        let header = self.block(&format!("{name}.head"))?;
        let body = self.block(&format!("{name}.body"))?;
        let exit = self.block(&format!("{name}.exit"))?;
        self.b.build_unconditional_branch(header)?;
        self.b.position_at_end(header);
        let phi = self.b.build_phi(self.t.i64, name)?;
        phi.add_incoming(&[(&lo, pre)]);
        let index = phi.as_basic_value().into_int_value();
        let more = self.b.build_int_compare(IntPredicate::SLT, index, hi, "")?;
        self.b.build_conditional_branch(more, body, exit)?;
        self.b.position_at_end(body);
        if let Some(s) = self.fns.last() {
            s.loop_depth.set(s.loop_depth.get() + 1);
        }
        Ok(Loop { header, exit, phi, step: self.i64c(step), index, counted: true, math_before: self.math_calls.get() })
    }

    /// Like [`Cg::loop_begin`] for a range of at most one iteration (the
    /// parallel range of a kernel with one output element): nothing in it is
    /// vectorized, see [`Cg::outside_vector_loops`].
    pub fn loop_begin_once(&self, lo: IntValue<'ctx>, hi: IntValue<'ctx>, name: &str) -> Result<Loop<'ctx>> {
        let mut l = self.loop_begin(lo, hi, 1, name)?;
        if let Some(s) = self.fns.last() {
            s.loop_depth.set(s.loop_depth.get().saturating_sub(1));
        }
        l.counted = false;
        Ok(l)
    }

    /// Closes a loop opened with [`Cg::loop_begin`]; the builder moves past it.
    ///
    /// A counted loop whose body calls the math library (exp, log, tanh, ...)
    /// is vectorized but not interleaved: one vector iteration of such a body
    /// is already dozens of independent instructions, so copies buy no
    /// parallelism, while LLVM would interleave it whenever it carries a
    /// reduction (a softmax's sum of exponentials), copying every
    /// polynomial four times for its optimizer and code generator.
    /// Interleaving no loop at all (`loop-vectorize<interleave-forced-only>`)
    /// cut compile time by 12% over the 66 corpus and unseen programs (AMD
    /// EPYC, Zen 2) but slowed plain sums up to 10%; this keeps them.
    /// Nor is such a loop unrolled: with 16-lane vectors a row of 256 takes
    /// 16 vector iterations, which LLVM's unroller (after the vectorizer)
    /// halves by copying the body, polynomials and all.
    pub fn loop_end(&self, l: Loop<'ctx>) -> Result<()> {
        let heavy = l.counted && self.math_calls.get() > l.math_before;
        let latch = self.close_loop(l)?;
        if heavy {
            self.loop_hints(latch, &[LoopHint::NoInterleave, LoopHint::NoUnroll]);
        }
        Ok(())
    }

    /// Like [`Cg::loop_end`], and asks LLVM to vectorize the loop with its
    /// last iterations masked rather than left to scalar code (for short
    /// rows: 14 elements are one masked 16-lane iteration instead of eight
    /// lanes and six scalar iterations).
    pub fn loop_end_fold_tail(&self, l: Loop<'ctx>) -> Result<()> {
        let heavy = l.counted && self.math_calls.get() > l.math_before;
        let latch = self.close_loop(l)?;
        if heavy {
            self.loop_hints(latch, &[LoopHint::FoldTail, LoopHint::NoInterleave, LoopHint::NoUnroll]);
        } else {
            self.loop_hints(latch, &[LoopHint::FoldTail]);
        }
        Ok(())
    }

    /// Like [`Cg::loop_end`], and tells LLVM not to interleave the loop
    /// (vector iterations one at a time).
    pub fn loop_end_single(&self, l: Loop<'ctx>) -> Result<()> {
        let latch = self.close_loop(l)?;
        self.loop_hints(latch, &[LoopHint::NoInterleave]);
        Ok(())
    }

    /// Like [`Cg::loop_end`], and tells LLVM not to vectorize the loop (for
    /// loops whose vector form would gather or scatter at a large stride).
    pub fn loop_end_scalar(&self, l: Loop<'ctx>) -> Result<()> {
        let latch = self.close_loop(l)?;
        self.loop_hints(latch, &[LoopHint::NoVectorize]);
        Ok(())
    }

    /// Like [`Cg::loop_end`], and tells LLVM to leave the loop as written:
    /// neither vectorized nor unrolled (a sort's serial loops).
    pub fn loop_end_plain(&self, l: Loop<'ctx>) -> Result<()> {
        let latch = self.close_loop(l)?;
        self.loop_hints(latch, &[LoopHint::NoVectorize, LoopHint::NoUnroll]);
        Ok(())
    }

    /// Like [`Cg::while_end`], and tells LLVM to leave the loop as written:
    /// neither vectorized nor unrolled (a sort's merge passes, whose count
    /// LLVM can work out for a short sort and then copies the whole merge
    /// per pass).
    pub fn while_end_plain(&self, w: While<'ctx>) -> Result<()> {
        let latch = self.b.build_unconditional_branch(w.header)?;
        self.b.position_at_end(w.exit);
        self.loop_hints(latch, &[LoopHint::NoVectorize, LoopHint::NoUnroll]);
        Ok(())
    }

    /// Attaches `hints` to the loop whose latch branch is `latch`.
    fn loop_hints(&self, latch: inkwell::values::InstructionValue<'ctx>, hints: &[LoopHint]) {
        // SAFETY: plain LLVM C API calls on this module's context; the
        // temporary node is consumed by the replacement, which makes the loop
        // ID refer to itself as LLVM requires.
        unsafe {
            use inkwell::context::AsContextRef;
            use inkwell::values::AsValueRef;
            use llvm_sys::core::*;
            use llvm_sys::debuginfo::{LLVMMetadataReplaceAllUsesWith, LLVMTemporaryMDNode};
            let cx = self.cx.as_ctx_ref();
            let string = |name: &str| LLVMMDStringInContext2(cx, name.as_ptr().cast(), name.len());
            let tmp = LLVMTemporaryMDNode(cx, std::ptr::null_mut(), 0);
            let mut items = vec![tmp];
            for hint in hints {
                let mut node = match hint {
                    LoopHint::NoVectorize => vec![
                        string("llvm.loop.vectorize.enable"),
                        LLVMValueAsMetadata(LLVMConstInt(LLVMInt1TypeInContext(cx), 0, 0)),
                    ],
                    LoopHint::NoUnroll => vec![string("llvm.loop.unroll.disable")],
                    LoopHint::FoldTail => vec![
                        string("llvm.loop.vectorize.predicate.enable"),
                        LLVMValueAsMetadata(LLVMConstInt(LLVMInt1TypeInContext(cx), 1, 0)),
                    ],
                    LoopHint::NoInterleave => vec![
                        string("llvm.loop.interleave.count"),
                        LLVMValueAsMetadata(LLVMConstInt(LLVMInt32TypeInContext(cx), 1, 0)),
                    ],
                };
                items.push(LLVMMDNodeInContext2(cx, node.as_mut_ptr(), node.len()));
            }
            let id = LLVMMDNodeInContext2(cx, items.as_mut_ptr(), items.len());
            LLVMMetadataReplaceAllUsesWith(tmp, id);
            let kind = LLVMGetMDKindIDInContext(cx, c"llvm.loop".as_ptr(), 9);
            LLVMSetMetadata(latch.as_value_ref(), kind, LLVMMetadataAsValue(cx, id));
        }
    }

    /// Closes a loop; returns its latch branch.
    fn close_loop(&self, l: Loop<'ctx>) -> Result<inkwell::values::InstructionValue<'ctx>> {
        let cur = self.b.get_insert_block().ok_or_else(|| LlvmError::Llvm("loop end outside a block".into()))?;
        let next = self.b.build_int_nsw_add(l.index, l.step, "")?;
        let latch = self.b.build_unconditional_branch(l.header)?;
        l.phi.add_incoming(&[(&next, cur)]);
        self.b.position_at_end(l.exit);
        if let Some(s) = self.fns.last().filter(|_| l.counted) {
            s.loop_depth.set(s.loop_depth.get().saturating_sub(1));
        }
        Ok(latch)
    }

    /// Opens `for (i = lo; i < hi; i += step)` with a step known only at run time.
    pub fn loop_begin_dyn(
        &self,
        lo: IntValue<'ctx>,
        hi: IntValue<'ctx>,
        step: IntValue<'ctx>,
        name: &str,
    ) -> Result<Loop<'ctx>> {
        let mut l = self.loop_begin(lo, hi, 1, name)?;
        l.step = step;
        Ok(l)
    }

    /// Opens `while (cond) { ... }`: the builder moves into the header, where the
    /// caller computes the condition and calls [`Cg::while_test`].
    pub fn while_begin(&self, name: &str) -> Result<While<'ctx>> {
        let header = self.block(&format!("{name}.head"))?;
        let exit = self.block(&format!("{name}.exit"))?;
        self.b.build_unconditional_branch(header)?;
        self.b.position_at_end(header);
        Ok(While { header, exit })
    }

    /// Branches on the loop condition; the builder moves into the body.
    pub fn while_test(&self, w: &While<'ctx>, cond: IntValue<'ctx>) -> Result<()> {
        let body = self.block("while.body")?;
        self.b.build_conditional_branch(cond, body, w.exit)?;
        self.b.position_at_end(body);
        Ok(())
    }

    /// Closes the loop body; the builder moves past the loop.
    pub fn while_end(&self, w: While<'ctx>) -> Result<()> {
        self.b.build_unconditional_branch(w.header)?;
        self.b.position_at_end(w.exit);
        Ok(())
    }

    /// `if (cond) { ... }`: returns the join block; the builder moves into the
    /// then-block. Finish with [`Cg::if_end`].
    pub fn if_begin(&self, cond: IntValue<'ctx>, name: &str) -> Result<BasicBlock<'ctx>> {
        let then = self.block(&format!("{name}.then"))?;
        let join = self.block(&format!("{name}.join"))?;
        self.b.build_conditional_branch(cond, then, join)?;
        self.b.position_at_end(then);
        Ok(join)
    }

    pub fn if_end(&self, join: BasicBlock<'ctx>) -> Result<()> {
        self.b.build_unconditional_branch(join)?;
        self.b.position_at_end(join);
        Ok(())
    }

    // ---- memory ----

    /// The address of element `offset` of a `d` array at `base`.
    pub fn elem_ptr(&self, base: PointerValue<'ctx>, d: DType, offset: IntValue<'ctx>) -> Result<PointerValue<'ctx>> {
        // SAFETY: an inbounds GEP is only UB to *use* when out of bounds; the
        // kernel form guarantees in-bounds indices for every load and store.
        Ok(unsafe { self.b.build_in_bounds_gep(self.mem_type(d), base, &[offset], "")? })
    }

    /// Loads element `offset` of a `d` array, as a register value.
    pub fn load_elem(
        &self,
        base: PointerValue<'ctx>,
        d: DType,
        offset: IntValue<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>> {
        let p = self.elem_ptr(base, d, offset)?;
        self.load_at(p, d)
    }

    /// Loads a `d` element at `p`.
    pub fn load_at(&self, p: PointerValue<'ctx>, d: DType) -> Result<BasicValueEnum<'ctx>> {
        let v = self.b.build_load(self.mem_type(d), p, "")?;
        if let Some(i) = v.as_instruction_value() {
            i.set_alignment(d.byte_size() as u32).map_err(|e| LlvmError::Llvm(e.to_string()))?;
        }
        if d == DType::Pred {
            let z = self.t.i8.const_zero();
            return Ok(self.b.build_int_compare(IntPredicate::NE, v.into_int_value(), z, "")?.into());
        }
        Ok(v)
    }

    /// Stores a register value as element `offset` of a `d` array.
    pub fn store_elem(
        &self,
        base: PointerValue<'ctx>,
        d: DType,
        offset: IntValue<'ctx>,
        v: BasicValueEnum<'ctx>,
    ) -> Result<()> {
        let p = self.elem_ptr(base, d, offset)?;
        self.store_at(p, d, v)
    }

    pub fn store_at(&self, p: PointerValue<'ctx>, d: DType, v: BasicValueEnum<'ctx>) -> Result<()> {
        if v.get_type() != self.reg_type(d) {
            return Err(LlvmError::InvalidProgram(format!("a value of LLVM type {} stored as {d}", v.get_type())));
        }
        let v: BasicValueEnum<'ctx> =
            if d == DType::Pred { self.b.build_int_z_extend(v.into_int_value(), self.t.i8, "")?.into() } else { v };
        let s = self.b.build_store(p, v)?;
        s.set_alignment(d.byte_size() as u32).map_err(|e| LlvmError::Llvm(e.to_string()))?;
        Ok(())
    }

    /// `base + bytes`.
    pub fn byte_offset(&self, base: PointerValue<'ctx>, bytes: IntValue<'ctx>) -> Result<PointerValue<'ctx>> {
        // SAFETY: as for `elem_ptr`.
        Ok(unsafe { self.b.build_in_bounds_gep(self.t.i8, base, &[bytes], "")? })
    }

    /// Loads pointer `i` of an array of pointers.
    pub fn load_ptr(&self, array: PointerValue<'ctx>, i: u64) -> Result<PointerValue<'ctx>> {
        // SAFETY: `array` holds at least `i + 1` pointers by construction.
        let p = unsafe { self.b.build_in_bounds_gep(self.t.ptr, array, &[self.t.i64.const_int(i, false)], "")? };
        Ok(self.b.build_load(self.t.ptr, p, "")?.into_pointer_value())
    }

    /// Loads pointer `i` of an array of pointers that nothing writes while
    /// the function runs (`smelt_run`'s parameter and result arrays, filled
    /// by the caller): the load is `!invariant.load`, so LLVM may hoist it
    /// out of loops even past stores to the buffers, and keep a loop's
    /// scalar state in registers instead of reloading its buffer's address
    /// after every store.
    pub fn load_invariant_ptr(&self, array: PointerValue<'ctx>, i: u64) -> Result<PointerValue<'ctx>> {
        let v = self.load_ptr(array, i)?;
        if let Some(load) = v.as_instruction() {
            let kind = self.cx.get_kind_id("invariant.load");
            load.set_metadata(self.cx.metadata_node(&[]), kind).map_err(|e| LlvmError::Llvm(e.to_string()))?;
        }
        Ok(v)
    }

    /// Stores pointer `v` as element `i` of an array of pointers.
    pub fn store_ptr(&self, array: PointerValue<'ctx>, i: u64, v: PointerValue<'ctx>) -> Result<()> {
        // SAFETY: as for `load_ptr`.
        let p = unsafe { self.b.build_in_bounds_gep(self.t.ptr, array, &[self.t.i64.const_int(i, false)], "")? };
        self.b.build_store(p, v)?;
        Ok(())
    }

    /// A private global holding `bytes`, aligned to 64.
    pub fn global_bytes(&self, name: &str, bytes: &[u8]) -> PointerValue<'ctx> {
        let init = self.cx.const_string(bytes, false);
        let g = self.module.add_global(init.get_type(), None, name);
        g.set_initializer(&init);
        g.set_constant(true);
        g.set_linkage(Linkage::Private);
        g.set_unnamed_addr(true);
        g.set_alignment(64);
        g.as_pointer_value()
    }
}

/// The most elements any array or iteration space may have (sizes beyond are
/// errors, so index and byte arithmetic never overflow).
const MAX_ELEMENTS: i64 = 1 << 42;

/// The element count of `dims`, or an error for negative or absurd dimensions.
fn check_dims(dims: &[i64], what: &str) -> Result<i64> {
    let mut n: i64 = 1;
    for &d in dims {
        if d < 0 {
            crate::error::invalid!("{what} has a negative dimension in {dims:?}");
        }
        n = match n.checked_mul(d) {
            Some(n) if n <= MAX_ELEMENTS => n,
            _ => crate::error::invalid!("{what} {dims:?} is too large"),
        };
    }
    Ok(n)
}

fn check_windows(w: &[smelt_kernel::WindowSpec], what: &str) -> Result<()> {
    const BIG: i64 = 1 << 40;
    for s in w {
        let ok = (0..=BIG).contains(&s.size)
            && (1..=BIG).contains(&s.stride)
            && (1..=BIG).contains(&s.window_dilation)
            && (1..=BIG).contains(&s.base_dilation)
            && (-BIG..=BIG).contains(&s.pad_low)
            && (-BIG..=BIG).contains(&s.pad_high);
        if !ok {
            crate::error::invalid!("{what} has a window with a bad size, stride, dilation or padding: {s:?}");
        }
    }
    Ok(())
}

fn check_graph(g: &smelt_kernel::Graph, what: &str) -> Result<()> {
    for n in &g.nodes {
        if let smelt_kernel::Node::Reduce(r) = n {
            check_dims(&r.window, what)?;
            check_graph(&r.body, what)?;
        }
    }
    Ok(())
}

fn check_steps(steps: &[smelt_kernel::Step]) -> Result<()> {
    use smelt_kernel::Step;
    let buf = |r: &smelt_kernel::BufRef| check_dims(&r.ty.dims, "a buffer").map(|_| ());
    for s in steps {
        match s {
            Step::Kernel { inputs, outputs, .. } => inputs.iter().chain(outputs).try_for_each(buf)?,
            Step::Copy { src, dst } => [src, dst].into_iter().try_for_each(buf)?,
            Step::ParallelCopy { moves } => moves.iter().try_for_each(|(a, b)| buf(a).and(buf(b)))?,
            Step::Dot(d) => {
                [&d.lhs, &d.rhs, &d.out].into_iter().try_for_each(buf)?;
                for dims in [[d.batch, d.m, d.k], [d.batch, d.k, d.n], [d.batch, d.m, d.n]] {
                    check_dims(&dims, "a dot")?;
                }
                if let Some((_, bufs)) = &d.epilogue {
                    bufs.iter().try_for_each(buf)?;
                }
            }
            Step::Conv(c) => {
                [&c.input, &c.kernel, &c.out].into_iter().try_for_each(buf)?;
                check_windows(&c.window, "a convolution")?;
                if let Some((_, bufs)) = &c.epilogue {
                    bufs.iter().try_for_each(buf)?;
                }
            }
            Step::CustomCall(c) => c.inputs.iter().chain(&c.outputs).try_for_each(buf)?,
            Step::While { cond, pred, body, update } => {
                check_steps(cond)?;
                buf(pred)?;
                check_steps(body)?;
                update.iter().try_for_each(|(a, b)| buf(a).and(buf(b)))?;
            }
            Step::Conditional { index, branches } => {
                buf(index)?;
                branches.iter().try_for_each(|b| check_steps(b))?;
            }
        }
    }
    Ok(())
}

/// Checks every array type, space and window of `p` before anything computes
/// with their sizes.
pub fn check_sizes(p: &Program) -> Result<()> {
    use smelt_kernel::KernelBody as K;
    for t in p.params.iter().chain(&p.results).chain(p.constants.iter().map(|c| &c.ty)) {
        check_dims(&t.dims, "a program parameter, result or constant")?;
    }
    for k in &p.kernels {
        let what = format!("kernel {}", k.name);
        for t in k.inputs.iter().chain(&k.outputs) {
            check_dims(&t.dims, &what)?;
        }
        match &k.body {
            K::Loop { space, graph, .. } | K::UpdateSlice { space, graph, .. } | K::Scatter { space, graph, .. } => {
                check_dims(space, &what)?;
                check_graph(graph, &what)?;
            }
            K::Reduce { space, graph, .. } | K::Scan { space, graph, .. } => {
                check_dims(space, &what)?;
                check_graph(graph, &what)?;
            }
            K::Sort { dims, .. } => {
                check_dims(dims, &what)?;
            }
            K::SelectAndScatter { window, .. } => check_windows(window, &what)?,
            K::RngBitGenerator { .. } => {}
        }
    }
    check_steps(&p.steps)
}

/// Row-major strides (in elements) of `dims`.
pub use smelt_kernel::row_major_strides as strides;

/// The product of `dims` (0 if any is negative or zero; saturating).
pub fn count(dims: &[i64]) -> i64 {
    dims.iter().fold(1i64, |n, &d| n.saturating_mul(d.max(0)))
}
