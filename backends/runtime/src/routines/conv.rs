//! Convolutions with XLA's general dimension numbers.
//!
//! Float convolutions without batch groups run as patches times kernels: for
//! each feature group, the input windows are gathered into a `[batch * output
//! positions, kernel positions * group features]` matrix (zeros where a window
//! position is padding or a dilation hole) and multiplied by the group's kernel
//! on the `gemm` crate. Integer convolutions and batch-grouped ones (kernel
//! gradients of depthwise convolutions) sum directly in the kernel form's
//! order: kernel positions in row-major order, then the group's features.

use smelt_hlo::DType;
use smelt_hlo::attrs::ConvDims;

use super::RoutineError;
use super::dot::{DotShape, dot};
use super::elements::{Acc, AccKind};

/// One spatial dimension of a convolution's window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConvWindow {
    pub size: i64,
    pub stride: i64,
    pub pad_low: i64,
    pub window_dilation: i64,
    pub base_dilation: i64,
    pub reversal: bool,
}

/// A convolution's operands and attributes.
#[derive(Clone, Debug)]
pub struct ConvSpec<'a> {
    pub input_dims: &'a [i64],
    pub kernel_dims: &'a [i64],
    pub output_dims: &'a [i64],
    pub dims: &'a ConvDims,
    pub window: Vec<ConvWindow>,
    pub feature_group_count: i64,
    pub batch_group_count: i64,
}

/// A convolution's dimension numbers as indices into operands of rank
/// `spatial + 2`.
pub(super) struct Labels {
    pub ib: usize,
    pub if_: usize,
    pub isp: Vec<usize>,
    pub ki: usize,
    pub ko: usize,
    pub ksp: Vec<usize>,
    pub ob: usize,
    pub of: usize,
    pub osp: Vec<usize>,
}

/// `dn` checked: every index within the rank, `spatial` of each kind.
pub(super) fn labels(dn: &ConvDims, spatial: usize) -> Result<Labels, RoutineError> {
    let rank = spatial + 2;
    let idx = |v: i64| usize::try_from(v).ok().filter(|&v| v < rank);
    let pick = |v: &[i64]| -> Option<Vec<usize>> { v.iter().map(|&x| idx(x)).collect() };
    let (Some(ib), Some(if_), Some(isp)) = (idx(dn.input_batch), idx(dn.input_feature), pick(&dn.input_spatial)) else {
        return err("input dimension numbers out of range");
    };
    let (Some(ki), Some(ko), Some(ksp)) =
        (idx(dn.kernel_input_feature), idx(dn.kernel_output_feature), pick(&dn.kernel_spatial))
    else {
        return err("kernel dimension numbers out of range");
    };
    let (Some(ob), Some(of), Some(osp)) = (idx(dn.output_batch), idx(dn.output_feature), pick(&dn.output_spatial))
    else {
        return err("output dimension numbers out of range");
    };
    if isp.len() != spatial || ksp.len() != spatial || osp.len() != spatial {
        return err("dimension numbers do not match the spatial dimensions");
    }
    Ok(Labels { ib, if_, isp, ki, ko, ksp, ob, of, osp })
}

/// The input coordinate that output position `o` reads through window
/// position `k` of `w` in a dimension of `in_size`, or None where it falls in
/// padding or a hole of the base dilation.
pub fn window_input(o: i64, k: i64, w: &ConvWindow, in_size: i64) -> Option<i64> {
    let p = o * w.stride - w.pad_low + k * w.window_dilation;
    (p >= 0 && p % w.base_dilation == 0 && p / w.base_dilation < in_size).then(|| p / w.base_dilation)
}

fn err<T>(m: &str) -> Result<T, RoutineError> {
    Err(RoutineError(format!("convolution: {m}")))
}

fn strides(d: &[usize]) -> Vec<usize> {
    let mut s = vec![1usize; d.len()];
    for i in (0..d.len().saturating_sub(1)).rev() {
        s[i] = s[i + 1] * d[i + 1];
    }
    s
}

/// Row-major multi-indices of `dims`, flattened.
fn indices(dims: &[usize]) -> Vec<Vec<usize>> {
    let total: usize = dims.iter().product();
    let mut out = Vec::with_capacity(total);
    let mut ix = vec![0usize; dims.len()];
    for _ in 0..total {
        out.push(ix.clone());
        for d in (0..dims.len()).rev() {
            ix[d] += 1;
            if ix[d] < dims[d] {
                break;
            }
            ix[d] = 0;
        }
    }
    out
}

/// The checked geometry of a convolution.
struct Geometry {
    ld: Vec<usize>,
    rd: Vec<usize>,
    od: Vec<usize>,
    ib: usize,
    if_: usize,
    isp: Vec<usize>,
    ki: usize,
    ko: usize,
    ksp: Vec<usize>,
    ob: usize,
    of: usize,
    osp: Vec<usize>,
    g: usize,
    bg: usize,
}

impl Geometry {
    fn new(c: &ConvSpec<'_>) -> Result<Geometry, RoutineError> {
        let dn = c.dims;
        let spatial = dn.input_spatial.len();
        let rank = spatial + 2;
        let to = |d: &[i64]| -> Vec<usize> { d.iter().map(|&x| x.max(0) as usize).collect() };
        let (ld, rd, od) = (to(c.input_dims), to(c.kernel_dims), to(c.output_dims));
        let Labels { ib, if_, isp, ki, ko, ksp, ob, of, osp } = labels(dn, spatial)?;
        if ld.len() != rank || rd.len() != rank || od.len() != rank {
            return err("operand ranks do not match the dimension numbers");
        }
        if c.window.len() != spatial {
            return err("window does not match the spatial dimensions");
        }
        let (g, bg) = (c.feature_group_count.max(1) as usize, c.batch_group_count.max(1) as usize);
        let (in_features, out_features) = (ld[if_], rd[ko]);
        if in_features % g != 0 || rd[ki] * g != in_features || out_features % g != 0 || out_features % bg != 0 {
            return err("features do not split into the groups");
        }
        if ld[ib] % bg != 0 || od[ob] * bg != ld[ib] || od[of] != out_features {
            return err("batch does not split into the batch groups");
        }
        for (s, w) in c.window.iter().enumerate() {
            if w.stride < 1 || w.window_dilation < 1 || w.base_dilation < 1 || w.size != rd[ksp[s]] as i64 {
                return err("bad window");
            }
        }
        Ok(Geometry { ld, rd, od, ib, if_, isp, ki, ko, ksp, ob, of, osp, g, bg })
    }

    /// For every output position and kernel position (row-major, output
    /// position major): the input's spatial offset, or None in padding.
    fn taps(&self, c: &ConvSpec<'_>) -> (Vec<Vec<usize>>, Vec<Vec<usize>>, Vec<Option<usize>>) {
        let ls = strides(&self.ld);
        let opos = indices(&self.osp.iter().map(|&d| self.od[d]).collect::<Vec<_>>());
        let kpos = indices(&self.ksp.iter().map(|&d| self.rd[d]).collect::<Vec<_>>());
        let mut taps = Vec::with_capacity(opos.len() * kpos.len());
        for o in &opos {
            for k in &kpos {
                let mut off = Some(0usize);
                for (s, w) in c.window.iter().enumerate() {
                    let Some(i) = window_input(o[s] as i64, k[s] as i64, w, self.ld[self.isp[s]] as i64) else {
                        off = None;
                        break;
                    };
                    off = off.map(|v| v + i as usize * ls[self.isp[s]]);
                }
                taps.push(off);
            }
        }
        (opos, kpos, taps)
    }

    /// Both operands as accumulators, and the taps.
    ///
    /// # Safety
    /// As for [`conv`].
    unsafe fn operands<A: Acc>(
        &self,
        c: &ConvSpec<'_>,
        input: (*const u8, DType),
        kernel: (*const u8, DType),
    ) -> (Vec<A>, Vec<A>, Vec<Vec<usize>>, Vec<Vec<usize>>, Vec<Option<usize>>) {
        // SAFETY: the caller's contract.
        let (l, r) = unsafe {
            (A::read(input.1, input.0, self.ld.iter().product()), A::read(kernel.1, kernel.0, self.rd.iter().product()))
        };
        let (opos, kpos, taps) = self.taps(c);
        (l, r, opos, kpos, taps)
    }

    /// Offset into the kernel of kernel position `k` (reversal applied).
    fn kernel_offset(&self, c: &ConvSpec<'_>, k: &[usize]) -> usize {
        let rs = strides(&self.rd);
        c.window
            .iter()
            .enumerate()
            .map(|(s, w)| {
                let i = if w.reversal { w.size as usize - 1 - k[s] } else { k[s] };
                i * rs[self.ksp[s]]
            })
            .sum()
    }
}

/// `out = conv(input, kernel)`.
///
/// # Safety
/// Each pointer refers to a dense buffer of its type and its dims in `c`;
/// `out` does not overlap the operands.
pub unsafe fn conv(
    c: &ConvSpec<'_>,
    input: (*const u8, DType),
    kernel: (*const u8, DType),
    out: (*mut u8, DType),
) -> Result<(), RoutineError> {
    let geo = Geometry::new(c)?;
    // SAFETY (below): the caller's contract.
    unsafe {
        match AccKind::of(out.1) {
            AccKind::F32 if geo.bg == 1 => patches::<f32>(c, &geo, input, kernel, out),
            AccKind::F64 if geo.bg == 1 => patches::<f64>(c, &geo, input, kernel, out),
            AccKind::F32 => direct::<f32>(c, &geo, input, kernel, out),
            AccKind::F64 => direct::<f64>(c, &geo, input, kernel, out),
            AccKind::I64 => direct::<i64>(c, &geo, input, kernel, out),
        }
    }
}

/// Float type tags for the `gemm`-backed product.
trait FloatAcc: Acc {
    const DTYPE: DType;
}
impl FloatAcc for f32 {
    const DTYPE: DType = DType::F32;
}
impl FloatAcc for f64 {
    const DTYPE: DType = DType::F64;
}

/// # Safety
/// As for [`conv`].
unsafe fn patches<A: FloatAcc>(
    c: &ConvSpec<'_>,
    geo: &Geometry,
    input: (*const u8, DType),
    kernel: (*const u8, DType),
    out: (*mut u8, DType),
) -> Result<(), RoutineError> {
    let (ls, rs, os) = (strides(&geo.ld), strides(&geo.rd), strides(&geo.od));
    let out_len: usize = geo.od.iter().product();
    if out_len == 0 {
        return Ok(());
    }
    // SAFETY: the caller's contract.
    let (l, r, opos, kpos, taps) = unsafe { geo.operands::<A>(c, input, kernel) };
    let (batch, p, kn) = (geo.ld[geo.ib], opos.len(), kpos.len());
    let cg = geo.rd[geo.ki];
    let og = geo.rd[geo.ko] / geo.g;
    let (rows, cols) = (batch * p, kn * cg);
    let koffs: Vec<usize> = kpos.iter().map(|k| geo.kernel_offset(c, k)).collect();
    let ooffs: Vec<usize> = opos.iter().map(|o| o.iter().zip(&geo.osp).map(|(&i, &d)| i * os[d]).sum()).collect();
    let mut a = vec![A::ZERO; rows * cols];
    let mut b = vec![A::ZERO; cols * og];
    let mut prod = vec![A::ZERO; rows * og];
    let mut result = vec![A::ZERO; out_len];
    for grp in 0..geo.g {
        for n in 0..batch {
            for pi in 0..p {
                let row = &mut a[(n * p + pi) * cols..(n * p + pi + 1) * cols];
                for (ki, tap) in taps[pi * kn..(pi + 1) * kn].iter().enumerate() {
                    let dst = &mut row[ki * cg..(ki + 1) * cg];
                    match tap {
                        Some(off) => {
                            let base = n * ls[geo.ib] + off + grp * cg * ls[geo.if_];
                            for (z, d) in dst.iter_mut().enumerate() {
                                *d = l[base + z * ls[geo.if_]];
                            }
                        }
                        None => dst.fill(A::ZERO),
                    }
                }
            }
        }
        for (ki, &koff) in koffs.iter().enumerate() {
            for z in 0..cg {
                for j in 0..og {
                    b[(ki * cg + z) * og + j] = r[koff + z * rs[geo.ki] + (grp * og + j) * rs[geo.ko]];
                }
            }
        }
        let shape = DotShape { batch: 1, m: rows, n: og, k: cols, lhs_transposed: false, rhs_transposed: false };
        // SAFETY: the three buffers have the shape's sizes and type `A`.
        unsafe {
            dot(
                &shape,
                (a.as_ptr().cast(), A::DTYPE),
                (b.as_ptr().cast(), A::DTYPE),
                (prod.as_mut_ptr().cast(), A::DTYPE),
            )?;
        }
        for n in 0..batch {
            for (pi, &ooff) in ooffs.iter().enumerate() {
                for j in 0..og {
                    result[n * os[geo.ob] + (grp * og + j) * os[geo.of] + ooff] = prod[(n * p + pi) * og + j];
                }
            }
        }
    }
    // SAFETY: `out` holds `out_len` elements of its type.
    unsafe { A::write(&result, out.1, out.0) };
    Ok(())
}

/// # Safety
/// As for [`conv`].
unsafe fn direct<A: Acc>(
    c: &ConvSpec<'_>,
    geo: &Geometry,
    input: (*const u8, DType),
    kernel: (*const u8, DType),
    out: (*mut u8, DType),
) -> Result<(), RoutineError> {
    let (ls, rs) = (strides(&geo.ld), strides(&geo.rd));
    // SAFETY: the caller's contract.
    let (l, r, opos, kpos, taps) = unsafe { geo.operands::<A>(c, input, kernel) };
    let koffs: Vec<usize> = kpos.iter().map(|k| geo.kernel_offset(c, k)).collect();
    let in_group = geo.ld[geo.if_] / geo.g;
    let out_features = geo.rd[geo.ko];
    let out_group = (out_features / geo.g).max(1);
    let depth_mult = (out_features / geo.bg).max(1);
    let batch_group_size = geo.ld[geo.ib] / geo.bg;
    let kn = kpos.len();
    let pstrides = strides(&geo.osp.iter().map(|&d| geo.od[d]).collect::<Vec<_>>());
    debug_assert_eq!(opos.len(), geo.osp.iter().map(|&d| geo.od[d]).product::<usize>());
    let mut result = Vec::with_capacity(geo.od.iter().product());
    for o in indices(&geo.od) {
        let (obi, ofi) = (o[geo.ob], o[geo.of]);
        let (fg, bgi) = (ofi / out_group, ofi / depth_mult);
        let batch = obi + bgi * batch_group_size;
        let pi: usize = geo.osp.iter().zip(&pstrides).map(|(&d, &st)| o[d] * st).sum();
        let mut acc = A::ZERO;
        for (ki, tap) in taps[pi * kn..(pi + 1) * kn].iter().enumerate() {
            let Some(off) = tap else { continue };
            let loff = batch * ls[geo.ib] + off;
            let roff = ofi * rs[geo.ko] + koffs[ki];
            for z in 0..in_group {
                acc = acc.mul_add(l[loff + (fg * in_group + z) * ls[geo.if_]], r[roff + z * rs[geo.ki]]);
            }
        }
        result.push(acc);
    }
    // SAFETY: `out` holds every output element of its type.
    unsafe { A::write(&result, out.1, out.0) };
    Ok(())
}
