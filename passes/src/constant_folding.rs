//! Constant folding through the interpreter.
//!
//! Contract: replaces an instruction whose operands are all constants, or
//! broadcasts of constants, by a constant holding its value, computed by the
//! reference interpreter (so folding cannot disagree with execution). A
//! broadcast operand counts as its source for the size of the result it may
//! store (batch normalization's `rsqrt(var + broadcast(eps))` folds, a sum
//! of two broadcast scalars into a large array does not) and at its full
//! size for the memory and work folding takes (a reduction of a huge
//! broadcast stays for run time). Size-capped so folding never
//! blows up compile time or module size: results above
//! `Options::max_fold_elements` elements, or larger than their inputs by more
//! than a small margin, stay unfolded, and so do broadcasts and iotas (cheap to
//! compute, expensive to store), control flow, side effects, random numbers and
//! tuple results. An instruction the interpreter rejects stays as it is.
//! Preserves every result. Assumes a verified module.

use smelt_hlo::{Attrs, CompId, Computation, InstId, Instruction, Literal, Module, Opcode};

use crate::pass::{PassContext, Result, Rewrite};

pub struct ConstantFolding;

/// Results up to this many elements are folded whatever their inputs' size.
const SMALL_RESULT: usize = 64;

impl Rewrite for ConstantFolding {
    const NAME: &'static str = "constant-folding";

    fn rewrite(&mut self, module: &mut Module, cx: &mut PassContext) -> Result<bool> {
        let limit = cx.options.max_fold_elements;
        let mut folded = 0;
        for cid in module.comp_ids() {
            for id in module.comp(cid).post_order() {
                let comp = module.comp(cid);
                let inst = comp.inst(id);
                if !foldable(comp, inst, limit) {
                    continue;
                }
                let Some(value) = evaluate_instruction(module, cid, id) else { continue };
                let comp = module.comp_mut(cid);
                let inst = comp.inst_mut(id);
                inst.opcode = Opcode::Constant;
                inst.operands.clear();
                inst.called.clear();
                inst.attrs = Attrs::Constant(Box::new(value));
                inst.extras.unknown.clear();
                folded += 1;
            }
        }
        Ok(cx.counted("constants_folded", folded))
    }
}

fn foldable(comp: &Computation, inst: &Instruction, limit: usize) -> bool {
    if matches!(
        inst.opcode,
        Opcode::Parameter
            | Opcode::Constant
            | Opcode::Broadcast
            | Opcode::Iota
            | Opcode::While
            | Opcode::Conditional
            | Opcode::Call
            | Opcode::CustomCall
            | Opcode::Rng
            | Opcode::RngBitGenerator
            | Opcode::RngGetAndUpdateState
            | Opcode::AfterAll
            | Opcode::AddDependency
            | Opcode::PartitionId
            | Opcode::ReplicaId
            | Opcode::OptimizationBarrier
            | Opcode::Tuple
            | Opcode::GetTupleElement
    ) || inst.opcode.has_side_effect()
        || inst.operands.is_empty()
        || !inst.extras.control_predecessors.is_empty()
    {
        return false;
    }
    let Some(result) = inst.shape.as_array() else { return false };
    let Some(sources) = inst.operands.iter().map(|&o| constant_source(comp, o)).collect::<Option<Vec<_>>>() else {
        return false;
    };
    let elements = |ids: &[InstId]| -> Vec<usize> {
        ids.iter().filter_map(|&o| comp.inst(o).shape.as_array()).map(|a| a.element_count()).collect()
    };
    let out = result.element_count();
    // Stored: the constants themselves. Materialized: the operands as folding
    // builds them (a broadcast at its full size), which bound memory and work.
    let input: usize = elements(&sources).iter().sum();
    let materialized = elements(&inst.operands);
    if materialized.iter().any(|&n| n > limit) {
        return false;
    }
    // Bound the work too: contractions over large operands stay for run time.
    let work_ok = match inst.opcode {
        Opcode::Dot | Opcode::Convolution | Opcode::ReduceWindow | Opcode::SelectAndScatter => {
            out.saturating_mul(materialized.iter().sum()) <= limit.saturating_mul(64)
        }
        _ => true,
    };
    out <= limit && (out <= SMALL_RESULT || out <= input.saturating_mul(2)) && work_ok
}

/// The constant that operand `o` holds: itself, or the constant it broadcasts.
fn constant_source(comp: &Computation, o: InstId) -> Option<InstId> {
    let inst = comp.inst(o);
    match inst.opcode {
        Opcode::Constant => Some(o),
        Opcode::Broadcast if inst.operands.len() == 1 && comp.inst(inst.operands[0]).opcode == Opcode::Constant => {
            Some(inst.operands[0])
        }
        _ => None,
    }
}

/// The value of one instruction of `cid` whose operands are constants or
/// broadcasts of constants (materialized here).
fn evaluate_instruction(module: &Module, cid: CompId, id: InstId) -> Option<Literal> {
    let comp = module.comp(cid);
    let value = |o: InstId| match &comp.inst(o).attrs {
        Attrs::Constant(value) => Some((**value).clone()),
        _ => None,
    };
    let operands: Option<Vec<Literal>> = comp
        .inst(id)
        .operands
        .iter()
        .map(|&o| {
            let source = constant_source(comp, o)?;
            if source == o {
                return value(o);
            }
            smelt_interp::evaluate_instruction(module, cid, o, &[value(source)?]).ok()
        })
        .collect();
    smelt_interp::evaluate_instruction(module, cid, id, &operands?).ok()
}
