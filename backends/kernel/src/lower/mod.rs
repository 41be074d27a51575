//! Lowering: an optimized, scheduled module with assigned buffers becomes a
//! [`Program`].
//!
//! Each sequentially executed computation (the entry, while bodies and
//! conditions, conditional branches) becomes a list of [`Step`]s in schedule
//! order. Instructions that only rename storage (parameter, constant, tuple,
//! get-tuple-element, bitcast, reshape, opt-barrier) produce no step: buffer
//! assignment already gave them their operands' buffers. Fusions become kernels
//! ([`kernels`]): loop fusions `Loop` (or `UpdateSlice` when rooted at an in-place
//! dynamic-update-slice), reductions `Reduce`, output fusions a `Dot` or `Conv`
//! step with the epilogue as a `Loop` kernel. Unfused elemental instructions
//! become single-instruction kernels; sort, scatter, select-and-scatter and
//! rng-bit-generator get their own kernel bodies. Control flow follows buffer
//! assignment's contract: while loops copy their initial state in and their body
//! root back (where the buffers differ), conditionals and calls copy their root
//! into their result, and entry results that are not written in place are copied
//! at the end.
//!
//! The elemental emitter ([`elemental`]) turns an instruction at an index into
//! graph nodes, through a builder ([`builder`]) that hash-conses, folds constants
//! and simplifies index arithmetic; [`scalar_fn`] builds reducers, comparators and
//! combiners; [`prune`] drops the nodes a finished graph does not need.

pub mod builder;
mod elemental;
mod kernels;
pub(crate) mod prune;
mod scalar_fn;

use smelt_hlo::{Attrs, CompId, Computation, InstId, Instruction, Module, Opcode, Verified, VerifyError};
use smelt_passes::buffer_assignment::{BufferAssignment, Slot, ValueKey, assign_buffers};
use smelt_passes::schedule::{Schedule, schedule_module};

use crate::ir::{ArrayType, BufRef, Buffer, Kernel, KernelId, Program, Step};
use elemental::{array_type, leaf_shape};
use scalar_fn::ConstTable;

/// Why a module cannot be lowered. Every variant names the computation, the
/// instruction and its opcode.
#[derive(Debug, thiserror::Error)]
pub enum LowerError {
    /// The module given to [`lower_module`] does not verify.
    #[error(transparent)]
    Verify(#[from] VerifyError),
    /// Valid input the kernel form has no lowering for (custom-call, rng,
    /// batch-norm, a dot not in canonical form, ...).
    #[error("in computation '{comp}', instruction '{inst}' ({op}): cannot lower {what}")]
    Unsupported { comp: String, inst: String, op: Opcode, what: String },
    /// Complex values that cannot be lowered to their parts (names the instruction).
    #[error("{0}")]
    Complex(String),
    /// A broken assumption: a bug in the lowering or in the passes before it.
    #[error("internal error lowering computation '{comp}', instruction '{inst}' ({op}): {message}")]
    Internal { comp: String, inst: String, op: Opcode, message: String },
}

pub(crate) type LResult<T> = Result<T, LowerError>;

pub(crate) fn unsupported(comp: &Computation, inst: &Instruction, what: impl Into<String>) -> LowerError {
    LowerError::Unsupported { comp: comp.name.clone(), inst: inst.name.clone(), op: inst.opcode, what: what.into() }
}

pub(crate) fn internal(comp: &Computation, inst: &Instruction, message: impl Into<String>) -> LowerError {
    LowerError::Internal { comp: comp.name.clone(), inst: inst.name.clone(), op: inst.opcode, message: message.into() }
}

/// Lowers a verified module with its schedule and buffer assignment.
pub fn lower(module: &Verified<'_>, schedule: &Schedule, buffers: &BufferAssignment) -> Result<Program, LowerError> {
    let module = module.module();
    let entry = module.entry();
    let mut param_base = Vec::new();
    let mut params = Vec::new();
    for p in entry.params() {
        param_base.push(params.len() as u32);
        params.extend(entry.inst(p).shape.leaves().into_iter().map(array_type));
    }
    let results: Vec<ArrayType> = entry.result_shape().leaves().into_iter().map(array_type).collect();
    let mut lw = Lowerer { module, schedule, buffers, consts: ConstTable::default(), kernels: Vec::new(), param_base };
    let mut steps = lw.sequence(module.entry)?;
    steps.extend(lw.entry_result_copies(&results)?);
    Ok(Program {
        name: module.name.clone(),
        params,
        results,
        temp_bytes: buffers.temp_bytes,
        constants: lw.consts.data,
        kernels: lw.kernels,
        steps,
    })
}

/// Verifies, schedules, assigns buffers and lowers a module that has already been
/// optimized (by `smelt_passes::default_pipeline`). Control flow that shares a
/// computation with other control flow first gets a copy of its own, and a
/// module run as written has its `topk`s (and XLA's `TopK` custom calls)
/// decomposed here (the kernel form sorts; `smelt_passes::topk_decomposer`).
pub fn lower_module(module: &Module) -> Result<Program, LowerError> {
    lower_module_with(module, &LowerOptions::default())
}

/// What lowering may assume about the machine that runs the program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LowerOptions {
    /// The target multiplies and adds with one rounding in one instruction,
    /// so rounded divisions by constants become multiplications
    /// (`crate::division`). Default: true (x86-64 since Haswell, AArch64,
    /// NVIDIA GPUs); without it they stay divisions (a multiply-add would be a
    /// library call).
    pub fused_multiply_add: bool,
}

impl Default for LowerOptions {
    fn default() -> LowerOptions {
        LowerOptions { fused_multiply_add: true }
    }
}

/// [`lower_module`] for a target described by `options`.
pub fn lower_module_with(module: &Module, options: &LowerOptions) -> Result<Program, LowerError> {
    smelt_hlo::verify(module)?;
    // Complex values as their parts (what the pipeline's first pass does).
    let parts;
    let module = if smelt_hlo::complex::has_complex(module) {
        let mut m = module.clone();
        smelt_hlo::complex::lower(&mut m).map_err(|e| LowerError::Complex(e.to_string()))?;
        smelt_hlo::verify(&m)?;
        parts = m;
        &parts
    } else {
        module
    };
    let decomposed;
    let module = if smelt_passes::topk_decomposer::has_topk(module) {
        let mut m = module.clone();
        smelt_passes::topk_decomposer::decompose_topk(&mut m);
        smelt_hlo::verify(&m)?;
        decomposed = m;
        &decomposed
    } else {
        module
    };
    let flat;
    let module = if shared_computations(module).is_empty() {
        module
    } else {
        flat = flatten_call_graph(module);
        &flat
    };
    let verified = smelt_hlo::verify(module)?;
    let schedule = schedule_module(module);
    let buffers = assign_buffers(module, &schedule);
    let mut program = lower(&verified, &schedule, &buffers)?;
    if options.fused_multiply_add {
        crate::legalize::rebuild_graphs(&mut program, true);
    }
    Ok(program)
}

/// Control-flow instructions of sequentially executed computations, in the order
/// they are found from the entry, that run a computation some earlier one runs
/// too: `(computation, instruction)`.
fn shared_computations(module: &Module) -> Vec<(CompId, InstId)> {
    let mut seen = std::collections::HashSet::new();
    let mut shared = Vec::new();
    let mut work = vec![module.entry];
    while let Some(cid) = work.pop() {
        let comp = module.comp(cid);
        for id in comp.post_order() {
            let inst = comp.inst(id);
            if !matches!(inst.opcode, Opcode::While | Opcode::Conditional | Opcode::Call) {
                continue;
            }
            for &c in &inst.called {
                if seen.insert(c) {
                    work.push(c);
                } else if shared.last() != Some(&(cid, id)) {
                    shared.push((cid, id));
                }
            }
        }
    }
    shared
}

/// A copy of `module` in which every control-flow instruction runs computations
/// of its own (XLA's call-graph flattening).
fn flatten_call_graph(module: &Module) -> Module {
    let mut m = module.clone();
    let mut names = smelt_hlo::module::NameUniquer::new(&m);
    let mut claimed = std::collections::HashSet::new();
    let mut work = vec![m.entry];
    while let Some(cid) = work.pop() {
        let ids: Vec<InstId> = m.comp(cid).post_order();
        for id in ids {
            let inst = m.comp(cid).inst(id);
            if !matches!(inst.opcode, Opcode::While | Opcode::Conditional | Opcode::Call) {
                continue;
            }
            let called = inst.called.clone();
            for (k, c) in called.into_iter().enumerate() {
                let own = if claimed.insert(c) {
                    c
                } else {
                    let mut copy = m.comp(c).clone();
                    copy.name = names.make(&copy.name);
                    let new = m.add_computation(copy);
                    claimed.insert(new);
                    m.comp_mut(cid).inst_mut(id).called[k] = new;
                    new
                };
                work.push(own);
            }
        }
    }
    m
}

/// The state of one lowering.
pub(crate) struct Lowerer<'m> {
    pub(crate) module: &'m Module,
    schedule: &'m Schedule,
    buffers: &'m BufferAssignment,
    pub(crate) consts: ConstTable,
    kernels: Vec<Kernel>,
    /// Flattened index of each entry parameter's first leaf.
    param_base: Vec<u32>,
}

/// One copy per move, as a parallel copy when there are several.
fn copies(moves: Vec<(BufRef, BufRef)>) -> Vec<Step> {
    match moves.len() {
        0 => Vec::new(),
        1 => moves.into_iter().map(|(src, dst)| Step::Copy { src, dst }).collect(),
        _ => vec![Step::ParallelCopy { moves }],
    }
}

impl<'m> Lowerer<'m> {
    pub(crate) fn add_kernel(&mut self, kernel: Kernel) -> KernelId {
        self.kernels.push(kernel);
        KernelId(self.kernels.len() as u32 - 1)
    }

    /// The buffer of leaf `leaf` of instruction `id` of sequential computation `cid`.
    pub(crate) fn buf(&mut self, cid: CompId, id: InstId, leaf: usize) -> LResult<BufRef> {
        let comp = self.module.comp(cid);
        let inst = comp.inst(id);
        let ty = leaf_shape(&inst.shape, leaf)
            .map(array_type)
            .ok_or_else(|| internal(comp, inst, format!("result has no leaf {leaf}")))?;
        let key = ValueKey { comp: cid, inst: id, leaf: leaf as u32 };
        let slot = self.buffers.slot(key).ok_or_else(|| internal(comp, inst, "value has no buffer"))?;
        let buffer = match slot {
            Slot::Temp { offset, .. } => Buffer::Temp(offset),
            Slot::Parameter { number, leaf } => {
                let base = self.param_base.get(number as usize).copied();
                Buffer::Param(base.ok_or_else(|| internal(comp, inst, "no such entry parameter"))? + leaf)
            }
            Slot::Output { index } => Buffer::Result(index),
            Slot::Constant { comp: ccid, inst: cinst } => {
                // The set's member that is the constant says which of its leaves this is.
                let set = self.buffers.set(key).ok_or_else(|| internal(comp, inst, "value has no buffer"))?;
                let member = set.members.iter().find(|m| m.comp == ccid && m.inst == cinst);
                let cleaf = member.map_or(0, |m| m.leaf);
                let cinst_ref = self.module.comp(ccid).inst(cinst);
                let Attrs::Constant(lit) = &cinst_ref.attrs else {
                    return Err(internal(comp, inst, "constant slot of a non-constant"));
                };
                let leaves = lit.leaves();
                let arr = leaves.get(cleaf as usize).ok_or_else(|| internal(comp, inst, "constant leaf"))?;
                Buffer::Const(self.consts.get(ccid, cinst, cleaf, arr))
            }
        };
        Ok(BufRef { buffer, ty })
    }

    /// Every leaf of an instruction's result.
    pub(crate) fn bufs_of(&mut self, cid: CompId, id: InstId) -> LResult<Vec<BufRef>> {
        let n = self.module.comp(cid).inst(id).shape.leaves().len();
        (0..n).map(|leaf| self.buf(cid, id, leaf)).collect()
    }

    /// Moves from the leaves of `src` to those of `dst` where their buffers differ.
    fn moves(&mut self, src: (CompId, InstId), dst: (CompId, InstId)) -> LResult<Vec<(BufRef, BufRef)>> {
        let from = self.bufs_of(src.0, src.1)?;
        let to = self.bufs_of(dst.0, dst.1)?;
        if from.len() != to.len() {
            let comp = self.module.comp(dst.0);
            return Err(internal(comp, comp.inst(dst.1), "value and destination differ in leaves"));
        }
        Ok(from.into_iter().zip(to).filter(|(s, d)| s.buffer != d.buffer).collect())
    }

    /// The steps of one sequentially executed computation.
    pub(crate) fn sequence(&mut self, cid: CompId) -> LResult<Vec<Step>> {
        let mut steps = Vec::new();
        for &id in self.schedule.sequence(cid) {
            self.instruction(cid, id, &mut steps)?;
        }
        Ok(steps)
    }

    fn instruction(&mut self, cid: CompId, id: InstId, steps: &mut Vec<Step>) -> LResult<()> {
        let comp = self.module.comp(cid);
        let inst = comp.inst(id);
        use Opcode as O;
        // Nothing to compute into results without elements (control flow still
        // runs: its bodies may have larger values).
        let empty = inst.shape.leaves().iter().all(|a| a.element_count() == 0);
        if empty && !matches!(inst.opcode, O::While | O::Conditional | O::Call) {
            return Ok(());
        }
        // Its operands were computed into their places in its result.
        if self.buffers.in_place_concats.contains(&(cid, id)) {
            return Ok(());
        }
        match inst.opcode {
            // Storage renames: buffer assignment gave them their operands' buffers.
            O::Parameter
            | O::Constant
            | O::Tuple
            | O::GetTupleElement
            | O::Bitcast
            | O::Reshape
            | O::OptimizationBarrier
            | O::AfterAll => {
                if matches!(inst.opcode, O::Bitcast | O::Reshape) {
                    kernels::check_rename(comp, inst)?;
                }
                Ok(())
            }
            O::Copy | O::AddDependency => {
                let moves = self.moves((cid, inst.operands[0]), (cid, id))?;
                steps.extend(moves.into_iter().map(|(src, dst)| Step::Copy { src, dst }));
                Ok(())
            }
            O::Fusion => kernels::fusion(self, cid, id, steps),
            O::Dot | O::Convolution => kernels::contraction(self, cid, id, steps),
            O::Sort => kernels::sort(self, cid, id, steps),
            O::Scatter => kernels::scatter(self, cid, id, steps),
            O::SelectAndScatter => kernels::select_and_scatter(self, cid, id, steps),
            O::RngBitGenerator => kernels::rng_bit_generator(self, cid, id, steps),
            O::While => {
                let (Some(&cond), Some(&body)) = (inst.called.first(), inst.called.get(1)) else {
                    return Err(internal(comp, inst, "while without condition and body"));
                };
                let init = self.moves((cid, inst.operands[0]), (cid, id))?;
                steps.extend(copies(init));
                let cond_steps = self.sequence(cond)?;
                let pred = self.buf(cond, self.module.comp(cond).root, 0)?;
                let body_steps = self.sequence(body)?;
                let update = self.moves((body, self.module.comp(body).root), (cid, id))?;
                steps.push(Step::While { cond: cond_steps, pred, body: body_steps, update });
                Ok(())
            }
            O::Conditional => {
                let index = self.buf(cid, inst.operands[0], 0)?;
                let mut branches = Vec::with_capacity(inst.called.len());
                for &branch in &inst.called {
                    let mut b = self.sequence(branch)?;
                    let out = self.moves((branch, self.module.comp(branch).root), (cid, id))?;
                    b.extend(copies(out));
                    branches.push(b);
                }
                steps.push(Step::Conditional { index, branches });
                Ok(())
            }
            O::Call => {
                let callee = inst.to_apply().ok_or_else(|| internal(comp, inst, "call without a computation"))?;
                steps.extend(self.sequence(callee)?);
                let out = self.moves((callee, self.module.comp(callee).root), (cid, id))?;
                steps.extend(copies(out));
                Ok(())
            }
            O::CustomCall => {
                let shapes: Vec<&smelt_hlo::Shape> = inst.operands.iter().map(|&o| &comp.inst(o).shape).collect();
                let call = match smelt_linalg::Call::of_instruction(inst, &shapes) {
                    Ok(call) => call,
                    Err(smelt_linalg::LinalgError::UnknownTarget(t)) => {
                        let what = format!("custom-call target \"{t}\" (smelt implements no such target)");
                        return Err(unsupported(comp, inst, what));
                    }
                    Err(e) => return Err(unsupported(comp, inst, e.to_string())),
                };
                let inputs = inst.operands.iter().map(|&o| self.buf(cid, o, 0)).collect::<Result<Vec<_>, _>>()?;
                let results = call.result_types().len();
                let outputs = (0..results).map(|i| self.buf(cid, id, i)).collect::<Result<Vec<_>, _>>()?;
                steps.push(Step::CustomCall(Box::new(crate::ir::CustomCallStep { call, inputs, outputs })));
                Ok(())
            }
            O::Rng
            | O::RngGetAndUpdateState
            | O::BatchNormGrad
            | O::BatchNormInference
            | O::BatchNormTraining
            | O::TopK => Err(unsupported(comp, inst, "this operation (expand or rewrite it before lowering)")),
            _ => kernels::single(self, cid, id, steps),
        }
    }

    /// Entry results not written in place: copied from their value's buffer, or
    /// from the donated parameter that holds them.
    fn entry_result_copies(&mut self, results: &[ArrayType]) -> LResult<Vec<Step>> {
        let mut steps = Vec::new();
        for &(leaf, key) in &self.buffers.output_copies {
            let src = self.buf(key.comp, key.inst, key.leaf as usize)?;
            let dst = BufRef { buffer: Buffer::Result(leaf), ty: src.ty.clone() };
            steps.push(Step::Copy { src, dst });
        }
        for &(leaf, param) in &self.buffers.donated_outputs {
            let entry = self.module.entry();
            let ty = results.get(leaf as usize).cloned();
            let base = self.param_base.get(param as usize).copied();
            let (Some(ty), Some(base)) = (ty, base) else {
                return Err(internal(entry, entry.root_inst(), "donated output out of range"));
            };
            let src = BufRef { buffer: Buffer::Param(base), ty: ty.clone() };
            steps.push(Step::Copy { src, dst: BufRef { buffer: Buffer::Result(leaf), ty } });
        }
        Ok(steps)
    }
}
