//! Helpers for passes that rewrite instructions in place.
//!
//! A [`Rewriter`] adds instructions to one computation with shapes from
//! [`smelt_hlo::shape_inference`] and fresh names from a [`NameUniquer`], and
//! replaces an instruction by another only when that keeps the module meaning the
//! same: the replacement has the same element type and dimensions, and the entry
//! root keeps its exact shape, layout included (the entry result is an interface).
//! [`splat`] reads "every element is this value" constants, the way simplifiers
//! match `x + 0` whether the zero is a scalar broadcast or an array constant.

use smelt_hlo::attrs::{DotDims, SliceDim};
use smelt_hlo::module::NameUniquer;
use smelt_hlo::shape_inference as infer;
use smelt_hlo::{Array, ArrayData, Attrs, Computation, DType, InstId, Instruction, Literal, Module, Opcode, Shape};

/// Builds and replaces instructions of one computation.
pub struct Rewriter<'a> {
    pub comp: &'a mut Computation,
    pub names: &'a mut NameUniquer,
    /// The computation is the module's entry: its root's layout is fixed.
    pub is_entry: bool,
    /// Metadata given to the instructions added (that of the instruction rewritten).
    pub metadata: Option<String>,
    /// Instructions added since [`Rewriter::begin`].
    pub created: Vec<InstId>,
}

/// Runs `rewrite` with a rewriter on each computation of `module` in turn and
/// sums what it returns (the rewrites made).
pub fn rewrite_each(module: &mut Module, mut rewrite: impl FnMut(Rewriter<'_>) -> usize) -> usize {
    let mut names = NameUniquer::new(module);
    let entry = module.entry;
    let mut rewrites = 0;
    for cid in module.comp_ids() {
        rewrites += rewrite(Rewriter::new(module.comp_mut(cid), &mut names, cid == entry));
    }
    rewrites
}

impl<'a> Rewriter<'a> {
    pub fn new(comp: &'a mut Computation, names: &'a mut NameUniquer, is_entry: bool) -> Self {
        Rewriter { comp, names, is_entry, metadata: None, created: Vec::new() }
    }

    pub fn inst(&self, id: InstId) -> &Instruction {
        self.comp.inst(id)
    }

    pub fn shape(&self, id: InstId) -> &Shape {
        &self.comp.inst(id).shape
    }

    /// Dimensions of an array-shaped instruction (empty for tuples).
    pub fn dims(&self, id: InstId) -> &[i64] {
        self.shape(id).as_array().map_or(&[], |a| &a.dims)
    }

    pub fn dtype(&self, id: InstId) -> Option<DType> {
        self.shape(id).as_array().map(|a| a.dtype)
    }

    /// Starts rewriting `id`: new instructions inherit its metadata.
    pub fn begin(&mut self, id: InstId) {
        self.metadata = self.comp.inst(id).extras.metadata.clone();
        self.created.clear();
    }

    /// Adds an instruction named after its opcode.
    pub fn add(&mut self, op: Opcode, shape: Shape, operands: &[InstId], attrs: Attrs) -> InstId {
        let mut inst = Instruction::new(self.names.make(op.name()), op, shape, operands, attrs);
        inst.extras.metadata = self.metadata.clone();
        let id = self.comp.add(inst);
        self.created.push(id);
        id
    }

    /// Adds a fully formed instruction (its name is made unique).
    pub fn add_inst(&mut self, mut inst: Instruction) -> InstId {
        inst.name = self.names.make(&inst.name);
        let id = self.comp.add(inst);
        self.created.push(id);
        id
    }

    /// Removes what was added since [`Rewriter::begin`] (an abandoned rewrite).
    pub fn discard_created(&mut self) {
        for id in self.created.drain(..).rev() {
            self.comp.remove(id);
        }
    }

    pub fn constant(&mut self, value: Array) -> InstId {
        let shape = Shape::Array(value.shape());
        self.add(Opcode::Constant, shape, &[], Attrs::Constant(Box::new(Literal::Array(value))))
    }

    /// `reshape(x)` to `dims`; `x` itself when it already has them.
    pub fn reshape(&mut self, x: InstId, dims: &[i64]) -> Option<InstId> {
        if self.dims(x) == dims && !self.shape(x).is_tuple() {
            return Some(x);
        }
        let shape = infer::infer_reshape(self.shape(x), dims).ok()?;
        Some(self.add(Opcode::Reshape, shape, &[x], Attrs::None))
    }

    /// `transpose(x)`; `x` itself for the identity permutation.
    pub fn transpose(&mut self, x: InstId, perm: &[i64]) -> Option<InstId> {
        if is_identity(perm) && perm.len() == self.dims(x).len() {
            return Some(x);
        }
        let shape = infer::infer_transpose(self.shape(x), perm).ok()?;
        Some(self.add(Opcode::Transpose, shape, &[x], Attrs::Dimensions(perm.iter().copied().collect())))
    }

    pub fn broadcast(&mut self, x: InstId, dims: &[i64], mapping: &[i64]) -> Option<InstId> {
        let shape = infer::infer_broadcast(self.shape(x), dims, mapping).ok()?;
        Some(self.add(Opcode::Broadcast, shape, &[x], Attrs::Dimensions(mapping.iter().copied().collect())))
    }

    pub fn slice(&mut self, x: InstId, slice: Vec<SliceDim>) -> Option<InstId> {
        let shape = infer::infer_slice(self.shape(x), &slice).ok()?;
        Some(self.add(Opcode::Slice, shape, &[x], Attrs::Slice(slice)))
    }

    pub fn convert(&mut self, x: InstId, dtype: DType) -> Option<InstId> {
        let shape = infer::infer_convert(self.shape(x), dtype).ok()?;
        Some(self.add(Opcode::Convert, shape, &[x], Attrs::None))
    }

    /// An elementwise binary op other than compare.
    pub fn binary(&mut self, op: Opcode, a: InstId, b: InstId) -> Option<InstId> {
        let shape = infer::infer_binary(op, self.shape(a), self.shape(b)).ok()?;
        Some(self.add(op, shape, &[a, b], Attrs::None))
    }

    pub fn dot(&mut self, lhs: InstId, rhs: InstId, dims: DotDims, dtype: DType) -> Option<InstId> {
        let shape = infer::infer_dot(self.shape(lhs), self.shape(rhs), &dims, Some(dtype)).ok()?;
        Some(self.add(Opcode::Dot, shape, &[lhs, rhs], Attrs::Dot(dims)))
    }

    /// Makes every use of `old` use `new` and removes `old`, if that is exact: same
    /// element type and dimensions, `old` used by something, and, for the entry root,
    /// the same layout. A replacement added since [`Rewriter::begin`] takes `old`'s
    /// layout. On refusal the instructions added since `begin` are removed.
    pub fn replace(&mut self, old: InstId, new: InstId) -> bool {
        self.replace_using(old, new, None)
    }

    /// [`Rewriter::replace`] given every instruction that uses `old` (see
    /// `Computation::replace_uses_in`), or `None` to look at all of them.
    pub fn replace_using(&mut self, old: InstId, new: InstId, users: Option<&[InstId]>) -> bool {
        let old_shape = self.shape(old).clone();
        let ok = old != new && self.comp.insts.contains(new) && self.shape(new).same_type(&old_shape);
        if !ok {
            self.discard_created();
            return false;
        }
        if self.created.contains(&new) {
            self.comp.inst_mut(new).shape = old_shape.clone();
        }
        if self.is_entry && self.comp.root == old && *self.shape(new) != old_shape {
            self.discard_created();
            return false;
        }
        let replaced = match users {
            Some(users) => self.comp.replace_uses_in(old, new, users),
            None => self.comp.replace_all_uses(old, new),
        };
        if !replaced {
            self.discard_created();
            return false;
        }
        self.created.clear();
        self.comp.remove(old);
        true
    }
}

/// `0, 1, ..., n-1`.
pub fn is_identity(perm: &[i64]) -> bool {
    perm.iter().enumerate().all(|(i, &p)| p == i as i64)
}

/// The inverse of a permutation: `inverse[perm[i]] = i`.
pub fn inverse(perm: &[i64]) -> Vec<i64> {
    let mut inv = vec![0; perm.len()];
    for (i, &p) in perm.iter().enumerate() {
        if let Some(slot) = usize::try_from(p).ok().and_then(|p| inv.get_mut(p)) {
            *slot = i as i64;
        }
    }
    inv
}

/// The scalar every element of `id` equals (bit for bit), if `id` is a constant
/// whose elements are all equal or a broadcast of a scalar constant (through any
/// chain of broadcasts). Empty arrays have no such value.
pub fn splat(comp: &Computation, id: InstId) -> Option<Array> {
    let inst = comp.inst(id);
    match (&inst.opcode, &inst.attrs) {
        (Opcode::Constant, Attrs::Constant(lit)) => splat_literal(lit),
        (Opcode::Broadcast, _) => splat(comp, inst.operands[0]),
        _ => None,
    }
}

/// The value all elements of an array literal share, if they do.
pub fn splat_literal(lit: &Literal) -> Option<Array> {
    let a = lit.as_array()?;
    if a.len() == 0 {
        return None;
    }
    let first = a.data.gather(&[0]);
    let all_equal = smelt_hlo::with_data!(&a.data, v => v.iter().all(|x| bits_eq(x, &v[0])));
    all_equal.then(|| Array::new([], first))
}

/// Bitwise equality (so NaN equals NaN and -0 differs from +0).
fn bits_eq<T: smelt_hlo::Element>(a: &T, b: &T) -> bool {
    let (mut x, mut y) = (Vec::new(), Vec::new());
    a.write_le(&mut x);
    b.write_le(&mut y);
    x == y
}

/// What a scalar constant is, for matching identities.
pub mod value {
    use super::*;

    /// Integer value of an integer or pred scalar.
    pub fn int(a: &Array) -> Option<i128> {
        match &a.data {
            ArrayData::Pred(v) => Some(v[0] as i128),
            ArrayData::S8(v) => Some(v[0] as i128),
            ArrayData::S16(v) => Some(v[0] as i128),
            ArrayData::S32(v) => Some(v[0] as i128),
            ArrayData::S64(v) => Some(v[0] as i128),
            ArrayData::U8(v) => Some(v[0] as i128),
            ArrayData::U16(v) => Some(v[0] as i128),
            ArrayData::U32(v) => Some(v[0] as i128),
            ArrayData::U64(v) => Some(v[0] as i128),
            _ => None,
        }
    }

    /// Value of a float scalar (exact: every float widens to f64).
    pub fn float(a: &Array) -> Option<f64> {
        match &a.data {
            ArrayData::F16(v) => Some(v[0].to_f64()),
            ArrayData::Bf16(v) => Some(v[0].to_f64()),
            ArrayData::F32(v) => Some(v[0] as f64),
            ArrayData::F64(v) => Some(v[0]),
            _ => None,
        }
    }

    /// Integer zero (pred false). Not true of any float: use `pos_zero`/`neg_zero`.
    pub fn is_int_zero(a: &Array) -> bool {
        int(a) == Some(0)
    }

    pub fn is_pos_zero(a: &Array) -> bool {
        float(a).is_some_and(|f| f == 0.0 && f.is_sign_positive())
    }

    pub fn is_neg_zero(a: &Array) -> bool {
        float(a).is_some_and(|f| f == 0.0 && f.is_sign_negative())
    }

    /// 1 of an integer or float type (not pred).
    pub fn is_one(a: &Array) -> bool {
        a.dtype() != DType::Pred && (int(a) == Some(1) || float(a) == Some(1.0))
    }

    /// Every bit set: -1 signed, the maximum unsigned, true.
    pub fn is_all_ones(a: &Array) -> bool {
        let t = a.dtype();
        match int(a) {
            Some(v) if t.is_signed_int() => v == -1,
            Some(v) if t.is_unsigned_int() => v == (1i128 << t.bit_width()) - 1,
            Some(v) => v == 1,
            None => false,
        }
    }

    /// The identity of `maximum`: -inf, the smallest integer, false.
    pub fn is_lowest(a: &Array) -> bool {
        let t = a.dtype();
        match (int(a), float(a)) {
            (_, Some(f)) => f == f64::NEG_INFINITY,
            (Some(v), _) if t.is_signed_int() => v == -(1i128 << (t.bit_width() - 1)),
            (Some(v), _) => v == 0,
            _ => false,
        }
    }

    /// The identity of `minimum`: +inf, the largest integer, true.
    pub fn is_highest(a: &Array) -> bool {
        let t = a.dtype();
        match (int(a), float(a)) {
            (_, Some(f)) => f == f64::INFINITY,
            (Some(v), _) if t.is_signed_int() => v == (1i128 << (t.bit_width() - 1)) - 1,
            (Some(v), _) if t.is_unsigned_int() => v == (1i128 << t.bit_width()) - 1,
            (Some(v), _) => v == 1,
            _ => false,
        }
    }

    /// A scalar of integer type `dtype` holding `v` wrapped to its width.
    pub fn int_scalar(dtype: DType, v: i128) -> Option<Array> {
        Some(match dtype {
            DType::S8 => Array::scalar(v as i8),
            DType::S16 => Array::scalar(v as i16),
            DType::S32 => Array::scalar(v as i32),
            DType::S64 => Array::scalar(v as i64),
            DType::U8 => Array::scalar(v as u8),
            DType::U16 => Array::scalar(v as u16),
            DType::U32 => Array::scalar(v as u32),
            DType::U64 => Array::scalar(v as u64),
            _ => return None,
        })
    }
}
