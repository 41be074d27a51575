//! The elemental emitter: the value of an instruction at an index, as graph nodes.
//!
//! XLA's `ElementalIrEmitter` as data. [`Emitter::emit`] returns the node computing
//! leaf `leaf` of instruction `id` at multi-index `index` (one `s64` node per
//! dimension), recursing into operands with the index each op reads them at:
//! broadcast, reshape, transpose, slice, pad, concatenate, reverse, gather and
//! dynamic-slice are index arithmetic; reduce and reduce-window become inline
//! [`Node::Reduce`]s whose bodies are nested graphs (scopes); map inlines its
//! computation. Results are memoized per (instruction, index), and the builder
//! hash-conses nodes, so shared subexpressions are computed once per point. A
//! value whose index does not depend on a reduction's window is emitted outside
//! the reduction body (loop-invariant hoisting).
//!
//! What a leaf instruction reads is given by its [`Binding`]: a kernel input (a
//! fusion parameter, the operand of an unfused op), values already computed (map
//! and scalar-function parameters), or the product of an output fusion. Loads
//! never read out of bounds: computed indices are clamped into range, and where
//! the position may lie outside the operand (padding, concatenation, windows) the
//! value is selected afterwards.

use std::collections::HashMap;

use smelt_hlo::attrs::{ComparisonDirection as Dir, Window};
use smelt_hlo::{ArrayShape, Attrs, CompId, Computation, DType, InstId, Instruction, Literal, Module, Opcode, Shape};

use super::builder::Builder;
use super::scalar_fn::{self, ConstTable};
use super::{LResult, internal, unsupported};
use crate::ir::{ArrayType, BinaryOp, FnPattern, InlineReduce, Node, NodeId, Scalar, ScalarFn, UnaryOp};
use crate::sem;

/// Where a kernel input's data comes from.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Source {
    /// Leaf `leaf` of operand `index` of the fusion (or unfused instruction).
    Operand { index: usize, leaf: u32 },
    /// A program constant.
    Const(u32),
    /// The contraction result of an output fusion (its epilogue's input 0).
    Product,
}

/// What an instruction of a context stands for.
#[derive(Clone, Debug)]
pub(crate) enum Binding {
    /// Kernel input: operand `k` of the fusion or unfused instruction.
    Operand(usize),
    /// Values (one per leaf) computed in scope `level`.
    Values { level: usize, nodes: Vec<NodeId> },
    /// The contraction of an output fusion, read at the epilogue's output index
    /// (`out` are the epilogue's dimensions).
    Product { out: Vec<i64> },
}

/// A computation being emitted, with what its leaves stand for.
struct Context<'m> {
    cid: CompId,
    comp: &'m Computation,
    bindings: HashMap<InstId, Binding>,
    /// The outermost scope its bindings are visible in.
    level: usize,
}

type MemoKey = (usize, InstId, usize, u64, Vec<NodeId>);

pub(crate) struct Emitter<'m, 'c> {
    pub(crate) module: &'m Module,
    /// Graphs under construction: 0 is the kernel's, deeper ones are reduction bodies.
    scopes: Vec<Builder>,
    /// A unique serial per scope (memo entries of a finished body never match).
    serials: Vec<u64>,
    next_serial: u64,
    contexts: Vec<Context<'m>>,
    memo: HashMap<MemoKey, NodeId>,
    /// Kernel inputs in order, with their types.
    pub(crate) inputs: Vec<(Source, ArrayType)>,
    pub(crate) consts: &'c mut ConstTable,
}

/// The array shape of leaf `leaf` of a shape.
pub(crate) fn leaf_shape(shape: &Shape, leaf: usize) -> Option<&ArrayShape> {
    shape.leaves().get(leaf).copied()
}

pub(crate) fn array_type(a: &ArrayShape) -> ArrayType {
    ArrayType { dtype: a.dtype, dims: a.dims.to_vec() }
}

/// The unsigned integer type of `bytes` bytes.
fn uint_of(bytes: usize) -> DType {
    match bytes {
        1 => DType::U8,
        2 => DType::U16,
        4 => DType::U32,
        _ => DType::U64,
    }
}

/// What a reduce or reduce-window of `n` inputs starts from.
struct Head {
    n: usize,
    /// The first input's dimensions.
    src: Vec<i64>,
    /// The init values (operands `n..2n`), at the reduction's level.
    init: Vec<NodeId>,
    /// The reducer's computation, and that as a scalar function.
    to_apply: CompId,
    reducer: ScalarFn,
}

impl<'m, 'c> Emitter<'m, 'c> {
    /// An emitter for a graph over an index space of `extents`.
    pub(crate) fn new(module: &'m Module, consts: &'c mut ConstTable, extents: &[i64]) -> Emitter<'m, 'c> {
        Emitter {
            module,
            scopes: vec![Builder::new(extents)],
            serials: vec![0],
            next_serial: 1,
            contexts: Vec::new(),
            memo: HashMap::new(),
            inputs: Vec::new(),
            consts,
        }
    }

    /// Adds a computation to emit from; returns its context number.
    pub(crate) fn context(&mut self, cid: CompId, bindings: HashMap<InstId, Binding>, level: usize) -> usize {
        let comp = self.module.comp(cid);
        self.contexts.push(Context { cid, comp, bindings, level });
        self.contexts.len() - 1
    }

    /// The computation of context `ctx`.
    pub(crate) fn context_comp(&self, ctx: usize) -> CompId {
        self.contexts[ctx].cid
    }

    /// The kernel's graph builder.
    pub(crate) fn root(&mut self) -> &mut Builder {
        &mut self.scopes[0]
    }

    /// The loop indices of the kernel's space.
    pub(crate) fn indices(&mut self, rank: usize) -> Vec<NodeId> {
        (0..rank).map(|d| self.scopes[0].index(d)).collect()
    }

    /// The kernel graph and its inputs.
    pub(crate) fn finish(mut self) -> (crate::ir::Graph, Vec<(Source, ArrayType)>) {
        let b = self.scopes.swap_remove(0);
        (b.finish(), self.inputs)
    }

    /// The kernel input for `source`, added on first use.
    pub(crate) fn input(&mut self, source: Source, ty: ArrayType) -> usize {
        if let Some(k) = self.inputs.iter().position(|(s, _)| *s == source) {
            return k;
        }
        self.inputs.push((source, ty));
        self.inputs.len() - 1
    }

    fn comp_inst(&self, ctx: usize, id: InstId) -> (&'m Computation, &'m Instruction) {
        let comp = self.contexts[ctx].comp;
        (comp, comp.inst(id))
    }

    /// Node `n` of scope `from`, made visible in the deeper scope `to`.
    fn import(&mut self, from: usize, mut n: NodeId, to: usize) -> NodeId {
        for level in from + 1..=to {
            let (t, range, c) = {
                let b = &self.scopes[level - 1];
                (b.dtype(n), b.range(n), b.as_const(n))
            };
            n = match c {
                Some(c) => self.scopes[level].constant(c),
                None => self.scopes[level].outer(n, t, range),
            };
        }
        n
    }

    /// The node of scope `level - 1` that node `n` of scope `level` stands for, if any.
    fn unimport(&mut self, level: usize, n: NodeId) -> Option<NodeId> {
        let b = &self.scopes[level];
        match (b.node(n), b.as_const(n)) {
            (Node::Outer(x), _) => Some(*x),
            (_, Some(c)) => Some(self.scopes[level - 1].constant(c)),
            _ => None,
        }
    }

    /// Leaf `leaf` of instruction `id` of context `ctx` at `index` (nodes of scope
    /// `level`), as a node of scope `level`.
    pub(crate) fn emit(
        &mut self,
        ctx: usize,
        id: InstId,
        leaf: usize,
        index: &[NodeId],
        level: usize,
    ) -> LResult<NodeId> {
        // Emit as far out as the index allows, then import.
        let mut at = level;
        let mut idx = index.to_vec();
        while at > self.contexts[ctx].level {
            let down: Option<Vec<NodeId>> = idx.iter().map(|&n| self.unimport(at, n)).collect();
            match down {
                Some(d) => {
                    idx = d;
                    at -= 1;
                }
                None => break,
            }
        }
        let key = (ctx, id, leaf, self.serials[at], idx.clone());
        let node = match self.memo.get(&key) {
            Some(&n) => n,
            None => {
                let n = self.emit_inst(ctx, id, leaf, &idx, at)?;
                self.memo.insert(key, n);
                n
            }
        };
        Ok(self.import(at, node, level))
    }

    fn operand(&mut self, ctx: usize, inst: &Instruction, k: usize, index: &[NodeId], lv: usize) -> LResult<NodeId> {
        let comp = self.contexts[ctx].comp;
        let Some(&op) = inst.operands.get(k) else {
            return Err(internal(comp, inst, format!("missing operand {k}")));
        };
        self.emit(ctx, op, 0, index, lv)
    }

    fn operand_dims(&self, ctx: usize, inst: &Instruction, k: usize) -> LResult<Vec<i64>> {
        let comp = self.contexts[ctx].comp;
        inst.operands
            .get(k)
            .and_then(|&o| comp.inst(o).shape.as_array())
            .map(|a| a.dims.to_vec())
            .ok_or_else(|| internal(comp, inst, format!("operand {k} is not an array")))
    }

    fn emit_inst(&mut self, ctx: usize, id: InstId, leaf: usize, idx: &[NodeId], lv: usize) -> LResult<NodeId> {
        let (comp, inst) = self.comp_inst(ctx, id);
        let ierr = |e: String| internal(comp, inst, e);
        if let Some(binding) = self.contexts[ctx].bindings.get(&id).cloned() {
            return self.emit_bound(ctx, inst, leaf, idx, lv, binding);
        }
        let shape = leaf_shape(&inst.shape, leaf).ok_or_else(|| ierr(format!("no leaf {leaf}")))?;
        let t = shape.dtype;
        let out_dims = shape.dims.to_vec();
        if idx.len() != out_dims.len() {
            return Err(ierr(format!("index of rank {} for a result of rank {}", idx.len(), out_dims.len())));
        }
        use Opcode as O;
        match (inst.opcode, &inst.attrs) {
            (O::Parameter, _) => Err(ierr("parameter without a binding".into())),
            (O::Constant, Attrs::Constant(lit)) => self.emit_constant(ctx, id, lit, leaf, idx, lv),
            (O::Iota, Attrs::Iota { dimension }) => {
                let d = usize::try_from(*dimension).ok().filter(|&d| d < idx.len());
                let d = d.ok_or_else(|| ierr("iota dimension out of range".into()))?;
                Ok(self.scopes[lv].convert(idx[d], t))
            }
            (O::Copy | O::OptimizationBarrier | O::AddDependency, _) => self.emit(ctx, inst.operands[0], leaf, idx, lv),
            (O::PartitionId | O::ReplicaId, _) => Ok(self.scopes[lv].int(t, 0)),
            (O::GetDimensionSize, Attrs::Dimensions(d)) => {
                let dims = self.operand_dims(ctx, inst, 0)?;
                let n = d.first().and_then(|&d| usize::try_from(d).ok()).and_then(|d| dims.get(d));
                let n = n.ok_or_else(|| ierr("get-dimension-size dimension out of range".into()))?;
                Ok(self.scopes[lv].int(t, *n as i128))
            }
            (O::Convert, _) => {
                let x = self.operand(ctx, inst, 0, idx, lv)?;
                Ok(self.scopes[lv].convert(x, t))
            }
            (O::BitcastConvert, _) => self.emit_bitcast_convert(ctx, inst, t, idx, lv),
            (O::ReducePrecision, Attrs::ReducePrecision { exponent_bits, mantissa_bits }) => {
                let x = self.operand(ctx, inst, 0, idx, lv)?;
                self.reduce_precision(x, *exponent_bits, *mantissa_bits, lv).map_err(ierr)
            }
            (O::Compare, Attrs::Compare { direction, compare_type }) => {
                let a = self.operand(ctx, inst, 0, idx, lv)?;
                let b = self.operand(ctx, inst, 1, idx, lv)?;
                self.scopes[lv].compare(*direction, *compare_type, a, b).map_err(ierr)
            }
            (O::Select, _) => {
                let pidx = if self.operand_dims(ctx, inst, 0)?.is_empty() { &[][..] } else { idx };
                let p = self.operand(ctx, inst, 0, pidx, lv)?;
                let a = self.operand(ctx, inst, 1, idx, lv)?;
                let b = self.operand(ctx, inst, 2, idx, lv)?;
                self.scopes[lv].select(p, a, b).map_err(ierr)
            }
            (O::Clamp, _) => {
                let lidx = if self.operand_dims(ctx, inst, 0)?.is_empty() { &[][..] } else { idx };
                let hidx = if self.operand_dims(ctx, inst, 2)?.is_empty() { &[][..] } else { idx };
                let lo = self.operand(ctx, inst, 0, lidx, lv)?;
                let x = self.operand(ctx, inst, 1, idx, lv)?;
                let hi = self.operand(ctx, inst, 2, hidx, lv)?;
                self.scopes[lv].clamp(lo, x, hi).map_err(ierr)
            }
            (op, _) if let Some(op) = UnaryOp::of_opcode(op) => {
                let x = self.operand(ctx, inst, 0, idx, lv)?;
                self.scopes[lv].unary(op, x).map_err(|e| unsupported(comp, inst, e))
            }
            (op, _) if let Some(op) = BinaryOp::of_opcode(op) => {
                let a = self.operand(ctx, inst, 0, idx, lv)?;
                let b = self.operand(ctx, inst, 1, idx, lv)?;
                self.scopes[lv].binary(op, a, b).map_err(|e| unsupported(comp, inst, e))
            }
            (O::Broadcast, Attrs::Dimensions(dims)) => {
                let oidx: Option<Vec<NodeId>> =
                    dims.iter().map(|&d| usize::try_from(d).ok().and_then(|d| idx.get(d).copied())).collect();
                let oidx = oidx.ok_or_else(|| ierr("broadcast dimension out of range".into()))?;
                self.operand(ctx, inst, 0, &oidx, lv)
            }
            (O::Reshape, _) => {
                let from = self.operand_dims(ctx, inst, 0)?;
                let oidx = self.scopes[lv].reshape_index(idx, &out_dims, &from).map_err(ierr)?;
                self.operand(ctx, inst, 0, &oidx, lv)
            }
            (O::Bitcast, _) => {
                let op_shape = comp.inst(inst.operands[0]).shape.as_array();
                let plain =
                    op_shape.is_some_and(|o| o.dtype == t && o.layout.is_descending() && shape.layout.is_descending());
                if !plain {
                    return Err(unsupported(comp, inst, "a bitcast that changes the layout or element type"));
                }
                let from = self.operand_dims(ctx, inst, 0)?;
                let oidx = self.scopes[lv].reshape_index(idx, &out_dims, &from).map_err(ierr)?;
                self.operand(ctx, inst, 0, &oidx, lv)
            }
            (O::Transpose, Attrs::Dimensions(perm)) => {
                let mut oidx = vec![None; perm.len()];
                for (k, &p) in perm.iter().enumerate() {
                    if let Some(slot) = usize::try_from(p).ok().and_then(|p| oidx.get_mut(p)) {
                        *slot = idx.get(k).copied();
                    }
                }
                let oidx: Option<Vec<NodeId>> = oidx.into_iter().collect();
                let oidx = oidx.ok_or_else(|| ierr("transpose is not a permutation".into()))?;
                self.operand(ctx, inst, 0, &oidx, lv)
            }
            (O::Slice, Attrs::Slice(spec)) => {
                if spec.len() != idx.len() {
                    return Err(ierr("slice rank mismatch".into()));
                }
                let mut oidx = Vec::with_capacity(idx.len());
                for (s, &i) in spec.iter().zip(idx) {
                    let b = &mut self.scopes[lv];
                    let scaled = b.imul_const(i, s.stride).map_err(ierr)?;
                    oidx.push(b.iadd_const(scaled, s.start).map_err(ierr)?);
                }
                self.operand(ctx, inst, 0, &oidx, lv)
            }
            (O::Reverse, Attrs::Dimensions(dims)) => {
                let mut oidx = idx.to_vec();
                for &d in dims.iter() {
                    let d = usize::try_from(d).ok().filter(|&d| d < idx.len());
                    let d = d.ok_or_else(|| ierr("reverse dimension out of range".into()))?;
                    let b = &mut self.scopes[lv];
                    let last = b.s64(out_dims[d] - 1);
                    oidx[d] = b.isub(last, idx[d]).map_err(ierr)?;
                }
                self.operand(ctx, inst, 0, &oidx, lv)
            }
            (O::Pad, Attrs::Pad(config)) => self.emit_pad(ctx, inst, config, idx, lv),
            (O::Concatenate, Attrs::Concatenate { dimension }) => self.emit_concat(ctx, inst, *dimension, idx, lv),
            (O::DynamicSlice, Attrs::DynamicSlice { sizes }) => {
                let dims = self.operand_dims(ctx, inst, 0)?;
                let starts = self.dynamic_starts(ctx, inst, &dims, sizes, lv)?;
                let mut oidx = Vec::with_capacity(idx.len());
                for (&s, &i) in starts.iter().zip(idx) {
                    oidx.push(self.scopes[lv].iadd(s, i).map_err(ierr)?);
                }
                self.operand(ctx, inst, 0, &oidx, lv)
            }
            (O::DynamicUpdateSlice, _) => self.emit_dynamic_update_slice(ctx, inst, idx, lv),
            (O::Gather, Attrs::Gather(g)) => self.emit_gather(ctx, inst, g, idx, lv),
            (O::Reduce, Attrs::Dimensions(dims)) => {
                let results = self.emit_reduce(ctx, inst, dims, idx, lv)?;
                results.get(leaf).copied().ok_or_else(|| ierr(format!("reduce has no result {leaf}")))
            }
            (O::ReduceWindow, Attrs::Window(w)) => {
                let results = self.emit_reduce_window(ctx, inst, w, idx, lv)?;
                results.get(leaf).copied().ok_or_else(|| ierr(format!("reduce-window has no result {leaf}")))
            }
            (O::Map, _) => {
                let mut values = Vec::with_capacity(inst.operands.len());
                for k in 0..inst.operands.len() {
                    values.push(self.operand(ctx, inst, k, idx, lv)?);
                }
                let called = inst.to_apply().ok_or_else(|| ierr("map without a computation".into()))?;
                let callee = self.module.comp(called);
                let bindings = callee
                    .params()
                    .into_iter()
                    .zip(values)
                    .map(|(p, v)| (p, Binding::Values { level: lv, nodes: vec![v] }))
                    .collect();
                let inner = self.context(called, bindings, lv);
                self.emit(inner, callee.root, leaf, &[], lv)
            }
            (O::Tuple, _) => {
                let mut base = 0;
                for &op in &inst.operands {
                    let n = comp.inst(op).shape.leaves().len();
                    if leaf < base + n {
                        return self.emit(ctx, op, leaf - base, idx, lv);
                    }
                    base += n;
                }
                Err(ierr(format!("tuple has no leaf {leaf}")))
            }
            (O::GetTupleElement, Attrs::GetTupleElement { index }) => {
                let op = inst.operands[0];
                let op_shape = &comp.inst(op).shape;
                let i = usize::try_from(*index).map_err(|_| ierr("negative tuple index".into()))?;
                let base: usize = op_shape.tuple_elements().iter().take(i).map(|e| e.leaves().len()).sum();
                self.emit(ctx, op, base + leaf, idx, lv)
            }
            _ => Err(unsupported(comp, inst, "not an elemental operation")),
        }
    }

    fn emit_bound(
        &mut self,
        ctx: usize,
        inst: &Instruction,
        leaf: usize,
        idx: &[NodeId],
        lv: usize,
        binding: Binding,
    ) -> LResult<NodeId> {
        let comp = self.contexts[ctx].comp;
        let ierr = |e: String| internal(comp, inst, e);
        match binding {
            Binding::Operand(k) => {
                let shape = leaf_shape(&inst.shape, leaf).ok_or_else(|| ierr(format!("no leaf {leaf}")))?;
                let input = self.input(Source::Operand { index: k, leaf: leaf as u32 }, array_type(shape));
                Ok(self.scopes[lv].load(input, shape.dtype, idx.to_vec()))
            }
            Binding::Values { level, nodes } => {
                let n = *nodes.get(leaf).ok_or_else(|| ierr(format!("no value for leaf {leaf}")))?;
                if level > lv {
                    return Err(ierr("a value used outside the scope it was computed in".into()));
                }
                Ok(self.import(level, n, lv))
            }
            Binding::Product { out } => {
                let shape = inst.shape.as_array().ok_or_else(|| ierr("the product must be an array".into()))?;
                let oidx = self.scopes[lv].reshape_index(idx, &shape.dims, &out).map_err(ierr)?;
                let input = self.input(Source::Product, ArrayType { dtype: shape.dtype, dims: out });
                Ok(self.scopes[lv].load(input, shape.dtype, oidx))
            }
        }
    }

    fn emit_constant(
        &mut self,
        ctx: usize,
        id: InstId,
        lit: &Literal,
        leaf: usize,
        idx: &[NodeId],
        lv: usize,
    ) -> LResult<NodeId> {
        let comp = self.contexts[ctx].comp;
        let inst = comp.inst(id);
        let leaves = lit.leaves();
        let arr = leaves.get(leaf).ok_or_else(|| internal(comp, inst, format!("constant has no leaf {leaf}")))?;
        let t = arr.dtype();
        if arr.dims.is_empty() {
            let bytes = arr.data.to_le_bytes();
            return Ok(self.scopes[lv].constant(sem::read(t, &bytes)));
        }
        let cid = self.contexts[ctx].cid;
        let n = self.consts.get(cid, id, leaf as u32, arr);
        let input = self.input(Source::Const(n), ArrayType { dtype: t, dims: arr.dims.to_vec() });
        Ok(self.scopes[lv].load(input, t, idx.to_vec()))
    }

    fn emit_bitcast_convert(
        &mut self,
        ctx: usize,
        inst: &Instruction,
        t: DType,
        idx: &[NodeId],
        lv: usize,
    ) -> LResult<NodeId> {
        let comp = self.contexts[ctx].comp;
        let ierr = |e: String| internal(comp, inst, e);
        let from = comp.inst(inst.operands[0]).shape.as_array().map(|a| a.dtype).ok_or_else(|| ierr("array".into()))?;
        let (wi, wo) = (from.byte_size(), t.byte_size());
        if wi == wo {
            let x = self.operand(ctx, inst, 0, idx, lv)?;
            return self.scopes[lv].bitcast(x, t).map_err(ierr);
        }
        if wi > wo {
            // The result has one more, minor dimension: piece `j` of each wide element.
            let (last, outer) = idx.split_last().ok_or_else(|| ierr("missing minor dimension".into()))?;
            let x = self.operand(ctx, inst, 0, outer, lv)?;
            let b = &mut self.scopes[lv];
            let (wide, narrow) = (uint_of(wi), uint_of(wo));
            let bits = b.bitcast(x, wide).map_err(ierr)?;
            let shift = b.imul_const(*last, 8 * wo as i64).map_err(ierr)?;
            let shift = b.convert(shift, wide);
            let moved = b.binary(BinaryOp::ShrLogical, bits, shift).map_err(ierr)?;
            let piece = b.convert(moved, narrow);
            return b.bitcast(piece, t).map_err(ierr);
        }
        // The operand has one more, minor dimension: assemble its pieces.
        let (wide, narrow) = (uint_of(wo), uint_of(wi));
        let mut acc = self.scopes[lv].int(wide, 0);
        for j in 0..wo / wi {
            let mut pidx = idx.to_vec();
            pidx.push(self.scopes[lv].s64(j as i64));
            let x = self.operand(ctx, inst, 0, &pidx, lv)?;
            let b = &mut self.scopes[lv];
            let bits = b.bitcast(x, narrow).map_err(ierr)?;
            let bits = b.convert(bits, wide);
            let shift = b.int(wide, (8 * wi * j) as i128);
            let moved = b.binary(BinaryOp::Shl, bits, shift).map_err(ierr)?;
            acc = b.binary(BinaryOp::Or, acc, moved).map_err(ierr)?;
        }
        self.scopes[lv].bitcast(acc, t).map_err(ierr)
    }

    /// XLA's reduce-precision on the bits, as the interpreter computes it.
    fn reduce_precision(&mut self, x: NodeId, exp_bits: i64, mant_bits: i64, lv: usize) -> Result<NodeId, String> {
        let b = &mut self.scopes[lv];
        let t = b.dtype(x);
        let (total, src_mant, src_exp): (u32, i64, i64) = match t {
            DType::F16 => (16, 10, 5),
            DType::Bf16 => (16, 7, 8),
            DType::F32 => (32, 23, 8),
            DType::F64 => (64, 52, 11),
            _ => return Err(format!("reduce-precision of {t}")),
        };
        if !(1..=64).contains(&exp_bits) || !(0..=64).contains(&mant_bits) {
            return Err("reduce-precision needs exponent_bits >= 1 and mantissa_bits >= 0".into());
        }
        let u = uint_of(total as usize / 8);
        let mut v = b.bitcast(x, u)?;
        if mant_bits < src_mant {
            let shift = (src_mant - mant_bits) as u32;
            let last = 1u64 << shift;
            let last_c = b.int(u, last as i128);
            let masked = b.binary(BinaryOp::And, v, last_c)?;
            let sh = b.int(u, shift as i128);
            let bit = b.binary(BinaryOp::ShrLogical, masked, sh)?;
            let base_bias = b.int(u, ((last >> 1) - 1) as i128);
            let bias = b.binary(BinaryOp::Add, bit, base_bias)?;
            let sum = b.binary(BinaryOp::Add, v, bias)?;
            let trunc = b.int(u, !(last - 1) as i128);
            v = b.binary(BinaryOp::And, sum, trunc)?;
        }
        if exp_bits < src_exp {
            let exp_mask = ((1u64 << src_exp) - 1) << src_mant;
            let bias = (1u64 << (src_exp - 1)) - 1;
            let reduced = (1u64 << (exp_bits - 1)) - 1;
            let (max_e, min_e) = ((bias + reduced) << src_mant, (bias - reduced) << src_mant);
            let exp_c = b.int(u, exp_mask as i128);
            let sign_c = b.int(u, (1u64 << (total - 1)) as i128);
            let xe = b.binary(BinaryOp::And, v, exp_c)?;
            let xs = b.binary(BinaryOp::And, v, sign_c)?;
            let max_c = b.int(u, max_e as i128);
            let min_c = b.int(u, min_e as i128);
            let over = b.compare(Dir::Gt, None, xe, max_c)?;
            let under = b.compare(Dir::Le, None, xe, min_c)?;
            let inf = b.binary(BinaryOp::Or, xs, exp_c)?;
            let low = b.select(under, xs, v)?;
            v = b.select(over, inf, low)?;
        }
        let r = b.bitcast(v, t)?;
        let nan = b.compare(Dir::Ne, None, x, x)?;
        let keep = if mant_bits > 0 { x } else { b.constant(Scalar::Float(t, f64::INFINITY)) };
        b.select(nan, keep, r)
    }

    fn emit_pad(
        &mut self,
        ctx: usize,
        inst: &Instruction,
        config: &[smelt_hlo::attrs::PadDim],
        idx: &[NodeId],
        lv: usize,
    ) -> LResult<NodeId> {
        let comp = self.contexts[ctx].comp;
        let ierr = |e: String| internal(comp, inst, e);
        let src = self.operand_dims(ctx, inst, 0)?;
        let value = self.operand(ctx, inst, 1, &[], lv)?;
        if src.contains(&0) {
            return Ok(value);
        }
        if config.len() != src.len() || idx.len() != src.len() {
            return Err(ierr("padding rank mismatch".into()));
        }
        let mut valid = self.scopes[lv].pred(true);
        let mut oidx = Vec::with_capacity(src.len());
        for ((p, &i), &n) in config.iter().zip(idx).zip(&src) {
            let b = &mut self.scopes[lv];
            let pos = b.iadd_const(i, p.low.wrapping_neg()).map_err(ierr)?;
            let ge = b.icmp_const(Dir::Ge, pos, 0).map_err(ierr)?;
            valid = b.and(valid, ge).map_err(ierr)?;
            let q = if p.interior > 0 {
                let r = b.irem_const(pos, p.interior + 1).map_err(ierr)?;
                let on = b.icmp_const(Dir::Eq, r, 0).map_err(ierr)?;
                valid = b.and(valid, on).map_err(ierr)?;
                b.idiv_const(pos, p.interior + 1).map_err(ierr)?
            } else {
                pos
            };
            let lt = b.icmp_const(Dir::Lt, q, n).map_err(ierr)?;
            valid = b.and(valid, lt).map_err(ierr)?;
            oidx.push(b.iclamp(q, 0, n - 1).map_err(ierr)?);
        }
        let x = self.operand(ctx, inst, 0, &oidx, lv)?;
        self.scopes[lv].select(valid, x, value).map_err(ierr)
    }

    fn emit_concat(&mut self, ctx: usize, inst: &Instruction, dim: i64, idx: &[NodeId], lv: usize) -> LResult<NodeId> {
        let comp = self.contexts[ctx].comp;
        let ierr = |e: String| internal(comp, inst, e);
        let d = usize::try_from(dim).ok().filter(|&d| d < idx.len()).ok_or_else(|| ierr("bad dimension".into()))?;
        let mut parts = Vec::with_capacity(inst.operands.len());
        let mut offset = 0i64;
        for k in 0..inst.operands.len() {
            let size = *self.operand_dims(ctx, inst, k)?.get(d).ok_or_else(|| ierr("operand rank".into()))?;
            parts.push((k, offset, size));
            offset += size;
        }
        let mut value: Option<NodeId> = None;
        for &(k, off, size) in parts.iter().rev() {
            if size == 0 {
                continue;
            }
            let b = &mut self.scopes[lv];
            let local = b.iadd_const(idx[d], -off).map_err(ierr)?;
            let mut pidx = idx.to_vec();
            pidx[d] = b.iclamp(local, 0, size - 1).map_err(ierr)?;
            let v = self.operand(ctx, inst, k, &pidx, lv)?;
            value = Some(match value {
                None => v,
                Some(rest) => {
                    let b = &mut self.scopes[lv];
                    let inside = b.icmp_const(Dir::Lt, idx[d], off + size).map_err(ierr)?;
                    b.select(inside, v, rest).map_err(ierr)?
                }
            });
        }
        value.ok_or_else(|| ierr("concatenation of empty operands read".into()))
    }

    /// Start indices of dynamic-slice / dynamic-update-slice, clamped so that a
    /// block of `sizes` fits in `dims`.
    pub(crate) fn dynamic_starts(
        &mut self,
        ctx: usize,
        inst: &Instruction,
        dims: &[i64],
        sizes: &[i64],
        lv: usize,
    ) -> LResult<Vec<NodeId>> {
        let comp = self.contexts[ctx].comp;
        let ierr = |e: String| internal(comp, inst, e);
        let first = if inst.opcode == Opcode::DynamicUpdateSlice { 2 } else { 1 };
        let vector_form = inst.operands.len() == first + 1 && self.operand_dims(ctx, inst, first)?.len() == 1;
        let mut starts = Vec::with_capacity(dims.len());
        for (k, &dim) in dims.iter().enumerate() {
            let raw = if vector_form {
                let i = self.scopes[lv].s64(k as i64);
                self.operand(ctx, inst, first, &[i], lv)?
            } else {
                self.operand(ctx, inst, first + k, &[], lv)?
            };
            let b = &mut self.scopes[lv];
            let s = b.index_of(raw).map_err(ierr)?;
            let size = *sizes.get(k).ok_or_else(|| ierr("missing slice size".into()))?;
            starts.push(b.iclamp(s, 0, (dim - size).max(0)).map_err(ierr)?);
        }
        Ok(starts)
    }

    fn emit_dynamic_update_slice(
        &mut self,
        ctx: usize,
        inst: &Instruction,
        idx: &[NodeId],
        lv: usize,
    ) -> LResult<NodeId> {
        let comp = self.contexts[ctx].comp;
        let ierr = |e: String| internal(comp, inst, e);
        let dims = self.operand_dims(ctx, inst, 0)?;
        let up = self.operand_dims(ctx, inst, 1)?;
        let base = self.operand(ctx, inst, 0, idx, lv)?;
        if up.contains(&0) {
            return Ok(base);
        }
        let starts = self.dynamic_starts(ctx, inst, &dims, &up, lv)?;
        let mut inside = self.scopes[lv].pred(true);
        let mut uidx = Vec::with_capacity(idx.len());
        for ((&i, &s), &n) in idx.iter().zip(&starts).zip(&up) {
            let b = &mut self.scopes[lv];
            let local = b.isub(i, s).map_err(ierr)?;
            let ge = b.icmp_const(Dir::Ge, local, 0).map_err(ierr)?;
            let lt = b.icmp_const(Dir::Lt, local, n).map_err(ierr)?;
            inside = b.and(inside, ge).map_err(ierr)?;
            inside = b.and(inside, lt).map_err(ierr)?;
            uidx.push(b.iclamp(local, 0, n - 1).map_err(ierr)?);
        }
        let u = self.operand(ctx, inst, 1, &uidx, lv)?;
        self.scopes[lv].select(inside, u, base).map_err(ierr)
    }

    fn emit_gather(
        &mut self,
        ctx: usize,
        inst: &Instruction,
        g: &smelt_hlo::attrs::GatherAttrs,
        idx: &[NodeId],
        lv: usize,
    ) -> LResult<NodeId> {
        let comp = self.contexts[ctx].comp;
        let ierr = |e: &str| internal(comp, inst, e.to_string());
        let od = self.operand_dims(ctx, inst, 0)?;
        let id = self.operand_dims(ctx, inst, 1)?;
        let rank = od.len();
        let u = |v: i64| usize::try_from(v).ok();
        let map: Vec<usize> = g.start_index_map.iter().filter_map(|&d| u(d)).collect();
        let collapsed: Vec<usize> = g.collapsed_slice_dims.iter().filter_map(|&d| u(d)).collect();
        let obatch: Vec<usize> = g.operand_batching_dims.iter().filter_map(|&d| u(d)).collect();
        let ibatch: Vec<usize> = g.start_indices_batching_dims.iter().filter_map(|&d| u(d)).collect();
        let sizes: Vec<i64> = g.slice_sizes.to_vec();
        if sizes.len() != rank || map.iter().chain(&collapsed).chain(&obatch).any(|&d| d >= rank) {
            return Err(ierr("gather dimension numbers out of range"));
        }
        let vector_dim = u(g.index_vector_dim).filter(|&d| d < id.len());
        let index_batch: Vec<usize> = (0..id.len()).filter(|&d| Some(d) != vector_dim).collect();
        let window: Vec<usize> = (0..rank).filter(|d| !collapsed.contains(d) && !obatch.contains(d)).collect();
        let mut offsets: Vec<usize> = g.offset_dims.iter().filter_map(|&d| u(d)).collect();
        offsets.sort_unstable();
        if offsets.len() != window.len() || offsets.iter().any(|&d| d >= idx.len()) {
            return Err(ierr("gather offset dimensions do not match the slice"));
        }
        // Batch positions: the output dimensions that are not offsets, in order.
        let pos: Vec<NodeId> = (0..idx.len()).filter(|d| !offsets.contains(d)).map(|d| idx[d]).collect();
        if pos.len() != index_batch.len() {
            return Err(ierr("gather batch dimensions do not match the indices"));
        }
        let mut oidx: Vec<NodeId> = (0..rank).map(|_| self.scopes[lv].s64(0)).collect();
        for (k, &d) in map.iter().enumerate() {
            let mut iidx = vec![None; id.len()];
            for (p, &dim) in index_batch.iter().enumerate() {
                iidx[dim] = Some(pos[p]);
            }
            if let Some(v) = vector_dim {
                iidx[v] = Some(self.scopes[lv].s64(k as i64));
            }
            let iidx: Option<Vec<NodeId>> = iidx.into_iter().collect();
            let iidx = iidx.ok_or_else(|| ierr("gather index vector"))?;
            let raw = self.operand(ctx, inst, 1, &iidx, lv)?;
            let b = &mut self.scopes[lv];
            let s = b.index_of(raw).map_err(|e| ierr(&e))?;
            let s = b.iclamp(s, 0, (od[d] - sizes[d]).max(0)).map_err(|e| ierr(&e))?;
            oidx[d] = b.iadd(oidx[d], s).map_err(|e| ierr(&e))?;
        }
        for (&o, &i) in obatch.iter().zip(&ibatch) {
            let p = index_batch.iter().position(|&d| d == i).ok_or_else(|| ierr("gather batching dimension"))?;
            oidx[o] = self.scopes[lv].iadd(oidx[o], pos[p]).map_err(|e| ierr(&e))?;
        }
        for (k, &d) in offsets.iter().enumerate() {
            oidx[window[k]] = self.scopes[lv].iadd(oidx[window[k]], idx[d]).map_err(|e| ierr(&e))?;
        }
        self.operand(ctx, inst, 0, &oidx, lv)
    }

    /// Opens a reduction body over `window`; returns its scope level.
    fn open_scope(&mut self, window: &[i64]) -> usize {
        self.scopes.push(Builder::new(window));
        self.serials.push(self.next_serial);
        self.next_serial += 1;
        self.scopes.len() - 1
    }

    fn close_scope(&mut self) -> crate::ir::Graph {
        self.serials.pop();
        self.scopes.pop().map(Builder::finish).unwrap_or_default()
    }

    fn emit_reduce(
        &mut self,
        ctx: usize,
        inst: &Instruction,
        dims: &[i64],
        idx: &[NodeId],
        lv: usize,
    ) -> LResult<Vec<NodeId>> {
        let Head { n, src, init, reducer, .. } = self.reduction_head(ctx, inst, lv)?;
        let comp = self.contexts[ctx].comp;
        let ierr = |e: &str| internal(comp, inst, e.to_string());
        let mut reduced: Vec<usize> = dims.iter().filter_map(|&d| usize::try_from(d).ok()).collect();
        reduced.sort_unstable();
        if reduced.iter().any(|&d| d >= src.len()) {
            return Err(ierr("reduce dimension out of range"));
        }
        let kept: Vec<usize> = (0..src.len()).filter(|d| !reduced.contains(d)).collect();
        if kept.len() != idx.len() {
            return Err(ierr("reduce index rank mismatch"));
        }
        let window: Vec<i64> = reduced.iter().map(|&d| src[d]).collect();
        let body = self.open_scope(&window);
        let mut bidx = Vec::with_capacity(src.len());
        for d in 0..src.len() {
            bidx.push(match kept.iter().position(|&k| k == d) {
                Some(p) => self.import(lv, idx[p], body),
                None => {
                    let w = reduced.iter().position(|&r| r == d).unwrap_or(0);
                    self.scopes[body].index(w)
                }
            });
        }
        let mut values = Vec::with_capacity(n);
        for j in 0..n {
            values.push(self.operand(ctx, inst, j, &bidx, body)?);
        }
        Ok(self.close_reduction(inst, lv, window, init, values, reducer))
    }

    fn emit_reduce_window(
        &mut self,
        ctx: usize,
        inst: &Instruction,
        w: &Window,
        idx: &[NodeId],
        lv: usize,
    ) -> LResult<Vec<NodeId>> {
        let Head { n, src, init, to_apply, reducer } = self.reduction_head(ctx, inst, lv)?;
        let comp = self.contexts[ctx].comp;
        let ierr = |e: &str| internal(comp, inst, e.to_string());
        if w.dims.len() != src.len() || idx.len() != src.len() {
            return Err(ierr("window rank mismatch"));
        }
        let window: Vec<i64> = w.dims.iter().map(|d| d.size).collect();
        let body = self.open_scope(&window);
        let mut valid = self.scopes[body].pred(true);
        let mut bidx = Vec::with_capacity(src.len());
        for (k, wd) in w.dims.iter().enumerate() {
            let o = self.import(lv, idx[k], body);
            let b = &mut self.scopes[body];
            let e = |s: String| internal(comp, inst, s);
            let wk = b.index(k);
            let start = b.imul_const(o, wd.stride).map_err(e)?;
            let start = b.iadd_const(start, wd.pad_low.wrapping_neg()).map_err(e)?;
            let tap = b.imul_const(wk, wd.window_dilation).map_err(e)?;
            let p = b.iadd(start, tap).map_err(e)?;
            let ge = b.icmp_const(Dir::Ge, p, 0).map_err(e)?;
            valid = b.and(valid, ge).map_err(e)?;
            let q = if wd.base_dilation > 1 {
                let r = b.irem_const(p, wd.base_dilation).map_err(e)?;
                let on = b.icmp_const(Dir::Eq, r, 0).map_err(e)?;
                valid = b.and(valid, on).map_err(e)?;
                b.idiv_const(p, wd.base_dilation).map_err(e)?
            } else {
                p
            };
            let lt = b.icmp_const(Dir::Lt, q, src[k]).map_err(e)?;
            valid = b.and(valid, lt).map_err(e)?;
            bidx.push(b.iclamp(q, 0, src[k] - 1).map_err(e)?);
        }
        let inits: Vec<NodeId> = init.iter().map(|&i| self.import(lv, i, body)).collect();
        let empty = src.contains(&0);
        let mut loaded = Vec::with_capacity(n);
        for (j, &i0) in inits.iter().enumerate() {
            loaded.push(if empty { i0 } else { self.operand(ctx, inst, j, &bidx, body)? });
        }
        let always = self.scopes[body].as_const(valid).is_some_and(sem::is_true);
        // Padding and dilation holes are skipped. Where the reducer ignores its
        // init value (max, min, and, or; add of 0; multiply by 1) they may
        // contribute the init instead, which keeps the reducer a plain pattern.
        let exact = n == 1
            && match reducer.pattern {
                Some(FnPattern::Binary(BinaryOp::Max | BinaryOp::Min | BinaryOp::And | BinaryOp::Or)) => true,
                Some(FnPattern::Binary(BinaryOp::Add)) => {
                    self.scopes[lv].as_const(init[0]).is_some_and(|c| sem::as_f64(c) == 0.0)
                }
                Some(FnPattern::Binary(BinaryOp::Mul)) => {
                    self.scopes[lv].as_const(init[0]).is_some_and(|c| sem::as_f64(c) == 1.0)
                }
                _ => false,
            };
        let (values, reducer) = if always {
            (loaded, reducer)
        } else if exact {
            let v = self.scopes[body].select(valid, loaded[0], inits[0]).map_err(|e| ierr(&e))?;
            (vec![v], reducer)
        } else {
            let mut values = loaded;
            values.push(valid);
            (values, self.guarded_fn(to_apply)?)
        };
        Ok(self.close_reduction(inst, lv, window, init, values, reducer))
    }

    /// What a reduce or reduce-window starts from (see [`Head`]).
    fn reduction_head(&mut self, ctx: usize, inst: &Instruction, lv: usize) -> LResult<Head> {
        let n = inst.operands.len() / 2;
        let src = self.operand_dims(ctx, inst, 0)?;
        let mut init = Vec::with_capacity(n);
        for j in 0..n {
            init.push(self.operand(ctx, inst, n + j, &[], lv)?);
        }
        let comp = self.contexts[ctx].comp;
        let what = format!("{} without a computation", inst.opcode);
        let to_apply = inst.to_apply().ok_or_else(|| internal(comp, inst, what))?;
        Ok(Head { n, src, init, to_apply, reducer: self.scalar_fn(to_apply)? })
    }

    /// Closes the scope of a reduction's body and adds the reduction at level
    /// `lv`, typed as `inst`'s results.
    fn close_reduction(
        &mut self,
        inst: &Instruction,
        lv: usize,
        window: Vec<i64>,
        init: Vec<NodeId>,
        values: Vec<NodeId>,
        reducer: ScalarFn,
    ) -> Vec<NodeId> {
        let body = self.close_scope();
        let dtypes: Vec<DType> = inst.shape.leaves().iter().map(|a| a.dtype).collect();
        self.scopes[lv].reduce(InlineReduce { window, init, body, values, reducer }, &dtypes)
    }

    /// The scalar function of computation `cid` (reducer, comparator, combiner).
    pub(crate) fn scalar_fn(&mut self, cid: CompId) -> LResult<ScalarFn> {
        scalar_fn::build(self.module, &mut *self.consts, cid, false)
    }

    /// `(acc..., value..., valid) -> valid ? f(acc..., value...) : acc...`.
    fn guarded_fn(&mut self, cid: CompId) -> LResult<ScalarFn> {
        scalar_fn::build(self.module, &mut *self.consts, cid, true)
    }
}
