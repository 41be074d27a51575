//! Reshape and transpose sinking (XLA's ReshapeMover).
//!
//! Contract: an elementwise instruction whose array operands are all the same
//! rearrangement (reshapes from equal dimensions, or transposes by the same
//! permutation) of equally shaped inputs, apart from operands that are trivially
//! rearranged (broadcasts of a scalar, constants whose elements are all equal, and
//! the scalar bounds of `clamp`), is rewritten to apply the elementwise op to the
//! inputs and rearrange its result once: `add(reshape(a), reshape(b))` becomes
//! `reshape(add(a, b))`. At least one operand must rearrange something other than a
//! constant or a scalar broadcast, and the op must not be a scalar. It moves only
//! when the rearrangements it reads die (every user of each one moves too, as in
//! XLA), so no rearrangement is duplicated. Repeated to a fixed point per
//! computation (at most `MAX_SWEEPS` sweeps), so rearrangements move toward the
//! root, where the algebraic simplifier can merge or cancel them
//! (`reshape(reshape(x))`, `transpose(transpose(x))`).
//!
//! Preserves every result: elementwise ops commute with moving elements. `copy`
//! (which exists to change layouts) and ops with side effects or control
//! predecessors are not moved through. The rewritten instruction's replacement
//! keeps its shape and layout. Rearrangements left unused are for DCE. Assumes a
//! verified module.

use std::collections::HashMap;

use smelt_hlo::shape_inference::infer_shape;
use smelt_hlo::{Array, ArrayShape, Dims, InstId, Module, Opcode, Shape};

use crate::pass::{PassContext, Result, Rewrite};
use crate::rewrite::{Rewriter, rewrite_each, splat};

pub struct ReshapeMover;

/// Sweeps over one computation before giving up on reaching a fixed point.
const MAX_SWEEPS: usize = 16;

impl Rewrite for ReshapeMover {
    const NAME: &'static str = "reshape-mover";

    fn rewrite(&mut self, module: &mut Module, cx: &mut PassContext) -> Result<bool> {
        let moved = rewrite_each(module, |mut rw| {
            let sweeps = (0..MAX_SWEEPS).map(|_| sweep(&mut rw));
            sweeps.take_while(|&moved| moved > 0).sum()
        });
        Ok(cx.counted("rearrangements_sunk", moved))
    }
}

/// A rearrangement: what must be equal for operands to share it.
#[derive(Clone, Debug, PartialEq)]
enum Rearrange {
    /// A reshape from these dimensions (to the elementwise op's dimensions).
    Reshape(Dims),
    /// A transpose by this permutation.
    Transpose(Dims),
}

/// How one operand of the elementwise op is rewritten.
enum Operand {
    /// A scalar bound of clamp: used as is.
    Scalar(InstId),
    /// A rearrangement of this input.
    Rearranged(InstId),
    /// A broadcast of this scalar: broadcast it to the input dimensions instead.
    Broadcast(InstId),
    /// A constant whose elements all equal this value.
    Splat(Array),
}

fn rearrangement(rw: &Rewriter<'_>, id: InstId) -> Option<Rearrange> {
    let inst = rw.inst(id);
    match inst.opcode {
        Opcode::Reshape => Some(Rearrange::Reshape(rw.dims(inst.operands[0]).into())),
        Opcode::Transpose => Some(Rearrange::Transpose(inst.attrs.dimensions().into())),
        _ => None,
    }
}

/// A broadcast of a scalar or a constant: rearranged for free, so moving a
/// rearrangement of it gains nothing.
fn trivially_rearranged(rw: &Rewriter<'_>, id: InstId) -> bool {
    let inst = rw.inst(id);
    match inst.opcode {
        Opcode::Constant => true,
        Opcode::Broadcast => rw.dims(inst.operands[0]).is_empty(),
        _ => false,
    }
}

/// Sinks every profitable candidate once; returns how many moved.
///
/// Moving pays when the rearrangements read die: a candidate is dropped while one
/// of its (non-trivial) rearranged operands has a user that is not a candidate (or
/// is the root), as XLA's ReshapeMover does, so rearrangements are not duplicated.
fn sweep(rw: &mut Rewriter<'_>) -> usize {
    let users = rw.comp.users();
    let order = rw.comp.post_order();
    let mut candidates: HashMap<InstId, Vec<InstId>> = order
        .iter()
        .filter(|&&id| !users[id].is_empty() || rw.comp.root == id)
        .filter_map(|&id| plan(rw, id).map(|p| (id, p.rearranged)))
        .collect();
    loop {
        let dropped: Vec<InstId> = candidates
            .iter()
            .filter(|(_, rearranged)| {
                rearranged.iter().any(|&r| rw.comp.root == r || users[r].iter().any(|u| !candidates.contains_key(u)))
            })
            .map(|(&id, _)| id)
            .collect();
        if dropped.is_empty() {
            break;
        }
        for id in dropped {
            candidates.remove(&id);
        }
    }
    let mut moved = 0;
    for id in order {
        if !candidates.contains_key(&id) || !rw.comp.insts.contains(id) {
            continue;
        }
        rw.begin(id);
        // Planned again: sinking earlier candidates may have changed the operands.
        match plan(rw, id).and_then(|p| apply(rw, id, p)) {
            Some(new) if rw.replace(id, new) => moved += 1,
            Some(_) => {}
            None => rw.discard_created(),
        }
    }
    moved
}

/// How to sink the rearrangement below one elementwise instruction.
struct Plan {
    operands: Vec<Operand>,
    common: Rearrange,
    /// The dimensions the op runs on once moved.
    in_dims: Dims,
    /// The operands that are rearrangements of something other than a constant or a
    /// scalar broadcast.
    rearranged: Vec<InstId>,
}

/// Whether `op(rearrange(inputs))` can become `rearrange(op(inputs))`, and how.
fn plan(rw: &Rewriter<'_>, id: InstId) -> Option<Plan> {
    let inst = rw.inst(id);
    let op = inst.opcode;
    if !op.is_elementwise()
        || op == Opcode::Copy
        || op.has_side_effect()
        || !inst.extras.control_predecessors.is_empty()
    {
        return None;
    }
    let out = inst.shape.as_array()?;
    // Scalar ops gain nothing from running on a degenerate array instead.
    if out.rank() == 0 {
        return None;
    }
    let mut rearranged = Vec::new();
    let mut common: Option<Rearrange> = None;
    let mut operands = Vec::with_capacity(inst.operands.len());
    for &o in &inst.operands {
        let o_inst = rw.inst(o);
        if rw.shape(o).as_array()?.rank() == 0 {
            operands.push(Operand::Scalar(o));
        } else if let Some(r) = rearrangement(rw, o) {
            if common.as_ref().is_some_and(|c| *c != r) {
                return None;
            }
            common = Some(r);
            let input = o_inst.operands[0];
            if !trivially_rearranged(rw, input) {
                rearranged.push(o);
            }
            operands.push(Operand::Rearranged(input));
        } else if o_inst.opcode == Opcode::Broadcast && rw.dims(o_inst.operands[0]).is_empty() {
            operands.push(Operand::Broadcast(o_inst.operands[0]));
        } else if o_inst.opcode == Opcode::Constant {
            operands.push(Operand::Splat(splat(rw.comp, o)?));
        } else {
            return None;
        }
    }
    let common = common?;
    if rearranged.is_empty() {
        return None;
    }
    let in_dims: Dims = match &common {
        Rearrange::Reshape(from) => from.clone(),
        Rearrange::Transpose(perm) => {
            let mut dims: Dims = smallvec::smallvec![0; perm.len()];
            for (i, &p) in perm.iter().enumerate() {
                *dims.get_mut(usize::try_from(p).ok()?)? = *out.dims.get(i)?;
            }
            dims
        }
    };
    Some(Plan { operands, common, in_dims, rearranged })
}

/// Builds `rearrange(op(inputs))` for a planned instruction.
fn apply(rw: &mut Rewriter<'_>, id: InstId, plan: Plan) -> Option<InstId> {
    let inst = rw.inst(id).clone();
    let out = inst.shape.as_array()?.clone();
    let in_dims = plan.in_dims;
    let mut new_operands = Vec::with_capacity(plan.operands.len());
    for o in plan.operands {
        new_operands.push(match o {
            Operand::Scalar(x) | Operand::Rearranged(x) => x,
            Operand::Broadcast(s) => rw.broadcast(s, &in_dims, &[])?,
            Operand::Splat(v) => {
                let n = usize::try_from(smelt_hlo::shape_inference::element_count(&in_dims)?).ok()?;
                let data = v.data.gather(&vec![0; n]);
                rw.constant(Array::new(&in_dims, data))
            }
        });
    }
    let declared = Shape::Array(ArrayShape::new(out.dtype, &in_dims));
    let shapes: Vec<&Shape> = new_operands.iter().map(|&o| rw.shape(o)).collect();
    let shape = infer_shape(inst.opcode, &shapes, &inst.attrs, &[], Some(&declared)).ok()?;
    let mut moved = inst;
    moved.operands = new_operands.into_iter().collect();
    moved.shape = shape;
    let moved = rw.add_inst(moved);
    match plan.common {
        Rearrange::Reshape(_) => rw.reshape(moved, &out.dims),
        Rearrange::Transpose(perm) => rw.transpose(moved, &perm),
    }
}
