//! Shapes: dense arrays with a layout, and tuples of shapes.
//!
//! Dimensions are logical (row-major index order, as HLO semantics define them). The
//! layout says how an array is laid out physically (`minor_to_major`, as XLA prints
//! `{1,0}`); smelt's passes and backends produce the default descending layout, and
//! layouts read from text are kept so modules print back as they came.

use std::fmt;

use smallvec::SmallVec;

use crate::dtype::DType;

pub type Dims = SmallVec<[i64; 4]>;

/// Physical layout of an array: dimension numbers from most minor to most major.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Layout {
    pub minor_to_major: Dims,
    /// Layout details smelt does not model (tiling `:T(8,128)`, memory space `S(1)`),
    /// kept verbatim so they print back.
    pub extra: Option<Box<str>>,
}

impl Layout {
    /// Row-major: the last dimension is the most minor.
    pub fn descending(rank: usize) -> Layout {
        Layout { minor_to_major: (0..rank as i64).rev().collect(), extra: None }
    }

    pub fn is_descending(&self) -> bool {
        self.extra.is_none() && self.minor_to_major.iter().rev().copied().eq(0..self.minor_to_major.len() as i64)
    }
}

/// The shape of a dense array.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ArrayShape {
    pub dtype: DType,
    pub dims: Dims,
    pub layout: Layout,
}

impl ArrayShape {
    /// An array shape with the default (row-major) layout.
    pub fn new(dtype: DType, dims: impl AsRef<[i64]>) -> ArrayShape {
        let dims = Dims::from_slice(dims.as_ref());
        let layout = Layout::descending(dims.len());
        ArrayShape { dtype, dims, layout }
    }

    pub fn scalar(dtype: DType) -> ArrayShape {
        ArrayShape::new(dtype, Dims::new())
    }

    pub fn rank(&self) -> usize {
        self.dims.len()
    }

    /// Number of elements (1 for a scalar). Saturates instead of overflowing.
    pub fn element_count(&self) -> usize {
        self.dims.iter().fold(1usize, |acc, &d| acc.saturating_mul(d.max(0) as usize))
    }

    pub fn byte_size(&self) -> usize {
        self.element_count().saturating_mul(self.dtype.byte_size())
    }

    /// Same element type and dimensions, whatever the layouts.
    pub fn same_type(&self, other: &ArrayShape) -> bool {
        self.dtype == other.dtype && self.dims == other.dims
    }

    /// Whether an array of this shape holds its elements in memory in the
    /// row-major order of `other`'s (both row-major, or the same dimensions and
    /// layout): a reshape or bitcast between the two only renames storage.
    pub fn same_element_order(&self, other: &ArrayShape) -> bool {
        self.layout.is_descending() && other.layout.is_descending()
            || self.dims == other.dims && self.layout == other.layout
    }

    pub fn with_dtype(&self, dtype: DType) -> ArrayShape {
        ArrayShape { dtype, dims: self.dims.clone(), layout: self.layout.clone() }
    }

    /// The shape of the array that stores values of this shape: a complex shape's
    /// parts (`c64[3]` is stored as `f32[3,2]`, the pair innermost); any other
    /// shape is its own storage.
    pub fn storage(&self) -> ArrayShape {
        if !self.dtype.is_complex() {
            return self.clone();
        }
        let mut dims = self.dims.clone();
        dims.push(2);
        let mut minor_to_major: Dims = smallvec::smallvec![self.dims.len() as i64];
        minor_to_major.extend(self.layout.minor_to_major.iter().copied());
        ArrayShape { dtype: self.dtype.component(), dims, layout: Layout { minor_to_major, extra: None } }
    }

    /// Row-major strides in elements.
    pub fn strides(&self) -> Dims {
        let mut strides: Dims = smallvec::smallvec![1; self.dims.len()];
        for i in (0..self.dims.len().saturating_sub(1)).rev() {
            strides[i] = strides[i + 1] * self.dims[i + 1];
        }
        strides
    }
}

/// An HLO shape: an array or a (possibly nested) tuple.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    Array(ArrayShape),
    Tuple(Vec<Shape>),
}

impl Shape {
    pub fn array(dtype: DType, dims: impl AsRef<[i64]>) -> Shape {
        Shape::Array(ArrayShape::new(dtype, dims))
    }

    pub fn scalar(dtype: DType) -> Shape {
        Shape::Array(ArrayShape::scalar(dtype))
    }

    pub fn as_array(&self) -> Option<&ArrayShape> {
        match self {
            Shape::Array(a) => Some(a),
            Shape::Tuple(_) => None,
        }
    }

    pub fn is_tuple(&self) -> bool {
        matches!(self, Shape::Tuple(_))
    }

    pub fn tuple_elements(&self) -> &[Shape] {
        match self {
            Shape::Tuple(t) => t,
            Shape::Array(_) => &[],
        }
    }

    /// Same structure, element types and dimensions, whatever the layouts.
    pub fn same_type(&self, other: &Shape) -> bool {
        match (self, other) {
            (Shape::Array(a), Shape::Array(b)) => a.same_type(b),
            (Shape::Tuple(a), Shape::Tuple(b)) => a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.same_type(y)),
            _ => false,
        }
    }

    /// [`ArrayShape::storage`] of every leaf.
    pub fn storage(&self) -> Shape {
        match self {
            Shape::Array(a) => Shape::Array(a.storage()),
            Shape::Tuple(t) => Shape::Tuple(t.iter().map(Shape::storage).collect()),
        }
    }

    /// Whether any leaf has a complex element type.
    pub fn has_complex(&self) -> bool {
        self.leaves().iter().any(|a| a.dtype.is_complex())
    }

    /// The array leaves in depth-first order (a flattened tuple).
    pub fn leaves(&self) -> Vec<&ArrayShape> {
        let mut out = Vec::new();
        fn walk<'a>(s: &'a Shape, out: &mut Vec<&'a ArrayShape>) {
            match s {
                Shape::Array(a) => out.push(a),
                Shape::Tuple(t) => t.iter().for_each(|e| walk(e, out)),
            }
        }
        walk(self, &mut out);
        out
    }

    /// The subshape at a tuple index path (`{}` is the shape itself).
    pub fn subshape(&self, index: &[i64]) -> Option<&Shape> {
        let mut s = self;
        for &i in index {
            s = s.tuple_elements().get(usize::try_from(i).ok()?)?;
        }
        Some(s)
    }

    /// Total bytes of all array leaves.
    pub fn byte_size(&self) -> usize {
        self.leaves().iter().map(|a| a.byte_size()).sum()
    }

    /// The same shape with every layout reset to row-major.
    pub fn with_default_layout(&self) -> Shape {
        match self {
            Shape::Array(a) => Shape::Array(ArrayShape::new(a.dtype, a.dims.clone())),
            Shape::Tuple(t) => Shape::Tuple(t.iter().map(Shape::with_default_layout).collect()),
        }
    }
}

impl From<ArrayShape> for Shape {
    fn from(a: ArrayShape) -> Shape {
        Shape::Array(a)
    }
}

impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("{")?;
        write_list(f, &self.minor_to_major)?;
        if let Some(extra) = &self.extra {
            write!(f, ":{extra}")?;
        }
        f.write_str("}")
    }
}

impl fmt::Display for ArrayShape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}[", self.dtype)?;
        write_list(f, &self.dims)?;
        f.write_str("]")?;
        if !self.dims.is_empty() || self.layout.extra.is_some() {
            write!(f, "{}", self.layout)?;
        }
        Ok(())
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Shape::Array(a) => write!(f, "{a}"),
            Shape::Tuple(elems) => {
                f.write_str("(")?;
                for (i, e) in elems.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                        if i % 5 == 0 {
                            write!(f, "/*index={i}*/")?;
                        }
                    }
                    write!(f, "{e}")?;
                }
                f.write_str(")")
            }
        }
    }
}

/// Writes `a,b,c` with no spaces, as XLA prints dimension lists.
pub(crate) fn write_list(f: &mut impl fmt::Write, items: &[i64]) -> fmt::Result {
    for (i, d) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(",")?;
        }
        write!(f, "{d}")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_as_xla() {
        assert_eq!(Shape::array(DType::F32, [4, 8]).to_string(), "f32[4,8]{1,0}");
        assert_eq!(Shape::scalar(DType::Pred).to_string(), "pred[]");
        let t = Shape::Tuple((0..6).map(|_| Shape::scalar(DType::S32)).collect());
        assert_eq!(t.to_string(), "(s32[], s32[], s32[], s32[], s32[], /*index=5*/s32[])");
    }

    #[test]
    fn strides_are_row_major() {
        assert_eq!(ArrayShape::new(DType::F32, [2, 3, 4]).strides().as_slice(), &[12, 4, 1]);
    }
}
