//! smelt's HLO IR.
//!
//! Everything else in smelt stands on this crate: frontends produce a [`Module`],
//! passes rewrite it, backends compile it, the interpreter defines what it means.
//! It holds the IR types (typed arenas, [`DType`], [`Shape`], [`Literal`],
//! [`Instruction`] with one [`Opcode`] table and a closed [`Attrs`] enum), XLA's
//! text format ([`text`]), shape inference ([`shape_inference`]), the [`verifier`],
//! a [`builder`] for constructing modules in code, and `.npy` I/O ([`npy`]).
//! It depends on nothing heavy and builds in seconds.

pub mod attrs;
pub mod budget;
pub mod builder;
pub mod complex;
pub mod computation;
pub mod dtype;
pub mod id;
pub mod instruction;
pub mod literal;
pub mod module;
pub mod npy;
pub mod opcode;
pub mod random;
pub mod reducers;
pub mod shape;
pub mod shape_inference;
pub mod text;
pub mod verifier;

pub use attrs::Attrs;
pub use computation::Computation;
pub use dtype::DType;
pub use id::{Arena, Id, SecondaryMap};
pub use instruction::{CompId, Extras, InstId, Instruction};
pub use literal::{Array, ArrayData, ArrayView, Element, Literal};
pub use module::{Module, ModuleConfig};
pub use opcode::Opcode;
pub use shape::{ArrayShape, Dims, Layout, Shape};
pub use text::{ParseError, parse_module, print_module};
pub use verifier::{Verified, VerifyError, verify};
