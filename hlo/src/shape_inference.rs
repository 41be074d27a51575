//! Shape inference: the result shape of every opcode, from its operands' shapes, its
//! attributes and the signatures of the computations it calls.
//!
//! The verifier checks each instruction's stated shape against [`infer_shape`]; the
//! builder gives new instructions their shape through the per-op helpers
//! ([`infer_binary`], [`infer_dot`], [`infer_gather`], ...). The rules are XLA's
//! (`shape_inference.cc` and the HLO verifier), with deliberate narrowings:
//!
//! - no implicit broadcasting and no mixed precision: elementwise operands have the
//!   same element type and dimensions, as XLA's verifier demands of HLO (clamp's
//!   bounds may be scalars, as in XLA);
//! - no dynamic dimensions and no token type: a token (the result of `after-all`,
//!   the second operand of `add-dependency`) is spelled as the empty tuple `()`, which
//!   carries no data, just as a token does.
//!
//! Some results are not implied by the operands (the target type of `convert`, the
//! dimensions of `broadcast`, `reshape` or `iota`, the shape of a `parameter` or a
//! `custom-call`): those come from the `declared` shape, which is then checked for
//! consistency (element counts, dimension mappings, byte sizes). Inferred shapes carry
//! the default row-major layout; compare them with [`Shape::same_type`].
//!
//! Inputs are untrusted (fuzzed HLO text reaches this code): every dimension number is
//! range-checked and all size arithmetic is checked, so huge dimensions give errors,
//! never overflow, panics or allocation.

use std::collections::HashSet;
use std::fmt;

use crate::attrs::{
    Attrs, AttrsKind, Braced, CompareType, ComparisonDirection, ConvAttrs, DotDims, FftKind, GatherAttrs, PadDim,
    RngAlgorithm, RngDistribution, ScatterAttrs, SliceDim, Window,
};
use crate::computation::Computation;
use crate::dtype::DType;
use crate::instruction::{CompId, InstId};
use crate::opcode::{Arity, Opcode};
use crate::shape::{ArrayShape, Dims, Shape};

/// Why a shape cannot be inferred, or why operands, attributes or a declared shape
/// are inconsistent.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ShapeError {
    #[error("{op}: expected {expected} operands, got {got}")]
    OperandCount { op: Opcode, expected: Arity, got: usize },
    #[error("{op}: expected {expected} called computations, got {got}")]
    CalledCount { op: Opcode, expected: Arity, got: usize },
    #[error("{op}: expected {expected:?} attributes, got {got:?}")]
    AttrsKind { op: Opcode, expected: AttrsKind, got: AttrsKind },
    #[error("{op}: the result shape must be given, the operands do not imply it")]
    NeedsDeclared { op: Opcode },
    #[error("{op}: {message}")]
    Invalid { op: Opcode, message: String },
    /// A builder was handed an instruction id it did not create.
    #[error("instruction {id:?} does not belong to this builder")]
    UnknownInstruction { id: InstId },
    /// A builder was handed a computation id it does not know.
    #[error("computation {id:?} is not known to this builder")]
    UnknownComputation { id: CompId },
}

impl ShapeError {
    /// The opcode the error is about, if it is about one.
    pub fn opcode(&self) -> Option<Opcode> {
        match self {
            ShapeError::OperandCount { op, .. }
            | ShapeError::CalledCount { op, .. }
            | ShapeError::AttrsKind { op, .. }
            | ShapeError::NeedsDeclared { op }
            | ShapeError::Invalid { op, .. } => Some(*op),
            ShapeError::UnknownInstruction { .. } | ShapeError::UnknownComputation { .. } => None,
        }
    }

    /// The message without the leading `opcode: `, for callers (the verifier) that
    /// name the opcode themselves.
    pub fn detail(&self) -> String {
        let full = self.to_string();
        match self.opcode() {
            Some(op) => full
                .strip_prefix(op.name())
                .and_then(|rest| rest.strip_prefix(": "))
                .map_or(full.clone(), str::to_string),
            None => full,
        }
    }
}

type Result<T> = std::result::Result<T, ShapeError>;

fn err<T>(op: Opcode, message: impl Into<String>) -> Result<T> {
    Err(ShapeError::Invalid { op, message: message.into() })
}

/// The signature of a computation: parameter shapes in parameter-number order, and
/// the result shape.
#[derive(Clone, Debug, PartialEq)]
pub struct ProgramShape {
    pub params: Vec<Shape>,
    pub result: Shape,
}

impl ProgramShape {
    pub fn new(params: Vec<Shape>, result: Shape) -> ProgramShape {
        ProgramShape { params, result }
    }

    /// The signature of `comp`, or `None` if its root is not one of its instructions.
    pub fn of(comp: &Computation) -> Option<ProgramShape> {
        let result = comp.insts.get(comp.root)?.shape.clone();
        Some(ProgramShape { params: comp.param_shapes(), result })
    }
}

impl fmt::Display for ProgramShape {
    /// `(f32[], f32[]) -> f32[]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("(")?;
        for (i, p) in self.params.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{p}")?;
        }
        write!(f, ") -> {}", self.result)
    }
}

// ---- shape validity -----------------------------------------------------------

/// Number of elements of `dims`, or `None` if a dimension is negative or the count
/// overflows `i64`.
pub fn element_count(dims: &[i64]) -> Option<i64> {
    dims.iter().try_fold(1i64, |acc, &d| if d < 0 { None } else { acc.checked_mul(d) })
}

/// Why an array shape is malformed, if it is: a negative dimension, a byte size
/// beyond `i64::MAX` (XLA's limit), or a layout that is not a permutation.
fn array_problem(a: &ArrayShape) -> Option<String> {
    if let Some((i, d)) = a.dims.iter().enumerate().find(|(_, d)| **d < 0) {
        return Some(format!("dimension {i} is negative ({d})"));
    }
    let bytes = element_count(&a.dims).and_then(|n| n.checked_mul(a.dtype.byte_size() as i64));
    if bytes.is_none() {
        return Some("its size overflows 64 bits".into());
    }
    let m2m = &a.layout.minor_to_major;
    let mut seen = vec![false; a.rank()];
    let permutation = m2m.len() == a.rank()
        && m2m.iter().all(|&d| {
            usize::try_from(d).ok().and_then(|d| seen.get_mut(d)).is_some_and(|s| !std::mem::replace(s, true))
        });
    if !permutation {
        return Some(format!("layout {} is not a permutation of its {} dimensions", Braced(m2m), a.rank()));
    }
    None
}

/// Checks that every array in `shape` is well formed (non-negative dimensions, a
/// byte size that fits in `i64`, a layout that permutes the dimensions). `what`
/// names the shape in the message (`"result shape"`, `"operand 1"`).
pub fn validate_shape(op: Opcode, what: &str, shape: &Shape) -> Result<()> {
    match shape {
        Shape::Array(a) => match array_problem(a) {
            Some(problem) => err(op, format!("{what} {shape} is malformed: {problem}")),
            None => Ok(()),
        },
        Shape::Tuple(elems) => elems.iter().try_for_each(|e| validate_shape(op, what, e).map(|_| ())),
    }
}

/// Wraps an inferred array, checking that it is well formed.
fn finish(op: Opcode, a: ArrayShape) -> Result<Shape> {
    let shape = Shape::Array(a);
    validate_shape(op, "result shape", &shape)?;
    Ok(shape)
}

// ---- small helpers ------------------------------------------------------------

fn array<'a>(op: Opcode, what: &str, s: &'a Shape) -> Result<&'a ArrayShape> {
    match s {
        Shape::Array(a) => Ok(a),
        Shape::Tuple(_) => err(op, format!("{what} must be an array, got {s}")),
    }
}

fn scalar_of(dtype: DType) -> Shape {
    Shape::scalar(dtype)
}

fn is_scalar(s: &Shape) -> bool {
    s.as_array().is_some_and(|a| a.rank() == 0)
}

/// `d` as an index into `rank` dimensions.
fn axis(op: Opcode, what: &str, d: i64, rank: usize) -> Result<usize> {
    match usize::try_from(d) {
        Ok(i) if i < rank => Ok(i),
        _ => err(op, format!("{what} {d} is out of range for rank {rank}")),
    }
}

/// Checks that `dims` are distinct dimension numbers below `rank`.
fn distinct_axes(op: Opcode, what: &str, dims: &[i64], rank: usize) -> Result<Vec<usize>> {
    let mut seen = HashSet::new();
    let mut out = Vec::with_capacity(dims.len());
    for &d in dims {
        let i = axis(op, what, d, rank)?;
        if !seen.insert(i) {
            return err(op, format!("{what}s {} repeat dimension {d}", Braced(dims)));
        }
        out.push(i);
    }
    Ok(out)
}

/// Like [`distinct_axes`], and the list must be sorted.
fn sorted_axes(op: Opcode, what: &str, dims: &[i64], rank: usize) -> Result<Vec<usize>> {
    let out = distinct_axes(op, what, dims, rank)?;
    if out.windows(2).any(|w| w[0] > w[1]) {
        return err(op, format!("{what}s {} must be sorted", Braced(dims)));
    }
    Ok(out)
}

fn disjoint(op: Opcode, a_name: &str, a: &[i64], b_name: &str, b: &[i64]) -> Result<()> {
    if let Some(d) = a.iter().find(|d| b.contains(d)) {
        return err(op, format!("dimension {d} is in both {a_name} {} and {b_name} {}", Braced(a), Braced(b)));
    }
    Ok(())
}

fn same_type_or(op: Opcode, what: &str, got: &Shape, expected: &Shape) -> Result<()> {
    if got.same_type(expected) { Ok(()) } else { err(op, format!("{what} has shape {got}, expected {expected}")) }
}

fn dtype_class(op: Opcode, what: &str, a: &ArrayShape, ok: impl Fn(DType) -> bool, expected: &str) -> Result<()> {
    if ok(a.dtype) { Ok(()) } else { err(op, format!("{what} has element type {}, expected {expected}", a.dtype)) }
}

fn checked(op: Opcode, what: &str, v: Option<i64>) -> Result<i64> {
    match v {
        Some(v) => Ok(v),
        None => err(op, format!("{what} overflows 64 bits")),
    }
}

fn declared_shape(op: Opcode, declared: Option<&Shape>) -> Result<&Shape> {
    declared.ok_or(ShapeError::NeedsDeclared { op })
}

fn declared_array(op: Opcode, declared: Option<&Shape>) -> Result<&ArrayShape> {
    array(op, "the result", declared_shape(op, declared)?)
}

fn expect_called(op: Opcode, called: &[ProgramShape], expected: Arity) -> Result<()> {
    if expected.accepts(called.len()) {
        Ok(())
    } else {
        Err(ShapeError::CalledCount { op, expected, got: called.len() })
    }
}

/// The computations an opcode calls: how many, by role.
pub fn called_arity(op: Opcode) -> Arity {
    match op {
        Opcode::Call
        | Opcode::Fusion
        | Opcode::Map
        | Opcode::Reduce
        | Opcode::ReduceWindow
        | Opcode::Scatter
        | Opcode::Sort => Arity::Fixed(1),
        Opcode::While | Opcode::SelectAndScatter => Arity::Fixed(2),
        Opcode::Conditional => Arity::AtLeast(1),
        Opcode::CustomCall => Arity::AtLeast(0),
        _ => Arity::Fixed(0),
    }
}

// ---- the entry point ----------------------------------------------------------

/// Infers the result shape of `op` applied to `operands` with `attrs`, calling
/// computations with signatures `called` (in the roles [`crate::Instruction::called`]
/// documents). `declared` is the stated result shape; it supplies what the operands
/// cannot (see the module docs) and is checked for consistency. The caller compares
/// the result with `declared` using [`Shape::same_type`].
pub fn infer_shape(
    op: Opcode,
    operands: &[&Shape],
    attrs: &Attrs,
    called: &[ProgramShape],
    declared: Option<&Shape>,
) -> Result<Shape> {
    if !op.arity().accepts(operands.len()) {
        return Err(ShapeError::OperandCount { op, expected: op.arity(), got: operands.len() });
    }
    if attrs.kind() != Attrs::kind_for(op) {
        return Err(ShapeError::AttrsKind { op, expected: Attrs::kind_for(op), got: attrs.kind() });
    }
    expect_called(op, called, called_arity(op))?;
    let wrong_attrs = || ShapeError::AttrsKind { op, expected: Attrs::kind_for(op), got: attrs.kind() };
    use Opcode as O;
    match op {
        O::Parameter | O::CustomCall => {
            let d = declared_shape(op, declared)?;
            validate_shape(op, "result shape", d)?;
            Ok(d.with_default_layout())
        }
        O::Constant => match attrs {
            // A complex constant's literal holds its parts.
            Attrs::Constant(lit) => match (infer_constant(lit)?, declared) {
                (s, Some(d)) if d.has_complex() && d.storage().same_type(&s) => Ok(d.with_default_layout()),
                (s, _) => Ok(s),
            },
            _ => Err(wrong_attrs()),
        },
        O::Iota => match attrs {
            Attrs::Iota { dimension } => {
                let d = declared_array(op, declared)?;
                infer_iota(d.dtype, &d.dims, *dimension)
            }
            _ => Err(wrong_attrs()),
        },
        O::Abs
        | O::Cbrt
        | O::Ceil
        | O::Clz
        | O::Cosine
        | O::Erf
        | O::Exp
        | O::Expm1
        | O::Floor
        | O::IsFinite
        | O::Log
        | O::Log1p
        | O::Logistic
        | O::Negate
        | O::Not
        | O::Popcnt
        | O::RoundNearestAfz
        | O::RoundNearestEven
        | O::Rsqrt
        | O::Sign
        | O::Sine
        | O::Sqrt
        | O::Tan
        | O::Tanh
        | O::Real
        | O::Imag
        | O::Copy => infer_unary(op, operands[0]),
        O::Complex => infer_complex(operands[0], operands[1]),
        O::Fft => match attrs {
            Attrs::Fft { kind, lengths } => infer_fft(operands[0], *kind, lengths),
            _ => Err(wrong_attrs()),
        },
        O::Convert => infer_convert(operands[0], declared_array(op, declared)?.dtype),
        O::BitcastConvert => infer_bitcast_convert(operands[0], declared_array(op, declared)?.dtype),
        O::ReducePrecision => match attrs {
            Attrs::ReducePrecision { exponent_bits, mantissa_bits } => {
                infer_reduce_precision(operands[0], *exponent_bits, *mantissa_bits)
            }
            _ => Err(wrong_attrs()),
        },
        O::Add
        | O::And
        | O::Atan2
        | O::Divide
        | O::Maximum
        | O::Minimum
        | O::Multiply
        | O::Or
        | O::Power
        | O::Remainder
        | O::ShiftLeft
        | O::ShiftRightArithmetic
        | O::ShiftRightLogical
        | O::Subtract
        | O::Xor => infer_binary(op, operands[0], operands[1]),
        O::Compare => match attrs {
            Attrs::Compare { direction, compare_type } => {
                infer_compare(operands[0], operands[1], *direction, *compare_type)
            }
            _ => Err(wrong_attrs()),
        },
        O::Select => infer_select(operands[0], operands[1], operands[2]),
        O::Clamp => infer_clamp(operands[0], operands[1], operands[2]),
        O::Bitcast => infer_bitcast(operands[0], declared_shape(op, declared)?),
        O::Broadcast => {
            let d = declared_array(op, declared)?;
            infer_broadcast(operands[0], &d.dims, attrs.dimensions())
        }
        O::Reshape => infer_reshape(operands[0], &declared_array(op, declared)?.dims),
        O::Transpose => infer_transpose(operands[0], attrs.dimensions()),
        O::Reverse => infer_reverse(operands[0], attrs.dimensions()),
        O::Concatenate => match attrs {
            Attrs::Concatenate { dimension } => infer_concatenate(operands, *dimension),
            _ => Err(wrong_attrs()),
        },
        O::Slice => match attrs {
            Attrs::Slice(s) => infer_slice(operands[0], s),
            _ => Err(wrong_attrs()),
        },
        O::DynamicSlice => match attrs {
            Attrs::DynamicSlice { sizes } => infer_dynamic_slice(operands[0], &operands[1..], sizes),
            _ => Err(wrong_attrs()),
        },
        O::DynamicUpdateSlice => infer_dynamic_update_slice(operands[0], operands[1], &operands[2..]),
        O::Pad => match attrs {
            Attrs::Pad(p) => infer_pad(operands[0], operands[1], p),
            _ => Err(wrong_attrs()),
        },
        O::Gather => match attrs {
            Attrs::Gather(g) => infer_gather(operands[0], operands[1], g),
            _ => Err(wrong_attrs()),
        },
        O::Scatter => match attrs {
            Attrs::Scatter(s) => infer_scatter(operands, s, &called[0]),
            _ => Err(wrong_attrs()),
        },
        O::Dot => match attrs {
            Attrs::Dot(d) => infer_dot(operands[0], operands[1], d, Some(declared_array(op, declared)?.dtype)),
            _ => Err(wrong_attrs()),
        },
        O::Convolution => match attrs {
            Attrs::Convolution(c) => {
                infer_convolution(operands[0], operands[1], c, Some(declared_array(op, declared)?.dtype))
            }
            _ => Err(wrong_attrs()),
        },
        O::Reduce => infer_reduce(operands, attrs.dimensions(), &called[0]),
        O::ReduceWindow => match attrs {
            Attrs::Window(w) => infer_reduce_window(operands, w, &called[0]),
            _ => Err(wrong_attrs()),
        },
        O::SelectAndScatter => match attrs {
            Attrs::Window(w) => {
                infer_select_and_scatter(operands[0], operands[1], operands[2], w, &called[0], &called[1])
            }
            _ => Err(wrong_attrs()),
        },
        O::Map => infer_map(operands, attrs.dimensions(), &called[0]),
        O::Sort => match attrs {
            Attrs::Sort { dimension, .. } => infer_sort(operands, *dimension, &called[0]),
            _ => Err(wrong_attrs()),
        },
        O::TopK => match attrs {
            Attrs::TopK { k, .. } => infer_topk(operands[0], *k),
            _ => Err(wrong_attrs()),
        },
        O::BatchNormTraining => match attrs {
            Attrs::BatchNorm { feature_index, .. } => {
                infer_batch_norm_training(operands[0], operands[1], operands[2], *feature_index)
            }
            _ => Err(wrong_attrs()),
        },
        O::BatchNormInference => match attrs {
            Attrs::BatchNorm { feature_index, .. } => infer_batch_norm_inference(
                operands[0],
                operands[1],
                operands[2],
                operands[3],
                operands[4],
                *feature_index,
            ),
            _ => Err(wrong_attrs()),
        },
        O::BatchNormGrad => match attrs {
            Attrs::BatchNorm { feature_index, .. } => {
                infer_batch_norm_grad(operands[0], operands[1], operands[2], operands[3], operands[4], *feature_index)
            }
            _ => Err(wrong_attrs()),
        },
        O::Rng => match attrs {
            Attrs::Rng { distribution } => {
                infer_rng(operands[0], operands[1], *distribution, declared_array(op, declared)?)
            }
            _ => Err(wrong_attrs()),
        },
        O::RngBitGenerator => match attrs {
            Attrs::RngBitGenerator { algorithm } => {
                infer_rng_bit_generator(operands[0], *algorithm, declared_shape(op, declared)?)
            }
            _ => Err(wrong_attrs()),
        },
        O::RngGetAndUpdateState => Ok(Shape::array(DType::U64, [2])),
        O::Call | O::Fusion => infer_call(op, operands, &called[0]),
        O::Conditional => infer_conditional(operands[0], &operands[1..], called),
        O::While => infer_while(operands[0], &called[0], &called[1]),
        O::Tuple => Ok(infer_tuple(operands)),
        O::GetTupleElement => match attrs {
            Attrs::GetTupleElement { index } => infer_get_tuple_element(operands[0], *index),
            _ => Err(wrong_attrs()),
        },
        O::OptimizationBarrier => Ok(operands[0].with_default_layout()),
        O::AfterAll => infer_after_all(operands),
        O::AddDependency => infer_add_dependency(operands[0], operands[1]),
        O::PartitionId | O::ReplicaId => Ok(Shape::scalar(DType::U32)),
        O::GetDimensionSize => infer_get_dimension_size(operands[0], attrs.dimensions()),
    }
}

// ---- leaves -------------------------------------------------------------------

/// The shape of a constant: its literal's, once the literal is checked to hold as
/// many elements as its dimensions say.
pub fn infer_constant(lit: &crate::literal::Literal) -> Result<Shape> {
    for leaf in lit.leaves() {
        let want = element_count(&leaf.dims);
        if want != i64::try_from(leaf.len()).ok() {
            return err(
                Opcode::Constant,
                format!(
                    "literal has {} elements, but its dimensions {} hold {}",
                    leaf.len(),
                    Braced(&leaf.dims),
                    want.map_or("too many".to_string(), |n| n.to_string())
                ),
            );
        }
    }
    let shape = lit.shape();
    validate_shape(Opcode::Constant, "literal shape", &shape)?;
    Ok(shape)
}

/// `iota`: a non-scalar numeric array counting along `dimension`.
pub fn infer_iota(dtype: DType, dims: &[i64], dimension: i64) -> Result<Shape> {
    let op = Opcode::Iota;
    if dtype == DType::Pred {
        return err(op, "element type must be numeric, got pred");
    }
    if dims.is_empty() {
        return err(op, "the result must not be a scalar");
    }
    axis(op, "iota_dimension", dimension, dims.len())?;
    finish(op, ArrayShape::new(dtype, dims))
}

// ---- elementwise --------------------------------------------------------------

/// Elementwise unary ops (and `copy`, which also takes tuples).
pub fn infer_unary(op: Opcode, x: &Shape) -> Result<Shape> {
    use Opcode as O;
    if op == O::Copy {
        return Ok(x.with_default_layout());
    }
    let a = array(op, "operand", x)?;
    let float = |d: DType| d.is_float();
    let float_or_complex = |d: DType| d.is_float() || d.is_complex();
    match op {
        O::Ceil | O::Floor | O::RoundNearestAfz | O::RoundNearestEven | O::Cbrt | O::Erf | O::Logistic => {
            dtype_class(op, "operand", a, float, "a floating-point type")?
        }
        O::Cosine | O::Exp | O::Expm1 | O::Log | O::Log1p | O::Rsqrt | O::Sine | O::Sqrt | O::Tan | O::Tanh => {
            dtype_class(op, "operand", a, float_or_complex, "a floating-point or complex type")?
        }
        // The magnitude of a complex number is real.
        O::Abs if a.dtype.is_complex() => return finish(op, ArrayShape::new(a.dtype.component(), &a.dims)),
        O::Abs | O::Sign => dtype_class(
            op,
            "operand",
            a,
            |d| d.is_float() || d.is_signed_int() || d.is_complex(),
            "a signed, floating-point or complex type",
        )?,
        O::Negate => dtype_class(
            op,
            "operand",
            a,
            |d| d.is_float() || d.is_int() || d.is_complex(),
            "an integer, floating-point or complex type",
        )?,
        O::Real | O::Imag => {
            dtype_class(op, "operand", a, float_or_complex, "a floating-point or complex type")?;
            return finish(op, ArrayShape::new(a.dtype.component(), &a.dims));
        }
        O::Clz | O::Popcnt => dtype_class(op, "operand", a, DType::is_int, "an integer type")?,
        O::Not => dtype_class(op, "operand", a, DType::is_integral, "pred or an integer type")?,
        O::IsFinite => {
            dtype_class(op, "operand", a, float, "a floating-point type")?;
            return finish(op, ArrayShape::new(DType::Pred, &a.dims));
        }
        _ => return err(op, "is not an elementwise unary operation"),
    }
    finish(op, ArrayShape::new(a.dtype, &a.dims))
}

/// `convert` to `dtype`: any array type to any other, except complex to real
/// (XLA leaves that undefined; programs take `real` first).
pub fn infer_convert(x: &Shape, dtype: DType) -> Result<Shape> {
    let a = array(Opcode::Convert, "operand", x)?;
    if a.dtype.is_complex() && !dtype.is_complex() {
        return err(Opcode::Convert, format!("converting {} to {dtype} is not defined; take its real part", a.dtype));
    }
    finish(Opcode::Convert, ArrayShape::new(dtype, &a.dims))
}

/// `complex(real, imag)`: f32 or f64 parts of identical shapes.
pub fn infer_complex(re: &Shape, im: &Shape) -> Result<Shape> {
    let op = Opcode::Complex;
    let a = array(op, "operand 0", re)?;
    array(op, "operand 1", im)?;
    let Some(complex) = a.dtype.complex_of() else {
        return err(op, format!("operand 0 has element type {}, expected f32 or f64", a.dtype));
    };
    same_type_or(op, "operand 1", im, &re.with_default_layout())?;
    finish(op, ArrayShape::new(complex, &a.dims))
}

/// `fft` over the innermost `lengths.len()` (1 to 3) dimensions: FFT and IFFT
/// keep a complex shape, RFFT takes a real one whose innermost dimensions are
/// `lengths` and keeps `n / 2 + 1` of the last, IRFFT inverts that.
pub fn infer_fft(x: &Shape, kind: FftKind, lengths: &[i64]) -> Result<Shape> {
    let op = Opcode::Fft;
    let a = array(op, "operand", x)?;
    let l = lengths.len();
    if !(1..=3).contains(&l) || a.rank() < l || lengths.iter().any(|&n| n < 0) {
        return err(op, format!("fft_length {} does not fit an operand of rank {}", Braced(lengths), a.rank()));
    }
    let inner = &a.dims[a.rank() - l..];
    let half = |n: i64| if n == 0 { 0 } else { n / 2 + 1 };
    let mut dims = a.dims.clone();
    let dtype = match kind {
        FftKind::Fft | FftKind::Ifft => {
            dtype_class(op, "operand", a, DType::is_complex, "a complex type")?;
            if inner != lengths {
                return err(
                    op,
                    format!("innermost dimensions {} differ from fft_length {}", Braced(inner), Braced(lengths)),
                );
            }
            a.dtype
        }
        FftKind::Rfft => {
            let Some(c) = a.dtype.complex_of() else {
                return err(op, format!("RFFT of {}, expected f32 or f64", a.dtype));
            };
            if inner != lengths {
                return err(
                    op,
                    format!("innermost dimensions {} differ from fft_length {}", Braced(inner), Braced(lengths)),
                );
            }
            dims[a.rank() - 1] = half(lengths[l - 1]);
            c
        }
        FftKind::Irfft => {
            dtype_class(op, "operand", a, DType::is_complex, "a complex type")?;
            if inner[..l - 1] != lengths[..l - 1] || inner[l - 1] != half(lengths[l - 1]) {
                return err(
                    op,
                    format!("IRFFT of innermost dimensions {} for fft_length {}", Braced(inner), Braced(lengths)),
                );
            }
            dims[a.rank() - 1] = lengths[l - 1];
            a.dtype.component()
        }
    };
    finish(op, ArrayShape::new(dtype, dims))
}

/// `bitcast-convert` to `dtype`. Equal widths keep the dimensions; a narrower
/// target appends a minor dimension of the width ratio (f32[64] -> u8[64,4]); a
/// wider target consumes a minor dimension equal to the ratio (u8[64,4] -> f32[64]).
pub fn infer_bitcast_convert(x: &Shape, dtype: DType) -> Result<Shape> {
    let op = Opcode::BitcastConvert;
    let a = array(op, "operand", x)?;
    let from = a.dtype.bit_width() as i64;
    let to = dtype.bit_width() as i64;
    let mut dims = a.dims.clone();
    if from > to {
        dims.push(from / to);
    } else if from < to {
        let ratio = to / from;
        if dims.last() != Some(&ratio) {
            return err(
                op,
                format!(
                    "converting {} to the wider {dtype} needs a last dimension of {ratio}, \
                     got {x}",
                    a.dtype
                ),
            );
        }
        dims.pop();
    }
    finish(op, ArrayShape::new(dtype, dims))
}

pub fn infer_reduce_precision(x: &Shape, exponent_bits: i64, mantissa_bits: i64) -> Result<Shape> {
    let op = Opcode::ReducePrecision;
    let a = array(op, "operand", x)?;
    dtype_class(op, "operand", a, DType::is_float, "a floating-point type")?;
    if exponent_bits < 1 {
        return err(op, format!("exponent_bits must be at least 1, got {exponent_bits}"));
    }
    if mantissa_bits < 0 {
        return err(op, format!("mantissa_bits must be non-negative, got {mantissa_bits}"));
    }
    finish(op, ArrayShape::new(a.dtype, &a.dims))
}

/// Elementwise binary ops other than `compare`: operands of identical type and
/// dimensions. Arithmetic excludes pred; shifts take integers, atan2 floats,
/// and/or/xor pred or integers.
pub fn infer_binary(op: Opcode, lhs: &Shape, rhs: &Shape) -> Result<Shape> {
    use Opcode as O;
    let a = array(op, "operand 0", lhs)?;
    array(op, "operand 1", rhs)?;
    match op {
        O::Add | O::Maximum | O::Minimum | O::Multiply => {}
        O::Subtract | O::Divide | O::Power => {
            dtype_class(op, "operand 0", a, |d| d != DType::Pred, "an integer or floating-point type")?
        }
        O::Remainder => dtype_class(
            op,
            "operand 0",
            a,
            |d| d != DType::Pred && !d.is_complex(),
            "an integer or floating-point type",
        )?,
        O::Atan2 => dtype_class(op, "operand 0", a, DType::is_float, "a floating-point type")?,
        O::ShiftLeft | O::ShiftRightArithmetic | O::ShiftRightLogical => {
            dtype_class(op, "operand 0", a, DType::is_int, "an integer type")?
        }
        O::And | O::Or | O::Xor => dtype_class(op, "operand 0", a, DType::is_integral, "pred or an integer type")?,
        _ => return err(op, "is not an elementwise binary operation"),
    }
    same_type_or(op, "operand 1", rhs, &lhs.with_default_layout())?;
    finish(op, ArrayShape::new(a.dtype, &a.dims))
}

/// `compare`: operands of identical type and dimensions, a pred result. An explicit
/// comparison type must suit the element type (FLOAT or TOTALORDER for floats,
/// SIGNED for signed integers, UNSIGNED for unsigned integers and pred).
pub fn infer_compare(
    lhs: &Shape,
    rhs: &Shape,
    direction: ComparisonDirection,
    compare_type: Option<CompareType>,
) -> Result<Shape> {
    let op = Opcode::Compare;
    let a = array(op, "operand 0", lhs)?;
    array(op, "operand 1", rhs)?;
    same_type_or(op, "operand 1", rhs, &lhs.with_default_layout())?;
    if let Some(t) = compare_type {
        let ok = match t {
            CompareType::Float | CompareType::TotalOrder => a.dtype.is_float(),
            CompareType::Signed => a.dtype.is_signed_int(),
            CompareType::Unsigned => a.dtype.is_unsigned_int() || a.dtype == DType::Pred,
        };
        if !ok {
            return err(op, format!("comparison type {} does not suit {} operands", t.name(), a.dtype));
        }
    }
    if a.dtype.is_complex() && !matches!(direction, ComparisonDirection::Eq | ComparisonDirection::Ne) {
        return err(op, format!("complex numbers are not ordered: {} of {} operands", direction.name(), a.dtype));
    }
    finish(op, ArrayShape::new(DType::Pred, &a.dims))
}

/// `select(pred, on_true, on_false)`: pred has on_true's dimensions.
pub fn infer_select(pred: &Shape, on_true: &Shape, on_false: &Shape) -> Result<Shape> {
    let op = Opcode::Select;
    let p = array(op, "operand 0", pred)?;
    let t = array(op, "operand 1", on_true)?;
    array(op, "operand 2", on_false)?;
    dtype_class(op, "operand 0", p, |d| d == DType::Pred, "pred")?;
    same_type_or(op, "operand 2", on_false, &on_true.with_default_layout())?;
    if p.dims != t.dims {
        return err(op, format!("operand 0 has shape {pred}, expected dimensions {}", Braced(&t.dims)));
    }
    finish(op, ArrayShape::new(t.dtype, &t.dims))
}

/// `clamp(min, operand, max)`: the bounds have the operand's shape or are scalars of
/// its element type.
pub fn infer_clamp(min: &Shape, x: &Shape, max: &Shape) -> Result<Shape> {
    let op = Opcode::Clamp;
    let a = array(op, "operand 1", x)?;
    let scalar = scalar_of(a.dtype);
    let full = x.with_default_layout();
    for (i, bound) in [(0, min), (2, max)] {
        if !bound.same_type(&full) && !bound.same_type(&scalar) {
            return err(op, format!("operand {i} has shape {bound}, expected {full} or {scalar}"));
        }
    }
    finish(op, ArrayShape::new(a.dtype, &a.dims))
}

// ---- data movement ------------------------------------------------------------

/// `bitcast` to `declared`: a reinterpretation of the same bytes, so the byte sizes
/// must agree.
pub fn infer_bitcast(x: &Shape, declared: &Shape) -> Result<Shape> {
    let op = Opcode::Bitcast;
    let a = array(op, "operand", x)?;
    let d = array(op, "the result", declared)?;
    validate_shape(op, "result shape", declared)?;
    let bytes = |s: &ArrayShape| element_count(&s.dims).and_then(|n| n.checked_mul(s.dtype.byte_size() as i64));
    if bytes(a) != bytes(d) {
        return err(op, format!("result {declared} and operand {x} differ in byte size"));
    }
    Ok(declared.with_default_layout())
}

/// HLO's `broadcast`: operand dimension `i` becomes result dimension
/// `broadcast_dimensions[i]`, with the same size; the other result dimensions are new.
pub fn infer_broadcast(x: &Shape, out_dims: &[i64], broadcast_dimensions: &[i64]) -> Result<Shape> {
    let op = Opcode::Broadcast;
    let a = array(op, "operand", x)?;
    if broadcast_dimensions.len() != a.rank() {
        return err(
            op,
            format!(
                "dimensions {} must name one result dimension per operand dimension ({})",
                Braced(broadcast_dimensions),
                a.rank()
            ),
        );
    }
    let result = finish(op, ArrayShape::new(a.dtype, out_dims))?;
    let axes = distinct_axes(op, "broadcast dimension", broadcast_dimensions, out_dims.len())?;
    for (i, &o) in axes.iter().enumerate() {
        if a.dims[i] != out_dims[o] {
            return err(
                op,
                format!(
                    "operand dimension {i} (size {}) maps to result dimension {o} of size {}",
                    a.dims[i], out_dims[o]
                ),
            );
        }
    }
    Ok(result)
}

/// `reshape` to `dims`: the element count is kept.
pub fn infer_reshape(x: &Shape, dims: &[i64]) -> Result<Shape> {
    let op = Opcode::Reshape;
    let a = array(op, "operand", x)?;
    let result = finish(op, ArrayShape::new(a.dtype, dims))?;
    let from = element_count(&a.dims);
    let to = element_count(dims);
    if from != to {
        return err(op, format!("cannot reshape {x} to {result}: element counts differ"));
    }
    Ok(result)
}

/// `transpose`: result dimension `i` is operand dimension `permutation[i]`.
pub fn infer_transpose(x: &Shape, permutation: &[i64]) -> Result<Shape> {
    let op = Opcode::Transpose;
    let a = array(op, "operand", x)?;
    if permutation.len() != a.rank() {
        return err(op, format!("dimensions {} are not a permutation of rank {}", Braced(permutation), a.rank()));
    }
    let axes = distinct_axes(op, "transpose dimension", permutation, a.rank())?;
    let dims: Dims = axes.iter().map(|&i| a.dims[i]).collect();
    finish(op, ArrayShape::new(a.dtype, dims))
}

/// `get-dimension-size`: the size of one dimension of the operand, as `s32[]`
/// (shapes are static, so it is a constant of the operand's shape).
pub fn infer_get_dimension_size(x: &Shape, dims: &[i64]) -> Result<Shape> {
    let op = Opcode::GetDimensionSize;
    let a = array(op, "operand", x)?;
    match dims {
        [d] if usize::try_from(*d).is_ok_and(|d| d < a.rank()) => Ok(Shape::scalar(DType::S32)),
        _ => err(op, format!("dimensions={dims:?} must name one dimension of {x}")),
    }
}

pub fn infer_reverse(x: &Shape, dims: &[i64]) -> Result<Shape> {
    let op = Opcode::Reverse;
    let a = array(op, "operand", x)?;
    distinct_axes(op, "reverse dimension", dims, a.rank())?;
    finish(op, ArrayShape::new(a.dtype, &a.dims))
}

/// `slice`: per dimension `0 <= start <= limit <= size` and `stride >= 1`; the result
/// has `ceil((limit - start) / stride)` elements there.
pub fn infer_slice(x: &Shape, slice: &[SliceDim]) -> Result<Shape> {
    let op = Opcode::Slice;
    let a = array(op, "operand", x)?;
    if slice.len() != a.rank() {
        return err(op, format!("slice has {} dimensions, operand {x} has rank {}", slice.len(), a.rank()));
    }
    let mut dims = Dims::new();
    for (i, (s, &size)) in slice.iter().zip(&a.dims).enumerate() {
        if s.start < 0 || s.start > s.limit || s.limit > size {
            return err(
                op,
                format!("dimension {i}: [{}:{}] is not within 0..{size} (start <= limit required)", s.start, s.limit),
            );
        }
        if s.stride < 1 {
            return err(op, format!("dimension {i}: stride {} must be positive", s.stride));
        }
        let span = s.limit - s.start;
        dims.push(span / s.stride + i64::from(span % s.stride != 0));
    }
    finish(op, ArrayShape::new(a.dtype, dims))
}

/// Start indices of dynamic-slice and dynamic-update-slice: one integer scalar per
/// operand dimension, all of one type (or, as XLA once spelled it, a single rank-1
/// array of them).
fn check_start_indices(op: Opcode, first: usize, rank: usize, indices: &[&Shape]) -> Result<()> {
    if let [only] = indices
        && let Shape::Array(v) = only
        && v.rank() == 1
    {
        dtype_class(op, &format!("operand {first}"), v, DType::is_int, "an integer type")?;
        if v.dims[0] != rank as i64 {
            return err(op, format!("start index vector {only} must have {rank} elements"));
        }
        return Ok(());
    }
    if indices.len() != rank {
        return err(op, format!("expected {rank} start indices (one per dimension), got {}", indices.len()));
    }
    for (k, s) in indices.iter().enumerate() {
        let what = format!("operand {}", first + k);
        let a = array(op, &what, s)?;
        if a.rank() != 0 {
            return err(op, format!("{what} has shape {s}, expected an integer scalar"));
        }
        dtype_class(op, &what, a, DType::is_int, "an integer type")?;
        if !s.same_type(indices[0]) {
            return err(op, format!("{what} has shape {s}, expected {} like operand {first}", indices[0]));
        }
    }
    Ok(())
}

pub fn infer_dynamic_slice(x: &Shape, start_indices: &[&Shape], sizes: &[i64]) -> Result<Shape> {
    let op = Opcode::DynamicSlice;
    let a = array(op, "operand 0", x)?;
    check_start_indices(op, 1, a.rank(), start_indices)?;
    if sizes.len() != a.rank() {
        return err(op, format!("dynamic_slice_sizes {} must have {} entries", Braced(sizes), a.rank()));
    }
    for (i, (&s, &d)) in sizes.iter().zip(&a.dims).enumerate() {
        if s < 0 || s > d {
            return err(op, format!("slice size {s} in dimension {i} is not within 0..={d}"));
        }
    }
    finish(op, ArrayShape::new(a.dtype, sizes))
}

pub fn infer_dynamic_update_slice(x: &Shape, update: &Shape, start_indices: &[&Shape]) -> Result<Shape> {
    let op = Opcode::DynamicUpdateSlice;
    let a = array(op, "operand 0", x)?;
    let u = array(op, "operand 1", update)?;
    check_start_indices(op, 2, a.rank(), start_indices)?;
    if u.rank() != a.rank() || u.dtype != a.dtype {
        return err(op, format!("update {update} must have the rank and element type of operand {x}"));
    }
    if let Some(i) = (0..a.rank()).find(|&i| u.dims[i] > a.dims[i]) {
        return err(op, format!("update {update} is larger than operand {x} in dimension {i}"));
    }
    finish(op, ArrayShape::new(a.dtype, &a.dims))
}

/// `concatenate` along `dimension`: operands agree in element type and every other
/// dimension.
pub fn infer_concatenate(xs: &[&Shape], dimension: i64) -> Result<Shape> {
    let op = Opcode::Concatenate;
    let Some(first) = xs.first() else {
        return Err(ShapeError::OperandCount { op, expected: op.arity(), got: 0 });
    };
    let a = array(op, "operand 0", first)?;
    let d = axis(op, "concatenate dimension", dimension, a.rank())?;
    let mut dims = a.dims.clone();
    for (k, s) in xs.iter().enumerate().skip(1) {
        let what = format!("operand {k}");
        let b = array(op, &what, s)?;
        let mut expected = b.dims.clone();
        if expected.len() == a.rank() {
            expected[d] = a.dims[d];
        }
        if b.dtype != a.dtype || expected != a.dims {
            return err(
                op,
                format!("{what} has shape {s}, which differs from operand 0 {first} outside dimension {d}"),
            );
        }
        dims[d] = checked(op, "concatenated size", dims[d].checked_add(b.dims[d]))?;
    }
    finish(op, ArrayShape::new(a.dtype, dims))
}

/// `pad`: each dimension grows by `low + high + interior * (size - 1)`; edge
/// padding may be negative, interior padding may not.
pub fn infer_pad(x: &Shape, value: &Shape, padding: &[PadDim]) -> Result<Shape> {
    let op = Opcode::Pad;
    let a = array(op, "operand 0", x)?;
    same_type_or(op, "padding value", value, &scalar_of(a.dtype))?;
    if padding.len() != a.rank() {
        return err(op, format!("padding has {} dimensions, operand {x} has rank {}", padding.len(), a.rank()));
    }
    let mut dims = Dims::new();
    for (i, (p, &size)) in padding.iter().zip(&a.dims).enumerate() {
        if p.interior < 0 {
            return err(op, format!("interior padding {} in dimension {i} is negative", p.interior));
        }
        let grown = (size.max(1) - 1)
            .checked_mul(p.interior)
            .and_then(|v| v.checked_add(size))
            .and_then(|v| v.checked_add(p.low))
            .and_then(|v| v.checked_add(p.high));
        let n = checked(op, &format!("padded size of dimension {i}"), grown)?;
        if n < 0 {
            return err(op, format!("padding makes dimension {i} negative ({n})"));
        }
        dims.push(n);
    }
    finish(op, ArrayShape::new(a.dtype, dims))
}

// ---- reductions and windows ---------------------------------------------------

/// Checks a reducer `(T1..Tn, T1..Tn) -> (T1..Tn)` (or `(T, T) -> T` for one input):
/// accumulators are scalars, init values match them, and the second half of the
/// parameters takes the input element types. Returns the accumulator shapes.
fn check_reducer(op: Opcode, reducer: &ProgramShape, inits: &[&Shape], input_types: &[DType]) -> Result<Vec<Shape>> {
    let n = input_types.len();
    if reducer.params.len() != 2 * n {
        return err(op, format!("reducer {reducer} must take {} parameters, not {}", 2 * n, reducer.params.len()));
    }
    let accs: Vec<Shape> = match &reducer.result {
        Shape::Array(_) if n == 1 => vec![reducer.result.clone()],
        Shape::Tuple(t) if t.len() == n => t.clone(),
        _ => {
            return err(op, format!("reducer {reducer} must return {n} scalar(s), got {}", reducer.result));
        }
    };
    for (i, acc) in accs.iter().enumerate() {
        if !is_scalar(acc) {
            return err(op, format!("reducer {reducer} must return scalars, got {}", reducer.result));
        }
        let acc = acc.with_default_layout();
        same_type_or(op, &format!("reducer parameter {i}"), &reducer.params[i], &acc)?;
        same_type_or(op, &format!("init value {i}"), inits[i], &acc)?;
        same_type_or(op, &format!("reducer parameter {}", n + i), &reducer.params[n + i], &scalar_of(input_types[i]))?;
        same_type_or(op, &format!("reducer parameter {}", n + i), &reducer.params[n + i], &acc)?;
    }
    Ok(accs)
}

/// Splits `inputs ++ inits` of reduce and reduce-window, checking the inputs are
/// arrays of one shape (element types may differ).
fn split_inputs<'a>(op: Opcode, operands: &'a [&'a Shape]) -> Result<(Vec<&'a ArrayShape>, &'a [&'a Shape])> {
    if operands.len() < 2 || !operands.len().is_multiple_of(2) {
        return err(op, format!("expected inputs and as many init values, got {} operands", operands.len()));
    }
    let (inputs, inits) = operands.split_at(operands.len() / 2);
    let mut arrays: Vec<&ArrayShape> = Vec::with_capacity(inputs.len());
    for (i, s) in inputs.iter().enumerate() {
        let a = array(op, &format!("operand {i}"), s)?;
        if let Some(first) = arrays.first().copied()
            && a.dims != first.dims
        {
            return err(op, format!("operand {i} has shape {s}, expected dimensions {}", Braced(&first.dims)));
        }
        arrays.push(a);
    }
    Ok((arrays, inits))
}

/// Builds the result of a variadic reduction: one array per accumulator, or a single
/// array when the reducer returns one.
fn reduction_result(op: Opcode, reducer: &ProgramShape, accs: &[Shape], dims: &[i64]) -> Result<Shape> {
    let arrays: Vec<Shape> = accs
        .iter()
        .map(|acc| {
            let dtype = acc.as_array().map_or(DType::F32, |a| a.dtype);
            finish(op, ArrayShape::new(dtype, dims))
        })
        .collect::<Result<_>>()?;
    match (&reducer.result, arrays.as_slice()) {
        (Shape::Array(_), [one]) => Ok(one.clone()),
        _ => Ok(Shape::Tuple(arrays)),
    }
}

/// `reduce(inputs..., inits...)` over `dimensions` with `reducer`.
pub fn infer_reduce(operands: &[&Shape], dimensions: &[i64], reducer: &ProgramShape) -> Result<Shape> {
    let op = Opcode::Reduce;
    let (inputs, inits) = split_inputs(op, operands)?;
    let first = inputs[0];
    let axes = distinct_axes(op, "reduced dimension", dimensions, first.rank())?;
    let types: Vec<DType> = inputs.iter().map(|a| a.dtype).collect();
    let accs = check_reducer(op, reducer, inits, &types)?;
    let kept: Dims = (0..first.rank()).filter(|i| !axes.contains(i)).map(|i| first.dims[i]).collect();
    reduction_result(op, reducer, &accs, &kept)
}

/// Output dimensions of a window slid over `base`: XLA's dilated, padded, strided
/// bound per dimension.
pub fn window_output_dims(op: Opcode, base: &[i64], window: &Window) -> Result<Dims> {
    if window.dims.len() != base.len() {
        return err(op, format!("window has {} dimensions, the operand has rank {}", window.dims.len(), base.len()));
    }
    let mut out = Dims::new();
    for (i, (w, &b)) in window.dims.iter().zip(base).enumerate() {
        if w.size < 1 || w.stride < 1 || w.base_dilation < 1 || w.window_dilation < 1 {
            return err(
                op,
                format!(
                    "window dimension {i} needs positive size, stride and dilations \
                     (size={} stride={} lhs_dilate={} rhs_dilate={})",
                    w.size, w.stride, w.base_dilation, w.window_dilation
                ),
            );
        }
        let what = format!("window dimension {i}");
        let dilated_base =
            if b <= 0 { Some(0) } else { (b - 1).checked_mul(w.base_dilation).and_then(|v| v.checked_add(1)) };
        let padded = dilated_base.and_then(|v| v.checked_add(w.pad_low)).and_then(|v| v.checked_add(w.pad_high));
        let padded = checked(op, &what, padded)?;
        let dilated_window =
            checked(op, &what, (w.size - 1).checked_mul(w.window_dilation).and_then(|v| v.checked_add(1)))?;
        out.push(if dilated_window > padded { 0 } else { (padded - dilated_window) / w.stride + 1 });
    }
    Ok(out)
}

/// `reduce-window(inputs..., inits...)`.
pub fn infer_reduce_window(operands: &[&Shape], window: &Window, reducer: &ProgramShape) -> Result<Shape> {
    let op = Opcode::ReduceWindow;
    let (inputs, inits) = split_inputs(op, operands)?;
    let types: Vec<DType> = inputs.iter().map(|a| a.dtype).collect();
    let accs = check_reducer(op, reducer, inits, &types)?;
    let dims = window_output_dims(op, &inputs[0].dims, window)?;
    reduction_result(op, reducer, &accs, &dims)
}

/// `select-and-scatter(operand, source, init)`: `select: (T, T) -> pred[]` picks an
/// element per window, `scatter` reduces source values into it; `source` has the
/// windowed shape of `operand`.
pub fn infer_select_and_scatter(
    x: &Shape,
    source: &Shape,
    init: &Shape,
    window: &Window,
    select: &ProgramShape,
    scatter: &ProgramShape,
) -> Result<Shape> {
    let op = Opcode::SelectAndScatter;
    let a = array(op, "operand 0", x)?;
    let s = array(op, "operand 1", source)?;
    let elem = scalar_of(a.dtype);
    if select.params.len() != 2 {
        return err(op, format!("select {select} must take 2 parameters"));
    }
    for (i, p) in select.params.iter().enumerate() {
        same_type_or(op, &format!("select parameter {i}"), p, &elem)?;
    }
    same_type_or(op, "select result", &select.result, &scalar_of(DType::Pred))?;
    check_reducer(op, scatter, &[init], &[s.dtype])?;
    let windowed = ArrayShape::new(a.dtype, window_output_dims(op, &a.dims, window)?);
    same_type_or(op, "operand 1", source, &Shape::Array(windowed))?;
    finish(op, ArrayShape::new(a.dtype, &a.dims))
}

// ---- contractions -------------------------------------------------------------

/// The result element type of a dot or convolution of `lhs` and `rhs`: one
/// element type for both ([`result_type`]), or two integer types (an
/// extension of XLA's rule: quantized layers' u8 activations times s8
/// weights) with a declared signed result of at least 32 bits.
fn product_type(
    op: Opcode,
    (lhs, l): (&Shape, DType),
    (rhs, r): (&Shape, DType),
    preferred: Option<DType>,
) -> Result<DType> {
    if l == r {
        return result_type(op, l, preferred);
    }
    if !(l.is_int() && r.is_int()) {
        return err(op, format!("operands have different element types: {lhs} and {rhs}"));
    }
    match preferred {
        Some(to) if to.is_signed_int() && to.bit_width() >= 32 => Ok(to),
        _ => err(op, format!("products of {l} and {r} operands need a signed result of at least 32 bits")),
    }
}

/// The result element type of dot and convolution: `preferred` (the declared type)
/// if it does not lose information XLA cares about, else the operand type.
fn result_type(op: Opcode, from: DType, preferred: Option<DType>) -> Result<DType> {
    let Some(to) = preferred else {
        return Ok(from);
    };
    let ok = if from.is_float() {
        to.is_float()
    } else if from.is_int() {
        to.is_float()
            || (to.is_int() && to.is_signed_int() == from.is_signed_int() && to.bit_width() >= from.bit_width())
    } else {
        true
    };
    if ok { Ok(to) } else { err(op, format!("result element type {to} cannot hold products of {from} operands")) }
}

/// `dot` with general dimension numbers: the result dimensions are the batch
/// dimensions, then lhs free dimensions, then rhs free dimensions. The result type is
/// `preferred` (XLA's preferred_element_type) when given.
pub fn infer_dot(lhs: &Shape, rhs: &Shape, dims: &DotDims, preferred: Option<DType>) -> Result<Shape> {
    let op = Opcode::Dot;
    let l = array(op, "lhs", lhs)?;
    let r = array(op, "rhs", rhs)?;
    let dtype = product_type(op, (lhs, l.dtype), (rhs, r.dtype), preferred)?;
    if dims.lhs_batch.len() != dims.rhs_batch.len() {
        return err(op, "lhs and rhs must have as many batch dimensions");
    }
    if dims.lhs_contracting.len() != dims.rhs_contracting.len() {
        return err(op, "lhs and rhs must have as many contracting dimensions");
    }
    let side = |a: &ArrayShape, batch: &[i64], contracting: &[i64], name: &str| -> Result<(Vec<usize>, Vec<usize>)> {
        let all: Dims = batch.iter().chain(contracting).copied().collect();
        distinct_axes(op, &format!("{name} batch or contracting dimension"), &all, a.rank())?;
        let b = batch.iter().map(|&d| d as usize).collect();
        let c = contracting.iter().map(|&d| d as usize).collect();
        Ok((b, c))
    };
    let (lb, lc) = side(l, &dims.lhs_batch, &dims.lhs_contracting, "lhs")?;
    let (rb, rc) = side(r, &dims.rhs_batch, &dims.rhs_contracting, "rhs")?;
    for (&i, &j) in lb.iter().zip(&rb) {
        if l.dims[i] != r.dims[j] {
            return err(
                op,
                format!(
                    "batch dimension sizes differ: lhs dimension {i} is {}, rhs dimension {j} is {}",
                    l.dims[i], r.dims[j]
                ),
            );
        }
    }
    for (&i, &j) in lc.iter().zip(&rc) {
        if l.dims[i] != r.dims[j] {
            return err(
                op,
                format!(
                    "contracting dimension sizes differ: lhs dimension {i} is {}, rhs dimension {j} is {}",
                    l.dims[i], r.dims[j]
                ),
            );
        }
    }
    let mut out: Dims = lb.iter().map(|&i| l.dims[i]).collect();
    out.extend((0..l.rank()).filter(|i| !lb.contains(i) && !lc.contains(i)).map(|i| l.dims[i]));
    out.extend((0..r.rank()).filter(|i| !rb.contains(i) && !rc.contains(i)).map(|i| r.dims[i]));
    finish(op, ArrayShape::new(dtype, out))
}

/// `convolution`, as XLA defines it: `dim_labels` name the batch, feature and
/// spatial dimensions of input, kernel and output; the window gives strides,
/// padding and dilations; `feature_group_count` splits input features into groups
/// (depthwise convolution), `batch_group_count` splits the batch (filter gradients).
pub fn infer_convolution(lhs: &Shape, rhs: &Shape, conv: &ConvAttrs, preferred: Option<DType>) -> Result<Shape> {
    let op = Opcode::Convolution;
    let l = array(op, "lhs", lhs)?;
    let r = array(op, "rhs", rhs)?;
    let dtype = product_type(op, (lhs, l.dtype), (rhs, r.dtype), preferred)?;
    let (fgc, bgc) = (conv.feature_group_count, conv.batch_group_count);
    if fgc < 1 || bgc < 1 {
        return err(op, format!("feature_group_count ({fgc}) and batch_group_count ({bgc}) must be positive"));
    }
    if fgc > 1 && bgc > 1 {
        return err(op, "feature_group_count and batch_group_count cannot both exceed 1");
    }
    let d = &conv.dims;
    let ns = d.input_spatial.len();
    if d.kernel_spatial.len() != ns || d.output_spatial.len() != ns {
        return err(op, format!("dim_labels {d} have different numbers of spatial dimensions"));
    }
    if conv.window.dims.len() != ns {
        return err(
            op,
            format!("window has {} dimensions, dim_labels {d} have {ns} spatial dimensions", conv.window.dims.len()),
        );
    }
    let rank = ns + 2;
    if l.rank() != rank || r.rank() != rank {
        return err(op, format!("lhs {lhs} and rhs {rhs} must have rank {rank}"));
    }
    let perm = |name: &str, a: i64, b: i64, spatial: &[i64]| -> Result<Vec<usize>> {
        let all: Dims = [a, b].into_iter().chain(spatial.iter().copied()).collect();
        distinct_axes(op, &format!("{name} dimension label"), &all, rank)
    };
    let ip = perm("input", d.input_batch, d.input_feature, &d.input_spatial)?;
    let kp = perm("kernel", d.kernel_input_feature, d.kernel_output_feature, &d.kernel_spatial)?;
    let op_ = perm("output", d.output_batch, d.output_feature, &d.output_spatial)?;
    let input_batch = l.dims[ip[0]];
    let input_features = l.dims[ip[1]];
    let kernel_input = r.dims[kp[0]];
    let kernel_output = r.dims[kp[1]];
    if input_features % fgc != 0 || input_features / fgc != kernel_input {
        return err(
            op,
            format!(
                "input features ({input_features}) / feature_group_count ({fgc}) must equal \
                 kernel input features ({kernel_input})"
            ),
        );
    }
    if kernel_output % fgc != 0 {
        return err(
            op,
            format!("kernel output features ({kernel_output}) must be a multiple of feature_group_count ({fgc})"),
        );
    }
    if kernel_output % bgc != 0 {
        return err(
            op,
            format!("kernel output features ({kernel_output}) must be a multiple of batch_group_count ({bgc})"),
        );
    }
    if input_batch % bgc != 0 {
        return err(op, format!("input batch ({input_batch}) must be a multiple of batch_group_count ({bgc})"));
    }
    let spatial_in: Dims = ip[2..].iter().map(|&i| l.dims[i]).collect();
    for (k, (&kd, w)) in kp[2..].iter().zip(&conv.window.dims).enumerate() {
        if r.dims[kd] != w.size {
            return err(op, format!("kernel spatial dimension {k} is {}, the window size is {}", r.dims[kd], w.size));
        }
    }
    let spatial_out = window_output_dims(op, &spatial_in, &conv.window)?;
    let mut out: Dims = smallvec::smallvec![0; rank];
    out[op_[0]] = input_batch / bgc;
    out[op_[1]] = kernel_output;
    for (k, &o) in op_[2..].iter().enumerate() {
        out[o] = spatial_out[k];
    }
    finish(op, ArrayShape::new(dtype, out))
}

// ---- gather and scatter -------------------------------------------------------

/// Index array dimensions with the index vector dimension made explicit: indices of
/// rank `index_vector_dim` get a trailing dimension of 1.
fn expanded_indices(op: Opcode, indices: &Shape, index_vector_dim: i64) -> Result<Dims> {
    let a = array(op, "start indices", indices)?;
    dtype_class(op, "start indices", a, DType::is_int, "an integer type")?;
    match usize::try_from(index_vector_dim) {
        Ok(v) if v <= a.rank() => {}
        _ => {
            return err(op, format!("index_vector_dim {index_vector_dim} is out of range for indices {indices}"));
        }
    }
    let mut dims = a.dims.clone();
    if dims.len() as i64 == index_vector_dim {
        dims.push(1);
    }
    Ok(dims)
}

/// Batching dimensions of gather/scatter: distinct, sorted on the operand side,
/// matching sizes on the indices side, and never the index vector dimension.
fn check_batching(
    op: Opcode,
    operand: &ArrayShape,
    operand_batching: &[i64],
    indices: &[i64],
    indices_rank: usize,
    indices_batching: &[i64],
    index_vector_dim: i64,
) -> Result<()> {
    let ob = sorted_axes(op, "operand batching dimension", operand_batching, operand.rank())?;
    let ib = distinct_axes(op, "indices batching dimension", indices_batching, indices_rank)?;
    if indices_batching.contains(&index_vector_dim) {
        return err(op, format!("index_vector_dim {index_vector_dim} cannot be a batching dimension"));
    }
    if ob.len() != ib.len() {
        return err(op, "operand and indices must have as many batching dimensions");
    }
    for (&o, &i) in ob.iter().zip(&ib) {
        if operand.dims[o] != indices[i] {
            return err(
                op,
                format!(
                    "batching dimension sizes differ: operand dimension {o} is {}, indices dimension {i} is {}",
                    operand.dims[o], indices[i]
                ),
            );
        }
    }
    Ok(())
}

/// `gather(operand, start_indices)`, with XLA's dimension numbers including
/// `operand_batching_dims` / `start_indices_batching_dims`.
pub fn infer_gather(x: &Shape, indices: &Shape, g: &GatherAttrs) -> Result<Shape> {
    let op = Opcode::Gather;
    let a = array(op, "operand", x)?;
    let idx = expanded_indices(op, indices, g.index_vector_dim)?;
    let indices_rank = indices.as_array().map_or(0, ArrayShape::rank);
    let ivd = g.index_vector_dim as usize;
    let out_rank = g.offset_dims.len() + idx.len() - 1;
    let offset = sorted_axes(op, "offset dimension", &g.offset_dims, out_rank)?;
    let collapsed = sorted_axes(op, "collapsed slice dimension", &g.collapsed_slice_dims, a.rank())?;
    check_batching(
        op,
        a,
        &g.operand_batching_dims,
        &idx,
        indices_rank,
        &g.start_indices_batching_dims,
        g.index_vector_dim,
    )?;
    disjoint(op, "collapsed_slice_dims", &g.collapsed_slice_dims, "operand_batching_dims", &g.operand_batching_dims)?;
    if g.start_index_map.len() as i64 != idx[ivd] {
        return err(
            op,
            format!(
                "start_index_map {} must have one entry per index vector element ({})",
                Braced(&g.start_index_map),
                idx[ivd]
            ),
        );
    }
    distinct_axes(op, "start_index_map entry", &g.start_index_map, a.rank())?;
    disjoint(op, "start_index_map", &g.start_index_map, "operand_batching_dims", &g.operand_batching_dims)?;
    if g.slice_sizes.len() != a.rank() {
        return err(op, format!("slice_sizes {} must have {} entries", Braced(&g.slice_sizes), a.rank()));
    }
    if g.offset_dims.len() + collapsed.len() + g.operand_batching_dims.len() != a.rank() {
        return err(
            op,
            format!(
                "offset_dims, collapsed_slice_dims and operand_batching_dims must together \
                 cover the {} operand dimensions",
                a.rank()
            ),
        );
    }
    for (i, (&s, &d)) in g.slice_sizes.iter().zip(&a.dims).enumerate() {
        if s < 0 || s > d {
            return err(op, format!("slice size {s} in dimension {i} is not within 0..={d}"));
        }
    }
    for &c in g.collapsed_slice_dims.iter().chain(&g.operand_batching_dims) {
        let s = g.slice_sizes[c as usize];
        if s > 1 {
            return err(op, format!("collapsed or batching dimension {c} has slice size {s}, at most 1 allowed"));
        }
    }
    let mut window = (0..a.rank())
        .filter(|&i| !collapsed.contains(&i) && !g.operand_batching_dims.contains(&(i as i64)))
        .map(|i| g.slice_sizes[i]);
    let mut batch = (0..idx.len()).filter(|&i| i != ivd).map(|i| idx[i]);
    let mut out = Dims::new();
    for i in 0..out_rank {
        let next = if offset.contains(&i) { window.next() } else { batch.next() };
        match next {
            Some(v) => out.push(v),
            None => return err(op, "dimension numbers do not describe the result"),
        }
    }
    finish(op, ArrayShape::new(a.dtype, out))
}

/// `scatter(inputs..., scatter_indices, updates...)` with `update` combining old and
/// new values; the result has the inputs' shapes.
pub fn infer_scatter(operands: &[&Shape], s: &ScatterAttrs, update: &ProgramShape) -> Result<Shape> {
    let op = Opcode::Scatter;
    if operands.len() < 3 || operands.len().is_multiple_of(2) {
        return err(
            op,
            format!("expected inputs, indices and as many updates as inputs, got {} operands", operands.len()),
        );
    }
    let n = operands.len() / 2;
    let inputs = &operands[..n];
    let indices = operands[n];
    let updates = &operands[n + 1..];
    let first = array(op, "operand 0", inputs[0])?;
    let idx = expanded_indices(op, indices, s.index_vector_dim)?;
    let indices_rank = indices.as_array().map_or(0, ArrayShape::rank);
    let ivd = s.index_vector_dim as usize;
    let rank = first.rank();
    let inserted = sorted_axes(op, "inserted window dimension", &s.inserted_window_dims, rank)?;
    check_batching(
        op,
        first,
        &s.input_batching_dims,
        &idx,
        indices_rank,
        &s.scatter_indices_batching_dims,
        s.index_vector_dim,
    )?;
    disjoint(op, "inserted_window_dims", &s.inserted_window_dims, "input_batching_dims", &s.input_batching_dims)?;
    if s.update_window_dims.len() + inserted.len() + s.input_batching_dims.len() != rank {
        return err(
            op,
            format!(
                "update_window_dims, inserted_window_dims and input_batching_dims must together \
                 cover the {rank} operand dimensions"
            ),
        );
    }
    if s.scatter_dims_to_operand_dims.len() as i64 != idx[ivd] {
        return err(
            op,
            format!(
                "scatter_dims_to_operand_dims {} must have one entry per index vector element ({})",
                Braced(&s.scatter_dims_to_operand_dims),
                idx[ivd]
            ),
        );
    }
    distinct_axes(op, "scatter_dims_to_operand_dims entry", &s.scatter_dims_to_operand_dims, rank)?;
    disjoint(
        op,
        "scatter_dims_to_operand_dims",
        &s.scatter_dims_to_operand_dims,
        "input_batching_dims",
        &s.input_batching_dims,
    )?;
    let window_bounds: Dims = (0..rank)
        .filter(|&i| !inserted.contains(&i) && !s.input_batching_dims.contains(&(i as i64)))
        .map(|i| first.dims[i])
        .collect();
    let updates_rank = idx.len() - 1 + s.update_window_dims.len();
    let mut update_types = Vec::with_capacity(n);
    for k in 0..n {
        let input = array(op, &format!("operand {k}"), inputs[k])?;
        if input.dims != first.dims {
            return err(
                op,
                format!("operand {k} has shape {}, expected dimensions {}", inputs[k], Braced(&first.dims)),
            );
        }
        let what = format!("operand {}", n + 1 + k);
        let u = array(op, &what, updates[k])?;
        if u.dtype != input.dtype {
            return err(op, format!("{what} has element type {}, expected {}", u.dtype, input.dtype));
        }
        if u.rank() != updates_rank {
            return err(op, format!("{what} has shape {}, expected rank {updates_rank}", updates[k]));
        }
        let uw = sorted_axes(op, "update window dimension", &s.update_window_dims, u.rank())?;
        for (j, &d) in uw.iter().enumerate() {
            if u.dims[d] > window_bounds[j] {
                return err(
                    op,
                    format!(
                        "{what} window dimension {d} is {}, larger than the operand's {}",
                        u.dims[d], window_bounds[j]
                    ),
                );
            }
        }
        let mut scatter = (0..idx.len()).filter(|&i| i != ivd).map(|i| idx[i]);
        for d in (0..u.rank()).filter(|d| !uw.contains(d)) {
            if scatter.next() != Some(u.dims[d]) {
                return err(
                    op,
                    format!(
                        "{what} scatter dimension {d} is {}, which does not match the indices {indices}",
                        u.dims[d]
                    ),
                );
            }
        }
        update_types.push(u.dtype);
    }
    let inits: Vec<Shape> = inputs.iter().map(|s| scalar_of(s.as_array().map_or(DType::F32, |a| a.dtype))).collect();
    let init_refs: Vec<&Shape> = inits.iter().collect();
    check_reducer(op, update, &init_refs, &update_types)?;
    if n == 1 {
        Ok(inputs[0].with_default_layout())
    } else {
        Ok(Shape::Tuple(inputs.iter().map(|s| s.with_default_layout()).collect()))
    }
}

// ---- other compound ops -------------------------------------------------------

/// `map(operands...)` applying a scalar computation elementwise over all dimensions.
pub fn infer_map(operands: &[&Shape], dimensions: &[i64], f: &ProgramShape) -> Result<Shape> {
    let op = Opcode::Map;
    let Some(first) = operands.first() else {
        return Err(ShapeError::OperandCount { op, expected: op.arity(), got: 0 });
    };
    let mut shape = array(op, "operand 0", first)?;
    for (k, s) in operands.iter().enumerate().skip(1) {
        let a = array(op, &format!("operand {k}"), s)?;
        if a.dims == shape.dims || (a.dtype == shape.dtype && a.rank() == 0) {
            continue;
        }
        if a.dtype == shape.dtype && shape.rank() == 0 {
            shape = a;
            continue;
        }
        return err(op, format!("operand {k} has shape {s}, expected dimensions {}", Braced(&shape.dims)));
    }
    if !dimensions.iter().copied().eq(0..shape.rank() as i64) {
        return err(op, format!("dimensions {} must be all dimensions in order", Braced(dimensions)));
    }
    if f.params.len() != operands.len() {
        return err(op, format!("computation {f} must take {} parameters", operands.len()));
    }
    for (i, (p, s)) in f.params.iter().zip(operands).enumerate() {
        let dtype = s.as_array().map_or(DType::F32, |a| a.dtype);
        same_type_or(op, &format!("computation parameter {i}"), p, &scalar_of(dtype))?;
    }
    match &f.result {
        Shape::Array(r) if r.rank() == 0 => finish(op, ArrayShape::new(r.dtype, &shape.dims)),
        _ => err(op, format!("computation {f} must return a scalar")),
    }
}

/// `sort(operands...)` along `dimension`; the comparator takes two scalars per
/// operand and returns pred[].
pub fn infer_sort(operands: &[&Shape], dimension: i64, comparator: &ProgramShape) -> Result<Shape> {
    let op = Opcode::Sort;
    let Some(first) = operands.first() else {
        return Err(ShapeError::OperandCount { op, expected: op.arity(), got: 0 });
    };
    let a = array(op, "operand 0", first)?;
    axis(op, "sort dimension", dimension, a.rank())?;
    if comparator.params.len() != 2 * operands.len() {
        return err(op, format!("comparator {comparator} must take {} parameters", 2 * operands.len()));
    }
    for (k, s) in operands.iter().enumerate() {
        let b = array(op, &format!("operand {k}"), s)?;
        if b.dims != a.dims {
            return err(op, format!("operand {k} has shape {s}, expected dimensions {}", Braced(&a.dims)));
        }
        for p in [2 * k, 2 * k + 1] {
            same_type_or(op, &format!("comparator parameter {p}"), &comparator.params[p], &scalar_of(b.dtype))?;
        }
    }
    same_type_or(op, "comparator result", &comparator.result, &scalar_of(DType::Pred))?;
    if let [only] = operands {
        Ok(only.with_default_layout())
    } else {
        Ok(Shape::Tuple(operands.iter().map(|s| s.with_default_layout()).collect()))
    }
}

/// `topk(operand)`: the `k` largest (or smallest) along the last dimension, as
/// `(values, s32 indices)`.
pub fn infer_topk(x: &Shape, k: i64) -> Result<Shape> {
    let op = Opcode::TopK;
    let a = array(op, "operand", x)?;
    let Some(&last) = a.dims.last() else {
        return err(op, "the operand must have rank at least 1");
    };
    if k < 0 || k > last {
        return err(op, format!("k ({k}) must be within 0..={last}"));
    }
    let mut dims = a.dims.clone();
    if let Some(d) = dims.last_mut() {
        *d = k;
    }
    Ok(Shape::Tuple(vec![
        finish(op, ArrayShape::new(a.dtype, &dims))?,
        finish(op, ArrayShape::new(DType::S32, &dims))?,
    ]))
}

/// Shared checks of the batch-norm ops: a float operand, rank-1 per-feature operands
/// of its type and of the feature dimension's size.
fn batch_norm_features(
    op: Opcode,
    x: &Shape,
    feature_index: i64,
    per_feature: &[(&str, &Shape)],
) -> Result<ArrayShape> {
    let a = array(op, "operand", x)?;
    dtype_class(op, "operand", a, DType::is_float, "a floating-point type")?;
    let f = axis(op, "feature_index", feature_index, a.rank())?;
    let features = ArrayShape::new(a.dtype, [a.dims[f]]);
    let expected = Shape::Array(features.clone());
    for (what, s) in per_feature {
        same_type_or(op, what, s, &expected)?;
    }
    Ok(features)
}

pub fn infer_batch_norm_training(x: &Shape, scale: &Shape, offset: &Shape, feature_index: i64) -> Result<Shape> {
    let op = Opcode::BatchNormTraining;
    let f = batch_norm_features(op, x, feature_index, &[("scale", scale), ("offset", offset)])?;
    Ok(Shape::Tuple(vec![x.with_default_layout(), f.clone().into(), f.into()]))
}

pub fn infer_batch_norm_inference(
    x: &Shape,
    scale: &Shape,
    offset: &Shape,
    mean: &Shape,
    variance: &Shape,
    feature_index: i64,
) -> Result<Shape> {
    let op = Opcode::BatchNormInference;
    batch_norm_features(
        op,
        x,
        feature_index,
        &[("scale", scale), ("offset", offset), ("mean", mean), ("variance", variance)],
    )?;
    Ok(x.with_default_layout())
}

pub fn infer_batch_norm_grad(
    x: &Shape,
    scale: &Shape,
    mean: &Shape,
    variance: &Shape,
    grad_output: &Shape,
    feature_index: i64,
) -> Result<Shape> {
    let op = Opcode::BatchNormGrad;
    let f = batch_norm_features(op, x, feature_index, &[("scale", scale), ("mean", mean), ("variance", variance)])?;
    same_type_or(op, "grad_output", grad_output, &x.with_default_layout())?;
    Ok(Shape::Tuple(vec![x.with_default_layout(), f.clone().into(), f.into()]))
}

// ---- random numbers -----------------------------------------------------------

/// `rng(a, b)`: scalar parameters of the result's element type (a float for
/// `rng_normal`), result dimensions from `declared`.
pub fn infer_rng(a: &Shape, b: &Shape, distribution: RngDistribution, declared: &ArrayShape) -> Result<Shape> {
    let op = Opcode::Rng;
    let expected = scalar_of(declared.dtype);
    same_type_or(op, "operand 0", a, &expected)?;
    same_type_or(op, "operand 1", b, &expected)?;
    let ok = match distribution {
        RngDistribution::Uniform => declared.dtype.is_float() || declared.dtype.is_int(),
        RngDistribution::Normal => declared.dtype.is_float(),
    };
    if !ok {
        return err(op, format!("{} cannot produce {} values", distribution.name(), declared.dtype));
    }
    finish(op, ArrayShape::new(declared.dtype, &declared.dims))
}

/// `rng-bit-generator(state)`: `(new state, random bits)`; the state is a u64 vector,
/// the bits an unsigned integer array whose shape comes from `declared`.
pub fn infer_rng_bit_generator(state: &Shape, algorithm: RngAlgorithm, declared: &Shape) -> Result<Shape> {
    let op = Opcode::RngBitGenerator;
    let s = array(op, "state", state)?;
    if s.dtype != DType::U64 || s.rank() != 1 {
        return err(op, format!("state {state} must be a u64 vector"));
    }
    let sizes: &[i64] = match algorithm {
        RngAlgorithm::ThreeFry => &[2],
        RngAlgorithm::Philox => &[2, 3],
        RngAlgorithm::Default => &[2, 3],
    };
    if !sizes.contains(&s.dims[0]) {
        return err(op, format!("state {state} has the wrong size for {}", algorithm.name()));
    }
    let values = match declared.tuple_elements() {
        [_, values] => array(op, "the random values", values)?,
        _ => {
            return err(op, format!("result {declared} must be a (state, values) tuple"));
        }
    };
    dtype_class(op, "the random values", values, DType::is_unsigned_int, "an unsigned integer type")?;
    Ok(Shape::Tuple(vec![state.with_default_layout(), finish(op, ArrayShape::new(values.dtype, &values.dims))?]))
}

// ---- calls, control flow, tuples ----------------------------------------------

/// `call` and `fusion`: arguments match the callee's parameters; the result is the
/// callee's.
pub fn infer_call(op: Opcode, args: &[&Shape], callee: &ProgramShape) -> Result<Shape> {
    if args.len() != callee.params.len() {
        return err(
            op,
            format!("computation {callee} takes {} parameters, got {} operands", callee.params.len(), args.len()),
        );
    }
    for (i, (arg, p)) in args.iter().zip(&callee.params).enumerate() {
        same_type_or(op, &format!("operand {i}"), arg, &p.with_default_layout())?;
    }
    Ok(callee.result.with_default_layout())
}

/// `while(init)`: `condition: S -> pred[]`, `body: S -> S`, result `S`.
pub fn infer_while(init: &Shape, condition: &ProgramShape, body: &ProgramShape) -> Result<Shape> {
    let op = Opcode::While;
    let state = init.with_default_layout();
    match condition.params.as_slice() {
        [p] => same_type_or(op, "condition parameter", p, &state)?,
        _ => return err(op, format!("condition {condition} must take 1 parameter")),
    }
    same_type_or(op, "condition result", &condition.result, &scalar_of(DType::Pred))?;
    match body.params.as_slice() {
        [p] => same_type_or(op, "body parameter", p, &state)?,
        _ => return err(op, format!("body {body} must take 1 parameter")),
    }
    same_type_or(op, "body result", &body.result, &state)?;
    Ok(state)
}

/// `conditional(index, operands...)`: a pred index picks between two branches (true
/// first), an s32 index among any number; branch `i` takes operand `i + 1`. All
/// branches return the same shape.
pub fn infer_conditional(index: &Shape, branch_operands: &[&Shape], branches: &[ProgramShape]) -> Result<Shape> {
    let op = Opcode::Conditional;
    let pred = scalar_of(DType::Pred);
    if index.same_type(&pred) {
        if branches.len() != 2 {
            return err(op, format!("a pred index selects between 2 branches, got {}", branches.len()));
        }
    } else if !index.same_type(&scalar_of(DType::S32)) {
        return err(op, format!("operand 0 has shape {index}, expected pred[] or s32[]"));
    }
    let Some(first) = branches.first() else {
        return Err(ShapeError::CalledCount { op, expected: Arity::AtLeast(1), got: 0 });
    };
    if branch_operands.len() != branches.len() {
        return err(
            op,
            format!(
                "{} branches need {} operands after the index, got {}",
                branches.len(),
                branches.len(),
                branch_operands.len()
            ),
        );
    }
    let result = first.result.with_default_layout();
    for (i, (b, arg)) in branches.iter().zip(branch_operands).enumerate() {
        match b.params.as_slice() {
            [p] => same_type_or(op, &format!("operand {}", i + 1), arg, &p.with_default_layout())?,
            _ => return err(op, format!("branch {i} {b} must take 1 parameter")),
        }
        same_type_or(op, &format!("branch {i} result"), &b.result, &result)?;
    }
    Ok(result)
}

pub fn infer_tuple(elements: &[&Shape]) -> Shape {
    Shape::Tuple(elements.iter().map(|s| s.with_default_layout()).collect())
}

pub fn infer_get_tuple_element(t: &Shape, index: i64) -> Result<Shape> {
    let op = Opcode::GetTupleElement;
    let Shape::Tuple(elems) = t else {
        return err(op, format!("operand {t} is not a tuple"));
    };
    match usize::try_from(index).ok().and_then(|i| elems.get(i)) {
        Some(e) => Ok(e.with_default_layout()),
        None => err(op, format!("index {index} is out of range for {t}")),
    }
}

/// The stand-in for XLA's token type (see the module docs).
pub fn token() -> Shape {
    Shape::Tuple(Vec::new())
}

pub fn infer_after_all(tokens: &[&Shape]) -> Result<Shape> {
    for (i, t) in tokens.iter().enumerate() {
        same_type_or(Opcode::AfterAll, &format!("operand {i}"), t, &token())?;
    }
    Ok(token())
}

pub fn infer_add_dependency(x: &Shape, token_operand: &Shape) -> Result<Shape> {
    same_type_or(Opcode::AddDependency, "operand 1", token_operand, &token())?;
    Ok(x.with_default_layout())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attrs::{ComparisonDirection, ConvDims, WindowDim};
    use crate::text::parse_shape;

    fn s(text: &str) -> Shape {
        parse_shape(text).unwrap()
    }

    /// The inferred shape as text, or the error message.
    fn show(r: Result<Shape>) -> String {
        match r {
            Ok(shape) => shape.to_string(),
            Err(e) => format!("error: {e}"),
        }
    }

    fn scalar_fn(params: &[&str], result: &str) -> ProgramShape {
        ProgramShape::new(params.iter().map(|p| s(p)).collect(), s(result))
    }

    fn window(dims: &[(i64, i64, i64, i64)]) -> Window {
        Window {
            dims: dims
                .iter()
                .map(|&(size, stride, pad_low, pad_high)| WindowDim {
                    stride,
                    pad_low,
                    pad_high,
                    ..WindowDim::of_size(size)
                })
                .collect(),
        }
    }

    #[test]
    fn elementwise_type_rules() {
        let (f4, f3) = (s("f32[4]"), s("f32[3]"));
        assert_eq!(show(infer_binary(Opcode::Add, &f4, &f4)), "f32[4]{0}");
        assert_eq!(
            show(infer_binary(Opcode::Add, &f4, &f3)),
            "error: add: operand 1 has shape f32[3]{0}, expected f32[4]{0}"
        );
        assert_eq!(
            show(infer_binary(Opcode::ShiftLeft, &f4, &f4)),
            "error: shift-left: operand 0 has element type f32, expected an integer type"
        );
        assert_eq!(
            show(infer_binary(Opcode::And, &f4, &f4)),
            "error: and: operand 0 has element type f32, expected pred or an integer type"
        );
        assert_eq!(show(infer_binary(Opcode::Xor, &s("pred[2]"), &s("pred[2]"))), "pred[2]{0}");
        assert_eq!(show(infer_compare(&f4, &f4, ComparisonDirection::Lt, None)), "pred[4]{0}");
        assert_eq!(
            show(infer_compare(&f4, &f4, ComparisonDirection::Lt, Some(CompareType::Signed))),
            "error: compare: comparison type SIGNED does not suit f32 operands"
        );
        assert_eq!(show(infer_unary(Opcode::IsFinite, &s("bf16[2,2]"))), "pred[2,2]{1,0}");
        assert_eq!(
            show(infer_unary(Opcode::Clz, &f4)),
            "error: count-leading-zeros: operand has element type f32, expected an integer type"
        );
        assert_eq!(
            show(infer_unary(Opcode::Abs, &s("u8[2]"))),
            "error: abs: operand has element type u8, expected a signed, floating-point or complex type"
        );
        assert_eq!(show(infer_unary(Opcode::Copy, &s("(f32[2]{0}, s32[])"))), "(f32[2]{0}, s32[])");
        assert_eq!(show(infer_select(&s("pred[4]"), &f4, &f4)), "f32[4]{0}");
        assert_eq!(
            show(infer_select(&s("pred[]"), &f4, &f4)),
            "error: select: operand 0 has shape pred[], expected dimensions {4}"
        );
        assert_eq!(show(infer_clamp(&s("f32[]"), &f4, &f4)), "f32[4]{0}");
        assert_eq!(
            show(infer_clamp(&f3, &f4, &f4)),
            "error: clamp: operand 0 has shape f32[3]{0}, expected f32[4]{0} or f32[]"
        );
        assert_eq!(show(infer_unary(Opcode::Convert, &f4)), "error: convert: is not an elementwise unary operation");
    }

    #[test]
    fn bitcast_convert_changes_width_through_the_minor_dimension() {
        assert_eq!(show(infer_bitcast_convert(&s("f32[64]"), DType::U8)), "u8[64,4]{1,0}");
        assert_eq!(show(infer_bitcast_convert(&s("u8[64,4]"), DType::F32)), "f32[64]{0}");
        assert_eq!(show(infer_bitcast_convert(&s("bf16[3]"), DType::U16)), "u16[3]{0}");
        assert_eq!(
            show(infer_bitcast_convert(&s("u8[64,3]"), DType::F32)),
            "error: bitcast-convert: converting u8 to the wider f32 needs a last dimension of 4, \
             got u8[64,3]{1,0}"
        );
        assert_eq!(show(infer_bitcast(&s("f32[2,8]"), &s("s32[16]"))), "s32[16]{0}");
        assert_eq!(
            show(infer_bitcast(&s("f32[2,8]"), &s("f32[15]"))),
            "error: bitcast: result f32[15]{0} and operand f32[2,8]{1,0} differ in byte size"
        );
    }

    #[test]
    fn broadcast_reshape_transpose() {
        let x = s("f32[3]");
        assert_eq!(show(infer_broadcast(&x, &[2, 3], &[1])), "f32[2,3]{1,0}");
        assert_eq!(
            show(infer_broadcast(&x, &[2, 3], &[0])),
            "error: broadcast: operand dimension 0 (size 3) maps to result dimension 0 of size 2"
        );
        assert_eq!(
            show(infer_broadcast(&x, &[2, 3], &[2])),
            "error: broadcast: broadcast dimension 2 is out of range for rank 2"
        );
        assert_eq!(show(infer_reshape(&s("f32[2,3]"), &[3, 2])), "f32[3,2]{1,0}");
        assert_eq!(
            show(infer_reshape(&s("f32[2,3]"), &[5])),
            "error: reshape: cannot reshape f32[2,3]{1,0} to f32[5]{0}: element counts differ"
        );
        assert_eq!(
            show(infer_reshape(&s("f32[2,3]"), &[1_000_000_000_000_000_000, 1_000])),
            "error: reshape: result shape f32[1000000000000000000,1000]{1,0} is malformed: \
             its size overflows 64 bits"
        );
        assert_eq!(show(infer_transpose(&s("f32[2,3,4]"), &[2, 0, 1])), "f32[4,2,3]{2,1,0}");
        assert_eq!(
            show(infer_transpose(&s("f32[2,3]"), &[0, 0])),
            "error: transpose: transpose dimensions {0,0} repeat dimension 0"
        );
    }

    #[test]
    fn slice_pad_concatenate_dynamic_slice() {
        let x = s("f32[10,4]");
        let sd = |start, limit, stride| SliceDim { start, limit, stride };
        assert_eq!(show(infer_slice(&x, &[sd(1, 10, 3), sd(0, 4, 1)])), "f32[3,4]{1,0}");
        assert_eq!(
            show(infer_slice(&x, &[sd(2, 11, 1), sd(0, 4, 1)])),
            "error: slice: dimension 0: [2:11] is not within 0..10 (start <= limit required)"
        );
        let pd = |low, high, interior| PadDim { low, high, interior };
        // 4 elements with 1 between each: 7, then -1 low and +2 high.
        assert_eq!(show(infer_pad(&x, &s("f32[]"), &[pd(0, 0, 0), pd(-1, 2, 1)])), "f32[10,8]{1,0}");
        assert_eq!(
            show(infer_pad(&x, &s("f32[]"), &[pd(-11, 0, 0), pd(0, 0, 0)])),
            "error: pad: padding makes dimension 0 negative (-1)"
        );
        assert_eq!(
            show(infer_pad(&x, &s("f32[]"), &[pd(i64::MAX, 1, 0), pd(0, 0, 0)])),
            "error: pad: padded size of dimension 0 overflows 64 bits"
        );
        assert_eq!(show(infer_concatenate(&[&x, &s("f32[5,4]")], 0)), "f32[15,4]{1,0}");
        assert_eq!(
            show(infer_concatenate(&[&x, &s("f32[5,3]")], 0)),
            "error: concatenate: operand 1 has shape f32[5,3]{1,0}, which differs from \
             operand 0 f32[10,4]{1,0} outside dimension 0"
        );
        let i = s("s32[]");
        assert_eq!(show(infer_dynamic_slice(&x, &[&i, &i], &[2, 4])), "f32[2,4]{1,0}");
        assert_eq!(
            show(infer_dynamic_slice(&x, &[&i], &[2, 4])),
            "error: dynamic-slice: expected 2 start indices (one per dimension), got 1"
        );
        assert_eq!(show(infer_dynamic_update_slice(&x, &s("f32[2,4]"), &[&i, &i])), "f32[10,4]{1,0}");
    }

    #[test]
    fn dot_general_and_preferred_type() {
        let dims = DotDims {
            lhs_batch: [0].into_iter().collect(),
            rhs_batch: [0].into_iter().collect(),
            lhs_contracting: [2].into_iter().collect(),
            rhs_contracting: [1].into_iter().collect(),
        };
        let (l, r) = (s("bf16[8,3,5]"), s("bf16[8,5,7]"));
        assert_eq!(show(infer_dot(&l, &r, &dims, None)), "bf16[8,3,7]{2,1,0}");
        assert_eq!(show(infer_dot(&l, &r, &dims, Some(DType::F32))), "f32[8,3,7]{2,1,0}");
        assert_eq!(
            show(infer_dot(&s("s32[2,2]"), &s("s32[2,2]"), &DotDims::default(), Some(DType::S8))),
            "error: dot: result element type s8 cannot hold products of s32 operands"
        );
        assert_eq!(
            show(infer_dot(&l, &s("bf16[8,6,7]"), &dims, None)),
            "error: dot: contracting dimension sizes differ: lhs dimension 2 is 5, \
             rhs dimension 1 is 6"
        );
        // No contraction at all is an outer product.
        assert_eq!(show(infer_dot(&s("f32[2]"), &s("f32[3]"), &DotDims::default(), None)), "f32[2,3]{1,0}");
    }

    fn nhwc() -> ConvDims {
        ConvDims::from_labels("b01f_01io->b01f").unwrap()
    }

    #[test]
    fn convolution_windows_groups_and_dilation() {
        let conv = |window: Window, fgc, bgc| ConvAttrs {
            window,
            dims: nhwc(),
            feature_group_count: fgc,
            batch_group_count: bgc,
        };
        // 3x3 stride 2, SAME padding 0_1.
        let c = conv(window(&[(3, 2, 0, 1), (3, 2, 0, 1)]), 1, 1);
        assert_eq!(
            show(infer_convolution(&s("f32[2,16,16,3]"), &s("f32[3,3,3,8]"), &c, None)),
            "f32[2,8,8,8]{3,2,1,0}"
        );
        // Depthwise: 8 groups of one input feature, multiplier 2.
        let c = conv(window(&[(5, 2, 1, 2), (5, 2, 1, 2)]), 8, 1);
        assert_eq!(
            show(infer_convolution(&s("f32[2,16,16,8]"), &s("f32[5,5,1,16]"), &c, None)),
            "f32[2,8,8,16]{3,2,1,0}"
        );
        // Input dilation (a transposed convolution) and kernel dilation.
        let mut w = window(&[(3, 1, 2, 1), (3, 1, 2, 1)]);
        w.dims.iter_mut().for_each(|d| d.base_dilation = 2);
        let c = conv(w, 1, 1);
        assert_eq!(show(infer_convolution(&s("f32[2,4,4,4]"), &s("f32[3,3,4,3]"), &c, None)), "f32[2,8,8,3]{3,2,1,0}");
        let mut w = window(&[(3, 1, 1, 2), (3, 1, 0, 1)]);
        w.dims.iter_mut().for_each(|d| d.window_dilation = 2);
        assert_eq!(
            show(infer_convolution(&s("f32[2,16,16,3]"), &s("f32[3,3,3,8]"), &conv(w, 1, 1), None)),
            "f32[2,15,13,8]{3,2,1,0}"
        );
        // batch_group_count splits the batch over output features.
        let c = conv(window(&[(1, 1, 0, 0), (1, 1, 0, 0)]), 1, 2);
        assert_eq!(show(infer_convolution(&s("f32[4,5,5,3]"), &s("f32[1,1,3,6]"), &c, None)), "f32[2,5,5,6]{3,2,1,0}");
        let c = conv(window(&[(3, 1, 1, 1), (3, 1, 1, 1)]), 1, 1);
        assert_eq!(
            show(infer_convolution(&s("f32[2,8,8,4]"), &s("f32[3,3,3,8]"), &c, None)),
            "error: convolution: input features (4) / feature_group_count (1) must equal \
             kernel input features (3)"
        );
    }

    #[test]
    fn variadic_reduce_and_reducer_signatures() {
        let argmax = scalar_fn(&["f32[]", "s32[]", "f32[]", "s32[]"], "(f32[], s32[])");
        let (x, i) = (s("f32[4,6]"), s("s32[4,6]"));
        let (fi, ii) = (s("f32[]"), s("s32[]"));
        assert_eq!(show(infer_reduce(&[&x, &i, &fi, &ii], &[1], &argmax)), "(f32[4]{0}, s32[4]{0})");
        let add = scalar_fn(&["f32[]", "f32[]"], "f32[]");
        assert_eq!(show(infer_reduce(&[&x, &fi], &[0, 1], &add)), "f32[]");
        assert_eq!(
            show(infer_reduce(&[&x, &ii], &[1], &add)),
            "error: reduce: init value 0 has shape s32[], expected f32[]"
        );
        assert_eq!(
            show(infer_reduce(&[&x, &fi], &[1], &scalar_fn(&["f32[]"], "f32[]"))),
            "error: reduce: reducer (f32[]) -> f32[] must take 2 parameters, not 1"
        );
        assert_eq!(
            show(infer_reduce(&[&i, &fi], &[1], &add)),
            "error: reduce: reducer parameter 1 has shape f32[], expected s32[]"
        );
        assert_eq!(
            show(infer_reduce(&[&x, &fi], &[1, 1], &add)),
            "error: reduce: reduced dimensions {1,1} repeat dimension 1"
        );
        // Windows: a SAME-padded 3x3 stride-2 window, and a dilated one.
        let mut w = window(&[(1, 1, 0, 0), (3, 2, 1, 1), (3, 2, 1, 1), (1, 1, 0, 0)]);
        assert_eq!(show(infer_reduce_window(&[&s("f32[2,9,9,3]"), &fi], &w, &add)), "f32[2,5,5,3]{3,2,1,0}");
        w.dims[1].window_dilation = 4;
        assert_eq!(show(infer_reduce_window(&[&s("f32[2,9,9,3]"), &fi], &w, &add)), "f32[2,2,5,3]{3,2,1,0}");
        let ge = scalar_fn(&["f32[]", "f32[]"], "pred[]");
        let w = window(&[(1, 1, 0, 0), (3, 2, 0, 0), (3, 2, 0, 0), (1, 1, 0, 0)]);
        let (op, src) = (s("f32[2,9,9,3]"), s("f32[2,4,4,3]"));
        assert_eq!(show(infer_select_and_scatter(&op, &src, &fi, &w, &ge, &add)), "f32[2,9,9,3]{3,2,1,0}");
        assert_eq!(
            show(infer_select_and_scatter(&op, &s("f32[2,5,5,3]"), &fi, &w, &ge, &add)),
            "error: select-and-scatter: operand 1 has shape f32[2,5,5,3]{3,2,1,0}, \
             expected f32[2,4,4,3]{3,2,1,0}"
        );
    }

    #[test]
    fn gather_and_scatter_with_batching_dims() {
        let ints = |v: &[i64]| -> Dims { v.iter().copied().collect() };
        // Row gather x[idx]: f32[32,16] by s32[10,1] rows.
        let rows = GatherAttrs {
            offset_dims: ints(&[1]),
            collapsed_slice_dims: ints(&[0]),
            start_index_map: ints(&[0]),
            index_vector_dim: 1,
            slice_sizes: ints(&[1, 16]),
            ..GatherAttrs::default()
        };
        assert_eq!(show(infer_gather(&s("f32[32,16]"), &s("s32[10,1]"), &rows)), "f32[10,16]{1,0}");
        // take_along_axis: one batching dimension.
        let along = GatherAttrs {
            collapsed_slice_dims: ints(&[1]),
            start_index_map: ints(&[1]),
            operand_batching_dims: ints(&[0]),
            start_indices_batching_dims: ints(&[0]),
            index_vector_dim: 2,
            slice_sizes: ints(&[1, 1]),
            ..GatherAttrs::default()
        };
        assert_eq!(show(infer_gather(&s("f32[16,10]"), &s("s32[16,4,1]"), &along)), "f32[16,4]{1,0}");
        assert_eq!(
            show(infer_gather(&s("f32[15,10]"), &s("s32[16,4,1]"), &along)),
            "error: gather: batching dimension sizes differ: operand dimension 0 is 15, \
             indices dimension 0 is 16"
        );
        let bad = GatherAttrs { slice_sizes: ints(&[2, 16]), ..rows.clone() };
        assert_eq!(
            show(infer_gather(&s("f32[32,16]"), &s("s32[10,1]"), &bad)),
            "error: gather: collapsed or batching dimension 0 has slice size 2, at most 1 allowed"
        );
        let add = scalar_fn(&["f32[]", "f32[]"], "f32[]");
        let scatter_rows = ScatterAttrs {
            update_window_dims: ints(&[1]),
            inserted_window_dims: ints(&[0]),
            scatter_dims_to_operand_dims: ints(&[0]),
            index_vector_dim: 1,
            ..ScatterAttrs::default()
        };
        let (x, idx) = (s("f32[32,16]"), s("s32[10,1]"));
        assert_eq!(show(infer_scatter(&[&x, &idx, &s("f32[10,16]")], &scatter_rows, &add)), "f32[32,16]{1,0}");
        assert_eq!(
            show(infer_scatter(&[&x, &idx, &s("f32[9,16]")], &scatter_rows, &add)),
            "error: scatter: operand 2 scatter dimension 0 is 9, which does not match the \
             indices s32[10,1]{1,0}"
        );
        let batched = ScatterAttrs {
            inserted_window_dims: ints(&[1]),
            scatter_dims_to_operand_dims: ints(&[1]),
            input_batching_dims: ints(&[0]),
            scatter_indices_batching_dims: ints(&[0]),
            index_vector_dim: 2,
            ..ScatterAttrs::default()
        };
        assert_eq!(
            show(infer_scatter(&[&s("f32[16,10]"), &s("s32[16,4,1]"), &s("f32[16,4]")], &batched, &add)),
            "f32[16,10]{1,0}"
        );
    }

    #[test]
    fn control_flow_calls_and_sort() {
        let state = s("(s32[], f32[4])");
        let cond = ProgramShape::new(vec![state.clone()], s("pred[]"));
        let body = ProgramShape::new(vec![state.clone()], state.clone());
        assert_eq!(show(infer_while(&state, &cond, &body)), "(s32[], f32[4]{0})");
        let bad_body = ProgramShape::new(vec![state.clone()], s("(s32[], f32[5])"));
        assert_eq!(
            show(infer_while(&state, &cond, &bad_body)),
            "error: while: body result has shape (s32[], f32[5]{0}), expected (s32[], f32[4]{0})"
        );
        let branch = |p: &str| ProgramShape::new(vec![s(p)], s("f32[2]"));
        let (a, b) = (s("f32[2]"), s("s32[]"));
        assert_eq!(show(infer_conditional(&s("pred[]"), &[&a, &b], &[branch("f32[2]"), branch("s32[]")])), "f32[2]{0}");
        assert_eq!(
            show(infer_conditional(&s("pred[]"), &[&a], &[branch("f32[2]")])),
            "error: conditional: a pred index selects between 2 branches, got 1"
        );
        assert_eq!(
            show(infer_conditional(&s("s32[]"), &[&a, &a], &[branch("f32[2]"), branch("s32[]")])),
            "error: conditional: operand 2 has shape f32[2]{0}, expected s32[]"
        );
        let lt = scalar_fn(&["f32[]", "f32[]", "s32[]", "s32[]"], "pred[]");
        let (k, v) = (s("f32[8,32]"), s("s32[8,32]"));
        assert_eq!(show(infer_sort(&[&k, &v], 1, &lt)), "(f32[8,32]{1,0}, s32[8,32]{1,0})");
        assert_eq!(
            show(infer_sort(&[&k], 1, &lt)),
            "error: sort: comparator (f32[], f32[], s32[], s32[]) -> pred[] must take 2 parameters"
        );
        let f = ProgramShape::new(vec![s("f32[2]"), s("s32[]")], s("f32[2]"));
        assert_eq!(show(infer_call(Opcode::Call, &[&a, &b], &f)), "f32[2]{0}");
        assert_eq!(
            show(infer_call(Opcode::Fusion, &[&a], &f)),
            "error: fusion: computation (f32[2]{0}, s32[]) -> f32[2]{0} takes 2 parameters, got 1 operands"
        );
        let max = scalar_fn(&["f32[]", "f32[]"], "f32[]");
        assert_eq!(show(infer_map(&[&a, &a], &[0], &max)), "f32[2]{0}");
        assert_eq!(
            show(infer_get_tuple_element(&state, 2)),
            "error: get-tuple-element: index 2 is out of range for (s32[], f32[4]{0})"
        );
    }

    #[test]
    fn random_topk_batch_norm_and_tokens() {
        let out = s("(u64[2], u32[4,4])");
        assert_eq!(
            show(infer_rng_bit_generator(&s("u64[2]"), RngAlgorithm::ThreeFry, &out)),
            "(u64[2]{0}, u32[4,4]{1,0})"
        );
        assert_eq!(
            show(infer_rng_bit_generator(&s("u64[2]"), RngAlgorithm::Default, &s("(u64[2], f32[4])"))),
            "error: rng-bit-generator: the random values has element type f32, expected an \
             unsigned integer type"
        );
        assert_eq!(show(infer_topk(&s("f32[3,10]"), 4)), "(f32[3,4]{1,0}, s32[3,4]{1,0})");
        assert_eq!(show(infer_topk(&s("f32[3,10]"), 11)), "error: topk: k (11) must be within 0..=10");
        let (x, f) = (s("f32[2,5,3]"), s("f32[3]"));
        assert_eq!(show(infer_batch_norm_training(&x, &f, &f, 2)), "(f32[2,5,3]{2,1,0}, f32[3]{0}, f32[3]{0})");
        assert_eq!(
            show(infer_batch_norm_inference(&x, &f, &f, &f, &s("f32[5]"), 2)),
            "error: batch-norm-inference: variance has shape f32[5]{0}, expected f32[3]{0}"
        );
        assert_eq!(show(infer_after_all(&[&token(), &token()])), "()");
        assert_eq!(
            show(infer_add_dependency(&x, &f)),
            "error: add-dependency: operand 1 has shape f32[3]{0}, expected ()"
        );
    }

    #[test]
    fn infer_shape_checks_counts_and_attrs_first() {
        let x = s("f32[2]");
        let none = Attrs::None;
        assert_eq!(
            show(infer_shape(Opcode::Add, &[&x], &none, &[], Some(&x))),
            "error: add: expected 2 operands, got 1"
        );
        assert_eq!(
            show(infer_shape(Opcode::Transpose, &[&x], &none, &[], Some(&x))),
            "error: transpose: expected Dimensions attributes, got None"
        );
        let add = scalar_fn(&["f32[]", "f32[]"], "f32[]");
        let dims = Attrs::Dimensions([0].into_iter().collect());
        assert_eq!(
            show(infer_shape(Opcode::Reduce, &[&x, &s("f32[]")], &dims, &[], None)),
            "error: reduce: expected 1 called computations, got 0"
        );
        assert_eq!(show(infer_shape(Opcode::Reduce, &[&x, &s("f32[]")], &dims, &[add], None)), "f32[]");
        assert_eq!(
            show(infer_shape(Opcode::Convert, &[&x], &none, &[], None)),
            "error: convert: the result shape must be given, the operands do not imply it"
        );
        let cmp = Attrs::Compare { direction: ComparisonDirection::Lt, compare_type: None };
        assert_eq!(show(infer_shape(Opcode::Compare, &[&x, &x], &cmp, &[], None)), "pred[2]{0}");
        let e = infer_shape(Opcode::Add, &[&x], &none, &[], None).unwrap_err();
        assert_eq!(e.detail(), "expected 2 operands, got 1");
    }

    /// Every opcode, fed arrays, scalars, tuples and extreme dimensions with
    /// whatever attributes, answers without panicking.
    #[test]
    fn never_panics_on_garbage() {
        let shapes = [
            s("f32[]"),
            s("s32[3]"),
            s("pred[2,0]"),
            s("(f32[2], u64[2])"),
            Shape::array(DType::F32, [i64::MAX, 2]),
            Shape::array(DType::U8, [-3]),
        ];
        let huge: Dims = [i64::MAX, -1, i64::MIN].into_iter().collect();
        let attrs = [
            Attrs::None,
            Attrs::Dimensions(huge.clone()),
            Attrs::Iota { dimension: i64::MIN },
            Attrs::Slice(vec![SliceDim { start: i64::MIN, limit: i64::MAX, stride: i64::MIN }]),
            Attrs::Pad(vec![PadDim { low: i64::MAX, high: i64::MAX, interior: i64::MAX }]),
            Attrs::Window(window(&[(i64::MAX, i64::MAX, i64::MIN, i64::MAX)])),
            Attrs::Gather(Box::new(GatherAttrs {
                offset_dims: huge.clone(),
                index_vector_dim: i64::MAX,
                slice_sizes: huge.clone(),
                ..GatherAttrs::default()
            })),
        ];
        let sig = scalar_fn(&["f32[]", "f32[]"], "f32[]");
        for &op in Opcode::ALL {
            for n in 0..4 {
                for first in &shapes {
                    let operands: Vec<&Shape> =
                        (0..n).map(|k| if k == 0 { first } else { &shapes[k % shapes.len()] }).collect();
                    for a in &attrs {
                        for called in [&[][..], std::slice::from_ref(&sig)] {
                            let _ = infer_shape(op, &operands, a, called, Some(first));
                            let _ = infer_shape(op, &operands, a, called, None);
                        }
                    }
                }
            }
        }
    }
}
