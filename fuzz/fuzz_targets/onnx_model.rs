//! libFuzzer target for the onnx model door: [`smelt::fuzz::onnx_model`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    smelt::fuzz::onnx_model(data);
});
