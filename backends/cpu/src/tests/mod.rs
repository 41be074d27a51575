//! Unit tests: hand-built programs compiled and run, compared with values
//! computed in Rust or with the reference interpreter on equivalent HLO.
//!
//! `ops` checks every scalar operation and conversion on every element type
//! against the interpreter; `kernels` every kernel kind; `steps` every step
//! kind; `api` argument checks, emission and vectorization. Every program run
//! through [`run`] also runs on the Cranelift backend (`smelt-cranelift`, a
//! dev-dependency), which must agree with LLVM.

mod api;
mod kernels;
mod ops;
mod pieces;
mod rows;
mod scans;
mod steps;
mod tiers;
mod tiles;

use smelt_hlo::attrs::{CompareType, ComparisonDirection};
use smelt_hlo::{Array, ArrayData, DType, Literal};
use smelt_kernel::{
    ArrayType, BinaryOp, BufRef, Buffer, FnPattern, Graph, Kernel, KernelBody, KernelId, Node, NodeId, Program, Scalar,
    ScalarFn, Step, UnaryOp,
};

use crate::{CompileOptions, CpuError, Emit, Executable};
// The run methods every backend's executable has.
use smelt_kernel::Executable as _;

/// Builds graphs with their node types.
#[derive(Default)]
pub(crate) struct Gb {
    pub g: Graph,
}

impl Gb {
    pub fn new() -> Self {
        Gb::default()
    }

    pub fn push(&mut self, n: Node, t: DType) -> NodeId {
        self.g.nodes.push(n);
        self.g.types.push(t);
        NodeId(self.g.nodes.len() as u32 - 1)
    }

    fn ty(&self, id: NodeId) -> DType {
        self.g.types[id.0 as usize]
    }

    pub fn index(&mut self, d: usize) -> NodeId {
        self.push(Node::Index(d), DType::S64)
    }

    pub fn param(&mut self, n: usize, t: DType) -> NodeId {
        self.push(Node::Param(n), t)
    }

    pub fn int(&mut self, t: DType, v: i128) -> NodeId {
        self.push(Node::Const(Scalar::Int(t, v)), t)
    }

    pub fn idx(&mut self, v: i64) -> NodeId {
        self.int(DType::S64, v as i128)
    }

    pub fn float(&mut self, t: DType, v: f64) -> NodeId {
        self.push(Node::Const(Scalar::Float(t, v)), t)
    }

    pub fn load(&mut self, input: usize, index: &[NodeId], t: DType) -> NodeId {
        self.push(Node::Load { input, index: index.to_vec() }, t)
    }

    pub fn un(&mut self, op: UnaryOp, x: NodeId) -> NodeId {
        let t = if op == UnaryOp::IsFinite { DType::Pred } else { self.ty(x) };
        self.push(Node::Unary { op, x }, t)
    }

    pub fn bin(&mut self, op: BinaryOp, a: NodeId, b: NodeId) -> NodeId {
        let t = self.ty(a);
        self.push(Node::Binary { op, a, b }, t)
    }

    pub fn cmp(&mut self, direction: ComparisonDirection, ct: Option<CompareType>, a: NodeId, b: NodeId) -> NodeId {
        self.push(Node::Compare { direction, compare_type: ct, a, b }, DType::Pred)
    }

    pub fn select(&mut self, p: NodeId, a: NodeId, b: NodeId) -> NodeId {
        let t = self.ty(a);
        self.push(Node::Select { pred: p, on_true: a, on_false: b }, t)
    }

    pub fn clamp(&mut self, lo: NodeId, x: NodeId, hi: NodeId) -> NodeId {
        let t = self.ty(x);
        self.push(Node::Clamp { min: lo, x, max: hi }, t)
    }

    pub fn convert(&mut self, x: NodeId, to: DType) -> NodeId {
        self.push(Node::Convert { x, to }, to)
    }

    pub fn bitcast(&mut self, x: NodeId, to: DType) -> NodeId {
        self.push(Node::Bitcast { x, to }, to)
    }
}

pub(crate) fn at(dtype: DType, dims: &[i64]) -> ArrayType {
    ArrayType { dtype, dims: dims.to_vec() }
}

/// `(a, b) -> a op b` with its pattern.
pub(crate) fn binary_fn(op: BinaryOp, t: DType) -> ScalarFn {
    let mut b = Gb::new();
    let x = b.param(0, t);
    let y = b.param(1, t);
    let o = b.bin(op, x, y);
    ScalarFn { params: vec![t, t], graph: b.g, outputs: vec![o], pattern: Some(FnPattern::Binary(op)) }
}

/// The same function without its pattern (forces the general path).
pub(crate) fn unpatterned(mut f: ScalarFn) -> ScalarFn {
    f.pattern = None;
    f
}

/// A loop kernel over `space` whose inputs all have `space`'s dims.
pub(crate) fn loop_kernel(inputs: Vec<ArrayType>, space: &[i64], g: Graph, outputs: Vec<NodeId>) -> Kernel {
    let outs = outputs.iter().map(|&o| at(g.types[o.0 as usize], space)).collect();
    Kernel {
        name: "k".into(),
        inputs,
        outputs: outs,
        body: KernelBody::Loop { space: space.to_vec(), graph: g, outputs },
    }
}

/// `out = x op c` over `dims` (a loop kernel with one input).
pub(crate) fn scalar_op(t: DType, dims: &[i64], op: BinaryOp, c: f64) -> Kernel {
    let mut g = Gb::new();
    let idx: Vec<NodeId> = (0..dims.len()).map(|d| g.index(d)).collect();
    let x = g.load(0, &idx, t);
    let k = if t.is_float() { g.float(t, c) } else { g.int(t, c as i128) };
    let o = g.bin(op, x, k);
    loop_kernel(vec![at(t, dims)], dims, g.g, vec![o])
}

/// A loop kernel over `[n]` with two inputs of `t`, whose results `outputs`
/// builds from their elements `x` and `y`.
pub(crate) fn xy_kernel(t: DType, n: i64, outputs: impl FnOnce(&mut Gb, NodeId, NodeId) -> Vec<NodeId>) -> Kernel {
    let mut b = Gb::new();
    let i = b.index(0);
    let x = b.load(0, &[i], t);
    let y = b.load(1, &[i], t);
    let outs = outputs(&mut b, x, y);
    loop_kernel(vec![at(t, &[n]), at(t, &[n])], &[n], b.g, outs)
}

/// A reduction kernel of `values` over `reduced` dims of `space`.
pub(crate) fn reduce_kernel(
    inputs: Vec<ArrayType>,
    space: &[i64],
    reduced: &[usize],
    g: Gb,
    init: Vec<NodeId>,
    values: Vec<NodeId>,
    reducer: ScalarFn,
    extra: Vec<(usize, NodeId)>,
) -> Kernel {
    let kept: Vec<i64> = (0..space.len()).filter(|d| !reduced.contains(d)).map(|d| space[d]).collect();
    let mut outputs: Vec<ArrayType> = init.iter().map(|&i| at(g.g.types[i.0 as usize], &kept)).collect();
    let reduce_outputs = (0..init.len()).collect();
    let extra: Vec<(usize, NodeId)> = extra
        .into_iter()
        .map(|(_, n)| {
            outputs.push(at(g.g.types[n.0 as usize], space));
            (outputs.len() - 1, n)
        })
        .collect();
    Kernel {
        name: "r".into(),
        inputs,
        outputs,
        body: KernelBody::Reduce {
            space: space.to_vec(),
            reduced: reduced.to_vec(),
            graph: g.g,
            init,
            values,
            reducer,
            reduce_outputs,
            extra,
        },
    }
}

/// The program summing a 2-D [r, c] input of `t` over dimension `reduced`.
pub(crate) fn sum2d(r: i64, c: i64, reduced: usize, t: DType) -> Program {
    let mut g = Gb::new();
    let i = g.index(0);
    let j = g.index(1);
    let x = g.load(0, &[i, j], t);
    let z = if t.is_float() { g.float(t, 0.0) } else { g.int(t, 0) };
    let k = reduce_kernel(
        vec![at(t, &[r, c])],
        &[r, c],
        &[reduced],
        g,
        vec![z],
        vec![x],
        binary_fn(BinaryOp::Add, t),
        vec![],
    );
    one_kernel(k)
}

/// A program running one kernel from parameters to results. Update-slice and
/// scatter kernels update their outputs in place, so (as the lowering does) the
/// program first copies parameter `j` into result `j` for each output.
pub(crate) fn one_kernel(k: Kernel) -> Program {
    let inputs: Vec<BufRef> =
        k.inputs.iter().enumerate().map(|(i, t)| BufRef { buffer: Buffer::Param(i as u32), ty: t.clone() }).collect();
    let outputs: Vec<BufRef> =
        k.outputs.iter().enumerate().map(|(i, t)| BufRef { buffer: Buffer::Result(i as u32), ty: t.clone() }).collect();
    let mut steps = Vec::new();
    if matches!(k.body, KernelBody::UpdateSlice { .. } | KernelBody::Scatter { .. }) {
        for (src, dst) in inputs.iter().zip(&outputs) {
            steps.push(Step::Copy { src: src.clone(), dst: dst.clone() });
        }
    }
    steps.push(Step::Kernel { kernel: KernelId(0), inputs, outputs });
    Program {
        name: "test".into(),
        params: k.inputs.clone(),
        results: k.outputs.clone(),
        temp_bytes: 0,
        constants: Vec::new(),
        steps,
        kernels: vec![k],
    }
}

/// Verifies and compiles `p`, as every caller of the backend does.
pub(crate) fn compile(p: &Program, o: &CompileOptions) -> Result<Executable, CpuError> {
    crate::compile(&smelt_kernel::verify(&legalized(p))?, o)
}

/// `p` with XLA's integer edge cases made explicit, as lowering leaves every
/// program (tests build programs by hand).
pub(crate) fn legalized(p: &Program) -> Program {
    let mut p = p.clone();
    smelt_kernel::legalize(&mut p);
    p
}

/// Verifies `p` and emits one stage of its compilation.
pub(crate) fn emit(p: &Program, o: &CompileOptions, what: Emit) -> Result<Vec<u8>, CpuError> {
    crate::emit(&smelt_kernel::verify(&legalized(p))?, o, what)
}

pub(crate) fn run(p: &Program, args: &[Array]) -> Vec<Array> {
    run_with(p, args, &CompileOptions::default())
}

/// Runs `p` compiled with LLVM and returns its results, which the caller checks
/// against the interpreter. The same program also runs on the Cranelift backend,
/// whose results must match LLVM's (both tiers emit the same math library;
/// `tiers.rs` checks elementwise operations bit for bit) or those of the kernel
/// form's reference evaluator (the interpreter's semantics, and Cranelift's
/// summation order), within float rounding for floats (products run on the
/// `gemm` crate's kernels there, long sums in chunks on LLVM).
pub(crate) fn run_with(p: &Program, args: &[Array], o: &CompileOptions) -> Vec<Array> {
    let exe = match compile(p, o) {
        Ok(e) => e,
        Err(e) => panic!("compile failed: {e}"),
    };
    let got = match exe.run(args) {
        Ok(r) => r,
        Err(e) => panic!("run failed: {e}"),
    };
    let legal = legalized(p);
    let verified = smelt_kernel::verify(&legal).unwrap_or_else(|e| panic!("{e}"));
    let clif = smelt_cranelift::compile(&verified, &smelt_cranelift::CompileOptions::default())
        .unwrap_or_else(|e| panic!("Cranelift: {e}"))
        .run(args)
        .unwrap_or_else(|e| panic!("Cranelift: {e}"));
    let want = smelt_kernel::eval::run(p, args).unwrap_or_else(|e| panic!("kernel evaluator: {e}"));
    assert_eq!(clif.len(), got.len());
    for (k, ((c, l), w)) in clif.iter().zip(&got).zip(&want).enumerate() {
        assert_eq!((c.dtype(), &c.dims), (l.dtype(), &l.dims), "Cranelift output {k}");
        let tol = match l.dtype() {
            DType::F16 | DType::Bf16 => 1e-2,
            DType::F32 => 1e-5,
            DType::F64 => 1e-12,
            _ => 0.0,
        };
        let close = |x: f64, y: f64| {
            x == y || (x.is_nan() && y.is_nan()) || (x - y).abs() <= tol * (1.0 + y.abs().min(x.abs()))
        };
        for i in 0..l.len() {
            let (x, y, z) = (c.data.get_f64(i), l.data.get_f64(i), w.data.get_f64(i));
            assert!(close(x, y) || close(x, z), "Cranelift output {k}[{i}] = {x}, LLVM {y}, evaluator {z}");
        }
    }
    got
}

/// Evaluates HLO text with the reference interpreter; returns the result leaves.
pub(crate) fn interp(hlo: &str, args: &[Array]) -> Vec<Array> {
    let m = match smelt_hlo::parse_module(hlo) {
        Ok(m) => m,
        Err(e) => panic!("bad test HLO: {e}\n{hlo}"),
    };
    let lits: Vec<Literal> = args.iter().cloned().map(Literal::Array).collect();
    match smelt_interp::evaluate(&m, &lits) {
        Ok(l) => l.into_leaves(),
        Err(e) => panic!("interpreter failed: {e}\n{hlo}"),
    }
}

pub(crate) fn f32s(dims: &[i64], v: &[f32]) -> Array {
    Array::from_vec(dims, v.to_vec())
}

/// An array of `dtype` from f64 values (converted as Rust's `as` does; pred is `!= 0`).
pub(crate) fn array_of(dtype: DType, dims: &[i64], v: &[f64]) -> Array {
    Array::new(dims, ArrayData::from_f64(dtype, v.iter().copied()))
}

/// Element `i` as f64 (NaN stays NaN).
pub(crate) fn get(a: &Array, i: usize) -> f64 {
    a.data.get_f64(i)
}

/// Asserts equal dims, types and elements; floats within `rel` relative error
/// (0 for bit-exact, NaN matching NaN of any payload).
pub(crate) fn assert_close(what: &str, got: &Array, want: &Array, rel: f64) {
    assert_eq!(got.dtype(), want.dtype(), "{what}: dtype");
    assert_eq!(got.dims, want.dims, "{what}: dims");
    if !got.dtype().is_float() {
        assert_eq!(got.data.to_le_bytes(), want.data.to_le_bytes(), "{what}: {:?} vs {:?}", got.data, want.data);
        return;
    }
    for i in 0..got.len() {
        let (g, w) = (get(got, i), get(want, i));
        if g.is_nan() && w.is_nan() {
            continue;
        }
        let ok = if rel == 0.0 {
            g.to_bits() == w.to_bits() || (g == w && g.is_sign_negative() == w.is_sign_negative())
        } else {
            // Approximations may differ below the smallest normal f32 (a subnormal
            // against a flushed 0): that counts as equal.
            g == w || (g - w).abs() <= rel * w.abs().max(f64::MIN_POSITIVE) || (g - w).abs() < f32::MIN_POSITIVE as f64
        };
        assert!(ok, "{what}: element {i}: got {g:e}, want {w:e}");
    }
}

/// Deterministic inputs: mostly values near 1 (so that long products stay
/// finite), about one in a hundred an edge value (NaN, infinities, signed
/// zeros) for floats; small integers otherwise.
pub(crate) fn inputs(t: DType, dims: &[i64], seed: u64) -> Array {
    let n: i64 = dims.iter().product();
    let mut rng = smelt_hlo::random::SplitMix::new(seed);
    let mut next = move || rng.next_u64();
    let specials = [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -0.0, 0.0];
    let v: Vec<f64> = (0..n)
        .map(|_| {
            let r = next();
            if t.is_float() && r.is_multiple_of(97) {
                specials[(r / 97 % specials.len() as u64) as usize]
            } else if t.is_float() {
                0.9 + ((r >> 8) % 2001) as f64 / 10000.0 - 0.05
            } else {
                ((r >> 8) % 19) as f64 - 9.0
            }
        })
        .collect();
    array_of(t, dims, &v)
}

/// Lowers `hlo` (as written: fusions only where the text has them), runs it on
/// the CPU, in parallel and not, and compares every result with the
/// interpreter (`rel` 0: bit for bit); returns the program.
pub(crate) fn check_hlo(hlo: &str, args: &[Array], rel: f64) -> Program {
    let m = match smelt_hlo::parse_module(hlo) {
        Ok(m) => m,
        Err(e) => panic!("bad test HLO: {e}\n{hlo}"),
    };
    let program = match smelt_kernel::lower_module(&m) {
        Ok(p) => p,
        Err(e) => panic!("lowering failed: {e}\n{hlo}"),
    };
    let want = interp(hlo, args);
    for o in [CompileOptions::default(), CompileOptions { parallel: false, ..Default::default() }] {
        let got = run_with(&program, args, &o);
        assert_eq!(got.len(), want.len());
        for (k, (g, w)) in got.iter().zip(&want).enumerate() {
            assert_close(&format!("result {k} of\n{hlo}"), g, w, rel);
        }
    }
    program
}
