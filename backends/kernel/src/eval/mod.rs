//! A reference evaluator of [`Program`]s: the test oracle for the lowering, and a
//! spec for backend authors.
//!
//! It executes the steps exactly as a backend would: over byte buffers (the
//! caller's parameters and results, the constants, and one temporary arena of
//! `temp_bytes` at the offsets buffer assignment chose), so a lowering that reads
//! a value from the wrong place, or a buffer assignment that lets two live values
//! overlap, gives wrong answers here too. Kernels evaluate their graph once per
//! point of their index space, in row-major order, reading inputs straight from
//! the buffers and storing each point's outputs after computing them (which is
//! what makes in-place kernels correct). Every load is bounds-checked: a kernel
//! that would read out of bounds is an error, not a clamp. Dot, convolution,
//! sort, select-and-scatter and rng-bit-generator are computed naively, with the
//! interpreter's accumulation order and semantics.
//!
//! Clarity comes before speed; the corpus still runs in seconds.

mod graph;
mod library;

pub(crate) use graph::FnEval;
use smelt_hlo::{Array, ArrayData};

use crate::ir::{ArrayType, BufRef, Buffer, ConstData, Kernel, KernelBody, Program, Scalar, Step};
use crate::sem;

/// Why a program could not be run.
#[derive(Debug, thiserror::Error)]
pub enum EvalError {
    #[error("the program takes {expected} parameters, {got} given")]
    ParamCount { expected: usize, got: usize },
    #[error("parameter {index}: expected {expected}, got {got}")]
    ParamType { index: usize, expected: String, got: String },
    /// A step or kernel that cannot run as written (names the step or kernel).
    #[error("{place}: {message}")]
    Invalid { place: String, message: String },
}

pub(crate) type EResult<T> = Result<T, EvalError>;

pub(crate) fn invalid<T>(place: &str, message: impl Into<String>) -> EResult<T> {
    Err(EvalError::Invalid { place: place.to_string(), message: message.into() })
}

/// Runs `program` on `params` (flattened entry parameter leaves); returns the
/// flattened entry result leaves. Runs the program as backends see it,
/// legalized (hand-built programs need not be).
pub fn run(program: &Program, params: &[Array]) -> Result<Vec<Array>, EvalError> {
    let mut legal = program.clone();
    crate::legalize(&mut legal);
    let program =
        crate::verify(&legal).map_err(|e| EvalError::Invalid { place: e.place, message: e.message })?.program();
    if params.len() != program.params.len() {
        return Err(EvalError::ParamCount { expected: program.params.len(), got: params.len() });
    }
    let mut mem = Memory {
        params: Vec::with_capacity(params.len()),
        results: program.results.iter().map(|t| vec![0u8; t.byte_size()]).collect(),
        consts: &program.constants,
        temp: vec![0u8; program.temp_bytes],
        scratch: Vec::new(),
    };
    for (index, (p, ty)) in params.iter().zip(&program.params).enumerate() {
        if p.dtype() != ty.dtype || p.dims.as_slice() != ty.dims.as_slice() {
            let got = ArrayType { dtype: p.dtype(), dims: p.dims.to_vec() };
            return Err(EvalError::ParamType { index, expected: ty.to_string(), got: got.to_string() });
        }
        mem.params.push(p.data.to_le_bytes());
    }
    let ex = Executor { program };
    ex.steps(&program.steps, &mut mem)?;
    Ok(program
        .results
        .iter()
        .zip(mem.results)
        .map(|(ty, bytes)| Array::new(&ty.dims, ArrayData::from_le_bytes(ty.dtype, &bytes)))
        .collect())
}

/// Where a kernel operand lives: a program buffer, or the evaluator's scratch
/// area (a contraction's product before its epilogue).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Place {
    Buf(Buffer),
    Scratch,
}

/// All the memory a program touches.
pub(crate) struct Memory<'p> {
    params: Vec<Vec<u8>>,
    results: Vec<Vec<u8>>,
    consts: &'p [ConstData],
    temp: Vec<u8>,
    scratch: Vec<u8>,
}

impl Memory<'_> {
    /// The bytes of `size` at `place`.
    pub(crate) fn bytes(&self, place: Place, size: usize) -> EResult<&[u8]> {
        let (data, offset): (&[u8], usize) = match place {
            Place::Buf(Buffer::Param(n)) => (self.params.get(n as usize).map_or(&[][..], |v| v), 0),
            Place::Buf(Buffer::Result(n)) => (self.results.get(n as usize).map_or(&[][..], |v| v), 0),
            Place::Buf(Buffer::Const(n)) => (self.consts.get(n as usize).map_or(&[][..], |c| &c.bytes), 0),
            Place::Buf(Buffer::Temp(o)) => (&self.temp, o),
            Place::Scratch => (&self.scratch, 0),
        };
        match data.get(offset..offset + size) {
            Some(b) => Ok(b),
            None => invalid(&format!("{place:?}"), format!("{size} bytes at offset {offset} do not fit")),
        }
    }

    pub(crate) fn bytes_mut(&mut self, place: Place, size: usize) -> EResult<&mut [u8]> {
        let (data, offset): (Option<&mut Vec<u8>>, usize) = match place {
            Place::Buf(Buffer::Param(n)) => (self.params.get_mut(n as usize), 0),
            Place::Buf(Buffer::Result(n)) => (self.results.get_mut(n as usize), 0),
            Place::Buf(Buffer::Const(_)) => return invalid(&format!("{place:?}"), "constants are read-only"),
            Place::Buf(Buffer::Temp(o)) => (Some(&mut self.temp), o),
            Place::Scratch => (Some(&mut self.scratch), 0),
        };
        match data.and_then(|d| d.get_mut(offset..offset + size)) {
            Some(b) => Ok(b),
            None => invalid(&format!("{place:?}"), format!("{size} bytes at offset {offset} do not fit")),
        }
    }
}

/// A typed array at a place: what kernels read and write.
#[derive(Clone, Debug)]
pub(crate) struct View {
    pub(crate) place: Place,
    pub(crate) ty: ArrayType,
    strides: Vec<i64>,
}

impl View {
    pub(crate) fn new(place: Place, ty: ArrayType) -> View {
        let mut strides = vec![1i64; ty.dims.len()];
        for i in (0..ty.dims.len().saturating_sub(1)).rev() {
            strides[i] = strides[i + 1] * ty.dims[i + 1].max(0);
        }
        View { place, ty, strides }
    }

    pub(crate) fn of(b: &BufRef) -> View {
        View::new(Place::Buf(b.buffer), b.ty.clone())
    }

    /// The element offset of `index`, if it is in bounds.
    pub(crate) fn offset(&self, index: &[i64]) -> Option<usize> {
        if index.len() != self.ty.dims.len() {
            return None;
        }
        let mut off = 0i64;
        for ((&i, &d), &s) in index.iter().zip(&self.ty.dims).zip(&self.strides) {
            if i < 0 || i >= d {
                return None;
            }
            off += i * s;
        }
        Some(off as usize)
    }

    pub(crate) fn read_at(&self, mem: &Memory<'_>, element: usize) -> EResult<Scalar> {
        let w = self.ty.dtype.byte_size();
        let all = mem.bytes(self.place, self.ty.byte_size())?;
        match all.get(element * w..element * w + w) {
            Some(b) => Ok(sem::read(self.ty.dtype, b)),
            None => invalid(&format!("{:?}", self.place), format!("element {element} out of range")),
        }
    }

    pub(crate) fn write_at(&self, mem: &mut Memory<'_>, element: usize, x: Scalar) -> EResult<()> {
        let w = self.ty.dtype.byte_size();
        if x.dtype() != self.ty.dtype {
            return invalid(&format!("{:?}", self.place), format!("storing {} into {}", x.dtype(), self.ty.dtype));
        }
        let all = mem.bytes_mut(self.place, self.ty.byte_size())?;
        match all.get_mut(element * w..element * w + w) {
            Some(b) => {
                sem::write(x, b);
                Ok(())
            }
            None => invalid(&format!("{:?}", self.place), format!("element {element} out of range")),
        }
    }

    pub(crate) fn read(&self, mem: &Memory<'_>, index: &[i64]) -> EResult<Scalar> {
        match self.offset(index) {
            Some(o) => self.read_at(mem, o),
            None => {
                invalid(&format!("{:?}", self.place), format!("index {index:?} out of bounds of {:?}", self.ty.dims))
            }
        }
    }

    pub(crate) fn write(&self, mem: &mut Memory<'_>, index: &[i64], x: Scalar) -> EResult<()> {
        match self.offset(index) {
            Some(o) => self.write_at(mem, o, x),
            None => {
                invalid(&format!("{:?}", self.place), format!("index {index:?} out of bounds of {:?}", self.ty.dims))
            }
        }
    }
}

/// Calls `f` with every index of `dims` in row-major order.
pub(crate) fn for_each_index(dims: &[i64], mut f: impl FnMut(&[i64]) -> EResult<()>) -> EResult<()> {
    if dims.iter().any(|&d| d <= 0) {
        return Ok(());
    }
    let mut idx = vec![0i64; dims.len()];
    loop {
        f(&idx)?;
        let mut k = dims.len();
        loop {
            if k == 0 {
                return Ok(());
            }
            k -= 1;
            idx[k] += 1;
            if idx[k] < dims[k] {
                break;
            }
            idx[k] = 0;
        }
    }
}

struct Executor<'p> {
    program: &'p Program,
}

impl<'p> Executor<'p> {
    fn kernel(&self, id: crate::ir::KernelId, place: &str) -> EResult<&'p Kernel> {
        match self.program.kernels.get(id.0 as usize) {
            Some(k) => Ok(k),
            None => invalid(place, format!("no kernel {}", id.0)),
        }
    }

    fn steps(&self, steps: &[Step], mem: &mut Memory<'_>) -> EResult<()> {
        for step in steps {
            self.step(step, mem)?;
        }
        Ok(())
    }

    fn step(&self, step: &Step, mem: &mut Memory<'_>) -> EResult<()> {
        match step {
            Step::Kernel { kernel, inputs, outputs } => {
                let k = self.kernel(*kernel, "kernel step")?;
                let ins: Vec<View> = inputs.iter().map(View::of).collect();
                let outs: Vec<View> = outputs.iter().map(View::of).collect();
                run_kernel(k, &ins, &outs, mem)
            }
            Step::Copy { src, dst } => copy(&[(src.clone(), dst.clone())], mem),
            Step::ParallelCopy { moves } => copy(moves, mem),
            Step::Dot(d) => {
                let product = library::dot(d, self.program.product_dtype(&d.out, &d.epilogue), mem)?;
                self.contraction_out(product, &d.out, &d.epilogue, mem)
            }
            Step::Conv(c) => {
                let product = library::conv(c, self.program.product_dtype(&c.out, &c.epilogue), mem)?;
                self.contraction_out(product, &c.out, &c.epilogue, mem)
            }
            Step::CustomCall(c) => {
                let mut inputs = Vec::with_capacity(c.inputs.len());
                for b in &c.inputs {
                    inputs.push(mem.bytes(Place::Buf(b.buffer), b.ty.byte_size())?.to_vec());
                }
                let outputs = match c.call.run_owned(&inputs.iter().map(|v| &v[..]).collect::<Vec<_>>()) {
                    Ok(o) => o,
                    Err(e) => return invalid("custom-call", e.to_string()),
                };
                for (b, bytes) in c.outputs.iter().zip(outputs) {
                    mem.bytes_mut(Place::Buf(b.buffer), b.ty.byte_size())?.copy_from_slice(&bytes);
                }
                Ok(())
            }
            Step::While { cond, pred, body, update } => loop {
                self.steps(cond, mem)?;
                let p = View::of(pred).read_at(mem, 0)?;
                if !sem::is_true(p) {
                    return Ok(());
                }
                self.steps(body, mem)?;
                copy(update, mem)?;
            },
            Step::Conditional { index, branches } => {
                let n = branches.len();
                if n == 0 {
                    return invalid("conditional", "no branches");
                }
                let sel = View::of(index).read_at(mem, 0)?;
                let b = match sel {
                    Scalar::Int(smelt_hlo::DType::Pred, v) => {
                        if v != 0 {
                            0
                        } else {
                            1
                        }
                    }
                    s => usize::try_from(sem::as_i64(s)).ok().filter(|&i| i < n).unwrap_or(n - 1),
                };
                match branches.get(b) {
                    Some(steps) => self.steps(steps, mem),
                    None => invalid("conditional", format!("no branch {b}")),
                }
            }
        }
    }

    /// Stores a contraction's product (row-major accumulator values already
    /// converted to `out`'s type), through its epilogue if it has one.
    fn contraction_out(
        &self,
        product: Vec<Scalar>,
        out: &BufRef,
        epilogue: &Option<(crate::ir::KernelId, Vec<BufRef>)>,
        mem: &mut Memory<'_>,
    ) -> EResult<()> {
        let Some((kid, others)) = epilogue else {
            let view = View::of(out);
            for (i, x) in product.into_iter().enumerate() {
                view.write_at(mem, i, x)?;
            }
            return Ok(());
        };
        // The product stays out of `out`: the epilogue's other inputs may share
        // its buffer (it runs in place of an operand it reads elementwise).
        let k = self.kernel(*kid, "epilogue")?;
        let product_type =
            crate::ArrayType { dtype: self.program.product_dtype(out, epilogue), dims: out.ty.dims.clone() };
        let w = product_type.dtype.byte_size();
        mem.scratch = vec![0u8; product.len() * w];
        for (i, x) in product.into_iter().enumerate() {
            sem::write(x, &mut mem.scratch[i * w..i * w + w]);
        }
        let mut ins = vec![View::new(Place::Scratch, product_type)];
        ins.extend(others.iter().map(View::of));
        run_kernel(k, &ins, &[View::of(out)], mem)
    }
}

/// Copies every source before writing any destination.
fn copy(moves: &[(BufRef, BufRef)], mem: &mut Memory<'_>) -> EResult<()> {
    let mut data = Vec::with_capacity(moves.len());
    for (src, dst) in moves {
        if src.ty.byte_size() != dst.ty.byte_size() {
            return invalid("copy", format!("{} bytes into {}", src.ty.byte_size(), dst.ty.byte_size()));
        }
        data.push(mem.bytes(Place::Buf(src.buffer), src.ty.byte_size())?.to_vec());
    }
    for ((_, dst), bytes) in moves.iter().zip(data) {
        mem.bytes_mut(Place::Buf(dst.buffer), dst.ty.byte_size())?.copy_from_slice(&bytes);
    }
    Ok(())
}

/// Runs one kernel on views of its inputs and outputs.
pub(crate) fn run_kernel(k: &Kernel, inputs: &[View], outputs: &[View], mem: &mut Memory<'_>) -> EResult<()> {
    let place = format!("kernel {}", k.name);
    if inputs.len() != k.inputs.len() || outputs.len() != k.outputs.len() {
        return invalid(&place, "wrong number of inputs or outputs");
    }
    for (v, t) in inputs.iter().zip(&k.inputs).chain(outputs.iter().zip(&k.outputs)) {
        if v.ty != *t {
            return invalid(&place, format!("buffer of type {} where {} is declared", v.ty, t));
        }
    }
    match &k.body {
        KernelBody::Loop { .. }
        | KernelBody::Reduce { .. }
        | KernelBody::Scan { .. }
        | KernelBody::UpdateSlice { .. }
        | KernelBody::Scatter { .. } => graph::run(&place, &k.body, inputs, outputs, mem),
        KernelBody::Sort { dims, dimension, stable: _, comparator } => {
            library::sort(&place, dims, *dimension, comparator, inputs, outputs, mem)
        }
        KernelBody::SelectAndScatter { window, select, scatter } => {
            library::select_and_scatter(&place, window, select, scatter, inputs, outputs, mem)
        }
        KernelBody::RngBitGenerator { algorithm } => {
            library::rng_bit_generator(&place, *algorithm, inputs, outputs, mem)
        }
    }
}
