//! `topk` as a sort and two slices, so that every backend that sorts runs it.
//!
//! `topk(x), k, largest` picks the `k` largest (or smallest) elements of each
//! row along the last dimension, in order, with their s32 indices; ties keep
//! the lower index first, floats order totally (the interpreter's
//! `sort::topk` is the reference). The same selection is
//! `sort(x, iota), is_stable=true` with the comparator
//! `compare(a, b), direction=GT (LT), type=TOTALORDER` on the values alone,
//! then the first `k` of each sorted row: a stable sort by a strict order keeps
//! equal values in index order.
//!
//! XLA's `TopK` custom call (in its optimized modules) is the same selection
//! with its comparator given, and is rewritten the same way with that
//! comparator.
//!
//! Contract: rewrites every `topk` (and `TopK` custom call) into
//! `tuple(slice(gte(sort, 0)), slice(gte(sort, 1)))` over one comparator
//! computation per element type and direction (added to the module). Sorting
//! the whole row costs `n log n` per row where a selection would cost `n log
//! k`; `topk` is rare enough in real programs that one rule for every backend
//! wins. Assumes a verified module; the rewritten `topk` is removed.

use std::collections::HashMap;

use smelt_hlo::attrs::{CompareType, ComparisonDirection, SliceDim};
use smelt_hlo::builder::ComputationBuilder;
use smelt_hlo::module::NameUniquer;
use smelt_hlo::{ArrayShape, Attrs, CompId, DType, InstId, Module, Opcode, Shape};

use crate::pass::{PassContext, Result, Rewrite};
use crate::rewrite::Rewriter;

pub struct TopkDecomposer;

impl Rewrite for TopkDecomposer {
    const NAME: &'static str = "topk-decomposer";

    fn rewrite(&mut self, module: &mut Module, _cx: &mut PassContext) -> Result<bool> {
        Ok(decompose_topk(module) > 0)
    }
}

/// Whether `module` has a `topk` or a `TopK` custom call to rewrite.
pub fn has_topk(module: &Module) -> bool {
    module.comps.iter().flat_map(|(_, c)| c.insts.iter()).any(|(_, i)| is_topk(i))
}

fn is_topk(i: &smelt_hlo::Instruction) -> bool {
    i.opcode == Opcode::TopK || matches!(&i.attrs, Attrs::CustomCall(c) if c.target == "TopK")
}

/// Rewrites every `topk` of `module`, and every `TopK` custom call (what
/// XLA's own pipeline turns `topk` into: the same selection, its comparator
/// of `(a, b, i, j)` given); returns how many.
pub fn decompose_topk(module: &mut Module) -> usize {
    let mut names = NameUniquer::new(module);
    let mut comparators: HashMap<(DType, bool), CompId> = HashMap::new();
    let mut rewritten = 0;
    for cid in module.comp_ids() {
        let comp = module.comp(cid);
        let found: Vec<InstId> = comp.insts.iter().filter(|(_, i)| is_topk(i)).map(|(id, _)| id).collect();
        for id in found {
            let inst = module.comp(cid).inst(id);
            let Some(x) = inst.operands.first().copied() else {
                continue;
            };
            let Some(xs) = module.comp(cid).inst(x).shape.as_array().cloned() else {
                continue;
            };
            let (k, cmp) = match &inst.attrs {
                Attrs::TopK { k, largest } => {
                    let (k, largest) = (*k, *largest);
                    let cmp = match comparators.get(&(xs.dtype, largest)) {
                        Some(&c) => c,
                        None => match comparator(&mut names, xs.dtype, largest) {
                            Some(c) => {
                                let c = module.add_computation(c);
                                comparators.insert((xs.dtype, largest), c);
                                c
                            }
                            None => continue,
                        },
                    };
                    (k, cmp)
                }
                Attrs::CustomCall(c) if c.target == "TopK" && inst.called.len() == 1 && inst.operands.len() == 1 => {
                    let k = inst.shape.tuple_elements().first().and_then(|v| v.as_array()).and_then(|v| v.dims.last());
                    match k {
                        Some(&k) => (k, inst.called[0]),
                        None => continue,
                    }
                }
                _ => continue,
            };
            let is_entry = cid == module.entry;
            if as_sort(Rewriter::new(module.comp_mut(cid), &mut names, is_entry), id, x, &xs, k, cmp) {
                rewritten += 1;
            }
        }
    }
    rewritten
}

/// Replaces `id` (a top-k of `x`) by the first `k` of `sort(x, iota)` by `cmp`.
fn as_sort(mut rw: Rewriter<'_>, id: InstId, x: InstId, xs: &ArrayShape, k: i64, cmp: CompId) -> bool {
    let Some(last) = xs.dims.len().checked_sub(1) else {
        return false;
    };
    rw.begin(id);
    let dims = xs.dims.to_vec();
    let iota = rw.add(Opcode::Iota, Shape::array(DType::S32, &dims), &[], Attrs::Iota { dimension: last as i64 });
    let sorted_shape = Shape::Tuple(vec![Shape::array(xs.dtype, &dims), Shape::array(DType::S32, &dims)]);
    let sort = rw.add(Opcode::Sort, sorted_shape, &[x, iota], Attrs::Sort { dimension: last as i64, is_stable: true });
    rw.comp.inst_mut(sort).called.push(cmp);
    let window: Vec<SliceDim> = dims
        .iter()
        .enumerate()
        .map(|(d, &n)| SliceDim { start: 0, limit: if d == last { k } else { n }, stride: 1 })
        .collect();
    let mut parts = Vec::with_capacity(2);
    for (index, dtype) in [(0, xs.dtype), (1, DType::S32)] {
        let gte =
            rw.add(Opcode::GetTupleElement, Shape::array(dtype, &dims), &[sort], Attrs::GetTupleElement { index });
        match rw.slice(gte, window.clone()) {
            Some(s) => parts.push(s),
            None => {
                rw.discard_created();
                return false;
            }
        }
    }
    let shape = Shape::Tuple(parts.iter().map(|&p| rw.shape(p).clone()).collect());
    let tuple = rw.add(Opcode::Tuple, shape, &parts, Attrs::None);
    rw.replace(id, tuple)
}

/// `(a, b, i, j) -> compare(a, b), direction=GT (LT), type=TOTALORDER` for
/// values of `dtype`.
fn comparator(names: &mut NameUniquer, dtype: DType, largest: bool) -> Option<smelt_hlo::Computation> {
    let mut b = ComputationBuilder::new(names.make(if largest { "topk_greater" } else { "topk_less" }));
    let a = b.parameter(0, Shape::scalar(dtype), "a").ok()?;
    let c = b.parameter(1, Shape::scalar(dtype), "b").ok()?;
    b.parameter(2, Shape::scalar(DType::S32), "i").ok()?;
    b.parameter(3, Shape::scalar(DType::S32), "j").ok()?;
    let direction = if largest { ComparisonDirection::Gt } else { ComparisonDirection::Lt };
    let compare_type = dtype.is_float().then_some(CompareType::TotalOrder);
    let root =
        b.add_instruction(Opcode::Compare, &[a, c], Attrs::Compare { direction, compare_type }, &[], None).ok()?;
    b.build(root).ok()
}
