//! A compiled program on the device: its PTX module loaded, constants and the
//! temporary arena in device memory, and a host-side driver that walks the
//! program's steps: kernel launches, device copies, cuBLAS products, and
//! `while`/`conditional` control flow (which reads the predicate back to the
//! host, one small copy per test).

use std::borrow::Borrow;
use std::sync::Arc;

use smelt_hlo::{Array, ArrayData, ArrayView};
use smelt_kernel::{BufRef, Buffer, DotStep, Program, Step};

use crate::codegen::{DeviceKernel, DeviceModule};
use crate::error::{GpuError, Result};
use crate::plan::Launch;
use crate::runtime::{Device, DeviceBuffer, Function, Gemm, LoadedModule};

pub struct Executable {
    device: Arc<Device>,
    program: Program,
    _module: LoadedModule,
    /// Per kernel: its entries and launches in order.
    functions: Vec<Option<Entries<Function>>>,
    /// The program's constants on the device (held for their addresses).
    _constants: Vec<DeviceBuffer>,
    /// Their device addresses, as the step driver takes them.
    constant_ptrs: Vec<u64>,
    /// The program's temporaries, then scratch for cuBLAS products with an
    /// epilogue and for staging parallel copies.
    arena: DeviceBuffer,
    scratch_offset: usize,
    /// Parameters some step writes.
    written_params: Vec<bool>,
}

impl std::fmt::Debug for Executable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Executable")
            .field("program", &self.program.name)
            .field("device", &self.device.describe())
            .field("arena_bytes", &self.arena.bytes)
            .finish()
    }
}

/// A kernel's entries in a loaded module (`F`: how the machine calls one).
pub(crate) struct Entries<F> {
    launches: Vec<(F, Launch)>,
    /// Whether they take the scratch pointer after the buffers.
    scratch: bool,
    /// Buffers (inputs and outputs) each launch takes.
    buffers: usize,
}

/// Each launched kernel's entries, found with `lookup` (symbol to function).
pub(crate) fn entries<F>(
    program: &Program,
    module: &[Option<DeviceKernel>],
    mut lookup: impl FnMut(&str) -> Result<F>,
) -> Result<Vec<Option<Entries<F>>>> {
    let mut out = Vec::with_capacity(module.len());
    for k in module {
        out.push(match k {
            Some(k) => Some(Entries {
                launches: k.launches.iter().map(|(s, l)| Ok((lookup(s)?, *l))).collect::<Result<_>>()?,
                scratch: k.strategy.takes_scratch(),
                buffers: program
                    .kernels
                    .get(k.kernel.0 as usize)
                    .map(|kernel| kernel.inputs.len() + kernel.outputs.len())
                    .unwrap_or(0),
            }),
            None => None,
        });
    }
    Ok(out)
}

/// The arena's layout: the scratch offset (after the program's temporaries)
/// and the total size.
pub(crate) fn arena_layout(program: &Program, kernels: &[Option<DeviceKernel>]) -> (usize, usize) {
    let scratch_offset = align(program.temp_bytes);
    let kernel_scratch = kernels.iter().flatten().map(|k| k.scratch_bytes).max().unwrap_or(0);
    (scratch_offset, scratch_offset + scratch_bytes(&program.steps).max(kernel_scratch))
}

/// What the step driver needs of a machine: the CUDA device, or the host
/// simulator (`crate::sim`). Addresses are device addresses as integers.
pub(crate) trait Machine {
    type Func: Copy;
    /// Runs `f` over `launch` with one pointer per buffer (then scratch).
    fn launch(&self, f: Self::Func, launch: Launch, ptrs: &[u64]) -> Result<()>;
    fn copy(&self, dst: u64, src: u64, bytes: usize) -> Result<()>;
    /// Reads `out.len()` bytes at `src`, after the work before it.
    fn read(&self, src: u64, out: &mut [u8]) -> Result<()>;
    fn gemm(&self, g: &Gemm, lhs: u64, rhs: u64, out: u64) -> Result<()>;
}

impl Machine for Device {
    type Func = Function;
    fn launch(&self, f: Function, l: Launch, ptrs: &[u64]) -> Result<()> {
        Device::launch(self, f, l.grid, l.block, ptrs)
    }
    fn copy(&self, dst: u64, src: u64, bytes: usize) -> Result<()> {
        Device::copy(self, dst, src, bytes)
    }
    fn read(&self, src: u64, out: &mut [u8]) -> Result<()> {
        Device::read(self, src, out)
    }
    fn gemm(&self, g: &Gemm, lhs: u64, rhs: u64, out: u64) -> Result<()> {
        Device::gemm(self, g, lhs, rhs, out)
    }
}

/// The host-side step driver: one run of a program's steps on a machine.
pub(crate) struct Driver<'a, M: Machine> {
    pub machine: &'a M,
    pub program: &'a Program,
    pub entries: &'a [Option<Entries<M::Func>>],
    pub constants: &'a [u64],
    /// The arena: temporaries, then scratch at `scratch_offset`.
    pub arena: u64,
    pub scratch_offset: usize,
    pub params: &'a [u64],
    pub results: &'a [u64],
}

/// Scratch bytes the steps need beyond the program's temporaries.
fn scratch_bytes(steps: &[Step]) -> usize {
    steps
        .iter()
        .map(|s| match s {
            Step::Dot(d) if d.epilogue.is_some() => d.out.ty.byte_size(),
            Step::ParallelCopy { moves } => moves.iter().map(|(src, _)| align(src.ty.byte_size())).sum(),
            Step::While { cond, body, update, .. } => scratch_bytes(cond)
                .max(scratch_bytes(body))
                .max(update.iter().map(|(src, _)| align(src.ty.byte_size())).sum()),
            Step::Conditional { branches, .. } => branches.iter().map(|b| scratch_bytes(b)).max().unwrap_or(0),
            _ => 0,
        })
        .max()
        .unwrap_or(0)
}

/// Marks the parameters some step writes.
fn mark_written(steps: &[Step], written: &mut [bool]) {
    fn mark(r: &BufRef, written: &mut [bool]) {
        if let Buffer::Param(i) = r.buffer
            && let Some(w) = written.get_mut(i as usize)
        {
            *w = true;
        }
    }
    for s in steps {
        match s {
            Step::Kernel { outputs, .. } => outputs.iter().for_each(|o| mark(o, written)),
            Step::Copy { dst, .. } => mark(dst, written),
            Step::ParallelCopy { moves } => moves.iter().for_each(|(_, d)| mark(d, written)),
            Step::Dot(d) => mark(&d.out, written),
            Step::Conv(c) => mark(&c.out, written),
            Step::CustomCall(c) => c.outputs.iter().for_each(|b| mark(b, written)),
            Step::While { cond, body, update, .. } => {
                update.iter().for_each(|(_, d)| mark(d, written));
                mark_written(cond, written);
                mark_written(body, written);
            }
            Step::Conditional { branches, .. } => branches.iter().for_each(|b| mark_written(b, written)),
        }
    }
}

fn align(n: usize) -> usize {
    n.div_ceil(256) * 256
}

impl Executable {
    pub(crate) fn new(program: Program, module: &DeviceModule) -> Result<Executable> {
        let device = Device::get()?;
        let loaded = device.load_module(&module.ptx)?;
        let functions = entries(&program, &module.kernels, |name| loaded.function(name))?;
        let mut constants = Vec::with_capacity(program.constants.len());
        for c in &program.constants {
            let b = device.alloc(c.bytes.len())?;
            b.upload(&c.bytes)?;
            constants.push(b);
        }
        let (scratch_offset, arena_bytes) = arena_layout(&program, &module.kernels);
        let arena = device.alloc(arena_bytes)?;
        let mut written_params = vec![false; program.params.len()];
        mark_written(&program.steps, &mut written_params);
        let constant_ptrs = constants.iter().map(DeviceBuffer::ptr).collect();
        Ok(Executable {
            device,
            program,
            _module: loaded,
            functions,
            _constants: constants,
            constant_ptrs,
            arena,
            scratch_offset,
            written_params,
        })
    }

    /// The device this runs on.
    pub fn device(&self) -> String {
        self.device.describe()
    }

    fn check_args(&self, args: &[ArrayView<'_>]) -> Result<()> {
        let params = &self.program.params;
        Ok(smelt_kernel::check_arguments(params, args.iter().map(|a| (a.dtype(), a.dims())))?)
    }

    /// Device buffers for the parameters (holding `args`) and the results.
    fn upload(&self, args: &[ArrayView<'_>]) -> Result<(Vec<DeviceBuffer>, Vec<DeviceBuffer>)> {
        let mut params = Vec::with_capacity(args.len());
        for (a, t) in args.iter().zip(&self.program.params) {
            let b = self.device.alloc(t.byte_size())?;
            // Host memory is little-endian, as the device's.
            b.upload(a.bytes())?;
            params.push(b);
        }
        let results =
            self.program.results.iter().map(|t| self.device.alloc(t.byte_size())).collect::<Result<Vec<_>>>()?;
        Ok((params, results))
    }

    /// Seconds of each of `runs` runs of the steps alone, with `args` copied
    /// to the device once beforehand and one untimed warm-up run: what a
    /// benchmark of the device code measures (as XLA's harness does, with
    /// arguments already on the device), without host transfers.
    pub fn time_device_runs<A: Borrow<Array>>(&self, args: &[A], runs: usize) -> Result<Vec<f64>> {
        self.time_device_until(args, |times| times.len() >= runs.max(1))
    }

    /// As [`Executable::time_device_runs`], running until `done` says the
    /// times so far are enough (asked after each run).
    pub fn time_device_until<A: Borrow<Array>>(
        &self,
        args: &[A],
        mut done: impl FnMut(&[f64]) -> bool,
    ) -> Result<Vec<f64>> {
        let args: Vec<ArrayView<'_>> = args.iter().map(|a| ArrayView::from(a.borrow())).collect();
        self.check_args(&args)?;
        let _guard = self.device.lock.lock().unwrap_or_else(|e| e.into_inner());
        self.device.bind()?;
        let (params, results) = self.upload(&args)?;
        // Parameters the program overwrites (donated buffers) are restored
        // from pristine copies before each run, outside the timing.
        let mut pristine = Vec::new();
        for (i, p) in params.iter().enumerate() {
            if self.written_params.get(i).copied().unwrap_or(false) {
                let copy = self.device.alloc(p.bytes)?;
                self.device.copy(copy.ptr(), p.ptr(), p.bytes)?;
                pristine.push((i, copy));
            }
        }
        self.driver(&params, &results, |d| {
            d.run()?;
            self.device.synchronize()?;
            let mut times = Vec::new();
            loop {
                for (i, copy) in &pristine {
                    self.device.copy(params[*i].ptr(), copy.ptr(), copy.bytes)?;
                }
                self.device.synchronize()?;
                let t = std::time::Instant::now();
                d.run()?;
                self.device.synchronize()?;
                times.push(t.elapsed().as_secs_f64());
                if done(&times) {
                    return Ok(times);
                }
            }
        })
    }

    /// The median of [`Executable::time_device_runs`], in seconds.
    pub fn time_device<A: Borrow<Array>>(&self, args: &[A], runs: usize) -> Result<f64> {
        let mut times = self.time_device_runs(args, runs)?;
        times.sort_by(f64::total_cmp);
        Ok(times[times.len() / 2])
    }

    /// The step driver over this run's buffers.
    fn driver<T>(
        &self,
        params: &[DeviceBuffer],
        results: &[DeviceBuffer],
        f: impl FnOnce(&Driver<'_, Device>) -> Result<T>,
    ) -> Result<T> {
        let params: Vec<u64> = params.iter().map(DeviceBuffer::ptr).collect();
        let results: Vec<u64> = results.iter().map(DeviceBuffer::ptr).collect();
        f(&Driver {
            machine: &*self.device,
            program: &self.program,
            entries: &self.functions,
            constants: &self.constant_ptrs,
            arena: self.arena.ptr(),
            scratch_offset: self.scratch_offset,
            params: &params,
            results: &results,
        })
    }
}

impl smelt_kernel::Executable for Executable {
    fn signature(&self) -> smelt_kernel::Signature<'_> {
        smelt_kernel::Signature::of("gpu", &self.program)
    }

    /// Copies the arguments to the device, runs every step, copies the
    /// results back.
    fn execute(&self, args: &[ArrayView<'_>]) -> std::result::Result<Vec<Array>, smelt_kernel::BackendError> {
        let run = || -> Result<Vec<Array>> {
            let _guard = self.device.lock.lock().unwrap_or_else(|e| e.into_inner());
            self.device.bind()?;
            let (params, results) = self.upload(args)?;
            self.driver(&params, &results, |d| d.run())?;
            let mut out = Vec::with_capacity(results.len());
            for (b, t) in results.iter().zip(&self.program.results) {
                let mut bytes = vec![0u8; t.byte_size()];
                b.download(&mut bytes)?;
                out.push(Array::new(&t.dims, ArrayData::from_le_bytes(t.dtype, &bytes)));
            }
            Ok(out)
        };
        run().map_err(smelt_kernel::BackendError::backend)
    }
}

impl<M: Machine> Driver<'_, M> {
    /// Runs every step.
    pub fn run(&self) -> Result<()> {
        self.steps(&self.program.steps)
    }

    fn addr(&self, r: &BufRef) -> Result<u64> {
        let bad = |what: &str| GpuError::InvalidProgram(format!("{what} out of range"));
        Ok(match r.buffer {
            Buffer::Param(i) => *self.params.get(i as usize).ok_or_else(|| bad("parameter"))?,
            Buffer::Result(i) => *self.results.get(i as usize).ok_or_else(|| bad("result"))?,
            Buffer::Const(i) => *self.constants.get(i as usize).ok_or_else(|| bad("constant"))?,
            Buffer::Temp(off) => {
                if off + r.ty.byte_size() > self.program.temp_bytes {
                    return Err(bad("temporary"));
                }
                self.arena + off as u64
            }
        })
    }

    fn steps(&self, steps: &[Step]) -> Result<()> {
        for s in steps {
            self.step(s)?;
        }
        Ok(())
    }

    fn launch(&self, kernel: u32, bufs: &[&BufRef]) -> Result<()> {
        let ptrs = bufs.iter().map(|b| self.addr(b)).collect::<Result<Vec<_>>>()?;
        self.launch_ptrs(kernel, ptrs)
    }

    /// Runs kernel `kernel`'s launches on buffer addresses (inputs, then outputs).
    fn launch_ptrs(&self, kernel: u32, mut ptrs: Vec<u64>) -> Result<()> {
        let Some(Some(entries)) = self.entries.get(kernel as usize) else {
            return Err(GpuError::InvalidProgram(format!("kernel {kernel} has no device entry")));
        };
        if ptrs.len() != entries.buffers {
            return Err(GpuError::InvalidProgram(format!(
                "kernel {kernel} takes {} buffers, launched with {}",
                entries.buffers,
                ptrs.len()
            )));
        }
        if entries.scratch {
            ptrs.push(self.arena + self.scratch_offset as u64);
        }
        for (func, launch) in &entries.launches {
            self.machine.launch(*func, *launch, &ptrs)?;
        }
        Ok(())
    }

    fn parallel_copy(&self, moves: &[(BufRef, BufRef)]) -> Result<()> {
        let mut staged = Vec::with_capacity(moves.len());
        let mut off = self.scratch_offset;
        for (src, _) in moves {
            let tmp = self.arena + off as u64;
            self.machine.copy(tmp, self.addr(src)?, src.ty.byte_size())?;
            staged.push(tmp);
            off += align(src.ty.byte_size());
        }
        for ((src, dst), tmp) in moves.iter().zip(staged) {
            self.machine.copy(self.addr(dst)?, tmp, src.ty.byte_size())?;
        }
        Ok(())
    }

    fn read_scalar(&self, r: &BufRef) -> Result<i64> {
        let mut b = [0u8; 8];
        let n = r.ty.dtype.byte_size().min(8);
        self.machine.read(self.addr(r)?, &mut b[..n])?;
        Ok(match n {
            1 => b[0] as i8 as i64,
            2 => i16::from_le_bytes([b[0], b[1]]) as i64,
            4 => i32::from_le_bytes([b[0], b[1], b[2], b[3]]) as i64,
            _ => i64::from_le_bytes(b),
        })
    }

    fn dot(&self, d: &DotStep) -> Result<()> {
        let g = Gemm {
            batch: d.batch,
            m: d.m,
            n: d.n,
            k: d.k,
            lhs_transposed: d.lhs_transposed,
            rhs_transposed: d.rhs_transposed,
            lhs: d.lhs.ty.dtype,
            rhs: d.rhs.ty.dtype,
            out: d.out.ty.dtype,
        };
        let (lhs, rhs) = (self.addr(&d.lhs)?, self.addr(&d.rhs)?);
        match &d.epilogue {
            None => self.machine.gemm(&g, lhs, rhs, self.addr(&d.out)?),
            Some((k, extra)) => {
                let product = self.arena + self.scratch_offset as u64;
                self.machine.gemm(&g, lhs, rhs, product)?;
                let mut ptrs = vec![product];
                for b in extra {
                    ptrs.push(self.addr(b)?);
                }
                ptrs.push(self.addr(&d.out)?);
                self.launch_ptrs(k.0, ptrs)
            }
        }
    }

    fn step(&self, s: &Step) -> Result<()> {
        match s {
            Step::Kernel { kernel, inputs, outputs } => {
                let bufs: Vec<&BufRef> = inputs.iter().chain(outputs).collect();
                self.launch(kernel.0, &bufs)
            }
            Step::Copy { src, dst } => self.machine.copy(self.addr(dst)?, self.addr(src)?, src.ty.byte_size()),
            Step::ParallelCopy { moves } => self.parallel_copy(moves),
            Step::Dot(d) => self.dot(d),
            Step::Conv(_) => Err(GpuError::InvalidProgram("a convolution step left after preparation".into())),
            Step::CustomCall(_) => Err(GpuError::InvalidProgram("a custom-call step left after preparation".into())),
            Step::While { cond, pred, body, update } => loop {
                self.steps(cond)?;
                if self.read_scalar(pred)? == 0 {
                    return Ok(());
                }
                self.steps(body)?;
                self.parallel_copy(update)?;
            },
            Step::Conditional { index, branches } => {
                if branches.is_empty() {
                    return Ok(());
                }
                let v = self.read_scalar(index)?;
                let i = if index.ty.dtype == smelt_hlo::DType::Pred {
                    if v != 0 { 0 } else { 1 }
                } else if v < 0 || v as usize >= branches.len() {
                    branches.len() - 1
                } else {
                    v as usize
                };
                self.steps(&branches[i.min(branches.len() - 1)])
            }
        }
    }
}
