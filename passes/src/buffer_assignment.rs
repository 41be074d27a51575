//! Buffer assignment: where every array value of a scheduled module lives.
//!
//! Values are the array leaves of instruction results in sequentially executed
//! computations (fusion bodies run inside one kernel and need no buffers). Values
//! that must share storage are grouped into buffer sets:
//! - tuple, get-tuple-element, bitcast, reshape and opt-barrier reuse their
//!   operands' storage;
//! - parameters of while bodies and conditions are the while's state; parameters
//!   of conditional branches and call targets are the caller's operands;
//! - an elementwise instruction (or a fusion that reads the operand elementwise)
//!   whose operand dies there writes in place of it, as does dynamic-update-slice;
//! - a while body's result leaf shares the loop state's storage when the body has
//!   read that state leaf for the last time by then (an in-place update of the
//!   state, a new value computed after the old one's last use, or an output of
//!   the loop fusion, multi-output ones included, that reads it elementwise
//!   and last), so the state
//!   is not copied back every iteration; likewise a loop starts on its initial
//!   values where they lie when nothing reads them once it has started, and a
//!   state leaf the body only reads and passes on, started by an entry
//!   parameter, is that parameter;
//! - entry parameters live in the caller's buffers, constants in a read-only area,
//!   entry results in the caller's output buffers (or in place of a donated
//!   parameter, per `input_output_alias`).
//!
//! A concatenation whose operands are contiguous pieces of its result (NCHW
//! channels of one image) has them computed in place: each operand's set lives
//! at its offset inside the result's when the operand is a temporary read last
//! there, and the concatenation is left nothing to do (`in_place_concats`).
//!
//! Every other set is a temporary with a fixed offset in one arena. Liveness comes
//! from a global timeline in which each while/conditional/call instruction spans the
//! schedules of the computations it runs; temporaries are placed best-fit, largest
//! first, so sets whose live ranges do not overlap share memory. The arena's size
//! is the peak temporary memory.
//!
//! Contract for executors: a while's body root is copied into the state after each
//! iteration where the two differ (as a parallel copy: root leaves may alias other
//! state leaves); a conditional's or call's root is copied into its result; an entry
//! result listed in `output_copies` is copied from its value's slot.

use std::collections::{HashMap, HashSet};

use smelt_hlo::{Attrs, CompId, Computation, InstId, Instruction, Module, Opcode, Shape};

use crate::schedule::{Schedule, sequential_computations};

/// Alignment of every temporary, in bytes.
pub const ALIGNMENT: usize = 64;

/// An array value: leaf `leaf` (depth-first) of an instruction's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ValueKey {
    pub comp: CompId,
    pub inst: InstId,
    pub leaf: u32,
}

/// Where a buffer set lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    /// `size` bytes at `offset` in the temporary arena.
    Temp { offset: usize, size: usize },
    /// Leaf `leaf` of entry parameter `number` (the caller's buffer).
    Parameter { number: u32, leaf: u32 },
    /// Entry result leaf `index` (the caller's output buffer).
    Output { index: u32 },
    /// A constant's read-only data.
    Constant { comp: CompId, inst: InstId },
}

/// Storage shared by one or more values.
#[derive(Clone, Debug)]
pub struct BufferSet {
    pub slot: Slot,
    pub size: usize,
    /// Live range on the global timeline, inclusive.
    pub start: usize,
    pub end: usize,
    pub members: Vec<ValueKey>,
}

#[derive(Clone, Debug, Default)]
pub struct BufferAssignment {
    pub sets: Vec<BufferSet>,
    set_of: HashMap<ValueKey, usize>,
    /// Bytes of the temporary arena: the peak of temporary memory.
    pub temp_bytes: usize,
    /// Entry results that must be copied from another slot: `(result leaf, value)`.
    pub output_copies: Vec<(u32, ValueKey)>,
    /// Entry results written in place of a donated parameter: `(result leaf, param)`.
    pub donated_outputs: Vec<(u32, u32)>,
    /// Global `(start, end)` time of every scheduled instruction.
    pub times: HashMap<(CompId, InstId), (usize, usize)>,
    /// Concatenations whose operands were computed in place in their result:
    /// nothing is left for them to do.
    pub in_place_concats: HashSet<(CompId, InstId)>,
}

impl BufferAssignment {
    pub fn slot(&self, key: ValueKey) -> Option<Slot> {
        self.set_of.get(&key).map(|&s| self.sets[s].slot)
    }

    pub fn set(&self, key: ValueKey) -> Option<&BufferSet> {
        self.set_of.get(&key).map(|&s| &self.sets[s])
    }

    /// The number of array leaves of a shape.
    pub fn leaf_count(shape: &Shape) -> usize {
        shape.leaves().len()
    }
}

struct UnionFind {
    parent: Vec<usize>,
}

impl UnionFind {
    fn find(&mut self, mut x: usize) -> usize {
        while self.parent[x] != x {
            self.parent[x] = self.parent[self.parent[x]];
            x = self.parent[x];
        }
        x
    }

    fn union(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            self.parent[ra.max(rb)] = ra.min(rb);
        }
    }
}

/// Leaf offset of tuple element `index` within a tuple shape's flattened leaves.
fn leaf_offset(shape: &Shape, index: usize) -> usize {
    shape.tuple_elements().iter().take(index).map(|e| e.leaves().len()).sum()
}

/// Does this instruction read operand `k` only at the index it writes (so it may
/// write its result over that operand)?
fn reads_operand_elementwise(module: &Module, inst: &Instruction, k: usize) -> bool {
    match inst.opcode {
        Opcode::Fusion => {
            let Some(&body) = inst.called.first() else {
                return false;
            };
            fusion_param_read_elementwise(module, body, k as u32)
        }
        Opcode::DynamicUpdateSlice => k == 0 && inst.operands.get(1) != inst.operands.first(),
        op => op.is_elementwise() && op != Opcode::Copy,
    }
}

/// In a fused computation: every path from parameter `n` to the root passes only
/// through elementwise instructions over the root's dimensions (and layout), so
/// an output element depends on the parameter's element at the same index
/// alone. A multi-output root (a tuple) qualifies when all its leaves have the
/// parameter's dimensions: each output may then be written over the parameter,
/// as every back end computes an element's outputs before storing them.
fn fusion_param_read_elementwise(module: &Module, body: CompId, n: u32) -> bool {
    let comp = module.comp(body);
    let Some(param) = comp.param(n) else {
        return false;
    };
    // An output fusion writes the product into its output before the epilogue
    // reads its other operands: none of them may share the output's storage.
    if comp.insts.iter().any(|(_, i)| matches!(i.opcode, Opcode::Dot | Opcode::Convolution)) {
        return false;
    }
    // An in-place dynamic-update-slice fusion writes over the operand it
    // updates, unless the update itself reads that operand (at other places).
    let root = comp.root_inst();
    if root.opcode == Opcode::DynamicUpdateSlice {
        return root.operands.first() == Some(&param)
            && comp.users_of(param) == [comp.root]
            && root.operands.iter().filter(|&&o| o == param).count() == 1;
    }
    let root_shape = comp.result_shape();
    let multi_output = root_shape.is_tuple();
    if multi_output && root.opcode != Opcode::Tuple {
        return false;
    }
    let leaves = root_shape.leaves();
    let Some(&space) = leaves.first() else {
        return false;
    };
    let over_space = |s: &Shape| s.as_array().is_some_and(|a| a.dims == space.dims && a.layout == space.layout);
    if !leaves.iter().all(|l| l.dims == space.dims && l.layout == space.layout) {
        return false;
    }
    let users = comp.users();
    let mut stack = vec![param];
    let mut seen = std::collections::HashSet::new();
    while let Some(id) = stack.pop() {
        if !seen.insert(id) {
            continue;
        }
        let inst = comp.inst(id);
        let tuple_root = multi_output && id == comp.root;
        if id != param && !tuple_root && !(inst.opcode.is_elementwise() && over_space(&inst.shape)) {
            return false;
        }
        if id != comp.root {
            if users[id].is_empty() {
                continue;
            }
            stack.extend(users[id].iter().copied());
        }
    }
    over_space(&comp.inst(param).shape)
}

/// Assigns buffers for a scheduled module.
pub fn assign_buffers(module: &Module, schedule: &Schedule) -> BufferAssignment {
    let comps = sequential_computations(module);
    // 1. Global timeline.
    let mut times: HashMap<(CompId, InstId), (usize, usize)> = HashMap::new();
    let mut spans: HashMap<CompId, (usize, usize)> = HashMap::new();
    fn walk(
        module: &Module,
        schedule: &Schedule,
        comp: CompId,
        t: &mut usize,
        times: &mut HashMap<(CompId, InstId), (usize, usize)>,
        spans: &mut HashMap<CompId, (usize, usize)>,
        depth: usize,
    ) {
        let first = *t;
        for &id in schedule.sequence(comp) {
            let start = *t;
            let inst = module.comp(comp).inst(id);
            if depth < smelt_hlo::verifier::MAX_CALL_DEPTH
                && matches!(inst.opcode, Opcode::While | Opcode::Conditional | Opcode::Call)
            {
                for &c in &inst.called {
                    *t += 1;
                    walk(module, schedule, c, t, times, spans, depth + 1);
                }
            }
            let end = *t;
            let e = times.entry((comp, id)).or_insert((start, end));
            *e = (e.0.min(start), e.1.max(end));
            *t += 1;
        }
        let last = t.saturating_sub(1).max(first);
        let s = spans.entry(comp).or_insert((first, last));
        *s = (s.0.min(first), s.1.max(last));
    }
    let mut t = 0;
    walk(module, schedule, module.entry, &mut t, &mut times, &mut spans, 0);

    // 2. Values.
    let mut keys: Vec<ValueKey> = Vec::new();
    let mut index: HashMap<ValueKey, usize> = HashMap::new();
    for &c in &comps {
        for &id in schedule.sequence(c) {
            let n = module.comp(c).inst(id).shape.leaves().len();
            for leaf in 0..n as u32 {
                let k = ValueKey { comp: c, inst: id, leaf };
                index.insert(k, keys.len());
                keys.push(k);
            }
        }
    }
    let mut uf = UnionFind { parent: (0..keys.len()).collect() };
    let key = |c: CompId, i: InstId, leaf: usize| ValueKey { comp: c, inst: i, leaf: leaf as u32 };
    // Callers of nested computations, for parameter aliasing.
    let mut callers: Vec<(CompId, InstId)> = Vec::new();
    for &c in &comps {
        let comp = module.comp(c);
        for &id in schedule.sequence(c) {
            let inst = comp.inst(id);
            let alias = |uf: &mut UnionFind, a: ValueKey, b: ValueKey| {
                if let (Some(&x), Some(&y)) = (index.get(&a), index.get(&b)) {
                    uf.union(x, y);
                }
            };
            match inst.opcode {
                Opcode::Tuple => {
                    let mut leaf = 0;
                    for &op in &inst.operands {
                        let n = comp.inst(op).shape.leaves().len();
                        for j in 0..n {
                            alias(&mut uf, key(c, id, leaf + j), key(c, op, j));
                        }
                        leaf += n;
                    }
                }
                Opcode::GetTupleElement => {
                    if let smelt_hlo::Attrs::GetTupleElement { index: i } = inst.attrs {
                        let op = inst.operands[0];
                        let base = leaf_offset(&comp.inst(op).shape, i as usize);
                        for j in 0..inst.shape.leaves().len() {
                            alias(&mut uf, key(c, id, j), key(c, op, base + j));
                        }
                    }
                }
                Opcode::Bitcast | Opcode::Reshape | Opcode::OptimizationBarrier => {
                    for j in 0..inst.shape.leaves().len() {
                        alias(&mut uf, key(c, id, j), key(c, inst.operands[0], j));
                    }
                }
                Opcode::While | Opcode::Conditional | Opcode::Call => callers.push((c, id)),
                _ => {}
            }
        }
    }
    for &(c, id) in &callers {
        let inst = module.comp(c).inst(id);
        for (bi, &callee) in inst.called.iter().enumerate() {
            let callee_comp = module.comp(callee);
            for p in callee_comp.params() {
                let n = callee_comp.inst(p).parameter_number().unwrap_or(0) as usize;
                let leaves = callee_comp.inst(p).shape.leaves().len();
                for j in 0..leaves {
                    let target = match inst.opcode {
                        // Body and condition parameters are the loop state.
                        Opcode::While => Some(key(c, id, j)),
                        // Branch b takes operand b + 1.
                        Opcode::Conditional => inst.operands.get(bi + 1).map(|&op| key(c, op, j)),
                        _ => inst.operands.get(n).map(|&op| key(c, op, j)),
                    };
                    if let (Some(t), Some(&x)) = (target, index.get(&key(callee, p, j)))
                        && let Some(&y) = index.get(&t)
                    {
                        uf.union(x, y);
                    }
                }
            }
        }
    }

    // 3. Kinds of the sets formed so far: parameters, constants, temporaries.
    let entry = module.entry;
    let mut kind_of_root: HashMap<usize, Kind> = HashMap::new();
    for (i, k) in keys.iter().enumerate() {
        let inst = module.comp(k.comp).inst(k.inst);
        let kind = match inst.opcode {
            Opcode::Parameter if k.comp == entry => Kind::Param(inst.parameter_number().unwrap_or(0), k.leaf),
            Opcode::Constant => Kind::Constant(k.comp, k.inst),
            _ => continue,
        };
        let r = uf.find(i);
        kind_of_root.insert(r, kind);
    }

    // 4. Live ranges per set, then in-place reuse in time order.
    let comp_users: HashMap<CompId, smelt_hlo::computation::UseMap> =
        comps.iter().map(|&c| (c, module.comp(c).users())).collect();
    let value_end = |k: ValueKey| -> usize {
        let comp = module.comp(k.comp);
        let (_, def_end) = times.get(&(k.comp, k.inst)).copied().unwrap_or((0, 0));
        let mut end = def_end;
        if k.inst == comp.root {
            end = end.max(spans.get(&k.comp).map_or(0, |s| s.1));
        }
        for &u in &comp_users[&k.comp][k.inst] {
            if let Some(&(_, ue)) = times.get(&(k.comp, u)) {
                end = end.max(ue);
            }
        }
        end
    };
    // 4a. A while body's result leaf takes the loop state's storage when the body
    //     reads that state leaf for the last time before the result is first
    //     written (or in the very instruction that writes it in place), so the
    //     state is updated where it lies instead of copied back every iteration.
    for &(c, id) in &callers {
        let w = module.comp(c).inst(id);
        if w.opcode == Opcode::While {
            read_only_state_on_parameters(module, &index, &mut kind_of_root, &mut uf, (c, id));
        }
        let loops = LoopAliasing {
            module,
            comp_users: &comp_users,
            times: &times,
            index: &index,
            keys: &keys,
            kinds: &kind_of_root,
        };
        if w.opcode == Opcode::While {
            alias_init_with_state(&loops, &mut uf, (c, id));
        }
        if w.opcode == Opcode::While
            && let Some(&body) = w.called.get(1)
        {
            alias_body_results_with_state(&loops, &mut uf, (c, id), body);
        }
    }
    let n = keys.len();
    let mut start = vec![usize::MAX; n];
    let mut end = vec![0usize; n];
    for (i, &k) in keys.iter().enumerate() {
        let r = uf.find(i);
        let (s, _) = times.get(&(k.comp, k.inst)).copied().unwrap_or((0, 0));
        start[r] = start[r].min(s);
        end[r] = end[r].max(value_end(k));
    }
    let size_of = |k: ValueKey| -> usize {
        module.comp(k.comp).inst(k.inst).shape.leaves().get(k.leaf as usize).map_or(0, |a| a.byte_size())
    };
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| times.get(&(keys[i].comp, keys[i].inst)).map_or(0, |t| t.0));
    for &i in &order {
        let k = keys[i];
        let comp = module.comp(k.comp);
        let inst = comp.inst(k.inst);
        if inst.shape.is_tuple() || allocation_free(inst.opcode) {
            continue;
        }
        let (def_start, _) = times[&(k.comp, k.inst)];
        for (j, &op) in inst.operands.iter().enumerate() {
            if !reads_operand_elementwise(module, inst, j) || inst.operands.iter().filter(|&&o| o == op).count() > 1 {
                continue;
            }
            let Some(&oi) = index.get(&key(k.comp, op, 0)) else {
                continue;
            };
            if comp.inst(op).shape.is_tuple() {
                continue;
            }
            let (ro, ri) = (uf.find(oi), uf.find(i));
            if ro == ri || kind_of_root.contains_key(&ro) || kind_of_root.contains_key(&ri) {
                continue;
            }
            if size_of(keys[oi]) != size_of(k) || end[ro] != def_start || start[ri] != def_start {
                continue;
            }
            uf.union(oi, i);
            let r = uf.find(i);
            start[r] = start[ro].min(start[ri]);
            end[r] = end[ro].max(end[ri]);
            break;
        }
    }

    // 5. Build the sets.
    let mut sets: Vec<BufferSet> = Vec::new();
    let mut set_of: HashMap<ValueKey, usize> = HashMap::new();
    let mut set_index_of_root: HashMap<usize, usize> = HashMap::new();
    for (i, &k) in keys.iter().enumerate() {
        let r = uf.find(i);
        let s = *set_index_of_root.entry(r).or_insert_with(|| {
            let slot = match kind_of_root.get(&r) {
                Some(Kind::Param(number, leaf)) => Slot::Parameter { number: *number, leaf: *leaf },
                Some(Kind::Constant(c, inst)) => Slot::Constant { comp: *c, inst: *inst },
                _ => Slot::Temp { offset: 0, size: 0 },
            };
            sets.push(BufferSet { slot, size: 0, start: start[r], end: end[r], members: Vec::new() });
            sets.len() - 1
        });
        sets[s].size = sets[s].size.max(size_of(k));
        sets[s].members.push(k);
        set_of.insert(k, s);
    }

    // 6. Entry results: written straight into the caller's output buffers when the
    //    value is a temporary not already an output; else copied.
    let entry_comp = module.entry();
    let mut output_copies = Vec::new();
    let mut donated_outputs = Vec::new();
    let root_leaves = entry_comp.result_shape().leaves().len();
    for leaf in 0..root_leaves {
        let k = key(entry, entry_comp.root, leaf);
        let Some(&s) = set_of.get(&k) else { continue };
        // The root tuple's leaf is an alias: find the defining value of the set.
        let donated = module.config.input_output_alias.iter().find(|a| {
            entry_comp.result_shape().is_tuple() && a.output_index == [leaf as i64]
                || !entry_comp.result_shape().is_tuple() && a.output_index.is_empty()
        });
        match sets[s].slot {
            Slot::Temp { .. } => {
                if let Some(alias) = donated.filter(|a| donation_is_safe(&sets, &set_of, module, a.param, s)) {
                    sets[s].slot = Slot::Parameter { number: alias.param, leaf: 0 };
                    donated_outputs.push((leaf as u32, alias.param));
                } else {
                    sets[s].slot = Slot::Output { index: leaf as u32 };
                }
            }
            _ => output_copies.push((leaf as u32, k)),
        }
    }

    // 6b. Concatenations written in place: their operands' sets live inside theirs.
    let (within, in_place_concats) = concatenations_in_place(module, schedule, &times, &mut sets, &set_of);

    // 7. Place temporaries: largest first, best fit among time-overlapping sets.
    let mut temps: Vec<usize> = (0..sets.len())
        .filter(|&s| matches!(sets[s].slot, Slot::Temp { .. }) && sets[s].size > 0 && !within.contains_key(&s))
        .collect();
    temps.sort_by_key(|&s| (std::cmp::Reverse(sets[s].size), sets[s].start));
    let mut placed: Vec<(usize, usize, usize, usize)> = Vec::new(); // (offset, size, start, end)
    let mut arena = 0usize;
    for s in temps {
        let (size, st, en) = (sets[s].size.div_ceil(ALIGNMENT) * ALIGNMENT, sets[s].start, sets[s].end);
        let mut busy: Vec<(usize, usize)> =
            placed.iter().filter(|p| p.2 <= en && st <= p.3).map(|p| (p.0, p.0 + p.1)).collect();
        busy.sort();
        let mut best: Option<(usize, usize)> = None; // (gap size, offset)
        let mut cursor = 0;
        for &(lo, hi) in &busy {
            if lo >= cursor + size {
                let gap = lo - cursor;
                if best.is_none_or(|b| gap < b.0) {
                    best = Some((gap, cursor));
                }
            }
            cursor = cursor.max(hi);
        }
        let offset = best.map_or(cursor, |b| b.1);
        placed.push((offset, size, st, en));
        arena = arena.max(offset + size);
        sets[s].slot = Slot::Temp { offset, size: sets[s].size };
    }
    // Sets inside a concatenation's, outermost first (a concatenation of
    // concatenations nests them).
    fn offset_of(s: usize, sets: &[BufferSet], within: &HashMap<usize, (usize, usize)>) -> usize {
        match within.get(&s) {
            Some(&(outer, at)) => offset_of(outer, sets, within) + at,
            None => match sets[s].slot {
                Slot::Temp { offset, .. } => offset,
                _ => 0,
            },
        }
    }
    for &s in within.keys() {
        let offset = offset_of(s, &sets, &within);
        sets[s].slot = Slot::Temp { offset, size: sets[s].size };
    }
    BufferAssignment { sets, set_of, temp_bytes: arena, output_copies, donated_outputs, times, in_place_concats }
}

/// Step 6b of [`assign_buffers`]: each concatenation in the entry computation
/// whose result is a temporary, and whose operands are contiguous pieces of it
/// (see [`concatenation_pieces`]) read last there, has each operand computed
/// into its place in the result: the operand's set lives inside the result's
/// (`within`: set -> (outer set, byte offset)), which is held from the first
/// operand's definition on, and the concatenation has nothing left to do. An
/// operand qualifies when its set is a temporary of its own bytes, all in the
/// entry, and nothing reads it (or anything sharing its storage) after the
/// concatenation, so a later in-place writer of the result clobbers nothing.
/// Returns `within` and the concatenations made no-ops.
fn concatenations_in_place(
    module: &Module,
    schedule: &Schedule,
    times: &HashMap<(CompId, InstId), (usize, usize)>,
    sets: &mut [BufferSet],
    set_of: &HashMap<ValueKey, usize>,
) -> (HashMap<usize, (usize, usize)>, HashSet<(CompId, InstId)>) {
    let mut within: HashMap<usize, (usize, usize)> = HashMap::new();
    let mut done = HashSet::new();
    let entry = module.entry();
    let value = |id: InstId| ValueKey { comp: module.entry, inst: id, leaf: 0 };
    for &id in schedule.sequence(module.entry) {
        let inst = entry.inst(id);
        let Some(pieces) = concatenation_pieces(module, entry, inst) else {
            continue;
        };
        let (Some(&outer), Some(&(time, _))) = (set_of.get(&value(id)), times.get(&(module.entry, id))) else {
            continue;
        };
        if !matches!(sets[outer].slot, Slot::Temp { .. }) || inst.shape.is_tuple() {
            continue;
        }
        let mut placed: Vec<(usize, usize)> = Vec::with_capacity(pieces.len());
        let mut at = 0usize;
        for &p in &pieces {
            let Some(bytes) = entry.inst(p).shape.as_array().map(|a| a.byte_size()) else {
                break;
            };
            let Some(&s) = set_of.get(&value(p)) else {
                break;
            };
            let set = &sets[s];
            let fits = matches!(set.slot, Slot::Temp { .. })
                && s != outer
                && set.size == bytes
                && set.end == time
                && set.members.iter().all(|m| m.comp == module.entry)
                && !within.contains_key(&s)
                && placed.iter().all(|&(q, _)| q != s);
            if !fits {
                break;
            }
            placed.push((s, at));
            at += bytes;
        }
        if placed.len() != pieces.len() || at != sets[outer].size {
            continue;
        }
        for (s, at) in placed {
            sets[outer].start = sets[outer].start.min(sets[s].start);
            within.insert(s, (outer, at));
        }
        done.insert((module.entry, id));
    }
    (within, done)
}

/// The operands whose bytes, one after another, are the bytes of `inst`'s
/// result: a concatenation whose operands are contiguous pieces of its result
/// (every dimension more major than the concatenated one has size 1, one layout
/// throughout), or a fusion computing only that from its parameters (each read
/// once) followed by reshapes or bitcasts that keep the bytes in place.
fn concatenation_pieces(module: &Module, comp: &Computation, inst: &Instruction) -> Option<Vec<InstId>> {
    // `concat` (of computation `c`) joins contiguous runs of its bytes.
    let contiguous = |c: &Computation, concat: &Instruction| -> bool {
        let (Attrs::Concatenate { dimension }, Some(out)) = (&concat.attrs, concat.shape.as_array()) else {
            return false;
        };
        let m2m = &out.layout.minor_to_major;
        let Some(pos) = m2m.iter().position(|&d| d == *dimension) else {
            return false;
        };
        m2m[pos + 1..].iter().all(|&d| out.dims[d as usize] == 1)
            && concat.operands.iter().all(|&o| c.inst(o).shape.as_array().is_some_and(|a| a.layout == out.layout))
    };
    match inst.opcode {
        Opcode::Concatenate => contiguous(comp, inst).then(|| inst.operands.to_vec()),
        Opcode::Fusion => {
            let body = module.comp(*inst.called.first()?);
            // Through reshapes and bitcasts that keep the elements' order in
            // memory (`same_element_order`, the rule the lowering renames
            // storage by), each the only reader of its operand when
            // `single_use`.
            let bytes_of = |mut id: InstId, single_use: bool| -> Option<InstId> {
                while matches!(body.inst(id).opcode, Opcode::Reshape | Opcode::Bitcast) {
                    let i = body.inst(id);
                    let (Some(to), Some(from)) = (i.shape.as_array(), body.inst(i.operands[0]).shape.as_array()) else {
                        return None;
                    };
                    if !from.same_element_order(to) || single_use && body.users_of(i.operands[0]).len() != 1 {
                        return None;
                    }
                    id = i.operands[0];
                }
                Some(id)
            };
            let concat = body.inst(bytes_of(body.root, false)?);
            if concat.opcode != Opcode::Concatenate || !contiguous(body, concat) {
                return None;
            }
            let mut pieces = Vec::with_capacity(concat.operands.len());
            for &o in &concat.operands {
                // `o` read by the concatenation alone, the chain below it by
                // one reader each (`bytes_of`).
                if body.users_of(o).len() != 1 {
                    return None;
                }
                let number = body.inst(bytes_of(o, true)?).parameter_number()?;
                pieces.push(*inst.operands.get(number as usize)?);
            }
            Some(pieces)
        }
        _ => None,
    }
}

/// A set whose storage is fixed: a parameter leaf (parameter, leaf) or a constant.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Kind {
    Param(u32, u32),
    Constant(CompId, InstId),
}

/// What step 4a of [`assign_buffers`] reads while it joins the sets of while
/// loops' values.
#[derive(Clone, Copy)]
struct LoopAliasing<'a> {
    module: &'a Module,
    comp_users: &'a HashMap<CompId, smelt_hlo::computation::UseMap>,
    /// Each instruction's (start, end) in the schedule.
    times: &'a HashMap<(CompId, InstId), (usize, usize)>,
    /// Each value's position in `keys`.
    index: &'a HashMap<ValueKey, usize>,
    keys: &'a [ValueKey],
    /// The sets whose storage is fixed (parameters, constants, outputs): never joined.
    kinds: &'a HashMap<usize, Kind>,
}

/// Step 4a of [`assign_buffers`], first: a state leaf of while loop `(comp,
/// inst)` that the body passes on unchanged (its root's element `j` is the
/// state's element `j`) and that starts as an entry parameter is that
/// parameter's storage: the loop only reads it, so it is not copied in (a
/// JAX `fori_loop` carries the arrays its body closes over as state). The
/// joined set stays a parameter, so nothing writes in place into it. A
/// parameter starting several state leaves lends its storage to the first.
fn read_only_state_on_parameters(
    module: &Module,
    index: &HashMap<ValueKey, usize>,
    kinds: &mut HashMap<usize, Kind>,
    uf: &mut UnionFind,
    (wc, wid): (CompId, InstId),
) {
    let w = module.comp(wc).inst(wid);
    let (Some(&operand), Some(&body)) = (w.operands.first(), w.called.get(1)) else {
        return;
    };
    let bc = module.comp(body);
    let root = bc.root_inst();
    let elements = w.shape.tuple_elements();
    // Flat states only: element `j` is leaf `j`.
    if root.opcode != Opcode::Tuple || !w.shape.is_tuple() || elements.iter().any(|e| e.is_tuple()) {
        return;
    }
    let key = |c: CompId, i: InstId, leaf: usize| ValueKey { comp: c, inst: i, leaf: leaf as u32 };
    for (j, &op) in root.operands.iter().enumerate() {
        let passed_on = matches!(
            (bc.inst(op).opcode, &bc.inst(op).attrs, bc.inst(op).operands.first()),
            (Opcode::GetTupleElement, Attrs::GetTupleElement { index }, Some(&from))
                if *index as usize == j && bc.inst(from).opcode == Opcode::Parameter
        );
        let (Some(&vi), Some(&si)) = (index.get(&key(wc, operand, j)), index.get(&key(wc, wid, j))) else {
            continue;
        };
        let (rv, rs) = (uf.find(vi), uf.find(si));
        let state_roots: Vec<usize> =
            (0..elements.len()).filter_map(|k| index.get(&key(wc, wid, k))).map(|&s| uf.find(s)).collect();
        if !passed_on
            || rv == rs
            || state_roots.contains(&rv)
            || !matches!(kinds.get(&rv), Some(Kind::Param(..)))
            || kinds.contains_key(&rs)
        {
            continue;
        }
        uf.union(vi, si);
        let r = uf.find(vi);
        if let Some(kind) = kinds.remove(&rv) {
            kinds.insert(r, kind);
        }
    }
}

/// Step 4a of [`assign_buffers`] for the initial state of while loop `(comp,
/// inst)`: joins the set of each initial value (an array leaf of the while's
/// operand) to the set of its state leaf when nothing reads that value (or
/// anything sharing its storage) once the loop has started, so the loop
/// starts on it where it lies instead of copying it in. Parameters and
/// constants keep their storage, and a value that starts several state leaves
/// lends it to the first only.
fn alias_init_with_state(loops: &LoopAliasing<'_>, uf: &mut UnionFind, (wc, wid): (CompId, InstId)) {
    let LoopAliasing { module, comp_users, times, index, keys, kinds } = *loops;
    let w = module.comp(wc).inst(wid);
    let (Some(&operand), Some(&(loop_start, _))) = (w.operands.first(), times.get(&(wc, wid))) else {
        return;
    };
    let key = |c: CompId, i: InstId, leaf: usize| ValueKey { comp: c, inst: i, leaf: leaf as u32 };
    let leaves = w.shape.leaves().len();
    let mut members: HashMap<usize, Vec<usize>> = HashMap::new();
    for i in 0..keys.len() {
        members.entry(uf.find(i)).or_default().push(i);
    }
    for j in 0..leaves {
        let (Some(&vi), Some(&si)) = (index.get(&key(wc, operand, j)), index.get(&key(wc, wid, j))) else {
            continue;
        };
        let (rv, rs) = (uf.find(vi), uf.find(si));
        let state_roots: Vec<usize> =
            (0..leaves).filter_map(|k| index.get(&key(wc, wid, k))).map(|&s| uf.find(s)).collect();
        if rv == rs || state_roots.contains(&rv) || kinds.contains_key(&rv) || kinds.contains_key(&rs) {
            continue;
        }
        // Every read of the initial value's storage ends before the loop starts
        // (the loop itself aside).
        let read_later = members.get(&rv).into_iter().flatten().any(|&m| {
            let mk = keys[m];
            comp_users[&mk.comp][mk.inst].iter().any(|&u| {
                (mk.comp, u) != (wc, wid) && times.get(&(mk.comp, u)).is_none_or(|&(_, end)| end >= loop_start)
            })
        });
        let same_size = module.comp(wc).inst(operand).shape.leaves().get(j).map(|a| a.byte_size())
            == w.shape.leaves().get(j).map(|a| a.byte_size());
        if !read_later && same_size {
            uf.union(vi, si);
            let r = uf.find(si);
            let mut joined = members.remove(&rv).unwrap_or_default();
            joined.extend(members.remove(&rs).unwrap_or_default());
            members.insert(r, joined);
        }
    }
}

/// Step 4a of [`assign_buffers`] for one while loop `(comp, inst)` with body
/// `body`: joins the set of each body result leaf `j` to the set of state leaf
/// `j` when every value of the result's set is first written after the body's
/// last read of the state leaf, or exactly at it by an instruction that reads
/// the state elementwise (in place). A state leaf that the body passes on to
/// another result leaf is read by the body's root, so it keeps its storage.
fn alias_body_results_with_state(
    loops: &LoopAliasing<'_>,
    uf: &mut UnionFind,
    (wc, wid): (CompId, InstId),
    body: CompId,
) {
    let LoopAliasing { module, comp_users, times, index, keys, kinds } = *loops;
    let bc = module.comp(body);
    let root = bc.root_inst();
    if root.opcode != Opcode::Tuple {
        return;
    }
    let key = |c: CompId, i: InstId, leaf: usize| ValueKey { comp: c, inst: i, leaf: leaf as u32 };
    let state_leaves = module.comp(wc).inst(wid).shape.leaves().len();
    let Some(state_index): Option<Vec<usize>> =
        (0..state_leaves).map(|j| index.get(&key(wc, wid, j)).copied()).collect()
    else {
        return;
    };
    // Members of every set, by root (the sets change as leaves join).
    let mut members: HashMap<usize, Vec<usize>> = HashMap::new();
    for i in 0..keys.len() {
        members.entry(uf.find(i)).or_default().push(i);
    }
    let time = |c: CompId, i: InstId| times.get(&(c, i)).copied();
    let mut leaf = 0;
    for &op in &root.operands {
        let j = leaf;
        leaf += bc.inst(op).shape.leaves().len();
        // The instruction that writes the leaf: `op`, or the multi-output
        // fusion whose output `op` (a get-tuple-element) names.
        let (writer, out_leaf) = match bc.inst(op) {
            g if g.opcode == Opcode::GetTupleElement && !g.shape.is_tuple() => {
                let (smelt_hlo::Attrs::GetTupleElement { index: i }, Some(&f)) = (&g.attrs, g.operands.first()) else {
                    continue;
                };
                if bc.inst(f).opcode != Opcode::Fusion {
                    continue;
                }
                (f, leaf_offset(&bc.inst(f).shape, *i as usize))
            }
            _ => (op, 0),
        };
        let def = bc.inst(writer);
        if (def.shape.is_tuple() && writer == op)
            || allocation_free(def.opcode)
            || matches!(def.opcode, Opcode::While | Opcode::Conditional | Opcode::Call)
        {
            continue;
        }
        let (Some(&vi), Some(&si)) = (index.get(&key(body, writer, out_leaf)), state_index.get(j)) else {
            continue;
        };
        let (rv, rs) = (uf.find(vi), uf.find(si));
        let state_roots: Vec<usize> = state_index.iter().map(|&s| uf.find(s)).collect();
        if rv == rs || state_roots.contains(&rv) || kinds.contains_key(&rv) || kinds.contains_key(&rs) {
            continue;
        }
        // The body's last read of the state leaf, and which instruction it is.
        let mut last_read: Option<(usize, InstId)> = None;
        for &m in members.get(&rs).into_iter().flatten() {
            let mk = keys[m];
            if mk.comp != body {
                continue;
            }
            for &u in &comp_users[&body][mk.inst] {
                if let Some((_, end)) = time(body, u)
                    && last_read.is_none_or(|(t, _)| end > t)
                {
                    last_read = Some((end, u));
                }
            }
        }
        let Some(first_write) =
            members.get(&rv).into_iter().flatten().filter_map(|&m| time(keys[m].comp, keys[m].inst).map(|t| t.0)).min()
        else {
            continue;
        };
        let fits = match last_read {
            None => true,
            Some((t, _)) if t < first_write => true,
            Some((t, reader)) => {
                t == first_write && reader == writer && {
                    let in_state = |o: InstId| {
                        members.get(&rs).into_iter().flatten().any(|&m| keys[m].comp == body && keys[m].inst == o)
                    };
                    def.operands
                        .iter()
                        .enumerate()
                        .all(|(k, &o)| !in_state(o) || reads_operand_elementwise(module, def, k))
                        && def.operands.iter().filter(|&&o| in_state(o)).count() == 1
                }
            }
        };
        let same_size = bc.inst(op).shape.byte_size()
            == module.comp(wc).inst(wid).shape.leaves().get(j).map_or(0, |a| a.byte_size());
        if fits && same_size {
            uf.union(vi, si);
            let r = uf.find(si);
            let mut joined = members.remove(&rv).unwrap_or_default();
            joined.extend(members.remove(&rs).unwrap_or_default());
            members.insert(r, joined);
        }
    }
}

/// Instructions whose result reuses existing storage.
fn allocation_free(op: Opcode) -> bool {
    matches!(
        op,
        Opcode::Parameter
            | Opcode::Constant
            | Opcode::Tuple
            | Opcode::GetTupleElement
            | Opcode::Bitcast
            | Opcode::Reshape
            | Opcode::OptimizationBarrier
    )
}

/// An output may be written in place of donated parameter `param` when the
/// parameter is no longer read once the output's storage is first written, or is
/// read elementwise by that very first write.
fn donation_is_safe(
    sets: &[BufferSet],
    set_of: &HashMap<ValueKey, usize>,
    module: &Module,
    param: u32,
    out_set: usize,
) -> bool {
    let entry = module.entry();
    let Some(p) = entry.param(param) else {
        return false;
    };
    let Some(&ps) = set_of.get(&ValueKey { comp: module.entry, inst: p, leaf: 0 }) else {
        return false;
    };
    let (pset, oset) = (&sets[ps], &sets[out_set]);
    if pset.size != oset.size || entry.inst(p).shape.is_tuple() {
        return false;
    }
    if pset.end < oset.start {
        return true;
    }
    if pset.end != oset.start {
        return false;
    }
    // The first writer of the output reads the parameter elementwise.
    oset.members.iter().filter(|m| m.comp == module.entry).any(|m| {
        let inst = entry.inst(m.inst);
        inst.operands.iter().enumerate().any(|(j, &op)| op == p && reads_operand_elementwise(module, inst, j))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schedule::schedule_module;
    use smelt_hlo::parse_module;

    fn assign(text: &str) -> (Module, BufferAssignment) {
        let m = parse_module(text).unwrap();
        smelt_hlo::verify(&m).unwrap();
        let s = schedule_module(&m);
        let a = assign_buffers(&m, &s);
        (m, a)
    }

    fn key(m: &Module, name: &str) -> ValueKey {
        let c = m.entry();
        ValueKey { comp: m.entry, inst: c.find(name).unwrap(), leaf: 0 }
    }

    #[test]
    fn dead_temporaries_share_memory_and_elementwise_ops_work_in_place() {
        let (m, a) = assign(
            "HloModule m\n\nENTRY e {\n  p = f32[256]{0} parameter(0)\n  x = f32[256]{0} exponential(p)\n  y = f32[256]{0} negate(x)\n  t = f32[256]{0} transpose(y), dimensions={0}\n  ROOT r = f32[256]{0} add(t, p)\n}\n",
        );
        // exp and negate share one buffer (negate overwrites exp in place); the
        // transpose reads across elements so it cannot write over its operand, but
        // the root's add can write over the transpose's result, which therefore goes
        // straight into the output buffer.
        assert_eq!(a.slot(key(&m, "x")), a.slot(key(&m, "y")));
        assert_ne!(a.slot(key(&m, "y")), a.slot(key(&m, "t")));
        assert_eq!(a.slot(key(&m, "t")), Some(Slot::Output { index: 0 }));
        assert_eq!(a.slot(key(&m, "r")), Some(Slot::Output { index: 0 }));
        assert_eq!(a.slot(key(&m, "p")), Some(Slot::Parameter { number: 0, leaf: 0 }));
        assert_eq!(a.temp_bytes, 1024);
    }

    /// A fused dynamic-update-slice whose update reads the operand it updates
    /// (a window of it, moved) must not write over that operand.
    #[test]
    fn an_update_that_reads_its_operand_is_not_in_place() {
        let fused = |update: &str| {
            format!(
                "HloModule m\n\nf {{\n  x = f32[8]{{0}} parameter(0)\n  u = f32[2]{{0}} parameter(1)\n  \
                 i = s32[] parameter(2)\n  w = f32[2]{{0}} {update}\n  \
                 ROOT d = f32[8]{{0}} dynamic-update-slice(x, w, i)\n}}\n\nENTRY e {{\n  \
                 p = f32[8]{{0}} parameter(0)\n  q = f32[2]{{0}} parameter(1)\n  i = s32[] parameter(2)\n  \
                 n = f32[8]{{0}} negate(p)\n  ROOT r = f32[8]{{0}} fusion(n, q, i), kind=kLoop, calls=f\n}}\n"
            )
        };
        let (m, a) = assign(&fused("negate(u)"));
        assert_eq!(a.slot(key(&m, "n")), a.slot(key(&m, "r")));
        let (m, a) = assign(&fused("dynamic-slice(x, i), dynamic_slice_sizes={2}"));
        assert_ne!(a.slot(key(&m, "n")), a.slot(key(&m, "r")));
    }

    #[test]
    fn non_overlapping_live_ranges_reuse_offsets() {
        let (_, a) = assign(
            "HloModule m\n\nadd {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n  ROOT s = f32[] add(x, y)\n}\n\nENTRY e {\n  p = f32[1024]{0} parameter(0)\n  z = f32[] constant(0)\n  a1 = f32[1024]{0} transpose(p), dimensions={0}\n  a2 = f32[] reduce(a1, z), dimensions={0}, to_apply=add\n  b1 = f32[1024]{0} transpose(p), dimensions={0}\n  b2 = f32[] reduce(b1, z), dimensions={0}, to_apply=add\n  ROOT t = (f32[], f32[]) tuple(a2, b2)\n}\n",
        );
        // a1 and b1 are never live together: one 4 KiB block serves both (the two
        // scalar results are written straight to the outputs).
        assert_eq!(a.temp_bytes, 4096);
    }

    /// Two products and a negation concatenated in two steps (the second
    /// reshaped), then exponentiated in place: `tail` ends the entry.
    fn concatenations(tail: &str) -> String {
        format!(
            "HloModule m\n\nadd {{\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n  ROOT s = f32[] add(x, y)\n}}\n\n\
             c2 {{\n  a = f32[4,16]{{1,0}} parameter(0)\n  b = f32[6,16]{{1,0}} parameter(1)\n  \
             ROOT c = f32[10,16]{{1,0}} concatenate(a, b), dimensions={{0}}\n}}\n\nc3 {{\n  \
             a = f32[10,16]{{1,0}} parameter(0)\n  b = f32[2,16]{{1,0}} parameter(1)\n  \
             c = f32[12,16]{{1,0}} concatenate(a, b), dimensions={{0}}\n  ROOT r = f32[12,4,4]{{2,1,0}} reshape(c)\n}}\n\n\
             ENTRY e {{\n  x = f32[8,16]{{1,0}} parameter(0)\n  w = f32[12,8]{{1,0}} parameter(1)\n  \
             w1 = f32[4,8]{{1,0}} slice(w), slice={{[0:4], [0:8]}}\n  w2 = f32[6,8]{{1,0}} slice(w), slice={{[4:10], [0:8]}}\n  \
             w3 = f32[2,8]{{1,0}} slice(w), slice={{[10:12], [0:8]}}\n  \
             d1 = f32[4,16]{{1,0}} dot(w1, x), lhs_contracting_dims={{1}}, rhs_contracting_dims={{0}}\n  \
             d2 = f32[6,16]{{1,0}} dot(w2, x), lhs_contracting_dims={{1}}, rhs_contracting_dims={{0}}\n  \
             d3 = f32[2,16]{{1,0}} dot(w3, x), lhs_contracting_dims={{1}}, rhs_contracting_dims={{0}}\n  \
             n3 = f32[2,16]{{1,0}} negate(d3)\n  inner = f32[10,16]{{1,0}} fusion(d1, d2), kind=kLoop, calls=c2\n  \
             outer = f32[12,4,4]{{2,1,0}} fusion(inner, n3), kind=kLoop, calls=c3\n  \
             ex = f32[12,4,4]{{2,1,0}} exponential(outer)\n{tail}}}\n"
        )
    }

    #[test]
    fn concatenation_operands_are_computed_in_place() {
        let temp = |a: &BufferAssignment, m: &Module, name: &str| match a.slot(key(m, name)) {
            Some(Slot::Temp { offset, .. }) => offset,
            other => panic!("{name}: {other:?}"),
        };
        let (m, a) = assign(&concatenations("  ROOT t = f32[12,4,1]{2,1,0} slice(ex), slice={[0:12], [0:4], [0:1]}\n"));
        let base = temp(&a, &m, "outer");
        assert_eq!(temp(&a, &m, "inner"), base);
        assert_eq!(temp(&a, &m, "d1"), base);
        assert_eq!(temp(&a, &m, "d2"), base + 4 * 16 * 4);
        assert_eq!(temp(&a, &m, "d3"), base + 10 * 16 * 4);
        assert_eq!(temp(&a, &m, "n3"), base + 10 * 16 * 4);
        // exp writes over the concatenation in place once its operands are dead.
        assert_eq!(temp(&a, &m, "ex"), base);
        let done = |a: &BufferAssignment, m: &Module, name: &str| {
            a.in_place_concats.contains(&(m.entry, m.entry().find(name).unwrap()))
        };
        assert!(done(&a, &m, "inner") && done(&a, &m, "outer"));
        // d2 is read after the concatenation: it keeps storage of its own and
        // is copied in, while the outer concatenation still takes the inner's.
        let (m, a) = assign(&concatenations(
            "  r = f32[12,4,1]{2,1,0} slice(ex), slice={[0:12], [0:4], [0:1]}\n  exr = f32[12,16]{1,0} reshape(ex)\n  \
             sl = f32[6,16]{1,0} slice(exr), slice={[0:6], [0:16]}\n  dm = f32[6,16]{1,0} multiply(d2, sl)\n  \
             z = f32[] constant(0)\n  rs = f32[6]{0} reduce(dm, z), dimensions={1}, to_apply=add\n  \
             ROOT t = (f32[12,4,1]{2,1,0}, f32[6]{0}) tuple(r, rs)\n",
        ));
        assert!(!done(&a, &m, "inner") && done(&a, &m, "outer"));
        assert_eq!(temp(&a, &m, "inner"), temp(&a, &m, "outer"));
        assert_ne!(temp(&a, &m, "d1"), temp(&a, &m, "inner"));
        // Along a dimension with a larger one before it, the operands interleave.
        let (m, a) = assign(
            "HloModule m\n\nENTRY e {\n  x = f32[2,3]{1,0} parameter(0)\n  n = f32[2,3]{1,0} negate(x)\n  \
             e = f32[2,3]{1,0} exponential(x)\n  c = f32[2,6]{1,0} concatenate(n, e), dimensions={1}\n  \
             ROOT r = f32[6,2]{1,0} transpose(c), dimensions={1,0}\n}\n",
        );
        assert!(!done(&a, &m, "c"));
    }

    #[test]
    fn outputs_that_are_parameters_or_repeated_are_copied() {
        let (m, a) = assign(
            "HloModule m\n\nENTRY e {\n  p = f32[4]{0} parameter(0)\n  n = f32[4]{0} negate(p)\n  ROOT t = (f32[4]{0}, f32[4]{0}, f32[4]{0}) tuple(p, n, n)\n}\n",
        );
        assert_eq!(a.slot(key(&m, "n")), Some(Slot::Output { index: 1 }));
        let copied: Vec<u32> = a.output_copies.iter().map(|c| c.0).collect();
        assert_eq!(copied, vec![0, 2]);
    }

    #[test]
    fn donated_parameter_is_updated_in_place() {
        let (m, a) = assign(
            "HloModule m, input_output_alias={ {}: (0, {}, may-alias) }\n\nENTRY e {\n  state = f32[64]{0} parameter(0)\n  d = f32[64]{0} parameter(1)\n  ROOT s = f32[64]{0} add(state, d)\n}\n",
        );
        assert_eq!(a.donated_outputs, vec![(0, 0)]);
        assert_eq!(a.slot(key(&m, "s")), Some(Slot::Parameter { number: 0, leaf: 0 }));
        assert_eq!(a.temp_bytes, 0);
    }

    #[test]
    fn while_body_parameters_are_the_loop_state() {
        let (m, a) = assign(
            "HloModule m\n\ncond {\n  s = (s32[], f32[8]{0}) parameter(0)\n  i = s32[] get-tuple-element(s), index=0\n  n = s32[] constant(4)\n  ROOT lt = pred[] compare(i, n), direction=LT\n}\n\nbody {\n  s = (s32[], f32[8]{0}) parameter(0)\n  i = s32[] get-tuple-element(s), index=0\n  one = s32[] constant(1)\n  j = s32[] add(i, one)\n  x = f32[8]{0} get-tuple-element(s), index=1\n  y = f32[8]{0} exponential(x)\n  ROOT t = (s32[], f32[8]{0}) tuple(j, y)\n}\n\nENTRY e {\n  p = f32[8]{0} parameter(0)\n  z = s32[] constant(0)\n  init = (s32[], f32[8]{0}) tuple(z, p)\n  w = (s32[], f32[8]{0}) while(init), condition=cond, body=body\n  ROOT r = f32[8]{0} get-tuple-element(w), index=1\n}\n",
        );
        let body = m.find_computation("body").unwrap();
        let bx = ValueKey { comp: body, inst: m.comp(body).find("x").unwrap(), leaf: 0 };
        let w1 = ValueKey { comp: m.entry, inst: m.entry().find("w").unwrap(), leaf: 1 };
        assert_eq!(a.slot(bx), a.slot(w1));
        // exp reads the state last and elementwise: it writes the new state in place.
        let by = ValueKey { comp: body, inst: m.comp(body).find("y").unwrap(), leaf: 0 };
        assert_eq!(a.slot(by), a.slot(w1));
    }

    fn while_module(body: &str) -> String {
        format!(
            "HloModule m\n\ncond {{\n  s = (s32[], f32[8]{{0}}, f32[8]{{0}}) parameter(0)\n  i = s32[] get-tuple-element(s), index=0\n  n = s32[] constant(4)\n  ROOT lt = pred[] compare(i, n), direction=LT\n}}\n\nbody {{\n  s = (s32[], f32[8]{{0}}, f32[8]{{0}}) parameter(0)\n  i = s32[] get-tuple-element(s), index=0\n  one = s32[] constant(1)\n  j = s32[] add(i, one)\n  x = f32[8]{{0}} get-tuple-element(s), index=1\n  y = f32[8]{{0}} get-tuple-element(s), index=2\n{body}}}\n\nENTRY e {{\n  p = f32[8]{{0}} parameter(0)\n  z = s32[] constant(0)\n  init = (s32[], f32[8]{{0}}, f32[8]{{0}}) tuple(z, p, p)\n  w = (s32[], f32[8]{{0}}, f32[8]{{0}}) while(init), condition=cond, body=body\n  ROOT r = f32[8]{{0}} get-tuple-element(w), index=1\n}}\n"
        )
    }

    #[test]
    fn loop_starts_on_initial_values_that_are_dead_once_it_starts() {
        let text = |after: &str| {
            format!(
                "HloModule m\n\ncond {{\n  s = (s32[], f32[8]{{0}}) parameter(0)\n  i = s32[] get-tuple-element(s), index=0\n  n = s32[] constant(4)\n  ROOT lt = pred[] compare(i, n), direction=LT\n}}\n\nbody {{\n  s = (s32[], f32[8]{{0}}) parameter(0)\n  i = s32[] get-tuple-element(s), index=0\n  one = s32[] constant(1)\n  j = s32[] add(i, one)\n  x = f32[8]{{0}} get-tuple-element(s), index=1\n  y = f32[8]{{0}} exponential(x)\n  ROOT t = (s32[], f32[8]{{0}}) tuple(j, y)\n}}\n\nENTRY e {{\n  p = f32[8]{{0}} parameter(0)\n  q = f32[8]{{0}} negate(p)\n  z = s32[] constant(0)\n  init = (s32[], f32[8]{{0}}) tuple(z, q)\n  w = (s32[], f32[8]{{0}}) while(init), condition=cond, body=body\n  r = f32[8]{{0}} get-tuple-element(w), index=1\n{after}}}\n"
            )
        };
        // q is read by nothing but the loop: the loop state starts in its storage.
        let (m, a) = assign(&text("  ROOT o = f32[8]{0} add(r, p)\n"));
        assert_eq!(a.slot(key(&m, "q")), state(&m, &a, 1));
        // The constant 0 keeps its read-only storage.
        assert_ne!(a.slot(key(&m, "z")), state(&m, &a, 0));
        // q is read after the loop: it keeps storage of its own.
        let (m, a) = assign(&text("  ROOT o = f32[8]{0} add(r, q)\n"));
        assert_ne!(a.slot(key(&m, "q")), state(&m, &a, 1));
    }

    fn body_value(m: &Module, a: &BufferAssignment, name: &str) -> Option<Slot> {
        let body = m.find_computation("body").unwrap();
        a.slot(ValueKey { comp: body, inst: m.comp(body).find(name).unwrap(), leaf: 0 })
    }

    fn state(m: &Module, a: &BufferAssignment, leaf: u32) -> Option<Slot> {
        a.slot(ValueKey { comp: m.entry, inst: m.entry().find("w").unwrap(), leaf })
    }

    #[test]
    fn read_only_loop_state_is_the_parameter_it_starts_as() {
        let param = Some(Slot::Parameter { number: 0, leaf: 0 });
        // Leaf 2 is passed on unchanged: it is p's storage, not a copy of
        // it. Leaf 1 starts as p too but is written: storage of its own.
        let (m, a) = assign(&while_module(
            "  e = f32[8]{0} exponential(x)\n  s2 = f32[8]{0} add(e, y)\n  ROOT t = (s32[], f32[8]{0}, f32[8]{0}) tuple(j, s2, y)\n",
        ));
        assert_eq!(state(&m, &a, 2), param);
        assert_ne!(state(&m, &a, 1), param);
        // Leaf 1 passed on takes p; leaf 2, written in place, and started by
        // p as well, keeps its own (a parameter lends its storage once).
        let (m, a) = assign(&while_module(
            "  ny = f32[8]{0} negate(y)\n  ROOT t = (s32[], f32[8]{0}, f32[8]{0}) tuple(j, x, ny)\n",
        ));
        assert_eq!(state(&m, &a, 1), param);
        assert_ne!(state(&m, &a, 2), param);
        assert_eq!(body_value(&m, &a, "ny"), state(&m, &a, 2));
        // Leaf 2 passed on as leaf 1: not read-only in place, so no parameter.
        let (m, a) = assign(&while_module("  ROOT t = (s32[], f32[8]{0}, f32[8]{0}) tuple(j, y, x)\n"));
        assert_ne!(state(&m, &a, 1), param);
        assert_ne!(state(&m, &a, 2), param);
    }

    #[test]
    fn loop_state_updated_in_place_only_when_dead() {
        // An in-place update of the state (dynamic-update-slice) keeps its storage.
        let (m, a) = assign(&while_module(
            "  u = f32[1]{0} slice(y), slice={[0:1]}\n  d = f32[8]{0} dynamic-update-slice(x, u, i)\n  ROOT t = (s32[], f32[8]{0}, f32[8]{0}) tuple(j, d, y)\n",
        ));
        assert_eq!(body_value(&m, &a, "d"), state(&m, &a, 1));
        // x is read again after the negation is written: the new value needs
        // storage of its own, copied into the state.
        let (m, a) = assign(&while_module(
            "  nx = f32[8]{0} negate(x)\n  s2 = f32[8]{0} add(x, y)\n  ROOT t = (s32[], f32[8]{0}, f32[8]{0}) tuple(j, nx, s2)\n",
        ));
        assert_ne!(body_value(&m, &a, "nx"), state(&m, &a, 1));
        // Swapped state leaves: each is read by the root until the end.
        let (m, a) = assign(&while_module(
            "  nx = f32[8]{0} negate(x)\n  ROOT t = (s32[], f32[8]{0}, f32[8]{0}) tuple(j, y, nx)\n",
        ));
        assert_ne!(body_value(&m, &a, "nx"), state(&m, &a, 2));
        assert_ne!(body_value(&m, &a, "nx"), state(&m, &a, 1));
    }

    #[test]
    fn multi_output_fusions_update_the_loop_state_in_place() {
        // One loop fusion reads both state leaves elementwise (through a pred
        // compare) and writes both new values: each output takes its leaf's
        // storage, so nothing is copied back after an iteration.
        let text = |second: &str| {
            let fused = format!(
                "fused {{\n  a = f32[8]{{0}} parameter(0)\n  b = f32[8]{{0}} parameter(1)\n  m = f32[8]{{0}} multiply(a, b)\n  g = pred[8]{{0}} compare(a, b), direction=GT\n  s = f32[8]{{0}} select(g, m, a)\n{second}  ROOT t = (f32[8]{{0}}, f32[8]{{0}}) tuple(s, d)\n}}\n\nbody {{"
            );
            while_module(
                "  f = (f32[8]{0}, f32[8]{0}) fusion(x, y), kind=kLoop, calls=fused\n  f0 = f32[8]{0} get-tuple-element(f), index=0\n  f1 = f32[8]{0} get-tuple-element(f), index=1\n  ROOT t = (s32[], f32[8]{0}, f32[8]{0}) tuple(j, f0, f1)\n",
            )
            .replacen("body {", &fused, 1)
        };
        let (m, a) = assign(&text("  d = f32[8]{0} subtract(a, b)\n"));
        assert_eq!(body_value(&m, &a, "f0"), state(&m, &a, 1));
        assert_eq!(body_value(&m, &a, "f1"), state(&m, &a, 2));
        // The second output reads y reversed: y keeps its storage until the
        // fusion is done, x is still updated in place.
        let (m, a) = assign(&text("  r = f32[8]{0} reverse(b), dimensions={0}\n  d = f32[8]{0} subtract(a, r)\n"));
        assert_eq!(body_value(&m, &a, "f0"), state(&m, &a, 1));
        assert_ne!(body_value(&m, &a, "f1"), state(&m, &a, 2));
    }
}
