//! Convolutions of any shape for the LLVM tier: the windows gathered into a
//! patch matrix and multiplied by a GEMM routine of the machine's precompiled
//! family (`smelt_cpu::routines`), so a convolution of a shape never seen
//! before costs no code generation.
//!
//! The LLVM tier's own convolution routines are generated for one shape each
//! (tens to hundreds of milliseconds of LLVM per shape, once per machine);
//! this routine serves a program until its shapes' routines exist. Shapes
//! arrive at run time as a descriptor ([`ConvGemm::encode`]), the product as
//! a function pointer of the GEMM family's type. Two forms:
//!
//! - **Pixel rows**: `P[G][R][Fg] = patches[G][R][K] x W[G][K][Fg]` over
//!   blocks of `R` output rows (the output's non-feature dimensions in its
//!   order), depth tap-major (`tap * Cg + feature`). One feature group and the
//!   feature dimension last: `P` is the output itself.
//! - **Feature rows** (outputs `[B, F, spatial...]` row-major, NCHW): per
//!   image `out[G][Fg][S] = W[G][Fg][K] x patches[G][K][S]`, depth
//!   feature-major (`feature * taps + tap`), written straight into the output;
//!   an OIHW kernel is `W` as it is.
//! - **Direct** (grouped float convolutions of at most four input features
//!   per group, depthwise above all, where a product per group is a
//!   sliver): each output row summed over its taps, a vector of all
//!   features at a time.
//!
//! Epilogues run where the caller says ([`EpilogueView`]), which is where
//! the specialized routine of the same convolution runs them
//! (`smelt_cpu::conv`), so that one can take over: the descriptor's second
//! word is the address of a routine of the convolution's own signature
//! (`input, kernel, out, epilogue, ctx`), zero until the caller stores one
//! ([`UPGRADE_WORD`]); from then on every call goes there.
//! Batch groups are not handled ([`ConvGemm::new`] refuses them).

use std::ffi::c_void;
use std::sync::atomic::Ordering;

use smelt_hlo::attrs::ConvDims;

use super::RoutineError;
use super::conv::{ConvWindow, Labels, labels, window_input};
use crate::pool::smelt_parallel_for;
use crate::scratch::{smelt_scratch_alloc, smelt_scratch_free};

/// The symbol compiled code calls.
pub const CONV_GEMM_SYMBOL: &str = "smelt_conv_gemm";

/// The descriptor word holding the routine that takes over, or zero.
pub const UPGRADE_WORD: usize = 1;

/// A convolution routine generated for one shape: `(input, kernel, out,
/// epilogue, ctx)`.
pub type ConvFn = unsafe extern "C" fn(*const u8, *const u8, *mut u8, Option<EpilogueFn>, *mut c_void);

/// The address of [`smelt_conv_gemm`], for a JIT's symbol table.
pub fn conv_gemm_address() -> usize {
    smelt_conv_gemm as *const () as usize
}

/// A GEMM family member: `(lhs, rhs, out, batch, m, n, k, epilogue, ctx)`
/// over dense row-major `[batch, m, k] x [batch, k, n] -> [batch, m, n]`.
pub type GemmFn = unsafe extern "C" fn(*const u8, *const u8, *mut u8, i64, i64, i64, i64, *const c_void, *mut c_void);

/// An epilogue callback: `(ctx, b, i0, i1, j0, j1)`.
pub type EpilogueFn = unsafe extern "C" fn(*mut c_void, i64, i64, i64, i64, i64);

/// Bytes of patches gathered per product of the pixel-rows form.
const BLOCK_BYTES: i64 = 8 << 20;

/// Bytes of one image's patches up to which an NCHW output takes the
/// feature-rows form (all of an image's patches in one scratch block; kept
/// blocks stay resident, `crate::scratch`). VGG-19's first run at 64 MiB:
/// 58 and 29 MB blocks, peak resident memory 869 MB for 575 MB of weights;
/// at 16 MiB 745 MB, and its steady state on this routine alone
/// (`SMELT_CONVS=generic-only`) 238 -> 223 ms. Tests use a small limit so
/// that their NCHW cases take both forms.
const IMAGE_BYTES: i64 = if cfg!(test) { 2 << 10 } else { 16 << 20 };

/// Elements worth a task of their own when gathering or running epilogues.
const TASK_ELEMENTS: i64 = 1 << 14;

/// Multiply-adds below which a convolution runs on the calling thread.
const SERIAL_WORK: i64 = 1 << 16;

/// The most input features per group a grouped float convolution is
/// summed directly for ([`Float`]).
const DIRECT_MAX_GROUP_FEATURES: i64 = 4;

/// A convolution without batch groups, every shape known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConvGemm {
    /// Element sizes in bytes of the input, kernel and output (the product).
    pub input_bytes: i64,
    pub kernel_bytes: i64,
    pub out_bytes: i64,
    pub input_dims: Vec<i64>,
    pub kernel_dims: Vec<i64>,
    pub output_dims: Vec<i64>,
    pub dims: ConvDims,
    pub window: Vec<ConvWindow>,
    pub feature_group_count: i64,
    /// Where the epilogue runs ([`ConvGemm::with_epilogue`]).
    pub epilogue: EpilogueView,
    /// The float type every operand and the output share, if any
    /// ([`ConvGemm::with_float`]).
    pub float: Option<Float>,
}

/// A float type the routine sums in itself: feature groups of a few
/// features each (depthwise convolutions above all) are summed directly,
/// window by window, where a product per group would be a sliver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Float {
    F32,
    F64,
}

/// Where the routine runs the epilogue it is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EpilogueView {
    /// Per block of the output seen as `[rows, F]` (rows: the output's other
    /// dimensions in its order): `epilogue(ctx, 0, r0, r1, 0, F)`, as each
    /// block is final when features are minor, else once everything is.
    Rows,
    /// Per block of image `b` seen as `[F, S]` (NCHW outputs):
    /// `epilogue(ctx, b, f0, f1, 0, S)`, as each image is final.
    PerImage { features: i64, spatial: i64 },
}

fn err<T>(m: &str) -> Result<T, RoutineError> {
    Err(RoutineError(format!("convolution: {m}")))
}

fn row_major(d: &[i64]) -> Vec<i64> {
    let mut s = vec![1i64; d.len()];
    for i in (0..d.len().saturating_sub(1)).rev() {
        s[i] = s[i + 1] * d[i + 1];
    }
    s
}

impl ConvGemm {
    /// A validated convolution: nonzero sizes, no batch groups, element
    /// sizes of 1, 2, 4 or 8 bytes.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        bytes: [i64; 3],
        input_dims: &[i64],
        kernel_dims: &[i64],
        output_dims: &[i64],
        dims: &ConvDims,
        window: Vec<ConvWindow>,
        feature_group_count: i64,
        batch_group_count: i64,
    ) -> Result<ConvGemm, RoutineError> {
        if batch_group_count != 1 {
            return err("batch groups");
        }
        if !bytes.iter().all(|b| [1, 2, 4, 8].contains(b)) {
            return err("element sizes other than 1, 2, 4 or 8 bytes");
        }
        let c = ConvGemm {
            input_bytes: bytes[0],
            kernel_bytes: bytes[1],
            out_bytes: bytes[2],
            input_dims: input_dims.to_vec(),
            kernel_dims: kernel_dims.to_vec(),
            output_dims: output_dims.to_vec(),
            dims: dims.clone(),
            window,
            feature_group_count,
            epilogue: EpilogueView::Rows,
            float: None,
        };
        let g = c.geometry()?;
        if [&c.input_dims, &c.kernel_dims, &c.output_dims].iter().any(|d| d.contains(&0)) || g.k == 0 {
            return err("empty operands");
        }
        Ok(c)
    }

    /// `self` running the epilogue per `view`: `PerImage` needs an NCHW
    /// output (its `features` and `spatial` those of the output).
    pub fn with_epilogue(mut self, view: EpilogueView) -> Result<ConvGemm, RoutineError> {
        let g = self.geometry()?;
        let fits = match view {
            EpilogueView::Rows => true,
            EpilogueView::PerImage { features, spatial } => g.out_nchw() && features == g.f && spatial == g.s,
        };
        if !fits {
            return err("an epilogue view the output's layout does not have");
        }
        self.epilogue = view;
        Ok(self)
    }

    /// `self` for operands and output all of type `float` (their sizes
    /// must be its size).
    pub fn with_float(mut self, float: Option<Float>) -> Result<ConvGemm, RoutineError> {
        let bytes = match float {
            Some(Float::F32) => 4,
            Some(Float::F64) => 8,
            None => self.input_bytes,
        };
        if float.is_some() && [self.input_bytes, self.kernel_bytes, self.out_bytes] != [bytes; 3] {
            return err("a float type of another size than the operands'");
        }
        self.float = float;
        Ok(self)
    }

    /// The descriptor compiled code passes: its length, the upgrade word
    /// (zero), then every field.
    pub fn encode(&self) -> Vec<i64> {
        let d = &self.dims;
        let view = match self.epilogue {
            EpilogueView::Rows => 1,
            EpilogueView::PerImage { .. } => 2,
        };
        let float = match self.float {
            None => 0,
            Some(Float::F32) => 1,
            Some(Float::F64) => 2,
        };
        let mut v =
            vec![0, 0, view, float, self.input_bytes, self.kernel_bytes, self.out_bytes, self.feature_group_count];
        v.push(self.input_dims.len() as i64);
        for dims in [&self.input_dims, &self.kernel_dims, &self.output_dims] {
            v.extend(dims);
        }
        v.extend([d.input_batch, d.input_feature, d.kernel_input_feature, d.kernel_output_feature]);
        v.extend([d.output_batch, d.output_feature]);
        for s in 0..self.window.len() {
            let w = &self.window[s];
            v.extend([d.input_spatial[s], d.kernel_spatial[s], d.output_spatial[s]]);
            v.extend([w.size, w.stride, w.pad_low, w.window_dilation, w.base_dilation, i64::from(w.reversal)]);
        }
        v[0] = v.len() as i64;
        v
    }

    /// The convolution [`ConvGemm::encode`] wrote, if `v` is one.
    pub fn decode(v: &[i64]) -> Option<ConvGemm> {
        let mut it = v.iter().copied();
        let mut next = || it.next();
        let len = next()?;
        if len != v.len() as i64 {
            return None;
        }
        let (_upgrade, view, float) = (next()?, next()?, next()?);
        let (input_bytes, kernel_bytes, out_bytes, groups) = (next()?, next()?, next()?, next()?);
        let rank = usize::try_from(next()?).ok().filter(|r| (2..=64).contains(r))?;
        let mut take = |n: usize| -> Option<Vec<i64>> { (0..n).map(|_| next()).collect() };
        let (input_dims, kernel_dims, output_dims) = (take(rank)?, take(rank)?, take(rank)?);
        let l = take(6)?;
        let mut dims = ConvDims {
            input_batch: l[0],
            input_feature: l[1],
            input_spatial: Default::default(),
            kernel_input_feature: l[2],
            kernel_output_feature: l[3],
            kernel_spatial: Default::default(),
            output_batch: l[4],
            output_feature: l[5],
            output_spatial: Default::default(),
        };
        let mut window = Vec::new();
        for _ in 0..rank - 2 {
            let w = take(9)?;
            dims.input_spatial.push(w[0]);
            dims.kernel_spatial.push(w[1]);
            dims.output_spatial.push(w[2]);
            window.push(ConvWindow {
                size: w[3],
                stride: w[4],
                pad_low: w[5],
                window_dilation: w[6],
                base_dilation: w[7],
                reversal: w[8] != 0,
            });
        }
        let bytes = [input_bytes, kernel_bytes, out_bytes];
        let c = ConvGemm::new(bytes, &input_dims, &kernel_dims, &output_dims, &dims, window, groups, 1).ok()?;
        let view = match view {
            1 => EpilogueView::Rows,
            2 => {
                let g = c.geometry().ok()?;
                EpilogueView::PerImage { features: g.f, spatial: g.s }
            }
            _ => return None,
        };
        let float = match float {
            0 => None,
            1 => Some(Float::F32),
            2 => Some(Float::F64),
            _ => return None,
        };
        c.with_epilogue(view).ok()?.with_float(float).ok()
    }

    fn geometry(&self) -> Result<Geom, RoutineError> {
        Geom::new(self)
    }
}

/// Indices and sizes, checked.
struct Geom {
    rank: usize,
    ib: usize,
    if_: usize,
    isp: Vec<usize>,
    ki: usize,
    ko: usize,
    ksp: Vec<usize>,
    ob: usize,
    of: usize,
    osp: Vec<usize>,
    in_strides: Vec<i64>,
    k_strides: Vec<i64>,
    out_strides: Vec<i64>,
    /// Images, feature groups, input features per group, output features and
    /// per group, taps, depth (`taps * cg`), output pixels per image.
    batch: i64,
    g: i64,
    cg: i64,
    f: i64,
    fg: i64,
    taps: i64,
    k: i64,
    s: i64,
    /// Per spatial dimension: output size, window size, and per (output,
    /// window) position the input coordinate or -1 (padding, a dilation hole).
    out_sizes: Vec<i64>,
    win_sizes: Vec<i64>,
    tables: Vec<Vec<i64>>,
    /// The output's non-feature dimensions, last first: the spatial index
    /// (None for the batch) and the size.
    row_walk: Vec<(Option<usize>, i64)>,
}

impl Geom {
    fn new(c: &ConvGemm) -> Result<Geom, RoutineError> {
        let d = &c.dims;
        let spatial = c.window.len();
        let rank = spatial + 2;
        if [&c.input_dims, &c.kernel_dims, &c.output_dims].iter().any(|x| x.len() != rank || x.iter().any(|&v| v < 0)) {
            return err("operand ranks do not match the window");
        }
        let Labels { ib, if_, isp, ki, ko, ksp, ob, of, osp } = labels(d, spatial)?;
        let (ld, rd, od) = (&c.input_dims, &c.kernel_dims, &c.output_dims);
        let g = c.feature_group_count;
        if g < 1 || ld[if_] % g != 0 || rd[ki] * g != ld[if_] || rd[ko] % g != 0 || od[of] != rd[ko] || od[ob] != ld[ib]
        {
            return err("features or batch do not match the operands");
        }
        let mut tables = Vec::with_capacity(spatial);
        for (s, w) in c.window.iter().enumerate() {
            let (o_size, in_size) = (od[osp[s]], ld[isp[s]]);
            if w.stride < 1 || w.window_dilation < 1 || w.base_dilation < 1 || w.size != rd[ksp[s]] {
                return err("bad window");
            }
            let mut t = Vec::with_capacity((o_size * w.size) as usize);
            for o in 0..o_size {
                for k in 0..w.size {
                    t.push(window_input(o, k, w, in_size).unwrap_or(-1));
                }
            }
            tables.push(t);
        }
        let taps: i64 = ksp.iter().map(|&k| rd[k]).product();
        let cg = rd[ki];
        Ok(Geom {
            rank,
            in_strides: row_major(ld),
            k_strides: row_major(rd),
            out_strides: row_major(od),
            batch: ld[ib],
            g,
            cg,
            f: rd[ko],
            fg: rd[ko] / g,
            taps,
            k: taps * cg,
            s: osp.iter().map(|&o| od[o]).product(),
            out_sizes: osp.iter().map(|&o| od[o]).collect(),
            win_sizes: c.window.iter().map(|w| w.size).collect(),
            tables,
            row_walk: (0..rank).rev().filter(|&d| d != of).map(|d| (osp.iter().position(|&p| p == d), od[d])).collect(),
            ib,
            if_,
            isp,
            ki,
            ko,
            ksp,
            ob,
            of,
            osp,
        })
    }

    fn out_features_minor(&self) -> bool {
        self.of == self.rank - 1
    }

    fn out_nchw(&self) -> bool {
        self.ob == 0 && self.of == 1 && self.osp.iter().enumerate().all(|(s, &d)| d == s + 2)
    }

    /// Whether the convolution takes the feature-rows form: an NCHW output
    /// whose image's patches (of `input_bytes` elements) fit [`IMAGE_BYTES`].
    fn feature_rows_form(&self, input_bytes: i64) -> bool {
        self.out_nchw() && self.g * self.k * self.s * input_bytes <= IMAGE_BYTES
    }

    fn rows(&self) -> i64 {
        self.batch * self.s
    }

    /// The kernel offset of tap `t` (row-major over the window, reversal
    /// applied), input feature 0, output feature 0.
    fn kernel_tap_offset(&self, c: &ConvGemm, mut t: i64) -> i64 {
        let mut off = 0;
        for s in (0..self.win_sizes.len()).rev() {
            let size = self.win_sizes[s];
            let k = t % size;
            t /= size;
            let k = if c.window[s].reversal { size - 1 - k } else { k };
            off += k * self.k_strides[self.ksp[s]];
        }
        off
    }

    /// Calls `each(t, offset)` for every tap `t` of the window over output
    /// pixel `o` (spatial coordinates), in order, with the tap's input offset
    /// in image 0 and feature 0, or None in padding; `k` is scratch of the
    /// rank's length.
    fn taps_of(&self, o: &[i64], k: &mut [i64], mut each: impl FnMut(i64, Option<i64>)) {
        if let ([o0], [w0]) = (o, &self.win_sizes[..]) {
            let s0 = self.in_strides[self.isp[0]];
            for (t, &i0) in self.tables[0][(o0 * w0) as usize..][..*w0 as usize].iter().enumerate() {
                each(t as i64, (i0 >= 0).then(|| i0 * s0));
            }
            return;
        }
        if let ([o0, o1], [w0, w1]) = (o, &self.win_sizes[..]) {
            // Two spatial dimensions, the usual case: the window's rows and
            // columns (and one, a 1-D convolution's, above).
            let (s0, s1) = (self.in_strides[self.isp[0]], self.in_strides[self.isp[1]]);
            let rows = &self.tables[0][(o0 * w0) as usize..][..*w0 as usize];
            let cols = &self.tables[1][(o1 * w1) as usize..][..*w1 as usize];
            let mut t = 0;
            for &i0 in rows {
                for &i1 in cols {
                    each(t, (i0 >= 0 && i1 >= 0).then(|| i0 * s0 + i1 * s1));
                    t += 1;
                }
            }
            return;
        }
        k.fill(0);
        for t in 0..self.taps {
            let mut off = Some(0);
            for (s, (&o, &k)) in o.iter().zip(k.iter()).enumerate() {
                let i = self.tables[s][(o * self.win_sizes[s] + k) as usize];
                off = off.filter(|_| i >= 0).map(|v| v + i * self.in_strides[self.isp[s]]);
            }
            each(t, off);
            advance(k, &self.win_sizes);
        }
    }

    /// The output offset of row `r` of the `[rows, F]` view, feature 0.
    fn row_offset(&self, c: &ConvGemm, mut r: i64) -> i64 {
        let mut off = 0;
        for d in (0..self.rank).rev() {
            if d == self.of {
                continue;
            }
            let size = c.output_dims[d];
            off += (r % size) * self.out_strides[d];
            r /= size;
        }
        off
    }

    /// Image and spatial coordinates of output row `r` (the output's
    /// non-feature dimensions in its order, row-major).
    fn row_coords(&self, mut r: i64, o: &mut [i64]) -> i64 {
        let mut b = 0;
        for &(spatial, size) in &self.row_walk {
            let x = r % size;
            r /= size;
            match spatial {
                Some(s) => o[s] = x,
                None => b = x,
            }
        }
        b
    }

    /// Steps image `b` and coordinates `o` to the next output row's.
    fn next_row(&self, b: &mut i64, o: &mut [i64]) {
        for &(spatial, size) in &self.row_walk {
            let x = match spatial {
                Some(s) => &mut o[s],
                None => &mut *b,
            };
            *x += 1;
            if *x < size {
                return;
            }
            *x = 0;
        }
    }
}

/// An element moved by its bits.
trait Bits: Copy + Default + Send + Sync + 'static {}
impl Bits for u8 {}
impl Bits for u16 {}
impl Bits for u32 {}
impl Bits for u64 {}

/// Runs `f(begin, end)` over `[0, n)` on the thread pool.
fn on_pool(n: i64, grain: i64, f: &(dyn Fn(i64, i64) + Sync)) {
    unsafe extern "C" fn call(ctx: *mut c_void, begin: i64, end: i64) {
        // SAFETY: `ctx` is the `&dyn Fn` below, alive for the whole call.
        let f = unsafe { &*(ctx as *const &(dyn Fn(i64, i64) + Sync)) };
        f(begin, end);
    }
    let f: &(dyn Fn(i64, i64) + Sync) = f;
    // SAFETY: `call` only reads `ctx` as the closure, which is `Sync`.
    unsafe { smelt_parallel_for(call, &f as *const _ as *mut c_void, n, grain.max(1)) };
}

/// Scratch memory from the runtime's pool, released on drop.
struct Scratch(*mut u8);

impl Scratch {
    fn new(bytes: i64) -> Option<Scratch> {
        let p = smelt_scratch_alloc(bytes);
        (!p.is_null()).then_some(Scratch(p))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        // SAFETY: from `smelt_scratch_alloc`, not used after this.
        unsafe { smelt_scratch_free(self.0) };
    }
}

/// A raw address shared by tasks that touch disjoint parts of it.
#[derive(Clone, Copy)]
struct Addr(usize);

impl Addr {
    fn of<T>(p: *const T) -> Addr {
        Addr(p as usize)
    }
    fn at<T>(self, i: i64) -> *mut T {
        (self.0 as *mut T).wrapping_offset(i as isize)
    }
}

/// `out = conv(input, kernel)` for the convolution `desc` describes
/// ([`ConvGemm::encode`]), its product by `gemm` (a member of the GEMM
/// family for the operands' types, untransposed) and `epilogue(ctx, ...)`
/// where its [`EpilogueView`] says. A descriptor that does not decode
/// leaves `out` untouched (compiled code passes only what `encode` wrote).
///
/// # Safety
/// The buffers are dense row-major arrays of the descriptor's dims and
/// element sizes, `out` overlapping neither operand; `gemm` computes products
/// of those types; `epilogue` is null or safe to call on `ctx` with disjoint
/// blocks from several threads at once.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn smelt_conv_gemm(
    desc: *const i64,
    input: *const u8,
    kernel: *const u8,
    out: *mut u8,
    epilogue: Option<EpilogueFn>,
    ctx: *mut c_void,
    gemm: GemmFn,
) {
    // SAFETY: the descriptor's words are i64-aligned; the upgrade word is
    // only ever written atomically (by whoever stores a routine there).
    let upgrade = unsafe { (*desc.add(UPGRADE_WORD).cast::<std::sync::atomic::AtomicI64>()).load(Ordering::Acquire) };
    if upgrade != 0 {
        // SAFETY: the caller stored a routine of this convolution there.
        let routine = unsafe { std::mem::transmute::<usize, ConvFn>(upgrade as usize) };
        unsafe { routine(input, kernel, out, epilogue, ctx) };
        return;
    }
    // SAFETY: the descriptor starts with its length.
    let Some(c) = (unsafe { desc.as_ref() })
        .and_then(|&len| usize::try_from(len).ok())
        .and_then(|len| ConvGemm::decode(unsafe { std::slice::from_raw_parts(desc, len) }))
    else {
        return;
    };
    let Ok(g) = c.geometry() else { return };
    let serial = g.rows() * g.f * g.k < SERIAL_WORK;
    let (input, kernel, out) = (Addr::of(input), Addr::of(kernel), Addr::of(out));
    let run = Run { c: &c, g: &g, input, kernel, out, gemm, serial };
    let epilogue = epilogue.map(|f| (f, Addr::of(ctx)));
    let direct = g.g > 1 && g.cg <= DIRECT_MAX_GROUP_FEATURES;
    // SAFETY: the caller's contract.
    unsafe {
        match (c.float, c.input_bytes, c.kernel_bytes) {
            (Some(Float::F32), ..) if direct => run.direct::<f32>(epilogue),
            (Some(Float::F64), ..) if direct => run.direct::<f64>(epilogue),
            (_, i, k) => run.by_bits(i, k, epilogue),
        }
    }
}

/// A float type summed directly.
trait Sum: Bits + std::ops::Add<Output = Self> + std::ops::Mul<Output = Self> {}
impl Sum for f32 {}
impl Sum for f64 {}
impl Bits for f32 {}
impl Bits for f64 {}

impl Run<'_> {
    /// # Safety
    /// As for [`smelt_conv_gemm`].
    unsafe fn by_bits(&self, input_bytes: i64, kernel_bytes: i64, epilogue: Epilogue) {
        let run = self;
        // SAFETY: the caller's contract.
        unsafe {
            match (input_bytes, kernel_bytes) {
                (1, 1) => run.go::<u8, u8>(epilogue),
                (2, 2) => run.go::<u16, u16>(epilogue),
                (4, 4) => run.go::<u32, u32>(epilogue),
                (8, 8) => run.go::<u64, u64>(epilogue),
                _ => {}
            }
        }
    }

    /// Every output row summed over its window's taps and its group's input
    /// features, a row of all `F` features at a time: grouped convolutions
    /// with a few input features per group, where a product per group is a
    /// sliver.
    ///
    /// # Safety
    /// As for [`smelt_conv_gemm`], with operands and output of type `T`.
    unsafe fn direct<T: Sum>(&self, epilogue: Epilogue) {
        let (c, g) = (self.c, self.g);
        let (taps, cg, fg, f) = (g.taps, g.cg, g.fg, g.f);
        // The kernel as [taps][cg][F].
        let mut w = vec![T::default(); (taps * cg * f) as usize];
        let (ks_i, ks_o) = (g.k_strides[g.ki], g.k_strides[g.ko]);
        for t in 0..taps {
            let base = g.kernel_tap_offset(c, t);
            for z in 0..cg {
                for j in 0..f {
                    // SAFETY: inside the kernel.
                    w[((t * cg + z) * f + j) as usize] = unsafe { *self.kernel.at::<T>(base + z * ks_i + j * ks_o) };
                }
            }
        }
        let (in_b, in_f) = (g.in_strides[g.ib], g.in_strides[g.if_]);
        // Depthwise with features contiguous: each tap is a vector over F.
        let plain = cg == 1 && fg == 1 && in_f == 1;
        let feature_offsets: Vec<i64> = (0..cg).flat_map(|z| (0..f).map(move |j| (j / fg * cg + z) * in_f)).collect();
        let minor = g.out_features_minor();
        let out_f = g.out_strides[g.of];
        let spatial = g.out_sizes.len();
        let rows_view = c.epilogue == EpilogueView::Rows;
        let task = |r0: i64, r1: i64| {
            let mut acc = vec![T::default(); f as usize];
            let (mut o, mut k) = (vec![0i64; spatial], vec![0i64; spatial]);
            let mut b = g.row_coords(r0, &mut o);
            for r in r0..r1 {
                if r > r0 {
                    g.next_row(&mut b, &mut o);
                }
                acc.fill(T::default());
                g.taps_of(&o, &mut k, |t, off| {
                    let Some(off) = off else { return };
                    let src = self.input.at::<T>(b * in_b + off);
                    if plain {
                        // SAFETY: F contiguous features of one input pixel.
                        let x = unsafe { std::slice::from_raw_parts(src, f as usize) };
                        let wt = &w[(t * f) as usize..][..f as usize];
                        for ((a, &xv), &wv) in acc.iter_mut().zip(x).zip(wt) {
                            *a = *a + xv * wv;
                        }
                        return;
                    }
                    for z in 0..cg as usize {
                        let wt = &w[((t as usize * cg as usize) + z) * f as usize..][..f as usize];
                        let offs = &feature_offsets[z * f as usize..][..f as usize];
                        for ((a, &o), &wv) in acc.iter_mut().zip(offs).zip(wt) {
                            // SAFETY: an input feature of this pixel.
                            *a = *a + unsafe { *src.wrapping_offset(o as isize) } * wv;
                        }
                    }
                });
                if minor {
                    // SAFETY: the output's row r, F contiguous elements.
                    unsafe { std::ptr::copy_nonoverlapping(acc.as_ptr(), self.out.at::<T>(r * f), f as usize) };
                } else {
                    let row = g.row_offset(c, r);
                    for (j, &a) in acc.iter().enumerate() {
                        // SAFETY: an output element.
                        unsafe { *self.out.at::<T>(row + j as i64 * out_f) = a };
                    }
                }
            }
            if rows_view && minor {
                self.rows_epilogue(epilogue, r0, r1);
            }
        };
        let grain = (TASK_ELEMENTS / (taps * cg * f)).max(1);
        self.parallel(g.rows(), grain, &task);
        if rows_view && !minor {
            self.rows_epilogue(epilogue, 0, g.rows());
        }
        if !rows_view {
            for b in 0..g.batch {
                self.image_epilogue(epilogue, b);
            }
        }
    }
}

struct Run<'a> {
    c: &'a ConvGemm,
    g: &'a Geom,
    input: Addr,
    kernel: Addr,
    out: Addr,
    gemm: GemmFn,
    /// Too little work to wake the pool for.
    serial: bool,
}

type Epilogue = Option<(EpilogueFn, Addr)>;

impl Run<'_> {
    /// # Safety
    /// As for [`smelt_conv_gemm`], with `I` and `W` the operands' element sizes.
    unsafe fn go<I: Bits, W: Bits>(&self, epilogue: Epilogue) {
        // SAFETY (both): the caller's contract.
        if self.g.feature_rows_form(self.c.input_bytes) {
            unsafe { self.feature_rows::<I, W>(epilogue) }
        } else {
            unsafe { self.pixel_rows::<I, W>(epilogue) }
        }
    }

    /// The kernel as `[G][K][Fg]` (tap-major depth) or, `transposed`, as
    /// `[G][Fg][K]` (feature-major depth): the kernel itself when it is
    /// stored so, else a copy in `scratch`.
    ///
    /// # Safety
    /// The kernel holds its dims' elements of type `W`.
    unsafe fn kernel<W: Bits>(&self, transposed: bool) -> (Addr, Option<Scratch>) {
        let (c, g) = (self.c, self.g);
        let spatial = g.ksp.len();
        let unreversed = c.window.iter().all(|w| !w.reversal || w.size == 1);
        let in_place = if transposed {
            g.ko == 0 && g.ki == 1 && g.ksp.iter().enumerate().all(|(s, &d)| d == s + 2)
        } else {
            g.g == 1 && g.ki == spatial && g.ko == spatial + 1 && g.ksp.iter().enumerate().all(|(s, &d)| d == s)
        };
        if in_place && unreversed {
            return (self.kernel, None);
        }
        let Some(scratch) = Scratch::new(g.g * g.k * g.fg * c.kernel_bytes) else {
            return (self.kernel, None);
        };
        let dst = Addr::of(scratch.0);
        let (ks_i, ks_o) = (g.k_strides[g.ki], g.k_strides[g.ko]);
        for t in 0..g.taps {
            let base = g.kernel_tap_offset(c, t);
            for grp in 0..g.g {
                for z in 0..g.cg {
                    for j in 0..g.fg {
                        let src = base + z * ks_i + (grp * g.fg + j) * ks_o;
                        let at = if transposed {
                            (grp * g.fg + j) * g.k + z * g.taps + t
                        } else {
                            (grp * g.k + t * g.cg + z) * g.fg + j
                        };
                        // SAFETY: `src` is inside the kernel, `at` inside the scratch.
                        unsafe { *dst.at::<W>(at) = *self.kernel.at::<W>(src) };
                    }
                }
            }
        }
        (dst, Some(scratch))
    }

    /// Per image: the patches as `[G][K][S]`, one product into the output.
    ///
    /// # Safety
    /// As for [`Run::go`]; the output is NCHW.
    unsafe fn feature_rows<I: Bits, W: Bits>(&self, epilogue: Epilogue) {
        let (c, g) = (self.c, self.g);
        // SAFETY: the caller's contract.
        let (w, _kernel_copy) = unsafe { self.kernel::<W>(true) };
        let Some(patches) = Scratch::new(g.g * g.k * g.s * c.input_bytes) else { return };
        let p = Addr::of(patches.0);
        let spatial = g.out_sizes.len();
        let last = spatial - 1;
        let (o_last, w_last) = (g.out_sizes[last], g.win_sizes[last]);
        let in_last = g.in_strides[g.isp[last]];
        let (in_b, in_f) = (g.in_strides[g.ib], g.in_strides[g.if_]);
        for b in 0..g.batch {
            // One task per (group, input feature): its `taps` rows of S.
            let gather = |r0: i64, r1: i64| {
                let mut o = vec![0i64; spatial];
                for row in r0..r1 {
                    let (grp, z) = (row / g.cg, row % g.cg);
                    let feature = b * in_b + (grp * g.cg + z) * in_f;
                    for t in 0..g.taps {
                        let k_last = t % w_last;
                        let dst = p.at::<I>(((grp * g.k) + z * g.taps + t) * g.s);
                        let mut at = 0;
                        o.fill(0);
                        // Rows of the last spatial dimension, the others by odometer.
                        while at < g.s {
                            let outer = self.outer_offset(&o, t);
                            for ox in 0..o_last {
                                let i = g.tables[last][(ox * w_last + k_last) as usize];
                                let v = match outer {
                                    Some(off) if i >= 0 => {
                                        // SAFETY: a valid input coordinate.
                                        unsafe { *self.input.at::<I>(feature + off + i * in_last) }
                                    }
                                    _ => I::default(),
                                };
                                // SAFETY: inside this task's rows of the patches.
                                unsafe { *dst.wrapping_add((at + ox) as usize) = v };
                            }
                            at += o_last;
                            advance(&mut o[..last], &g.out_sizes[..last]);
                        }
                    }
                }
            };
            self.parallel(g.g * g.cg, (TASK_ELEMENTS / (g.taps * g.s)).max(1), &gather);
            let out = self.out.at::<u8>(b * g.f * g.s * c.out_bytes);
            // SAFETY: `[G][Fg][K] x [G][K][S] -> [G][Fg][S]`, the image's output.
            unsafe {
                (self.gemm)(
                    w.at::<u8>(0),
                    p.at::<u8>(0),
                    out,
                    g.g,
                    g.fg,
                    g.s,
                    g.k,
                    std::ptr::null(),
                    std::ptr::null_mut(),
                )
            };
            if matches!(c.epilogue, EpilogueView::PerImage { .. }) {
                self.image_epilogue(epilogue, b);
            }
        }
        if c.epilogue == EpilogueView::Rows {
            self.rows_epilogue(epilogue, 0, g.rows());
        }
    }

    /// Runs the epilogue over image `b` seen as `[F, S]`, in parallel blocks
    /// of features.
    fn image_epilogue(&self, epilogue: Epilogue, b: i64) {
        if let Some((f, ctx)) = epilogue {
            let g = self.g;
            // SAFETY: the caller's contract for the epilogue.
            self.parallel(g.f, (TASK_ELEMENTS / g.s).max(1), &|f0, f1| unsafe { f(ctx.at(0), b, f0, f1, 0, g.s) });
        }
    }

    /// Runs `f(begin, end)` over `[0, n)` on the thread pool, or on this
    /// thread for a small convolution.
    fn parallel(&self, n: i64, grain: i64, f: &(dyn Fn(i64, i64) + Sync)) {
        if self.serial {
            f(0, n);
        } else {
            on_pool(n, grain, f);
        }
    }

    /// Runs the epilogue over rows `[r0, r1)` of the `[rows, F]` view, in
    /// parallel blocks.
    fn rows_epilogue(&self, epilogue: Epilogue, r0: i64, r1: i64) {
        if let Some((f, ctx)) = epilogue {
            let grain = (TASK_ELEMENTS / self.g.f).max(1);
            // SAFETY: the caller's contract for the epilogue.
            self.parallel(r1 - r0, grain, &|a, e| unsafe { f(ctx.at(0), 0, r0 + a, r0 + e, 0, self.g.f) });
        }
    }

    /// The input offset of the spatial dimensions but the last for output
    /// coordinates `o` and tap `t`, or None in padding.
    fn outer_offset(&self, o: &[i64], mut t: i64) -> Option<i64> {
        let g = self.g;
        let last = g.win_sizes.len() - 1;
        t /= g.win_sizes[last];
        let mut off = 0;
        for s in (0..last).rev() {
            let size = g.win_sizes[s];
            let k = t % size;
            t /= size;
            let i = g.tables[s][(o[s] * size + k) as usize];
            if i < 0 {
                return None;
            }
            off += i * g.in_strides[g.isp[s]];
        }
        Some(off)
    }

    /// Blocks of output rows: the patches as `[G][R][K]`, one product each.
    ///
    /// # Safety
    /// As for [`Run::go`].
    unsafe fn pixel_rows<I: Bits, W: Bits>(&self, epilogue: Epilogue) {
        let (c, g) = (self.c, self.g);
        // SAFETY: the caller's contract.
        let (w, _kernel_copy) = unsafe { self.kernel::<W>(false) };
        let rows = g.rows();
        let block = (BLOCK_BYTES / (g.g * g.k * c.input_bytes)).clamp(16, rows.max(16)).min(rows);
        let Some(patches) = Scratch::new(g.g * block * g.k * c.input_bytes) else { return };
        let direct = g.g == 1 && g.out_features_minor();
        let product = if direct { None } else { Scratch::new(g.g * block * g.fg * c.out_bytes) };
        if !direct && product.is_none() {
            return;
        }
        let p = Addr::of(patches.0);
        let spatial = g.out_sizes.len();
        let (in_b, in_f) = (g.in_strides[g.ib], g.in_strides[g.if_]);
        let mut r0 = 0;
        while r0 < rows {
            let r1 = (r0 + block).min(rows);
            let n = r1 - r0;
            let gather = |a: i64, e: i64| {
                let (mut o, mut k) = (vec![0i64; spatial], vec![0i64; spatial]);
                let mut b = g.row_coords(r0 + a, &mut o);
                for r in r0 + a..r0 + e {
                    if r > r0 + a {
                        g.next_row(&mut b, &mut o);
                    }
                    g.taps_of(&o, &mut k, |t, off| {
                        let src = off.map(|v| v + b * in_b);
                        for grp in 0..g.g {
                            let dst = p.at::<I>((grp * n + (r - r0)) * g.k + t * g.cg);
                            let cg = g.cg as usize;
                            // SAFETY (all three): `dst` is this task's part of the
                            // patches; `src` a valid input position.
                            match src {
                                None => unsafe { std::ptr::write_bytes(dst, 0, cg) },
                                Some(s) if in_f == 1 => unsafe {
                                    std::ptr::copy_nonoverlapping(self.input.at::<I>(s + grp * g.cg), dst, cg)
                                },
                                Some(s) => {
                                    for z in 0..g.cg {
                                        unsafe {
                                            *dst.wrapping_add(z as usize) =
                                                *self.input.at::<I>(s + (grp * g.cg + z) * in_f)
                                        };
                                    }
                                }
                            }
                        }
                    });
                }
            };
            self.parallel(n, (TASK_ELEMENTS / (g.g * g.k)).max(1), &gather);
            let dst = match &product {
                None => self.out.at::<u8>(r0 * g.f * c.out_bytes),
                Some(s) => s.0,
            };
            // SAFETY: `[G][R][K] x [G][K][Fg] -> [G][R][Fg]`.
            unsafe {
                (self.gemm)(
                    p.at::<u8>(0),
                    w.at::<u8>(0),
                    dst,
                    g.g,
                    n,
                    g.fg,
                    g.k,
                    std::ptr::null(),
                    std::ptr::null_mut(),
                )
            };
            if let Some(s) = &product {
                // SAFETY: the product block and the output, both of out_bytes elements.
                unsafe { self.scatter(Addr::of(s.0), r0, r1) };
            }
            if c.epilogue == EpilogueView::Rows && g.out_features_minor() {
                self.rows_epilogue(epilogue, r0, r1);
            }
            r0 = r1;
        }
        if c.epilogue == EpilogueView::Rows && !g.out_features_minor() {
            self.rows_epilogue(epilogue, 0, rows);
        }
        if matches!(c.epilogue, EpilogueView::PerImage { .. }) {
            for b in 0..g.batch {
                self.image_epilogue(epilogue, b);
            }
        }
    }

    /// Moves the product of rows `[r0, r1)`, `[G][R][Fg]`, into the output.
    ///
    /// # Safety
    /// `product` holds the block; the output its dims' elements.
    unsafe fn scatter(&self, product: Addr, r0: i64, r1: i64) {
        let (c, g) = (self.c, self.g);
        let n = r1 - r0;
        let es = c.out_bytes;
        let move_rows = |a: i64, e: i64| {
            for r in r0 + a..r0 + e {
                let off = g.row_offset(c, r);
                for grp in 0..g.g {
                    for j in 0..g.fg {
                        let from = ((grp * n + (r - r0)) * g.fg + j) * es;
                        let to = (off + (grp * g.fg + j) * g.out_strides[g.of]) * es;
                        // SAFETY: one element inside the block and the output.
                        unsafe {
                            std::ptr::copy_nonoverlapping(product.at::<u8>(from), self.out.at::<u8>(to), es as usize)
                        };
                    }
                }
            }
        };
        self.parallel(n, (TASK_ELEMENTS / g.f).max(1), &move_rows);
    }
}

/// Steps the row-major odometer `o` over `sizes` (wrapping at the end).
fn advance(o: &mut [i64], sizes: &[i64]) {
    for d in (0..o.len()).rev() {
        o[d] += 1;
        if o[d] < sizes[d] {
            return;
        }
        o[d] = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::super::conv::{ConvSpec, conv};
    use super::*;
    use smelt_hlo::DType;

    /// A plain f32 product of the GEMM family's type.
    unsafe extern "C" fn naive_gemm(
        a: *const u8,
        b: *const u8,
        c: *mut u8,
        batch: i64,
        m: i64,
        n: i64,
        k: i64,
        _: *const c_void,
        _: *mut c_void,
    ) {
        let (a, b, c) = (a.cast::<f32>(), b.cast::<f32>(), c.cast::<f32>());
        for x in 0..batch {
            for i in 0..m {
                for j in 0..n {
                    let mut s = 0f32;
                    for p in 0..k {
                        // SAFETY: dense operands of the product's shape.
                        s += unsafe {
                            *a.offset(((x * m + i) * k + p) as isize) * *b.offset(((x * k + p) * n + j) as isize)
                        };
                    }
                    // SAFETY: as above.
                    unsafe { *c.offset(((x * m + i) * n + j) as isize) = s };
                }
            }
        }
    }

    /// Counts the epilogue's calls and the elements they cover.
    unsafe extern "C" fn count_epilogue(ctx: *mut c_void, _: i64, i0: i64, i1: i64, j0: i64, j1: i64) {
        // SAFETY: the test passes an AtomicI64.
        let seen = unsafe { &*(ctx as *const std::sync::atomic::AtomicI64) };
        seen.fetch_add((i1 - i0) * (j1 - j0), std::sync::atomic::Ordering::Relaxed);
    }

    struct Lcg(u64);
    impl Lcg {
        fn below(&mut self, n: i64) -> i64 {
            self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((self.0 >> 33) % n as u64) as i64
        }
        fn perm(&mut self, n: usize) -> Vec<usize> {
            let mut v: Vec<usize> = (0..n).collect();
            for i in (1..n).rev() {
                v.swap(i, self.below(i as i64 + 1) as usize);
            }
            v
        }
    }

    /// A random valid f32 convolution: dims, labels (any order), window,
    /// groups; `nchw` fixes the output as `[B, F, spatial...]`.
    fn random_case(r: &mut Lcg, nchw: bool) -> (ConvGemm, Vec<f32>, Vec<f32>) {
        let spatial = 1 + r.below(2) as usize;
        let rank = spatial + 2;
        let g = [1, 1, 2, 3][r.below(4) as usize];
        let (batch, cg, fg) = (1 + r.below(2), 1 + r.below(3), 1 + r.below(3));
        let window: Vec<ConvWindow> = (0..spatial)
            .map(|_| ConvWindow {
                size: 1 + r.below(3),
                stride: 1 + r.below(2),
                pad_low: r.below(3) - 1,
                window_dilation: 1 + r.below(2),
                base_dilation: 1 + r.below(2),
                reversal: r.below(3) == 0,
            })
            .collect();
        let in_sizes: Vec<i64> = (0..spatial).map(|_| 3 + r.below(4)).collect();
        let pad_high: Vec<i64> = (0..spatial).map(|_| r.below(3)).collect();
        let out_sizes: Vec<i64> = (0..spatial)
            .map(|s| {
                let w = &window[s];
                let span = (in_sizes[s] - 1) * w.base_dilation + 1 + w.pad_low + pad_high[s];
                ((span - ((w.size - 1) * w.window_dilation + 1)) / w.stride + 1).max(1)
            })
            .collect();
        let (ip, kp) = (r.perm(rank), r.perm(rank));
        let op = if nchw { (0..rank).collect() } else { r.perm(rank) };
        let mut input_dims = vec![0; rank];
        let mut kernel_dims = vec![0; rank];
        let mut output_dims = vec![0; rank];
        input_dims[ip[0]] = batch;
        input_dims[ip[1]] = g * cg;
        kernel_dims[kp[0]] = cg;
        kernel_dims[kp[1]] = g * fg;
        output_dims[op[0]] = batch;
        output_dims[op[1]] = g * fg;
        for s in 0..spatial {
            input_dims[ip[s + 2]] = in_sizes[s];
            kernel_dims[kp[s + 2]] = window[s].size;
            output_dims[op[s + 2]] = out_sizes[s];
        }
        let dims = ConvDims {
            input_batch: ip[0] as i64,
            input_feature: ip[1] as i64,
            input_spatial: ip[2..].iter().map(|&d| d as i64).collect(),
            kernel_input_feature: kp[0] as i64,
            kernel_output_feature: kp[1] as i64,
            kernel_spatial: kp[2..].iter().map(|&d| d as i64).collect(),
            output_batch: op[0] as i64,
            output_feature: op[1] as i64,
            output_spatial: op[2..].iter().map(|&d| d as i64).collect(),
        };
        let c = ConvGemm::new([4, 4, 4], &input_dims, &kernel_dims, &output_dims, &dims, window, g, 1)
            .unwrap_or_else(|e| panic!("{e}"));
        let fill = |n: i64, r: &mut Lcg| (0..n).map(|_| (r.below(17) - 8) as f32 / 4.0).collect::<Vec<f32>>();
        let x = fill(input_dims.iter().product(), r);
        let w = fill(kernel_dims.iter().product(), r);
        (c, x, w)
    }

    fn reference(c: &ConvGemm, x: &[f32], w: &[f32]) -> Vec<f32> {
        let spec = ConvSpec {
            input_dims: &c.input_dims,
            kernel_dims: &c.kernel_dims,
            output_dims: &c.output_dims,
            dims: &c.dims,
            window: c.window.clone(),
            feature_group_count: c.feature_group_count,
            batch_group_count: 1,
        };
        let mut out = vec![0f32; c.output_dims.iter().product::<i64>() as usize];
        // SAFETY: dense f32 buffers of the spec's dims.
        unsafe {
            conv(
                &spec,
                (x.as_ptr().cast(), DType::F32),
                (w.as_ptr().cast(), DType::F32),
                (out.as_mut_ptr().cast(), DType::F32),
            )
        }
        .unwrap_or_else(|e| panic!("{e}"));
        out
    }

    #[test]
    fn any_layout_window_and_groups_match_the_reference() {
        let mut r = Lcg(7);
        // NCHW outputs by form: feature rows, pixel rows (past IMAGE_BYTES).
        let mut forms = [0, 0];
        for case in 0..400 {
            let (c, x, w) = random_case(&mut r, case % 3 == 0);
            let want = reference(&c, &x, &w);
            let mut got = vec![f32::NAN; want.len()];
            let g = c.geometry().unwrap_or_else(|e| panic!("{e}"));
            if g.out_nchw() {
                forms[usize::from(!g.feature_rows_form(4))] += 1;
            }
            let view = match case % 5 {
                0 => EpilogueView::Rows,
                _ if g.out_nchw() => EpilogueView::PerImage { features: g.f, spatial: g.s },
                _ => EpilogueView::Rows,
            };
            let float = (case % 2 == 1).then_some(Float::F32);
            let c = c.with_epilogue(view).and_then(|c| c.with_float(float)).unwrap_or_else(|e| panic!("{e}"));
            let desc = c.encode();
            assert_eq!(ConvGemm::decode(&desc).as_ref(), Some(&c));
            let seen = std::sync::atomic::AtomicI64::new(0);
            // SAFETY: dense f32 buffers of the descriptor's dims; an f32 product.
            unsafe {
                smelt_conv_gemm(
                    desc.as_ptr(),
                    x.as_ptr().cast(),
                    w.as_ptr().cast(),
                    got.as_mut_ptr().cast(),
                    Some(count_epilogue),
                    &seen as *const _ as *mut c_void,
                    naive_gemm,
                )
            };
            assert_eq!(got, want, "case {case}: {c:?}");
            let covered = seen.load(std::sync::atomic::Ordering::Relaxed);
            assert_eq!(covered, want.len() as i64, "case {case}: every element once");
        }
        assert!(forms[0] > 0 && forms[1] > 0, "NCHW cases by form: {forms:?}");
    }

    #[test]
    fn bad_descriptors_do_not_decode() {
        let mut r = Lcg(3);
        let (c, _, _) = random_case(&mut r, false);
        let desc = c.encode();
        assert!(ConvGemm::decode(&desc[..desc.len() - 1]).is_none());
        let mut wrong = desc.clone();
        wrong[9] += 1; // an input dim that no longer matches the kernel
        assert!(ConvGemm::decode(&wrong).is_none() || ConvGemm::decode(&wrong) != Some(c));
        let batch_groups = ConvGemm::new([4, 4, 4], &[2, 2], &[2, 2], &[1, 2], &ConvDims::default(), vec![], 1, 2);
        assert!(batch_groups.is_err());
    }
}
