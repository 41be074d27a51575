//! Stand-ins for the pieces other work replaces: GEMM and convolution.
//!
//! Each stand-in sits behind one function so swapping in the real one is a
//! one-place change:
//!
//! - [`gemm_function`]: `void gemm(a, b, c, i64 batch, i64 m, i64 n, i64 k,
//!   epilogue, epilogue_ctx)`, here a straightforward loop nest, parallel over
//!   output rows, that calls the epilogue once per finished row; `gemm.rs`
//!   replaces it with a blocked, packed kernel of the same ABI.
//! - [`conv_function`]: a convolution as a kernel-ABI function (`void(ptr bufs,
//!   i64 begin, i64 end)` over the output's first dimension), a direct loop nest
//!   in the interpreter's accumulation order; `conv.rs` replaces it.

use inkwell::IntPredicate;
use inkwell::module::Linkage;
use inkwell::values::{BasicValueEnum, FunctionValue, IntValue, PointerValue};
use smelt_hlo::DType;
use smelt_kernel::{ConvStep, DotStep};

use crate::codegen::Cg;
use crate::error::{CpuError, Result, invalid};

/// The accumulator type of a dot or convolution producing `out` (as the
/// interpreter's `AccKind`): f64 for f64, f32 for other floats, s64 for the rest.
pub(crate) fn acc_type(out: DType) -> DType {
    match out {
        DType::F64 => DType::F64,
        d if d.is_float() => DType::F32,
        _ => DType::S64,
    }
}

/// A GEMM function for `step`'s element types and transposes, with the ABI of
/// `gemm.rs`: `void(ptr a, ptr b, ptr c, i64 batch, i64 m, i64 n, i64 k, ptr
/// epilogue, ptr epilogue_ctx)`, where a non-null `epilogue(ctx, i64 b, i64 i0,
/// i64 i1, i64 j0, i64 j1)` runs on each finished block of `c`.
///
/// Stand-in: output rows in parallel (`smelt_parallel_for` over `batch * m`
/// rows), each element summed over `k` in order, as the interpreter does; when
/// the output accumulates in its own type and `b` is not transposed, each row
/// of `b` streams through the output row (vectorized), else a dot product per
/// element.
pub(crate) fn gemm_function<'ctx>(cg: &mut Cg<'ctx, '_>, step: &DotStep) -> Result<FunctionValue<'ctx>> {
    let (ta, tb, tc) = (step.lhs.ty.dtype, step.rhs.ty.dtype, step.out.ty.dtype);
    let name = format!(
        "smelt.gemm.{}.{}.{}.{}{}",
        ta.name(),
        tb.name(),
        tc.name(),
        if step.lhs_transposed { "t" } else { "n" },
        if step.rhs_transposed { "t" } else { "n" }
    );
    if let Some(f) = cg.helper(&name) {
        return Ok(f);
    }
    let t = cg.t;
    // The row task: `void(ptr args, i64 begin, i64 end)` over rows of `batch * m`;
    // args = {a, b, c, batch, m, n, k, epilogue, ctx} as pointers and i64s.
    let task_ty = t.void.fn_type(&[t.ptr.into(), t.i64.into(), t.i64.into()], false);
    let task = cg.module.add_function(&format!("{name}.rows"), task_ty, Some(Linkage::Internal));
    cg.stamp(task);
    cg.begin_fn(task);
    {
        let args = param_ptr(task, 0)?;
        let begin = param_int(task, 1)?;
        let end = param_int(task, 2)?;
        let a = cg.load_ptr(args, 0)?;
        let bm = cg.load_ptr(args, 1)?;
        let c = cg.load_ptr(args, 2)?;
        let m = load_i64(cg, args, 4)?;
        let n = load_i64(cg, args, 5)?;
        let k = load_i64(cg, args, 6)?;
        let epi = cg.load_ptr(args, 7)?;
        let ctx = cg.load_ptr(args, 8)?;
        let acc_t = acc_type(tc);
        let rows = cg.loop_begin(begin, end, 1, "row")?;
        let row = rows.index;
        let bi = cg.b.build_int_signed_div(row, m, "")?;
        let i = cg.b.build_int_signed_rem(row, m, "")?;
        let mk = cg.b.build_int_mul(m, k, "")?;
        let kn = cg.b.build_int_mul(k, n, "")?;
        let a_base = cg.b.build_int_mul(bi, mk, "")?;
        let b_base = cg.b.build_int_mul(bi, kn, "")?;
        let c_row = cg.b.build_int_mul(row, n, "")?;
        // a: [b, m, k] or [b, k, m]; b: [b, k, n] or [b, n, k].
        let a_at = |cg: &Cg<'ctx, '_>, kk: IntValue<'ctx>| -> Result<IntValue<'ctx>> {
            let o = if step.lhs_transposed { mad(cg, kk, m, i)? } else { mad(cg, i, k, kk)? };
            Ok(cg.b.build_int_add(a_base, o, "")?)
        };
        let b_at = |cg: &Cg<'ctx, '_>, kk: IntValue<'ctx>, j: IntValue<'ctx>| -> Result<IntValue<'ctx>> {
            let o = if step.rhs_transposed { mad(cg, j, k, kk)? } else { mad(cg, kk, n, j)? };
            Ok(cg.b.build_int_add(b_base, o, "")?)
        };
        let mul_add = |cg: &mut Cg<'ctx, '_>, acc: BasicValueEnum<'ctx>, kk: IntValue<'ctx>, j: IntValue<'ctx>| {
            let av = cg.load_elem(a, ta, a_at(cg, kk)?)?;
            let bv = cg.load_elem(bm, tb, b_at(cg, kk, j)?)?;
            let av = cg.convert(av, ta, acc_t)?;
            let bv = cg.convert(bv, tb, acc_t)?;
            let p = cg.binary(smelt_kernel::BinaryOp::Mul, acc_t, av, bv, false)?;
            cg.binary(smelt_kernel::BinaryOp::Add, acc_t, acc, p, false)
        };
        if !step.rhs_transposed && acc_t == tc {
            // Rows of b stream through the output row, which accumulates in
            // place (each element still sums over k in order).
            let zl = cg.loop_begin(cg.i64c(0), n, 1, "zero")?;
            let zero = cg.reg_type(tc).const_zero();
            cg.store_elem(c, tc, cg.b.build_int_add(c_row, zl.index, "")?, zero)?;
            cg.loop_end(zl)?;
            let ks = cg.loop_begin(cg.i64c(0), k, 1, "k")?;
            let cols = cg.loop_begin(cg.i64c(0), n, 1, "col")?;
            let c_off = cg.b.build_int_add(c_row, cols.index, "")?;
            let cur = cg.load_elem(c, tc, c_off)?;
            let s = mul_add(cg, cur, ks.index, cols.index)?;
            cg.store_elem(c, tc, c_off, s)?;
            cg.loop_end(cols)?;
            cg.loop_end(ks)?;
        } else {
            let cols = cg.loop_begin(cg.i64c(0), n, 1, "col")?;
            let acc = cg.alloca(cg.reg_type(acc_t), "acc")?;
            cg.b.build_store(acc, cg.reg_type(acc_t).const_zero())?;
            let ks = cg.loop_begin(cg.i64c(0), k, 1, "k")?;
            let cur = cg.b.build_load(cg.reg_type(acc_t), acc, "")?;
            let s = mul_add(cg, cur, ks.index, cols.index)?;
            cg.b.build_store(acc, s)?;
            cg.loop_end(ks)?;
            let total = cg.b.build_load(cg.reg_type(acc_t), acc, "")?;
            let out = cg.convert(total, acc_t, tc)?;
            cg.store_elem(c, tc, cg.b.build_int_add(c_row, cols.index, "")?, out)?;
            cg.loop_end(cols)?;
        }
        // The row is finished: run the epilogue on it.
        let has_epi = cg.b.build_is_not_null(epi, "")?;
        let join = cg.if_begin(has_epi, "epi")?;
        let i1 = cg.b.build_int_add(i, cg.i64c(1), "")?;
        let epi_ty = t
            .void
            .fn_type(&[t.ptr.into(), t.i64.into(), t.i64.into(), t.i64.into(), t.i64.into(), t.i64.into()], false);
        cg.b.build_indirect_call(
            epi_ty,
            epi,
            &[ctx.into(), bi.into(), i.into(), i1.into(), cg.i64c(0).into(), n.into()],
            "",
        )?;
        cg.if_end(join)?;
        cg.loop_end(rows)?;
        cg.b.build_return(None)?;
    }
    cg.end_fn()?;

    let fty = t.void.fn_type(
        &[
            t.ptr.into(),
            t.ptr.into(),
            t.ptr.into(),
            t.i64.into(),
            t.i64.into(),
            t.i64.into(),
            t.i64.into(),
            t.ptr.into(),
            t.ptr.into(),
        ],
        false,
    );
    let f = cg.module.add_function(&name, fty, Some(Linkage::Internal));
    cg.stamp(f);
    cg.set_helper(&name, f);
    cg.begin_fn(f);
    let args = cg.alloca_array(t.ptr, 9, "gemm.args")?;
    for i in 0..9u32 {
        let v = f.get_nth_param(i).ok_or_else(|| CpuError::Llvm("missing parameter".into()))?;
        // SAFETY: `args` has 9 slots.
        let slot = unsafe { cg.b.build_in_bounds_gep(t.ptr, args, &[t.i64.const_int(i as u64, false)], "")? };
        cg.b.build_store(slot, v)?;
    }
    let batch = param_int(f, 3)?;
    let m = param_int(f, 4)?;
    let n = param_int(f, 5)?;
    let k = param_int(f, 6)?;
    let rows = cg.b.build_int_mul(batch, m, "")?;
    // Grain: about 64K multiply-adds per task.
    let work = cg.b.build_int_mul(n, k, "")?;
    let work = cg.b.build_int_add(work, cg.i64c(1), "")?;
    let grain = cg.b.build_int_signed_div(cg.i64c(1 << 16), work, "")?;
    let grain = cg.b.build_int_add(grain, cg.i64c(1), "")?;
    cg.launch_dynamic(task, args, rows, grain)?;
    cg.b.build_return(None)?;
    cg.end_fn()?;
    Ok(f)
}

/// A convolution function for `step` with the kernel ABI `void(ptr bufs, i64
/// begin, i64 end)`: `bufs` = {input, kernel, out}; `[begin, end)` ranges over
/// the output's first dimension of extent other than 1.
///
/// Stand-in: for every output element, the taps (kernel spatial positions in
/// row-major order) that land inside the input, then the input features of the
/// group, accumulated in the accumulator type, as the interpreter does.
pub(crate) fn conv_function<'ctx>(cg: &mut Cg<'ctx, '_>, step: &ConvStep, id: usize) -> Result<FunctionValue<'ctx>> {
    let g = ConvGeom::new(step)?;
    let t = cg.t;
    let name = format!("conv_{id}");
    let fty = t.void.fn_type(&[t.ptr.into(), t.i64.into(), t.i64.into()], false);
    let f = cg.module.add_function(&name, fty, Some(Linkage::Internal));
    cg.stamp(f);
    cg.begin_fn(f);
    let bufs = param_ptr(f, 0)?;
    let begin = param_int(f, 1)?;
    let end = param_int(f, 2)?;
    let lhs = cg.load_ptr(bufs, 0)?;
    let rhs = cg.load_ptr(bufs, 1)?;
    let out = cg.load_ptr(bufs, 2)?;
    let (tl, tr, to) = (step.input.ty.dtype, step.kernel.ty.dtype, step.out.ty.dtype);
    let acc_t = acc_type(to);
    let rank = g.out_dims.len();
    // Output loops: the first non-unit dimension over [begin, end), the rest fully.
    let par = crate::codegen::par_dim(&g.out_dims);
    let mut loops = Vec::with_capacity(rank);
    let mut idx: Vec<IntValue<'ctx>> = Vec::with_capacity(rank);
    for d in 0..rank {
        if d < par {
            idx.push(cg.i64c(0));
            continue;
        }
        let (lo, hi) = if d == par { (begin, end) } else { (cg.i64c(0), cg.i64c(g.out_dims[d])) };
        let l = cg.loop_begin(lo, hi, 1, &format!("o{d}"))?;
        idx.push(l.index);
        loops.push(l);
    }
    let oz = idx[g.out_feature];
    // Feature group and batch group of this output feature.
    let fg = cg.b.build_int_signed_div(oz, cg.i64c(g.out_group), "")?;
    let bg = cg.b.build_int_signed_div(oz, cg.i64c(g.depthwise_multiplier), "")?;
    let bshift = cg.b.build_int_mul(bg, cg.i64c(g.batch_group_size), "")?;
    let bshift = cg.b.build_int_signed_rem(bshift, cg.i64c(g.in_batch_size.max(1)), "")?;
    let batch = cg.b.build_int_add(idx[g.out_batch], bshift, "")?;
    let lhs_base = cg.b.build_int_mul(batch, cg.i64c(g.lhs_strides[g.in_batch]), "")?;
    let f0 = cg.b.build_int_mul(fg, cg.i64c(g.in_group * g.lhs_strides[g.in_feature]), "")?;
    let lhs_base = cg.b.build_int_add(lhs_base, f0, "")?;
    let rhs_base = cg.b.build_int_mul(oz, cg.i64c(g.rhs_strides[g.k_out]), "")?;
    let acc = cg.alloca(cg.reg_type(acc_t), "acc")?;
    cg.b.build_store(acc, cg.reg_type(acc_t).const_zero())?;
    // Taps: kernel spatial positions, row-major.
    let mut tap_loops = Vec::with_capacity(g.spatial);
    let mut valid = cg.t.i1.const_int(1, false);
    let mut loff = lhs_base;
    let mut roff = rhs_base;
    for s in 0..g.spatial {
        let ks = g.k_sizes[s];
        let l = cg.loop_begin(cg.i64c(0), cg.i64c(ks), 1, &format!("tap{s}"))?;
        let kp = l.index;
        let (stride, lo, wdil, bdil, rev) = g.window[s];
        let o = idx[g.out_spatial[s]];
        let p = cg.b.build_int_mul(o, cg.i64c(stride), "")?;
        let p = cg.b.build_int_sub(p, cg.i64c(lo), "")?;
        let kd = cg.b.build_int_mul(kp, cg.i64c(wdil), "")?;
        let p = cg.b.build_int_add(p, kd, "")?;
        let nonneg = cg.b.build_int_compare(IntPredicate::SGE, p, cg.i64c(0), "")?;
        let (i, aligned) = if bdil == 1 {
            (p, cg.t.i1.const_int(1, false))
        } else {
            let r = cg.b.build_int_signed_rem(p, cg.i64c(bdil), "")?;
            let a = cg.b.build_int_compare(IntPredicate::EQ, r, cg.i64c(0), "")?;
            (cg.b.build_int_signed_div(p, cg.i64c(bdil), "")?, a)
        };
        let inside = cg.b.build_int_compare(IntPredicate::SLT, i, cg.i64c(g.lhs_dims[g.in_spatial[s]]), "")?;
        let ok = cg.b.build_and(nonneg, aligned, "")?;
        let ok = cg.b.build_and(ok, inside, "")?;
        valid = cg.b.build_and(valid, ok, "")?;
        let li = cg.b.build_int_mul(i, cg.i64c(g.lhs_strides[g.in_spatial[s]]), "")?;
        loff = cg.b.build_int_add(loff, li, "")?;
        let kk = if rev { cg.b.build_int_sub(cg.i64c(ks - 1), kp, "")? } else { kp };
        let ri = cg.b.build_int_mul(kk, cg.i64c(g.rhs_strides[g.k_spatial[s]]), "")?;
        roff = cg.b.build_int_add(roff, ri, "")?;
        tap_loops.push(l);
    }
    let join = cg.if_begin(valid, "tap")?;
    let zl = cg.loop_begin(cg.i64c(0), cg.i64c(g.in_group), 1, "z")?;
    let z = zl.index;
    let lz = cg.b.build_int_mul(z, cg.i64c(g.lhs_strides[g.in_feature]), "")?;
    let lz = cg.b.build_int_add(loff, lz, "")?;
    let rz = cg.b.build_int_mul(z, cg.i64c(g.rhs_strides[g.k_in]), "")?;
    let rz = cg.b.build_int_add(roff, rz, "")?;
    let a = cg.load_elem(lhs, tl, lz)?;
    let w = cg.load_elem(rhs, tr, rz)?;
    let a = cg.convert(a, tl, acc_t)?;
    let w = cg.convert(w, tr, acc_t)?;
    let p = cg.binary(smelt_kernel::BinaryOp::Mul, acc_t, a, w, false)?;
    let cur = cg.b.build_load(cg.reg_type(acc_t), acc, "")?;
    let s = cg.binary(smelt_kernel::BinaryOp::Add, acc_t, cur, p, false)?;
    cg.b.build_store(acc, s)?;
    cg.loop_end(zl)?;
    cg.if_end(join)?;
    for l in tap_loops.into_iter().rev() {
        cg.loop_end(l)?;
    }
    let total = cg.b.build_load(cg.reg_type(acc_t), acc, "")?;
    let v = cg.convert(total, acc_t, to)?;
    let mut off = cg.i64c(0);
    for (d, &i) in idx.iter().enumerate() {
        let x = cg.b.build_int_mul(i, cg.i64c(g.out_strides[d]), "")?;
        off = cg.b.build_int_add(off, x, "")?;
    }
    cg.store_elem(out, to, off, v)?;
    for l in loops.into_iter().rev() {
        cg.loop_end(l)?;
    }
    cg.b.build_return(None)?;
    cg.end_fn()?;
    Ok(f)
}

/// Validated convolution geometry (as the interpreter's `conv::Geom`).
pub(crate) struct ConvGeom {
    spatial: usize,
    in_batch: usize,
    in_feature: usize,
    in_spatial: Vec<usize>,
    lhs_dims: Vec<i64>,
    lhs_strides: Vec<i64>,
    k_in: usize,
    k_out: usize,
    k_spatial: Vec<usize>,
    k_sizes: Vec<i64>,
    rhs_strides: Vec<i64>,
    out_batch: usize,
    out_feature: usize,
    out_spatial: Vec<usize>,
    pub out_dims: Vec<i64>,
    out_strides: Vec<i64>,
    /// Per spatial dimension: (stride, pad_low, rhs dilation, lhs dilation, reversal).
    window: Vec<(i64, i64, i64, i64, bool)>,
    in_group: i64,
    out_group: i64,
    depthwise_multiplier: i64,
    batch_group_size: i64,
    in_batch_size: i64,
}

impl ConvGeom {
    pub(crate) fn new(step: &ConvStep) -> Result<ConvGeom> {
        let d = &step.dims;
        let spatial = d.input_spatial.len();
        let rank = spatial + 2;
        let lhs_dims = step.input.ty.dims.clone();
        let rhs_dims = step.kernel.ty.dims.clone();
        let out_dims = step.out.ty.dims.clone();
        if lhs_dims.len() != rank || rhs_dims.len() != rank || out_dims.len() != rank {
            invalid!("convolution operands do not have rank {rank}");
        }
        if d.kernel_spatial.len() != spatial || d.output_spatial.len() != spatial || step.window.len() != spatial {
            invalid!("convolution dimension labels or window disagree on the spatial rank");
        }
        let idx = |v: i64| -> Result<usize> {
            match usize::try_from(v).ok().filter(|&v| v < rank) {
                Some(v) => Ok(v),
                None => invalid!("convolution dimension {v} out of range for rank {rank}"),
            }
        };
        let list = |v: &[i64]| v.iter().map(|&x| idx(x)).collect::<Result<Vec<_>>>();
        let (in_batch, in_feature, in_spatial) = (idx(d.input_batch)?, idx(d.input_feature)?, list(&d.input_spatial)?);
        let (k_in, k_out, k_spatial) =
            (idx(d.kernel_input_feature)?, idx(d.kernel_output_feature)?, list(&d.kernel_spatial)?);
        let (out_batch, out_feature, out_spatial) =
            (idx(d.output_batch)?, idx(d.output_feature)?, list(&d.output_spatial)?);
        for (what, v) in
            [("input", [in_batch, in_feature]), ("kernel", [k_in, k_out]), ("output", [out_batch, out_feature])]
        {
            let spatial_dims = match what {
                "input" => &in_spatial,
                "kernel" => &k_spatial,
                _ => &out_spatial,
            };
            let mut seen = vec![false; rank];
            for &d in v.iter().chain(spatial_dims.iter()) {
                if std::mem::replace(&mut seen[d], true) {
                    invalid!("convolution {what} dimension numbers are not a permutation");
                }
            }
        }
        let (fgc, bgc) = (step.feature_group_count, step.batch_group_count);
        if fgc < 1 || bgc < 1 {
            invalid!("convolution group counts must be positive");
        }
        let in_features = lhs_dims[in_feature];
        let out_features = rhs_dims[k_out];
        if in_features % fgc != 0 || rhs_dims[k_in].checked_mul(fgc) != Some(in_features) {
            invalid!("convolution input features {in_features} do not split into {fgc} groups of {}", rhs_dims[k_in]);
        }
        if out_features % fgc != 0 || out_features % bgc != 0 || lhs_dims[in_batch] % bgc != 0 {
            invalid!("convolution output features {out_features} or batch do not split into the groups");
        }
        let in_group = in_features / fgc;
        let window = step
            .window
            .iter()
            .zip(step.window_reversal.iter().chain(std::iter::repeat(&false)))
            .map(|(w, &r)| (w.stride, w.pad_low, w.window_dilation, w.base_dilation, r))
            .collect::<Vec<_>>();
        // The output shape the operands imply.
        let mut want = vec![0i64; rank];
        want[out_batch] = lhs_dims[in_batch] / bgc;
        want[out_feature] = out_features;
        for (k, w) in step.window.iter().enumerate() {
            if w.stride < 1 || w.window_dilation < 1 || w.base_dilation < 1 || w.size != rhs_dims[k_spatial[k]] {
                invalid!("convolution window dimension {k} does not fit the kernel or has a bad stride or dilation");
            }
            let n = lhs_dims[in_spatial[k]] as i128;
            let base = if n == 0 { 0 } else { (n - 1) * w.base_dilation as i128 + 1 };
            let padded = base + w.pad_low as i128 + w.pad_high as i128;
            let extent = if w.size == 0 { 0 } else { (w.size as i128 - 1) * w.window_dilation as i128 + 1 };
            want[out_spatial[k]] = if padded < extent { 0 } else { ((padded - extent) / w.stride as i128 + 1) as i64 };
        }
        if want != out_dims {
            invalid!("convolution output {:?} differs from the {:?} its operands give", out_dims, want);
        }
        Ok(ConvGeom {
            spatial,
            in_batch,
            in_feature,
            lhs_strides: crate::codegen::strides(&lhs_dims),
            k_sizes: k_spatial.iter().map(|&k| rhs_dims[k]).collect(),
            in_spatial,
            lhs_dims: lhs_dims.clone(),
            k_in,
            k_out,
            k_spatial,
            rhs_strides: crate::codegen::strides(&rhs_dims),
            out_batch,
            out_feature,
            out_spatial,
            out_strides: crate::codegen::strides(&out_dims),
            out_dims,
            window,
            in_group,
            out_group: (out_features / fgc).max(1),
            depthwise_multiplier: (out_features / bgc).max(1),
            batch_group_size: lhs_dims[in_batch] / bgc,
            in_batch_size: lhs_dims[in_batch],
        })
    }
}

fn param_ptr<'ctx>(f: FunctionValue<'ctx>, i: u32) -> Result<PointerValue<'ctx>> {
    match f.get_nth_param(i) {
        Some(BasicValueEnum::PointerValue(p)) => Ok(p),
        _ => Err(CpuError::Llvm(format!("parameter {i} is not a pointer"))),
    }
}

fn param_int<'ctx>(f: FunctionValue<'ctx>, i: u32) -> Result<IntValue<'ctx>> {
    match f.get_nth_param(i) {
        Some(BasicValueEnum::IntValue(v)) => Ok(v),
        _ => Err(CpuError::Llvm(format!("parameter {i} is not an integer"))),
    }
}

/// Loads slot `i` of a pointer-sized argument array as an i64.
fn load_i64<'ctx>(cg: &Cg<'ctx, '_>, args: PointerValue<'ctx>, i: u64) -> Result<IntValue<'ctx>> {
    // SAFETY: the argument array has 9 slots.
    let p = unsafe { cg.b.build_in_bounds_gep(cg.t.ptr, args, &[cg.t.i64.const_int(i, false)], "")? };
    Ok(cg.b.build_load(cg.t.i64, p, "")?.into_int_value())
}

/// `a * b + c`.
fn mad<'ctx>(cg: &Cg<'ctx, '_>, a: IntValue<'ctx>, b: IntValue<'ctx>, c: IntValue<'ctx>) -> Result<IntValue<'ctx>> {
    let p = cg.b.build_int_mul(a, b, "")?;
    Ok(cg.b.build_int_add(p, c, "")?)
}
