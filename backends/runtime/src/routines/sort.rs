//! Sorts and select-and-scatter driven by compiled scalar functions, and
//! random bits.
//!
//! The sort is the interpreter's stable merge sort (`smelt_interp::merge_sort`),
//! so every backend orders equal keys, NaNs and comparators that are not strict
//! weak orders the same way; only the comparator is compiled code. Elements
//! travel to compiled functions in 8-byte slots ([`super::ScalarFnPtr`]).

use smelt_hlo::DType;

use super::{RoutineError, ScalarFnPtr};

/// Reads element `i` of a buffer of type `t` into a slot.
///
/// # Safety
/// `p` holds more than `i` elements of type `t`.
unsafe fn slot(p: *const u8, t: DType, i: usize) -> u64 {
    let w = t.byte_size();
    let mut b = [0u8; 8];
    // SAFETY: the caller's contract.
    unsafe { std::ptr::copy_nonoverlapping(p.add(i * w), b.as_mut_ptr(), w) };
    u64::from_le_bytes(b)
}

/// Writes a slot's low bytes as element `i` of a buffer of type `t`.
///
/// # Safety
/// `p` holds more than `i` writable elements of type `t`.
unsafe fn store(p: *mut u8, t: DType, i: usize, v: u64) {
    let w = t.byte_size();
    // SAFETY: the caller's contract.
    unsafe { std::ptr::copy_nonoverlapping(v.to_le_bytes().as_ptr(), p.add(i * w), w) };
}

/// Sorts `inputs` (all of `dims`) together along `dimension` into `outputs`,
/// ordered by `less(a0, b0, a1, b1, ...)`.
///
/// # Safety
/// Every buffer holds `dims` elements of its type; outputs have their input's
/// type and may be the inputs themselves; `less` is a compiled function of
/// `2 * inputs.len()` arguments and one pred result.
pub unsafe fn sort(
    dims: &[i64],
    dimension: usize,
    inputs: &[(*const u8, DType)],
    outputs: &[*mut u8],
    less: ScalarFnPtr,
) -> Result<(), RoutineError> {
    if dimension >= dims.len() || inputs.len() != outputs.len() {
        return Err(RoutineError("sort: operands do not match its dimensions".into()));
    }
    let d: Vec<usize> = dims.iter().map(|&x| x.max(0) as usize).collect();
    let len = d[dimension];
    let stride: usize = d[dimension + 1..].iter().product();
    let outer: usize = d[..dimension].iter().product();
    let mut args = vec![0u64; 2 * inputs.len()];
    let mut result = [0u64; 1];
    let mut lines: Vec<Vec<u64>> = vec![Vec::with_capacity(len); inputs.len()];
    for o in 0..outer {
        for s in 0..stride {
            let at = |i: usize| (o * len + i) * stride + s;
            let perm = smelt_interp::merge_sort(len, &mut |a, b| -> Result<bool, RoutineError> {
                for (k, &(p, t)) in inputs.iter().enumerate() {
                    // SAFETY: `at(a)` and `at(b)` are inside the buffer.
                    unsafe {
                        args[2 * k] = slot(p, t, at(a));
                        args[2 * k + 1] = slot(p, t, at(b));
                    }
                }
                // SAFETY: `less` takes this many slots and writes one.
                unsafe { less(args.as_ptr(), result.as_mut_ptr()) };
                Ok(result[0] & 0xff != 0)
            })?;
            // Read every permuted line before writing any: outputs may alias inputs.
            for (line, &(p, t)) in lines.iter_mut().zip(inputs) {
                line.clear();
                // SAFETY: as above.
                line.extend(perm.iter().map(|&i| unsafe { slot(p, t, at(i)) }));
            }
            for ((line, &(_, t)), &q) in lines.iter().zip(inputs).zip(outputs) {
                for (i, &v) in line.iter().enumerate() {
                    // SAFETY: as above, for the output.
                    unsafe { store(q, t, at(i), v) };
                }
            }
        }
    }
    Ok(())
}

/// One dimension of a select-and-scatter window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    pub size: i64,
    pub stride: i64,
    pub pad_low: i64,
    pub window_dilation: i64,
    pub base_dilation: i64,
}

/// XLA's select-and-scatter: `out` starts as `init` everywhere; for each window
/// (one per `source` element, row-major) the selected position starts at the
/// window's first non-padding element and moves to each later one for which
/// `select(selected, candidate)` is false; then `out[selected] =
/// scatter(out[selected], source)`.
///
/// # Safety
/// `operand` and `out` hold `dims` elements of `t`, `source` holds one element
/// of `source_t` per window, `init` one element of `t`; `select` and `scatter`
/// are compiled functions of two arguments and one result.
pub unsafe fn select_and_scatter(
    dims: &[i64],
    window: &[Window],
    operand: (*const u8, DType),
    source: (*const u8, DType, &[i64]),
    init: *const u8,
    out: *mut u8,
    select: ScalarFnPtr,
    scatter: ScalarFnPtr,
) -> Result<(), RoutineError> {
    let (op, t) = operand;
    let (src, src_t, src_dims) = source;
    if window.len() != dims.len() || src_dims.len() != dims.len() {
        return Err(RoutineError("select-and-scatter: window does not match the operand".into()));
    }
    let n: usize = dims.iter().map(|&x| x.max(0) as usize).product();
    // SAFETY: the caller's contract on every buffer.
    unsafe {
        let init_v = slot(init, t, 0);
        for i in 0..n {
            store(out, t, i, init_v);
        }
        let mut strides = vec![1usize; dims.len()];
        for i in (0..dims.len().saturating_sub(1)).rev() {
            strides[i] = strides[i + 1] * dims[i + 1].max(0) as usize;
        }
        let sizes: Vec<usize> = window.iter().map(|w| w.size.max(0) as usize).collect();
        let mut res = [0u64; 1];
        let windows: usize = src_dims.iter().map(|&x| x.max(0) as usize).product();
        let mut o = vec![0i64; dims.len()];
        let mut w = vec![0usize; dims.len()];
        for s in 0..windows {
            let mut picked: Option<usize> = None;
            w.iter_mut().for_each(|x| *x = 0);
            let positions: usize = sizes.iter().product();
            'points: for _ in 0..positions {
                let mut off = 0usize;
                let mut valid = true;
                for (k, spec) in window.iter().enumerate() {
                    let p = o[k] * spec.stride - spec.pad_low + w[k] as i64 * spec.window_dilation;
                    if p < 0 || p % spec.base_dilation != 0 || p / spec.base_dilation >= dims[k] {
                        valid = false;
                        break;
                    }
                    off += (p / spec.base_dilation) as usize * strides[k];
                }
                if valid {
                    picked = Some(match picked {
                        None => off,
                        Some(p) => {
                            let args = [slot(op, t, p), slot(op, t, off)];
                            select(args.as_ptr(), res.as_mut_ptr());
                            if res[0] & 0xff != 0 { p } else { off }
                        }
                    });
                }
                for k in (0..w.len()).rev() {
                    w[k] += 1;
                    if w[k] < sizes[k] {
                        continue 'points;
                    }
                    w[k] = 0;
                }
            }
            if let Some(p) = picked {
                let args = [slot(out, t, p), slot(src, src_t, s)];
                scatter(args.as_ptr(), res.as_mut_ptr());
                store(out, t, p, res[0]);
            }
            for k in (0..o.len()).rev() {
                o[k] += 1;
                if o[k] < src_dims[k] {
                    break;
                }
                o[k] = 0;
            }
        }
    }
    Ok(())
}

/// `rng-bit-generator` on a `u64[n]` state: the interpreter's generators (one
/// definition of XLA's bit streams), written into the two outputs.
///
/// # Safety
/// `state` and `new_state` hold `state_len` u64s; `bits` holds `bits_dims`
/// elements of `bits_t`.
pub unsafe fn rng_bit_generator(
    algorithm: smelt_hlo::attrs::RngAlgorithm,
    state: *const u8,
    state_len: usize,
    new_state: *mut u8,
    bits: *mut u8,
    bits_t: DType,
    bits_dims: &[i64],
) -> Result<(), RoutineError> {
    // SAFETY: the caller's contract.
    let s: Vec<u64> = (0..state_len).map(|i| unsafe { slot(state, DType::U64, i) }).collect();
    let state_array = smelt_hlo::Array::from_vec([s.len() as i64], s);
    let shape = smelt_hlo::ArrayShape::new(bits_t, bits_dims);
    let result = smelt_interp::rng_bit_generator(algorithm, &state_array, &shape)
        .map_err(|e| RoutineError(format!("rng-bit-generator: {e}")))?;
    let [new_value, bits_value] = result.leaves()[..] else {
        return Err(RoutineError("rng-bit-generator gave no (state, bits) pair".into()));
    };
    let (nb, bb) = (new_value.data.to_le_bytes(), bits_value.data.to_le_bytes());
    // SAFETY: the caller's contract on sizes.
    unsafe {
        std::ptr::copy_nonoverlapping(nb.as_ptr(), new_state, nb.len().min(state_len * 8));
        std::ptr::copy_nonoverlapping(bb.as_ptr(), bits, bb.len());
    }
    Ok(())
}
