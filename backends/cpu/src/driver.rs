//! `smelt_run`: the program's steps as one function.
//!
//! ABI: `i32 smelt_run(ptr params, ptr results, ptr temp)`. `params` and
//! `results` are arrays of pointers to each flattened parameter and result leaf
//! (dense, row-major, naturally aligned); `temp` is the arena (64-byte aligned,
//! [`ModuleInfo::arena_bytes`] long). Returns 0.
//!
//! Kernel launches pass an array of buffer pointers to the kernel function,
//! directly when the work is small and through `void
//! smelt_parallel_for(ptr task, ptr ctx, i64 n, i64 grain)` (task type `void(ptr
//! ctx, i64 begin, i64 end)`) when it is large enough to be worth threads, with
//! a grain of roughly [`TASK_WORK`] scalar operations. Update-slice and scatter
//! kernels first copy their operands into their outputs unless they are the
//! same buffer; a random-bit kernel's new state is written after its launch.
//! Dots call a GEMM function (`void gemm(a, b, c, i64 batch, i64 m, i64 n, i64
//! k, epilogue, ctx)`) with the epilogue kernel compiled as `void
//! epilogue_N(ptr bufs, i64 b, i64 i0, i64 i1, i64 j0, i64 j1)` over output
//! blocks; convolutions call a kernel-ABI function and then run their epilogue
//! as a kernel in place. Copies are `memcpy` (or `memmove` when they overlap);
//! parallel copies stage sources that another move overwrites in scratch space
//! after the program's temporaries. `while` and `conditional` are control flow,
//! constants are private globals.
//!
//! With profiling on, `smelt_run` restarts the clock as it begins and calls
//! `smelt_profile_mark(counters, slot)` after every kernel, copy, dot and
//! convolution step (at any depth), so each step is charged the time since the
//! previous mark (a while loop's state copies go to the step after them);
//! `smelt_profile_counters` is an exported global of `1 + 2 * slots` `i64`s
//! the executable reads back.

use std::collections::HashMap;

use inkwell::IntPredicate;
use inkwell::module::Linkage;
use inkwell::values::{BasicMetadataValueEnum, FunctionValue, IntValue, PointerValue};
use smelt_hlo::DType;
use smelt_kernel::{BufRef, Buffer, ConvStep, DotStep, KernelBody, KernelId, Program, Step};

use crate::conv::{ConvSpec, conv_function};
use crate::error::{CpuError, Result, invalid};
use crate::gemm::{GemmSpec, gemm_function, gemm_type};
use crate::routines::Routine;
use inkwell::context::Context;
use inkwell::module::Module;
use inkwell::targets::TargetMachine;
use smelt_llvm::codegen::{Cg, Env, Io, LaunchShape, Slot, TargetAttrs, count, launch_shape, param};
use smelt_runtime::routines::conv_gemm::{CONV_GEMM_SYMBOL, EpilogueView};

/// What the executable needs to know about the module beyond its code.
#[derive(Clone, Debug, Default)]
pub struct ModuleInfo {
    /// Bytes of the temporary arena: the program's temporaries, then scratch
    /// space this backend adds (staging for parallel copies).
    pub arena_bytes: usize,
    /// Parameters the program writes (the executable hands it private copies).
    pub written_params: Vec<bool>,
    /// Results some top-level step writes in full (see [`fully_written`]):
    /// the executable need not initialize them.
    pub written_results: Vec<bool>,
    /// The module's exported functions (`smelt_run`, `kernel_N`), for symbol maps.
    pub functions: Vec<String>,
    /// With profiling: what each slot of `smelt_profile_counters` times (one
    /// per kernel, copy, dot or convolution step, in program order).
    pub profile_labels: Vec<String>,
    /// With profiling: the work of each slot's step per call.
    pub profile_work: Vec<smelt_kernel::StepWork>,
    /// GEMM and convolution routines the module declares without defining
    /// them ([`Routines::Shared`]): objects from `routines.rs` must be linked beside it.
    pub routines: Vec<Routine>,
    /// Kernel entry points the module declares for other modules of the
    /// program to define ([`build_module_with`]): kernel, slots, name.
    pub remote_entries: Vec<(KernelId, Vec<Slot>, String)>,
    /// The kernel functions named in the module (`Cg::kernel_functions`).
    pub kernel_functions: Vec<(u32, String)>,
    /// Block epilogues the module declares for another module of the
    /// program to define ([`build_kernel_module`]), by name.
    pub remote_epilogues: Vec<(Epilogue, String)>,
    /// The block epilogues defined in the module: canonical kernel and
    /// function name (for [`kernel_instructions`]).
    pub epilogue_functions: Vec<(u32, String)>,
    /// Convolutions the generic routine computes ([`Convs`]), in the order
    /// of their descriptors ([`conv_descriptor_symbol`]): the executable
    /// builds their specialized routines in the background and hands each
    /// over when it is ready (`Executable::new`), with these options.
    pub generic_convs: Vec<ConvSpec>,
    pub generic_conv_options: Option<crate::CompileOptions>,
}

/// A block epilogue's function ([`Driver::block_epilogue_fn`]): everything
/// its code depends on, so identical layers share one.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Epilogue {
    /// The epilogue kernel (canonical, `Cg::canonical_kernel`).
    kid: KernelId,
    /// Its buffers: the product, the kernel's other inputs, the output.
    slots: Vec<Slot>,
    /// The routine's output viewed as `[batch, m, n]`.
    m: i64,
    n: i64,
}

impl Epilogue {
    /// The epilogue kernel (canonical).
    pub(crate) fn kernel(&self) -> KernelId {
        self.kid
    }
}

/// Where the GEMM routines a module calls are defined.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Routines {
    /// Generated into the module (AOT objects and `--emit` stand alone).
    InModule,
    /// Declared only; the JIT links the shared objects of `routines.rs`.
    Shared,
}

/// The symbol of the `index`th descriptor of a module's generic
/// convolutions (`ModuleInfo::generic_convs`).
pub(crate) fn conv_descriptor_symbol(index: usize) -> String {
    format!("smelt_conv_descriptor_{index}")
}

/// Which routine computes a convolution ([`Routines::Shared`] only: modules
/// that define their routines always specialize).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Convs<'o> {
    /// The routine generated for its shapes.
    Specialized,
    /// The generic routine (`smelt_runtime::routines::conv_gemm`) wherever
    /// it applies ([`crate::conv::conv_gemm`]).
    Generic,
    /// The generic routine where it applies and the specialized one is not
    /// at hand without a build (`routines::available`).
    UntilBuilt(&'o crate::CompileOptions),
}

/// Builds the LLVM module for `program`.
pub(crate) fn build_module<'ctx>(
    cx: &'ctx Context,
    program: &Program,
    target: &TargetAttrs,
    tm: &TargetMachine,
    routines: Routines,
) -> Result<(Module<'ctx>, ModuleInfo)> {
    build_module_with(cx, program, target, tm, routines, Convs::Specialized, Vec::new(), &HashMap::new())
}

/// [`build_module`], with the entry points of the kernels `remote` marks
/// (per kernel, see [`kernel_shards`]) only declared: `ModuleInfo::remote_entries`
/// lists them for [`build_kernel_module`]; and the kernels of `tiles` run
/// by the tile interpreter (their library groups join `ModuleInfo::routines`;
/// [`Routines::Shared`] only).
#[allow(clippy::too_many_arguments)]
pub(crate) fn build_module_with<'ctx>(
    cx: &'ctx Context,
    program: &Program,
    target: &TargetAttrs,
    tm: &TargetMachine,
    routines: Routines,
    convs: Convs<'_>,
    remote: Vec<bool>,
    tiles: &HashMap<u32, crate::tiles::TileKernel>,
) -> Result<(Module<'ctx>, ModuleInfo)> {
    smelt_llvm::codegen::check_sizes(program)?;
    let mut cg = Cg::new(cx, program, target, tm);
    cg.remote = remote;
    if routines == Routines::Shared {
        for (kid, plan) in tiles {
            let stub = smelt_llvm::codegen::TileStub {
                code: plan.code.clone(),
                fns: plan.fns.iter().map(|f| f.symbol()).collect(),
            };
            cg.tiles.insert(cg.canonical_kernel(KernelId(*kid)).0, stub);
        }
    }
    let mut info = Driver::new(&mut cg, routines, convs).emit_program()?;
    if routines == Routines::Shared {
        info.routines.extend(crate::tiles::groups(tiles).into_iter().map(Routine::Tiles));
    }
    if let Err(e) = cg.module.verify() {
        return Err(CpuError::llvm(format!("the generated module does not verify: {e}")));
    }
    info.functions.extend(cg.remote_entries.iter().map(|e| e.2.clone()));
    info.functions.extend(info.remote_epilogues.iter().map(|e| e.1.clone()));
    info.remote_entries = std::mem::take(&mut cg.remote_entries);
    Ok((cg.module, info))
}

/// A module defining the kernel entry points `entries` (from another module's
/// `ModuleInfo::remote_entries`), for parallel code generation.
pub(crate) fn build_kernel_module<'ctx>(
    cx: &'ctx Context,
    program: &Program,
    target: &TargetAttrs,
    tm: &TargetMachine,
    entries: &[(KernelId, Vec<Slot>, String)],
    epilogues: &[(Epilogue, String)],
) -> Result<Module<'ctx>> {
    let mut cg = Cg::new(cx, program, target, tm);
    for (kid, slots, name) in entries {
        cg.define_entry(*kid, slots.clone(), name)?;
    }
    for (e, name) in epilogues {
        define_epilogue(&mut cg, e, name, Linkage::External)?;
    }
    if let Err(e) = cg.module.verify() {
        return Err(CpuError::llvm(format!("a generated kernel module does not verify: {e}")));
    }
    Ok(cg.module)
}

/// Kernels weighing less than this in all ([`Size::weight`]) are not worth a
/// second module: a module costs LLVM's fixed overhead.
const SHARD_MIN_WEIGHT: usize = 400;

/// What a loop adds to a kernel's weight when kernels are balanced across
/// modules ([`kernel_shards`]): LLVM's loop passes and the vector, epilogue
/// and remainder copies of a vectorized loop cost more than the loop's few
/// instructions say.
const LOOP_WEIGHT: usize = 64;

/// Code of a kernel (or the rest of a module) before optimization.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Size {
    pub instructions: usize,
    pub loops: usize,
}

impl std::ops::AddAssign for Size {
    fn add_assign(&mut self, o: Size) {
        self.instructions += o.instructions;
        self.loops += o.loops;
    }
}

impl Size {
    /// The weight balancing uses.
    fn weight(self) -> usize {
        self.instructions + LOOP_WEIGHT * self.loops
    }
}

/// The code ([`Size`], before optimization) of each kernel's functions (entry
/// points and bodies, or its block epilogue, with the helpers each calls,
/// which are inlined into it: the math library) in `module`, a module
/// [`build_module`] made for `program` with `info`, and of the rest
/// (`smelt_run` and its helpers).
pub(crate) fn kernel_instructions(module: &Module<'_>, program: &Program, info: &ModuleInfo) -> (Vec<Size>, Size) {
    let owner: std::collections::HashMap<String, usize> = info
        .kernel_functions
        .iter()
        .flat_map(|(kid, name)| [(name.clone(), *kid as usize), (format!("{name}.body"), *kid as usize)])
        .chain(
            info.epilogue_functions
                .iter()
                .flat_map(|(kid, name)| [(name.clone(), *kid as usize), (format!("{name}.body"), *kid as usize)]),
        )
        .collect();
    let kernel_of = |name: &str| owner.get(name).copied();
    let functions: Vec<_> = module.get_functions().collect();
    // Instructions and loops (header blocks, named `*.head` by the code
    // generator).
    let size_of = |f: &FunctionValue<'_>| -> Size {
        f.get_basic_blocks().iter().fold(Size::default(), |s, b| Size {
            instructions: s.instructions + b.get_instructions().count(),
            loops: s.loops + usize::from(b.get_name().to_bytes().ends_with(b".head")),
        })
    };
    let sizes: std::collections::HashMap<String, Size> =
        functions.iter().map(|f| (f.get_name().to_string_lossy().into_owned(), size_of(f))).collect();
    let always_inline = inkwell::attributes::Attribute::get_named_enum_kind_id("alwaysinline");
    let inlined: std::collections::HashSet<String> = functions
        .iter()
        .filter(|f| f.get_enum_attribute(inkwell::attributes::AttributeLoc::Function, always_inline).is_some())
        .map(|f| f.get_name().to_string_lossy().into_owned())
        .collect();
    let mut per_kernel = vec![Size::default(); program.kernels.len()];
    let mut rest = Size::default();
    for f in &functions {
        let name = f.get_name().to_string_lossy();
        if kernel_of(&name).is_none() && f.get_linkage() == Linkage::Internal {
            continue; // a helper: counted where it is called
        }
        let mut size = sizes.get(name.as_ref()).copied().unwrap_or_default();
        let mut callees = std::collections::HashSet::new();
        for b in f.get_basic_blocks() {
            for i in b.get_instructions() {
                if i.get_opcode() != inkwell::values::InstructionOpcode::Call {
                    continue;
                }
                let callee = i.get_operand(i.get_num_operands().saturating_sub(1)).and_then(|o| match o {
                    inkwell::values::Operand::Value(v) => Some(v),
                    inkwell::values::Operand::Block(_) => None,
                });
                // An always-inline helper (the math library's functions) is
                // copied into every call site; others are counted once.
                if let Some(c) = callee.map(|c| c.get_name().to_string_lossy().into_owned())
                    && kernel_of(&c).is_none()
                    && (inlined.contains(&c) || callees.insert(c.clone()))
                {
                    size += sizes.get(&c).copied().unwrap_or_default();
                }
            }
        }
        match kernel_of(&name).and_then(|k| per_kernel.get_mut(k)) {
            Some(w) => *w += size,
            None => rest += size,
        }
    }
    (per_kernel, rest)
}

/// Marks the kernels `steps` launch inside a while loop (`in_loop`: these
/// steps are).
fn mark_loop_kernels(steps: &[Step], in_loop: bool, marks: &mut [bool]) {
    for step in steps {
        match step {
            Step::Kernel { kernel, .. } if in_loop => {
                if let Some(m) = marks.get_mut(kernel.0 as usize) {
                    *m = true;
                }
            }
            Step::While { cond, body, .. } => {
                mark_loop_kernels(cond, true, marks);
                mark_loop_kernels(body, true, marks);
            }
            Step::Conditional { branches, .. } => {
                for b in branches {
                    mark_loop_kernels(b, in_loop, marks);
                }
            }
            _ => {}
        }
    }
}

/// The most LLVM instructions (before optimization) of a program's module
/// whose while loops make it worth `default<O3>`: there O3's scalar passes
/// pay in every iteration (a 65,532-step sliding-window loop, under 400
/// instructions, ran 23% faster), while on larger modules they cost compile
/// time for nothing measurable (an LSTM training step's module, about 2,400
/// instructions: 390 -> 590 ms; an LSTM forward pass's, 700: 105 -> 145 ms).
pub(crate) const LOOP_O3_MAX_INSTRUCTIONS: usize = 500;

/// Which of `shards` modules defines each kernel's entry points (0: the
/// program's own module, with `smelt_run`), and whether the program's module
/// gets `default<O3>` (a small module with while loops, see
/// [`LOOP_O3_MAX_INSTRUCTIONS`]; kernel modules always get the kernel
/// pipeline). Kernels a loop launches stay in the program's module; the
/// others (dot and convolution epilogues included), heaviest first (`sizes`,
/// [`kernel_instructions`], weighed by [`Size::weight`]), go each to the
/// least loaded module, the program's module starting with the rest of its
/// code (`rest`), or, when it gets O3, to the kernel modules only.
pub(crate) fn kernel_shards(program: &Program, sizes: &[Size], rest: Size, shards: usize) -> (Vec<usize>, bool) {
    let n = sizes.len();
    let instructions: Vec<usize> = sizes.iter().map(|s| s.instructions).collect();
    let weights: Vec<usize> = sizes.iter().map(|s| s.weight()).collect();
    let (rest_weight, rest) = (rest.weight(), rest.instructions);
    // Kernels a loop runs stay beside `smelt_run`, where LLVM may inline them
    // into the loop (a per-iteration call across modules costs).
    let mut in_loops = vec![false; n];
    mark_loop_kernels(&program.steps, false, &mut in_loops);
    let total: usize = instructions.iter().sum();
    let looped: usize = (0..n).filter(|&i| in_loops[i]).map(|i| instructions[i]).sum();
    let has_loops = in_loops.contains(&true);
    // A lone kernel goes to a module of its own too, beside `smelt_run`
    // (`mlp2_forward`, one softmax kernel beside two dot epilogues: 63 -> 44
    // ms).
    if shards < 2 || weights.iter().sum::<usize>() < SHARD_MIN_WEIGHT {
        return (vec![0; n], has_loops && total + rest <= LOOP_O3_MAX_INSTRUCTIONS);
    }
    let o3 = has_loops && looped + rest <= LOOP_O3_MAX_INSTRUCTIONS;
    let first = usize::from(o3);
    let mut load = vec![0usize; shards];
    load[0] = rest_weight;
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(weights[i]));
    let mut shard = vec![0; n];
    for i in order {
        if in_loops[i] {
            load[0] += weights[i];
            continue;
        }
        let s = (first..shards).min_by_key(|&s| load[s]).unwrap_or(0);
        shard[i] = s;
        load[s] += weights[i];
    }
    (shard, o3)
}

/// Whether `program` launches any kernel inside a while loop.
pub(crate) fn has_loop_kernels(program: &Program) -> bool {
    let mut marks = vec![false; program.kernels.len()];
    mark_loop_kernels(&program.steps, false, &mut marks);
    marks.contains(&true)
}

/// Launches with less work than this (scalar operations) run on the calling thread.
pub(crate) const PARALLEL_WORK: f64 = 200_000.0;
/// Scalar operations per parallel task, roughly.
pub(crate) const TASK_WORK: f64 = 50_000.0;

/// Pointers `smelt_run` works with.
#[derive(Clone)]
struct RunCx<'ctx> {
    params: PointerValue<'ctx>,
    results: PointerValue<'ctx>,
    temp: PointerValue<'ctx>,
    consts: Vec<PointerValue<'ctx>>,
    /// Temporaries kept in stack slots of `smelt_run` (see [`stack_temps`]), by offset.
    stack: std::collections::HashMap<usize, PointerValue<'ctx>>,
}

/// Temporaries of at most this many bytes live in stack slots of `smelt_run`.
const STACK_TEMP_BYTES: usize = 64;

/// The temporaries `smelt_run` keeps in its own stack slots instead of the
/// arena, as `(offset, bytes)`: the small ones (at most [`STACK_TEMP_BYTES`])
/// that no buffer of the program starting elsewhere overlaps. Loop counters and the scalars
/// a loop carries are such buffers; where every step that touches one is
/// inlined into `smelt_run` (kernels inside loops), LLVM keeps it in a
/// register instead of storing and reloading it each iteration.
fn stack_temps(program: &Program) -> Vec<(usize, usize)> {
    let mut refs = Vec::new();
    for s in &program.steps {
        s.for_each_buf(&mut |r| {
            if let Buffer::Temp(off) = r.buffer
                && r.ty.byte_size() > 0
            {
                refs.push((off, r.ty.byte_size()));
            }
        });
    }
    // Buffers that start at the same offset share one slot as large as the
    // largest (a loop's predicate and a counter that reuses its bytes).
    refs.sort_unstable_by_key(|&(off, n)| (off, std::cmp::Reverse(n)));
    refs.dedup_by_key(|r| r.0);
    // Sorted by offset, a region overlaps an earlier one when the furthest end
    // before it passes its start, and a later one when the next starts inside it.
    let mut out = Vec::new();
    let mut end_before = 0usize;
    for (i, &(off, n)) in refs.iter().enumerate() {
        let clear_before = i == 0 || end_before <= off;
        let clear_after = refs.get(i + 1).is_none_or(|&(next, _)| next >= off + n);
        if n <= STACK_TEMP_BYTES && clear_before && clear_after {
            out.push((off, n));
        }
        end_before = end_before.max(off + n);
    }
    out
}

/// Where a buffer's bytes are, for overlap tests.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Region {
    Whole(u8, u32),
    Bytes(usize, usize),
}

fn region(r: &BufRef) -> Region {
    match r.buffer {
        Buffer::Param(n) => Region::Whole(0, n),
        Buffer::Result(n) => Region::Whole(1, n),
        Buffer::Const(n) => Region::Whole(2, n),
        Buffer::Temp(off) => Region::Bytes(off, r.ty.byte_size()),
    }
}

fn overlap(a: &BufRef, b: &BufRef) -> bool {
    if a.ty.byte_size() == 0 || b.ty.byte_size() == 0 {
        return false;
    }
    match (region(a), region(b)) {
        (Region::Whole(k, n), Region::Whole(l, m)) => k == l && n == m,
        (Region::Bytes(o, s), Region::Bytes(p, t)) => o < p + t && p < o + s,
        _ => false,
    }
}

fn identical(a: &BufRef, b: &BufRef) -> bool {
    a.buffer == b.buffer && a.ty.byte_size() == b.ty.byte_size()
}

/// The alignment a buffer is known to have.
fn buffer_align(r: &BufRef) -> u32 {
    let natural = r.ty.dtype.byte_size().max(1) as u32;
    match r.buffer {
        Buffer::Temp(off) => {
            let a = if off == 0 { 64 } else { 1u32 << off.trailing_zeros().min(6) };
            a.max(1)
        }
        Buffer::Const(_) => 64,
        Buffer::Param(_) | Buffer::Result(_) => natural,
    }
}

/// The step driver's view of the emitter: `Cg` plus what only `smelt_run`
/// needs (scratch space, written parameters, profiling counters).
struct Driver<'a, 'ctx, 'p> {
    cg: &'a mut Cg<'ctx, 'p>,
    /// Scratch bytes after the program's temporaries (staging for parallel copies).
    scratch_bytes: usize,
    /// Parameters some step writes.
    written_params: Vec<bool>,
    /// With profiling: the counters global and the labels of its slots so far.
    profile_counters: Option<PointerValue<'ctx>>,
    profile_labels: Vec<String>,
    profile_work: Vec<smelt_kernel::StepWork>,
    /// While loops around the steps being emitted.
    loop_depth: u32,
    routines: Routines,
    convs: Convs<'a>,
    /// The routines declared so far ([`Routines::Shared`]).
    shared: Vec<Routine>,
    /// Convolutions given to the generic routine so far.
    generic_convs: Vec<ConvSpec>,
    /// Block epilogues made so far, by canonical kernel (`Cg::canonical_kernel`),
    /// slots and output view: identical layers share one.
    epilogues: HashMap<Epilogue, FunctionValue<'ctx>>,
    /// Block epilogues declared here for another module to define.
    remote_epilogues: Vec<(Epilogue, String)>,
    /// Block epilogues defined here: canonical kernel and name.
    epilogue_functions: Vec<(u32, String)>,
}

/// Defines block epilogue `e` as function `name` of `cg`'s module: `void(ptr
/// bufs, i64 b, i64 i0, i64 i1, i64 j0, i64 j1)` evaluates the epilogue kernel
/// on rows `[i0, i1)` and columns `[j0, j1)` of batch `b` of the routine's
/// `[batch, m, n]` output, in place; `bufs` = {product, the kernel's other
/// inputs, output}.
fn define_epilogue<'ctx>(
    cg: &mut Cg<'ctx, '_>,
    e: &Epilogue,
    name: &str,
    linkage: Linkage,
) -> Result<FunctionValue<'ctx>> {
    let program = cg.program;
    let Some(k) = program.kernels.get(e.kid.0 as usize) else {
        invalid!("epilogue kernel {} out of range", e.kid.0);
    };
    let KernelBody::Loop { space, graph, outputs } = &k.body else {
        invalid!("epilogue kernel {} is not a loop kernel", k.name);
    };
    let (slots, m, n) = (&e.slots, e.m, e.n);
    let t = cg.t;
    let f = cg.module.add_function(
        name,
        t.void.fn_type(&[t.ptr.into(), t.i64.into(), t.i64.into(), t.i64.into(), t.i64.into(), t.i64.into()], false),
        Some(linkage),
    );
    // The body takes the buffers as pointer parameters carrying what buffer
    // assignment guarantees (`noalias`, as kernel bodies do), so LLVM hoists
    // per-row loads (a channel's scale and shift) out of the column loop and
    // vectorizes it without runtime alias checks (Inception v2's BatchNorm
    // epilogue: six per-channel loads per element before, none after; its
    // convolution's time was within the machine's noise either way).
    let mut params: Vec<inkwell::types::BasicMetadataTypeEnum<'ctx>> = vec![t.ptr.into(); slots.len()];
    params.extend([inkwell::types::BasicMetadataTypeEnum::from(t.i64); 5]);
    let body = cg.module.add_function(&format!("{name}.body"), t.void.fn_type(&params, false), None);
    cg.stamp(body);
    cg.internal_inline(body);
    cg.slot_attributes(body, slots);
    cg.stamp(f);
    cg.begin_fn(f);
    let bufs = param(f, 0)?.into_pointer_value();
    let mut args: Vec<inkwell::values::BasicMetadataValueEnum<'ctx>> = Vec::with_capacity(slots.len() + 5);
    let mut loaded: Vec<PointerValue<'ctx>> = Vec::with_capacity(slots.len());
    for (i, s) in slots.iter().enumerate() {
        let p = match s.same_as {
            Some(j) if j < i => loaded[j],
            _ => cg.load_ptr(bufs, i as u64)?,
        };
        loaded.push(p);
        args.push(p.into());
    }
    for i in 1..6 {
        args.push(param(f, i)?.into_int_value().into());
    }
    cg.b.build_call(body, &args, "")?;
    cg.b.build_return(None)?;
    cg.end_fn()?;

    cg.begin_fn(body);
    let n_slots = slots.len() as u32;
    let bi = param(body, n_slots)?.into_int_value();
    let (i0, i1) = (param(body, n_slots + 1)?.into_int_value(), param(body, n_slots + 2)?.into_int_value());
    let (j0, j1) = (param(body, n_slots + 3)?.into_int_value(), param(body, n_slots + 4)?.into_int_value());
    let mut ptrs: Vec<PointerValue<'ctx>> = Vec::with_capacity(slots.len());
    for (i, s) in slots.iter().enumerate() {
        let p = match s.same_as {
            Some(j) if j < i => ptrs[j],
            _ => param(body, i as u32)?.into_pointer_value(),
        };
        ptrs.push(p);
    }
    let io: Vec<Io<'ctx>> = ptrs.iter().zip(k.inputs.iter().chain(&k.outputs)).map(|(&p, t)| Io::new(p, t)).collect();
    let rank = space.len();
    let rows = cg.loop_begin(i0, i1, 1, "i")?;
    let row = cg.b.build_int_mul(bi, cg.i64c(m), "")?;
    let row = cg.b.build_int_add(row, rows.index, "")?;
    // Indices of the output dims: when trailing dims span exactly the n
    // columns (`[.., n]`, or NCHW's `[1, C, H, W]` over `[C, H*W]`), the
    // leading ones come from the row, once per row, and the trailing ones
    // from the column; otherwise all from the flat offset. Per-row values
    // (a per-channel scale) then stay out of the column loop, which
    // vectorizes.
    let split = (0..=rank).rev().find(|&s| space[s..].iter().product::<i64>() == n);
    let lead = match split {
        Some(s) => Some((s, decompose(cg, row, &space[..s])?)),
        None => None,
    };
    let cols = cg.loop_begin(j0, j1, 1, "j")?;
    let off = cg.b.build_int_mul(row, cg.i64c(n), "")?;
    let off = cg.b.build_int_add(off, cols.index, "")?;
    let idx = match &lead {
        Some((s, lead)) => {
            let mut v = lead.clone();
            v.extend(decompose(cg, cols.index, &space[*s..])?);
            v
        }
        None => decompose(cg, off, space)?,
    };
    let mut env = Env::with_indices(graph, idx);
    env.identity = Some((off, space.clone()));
    cg.emit_nodes(&mut env, &io, outputs)?;
    let v = cg.value(&env, outputs[0])?;
    let o = &io[io.len() - 1];
    cg.store_elem(o.ptr, o.dtype, off, v)?;
    // Columns vectorized but not interleaved, rows as written: a block is a
    // strip of rows, and LLVM's interleaved and unrolled copies cost compile
    // time for nothing measurable (a bias-and-ReLU epilogue took 14 ms of
    // LLVM; programs with epilogues compiled 1.1-1.4x faster without them,
    // run times even).
    cg.loop_end_single(cols)?;
    cg.loop_end_plain(rows)?;
    cg.b.build_return(None)?;
    cg.end_fn()?;
    Ok(f)
}

/// Row-major indices of the flat offset `x` in `dims`.
fn decompose<'ctx>(cg: &Cg<'ctx, '_>, x: IntValue<'ctx>, dims: &[i64]) -> Result<Vec<IntValue<'ctx>>> {
    let mut idx = vec![cg.i64c(0); dims.len()];
    let mut rest = x;
    for d in (0..dims.len()).rev() {
        if d == 0 {
            idx[0] = rest;
            break;
        }
        let e = cg.i64c(dims[d].max(1));
        idx[d] = cg.b.build_int_unsigned_rem(rest, e, "")?;
        rest = cg.b.build_int_unsigned_div(rest, e, "")?;
    }
    Ok(idx)
}

impl<'ctx, 'p> std::ops::Deref for Driver<'_, 'ctx, 'p> {
    type Target = Cg<'ctx, 'p>;

    fn deref(&self) -> &Cg<'ctx, 'p> {
        self.cg
    }
}

impl<'ctx, 'p> std::ops::DerefMut for Driver<'_, 'ctx, 'p> {
    fn deref_mut(&mut self) -> &mut Cg<'ctx, 'p> {
        self.cg
    }
}

impl<'a, 'ctx, 'p> Driver<'a, 'ctx, 'p> {
    fn new(cg: &'a mut Cg<'ctx, 'p>, routines: Routines, convs: Convs<'a>) -> Self {
        let params = cg.program.params.len();
        Driver {
            cg,
            scratch_bytes: 0,
            written_params: vec![false; params],
            profile_counters: None,
            profile_labels: Vec::new(),
            profile_work: Vec::new(),
            loop_depth: 0,
            routines,
            convs,
            shared: Vec::new(),
            generic_convs: Vec::new(),
            epilogues: HashMap::new(),
            remote_epilogues: Vec::new(),
            epilogue_functions: Vec::new(),
        }
    }
}

impl<'ctx> Driver<'_, 'ctx, '_> {
    pub(crate) fn emit_program(&mut self) -> Result<ModuleInfo> {
        let program = self.program;
        let mut consts = Vec::with_capacity(program.constants.len());
        for (i, c) in program.constants.iter().enumerate() {
            if c.bytes.len() != c.ty.byte_size() {
                invalid!(
                    "constant {i} has {} bytes for {} elements of {}",
                    c.bytes.len(),
                    c.ty.element_count(),
                    c.ty.dtype
                );
            }
            consts.push(self.global_bytes(&format!("const_{i}"), &c.bytes));
        }
        let t = self.t;
        let f = self.module.add_function(
            "smelt_run",
            t.i32.fn_type(&[t.ptr.into(), t.ptr.into(), t.ptr.into()], false),
            Some(Linkage::External),
        );
        self.stamp(f);
        self.begin_fn(f);
        self.mark_straight_line();
        let mut stack = std::collections::HashMap::new();
        for (off, n) in stack_temps(program) {
            stack.insert(off, self.stack_slot(n, &format!("temp{off}"))?);
        }
        let rc = RunCx {
            params: param(f, 0)?.into_pointer_value(),
            results: param(f, 1)?.into_pointer_value(),
            temp: param(f, 2)?.into_pointer_value(),
            consts,
            stack,
        };
        if self.target.profile {
            let slots = count_timed(&program.steps);
            let ty = t.i64.array_type((1 + 2 * slots) as u32);
            let g = self.module.add_global(ty, None, PROFILE_COUNTERS);
            g.set_initializer(&ty.const_zero());
            g.set_linkage(Linkage::External);
            g.set_alignment(64);
            self.profile_counters = Some(g.as_pointer_value());
            self.profile_mark(-1)?;
        }
        self.emit_steps(&rc, &program.steps)?;
        self.b.build_return(Some(&t.i32.const_zero()))?;
        self.end_fn()?;
        Ok(ModuleInfo {
            arena_bytes: scratch_base(program.temp_bytes) + self.scratch_bytes,
            written_params: self.written_params.clone(),
            written_results: fully_written(program),
            functions: self
                .module
                .get_functions()
                .filter(|f| f.get_linkage() == Linkage::External && f.count_basic_blocks() > 0)
                .map(|f| f.get_name().to_string_lossy().into_owned())
                .collect(),
            routines: self.shared.clone(),
            remote_entries: Vec::new(),
            kernel_functions: self.kernel_functions(),
            remote_epilogues: std::mem::take(&mut self.remote_epilogues),
            epilogue_functions: std::mem::take(&mut self.epilogue_functions),
            generic_convs: std::mem::take(&mut self.generic_convs),
            generic_conv_options: None,
            profile_labels: self.profile_labels.clone(),
            profile_work: self.profile_work.clone(),
        })
    }

    /// With profiling on: a new counter slot for `label`, charged the time
    /// since the last mark.
    fn profile_slot(&mut self, label: String, work: smelt_kernel::StepWork) -> Result<()> {
        self.profile_labels.push(label);
        self.profile_work.push(work);
        self.profile_mark(self.profile_labels.len() as i64 - 1)
    }

    /// With profiling on: charges the time since the last mark to `slot`.
    fn profile_mark(&self, slot: i64) -> Result<()> {
        let Some(counters) = self.profile_counters else {
            return Ok(());
        };
        let t = self.t;
        let f = self.function(crate::runtime::PROFILE_MARK_SYMBOL, None, &[t.ptr.into(), t.i64.into()]);
        self.call(f, &[counters.into(), self.i64c(slot).into()])?;
        Ok(())
    }

    fn emit_steps(&mut self, rc: &RunCx<'ctx>, steps: &[Step]) -> Result<()> {
        for (i, s) in steps.iter().enumerate() {
            self.emit_step(rc, s).map_err(|e| match e {
                CpuError::Codegen(smelt_llvm::LlvmError::InvalidProgram(m)) => {
                    CpuError::invalid(format!("step {i}: {m}"))
                }
                e => e,
            })?;
            if self.profile_counters.is_some()
                && let Some(label) = step_label(self.program, s)
            {
                self.profile_slot(label, smelt_kernel::StepWork::of(self.program, s))?;
            }
        }
        Ok(())
    }

    fn emit_step(&mut self, rc: &RunCx<'ctx>, step: &Step) -> Result<()> {
        match step {
            Step::Kernel { kernel, inputs, outputs } => self.emit_kernel_step(rc, *kernel, inputs, outputs),
            Step::Copy { src, dst } => self.emit_copy(rc, src, dst),
            Step::ParallelCopy { moves } => self.emit_parallel_copy(rc, moves),
            Step::Dot(d) => self.emit_dot_step(rc, d),
            Step::Conv(c) => self.emit_conv_step(rc, c),
            Step::CustomCall(c) => self.emit_custom_call(rc, c),
            Step::While { cond, pred, body, update } => {
                let w = self.while_begin("while")?;
                self.loop_depth += 1;
                self.emit_steps(rc, cond)?;
                self.check_buf(pred)?;
                if pred.ty.dtype != DType::Pred || pred.ty.element_count() != 1 {
                    invalid!("while predicate is {} {:?}, not a pred scalar", pred.ty.dtype, pred.ty.dims);
                }
                let p = self.buf_ptr(rc, pred)?;
                let v = self.load_at(p, DType::Pred)?.into_int_value();
                self.while_test(&w, v)?;
                self.emit_steps(rc, body)?;
                self.emit_parallel_copy(rc, update)?;
                if self.profile_counters.is_some() && !update.is_empty() {
                    // The copies that carry the body's results into the loop
                    // state, timed apart from the next iteration's first step.
                    let moved = Step::ParallelCopy { moves: update.clone() };
                    let label = format!("loop-state update: {}", step_label(self.program, &moved).unwrap_or_default());
                    self.profile_slot(label, smelt_kernel::StepWork::of(self.program, &moved))?;
                }
                self.loop_depth -= 1;
                Ok(self.while_end(w)?)
            }
            Step::Conditional { index, branches } => self.emit_conditional(rc, index, branches),
        }
    }

    // ---- buffers ----

    fn check_buf(&self, r: &BufRef) -> Result<()> {
        let p = self.program;
        let size = r.ty.byte_size();
        let (what, limit) = match r.buffer {
            Buffer::Param(n) => ("parameter", p.params.get(n as usize).map(|t| t.byte_size())),
            Buffer::Result(n) => ("result", p.results.get(n as usize).map(|t| t.byte_size())),
            Buffer::Const(n) => ("constant", p.constants.get(n as usize).map(|c| c.bytes.len())),
            // Past the program's temporaries: the backend's own scratch (a
            // product its epilogue requantizes, `product_place`).
            Buffer::Temp(off) if off >= scratch_base(p.temp_bytes) => {
                ("scratch", (scratch_base(p.temp_bytes) + self.scratch_bytes).checked_sub(off))
            }
            Buffer::Temp(off) => ("temporary", p.temp_bytes.checked_sub(off)),
        };
        match limit {
            Some(l) if size <= l => Ok(()),
            _ => invalid!("{what} buffer {:?} does not hold {} {:?}", r.buffer, r.ty.dtype, r.ty.dims),
        }
    }

    /// Records that a step writes `r`.
    fn note_write(&mut self, r: &BufRef) -> Result<()> {
        self.check_buf(r)?;
        match r.buffer {
            Buffer::Const(n) => invalid!("a step writes constant {n}"),
            Buffer::Param(n) => {
                if let Some(w) = self.written_params.get_mut(n as usize) {
                    *w = true;
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn buf_ptr(&self, rc: &RunCx<'ctx>, r: &BufRef) -> Result<PointerValue<'ctx>> {
        self.check_buf(r)?;
        match r.buffer {
            Buffer::Param(n) => Ok(self.load_invariant_ptr(rc.params, n as u64)?),
            Buffer::Result(n) => Ok(self.load_invariant_ptr(rc.results, n as u64)?),
            Buffer::Const(n) => match rc.consts.get(n as usize) {
                Some(&p) => Ok(p),
                None => invalid!("constant {n} out of range"),
            },
            Buffer::Temp(off) => match rc.stack.get(&off) {
                Some(&p) => Ok(p),
                None => Ok(self.byte_offset(rc.temp, self.i64c(off as i64))?),
            },
        }
    }

    /// A 64-byte aligned stack slot of `bytes` bytes in `smelt_run`'s entry block.
    fn stack_slot(&self, bytes: usize, name: &str) -> Result<PointerValue<'ctx>> {
        let p = self.alloca_array(self.t.i8, bytes as u32, name)?;
        if let Some(i) = p.as_instruction() {
            i.set_alignment(64).map_err(|e| CpuError::llvm(e.to_string()))?;
        }
        Ok(p)
    }

    /// `dst = src` for `bytes` bytes (memmove when they may overlap).
    fn copy_bytes(
        &self,
        dst: PointerValue<'ctx>,
        da: u32,
        src: PointerValue<'ctx>,
        sa: u32,
        bytes: usize,
        may_overlap: bool,
    ) -> Result<()> {
        if bytes == 0 {
            return Ok(());
        }
        let n = self.i64c(bytes as i64);
        if may_overlap {
            self.b.build_memmove(dst, da, src, sa, n)?;
        } else {
            self.b.build_memcpy(dst, da, src, sa, n)?;
        }
        Ok(())
    }

    // ---- steps ----

    fn emit_copy(&mut self, rc: &RunCx<'ctx>, src: &BufRef, dst: &BufRef) -> Result<()> {
        if src.ty.byte_size() != dst.ty.byte_size() {
            invalid!("copy of {} bytes into {} bytes", src.ty.byte_size(), dst.ty.byte_size());
        }
        self.note_write(dst)?;
        if identical(src, dst) {
            return self.check_buf(src);
        }
        let s = self.buf_ptr(rc, src)?;
        let d = self.buf_ptr(rc, dst)?;
        self.copy_bytes(d, buffer_align(dst), s, buffer_align(src), src.ty.byte_size(), overlap(src, dst))
    }

    fn emit_parallel_copy(&mut self, rc: &RunCx<'ctx>, moves: &[(BufRef, BufRef)]) -> Result<()> {
        for (s, d) in moves {
            if s.ty.byte_size() != d.ty.byte_size() {
                invalid!("parallel copy of {} bytes into {} bytes", s.ty.byte_size(), d.ty.byte_size());
            }
            self.check_buf(s)?;
            self.note_write(d)?;
        }
        // Sources another move overwrites are staged first: small ones in a
        // stack slot, the others in scratch space.
        let base = scratch_base(self.program.temp_bytes);
        let mut staged: Vec<Option<PointerValue<'ctx>>> = vec![None; moves.len()];
        let mut used = 0usize;
        for (i, (s, _)) in moves.iter().enumerate() {
            if moves.iter().enumerate().any(|(j, (_, d))| j != i && overlap(s, d)) {
                let bytes = s.ty.byte_size();
                staged[i] = Some(if bytes <= STACK_TEMP_BYTES {
                    self.stack_slot(bytes, "staged")?
                } else {
                    let p = self.byte_offset(rc.temp, self.i64c((base + used) as i64))?;
                    used += bytes.div_ceil(64) * 64;
                    p
                });
            }
        }
        self.scratch_bytes = self.scratch_bytes.max(used);
        for (i, (s, _)) in moves.iter().enumerate() {
            if let Some(dp) = staged[i] {
                let sp = self.buf_ptr(rc, s)?;
                self.copy_bytes(dp, 64, sp, buffer_align(s), s.ty.byte_size(), false)?;
            }
        }
        for (i, (s, d)) in moves.iter().enumerate() {
            let dp = self.buf_ptr(rc, d)?;
            match staged[i] {
                Some(sp) => {
                    self.copy_bytes(dp, buffer_align(d), sp, 64, s.ty.byte_size(), false)?;
                }
                None if identical(s, d) => {}
                None => {
                    let sp = self.buf_ptr(rc, s)?;
                    self.copy_bytes(dp, buffer_align(d), sp, buffer_align(s), s.ty.byte_size(), overlap(s, d))?;
                }
            }
        }
        Ok(())
    }

    fn emit_conditional(&mut self, rc: &RunCx<'ctx>, index: &BufRef, branches: &[Vec<Step>]) -> Result<()> {
        let n = branches.len();
        if n == 0 {
            invalid!("conditional without branches");
        }
        self.check_buf(index)?;
        let p = self.buf_ptr(rc, index)?;
        let i = match index.ty.dtype {
            // pred: branch 0 when true, 1 when false.
            DType::Pred if n == 2 => {
                let v = self.load_at(p, DType::Pred)?.into_int_value();
                let b = self.b.build_not(v, "")?;
                self.b.build_int_z_extend(b, self.t.i64, "")?
            }
            DType::S32 => {
                let v = self.load_at(p, DType::S32)?.into_int_value();
                let v = self.b.build_int_s_extend(v, self.t.i64, "")?;
                let last = self.i64c(n as i64 - 1);
                let bad = self.b.build_int_compare(IntPredicate::UGT, v, last, "")?;
                self.b.build_select(bad, last, v, "")?.into_int_value()
            }
            d => invalid!("conditional index of type {d} with {n} branches"),
        };
        let join = self.block("cond.join")?;
        let blocks: Vec<_> = (0..n).map(|b| self.block(&format!("branch{b}"))).collect::<Result<_, _>>()?;
        let cases: Vec<(IntValue<'ctx>, _)> =
            blocks.iter().enumerate().take(n - 1).map(|(b, &bb)| (self.i64c(b as i64), bb)).collect();
        self.b.build_switch(i, blocks[n - 1], &cases)?;
        for (b, bb) in blocks.into_iter().enumerate() {
            self.b.position_at_end(bb);
            self.emit_steps(rc, &branches[b])?;
            self.b.build_unconditional_branch(join)?;
        }
        self.b.position_at_end(join);
        Ok(())
    }

    /// What each buffer of a launch guarantees (see `kernels`).
    fn slots(&self, inputs: &[BufRef], outputs: &[BufRef]) -> Vec<Slot> {
        let all: Vec<&BufRef> = inputs.iter().chain(outputs).collect();
        let ni = inputs.len();
        (0..all.len())
            .map(|i| {
                let same_as = (0..i).find(|&j| identical(all[j], all[i]));
                let noalias = !(0..all.len()).any(|j| j != i && (i >= ni || j >= ni) && overlap(all[i], all[j]));
                Slot { noalias, align: buffer_align(all[i]), bytes: all[i].ty.byte_size() as u64, same_as }
            })
            .collect()
    }

    fn emit_kernel_step(
        &mut self,
        rc: &RunCx<'ctx>,
        kid: KernelId,
        inputs: &[BufRef],
        outputs: &[BufRef],
    ) -> Result<()> {
        let program = self.program;
        let Some(k) = program.kernels.get(kid.0 as usize) else {
            invalid!("kernel {} out of range", kid.0);
        };
        if inputs.len() != k.inputs.len() || outputs.len() != k.outputs.len() {
            invalid!(
                "kernel {} takes {} inputs and {} outputs, launched with {} and {}",
                k.name,
                k.inputs.len(),
                k.outputs.len(),
                inputs.len(),
                outputs.len()
            );
        }
        for (b, t) in inputs.iter().zip(&k.inputs).chain(outputs.iter().zip(&k.outputs)) {
            if b.ty.dtype != t.dtype || b.ty.element_count() != t.element_count() {
                invalid!("kernel {}: buffer {} {:?} for {} {:?}", k.name, b.ty.dtype, b.ty.dims, t.dtype, t.dims);
            }
            self.check_buf(b)?;
        }
        for o in outputs {
            self.note_write(o)?;
        }
        let mut ptrs = Vec::with_capacity(inputs.len() + outputs.len());
        for b in inputs.iter().chain(outputs) {
            ptrs.push(self.buf_ptr(rc, b)?);
        }
        // In-place kernels (update-slice, scatter) start from their operands: the
        // lowering puts the copies that make that so before the launch.
        let slots = self.slots(inputs, outputs);
        let shape = launch_shape(k)?;
        if self.loop_depth > 0 && self.serial(&shape) {
            // In a loop, a kernel run on this thread is inlined into the
            // driver: per-iteration scalar work costs no call, no pointer
            // array, and LLVM optimizes across the kernels of one iteration.
            // (Elsewhere a call costs nothing that matters, and inlining every
            // kernel would grow one function past what LLVM optimizes quickly.)
            if shape.n > 0 {
                let body = self.kernel_body(kid, &slots)?;
                let mut args: Vec<BasicMetadataValueEnum<'ctx>> = ptrs.iter().map(|&p| p.into()).collect();
                args.push(self.i64c(0).into());
                args.push(self.i64c(shape.n).into());
                self.call(body, &args)?;
            }
        } else {
            let f = self.kernel_fn(kid, slots)?;
            let arr = self.alloca_array(self.t.ptr, ptrs.len() as u32, "bufs")?;
            for (i, &p) in ptrs.iter().enumerate() {
                self.store_ptr(arr, i as u64, p)?;
            }
            self.launch(f, arr, shape)?;
        }
        if let KernelBody::RngBitGenerator { algorithm } = k.body {
            self.emit_rng_state(k, algorithm, ptrs[0], ptrs[inputs.len()])?;
        }
        Ok(())
    }

    /// Whether a launch of shape `s` runs on the calling thread: too little
    /// work for the pool, or no pool.
    fn serial(&self, s: &LaunchShape) -> bool {
        !self.target.parallel || !s.parallel || s.n < 2 || s.n as f64 * s.cost < PARALLEL_WORK
    }

    /// Calls `f(ctx, 0, n)`, through the thread pool when the work is large.
    fn launch(&self, f: FunctionValue<'ctx>, ctx: PointerValue<'ctx>, s: LaunchShape) -> Result<()> {
        if s.n <= 0 {
            return Ok(());
        }
        let n = self.i64c(s.n);
        if self.serial(&s) {
            self.call(f, &[ctx.into(), self.i64c(0).into(), n.into()])?;
            return Ok(());
        }
        // Whole multiples of the smallest useful task.
        let min = s.min_grain.max(1);
        let grain = ((TASK_WORK / s.cost.max(1e-9)).ceil() as i64).clamp(1, s.n);
        let grain = (grain.div_euclid(min) + (grain % min != 0) as i64).saturating_mul(min).min(s.n).max(1);
        let pf = self.parallel_for_fn();
        let task = f.as_global_value().as_pointer_value();
        self.call(pf, &[task.into(), ctx.into(), n.into(), self.i64c(grain).into()])?;
        Ok(())
    }

    fn parallel_for_fn(&self) -> FunctionValue<'ctx> {
        let t = self.t;
        self.function(
            crate::runtime::PARALLEL_FOR_SYMBOL,
            None,
            &[t.ptr.into(), t.ptr.into(), t.i64.into(), t.i64.into()],
        )
    }

    /// Declares routine `r` (of type `ty`) for linking against its shared
    /// object, noting it for `ModuleInfo::routines`.
    /// The `index`th generic convolution's descriptor `words`, a writable
    /// global the executable finds by name ([`conv_descriptor_symbol`]) to
    /// store the specialized routine in once it is built.
    fn conv_descriptor(&self, words: &[i64], index: usize) -> PointerValue<'ctx> {
        let i64t = self.module.get_context().i64_type();
        let init = i64t.const_array(&words.iter().map(|&w| i64t.const_int(w as u64, true)).collect::<Vec<_>>());
        let g = self.module.add_global(init.get_type(), None, &conv_descriptor_symbol(index));
        g.set_initializer(&init);
        g.set_linkage(Linkage::External);
        g.set_alignment(8);
        g.as_pointer_value()
    }

    /// `declare void @smelt_conv_gemm(ptr desc, ptr input, ptr kernel, ptr
    /// out, ptr epilogue, ptr ctx, ptr gemm)`.
    fn conv_gemm_function(&self) -> FunctionValue<'ctx> {
        let p = self.t.ptr;
        let ty = self.module.get_context().void_type().fn_type(&[p.into(); 7], false);
        crate::routine::declare(&self.module, CONV_GEMM_SYMBOL, ty)
    }

    fn declare_shared(&mut self, r: Routine, ty: inkwell::types::FunctionType<'ctx>) -> FunctionValue<'ctx> {
        let f = crate::routine::declare(&self.module, &r.symbol(), ty);
        if !self.shared.contains(&r) {
            self.shared.push(r);
        }
        f
    }

    fn emit_dot_step(&mut self, rc: &RunCx<'ctx>, d: &DotStep) -> Result<()> {
        let (b, m, n, k) = (d.batch, d.m, d.n, d.k);
        if [b, m, n, k].iter().any(|&x| x < 0) {
            invalid!("dot with negative sizes");
        }
        let want = [(&d.lhs, b * m * k, "lhs"), (&d.rhs, b * k * n, "rhs"), (&d.out, b * m * n, "out")];
        for (r, c, what) in want {
            if r.ty.element_count() as i64 != c {
                invalid!("dot {what} {:?} does not hold {c} elements", r.ty.dims);
            }
            self.check_buf(r)?;
        }
        self.note_write(&d.out)?;
        let lhs = self.buf_ptr(rc, &d.lhs)?;
        let rhs = self.buf_ptr(rc, &d.rhs)?;
        let out = self.buf_ptr(rc, &d.out)?;
        let (product, product_ptr) = self.product_place(rc, (&d.out, out), &d.epilogue)?;
        let null = self.t.ptr.const_null();
        let (epi, ctx) = match &d.epilogue {
            None => (null, null),
            Some((kid, bufs)) => {
                self.routine_epilogue(rc, (*kid, bufs), (&product, product_ptr), (&d.out, out), d.m, d.n)?
            }
        };
        let spec = GemmSpec {
            lhs: d.lhs.ty.dtype,
            rhs: d.rhs.ty.dtype,
            out: product.ty.dtype,
            lhs_transposed: d.lhs_transposed,
            rhs_transposed: d.rhs_transposed,
        };
        let gemm = match self.routines {
            Routines::InModule => {
                gemm_function(&self.module, self.tm, &spec).map_err(|e| CpuError::unsupported(e.to_string()))?
            }
            Routines::Shared => {
                let ty = gemm_type(self.module.get_context());
                self.declare_shared(Routine::Gemm(spec), ty)
            }
        };
        let args: Vec<BasicMetadataValueEnum<'ctx>> = vec![
            lhs.into(),
            rhs.into(),
            product_ptr.into(),
            self.i64c(b).into(),
            self.i64c(m).into(),
            self.i64c(n).into(),
            self.i64c(k).into(),
            epi.into(),
            ctx.into(),
        ];
        self.call(gemm, &args)?;
        Ok(())
    }

    /// Where a product with `epilogue` is stored: `out` itself, or, when the
    /// epilogue changes its type (an integer product requantized), scratch
    /// space past the program's temporaries ([`smelt_kernel::Program::product_dtype`]).
    fn product_place(
        &mut self,
        rc: &RunCx<'ctx>,
        (out, out_ptr): (&BufRef, PointerValue<'ctx>),
        epilogue: &Option<(KernelId, Vec<BufRef>)>,
    ) -> Result<(BufRef, PointerValue<'ctx>)> {
        let dtype = self.program.product_dtype(out, epilogue);
        if dtype == out.ty.dtype {
            return Ok((out.clone(), out_ptr));
        }
        let ty = smelt_kernel::ArrayType { dtype, dims: out.ty.dims.clone() };
        let base = scratch_base(self.program.temp_bytes);
        self.scratch_bytes = self.scratch_bytes.max(ty.byte_size().div_ceil(64) * 64);
        let product = BufRef { buffer: Buffer::Temp(base), ty };
        let ptr = self.buf_ptr(rc, &product)?;
        Ok((product, ptr))
    }

    /// What a routine gets to run epilogue kernel `kid` (its inputs: the
    /// routine's product at `product_ptr`, then `bufs`) on its `[m, n]` output
    /// blocks, writing `out`: [`Self::block_epilogue_fn`] and its buffer array
    /// {`product`, `bufs`..., `out`}.
    fn routine_epilogue(
        &mut self,
        rc: &RunCx<'ctx>,
        (kid, bufs): (KernelId, &[BufRef]),
        (product, product_ptr): (&BufRef, PointerValue<'ctx>),
        (out, out_ptr): (&BufRef, PointerValue<'ctx>),
        m: i64,
        n: i64,
    ) -> Result<(PointerValue<'ctx>, PointerValue<'ctx>)> {
        let mut inputs = vec![product.clone()];
        inputs.extend(bufs.iter().cloned());
        let f = self.block_epilogue_fn(kid, &inputs, out, m, n)?;
        let arr = self.alloca_array(self.t.ptr, inputs.len() as u32 + 1, "epi.bufs")?;
        for (i, r) in inputs.iter().enumerate() {
            let p = if i == 0 { product_ptr } else { self.buf_ptr(rc, r)? };
            self.store_ptr(arr, i as u64, p)?;
        }
        self.store_ptr(arr, inputs.len() as u64, out_ptr)?;
        Ok((f.as_global_value().as_pointer_value(), arr))
    }

    /// The block epilogue of a dot: `void(ptr bufs, i64 b, i64 i0, i64 i1, i64
    /// j0, i64 j1)` evaluates the epilogue kernel on rows `[i0, i1)` and columns
    /// `[j0, j1)` of batch `b` of the output, in place. `bufs` = {product (the
    /// output), epilogue inputs..., output}.
    /// An epilogue a routine calls per finished output block: `void(ctx, b, i0,
    /// i1, j0, j1)` over the output viewed as `[batch, m, n]` (row-major), running
    /// epilogue kernel `kid` on that block in place.
    fn block_epilogue_fn(
        &mut self,
        kid: KernelId,
        inputs: &[BufRef],
        out: &BufRef,
        m: i64,
        n: i64,
    ) -> Result<FunctionValue<'ctx>> {
        let program = self.program;
        let Some(k) = program.kernels.get(kid.0 as usize) else {
            invalid!("epilogue kernel {} out of range", kid.0);
        };
        let KernelBody::Loop { space, outputs, .. } = &k.body else {
            invalid!("epilogue kernel {} is not a loop kernel", k.name);
        };
        if k.inputs.len() != inputs.len() || k.outputs.len() != 1 || outputs.len() != 1 {
            invalid!("epilogue kernel {} takes {} inputs and {} outputs", k.name, k.inputs.len(), k.outputs.len());
        }
        for (r, t) in inputs.iter().zip(&k.inputs) {
            if r.ty.dtype != t.dtype || r.ty.element_count() != t.element_count() {
                invalid!(
                    "epilogue kernel {}: buffer {} {:?} for {} {:?}",
                    k.name,
                    r.ty.dtype,
                    r.ty.dims,
                    t.dtype,
                    t.dims
                );
            }
            self.check_buf(r)?;
        }
        let out_t = &k.outputs[0];
        if out_t.dtype != out.ty.dtype
            || count(space) != count(&out.ty.dims)
            || m * n == 0 && count(space) != 0
            || m * n != 0 && count(space) % (m * n) != 0
            || k.inputs[0].dtype != inputs[0].ty.dtype
        {
            invalid!("epilogue kernel {} does not match the routine's output", k.name);
        }
        let slots = self.slots(inputs, std::slice::from_ref(out));
        let key = Epilogue { kid: self.canonical_kernel(kid), slots, m, n };
        if let Some(&f) = self.epilogues.get(&key) {
            return Ok(f);
        }
        let taken = self.epilogues.keys().filter(|e| e.kid == key.kid).count();
        let name =
            if taken == 0 { format!("epilogue_{}", key.kid.0) } else { format!("epilogue_{}_{taken}", key.kid.0) };
        let f = if self.remote.get(key.kid.0 as usize) == Some(&true) {
            // Defined by another module of the same program (parallel code
            // generation), like remote kernel entry points.
            let t = self.t;
            let ty = t
                .void
                .fn_type(&[t.ptr.into(), t.i64.into(), t.i64.into(), t.i64.into(), t.i64.into(), t.i64.into()], false);
            let f = self.module.add_function(&name, ty, Some(Linkage::External));
            self.remote_epilogues.push((key.clone(), name));
            f
        } else {
            self.epilogue_functions.push((key.kid.0, name.clone()));
            define_epilogue(self.cg, &key, &name, Linkage::Internal)?
        };
        self.epilogues.insert(key, f);
        Ok(f)
    }

    /// `smelt_custom_call(spec, len, bufs)` (`smelt_runtime::custom_call`) on
    /// the step's buffers; a failing call ends `smelt_run` with its status.
    fn emit_custom_call(&mut self, rc: &RunCx<'ctx>, c: &smelt_kernel::CustomCallStep) -> Result<()> {
        for b in &c.inputs {
            self.check_buf(b)?;
        }
        for b in &c.outputs {
            self.note_write(b)?;
        }
        let spec = c.call.spec();
        let text = self.global_bytes("custom_call.spec", spec.as_bytes());
        let all: Vec<&BufRef> = c.inputs.iter().chain(&c.outputs).collect();
        let arr = self.alloca_array(self.t.ptr, all.len() as u32, "cc.bufs")?;
        for (i, b) in all.iter().enumerate() {
            let p = self.buf_ptr(rc, b)?;
            self.store_ptr(arr, i as u64, p)?;
        }
        let t = self.t;
        let f = self.function(
            smelt_runtime::custom_call::CUSTOM_CALL_SYMBOL,
            Some(t.i32.into()),
            &[t.ptr.into(), t.i64.into(), t.ptr.into()],
        );
        let status = self
            .call(f, &[text.into(), self.i64c(spec.len() as i64).into(), arr.into()])?
            .ok_or_else(|| CpuError::invalid("smelt_custom_call returned nothing"))?
            .into_int_value();
        let failed = self.b.build_int_compare(inkwell::IntPredicate::NE, status, t.i32.const_zero(), "")?;
        let (fail, ok) = (self.block("cc.fail")?, self.block("cc.ok")?);
        self.b.build_conditional_branch(failed, fail, ok)?;
        self.b.position_at_end(fail);
        self.b.build_return(Some(&status))?;
        self.b.position_at_end(ok);
        Ok(())
    }

    fn emit_conv_step(&mut self, rc: &RunCx<'ctx>, c: &ConvStep) -> Result<()> {
        for r in [&c.input, &c.kernel, &c.out] {
            self.check_buf(r)?;
        }
        self.note_write(&c.out)?;
        let mut spec = ConvSpec::from_step(c);
        spec.out = self.program.product_dtype(&c.out, &c.epilogue);
        let out_dims = spec.output_dims().map_err(|e| CpuError::unsupported(e.to_string()))?;
        // `out` may carry the dims of an epilogue's reshape: the same elements
        // in the same row-major order.
        if count(&out_dims) != count(&c.out.ty.dims) {
            invalid!("convolution output {:?} does not match its operands ({out_dims:?})", c.out.ty.dims);
        }
        let generic = match (self.routines, self.convs) {
            (Routines::InModule, _) | (_, Convs::Specialized) => None,
            (Routines::Shared, Convs::Generic) => crate::conv::conv_gemm(&spec),
            (Routines::Shared, Convs::UntilBuilt(options)) => crate::conv::conv_gemm(&spec).filter(|_| {
                !crate::routines::available(
                    &Routine::Conv(spec.clone()),
                    options,
                    crate::routines::cache_dir().as_deref(),
                )
            }),
        };
        // Where the epilogue runs is the specialized routine's rule, which
        // the generic one follows so that the specialized one can take over.
        let per_image = crate::conv::epilogue_per_image(&spec).map_err(|e| CpuError::unsupported(e.to_string()))?;
        let f = match self.routines {
            _ if generic.is_some() => self.conv_gemm_function(),
            Routines::InModule => {
                conv_function(&self.module, self.tm, &spec).map_err(|e| CpuError::unsupported(e.to_string()))?
            }
            Routines::Shared => {
                let p = self.t.ptr;
                let ty = self.module.get_context().void_type().fn_type(&[p.into(); 5], false);
                // The routine calls the GEMM parts of its types from their own object.
                let parts =
                    crate::conv::gemm_parts(self.tm, &spec).map_err(|e| CpuError::unsupported(e.to_string()))?;
                if let Some(parts) = parts.map(Routine::GemmParts).filter(|r| !self.shared.contains(r)) {
                    self.shared.push(parts);
                }
                self.declare_shared(Routine::Conv(spec.clone()), ty)
            }
        };
        let input = self.buf_ptr(rc, &c.input)?;
        let kernel = self.buf_ptr(rc, &c.kernel)?;
        let out = self.buf_ptr(rc, &c.out)?;
        let (product, product_ptr) = self.product_place(rc, (&c.out, out), &c.epilogue)?;
        let null = self.t.ptr.const_null();
        // The routine calls the epilogue per block of the output seen as [rows,
        // features], which is the output's row-major order when the feature
        // dimension is the last one; otherwise the epilogue runs afterwards.
        // An NCHW output's epilogue runs per block of each image seen as
        // [features, spatial size], as the routine finishes it.
        let rank = out_dims.len();
        let feature = usize::try_from(c.dims.output_feature).ok();
        let in_tile = rank > 0 && feature == Some(rank - 1) || per_image.is_some();
        let (epi, ctx) = match &c.epilogue {
            Some((kid, bufs)) if in_tile => {
                let (rows, cols) = match per_image {
                    Some(view) => view,
                    None => {
                        let features = out_dims[rank - 1];
                        (if features == 0 { 0 } else { count(&out_dims) / features }, features)
                    }
                };
                self.routine_epilogue(rc, (*kid, bufs), (&product, product_ptr), (&c.out, out), rows, cols)?
            }
            _ => (null, null),
        };
        let mut args: Vec<BasicMetadataValueEnum<'ctx>> =
            vec![input.into(), kernel.into(), product_ptr.into(), epi.into(), ctx.into()];
        if let Some(g) = generic {
            // smelt_conv_gemm(descriptor, input, kernel, out, epilogue, ctx, gemm)
            let view = match per_image {
                Some((features, spatial)) => EpilogueView::PerImage { features, spatial },
                None => EpilogueView::Rows,
            };
            let g = g.with_epilogue(view).map_err(|e| CpuError::unsupported(e.to_string()))?;
            let gemm = GemmSpec {
                lhs: spec.input,
                rhs: spec.kernel,
                out: spec.out,
                lhs_transposed: false,
                rhs_transposed: false,
            };
            let ty = gemm_type(self.module.get_context());
            let gemm = self.declare_shared(Routine::Gemm(gemm), ty);
            let desc = self.conv_descriptor(&g.encode(), self.generic_convs.len());
            args.insert(0, desc.into());
            args.push(gemm.as_global_value().as_pointer_value().into());
            self.generic_convs.push(spec);
        }
        self.call(f, &args)?;
        if let Some((kid, bufs)) = &c.epilogue
            && !in_tile
        {
            let mut inputs = vec![product];
            inputs.extend(bufs.iter().cloned());
            self.emit_kernel_step(rc, *kid, &inputs, std::slice::from_ref(&c.out))?;
        }
        Ok(())
    }
}

/// Which results some top-level step writes in full: a copy or parallel copy
/// into the whole buffer, or a kernel whose body stores every element of every
/// output (all kinds but update-slice and scatter, which the lowering precedes
/// with a copy), or a dot or convolution routine (each writes every element
/// of its output, zeros for an empty sum: [`crate::gemm::gemm_function`],
/// [`crate::conv`]). Steps inside loops and branches do not count (they may
/// not run). Writes never undo each other, so the order does not matter.
pub(crate) fn fully_written(p: &smelt_kernel::Program) -> Vec<bool> {
    let mut written = vec![false; p.results.len()];
    let mut mark = |r: &BufRef| {
        if let Buffer::Result(n) = r.buffer
            && let Some(t) = p.results.get(n as usize)
            && r.ty.byte_size() == t.byte_size()
        {
            written[n as usize] = true;
        }
    };
    for step in &p.steps {
        match step {
            Step::Copy { dst, .. } => mark(dst),
            Step::ParallelCopy { moves } => moves.iter().for_each(|(_, d)| mark(d)),
            Step::Kernel { kernel, outputs, .. } => {
                let full = p.kernels.get(kernel.0 as usize).is_some_and(|k| {
                    !matches!(k.body, KernelBody::UpdateSlice { .. } | KernelBody::Scatter { .. })
                        && k.outputs.len() == outputs.len()
                        && k.outputs.iter().zip(outputs).all(|(t, o)| t.byte_size() == o.ty.byte_size())
                });
                if full {
                    outputs.iter().for_each(&mut mark);
                }
            }
            Step::CustomCall(c) => c.outputs.iter().for_each(&mut mark),
            Step::Dot(d) => mark(&d.out),
            Step::Conv(c) => mark(&c.out),
            Step::While { .. } | Step::Conditional { .. } => {}
        }
    }
    for (w, t) in written.iter_mut().zip(&p.results) {
        *w |= t.byte_size() == 0;
    }
    written
}

/// The exported global holding the step profiler's counters.
pub(crate) const PROFILE_COUNTERS: &str = "smelt_profile_counters";

/// What the profiler calls a step (None for control flow, whose inner steps
/// are timed instead).
fn step_label(p: &smelt_kernel::Program, s: &Step) -> Option<String> {
    let dims = |d: &[i64]| d.iter().map(i64::to_string).collect::<Vec<_>>().join("x");
    Some(match s {
        Step::Kernel { kernel, .. } => match p.kernels.get(kernel.0 as usize) {
            Some(k) => {
                let kind = match &k.body {
                    KernelBody::Loop { space, .. } => format!("loop {}", dims(space)),
                    KernelBody::Reduce { space, reduced, .. } => format!("reduce {} over {reduced:?}", dims(space)),
                    KernelBody::Scan { space, axis, reverse, .. } => {
                        format!("scan {} along {axis}{}", dims(space), if *reverse { " reverse" } else { "" })
                    }
                    KernelBody::UpdateSlice { space, .. } => format!("update-slice {}", dims(space)),
                    KernelBody::Scatter { space, .. } => format!("scatter {}", dims(space)),
                    KernelBody::Sort { dims: d, dimension, .. } => format!("sort {} along {dimension}", dims(d)),
                    KernelBody::SelectAndScatter { .. } => "select-and-scatter".to_string(),
                    KernelBody::RngBitGenerator { .. } => "rng-bit-generator".to_string(),
                };
                format!("k{} {} ({kind})", kernel.0, k.name)
            }
            None => format!("k{}", kernel.0),
        },
        Step::Copy { src, .. } => format!("copy {} bytes", src.ty.byte_size()),
        Step::ParallelCopy { moves } => format!("parallel copy of {} buffers", moves.len()),
        Step::Dot(d) => format!("dot b={} m={} n={} k={}", d.batch, d.m, d.n, d.k),
        Step::Conv(c) => format!("convolution -> {}", dims(&c.out.ty.dims)),
        Step::CustomCall(c) => format!("custom-call {}", c.call.target),
        Step::While { .. } | Step::Conditional { .. } => return None,
    })
}

/// The steps [`step_label`] names, at every depth.
fn count_timed(steps: &[Step]) -> usize {
    steps
        .iter()
        .map(|s| match s {
            Step::While { cond, body, update, .. } => {
                count_timed(cond) + count_timed(body) + !update.is_empty() as usize
            }
            Step::Conditional { branches, .. } => branches.iter().map(|b| count_timed(b)).sum(),
            _ => 1,
        })
        .sum()
}

/// Where the backend's scratch space starts in the arena.
pub(crate) fn scratch_base(temp_bytes: usize) -> usize {
    temp_bytes.div_ceil(64) * 64
}
