//! The kernel form: what every backend renders.
//!
//! A [`Program`] is a compiled module as a sequence of [`Step`]s over buffers whose
//! places buffer assignment fixed ahead of time (entry parameters, entry results,
//! constants, and fixed offsets in one temporary arena). Most steps launch a
//! [`Kernel`]; the rest are copies, control flow, and library routines (dot,
//! convolution, sort, ...) whose operands are described with enough layout
//! information that the routine reads them in place.
//!
//! A kernel is elemental: a loop nest over an index space whose body is an
//! expression [`Graph`] of scalar values, with loads through index arithmetic for
//! every data-movement op, inline reductions, and stores of the outputs. This is
//! XLA's elemental emitter as data: the LLVM, Cranelift and PTX backends all render
//! the same graphs, and [`crate::eval`] evaluates them to test the lowering.
//!
//! Conventions: every buffer is dense and row-major (smelt's pipeline uses the
//! default layout); index values are `s64`; predicates are `pred` (one byte in
//! memory, 0 or 1). Scalar semantics are the interpreter's (see [`UnaryOp`]); the
//! lowering (`crate::lower`) writes a loop index of a dimension of size 1 as the
//! constant 0.
//!
//! Buffers may be shared in place: a kernel's output may be the buffer of an
//! input it reads only at the output's own index (buffer assignment lets an
//! elementwise kernel overwrite an operand that dies there). Backends read a
//! point's inputs before storing its outputs, which every kernel body below
//! allows.

use smelt_hlo::attrs::{CompareType, ComparisonDirection, RngAlgorithm};
use smelt_hlo::{DType, Opcode};

/// Index of a node in a [`Graph`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(pub u32);

/// Index of a kernel in [`Program::kernels`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KernelId(pub u32);

/// A typed scalar constant. Floats are stored as f64 (exact for f16, bf16, f32),
/// integers as i128 (exact for every integer type), pred as 0/1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scalar {
    Int(DType, i128),
    Float(DType, f64),
}

impl Scalar {
    pub fn dtype(self) -> DType {
        match self {
            Scalar::Int(t, _) | Scalar::Float(t, _) => t,
        }
    }

    pub fn index(v: i64) -> Scalar {
        Scalar::Int(DType::S64, v as i128)
    }
}

/// Declares a kernel operation enum with its HLO opcode, one row a variant:
/// the one table between the two. Rows of the `unchecked` block are kernel-only
/// forms of an opcode that assume their operands are in its safe range
/// (`legalize` makes them so); they compute the opcode on those operands.
macro_rules! kernel_ops {
    ($(#[$doc:meta])* $name:ident {
        $($variant:ident = $opcode:ident,)*
    } $(unchecked { $($(#[$udoc:meta])* $unchecked:ident = $uopcode:ident,)* })?) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name {
            $($variant,)*
            $($($(#[$udoc])* $unchecked,)*)?
        }

        impl $name {
            /// Every operation with HLO's own semantics, in declaration order.
            pub const ALL: &[$name] = &[$($name::$variant,)*];

            /// The HLO opcode this operation computes (on safe operands, for
            /// an unchecked form).
            pub fn opcode(self) -> Opcode {
                match self {
                    $($name::$variant => Opcode::$opcode,)*
                    $($($name::$unchecked => Opcode::$uopcode,)*)?
                }
            }

            /// Whether this is an unchecked form (operands assumed in range).
            #[allow(clippy::match_like_matches_macro)]
            pub fn is_unchecked(self) -> bool {
                match self {
                    $($($name::$unchecked => true,)*)?
                    _ => false,
                }
            }

            /// The operation computing HLO opcode `op`, if there is one.
            pub fn of_opcode(op: Opcode) -> Option<$name> {
                match op {
                    $(Opcode::$opcode => Some($name::$variant),)*
                    _ => None,
                }
            }
        }
    };
}

kernel_ops! {
    /// Elementwise operations of one operand. Semantics are the HLO opcode's, as
    /// the interpreter defines them (`smelt_interp::scalar`), edge cases included.
    UnaryOp {
        Abs = Abs,
        Cbrt = Cbrt,
        Ceil = Ceil,
        Clz = Clz,
        Cos = Cosine,
        Erf = Erf,
        Exp = Exp,
        Expm1 = Expm1,
        Floor = Floor,
        IsFinite = IsFinite,
        Log = Log,
        Log1p = Log1p,
        Logistic = Logistic,
        Neg = Negate,
        Not = Not,
        Popcnt = Popcnt,
        RoundNearestAfz = RoundNearestAfz,
        RoundNearestEven = RoundNearestEven,
        Rsqrt = Rsqrt,
        Sign = Sign,
        Sin = Sine,
        Sqrt = Sqrt,
        Tan = Tan,
        Tanh = Tanh,
    }
}

kernel_ops! {
    /// Elementwise operations of two operands of the same type, with the HLO
    /// opcode's semantics as for [`UnaryOp`].
    BinaryOp {
        Add = Add,
        Sub = Subtract,
        Mul = Multiply,
        Div = Divide,
        Rem = Remainder,
        Max = Maximum,
        Min = Minimum,
        Pow = Power,
        Atan2 = Atan2,
        And = And,
        Or = Or,
        Xor = Xor,
        Shl = ShiftLeft,
        ShrArithmetic = ShiftRightArithmetic,
        ShrLogical = ShiftRightLogical,
    }
    unchecked {
        /// Integer division by a divisor that is not 0, and not -1 with the
        /// type's minimum as dividend.
        DivUnchecked = Divide,
        /// Integer remainder, with the same divisors as [`BinaryOp::DivUnchecked`].
        RemUnchecked = Remainder,
        /// Shifts by the amount modulo the type's bit width (the machines' own
        /// rule; the HLO opcode's result for amounts below the width).
        ShlUnchecked = ShiftLeft,
        ShrArithmeticUnchecked = ShiftRightArithmetic,
        ShrLogicalUnchecked = ShiftRightLogical,
    }
}

/// One scalar value computed for each point of the iteration space.
#[derive(Clone, Debug, PartialEq)]
pub enum Node {
    /// Loop index of dimension `d` of the enclosing space (a kernel's space, or the
    /// window of the innermost enclosing [`Node::Reduce`]); `s64`.
    Index(usize),
    /// Parameter `n` of a [`ScalarFn`] (reducer, comparator, scatter combiner).
    Param(usize),
    Const(Scalar),
    /// Element of kernel input `input` at a multi-dimensional index (one `s64`
    /// node per dimension of that input, each within bounds: the lowering clamps
    /// or selects, loads never read out of bounds).
    Load {
        input: usize,
        index: Vec<NodeId>,
    },
    Unary {
        op: UnaryOp,
        x: NodeId,
    },
    Binary {
        op: BinaryOp,
        a: NodeId,
        b: NodeId,
    },
    /// `pred`-typed comparison. `compare_type` None means the default for the type.
    Compare {
        direction: ComparisonDirection,
        compare_type: Option<CompareType>,
        a: NodeId,
        b: NodeId,
    },
    Select {
        pred: NodeId,
        on_true: NodeId,
        on_false: NodeId,
    },
    /// `a * b + c` rounded once (a fused multiply-add), on floats. No HLO
    /// opcode has this meaning; the kernel form uses it for exact rewrites
    /// (`crate::division`).
    MulAdd {
        a: NodeId,
        b: NodeId,
        c: NodeId,
    },
    /// `clamp(min, x, max)` with XLA's NaN semantics.
    Clamp {
        min: NodeId,
        x: NodeId,
        max: NodeId,
    },
    Convert {
        x: NodeId,
        to: DType,
    },
    /// Reinterpret the bits (same width).
    Bitcast {
        x: NodeId,
        to: DType,
    },
    /// A reduction computed inline: for every point of `window` in row-major
    /// order (loop indices are `Index(d)` inside `body`), the values `body.values`
    /// are combined into the accumulators with `reducer`, starting from `init`.
    /// Nodes of the enclosing graph are visible inside `body` through
    /// [`Node::Outer`]. Results are read with [`Node::ReduceResult`]; the node's
    /// own type is its first result's. (Window positions in padding are the
    /// lowering's business: it feeds the init value where the reducer ignores it,
    /// or passes a validity flag to a reducer that keeps its accumulators when
    /// the flag is false.)
    Reduce(Box<InlineReduce>),
    /// Result `index` of a [`Node::Reduce`] node.
    ReduceResult {
        reduce: NodeId,
        index: usize,
    },
    /// Inside a [`InlineReduce::body`]: a node of the enclosing graph.
    Outer(NodeId),
}

impl Node {
    /// Calls `f` with every node of the same graph this node reads, in operand
    /// order: for an inline reduction, its initial values and then the enclosing
    /// nodes its body refers to ([`Node::Outer`]).
    pub fn for_each_operand(&self, mut f: impl FnMut(NodeId)) {
        match self {
            Node::Index(_) | Node::Param(_) | Node::Const(_) | Node::Outer(_) => {}
            Node::Load { index, .. } => index.iter().for_each(|&i| f(i)),
            Node::Unary { x, .. } | Node::Convert { x, .. } | Node::Bitcast { x, .. } => f(*x),
            Node::Binary { a, b, .. } | Node::Compare { a, b, .. } => {
                f(*a);
                f(*b);
            }
            Node::Select { pred: a, on_true: b, on_false: c }
            | Node::Clamp { min: a, x: b, max: c }
            | Node::MulAdd { a, b, c } => {
                f(*a);
                f(*b);
                f(*c);
            }
            Node::Reduce(r) => {
                r.init.iter().for_each(|&i| f(i));
                r.body.outer_refs(f);
            }
            Node::ReduceResult { reduce, .. } => f(*reduce),
        }
    }

    /// The operands [`Node::for_each_operand`] visits, as a list.
    pub fn operands(&self) -> Vec<NodeId> {
        let mut v = Vec::new();
        self.for_each_operand(|n| v.push(n));
        v
    }

    /// This node with every operand `n` that [`Node::for_each_operand`] visits
    /// replaced by `f(n)` (an inline reduction's body keeps its own ids; only
    /// its references to the enclosing graph change).
    pub fn map_operands(&self, mut f: impl FnMut(NodeId) -> NodeId) -> Node {
        let mut m = |n: &NodeId| f(*n);
        match self {
            Node::Index(_) | Node::Param(_) | Node::Const(_) | Node::Outer(_) => self.clone(),
            Node::Load { input, index } => Node::Load { input: *input, index: index.iter().map(m).collect() },
            Node::Unary { op, x } => Node::Unary { op: *op, x: m(x) },
            Node::Binary { op, a, b } => Node::Binary { op: *op, a: m(a), b: m(b) },
            Node::Compare { direction, compare_type, a, b } => {
                Node::Compare { direction: *direction, compare_type: *compare_type, a: m(a), b: m(b) }
            }
            Node::Select { pred, on_true, on_false } => {
                Node::Select { pred: m(pred), on_true: m(on_true), on_false: m(on_false) }
            }
            Node::Clamp { min, x, max } => Node::Clamp { min: m(min), x: m(x), max: m(max) },
            Node::MulAdd { a, b, c } => Node::MulAdd { a: m(a), b: m(b), c: m(c) },
            Node::Convert { x, to } => Node::Convert { x: m(x), to: *to },
            Node::Bitcast { x, to } => Node::Bitcast { x: m(x), to: *to },
            Node::ReduceResult { reduce, index } => Node::ReduceResult { reduce: m(reduce), index: *index },
            Node::Reduce(r) => {
                let mut r = r.clone();
                r.init.iter_mut().for_each(|i| *i = m(i));
                for node in &mut r.body.nodes {
                    if let Node::Outer(o) = node {
                        *o = m(o);
                    }
                }
                Node::Reduce(r)
            }
        }
    }
}

/// The body of an inline reduction.
#[derive(Clone, Debug, PartialEq)]
pub struct InlineReduce {
    pub window: Vec<i64>,
    pub init: Vec<NodeId>,
    pub body: Graph,
    /// One value per accumulator, computed in `body` for each window point.
    pub values: Vec<NodeId>,
    /// `(acc..., value...) -> (acc...)`.
    pub reducer: ScalarFn,
}

/// A pure scalar function: reducers, comparators, scatter combiners. Inputs are
/// `Param(i)` nodes of the given types; `outputs` are the results.
#[derive(Clone, Debug, PartialEq)]
pub struct ScalarFn {
    pub params: Vec<DType>,
    pub graph: Graph,
    pub outputs: Vec<NodeId>,
    /// What the function is, when it is a single common operation (lets backends
    /// use native reductions and sorts).
    pub pattern: Option<FnPattern>,
}

/// Recognized scalar functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FnPattern {
    /// `(a, b) -> a op b` for a commutative, associative op.
    Binary(BinaryOp),
    /// A comparator `(a, b) -> a < b` (or `>` with `descending`) on the first pair of
    /// operands, as `compare_type` orders them.
    LessThan { descending: bool, compare_type: Option<CompareType> },
    /// JAX's argmax (argmin with `min`) reducer over `(value, index)` pairs,
    /// `(a, ia, b, ib)`: `a` wins when greater (less) or NaN, the lower
    /// index on equal values (the value then `b`'s). Folded in index order it
    /// gives the first NaN, else the first greatest (least) value's index,
    /// so partial results over interleaved indices may be combined in any
    /// grouping with the lower-index pair first: the index is the same (the
    /// value too but for the sign of a zero tied with the other zero).
    ArgMax { min: bool },
}

/// Typed scalar nodes; nodes refer only to nodes with smaller ids.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Graph {
    pub nodes: Vec<Node>,
    pub types: Vec<DType>,
}

impl Graph {
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.0 as usize]
    }

    pub fn dtype(&self, id: NodeId) -> DType {
        self.types[id.0 as usize]
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Calls `f` with every enclosing node this graph (an inline reduction's
    /// body) refers to through [`Node::Outer`].
    pub fn outer_refs(&self, mut f: impl FnMut(NodeId)) {
        for node in &self.nodes {
            if let Node::Outer(o) = node {
                f(*o);
            }
        }
    }

    /// Which nodes `roots` need, transitively through [`Node::for_each_operand`]
    /// (ids out of range are ignored; [`crate::verify`] rules them out).
    pub fn live(&self, roots: &[NodeId]) -> Vec<bool> {
        let mut live = vec![false; self.len()];
        for r in roots {
            if let Some(l) = live.get_mut(r.0 as usize) {
                *l = true;
            }
        }
        for i in (0..self.len()).rev() {
            if live[i] {
                self.nodes[i].for_each_operand(|o| {
                    if let Some(l) = live.get_mut(o.0 as usize) {
                        *l = true;
                    }
                });
            }
        }
        live
    }

    /// The loop level of every node: `index_level(d)` for [`Node::Index`]`(d)`,
    /// and for any other node the deepest level among its operands (`None`, the
    /// outermost, for nodes without loop indices).
    pub fn levels(&self, index_level: impl Fn(usize) -> Option<usize>) -> Vec<Option<usize>> {
        let mut levels: Vec<Option<usize>> = vec![None; self.len()];
        for (i, node) in self.nodes.iter().enumerate() {
            levels[i] = match node {
                Node::Index(d) => index_level(*d),
                _ => {
                    let mut level = None;
                    node.for_each_operand(|o| level = level.max(levels.get(o.0 as usize).copied().flatten()));
                    level
                }
            };
        }
        levels
    }
}

/// Row-major strides (in elements) of `dims`, saturating.
pub fn row_major_strides(dims: &[i64]) -> Vec<i64> {
    let mut s = vec![1i64; dims.len()];
    for k in (0..dims.len().saturating_sub(1)).rev() {
        s[k] = s[k + 1].saturating_mul(dims[k + 1].max(0));
    }
    s
}

/// A dense row-major array: what a kernel reads or writes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ArrayType {
    pub dtype: DType,
    pub dims: Vec<i64>,
}

impl ArrayType {
    pub fn element_count(&self) -> usize {
        self.dims.iter().map(|&d| d.max(0) as usize).product()
    }

    pub fn byte_size(&self) -> usize {
        self.element_count() * self.dtype.byte_size()
    }

    /// The size in bytes, or None when a dimension is negative or the size
    /// does not fit in a `usize` ([`crate::verify`] requires it to).
    pub fn checked_byte_size(&self) -> Option<usize> {
        self.dims
            .iter()
            .try_fold(self.dtype.byte_size(), |n, &d| usize::try_from(d).ok().and_then(|d| n.checked_mul(d)))
    }
}

/// One elemental kernel.
#[derive(Clone, Debug, PartialEq)]
pub struct Kernel {
    /// For dumps and symbol names (the fusion's name).
    pub name: String,
    pub inputs: Vec<ArrayType>,
    pub outputs: Vec<ArrayType>,
    pub body: KernelBody,
}

#[derive(Clone, Debug, PartialEq)]
pub enum KernelBody {
    /// For every index of `space` (row-major), evaluate `graph` and store output
    /// `k`'s value `outputs[k]` at the same index (all outputs have `space`'s
    /// dims). Points are independent: any dimension may be split across threads.
    Loop { space: Vec<i64>, graph: Graph, outputs: Vec<NodeId> },
    /// A reduction over `reduced` dimensions of `space` (ascending): for each kept
    /// index, the accumulators start at `init` (nodes without loop indices) and
    /// combine `values` (evaluated at each full index, the reduced dimensions
    /// visited in row-major order) with `reducer`, which takes all accumulators
    /// then all values; result `r` is stored in output `reduce_outputs[r]` at the
    /// kept index (kept dims in order). Extra outputs `extra[e] = (output, node)`
    /// are stored at the full index. Several reductions computed together (a
    /// fusion's multi-output root) share one reducer that returns all of their
    /// accumulators.
    Reduce {
        space: Vec<i64>,
        reduced: Vec<usize>,
        graph: Graph,
        init: Vec<NodeId>,
        values: Vec<NodeId>,
        reducer: ScalarFn,
        reduce_outputs: Vec<usize>,
        extra: Vec<(usize, NodeId)>,
    },
    /// A scan (cumulative reduction) along `axis` of `space`: one accumulator
    /// per output, each output shaped like `space`. For every index of the other
    /// dimensions, with `n = space[axis]` and `v[j]` the `values` evaluated at the
    /// full index whose `axis` component is `j`, output `r` stores accumulator
    /// `r` of
    ///
    /// ```text
    /// forward:  out[.., j, ..] = fold(init, v[0], v[1], ..., v[j])
    /// reverse:  out[.., j, ..] = fold(init, v[j], v[j + 1], ..., v[n - 1])
    /// ```
    ///
    /// where `fold` starts the accumulators at `init` (nodes without loop
    /// indices) and applies `acc = reducer(acc..., value...)` to each value in
    /// the order listed: exactly the reduce-window whose window spans the axis
    /// with `n - 1` padding before it (forward) or after it (reverse), `init`
    /// applied once, padding skipped ([`smelt_hlo::attrs::Window::as_scan`]).
    ///
    /// Forward, that is the recurrence `out[.., j, ..] = reducer(out[.., j - 1,
    /// ..], v[j])` from `init`, which backends compute in one pass. Reverse, the
    /// recurrence from the end, `out[.., j, ..] = reducer(out[.., j + 1, ..],
    /// v[j])`, folds in the opposite order; the lowering emits reverse scans only
    /// for reducers that are one commutative, associative operation
    /// ([`FnPattern::Binary`]), where the two agree exactly for integers,
    /// max/min and and/or, and up to rounding for float add and multiply, which
    /// backends may reassociate (as they may in `Reduce`). Outputs never share
    /// a buffer with an input that `values` read away from the output's own
    /// index.
    Scan {
        space: Vec<i64>,
        axis: usize,
        reverse: bool,
        graph: Graph,
        init: Vec<NodeId>,
        values: Vec<NodeId>,
        reducer: ScalarFn,
    },
    /// In-place dynamic-update-slice: output 0 already holds input 0's values
    /// (the lowering puts a [`Step::Copy`] before the kernel when they are not
    /// the same buffer); for every index of `space` (the update's dims) store
    /// `value` at `start + index`, where `start` are `s64` nodes without loop
    /// indices, already clamped into range. The value graph does not read input 0
    /// when it shares output 0's buffer.
    UpdateSlice { space: Vec<i64>, graph: Graph, start: Vec<NodeId>, value: NodeId },
    /// Scatter: output 0 (and more for variadic scatter) starts as a copy of the
    /// operands (the lowering puts [`Step::Copy`]s before the kernel where they
    /// are different buffers); the inputs are what `graph` loads (indices and
    /// updates). For every index of `space` (the updates' dims), `target` gives the
    /// operand index (`s64` nodes, clamped into range) and `in_bounds` whether to
    /// apply (XLA skips an update whose whole window does not fit); the update
    /// `values` are combined into the element with `combiner(old..., new...)`.
    /// Applied sequentially in row-major order (indices may repeat).
    Scatter {
        space: Vec<i64>,
        graph: Graph,
        target: Vec<NodeId>,
        in_bounds: NodeId,
        values: Vec<NodeId>,
        combiner: ScalarFn,
    },
    /// Sort along `dimension` of `dims`: inputs `k` are sorted together (outputs `k`),
    /// ordered by `comparator` on (a0, b0, a1, b1, ...), which says whether `a`
    /// goes before `b`. The reference is a stable merge sort (which also serves
    /// `stable: false`); a comparator need not be a strict weak order.
    Sort { dims: Vec<i64>, dimension: usize, stable: bool, comparator: ScalarFn },
    /// Select-and-scatter with a window; see XLA's semantics. Inputs: operand,
    /// source, init value (a scalar); output: the result, which starts as the init
    /// value everywhere. For each window (one per source element, row-major), the
    /// selected position starts at the window's first element and moves to each
    /// later one for which `select(selected, candidate)` is false; `scatter(out,
    /// source)` then updates it. Padding positions are not candidates.
    SelectAndScatter { window: Vec<WindowSpec>, select: ScalarFn, scatter: ScalarFn },
    /// `rng-bit-generator`: input 0 is the state; outputs are the new state and
    /// the bits, laid out as XLA's `RngBitGeneratorExpander` does (see the
    /// interpreter's `rng.rs`; the default algorithm is philox, as on XLA CPU).
    RngBitGenerator { algorithm: RngAlgorithm },
}

impl KernelBody {
    /// The per-point value graph and the space it is evaluated over, for the
    /// bodies that have them.
    pub fn graph_and_space(&self) -> Option<(&Graph, &[i64])> {
        match self {
            KernelBody::Loop { graph, space, .. }
            | KernelBody::Reduce { graph, space, .. }
            | KernelBody::Scan { graph, space, .. }
            | KernelBody::UpdateSlice { graph, space, .. }
            | KernelBody::Scatter { graph, space, .. } => Some((graph, space)),
            KernelBody::Sort { .. } | KernelBody::SelectAndScatter { .. } | KernelBody::RngBitGenerator { .. } => None,
        }
    }

    /// The per-point value graph, for the bodies that have one.
    pub fn graph(&self) -> Option<&Graph> {
        self.graph_and_space().map(|(g, _)| g)
    }
}

/// One dimension of a window (strides, padding, dilations) for routines that take
/// windows directly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WindowSpec {
    pub size: i64,
    pub stride: i64,
    pub pad_low: i64,
    pub pad_high: i64,
    pub window_dilation: i64,
    pub base_dilation: i64,
}

impl WindowSpec {
    /// The spec of an HLO window dimension (whose reversal steps keep apart).
    pub fn of(w: &smelt_hlo::attrs::WindowDim) -> WindowSpec {
        WindowSpec {
            size: w.size,
            stride: w.stride,
            pad_low: w.pad_low,
            pad_high: w.pad_high,
            window_dilation: w.window_dilation,
            base_dilation: w.base_dilation,
        }
    }

    /// The HLO window dimension of this spec, reversed or not.
    pub fn window_dim(&self, reversal: bool) -> smelt_hlo::attrs::WindowDim {
        smelt_hlo::attrs::WindowDim {
            size: self.size,
            stride: self.stride,
            pad_low: self.pad_low,
            pad_high: self.pad_high,
            window_dilation: self.window_dilation,
            base_dilation: self.base_dilation,
            reversal,
        }
    }

    /// How many windows fit along each of `dims` (the output dims of a
    /// reduce-window, select-and-scatter or convolution over them); None for
    /// a malformed window.
    pub fn output_dims(window: &[WindowSpec], dims: &[i64]) -> Option<Vec<i64>> {
        if window.len() != dims.len() {
            return None;
        }
        let mut out = Vec::with_capacity(dims.len());
        for (w, &d) in window.iter().zip(dims) {
            if w.size < 0 || w.stride < 1 || w.window_dilation < 1 || w.base_dilation < 1 {
                return None;
            }
            let base = if d == 0 { 0 } else { (d - 1) * w.base_dilation + 1 };
            let padded = base + w.pad_low + w.pad_high;
            let extent = if w.size == 0 { 0 } else { (w.size - 1) * w.window_dilation + 1 };
            out.push(if padded < extent { 0 } else { (padded - extent) / w.stride + 1 });
        }
        Some(out)
    }
}

/// Where a buffer lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Buffer {
    /// Leaf `n` of the flattened entry parameters.
    Param(u32),
    /// Leaf `n` of the flattened entry result.
    Result(u32),
    /// Constant `n` of [`Program::constants`].
    Const(u32),
    /// `offset` bytes into the temporary arena.
    Temp(usize),
}

/// A buffer and its array type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BufRef {
    pub buffer: Buffer,
    pub ty: ArrayType,
}

/// A general matrix product in the canonical dot form (`[b, m, k] x [b, k, n]`,
/// either operand possibly transposed), reading operands in place.
///
/// Products accumulate as the interpreter's do: in f32 for f16, bf16 and f32
/// results (rounded to the result type once, at the end), in f64 for f64, in
/// wrapping i64 for integer results, the operands converted to the accumulator
/// type; the result type is `out`'s. The product is `[b, m, n]` in row-major
/// order; `out` holds its `b * m * n` elements with the dimensions of the fused
/// result, which an epilogue may have reshaped.
#[derive(Clone, Debug, PartialEq)]
pub struct DotStep {
    pub lhs: BufRef,
    pub rhs: BufRef,
    pub out: BufRef,
    pub batch: i64,
    pub m: i64,
    pub n: i64,
    pub k: i64,
    /// lhs is `[b, k, m]`.
    pub lhs_transposed: bool,
    /// rhs is `[b, n, k]`.
    pub rhs_transposed: bool,
    /// Elementwise epilogue applied to the product in the output tile: a `Loop`
    /// kernel over `out`'s dims whose single output is `out`, whose input 0 is the
    /// product (with `out`'s dims, typed as `out` or, for an integer product an
    /// epilogue requantizes, as the product: [`Program::product_dtype`]; loaded
    /// only at the output index, so a backend may substitute the accumulator
    /// value for those loads) and whose other inputs are the listed buffers.
    /// None: `out` is the product itself.
    ///
    /// One of the listed buffers may be `out` itself (buffer assignment lets the
    /// epilogue overwrite an operand it reads elementwise, like a residual add):
    /// evaluate the epilogue on the product before storing into `out`, never
    /// store the bare product there first.
    pub epilogue: Option<(KernelId, Vec<BufRef>)>,
}

/// A convolution with XLA's general dimension numbers, reading operands in place.
/// Accumulation is as for [`DotStep`]; each output element sums, over the
/// kernel's spatial positions in row-major order and then the input features of
/// its group, the products whose input position is not padding or a dilation
/// hole. `out` holds the result in row-major order of its natural shape
/// (`dims.output_*`), with the dimensions of the fused result.
#[derive(Clone, Debug, PartialEq)]
pub struct ConvStep {
    pub input: BufRef,
    pub kernel: BufRef,
    pub out: BufRef,
    pub dims: smelt_hlo::attrs::ConvDims,
    pub window: Vec<WindowSpec>,
    pub window_reversal: Vec<bool>,
    pub feature_group_count: i64,
    pub batch_group_count: i64,
    /// As for [`DotStep::epilogue`].
    pub epilogue: Option<(KernelId, Vec<BufRef>)>,
}

impl ConvStep {
    /// The output dims in the convolution's natural shape (`dims.output_*`);
    /// None for dimension numbers or a window that do not fit the operands.
    pub fn natural_output_dims(&self) -> Option<Vec<i64>> {
        let dn = &self.dims;
        let at = |dims: &[i64], i: i64| usize::try_from(i).ok().and_then(|i| dims.get(i).copied());
        let spatial: Vec<i64> = dn.input_spatial.iter().map(|&d| at(&self.input.ty.dims, d)).collect::<Option<_>>()?;
        let windows = WindowSpec::output_dims(&self.window, &spatial)?;
        let mut out = vec![0i64; spatial.len() + 2];
        let mut set = |i: i64, v: i64| usize::try_from(i).ok().and_then(|i| out.get_mut(i)).map(|x| *x = v);
        set(dn.output_batch, at(&self.input.ty.dims, dn.input_batch)? / self.batch_group_count.max(1))?;
        set(dn.output_feature, at(&self.kernel.ty.dims, dn.kernel_output_feature)?)?;
        for (&o, w) in dn.output_spatial.iter().zip(windows) {
            set(o, w)?;
        }
        Some(out)
    }
}

/// A call of a library routine (`smelt_linalg`'s LAPACK targets): reads
/// `inputs` (the call's operands, in order) and writes all of `outputs` (its
/// results). Backends run it through `smelt_linalg::Call::run`.
#[derive(Clone, Debug, PartialEq)]
pub struct CustomCallStep {
    pub call: smelt_linalg::Call,
    pub inputs: Vec<BufRef>,
    pub outputs: Vec<BufRef>,
}

/// One step of a program.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    Kernel {
        kernel: KernelId,
        inputs: Vec<BufRef>,
        outputs: Vec<BufRef>,
    },
    /// Copy `src` to `dst` (same size).
    Copy {
        src: BufRef,
        dst: BufRef,
    },
    /// Several copies that happen at once: every source is read before any
    /// destination is written (while-loop state updates).
    ParallelCopy {
        moves: Vec<(BufRef, BufRef)>,
    },
    Dot(Box<DotStep>),
    Conv(Box<ConvStep>),
    CustomCall(Box<CustomCallStep>),
    /// Run `cond`, read the `pred` in `pred`; while true, run `body`, then the
    /// parallel copy `update` (body results into the loop state), then `cond` again.
    /// The state is in place when the step starts (the lowering copies the
    /// initial state in just before it).
    While {
        cond: Vec<Step>,
        pred: BufRef,
        body: Vec<Step>,
        update: Vec<(BufRef, BufRef)>,
    },
    /// Run one branch: `pred` index (branch 0 if true) or `s32` index clamped to
    /// the last branch when out of range. Each branch ends by copying its root into
    /// the conditional's result buffers.
    Conditional {
        index: BufRef,
        branches: Vec<Vec<Step>>,
    },
}

impl Step {
    /// Calls `f` on every buffer this step names, nested steps included.
    pub fn for_each_buf(&self, f: &mut dyn FnMut(&BufRef)) {
        let epilogue = |e: &Option<(KernelId, Vec<BufRef>)>, f: &mut dyn FnMut(&BufRef)| {
            e.iter().flat_map(|(_, bufs)| bufs).for_each(&mut *f)
        };
        match self {
            Step::Kernel { inputs, outputs, .. } => inputs.iter().chain(outputs).for_each(f),
            Step::Copy { src, dst } => [src, dst].into_iter().for_each(f),
            Step::ParallelCopy { moves } => moves.iter().flat_map(|(s, d)| [s, d]).for_each(f),
            Step::Dot(d) => {
                [&d.lhs, &d.rhs, &d.out].into_iter().for_each(&mut *f);
                epilogue(&d.epilogue, f);
            }
            Step::Conv(c) => {
                [&c.input, &c.kernel, &c.out].into_iter().for_each(&mut *f);
                epilogue(&c.epilogue, f);
            }
            Step::CustomCall(c) => c.inputs.iter().chain(&c.outputs).for_each(f),
            Step::While { cond, pred, body, update } => {
                f(pred);
                update.iter().flat_map(|(s, d)| [s, d]).for_each(&mut *f);
                cond.iter().chain(body).for_each(|s| s.for_each_buf(f));
            }
            Step::Conditional { index, branches } => {
                f(index);
                branches.iter().flatten().for_each(|s| s.for_each_buf(f));
            }
        }
    }
}

/// Read-only data.
#[derive(Clone, Debug, PartialEq)]
pub struct ConstData {
    pub ty: ArrayType,
    /// Little-endian element bytes.
    pub bytes: Vec<u8>,
}

/// A compiled module in the kernel form. Running it means running `steps` with
/// the parameters in their buffers, result buffers to fill and a zeroed or
/// uninitialized arena of `temp_bytes`; results that live elsewhere (a parameter,
/// a constant, a donated parameter, another result) are copied into their
/// result buffers by the last steps.
#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    pub name: String,
    /// Flattened entry parameters (tuple parameters contribute their leaves).
    pub params: Vec<ArrayType>,
    /// Flattened entry results.
    pub results: Vec<ArrayType>,
    pub temp_bytes: usize,
    pub constants: Vec<ConstData>,
    pub kernels: Vec<Kernel>,
    pub steps: Vec<Step>,
}

impl Program {
    /// The element type of a dot's or convolution's product: `out`'s, or,
    /// with an epilogue, its input 0's (an integer product may be
    /// requantized to another type by its epilogue; the product then lives
    /// apart from `out`).
    pub fn product_dtype(&self, out: &BufRef, epilogue: &Option<(KernelId, Vec<BufRef>)>) -> DType {
        epilogue
            .as_ref()
            .and_then(|(k, _)| self.kernels.get(k.0 as usize))
            .and_then(|k| k.inputs.first())
            .map_or(out.ty.dtype, |t| t.dtype)
    }
}
