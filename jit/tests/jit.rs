//! The JIT's behaviour end to end: cache keys (names and metadata ignored,
//! shapes not), the persistent cache across processes and its tolerance of
//! damaged entries, single flight, tier switching, the recompilation policy,
//! argument checks and the launch handle.

use std::sync::{Arc, Barrier};
use std::time::Duration;

use smelt_jit::{
    ArgType, ArgumentError, Baseline, Buffer, Client, ClientOptions, CompileOptions, JitError, Policy, Tier,
};

/// `a + b` and its sum over `n` f32 elements, with a called computation.
/// `tag` renames everything; `meta` adds metadata and a backend config.
fn add_text(n: usize, tag: &str, meta: bool) -> String {
    let md = if meta {
        format!(", metadata={{op_name=\"jit(f{tag})/add\" source_file=\"/tmp/{tag}.py\" source_line=7}}")
    } else {
        String::new()
    };
    format!(
        "HloModule jit_f{tag}

sum{tag} {{
  x{tag} = f32[] parameter(0)
  y{tag} = f32[] parameter(1)
  ROOT s{tag} = f32[] add(x{tag}, y{tag}){md}
}}

ENTRY main{tag} {{
  a{tag} = f32[{n}]{{0}} parameter(0)
  b{tag} = f32[{n}]{{0}} parameter(1)
  add{tag} = f32[{n}]{{0}} add(a{tag}, b{tag}){md}
  zero{tag} = f32[] constant(0)
  red{tag} = f32[] reduce(add{tag}, zero{tag}), dimensions={{0}}, to_apply=sum{tag}{md}
  ROOT t{tag} = (f32[{n}]{{0}}, f32[]) tuple(add{tag}, red{tag})
}}
"
    )
}

fn add_module(n: usize, tag: &str, meta: bool) -> smelt_hlo::Module {
    smelt_hlo::parse_module(&add_text(n, tag, meta)).expect("test module parses")
}

fn inputs(n: usize) -> (Buffer, Buffer) {
    let a: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let b: Vec<f32> = (0..n).map(|i| 0.5 * i as f32).collect();
    (Buffer::from_vec(&[n as i64], a).unwrap(), Buffer::from_vec(&[n as i64], b).unwrap())
}

/// Runs and checks the results against the arithmetic.
fn run_and_check(exe: &smelt_jit::Executable, n: usize) {
    let (a, b) = inputs(n);
    let out = exe.run(&[&a, &b]).expect("run");
    assert_eq!(out.len(), 2);
    let sum = out[0].as_slice::<f32>().unwrap();
    let want: Vec<f32> = (0..n).map(|i| 1.5 * i as f32).collect();
    assert_eq!(sum, want.as_slice());
    let total = out[1].as_slice::<f32>().unwrap()[0];
    assert_eq!(total, want.iter().sum::<f32>());
}

fn client(backend: &str) -> Client {
    Client::with_options(backend, ClientOptions { no_disk_cache: true, ..Default::default() }).unwrap()
}

fn disk_client(backend: &str, dir: &std::path::Path) -> Client {
    Client::with_options(backend, ClientOptions { cache_dir: Some(dir.to_path_buf()), ..Default::default() }).unwrap()
}

#[test]
fn same_program_with_other_names_and_metadata_hits() {
    let mut backends = vec!["interp", "cpu"];
    if cfg!(feature = "cranelift") {
        backends.push("cranelift");
    }
    for backend in backends {
        let c = client(backend);
        let o = CompileOptions::default();
        let first = c.compile(&add_module(8, "", false), &o).unwrap();
        let second = c.compile(&add_module(8, "_renamed.42", true), &o).unwrap();
        assert!(Arc::ptr_eq(&first, &second), "{backend:?}");
        let s = c.stats();
        assert_eq!((s.misses, s.hits, s.compiles), (1, 1, 1), "{backend:?}: {s:?}");
        run_and_check(&second, 8);
    }
}

#[test]
fn canonical_text_ignores_names_and_metadata_only() {
    let a = smelt_jit::key::canonical_text(&add_module(8, "", false));
    let b = smelt_jit::key::canonical_text(&add_module(8, "x", true));
    assert_eq!(a, b);
    assert!(!a.contains("metadata"));
    let c = smelt_jit::key::canonical_text(&add_module(9, "", false));
    assert_ne!(a, c);
    assert_eq!(smelt_jit::key::family_of(&a), smelt_jit::key::family_of(&c));
}

#[test]
fn shape_change_misses() {
    let c = client("cpu");
    let o = CompileOptions::default();
    let e8 = c.compile(&add_module(8, "", false), &o).unwrap();
    let e16 = c.compile(&add_module(16, "", false), &o).unwrap();
    assert!(!Arc::ptr_eq(&e8, &e16));
    let s = c.stats();
    assert_eq!((s.misses, s.hits, s.compiles), (2, 0, 2));
    run_and_check(&e8, 8);
    run_and_check(&e16, 16);
    // Other options are another key too.
    c.compile(&add_module(8, "", false), &CompileOptions { opt_level: 1, ..Default::default() }).unwrap();
    assert_eq!(c.stats().misses, 3);
}

#[test]
fn run_checks_argument_types() {
    let c = client("interp");
    let exe = c.compile(&add_module(4, "", false), &CompileOptions::default()).unwrap();
    let (a, b) = inputs(4);
    assert_eq!(exe.run(&[&a]).unwrap_err(), JitError::Arguments(ArgumentError::Count { expected: 2, got: 1 }));
    let wrong = Buffer::from_vec(&[4], vec![1i32, 2, 3, 4]).unwrap();
    let e = exe.run(&[&a, &wrong]).unwrap_err();
    assert_eq!(e.to_string(), "parameter 1: expected f32[4], got s32[4]");
    let (a5, _) = inputs(5);
    assert!(matches!(exe.run(&[&a5, &b]), Err(JitError::Arguments(ArgumentError::Mismatch { index: 0, .. }))));
    assert!(Buffer::from_vec(&[3], vec![1.0f32]).is_err());
    assert!(a.as_slice::<f64>().is_err());
    let h = Buffer::from_slice(&[2], &[half::bf16::from_f32(1.0), half::bf16::ONE]).unwrap();
    assert_eq!(h.dtype(), smelt_jit::DType::Bf16);
    assert_eq!(Buffer::from_slice(&[2], &[true, false]).unwrap().into_vec::<bool>().unwrap(), vec![true, false]);
    // A module that does not verify is an error, not a panic.
    let mut bad = add_module(4, "", false);
    let root = bad.entry().root;
    bad.entry_mut().inst_mut(root).shape = smelt_hlo::Shape::Tuple(vec![]);
    assert!(matches!(c.compile(&bad, &CompileOptions::default()), Err(JitError::Verify(_))));
}

#[test]
fn lru_evicts_least_recently_used() {
    let c = Client::with_options("interp", ClientOptions { capacity: 2, no_disk_cache: true, ..Default::default() })
        .unwrap();
    let o = CompileOptions::default();
    let e1 = c.compile(&add_module(1, "", false), &o).unwrap();
    c.compile(&add_module(2, "", false), &o).unwrap();
    assert!(Arc::ptr_eq(&e1, &c.compile(&add_module(1, "", false), &o).unwrap())); // 1 is recent now
    c.compile(&add_module(3, "", false), &o).unwrap(); // evicts 2
    let s = c.stats();
    assert_eq!((s.evictions, s.cached), (1, 2));
    c.compile(&add_module(1, "", false), &o).unwrap();
    assert_eq!(c.stats().misses, 3);
    c.compile(&add_module(2, "", false), &o).unwrap();
    assert_eq!(c.stats().misses, 4);
}

#[test]
fn concurrent_requests_compile_once() {
    let c = client("cpu");
    let n = 8;
    let barrier = Arc::new(Barrier::new(n));
    let handles: Vec<_> = (0..n)
        .map(|i| {
            let (c, barrier) = (c.clone(), barrier.clone());
            std::thread::spawn(move || {
                let m = add_module(64, &format!("t{i}"), i % 2 == 0);
                barrier.wait();
                c.compile(&m, &CompileOptions::default()).unwrap()
            })
        })
        .collect();
    let exes: Vec<_> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    assert!(exes.iter().all(|e| Arc::ptr_eq(e, &exes[0])));
    let s = c.stats();
    assert_eq!((s.compiles, s.misses, s.hits), (1, 1, n as u64 - 1), "{s:?}");
    run_and_check(&exes[0], 64);
}

#[test]
fn tier_switch_after_background_compile() {
    let c = client("tiered");
    let o = CompileOptions { baseline: Baseline::Interp, defer_upgrade: true, ..Default::default() };
    let exe = c.compile(&add_module(32, "", false), &o).unwrap();
    assert!(exe.is_tiered());
    assert_eq!(exe.tier(), None);
    run_and_check(&exe, 32);
    assert_eq!(exe.tier(), Some(Tier::Interp));
    run_and_check(&exe, 32);
    assert_eq!(exe.tier(), Some(Tier::Interp));
    exe.start_upgrade();
    exe.wait_optimized(Some(Duration::from_secs(120))).unwrap();
    assert_eq!(exe.next_tier(), Tier::Llvm);
    run_and_check(&exe, 32);
    assert_eq!(exe.tier(), Some(Tier::Llvm));
    let s = c.stats();
    assert_eq!((s.background_compiles, s.interpreted, s.compiles), (1, 2, 1), "{s:?}");
    // Not deferred: the switch happens on its own.
    let exe = c
        .compile(&add_module(33, "", false), &CompileOptions { baseline: Baseline::Interp, ..Default::default() })
        .unwrap();
    exe.wait_optimized(None).unwrap();
    run_and_check(&exe, 33);
    assert_eq!(exe.tier(), Some(Tier::Llvm));
}

#[cfg(not(feature = "cranelift"))]
#[test]
fn tiered_without_cranelift_compiles_with_llvm() {
    let c = client("tiered");
    let exe = c.compile(&add_module(8, "", false), &CompileOptions::default()).unwrap();
    assert!(!exe.is_tiered());
    run_and_check(&exe, 8);
    assert_eq!(exe.tier(), Some(Tier::Llvm));
    assert_eq!(c.stats().baseline_fallbacks, 1);
    let e = Client::new("cranelift").unwrap_err();
    assert!(matches!(&e, JitError::Unavailable(m) if m.contains("unknown backend 'cranelift'")), "{e}");
}

#[cfg(feature = "cranelift")]
#[test]
fn tiered_runs_cranelift_first() {
    let c = client("tiered");
    let o = CompileOptions { defer_upgrade: true, ..Default::default() };
    let exe = c.compile(&add_module(8, "", false), &o).unwrap();
    run_and_check(&exe, 8);
    assert_eq!(exe.tier(), Some(Tier::Cranelift));
    exe.start_upgrade();
    exe.wait_optimized(None).unwrap();
    run_and_check(&exe, 8);
    assert_eq!(exe.tier(), Some(Tier::Llvm));
}

/// A program the CPU backend's tile interpreter runs whole (float rows of
/// 1024) starts on it, then moves to LLVM code with the same results.
#[test]
fn tiered_runs_the_tile_interpreter_first_when_it_runs_every_kernel() {
    let text = "HloModule rows
max {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] maximum(a, b)
}
ENTRY e {
  x = f32[16,1024] parameter(0)
  ninf = f32[] constant(-inf)
  m = f32[16] reduce(x, ninf), dimensions={1}, to_apply=max
  b = f32[16,1024] broadcast(m), dimensions={0}
  d = f32[16,1024] subtract(x, b)
  ROOT e = f32[16,1024] exponential(d)
}
";
    let c = client("tiered");
    let o = CompileOptions { defer_upgrade: true, ..Default::default() };
    let exe = c.compile(&smelt_hlo::parse_module(text).unwrap(), &o).unwrap();
    let x: Vec<f32> = (0..16 * 1024).map(|i| ((i * 7919) % 1000) as f32 / 100.0).collect();
    let x = Buffer::from_vec(&[16, 1024], x).unwrap();
    let first = exe.run(&[&x]).unwrap();
    assert_eq!(exe.tier(), Some(Tier::Tiles));
    exe.start_upgrade();
    exe.wait_optimized(None).unwrap();
    let upgraded = exe.run(&[&x]).unwrap();
    assert_eq!(exe.tier(), Some(Tier::Llvm));
    // The same library code computes exp in both tiers.
    assert_eq!(first[0].as_slice::<f32>().unwrap(), upgraded[0].as_slice::<f32>().unwrap());
}

/// A program whose baseline run would outlast LLVM's compile (a
/// 1024-cube product: a billion multiply-adds on the portable dot routine)
/// compiles with LLVM first; the small one beside it runs on Cranelift first.
#[cfg(feature = "cranelift")]
#[test]
fn tiered_waits_for_llvm_when_the_baseline_would_run_longer() {
    let c = client("tiered");
    let dot = smelt_hlo::parse_module(
        "HloModule big\nENTRY e {\n  a = f32[1024,1024] parameter(0)\n  b = f32[1024,1024] parameter(1)\n  \
         ROOT d = f32[1024,1024] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n",
    )
    .unwrap();
    let exe = c.compile(&dot, &CompileOptions::default()).unwrap();
    assert!(!exe.is_tiered());
    let ones = Buffer::from_slice(&[1024, 1024], &vec![1.0f32; 1024 * 1024]).unwrap();
    let out = exe.run(&[&ones, &ones]).unwrap();
    assert!(out[0].as_slice::<f32>().unwrap().iter().all(|&v| v == 1024.0));
    assert_eq!(exe.tier(), Some(Tier::Llvm));
    assert_eq!((c.stats().baseline_skips, c.stats().baseline_fallbacks), (1, 0));
    let small = c.compile(&add_module(8, "", false), &CompileOptions { defer_upgrade: true, ..Default::default() });
    let small = small.unwrap();
    run_and_check(&small, 8);
    assert_eq!(small.tier(), Some(Tier::Cranelift));
    assert_eq!(c.stats().baseline_skips, 1);
}

#[test]
fn megamorphic_family_is_interpreted() {
    let policy = Policy { enabled: true, max_compiles: 2, min_runs_per_compile: 5.0 };
    let c = Client::with_options("cpu", ClientOptions { no_disk_cache: true, policy, ..Default::default() }).unwrap();
    let f = c.trace(|sig: &[ArgType]| Ok(add_module(sig[0].dims[0] as usize, "", false)), CompileOptions::default());
    for n in 1..=3 {
        let (a, b) = inputs(n);
        f.call(&[&a, &b]).unwrap();
        assert_eq!(f.executable(&[&a, &b]).unwrap().tier(), Some(Tier::Llvm));
    }
    let s = c.stats();
    assert_eq!((s.compiles, s.megamorphic_fallbacks, s.interpreted), (3, 0, 0), "{s:?}");
    // 3 compilations > 2, 3 runs < 5 per compilation: the fourth shape is interpreted.
    let exe = f.executable(&[&inputs(4).0, &inputs(4).1]).unwrap();
    run_and_check(&exe, 4);
    assert_eq!(exe.tier(), Some(Tier::Interp));
    let s = c.stats();
    assert_eq!((s.compiles, s.megamorphic_fallbacks, s.interpreted, s.megamorphic_families), (3, 1, 1, 1), "{s:?}");
    // Signatures compiled before keep their code.
    let (a, b) = inputs(2);
    f.call(&[&a, &b]).unwrap();
    assert_eq!(f.executable(&[&a, &b]).unwrap().tier(), Some(Tier::Llvm));
    // Another program is another family.
    let other = smelt_hlo::parse_module(&add_text(5, "", false).replace("add(a, b)", "multiply(a, b)")).unwrap();
    assert_eq!(c.compile(&other, &CompileOptions::default()).unwrap().next_tier(), Tier::Llvm);
}

#[test]
fn function_handle_hits_by_signature() {
    let c = client("interp");
    let f = c.function(add_module(4, "", false), CompileOptions::default());
    let (a, b) = inputs(4);
    for _ in 0..3 {
        f.call(&[&a, &b]).unwrap();
    }
    let s = c.stats();
    assert_eq!((s.misses, s.hits), (1, 2));
    let (a5, b5) = inputs(5);
    assert!(matches!(f.call(&[&a5, &b5]), Err(JitError::Arguments(ArgumentError::Mismatch { .. }))));
}

/// The child half of `disk_cache_is_reused_across_processes`: runs only when
/// that test starts this binary with `SMELT_JIT_TEST_CHILD` set.
#[test]
fn disk_cache_child() {
    let Some(dir) = std::env::var_os("SMELT_JIT_TEST_CHILD") else {
        return;
    };
    let c = disk_client("cpu", std::path::Path::new(&dir));
    let exe = c.compile(&add_module(16, "child", true), &CompileOptions::default()).unwrap();
    run_and_check(&exe, 16);
    let s = c.stats();
    println!("child disk_hits={} compiles={} disk_errors={}", s.disk_hits, s.compiles, s.disk_errors);
}

#[test]
fn disk_cache_is_reused_across_processes() {
    let dir = tempfile::tempdir().unwrap();
    let c = disk_client("cpu", dir.path());
    run_and_check(&c.compile(&add_module(16, "", false), &CompileOptions::default()).unwrap(), 16);
    assert_eq!(c.stats().disk_writes, 1);
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["disk_cache_child", "--exact", "--nocapture", "--test-threads=1"])
        .env("SMELT_JIT_TEST_CHILD", dir.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "child failed:\n{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("child disk_hits=1 compiles=0 disk_errors=0"), "{stdout}");
}

#[test]
fn damaged_disk_entries_are_rebuilt() {
    let dir = tempfile::tempdir().unwrap();
    let m = add_module(16, "", false);
    let o = CompileOptions::default();
    disk_client("cpu", dir.path()).compile(&m, &o).unwrap();
    let entry = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "smeltc"))
        .expect("an entry was written");
    let good = std::fs::read(&entry).unwrap();
    let mut flipped = good.clone();
    let mid = flipped.len() / 2;
    flipped[mid] ^= 0x40;
    let damaged: Vec<(&str, Vec<u8>)> = vec![
        ("truncated", good[..good.len() / 3].to_vec()),
        ("header only", good[..40].to_vec()),
        ("empty", Vec::new()),
        ("flipped byte", flipped),
        ("garbage", b"not a cache entry at all".repeat(10)),
    ];
    for (what, bytes) in damaged {
        std::fs::write(&entry, &bytes).unwrap();
        let c = disk_client("cpu", dir.path());
        run_and_check(&c.compile(&m, &o).unwrap(), 16);
        let s = c.stats();
        assert_eq!((s.disk_hits, s.disk_errors, s.disk_writes, s.compiles), (0, 1, 1, 1), "{what}: {s:?}");
        assert_eq!(std::fs::read(&entry).unwrap().len(), good.len(), "{what}: rebuilt");
    }
    let c = disk_client("cpu", dir.path());
    run_and_check(&c.compile(&m, &o).unwrap(), 16);
    assert_eq!((c.stats().disk_hits, c.stats().compiles), (1, 0));
    // The tiered backend shares the LLVM entries.
    let t = disk_client("tiered", dir.path());
    let exe = t.compile(&m, &o).unwrap();
    assert!(!exe.is_tiered());
    run_and_check(&exe, 16);
    assert_eq!(t.stats().disk_hits, 1);
}

/// A client's own memory budget holds on every tier: compiled backends refuse
/// the program when it is compiled, the interpreter when it runs.
#[test]
fn a_clients_memory_budget_bounds_every_backend() {
    use smelt_hlo::budget::{CompileBudget, Limits, MemoryBudget};
    let limits = Limits { memory: MemoryBudget::new(4096), compile: CompileBudget::default() };
    let n = 2048; // two f32[2048] parameters and their sum: 24 KiB
    for backend in ["interp", "cranelift", "cpu"] {
        let options = ClientOptions { no_disk_cache: true, limits: Some(limits), ..Default::default() };
        let c = Client::with_options(backend, options).unwrap();
        let compile = CompileOptions { tiered: false, ..Default::default() };
        let outcome = c.compile(&add_module(n, "m", false), &compile).and_then(|exe| {
            let (a, b) = inputs(n);
            exe.run(&[&a, &b])
        });
        let message = outcome.err().unwrap_or_else(|| panic!("{backend}: ran over its budget")).to_string();
        assert!(message.contains("more than the memory budget of 4096 bytes"), "{backend}: {message}");
    }
}
