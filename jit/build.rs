//! Generates the ONNX protobuf types (`src/onnx/`) from `proto/onnx.proto`.
//! The .proto is parsed by protox, in Rust, so building needs no `protoc`.
//!
//! Also sets `SMELT_BUILD_ID`: a hash of the compiler's sources (every `.rs`
//! file of the crates between a module and its machine code, and
//! `Cargo.lock`, which pins LLVM's bindings). The persistent JIT cache keys
//! entries by it, so a rebuilt smelt whose version number did not change
//! (a `git pull` and rebuild) never runs code an older compiler made.

use std::hash::Hasher;
use std::path::{Path, PathBuf};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("cargo:rerun-if-changed=proto/onnx.proto");
    let descriptors = protox::compile(["onnx.proto"], ["proto"])?;
    // Weights' bytes as `Bytes`: decoding a memory-mapped model slices them
    // out of the mapping instead of copying them.
    prost_build::Config::new().bytes([".onnx.TensorProto.raw_data"]).compile_fds(descriptors)?;
    println!("cargo:rustc-env=SMELT_BUILD_ID={:016x}", build_id());
    Ok(())
}

/// A hash of the sources that decide what the JIT compiles a module into.
fn build_id() -> u64 {
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default()).join("..");
    let mut files = Vec::new();
    for dir in ["hlo/src", "passes/src", "backends", "jit/src"] {
        let dir = root.join(dir);
        println!("cargo:rerun-if-changed={}", dir.display());
        sources(&dir, &mut files);
    }
    let lock = root.join("Cargo.lock");
    println!("cargo:rerun-if-changed={}", lock.display());
    files.push(lock);
    files.sort();
    // SipHash with fixed keys: the same sources give the same id.
    let mut h = std::hash::DefaultHasher::new();
    for f in files {
        if let Ok(bytes) = std::fs::read(&f) {
            h.write(f.strip_prefix(&root).unwrap_or(&f).to_string_lossy().as_bytes());
            h.write_usize(bytes.len());
            h.write(&bytes);
        }
    }
    h.finish()
}

/// Every `.rs` file under `dir`.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}
