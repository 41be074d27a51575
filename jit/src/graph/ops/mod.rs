//! The op set: one [`OpDef`] per operator type, with its lowering rule to HLO
//! (TensorFlow's tf2xla kernels, as functions) and, for data-dependent ops,
//! its host implementation.
//!
//! Semantics are ONNX's (opsets 13 to 21) with numpy-style broadcasting; the
//! Rust Graph API uses the same names and attributes.

/// One lowering rule per `name => Variant;`, each calling the shared rule
/// `via(cx, node, inputs, Enum::Variant)`.
macro_rules! rules_via {
    ($via:ident, $enum:ident { $($f:ident => $v:ident;)* }) => {$(
        pub fn $f(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
            $via(cx, node, inputs, $enum::$v)
        }
    )*};
}

mod control;
mod einsum;
mod elementwise;
mod host;
mod index;
mod linalg;
mod loss;
mod nn;
mod quant;
mod random;
mod recurrent;
mod reduce;
mod resize;
mod shape;
#[cfg(test)]
mod tests;
pub mod util;

use smelt_hlo::{Array, DType};

use super::lower::{LowerCx, Val};
use super::{Node, Result};

/// Lowers one node: its inputs (None for omitted optional ones) to its outputs.
pub type LowerFn = fn(&mut LowerCx<'_>, &Node, &[Option<Val>]) -> Result<Vec<Val>>;

/// Runs one node on the host: its present inputs to its outputs.
pub type HostImpl = fn(&Node, &[Array]) -> Result<Vec<Array>>;

/// What smelt knows about one operator type.
pub struct OpDef {
    pub name: &'static str,
    /// The HLO rule; None for ops that only run on the host.
    pub lower: Option<LowerFn>,
    /// The host implementation (data-dependent output shapes, side effects);
    /// ops that have one are never clustered.
    pub host: Option<HostImpl>,
    /// Whether the node may be folded while lowering when all inputs are known.
    pub foldable: bool,
}

impl OpDef {
    /// Whether nodes of this type may join a cluster.
    pub fn compilable(&self) -> bool {
        self.lower.is_some() && self.host.is_none()
    }
}

/// A `Gradients` node is lowered by its cluster, which differentiates the
/// loss's forward subgraph; alone (op by op) it cannot be.
fn gradients_alone(_: &mut LowerCx<'_>, node: &Node, _: &[Option<Val>]) -> Result<Vec<Val>> {
    Err(super::GraphError::unsupported(
        node,
        "gradients are computed in a compiled cluster; do not mark this node never-compile",
    ))
}

/// The definition of `op`, if smelt supports it.
pub fn lookup(op: &str) -> Option<&'static OpDef> {
    OPS.iter().find(|d| d.name == op)
}

/// Every supported op type, for error messages and docs.
pub fn names() -> impl Iterator<Item = &'static str> {
    OPS.iter().map(|d| d.name)
}

/// ONNX's `TensorProto.DataType` codes as smelt dtypes (`Cast`'s `to`).
pub fn onnx_dtype(code: i64) -> Option<DType> {
    Some(match code {
        1 => DType::F32,
        2 => DType::U8,
        3 => DType::S8,
        4 => DType::U16,
        5 => DType::S16,
        6 => DType::S32,
        7 => DType::S64,
        9 => DType::Pred,
        10 => DType::F16,
        11 => DType::F64,
        12 => DType::U32,
        13 => DType::U64,
        16 => DType::Bf16,
        _ => return None,
    })
}

/// A pure op lowered to HLO (foldable when its inputs are known).
const fn lowered(name: &'static str, lower: LowerFn) -> OpDef {
    OpDef { name, lower: Some(lower), host: None, foldable: true }
}

/// An op run on the host only (data-dependent output shapes).
const fn on_host(name: &'static str, host: HostImpl) -> OpDef {
    OpDef { name, lower: None, host: Some(host), foldable: false }
}

use elementwise as ew;

static OPS: &[OpDef] = &[
    // Training: lowered with its cluster (`lower::lower_cluster`).
    lowered(super::train::GRADIENTS, gradients_alone),
    // Elementwise.
    lowered("Add", ew::add),
    lowered("Sub", ew::sub),
    lowered("Mul", ew::mul),
    lowered("Div", ew::div),
    lowered("Pow", ew::pow),
    lowered("Mod", ew::modulo),
    lowered("Neg", ew::neg),
    lowered("Abs", ew::abs),
    lowered("Exp", ew::exp),
    lowered("Log", ew::log),
    lowered("Sqrt", ew::sqrt),
    lowered("Reciprocal", ew::reciprocal),
    lowered("Floor", ew::floor),
    lowered("Ceil", ew::ceil),
    lowered("Round", ew::round),
    lowered("Sign", ew::sign),
    lowered("Relu", ew::relu),
    lowered("LeakyRelu", ew::leaky_relu),
    lowered("PRelu", ew::prelu),
    lowered("Elu", ew::elu),
    lowered("Selu", ew::selu),
    lowered("Softplus", ew::softplus),
    lowered("Mish", ew::mish),
    lowered("Shrink", ew::shrink),
    lowered("HardSigmoid", ew::hard_sigmoid),
    lowered("HardSwish", ew::hard_swish),
    lowered("ThresholdedRelu", ew::thresholded_relu),
    lowered("Sigmoid", ew::sigmoid),
    lowered("Tanh", ew::tanh),
    lowered("Erf", ew::erf),
    lowered("Sin", ew::sin),
    lowered("Cos", ew::cos),
    lowered("Tan", ew::tan),
    lowered("Asin", ew::asin),
    lowered("Acos", ew::acos),
    lowered("Atan", ew::atan),
    lowered("Sinh", ew::sinh),
    lowered("Cosh", ew::cosh),
    lowered("Asinh", ew::asinh),
    lowered("Acosh", ew::acosh),
    lowered("Atanh", ew::atanh),
    lowered("Celu", ew::celu),
    lowered("Softsign", ew::softsign),
    lowered("IsNaN", ew::is_nan),
    lowered("IsInf", ew::is_inf),
    lowered("CastLike", ew::cast_like),
    lowered("BitShift", ew::bit_shift),
    lowered("BitwiseAnd", ew::and),
    lowered("BitwiseOr", ew::or),
    lowered("BitwiseXor", ew::xor),
    lowered("BitwiseNot", ew::not),
    lowered("Gelu", ew::gelu),
    lowered("Max", ew::max),
    lowered("Min", ew::min),
    lowered("Sum", ew::sum),
    lowered("Mean", ew::mean),
    lowered("Equal", ew::equal),
    lowered("Less", ew::less),
    lowered("LessOrEqual", ew::less_equal),
    lowered("Greater", ew::greater),
    lowered("GreaterOrEqual", ew::greater_equal),
    lowered("Not", ew::not),
    lowered("And", ew::and),
    lowered("Or", ew::or),
    lowered("Xor", ew::xor),
    lowered("Where", ew::where_),
    lowered("Clip", ew::clip),
    lowered("Identity", ew::identity),
    // Control flow: body graphs run as an HLO `while` or `conditional`.
    lowered("Loop", control::loop_),
    lowered("If", control::if_),
    lowered("Cast", ew::cast),
    // Neural-network layers.
    lowered("Einsum", einsum::einsum),
    lowered("MatMul", nn::matmul),
    lowered("Det", linalg::det),
    lowered("NegativeLogLikelihoodLoss", loss::nll_loss),
    lowered("SoftmaxCrossEntropyLoss", loss::softmax_cross_entropy_loss),
    lowered("Gemm", nn::gemm),
    lowered("Conv", nn::conv),
    lowered("DeformConv", nn::deform_conv),
    lowered("MaxPool", nn::max_pool),
    lowered("MaxUnpool", nn::max_unpool),
    lowered("Col2Im", nn::col2im),
    lowered("AveragePool", nn::average_pool),
    lowered("GlobalAveragePool", nn::global_average_pool),
    lowered("GlobalMaxPool", nn::global_max_pool),
    lowered("LpPool", nn::lp_pool),
    lowered("GlobalLpPool", nn::global_lp_pool),
    lowered("BatchNormalization", nn::batch_norm),
    lowered("Softmax", nn::softmax),
    lowered("Hardmax", nn::hardmax),
    lowered("LogSoftmax", nn::log_softmax),
    lowered("LayerNormalization", nn::layer_norm),
    lowered("InstanceNormalization", nn::instance_norm),
    lowered("LRN", nn::lrn),
    lowered("ConvTranspose", nn::conv_transpose),
    lowered("LpNormalization", nn::lp_norm),
    lowered("MeanVarianceNormalization", nn::mean_variance_norm),
    lowered("GroupNormalization", nn::group_norm),
    // Linear quantization.
    lowered("QuantizeLinear", quant::quantize_linear),
    lowered("DequantizeLinear", quant::dequantize_linear),
    lowered("DynamicQuantizeLinear", quant::dynamic_quantize_linear),
    lowered("MatMulInteger", quant::matmul_integer),
    lowered("ConvInteger", quant::conv_integer),
    lowered("QLinearMatMul", quant::qlinear_matmul),
    lowered("QLinearConv", quant::qlinear_conv),
    // Reductions.
    lowered("ReduceSum", reduce::reduce_sum),
    lowered("ReduceMean", reduce::reduce_mean),
    lowered("ReduceMax", reduce::reduce_max),
    lowered("ReduceMin", reduce::reduce_min),
    lowered("ReduceProd", reduce::reduce_prod),
    lowered("ReduceSumSquare", reduce::reduce_sum_square),
    lowered("ReduceL1", reduce::reduce_l1),
    lowered("ReduceL2", reduce::reduce_l2),
    lowered("ReduceLogSum", reduce::reduce_log_sum),
    lowered("ReduceLogSumExp", reduce::reduce_log_sum_exp),
    lowered("ArgMax", reduce::arg_max),
    lowered("ArgMin", reduce::arg_min),
    lowered("CumSum", reduce::cum_sum),
    // Shapes and data movement.
    lowered("Reshape", shape::reshape_op),
    lowered("Flatten", shape::flatten),
    lowered("Transpose", shape::transpose_op),
    lowered("Slice", shape::slice),
    lowered("Concat", shape::concat),
    lowered("Gather", shape::gather),
    lowered("Split", shape::split),
    lowered("Squeeze", shape::squeeze),
    lowered("Unsqueeze", shape::unsqueeze),
    lowered("Expand", shape::expand),
    lowered("Shape", shape::shape),
    lowered("Size", shape::size),
    lowered("Range", shape::range),
    lowered("ConstantOfShape", shape::constant_of_shape),
    lowered("EyeLike", shape::eye_like),
    lowered("CenterCropPad", shape::center_crop_pad),
    lowered("DFT", shape::dft),
    lowered("MelWeightMatrix", shape::mel_weight_matrix),
    lowered("STFT", shape::stft),
    lowered("HannWindow", shape::window),
    lowered("HammingWindow", shape::window),
    lowered("BlackmanWindow", shape::window),
    lowered("Tile", shape::tile),
    lowered("Constant", shape::constant),
    lowered("Pad", shape::pad),
    lowered("DepthToSpace", shape::depth_to_space),
    lowered("SpaceToDepth", shape::space_to_depth),
    lowered("Trilu", shape::trilu),
    lowered("Resize", resize::resize),
    lowered("GridSample", resize::grid_sample),
    lowered("AffineGrid", resize::affine_grid),
    // Indexed reads and writes.
    lowered("OneHot", index::one_hot),
    lowered("GatherElements", index::gather_elements),
    lowered("ReverseSequence", index::reverse_sequence),
    lowered("GatherND", index::gather_nd),
    lowered("ScatterElements", index::scatter_elements),
    // Opsets 9 and 10's `Scatter`: `ScatterElements` under its first name.
    lowered("Scatter", index::scatter_elements),
    lowered("ScatterND", index::scatter_nd),
    // Recurrent layers.
    lowered("RNN", recurrent::rnn),
    lowered("LSTM", recurrent::lstm),
    lowered("GRU", recurrent::gru),
    // Data-dependent output shapes.
    on_host("NonZero", host::non_zero),
    on_host("Compress", host::compress),
    on_host("Unique", host::unique),
    on_host("TopK", host::top_k),
    on_host("NonMaxSuppression", host::non_max_suppression),
    on_host("RoiAlign", host::roi_align),
    on_host("MaxRoiPool", host::max_roi_pool),
    on_host("RandomUniform", random::uniform),
    on_host("RandomUniformLike", random::uniform),
    on_host("RandomNormal", random::normal_draws),
    on_host("RandomNormalLike", random::normal_draws),
    on_host("Bernoulli", random::bernoulli),
    on_host("Multinomial", random::multinomial),
];
