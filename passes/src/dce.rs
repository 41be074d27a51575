//! Dead-code elimination.
//!
//! Contract: removes every instruction that does not contribute to its
//! computation's root (through operands or control edges) and has no side effect,
//! and every computation not reachable from the entry. Parameters are never removed
//! (they are the computation's signature). Preserves every result. Assumes a
//! verified module. Leaves the module compacted (ids in post order).

use smelt_hlo::{CompId, InstId, Module, Opcode, SecondaryMap};

use crate::pass::{PassContext, Result, Rewrite};

pub struct Dce;

impl Rewrite for Dce {
    const NAME: &'static str = "dce";

    fn rewrite(&mut self, module: &mut Module, _cx: &mut PassContext) -> Result<bool> {
        let mut changed = false;
        let reachable = module.reachable_computations();
        let dead_comps: Vec<CompId> = module.comps.ids().filter(|c| !reachable.contains(c)).collect();
        for c in dead_comps {
            module.comps.remove(c);
            changed = true;
        }
        for cid in module.comp_ids() {
            changed |= remove_dead_instructions(module, cid);
        }
        if changed {
            module.compact();
        }
        Ok(changed)
    }
}

/// Removes the dead instructions of one computation; returns whether any were.
pub fn remove_dead_instructions(module: &mut Module, cid: CompId) -> bool {
    let comp = module.comp_mut(cid);
    let mut live = SecondaryMap::with_default(comp.insts.capacity(), false);
    let mut stack: Vec<InstId> = vec![comp.root];
    for (id, inst) in comp.insts.iter() {
        if inst.opcode == Opcode::Parameter || inst.opcode.has_side_effect() || has_side_effect(inst) {
            stack.push(id);
        }
    }
    while let Some(id) = stack.pop() {
        if live[id] || !comp.insts.contains(id) {
            continue;
        }
        live[id] = true;
        let inst = comp.inst(id);
        stack.extend(inst.operands.iter().copied());
        stack.extend(inst.extras.control_predecessors.iter().copied());
    }
    let dead: Vec<InstId> = comp.insts.ids().filter(|&id| !live[id]).collect();
    for &id in &dead {
        comp.remove(id);
    }
    !dead.is_empty()
}

/// Custom calls may have effects smelt cannot see; they are kept.
fn has_side_effect(inst: &smelt_hlo::Instruction) -> bool {
    inst.opcode == Opcode::CustomCall
}
