//! The verifier: checks that a module is well formed, and returns a proof of it.
//!
//! Backends take a [`Verified`] module, which only [`verify`] constructs, so IR that
//! was never checked cannot reach code generation. The pass pipeline verifies
//! around every pass; a failure after a pass is a compiler bug.
//!
//! What is checked, in order (each step relies on the ones before it):
//! 1. the entry exists and computation names are unique;
//! 2. per computation: the root and every operand, control predecessor and called
//!    computation exist; instruction names are unique; parameter numbers are
//!    exactly `0..n`; there is no cycle;
//! 3. the call graph has no recursion and nests at most [`MAX_CALL_DEPTH`] levels;
//! 4. per instruction: a well-formed declared shape, and what [`infer_shape`] checks
//!    (operand count, attribute kind, called computations and their signatures,
//!    operand shapes), ending with the declared shape agreeing with the inferred one
//!    (layouts aside);
//! 5. the module header: `entry_computation_layout`, `input_output_alias` and
//!    `buffer_donor` agree with the entry computation.
//!
//! The verifier never panics, whatever the module holds (dangling ids included).

use std::collections::{HashMap, HashSet};
use std::ops::Deref;

use crate::computation::Computation;
use crate::id::{Id, SecondaryMap};
use crate::instruction::{CompId, InstId, Instruction};
use crate::module::Module;
use crate::opcode::Opcode;
use crate::shape::Shape;
use crate::shape_inference::{ProgramShape, infer_shape, validate_shape};

/// Why a module is malformed. Messages name the place: the computation, and the
/// instruction and its opcode where there is one.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum VerifyError {
    #[error("the entry computation {0:?} does not exist")]
    MissingEntry(CompId),
    #[error("computation name '{0}' is used more than once")]
    DuplicateComputationName(String),
    #[error("in computation '{comp}': {message}")]
    Computation { comp: String, message: String },
    #[error("in computation '{comp}', instruction '{inst}' ({op}): {message}")]
    Instruction { comp: String, inst: String, op: Opcode, message: String },
    /// The module header disagrees with the entry computation.
    #[error("in module '{module}': {message}")]
    Module { module: String, message: String },
}

/// A module the verifier accepted. Backends require one; only [`verify`] makes one.
#[derive(Clone, Copy, Debug)]
pub struct Verified<'m>(&'m Module);

impl<'m> Verified<'m> {
    pub fn module(&self) -> &'m Module {
        self.0
    }
}

impl Deref for Verified<'_> {
    type Target = Module;
    fn deref(&self) -> &Module {
        self.0
    }
}

type Result<T> = std::result::Result<T, VerifyError>;

fn comp_err(c: &Computation, message: impl Into<String>) -> VerifyError {
    VerifyError::Computation { comp: c.name.clone(), message: message.into() }
}

fn inst_err(c: &Computation, inst: &Instruction, message: impl Into<String>) -> VerifyError {
    VerifyError::Instruction { comp: c.name.clone(), inst: inst.name.clone(), op: inst.opcode, message: message.into() }
}

/// Checks `m` and returns the proof that it is well formed.
pub fn verify(m: &Module) -> Result<Verified<'_>> {
    if !m.comps.contains(m.entry) {
        return Err(VerifyError::MissingEntry(m.entry));
    }
    let mut names = HashSet::new();
    for (_, c) in m.comps.iter() {
        if !names.insert(c.name.as_str()) {
            return Err(VerifyError::DuplicateComputationName(c.name.clone()));
        }
    }
    for (_, c) in m.comps.iter() {
        check_structure(m, c)?;
    }
    check_call_graph(m)?;
    let mut signatures = SecondaryMap::with_default(m.comps.capacity(), None);
    for (id, c) in m.comps.iter() {
        signatures[id] = ProgramShape::of(c);
    }
    for (_, c) in m.comps.iter() {
        for id in c.post_order() {
            check_instruction(c, id, &signatures)?;
        }
    }
    check_header(m)?;
    Ok(Verified(m))
}

/// References, names, parameter numbers and acyclicity of one computation.
fn check_structure(m: &Module, c: &Computation) -> Result<()> {
    if !c.insts.contains(c.root) {
        return Err(comp_err(c, format!("the root {:?} is not an instruction of the computation", c.root)));
    }
    let mut names = HashSet::new();
    let mut params: HashMap<u32, &str> = HashMap::new();
    for (_, inst) in c.insts.iter() {
        if !names.insert(inst.name.as_str()) {
            return Err(comp_err(c, format!("instruction name '{}' is used more than once", inst.name)));
        }
        for (i, &op) in inst.operands.iter().enumerate() {
            if !c.insts.contains(op) {
                return Err(inst_err(
                    c,
                    inst,
                    format!("operand {i} ({op:?}) is not an instruction of this computation"),
                ));
            }
        }
        for &p in &inst.extras.control_predecessors {
            if !c.insts.contains(p) {
                return Err(inst_err(
                    c,
                    inst,
                    format!("control predecessor {p:?} is not an instruction of this computation"),
                ));
            }
        }
        for &callee in &inst.called {
            if !m.comps.contains(callee) {
                return Err(inst_err(c, inst, format!("called computation {callee:?} does not exist")));
            }
        }
        if let Some(n) = inst.parameter_number()
            && let Some(other) = params.insert(n, &inst.name)
        {
            return Err(comp_err(c, format!("parameter number {n} is used by both '{other}' and '{}'", inst.name)));
        }
    }
    if let Some(missing) = (0..params.len() as u32).find(|n| !params.contains_key(n)) {
        return Err(comp_err(c, format!("parameter numbers must be 0..{}, but {missing} is missing", params.len())));
    }
    check_acyclic(c)
}

/// No instruction may depend on itself through operands and control predecessors.
fn check_acyclic(c: &Computation) -> Result<()> {
    let deps = |id: InstId| {
        let inst = &c.insts[id];
        inst.operands.iter().chain(&inst.extras.control_predecessors).copied().collect::<Vec<_>>()
    };
    match find_cycle(c.insts.capacity(), c.insts.ids(), deps) {
        Some(cycle) => {
            let path = cycle.iter().map(|&s| format!("'{}'", c.insts[s].name)).collect::<Vec<_>>().join(" <- ");
            Err(comp_err(c, format!("instructions form a cycle: {path} (each uses the next)")))
        }
        None => Ok(()),
    }
}

/// How many computations a chain of calls may hold, the entry included.
/// Every walk over the call graph may recurse this deep (backends' code
/// generation, buffer assignment, the interpreter); the bound keeps them within
/// the native stack. Real programs nest a handful of levels.
pub const MAX_CALL_DEPTH: usize = 64;

/// The deepest call chain the optimizer takes: fusion wraps instructions in a
/// computation of their own, one level below, so the pipeline keeps headroom
/// under [`MAX_CALL_DEPTH`].
pub const MAX_OPTIMIZER_CALL_DEPTH: usize = MAX_CALL_DEPTH - 2;

/// No computation may call itself, directly or through others, and no chain of
/// calls may be longer than [`MAX_CALL_DEPTH`].
fn check_call_graph(m: &Module) -> Result<()> {
    let callees = |id: CompId| -> Vec<CompId> {
        let mut seen = HashSet::new();
        m.comps[id].insts.iter().flat_map(|(_, inst)| inst.called.iter().copied()).filter(|c| seen.insert(*c)).collect()
    };
    match find_cycle(m.comps.capacity(), m.comps.ids(), callees) {
        Some(cycle) => {
            let path = cycle.iter().map(|&s| format!("'{}'", m.comps[s].name)).collect::<Vec<_>>().join(" -> ");
            let last = cycle[cycle.len() - 1];
            Err(comp_err(&m.comps[last], format!("recursive call chain {path}")))
        }
        None => check_call_depth(m, MAX_CALL_DEPTH),
    }
}

/// Checks that no call chain holds more than `limit` computations; the longest
/// is found by dynamic programming over callees-first order. Call on a module
/// whose call graph is known to be acyclic (one that verifies).
pub fn check_call_depth(m: &Module, limit: usize) -> Result<()> {
    let mut depth = SecondaryMap::with_default(m.comps.capacity(), 0usize);
    let mut next = SecondaryMap::with_default(m.comps.capacity(), None::<CompId>);
    for id in m.computation_post_order() {
        let deepest = m.callees(id).into_iter().filter(|&c| m.comps.contains(c)).max_by_key(|&c| depth[c]);
        depth[id] = 1 + deepest.map_or(0, |c| depth[c]);
        next[id] = deepest;
    }
    let Some((top, levels)) = m.comps.ids().map(|id| (id, depth[id])).max_by_key(|&(_, d)| d) else {
        return Ok(());
    };
    if levels <= limit {
        return Ok(());
    }
    let mut chain = vec![top];
    while let Some(c) = next[*chain.last().unwrap_or(&top)] {
        chain.push(c);
    }
    let name = |c: &CompId| format!("'{}'", m.comps[*c].name);
    let head: Vec<String> = chain.iter().take(3).map(name).collect();
    let tail: Vec<String> = chain.iter().skip(chain.len().saturating_sub(2).max(3)).map(name).collect();
    let path = if chain.len() > 5 {
        format!("{} -> ... -> {}", head.join(" -> "), tail.join(" -> "))
    } else {
        chain.iter().map(name).collect::<Vec<_>>().join(" -> ")
    };
    Err(comp_err(
        &m.comps[top],
        format!("calls nest {levels} computations deep ({path}); at most {limit} are supported"),
    ))
}

/// Depth-first search from each of `ids` along `next`; an edge to an id still on
/// the stack closes a cycle, returned from that id round to itself (`a, b, a`).
fn find_cycle<T>(
    capacity: usize,
    ids: impl Iterator<Item = Id<T>>,
    next: impl Fn(Id<T>) -> Vec<Id<T>>,
) -> Option<Vec<Id<T>>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        Open,
        Done,
    }
    let mut mark = SecondaryMap::with_default(capacity, Mark::New);
    for start in ids {
        if mark[start] != Mark::New {
            continue;
        }
        let mut stack: Vec<(Id<T>, Vec<Id<T>>, usize)> = vec![(start, next(start), 0)];
        mark[start] = Mark::Open;
        while let Some((id, succs, i)) = stack.last_mut() {
            let Some(&succ) = succs.get(*i) else {
                mark[*id] = Mark::Done;
                stack.pop();
                continue;
            };
            *i += 1;
            match mark[succ] {
                Mark::Done => {}
                Mark::New => {
                    mark[succ] = Mark::Open;
                    stack.push((succ, next(succ), 0));
                }
                Mark::Open => {
                    let from = stack.iter().position(|(s, _, _)| *s == succ).unwrap_or(0);
                    let mut cycle: Vec<Id<T>> = stack[from..].iter().map(|(s, _, _)| *s).collect();
                    cycle.push(succ);
                    return Some(cycle);
                }
            }
        }
    }
    None
}

/// The declared shape is well formed and agrees with shape inference.
fn check_instruction(
    c: &Computation,
    id: InstId,
    signatures: &SecondaryMap<CompId, Option<ProgramShape>>,
) -> Result<()> {
    let inst = &c.insts[id];
    let fail = |message: String| inst_err(c, inst, message);
    validate_shape(inst.opcode, "shape", &inst.shape).map_err(|e| fail(e.detail()))?;
    let operands: Vec<&Shape> = inst.operands.iter().map(|&o| &c.insts[o].shape).collect();
    let mut called = Vec::with_capacity(inst.called.len());
    for &callee in &inst.called {
        match &signatures[callee] {
            Some(sig) => called.push(sig.clone()),
            None => return Err(fail(format!("called computation {callee:?} has no root"))),
        }
    }
    let inferred =
        infer_shape(inst.opcode, &operands, &inst.attrs, &called, Some(&inst.shape)).map_err(|e| fail(e.detail()))?;
    if !inferred.same_type(&inst.shape) {
        return Err(fail(format!("shape {} does not match the inferred shape {inferred}", inst.shape)));
    }
    Ok(())
}

/// The entry layout, aliases and donors of the header agree with the entry.
fn check_header(m: &Module) -> Result<()> {
    let fail = |message: String| VerifyError::Module { module: m.name.clone(), message };
    let entry = &m.comps[m.entry];
    let params = entry.param_shapes();
    let result = entry.result_shape();
    let cfg = &m.config;
    if let Some(layout) = &cfg.entry_computation_layout {
        if layout.params.len() != params.len() {
            return Err(fail(format!(
                "entry_computation_layout has {} parameters, entry computation '{}' has {}",
                layout.params.len(),
                entry.name,
                params.len()
            )));
        }
        for (i, (l, p)) in layout.params.iter().zip(&params).enumerate() {
            if !l.same_type(p) {
                return Err(fail(format!(
                    "entry_computation_layout parameter {i} is {l}, but parameter {i} of '{}' is {p}",
                    entry.name
                )));
            }
        }
        if !layout.result.same_type(result) {
            return Err(fail(format!(
                "entry_computation_layout result is {}, but '{}' returns {result}",
                layout.result, entry.name
            )));
        }
    }
    let param_subshape = |n: u32, index: &[i64], what: &str| -> Result<&Shape> {
        let p = params.get(n as usize).ok_or_else(|| {
            fail(format!("{what} names parameter {n}, but the entry has {} parameters", params.len()))
        })?;
        p.subshape(index).ok_or_else(|| {
            fail(format!(
                "{what} names index {} of parameter {n}, which {p} does not have",
                crate::attrs::Braced(index)
            ))
        })
    };
    let mut aliased_outputs = HashSet::new();
    for a in &cfg.input_output_alias {
        let out_index = crate::attrs::Braced(&a.output_index);
        let out = result.subshape(&a.output_index).ok_or_else(|| {
            fail(format!("input_output_alias names output index {out_index}, which the result {result} does not have"))
        })?;
        let p = param_subshape(a.param, &a.param_index, "input_output_alias")?;
        if !out.same_type(p) {
            return Err(fail(format!(
                "input_output_alias pairs output {out_index} ({out}) with parameter {} index {} ({p}) of a different shape",
                a.param,
                crate::attrs::Braced(&a.param_index)
            )));
        }
        if !aliased_outputs.insert(a.output_index.clone()) {
            return Err(fail(format!("input_output_alias aliases output {out_index} more than once")));
        }
    }
    for d in &cfg.buffer_donor {
        param_subshape(d.param, &d.param_index, "buffer_donor")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attrs::Attrs;
    use crate::text::parse_module;

    /// `ok` or the verifier's message for a module given as text.
    fn check(text: &str) -> String {
        check_module(&parse_module(text).unwrap())
    }

    fn check_module(m: &Module) -> String {
        match verify(m) {
            Ok(v) => {
                assert!(std::ptr::eq(v.module(), m));
                "ok".into()
            }
            Err(e) => e.to_string(),
        }
    }

    const ADD: &str = "add {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  \
                       ROOT s = f32[] add(a, b)\n}\n";

    #[test]
    fn accepts_a_well_formed_module() {
        let text = format!(
            "HloModule m, entry_computation_layout={{(f32[4,8]{{1,0}})->f32[4]{{0}}}}\n{ADD}\n\
             ENTRY main {{\n  x = f32[4,8]{{0,1}} parameter(0)\n  z = f32[] constant(0)\n  \
             ROOT r = f32[4] reduce(x, z), dimensions={{1}}, to_apply=add\n}}\n"
        );
        assert_eq!(check(&text), "ok");
        let m = parse_module(&text).unwrap();
        let v = verify(&m).unwrap();
        assert_eq!(v.entry().name, "main");
    }

    #[test]
    fn operand_and_declared_shape_mismatches() {
        assert_eq!(
            check(
                "HloModule m\nENTRY main {\n  x = f32[4] parameter(0)\n  y = f32[3] parameter(1)\n  \
                 ROOT add.3 = f32[4] add(x, y)\n}\n"
            ),
            "in computation 'main', instruction 'add.3' (add): operand 1 has shape f32[3]{0}, \
             expected f32[4]{0}"
        );
        assert_eq!(
            check(
                "HloModule m\nENTRY main {\n  x = f32[4] parameter(0)\n  \
                 ROOT n = s32[4] negate(x)\n}\n"
            ),
            "in computation 'main', instruction 'n' (negate): shape s32[4]{0} does not match \
             the inferred shape f32[4]{0}"
        );
        assert_eq!(
            check("HloModule m\nENTRY main {\n  x = f32[4] parameter(0)\n  ROOT a = f32[4] add(x)\n}\n"),
            "in computation 'main', instruction 'a' (add): expected 2 operands, got 1"
        );
        assert_eq!(
            check(
                "HloModule m\nENTRY main {\n  x = f32[2,3] parameter(0)\n  \
                 ROOT t = f32[3,2] transpose(x), dimensions={0,2}\n}\n"
            ),
            "in computation 'main', instruction 't' (transpose): transpose dimension 2 is out of \
             range for rank 2"
        );
    }

    #[test]
    fn parameter_numbers_are_unique_and_contiguous() {
        assert_eq!(
            check(
                "HloModule m\nENTRY main {\n  x = f32[] parameter(0)\n  y = f32[] parameter(2)\n  \
                 ROOT a = f32[] add(x, y)\n}\n"
            ),
            "in computation 'main': parameter numbers must be 0..2, but 1 is missing"
        );
        assert_eq!(
            check(
                "HloModule m\nENTRY main {\n  x = f32[] parameter(0)\n  y = f32[] parameter(0)\n  \
                 ROOT a = f32[] add(x, y)\n}\n"
            ),
            "in computation 'main': parameter number 0 is used by both 'x' and 'y'"
        );
    }

    #[test]
    fn cycles_and_recursion() {
        assert_eq!(
            check(
                "HloModule m\nENTRY main {\n  x = f32[] parameter(0)\n  a = f32[] add(x, b)\n  \
                 b = f32[] negate(a)\n  ROOT r = f32[] copy(b)\n}\n"
            ),
            "in computation 'main': instructions form a cycle: 'a' <- 'b' <- 'a' (each uses the next)"
        );
        assert_eq!(
            check(
                "HloModule m\nf {\n  p = f32[] parameter(0)\n  ROOT c = f32[] call(p), to_apply=g\n}\n\
                 g {\n  p = f32[] parameter(0)\n  ROOT c = f32[] call(p), to_apply=f\n}\n\
                 ENTRY main {\n  x = f32[] parameter(0)\n  ROOT c = f32[] call(x), to_apply=f\n}\n"
            ),
            "in computation 'f': recursive call chain 'f' -> 'g' -> 'f'"
        );
    }

    #[test]
    fn called_computation_signatures() {
        let mul_s32 = "mul {\n  a = s32[] parameter(0)\n  b = s32[] parameter(1)\n  \
                       ROOT m = s32[] multiply(a, b)\n}\n";
        assert_eq!(
            check(&format!(
                "HloModule m\n{mul_s32}ENTRY main {{\n  x = f32[4] parameter(0)\n  \
                 z = f32[] constant(1)\n  ROOT r = f32[] reduce(x, z), dimensions={{0}}, \
                 to_apply=mul\n}}\n"
            )),
            "in computation 'main', instruction 'r' (reduce): init value 0 has shape f32[], \
             expected s32[]"
        );
        assert_eq!(
            check(&format!(
                "HloModule m\n{ADD}ENTRY main {{\n  x = (s32[], f32[2]) parameter(0)\n  \
                 ROOT w = (s32[], f32[2]) while(x), condition=add, body=add\n}}\n"
            )),
            "in computation 'main', instruction 'w' (while): condition (f32[], f32[]) -> f32[] \
             must take 1 parameter"
        );
        assert_eq!(
            check(&format!(
                "HloModule m\n{ADD}ENTRY main {{\n  x = f32[8] parameter(0)\n  \
                 ROOT s = f32[8] sort(x), dimensions={{0}}, to_apply=add\n}}\n"
            )),
            "in computation 'main', instruction 's' (sort): comparator result has shape f32[], \
             expected pred[]"
        );
    }

    #[test]
    fn dangling_references_and_names() {
        let text = "HloModule m\nENTRY main {\n  x = f32[] parameter(0)\n  n = f32[] negate(x)\n  \
                    ROOT r = f32[] negate(n)\n}\n";
        let mut m = parse_module(text).unwrap();
        let entry = m.entry;
        let n = m.comp(entry).find("n").unwrap();
        m.comp_mut(entry).remove(n);
        assert_eq!(
            check_module(&m),
            "in computation 'main', instruction 'r' (negate): operand 0 (#1) is not an \
             instruction of this computation"
        );
        let mut m = parse_module(text).unwrap();
        m.comp_mut(entry).root = n;
        m.comp_mut(entry).remove(n);
        assert_eq!(check_module(&m), "in computation 'main': the root #1 is not an instruction of the computation");
        let mut m = parse_module(text).unwrap();
        m.comp_mut(entry).inst_mut(n).name = "x".into();
        assert_eq!(check_module(&m), "in computation 'main': instruction name 'x' is used more than once");
        let mut m = parse_module(text).unwrap();
        m.comp_mut(entry).inst_mut(n).attrs = Attrs::Iota { dimension: 0 };
        assert_eq!(
            check_module(&m),
            "in computation 'main', instruction 'n' (negate): expected None attributes, got Iota"
        );
        let mut m = parse_module(&text.replacen("\n", &format!("\n{ADD}"), 1)).unwrap();
        let add = m.find_computation("add").unwrap();
        m.comp_mut(add).name = "main".into();
        assert_eq!(check_module(&m), "computation name 'main' is used more than once");
        m.entry = crate::instruction::CompId::from_index(7);
        assert_eq!(check_module(&m), "the entry computation #7 does not exist");
    }

    #[test]
    fn header_agrees_with_the_entry() {
        let body = "ENTRY main {\n  x = f32[4] parameter(0)\n  y = s32[] parameter(1)\n  \
                    ROOT t = (f32[4], s32[]) tuple(x, y)\n}\n";
        assert_eq!(
            check(&format!(
                "HloModule m, entry_computation_layout={{(f32[4]{{0}}, s32[])->(f32[4]{{0}}, s32[])}}, \
                 input_output_alias={{ {{0}}: (0, {{}}, may-alias) }}, buffer_donor={{ (1, {{}}) }}\n{body}"
            )),
            "ok"
        );
        assert_eq!(
            check(&format!(
                "HloModule m, entry_computation_layout={{(f32[5]{{0}}, s32[])->(f32[4]{{0}}, s32[])}}\n{body}"
            )),
            "in module 'm': entry_computation_layout parameter 0 is f32[5]{0}, but parameter 0 of \
             'main' is f32[4]{0}"
        );
        assert_eq!(
            check(&format!("HloModule m, input_output_alias={{ {{1}}: (0, {{}}, may-alias) }}\n{body}")),
            "in module 'm': input_output_alias pairs output {1} (s32[]) with parameter 0 index {} \
             (f32[4]{0}) of a different shape"
        );
        assert_eq!(
            check(&format!("HloModule m, input_output_alias={{ {{2}}: (0, {{}}, may-alias) }}\n{body}")),
            "in module 'm': input_output_alias names output index {2}, which the result \
             (f32[4]{0}, s32[]) does not have"
        );
        assert_eq!(
            check(&format!("HloModule m, buffer_donor={{ (2, {{}}) }}\n{body}")),
            "in module 'm': buffer_donor names parameter 2, but the entry has 2 parameters"
        );
    }

    #[test]
    fn malformed_declared_shapes_are_errors() {
        assert_eq!(
            check("HloModule m\nENTRY main {\n  ROOT x = f32[4611686018427387904,4] parameter(0)\n}\n"),
            "in computation 'main', instruction 'x' (parameter): shape \
             f32[4611686018427387904,4]{1,0} is malformed: its size overflows 64 bits"
        );
        let mut m = parse_module("HloModule m\nENTRY main {\n  ROOT x = f32[4,2] parameter(0)\n}\n").unwrap();
        let entry = m.entry;
        let root = m.comp(entry).root;
        if let Shape::Array(a) = &mut m.comp_mut(entry).inst_mut(root).shape {
            a.layout.minor_to_major = [1, 1].into_iter().collect();
        }
        assert_eq!(
            check_module(&m),
            "in computation 'main', instruction 'x' (parameter): shape f32[4,2]{1,1} is \
             malformed: layout {1,1} is not a permutation of its 2 dimensions"
        );
    }
}
