//! Call inlining.
//!
//! Contract: replaces every `call` instruction by a copy of the called
//! computation's instructions (its parameters bound to the call's operands), in
//! every computation, until no call is left; called computations that become
//! unreachable are left for DCE. Copies get fresh names, metadata is kept.
//! Preserves every result. Assumes a verified module (so no recursion).

use smelt_hlo::module::NameUniquer;
use smelt_hlo::{CompId, Computation, InstId, Module, Opcode, SecondaryMap};

use crate::pass::{PassContext, Result, Rewrite};

pub struct CallInliner;

impl Rewrite for CallInliner {
    const NAME: &'static str = "call-inliner";

    fn rewrite(&mut self, module: &mut Module, cx: &mut PassContext) -> Result<bool> {
        let mut names = NameUniquer::new(module);
        let mut inlined = 0;
        // Inlined bodies and copied control flow may contain calls themselves:
        // repeat until no computation has one.
        loop {
            let with_calls: Vec<CompId> = module
                .comps
                .iter()
                .filter(|(_, c)| c.insts.iter().any(|(_, i)| i.opcode == Opcode::Call))
                .map(|(id, _)| id)
                .collect();
            if with_calls.is_empty() {
                break;
            }
            for cid in with_calls {
                for call in module.comp(cid).insts_with(Opcode::Call) {
                    inline_call(module, cid, call, &mut names);
                    inlined += 1;
                }
            }
        }
        Ok(cx.counted("calls_inlined", inlined))
    }
}

fn inline_call(module: &mut Module, cid: CompId, call: InstId, names: &mut NameUniquer) {
    let call_inst = module.comp(cid).inst(call).clone();
    let Some(&callee_id) = call_inst.called.first() else {
        return;
    };
    let callee = module.comp(callee_id).clone();
    let mut map = SecondaryMap::with_default(callee.insts.capacity(), None::<InstId>);
    for id in callee.post_order() {
        let inst = callee.inst(id);
        let new_id = match inst.parameter_number() {
            Some(n) => call_inst.operands[n as usize],
            None => {
                let mut clone = inst.clone();
                if matches!(inst.opcode, Opcode::While | Opcode::Conditional) {
                    clone.called = inst.called.iter().map(|&c| clone_control_flow(module, c, names)).collect();
                }
                let comp = module.comp_mut(cid);
                clone.name = names.make(&inst.name);
                clone.operands = inst.operands.iter().map(|&o| map[o].expect("operand inlined first")).collect();
                clone.extras.control_predecessors =
                    inst.extras.control_predecessors.iter().filter_map(|&o| map[o]).collect();
                comp.add(clone)
            }
        };
        map[id] = Some(new_id);
    }
    let result = map[callee.root].expect("root inlined");
    let comp = module.comp_mut(cid);
    comp.replace_all_uses(call, result);
    comp.remove(call);
}

/// A fresh copy of a computation run by control flow, with fresh copies of the
/// computations its own control flow runs.
fn clone_control_flow(module: &mut Module, cid: CompId, names: &mut NameUniquer) -> CompId {
    let mut copy: Computation = module.comp(cid).clone();
    copy.name = names.make(&copy.name);
    let nested: Vec<InstId> = copy
        .insts
        .iter()
        .filter(|(_, i)| matches!(i.opcode, Opcode::While | Opcode::Conditional))
        .map(|(id, _)| id)
        .collect();
    for id in nested {
        let called = copy.inst(id).called.clone();
        copy.inst_mut(id).called = called.into_iter().map(|c| clone_control_flow(module, c, names)).collect();
    }
    module.add_computation(copy)
}
