//! Module file formats beyond HLO text.
//!
//! Users hold programs in three forms: XLA's HLO text (read by
//! `smelt_hlo::text`), XLA's serialized `HloModuleProto` (what XLA's dumps and
//! TensorFlow's tooling write) and StableHLO MLIR text (what
//! `jax.jit(f).lower(x).as_text()` prints). This crate reads the latter two into
//! the same [`smelt_hlo::Module`] the text parser builds, so every later stage
//! (verifier, passes, backends) sees one IR, and writes the proto form back.
//! It sits at a leaf of the workspace: the protobuf machinery stays out of
//! `smelt-hlo`.
//!
//! [`proto`] reads and writes `HloModuleProto` (and reads the `HloProto` and
//! `HloSnapshot` wrappers XLA dumps); the protobuf types are generated at build
//! time from `proto/hlo.proto` by prost, with protox parsing the schema, so
//! building needs no `protoc`.

pub mod proto;

pub use proto::{ProtoError, read_proto, write_proto};
