//! Expression graphs rendered as scalar IR (the loop vectorizer widens them).
//!
//! [`Cg::emit_nodes`] emits the nodes a set of roots needs, in id order (nodes
//! refer only to smaller ids), into an [`Env`] that maps loop indices, function
//! parameters and enclosing-graph values to LLVM values. Every node is safe to
//! compute speculatively (loads are in bounds by the kernel form's contract,
//! divisions are guarded), so graphs are straight-line code.
//!
//! An inline [`Node::Reduce`] becomes a loop nest over its window with
//! accumulators in stack slots (promoted to registers by LLVM) and the reducer
//! inlined. A float add reducer (`FnPattern::Binary(Add)` on f32/f64) may
//! reassociate, so LLVM vectorizes it with several partial sums, and long
//! innermost windows are summed in chunks whose partial sums are then added in
//! order: the error grows with the chunk count, not the element count. A float
//! max or min reducer is exact in any order; long innermost windows accumulate
//! in [`MINMAX_LANES`] partial results (an array the loop updates lane by lane,
//! which vectorizes even where the values are selected, as padding or masks do,
//! a form LLVM does not recognize as a reduction), combined at the end.

use std::collections::HashMap;

use inkwell::IntPredicate;
use inkwell::values::{BasicValueEnum, IntValue, PointerValue};
use smelt_hlo::DType;
use smelt_kernel::ranges::Fold;
use smelt_kernel::{BinaryOp, FnPattern, Graph, InlineReduce, Node, NodeId, Scalar, ScalarFn};

use super::Cg;
use crate::error::{LlvmError, Result, invalid};

/// Innermost reduction extents longer than this are summed in chunks of this
/// many elements (float add reducers only).
pub(crate) const SUM_CHUNK: i64 = 1024;

/// Partial results of a long float max or min reduction.
pub(crate) const MINMAX_LANES: i64 = 32;

/// Whether `f` is a float max or min on `acc` types, and its identity (the
/// value that leaves every operand unchanged, NaN and signed zeros included).
fn float_minmax(f: &ScalarFn, acc: &[DType]) -> Option<(BinaryOp, smelt_kernel::Scalar)> {
    match (f.pattern, acc) {
        (Some(FnPattern::Binary(op @ (BinaryOp::Max | BinaryOp::Min))), [t @ (DType::F32 | DType::F64)]) => {
            Some((op, smelt_kernel::combine_identity(op, *t)?))
        }
        _ => None,
    }
    .filter(|_| f.params.len() == 2 && f.outputs.len() == 1)
}

/// What one task of a kernel covers: the kernel's buffers and the range
/// `begin..end` of the index space (launch positions) it runs.
#[derive(Clone, Copy)]
pub struct Task<'a, 'ctx> {
    pub io: &'a [Io<'ctx>],
    pub begin: IntValue<'ctx>,
    pub end: IntValue<'ctx>,
}

/// A buffer a kernel reads or writes, as seen inside the kernel function.
#[derive(Clone, Debug)]
pub struct Io<'ctx> {
    pub ptr: PointerValue<'ctx>,
    pub dtype: DType,
    pub dims: Vec<i64>,
    pub strides: Vec<i64>,
}

impl<'ctx> Io<'ctx> {
    pub fn new(ptr: PointerValue<'ctx>, ty: &smelt_kernel::ArrayType) -> Self {
        Io { ptr, dtype: ty.dtype, dims: ty.dims.clone(), strides: super::strides(&ty.dims) }
    }
}

/// The values a graph's nodes see while being emitted at one place.
pub struct Env<'g, 'ctx> {
    pub graph: &'g Graph,
    vals: Vec<Option<BasicValueEnum<'ctx>>>,
    reduce_results: HashMap<u32, Vec<BasicValueEnum<'ctx>>>,
    /// `Index(d)` values.
    pub indices: Vec<IntValue<'ctx>>,
    /// `Param(n)` values.
    pub params: Vec<BasicValueEnum<'ctx>>,
    /// `Outer(id)` values (nodes of the enclosing graph).
    pub outer: HashMap<NodeId, BasicValueEnum<'ctx>>,
    /// `(offset, dims)`: a load whose index is exactly `Index(0), Index(1), ...`
    /// of an input with these dims reads at `offset` (the current element of a
    /// flattened loop).
    pub identity: Option<(IntValue<'ctx>, Vec<i64>)>,
    /// How nodes fold on the current piece of a split dimension (see
    /// [`smelt_kernel::ranges`]); empty: as written.
    pub folds: Vec<Fold>,
    /// How the bodies of inline reductions (by node) fold on that piece
    /// ([`smelt_kernel::ranges::Specialized::windows`]); absent: as written.
    pub window_folds: HashMap<u32, Vec<Fold>>,
    /// Inline reductions (by node) over one dimension whose value at each
    /// point is also stored, at the point's index, in a row buffer of this
    /// element type: `(the body's value node, buffer, dtype)`.
    pub materialize: HashMap<u32, (NodeId, PointerValue<'ctx>, DType)>,
    /// Inline reductions (by node) whose bodies read values an earlier
    /// reduction over the same row stored: `(body node, buffer, dtype)`,
    /// read at the window's index instead of computed again (a masked row
    /// of scores, for the max and again for the sum).
    pub row_reads: HashMap<u32, Vec<(NodeId, PointerValue<'ctx>, DType)>>,
}

impl<'g, 'ctx> Env<'g, 'ctx> {
    pub fn new(graph: &'g Graph) -> Self {
        Env {
            graph,
            vals: vec![None; graph.nodes.len()],
            reduce_results: HashMap::new(),
            indices: Vec::new(),
            params: Vec::new(),
            outer: HashMap::new(),
            identity: None,
            folds: Vec::new(),
            window_folds: HashMap::new(),
            materialize: HashMap::new(),
            row_reads: HashMap::new(),
        }
    }

    /// Drops the values of `ids` (emitted in a loop that has ended).
    pub fn forget(&mut self, ids: &[NodeId]) {
        for id in ids {
            if let Some(v) = self.vals.get_mut(id.0 as usize) {
                *v = None;
            }
            self.reduce_results.remove(&id.0);
        }
    }

    /// Binds node `id` to a value computed elsewhere (a row statistic a GPU
    /// block computed together); `emit_nodes` then uses it as is.
    pub fn bind(&mut self, id: NodeId, v: BasicValueEnum<'ctx>) {
        if let Some(slot) = self.vals.get_mut(id.0 as usize) {
            *slot = Some(v);
        }
    }

    /// Binds the results of the [`Node::Reduce`] node `id`.
    pub fn bind_reduce(&mut self, id: NodeId, results: Vec<BasicValueEnum<'ctx>>) {
        if let Some(first) = results.first().copied() {
            self.bind(id, first);
        }
        self.reduce_results.insert(id.0, results);
    }

    /// Whether node `id` has a value here.
    pub fn has(&self, id: NodeId) -> bool {
        self.vals.get(id.0 as usize).is_some_and(|v| v.is_some())
    }

    fn fold(&self, id: NodeId) -> Fold {
        self.folds.get(id.0 as usize).copied().unwrap_or(Fold::Keep)
    }

    pub fn with_indices(graph: &'g Graph, indices: Vec<IntValue<'ctx>>) -> Self {
        let mut e = Env::new(graph);
        e.indices = indices;
        e
    }

    /// Whether `index` reads the current element of a flattened loop: index
    /// `k` is the space's index `k`, or 0 along a dimension of extent 1 (the
    /// lowering writes a constant there: batch-1 NCHW epilogues).
    fn identity_load(&self, index: &[NodeId], dims: &[i64]) -> bool {
        match &self.identity {
            Some((_, d)) => {
                d.as_slice() == dims
                    && index.len() == dims.len()
                    && index.iter().enumerate().all(|(k, &i)| {
                        self.graph.nodes.get(i.0 as usize).is_some_and(|n| {
                            *n == Node::Index(k) || dims[k] == 1 && matches!(n, Node::Const(Scalar::Int(_, 0)))
                        })
                    })
            }
            None => false,
        }
    }
}

/// `v` as an integer value, or an error naming `what`.
pub fn as_int<'ctx>(v: BasicValueEnum<'ctx>, what: &str) -> Result<IntValue<'ctx>> {
    match v {
        BasicValueEnum::IntValue(i) => Ok(i),
        _ => invalid!("{what} is not an integer value"),
    }
}

/// Reductions over at most this many points are unrolled ([`Cg::reduce_unrolled`]).
pub(crate) const UNROLL_POINTS: i64 = 16;

/// Whether a reduction over `extents` whose body is `graph` is unrolled: a
/// few points, and not more than about a thousand operations of code in all
/// ([`code_size`]), or about a hundred when the body calls the math library.
/// Unrolled, a log-softmax over rows of 10 carried ten copies of `exp`: 34
/// ms to compile and 12.2 us to run over 128 rows; as a loop, 25.5 ms and
/// 7.4 us (`mnist_softreg_step` compiled in 99 ms instead of 158; AMD EPYC,
/// Zen 2).
pub(crate) fn unrolls(extents: &[i64], graph: &Graph) -> bool {
    let points = super::count(extents);
    let size = code_size(graph).max(1);
    let limit = if size >= MATH_CODE { 128 } else { 1024 };
    points > 0 && points <= UNROLL_POINTS && points as usize * size <= limit
}

/// Operations a function of the math library ([`smelt_math`]) expands to,
/// roughly: range reduction, a polynomial, special cases.
const MATH_CODE: usize = 32;

/// About how many operations `graph` becomes: one per node, [`MATH_CODE`] for
/// a float function of the math library. Counting those as one unrolled a
/// 16-point reduction carrying `log`, `exp`, `rsqrt` and `rem` outputs into
/// sixteen copies of each, 169 ms of LLVM for one kernel.
pub(crate) fn code_size(graph: &Graph) -> usize {
    let float = |x: &NodeId| graph.dtype(*x).is_float();
    graph
        .nodes
        .iter()
        .map(|n| match n {
            Node::Unary { op, x } if float(x) && smelt_math::MathOp::of_unary(*op).is_some() => MATH_CODE,
            Node::Binary { op, a, .. } if float(a) && smelt_math::MathOp::of_binary(*op).is_some() => MATH_CODE,
            Node::Binary { op: BinaryOp::Rem, a, .. } if float(a) => MATH_CODE,
            _ => 1,
        })
        .sum()
}

/// Whether `f` is a float add that may reassociate for `acc` types.
pub(crate) fn is_float_sum(f: &ScalarFn, acc: &[DType]) -> bool {
    matches!(f.pattern, Some(FnPattern::Binary(BinaryOp::Add)))
        && matches!(acc, [DType::F32] | [DType::F64])
        && f.params.len() == 2
        && f.outputs.len() == 1
}

/// The operands of node `id` that must be emitted before it.
fn operands(env: &Env<'_, '_>, io: &[Io<'_>], id: NodeId) -> Result<Vec<NodeId>> {
    let node = env.graph.node(id);
    if let Node::Load { input, index } = node {
        let dims = io.get(*input).map(|b| b.dims.as_slice()).unwrap_or(&[]);
        if env.identity_load(index, dims) {
            return Ok(Vec::new());
        }
    }
    Ok(node.operands())
}

impl<'ctx> Cg<'ctx, '_> {
    /// The initial values `init` of a reduction's accumulators, emitted once
    /// ahead of its loops (they do not depend on loop indices).
    pub fn initial_values(
        &mut self,
        graph: &Graph,
        io: &[Io<'ctx>],
        init: &[NodeId],
    ) -> Result<Vec<BasicValueEnum<'ctx>>> {
        let mut env = Env::new(graph);
        self.emit_nodes(&mut env, io, init)?;
        init.iter().map(|&i| self.value(&env, i)).collect()
    }

    /// Emits every node `roots` need that `env` does not hold yet. The graph
    /// is verified ([`smelt_kernel::verify`]): one type per node, roots in
    /// range, operands before their users, operand types as the node needs.
    pub fn emit_nodes(&mut self, env: &mut Env<'_, 'ctx>, io: &[Io<'ctx>], roots: &[NodeId]) -> Result<()> {
        let g = env.graph;
        let mut need = vec![false; g.nodes.len()];
        let mut stack: Vec<NodeId> = roots.to_vec();
        while let Some(id) = stack.pop() {
            let i = id.0 as usize;
            if need[i] || env.vals[i].is_some() {
                continue;
            }
            need[i] = true;
            let ops = match env.fold(id) {
                Fold::Keep => operands(env, io, id)?,
                Fold::Same(o) => vec![o],
                Fold::Pred(_) => Vec::new(),
            };
            stack.extend(ops);
        }
        for (i, _) in need.iter().enumerate().filter(|(_, n)| **n) {
            let id = NodeId(i as u32);
            let v = match env.fold(id) {
                Fold::Keep => self.emit_node(env, io, id)?,
                Fold::Same(o) => self.value(env, o)?,
                Fold::Pred(b) => self.t.i1.const_int(b as u64, false).into(),
            };
            // Every value has its declared type, so operations may rely on it.
            if !matches!(g.node(id), Node::Reduce(_)) && v.get_type() != self.reg_type(g.dtype(id)) {
                invalid!("node {i} ({:?}) does not produce its declared type {}", g.node(id), g.dtype(id));
            }
            env.vals[i] = Some(v);
        }
        Ok(())
    }

    /// The value of an emitted node.
    pub fn value(&self, env: &Env<'_, 'ctx>, id: NodeId) -> Result<BasicValueEnum<'ctx>> {
        env.vals
            .get(id.0 as usize)
            .copied()
            .flatten()
            .ok_or_else(|| LlvmError::Llvm(format!("node {} used before it was emitted", id.0)))
    }

    fn emit_node(&mut self, env: &mut Env<'_, 'ctx>, io: &[Io<'ctx>], id: NodeId) -> Result<BasicValueEnum<'ctx>> {
        let g = env.graph;
        let d = g.dtype(id);
        let v = |env: &Env<'_, 'ctx>, x: NodeId| self.value(env, x);
        Ok(match g.node(id) {
            Node::Index(k) => match env.indices.get(*k) {
                Some(&i) => i.into(),
                None => invalid!("Index({k}) outside a space of rank {}", env.indices.len()),
            },
            Node::Param(k) => match env.params.get(*k) {
                Some(&p) => p,
                None => invalid!("Param({k}) of a function with {} parameters", env.params.len()),
            },
            Node::Outer(o) => match env.outer.get(o) {
                Some(&p) => p,
                None => invalid!("Outer({}) outside an inline reduction", o.0),
            },
            Node::Const(s) => self.const_scalar(*s, d)?,
            Node::Load { input, index } => {
                let Some(buf) = io.get(*input) else {
                    invalid!("load of input {input} of a kernel with {} inputs", io.len());
                };
                let off = if env.identity_load(index, &buf.dims) {
                    match &env.identity {
                        Some((o, _)) => *o,
                        None => invalid!("identity load without an offset"),
                    }
                } else {
                    let mut off: Option<IntValue<'ctx>> = None;
                    for (i, stride) in smelt_kernel::ranges::address_terms(g, index, &buf.dims, &buf.strides) {
                        let iv = as_int(self.value(env, i)?, "a load index")?;
                        let term = if stride == 1 { iv } else { self.b.build_int_mul(iv, self.i64c(stride), "")? };
                        off = Some(match off {
                            Some(o) => self.b.build_int_add(o, term, "")?,
                            None => term,
                        });
                    }
                    off.unwrap_or_else(|| self.i64c(0))
                };
                self.load_elem(buf.ptr, d, off)?
            }
            Node::Unary { op, x } => {
                let xv = v(env, *x)?;
                self.unary(*op, g.dtype(*x), xv)?
            }
            Node::Binary { op, a, b } => {
                let (av, bv) = (v(env, *a)?, v(env, *b)?);
                self.binary(*op, g.dtype(*a), av, bv, false)?
            }
            Node::Compare { direction, compare_type, a, b } => {
                let (av, bv) = (v(env, *a)?, v(env, *b)?);
                self.compare(*direction, *compare_type, g.dtype(*a), av, bv)?.into()
            }
            Node::Select { pred, on_true, on_false } => {
                let p = v(env, *pred)?.into_int_value();
                let (t, f) = (v(env, *on_true)?, v(env, *on_false)?);
                self.select(p, t, f)?
            }
            Node::Clamp { min, x, max } => {
                let (lo, xv, hi) = (v(env, *min)?, v(env, *x)?, v(env, *max)?);
                self.clamp(d, lo, xv, hi)?
            }
            Node::MulAdd { a, b, c } => {
                let (av, bv, cv) = (v(env, *a)?, v(env, *b)?, v(env, *c)?);
                self.intrinsic("llvm.fma", &[av.get_type()], &[av.into(), bv.into(), cv.into()])?
            }
            Node::Convert { x, to } => {
                let xv = v(env, *x)?;
                self.convert(xv, g.dtype(*x), *to)?
            }
            Node::Bitcast { x, to } => {
                let xv = v(env, *x)?;
                self.bitcast(xv, g.dtype(*x), *to)?
            }
            Node::Reduce(r) => {
                let row = env.materialize.get(&id.0).copied();
                let reads = env.row_reads.get(&id.0).cloned().unwrap_or_default();
                let folds = env.window_folds.get(&id.0).cloned().unwrap_or_default();
                let results = self.emit_inline_reduce(env, io, r, (row, &reads), folds)?;
                let first = results.first().copied().unwrap_or_else(|| self.t.i1.const_zero().into());
                env.reduce_results.insert(id.0, results);
                first
            }
            Node::ReduceResult { reduce, index } => match env.reduce_results.get(&reduce.0) {
                Some(r) => match r.get(*index) {
                    Some(&x) => x,
                    None => invalid!("result {index} of a reduction with {} results", r.len()),
                },
                None => invalid!("ReduceResult of node {} which is not a reduction", reduce.0),
            },
        })
    }

    fn emit_inline_reduce(
        &mut self,
        env: &mut Env<'_, 'ctx>,
        io: &[Io<'ctx>],
        r: &InlineReduce,
        (row, reads): (Option<(NodeId, PointerValue<'ctx>, DType)>, &[(NodeId, PointerValue<'ctx>, DType)]),
        folds: Vec<Fold>,
    ) -> Result<Vec<BasicValueEnum<'ctx>>> {
        // One value per accumulator, plus (reduce-window over padding with a reducer
        // that does not ignore the init value) a validity flag the reducer reads;
        // the verifier checked that the reducer takes them all.
        let acc_types: Vec<DType> = r.init.iter().map(|&i| env.graph.dtype(i)).collect();
        let mut outer = HashMap::new();
        for node in &r.body.nodes {
            if let Node::Outer(o) = node {
                outer.insert(*o, self.value(env, *o)?);
            }
        }
        let init: Vec<BasicValueEnum<'ctx>> = r.init.iter().map(|&i| self.value(env, i)).collect::<Result<_>>()?;
        let lo = vec![self.i64c(0); r.window.len()];
        let hi: Vec<IntValue<'ctx>> = r.window.iter().map(|&w| self.i64c(w)).collect();
        let mut body = |cg: &mut Cg<'ctx, '_>, idx: &[IntValue<'ctx>]| -> Result<Vec<BasicValueEnum<'ctx>>> {
            let mut e = Env::with_indices(&r.body, idx.to_vec());
            e.outer = outer.clone();
            e.folds = folds.clone();
            if let [i] = idx {
                for &(n, buf, d) in reads {
                    let v = cg.load_elem(buf, d, *i)?;
                    e.bind(n, v);
                }
            }
            cg.emit_nodes(&mut e, io, &r.values)?;
            if let (Some((v, buf, d)), [i]) = (row, idx) {
                cg.store_elem(buf, d, *i, cg.value(&e, v)?)?;
            }
            r.values.iter().map(|&v| cg.value(&e, v)).collect()
        };
        if unrolls(&r.window, &r.body) {
            return self.reduce_unrolled(&r.window, init, &acc_types, &r.reducer, io, &mut body);
        }
        let mut accs = Vec::with_capacity(init.len());
        for (&iv, &t) in init.iter().zip(&acc_types) {
            let a = self.alloca(self.reg_type(t), "acc")?;
            self.b.build_store(a, iv)?;
            accs.push(a);
        }
        self.reduce_box(&lo, &hi, r.window.last().copied(), &accs, &acc_types, &r.reducer, io, &mut body)?;
        let mut out = Vec::with_capacity(accs.len());
        for (&a, &t) in accs.iter().zip(&acc_types) {
            out.push(self.b.build_load(self.reg_type(t), a, "")?);
        }
        Ok(out)
    }

    /// Combines `values` at every point of the box `extents` (row-major), from
    /// the accumulators' values `init`, as straight-line code (see [`unrolls`]):
    /// the accumulators stay values, so a first combine with the reducer's
    /// identity folds away (a float max from -inf). The same combines in the
    /// same order as [`Cg::reduce_box`].
    pub fn reduce_unrolled(
        &mut self,
        extents: &[i64],
        init: Vec<BasicValueEnum<'ctx>>,
        acc_types: &[DType],
        reducer: &ScalarFn,
        io: &[Io<'ctx>],
        body: &mut dyn FnMut(&mut Cg<'ctx, '_>, &[IntValue<'ctx>]) -> Result<Vec<BasicValueEnum<'ctx>>>,
    ) -> Result<Vec<BasicValueEnum<'ctx>>> {
        let points = super::count(extents);
        if let (Some((op, _)), true, [t], [v]) = (float_minmax(reducer, acc_types), self.x86, acc_types, &init[..])
            && points >= 2
        {
            return self.minmax_unrolled(extents, *v, *t, op == BinaryOp::Max, body);
        }
        let sum = is_float_sum(reducer, acc_types);
        let mut acc = init;
        for p in 0..points {
            let idx = self.box_point(extents, p);
            acc.extend(body(self, &idx)?);
            acc = self.apply_fn(reducer, &acc, io, sum)?;
        }
        Ok(acc)
    }

    /// The indices of point `p` (row-major) of the box `extents`, as constants.
    fn box_point(&self, extents: &[i64], p: i64) -> Vec<IntValue<'ctx>> {
        let mut idx = vec![self.i64c(0); extents.len()];
        let mut rest = p;
        for d in (0..extents.len()).rev() {
            idx[d] = self.i64c(rest % extents[d]);
            rest /= extents[d];
        }
        idx
    }

    /// [`Cg::reduce_unrolled`] for a float max (or min) on x86, from `init`:
    /// each point costs a plain `maxps` (`x > m ? x : m`), an ordered-compare
    /// folded into a running mask and an AND (OR) of the sign bits, where
    /// the NaN-propagating, zero-ordering max of two values costs five
    /// instructions. After the last point a NaN anywhere makes the result
    /// NaN, and an exact zero takes the sign the rule orders first: `+0` for
    /// a max when any value is `+0` (every other value is then negative, sign
    /// bit set: the AND of the sign bits is clear exactly then), `-0` for a
    /// min when any is `-0` (the OR). A 3x3 max pool's nine taps were 60
    /// vector instructions besides their loads.
    fn minmax_unrolled(
        &mut self,
        extents: &[i64],
        init: BasicValueEnum<'ctx>,
        t: DType,
        max: bool,
        body: &mut dyn FnMut(&mut Cg<'ctx, '_>, &[IntValue<'ctx>]) -> Result<Vec<BasicValueEnum<'ctx>>>,
    ) -> Result<Vec<BasicValueEnum<'ctx>>> {
        use inkwell::FloatPredicate;
        let fty = init.into_float_value().get_type();
        let ity = if t == DType::F64 { self.t.i64 } else { self.t.i32 };
        let bits = |cg: &Cg<'ctx, '_>, v: inkwell::values::FloatValue<'ctx>| -> Result<IntValue<'ctx>> {
            Ok(cg.b.build_bit_cast(v, ity, "")?.into_int_value())
        };
        let first = init.into_float_value();
        let (mut m, mut ordered, mut signs) =
            (first, self.b.build_float_compare(FloatPredicate::ORD, first, first, "")?, bits(self, first)?);
        let before = if max { FloatPredicate::OGT } else { FloatPredicate::OLT };
        for p in 0..super::count(extents) {
            let idx = self.box_point(extents, p);
            let Some(x) = body(self, &idx)?.first().map(|v| v.into_float_value()) else {
                invalid!("a reduction body without values");
            };
            let wins = self.b.build_float_compare(before, x, m, "")?;
            m = self.b.build_select(wins, x, m, "")?.into_float_value();
            let ord = self.b.build_float_compare(FloatPredicate::ORD, x, x, "")?;
            ordered = self.b.build_and(ordered, ord, "")?;
            let xb = bits(self, x)?;
            signs = if max { self.b.build_and(signs, xb, "")? } else { self.b.build_or(signs, xb, "")? };
        }
        let width = ity.get_bit_width();
        let magnitude = ity.const_int(u64::MAX >> (65 - width), false);
        let sign = ity.const_int(1u64 << (width - 1), false);
        let mb = bits(self, m)?;
        let zero =
            self.b.build_int_compare(IntPredicate::EQ, self.b.build_and(mb, magnitude, "")?, ity.const_zero(), "")?;
        let signed_zero = self.b.build_bit_cast(self.b.build_and(signs, sign, "")?, fty, "")?;
        let r = self.b.build_select(zero, signed_zero, m.into(), "")?;
        let nan = fty.const_float(f64::NAN);
        Ok(vec![self.b.build_select(ordered, r, nan.into(), "")?])
    }

    /// Combines `values` at every point of the box `[lo, hi)` (row-major) into
    /// the accumulator slots `accs` with `reducer`. `body` emits the values at a
    /// point (it is called once, inside the innermost loop). `inner_extent` is
    /// the innermost extent when known at compile time; long float sums are
    /// chunked (see the module docs).
    pub fn reduce_box(
        &mut self,
        lo: &[IntValue<'ctx>],
        hi: &[IntValue<'ctx>],
        inner_extent: Option<i64>,
        accs: &[PointerValue<'ctx>],
        acc_types: &[DType],
        reducer: &ScalarFn,
        io: &[Io<'ctx>],
        body: &mut dyn FnMut(&mut Cg<'ctx, '_>, &[IntValue<'ctx>]) -> Result<Vec<BasicValueEnum<'ctx>>>,
    ) -> Result<()> {
        let rank = lo.len();
        let sum = is_float_sum(reducer, acc_types);
        let chunked = sum && rank > 0 && inner_extent.is_some_and(|e| e > SUM_CHUNK);
        let minmax = float_minmax(reducer, acc_types)
            .filter(|_| rank > 0 && inner_extent.is_some_and(|e| e >= 4 * MINMAX_LANES));
        if let Some((op, identity)) = minmax {
            return self.reduce_box_lanes(lo, hi, accs, acc_types[0], op, identity, body);
        }
        let mut loops = Vec::with_capacity(rank);
        let mut idx = Vec::with_capacity(rank);
        let outer_rank = if chunked { rank - 1 } else { rank };
        for d in 0..outer_rank {
            let l = self.loop_begin(lo[d], hi[d], 1, &format!("r{d}"))?;
            idx.push(l.index);
            loops.push(l);
        }
        if chunked {
            // Sum each chunk of the innermost dimension freely (vectorized), then
            // add the chunk's sum to the accumulator in order.
            let t = acc_types[0];
            let ty = self.reg_type(t);
            let chunk = self.loop_begin(lo[rank - 1], hi[rank - 1], SUM_CHUNK, "chunk")?;
            let partial = self.alloca(ty, "partial")?;
            let Some(zero) = smelt_kernel::combine_identity(BinaryOp::Add, t) else {
                invalid!("a float sum of {t}, which has no zero");
            };
            let zero = self.const_scalar(zero, t)?;
            self.b.build_store(partial, zero)?;
            let end = self.b.build_int_add(chunk.index, self.i64c(SUM_CHUNK), "")?;
            let short = self.b.build_int_compare(IntPredicate::SLT, end, hi[rank - 1], "")?;
            let end = self.b.build_select(short, end, hi[rank - 1], "")?.into_int_value();
            let inner = self.loop_begin(chunk.index, end, 1, "r.in")?;
            idx.push(inner.index);
            let vals = body(self, &idx)?;
            let Some(&v) = vals.first() else {
                invalid!("a reduction body without values");
            };
            let p = self.b.build_load(ty, partial, "")?;
            let s = self.binary(BinaryOp::Add, t, p, v, true)?;
            self.b.build_store(partial, s)?;
            self.loop_end(inner)?;
            let p = self.b.build_load(ty, partial, "")?;
            let a = self.b.build_load(ty, accs[0], "")?;
            let s = self.binary(BinaryOp::Add, t, a, p, false)?;
            self.b.build_store(accs[0], s)?;
            self.loop_end(chunk)?;
        } else {
            let vals = body(self, &idx)?;
            self.combine(accs, acc_types, reducer, &vals, io, sum)?;
        }
        for l in loops.into_iter().rev() {
            self.loop_end(l)?;
        }
        Ok(())
    }

    /// [`Cg::reduce_box`] for a float max or min over a long innermost extent:
    /// the innermost dimension runs in blocks of [`MINMAX_LANES`], each lane of a
    /// block folded into its own partial result (starting at `identity`); the
    /// last partial block goes straight into the accumulator, then the partials.
    fn reduce_box_lanes(
        &mut self,
        lo: &[IntValue<'ctx>],
        hi: &[IntValue<'ctx>],
        accs: &[PointerValue<'ctx>],
        t: DType,
        op: BinaryOp,
        identity: smelt_kernel::Scalar,
        body: &mut dyn FnMut(&mut Cg<'ctx, '_>, &[IntValue<'ctx>]) -> Result<Vec<BasicValueEnum<'ctx>>>,
    ) -> Result<()> {
        let rank = lo.len();
        let ty = self.reg_type(t);
        let Some(&acc) = accs.first() else {
            invalid!("a reduction without accumulators");
        };
        let lanes = self.alloca_array(ty, MINMAX_LANES as u32, "lanes")?;
        let lane = |cg: &Self, l: IntValue<'ctx>| -> Result<PointerValue<'ctx>> {
            // SAFETY: `l` is below MINMAX_LANES, the array's length.
            Ok(unsafe { cg.b.build_in_bounds_gep(ty, lanes, &[l], "")? })
        };
        let mut loops = Vec::with_capacity(rank);
        let mut idx = Vec::with_capacity(rank);
        for d in 0..rank - 1 {
            let l = self.loop_begin(lo[d], hi[d], 1, &format!("r{d}"))?;
            idx.push(l.index);
            loops.push(l);
        }
        let id = self.const_scalar(identity, t)?;
        // The partials as one vector: one store here and one reduction at the
        // end, not 32 scalars for LLVM to unroll and re-vectorize (that cost
        // a softmax row kernel a third of its optimization time).
        let vt = ty.into_float_type().vec_type(MINMAX_LANES as u32);
        let splat = self.b.build_insert_element(vt.get_poison(), id.into_float_value(), self.i64c(0), "")?;
        let zeros = self.t.i32.vec_type(MINMAX_LANES as u32).const_zero();
        let splat = self.b.build_shuffle_vector(splat, vt.get_poison(), zeros, "")?;
        // The array is aligned for its elements only.
        let align = t.byte_size() as u32;
        self.b.build_store(lanes, splat)?.set_alignment(align).map_err(|e| LlvmError::Llvm(e.to_string()))?;
        let last = hi[rank - 1];
        let (blocks, l, at, split) = self.lane_blocks(&idx, lo[rank - 1], last, "lanes")?;
        let vals = body(self, &at)?;
        let Some(&v) = vals.first() else {
            invalid!("a reduction body without values");
        };
        let p = lane(self, l.index)?;
        let cur = self.b.build_load(ty, p, "")?;
        let new = self.binary(op, t, cur, v, false)?;
        self.b.build_store(p, new)?;
        let (tail, at) = self.lane_tail(l, blocks, &idx, split, last, "lanes")?;
        let vals = body(self, &at)?;
        let Some(&v) = vals.first() else {
            invalid!("a reduction body without values");
        };
        let a = self.b.build_load(ty, acc, "")?;
        let new = self.binary(op, t, a, v, false)?;
        self.b.build_store(acc, new)?;
        self.loop_end(tail)?;
        // The partials fold in any order (max and min are exact): LLVM's vector
        // reduction with IEEE maximum/minimum semantics, which are `op`'s (NaN
        // propagates, -0 < +0).
        let parts = self.b.build_load(vt, lanes, "")?;
        if let Some(i) = inkwell::values::BasicValue::as_instruction_value(&parts) {
            i.set_alignment(align).map_err(|e| LlvmError::Llvm(e.to_string()))?;
        }
        let reduce = if op == BinaryOp::Max { "llvm.vector.reduce.fmaximum" } else { "llvm.vector.reduce.fminimum" };
        let folded = self.intrinsic(reduce, &[vt.into()], &[parts.into()])?;
        let a = self.b.build_load(ty, acc, "")?;
        let new = self.binary(op, t, a, folded, false)?;
        self.b.build_store(acc, new)?;
        for l in loops.into_iter().rev() {
            self.loop_end(l)?;
        }
        Ok(())
    }

    /// Opens the loops of a lanes reduction over `[first, last)`: blocks of
    /// [`MINMAX_LANES`] up to `split` (the end of the whole blocks), the lanes
    /// of a block inside; returns them, the full index `idx` plus the lane's
    /// position, and `split`.
    fn lane_blocks(
        &self,
        idx: &[IntValue<'ctx>],
        first: IntValue<'ctx>,
        last: IntValue<'ctx>,
        name: &str,
    ) -> Result<(super::Loop<'ctx>, super::Loop<'ctx>, Vec<IntValue<'ctx>>, IntValue<'ctx>)> {
        let len = self.b.build_int_sub(last, first, "")?;
        let whole = self.b.build_and(len, self.i64c(!(MINMAX_LANES - 1)), "")?;
        let split = self.b.build_int_add(first, whole, "")?;
        let blocks = self.loop_begin(first, split, MINMAX_LANES, &format!("{name}.block"))?;
        let l = self.loop_begin(self.i64c(0), self.i64c(MINMAX_LANES), 1, name)?;
        let mut at = idx.to_vec();
        at.push(self.b.build_int_add(blocks.index, l.index, "")?);
        Ok((blocks, l, at, split))
    }

    /// Closes [`Cg::lane_blocks`]'s loops (the lanes loop is the vector
    /// loop: vectorizing the blocks instead would gather every lane's values
    /// a block apart) and opens the tail's, over `[split, last)`; returns it
    /// and the full index.
    fn lane_tail(
        &self,
        lanes: super::Loop<'ctx>,
        blocks: super::Loop<'ctx>,
        idx: &[IntValue<'ctx>],
        split: IntValue<'ctx>,
        last: IntValue<'ctx>,
        name: &str,
    ) -> Result<(super::Loop<'ctx>, Vec<IntValue<'ctx>>)> {
        self.loop_end(lanes)?;
        self.loop_end_scalar(blocks)?;
        let tail = self.loop_begin(split, last, 1, &format!("{name}.tail"))?;
        let mut at = idx.to_vec();
        at.push(tail.index);
        Ok((tail, at))
    }

    /// A row argmax or argmin ([`FnPattern::ArgMax`], the body's values a
    /// float and the innermost reduced index): as [`Cg::reduce_box_lanes`],
    /// each of [`MINMAX_LANES`] lanes folds the indices it sees in order
    /// into its own `(value, index)` pair (the lanes loop vectorizes: the
    /// reducer is compares and selects), the last partial block goes
    /// straight into the accumulators, then the lanes' pairs are combined
    /// into them, the lower-index pair always the reducer's first operand,
    /// which the pattern says gives the in-order result.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn reduce_box_arg(
        &mut self,
        lo: &[IntValue<'ctx>],
        hi: &[IntValue<'ctx>],
        accs: &[PointerValue<'ctx>],
        acc_types: &[DType],
        reducer: &ScalarFn,
        io: &[Io<'ctx>],
        body: &mut dyn FnMut(&mut Cg<'ctx, '_>, &[IntValue<'ctx>]) -> Result<Vec<BasicValueEnum<'ctx>>>,
    ) -> Result<()> {
        let (rank, n) = (lo.len(), MINMAX_LANES as u32);
        let (&[acc_v, acc_i], &[tv, ti]) = (accs, acc_types) else {
            invalid!("an argmax reduction without a value and an index accumulator");
        };
        let (ty_v, ty_i) = (self.reg_type(tv), self.reg_type(ti));
        let lanes_v = self.alloca_array(ty_v, n, "arg.values")?;
        let lanes_i = self.alloca_array(ty_i, n, "arg.indices")?;
        let lane = |cg: &Self, ty: inkwell::types::BasicTypeEnum<'ctx>, at: PointerValue<'ctx>, l: IntValue<'ctx>| {
            // SAFETY: `l` is below MINMAX_LANES, the arrays' length.
            unsafe { cg.b.build_in_bounds_gep(ty, at, &[l], "") }
        };
        let mut loops = Vec::with_capacity(rank);
        let mut idx = Vec::with_capacity(rank);
        for d in 0..rank - 1 {
            let l = self.loop_begin(lo[d], hi[d], 1, &format!("r{d}"))?;
            idx.push(l.index);
            loops.push(l);
        }
        // Every lane starts from the init pair (the reducer keeps an equal
        // pair's, so folding it in more than once changes nothing).
        let (init_v, init_i) = (self.b.build_load(ty_v, acc_v, "")?, self.b.build_load(ty_i, acc_i, "")?);
        let fill = self.loop_begin(self.i64c(0), self.i64c(MINMAX_LANES), 1, "arg.init")?;
        self.b.build_store(lane(self, ty_v, lanes_v, fill.index)?, init_v)?;
        self.b.build_store(lane(self, ty_i, lanes_i, fill.index)?, init_i)?;
        self.loop_end(fill)?;
        let last = hi[rank - 1];
        let (blocks, l, at, split) = self.lane_blocks(&idx, lo[rank - 1], last, "arg")?;
        let vals = body(self, &at)?;
        let (pv, pi) = (lane(self, ty_v, lanes_v, l.index)?, lane(self, ty_i, lanes_i, l.index)?);
        let mut args = vec![self.b.build_load(ty_v, pv, "")?, self.b.build_load(ty_i, pi, "")?];
        args.extend_from_slice(&vals);
        let out = self.apply_fn(reducer, &args, io, false)?;
        let [v, i] = out[..] else { invalid!("an argmax reducer without two results") };
        self.b.build_store(pv, v)?;
        self.b.build_store(pi, i)?;
        let (tail, at) = self.lane_tail(l, blocks, &idx, split, last, "arg")?;
        let vals = body(self, &at)?;
        self.combine(accs, acc_types, reducer, &vals, io, false)?;
        self.loop_end(tail)?;
        let fold = self.loop_begin(self.i64c(0), self.i64c(MINMAX_LANES), 1, "arg.fold")?;
        let (a, ia) = (self.b.build_load(ty_v, acc_v, "")?, self.b.build_load(ty_i, acc_i, "")?);
        let (pv, pi) = (lane(self, ty_v, lanes_v, fold.index)?, lane(self, ty_i, lanes_i, fold.index)?);
        let (b, ib) = (self.b.build_load(ty_v, pv, "")?, self.b.build_load(ty_i, pi, "")?);
        let swap = self.b.build_int_compare(IntPredicate::SLT, ib.into_int_value(), ia.into_int_value(), "")?;
        let pick = |cg: &Self, x: BasicValueEnum<'ctx>, y: BasicValueEnum<'ctx>| cg.b.build_select(swap, x, y, "");
        let args = [pick(self, b, a)?, pick(self, ib, ia)?, pick(self, a, b)?, pick(self, ia, ib)?];
        let out = self.apply_fn(reducer, &args, io, false)?;
        let [v, i] = out[..] else { invalid!("an argmax reducer without two results") };
        self.b.build_store(acc_v, v)?;
        self.b.build_store(acc_i, i)?;
        self.loop_end(fold)?;
        for l in loops.into_iter().rev() {
            self.loop_end(l)?;
        }
        Ok(())
    }

    /// `accs = reducer(accs..., vals...)` on accumulator slots.
    pub fn combine(
        &mut self,
        accs: &[PointerValue<'ctx>],
        acc_types: &[DType],
        reducer: &ScalarFn,
        vals: &[BasicValueEnum<'ctx>],
        io: &[Io<'ctx>],
        reassoc: bool,
    ) -> Result<()> {
        let mut args = Vec::with_capacity(accs.len() + vals.len());
        for (&a, &t) in accs.iter().zip(acc_types) {
            args.push(self.b.build_load(self.reg_type(t), a, "")?);
        }
        args.extend_from_slice(vals);
        let out = self.apply_fn(reducer, &args, io, reassoc)?;
        for (&a, v) in accs.iter().zip(out) {
            self.b.build_store(a, v)?;
        }
        Ok(())
    }

    /// Inlines the scalar function `f` on `args`; returns its outputs.
    pub fn apply_fn(
        &mut self,
        f: &ScalarFn,
        args: &[BasicValueEnum<'ctx>],
        io: &[Io<'ctx>],
        reassoc: bool,
    ) -> Result<Vec<BasicValueEnum<'ctx>>> {
        if let (Some(FnPattern::Binary(op)), [t, _], 1) = (f.pattern, f.params.as_slice(), f.outputs.len()) {
            return Ok(vec![self.binary(op, *t, args[0], args[1], reassoc)?]);
        }
        let mut env = Env::new(&f.graph);
        env.params = args.to_vec();
        self.emit_nodes(&mut env, io, &f.outputs)?;
        f.outputs.iter().map(|&o| self.value(&env, o)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use inkwell::context::Context;

    /// A batch-1 NCHW epilogue's loads index the batch with the constant 0
    /// (the lowering writes it for a dimension of extent 1): they still read
    /// the flat offset the epilogue stores at. Reading `(row % F) * H*W + col`
    /// against a store at `row * H*W + col` in the same buffer made LLVM's
    /// vector loop check for overlap at run time, fail, and run scalar
    /// (ResNet-50's 1x1 layers 2.5x slower).
    #[test]
    fn constant_zero_along_extent_one_is_an_identity_index() {
        let cx = Context::create();
        let off = cx.i64_type().const_int(7, false);
        let zero = Node::Const(Scalar::Int(DType::S64, 0));
        let graph = Graph {
            nodes: vec![zero.clone(), Node::Index(1), Node::Index(2), Node::Index(0), zero],
            types: vec![DType::S64; 5],
        };
        let ids = |v: &[u32]| v.iter().map(|&i| NodeId(i)).collect::<Vec<_>>();
        let mut env = Env::new(&graph);
        env.identity = Some((off, vec![1, 16, 56]));
        assert!(env.identity_load(&ids(&[0, 1, 2]), &[1, 16, 56]));
        assert!(env.identity_load(&ids(&[3, 1, 2]), &[1, 16, 56]));
        // Not along a longer dimension, nor in another position, nor for other dims.
        env.identity = Some((off, vec![2, 16, 56]));
        assert!(!env.identity_load(&ids(&[0, 1, 2]), &[2, 16, 56]));
        env.identity = Some((off, vec![1, 1, 56]));
        assert!(env.identity_load(&ids(&[0, 4, 2]), &[1, 1, 56]));
        assert!(!env.identity_load(&ids(&[0, 1, 4]), &[1, 1, 56]));
        assert!(!env.identity_load(&ids(&[0, 1, 2]), &[1, 16, 57]));
    }
}
