//! smelt's CPU backend: the kernel form rendered as LLVM IR (through inkwell, LLVM
//! 22 linked dynamically), optimized at O3 for the host CPU and run in process.
//!
//! LLVM lives only in this crate (and the other LLVM-based backends): `smelt-hlo`,
//! `smelt-passes` and `smelt-kernel` know nothing about it.
//!
//! Pipeline: [`compile`] builds LLVM modules for a [`Program`] (`codegen`: the
//! program's, and modules of its larger kernels compiled on other threads),
//! optimizes it with the new pass manager for the host CPU and all its
//! features (the passes generated kernels need, [`KERNEL_PASSES`]; routines and
//! AOT modules get `default<O3>`), emits an object file and links it into an ORC JIT
//! (`executable`), which runs it through `smelt_kernel::Executable`; [`CpuBackend`] is
//! the backend registered as `cpu`. [`emit`] stops at any stage
//! and returns the text or bytes (`smelt compile --emit llvm|llvm-opt|asm|obj`).
//!
//! The library routines that the kernel form leaves to the backend (`DotStep`,
//! `ConvStep`) and the transcendental functions are generated as LLVM IR too, by
//! [`gemm`], [`conv`] and [`math`], so compiled programs link against nothing
//! beyond libc, libm and libpthread.
//!
//! [`compile`] is [`compile_to_object`] then [`load`]: the [`CompiledObject`] in
//! between (object bytes and the facts loading needs) can be serialized, which is
//! how `smelt-jit` keeps compiled programs on disk across processes.
//!
//! Code map: `codegen` (the module: kernels, `smelt_run`), `runtime` (the thread
//! pool behind `smelt_parallel_for`), `executable` (JIT, argument checks, the
//! arena), `object` (compiled programs as bytes), `gemm`/`conv` (routines), `math`, `routine` (their errors), `jit`
//! (JIT helpers for routine tests and benchmarks), `error`.

pub mod aot;
pub mod caches;
pub mod conv;
mod driver;
mod error;
mod executable;
pub mod gemm;
mod object;
pub mod routine;
pub mod routines;
pub mod runtime;
pub mod tiles;

#[cfg(test)]
mod tests;

use std::sync::OnceLock;

use inkwell::OptimizationLevel;
use inkwell::context::Context;
use inkwell::module::Module;
use inkwell::passes::PassBuilderOptions;
use inkwell::targets::{CodeModel, FileType, InitializationConfig, RelocMode, Target, TargetMachine, TargetTriple};
use smelt_hlo::budget::Deadline;
use smelt_kernel::Program;
use smelt_kernel::VerifiedProgram;

use crate::driver::Routines;

pub use error::CpuError;
pub use executable::Executable;
pub use object::{CompiledObject, FORMAT_VERSION as OBJECT_FORMAT_VERSION};
pub use routines::ConvMode;
pub use tiles::TileMode;

/// Revision of what the generated code computes for a given program; part of
/// persistent cache keys, so objects compiled by an older smelt whose results
/// differ are not reused. Bump when code generation changes results or the
/// tile interpreter's code format (2: the FTZ/DAZ floating-point environment;
/// 3: tile-interpreted kernels, `tiles::plan::VERSION` 1; 4: VERSION 2;
/// 5: VERSION 3; 6: VERSION 4; 7: VERSION 5; 8: f32 `exp`'s reduction
/// rounded once).
pub const CODE_REVISION: u32 = 8;
pub use routine::RoutineError;
pub use smelt_kernel::StepProfile;
pub use smelt_llvm::{codegen, jit, math};

/// An MCJIT engine for a module of generated routines (tests and benchmarks):
/// [`jit::engine`] with the runtime's scratch memory functions mapped.
pub fn routine_engine<'ctx>(
    module: &inkwell::module::Module<'ctx>,
    target: &inkwell::targets::TargetMachine,
    runtime: jit::Runtime,
) -> std::result::Result<inkwell::execution_engine::ExecutionEngine<'ctx>, smelt_llvm::LlvmError> {
    jit::engine_with(module, target, runtime, &smelt_runtime::scratch::symbols())
}

/// How to compile.
#[derive(Clone, Debug)]
pub struct CompileOptions {
    /// LLVM optimization level, 0 to 3 (the `default<ON>` pipeline).
    pub opt_level: u8,
    /// Target triple; `None` is the host's. Only the host can be JIT-compiled.
    pub triple: Option<String>,
    /// Target CPU; `None` is the host CPU (or `generic` for another triple).
    pub cpu: Option<String>,
    /// Target features (`+avx2,-avx512f`); `None` is the host CPU's features.
    pub features: Option<String>,
    /// Whether large kernels may run on the thread pool.
    pub parallel: bool,
    /// Whether to time every step ([`Executable::profile`]); costs two clock
    /// reads per step.
    pub profile: bool,
    /// When the compilation must finish (checked before and after LLVM's
    /// optimization, which itself runs to the end).
    pub deadline: Deadline,
    /// Which kernels the tile interpreter runs instead of compiling them
    /// (JIT only: AOT objects and `--emit` output compile every kernel).
    pub tiles: TileMode,
    /// Which routine computes each convolution (JIT only, like `tiles`).
    pub convs: ConvMode,
}

impl Default for CompileOptions {
    fn default() -> Self {
        CompileOptions {
            opt_level: 3,
            triple: None,
            cpu: None,
            features: None,
            parallel: true,
            profile: false,
            deadline: Deadline::none(),
            tiles: TileMode::from_env(),
            convs: ConvMode::from_env(),
        }
    }
}

/// The CPU backend in the registry (`cpu`): LLVM at the options' level.
#[derive(Debug, Default)]
pub struct CpuBackend;

impl smelt_kernel::Backend for CpuBackend {
    fn name(&self) -> &'static str {
        "cpu"
    }

    fn description(&self) -> &'static str {
        "LLVM-compiled native code for this CPU, run in process"
    }

    fn capabilities(&self) -> smelt_kernel::Capabilities {
        smelt_kernel::Capabilities { profiling: true, u8s8_products: host_has_u8s8_products(), ..Default::default() }
    }

    fn compile(
        &self,
        program: &VerifiedProgram<'_>,
        options: &smelt_kernel::BackendOptions,
    ) -> smelt_kernel::CompileResult {
        let options = CompileOptions {
            opt_level: options.opt_level,
            parallel: options.parallel,
            profile: options.profile,
            deadline: options.deadline,
            ..Default::default()
        };
        let exe = compile(program, &options).map_err(smelt_kernel::BackendError::backend)?;
        Ok(std::sync::Arc::new(exe))
    }
}

/// What [`emit`] produces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Emit {
    /// LLVM IR text as generated.
    LlvmIr,
    /// LLVM IR text after optimization.
    OptimizedLlvmIr,
    /// Target assembly text.
    Assembly,
    /// An ELF (or the target's) object file.
    Object,
}

/// Compiles `program` for the host CPU and loads it into the process; the
/// executable's `compile_phases` say where the time went.
pub fn compile(program: &VerifiedProgram<'_>, options: &CompileOptions) -> Result<Executable, CpuError> {
    let mut phases = Vec::new();
    let object = compile_to_object_timed(program, options, &mut phases)?;
    let t = std::time::Instant::now();
    let mut exe = load(&object)?;
    phases.push(("load and link".into(), t.elapsed().as_secs_f64() * 1e3));
    exe.phases = phases;
    Ok(exe)
}

/// At most this many modules of kernels beside the program's own, compiled in
/// parallel (at most one per core besides the calling thread's).
const MAX_KERNEL_MODULES: usize = 3;

/// Compiles `program` for the host CPU to an object file and what loading it
/// needs, without loading it ([`load`] does).
pub fn compile_to_object(program: &VerifiedProgram<'_>, options: &CompileOptions) -> Result<CompiledObject, CpuError> {
    compile_to_object_timed(program, options, &mut Vec::new())
}

/// [`compile_to_object`], appending each phase's milliseconds to `phases`.
fn compile_to_object_timed(
    program: &VerifiedProgram<'_>,
    options: &CompileOptions,
    phases: &mut Vec<(String, f64)>,
) -> Result<CompiledObject, CpuError> {
    let ms = |t: std::time::Instant| t.elapsed().as_secs_f64() * 1e3;
    if options.triple.as_deref().is_some_and(|t| t != TargetMachine::get_default_triple().as_str().to_string_lossy()) {
        return Err(CpuError::unsupported("JIT compilation for a triple other than the host's"));
    }
    let t = std::time::Instant::now();
    let cx = Context::create();
    let tm = target_machine(options)?;
    let attrs = target_attrs(options, &tm);
    // Parallel code generation: the larger kernels' entry points go to
    // modules of their own, built and compiled on other threads (each with
    // its own LLVM context) while this one compiles `smelt_run` and the rest.
    // The split is planned on a first build of the whole module (building IR
    // costs a few milliseconds; optimizing it, the rest).
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let tiles = tiles::plan_program(program, options.tiles);
    let glue = tiles::glue_only(program, &tiles);
    if !tiles.is_empty() {
        let n = program.steps.iter().filter(|s| matches!(s, smelt_kernel::Step::Kernel { .. })).count();
        phases.push((format!("kernels interpreted by the tile library: {} of {n} launched", tiles.len()), 0.0));
    }
    let glue_options = glue.then(|| CompileOptions { opt_level: 0, ..options.clone() });
    let glue_tm = glue_options.as_ref().map(target_machine).transpose()?;
    let convs = match options.convs {
        ConvMode::Auto => driver::Convs::UntilBuilt(options),
        ConvMode::Specialized => driver::Convs::Specialized,
        ConvMode::Generic | ConvMode::GenericOnly => driver::Convs::Generic,
    };
    let (shard_of, main_o3) = if cores >= 2 && program.kernels.len() >= 2 {
        let plan_cx = Context::create();
        let (whole, whole_info) =
            driver::build_module_with(&plan_cx, program, &attrs, &tm, Routines::Shared, convs, Vec::new(), &tiles)?;
        let (weights, rest) = driver::kernel_instructions(&whole, program, &whole_info);
        driver::kernel_shards(program, &weights, rest, cores.min(MAX_KERNEL_MODULES + 1))
    } else {
        (vec![0; program.kernels.len()], driver::has_loop_kernels(program))
    };
    let remote = shard_of.iter().map(|&s| s != 0).collect();
    let (module, info) = driver::build_module_with(&cx, program, &attrs, &tm, Routines::Shared, convs, remote, &tiles)?;
    options.deadline.check(|| "LLVM IR generation".into())?;
    phases.push(("LLVM IR generation".into(), ms(t)));
    // Per kernel module: the kernel entry points and block epilogues it defines.
    type Group = (Vec<(smelt_kernel::KernelId, Vec<codegen::Slot>, String)>, Vec<(driver::Epilogue, String)>);
    let mut groups: Vec<Group> = Vec::new();
    let shard = |kid: u32| shard_of.get(kid as usize).copied().unwrap_or(1).max(1);
    for e in &info.remote_entries {
        let s = shard(e.0.0);
        if groups.len() < s {
            groups.resize(s, Group::default());
        }
        groups[s - 1].0.push(e.clone());
    }
    for e in &info.remote_epilogues {
        let s = shard(e.0.kernel().0);
        if groups.len() < s {
            groups.resize(s, Group::default());
        }
        groups[s - 1].1.push(e.clone());
    }
    groups.retain(|g| !g.0.is_empty() || !g.1.is_empty());
    let kernel_module = |(entries, epilogues): &Group| -> Result<(Vec<u8>, f64), CpuError> {
        let t = std::time::Instant::now();
        let cx = Context::create();
        let tm = target_machine(options)?;
        let module = driver::build_kernel_module(&cx, program, &attrs, &tm, entries, epilogues)?;
        prepare(&module, &tm);
        optimize(&module, &tm, options, Passes::Kernels)?;
        let buf = tm.write_to_memory_buffer(&module, FileType::Object).map_err(|e| CpuError::llvm(e.to_string()))?;
        Ok((buf.as_slice().to_vec(), ms(t)))
    };
    prepare(&module, &tm);
    // The routines the module calls come from the routine cache; those that
    // must be built are built on other threads (each with its own LLVM
    // context) while this one optimizes the module.
    let dir = routines::cache_dir();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let built_now = std::sync::atomic::AtomicUsize::new(0);
    let work = || -> Result<Vec<(usize, Vec<u8>)>, CpuError> {
        let mut done = Vec::new();
        loop {
            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let Some(spec) = info.routines.get(i) else { return Ok(done) };
            let (object, built) = routines::routine_object(spec, options, dir.as_deref())?;
            built_now.fetch_add(usize::from(built), std::sync::atomic::Ordering::Relaxed);
            done.push((i, object.to_vec()));
            options.deadline.check(|| "GEMM and convolution routines".into())?;
        }
    };
    let helpers = std::thread::available_parallelism().map_or(1, |n| n.get()).saturating_sub(1).clamp(1, 8);
    let (object, built, kernel_objects) = std::thread::scope(|s| {
        let kernel_handles: Vec<_> = groups.iter().map(|g| s.spawn(|| kernel_module(g))).collect();
        let handles: Vec<_> = (0..helpers.min(info.routines.len())).map(|_| s.spawn(work)).collect();
        let t = std::time::Instant::now();
        // A small module's while loops get O3 (their kernels are inlined
        // into `smelt_run`'s loop; see `driver::LOOP_O3_MAX_INSTRUCTIONS`).
        // A module of glue around interpreted kernels gets level 1.
        let main_passes = if main_o3 || glue { Passes::Full } else { Passes::Kernels };
        let main_options = glue_options.as_ref().unwrap_or(options);
        let main_tm = glue_tm.as_ref().unwrap_or(&tm);
        let optimized = optimize(&module, main_tm, main_options, main_passes)
            .and_then(|()| options.deadline.check(|| "LLVM optimization".into()).map_err(CpuError::from));
        phases.push(("LLVM optimization".into(), ms(t)));
        let t = std::time::Instant::now();
        let object = optimized.and_then(|()| {
            main_tm.write_to_memory_buffer(&module, FileType::Object).map_err(|e| CpuError::llvm(e.to_string()))
        });
        phases.push(("machine code".into(), ms(t)));
        // This thread helps with what is left.
        let t = std::time::Instant::now();
        let mut built = vec![work()];
        built.extend(
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|_| Err(CpuError::Jit("a routine build panicked".into())))),
        );
        phases.push((
            format!(
                "routines ({}: GEMM, convolution, tiles; {} built now), after the module",
                info.routines.len(),
                built_now.load(std::sync::atomic::Ordering::Relaxed)
            ),
            ms(t),
        ));
        let t = std::time::Instant::now();
        let kernel_objects: Vec<Result<(Vec<u8>, f64), CpuError>> = kernel_handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|_| Err(CpuError::Jit("a kernel module's build panicked".into()))))
            .collect();
        phases.push((format!("kernel modules ({}), after the module", kernel_objects.len()), ms(t)));
        for (k, (o, g)) in kernel_objects.iter().zip(&groups).enumerate() {
            if let Ok((_, took)) = o {
                let what = format!("{} kernels, {} epilogues", g.0.len(), g.1.len());
                phases.push((format!("kernel module {} ({what}, on its own thread)", k + 1), *took));
            }
        }
        (object, built, kernel_objects)
    });
    let object = object?;
    let mut objects: Vec<(usize, Vec<u8>)> = Vec::with_capacity(info.routines.len());
    for b in built {
        objects.extend(b?);
    }
    objects.sort_by_key(|o| o.0);
    let mut objects: Vec<Vec<u8>> = objects.into_iter().map(|o| o.1).collect();
    for k in kernel_objects {
        objects.push(k?.0);
    }
    let mut info = info;
    if !info.generic_convs.is_empty() {
        let n = info.generic_convs.len();
        if options.convs == ConvMode::GenericOnly {
            phases.push((format!("{n} convolutions on the generic routine"), 0.0));
        } else {
            phases.push((format!("{n} convolutions on the generic routine until specialized"), 0.0));
            info.generic_conv_options = Some(options.clone());
        }
    }
    Ok(CompiledObject {
        name: program.name.clone(),
        params: program.params.clone(),
        results: program.results.clone(),
        object: object.as_slice().to_vec(),
        routines: objects,
        info,
    })
}

/// Links a compiled object into the process. The object must have been
/// compiled for this CPU by this build of smelt (callers that keep objects
/// across processes, like `smelt-jit`'s disk cache, key them on both).
pub fn load(object: &CompiledObject) -> Result<Executable, CpuError> {
    let mut objects: Vec<&[u8]> = vec![&object.object];
    objects.extend(object.routines.iter().map(Vec::as_slice));
    Executable::new(&object.name, object.params.clone(), object.results.clone(), &objects, &object.info)
}

/// The host as code generation sees it: target triple, CPU name, LLVM's
/// feature string (`+avx2,-avx512f,...`) and the cache sizes the blockings
/// are derived from. Compiled code is only valid (or only as fast) on a host
/// with the same string, so caches of compiled code key on it.
pub fn host_target() -> String {
    let c = caches::Caches::host();
    format!(
        "{} {} {} l1d={} l2={}",
        TargetMachine::get_default_triple().as_str().to_string_lossy(),
        TargetMachine::get_host_cpu_name(),
        TargetMachine::get_host_cpu_features(),
        c.l1d,
        c.l2
    )
}

/// Compiles `program` up to the stage `what` names and returns its text or bytes.
pub fn emit(program: &VerifiedProgram<'_>, options: &CompileOptions, what: Emit) -> Result<Vec<u8>, CpuError> {
    let cx = Context::create();
    let tm = target_machine(options)?;
    if what == Emit::LlvmIr {
        let (module, _) = driver::build_module(&cx, program, &target_attrs(options, &tm), &tm, Routines::InModule)?;
        prepare(&module, &tm);
        return Ok(module.print_to_string().to_bytes().to_vec());
    }
    let (module, _) = optimized_module(&cx, program, options, &tm)?;
    Ok(match what {
        Emit::LlvmIr | Emit::OptimizedLlvmIr => module.print_to_string().to_bytes().to_vec(),
        Emit::Assembly => tm
            .write_to_memory_buffer(&module, FileType::Assembly)
            .map_err(|e| CpuError::llvm(e.to_string()))?
            .as_slice()
            .to_vec(),
        Emit::Object => tm
            .write_to_memory_buffer(&module, FileType::Object)
            .map_err(|e| CpuError::llvm(e.to_string()))?
            .as_slice()
            .to_vec(),
    })
}

/// Whether the host multiplies u8 by s8 natively (AVX512-VNNI's or AVX-VNNI's `vpdpbusd`:
/// [`routine::Isa::int8_quads`]).
fn host_has_u8s8_products() -> bool {
    static QUADS: OnceLock<bool> = OnceLock::new();
    *QUADS.get_or_init(|| {
        init_llvm().is_ok()
            && TargetMachine::get_host_cpu_features()
                .to_string()
                .split(',')
                .any(|f| f == "+avx512vnni" || f == "+avxvnni")
    })
}

/// Initializes LLVM's native target once.
pub(crate) fn init_llvm() -> Result<(), CpuError> {
    static INIT: OnceLock<Result<(), String>> = OnceLock::new();
    INIT.get_or_init(|| {
        Target::initialize_native(&InitializationConfig::default())?;
        Target::initialize_x86(&InitializationConfig::default());
        Target::initialize_aarch64(&InitializationConfig::default());
        Ok(())
    })
    .clone()
    .map_err(CpuError::llvm)
}

pub(crate) fn target_machine(options: &CompileOptions) -> Result<TargetMachine, CpuError> {
    init_llvm()?;
    let host = TargetMachine::get_default_triple();
    let host_s = host.as_str().to_string_lossy().into_owned();
    let triple = TargetTriple::create(options.triple.as_deref().unwrap_or(&host_s));
    let is_host = options.triple.as_deref().is_none_or(|t| t == host_s);
    let cpu = match &options.cpu {
        Some(c) => c.clone(),
        None if is_host => TargetMachine::get_host_cpu_name().to_string(),
        None => "generic".to_string(),
    };
    let features = match &options.features {
        Some(f) => f.clone(),
        None if is_host && options.cpu.is_none() => TargetMachine::get_host_cpu_features().to_string(),
        None => String::new(),
    };
    let target = Target::from_triple(&triple).map_err(|e| CpuError::llvm(e.to_string()))?;
    let level = match options.opt_level {
        0 => OptimizationLevel::None,
        1 => OptimizationLevel::Less,
        2 => OptimizationLevel::Default,
        _ => OptimizationLevel::Aggressive,
    };
    target
        .create_target_machine(&triple, &cpu, &features, level, RelocMode::PIC, CodeModel::Default)
        .ok_or_else(|| CpuError::llvm(format!("no target machine for {triple} ({cpu})")))
}

/// What lowering may assume about the target `options` name
/// (`smelt_kernel::LowerOptions`): multiply-adds in one instruction as
/// [`smelt_llvm::math::MathTarget`] decides it.
pub fn lower_options(options: &CompileOptions) -> Result<smelt_kernel::LowerOptions, CpuError> {
    let tm = target_machine(options)?;
    Ok(smelt_kernel::LowerOptions { fused_multiply_add: target_attrs(options, &tm).math.fused })
}

pub(crate) fn target_attrs(options: &CompileOptions, tm: &TargetMachine) -> codegen::TargetAttrs {
    let features = tm.get_feature_string().to_string_lossy().into_owned();
    let triple = tm.get_triple().as_str().to_string_lossy().into_owned();
    codegen::TargetAttrs {
        cpu: tm.get_cpu().to_string(),
        // Runs (JIT and AOT) set FTZ/DAZ (`smelt_runtime::fpenv`).
        math: smelt_llvm::math::MathTarget {
            flush_subnormals: true,
            ..smelt_llvm::math::MathTarget::of(&triple, &features)
        },
        features,
        vector_bits: routine::Isa::of(tm).vector_bits,
        parallel: options.parallel,
        profile: options.profile,
    }
}

/// Stamps the module with the target's triple and data layout.
pub(crate) fn prepare(module: &Module<'_>, tm: &TargetMachine) {
    module.set_triple(&tm.get_triple());
    module.set_data_layout(&tm.get_target_data().get_data_layout());
}

/// Builds and optimizes the module for `program`, GEMM routines included.
fn optimized_module<'ctx>(
    cx: &'ctx Context,
    program: &Program,
    options: &CompileOptions,
    tm: &TargetMachine,
) -> Result<(Module<'ctx>, driver::ModuleInfo), CpuError> {
    optimized_module_with(cx, program, options, tm, Routines::InModule, &mut |_, _| Ok(()))
}

/// [`optimized_module`] with the routines where `routines` says, letting
/// `extend` add to the module before it is optimized (the AOT entry point and
/// its support code).
pub(crate) fn optimized_module_with<'ctx>(
    cx: &'ctx Context,
    program: &Program,
    options: &CompileOptions,
    tm: &TargetMachine,
    routines: Routines,
    extend: &mut dyn FnMut(&Module<'ctx>, &driver::ModuleInfo) -> Result<(), CpuError>,
) -> Result<(Module<'ctx>, driver::ModuleInfo), CpuError> {
    let (module, info) = driver::build_module(cx, program, &target_attrs(options, tm), tm, routines)?;
    options.deadline.check(|| "LLVM IR generation".into())?;
    prepare(&module, tm);
    extend(&module, &info)?;
    optimize(&module, tm, options, Passes::Full)?;
    options.deadline.check(|| "LLVM optimization".into())?;
    Ok((module, info))
}

/// Which LLVM pass pipeline a module gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Passes {
    /// `default<ON>`: the GEMM and convolution routines (built once per
    /// machine, explicit vector code tuned under O3) and modules that carry
    /// them (AOT objects, `smelt compile --emit`).
    Full,
    /// At levels 2 and 3, [`KERNEL_PASSES`]: a program's own kernels, compiled
    /// for every program. Lower levels run `default<ON>`.
    Kernels,
}

/// The passes a program's kernels get at levels 2 and 3, instead of
/// `default<O3>`, whose interprocedural and repeated cleanup passes bought the
/// generated loops nothing but compile time (the kernels call nothing but
/// always-inline helpers). In order: the helpers inlined; scalar cleanup
/// (SROA, early CSE, CFG and instruction combining); loops rotated with their
/// invariants hoisted and induction variables simplified; the loop
/// vectorizer (with its cleanup); unrolling of small constant loops (up to
/// 32 trips: reduce-window and select-and-scatter windows) and partial
/// unrolling of the vectorized loops with O3's thresholds (a column sum
/// accumulating in memory ran 45% slower with O2's), without runtime
/// unrolling (remainder loops cost machine-code time and bought nothing
/// measurable);
/// a last LICM and CFG cleanup. Over the 44 corpus programs at benchmark size
/// (Intel Xeon, Emerald Rapids) it cut compile time by about a third
/// (`conv2d_grad` 361 -> 66 ms, `shape_ops` 263 -> 46 ms, `sort_argsort` 192
/// -> 131 ms) with run times unchanged within the machine's noise (geomean
/// ratio 1.00). The SLP vectorizer is left out: the code generator writes
/// the loops the loop vectorizer widens, and what SLP found besides was the
/// scalar remainders of those loops, where it spent up to 40% of a kernel's
/// optimization time (a softmax over rows of 10: ten inlined exps) for run
/// times unchanged within noise over the 66 corpus and unseen programs and
/// four ONNX CNNs (AMD EPYC, Zen 2). `SMELT_KERNEL_PASSES` replaces it (LLVM's pipeline syntax,
/// e.g. `default<O3>`), to compare.
pub(crate) const KERNEL_PASSES: &str = "always-inline,function(\
    sroa,early-cse<memssa>,simplifycfg,instcombine<no-verify-fixpoint>,\
    loop-mssa(loop-rotate,licm),loop(indvars,loop-deletion),simplifycfg,instcombine<no-verify-fixpoint>,\
    loop-vectorize,loop-load-elim,instcombine<no-verify-fixpoint>,simplifycfg,vector-combine,\
    instcombine<no-verify-fixpoint>,loop-unroll<O3;no-runtime;full-unroll-max=32>,instcombine<no-verify-fixpoint>,\
    loop-mssa(licm),simplifycfg)";

/// Runs `passes`' pipeline on `module` for `tm`, the module's
/// functions marked as running with subnormals flushed (every CPU run does,
/// see `smelt_runtime::fpenv`).
pub(crate) fn optimize(
    module: &Module<'_>,
    tm: &TargetMachine,
    options: &CompileOptions,
    passes: Passes,
) -> Result<(), CpuError> {
    smelt_llvm::math::denormal_preserve_sign(module);
    let pbo = PassBuilderOptions::create();
    let vectorize = options.opt_level >= 2;
    pbo.set_loop_vectorization(vectorize);
    pbo.set_loop_slp_vectorization(vectorize);
    pbo.set_loop_interleaving(vectorize);
    pbo.set_loop_unrolling(options.opt_level >= 2);
    let pipeline = match passes {
        Passes::Kernels if options.opt_level >= 2 => {
            std::env::var("SMELT_KERNEL_PASSES").ok().filter(|p| !p.trim().is_empty()).unwrap_or(KERNEL_PASSES.into())
        }
        _ => format!("default<O{}>", options.opt_level.min(3)),
    };
    let passes = format!("{pipeline},{}", smelt_llvm::math::INLINE_VECTOR_VARIANTS);
    module.run_passes(&passes, tm, pbo).map_err(|e| CpuError::llvm(e.to_string()))?;
    if smelt_llvm::math::release_vector_variants(module) {
        module.run_passes("globaldce", tm, PassBuilderOptions::create()).map_err(|e| CpuError::llvm(e.to_string()))?;
    }
    Ok(())
}
