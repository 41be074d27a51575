//! What can go wrong while interpreting, and where.
//!
//! Every [`InterpError`] names the place: the computation, the instruction and
//! its opcode. Kernels report a [`Fail`] that knows nothing of instructions; the
//! evaluator attaches the location, so every message has the same shape whichever
//! kernel found the problem. Errors from a called computation (a while body, a
//! reducer) already carry their own location and pass through unchanged.

use smelt_hlo::{Computation, Instruction, Opcode};

/// An error evaluating a module. Unsupported input is reported apart from
/// malformed input; the interpreter never panics on either.
#[derive(Debug, thiserror::Error)]
pub enum InterpError {
    #[error("computation '{comp}' takes {expected} arguments, got {got}")]
    ArgumentCount { comp: String, expected: usize, got: usize },
    #[error("argument {index} of computation '{comp}' (parameter '{param}') must be {expected}, got {got}")]
    ArgumentShape { comp: String, index: usize, param: String, expected: String, got: String },
    /// An opcode, attribute value or element type the interpreter does not implement.
    #[error("unsupported {what} in instruction '{inst}' of computation '{comp}'")]
    Unsupported { comp: String, inst: String, opcode: Opcode, what: String },
    /// The module is malformed where evaluation ran into it (operand shapes that do
    /// not fit the opcode, attributes out of range, a declared shape that differs
    /// from the computed one, ...).
    #[error("invalid {opcode} instruction '{inst}' of computation '{comp}': {message}")]
    Invalid { comp: String, inst: String, opcode: Opcode, message: String },
    /// A value would be larger than [`crate::MAX_ELEMENTS`].
    #[error(
        "instruction '{inst}' ({opcode}) of computation '{comp}' would produce {elements} elements, more than the interpreter's limit of {limit}"
    )]
    TooLarge { comp: String, inst: String, opcode: Opcode, elements: u128, limit: usize },
    /// The parameters and result do not fit in the memory budget.
    #[error(transparent)]
    OverBudget(#[from] smelt_hlo::budget::BudgetError),
    /// Calls nest deeper than the interpreter allows (usually a computation that
    /// calls itself, which verified modules never do).
    #[error("calls nest deeper than {limit} levels at instruction '{inst}' of computation '{comp}'")]
    TooDeep { comp: String, inst: String, limit: usize },
    /// A while loop ran more iterations than [`crate::Options`] allow.
    #[error("while loop '{inst}' of computation '{comp}' ran more than {limit} iterations")]
    IterationLimit { comp: String, inst: String, limit: u64 },
    /// Complex values the module computes with that smelt cannot lower to their parts.
    #[error(transparent)]
    Complex(#[from] smelt_hlo::complex::ComplexError),
    /// A computation id that is not in the module.
    #[error("computation #{0} is not in the module")]
    NoSuchComputation(usize),
    /// A computation whose structure cannot be evaluated (dangling operands, cycles,
    /// parameter numbers with gaps).
    #[error("computation '{comp}' is malformed: {message}")]
    Malformed { comp: String, message: String },
}

/// A kernel's failure, before the evaluator knows which instruction it was.
#[derive(Debug)]
pub(crate) enum Fail {
    Unsupported(String),
    Invalid(String),
    TooLarge(u128),
    TooDeep(usize),
    IterationLimit(u64),
    /// An error from a called computation, already located.
    Nested(Box<InterpError>),
}

pub(crate) type KResult<T> = Result<T, Fail>;

impl From<InterpError> for Fail {
    fn from(e: InterpError) -> Fail {
        Fail::Nested(Box::new(e))
    }
}

impl Fail {
    /// The failure as a message, for callers outside any instruction.
    pub(crate) fn message(self) -> String {
        match self {
            Fail::Unsupported(what) => format!("unsupported: {what}"),
            Fail::Invalid(message) => message,
            Fail::TooLarge(elements) => format!("{elements} elements is more than the interpreter evaluates"),
            Fail::TooDeep(depth) => format!("calls nested {depth} deep"),
            Fail::IterationLimit(n) => format!("a loop ran past {n} iterations"),
            Fail::Nested(e) => e.to_string(),
        }
    }

    /// Attaches the instruction the failure happened in.
    pub(crate) fn locate(self, comp: &Computation, inst: &Instruction) -> InterpError {
        let comp_name = comp.name.clone();
        let inst_name = inst.name.clone();
        match self {
            Fail::Unsupported(what) => {
                InterpError::Unsupported { comp: comp_name, inst: inst_name, opcode: inst.opcode, what }
            }
            Fail::Invalid(message) => {
                InterpError::Invalid { comp: comp_name, inst: inst_name, opcode: inst.opcode, message }
            }
            Fail::TooLarge(elements) => InterpError::TooLarge {
                comp: comp_name,
                inst: inst_name,
                opcode: inst.opcode,
                elements,
                limit: crate::MAX_ELEMENTS,
            },
            Fail::TooDeep(limit) => InterpError::TooDeep { comp: comp_name, inst: inst_name, limit },
            Fail::IterationLimit(limit) => InterpError::IterationLimit { comp: comp_name, inst: inst_name, limit },
            Fail::Nested(e) => *e,
        }
    }
}

/// Returns early with [`Fail::Invalid`].
macro_rules! invalid {
    ($($t:tt)*) => {
        return Err($crate::error::Fail::Invalid(format!($($t)*)))
    };
}

/// Returns early with [`Fail::Unsupported`].
macro_rules! unsupported {
    ($($t:tt)*) => {
        return Err($crate::error::Fail::Unsupported(format!($($t)*)))
    };
}

pub(crate) use {invalid, unsupported};
