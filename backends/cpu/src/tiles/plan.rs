//! From a kernel to tile code: which kernels the interpreter runs, and the
//! words it runs them from.
//!
//! A kernel qualifies when every value it computes is a float (`f32`,
//! `f64`) or `pred`, every operation is a library function
//! ([`TileFn::group`]), and its data moves in rows: each load reads its
//! input along its last dimension with the innermost loop index (the
//! *lane*), or at one point per row. Values that depend on the lane are
//! tiles; the rest are scalars, computed once per row. An inline reduction
//! must be a row value over a one-dimensional window (softmax's row max and
//! sum), combined by one commutative operation. When a reduction depends on
//! the lane (it sits inside a loop over points, each reducing a row of its
//! own), the kernel runs point by point instead, every value a scalar
//! except inside the reductions, and only when each point reduces enough
//! to pay for a point's calls.
//!
//! Reduce kernels qualify over one reduced dimension: the innermost (rows
//! reduced to a scalar) or an outer one (tiles accumulated lane by lane).
//!
//! The code is a list of 64-bit words ([`run`](super::run) documents the
//! layout); it is a constant of the program's module, so a program served
//! from the disk cache carries it.

use std::collections::HashMap;

use smelt_hlo::DType;
use smelt_hlo::attrs::CompareType;
use smelt_kernel::{BinaryOp, FnPattern, Graph, InlineReduce, Kernel, KernelBody, Node, NodeId, Scalar, UnaryOp};
use smelt_llvm::codegen::{loop_is_flat, par_dim, strides};

use super::library::{TILE, TileFn, fold_lanes};
use super::run::op;

/// The code version the interpreter checks first. Objects in the JIT's
/// disk cache carry tile code: bump `crate::CODE_REVISION` with it.
pub(crate) const VERSION: i64 = 5;

/// Kernel kinds (word 1).
pub(crate) const KIND_LOOP: i64 = 0;
pub(crate) const KIND_REDUCE_INNER: i64 = 1;
pub(crate) const KIND_REDUCE_OUTER: i64 = 2;

/// Elements an inline reduction must cover for a kernel run point by point.
const POINTWISE_MIN_WINDOW: i64 = 64;

/// A kernel as tile code: the words and the library functions they call
/// (code refers to them by position in `fns`).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct TileKernel {
    pub code: Vec<i64>,
    pub fns: Vec<TileFn>,
    /// The fewest lanes a library call covers (a row's, or an inline
    /// reduction's window when the kernel runs point by point): what the
    /// interpreter's per-call overhead is spread over.
    pub lanes: i64,
    /// The interpreted kernel's estimated time over the compiled one's
    /// ([`slowdown`]).
    pub slowdown: f64,
}

impl TileKernel {
    /// How many calls of `f` the code makes per row (tests).
    #[cfg(test)]
    pub(crate) fn calls(&self, f: TileFn) -> usize {
        self.fns.iter().position(|&g| g == f).map_or(0, |i| super::run::calls_of(&self.code, i as i64))
    }
}

/// The tile code of `k`, or None when the interpreter cannot run it.
pub(crate) fn plan(k: &Kernel) -> Option<TileKernel> {
    match &k.body {
        KernelBody::Loop { space, graph, outputs } => plan_loop(k, space, graph, outputs),
        KernelBody::Reduce { space, reduced, graph, init, values, reducer, reduce_outputs, extra } => {
            let [d] = reduced.as_slice() else { return None };
            let ([init], [value], [out]) = (init.as_slice(), values.as_slice(), reduce_outputs.as_slice()) else {
                return None;
            };
            let Some(FnPattern::Binary(combine)) = reducer.pattern else { return None };
            plan_reduce(k, space, *d, graph, (*init, *value, combine, *out), extra)
        }
        _ => None,
    }
}

/// Where a value of a frame lives.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Val {
    Scalar(i64),
    Tile(i64),
    /// The lane's own index (only ever a load index).
    Lane,
}

/// Code of one frame: run once per row, and once per chunk of lanes.
#[derive(Default)]
struct Frame {
    row: Vec<i64>,
    lane: Vec<i64>,
    /// Tiles already splatted from a scalar slot.
    splats: Vec<(i64, i64)>,
}

struct Planner<'k> {
    kernel: &'k Kernel,
    scalars: i64,
    tiles: i64,
    fns: Vec<TileFn>,
    /// All loop indices are the lane (a flat loop).
    flat: bool,
    /// Per frame being planned (the kernel's, then reduction bodies'), each
    /// node's value as an expression of the row: equal keys, equal values.
    keys: Vec<Vec<Option<String>>>,
    /// Per frame being planned, how many readers each node has (its users
    /// in the graph, plus one per root it is).
    uses: Vec<Vec<usize>>,
    /// The kernel's row is one chunk, whole on every call (at most a tile,
    /// not the parallel dimension): a reduction over the row leaves its
    /// body's tiles holding row values the lane code may reuse (softmax's
    /// `exp(x - max)`, computed once for the sum and the division).
    row: Option<i64>,
    /// Planning a reduction body over the row (see `row`).
    recording: bool,
    /// Row tiles reduction bodies computed, by key.
    reuse: HashMap<String, i64>,
}

fn tile_type(d: DType) -> bool {
    matches!(d, DType::F32 | DType::F64 | DType::Pred)
}

/// Combining operations a reduction may use: those the library folds.
fn combines(op: BinaryOp, d: DType) -> bool {
    TileFn::Fold(op, d, TILE).group().is_some()
}

impl<'k> Planner<'k> {
    fn new(kernel: &'k Kernel, flat: bool, row: Option<i64>) -> Self {
        Planner {
            kernel,
            scalars: 0,
            tiles: 0,
            fns: Vec::new(),
            flat,
            keys: Vec::new(),
            uses: Vec::new(),
            row,
            recording: false,
            reuse: Default::default(),
        }
    }

    /// Node `i`'s key in the current frame ([`Planner::keys`]): `L` the
    /// lane (a body's window index only while recording), `I<d>` another loop
    /// index; None for what is not an expression of the row (reductions).
    fn key(&self, g: &Graph, i: usize, lane: Option<usize>) -> Option<String> {
        let depth = self.keys.len() - 1;
        let own = &self.keys[depth];
        let of = |n: NodeId| own.get(n.0 as usize).cloned().flatten();
        Some(match &g.nodes[i] {
            Node::Index(d) if Some(*d) == lane && (depth == 0 || self.recording) => "L".to_string(),
            Node::Index(d) if depth == 0 => format!("I{d}"),
            Node::Outer(n) => self.keys.get(depth.checked_sub(1)?)?.get(n.0 as usize).cloned().flatten()?,
            Node::Const(c) => format!("{c:?}"),
            // A row reduction of the kernel's frame: a value of its own.
            Node::Reduce(_) if depth == 0 => format!("R{i}"),
            Node::ReduceResult { reduce, index } if depth == 0 => format!("{}#{index}", of(*reduce)?),
            Node::Reduce(_) | Node::ReduceResult { .. } | Node::Param(_) | Node::Index(_) => return None,
            node => {
                let args: Vec<String> = node.operands().into_iter().map(of).collect::<Option<_>>()?;
                format!("{:?}({})", node.map_operands(|_| NodeId(0)), args.join(","))
            }
        })
    }

    /// A scalar slot the row code sets to `c`.
    fn constant(&mut self, fr: &mut Frame, c: Scalar) -> Option<i64> {
        let bits = match c {
            Scalar::Float(DType::F32, v) => (v as f32).to_bits() as i64,
            Scalar::Float(DType::F64, v) => v.to_bits() as i64,
            Scalar::Int(DType::Pred | DType::S64, v) => i64::try_from(v).ok()?,
            _ => return None,
        };
        let s = self.scalar();
        fr.row.extend([op::CONST, s, bits]);
        Some(s)
    }

    /// What a reduction of rows of `window` elements combining with
    /// `combine` takes: the lane by lane combine, the fold, how many lanes
    /// it folds, and a scalar slot holding the operation's identity (what
    /// pads a partial tile for the fold).
    fn reducer(&mut self, fr: &mut Frame, combine: BinaryOp, d: DType, window: i64) -> Option<[i64; 4]> {
        let f = self.func(TileFn::Binary(combine, d))?;
        let lanes = fold_lanes((window.max(0) as usize).min(TILE));
        let fold = self.func(TileFn::Fold(combine, d, lanes))?;
        let pad = self.constant(fr, smelt_kernel::combine_identity(combine, d)?)?;
        Some([f, fold, lanes as i64, pad])
    }

    fn scalar(&mut self) -> i64 {
        self.scalars += 1;
        self.scalars - 1
    }

    fn tile(&mut self) -> i64 {
        self.tiles += 1;
        self.tiles - 1
    }

    fn func(&mut self, f: TileFn) -> Option<i64> {
        f.group()?;
        let i = self.fns.iter().position(|&g| g == f).unwrap_or_else(|| {
            self.fns.push(f);
            self.fns.len() - 1
        });
        Some(i as i64)
    }

    /// A tile holding `v` (splatting a scalar in the row code, once).
    fn as_tile(&mut self, fr: &mut Frame, v: Val, d: DType) -> Option<i64> {
        match v {
            Val::Tile(t) => Some(t),
            Val::Lane => None,
            Val::Scalar(s) => {
                if let Some(&(_, t)) = fr.splats.iter().find(|(from, _)| *from == s) {
                    return Some(t);
                }
                let t = self.tile();
                fr.row.extend([op::SPLAT, t, s, d.byte_size() as i64]);
                fr.splats.push((s, t));
                Some(t)
            }
        }
    }

    /// Plans `g`'s nodes that `roots` need into `fr`. `lane` is the loop
    /// index that runs along rows (None: none does); `outer` are the values
    /// of the enclosing frame (for an inline reduction's body).
    fn frame(
        &mut self,
        g: &Graph,
        lane: Option<usize>,
        outer: &[Option<Val>],
        roots: &[NodeId],
    ) -> Option<(Frame, Vec<Option<Val>>)> {
        self.keys.push(vec![None; g.len()]);
        self.uses.push(readers(g, roots));
        let planned = self.frame_nodes(g, lane, outer, roots);
        self.keys.pop();
        self.uses.pop();
        planned
    }

    fn frame_nodes(
        &mut self,
        g: &Graph,
        lane: Option<usize>,
        outer: &[Option<Val>],
        roots: &[NodeId],
    ) -> Option<(Frame, Vec<Option<Val>>)> {
        let depth = self.keys.len() - 1;
        let live = g.live(roots);
        let mut fr = Frame::default();
        // Row tiles of earlier reduction bodies: a later body over the row
        // reads them instead of computing them again (log-softmax's masked
        // row, selected for the max and again for the sum), and so does the
        // kernel's lane code (below).
        let earlier = if depth > 0 && self.recording { self.reuse.clone() } else { Default::default() };
        let mut vals: Vec<Option<Val>> = vec![None; g.len()];
        for (i, node) in g.nodes.iter().enumerate() {
            if !live[i] {
                continue;
            }
            let key = self.key(g, i, lane);
            self.keys[depth][i] = key.clone();
            let d = g.dtype(NodeId(i as u32));
            let val = |n: &NodeId| vals.get(n.0 as usize).copied().flatten();
            let v = match node {
                Node::Index(dim) if self.flat || Some(*dim) == lane => Val::Lane,
                Node::Index(dim) => {
                    let s = self.scalar();
                    fr.row.extend([op::INDEX, s, *dim as i64]);
                    Val::Scalar(s)
                }
                Node::Const(c) => Val::Scalar(self.constant(&mut fr, *c)?),
                Node::Outer(n) => match outer.get(n.0 as usize).copied().flatten()? {
                    v @ Val::Scalar(_) => v,
                    _ => return None,
                },
                Node::Load { input, index } => self.load(g, &mut fr, &vals, *input, index, d)?,
                Node::Reduce(r) => self.reduce(&mut fr, &vals, r, d)?,
                Node::ReduceResult { reduce, index: 0 } => val(reduce)?,
                Node::Param(_) | Node::Bitcast { .. } | Node::ReduceResult { .. } => return None,
                _ => self.operation(g, &mut fr, &vals, node, d)?,
            };
            if let (true, Some(k), Val::Tile(t)) = (self.recording && depth == 1, key, v) {
                self.reuse.entry(k).or_insert(t);
            }
            vals[i] = Some(v);
        }
        let earlier = if depth == 0 { &self.reuse } else { &earlier };
        if !earlier.is_empty() {
            self.reuse_row_tiles(earlier, &mut fr, &mut vals);
        }
        Some((fr, vals))
    }

    /// Lane values a reduction body computed over the whole row already
    /// ([`Planner::row`]) are read from its tiles: their instructions go and
    /// their readers read the body's tile instead.
    fn reuse_row_tiles(&self, earlier: &HashMap<String, i64>, fr: &mut Frame, vals: &mut [Option<Val>]) {
        let depth = self.keys.len() - 1;
        let mut with: HashMap<i64, i64> = Default::default();
        for (i, v) in vals.iter_mut().enumerate() {
            let key = self.keys[depth].get(i).cloned().flatten();
            if let (Some(Val::Tile(t)), Some(&r)) = (*v, key.as_ref().and_then(|k| earlier.get(k)))
                && t != r
            {
                with.insert(t, r);
                *v = Some(Val::Tile(r));
            }
        }
        let sub = |t: i64| with.get(&t).copied().unwrap_or(t);
        let mut lane = Vec::with_capacity(fr.lane.len());
        let mut pc = 0;
        while pc < fr.lane.len() {
            let w = &fr.lane[pc..];
            let len = op::len(w);
            let dst = if w[0] == op::LOAD_T { w[1] } else { w[3] };
            if !with.contains_key(&dst) {
                let mut ins = w[..len].to_vec();
                if ins[0] == op::CALL_T {
                    ins[4..].iter_mut().filter(|a| **a >= 0).for_each(|a| *a = sub(*a));
                }
                lane.extend(ins);
            }
            pc += len;
        }
        fr.lane = lane;
    }

    fn load(
        &mut self,
        g: &Graph,
        fr: &mut Frame,
        vals: &[Option<Val>],
        input: usize,
        index: &[NodeId],
        d: DType,
    ) -> Option<Val> {
        let ty = self.kernel.inputs.get(input)?;
        if ty.dtype != d || !tile_type(d) || index.len() != ty.dims.len() {
            return None;
        }
        let idx: Vec<Val> = index.iter().map(|n| vals.get(n.0 as usize).copied().flatten()).collect::<Option<_>>()?;
        let esize = d.byte_size() as i64;
        if self.flat && !idx.is_empty() && idx.iter().all(|v| *v == Val::Lane) {
            // A flat loop's loads read their input in the space's order.
            let t = self.tile();
            fr.lane.extend([op::LOAD_T, t, input as i64, esize, 0]);
            return Some(Val::Tile(t));
        }
        let strides = strides(&ty.dims);
        let lane_at = idx.iter().position(|v| *v == Val::Lane);
        let mut terms = Vec::new();
        for (j, v) in idx.iter().enumerate() {
            match v {
                Val::Scalar(s) if g.dtype(index[j]) == DType::S64 => terms.extend([*s, strides[j]]),
                Val::Lane if Some(j) == lane_at && j + 1 == idx.len() => {}
                _ => return None,
            }
        }
        let n = terms.len() as i64 / 2;
        if lane_at.is_some() {
            let t = self.tile();
            fr.lane.extend([op::LOAD_T, t, input as i64, esize, n]);
            fr.lane.extend(terms);
            Some(Val::Tile(t))
        } else {
            let s = self.scalar();
            fr.row.extend([op::LOAD_S, s, input as i64, esize, n]);
            fr.row.extend(terms);
            Some(Val::Scalar(s))
        }
    }

    fn operation(&mut self, g: &Graph, fr: &mut Frame, vals: &[Option<Val>], node: &Node, d: DType) -> Option<Val> {
        let ops = node.operands();
        let t = |i: usize| g.dtype(ops[i]);
        let f = match *node {
            Node::Unary { op, .. } => TileFn::Unary(op, t(0)),
            Node::Binary { op, .. } => TileFn::Binary(op, t(0)),
            Node::Compare { direction, compare_type, .. } => {
                let default = match t(0) {
                    DType::Pred => None,
                    _ => Some(CompareType::Float),
                };
                if compare_type.is_some() && compare_type != default {
                    return None;
                }
                TileFn::Compare(direction, t(0))
            }
            Node::Select { .. } => TileFn::Select(t(1)),
            Node::Clamp { .. } => TileFn::Clamp(t(1)),
            Node::MulAdd { .. } => TileFn::MulAdd(t(0)),
            Node::Convert { to, .. } => TileFn::Convert(t(0), to),
            _ => return None,
        };
        let (want, result) = f.signature();
        if result != d || want.len() != ops.len() || want.iter().enumerate().any(|(i, &w)| w != t(i)) {
            return None;
        }
        if let Some(v) = self.exp_sub(g, fr, vals, node, d) {
            return Some(v);
        }
        let id = self.func(f)?;
        let args: Vec<Val> = ops.iter().map(|n| vals.get(n.0 as usize).copied().flatten()).collect::<Option<_>>()?;
        if args.iter().all(|v| matches!(v, Val::Scalar(_))) {
            let s = self.scalar();
            fr.row.extend([op::CALL_S, id, args.len() as i64, s]);
            fr.row.extend(args.iter().map(|v| if let Val::Scalar(s) = v { *s } else { 0 }));
            return Some(Val::Scalar(s));
        }
        // One scalar operand of a binary operation is read as it is (a
        // negative argument: `-1 - slot`), not splatted.
        if let (TileFn::Binary(bop, t), [a, b]) = (f, args.as_slice()) {
            let scalar = match (a, b) {
                (Val::Scalar(s), Val::Tile(_)) => Some((true, *s)),
                (Val::Tile(_), Val::Scalar(s)) => Some((false, *s)),
                _ => None,
            };
            if let Some((first, s)) = scalar
                && let Some(id) = self.func(TileFn::BinaryScalar(bop, t, first))
            {
                let ((Val::Tile(tile), _) | (_, Val::Tile(tile))) = (*a, *b) else { return None };
                let out = self.tile();
                let (x, y) = if first { (-1 - s, tile) } else { (tile, -1 - s) };
                fr.lane.extend([op::CALL_T, id, 2, out, x, y]);
                return Some(Val::Tile(out));
            }
        }
        let mut tiles = Vec::with_capacity(args.len());
        for (i, v) in args.iter().enumerate() {
            tiles.push(self.as_tile(fr, *v, want[i])?);
        }
        let out = self.tile();
        fr.lane.extend([op::CALL_T, id, tiles.len() as i64, out]);
        fr.lane.extend(tiles);
        Some(Val::Tile(out))
    }

    /// `exp(x)` where `x = a - b` is the lane code's last call and read by
    /// nothing else: that call becomes one of `exp(a - b)` (one pass over
    /// the chunk instead of two), its tile no longer a value a later frame
    /// may reuse.
    fn exp_sub(&mut self, g: &Graph, fr: &mut Frame, vals: &[Option<Val>], node: &Node, d: DType) -> Option<Val> {
        let &Node::Unary { op: UnaryOp::Exp, x } = node else { return None };
        let uses = *self.uses.last()?.get(x.0 as usize)?;
        if uses != 1 || !matches!(g.nodes.get(x.0 as usize)?, Node::Binary { op: BinaryOp::Sub, .. }) {
            return None;
        }
        let last = last_instruction(&fr.lane)?;
        let &[op::CALL_T, f, 2, diff, a, b] = &fr.lane[last..] else { return None };
        let scalar = match self.fns.get(usize::try_from(f).ok()?)? {
            TileFn::Binary(BinaryOp::Sub, t) if *t == d => false,
            TileFn::BinaryScalar(BinaryOp::Sub, t, false) if *t == d => true,
            _ => return None,
        };
        if vals.get(x.0 as usize).copied().flatten() != Some(Val::Tile(diff)) {
            return None;
        }
        let id = self.func(TileFn::ExpSub(d, scalar))?;
        fr.lane.truncate(last);
        self.reuse.retain(|_, t| *t != diff);
        let out = self.tile();
        fr.lane.extend([op::CALL_T, id, 2, out, a, b]);
        Some(Val::Tile(out))
    }

    /// An inline reduction over a one-dimensional window: a row value.
    fn reduce(&mut self, fr: &mut Frame, vals: &[Option<Val>], r: &InlineReduce, d: DType) -> Option<Val> {
        let ([w], [init], [value]) = (r.window.as_slice(), r.init.as_slice(), r.values.as_slice()) else {
            return None;
        };
        let Some(FnPattern::Binary(combine)) = r.reducer.pattern else { return None };
        if !combines(combine, d) || r.body.dtype(*value) != d {
            return None;
        }
        let Val::Scalar(init) = vals.get(init.0 as usize).copied().flatten()? else { return None };
        let flat = std::mem::replace(&mut self.flat, false);
        self.recording = self.keys.len() == 1 && self.row == Some(*w);
        let body = self.frame(&r.body, Some(0), vals, &[*value]);
        self.recording = false;
        self.flat = flat;
        let (mut body, body_vals) = body?;
        let value = body_vals.get(value.0 as usize).copied().flatten()?;
        let value = self.as_tile(&mut body, value, d)?;
        let [f, fold, fold_lanes, pad] = self.reducer(fr, combine, d, *w)?;
        // The accumulator takes two tiles (`acc`, `acc + 1`: see `run`).
        let (acc, _, out) = (self.tile(), self.tile(), self.scalar());
        fr.row.extend([op::REDUCE, out, init, f, fold, fold_lanes, pad, d.byte_size() as i64, *w, acc, value]);
        fr.row.extend([body.row.len() as i64, body.lane.len() as i64]);
        fr.row.extend(body.row);
        fr.row.extend(body.lane);
        Some(Val::Scalar(out))
    }

    /// The code: header, outputs, then the row and lane code.
    fn finish(self, header: Vec<i64>, outputs: Vec<i64>, fr: Frame, lanes: i64) -> TileKernel {
        let mut code = header;
        code.extend([self.scalars, self.tiles]);
        code.extend(outputs);
        let k = self.kernel;
        code.push((k.inputs.len() + k.outputs.len()) as i64);
        code.extend(k.inputs.iter().chain(&k.outputs).map(|t| t.byte_size() as i64));
        code.push(fr.row.len() as i64);
        code.extend(fr.row);
        code.push(fr.lane.len() as i64);
        code.extend(fr.lane);
        let slowdown = slowdown(&code, &self.fns, lanes);
        TileKernel { code, fns: self.fns, lanes, slowdown }
    }
}

fn plan_loop(k: &Kernel, space: &[i64], graph: &Graph, outputs: &[NodeId]) -> Option<TileKernel> {
    if space.is_empty() || outputs.len() != k.outputs.len() {
        return None;
    }
    let flat = loop_is_flat(space, graph, outputs, &k.inputs);
    let (space, par): (Vec<i64>, usize) =
        if flat { (vec![space.iter().product()], 0) } else { (space.to_vec(), par_dim(space)) };
    let r = space.len();
    // Rows along the innermost dimension; point by point when a reduction
    // depends on the lane.
    for lane in [Some(r - 1), None] {
        if lane.is_none() && (flat || !reductions_pay(graph)) {
            return None;
        }
        let row = match lane {
            Some(l) if !flat && l != par && space[l] <= TILE as i64 => Some(space[l]),
            _ => None,
        };
        let mut p = Planner::new(k, flat, row);
        let Some((mut fr, vals)) = p.frame(graph, lane, &[], outputs) else { continue };
        let mut outs = vec![outputs.len() as i64];
        let mut ok = true;
        for (o, n) in outputs.iter().enumerate() {
            let d = k.outputs[o].dtype;
            let v = vals.get(n.0 as usize).copied().flatten();
            let (is_tile, slot) = match (v, lane) {
                (Some(Val::Scalar(s)), None) => (0, s),
                (Some(v @ (Val::Scalar(_) | Val::Tile(_))), Some(_)) => match p.as_tile(&mut fr, v, d) {
                    Some(t) => (1, t),
                    None => {
                        ok = false;
                        break;
                    }
                },
                _ => {
                    ok = false;
                    break;
                }
            };
            outs.extend([o as i64, d.byte_size() as i64, is_tile, slot]);
        }
        if !ok {
            continue;
        }
        // Outputs the lane code computes (one call writes each) may be
        // written in place ([`run`]: 2 for "is tile").
        for e in outs[1..].chunks_exact_mut(4) {
            let slot = e[3];
            let writers = lane_calls_writing(&fr.lane, slot);
            let shared =
                outputs.iter().filter(|&&n| vals.get(n.0 as usize).copied().flatten() == Some(Val::Tile(slot))).count();
            if e[2] == 1 && writers == 1 && shared == 1 {
                e[2] = 2;
            }
        }
        let header = space_header(KIND_LOOP, k, &space, par, lane, None);
        let lanes = match lane {
            Some(l) => space[l],
            None => min_window(graph),
        };
        return Some(p.finish(header, outs, fr, lanes));
    }
    None
}

/// The header's words up to the reduce kinds' part: kind, inputs, rank,
/// dims, the parallel, lane and reduced dimensions (-1: none), the space's
/// row-major strides and the kept dimensions' (0 for the reduced one), so
/// the interpreter derives nothing per call.
fn space_header(
    kind: i64,
    k: &Kernel,
    space: &[i64],
    par: usize,
    lane: Option<usize>,
    reduced: Option<usize>,
) -> Vec<i64> {
    let dim = |d: Option<usize>| d.map_or(-1, |d| d as i64);
    let mut header = vec![VERSION, kind, k.inputs.len() as i64, space.len() as i64];
    header.extend(space);
    header.extend([par as i64, dim(lane), dim(reduced)]);
    let all = strides(space);
    header.extend(&all);
    match reduced {
        Some(d) => {
            let kept: Vec<i64> = space.iter().enumerate().filter(|&(j, _)| j != d).map(|(_, &n)| n).collect();
            let mut kept = strides(&kept).into_iter();
            header.extend((0..space.len()).map(|j| if j == d { 0 } else { kept.next().unwrap_or(0) }));
        }
        None => header.extend(&all),
    }
    header
}

/// How many readers each node of `g` has: its users, plus one per root it is.
fn readers(g: &Graph, roots: &[NodeId]) -> Vec<usize> {
    let mut n = vec![0; g.len()];
    let mut count = |id: NodeId| {
        if let Some(c) = n.get_mut(id.0 as usize) {
            *c += 1;
        }
    };
    g.nodes.iter().for_each(|node| node.for_each_operand(&mut count));
    roots.iter().for_each(|&r| count(r));
    n
}

/// Where the last instruction of `code` starts.
fn last_instruction(code: &[i64]) -> Option<usize> {
    let (mut pc, mut last) = (0, None);
    while pc < code.len() {
        last = Some(pc);
        pc += op::len(&code[pc..]);
    }
    last
}

/// What the interpreter spends on one instruction besides the call's own
/// loop (decoding, load offsets, the call through a pointer), in the units
/// of [`TileFn::vector_cost`]: 40-60 cycles, measured as a division over
/// rows of 512 running 150 cycles a row (three instructions) slower
/// interpreted than compiled.
const DISPATCH_COST: f64 = 50.0;

/// The interpreter's estimated time per element over compiled code's, from
/// the code's lane-level work: both compute every call's operation
/// ([`TileFn::vector_cost`]); compiled code loads each input once and keeps
/// values in registers, while every call of the interpreter reads its
/// operand tiles and writes its result tile (one vector access each).
/// Each call also pays its dispatch ([`DISPATCH_COST`]) once per chunk of
/// `lanes`. Where math functions dominate (activations, softmax's
/// exponentials) over long rows this is near 1; chains of additions and
/// multiplications come out 2-4. It leaves out memory time, which hides
/// the interpreter's extra work, and the row code a column reduction runs
/// at every step: measured slowdowns came out 0.26 below to 0.13 above it
/// (`docs/benchmarks.md`).
fn slowdown(code: &[i64], fns: &[TileFn], lanes: i64) -> f64 {
    // Each call's dispatch, spread over the vectors of its chunk.
    let dispatch = DISPATCH_COST * 8.0 / lanes.clamp(1, TILE as i64) as f64;
    // (compiled, interpreted) cost of one call of `cost` over `operands` tiles.
    let call = |cost: f64, operands: usize| (cost, cost + operands as f64 + 1.0 + dispatch);
    // Combining a reduction's values: over a row in one chunk, the fold's
    // one pass reading them; over longer rows, a call per chunk reading the
    // accumulator and the values and writing the next accumulator.
    let combine = |window: i64| if window <= TILE as i64 { (1.0, 2.0) } else { call(1.0, 2) };
    // The reduce kernel's own combining, once per element.
    let (mut compiled, mut interpreted) = match super::run::kind_and_reduced(code) {
        None | Some((KIND_LOOP, _)) => (0.0, 0.0),
        Some((KIND_REDUCE_INNER, Some(extent))) => combine(extent),
        Some(_) => call(1.0, 2),
    };
    super::run::visit(code, |w, lanes| {
        let (c, i) = match w[0] {
            op::CALL_T if lanes => {
                let cost = usize::try_from(w[1]).ok().and_then(|f| fns.get(f)).map_or(1.0, |f| f.vector_cost());
                call(cost, w[2].max(0) as usize)
            }
            // A reduction body's combining, over its window.
            op::REDUCE => combine(w[8]),
            op::LOAD_T if lanes => (1.0, 0.0),
            _ => (0.0, 0.0),
        };
        compiled += c;
        interpreted += i;
    });
    if compiled > 0.0 { interpreted / compiled } else { 1.0 }
}

/// How many calls of lane code `lane` write tile `slot`.
fn lane_calls_writing(lane: &[i64], slot: i64) -> usize {
    let (mut pc, mut n) = (0, 0);
    while pc < lane.len() {
        let w = &lane[pc..];
        n += usize::from(w[0] == op::CALL_T && w[3] == slot);
        pc += op::len(w);
    }
    n
}

/// Whether a graph has inline reductions, each covering enough elements to
/// run the graph point by point.
fn reductions_pay(g: &Graph) -> bool {
    g.nodes.iter().any(|n| matches!(n, Node::Reduce(_))) && min_window(g) >= POINTWISE_MIN_WINDOW
}

/// The fewest elements an inline reduction of `g` covers.
fn min_window(g: &Graph) -> i64 {
    g.nodes
        .iter()
        .filter_map(|n| match n {
            Node::Reduce(r) => Some(r.window.iter().product::<i64>()),
            _ => None,
        })
        .min()
        .unwrap_or(0)
}

fn plan_reduce(
    k: &Kernel,
    space: &[i64],
    reduced: usize,
    graph: &Graph,
    (init, value, combine, out): (NodeId, NodeId, BinaryOp, usize),
    extra: &[(usize, NodeId)],
) -> Option<TileKernel> {
    let r = space.len();
    let d = graph.dtype(init);
    if r == 0 || reduced >= r || !combines(combine, d) || graph.dtype(value) != d {
        return None;
    }
    let kind = if reduced == r - 1 { KIND_REDUCE_INNER } else { KIND_REDUCE_OUTER };
    let kept: Vec<usize> = (0..r).filter(|&j| j != reduced).collect();
    let kept_dims: Vec<i64> = kept.iter().map(|&j| space[j]).collect();
    let par = kept.get(par_dim(&kept_dims)).copied().unwrap_or(0);
    let mut p = Planner::new(k, false, None);
    let mut roots = vec![init, value];
    roots.extend(extra.iter().map(|e| e.1));
    let (mut fr, vals) = p.frame(graph, Some(r - 1), &[], &roots)?;
    let Some(Val::Scalar(init)) = vals.get(init.0 as usize).copied().flatten() else { return None };
    let v = vals.get(value.0 as usize).copied().flatten()?;
    let value = p.as_tile(&mut fr, v, d)?;
    let [f, fold, fold_lanes, pad] = p.reducer(&mut fr, combine, d, space[r - 1])?;
    let (acc, _, result) = (p.tile(), p.tile(), p.scalar());
    let mut outs = vec![1 + extra.len() as i64];
    outs.extend([out as i64, d.byte_size() as i64, 1, acc]);
    for &(o, n) in extra {
        let t = k.outputs.get(o)?.dtype;
        let v = vals.get(n.0 as usize).copied().flatten()?;
        let tile = p.as_tile(&mut fr, v, t)?;
        // Written in place when one call computes it and no other output
        // shares its tile (as for loop kernels).
        let shared = extra.iter().filter(|e| vals.get(e.1.0 as usize).copied().flatten() == Some(v)).count();
        let direct = lane_calls_writing(&fr.lane, tile) == 1 && shared == 1;
        outs.extend([o as i64, t.byte_size() as i64, if direct { 2 } else { 1 }, tile]);
    }
    let mut header = space_header(kind, k, space, par, Some(r - 1), Some(reduced));
    header.extend([init, value, f, fold, fold_lanes, pad, acc, d.byte_size() as i64, result]);
    Some(p.finish(header, outs, fr, space[r - 1]))
}
