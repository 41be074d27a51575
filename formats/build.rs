//! Generates the HLO protobuf types (`src/proto.rs` includes them) from
//! `proto/hlo.proto`. The .proto is parsed by protox, in Rust, so building
//! needs no `protoc`. Maps become `BTreeMap`s so that written files do not
//! depend on hash order.

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("cargo:rerun-if-changed=proto/hlo.proto");
    let descriptors = protox::compile(["hlo.proto"], ["proto"])?;
    prost_build::Config::new().btree_map(["."]).compile_fds(descriptors)?;
    Ok(())
}
