//! smelt's kernel form: the backend-neutral program every compiled backend renders.
//!
//! [`ir`] defines programs (steps over buffers placed by buffer assignment) and
//! elemental kernels (loop nests whose bodies are scalar expression graphs);
//! [`lower`](mod@lower) turns an optimized, scheduled module into a program;
//! [`verify`] checks a program and gives the [`VerifiedProgram`] every backend
//! takes; [`backend`] is the interface every compiled backend implements and
//! the registry they are found in by name; [`eval`] runs a program directly, slowly, to test the lowering
//! against the interpreter; [`ranges`] splits loop dimensions where concatenations and pads
//! change operand, so each piece is an affine loop. LLVM, Cranelift and PTX codegen render the same programs, so index
//! arithmetic and op semantics are derived once, here. Programs print (`Display`)
//! in a readable text form for dumps and debugging.

mod args;
pub mod backend;
mod division;
pub mod eval;
pub mod ir;
mod legalize;
pub mod lower;
mod print;
pub mod ranges;
mod sem;
mod verify;

#[cfg(test)]
mod tests;
pub mod work;

pub use args::{ArgumentError, check_arguments};
pub use backend::{
    Backend, BackendError, BackendOptions, Capabilities, CompileResult, Executable, Registry, Signature, StepProfile,
};
pub use ir::*;
pub use legalize::legalize;
pub use lower::builder::Builder;
pub use lower::{LowerError, LowerOptions, lower, lower_module, lower_module_with};
/// An integer wrapped into integer type `t`, as every backend computes it.
pub use sem::identity as combine_identity;
pub use sem::wrap as wrap_integer;
/// What a backend tells the fusion pass ([`Capabilities::fusion`]).
pub use smelt_passes::FusionConfig;
pub use verify::{InvalidProgram, VerifiedProgram, verify, verify_within};
pub use work::{ProgramWork, StepWork, WorkClass};
