//! Properties of the default pipeline on random modules of elementwise,
//! broadcast, reduce and dot instructions: it preserves results (the same
//! interpreter results before and after optimization), and no fusion it makes
//! does more than `fusion_cost::MAX_COST_RATIO` times the work of its
//! instructions run unfused (also over the corpus).

use proptest::prelude::*;
use smelt_hlo::attrs::DotDims;
use smelt_hlo::builder::{ModuleBuilder, Reducer};
use smelt_hlo::{DType, InstId, Literal, Module, Opcode, Shape};
use smelt_passes::{Options, PassContext};

const M: i64 = 4;
const N: i64 = 8;

/// One step of a random program; operand choices are indices into the values
/// built so far (taken modulo their number).
#[derive(Clone, Debug)]
enum Step {
    Unary(u8, usize),
    Binary(u8, usize, usize),
    BroadcastRow(usize),
    BroadcastCol(usize),
    Reduce(bool, u8, usize),
    Dot(usize),
    ReduceAll(usize),
    BroadcastScalar(usize),
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        (0u8..6, any::<usize>()).prop_map(|(o, a)| Step::Unary(o, a)),
        (0u8..5, any::<usize>(), any::<usize>()).prop_map(|(o, a, b)| Step::Binary(o, a, b)),
        any::<usize>().prop_map(Step::BroadcastRow),
        any::<usize>().prop_map(Step::BroadcastCol),
        (any::<bool>(), 0u8..2, any::<usize>()).prop_map(|(d, r, a)| Step::Reduce(d, r, a)),
        any::<usize>().prop_map(Step::Dot),
        any::<usize>().prop_map(Step::ReduceAll),
        any::<usize>().prop_map(Step::BroadcastScalar),
    ]
}

/// Builds the program; steps whose operands have unsuitable shapes are skipped.
fn build(steps: &[Step]) -> Module {
    let mut mb = ModuleBuilder::new("random");
    let add = mb.scalar_reducer(Reducer::Add, DType::F32).unwrap();
    let max = mb.scalar_reducer(Reducer::Max, DType::F32).unwrap();
    let mut b = mb.builder("main");
    let f32s = |dims: &[i64]| Shape::array(DType::F32, dims);
    let mut values: Vec<(InstId, Vec<i64>)> = vec![
        (b.parameter(0, f32s(&[M, N]), "x").unwrap(), vec![M, N]),
        (b.parameter(1, f32s(&[M, N]), "y").unwrap(), vec![M, N]),
        (b.parameter(2, f32s(&[N]), "row").unwrap(), vec![N]),
        (b.parameter(3, f32s(&[M]), "col").unwrap(), vec![M]),
        (b.parameter(4, f32s(&[N, N]), "w").unwrap(), vec![N, N]),
    ];
    let zero = b.constant(Literal::Array(smelt_hlo::Array::scalar(0.0f32))).unwrap();
    let ninf = b.constant(Literal::Array(smelt_hlo::Array::scalar(f32::NEG_INFINITY))).unwrap();
    let pick = |values: &[(InstId, Vec<i64>)], k: usize| values[k % values.len()].clone();
    // A value of the given dims, if any was built.
    let pick_dims = |values: &[(InstId, Vec<i64>)], k: usize, dims: &[i64]| -> Option<(InstId, Vec<i64>)> {
        let fit: Vec<&(InstId, Vec<i64>)> = values.iter().filter(|v| v.1 == dims).collect();
        (!fit.is_empty()).then(|| fit[k % fit.len()].clone())
    };
    for s in steps {
        let made = match *s {
            Step::Unary(o, a) => {
                let (x, d) = pick(&values, a);
                let op = [Opcode::Negate, Opcode::Exp, Opcode::Tanh, Opcode::Abs, Opcode::Logistic, Opcode::Sine]
                    [o as usize];
                // exp only of bounded inputs, to keep values finite and comparable.
                let x = if op == Opcode::Exp { b.unary(Opcode::Tanh, x).unwrap() } else { x };
                Some((b.unary(op, x).unwrap(), d))
            }
            Step::Binary(o, a, c) => {
                let (x, dx) = pick(&values, a);
                let (y, _) = pick_dims(&values, c, &dx).expect("x itself fits");
                let op =
                    [Opcode::Add, Opcode::Multiply, Opcode::Subtract, Opcode::Maximum, Opcode::Minimum][o as usize];
                Some((b.binary(op, x, y).unwrap(), dx))
            }
            Step::BroadcastRow(a) => {
                pick_dims(&values, a, &[N]).map(|(x, _)| (b.broadcast(x, &[M, N], &[1]).unwrap(), vec![M, N]))
            }
            Step::BroadcastCol(a) => {
                pick_dims(&values, a, &[M]).map(|(x, _)| (b.broadcast(x, &[M, N], &[0]).unwrap(), vec![M, N]))
            }
            Step::Reduce(dim1, r, a) => pick_dims(&values, a, &[M, N]).map(|(x, _)| {
                let (init, comp) = if r == 0 { (zero, add) } else { (ninf, max) };
                let dim = dim1 as i64;
                (b.reduce(&[x], &[init], &[dim], comp).unwrap(), if dim1 { vec![M] } else { vec![N] })
            }),
            Step::Dot(a) => pick_dims(&values, a, &[M, N]).map(|(x, _)| {
                let dims = DotDims {
                    lhs_contracting: smelt_hlo::Dims::from_slice(&[1]),
                    rhs_contracting: smelt_hlo::Dims::from_slice(&[0]),
                    ..Default::default()
                };
                (b.dot(x, values[4].0, dims, None).unwrap(), vec![M, N])
            }),
            Step::ReduceAll(a) => {
                pick_dims(&values, a, &[M, N]).map(|(x, _)| (b.reduce(&[x], &[zero], &[0, 1], add).unwrap(), vec![]))
            }
            Step::BroadcastScalar(a) => {
                pick_dims(&values, a, &[]).map(|(x, _)| (b.broadcast(x, &[M, N], &[]).unwrap(), vec![M, N]))
            }
        };
        values.extend(made);
    }
    let outputs: Vec<InstId> = values[5..].iter().rev().take(3).map(|v| v.0).collect();
    let outputs = if outputs.is_empty() { vec![values[0].0] } else { outputs };
    let root = b.tuple(&outputs).unwrap();
    let comp = b.build(root).unwrap();
    let entry = mb.add_computation(comp);
    mb.build(entry).unwrap()
}

fn same(a: &Literal, b: &Literal) -> Result<(), String> {
    for (k, (x, y)) in a.leaves().iter().zip(b.leaves()).enumerate() {
        smelt::case::compare(x, y, 1e-4, 1e-5).map_err(|m| format!("output {k}: {m}"))?;
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 96,
        failure_persistence: None,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x5e1f),
        ..ProptestConfig::default()
    })]

    #[test]
    fn default_pipeline_preserves_results(steps in prop::collection::vec(step(), 1..24)) {
        let module = build(&steps);
        smelt_hlo::verify(&module).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let args = smelt::hlo::random::random_inputs(&module.entry().param_shapes()).unwrap();
        let before = smelt_interp::evaluate(&module, &args).unwrap();
        let mut optimized = module.clone();
        let mut cx = PassContext::new(Options::default());
        cx.verify_each = true;
        smelt_passes::default_pipeline(&Options::default()).run_on(&mut optimized, &mut cx).unwrap();
        let after = smelt_interp::evaluate(&optimized, &args).unwrap();
        if let Err(m) = same(&after, &before) {
            return Err(TestCaseError::fail(format!("{m}\nbefore:\n{}\nafter:\n{}",
                smelt_hlo::print_module(&module), smelt_hlo::print_module(&optimized))));
        }
    }
}

/// Every fusion of `module` optimized for the CPU backend (row fusion on)
/// within the cost model's bound, or the first that is not.
fn fusion_costs_within_bound(mut module: Module) -> Result<(), String> {
    use smelt_passes::fusion_cost::{MAX_COST_RATIO, fusion_cost};
    let mut cx = PassContext::new(Options::default());
    smelt::engine::optimize(&mut module, smelt::engine::default_pipeline("cpu"), &mut cx).map_err(|e| e.to_string())?;
    let mut fusions = 0;
    for (_, comp) in module.comps.iter() {
        for (_, inst) in comp.insts.iter().filter(|(_, i)| i.opcode == Opcode::Fusion) {
            let cost = fusion_cost(&module, inst).ok_or_else(|| format!("{}: no body", inst.name))?;
            fusions += 1;
            if cost.ratio() > MAX_COST_RATIO {
                return Err(format!(
                    "{}: {:.2}x the unfused work ({cost:?})\n{}",
                    inst.name,
                    cost.ratio(),
                    smelt_hlo::print_module(&module)
                ));
            }
        }
    }
    if fusions == 0 && module.entry().insts.iter().any(|(_, i)| i.opcode.is_elementwise()) {
        return Err("an optimized module with elementwise work has no fusion".into());
    }
    Ok(())
}

#[test]
fn every_corpus_fusion_stays_within_the_cost_bound() {
    let mut failures = Vec::new();
    for case in crate::common::corpus_cases() {
        let text = std::fs::read_to_string(case.join("module.hlo")).unwrap();
        let module = smelt_hlo::parse_module(&text).unwrap();
        if let Err(e) = fusion_costs_within_bound(module) {
            failures.push(format!("{}: {e}", case.display()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 400,
        failure_persistence: None,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0xc057),
        ..ProptestConfig::default()
    })]

    #[test]
    fn fusions_never_multiply_work(steps in prop::collection::vec(step(), 1..48)) {
        fusion_costs_within_bound(build(&steps)).map_err(TestCaseError::fail)?;
    }
}
