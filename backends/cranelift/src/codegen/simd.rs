//! Four f32 lanes at a time in the innermost loop of elementwise kernels.
//!
//! Cranelift's x86-64 and AArch64 backends support 128-bit vectors. A `Loop`
//! kernel's innermost loop runs on `f32x4` when every value that varies in it
//! is f32 arithmetic Cranelift has a vector instruction for (add, sub, mul,
//! div, max, min, neg, abs, sqrt, floor, ceil, round-to-even, compares,
//! selects, and multiply-adds where the host has FMA) over contiguous loads (the innermost index is the last index of
//! every load that uses it, and used nowhere else) and every output is f32.
//! Values of outer levels are splatted. The last `n % 4` iterations run the
//! scalar loop. Anything else (conversions, transcendental functions, other
//! types) keeps the whole innermost loop scalar.

use std::collections::HashMap;

use cranelift_codegen::ir::{Endianness, InstBuilder, MemFlagsData, Value, types};
use smelt_hlo::DType;
use smelt_hlo::attrs::CompareType;
use smelt_kernel::{BinaryOp, Graph, Node, NodeId, UnaryOp};

use super::Fx;
use super::graph::{Vals, View};
use super::scalar::float_cc;
use crate::error::{Result, invalid};

/// Lanes per vector.
pub(crate) const LANES: i64 = 4;

fn vector_flags() -> MemFlagsData {
    MemFlagsData::new().with_notrap()
}

/// Whether the innermost loop (dimension `inner`, nodes of level `level`)
/// can run on vectors.
pub(crate) fn vectorizable(
    g: &Graph,
    need: &[bool],
    lv: &[usize],
    level: usize,
    inner: usize,
    inputs: &[View],
    outputs: &[NodeId],
    out_types: &[DType],
) -> bool {
    if out_types.iter().any(|&t| t != DType::F32) {
        return false;
    }
    let inner_node = |id: NodeId| matches!(g.node(id), Node::Index(d) if *d == inner);
    for (i, node) in g.nodes.iter().enumerate() {
        if !need[i] || lv[i] != level {
            continue;
        }
        let id = NodeId(i as u32);
        let f32_ = g.dtype(id) == DType::F32;
        let ok = match node {
            Node::Index(d) => *d == inner,
            Node::Load { input, index } => {
                f32_ && inputs.get(*input).is_some_and(|v| v.ty.dtype == DType::F32)
                    && index.last().is_some_and(|&l| inner_node(l))
                    && index[..index.len() - 1].iter().all(|&x| lv[x.0 as usize] < level)
            }
            Node::Unary { op, .. } => {
                f32_ && matches!(
                    op,
                    UnaryOp::Abs
                        | UnaryOp::Neg
                        | UnaryOp::Sqrt
                        | UnaryOp::Floor
                        | UnaryOp::Ceil
                        | UnaryOp::RoundNearestEven
                )
            }
            Node::Binary { op, .. } => {
                f32_ && matches!(
                    op,
                    BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div | BinaryOp::Max | BinaryOp::Min
                )
            }
            Node::Compare { a, compare_type, .. } => {
                g.dtype(*a) == DType::F32 && compare_type.is_none_or(|t| t == CompareType::Float)
            }
            Node::Select { on_true, .. } => g.dtype(*on_true) == DType::F32,
            // Vector FMAs where the host has them (else a library call per lane).
            Node::MulAdd { .. } => f32_ && super::math::host_has_fma(),
            _ => false,
        };
        if !ok {
            return false;
        }
        // The innermost index feeds only load addresses.
        if !matches!(node, Node::Load { .. }) && node.operands().iter().any(|&o| inner_node(o)) {
            return false;
        }
    }
    // Outputs that vary in the loop are vectors; the rest are splatted.
    outputs.iter().all(|&o| g.dtype(o) == DType::F32)
}

impl Fx<'_, '_> {
    /// The value of node `id` as a vector (`f32x4`, or an `i32x4` mask for
    /// compares): computed in the loop, or splatted from an outer level.
    fn lanes(&mut self, g: &Graph, id: NodeId, vecs: &HashMap<u32, Value>, vals: &Vals) -> Result<Value> {
        if let Some(&v) = vecs.get(&id.0) {
            return Ok(v);
        }
        let s = vals.get(id)?;
        Ok(match g.dtype(id) {
            DType::F32 => self.b.ins().splat(types::F32X4, s),
            DType::Pred => {
                // 0/1 to an all-zeros/all-ones lane mask.
                let wide = self.b.ins().uextend(types::I32, s);
                let mask = self.b.ins().ineg(wide);
                self.b.ins().splat(types::I32X4, mask)
            }
            t => invalid!("no vector form for {t}"),
        })
    }

    /// Emits the innermost level's nodes on vectors, for lanes `index ..
    /// index + 4` of dimension `inner`, and stores the outputs.
    pub(crate) fn vector_body(
        &mut self,
        g: &Graph,
        need: &[bool],
        lv: &[usize],
        level: usize,
        idx: &[Option<Value>],
        inputs: &[View],
        outputs: &[(View, NodeId)],
        vals: &Vals,
    ) -> Result<()> {
        let mut vecs: HashMap<u32, Value> = HashMap::new();
        let little = MemFlagsData::new().with_endianness(Endianness::Little);
        for (i, node) in g.nodes.iter().enumerate() {
            if !need[i] || lv[i] != level {
                continue;
            }
            let v = match node {
                Node::Index(_) => continue,
                Node::Load { input, index } => {
                    let Some(view) = inputs.get(*input) else { invalid!("load of input {input} out of range") };
                    let mut at = Vec::with_capacity(index.len());
                    for (k, &x) in index.iter().enumerate() {
                        at.push(if k + 1 == index.len() {
                            match idx.iter().rev().flatten().next() {
                                Some(&v) => v,
                                None => invalid!("vector load outside its loop"),
                            }
                        } else {
                            vals.get(x)?
                        });
                    }
                    let addr = self.address(view, &at)?;
                    self.b.ins().load(types::F32X4, vector_flags(), addr, 0)
                }
                Node::Unary { op, x } => {
                    let x = self.lanes(g, *x, &vecs, vals)?;
                    match op {
                        UnaryOp::Abs => self.b.ins().fabs(x),
                        UnaryOp::Neg => self.b.ins().fneg(x),
                        UnaryOp::Sqrt => self.b.ins().sqrt(x),
                        UnaryOp::Floor => self.b.ins().floor(x),
                        UnaryOp::Ceil => self.b.ins().ceil(x),
                        _ => self.b.ins().nearest(x),
                    }
                }
                Node::Binary { op, a, b } => {
                    let (x, y) = (self.lanes(g, *a, &vecs, vals)?, self.lanes(g, *b, &vecs, vals)?);
                    match op {
                        BinaryOp::Add => self.b.ins().fadd(x, y),
                        BinaryOp::Sub => self.b.ins().fsub(x, y),
                        BinaryOp::Mul => self.b.ins().fmul(x, y),
                        BinaryOp::Div => self.b.ins().fdiv(x, y),
                        BinaryOp::Max => self.b.ins().fmax(x, y),
                        _ => self.b.ins().fmin(x, y),
                    }
                }
                Node::Compare { direction, a, b, .. } => {
                    let (x, y) = (self.lanes(g, *a, &vecs, vals)?, self.lanes(g, *b, &vecs, vals)?);
                    self.b.ins().fcmp(float_cc(*direction), x, y)
                }
                Node::Select { pred, on_true, on_false } => {
                    let mask = self.lanes(g, *pred, &vecs, vals)?;
                    let (x, y) = (self.lanes(g, *on_true, &vecs, vals)?, self.lanes(g, *on_false, &vecs, vals)?);
                    let mask = self.b.ins().bitcast(types::F32X4, little, mask);
                    self.b.ins().bitselect(mask, x, y)
                }
                Node::MulAdd { a, b, c } => {
                    let x = self.lanes(g, *a, &vecs, vals)?;
                    let (y, z) = (self.lanes(g, *b, &vecs, vals)?, self.lanes(g, *c, &vecs, vals)?);
                    self.b.ins().fma(x, y, z)
                }
                _ => invalid!("node %{i} has no vector form"),
            };
            vecs.insert(i as u32, v);
        }
        let index: Vec<Value> = idx.iter().flatten().copied().collect();
        for (view, o) in outputs {
            let v = self.lanes(g, *o, &vecs, vals)?;
            let addr = self.address(view, &index)?;
            self.b.ins().store(vector_flags(), v, addr, 0);
        }
        Ok(())
    }
}
