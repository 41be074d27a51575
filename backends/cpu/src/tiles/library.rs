//! The tile library: every elementwise operation the tile interpreter calls,
//! compiled once per machine.
//!
//! Each member is an ordinary one-dimensional loop kernel over [`TILE`]
//! lanes (`out[i] = op(a[i], b[i], ...)`) rendered by the same code generator
//! as every program's kernels, so an operation computes the same bits
//! through the library as inlined into a compiled kernel. Its entry point is
//! the usual `void(ptr bufs, i64 begin, i64 end)` (buffers: the operands,
//! then the result) under a stable symbol, `smelt_tile_<type>_<op>`; the
//! interpreter calls it with `[0, n)` for the first `n` lanes. Members come
//! in groups (per element type, the cheap operations apart from the math
//! library's), each one routine object of the routine cache
//! (`crate::routines`), so a program links only the groups it uses.

use smelt_hlo::DType;
use smelt_hlo::attrs::ComparisonDirection;
use smelt_kernel::{
    ArrayType, BinaryOp, FnPattern, Graph, Kernel, KernelBody, KernelId, Node, NodeId, Program, ScalarFn, UnaryOp,
};
use smelt_llvm::codegen::Slot;

/// Lanes per tile: what one call of a library function covers at most.
pub(crate) const TILE: usize = 1024;

/// One function of the library.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum TileFn {
    /// `UnaryOp` on the type (`IsFinite` gives `pred`).
    Unary(UnaryOp, DType),
    Binary(BinaryOp, DType),
    /// A binary operation with one operand a scalar (the first when the
    /// flag is set, else the second), read at lane 0: no splatted tile.
    BinaryScalar(BinaryOp, DType, bool),
    /// A comparison with the type's default order, giving `pred`.
    Compare(ComparisonDirection, DType),
    /// `(pred, t, t) -> t`.
    Select(DType),
    /// `(min, x, max) -> x` clamped, with XLA's NaN rule.
    Clamp(DType),
    /// `a * b + c` rounded once.
    MulAdd(DType),
    /// Conversion from the first type to the second.
    Convert(DType, DType),
    /// `exp(a - b)` in one pass, `b` a scalar when the flag is set (the
    /// shifted exponentials of every softmax and log-sum-exp).
    ExpSub(DType, bool),
    /// The first `lanes` lanes of a tile ([`FOLD_LANES`]) reduced to one
    /// element, `(tile, init) -> scalar`: the code generator's reduce kernel
    /// over them, combining with the operation.
    Fold(BinaryOp, DType, usize),
}

/// A group of library functions: one routine object.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct TileGroup {
    /// The element type the group works on (`pred` for logic).
    pub dtype: DType,
    /// The math library's functions (exp, log, tanh, ...) rather than the
    /// arithmetic, comparisons, selects and conversions.
    pub math: bool,
}

/// The float types the library covers.
const FLOATS: [DType; 2] = [DType::F32, DType::F64];

const BASIC_UNARY: [UnaryOp; 9] = [
    UnaryOp::Abs,
    UnaryOp::Ceil,
    UnaryOp::Floor,
    UnaryOp::IsFinite,
    UnaryOp::Neg,
    UnaryOp::RoundNearestAfz,
    UnaryOp::RoundNearestEven,
    UnaryOp::Sign,
    UnaryOp::Sqrt,
];

const MATH_UNARY: [UnaryOp; 12] = [
    UnaryOp::Cbrt,
    UnaryOp::Cos,
    UnaryOp::Erf,
    UnaryOp::Exp,
    UnaryOp::Expm1,
    UnaryOp::Log,
    UnaryOp::Log1p,
    UnaryOp::Logistic,
    UnaryOp::Rsqrt,
    UnaryOp::Sin,
    UnaryOp::Tan,
    UnaryOp::Tanh,
];

const BASIC_BINARY: [BinaryOp; 7] =
    [BinaryOp::Add, BinaryOp::Sub, BinaryOp::Mul, BinaryOp::Div, BinaryOp::Rem, BinaryOp::Max, BinaryOp::Min];

const MATH_BINARY: [BinaryOp; 2] = [BinaryOp::Pow, BinaryOp::Atan2];

/// The operations reductions of floats combine with (commutative and
/// associative, so tiles may be combined lane by lane and then folded).
pub(crate) const FLOAT_COMBINES: [BinaryOp; 4] = [BinaryOp::Add, BinaryOp::Mul, BinaryOp::Max, BinaryOp::Min];

/// The same for `pred`.
pub(crate) const PRED_COMBINES: [BinaryOp; 2] = [BinaryOp::And, BinaryOp::Or];

/// The sizes folds come in: a row's lanes are padded up to the next one, so
/// a row of 10 folds 32 lanes, not a whole tile.
pub(crate) const FOLD_LANES: [usize; 6] = [32, 64, 128, 256, 512, TILE];

/// The fold size for `lanes` accumulator lanes (at most a tile).
pub(crate) fn fold_lanes(lanes: usize) -> usize {
    FOLD_LANES.into_iter().find(|&f| f >= lanes).unwrap_or(TILE)
}

/// Every fold of `ops` on `d`.
fn folds(ops: &[BinaryOp], d: DType) -> impl Iterator<Item = TileFn> + '_ {
    ops.iter().flat_map(move |&op| FOLD_LANES.map(|lanes| TileFn::Fold(op, d, lanes)))
}

impl TileFn {
    /// The group that defines this function, if the library has it.
    pub(crate) fn group(self) -> Option<TileGroup> {
        TileGroup::all().into_iter().find(|g| g.members().contains(&self))
    }

    /// Roughly the vector instructions per vector of lanes the code
    /// generator's implementation takes: its math library's functions are
    /// polynomials of 30-80 instructions, a division is one instruction of
    /// several cycles' throughput, the rest one or two.
    pub(crate) fn vector_cost(self) -> f64 {
        match self {
            TileFn::Unary(op, _) if MATH_UNARY.contains(&op) => 40.0,
            TileFn::ExpSub(..) => 41.0,
            TileFn::Binary(BinaryOp::Pow, _) => 80.0,
            TileFn::Binary(BinaryOp::Atan2, _) => 60.0,
            TileFn::Binary(BinaryOp::Div | BinaryOp::Rem, _)
            | TileFn::BinaryScalar(BinaryOp::Div | BinaryOp::Rem, ..) => 5.0,
            TileFn::Select(_) | TileFn::Clamp(_) => 2.0,
            _ => 1.0,
        }
    }

    /// Operand types, then the result type.
    pub(crate) fn signature(self) -> (Vec<DType>, DType) {
        match self {
            TileFn::Unary(UnaryOp::IsFinite, d) => (vec![d], DType::Pred),
            TileFn::Unary(_, d) => (vec![d], d),
            TileFn::Binary(_, d) | TileFn::BinaryScalar(_, d, _) => (vec![d, d], d),
            TileFn::Compare(_, d) => (vec![d, d], DType::Pred),
            TileFn::Select(d) => (vec![DType::Pred, d, d], d),
            TileFn::Clamp(d) | TileFn::MulAdd(d) => (vec![d, d, d], d),
            TileFn::Convert(from, to) => (vec![from], to),
            TileFn::Fold(_, d, _) | TileFn::ExpSub(d, _) => (vec![d, d], d),
        }
    }

    /// The symbol the library defines for this function.
    pub(crate) fn symbol(self) -> String {
        let name = match self {
            TileFn::Unary(op, d) => format!("{d}_{op:?}"),
            TileFn::Binary(op, d) => format!("{d}_{op:?}"),
            TileFn::BinaryScalar(op, d, first) => format!("{d}_{op:?}_{}", if first { "sv" } else { "vs" }),
            TileFn::Compare(dir, d) => format!("{d}_{}", dir.name()),
            TileFn::Select(d) => format!("{d}_select"),
            TileFn::Clamp(d) => format!("{d}_clamp"),
            TileFn::MulAdd(d) => format!("{d}_muladd"),
            TileFn::Convert(from, to) => format!("{from}_to_{to}"),
            TileFn::Fold(op, d, lanes) => format!("{d}_fold{lanes}_{op:?}"),
            TileFn::ExpSub(d, scalar) => format!("{d}_exp_sub{}", if scalar { "_vs" } else { "" }),
        };
        format!("smelt_tile_{}", name.to_lowercase())
    }

    /// The scalar graph computing this function on loaded operands.
    fn node(self, operands: &[NodeId]) -> Node {
        let at = |i: usize| operands[i];
        match self {
            TileFn::Unary(op, _) => Node::Unary { op, x: at(0) },
            TileFn::Binary(op, _) | TileFn::BinaryScalar(op, _, _) => Node::Binary { op, a: at(0), b: at(1) },
            TileFn::Compare(direction, _) => Node::Compare { direction, compare_type: None, a: at(0), b: at(1) },
            TileFn::Select(_) => Node::Select { pred: at(0), on_true: at(1), on_false: at(2) },
            TileFn::Clamp(_) => Node::Clamp { min: at(0), x: at(1), max: at(2) },
            TileFn::MulAdd(_) => Node::MulAdd { a: at(0), b: at(1), c: at(2) },
            TileFn::Convert(_, to) => Node::Convert { x: at(0), to },
            // One combining step; the library builds folds as reduce kernels.
            TileFn::Fold(op, ..) => Node::Binary { op, a: at(0), b: at(1) },
            // The subtraction; the library applies `exp` to it.
            TileFn::ExpSub(..) => Node::Binary { op: BinaryOp::Sub, a: at(0), b: at(1) },
        }
    }
}

impl TileGroup {
    /// Every group, in a fixed order.
    pub(crate) fn all() -> Vec<TileGroup> {
        let mut v: Vec<TileGroup> =
            FLOATS.iter().flat_map(|&dtype| [false, true].map(|math| TileGroup { dtype, math })).collect();
        v.push(TileGroup { dtype: DType::Pred, math: false });
        v
    }

    /// The functions of the group, in a fixed order.
    pub(crate) fn members(self) -> Vec<TileFn> {
        let d = self.dtype;
        if d == DType::Pred {
            let mut v: Vec<TileFn> =
                [BinaryOp::And, BinaryOp::Or, BinaryOp::Xor].iter().map(|&op| TileFn::Binary(op, d)).collect();
            v.push(TileFn::Unary(UnaryOp::Not, d));
            v.extend(ComparisonDirection::ALL.iter().map(|&c| TileFn::Compare(c, d)));
            v.push(TileFn::Select(d));
            v.extend(folds(&PRED_COMBINES, d));
            return v;
        }
        if self.math {
            let mut v: Vec<TileFn> = MATH_UNARY.iter().map(|&op| TileFn::Unary(op, d)).collect();
            v.extend(MATH_BINARY.iter().map(|&op| TileFn::Binary(op, d)));
            v.extend([false, true].map(|scalar| TileFn::ExpSub(d, scalar)));
            return v;
        }
        let mut v: Vec<TileFn> = BASIC_UNARY.iter().map(|&op| TileFn::Unary(op, d)).collect();
        v.extend(BASIC_BINARY.iter().map(|&op| TileFn::Binary(op, d)));
        for first in [true, false] {
            v.extend(BASIC_BINARY.iter().map(|&op| TileFn::BinaryScalar(op, d, first)));
        }
        v.extend(ComparisonDirection::ALL.iter().map(|&c| TileFn::Compare(c, d)));
        v.extend([TileFn::Select(d), TileFn::Clamp(d), TileFn::MulAdd(d)]);
        v.push(TileFn::Convert(DType::Pred, d));
        v.extend(FLOATS.iter().filter(|&&f| f != d).map(|&f| TileFn::Convert(f, d)));
        v.extend(folds(&FLOAT_COMBINES, d));
        v
    }

    /// The group's functions as a program of loop kernels (one per member,
    /// in [`TileGroup::members`] order) and the entry points to define:
    /// kernel, buffer descriptions and symbol.
    pub(crate) fn program(self) -> (Program, Vec<(KernelId, Vec<Slot>, String)>) {
        let mut kernels = Vec::new();
        let mut entries = Vec::new();
        for (i, f) in self.members().into_iter().enumerate() {
            let (operands, result) = f.signature();
            let mut graph = Graph::default();
            let push = |g: &mut Graph, n: Node, t: DType| {
                g.nodes.push(n);
                g.types.push(t);
                NodeId(g.nodes.len() as u32 - 1)
            };
            let lane = push(&mut graph, Node::Index(0), DType::S64);
            let scalar = match f {
                TileFn::BinaryScalar(_, _, first) => Some(usize::from(!first)),
                TileFn::Fold(..) | TileFn::ExpSub(_, true) => Some(1),
                _ => None,
            };
            let zero = push(&mut graph, Node::Const(smelt_kernel::Scalar::index(0)), DType::S64);
            let loaded: Vec<NodeId> = operands
                .iter()
                .enumerate()
                .map(|(input, &t)| {
                    let at = if Some(input) == scalar { zero } else { lane };
                    push(&mut graph, Node::Load { input, index: vec![at] }, t)
                })
                .collect();
            let array = |dtype: DType| ArrayType { dtype, dims: vec![TILE as i64] };
            let (body, outputs) = match f {
                // The tile's lanes from lane 0, the init value at the second
                // operand's lane 0.
                TileFn::Fold(op, d, lanes) => {
                    let (value, init) = (loaded[0], loaded[1]);
                    let mut g = Graph::default();
                    let (a, b) = (push(&mut g, Node::Param(0), d), push(&mut g, Node::Param(1), d));
                    let combined = push(&mut g, Node::Binary { op, a, b }, d);
                    let reducer = ScalarFn {
                        params: vec![d, d],
                        graph: g,
                        outputs: vec![combined],
                        pattern: Some(FnPattern::Binary(op)),
                    };
                    let body = KernelBody::Reduce {
                        space: vec![lanes as i64],
                        reduced: vec![0],
                        graph,
                        init: vec![init],
                        values: vec![value],
                        reducer,
                        reduce_outputs: vec![0],
                        extra: Vec::new(),
                    };
                    (body, vec![ArrayType { dtype: d, dims: Vec::new() }])
                }
                TileFn::ExpSub(..) => {
                    let diff = push(&mut graph, f.node(&loaded), result);
                    let out = push(&mut graph, Node::Unary { op: UnaryOp::Exp, x: diff }, result);
                    let body = KernelBody::Loop { space: vec![TILE as i64], graph, outputs: vec![out] };
                    (body, vec![array(result)])
                }
                _ => {
                    let out = push(&mut graph, f.node(&loaded), result);
                    let body = KernelBody::Loop { space: vec![TILE as i64], graph, outputs: vec![out] };
                    (body, vec![array(result)])
                }
            };
            kernels.push(Kernel {
                name: f.symbol(),
                inputs: operands.iter().map(|&t| array(t)).collect(),
                outputs,
                body,
            });
            // Operands may be anywhere (rows of the caller's arrays, scalars):
            // aligned to their element, one element known to be there, and
            // the result may overwrite an operand.
            let slot = |t: DType| Slot {
                noalias: false,
                align: t.byte_size().max(1) as u32,
                bytes: t.byte_size() as u64,
                same_as: None,
            };
            let slots = operands.iter().chain([&result]).map(|&t| slot(t)).collect();
            entries.push((KernelId(i as u32), slots, f.symbol()));
        }
        let program = Program {
            name: format!("smelt_tiles_{}{}", self.dtype, if self.math { "_math" } else { "" }),
            params: Vec::new(),
            results: Vec::new(),
            temp_bytes: 0,
            constants: Vec::new(),
            kernels,
            steps: Vec::new(),
        };
        (program, entries)
    }
}
