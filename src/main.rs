//! The `smelt` command line: parse, convert, verify, run and check HLO modules
//! (read from HLO text, HloModuleProto or StableHLO files).
//!
//! Output formats here are contracts other tools rely on (`smelt check`'s
//! `PASS`/`FAIL` lines and summary, `out<k>.npy` files). Exit status: 0 on success,
//! 1 for bad input or failed checks, 2 for usage errors (clap's convention).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::OnceLock;
use std::time::Instant;

use anyhow::{Context, Result, anyhow, bail};
use clap::{Args, Parser, Subcommand, ValueEnum};
use smelt::case::{self, Case};
use smelt::engine::{self, Compiled};
use smelt::formats::Format;
use smelt::hlo::{Array, Literal, Module, Shape, npy, text};
use smelt_passes::{Options, PassContext};

mod bench_cmd;
mod gpu_bench;
mod onnx_cmd;
mod quantize_cmd;

/// Large freed blocks are kept for reuse, so repeated runs write warm memory
/// instead of faulting in fresh pages (see `smelt::alloc`).
#[global_allocator]
static ALLOCATOR: smelt::alloc::BlockCache = smelt::alloc::BlockCache;

#[derive(Parser)]
#[command(name = "smelt", version, about = "An XLA-style tensor compiler", max_term_width = 100)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Format of the module files read (default: detected from the content).
    #[arg(long, global = true, value_enum)]
    format: Option<FormatArg>,
    /// The module file inside case folders (e.g. module.stablehlo.mlir, module.pb).
    #[arg(long = "module", global = true, value_name = "NAME", default_value = case::DEFAULT_MODULE)]
    case_module: String,
}

/// `--format`: how module files are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum FormatArg {
    /// XLA HLO text.
    Hlo,
    /// A serialized xla.HloModuleProto (HloProto and HloSnapshot wrappers too).
    Proto,
    /// StableHLO MLIR text, as JAX prints it.
    Stablehlo,
}

impl FormatArg {
    fn format(self) -> Format {
        match self {
            FormatArg::Hlo => Format::HloText,
            FormatArg::Proto => Format::HloProto,
            FormatArg::Stablehlo => Format::StableHlo,
        }
    }
}

/// The global options on how modules are read, set once from the command line.
struct ModuleInput {
    format: Option<Format>,
    case_module: String,
}

static MODULE_INPUT: OnceLock<ModuleInput> = OnceLock::new();

fn module_input() -> &'static ModuleInput {
    MODULE_INPUT.get_or_init(|| ModuleInput { format: None, case_module: case::DEFAULT_MODULE.to_string() })
}

/// The case in `dir`, its module file named by `--module`.
fn load_case(dir: &Path) -> Result<Case> {
    Ok(Case::load_named(dir, &module_input().case_module)?)
}

/// The case folders in `paths` (see `case::find_cases`), by `--module`.
fn find_cases(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    Ok(case::find_cases(paths, &module_input().case_module)?)
}

/// A backend by name: the interpreter or a compiled backend of the registry
/// (`smelt::engine::backend_names`), checked and listed by clap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Backend(&'static str);

impl ValueEnum for Backend {
    fn value_variants<'a>() -> &'a [Self] {
        static ALL: OnceLock<Vec<Backend>> = OnceLock::new();
        ALL.get_or_init(|| engine::backend_names().into_iter().map(Backend).collect())
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        let help = match smelt::jit::registry().get(self.0) {
            Ok(b) => b.description(),
            Err(_) => "the reference interpreter",
        };
        Some(clap::builder::PossibleValue::new(self.0).help(help))
    }
}

/// The machine code is generated for.
#[derive(Args, Clone, Debug)]
struct TargetArgs {
    /// Target triple (default: the host), e.g. aarch64-unknown-linux-gnu.
    #[arg(long)]
    target: Option<String>,
    /// Target CPU (default for compile: the host CPU, or generic for another
    /// target; for aot: x86-64-v2 on x86-64, generic otherwise; native: this machine's).
    #[arg(long)]
    cpu: Option<String>,
    /// Target features such as +avx2,-avx512f (default: the CPU's).
    #[arg(long)]
    features: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum PipelineName {
    /// Run the module as written, without optimization passes.
    None,
    /// smelt's default middle end (simplification, fusion).
    Default,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum EmitKind {
    /// The kernel form every backend renders (steps, kernels, buffers), as text.
    Kernel,
    /// LLVM IR as generated.
    Llvm,
    /// LLVM IR after O3.
    LlvmOpt,
    /// Target assembly.
    Asm,
    /// An object file.
    Obj,
    /// Cranelift IR of every kernel after Cranelift's optimizations (--backend cranelift).
    Clif,
    /// PTX assembly, one module holding every kernel (--backend gpu; no GPU needed).
    Ptx,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum VizFormat {
    /// Graphviz DOT, fusions as clusters.
    Dot,
    /// A self-contained HTML page with an SVG drawing.
    Html,
}

/// `smelt quantize --method`.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum CalibrationMethod {
    /// The smallest and largest values seen.
    Minmax,
    /// The --percentile of the values at each end: outliers clip.
    Percentile,
    /// The threshold minimizing the KL divergence between the values and their quantized form.
    Entropy,
}

/// `smelt quantize --activations`.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum ActivationType {
    U8,
    S8,
}

#[derive(Subcommand)]
enum Command {
    /// Device benchmarks (needs an NVIDIA GPU; run by scripts/gpu-check.sh): a fused
    /// elementwise chain over GiB-sized f32 arrays beside a device-to-device copy,
    /// and an f32 matrix product through smelt beside cuBLAS called directly.
    GpuBench {
        /// Size of each of the chain's three inputs and its output, in GiB.
        #[arg(long, default_value_t = 1.0)]
        gib: f64,
        /// Side of the square GEMM.
        #[arg(long, default_value_t = 4096)]
        gemm: i64,
        /// Timed runs per measurement (the median is reported).
        #[arg(long, default_value_t = 20)]
        runs: usize,
        /// Also write the figures as JSON to this file.
        #[arg(long, value_name = "FILE")]
        json: Option<PathBuf>,
    },
    /// Parse a module file and print it as HLO text in canonical form.
    Parse {
        /// HLO text, HloModuleProto or StableHLO file (see --format).
        file: PathBuf,
    },
    /// Convert a module file between formats: HLO text, StableHLO or an
    /// HloModuleProto in; HLO text or an HloModuleProto out.
    Convert {
        /// The module to read (its format detected, or given by --format).
        file: PathBuf,
        /// Format to write (default: from the output's extension, .pb -> proto,
        /// else hlo).
        #[arg(long, value_enum)]
        to: Option<FormatArg>,
        #[arg(short, long, value_name = "FILE")]
        output: PathBuf,
    },
    /// Parse and verify an HLO module; prints a one-line summary.
    Verify { file: PathBuf },
    /// Run a module's entry computation.
    Run {
        /// An HLO text file, or a case folder (module.hlo plus in*.npy).
        path: PathBuf,
        /// Input .npy files, one per entry parameter in order. Without inputs, a
        /// case folder's in*.npy are used, else deterministic random inputs.
        #[arg(long = "input", value_name = "FILE.npy")]
        inputs: Vec<PathBuf>,
        /// Write out0.npy, out1.npy, ... (tuple results flattened) to this folder
        /// instead of printing a summary.
        #[arg(long, value_name = "DIR")]
        out_dir: Option<PathBuf>,
        #[arg(long, value_enum, default_value = "interp")]
        backend: Backend,
        /// Middle end to run first (default: none for interp, default for compiled backends).
        #[arg(long, value_enum)]
        pipeline: Option<PipelineName>,
    },
    /// Optimize a module and print the result (or statistics, or fusion decisions).
    Opt {
        file: PathBuf,
        #[arg(long, value_enum, default_value = "default")]
        pipeline: PipelineName,
        /// Write the module before the first pass and after every pass that changed
        /// it to DIR as 0000.input.hlo, 0001.after.<pass>.hlo, ...
        #[arg(long, value_name = "DIR")]
        dump_to: Option<PathBuf>,
        /// Print `name: value` statistics instead of the module.
        #[arg(long)]
        stats: bool,
        /// Print `producer -> consumer: reason` for every declined fusion, then
        /// each fusion's modelled work fused and unfused, instead of the module.
        #[arg(long)]
        explain_fusion: bool,
        /// Skip a pass (repeatable); names as in the dumps.
        #[arg(long = "disable-pass", value_name = "NAME")]
        disabled: Vec<String>,
        /// Write the optimized module to this file.
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
    },
    /// Differentiate a module: its entry must return a scalar floating-point
    /// loss (or a tuple whose element 0 is one); writes a module with the same
    /// parameters returning tuple(loss, d loss / d p for each chosen parameter).
    Grad {
        /// The forward module (HLO text, HloModuleProto or StableHLO).
        file: PathBuf,
        /// Entry parameter numbers to differentiate with respect to, comma
        /// separated (default: every floating-point parameter, in order).
        #[arg(long, value_delimiter = ',', value_name = "N,...")]
        wrt: Vec<u32>,
        /// Write the gradient module (HLO text) here instead of standard output.
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
    },
    /// Draw a (optimized) module: fusions as clusters.
    Viz {
        file: PathBuf,
        #[arg(long, value_enum, default_value = "default")]
        pipeline: PipelineName,
        /// Drawing to write (--format names the module's format, as everywhere).
        #[arg(long = "to", value_enum, default_value = "html")]
        to: VizFormat,
        #[arg(short, long, value_name = "FILE")]
        output: PathBuf,
    },
    /// Compile a module and write what the backend generates.
    Compile {
        file: PathBuf,
        #[arg(long, value_enum, default_value = "cpu")]
        backend: Backend,
        #[arg(long, value_enum)]
        emit: EmitKind,
        #[command(flatten)]
        target: TargetArgs,
        /// GPU architecture sm_XX for --backend gpu (80: Ampere, 90: Hopper).
        #[arg(long, default_value_t = smelt::gpu::DEFAULT_SM)]
        sm: u32,
        /// Output file (default: standard output; required for obj).
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
    },
    /// Compile ahead of time: an object file and a C header (and Rust bindings) to
    /// link into a program with a plain C compiler (docs/aot.md).
    Aot {
        file: PathBuf,
        /// Symbol prefix: NAME_run, NAME_arg_bytes, ... (a C identifier).
        #[arg(long)]
        name: String,
        /// Where NAME.o and NAME.h go.
        #[arg(long, value_name = "DIR")]
        out_dir: PathBuf,
        #[command(flatten)]
        target: TargetArgs,
        /// Threads large kernels split over (pthreads); 1 needs no libpthread.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Also write NAME.rs, Rust bindings.
        #[arg(long)]
        rust: bool,
    },
    /// Time compiling and running case folders (inputs from in*.npy, else random).
    Bench {
        /// Case folders (module.hlo, optional in*.npy and case.json), or folders of them.
        #[arg(required_unless_present = "stream")]
        paths: Vec<PathBuf>,
        #[arg(long, value_enum, default_value = "interp")]
        backend: Backend,
        /// First measure the machine's streaming bandwidth (a STREAM triad over
        /// 3 x 256 MiB on the backend's threads), the yardstick for the GB/s column.
        #[arg(long)]
        stream: bool,
        /// Middle end to run first (default: default).
        #[arg(long, value_enum)]
        pipeline: Option<PipelineName>,
        /// Print one JSON object per case per line (the contract compare.py reads).
        #[arg(long)]
        json: bool,
        /// Timed runs per case (default: as many as fit in --time-s).
        #[arg(long, conflicts_with = "time_s")]
        runs: Option<usize>,
        /// Seconds of timed runs per case.
        #[arg(long, default_value_t = 1.0)]
        time_s: f64,
        /// Time every step of the compiled program and print where the time goes
        /// (milliseconds per run, busiest first); adds two clock reads per step.
        #[arg(long)]
        profile: bool,
        /// Print where each case's compile time went: the middle end, lowering
        /// and the backend's phases, then the ten costliest passes and phases.
        #[arg(long)]
        compile_profile: bool,
        /// Also time the first result through the tiered JIT (`smelt_jit`'s
        /// `tiered` client, no disk cache: Cranelift code at once, LLVM in
        /// the background), and when the LLVM code was ready.
        #[arg(long)]
        first_result: bool,
        /// Compile through a `smelt_jit::Client` (its in-memory cache, and the
        /// persistent one under $SMELT_CACHE_DIR; the default pipeline always)
        /// and print the client's cache statistics after the bench.
        #[arg(long)]
        cache_stats: bool,
    },
    /// Run case folders and compare the outputs with the reference out*.npy.
    Check {
        /// Case folders, or folders of case folders.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        #[arg(long, value_enum, default_value = "interp")]
        backend: Backend,
        /// Middle end to run first (default: none for interp, default for compiled backends).
        #[arg(long, value_enum)]
        pipeline: Option<PipelineName>,
    },
    /// Import an ONNX model and run it through a graph session (clusters compiled).
    OnnxRun {
        /// A .onnx file, or a case folder holding model.onnx.
        model: PathBuf,
        /// A graph input as NAME=FILE.npy (repeatable); inputs not given are read
        /// from <NAME>.npy beside the model.
        #[arg(long = "input", value_name = "NAME=FILE.npy")]
        inputs: Vec<String>,
        /// Write <output name>.npy per graph output to this folder instead of
        /// printing a summary.
        #[arg(long, value_name = "DIR")]
        out_dir: Option<PathBuf>,
        #[arg(long, value_enum, default_value = "cpu")]
        backend: Backend,
        /// Print the clusters after the run (ops, inputs, outputs, signatures, runs).
        #[arg(long)]
        clusters: bool,
        /// After the run, write each cluster's HLO as DIR/cluster_<i>/module.hlo
        /// (one folder per compiled signature: cluster_<i>_<k>), case folders
        /// that `smelt bench`, `opt` and `compile` read.
        #[arg(long, value_name = "DIR")]
        dump_clusters: Option<PathBuf>,
    },
    /// Run ONNX case folders (model.onnx, <input>.npy, expected/<output>.npy,
    /// case.json) and compare with the expected outputs.
    OnnxCheck {
        /// Case folders, or folders of case folders.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        #[arg(long, value_enum, default_value = "cpu")]
        backend: Backend,
    },
    /// Time an ONNX model: import, first run (clustering and compiling), and
    /// steady-state runs (inputs from --input or <NAME>.npy, else random).
    OnnxBench {
        /// A .onnx file, or a case folder holding model.onnx.
        model: PathBuf,
        /// A graph input as NAME=FILE.npy (repeatable).
        #[arg(long = "input", value_name = "NAME=FILE.npy")]
        inputs: Vec<String>,
        #[arg(long, value_enum, default_value = "cpu")]
        backend: Backend,
        /// Steady-state runs timed (the median is reported).
        #[arg(long, default_value_t = 20)]
        runs: usize,
        /// Print one JSON object instead.
        #[arg(long)]
        json: bool,
    },
    /// Quantize an ONNX model to int8 after training: run it over calibration
    /// batches (DIR/*.npz, each mapping graph input names to arrays), choose
    /// scales and zero points, and write a standard QDQ model (s8 weights per
    /// channel, u8 or s8 activations) that onnxruntime reads too.
    Quantize {
        /// The float model.
        model: PathBuf,
        /// A folder of .npz files (np.savez), one calibration batch each.
        #[arg(long, value_name = "DIR")]
        calibration: PathBuf,
        /// Where to write the QDQ model.
        #[arg(short, long, value_name = "OUT.onnx")]
        output: PathBuf,
        /// How activation ranges are chosen from what calibration observed.
        #[arg(long, value_enum, default_value = "minmax")]
        method: CalibrationMethod,
        /// The percentile kept at each end with --method percentile.
        #[arg(long, default_value_t = 99.999)]
        percentile: f64,
        /// The activations' integer type.
        #[arg(long, value_enum, default_value = "u8")]
        activations: ActivationType,
        /// One weight scale per tensor instead of per output channel.
        #[arg(long)]
        per_tensor: bool,
        /// The backend calibration (and --report) runs on.
        #[arg(long, value_enum, default_value = "cpu")]
        backend: Backend,
        /// Print each layer's ranges and the quantized model's output error
        /// against the float model on the calibration batches.
        #[arg(long)]
        report: bool,
    },
    /// Import an ONNX model and print its graph as Graphviz DOT, clusters as subgraphs.
    GraphDump {
        /// A .onnx file, or a case folder holding model.onnx.
        model: PathBuf,
        #[arg(short, long, value_name = "OUT.dot")]
        output: Option<PathBuf>,
    },
    /// Inspect or empty the persistent JIT cache ($SMELT_CACHE_DIR, bounded by
    /// $SMELT_CACHE_MAX, default 1G; least recently used entries go first).
    Cache {
        #[arg(value_enum)]
        action: CacheAction,
        /// The cache folder (default: $SMELT_CACHE_DIR).
        #[arg(long)]
        dir: Option<PathBuf>,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum CacheAction {
    /// Entries, bytes and the bound.
    Stats,
    /// Remove every entry.
    Clear,
}

impl Backend {
    fn name(self) -> &'static str {
        self.0
    }

    /// Whether this machine can run the backend at all (one clear error up
    /// front rather than one per case).
    fn available(self) -> Result<()> {
        if self.0 != engine::INTERP {
            engine::backend(self.0)?;
        }
        Ok(())
    }
}

impl PipelineName {
    fn engine(self) -> engine::Pipeline {
        match self {
            PipelineName::None => engine::Pipeline::None,
            PipelineName::Default => engine::Pipeline::Default,
        }
    }
}

/// The named pipeline, or the backend's own when none is named.
fn pipeline_for(pipeline: Option<PipelineName>, backend: Backend) -> engine::Pipeline {
    pipeline.map_or(engine::default_pipeline(backend.name()), PipelineName::engine)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let input = ModuleInput { format: cli.format.map(FormatArg::format), case_module: cli.case_module.clone() };
    // Set once, here, before any command reads a module.
    let _ = MODULE_INPUT.set(input);
    // The routine families built into this binary (release builds).
    smelt_prebuilt::register();
    let result = match cli.command {
        Command::Parse { file } => cmd_parse(&file),
        Command::Convert { file, to, output } => cmd_convert(&file, to, &output),
        Command::Verify { file } => cmd_verify(&file),
        Command::Run { path, inputs, out_dir, backend, pipeline } => {
            cmd_run(&path, &inputs, out_dir.as_deref(), backend, pipeline)
        }
        Command::Check { paths, backend, pipeline } => {
            backend.available().and_then(|()| cmd_check(&paths, backend, pipeline))
        }
        Command::OnnxRun { model, inputs, out_dir, backend, clusters, dump_clusters } => {
            onnx_cmd::cmd_onnx_run(&model, &inputs, out_dir.as_deref(), backend, clusters, dump_clusters.as_deref())
                .map(|()| ExitCode::SUCCESS)
        }
        Command::OnnxCheck { paths, backend } => {
            onnx_cmd::cmd_onnx_check(&paths, backend).map(|ok| if ok { ExitCode::SUCCESS } else { ExitCode::from(1) })
        }
        Command::OnnxBench { model, inputs, backend, runs, json } => {
            onnx_cmd::cmd_onnx_bench(&model, &inputs, backend, runs, json).map(|()| ExitCode::SUCCESS)
        }
        Command::Quantize {
            model,
            calibration,
            output,
            method,
            percentile,
            activations,
            per_tensor,
            backend,
            report,
        } => {
            let method = match method {
                CalibrationMethod::Minmax => smelt::jit::onnx::quantize::Calibration::MinMax,
                CalibrationMethod::Percentile => smelt::jit::onnx::quantize::Calibration::Percentile(percentile),
                CalibrationMethod::Entropy => smelt::jit::onnx::quantize::Calibration::Entropy,
            };
            let options = smelt::jit::onnx::quantize::QuantizeOptions {
                calibration: method,
                activations: match activations {
                    ActivationType::U8 => smelt::hlo::DType::U8,
                    ActivationType::S8 => smelt::hlo::DType::S8,
                },
                per_channel: !per_tensor,
                backend: backend.name().to_string(),
            };
            backend
                .available()
                .and_then(|()| quantize_cmd::cmd_quantize(&model, &calibration, &output, &options, report))
                .map(|()| ExitCode::SUCCESS)
        }
        Command::GraphDump { model, output } => {
            onnx_cmd::cmd_graph_dump(&model, output.as_deref()).map(|()| ExitCode::SUCCESS)
        }
        Command::Cache { action, dir, json } => cmd_cache(action, dir, json).map(|()| ExitCode::SUCCESS),
        Command::Opt { file, pipeline, dump_to, stats, explain_fusion, disabled, output } => {
            cmd_opt(&file, pipeline, dump_to, stats, explain_fusion, disabled, output.as_deref())
        }
        Command::Viz { file, pipeline, to, output } => cmd_viz(&file, pipeline, to, &output),
        Command::Grad { file, wrt, output } => cmd_grad(&file, &wrt, output.as_deref()),
        Command::Aot { file, name, out_dir, target, threads, rust } => {
            let TargetArgs { target, cpu, features } = target;
            let options = smelt::aot::AotOptions { triple: target, cpu, features, threads };
            cmd_aot(&file, &name, &out_dir, &options, rust)
        }
        Command::GpuBench { gib, gemm, runs, json } => gpu_bench::run(gib, gemm, runs, json.as_deref()),
        Command::Compile { file, backend, emit, target, sm, output } => {
            let TargetArgs { target, cpu, features } = target;
            cmd_compile(&file, backend, emit, target, cpu, features, sm, output.as_deref())
        }
        Command::Bench {
            paths,
            backend,
            stream,
            pipeline,
            json,
            runs,
            time_s,
            profile,
            compile_profile,
            first_result,
            cache_stats,
        } => {
            if let Err(e) = backend.available() {
                eprintln!("error: {e:#}");
                return ExitCode::from(1);
            }
            if stream {
                bench_cmd::print_stream(json);
            }
            let jit = match cache_stats.then(|| smelt::jit::Client::new(backend.name())).transpose() {
                Ok(client) => client,
                Err(e) => {
                    eprintln!("error: {e:#}");
                    return ExitCode::from(1);
                }
            };
            let settings =
                bench_cmd::BenchSettings { backend, pipeline, runs, time_s, profile, compile_profile, first_result };
            let code = bench_cmd::cmd_bench(&paths, &settings, json, jit.as_ref());
            if let Some(client) = jit {
                // stdout is a contract with --json.
                if json { eprintln!("{}", client.stats()) } else { println!("{}", client.stats()) }
            }
            code
        }
    };
    // Convolution routines still being specialized in the background land
    // in the routine cache for the next process.
    let jobs = smelt_cpu::routines::background_jobs();
    if jobs > 0 && std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        eprintln!("finishing {jobs} background build(s) of convolution routines for the cache...");
    }
    smelt_cpu::routines::wait_for_background();
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(1)
        }
    }
}

/// `smelt grad`: the gradient module of a forward module.
fn cmd_grad(file: &Path, wrt: &[u32], output: Option<&Path>) -> Result<ExitCode> {
    let module = load_module(file)?;
    let wrt = if wrt.is_empty() { smelt::passes::autodiff::float_params(&module) } else { wrt.to_vec() };
    if wrt.is_empty() {
        bail!("{}: the entry computation has no floating-point parameter to differentiate", file.display());
    }
    let grad = smelt::passes::grad(&module, &wrt).map_err(|e| anyhow!("{}: {e}", file.display()))?;
    let text = text::print_module(&grad);
    match output {
        Some(path) => std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))?,
        None => print!("{text}"),
    }
    Ok(ExitCode::SUCCESS)
}

/// Reads a module file in the `--format` given or the one its content shows;
/// parse errors name `file:line:col`.
fn load_module(path: &Path) -> Result<Module> {
    read_module_file(path).map(|(module, _, _)| module)
}

/// [`load_module`], also saying which format was read and how many
/// milliseconds reading took (the file read from disk first, not counted).
fn read_module_file(path: &Path) -> Result<(Module, Format, f64)> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let format = module_input().format.unwrap_or_else(|| Format::detect(&bytes));
    let t0 = Instant::now();
    let module = smelt::formats::read_module(&bytes, Some(format))
        .map_err(|e| anyhow!("{}", e.render(&path.display().to_string())))?;
    Ok((module, format, t0.elapsed().as_secs_f64() * 1e3))
}

/// Parses and verifies; verifier errors are prefixed with the file name.
fn load_verified(path: &Path) -> Result<Module> {
    let module = load_module(path)?;
    smelt::hlo::verify(&module).map_err(|e| anyhow!("{}: {e}", path.display()))?;
    Ok(module)
}

fn cmd_convert(path: &Path, to: Option<FormatArg>, output: &Path) -> Result<ExitCode> {
    let module = load_verified(path)?;
    let to = match to {
        Some(f) => f.format(),
        None if output.extension().is_some_and(|e| e == "pb" || e == "proto") => Format::HloProto,
        None if output.extension().is_some_and(|e| e == "mlir") => Format::StableHlo,
        None => Format::HloText,
    };
    let bytes = match to {
        Format::HloText => text::print_module(&module).into_bytes(),
        Format::HloProto => smelt::formats::write_proto(&module),
        Format::StableHlo => bail!("writing StableHLO is not supported; convert to hlo or proto"),
    };
    std::fs::write(output, bytes).with_context(|| format!("cannot write {}", output.display()))?;
    eprintln!("{} -> {} ({to})", path.display(), output.display());
    Ok(ExitCode::SUCCESS)
}

fn cmd_parse(path: &Path) -> Result<ExitCode> {
    let module = load_module(path)?;
    print!("{}", text::print_module(&module));
    Ok(ExitCode::SUCCESS)
}

fn cmd_verify(path: &Path) -> Result<ExitCode> {
    let (module, format, read_ms) = read_module_file(path)?;
    smelt::hlo::verify(&module).map_err(|e| anyhow!("{}: {e}", path.display()))?;
    println!(
        "{}: ok ({} computations, {} instructions; {format} read in {read_ms:.2} ms)",
        path.display(),
        module.comps.len(),
        module.instruction_count()
    );
    Ok(ExitCode::SUCCESS)
}

/// The element types of a result's leaves, as declared (complex ones included).
fn module_result_types(shape: &Shape) -> Vec<smelt::hlo::DType> {
    shape.leaves().iter().map(|a| a.dtype).collect()
}

/// Reads one input per entry parameter, checking shape and dtype.
fn read_inputs(paths: &[PathBuf], params: &[Shape]) -> Result<Vec<Literal>> {
    if paths.len() != params.len() {
        bail!("the entry computation takes {} parameters, but {} --input files were given", params.len(), paths.len());
    }
    paths
        .iter()
        .zip(params)
        .enumerate()
        .map(|(i, (path, shape))| {
            let Shape::Array(want) = shape else {
                bail!("parameter {i} has tuple shape {shape}; pass tuple parameters through a case folder")
            };
            let array = npy::read(path, Some(want.dtype))?;
            // A complex array is read as its parts (`smelt_hlo::complex`).
            if array.dims != want.storage().dims {
                bail!("{}: has shape {}, but parameter {i} is {want}", path.display(), array.shape());
            }
            Ok(Literal::Array(array))
        })
        .collect()
}

fn cmd_opt(
    path: &Path,
    pipeline: PipelineName,
    dump_to: Option<PathBuf>,
    stats: bool,
    explain_fusion: bool,
    disabled: Vec<String>,
    output: Option<&Path>,
) -> Result<ExitCode> {
    let mut module = load_verified(path)?;
    for name in &disabled {
        if smelt_passes::pass_by_name(name).is_none() {
            bail!(
                "unknown pass '{name}' in --disable-pass (known: {})",
                smelt_passes::pipeline::pass_names().join(", ")
            );
        }
    }
    let before = module.instruction_count();
    let mut cx = PassContext::new(Options::default());
    cx.dump_dir = dump_to;
    cx.disabled = disabled.into_iter().collect();
    engine::optimize(&mut module, pipeline.engine(), &mut cx)?;
    if let Some(out) = output {
        std::fs::write(out, text::print_module(&module)).with_context(|| format!("cannot write {}", out.display()))?;
    }
    if stats {
        let s = smelt_passes::report::module_stats(&module);
        println!("instructions_before: {before}");
        println!("instructions_after: {}", s.instructions);
        println!("fusions: {}", s.fusions);
        println!("kernels: {}", s.kernels);
        println!("peak_temp_bytes: {}", s.peak_temp_bytes);
        for (name, value) in &cx.counters {
            println!("{name}: {value}");
        }
        for name in &cx.pass_order {
            println!("pass_ms.{name}: {:.3}", cx.timings[name].as_secs_f64() * 1e3);
        }
    }
    if explain_fusion {
        for n in &cx.fusion_notes {
            println!("{} -> {}: {}", n.producer, n.consumer, n.reason);
        }
        // What each fusion made costs against its instructions run unfused
        // (smelt_passes::fusion_cost).
        for (_, comp) in module.comps.iter() {
            for (_, inst) in comp.insts.iter().filter(|(_, i)| i.opcode == smelt_hlo::Opcode::Fusion) {
                if let Some(c) = smelt_passes::fusion_cost::fusion_cost(&module, inst) {
                    println!(
                        "{}: work {:.3e} fused, {:.3e} unfused ({:.2}x)",
                        inst.name,
                        c.fused,
                        c.unfused,
                        c.ratio()
                    );
                }
            }
        }
    }
    if !stats && !explain_fusion && output.is_none() {
        print!("{}", text::print_module(&module));
    }
    Ok(ExitCode::SUCCESS)
}

fn cmd_viz(path: &Path, pipeline: PipelineName, format: VizFormat, output: &Path) -> Result<ExitCode> {
    let mut module = load_verified(path)?;
    engine::optimize(&mut module, pipeline.engine(), &mut PassContext::new(Options::default()))?;
    let drawing = match format {
        VizFormat::Dot => smelt::viz::to_dot(&module),
        VizFormat::Html => smelt::viz::to_html(&module),
    };
    std::fs::write(output, drawing).with_context(|| format!("cannot write {}", output.display()))?;
    println!("wrote {}", output.display());
    Ok(ExitCode::SUCCESS)
}

fn cmd_run(
    path: &Path,
    inputs: &[PathBuf],
    out_dir: Option<&Path>,
    backend: Backend,
    pipeline: Option<PipelineName>,
) -> Result<ExitCode> {
    let (module_path, case) = if path.is_dir() {
        let case = load_case(path)?;
        (case.module_path.clone(), Some(case))
    } else {
        (path.to_path_buf(), None)
    };
    let t0 = Instant::now();
    let module = load_verified(&module_path)?;
    let params = module.entry().param_shapes();
    let result_shape = module.entry().result_shape().clone();
    let compiled = Compiled::new(module, backend.name(), pipeline_for(pipeline, backend))?;
    let load_ms = t0.elapsed().as_secs_f64() * 1e3;
    // The case's reference outputs apply when its own inputs are used.
    let mut reference = None;
    let args = if !inputs.is_empty() {
        read_inputs(inputs, &params)?
    } else if let Some(case) = case.as_ref().filter(|c| !c.inputs.is_empty()) {
        if !case.outputs.is_empty() {
            reference = Some((case, case.load_expected()?));
        }
        case.load_inputs()?
    } else {
        smelt::hlo::random::random_inputs(&params)?
    };
    let t1 = Instant::now();
    let outputs = compiled.run(&args)?;
    let run_ms = t1.elapsed().as_secs_f64() * 1e3;
    match out_dir {
        Some(dir) => {
            std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
            // Complex results are their parts: written back as complex arrays.
            let declared = module_result_types(&result_shape);
            for (k, out) in outputs.iter().enumerate() {
                let dtype = declared.get(k).copied().unwrap_or(out.dtype());
                npy::write_as(&dir.join(format!("out{k}.npy")), out, dtype)?;
            }
            println!("wrote {} outputs to {}", outputs.len(), dir.display());
        }
        None => {
            for (k, out) in outputs.iter().enumerate() {
                println!("out{k}: {}", summarize(out));
            }
        }
    }
    println!("compile {load_ms:.2} ms, run {run_ms:.2} ms (backend {})", backend.name());
    if let Some((case, want)) = reference {
        let files = case.outputs.iter().filter_map(|o| o.path.file_name()).map(|f| f.to_string_lossy());
        let files = files.collect::<Vec<_>>().join(", ");
        match case::compare_outputs(case, &outputs, &want) {
            Ok(()) => {
                let err = case::max_abs_error(&outputs, &want);
                println!("matches the reference outputs ({files}; max abs error {err:.3e})");
            }
            Err(reason) => {
                println!("DOES NOT match the reference outputs ({files}): {reason}");
                return Ok(ExitCode::from(1));
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `f32[2,3] min -1 max 2 mean 0.5 [first values]`.
fn summarize(a: &Array) -> String {
    let n = a.len();
    let shown: Vec<String> = (0..n.min(6)).map(|i| smelt::hlo::literal::format_element(&a.data, i, false)).collect();
    let more = if n > 6 { ", ..." } else { "" };
    let mut s = format!("{}", a.shape());
    if n > 0 && (a.dtype().is_float() || a.dtype().is_int()) {
        let values: Vec<f64> = (0..n).map(|i| a.data.get_f64(i)).collect();
        let min = values.iter().copied().fold(f64::INFINITY, f64::min);
        let max = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let mean = values.iter().sum::<f64>() / n.max(1) as f64;
        s += &format!(" min {min:.6} max {max:.6} mean {mean:.6}");
    }
    s + &format!(" [{}{more}]", shown.join(", "))
}

fn cmd_check(paths: &[PathBuf], backend: Backend, pipeline: Option<PipelineName>) -> Result<ExitCode> {
    let cases = find_cases(paths)?;
    let ok = check_all(&cases, |dir| check_case(dir, backend, pipeline));
    Ok(if ok { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// Checks each case folder, printing `PASS name` or `FAIL name: reason` per case
/// and `N passed, M failed` last; a panic counts as a failure. True if all passed.
fn check_all(cases: &[PathBuf], check: impl Fn(&Path) -> Result<()>) -> bool {
    let (mut passed, mut failed) = (0, 0);
    for dir in cases {
        let name = dir.file_name().map_or_else(|| dir.display().to_string(), |n| n.to_string_lossy().into_owned());
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check(dir)))
            .unwrap_or_else(|_| Err(anyhow!("internal compiler error (panic); please report it")));
        match outcome {
            Ok(()) => {
                passed += 1;
                println!("PASS {name}");
            }
            Err(e) => {
                failed += 1;
                let reason = format!("{e:#}").replace('\n', " | ");
                println!("FAIL {name}: {reason}");
            }
        }
    }
    println!("{passed} passed, {failed} failed");
    failed == 0
}

fn check_case(dir: &Path, backend: Backend, pipeline: Option<PipelineName>) -> Result<()> {
    let case = load_case(dir)?;
    let module = load_verified(&case.module_path)?;
    let compiled = Compiled::new(module, backend.name(), pipeline_for(pipeline, backend))?;
    let args = case.load_inputs()?;
    let want = case.load_expected()?;
    if want.is_empty() {
        bail!("no reference outputs (out*.npy) in {}", dir.display());
    }
    let got = compiled.run(&args)?;
    case::compare_outputs(&case, &got, &want).map_err(|m| anyhow!(m))
}

fn cmd_compile(
    path: &Path,
    backend: Backend,
    emit: EmitKind,
    target: Option<String>,
    cpu: Option<String>,
    features: Option<String>,
    sm: u32,
    output: Option<&Path>,
) -> Result<ExitCode> {
    let mut module = load_verified(path)?;
    // For the host, the middle end as the JIT runs it for this backend (its
    // fusion rules, u8 x s8 products where the CPU has them).
    let host = target.is_none() && cpu.is_none() && features.is_none();
    let options = match engine::backend(backend.name()) {
        Ok(b) if host => b.capabilities().pass_options(),
        _ => Options::default(),
    };
    engine::optimize(&mut module, engine::Pipeline::Default, &mut PassContext::new(options))?;
    let bytes = match backend.name() {
        "cpu" => {
            let program = smelt::kernel::lower_module(&module)?;
            let options = smelt::cpu::CompileOptions { triple: target, cpu, features, ..Default::default() };
            let what = match emit {
                EmitKind::Kernel => return write_output(output, program.to_string().as_bytes(), false),
                EmitKind::Llvm => smelt::cpu::Emit::LlvmIr,
                EmitKind::LlvmOpt => smelt::cpu::Emit::OptimizedLlvmIr,
                EmitKind::Asm => smelt::cpu::Emit::Assembly,
                EmitKind::Obj => smelt::cpu::Emit::Object,
                EmitKind::Clif => bail!("--emit clif needs --backend cranelift"),
                EmitKind::Ptx => bail!("--emit ptx needs --backend gpu"),
            };
            smelt::cpu::emit(&smelt::kernel::verify(&program)?, &options, what)?
        }
        "cranelift" => {
            let program = smelt::kernel::lower_module(&module)?;
            let options = smelt::cranelift::CompileOptions::default();
            match emit {
                EmitKind::Kernel => program.to_string().into_bytes(),
                EmitKind::Clif => {
                    smelt::cranelift::emit_clif(&smelt::kernel::verify(&program)?, &options)?.into_bytes()
                }
                _ => bail!("the Cranelift backend emits kernel or clif"),
            }
        }
        "gpu" | "gpu-sim" => {
            let program = smelt::kernel::lower_module(&module)?;
            let options = smelt::gpu::CompileOptions { sm, ..Default::default() };
            let what = match emit {
                EmitKind::Kernel => smelt::gpu::Emit::Kernel,
                EmitKind::Llvm => smelt::gpu::Emit::Llvm,
                EmitKind::LlvmOpt => smelt::gpu::Emit::LlvmOpt,
                EmitKind::Ptx => smelt::gpu::Emit::Ptx,
                _ => bail!("the GPU backend emits kernel, llvm, llvm-opt or ptx"),
            };
            smelt::gpu::emit(&smelt::kernel::verify(&program)?, &options, what)
                .map_err(|e| anyhow!("{}: {e}", path.display()))?
                .into_bytes()
        }
        engine::INTERP => bail!("the interpreter generates no code; use --backend cpu"),
        other => bail!("backend {other} emits no code here"),
    };
    write_output(output, &bytes, emit == EmitKind::Obj)
}

fn cmd_aot(path: &Path, name: &str, out_dir: &Path, options: &smelt::aot::AotOptions, rust: bool) -> Result<ExitCode> {
    if !smelt::aot::is_c_identifier(name) {
        bail!("--name '{name}' is not a C identifier (letters, digits and _, not starting with a digit or __)");
    }
    let module = load_verified(path)?;
    let obj = smelt::aot::compile(&module, name, options).map_err(|e| anyhow!("{}: {e}", path.display()))?;
    std::fs::create_dir_all(out_dir).with_context(|| format!("creating {}", out_dir.display()))?;
    let write = |file: String, bytes: &[u8]| -> Result<()> {
        let p = out_dir.join(file);
        std::fs::write(&p, bytes).with_context(|| format!("writing {}", p.display()))
    };
    write(format!("{name}.o"), &obj.object)?;
    write(format!("{name}.h"), smelt::aot::header(&obj, &path.display().to_string()).as_bytes())?;
    if rust {
        write(format!("{name}.rs"), smelt::aot::rust_bindings(&obj).as_bytes())?;
    }
    eprintln!(
        "{}: {name}.o ({} bytes, {} {}), {name}.h{}; {} args, {} results, {} temp bytes",
        out_dir.display(),
        obj.object.len(),
        obj.triple,
        obj.cpu,
        if rust { format!(", {name}.rs") } else { String::new() },
        obj.params.len(),
        obj.results.len(),
        obj.temp_bytes
    );
    Ok(ExitCode::SUCCESS)
}

/// Writes `bytes` to `output`, or to standard output unless they are `binary`.
fn write_output(output: Option<&Path>, bytes: &[u8], binary: bool) -> Result<ExitCode> {
    match output {
        Some(out) => std::fs::write(out, bytes).with_context(|| format!("cannot write {}", out.display()))?,
        None if binary => bail!("--emit obj needs -o FILE"),
        None => {
            use std::io::Write;
            std::io::stdout().write_all(bytes)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn cmd_cache(action: CacheAction, dir: Option<PathBuf>, json: bool) -> Result<()> {
    let Some(dir) = dir.or_else(smelt::jit::DiskCache::dir_from_env) else {
        bail!("no cache folder: pass --dir or set SMELT_CACHE_DIR");
    };
    let cache = smelt::jit::DiskCache::from_env(&dir)?;
    let shown = dir.display();
    match action {
        CacheAction::Stats => {
            let s = cache.stats().with_context(|| format!("reading the cache folder {shown}"))?;
            if json {
                let line = serde_json::json!({
                    "dir": shown.to_string(), "entries": s.entries, "bytes": s.bytes, "max_bytes": s.max_bytes,
                });
                println!("{line}");
            } else {
                println!("{shown}: {} entries, {} bytes of at most {}", s.entries, s.bytes, s.max_bytes);
            }
        }
        CacheAction::Clear => {
            let removed = cache.clear().with_context(|| format!("clearing the cache folder {shown}"))?;
            if json {
                println!("{}", serde_json::json!({"dir": shown.to_string(), "removed": removed}));
            } else {
                println!("{shown}: removed {removed} entries");
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    /// clap's own consistency checks: no global option shadows a command's.
    #[test]
    fn the_command_line_definition_is_consistent() {
        super::Cli::command().debug_assert();
    }
}
