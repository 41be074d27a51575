//! Knobs a backend hands the middle end, as data: which ops it can fuse into the
//! epilogue of a dot or convolution, how large a fusion may grow, how much constant
//! folding is allowed. Backends differ by these values, not by forks of the pipeline.

use smelt_hlo::Opcode;

/// What the fusion pass may build.
#[derive(Clone, Debug, PartialEq)]
pub struct FusionConfig {
    /// Most instructions in one fused computation.
    pub max_fusion_size: usize,
    /// Most reductions in one fused computation.
    pub max_reductions_per_fusion: usize,
    /// The backend runs elementwise epilogues (bias, activation, residual) inside its
    /// dot routine's output tile.
    pub dot_epilogue: bool,
    /// Same for convolutions.
    pub conv_epilogue: bool,
    /// Elementwise opcodes allowed in a dot/convolution epilogue.
    pub epilogue_ops: Vec<Opcode>,
    /// Fuse sibling fusions that read the same operands into one multi-output fusion.
    pub multi_output: bool,
    /// Most large outputs (of at least `fusion::STREAM_ELEMENTS` elements) one
    /// multi-output fusion writes: each is a store stream, and a core's store
    /// bandwidth falls off past about ten of them (AMD EPYC Zen 5: 41 GB/s with
    /// 10 outputs of one input, 28 with 14, 17.5 with 22), while a split only
    /// reads the inputs again.
    pub max_output_streams: usize,
    /// The backend computes a loop kernel's values that depend only on leading
    /// loop indices once per row (once per index of those dimensions), so an
    /// expensive producer that a consumer reads only through broadcasts along
    /// trailing dimensions (a softmax's row max and row sum) may fuse into it
    /// without being recomputed per element.
    pub row_broadcasts: bool,
    /// The backend stores an integer product apart from the output when
    /// its epilogue changes the type (quantized layers requantized to u8 in
    /// the output tile: `smelt_kernel::Program::product_dtype`).
    pub typed_epilogues: bool,
}

impl Default for FusionConfig {
    fn default() -> Self {
        use Opcode::*;
        FusionConfig {
            max_fusion_size: 256,
            max_reductions_per_fusion: 4,
            dot_epilogue: true,
            conv_epilogue: true,
            epilogue_ops: vec![
                Add,
                Subtract,
                Multiply,
                Divide,
                Maximum,
                Minimum,
                Negate,
                Exp,
                Tanh,
                Logistic,
                Erf,
                Select,
                Compare,
                Clamp,
                Convert,
                Broadcast,
                Reshape,
                Constant,
                Sqrt,
                Rsqrt,
                Abs,
                RoundNearestEven,
            ],
            multi_output: true,
            max_output_streams: 8,
            row_broadcasts: true,
            typed_epilogues: true,
        }
    }
}

/// Options of the middle end.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    pub fusion: FusionConfig,
    /// Constant folding leaves results larger than this many elements unfolded.
    pub max_fold_elements: usize,
    /// The backend multiplies u8 by s8 natively (`quantized_products`).
    pub u8s8_products: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options { fusion: FusionConfig::default(), max_fold_elements: 1 << 16, u8s8_products: false }
    }
}
