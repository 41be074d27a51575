//! Tuple simplification.
//!
//! Contract: forwards `get-tuple-element(tuple(a0, a1, ...), i)` to `ai`, and
//! replaces `tuple(get-tuple-element(t, 0), ..., get-tuple-element(t, n-1))` by `t`
//! when `t` has exactly those `n` elements. The instructions left unused are for DCE.
//! Preserves every result; the entry root keeps its shape, layout included. Assumes a
//! verified module.

use smelt_hlo::{Attrs, InstId, Module, Opcode};

use crate::pass::{PassContext, Result, Rewrite};

pub struct TupleSimplifier;

impl Rewrite for TupleSimplifier {
    const NAME: &'static str = "tuple-simplifier";

    fn rewrite(&mut self, module: &mut Module, _cx: &mut PassContext) -> Result<bool> {
        let mut changed = false;
        for cid in module.comp_ids() {
            let is_entry = cid == module.entry;
            let comp = module.comp_mut(cid);
            for id in comp.post_order() {
                let inst = comp.inst(id);
                let replacement = match inst.opcode {
                    Opcode::GetTupleElement => {
                        let Attrs::GetTupleElement { index } = inst.attrs else {
                            continue;
                        };
                        let t = comp.inst(inst.operands[0]);
                        if t.opcode == Opcode::Tuple { t.operands.get(index as usize).copied() } else { None }
                    }
                    Opcode::Tuple => forwarded_tuple(comp, id),
                    _ => None,
                };
                // The entry result is an interface: its layout must not change.
                let (old, new) = (&comp.inst(id).shape, replacement.map(|r| &comp.inst(r).shape));
                let fits = new.is_some_and(|new| new.same_type(old) && (!is_entry || comp.root != id || new == old));
                if let Some(r) = replacement
                    && fits
                {
                    changed |= comp.replace_all_uses(id, r);
                }
            }
        }
        Ok(changed)
    }
}

/// `tuple(gte(t, 0), ..., gte(t, n-1))` -> `t`.
fn forwarded_tuple(comp: &smelt_hlo::Computation, id: InstId) -> Option<InstId> {
    let inst = comp.inst(id);
    let mut source = None;
    for (i, &op) in inst.operands.iter().enumerate() {
        let e = comp.inst(op);
        let Attrs::GetTupleElement { index } = e.attrs else {
            return None;
        };
        if index != i as i64 || source.is_some_and(|s| s != e.operands[0]) {
            return None;
        }
        source = Some(e.operands[0]);
    }
    let t = source?;
    (comp.inst(t).shape.tuple_elements().len() == inst.operands.len()).then_some(t)
}
