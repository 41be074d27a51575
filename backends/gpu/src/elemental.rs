//! Matrix products and convolutions as elemental kernels.
//!
//! The kernel form leaves `Dot` and `Conv` steps to a backend's library. On
//! the GPU, dots whose types cuBLAS computes (f32, f64, f16/bf16 with f32
//! accumulation; see [`cublas_types`]) stay `Dot` steps and run through cuBLAS; every other dot
//! and every convolution becomes a `Loop` kernel built here: one output
//! element per point, an inline reduction over the contraction (for a
//! convolution: the kernel's spatial positions in row-major order, then the
//! input features of the group, skipping padding and dilation holes), with
//! the step's epilogue composed into the same graph. The accumulation types
//! and order are the kernel form's (`DotStep`, `ConvStep`), so the kernel
//! evaluator checks these kernels against the library steps they replace.

use smelt_hlo::DType;
use smelt_hlo::attrs::ComparisonDirection;
use smelt_kernel::{
    ArrayType, BinaryOp, BufRef, Builder, ConvStep, DotStep, FnPattern, Graph, InlineReduce, Kernel, KernelBody,
    KernelId, Node, NodeId, Program, Scalar, ScalarFn, Step,
};

use crate::error::{GpuError, Result};

/// Whether cuBLAS computes this product as the kernel form defines it (see
/// [`crate::runtime::gemm_types`]: f32, f64, and f16/bf16 accumulated in f32).
pub fn cublas_types(d: &DotStep) -> bool {
    crate::runtime::gemm_types(d.lhs.ty.dtype, d.rhs.ty.dtype, d.out.ty.dtype).is_some()
}

/// `program` with every `Conv` step, and every `Dot` step that cuBLAS does not
/// take (all of them when `use_cublas` is false), replaced by a kernel step;
/// verified again, as the code generator renders what this makes.
pub fn prepare(program: &Program, use_cublas: bool) -> Result<Program> {
    let mut p = program.clone();
    let mut kernels = std::mem::take(&mut p.kernels);
    p.steps = rewrite(&program.steps, &mut kernels, use_cublas)?;
    p.kernels = kernels;
    smelt_kernel::legalize(&mut p);
    smelt_kernel::verify(&p).map_err(|e| GpuError::InvalidProgram(format!("as prepared for the GPU: {e}")))?;
    Ok(p)
}

fn rewrite(steps: &[Step], kernels: &mut Vec<Kernel>, use_cublas: bool) -> Result<Vec<Step>> {
    let mut out = Vec::with_capacity(steps.len());
    for s in steps {
        out.push(match s {
            Step::Dot(d) if !(use_cublas && cublas_types(d)) => {
                let epi = epilogue(kernels, &d.epilogue)?;
                let k = dot_kernel(d, epi)?;
                push_kernel(kernels, k, [&d.lhs, &d.rhs], &d.epilogue, &d.out)
            }
            Step::CustomCall(c) => {
                return Err(GpuError::Unsupported(format!(
                    "custom-call target \"{}\" (smelt runs its library routines on the host backends: interp, cpu, cranelift)",
                    c.call.target
                )));
            }
            Step::Conv(c) => {
                let epi = epilogue(kernels, &c.epilogue)?;
                let k = conv_kernel(c, epi)?;
                push_kernel(kernels, k, [&c.input, &c.kernel], &c.epilogue, &c.out)
            }
            Step::While { cond, pred, body, update } => Step::While {
                cond: rewrite(cond, kernels, use_cublas)?,
                pred: pred.clone(),
                body: rewrite(body, kernels, use_cublas)?,
                update: update.clone(),
            },
            Step::Conditional { index, branches } => Step::Conditional {
                index: index.clone(),
                branches: branches.iter().map(|b| rewrite(b, kernels, use_cublas)).collect::<Result<_>>()?,
            },
            other => other.clone(),
        });
    }
    Ok(out)
}

fn epilogue(kernels: &[Kernel], e: &Option<(KernelId, Vec<BufRef>)>) -> Result<Option<Kernel>> {
    match e {
        None => Ok(None),
        Some((id, _)) => kernels
            .get(id.0 as usize)
            .cloned()
            .map(Some)
            .ok_or_else(|| GpuError::InvalidProgram(format!("epilogue kernel {} out of range", id.0))),
    }
}

fn push_kernel(
    kernels: &mut Vec<Kernel>,
    k: Kernel,
    operands: [&BufRef; 2],
    epi: &Option<(KernelId, Vec<BufRef>)>,
    out: &BufRef,
) -> Step {
    let mut inputs: Vec<BufRef> = operands.iter().map(|&b| b.clone()).collect();
    if let Some((_, extra)) = epi {
        inputs.extend(extra.iter().cloned());
    }
    let id = KernelId(kernels.len() as u32);
    kernels.push(k);
    Step::Kernel { kernel: id, inputs, outputs: vec![out.clone()] }
}

/// Builder errors (a type mismatch in the graph) as this crate's.
fn invalid(e: String) -> GpuError {
    GpuError::InvalidProgram(e)
}

/// The type products accumulate in (see [`DotStep`]).
fn acc_type(out: DType) -> Result<DType> {
    Ok(match out {
        DType::F16 | DType::Bf16 | DType::F32 => DType::F32,
        DType::F64 => DType::F64,
        DType::Pred => return Err(GpuError::Unsupported("a pred-typed matrix product or convolution".into())),
        _ => DType::S64,
    })
}

fn zero(t: DType) -> Scalar {
    if t.is_float() { Scalar::Float(t, 0.0) } else { Scalar::Int(t, 0) }
}

fn add_fn(t: DType) -> Result<ScalarFn> {
    let mut f = Builder::new(&[]);
    let (a, b) = (f.param(0, t), f.param(1, t));
    let s = f.binary(BinaryOp::Add, a, b).map_err(invalid)?;
    Ok(ScalarFn {
        params: vec![t, t],
        graph: f.finish(),
        outputs: vec![s],
        pattern: Some(FnPattern::Binary(BinaryOp::Add)),
    })
}

/// A builder over the out buffer's dims (the kernel's space; an epilogue's
/// too) and the index of each point in the product's `natural` dims.
fn out_space(out: &ArrayType, natural: &[i64]) -> Result<(Builder, Vec<NodeId>)> {
    let mut g = Builder::new(&out.dims);
    let idx: Vec<NodeId> = (0..out.dims.len()).map(|d| g.index(d)).collect();
    let nat = g.reshape_index(&idx, &out.dims, natural).map_err(invalid)?;
    Ok((g, nat))
}

/// A node of the enclosing graph `g`, seen from the reduction body `body`.
fn outer(body: &mut Builder, g: &Builder, id: NodeId) -> NodeId {
    body.outer(id, g.dtype(id), g.range(id))
}

/// `acc += value` over `window` from 0: an inline sum, converted to `to`.
fn inline_sum(g: &mut Builder, window: Vec<i64>, body: Builder, value: NodeId, acc: DType) -> Result<NodeId> {
    let init = g.constant(zero(acc));
    let red =
        InlineReduce { window, init: vec![init], body: body.finish(), values: vec![value], reducer: add_fn(acc)? };
    Ok(g.reduce(red, &[acc])[0])
}

/// Finishes a product kernel: converts the accumulated `value` to the output
/// type and composes the epilogue.
fn finish(
    mut g: Builder,
    name: String,
    inputs: Vec<ArrayType>,
    out: &ArrayType,
    value: NodeId,
    epi: Option<Kernel>,
) -> Result<Kernel> {
    let space = out.dims.clone();
    let v = g.convert(value, out.dtype);
    let mut inputs = inputs;
    let root = match epi {
        None => v,
        Some(e) => {
            let KernelBody::Loop { space: es, graph: eg, outputs: eo } = &e.body else {
                return Err(GpuError::InvalidProgram(format!("epilogue {} is not a loop kernel", e.name)));
            };
            if *es != space || eo.len() != 1 || e.inputs.is_empty() {
                return Err(GpuError::InvalidProgram(format!("epilogue {} does not fit its product", e.name)));
            }
            let base = inputs.len() - 1;
            inputs.extend(e.inputs[1..].iter().cloned());
            let map = compose(&mut g, eg, v, base)?;
            *map.get(eo[0].0 as usize)
                .ok_or_else(|| GpuError::InvalidProgram(format!("epilogue {}: output node out of range", e.name)))?
        }
    };
    Ok(Kernel {
        name,
        inputs,
        outputs: vec![out.clone()],
        body: KernelBody::Loop { space, graph: g.finish(), outputs: vec![root] },
    })
}

/// Copies the epilogue graph `e` into `g`: its loads of input 0 become
/// `product`, input `i > 0` becomes input `base + i`. Returns the new id of
/// each node of `e`.
fn compose(g: &mut Builder, e: &Graph, product: NodeId, base: usize) -> Result<Vec<NodeId>> {
    if e.types.len() != e.nodes.len() {
        return Err(GpuError::InvalidProgram(format!(
            "an epilogue graph of {} nodes and {} types",
            e.nodes.len(),
            e.types.len()
        )));
    }
    let mut map: Vec<NodeId> = Vec::with_capacity(e.nodes.len());
    for (i, n) in e.nodes.iter().enumerate() {
        let m = |x: NodeId| -> Result<NodeId> {
            map.get(x.0 as usize)
                .copied()
                .ok_or_else(|| GpuError::InvalidProgram(format!("epilogue node {i} refers forward")))
        };
        let node = match n {
            Node::Load { input: 0, .. } => {
                map.push(product);
                continue;
            }
            Node::Load { input, index } => {
                Node::Load { input: input + base, index: index.iter().map(|&x| m(x)).collect::<Result<_>>()? }
            }
            Node::Index(_) | Node::Param(_) | Node::Const(_) => n.clone(),
            Node::Unary { op, x } => Node::Unary { op: *op, x: m(*x)? },
            Node::Binary { op, a, b } => Node::Binary { op: *op, a: m(*a)?, b: m(*b)? },
            Node::Compare { direction, compare_type, a, b } => {
                Node::Compare { direction: *direction, compare_type: *compare_type, a: m(*a)?, b: m(*b)? }
            }
            Node::Select { pred, on_true, on_false } => {
                Node::Select { pred: m(*pred)?, on_true: m(*on_true)?, on_false: m(*on_false)? }
            }
            Node::Clamp { min, x, max } => Node::Clamp { min: m(*min)?, x: m(*x)?, max: m(*max)? },
            Node::MulAdd { a, b, c } => Node::MulAdd { a: m(*a)?, b: m(*b)?, c: m(*c)? },
            Node::Convert { x, to } => Node::Convert { x: m(*x)?, to: *to },
            Node::Bitcast { x, to } => Node::Bitcast { x: m(*x)?, to: *to },
            Node::ReduceResult { reduce, index } => Node::ReduceResult { reduce: m(*reduce)?, index: *index },
            Node::Reduce(r) => {
                let mut r = (**r).clone();
                r.init = r.init.iter().map(|&x| m(x)).collect::<Result<_>>()?;
                for bn in &mut r.body.nodes {
                    if let Node::Outer(o) = bn {
                        *o = m(*o)?;
                    }
                }
                shift_loads(&mut r.body, base)?;
                Node::Reduce(Box::new(r))
            }
            Node::Outer(_) => return Err(GpuError::InvalidProgram("an Outer node outside a reduction".into())),
        };
        let id = g.node_as_is(node, e.dtype(NodeId(i as u32)));
        map.push(id);
    }
    Ok(map)
}

/// Renumbers the loads of a reduction body (and of reductions nested in it)
/// for the composed kernel's inputs: input `i > 0` becomes `base + i`.
fn shift_loads(g: &mut Graph, base: usize) -> Result<()> {
    for n in &mut g.nodes {
        match n {
            Node::Load { input: 0, .. } => {
                return Err(GpuError::Unsupported("an epilogue reduction that reads the product".into()));
            }
            Node::Load { input, .. } => *input += base,
            Node::Reduce(r) => shift_loads(&mut r.body, base)?,
            _ => {}
        }
    }
    Ok(())
}

/// A dot step as a loop kernel (inputs: lhs, rhs, then the epilogue's buffers).
pub fn dot_kernel(d: &DotStep, epi: Option<Kernel>) -> Result<Kernel> {
    let (b, m, n, k) = (d.batch, d.m, d.n, d.k);
    if [b, m, n, k].iter().any(|&x| x < 0)
        || d.lhs.ty.element_count() as i64 != b * m * k
        || d.rhs.ty.element_count() as i64 != b * k * n
        || d.out.ty.element_count() as i64 != b * m * n
    {
        return Err(GpuError::InvalidProgram("a dot step whose buffers do not hold its operands".into()));
    }
    let acc = acc_type(d.out.ty.dtype)?;
    let (mut g, bmn) = out_space(&d.out.ty, &[b, m, n])?;

    // The body: one term of the contraction at window index kk, each operand
    // read at its canonical index ([b, m, k] or [b, k, m]; [b, k, n] or
    // [b, n, k]) reshaped to its buffer's dims.
    let mut body = Builder::new(&[k]);
    let kk = body.index(0);
    let (bi, mi, ni) = (outer(&mut body, &g, bmn[0]), outer(&mut body, &g, bmn[1]), outer(&mut body, &g, bmn[2]));
    let (lhs, lhs_dims) = if d.lhs_transposed { ([bi, kk, mi], [b, k, m]) } else { ([bi, mi, kk], [b, m, k]) };
    let (rhs, rhs_dims) = if d.rhs_transposed { ([bi, ni, kk], [b, n, k]) } else { ([bi, kk, ni], [b, k, n]) };
    let lidx = body.reshape_index(&lhs, &lhs_dims, &d.lhs.ty.dims).map_err(invalid)?;
    let ridx = body.reshape_index(&rhs, &rhs_dims, &d.rhs.ty.dims).map_err(invalid)?;
    let lv = body.load(0, d.lhs.ty.dtype, lidx);
    let rv = body.load(1, d.rhs.ty.dtype, ridx);
    let (lv, rv) = (body.convert(lv, acc), body.convert(rv, acc));
    let term = body.binary(BinaryOp::Mul, lv, rv).map_err(invalid)?;
    let sum = inline_sum(&mut g, vec![k], body, term, acc)?;
    finish(g, "dot".into(), vec![d.lhs.ty.clone(), d.rhs.ty.clone()], &d.out.ty, sum, epi)
}

/// A convolution step as a loop kernel (inputs: input, kernel, then the
/// epilogue's buffers).
pub fn conv_kernel(c: &ConvStep, epi: Option<Kernel>) -> Result<Kernel> {
    let bad = || GpuError::InvalidProgram("convolution dimension numbers or window do not fit its operands".into());
    let od = c.natural_output_dims().ok_or_else(bad)?;
    if od.iter().map(|&d| d.max(0)).product::<i64>() != c.out.ty.element_count() as i64 {
        return Err(bad());
    }
    let dn = &c.dims;
    let ld = &c.input.ty.dims;
    let rd = &c.kernel.ty.dims;
    let rank = ld.len();
    let ix = |i: i64| usize::try_from(i).ok().filter(|&i| i < rank).ok_or_else(bad);
    let (ib, if_, ki, ko, ob, of) = (
        ix(dn.input_batch)?,
        ix(dn.input_feature)?,
        ix(dn.kernel_input_feature)?,
        ix(dn.kernel_output_feature)?,
        ix(dn.output_batch)?,
        ix(dn.output_feature)?,
    );
    let isp: Vec<usize> = dn.input_spatial.iter().map(|&d| ix(d)).collect::<Result<_>>()?;
    let ksp: Vec<usize> = dn.kernel_spatial.iter().map(|&d| ix(d)).collect::<Result<_>>()?;
    let osp: Vec<usize> = dn.output_spatial.iter().map(|&d| ix(d)).collect::<Result<_>>()?;
    let spatial = isp.len();
    if rd.len() != rank || c.window.len() != spatial || c.window_reversal.len() != spatial || ksp.len() != spatial {
        return Err(bad());
    }
    let (g_count, bg) = (c.feature_group_count.max(1), c.batch_group_count.max(1));
    let in_group = ld[if_] / g_count;
    let out_features = rd[ko];
    let out_group = (out_features / g_count).max(1);
    let depth_mult = (out_features / bg).max(1);
    let batch_group_size = ld[ib] / bg;
    let acc = acc_type(c.out.ty.dtype)?;

    let (mut g, o) = out_space(&c.out.ty, &od)?;
    let (obi, ofi) = (o[ob], o[of]);
    let e = invalid;
    let fg = g.idiv_const(ofi, out_group).map_err(e)?;
    let bgi = g.idiv_const(ofi, depth_mult).map_err(e)?;
    let bgo = g.imul_const(bgi, batch_group_size).map_err(e)?;
    let batch = g.iadd(obi, bgo).map_err(e)?;
    let fbase = g.imul_const(fg, in_group).map_err(e)?;

    // Window: the kernel's spatial positions, then the group's input features.
    let mut window: Vec<i64> = ksp.iter().map(|&d| rd[d]).collect();
    window.push(in_group);
    let mut body = Builder::new(&window);
    let z = body.index(spatial);
    let mut lidx = vec![NodeId(0); rank];
    let mut ridx = vec![NodeId(0); rank];
    lidx[ib] = outer(&mut body, &g, batch);
    let fb = outer(&mut body, &g, fbase);
    lidx[if_] = body.iadd(fb, z).map_err(e)?;
    ridx[ki] = z;
    ridx[ko] = outer(&mut body, &g, ofi);
    let mut valid: Option<NodeId> = None;
    for s in 0..spatial {
        let w = c.window[s];
        let kpos = body.index(s);
        let os = outer(&mut body, &g, o[osp[s]]);
        // p = o * stride - pad_low + k * window_dilation: in the input when
        // 0 <= p, p is on the base-dilation grid and p / base_dilation < size.
        let a = body.imul_const(os, w.stride).map_err(e)?;
        let bk = body.imul_const(kpos, w.window_dilation).map_err(e)?;
        let p = body.iadd(a, bk).map_err(e)?;
        let p = body.iadd_const(p, -w.pad_low).map_err(e)?;
        let size = ld[isp[s]];
        let mut ok = body.icmp_const(ComparisonDirection::Ge, p, 0).map_err(e)?;
        let pos = if w.base_dilation == 1 {
            p
        } else {
            let r = body.irem_const(p, w.base_dilation).map_err(e)?;
            let hole = body.icmp_const(ComparisonDirection::Eq, r, 0).map_err(e)?;
            ok = body.and(ok, hole).map_err(e)?;
            body.idiv_const(p, w.base_dilation).map_err(e)?
        };
        let inside = body.icmp_const(ComparisonDirection::Lt, pos, size).map_err(e)?;
        ok = body.and(ok, inside).map_err(e)?;
        // Clamped so the load stays in bounds; padding reads are masked below.
        lidx[isp[s]] = body.iclamp(pos, 0, (size - 1).max(0)).map_err(e)?;
        ridx[ksp[s]] = if c.window_reversal[s] {
            let last = body.s64(rd[ksp[s]] - 1);
            body.isub(last, kpos).map_err(e)?
        } else {
            kpos
        };
        valid = Some(match valid {
            None => ok,
            Some(v) => body.and(v, ok).map_err(e)?,
        });
    }
    let lv = body.load(0, c.input.ty.dtype, lidx);
    let rv = body.load(1, c.kernel.ty.dtype, ridx);
    let (lv, rv) = (body.convert(lv, acc), body.convert(rv, acc));
    let mut term = body.binary(BinaryOp::Mul, lv, rv).map_err(e)?;
    if let Some(v) = valid {
        let z = body.constant(zero(acc));
        term = body.select(v, term, z).map_err(e)?;
    }
    let sum = inline_sum(&mut g, window, body, term, acc)?;
    finish(g, "convolution".into(), vec![c.input.ty.clone(), c.kernel.ty.clone()], &c.out.ty, sum, epi)
}
