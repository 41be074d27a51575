//! Computations: an arena of instructions plus a root.
//!
//! A computation is a set of instructions and a root, not a list: the order in
//! which they run is derived ([`Computation::post_order`]) and a schedule is a
//! separate artifact. Mutation goes through a few primitives: [`Computation::add`],
//! [`Computation::replace_all_uses`], [`Computation::remove`] and
//! [`Computation::compact`].

use smallvec::SmallVec;

use crate::id::{Arena, SecondaryMap};
use crate::instruction::{InstId, Instruction};
use crate::opcode::Opcode;
use crate::shape::Shape;

#[derive(Clone, Debug, PartialEq)]
pub struct Computation {
    pub name: String,
    pub insts: Arena<Instruction>,
    pub root: InstId,
}

/// Users of every instruction of a computation, in post order of the users.
pub type UseMap = SecondaryMap<InstId, SmallVec<[InstId; 2]>>;

impl Computation {
    /// A computation whose root is the first instruction added, until set otherwise.
    pub fn new(name: impl Into<String>) -> Computation {
        Computation { name: name.into(), insts: Arena::new(), root: InstId::from_index(0) }
    }

    pub fn add(&mut self, inst: Instruction) -> InstId {
        self.insts.alloc(inst)
    }

    pub fn inst(&self, id: InstId) -> &Instruction {
        &self.insts[id]
    }

    pub fn inst_mut(&mut self, id: InstId) -> &mut Instruction {
        &mut self.insts[id]
    }

    pub fn root_inst(&self) -> &Instruction {
        &self.insts[self.root]
    }

    /// The computation's result shape.
    pub fn result_shape(&self) -> &Shape {
        &self.insts[self.root].shape
    }

    /// Parameter instructions ordered by parameter number. Numbers are checked to be
    /// `0..n` by the verifier; gaps are skipped here.
    pub fn params(&self) -> Vec<InstId> {
        let mut params: Vec<(u32, InstId)> =
            self.insts.iter().filter_map(|(id, inst)| inst.parameter_number().map(|n| (n, id))).collect();
        params.sort();
        params.into_iter().map(|(_, id)| id).collect()
    }

    /// The parameter with number `n`.
    pub fn param(&self, n: u32) -> Option<InstId> {
        self.insts.iter().find(|(_, inst)| inst.parameter_number() == Some(n)).map(|(id, _)| id)
    }

    pub fn param_shapes(&self) -> Vec<Shape> {
        self.params().into_iter().map(|id| self.insts[id].shape.clone()).collect()
    }

    pub fn num_params(&self) -> usize {
        self.insts.iter().filter(|(_, i)| i.opcode == Opcode::Parameter).count()
    }

    /// The instructions with `opcode`, collected, in arena order.
    pub fn insts_with(&self, opcode: Opcode) -> Vec<InstId> {
        self.insts.iter().filter(|(_, i)| i.opcode == opcode).map(|(id, _)| id).collect()
    }

    /// Every live instruction, operands before users (and control predecessors
    /// before successors). Instructions are visited in id order, so a computation
    /// whose ids are already in dependency order comes back in id order. Instructions
    /// no one uses (dead code, unused parameters) are included.
    pub fn post_order(&self) -> Vec<InstId> {
        #[derive(Clone, Copy, PartialEq)]
        enum Mark {
            New,
            Open,
            Done,
        }
        let mut mark = SecondaryMap::with_default(self.insts.capacity(), Mark::New);
        let mut order = Vec::with_capacity(self.insts.len());
        let mut stack: Vec<(InstId, usize)> = Vec::new();
        for start in self.insts.ids() {
            if mark[start] != Mark::New {
                continue;
            }
            stack.push((start, 0));
            mark[start] = Mark::Open;
            while let Some(top) = stack.last_mut() {
                let id = top.0;
                let inst = &self.insts[id];
                let deps = inst.operands.len() + inst.extras.control_predecessors.len();
                if top.1 < deps {
                    let k = top.1;
                    top.1 += 1;
                    let dep = if k < inst.operands.len() {
                        inst.operands[k]
                    } else {
                        inst.extras.control_predecessors[k - inst.operands.len()]
                    };
                    // A dependency on a removed instruction or a cycle is reported by
                    // the verifier; the order just skips it.
                    if self.insts.contains(dep) && mark[dep] == Mark::New {
                        mark[dep] = Mark::Open;
                        stack.push((dep, 0));
                    }
                } else {
                    mark[id] = Mark::Done;
                    order.push(id);
                    stack.pop();
                }
            }
        }
        order
    }

    /// Users of every instruction (a user appears once per use).
    pub fn users(&self) -> UseMap {
        let mut users = SecondaryMap::with_default(self.insts.capacity(), SmallVec::new());
        for id in self.post_order() {
            for &op in &self.insts[id].operands {
                users[op].push(id);
            }
        }
        users
    }

    /// [`Computation::users`] with each list in arena order instead of post
    /// order: the same sets, without computing a post order (for analyses
    /// that only ask whether or which).
    pub fn users_any_order(&self) -> UseMap {
        let mut users = SecondaryMap::with_default(self.insts.capacity(), SmallVec::new());
        for (id, inst) in self.insts.iter() {
            for &op in &inst.operands {
                if self.insts.contains(op) {
                    users[op].push(id);
                }
            }
        }
        users
    }

    /// The users of one instruction, once per operand slot that reads it, in
    /// arena order: [`Computation::users`] without building the whole map.
    pub fn users_of(&self, id: InstId) -> Vec<InstId> {
        let mut out = Vec::new();
        for (user, inst) in self.insts.iter() {
            out.extend(inst.operands.iter().filter(|&&o| o == id).map(|_| user));
        }
        out
    }

    /// Makes every use of `old` (operands, control edges and the root) refer to `new`.
    /// Returns whether anything changed.
    pub fn replace_all_uses(&mut self, old: InstId, new: InstId) -> bool {
        if old == new {
            return false;
        }
        let mut changed = false;
        for (_, inst) in self.insts.iter_mut() {
            changed |= redirect(inst, old, new);
        }
        changed | self.redirect_root(old, new)
    }

    fn redirect_root(&mut self, old: InstId, new: InstId) -> bool {
        let hit = self.root == old;
        if hit {
            self.root = new;
        }
        hit
    }

    /// [`Computation::replace_all_uses`] looking only at `users` (and the root):
    /// the caller knows every instruction that reads `old` as an operand or a
    /// control predecessor (a use map that is still current), so a rewrite
    /// costs its uses, not the computation's size.
    pub fn replace_uses_in(&mut self, old: InstId, new: InstId, users: &[InstId]) -> bool {
        if old == new {
            return false;
        }
        let mut changed = false;
        for &u in users {
            if let Some(inst) = self.insts.get_mut(u) {
                changed |= redirect(inst, old, new);
            }
        }
        changed | self.redirect_root(old, new)
    }

    /// Whether any instruction has a control predecessor (use maps built from
    /// operands then miss some uses).
    pub fn has_control_edges(&self) -> bool {
        self.insts.iter().any(|(_, i)| !i.extras.control_predecessors.is_empty())
    }

    /// Removes an instruction. Callers make sure nothing uses it any more.
    pub fn remove(&mut self, id: InstId) -> Option<Instruction> {
        self.insts.remove(id)
    }

    /// Renumbers instructions in post order and drops vacated slots, so the arena order
    /// is the print order. Parsing the printed text gives an equal computation.
    pub fn compact(&mut self) {
        let order = self.post_order();
        let mut remap = SecondaryMap::with_default(self.insts.capacity(), None);
        let mut insts = Arena::new();
        for (new_index, &old) in order.iter().enumerate() {
            remap[old] = Some(InstId::from_index(new_index));
        }
        let fix = |id: InstId| remap[id].expect("post order covers every live instruction");
        for &old in &order {
            let mut inst = self.insts.remove(old).expect("live");
            inst.operands.iter_mut().for_each(|o| *o = fix(*o));
            inst.extras.control_predecessors.iter_mut().for_each(|o| *o = fix(*o));
            insts.alloc(inst);
        }
        self.root = fix(self.root);
        self.insts = insts;
    }

    pub fn find(&self, name: &str) -> Option<InstId> {
        self.insts.iter().find(|(_, i)| i.name == name).map(|(id, _)| id)
    }
}

/// Makes `inst`'s operands and control predecessors that are `old` refer to
/// `new`; whether any did.
fn redirect(inst: &mut Instruction, old: InstId, new: InstId) -> bool {
    let mut changed = false;
    for op in inst.operands.iter_mut().chain(inst.extras.control_predecessors.iter_mut()) {
        if *op == old {
            *op = new;
            changed = true;
        }
    }
    changed
}
