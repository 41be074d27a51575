//! Dot canonicalization: every dot in the one form backends consume.
//!
//! **The canonical form.** A dot is canonical when, with `r` the rank of its
//! operands:
//! - both operands and the result have rank `r`, and `r` is 2 (no batch) or 3 (one
//!   batch dimension);
//! - batch dimensions are `lhs_batch_dims = rhs_batch_dims = {0}` when `r = 3`, and
//!   absent when `r = 2`;
//! - there is exactly one contracting dimension per operand, with
//!   `lhs_contracting_dims` `{r-1}` (lhs `[b, m, k]`) or `{r-2}` (transposed lhs
//!   `[b, k, m]`), and `rhs_contracting_dims` `{r-2}` (rhs `[b, k, n]`) or `{r-1}`
//!   (transposed rhs `[b, n, k]`);
//! - so each operand has exactly one free dimension, and the result is `[b, m, n]`
//!   (`[m, n]` for `r = 2`).
//!
//! Missing dimensions are made explicit with size 1: a matrix-vector dot has
//! `n = 1`, a vector-vector dot `m = n = 1`, a dot without contracting dimensions
//! (an outer product) `k = 1`. Several batch, free or contracting dimensions are
//! merged into one by a reshape.
//!
//! Contract: rewrites every non-canonical dot into `reshape(dot'(lhs', rhs'))`, where
//! `lhs'` and `rhs'` are the operands, transposed only when their batch dimensions do
//! not lead (in dot order) or their free or contracting dimensions are not each one
//! contiguous block in order (size-1 dimensions are ignored: moving them is a
//! reshape), then reshaped to rank 2 or 3. The transposed operand forms are kept
//! when the operand already has them, so backends read them without a copy; when a
//! transpose is needed, the form that keeps the operand's minor-most dimension in
//! place is preferred.
//! Contracting dimension pairs may be reordered (both sides alike) to avoid a
//! transpose. The final reshape restores the original result shape (and layout); it
//! and the operand reshapes are left out when they would not change the shape.
//! Canonical dots are untouched. Preserves every result: the same products are
//! summed per output element (operand precision and other attributes are kept).
//! Assumes a verified module. Instructions left unused are for DCE.

use smelt_hlo::attrs::DotDims;
use smelt_hlo::{Attrs, DType, Dims, InstId, Instruction, Module, Opcode};

use crate::pass::{PassContext, Result, Rewrite};
use crate::rewrite::{Rewriter, rewrite_each};

pub struct DotCanonicalizer;

impl Rewrite for DotCanonicalizer {
    const NAME: &'static str = "dot-canonicalizer";

    fn rewrite(&mut self, module: &mut Module, cx: &mut PassContext) -> Result<bool> {
        let rewritten = rewrite_each(module, |mut rw| {
            let mut dots = rw.comp.insts_with(Opcode::Dot);
            dots.retain(|&id| !is_canonical(rw.comp, rw.comp.inst(id)));
            let mut rewritten = 0;
            for id in dots {
                rw.begin(id);
                match canonicalize(&mut rw, id) {
                    Some(new) if rw.replace(id, new) => rewritten += 1,
                    Some(_) => {}
                    None => rw.discard_created(),
                }
            }
            rewritten
        });
        Ok(cx.counted("dots_canonicalized", rewritten))
    }
}

/// Whether a dot already has the canonical form (see the module docs).
pub fn is_canonical(comp: &smelt_hlo::Computation, dot: &Instruction) -> bool {
    let Attrs::Dot(d) = &dot.attrs else {
        return false;
    };
    let rank = |id: InstId| comp.inst(id).shape.as_array().map(|a| a.rank());
    let r = match (rank(dot.operands[0]), rank(dot.operands[1])) {
        (Some(l), Some(r)) if l == r => l as i64,
        _ => return false,
    };
    let batch_ok = match r {
        2 => d.lhs_batch.is_empty() && d.rhs_batch.is_empty(),
        3 => d.lhs_batch[..] == [0] && d.rhs_batch[..] == [0],
        _ => false,
    };
    let lc_ok = d.lhs_contracting[..] == [r - 1] || d.lhs_contracting[..] == [r - 2];
    let rc_ok = d.rhs_contracting[..] == [r - 2] || d.rhs_contracting[..] == [r - 1];
    batch_ok && lc_ok && rc_ok
}

/// How one operand becomes `[b, x, k]` / `[b, k, x]`: a permutation (applied only
/// when it moves dimensions of size > 1) and whether contracting comes first.
struct SidePlan {
    perm: Vec<i64>,
    contracting_first: bool,
    transpose: bool,
}

/// Does transposing by `perm` keep the row-major order of the elements? (It does
/// when the dimensions of size > 1 stay in order.)
fn keeps_order(perm: &[i64], dims: &[i64]) -> bool {
    perm.iter().filter(|&&d| dims[d as usize] != 1).is_sorted()
}

/// Plans one operand. `normal_contracting_first` is the side's untransposed form:
/// false for lhs (`[b, m, k]`), true for rhs (`[b, k, n]`).
fn plan_side(
    dims: &[i64],
    batch: &[i64],
    contracting: &[i64],
    free: &[i64],
    normal_contracting_first: bool,
) -> SidePlan {
    let order = |contracting_first: bool| -> Vec<i64> {
        let mut p: Vec<i64> = batch.to_vec();
        if contracting_first {
            p.extend(contracting.iter().chain(free));
        } else {
            p.extend(free.iter().chain(contracting));
        }
        p
    };
    let forms = [normal_contracting_first, !normal_contracting_first];
    for contracting_first in forms {
        let perm = order(contracting_first);
        if keeps_order(&perm, dims) {
            return SidePlan { perm, contracting_first, transpose: false };
        }
    }
    // A transpose that keeps the minor-most dimension in place copies contiguous
    // rows: prefer the form that allows it.
    let last = dims.len() as i64 - 1;
    let contracting_first =
        forms.into_iter().find(|&f| order(f).last() == Some(&last)).unwrap_or(normal_contracting_first);
    SidePlan { perm: order(contracting_first), contracting_first, transpose: true }
}

fn product(dims: &[i64], which: &[i64]) -> Option<i64> {
    which.iter().try_fold(1i64, |acc, &d| acc.checked_mul(*dims.get(d as usize)?))
}

/// Dimensions of `rank` that are neither batch nor contracting, in order.
fn free_dims(rank: usize, batch: &[i64], contracting: &[i64]) -> Vec<i64> {
    (0..rank as i64).filter(|d| !batch.contains(d) && !contracting.contains(d)).collect()
}

/// `reshape(x)`, looking through a reshape `x` (whose own users keep it if needed).
fn reshape_to(rw: &mut Rewriter<'_>, x: InstId, dims: &[i64]) -> Option<InstId> {
    let inst = rw.inst(x);
    let source = if inst.opcode == Opcode::Reshape { inst.operands[0] } else { x };
    rw.reshape(source, dims)
}

/// Rewrites one operand by its plan into `[b?, x, k]` or `[b?, k, x]`.
fn shape_operand(rw: &mut Rewriter<'_>, x: InstId, plan: &SidePlan, sizes: (Option<i64>, i64, i64)) -> Option<InstId> {
    let (b, free, k) = sizes;
    let t = if plan.transpose { rw.transpose(x, &plan.perm)? } else { x };
    let mut dims: Dims = b.into_iter().collect();
    if plan.contracting_first {
        dims.extend([k, free]);
    } else {
        dims.extend([free, k]);
    }
    reshape_to(rw, t, &dims)
}

/// The canonical replacement of a dot.
fn canonicalize(rw: &mut Rewriter<'_>, id: InstId) -> Option<InstId> {
    let inst = rw.inst(id).clone();
    let Attrs::Dot(d) = &inst.attrs else {
        return None;
    };
    let (lhs, rhs) = (inst.operands[0], inst.operands[1]);
    let (ldims, rdims) = (rw.dims(lhs).to_vec(), rw.dims(rhs).to_vec());
    let dtype: DType = rw.dtype(id)?;
    let lfree = free_dims(ldims.len(), &d.lhs_batch, &d.lhs_contracting);
    let rfree = free_dims(rdims.len(), &d.rhs_batch, &d.rhs_contracting);
    // Contracting pairs in lhs order or in rhs order, whichever transposes less.
    let mut best: Option<(usize, SidePlan, SidePlan)> = None;
    for by_rhs in [false, true] {
        let mut pairs: Vec<(i64, i64)> =
            d.lhs_contracting.iter().copied().zip(d.rhs_contracting.iter().copied()).collect();
        pairs.sort_by_key(|&(l, r)| if by_rhs { r } else { l });
        let lc: Vec<i64> = pairs.iter().map(|p| p.0).collect();
        let rc: Vec<i64> = pairs.iter().map(|p| p.1).collect();
        let lp = plan_side(&ldims, &d.lhs_batch, &lc, &lfree, false);
        let rp = plan_side(&rdims, &d.rhs_batch, &rc, &rfree, true);
        let cost = usize::from(lp.transpose) + usize::from(rp.transpose);
        if best.as_ref().is_none_or(|b| cost < b.0) {
            best = Some((cost, lp, rp));
        }
    }
    let (_, lp, rp) = best?;
    let batch = (!d.lhs_batch.is_empty()).then(|| product(&ldims, &d.lhs_batch));
    let batch = batch.map_or(Some(None), |b| b.map(Some))?;
    let k = product(&ldims, &d.lhs_contracting)?;
    let m = product(&ldims, &lfree)?;
    let n = product(&rdims, &rfree)?;
    let new_lhs = shape_operand(rw, lhs, &lp, (batch, m, k))?;
    let new_rhs = shape_operand(rw, rhs, &rp, (batch, n, k))?;
    let r = if batch.is_some() { 3 } else { 2 };
    let batch_dims: &[i64] = if batch.is_some() { &[0] } else { &[] };
    let contracting = |first: bool| Dims::from_slice(&[if first { r - 2 } else { r - 1 }]);
    let dims = DotDims {
        lhs_batch: Dims::from_slice(batch_dims),
        rhs_batch: Dims::from_slice(batch_dims),
        lhs_contracting: contracting(lp.contracting_first),
        rhs_contracting: contracting(rp.contracting_first),
    };
    let shape = smelt_hlo::shape_inference::infer_dot(rw.shape(new_lhs), rw.shape(new_rhs), &dims, Some(dtype)).ok()?;
    let mut dot = inst.clone();
    dot.operands = [new_lhs, new_rhs].into_iter().collect();
    dot.attrs = Attrs::Dot(dims);
    dot.shape = shape;
    let dot = rw.add_inst(dot);
    let out_dims = rw.dims(id).to_vec();
    rw.reshape(dot, &out_dims)
}
