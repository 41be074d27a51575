//! Sequential schedules: the order in which a computation's instructions run.
//!
//! A schedule is an artifact beside the module, not part of it: buffer assignment
//! and backends consume it. Two memory-aware orders are tried and the one with
//! the lower peak of live bytes is kept, as XLA does:
//! - list scheduling: repeatedly run the ready instruction that frees the most bytes
//!   net of what it allocates (ties go to the earlier instruction in post order);
//! - post order (a depth-first order): operands right before their first user.
//!
//! Only computations that run as a sequence are scheduled: the entry and the bodies,
//! conditions and branches of control flow (and call targets). Fusion bodies and
//! scalar computations (`to_apply` of reduce, sort, ...) run inside one kernel.

use std::collections::HashMap;

use smelt_hlo::{CompId, InstId, Instruction, Module, Opcode, SecondaryMap, Shape};

/// The run order of every sequentially executed computation.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Schedule {
    pub sequences: HashMap<CompId, Vec<InstId>>,
}

impl Schedule {
    pub fn sequence(&self, comp: CompId) -> &[InstId] {
        self.sequences.get(&comp).map_or(&[], Vec::as_slice)
    }
}

/// Computations that run as instruction sequences: the entry, and recursively the
/// computations of while, conditional and call instructions they contain.
pub fn sequential_computations(module: &Module) -> Vec<CompId> {
    let mut out = vec![module.entry];
    let mut i = 0;
    while i < out.len() {
        let comp = module.comp(out[i]);
        for id in comp.post_order() {
            let inst = comp.inst(id);
            if matches!(inst.opcode, Opcode::While | Opcode::Conditional | Opcode::Call) {
                for &c in &inst.called {
                    if !out.contains(&c) {
                        out.push(c);
                    }
                }
            }
        }
        i += 1;
    }
    out
}

/// Bytes an instruction's result occupies, counting only what it allocates: tuples,
/// get-tuple-element, bitcast and reshape reuse their operands' buffers, parameters
/// and constants live outside the temporary arena.
pub fn allocated_bytes(inst: &Instruction) -> usize {
    match inst.opcode {
        Opcode::Parameter
        | Opcode::Constant
        | Opcode::Tuple
        | Opcode::GetTupleElement
        | Opcode::Bitcast
        | Opcode::Reshape => 0,
        _ => shape_bytes(&inst.shape),
    }
}

fn shape_bytes(shape: &Shape) -> usize {
    shape.leaves().iter().map(|a| a.byte_size()).sum()
}

/// Schedules every sequential computation of the module.
pub fn schedule_module(module: &Module) -> Schedule {
    let mut schedule = Schedule::default();
    for cid in sequential_computations(module) {
        let comp = module.comp(cid);
        let post = comp.post_order();
        let list = list_schedule(module, cid);
        let seq = if peak_bytes(module, cid, &list) <= peak_bytes(module, cid, &post) { list } else { post };
        schedule.sequences.insert(cid, seq);
    }
    schedule
}

/// The highest sum of live allocated bytes over a sequence of one computation.
pub fn peak_bytes(module: &Module, cid: CompId, seq: &[InstId]) -> usize {
    let comp = module.comp(cid);
    let users = comp.users();
    let mut remaining: SecondaryMap<InstId, usize> = SecondaryMap::with_default(comp.insts.capacity(), 0);
    for &id in seq {
        remaining[id] = users[id].len();
    }
    let mut live = 0usize;
    let mut peak = 0usize;
    for &id in seq {
        let inst = comp.inst(id);
        live += allocated_bytes(inst);
        peak = peak.max(live);
        for &op in &inst.operands {
            remaining[op] -= 1;
            if remaining[op] == 0 && op != comp.root {
                live -= allocated_bytes(comp.inst(op));
            }
        }
        if remaining[id] == 0 && id != comp.root {
            live -= allocated_bytes(inst);
        }
    }
    peak
}

/// Greedy list scheduling by net bytes freed.
fn list_schedule(module: &Module, cid: CompId) -> Vec<InstId> {
    let comp = module.comp(cid);
    let post = comp.post_order();
    let users = comp.users();
    let cap = comp.insts.capacity();
    let mut position = SecondaryMap::with_default(cap, 0usize);
    for (i, &id) in post.iter().enumerate() {
        position[id] = i;
    }
    // Dependencies still unscheduled, per instruction (operands and control edges).
    let mut pending = SecondaryMap::with_default(cap, 0usize);
    let mut successors: SecondaryMap<InstId, Vec<InstId>> = SecondaryMap::with_default(cap, Vec::new());
    for &id in &post {
        let inst = comp.inst(id);
        let mut deps: Vec<InstId> = inst.operands.to_vec();
        deps.extend(inst.extras.control_predecessors.iter().copied());
        deps.sort();
        deps.dedup();
        pending[id] = deps.len();
        for d in deps {
            successors[d].push(id);
        }
    }
    let mut unscheduled_uses = SecondaryMap::with_default(cap, 0usize);
    for &id in &post {
        unscheduled_uses[id] = users[id].len();
    }
    let mut ready: Vec<InstId> = post.iter().copied().filter(|&id| pending[id] == 0).collect();
    let mut order = Vec::with_capacity(post.len());
    while !ready.is_empty() {
        let score = |id: InstId| -> i64 {
            let inst = comp.inst(id);
            let mut freed = 0i64;
            let mut counted: Vec<InstId> = Vec::new();
            for &op in &inst.operands {
                if counted.contains(&op) {
                    continue;
                }
                counted.push(op);
                let uses_here = inst.operands.iter().filter(|&&o| o == op).count();
                if unscheduled_uses[op] == uses_here && op != comp.root {
                    freed += allocated_bytes(comp.inst(op)) as i64;
                }
            }
            freed - allocated_bytes(inst) as i64
        };
        let (best_index, _) = ready
            .iter()
            .enumerate()
            .max_by_key(|&(_, &id)| (score(id), std::cmp::Reverse(position[id])))
            .expect("ready is not empty");
        let id = ready.swap_remove(best_index);
        order.push(id);
        for &op in &comp.inst(id).operands {
            unscheduled_uses[op] -= 1;
        }
        for &s in &successors[id] {
            pending[s] -= 1;
            if pending[s] == 0 {
                ready.push(s);
            }
        }
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use smelt_hlo::parse_module;

    #[test]
    fn list_schedule_frees_big_buffers_early() {
        // Two independent chains: each big temporary should be consumed (and freed)
        // before the other chain's big temporary is created.
        let m = parse_module(
            "HloModule m\n\nENTRY e {\n  p = f32[1000]{0} parameter(0)\n  a1 = f32[1000]{0} exponential(p)\n  b1 = f32[1000]{0} exponential(p)\n  a2 = f32[] reduce(a1, z), dimensions={0}, to_apply=add\n  b2 = f32[] reduce(b1, z), dimensions={0}, to_apply=add\n  z = f32[] constant(0)\n  ROOT t = (f32[], f32[]) tuple(a2, b2)\n}\n\nadd {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n  ROOT s = f32[] add(x, y)\n}\n",
        )
        .unwrap();
        let s = schedule_module(&m);
        let seq = s.sequence(m.entry);
        assert_eq!(seq.len(), 7);
        // Written order: both 4000-byte temporaries are live at once.
        let written: Vec<InstId> = m.entry().insts.ids().collect();
        assert_eq!(peak_bytes(&m, m.entry, &written), 8004);
        // Scheduled: one big temporary (plus two 4-byte scalars) at a time.
        assert_eq!(peak_bytes(&m, m.entry, seq), 4008);
    }
}
