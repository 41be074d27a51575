//! Op-specific instruction data: one closed enum, matched exhaustively.
//!
//! Each opcode carries exactly one [`Attrs`] variant (see [`Attrs::kind_for`]); the
//! parser, printer and verifier agree on that mapping. Attribute spellings follow
//! XLA's HLO text format.

use std::fmt;

use crate::literal::Literal;
use crate::opcode::Opcode;
use crate::shape::{Dims, write_list};

/// Comparison direction of `compare`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ComparisonDirection {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl ComparisonDirection {
    pub const ALL: [ComparisonDirection; 6] = [Self::Eq, Self::Ne, Self::Lt, Self::Le, Self::Gt, Self::Ge];

    pub fn name(self) -> &'static str {
        match self {
            Self::Eq => "EQ",
            Self::Ne => "NE",
            Self::Lt => "LT",
            Self::Le => "LE",
            Self::Gt => "GT",
            Self::Ge => "GE",
        }
    }

    pub fn from_name(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|d| d.name() == s)
    }

    /// The direction that gives the same result with operands swapped.
    pub fn swapped(self) -> Self {
        match self {
            Self::Lt => Self::Gt,
            Self::Le => Self::Ge,
            Self::Gt => Self::Lt,
            Self::Ge => Self::Le,
            d => d,
        }
    }
}

/// How `compare` orders values (`type=` in text). Absent means the default for the
/// element type: `FLOAT` (IEEE partial order), `SIGNED` or `UNSIGNED`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CompareType {
    Float,
    TotalOrder,
    Signed,
    Unsigned,
}

impl CompareType {
    pub const ALL: [CompareType; 4] = [Self::Float, Self::TotalOrder, Self::Signed, Self::Unsigned];

    pub fn name(self) -> &'static str {
        match self {
            Self::Float => "FLOAT",
            Self::TotalOrder => "TOTALORDER",
            Self::Signed => "SIGNED",
            Self::Unsigned => "UNSIGNED",
        }
    }

    pub fn from_name(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|d| d.name() == s)
    }
}

/// One dimension of `slice={[start:limit:stride], ...}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SliceDim {
    pub start: i64,
    pub limit: i64,
    pub stride: i64,
}

/// One dimension of a pad config: `low_high_interior`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct PadDim {
    pub low: i64,
    pub high: i64,
    pub interior: i64,
}

/// One dimension of a window (reduce-window, select-and-scatter, convolution).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WindowDim {
    pub size: i64,
    pub stride: i64,
    pub pad_low: i64,
    pub pad_high: i64,
    /// `rhs_dilate`: dilation of the window (kernel).
    pub window_dilation: i64,
    /// `lhs_dilate`: dilation of the base (input).
    pub base_dilation: i64,
    pub reversal: bool,
}

impl WindowDim {
    pub fn of_size(size: i64) -> WindowDim {
        WindowDim { size, stride: 1, pad_low: 0, pad_high: 0, window_dilation: 1, base_dilation: 1, reversal: false }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Window {
    pub dims: Vec<WindowDim>,
}

/// A reduce-window that is a cumulative reduction (see [`Window::as_scan`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ScanWindow {
    /// The dimension scanned.
    pub axis: usize,
    /// Whether each output accumulates from its own position to the end of the
    /// axis (padding after the axis) rather than from the start to itself.
    pub reverse: bool,
}

impl Window {
    /// Whether this window, over an operand of `dims`, makes a reduce-window a
    /// cumulative reduction along one axis of extent `n >= 2`: size 1, stride 1,
    /// no padding or dilation on every other dimension; size `n`, stride 1, no
    /// dilation and padding `(n - 1, 0)` (forward: output `j` covers inputs `0..=j`)
    /// or `(0, n - 1)` (reverse: output `j` covers inputs `j..n`) on the axis. This
    /// is how JAX lowers `cumsum`, `cumprod`, `cummax` and `cumlogsumexp`.
    pub fn as_scan(&self, dims: &[i64]) -> Option<ScanWindow> {
        if self.dims.len() != dims.len() {
            return None;
        }
        let plain = |w: &WindowDim| w.stride == 1 && w.window_dilation == 1 && w.base_dilation == 1;
        let mut scan = None;
        for (d, (w, &n)) in self.dims.iter().zip(dims).enumerate() {
            if !plain(w) {
                return None;
            }
            if w.size == 1 && w.pad_low == 0 && w.pad_high == 0 {
                continue;
            }
            let reverse = match (w.pad_low, w.pad_high) {
                (p, 0) if p == n - 1 => false,
                (0, p) if p == n - 1 => true,
                _ => return None,
            };
            if n < 2 || w.size != n || scan.is_some() {
                return None;
            }
            scan = Some(ScanWindow { axis: d, reverse });
        }
        scan
    }
}

/// `lhs_batch_dims`, `lhs_contracting_dims`, ... of `dot`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct DotDims {
    pub lhs_batch: Dims,
    pub rhs_batch: Dims,
    pub lhs_contracting: Dims,
    pub rhs_contracting: Dims,
}

/// `dim_labels=b01f_01io->b01f` of `convolution`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct ConvDims {
    pub input_batch: i64,
    pub input_feature: i64,
    pub input_spatial: Dims,
    pub kernel_input_feature: i64,
    pub kernel_output_feature: i64,
    pub kernel_spatial: Dims,
    pub output_batch: i64,
    pub output_feature: i64,
    pub output_spatial: Dims,
}

impl ConvDims {
    /// Reads XLA's `dim_labels` text, e.g. `b01f_01io->b01f`: input, kernel and
    /// output labels with the batch/feature (`b`, `f`) or input/output feature
    /// (`i`, `o`) positions and one digit per spatial dimension.
    pub fn from_labels(text: &str) -> Result<ConvDims, String> {
        let (lhs_kernel, out) = text.split_once("->").ok_or("expected lhs_rhs->out")?;
        let (lhs, kernel) = lhs_kernel.split_once('_').ok_or("expected lhs_rhs->out")?;
        if lhs.len() != kernel.len() || lhs.len() != out.len() || lhs.len() < 2 {
            return Err("the three label strings must have the same length, at least 2".into());
        }
        let nspatial = lhs.len() - 2;
        let labels = |s: &str, a: char, b_: char| -> Option<(i64, i64, Dims)> {
            let mut first = None;
            let mut second = None;
            let mut spatial = vec![None; nspatial];
            for (i, c) in s.chars().enumerate() {
                if c == a && first.is_none() {
                    first = Some(i as i64);
                } else if c == b_ && second.is_none() {
                    second = Some(i as i64);
                } else if let Some(d) = c.to_digit(10) {
                    let slot = spatial.get_mut(d as usize)?;
                    if slot.is_some() {
                        return None;
                    }
                    *slot = Some(i as i64);
                } else {
                    return None;
                }
            }
            let spatial: Option<Dims> = spatial.into_iter().collect();
            Some((first?, second?, spatial?))
        };
        let (ib, if_, isp) = labels(lhs, 'b', 'f').ok_or("input labels need b, f and spatial digits")?;
        let (ki, ko, ksp) = labels(kernel, 'i', 'o').ok_or("kernel labels need i, o and spatial digits")?;
        let (ob, of, osp) = labels(out, 'b', 'f').ok_or("output labels need b, f and spatial digits")?;
        Ok(ConvDims {
            input_batch: ib,
            input_feature: if_,
            input_spatial: isp,
            kernel_input_feature: ki,
            kernel_output_feature: ko,
            kernel_spatial: ksp,
            output_batch: ob,
            output_feature: of,
            output_spatial: osp,
        })
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ConvAttrs {
    pub window: Window,
    pub dims: ConvDims,
    pub feature_group_count: i64,
    pub batch_group_count: i64,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct GatherAttrs {
    pub offset_dims: Dims,
    pub collapsed_slice_dims: Dims,
    pub start_index_map: Dims,
    pub operand_batching_dims: Dims,
    pub start_indices_batching_dims: Dims,
    pub index_vector_dim: i64,
    pub slice_sizes: Dims,
    pub indices_are_sorted: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct ScatterAttrs {
    pub update_window_dims: Dims,
    pub inserted_window_dims: Dims,
    pub scatter_dims_to_operand_dims: Dims,
    pub input_batching_dims: Dims,
    pub scatter_indices_batching_dims: Dims,
    pub index_vector_dim: i64,
    pub indices_are_sorted: bool,
    pub unique_indices: bool,
}

/// The kind of a `fusion` instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FusionKind {
    Loop,
    Input,
    Output,
    Custom,
}

impl FusionKind {
    pub fn name(self) -> &'static str {
        match self {
            FusionKind::Loop => "kLoop",
            FusionKind::Input => "kInput",
            FusionKind::Output => "kOutput",
            FusionKind::Custom => "kCustom",
        }
    }

    pub fn from_name(s: &str) -> Option<Self> {
        [FusionKind::Loop, FusionKind::Input, FusionKind::Output, FusionKind::Custom]
            .into_iter()
            .find(|k| k.name() == s)
    }
}

/// `algorithm=` of `rng-bit-generator`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RngAlgorithm {
    Default,
    ThreeFry,
    Philox,
}

impl RngAlgorithm {
    pub fn name(self) -> &'static str {
        match self {
            RngAlgorithm::Default => "rng_default",
            RngAlgorithm::ThreeFry => "rng_three_fry",
            RngAlgorithm::Philox => "rng_philox",
        }
    }

    pub fn from_name(s: &str) -> Option<Self> {
        [RngAlgorithm::Default, RngAlgorithm::ThreeFry, RngAlgorithm::Philox].into_iter().find(|k| k.name() == s)
    }
}

/// `distribution=` of `rng`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RngDistribution {
    Uniform,
    Normal,
}

impl RngDistribution {
    pub fn name(self) -> &'static str {
        match self {
            RngDistribution::Uniform => "rng_uniform",
            RngDistribution::Normal => "rng_normal",
        }
    }

    pub fn from_name(s: &str) -> Option<Self> {
        [RngDistribution::Uniform, RngDistribution::Normal].into_iter().find(|k| k.name() == s)
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CustomCallAttrs {
    pub target: String,
    /// Other custom-call attributes (`api_version`, `custom_call_has_side_effect`, ...),
    /// verbatim, in the order they were written.
    pub raw: Vec<(String, String)>,
}

/// Op-specific data. The variant an opcode takes is fixed by [`Attrs::kind_for`].
#[derive(Clone, Debug, PartialEq)]
pub enum Attrs {
    None,
    /// `parameter(N)`.
    Parameter(u32),
    Constant(Box<Literal>),
    Iota {
        dimension: i64,
    },
    /// `dimensions={...}` of broadcast, transpose, reverse, reduce and map.
    Dimensions(Dims),
    /// `dimensions={d}` of concatenate.
    Concatenate {
        dimension: i64,
    },
    Compare {
        direction: ComparisonDirection,
        compare_type: Option<CompareType>,
    },
    Slice(Vec<SliceDim>),
    DynamicSlice {
        sizes: Dims,
    },
    Pad(Vec<PadDim>),
    Dot(DotDims),
    Convolution(Box<ConvAttrs>),
    Gather(Box<GatherAttrs>),
    Scatter(Box<ScatterAttrs>),
    /// reduce-window and select-and-scatter.
    Window(Window),
    Sort {
        dimension: i64,
        is_stable: bool,
    },
    GetTupleElement {
        index: i64,
    },
    Fusion {
        kind: FusionKind,
    },
    CustomCall(Box<CustomCallAttrs>),
    RngBitGenerator {
        algorithm: RngAlgorithm,
    },
    Rng {
        distribution: RngDistribution,
    },
    ReducePrecision {
        exponent_bits: i64,
        mantissa_bits: i64,
    },
    BatchNorm {
        epsilon: f32,
        feature_index: i64,
    },
    TopK {
        k: i64,
        largest: bool,
    },
    /// `fft_type=..., fft_length={...}`: the transform over the innermost
    /// `lengths.len()` dimensions.
    Fft {
        kind: FftKind,
        lengths: Dims,
    },
}

/// XLA's `FftType`: complex to complex forward and inverse, real to complex and
/// back (the inverse transforms are normalized by `1 / prod(fft_length)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FftKind {
    Fft,
    Ifft,
    Rfft,
    Irfft,
}

impl FftKind {
    pub fn name(self) -> &'static str {
        match self {
            FftKind::Fft => "FFT",
            FftKind::Ifft => "IFFT",
            FftKind::Rfft => "RFFT",
            FftKind::Irfft => "IRFFT",
        }
    }

    pub fn from_name(name: &str) -> Option<FftKind> {
        [FftKind::Fft, FftKind::Ifft, FftKind::Rfft, FftKind::Irfft].into_iter().find(|k| k.name() == name)
    }
}

/// Which [`Attrs`] variant an opcode carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttrsKind {
    None,
    Parameter,
    Constant,
    Iota,
    Dimensions,
    Concatenate,
    Compare,
    Slice,
    DynamicSlice,
    Pad,
    Dot,
    Convolution,
    Gather,
    Scatter,
    Window,
    Sort,
    GetTupleElement,
    Fusion,
    CustomCall,
    RngBitGenerator,
    Rng,
    ReducePrecision,
    BatchNorm,
    TopK,
    Fft,
}

impl Attrs {
    pub fn kind_for(op: Opcode) -> AttrsKind {
        use Opcode as O;
        match op {
            O::Parameter => AttrsKind::Parameter,
            O::Constant => AttrsKind::Constant,
            O::Iota => AttrsKind::Iota,
            O::Broadcast | O::Transpose | O::Reverse | O::Reduce | O::Map | O::GetDimensionSize => {
                AttrsKind::Dimensions
            }
            O::Concatenate => AttrsKind::Concatenate,
            O::Compare => AttrsKind::Compare,
            O::Slice => AttrsKind::Slice,
            O::DynamicSlice => AttrsKind::DynamicSlice,
            O::Pad => AttrsKind::Pad,
            O::Dot => AttrsKind::Dot,
            O::Convolution => AttrsKind::Convolution,
            O::Gather => AttrsKind::Gather,
            O::Scatter => AttrsKind::Scatter,
            O::ReduceWindow | O::SelectAndScatter => AttrsKind::Window,
            O::Sort => AttrsKind::Sort,
            O::GetTupleElement => AttrsKind::GetTupleElement,
            O::Fusion => AttrsKind::Fusion,
            O::CustomCall => AttrsKind::CustomCall,
            O::RngBitGenerator => AttrsKind::RngBitGenerator,
            O::Rng => AttrsKind::Rng,
            O::ReducePrecision => AttrsKind::ReducePrecision,
            O::BatchNormGrad | O::BatchNormInference | O::BatchNormTraining => AttrsKind::BatchNorm,
            O::TopK => AttrsKind::TopK,
            O::Fft => AttrsKind::Fft,
            _ => AttrsKind::None,
        }
    }

    pub fn kind(&self) -> AttrsKind {
        match self {
            Attrs::None => AttrsKind::None,
            Attrs::Parameter(_) => AttrsKind::Parameter,
            Attrs::Constant(_) => AttrsKind::Constant,
            Attrs::Iota { .. } => AttrsKind::Iota,
            Attrs::Dimensions(_) => AttrsKind::Dimensions,
            Attrs::Concatenate { .. } => AttrsKind::Concatenate,
            Attrs::Compare { .. } => AttrsKind::Compare,
            Attrs::Slice(_) => AttrsKind::Slice,
            Attrs::DynamicSlice { .. } => AttrsKind::DynamicSlice,
            Attrs::Pad(_) => AttrsKind::Pad,
            Attrs::Dot(_) => AttrsKind::Dot,
            Attrs::Convolution(_) => AttrsKind::Convolution,
            Attrs::Gather(_) => AttrsKind::Gather,
            Attrs::Scatter(_) => AttrsKind::Scatter,
            Attrs::Window(_) => AttrsKind::Window,
            Attrs::Sort { .. } => AttrsKind::Sort,
            Attrs::GetTupleElement { .. } => AttrsKind::GetTupleElement,
            Attrs::Fusion { .. } => AttrsKind::Fusion,
            Attrs::CustomCall(_) => AttrsKind::CustomCall,
            Attrs::RngBitGenerator { .. } => AttrsKind::RngBitGenerator,
            Attrs::Rng { .. } => AttrsKind::Rng,
            Attrs::ReducePrecision { .. } => AttrsKind::ReducePrecision,
            Attrs::BatchNorm { .. } => AttrsKind::BatchNorm,
            Attrs::TopK { .. } => AttrsKind::TopK,
            Attrs::Fft { .. } => AttrsKind::Fft,
        }
    }

    /// `dimensions` of a [`Attrs::Dimensions`] instruction, else empty.
    pub fn dimensions(&self) -> &[i64] {
        match self {
            Attrs::Dimensions(d) => d,
            _ => &[],
        }
    }
}

/// `{1,2,3}`.
pub struct Braced<'a>(pub &'a [i64]);

impl fmt::Display for Braced<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("{")?;
        write_list(f, self.0)?;
        f.write_str("}")
    }
}

impl fmt::Display for Window {
    /// `size=3x3 stride=2x2 pad=0_1x0_1 lhs_dilate=... rhs_dilate=... rhs_reversal=...`,
    /// printing each field only when some dimension differs from its default.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let dims = &self.dims;
        let join = |f: &mut fmt::Formatter<'_>, get: &dyn Fn(&WindowDim) -> String| -> fmt::Result {
            for (i, d) in dims.iter().enumerate() {
                if i > 0 {
                    f.write_str("x")?;
                }
                f.write_str(&get(d))?;
            }
            Ok(())
        };
        f.write_str("{")?;
        if dims.is_empty() {
            return f.write_str("}");
        }
        f.write_str("size=")?;
        join(f, &|d| d.size.to_string())?;
        if dims.iter().any(|d| d.stride != 1) {
            f.write_str(" stride=")?;
            join(f, &|d| d.stride.to_string())?;
        }
        if dims.iter().any(|d| d.pad_low != 0 || d.pad_high != 0) {
            f.write_str(" pad=")?;
            join(f, &|d| format!("{}_{}", d.pad_low, d.pad_high))?;
        }
        if dims.iter().any(|d| d.base_dilation != 1) {
            f.write_str(" lhs_dilate=")?;
            join(f, &|d| d.base_dilation.to_string())?;
        }
        if dims.iter().any(|d| d.window_dilation != 1) {
            f.write_str(" rhs_dilate=")?;
            join(f, &|d| d.window_dilation.to_string())?;
        }
        if dims.iter().any(|d| d.reversal) {
            f.write_str(" rhs_reversal=")?;
            join(f, &|d| (d.reversal as u8).to_string())?;
        }
        f.write_str("}")
    }
}

impl fmt::Display for ConvDims {
    /// `b01f_01io->b01f`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fn labels(rank: usize, fixed: &[(i64, char)], spatial: &[i64]) -> String {
            let mut out = vec!['?'; rank];
            for &(d, c) in fixed {
                if let Some(slot) = usize::try_from(d).ok().and_then(|d| out.get_mut(d)) {
                    *slot = c;
                }
            }
            for (i, &d) in spatial.iter().enumerate() {
                if let Some(slot) = usize::try_from(d).ok().and_then(|d| out.get_mut(d)) {
                    *slot = char::from_digit(i as u32, 36).unwrap_or('?');
                }
            }
            out.into_iter().collect()
        }
        let rank = self.input_spatial.len() + 2;
        write!(
            f,
            "{}_{}->{}",
            labels(rank, &[(self.input_batch, 'b'), (self.input_feature, 'f')], &self.input_spatial),
            labels(rank, &[(self.kernel_input_feature, 'i'), (self.kernel_output_feature, 'o')], &self.kernel_spatial),
            labels(rank, &[(self.output_batch, 'b'), (self.output_feature, 'f')], &self.output_spatial),
        )
    }
}

/// `0_0_0x1_2_0` (low_high_interior per dimension).
pub struct PaddingText<'a>(pub &'a [PadDim]);

impl fmt::Display for PaddingText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let has_interior = self.0.iter().any(|p| p.interior != 0);
        for (i, p) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("x")?;
            }
            write!(f, "{}_{}", p.low, p.high)?;
            if has_interior {
                write!(f, "_{}", p.interior)?;
            }
        }
        Ok(())
    }
}

/// `{[0:4], [1:5:2]}`.
pub struct SliceText<'a>(pub &'a [SliceDim]);

impl fmt::Display for SliceText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Strides are printed for every dimension once any is not 1.
        let strided = self.0.iter().any(|s| s.stride != 1);
        f.write_str("{")?;
        for (i, s) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "[{}:{}", s.start, s.limit)?;
            if strided {
                write!(f, ":{}", s.stride)?;
            }
            f.write_str("]")?;
        }
        f.write_str("}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn window(dims: &[(i64, i64, i64)]) -> Window {
        Window {
            dims: dims
                .iter()
                .map(|&(size, pad_low, pad_high)| WindowDim { pad_low, pad_high, ..WindowDim::of_size(size) })
                .collect(),
        }
    }

    #[test]
    fn scans_span_one_whole_axis_with_padding_on_one_side() {
        let fwd = window(&[(1, 0, 0), (5, 4, 0)]);
        assert_eq!(fwd.as_scan(&[3, 5]), Some(ScanWindow { axis: 1, reverse: false }));
        let rev = window(&[(3, 0, 2), (1, 0, 0)]);
        assert_eq!(rev.as_scan(&[3, 5]), Some(ScanWindow { axis: 0, reverse: true }));
        // Not scans: a shorter window, padding on both sides, two axes, a unit
        // axis, a stride, a dilation, a rank mismatch, no window at all.
        assert_eq!(window(&[(1, 0, 0), (4, 4, 0)]).as_scan(&[3, 5]), None);
        assert_eq!(window(&[(1, 0, 0), (5, 2, 2)]).as_scan(&[3, 5]), None);
        assert_eq!(window(&[(3, 2, 0), (5, 4, 0)]).as_scan(&[3, 5]), None);
        assert_eq!(window(&[(1, 0, 0), (1, 0, 0)]).as_scan(&[1, 1]), None);
        let mut strided = fwd.clone();
        strided.dims[1].stride = 2;
        assert_eq!(strided.as_scan(&[3, 5]), None);
        let mut dilated = fwd.clone();
        dilated.dims[0].base_dilation = 2;
        assert_eq!(dilated.as_scan(&[3, 5]), None);
        assert_eq!(fwd.as_scan(&[5]), None);
        assert_eq!(window(&[(1, 0, 0), (1, 0, 0)]).as_scan(&[3, 5]), None);
    }
}
