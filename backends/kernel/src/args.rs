//! What every backend's executable checks of its arguments, written once: as
//! many arrays as the program has parameters, each of the parameter's element
//! type and dims. Backends map [`ArgumentError`] into their own error enum.

use smelt_hlo::DType;

use crate::ir::ArrayType;

/// Why arguments do not fit a program's parameters.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ArgumentError {
    #[error("expected {expected} arguments, got {got}")]
    Count { expected: usize, got: usize },
    #[error("parameter {index}: expected {expected}, got {got}")]
    Mismatch { index: usize, expected: String, got: String },
}

/// Checks arguments, given as `(element type, dims)`, against `params`.
pub fn check_arguments<'a>(
    params: &[ArrayType],
    args: impl ExactSizeIterator<Item = (DType, &'a [i64])>,
) -> Result<(), ArgumentError> {
    if args.len() != params.len() {
        return Err(ArgumentError::Count { expected: params.len(), got: args.len() });
    }
    for (index, ((dtype, dims), t)) in args.zip(params).enumerate() {
        if dtype != t.dtype || dims != t.dims.as_slice() {
            let got = ArrayType { dtype, dims: dims.to_vec() };
            return Err(ArgumentError::Mismatch { index, expected: t.to_string(), got: got.to_string() });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn count_then_each_parameter() {
        let params = [ArrayType { dtype: DType::F32, dims: vec![4] }, ArrayType { dtype: DType::S32, dims: vec![] }];
        let ok: [(DType, &[i64]); 2] = [(DType::F32, &[4]), (DType::S32, &[])];
        assert_eq!(check_arguments(&params, ok.into_iter()), Ok(()));
        let e = check_arguments(&params, ok[..1].iter().copied()).unwrap_err();
        assert_eq!(e.to_string(), "expected 2 arguments, got 1");
        let bad: [(DType, &[i64]); 2] = [(DType::F32, &[2, 2]), (DType::S32, &[])];
        let e = check_arguments(&params, bad.into_iter()).unwrap_err();
        assert_eq!(e.to_string(), "parameter 0: expected f32[4], got f32[2,2]");
    }
}
