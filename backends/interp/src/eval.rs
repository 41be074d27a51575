//! The evaluator: runs a computation instruction by instruction, in dependency
//! order, dispatching each opcode to its kernel; control flow (call, fusion,
//! while, conditional, map) and tuples live here.
//!
//! Values are held per instruction as `Cow<Literal>`: parameters and constants
//! are borrowed (never copied), computed values owned. A value is dropped after
//! its last use, and a last use may take it by value (tuple elements, loop
//! state, the buffer of dynamic-update-slice) instead of copying. Only
//! instructions the root depends on are evaluated. Every result is checked
//! against the instruction's declared shape, so a malformed module becomes an
//! error at the instruction that produced the mismatch rather than a wrong
//! answer later.

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

use smelt_hlo::{
    Array, ArrayData, ArrayShape, Attrs, CompId, Computation, DType, InstId, Instruction, Literal, Module, Opcode,
    Shape,
};

use crate::Options;
use crate::apply::{Applier, ScalarProgram};
use crate::error::{Fail, InterpError, KResult, invalid, unsupported};
use crate::index::{adims, is_well_formed, make};
use crate::value::{Scalar, as_array, scalar_of};
use crate::{batchnorm, conv, dot, elementwise as ew, gather, reduce, rng, shape_ops, sort};

/// How deeply calls may nest: the verifier's bound on call chains (the entry
/// is not a nested call). Verified modules never recurse; this bounds the
/// native stack when an unverified one does.
const MAX_DEPTH: usize = smelt_hlo::verifier::MAX_CALL_DEPTH;

pub(crate) struct Evaluator<'m> {
    module: &'m Module,
    options: Options,
    depth: Cell<usize>,
    plans: RefCell<HashMap<CompId, Rc<Plan>>>,
    programs: RefCell<HashMap<CompId, Option<Rc<ScalarProgram>>>>,
    /// Counter of the philox stream behind the legacy `rng` op.
    rng_stream: Cell<u64>,
}

/// How to run a computation, worked out once per evaluation: loop bodies and
/// general reducers run many times.
struct Plan {
    /// Parameters by number.
    params: Vec<InstId>,
    /// Instructions the root depends on, operands first.
    order: Vec<InstId>,
    /// Uses of each instruction by `order` (the root counts one more).
    uses: Vec<u32>,
}

impl Plan {
    fn new(comp: &Computation) -> Result<Plan, InterpError> {
        let params = comp.params();
        for (n, &p) in params.iter().enumerate() {
            if comp.insts[p].parameter_number() != Some(n as u32) {
                return Err(InterpError::Malformed {
                    comp: comp.name.clone(),
                    message: format!("parameter numbers are not 0..{}", params.len()),
                });
            }
        }
        let order = live_order(comp)?;
        let mut uses = vec![0u32; comp.insts.capacity()];
        for &id in &order {
            for &op in &comp.insts[id].operands {
                uses[op.index()] += 1;
            }
        }
        uses[comp.root.index()] += 1;
        Ok(Plan { params, order, uses })
    }
}

/// Instructions the root depends on, operands first. Errors on dangling
/// operands and cycles.
pub(crate) fn live_order(comp: &Computation) -> Result<Vec<InstId>, InterpError> {
    let malformed = |message: String| InterpError::Malformed { comp: comp.name.clone(), message };
    if !comp.insts.contains(comp.root) {
        return Err(malformed("the root is not an instruction of the computation".into()));
    }
    // 0 = unseen, 1 = on the stack, 2 = done.
    let mut mark = vec![0u8; comp.insts.capacity()];
    let mut order = Vec::new();
    let mut stack: Vec<(InstId, usize)> = vec![(comp.root, 0)];
    mark[comp.root.index()] = 1;
    while let Some(top) = stack.last_mut() {
        let (id, k) = *top;
        let inst = &comp.insts[id];
        if k < inst.operands.len() {
            top.1 += 1;
            let op = inst.operands[k];
            if !comp.insts.contains(op) {
                return Err(malformed(format!(
                    "operand {k} of '{}' is not an instruction of the computation",
                    inst.name
                )));
            }
            match mark[op.index()] {
                0 => {
                    mark[op.index()] = 1;
                    stack.push((op, 0));
                }
                1 => {
                    return Err(malformed(format!("'{}' depends on itself", inst.name)));
                }
                _ => {}
            }
        } else {
            mark[id.index()] = 2;
            order.push(id);
            stack.pop();
        }
    }
    Ok(order)
}

fn array_shape(inst: &Instruction) -> KResult<&ArrayShape> {
    match &inst.shape {
        Shape::Array(a) => Ok(a),
        Shape::Tuple(_) => invalid!("the result must be an array, not {}", inst.shape),
    }
}

fn arr<'a>(ops: &[&'a Literal], i: usize) -> KResult<&'a Array> {
    match ops.get(i) {
        Some(l) => as_array(l, &format!("operand {i}")),
        None => invalid!("missing operand {i}"),
    }
}

fn arrays<'a>(ops: &[&'a Literal]) -> KResult<Vec<&'a Array>> {
    (0..ops.len()).map(|i| arr(ops, i)).collect()
}

/// A reduction's operands split into its inputs and their init values (the
/// second half).
fn inputs_and_inits<'a>(mut all: Vec<&'a Array>, op: &str) -> KResult<(Vec<&'a Array>, Vec<&'a Array>)> {
    if !all.len().is_multiple_of(2) {
        invalid!("{op} needs as many init values as inputs");
    }
    let inits = all.split_off(all.len() / 2);
    Ok((all, inits))
}

/// The shapes of a literal and a declared shape agree (layouts aside).
fn matches_shape(value: &Literal, shape: &Shape) -> bool {
    match (value, shape) {
        (Literal::Array(a), Shape::Array(s)) => a.dims == s.dims && a.dtype() == s.dtype,
        (Literal::Tuple(t), Shape::Tuple(s)) => t.len() == s.len() && t.iter().zip(s).all(|(v, s)| matches_shape(v, s)),
        _ => false,
    }
}

/// Every array in the literal has dims matching its data.
fn well_formed(value: &Literal) -> bool {
    match value {
        Literal::Array(a) => is_well_formed(a),
        Literal::Tuple(t) => t.iter().all(well_formed),
    }
}

impl<'m> Evaluator<'m> {
    pub(crate) fn new(module: &'m Module, options: &Options) -> Evaluator<'m> {
        Evaluator {
            module,
            options: options.clone(),
            depth: Cell::new(0),
            plans: RefCell::new(HashMap::new()),
            programs: RefCell::new(HashMap::new()),
            rng_stream: Cell::new(0),
        }
    }

    pub(crate) fn comp(&self, id: CompId) -> Result<&'m Computation, InterpError> {
        self.module.comps.get(id).ok_or(InterpError::NoSuchComputation(id.index()))
    }

    /// The compiled scalar program of `comp`, compiled on first use.
    pub(crate) fn program(&self, id: CompId, comp: &Computation) -> Option<Rc<ScalarProgram>> {
        self.programs.borrow_mut().entry(id).or_insert_with(|| ScalarProgram::compile(comp).map(Rc::new)).clone()
    }

    /// Evaluates computation `id` on `args`.
    pub(crate) fn call(&self, id: CompId, args: &[&Literal]) -> Result<Literal, InterpError> {
        let comp = self.comp(id)?;
        let cached = self.plans.borrow().get(&id).cloned();
        let plan = match cached {
            Some(p) => p,
            None => {
                let p = Rc::new(Plan::new(comp)?);
                self.plans.borrow_mut().insert(id, p.clone());
                p
            }
        };
        self.check_args(comp, &plan.params, args)?;
        let mut uses = plan.uses.clone();
        let mut slots: Vec<Option<Cow<'_, Literal>>> = (0..comp.insts.capacity()).map(|_| None).collect();
        for &id in &plan.order {
            let inst = &comp.insts[id];
            let value = self.eval(comp, inst, args, &mut slots, &uses).map_err(|f| f.locate(comp, inst))?;
            if !matches_shape(&value, &inst.shape) {
                return Err(Fail::Invalid(format!(
                    "computed {} but the instruction declares {}",
                    value.shape(),
                    inst.shape
                ))
                .locate(comp, inst));
            }
            for &op in &inst.operands {
                let u = &mut uses[op.index()];
                *u = u.saturating_sub(1);
                if *u == 0 {
                    slots[op.index()] = None;
                }
            }
            slots[id.index()] = Some(value);
        }
        match slots[comp.root.index()].take() {
            Some(v) => Ok(v.into_owned()),
            None => {
                Err(InterpError::Malformed { comp: comp.name.clone(), message: "the root was not evaluated".into() })
            }
        }
    }

    /// Evaluates one instruction of `comp` on the given operand values (for
    /// constant folding).
    pub(crate) fn instruction(
        &self,
        comp_id: CompId,
        id: InstId,
        operands: &[&Literal],
    ) -> Result<Literal, InterpError> {
        let comp = self.comp(comp_id)?;
        let Some(inst) = comp.insts.get(id) else {
            return Err(InterpError::Malformed {
                comp: comp.name.clone(),
                message: format!("instruction {id:?} is not in the computation"),
            });
        };
        let fail = |message: String| Fail::Invalid(message).locate(comp, inst);
        if operands.len() != inst.operands.len() {
            return Err(fail(format!("{} operand values given for {} operands", operands.len(), inst.operands.len())));
        }
        let cap = comp.insts.capacity();
        let mut slots: Vec<Option<Cow<'_, Literal>>> = (0..cap).map(|_| None).collect();
        // Uses never drop to one, so no operand value is moved out.
        let mut uses = vec![2u32; cap];
        for (k, (&op, &v)) in inst.operands.iter().zip(operands).enumerate() {
            let Some(decl) = comp.insts.get(op) else {
                return Err(fail(format!("operand {k} is not in the computation")));
            };
            if !matches_shape(v, &decl.shape) || !well_formed(v) {
                return Err(fail(format!(
                    "operand {k} value {} does not match its declared shape {}",
                    v.shape(),
                    decl.shape
                )));
            }
            if slots[op.index()].is_none() {
                slots[op.index()] = Some(Cow::Borrowed(v));
            }
            uses[op.index()] += 1;
        }
        let value = self.eval(comp, inst, &[], &mut slots, &uses).map_err(|f| f.locate(comp, inst))?;
        if !matches_shape(&value, &inst.shape) {
            return Err(fail(format!("computed {} but the instruction declares {}", value.shape(), inst.shape)));
        }
        Ok(value.into_owned())
    }

    /// Checks argument count and shapes against the parameters.
    fn check_args(&self, comp: &Computation, params: &[InstId], args: &[&Literal]) -> Result<(), InterpError> {
        if params.len() != args.len() {
            return Err(InterpError::ArgumentCount {
                comp: comp.name.clone(),
                expected: params.len(),
                got: args.len(),
            });
        }
        for (index, (&p, arg)) in params.iter().zip(args).enumerate() {
            let param = &comp.insts[p];
            if !matches_shape(arg, &param.shape) || !well_formed(arg) {
                return Err(InterpError::ArgumentShape {
                    comp: comp.name.clone(),
                    index,
                    param: param.name.clone(),
                    expected: param.shape.with_default_layout().to_string(),
                    got: arg.shape().to_string(),
                });
            }
        }
        Ok(())
    }

    /// A nested call, with the depth guard.
    /// Called computation `i` of `inst`, which must be in the module.
    fn called(&self, inst: &Instruction, i: usize) -> KResult<CompId> {
        match inst.called.get(i) {
            Some(&c) if self.module.comps.contains(c) => Ok(c),
            Some(c) => invalid!("called computation #{} is not in the module", c.index()),
            None => invalid!("missing called computation {i}"),
        }
    }

    pub(crate) fn call_nested(&self, id: CompId, args: &[&Literal]) -> KResult<Literal> {
        let d = self.depth.get();
        if d >= MAX_DEPTH {
            return Err(Fail::TooDeep(MAX_DEPTH));
        }
        self.depth.set(d + 1);
        let r = self.call(id, args);
        self.depth.set(d);
        Ok(r?)
    }

    /// Evaluates one instruction.
    fn eval<'a>(
        &self,
        comp: &'m Computation,
        inst: &'m Instruction,
        args: &[&'a Literal],
        slots: &mut [Option<Cow<'a, Literal>>],
        uses: &[u32],
    ) -> KResult<Cow<'a, Literal>>
    where
        'm: 'a,
    {
        // Opcodes that borrow or consume their operands.
        match (inst.opcode, &inst.attrs) {
            (Opcode::Parameter, Attrs::Parameter(n)) => {
                return match args.get(*n as usize) {
                    Some(a) => Ok(Cow::Borrowed(*a)),
                    None => invalid!("parameter {n} has no argument"),
                };
            }
            (Opcode::Constant, Attrs::Constant(lit)) => {
                if !well_formed(lit) {
                    invalid!("constant's dimensions do not match its data");
                }
                let lit: &'m Literal = lit;
                return Ok(Cow::Borrowed(lit));
            }
            (Opcode::GetTupleElement, Attrs::GetTupleElement { index }) => {
                if inst.operands.len() != 1 {
                    invalid!("get-tuple-element takes one operand");
                }
                let op = inst.operands[0];
                let i = usize::try_from(*index).ok();
                let last = uses[op.index()] == 1;
                let Some(slot) = slots[op.index()].as_mut() else {
                    invalid!("operand not evaluated");
                };
                return match slot {
                    Cow::Borrowed(Literal::Tuple(t)) => match i.and_then(|i| t.get(i)) {
                        Some(e) => Ok(Cow::Borrowed(e)),
                        None => invalid!("tuple index {index} out of range"),
                    },
                    Cow::Owned(Literal::Tuple(t)) => {
                        let Some(i) = i.filter(|&i| i < t.len()) else {
                            invalid!("tuple index {index} out of range");
                        };
                        if last {
                            Ok(Cow::Owned(std::mem::replace(&mut t[i], Literal::Tuple(Vec::new()))))
                        } else {
                            Ok(Cow::Owned(t[i].clone()))
                        }
                    }
                    _ => invalid!("operand is not a tuple"),
                };
            }
            (Opcode::Copy | Opcode::OptimizationBarrier | Opcode::AddDependency, _) => {
                // Values are logical, so these pass their (first) operand through.
                if !inst.opcode.arity().accepts(inst.operands.len()) {
                    invalid!("takes {} operands", inst.opcode.arity());
                }
                return pass_through(slots, uses, inst.operands[0]);
            }
            (Opcode::Reshape, _) => {
                if inst.operands.len() != 1 {
                    invalid!("reshape takes one operand");
                }
                let a = match take(slots, uses, inst.operands[0])? {
                    Literal::Array(a) => a,
                    Literal::Tuple(_) => invalid!("operand 0 must be an array"),
                };
                let out = shape_ops::reshape(a, &array_shape(inst)?.dims)?;
                return Ok(Cow::Owned(Literal::Array(out)));
            }
            (Opcode::Tuple, _) => {
                let mut elems = Vec::with_capacity(inst.operands.len());
                for &op in &inst.operands {
                    elems.push(take(slots, uses, op)?);
                }
                return Ok(Cow::Owned(Literal::Tuple(elems)));
            }
            (Opcode::While, _) => {
                if inst.operands.len() != 1 {
                    invalid!("while takes one operand");
                }
                let (cond, body) = (self.called(inst, 0)?, self.called(inst, 1)?);
                let mut state = take(slots, uses, inst.operands[0])?;
                let mut iterations = 0u64;
                loop {
                    let c = self.call_nested(cond, &[&state])?;
                    let go = match &c {
                        Literal::Array(a) if a.dtype() == DType::Pred => scalar_of(a, "condition")?,
                        _ => invalid!("while condition must return pred[], got {}", c.shape()),
                    };
                    if go.as_pred() != Some(true) {
                        break;
                    }
                    iterations += 1;
                    if let Some(limit) = self.options.max_while_iterations
                        && iterations > limit
                    {
                        return Err(Fail::IterationLimit(limit));
                    }
                    state = self.call_nested(body, &[&state])?;
                }
                return Ok(Cow::Owned(state));
            }
            (Opcode::DynamicUpdateSlice, _) => {
                if inst.operands.len() < 2 {
                    invalid!("dynamic-update-slice takes at least two operands");
                }
                let target = match take(slots, uses, inst.operands[0])? {
                    Literal::Array(a) => a,
                    Literal::Tuple(_) => invalid!("operand 0 must be an array"),
                };
                let rest: Vec<&Literal> =
                    inst.operands[1..].iter().map(|&o| operand_ref(slots, o)).collect::<KResult<_>>()?;
                let all = arrays(&rest)?;
                let out = shape_ops::dynamic_update_slice(target, all[0], &all[1..])?;
                return Ok(Cow::Owned(Literal::Array(out)));
            }
            _ => {}
        }
        let ops: Vec<&Literal> = inst.operands.iter().map(|&o| operand_ref(slots, o)).collect::<KResult<_>>()?;
        let value = self.compute(comp, inst, &ops)?;
        Ok(Cow::Owned(value))
    }

    /// Evaluates an instruction whose operands are only read.
    fn compute(&self, comp: &'m Computation, inst: &'m Instruction, ops: &[&Literal]) -> KResult<Literal> {
        use Opcode as O;
        let op = inst.opcode;
        let a = |l: Array| Ok(Literal::Array(l));
        if !inst.opcode.arity().accepts(ops.len()) {
            invalid!("takes {} operands, got {}", inst.opcode.arity(), ops.len());
        }
        match (op, &inst.attrs) {
            (O::Compare, Attrs::Compare { direction, compare_type }) => {
                a(ew::compare(*direction, *compare_type, arr(ops, 0)?, arr(ops, 1)?)?)
            }
            (O::Convert, _) => a(ew::convert(arr(ops, 0)?, array_shape(inst)?.dtype)),
            (O::IsFinite, _) => a(ew::is_finite(arr(ops, 0)?)?),
            (O::ReducePrecision, Attrs::ReducePrecision { exponent_bits, mantissa_bits }) => {
                a(ew::reduce_precision(arr(ops, 0)?, *exponent_bits, *mantissa_bits)?)
            }
            (op, _) if op.is_elementwise_unary() => a(ew::unary(op, arr(ops, 0)?)?),
            (op, _) if op.is_elementwise_binary() => a(ew::binary(op, arr(ops, 0)?, arr(ops, 1)?)?),
            (O::Select, _) => a(ew::select(arr(ops, 0)?, arr(ops, 1)?, arr(ops, 2)?)?),
            (O::Clamp, _) => a(ew::clamp(arr(ops, 0)?, arr(ops, 1)?, arr(ops, 2)?)?),
            (O::BitcastConvert, _) => {
                let s = array_shape(inst)?;
                a(ew::bitcast_convert(arr(ops, 0)?, s.dtype, &s.dims)?)
            }
            (O::Iota, Attrs::Iota { dimension }) => a(shape_ops::iota(array_shape(inst)?, *dimension)?),
            (O::Broadcast, Attrs::Dimensions(d)) => a(shape_ops::broadcast(arr(ops, 0)?, &array_shape(inst)?.dims, d)?),
            (O::Transpose, Attrs::Dimensions(d)) => a(shape_ops::transpose(arr(ops, 0)?, d)?),
            (O::Reverse, Attrs::Dimensions(d)) => a(shape_ops::reverse(arr(ops, 0)?, d)?),
            (O::Slice, Attrs::Slice(s)) => a(shape_ops::slice(arr(ops, 0)?, s)?),
            (O::DynamicSlice, Attrs::DynamicSlice { sizes }) => {
                let all = arrays(ops)?;
                a(shape_ops::dynamic_slice(all[0], &all[1..], sizes)?)
            }
            (O::Concatenate, Attrs::Concatenate { dimension }) => a(shape_ops::concatenate(&arrays(ops)?, *dimension)?),
            (O::Pad, Attrs::Pad(p)) => a(shape_ops::pad(arr(ops, 0)?, arr(ops, 1)?, p)?),
            (O::Bitcast, _) => {
                let from = match comp.insts.get(inst.operands[0]).map(|o| &o.shape) {
                    Some(Shape::Array(s)) => s,
                    _ => invalid!("operand 0 must be an array"),
                };
                a(shape_ops::bitcast(arr(ops, 0)?, from, array_shape(inst)?)?)
            }
            (O::Dot, Attrs::Dot(d)) => a(dot::dot(arr(ops, 0)?, arr(ops, 1)?, d, array_shape(inst)?.dtype)?),
            (O::Convolution, Attrs::Convolution(c)) => {
                a(conv::convolution(arr(ops, 0)?, arr(ops, 1)?, c, array_shape(inst)?.dtype)?)
            }
            (O::Reduce, Attrs::Dimensions(d)) => {
                let (inputs, inits) = inputs_and_inits(arrays(ops)?, "reduce")?;
                reduce::reduce(self, self.called(inst, 0)?, &inputs, &inits, d)
            }
            (O::ReduceWindow, Attrs::Window(w)) => {
                let (inputs, inits) = inputs_and_inits(arrays(ops)?, "reduce-window")?;
                reduce::reduce_window(self, self.called(inst, 0)?, &inputs, &inits, w)
            }
            (O::SelectAndScatter, Attrs::Window(w)) => a(reduce::select_and_scatter(
                self,
                self.called(inst, 0)?,
                self.called(inst, 1)?,
                arr(ops, 0)?,
                arr(ops, 1)?,
                arr(ops, 2)?,
                w,
            )?),
            (O::Gather, Attrs::Gather(g)) => a(gather::gather(arr(ops, 0)?, arr(ops, 1)?, g)?),
            (O::Scatter, Attrs::Scatter(s)) => {
                let all = arrays(ops)?;
                if all.len() % 2 != 1 {
                    invalid!("scatter needs operands, indices and as many update arrays");
                }
                let n = all.len() / 2;
                gather::scatter(self, self.called(inst, 0)?, &all[..n], all[n], &all[n + 1..], s)
            }
            (O::Sort, Attrs::Sort { dimension, .. }) => {
                sort::sort(self, self.called(inst, 0)?, &arrays(ops)?, *dimension)
            }
            (O::TopK, Attrs::TopK { k, largest }) => sort::topk(arr(ops, 0)?, *k, *largest),
            (O::Map, Attrs::Dimensions(_)) => a(self.map(inst, &arrays(ops)?)?),
            (O::Call, _) | (O::Fusion, _) => self.call_nested(self.called(inst, 0)?, ops),
            (O::Conditional, _) => self.conditional(inst, ops),
            (O::RngBitGenerator, Attrs::RngBitGenerator { algorithm }) => {
                let out = match &inst.shape {
                    Shape::Tuple(t) if t.len() == 2 => match &t[1] {
                        Shape::Array(s) => s,
                        _ => invalid!("the random bits must be an array"),
                    },
                    _ => invalid!("the result must be a (state, bits) tuple"),
                };
                rng::rng_bit_generator(*algorithm, arr(ops, 0)?, out)
            }
            (O::Rng, Attrs::Rng { distribution }) => {
                let mut stream = self.rng_stream.get();
                let r = rng::rng(*distribution, arr(ops, 0)?, arr(ops, 1)?, array_shape(inst)?, &mut stream);
                self.rng_stream.set(stream);
                a(r?)
            }
            (O::RngGetAndUpdateState, _) => {
                let s = array_shape(inst)?;
                if s.dtype != DType::U64 || s.dims.as_slice() != [2] {
                    invalid!("rng-get-and-update-state returns u64[2]");
                }
                let v = self.rng_stream.get();
                self.rng_stream.set(v.wrapping_add(1));
                a(make(&[2], smelt_hlo::ArrayData::U64(vec![v, 0])))
            }
            (O::BatchNormInference, Attrs::BatchNorm { epsilon, feature_index }) => {
                a(batchnorm::inference(&arrays(ops)?, *epsilon, *feature_index)?)
            }
            (O::BatchNormTraining, Attrs::BatchNorm { epsilon, feature_index }) => {
                batchnorm::training(&arrays(ops)?, *epsilon, *feature_index)
            }
            (O::BatchNormGrad, Attrs::BatchNorm { epsilon, feature_index }) => {
                batchnorm::grad(&arrays(ops)?, *epsilon, *feature_index)
            }
            (O::PartitionId, _) | (O::ReplicaId, _) => a(Scalar::U32(0).to_array()),
            (O::GetDimensionSize, Attrs::Dimensions(d)) => {
                let x = arr(ops, 0)?;
                match d.first().and_then(|&d| usize::try_from(d).ok()).and_then(|d| x.dims.get(d)) {
                    Some(&n) => a(Scalar::S32(n as i32).to_array()),
                    None => invalid!("get-dimension-size of dimension {d:?} of {}", x.shape()),
                }
            }
            (O::AfterAll, _) => match &inst.shape {
                // Tokens are not modelled; an empty tuple stands in where one was declared.
                Shape::Tuple(t) if t.is_empty() => Ok(Literal::Tuple(Vec::new())),
                _ => unsupported!("after-all (tokens are not modelled)"),
            },
            (O::CustomCall, Attrs::CustomCall(c)) if c.target == "TopK" => self.topk_custom_call(inst, arr(ops, 0)?),
            (O::CustomCall, _) => custom_call(inst, &arrays(ops)?),
            (op, attrs) => invalid!("{op} cannot carry {:?} attributes", attrs.kind()),
        }
    }

    /// XLA's `TopK` custom call: the first `k` of each row of `x` (the
    /// results' last dimension) and their indices after a stable sort of
    /// `(x, iota)` by its comparator of `(a, b, i, j)`.
    fn topk_custom_call(&self, inst: &Instruction, x: &Array) -> KResult<Literal> {
        let (Some(&cmp), Some(&n)) = (inst.called.first(), x.dims.last()) else {
            invalid!("TopK needs a comparator and an operand of rank >= 1");
        };
        let k = match inst.shape.tuple_elements().first().and_then(|v| v.as_array()).and_then(|v| v.dims.last()) {
            Some(&k) if (0..=n).contains(&k) => k,
            _ => invalid!("TopK results {} do not fit an operand {}", inst.shape, x.shape()),
        };
        let last = x.dims.len() as i64 - 1;
        let iota = shape_ops::iota(&ArrayShape::new(DType::S32, &x.dims), last)?;
        let Literal::Tuple(sorted) = sort::sort(self, cmp, &[x, &iota], last)? else {
            invalid!("TopK: the sort gave no tuple");
        };
        let rows = x.len().checked_div(n as usize).unwrap_or(0);
        let picked: Vec<usize> = (0..rows).flat_map(|r| (0..k as usize).map(move |i| r * n as usize + i)).collect();
        let mut dims = x.dims.clone();
        if let Some(d) = dims.last_mut() {
            *d = k;
        }
        let parts = sorted
            .iter()
            .map(|l| Ok(Literal::Array(Array::new(&dims[..], as_array(l, "a TopK result")?.data.gather(&picked)))))
            .collect::<KResult<Vec<_>>>()?;
        Ok(Literal::Tuple(parts))
    }

    /// `conditional`: a pred selects branch 0 (true) or 1 (false); an s32 index
    /// selects its branch, out-of-range indices the last one.
    fn conditional(&self, inst: &Instruction, ops: &[&Literal]) -> KResult<Literal> {
        let sel = scalar_of(arr(ops, 0)?, "branch selector")?;
        let n = inst.called.len();
        if n == 0 || ops.len() != n + 1 {
            invalid!("{n} branches need {} operands, got {}", n + 1, ops.len());
        }
        let branch = match sel {
            Scalar::Pred(p) => {
                if n != 2 {
                    invalid!("a pred selector needs two branches, got {n}");
                }
                if p { 0 } else { 1 }
            }
            Scalar::S32(i) => usize::try_from(i).ok().filter(|&i| i < n).unwrap_or(n - 1),
            other => invalid!("branch selector must be pred or s32, got {}", other.dtype()),
        };
        self.call_nested(inst.called[branch], &ops[branch + 1..branch + 2])
    }

    /// `map`: applies the computation to each element tuple of the operands.
    fn map(&self, inst: &Instruction, ops: &[&Array]) -> KResult<Array> {
        let out = array_shape(inst)?;
        let Some(first) = ops.first() else {
            invalid!("map needs an operand");
        };
        if ops.iter().any(|o| o.dims != first.dims) || out.dims != first.dims {
            invalid!("map operands and result must have one shape");
        }
        let params: Vec<DType> = ops.iter().map(|o| o.dtype()).collect();
        let mut apply = Applier::new(self, self.called(inst, 0)?, &params, &[out.dtype])?;
        let n = first.len();
        let mut data = smelt_hlo::ArrayData::zeros(out.dtype, n);
        let mut args = Vec::with_capacity(ops.len());
        for i in 0..n {
            args.clear();
            args.extend(ops.iter().map(|o| Scalar::get(&o.data, i)));
            apply.call1(&args)?.set(&mut data, i);
        }
        Ok(make(&adims(first), data))
    }
}

/// A reference to an evaluated operand.
fn operand_ref<'s, 'a>(slots: &'s [Option<Cow<'a, Literal>>], op: InstId) -> KResult<&'s Literal> {
    match slots.get(op.index()).and_then(|s| s.as_deref()) {
        Some(l) => Ok(l),
        None => invalid!("operand not evaluated"),
    }
}

/// An operand passed on unchanged: still borrowed if it was, moved at its last
/// use, copied otherwise.
fn pass_through<'a>(slots: &mut [Option<Cow<'a, Literal>>], uses: &[u32], op: InstId) -> KResult<Cow<'a, Literal>> {
    if let Some(Some(Cow::Borrowed(l))) = slots.get(op.index()) {
        return Ok(Cow::Borrowed(*l));
    }
    Ok(Cow::Owned(take(slots, uses, op)?))
}

/// An operand by value: moved out at its last use, copied otherwise.
fn take<'a>(slots: &mut [Option<Cow<'a, Literal>>], uses: &[u32], op: InstId) -> KResult<Literal> {
    let last = uses.get(op.index()) == Some(&1);
    let Some(slot) = slots.get_mut(op.index()) else {
        invalid!("operand not evaluated");
    };
    if last
        && let Some(Cow::Owned(_)) = slot
        && let Some(v) = slot.take()
    {
        return Ok(v.into_owned());
    }
    match slot.as_deref() {
        Some(l) => Ok(l.clone()),
        None => invalid!("operand not evaluated"),
    }
}

/// A custom call to one of the targets `smelt_linalg` implements.
fn custom_call(inst: &Instruction, ops: &[&Array]) -> KResult<Literal> {
    let shapes: Vec<Shape> = ops.iter().map(|a| Shape::Array(a.shape())).collect();
    let call = match smelt_linalg::Call::of_instruction(inst, &shapes.iter().collect::<Vec<_>>()) {
        Ok(c) => c,
        Err(smelt_linalg::LinalgError::UnknownTarget(t)) => unsupported!("custom-call target {t:?}"),
        Err(e @ smelt_linalg::LinalgError::Unsupported { .. }) => unsupported!("{e}"),
        Err(e) => invalid!("{e}"),
    };
    let inputs: Vec<Vec<u8>> = ops.iter().map(|a| a.data.to_le_bytes()).collect();
    let outputs =
        call.run_owned(&inputs.iter().map(|v| &v[..]).collect::<Vec<_>>()).map_err(|e| Fail::Invalid(e.to_string()))?;
    let mut arrays: Vec<Literal> = call
        .result_types()
        .iter()
        .zip(&outputs)
        .map(|((d, s), b)| Literal::Array(Array::new(&s[..], ArrayData::from_le_bytes(*d, b))))
        .collect();
    Ok(match &inst.shape {
        Shape::Tuple(_) => Literal::Tuple(arrays),
        _ => arrays.pop().unwrap_or(Literal::Tuple(Vec::new())),
    })
}
