//! The input doors, one function each, as the fuzzers call them.
//!
//! Every way bytes from outside reach smelt has one function here that takes
//! the bytes and goes as deep as that door goes without a code generator (LLVM
//! is too slow for millions of inputs; the structured differential fuzzer in
//! the tests covers the backends). A door returns how far the input got; it
//! must never panic, abort or overflow the stack, whatever the bytes. The
//! `cargo fuzz` targets in `fuzz/` and the fixed-seed runs in
//! `tests/it/fuzz.rs` call the same functions, so a crash found by one is
//! replayed by the other.

use smelt_hlo::npy;
use smelt_hlo::{Array, DType, parse_module, verify};
use smelt_jit::graph::{Dim, Graph, NodeKind, Session, SessionOptions};
use smelt_jit::{Client, ClientOptions};

/// How far an input got through its door.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Reached {
    /// Refused while reading the bytes (syntax, format, checksum).
    Decode,
    /// Read, but refused as a program (verifier, importer, shape rules).
    Check,
    /// Accepted, then refused further in (optimizer, lowering, a run).
    Deeper,
    /// Went all the way through.
    Through,
}

/// HLO text: parse, verify, the default middle end, lowering to the kernel
/// form and its verifier.
pub fn hlo_text(data: &[u8]) -> Reached {
    let Ok(text) = std::str::from_utf8(data) else { return Reached::Decode };
    let Ok(module) = parse_module(text) else { return Reached::Decode };
    middle_end(module)
}

/// StableHLO text: the StableHLO reader (syntax and lowering to HLO), then as
/// [`hlo_text`].
pub fn stablehlo_text(data: &[u8]) -> Reached {
    let Ok(text) = std::str::from_utf8(data) else { return Reached::Decode };
    let Ok(module) = smelt_formats::parse_stablehlo(text) else { return Reached::Decode };
    middle_end(module)
}

/// A serialized `HloModuleProto` (or `HloProto`, `HloSnapshot`): the proto
/// reader, then as [`hlo_text`].
pub fn hlo_proto(data: &[u8]) -> Reached {
    let Ok(module) = smelt_formats::read_proto(data) else { return Reached::Decode };
    middle_end(module)
}

/// Verify, the default middle end, lowering to the kernel form and its verifier.
fn middle_end(mut module: smelt_hlo::Module) -> Reached {
    if verify(&module).is_err() {
        return Reached::Check;
    }
    let mut cx = smelt_passes::PassContext::new(smelt_passes::Options::default());
    if crate::engine::optimize(&mut module, crate::engine::default_pipeline("cpu"), &mut cx).is_err() {
        return Reached::Deeper;
    }
    match smelt_kernel::lower_module(&module) {
        Ok(program) if smelt_kernel::verify(&program).is_ok() => Reached::Through,
        _ => Reached::Deeper,
    }
}

/// Elements a fuzzed ONNX run may feed or hold, so one input stays quick.
const ONNX_RUN_ELEMENTS: u64 = 1 << 16;

/// An ONNX `ModelProto`: decode and import; then, when the inputs are small,
/// run the graph on the interpreter with zeros fed (symbolic dimensions 1).
pub fn onnx_model(data: &[u8]) -> Reached {
    let model = match smelt_jit::onnx::decode(data) {
        Ok(m) => m,
        Err(_) => return Reached::Decode,
    };
    let Ok(graph) = smelt_jit::onnx::import(&model) else { return Reached::Check };
    let Some(feeds) = zero_feeds(&graph) else { return Reached::Deeper };
    if graph.nodes.iter().any(|n| matches!(&n.kind, NodeKind::Constant(a) if a.len() as u64 > ONNX_RUN_ELEMENTS)) {
        return Reached::Deeper;
    }
    let Some(client) = interp_client() else { return Reached::Deeper };
    let outputs = graph.outputs.clone();
    let session = Session::with_client(graph, SessionOptions::default(), client);
    let feeds: Vec<(&str, Array)> = feeds.iter().map(|(n, a)| (n.as_str(), a.clone())).collect();
    let fetches: Vec<&str> = outputs.iter().map(String::as_str).collect();
    match session.run(&feeds, &fetches) {
        Ok(_) => Reached::Through,
        Err(_) => Reached::Deeper,
    }
}

/// One interpreter client for every fuzzed model (its process cache is
/// bounded), with no disk cache.
fn interp_client() -> Option<Client> {
    static CLIENT: std::sync::OnceLock<Option<Client>> = std::sync::OnceLock::new();
    CLIENT
        .get_or_init(|| {
            let options = ClientOptions { no_disk_cache: true, ..ClientOptions::default() };
            Client::with_options(smelt_jit::INTERP, options).ok()
        })
        .clone()
}

/// Zeros for every graph input, or None when they would be too large.
fn zero_feeds(graph: &Graph) -> Option<Vec<(String, Array)>> {
    let mut total = 0u64;
    let mut feeds = Vec::new();
    for name in &graph.inputs {
        let id = graph.find(name)?;
        let NodeKind::Placeholder { dtype, dims } = &graph.node(id).kind else { return None };
        let dims: Vec<i64> = dims.iter().map(|d| if let Dim::Fixed(n) = d { *n } else { 1 }).collect();
        let elements = dims.iter().try_fold(1u64, |acc, &d| acc.checked_mul(u64::try_from(d).ok()?))?;
        total = total.checked_add(elements)?;
        if total > ONNX_RUN_ELEMENTS {
            return None;
        }
        feeds.push((name.clone(), Array::zeros(*dtype, dims)));
    }
    Some(feeds)
}

/// A `.npy` file, read as its own element type and as bf16 (the one requested
/// reinterpretation).
pub fn npy(data: &[u8]) -> Reached {
    let plain = npy::from_bytes(data, None, "fuzz.npy");
    let bf16 = npy::from_bytes(data, Some(DType::Bf16), "fuzz.npy");
    match (plain, bf16) {
        (Ok(a), _) if npy::from_bytes(&npy::to_bytes(&a), None, "again.npy").is_ok() => Reached::Through,
        (Ok(_), _) | (_, Ok(_)) => Reached::Deeper,
        _ => Reached::Decode,
    }
}

/// A JIT disk-cache entry: the header checks (under the key the header names),
/// and the compiled-object reader on the same bytes as a payload, since the
/// checksum keeps random bytes from reaching it through the header. (Loading
/// the object code itself is not fuzzed: an entry whose checksum holds is
/// code this build wrote, and whoever can write the cache can run code.)
pub fn cache_entry(data: &[u8]) -> Reached {
    let object = smelt_cpu::CompiledObject::from_bytes(data).is_ok();
    let mut key = [0u8; 32];
    if let Some(k) = data.get(12..44) {
        key.copy_from_slice(k);
    }
    match smelt_jit::decode_cache_entry(data, &smelt_jit::key::Key(key)) {
        Ok(payload) if smelt_cpu::CompiledObject::from_bytes(payload).is_ok() => Reached::Through,
        Ok(_) => Reached::Check,
        Err(_) if object => Reached::Deeper,
        Err(_) => Reached::Decode,
    }
}
