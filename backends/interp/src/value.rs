//! Typed dispatch over element types and single scalar values.
//!
//! Arrays are `ArrayData` (one typed `Vec` per element type); kernels pick the
//! typed code once per array with the macros here and then run tight typed loops.
//! [`Scalar`] is one element of any type without boxing: the currency of the
//! scalar programs that run reducers, comparators and scatter combiners.

use half::{bf16, f16};
use smelt_hlo::attrs::{CompareType, ComparisonDirection};
use smelt_hlo::{Array, ArrayData, DType, Literal, Opcode};

use crate::error::{KResult, invalid};
use crate::num::{Cast, Elem};

/// Runs `$body` with `$T` bound to the storage type of a [`DType`].
macro_rules! with_dtype {
    ($d:expr, $T:ident => $body:expr) => {
        match $d {
            smelt_hlo::DType::Pred => {
                type $T = bool;
                $body
            }
            smelt_hlo::DType::S8 => {
                type $T = i8;
                $body
            }
            smelt_hlo::DType::S16 => {
                type $T = i16;
                $body
            }
            smelt_hlo::DType::S32 => {
                type $T = i32;
                $body
            }
            smelt_hlo::DType::S64 => {
                type $T = i64;
                $body
            }
            smelt_hlo::DType::U8 => {
                type $T = u8;
                $body
            }
            smelt_hlo::DType::U16 => {
                type $T = u16;
                $body
            }
            smelt_hlo::DType::U32 => {
                type $T = u32;
                $body
            }
            smelt_hlo::DType::U64 => {
                type $T = u64;
                $body
            }
            smelt_hlo::DType::F16 => {
                type $T = half::f16;
                $body
            }
            smelt_hlo::DType::Bf16 => {
                type $T = half::bf16;
                $body
            }
            smelt_hlo::DType::F32 => {
                type $T = f32;
                $body
            }
            smelt_hlo::DType::F64 => {
                type $T = f64;
                $body
            }
        }
    };
}

/// Matches two `ArrayData` of the same element type, binding their vectors;
/// `$body` is the result. Falls to `$other` when the types differ.
macro_rules! zip_data {
    ($a:expr, $b:expr, $x:ident, $y:ident => $body:expr, else $other:expr) => {{
        use smelt_hlo::ArrayData as D;
        match ($a, $b) {
            (D::Pred($x), D::Pred($y)) => $body,
            (D::S8($x), D::S8($y)) => $body,
            (D::S16($x), D::S16($y)) => $body,
            (D::S32($x), D::S32($y)) => $body,
            (D::S64($x), D::S64($y)) => $body,
            (D::U8($x), D::U8($y)) => $body,
            (D::U16($x), D::U16($y)) => $body,
            (D::U32($x), D::U32($y)) => $body,
            (D::U64($x), D::U64($y)) => $body,
            (D::F16($x), D::F16($y)) => $body,
            (D::Bf16($x), D::Bf16($y)) => $body,
            (D::F32($x), D::F32($y)) => $body,
            (D::F64($x), D::F64($y)) => $body,
            _ => $other,
        }
    }};
}

pub(crate) use {with_dtype, zip_data};

/// One element of any type: the interpreter's scalar value, public as
/// [`crate::scalar::Value`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scalar {
    Pred(bool),
    S8(i8),
    S16(i16),
    S32(i32),
    S64(i64),
    U8(u8),
    U16(u16),
    U32(u32),
    U64(u64),
    F16(f16),
    Bf16(bf16),
    F32(f32),
    F64(f64),
}

/// Runs `$body` with `$x` bound to the typed value inside a [`Scalar`], wrapping
/// the result back into the same variant.
macro_rules! map_scalar {
    ($s:expr, $x:ident => $body:expr) => {
        match $s {
            Scalar::Pred($x) => Scalar::Pred($body),
            Scalar::S8($x) => Scalar::S8($body),
            Scalar::S16($x) => Scalar::S16($body),
            Scalar::S32($x) => Scalar::S32($body),
            Scalar::S64($x) => Scalar::S64($body),
            Scalar::U8($x) => Scalar::U8($body),
            Scalar::U16($x) => Scalar::U16($body),
            Scalar::U32($x) => Scalar::U32($body),
            Scalar::U64($x) => Scalar::U64($body),
            Scalar::F16($x) => Scalar::F16($body),
            Scalar::Bf16($x) => Scalar::Bf16($body),
            Scalar::F32($x) => Scalar::F32($body),
            Scalar::F64($x) => Scalar::F64($body),
        }
    };
}

/// Like `map_scalar!`, but `$body` is the result as is.
macro_rules! with_scalar {
    ($s:expr, $x:ident => $body:expr) => {
        match $s {
            Scalar::Pred($x) => $body,
            Scalar::S8($x) => $body,
            Scalar::S16($x) => $body,
            Scalar::S32($x) => $body,
            Scalar::S64($x) => $body,
            Scalar::U8($x) => $body,
            Scalar::U16($x) => $body,
            Scalar::U32($x) => $body,
            Scalar::U64($x) => $body,
            Scalar::F16($x) => $body,
            Scalar::Bf16($x) => $body,
            Scalar::F32($x) => $body,
            Scalar::F64($x) => $body,
        }
    };
}

/// Two scalars of the same type: `Some(variant($body))`, else `None`.
macro_rules! zip_scalar {
    ($a:expr, $b:expr, $x:ident, $y:ident => $body:expr) => {
        match ($a, $b) {
            (Scalar::Pred($x), Scalar::Pred($y)) => Some(Scalar::Pred($body)),
            (Scalar::S8($x), Scalar::S8($y)) => Some(Scalar::S8($body)),
            (Scalar::S16($x), Scalar::S16($y)) => Some(Scalar::S16($body)),
            (Scalar::S32($x), Scalar::S32($y)) => Some(Scalar::S32($body)),
            (Scalar::S64($x), Scalar::S64($y)) => Some(Scalar::S64($body)),
            (Scalar::U8($x), Scalar::U8($y)) => Some(Scalar::U8($body)),
            (Scalar::U16($x), Scalar::U16($y)) => Some(Scalar::U16($body)),
            (Scalar::U32($x), Scalar::U32($y)) => Some(Scalar::U32($body)),
            (Scalar::U64($x), Scalar::U64($y)) => Some(Scalar::U64($body)),
            (Scalar::F16($x), Scalar::F16($y)) => Some(Scalar::F16($body)),
            (Scalar::Bf16($x), Scalar::Bf16($y)) => Some(Scalar::Bf16($body)),
            (Scalar::F32($x), Scalar::F32($y)) => Some(Scalar::F32($body)),
            (Scalar::F64($x), Scalar::F64($y)) => Some(Scalar::F64($body)),
            _ => None,
        }
    };
}

/// Like `zip_scalar!`, but `$body` is the (optional) result as is.
macro_rules! zip_scalar_any {
    ($a:expr, $b:expr, $x:ident, $y:ident => $body:expr) => {
        match ($a, $b) {
            (Scalar::Pred($x), Scalar::Pred($y)) => Some($body),
            (Scalar::S8($x), Scalar::S8($y)) => Some($body),
            (Scalar::S16($x), Scalar::S16($y)) => Some($body),
            (Scalar::S32($x), Scalar::S32($y)) => Some($body),
            (Scalar::S64($x), Scalar::S64($y)) => Some($body),
            (Scalar::U8($x), Scalar::U8($y)) => Some($body),
            (Scalar::U16($x), Scalar::U16($y)) => Some($body),
            (Scalar::U32($x), Scalar::U32($y)) => Some($body),
            (Scalar::U64($x), Scalar::U64($y)) => Some($body),
            (Scalar::F16($x), Scalar::F16($y)) => Some($body),
            (Scalar::Bf16($x), Scalar::Bf16($y)) => Some($body),
            (Scalar::F32($x), Scalar::F32($y)) => Some($body),
            (Scalar::F64($x), Scalar::F64($y)) => Some($body),
            _ => None,
        }
    };
}

impl Scalar {
    pub fn dtype(self) -> DType {
        match self {
            Scalar::Pred(_) => DType::Pred,
            Scalar::S8(_) => DType::S8,
            Scalar::S16(_) => DType::S16,
            Scalar::S32(_) => DType::S32,
            Scalar::S64(_) => DType::S64,
            Scalar::U8(_) => DType::U8,
            Scalar::U16(_) => DType::U16,
            Scalar::U32(_) => DType::U32,
            Scalar::U64(_) => DType::U64,
            Scalar::F16(_) => DType::F16,
            Scalar::Bf16(_) => DType::Bf16,
            Scalar::F32(_) => DType::F32,
            Scalar::F64(_) => DType::F64,
        }
    }

    /// Element `i` of `data` (in range by the caller's construction).
    #[inline]
    pub(crate) fn get(data: &ArrayData, i: usize) -> Scalar {
        match data {
            ArrayData::Pred(v) => Scalar::Pred(v[i]),
            ArrayData::S8(v) => Scalar::S8(v[i]),
            ArrayData::S16(v) => Scalar::S16(v[i]),
            ArrayData::S32(v) => Scalar::S32(v[i]),
            ArrayData::S64(v) => Scalar::S64(v[i]),
            ArrayData::U8(v) => Scalar::U8(v[i]),
            ArrayData::U16(v) => Scalar::U16(v[i]),
            ArrayData::U32(v) => Scalar::U32(v[i]),
            ArrayData::U64(v) => Scalar::U64(v[i]),
            ArrayData::F16(v) => Scalar::F16(v[i]),
            ArrayData::Bf16(v) => Scalar::Bf16(v[i]),
            ArrayData::F32(v) => Scalar::F32(v[i]),
            ArrayData::F64(v) => Scalar::F64(v[i]),
        }
    }

    /// Stores into element `i` of `data`; false if the types differ.
    #[inline]
    pub(crate) fn set(self, data: &mut ArrayData, i: usize) -> bool {
        match (data, self) {
            (ArrayData::Pred(v), Scalar::Pred(x)) => v[i] = x,
            (ArrayData::S8(v), Scalar::S8(x)) => v[i] = x,
            (ArrayData::S16(v), Scalar::S16(x)) => v[i] = x,
            (ArrayData::S32(v), Scalar::S32(x)) => v[i] = x,
            (ArrayData::S64(v), Scalar::S64(x)) => v[i] = x,
            (ArrayData::U8(v), Scalar::U8(x)) => v[i] = x,
            (ArrayData::U16(v), Scalar::U16(x)) => v[i] = x,
            (ArrayData::U32(v), Scalar::U32(x)) => v[i] = x,
            (ArrayData::U64(v), Scalar::U64(x)) => v[i] = x,
            (ArrayData::F16(v), Scalar::F16(x)) => v[i] = x,
            (ArrayData::Bf16(v), Scalar::Bf16(x)) => v[i] = x,
            (ArrayData::F32(v), Scalar::F32(x)) => v[i] = x,
            (ArrayData::F64(v), Scalar::F64(x)) => v[i] = x,
            _ => return false,
        }
        true
    }

    /// `n` copies of this value.
    pub(crate) fn splat(self, n: usize) -> ArrayData {
        match self {
            Scalar::Pred(x) => ArrayData::Pred(vec![x; n]),
            Scalar::S8(x) => ArrayData::S8(vec![x; n]),
            Scalar::S16(x) => ArrayData::S16(vec![x; n]),
            Scalar::S32(x) => ArrayData::S32(vec![x; n]),
            Scalar::S64(x) => ArrayData::S64(vec![x; n]),
            Scalar::U8(x) => ArrayData::U8(vec![x; n]),
            Scalar::U16(x) => ArrayData::U16(vec![x; n]),
            Scalar::U32(x) => ArrayData::U32(vec![x; n]),
            Scalar::U64(x) => ArrayData::U64(vec![x; n]),
            Scalar::F16(x) => ArrayData::F16(vec![x; n]),
            Scalar::Bf16(x) => ArrayData::Bf16(vec![x; n]),
            Scalar::F32(x) => ArrayData::F32(vec![x; n]),
            Scalar::F64(x) => ArrayData::F64(vec![x; n]),
        }
    }

    /// A rank-0 array holding this value.
    pub(crate) fn to_array(self) -> Array {
        Array { dims: Default::default(), data: self.splat(1) }
    }

    pub fn cast(self) -> Cast {
        with_scalar!(self, x => x.cast())
    }

    pub fn from_cast(dtype: DType, c: Cast) -> Scalar {
        match dtype {
            DType::Pred => Scalar::Pred(Elem::from_cast(c)),
            DType::S8 => Scalar::S8(Elem::from_cast(c)),
            DType::S16 => Scalar::S16(Elem::from_cast(c)),
            DType::S32 => Scalar::S32(Elem::from_cast(c)),
            DType::S64 => Scalar::S64(Elem::from_cast(c)),
            DType::U8 => Scalar::U8(Elem::from_cast(c)),
            DType::U16 => Scalar::U16(Elem::from_cast(c)),
            DType::U32 => Scalar::U32(Elem::from_cast(c)),
            DType::U64 => Scalar::U64(Elem::from_cast(c)),
            DType::F16 => Scalar::F16(Elem::from_cast(c)),
            DType::Bf16 => Scalar::Bf16(Elem::from_cast(c)),
            DType::F32 => Scalar::F32(Elem::from_cast(c)),
            DType::F64 => Scalar::F64(Elem::from_cast(c)),
        }
    }

    /// The value of a pred scalar.
    pub(crate) fn as_pred(self) -> Option<bool> {
        match self {
            Scalar::Pred(b) => Some(b),
            _ => None,
        }
    }

    /// The value as an index (integers exactly; floats truncated).
    pub(crate) fn as_index(self) -> i64 {
        match self.cast() {
            Cast::Int(i) => i.clamp(i64::MIN as i128, i64::MAX as i128) as i64,
            Cast::Float(f) => f as i64,
        }
    }

    /// Little-endian bytes of the value.
    pub(crate) fn le_bytes(self, out: &mut Vec<u8>) {
        with_scalar!(self, x => smelt_hlo::Element::write_le(x, out))
    }

    pub fn unary(op: Opcode, x: Scalar) -> Scalar {
        map_scalar!(x, v => Elem::unary(op, v))
    }

    pub fn binary(op: Opcode, x: Scalar, y: Scalar) -> Option<Scalar> {
        zip_scalar!(x, y, a, b => Elem::binary(op, a, b))
    }

    pub fn compare(dir: ComparisonDirection, ty: Option<CompareType>, x: Scalar, y: Scalar) -> Option<bool> {
        zip_scalar_any!(x, y, a, b => Elem::compare(dir, ty, a, b))
    }

    pub fn is_finite(self) -> bool {
        with_scalar!(self, x => Elem::is_finite(x))
    }

    /// XLA's `clamp(lo, x, hi)` ([`crate::num::clamp`]); None unless all three
    /// have one type.
    pub fn clamp(lo: Scalar, x: Scalar, hi: Scalar) -> Option<Scalar> {
        macro_rules! zip3 {
            ($($v:ident),*) => {
                match (lo, x, hi) {
                    $((Scalar::$v(l), Scalar::$v(v), Scalar::$v(h)) => Some(Scalar::$v(crate::num::clamp(l, v, h))),)*
                    _ => None,
                }
            };
        }
        zip3!(Pred, S8, S16, S32, S64, U8, U16, U32, U64, F16, Bf16, F32, F64)
    }

    /// The value's bits, little end first, in the low `bit_width` bits (pred: 0 or 1).
    pub fn to_bits(self) -> u64 {
        let mut bytes = [0u8; 8];
        let mut v = Vec::with_capacity(8);
        with_scalar!(self, x => smelt_hlo::Element::write_le(x, &mut v));
        bytes[..v.len()].copy_from_slice(&v);
        u64::from_le_bytes(bytes)
    }

    /// The value of `dtype` whose bits (little end first) are the low bits of `bits`.
    pub fn from_bits(dtype: DType, bits: u64) -> Scalar {
        let bytes = bits.to_le_bytes();
        Scalar::get(&ArrayData::from_le_bytes(dtype, &bytes[..dtype.byte_size()]), 0)
    }
}

/// Whether `op` applies to elements of `dtype` as a unary op.
pub(crate) fn unary_ok(dtype: DType, op: Opcode) -> bool {
    with_dtype!(dtype, T => <T as Elem>::unary_ok(op))
}

/// Whether `op` applies to elements of `dtype` as a binary op.
pub(crate) fn binary_ok(dtype: DType, op: Opcode) -> bool {
    with_dtype!(dtype, T => <T as Elem>::binary_ok(op))
}

/// Converts every element to `to` (XLA `convert`).
pub(crate) fn convert_data(data: &ArrayData, to: DType) -> ArrayData {
    smelt_hlo::with_data!(data, v => with_dtype!(to, T => {
        let out: Vec<T> = v.iter().map(|&x| T::from_cast(Elem::cast(x))).collect();
        <T as smelt_hlo::Element>::wrap(out)
    }))
}

/// The array inside a literal, or an error naming what it was.
pub(crate) fn as_array<'a>(l: &'a Literal, what: &str) -> KResult<&'a Array> {
    match l {
        Literal::Array(a) => Ok(a),
        Literal::Tuple(_) => invalid!("{what} must be an array, got a tuple"),
    }
}

/// The single element of a rank-0 array.
pub(crate) fn scalar_of(a: &Array, what: &str) -> KResult<Scalar> {
    if !a.dims.is_empty() || a.data.len() != 1 {
        invalid!("{what} must be a scalar, got {}", a.shape());
    }
    Ok(Scalar::get(&a.data, 0))
}
