//! While-loop simplification.
//!
//! Contract, for every `while` (the trip count rewrites need a condition without side
//! effects and a loop without control predecessors):
//! - **trip count 0**: when the condition, evaluated on the loop's initial state,
//!   is false (the state elements it reads are integer or pred scalars computed from
//!   constants), the loop is replaced by its initial state;
//! - **trip count 1**: when it is true on the initial state and false on the state
//!   after one body iteration (again computed from constants), the body is inlined
//!   once in the caller in place of the loop;
//! - **invariant forwarding**: a user `get-tuple-element(while, k)` of an element the
//!   body passes through unchanged (root operand k is `get-tuple-element(param, k)`)
//!   reads element k of the initial state instead;
//! - **dead state**: tuple elements that no user of the loop reads, the condition
//!   does not read, and that no kept element (nor any side-effecting instruction of
//!   the body) depends on are removed from the state, the body, the condition and
//!   the initial tuple. A body or condition shared with other callers is cloned
//!   first.
//!
//! Only exact rewrites: the constant evaluation wraps integers to their width, and
//! any state the evaluator cannot compute (floats, non-constant values, division)
//! leaves the loop alone. Removed state is state nothing observes. Preserves every
//! result; the entry root keeps its shape and layout. Instructions and computations
//! left unused are for DCE. Assumes a verified module.

use smelt_hlo::attrs::ComparisonDirection;
use smelt_hlo::module::NameUniquer;
use smelt_hlo::{
    ArrayData, Attrs, CompId, Computation, DType, InstId, Instruction, Module, Opcode, SecondaryMap, Shape,
};

use crate::pass::{PassContext, Result, Rewrite};
use crate::rewrite::Rewriter;

pub struct WhileLoopSimplifier;

impl Rewrite for WhileLoopSimplifier {
    const NAME: &'static str = "while-loop-simplifier";

    fn rewrite(&mut self, module: &mut Module, cx: &mut PassContext) -> Result<bool> {
        let mut names = NameUniquer::new(module);
        let mut changed = false;
        for cid in module.comp_ids() {
            for w in module.comp(cid).insts_with(Opcode::While) {
                if !module.comp(cid).insts.contains(w) {
                    continue;
                }
                if let Some(trips) = trip_count_at_most_one(module, cid, w)
                    && replace_by_trips(module, cid, w, trips, &mut names)
                {
                    cx.count(&format!("while_trip_count_{trips}"), 1);
                    changed = true;
                    continue;
                }
                let forwarded = forward_invariants(module, cid, w, &mut names);
                if forwarded > 0 {
                    cx.count("while_invariants_forwarded", forwarded as i64);
                    changed = true;
                }
                let removed = remove_dead_state(module, cid, w, &mut names);
                if removed > 0 {
                    cx.count("while_state_removed", removed as i64);
                    changed = true;
                }
            }
        }
        Ok(changed)
    }
}

/// `(condition, body)` of a while.
fn loop_parts(inst: &Instruction) -> Option<(CompId, CompId)> {
    match inst.called[..] {
        [c, b] if inst.opcode == Opcode::While && c != b => Some((c, b)),
        _ => None,
    }
}

fn has_side_effects(c: &Computation) -> bool {
    c.insts.iter().any(|(_, i)| i.opcode.has_side_effect() || i.opcode == Opcode::CustomCall)
}

// ---- constant trip counts ---------------------------------------------------------

/// An integer or pred scalar value (pred as 0 or 1), wrapped to its type.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Scalar {
    v: i128,
    ty: DType,
}

fn wrap(v: i128, ty: DType) -> Option<Scalar> {
    let v = match ty {
        DType::Pred => i128::from(v != 0),
        t if t.is_int() => {
            let bits = t.bit_width() as u32;
            let m = v & ((1i128 << bits) - 1);
            if t.is_signed_int() && m >= 1i128 << (bits - 1) { m - (1i128 << bits) } else { m }
        }
        _ => return None,
    };
    Some(Scalar { v, ty })
}

/// Element `k` of the loop state (`None`: the whole state, when it is not a tuple).
type State<'a> = &'a dyn Fn(Option<i64>) -> Option<Scalar>;

/// Evaluates a scalar integer or pred instruction of `comp` whose parameter is the
/// loop state; `None` when it is not computable from constants. `budget` bounds the
/// work.
fn eval(comp: &Computation, id: InstId, state: State<'_>, budget: &mut u32) -> Option<Scalar> {
    *budget = budget.checked_sub(1)?;
    let inst = comp.inst(id);
    let a = inst.shape.as_array()?;
    if a.rank() != 0 {
        return None;
    }
    let ty = a.dtype;
    let arg = |i: usize, budget: &mut u32| eval(comp, inst.operands[i], state, budget);
    match inst.opcode {
        Opcode::Constant => {
            let Attrs::Constant(lit) = &inst.attrs else {
                return None;
            };
            let data = &lit.as_array()?.data;
            let v = match data {
                ArrayData::Pred(v) => i128::from(v[0]),
                ArrayData::S8(v) => i128::from(v[0]),
                ArrayData::S16(v) => i128::from(v[0]),
                ArrayData::S32(v) => i128::from(v[0]),
                ArrayData::S64(v) => i128::from(v[0]),
                ArrayData::U8(v) => i128::from(v[0]),
                ArrayData::U16(v) => i128::from(v[0]),
                ArrayData::U32(v) => i128::from(v[0]),
                ArrayData::U64(v) => i128::from(v[0]),
                _ => return None,
            };
            wrap(v, ty)
        }
        Opcode::Parameter => state(None),
        Opcode::GetTupleElement => {
            let Attrs::GetTupleElement { index } = inst.attrs else {
                return None;
            };
            let t = comp.inst(inst.operands[0]);
            match t.opcode {
                Opcode::Parameter => state(Some(index)),
                Opcode::Tuple => eval(comp, *t.operands.get(index as usize)?, state, budget),
                _ => None,
            }
        }
        Opcode::Copy => arg(0, budget),
        Opcode::Convert => wrap(arg(0, budget)?.v, ty),
        Opcode::Negate => wrap(-arg(0, budget)?.v, ty),
        Opcode::Not => {
            let x = arg(0, budget)?;
            wrap(if ty == DType::Pred { 1 - x.v } else { !x.v }, ty)
        }
        Opcode::Add | Opcode::Subtract | Opcode::Multiply if ty != DType::Pred => {
            let (x, y) = (arg(0, budget)?.v, arg(1, budget)?.v);
            let v = match inst.opcode {
                Opcode::Add => x + y,
                Opcode::Subtract => x - y,
                _ => x.checked_mul(y)?,
            };
            wrap(v, ty)
        }
        Opcode::And | Opcode::Or | Opcode::Xor | Opcode::Maximum | Opcode::Minimum => {
            let (x, y) = (arg(0, budget)?.v, arg(1, budget)?.v);
            let v = match inst.opcode {
                Opcode::And => x & y,
                Opcode::Or => x | y,
                Opcode::Xor => x ^ y,
                Opcode::Maximum => x.max(y),
                _ => x.min(y),
            };
            wrap(v, ty)
        }
        Opcode::Compare => {
            let Attrs::Compare { direction, .. } = inst.attrs else {
                return None;
            };
            let (x, y) = (arg(0, budget)?, arg(1, budget)?);
            let holds = match direction {
                ComparisonDirection::Eq => x.v == y.v,
                ComparisonDirection::Ne => x.v != y.v,
                ComparisonDirection::Lt => x.v < y.v,
                ComparisonDirection::Le => x.v <= y.v,
                ComparisonDirection::Gt => x.v > y.v,
                ComparisonDirection::Ge => x.v >= y.v,
            };
            wrap(i128::from(holds), DType::Pred)
        }
        Opcode::Select => {
            let p = arg(0, budget)?;
            arg(if p.v != 0 { 1 } else { 2 }, budget)
        }
        _ => None,
    }
}

/// 0 or 1 when the loop provably runs that many times.
fn trip_count_at_most_one(module: &Module, cid: CompId, w: InstId) -> Option<u8> {
    let caller = module.comp(cid);
    let inst = caller.inst(w);
    let (cond_id, body_id) = loop_parts(inst)?;
    let (cond, body) = (module.comp(cond_id), module.comp(body_id));
    // Replacing the loop would drop its ordering constraints.
    if has_side_effects(cond) || !inst.extras.control_predecessors.is_empty() {
        return None;
    }
    let init = inst.operands[0];
    let mut budget = 10_000u32;
    let budget = &mut budget;
    // The initial state, element by element, evaluated in the caller.
    let init_state = |k: Option<i64>| -> Option<Scalar> {
        let mut b = 1_000u32;
        let i = caller.inst(init);
        match k {
            None => eval(caller, init, &|_| None, &mut b),
            Some(k) if i.opcode == Opcode::Tuple => eval(caller, *i.operands.get(k as usize)?, &|_| None, &mut b),
            Some(_) => None,
        }
    };
    if eval(cond, cond.root, &init_state, budget)?.v == 0 {
        return Some(0);
    }
    // The state after one iteration, element by element, evaluated in the body.
    let root = body.root_inst();
    let next_state = |k: Option<i64>| -> Option<Scalar> {
        let mut b = 1_000u32;
        match k {
            None => eval(body, body.root, &init_state, &mut b),
            Some(k) if root.opcode == Opcode::Tuple => eval(body, *root.operands.get(k as usize)?, &init_state, &mut b),
            Some(_) => None,
        }
    };
    (eval(cond, cond.root, &next_state, budget)?.v == 0).then_some(1)
}

/// The number of times loop `w` of computation `cid` runs when that follows
/// from constants (the condition and the state it reads are integer or pred
/// scalars the body computes from constants, as in a `fori_loop` with constant
/// bounds), counted up to `max`; `None` otherwise or past `max`.
pub(crate) fn constant_trip_count(module: &Module, cid: CompId, w: InstId, max: u64) -> Option<u64> {
    let caller = module.comp(cid);
    let inst = caller.inst(w);
    let (cond_id, body_id) = loop_parts(inst)?;
    let (cond, body) = (module.comp(cond_id), module.comp(body_id));
    if has_side_effects(cond) {
        return None;
    }
    let n = inst.shape.tuple_elements().len();
    let init = caller.inst(inst.operands[0]);
    if init.opcode != Opcode::Tuple || body.root_inst().opcode != Opcode::Tuple {
        return None;
    }
    let mut state: Vec<Option<Scalar>> = init
        .operands
        .iter()
        .map(|&o| {
            let mut b = 1_000u32;
            eval(caller, o, &|_| None, &mut b)
        })
        .collect();
    let root = body.root_inst();
    for trips in 0..=max {
        let now = state.clone();
        let read = move |k: Option<i64>| -> Option<Scalar> { *now.get(usize::try_from(k?).ok()?)? };
        let mut budget = 10_000u32;
        if eval(cond, cond.root, &read, &mut budget)?.v == 0 {
            return Some(trips);
        }
        state = (0..n)
            .map(|k| {
                let mut b = 10_000u32;
                eval(body, *root.operands.get(k)?, &read, &mut b)
            })
            .collect();
    }
    None
}

/// Replaces a loop that runs `trips` (0 or 1) times by its initial state or by one
/// copy of its body.
fn replace_by_trips(module: &mut Module, cid: CompId, w: InstId, trips: u8, names: &mut NameUniquer) -> bool {
    let is_entry = cid == module.entry;
    let inst = module.comp(cid).inst(w).clone();
    let init = inst.operands[0];
    if trips == 0 {
        let mut rw = Rewriter::new(module.comp_mut(cid), names, is_entry);
        rw.begin(w);
        return rw.replace(w, init);
    }
    let Some((_, body_id)) = loop_parts(&inst) else {
        return false;
    };
    let body = module.comp(body_id).clone();
    let mut rw = Rewriter::new(module.comp_mut(cid), names, is_entry);
    rw.begin(w);
    let mut map = SecondaryMap::with_default(body.insts.capacity(), None::<InstId>);
    for id in body.post_order() {
        let b = body.inst(id);
        let new_id = if b.opcode == Opcode::Parameter {
            init
        } else {
            let mut clone = b.clone();
            let remap = |ids: &mut dyn Iterator<Item = &mut InstId>| -> Option<()> {
                for o in ids {
                    *o = map[*o]?;
                }
                Some(())
            };
            if remap(&mut clone.operands.iter_mut()).is_none()
                || remap(&mut clone.extras.control_predecessors.iter_mut()).is_none()
            {
                rw.discard_created();
                return false;
            }
            rw.add_inst(clone)
        };
        map[id] = Some(new_id);
    }
    match map[body.root] {
        Some(result) => rw.replace(w, result),
        None => {
            rw.discard_created();
            false
        }
    }
}

// ---- loop state -----------------------------------------------------------------------

/// The tuple indices `param` is read at, if every use of it is a get-tuple-element.
fn tuple_reads(c: &Computation, param: InstId, users: &[InstId]) -> Option<Vec<(InstId, i64)>> {
    let mut out = Vec::new();
    for &u in users {
        match c.inst(u).attrs {
            Attrs::GetTupleElement { index } if c.inst(u).operands[0] == param => out.push((u, index)),
            _ => return None,
        }
    }
    Some(out)
}

/// The single parameter of a loop computation and its get-tuple-element readers.
fn param_reads(c: &Computation) -> Option<(InstId, Vec<(InstId, i64)>)> {
    let param = *c.params().first()?;
    let users = c.users();
    Some((param, tuple_reads(c, param, &users[param])?))
}

/// Element `k` of the initial state, as an instruction of the caller: the tuple's
/// operand, or a new get-tuple-element.
fn init_element(rw: &mut Rewriter<'_>, init: InstId, k: i64) -> Option<InstId> {
    let i = rw.inst(init);
    if i.opcode == Opcode::Tuple {
        return i.operands.get(k as usize).copied();
    }
    let shape = i.shape.tuple_elements().get(k as usize)?.clone();
    Some(rw.add(Opcode::GetTupleElement, shape, &[init], Attrs::GetTupleElement { index: k }))
}

/// Makes users `get-tuple-element(while, k)` of pass-through elements read the
/// initial state; returns how many were redirected.
fn forward_invariants(module: &mut Module, cid: CompId, w: InstId, names: &mut NameUniquer) -> usize {
    let is_entry = cid == module.entry;
    let inst = module.comp(cid).inst(w);
    let Some((_, body_id)) = loop_parts(inst) else {
        return 0;
    };
    let init = inst.operands[0];
    let body = module.comp(body_id);
    let Some((param, _)) = param_reads(body) else {
        return 0;
    };
    let root = body.root_inst();
    if root.opcode != Opcode::Tuple {
        return 0;
    }
    let passes_through = |k: i64| {
        root.operands.get(k as usize).is_some_and(|&o| {
            let e = body.inst(o);
            e.operands.first() == Some(&param) && e.attrs == Attrs::GetTupleElement { index: k }
        })
    };
    let caller = module.comp(cid);
    let users = caller.users();
    let Some(reads) = tuple_reads(caller, w, &users[w]) else {
        return 0;
    };
    let forwardable: Vec<(InstId, i64)> = reads.into_iter().filter(|&(_, k)| passes_through(k)).collect();
    let mut rw = Rewriter::new(module.comp_mut(cid), names, is_entry);
    let mut forwarded = 0;
    for (g, k) in forwardable {
        rw.begin(g);
        match init_element(&mut rw, init, k) {
            Some(e) if rw.replace(g, e) => forwarded += 1,
            _ => rw.discard_created(),
        }
    }
    forwarded
}

/// Removes loop state nothing observes; returns how many elements were removed.
fn remove_dead_state(module: &mut Module, cid: CompId, w: InstId, names: &mut NameUniquer) -> usize {
    let Some(keep) = live_state(module, cid, w) else {
        return 0;
    };
    let removed = keep.iter().filter(|&&k| !k).count();
    if removed == 0 {
        return 0;
    }
    let inst = module.comp(cid).inst(w).clone();
    let Some((cond_id, body_id)) = loop_parts(&inst) else {
        return 0;
    };
    // New index of each kept element.
    let mut new_index = vec![None; keep.len()];
    let mut next = 0i64;
    for (k, &kept) in keep.iter().enumerate() {
        if kept {
            new_index[k] = Some(next);
            next += 1;
        }
    }
    let kept_shape = |s: &Shape| -> Shape {
        Shape::Tuple(s.tuple_elements().iter().zip(&keep).filter(|(_, k)| **k).map(|(e, _)| e.clone()).collect())
    };
    let state_shape = kept_shape(&inst.shape);
    // First what can fail, in the caller: the new initial tuple.
    let is_entry = cid == module.entry;
    let init = inst.operands[0];
    let new_init = {
        let mut rw = Rewriter::new(module.comp_mut(cid), names, is_entry);
        rw.begin(w);
        let mut elements = Vec::new();
        for (k, &kept) in keep.iter().enumerate() {
            if !kept {
                continue;
            }
            let Some(e) = init_element(&mut rw, init, k as i64) else {
                rw.discard_created();
                return 0;
            };
            elements.push(e);
        }
        rw.add(Opcode::Tuple, state_shape.clone(), &elements, Attrs::None)
    };
    // Then the condition and body, each read only through get-tuple-element (see
    // `live_state`).
    let cond = private_copy(module, cond_id, names);
    let body = private_copy(module, body_id, names);
    for c in [cond, body] {
        let comp = module.comp_mut(c);
        // `live_state` checked that both read their parameter this way.
        let Some((param, reads)) = param_reads(comp) else {
            continue;
        };
        comp.inst_mut(param).shape = state_shape.clone();
        for (g, k) in reads {
            // Readers of removed elements are dead (they fed only removed state);
            // they get a valid index until DCE removes them.
            let index = new_index[k as usize].unwrap_or(0);
            comp.inst_mut(g).attrs = Attrs::GetTupleElement { index };
        }
    }
    let body_comp = module.comp_mut(body);
    let root = body_comp.root;
    let root_inst = body_comp.inst_mut(root);
    root_inst.operands =
        std::mem::take(&mut root_inst.operands).into_iter().zip(&keep).filter(|(_, k)| **k).map(|(o, _)| o).collect();
    root_inst.shape = kept_shape(&root_inst.shape);
    crate::dce::remove_dead_instructions(module, body);
    // Finally the new loop, whose users read the kept elements at their new indices.
    let mut rw = Rewriter::new(module.comp_mut(cid), names, is_entry);
    let mut new_while = inst;
    new_while.operands = [new_init].into_iter().collect();
    new_while.called = [cond, body].into_iter().collect();
    new_while.shape = state_shape;
    let new_w = rw.add_inst(new_while);
    let users = rw.comp.users();
    for g in users[w].clone() {
        let gte = rw.comp.inst_mut(g);
        if let Attrs::GetTupleElement { index } = gte.attrs
            && let Some(Some(i)) = new_index.get(index as usize)
        {
            gte.operands[0] = new_w;
            gte.attrs = Attrs::GetTupleElement { index: *i };
        }
    }
    // Control edges on the old loop move to the new one.
    rw.comp.replace_all_uses(w, new_w);
    rw.comp.remove(w);
    removed
}

/// Which state elements of a loop must stay, or `None` when the loop cannot be
/// analysed (state not a tuple, state read whole, loop is its caller's root).
fn live_state(module: &Module, cid: CompId, w: InstId) -> Option<Vec<bool>> {
    let caller = module.comp(cid);
    let inst = caller.inst(w);
    let (cond_id, body_id) = loop_parts(inst)?;
    let n = match &inst.shape {
        Shape::Tuple(t) => t.len(),
        Shape::Array(_) => return None,
    };
    if caller.root == w {
        return None;
    }
    let users = caller.users();
    let mut keep = vec![false; n];
    for (_, k) in tuple_reads(caller, w, &users[w])? {
        *keep.get_mut(k as usize)? = true;
    }
    let (_, cond_reads) = param_reads(module.comp(cond_id))?;
    for (_, k) in cond_reads {
        *keep.get_mut(k as usize)? = true;
    }
    let body = module.comp(body_id);
    let (param, _) = param_reads(body)?;
    let root = body.root_inst();
    if root.opcode != Opcode::Tuple || root.operands.len() != n {
        return None;
    }
    // Elements each root operand (and each side effect) depends on.
    let depends_on = |start: InstId| -> Vec<i64> {
        let mut seen = SecondaryMap::with_default(body.insts.capacity(), false);
        let mut stack = vec![start];
        let mut out = Vec::new();
        while let Some(id) = stack.pop() {
            if std::mem::replace(&mut seen[id], true) {
                continue;
            }
            let i = body.inst(id);
            if let Attrs::GetTupleElement { index } = i.attrs
                && i.operands[0] == param
            {
                out.push(index);
            }
            stack.extend(i.operands.iter().copied());
            stack.extend(i.extras.control_predecessors.iter().copied());
        }
        out
    };
    let mut work: Vec<i64> = (0..n as i64).filter(|&k| keep[k as usize]).collect();
    for (id, i) in body.insts.iter() {
        if i.opcode.has_side_effect() || i.opcode == Opcode::CustomCall {
            for k in depends_on(id) {
                if !std::mem::replace(keep.get_mut(k as usize)?, true) {
                    work.push(k);
                }
            }
        }
    }
    while let Some(k) = work.pop() {
        for j in depends_on(root.operands[k as usize]) {
            if !std::mem::replace(keep.get_mut(j as usize)?, true) {
                work.push(j);
            }
        }
    }
    Some(keep)
}

/// `comp` itself when a single instruction calls it, else a copy of it with fresh
/// names.
fn private_copy(module: &mut Module, comp: CompId, names: &mut NameUniquer) -> CompId {
    let calls: usize = module
        .comps
        .iter()
        .flat_map(|(_, c)| c.insts.iter())
        .map(|(_, i)| i.called.iter().filter(|&&c| c == comp).count())
        .sum();
    if calls <= 1 {
        return comp;
    }
    let mut copy = module.comp(comp).clone();
    copy.name = names.make(&copy.name);
    for (_, inst) in copy.insts.iter_mut() {
        inst.name = names.make(&inst.name);
    }
    module.add_computation(copy)
}
