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
    ArrayType, BinaryOp, BufRef, ConvStep, DotStep, FnPattern, Graph, InlineReduce, Kernel, KernelBody, KernelId, Node,
    NodeId, Program, Scalar, ScalarFn, Step,
};

use crate::error::{GpuError, Result};

/// Whether cuBLAS computes this product as the kernel form defines it (see
/// [`crate::runtime::gemm_types`]: f32, f64, and f16/bf16 accumulated in f32).
pub fn cublas_types(d: &DotStep) -> bool {
    crate::runtime::gemm_types(d.lhs.ty.dtype, d.rhs.ty.dtype, d.out.ty.dtype).is_some()
}

/// `program` with every `Conv` step, and every `Dot` step that cuBLAS does not
/// take (all of them when `use_cublas` is false), replaced by a kernel step.
pub fn prepare(program: &Program, use_cublas: bool) -> Result<Program> {
    let mut p = program.clone();
    let mut kernels = std::mem::take(&mut p.kernels);
    p.steps = rewrite(&program.steps, &mut kernels, use_cublas)?;
    p.kernels = kernels;
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

/// A graph under construction.
#[derive(Default)]
struct G {
    g: Graph,
}

impl G {
    fn add(&mut self, n: Node, t: DType) -> NodeId {
        self.g.nodes.push(n);
        self.g.types.push(t);
        NodeId(self.g.nodes.len() as u32 - 1)
    }
    fn int(&mut self, v: i64) -> NodeId {
        self.add(Node::Const(Scalar::index(v)), DType::S64)
    }
    fn bin(&mut self, op: BinaryOp, a: NodeId, b: NodeId) -> NodeId {
        let t = self.g.dtype(a);
        self.add(Node::Binary { op, a, b }, t)
    }
    fn mul_c(&mut self, a: NodeId, c: i64) -> NodeId {
        if c == 1 {
            return a;
        }
        let c = self.int(c);
        self.bin(BinaryOp::Mul, a, c)
    }
    fn add_c(&mut self, a: NodeId, c: i64) -> NodeId {
        if c == 0 {
            return a;
        }
        let c = self.int(c);
        self.bin(BinaryOp::Add, a, c)
    }
    fn div_c(&mut self, a: NodeId, c: i64) -> NodeId {
        if c == 1 {
            return a;
        }
        let c = self.int(c);
        self.bin(BinaryOp::Div, a, c)
    }
    fn rem_c(&mut self, a: NodeId, c: i64) -> NodeId {
        let c = self.int(c.max(1));
        self.bin(BinaryOp::Rem, a, c)
    }
    fn convert(&mut self, x: NodeId, to: DType) -> NodeId {
        if self.g.dtype(x) == to {
            return x;
        }
        self.add(Node::Convert { x, to }, to)
    }
    fn cmp(&mut self, direction: ComparisonDirection, a: NodeId, b: NodeId) -> NodeId {
        self.add(Node::Compare { direction, compare_type: None, a, b }, DType::Pred)
    }
    fn and(&mut self, a: NodeId, b: NodeId) -> NodeId {
        self.add(Node::Binary { op: BinaryOp::And, a, b }, DType::Pred)
    }
    /// The offset of element `(r, c)` of matrix `b` in a batch of `[rows,
    /// cols]` matrices, each stored transposed (`[cols, rows]`) or not.
    fn matrix_offset(&mut self, b: NodeId, r: NodeId, c: NodeId, (rows, cols): (i64, i64), transposed: bool) -> NodeId {
        let base = self.mul_c(b, rows * cols);
        let (major, minor, stride) = if transposed { (c, r, rows) } else { (r, c, cols) };
        let t = self.mul_c(major, stride);
        let within = self.bin(BinaryOp::Add, t, minor);
        self.bin(BinaryOp::Add, base, within)
    }

    /// The row-major offset of `idx` in `dims` (dims of extent 1 skipped).
    fn offset(&mut self, idx: &[NodeId], dims: &[i64]) -> NodeId {
        let mut off: Option<NodeId> = None;
        for (&i, &d) in idx.iter().zip(dims) {
            if d == 1 {
                continue;
            }
            off = Some(match off {
                None => i,
                Some(o) => {
                    let m = self.mul_c(o, d);
                    self.bin(BinaryOp::Add, m, i)
                }
            });
        }
        off.unwrap_or_else(|| self.int(0))
    }
    /// The index in `dims` of row-major offset `off`.
    fn unflatten(&mut self, off: NodeId, dims: &[i64]) -> Vec<NodeId> {
        let mut stride: i64 = dims.iter().map(|&d| d.max(1)).product();
        let mut out = Vec::with_capacity(dims.len());
        for (k, &d) in dims.iter().enumerate() {
            stride /= d.max(1);
            if d == 1 {
                out.push(self.int(0));
                continue;
            }
            let q = self.div_c(off, stride);
            out.push(if k == 0 { q } else { self.rem_c(q, d) });
        }
        out
    }
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

fn add_fn(t: DType) -> ScalarFn {
    let mut f = G::default();
    let a = f.add(Node::Param(0), t);
    let b = f.add(Node::Param(1), t);
    let s = f.bin(BinaryOp::Add, a, b);
    ScalarFn { params: vec![t, t], graph: f.g, outputs: vec![s], pattern: Some(FnPattern::Binary(BinaryOp::Add)) }
}

/// The kernel's output index space (the out buffer's dims) and, for each of
/// its points, the row-major offset into the product.
fn out_space(g: &mut G, out: &ArrayType) -> (Vec<i64>, NodeId) {
    let dims = out.dims.clone();
    let idx: Vec<NodeId> = (0..dims.len()).map(|d| g.add(Node::Index(d), DType::S64)).collect();
    let off = g.offset(&idx, &dims);
    (dims, off)
}

/// Finishes a product kernel: converts the accumulated `value` to the output
/// type and composes the epilogue.
fn finish(
    mut g: G,
    name: String,
    inputs: Vec<ArrayType>,
    out: &ArrayType,
    space: Vec<i64>,
    value: NodeId,
    epi: Option<Kernel>,
) -> Result<Kernel> {
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
        body: KernelBody::Loop { space, graph: g.g, outputs: vec![root] },
    })
}

/// Copies the epilogue graph `e` into `g`: its loads of input 0 become
/// `product`, input `i > 0` becomes input `base + i`. Returns the new id of
/// each node of `e`.
fn compose(g: &mut G, e: &Graph, product: NodeId, base: usize) -> Result<Vec<NodeId>> {
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
        let id = g.add(node, e.dtype(NodeId(i as u32)));
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
    let mut g = G::default();
    let (space, off) = out_space(&mut g, &d.out.ty);
    let mn = m * n;
    let bi = g.div_c(off, mn.max(1));
    let r = g.rem_c(off, mn.max(1));
    let mi = g.div_c(r, n.max(1));
    let ni = g.rem_c(r, n.max(1));

    // The body: one term of the contraction at window index kk.
    let mut body = G::default();
    let kk = body.add(Node::Index(0), DType::S64);
    let (ob, om, on) = (
        body.add(Node::Outer(bi), DType::S64),
        body.add(Node::Outer(mi), DType::S64),
        body.add(Node::Outer(ni), DType::S64),
    );
    // lhs is [m, k] (or [k, m] transposed), rhs [k, n] (or [n, k]).
    let loff = body.matrix_offset(ob, om, kk, (m, k), d.lhs_transposed);
    let roff = body.matrix_offset(ob, kk, on, (k, n), d.rhs_transposed);
    let lidx = body.unflatten(loff, &d.lhs.ty.dims);
    let ridx = body.unflatten(roff, &d.rhs.ty.dims);
    let lv = body.add(Node::Load { input: 0, index: lidx }, d.lhs.ty.dtype);
    let rv = body.add(Node::Load { input: 1, index: ridx }, d.rhs.ty.dtype);
    let lv = body.convert(lv, acc);
    let rv = body.convert(rv, acc);
    let term = body.bin(BinaryOp::Mul, lv, rv);

    let init = g.add(Node::Const(zero(acc)), acc);
    let red =
        InlineReduce { window: vec![k], init: vec![init], body: body.g, values: vec![term], reducer: add_fn(acc) };
    let sum = g.add(Node::Reduce(Box::new(red)), acc);
    let sum = g.add(Node::ReduceResult { reduce: sum, index: 0 }, acc);
    finish(g, "dot".into(), vec![d.lhs.ty.clone(), d.rhs.ty.clone()], &d.out.ty, space, sum, epi)
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

    let mut g = G::default();
    let (space, off) = out_space(&mut g, &c.out.ty);
    let o = g.unflatten(off, &od);
    let (obi, ofi) = (o[ob], o[of]);
    let fg = g.div_c(ofi, out_group);
    let bgi = g.div_c(ofi, depth_mult);
    let bgo = g.mul_c(bgi, batch_group_size);
    let batch = g.bin(BinaryOp::Add, obi, bgo);
    let fbase = g.mul_c(fg, in_group);

    // Window: the kernel's spatial positions, then the group's input features.
    let mut window: Vec<i64> = ksp.iter().map(|&d| rd[d]).collect();
    window.push(in_group);
    let mut body = G::default();
    let outer = |body: &mut G, x: NodeId| body.add(Node::Outer(x), DType::S64);
    let z = body.add(Node::Index(spatial), DType::S64);
    let mut lidx = vec![NodeId(0); rank];
    let mut ridx = vec![NodeId(0); rank];
    lidx[ib] = outer(&mut body, batch);
    let fb = outer(&mut body, fbase);
    lidx[if_] = body.bin(BinaryOp::Add, fb, z);
    ridx[ki] = z;
    ridx[ko] = outer(&mut body, ofi);
    let mut valid: Option<NodeId> = None;
    for s in 0..spatial {
        let w = c.window[s];
        let kpos = body.add(Node::Index(s), DType::S64);
        let os = outer(&mut body, o[osp[s]]);
        // p = o * stride - pad_low + k * window_dilation
        let a = body.mul_c(os, w.stride);
        let b = body.mul_c(kpos, w.window_dilation);
        let p = body.bin(BinaryOp::Add, a, b);
        let p = body.add_c(p, -w.pad_low);
        let size = ld[isp[s]];
        let zero = body.int(0);
        let mut ok = body.cmp(ComparisonDirection::Ge, p, zero);
        let pos = if w.base_dilation == 1 {
            p
        } else {
            let r = body.rem_c(p, w.base_dilation);
            let z0 = body.int(0);
            let hole = body.cmp(ComparisonDirection::Eq, r, z0);
            ok = body.and(ok, hole);
            body.div_c(p, w.base_dilation)
        };
        let lim = body.int(size);
        let inside = body.cmp(ComparisonDirection::Lt, pos, lim);
        ok = body.and(ok, inside);
        // Clamp the position into range so the load stays in bounds.
        let lo = body.int(0);
        let hi = body.int((size - 1).max(0));
        lidx[isp[s]] = body.add(Node::Clamp { min: lo, x: pos, max: hi }, DType::S64);
        ridx[ksp[s]] = if c.window_reversal[s] {
            let last = body.int(rd[ksp[s]] - 1);
            body.bin(BinaryOp::Sub, last, kpos)
        } else {
            kpos
        };
        valid = Some(match valid {
            None => ok,
            Some(v) => body.and(v, ok),
        });
    }
    let lv = body.add(Node::Load { input: 0, index: lidx }, c.input.ty.dtype);
    let rv = body.add(Node::Load { input: 1, index: ridx }, c.kernel.ty.dtype);
    let lv = body.convert(lv, acc);
    let rv = body.convert(rv, acc);
    let mut term = body.bin(BinaryOp::Mul, lv, rv);
    if let Some(v) = valid {
        let z = body.add(Node::Const(zero(acc)), acc);
        term = body.add(Node::Select { pred: v, on_true: term, on_false: z }, acc);
    }
    let init = g.add(Node::Const(zero(acc)), acc);
    let red = InlineReduce { window, init: vec![init], body: body.g, values: vec![term], reducer: add_fn(acc) };
    let sum = g.add(Node::Reduce(Box::new(red)), acc);
    let sum = g.add(Node::ReduceResult { reduce: sum, index: 0 }, acc);
    finish(g, "convolution".into(), vec![c.input.ty.clone(), c.kernel.ty.clone()], &c.out.ty, space, sum, epi)
}
