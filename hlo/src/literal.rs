//! Literals: concrete array and tuple values.
//!
//! Constants in the IR, interpreter values and npy files all use [`Literal`]. Array
//! data is stored typed (one `Vec` per element type) in row-major logical order,
//! whatever the layout of the shape it came with: layouts are a physical concern of
//! backends, values are logical.

use std::fmt;

// Public for `dtype_table!`, whose table names them.
pub use half::{bf16, f16};

use crate::dtype::DType;
use crate::shape::{ArrayShape, Dims, Shape};

/// Typed element storage, row-major. Equality compares floats bit for bit, so a
/// constant holding NaN equals itself.
#[derive(Clone, Debug)]
pub enum ArrayData {
    Pred(Vec<bool>),
    S8(Vec<i8>),
    S16(Vec<i16>),
    S32(Vec<i32>),
    S64(Vec<i64>),
    U8(Vec<u8>),
    U16(Vec<u16>),
    U32(Vec<u32>),
    U64(Vec<u64>),
    F16(Vec<f16>),
    Bf16(Vec<bf16>),
    F32(Vec<f32>),
    F64(Vec<f64>),
}

/// Calls the macro `$m` with `$args`, then `;` and the element-type table: each
/// [`DType`] variant (also the name of its [`ArrayData`] variant) with its storage
/// type. Per-type matches are written once, as a repetition over this table.
#[doc(hidden)]
#[macro_export]
macro_rules! dtype_table {
    ([$($m:tt)*] $($args:tt)*) => {
        $($m)*! { $($args)*;
            Pred bool, S8 i8, S16 i16, S32 i32, S64 i64, U8 u8, U16 u16, U32 u32, U64 u64,
            F16 $crate::literal::f16, Bf16 $crate::literal::bf16, F32 f32, F64 f64
        }
    };
}

/// Runs `$body` with `$v` bound to the typed vector inside an [`ArrayData`].
#[macro_export]
macro_rules! with_data {
    ($data:expr, $v:ident => $body:expr) => {
        $crate::dtype_table!([$crate::with_data] @arms ($data, $v => $body))
    };
    (@arms ($data:expr, $v:ident => $body:expr); $($var:ident $t:ty),*) => {
        match $data { $( $crate::literal::ArrayData::$var($v) => $body, )* }
    };
}

/// Like [`with_data!`], but rebuilds an `ArrayData` of the same type from `$body`,
/// which must produce a `Vec` of the same element type.
#[macro_export]
macro_rules! map_data {
    ($data:expr, $v:ident => $body:expr) => {
        $crate::dtype_table!([$crate::map_data] @arms ($data, $v => $body))
    };
    (@arms ($data:expr, $v:ident => $body:expr); $($var:ident $t:ty),*) => {
        match $data { $( $crate::literal::ArrayData::$var($v) => $crate::literal::ArrayData::$var($body), )* }
    };
}

/// Runs `$body` with `$T` bound to the storage type of a [`DType`] (a complex
/// type's component type: complex values are stored as their parts).
#[macro_export]
macro_rules! with_dtype {
    ($d:expr, $T:ident => $body:expr) => {
        $crate::dtype_table!([$crate::with_dtype] @arms ($d, $T => $body))
    };
    (@arms ($d:expr, $T:ident => $body:expr); $($var:ident $t:ty),*) => {
        match $d {
            $( $crate::dtype::DType::$var => {
                type $T = $t;
                $body
            } )*
            // Complex values are stored as their parts.
            $crate::dtype::DType::C64 => {
                type $T = f32;
                $body
            }
            $crate::dtype::DType::C128 => {
                type $T = f64;
                $body
            }
        }
    };
}

/// A Rust type that is the storage of one [`DType`].
pub trait Element: Copy + Default + PartialEq + fmt::Debug + Send + Sync + 'static {
    const DTYPE: DType;
    fn wrap(v: Vec<Self>) -> ArrayData;
    fn unwrap(d: &ArrayData) -> Option<&[Self]>;
    fn unwrap_mut(d: &mut ArrayData) -> Option<&mut Vec<Self>>;
    /// Value as f64 (pred as 0/1); exact for every integer up to 2^53.
    fn to_f64(self) -> f64;
    /// Value as i128 (floats truncated, saturated, NaN as 0).
    fn to_i128(self) -> i128;
    /// Little-endian bytes.
    fn write_le(self, out: &mut Vec<u8>);
    fn read_le(bytes: &[u8]) -> Self;
}

macro_rules! element {
    ($t:ty, $variant:ident, $to_f64:expr, $to_i128:expr) => {
        impl Element for $t {
            const DTYPE: DType = DType::$variant;
            fn wrap(v: Vec<Self>) -> ArrayData {
                ArrayData::$variant(v)
            }
            fn unwrap(d: &ArrayData) -> Option<&[Self]> {
                match d {
                    ArrayData::$variant(v) => Some(v),
                    _ => None,
                }
            }
            fn unwrap_mut(d: &mut ArrayData) -> Option<&mut Vec<Self>> {
                match d {
                    ArrayData::$variant(v) => Some(v),
                    _ => None,
                }
            }
            fn to_f64(self) -> f64 {
                let f: fn($t) -> f64 = $to_f64;
                f(self)
            }
            fn to_i128(self) -> i128 {
                let f: fn($t) -> i128 = $to_i128;
                f(self)
            }
            fn write_le(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
            fn read_le(bytes: &[u8]) -> Self {
                let mut b = [0u8; std::mem::size_of::<$t>()];
                b.copy_from_slice(&bytes[..std::mem::size_of::<$t>()]);
                <$t>::from_le_bytes(b)
            }
        }
    };
}

element!(i8, S8, |v| v as f64, |v| v as i128);
element!(i16, S16, |v| v as f64, |v| v as i128);
element!(i32, S32, |v| v as f64, |v| v as i128);
element!(i64, S64, |v| v as f64, |v| v as i128);
element!(u8, U8, |v| v as f64, |v| v as i128);
element!(u16, U16, |v| v as f64, |v| v as i128);
element!(u32, U32, |v| v as f64, |v| v as i128);
element!(u64, U64, |v| v as f64, |v| v as i128);
element!(f16, F16, |v| v.to_f64(), |v| v.to_f64() as i128);
element!(bf16, Bf16, |v| v.to_f64(), |v| v.to_f64() as i128);
element!(f32, F32, |v| v as f64, |v| v as i128);
element!(f64, F64, |v| v, |v| v as i128);

impl Element for bool {
    const DTYPE: DType = DType::Pred;
    fn wrap(v: Vec<Self>) -> ArrayData {
        ArrayData::Pred(v)
    }
    fn unwrap(d: &ArrayData) -> Option<&[Self]> {
        match d {
            ArrayData::Pred(v) => Some(v),
            _ => None,
        }
    }
    fn unwrap_mut(d: &mut ArrayData) -> Option<&mut Vec<Self>> {
        match d {
            ArrayData::Pred(v) => Some(v),
            _ => None,
        }
    }
    fn to_f64(self) -> f64 {
        self as u8 as f64
    }
    fn to_i128(self) -> i128 {
        self as i128
    }
    fn write_le(self, out: &mut Vec<u8>) {
        out.push(self as u8);
    }
    fn read_le(bytes: &[u8]) -> Self {
        bytes[0] != 0
    }
}

impl PartialEq for ArrayData {
    fn eq(&self, other: &Self) -> bool {
        use ArrayData as D;
        match (self, other) {
            (D::F16(a), D::F16(b)) => a.iter().map(|x| x.to_bits()).eq(b.iter().map(|x| x.to_bits())),
            (D::Bf16(a), D::Bf16(b)) => a.iter().map(|x| x.to_bits()).eq(b.iter().map(|x| x.to_bits())),
            (D::F32(a), D::F32(b)) => a.iter().map(|x| x.to_bits()).eq(b.iter().map(|x| x.to_bits())),
            (D::F64(a), D::F64(b)) => a.iter().map(|x| x.to_bits()).eq(b.iter().map(|x| x.to_bits())),
            (D::Pred(a), D::Pred(b)) => a == b,
            (D::S8(a), D::S8(b)) => a == b,
            (D::S16(a), D::S16(b)) => a == b,
            (D::S32(a), D::S32(b)) => a == b,
            (D::S64(a), D::S64(b)) => a == b,
            (D::U8(a), D::U8(b)) => a == b,
            (D::U16(a), D::U16(b)) => a == b,
            (D::U32(a), D::U32(b)) => a == b,
            (D::U64(a), D::U64(b)) => a == b,
            _ => false,
        }
    }
}

impl ArrayData {
    pub fn dtype(&self) -> DType {
        fn of<T: Element>(_: &[T]) -> DType {
            T::DTYPE
        }
        with_data!(self, v => of(v))
    }

    pub fn len(&self) -> usize {
        with_data!(self, v => v.len())
    }

    /// `n` zeros (false for pred) of type `dtype`.
    pub fn zeros(dtype: DType, n: usize) -> ArrayData {
        // A complex element is stored as its two parts.
        let n = if dtype.is_complex() { 2 * n } else { n };
        with_dtype!(dtype, T => T::wrap(vec![T::default(); n]))
    }

    /// Values of type `dtype` from f64s: floats rounded to nearest, integers
    /// through `i64` (truncated, then wrapped to the type), pred as `!= 0`.
    pub fn from_f64(dtype: DType, values: impl IntoIterator<Item = f64>) -> ArrayData {
        let v = values.into_iter();
        match dtype {
            DType::Pred => ArrayData::Pred(v.map(|x| x != 0.0).collect()),
            DType::S8 => ArrayData::S8(v.map(|x| x as i64 as i8).collect()),
            DType::S16 => ArrayData::S16(v.map(|x| x as i64 as i16).collect()),
            DType::S32 => ArrayData::S32(v.map(|x| x as i64 as i32).collect()),
            DType::S64 => ArrayData::S64(v.map(|x| x as i64).collect()),
            DType::U8 => ArrayData::U8(v.map(|x| x as i64 as u8).collect()),
            DType::U16 => ArrayData::U16(v.map(|x| x as i64 as u16).collect()),
            DType::U32 => ArrayData::U32(v.map(|x| x as i64 as u32).collect()),
            DType::U64 => ArrayData::U64(v.map(|x| x as i64 as u64).collect()),
            DType::F16 => ArrayData::F16(v.map(f16::from_f64).collect()),
            DType::Bf16 => ArrayData::Bf16(v.map(bf16::from_f64).collect()),
            DType::F32 => ArrayData::F32(v.map(|x| x as f32).collect()),
            DType::F64 | DType::C128 => ArrayData::F64(v.collect()),
            // Complex values are given as their parts, real then imaginary.
            DType::C64 => ArrayData::F32(v.map(|x| x as f32).collect()),
        }
    }

    /// Element `i` as f64 (for printing and slow generic paths).
    pub fn get_f64(&self, i: usize) -> f64 {
        with_data!(self, v => v[i].to_f64())
    }

    /// Elements gathered by index, same type.
    pub fn gather(&self, indices: &[usize]) -> ArrayData {
        map_data!(self, v => indices.iter().map(|&i| v[i]).collect())
    }

    /// Little-endian raw bytes of every element.
    pub fn to_le_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.len() * self.dtype().byte_size());
        with_data!(self, v => v.iter().for_each(|x| x.write_le(&mut out)));
        out
    }

    /// Reads `bytes.len() / byte_size` elements of `dtype` from little-endian bytes.
    pub fn from_le_bytes(dtype: DType, bytes: &[u8]) -> ArrayData {
        ArrayData::from_le_bytes_chunked(dtype, bytes, usize::MAX, |_| {})
    }

    /// [`ArrayData::from_le_bytes`], about `chunk` bytes at a time, calling
    /// `copied` with each piece of `bytes` once it is read (a loader hands the
    /// source's memory back there, so a large tensor is never held twice).
    pub fn from_le_bytes_chunked(dtype: DType, bytes: &[u8], chunk: usize, mut copied: impl FnMut(&[u8])) -> ArrayData {
        let size = dtype.component().byte_size();
        let chunk = chunk.max(size) / size * size;
        with_dtype!(dtype, T => {
            let mut v = Vec::with_capacity(bytes.len() / size);
            for piece in bytes.chunks(chunk) {
                v.extend(piece.chunks_exact(size).map(T::read_le));
                copied(piece);
            }
            T::wrap(v)
        })
    }
}

/// A dense array value.
#[derive(Clone, Debug, PartialEq)]
pub struct Array {
    pub dims: Dims,
    pub data: ArrayData,
}

impl Array {
    /// An array of `dims` over `data`; the element count must match.
    pub fn new(dims: impl AsRef<[i64]>, data: ArrayData) -> Array {
        let dims = Dims::from_slice(dims.as_ref());
        debug_assert_eq!(dims.iter().product::<i64>() as usize, data.len(), "array size mismatch");
        Array { dims, data }
    }

    pub fn from_vec<T: Element>(dims: impl AsRef<[i64]>, v: Vec<T>) -> Array {
        Array::new(dims, T::wrap(v))
    }

    pub fn scalar<T: Element>(v: T) -> Array {
        Array::new(Dims::new(), T::wrap(vec![v]))
    }

    pub fn zeros(dtype: DType, dims: impl AsRef<[i64]>) -> Array {
        let dims = Dims::from_slice(dims.as_ref());
        let n = dims.iter().product::<i64>().max(0) as usize;
        Array { dims, data: ArrayData::zeros(dtype, n) }
    }

    pub fn dtype(&self) -> DType {
        self.data.dtype()
    }

    pub fn shape(&self) -> ArrayShape {
        ArrayShape::new(self.dtype(), self.dims.clone())
    }

    pub fn len(&self) -> usize {
        self.data.len()
    }

    pub fn values<T: Element>(&self) -> Option<&[T]> {
        T::unwrap(&self.data)
    }
}

/// A borrowed dense array: element type, dimensions and the elements' bytes
/// (row-major, native byte order), owned by someone else: a caller's buffer
/// such as a NumPy array. Compiled backends read arguments through views, so a
/// host array of the right type and layout reaches the program without a copy.
/// Built only through [`ArrayView::new`] (which checks the byte count against
/// the dimensions and the alignment against the element type) or from an
/// [`Array`].
#[derive(Clone, Copy, Debug)]
pub struct ArrayView<'a> {
    dtype: DType,
    dims: &'a [i64],
    bytes: &'a [u8],
}

impl<'a> ArrayView<'a> {
    /// A view of `bytes` as `dtype[dims]`, or why it cannot be one: negative or
    /// overflowing dimensions, a byte count that does not match, or bytes not
    /// aligned to the element size.
    pub fn new(dtype: DType, dims: &'a [i64], bytes: &'a [u8]) -> Result<ArrayView<'a>, String> {
        let count = dims
            .iter()
            .try_fold(1usize, |n, &d| usize::try_from(d).ok().and_then(|d| n.checked_mul(d)))
            .ok_or_else(|| format!("invalid dimensions {dims:?}"))?;
        let want = count.checked_mul(dtype.byte_size()).ok_or_else(|| format!("dimensions {dims:?} overflow"))?;
        if bytes.len() != want {
            return Err(format!("{} bytes for {dtype}{dims:?} ({want} bytes)", bytes.len()));
        }
        if !bytes.is_empty() && !(bytes.as_ptr() as usize).is_multiple_of(dtype.byte_size()) {
            return Err(format!("data for {dtype}{dims:?} is not aligned to {} bytes", dtype.byte_size()));
        }
        Ok(ArrayView { dtype, dims, bytes })
    }

    pub fn dtype(&self) -> DType {
        self.dtype
    }

    pub fn dims(&self) -> &'a [i64] {
        self.dims
    }

    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    pub fn as_ptr(&self) -> *const u8 {
        self.bytes.as_ptr()
    }

    /// An owned copy.
    pub fn to_array(&self) -> Array {
        Array::new(self.dims, ArrayData::from_le_bytes(self.dtype, self.bytes))
    }
}

impl<'a> From<&'a Array> for ArrayView<'a> {
    fn from(a: &'a Array) -> ArrayView<'a> {
        let bytes: &[u8] = with_data!(&a.data, v => {
            // SAFETY: every element type is plain data without padding (bool is
            // one byte holding 0 or 1); the slice covers exactly `v`'s elements.
            unsafe { std::slice::from_raw_parts(v.as_ptr().cast::<u8>(), std::mem::size_of_val(v.as_slice())) }
        });
        ArrayView { dtype: a.dtype(), dims: a.dims.as_slice(), bytes }
    }
}

/// A value of any shape.
#[derive(Clone, Debug, PartialEq)]
pub enum Literal {
    Array(Array),
    Tuple(Vec<Literal>),
}

impl Literal {
    pub fn shape(&self) -> Shape {
        match self {
            Literal::Array(a) => Shape::Array(a.shape()),
            Literal::Tuple(t) => Shape::Tuple(t.iter().map(Literal::shape).collect()),
        }
    }

    pub fn as_array(&self) -> Option<&Array> {
        match self {
            Literal::Array(a) => Some(a),
            Literal::Tuple(_) => None,
        }
    }

    /// The array leaves in depth-first order.
    pub fn leaves(&self) -> Vec<&Array> {
        let mut out = Vec::new();
        fn walk<'a>(l: &'a Literal, out: &mut Vec<&'a Array>) {
            match l {
                Literal::Array(a) => out.push(a),
                Literal::Tuple(t) => t.iter().for_each(|e| walk(e, out)),
            }
        }
        walk(self, &mut out);
        out
    }

    /// Consumes the literal into its array leaves in depth-first order.
    pub fn into_leaves(self) -> Vec<Array> {
        let mut out = Vec::new();
        fn walk(l: Literal, out: &mut Vec<Array>) {
            match l {
                Literal::Array(a) => out.push(a),
                Literal::Tuple(t) => t.into_iter().for_each(|e| walk(e, out)),
            }
        }
        walk(self, &mut out);
        out
    }
}

impl From<Array> for Literal {
    fn from(a: Array) -> Literal {
        Literal::Array(a)
    }
}

/// Formats a float as XLA's `RoundTripFpToString` does: `%.{digits10}g` when that
/// reads back to the same value, `%.{max_digits10}g` otherwise; `inf`, `-inf`, `nan`.
pub fn format_float(value: f64, digits10: usize, max_digits10: usize, round_trips: impl Fn(&str) -> bool) -> String {
    if value.is_nan() {
        return if value.is_sign_negative() { "-nan".into() } else { "nan".into() };
    }
    if value.is_infinite() {
        return if value < 0.0 { "-inf".into() } else { "inf".into() };
    }
    let short = format_g(value, digits10);
    if round_trips(&short) { short } else { format_g(value, max_digits10) }
}

/// C's `%.{precision}g`.
pub fn format_g(value: f64, precision: usize) -> String {
    let precision = precision.max(1);
    if value == 0.0 {
        return if value.is_sign_negative() { "-0".into() } else { "0".into() };
    }
    let sci = format!("{:.*e}", precision - 1, value);
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if exp < -4 || exp >= precision as i32 {
        let mantissa = strip_zeros(mantissa);
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{mantissa}e{sign}{:02}", exp.abs())
    } else {
        let decimals = (precision as i32 - 1 - exp).max(0) as usize;
        strip_zeros(&format!("{value:.decimals$}")).to_string()
    }
}

fn strip_zeros(s: &str) -> &str {
    if s.contains('.') { s.trim_end_matches('0').trim_end_matches('.') } else { s }
}

/// Text of one element, as HLO constants print it.
pub fn format_element(data: &ArrayData, i: usize, scalar: bool) -> String {
    match data {
        ArrayData::Pred(v) => {
            if scalar {
                (if v[i] { "true" } else { "false" }).into()
            } else {
                (if v[i] { "1" } else { "0" }).into()
            }
        }
        ArrayData::S8(v) => v[i].to_string(),
        ArrayData::S16(v) => v[i].to_string(),
        ArrayData::S32(v) => v[i].to_string(),
        ArrayData::S64(v) => v[i].to_string(),
        ArrayData::U8(v) => v[i].to_string(),
        ArrayData::U16(v) => v[i].to_string(),
        ArrayData::U32(v) => v[i].to_string(),
        ArrayData::U64(v) => v[i].to_string(),
        ArrayData::F16(v) => {
            let x = v[i];
            format_float(x.to_f64(), 5, 5, |s| s.parse::<f64>().map(f16::from_f64) == Ok(x))
        }
        ArrayData::Bf16(v) => {
            let x = v[i];
            format_float(x.to_f64(), 4, 4, |s| s.parse::<f64>().map(bf16::from_f64) == Ok(x))
        }
        ArrayData::F32(v) => {
            let x = v[i];
            format_float(x as f64, 6, 9, |s| s.parse::<f32>() == Ok(x))
        }
        ArrayData::F64(v) => {
            let x = v[i];
            format_float(x, 15, 17, |s| s.parse::<f64>() == Ok(x))
        }
    }
}

impl fmt::Display for Array {
    /// The constant syntax: `1`, `{1, 2}`, `{ { 1, 2 }, { 3, 4 } }`, `{ {1} }`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_array(f, self, false)
    }
}

/// An array that stores complex values as parts (innermost dimension 2), shown in
/// the complex constant syntax: `(1, 0)`, `{(1, 0), (0, 1)}`.
pub struct ComplexText<'a>(pub &'a Array);

impl fmt::Display for ComplexText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_array(f, self.0, self.0.dims.last() == Some(&2))
    }
}

/// Writes `a` as constant text; `pairs`: its innermost dimension of 2 holds a
/// complex element's parts.
fn write_array(f: &mut fmt::Formatter<'_>, a: &Array, pairs: bool) -> fmt::Result {
    let dims = if pairs { &a.dims[..a.dims.len() - 1] } else { &a.dims[..] };
    let width = if pairs { 2 } else { 1 };
    let element = |f: &mut fmt::Formatter<'_>, at: usize, scalar: bool| {
        if pairs {
            write!(f, "({}, {})", format_element(&a.data, at, scalar), format_element(&a.data, at + 1, scalar))
        } else {
            f.write_str(&format_element(&a.data, at, scalar))
        }
    };
    if dims.is_empty() {
        return element(f, 0, true);
    }
    let total: usize = dims.iter().map(|&d| d as usize).product();
    if total == 0 {
        return f.write_str("{}");
    }
    fn rec(
        f: &mut fmt::Formatter<'_>,
        dims: &[i64],
        dim: usize,
        offset: usize,
        stride: usize,
        width: usize,
        element: &dyn Fn(&mut fmt::Formatter<'_>, usize, bool) -> fmt::Result,
    ) -> fmt::Result {
        let n = dims[dim] as usize;
        let inner = stride / n.max(1);
        let last = dim + 1 == dims.len();
        // XLA pads braces with spaces in arrays of rank >= 2, at every level
        // but an innermost one of at most one element (`{ {1} }`).
        let spaced = dims.len() > 1 && !(last && n <= 1);
        f.write_str(if spaced { "{ " } else { "{" })?;
        for k in 0..n {
            if k > 0 {
                f.write_str(", ")?;
            }
            if last {
                element(f, (offset + k) * width, false)?;
            } else {
                rec(f, dims, dim + 1, offset + k * inner, inner, width, element)?;
            }
        }
        f.write_str(if spaced { " }" } else { "}" })
    }
    rec(f, dims, 0, 0, total, width, &element)
}

impl fmt::Display for Literal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Literal::Array(a) => write!(f, "{a}"),
            Literal::Tuple(t) => {
                f.write_str("(")?;
                for (i, e) in t.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{e}")?;
                }
                f.write_str(")")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn array_views_check_size_and_alignment() {
        let a = Array::from_vec([2, 3], vec![1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0]);
        let v = ArrayView::from(&a);
        assert_eq!((v.dtype(), v.dims(), v.bytes().len()), (DType::F32, &[2i64, 3][..], 24));
        assert_eq!(v.to_array(), a);
        let bytes = v.bytes();
        assert!(ArrayView::new(DType::F32, &[2, 3], bytes).is_ok());
        assert_eq!(ArrayView::new(DType::F32, &[5], bytes).unwrap_err(), "24 bytes for f32[5] (20 bytes)");
        assert!(ArrayView::new(DType::F32, &[-1], bytes).unwrap_err().contains("invalid dimensions"));
        assert!(ArrayView::new(DType::F32, &[1], &bytes[1..5]).unwrap_err().contains("not aligned"));
        assert!(ArrayView::new(DType::F64, &[0, 4], &[]).is_ok());
        let p = Array::from_vec([3], vec![true, false, true]);
        assert_eq!(ArrayView::from(&p).to_array(), p);
    }

    #[test]
    #[allow(clippy::approx_constant, reason = "3.14159 is an input that rounds in f16, not pi")]
    fn floats_print_as_xla() {
        let f = |x: f32| format_element(&ArrayData::F32(vec![x]), 0, false);
        assert_eq!(f(1.0 / 6.0), "0.166666672");
        assert_eq!(f(-7.09525), "-7.09525");
        assert_eq!(f(-0.0), "-0");
        assert_eq!(f(1e-30), "1e-30");
        assert_eq!(f(3.4e38), "3.4e+38");
        assert_eq!(f(6.022_140_6e23), "6.02214064e+23");
        assert_eq!(f(f32::NEG_INFINITY), "-inf");
        let h = format_element(&ArrayData::F16(vec![f16::from_f32(3.14159)]), 0, false);
        assert_eq!(h, "3.1406");
        let b = format_element(&ArrayData::Bf16(vec![bf16::from_f32(65280.0)]), 0, false);
        assert_eq!(b, "6.528e+04");
    }

    #[test]
    fn nested_arrays_print_with_braces() {
        let a = Array::from_vec([2, 2], vec![1i32, 2, 3, 4]);
        assert_eq!(a.to_string(), "{ { 1, 2 }, { 3, 4 } }");
        assert_eq!(Array::scalar(true).to_string(), "true");
        assert_eq!(Array::from_vec([2], vec![true, false]).to_string(), "{1, 0}");
    }
}
