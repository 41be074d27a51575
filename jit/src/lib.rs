//! smelt's embedding API: compile HLO modules once, run them many times.
//!
//! ```no_run
//! use smelt_jit::{Buffer, Client, CompileOptions};
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let module = smelt_hlo::parse_module(&std::fs::read_to_string("module.hlo")?)?;
//! let client = Client::new("tiered")?;
//! let exe = client.compile(&module, &CompileOptions::default())?;
//! let x = Buffer::from_slice(&[4], &[1.0f32, 2.0, 3.0, 4.0])?;
//! let outputs = exe.run(&[&x, &x])?;
//! println!("{:?} {}", outputs[0].as_slice::<f32>()?, client.stats());
//! # Ok(()) }
//! ```
//!
//! A [`Client`] owns the caches for one backend ([`INTERP`], [`TIERED`], or a
//! compiled backend of the [`registry`] by name): an in-memory LRU keyed by
//! a fingerprint of the module's canonical text (names and metadata ignored),
//! argument types, backend, options, host CPU and smelt version, with single
//! flight (concurrent requests for one key compile once); an opt-in persistent
//! cache of LLVM object code shared across processes (`SMELT_CACHE_DIR`);
//! tiered compilation (Cranelift code at once, LLVM code from a background
//! thread as soon as it is ready); and TensorFlow's recompilation policy (a
//! program family compiled for too many rarely-run signatures is interpreted
//! instead). [`Function`] is the launch handle whose cache hit is a hash-map
//! lookup on the argument types. `docs/jit.md` describes all of it.
//!
//! Code map: `client` (the client, options, [`Function`]), `registry` (the
//! compiled backends by name), `stats` (counters), `key`
//! (canonical text, fingerprints), `cache` (LRU and single flight), `disk`
//! (the persistent cache's files and their bound), `executable` (tiers),
//! `first_tier` (which tier runs first), `policy`
//! (megamorphic families), `buffer` (host arrays), `error`.

mod buffer;
mod cache;
mod client;
mod disk;
mod error;
mod executable;
mod first_tier;
pub mod graph;
pub mod key;
pub mod npz;
pub mod onnx;
mod policy;
mod registry;
mod stats;

pub use buffer::Buffer;
pub use client::{Baseline, Client, ClientOptions, CompileOptions, Function, INTERP, TIERED, backend_names};
pub use disk::FORMAT_VERSION as DISK_FORMAT_VERSION;
pub use disk::{DiskCache, DiskStats, decode as decode_cache_entry, encode as encode_cache_entry};
pub use error::JitError;
pub use executable::{Executable, Tier};
pub use key::ArgType;
pub use policy::Policy;
pub use registry::registry;
pub use smelt_hlo::{Array, DType, Element};
pub use smelt_kernel::ArgumentError;
pub use stats::Stats;

/// Locks a mutex, ignoring poisoning: every critical section here leaves its
/// data consistent, so a panic elsewhere is no reason to fail.
pub(crate) fn lock<T>(m: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}
