//! The instruction: one struct for every opcode.
//!
//! What an instruction computes is its opcode, operands, called computations and
//! [`Attrs`]; its shape is stored (XLA's text states it) and the verifier checks it
//! against shape inference. Everything XLA attaches for tooling (metadata,
//! backend_config, frontend_attributes, sharding, attributes smelt does not model)
//! lives in [`Extras`], printed back verbatim and ignored by semantics.

use smallvec::SmallVec;

use crate::attrs::Attrs;
use crate::computation::Computation;
use crate::id::Id;
use crate::opcode::Opcode;
use crate::shape::Shape;

pub type InstId = Id<Instruction>;
pub type CompId = Id<Computation>;

/// Attributes kept for tooling and round trips, not for semantics.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Extras {
    /// Text inside `metadata={...}`.
    pub metadata: Option<String>,
    /// Value of `backend_config=` as written (`{...}` JSON or a quoted string).
    pub backend_config: Option<String>,
    /// Value of `frontend_attributes=` as written (`{...}`).
    pub frontend_attributes: Option<String>,
    /// Value of `sharding=` as written (`{...}`).
    pub sharding: Option<String>,
    /// Instructions that must run before this one although no data flows.
    pub control_predecessors: Vec<InstId>,
    /// Attributes smelt does not model, `(name, value text)` in written order.
    pub unknown: Vec<(String, String)>,
}

impl Extras {
    pub fn is_empty(&self) -> bool {
        *self == Extras::default()
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Instruction {
    pub name: String,
    pub opcode: Opcode,
    pub shape: Shape,
    pub operands: SmallVec<[InstId; 2]>,
    /// Called computations; their role follows from the opcode: `to_apply`
    /// (call, map, reduce, reduce-window, scatter, sort), `calls` (fusion,
    /// custom-call), `condition, body` (while), `select, scatter`
    /// (select-and-scatter), branches in order (conditional).
    pub called: SmallVec<[CompId; 1]>,
    pub attrs: Attrs,
    pub extras: Box<Extras>,
}

impl Instruction {
    pub fn new(
        name: impl Into<String>,
        opcode: Opcode,
        shape: Shape,
        operands: &[InstId],
        attrs: Attrs,
    ) -> Instruction {
        Instruction {
            name: name.into(),
            opcode,
            shape,
            operands: operands.iter().copied().collect(),
            called: SmallVec::new(),
            attrs,
            extras: Box::default(),
        }
    }

    pub fn with_called(mut self, called: &[CompId]) -> Instruction {
        self.called = called.iter().copied().collect();
        self
    }

    pub fn operand(&self, i: usize) -> InstId {
        self.operands[i]
    }

    /// `parameter(N)`'s number.
    pub fn parameter_number(&self) -> Option<u32> {
        match self.attrs {
            Attrs::Parameter(n) => Some(n),
            _ => None,
        }
    }

    /// The computation named by `to_apply=` (or `calls=`), if the opcode has one.
    pub fn to_apply(&self) -> Option<CompId> {
        self.called.first().copied()
    }

    /// `kind`-free check: does this instruction do no work at run time?
    pub fn is_trivial(&self) -> bool {
        matches!(
            self.opcode,
            Opcode::Parameter | Opcode::Constant | Opcode::Tuple | Opcode::GetTupleElement | Opcode::Bitcast
        )
    }
}
