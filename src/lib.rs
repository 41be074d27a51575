//! smelt: an XLA-style ahead-of-time and JIT tensor compiler.
//!
//! This facade re-exports the workspace crates under short names and holds the
//! pieces the CLI and the tests share: case folders and output comparison
//! ([`case`]), the streaming-bandwidth yardstick
//! ([`stream`]), the allocator the binary runs with ([`alloc`]) and the input
//! doors the fuzzers drive ([`fuzz`]). Programs that compile for the CPU
//! call [`prebuilt::register`] first, to find the routine families built into
//! the binary.

pub use smelt_aot as aot;
pub use smelt_cpu as cpu;
pub use smelt_cranelift as cranelift;
pub use smelt_formats as formats;
pub use smelt_gpu as gpu;
pub use smelt_hlo as hlo;
pub use smelt_interp as interp;
pub use smelt_jit as jit;
pub use smelt_kernel as kernel;
pub use smelt_passes as passes;
pub use smelt_prebuilt as prebuilt;

pub mod alloc;
pub mod case;
pub mod engine;
pub mod fuzz;
pub mod stream;
pub mod viz;
