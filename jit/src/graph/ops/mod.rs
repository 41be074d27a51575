//! The op set: one [`OpDef`] per operator type, with its lowering rule to HLO
//! (TensorFlow's tf2xla kernels, as functions) and, for data-dependent ops,
//! its host implementation.
//!
//! Semantics are ONNX's (opsets 13 to 21) with numpy-style broadcasting; the
//! Rust Graph API uses the same names and attributes.

use smelt_hlo::{Array, DType};

use super::lower::{LowerCx, Val};
use super::{Node, Result};

/// Lowers one node: its inputs (None for omitted optional ones) to its outputs.
pub type LowerFn = fn(&mut LowerCx<'_>, &Node, &[Option<Val>]) -> Result<Vec<Val>>;

/// Runs one node on the host: its present inputs to its outputs.
pub type HostImpl = fn(&Node, &[Array]) -> Result<Vec<Array>>;

/// What smelt knows about one operator type.
pub struct OpDef {
    pub name: &'static str,
    /// The HLO rule; None for ops that only run on the host.
    pub lower: Option<LowerFn>,
    /// The host implementation (data-dependent output shapes, side effects);
    /// ops that have one are never clustered.
    pub host: Option<HostImpl>,
    /// Whether the node may be folded while lowering when all inputs are known.
    pub foldable: bool,
}

impl OpDef {
    /// Whether nodes of this type may join a cluster.
    pub fn compilable(&self) -> bool {
        self.lower.is_some() && self.host.is_none()
    }
}

/// The definition of `op`, if smelt supports it.
pub fn lookup(op: &str) -> Option<&'static OpDef> {
    OPS.iter().find(|d| d.name == op)
}

/// Every supported op type, for error messages and docs.
pub fn names() -> impl Iterator<Item = &'static str> {
    OPS.iter().map(|d| d.name)
}

/// ONNX's `TensorProto.DataType` codes as smelt dtypes (`Cast`'s `to`).
pub fn onnx_dtype(code: i64) -> Option<DType> {
    Some(match code {
        1 => DType::F32,
        2 => DType::U8,
        3 => DType::S8,
        4 => DType::U16,
        5 => DType::S16,
        6 => DType::S32,
        7 => DType::S64,
        9 => DType::Pred,
        10 => DType::F16,
        11 => DType::F64,
        12 => DType::U32,
        13 => DType::U64,
        16 => DType::Bf16,
        _ => return None,
    })
}

static OPS: &[OpDef] = &[];
