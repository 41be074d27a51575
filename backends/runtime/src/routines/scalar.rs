//! Scalar helpers Cranelift-compiled kernels call for what the ISA has no
//! instruction for: round-half-away, fmod, f16/bf16 rounding.
//! (Transcendental functions are not here: every tier emits the math library,
//! `smelt_math`, inline.)
//!
//! Each is the interpreter's own definition (`smelt_interp::scalar`), so the
//! fast tier agrees with the oracle bit for bit on these operations. f16 and
//! bf16 values travel as the f32 they widen to; 16-bit patterns travel in the
//! low bits of a `u32`.

use half::{bf16, f16};
use smelt_hlo::Opcode;
use smelt_interp::scalar::{float_binary, float_unary};

macro_rules! unary {
    ($($name:ident: $t:ty => $op:ident;)*) => {$(
        #[unsafe(no_mangle)]
        pub extern "C" fn $name(x: $t) -> $t {
            float_unary(Opcode::$op, x)
        }
    )*};
}

macro_rules! binary {
    ($($name:ident: $t:ty => $op:ident;)*) => {$(
        #[unsafe(no_mangle)]
        pub extern "C" fn $name(x: $t, y: $t) -> $t {
            float_binary(Opcode::$op, x, y)
        }
    )*};
}

unary! {
    smelt_rt_round_f32: f32 => RoundNearestAfz;
    smelt_rt_round_f64: f64 => RoundNearestAfz;
}

binary! {
    smelt_rt_fmod_f32: f32 => Remainder;
    smelt_rt_fmod_f64: f64 => Remainder;
}

/// Helpers that round to a 16-bit float type once, then widen to f32.
macro_rules! round_to_half {
    ($($(#[$doc:meta])* $name:ident: $t:ty => $half:ident::$from:ident;)*) => {$(
        $(#[$doc])*
        #[unsafe(no_mangle)]
        pub extern "C" fn $name(x: $t) -> f32 {
            $half::$from(x).to_f32()
        }
    )*};
}

round_to_half! {
    /// An f32 rounded to the nearest f16, widened back.
    smelt_rt_round_f16: f32 => f16::from_f32;
    /// An f32 rounded to the nearest bf16, widened back.
    smelt_rt_round_bf16: f32 => bf16::from_f32;
    /// An f64 rounded to the nearest f16 (once), widened to f32.
    smelt_rt_f64_to_f16: f64 => f16::from_f64;
    /// An f64 rounded to the nearest bf16 (once), widened to f32.
    smelt_rt_f64_to_bf16: f64 => bf16::from_f64;
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

/// Every helper by symbol name, for a JIT's symbol table.
pub fn symbols() -> Vec<(&'static str, *const u8)> {
    macro_rules! table {
        ($($f:ident),* $(,)?) => { vec![$((stringify!($f), $f as *const u8)),*] };
    }
    table![
        smelt_rt_round_f32,
        smelt_rt_round_f64,
        smelt_rt_fmod_f32,
        smelt_rt_fmod_f64,
        smelt_rt_round_f16,
        smelt_rt_round_bf16,
        smelt_rt_f64_to_f16,
        smelt_rt_f64_to_bf16,
        smelt_rt_f16_from_bits,
        smelt_rt_f16_to_bits,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_rounding() {
        assert_eq!(smelt_rt_round_bf16(1.0 + 1.0 / 512.0), 1.0);
        assert_eq!(smelt_rt_f16_to_bits(smelt_rt_f16_from_bits(0x3c00)), 0x3c00);
        assert_eq!(smelt_rt_f64_to_f16(65520.0), f32::INFINITY);
    }
}
