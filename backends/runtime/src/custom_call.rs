//! `smelt_custom_call`: how compiled code runs a library routine
//! (`smelt_linalg`'s LAPACK targets). The program carries the checked call as
//! its spec text (`smelt_linalg::Call::spec`), which is all the routine needs
//! and survives the persistent caches; the buffers come as one array of
//! pointers, operands then results.

use smelt_linalg::Call;

/// `i32 smelt_custom_call(ptr spec, i64 spec_len, ptr bufs)`.
pub const CUSTOM_CALL_SYMBOL: &str = "smelt_custom_call";

/// Runs the call `spec` on `bufs`; 0 on success, 1 when the spec does not
/// parse or the routine fails (the program then stops with that status).
///
/// # Safety
/// `spec` points to `spec_len` bytes; `bufs` to one pointer per operand and
/// result of the call, each to a buffer of the size its type gives, results
/// not overlapping anything else.
unsafe extern "C" fn smelt_custom_call(spec: *const u8, spec_len: i64, bufs: *const *mut u8) -> i32 {
    let outcome = std::panic::catch_unwind(|| {
        // SAFETY: the caller passes `spec_len` readable bytes.
        let text = unsafe { std::slice::from_raw_parts(spec, spec_len.max(0) as usize) };
        let call = Call::from_spec(std::str::from_utf8(text).map_err(|e| e.to_string())?).map_err(|e| e.to_string())?;
        run(&call, bufs).map_err(|e| e.to_string())
    });
    match outcome {
        Ok(Ok(())) => 0,
        _ => 1,
    }
}

/// Runs `call` on the buffers `bufs` points to.
fn run(call: &Call, bufs: *const *mut u8) -> Result<(), smelt_linalg::LinalgError> {
    let bytes = smelt_linalg::byte_size;
    let (ins, outs) = (call.operand_types(), call.result_types());
    // SAFETY: the caller passes one pointer per operand and result.
    let ptrs = unsafe { std::slice::from_raw_parts(bufs, ins.len() + outs.len()) };
    // SAFETY: each pointer addresses a buffer of its type's size; results do
    // not alias operands or each other.
    let inputs: Vec<&[u8]> =
        ins.iter().zip(ptrs).map(|(t, &p)| unsafe { std::slice::from_raw_parts(p as *const u8, bytes(t)) }).collect();
    let mut outputs: Vec<&mut [u8]> = outs
        .iter()
        .zip(&ptrs[ins.len()..])
        .map(|(t, &p)| unsafe { std::slice::from_raw_parts_mut(p, bytes(t)) })
        .collect();
    call.run(&inputs, &mut outputs)
}

pub fn custom_call_address() -> usize {
    smelt_custom_call as *const () as usize
}
