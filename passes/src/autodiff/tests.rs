//! Gradients against finite differences, unrolled loops and exact values; refusals.

use super::*;
use smelt_hlo::Dims;
use smelt_hlo::builder::ModuleBuilder;
use smelt_hlo::parse_module;
use smelt_hlo::random::SplitMix;

type B<'m> = ComputationBuilder<'m>;
type R<T> = std::result::Result<T, ShapeError>;

fn f64s(dims: &[i64]) -> Shape {
    Shape::array(DType::F64, dims)
}

fn scalar(b: &mut B<'_>, v: f64) -> R<InstId> {
    b.constant(Literal::Array(Array::scalar(v)))
}

fn splat(b: &mut B<'_>, v: f64, dims: &[i64]) -> R<InstId> {
    let s = scalar(b, v)?;
    b.broadcast(s, dims, &[])
}

/// `v * v + 1`: positive, for the ops that need it.
fn positive(b: &mut B<'_>, v: InstId) -> R<InstId> {
    let sq = b.binary(Opcode::Multiply, v, v)?;
    let one = splat(b, 1.0, &[3, 4])?;
    b.binary(Opcode::Add, sq, one)
}

/// A random f64 program of `x, y: [3, 4]` and `w: [4, 2]` with a scalar loss,
/// drawn from elementwise math, data movement, reductions, dots and selects.
fn random_program(seed: u64) -> R<Module> {
    let mut rng = SplitMix::new(seed);
    let mut mb = ModuleBuilder::new(format!("random_{seed}"));
    let add = mb.scalar_reducer(Reducer::Add, DType::F64)?;
    let max = mb.scalar_reducer(Reducer::Max, DType::F64)?;
    let mut b = mb.builder("main");
    let x = b.parameter(0, f64s(&[3, 4]), "x")?;
    let y = b.parameter(1, f64s(&[3, 4]), "y")?;
    let w = b.parameter(2, f64s(&[4, 2]), "w")?;
    let mut pool = vec![x, y];
    for _ in 0..8 {
        let a = pool[rng.below(pool.len())];
        let c = pool[rng.below(pool.len())];
        let v = match rng.below(14) {
            0 => b.unary(Opcode::Tanh, a)?,
            1 => b.unary(Opcode::Sine, a)?,
            2 => {
                let s = splat(&mut b, 0.3, &[3, 4])?;
                let t = b.binary(Opcode::Multiply, a, s)?;
                b.unary(Opcode::Exp, t)?
            }
            3 => {
                let p = positive(&mut b, a)?;
                b.unary(Opcode::Log, p)?
            }
            4 => {
                let p = positive(&mut b, c)?;
                b.binary(Opcode::Divide, a, p)?
            }
            5 => b.binary(Opcode::Multiply, a, c)?,
            6 => b.binary([Opcode::Maximum, Opcode::Minimum][rng.below(2)], a, c)?,
            7 => {
                let p = positive(&mut b, a)?;
                let e = splat(&mut b, 0.7, &[3, 4])?;
                b.binary(Opcode::Power, p, e)?
            }
            8 => {
                let t = b.transpose(a, &[1, 0])?;
                let r = b.reverse(t, &[0])?;
                b.reshape(r, &[3, 4])?
            }
            9 => {
                let s = b.slice(a, &[1, 0], &[3, 4], &[1, 2])?;
                let z = scalar(&mut b, 0.25)?;
                let pads = [PadDim { low: 1, high: 0, interior: 0 }, PadDim { low: 0, high: 1, interior: 1 }];
                let p = b.pad(s, z, &pads)?;
                let top = b.slice(c, &[0, 0], &[1, 4], &[1, 1])?;
                let rest = b.slice(p, &[1, 0], &[3, 4], &[1, 1])?;
                let cat = b.concatenate(&[top, rest], 0)?;
                b.binary(Opcode::Add, cat, a)?
            }
            10 => {
                let ninf = scalar(&mut b, f64::NEG_INFINITY)?;
                let m = b.reduce(&[a], &[ninf], &[1], max)?;
                let mb_ = b.broadcast(m, &[3, 4], &[0])?;
                b.binary(Opcode::Subtract, c, mb_)?
            }
            11 => {
                let dims = |l: i64, r: i64| DotDims {
                    lhs_contracting: Dims::from_slice(&[l]),
                    rhs_contracting: Dims::from_slice(&[r]),
                    ..Default::default()
                };
                let d = b.dot(a, w, dims(1, 0), None)?;
                let back = b.dot(d, w, dims(1, 1), None)?;
                b.unary(Opcode::Tanh, back)?
            }
            12 => {
                let z = splat(&mut b, 0.0, &[3, 4])?;
                let p = b.compare(ComparisonDirection::Gt, a, z)?;
                let s = b.unary(Opcode::Sine, c)?;
                b.select(p, c, s)?
            }
            _ => {
                let z = scalar(&mut b, 0.0)?;
                let s = b.reduce(&[a], &[z], &[0], add)?;
                let sb = b.broadcast(s, &[3, 4], &[1])?;
                let t = b.unary(Opcode::Tanh, sb)?;
                b.binary(Opcode::Multiply, t, c)?
            }
        };
        pool.push(v);
    }
    let last = *pool.last().expect("the pool has values");
    let io = b.iota(f64s(&[3, 4]), 1)?;
    let weighted = b.binary(Opcode::Multiply, last, io)?;
    let z = scalar(&mut b, 0.0)?;
    let loss = b.reduce(&[weighted], &[z], &[0, 1], add)?;
    let main = b.build(loss)?;
    let entry = mb.add_computation(main);
    mb.build(entry)
}

fn loss_at(m: &Module, args: &[Literal]) -> f64 {
    smelt_interp::evaluate(m, args).unwrap().as_array().unwrap().data.get_f64(0)
}

/// Gradients of random programs agree with central finite differences.
#[test]
fn gradients_match_finite_differences() {
    let mut checked = 0;
    for seed in 0..40u64 {
        let m = random_program(seed).unwrap();
        let g = grad(&m, &[0, 1, 2]).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let mut rng = SplitMix::new(1000 + seed);
        let mut arr = |dims: &[i64]| {
            let n = dims.iter().product::<i64>() as usize;
            Array::from_vec(dims, (0..n).map(|_| rng.uniform(-1.5, 1.5)).collect::<Vec<f64>>())
        };
        let args = vec![Literal::Array(arr(&[3, 4])), Literal::Array(arr(&[3, 4])), Literal::Array(arr(&[4, 2]))];
        let out = smelt_interp::evaluate(&g, &args).unwrap();
        let Literal::Tuple(parts) = out else { panic!("a tuple") };
        assert_eq!(parts.len(), 4);
        assert!((parts[0].as_array().unwrap().data.get_f64(0) - loss_at(&m, &args)).abs() < 1e-12);
        for p in 0..3 {
            let grads = parts[p + 1].as_array().unwrap();
            let base = args[p].as_array().unwrap();
            for i in 0..base.len() {
                let h = 1e-6;
                let shifted = |d: f64| {
                    let mut a = args.clone();
                    let Literal::Array(t) = &mut a[p] else { unreachable!() };
                    let ArrayData::F64(v) = &mut t.data else { unreachable!() };
                    v[i] += d;
                    loss_at(&m, &a)
                };
                let fd = (shifted(h) - shifted(-h)) / (2.0 * h);
                let got = grads.data.get_f64(i);
                assert!(
                    (got - fd).abs() <= 1e-5 + 1e-4 * fd.abs(),
                    "seed {seed}, parameter {p}, element {i}: autodiff {got}, finite differences {fd}\n{}",
                    smelt_hlo::print_module(&m)
                );
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 40 * 32);
}

fn error_of(text: &str, wrt: &[u32]) -> String {
    grad(&parse_module(text).unwrap(), wrt).unwrap_err().to_string()
}

#[test]
fn refusals_name_the_instruction() {
    let custom = "HloModule s\n\
        add { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT c = f32[] add(a, b) }\n\
        ENTRY main {\n  x = f32[5] parameter(0)\n  s = f32[5] custom-call(x), custom_call_target=\"opaque\"\n  \
        z = f32[] constant(0)\n  ROOT l = f32[] reduce(s, z), dimensions={0}, to_apply=add\n}\n";
    assert_eq!(error_of(custom, &[0]), "autodiff: s (custom-call): no gradient rule for this opcode yet");
    // Off the path (the opaque value is not used by the loss), it costs nothing.
    let off = custom.replace("reduce(s, z)", "reduce(x, z)");
    assert!(grad(&parse_module(&off).unwrap(), &[0]).is_ok());
    // A map of elementwise scalar code is differentiated as that code.
    let map = "HloModule m\n\
        f { a = f32[] parameter(0)  b = f32[] parameter(1)  c = f32[] constant(3)  m = f32[] multiply(a, b)  \
        ROOT r = f32[] multiply(m, c) }\n\
        add { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT c = f32[] add(a, b) }\n\
        ENTRY main {\n  x = f32[2] parameter(0)\n  y = f32[2] parameter(1)\n  \
        s = f32[2] map(x, y), dimensions={0}, to_apply=f\n  \
        z = f32[] constant(0)\n  ROOT l = f32[] reduce(s, z), dimensions={0}, to_apply=add\n}\n";
    let g = grad(&parse_module(map).unwrap(), &[0, 1]).unwrap();
    let args =
        [Literal::Array(Array::from_vec([2], vec![1f32, 2.0])), Literal::Array(Array::from_vec([2], vec![5f32, 7.0]))];
    let out = smelt_interp::evaluate(&g, &args).unwrap().into_leaves();
    assert_eq!(out[1].values::<f32>().unwrap(), &[15.0, 21.0]);
    assert_eq!(out[2].values::<f32>().unwrap(), &[3.0, 6.0]);
    let int = "HloModule i\nENTRY main {\n  x = f32[] parameter(0)\n  n = s32[] parameter(1)\n  \
        ROOT y = f32[] multiply(x, x)\n}\n";
    assert_eq!(error_of(int, &[1]), "autodiff: parameter 1 (n) is s32[]: only floating-point arrays have gradients");
    assert_eq!(error_of(int, &[0, 0]), "autodiff: parameter 0 is named twice");
    assert_eq!(error_of(int, &[2]), "autodiff: the entry computation has no parameter 2 (it has 2)");
    let vector = "HloModule v\nENTRY main {\n  x = f32[3] parameter(0)\n  ROOT y = f32[3] exponential(x)\n}\n";
    assert!(error_of(vector, &[0]).contains("must be a floating-point scalar loss"));
}

/// A loop whose trip count depends on its float state (double `x` until it
/// reaches 100) is differentiated by recomputing: at 1.5 it doubles 7 times,
/// so the gradient is 128; at 60, once: 2.
#[test]
fn a_loop_with_a_run_time_trip_count_differentiates() {
    let dynamic = "HloModule d\n\
        cond { p = (f32[]) parameter(0)  v = f32[] get-tuple-element(p), index=0  \
        one = f32[] constant(100)  ROOT c = pred[] compare(v, one), direction=LT }\n\
        body { p = (f32[]) parameter(0)  v = f32[] get-tuple-element(p), index=0  \
        two = f32[] constant(2)  m = f32[] multiply(v, two)  ROOT t = (f32[]) tuple(m) }\n\
        ENTRY main {\n  x = f32[] parameter(0)\n  t = (f32[]) tuple(x)\n  \
        w = (f32[]) while(t), condition=cond, body=body\n  ROOT r = f32[] get-tuple-element(w), index=0\n}\n";
    let g = grad(&parse_module(dynamic).unwrap(), &[0]).unwrap();
    for (x, loss, dx) in [(1.5f32, 192.0, 128.0), (60.0, 120.0, 2.0)] {
        let out = smelt_interp::evaluate(&g, &[Literal::Array(Array::scalar(x))]).unwrap().into_leaves();
        assert_eq!((out[0].data.get_f64(0), out[1].data.get_f64(0)), (loss, dx), "at {x}");
    }
}

/// A loop of constant trip count: the gradient of `x * 2^n` is `2^n`, and
/// the module keeps the forward loop's result as its loss.
#[test]
fn a_counted_loop_differentiates() {
    let text = "HloModule l\n\
        cond { p = (s32[], f32[]) parameter(0)  i = s32[] get-tuple-element(p), index=0  \
        n = s32[] constant(5)  ROOT c = pred[] compare(i, n), direction=LT }\n\
        body { p = (s32[], f32[]) parameter(0)  i = s32[] get-tuple-element(p), index=0  \
        v = f32[] get-tuple-element(p), index=1  one = s32[] constant(1)  j = s32[] add(i, one)  \
        two = f32[] constant(2)  m = f32[] multiply(v, two)  ROOT t = (s32[], f32[]) tuple(j, m) }\n\
        ENTRY main {\n  x = f32[] parameter(0)\n  z = s32[] constant(0)\n  t = (s32[], f32[]) tuple(z, x)\n  \
        w = (s32[], f32[]) while(t), condition=cond, body=body\n  ROOT r = f32[] get-tuple-element(w), index=1\n}\n";
    let g = grad(&parse_module(text).unwrap(), &[0]).unwrap();
    let out = smelt_interp::evaluate(&g, &[Literal::Array(Array::scalar(1.5f32))]).unwrap();
    let Literal::Tuple(parts) = out else { panic!("a tuple") };
    assert_eq!(parts[0].as_array().unwrap().data.get_f64(0), 48.0);
    assert_eq!(parts[1].as_array().unwrap().data.get_f64(0), 32.0);
}

/// A loop's gradient equals that of the same program unrolled: an RNN
/// step `h = tanh(w h) + 0.1` four times, the loss `sum(h * h)`, with
/// respect to the weights (passed through the loop unchanged) and the
/// initial state.
#[test]
fn a_loop_matches_its_unrolled_form() {
    let step = |h: &str, out: &str| {
        format!(
            "  {out}.d = f32[3] dot({w}, {h}), lhs_contracting_dims={{1}}, rhs_contracting_dims={{0}}\n  \
             {out}.t = f32[3] tanh({out}.d)\n  {out}.c = f32[] constant(0.1)\n  \
             {out}.b = f32[3] broadcast({out}.c), dimensions={{}}\n  {out} = f32[3] add({out}.t, {out}.b)\n",
            w = "w"
        )
    };
    let tail = |h: &str| {
        format!(
            "  sq = f32[3] multiply({h}, {h})\n  z = f32[] constant(0)\n  \
             ROOT l = f32[] reduce(sq, z), dimensions={{0}}, to_apply=add\n}}\n"
        )
    };
    let add = "add { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT c = f32[] add(a, b) }\n";
    let mut unrolled =
        format!("HloModule u\n{add}ENTRY main {{\n  w = f32[3,3] parameter(0)\n  h0 = f32[3] parameter(1)\n");
    for k in 0..4 {
        unrolled += &step(&format!("h{k}"), &format!("h{}", k + 1));
    }
    unrolled += &tail("h4");
    let state = "(s32[], f32[3], f32[3,3])";
    let looped = format!(
        "HloModule l\n{add}\
         cond {{ p = {state} parameter(0)  i = s32[] get-tuple-element(p), index=0  \
         n = s32[] constant(4)  ROOT c = pred[] compare(i, n), direction=LT }}\n\
         body {{\n  p = {state} parameter(0)\n  i = s32[] get-tuple-element(p), index=0\n  \
         h = f32[3] get-tuple-element(p), index=1\n  w = f32[3,3] get-tuple-element(p), index=2\n\
         {}  one = s32[] constant(1)\n  j = s32[] add(i, one)\n  ROOT t = {state} tuple(j, h1, w)\n}}\n\
         ENTRY main {{\n  w = f32[3,3] parameter(0)\n  h0 = f32[3] parameter(1)\n  zero = s32[] constant(0)\n  \
         init = {state} tuple(zero, h0, w)\n  r = {state} while(init), condition=cond, body=body\n  \
         h4 = f32[3] get-tuple-element(r), index=1\n{}",
        step("h", "h1"),
        tail("h4")
    );
    let mut rng = SplitMix::new(7);
    let mut arr = |dims: &[i64]| {
        let n = dims.iter().product::<i64>() as usize;
        Literal::Array(Array::from_vec(dims, (0..n).map(|_| rng.uniform(-0.8, 0.8) as f32).collect::<Vec<f32>>()))
    };
    let args = vec![arr(&[3, 3]), arr(&[3])];
    let run = |text: &str| {
        let g = grad(&parse_module(text).unwrap_or_else(|e| panic!("{e}\n{text}")), &[0, 1]).unwrap();
        smelt_interp::evaluate(&g, &args).unwrap().into_leaves()
    };
    // The same loop counting in floats up to a limit given at run time (4
    // trips for a limit of 3.5): its trip count is not a constant, so it is
    // recomputed rather than stored.
    let counted_at_run_time = looped
        .replace("(s32[], f32[3], f32[3,3])", "(f32[], f32[3], f32[3,3], f32[])")
        .replace(
            "i = s32[] get-tuple-element(p), index=0  n = s32[] constant(4)",
            "i = f32[] get-tuple-element(p), index=0  n = f32[] get-tuple-element(p), index=3",
        )
        .replace(
            "i = s32[] get-tuple-element(p), index=0\n",
            "i = f32[] get-tuple-element(p), index=0\n  lim = f32[] get-tuple-element(p), index=3\n",
        )
        .replace("one = s32[] constant(1)\n  j = s32[] add(i, one)", "one = f32[] constant(1)\n  j = f32[] add(i, one)")
        .replace("tuple(j, h1, w)", "tuple(j, h1, w, lim)")
        .replace("zero = s32[] constant(0)", "zero = f32[] constant(0)\n  limit = f32[] constant(3.5)")
        .replace("tuple(zero, h0, w)", "tuple(zero, h0, w, limit)");
    assert!(counted_at_run_time.contains("limit = f32[] constant(3.5)") && !counted_at_run_time.contains("s32"));
    let (a, b, c) = (run(&looped), run(&unrolled), run(&counted_at_run_time));
    assert_eq!(a.len(), 3);
    for (x, y) in c.iter().zip(&b) {
        for i in 0..x.len() {
            let (p, q) = (x.data.get_f64(i), y.data.get_f64(i));
            assert!((p - q).abs() <= 1e-6 + 1e-5 * q.abs(), "recomputed {p}, unrolled {q}");
        }
    }
    for (x, y) in a.iter().zip(&b) {
        for i in 0..x.len() {
            let (p, q) = (x.data.get_f64(i), y.data.get_f64(i));
            assert!((p - q).abs() <= 1e-6 + 1e-5 * q.abs(), "loop {p}, unrolled {q}");
        }
    }
}
