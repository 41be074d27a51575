//! Adjacent reduced dimensions as one.
//!
//! A reduction over several neighbouring dimensions (a global average pool's
//! `{2, 3}` over NCHW, a norm over `[.., h, w]`) runs as nested loops whose
//! innermost trip count is the last dimension alone: 7 or 13 elements per
//! output, too few to fill a vector. Over the same row-major memory, one
//! dimension of their product (169 for 13x13) is the same sum in the same
//! element order, in full vectors. Reshaping the operand is free (a rename of
//! its storage, or index arithmetic that folds away inside a fusion), and the
//! result keeps its shape, so nothing else changes. XLA's reduction dimension
//! grouper does the same.
//!
//! Contract: rewrites `reduce(x.., init..), dimensions=D` whose operands have
//! row-major layouts and where `D` holds two or more neighbouring dimensions,
//! into the same reduction of `reshape(x)` with each run of neighbouring
//! reduced dimensions merged into one. The result is the same, bit for bit:
//! the interpreter (and every backend) visits the merged dimension in the
//! original row-major order. Other reductions are untouched. Assumes a
//! verified module.

use smelt_hlo::{Attrs, InstId, Opcode};

use crate::pass::{PassContext, Result, Rewrite};
use crate::rewrite::{Rewriter, rewrite_each};

pub struct ReducedDimsGrouping;

impl Rewrite for ReducedDimsGrouping {
    const NAME: &'static str = "reduced-dims-grouping";

    fn rewrite(&mut self, module: &mut smelt_hlo::Module, cx: &mut PassContext) -> Result<bool> {
        let rewritten = rewrite_each(module, |mut rw| {
            let mut rewritten = 0;
            for id in rw.comp.insts_with(Opcode::Reduce) {
                rw.begin(id);
                match grouped(&mut rw, id) {
                    Some(new) if rw.replace(id, new) => rewritten += 1,
                    Some(_) => {}
                    None => rw.discard_created(),
                }
            }
            rewritten
        });
        Ok(cx.counted("reductions_with_grouped_dims", rewritten))
    }
}

/// The operand dimensions after grouping and the new reduced dimensions, when
/// some run of neighbouring reduced dimensions has two or more.
fn group(dims: &[i64], reduced: &[i64]) -> Option<(Vec<i64>, Vec<i64>)> {
    let is_reduced = |d: usize| reduced.contains(&(d as i64));
    let (mut new_dims, mut new_reduced) = (Vec::with_capacity(dims.len()), Vec::new());
    let mut merged = false;
    let mut d = 0;
    while d < dims.len() {
        if !is_reduced(d) {
            new_dims.push(dims[d]);
            d += 1;
            continue;
        }
        let start = d;
        while d < dims.len() && is_reduced(d) {
            d += 1;
        }
        merged |= d - start > 1;
        new_reduced.push(new_dims.len() as i64);
        new_dims.push(dims[start..d].iter().product());
    }
    merged.then_some((new_dims, new_reduced))
}

/// The reduction of `id` over grouped dimensions, if it has a run to group.
fn grouped(rw: &mut Rewriter<'_>, id: InstId) -> Option<InstId> {
    let inst = rw.inst(id).clone();
    let Attrs::Dimensions(reduced) = &inst.attrs else {
        return None;
    };
    let n = inst.operands.len() / 2;
    let first = rw.shape(*inst.operands.first()?).as_array()?.clone();
    let (dims, new_reduced) = group(&first.dims, reduced)?;
    let mut operands = Vec::with_capacity(inst.operands.len());
    for &x in &inst.operands[..n] {
        let a = rw.shape(x).as_array()?;
        if a.dims != first.dims || !a.layout.is_descending() {
            return None;
        }
        operands.push(rw.reshape(x, &dims)?);
    }
    operands.extend_from_slice(&inst.operands[n..]);
    let new =
        rw.add(Opcode::Reduce, inst.shape.clone(), &operands, Attrs::Dimensions(new_reduced.into_iter().collect()));
    rw.comp.inst_mut(new).called = inst.called.clone();
    Some(new)
}

#[cfg(test)]
mod tests {
    use super::group;

    #[test]
    fn runs_of_reduced_dimensions_merge() {
        assert_eq!(group(&[1, 1000, 13, 13], &[2, 3]), Some((vec![1, 1000, 169], vec![2])));
        assert_eq!(group(&[2, 3, 4, 5, 6], &[0, 1, 3, 4]), Some((vec![6, 4, 30], vec![0, 2])));
        assert_eq!(group(&[2, 3, 4], &[2, 1]), Some((vec![2, 12], vec![1])));
        // No two reduced dimensions side by side: nothing to do.
        assert_eq!(group(&[2, 3, 4], &[0, 2]), None);
        assert_eq!(group(&[2, 3, 4], &[1]), None);
    }
}
