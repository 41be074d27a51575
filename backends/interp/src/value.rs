//! Typed dispatch over element types and single scalar values.
//!
//! Arrays are `ArrayData` (one typed `Vec` per element type); kernels pick the
//! typed code once per array with the macros here and then run tight typed loops.
//! [`Scalar`] is one element of any type without boxing: the currency of the
//! scalar programs that run reducers, comparators and scatter combiners.

use half::{bf16, f16};
use smelt_hlo::attrs::{CompareType, ComparisonDirection};
use smelt_hlo::{Array, ArrayData, DType, Element, Literal, Opcode, with_data};

use crate::error::{KResult, invalid};
use crate::num::{Cast, Elem};

pub(crate) use smelt_hlo::with_dtype;

/// Matches two `ArrayData` of the same element type, binding their vectors;
/// `$body` is the result. Falls to `$other` when the types differ.
macro_rules! zip_data {
    ($a:expr, $b:expr, $x:ident, $y:ident => $body:expr, else $other:expr) => {
        smelt_hlo::dtype_table!([$crate::value::zip_data] @arms ($a, $b, $x, $y => $body, else $other))
    };
    (@arms ($a:expr, $b:expr, $x:ident, $y:ident => $body:expr, else $other:expr); $($var:ident $t:ty),*) => {
        match ($a, $b) {
            $( (smelt_hlo::ArrayData::$var($x), smelt_hlo::ArrayData::$var($y)) => $body, )*
            _ => $other,
        }
    };
}

pub(crate) use zip_data;

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

/// `Scalar::from(x)` for every storage type.
macro_rules! scalar_from {
    (; $($var:ident $t:ty),*) => {$(
        impl From<$t> for Scalar {
            #[inline]
            fn from(x: $t) -> Scalar {
                Scalar::$var(x)
            }
        }
    )*};
}

smelt_hlo::dtype_table!([scalar_from]);

/// Runs `$body` with `$x` bound to the typed value inside a [`Scalar`].
macro_rules! with_scalar {
    ($s:expr, $x:ident => $body:expr) => {
        smelt_hlo::dtype_table!([with_scalar] @arms ($s, $x => $body))
    };
    (@arms ($s:expr, $x:ident => $body:expr); $($var:ident $t:ty),*) => {
        match $s { $( Scalar::$var($x) => $body, )* }
    };
}

/// Two scalars of the same type: `Some($body)`, else `None`.
macro_rules! zip_scalar {
    ($a:expr, $b:expr, $x:ident, $y:ident => $body:expr) => {
        smelt_hlo::dtype_table!([zip_scalar] @arms ($a, $b, $x, $y => $body))
    };
    (@arms ($a:expr, $b:expr, $x:ident, $y:ident => $body:expr); $($var:ident $t:ty),*) => {
        match ($a, $b) {
            $( (Scalar::$var($x), Scalar::$var($y)) => Some($body), )*
            _ => None,
        }
    };
}

impl Scalar {
    pub fn dtype(self) -> DType {
        fn of<T: Element>(_: T) -> DType {
            T::DTYPE
        }
        with_scalar!(self, x => of(x))
    }

    /// Element `i` of `data` (in range by the caller's construction).
    #[inline]
    pub(crate) fn get(data: &ArrayData, i: usize) -> Scalar {
        with_data!(data, v => Scalar::from(v[i]))
    }

    /// Stores into element `i` of `data`; false if the types differ.
    #[inline]
    pub(crate) fn set(self, data: &mut ArrayData, i: usize) -> bool {
        with_scalar!(self, x => match Element::unwrap_mut(data) {
            Some(v) => {
                v[i] = x;
                true
            }
            None => false,
        })
    }

    /// `n` copies of this value.
    pub(crate) fn splat(self, n: usize) -> ArrayData {
        with_scalar!(self, x => Element::wrap(vec![x; n]))
    }

    /// A rank-0 array holding this value.
    pub(crate) fn to_array(self) -> Array {
        Array { dims: Default::default(), data: self.splat(1) }
    }

    pub fn cast(self) -> Cast {
        with_scalar!(self, x => x.cast())
    }

    pub fn from_cast(dtype: DType, c: Cast) -> Scalar {
        with_dtype!(dtype, T => Scalar::from(<T as Elem>::from_cast(c)))
    }

    /// XLA's `convert` of this value to `to`: f32 and f16 to bf16 round the f32
    /// bits to nearest even (an integer operation, so subnormals survive), and
    /// conversions through f64 follow [`crate::edge::subnormal_convert`].
    pub fn convert(self, to: DType) -> Scalar {
        match (self, to) {
            (Scalar::F32(x), DType::Bf16) => Scalar::Bf16(half::bf16::from_f32(x)),
            (Scalar::F16(x), DType::Bf16) => Scalar::Bf16(half::bf16::from_f32(x.to_f32())),
            _ => Scalar::from_cast(to, crate::edge::subnormal_convert(self.dtype(), to, self.cast())),
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
        with_scalar!(self, x => Element::write_le(x, out))
    }

    pub fn unary(op: Opcode, x: Scalar) -> Scalar {
        with_scalar!(x, v => Scalar::from(Elem::unary(op, v)))
    }

    pub fn binary(op: Opcode, x: Scalar, y: Scalar) -> Option<Scalar> {
        zip_scalar!(x, y, a, b => Scalar::from(Elem::binary(op, a, b)))
    }

    pub fn compare(dir: ComparisonDirection, ty: Option<CompareType>, x: Scalar, y: Scalar) -> Option<bool> {
        zip_scalar!(x, y, a, b => Elem::compare(dir, ty, a, b))
    }

    pub fn is_finite(self) -> bool {
        with_scalar!(self, x => Elem::is_finite(x))
    }

    /// XLA's `clamp(lo, x, hi)` ([`crate::num::clamp`]); None unless all three
    /// have one type.
    pub fn clamp(lo: Scalar, x: Scalar, hi: Scalar) -> Option<Scalar> {
        macro_rules! zip3 {
            (; $($v:ident $t:ty),*) => {
                match (lo, x, hi) {
                    $((Scalar::$v(l), Scalar::$v(v), Scalar::$v(h)) => Some(Scalar::$v(crate::num::clamp(l, v, h))),)*
                    _ => None,
                }
            };
        }
        smelt_hlo::dtype_table!([zip3])
    }

    /// The value's bits, little end first, in the low `bit_width` bits (pred: 0 or 1).
    pub fn to_bits(self) -> u64 {
        let mut bytes = [0u8; 8];
        let mut v = Vec::with_capacity(8);
        with_scalar!(self, x => Element::write_le(x, &mut v));
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
    let mut out = ArrayData::zeros(to, data.len());
    for i in 0..data.len() {
        Scalar::get(data, i).convert(to).set(&mut out, i);
    }
    out
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
