//! Ahead-of-time compilation: an HLO module to an object file and a C header
//! (and Rust bindings) to link into a program with a plain C compiler.
//!
//! [`compile`] runs the default pipeline and lowering, then
//! `smelt_cpu::aot::compile_aot`, which emits the CPU backend's code for any
//! LLVM target with a C entry point `NAME_run` and nothing left undefined but
//! libc, libm and (with threads) libpthread. [`header`] and [`rust_bindings`]
//! describe the entry point: the ABI is in `docs/aot.md`.

use std::fmt::Write as _;

use smelt_hlo::Module;
use smelt_kernel::ArrayType;

pub use smelt_cpu::aot::{AotObject, is_c_identifier};

/// What `smelt aot` can fail on.
#[derive(Debug, thiserror::Error)]
pub enum AotError {
    #[error("'{0}' is not a C identifier (letters, digits and _, not starting with a digit or __)")]
    Name(String),
    #[error("module does not verify: {0}")]
    Verify(String),
    #[error(transparent)]
    Passes(#[from] smelt_passes::PassError),
    #[error(transparent)]
    Lower(#[from] smelt_kernel::LowerError),
    #[error(transparent)]
    Program(#[from] smelt_kernel::InvalidProgram),
    #[error(transparent)]
    Cpu(#[from] smelt_cpu::CpuError),
    #[error("--threads must be at least 1")]
    Threads,
}

/// Where the code runs and how.
#[derive(Clone, Debug)]
pub struct AotOptions {
    /// Target triple; None is the host's.
    pub triple: Option<String>,
    /// Target CPU; None is a portable CPU for the triple (`x86-64-v2` for
    /// x86-64, `generic` otherwise); `native` is this machine's CPU with all
    /// its features.
    pub cpu: Option<String>,
    /// Target features (`+avx2,...`); None is the CPU's.
    pub features: Option<String>,
    /// Threads large kernels split over (pthreads, fork-join per kernel); 1
    /// makes serial code that needs no libpthread.
    pub threads: usize,
}

impl Default for AotOptions {
    fn default() -> Self {
        AotOptions { triple: None, cpu: None, features: None, threads: 1 }
    }
}

/// The portable CPU for a target triple.
pub fn default_cpu(triple: &str) -> &'static str {
    if triple.starts_with("x86_64") { "x86-64-v2" } else { "generic" }
}

/// The host's target triple.
pub fn host_triple() -> String {
    smelt_cpu::host_target().split(' ').next().unwrap_or_default().to_string()
}

/// Compiles a verified-or-not module into an object named `name`.
pub fn compile(module: &Module, name: &str, options: &AotOptions) -> Result<AotObject, AotError> {
    if !is_c_identifier(name) {
        return Err(AotError::Name(name.to_string()));
    }
    if options.threads == 0 {
        return Err(AotError::Threads);
    }
    smelt_hlo::verify(module).map_err(|e| AotError::Verify(e.to_string()))?;
    let leaf_types = |shapes: Vec<smelt_hlo::Shape>| -> Vec<smelt_hlo::DType> {
        shapes.iter().flat_map(|s| s.leaves().into_iter().map(|a| a.dtype)).collect()
    };
    let declared_params = leaf_types(module.entry().param_shapes());
    let declared_results = leaf_types(vec![module.entry().result_shape().clone()]);
    let mut module = module.clone();
    let mut cx = smelt_passes::PassContext::new(smelt_passes::Options::default());
    smelt_passes::default_pipeline(&cx.options.clone()).run_on(&mut module, &mut cx)?;
    let triple = options.triple.clone().unwrap_or_else(host_triple);
    // `native`: this machine's CPU and all its features (host triple only).
    let native = options.cpu.as_deref() == Some("native");
    let cpu_options = smelt_cpu::CompileOptions {
        triple: if native { None } else { Some(triple.clone()) },
        cpu: if native { None } else { Some(options.cpu.clone().unwrap_or_else(|| default_cpu(&triple).to_string())) },
        features: options.features.clone(),
        ..Default::default()
    };
    let program = smelt_kernel::lower_module_with(&module, &smelt_cpu::lower_options(&cpu_options)?)?;
    let mut obj = smelt_cpu::aot::compile_aot(&smelt_kernel::verify(&program)?, name, &cpu_options, options.threads)?;
    obj.declared_params = declared_params;
    obj.declared_results = declared_results;
    Ok(obj)
}

/// `f32[3,2]`, or for a complex value stored as its parts `c64[3] as parts f32[3,2]`.
fn describe(t: &ArrayType, declared: Option<&smelt_hlo::DType>) -> String {
    let dims: Vec<String> = t.dims.iter().map(|d| d.to_string()).collect();
    let stored = format!("{}[{}]", t.dtype, dims.join(","));
    match declared {
        Some(d) if d.is_complex() => {
            format!(
                "{d}[{}] as parts {stored} (real, imaginary innermost)",
                dims[..dims.len().saturating_sub(1)].join(",")
            )
        }
        _ => stored,
    }
}

/// [`describe`] of each buffer, comma-separated.
fn describe_all(types: &[ArrayType], declared: &[smelt_hlo::DType]) -> String {
    types.iter().enumerate().map(|(i, t)| describe(t, declared.get(i))).collect::<Vec<_>>().join(", ")
}

/// The C header for an object.
pub fn header(obj: &AotObject, source: &str) -> String {
    let n = &obj.name;
    let guard = format!("SMELT_{}_H", n.to_ascii_uppercase());
    let mut h = String::new();
    let _ = writeln!(h, "/* {n}.h: generated by smelt {} from {source}", env!("CARGO_PKG_VERSION"));
    let _ = writeln!(h, "   for {} ({}). See smelt's docs/aot.md. */", obj.triple, obj.cpu);
    let _ = writeln!(h, "#ifndef {guard}\n#define {guard}\n");
    let _ = writeln!(h, "#include <stddef.h>\n#include <stdint.h>\n");
    let _ = writeln!(h, "#ifdef __cplusplus\nextern \"C\" {{\n#endif\n");
    let _ = writeln!(h, "#define {n}_NUM_ARGS {}        /* entry parameters, in order */", obj.params.len());
    let _ = writeln!(h, "#define {n}_NUM_RESULTS {}     /* results, tuple flattened in order */\n", obj.results.len());
    let _ = writeln!(h, "/* Arguments (dense, row-major; pred is one byte, f16/bf16 are 16-bit patterns):");
    for (i, t) in obj.params.iter().enumerate() {
        let _ = writeln!(h, " *   args[{i}]: {} ({} bytes)", describe(t, obj.declared_params.get(i)), t.byte_size());
    }
    let _ = writeln!(h, " * Results:");
    for (j, t) in obj.results.iter().enumerate() {
        let _ =
            writeln!(h, " *   results[{j}]: {} ({} bytes)", describe(t, obj.declared_results.get(j)), t.byte_size());
    }
    let _ = writeln!(h, " */");
    let _ = writeln!(h, "extern const size_t {n}_arg_bytes[];     /* byte size of each argument buffer */");
    let _ = writeln!(h, "extern const size_t {n}_result_bytes[];  /* byte size of each result buffer */");
    let _ = writeln!(
        h,
        "extern const size_t {n}_temp_bytes;      /* scratch the caller must provide ({} here) */\n",
        obj.temp_bytes
    );
    let _ = writeln!(h, "/* args[i]: argument i, dense row-major; results[j]: caller-allocated storage for result j;");
    let _ = writeln!(h, "   temp: {n}_temp_bytes of scratch, 64-byte aligned (NULL if 0). Returns 0 on success.");
    let _ = writeln!(h, "   Re-entrant: concurrent calls with distinct temp/result buffers are safe. */");
    let _ = writeln!(h, "int {n}_run(const void *const *args, void *const *results, void *temp);\n");
    let _ = writeln!(h, "#ifdef __cplusplus\n}}\n#endif\n\n#endif /* {guard} */");
    h
}

/// Rust bindings for an object: the extern declarations and a checked `run`.
pub fn rust_bindings(obj: &AotObject) -> String {
    let n = &obj.name;
    let sizes = |ts: &[ArrayType]| ts.iter().map(|t| t.byte_size().to_string()).collect::<Vec<_>>().join(", ");
    let mut r = String::new();
    let _ = writeln!(
        r,
        "//! Bindings for `{n}.o`, generated by smelt {} ({}, {}).",
        env!("CARGO_PKG_VERSION"),
        obj.triple,
        obj.cpu
    );
    let _ = writeln!(r, "//! Link the object (e.g. `cargo:rustc-link-arg={n}.o` from a build script).\n");
    let _ = writeln!(r, "unsafe extern \"C\" {{");
    let _ = writeln!(r, "    fn {n}_run(args: *const *const u8, results: *const *mut u8, temp: *mut u8) -> i32;\n}}\n");
    let _ = writeln!(r, "/// Byte sizes of the arguments: {}.", describe_all(&obj.params, &obj.declared_params));
    let _ = writeln!(r, "pub const ARG_BYTES: [usize; {}] = [{}];", obj.params.len(), sizes(&obj.params));
    let _ = writeln!(r, "/// Byte sizes of the results: {}.", describe_all(&obj.results, &obj.declared_results));
    let _ = writeln!(r, "pub const RESULT_BYTES: [usize; {}] = [{}];", obj.results.len(), sizes(&obj.results));
    let _ = writeln!(
        r,
        "/// Scratch bytes `run` needs (64-byte aligned).\npub const TEMP_BYTES: usize = {};\n",
        obj.temp_bytes
    );
    let _ = writeln!(r, "/// Runs `{n}`: buffer sizes are checked; `temp` must be 64-byte aligned.");
    let _ =
        writeln!(r, "pub fn run(args: &[&[u8]], results: &mut [&mut [u8]], temp: &mut [u8]) -> Result<(), String> {{");
    let _ =
        writeln!(r, "    if args.len() != ARG_BYTES.len() || args.iter().zip(ARG_BYTES).any(|(a, n)| a.len() != n) {{");
    let _ = writeln!(r, "        return Err(format!(\"arguments must have {{ARG_BYTES:?}} bytes\"));\n    }}");
    let _ = writeln!(
        r,
        "    if results.len() != RESULT_BYTES.len() || results.iter().zip(RESULT_BYTES).any(|(a, n)| a.len() != n) {{"
    );
    let _ = writeln!(r, "        return Err(format!(\"results must have {{RESULT_BYTES:?}} bytes\"));\n    }}");
    let _ = writeln!(r, "    if temp.len() < TEMP_BYTES || (temp.as_ptr() as usize) % 64 != 0 {{");
    let _ = writeln!(r, "        return Err(format!(\"temp must be {{TEMP_BYTES}} bytes, 64-byte aligned\"));\n    }}");
    let _ = writeln!(r, "    let a: Vec<*const u8> = args.iter().map(|a| a.as_ptr()).collect();");
    let _ = writeln!(r, "    let o: Vec<*mut u8> = results.iter_mut().map(|o| o.as_mut_ptr()).collect();");
    let _ = writeln!(r, "    // SAFETY: every buffer has the size the object was compiled for.");
    let _ = writeln!(r, "    let rc = unsafe {{ {n}_run(a.as_ptr(), o.as_ptr(), temp.as_mut_ptr()) }};");
    let _ = writeln!(r, "    if rc == 0 {{ Ok(()) }} else {{ Err(format!(\"{n}_run returned {{rc}}\")) }}\n}}");
    r
}
