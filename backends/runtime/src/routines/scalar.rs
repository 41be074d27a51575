//! Scalar helpers Cranelift-compiled kernels call for what the ISA has no
//! instruction for: transcendental functions, f16/bf16 rounding, integer powers.
//!
//! Each computes exactly what the interpreter computes (the same Rust and
//! `libm` functions), so the fast tier agrees with the oracle bit for bit on
//! these operations. f16 and bf16 values travel as the f32 they widen to;
//! 16-bit patterns travel in the low bits of a `u32`.

use half::{bf16, f16};

macro_rules! unary {
    ($($name:ident: $t:ty => $f:expr;)*) => {$(
        #[unsafe(no_mangle)]
        pub extern "C" fn $name(x: $t) -> $t {
            let f: fn($t) -> $t = $f;
            f(x)
        }
    )*};
}

macro_rules! binary {
    ($($name:ident: $t:ty => $f:expr;)*) => {$(
        #[unsafe(no_mangle)]
        pub extern "C" fn $name(x: $t, y: $t) -> $t {
            let f: fn($t, $t) -> $t = $f;
            f(x, y)
        }
    )*};
}

unary! {
    smelt_rt_exp_f32: f32 => f32::exp;
    smelt_rt_expm1_f32: f32 => f32::exp_m1;
    smelt_rt_log_f32: f32 => f32::ln;
    smelt_rt_log1p_f32: f32 => f32::ln_1p;
    smelt_rt_sin_f32: f32 => f32::sin;
    smelt_rt_cos_f32: f32 => f32::cos;
    smelt_rt_tan_f32: f32 => f32::tan;
    smelt_rt_tanh_f32: f32 => f32::tanh;
    smelt_rt_cbrt_f32: f32 => f32::cbrt;
    smelt_rt_erf_f32: f32 => libm::erff;
    smelt_rt_round_f32: f32 => f32::round;
    smelt_rt_exp_f64: f64 => f64::exp;
    smelt_rt_expm1_f64: f64 => f64::exp_m1;
    smelt_rt_log_f64: f64 => f64::ln;
    smelt_rt_log1p_f64: f64 => f64::ln_1p;
    smelt_rt_sin_f64: f64 => f64::sin;
    smelt_rt_cos_f64: f64 => f64::cos;
    smelt_rt_tan_f64: f64 => f64::tan;
    smelt_rt_tanh_f64: f64 => f64::tanh;
    smelt_rt_cbrt_f64: f64 => f64::cbrt;
    smelt_rt_erf_f64: f64 => libm::erf;
    smelt_rt_round_f64: f64 => f64::round;
}

binary! {
    smelt_rt_fmod_f32: f32 => |x, y| x % y;
    smelt_rt_pow_f32: f32 => f32::powf;
    smelt_rt_atan2_f32: f32 => f32::atan2;
    smelt_rt_fmod_f64: f64 => |x, y| x % y;
    smelt_rt_pow_f64: f64 => f64::powf;
    smelt_rt_atan2_f64: f64 => f64::atan2;
}

/// An f32 rounded to the nearest f16, widened back.
#[unsafe(no_mangle)]
pub extern "C" fn smelt_rt_round_f16(x: f32) -> f32 {
    f16::from_f32(x).to_f32()
}

/// An f32 rounded to the nearest bf16, widened back.
#[unsafe(no_mangle)]
pub extern "C" fn smelt_rt_round_bf16(x: f32) -> f32 {
    bf16::from_f32(x).to_f32()
}

/// An f64 rounded to the nearest f16 (once), widened to f32.
#[unsafe(no_mangle)]
pub extern "C" fn smelt_rt_f64_to_f16(x: f64) -> f32 {
    f16::from_f64(x).to_f32()
}

/// An f64 rounded to the nearest bf16 (once), widened to f32.
#[unsafe(no_mangle)]
pub extern "C" fn smelt_rt_f64_to_bf16(x: f64) -> f32 {
    bf16::from_f64(x).to_f32()
}

/// The f16 with bit pattern `bits` (low 16 bits), widened to f32.
#[unsafe(no_mangle)]
pub extern "C" fn smelt_rt_f16_from_bits(bits: u32) -> f32 {
    f16::from_bits(bits as u16).to_f32()
}

/// The bit pattern of an f32 that holds an f16 value (rounding if it does not).
#[unsafe(no_mangle)]
pub extern "C" fn smelt_rt_f16_to_bits(x: f32) -> u32 {
    f16::from_f32(x).to_bits() as u32
}

/// `base ** exponent` for an integer type of `bits` bits, as XLA computes it
/// (square and multiply over the low six exponent bits, wrapping; a negative
/// exponent gives 1 for base 1 and 0 otherwise). Operands arrive sign- or
/// zero-extended per `signed`.
#[unsafe(no_mangle)]
pub extern "C" fn smelt_rt_ipow(base: i64, exponent: i64, bits: u32, signed: u32) -> i64 {
    let wrap = |v: i64| -> i64 {
        if bits >= 64 {
            v
        } else {
            let shift = 64 - bits;
            if signed != 0 { (v << shift) >> shift } else { ((v as u64) << shift >> shift) as i64 }
        }
    };
    let mask = if bits >= 64 { u64::MAX } else { (1u64 << bits) - 1 };
    let mut e = (exponent as u64) & mask;
    let (mut acc, mut b) = (1i64, base);
    for _ in 0..6 {
        if e & 1 == 1 {
            acc = wrap(acc.wrapping_mul(b));
        }
        b = wrap(b.wrapping_mul(b));
        e >>= 1;
    }
    // The exponent's sign is read at the type's width, for unsigned types too.
    let negative = ((exponent as u64) & mask) >> (bits.clamp(1, 64) - 1) & 1 == 1;
    if !negative {
        acc
    } else if base == 1 {
        1
    } else {
        0
    }
}

/// Every helper by symbol name, for a JIT's symbol table.
pub fn symbols() -> Vec<(&'static str, *const u8)> {
    macro_rules! table {
        ($($f:ident),* $(,)?) => { vec![$((stringify!($f), $f as *const u8)),*] };
    }
    table![
        smelt_rt_exp_f32,
        smelt_rt_expm1_f32,
        smelt_rt_log_f32,
        smelt_rt_log1p_f32,
        smelt_rt_sin_f32,
        smelt_rt_cos_f32,
        smelt_rt_tan_f32,
        smelt_rt_tanh_f32,
        smelt_rt_cbrt_f32,
        smelt_rt_erf_f32,
        smelt_rt_round_f32,
        smelt_rt_exp_f64,
        smelt_rt_expm1_f64,
        smelt_rt_log_f64,
        smelt_rt_log1p_f64,
        smelt_rt_sin_f64,
        smelt_rt_cos_f64,
        smelt_rt_tan_f64,
        smelt_rt_tanh_f64,
        smelt_rt_cbrt_f64,
        smelt_rt_erf_f64,
        smelt_rt_round_f64,
        smelt_rt_fmod_f32,
        smelt_rt_pow_f32,
        smelt_rt_atan2_f32,
        smelt_rt_fmod_f64,
        smelt_rt_pow_f64,
        smelt_rt_atan2_f64,
        smelt_rt_round_f16,
        smelt_rt_round_bf16,
        smelt_rt_f64_to_f16,
        smelt_rt_f64_to_bf16,
        smelt_rt_f16_from_bits,
        smelt_rt_f16_to_bits,
        smelt_rt_ipow,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_powers_match_xla() {
        assert_eq!(smelt_rt_ipow(3, 64, 32, 1), 1);
        assert_eq!(smelt_rt_ipow(1, -5, 32, 1), 1);
        assert_eq!(smelt_rt_ipow(2, -1, 32, 1), 0);
        assert_eq!(smelt_rt_ipow(2, 7, 8, 1), -128);
        assert_eq!(smelt_rt_ipow(3, 5, 8, 0), 243);
        assert_eq!(smelt_rt_ipow(3, 200, 8, 0), 0);
    }

    #[test]
    fn half_rounding() {
        assert_eq!(smelt_rt_round_bf16(1.0 + 1.0 / 512.0), 1.0);
        assert_eq!(smelt_rt_f16_to_bits(smelt_rt_f16_from_bits(0x3c00)), 0x3c00);
        assert_eq!(smelt_rt_f64_to_f16(65520.0), f32::INFINITY);
    }
}
