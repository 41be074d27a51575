//! PTX code generation: a prepared program's kernels as one NVPTX module.
//!
//! Each launched kernel becomes a `ptx_kernel` entry `smelt_kN(ptr buf0, ...,
//! ptr bufM)` (inputs then outputs) rendering its [`Strategy`], plus
//! `smelt_kN_combine` (split reductions, which also take a scratch pointer)
//! or `smelt_kN_state` (random bits) for a second launch. With
//! [`Flavor::HostSim`] the same entries are generated for the host simulator. Scalar code
//! (every node of every expression graph, reducers, comparators, the math
//! polynomials) comes from the shared LLVM emitter (`smelt_llvm::codegen`),
//! which writes target-neutral LLVM IR; this module adds what is GPU-specific:
//! thread and block indices, grid-stride loops, warp shuffles, shared memory
//! and barriers. The module is optimized at O3 for `sm_XX` and printed as PTX
//! by LLVM's NVPTX back end.

use std::collections::{BTreeSet, HashMap};

use inkwell::attributes::AttributeLoc;
use inkwell::context::Context;
use inkwell::module::Linkage;
use inkwell::passes::PassBuilderOptions;
use inkwell::targets::{CodeModel, FileType, InitializationConfig, RelocMode, Target, TargetMachine, TargetTriple};
use inkwell::types::{BasicMetadataTypeEnum, BasicTypeEnum};
use inkwell::values::{BasicMetadataValueEnum, BasicValueEnum, FunctionValue, IntValue, PointerValue};
use inkwell::{AddressSpace, IntPredicate, OptimizationLevel};
use smelt_hlo::DType;
use smelt_kernel::{InlineReduce, Kernel, KernelBody, KernelId, Node, NodeId, Program, ScalarFn, Step};
use smelt_llvm::codegen::{Cg, Env, Io, Slot, TargetAttrs, param};
use smelt_llvm::math::MathTarget;

use crate::error::{GpuError, Result};
use crate::plan::{
    self, Launch, MAX_ROW_BLOCK, MAX_TILED_LOADS, SHARED_PER_ACC, SHUFFLE_OFFSETS, Strategy, TILE, TILE_ROWS, WARP,
};

/// The NVPTX target triple.
pub const TRIPLE: &str = "nvptx64-nvidia-cuda";

/// A kernel's entries in the module and how to launch them.
#[derive(Clone, Debug)]
pub struct DeviceKernel {
    pub kernel: KernelId,
    pub strategy: Strategy,
    /// Entry symbols with their launches, run in order (two for split
    /// reductions). Each takes one pointer per input then output, then the
    /// scratch pointer when `scratch_bytes > 0`.
    pub launches: Vec<(String, Launch)>,
    /// Device scratch the launches share (partial results).
    pub scratch_bytes: usize,
}

/// What code generation produced.
#[derive(Clone, Debug)]
pub struct DeviceModule {
    /// LLVM IR before optimization (kept only when asked for).
    pub llvm: Option<String>,
    /// LLVM IR after optimization (kept only when asked for).
    pub llvm_opt: Option<String>,
    pub ptx: String,
    /// Entries by kernel id (kernels no step launches have none).
    pub kernels: Vec<Option<DeviceKernel>>,
}

/// The lowest PTX ISA version LLVM may use for `sm` (LLVM would otherwise
/// default to one too old for recent architectures).
pub fn ptx_version(sm: u32) -> u32 {
    match sm {
        121.. => 88,
        120 => 87,
        103.. => 88,
        100.. => 86,
        89.. => 78,
        87.. => 74,
        86 => 71,
        80.. => 70,
        75.. => 63,
        _ => 60,
    }
}

/// The NVPTX target machine for `sm_XX`.
pub fn target_machine(sm: u32, opt_level: u8) -> Result<TargetMachine> {
    Target::initialize_nvptx(&InitializationConfig::default());
    let triple = TargetTriple::create(TRIPLE);
    let target = Target::from_triple(&triple).map_err(|e| GpuError::Llvm(format!("NVPTX target: {e}")))?;
    let level = match opt_level {
        0 => OptimizationLevel::None,
        1 => OptimizationLevel::Less,
        2 => OptimizationLevel::Default,
        _ => OptimizationLevel::Aggressive,
    };
    target
        .create_target_machine(
            &triple,
            &format!("sm_{sm}"),
            &format!("+ptx{}", ptx_version(sm)),
            level,
            RelocMode::Default,
            CodeModel::Default,
        )
        .ok_or_else(|| GpuError::Llvm(format!("LLVM cannot target sm_{sm}")))
}

/// Kernels some step launches (directly, or as the epilogue of a cuBLAS dot).
fn launched(steps: &[Step], out: &mut BTreeSet<u32>) {
    for s in steps {
        match s {
            Step::Kernel { kernel, .. } => {
                out.insert(kernel.0);
            }
            Step::Dot(d) => {
                if let Some((k, _)) = &d.epilogue {
                    out.insert(k.0);
                }
            }
            Step::Conv(c) => {
                if let Some((k, _)) = &c.epilogue {
                    out.insert(k.0);
                }
            }
            Step::While { cond, body, .. } => {
                launched(cond, out);
                launched(body, out);
            }
            Step::Conditional { branches, .. } => branches.iter().for_each(|b| launched(b, out)),
            Step::Copy { .. } | Step::ParallelCopy { .. } | Step::CustomCall(_) => {}
        }
    }
}

/// What the GPU primitives (thread indices, barriers, shuffles, shared
/// memory, kernel entries) become.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flavor {
    /// NVPTX intrinsics, address space 3, `ptx_kernel` entries taking one
    /// pointer per buffer.
    Ptx,
    /// Calls into the host simulator (`crate::sim`): `smelt_sim_sreg(i32)`,
    /// `smelt_sim_barrier()`, `smelt_sim_shfl_down(i32, i32)`,
    /// `smelt_sim_shared(i32 region)`; C entries taking one pointer to the
    /// array of buffer pointers.
    HostSim,
}

/// Shared memory a module's blocks use, in bytes: the combine slots and the
/// transpose tiles.
#[derive(Clone, Copy, Debug, Default)]
pub struct SharedSizes {
    pub slots: usize,
    pub tiles: usize,
}

/// Builds, optimizes and prints the module for a prepared program (see
/// [`crate::elemental::prepare`]).
pub fn build(program: &Program, options: &crate::CompileOptions, keep_ir: bool) -> Result<DeviceModule> {
    let opt_level = options.opt_level;
    let tm = target_machine(options.sm, opt_level)?;
    let cx = Context::create();
    let (module, kernels, _) = emit_module(&cx, program, Flavor::Ptx, &tm)?;
    options.deadline.check(|| "NVPTX IR generation".into())?;
    let llvm = keep_ir.then(|| module.print_to_string().to_string());
    let passes = format!("default<O{}>", opt_level.min(3));
    module
        .run_passes(&passes, &tm, PassBuilderOptions::create())
        .map_err(|e| GpuError::Llvm(format!("optimizing: {e}")))?;
    options.deadline.check(|| "NVPTX optimization".into())?;
    let llvm_opt = keep_ir.then(|| module.print_to_string().to_string());
    let buf = tm
        .write_to_memory_buffer(&module, FileType::Assembly)
        .map_err(|e| GpuError::Llvm(format!("emitting PTX: {e}")))?;
    let ptx = String::from_utf8_lossy(buf.as_slice()).trim_end_matches('\0').to_string();
    Ok(DeviceModule { llvm, llvm_opt, ptx, kernels })
}

/// The verified, unoptimized module for a prepared program, for `tm`'s target.
pub(crate) fn emit_module<'ctx>(
    cx: &'ctx Context,
    program: &Program,
    flavor: Flavor,
    tm: &TargetMachine,
) -> Result<(inkwell::module::Module<'ctx>, Vec<Option<DeviceKernel>>, SharedSizes)> {
    smelt_llvm::codegen::check_sizes(program)?;
    // NVPTX has FMA: the math library's multiply-adds fuse.
    let mut cg = Cg::new(
        cx,
        program,
        &TargetAttrs {
            math: MathTarget { fused: true, native_ldexp: false, flush_subnormals: false, vector_variants: false },
            ..TargetAttrs::default()
        },
        tm,
    );
    cg.module.set_triple(&tm.get_triple());
    cg.module.set_data_layout(&tm.get_target_data().get_data_layout());

    let mut ids = BTreeSet::new();
    launched(&program.steps, &mut ids);
    let mut plans = Vec::new();
    let mut max_accs = 1usize;
    for &id in &ids {
        let k = program
            .kernels
            .get(id as usize)
            .ok_or_else(|| GpuError::InvalidProgram(format!("kernel {id} out of range")))?;
        let s = plan::choose(k)?;
        max_accs = max_accs.max(block_accumulators(k, &s));
        plans.push((id, s));
    }
    // Transpose tiles: one (TILE + 1) x TILE array of 8-byte slots per staged input.
    let any_tiles = plans.iter().any(|(_, s)| matches!(s, Strategy::Transpose { .. }));
    let sizes = SharedSizes {
        slots: SHARED_PER_ACC as usize * max_accs,
        tiles: if any_tiles { (MAX_TILED_LOADS as i64 * TILE * (TILE + 1) * 8) as usize } else { 0 },
    };
    let mut shared = [None, None];
    if flavor == Flavor::Ptx {
        for (i, (name, bytes)) in [("smelt_shared", sizes.slots), ("smelt_tiles", sizes.tiles)].into_iter().enumerate()
        {
            if bytes == 0 {
                continue;
            }
            let ty = cx.i8_type().array_type(bytes as u32);
            let g = cg.module.add_global(ty, Some(AddressSpace::from(3u16)), name);
            g.set_initializer(&ty.get_undef());
            g.set_linkage(Linkage::Internal);
            g.set_alignment(8);
            shared[i] = Some(g.as_pointer_value());
        }
    }

    let mut kernels = vec![None; program.kernels.len()];
    {
        let mut dg = DeviceCg { cg: &mut cg, flavor, shared };
        for (id, strategy) in plans {
            let symbols = dg.entry(KernelId(id), &format!("smelt_k{id}"), &strategy)?;
            let launches = symbols.into_iter().zip(strategy.launches()).collect();
            let accs = match &program.kernels[id as usize].body {
                KernelBody::Reduce { init, .. } => init.len(),
                _ => 0,
            };
            let scratch_bytes = strategy.scratch_bytes(accs);
            kernels[id as usize] = Some(DeviceKernel { kernel: KernelId(id), strategy, launches, scratch_bytes });
        }
    }
    cg.module.verify().map_err(|e| GpuError::Llvm(format!("the generated module does not verify: {e}")))?;
    Ok((cg.module, kernels, sizes))
}

/// Accumulators a kernel's block combines hold at once (shared memory slots).
fn block_accumulators(k: &Kernel, s: &Strategy) -> usize {
    match (&k.body, s) {
        (KernelBody::Reduce { init, .. }, Strategy::RowReduce { .. } | Strategy::SplitRowReduce { .. }) => init.len(),
        (KernelBody::Loop { graph, .. }, Strategy::RowLoop { .. }) => graph
            .nodes
            .iter()
            .filter_map(|n| match n {
                Node::Reduce(r) => Some(r.init.len()),
                _ => None,
            })
            .max()
            .unwrap_or(1),
        _ => 1,
    }
}

/// The CPU emitter plus the GPU-specific pieces.
struct DeviceCg<'a, 'ctx, 'p> {
    cg: &'a mut Cg<'ctx, 'p>,
    flavor: Flavor,
    /// `[N x i8] addrspace(3)` globals (PTX): the combine slots, the
    /// transpose tiles (when some kernel uses them).
    shared: [Option<PointerValue<'ctx>>; 2],
}

fn count(dims: &[i64]) -> i64 {
    dims.iter().map(|&d| d.max(0)).product()
}

impl<'ctx> DeviceCg<'_, 'ctx, '_> {
    fn i64c(&self, v: i64) -> IntValue<'ctx> {
        self.cg.i64c(v)
    }

    /// Calls the simulator's `name` (declared on first use).
    fn sim_call(
        &self,
        name: &str,
        ret: Option<BasicTypeEnum<'ctx>>,
        args: &[BasicMetadataValueEnum<'ctx>],
    ) -> Result<Option<BasicValueEnum<'ctx>>> {
        let types: Vec<BasicMetadataTypeEnum<'ctx>> = args
            .iter()
            .map(|a| match a {
                BasicMetadataValueEnum::IntValue(i) => Ok(i.get_type().into()),
                _ => Err(GpuError::Llvm("simulator calls take integers".into())),
            })
            .collect::<Result<_>>()?;
        let f = self.cg.function(name, ret, &types);
        Ok(self.cg.call(f, args)?)
    }

    /// A special register (`tid.x`, `ntid.x`, `ctaid.x`, `nctaid.x`) as i64.
    fn sreg(&self, name: &str) -> Result<IntValue<'ctx>> {
        if self.flavor == Flavor::HostSim {
            let code = ["tid.x", "ntid.x", "ctaid.x", "nctaid.x"].iter().position(|&n| n == name).unwrap_or(0);
            let arg = self.cg.t.i32.const_int(code as u64, false).into();
            let v = self.sim_call("smelt_sim_sreg", Some(self.cg.t.i64.into()), &[arg])?;
            return v
                .map(|v| v.into_int_value())
                .ok_or_else(|| GpuError::Llvm("smelt_sim_sreg returns nothing".into()));
        }
        let v = self.cg.intrinsic(&format!("llvm.nvvm.read.ptx.sreg.{name}"), &[], &[])?;
        Ok(self.cg.b.build_int_z_extend(v.into_int_value(), self.cg.t.i64, name)?)
    }

    fn barrier(&self) -> Result<()> {
        if self.flavor == Flavor::HostSim {
            self.sim_call("smelt_sim_barrier", None, &[])?;
            return Ok(());
        }
        let i32z: BasicMetadataValueEnum<'ctx> = self.cg.t.i32.const_zero().into();
        for (name, args) in [("llvm.nvvm.barrier.cta.sync.aligned.all", vec![i32z]), ("llvm.nvvm.barrier0", vec![])] {
            if let Some(i) = inkwell::intrinsics::Intrinsic::find(name) {
                let f = i
                    .get_declaration(&self.cg.module, &[])
                    .ok_or_else(|| GpuError::Llvm(format!("bad intrinsic {name}")))?;
                self.cg.call(f, &args)?;
                return Ok(());
            }
        }
        Err(GpuError::Llvm("LLVM has no NVPTX barrier intrinsic".into()))
    }

    /// `shfl.sync.down` of a register value of type `d` by `offset` lanes.
    fn shfl_down(&self, v: BasicValueEnum<'ctx>, d: DType, offset: u32) -> Result<BasicValueEnum<'ctx>> {
        let b = &self.cg.b;
        let t = self.cg.t;
        let shfl32 = |x: IntValue<'ctx>| -> Result<IntValue<'ctx>> {
            if self.flavor == Flavor::HostSim {
                let args = [x.into(), t.i32.const_int(offset as u64, false).into()];
                let v = self.sim_call("smelt_sim_shfl_down", Some(t.i32.into()), &args)?;
                return v.map(|v| v.into_int_value()).ok_or_else(|| GpuError::Llvm("no shuffle result".into()));
            }
            let args: [BasicMetadataValueEnum<'ctx>; 4] = [
                t.i32.const_all_ones().into(),
                x.into(),
                t.i32.const_int(offset as u64, false).into(),
                t.i32.const_int(WARP as u64 - 1, false).into(),
            ];
            Ok(self.cg.intrinsic("llvm.nvvm.shfl.sync.down.i32", &[], &args)?.into_int_value())
        };
        let bits = self.cg.int_type_of(d);
        let as_int: IntValue<'ctx> = match v {
            BasicValueEnum::IntValue(i) => i,
            other => b.build_bit_cast(other, bits, "")?.into_int_value(),
        };
        let width = as_int.get_type().get_bit_width();
        let moved = if width <= 32 {
            let w = if width == 32 { as_int } else { b.build_int_z_extend(as_int, t.i32, "")? };
            let s = shfl32(w)?;
            if width == 32 { s } else { b.build_int_truncate(s, as_int.get_type(), "")? }
        } else {
            let lo = b.build_int_truncate(as_int, t.i32, "")?;
            let hi = b.build_right_shift(as_int, t.i64.const_int(32, false), false, "")?;
            let hi = b.build_int_truncate(hi, t.i32, "")?;
            let (lo, hi) = (shfl32(lo)?, shfl32(hi)?);
            let lo = b.build_int_z_extend(lo, t.i64, "")?;
            let hi = b.build_int_z_extend(hi, t.i64, "")?;
            let hi = b.build_left_shift(hi, t.i64.const_int(32, false), "")?;
            b.build_or(lo, hi, "")?
        };
        Ok(match self.cg.reg_type(d) {
            BasicTypeEnum::IntType(_) => moved.into(),
            other => b.build_bit_cast(moved, other, "")?,
        })
    }

    /// The generic address of shared-memory region `region` (0: combine
    /// slots, 1: transpose tiles).
    fn shared_base(&self, region: usize) -> Result<PointerValue<'ctx>> {
        if self.flavor == Flavor::HostSim {
            let arg = self.cg.t.i32.const_int(region as u64, false).into();
            let v = self.sim_call("smelt_sim_shared", Some(self.cg.t.ptr.into()), &[arg])?;
            return v.map(|v| v.into_pointer_value()).ok_or_else(|| GpuError::Llvm("no shared memory".into()));
        }
        let g = self.shared[region].ok_or_else(|| GpuError::Llvm(format!("no shared memory region {region}")))?;
        Ok(self.cg.b.build_address_space_cast(g, self.cg.t.ptr, "")?)
    }

    /// The generic address of shared-memory slot `slot` of accumulator `acc`.
    fn shared_slot(&self, acc: usize, slot: IntValue<'ctx>) -> Result<PointerValue<'ctx>> {
        let base = self.shared_base(0)?;
        let b = &self.cg.b;
        let per = (MAX_ROW_BLOCK / WARP) as i64;
        let i = b.build_int_add(self.i64c(acc as i64 * per), slot, "")?;
        let bytes = b.build_int_mul(i, self.i64c(8), "")?;
        self.cg.byte_offset(base, bytes).map_err(Into::into)
    }

    /// Combines one partial result per thread of the block with `reducer`
    /// (see [`plan::block_reduce`], which models this); every thread gets the
    /// result. `init` fills the slots of warps the block does not have.
    fn block_combine(
        &mut self,
        partials: Vec<BasicValueEnum<'ctx>>,
        types: &[DType],
        reducer: &ScalarFn,
        init: &[BasicValueEnum<'ctx>],
        io: &[Io<'ctx>],
    ) -> Result<Vec<BasicValueEnum<'ctx>>> {
        let warp_tree = |this: &mut Self, mut v: Vec<BasicValueEnum<'ctx>>| -> Result<Vec<BasicValueEnum<'ctx>>> {
            for off in SHUFFLE_OFFSETS {
                let mut args = v.clone();
                for (x, &d) in v.iter().zip(types) {
                    args.push(this.shfl_down(*x, d, off)?);
                }
                v = this.cg.apply_fn(reducer, &args, io, true)?;
            }
            Ok(v)
        };
        self.barrier()?;
        let v = warp_tree(self, partials)?;
        let tid = self.sreg("tid.x")?;
        let ntid = self.sreg("ntid.x")?;
        let b = &self.cg.b;
        let lane = b.build_and(tid, self.i64c(WARP as i64 - 1), "lane")?;
        let warp = b.build_right_shift(tid, self.i64c(5), false, "warp")?;
        let nwarps = b.build_right_shift(ntid, self.i64c(5), false, "nwarps")?;
        let lane0 = b.build_int_compare(IntPredicate::EQ, lane, self.i64c(0), "")?;
        let join = self.cg.if_begin(lane0, "leader")?;
        for (a, (x, &d)) in v.iter().zip(types).enumerate() {
            let p = self.shared_slot(a, warp)?;
            self.cg.store_at(p, d, *x)?;
        }
        self.cg.if_end(join)?;
        self.barrier()?;
        let b = &self.cg.b;
        let warp0 = b.build_int_compare(IntPredicate::EQ, warp, self.i64c(0), "")?;
        let join = self.cg.if_begin(warp0, "warp0")?;
        let b = &self.cg.b;
        let has = b.build_int_compare(IntPredicate::ULT, lane, nwarps, "")?;
        let last = self.i64c((MAX_ROW_BLOCK / WARP) as i64 - 1);
        let lane_c = self.cg.min_i64(lane, last)?;
        let mut w = Vec::with_capacity(types.len());
        for (a, &d) in types.iter().enumerate() {
            let p = self.shared_slot(a, lane_c)?;
            let x = self.cg.load_at(p, d)?;
            w.push(self.cg.b.build_select(has, x, init[a], "")?);
        }
        let w = warp_tree(self, w)?;
        let b = &self.cg.b;
        let lane0 = b.build_int_compare(IntPredicate::EQ, lane, self.i64c(0), "")?;
        let j2 = self.cg.if_begin(lane0, "result")?;
        for (a, (x, &d)) in w.iter().zip(types).enumerate() {
            let p = self.shared_slot(a, self.i64c(0))?;
            self.cg.store_at(p, d, *x)?;
        }
        self.cg.if_end(j2)?;
        self.cg.if_end(join)?;
        self.barrier()?;
        let mut out = Vec::with_capacity(types.len());
        for (a, &d) in types.iter().enumerate() {
            let p = self.shared_slot(a, self.i64c(0))?;
            out.push(self.cg.load_at(p, d)?);
        }
        Ok(out)
    }

    /// The row-major offset of index `idx` in `dims`.
    fn offset(&self, idx: &[IntValue<'ctx>], dims: &[i64]) -> Result<IntValue<'ctx>> {
        let b = &self.cg.b;
        let mut off = self.i64c(0);
        for (&i, &d) in idx.iter().zip(dims) {
            off = b.build_int_add(b.build_int_mul(off, self.i64c(d), "")?, i, "")?;
        }
        Ok(off)
    }

    /// The index in `dims` of row-major offset `off` (dims of extent 1 are 0).
    fn unflatten(&self, off: IntValue<'ctx>, dims: &[i64]) -> Result<Vec<IntValue<'ctx>>> {
        let b = &self.cg.b;
        let mut stride: i64 = dims.iter().map(|&d| d.max(1)).product();
        let mut out = Vec::with_capacity(dims.len());
        for (k, &d) in dims.iter().enumerate() {
            stride /= d.max(1);
            if d == 1 {
                out.push(self.i64c(0));
                continue;
            }
            let q = if stride == 1 { off } else { b.build_int_unsigned_div(off, self.i64c(stride), "")? };
            out.push(if k == 0 { q } else { b.build_int_unsigned_rem(q, self.i64c(d.max(1)), "")? });
        }
        Ok(out)
    }

    /// Opens a grid-stride loop over `[0, n)`: thread-level (`per_thread`) or
    /// block-level (one index per block).
    fn grid_loop(&self, n: i64, per_thread: bool, name: &str) -> Result<smelt_llvm::codegen::Loop<'ctx>> {
        let b = &self.cg.b;
        let (start, step) = if per_thread {
            let (ctaid, ntid, tid, nctaid) =
                (self.sreg("ctaid.x")?, self.sreg("ntid.x")?, self.sreg("tid.x")?, self.sreg("nctaid.x")?);
            let s = b.build_int_add(b.build_int_mul(ctaid, ntid, "")?, tid, "")?;
            (s, b.build_int_mul(nctaid, ntid, "")?)
        } else {
            (self.sreg("ctaid.x")?, self.sreg("nctaid.x")?)
        };
        Ok(self.cg.loop_begin_dyn(start, self.i64c(n), step, name)?)
    }

    /// A block-stride loop over `[0, n)` (thread `t` takes `t`, `t + ntid`, ...).
    fn block_loop(&self, n: i64, name: &str) -> Result<smelt_llvm::codegen::Loop<'ctx>> {
        let (tid, ntid) = (self.sreg("tid.x")?, self.sreg("ntid.x")?);
        Ok(self.cg.loop_begin_dyn(tid, self.i64c(n), ntid, name)?)
    }

    /// Starts a kernel entry `symbol` taking one pointer per buffer of `k`
    /// (and a scratch pointer); returns the buffers and the scratch pointer.
    fn begin_entry(
        &mut self,
        k: &Kernel,
        symbol: &str,
        scratch: bool,
    ) -> Result<(Vec<Io<'ctx>>, Option<PointerValue<'ctx>>)> {
        let nslots = k.inputs.len() + k.outputs.len();
        let t = self.cg.t;
        let count = if self.flavor == Flavor::HostSim { 1 } else { nslots + scratch as usize };
        let params: Vec<BasicMetadataTypeEnum<'ctx>> = vec![t.ptr.into(); count];
        let f = self.cg.module.add_function(symbol, t.void.fn_type(&params, false), Some(Linkage::External));
        if self.flavor == Flavor::Ptx {
            f.set_call_conventions(PTX_KERNEL);
        }
        f.add_attribute(AttributeLoc::Function, self.cg.enum_attr("nounwind", 0));
        self.cg.begin_fn(f);
        let pointer = |this: &Self, i: usize| -> Result<PointerValue<'ctx>> {
            Ok(match this.flavor {
                Flavor::Ptx => param(f, i as u32)?.into_pointer_value(),
                Flavor::HostSim => this.cg.load_ptr(param(f, 0)?.into_pointer_value(), i as u64)?,
            })
        };
        let mut io = Vec::with_capacity(nslots);
        for (i, ty) in k.inputs.iter().chain(&k.outputs).enumerate() {
            io.push(Io::new(pointer(self, i)?, ty));
        }
        let scratch = if scratch { Some(pointer(self, nslots)?) } else { None };
        Ok((io, scratch))
    }

    fn end_entry(&mut self) -> Result<()> {
        self.cg.b.build_return(None)?;
        self.cg.end_fn()?;
        Ok(())
    }

    /// Emits the entries for kernel `kid`; returns their symbols in launch order.
    fn entry(&mut self, kid: KernelId, symbol: &str, strategy: &Strategy) -> Result<Vec<String>> {
        let program = self.cg.program;
        let k = &program.kernels[kid.0 as usize];
        if let Strategy::SplitRowReduce { .. } | Strategy::SplitColumnReduce { .. } = strategy {
            return self.split_entries(k, symbol, strategy);
        }
        let (io, _) = self.begin_entry(k, symbol, false)?;
        match (strategy, &k.body) {
            (Strategy::Elementwise { .. }, KernelBody::Loop { space, graph, outputs }) => {
                let l = self.grid_loop(count(space), true, "i")?;
                let idx = self.unflatten(l.index, space)?;
                let mut env = Env::with_indices(graph, idx);
                env.identity = Some((l.index, space.clone()));
                self.cg.emit_nodes(&mut env, &io, outputs)?;
                self.store_outputs(&env, &io[k.inputs.len()..], outputs, l.index)?;
                self.cg.loop_end(l)?;
            }
            (Strategy::Transpose { batch, a, tiles_a, tiles_b }, KernelBody::Loop { space, graph, outputs }) => {
                self.transpose(k, &io, space, graph, outputs, *batch, *a, *tiles_a, *tiles_b)?;
            }
            (Strategy::UpdateSlice { points }, KernelBody::UpdateSlice { space, graph, start, value }) => {
                let out = io.get(k.inputs.len()).cloned();
                let Some(out) = out.filter(|o| o.dims.len() == space.len() && start.len() == space.len()) else {
                    return Err(GpuError::InvalidProgram(format!("kernel {}: update-slice of the wrong rank", k.name)));
                };
                let l = self.grid_loop(*points, true, "i")?;
                let idx = self.unflatten(l.index, space)?;
                let mut env = Env::with_indices(graph, idx.clone());
                let mut roots = start.clone();
                roots.push(*value);
                self.cg.emit_nodes(&mut env, &io, &roots)?;
                // The update lands at start + index (starts are clamped into range).
                let mut target = Vec::with_capacity(idx.len());
                for (&i, &s) in idx.iter().zip(start) {
                    let s = smelt_llvm::codegen::as_int(self.cg.value(&env, s)?, "a start index")?;
                    target.push(self.cg.b.build_int_add(s, i, "")?);
                }
                let off = self.offset(&target, &out.dims)?;
                let v = self.cg.value(&env, *value)?;
                self.cg.store_elem(out.ptr, out.dtype, off, v)?;
                self.cg.loop_end(l)?;
            }
            (Strategy::Scan { lines }, KernelBody::Scan { space, axis, reverse, graph, init, values, reducer }) => {
                self.scan(k, &io, space, *axis, *reverse, graph, init, values, reducer, *lines)?;
            }
            (Strategy::RowLoop { cols, .. }, KernelBody::Loop { space, graph, outputs }) => {
                let rank = space.len();
                let rows = self.grid_loop(count(&space[..rank - 1]), false, "row")?;
                let mut idx = self.unflatten(rows.index, &space[..rank - 1])?;
                idx.push(self.i64c(0));
                let mut env = Env::with_indices(graph, idx);
                for id in plan::row_statistics(graph, rank)? {
                    let Node::Reduce(r) = graph.node(id) else { continue };
                    let results = self.cooperative_reduce(&mut env, &io, r)?;
                    env.bind_reduce(id, results);
                }
                let l = self.block_loop(*cols, "col")?;
                env.indices[rank - 1] = l.index;
                let b = &self.cg.b;
                let off = b.build_int_add(b.build_int_mul(rows.index, self.i64c(*cols), "")?, l.index, "")?;
                env.identity = Some((off, space.clone()));
                self.cg.emit_nodes(&mut env, &io, outputs)?;
                self.store_outputs(&env, &io[k.inputs.len()..], outputs, off)?;
                self.cg.loop_end(l)?;
                self.cg.loop_end(rows)?;
            }
            (Strategy::RowReduce { rows, .. }, KernelBody::Reduce { space, reduced, .. }) => {
                let kept = &space[..space.len() - reduced.len()];
                let red = &space[space.len() - reduced.len()..];
                let r = self.grid_loop(*rows, false, "row")?;
                let kidx = self.unflatten(r.index, kept)?;
                let (tid, ntid) = (self.sreg("tid.x")?, self.sreg("ntid.x")?);
                let range = (tid, self.i64c(count(red)), ntid);
                let partials = self.fold_points(k, &io, &kidx, red, range)?;
                let (types, reducer, init) = self.reduce_parts(k, &io, &kidx)?;
                let res = self.block_combine(partials, &types, reducer, &init, &io)?;
                let tid = self.sreg("tid.x")?;
                let first = self.cg.b.build_int_compare(IntPredicate::EQ, tid, self.i64c(0), "")?;
                let join = self.cg.if_begin(first, "store")?;
                self.store_results(k, &io, &res, r.index)?;
                self.cg.if_end(join)?;
                self.cg.loop_end(r)?;
            }
            (Strategy::ColumnReduce { kept: n }, KernelBody::Reduce { space, reduced, .. }) => {
                let kept: Vec<i64> = (0..space.len()).filter(|d| !reduced.contains(d)).map(|d| space[d]).collect();
                let red: Vec<i64> = reduced.iter().map(|&d| space[d]).collect();
                let l = self.grid_loop(*n, true, "kept")?;
                let kidx = self.unflatten(l.index, &kept)?;
                let range = (self.i64c(0), self.i64c(count(&red)), self.i64c(1));
                let partials = self.fold_points(k, &io, &kidx, &red, range)?;
                self.store_results(k, &io, &partials, l.index)?;
                self.cg.loop_end(l)?;
            }
            (Strategy::Outer { .. } | Strategy::Sort { .. } | Strategy::Rng { .. } | Strategy::Serial, _) => {
                let serial = matches!(strategy, Strategy::Serial);
                let n = smelt_llvm::codegen::launch_shape(k)?.n;
                let slots: Vec<Slot> = k
                    .inputs
                    .iter()
                    .chain(&k.outputs)
                    .map(|ty| Slot { noalias: false, align: ty.dtype.byte_size() as u32, bytes: 0, same_as: None })
                    .collect();
                let body = self.cg.kernel_body_fn(kid, &slots, symbol)?;
                let ptrs: Vec<BasicMetadataValueEnum<'ctx>> = io.iter().map(|x| x.ptr.into()).collect();
                if serial {
                    let ctaid = self.sreg("ctaid.x")?;
                    let tid = self.sreg("tid.x")?;
                    let b = &self.cg.b;
                    let any = b.build_or(ctaid, tid, "")?;
                    let first = b.build_int_compare(IntPredicate::EQ, any, self.i64c(0), "")?;
                    let join = self.cg.if_begin(first, "serial")?;
                    self.call_body(body, &ptrs, self.i64c(0), self.i64c(n))?;
                    self.cg.if_end(join)?;
                } else {
                    let l = self.grid_loop(n, true, "it")?;
                    let next = self.cg.b.build_int_add(l.index, self.i64c(1), "")?;
                    self.call_body(body, &ptrs, l.index, next)?;
                    self.cg.loop_end(l)?;
                }
            }
            (s, _) => {
                return Err(GpuError::InvalidProgram(format!(
                    "kernel {}: strategy {} does not fit its body",
                    k.name,
                    s.name()
                )));
            }
        }
        self.end_entry()?;
        let mut symbols = vec![symbol.to_string()];
        if let KernelBody::RngBitGenerator { algorithm } = &k.body {
            // The new state, once the bits are written (the state's output may
            // be its input's buffer): a second launch of one thread.
            let state = format!("{symbol}_state");
            let (io, _) = self.begin_entry(k, &state, false)?;
            let (Some(input), Some(output)) = (io.first(), io.get(k.inputs.len())) else {
                return Err(GpuError::InvalidProgram(format!("kernel {}: rng without a state", k.name)));
            };
            self.cg.emit_rng_state(k, *algorithm, input.ptr, output.ptr)?;
            self.end_entry()?;
            symbols.push(state);
        }
        Ok(symbols)
    }

    /// The two entries of a split reduction: `SYMBOL` folds chunks into
    /// partial results in scratch (slot `[acc][point * splits + split]`),
    /// `SYMBOL_combine` combines each point's partials and stores the results.
    fn split_entries(&mut self, k: &Kernel, symbol: &str, strategy: &Strategy) -> Result<Vec<String>> {
        let KernelBody::Reduce { space, reduced, .. } = &k.body else {
            return Err(GpuError::InvalidProgram(format!("kernel {}: a split strategy for a non-reduction", k.name)));
        };
        let kept: Vec<i64> = (0..space.len()).filter(|d| !reduced.contains(d)).map(|d| space[d]).collect();
        let red: Vec<i64> = reduced.iter().map(|&d| space[d]).collect();
        let (points, len, splits, rows) = match *strategy {
            Strategy::SplitRowReduce { rows, row_len, splits } => (rows, row_len, splits, true),
            Strategy::SplitColumnReduce { kept, reduced, splits } => (kept, reduced, splits, false),
            _ => return Err(GpuError::InvalidProgram("not a split strategy".into())),
        };
        let chunk = plan::split_chunk(len, splits);

        // Stage one: (point, split) -> partial.
        let (io, scratch) = self.begin_entry(k, symbol, true)?;
        let scratch = scratch.ok_or_else(|| GpuError::Llvm("no scratch parameter".into()))?;
        let l = self.grid_loop(points * splits, !rows, "part")?;
        let (point, split) = if rows {
            (self.udiv(l.index, splits)?, self.urem(l.index, splits)?)
        } else {
            (self.urem(l.index, points)?, self.udiv(l.index, points)?)
        };
        let kidx = self.unflatten(point, &kept)?;
        let lo = self.cg.b.build_int_mul(split, self.i64c(chunk), "")?;
        let hi = self.cg.min_i64(self.cg.b.build_int_add(lo, self.i64c(chunk), "")?, self.i64c(len))?;
        let range = if rows {
            let (tid, ntid) = (self.sreg("tid.x")?, self.sreg("ntid.x")?);
            (self.cg.b.build_int_add(lo, tid, "")?, hi, ntid)
        } else {
            (lo, hi, self.i64c(1))
        };
        let mut partial = self.fold_points(k, &io, &kidx, &red, range)?;
        let (types, reducer, init) = self.reduce_parts(k, &io, &kidx)?;
        let slot = self.cg.b.build_int_add(self.cg.b.build_int_mul(point, self.i64c(splits), "")?, split, "")?;
        if rows {
            partial = self.block_combine(partial, &types, reducer, &init, &io)?;
            let tid = self.sreg("tid.x")?;
            let first = self.cg.b.build_int_compare(IntPredicate::EQ, tid, self.i64c(0), "")?;
            let join = self.cg.if_begin(first, "store")?;
            self.store_partials(scratch, points * splits, slot, &types, &partial)?;
            self.cg.if_end(join)?;
        } else {
            self.store_partials(scratch, points * splits, slot, &types, &partial)?;
        }
        self.cg.loop_end(l)?;
        self.end_entry()?;

        // Stage two: each point's partials -> result.
        let combine = format!("{symbol}_combine");
        let (io, scratch) = self.begin_entry(k, &combine, true)?;
        let scratch = scratch.ok_or_else(|| GpuError::Llvm("no scratch parameter".into()))?;
        let l = self.grid_loop(points, !rows, "point")?;
        let kidx = self.unflatten(l.index, &kept)?;
        let (types, reducer, init) = self.reduce_parts(k, &io, &kidx)?;
        let mut accs = Vec::with_capacity(types.len());
        for (&d, v) in types.iter().zip(&init) {
            let a = self.cg.alloca(self.cg.reg_type(d), "acc")?;
            self.cg.b.build_store(a, *v)?;
            accs.push(a);
        }
        let s = if rows {
            self.block_loop(splits, "split")?
        } else {
            self.cg.loop_begin(self.i64c(0), self.i64c(splits), 1, "split")?
        };
        let slot = self.cg.b.build_int_add(self.cg.b.build_int_mul(l.index, self.i64c(splits), "")?, s.index, "")?;
        let mut vals = Vec::with_capacity(types.len());
        for (a, &d) in types.iter().enumerate() {
            let p = self.partial_slot(scratch, points * splits, a, slot)?;
            vals.push(self.cg.load_at(p, d)?);
        }
        self.cg.combine(&accs, &types, reducer, &vals, &io, true)?;
        self.cg.loop_end(s)?;
        let mut res = Vec::with_capacity(accs.len());
        for (&a, &d) in accs.iter().zip(&types) {
            res.push(self.cg.b.build_load(self.cg.reg_type(d), a, "")?);
        }
        if rows {
            res = self.block_combine(res, &types, reducer, &init, &io)?;
            let tid = self.sreg("tid.x")?;
            let first = self.cg.b.build_int_compare(IntPredicate::EQ, tid, self.i64c(0), "")?;
            let join = self.cg.if_begin(first, "store")?;
            self.store_results(k, &io, &res, l.index)?;
            self.cg.if_end(join)?;
        } else {
            self.store_results(k, &io, &res, l.index)?;
        }
        self.cg.loop_end(l)?;
        self.end_entry()?;
        Ok(vec![symbol.to_string(), combine])
    }

    fn udiv(&self, a: IntValue<'ctx>, c: i64) -> Result<IntValue<'ctx>> {
        Ok(self.cg.b.build_int_unsigned_div(a, self.i64c(c.max(1)), "")?)
    }

    fn urem(&self, a: IntValue<'ctx>, c: i64) -> Result<IntValue<'ctx>> {
        Ok(self.cg.b.build_int_unsigned_rem(a, self.i64c(c.max(1)), "")?)
    }

    /// The address of partial result `slot` of accumulator `acc` (`per_acc` slots each).
    fn partial_slot(
        &self,
        scratch: PointerValue<'ctx>,
        per_acc: i64,
        acc: usize,
        slot: IntValue<'ctx>,
    ) -> Result<PointerValue<'ctx>> {
        let i = self.cg.b.build_int_add(self.i64c(acc as i64 * per_acc), slot, "")?;
        let bytes = self.cg.b.build_int_mul(i, self.i64c(8), "")?;
        Ok(self.cg.byte_offset(scratch, bytes)?)
    }

    fn store_partials(
        &self,
        scratch: PointerValue<'ctx>,
        per_acc: i64,
        slot: IntValue<'ctx>,
        types: &[DType],
        vals: &[BasicValueEnum<'ctx>],
    ) -> Result<()> {
        for (a, (&d, v)) in types.iter().zip(vals).enumerate() {
            let p = self.partial_slot(scratch, per_acc, a, slot)?;
            self.cg.store_at(p, d, *v)?;
        }
        Ok(())
    }

    /// A scan, one thread per line: the other dimensions' index from the
    /// thread's line, then the recurrence along `axis` (from the end when
    /// `reverse`), storing every accumulator at every point.
    fn scan(
        &mut self,
        k: &Kernel,
        io: &[Io<'ctx>],
        space: &[i64],
        axis: usize,
        reverse: bool,
        graph: &smelt_kernel::Graph,
        init: &[NodeId],
        values: &[NodeId],
        reducer: &ScalarFn,
        lines: i64,
    ) -> Result<()> {
        let outs = &io[k.inputs.len()..];
        if outs.len() != init.len() || init.iter().any(|i| i.0 as usize >= graph.types.len()) {
            return Err(GpuError::InvalidProgram(format!(
                "kernel {}: a scan's outputs and accumulators differ",
                k.name
            )));
        }
        let n = space[axis];
        let other: Vec<i64> = space.iter().enumerate().filter(|&(d, _)| d != axis).map(|(_, &e)| e).collect();
        let l = self.grid_loop(lines, true, "line")?;
        let oidx = self.unflatten(l.index, &other)?;
        let types: Vec<DType> = init.iter().map(|&i| graph.dtype(i)).collect();
        let mut env0 = Env::with_indices(graph, vec![self.i64c(0); space.len()]);
        self.cg.emit_nodes(&mut env0, io, init)?;
        let mut accs = Vec::with_capacity(init.len());
        for (&i, &d) in init.iter().zip(&types) {
            let a = self.cg.alloca(self.cg.reg_type(d), "acc")?;
            self.cg.b.build_store(a, self.cg.value(&env0, i)?)?;
            accs.push(a);
        }
        let j = self.cg.loop_begin(self.i64c(0), self.i64c(n), 1, "j")?;
        let pos = if reverse { self.cg.b.build_int_sub(self.i64c(n - 1), j.index, "")? } else { j.index };
        let mut others = oidx.iter();
        let idx: Vec<IntValue<'ctx>> = (0..space.len())
            .map(|d| if d == axis { Some(&pos) } else { others.next() }.copied().unwrap_or(pos))
            .collect();
        let mut env = Env::with_indices(graph, idx.clone());
        self.cg.emit_nodes(&mut env, io, values)?;
        let vals = values.iter().map(|&v| self.cg.value(&env, v)).collect::<Result<Vec<_>, _>>()?;
        self.cg.combine(&accs, &types, reducer, &vals, io, true)?;
        let off = self.offset(&idx, space)?;
        for ((&a, &d), o) in accs.iter().zip(&types).zip(outs) {
            let v = self.cg.b.build_load(self.cg.reg_type(d), a, "")?;
            self.cg.store_elem(o.ptr, o.dtype, off, v)?;
        }
        self.cg.loop_end(j)?;
        self.cg.loop_end(l)?;
        Ok(())
    }

    /// The generic address of slot `(row, col)` of transpose tile `t`.
    fn tile_slot(&self, t: usize, row: IntValue<'ctx>, col: IntValue<'ctx>) -> Result<PointerValue<'ctx>> {
        let base = self.shared_base(1)?;
        let b = &self.cg.b;
        let i = b.build_int_add(b.build_int_mul(row, self.i64c(TILE + 1), "")?, col, "")?;
        let i = b.build_int_add(i, self.i64c(t as i64 * TILE * (TILE + 1)), "")?;
        let bytes = b.build_int_mul(i, self.i64c(8), "")?;
        Ok(self.cg.byte_offset(base, bytes)?)
    }

    /// A transposing loop kernel through shared-memory tiles (see
    /// [`Strategy::Transpose`]): per tile, threads read the staged inputs
    /// with space dimension `a` varying fastest (the inputs' innermost),
    /// then compute the outputs with the innermost dimension `b` varying
    /// fastest, taking the staged loads from the tile.
    fn transpose(
        &mut self,
        k: &Kernel,
        io: &[Io<'ctx>],
        space: &[i64],
        graph: &smelt_kernel::Graph,
        outputs: &[NodeId],
        batch: i64,
        a: usize,
        tiles_a: i64,
        tiles_b: i64,
    ) -> Result<()> {
        let (_, loads) = plan::transposed_loads(k)
            .ok_or_else(|| GpuError::InvalidProgram(format!("kernel {}: no transposed loads", k.name)))?;
        let rank = space.len();
        let bdim = rank - 1;
        let others: Vec<usize> = (0..bdim).filter(|&d| d != a).collect();
        let other_dims: Vec<i64> = others.iter().map(|&d| space[d]).collect();
        let tile = self.grid_loop(batch * tiles_a * tiles_b, false, "tile")?;
        let per_batch = tiles_a * tiles_b;
        let bt = self.udiv(tile.index, per_batch)?;
        let rem = self.urem(tile.index, per_batch)?;
        let a0 = self.cg.b.build_int_mul(self.udiv(rem, tiles_b)?, self.i64c(TILE), "a0")?;
        let b0 = self.cg.b.build_int_mul(self.urem(rem, tiles_b)?, self.i64c(TILE), "b0")?;
        let oidx = self.unflatten(bt, &other_dims)?;
        let tid = self.sreg("tid.x")?;
        let tx = self.urem(tid, TILE)?;
        let ty = self.udiv(tid, TILE)?;
        let index_at = |this: &Self, ia: IntValue<'ctx>, ib: IntValue<'ctx>| -> Vec<IntValue<'ctx>> {
            let mut idx = vec![this.i64c(0); rank];
            for (&d, &v) in others.iter().zip(&oidx) {
                idx[d] = v;
            }
            idx[a] = ia;
            idx[bdim] = ib;
            idx
        };
        let inside = |this: &Self, ia: IntValue<'ctx>, ib: IntValue<'ctx>| -> Result<IntValue<'ctx>> {
            let b = &this.cg.b;
            let ca = b.build_int_compare(IntPredicate::SLT, ia, this.i64c(space[a]), "")?;
            let cb = b.build_int_compare(IntPredicate::SLT, ib, this.i64c(space[bdim]), "")?;
            Ok(b.build_and(ca, cb, "")?)
        };
        // The previous tile's reads finish before this tile's writes.
        self.barrier()?;
        // Phase one: stage the transposed inputs, `a` fastest.
        let r = self.cg.loop_begin(self.i64c(0), self.i64c(TILE), TILE / TILE_ROWS, "stage")?;
        let row = self.cg.b.build_int_add(ty, r.index, "")?;
        let ia = self.cg.b.build_int_add(a0, tx, "")?;
        let ib = self.cg.b.build_int_add(b0, row, "")?;
        let ok = inside(self, ia, ib)?;
        let join = self.cg.if_begin(ok, "in")?;
        let mut env = Env::with_indices(graph, index_at(self, ia, ib));
        self.cg.emit_nodes(&mut env, io, &loads)?;
        for (t, &l) in loads.iter().enumerate() {
            let v = self.cg.value(&env, l)?;
            let p = self.tile_slot(t, row, tx)?;
            self.cg.store_at(p, graph.dtype(l), v)?;
        }
        self.cg.if_end(join)?;
        self.cg.loop_end(r)?;
        self.barrier()?;
        // Phase two: compute the outputs, `b` fastest.
        let r = self.cg.loop_begin(self.i64c(0), self.i64c(TILE), TILE / TILE_ROWS, "emit")?;
        let row = self.cg.b.build_int_add(ty, r.index, "")?;
        let ia = self.cg.b.build_int_add(a0, row, "")?;
        let ib = self.cg.b.build_int_add(b0, tx, "")?;
        let ok = inside(self, ia, ib)?;
        let join = self.cg.if_begin(ok, "out")?;
        let idx = index_at(self, ia, ib);
        let mut env = Env::with_indices(graph, idx.clone());
        for (t, &l) in loads.iter().enumerate() {
            let p = self.tile_slot(t, tx, row)?;
            let v = self.cg.load_at(p, graph.dtype(l))?;
            env.bind(l, v);
        }
        self.cg.emit_nodes(&mut env, io, outputs)?;
        let off = self.offset(&idx, space)?;
        self.store_outputs(&env, &io[k.inputs.len()..], outputs, off)?;
        self.cg.if_end(join)?;
        self.cg.loop_end(r)?;
        self.cg.loop_end(tile)?;
        Ok(())
    }

    fn call_body(
        &self,
        body: FunctionValue<'ctx>,
        ptrs: &[BasicMetadataValueEnum<'ctx>],
        begin: IntValue<'ctx>,
        end: IntValue<'ctx>,
    ) -> Result<()> {
        let mut args = ptrs.to_vec();
        args.push(begin.into());
        args.push(end.into());
        self.cg.call(body, &args)?;
        Ok(())
    }

    fn store_outputs(
        &self,
        env: &Env<'_, 'ctx>,
        outs: &[Io<'ctx>],
        outputs: &[NodeId],
        off: IntValue<'ctx>,
    ) -> Result<()> {
        if outs.len() != outputs.len() {
            return Err(GpuError::InvalidProgram(format!("{} outputs for {} values", outs.len(), outputs.len())));
        }
        for (o, &id) in outs.iter().zip(outputs) {
            let v = self.cg.value(env, id)?;
            self.cg.store_elem(o.ptr, o.dtype, off, v)?;
        }
        Ok(())
    }

    /// A reduce kernel's accumulator types, reducer and init values (emitted
    /// at the kept index `kidx`).
    fn reduce_parts<'k>(
        &mut self,
        k: &'k Kernel,
        io: &[Io<'ctx>],
        kidx: &[IntValue<'ctx>],
    ) -> Result<(Vec<DType>, &'k ScalarFn, Vec<BasicValueEnum<'ctx>>)> {
        let KernelBody::Reduce { space, graph, init, reducer, .. } = &k.body else {
            return Err(GpuError::InvalidProgram("not a reduction".into()));
        };
        let mut idx = kidx.to_vec();
        idx.resize(space.len(), self.i64c(0));
        let mut env = Env::with_indices(graph, idx);
        self.cg.emit_nodes(&mut env, io, init)?;
        let vals = init.iter().map(|&i| self.cg.value(&env, i)).collect::<Result<Vec<_>, _>>()?;
        Ok((init.iter().map(|&i| graph.dtype(i)).collect(), reducer, vals))
    }

    /// Folds a reduce kernel's values at the reduced points `range = (lo,
    /// hi, step)` (row-major offsets into the reduced dims `red`) of kept
    /// index `kidx` from its init values; extra outputs are stored at each
    /// point. Returns the accumulators.
    fn fold_points(
        &mut self,
        k: &Kernel,
        io: &[Io<'ctx>],
        kidx: &[IntValue<'ctx>],
        red: &[i64],
        range: (IntValue<'ctx>, IntValue<'ctx>, IntValue<'ctx>),
    ) -> Result<Vec<BasicValueEnum<'ctx>>> {
        let KernelBody::Reduce { space, reduced, graph, values, reducer, extra, .. } = &k.body else {
            return Err(GpuError::InvalidProgram("not a reduction".into()));
        };
        let (types, _, init) = self.reduce_parts(k, io, kidx)?;
        let mut accs = Vec::with_capacity(types.len());
        for (&d, v) in types.iter().zip(&init) {
            let a = self.cg.alloca(self.cg.reg_type(d), "acc")?;
            self.cg.b.build_store(a, *v)?;
            accs.push(a);
        }
        let l = self.cg.loop_begin_dyn(range.0, range.1, range.2, "red")?;
        let ridx = self.unflatten(l.index, red)?;
        // The full index: kept and reduced dimensions in their places.
        let (mut ki, mut ri) = (kidx.iter(), ridx.iter());
        let full: Vec<IntValue<'ctx>> = (0..space.len())
            .map(|d| if reduced.contains(&d) { ri.next() } else { ki.next() }.copied().unwrap_or(self.i64c(0)))
            .collect();
        let mut env = Env::with_indices(graph, full.clone());
        let mut roots = values.clone();
        roots.extend(extra.iter().map(|e| e.1));
        self.cg.emit_nodes(&mut env, io, &roots)?;
        let vals = values.iter().map(|&v| self.cg.value(&env, v)).collect::<Result<Vec<_>, _>>()?;
        if !extra.is_empty() {
            let off = self.offset(&full, space)?;
            let ni = k.inputs.len();
            for &(o, id) in extra {
                let out = io.get(ni + o).ok_or_else(|| GpuError::InvalidProgram("extra output out of range".into()))?;
                let v = self.cg.value(&env, id)?;
                self.cg.store_elem(out.ptr, out.dtype, off, v)?;
            }
        }
        self.cg.combine(&accs, &types, reducer, &vals, io, true)?;
        self.cg.loop_end(l)?;
        let mut out = Vec::with_capacity(accs.len());
        for (&a, &d) in accs.iter().zip(&types) {
            out.push(self.cg.b.build_load(self.cg.reg_type(d), a, "")?);
        }
        Ok(out)
    }

    /// Stores a reduce kernel's results at kept offset `off`.
    fn store_results(
        &self,
        k: &Kernel,
        io: &[Io<'ctx>],
        res: &[BasicValueEnum<'ctx>],
        off: IntValue<'ctx>,
    ) -> Result<()> {
        let KernelBody::Reduce { reduce_outputs, .. } = &k.body else {
            return Err(GpuError::InvalidProgram("not a reduction".into()));
        };
        let ni = k.inputs.len();
        for (r, &o) in reduce_outputs.iter().enumerate() {
            let out = io.get(ni + o).ok_or_else(|| GpuError::InvalidProgram("reduce output out of range".into()))?;
            let v = res.get(r).ok_or_else(|| GpuError::InvalidProgram("fewer results than reduce outputs".into()))?;
            self.cg.store_elem(out.ptr, out.dtype, off, *v)?;
        }
        Ok(())
    }

    /// An inline reduction computed by the whole block (each thread folds a
    /// strided slice of the window, then [`Self::block_combine`]).
    fn cooperative_reduce(
        &mut self,
        env: &mut Env<'_, 'ctx>,
        io: &[Io<'ctx>],
        r: &InlineReduce,
    ) -> Result<Vec<BasicValueEnum<'ctx>>> {
        let mut needed: Vec<NodeId> = r.init.clone();
        let mut outer_ids = Vec::new();
        for n in &r.body.nodes {
            if let Node::Outer(o) = n {
                needed.push(*o);
                outer_ids.push(*o);
            }
        }
        self.cg.emit_nodes(env, io, &needed)?;
        let types: Vec<DType> = r.init.iter().map(|&i| env.graph.dtype(i)).collect();
        let init = r.init.iter().map(|&i| self.cg.value(env, i)).collect::<Result<Vec<_>, _>>()?;
        let mut outer = HashMap::new();
        for o in outer_ids {
            outer.insert(o, self.cg.value(env, o)?);
        }
        let mut accs = Vec::with_capacity(types.len());
        for (&d, v) in types.iter().zip(&init) {
            let a = self.cg.alloca(self.cg.reg_type(d), "acc")?;
            self.cg.b.build_store(a, *v)?;
            accs.push(a);
        }
        let l = self.block_loop(count(&r.window), "w")?;
        let widx = self.unflatten(l.index, &r.window)?;
        let mut benv = Env::with_indices(&r.body, widx);
        benv.outer = outer;
        self.cg.emit_nodes(&mut benv, io, &r.values)?;
        let vals = r.values.iter().map(|&v| self.cg.value(&benv, v)).collect::<Result<Vec<_>, _>>()?;
        self.cg.combine(&accs, &types, &r.reducer, &vals, io, true)?;
        self.cg.loop_end(l)?;
        let mut partials = Vec::with_capacity(accs.len());
        for (&a, &d) in accs.iter().zip(&types) {
            partials.push(self.cg.b.build_load(self.cg.reg_type(d), a, "")?);
        }
        self.block_combine(partials, &types, &r.reducer, &init, io)
    }
}

/// LLVM's `ptx_kernel` calling convention: marks a function as a kernel entry.
const PTX_KERNEL: u32 = 71;
