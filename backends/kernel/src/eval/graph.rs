//! Evaluating expression graphs, and the kernel bodies made of them (loop,
//! reduce, scan, update-slice, scatter).
//!
//! A [`GraphEval`] computes every node of a graph in id order (nodes only refer
//! to smaller ids) for one point, keeping the values for the next point to
//! overwrite. An inline reduction runs its body's evaluator over the window,
//! folding each point's values into the accumulators with the reducer.

use crate::ir::{Graph, InlineReduce, KernelBody, Node, NodeId, Scalar, ScalarFn};
use crate::sem;

use super::{EResult, Memory, View, for_each_index, invalid};

/// What a graph sees while it is evaluated.
#[derive(Clone, Copy)]
struct Env<'a, 'p> {
    index: &'a [i64],
    params: &'a [Scalar],
    outer: &'a [Scalar],
    mem: Option<&'a Memory<'p>>,
    inputs: &'a [View],
}

/// An inline reduction's body and reducer, ready to run.
struct ReduceEval<'g> {
    body: GraphEval<'g>,
    reducer: FnEval<'g>,
}

/// A graph with storage for one point's values.
pub(crate) struct GraphEval<'g> {
    graph: &'g Graph,
    vals: Vec<Scalar>,
    /// The accumulators of each `Reduce` node.
    multi: Vec<Vec<Scalar>>,
    reductions: Vec<Option<ReduceEval<'g>>>,
}

impl<'g> GraphEval<'g> {
    pub(crate) fn new(graph: &'g Graph) -> GraphEval<'g> {
        let n = graph.len();
        let reductions = graph
            .nodes
            .iter()
            .map(|node| match node {
                Node::Reduce(r) => Some(ReduceEval { body: GraphEval::new(&r.body), reducer: FnEval::new(&r.reducer) }),
                _ => None,
            })
            .collect();
        GraphEval {
            graph,
            vals: vec![Scalar::Int(smelt_hlo::DType::Pred, 0); n],
            multi: vec![Vec::new(); n],
            reductions,
        }
    }

    pub(crate) fn value(&self, id: NodeId) -> Scalar {
        self.vals[id.0 as usize]
    }

    /// Evaluates the nodes whose `mask` entry is set (all of them without a mask).
    fn eval(&mut self, env: Env<'_, '_>, mask: Option<&[bool]>, place: &str) -> EResult<()> {
        let GraphEval { graph, vals, multi, reductions } = self;
        for (i, node) in graph.nodes.iter().enumerate() {
            if mask.is_some_and(|m| !m[i]) {
                continue;
            }
            let v = |n: &NodeId| vals[n.0 as usize];
            let sem_err = |e: String| super::EvalError::Invalid { place: place.to_string(), message: e };
            let value = match node {
                Node::Index(d) => match env.index.get(*d) {
                    Some(&x) => Scalar::Int(smelt_hlo::DType::S64, x as i128),
                    None => return invalid(place, format!("loop index {d} outside the space")),
                },
                Node::Param(n) => match env.params.get(*n) {
                    Some(&x) => x,
                    None => return invalid(place, format!("no parameter {n}")),
                },
                Node::Const(c) => *c,
                Node::Outer(n) => match env.outer.get(n.0 as usize) {
                    Some(&x) => x,
                    None => return invalid(place, format!("no enclosing node {}", n.0)),
                },
                Node::Load { input, index } => {
                    let (Some(view), Some(mem)) = (env.inputs.get(*input), env.mem) else {
                        return invalid(place, format!("load of missing input {input}"));
                    };
                    let at: Vec<i64> = index.iter().map(|n| sem::as_i64(v(n))).collect();
                    match view.offset(&at) {
                        Some(o) => view.read_at(mem, o)?,
                        None => {
                            return invalid(
                                place,
                                format!("input {input} read out of bounds at {at:?} of {:?}", view.ty.dims),
                            );
                        }
                    }
                }
                Node::Unary { op, x } => sem::unary(*op, v(x)).map_err(sem_err)?,
                Node::Binary { op, a, b } => {
                    if op.is_unchecked() && !sem::in_range(*op, v(a), v(b)) {
                        // What a machine would trap on or leave undefined: a
                        // legalization bug, caught here rather than on a backend.
                        return invalid(place, format!("{op:?} of {:?} and {:?}: operands out of range", v(a), v(b)));
                    }
                    sem::binary(*op, v(a), v(b)).map_err(sem_err)?
                }
                Node::Compare { direction, compare_type, a, b } => {
                    let r = sem::compare(*direction, *compare_type, v(a), v(b)).map_err(sem_err)?;
                    Scalar::Int(smelt_hlo::DType::Pred, r as i128)
                }
                Node::Select { pred, on_true, on_false } => sem::select(v(pred), v(on_true), v(on_false)),
                Node::Clamp { min, x, max } => sem::clamp(v(min), v(x), v(max)).map_err(sem_err)?,
                Node::MulAdd { a, b, c } => sem::mul_add(v(a), v(b), v(c)).map_err(sem_err)?,
                Node::Convert { x, to } => sem::convert(v(x), *to),
                Node::Bitcast { x, to } => sem::bitcast(v(x), *to).map_err(sem_err)?,
                Node::Reduce(r) => {
                    let Some(re) = reductions[i].as_mut() else {
                        return invalid(place, "reduction without an evaluator");
                    };
                    let accs = reduce(r, re, Env { outer: &vals[..i], ..env }, vals, place)?;
                    let first = accs.first().copied();
                    multi[i] = accs;
                    match first {
                        Some(x) => x,
                        None => return invalid(place, "reduction without accumulators"),
                    }
                }
                Node::ReduceResult { reduce, index } => {
                    match multi.get(reduce.0 as usize).and_then(|m| m.get(*index)) {
                        Some(&x) => x,
                        None => return invalid(place, format!("no result {index} of node {}", reduce.0)),
                    }
                }
            };
            vals[i] = value;
        }
        Ok(())
    }
}

/// Runs an inline reduction over its window; returns the accumulators.
fn reduce(
    r: &InlineReduce,
    re: &mut ReduceEval<'_>,
    env: Env<'_, '_>,
    vals: &[Scalar],
    place: &str,
) -> EResult<Vec<Scalar>> {
    let mut accs: Vec<Scalar> = r.init.iter().map(|n| vals[n.0 as usize]).collect();
    for_each_index(&r.window, |w| {
        re.body.eval(Env { index: w, ..env }, None, place)?;
        re.reducer.fold(&mut accs, r.values.iter().map(|&n| re.body.value(n)), place)
    })?;
    Ok(accs)
}

/// A scalar function, ready to call.
pub(crate) struct FnEval<'g> {
    f: &'g ScalarFn,
    g: GraphEval<'g>,
    /// The arguments of [`FnEval::fold`]'s call.
    args: Vec<Scalar>,
}

impl<'g> FnEval<'g> {
    pub(crate) fn new(f: &'g ScalarFn) -> FnEval<'g> {
        FnEval { f, g: GraphEval::new(&f.graph), args: Vec::new() }
    }

    /// Folds one point into a reducer's accumulators: `accs = f(accs..., values...)`.
    pub(crate) fn fold(
        &mut self,
        accs: &mut Vec<Scalar>,
        values: impl IntoIterator<Item = Scalar>,
        place: &str,
    ) -> EResult<()> {
        let mut args = std::mem::take(&mut self.args);
        args.clear();
        args.extend_from_slice(accs);
        args.extend(values);
        let folded = self.call(&args, accs, place);
        self.args = args;
        folded
    }

    /// Applies the function; `out` receives its outputs.
    pub(crate) fn call(&mut self, args: &[Scalar], out: &mut Vec<Scalar>, place: &str) -> EResult<()> {
        if args.len() != self.f.params.len() || args.iter().zip(&self.f.params).any(|(a, &t)| a.dtype() != t) {
            return invalid(place, "scalar function called with the wrong arguments");
        }
        let env = Env { index: &[], params: args, outer: &[], mem: None, inputs: &[] };
        self.g.eval(env, None, place)?;
        out.clear();
        out.extend(self.f.outputs.iter().map(|&n| self.g.value(n)));
        Ok(())
    }

    pub(crate) fn call1(&mut self, args: &[Scalar], place: &str) -> EResult<Scalar> {
        let mut out = Vec::with_capacity(1);
        self.call(args, &mut out, place)?;
        match out.first() {
            Some(&x) => Ok(x),
            None => invalid(place, "scalar function without outputs"),
        }
    }
}

/// Runs a loop, reduce, scan, update-slice or scatter kernel.
pub(crate) fn run(
    place: &str,
    body: &KernelBody,
    inputs: &[View],
    outputs: &[View],
    mem: &mut Memory<'_>,
) -> EResult<()> {
    match body {
        KernelBody::Loop { space, graph, outputs: nodes } => {
            if nodes.len() != outputs.len() {
                return invalid(place, "outputs and output nodes differ");
            }
            let mut g = GraphEval::new(graph);
            for_each_index(space, |idx| {
                g.eval(Env { index: idx, params: &[], outer: &[], mem: Some(&*mem), inputs }, None, place)?;
                for (view, &n) in outputs.iter().zip(nodes) {
                    view.write(mem, idx, g.value(n))?;
                }
                Ok(())
            })
        }
        KernelBody::Reduce { space, reduced, graph, init, values, reducer, reduce_outputs, extra } => {
            if init.len() != values.len() || reduce_outputs.len() != init.len() {
                return invalid(place, "accumulators, values and outputs differ in number");
            }
            let kept: Vec<usize> = (0..space.len()).filter(|d| !reduced.contains(d)).collect();
            let kept_space: Vec<i64> = kept.iter().map(|&d| space[d]).collect();
            let red_space: Vec<i64> = reduced.iter().filter_map(|&d| space.get(d).copied()).collect();
            if red_space.len() != reduced.len() {
                return invalid(place, "reduced dimension outside the space");
            }
            let init_mask = graph.live(init);
            let mut g = GraphEval::new(graph);
            let mut f = FnEval::new(reducer);
            let mut full = vec![0i64; space.len()];
            let mut accs = Vec::new();
            for_each_index(&kept_space, |k| {
                for (p, &d) in kept.iter().enumerate() {
                    full[d] = k[p];
                }
                for &d in reduced {
                    full[d] = 0;
                }
                g.eval(
                    Env { index: &full, params: &[], outer: &[], mem: Some(&*mem), inputs },
                    Some(&init_mask),
                    place,
                )?;
                accs.clear();
                accs.extend(init.iter().map(|&n| g.value(n)));
                for_each_index(&red_space, |r| {
                    for (p, &d) in reduced.iter().enumerate() {
                        full[d] = r[p];
                    }
                    g.eval(Env { index: &full, params: &[], outer: &[], mem: Some(&*mem), inputs }, None, place)?;
                    f.fold(&mut accs, values.iter().map(|&n| g.value(n)), place)?;
                    for &(o, n) in extra {
                        match outputs.get(o) {
                            Some(view) => view.write(mem, &full, g.value(n))?,
                            None => return invalid(place, format!("no output {o}")),
                        }
                    }
                    Ok(())
                })?;
                for (&o, &acc) in reduce_outputs.iter().zip(&accs) {
                    match outputs.get(o) {
                        Some(view) => view.write(mem, k, acc)?,
                        None => return invalid(place, format!("no output {o}")),
                    }
                }
                Ok(())
            })
        }
        KernelBody::Scan { space, axis, reverse, graph, init, values, reducer } => {
            if init.len() != values.len() || outputs.len() != init.len() {
                return invalid(place, "accumulators, values and outputs differ in number");
            }
            let Some(&n) = space.get(*axis) else {
                return invalid(place, "scan axis outside the space");
            };
            // The other dimensions, with the axis as a unit dimension.
            let mut rows = space.clone();
            rows[*axis] = 1;
            let init_mask = graph.live(init);
            let mut g = GraphEval::new(graph);
            let mut f = FnEval::new(reducer);
            let mut full = vec![0i64; space.len()];
            let mut accs = Vec::new();
            // The row's values, position by position.
            let mut row: Vec<Vec<Scalar>> = Vec::with_capacity(n.max(0) as usize);
            for_each_index(&rows, |r| {
                full.copy_from_slice(r);
                g.eval(
                    Env { index: &full, params: &[], outer: &[], mem: Some(&*mem), inputs },
                    Some(&init_mask),
                    place,
                )?;
                let start: Vec<Scalar> = init.iter().map(|&i| g.value(i)).collect();
                row.clear();
                for j in 0..n {
                    full[*axis] = j;
                    g.eval(Env { index: &full, params: &[], outer: &[], mem: Some(&*mem), inputs }, None, place)?;
                    row.push(values.iter().map(|&v| g.value(v)).collect());
                }
                // Each output folds its window in order: forward one running fold,
                // reverse a fold from each position to the end.
                for j in 0..n {
                    let window = if *reverse { j..n } else { j..j + 1 };
                    if *reverse || j == 0 {
                        accs.clone_from(&start);
                    }
                    for k in window {
                        f.fold(&mut accs, row[k as usize].iter().copied(), place)?;
                    }
                    full[*axis] = j;
                    for (view, &acc) in outputs.iter().zip(&accs) {
                        view.write(mem, &full, acc)?;
                    }
                }
                Ok(())
            })
        }
        KernelBody::UpdateSlice { space, graph, start, value } => {
            let Some(out) = outputs.first() else {
                return invalid(place, "update-slice without an output");
            };
            let mut g = GraphEval::new(graph);
            let mut at = vec![0i64; space.len()];
            for_each_index(space, |idx| {
                g.eval(Env { index: idx, params: &[], outer: &[], mem: Some(&*mem), inputs }, None, place)?;
                for (k, (&i, s)) in idx.iter().zip(start).enumerate() {
                    at[k] = sem::as_i64(g.value(*s)) + i;
                }
                out.write(mem, &at, g.value(*value))
            })
        }
        KernelBody::Scatter { space, graph, target, in_bounds, values, combiner } => {
            let mut g = GraphEval::new(graph);
            let mut f = FnEval::new(combiner);
            let mut at = vec![0i64; target.len()];
            let mut args = Vec::new();
            let mut res = Vec::new();
            for_each_index(space, |idx| {
                g.eval(Env { index: idx, params: &[], outer: &[], mem: Some(&*mem), inputs }, None, place)?;
                if !sem::is_true(g.value(*in_bounds)) {
                    return Ok(());
                }
                for (a, t) in at.iter_mut().zip(target) {
                    *a = sem::as_i64(g.value(*t));
                }
                args.clear();
                for out in outputs {
                    args.push(out.read(mem, &at)?);
                }
                args.extend(values.iter().map(|&n| g.value(n)));
                f.call(&args, &mut res, place)?;
                for (out, &x) in outputs.iter().zip(&res) {
                    out.write(mem, &at, x)?;
                }
                Ok(())
            })
        }
        _ => invalid(place, "not a graph kernel"),
    }
}
