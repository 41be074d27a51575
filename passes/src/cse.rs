//! Common-subexpression elimination.
//!
//! Contract: within each computation, an instruction equal to an earlier one (same
//! opcode, shape, attributes, called computations and operands, operands of
//! commutative ops in any order) is replaced by the earlier one and removed.
//! Called computations compare by structure, not by name: two sorts whose
//! comparators are separate but identical computations merge. Parameters,
//! side-effecting ops, custom calls and instructions with control edges are never
//! merged. Preserves every result. Assumes a verified module.

use std::collections::HashMap;

use smelt_hlo::literal::Literal;
use smelt_hlo::{Attrs, CompId, InstId, Instruction, Module, Opcode};

use crate::pass::{PassContext, Result, Rewrite};

pub struct Cse;

impl Rewrite for Cse {
    const NAME: &'static str = "cse";

    fn rewrite(&mut self, module: &mut Module, cx: &mut PassContext) -> Result<bool> {
        let structures = structures(module);
        let merged = module.comp_ids().into_iter().map(|cid| cse_computation(module, cid, &structures)).sum();
        let changed = cx.counted("cse_merged", merged);
        if changed {
            module.compact();
        }
        Ok(changed)
    }
}

fn mergeable(inst: &Instruction) -> bool {
    !(inst.opcode == Opcode::Parameter
        || inst.opcode == Opcode::CustomCall
        || inst.opcode.has_side_effect()
        || !inst.extras.control_predecessors.is_empty())
}

/// The identity of an instruction's computation, names and tooling attributes left
/// out; called computations by their structure.
fn key(inst: &Instruction, structures: &HashMap<CompId, usize>) -> Vec<u8> {
    let mut operands: Vec<InstId> = inst.operands.to_vec();
    if inst.opcode.is_commutative() {
        operands.sort();
    }
    let called: Vec<Option<usize>> = inst.called.iter().map(|c| structures.get(c).copied()).collect();
    let mut k = format!("{:?}|{}|{:?}|{:?}|", inst.opcode, inst.shape, operands, called).into_bytes();
    attrs_key(&inst.attrs, &mut k);
    k.extend_from_slice(format!("|{:?}", inst.extras.unknown).as_bytes());
    k
}

/// Attributes as key bytes: a constant's literal as its shapes and raw
/// little-endian bytes, each run of bytes after its length (every NaN payload
/// told apart; formatting ResNet-50's batch-norm constants in decimal cost its
/// ONNX cluster 80 ms a compile), the rest as debug text.
fn attrs_key(attrs: &Attrs, out: &mut Vec<u8>) {
    fn literal(lit: &Literal, out: &mut Vec<u8>) {
        match lit {
            Literal::Array(a) => {
                out.extend_from_slice(a.shape().to_string().as_bytes());
                let bytes = a.data.to_le_bytes();
                out.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
                out.extend_from_slice(&bytes);
            }
            Literal::Tuple(t) => {
                out.push(b'(');
                t.iter().for_each(|e| literal(e, out));
                out.push(b')');
            }
        }
    }
    match attrs {
        Attrs::Constant(lit) => {
            out.extend_from_slice(b"constant ");
            literal(lit, out);
        }
        other => out.extend_from_slice(format!("{other:?}").as_bytes()),
    }
}

/// A structure class per computation: equal for computations that compute the
/// same thing the same way (instructions in post order, operands by position,
/// names left out). Callees come first, and a caller's text names its callees by
/// class number, so the texts stay as long as the computations themselves
/// (nesting callee texts would grow them with the depth of the call graph).
fn structures(module: &Module) -> HashMap<CompId, usize> {
    let mut classes: HashMap<Vec<u8>, usize> = HashMap::new();
    let mut out: HashMap<CompId, usize> = HashMap::new();
    for cid in module.computation_post_order() {
        let comp = module.comp(cid);
        let order = comp.post_order();
        let position: HashMap<InstId, usize> = order.iter().enumerate().map(|(i, &id)| (id, i)).collect();
        let mut text = Vec::new();
        for &id in &order {
            let inst = comp.inst(id);
            let operands: Vec<usize> = inst.operands.iter().map(|o| position[o]).collect();
            let called: Vec<Option<usize>> = inst.called.iter().map(|c| out.get(c).copied()).collect();
            let root = if id == comp.root { "ROOT " } else { "" };
            text.extend_from_slice(
                format!("{root}{:?} {} {operands:?} {called:?} ", inst.opcode, inst.shape).as_bytes(),
            );
            attrs_key(&inst.attrs, &mut text);
            text.push(b';');
        }
        let next = classes.len();
        out.insert(cid, *classes.entry(text).or_insert(next));
    }
    out
}

fn cse_computation(module: &mut Module, cid: CompId, structures: &HashMap<CompId, usize>) -> usize {
    let comp = module.comp_mut(cid);
    let mut seen: HashMap<Vec<u8>, InstId> = HashMap::new();
    let mut merged = 0;
    // An instruction's users are visited after it (post order), so the use
    // map is current for each instruction merged (control edges aside).
    let users = (!comp.has_control_edges()).then(|| comp.users_any_order());
    for id in comp.post_order() {
        let inst = comp.inst(id);
        if !mergeable(inst) {
            continue;
        }
        // Operands were already replaced by their representatives (post order).
        match seen.entry(key(inst, structures)) {
            std::collections::hash_map::Entry::Occupied(first) => {
                let first = *first.get();
                match &users {
                    Some(users) => comp.replace_uses_in(id, first, &users[id]),
                    None => comp.replace_all_uses(id, first),
                };
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
