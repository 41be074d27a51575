//! smelt's integration tests, in one binary to keep link time down.
//!
//! Each module covers one contract: the text round trip over the corpus, corpus
//! conformance of the interpreter and of the kernel form (lowering and its
//! evaluator), `smelt aot` objects through their C ABI, the CLI's output and exit
//! codes, robustness of the parser and verifier against mutated input, and
//! compile time that grows about linearly with the program (`scaling`).

mod aot;
mod cli;
mod common;
mod compiled;
mod compiled_prop;
mod fuzz;
mod gpu;
mod grad;
mod interp;
mod kernel;
mod onnx;
mod pipeline_prop;
mod roundtrip;
mod scaling;
mod train;
mod verify;
