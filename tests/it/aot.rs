//! `smelt aot` against XLA's outputs on the whole corpus, through the C ABI of
//! `docs/aot.md`: each case is compiled to `NAME.o` + `NAME.h`, linked with the
//! generic C driver (`tests/aot/driver.c`) by the system C compiler, run on the
//! case's `in*.npy`, and its raw results are compared under the case's tolerance.
//! Every object must be self-contained: its undefined symbols are all on
//! [`ALLOWED_UNDEFINED`]. Every case is also cross-compiled for AArch64, linked
//! statically and run under `qemu-aarch64` (without the cross tools, which
//! `scripts/install-deps.sh` installs, that part is skipped, saying why), and a few
//! are built with `--threads 2`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};

use smelt::case::{Case, compare_outputs};
use smelt_hlo::{Array, ArrayData};

use crate::common::{corpus_cases, corpus_dir};

/// What an object may leave undefined, whitespace-separated: the memory and
/// process functions of the C library and the `<math.h>` functions (float and
/// double forms). Anything else (a Rust runtime symbol, a compiler-runtime builtin
/// such as `__extendhfsf2`, a smelt runtime routine) means the object needs more
/// than libc and libm to link, which the ABI rules out. The corpus objects use
/// `abort aligned_alloc free malloc memcpy memset fmodf`; `docs/aot.md` quotes
/// what the BERT case uses.
const ALLOWED_UNDEFINED: &str = "
    memcpy memmove memset memcmp malloc calloc realloc free aligned_alloc posix_memalign abort
    exp expf exp2 exp2f expm1 expm1f log logf log2 log2f log10 log10f log1p log1pf pow powf
    sqrt sqrtf cbrt cbrtf hypot hypotf sin sinf cos cosf tan tanf asin asinf acos acosf
    atan atanf atan2 atan2f sinh sinhf cosh coshf tanh tanhf asinh asinhf acosh acoshf
    atanh atanhf erf erff erfc erfcf lgamma lgammaf tgamma tgammaf fmod fmodf remainder
    remainderf floor floorf ceil ceilf round roundf roundeven roundevenf trunc truncf rint
    rintf nearbyint nearbyintf fma fmaf fmin fminf fmax fmaxf ldexp ldexpf frexp frexpf
    copysign copysignf nextafter nextafterf sincos sincosf
";

/// What objects built with `--threads` above 1 may also leave undefined.
const ALLOWED_UNDEFINED_THREADED: &str = "pthread_create pthread_join";

/// Cases also built with `--threads 2` (pthread fork-join inside large kernels).
const THREADED_CASES: &[&str] = &["bert_encoder", "mlp_train_step", "conv2d_nhwc", "lstm_multitask_train_step"];

/// How to build and run a driver for one target.
struct Target {
    /// Extra `smelt aot` flags (`--target`, `--threads`).
    aot_flags: &'static [&'static str],
    /// The C compiler and the flags it needs for this target.
    cc: &'static [&'static str],
    /// Libraries to link after the object.
    libs: &'static [&'static str],
    /// What runs the linked program (empty: run it directly).
    runner: &'static [&'static str],
    /// Whether the object may also need libpthread.
    threaded: bool,
}

const HOST: Target = Target { aot_flags: &[], cc: &["cc"], libs: &["-lm"], runner: &[], threaded: false };
const HOST_THREADED: Target =
    Target { aot_flags: &["--threads", "2"], cc: &["cc"], libs: &["-lm", "-lpthread"], runner: &[], threaded: true };
const AARCH64: Target = Target {
    aot_flags: &["--target", "aarch64-unknown-linux-gnu"],
    cc: &["aarch64-linux-gnu-gcc", "-static"],
    libs: &["-lm"],
    runner: &["qemu-aarch64"],
    threaded: false,
};

/// At most two case pipelines at a time across every test of this module (the
/// tests run in parallel threads; compiling a case already keeps a core busy).
struct Slots {
    free: Mutex<usize>,
    freed: Condvar,
}

static SLOTS: Slots = Slots { free: Mutex::new(2), freed: Condvar::new() };

/// A held slot; dropping it (also when a check panics) frees it.
struct Slot;

impl Slots {
    fn take(&self) -> Slot {
        let mut free = self.free.lock().unwrap_or_else(|e| e.into_inner());
        while *free == 0 {
            free = self.freed.wait(free).unwrap_or_else(|e| e.into_inner());
        }
        *free -= 1;
        Slot
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        *SLOTS.free.lock().unwrap_or_else(|e| e.into_inner()) += 1;
        SLOTS.freed.notify_one();
    }
}

/// A C identifier for a case name (`smelt aot --name`).
fn c_name(case: &str) -> String {
    let mut s: String = case.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
    if s.is_empty() || s.starts_with(|c: char| c.is_ascii_digit()) {
        s.insert(0, '_');
    }
    s
}

fn run_tool(cmd: &mut Command, what: &str) -> Result<String, String> {
    let out = cmd.output().map_err(|e| format!("{what}: cannot start {:?}: {e}", cmd.get_program()))?;
    if !out.status.success() {
        return Err(format!(
            "{what} failed ({}): {}{}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim(),
            String::from_utf8_lossy(&out.stdout).trim()
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The undefined symbols of an object file (`nm -u`).
fn undefined_symbols(object: &Path) -> Result<Vec<String>, String> {
    let listing = run_tool(Command::new("nm").arg("-u").arg(object), "nm -u")?;
    Ok(listing.lines().filter_map(|l| l.split_whitespace().last()).map(str::to_string).collect())
}

/// Compiles one case ahead of time for `target`, runs it through the C driver and
/// compares its results with XLA's.
fn check_case(dir: &Path, target: &Target) -> Result<(), String> {
    let case = Case::load(dir).map_err(|e| e.to_string())?;
    let name = c_name(&case.name);
    let tmp = tempfile::tempdir().map_err(|e| e.to_string())?;
    let out_dir = tmp.path();

    let mut aot = Command::new(env!("CARGO_BIN_EXE_smelt"));
    aot.arg("aot").arg(&case.module_path).args(["--name", &name]).arg("--out-dir").arg(out_dir);
    aot.args(target.aot_flags);
    let targets = crate::common::custom_call_targets(dir);
    if !targets.is_empty() {
        // Library routines are not carried by self-contained objects: refused, naming the target.
        return match run_tool(&mut aot, "smelt aot") {
            Err(e) if crate::common::names_a_target(&e, &targets) && e.contains("do not carry") => Ok(()),
            Err(e) => Err(format!("refused, but not naming one of {targets:?}: {e}")),
            Ok(_) => Err(format!("compiled a call of {targets:?} into a self-contained object")),
        };
    }
    run_tool(&mut aot, "smelt aot")?;
    let object = out_dir.join(format!("{name}.o"));
    let header = out_dir.join(format!("{name}.h"));

    let allowed = |s: &str| {
        ALLOWED_UNDEFINED.split_whitespace().any(|a| a == s)
            || (target.threaded && ALLOWED_UNDEFINED_THREADED.split_whitespace().any(|a| a == s))
    };
    let foreign: Vec<String> = undefined_symbols(&object)?.into_iter().filter(|s| !allowed(s)).collect();
    if !foreign.is_empty() {
        return Err(format!("object needs symbols beyond libc/libm: {}", foreign.join(", ")));
    }

    let program = out_dir.join("prog");
    let driver = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/aot/driver.c");
    let mut cc = Command::new(target.cc[0]);
    cc.args(&target.cc[1..])
        .args(["-O2", "-Wall", "-Werror", &format!("-DSMELT_NAME={name}"), "-include"])
        .arg(&header)
        .arg(&driver)
        .arg(&object)
        .args(target.libs)
        .arg("-o")
        .arg(&program);
    run_tool(&mut cc, "compiling the driver")?;

    let results = out_dir.join("results");
    std::fs::create_dir(&results).map_err(|e| e.to_string())?;
    let mut run = match target.runner {
        [] => Command::new(&program),
        [runner, rest @ ..] => {
            let mut c = Command::new(runner);
            c.args(rest).arg(&program);
            c
        }
    };
    run.arg(&results).args(case.inputs.iter().map(|(p, _)| p));
    run_tool(&mut run, "running the driver")?;

    let expected = case.load_expected().map_err(|e| e.to_string())?;
    let mut got = Vec::new();
    for (j, want) in expected.iter().enumerate() {
        let path = results.join(format!("out{j}.bin"));
        let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let size = want.len() * want.dtype().byte_size();
        if bytes.len() != size {
            return Err(format!("result {j}: {} bytes, expected {size} for {}", bytes.len(), want.shape()));
        }
        got.push(Array::new(&want.dims[..], ArrayData::from_le_bytes(want.dtype(), &bytes)));
    }
    if results.join(format!("out{}.bin", expected.len())).exists() {
        return Err(format!("more results than the {} expected", expected.len()));
    }
    compare_outputs(&case, &got, &expected)
}

/// Checks `cases` on `target`, two workers pulling from one list, and fails
/// listing every failed case (`how` says how they ran).
fn check_all(cases: &[PathBuf], target: &Target, how: &str) {
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| {
                while let Some(dir) = cases.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let slot = SLOTS.take();
                    let outcome = check_case(dir, target);
                    drop(slot);
                    if let Err(e) = outcome {
                        let name = dir.file_name().unwrap_or_default().to_string_lossy();
                        failures.lock().unwrap().push(format!("{name}: {e}"));
                    }
                }
            });
        }
    });
    let mut failures = failures.into_inner().unwrap();
    failures.sort();
    assert!(
        failures.is_empty(),
        "{} of {} cases failed through {how}:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

#[test]
fn every_corpus_case_matches_xla_through_a_self_contained_aot_object() {
    check_all(&corpus_cases(), &HOST, "smelt aot on the host");
}

#[test]
fn threaded_aot_objects_match_xla() {
    let cases: Vec<PathBuf> = THREADED_CASES.iter().map(|c| corpus_dir().join(c)).collect();
    check_all(&cases, &HOST_THREADED, "smelt aot --threads 2");
}

/// Why the AArch64 part cannot run here, if it cannot.
fn aarch64_tools_missing() -> Option<String> {
    if !cfg!(all(target_arch = "x86_64", target_os = "linux")) {
        return Some("the cross test runs on x86_64 Linux hosts only".into());
    }
    for tool in ["aarch64-linux-gnu-gcc", "qemu-aarch64"] {
        if Command::new(tool).arg("--version").output().map(|o| !o.status.success()).unwrap_or(true) {
            return Some(format!("{tool} is not installed (scripts/install-deps.sh installs it)"));
        }
    }
    None
}

#[test]
fn every_corpus_case_matches_xla_as_an_aarch64_object_under_qemu() {
    if let Some(why) = aarch64_tools_missing() {
        eprintln!("skipping the AArch64 AOT cases: {why}");
        return;
    }
    check_all(&corpus_cases(), &AARCH64, "smelt aot --target aarch64-unknown-linux-gnu under qemu");
}

/// `--rust` bindings compile, link the object and give XLA's answer: a tiny
/// Rust program built with `rustc` calls the checked `run` on softmax's inputs.
#[test]
fn rust_bindings_link_and_run() {
    let case = Case::load(&corpus_dir().join("softmax")).unwrap();
    let out = tempfile::tempdir().unwrap();
    let smelt = env!("CARGO_BIN_EXE_smelt");
    run_tool(
        Command::new(smelt)
            .args(["aot", "--name", "softmax", "--rust", "--out-dir"])
            .arg(out.path())
            .arg(&case.module_path),
        "smelt aot --rust",
    )
    .unwrap();
    let inputs = case.load_inputs().unwrap();
    let input: Vec<u8> = inputs[0].leaves()[0].data.to_le_bytes();
    std::fs::write(out.path().join("in0.bin"), &input).unwrap();
    let main = r#"
#[path = "softmax.rs"]
mod softmax;
fn main() {
    let input = std::fs::read("in0.bin").unwrap();
    let mut results: Vec<Vec<u8>> = softmax::RESULT_BYTES.iter().map(|&n| vec![0u8; n]).collect();
    let mut temp = vec![0u64; softmax::TEMP_BYTES.div_ceil(64) * 8 + 8];
    let start = temp.as_ptr().align_offset(64);
    let temp: &mut [u8] = unsafe { std::slice::from_raw_parts_mut(temp.as_mut_ptr().cast::<u8>().add(start * 8), softmax::TEMP_BYTES) };
    let mut outs: Vec<&mut [u8]> = results.iter_mut().map(|r| r.as_mut_slice()).collect();
    softmax::run(&[&input], &mut outs, temp).unwrap();
    assert!(softmax::run(&[&input[1..]], &mut outs, temp).is_err());
    for (j, r) in results.iter().enumerate() {
        std::fs::write(format!("out{j}.bin"), r).unwrap();
    }
}
"#;
    std::fs::write(out.path().join("main.rs"), main).unwrap();
    run_tool(
        Command::new("rustc").current_dir(out.path()).args([
            "--edition",
            "2024",
            "-O",
            "main.rs",
            "-C",
            "link-arg=softmax.o",
            "-C",
            "link-arg=-lm",
            "-o",
            "prog",
        ]),
        "rustc",
    )
    .unwrap();
    run_tool(Command::new(out.path().join("prog")).current_dir(out.path()), "bindings program").unwrap();
    let want = case.load_expected().unwrap();
    let got: Vec<Array> = want
        .iter()
        .enumerate()
        .map(|(j, w)| {
            let bytes = std::fs::read(out.path().join(format!("out{j}.bin"))).unwrap();
            Array::new(w.dims.clone(), ArrayData::from_le_bytes(w.dtype(), &bytes))
        })
        .collect();
    compare_outputs(&case, &got, &want).unwrap();
}
