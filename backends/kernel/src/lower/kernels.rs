//! Kernels: fusions and unfused operations as [`Kernel`]s and library steps.
//!
//! A fusion's body (or an unfused elemental instruction in its own computation)
//! is emitted over the index space of its outputs:
//! - rooted at a dynamic-update-slice of a parameter: `UpdateSlice` over the
//!   update, after a copy of the operand into the output when they differ;
//! - outputs that are the results of a reduce-window spanning one whole axis (a
//!   cumulative sum, product, max, ...): one `Scan` kernel, O(n) instead of the
//!   O(n²) of evaluating each window (other outputs: `Loop` kernels);
//! - outputs that are reductions over the same dimensions of the same input
//!   shape, plus outputs over that input shape: one `Reduce` kernel;
//! - otherwise `Loop` kernels, one per distinct output shape (reductions and
//!   reduce-windows inline as [`crate::ir::Node::Reduce`]).
//!
//! Output fusions become a `Dot` or `Conv` step whose epilogue is a `Loop`
//! kernel reading the product as input 0, at the output index only; batched
//! float products of small matrices become a `Reduce` kernel instead, the
//! epilogue a `Loop` kernel after it ([`SMALL_PRODUCT_WORK`]). Sort,
//! scatter, select-and-scatter and rng-bit-generator have their own bodies.

use std::collections::HashMap;

use smelt_hlo::attrs::{ComparisonDirection as Dir, ScanWindow, ScatterAttrs};
use smelt_hlo::{Attrs, CompId, Computation, DType, InstId, Instruction, Module, Opcode};
use smelt_passes::dot_canonicalizer::is_canonical;

use super::builder::Builder;
use super::elemental::{Binding, Emitter, Source};
use super::prune::prune;
use super::scalar_fn;
use super::{LResult, Lowerer, internal, unsupported};
use crate::ir::{
    ArrayType, BinaryOp, BufRef, Buffer, ConvStep, DotStep, FnPattern, Graph, Kernel, KernelBody, KernelId, Node,
    NodeId, Scalar, ScalarFn, Step, WindowSpec,
};

/// The work of one fusion or unfused instruction.
struct Spec<'m> {
    /// The sequential computation and the instruction there.
    cid: CompId,
    id: InstId,
    inst: &'m Instruction,
    /// The computation emitted from (the fusion body, or `cid` itself).
    body: CompId,
    bindings: HashMap<InstId, Binding>,
    root: InstId,
}

impl<'m> Spec<'m> {
    fn fusion(lw: &Lowerer<'m>, cid: CompId, id: InstId) -> LResult<Spec<'m>> {
        let comp = lw.module.comp(cid);
        let inst = comp.inst(id);
        let body = inst.called.first().copied().ok_or_else(|| internal(comp, inst, "fusion without a body"))?;
        let bc = lw.module.comp(body);
        let mut bindings = HashMap::new();
        for p in bc.params() {
            let k = bc.inst(p).parameter_number().unwrap_or(0) as usize;
            if k >= inst.operands.len() {
                return Err(internal(comp, inst, "fusion parameter without an operand"));
            }
            bindings.insert(p, Binding::Operand(k));
        }
        Ok(Spec { cid, id, inst, body, bindings, root: bc.root })
    }

    fn single(lw: &Lowerer<'m>, cid: CompId, id: InstId) -> Spec<'m> {
        let inst = lw.module.comp(cid).inst(id);
        let mut bindings = HashMap::new();
        for (k, &op) in inst.operands.iter().enumerate() {
            bindings.entry(op).or_insert(Binding::Operand(k));
        }
        Spec { cid, id, inst, body: cid, bindings, root: id }
    }

    fn comp(&self, lw: &Lowerer<'m>) -> &'m Computation {
        lw.module.comp(self.cid)
    }
}

/// The array outputs of a computation rooted at `root`: tuple elements flattened.
fn flatten(comp: &Computation, root: InstId, out: &mut Vec<(InstId, usize)>) {
    let inst = comp.inst(root);
    if inst.opcode == Opcode::Tuple {
        for &op in &inst.operands {
            flatten(comp, op, out);
        }
    } else {
        out.extend((0..inst.shape.leaves().len()).map(|leaf| (root, leaf)));
    }
}

/// Bitcasts and reshapes in sequential computations alias their operand, which
/// is right unless a bitcast reorders elements through a layout.
pub(crate) fn check_rename(comp: &Computation, inst: &Instruction) -> LResult<()> {
    if inst.opcode != Opcode::Bitcast {
        return Ok(());
    }
    let (Some(to), Some(from)) = (inst.shape.as_array(), comp.inst(inst.operands[0]).shape.as_array()) else {
        return Err(unsupported(comp, inst, "a bitcast of a tuple"));
    };
    if from.same_element_order(to) {
        Ok(())
    } else {
        Err(unsupported(comp, inst, "a bitcast that reorders elements by layout"))
    }
}

/// Resolves a kernel's inputs to buffers (the product, if any, stays out).
fn input_buffers(lw: &mut Lowerer<'_>, spec: &Spec<'_>, inputs: &[(Source, ArrayType)]) -> LResult<Vec<BufRef>> {
    let mut out = Vec::with_capacity(inputs.len());
    for (source, ty) in inputs {
        match source {
            Source::Operand { index, leaf } => {
                let op = spec.inst.operands[*index];
                out.push(lw.buf(spec.cid, op, *leaf as usize)?);
            }
            Source::Const(n) => out.push(BufRef { buffer: Buffer::Const(*n), ty: ty.clone() }),
            Source::Product => {}
        }
    }
    Ok(out)
}

fn kernel_step(lw: &mut Lowerer<'_>, kernel: Kernel, inputs: Vec<BufRef>, outputs: Vec<BufRef>) -> Step {
    let kernel = lw.add_kernel(kernel);
    Step::Kernel { kernel, inputs, outputs }
}

pub(crate) fn fusion(lw: &mut Lowerer<'_>, cid: CompId, id: InstId, steps: &mut Vec<Step>) -> LResult<()> {
    let spec = Spec::fusion(lw, cid, id)?;
    let body = lw.module.comp(spec.body);
    let contractions: Vec<InstId> = body
        .insts
        .iter()
        .filter(|(_, i)| matches!(i.opcode, Opcode::Dot | Opcode::Convolution))
        .map(|(c, _)| c)
        .collect();
    match contractions.as_slice() {
        [] => elemental(lw, &spec, steps),
        [c] => output_fusion(lw, &spec, *c, steps),
        _ => Err(unsupported(spec.comp(lw), spec.inst, "a fusion with several contractions")),
    }
}

pub(crate) fn single(lw: &mut Lowerer<'_>, cid: CompId, id: InstId, steps: &mut Vec<Step>) -> LResult<()> {
    let spec = Spec::single(lw, cid, id);
    elemental(lw, &spec, steps)
}

/// A fusion (or unfused instruction) without a contraction.
fn elemental(lw: &mut Lowerer<'_>, spec: &Spec<'_>, steps: &mut Vec<Step>) -> LResult<()> {
    let body = lw.module.comp(spec.body);
    let mut outs = Vec::new();
    flatten(body, spec.root, &mut outs);
    let out_bufs = lw.bufs_of(spec.cid, spec.id)?;
    if out_bufs.len() != outs.len() {
        return Err(internal(spec.comp(lw), spec.inst, "outputs and result leaves differ"));
    }
    let root = body.inst(spec.root);
    if outs.len() == 1
        && root.opcode == Opcode::DynamicUpdateSlice
        && matches!(spec.bindings.get(&root.operands[0]), Some(Binding::Operand(_)))
    {
        return update_slice(lw, spec, &out_bufs, steps);
    }
    if let Some(plan) = scan_plan(lw.module, body, &outs) {
        return scan_kernel(lw, spec, &outs, &out_bufs, plan, steps);
    }
    if let Some(plan) = reduce_plan(body, &outs) {
        return reduce_kernel(lw, spec, &outs, &out_bufs, plan, steps);
    }
    loop_kernels(lw, spec, &outs, &out_bufs, steps)
}

/// The value output `out` of a fusion body renames through the reshapes at
/// its root (row-major: the same elements in the same order), so that a loop
/// kernel computing it alone runs over that value's own dims and indexes its
/// operands without dividing a flat index: a 3x3 max pool fused with the
/// reshape to a product's `[C, H*W]` operand read its windows through a
/// division by the width at every element, 2.6x slower.
fn through_reshapes(body: &Computation, out: (InstId, usize)) -> (InstId, usize) {
    let mut at = out;
    loop {
        let inst = body.inst(at.0);
        match inst.operands.first() {
            Some(&src)
                if inst.opcode == Opcode::Reshape
                    && at.1 == 0
                    && inst.shape.as_array().is_some()
                    && body.inst(src).shape.as_array().is_some() =>
            {
                at = (src, 0)
            }
            _ => return at,
        }
    }
}

/// One `Loop` kernel per distinct shape among outputs `outs` (stored in `out_bufs`).
fn loop_kernels(
    lw: &mut Lowerer<'_>,
    spec: &Spec<'_>,
    outs: &[(InstId, usize)],
    out_bufs: &[BufRef],
    steps: &mut Vec<Step>,
) -> LResult<()> {
    let mut groups: Vec<(Vec<i64>, Vec<usize>)> = Vec::new();
    for (k, b) in out_bufs.iter().enumerate() {
        match groups.iter_mut().find(|(dims, _)| *dims == b.ty.dims) {
            Some(g) => g.1.push(k),
            None => groups.push((b.ty.dims.clone(), vec![k])),
        }
    }
    let several = groups.len() > 1;
    for (g, (dims, members)) in groups.into_iter().enumerate() {
        let module = lw.module;
        let body = module.comp(spec.body);
        // A lone output runs over the dims of the value its root reshapes.
        let (roots, dims) = match members.as_slice() {
            [k] => {
                let src = through_reshapes(body, outs[*k]);
                let src_dims = body.inst(src.0).shape.as_array().map(|a| a.dims.to_vec());
                (vec![src], src_dims.unwrap_or(dims))
            }
            _ => (members.iter().map(|&k| outs[k]).collect(), dims),
        };
        let mut em = Emitter::new(module, &mut lw.consts, &dims);
        let ctx = em.context(spec.body, spec.bindings.clone(), 0);
        let idx = em.indices(dims.len());
        let mut nodes = Vec::with_capacity(members.len());
        for &(id, leaf) in &roots {
            nodes.push(em.emit(ctx, id, leaf, &idx, 0)?);
        }
        let (graph, inputs) = em.finish();
        let graph = prune(&graph, &mut nodes.iter_mut().collect::<Vec<_>>());
        let in_bufs = input_buffers(lw, spec, &inputs)?;
        let outputs: Vec<BufRef> = members
            .iter()
            .map(|&k| {
                let mut b = out_bufs[k].clone();
                b.ty.dims = dims.clone();
                b
            })
            .collect();
        let name = if several { format!("{}.{g}", spec.inst.name) } else { spec.inst.name.clone() };
        let kernel = Kernel {
            name,
            inputs: inputs.into_iter().map(|(_, t)| t).collect(),
            outputs: outputs.iter().map(|b| b.ty.clone()).collect(),
            body: KernelBody::Loop { space: dims, graph, outputs: nodes },
        };
        steps.push(kernel_step(lw, kernel, in_bufs, outputs));
    }
    Ok(())
}

/// An in-place dynamic-update-slice of a parameter.
fn update_slice(lw: &mut Lowerer<'_>, spec: &Spec<'_>, out_bufs: &[BufRef], steps: &mut Vec<Step>) -> LResult<()> {
    let body = lw.module.comp(spec.body);
    let root = body.inst(spec.root);
    let ierr = |m: &str| internal(body, root, m.to_string());
    let Some(&Binding::Operand(k0)) = spec.bindings.get(&root.operands[0]) else {
        return Err(ierr("the updated operand is not a parameter"));
    };
    let dims = body.inst(root.operands[0]).shape.as_array().map(|a| a.dims.to_vec()).ok_or_else(|| ierr("operand"))?;
    let upd = body.inst(root.operands[1]).shape.as_array().map(|a| a.dims.to_vec()).ok_or_else(|| ierr("update"))?;
    let operand_buf = lw.buf(spec.cid, spec.inst.operands[k0], 0)?;
    let module = lw.module;
    let mut em = Emitter::new(module, &mut lw.consts, &upd);
    em.input(Source::Operand { index: k0, leaf: 0 }, operand_buf.ty.clone());
    let ctx = em.context(spec.body, spec.bindings.clone(), 0);
    let idx = em.indices(upd.len());
    let mut value = em.emit(ctx, root.operands[1], 0, &idx, 0)?;
    let mut start = em.dynamic_starts(ctx, root, &dims, &upd, 0)?;
    let (graph, inputs) = em.finish();
    let graph = {
        let mut roots: Vec<&mut NodeId> = start.iter_mut().collect();
        roots.push(&mut value);
        prune(&graph, &mut roots)
    };
    let out = out_bufs[0].clone();
    if out.buffer == operand_buf.buffer && loads_input(&graph, 0) {
        return Err(ierr("the update reads the operand it overwrites in place"));
    }
    if out.buffer != operand_buf.buffer {
        steps.push(Step::Copy { src: operand_buf, dst: out.clone() });
    }
    let in_bufs = input_buffers(lw, spec, &inputs)?;
    let kernel = Kernel {
        name: spec.inst.name.clone(),
        inputs: inputs.into_iter().map(|(_, t)| t).collect(),
        outputs: vec![out.ty.clone()],
        body: KernelBody::UpdateSlice { space: upd, graph, start, value },
    };
    steps.push(kernel_step(lw, kernel, in_bufs, vec![out]));
    Ok(())
}

/// Whether any node of `graph` (or of its reduction bodies) loads `input`.
fn loads_input(graph: &Graph, input: usize) -> bool {
    graph.nodes.iter().any(|n| match n {
        Node::Load { input: i, .. } => *i == input,
        Node::Reduce(r) => loads_input(&r.body, input),
        _ => false,
    })
}

/// A reduce-window that is a scan, whose results are outputs of the kernel.
struct ScanPlan {
    rw: InstId,
    space: Vec<i64>,
    scan: ScanWindow,
}

/// The scan among outputs `outs`: one reduce-window whose window spans a whole
/// axis ([`smelt_hlo::attrs::Window::as_scan`]), each of its results an output
/// exactly once. A reverse scan reorders the window's fold, so it needs a
/// reducer that is one commutative, associative operation.
fn scan_plan(module: &Module, body: &Computation, outs: &[(InstId, usize)]) -> Option<ScanPlan> {
    let mut found: Option<InstId> = None;
    for &(id, _) in outs {
        if body.inst(id).opcode == Opcode::ReduceWindow && found.replace(id).is_some_and(|f| f != id) {
            return None;
        }
    }
    let rw = found?;
    let inst = body.inst(rw);
    let Attrs::Window(w) = &inst.attrs else { return None };
    let space = body.inst(*inst.operands.first()?).shape.as_array()?.dims.to_vec();
    let scan = w.as_scan(&space)?;
    let leaves = inst.operands.len() / 2;
    if (0..leaves).any(|leaf| outs.iter().filter(|&&o| o == (rw, leaf)).count() != 1) {
        return None;
    }
    if scan.reverse {
        let reducer = module.comp(inst.to_apply()?);
        if leaves != 1 || !matches!(scalar_fn::pattern(reducer), Some(FnPattern::Binary(_))) {
            return None;
        }
    }
    Some(ScanPlan { rw, space, scan })
}

fn scan_kernel(
    lw: &mut Lowerer<'_>,
    spec: &Spec<'_>,
    outs: &[(InstId, usize)],
    out_bufs: &[BufRef],
    plan: ScanPlan,
    steps: &mut Vec<Step>,
) -> LResult<()> {
    let module = lw.module;
    let body = module.comp(spec.body);
    let inst = body.inst(plan.rw);
    // Outputs that are not the scan's are loop kernels of their own.
    let (mut others, mut other_bufs) = (Vec::new(), Vec::new());
    for (o, b) in outs.iter().zip(out_bufs) {
        if o.0 != plan.rw {
            others.push(*o);
            other_bufs.push(b.clone());
        }
    }
    if !others.is_empty() {
        loop_kernels(lw, spec, &others, &other_bufs, steps)?;
    }
    let n = inst.operands.len() / 2;
    let f = inst.to_apply().ok_or_else(|| internal(body, inst, "reduce-window without a computation"))?;
    let reducer = scalar_fn::build(module, &mut lw.consts, f, false)?;
    let mut em = Emitter::new(module, &mut lw.consts, &plan.space);
    let ctx = em.context(spec.body, spec.bindings.clone(), 0);
    let idx = em.indices(plan.space.len());
    let (mut init, mut values) = (Vec::with_capacity(n), Vec::with_capacity(n));
    let at = accumulators(&mut em, ctx, body, plan.rw, outs, &idx, (&mut init, &mut values))?;
    let outputs: Vec<BufRef> = at.into_iter().map(|a| out_bufs[a].clone()).collect();
    let (graph, inputs) = em.finish();
    let graph = {
        let mut roots: Vec<&mut NodeId> = init.iter_mut().chain(values.iter_mut()).collect();
        prune(&graph, &mut roots)
    };
    let in_bufs = input_buffers(lw, spec, &inputs)?;
    let kernel = Kernel {
        name: spec.inst.name.clone(),
        inputs: inputs.into_iter().map(|(_, t)| t).collect(),
        outputs: outputs.iter().map(|b| b.ty.clone()).collect(),
        body: KernelBody::Scan {
            space: plan.space,
            axis: plan.scan.axis,
            reverse: plan.scan.reverse,
            graph,
            init,
            values,
            reducer,
        },
    };
    steps.push(kernel_step(lw, kernel, in_bufs, outputs));
    Ok(())
}

/// Reductions sharing one input shape and reduced dimensions, plus outputs over
/// that shape: what one `Reduce` kernel computes.
struct ReducePlan {
    space: Vec<i64>,
    reduced: Vec<usize>,
    reduces: Vec<InstId>,
}

fn reduce_plan(body: &Computation, outs: &[(InstId, usize)]) -> Option<ReducePlan> {
    let mut reduces: Vec<InstId> = Vec::new();
    for &(id, _) in outs {
        if body.inst(id).opcode == Opcode::Reduce && !reduces.contains(&id) {
            reduces.push(id);
        }
    }
    let first = body.inst(*reduces.first()?);
    let space = body.inst(*first.operands.first()?).shape.as_array()?.dims.to_vec();
    let sorted = |i: &Instruction| {
        let mut d: Vec<usize> = i.attrs.dimensions().iter().filter_map(|&d| usize::try_from(d).ok()).collect();
        d.sort_unstable();
        d
    };
    let reduced = sorted(first);
    for &r in &reduces {
        let inst = body.inst(r);
        let input = body.inst(*inst.operands.first()?).shape.as_array()?;
        if input.dims.as_slice() != space.as_slice() || sorted(inst) != reduced {
            return None;
        }
        // Every result of every reduction is an output exactly once.
        for leaf in 0..inst.shape.leaves().len() {
            if outs.iter().filter(|&&o| o == (r, leaf)).count() != 1 {
                return None;
            }
        }
    }
    for &(id, leaf) in outs {
        if !reduces.contains(&id) && body.inst(id).shape.leaves().get(leaf)?.dims.as_slice() != space.as_slice() {
            return None;
        }
    }
    Some(ReducePlan { space, reduced, reduces })
}

/// Emits the accumulators of reduction `r` (a reduce or scan of `n` inputs):
/// its init values at no index and its inputs at `idx`, appended to `init` and
/// `values`. Returns where each of its results is in `outs`.
fn accumulators(
    em: &mut Emitter<'_, '_>,
    ctx: usize,
    body: &Computation,
    r: InstId,
    outs: &[(InstId, usize)],
    idx: &[NodeId],
    (init, values): (&mut Vec<NodeId>, &mut Vec<NodeId>),
) -> LResult<Vec<usize>> {
    let inst = body.inst(r);
    let n = inst.operands.len() / 2;
    let mut at = Vec::with_capacity(n);
    for j in 0..n {
        init.push(em.emit(ctx, inst.operands[n + j], 0, &[], 0)?);
        values.push(em.emit(ctx, inst.operands[j], 0, idx, 0)?);
        at.push(outs.iter().position(|&o| o == (r, j)).ok_or_else(|| internal(body, inst, "result"))?);
    }
    Ok(at)
}

fn reduce_kernel(
    lw: &mut Lowerer<'_>,
    spec: &Spec<'_>,
    outs: &[(InstId, usize)],
    out_bufs: &[BufRef],
    plan: ReducePlan,
    steps: &mut Vec<Step>,
) -> LResult<()> {
    let module = lw.module;
    let body = module.comp(spec.body);
    let mut parts = Vec::with_capacity(plan.reduces.len());
    for &r in &plan.reduces {
        let inst = body.inst(r);
        let f = inst.to_apply().ok_or_else(|| internal(body, inst, "reduce without a computation"))?;
        parts.push((f, inst.operands.len() / 2));
    }
    let reducer = scalar_fn::combine(module, &mut lw.consts, &parts)?;
    let mut em = Emitter::new(module, &mut lw.consts, &plan.space);
    let ctx = em.context(spec.body, spec.bindings.clone(), 0);
    let idx = em.indices(plan.space.len());
    let (mut init, mut values, mut reduce_outputs): (Vec<NodeId>, Vec<NodeId>, Vec<usize>) =
        (Vec::new(), Vec::new(), Vec::new());
    for &r in &plan.reduces {
        reduce_outputs.extend(accumulators(&mut em, ctx, body, r, outs, &idx, (&mut init, &mut values))?);
    }
    let mut extra = Vec::new();
    for (k, &(id, leaf)) in outs.iter().enumerate() {
        if !plan.reduces.contains(&id) {
            extra.push((k, em.emit(ctx, id, leaf, &idx, 0)?));
        }
    }
    let (graph, inputs) = em.finish();
    let graph = {
        let mut roots: Vec<&mut NodeId> = init.iter_mut().chain(values.iter_mut()).collect();
        roots.extend(extra.iter_mut().map(|(_, n)| n));
        prune(&graph, &mut roots)
    };
    let in_bufs = input_buffers(lw, spec, &inputs)?;
    let kernel = Kernel {
        name: spec.inst.name.clone(),
        inputs: inputs.into_iter().map(|(_, t)| t).collect(),
        outputs: out_bufs.iter().map(|b| b.ty.clone()).collect(),
        body: KernelBody::Reduce {
            space: plan.space,
            reduced: plan.reduced,
            graph,
            init,
            values,
            reducer,
            reduce_outputs,
            extra,
        },
    };
    steps.push(kernel_step(lw, kernel, in_bufs, out_bufs.to_vec()));
    Ok(())
}

/// An output fusion: the contraction as a library step, the rest as its epilogue.
fn output_fusion(lw: &mut Lowerer<'_>, spec: &Spec<'_>, contraction: InstId, steps: &mut Vec<Step>) -> LResult<()> {
    let module = lw.module;
    let body = module.comp(spec.body);
    let c = body.inst(contraction);
    let mut operands = Vec::with_capacity(2);
    for &op in c.operands.iter() {
        match spec.bindings.get(&op) {
            Some(&Binding::Operand(k)) => operands.push(lw.buf(spec.cid, spec.inst.operands[k], 0)?),
            _ => return Err(unsupported(body, c, "a contraction whose operands are computed inside its fusion")),
        }
    }
    let [lhs, rhs] = <[BufRef; 2]>::try_from(operands).map_err(|_| internal(body, c, "two operands"))?;
    let mut outs = Vec::new();
    flatten(body, spec.root, &mut outs);
    let out_bufs = lw.bufs_of(spec.cid, spec.id)?;
    if out_bufs.len() != outs.len() {
        return Err(internal(spec.comp(lw), spec.inst, "outputs and result leaves differ"));
    }
    // Outputs that do not read the product (producers a multi-output fusion
    // also writes out) are a loop kernel of their own.
    let (mut product_outs, mut others, mut other_bufs) = (Vec::new(), Vec::new(), Vec::new());
    for (o, b) in outs.into_iter().zip(out_bufs) {
        if reaches(body, o.0, contraction) {
            product_outs.push((o, b));
        } else {
            others.push(o);
            other_bufs.push(b);
        }
    }
    if !others.is_empty() {
        loop_kernels(lw, spec, &others, &other_bufs, steps)?;
    }
    let [((root, _), out)] = <[((InstId, usize), BufRef); 1]>::try_from(product_outs).map_err(|_| {
        unsupported(spec.comp(lw), spec.inst, "an output fusion with several outputs reading the product")
    })?;
    let product_type = c.shape.as_array().map(|a| a.dtype).ok_or_else(|| internal(body, c, "array result"))?;
    let epilogue = if root == contraction {
        None
    } else {
        // An integer product may change type in its epilogue (requantized):
        // it then lives apart from `out` (`Program::product_dtype`).
        if product_type != out.ty.dtype && !product_type.is_int() {
            return Err(unsupported(spec.comp(lw), spec.inst, "an epilogue that changes a float product's type"));
        }
        let dims = out.ty.dims.clone();
        let mut bindings = spec.bindings.clone();
        bindings.insert(contraction, Binding::Product { out: dims.clone() });
        let mut em = Emitter::new(module, &mut lw.consts, &dims);
        em.input(Source::Product, ArrayType { dtype: product_type, dims: dims.clone() });
        let ctx = em.context(spec.body, bindings, 0);
        let idx = em.indices(dims.len());
        let mut value = em.emit(ctx, root, 0, &idx, 0)?;
        let (graph, inputs) = em.finish();
        if !product_read_at(&graph, &idx) {
            return Err(internal(
                spec.comp(lw),
                spec.inst,
                "the epilogue reads the product away from the output index",
            ));
        }
        let graph = prune(&graph, &mut [&mut value]);
        let others = input_buffers(lw, spec, &inputs)?;
        let kernel = Kernel {
            name: format!("{}.epilogue", spec.inst.name),
            inputs: inputs.into_iter().map(|(_, t)| t).collect(),
            outputs: vec![out.ty.clone()],
            body: KernelBody::Loop { space: dims, graph, outputs: vec![value] },
        };
        let id = lw.add_kernel(kernel);
        Some((id, others))
    };
    if let Some(product) = small_batched_product(lw, body, c, &lhs, &rhs, &out, epilogue.as_ref())? {
        steps.push(product);
        if let Some((id, others)) = epilogue {
            // The epilogue in place over the product, as the routine would
            // have run it per block.
            let mut inputs = vec![out.clone()];
            inputs.extend(others);
            steps.push(Step::Kernel { kernel: id, inputs, outputs: vec![out] });
        }
        return Ok(());
    }
    steps.push(contraction_step(body, c, lhs, rhs, out, epilogue)?);
    Ok(())
}

/// Per-matrix work (`m * n * k`) up to which a batched product runs as a
/// reduce kernel. The product routine packs and schedules every batch
/// element apart, which small matrices do not repay: `[b, m, k] x [b, k, n]`
/// as the routine against a reduce kernel (vector lanes along `n`), ms:
/// 1024 x 12x16x12 0.84 / 0.17, 4096 x 4x8x4 1.58 / 0.055, 256 x 32^3 0.40
/// / 0.17, 128 x 64^3 0.76 / 0.42, 96 x 128x128x64 1.93 / 1.72, but 8 x
/// 256^3 1.57 / 3.86, and unbatched 512x512x64 0.26 / 0.72 (AMD EPYC, Zen
/// 2). The kernel costs a compile (10-20 ms) the cached routine does not,
/// so the bound stays where the routine's loss is large.
const SMALL_PRODUCT_WORK: i64 = 1 << 18;

/// A batched float product of small matrices whose rhs is not transposed,
/// as a `Reduce` kernel over `[b, m, k, n]` (the depth reduced, lanes along
/// `n`) writing `out`; None for any other product, and when the epilogue
/// reads `out` (it must see the product before `out` is overwritten).
fn small_batched_product(
    lw: &mut Lowerer<'_>,
    comp: &Computation,
    inst: &Instruction,
    lhs: &BufRef,
    rhs: &BufRef,
    out: &BufRef,
    epilogue: Option<&(KernelId, Vec<BufRef>)>,
) -> LResult<Option<Step>> {
    let Step::Dot(d) = contraction_step(comp, inst, lhs.clone(), rhs.clone(), out.clone(), None)? else {
        return Ok(None);
    };
    let t = out.ty.dtype;
    let float = matches!(t, DType::F32 | DType::F64) && lhs.ty.dtype == t && rhs.ty.dtype == t;
    let (b, m, n, k) = (d.batch, d.m, d.n, d.k);
    let small = b >= 2 && m > 0 && n > 0 && k > 0 && m.saturating_mul(n).saturating_mul(k) <= SMALL_PRODUCT_WORK;
    let reads_out = epilogue.is_some_and(|(_, others)| others.iter().any(|o| overlaps(o, out)));
    if !float || !small || d.rhs_transposed || lhs.ty.dims.len() != 3 || reads_out {
        return Ok(None);
    }
    let mut g = Builder::new(&[b, m, k, n]);
    let (bi, i, kk, j) = (g.index(0), g.index(1), g.index(2), g.index(3));
    let x = g.load(0, t, if d.lhs_transposed { vec![bi, kk, i] } else { vec![bi, i, kk] });
    let y = g.load(1, t, vec![bi, kk, j]);
    let value = g.binary(BinaryOp::Mul, x, y).map_err(|e| internal(comp, inst, &e))?;
    let init = g.constant(Scalar::Float(t, 0.0));
    let mut r = Builder::new(&[]);
    let (p, q) = (r.param(0, t), r.param(1, t));
    let sum = r.binary(BinaryOp::Add, p, q).map_err(|e| internal(comp, inst, &e))?;
    let reducer = ScalarFn {
        params: vec![t, t],
        graph: r.finish(),
        outputs: vec![sum],
        pattern: Some(FnPattern::Binary(BinaryOp::Add)),
    };
    let product = ArrayType { dtype: t, dims: vec![b, m, n] };
    let kernel = Kernel {
        name: inst.name.clone(),
        inputs: vec![lhs.ty.clone(), rhs.ty.clone()],
        outputs: vec![product.clone()],
        body: KernelBody::Reduce {
            space: vec![b, m, k, n],
            reduced: vec![2],
            graph: g.finish(),
            init: vec![init],
            values: vec![value],
            reducer,
            reduce_outputs: vec![0],
            extra: Vec::new(),
        },
    };
    let target = BufRef { buffer: out.buffer.clone(), ty: product };
    Ok(Some(kernel_step(lw, kernel, vec![lhs.clone(), rhs.clone()], vec![target])))
}

/// Whether two buffers share memory (temporaries by their byte ranges).
fn overlaps(a: &BufRef, b: &BufRef) -> bool {
    match (&a.buffer, &b.buffer) {
        (Buffer::Temp(x), Buffer::Temp(y)) => {
            let (xe, ye) = (x + a.ty.byte_size(), y + b.ty.byte_size());
            x < &ye && y < &xe
        }
        (x, y) => x == y,
    }
}

/// Whether instruction `from` of `body` depends on instruction `to`.
fn reaches(body: &Computation, from: InstId, to: InstId) -> bool {
    let mut stack = vec![from];
    let mut seen = std::collections::HashSet::new();
    while let Some(id) = stack.pop() {
        if id == to {
            return true;
        }
        if seen.insert(id) {
            stack.extend(body.inst(id).operands.iter().copied());
        }
    }
    false
}

/// Whether every load of input 0 (the product) is at the loop indices `idx`.
fn product_read_at(graph: &Graph, idx: &[NodeId]) -> bool {
    graph.nodes.iter().all(|n| match n {
        Node::Load { input: 0, index } => index.as_slice() == idx,
        Node::Reduce(r) => !loads_input(&r.body, 0),
        _ => true,
    })
}

/// An unfused dot or convolution.
pub(crate) fn contraction(lw: &mut Lowerer<'_>, cid: CompId, id: InstId, steps: &mut Vec<Step>) -> LResult<()> {
    let comp = lw.module.comp(cid);
    let inst = comp.inst(id);
    let lhs = lw.buf(cid, inst.operands[0], 0)?;
    let rhs = lw.buf(cid, inst.operands[1], 0)?;
    let out = lw.buf(cid, id, 0)?;
    if let Some(product) = small_batched_product(lw, comp, inst, &lhs, &rhs, &out, None)? {
        steps.push(product);
        return Ok(());
    }
    steps.push(contraction_step(comp, inst, lhs, rhs, out, None)?);
    Ok(())
}

fn contraction_step(
    comp: &Computation,
    inst: &Instruction,
    lhs: BufRef,
    rhs: BufRef,
    out: BufRef,
    epilogue: Option<(KernelId, Vec<BufRef>)>,
) -> LResult<Step> {
    match &inst.attrs {
        Attrs::Dot(d) => {
            if !is_canonical(comp, inst) {
                return Err(unsupported(comp, inst, "a dot not in canonical form (run the dot canonicalizer first)"));
            }
            let r = lhs.ty.dims.len();
            let (l, rd) = (&lhs.ty.dims, &rhs.ty.dims);
            let lhs_transposed = d.lhs_contracting.first() == Some(&(r as i64 - 2));
            let rhs_transposed = d.rhs_contracting.first() == Some(&(r as i64 - 1));
            let batch = if r == 3 { l[0] } else { 1 };
            let (m, k) = if lhs_transposed { (l[r - 1], l[r - 2]) } else { (l[r - 2], l[r - 1]) };
            let n = if rhs_transposed { rd[r - 2] } else { rd[r - 1] };
            Ok(Step::Dot(Box::new(DotStep { lhs, rhs, out, batch, m, n, k, lhs_transposed, rhs_transposed, epilogue })))
        }
        Attrs::Convolution(c) => {
            let window = c.window.dims.iter().map(WindowSpec::of).collect();
            let window_reversal = c.window.dims.iter().map(|w| w.reversal).collect();
            Ok(Step::Conv(Box::new(ConvStep {
                input: lhs,
                kernel: rhs,
                out,
                dims: c.dims.clone(),
                window,
                window_reversal,
                feature_group_count: c.feature_group_count,
                batch_group_count: c.batch_group_count,
                epilogue,
            })))
        }
        _ => Err(internal(comp, inst, "not a dot or convolution")),
    }
}

pub(crate) fn sort(lw: &mut Lowerer<'_>, cid: CompId, id: InstId, steps: &mut Vec<Step>) -> LResult<()> {
    let module = lw.module;
    let comp = module.comp(cid);
    let inst = comp.inst(id);
    let Attrs::Sort { dimension, is_stable } = inst.attrs else {
        return Err(internal(comp, inst, "sort attributes"));
    };
    let inputs: Vec<BufRef> = inst.operands.iter().map(|&o| lw.buf(cid, o, 0)).collect::<LResult<_>>()?;
    let outputs = lw.bufs_of(cid, id)?;
    let dims = inputs.first().map(|b| b.ty.dims.clone()).ok_or_else(|| internal(comp, inst, "no operands"))?;
    let dimension = usize::try_from(dimension).ok().filter(|&d| d < dims.len());
    let dimension = dimension.ok_or_else(|| internal(comp, inst, "sort dimension out of range"))?;
    let f = inst.to_apply().ok_or_else(|| internal(comp, inst, "sort without a comparator"))?;
    let comparator = scalar_fn::build(module, &mut lw.consts, f, false)?;
    let kernel = Kernel {
        name: inst.name.clone(),
        inputs: inputs.iter().map(|b| b.ty.clone()).collect(),
        outputs: outputs.iter().map(|b| b.ty.clone()).collect(),
        body: KernelBody::Sort { dims, dimension, stable: is_stable, comparator },
    };
    steps.push(kernel_step(lw, kernel, inputs, outputs));
    Ok(())
}

pub(crate) fn scatter(lw: &mut Lowerer<'_>, cid: CompId, id: InstId, steps: &mut Vec<Step>) -> LResult<()> {
    let module = lw.module;
    let comp = module.comp(cid);
    let inst = comp.inst(id);
    let ierr = |m: &str| internal(comp, inst, m.to_string());
    let Attrs::Scatter(s) = &inst.attrs else {
        return Err(ierr("scatter attributes"));
    };
    let n = inst.operands.len() / 2;
    let outputs = lw.bufs_of(cid, id)?;
    if outputs.len() != n || inst.operands.len() != 2 * n + 1 {
        return Err(ierr("scatter operands"));
    }
    // The outputs start as the operands.
    for (j, out) in outputs.iter().enumerate() {
        let src = lw.buf(cid, inst.operands[j], 0)?;
        if src.buffer != out.buffer {
            steps.push(Step::Copy { src, dst: out.clone() });
        }
    }
    let f = inst.to_apply().ok_or_else(|| ierr("scatter without a combiner"))?;
    let combiner = scalar_fn::build(module, &mut lw.consts, f, false)?;
    let spec = Spec::single(lw, cid, id);
    let dims = |k: usize| comp.inst(inst.operands[k]).shape.as_array().map(|a| a.dims.to_vec());
    let (Some(od), Some(id_dims), Some(ud)) = (dims(0), dims(n), dims(n + 1)) else {
        return Err(ierr("scatter operands must be arrays"));
    };
    let mut em = Emitter::new(module, &mut lw.consts, &ud);
    let ctx = em.context(cid, spec.bindings.clone(), 0);
    let idx = em.indices(ud.len());
    let (mut target, mut in_bounds) = scatter_target(&mut em, ctx, inst, s, (&od, &id_dims, &ud), &idx)?;
    let mut values = Vec::with_capacity(n);
    for j in 0..n {
        values.push(em.emit(ctx, inst.operands[n + 1 + j], 0, &idx, 0)?);
    }
    let (graph, inputs) = em.finish();
    let graph = {
        let mut roots: Vec<&mut NodeId> = target.iter_mut().chain(values.iter_mut()).collect();
        roots.push(&mut in_bounds);
        prune(&graph, &mut roots)
    };
    let in_bufs = input_buffers(lw, &spec, &inputs)?;
    let kernel = Kernel {
        name: inst.name.clone(),
        inputs: inputs.into_iter().map(|(_, t)| t).collect(),
        outputs: outputs.iter().map(|b| b.ty.clone()).collect(),
        body: KernelBody::Scatter { space: ud, graph, target, in_bounds, values, combiner },
    };
    steps.push(kernel_step(lw, kernel, in_bufs, outputs));
    Ok(())
}

/// Where update element `idx` lands (clamped into the operand) and whether its
/// whole window fits, as XLA's scatter decides.
fn scatter_target(
    em: &mut Emitter<'_, '_>,
    ctx: usize,
    inst: &Instruction,
    s: &ScatterAttrs,
    (od, id, ud): (&[i64], &[i64], &[i64]),
    idx: &[NodeId],
) -> LResult<(Vec<NodeId>, NodeId)> {
    let comp = em.module.comp(em.context_comp(ctx));
    let ierr = |m: String| internal(comp, inst, m);
    let rank = od.len();
    let u = |v: &i64| usize::try_from(*v).ok();
    let mut window: Vec<usize> = s.update_window_dims.iter().filter_map(u).collect();
    window.sort_unstable();
    let inserted: Vec<usize> = s.inserted_window_dims.iter().filter_map(u).collect();
    let obatch: Vec<usize> = s.input_batching_dims.iter().filter_map(u).collect();
    let ibatch: Vec<usize> = s.scatter_indices_batching_dims.iter().filter_map(u).collect();
    let map: Vec<usize> = s.scatter_dims_to_operand_dims.iter().filter_map(u).collect();
    let window_operand: Vec<usize> = (0..rank).filter(|d| !inserted.contains(d) && !obatch.contains(d)).collect();
    if window_operand.len() != window.len()
        || map.iter().chain(&obatch).any(|&d| d >= rank)
        || window.iter().any(|&d| d >= ud.len())
        || idx.len() != ud.len()
    {
        return Err(ierr("scatter dimension numbers do not fit the operand".into()));
    }
    let vector_dim = u(&s.index_vector_dim).filter(|&d| d < id.len());
    let index_batch: Vec<usize> = (0..id.len()).filter(|&d| Some(d) != vector_dim).collect();
    let pos: Vec<NodeId> = (0..ud.len()).filter(|d| !window.contains(d)).map(|d| idx[d]).collect();
    if pos.len() != index_batch.len() {
        return Err(ierr("scatter dimensions do not match the indices".into()));
    }
    let indices = inst.operands[inst.operands.len() / 2];
    let mut start: Vec<NodeId> = (0..rank).map(|_| em.root().s64(0)).collect();
    for (k, &d) in map.iter().enumerate() {
        let mut iidx = vec![None; id.len()];
        for (p, &dim) in index_batch.iter().enumerate() {
            iidx[dim] = Some(pos[p]);
        }
        if let Some(v) = vector_dim {
            iidx[v] = Some(em.root().s64(k as i64));
        }
        let iidx: Option<Vec<NodeId>> = iidx.into_iter().collect();
        let iidx = iidx.ok_or_else(|| ierr("scatter index vector".into()))?;
        let raw = em.emit(ctx, indices, 0, &iidx, 0)?;
        start[d] = em.root().index_of(raw).map_err(ierr)?;
    }
    for (&o, &i) in obatch.iter().zip(&ibatch) {
        let p = index_batch.iter().position(|&d| d == i).ok_or_else(|| ierr("scatter batching dimension".into()))?;
        start[o] = pos[p];
    }
    let mut extent = vec![1i64; rank];
    let mut offset: Vec<Option<NodeId>> = vec![None; rank];
    for (k, &d) in window_operand.iter().enumerate() {
        extent[d] = ud[window[k]];
        offset[d] = Some(idx[window[k]]);
    }
    let b = em.root();
    let mut in_bounds = b.pred(true);
    let mut target = Vec::with_capacity(rank);
    for d in 0..rank {
        let ge = b.icmp_const(Dir::Ge, start[d], 0).map_err(ierr)?;
        let le = b.icmp_const(Dir::Le, start[d], od[d] - extent[d]).map_err(ierr)?;
        in_bounds = b.and(in_bounds, ge).map_err(ierr)?;
        in_bounds = b.and(in_bounds, le).map_err(ierr)?;
        let at = match offset[d] {
            Some(o) => b.iadd(start[d], o).map_err(ierr)?,
            None => start[d],
        };
        target.push(b.iclamp(at, 0, (od[d] - 1).max(0)).map_err(ierr)?);
    }
    Ok((target, in_bounds))
}

pub(crate) fn select_and_scatter(lw: &mut Lowerer<'_>, cid: CompId, id: InstId, steps: &mut Vec<Step>) -> LResult<()> {
    let module = lw.module;
    let comp = module.comp(cid);
    let inst = comp.inst(id);
    let Attrs::Window(w) = &inst.attrs else {
        return Err(internal(comp, inst, "select-and-scatter attributes"));
    };
    let (Some(&select), Some(&scatter)) = (inst.called.first(), inst.called.get(1)) else {
        return Err(internal(comp, inst, "select-and-scatter needs select and scatter computations"));
    };
    let inputs: Vec<BufRef> = inst.operands.iter().map(|&o| lw.buf(cid, o, 0)).collect::<LResult<_>>()?;
    let out = lw.buf(cid, id, 0)?;
    let select = scalar_fn::build(module, &mut lw.consts, select, false)?;
    let scatter = scalar_fn::build(module, &mut lw.consts, scatter, false)?;
    let kernel = Kernel {
        name: inst.name.clone(),
        inputs: inputs.iter().map(|b| b.ty.clone()).collect(),
        outputs: vec![out.ty.clone()],
        body: KernelBody::SelectAndScatter { window: w.dims.iter().map(WindowSpec::of).collect(), select, scatter },
    };
    steps.push(kernel_step(lw, kernel, inputs, vec![out]));
    Ok(())
}

pub(crate) fn rng_bit_generator(lw: &mut Lowerer<'_>, cid: CompId, id: InstId, steps: &mut Vec<Step>) -> LResult<()> {
    let comp = lw.module.comp(cid);
    let inst = comp.inst(id);
    let Attrs::RngBitGenerator { algorithm } = inst.attrs else {
        return Err(internal(comp, inst, "rng-bit-generator attributes"));
    };
    let state = lw.buf(cid, inst.operands[0], 0)?;
    let outputs = lw.bufs_of(cid, id)?;
    if outputs.len() != 2 || outputs[0].ty.dtype != DType::U64 || outputs[1].ty.dtype == DType::Pred {
        return Err(unsupported(comp, inst, "an rng-bit-generator that is not (u64 state, integer or float bits)"));
    }
    let kernel = Kernel {
        name: inst.name.clone(),
        inputs: vec![state.ty.clone()],
        outputs: outputs.iter().map(|b| b.ty.clone()).collect(),
        body: KernelBody::RngBitGenerator { algorithm },
    };
    steps.push(kernel_step(lw, kernel, vec![state], outputs));
    Ok(())
}
