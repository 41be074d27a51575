//! Element types, spelled as XLA spells them (`pred`, `s32`, `bf16`, ...).

use std::fmt;
use std::str::FromStr;

/// An array element type. The set is XLA's core numeric types; 4-bit and 8-bit
/// float types are not modelled and are rejected by the parser with a clear error.
///
/// The complex types `c64` and `c128` are types of shapes only: no array holds
/// complex elements. A complex value is stored as its component type with one more,
/// innermost dimension of 2 (real part, then imaginary part), which is the same bytes
/// as XLA's complex arrays (see [`DType::component`] and `crate::complex`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DType {
    Pred,
    S8,
    S16,
    S32,
    S64,
    U8,
    U16,
    U32,
    U64,
    F16,
    Bf16,
    F32,
    F64,
    /// Complex with `f32` parts.
    C64,
    /// Complex with `f64` parts.
    C128,
}

impl DType {
    /// The complex types; [`DType::ALL`] lists the types arrays hold.
    pub const COMPLEX: [DType; 2] = [DType::C64, DType::C128];

    /// Every storage type (every type but the complex ones).
    pub const ALL: [DType; 13] = [
        DType::Pred,
        DType::S8,
        DType::S16,
        DType::S32,
        DType::S64,
        DType::U8,
        DType::U16,
        DType::U32,
        DType::U64,
        DType::F16,
        DType::Bf16,
        DType::F32,
        DType::F64,
    ];

    pub fn name(self) -> &'static str {
        match self {
            DType::Pred => "pred",
            DType::S8 => "s8",
            DType::S16 => "s16",
            DType::S32 => "s32",
            DType::S64 => "s64",
            DType::U8 => "u8",
            DType::U16 => "u16",
            DType::U32 => "u32",
            DType::U64 => "u64",
            DType::F16 => "f16",
            DType::Bf16 => "bf16",
            DType::F32 => "f32",
            DType::F64 => "f64",
            DType::C64 => "c64",
            DType::C128 => "c128",
        }
    }

    /// Storage size of one element in bytes (pred is one byte).
    pub fn byte_size(self) -> usize {
        match self {
            DType::Pred | DType::S8 | DType::U8 => 1,
            DType::S16 | DType::U16 | DType::F16 | DType::Bf16 => 2,
            DType::S32 | DType::U32 | DType::F32 => 4,
            DType::S64 | DType::U64 | DType::F64 | DType::C64 => 8,
            DType::C128 => 16,
        }
    }

    /// Width in bits as XLA counts it for bitcast-convert (pred counts as 8).
    pub fn bit_width(self) -> usize {
        self.byte_size() * 8
    }

    pub fn is_float(self) -> bool {
        matches!(self, DType::F16 | DType::Bf16 | DType::F32 | DType::F64)
    }

    pub fn is_complex(self) -> bool {
        matches!(self, DType::C64 | DType::C128)
    }

    /// The type of a complex type's real and imaginary parts (`f32` for `c64`);
    /// every other type is its own component.
    pub fn component(self) -> DType {
        match self {
            DType::C64 => DType::F32,
            DType::C128 => DType::F64,
            t => t,
        }
    }

    /// The complex type whose parts are `self` (`c64` for `f32`), if any.
    pub fn complex_of(self) -> Option<DType> {
        match self {
            DType::F32 => Some(DType::C64),
            DType::F64 => Some(DType::C128),
            _ => None,
        }
    }

    pub fn is_signed_int(self) -> bool {
        matches!(self, DType::S8 | DType::S16 | DType::S32 | DType::S64)
    }

    pub fn is_unsigned_int(self) -> bool {
        matches!(self, DType::U8 | DType::U16 | DType::U32 | DType::U64)
    }

    pub fn is_int(self) -> bool {
        self.is_signed_int() || self.is_unsigned_int()
    }

    /// Integers and pred: the types bitwise and logical ops accept.
    pub fn is_integral(self) -> bool {
        self.is_int() || self == DType::Pred
    }
}

impl fmt::Display for DType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for DType {
    type Err = ();
    fn from_str(s: &str) -> Result<Self, ()> {
        DType::ALL.iter().chain(&DType::COMPLEX).copied().find(|d| d.name() == s).ok_or(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for d in DType::ALL {
            assert_eq!(d.name().parse::<DType>(), Ok(d));
        }
        for d in DType::COMPLEX {
            assert_eq!(d.name().parse::<DType>(), Ok(d));
            assert_eq!(d.component().complex_of(), Some(d));
        }
        assert!("f8e4m3".parse::<DType>().is_err());
    }
}
