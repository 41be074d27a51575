//! Convolution with XLA's general dimension numbers, generated as LLVM IR for one
//! static shape ([`ConvSpec`]).
//!
//! Output convention: the output is seen as a matrix `[rows, F]` where `F` is the
//! output feature count and `row` is the row-major linear index over the output's
//! other dimensions, in the output's dimension order. For the usual feature-minor
//! layouts (`b01f`, `01bf`, ...) this is the output's memory exactly. The epilogue
//! is called as `epilogue(ctx, 0, r0, r1, f0, f1)` for disjoint blocks covering
//! every output element once, each after its values are final (possibly from
//! several threads at once): row blocks x all features (depthwise, direct), or
//! `MR`-row strips x a run's columns (im2col with feature-minor outputs), or one
//! block of everything after the scatter (other outputs).
//!
//! Every output feature `f` belongs to feature group `f / (F / G)` and batch group
//! `f / (F / BG)`; features sharing both form runs of `gcd(F/G, F/BG)` columns,
//! each an independent product. First the kernel is gathered into a canonical
//! layout (window reversal applied, any dimension order), then one of:
//!
//! - **Depthwise** (one input feature per group, no batch groups, input and output
//!   features minor): each output row is `sum over taps of input[tap] * w[tap]`
//!   vectorized over all output features (input feature `f / multiplier`). The
//!   taps that land in the input are found once per row; padding reads zero.
//!   This is what GEMM would waste `NR - 1` of `NR` lanes on.
//! - **Planar** (depthwise with features major and two trailing spatial
//!   dimensions: NCHW / OIHW): per output plane, row and run of a vector's
//!   worth of columns, one accumulator summed over every tap in registers from
//!   masked loads (padding reads zero), then stored (f32 and f64; operands of
//!   other types tap by tap into the output row); the epilogue runs once at
//!   the end.
//! - **Direct** (output features minor, and runs of at most 16 features, sums
//!   over fewer than 32 products, or under 2M multiply-adds in all: e.g. every
//!   convolution of the corpus's small CNNs): four output rows at a
//!   time, each input value broadcast against a vector of the run's kernel
//!   values, summed over taps and the group's input features. No packing; GEMM
//!   would compute mostly padding in its 32-column tiles.
//! - **Columns** (NCHW in and out, an OIHW kernel, one group, a column
//!   stride of 1 or 2, operands of the output's float type, output rows of at least
//!   four pixels): per image `out[F, S] = W[F, K] x X[K, S]`
//!   with X's columns the output pixels, written straight into the output
//!   (no scratch matrix, no transpose; the epilogue per image). The kernel
//!   is A, read in place; each task gathers the B panels of its pixels, per
//!   tap and input feature one masked load per output-row segment of a
//!   panel, shifted onto its lanes ([`Conv::gather_columns`]).
//! - **im2col + GEMM** (everything else): per run, `[rows, taps * Cg] x [taps * Cg,
//!   run]` with the GEMM's packing and macro-kernel ([`crate::gemm`]). With
//!   an element gather and an `oi01`-style kernel the depth runs feature
//!   major (`z * taps + tap`), which makes each output feature's kernel one
//!   contiguous run that B is packed from directly. Few rows split the
//!   features between tasks, which share one gather of the im2col matrix
//!   (gathered by parallel tasks first). Otherwise the im2col matrix is never
//!   materialized: each task gathers an `MC x KC` block of it straight into
//!   packed micro-panels (padding, strides and both dilations resolved in the
//!   gather), so its memory stays bounded and cache-resident. Contiguous input
//!   features (a vector or more per group) are gathered a vector per row and
//!   tap, `lanes x lanes` blocks transposed in registers into the panels'
//!   `k`-major order; NCHW inputs a masked vector load per panel, tap and
//!   feature (u8 quads: four feature planes interleaved,
//!   `Conv::gather_quad_planes`); others element by element.
//!   Outputs whose feature dimension is not minor are computed into a `[rows, F]`
//!   scratch matrix, each task moving its finished block into the output
//!   (register transposes for NCHW) and, for NCHW, running the epilogue on it
//!   ([`epilogue_per_image`]); other layouts run it once over everything.
//!
//! Threads: tasks are row blocks (x runs for im2col) through `smelt_parallel_for`;
//! convolutions under 64K multiply-adds run on the calling thread.

use inkwell::IntPredicate;
use inkwell::module::{Linkage, Module};
use inkwell::targets::TargetMachine;
use inkwell::values::{BasicValueEnum, FunctionValue, IntValue, PointerValue};
use smelt_hlo::DType;
use smelt_hlo::attrs::ConvDims;
use smelt_kernel::ir::{ConvStep, WindowSpec};
use smelt_runtime::routines::conv::ConvWindow;
use smelt_runtime::routines::conv_gemm::{ConvGemm, Float};

use crate::gemm::{Blocking, Parts, PartsSpec, depth_flags};
use crate::routine::{
    Ct, INLINE_WORK, Ir, Isa, R, RoutineError, Slots, call_epilogue, run_tasks, set_target_attrs, task_entry,
    task_function,
};

/// The widest column stride the im2col gather loads whole panels for.
const PANEL_MAX_STRIDE: i64 = 2;

/// Multiply-adds worth a task of their own when an im2col convolution splits
/// its features between tasks.
const TASK_WORK: i64 = 1 << 20;

/// Tasks an im2col convolution aims for at least (features split when its
/// row blocks are fewer), so that every core of the pool gets some.
const MIN_TASKS: i64 = 16;

/// The input index that output index `o`'s tap `k` reads along one spatial
/// dimension: `o * stride + k * dilation - pad_low` (outside the input in
/// the padding).
fn window_at<'ctx>(ir: &Ir<'_, 'ctx>, o: IntValue<'ctx>, k: IntValue<'ctx>, w: &WindowSpec) -> R<IntValue<'ctx>> {
    ir.add(ir.mul(o, ir.c(w.stride))?, ir.sub(ir.mul(k, ir.c(w.window_dilation))?, ir.c(w.pad_low))?)
}

/// A convolution with every shape known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConvSpec {
    pub input: DType,
    pub kernel: DType,
    pub out: DType,
    pub input_dims: Vec<i64>,
    pub kernel_dims: Vec<i64>,
    pub dims: ConvDims,
    /// One entry per spatial dimension (in the order of `dims.input_spatial`).
    pub window: Vec<WindowSpec>,
    pub window_reversal: Vec<bool>,
    pub feature_group_count: i64,
    pub batch_group_count: i64,
}

impl ConvSpec {
    /// An f32 convolution with `feature_groups` feature groups, no window
    /// reversal and no batch groups.
    pub fn f32(
        input_dims: &[i64],
        kernel_dims: &[i64],
        dims: ConvDims,
        window: Vec<WindowSpec>,
        feature_groups: i64,
    ) -> ConvSpec {
        ConvSpec {
            input: DType::F32,
            kernel: DType::F32,
            out: DType::F32,
            input_dims: input_dims.to_vec(),
            kernel_dims: kernel_dims.to_vec(),
            dims,
            window_reversal: vec![false; window.len()],
            window,
            feature_group_count: feature_groups,
            batch_group_count: 1,
        }
    }

    /// The spec of a kernel-form convolution step (its epilogue aside).
    pub fn from_step(step: &ConvStep) -> ConvSpec {
        ConvSpec {
            input: step.input.ty.dtype,
            kernel: step.kernel.ty.dtype,
            out: step.out.ty.dtype,
            input_dims: step.input.ty.dims.clone(),
            kernel_dims: step.kernel.ty.dims.clone(),
            dims: step.dims.clone(),
            window: step.window.clone(),
            window_reversal: step.window_reversal.clone(),
            feature_group_count: step.feature_group_count,
            batch_group_count: step.batch_group_count,
        }
    }

    /// The output's dimensions, or why the spec is not a valid convolution.
    pub fn output_dims(&self) -> Result<Vec<i64>, RoutineError> {
        Ok(Geom::new(self)?.out_dims)
    }

    /// The symbol of the generated function (a hash of the whole spec).
    pub fn symbol(&self) -> String {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        format!("{self:?}").hash(&mut h);
        format!("smelt_conv_{}_{:016x}", self.out.name(), h.finish())
    }
}

/// How a convolution is computed (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConvStrategy {
    Depthwise,
    Planar,
    Direct,
    Columns,
    Im2colGemm,
}

impl ConvStrategy {
    pub const ALL: [ConvStrategy; 5] = [
        ConvStrategy::Depthwise,
        ConvStrategy::Planar,
        ConvStrategy::Direct,
        ConvStrategy::Columns,
        ConvStrategy::Im2colGemm,
    ];

    pub fn name(self) -> &'static str {
        match self {
            ConvStrategy::Depthwise => "depthwise",
            ConvStrategy::Planar => "planar",
            ConvStrategy::Direct => "direct",
            ConvStrategy::Columns => "columns",
            ConvStrategy::Im2colGemm => "im2col",
        }
    }
}

/// Whether `strategy` can compute `spec` (im2col + GEMM always can).
pub fn conv_strategy_applies(spec: &ConvSpec, strategy: ConvStrategy) -> Result<bool, RoutineError> {
    Ok(Geom::new(spec)?.applies(strategy))
}

/// The strategy [`conv_function`] picks for `spec`.
pub fn conv_strategy(spec: &ConvSpec) -> Result<ConvStrategy, RoutineError> {
    Ok(Geom::new(spec)?.strategy())
}

/// Where the routine for `spec` runs its epilogue per block of an output
/// whose features are not minor: `Some((F, S))` when the output is `[B, F,
/// spatial...]` in row-major order (NCHW) and im2col or columns computes it, so each
/// block is called as `epilogue(ctx, b, f0, f1, p0, p1)` over the image's
/// output seen as `[F, S]` (S the spatial size) right after the block is
/// final (the driver builds the epilogue for that view); `None`: the
/// epilogue runs once afterwards (or per `[rows, F]` block when features are
/// minor).
pub fn epilogue_per_image(spec: &ConvSpec) -> Result<Option<(i64, i64)>, RoutineError> {
    let g = Geom::new(spec)?;
    let nchw = g.out_b == 0 && g.out_f == 1 && g.out_sp.iter().enumerate().all(|(k, &d)| d == k + 2);
    let gemm = matches!(g.strategy(), ConvStrategy::Im2colGemm | ConvStrategy::Columns);
    Ok((nchw && g.rows > 0 && !g.feature_minor_out() && gemm).then(|| (g.f, g.out_dims[2..].iter().product())))
}

/// `spec` as the generic convolution routine takes it
/// (`smelt_runtime::routines::conv_gemm`), if it can: operands of one type
/// whose products the prebuilt GEMM family covers ([`crate::routines::FAMILY`]),
/// no batch groups, nothing empty.
pub fn conv_gemm(spec: &ConvSpec) -> Option<ConvGemm> {
    if spec.input != spec.kernel || !crate::routines::FAMILY.contains(&(spec.input, spec.out)) {
        return None;
    }
    let reversal = |s: usize| spec.window_reversal.get(s).copied().unwrap_or(false);
    let window = spec
        .window
        .iter()
        .enumerate()
        .map(|(s, w)| ConvWindow {
            size: w.size,
            stride: w.stride,
            pad_low: w.pad_low,
            window_dilation: w.window_dilation,
            base_dilation: w.base_dilation,
            reversal: reversal(s),
        })
        .collect();
    let bytes = [spec.input, spec.kernel, spec.out].map(|d| d.byte_size() as i64);
    let out = spec.output_dims().ok()?;
    let (groups, batch_groups) = (spec.feature_group_count, spec.batch_group_count);
    let float = match (spec.input, spec.kernel, spec.out) {
        (DType::F32, DType::F32, DType::F32) => Some(Float::F32),
        (DType::F64, DType::F64, DType::F64) => Some(Float::F64),
        _ => None,
    };
    ConvGemm::new(bytes, &spec.input_dims, &spec.kernel_dims, &out, &spec.dims, window, groups, batch_groups)
        .and_then(|c| c.with_float(float))
        .ok()
}

/// Validated geometry; all indices are static.
struct Geom {
    in_dims: Vec<i64>,
    out_dims: Vec<i64>,
    in_strides: Vec<i64>,
    k_strides: Vec<i64>,
    out_strides: Vec<i64>,
    in_b: usize,
    in_f: usize,
    in_sp: Vec<usize>,
    k_i: usize,
    k_o: usize,
    k_sp: Vec<usize>,
    out_b: usize,
    out_f: usize,
    out_sp: Vec<usize>,
    /// Whether the output type is the compute type, so partial sums can live
    /// in the output (the planar strategy).
    exact_accumulator: bool,
    /// Bytes of an output element.
    out_bytes: i64,
    window: Vec<WindowSpec>,
    reversal: Vec<bool>,
    /// Input features per feature group.
    cg: i64,
    /// Output features.
    f: i64,
    /// Output features per feature group and per batch group.
    f_per_fg: i64,
    f_per_bg: i64,
    /// Output batch (input batch per batch group).
    nb: i64,
    /// Columns per run.
    gs: i64,
    runs: i64,
    tap_sizes: Vec<i64>,
    taps: i64,
    rows: i64,
    /// (output dimension, its size, row stride) for the dimensions rows run over.
    row_dims: Vec<(usize, i64, i64)>,
}

/// Widest run of output features the direct strategy is chosen for.
const DIRECT_MAX_RUN: i64 = 16;
/// Multiply-adds up to which the direct strategy is chosen whatever the shape.
const DIRECT_MAX_WORK: i64 = 1 << 21;
/// Kernel rows a multiple of this many bytes apart keep the columns strategy
/// away: read in place, a 12-row tile (AVX-512) of them falls into one L1
/// set and would not stay there across the panels.
const COLUMNS_ALIASED_ROWS: i64 = crate::gemm::L1_WAY_BYTES;
/// The most taps the columns gather unrolls (offsets and masks in registers).
const COLUMNS_UNROLLED_TAPS: i64 = 9;
/// L2s' worth of gathered panels the columns strategy shares at most between
/// feature blocks on a host with small L2s (else each task gathers its own).
/// Four had left a 256 -> 256 3x3 over 14x14 (2.2 MB of panels, four
/// feature blocks) gathering four times: on a Zen 3 EPYC (512 KiB L2, 32
/// MiB L3) sharing ran its layer chain (`k3_14` of
/// `scripts/onnx_layer_chains.py`) 24.7 -> 22.8 ms on one thread, 14.1 ->
/// 13.1 on two; 64 (every layer of ResNet-50) was no better than eight.
const COLUMNS_SHARED_L2S: i64 = 8;
/// Fewest B panels per pixel run of a columns task when runs are cut
/// shorter than a B block to give the pool more tasks (a 64 -> 64 3x3 over
/// 56x56 in 5 tasks of 640 pixels on 2 threads kept one thread idle for a
/// fifth of the time; in 16 of 224, 0.97-1.10 -> 0.84-0.87 ms, Xeon).
const COLUMNS_MIN_CHUNK_PANELS: i64 = 2;
/// Narrowest output row the columns strategy takes: a panel of up to 32
/// pixels then spans at most nine output rows (one masked load each).
const COLUMNS_MIN_WIDTH: i64 = 4;

fn cdiv(a: i64, b: i64) -> i64 {
    (a + b - 1) / b
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

impl Geom {
    fn new(spec: &ConvSpec) -> R<Geom> {
        let bad = |m: String| Err(RoutineError::InvalidConv(m));
        let d = &spec.dims;
        let s = d.input_spatial.len();
        let rank = s + 2;
        if spec.input_dims.len() != rank || spec.kernel_dims.len() != rank {
            return bad(format!(
                "operands of rank {} and {} for {s} spatial dimensions",
                spec.input_dims.len(),
                spec.kernel_dims.len()
            ));
        }
        if d.kernel_spatial.len() != s || d.output_spatial.len() != s || spec.window.len() != s {
            return bad("dimension labels or window disagree on the number of spatial dimensions".into());
        }
        if !spec.window_reversal.is_empty() && spec.window_reversal.len() != s {
            return bad("window reversal has the wrong length".into());
        }
        if spec.input_dims.iter().chain(&spec.kernel_dims).any(|&x| x < 0) {
            return bad("negative dimension".into());
        }
        let idx = |v: i64| usize::try_from(v).ok().filter(|&v| v < rank);
        let perm = |fixed: [i64; 2], sp: &[i64], what: &str| -> R<(usize, usize, Vec<usize>)> {
            let mut all = vec![];
            for &v in fixed.iter().chain(sp) {
                match idx(v) {
                    Some(v) if !all.contains(&v) => all.push(v),
                    _ => {
                        return Err(RoutineError::InvalidConv(format!(
                            "{what} dimension numbers are not a permutation"
                        )));
                    }
                }
            }
            Ok((all[0], all[1], all[2..].to_vec()))
        };
        let (in_b, in_f, in_sp) = perm([d.input_batch, d.input_feature], &d.input_spatial, "input")?;
        let (k_i, k_o, k_sp) = perm([d.kernel_input_feature, d.kernel_output_feature], &d.kernel_spatial, "kernel")?;
        let (out_b, out_f, out_sp) = perm([d.output_batch, d.output_feature], &d.output_spatial, "output")?;
        let (g, bg) = (spec.feature_group_count, spec.batch_group_count);
        if g < 1 || bg < 1 {
            return bad("group counts must be positive".into());
        }
        let c = spec.input_dims[in_f];
        let f = spec.kernel_dims[k_o];
        let n = spec.input_dims[in_b];
        if c % g != 0 || spec.kernel_dims[k_i] * g != c {
            return bad(format!("{c} input features do not split into {g} groups of {}", spec.kernel_dims[k_i]));
        }
        if f % g != 0 || f % bg != 0 || n % bg != 0 {
            return bad(format!("{f} output features or batch {n} do not split into the groups"));
        }
        let mut out_dims = vec![0i64; rank];
        out_dims[out_b] = n / bg;
        out_dims[out_f] = f;
        for (k, w) in spec.window.iter().enumerate() {
            if w.stride < 1 || w.window_dilation < 1 || w.base_dilation < 1 {
                return bad(format!("window dimension {k} has a non-positive stride or dilation"));
            }
            if w.size != spec.kernel_dims[k_sp[k]] {
                return bad(format!("window size {} differs from the kernel's {}", w.size, spec.kernel_dims[k_sp[k]]));
            }
            let len = spec.input_dims[in_sp[k]] as i128;
            let base = if len == 0 { 0 } else { (len - 1) * w.base_dilation as i128 + 1 };
            let padded = base + w.pad_low as i128 + w.pad_high as i128;
            let extent = if w.size == 0 { 0 } else { (w.size as i128 - 1) * w.window_dilation as i128 + 1 };
            let o = if padded < extent { 0 } else { (padded - extent) / w.stride as i128 + 1 };
            if o > i32::MAX as i128 {
                return bad(format!("output spatial dimension {k} is too large"));
            }
            out_dims[out_sp[k]] = o as i64;
        }
        let tap_sizes: Vec<i64> = k_sp.iter().map(|&k| spec.kernel_dims[k]).collect();
        let taps = tap_sizes.iter().product();
        let mut row_dims = Vec::new();
        let mut stride = 1;
        for dim in (0..rank).rev() {
            if dim != out_f {
                row_dims.push((dim, out_dims[dim], stride));
                stride *= out_dims[dim];
            }
        }
        row_dims.reverse();
        let (f_per_fg, f_per_bg) = (f / g, f / bg);
        let gs = if f == 0 { 1 } else { gcd(f_per_fg, f_per_bg).max(1) };
        Ok(Geom {
            in_dims: spec.input_dims.clone(),
            in_strides: smelt_llvm::codegen::strides(&spec.input_dims),
            k_strides: smelt_llvm::codegen::strides(&spec.kernel_dims),
            out_strides: smelt_llvm::codegen::strides(&out_dims),
            rows: stride,
            out_dims,
            in_b,
            in_f,
            in_sp,
            k_i,
            k_o,
            k_sp,
            out_b,
            out_f,
            out_sp,
            exact_accumulator: spec.input == spec.out
                && spec.kernel == spec.out
                && matches!(spec.out, DType::F32 | DType::F64),
            out_bytes: spec.out.byte_size() as i64,
            window: spec.window.clone(),
            reversal: (0..s).map(|k| spec.window_reversal.get(k).copied().unwrap_or(false)).collect(),
            cg: c / g,
            f,
            f_per_fg,
            f_per_bg,
            nb: n / bg,
            gs,
            runs: if f == 0 { 0 } else { f / gs },
            tap_sizes,
            taps,
            row_dims,
        })
    }

    /// Two spatial dimensions trailing in the input and the output (NCHW), a
    /// column stride of at most [`PANEL_MAX_STRIDE`], no base dilation: a
    /// panel of consecutive output columns reads, per tap and input feature,
    /// one evenly spaced run of the input ([`Conv::tap_run`]).
    fn panel_layout(&self) -> bool {
        let rank = self.in_dims.len();
        let trailing = |sp: &[usize]| sp.len() == 2 && sp[0] == rank - 2 && sp[1] == rank - 1;
        trailing(&self.in_sp)
            && trailing(&self.out_sp)
            && self.window[1].stride <= PANEL_MAX_STRIDE
            && self.window.iter().all(|w| w.base_dilation == 1)
    }

    fn feature_minor_out(&self) -> bool {
        self.out_f == self.out_dims.len() - 1
    }

    fn applies(&self, strategy: ConvStrategy) -> bool {
        match strategy {
            ConvStrategy::Depthwise => {
                self.cg == 1
                    && self.f_per_bg == self.f
                    && self.in_f == self.in_dims.len() - 1
                    && self.feature_minor_out()
            }
            ConvStrategy::Planar => self.planar(),
            ConvStrategy::Direct => self.feature_minor_out(),
            ConvStrategy::Columns => self.columns(),
            ConvStrategy::Im2colGemm => true,
        }
    }

    /// Whether the columns strategy applies: NCHW input and output, an OIHW
    /// kernel stored row-major and unreversed (each feature's weights one
    /// row of `K = C * taps`, in the order the input is gathered), one
    /// feature and batch group, operands of the output's float type, a
    /// column stride of at most [`PANEL_MAX_STRIDE`], no base dilation,
    /// output rows of at least [`COLUMNS_MIN_WIDTH`], kernel rows not a
    /// multiple of [`COLUMNS_ALIASED_ROWS`] bytes long.
    fn columns(&self) -> bool {
        let rank = self.in_dims.len();
        let trailing = |sp: &[usize]| sp.len() == 2 && sp[0] == 2 && sp[1] == 3;
        rank == 4
            && (self.in_b, self.in_f, self.out_b, self.out_f, self.k_o, self.k_i) == (0, 1, 0, 1, 0, 1)
            && trailing(&self.in_sp)
            && trailing(&self.out_sp)
            && trailing(&self.k_sp)
            && self.runs == 1
            && self.exact_accumulator
            && self.window[1].stride <= PANEL_MAX_STRIDE
            && self.window.iter().all(|w| w.base_dilation == 1)
            && !self.reversal.iter().any(|&r| r)
            && self.out_dims[3] >= COLUMNS_MIN_WIDTH
            && (self.taps * self.cg * self.out_bytes) % COLUMNS_ALIASED_ROWS != 0
    }

    /// Whether the convolution is depthwise over planes: one input feature
    /// per group, no batch groups, two spatial dimensions trailing in order
    /// in the input, kernel and output (NCHW / OIHW), no base dilation or
    /// window reversal.
    fn planar(&self) -> bool {
        let rank = self.in_dims.len();
        let trailing = |sp: &[usize]| sp.len() == 2 && sp[0] == rank - 2 && sp[1] == rank - 1;
        self.cg == 1
            && self.f_per_bg == self.f
            && self.exact_accumulator
            && trailing(&self.in_sp)
            && trailing(&self.k_sp)
            && trailing(&self.out_sp)
            && self.window.iter().all(|w| w.base_dilation == 1)
            && !self.reversal.iter().any(|&r| r)
    }

    /// Depthwise when it applies; direct loops when GEMM would mostly compute
    /// padding (a run of at most half its 32-column tile), when the sums are too
    /// short to amortize packing (`taps * Cg` below 32), or when the whole
    /// convolution is small (packing and gathering would dominate); else GEMM:
    /// NCHW with pixels along the columns (columns) where it applies, else
    /// im2col. On a Zen 2 EPYC, ResNet's 3x3 convolutions ran 1.3x (3136
    /// and 784 pixels) to 1.2-1.3x (196 and 49 pixels, 256 and 512
    /// features) faster as columns.
    fn strategy(&self) -> ConvStrategy {
        let work = self.rows.saturating_mul(self.f).saturating_mul(self.taps).saturating_mul(self.cg);
        let narrow = self.gs <= DIRECT_MAX_RUN || self.taps * self.cg < 32 || work <= DIRECT_MAX_WORK;
        if self.applies(ConvStrategy::Depthwise) {
            ConvStrategy::Depthwise
        } else if self.applies(ConvStrategy::Planar) {
            ConvStrategy::Planar
        } else if self.applies(ConvStrategy::Direct) && narrow {
            ConvStrategy::Direct
        } else if self.applies(ConvStrategy::Columns) {
            ConvStrategy::Columns
        } else {
            ConvStrategy::Im2colGemm
        }
    }

    /// Output batch and spatial coordinates of row `r`.
    fn decode_row<'ctx>(
        &self,
        ir: &Ir<'_, 'ctx>,
        r: IntValue<'ctx>,
        out_b: usize,
        out_sp: &[usize],
    ) -> R<(IntValue<'ctx>, Vec<IntValue<'ctx>>)> {
        let mut ob = ir.c(0);
        let mut sp = vec![ir.c(0); out_sp.len()];
        for &(dim, size, stride) in &self.row_dims {
            let x = ir.rem(ir.div(r, ir.c(stride))?, ir.c(size.max(1)))?;
            if dim == out_b {
                ob = x;
            } else if let Some(k) = out_sp.iter().position(|&d| d == dim) {
                sp[k] = x;
            }
        }
        Ok((ob, sp))
    }

    /// Kernel spatial coordinates (unreversed) of tap `t`.
    fn decode_tap<'ctx>(&self, ir: &Ir<'_, 'ctx>, t: IntValue<'ctx>) -> R<Vec<IntValue<'ctx>>> {
        let mut out = Vec::with_capacity(self.tap_sizes.len());
        let mut stride = 1;
        let mut strides = vec![0; self.tap_sizes.len()];
        for k in (0..self.tap_sizes.len()).rev() {
            strides[k] = stride;
            stride *= self.tap_sizes[k];
        }
        for (k, &size) in self.tap_sizes.iter().enumerate() {
            out.push(ir.rem(ir.div(t, ir.c(strides[k]))?, ir.c(size.max(1)))?);
        }
        Ok(out)
    }

    /// Whether window position `ks` of output position `os` lands on an input
    /// element, and that element's offset (spatial part only; 0 when it does not).
    fn input_offset<'ctx>(
        &self,
        ir: &Ir<'_, 'ctx>,
        os: &[IntValue<'ctx>],
        ks: &[IntValue<'ctx>],
    ) -> R<(IntValue<'ctx>, IntValue<'ctx>)> {
        let mut valid = ir.cx.bool_type().const_int(1, false);
        let mut off = ir.c(0);
        for (k, w) in self.window.iter().enumerate() {
            let p = ir.add(
                ir.sub(ir.mul(os[k], ir.c(w.stride))?, ir.c(w.pad_low))?,
                ir.mul(ks[k], ir.c(w.window_dilation))?,
            )?;
            let nonneg = ir.cmp(IntPredicate::SGE, p, ir.c(0))?;
            let (i, on_grid) = if w.base_dilation == 1 {
                (p, nonneg)
            } else {
                let grid = ir.cmp(IntPredicate::EQ, ir.rem(p, ir.c(w.base_dilation))?, ir.c(0))?;
                (ir.div(p, ir.c(w.base_dilation))?, ir.b.build_and(nonneg, grid, "")?)
            };
            let inside = ir.cmp(IntPredicate::SLT, i, ir.c(self.in_dims[self.in_sp[k]]))?;
            valid = ir.b.build_and(valid, ir.b.build_and(on_grid, inside, "")?, "")?;
            off = ir.add(off, ir.mul(i, ir.c(self.in_strides[self.in_sp[k]]))?)?;
        }
        Ok((valid, ir.select(valid, off, ir.c(0))?))
    }
}

/// Returns the function computing `spec`, generating it into `module` on first
/// use. C signature:
///
/// ```c
/// void f(const void* input, const void* kernel, void* out,
///        void (*epilogue)(void* ctx, int64_t b, int64_t r0, int64_t r1, int64_t f0, int64_t f1),
///        void* epilogue_ctx);
/// ```
///
/// `b` is always 0; rows and features are as the module documentation defines.
pub fn conv_function<'ctx>(
    module: &Module<'ctx>,
    target: &TargetMachine,
    spec: &ConvSpec,
) -> Result<FunctionValue<'ctx>, RoutineError> {
    let name = spec.symbol();
    match module.get_function(&name) {
        Some(f) => Ok(f),
        None => build(module, target, spec, Geom::new(spec)?.strategy(), name, false),
    }
}

/// [`conv_function`] calling the GEMM parts of [`gemm_parts`] (declared, for
/// a [`PartsSpec`] object linked beside it to define) instead of its own.
pub(crate) fn conv_function_sharing_parts<'ctx>(
    module: &Module<'ctx>,
    target: &TargetMachine,
    spec: &ConvSpec,
) -> Result<FunctionValue<'ctx>, RoutineError> {
    build(module, target, spec, Geom::new(spec)?.strategy(), spec.symbol(), true)
}

/// The GEMM parts the convolution `spec` calls on `target`, if any: those
/// of its operand and result types, for the columns and im2col strategies.
pub(crate) fn gemm_parts(target: &TargetMachine, spec: &ConvSpec) -> Result<Option<PartsSpec>, RoutineError> {
    let ct = Ct::for_product("convolution", [spec.input, spec.kernel], spec.out)?;
    match parts_group(Isa::of(target), ct, spec, Geom::new(spec)?.strategy()) {
        Some(group) => PartsSpec::new(target, (spec.input, spec.kernel, spec.out), group).map(Some),
        None => Ok(None),
    }
}

/// The packing group of the GEMM parts `strategy` calls, if it calls them:
/// the columns gather fills plain panels, im2col packs as a product of the
/// convolution's types would ([`crate::gemm::group_for`]).
fn parts_group(isa: Isa, ct: Ct, spec: &ConvSpec, strategy: ConvStrategy) -> Option<u32> {
    match strategy {
        ConvStrategy::Columns => Some(1),
        ConvStrategy::Im2colGemm => Some(crate::gemm::group_for(isa, ct, spec.input, spec.kernel)),
        ConvStrategy::Depthwise | ConvStrategy::Planar | ConvStrategy::Direct => None,
    }
}

/// [`conv_function`] with a chosen strategy (an error where it does not apply),
/// named `{spec.symbol()}_{strategy.name()}`: for tests and measurements.
pub fn conv_function_using<'ctx>(
    module: &Module<'ctx>,
    target: &TargetMachine,
    spec: &ConvSpec,
    strategy: ConvStrategy,
) -> Result<FunctionValue<'ctx>, RoutineError> {
    let name = format!("{}_{}", spec.symbol(), strategy.name());
    if let Some(f) = module.get_function(&name) {
        return Ok(f);
    }
    if !Geom::new(spec)?.applies(strategy) {
        return Err(RoutineError::Unsupported(format!("the {} strategy for this convolution", strategy.name())));
    }
    build(module, target, spec, strategy, name, false)
}

fn build<'ctx>(
    module: &Module<'ctx>,
    target: &TargetMachine,
    spec: &ConvSpec,
    strategy: ConvStrategy,
    name: String,
    shared_parts: bool,
) -> Result<FunctionValue<'ctx>, RoutineError> {
    let g = Geom::new(spec)?;
    let ct = Ct::for_product("convolution", [spec.input, spec.kernel], spec.out)?;
    let isa = Isa::of(target);
    let cx = module.get_context();
    let p = cx.ptr_type(Default::default());
    let ty = cx.void_type().fn_type(&[p.into(), p.into(), p.into(), p.into(), p.into()], false);
    let f = module.add_function(&name, ty, Some(Linkage::External));
    set_target_attrs(cx, f, target, isa);
    let c = Conv {
        scatter_to: std::cell::Cell::new(None),
        raw_gather: std::cell::Cell::new(false),
        module,
        target,
        spec,
        g,
        ct,
        isa,
        name: name.clone(),
        parts_group: parts_group(isa, ct, spec, strategy).unwrap_or(1),
        shared_parts,
    };
    let ir = Ir::new(module, f);
    let (input, kernel, out, epi, ectx) =
        (ir.param_ptr(0), ir.param_ptr(1), ir.param_ptr(2), ir.param_ptr(3), ir.param_ptr(4));
    let g = &c.g;
    let omem = ir.mem_ty(spec.out, 0);
    if g.rows == 0 || g.f == 0 {
        ir.ret()?;
        return Ok(f);
    }
    if g.taps * g.cg == 0 || g.in_dims.contains(&0) {
        // Empty sums, or an empty input (every tap reads padding): zeros.
        let total = g.rows * g.f;
        ir.for_range(ir.c(0), ir.c(total), 1, |e| {
            let z = ir.ct_to(ir.zero(ct, 0), ct, spec.out)?;
            ir.store(ir.gep(omem, out, e)?, z, spec.out.byte_size() as u32)
        })?;
        call_epilogue(&ir, epi, ectx, [ir.c(0), ir.c(0), ir.c(g.rows), ir.c(0), ir.c(g.f)])?;
        ir.ret()?;
        return Ok(f);
    }
    match strategy {
        // The kernel as [tap][f], tasks of output rows.
        ConvStrategy::Depthwise => {
            let layout = ([g.gs, g.f, 0, 1], g.taps * g.f);
            let args = [input, kernel, out, epi, ectx];
            c.row_tasks(&ir, args, layout, ("dw", g.f * g.taps), Conv::depthwise_task)?
        }
        // The kernel as [run][tap][z][j], tasks of output rows.
        ConvStrategy::Direct => {
            let layout = ([g.taps * g.cg * g.gs, g.cg * g.gs, g.gs, 1], g.runs * g.taps * g.cg * g.gs);
            let args = [input, kernel, out, epi, ectx];
            c.row_tasks(&ir, args, layout, ("direct", g.f * g.taps * g.cg), Conv::direct_task)?
        }
        // Tasks of output planes, read straight from the kernel; one epilogue
        // block over everything after them.
        ConvStrategy::Planar => {
            let planes = g.nb * g.f;
            let grain = (16384 / (g.rows / g.nb.max(1) * g.taps).max(1)).max(1);
            let ptrs = [input, kernel, out, ir.ptrt().const_null(), ectx];
            c.share_tasks(&ir, ptrs, "planar", (planes, grain), |task| c.planar_task(task))?;
            call_epilogue(&ir, epi, ectx, [ir.c(0), ir.c(0), ir.c(g.rows), ir.c(0), ir.c(g.f)])?;
        }
        ConvStrategy::Columns => c.columns(&ir, [input, kernel, out, epi, ectx])?,
        ConvStrategy::Im2colGemm => c.im2col(&ir, [input, kernel, out, epi, ectx])?,
    }
    ir.ret()?;
    Ok(f)
}

struct Conv<'s, 'ctx> {
    /// Where the next shared tasks scatter their scratch blocks ([`S_DST`]).
    scatter_to: std::cell::Cell<Option<PointerValue<'ctx>>>,
    /// The im2col gather stores the input's own 8-bit values (for quad
    /// panels, repacked from them) instead of accumulator values.
    raw_gather: std::cell::Cell<bool>,
    module: &'s Module<'ctx>,
    target: &'s TargetMachine,
    spec: &'s ConvSpec,
    g: Geom,
    ct: Ct,
    isa: Isa,
    name: String,
    /// The packing group of the GEMM parts the strategy calls ([`parts_group`]).
    parts_group: u32,
    /// The GEMM parts are declared, not defined ([`conv_function_sharing_parts`]).
    shared_parts: bool,
}

// Context slots of the task functions.
const S_IN: u32 = 0;
const S_KER: u32 = 1;
const S_OUT: u32 = 2;
const S_EPI: u32 = 3;
const S_ECTX: u32 = 4;
/// The output an im2col task scatters its finished block of the scratch
/// matrix into (outputs whose features are not minor).
const S_DST: u32 = 5;
const SLOTS: u32 = 6;

impl<'s, 'ctx> Conv<'s, 'ctx> {
    /// The element type and bytes the im2col gather stores ([`Conv::raw_gather`]).
    /// The GEMM parts the columns and im2col strategies call.
    fn parts(&self) -> R<Parts<'ctx>> {
        let types = (self.spec.input, self.spec.kernel, self.spec.out);
        Parts::get(self.module, self.target, self.isa, self.ct, types, self.parts_group, self.shared_parts)
    }

    fn a_elem(&self, ir: &Ir<'_, 'ctx>) -> (inkwell::types::BasicTypeEnum<'ctx>, u32) {
        if self.raw_gather.get() {
            (ir.mem_ty(self.spec.input, 0), self.spec.input.byte_size() as u32)
        } else {
            (self.ct.ty(ir.cx), self.ct.bytes())
        }
    }

    /// An input value (scalar or vector) as the gather stores it.
    fn a_value(&self, ir: &Ir<'_, 'ctx>, v: BasicValueEnum<'ctx>) -> R<BasicValueEnum<'ctx>> {
        if self.raw_gather.get() { Ok(v) } else { ir.to_ct(v, self.spec.input, self.ct) }
    }

    /// The gather's zero (padding).
    fn a_zero(&self, ir: &Ir<'_, 'ctx>) -> BasicValueEnum<'ctx> {
        if self.raw_gather.get() { ir.cx.i8_type().const_zero().into() } else { ir.zero(self.ct, 0) }
    }

    /// Whether the whole convolution is too little work to share between threads.
    fn inline(&self, ir: &Ir<'_, 'ctx>) -> IntValue<'ctx> {
        let g = &self.g;
        let work = g.rows.saturating_mul(g.f).saturating_mul(g.taps).saturating_mul(g.cg);
        ir.cx.bool_type().const_int((work < INLINE_WORK) as u64, false)
    }

    /// Copies the kernel into a canonical layout: element (run, tap, z, j) at
    /// `run*s[0] + tap*s[1] + z*s[2] + j*s[3]`, window reversal applied, in the
    /// kernel's own element type. For output-feature-minor kernels (`01io`)
    /// the loops follow both layouts (taps, input features, features). For
    /// feature-major ones (`oi01`, ONNX's and PyTorch's) the order is input
    /// features, features, taps: walking those feature-innermost missed the
    /// cache on every element.
    fn gather_kernel(
        &self,
        ir: &Ir<'_, 'ctx>,
        kernel: PointerValue<'ctx>,
        dst: PointerValue<'ctx>,
        s: [i64; 4],
    ) -> R<()> {
        let g = &self.g;
        let kmem = ir.mem_ty(self.spec.kernel, 0);
        let kb = self.spec.kernel.byte_size() as u32;
        // The source offset of tap `t`'s spatial position.
        let tap_offset = |t: IntValue<'ctx>| -> R<IntValue<'ctx>> {
            let ks = g.decode_tap(ir, t)?;
            let mut off = ir.c(0);
            for (k, &x) in ks.iter().enumerate() {
                let x = if g.reversal[k] { ir.sub(ir.c(g.tap_sizes[k] - 1), x)? } else { x };
                off = ir.add(off, ir.mul(x, ir.c(g.k_strides[g.k_sp[k]]))?)?;
            }
            Ok(off)
        };
        let copy =
            |run: IntValue<'ctx>, t: IntValue<'ctx>, toff: IntValue<'ctx>, z: IntValue<'ctx>, j: IntValue<'ctx>| {
                let fo = ir.add(ir.mul(run, ir.c(g.gs))?, j)?;
                let src =
                    ir.add(ir.add(toff, ir.mul(z, ir.c(g.k_strides[g.k_i]))?)?, ir.mul(fo, ir.c(g.k_strides[g.k_o]))?)?;
                let v = ir.load(kmem, ir.gep(kmem, kernel, src)?, kb)?;
                let d = ir.add(
                    ir.add(ir.mul(run, ir.c(s[0]))?, ir.mul(t, ir.c(s[1]))?)?,
                    ir.add(ir.mul(z, ir.c(s[2]))?, ir.mul(j, ir.c(s[3]))?)?,
                )?;
                ir.store(ir.gep(kmem, dst, d)?, v, kb)
            };
        let features_major = g.k_strides[g.k_o] > g.k_strides[g.k_i];
        ir.for_range(ir.c(0), ir.c(g.runs), 1, |run| {
            if features_major {
                // Taps innermost read each (feature, input feature) pair's
                // contiguous taps; successive input features reuse the same
                // cache lines, and the writes are one sequential stream per tap.
                ir.for_range(ir.c(0), ir.c(g.cg), 1, |z| {
                    ir.for_range(ir.c(0), ir.c(g.gs), 1, |j| {
                        ir.for_range(ir.c(0), ir.c(g.taps), 1, |t| copy(run, t, tap_offset(t)?, z, j))
                    })
                })
            } else {
                ir.for_range(ir.c(0), ir.c(g.taps), 1, |t| {
                    let toff = tap_offset(t)?;
                    ir.for_range(ir.c(0), ir.c(g.cg), 1, |z| {
                        ir.for_range(ir.c(0), ir.c(g.gs), 1, |j| copy(run, t, toff, z, j))
                    })
                })
            }
        })
    }

    /// Hands `tasks` tasks of `grain` to the pool (or runs them inline): the
    /// five pointers (input, prepared kernel, output, epilogue and its context)
    /// go into the context slots of a task function named `suffix`, which
    /// `body` fills in.
    fn share_tasks(
        &self,
        ir: &Ir<'_, 'ctx>,
        ptrs: [PointerValue<'ctx>; 5],
        suffix: &str,
        (tasks, grain): (i64, i64),
        body: impl FnOnce(FunctionValue<'ctx>) -> R<()>,
    ) -> R<()> {
        let s = Slots::alloc(ir, SLOTS)?;
        for (slot, p) in [S_IN, S_KER, S_OUT, S_EPI, S_ECTX].into_iter().zip(ptrs) {
            s.set_ptr(ir, slot, p)?;
        }
        s.set_ptr(ir, S_DST, self.scatter_to.get().unwrap_or(ir.ptrt().const_null()))?;
        let task = task_function(self.module, self.target, self.isa, &format!("{}_{suffix}", self.name));
        body(task)?;
        run_tasks(ir, task, s.ptr, ir.c(tasks), ir.c(grain), self.inline(ir))
    }

    /// A task function's builder, its rows `lo..hi` and its five pointers
    /// (see [`Conv::share_tasks`]).
    fn task_entry(
        &self,
        f: FunctionValue<'ctx>,
    ) -> R<(Ir<'s, 'ctx>, IntValue<'ctx>, IntValue<'ctx>, [PointerValue<'ctx>; 5])> {
        let (ir, s, lo, hi) = task_entry(self.module, f, SLOTS);
        let mut ptrs = [ir.ptrt().const_null(); 5];
        for (p, slot) in ptrs.iter_mut().zip([S_IN, S_KER, S_OUT, S_EPI, S_ECTX]) {
            *p = s.get_ptr(&ir, slot)?;
        }
        Ok((ir, lo, hi, ptrs))
    }

    /// The widest power-of-two vector of the compute type, at most `n` lanes.
    fn vector_width(&self, n: i64) -> i64 {
        let lanes = Blocking::new(self.isa, self.ct).lanes as i64;
        let mut vl = 1;
        while vl * 2 <= lanes.min(n) {
            vl *= 2;
        }
        vl
    }

    /// Per-tap input offsets and validity for up to `ROWS` output rows at a
    /// time (`[row][tap]` tables the direct strategies read in their tap loops).
    fn tap_tables(&self, ir: &Ir<'_, 'ctx>) -> R<TapTables<'ctx>> {
        let n = (TapTables::ROWS * self.g.taps) as u32;
        let offs = ir.alloca(ir.i64t().array_type(n).into())?;
        let oks = ir.alloca(ir.cx.bool_type().array_type(n).into())?;
        let (out_b, out_sp) = out_layout(self.spec);
        Ok(TapTables { offs, oks, out_b, out_sp })
    }

    /// Fills the tables for output rows `r0..r0 + rows`: element offsets into
    /// the input (batch base included) and whether each tap reads inside it.
    fn fill_tap_tables(&self, ir: &Ir<'_, 'ctx>, t: &TapTables<'ctx>, r0: IntValue<'ctx>, rows: i64) -> R<()> {
        let g = &self.g;
        for q in 0..rows {
            let (obt, os) = g.decode_row(ir, ir.add(r0, ir.c(q))?, t.out_b, &t.out_sp)?;
            let base = ir.mul(obt, ir.c(g.in_strides[g.in_b]))?;
            ir.for_range(ir.c(0), ir.c(g.taps), 1, |tap| {
                let ks = g.decode_tap(ir, tap)?;
                let (valid, off) = g.input_offset(ir, &os, &ks)?;
                let slot = ir.add(ir.c(q * g.taps), tap)?;
                ir.store(ir.gep(ir.i64t().into(), t.offs, slot)?, ir.add(base, off)?.into(), 8)?;
                ir.store(ir.gep(ir.cx.bool_type().into(), t.oks, slot)?, valid.into(), 1)
            })?;
        }
        Ok(())
    }

    /// Row `q`'s offset and validity for tap `tap` from the tables.
    fn tap_entry(
        &self,
        ir: &Ir<'_, 'ctx>,
        t: &TapTables<'ctx>,
        q: i64,
        tap: IntValue<'ctx>,
    ) -> R<(IntValue<'ctx>, IntValue<'ctx>)> {
        let slot = ir.add(ir.c(q * self.g.taps), tap)?;
        let off = ir.load(ir.i64t().into(), ir.gep(ir.i64t().into(), t.offs, slot)?, 8)?.into_int_value();
        let ok = ir.load(ir.cx.bool_type().into(), ir.gep(ir.cx.bool_type().into(), t.oks, slot)?, 1)?;
        Ok((off, ok.into_int_value()))
    }

    /// Runs `group` over `lo..hi` in groups of `ROWS` rows, then single rows,
    /// and calls the epilogue on the task's rows.
    fn row_groups(
        &self,
        ir: &Ir<'_, 'ctx>,
        (lo, hi): (IntValue<'ctx>, IntValue<'ctx>),
        (epi, ectx): (PointerValue<'ctx>, PointerValue<'ctx>),
        group: impl Fn(IntValue<'ctx>, i64) -> R<()>,
    ) -> R<()> {
        const ROWS: i64 = TapTables::ROWS;
        let span = ir.sub(hi, lo)?;
        let rmain = ir.add(lo, ir.sub(span, ir.rem(span, ir.c(ROWS))?)?)?;
        ir.for_range(lo, rmain, ROWS, |r| group(r, ROWS))?;
        ir.for_range(rmain, hi, 1, |r| group(r, 1))?;
        call_epilogue(ir, epi, ectx, [ir.c(0), lo, hi, ir.c(0), ir.c(self.g.f)])
    }

    /// Gathers the kernel into `layout` (strides for [`Conv::gather_kernel`]
    /// and the element count) and shares the output rows between tasks of
    /// `task`, in grains of about 16K multiply-adds (`work` per row).
    fn row_tasks(
        &self,
        ir: &Ir<'_, 'ctx>,
        args: [PointerValue<'ctx>; 5],
        (strides, elems): ([i64; 4], i64),
        (suffix, work): (&str, i64),
        task: fn(&Self, FunctionValue<'ctx>) -> R<()>,
    ) -> R<()> {
        let kernel = ir.alloc(ir.c(elems * self.spec.kernel.byte_size() as i64))?;
        self.gather_kernel(ir, args[1], kernel, strides)?;
        let grain = (16384 / work.max(1)).max(1);
        let ptrs = [args[0], kernel, args[2], args[3], args[4]];
        self.share_tasks(ir, ptrs, suffix, (self.g.rows, grain), |f| task(self, f))?;
        ir.free(kernel)
    }

    fn depthwise_task(&self, f: FunctionValue<'ctx>) -> R<()> {
        let g = &self.g;
        let spec = self.spec;
        let ct = self.ct;
        let (ir, lo, hi, [input, kc, out, epi, ectx]) = self.task_entry(f)?;
        let vl = self.vector_width(g.f);
        let fmain = g.f - g.f % vl;
        let mult = g.f_per_fg;
        let (imem, kmem, omem) = (ir.mem_ty(spec.input, 0), ir.mem_ty(spec.kernel, 0), ir.mem_ty(spec.out, 0));
        let (ib, kb, ob) = (spec.input.byte_size() as u32, spec.kernel.byte_size() as u32, spec.out.byte_size() as u32);
        let tables = self.tap_tables(&ir)?;
        // `rows` consecutive output rows from `r0`: independent accumulators per row
        // hide the FMA latency of the tap loop.
        let group = |r0: IntValue<'ctx>, rows: i64| -> R<()> {
            self.fill_tap_tables(&ir, &tables, r0, rows)?;
            // One chunk of `n` output features from `f0` for every row.
            let chunk = |f0: IntValue<'ctx>, n: u32| -> R<()> {
                let zero = ir.zero(ct, if n == 1 { 0 } else { n });
                let accs: Vec<_> = (0..rows).map(|_| ir.alloca(zero.get_type())).collect::<R<_>>()?;
                for &a in &accs {
                    ir.store(a, zero, 1)?;
                }
                ir.for_range(ir.c(0), ir.c(g.taps), 1, |t| {
                    let wty = ir.mem_ty(spec.kernel, if n == 1 { 0 } else { n });
                    let w = ir.load(wty, ir.gep(kmem, kc, ir.add(ir.mul(t, ir.c(g.f))?, f0)?)?, kb)?;
                    let w = ir.to_ct(w, spec.kernel, ct)?;
                    for (q, &acc) in accs.iter().enumerate() {
                        let (off, valid) = self.tap_entry(&ir, &tables, q as i64, t)?;
                        let x = if mult == 1 || n == 1 {
                            let c0 = if mult == 1 { f0 } else { ir.div(f0, ir.c(mult))? };
                            let ty = ir.mem_ty(spec.input, if n == 1 { 0 } else { n });
                            ir.load(ty, ir.gep(imem, input, ir.add(off, c0)?)?, ib)?
                        } else {
                            let mut v: BasicValueEnum<'ctx> = ir.mem_ty(spec.input, n).const_zero();
                            for l in 0..n {
                                let c = ir.div(ir.add(f0, ir.c(l as i64))?, ir.c(mult))?;
                                let e = ir.load(imem, ir.gep(imem, input, ir.add(off, c)?)?, ib)?;
                                let lane = ir.cx.i32_type().const_int(l as u64, false);
                                v = ir.b.build_insert_element(v.into_vector_value(), e, lane, "")?.into();
                            }
                            v
                        };
                        let x = ir.to_ct(x, spec.input, ct)?;
                        let x = ir.b.build_select(valid, x, zero, "")?;
                        let a = ir.load(zero.get_type(), acc, 1)?;
                        ir.store(acc, ir.mul_add(ct, x, w, a)?, 1)?;
                    }
                    Ok(())
                })?;
                for (q, &acc) in accs.iter().enumerate() {
                    let orow = ir.gep(omem, out, ir.mul(ir.add(r0, ir.c(q as i64))?, ir.c(g.f))?)?;
                    let v = ir.ct_to(ir.load(zero.get_type(), acc, 1)?, ct, spec.out)?;
                    ir.store(ir.gep(omem, orow, f0)?, v, ob)?;
                }
                Ok(())
            };
            ir.for_range(ir.c(0), ir.c(fmain), vl, |f0| chunk(f0, vl as u32))?;
            ir.for_range(ir.c(fmain), ir.c(g.f), 1, |f0| chunk(f0, 1))
        };
        self.row_groups(&ir, (lo, hi), (epi, ectx), group)?;
        ir.ret()
    }

    /// Where planar task `p` (image `p / F`, output feature `p % F`) starts:
    /// its input plane (the feature's group's input feature), output plane and
    /// kernel taps, as element offsets.
    fn plane_bases(&self, ir: &Ir<'_, 'ctx>, p: IntValue<'ctx>) -> R<[IntValue<'ctx>; 3]> {
        let g = &self.g;
        let (n, fo) = (ir.div(p, ir.c(g.f))?, ir.rem(p, ir.c(g.f))?);
        let c = ir.div(fo, ir.c(g.f_per_fg))?;
        let iplane = ir.add(ir.mul(n, ir.c(g.in_strides[g.in_b]))?, ir.mul(c, ir.c(g.in_strides[g.in_f]))?)?;
        let oplane = ir.add(ir.mul(n, ir.c(g.out_strides[g.out_b]))?, ir.mul(fo, ir.c(g.out_strides[g.out_f]))?)?;
        Ok([iplane, oplane, ir.mul(fo, ir.c(g.k_strides[g.k_o]))?])
    }

    /// Planes `lo..hi` (output batch x feature) of a planar depthwise
    /// convolution: each output row starts at zero and takes every tap that
    /// lands in the input as one multiply-add over the run of output columns
    /// it reaches (bounds worked out here, per tap column), so each element
    /// sums its taps in row-major order, as the interpreter does, and the
    /// column loops run over contiguous memory.
    fn planar_task(&self, f: FunctionValue<'ctx>) -> R<()> {
        let g = &self.g;
        let spec = self.spec;
        let ct = self.ct;
        let (ir, lo, hi, [input, kernel, out, _, _]) = self.task_entry(f)?;
        if spec.input == spec.out && spec.kernel == spec.out {
            self.planar_vectors(&ir, (lo, hi), [input, kernel, out])?;
            return ir.ret();
        }
        let (imem, kmem, omem) = (ir.mem_ty(spec.input, 0), ir.mem_ty(spec.kernel, 0), ir.mem_ty(spec.out, 0));
        let (ib, kb, ob) = (spec.input.byte_size() as u32, spec.kernel.byte_size() as u32, spec.out.byte_size() as u32);
        let (ih, iw) = (g.in_dims[g.in_sp[0]], g.in_dims[g.in_sp[1]]);
        let (oh, ow) = (g.out_dims[g.out_sp[0]], g.out_dims[g.out_sp[1]]);
        let (kh, kw) = (g.tap_sizes[0], g.tap_sizes[1]);
        let (wy, wx) = (&g.window[0], &g.window[1]);
        // Per tap column: the output columns whose input column is inside.
        let cols: Vec<(i64, i64)> = (0..kw)
            .map(|kx| {
                let off = kx * wx.window_dilation - wx.pad_low;
                let first = if off >= 0 { 0 } else { (-off + wx.stride - 1) / wx.stride };
                let last = if iw - 1 - off < 0 { -1 } else { (iw - 1 - off) / wx.stride };
                (first.min(ow), (last + 1).clamp(first.min(ow), ow))
            })
            .collect();
        ir.for_range(lo, hi, 1, |p| {
            let [iplane, oplane, kplane] = self.plane_bases(&ir, p)?;
            ir.for_range(ir.c(0), ir.c(oh), 1, |oy| {
                let orow = ir.add(oplane, ir.mul(oy, ir.c(ow))?)?;
                ir.for_range(ir.c(0), ir.c(ow), 1, |ox| {
                    let z = ir.ct_to(ir.zero(ct, 0), ct, spec.out)?;
                    ir.store(ir.gep(omem, out, ir.add(orow, ox)?)?, z, ob)
                })?;
                for ky in 0..kh {
                    let iy = ir.add(ir.mul(oy, ir.c(wy.stride))?, ir.c(ky * wy.window_dilation - wy.pad_low))?;
                    let inside = ir.in_range(iy, 0, ih)?;
                    ir.if_(inside, || {
                        let irow = ir.add(iplane, ir.mul(iy, ir.c(iw))?)?;
                        for (kx, &(first, end)) in cols.iter().enumerate() {
                            if first >= end {
                                continue;
                            }
                            let kx = kx as i64;
                            let kat = ir.add(kplane, ir.c(ky * kw + kx))?;
                            let w = ir.to_ct(ir.load(kmem, ir.gep(kmem, kernel, kat)?, kb)?, spec.kernel, ct)?;
                            let shift = kx * wx.window_dilation - wx.pad_low;
                            ir.for_range(ir.c(first), ir.c(end), 1, |ox| {
                                let ix = ir.add(ir.mul(ox, ir.c(wx.stride))?, ir.c(shift))?;
                                let x = ir.load(imem, ir.gep(imem, input, ir.add(irow, ix)?)?, ib)?;
                                let x = ir.to_ct(x, spec.input, ct)?;
                                let at = ir.gep(omem, out, ir.add(orow, ox)?)?;
                                let acc = ir.to_ct(ir.load(omem, at, ob)?, spec.out, ct)?;
                                let v = ir.ct_to(ir.mul_add(ct, x, w, acc)?, ct, spec.out)?;
                                ir.store(at, v, ob)
                            })?;
                        }
                        Ok(())
                    })?;
                }
                Ok(())
            })
        })?;
        ir.ret()
    }

    /// Where a run of `n` output columns from output position `[oy, ox]` reads
    /// tap `[ky, kx]`, two spatial dimensions trailing in the input: the
    /// offset in the input plane of the first loaded element (its row clamped
    /// into the plane) and the mask of the `stride * n` loaded elements that
    /// lie in the input (none on a padding row); the rest read nothing.
    fn tap_run(
        &self,
        ir: &Ir<'_, 'ctx>,
        [oy, ox]: [IntValue<'ctx>; 2],
        [ky, kx]: [IntValue<'ctx>; 2],
        n: u32,
    ) -> R<(IntValue<'ctx>, inkwell::values::VectorValue<'ctx>)> {
        let (row_ok, row) = self.tap_row(ir, oy, ky)?;
        let (ix, mask) = self.tap_columns(ir, ox, kx, n, row_ok)?;
        Ok((ir.add(row, ix)?, mask))
    }

    /// The row half of [`Conv::tap_run`]: whether output row `oy`'s tap row
    /// `ky` lies in the input, and the offset of that input row (of row 0
    /// where it does not, so that masked-off loads stay near the plane).
    fn tap_row(
        &self,
        ir: &Ir<'_, 'ctx>,
        oy: IntValue<'ctx>,
        ky: IntValue<'ctx>,
    ) -> R<(IntValue<'ctx>, IntValue<'ctx>)> {
        let g = &self.g;
        let (ih, iw) = (g.in_dims[g.in_sp[0]], g.in_dims[g.in_sp[1]]);
        let iy = window_at(ir, oy, ky, &g.window[0])?;
        let row_ok = ir.in_range(iy, 0, ih)?;
        let iy = ir.select(row_ok, iy, ir.c(0))?;
        Ok((row_ok, ir.mul(iy, ir.c(iw))?))
    }

    /// The column half of [`Conv::tap_run`]: the input column of output
    /// column `ox`'s tap `kx` and the mask of the `stride * n` lanes from it
    /// that lie in the input row (all off unless `row_ok`).
    fn tap_columns(
        &self,
        ir: &Ir<'_, 'ctx>,
        ox: IntValue<'ctx>,
        kx: IntValue<'ctx>,
        n: u32,
        row_ok: IntValue<'ctx>,
    ) -> R<(IntValue<'ctx>, inkwell::values::VectorValue<'ctx>)> {
        let g = &self.g;
        let iw = g.in_dims[g.in_sp[1]];
        let ix = window_at(ir, ox, kx, &g.window[1])?;
        let mask = ir.lanes_in_range(ix, (g.window[1].stride * n as i64) as u32, 0, iw, row_ok)?;
        Ok((ix, mask))
    }

    /// The planar strategy on vectors, for operands of the output's type:
    /// per plane its taps' weights as splats, per output row and run of
    /// `lanes` columns one accumulator summed over every tap in registers from
    /// masked loads of the input rows (padding and columns past the row read
    /// as zero; every other element of a double-width load for stride 2),
    /// then one (masked) store.
    fn planar_vectors(
        &self,
        ir: &Ir<'_, 'ctx>,
        (lo, hi): (IntValue<'ctx>, IntValue<'ctx>),
        [input, kernel, out]: [PointerValue<'ctx>; 3],
    ) -> R<()> {
        let g = &self.g;
        let spec = self.spec;
        let ct = self.ct;
        let l = Blocking::new(self.isa, ct).lanes.max(1);
        let mem = ir.mem_ty(spec.out, 0);
        let b = spec.out.byte_size() as u32;
        let (oh, ow) = (g.out_dims[g.out_sp[0]], g.out_dims[g.out_sp[1]]);
        let (kh, kw) = (g.tap_sizes[0], g.tap_sizes[1]);
        let sx = g.window[1].stride;
        let wide = ir.mem_ty(spec.input, (sx * l as i64) as u32);
        let every: Vec<Option<u32>> = (0..l).map(|i| Some(i * sx as u32)).collect();
        let yes = ir.cx.bool_type().const_int(1, false);
        ir.for_range(lo, hi, 1, |p| {
            let [iplane, oplane, kplane] = self.plane_bases(&ir, p)?;
            let mut weights = Vec::with_capacity((kh * kw) as usize);
            for t in 0..kh * kw {
                let w = ir.load(mem, ir.gep(mem, kernel, ir.add(kplane, ir.c(t))?)?, b)?;
                weights.push(ir.splat(w, l)?);
            }
            ir.for_range(ir.c(0), ir.c(oh), 1, |oy| {
                let orow = ir.add(oplane, ir.mul(oy, ir.c(ow))?)?;
                ir.for_range(ir.c(0), ir.c(ow), l as i64, |ox0| {
                    // Loaded elements of columns past the row's end read nothing.
                    let cols = ir.lanes_in_range(
                        ir.mul(ox0, ir.c(sx))?,
                        (sx * l as i64) as u32,
                        i32::MIN as i64,
                        ow * sx,
                        yes,
                    )?;
                    let mut acc = ir.zero(ct, l);
                    for ky in 0..kh {
                        for kx in 0..kw {
                            let (at, inside) = self.tap_run(ir, [oy, ox0], [ir.c(ky), ir.c(kx)], l)?;
                            let mask = ir.b.build_and(inside, cols, "")?;
                            let x = ir.masked_load(wide, ir.gep_wrapping(mem, input, ir.add(iplane, at)?)?, mask)?;
                            let x = if sx == 1 { x } else { ir.shuffle(x, x, &every)? };
                            acc = ir.mul_add(ct, x, weights[(ky * kw + kx) as usize], acc)?;
                        }
                    }
                    let at = ir.gep(mem, out, ir.add(orow, ox0)?)?;
                    let whole = ir.cmp(IntPredicate::SLE, ir.add(ox0, ir.c(l as i64))?, ir.c(ow))?;
                    ir.if_else(
                        whole,
                        || ir.store(at, acc, b),
                        || {
                            let live = ir.lanes_in_range(ox0, l, i32::MIN as i64, ow, yes)?;
                            ir.masked_store(acc, at, live)
                        },
                    )
                })
            })
        })
    }

    /// Rows in groups of four; per run of output features, vectors over the run
    /// (broadcast input values times kernel vectors) summed over taps and the
    /// group's input features.
    fn direct_task(&self, f: FunctionValue<'ctx>) -> R<()> {
        let g = &self.g;
        let spec = self.spec;
        let ct = self.ct;
        let (ir, lo, hi, [input, kmat, out, epi, ectx]) = self.task_entry(f)?;
        let vl = self.vector_width(g.gs);
        // Chunks of the run: (first column, width), widths of `vl` then single columns.
        let mut chunks: Vec<(i64, u32)> = (0..g.gs / vl).map(|c| (c * vl, vl as u32)).collect();
        chunks.extend((g.gs - g.gs % vl..g.gs).map(|j| (j, 1)));
        let (imem, kmem, omem) = (ir.mem_ty(spec.input, 0), ir.mem_ty(spec.kernel, 0), ir.mem_ty(spec.out, 0));
        let (ib, kb, ob) = (spec.input.byte_size() as u32, spec.kernel.byte_size() as u32, spec.out.byte_size() as u32);
        let tables = self.tap_tables(&ir)?;
        let fstride = ir.c(g.in_strides[g.in_f]);
        let group = |r0: IntValue<'ctx>, rows: i64| -> R<()> {
            self.fill_tap_tables(&ir, &tables, r0, rows)?;
            ir.for_range(ir.c(0), ir.c(g.runs), 1, |run| {
                let f_start = ir.mul(run, ir.c(g.gs))?;
                let fg = ir.div(f_start, ir.c(g.f_per_fg))?;
                let bgi = ir.div(f_start, ir.c(g.f_per_bg))?;
                let chan = ir.add(
                    ir.mul(ir.mul(fg, ir.c(g.cg))?, fstride)?,
                    ir.mul(ir.mul(bgi, ir.c(g.nb))?, ir.c(g.in_strides[g.in_b]))?,
                )?;
                let krun = ir.mul(run, ir.c(g.taps * g.cg * g.gs))?;
                for &(j0, n) in &chunks {
                    let zero = ir.zero(ct, if n == 1 { 0 } else { n });
                    let accs: Vec<_> = (0..rows).map(|_| ir.alloca(zero.get_type())).collect::<R<_>>()?;
                    for &a in &accs {
                        ir.store(a, zero, 1)?;
                    }
                    ir.for_range(ir.c(0), ir.c(g.taps), 1, |t| {
                        let mut taps = Vec::new();
                        for q in 0..rows {
                            let (off, ok) = self.tap_entry(&ir, &tables, q, t)?;
                            taps.push((ir.add(off, chan)?, ok));
                        }
                        let kt = ir.add(krun, ir.mul(t, ir.c(g.cg * g.gs))?)?;
                        ir.for_range(ir.c(0), ir.c(g.cg), 1, |z| {
                            let wty = ir.mem_ty(spec.kernel, if n == 1 { 0 } else { n });
                            let wat = ir.add(kt, ir.add(ir.mul(z, ir.c(g.gs))?, ir.c(j0))?)?;
                            let w = ir.to_ct(ir.load(wty, ir.gep(kmem, kmat, wat)?, kb)?, spec.kernel, ct)?;
                            let zoff = ir.mul(z, fstride)?;
                            for (q, &acc) in accs.iter().enumerate() {
                                let (off, ok) = taps[q];
                                let x = ir.load(imem, ir.gep(imem, input, ir.add(off, zoff)?)?, ib)?;
                                let x = ir.to_ct(x, spec.input, ct)?;
                                let x = ir.b.build_select(ok, x, ir.zero(ct, 0), "")?;
                                let x = if n == 1 { x } else { ir.splat(x, n)? };
                                let a = ir.load(zero.get_type(), acc, 1)?;
                                ir.store(acc, ir.mul_add(ct, x, w, a)?, 1)?;
                            }
                            Ok(())
                        })
                    })?;
                    for (q, &acc) in accs.iter().enumerate() {
                        let row = ir.add(r0, ir.c(q as i64))?;
                        let at = ir.add(ir.mul(row, ir.c(g.f))?, ir.add(f_start, ir.c(j0))?)?;
                        let v = ir.ct_to(ir.load(zero.get_type(), acc, 1)?, ct, spec.out)?;
                        ir.store(ir.gep(omem, out, at)?, v, ob)?;
                    }
                }
                Ok(())
            })
        };
        self.row_groups(&ir, (lo, hi), (epi, ectx), group)?;
        ir.ret()
    }

    /// The im2col gather for input features that are contiguous: per panel of
    /// `mr` rows and per tap, `lanes` features of each row are loaded as one vector
    /// (zeros for padding and for rows past `mc`), and `lanes x lanes` blocks are
    /// transposed into the panel's `k`-major order.
    fn gather_panels(
        &self,
        ir: &Ir<'_, 'ctx>,
        input: PointerValue<'ctx>,
        apack: PointerValue<'ctx>,
        [r0, mc, k0, kc, chan, bshift]: [IntValue<'ctx>; 6],
        mr: i64,
        lanes: u32,
    ) -> R<()> {
        let g = &self.g;
        let spec = self.spec;
        let ct = self.ct;
        let ctt = ct.ty(ir.cx);
        let imem = ir.mem_ty(spec.input, 0);
        let ib = spec.input.byte_size() as u32;
        let (out_b, out_sp) = out_layout(spec);
        let l = lanes as i64;
        ir.for_range(ir.c(0), mc, mr, |pr| {
            let prows = ir.min(ir.c(mr), ir.sub(mc, pr)?)?;
            let panel = ir.mul(pr, kc)?;
            // Per row of the panel: whether it exists, its input base and position.
            let mut rows = Vec::new();
            for q in 0..mr {
                let live = ir.cmp(IntPredicate::SLT, ir.c(q), prows)?;
                let rq = ir.add(r0, ir.add(pr, ir.min(ir.c(q), ir.sub(prows, ir.c(1))?)?)?)?;
                let (obt, os) = g.decode_row(ir, rq, out_b, &out_sp)?;
                let base = ir.add(ir.mul(ir.add(obt, bshift)?, ir.c(g.in_strides[g.in_b]))?, chan)?;
                rows.push((live, base, os));
            }
            let t_lo = ir.div(k0, ir.c(g.cg))?;
            let t_hi = ir.ceil_div(ir.add(k0, kc)?, ir.c(g.cg))?;
            ir.for_range(t_lo, t_hi, 1, |tap| {
                let ks = g.decode_tap(ir, tap)?;
                let mut srcs = Vec::new();
                for (live, base, os) in &rows {
                    let (valid, off) = g.input_offset(ir, os, &ks)?;
                    let ok = ir.b.build_and(valid, *live, "")?;
                    srcs.push((ok, ir.select(ok, ir.add(*base, off)?, ir.c(0))?));
                }
                let tk = ir.mul(tap, ir.c(g.cg))?;
                let z_lo = ir.max(ir.c(0), ir.sub(k0, tk)?)?;
                let z_hi = ir.min(ir.c(g.cg), ir.sub(ir.add(k0, kc)?, tk)?)?;
                let span = ir.sub(z_hi, z_lo)?;
                let z_main = ir.add(z_lo, ir.sub(span, ir.rem(span, ir.c(l))?)?)?;
                let dst_row = |z: IntValue<'ctx>| -> R<IntValue<'ctx>> {
                    ir.add(panel, ir.mul(ir.sub(ir.add(tk, z)?, k0)?, ir.c(mr))?)
                };
                ir.for_range(z_lo, z_main, l, |z0| {
                    for grp in 0..(mr as u32).div_ceil(lanes) {
                        let mut vs = Vec::new();
                        for r in 0..lanes {
                            let q = (grp * lanes + r) as usize;
                            let zero = ir.zero(ct, lanes);
                            if q < mr as usize {
                                let (ok, src) = srcs[q];
                                let v =
                                    ir.load(ir.mem_ty(spec.input, lanes), ir.gep(imem, input, ir.add(src, z0)?)?, ib)?;
                                let v = ir.to_ct(v, spec.input, ct)?;
                                vs.push(ir.b.build_select(ok, v, zero, "")?);
                            } else {
                                vs.push(zero);
                            }
                        }
                        let cols = crate::gemm::transpose(ir, vs, lanes)?;
                        let count = (mr as u32 - grp * lanes).min(lanes);
                        for (u, v) in cols.into_iter().enumerate() {
                            let v = if count == lanes {
                                v
                            } else {
                                let mask: Vec<Option<u32>> = (0..count).map(Some).collect();
                                ir.shuffle(v, v, &mask)?
                            };
                            let d = ir.add(dst_row(ir.add(z0, ir.c(u as i64))?)?, ir.c((grp * lanes) as i64))?;
                            ir.store(ir.gep(ctt, apack, d)?, v, ct.bytes())?;
                        }
                    }
                    Ok(())
                })?;
                ir.for_range(z_main, z_hi, 1, |z| {
                    let d = dst_row(z)?;
                    for (q, &(ok, src)) in srcs.iter().enumerate() {
                        let v = ir.to_ct(ir.load(imem, ir.gep(imem, input, ir.add(src, z)?)?, ib)?, spec.input, ct)?;
                        let v = ir.b.build_select(ok, v, ir.zero(ct, 0), "")?;
                        ir.store(ir.gep(ctt, apack, ir.add(d, ir.c(q as i64))?)?, v, ct.bytes())?;
                    }
                    Ok(())
                })
            })
        })
    }

    /// The columns strategy: per image, `out[F, S] = W[F, K] x X[K, S]`,
    /// X the image's im2col matrix with the output pixels as columns and
    /// depth `k = c * taps + tap` (the kernel's own row order). The kernel
    /// is A, read in place (its rows are the features); each task takes a run of one
    /// image's pixels and, per depth block of whole input features, gathers
    /// its B panels ([`Conv::gather_columns`]), then runs the macro kernel
    /// over every feature straight into the output, which calls the
    /// epilogue per image ([`epilogue_per_image`]). Unlike im2col it needs
    /// no scratch matrix and no transpose into NCHW, and the gather copies
    /// evenly spaced runs of input rows. Feature blocks of one pixel run share
    /// one gather where it stays in the caches ([`COLUMNS_SHARED_L2S`]).
    fn columns(&self, ir: &Ir<'_, 'ctx>, [input, kernel, out, epi, ectx]: [PointerValue<'ctx>; 5]) -> R<()> {
        let g = &self.g;
        let spec = self.spec;
        let ct = self.ct;
        let parts = self.parts()?;
        let blk = parts.blk;
        let (mr, nr) = (blk.mr as i64, blk.nr() as i64);
        let kdim = g.taps * g.cg;
        // Depth blocks of whole input features, so a block's taps are static.
        let per_block = (blk.kc / g.taps).max(1);
        let nkb = cdiv(g.cg, per_block);
        let kcb = cdiv(g.cg, nkb) * g.taps;
        let tiles = cdiv(g.f, mr);
        let bytes = ct.bytes() as i64;
        // Tasks: runs of one image's pixels as long as a B block (`NC`
        // columns; each task gathers its panels) or shorter, down to
        // `COLUMNS_MIN_CHUNK_PANELS` panels (one where that and the
        // features would make a single task), where that leaves fewer than
        // `MIN_TASKS`; then blocks of features where there are still fewer
        // (small images, late layers), each of at least `MC` features,
        // which stream their rows of the kernel once per task.
        // Runs and blocks are split evenly (whole panels, whole tiles).
        let pixels = g.out_dims[2] * g.out_dims[3];
        let panels = cdiv(pixels, nr);
        // Runs of one panel where the features make one block and runs of
        // two would leave one task: DenseNet's 128 -> 32 3x3 over 7x7 (two
        // panels) 36 -> 21 us. (Over 14x14 and 28x28, runs of one panel
        // were 0.9-0.97x as fast.)
        let single = g.f <= blk.mc && panels < 2 * COLUMNS_MIN_CHUNK_PANELS;
        let least = if single { 1 } else { COLUMNS_MIN_CHUNK_PANELS };
        let chunks = cdiv(pixels, blk.nc).max(cdiv(MIN_TASKS, g.nb).min(panels / least));
        let chunk = cdiv(cdiv(pixels, chunks), nr) * nr;
        let chunks = cdiv(pixels, chunk);
        let want = cdiv(MIN_TASKS, g.nb * chunks);
        let fblocks = want.min(cdiv(g.f, blk.mc)).max(1);
        // An even count, so that two threads share the blocks evenly.
        let fblocks = if fblocks > 1 { fblocks + fblocks % 2 } else { 1 };
        let fblock = cdiv(tiles, fblocks) * mr;
        let fblocks = cdiv(g.f, fblock);
        let omem = ir.mem_ty(spec.out, 0);
        let tasks = g.nb * chunks * fblocks;
        // Feature blocks share one gather of their pixels' panels, done by
        // tasks of its own first, where the panels stay in the caches (at
        // most four L2s' worth) and the L2s are small: on Zen 2 (512 KiB)
        // sharing 1.2 MB had run ResNet's 3x3 over 7x7 1.37x faster. With
        // large L2s each block gathers its own, which never lost on the Xeon
        // (2 MiB; two threads): Inception v2's 64 -> 192 channels over 56x56
        // (7.2 MB of panels) 2.70 -> 2.19 ms, 256 -> 256 over 14x14 (1.8 MB)
        // 0.92 -> 0.83, 512 -> 512 over 7x7 1.07 -> 1.02, 64 -> 256 over
        // 13x13 0.19 -> 0.17, others even; larger panels go out to memory
        // and back once per feature block (256 -> 256 over 56x56, 30 MB,
        // 15.5 -> 11.9 ms unshared).
        let block = kcb * chunk;
        let blocks = g.nb * chunks * nkb;
        let shared = fblocks > 1
            && !self.isa.caches.large_l2()
            && blocks * block * bytes <= COLUMNS_SHARED_L2S * self.isa.caches.l2 as i64;
        // Image `b`'s pixel run `cb`: its first pixel, its length and the image's input offset.
        let place = |ir: &Ir<'_, 'ctx>, [b, cb]: [IntValue<'ctx>; 2]| -> R<[IntValue<'ctx>; 3]> {
            let p0 = ir.mul(cb, ir.c(chunk))?;
            let nc = ir.min(ir.c(chunk), ir.sub(ir.c(pixels), p0)?)?;
            Ok([p0, nc, ir.mul(b, ir.c(g.in_strides[0]))?])
        };
        let first = if shared {
            let all = ir.alloc(ir.c(blocks * block * bytes))?;
            let null = ir.ptrt().const_null();
            self.share_tasks(ir, [input, all, null, null, null], "gather", (blocks, 1), |task| {
                let (ir, lo, hi, [input, all, ..]) = self.task_entry(task)?;
                let ctt = ct.ty(ir.cx);
                ir.for_range(lo, hi, 1, |t| {
                    let (p, bc) = (ir.rem(t, ir.c(nkb))?, ir.div(t, ir.c(nkb))?);
                    let [p0, nc, image] = place(&ir, [ir.div(bc, ir.c(chunks))?, ir.rem(bc, ir.c(chunks))?])?;
                    let k0 = ir.mul(p, ir.c(kcb))?;
                    let kc = ir.min(ir.c(kcb), ir.sub(ir.c(kdim), k0)?)?;
                    let dst = ir.gep(ctt, all, ir.mul(t, ir.c(block))?)?;
                    self.gather_columns(&ir, input, dst, [image, p0, nc, k0, kc], nr)
                })?;
                ir.ret()
            })?;
            all
        } else {
            input
        };
        // With `shared`, the first pointer is the gathered panels, else the input.
        self.share_tasks(ir, [first, kernel, out, epi, ectx], "columns", (tasks, 1), |task| {
            let (ir, lo, hi, [input, kernel, out, epi, ectx]) = self.task_entry(task)?;
            let kmem = ir.mem_ty(spec.kernel, 0);
            let ctt = ct.ty(ir.cx);
            let bpack = if shared { ir.ptrt().const_null() } else { ir.alloc(ir.c(block * bytes))? };
            ir.for_range(lo, hi, 1, |t| {
                let fb = ir.rem(t, ir.c(fblocks))?;
                let t = ir.div(t, ir.c(fblocks))?;
                let (b, cb) = (ir.div(t, ir.c(chunks))?, ir.rem(t, ir.c(chunks))?);
                let f_lo = ir.mul(fb, ir.c(fblock))?;
                let f_hi = ir.min(ir.c(g.f), ir.add(f_lo, ir.c(fblock))?)?;
                let [p0, nc, image] = place(&ir, [b, cb])?;
                let bc = ir.add(ir.mul(b, ir.c(chunks))?, cb)?;
                ir.for_range(ir.c(0), ir.c(nkb), 1, |p| {
                    let k0 = ir.mul(p, ir.c(kcb))?;
                    let kc = ir.min(ir.c(kcb), ir.sub(ir.c(kdim), k0)?)?;
                    let bpack = if shared {
                        ir.gep(ctt, input, ir.mul(ir.add(ir.mul(bc, ir.c(nkb))?, p)?, ir.c(block))?)?
                    } else {
                        self.gather_columns(&ir, input, bpack, [image, p0, nc, k0, kc], nr)?;
                        bpack
                    };
                    let (accumulate, last) = depth_flags(&ir, p, ir.c(nkb))?;
                    let cimage = ir.add(ir.mul(b, ir.c(g.f * pixels))?, p0)?;
                    ir.for_step(f_lo, f_hi, ir.c(blk.mc), |ic| {
                        let mc = ir.min(ir.c(blk.mc), ir.sub(f_hi, ic)?)?;
                        let a = ir.gep(kmem, kernel, ir.add(ir.mul(ic, ir.c(kdim))?, k0)?)?;
                        let c = ir.gep(omem, out, ir.add(cimage, ir.mul(ic, ir.c(pixels))?)?)?;
                        let sizes = [mc, nc, kc, ir.c(pixels)];
                        let (flags, at) = ((accumulate, last), [b, ic, p0]);
                        parts.call_macro(&ir, sizes, [a, bpack, c], flags, (epi, ectx), at, None, Some(ir.c(kdim)))
                    })
                })
            })?;
            if !shared {
                ir.free(bpack)?;
            }
            ir.ret()
        })?;
        if shared {
            ir.free(first)?;
        }
        Ok(())
    }

    /// Packs the B panels of the columns strategy: pixels `p0..p0 + nc` of
    /// the image at element `image`, depth `k0..k0 + kc` (whole input
    /// features), as `NR`-column panels (`[panel][kk][NR]`, zeros past
    /// `nc`). A panel's pixels span a few output rows; per row segment, tap
    /// and input feature the pixels read one evenly spaced run of an input
    /// row: one masked load (every other element of a double-width one for
    /// column stride 2) shifted so that its lanes land on the segment's
    /// lanes of the panel row (padding and other segments' lanes read zero),
    /// the segments merged by selects and stored as one vector. The offsets
    /// and masks depend only on the panel, tap and segment: computed once
    /// per panel, the loop over input features only loads, selects and
    /// stores.
    fn gather_columns(
        &self,
        ir: &Ir<'_, 'ctx>,
        input: PointerValue<'ctx>,
        bpack: PointerValue<'ctx>,
        [image, p0, nc, k0, kc]: [IntValue<'ctx>; 5],
        nr: i64,
    ) -> R<()> {
        let g = &self.g;
        let ct = self.ct;
        let ctt = ct.ty(ir.cx);
        let mem = ir.mem_ty(self.spec.input, 0);
        let n = nr as u32;
        let sx = g.window[1].stride;
        let wide = n * sx as u32;
        let vty = ir.mem_ty(self.spec.input, wide);
        let every: Vec<Option<u32>> = (0..n).map(|i| Some(i * sx as u32)).collect();
        let plane = g.in_dims[2] * g.in_dims[3];
        let ow = g.out_dims[3];
        let kw = g.tap_sizes[1];
        let segments = cdiv(nr, ow) + 1;
        let yes = ir.cx.bool_type().const_int(1, false);
        let unbounded = i32::MAX as i64;
        ir.for_range(ir.c(0), nc, nr, |j0| {
            let count = ir.min(ir.c(nr), ir.sub(nc, j0)?)?;
            let s0 = ir.add(p0, j0)?;
            let oy0 = ir.div(s0, ir.c(ow))?;
            let panel = ir.gep(ctt, bpack, ir.mul(j0, kc)?)?;
            // Per segment: its output row, lane 0's output column (the
            // segment's first, `at` lanes back), and its lanes `at..at + len`
            // of the panel row (`n`) and of the load (`wide`: `sx` per pixel).
            let mut segs = Vec::new();
            let mut lens = Vec::new();
            for i in 0..segments {
                let oy = ir.add(oy0, ir.c(i))?;
                let row_start = ir.mul(oy, ir.c(ow))?;
                let start = ir.max(s0, row_start)?;
                let end = ir.min(ir.add(s0, count)?, ir.add(row_start, ir.c(ow))?)?;
                let len = ir.max(ir.c(0), ir.sub(end, start)?)?;
                let at = ir.sub(start, s0)?;
                let lanes = |k: i64, count: u32| -> R<inkwell::values::VectorValue<'ctx>> {
                    let from = ir.lanes_in_range(ir.mul(ir.sub(ir.c(0), at)?, ir.c(k))?, count, 0, unbounded, yes)?;
                    let end = ir.mul(ir.sub(ir.c(0), ir.add(at, len)?)?, ir.c(k))?;
                    let below = ir.lanes_in_range(end, count, -unbounded, 0, yes)?;
                    Ok(ir.b.build_and(from, below, "")?)
                };
                let ox = ir.sub(ir.sub(start, row_start)?, at)?;
                segs.push((oy, ox, lanes(1, n)?, lanes(sx, wide)?));
                lens.push(len);
            }
            // A panel inside one output row (most of them over rows of 32
            // pixels or more: stems, 56x56 layers) reads one segment per
            // row, not one load per segment and a select.
            let one = ir.cmp(IntPredicate::EQ, lens[1], ir.c(0))?;
            // Tap `t`'s loads from the first `used` segments: per segment,
            // the input offset of lane 0 and the mask.
            let reads =
                |t: IntValue<'ctx>, used: usize| -> R<Vec<(IntValue<'ctx>, inkwell::values::VectorValue<'ctx>)>> {
                    let (ky, kx) = (ir.div(t, ir.c(kw))?, ir.rem(t, ir.c(kw))?);
                    let mut r = Vec::new();
                    for &(oy, ox, _, live_wide) in &segs[..used] {
                        let (off, inside) = self.tap_run(ir, [oy, ox], [ky, kx], n)?;
                        r.push((off, ir.b.build_and(inside, live_wide, "")?));
                    }
                    Ok(r)
                };
            // One row of the panel: tap `t` of the input plane at `base`.
            let row = |base: IntValue<'ctx>,
                       loads: &[(IntValue<'ctx>, inkwell::values::VectorValue<'ctx>)],
                       at: IntValue<'ctx>|
             -> R<()> {
                let mut v = None;
                for (&(off, mask), &(_, _, live, _)) in loads.iter().zip(&segs) {
                    let x = ir.masked_load(vty, ir.gep_wrapping(mem, input, ir.add(base, off)?)?, mask)?;
                    let x = if sx == 1 { x } else { ir.shuffle(x, x, &every)? };
                    v = Some(match v {
                        None => x,
                        Some(v) => ir.b.build_select(live, x, v, "")?,
                    });
                }
                match v {
                    Some(v) => ir.store(ir.gep(ctt, panel, ir.mul(at, ir.c(nr))?)?, v, ct.bytes()),
                    None => Ok(()),
                }
            };
            let c0 = ir.div(k0, ir.c(g.taps))?;
            let c1 = ir.div(ir.add(k0, kc)?, ir.c(g.taps))?;
            if g.taps <= COLUMNS_UNROLLED_TAPS {
                // Offsets and masks in registers, the taps unrolled.
                let rows_of = |used: usize| {
                    let all = (0..g.taps).map(|t| reads(ir.c(t), used)).collect::<R<Vec<_>>>()?;
                    ir.for_range(c0, c1, 1, |c| {
                        let base = ir.add(image, ir.mul(c, ir.c(plane))?)?;
                        let rows = ir.mul(ir.sub(c, c0)?, ir.c(g.taps))?;
                        for (t, loads) in all.iter().enumerate() {
                            row(base, loads, ir.add(rows, ir.c(t as i64))?)?;
                        }
                        Ok(())
                    })
                };
                ir.if_else(one, || rows_of(1), || rows_of(segments as usize))
            } else {
                // Many taps (stems' 7x7): tables of offsets and masks, loops
                // over the taps, so the code stays one tap long. A tap's mask
                // is its column's (which lanes land in the input row) and its
                // row's (whether the row does), so the tables hold one entry
                // per tap row and one per tap column, not one per tap: over
                // the 3 input features of a 7x7 stem, building 49 masks per
                // panel had cost more than the loads they served.
                let (kh, kw) = (g.tap_sizes[0], g.tap_sizes[1]);
                let row_offs = ir.alloca(ir.i64t().array_type((kh * segments) as u32).into())?;
                let row_oks = ir.alloca(ir.cx.bool_type().array_type((kh * segments) as u32).into())?;
                let col_offs = ir.alloca(ir.i64t().array_type((kw * segments) as u32).into())?;
                // Masks as lanes of all ones or zeros, the form masked loads take.
                let mask_t = ir.cx.i32_type().vec_type(wide);
                let masks = ir.alloca(mask_t.array_type((kw * segments) as u32).into())?;
                let at = |t: IntValue<'ctx>, i: i64| ir.add(ir.mul(t, ir.c(segments))?, ir.c(i));
                let rows_of = |used: i64| {
                    ir.for_range(ir.c(0), ir.c(kh), 1, |ky| {
                        for (i, &(oy, ..)) in segs[..used as usize].iter().enumerate() {
                            let (ok, off) = self.tap_row(ir, oy, ky)?;
                            let slot = at(ky, i as i64)?;
                            ir.store(ir.gep(ir.i64t().into(), row_offs, slot)?, off.into(), 8)?;
                            ir.store(ir.gep(ir.cx.bool_type().into(), row_oks, slot)?, ok.into(), 1)?;
                        }
                        Ok(())
                    })?;
                    ir.for_range(ir.c(0), ir.c(kw), 1, |kx| {
                        for (i, &(_, ox, _, live_wide)) in segs[..used as usize].iter().enumerate() {
                            let (ix, inside) = self.tap_columns(ir, ox, kx, n, yes)?;
                            let mask = ir.b.build_and(inside, live_wide, "")?;
                            let slot = at(kx, i as i64)?;
                            ir.store(ir.gep(ir.i64t().into(), col_offs, slot)?, ix.into(), 8)?;
                            let lanes = ir.b.build_int_s_extend(mask, mask_t, "")?;
                            ir.store(ir.gep(mask_t.into(), masks, slot)?, lanes.into(), 4)?;
                        }
                        Ok(())
                    })?;
                    ir.for_range(c0, c1, 1, |c| {
                        let base = ir.add(image, ir.mul(c, ir.c(plane))?)?;
                        let rows = ir.mul(ir.sub(c, c0)?, ir.c(g.taps))?;
                        ir.for_range(ir.c(0), ir.c(kh), 1, |ky| {
                            let mut tap_rows = Vec::new();
                            for i in 0..used {
                                let slot = at(ky, i)?;
                                let off = ir.load(ir.i64t().into(), ir.gep(ir.i64t().into(), row_offs, slot)?, 8)?;
                                let ok = ir.load(
                                    ir.cx.bool_type().into(),
                                    ir.gep(ir.cx.bool_type().into(), row_oks, slot)?,
                                    1,
                                )?;
                                let ok = ir.splat(ok, wide)?.into_vector_value();
                                tap_rows.push((off.into_int_value(), ok));
                            }
                            ir.for_range(ir.c(0), ir.c(kw), 1, |kx| {
                                let mut loads = Vec::new();
                                for (i, &(row_off, row_ok)) in tap_rows.iter().enumerate() {
                                    let slot = at(kx, i as i64)?;
                                    let ix = ir.load(ir.i64t().into(), ir.gep(ir.i64t().into(), col_offs, slot)?, 8)?;
                                    let lanes = ir.load(mask_t.into(), ir.gep(mask_t.into(), masks, slot)?, 4)?;
                                    let inside = ir.b.build_int_compare(
                                        IntPredicate::SLT,
                                        lanes.into_vector_value(),
                                        mask_t.const_zero(),
                                        "",
                                    )?;
                                    let mask = ir.b.build_and(inside, row_ok, "")?;
                                    loads.push((ir.add(row_off, ix.into_int_value())?, mask));
                                }
                                let t = ir.add(ir.mul(ky, ir.c(kw))?, kx)?;
                                row(base, &loads, ir.add(rows, t)?)
                            })
                        })
                    })
                };
                ir.if_else(one, || rows_of(1), || rows_of(segments))
            }
        })
    }

    fn im2col(&self, ir: &Ir<'_, 'ctx>, args: [PointerValue<'ctx>; 5]) -> R<()> {
        let g = &self.g;
        let spec = self.spec;
        let ct = self.ct;
        let group = self.parts_group;
        let grouped = group > 1;
        let parts = self.parts()?;
        let blk = parts.blk;
        let nr = blk.nr() as i64;
        let kdim = g.taps * g.cg;
        let npad = cdiv(g.gs, nr) * nr;
        let full_depth = crate::routine::mem_type(ir.cx, spec.out) != ct.ty(ir.cx);
        let nkb = if full_depth { 1 } else { cdiv(kdim, blk.kc) };
        // Grouped panels hold whole groups: blocks start at multiples of the
        // group, and each run's packed kernel spans whole blocks.
        let gl = group as i64;
        let kcb = cdiv(cdiv(kdim, nkb), gl) * gl;
        let kspan = if grouped { nkb * kcb } else { kdim };
        let kbytes = spec.kernel.byte_size() as i64;
        // Kernel per run as a row-major [kdim, gs] matrix, then packed like B;
        // a feature-major kernel with depth in (feature, tap) order is
        // already that matrix, transposed: packed straight from it.
        let z_major = self.z_major(blk.lanes);
        let (kmat, [src_run, src_k, src_rs, src_ks]) = if z_major {
            let kso = g.k_strides[g.k_o];
            (args[1], [g.gs * kso, 1, kso, 1])
        } else {
            let kmat = ir.alloc(ir.c(g.runs * kdim * g.gs * kbytes))?;
            self.gather_kernel(ir, args[1], kmat, [kdim * g.gs, g.cg * g.gs, g.gs, 1])?;
            (kmat, [kdim * g.gs, g.gs, 1, g.gs])
        };
        let pt = crate::gemm::packed_type(ir, &blk);
        let pbytes = blk.packed_bytes();
        let bpack = ir.alloc(ir.c(g.runs * kspan * npad * pbytes))?;
        let kmem = ir.mem_ty(spec.kernel, 0);
        // The kernel packed like B, one NR-column panel of one depth block per
        // task, on the pool (a big kernel is megabytes to read and write).
        let panels = npad / nr;
        let null = ir.ptrt().const_null();
        self.share_tasks(ir, [kmat, bpack, null, null, null], "pack", (g.runs * nkb * panels, 1), |task| {
            let (ir, lo, hi, [kmat, bpack, ..]) = self.task_entry(task)?;
            ir.for_range(lo, hi, 1, |t| {
                let (run, rest) = (ir.div(t, ir.c(nkb * panels))?, ir.rem(t, ir.c(nkb * panels))?);
                let (p, j0) = (ir.div(rest, ir.c(panels))?, ir.mul(ir.rem(rest, ir.c(panels))?, ir.c(nr))?);
                let k0 = ir.mul(p, ir.c(kcb))?;
                let kc = ir.min(ir.c(kcb), ir.sub(ir.c(kdim), k0)?)?;
                let rows = ir.min(ir.c(nr), ir.sub(ir.c(g.gs), j0)?)?;
                let src =
                    ir.add(ir.mul(run, ir.c(src_run))?, ir.add(ir.mul(k0, ir.c(src_k))?, ir.mul(j0, ir.c(src_rs))?)?)?;
                let kp = crate::gemm::packed_depth(&ir, &blk, kc)?;
                let dst =
                    ir.add(ir.mul(run, ir.c(kspan * npad))?, ir.add(ir.mul(k0, ir.c(npad))?, ir.mul(j0, kp)?)?)?;
                ir.call(
                    parts.pack_b,
                    &[
                        ir.gep(kmem, kmat, src)?.into(),
                        ir.c(src_rs).into(),
                        ir.c(src_ks).into(),
                        rows.into(),
                        kc.into(),
                        ir.gep(pt, bpack, dst)?.into(),
                    ],
                )?;
                Ok(())
            })?;
            ir.ret()
        })?;
        if !z_major {
            ir.free(kmat)?;
        }
        let direct = g.feature_minor_out();
        let ob = spec.out.byte_size() as i64;
        let target_c = if direct { args[2] } else { ir.alloc(ir.c(g.rows * g.f * ob))? };
        let per_image = epilogue_per_image(spec)?.is_some();
        let epi = if direct || per_image { args[3] } else { ir.ptrt().const_null() };
        let ptrs = [args[0], bpack, target_c, epi, args[4]];
        // Few rows (small images, late layers) leave few row blocks: split the
        // features too, in chunks of whole NR-column panels worth at least
        // TASK_WORK multiply-adds each, so every core gets work.
        let row_tasks = cdiv(g.rows, blk.mc) * g.runs;
        let per_column = g.rows.min(blk.mc) * kdim;
        let min_cols = cdiv(cdiv(TASK_WORK, per_column.max(1)), nr) * nr;
        let chunk = if row_tasks >= MIN_TASKS { g.gs } else { min_cols.max(cdiv(cdiv(g.gs, MIN_TASKS), nr) * nr) };
        let chunk = chunk.clamp(1, g.gs.max(1));
        let chunks = cdiv(g.gs, chunk);
        let tasks = row_tasks * chunks;
        // Split features share one gather of the im2col matrix (small, as
        // the rows are few) instead of each task gathering its rows again
        // (grouped panels: gathered, then repacked once).
        let shared = chunks > 1 && g.runs == 1;
        let mut ptrs = ptrs;
        let mr = blk.mr as i64;
        let a_block = cdiv(blk.mc, mr) * mr * kcb;
        let row_blocks = cdiv(g.rows, blk.mc);
        // Quads gather the input's bytes and repack them (the element and
        // panel gathers; the vector gather converts as it transposes).
        self.raw_gather.set(blk.group == 4 && !self.vector_gather(blk.lanes));
        if shared {
            let (at, bytes) = if grouped { (pt, pbytes) } else { (ct.ty(ir.cx), ct.bytes() as i64) };
            let all = ir.alloc(ir.c(row_blocks * nkb * a_block * bytes))?;
            // One task per (row block, depth block), on the pool.
            let null = ir.ptrt().const_null();
            self.share_tasks(ir, [args[0], all, null, null, null], "gather", (row_blocks * nkb, 1), |task| {
                let (ir, lo, hi, [input, all, ..]) = self.task_entry(task)?;
                let repack = grouped && !self.quad_planes(blk.lanes);
                let gathered = if repack { Some(ir.alloc(ir.c(a_block * self.a_elem(&ir).1 as i64))?) } else { None };
                ir.for_range(lo, hi, 1, |t| {
                    let (rb, p) = (ir.div(t, ir.c(nkb))?, ir.rem(t, ir.c(nkb))?);
                    let r0 = ir.mul(rb, ir.c(blk.mc))?;
                    let mc = ir.min(ir.c(blk.mc), ir.sub(ir.c(g.rows), r0)?)?;
                    let k0 = ir.mul(p, ir.c(kcb))?;
                    let kc = ir.min(ir.c(kcb), ir.sub(ir.c(kdim), k0)?)?;
                    let dst = ir.gep(at, all, ir.mul(t, ir.c(a_block))?)?;
                    let block = [r0, mc, k0, kc, ir.c(0), ir.c(0)];
                    match gathered {
                        Some(tmp) => {
                            self.gather_a(&ir, input, tmp, block, mr, blk.lanes)?;
                            repack_groups(&ir, tmp, dst, [mc, kc], mr, (blk.group, self.raw_gather.get()))
                        }
                        None => self.gather_a(&ir, input, dst, block, mr, blk.lanes),
                    }
                })?;
                if let Some(tmp) = gathered {
                    ir.free(tmp)?;
                }
                ir.ret()
            })?;
            ptrs[0] = all;
        }
        // Outputs whose features are not minor: each task scatters its
        // finished block of the [rows, F] scratch into the output (in
        // parallel, while the block is in cache), then one epilogue block.
        self.scatter_to.set((!direct).then_some(args[2]));
        self.share_tasks(ir, ptrs, "gemm", (tasks, 1), |task| {
            self.im2col_task(task, &parts, kspan, npad, nkb, kcb, (chunk, chunks), shared)
        })?;
        self.raw_gather.set(false);
        self.scatter_to.set(None);
        if shared {
            ir.free(ptrs[0])?;
        }
        if !direct {
            ir.free(target_c)?;
            if !per_image {
                call_epilogue(ir, args[3], args[4], [ir.c(0), ir.c(0), ir.c(g.rows), ir.c(0), ir.c(g.f)])?;
            }
        }
        ir.free(bpack)
    }

    /// Whether im2col depth runs input feature major, tap minor (`k = z *
    /// taps + tap`) instead of tap major: for kernels whose input feature
    /// sits right above trailing, row-major, unreversed taps (`oi01`), where
    /// that order makes each output feature's kernel one contiguous run, so
    /// B is packed from the kernel itself. Only with the element gather
    /// (input features not contiguous, as in NCHW).
    fn z_major(&self, lanes: u32) -> bool {
        let g = &self.g;
        let rank = g.k_strides.len();
        let trailing = g.k_sp.iter().enumerate().all(|(k, &d)| d == rank - g.k_sp.len() + k);
        !self.vector_gather(lanes)
            && !self.quad_planes(lanes)
            && g.runs >= 1
            && trailing
            && g.k_strides[g.k_i] == g.taps
            && !g.reversal.iter().any(|&r| r)
            && g.k_strides[g.k_o] >= g.cg * g.taps
    }

    /// Whether the im2col gather loads whole vectors of contiguous input features.
    fn vector_gather(&self, lanes: u32) -> bool {
        let g = &self.g;
        g.in_strides[g.in_f] == 1 && g.cg >= lanes as i64 && lanes > 1
    }

    /// Whether quad panels (u8 x s8 on `vpdpbusd`) gather straight into the
    /// grouped layout ([`Conv::gather_quad_planes`]): the input's own bytes,
    /// NCHW as [`Conv::panel_vectors`] wants it, and whole quads of input
    /// features per group, so the depth runs tap major (`k = tap * Cg + z`)
    /// and a quad is the same pixel of four consecutive feature planes.
    fn quad_planes(&self, lanes: u32) -> bool {
        let g = &self.g;
        self.parts_group == 4 && !self.vector_gather(lanes) && g.cg % 4 == 0 && g.panel_layout()
    }

    /// Gathers the im2col block `[r0, r0 + mc) x [k0, k0 + kc)` (tap-major
    /// depth, `kc` whole quads) straight into quad panels at `dst`: per
    /// `mr`-row panel inside one output row, tap and quad of feature planes,
    /// four masked loads of the panel's pixels (padding and rows past `mc`
    /// read as zero) interleaved into `mr` quads, one store. Panels across
    /// output rows go element by element.
    fn gather_quad_planes(
        &self,
        ir: &Ir<'_, 'ctx>,
        input: PointerValue<'ctx>,
        dst: PointerValue<'ctx>,
        [r0, mc, k0, kc, chan, bshift]: [IntValue<'ctx>; 6],
        mr: i64,
    ) -> R<()> {
        let g = &self.g;
        let i8t = ir.cx.i8_type();
        let sx = g.window[1].stride;
        let m = mr as u32;
        let vty = i8t.vec_type((sx * mr) as u32).into();
        let every: Vec<Option<u32>> = (0..m).map(|l| Some(l * sx as u32)).collect();
        let halves: Vec<Option<u32>> = (0..2 * m).map(Some).collect();
        let interleave: Vec<Option<u32>> = (0..m)
            .flat_map(|r| (0..4).map(move |t| Some(if t < 2 { t * m + r } else { 2 * m + (t - 2) * m + r })))
            .collect();
        let (out_b, out_sp) = out_layout(self.spec);
        let ow = g.out_dims[g.out_sp[1]];
        let plane = g.in_strides[g.in_f];
        ir.for_range(ir.c(0), mc, mr, |rr0| {
            let rows = ir.min(ir.c(mr), ir.sub(mc, rr0)?)?;
            let panel = ir.mul(rr0, kc)?;
            let (obt, os) = g.decode_row(ir, ir.add(r0, rr0)?, out_b, &out_sp)?;
            let base = ir.add(ir.mul(ir.add(obt, bshift)?, ir.c(g.in_strides[g.in_b]))?, chan)?;
            let t_lo = ir.div(k0, ir.c(g.cg))?;
            let t_hi = ir.ceil_div(ir.add(k0, kc)?, ir.c(g.cg))?;
            let z_range = |tap: IntValue<'ctx>| -> R<(IntValue<'ctx>, IntValue<'ctx>, IntValue<'ctx>)> {
                let tk = ir.mul(tap, ir.c(g.cg))?;
                let z_lo = ir.max(ir.c(0), ir.sub(k0, tk)?)?;
                let z_hi = ir.min(ir.c(g.cg), ir.sub(ir.add(k0, kc)?, tk)?)?;
                Ok((tk, z_lo, z_hi))
            };
            let whole = ir.cmp(IntPredicate::SLE, ir.add(os[1], ir.c(mr))?, ir.c(ow))?;
            ir.if_else(
                whole,
                || {
                    // Loaded elements of lanes past `rows` are off the mask too.
                    let live = ir.lanes_in_range(
                        ir.sub(ir.c(0), ir.mul(rows, ir.c(sx))?)?,
                        (sx * mr) as u32,
                        -(1 << 30),
                        0,
                        ir.cx.bool_type().const_int(1, false),
                    )?;
                    ir.for_range(t_lo, t_hi, 1, |tap| {
                        let ks = g.decode_tap(ir, tap)?;
                        let (at, inside) = self.tap_run(ir, [os[0], os[1]], [ks[0], ks[1]], m)?;
                        let mask = ir.b.build_and(inside, live, "")?;
                        let src = ir.add(base, at)?;
                        let (tk, z_lo, z_hi) = z_range(tap)?;
                        ir.for_range(z_lo, z_hi, 4, |z| {
                            let mut v = Vec::with_capacity(4);
                            for j in 0..4 {
                                let at = ir.add(src, ir.mul(ir.add(z, ir.c(j))?, ir.c(plane))?)?;
                                let x = ir.masked_load(vty, ir.gep_wrapping(i8t.into(), input, at)?, mask)?;
                                v.push(if sx == 1 { x } else { ir.shuffle(x, x, &every)? });
                            }
                            let lo = ir.shuffle(v[0], v[1], &halves)?;
                            let hi = ir.shuffle(v[2], v[3], &halves)?;
                            let quads = ir.shuffle(lo, hi, &interleave)?;
                            let kk = ir.sub(ir.add(tk, z)?, k0)?;
                            ir.store(ir.gep(i8t.into(), dst, ir.add(panel, ir.mul(kk, ir.c(mr))?)?)?, quads, 1)
                        })
                    })
                },
                || {
                    // Lane by lane: each row's value (or zero) at its place in the quads.
                    ir.for_range(ir.c(0), ir.c(mr), 1, |l| {
                        let live = ir.cmp(IntPredicate::SLT, l, rows)?;
                        let r = ir.add(r0, ir.add(rr0, ir.min(l, ir.sub(rows, ir.c(1))?)?)?)?;
                        let (obt, os) = g.decode_row(ir, r, out_b, &out_sp)?;
                        let base = ir.add(ir.mul(ir.add(obt, bshift)?, ir.c(g.in_strides[g.in_b]))?, chan)?;
                        ir.for_range(t_lo, t_hi, 1, |tap| {
                            let ks = g.decode_tap(ir, tap)?;
                            let (valid, off) = g.input_offset(ir, &os, &ks)?;
                            let ok = ir.b.build_and(valid, live, "")?;
                            let src = ir.select(ok, ir.add(base, off)?, ir.c(0))?;
                            let (tk, z_lo, z_hi) = z_range(tap)?;
                            ir.for_range(z_lo, z_hi, 1, |z| {
                                let x = ir.load(
                                    i8t.into(),
                                    ir.gep(i8t.into(), input, ir.add(src, ir.mul(z, ir.c(plane))?)?)?,
                                    1,
                                )?;
                                let x = ir.b.build_select(ok, x, i8t.const_zero().into(), "")?;
                                let kk = ir.sub(ir.add(tk, z)?, k0)?;
                                let q = ir.div(kk, ir.c(4))?;
                                let at =
                                    ir.add(ir.mul(ir.add(ir.mul(q, ir.c(mr))?, l)?, ir.c(4))?, ir.rem(kk, ir.c(4))?)?;
                                ir.store(ir.gep(i8t.into(), dst, ir.add(panel, at)?)?, x, 1)
                            })
                        })
                    })
                },
            )
        })
    }

    /// Whether the z-major element gather can copy whole `mr`-row panels as
    /// vectors: two spatial dimensions trailing in the input and the output
    /// (NCHW), a column stride of at most [`PANEL_MAX_STRIDE`], no base
    /// dilation. Then a panel's rows are consecutive output columns, and for
    /// one depth `k` their inputs are evenly spaced: one load (of `stride *
    /// mr` elements, every `stride`-th kept).
    fn panel_vectors(&self, lanes: u32) -> bool {
        self.z_major(lanes) && self.g.panel_layout()
    }

    /// The z-major element gather by panels: a panel of `mr` rows inside one
    /// output row copies, per tap, each input feature's `mr` consecutive
    /// elements as one masked vector load (columns and rows in the padding
    /// read as zero); panels across output rows go element by element (`row`).
    fn gather_panel_vectors(
        &self,
        ir: &Ir<'_, 'ctx>,
        input: PointerValue<'ctx>,
        apack: PointerValue<'ctx>,
        [r0, mc, k0, kc, chan, bshift]: [IntValue<'ctx>; 6],
        mr: i64,
        row: &dyn Fn(IntValue<'ctx>) -> R<()>,
    ) -> R<()> {
        let g = &self.g;
        let spec = self.spec;
        let (ctt, cbytes) = self.a_elem(ir);
        let imem = ir.mem_ty(spec.input, 0);
        let sx = g.window[1].stride;
        let vty = ir.mem_ty(spec.input, (sx * mr) as u32);
        let every: Vec<Option<u32>> = (0..mr).map(|l| Some((l * sx) as u32)).collect();
        let (out_b, out_sp) = out_layout(spec);
        let ow = g.out_dims[g.out_sp[1]];
        ir.for_range(ir.c(0), mc, mr, |rr0| {
            let rows = ir.min(ir.c(mr), ir.sub(mc, rr0)?)?;
            let (obt, os) = g.decode_row(ir, ir.add(r0, rr0)?, out_b, &out_sp)?;
            let whole = ir.b.build_and(
                ir.cmp(IntPredicate::EQ, rows, ir.c(mr))?,
                ir.cmp(IntPredicate::SLE, ir.add(os[1], ir.c(mr))?, ir.c(ow))?,
                "",
            )?;
            ir.if_else(
                whole,
                || {
                    let base = ir.add(ir.mul(ir.add(obt, bshift)?, ir.c(g.in_strides[g.in_b]))?, chan)?;
                    let panel = ir.mul(rr0, kc)?;
                    ir.for_range(ir.c(0), ir.c(g.taps), 1, |tap| {
                        let ks = g.decode_tap(ir, tap)?;
                        // Padding at the borders costs one masked load.
                        let (at, mask) = self.tap_run(ir, [os[0], os[1]], [ks[0], ks[1]], mr as u32)?;
                        let from = |k: IntValue<'ctx>| -> R<IntValue<'ctx>> {
                            ir.ceil_div(ir.max(ir.c(0), ir.sub(k, tap)?)?, ir.c(g.taps))
                        };
                        let z_lo = from(k0)?;
                        let z_hi = ir.min(ir.c(g.cg), from(ir.add(k0, kc)?)?)?;
                        let src = ir.add(base, at)?;
                        ir.for_range(z_lo, z_hi, 1, |z| {
                            let at = ir.add(src, ir.mul(z, ir.c(g.in_strides[g.in_f]))?)?;
                            let v = ir.masked_load(vty, ir.gep_wrapping(imem, input, at)?, mask)?;
                            let v = if sx == 1 { v } else { ir.shuffle(v, v, &every)? };
                            let v = self.a_value(ir, v)?;
                            let kk = ir.sub(ir.add(ir.mul(z, ir.c(g.taps))?, tap)?, k0)?;
                            ir.store(ir.gep(ctt, apack, ir.add(panel, ir.mul(kk, ir.c(mr))?)?)?, v, cbytes)
                        })
                    })
                },
                || ir.for_range(rr0, ir.add(rr0, rows)?, 1, |rr| row(rr)),
            )
        })
    }

    /// Gathers the im2col block `[r0, r0 + mc) x [k0, k0 + kc)` into `mr`-row
    /// panels at `apack` (rows past `mc` in the last panel zero).
    fn gather_a(
        &self,
        ir: &Ir<'_, 'ctx>,
        input: PointerValue<'ctx>,
        apack: PointerValue<'ctx>,
        [r0, mc, k0, kc, chan, bshift]: [IntValue<'ctx>; 6],
        mr: i64,
        lanes: u32,
    ) -> R<()> {
        let g = &self.g;
        let spec = self.spec;
        let (ctt, cbytes) = self.a_elem(ir);
        let imem = ir.mem_ty(spec.input, 0);
        let ib = spec.input.byte_size() as u32;
        let (out_b, out_sp) = out_layout(spec);
        // im2col block [r0, r0 + mc) x [k0, k0 + kc) into MR-row panels.
        if self.quad_planes(lanes) {
            // Straight into quads: no zero rows to add, nothing to repack.
            return self.gather_quad_planes(ir, input, apack, [r0, mc, k0, kc, chan, bshift], mr);
        }
        if self.vector_gather(lanes) {
            // Contiguous input features, enough for whole vectors: gather by transposing.
            self.gather_panels(ir, input, apack, [r0, mc, k0, kc, chan, bshift], mr, lanes)?;
        } else {
            // One output row's gather, element by element (validity per tap).
            let row = |rr: IntValue<'ctx>| -> R<()> {
                let (obt, os) = g.decode_row(ir, ir.add(r0, rr)?, out_b, &out_sp)?;
                let base = ir.add(ir.mul(ir.add(obt, bshift)?, ir.c(g.in_strides[g.in_b]))?, chan)?;
                let lane = ir.rem(rr, ir.c(mr))?;
                let panel = ir.mul(ir.div(rr, ir.c(mr))?, ir.mul(ir.c(mr), kc)?)?;
                let dbase = ir.add(panel, lane)?;
                // Depth k of (tap, z): tap * Cg + z, or z * taps + tap (z-major).
                let z_major = self.z_major(lanes);
                let (t_lo, t_hi) = if z_major {
                    (ir.c(0), ir.c(g.taps))
                } else {
                    (ir.div(k0, ir.c(g.cg))?, ir.ceil_div(ir.add(k0, kc)?, ir.c(g.cg))?)
                };
                ir.for_range(t_lo, t_hi, 1, |tap| {
                    let ks = g.decode_tap(ir, tap)?;
                    let (valid, off) = g.input_offset(ir, &os, &ks)?;
                    let src = ir.select(valid, ir.add(base, off)?, ir.c(0))?;
                    let (z_lo, z_hi, depth) = if z_major {
                        // z * taps + tap in [k0, k0 + kc).
                        let from = |k: IntValue<'ctx>| -> R<IntValue<'ctx>> {
                            ir.ceil_div(ir.max(ir.c(0), ir.sub(k, tap)?)?, ir.c(g.taps))
                        };
                        let z_hi = ir.min(ir.c(g.cg), from(ir.add(k0, kc)?)?)?;
                        (from(k0)?, z_hi, ir.sub(tap, k0)?)
                    } else {
                        let tk = ir.mul(tap, ir.c(g.cg))?;
                        let z_lo = ir.max(ir.c(0), ir.sub(k0, tk)?)?;
                        let z_hi = ir.min(ir.c(g.cg), ir.sub(ir.add(k0, kc)?, tk)?)?;
                        (z_lo, z_hi, ir.sub(tk, k0)?)
                    };
                    let z_step = if z_major { g.taps } else { 1 };
                    ir.for_range(z_lo, z_hi, 1, |z| {
                        let at = ir.add(src, ir.mul(z, ir.c(g.in_strides[g.in_f]))?)?;
                        let v = self.a_value(ir, ir.load(imem, ir.gep(imem, input, at)?, ib)?)?;
                        let v = ir.b.build_select(valid, v, self.a_zero(ir), "")?;
                        let kk = ir.add(depth, ir.mul(z, ir.c(z_step))?)?;
                        let d = ir.add(dbase, ir.mul(kk, ir.c(mr))?)?;
                        ir.store(ir.gep(ctt, apack, d)?, v, cbytes)
                    })
                })
            };
            if self.panel_vectors(lanes) {
                self.gather_panel_vectors(ir, input, apack, [r0, mc, k0, kc, chan, bshift], mr, &row)?;
            } else {
                ir.for_range(ir.c(0), mc, 1, row)?;
            }
        }
        // Rows past `mc` in the last panel: zeros.
        let padded = ir.mul(ir.ceil_div(mc, ir.c(mr))?, ir.c(mr))?;
        ir.for_range(mc, padded, 1, |rr| {
            let lane = ir.rem(rr, ir.c(mr))?;
            let panel = ir.mul(ir.div(rr, ir.c(mr))?, ir.mul(ir.c(mr), kc)?)?;
            ir.for_range(ir.c(0), kc, 1, |kk| {
                let d = ir.add(ir.add(panel, lane)?, ir.mul(kk, ir.c(mr))?)?;
                ir.store(ir.gep(ctt, apack, d)?, self.a_zero(ir), cbytes)
            })
        })?;
        Ok(())
    }

    fn im2col_task(
        &self,
        f: FunctionValue<'ctx>,
        parts: &Parts<'ctx>,
        kspan: i64,
        npad: i64,
        nkb: i64,
        kcb: i64,
        (chunk, chunks): (i64, i64),
        shared: bool,
    ) -> R<()> {
        let g = &self.g;
        let spec = self.spec;
        let ct = self.ct;
        let blk = parts.blk;
        let mr = blk.mr as i64;
        // With `shared`, the first pointer is the whole im2col matrix, packed
        // per (row block, depth block) by [`Conv::im2col`]; else the input.
        let (ir, lo, hi, [input, bpack, c, epi, ectx]) = self.task_entry(f)?;
        let ctt = ct.ty(ir.cx);
        let pt = crate::gemm::packed_type(&ir, &blk);
        let omem = ir.mem_ty(spec.out, 0);
        let a_block = cdiv(blk.mc, mr) * mr * kcb;
        let kdim = g.taps * g.cg;
        let apack = if shared { input } else { ir.alloc(ir.c(a_block * self.a_elem(&ir).1 as i64))? };
        // Grouped panels: gathered as accumulator values, then repacked
        // (already, when shared).
        let repack = blk.group > 1 && !shared && !self.quad_planes(blk.lanes);
        let grouped = if repack { Some(ir.alloc(ir.c(a_block * blk.packed_bytes()))?) } else { None };
        let shared_t = if blk.group > 1 { pt } else { ctt };
        let lanes = blk.lanes;
        let dst =
            if g.feature_minor_out() { None } else { Some(Slots::at(ir.param_ptr(0), SLOTS).get_ptr(&ir, S_DST)?) };
        ir.for_range(lo, hi, 1, |t| {
            // Task t: column chunk fastest, then run, then row block.
            let cb = ir.rem(t, ir.c(chunks))?;
            let t = ir.div(t, ir.c(chunks))?;
            let run = ir.rem(t, ir.c(g.runs))?;
            let rb = ir.div(t, ir.c(g.runs))?;
            let c_lo = ir.mul(cb, ir.c(chunk))?;
            let c_hi = ir.min(ir.c(g.gs), ir.add(c_lo, ir.c(chunk))?)?;
            let r0 = ir.mul(rb, ir.c(blk.mc))?;
            let mc = ir.min(ir.c(blk.mc), ir.sub(ir.c(g.rows), r0)?)?;
            let f_start = ir.mul(run, ir.c(g.gs))?;
            let fg = ir.div(f_start, ir.c(g.f_per_fg))?;
            let bgi = ir.div(f_start, ir.c(g.f_per_bg))?;
            let chan = ir.mul(ir.mul(fg, ir.c(g.cg))?, ir.c(g.in_strides[g.in_f]))?;
            let bshift = ir.mul(bgi, ir.c(g.nb))?;
            let brun = ir.gep(pt, bpack, ir.mul(run, ir.c(kspan * npad))?)?;
            ir.for_range(c_lo, c_hi, blk.nc, |jc| {
                let nc = ir.min(ir.c(blk.nc), ir.sub(c_hi, jc)?)?;
                ir.for_range(ir.c(0), ir.c(nkb), 1, |p| {
                    let k0 = ir.mul(p, ir.c(kcb))?;
                    let kc = ir.min(ir.c(kcb), ir.sub(ir.c(kdim), k0)?)?;
                    let a = if shared {
                        ir.gep(shared_t, input, ir.mul(ir.add(ir.mul(rb, ir.c(nkb))?, p)?, ir.c(a_block))?)?
                    } else {
                        self.gather_a(&ir, input, apack, [r0, mc, k0, kc, chan, bshift], mr, lanes)?;
                        match grouped {
                            Some(ppack) => {
                                repack_groups(&ir, apack, ppack, [mc, kc], mr, (blk.group, self.raw_gather.get()))?;
                                ppack
                            }
                            None => apack,
                        }
                    };
                    let (accumulate, last) = depth_flags(&ir, p, ir.c(nkb))?;
                    let kp = crate::gemm::packed_depth(&ir, &blk, kc)?;
                    let bblock = ir.gep(pt, brun, ir.add(ir.mul(k0, ir.c(npad))?, ir.mul(jc, kp)?)?)?;
                    let col = ir.add(f_start, jc)?;
                    let cblock = ir.gep(omem, c, ir.add(ir.mul(r0, ir.c(g.f))?, col)?)?;
                    let sizes = [mc, nc, kc, ir.c(g.f)];
                    let at = [ir.c(0), r0, col];
                    // Outputs whose features are not minor run theirs after the scatter.
                    let tile_epi = if dst.is_some() { ir.ptrt().const_null() } else { epi };
                    let epi = (tile_epi, ectx);
                    parts.call_macro(&ir, sizes, [a, bblock, cblock], (accumulate, last), epi, at, None, None)
                })
            })?;
            if let Some(dst) = dst {
                // Rows [r0, r0 + mc) of this task's features are final: into the output.
                let (f_lo, f_hi) = (ir.add(f_start, c_lo)?, ir.add(f_start, c_hi)?);
                self.scatter_rows(&ir, c, dst, [r0, ir.add(r0, mc)?], [f_lo, f_hi])?;
                if let Some((_, size)) = epilogue_per_image(spec)? {
                    // The block's rows per image, now final: their epilogue.
                    let r1 = ir.add(r0, mc)?;
                    let b_lo = ir.div(r0, ir.c(size))?;
                    let b_hi = ir.ceil_div(r1, ir.c(size))?;
                    ir.for_range(b_lo, b_hi, 1, |b| {
                        let at = ir.mul(b, ir.c(size))?;
                        let p0 = ir.sub(ir.max(r0, at)?, at)?;
                        let p1 = ir.sub(ir.min(r1, ir.add(at, ir.c(size))?)?, at)?;
                        call_epilogue(&ir, epi, ectx, [b, f_lo, f_hi, p0, p1])
                    })?;
                }
            }
            Ok(())
        })?;
        if !shared {
            ir.free(apack)?;
        }
        if let Some(ppack) = grouped {
            ir.free(ppack)?;
        }
        ir.ret()
    }
}

impl<'ctx> Conv<'_, 'ctx> {
    /// Copies rows `[r0, r1)`, features `[f_lo, f_hi)` of the `[rows, F]`
    /// scratch `c` into the output `dst`, whose features are not minor. Where
    /// the output's spatial dimensions trail, row-major (NCHW), a run of
    /// `lanes` rows in one image is `lanes` consecutive output elements of
    /// each feature: `lanes x lanes` blocks of 32-bit values go through a
    /// transpose in registers; the rest element by element.
    fn scatter_rows(
        &self,
        ir: &Ir<'_, 'ctx>,
        c: PointerValue<'ctx>,
        dst: PointerValue<'ctx>,
        [r0, r1]: [IntValue<'ctx>; 2],
        [f_lo, f_hi]: [IntValue<'ctx>; 2],
    ) -> R<()> {
        let g = &self.g;
        let spec = self.spec;
        let (out_b, out_sp) = out_layout(spec);
        let omem = ir.mem_ty(spec.out, 0);
        let ob = spec.out.byte_size() as u32;
        let base_of = |r: IntValue<'ctx>| -> R<(IntValue<'ctx>, IntValue<'ctx>)> {
            let (obt, os) = g.decode_row(ir, r, out_b, &out_sp)?;
            let mut base = ir.mul(obt, ir.c(g.out_strides[out_b]))?;
            for (k, &d) in out_sp.iter().enumerate() {
                base = ir.add(base, ir.mul(os[k], ir.c(g.out_strides[d]))?)?;
            }
            Ok((obt, base))
        };
        let element = |r: IntValue<'ctx>, fo: IntValue<'ctx>, base: IntValue<'ctx>| -> R<()> {
            let v = ir.load(omem, ir.gep(omem, c, ir.add(ir.mul(r, ir.c(g.f))?, fo)?)?, ob)?;
            let at = ir.add(base, ir.mul(fo, ir.c(g.out_strides[g.out_f]))?)?;
            ir.store(ir.gep(omem, dst, at)?, v, ob)
        };
        let by_elements = |a: IntValue<'ctx>, b: IntValue<'ctx>, f0: IntValue<'ctx>| -> R<()> {
            ir.for_range(a, b, 1, |r| {
                let (_, base) = base_of(r)?;
                ir.for_range(f0, f_hi, 1, |fo| element(r, fo, base))
            })
        };
        let lanes = self.isa.vector_bits / 32;
        let contiguous = out_sp.last().is_some_and(|&d| g.out_strides[d] == 1)
            && out_sp.windows(2).all(|w| g.out_strides[w[0]] == g.out_strides[w[1]] * g.out_dims[w[1]]);
        if spec.out.byte_size() != 4 || lanes < 4 || !contiguous {
            return by_elements(r0, r1, f_lo);
        }
        let l = lanes as i64;
        let vty = ir.mem_ty(spec.out, lanes);
        let span = ir.sub(f_hi, f_lo)?;
        let f_main = ir.sub(f_hi, ir.rem(span, ir.c(l))?)?;
        ir.for_range(r0, r1, l, |rb| {
            let last = ir.min(ir.add(rb, ir.c(l - 1))?, ir.sub(r1, ir.c(1))?)?;
            let (b_first, base) = base_of(rb)?;
            let (b_last, _) = base_of(last)?;
            let whole = ir.b.build_and(
                ir.cmp(IntPredicate::EQ, ir.sub(last, rb)?, ir.c(l - 1))?,
                ir.cmp(IntPredicate::EQ, b_first, b_last)?,
                "",
            )?;
            ir.if_else(
                whole,
                || {
                    ir.for_range(f_lo, f_main, l, |f0| {
                        let mut rows = Vec::with_capacity(lanes as usize);
                        for i in 0..l {
                            let at = ir.add(ir.mul(ir.add(rb, ir.c(i))?, ir.c(g.f))?, f0)?;
                            rows.push(ir.load(vty, ir.gep(omem, c, at)?, ob)?);
                        }
                        for (u, v) in crate::gemm::transpose(ir, rows, lanes)?.into_iter().enumerate() {
                            let fo = ir.add(f0, ir.c(u as i64))?;
                            let at = ir.add(base, ir.mul(fo, ir.c(g.out_strides[g.out_f]))?)?;
                            ir.store(ir.gep(omem, dst, at)?, v, ob)?;
                        }
                        Ok(())
                    })?;
                    by_elements(rb, ir.add(rb, ir.c(l))?, f_main)
                },
                || by_elements(rb, ir.add(last, ir.c(1))?, f_lo),
            )
        })
    }
}

/// Repacks gathered A micro-panels (`mr` rows, `kc` deep, each `[kc][mr]`
/// 32-bit values at `src + r0 * kc`, or the input's bytes with `raw`) as grouped panels (`[kc / g][mr][g]`
/// 16-bit (`g = 2`) or 8-bit (`g = 4`) values at `dst + r0 * kc'`, `kc'` the
/// depth rounded up to whole groups, zeros past `kc`): the layout of the
/// GEMM's grouped microkernel. The values fit the narrow type (the operands'
/// own).
fn repack_groups<'ctx>(
    ir: &Ir<'_, 'ctx>,
    src: PointerValue<'ctx>,
    dst: PointerValue<'ctx>,
    [mc, kc]: [IntValue<'ctx>; 2],
    mr: i64,
    (group, raw): (u32, bool),
) -> R<()> {
    let g = group as i64;
    let m = mr as u32;
    let nt = if group == 2 { ir.cx.i16_type() } else { ir.cx.i8_type() };
    let st = if raw { nt } else { ir.cx.i32_type() };
    let (v32, vn) = (st.vec_type(m), nt.vec_type(m));
    // Concatenations of two vectors, then the final interleave: element
    // (r, t) of the group comes from vector t, lane r.
    let halves: Vec<Option<u32>> = (0..2 * m).map(Some).collect();
    let interleave: Vec<Option<u32>> = (0..m)
        .flat_map(|r| {
            (0..group).map(move |t| {
                Some(if group == 2 {
                    t * m + r
                } else if t < 2 {
                    t * m + r
                } else {
                    2 * m + (t - 2) * m + r
                })
            })
        })
        .collect();
    let kp = ir.mul(ir.div(ir.add(kc, ir.c(g - 1))?, ir.c(g))?, ir.c(g))?;
    ir.for_range(ir.c(0), mc, mr, |r0| {
        let from = ir.gep(st.into(), src, ir.mul(r0, kc)?)?;
        let to = ir.gep(nt.into(), dst, ir.mul(r0, kp)?)?;
        ir.for_range(ir.c(0), ir.div(kp, ir.c(g))?, 1, |q| {
            let k = ir.mul(q, ir.c(g))?;
            let mut vs = Vec::with_capacity(group as usize);
            for t in 0..g {
                let kt = ir.add(k, ir.c(t))?;
                let in_depth = ir.cmp(IntPredicate::SLT, kt, kc)?;
                // Depths past kc read the group's first again, then zero.
                let at = ir.select(in_depth, kt, k)?;
                let v = ir.load(v32.into(), ir.gep(st.into(), from, ir.mul(at, ir.c(mr))?)?, 1)?.into_vector_value();
                let v = ir.b.build_select(in_depth, v, v32.const_zero(), "")?.into_vector_value();
                vs.push(if raw { v.into() } else { BasicValueEnum::from(ir.b.build_int_truncate(v, vn, "")?) });
            }
            let all = if group == 2 {
                ir.shuffle(vs[0], vs[1], &interleave)?
            } else {
                let lo = ir.shuffle(vs[0], vs[1], &halves)?;
                let hi = ir.shuffle(vs[2], vs[3], &halves)?;
                ir.shuffle(lo, hi, &interleave)?
            };
            ir.store(ir.gep(nt.into(), to, ir.mul(k, ir.c(mr))?)?, all, 1)
        })
    })
}

/// The output's batch and spatial dimension indices.
/// The direct strategies' per-tap tables (see [`Conv::tap_tables`]).
struct TapTables<'ctx> {
    offs: PointerValue<'ctx>,
    oks: PointerValue<'ctx>,
    out_b: usize,
    out_sp: Vec<usize>,
}

impl TapTables<'_> {
    /// Output rows per group: independent accumulators per row hide the
    /// latency of the multiply-adds in the tap loop.
    const ROWS: i64 = 4;
}

fn out_layout(spec: &ConvSpec) -> (usize, Vec<usize>) {
    (spec.dims.output_batch as usize, spec.dims.output_spatial.iter().map(|&d| d as usize).collect())
}

#[cfg(test)]
mod tests;
