//! `TensorProto` to [`Array`]: raw little-endian bytes or the typed fields.
//!
//! ONNX stores every integer type narrower than 32 bits, bool, float16 and
//! bfloat16 (as bit patterns) in `int32_data`, uint32 and uint64 in
//! `uint64_data`; `raw_data`, when present, wins and holds the elements
//! little-endian in row-major order.

use half::{bf16, f16};
use smelt_hlo::{Array, ArrayData, DType};

use super::proto::{TensorProto, tensor_proto};
use crate::graph::ops::onnx_dtype;

/// The smelt dtype of an ONNX `TensorProto.DataType` code, or a message naming it.
pub fn dtype(code: i32) -> Result<DType, String> {
    onnx_dtype(code.into()).ok_or_else(|| match tensor_proto::DataType::try_from(code) {
        Ok(t) => format!("element type {} is not supported", t.as_str_name()),
        Err(_) => format!("unknown element type code {code}"),
    })
}

/// A serialized `TensorProto` (a backend-test `input_0.pb`): its name and value.
pub fn decode_bytes(bytes: &[u8]) -> Result<(String, Array), String> {
    use prost::Message;
    let t = TensorProto::decode(bytes).map_err(|e| format!("not a TensorProto: {e}"))?;
    let a = decode(&t)?;
    Ok((t.name, a))
}

/// Decodes a tensor; the error message does not name the tensor (callers do).
pub fn decode(t: &TensorProto) -> Result<Array, String> {
    decode_releasing(t, &mut |_| {})
}

/// [`decode`], calling `copied` with each piece of `raw_data` (a few MB) once
/// its elements are read, so the caller can hand the source's pages back.
pub fn decode_releasing(t: &TensorProto, copied: &mut dyn FnMut(&[u8])) -> Result<Array, String> {
    const CHUNK: usize = 8 << 20;
    if t.data_location == tensor_proto::DataLocation::External as i32 || !t.external_data.is_empty() {
        let location = t.external_data.iter().find(|e| e.key == "location").map_or("", |e| e.value.as_str());
        return Err(format!(
            "data is stored outside the model (external data '{location}'), which smelt does not load; \
             save the model with its weights inside"
        ));
    }
    let dtype = dtype(t.data_type)?;
    let mut count: usize = 1;
    for &d in &t.dims {
        let d = usize::try_from(d).map_err(|_| format!("negative dimension {d} in {:?}", t.dims))?;
        count = count.checked_mul(d).ok_or_else(|| format!("dimensions {:?} overflow", t.dims))?;
    }
    let data = if !t.raw_data.is_empty() {
        let need = count.checked_mul(dtype.byte_size()).ok_or_else(|| format!("dimensions {:?} overflow", t.dims))?;
        if t.raw_data.len() != need {
            return Err(format!("raw_data holds {} bytes, {count} elements of {dtype} need {need}", t.raw_data.len()));
        }
        ArrayData::from_le_bytes_chunked(dtype, &t.raw_data, CHUNK, copied)
    } else {
        typed(t, dtype)?
    };
    if data.len() != count {
        return Err(format!("holds {} elements, its dimensions {:?} need {count}", data.len(), t.dims));
    }
    Ok(Array::new(&t.dims, data))
}

/// The elements from the typed field `dtype` is stored in.
fn typed(t: &TensorProto, dtype: DType) -> Result<ArrayData, String> {
    let i32s = &t.int32_data;
    let u64s = &t.uint64_data;
    Ok(match dtype {
        DType::F32 => ArrayData::F32(t.float_data.clone()),
        DType::F64 => ArrayData::F64(t.double_data.clone()),
        DType::S64 => ArrayData::S64(t.int64_data.clone()),
        DType::S32 => ArrayData::S32(i32s.clone()),
        DType::S16 => ArrayData::S16(i32s.iter().map(|&v| v as i16).collect()),
        DType::S8 => ArrayData::S8(i32s.iter().map(|&v| v as i8).collect()),
        DType::U16 => ArrayData::U16(i32s.iter().map(|&v| v as u16).collect()),
        DType::U8 => ArrayData::U8(i32s.iter().map(|&v| v as u8).collect()),
        DType::Pred => ArrayData::Pred(i32s.iter().map(|&v| v != 0).collect()),
        DType::F16 => ArrayData::F16(i32s.iter().map(|&v| f16::from_bits(v as u16)).collect()),
        DType::Bf16 => ArrayData::Bf16(i32s.iter().map(|&v| bf16::from_bits(v as u16)).collect()),
        DType::U32 => ArrayData::U32(u64s.iter().map(|&v| v as u32).collect()),
        DType::U64 => ArrayData::U64(u64s.clone()),
        DType::C64 | DType::C128 => return Err(format!("complex tensors ({dtype}) are not supported")),
    })
}

/// [`encode`], serialized (a backend-test `output_0.pb`).
pub fn encode_bytes(name: &str, array: &Array) -> Vec<u8> {
    use prost::Message;
    encode(name, array).encode_to_vec()
}

/// A tensor of `dtype` holding `array` in `raw_data` (for tests and tools that write models).
pub fn encode(name: &str, array: &Array) -> TensorProto {
    let code = (1..=16).find(|&c| onnx_dtype(c) == Some(array.dtype())).unwrap_or(0);
    TensorProto {
        name: name.to_string(),
        dims: array.dims.to_vec(),
        data_type: code as i32,
        raw_data: array.data.to_le_bytes().into(),
        ..TensorProto::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn proto(dims: &[i64], data_type: tensor_proto::DataType) -> TensorProto {
        TensorProto { dims: dims.to_vec(), data_type: data_type as i32, ..TensorProto::default() }
    }

    #[test]
    fn raw_and_typed_fields_agree() {
        use tensor_proto::DataType as T;
        let cases: Vec<(T, Array, Box<dyn Fn(&mut TensorProto)>)> = vec![
            (T::Float, Array::from_vec([2], vec![1.5f32, -2.0]), Box::new(|t| t.float_data = vec![1.5, -2.0])),
            (T::Double, Array::from_vec([2], vec![0.25f64, 3.0]), Box::new(|t| t.double_data = vec![0.25, 3.0])),
            (T::Int64, Array::from_vec([1, 2], vec![-7i64, 9]), Box::new(|t| t.int64_data = vec![-7, 9])),
            (T::Int32, Array::from_vec([2], vec![-7i32, 9]), Box::new(|t| t.int32_data = vec![-7, 9])),
            (T::Int16, Array::from_vec([2], vec![-300i16, 9]), Box::new(|t| t.int32_data = vec![-300, 9])),
            (T::Int8, Array::from_vec([2], vec![-7i8, 9]), Box::new(|t| t.int32_data = vec![-7, 9])),
            (T::Uint8, Array::from_vec([2], vec![200u8, 9]), Box::new(|t| t.int32_data = vec![200, 9])),
            (T::Uint16, Array::from_vec([2], vec![60000u16, 9]), Box::new(|t| t.int32_data = vec![60000, 9])),
            (
                T::Uint32,
                Array::from_vec([1], vec![4_000_000_000u32]),
                Box::new(|t| t.uint64_data = vec![4_000_000_000]),
            ),
            (T::Uint64, Array::from_vec([1], vec![u64::MAX]), Box::new(|t| t.uint64_data = vec![u64::MAX])),
            (T::Bool, Array::from_vec([3], vec![true, false, true]), Box::new(|t| t.int32_data = vec![1, 0, 1])),
            (
                T::Float16,
                Array::from_vec([2], vec![f16::from_f32(1.5), f16::from_f32(-0.25)]),
                Box::new(|t| {
                    t.int32_data = vec![f16::from_f32(1.5).to_bits() as i32, f16::from_f32(-0.25).to_bits() as i32]
                }),
            ),
            (
                T::Bfloat16,
                Array::from_vec([1], vec![bf16::from_f32(3.0)]),
                Box::new(|t| t.int32_data = vec![bf16::from_f32(3.0).to_bits() as i32]),
            ),
            (T::Float, Array::from_vec([0, 3], Vec::<f32>::new()), Box::new(|_| {})),
            (T::Int64, Array::from_vec([], vec![5i64]), Box::new(|t| t.int64_data = vec![5])),
        ];
        for (ty, want, fill) in cases {
            let mut t = proto(&want.dims, ty);
            fill(&mut t);
            assert_eq!(decode(&t).unwrap(), want, "typed {ty:?}");
            let mut raw = proto(&want.dims, ty);
            raw.raw_data = want.data.to_le_bytes().into();
            assert_eq!(decode(&raw).unwrap(), want, "raw {ty:?}");
            assert_eq!(decode(&encode("t", &want)).unwrap(), want, "encode {ty:?}");
        }
    }

    #[test]
    fn bad_tensors_are_errors() {
        use tensor_proto::DataType as T;
        let mut t = proto(&[3], T::Float);
        t.raw_data = vec![0; 8].into();
        assert_eq!(decode(&t).unwrap_err(), "raw_data holds 8 bytes, 3 elements of f32 need 12");
        let mut t = proto(&[3], T::Float);
        t.float_data = vec![1.0];
        assert_eq!(decode(&t).unwrap_err(), "holds 1 elements, its dimensions [3] need 3");
        assert_eq!(decode(&proto(&[1], T::String)).unwrap_err(), "element type STRING is not supported");
        assert_eq!(decode(&proto(&[-1], T::Float)).unwrap_err(), "negative dimension -1 in [-1]");
        let mut t = proto(&[1], T::Float);
        t.data_location = tensor_proto::DataLocation::External as i32;
        assert!(decode(&t).unwrap_err().contains("outside the model"));
    }
}
