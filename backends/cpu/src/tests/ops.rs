//! Every scalar operation on every element type, against the interpreter.
//!
//! One loop kernel per element type computes all of its operations on two
//! edge-heavy input vectors (zeros of both signs, infinities, NaN, subnormals,
//! halves for rounding; INT_MIN, -1, 0, shift amounts at and past the width);
//! the equivalent HLO module runs on the interpreter. Results must agree bit
//! for bit, except transcendental functions, which may differ in the last place
//! between libm implementations.

use smelt_hlo::attrs::{CompareType, ComparisonDirection};
use smelt_hlo::{ArrayData, DType};
use smelt_kernel::{BinaryOp, UnaryOp};

use super::*;

const N: i64 = 32;

pub(crate) fn float_values() -> Vec<f64> {
    vec![
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        -0.5,
        1.5,
        2.5,
        -2.5,
        3.0,
        7.25,
        -7.75,
        100.0,
        1e10,
        -1e-3,
        1e-40,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        65504.0,
        70000.0,
        1e-5,
        3.25,
        -2.75,
        0.1,
        33.0,
        -100.5,
        1e30,
        0.999,
        -1e10,
        2.0,
        4.0,
    ]
}

fn int_values(t: DType) -> Vec<f64> {
    let bits = t.bit_width() as u32;
    let (min, max) = if t.is_signed_int() {
        (-(2f64.powi(bits as i32 - 1)), 2f64.powi(bits as i32 - 1) - 1.0)
    } else {
        (0.0, 2f64.powi(bits as i32) - 1.0)
    };
    // Values past 2^53 are not exact in f64; keep the extremes of s64/u64 exact.
    let (min, max) = match t {
        DType::S64 => (i64::MIN as f64, 9.2e18),
        DType::U64 => (0.0, 1.8e19),
        _ => (min, max),
    };
    let mut v = vec![
        0.0,
        1.0,
        -1.0,
        2.0,
        -2.0,
        3.0,
        7.0,
        -7.0,
        min,
        max,
        min + 1.0,
        max - 1.0,
        8.0,
        31.0,
        32.0,
        33.0,
        63.0,
        64.0,
        65.0,
        100.0,
        -100.0,
        5.0,
        6.0,
        127.0,
        128.0,
        255.0,
        256.0,
        -128.0,
        1000.0,
        -1000.0,
        12345.0,
        4.0,
    ];
    if !t.is_signed_int() {
        // `as` from a negative f64 to unsigned saturates at 0; wrap instead.
        for x in v.iter_mut() {
            if *x < 0.0 {
                *x += 2f64.powi(bits as i32);
            }
        }
    }
    v
}

fn values(t: DType) -> (Array, Array) {
    let v = match t {
        DType::Pred => (0..N).map(|i| (i % 2) as f64).collect(),
        t if t.is_float() => float_values(),
        t => int_values(t),
    };
    let mut w = v.clone();
    w.rotate_left(7);
    w.reverse();
    (array_of(t, &[N], &v), array_of(t, &[N], &w))
}

fn unary_ops(t: DType) -> Vec<UnaryOp> {
    use UnaryOp as U;
    match t {
        DType::Pred => vec![U::Not],
        t if t.is_float() => vec![
            U::Abs,
            U::Cbrt,
            U::Ceil,
            U::Cos,
            U::Erf,
            U::Exp,
            U::Expm1,
            U::Floor,
            U::IsFinite,
            U::Log,
            U::Log1p,
            U::Logistic,
            U::Neg,
            U::RoundNearestAfz,
            U::RoundNearestEven,
            U::Rsqrt,
            U::Sign,
            U::Sin,
            U::Sqrt,
            U::Tan,
            U::Tanh,
        ],
        _ => vec![U::Abs, U::Neg, U::Not, U::Popcnt, U::Clz, U::Sign],
    }
}

fn binary_ops(t: DType) -> Vec<BinaryOp> {
    use BinaryOp as B;
    match t {
        DType::Pred => vec![B::And, B::Or, B::Xor, B::Add, B::Max, B::Mul, B::Min],
        t if t.is_float() => vec![B::Add, B::Sub, B::Mul, B::Div, B::Rem, B::Max, B::Min, B::Pow, B::Atan2],
        _ => vec![
            B::Add,
            B::Sub,
            B::Mul,
            B::Div,
            B::Rem,
            B::Max,
            B::Min,
            B::And,
            B::Or,
            B::Xor,
            B::Shl,
            B::ShrArithmetic,
            B::ShrLogical,
            B::Pow,
        ],
    }
}

fn transcendental_u(op: UnaryOp) -> bool {
    use UnaryOp as U;
    matches!(
        op,
        U::Cbrt | U::Cos | U::Erf | U::Exp | U::Expm1 | U::Log | U::Log1p | U::Logistic | U::Sin | U::Tan | U::Tanh
    )
}

fn tolerance(t: DType) -> f64 {
    match t {
        DType::F64 => 1e-14,
        DType::F32 => 1e-6,
        _ => 1e-2,
    }
}

fn compare_types(t: DType) -> Vec<Option<CompareType>> {
    match t {
        DType::Pred => vec![None],
        t if t.is_float() => vec![None, Some(CompareType::TotalOrder)],
        _ => vec![None, Some(CompareType::Signed), Some(CompareType::Unsigned)],
    }
}

fn ct_name(ct: Option<CompareType>) -> &'static str {
    match ct {
        None => "",
        Some(CompareType::Float) => ", type=FLOAT",
        Some(CompareType::TotalOrder) => ", type=TOTALORDER",
        Some(CompareType::Signed) => ", type=SIGNED",
        Some(CompareType::Unsigned) => ", type=UNSIGNED",
    }
}

fn dir_name(d: ComparisonDirection) -> &'static str {
    use ComparisonDirection as D;
    match d {
        D::Eq => "EQ",
        D::Ne => "NE",
        D::Lt => "LT",
        D::Le => "LE",
        D::Gt => "GT",
        D::Ge => "GE",
    }
}

/// A kernel's outputs so far, with the HLO lines computing them, their shapes,
/// names and tolerances.
#[derive(Default)]
struct Outputs {
    nodes: Vec<NodeId>,
    hlo: String,
    shapes: Vec<String>,
    names: Vec<String>,
    tol: Vec<f64>,
}

impl Outputs {
    /// Adds `node` as the next output, `o<k> = <shape> <rhs>` in HLO.
    fn add(&mut self, node: NodeId, shape: String, rhs: &str, name: String, tol: f64) {
        self.hlo += &format!("  o{} = {shape} {rhs}\n", self.nodes.len());
        self.nodes.push(node);
        self.shapes.push(shape);
        self.names.push(name);
        self.tol.push(tol);
    }
}

/// Runs every operation on `t` both ways and compares.
fn check_type(t: DType) {
    use ComparisonDirection as D;
    let ty = format!("{}[{N}]", t.name());
    let mut b = Gb::new();
    let i = b.index(0);
    let x = b.load(0, &[i], t);
    let y = b.load(1, &[i], t);
    let mut outs = Outputs::default();
    for op in unary_ops(t) {
        let o = b.un(op, x);
        let rt = b.g.types[o.0 as usize];
        let tol = if transcendental_u(op) { tolerance(t) } else { 0.0 };
        outs.add(o, format!("{}[{N}]", rt.name()), &format!("{}(x)", op.opcode().name()), format!("{op:?}"), tol);
    }
    for op in binary_ops(t) {
        let o = b.bin(op, x, y);
        let tol = if matches!(op, BinaryOp::Pow | BinaryOp::Atan2) { tolerance(t) } else { 0.0 };
        outs.add(o, ty.clone(), &format!("{}(x, y)", op.opcode().name()), format!("{op:?}"), tol);
    }
    for ct in compare_types(t) {
        for d in [D::Eq, D::Ne, D::Lt, D::Le, D::Gt, D::Ge] {
            let o = b.cmp(d, ct, x, y);
            let rhs = format!("compare(x, y), direction={}{}", dir_name(d), ct_name(ct));
            outs.add(o, format!("pred[{N}]"), &rhs, format!("compare {d:?} {ct:?}"), 0.0);
        }
    }
    // select, clamp (scalar-free: elementwise bounds).
    let p = b.cmp(D::Lt, None, x, y);
    let s = b.select(p, x, y);
    outs.hlo += &format!("  p = pred[{N}] compare(x, y), direction=LT\n");
    outs.add(s, ty.clone(), "select(p, x, y)", "select".into(), 0.0);
    if t != DType::Pred {
        let c = b.clamp(y, x, y);
        outs.add(c, ty.clone(), "clamp(y, x, y)", "clamp".into(), 0.0);
    }
    let Outputs { nodes, hlo: lines, shapes, names, tol } = outs;
    let hlo = format!(
        "HloModule ops\n\nENTRY main {{\n  x = {ty} parameter(0)\n  y = {ty} parameter(1)\n{lines}{}",
        tuple_root(&shapes)
    );
    let k = loop_kernel(vec![at(t, &[N]), at(t, &[N])], &[N], b.g, nodes);
    let (xa, ya) = values(t);
    let got = run(&one_kernel(k), &[xa.clone(), ya.clone()]);
    let want = interp(&hlo, &[xa.clone(), ya]);
    assert_eq!(got.len(), want.len());
    for (j, (g, w)) in got.iter().zip(&want).enumerate() {
        let (mut g, mut w) = (g.clone(), w.clone());
        // Beyond the exact argument reduction (|x| >= 2^27) the math library's
        // trig functions are within |x| * 2^-50 absolute, and past 2^50 only bounded
        // (docs/math.md): those elements are checked against that, then masked.
        if matches!(names[j].as_str(), "Sin" | "Cos" | "Tan") {
            for e in 0..xa.len() {
                let x = get(&xa, e).abs();
                if x >= 2f64.powi(27) && x.is_finite() {
                    let (v, r) = (get(&g, e), get(&w, e));
                    let ok = if x >= 2f64.powi(50) {
                        names[j] == "Tan" || (-1.0..=1.0).contains(&v)
                    } else {
                        names[j] == "Tan" || (v - r).abs() <= x * 2f64.powi(-48)
                    };
                    assert!(ok, "{t} {}: element {e}: got {v}, want {r}", names[j]);
                    g = with_nan(&g, e);
                    w = with_nan(&w, e);
                }
            }
        }
        assert_close(&format!("{t} {}", names[j]), &g, &w, tol[j]);
    }
}

#[test]
fn float_ops_match_the_interpreter() {
    for t in [DType::F32, DType::F64, DType::F16, DType::Bf16] {
        check_type(t);
    }
}

#[test]
fn integer_ops_match_the_interpreter() {
    for t in [DType::S8, DType::S16, DType::S32, DType::S64, DType::U8, DType::U16, DType::U32, DType::U64] {
        check_type(t);
    }
}

#[test]
fn pred_ops_match_the_interpreter() {
    check_type(DType::Pred);
}

/// The HLO root returning `o0, o1, ...` (of `shapes`) as a tuple, and the end
/// of the entry computation.
fn tuple_root(shapes: &[String]) -> String {
    let names: Vec<String> = (0..shapes.len()).map(|k| format!("o{k}")).collect();
    format!("  ROOT t = ({}) tuple({})\n}}\n", shapes.join(", "), names.join(", "))
}

/// `op` (HLO `opcode`) from `from` to each of `targets` in one loop kernel over
/// `[N]`, and the equivalent HLO module `name` returning the results as a tuple.
fn casts(
    name: &str,
    from: DType,
    targets: &[DType],
    opcode: &str,
    op: fn(&mut Gb, NodeId, DType) -> NodeId,
) -> (Kernel, String) {
    let mut hlo = format!("HloModule {name}\n\nENTRY main {{\n  x = {}[{N}] parameter(0)\n", from.name());
    let mut b = Gb::new();
    let i = b.index(0);
    let x = b.load(0, &[i], from);
    let mut outs = Vec::new();
    let mut shapes = Vec::new();
    for &to in targets {
        outs.push(op(&mut b, x, to));
        hlo += &format!("  o{} = {}[{N}] {opcode}(x)\n", outs.len() - 1, to.name());
        shapes.push(format!("{}[{N}]", to.name()));
    }
    hlo += &tuple_root(&shapes);
    (loop_kernel(vec![at(from, &[N])], &[N], b.g, outs), hlo)
}

/// Every conversion from `from` (all 13 targets) in one kernel.
fn check_converts(from: DType) {
    let (k, hlo) = casts("cv", from, &DType::ALL, "convert", Gb::convert);
    let (mut xa, _) = values(from);
    if from.is_float() {
        // Values that round differently through f64, f32 and the half types.
        let extra = [
            1.0 + 2f64.powi(-9) + 2f64.powi(-30),
            257.0,
            1.0 + 2f64.powi(-8),
            -3e9,
            3e9,
            1.9e19,
            -1.0 + 2f64.powi(-12),
            6e-8,
        ];
        let mut v: Vec<f64> = float_values();
        v[24..32].copy_from_slice(&extra);
        xa = array_of(from, &[N], &v);
    }
    let got = run(&one_kernel(k), std::slice::from_ref(&xa));
    let want = interp(&hlo, &[xa]);
    for (j, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_close(&format!("convert {from} -> {}", DType::ALL[j]), g, w, 0.0);
    }
}

#[test]
fn conversions_match_the_interpreter() {
    for from in DType::ALL {
        check_converts(from);
    }
}

#[test]
fn bitcasts_match_the_interpreter() {
    for from in DType::ALL {
        let targets: Vec<DType> =
            DType::ALL.into_iter().filter(|t| t.byte_size() == from.byte_size() && *t != DType::Pred).collect();
        if from == DType::Pred || targets.is_empty() {
            continue;
        }
        let (k, hlo) = casts("bc", from, &targets, "bitcast-convert", Gb::bitcast);
        let (xa, _) = values(from);
        let got = run(&one_kernel(k), std::slice::from_ref(&xa));
        let want = interp(&hlo, &[xa]);
        for (j, (g, w)) in got.iter().zip(&want).enumerate() {
            // Bit patterns must survive exactly (NaN payloads included).
            assert_eq!(g.data.to_le_bytes(), w.data.to_le_bytes(), "bitcast {from} -> {}", targets[j]);
        }
    }
}

#[test]
fn named_edge_cases() {
    // A few of edge.rs's cases spelled out, so a failure names the rule.
    let k = xy_kernel(DType::S32, 4, |b, x, y| {
        [BinaryOp::Div, BinaryOp::Rem, BinaryOp::Shl, BinaryOp::ShrArithmetic].map(|op| b.bin(op, x, y)).to_vec()
    });
    let xs = Array::from_vec([4], vec![7i32, i32::MIN, -7, -1]);
    let ys = Array::from_vec([4], vec![0i32, -1, 32, -1]);
    let r = run(&one_kernel(k), &[xs, ys]);
    assert_eq!(r[0].values::<i32>().unwrap_or(&[]), &[-1, i32::MIN, 0, 1], "x / 0 = -1, INT_MIN / -1 = INT_MIN");
    assert_eq!(r[1].values::<i32>().unwrap_or(&[]), &[7, 0, -7, 0], "x % 0 = x, INT_MIN % -1 = 0");
    assert_eq!(r[2].values::<i32>().unwrap_or(&[]), &[7, 0, 0, 0], "shifts >= width give 0");
    assert_eq!(r[3].values::<i32>().unwrap_or(&[]), &[7, -1, -1, -1], "arithmetic shifts fill with the sign");

    // max/min: NaN propagates from either side, -0 < +0 in either order;
    // float -> int saturates, NaN -> 0.
    let (inf, nan) = (f32::INFINITY, f32::NAN);
    let xs = [nan, -0.0, 3e9, 0.0, -0.0, 0.0, -5.0, nan, 2.0, -inf];
    let ys = [1.0, 0.0, 1.0, -0.0, -0.0, 0.0, nan, nan, -inf, -inf];
    let n = xs.len() as i64;
    let k = xy_kernel(DType::F32, n, |b, x, y| {
        vec![b.bin(BinaryOp::Max, x, y), b.bin(BinaryOp::Min, x, y), b.convert(x, DType::S32)]
    });
    let r = run(&one_kernel(k), &[f32s(&[n], &xs), f32s(&[n], &ys)]);
    let bits = |v: &[f32]| v.iter().map(|x| if x.is_nan() { u32::MAX } else { x.to_bits() }).collect::<Vec<_>>();
    let max = [nan, 0.0, 3e9, 0.0, -0.0, 0.0, nan, nan, 2.0, -inf];
    let min = [nan, -0.0, 1.0, -0.0, -0.0, 0.0, nan, nan, -inf, -inf];
    assert_eq!(bits(r[0].values::<f32>().unwrap_or(&[])), bits(&max), "max");
    assert_eq!(bits(r[1].values::<f32>().unwrap_or(&[])), bits(&min), "min");
    assert_eq!(r[2].values::<i32>().unwrap_or(&[]), &[0, 0, i32::MAX, 0, 0, 0, -5, 0, 2, i32::MIN]);
}

/// `a` with element `i` replaced by NaN (floats only).
fn with_nan(a: &Array, i: usize) -> Array {
    let mut a = a.clone();
    match &mut a.data {
        ArrayData::F16(v) => v[i] = half::f16::NAN,
        ArrayData::Bf16(v) => v[i] = half::bf16::NAN,
        ArrayData::F32(v) => v[i] = f32::NAN,
        ArrayData::F64(v) => v[i] = f64::NAN,
        _ => {}
    }
    a
}

#[test]
fn get_dimension_size_is_the_static_size() {
    let hlo = "HloModule g\n\nENTRY main {\n  x = f32[3,7] parameter(0)\n  \
               n = s32[] get-dimension-size(x), dimensions={1}\n  \
               m = s32[] get-dimension-size(x), dimensions={0}\n  \
               ROOT t = (s32[], s32[]) tuple(n, m)\n}\n";
    let x = f32s(&[3, 7], &[0.0; 21]);
    check_hlo(hlo, &[x], 0.0);
    // A dimension the operand does not have is a verifier error naming the op.
    let bad = hlo.replace("dimensions={0}", "dimensions={2}");
    let m = smelt_hlo::parse_module(&bad).expect("parses");
    let e = smelt_hlo::verify(&m).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(e.contains("get-dimension-size"), "{e}");
}

/// Quotients and remainders of up to 32 bits go through float divisions: every
/// pair of 8-bit operands, and 16- and 32-bit ones at the edges and spread over
/// the range, give the integer results (x / 0 = all ones, x % 0 = x, MIN / -1 =
/// MIN, MIN % -1 = 0).
#[test]
fn narrow_integer_division_is_exact() {
    fn check<T: smelt_hlo::Element + Copy + PartialEq + std::fmt::Debug>(
        t: DType,
        pairs: &[(T, T)],
        want: impl Fn(T, T) -> (T, T),
    ) {
        let n = pairs.len() as i64;
        let k = xy_kernel(t, n, |b, x, y| [BinaryOp::Div, BinaryOp::Rem].map(|op| b.bin(op, x, y)).to_vec());
        let xs = Array::from_vec([n], pairs.iter().map(|p| p.0).collect());
        let ys = Array::from_vec([n], pairs.iter().map(|p| p.1).collect());
        let r = run(&one_kernel(k), &[xs, ys]);
        let (q, m) = (r[0].values::<T>().unwrap_or(&[]), r[1].values::<T>().unwrap_or(&[]));
        for (i, &(x, y)) in pairs.iter().enumerate() {
            assert_eq!((q[i], m[i]), want(x, y), "{t}: {x:?} / {y:?}");
        }
    }
    let s8: Vec<(i8, i8)> = (0..=u16::MAX).map(|v| ((v >> 8) as u8 as i8, v as u8 as i8)).collect();
    check(DType::S8, &s8, |x, y| if y == 0 { (-1, x) } else { (x.wrapping_div(y), x.wrapping_rem(y)) });
    let u8s: Vec<(u8, u8)> = (0..=u16::MAX).map(|v| ((v >> 8) as u8, v as u8)).collect();
    check(DType::U8, &u8s, |x, y| x.checked_div(y).map_or((u8::MAX, x), |q| (q, x % y)));
    let edges = [0u16, 1, 2, 3, 7, 255, 256, 1000, 32767, 32768, 32769, 65534, 65535];
    let mut u16s: Vec<(u16, u16)> = edges.iter().flat_map(|&x| edges.iter().map(move |&y| (x, y))).collect();
    u16s.extend(
        (0..60_000u32).map(|i| ((i.wrapping_mul(40503) >> 3) as u16, (i.wrapping_mul(2654435761) >> 20) as u16)),
    );
    check(DType::U16, &u16s, |x, y| x.checked_div(y).map_or((u16::MAX, x), |q| (q, x % y)));
    let s16: Vec<(i16, i16)> = u16s.iter().map(|&(x, y)| (x as i16, y as i16)).collect();
    check(DType::S16, &s16, |x, y| if y == 0 { (-1, x) } else { (x.wrapping_div(y), x.wrapping_rem(y)) });
    let edges =
        [0u32, 1, 2, 3, 7, 1 << 16, (1 << 24) + 1, 0x7fff_ffff, 0x8000_0000, 0x8000_0001, u32::MAX - 1, u32::MAX];
    let mut u32s: Vec<(u32, u32)> = edges.iter().flat_map(|&x| edges.iter().map(move |&y| (x, y))).collect();
    // Large dividends over divisors near a quotient's integer boundary, and spread pairs.
    u32s.extend((1..2000u32).map(|y| (u32::MAX - y / 3, y)));
    u32s.extend((0..100_000u32).map(|i| (i.wrapping_mul(2654435761), (i.wrapping_mul(40503) >> (i % 31)) | 1)));
    check(DType::U32, &u32s, |x, y| x.checked_div(y).map_or((u32::MAX, x), |q| (q, x % y)));
    let s32: Vec<(i32, i32)> = u32s.iter().map(|&(x, y)| (x as i32, y as i32)).collect();
    check(DType::S32, &s32, |x, y| if y == 0 { (-1, x) } else { (x.wrapping_div(y), x.wrapping_rem(y)) });
}

/// Max and min outside every vectorizable loop (scalar kernels, a reduction
/// to one element) take AVX512DQ's `vrange` where the CPU has it: every pair
/// of edge values (NaN of both signs, zeros of both signs, infinities,
/// subnormals) gives the interpreter's result, the sign of zero included.
/// NaNs of both signs, zeros of both signs, infinities and subnormals: where
/// max and min have rules.
const MAX_MIN_EDGES: [f32; 11] =
    [f32::NAN, f32::from_bits(0xffc0_0000), 0.0, -0.0, 1.0, -1.0, f32::INFINITY, f32::NEG_INFINITY, 1e-40, -1e-40, 3.5];

/// Max and min against constant bounds (a clamp, `max(x, -127)`, `min(x, 6)`),
/// which compile to one `maxps`/`minps` with the constant first when it is
/// neither NaN nor a zero, against zero bounds (a ReLU, which must order the
/// zeros) and a NaN bound, in a vector loop and on scalars, bit for bit.
#[test]
fn max_and_min_against_constants_match_the_interpreter() {
    let mut values = MAX_MIN_EDGES.to_vec();
    values.extend([6.0, -127.0, 127.5, -200.0, 1e30]);
    let n = values.len();
    for dims in [format!("[{n}]"), "[]".to_string()] {
        let hlo = format!(
            "HloModule m
ENTRY e {{
  x = f32{dims} parameter(0)
  lo = f32[] constant(-127)
  hi = f32[] constant(6)
  z = f32[] constant(0)
  nz = f32[] constant(-0)
  nan = f32[] constant(nan)
  blo = f32{dims} broadcast(lo), dimensions={{}}
  bhi = f32{dims} broadcast(hi), dimensions={{}}
  bz = f32{dims} broadcast(z), dimensions={{}}
  bnz = f32{dims} broadcast(nz), dimensions={{}}
  bnan = f32{dims} broadcast(nan), dimensions={{}}
  a = f32{dims} maximum(x, blo)
  b = f32{dims} minimum(bhi, x)
  c = f32{dims} maximum(x, bz)
  d = f32{dims} minimum(x, bnz)
  e = f32{dims} maximum(bnan, x)
  f0 = f32{dims} maximum(x, blo)
  f = f32{dims} minimum(f0, bhi)
  ROOT t = (f32{dims}, f32{dims}, f32{dims}, f32{dims}, f32{dims}, f32{dims}) tuple(a, b, c, d, e, f)
}}
"
        );
        let m = smelt_hlo::parse_module(&hlo).unwrap_or_else(|e| panic!("{e}"));
        let program = smelt_kernel::lower_module(&m).unwrap_or_else(|e| panic!("{e}"));
        let exe = compile(&program, &CompileOptions::default()).unwrap_or_else(|e| panic!("{e}"));
        let inputs: Vec<Array> = if dims == "[]" {
            values.iter().map(|&v| Array::from_vec([], vec![v])).collect()
        } else {
            vec![Array::from_vec([n as i64], values.clone())]
        };
        for x in inputs {
            let args = [x];
            let got = exe.run(&args).unwrap_or_else(|e| panic!("{e}"));
            let want = interp(&hlo, &args);
            for (k, (g, w)) in got.iter().zip(&want).enumerate() {
                assert_close(&format!("result {k} of {dims}"), g, w, 0.0);
            }
        }
    }
}

#[test]
fn scalar_max_and_min_match_the_interpreter_on_edge_values() {
    use smelt_hlo::reducers::{MAX, MIN};
    let hlo = format!(
        "HloModule m
{MAX}{MIN}
ENTRY e {{
  p = f32[] parameter(0)
  q = f32[] parameter(1)
  mx = f32[] maximum(p, q)
  mn = f32[] minimum(p, q)
  rp = f32[1] reshape(p)
  rq = f32[1] reshape(q)
  w = f32[3] concatenate(rp, rq, rp), dimensions={{0}}
  ninf = f32[] constant(-inf)
  pinf = f32[] constant(inf)
  rmx = f32[] reduce(w, ninf), dimensions={{0}}, to_apply=max
  rmn = f32[] reduce(w, pinf), dimensions={{0}}, to_apply=min
  pd = f64[] convert(p)
  qd = f64[] convert(q)
  dmx = f64[] maximum(pd, qd)
  dmn = f64[] minimum(qd, pd)
  ROOT t = (f32[], f32[], f32[], f32[], f64[], f64[]) tuple(mx, mn, rmx, rmn, dmx, dmn)
}}
"
    );
    let m = smelt_hlo::parse_module(&hlo).unwrap_or_else(|e| panic!("{e}"));
    let program = smelt_kernel::lower_module(&m).unwrap_or_else(|e| panic!("{e}"));
    let o = CompileOptions::default();
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx512dq") {
        let asm =
            String::from_utf8(emit(&program, &o, Emit::Assembly).unwrap_or_else(|e| panic!("{e}"))).unwrap_or_default();
        assert!(asm.contains("vrangess") && asm.contains("vrangesd"), "{asm}");
    }
    let exe = compile(&program, &o).unwrap_or_else(|e| panic!("{e}"));
    let values = MAX_MIN_EDGES;
    for &p in &values {
        for &q in &values {
            let args = [Array::from_vec([], vec![p]), Array::from_vec([], vec![q])];
            let got = exe.run(&args).unwrap_or_else(|e| panic!("{e}"));
            let want = interp(&hlo, &args);
            for (k, (g, w)) in got.iter().zip(&want).enumerate() {
                assert_close(&format!("result {k} for ({p:e}, {q:e})"), g, w, 0.0);
            }
        }
    }
}

/// f16 arithmetic is rounded to f16 after every operation; computed in f32 and
/// rounded, that is the same bits as native f16 arithmetic (one operation's
/// exact result, rounded to f32 and then to f16, rounds as it would directly:
/// f32 has more than twice f16's precision plus two bits). So LLVM narrows the
/// chain to AVX512-FP16's `vaddph`/`vmulph` where the target has them (Intel
/// Sapphire Rapids and later) and converts around f32 arithmetic elsewhere.
/// Cross-compiled, so it checks both on any host.
#[test]
fn half_arithmetic_uses_avx512_fp16_where_the_target_has_it() {
    let hlo = "HloModule h
ENTRY e {
  x = f16[4096] parameter(0)
  y = f16[4096] parameter(1)
  a = f16[4096] add(x, y)
  m = f16[4096] multiply(a, x)
  ROOT s = f16[4096] subtract(m, y)
}
";
    let m = smelt_hlo::parse_module(hlo).unwrap_or_else(|e| panic!("{e}"));
    let program = smelt_kernel::lower_module(&m).unwrap_or_else(|e| panic!("{e}"));
    let asm_for = |cpu: &str| {
        let o = CompileOptions {
            triple: Some("x86_64-unknown-linux-gnu".into()),
            cpu: Some(cpu.into()),
            ..CompileOptions::default()
        };
        String::from_utf8(emit(&program, &o, Emit::Assembly).unwrap_or_else(|e| panic!("{e}"))).unwrap_or_default()
    };
    let spr = asm_for("sapphirerapids");
    assert!(spr.contains("vaddph") && spr.contains("vmulph") && spr.contains("vsubph"), "{spr}");
    let zen4 = asm_for("znver4");
    assert!(!zen4.contains("vaddph") && zen4.contains("vcvtph2ps") && zen4.contains("vaddps"), "{zen4}");
}

/// A column-order reduction (over the leading dimension) of a concatenation
/// and a pad along the kept innermost dimension runs one column loop per
/// piece, each specialized to its operand; pieces that straddle column
/// blocks and pieces narrower than a vector included: against the interpreter
/// within the sums' rounding, and the padding's columns (sums of `exp(0)`)
/// exactly.
#[test]
fn column_reductions_of_concatenations_match_the_interpreter() {
    use smelt_hlo::reducers::ADD;
    let hlo = format!(
        "HloModule m
{ADD}
fused {{
  a = f32[300,5] parameter(0)
  b = f32[300,1000] parameter(1)
  c = f32[300,37] parameter(2)
  cat = f32[300,1042] concatenate(a, b, c), dimensions={{1}}
  z = f32[] constant(0)
  p = f32[300,1050] pad(cat, z), padding=0_0x3_5
  e = f32[300,1050] exponential(p)
  ROOT r = f32[1050] reduce(e, z), dimensions={{0}}, to_apply=add
}}

ENTRY e {{
  a = f32[300,5] parameter(0)
  b = f32[300,1000] parameter(1)
  c = f32[300,37] parameter(2)
  ROOT f = f32[1050] fusion(a, b, c), kind=kInput, calls=fused
}}
"
    );
    let m = smelt_hlo::parse_module(&hlo).unwrap_or_else(|e| panic!("{e}"));
    let program = smelt_kernel::lower_module(&m).unwrap_or_else(|e| panic!("{e}"));
    let reduces = program.kernels.iter().filter(|k| matches!(k.body, smelt_kernel::KernelBody::Reduce { .. })).count();
    assert_eq!((program.kernels.len(), reduces), (1, 1), "one reduction kernel with the concatenation inside");
    let exe = compile(&program, &CompileOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let mut rng = smelt_hlo::random::SplitMix::new(77);
    let mut arg = |n: i64| {
        let v: Vec<f32> = (0..300 * n).map(|_| rng.uniform(-2.0, 2.0) as f32).collect();
        Array::from_vec([300, n], v)
    };
    let args = [arg(5), arg(1000), arg(37)];
    let got = exe.run(&args).unwrap_or_else(|e| panic!("{e}"));
    let want = interp(&hlo, &args);
    assert_close("column sum of a padded concatenation", &got[0], &want[0], 1e-5);
    for j in [0, 1, 2, 1045, 1049] {
        assert_eq!(get(&got[0], j), 300.0, "padding column {j}");
    }
}

/// A column reduction with one accumulator and a full-size extra output,
/// wide enough for several tasks: the pool may split its columns (a task's
/// minimum is not the whole column block), and the sums, taken in the
/// interpreter's order whatever the split, and the extra output are the
/// interpreter's bit for bit.
#[test]
fn column_reductions_split_across_tasks_match_the_interpreter() {
    use smelt_hlo::reducers::ADD;
    let hlo = format!(
        "HloModule m
{ADD}
fused {{
  x = f32[400,2048] parameter(0)
  sq = f32[400,2048] multiply(x, x)
  z = f32[] constant(0)
  r = f32[2048] reduce(sq, z), dimensions={{0}}, to_apply=add
  ROOT t = (f32[2048], f32[400,2048]) tuple(r, sq)
}}

ENTRY e {{
  x = f32[400,2048] parameter(0)
  ROOT f = (f32[2048], f32[400,2048]) fusion(x), kind=kInput, calls=fused
}}
"
    );
    let m = smelt_hlo::parse_module(&hlo).unwrap_or_else(|e| panic!("{e}"));
    let program = smelt_kernel::lower_module(&m).unwrap_or_else(|e| panic!("{e}"));
    let [k] = &program.kernels[..] else { panic!("one kernel, got {}", program.kernels.len()) };
    let shape = smelt_llvm::codegen::launch_shape(k).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(shape.n, 2048, "parallel over the columns");
    assert!(shape.min_grain <= shape.n / 4, "a task may take {} of {} columns", shape.min_grain, shape.n);
    let exe = compile(&program, &CompileOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let mut rng = smelt_hlo::random::SplitMix::new(78);
    let v: Vec<f32> = (0..400 * 2048).map(|_| rng.uniform(-3.0, 3.0) as f32).collect();
    let args = [Array::from_vec([400, 2048], v)];
    let got = exe.run(&args).unwrap_or_else(|e| panic!("{e}"));
    let want = interp(&hlo, &args);
    assert_eq!(got.len(), 2);
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert!(g == w, "output {i} differs from the interpreter");
    }
}
