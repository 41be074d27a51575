//! The two CPU tiers agree to the bit on every elementwise operation.
//!
//! Every unary and binary operation of the kernel form, on every element type
//! that defines it, runs over special values (±0, ±inf, NaN, subnormals, the
//! extremes, values near overflow and at the edges of the polynomial ranges)
//! and random values of every magnitude, compiled by LLVM and by Cranelift.
//! The results must be the same bits, except that a NaN may differ from
//! another NaN in sign and payload (which NaN `max` or `pow` returns is not a
//! semantic the interpreter fixes either). Transcendental functions agree
//! because both tiers emit the one math library (`smelt_math`) with the same
//! multiply-add fusion; the rest are IEEE operations or the interpreter's
//! integer rules. Reductions and products may differ in summation order only,
//! which these loops do not have.

use super::*;
use crate::CompileOptions;

/// Special and random values as f64 (narrowed to the test's type).
fn float_values(seed: u64) -> Vec<f64> {
    // The ops tests' values, and more at the edges of the functions' ranges.
    let mut v = super::ops::float_values();
    v.extend([
        0.5,
        -0.5,
        -f64::NAN,
        f64::MIN_POSITIVE,
        f32::MIN_POSITIVE as f64,
        1e-310,
        f64::MAX,
        f32::MAX as f64,
        -(f32::MAX as f64),
        88.72,
        -103.9,
        709.8,
        -745.2,
        0.55,
        9.1,
        std::f64::consts::PI,
        std::f64::consts::FRAC_PI_2,
        0.999_999,
        1.000_001,
    ]);
    let mut s = seed | 1;
    while v.len() < 1024 {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        // Mantissa in [1, 2), an exponent from 2^-40 to 2^40, either sign.
        let m = 1.0 + (s >> 12) as f64 / (1u64 << 52) as f64;
        let e = ((s >> 4) % 81) as i32 - 40;
        let sign = if s & 1 == 1 { -1.0 } else { 1.0 };
        v.push(sign * m * 2f64.powi(e));
    }
    v
}

fn int_values(t: DType, seed: u64) -> Vec<f64> {
    let bits = t.bit_width() as u32;
    let (min, max) = if t.is_signed_int() {
        (-(2f64.powi(bits as i32 - 1)), 2f64.powi(bits as i32 - 1) - 1.0)
    } else {
        (0.0, 2f64.powi(bits as i32) - 1.0)
    };
    let mut v = vec![0.0, 1.0, 2.0, 3.0, 7.0, bits as f64, bits as f64 - 1.0, bits as f64 + 1.0, 64.0, min, max];
    if t.is_signed_int() {
        v.extend([-1.0, -2.0, -7.0, min + 1.0]);
    }
    let mut s = seed | 1;
    while v.len() < 512 {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        let x = (s % 200) as f64 - if t.is_signed_int() { 100.0 } else { 0.0 };
        v.push(x.clamp(min, max));
    }
    v
}

/// `op` over `n` elements of type `t`: `out = op(x)` or `out = op(x, y)`.
fn program(t: DType, n: i64, unary: Option<UnaryOp>, binary: Option<BinaryOp>) -> Program {
    let mut b = Gb::new();
    let i = b.index(0);
    let x = b.load(0, &[i], t);
    let y = b.load(1, &[i], t);
    let o = match (unary, binary) {
        (Some(op), _) => b.un(op, x),
        (_, Some(op)) => b.bin(op, x, y),
        _ => x,
    };
    one_kernel(loop_kernel(vec![at(t, &[n]), at(t, &[n])], &[n], b.g, vec![o]))
}

/// The bits of element `i`, with every NaN the same.
fn canonical(a: &Array, i: usize) -> u64 {
    let v = a.data.get_f64(i);
    if v.is_nan() {
        return u64::MAX;
    }
    let w = a.dtype().byte_size();
    let bytes = a.data.to_le_bytes();
    let mut b = [0u8; 8];
    b[..w].copy_from_slice(&bytes[i * w..i * w + w]);
    u64::from_le_bytes(b)
}

#[test]
fn llvm_and_cranelift_agree_to_the_bit_on_every_elementwise_operation() {
    let llvm_options = CompileOptions::default();
    let clif_options = smelt_cranelift::CompileOptions::default();
    let mut checked = 0;
    let mut failures = Vec::new();
    for (k, &t) in DType::ALL.iter().enumerate() {
        let values = |seed| if t.is_float() { float_values(seed) } else { int_values(t, seed) };
        let (xs, ys) = (values(k as u64 + 1), values(k as u64 + 101));
        // Every x against every y would be n^2; shifting y by one gives n pairs
        // that still meet every special value with several others.
        let n = xs.len();
        let x = array_of(t, &[n as i64], &xs);
        let y = array_of(t, &[n as i64], &ys.iter().cycle().skip(1).take(n).copied().collect::<Vec<_>>());
        let ops = UnaryOp::ALL.iter().map(|&u| (Some(u), None)).chain(BinaryOp::ALL.iter().map(|&b| (None, Some(b))));
        for (unary, binary) in ops {
            let p = program(t, n as i64, unary, binary);
            // Operations the type does not define do not verify; nothing to compare.
            let p = super::legalized(&p);
            let Ok(verified) = smelt_kernel::verify(&p) else { continue };
            let what = match (unary, binary) {
                (Some(u), _) => format!("{u:?} on {t}"),
                (_, b) => format!("{b:?} on {t}").replace("Some(", "").replace(')', ""),
            };
            let args = [x.clone(), y.clone()];
            let llvm = crate::compile(&verified, &llvm_options)
                .map_err(|e| e.to_string())
                .and_then(|e| e.run(&args).map_err(|e| e.to_string()));
            let clif = smelt_cranelift::compile(&verified, &clif_options)
                .map_err(|e| e.to_string())
                .and_then(|e| e.run(&args).map_err(|e| e.to_string()));
            let (llvm, clif) = match (llvm, clif) {
                (Ok(l), Ok(c)) => (l, c),
                (l, c) => panic!("{what}: LLVM {:?}, Cranelift {:?}", l.err(), c.err()),
            };
            checked += 1;
            if let Some(i) = (0..n).find(|&i| canonical(&llvm[0], i) != canonical(&clif[0], i)) {
                failures.push(format!(
                    "{what} at x = {:e}, y = {:e}: LLVM {:e}, Cranelift {:e}",
                    x.data.get_f64(i),
                    y.data.get_f64(i),
                    llvm[0].data.get_f64(i),
                    clif[0].data.get_f64(i)
                ));
            }
        }
    }
    assert!(checked > 150, "only {checked} operations were compared");
    assert!(failures.is_empty(), "{} of {checked} operations differ:\n{}", failures.len(), failures.join("\n"));
}
