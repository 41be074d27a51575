//! Elementwise operations moved above the concatenation they read.
//!
//! `relu(concatenate(a, b, c))` (branches joined, then an activation, as JAX
//! programs write it) fuses the activation into the concatenation's kernel,
//! which then reads every branch and writes the joined array. Applied to
//! each branch instead (`concatenate(relu(a), relu(b), relu(c))`), the
//! activation fuses into the branches' own kernels (a product's epilogue)
//! and the concatenation is a plain join, which buffer assignment can make
//! free by computing each branch into its place (NCHW channels of an image).
//!
//! Contract: rewrites `op(concatenate(x0, .., xn), s..)`, where `op` is an
//! elementwise operation without side effects, the concatenation is its only
//! operand that is not a broadcast of a scalar, and `op` is the
//! concatenation's only user, into `concatenate(op(x0, s0..), ..,
//! op(xn, sn..))` with each scalar broadcast to its piece's dimensions.
//! Preserves every result bit for bit (the same operation on the same
//! elements). Repeats until no such pair is left, so chains of elementwise
//! operations move up together. Assumes a verified module.

use smelt_hlo::{ArrayShape, InstId, Opcode, Shape};

use crate::pass::{PassContext, Result, Rewrite};
use crate::rewrite::{Rewriter, rewrite_each};

pub struct ConcatSinking;

/// Rewrites of one computation at most (each moves one operation up).
const MAX_REWRITES: usize = 10_000;

impl Rewrite for ConcatSinking {
    const NAME: &'static str = "concat-sinking";

    fn rewrite(&mut self, module: &mut smelt_hlo::Module, cx: &mut PassContext) -> Result<bool> {
        let rewritten = rewrite_each(module, |mut rw| {
            let mut rewritten = 0;
            loop {
                let mut changed = false;
                for id in rw.comp.post_order() {
                    if !rw.comp.insts.contains(id) || rewritten >= MAX_REWRITES {
                        continue;
                    }
                    rw.begin(id);
                    match sunk(&mut rw, id) {
                        Some(new) if rw.replace(id, new) => {
                            rewritten += 1;
                            changed = true;
                        }
                        Some(_) => {}
                        None => rw.discard_created(),
                    }
                }
                if !changed || rewritten >= MAX_REWRITES {
                    return rewritten;
                }
            }
        });
        Ok(cx.counted("elementwise_ops_above_concatenations", rewritten))
    }
}

/// The scalar a broadcast spreads, if `id` is one.
fn scalar_source(rw: &Rewriter<'_>, id: InstId) -> Option<InstId> {
    let inst = rw.inst(id);
    let &source = inst.operands.first().filter(|_| inst.opcode == Opcode::Broadcast)?;
    (rw.dims(source).is_empty() && !rw.shape(source).is_tuple()).then_some(source)
}

/// `concatenate(op(x0, ..), ..)` for elementwise `id` over a concatenation.
fn sunk(rw: &mut Rewriter<'_>, id: InstId) -> Option<InstId> {
    let inst = rw.inst(id).clone();
    if !inst.opcode.is_elementwise() || inst.opcode.has_side_effect() || inst.shape.is_tuple() {
        return None;
    }
    let mut concat = None;
    for (k, &o) in inst.operands.iter().enumerate() {
        if scalar_source(rw, o).is_none() {
            if concat.is_some() || rw.inst(o).opcode != Opcode::Concatenate {
                return None;
            }
            concat = Some((k, o));
        }
    }
    let (slot, cid) = concat?;
    let row_major = |rw: &Rewriter<'_>, i: InstId| rw.shape(i).as_array().is_some_and(|a| a.layout.is_descending());
    if rw.comp.users_of(cid) != [id]
        || !row_major(rw, id)
        || !row_major(rw, cid)
        || !rw.inst(cid).operands.iter().all(|&x| row_major(rw, x))
    {
        return None;
    }
    let c = rw.inst(cid).clone();
    let dtype = rw.dtype(id)?;
    let mut pieces = Vec::with_capacity(c.operands.len());
    for &x in &c.operands {
        let dims = rw.dims(x).to_vec();
        let mut operands = Vec::with_capacity(inst.operands.len());
        for (k, &o) in inst.operands.iter().enumerate() {
            operands.push(if k == slot { x } else { rw.broadcast(scalar_source(rw, o)?, &dims, &[])? });
        }
        let shape = Shape::Array(ArrayShape::new(dtype, &dims));
        let piece = rw.add(inst.opcode, shape, &operands, inst.attrs.clone());
        rw.comp.inst_mut(piece).called = inst.called.clone();
        pieces.push(piece);
    }
    let shape = Shape::Array(ArrayShape::new(dtype, rw.dims(cid)));
    Some(rw.add(Opcode::Concatenate, shape, &pieces, c.attrs.clone()))
}
