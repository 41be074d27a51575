//! GEMM and convolution routines compiled once per machine, not once per program.
//!
//! A GEMM function depends only on its [`GemmSpec`] (element types and
//! transposes), a convolution on its [`ConvSpec`] (element types, shapes,
//! window), and both on the CPU (ISA and caches) and the generator's code,
//! never on the rest of the program: epilogues arrive as a function pointer.
//! Generating and optimizing one took 0.1-2 s of every program that multiplies
//! matrices or convolves, so JIT compilations declare the routine symbols they
//! call and link objects from here instead: a process-wide map, backed by
//! files in a per-machine folder
//! (`SMELT_ROUTINE_CACHE`, else `$SMELT_CACHE_DIR/routines`, else
//! `$XDG_CACHE_HOME/smelt/routines` or `~/.cache/smelt/routines`;
//! `SMELT_ROUTINE_CACHE=off` keeps them in memory only).
//!
//! An entry's name is the BLAKE3 hash of what the code depends on: smelt's
//! version, the generator's source (so a changed generator is never served an
//! old object), LLVM's version, the host target string (triple, CPU,
//! features, cache sizes), whether this is a unit-test build (whose routines
//! use test-sized constants) and the spec. Its content is a magic line, the
//! payload's BLAKE3 hash and the payload; an entry that does not check out
//! (truncated, corrupt, another format) is rebuilt and rewritten. Writers
//! write a private temporary file and rename it into place, so processes
//! racing to build one routine both succeed and readers never see half an
//! entry. AOT objects and `smelt compile --emit` still generate the routines
//! into their own module: they must stand alone.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use inkwell::context::Context;
use inkwell::targets::{FileType, TargetMachine};

use crate::conv::{ConvSpec, conv_function};
use crate::error::{CpuError, Result};
use crate::gemm::{GemmSpec, gemm_function};
use crate::{CompileOptions, optimize, prepare, target_machine};

const MAGIC: &[u8; 16] = b"smelt-routine-1\n";

/// The source the generated routines are made from.
const GENERATOR: &[&str] = &[
    include_str!("gemm.rs"),
    include_str!("gemm/gemv.rs"),
    include_str!("conv.rs"),
    include_str!("routine.rs"),
    include_str!("caches.rs"),
    include_str!("routines.rs"),
];

/// Where routine objects persist, if anywhere.
pub fn cache_dir() -> Option<PathBuf> {
    let env = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty()).map(PathBuf::from);
    if let Some(d) = env("SMELT_ROUTINE_CACHE") {
        return (d != Path::new("off")).then_some(d);
    }
    if let Some(d) = env("SMELT_CACHE_DIR") {
        return Some(d.join("routines"));
    }
    let base = env("XDG_CACHE_HOME").or_else(|| env("HOME").map(|h| h.join(".cache")))?;
    Some(base.join("smelt").join("routines"))
}

/// One member of a routine family: what one cached object defines.
#[derive(Clone, Debug, PartialEq, Eq)]
#[allow(clippy::large_enum_variant)] // a few per program, built and dropped
pub(crate) enum Routine {
    Gemm(GemmSpec),
    Conv(ConvSpec),
}

impl Routine {
    /// The symbol the object defines and programs call.
    pub(crate) fn symbol(&self) -> String {
        match self {
            Routine::Gemm(g) => g.symbol(),
            Routine::Conv(c) => c.symbol(),
        }
    }

    /// Everything the generated code depends on besides the machine: the
    /// whole spec, not its symbol (a convolution's symbol is a short hash).
    fn identity(&self) -> String {
        match self {
            Routine::Gemm(g) => format!("gemm {}", g.symbol()),
            Routine::Conv(c) => format!("conv {c:?}"),
        }
    }

    fn define(&self, module: &inkwell::module::Module<'_>, tm: &TargetMachine) -> Result<()> {
        let made = match self {
            Routine::Gemm(g) => gemm_function(module, tm, g).map(drop),
            Routine::Conv(c) => conv_function(module, tm, c).map(drop),
        };
        made.map_err(|e| CpuError::unsupported(e.to_string()))
    }
}

/// The object defining `routine` for the host, from memory, the cache
/// folder `dir` or a fresh build (which is then stored in both).
pub(crate) fn routine_object(spec: &Routine, options: &CompileOptions, dir: Option<&Path>) -> Result<Arc<Vec<u8>>> {
    static MEMORY: OnceLock<Mutex<HashMap<[u8; 32], Arc<Vec<u8>>>>> = OnceLock::new();
    let key = key(spec, options);
    let memory = MEMORY.get_or_init(Default::default);
    if let Some(o) = memory.lock().map_err(|_| CpuError::Jit("routine cache lock poisoned".into()))?.get(&key) {
        return Ok(o.clone());
    }
    let path = dir.map(|d| d.join(format!("{}.o", hex(&key))));
    let object = match path.as_deref().and_then(read_entry) {
        Some(o) => o,
        None => {
            let o = build(spec, options)?;
            if let Some(p) = &path {
                // A cache that cannot be written costs the next process a build, nothing more.
                let _ = write_entry(p, &o);
            }
            o
        }
    };
    let object = Arc::new(object);
    memory.lock().map_err(|_| CpuError::Jit("routine cache lock poisoned".into()))?.insert(key, object.clone());
    Ok(object)
}

fn key(spec: &Routine, options: &CompileOptions) -> [u8; 32] {
    // What every key shares, hashed once per process: version, generator
    // source, LLVM and the host.
    static MACHINE: OnceLock<[u8; 32]> = OnceLock::new();
    let machine = MACHINE.get_or_init(|| {
        let mut h = blake3::Hasher::new();
        h.update(env!("CARGO_PKG_VERSION").as_bytes());
        for s in GENERATOR {
            h.update(&(s.len() as u64).to_le_bytes());
            h.update(s.as_bytes());
        }
        let (major, minor, patch) = inkwell::support::get_llvm_version();
        h.update(format!("llvm {major}.{minor}.{patch}").as_bytes());
        h.update(crate::host_target().as_bytes());
        // A measured choice of the host's routines (bf16 products as pairs or as f32).
        h.update(if crate::routine::bf16_pairs_pay() { b"bf16 pairs" } else { b"bf16 as f32" });
        // The unit tests generate routines with other constants (a small
        // packing budget), and they share the user's cache folder.
        h.update(if cfg!(test) { b"unit-test build" } else { b"library build  " });
        *h.finalize().as_bytes()
    });
    let mut h = blake3::Hasher::new();
    h.update(machine);
    // The options that change the object (a CPU or features other than the host's).
    let target = format!("{}|{:?}|{:?}|{}", options.opt_level, options.cpu, options.features, spec.identity());
    h.update(target.as_bytes());
    *h.finalize().as_bytes()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn build(spec: &Routine, options: &CompileOptions) -> Result<Vec<u8>> {
    let cx = Context::create();
    let tm: TargetMachine = target_machine(options)?;
    let module = cx.create_module(&spec.symbol());
    prepare(&module, &tm);
    spec.define(&module, &tm)?;
    optimize(&module, &tm, options, crate::Passes::Full)?;
    let buf = tm.write_to_memory_buffer(&module, FileType::Object).map_err(|e| CpuError::llvm(e.to_string()))?;
    Ok(buf.as_slice().to_vec())
}

/// The payload of a well-formed entry at `path`.
fn read_entry(path: &Path) -> Option<Vec<u8>> {
    let bytes = std::fs::read(path).ok()?;
    let rest = bytes.strip_prefix(MAGIC.as_slice())?;
    let (hash, payload) = rest.split_at_checked(32)?;
    (blake3::hash(payload).as_bytes() == hash && !payload.is_empty()).then(|| payload.to_vec())
}

fn write_entry(path: &Path, payload: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().ok_or_else(|| std::io::Error::other("entry without a folder"))?;
    std::fs::create_dir_all(dir)?;
    let unique = format!(
        ".tmp-{}-{:?}-{}",
        std::process::id(),
        std::thread::current().id(),
        path.file_name().and_then(|n| n.to_str()).unwrap_or("entry")
    );
    let tmp = dir.join(unique.replace(['(', ')'], ""));
    let mut bytes = Vec::with_capacity(MAGIC.len() + 32 + payload.len());
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(blake3::hash(payload).as_bytes());
    bytes.extend_from_slice(payload);
    std::fs::write(&tmp, &bytes)?;
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use smelt_hlo::DType;

    fn spec(out: DType) -> Routine {
        Routine::Gemm(GemmSpec { lhs: DType::F32, rhs: DType::F32, out, lhs_transposed: true, rhs_transposed: false })
    }

    fn fresh_dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("smelt-routines-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn entries_are_checked_and_bad_ones_rebuilt() {
        let dir = fresh_dir("check");
        let o = CompileOptions::default();
        let s = spec(DType::F32);
        let built = build(&s, &o).unwrap_or_else(|e| panic!("{e}"));
        let path = dir.join("entry.o");
        write_entry(&path, &built).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(read_entry(&path).as_deref(), Some(built.as_slice()));
        // Truncated, corrupt or foreign entries are not loaded.
        let bytes = std::fs::read(&path).unwrap_or_default();
        std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(read_entry(&path), None);
        let mut flipped = bytes.clone();
        let last = flipped.len() - 1;
        flipped[last] ^= 1;
        std::fs::write(&path, &flipped).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(read_entry(&path), None);
        std::fs::write(&path, b"not a routine").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(read_entry(&path), None);
        // Another CPU or another spec is another key, so another file.
        assert_ne!(key(&s, &o), key(&spec(DType::F64), &o));
        let other_cpu = CompileOptions { cpu: Some("x86-64".into()), ..CompileOptions::default() };
        assert_ne!(key(&s, &o), key(&s, &other_cpu));
        assert_eq!(key(&s, &o), key(&s, &CompileOptions::default()));
        // Threads racing to store one entry all succeed, and it checks out.
        std::thread::scope(|sc| {
            for _ in 0..4 {
                sc.spawn(|| write_entry(&path, &built).unwrap_or_else(|e| panic!("{e}")));
            }
        });
        assert_eq!(read_entry(&path).as_deref(), Some(built.as_slice()));
        let leftovers = std::fs::read_dir(&dir).map(|r| r.count()).unwrap_or(0);
        assert_eq!(leftovers, 1, "temporary files are renamed or removed");
        std::fs::remove_dir_all(&dir).ok();
    }

    /// A convolution routine is cached under its whole spec: a cold build
    /// stores it, a warm lookup (from the folder, as in a new process) reads
    /// the same bytes, and a convolution of another shape is another entry.
    #[test]
    fn convolution_routines_are_cached_under_their_whole_spec() {
        use smelt_hlo::attrs::ConvDims;
        use smelt_kernel::ir::WindowSpec;
        let dir = fresh_dir("conv");
        let o = CompileOptions::default();
        let dims = ConvDims::from_labels("b01f_01io->b01f").unwrap_or_else(|e| panic!("{e}"));
        let w = WindowSpec { size: 3, stride: 1, pad_low: 1, pad_high: 1, window_dilation: 1, base_dilation: 1 };
        let conv = |c: i64| Routine::Conv(ConvSpec::f32(&[1, 9, 7, c], &[3, 3, c, 5], dims.clone(), vec![w; 2], 1));
        let (a, b) = (conv(3), conv(4));
        assert_ne!(key(&a, &o), key(&b, &o));
        let cold = routine_object(&a, &o, Some(&dir)).unwrap_or_else(|e| panic!("{e}"));
        let path = dir.join(format!("{}.o", hex(&key(&a, &o))));
        assert_eq!(read_entry(&path).as_deref(), Some(cold.as_slice()), "the cold build is stored");
        let rebuilt = build(&a, &o).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(rebuilt, *cold, "a rebuild makes the same object");
        std::fs::remove_dir_all(&dir).ok();
    }
}
