//! Reading and writing NumPy `.npy` files (format versions 1-3, little-endian,
//! C order), the exchange format of the corpus and of `smelt run`.
//!
//! numpy has no bfloat16: bf16 arrays travel as `uint16` holding the raw bit
//! patterns, so reading takes the element type the caller expects and reinterprets
//! a `<u2` file as bf16 when asked to.

use std::path::Path;

use crate::dtype::DType;
use crate::literal::{Array, ArrayData};
use crate::shape::Dims;

#[derive(Debug, thiserror::Error)]
pub enum NpyError {
    #[error("{path}: {source}")]
    Io { path: String, source: std::io::Error },
    #[error("{path}: not a .npy file: {message}")]
    Format { path: String, message: String },
    #[error("{path}: holds {found}, expected {expected}")]
    Type { path: String, found: String, expected: String },
    #[error("{path}: {source}")]
    Budget { path: String, source: crate::budget::BudgetError },
}

/// The numpy `descr` of a dtype as smelt writes it (bf16 as raw `<u2`).
pub fn descr(dtype: DType) -> &'static str {
    match dtype {
        DType::Pred => "|b1",
        DType::S8 => "|i1",
        DType::S16 => "<i2",
        DType::S32 => "<i4",
        DType::S64 => "<i8",
        DType::U8 => "|u1",
        DType::U16 | DType::Bf16 => "<u2",
        DType::U32 => "<u4",
        DType::U64 => "<u8",
        DType::F16 => "<f2",
        DType::F32 => "<f4",
        DType::F64 => "<f8",
        DType::C64 => "<c8",
        DType::C128 => "<c16",
    }
}

fn dtype_of_descr(descr: &str) -> Option<DType> {
    let d = descr.trim_start_matches(['<', '|', '=']);
    Some(match d {
        "b1" | "?" => DType::Pred,
        "i1" => DType::S8,
        "i2" => DType::S16,
        "i4" => DType::S32,
        "i8" => DType::S64,
        "u1" => DType::U8,
        "u2" => DType::U16,
        "u4" => DType::U32,
        "u8" => DType::U64,
        "f2" => DType::F16,
        "f4" => DType::F32,
        "f8" => DType::F64,
        "c8" => DType::C64,
        "c16" => DType::C128,
        _ => return None,
    })
}

/// Encodes an array as `.npy` bytes.
pub fn to_bytes(a: &Array) -> Vec<u8> {
    to_bytes_as(a, a.dtype())
}

/// Encodes an array of type `dtype` as `.npy` bytes: for a complex `dtype`, `a`
/// holds the parts (its innermost dimension of 2) and the file a complex array;
/// any other `dtype` is `a`'s own.
pub fn to_bytes_as(a: &Array, dtype: DType) -> Vec<u8> {
    let pairs = dtype.is_complex() && dtype.component() == a.dtype() && a.dims.last() == Some(&2);
    let dtype = if pairs { dtype } else { a.dtype() };
    let dims = if pairs { &a.dims[..a.dims.len() - 1] } else { &a.dims[..] };
    let shape = match dims.len() {
        0 => "()".to_string(),
        1 => format!("({},)", dims[0]),
        _ => format!("({})", dims.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")),
    };
    let mut header = format!("{{'descr': '{}', 'fortran_order': False, 'shape': {shape}, }}", descr(dtype));
    // Magic (6) + version (2) + header length (2) + header, padded to 64 bytes with '\n' last.
    let unpadded = 10 + header.len() + 1;
    header.push_str(&" ".repeat((64 - unpadded % 64) % 64));
    header.push('\n');
    let mut out = Vec::with_capacity(10 + header.len() + a.len() * a.dtype().byte_size());
    out.extend_from_slice(b"\x93NUMPY\x01\x00");
    out.extend_from_slice(&(header.len() as u16).to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    out.extend_from_slice(&a.data.to_le_bytes());
    out
}

pub fn write(path: &Path, a: &Array) -> Result<(), NpyError> {
    write_as(path, a, a.dtype())
}

/// Writes `a` as an array of type `dtype` ([`to_bytes_as`]).
pub fn write_as(path: &Path, a: &Array, dtype: DType) -> Result<(), NpyError> {
    std::fs::write(path, to_bytes_as(a, dtype))
        .map_err(|source| NpyError::Io { path: path.display().to_string(), source })
}

/// Decodes `.npy` bytes. `want` is the element type the caller expects: a `uint16`
/// file is read as bf16 when `want` is bf16; otherwise the file's type is kept. A
/// complex file gives its parts: `complex64[n]` reads as `f32[n, 2]`.
pub fn from_bytes(bytes: &[u8], want: Option<DType>, path: &str) -> Result<Array, NpyError> {
    let fmt = |message: &str| NpyError::Format { path: path.to_string(), message: message.to_string() };
    if bytes.len() < 10 || &bytes[..6] != b"\x93NUMPY" {
        return Err(fmt("missing \\x93NUMPY magic"));
    }
    let (header_len, header_start): (usize, usize) = match bytes[6] {
        1 => (u16::from_le_bytes([bytes[8], bytes[9]]) as usize, 10),
        2 | 3 => {
            if bytes.len() < 12 {
                return Err(fmt("truncated header"));
            }
            (u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize, 12)
        }
        v => return Err(fmt(&format!("unsupported format version {v}"))),
    };
    let header_end =
        header_start.checked_add(header_len).filter(|&e| e <= bytes.len()).ok_or_else(|| fmt("truncated header"))?;
    let header = std::str::from_utf8(&bytes[header_start..header_end]).map_err(|_| fmt("header is not text"))?;
    let field = |key: &str| -> Option<&str> {
        let at = header.find(&format!("'{key}'"))?;
        let rest = header[at + key.len() + 2..].trim_start().strip_prefix(':')?.trim_start();
        Some(rest)
    };
    let descr_text = field("descr").ok_or_else(|| fmt("no descr"))?;
    let descr_text =
        descr_text.strip_prefix('\'').and_then(|s| s.split('\'').next()).ok_or_else(|| fmt("bad descr"))?;
    if descr_text.starts_with('>') && !descr_text.ends_with('1') {
        return Err(fmt("big-endian data is not supported"));
    }
    let file_dtype = dtype_of_descr(descr_text).ok_or_else(|| fmt(&format!("unsupported dtype '{descr_text}'")))?;
    if field("fortran_order").is_some_and(|v| v.starts_with("True")) {
        return Err(fmt("Fortran-order arrays are not supported"));
    }
    let shape_text = field("shape").ok_or_else(|| fmt("no shape"))?;
    let shape_text = shape_text.strip_prefix('(').and_then(|s| s.split(')').next()).ok_or_else(|| fmt("bad shape"))?;
    let mut dims = Dims::new();
    for part in shape_text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        dims.push(part.trim_end_matches('L').parse::<i64>().map_err(|_| fmt("bad shape"))?);
    }
    let dtype = match want {
        Some(DType::Bf16) if file_dtype == DType::U16 => DType::Bf16,
        _ => file_dtype,
    };
    if let Some(w) = want
        && w != dtype
    {
        return Err(NpyError::Type {
            path: path.to_string(),
            found: file_dtype.name().into(),
            expected: w.name().into(),
        });
    }
    let count = dims
        .iter()
        .try_fold(1usize, |acc, &d| acc.checked_mul(usize::try_from(d).ok()?))
        .ok_or_else(|| fmt("bad shape"))?;
    let need = count.checked_mul(dtype.byte_size()).ok_or_else(|| fmt("bad shape"))?;
    let body = &bytes[header_end..];
    if body.len() < need {
        return Err(fmt(&format!("data is truncated: {} bytes for {count} elements of {dtype}", body.len())));
    }
    let data = ArrayData::from_le_bytes(dtype, &body[..need]);
    if dtype.is_complex() {
        dims.push(2);
    }
    Ok(Array { dims, data })
}

/// Reads a `.npy` file, first checking that the file and the array decoded
/// from it (at most the file's size again) fit the memory budget.
pub fn read(path: &Path, want: Option<DType>) -> Result<Array, NpyError> {
    let io = |source| NpyError::Io { path: path.display().to_string(), source };
    let len = std::fs::metadata(path).map_err(io)?.len();
    crate::budget::check(u128::from(len) * 2, || "reading it and the array it holds".to_string())
        .map_err(|source| NpyError::Budget { path: path.display().to_string(), source })?;
    let bytes = std::fs::read(path).map_err(io)?;
    from_bytes(&bytes, want, &path.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use half::bf16;

    #[test]
    fn round_trips_every_dtype() {
        for dtype in DType::ALL {
            let a = Array::zeros(dtype, [2, 3]);
            let back = from_bytes(&to_bytes(&a), Some(dtype), "t").unwrap();
            assert_eq!(back, a);
            assert_eq!(to_bytes(&a).len() % 64, (2 * 3 * dtype.byte_size()) % 64);
        }
        for dtype in DType::COMPLEX {
            let parts = ArrayData::from_f64(dtype, (0..12).map(f64::from));
            let a = Array::new([2, 3, 2], parts);
            let bytes = to_bytes_as(&a, dtype);
            assert!(String::from_utf8_lossy(&bytes[10..74]).contains("'shape': (2, 3)"));
            assert_eq!(from_bytes(&bytes, Some(dtype), "t").unwrap(), a);
        }
        let s = Array::scalar(7i32);
        assert_eq!(from_bytes(&to_bytes(&s), None, "t").unwrap(), s);
    }

    #[test]
    fn bf16_is_read_from_uint16_bits() {
        let raw = Array::from_vec([2], vec![0x3f80u16, 0xc000]);
        let a = from_bytes(&to_bytes(&raw), Some(DType::Bf16), "t").unwrap();
        assert_eq!(a.values::<bf16>().unwrap(), &[bf16::from_f32(1.0), bf16::from_f32(-2.0)]);
    }

    #[test]
    fn truncated_file_is_an_error() {
        let a = Array::zeros(DType::F32, [4]);
        let bytes = to_bytes(&a);
        assert!(from_bytes(&bytes[..bytes.len() - 1], None, "t").is_err());
        assert!(from_bytes(&bytes[..20], None, "t").is_err());
        assert!(from_bytes(b"garbage", None, "t").is_err());
    }
}
