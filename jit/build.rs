//! Generates the ONNX protobuf types (`src/onnx/`) from `proto/onnx.proto`.
//! The .proto is parsed by protox, in Rust, so building needs no `protoc`.

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("cargo:rerun-if-changed=proto/onnx.proto");
    let descriptors = protox::compile(["onnx.proto"], ["proto"])?;
    // Weights' bytes as `Bytes`: decoding a memory-mapped model slices them
    // out of the mapping instead of copying them.
    prost_build::Config::new().bytes([".onnx.TensorProto.raw_data"]).compile_fds(descriptors)?;
    Ok(())
}
