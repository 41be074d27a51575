//! The GPU backend without a GPU: PTX for every corpus case (assembled by
//! `ptxas` for sm_90 when it is installed), the prepared program (convolutions
//! and products as elemental kernels) against XLA's outputs through the
//! kernel evaluator, the launch strategies the corpus gets, and the whole
//! corpus on the device when this machine has one.

use std::path::PathBuf;
use std::process::Command;

use smelt::case::{Case, compare_outputs};
use smelt::engine::{Compiled, Pipeline};
use smelt::gpu::plan::{self, Strategy};
use smelt_hlo::reducers::{ADD, MAX};
use smelt_hlo::{Array, Literal};

use crate::common::corpus_cases;

/// `module` after the default pipeline, lowered to the kernel form.
pub(crate) fn lower(mut module: smelt_hlo::Module) -> smelt_kernel::Program {
    smelt::engine::optimize(
        &mut module,
        Pipeline::Default,
        &mut smelt_passes::PassContext::new(smelt_passes::Options::default()),
    )
    .unwrap();
    smelt_kernel::lower_module(&module).unwrap()
}

/// The case's module, lowered (see [`lower`]).
/// The proof that a lowered program is well formed (lowering makes only those).
fn verify(p: &smelt_kernel::Program) -> smelt_kernel::VerifiedProgram<'_> {
    smelt_kernel::verify(p).unwrap_or_else(|e| panic!("{e}"))
}

fn lowered(case: &Case) -> smelt_kernel::Program {
    lower(smelt_hlo::parse_module(&std::fs::read_to_string(&case.module_path).unwrap()).unwrap())
}

/// `ptxas`: `$SMELT_PTXAS`, else on the PATH, else where
/// `scripts/install-deps.sh` puts the `nvidia-cuda-nvcc` wheel.
pub(crate) fn ptxas() -> Option<PathBuf> {
    let candidates = [
        std::env::var_os("SMELT_PTXAS").map(PathBuf::from),
        Some(PathBuf::from("ptxas")),
        std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache/smelt/nvcc/nvidia/cuda_nvcc/bin/ptxas")),
    ];
    candidates
        .into_iter()
        .flatten()
        .find(|p| Command::new(p).arg("--version").output().is_ok_and(|o| o.status.success()))
}

/// Assembles `ptx` for sm_90 with `ptxas`; the assembler's complaint if it fails.
pub(crate) fn assemble(ptxas: &std::path::Path, ptx: &str) -> Result<(), String> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("module.ptx");
    std::fs::write(&path, ptx).unwrap();
    let out = Command::new(ptxas)
        .args(["-arch=sm_90", "-o"])
        .arg(dir.path().join("module.cubin"))
        .arg(&path)
        .output()
        .map_err(|e| e.to_string())?;
    if out.status.success() { Ok(()) } else { Err(String::from_utf8_lossy(&out.stderr).into_owned()) }
}

#[test]
fn ptx_for_every_corpus_case_assembles_for_sm_90() {
    let ptxas = ptxas();
    if ptxas.is_none() {
        eprintln!("ptxas not found (SMELT_PTXAS, PATH, ~/.cache/smelt/nvcc): checking PTX text only");
    }
    let options = smelt::gpu::CompileOptions { sm: 90, ..Default::default() };
    let mut failures = Vec::new();
    let mut assembled = 0;
    let cases: Vec<_> = corpus_cases().into_iter().filter(|d| !host_only(d)).collect();
    for case_dir in &cases {
        let case = Case::load(case_dir).unwrap();
        let program = lowered(&case);
        let ptx = match smelt::gpu::emit_ptx(&verify(&program), &options) {
            Ok(p) => p,
            Err(e) => {
                failures.push(format!("{}: {e}", case.name));
                continue;
            }
        };
        assert!(ptx.contains(".target sm_90") && ptx.contains(".entry smelt_k"), "{}: no kernels", case.name);
        if let Some(ptxas) = &ptxas {
            match assemble(ptxas, &ptx) {
                Ok(()) => assembled += 1,
                Err(e) => failures.push(format!("{}: ptxas: {e}", case.name)),
            }
        }
    }
    assert!(failures.is_empty(), "{} cases failed:\n{}", failures.len(), failures.join("\n"));
    if ptxas.is_some() {
        assert_eq!(assembled, cases.len());
    }
}

/// Convolutions and every product as elemental kernels (what the GPU runs
/// when cuBLAS does not take a product), evaluated by the kernel evaluator,
/// match XLA.
#[test]
fn elemental_products_and_convolutions_match_xla() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for case_dir in corpus_cases() {
        if host_only(&case_dir) {
            continue;
        }
        let case = Case::load(&case_dir).unwrap();
        let program = lowered(&case);
        let prepared = smelt::gpu::elemental::prepare(&program, false).unwrap();
        if prepared.kernels.len() == program.kernels.len() {
            continue; // no products or convolutions
        }
        let inputs = case.load_inputs().unwrap();
        let args: Vec<Array> = inputs.iter().flat_map(Literal::leaves).cloned().collect();
        let outcome = smelt_kernel::eval::run(&prepared, &args)
            .map_err(|e| e.to_string())
            .and_then(|got| compare_outputs(&case, &got, &case.load_expected().unwrap()));
        if let Err(e) = outcome {
            failures.push(format!("{}: {e}", case.name));
        }
        checked += 1;
    }
    assert!(failures.is_empty(), "{} cases failed:\n{}", failures.len(), failures.join("\n"));
    assert!(checked >= 10, "only {checked} corpus cases have products or convolutions");
}

/// Row statistics and row reductions get the block strategies; every launch
/// is whole warps (but for sorts and the one serial thread).
#[test]
fn corpus_kernels_get_the_row_strategies() {
    let strategies = |name: &str| -> Vec<Strategy> {
        let case = Case::load(&corpus_cases().into_iter().find(|d| d.ends_with(name)).unwrap()).unwrap();
        let prepared = smelt::gpu::elemental::prepare(&lowered(&case), true).unwrap();
        prepared.kernels.iter().map(|k| plan::choose(k).unwrap()).collect()
    };
    for name in ["layernorm", "log_softmax", "bert_encoder"] {
        let s = strategies(name);
        assert!(s.iter().any(|s| matches!(s, Strategy::RowLoop { .. } | Strategy::RowReduce { .. })), "{name}: {s:?}");
    }
    for case_dir in corpus_cases().into_iter().filter(|d| !host_only(d)) {
        let case = Case::load(&case_dir).unwrap();
        let prepared = smelt::gpu::elemental::prepare(&lowered(&case), true).unwrap();
        for k in &prepared.kernels {
            let s = plan::choose(k).unwrap();
            let l = s.launch();
            // Sorts size small blocks to their slices; everything else is whole warps.
            let whole = l.block.is_multiple_of(32) || matches!(s, Strategy::Sort { .. } | Strategy::Serial);
            assert!(whole, "{}: {} block {}", case.name, k.name, l.block);
        }
    }
}

#[test]
fn every_corpus_case_matches_xla_on_the_gpu_or_says_why() {
    if !smelt::gpu::driver_available() {
        let case = Case::load(&corpus_cases()[0]).unwrap();
        let module = smelt_hlo::parse_module(&std::fs::read_to_string(&case.module_path).unwrap()).unwrap();
        let e = Compiled::new(module, "gpu", Pipeline::Default).expect_err("no CUDA driver here");
        assert!(e.to_string().contains("no CUDA driver found"), "{e}");
        eprintln!("skipping GPU execution: no CUDA driver on this machine");
        return;
    }
    let mut failures = Vec::new();
    for dir in corpus_cases() {
        if crate::common::checks_cpu_fpenv(&dir) {
            continue;
        }
        let case = Case::load(&dir).unwrap();
        let module = smelt_hlo::parse_module(&std::fs::read_to_string(&case.module_path).unwrap()).unwrap();
        let outcome = Compiled::new(module, "gpu", Pipeline::Default)
            .map_err(|e| e.to_string())
            .and_then(|c| c.run(&case.load_inputs().unwrap()).map_err(|e| e.to_string()))
            .and_then(|got| compare_outputs(&case, &got, &case.load_expected().unwrap()));
        let targets = crate::common::custom_call_targets(&dir);
        let outcome = match outcome {
            Err(e) if crate::common::names_a_target(&e, &targets) => Ok(()),
            other if !targets.is_empty() => Err(format!("expected a refusal naming one of {targets:?}, got {other:?}")),
            outcome => outcome,
        };
        if let Err(e) = outcome {
            failures.push(format!("{}: {e}", case.name));
        }
    }
    assert!(failures.is_empty(), "{} cases failed on the GPU:\n{}", failures.len(), failures.join("\n"));
}

/// Programs big enough for the split reductions and transpose tiles (the
/// corpus cases at test size are too small for them), and a random-bit
/// generator (whose new state is a second launch).
const LARGE: [(&str, &str, &[&str]); 4] = [
    (
        "rng",
        "rng_state",
        &[r#"HloModule rng_state
ENTRY main {
  s = u64[2]{0} parameter(0)
  ROOT r = (u64[2]{0}, u32[64,128]{1,0}) rng-bit-generator(s), algorithm=rng_three_fry
}
"#],
    ),
    (
        "split-row-reduce",
        "full_sum",
        &[
            "HloModule full_sum\n",
            ADD,
            r#"ENTRY main {
  x = f32[1048576]{0} parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[] reduce(x, z), dimensions={0}, to_apply=add
}
"#,
        ],
    ),
    (
        "split-column-reduce",
        "column_max",
        &[
            "HloModule column_max\n",
            MAX,
            r#"ENTRY main {
  x = f32[262144,4]{1,0} parameter(0)
  z = f32[] constant(-inf)
  ROOT r = f32[4]{0} reduce(x, z), dimensions={0}, to_apply=max
}
"#,
        ],
    ),
    (
        "transpose",
        "transpose_square",
        &[r#"HloModule transpose_square
ENTRY main {
  x = f32[512,256]{1,0} parameter(0)
  t = f32[256,512]{1,0} transpose(x), dimensions={1,0}
  ROOT m = f32[256,512]{1,0} multiply(t, t)
}
"#],
    ),
];

/// Each gets its strategy, its PTX assembles, and it computes what the
/// interpreter does in the simulator.
#[test]
fn large_shapes_get_split_and_tiled_strategies_that_assemble_and_compute() {
    let ptxas = ptxas();
    for (strategy, name, text) in LARGE {
        let module = smelt_hlo::parse_module(&text.concat()).unwrap();
        let program = lower(module.clone());
        let prepared = smelt::gpu::elemental::prepare(&program, true).unwrap();
        let names: Vec<&str> = prepared.kernels.iter().map(|k| plan::choose(k).unwrap().name()).collect();
        assert!(names.contains(&strategy), "{name}: strategies {names:?}");
        let ptx = smelt::gpu::emit_ptx(&verify(&program), &smelt::gpu::CompileOptions { sm: 90, ..Default::default() })
            .unwrap();
        if strategy.starts_with("split") {
            assert!(ptx.contains("_combine("), "{name}: no combine stage");
        }
        if strategy == "rng" {
            assert!(ptx.contains("_state("), "{name}: no state entry");
        }
        // The same kernels in the simulator against the interpreter.
        let args = smelt::hlo::random::random_inputs(&module.entry().param_shapes()).unwrap();
        let want = smelt_interp::evaluate(&module, &args).unwrap().into_leaves();
        let leaves: Vec<Array> = args.iter().flat_map(Literal::leaves).cloned().collect();
        let got = smelt::gpu::sim::simulate(&verify(&program), &leaves, 3).unwrap();
        for (g, w) in got.iter().zip(&want) {
            smelt::case::compare(g, w, 1e-4, 1e-4).unwrap_or_else(|m| panic!("{name} in the simulator: {m}"));
        }
        if let Some(ptxas) = &ptxas {
            assemble(ptxas, &ptx).unwrap_or_else(|e| panic!("{name}: {e}"));
        }
    }
}

/// The whole GPU path without a GPU: every corpus case's kernels, generated
/// with the GPU strategies and primitives as host calls, run by the step
/// driver in the simulator (blocks of OS threads with barriers, warp
/// shuffles and shared memory; grids capped at 3 blocks so grid-stride loops
/// run), against XLA's outputs.
#[test]
fn every_corpus_case_matches_xla_in_the_gpu_simulator() {
    let mut failures = Vec::new();
    let mut cpu_fpenv = Vec::new();
    for dir in corpus_cases() {
        let case = Case::load(&dir).unwrap();
        if crate::common::checks_cpu_fpenv(&dir) {
            cpu_fpenv.push(case.name);
            continue;
        }
        let inputs = case.load_inputs().unwrap();
        let args: Vec<Array> = inputs.iter().flat_map(Literal::leaves).cloned().collect();
        let t = std::time::Instant::now();
        let program = lowered(&case);
        let outcome = smelt::gpu::sim::simulate(&verify(&program), &args, 3)
            .map_err(|e| e.to_string())
            .and_then(|got| compare_outputs(&case, &got, &case.load_expected().unwrap()));
        // Library routines run on the host backends: refused, naming the target.
        let targets = crate::common::custom_call_targets(&dir);
        let outcome = match outcome {
            Err(e) if crate::common::names_a_target(&e, &targets) && e.contains("host backends") => Ok(()),
            other if !targets.is_empty() => Err(format!("expected a refusal naming one of {targets:?}, got {other:?}")),
            outcome => outcome,
        };
        if std::env::var("SIM_DEBUG").is_ok() {
            eprintln!("{}: {:.2} s", case.name, t.elapsed().as_secs_f64());
        }
        if let Err(e) = outcome {
            failures.push(format!("{}: {e}", case.name));
        }
    }
    assert!(failures.is_empty(), "{} cases failed in the simulator:\n{}", failures.len(), failures.join("\n"));
    eprintln!("not run (they check XLA CPU's flush-to-zero environment): {}", cpu_fpenv.join(", "));
}

/// Malformed programs are errors, not panics: every kernel of a few corpus
/// programs broken in turn (a space dimension negative, a reduced dimension
/// out of range, an input dropped, a load from a missing input, a node
/// referring forward).
#[test]
fn malformed_programs_are_gpu_errors_not_panics() {
    use smelt_kernel::{KernelBody, Node, NodeId};
    let options = smelt::gpu::CompileOptions { sm: 90, ..Default::default() };
    let mut errors = 0;
    for name in ["layernorm", "reduce_sum_axes", "sort_argsort", "conv2d_nhwc", "gather_scatter", "cumulative"] {
        let dir = corpus_cases().into_iter().find(|d| d.ends_with(name)).unwrap();
        let program = lowered(&Case::load(&dir).unwrap());
        for k in 0..program.kernels.len() {
            for mutation in 0..5 {
                let mut p = program.clone();
                let kernel = &mut p.kernels[k];
                if mutation == 2 {
                    kernel.inputs.pop();
                }
                match &mut kernel.body {
                    KernelBody::Loop { space, graph, .. } | KernelBody::Reduce { space, graph, .. } => {
                        match mutation {
                            0 => space.iter_mut().take(1).for_each(|d| *d = -3),
                            3 => graph.nodes.push(Node::Load { input: 77, index: vec![] }),
                            4 => graph.nodes.iter_mut().take(1).for_each(|n| {
                                *n = Node::Unary { op: smelt_kernel::UnaryOp::Neg, x: NodeId(1_000_000) }
                            }),
                            _ => {}
                        }
                    }
                    _ => {}
                }
                if let (1, KernelBody::Reduce { reduced, .. }) = (mutation, &mut kernel.body) {
                    reduced.push(99);
                }
                if p == program {
                    continue;
                }
                // The verifier refuses most mutants; the backend the rest.
                if smelt::kernel::verify(&p)
                    .map_err(|e| e.to_string())
                    .and_then(|v| smelt::gpu::emit_ptx(&v, &options).map_err(|e| e.to_string()))
                    .is_err()
                {
                    errors += 1;
                }
            }
        }
    }
    assert!(errors > 20, "only {errors} mutated programs were rejected");
}

/// Whether a corpus case calls a library routine (host backends only).
fn host_only(case_dir: &std::path::Path) -> bool {
    !crate::common::custom_call_targets(case_dir).is_empty()
}
