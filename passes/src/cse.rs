//! Common-subexpression elimination.
//!
//! Contract: within each computation, an instruction equal to an earlier one (same
//! opcode, shape, attributes, called computations and operands, operands of
//! commutative ops in any order) is replaced by the earlier one and removed.
//! Parameters, side-effecting ops, custom calls and instructions with control
//! edges are never merged. Preserves every result. Assumes a verified module.

use std::collections::HashMap;

use smelt_hlo::{CompId, InstId, Instruction, Module, Opcode};

use crate::pass::{Pass, PassContext, Result};

#[derive(Debug, Default)]
pub struct Cse;

impl Pass for Cse {
    fn name(&self) -> &'static str {
        "cse"
    }

    fn run(&mut self, module: &mut Module, cx: &mut PassContext) -> Result<bool> {
        let mut merged = 0;
        let comp_ids: Vec<CompId> = module.comps.ids().collect();
        for cid in comp_ids {
            merged += cse_computation(module, cid);
        }
        if merged > 0 {
            cx.count("cse_merged", merged as i64);
            module.compact();
        }
        Ok(merged > 0)
    }
}

fn mergeable(inst: &Instruction) -> bool {
    !(inst.opcode == Opcode::Parameter
        || inst.opcode == Opcode::CustomCall
        || inst.opcode.has_side_effect()
        || !inst.extras.control_predecessors.is_empty())
}

/// The identity of an instruction's computation, names and tooling attributes left out.
fn key(inst: &Instruction) -> String {
    let mut operands: Vec<InstId> = inst.operands.to_vec();
    if inst.opcode.is_commutative() {
        operands.sort();
    }
    format!(
        "{:?}|{}|{:?}|{:?}|{:?}|{:?}",
        inst.opcode, inst.shape, operands, inst.called, inst.attrs, inst.extras.unknown
    )
}

fn cse_computation(module: &mut Module, cid: CompId) -> usize {
    let comp = module.comp_mut(cid);
    let mut seen: HashMap<String, InstId> = HashMap::new();
    let mut merged = 0;
    for id in comp.post_order() {
        let inst = comp.inst(id);
        if !mergeable(inst) {
            continue;
        }
        // Operands were already replaced by their representatives (post order).
        match seen.entry(key(inst)) {
            std::collections::hash_map::Entry::Occupied(first) => {
                let first = *first.get();
                comp.replace_all_uses(id, first);
                comp.remove(id);
                merged += 1;
            }
            std::collections::hash_map::Entry::Vacant(slot) => {
                slot.insert(id);
            }
        }
    }
    merged
}
