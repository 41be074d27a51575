//! Differential property test: the CPU backends (and the GPU backend: its
//! elemental products evaluated, its kernels in the simulator, its PTX
//! assembled) against the interpreter on random
//! modules — elementwise chains in every element type, broadcasts, transposes,
//! reductions over random sets of axes, dots with random dimension numbers, and
//! shapes with odd and zero-sized dimensions.

use proptest::prelude::*;
use smelt_hlo::attrs::DotDims;
use smelt_hlo::builder::{ComputationBuilder, ModuleBuilder, Reducer};
use smelt_hlo::{DType, Dims, InstId, Module, Opcode, Shape};

use smelt::engine::{Compiled, Pipeline};

/// A value being built: its id, element type and dims.
#[derive(Clone, Debug)]
struct Val {
    id: InstId,
    dtype: DType,
    dims: Vec<i64>,
}

/// Random choices the generator consumes (proptest shrinks them).
#[derive(Clone, Debug)]
struct Choices(Vec<u32>);

impl Choices {
    fn take(&mut self, n: u32) -> u32 {
        let v = self.0.pop().unwrap_or(0);
        if n == 0 { 0 } else { v % n }
    }
}

const DTYPES: [DType; 8] =
    [DType::F32, DType::F64, DType::F16, DType::Bf16, DType::S32, DType::S8, DType::U8, DType::U32];
const EXTENTS: [i64; 7] = [1, 2, 3, 5, 7, 0, 4];

fn float_unary(c: &mut Choices) -> Opcode {
    [Opcode::Negate, Opcode::Abs, Opcode::Exp, Opcode::Tanh, Opcode::Floor, Opcode::Logistic, Opcode::Sine]
        [c.take(7) as usize]
}

fn int_unary(c: &mut Choices) -> Opcode {
    [Opcode::Negate, Opcode::Abs, Opcode::Not, Opcode::Popcnt, Opcode::Clz][c.take(5) as usize]
}

fn binary(c: &mut Choices, dtype: DType) -> Opcode {
    if dtype.is_float() {
        [Opcode::Add, Opcode::Subtract, Opcode::Multiply, Opcode::Maximum, Opcode::Minimum, Opcode::Divide]
            [c.take(6) as usize]
    } else {
        [Opcode::Add, Opcode::Subtract, Opcode::Multiply, Opcode::Maximum, Opcode::And, Opcode::Xor, Opcode::Divide]
            [c.take(7) as usize]
    }
}

/// Builds a module from the choices: parameters of random types and shapes, then
/// a sequence of ops on them; the last few values are the results.
fn build(mut c: Choices) -> Module {
    let mut mb = ModuleBuilder::new("random");
    let mut reducers = Vec::new();
    for dtype in DTYPES {
        reducers.push((dtype, Reducer::Add, mb.scalar_reducer(Reducer::Add, dtype).unwrap()));
        reducers.push((dtype, Reducer::Max, mb.scalar_reducer(Reducer::Max, dtype).unwrap()));
    }
    let mut b = mb.builder("main");
    let mut vals: Vec<Val> = Vec::new();
    let params = 2 + c.take(2);
    for p in 0..params {
        let dtype = DTYPES[c.take(DTYPES.len() as u32) as usize];
        let rank = 1 + c.take(3) as usize;
        let dims: Vec<i64> = (0..rank).map(|_| EXTENTS[c.take(EXTENTS.len() as u32) as usize]).collect();
        let id = b.parameter(p, Shape::array(dtype, &dims), &format!("p{p}")).unwrap();
        vals.push(Val { id, dtype, dims });
    }
    let steps = 4 + c.take(10);
    for _ in 0..steps {
        let x = vals[c.take(vals.len() as u32) as usize].clone();
        let made = match c.take(7) {
            0 => {
                let op = if x.dtype.is_float() { float_unary(&mut c) } else { int_unary(&mut c) };
                b.unary(op, x.id).ok().map(|id| Val { id, ..x.clone() })
            }
            1 => {
                // A partner of the same type and dims, if any.
                let same: Vec<&Val> = vals.iter().filter(|v| v.dtype == x.dtype && v.dims == x.dims).collect();
                let y = same[c.take(same.len() as u32) as usize].id;
                let op = binary(&mut c, x.dtype);
                b.binary(op, x.id, y).ok().map(|id| Val { id, ..x.clone() })
            }
            2 => {
                // Broadcast into one more leading dimension.
                let n = EXTENTS[c.take(EXTENTS.len() as u32) as usize];
                let mut dims = vec![n];
                dims.extend(&x.dims);
                let map: Vec<i64> = (1..=x.dims.len() as i64).collect();
                b.broadcast(x.id, &dims, &map).ok().map(|id| Val { id, dtype: x.dtype, dims })
            }
            3 => {
                // A random permutation.
                let mut perm: Vec<i64> = (0..x.dims.len() as i64).collect();
                for i in (1..perm.len()).rev() {
                    perm.swap(i, c.take(i as u32 + 1) as usize);
                }
                let dims: Vec<i64> = perm.iter().map(|&p| x.dims[p as usize]).collect();
                b.transpose(x.id, &perm).ok().map(|id| Val { id, dtype: x.dtype, dims })
            }
            4 => {
                // Reduce over a random nonempty set of axes.
                let mask = 1 + c.take((1u32 << x.dims.len()) - 1);
                let axes: Vec<i64> = (0..x.dims.len() as i64).filter(|d| mask >> d & 1 == 1).collect();
                let kind = if c.take(2) == 0 { Reducer::Add } else { Reducer::Max };
                let comp = reducers.iter().find(|r| r.0 == x.dtype && r.1 == kind).map(|r| r.2);
                let init = if kind == Reducer::Add { 0.0 } else { -4.0 };
                let init = b.constant(scalar(x.dtype, init)).ok();
                let dims: Vec<i64> =
                    x.dims.iter().enumerate().filter(|(d, _)| !axes.contains(&(*d as i64))).map(|(_, &e)| e).collect();
                match (comp, init) {
                    (Some(comp), Some(init)) => {
                        b.reduce(&[x.id], &[init], &axes, comp).ok().map(|id| Val { id, dtype: x.dtype, dims })
                    }
                    _ => None,
                }
            }
            5 => random_dot(&mut b, &x, &vals, &mut c),
            _ => {
                // Convert to another type.
                let to = DTYPES[c.take(DTYPES.len() as u32) as usize];
                b.convert(x.id, to).ok().map(|id| Val { id, dtype: to, dims: x.dims.clone() })
            }
        };
        vals.extend(made);
    }
    let outs: Vec<InstId> = vals.iter().rev().take(3).map(|v| v.id).collect();
    let root = b.tuple(&outs).unwrap();
    let comp = b.build(root).unwrap();
    let entry = mb.add_computation(comp);
    mb.build(entry).unwrap()
}

fn scalar(dtype: DType, v: f64) -> smelt_hlo::Literal {
    use smelt_hlo::{Array, ArrayData};
    let data = match dtype {
        DType::F32 => ArrayData::F32(vec![v as f32]),
        DType::F64 => ArrayData::F64(vec![v]),
        DType::F16 => ArrayData::F16(vec![half::f16::from_f64(v)]),
        DType::Bf16 => ArrayData::Bf16(vec![half::bf16::from_f64(v)]),
        DType::S32 => ArrayData::S32(vec![v as i32]),
        DType::S8 => ArrayData::S8(vec![v as i8]),
        DType::U8 => ArrayData::U8(vec![v.max(0.0) as u8]),
        DType::U32 => ArrayData::U32(vec![v.max(0.0) as u32]),
        _ => ArrayData::F32(vec![v as f32]),
    };
    smelt_hlo::Literal::Array(Array { dims: Dims::new(), data })
}

/// A dot of `x` with a fresh-shaped partner: random batch and contracting dims
/// among `x`'s, the partner's dims arranged in a random order.
fn random_dot(b: &mut ComputationBuilder<'_>, x: &Val, vals: &[Val], c: &mut Choices) -> Option<Val> {
    if !matches!(x.dtype, DType::F32 | DType::F64 | DType::S32) || x.dims.len() < 2 {
        return None;
    }
    // x's dims: first nb are batch, next nc contracting, the rest free (then permuted).
    let rank = x.dims.len();
    let nb = c.take(rank as u32) as usize;
    let nc = 1 + c.take((rank - nb) as u32) as usize;
    let nc = nc.min(rank - nb);
    let lhs_batch: Vec<i64> = (0..nb as i64).collect();
    let lhs_contracting: Vec<i64> = (nb as i64..(nb + nc) as i64).collect();
    // The partner: batch dims, contracting dims, one free dim, in a random order.
    let free = EXTENTS[c.take(5) as usize];
    let mut partner_dims: Vec<(char, usize)> = (0..nb).map(|i| ('b', i)).collect();
    partner_dims.extend((0..nc).map(|i| ('c', i)));
    partner_dims.push(('f', 0));
    for i in (1..partner_dims.len()).rev() {
        partner_dims.swap(i, c.take(i as u32 + 1) as usize);
    }
    let dims: Vec<i64> = partner_dims
        .iter()
        .map(|&(k, i)| match k {
            'b' => x.dims[i],
            'c' => x.dims[nb + i],
            _ => free,
        })
        .collect();
    let position = |k: char, i: usize| partner_dims.iter().position(|&p| p == (k, i)).map(|p| p as i64);
    let rhs_batch: Vec<i64> = (0..nb).filter_map(|i| position('b', i)).collect();
    let rhs_contracting: Vec<i64> = (0..nc).filter_map(|i| position('c', i)).collect();
    // The partner is a parameter-derived value if one fits, else a broadcast of x's first element type constant.
    let y = vals.iter().find(|v| v.dtype == x.dtype && v.dims == dims).map(|v| v.id);
    let y = match y {
        Some(y) => y,
        None => {
            let one = b.constant(scalar(x.dtype, 0.5)).ok()?;
            b.broadcast(one, &dims, &[]).ok()?
        }
    };
    let dd = DotDims {
        lhs_batch: Dims::from_slice(&lhs_batch),
        rhs_batch: Dims::from_slice(&rhs_batch),
        lhs_contracting: Dims::from_slice(&lhs_contracting),
        rhs_contracting: Dims::from_slice(&rhs_contracting),
    };
    let id = b.dot(x.id, y, dd, None).ok()?;
    let mut out: Vec<i64> = x.dims[..nb].to_vec();
    out.extend(&x.dims[nb + nc..]);
    out.push(free);
    Some(Val { id, dtype: x.dtype, dims: out })
}

/// Whether `got` matches the interpreter's `want` (sums may be reassociated;
/// low-precision floats round per op).
fn agrees(
    got: &[smelt_hlo::Array],
    want: &[smelt_hlo::Array],
    who: &str,
    module: &Module,
) -> Result<(), TestCaseError> {
    prop_assert_eq!(got.len(), want.len());
    let tol_of = |d: DType| match d {
        DType::F16 | DType::Bf16 => 2e-2,
        DType::F32 => 1e-4,
        _ => 1e-9,
    };
    // A float result is as precise as the least precise float computed on the
    // way (an f64 converted from an f32 exp carries the f32 rounding).
    let float_tol = module
        .comps
        .iter()
        .flat_map(|(_, c)| {
            c.insts.iter().flat_map(|(_, i)| i.shape.leaves().iter().map(|a| a.dtype).collect::<Vec<_>>())
        })
        .filter(|d| d.is_float())
        .map(tol_of)
        .fold(0.0, f64::max);
    for (k, (g, w)) in got.iter().zip(want).enumerate() {
        let tol = if w.dtype().is_float() { tol_of(w.dtype()).max(float_tol) } else { tol_of(w.dtype()) };
        if let Err(m) = smelt::case::compare(g, w, tol, tol) {
            return Err(TestCaseError::fail(format!("{who} output {k}: {m}\n{}", smelt_hlo::print_module(module))));
        }
    }
    Ok(())
}

fn env_number(var: &str) -> Option<u64> {
    std::env::var(var).ok()?.parse().ok()
}

proptest! {
    #![proptest_config(ProptestConfig {
        // 40 programs per test run; SMELT_PROP_CASES and SMELT_PROP_SEED set a
        // longer run (docs/reliability.md).
        cases: env_number("SMELT_PROP_CASES").unwrap_or(40) as u32,
        failure_persistence: None,
        rng_seed: proptest::test_runner::RngSeed::Fixed(env_number("SMELT_PROP_SEED").unwrap_or(0x5e1f)),
        ..ProptestConfig::default()
    })]

    #[test]
    fn compiled_backends_match_the_interpreter(choices in prop::collection::vec(any::<u32>(), 64..128)) {
        let module = build(Choices(choices));
        if std::env::var("PROP_DEBUG").is_ok() {
            let ops: Vec<String> = module.entry().insts.iter().map(|(_, i)| i.opcode.name().to_string()).collect();
            eprintln!("PROP {}", ops.join(" "));
        }
        smelt_hlo::verify(&module).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let args = smelt::hlo::random::random_inputs(&module.entry().param_shapes()).unwrap();
        let want = smelt_interp::evaluate(&module, &args).unwrap().into_leaves();
        // The GPU backend without a GPU: its prepared program (every product as
        // an elemental kernel) through the kernel evaluator, and its PTX.
        let program = crate::gpu::lower(module.clone());
        let prepared = smelt::gpu::elemental::prepare(&program, false).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let leaves: Vec<smelt_hlo::Array> = args.iter().flat_map(smelt_hlo::Literal::leaves).cloned().collect();
        let got = smelt_kernel::eval::run(&prepared, &leaves).map_err(|e| TestCaseError::fail(e.to_string()))?;
        agrees(&got, &want, "gpu elemental", &module)?;
        // The GPU strategies and generated code in the simulator.
        let verified = smelt::kernel::verify(&program).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let got = smelt::gpu::sim::simulate(&verified, &leaves, 2).map_err(|e| TestCaseError::fail(e.to_string()))?;
        agrees(&got, &want, "gpu simulator", &module)?;
        let ptx = smelt::gpu::emit_ptx(&verified, &smelt::gpu::CompileOptions { sm: 90, ..Default::default() })
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert!(ptx.contains(".target sm_90"));
        if let Some(ptxas) = crate::gpu::ptxas() {
            crate::gpu::assemble(&ptxas, &ptx).map_err(|e| TestCaseError::fail(format!("ptxas: {e}")))?;
        }
        for backend in ["cpu", "cranelift"] {
            let compiled = Compiled::new(module.clone(), backend, Pipeline::Default)
                .map_err(|e| TestCaseError::fail(format!("{e}\n{}", smelt_hlo::print_module(&module))))?;
            let got = compiled.run(&args).map_err(|e| TestCaseError::fail(e.to_string()))?;
            agrees(&got, &want, backend, &module)?;
        }
    }
}
