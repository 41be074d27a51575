//! smelt's integration tests, in one binary to keep link time down.
//!
//! Each module covers one contract: the text round trip over the corpus, corpus
//! conformance of the interpreter and of the kernel form (lowering and its
//! evaluator), `smelt aot` objects through their C ABI, the CLI's output and exit
//! codes, and robustness of the parser and verifier against mutated input.

mod aot;
mod cli;
mod common;
mod compiled;
mod compiled_prop;
mod fuzz;
mod gpu;
mod interp;
mod kernel;
mod onnx;
mod pipeline_prop;
mod roundtrip;
mod verify;
