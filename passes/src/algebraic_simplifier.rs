//! Algebraic simplification.
//!
//! Contract: rewrites instructions into cheaper equivalents with a fixed set of local
//! rules (the `RULES` table below, one small function each), repeating over each
//! computation until no rule applies (at most `MAX_SWEEPS` sweeps). It removes:
//! - identities and annihilators: `x + (-0.0)`, `x - (+0.0)` for floats and
//!   `x + 0`, `x - 0` for integers, `x * 1`, `x / 1`, `x ** 1`, `x * 0` for integers
//!   only, `and`/`or`/`xor` with all-ones or zero, `max(x, lowest)`,
//!   `min(x, highest)`, idempotent `max`/`min`/`and`/`or` of `x` with itself, shifts
//!   by zero;
//! - involutions and no-op conversions: `negate(negate x)`, `not(not x)`, `convert`
//!   to the same type, `convert(convert x)` when the inner conversion is lossless;
//! - no-op and stacked data movement: reshape to the same shape, reshape of a
//!   reshape, identity transposes, transpose of a transpose, broadcasts adding no
//!   dimension, broadcast of a broadcast, data movement of a scalar broadcast, full
//!   slices, slice of a slice, zero pads, single-operand concatenates, full-range
//!   and constant-index dynamic slices, full-size dynamic-update-slices, no-op
//!   reverses; `get-dimension-size` of a static shape becomes its constant;
//! - a transpose feeding a dot, folded into the dot's dimension numbers when the
//!   result dimension order allows;
//! - reductions: over a unit or empty domain, and of a broadcast over exactly the
//!   broadcast dimensions (integer `add` becomes a multiply by the count;
//!   idempotent reducers keep the operand);
//! - `select` with a constant predicate or equal branches, and a `pred`
//!   `select(p, true, false)` (which is `p`);
//! - and canonicalizes: constants of commutative ops and compares move to the right
//!   (the comparison direction swapped), array constants whose elements are all
//!   equal become broadcasts of a scalar constant.
//!
//! Preserves every result bit for bit on every input, NaN, infinities, -0 and
//! integer wrap-around included: float `x + 0.0` is not `x` (it turns -0 into +0),
//! float `x * 0` is not 0 (NaN, infinities, -0), a float sum of `n` copies is not
//! `n * x` (rounding). The entry root keeps its shape and layout; replacements take
//! the layout of what they replace. Replaced instructions are removed; instructions
//! they leave unused are left for DCE. Constant folding is another pass. Assumes a
//! verified module; instructions with side effects or control predecessors are left
//! alone.

use std::collections::HashMap;

use smelt_hlo::attrs::{DotDims, SliceDim};
use smelt_hlo::{Array, Attrs, CompId, DType, InstId, Module, Opcode};

use crate::pass::{PassContext, Result, Rewrite};
use crate::rewrite::{Rewriter, inverse, is_identity, rewrite_each, splat, splat_literal, value};

pub struct AlgebraicSimplifier;

/// Sweeps over one computation before giving up on reaching a fixed point.
const MAX_SWEEPS: usize = 32;

impl Rewrite for AlgebraicSimplifier {
    const NAME: &'static str = "algebraic-simplifier";

    fn rewrite(&mut self, module: &mut Module, cx: &mut PassContext) -> Result<bool> {
        let reducers = binary_reducers(module);
        let fired = rewrite_each(module, |rw| simplify_computation(&mut Simp { rw, reducers: &reducers }));
        Ok(cx.counted("algebraic_simplifications", fired))
    }
}

/// A rule's view: the computation being rewritten and what it knows of others.
struct Simp<'a> {
    rw: Rewriter<'a>,
    /// Reducer computations that apply one commutative binary op to their two
    /// scalar parameters.
    reducers: &'a HashMap<CompId, Opcode>,
}

/// A rule: the replacement for an instruction, or `None` when it does not apply.
type Rule = fn(&mut Simp<'_>, InstId) -> Option<InstId>;

/// The rules, tried in order on every instruction until one applies.
const RULES: &[Rule] = &[
    constant_to_rhs,
    splat_constant,
    add_zero,
    sub_zero,
    mul_one,
    mul_int_zero,
    div_one,
    pow_one,
    bitwise_identity,
    bitwise_annihilator,
    max_min_identity,
    idempotent_self,
    shift_by_zero,
    involution,
    convert_same,
    convert_convert,
    reshape_same,
    reshape_reshape,
    transpose_identity,
    transpose_transpose,
    broadcast_no_new_dims,
    broadcast_broadcast,
    move_scalar_broadcast,
    slice_full,
    slice_slice,
    pad_zero,
    concatenate_single,
    reverse_noop,
    dimension_size,
    dynamic_slice_full,
    dynamic_slice_constant,
    dynamic_update_slice_full,
    dot_transpose,
    reduce_empty,
    reduce_unit,
    reduce_broadcast,
    select_constant_pred,
    select_same,
    select_pred_identity,
];

/// Applies rules until none fires; returns how many fired.
fn simplify_computation(s: &mut Simp<'_>) -> usize {
    let mut fired = 0;
    for _ in 0..MAX_SWEEPS {
        // The use map stays current for each instruction when it is visited:
        // its users come after it in post order, so no rewrite before it
        // adds or removes any (control edges are not in the map: with them,
        // a replacement looks at every instruction).
        let users = s.rw.comp.users();
        let exact_users = !s.rw.comp.has_control_edges();
        let mut changed = false;
        for id in s.rw.comp.post_order() {
            if !s.rw.comp.insts.contains(id) {
                continue;
            }
            let inst = s.rw.inst(id);
            let unused = users[id].is_empty() && s.rw.comp.root != id;
            if unused
                || inst.opcode.has_side_effect()
                || inst.opcode == Opcode::CustomCall
                || !inst.extras.control_predecessors.is_empty()
            {
                continue;
            }
            for rule in RULES {
                s.rw.begin(id);
                match rule(s, id) {
                    Some(new) if s.rw.replace_using(id, new, exact_users.then_some(&users[id][..])) => {
                        fired += 1;
                        changed = true;
                        break;
                    }
                    Some(_) => {}
                    None => s.rw.discard_created(),
                }
            }
        }
        if !changed {
            break;
        }
    }
    fired
}

/// Computations whose root is `op(p0, p1)` (either order) for a commutative `op` on
/// two scalar parameters.
fn binary_reducers(module: &Module) -> HashMap<CompId, Opcode> {
    let mut out = HashMap::new();
    for (cid, c) in module.comps.iter() {
        let root = c.root_inst();
        let params = c.params();
        if params.len() != 2 || root.operands.len() != 2 || !root.opcode.is_commutative() {
            continue;
        }
        let scalar = |id: InstId| c.inst(id).shape.as_array().is_some_and(|a| a.rank() == 0);
        let (a, b) = (root.operands[0], root.operands[1]);
        let uses_both = (a == params[0] && b == params[1]) || (a == params[1] && b == params[0]);
        if uses_both && scalar(a) && scalar(b) && scalar(c.root) {
            out.insert(cid, root.opcode);
        }
    }
    out
}

// ---- helpers ------------------------------------------------------------------

impl Simp<'_> {
    fn op(&self, id: InstId) -> Opcode {
        self.rw.inst(id).opcode
    }

    fn operand(&self, id: InstId, i: usize) -> InstId {
        self.rw.inst(id).operands[i]
    }

    /// `(lhs, rhs)` of a two-operand `op` instruction.
    fn binary(&self, id: InstId, op: Opcode) -> Option<(InstId, InstId)> {
        let inst = self.rw.inst(id);
        (inst.opcode == op && inst.operands.len() == 2).then(|| (inst.operands[0], inst.operands[1]))
    }

    /// The scalar value every element of `id` has, if it is a splat constant.
    fn splat(&self, id: InstId) -> Option<Array> {
        splat(self.rw.comp, id)
    }

    fn rhs_splat(&self, id: InstId, op: Opcode, test: fn(&Array) -> bool) -> Option<InstId> {
        let (x, c) = self.binary(id, op)?;
        self.splat(c).is_some_and(|v| test(&v)).then_some(x)
    }

    fn is_int(&self, id: InstId) -> bool {
        self.rw.dtype(id).is_some_and(DType::is_int)
    }

    fn is_float(&self, id: InstId) -> bool {
        self.rw.dtype(id).is_some_and(DType::is_float)
    }

    /// A constant, or a broadcast of one.
    fn is_constantish(&self, id: InstId) -> bool {
        match self.op(id) {
            Opcode::Constant => true,
            Opcode::Broadcast => self.is_constantish(self.operand(id, 0)),
            _ => false,
        }
    }

    /// `scalar` broadcast to `dims` (itself when `dims` is empty).
    fn broadcast_scalar(&mut self, scalar: InstId, dims: &[i64]) -> Option<InstId> {
        if dims.is_empty() {
            return Some(scalar);
        }
        self.rw.broadcast(scalar, dims, &[])
    }

    /// The reducer op and `(input, init)` of a single-input reduce.
    fn reduce_parts(&self, id: InstId) -> Option<(Opcode, InstId, InstId)> {
        let inst = self.rw.inst(id);
        if inst.opcode != Opcode::Reduce || inst.operands.len() != 2 || inst.shape.is_tuple() {
            return None;
        }
        let op = *self.reducers.get(&inst.to_apply()?)?;
        Some((op, inst.operands[0], inst.operands[1]))
    }
}

// ---- canonicalization ---------------------------------------------------------

/// `op(c, x)` -> `op(x, c)` for commutative `op` and compare (direction swapped).
fn constant_to_rhs(s: &mut Simp<'_>, id: InstId) -> Option<InstId> {
    let inst = s.rw.inst(id);
    let [a, b] = inst.operands[..] else {
        return None;
    };
    let commutes = inst.opcode.is_commutative() || inst.opcode == Opcode::Compare;
    if !commutes || !s.is_constantish(a) || s.is_constantish(b) {
        return None;
    }
    let mut swapped = inst.clone();
    swapped.operands = [b, a].into_iter().collect();
    if let Attrs::Compare { direction, .. } = &mut swapped.attrs {
        *direction = direction.swapped();
    }
    Some(s.rw.add_inst(swapped))
}

/// An array constant whose elements are all equal -> broadcast of a scalar constant.
fn splat_constant(s: &mut Simp<'_>, id: InstId) -> Option<InstId> {
    let inst = s.rw.inst(id);
    let Attrs::Constant(lit) = &inst.attrs else {
        return None;
    };
    let dims = s.rw.dims(id).to_vec();
    if lit.as_array()?.len() < 2 {
        return None;
    }
    let scalar = splat_literal(lit)?;
    let c = s.rw.constant(scalar);
    s.rw.broadcast(c, &dims, &[])
}

// ---- identities and annihilators --------------------------------------------

/// `x + 0` -> `x` for integers; for floats only `x + (-0.0)` (`-0 + +0` is `+0`).
fn add_zero(s: &mut Simp<'_>, id: InstId) -> Option<InstId> {
    if s.is_float(id) {
        s.rhs_splat(id, Opcode::Add, value::is_neg_zero)
    } else {
        s.rhs_splat(id, Opcode::Add, value::is_int_zero)
    }
}

/// `x - 0` -> `x` for integers; for floats only `x - (+0.0)` (`-0 - -0` is `+0`).
fn sub_zero(s: &mut Simp<'_>, id: InstId) -> Option<InstId> {
    if s.is_float(id) {
        s.rhs_splat(id, Opcode::Subtract, value::is_pos_zero)
    } else {
        s.rhs_splat(id, Opcode::Subtract, value::is_int_zero)
    }
}

/// `x * 1` -> `x`.
fn mul_one(s: &mut Simp<'_>, id: InstId) -> Option<InstId> {
    s.rhs_splat(id, Opcode::Multiply, value::is_one)
}

/// `x * 0` -> `0` for integers only (for floats NaN, inf and -0 differ).
fn mul_int_zero(s: &mut Simp<'_>, id: InstId) -> Option<InstId> {
    let (_, c) = s.binary(id, Opcode::Multiply)?;
    (s.is_int(id) && s.splat(c).is_some_and(|v| value::is_int_zero(&v))).then_some(c)
}

/// `x / 1` -> `x`.
fn div_one(s: &mut Simp<'_>, id: InstId) -> Option<InstId> {
    s.rhs_splat(id, Opcode::Divide, value::is_one)
}

/// `x ** 1` -> `x`.
fn pow_one(s: &mut Simp<'_>, id: InstId) -> Option<InstId> {
    s.rhs_splat(id, Opcode::Power, value::is_one)
}

/// `and(x, all-ones)`, `or(x, 0)`, `xor(x, 0)` -> `x`.
fn bitwise_identity(s: &mut Simp<'_>, id: InstId) -> Option<InstId> {
    s.rhs_splat(id, Opcode::And, value::is_all_ones)
        .or_else(|| s.rhs_splat(id, Opcode::Or, value::is_int_zero))
        .or_else(|| s.rhs_splat(id, Opcode::Xor, value::is_int_zero))
}

/// `and(x, 0)` -> `0`, `or(x, all-ones)` -> all-ones.
fn bitwise_annihilator(s: &mut Simp<'_>, id: InstId) -> Option<InstId> {
    let (op, test): (Opcode, fn(&Array) -> bool) = match s.op(id) {
        Opcode::And => (Opcode::And, value::is_int_zero),
        Opcode::Or => (Opcode::Or, value::is_all_ones),
        _ => return None,
    };
    let (_, c) = s.binary(id, op)?;
    s.splat(c).is_some_and(|v| test(&v)).then_some(c)
}

/// `max(x, lowest)` and `min(x, highest)` -> `x` (-inf/+inf for floats; NaN stays).
fn max_min_identity(s: &mut Simp<'_>, id: InstId) -> Option<InstId> {
    s.rhs_splat(id, Opcode::Maximum, value::is_lowest).or_else(|| s.rhs_splat(id, Opcode::Minimum, value::is_highest))
}

/// `max(x, x)`, `min(x, x)`, `and(x, x)`, `or(x, x)` -> `x`.
fn idempotent_self(s: &mut Simp<'_>, id: InstId) -> Option<InstId> {
    let inst = s.rw.inst(id);
    let idempotent = matches!(inst.opcode, Opcode::Maximum | Opcode::Minimum | Opcode::And | Opcode::Or);
    (idempotent && inst.operands.len() == 2 && inst.operands[0] == inst.operands[1]).then(|| inst.operands[0])
}

/// Shifts by zero -> `x`.
fn shift_by_zero(s: &mut Simp<'_>, id: InstId) -> Option<InstId> {
    [Opcode::ShiftLeft, Opcode::ShiftRightArithmetic, Opcode::ShiftRightLogical]
        .into_iter()
        .find_map(|op| s.rhs_splat(id, op, value::is_int_zero))
}

/// `negate(negate(x))` and `not(not(x))` -> `x` (exact, wrap-around included).
fn involution(s: &mut Simp<'_>, id: InstId) -> Option<InstId> {
    let op = s.op(id);
    if !matches!(op, Opcode::Negate | Opcode::Not) {
        return None;
    }
    let inner = s.operand(id, 0);
    (s.op(inner) == op).then(|| s.operand(inner, 0))
}

// ---- conversions ----------------------------------------------------------------

/// `convert(x)` to `x`'s own type -> `x`.
fn convert_same(s: &mut Simp<'_>, id: InstId) -> Option<InstId> {
    let x = (s.op(id) == Opcode::Convert).then(|| s.operand(id, 0))?;
    (s.rw.shape(x).same_type(s.rw.shape(id))).then_some(x)
}

/// `convert(convert(x))` -> `convert(x)` (or `x`) when the inner convert is lossless.
fn convert_convert(s: &mut Simp<'_>, id: InstId) -> Option<InstId> {
    if s.op(id) != Opcode::Convert {
        return None;
    }
    let inner = s.operand(id, 0);
    if s.op(inner) != Opcode::Convert {
        return None;
    }
    let x = s.operand(inner, 0);
    let (from, via, to) = (s.rw.dtype(x)?, s.rw.dtype(inner)?, s.rw.dtype(id)?);
    if !lossless(from, via) {
        return None;
    }
    if from == to {
        return Some(x);
    }
    s.rw.convert(x, to)
}

/// Every value of `from` (NaN, infinities and -0 included) is exactly a value of
/// `to`, so converting through `to` changes nothing.
fn lossless(from: DType, to: DType) -> bool {
    use DType::*;
    if from == to {
        return true;
    }
    // Significand bits of the float types (implicit bit included).
    let float_bits = |t: DType| match t {
        F16 => 11,
        Bf16 => 8,
        F32 => 24,
        F64 => 53,
        _ => 0,
    };
    match (from, to) {
        (Pred, _) => true,
        (F16 | Bf16, F32 | F64) | (F32, F64) => true,
        (f, t) if f.is_int() && t.is_int() => {
            let (fw, tw) = (f.bit_width(), t.bit_width());
            if f.is_signed_int() == t.is_signed_int() {
                tw >= fw
            } else {
                // Unsigned to a wider signed type; signed never fits unsigned.
                f.is_unsigned_int() && tw > fw
            }
        }
        (f, t) if f.is_int() && t.is_float() => {
            let magnitude_bits = f.bit_width() - usize::from(f.is_signed_int());
            magnitude_bits <= float_bits(t)
        }
        _ => false,
    }
}

// ---- data movement --------------------------------------------------------------

/// `reshape(x)` to `x`'s own dimensions -> `x`.
fn reshape_same(s: &mut Simp<'_>, id: InstId) -> Option<InstId> {
    let x = (s.op(id) == Opcode::Reshape).then(|| s.operand(id, 0))?;
    (s.rw.dims(x) == s.rw.dims(id)).then_some(x)
}

/// `reshape(reshape(x))` -> `reshape(x)`.
fn reshape_reshape(s: &mut Simp<'_>, id: InstId) -> Option<InstId> {
    let inner = (s.op(id) == Opcode::Reshape).then(|| s.operand(id, 0))?;
    if s.op(inner) != Opcode::Reshape {
        return None;
    }
    let x = s.operand(inner, 0);
    let dims = s.rw.dims(id).to_vec();
    s.rw.reshape(x, &dims)
}

/// `transpose(x)` with the identity permutation -> `x`.
fn transpose_identity(s: &mut Simp<'_>, id: InstId) -> Option<InstId> {
    let inst = s.rw.inst(id);
    (inst.opcode == Opcode::Transpose && is_identity(inst.attrs.dimensions())).then(|| inst.operands[0])
}

/// `transpose(transpose(x, p), q)` -> `transpose(x, p∘q)`.
fn transpose_transpose(s: &mut Simp<'_>, id: InstId) -> Option<InstId> {
    let inst = s.rw.inst(id);
    if inst.opcode != Opcode::Transpose {
        return None;
    }
    let q = inst.attrs.dimensions().to_vec();
    let inner = s.rw.inst(inst.operands[0]);
    if inner.opcode != Opcode::Transpose {
        return None;
    }
    let p = inner.attrs.dimensions();
    let composed: Vec<i64> = q.iter().map(|&i| p.get(i as usize).copied()).collect::<Option<_>>()?;
    let x = inner.operands[0];
    s.rw.transpose(x, &composed)
}

/// A broadcast adding no dimension: `x` in order, else a transpose.
fn broadcast_no_new_dims(s: &mut Simp<'_>, id: InstId) -> Option<InstId> {
    let inst = s.rw.inst(id);
    if inst.opcode != Opcode::Broadcast {
        return None;
    }
    let x = inst.operands[0];
    let mapping = inst.attrs.dimensions().to_vec();
    if mapping.len() != s.rw.dims(id).len() {
        return None;
    }
    // Operand dimension i is result dimension mapping[i], so result dimension j is
    // operand dimension inverse[j].
    s.rw.transpose(x, &inverse(&mapping))
}

/// `broadcast(broadcast(x, d1), d2)` -> `broadcast(x, d2∘d1)`.
fn broadcast_broadcast(s: &mut Simp<'_>, id: InstId) -> Option<InstId> {
    let inst = s.rw.inst(id);
    if inst.opcode != Opcode::Broadcast {
        return None;
    }
    let outer = inst.attrs.dimensions();
    let inner = s.rw.inst(inst.operands[0]);
    if inner.opcode != Opcode::Broadcast {
        return None;
    }
    let mapping: Vec<i64> =
        inner.attrs.dimensions().iter().map(|&d| outer.get(d as usize).copied()).collect::<Option<_>>()?;
    let x = inner.operands[0];
    let dims = s.rw.dims(id).to_vec();
    s.rw.broadcast(x, &dims, &mapping)
}

/// Reshape, transpose, broadcast, slice or reverse of `broadcast(scalar)` ->
/// `broadcast(scalar)` of the result's shape.
fn move_scalar_broadcast(s: &mut Simp<'_>, id: InstId) -> Option<InstId> {
    let moves =
        matches!(s.op(id), Opcode::Reshape | Opcode::Transpose | Opcode::Broadcast | Opcode::Slice | Opcode::Reverse);
    if !moves {
        return None;
    }
    let b = s.operand(id, 0);
    if s.op(b) != Opcode::Broadcast {
        return None;
    }
    let scalar = s.operand(b, 0);
    if !s.rw.dims(scalar).is_empty() || s.rw.shape(scalar).is_tuple() {
        return None;
    }
    let dims = s.rw.dims(id).to_vec();
    s.broadcast_scalar(scalar, &dims)
}

/// A slice covering every element, stride 1 -> `x`.
fn slice_full(s: &mut Simp<'_>, id: InstId) -> Option<InstId> {
    let inst = s.rw.inst(id);
    let Attrs::Slice(slice) = &inst.attrs else {
        return None;
    };
    let x = inst.operands[0];
    let full = slice.iter().zip(s.rw.dims(x)).all(|(d, &size)| d.start == 0 && d.limit == size && d.stride == 1);
    full.then_some(x)
}

/// `slice(slice(x))` -> one slice: element k is `x[a + (c + k e) b]`.
fn slice_slice(s: &mut Simp<'_>, id: InstId) -> Option<InstId> {
    let inst = s.rw.inst(id);
    let Attrs::Slice(outer) = &inst.attrs else {
        return None;
    };
    let inner = s.rw.inst(inst.operands[0]);
    let Attrs::Slice(first) = &inner.attrs else {
        return None;
    };
    let x = inner.operands[0];
    let out_dims = s.rw.dims(id);
    let mut composed = Vec::with_capacity(outer.len());
    for ((o, i), &count) in outer.iter().zip(first).zip(out_dims) {
        if count == 0 {
            composed.push(SliceDim { start: 0, limit: 0, stride: 1 });
            continue;
        }
        let start = i.start.checked_add(o.start.checked_mul(i.stride)?)?;
        let stride = o.stride.checked_mul(i.stride)?;
        let limit = start.checked_add((count - 1).checked_mul(stride)?)?.checked_add(1)?;
        composed.push(SliceDim { start, limit, stride });
    }
    s.rw.slice(x, composed)
}

/// A pad adding nothing on any side or inside -> `x`.
fn pad_zero(s: &mut Simp<'_>, id: InstId) -> Option<InstId> {
    let inst = s.rw.inst(id);
    let Attrs::Pad(pads) = &inst.attrs else {
        return None;
    };
    pads.iter().all(|p| p.low == 0 && p.high == 0 && p.interior == 0).then(|| inst.operands[0])
}

/// `concatenate(x)` of one operand -> `x`.
fn concatenate_single(s: &mut Simp<'_>, id: InstId) -> Option<InstId> {
    let inst = s.rw.inst(id);
    (inst.opcode == Opcode::Concatenate && inst.operands.len() == 1).then(|| inst.operands[0])
}

/// A reverse over no dimension, or only dimensions of size <= 1 -> `x`.
fn reverse_noop(s: &mut Simp<'_>, id: InstId) -> Option<InstId> {
    let inst = s.rw.inst(id);
    if inst.opcode != Opcode::Reverse {
        return None;
    }
    let x = inst.operands[0];
    let dims = s.rw.dims(x);
    inst.attrs.dimensions().iter().all(|&d| dims.get(d as usize).is_some_and(|&n| n <= 1)).then_some(x)
}

/// `get-dimension-size(x)` -> the constant size (shapes are static).
fn dimension_size(s: &mut Simp<'_>, id: InstId) -> Option<InstId> {
    let inst = s.rw.inst(id);
    if inst.opcode != Opcode::GetDimensionSize {
        return None;
    }
    let d = usize::try_from(*inst.attrs.dimensions().first()?).ok()?;
    let n = i32::try_from(*s.rw.dims(inst.operands[0]).get(d)?).ok()?;
    Some(s.rw.constant(Array::from_vec([0i64; 0], vec![n])))
}

/// A dynamic slice as large as its operand -> the operand (starts clamp to 0).
fn dynamic_slice_full(s: &mut Simp<'_>, id: InstId) -> Option<InstId> {
    let inst = s.rw.inst(id);
    if inst.opcode != Opcode::DynamicSlice {
        return None;
    }
    let x = inst.operands[0];
    (s.rw.dims(x) == s.rw.dims(id)).then_some(x)
}

/// A dynamic slice with constant scalar starts -> a slice at the clamped starts.
fn dynamic_slice_constant(s: &mut Simp<'_>, id: InstId) -> Option<InstId> {
    let inst = s.rw.inst(id);
    let Attrs::DynamicSlice { sizes } = &inst.attrs else {
        return None;
    };
    let x = inst.operands[0];
    let dims = s.rw.dims(x);
    if inst.operands.len() != dims.len() + 1 || sizes.len() != dims.len() {
        return None;
    }
    let mut slice = Vec::with_capacity(dims.len());
    for ((&start, &size), &dim) in inst.operands[1..].iter().zip(sizes).zip(dims) {
        if s.op(start) != Opcode::Constant || !s.rw.dims(start).is_empty() {
            return None;
        }
        let v = value::int(&s.splat(start)?)?;
        // XLA clamps a start so the slice stays in bounds.
        let begin = v.clamp(0, i128::from(dim - size)) as i64;
        slice.push(SliceDim { start: begin, limit: begin + size, stride: 1 });
    }
    s.rw.slice(x, slice)
}

/// A dynamic-update-slice whose update is as large as the operand -> the update.
fn dynamic_update_slice_full(s: &mut Simp<'_>, id: InstId) -> Option<InstId> {
    let inst = s.rw.inst(id);
    if inst.opcode != Opcode::DynamicUpdateSlice {
        return None;
    }
    let update = inst.operands[1];
    s.rw.shape(update).same_type(s.rw.shape(id)).then_some(update)
}

// ---- contractions ---------------------------------------------------------------

/// `dot(transpose(a), b)` -> `dot(a, b)` with dimension numbers mapped through the
/// permutation, when the transposed operand's free dimensions keep their order.
fn dot_transpose(s: &mut Simp<'_>, id: InstId) -> Option<InstId> {
    let inst = s.rw.inst(id);
    let Attrs::Dot(dims) = &inst.attrs else {
        return None;
    };
    for side in 0..2 {
        let t = s.rw.inst(inst.operands[side]);
        if t.opcode != Opcode::Transpose {
            continue;
        }
        let perm = t.attrs.dimensions();
        let (batch, contracting) =
            if side == 0 { (&dims.lhs_batch, &dims.lhs_contracting) } else { (&dims.rhs_batch, &dims.rhs_contracting) };
        let map =
            |ds: &[i64]| -> Option<smelt_hlo::Dims> { ds.iter().map(|&d| perm.get(d as usize).copied()).collect() };
        let (new_batch, new_contracting) = (map(batch)?, map(contracting)?);
        // Free dimensions appear in the result in increasing order on both sides of
        // the transpose only if the permutation keeps their order.
        let free: Vec<i64> = (0..perm.len() as i64)
            .filter(|d| !batch.contains(d) && !contracting.contains(d))
            .map(|d| perm[d as usize])
            .collect();
        if !free.is_sorted() {
            continue;
        }
        let mut new_dims: DotDims = dims.clone();
        if side == 0 {
            new_dims.lhs_batch = new_batch;
            new_dims.lhs_contracting = new_contracting;
        } else {
            new_dims.rhs_batch = new_batch;
            new_dims.rhs_contracting = new_contracting;
        }
        let mut dot = inst.clone();
        dot.operands[side] = t.operands[0];
        let (lhs, rhs) = (s.rw.shape(dot.operands[0]), s.rw.shape(dot.operands[1]));
        let dtype = s.rw.dtype(id)?;
        let shape = smelt_hlo::shape_inference::infer_dot(lhs, rhs, &new_dims, Some(dtype)).ok()?;
        if !shape.same_type(&inst.shape) {
            return None;
        }
        dot.shape = shape;
        dot.attrs = Attrs::Dot(new_dims);
        return Some(s.rw.add_inst(dot));
    }
    None
}

// ---- reductions -----------------------------------------------------------------

/// A reduction over a dimension of size 0 -> `broadcast(init)`.
fn reduce_empty(s: &mut Simp<'_>, id: InstId) -> Option<InstId> {
    let inst = s.rw.inst(id);
    if inst.opcode != Opcode::Reduce || inst.operands.len() != 2 || inst.shape.is_tuple() {
        return None;
    }
    let (x, init) = (inst.operands[0], inst.operands[1]);
    let in_dims = s.rw.dims(x);
    let empty = inst.attrs.dimensions().iter().any(|&d| in_dims.get(d as usize) == Some(&0));
    if !empty {
        return None;
    }
    let dims = s.rw.dims(id).to_vec();
    s.broadcast_scalar(init, &dims)
}

/// A reduction over one element per output (no dimensions, or all of size 1) ->
/// `op(broadcast(init), reshape(x))`, the reducer applied once.
fn reduce_unit(s: &mut Simp<'_>, id: InstId) -> Option<InstId> {
    let (op, x, init) = s.reduce_parts(id)?;
    let in_dims = s.rw.dims(x);
    let unit = s.rw.inst(id).attrs.dimensions().iter().all(|&d| in_dims.get(d as usize) == Some(&1));
    if !unit {
        return None;
    }
    let dims = s.rw.dims(id).to_vec();
    let x = s.rw.reshape(x, &dims)?;
    let init = s.broadcast_scalar(init, &dims)?;
    s.rw.binary(op, init, x)
}

/// `reduce(broadcast(y))` over exactly the broadcast's new dimensions (n elements
/// each): integer add -> `init + y * n`; max/min/and/or -> `op(init, y)`.
fn reduce_broadcast(s: &mut Simp<'_>, id: InstId) -> Option<InstId> {
    let (op, b, init) = s.reduce_parts(id)?;
    let binst = s.rw.inst(b);
    if binst.opcode != Opcode::Broadcast {
        return None;
    }
    let y = binst.operands[0];
    let mapping = binst.attrs.dimensions();
    let b_dims = s.rw.dims(b);
    let mut reduced: Vec<i64> = s.rw.inst(id).attrs.dimensions().to_vec();
    reduced.sort();
    let new_dims: Vec<i64> = (0..b_dims.len() as i64).filter(|d| !mapping.contains(d)).collect();
    // Kept dimensions are y's, in y's order, only for an increasing mapping.
    if reduced != new_dims || !mapping.is_sorted() {
        return None;
    }
    let count = reduced.iter().try_fold(1i64, |acc, &d| acc.checked_mul(b_dims[d as usize]))?;
    let dims = s.rw.dims(id).to_vec();
    let init_b = s.broadcast_scalar(init, &dims)?;
    match op {
        Opcode::Add if s.is_int(id) => {
            let n = value::int_scalar(s.rw.dtype(id)?, i128::from(count))?;
            let n = s.rw.constant(n);
            let n = s.broadcast_scalar(n, &dims)?;
            let product = s.rw.binary(Opcode::Multiply, y, n)?;
            s.rw.binary(Opcode::Add, init_b, product)
        }
        Opcode::Maximum | Opcode::Minimum | Opcode::And | Opcode::Or => s.rw.binary(op, init_b, y),
        _ => None,
    }
}

// ---- select ---------------------------------------------------------------------

/// `select(true, a, b)` -> `a`, `select(false, a, b)` -> `b`.
fn select_constant_pred(s: &mut Simp<'_>, id: InstId) -> Option<InstId> {
    let inst = s.rw.inst(id);
    if inst.opcode != Opcode::Select {
        return None;
    }
    let p = s.splat(inst.operands[0])?;
    let take = if value::int(&p)? != 0 { 1 } else { 2 };
    Some(inst.operands[take])
}

/// `select(p, a, a)` -> `a`.
fn select_same(s: &mut Simp<'_>, id: InstId) -> Option<InstId> {
    let inst = s.rw.inst(id);
    (inst.opcode == Opcode::Select && inst.operands[1] == inst.operands[2]).then(|| inst.operands[1])
}

/// `select(p, true, false)` -> `p` for a `pred` result of `p`'s shape (a
/// boolean mask spelled as a select of constants, as `jnp.where` and
/// `jnp.tril` of booleans emit).
fn select_pred_identity(s: &mut Simp<'_>, id: InstId) -> Option<InstId> {
    let inst = s.rw.inst(id);
    if inst.opcode != Opcode::Select {
        return None;
    }
    let (p, t, f) = (inst.operands[0], inst.operands[1], inst.operands[2]);
    if s.rw.shape(id) != s.rw.shape(p) {
        return None;
    }
    let (t, f) = (value::int(&s.splat(t)?)?, value::int(&s.splat(f)?)?);
    (s.rw.dtype(id) == Some(DType::Pred) && t != 0 && f == 0).then_some(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lossless_conversions() {
        use DType::*;
        assert!(lossless(F16, F32) && lossless(F32, F64) && lossless(Bf16, F64));
        assert!(!lossless(F16, Bf16) && !lossless(F32, F16) && !lossless(F64, F32));
        assert!(lossless(S8, S32) && lossless(U8, S16) && lossless(U32, U64));
        assert!(!lossless(S8, U32) && !lossless(U16, S16) && !lossless(S32, S16));
        assert!(lossless(S16, F32) && lossless(U8, Bf16) && lossless(S8, F16));
        assert!(!lossless(S32, F32) && !lossless(U16, F16) && !lossless(U16, Bf16));
        assert!(lossless(Pred, F16) && !lossless(F32, Pred) && !lossless(F16, S32));
    }
}
