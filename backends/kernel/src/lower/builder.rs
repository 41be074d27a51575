//! Building one [`Graph`]: hash-consing, constant folding and index algebra.
//!
//! Every node goes through `Builder::add`, which returns the existing node when
//! an identical one exists, so a subexpression reached twice is computed once per
//! point. Operations on constants fold through the kernel form's own semantics
//! ([`crate::sem`]). Integer nodes carry a value range (loop indices from their
//! extent, constants exactly, loads and conversions from their type), which lets
//! the builder drop clamps, bound checks and comparisons that can never fire, and
//! divide sums of index terms by constants exactly: `(i * 8 + j) / 8 = i` and
//! `(i * 8 + j) % 8 = j` when `0 <= j < 8`. That makes index arithmetic through
//! reshapes (linearize, then delinearize) collapse back to the loop indices.

use std::collections::HashMap;

use smelt_hlo::DType;
use smelt_hlo::attrs::{CompareType, ComparisonDirection};

use crate::ir::{BinaryOp, Graph, InlineReduce, Node, NodeId, Scalar, UnaryOp};
use crate::sem;

/// What identifies a node for hash-consing (floats by their bits).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Key {
    Index(usize),
    Param(usize),
    Int(DType, i128),
    Float(DType, u64),
    Load(usize, Vec<NodeId>),
    Unary(UnaryOp, NodeId),
    Binary(BinaryOp, NodeId, NodeId),
    Compare(ComparisonDirection, Option<CompareType>, NodeId, NodeId),
    Select(NodeId, NodeId, NodeId),
    Clamp(NodeId, NodeId, NodeId),
    MulAdd(NodeId, NodeId, NodeId),
    Convert(NodeId, DType),
    Bitcast(NodeId, DType),
    ReduceResult(NodeId, usize),
    Outer(NodeId),
}

fn key_of(node: &Node, dtype: DType) -> Option<Key> {
    Some(match node {
        Node::Index(d) => Key::Index(*d),
        Node::Param(n) => Key::Param(*n),
        Node::Const(Scalar::Int(t, v)) => Key::Int(*t, *v),
        Node::Const(Scalar::Float(t, v)) => Key::Float(*t, v.to_bits()),
        Node::Load { input, index } => Key::Load(*input, index.clone()),
        Node::Unary { op, x } => Key::Unary(*op, *x),
        Node::Binary { op, a, b } => Key::Binary(*op, *a, *b),
        Node::Compare { direction, compare_type, a, b } => Key::Compare(*direction, *compare_type, *a, *b),
        Node::Select { pred, on_true, on_false } => Key::Select(*pred, *on_true, *on_false),
        Node::Clamp { min, x, max } => Key::Clamp(*min, *x, *max),
        Node::MulAdd { a, b, c } => Key::MulAdd(*a, *b, *c),
        Node::Convert { x, .. } => Key::Convert(*x, dtype),
        Node::Bitcast { x, .. } => Key::Bitcast(*x, dtype),
        Node::ReduceResult { reduce, index } => Key::ReduceResult(*reduce, *index),
        Node::Outer(n) => Key::Outer(*n),
        // Reductions are memoized by the emitter, not here.
        Node::Reduce(_) => return None,
    })
}

/// The values an integer type can hold.
pub(crate) fn type_range(t: DType) -> Option<(i128, i128)> {
    Some(match t {
        DType::Pred => (0, 1),
        DType::S8 => (i8::MIN as i128, i8::MAX as i128),
        DType::S16 => (i16::MIN as i128, i16::MAX as i128),
        DType::S32 => (i32::MIN as i128, i32::MAX as i128),
        DType::S64 => (i64::MIN as i128, i64::MAX as i128),
        DType::U8 => (0, u8::MAX as i128),
        DType::U16 => (0, u16::MAX as i128),
        DType::U32 => (0, u32::MAX as i128),
        DType::U64 => (0, u64::MAX as i128),
        _ => return None,
    })
}

/// A sum of index terms: `offset + sum(coefficient * atom)`.
#[derive(Clone, Debug, Default)]
struct Terms {
    atoms: Vec<(NodeId, i128)>,
    offset: i128,
}

/// A graph under construction.
#[derive(Debug)]
pub struct Builder {
    graph: Graph,
    table: HashMap<Key, NodeId>,
    /// Value range of each integer node (None for floats).
    ranges: Vec<Option<(i128, i128)>>,
    /// Extent of each loop index.
    extents: Vec<i64>,
}

impl Builder {
    /// A builder for a graph evaluated over an index space (or window) of `extents`.
    pub fn new(extents: &[i64]) -> Builder {
        Builder { graph: Graph::default(), table: HashMap::new(), ranges: Vec::new(), extents: extents.to_vec() }
    }

    pub fn finish(self) -> Graph {
        self.graph
    }

    pub fn dtype(&self, id: NodeId) -> DType {
        self.graph.dtype(id)
    }

    pub fn node(&self, id: NodeId) -> &Node {
        self.graph.node(id)
    }

    pub fn as_const(&self, id: NodeId) -> Option<Scalar> {
        match self.graph.node(id) {
            Node::Const(s) => Some(*s),
            _ => None,
        }
    }

    fn const_int(&self, id: NodeId) -> Option<i128> {
        match self.graph.node(id) {
            Node::Const(Scalar::Int(_, v)) => Some(*v),
            _ => None,
        }
    }

    /// The range of an integer node.
    pub fn range(&self, id: NodeId) -> Option<(i128, i128)> {
        self.ranges[id.0 as usize].or_else(|| type_range(self.dtype(id)))
    }

    /// Adds `node` as it is (no folding or simplification), or returns the
    /// identical one already there: for copying nodes from another graph.
    pub fn node_as_is(&mut self, node: Node, dtype: DType) -> NodeId {
        self.add(node, dtype, None)
    }

    /// Adds a node, or returns the identical one already there.
    fn add(&mut self, node: Node, dtype: DType, range: Option<(i128, i128)>) -> NodeId {
        let key = key_of(&node, dtype);
        if let Some(k) = &key
            && let Some(&id) = self.table.get(k)
        {
            return id;
        }
        let id = NodeId(self.graph.nodes.len() as u32);
        // Keep only ranges that say more than the type does.
        let range = range.and_then(|(lo, hi)| match type_range(dtype) {
            Some((tlo, thi)) if lo >= tlo && hi <= thi && lo <= hi => Some((lo, hi)),
            _ => None,
        });
        self.graph.nodes.push(node);
        self.graph.types.push(dtype);
        self.ranges.push(range);
        if let Some(k) = key {
            self.table.insert(k, id);
        }
        id
    }

    /// Loop index `d` (the constant 0 for a dimension of size 1).
    pub fn index(&mut self, d: usize) -> NodeId {
        if self.extents.get(d) == Some(&1) {
            return self.s64(0);
        }
        let hi = self.extents.get(d).map_or(0, |&e| (e - 1).max(0)) as i128;
        self.add(Node::Index(d), DType::S64, Some((0, hi)))
    }

    pub fn param(&mut self, n: usize, t: DType) -> NodeId {
        self.add(Node::Param(n), t, None)
    }

    pub fn constant(&mut self, s: Scalar) -> NodeId {
        let range = match s {
            Scalar::Int(_, v) => Some((v, v)),
            Scalar::Float(..) => None,
        };
        self.add(Node::Const(s), s.dtype(), range)
    }

    pub fn int(&mut self, t: DType, v: i128) -> NodeId {
        self.constant(Scalar::Int(t, sem::wrap(t, v)))
    }

    pub fn s64(&mut self, v: i64) -> NodeId {
        self.int(DType::S64, v as i128)
    }

    pub fn pred(&mut self, v: bool) -> NodeId {
        self.int(DType::Pred, v as i128)
    }

    pub fn load(&mut self, input: usize, t: DType, index: Vec<NodeId>) -> NodeId {
        self.add(Node::Load { input, index }, t, None)
    }

    /// A node of the enclosing graph, seen from inside a reduction body.
    pub fn outer(&mut self, id: NodeId, t: DType, range: Option<(i128, i128)>) -> NodeId {
        self.add(Node::Outer(id), t, range)
    }

    /// An inline reduction; returns one node per result (of types `dtypes`).
    pub fn reduce(&mut self, r: InlineReduce, dtypes: &[DType]) -> Vec<NodeId> {
        let first = dtypes.first().copied().unwrap_or(DType::Pred);
        let id = self.add(Node::Reduce(Box::new(r)), first, None);
        (0..dtypes.len()).map(|k| self.add(Node::ReduceResult { reduce: id, index: k }, dtypes[k], None)).collect()
    }

    pub fn unary(&mut self, op: UnaryOp, x: NodeId) -> Result<NodeId, String> {
        let t = self.dtype(x);
        let probe = zero(t);
        let out_t = sem::unary(op, probe)?.dtype();
        if let Some(c) = self.as_const(x) {
            return Ok(self.constant(sem::unary(op, c)?));
        }
        let range = match (op, self.range(x)) {
            (UnaryOp::Neg, Some((lo, hi))) if t.is_signed_int() => Some((-hi, -lo)),
            (UnaryOp::IsFinite, _) => Some((0, 1)),
            _ => None,
        };
        Ok(self.add(Node::Unary { op, x }, out_t, range))
    }

    pub fn binary(&mut self, op: BinaryOp, a: NodeId, b: NodeId) -> Result<NodeId, String> {
        let t = self.dtype(a);
        sem::binary(op, zero(t), zero(self.dtype(b)))?;
        if let (Some(x), Some(y)) = (self.as_const(a), self.as_const(b)) {
            return Ok(self.constant(sem::binary(op, x, y)?));
        }
        if t.is_integral()
            && let Some(id) = self.simplify_int(op, a, b)?
        {
            return Ok(id);
        }
        let range = self.binary_range(op, a, b);
        Ok(self.add(Node::Binary { op, a, b }, t, range))
    }

    /// Exact integer rewrites (identities, ranges, division of index sums).
    fn simplify_int(&mut self, op: BinaryOp, a: NodeId, b: NodeId) -> Result<Option<NodeId>, String> {
        let t = self.dtype(a);
        let (ca, cb) = (self.const_int(a), self.const_int(b));
        let (ra, rb) = (self.range(a), self.range(b));
        Ok(match op {
            BinaryOp::Add if t != DType::Pred && cb == Some(0) => Some(a),
            BinaryOp::Add if t != DType::Pred && ca == Some(0) => Some(b),
            BinaryOp::Add if t == DType::S64 => {
                let mut sum = Terms::default();
                self.terms(a, 1, &mut sum, 0);
                self.terms(b, 1, &mut sum, 0);
                if self.combine_div_rem(&mut sum) { Some(self.build_terms(&sum)?) } else { None }
            }
            BinaryOp::Sub if cb == Some(0) => Some(a),
            BinaryOp::Sub if a == b => Some(self.int(t, 0)),
            BinaryOp::Mul if t != DType::Pred && cb == Some(1) => Some(a),
            BinaryOp::Mul if t != DType::Pred && ca == Some(1) => Some(b),
            BinaryOp::Mul if cb == Some(0) || ca == Some(0) => Some(self.int(t, 0)),
            BinaryOp::Div if cb == Some(1) => Some(a),
            BinaryOp::Rem if cb == Some(1) => Some(self.int(t, 0)),
            BinaryOp::Div | BinaryOp::Rem if t == DType::S64 && cb.is_some_and(|c| c > 0) => {
                self.divide_terms(op == BinaryOp::Div, a, cb.unwrap_or(1))?
            }
            BinaryOp::Max | BinaryOp::Min | BinaryOp::Or | BinaryOp::And if a == b => Some(a),
            BinaryOp::Max => match (ra, rb) {
                (Some(x), Some(y)) if x.1 <= y.0 => Some(b),
                (Some(x), Some(y)) if y.1 <= x.0 => Some(a),
                _ => None,
            },
            BinaryOp::Min => match (ra, rb) {
                (Some(x), Some(y)) if x.1 <= y.0 => Some(a),
                (Some(x), Some(y)) if y.1 <= x.0 => Some(b),
                _ => None,
            },
            BinaryOp::And if t == DType::Pred => match (ca, cb) {
                (Some(0), _) | (_, Some(0)) => Some(self.pred(false)),
                (Some(_), _) => Some(b),
                (_, Some(_)) => Some(a),
                _ => None,
            },
            BinaryOp::Or if t == DType::Pred => match (ca, cb) {
                (Some(1), _) | (_, Some(1)) => Some(self.pred(true)),
                (Some(_), _) => Some(b),
                (_, Some(_)) => Some(a),
                _ => None,
            },
            _ => None,
        })
    }

    fn binary_range(&self, op: BinaryOp, a: NodeId, b: NodeId) -> Option<(i128, i128)> {
        let (lo_a, hi_a) = self.range(a)?;
        let (lo_b, hi_b) = self.range(b)?;
        let t = self.dtype(a);
        match op {
            BinaryOp::Add => Some((lo_a.checked_add(lo_b)?, hi_a.checked_add(hi_b)?)),
            BinaryOp::Sub => Some((lo_a.checked_sub(hi_b)?, hi_a.checked_sub(lo_b)?)),
            BinaryOp::Mul => {
                let p = [
                    lo_a.checked_mul(lo_b)?,
                    lo_a.checked_mul(hi_b)?,
                    hi_a.checked_mul(lo_b)?,
                    hi_a.checked_mul(hi_b)?,
                ];
                Some((*p.iter().min()?, *p.iter().max()?))
            }
            BinaryOp::Div if lo_b > 0 => {
                // Truncating division by a positive number is extreme at the corners.
                let q = [lo_a / lo_b, lo_a / hi_b, hi_a / lo_b, hi_a / hi_b];
                Some((*q.iter().min()?, *q.iter().max()?))
            }
            BinaryOp::Rem if lo_b > 0 && lo_a >= 0 => Some((0, hi_a.min(hi_b - 1))),
            BinaryOp::Max => Some((lo_a.max(lo_b), hi_a.max(hi_b))),
            BinaryOp::Min => Some((lo_a.min(lo_b), hi_a.min(hi_b))),
            BinaryOp::And | BinaryOp::Or | BinaryOp::Xor if t == DType::Pred => Some((0, 1)),
            _ => None,
        }
    }

    /// `a` as a sum of index terms (only through s64 add, subtract, and multiply by constants).
    fn terms(&self, a: NodeId, coef: i128, out: &mut Terms, depth: usize) {
        // Only nodes whose range is known cannot have wrapped around.
        if self.dtype(a) != DType::S64 || self.ranges[a.0 as usize].is_none() || depth > 64 {
            out.atoms.push((a, coef));
            return;
        }
        match *self.node(a) {
            Node::Const(Scalar::Int(_, v)) => match coef.checked_mul(v).and_then(|x| out.offset.checked_add(x)) {
                Some(o) => out.offset = o,
                None => out.atoms.push((a, coef)),
            },
            Node::Binary { op: BinaryOp::Add, a: x, b: y } => {
                self.terms(x, coef, out, depth + 1);
                self.terms(y, coef, out, depth + 1);
            }
            Node::Binary { op: BinaryOp::Sub, a: x, b: y } => {
                self.terms(x, coef, out, depth + 1);
                self.terms(y, -coef, out, depth + 1);
            }
            Node::Binary { op: BinaryOp::Mul, a: x, b: y } => {
                let scaled = |c: Option<i128>| c.and_then(|c| coef.checked_mul(c));
                match (scaled(self.const_int(y)), scaled(self.const_int(x))) {
                    (Some(c), _) => self.terms(x, c, out, depth + 1),
                    (_, Some(c)) => self.terms(y, c, out, depth + 1),
                    _ => out.atoms.push((a, coef)),
                }
            }
            _ => out.atoms.push((a, coef)),
        }
    }

    /// The existing node `x / c`, if there is one.
    fn find_div(&self, x: NodeId, c: i128) -> Option<NodeId> {
        let k = *self.table.get(&Key::Int(DType::S64, c))?;
        self.table.get(&Key::Binary(BinaryOp::Div, x, k)).copied()
    }

    /// Rewrites `(y / m) * m * k + (y % m) * k` into `y * k` (for `y >= 0`), where
    /// `y` may itself be `x / d` and `y / m` is then `x / (d * m)`: what undoes a
    /// delinearization. Returns whether anything changed.
    fn combine_div_rem(&self, sum: &mut Terms) -> bool {
        let mut changed = false;
        'again: loop {
            for r in 0..sum.atoms.len() {
                let (atom, k) = sum.atoms[r];
                let Node::Binary { op: BinaryOp::Rem, a: y, b: m } = *self.node(atom) else { continue };
                let Some(m) = self.const_int(m).filter(|&m| m > 0) else { continue };
                let (x, d) = match *self.node(y) {
                    Node::Binary { op: BinaryOp::Div, a: x, b: d } => match self.const_int(d) {
                        Some(d) if d > 0 => (x, d),
                        _ => (y, 1),
                    },
                    _ => (y, 1),
                };
                if self.range(x).is_none_or(|(lo, _)| lo < 0) {
                    continue;
                }
                let (Some(dm), Some(km)) = (d.checked_mul(m), k.checked_mul(m)) else { continue };
                let Some(q) = self.find_div(x, dm) else { continue };
                let Some(qi) = sum.atoms.iter().position(|&(a, c)| a == q && c == km) else { continue };
                sum.atoms[r] = (y, k);
                sum.atoms.remove(qi);
                changed = true;
                continue 'again;
            }
            return changed;
        }
    }

    fn terms_range(&self, t: &Terms) -> Option<(i128, i128)> {
        let (mut lo, mut hi) = (t.offset, t.offset);
        for &(atom, c) in &t.atoms {
            let (l, h) = self.range(atom)?;
            let (x, y) = (l.checked_mul(c)?, h.checked_mul(c)?);
            lo = lo.checked_add(x.min(y))?;
            hi = hi.checked_add(x.max(y))?;
        }
        Some((lo, hi))
    }

    fn build_terms(&mut self, t: &Terms) -> Result<NodeId, String> {
        let mut acc: Option<NodeId> = None;
        for &(atom, c) in &t.atoms {
            let term = if c == 1 {
                atom
            } else {
                let k = self.int(DType::S64, c);
                self.binary(BinaryOp::Mul, atom, k)?
            };
            acc = Some(match acc {
                Some(x) => self.binary(BinaryOp::Add, x, term)?,
                None => term,
            });
        }
        let off = self.int(DType::S64, t.offset);
        match acc {
            Some(x) => self.binary(BinaryOp::Add, x, off),
            None => Ok(off),
        }
    }

    /// `a / c` or `a % c` for a constant `c > 0`, when the sum splits into a
    /// non-negative multiple of `c` plus a remainder in `[0, c)`.
    fn divide_terms(&mut self, div: bool, a: NodeId, c: i128) -> Result<Option<NodeId>, String> {
        if let Some((lo, hi)) = self.range(a)
            && lo >= 0
            && hi < c
        {
            return Ok(Some(if div { self.int(DType::S64, 0) } else { a }));
        }
        let mut all = Terms::default();
        self.terms(a, 1, &mut all, 0);
        let mut quot = Terms { atoms: Vec::new(), offset: all.offset.div_euclid(c) * c };
        let mut rem = Terms { atoms: Vec::new(), offset: all.offset.rem_euclid(c) };
        for &(atom, k) in &all.atoms {
            if k % c == 0 {
                quot.atoms.push((atom, k));
            } else {
                rem.atoms.push((atom, k));
            }
        }
        if quot.atoms.is_empty() && quot.offset == 0 {
            return Ok(None);
        }
        let (Some(rr), Some(qr)) = (self.terms_range(&rem), self.terms_range(&quot)) else {
            return Ok(None);
        };
        if rr.0 < 0 || rr.1 >= c || qr.0 < 0 {
            return Ok(None);
        }
        if div {
            let q = Terms { atoms: quot.atoms.iter().map(|&(x, k)| (x, k / c)).collect(), offset: quot.offset / c };
            Ok(Some(self.build_terms(&q)?))
        } else {
            Ok(Some(self.build_terms(&rem)?))
        }
    }

    pub fn compare(
        &mut self,
        direction: ComparisonDirection,
        compare_type: Option<CompareType>,
        a: NodeId,
        b: NodeId,
    ) -> Result<NodeId, String> {
        sem::compare(direction, compare_type, zero(self.dtype(a)), zero(self.dtype(b)))?;
        if let (Some(x), Some(y)) = (self.as_const(a), self.as_const(b)) {
            return Ok(self.pred(sem::compare(direction, compare_type, x, y)?));
        }
        let t = self.dtype(a);
        let natural = compare_type.is_none()
            || compare_type == Some(CompareType::Signed) && t.is_signed_int()
            || compare_type == Some(CompareType::Unsigned) && t.is_unsigned_int();
        if t.is_int()
            && natural
            && let (Some((la, ha)), Some((lb, hb))) = (self.range(a), self.range(b))
        {
            use ComparisonDirection as D;
            let known = match direction {
                D::Lt if ha < lb => Some(true),
                D::Lt if la >= hb => Some(false),
                D::Le if ha <= lb => Some(true),
                D::Le if la > hb => Some(false),
                D::Gt if la > hb => Some(true),
                D::Gt if ha <= lb => Some(false),
                D::Ge if la >= hb => Some(true),
                D::Ge if ha < lb => Some(false),
                D::Eq | D::Ne if ha < lb || hb < la => Some(direction == D::Ne),
                _ => None,
            };
            if let Some(k) = known {
                return Ok(self.pred(k));
            }
        }
        Ok(self.add(Node::Compare { direction, compare_type, a, b }, DType::Pred, Some((0, 1))))
    }

    pub fn select(&mut self, pred: NodeId, on_true: NodeId, on_false: NodeId) -> Result<NodeId, String> {
        if self.dtype(pred) != DType::Pred || self.dtype(on_true) != self.dtype(on_false) {
            return Err("select needs a pred and two values of one type".into());
        }
        if let Some(p) = self.as_const(pred) {
            return Ok(if sem::is_true(p) { on_true } else { on_false });
        }
        if on_true == on_false {
            return Ok(on_true);
        }
        let range = match (self.range(on_true), self.range(on_false)) {
            (Some(x), Some(y)) => Some((x.0.min(y.0), x.1.max(y.1))),
            _ => None,
        };
        Ok(self.add(Node::Select { pred, on_true, on_false }, self.dtype(on_true), range))
    }

    pub fn clamp(&mut self, min: NodeId, x: NodeId, max: NodeId) -> Result<NodeId, String> {
        let t = self.dtype(x);
        if self.dtype(min) != t || self.dtype(max) != t {
            return Err("clamp needs three values of one type".into());
        }
        sem::clamp(zero(t), zero(t), zero(t))?;
        if t.is_integral() {
            // Integer clamp is exactly min(max, maximum(min, x)).
            let m = self.binary(BinaryOp::Max, min, x)?;
            return self.binary(BinaryOp::Min, max, m);
        }
        if let (Some(a), Some(b), Some(c)) = (self.as_const(min), self.as_const(x), self.as_const(max)) {
            return Ok(self.constant(sem::clamp(a, b, c)?));
        }
        Ok(self.add(Node::Clamp { min, x, max }, t, None))
    }

    pub fn convert(&mut self, x: NodeId, to: DType) -> NodeId {
        let from = self.dtype(x);
        if from == to {
            return x;
        }
        if let Some(c) = self.as_const(x) {
            return self.constant(sem::convert(c, to));
        }
        let range = match (self.range(x), type_range(to)) {
            (Some((lo, hi)), Some((tlo, thi))) if from.is_integral() && lo >= tlo && hi <= thi => Some((lo, hi)),
            _ => None,
        };
        self.add(Node::Convert { x, to }, to, range)
    }

    pub fn bitcast(&mut self, x: NodeId, to: DType) -> Result<NodeId, String> {
        let from = self.dtype(x);
        if from == to {
            return Ok(x);
        }
        if let Some(c) = self.as_const(x) {
            return Ok(self.constant(sem::bitcast(c, to)?));
        }
        if from.byte_size() != to.byte_size() {
            return Err(format!("bitcast from {from} to {to} changes the width"));
        }
        Ok(self.add(Node::Bitcast { x, to }, to, None))
    }

    // Index arithmetic on s64 nodes.

    pub fn iadd(&mut self, a: NodeId, b: NodeId) -> Result<NodeId, String> {
        self.binary(BinaryOp::Add, a, b)
    }

    pub fn isub(&mut self, a: NodeId, b: NodeId) -> Result<NodeId, String> {
        self.binary(BinaryOp::Sub, a, b)
    }

    pub fn iadd_const(&mut self, a: NodeId, c: i64) -> Result<NodeId, String> {
        let k = self.s64(c);
        self.binary(BinaryOp::Add, a, k)
    }

    pub fn imul_const(&mut self, a: NodeId, c: i64) -> Result<NodeId, String> {
        let k = self.s64(c);
        self.binary(BinaryOp::Mul, a, k)
    }

    pub fn idiv_const(&mut self, a: NodeId, c: i64) -> Result<NodeId, String> {
        let k = self.s64(c);
        self.binary(BinaryOp::Div, a, k)
    }

    pub fn irem_const(&mut self, a: NodeId, c: i64) -> Result<NodeId, String> {
        let k = self.s64(c);
        self.binary(BinaryOp::Rem, a, k)
    }

    /// `x` clamped into `[lo, hi]` (constants).
    pub fn iclamp(&mut self, x: NodeId, lo: i64, hi: i64) -> Result<NodeId, String> {
        let (l, h) = (self.s64(lo), self.s64(hi.max(lo)));
        let m = self.binary(BinaryOp::Max, x, l)?;
        self.binary(BinaryOp::Min, m, h)
    }

    pub fn icmp_const(&mut self, direction: ComparisonDirection, a: NodeId, c: i64) -> Result<NodeId, String> {
        let k = self.s64(c);
        self.compare(direction, None, a, k)
    }

    pub fn and(&mut self, a: NodeId, b: NodeId) -> Result<NodeId, String> {
        self.binary(BinaryOp::And, a, b)
    }

    /// An integer value as an `s64` index (u64 values beyond the s64 range
    /// saturate, as the interpreter reads them).
    pub fn index_of(&mut self, x: NodeId) -> Result<NodeId, String> {
        let t = self.dtype(x);
        if t == DType::U64 {
            let cap = self.int(DType::U64, i64::MAX as i128);
            let m = self.binary(BinaryOp::Min, x, cap)?;
            return Ok(self.convert(m, DType::S64));
        }
        if !t.is_integral() {
            return Err(format!("an index must be an integer, not {t}"));
        }
        Ok(self.convert(x, DType::S64))
    }

    /// The index into `to` of the element at index `index` of `from` (same element
    /// count, row-major): what a reshape reads. Dimensions are matched in groups
    /// with equal products, so only dimensions that really split or merge pay for
    /// division.
    pub fn reshape_index(&mut self, index: &[NodeId], from: &[i64], to: &[i64]) -> Result<Vec<NodeId>, String> {
        let count = |d: &[i64]| d.iter().try_fold(1i64, |a, &x| a.checked_mul(x.max(0)));
        if count(from) != count(to) || index.len() != from.len() {
            return Err(format!("reshape from {from:?} to {to:?} changes the element count"));
        }
        if count(from) == Some(0) {
            return Ok(to.iter().map(|_| self.s64(0)).collect());
        }
        let mut out: Vec<Option<NodeId>> = vec![None; to.len()];
        let (mut i, mut j) = (0, 0);
        loop {
            while j < to.len() && to[j] == 1 {
                out[j] = Some(self.s64(0));
                j += 1;
            }
            while i < from.len() && from[i] == 1 {
                i += 1;
            }
            if i >= from.len() || j >= to.len() {
                break;
            }
            let (gi, gj) = (i, j);
            let (mut pf, mut pt) = (from[i] as i128, to[j] as i128);
            i += 1;
            j += 1;
            while pf != pt {
                if pf < pt {
                    let Some(&d) = from.get(i) else { return Err("reshape groups do not match".into()) };
                    pf *= d as i128;
                    i += 1;
                } else {
                    let Some(&d) = to.get(j) else { return Err("reshape groups do not match".into()) };
                    pt *= d as i128;
                    j += 1;
                }
            }
            // Linearize the source group, then split it over the target group.
            let mut linear = self.s64(0);
            let mut stride = 1i64;
            for k in (gi..i).rev() {
                let term = self.imul_const(index[k], stride)?;
                linear = self.iadd(term, linear)?;
                stride *= from[k];
            }
            let mut stride = 1i64;
            for k in (gj..j).rev() {
                let q = self.idiv_const(linear, stride)?;
                out[k] = Some(self.irem_const(q, to[k])?);
                stride *= to[k];
            }
        }
        out.into_iter()
            .map(|o| o.ok_or_else(|| format!("reshape from {from:?} to {to:?} leaves a dimension")))
            .collect()
    }
}

/// A zero of type `t` (used to check that an operation exists for a type).
pub(crate) fn zero(t: DType) -> Scalar {
    if t.is_float() { Scalar::Float(t, 0.0) } else { Scalar::Int(t, 0) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_consing_and_folding() {
        let mut b = Builder::new(&[4, 8]);
        let i = b.index(0);
        let j = b.index(1);
        let x = b.iadd(i, j).unwrap();
        let y = b.iadd(i, j).unwrap();
        assert_eq!(x, y);
        let two = b.s64(2);
        let three = b.s64(3);
        let five = b.iadd(two, three).unwrap();
        assert_eq!(b.as_const(five), Some(Scalar::Int(DType::S64, 5)));
        // Clamps that cannot fire disappear.
        assert_eq!(b.iclamp(j, 0, 7).unwrap(), j);
    }

    #[test]
    fn reshape_round_trips_to_the_loop_indices() {
        let mut b = Builder::new(&[2, 3, 4]);
        let idx: Vec<NodeId> = (0..3).map(|d| b.index(d)).collect();
        let flat = b.reshape_index(&idx, &[2, 3, 4], &[24]).unwrap();
        let back = b.reshape_index(&flat, &[24], &[2, 3, 4]).unwrap();
        assert_eq!(back, idx);
        let merged = b.reshape_index(&idx, &[2, 3, 4], &[6, 1, 4]).unwrap();
        assert_eq!(merged[2], idx[2]);
        let again = b.reshape_index(&merged, &[6, 1, 4], &[2, 3, 4]).unwrap();
        assert_eq!(again, idx);
        // Delinearize, then linearize: back to the flat index.
        let mut b = Builder::new(&[24]);
        let i = b.index(0);
        let split = b.reshape_index(&[i], &[24], &[2, 3, 4]).unwrap();
        assert_eq!(b.reshape_index(&split, &[2, 3, 4], &[24]).unwrap(), vec![i]);
    }

    #[test]
    fn merged_dimensions_split_back_address_as_one() {
        use crate::ranges::delinearized;
        // A reduction over [8, 256, 784] reading an [8, 256, 28, 28] array.
        let mut b = Builder::new(&[8, 256, 784]);
        let idx: Vec<NodeId> = (0..3).map(|d| b.index(d)).collect();
        let dims = [8, 256, 28, 28];
        let split = b.reshape_index(&idx, &[8, 256, 784], &dims).unwrap();
        assert_eq!(delinearized(&b.graph, &split, &dims, 2), Some((idx[2], 2)));
        assert_eq!(delinearized(&b.graph, &split, &dims, 0), None);
        // Three dimensions at once: [6, 60] as [6, 3, 4, 5].
        let mut b = Builder::new(&[6, 60]);
        let idx: Vec<NodeId> = (0..2).map(|d| b.index(d)).collect();
        let dims = [6, 3, 4, 5];
        let split = b.reshape_index(&idx, &[6, 60], &dims).unwrap();
        assert_eq!(delinearized(&b.graph, &split, &dims, 1), Some((idx[1], 3)));
        // The digits of one value, but over other dimensions than the array's.
        assert_eq!(delinearized(&b.graph, &split, &[6, 3, 2, 10], 1), None);
        // Two values' digits side by side do not merge.
        let (x, y) = (idx[0], idx[1]);
        let q = b.idiv_const(x, 5).unwrap();
        let r = b.irem_const(y, 5).unwrap();
        assert_eq!(delinearized(&b.graph, &[q, r], &[12, 5], 0), None);
    }
}
