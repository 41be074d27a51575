//! Reshape and transpose sinking (XLA's ReshapeMover).
//!
//! Contract: an elementwise instruction whose array operands are all the same
//! rearrangement (reshapes from equal dimensions, or transposes by the same
//! permutation) of equally shaped inputs, apart from operands that are trivially
//! rearranged (broadcasts of a scalar, constants whose elements are all equal, and
//! the scalar bounds of `clamp`), is rewritten to apply the elementwise op to the
//! inputs and rearrange its result once: `add(reshape(a), reshape(b))` becomes
//! `reshape(add(a, b))`. At least one operand must rearrange something other than a
//! constant or a scalar broadcast, and the op must not be a scalar. Repeated
//! to a fixed point per computation (at most `MAX_SWEEPS` sweeps), so
//! rearrangements move toward the root, where the algebraic simplifier can merge or
//! cancel them (`reshape(reshape(x))`, `transpose(transpose(x))`).
//!
//! Preserves every result: elementwise ops commute with moving elements. `copy`
//! (which exists to change layouts) and ops with side effects or control
//! predecessors are not moved through. The rewritten instruction's replacement
//! keeps its shape and layout. Rearrangements left unused are for DCE. Assumes a
//! verified module.

use smelt_hlo::module::NameUniquer;
use smelt_hlo::shape_inference::infer_shape;
use smelt_hlo::{Array, ArrayShape, CompId, Dims, InstId, Module, Opcode, Shape};

use crate::pass::{Pass, PassContext, Result};
use crate::rewrite::{Rewriter, splat};

#[derive(Debug, Default)]
pub struct ReshapeMover;

/// Sweeps over one computation before giving up on reaching a fixed point.
const MAX_SWEEPS: usize = 16;

impl Pass for ReshapeMover {
    fn name(&self) -> &'static str {
        "reshape-mover"
    }

    fn run(&mut self, module: &mut Module, cx: &mut PassContext) -> Result<bool> {
        let mut names = NameUniquer::new(module);
        let entry = module.entry;
        let mut moved = 0;
        let comp_ids: Vec<CompId> = module.comps.ids().collect();
        for cid in comp_ids {
            let mut rw = Rewriter::new(module.comp_mut(cid), &mut names, cid == entry);
            for _ in 0..MAX_SWEEPS {
                let users = rw.comp.users();
                let mut changed = false;
                for id in rw.comp.post_order() {
                    if !rw.comp.insts.contains(id) || (users[id].is_empty() && rw.comp.root != id) {
                        continue;
                    }
                    rw.begin(id);
                    match sink(&mut rw, id) {
                        Some(new) if rw.replace(id, new) => {
                            moved += 1;
                            changed = true;
                        }
                        Some(_) => {}
                        None => rw.discard_created(),
                    }
                }
                if !changed {
                    break;
                }
            }
        }
        if moved > 0 {
            cx.count("rearrangements_sunk", moved);
        }
        Ok(moved > 0)
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

/// `rearrange(op(inputs))` for `op(rearrange(inputs))`, when it applies.
fn sink(rw: &mut Rewriter<'_>, id: InstId) -> Option<InstId> {
    let inst = rw.inst(id).clone();
    let op = inst.opcode;
    if !op.is_elementwise()
        || op == Opcode::Copy
        || op.has_side_effect()
        || !inst.extras.control_predecessors.is_empty()
    {
        return None;
    }
    let out = inst.shape.as_array()?.clone();
    // Scalar ops gain nothing from running on a degenerate array instead.
    if out.rank() == 0 {
        return None;
    }
    let mut nontrivial = false;
    let mut common: Option<Rearrange> = None;
    let mut operands = Vec::with_capacity(inst.operands.len());
    for &o in &inst.operands {
        let o_shape = rw.shape(o).as_array()?;
        if o_shape.rank() == 0 && out.rank() > 0 {
            operands.push(Operand::Scalar(o));
        } else if let Some(r) = rearrangement(rw, o) {
            if common.as_ref().is_some_and(|c| *c != r) {
                return None;
            }
            common = Some(r);
            let input = rw.inst(o).operands[0];
            nontrivial |= !trivially_rearranged(rw, input);
            operands.push(Operand::Rearranged(input));
        } else if rw.inst(o).opcode == Opcode::Broadcast
            && rw.dims(rw.inst(o).operands[0]).is_empty()
        {
            operands.push(Operand::Broadcast(rw.inst(o).operands[0]));
        } else if rw.inst(o).opcode == Opcode::Constant {
            operands.push(Operand::Splat(splat(rw.comp, o)?));
        } else {
            return None;
        }
    }
    let common = common?;
    if !nontrivial {
        return None;
    }
    // The dimensions the elementwise op runs on once moved.
    let in_dims: Dims = match &common {
        Rearrange::Reshape(from) => from.clone(),
        Rearrange::Transpose(perm) => {
            let mut dims: Dims = smallvec::smallvec![0; perm.len()];
            for (i, &p) in perm.iter().enumerate() {
                *dims.get_mut(usize::try_from(p).ok()?)? = out.dims[i];
            }
            dims
        }
    };
    let mut new_operands = Vec::with_capacity(operands.len());
    for o in operands {
        new_operands.push(match o {
            Operand::Scalar(x) | Operand::Rearranged(x) => x,
            Operand::Broadcast(s) => rw.broadcast(s, &in_dims, &[])?,
            Operand::Splat(v) => {
                let n =
                    usize::try_from(smelt_hlo::shape_inference::element_count(&in_dims)?).ok()?;
                let data = v.data.gather(&vec![0; n]);
                rw.constant(Array::new(&in_dims, data))
            }
        });
    }
    let declared = Shape::Array(ArrayShape::new(out.dtype, &in_dims));
    let shapes: Vec<&Shape> = new_operands.iter().map(|&o| rw.shape(o)).collect();
    let shape = infer_shape(op, &shapes, &inst.attrs, &[], Some(&declared)).ok()?;
    let mut moved = inst.clone();
    moved.operands = new_operands.into_iter().collect();
    moved.shape = shape;
    let moved = rw.add_inst(moved);
    match common {
        Rearrange::Reshape(_) => rw.reshape(moved, &out.dims),
        Rearrange::Transpose(perm) => rw.transpose(moved, &perm),
    }
}
