//! Scalar functions (reducers, comparators, scatter combiners) and the program's
//! constant table.
//!
//! A called computation of scalars becomes a [`ScalarFn`]: its parameters are
//! `Param(i)` nodes and its root leaves the outputs, emitted by the same
//! elemental emitter as kernels. Common shapes are recognized as an
//! [`FnPattern`] so backends can use native reductions and sorts: a reducer that
//! is one add/multiply/max/min/and/or of its two parameters, and a comparator that
//! is one LT or GT compare of parameters 0 and 1.

use std::collections::HashMap;

use smelt_hlo::{Array, Attrs, CompId, Computation, InstId, Module, Opcode};

use super::elemental::{Binding, Emitter};
use super::prune::prune_fn;
use super::{LResult, internal, unsupported};
use crate::eval::FnEval;
use crate::ir::{ArrayType, BinaryOp, ConstData, FnPattern, Scalar, ScalarFn};
use smelt_hlo::DType;
use smelt_hlo::attrs::ComparisonDirection;

/// The program's read-only data, one entry per constant leaf.
#[derive(Debug, Default)]
pub(crate) struct ConstTable {
    pub(crate) data: Vec<ConstData>,
    index: HashMap<(CompId, InstId, u32), u32>,
}

impl ConstTable {
    /// The number of constant leaf `leaf` of instruction `inst` (whose value is `arr`).
    pub(crate) fn get(&mut self, comp: CompId, inst: InstId, leaf: u32, arr: &Array) -> u32 {
        if let Some(&n) = self.index.get(&(comp, inst, leaf)) {
            return n;
        }
        let n = self.data.len() as u32;
        self.data.push(ConstData {
            ty: ArrayType { dtype: arr.dtype(), dims: arr.dims.to_vec() },
            bytes: arr.data.to_le_bytes(),
        });
        self.index.insert((comp, inst, leaf), n);
        n
    }
}

/// The scalar function of computation `cid`. With `guarded`, it takes one more
/// `pred` parameter and returns its accumulators (the first half of its
/// parameters) unchanged when that is false: how a reduction skips the padding
/// of a window whose reducer would not ignore its init value.
pub(crate) fn build(module: &Module, consts: &mut ConstTable, cid: CompId, guarded: bool) -> LResult<ScalarFn> {
    let comp = module.comp(cid);
    let params = comp.params();
    let mut dtypes = Vec::with_capacity(params.len() + 1);
    for &p in &params {
        let inst = comp.inst(p);
        match inst.shape.as_array() {
            Some(a) if a.rank() == 0 => dtypes.push(a.dtype),
            _ => return Err(unsupported(comp, inst, "a called computation with a non-scalar parameter")),
        }
    }
    let root = comp.root;
    let root_inst = comp.inst(root);
    let leaves = root_inst.shape.leaves();
    if leaves.iter().any(|a| a.rank() != 0) {
        return Err(unsupported(comp, root_inst, "a called computation with a non-scalar result"));
    }
    let mut em = Emitter::new(module, consts, &[]);
    let mut bindings = HashMap::new();
    let mut nodes = Vec::with_capacity(params.len());
    for (k, &p) in params.iter().enumerate() {
        let n = em.root().param(k, dtypes[k]);
        nodes.push(n);
        bindings.insert(p, Binding::Values { level: 0, nodes: vec![n] });
    }
    let ctx = em.context(cid, bindings, 0);
    let mut outputs = Vec::with_capacity(leaves.len());
    for leaf in 0..leaves.len() {
        outputs.push(em.emit(ctx, root, leaf, &[], 0)?);
    }
    if guarded {
        let valid = em.root().param(params.len(), DType::Pred);
        dtypes.push(DType::Pred);
        for (j, out) in outputs.iter_mut().enumerate() {
            let acc = *nodes.get(j).ok_or_else(|| internal(comp, root_inst, "fewer parameters than results"))?;
            *out = em.root().select(valid, *out, acc).map_err(|e| internal(comp, root_inst, e))?;
        }
    }
    if !em.inputs.is_empty() {
        return Err(unsupported(comp, root_inst, "a called computation that reads arrays"));
    }
    let (graph, _) = em.finish();
    let pattern = if guarded { None } else { pattern(comp) };
    let mut f = prune_fn(&ScalarFn { params: dtypes, graph, outputs, pattern });
    if !guarded && f.pattern.is_none() {
        f.pattern = arg_pattern(&f);
    }
    Ok(f)
}

/// One reducer for several reductions computed together: `parts` are each
/// reduction's computation and accumulator count; the result takes all
/// accumulators, then all values, and returns all accumulators, in that order.
pub(crate) fn combine(module: &Module, consts: &mut ConstTable, parts: &[(CompId, usize)]) -> LResult<ScalarFn> {
    if let [(f, _)] = parts {
        return build(module, consts, *f, false);
    }
    let total: usize = parts.iter().map(|p| p.1).sum();
    let mut acc_types = Vec::with_capacity(total);
    let mut value_types = Vec::with_capacity(total);
    for &(f, n) in parts {
        let comp = module.comp(f);
        let params = comp.params();
        let root = comp.root_inst();
        if params.len() != 2 * n || root.shape.leaves().len() != n {
            return Err(unsupported(comp, root, "a reducer whose arity does not match its reduction"));
        }
        for (k, &p) in params.iter().enumerate() {
            let inst = comp.inst(p);
            let t = match inst.shape.as_array() {
                Some(a) if a.rank() == 0 => a.dtype,
                _ => return Err(unsupported(comp, inst, "a reducer with a non-scalar parameter")),
            };
            if k < n { acc_types.push(t) } else { value_types.push(t) }
        }
    }
    let mut em = Emitter::new(module, consts, &[]);
    let params: Vec<DType> = acc_types.iter().chain(&value_types).copied().collect();
    let nodes: Vec<_> = params.iter().enumerate().map(|(k, &t)| em.root().param(k, t)).collect();
    let mut outputs = Vec::with_capacity(total);
    let mut offset = 0;
    for &(f, n) in parts {
        let comp = module.comp(f);
        let mut bindings = HashMap::new();
        for (k, p) in comp.params().into_iter().enumerate() {
            let node = if k < n { nodes[offset + k] } else { nodes[total + offset + k - n] };
            bindings.insert(p, Binding::Values { level: 0, nodes: vec![node] });
        }
        let ctx = em.context(f, bindings, 0);
        for leaf in 0..n {
            outputs.push(em.emit(ctx, comp.root, leaf, &[], 0)?);
        }
        offset += n;
    }
    let (graph, inputs) = em.finish();
    if !inputs.is_empty() {
        let comp = module.comp(parts[0].0);
        return Err(unsupported(comp, comp.root_inst(), "a called computation that reads arrays"));
    }
    let mut f = prune_fn(&ScalarFn { params, graph, outputs, pattern: None });
    f.pattern = arg_pattern(&f);
    Ok(f)
}

/// [`FnPattern::ArgMax`], recognized by what the reducer computes (on every
/// pair of signed zeros, infinities, NaN and ordinary values with three
/// indices) rather than by how it is spelled.
fn arg_pattern(f: &ScalarFn) -> Option<FnPattern> {
    let &[v, i, v2, i2] = f.params.as_slice() else { return None };
    if v != v2 || i != i2 || !v.is_float() || !i.is_int() || f.outputs.len() != 2 {
        return None;
    }
    const VALUES: [f64; 7] = [f64::NEG_INFINITY, -1.0, -0.0, 0.0, 1.0, f64::INFINITY, f64::NAN];
    let same = |x: Scalar, y: f64| matches!(x, Scalar::Float(_, g) if g.to_bits() == y.to_bits() || (g.is_nan() && y.is_nan()));
    [false, true].into_iter().find_map(|min| {
        let mut eval = FnEval::new(f);
        let mut out = Vec::with_capacity(2);
        for a in VALUES {
            for b in VALUES {
                for (ia, ib) in [(0, 1), (1, 0), (2, 2)] {
                    let args = [Scalar::Float(v, a), Scalar::Int(i, ia), Scalar::Float(v, b), Scalar::Int(i, ib)];
                    eval.call(&args, &mut out, "reducer").ok()?;
                    let wins = if min { a < b } else { a > b } || a.is_nan();
                    let value = if wins { a } else { b };
                    let index = if wins || (a == b && ia < ib) { ia } else { ib };
                    if !same(out[0], value) || out[1] != Scalar::Int(i, index) {
                        return None;
                    }
                }
            }
        }
        Some(FnPattern::ArgMax { min })
    })
}

/// The parameter number an instruction is, if it is a parameter.
fn param_number(comp: &Computation, id: InstId) -> Option<u32> {
    comp.insts.get(id).and_then(|i| i.parameter_number())
}

/// Recognizes `p0 op p1` reducers and `compare(p0, p1)` LT/GT comparators.
pub(crate) fn pattern(comp: &Computation) -> Option<FnPattern> {
    let root = comp.root_inst();
    let [a, b] = root.operands.as_slice() else {
        return None;
    };
    let pair = (param_number(comp, *a)?, param_number(comp, *b)?);
    match (root.opcode, &root.attrs) {
        (Opcode::Compare, Attrs::Compare { direction, compare_type }) => {
            let descending = match (pair, direction) {
                ((0, 1), ComparisonDirection::Lt) | ((1, 0), ComparisonDirection::Gt) => false,
                ((0, 1), ComparisonDirection::Gt) | ((1, 0), ComparisonDirection::Lt) => true,
                _ => return None,
            };
            Some(FnPattern::LessThan { descending, compare_type: *compare_type })
        }
        (op, _) if comp.num_params() == 2 && (pair == (0, 1) || pair == (1, 0)) => match BinaryOp::of_opcode(op)? {
            op @ (BinaryOp::Add | BinaryOp::Mul | BinaryOp::Max | BinaryOp::Min | BinaryOp::And | BinaryOp::Or) => {
                Some(FnPattern::Binary(op))
            }
            _ => None,
        },
        _ => None,
    }
}
