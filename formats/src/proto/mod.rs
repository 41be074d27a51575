//! XLA's serialized `HloModuleProto`: read into a [`Module`], write back.
//!
//! XLA dumps modules as protobuf (`--xla_dump_hlo_as_proto`, TensorFlow's
//! tooling, `HloModule::ToProto`), so a user holding such a file should not need
//! XLA to turn it into text first. The reader builds the same [`Module`] the HLO
//! text parser builds for the same program: what the proto holds as typed fields
//! and smelt keeps as text ([`Extras`](smelt_hlo::Extras): metadata,
//! backend_config, frontend attributes, custom-call attributes, operand
//! precision) is rendered the way XLA prints it, so a proto and XLA's text dump of
//! the same module print identically. The writer does the reverse.
//!
//! Instructions and computations refer to each other by id in the proto; ids are
//! resolved per module (computations) and per computation (instructions), so the
//! order of definitions does not matter to the reader. The writer numbers things
//! as XLA does: computation `c`'s instruction `i` has id `c << 32 | i`, and
//! instructions and computations are written operands and callees first.
//!
//! What the proto cannot carry is dropped by the writer: header attributes
//! smelt does not model (XLA keeps `allow_spmd_sharding_propagation_*` in the
//! module config, not in the proto), `sharding=` forms other than those
//! `text.rs` reads (replicated, maximal, manual, tiled, tuples of these), and
//! instruction attributes that are neither modelled nor listed there.
//!
//! Malformed input (bad wire format, an unknown opcode or element type, a
//! dangling id, an attribute that does not fit its opcode) is a [`ProtoError`]
//! naming the instruction, never a panic; every allocation is bounded by the
//! input's size.

mod read;
mod text;
mod write;

/// The generated protobuf messages (`proto/hlo.proto`).
#[allow(clippy::all, clippy::pedantic, missing_docs, rust_2018_idioms)]
mod xla {
    include!(concat!(env!("OUT_DIR"), "/xla.rs"));
}

pub use read::read_proto;
pub use write::write_proto;

/// Why a file could not be read as an HLO module proto.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProtoError {
    /// The bytes are not protobuf of any of the accepted messages.
    #[error("not an HloModuleProto, HloProto or HloSnapshot: {0}")]
    Decode(String),
    /// The message decodes but holds no module.
    #[error("the file holds no HLO computations (not an HloModuleProto, HloProto or HloSnapshot?)")]
    Empty,
    /// A module-level problem (entry computation, header fields).
    #[error("module '{module}': {message}")]
    Module { module: String, message: String },
    /// A problem with a computation as a whole (root, names).
    #[error("computation '{computation}': {message}")]
    Computation { computation: String, message: String },
    /// A problem with one instruction.
    #[error("instruction '{name}' ({opcode}) in computation '{computation}': {message}")]
    Instruction { computation: String, name: String, opcode: String, message: String },
}
