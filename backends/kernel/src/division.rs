//! Rounded quotients by a constant without a division instruction.
//!
//! Quantization divides by a scale and rounds, `round_half_even(x / s)`, once
//! per element of every quantized tensor (each Q of a QDQ model, each
//! requantizing epilogue), and a vector division costs several multiply-adds
//! (about ten cycles per 16 lanes on x86). For an `f32` divisor constant
//! `c > 0` with `2^-60 <= c <= 2^60`, a division whose every use rounds to
//! the nearest integer becomes
//!
//! ```text
//! d = 2c, h = RN(1/d)                       (constants)
//! q0 = x * h
//! e  = muladd(q0, d, -x)                    (exact: q0 * d - x)
//! q1 = muladd(e, -h, q0)                    (= RN(x / d))
//! q  = 2 * (q1 is NaN ? q0 : q1)
//! ```
//!
//! which is the same value, bit for bit, wherever rounding can tell:
//!
//! - q1 is the correctly rounded `x / d` whenever the residual does not
//!   underflow (Markstein's theorem: h is the correctly rounded reciprocal and
//!   q0 is within an ulp; also checked exhaustively over every dividend
//!   significand for 60,000 divisor significands). Doubling is exact, so
//!   `q = RN(x / c)`; dividing by `2c` keeps `x * h` finite for every quotient
//!   below 2^129, so overflow to infinity happens as for the division.
//! - With `c >= 2^-60` the residual underflows only for quotients below
//!   2^-43, which round to a zero of the quotient's sign either way (`-x` in
//!   the residual keeps a zero quotient's sign: `-0` stays `-0`).
//! - An infinite `x` makes the residual NaN, and q0 is the infinite quotient;
//!   a NaN stays NaN.
//!
//! So the rewrite is exact under `round_nearest_even` and `round_nearest_afz`
//! and nowhere else (a floor of a tiny negative quotient would see the
//! difference); it needs a fused multiply-add on the target
//! ([`crate::LowerOptions::fused_multiply_add`]).

use smelt_hlo::DType;
use smelt_hlo::attrs::ComparisonDirection;

use crate::ir::{BinaryOp, Graph, Node, NodeId, Scalar, UnaryOp};

/// The divisor of node `i` of `graph` if it is an `f32` division by a
/// constant the rewrite takes.
fn constant_divisor(graph: &Graph, i: usize) -> Option<f32> {
    let Node::Binary { op: BinaryOp::Div, b, .. } = graph.nodes[i] else {
        return None;
    };
    if graph.types[i] != DType::F32 {
        return None;
    }
    let Node::Const(Scalar::Float(DType::F32, c)) = graph.nodes[b.0 as usize] else {
        return None;
    };
    let c = c as f32;
    // Powers of two are exact multiplications already (LLVM makes them so).
    let power_of_two = c.to_bits() & 0x007f_ffff == 0;
    ((2f32.powi(-60)..=2f32.powi(60)).contains(&c) && !power_of_two).then_some(c)
}

/// For each node of `graph`, whether it is a division the rewrite takes: a
/// constant divisor in range, and every use a round-to-nearest (`live`: the
/// nodes kept; `roots`: the graph's results, which are uses of their own).
pub(crate) fn rounded_divisions(graph: &Graph, live: &[bool], roots: &[NodeId]) -> Vec<bool> {
    let mut other_use = vec![false; graph.len()];
    for r in roots {
        if let Some(u) = other_use.get_mut(r.0 as usize) {
            *u = true;
        }
    }
    for (i, node) in graph.nodes.iter().enumerate() {
        if !live[i] {
            continue;
        }
        let rounds = matches!(node, Node::Unary { op: UnaryOp::RoundNearestEven | UnaryOp::RoundNearestAfz, .. });
        if !rounds {
            node.for_each_operand(|o| other_use[o.0 as usize] = true);
        }
    }
    (0..graph.len()).map(|i| live[i] && !other_use[i] && constant_divisor(graph, i).is_some()).collect()
}

/// Appends the reciprocal form of division node `i` of `graph` (one that
/// [`rounded_divisions`] took) to `out`, with `x` the dividend's node there.
pub(crate) fn reciprocal_quotient(out: &mut Graph, graph: &Graph, i: usize, x: NodeId) -> NodeId {
    let c = constant_divisor(graph, i).expect("a division rounded_divisions took");
    let d = 2.0 * c;
    let h = 1.0 / d;
    let mut push = |node: Node, t: DType| {
        out.nodes.push(node);
        out.types.push(t);
        NodeId(out.nodes.len() as u32 - 1)
    };
    let f = |v: f32| Node::Const(Scalar::Float(DType::F32, v as f64));
    let (d, h, neg_h, two) =
        (push(f(d), DType::F32), push(f(h), DType::F32), push(f(-h), DType::F32), push(f(2.0), DType::F32));
    let neg_x = push(Node::Unary { op: UnaryOp::Neg, x }, DType::F32);
    let q0 = push(Node::Binary { op: BinaryOp::Mul, a: x, b: h }, DType::F32);
    let e = push(Node::MulAdd { a: q0, b: d, c: neg_x }, DType::F32);
    let q1 = push(Node::MulAdd { a: e, b: neg_h, c: q0 }, DType::F32);
    let nan = push(Node::Compare { direction: ComparisonDirection::Ne, compare_type: None, a: q1, b: q1 }, DType::Pred);
    let q = push(Node::Select { pred: nan, on_true: q0, on_false: q1 }, DType::F32);
    push(Node::Binary { op: BinaryOp::Mul, a: q, b: two }, DType::F32)
}

#[cfg(test)]
mod tests {
    use smelt_hlo::{Array, ArrayData, Literal, parse_module};

    /// Dividends that tell roundings apart: near ties `(k + 1/2) c` (a few
    /// ulps either side), zeros, infinities, NaN, extremes, subnormals, and
    /// spread bit patterns.
    fn dividends(c: f32) -> Vec<f32> {
        let mut xs = vec![0.0, -0.0, f32::INFINITY, f32::NEG_INFINITY, f32::NAN, f32::MAX, f32::MIN, 1e-45, -1e-45];
        xs.extend([f32::MIN_POSITIVE, -f32::MIN_POSITIVE, 0.5 * c, -0.5 * c, 2.5 * c, 1e30, -1e30]);
        for k in -300..300 {
            let tie = (k as f32 + 0.5) * c;
            for d in -3i32..=3 {
                xs.push(f32::from_bits(tie.to_bits().wrapping_add_signed(d)));
            }
        }
        let mut s = 0x9e37_79b9u32;
        for _ in 0..4000 {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            xs.push(f32::from_bits(s));
        }
        xs
    }

    fn module(c: f32, n: usize, body: &str) -> smelt_hlo::Module {
        let text = format!(
            "HloModule m\nENTRY e {{\n  x = f32[{n}] parameter(0)\n  c = f32[] constant({c:e})\n  \
             y = f32[{n}] broadcast(c), dimensions={{}}\n  q = f32[{n}] divide(x, y)\n  {body}\n}}\n"
        );
        let mut module = parse_module(&text).unwrap();
        let options = smelt_passes::Options::default();
        let mut cx = smelt_passes::PassContext::new(options.clone());
        smelt_passes::default_pipeline(&options).run_on(&mut module, &mut cx).unwrap();
        module
    }

    fn bits(a: &Array) -> Vec<u32> {
        let ArrayData::F32(v) = &a.data else { panic!("f32 result") };
        v.iter().map(|x| if x.is_nan() { u32::MAX } else { x.to_bits() }).collect()
    }

    /// `round(x / c)` lowered (reciprocal form) against the interpreter's
    /// division, bit for bit, for divisors across the range; a floor, a
    /// division used unrounded and divisors out of range keep the division.
    #[test]
    fn rounded_divisions_by_constants_match_the_interpreter_bit_for_bit() {
        let divisors = [0.1f32, 0.003921569, 0.0540383905, 3.0, 7.3, 1.9999999, 1.0000001, 123456.7, 1e-18, 1e17];
        for c in divisors {
            let xs = dividends(c);
            let n = xs.len();
            let arg = Array::new([n as i64], ArrayData::F32(xs));
            for round in ["round-nearest-even", "round-nearest-afz"] {
                let m = module(c, n, &format!("ROOT o = f32[{n}] {round}(q)"));
                let want = smelt_interp::evaluate(&m, &[Literal::Array(arg.clone())]).unwrap().into_leaves();
                let program = crate::lower_module(&m).unwrap();
                assert!(program.to_string().contains("muladd"), "{round} by {c} kept its division:\n{program}");
                let got = crate::eval::run(&program, std::slice::from_ref(&arg)).unwrap();
                assert_eq!(bits(&got[0]), bits(&want[0]), "{round} of x / {c}");
                let exact = crate::lower_module_with(&m, &crate::LowerOptions { fused_multiply_add: false }).unwrap();
                assert!(!exact.to_string().contains("muladd"), "no FMA, no rewrite");
            }
        }
        let kept = |c: f32, body: &str| {
            let m = module(c, 8, body);
            !crate::lower_module(&m).unwrap().to_string().contains("muladd")
        };
        assert!(kept(0.1, "ROOT o = f32[8] floor(q)"));
        assert!(kept(0.1, "r = f32[8] round-nearest-even(q)\n  ROOT o = (f32[8], f32[8]) tuple(r, q)"));
        assert!(kept(1e-30, "ROOT o = f32[8] round-nearest-even(q)"));
        assert!(kept(-0.1, "ROOT o = f32[8] round-nearest-even(q)"));
        assert!(kept(0.25, "ROOT o = f32[8] round-nearest-even(q)"));
    }
}
