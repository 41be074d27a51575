//! A compiled program in process: Cranelift code plus the host-side driver
//! that runs the program's steps.
//!
//! Kernels are Cranelift functions; library steps call
//! `smelt_runtime::routines`; control flow (`while`, `conditional`), copies and
//! kernel launches are sequenced here, in Rust, reading loop predicates and
//! branch indices from the program's buffers. Buffers are resolved to
//! addresses once per step from the run's parameter, result, constant and
//! arena bases. Parameters the program writes (donated buffers) are copied to
//! buffers the executable owns first, so callers' arrays are never modified.

use std::ffi::c_void;
use std::sync::Mutex;

use cranelift_jit::JITModule;
use smallvec::SmallVec;
use smelt_hlo::{Array, ArrayView, DType, with_data};
use smelt_kernel::{BufRef, Buffer, ConvStep, DotStep, Kernel, KernelBody, Program, Step};
use smelt_runtime::pool;
use smelt_runtime::routines::conv::{ConvSpec, ConvWindow, conv};
use smelt_runtime::routines::dot::{DotShape, dot};
use smelt_runtime::routines::{ScalarFnPtr, sort};

use crate::CompileOptions;
use crate::codegen::{self, KernelFn, Split};
use crate::error::{CraneliftError, Result, invalid};

/// `kernel(bufs, begin, end)`: a pool task.
type KernelPtr = unsafe extern "C" fn(*mut c_void, i64, i64);

/// Kernels of at least this many elements of work run on the thread pool.
const PARALLEL_WORK: i64 = 1 << 15;
/// Elements of work per pool chunk.
const CHUNK_WORK: i64 = 1 << 13;

/// A kernel ready to launch.
enum Launch {
    Fn { entry: KernelPtr, split: Split },
    Sort { less: ScalarFnPtr },
    SelectAndScatter { select: ScalarFnPtr, scatter: ScalarFnPtr },
    Rng,
}

/// The JIT's code; freed when the executable goes.
struct Code(Option<JITModule>);

// SAFETY: after finalization the module is only kept to free its memory; the
// code it holds is immutable and may run on any thread.
unsafe impl Send for Code {}
unsafe impl Sync for Code {}

impl Drop for Code {
    fn drop(&mut self) {
        if let Some(m) = self.0.take() {
            // SAFETY: the executable that holds the code is being dropped, so no
            // function pointer into it is used again.
            unsafe { m.free_memory() };
        }
    }
}

/// What one run needs besides its arguments (runs take turns on it).
struct State {
    arena: Vec<u64>,
    /// Private copies of the parameters the program writes.
    copies: Vec<Option<Vec<u64>>>,
    /// Product scratch for dot and convolution steps with epilogues.
    scratch: Vec<u64>,
}

// SAFETY: the state is only plain memory, used under the executable's mutex.
unsafe impl Send for State {}

/// A compiled program, ready to run.
pub struct Executable {
    program: Program,
    launches: Vec<Launch>,
    constants: Vec<Vec<u64>>,
    state: Mutex<State>,
    // Dropped last: the code the launches point into.
    _code: Code,
}

impl std::fmt::Debug for Executable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Executable").field("name", &self.program.name).finish_non_exhaustive()
    }
}

fn words(bytes: usize) -> Vec<u64> {
    vec![0u64; bytes.div_ceil(8)]
}

/// Every buffer a sequence of steps writes.
fn written(steps: &[Step], out: &mut Vec<Buffer>) {
    for s in steps {
        match s {
            Step::Kernel { outputs, .. } => out.extend(outputs.iter().map(|b| b.buffer)),
            Step::Copy { dst, .. } => out.push(dst.buffer),
            Step::ParallelCopy { moves } => out.extend(moves.iter().map(|m| m.1.buffer)),
            Step::Dot(d) => out.push(d.out.buffer),
            Step::Conv(c) => out.push(c.out.buffer),
            Step::CustomCall(c) => out.extend(c.outputs.iter().map(|b| b.buffer)),
            Step::While { cond, body, update, .. } => {
                written(cond, out);
                written(body, out);
                out.extend(update.iter().map(|m| m.1.buffer));
            }
            Step::Conditional { branches, .. } => branches.iter().for_each(|b| written(b, out)),
        }
    }
}

/// The largest product an epilogue step needs scratch for, in bytes (in
/// the product's type, which an integer product's epilogue may change).
fn scratch_bytes(program: &Program, steps: &[Step]) -> usize {
    let product = |out: &smelt_kernel::BufRef, e| out.ty.element_count() * program.product_dtype(out, e).byte_size();
    steps
        .iter()
        .map(|s| match s {
            Step::Dot(d) if d.epilogue.is_some() => product(&d.out, &d.epilogue),
            Step::Conv(c) if c.epilogue.is_some() => product(&c.out, &c.epilogue),
            Step::While { cond, body, .. } => scratch_bytes(program, cond).max(scratch_bytes(program, body)),
            Step::Conditional { branches, .. } => branches.iter().map(|b| scratch_bytes(program, b)).max().unwrap_or(0),
            _ => 0,
        })
        .max()
        .unwrap_or(0)
}

/// Addresses of one run's buffers.
struct Mem {
    params: Vec<*mut u8>,
    results: Vec<*mut u8>,
    consts: Vec<*mut u8>,
    temp: *mut u8,
    scratch: *mut u8,
}

impl Mem {
    fn at(&self, b: &BufRef) -> Result<*mut u8> {
        let p = match b.buffer {
            Buffer::Param(i) => self.params.get(i as usize).copied(),
            Buffer::Result(i) => self.results.get(i as usize).copied(),
            Buffer::Const(i) => self.consts.get(i as usize).copied(),
            // SAFETY: buffer assignment placed the buffer inside the arena.
            Buffer::Temp(off) => Some(unsafe { self.temp.add(off) }),
        };
        match p {
            Some(p) => Ok(p),
            None => invalid!("buffer {:?} out of range", b.buffer),
        }
    }
}

impl Executable {
    pub(crate) fn new(program: &Program, options: &CompileOptions) -> Result<Executable> {
        let built = codegen::build(program, options, false)?;
        let mut module = built.module;
        module.finalize_definitions().map_err(|e| CraneliftError::Codegen(format!("finalize: {e}")))?;
        let launches = built
            .kernels
            .iter()
            .map(|k| {
                let f = |id| module.get_finalized_function(id);
                // SAFETY (each transmute): the functions were built with exactly
                // these signatures (`codegen`).
                unsafe {
                    match *k {
                        KernelFn::Loop { id, split } => {
                            Launch::Fn { entry: std::mem::transmute::<*const u8, KernelPtr>(f(id)), split }
                        }
                        KernelFn::Sort { less } => {
                            Launch::Sort { less: std::mem::transmute::<*const u8, ScalarFnPtr>(f(less)) }
                        }
                        KernelFn::SelectAndScatter { select, scatter } => Launch::SelectAndScatter {
                            select: std::mem::transmute::<*const u8, ScalarFnPtr>(f(select)),
                            scatter: std::mem::transmute::<*const u8, ScalarFnPtr>(f(scatter)),
                        },
                        KernelFn::Rng => Launch::Rng,
                    }
                }
            })
            .collect();
        let mut w = Vec::new();
        written(&program.steps, &mut w);
        let copies = program
            .params
            .iter()
            .enumerate()
            .map(|(i, t)| w.contains(&Buffer::Param(i as u32)).then(|| words(t.byte_size())))
            .collect();
        let constants = program
            .constants
            .iter()
            .map(|c| {
                let mut v = words(c.bytes.len());
                // SAFETY: `v` has room for the bytes.
                unsafe { std::ptr::copy_nonoverlapping(c.bytes.as_ptr(), v.as_mut_ptr().cast::<u8>(), c.bytes.len()) };
                v
            })
            .collect();
        let state =
            State { arena: words(program.temp_bytes), copies, scratch: words(scratch_bytes(program, &program.steps)) };
        Ok(Executable {
            program: program.clone(),
            launches,
            constants,
            state: Mutex::new(state),
            _code: Code(Some(module)),
        })
    }

    pub fn name(&self) -> &str {
        &self.program.name
    }
}

impl smelt_kernel::Executable for Executable {
    fn signature(&self) -> smelt_kernel::Signature<'_> {
        smelt_kernel::Signature::of("cranelift", &self.program)
    }

    /// Runs on views of caller-owned memory (no copies unless the program
    /// writes a parameter in place).
    fn execute(&self, args: &[ArrayView<'_>]) -> std::result::Result<Vec<Array>, smelt_kernel::BackendError> {
        let params = &self.program.params;
        let mut outs: Vec<Array> = self.program.results.iter().map(|t| Array::zeros(t.dtype, &t.dims)).collect();
        let mut guard = self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let st = &mut *guard;
        // XLA CPU's floating-point environment, for the kernels and the Rust
        // routines alike (restored when this returns).
        let _fpenv = smelt_runtime::fpenv::FlushSubnormals::enter();
        let mut param_ptrs = Vec::with_capacity(args.len());
        for (i, a) in args.iter().enumerate() {
            let src: *const u8 = a.as_ptr();
            match st.copies.get_mut(i).and_then(|c| c.as_mut()) {
                Some(copy) => {
                    let dst = copy.as_mut_ptr().cast::<u8>();
                    // SAFETY: the argument holds its type's bytes (checked by the trait)
                    // and the copy was sized for them.
                    unsafe { std::ptr::copy_nonoverlapping(src, dst, params[i].byte_size()) };
                    param_ptrs.push(dst);
                }
                None => param_ptrs.push(src as *mut u8),
            }
        }
        let mem = Mem {
            params: param_ptrs,
            results: outs.iter_mut().map(|o| with_data!(&mut o.data, v => v.as_mut_ptr().cast::<u8>())).collect(),
            consts: self.constants.iter().map(|c| c.as_ptr() as *mut u8).collect(),
            temp: st.arena.as_mut_ptr().cast(),
            scratch: st.scratch.as_mut_ptr().cast(),
        };
        self.steps(&self.program.steps, &mem).map_err(smelt_kernel::BackendError::backend)?;
        Ok(outs)
    }
}

impl Executable {
    fn steps(&self, steps: &[Step], mem: &Mem) -> Result<()> {
        for s in steps {
            match s {
                Step::Kernel { kernel, inputs, outputs } => {
                    let ptrs: SmallVec<[*mut u8; 8]> =
                        inputs.iter().chain(outputs).map(|b| mem.at(b)).collect::<Result<_>>()?;
                    self.launch(kernel.0 as usize, &ptrs)?;
                }
                Step::Copy { src, dst } => {
                    let n = src.ty.byte_size().min(dst.ty.byte_size());
                    // SAFETY: both buffers hold `n` bytes; `copy` allows overlap.
                    unsafe { std::ptr::copy(mem.at(src)?, mem.at(dst)?, n) };
                }
                Step::ParallelCopy { moves } => self.parallel_copy(moves, mem)?,
                Step::Dot(d) => self.dot(d, mem)?,
                Step::Conv(c) => self.conv(c, mem)?,
                Step::CustomCall(c) => custom_call(c, mem)?,
                Step::While { cond, pred, body, update } => loop {
                    self.steps(cond, mem)?;
                    // SAFETY: the predicate buffer holds one pred byte.
                    if unsafe { *mem.at(pred)? } == 0 {
                        break;
                    }
                    self.steps(body, mem)?;
                    self.parallel_copy(update, mem)?;
                },
                Step::Conditional { index, branches } => {
                    if branches.is_empty() {
                        invalid!("conditional without branches");
                    }
                    let p = mem.at(index)?;
                    let last = branches.len() - 1;
                    let b = match index.ty.dtype {
                        // SAFETY: the index buffer holds one element of its type.
                        DType::Pred => usize::from(unsafe { *p } == 0).min(last),
                        DType::S32 => {
                            let i = unsafe { p.cast::<i32>().read_unaligned() };
                            if i < 0 || i as usize > last { last } else { i as usize }
                        }
                        t => invalid!("conditional index of type {t}"),
                    };
                    self.steps(&branches[b], mem)?;
                }
            }
        }
        Ok(())
    }

    fn parallel_copy(&self, moves: &[(BufRef, BufRef)], mem: &Mem) -> Result<()> {
        if moves.len() == 1 {
            let (src, dst) = &moves[0];
            // SAFETY: as for `Step::Copy`.
            unsafe { std::ptr::copy(mem.at(src)?, mem.at(dst)?, src.ty.byte_size().min(dst.ty.byte_size())) };
            return Ok(());
        }
        let mut staged = Vec::with_capacity(moves.len());
        for (src, _) in moves {
            let n = src.ty.byte_size();
            let mut v = vec![0u8; n];
            // SAFETY: the source holds `n` bytes.
            unsafe { std::ptr::copy_nonoverlapping(mem.at(src)?, v.as_mut_ptr(), n) };
            staged.push(v);
        }
        for ((_, dst), v) in moves.iter().zip(staged) {
            // SAFETY: the destination holds the source's bytes.
            unsafe { std::ptr::copy_nonoverlapping(v.as_ptr(), mem.at(dst)?, v.len().min(dst.ty.byte_size())) };
        }
        Ok(())
    }

    fn kernel(&self, k: usize) -> Result<(&Kernel, &Launch)> {
        match (self.program.kernels.get(k), self.launches.get(k)) {
            (Some(kernel), Some(l)) => Ok((kernel, l)),
            _ => invalid!("kernel k{k} out of range"),
        }
    }

    fn launch(&self, k: usize, ptrs: &[*mut u8]) -> Result<()> {
        let (kernel, launch) = self.kernel(k)?;
        if ptrs.len() != kernel.inputs.len() + kernel.outputs.len() {
            invalid!("kernel k{k} launched with {} buffers", ptrs.len());
        }
        let ni = kernel.inputs.len();
        let run_err =
            |e: smelt_runtime::routines::RoutineError| CraneliftError::Run(format!("k{k} '{}': {e}", kernel.name));
        match (launch, &kernel.body) {
            (Launch::Fn { entry, split }, _) => {
                let ctx = ptrs.as_ptr() as *mut c_void;
                let work = split.n.saturating_mul(split.inner);
                // SAFETY: `entry` reads and writes only the buffers in `ptrs`, within
                // their types, for iterations `[begin, end)` of its split.
                unsafe {
                    if split.parallel && work >= PARALLEL_WORK && split.n > 1 && pool::threads() > 1 {
                        let grain = (CHUNK_WORK / split.inner.max(1)).max(1);
                        pool::smelt_parallel_for(*entry, ctx, split.n, grain);
                    } else {
                        entry(ctx, 0, split.n);
                    }
                }
            }
            (Launch::Sort { less }, KernelBody::Sort { dims, dimension, .. }) => {
                let inputs: Vec<(*const u8, DType)> =
                    kernel.inputs.iter().zip(ptrs).map(|(t, &p)| (p as *const u8, t.dtype)).collect();
                // SAFETY: the buffers have the kernel's types; `less` is its comparator.
                unsafe { sort::sort(dims, *dimension, &inputs, &ptrs[ni..], *less) }.map_err(run_err)?;
            }
            (Launch::SelectAndScatter { select, scatter }, KernelBody::SelectAndScatter { window, .. }) => {
                let ([op, src, init], [out]) = (&kernel.inputs[..], &kernel.outputs[..]) else {
                    invalid!("select-and-scatter k{k} takes operand, source and init, and one output");
                };
                let w: Vec<sort::Window> = window
                    .iter()
                    .map(|s| sort::Window {
                        size: s.size,
                        stride: s.stride,
                        pad_low: s.pad_low,
                        window_dilation: s.window_dilation,
                        base_dilation: s.base_dilation,
                    })
                    .collect();
                if out.dims != op.dims || init.dtype != op.dtype {
                    invalid!("select-and-scatter k{k}: operand, init and output disagree");
                }
                // SAFETY: the buffers have the kernel's types.
                unsafe {
                    sort::select_and_scatter(
                        &op.dims,
                        &w,
                        (ptrs[0], op.dtype),
                        (ptrs[1], src.dtype, &src.dims),
                        ptrs[2],
                        ptrs[3],
                        *select,
                        *scatter,
                    )
                }
                .map_err(run_err)?;
            }
            (Launch::Rng, KernelBody::RngBitGenerator { algorithm }) => {
                let ([state], [new_state, bits]) = (&kernel.inputs[..], &kernel.outputs[..]) else {
                    invalid!("rng-bit-generator k{k} takes a state and gives a state and bits");
                };
                if state.dtype != DType::U64 || new_state != state {
                    invalid!("rng-bit-generator k{k}: the state must be u64[n]");
                }
                // SAFETY: the buffers have the kernel's types.
                unsafe {
                    sort::rng_bit_generator(
                        *algorithm,
                        ptrs[0],
                        state.element_count(),
                        ptrs[1],
                        ptrs[2],
                        bits.dtype,
                        &bits.dims,
                    )
                }
                .map_err(run_err)?;
            }
            _ => invalid!("kernel k{k} compiled for another body"),
        }
        Ok(())
    }

    /// Runs a product step's epilogue on the product in scratch.
    fn epilogue(&self, epilogue: &(smelt_kernel::KernelId, Vec<BufRef>), out: &BufRef, mem: &Mem) -> Result<()> {
        let mut ptrs: SmallVec<[*mut u8; 8]> = SmallVec::new();
        ptrs.push(mem.scratch);
        for b in &epilogue.1 {
            ptrs.push(mem.at(b)?);
        }
        ptrs.push(mem.at(out)?);
        self.launch(epilogue.0.0 as usize, &ptrs)
    }

    fn dot(&self, d: &DotStep, mem: &Mem) -> Result<()> {
        let shape = DotShape {
            batch: d.batch.max(0) as usize,
            m: d.m.max(0) as usize,
            n: d.n.max(0) as usize,
            k: d.k.max(0) as usize,
            lhs_transposed: d.lhs_transposed,
            rhs_transposed: d.rhs_transposed,
        };
        let need = shape.batch * shape.m * shape.n;
        if d.lhs.ty.element_count() != shape.batch * shape.m * shape.k
            || d.rhs.ty.element_count() != shape.batch * shape.k * shape.n
            || d.out.ty.element_count() != need
        {
            invalid!("dot operands do not match b={} m={} n={} k={}", d.batch, d.m, d.n, d.k);
        }
        let dst = if d.epilogue.is_some() { mem.scratch } else { mem.at(&d.out)? };
        // SAFETY: the operands have the checked sizes; the product goes to
        // scratch (sized for it) or to `out`, which no operand shares.
        unsafe {
            let product = self.program.product_dtype(&d.out, &d.epilogue);
            dot(&shape, (mem.at(&d.lhs)?, d.lhs.ty.dtype), (mem.at(&d.rhs)?, d.rhs.ty.dtype), (dst, product))
        }
        .map_err(|e| CraneliftError::Run(format!("dot: {e}")))?;
        if let Some(e) = &d.epilogue {
            self.epilogue(e, &d.out, mem)?;
        }
        Ok(())
    }

    fn conv(&self, c: &ConvStep, mem: &Mem) -> Result<()> {
        if c.window_reversal.len() != c.window.len() {
            invalid!("convolution window and reversal disagree");
        }
        let window = c
            .window
            .iter()
            .zip(&c.window_reversal)
            .map(|(w, &reversal)| ConvWindow {
                size: w.size,
                stride: w.stride,
                pad_low: w.pad_low,
                window_dilation: w.window_dilation,
                base_dilation: w.base_dilation,
                reversal,
            })
            .collect();
        // The output buffer may hold the result with the fused result's dims;
        // the routine writes the natural shape's elements in the same order.
        let Some(out_dims) = c.natural_output_dims() else {
            invalid!("convolution dimension numbers or window do not fit its operands");
        };
        let spec = ConvSpec {
            input_dims: &c.input.ty.dims,
            kernel_dims: &c.kernel.ty.dims,
            output_dims: &out_dims,
            dims: &c.dims,
            window,
            feature_group_count: c.feature_group_count,
            batch_group_count: c.batch_group_count,
        };
        if out_dims.iter().map(|&d| d.max(0) as usize).product::<usize>() != c.out.ty.element_count() {
            invalid!("the convolution's output buffer does not hold its result");
        }
        let dst = if c.epilogue.is_some() { mem.scratch } else { mem.at(&c.out)? };
        // SAFETY: operand sizes come from their buffers' types; the result goes to
        // scratch (sized for it) or to `out`, which no operand shares.
        unsafe {
            conv(
                &spec,
                (mem.at(&c.input)?, c.input.ty.dtype),
                (mem.at(&c.kernel)?, c.kernel.ty.dtype),
                (dst, self.program.product_dtype(&c.out, &c.epilogue)),
            )
        }
        .map_err(|e| CraneliftError::Run(format!("convolution: {e}")))?;
        if let Some(e) = &c.epilogue {
            self.epilogue(e, &c.out, mem)?;
        }
        Ok(())
    }
}

/// A library routine (`smelt_linalg`) on the step's buffers.
fn custom_call(c: &smelt_kernel::CustomCallStep, mem: &Mem) -> Result<()> {
    let mut inputs = Vec::with_capacity(c.inputs.len());
    for b in &c.inputs {
        // SAFETY: the verified program's buffers hold their types' bytes.
        inputs.push(unsafe { std::slice::from_raw_parts(mem.at(b)? as *const u8, b.ty.byte_size()) });
    }
    let mut outputs = Vec::with_capacity(c.outputs.len());
    for b in &c.outputs {
        // SAFETY: as above; a call's results do not overlap its operands.
        outputs.push(unsafe { std::slice::from_raw_parts_mut(mem.at(b)?, b.ty.byte_size()) });
    }
    c.call.run(&inputs, &mut outputs).map_err(|e| CraneliftError::Run(e.to_string()))
}
