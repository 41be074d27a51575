//! [`Buffer`]: a dense host array, the unit executables take and return.
//!
//! A buffer is a [`smelt_hlo::Array`] (typed elements in row-major order, with
//! dimensions) behind a checked API: building one from host data checks the
//! element count against the shape, and reading it back checks the element
//! type. It is `repr(transparent)` over the array, so runs hand the backends
//! references to the caller's data without copying.

use smelt_hlo::{Array, ArrayData, DType, Element};

use crate::JitError;

/// A dense array on the host: element type, dimensions and data.
///
/// Element types map to Rust types as `f32`, `f64`, `half::f16`, `half::bf16`,
/// `i8`..`i64`, `u8`..`u64`, and `bool` for `pred`.
#[derive(Clone, Debug, PartialEq)]
#[repr(transparent)]
pub struct Buffer(Array);

impl Buffer {
    /// A buffer of shape `dims` holding a copy of `data` (row-major).
    pub fn from_slice<T: Element>(dims: &[i64], data: &[T]) -> Result<Buffer, JitError> {
        Buffer::from_vec(dims, data.to_vec())
    }

    /// A buffer of shape `dims` owning `data` (row-major).
    pub fn from_vec<T: Element>(dims: &[i64], data: Vec<T>) -> Result<Buffer, JitError> {
        let n = element_count(dims)?;
        if n != data.len() {
            return Err(JitError::Buffer(format!(
                "{} elements for shape {}[{}] ({n} elements)",
                data.len(),
                T::DTYPE,
                dims_text(dims)
            )));
        }
        Ok(Buffer(Array::new(dims, T::wrap(data))))
    }

    /// A scalar (rank-0) buffer.
    pub fn scalar<T: Element>(value: T) -> Buffer {
        Buffer(Array::scalar(value))
    }

    /// A zero-filled buffer.
    pub fn zeros(dtype: DType, dims: &[i64]) -> Result<Buffer, JitError> {
        element_count(dims)?;
        Ok(Buffer(Array::zeros(dtype, dims)))
    }

    /// Wraps an array (checked: the element count must match the dimensions).
    pub fn from_array(array: Array) -> Result<Buffer, JitError> {
        let n = element_count(&array.dims)?;
        if n != array.data.len() {
            return Err(JitError::Buffer(format!(
                "array of {} elements for dimensions [{}]",
                array.data.len(),
                dims_text(&array.dims)
            )));
        }
        Ok(Buffer(array))
    }

    /// Views an array as a buffer without copying. The array must be
    /// consistent (as every array smelt makes is); runs check shapes anyway.
    pub fn from_array_ref(array: &Array) -> &Buffer {
        // SAFETY: `Buffer` is `repr(transparent)` over `Array`.
        unsafe { &*(array as *const Array as *const Buffer) }
    }

    pub fn into_array(self) -> Array {
        self.0
    }

    pub fn as_array(&self) -> &Array {
        &self.0
    }

    pub fn dtype(&self) -> DType {
        self.0.dtype()
    }

    pub fn dims(&self) -> &[i64] {
        &self.0.dims
    }

    pub fn len(&self) -> usize {
        self.0.data.len()
    }

    /// The elements, if they are of type `T`.
    pub fn as_slice<T: Element>(&self) -> Result<&[T], JitError> {
        self.0.values::<T>().ok_or_else(|| self.type_error::<T>())
    }

    /// A copy of the elements, if they are of type `T`.
    pub fn to_vec<T: Element>(&self) -> Result<Vec<T>, JitError> {
        self.as_slice::<T>().map(<[T]>::to_vec)
    }

    /// The elements, if they are of type `T`, without copying.
    pub fn into_vec<T: Element>(self) -> Result<Vec<T>, JitError> {
        let e = self.type_error::<T>();
        let mut data = self.0.data;
        T::unwrap_mut(&mut data).map(std::mem::take).ok_or(e)
    }

    /// The raw data.
    pub fn data(&self) -> &ArrayData {
        &self.0.data
    }

    /// `f32[2,3]`.
    pub fn type_text(&self) -> String {
        format!("{}[{}]", self.dtype(), dims_text(&self.0.dims))
    }

    fn type_error<T: Element>(&self) -> JitError {
        JitError::Buffer(format!("read as {} but holds {}", T::DTYPE, self.type_text()))
    }
}

impl From<Array> for Buffer {
    fn from(a: Array) -> Buffer {
        Buffer(a)
    }
}

impl From<Buffer> for Array {
    fn from(b: Buffer) -> Array {
        b.0
    }
}

fn element_count(dims: &[i64]) -> Result<usize, JitError> {
    dims.iter().try_fold(1usize, |n, &d| {
        usize::try_from(d)
            .ok()
            .and_then(|d| n.checked_mul(d))
            .ok_or_else(|| JitError::Buffer(format!("invalid dimensions [{}]", dims_text(dims))))
    })
}

pub(crate) fn dims_text(dims: &[i64]) -> String {
    dims.iter().map(i64::to_string).collect::<Vec<_>>().join(",")
}
