//! Reverse-mode automatic differentiation of HLO modules (`smelt grad`).
//!
//! XLA leaves differentiation to its frontends (JAX, TensorFlow); smelt does it
//! on the IR itself, so any module it can read can be trained, whatever wrote it.
//!
//! Contract: [`grad`] takes a verified module whose entry returns a scalar
//! floating-point loss (or a tuple whose element 0 is one) and the entry
//! parameters to differentiate with respect to. It returns a new module with the
//! same parameters whose entry returns `tuple(loss, d loss / d p...)`, one
//! gradient per chosen parameter in the order given, each of its parameter's
//! shape and type. Calls are inlined first. The forward instructions are kept
//! as written (the backward pass reads them); the backward pass is appended:
//! for each instruction on a path from a chosen parameter to the loss, in
//! reverse topological order, its transpose rule turns the cotangent of its
//! result into cotangents of its operands (vector-Jacobian products), summed
//! where a value has several users. Integer and `pred` values are constants
//! (nothing flows through them: comparisons, conversions to integers, indices).
//! An instruction on such a path without a rule is refused with an error
//! naming it and its opcode; one off every path costs nothing.
//!
//! The rules follow JAX's (`jax/_src/lax`), conventions at kinks included, so
//! gradients agree with `jax.grad` of the same function: `maximum`/`minimum`
//! split the cotangent evenly between tied operands, `reduce` max/min evenly
//! between tied elements, `abs` passes `g` at 0, `clamp` passes the
//! cotangent to the operand strictly inside the bounds, `power`'s exponent
//! gradient is 0 where the base is 0. The output is not optimized: it goes
//! through the ordinary pipeline like any module, so the backward pass is
//! simplified, fused and buffer-assigned with the forward one.
//!
//! Here: [`grad`], the shared reducers, the path analysis and the
//! `Backward` builder; `rules.rs` the per-opcode transpose rules;
//! `control.rs` loops, conditionals and sorts, planned before the
//! computation that uses them is built.

use std::collections::{HashMap, HashSet};

use smelt_hlo::attrs::{
    ComparisonDirection, ConvAttrs, ConvDims, DotDims, GatherAttrs, PadDim, ScatterAttrs, Window, WindowDim,
};
use smelt_hlo::builder::{ComputationBuilder, Reducer, scalar_reducer};
use smelt_hlo::module::{ComputationLayout, NameUniquer};
use smelt_hlo::shape_inference::ShapeError;
use smelt_hlo::{
    Array, ArrayData, ArrayShape, Attrs, CompId, Computation, DType, InstId, Instruction, Literal, Module, Opcode,
    Shape, verify,
};

use crate::inline::CallInliner;
use crate::options::Options;
use crate::pass::{PassContext, PassError, Result, Rewrite};

mod control;
mod rules;
#[cfg(test)]
mod tests;

pub use control::LOOP_STACK_BUDGET;
use control::{CondPlan, LoopPlan, Plans, SortPlan, plan_control};

const PASS: &str = "autodiff";

fn unsupported(message: impl Into<String>) -> PassError {
    PassError::Unsupported { pass: PASS.into(), message: message.into() }
}

/// A rule built an instruction shape inference rejects: a bug in the rule.
fn broken(e: ShapeError) -> PassError {
    PassError::BrokenByPass { pass: PASS.into(), message: e.to_string() }
}

/// The floating-point parameters of `module`'s entry, in parameter order: what
/// `smelt grad` differentiates with respect to by default.
pub fn float_params(module: &Module) -> Vec<u32> {
    let entry = module.comp(module.entry);
    let mut params: Vec<u32> = entry
        .params()
        .into_iter()
        .filter_map(|id| {
            let inst = entry.inst(id);
            let float = inst.shape.as_array().is_some_and(|a| a.dtype.is_float());
            inst.parameter_number().filter(|_| float)
        })
        .collect();
    params.sort_unstable();
    params
}

/// The gradient module of `module` with respect to entry parameters `wrt`
/// (see the module docs).
pub fn grad(module: &Module, wrt: &[u32]) -> Result<Module> {
    verify(module).map_err(|e| PassError::InvalidInput(e.to_string()))?;
    let mut m = module.clone();
    CallInliner.rewrite(&mut m, &mut PassContext::new(Options::default()))?;
    let mut names = NameUniquer::new(&m);
    control::tuple_loop_states(&mut m, &mut names)?;
    control::elementwise_maps(&mut m, &mut names);
    let f = m.comp(m.entry).clone();

    let mut param_ids = Vec::with_capacity(wrt.len());
    for (k, &p) in wrt.iter().enumerate() {
        if wrt[..k].contains(&p) {
            return Err(unsupported(format!("parameter {p} is named twice")));
        }
        let id = f.param(p).ok_or_else(|| {
            unsupported(format!("the entry computation has no parameter {p} (it has {})", f.num_params()))
        })?;
        let shape = &f.inst(id).shape;
        if !shape.as_array().is_some_and(|a| a.dtype.is_float()) {
            return Err(unsupported(format!(
                "parameter {p} ({}) is {shape}: only floating-point arrays have gradients",
                f.inst(id).name
            )));
        }
        param_ids.push(id);
    }

    // The loss: the root, or element 0 of a tuple-shaped root.
    let root = f.root;
    let (loss_slot, loss_shape) = match &f.inst(root).shape {
        Shape::Tuple(elements) => ((root, Some(0)), elements.first().cloned()),
        s => ((root, None), Some(s.clone())),
    };
    let loss_dtype = match loss_shape.as_ref().and_then(Shape::as_array) {
        Some(a) if a.rank() == 0 && a.dtype.is_float() => a.dtype,
        _ => {
            return Err(unsupported(format!(
                "the entry's result must be a floating-point scalar loss or a tuple whose element 0 is one; it is {}",
                f.inst(root).shape
            )));
        }
    };

    let env = Env::new(&mut m, &mut names)?;
    let on_path = on_path(&f, &param_ids, loss_slot.0);
    let entry_id = m.entry;
    let plans = plan_control(&mut m, &mut names, &env, entry_id, &f, &on_path)?;
    let comps = std::mem::take(&mut m.comps);
    let (entry, grads_count) = {
        let mut bw = Backward::new(&comps, &f, f.name.clone(), &on_path, &env, &plans);
        bw.copy_forward(None)?;
        let loss = match loss_slot.1 {
            None => bw.x(root),
            Some(_) if f.inst(root).opcode == Opcode::Tuple => bw.x(f.inst(root).operands[0]),
            Some(_) => bw.b.get_tuple_element(bw.x(root), 0).map_err(broken)?,
        };
        let one = bw.scalar(loss_dtype, 1.0)?;
        bw.ct.insert(loss_slot, one);
        bw.transpose_all()?;
        let mut results = vec![loss];
        for &p in &param_ids {
            let g = match bw.ct.get(&(p, None)) {
                Some(&g) => g,
                None => bw.zeros(bw.f.inst(p).shape.as_array().expect("checked above"))?,
            };
            results.push(g);
        }
        let out = bw.b.tuple(&results).map_err(broken)?;
        (bw.b.build(out).map_err(broken)?, results.len())
    };
    m.comps = comps;
    let mut entry = entry;
    // New instructions get names unused anywhere in the module.
    let kept: HashSet<&str> = f.insts.iter().map(|(_, i)| i.name.as_str()).collect();
    let fresh: Vec<InstId> = entry.insts.ids().filter(|&id| !kept.contains(entry.inst(id).name.as_str())).collect();
    for id in fresh {
        let name = names.make(&entry.inst(id).name);
        entry.inst_mut(id).name = name;
    }
    debug_assert_eq!(grads_count, wrt.len() + 1);
    let result_shape = entry.result_shape().clone();
    m.comps[m.entry] = entry;
    m.config.input_output_alias.clear();
    m.config.buffer_donor.clear();
    if let Some(layout) = &mut m.config.entry_computation_layout {
        *layout = ComputationLayout { params: layout.params.clone(), result: result_shape };
    }
    m.name = format!("{}_grad", m.name);
    verify(&m).map_err(|e| PassError::BrokenByPass { pass: PASS.into(), message: e.to_string() })?;
    Ok(m)
}

/// The reducers and selectors rules call, made once per module (before any
/// builder borrows the module's computations).
struct Env {
    adders: HashMap<DType, CompId>,
    /// Products, when the module reduces (a product's gradient multiplies
    /// exclusive running products).
    multipliers: HashMap<DType, CompId>,
    selectors: HashMap<(DType, ComparisonDirection), CompId>,
    /// `and` over pred, when the module gathers or scatters.
    and_reducer: Option<CompId>,
}

impl Env {
    fn new(m: &mut Module, names: &mut NameUniquer) -> Result<Env> {
        let insts = || m.comps.iter().flat_map(|(_, c)| c.insts.iter().map(|(_, i)| i));
        let mut dtypes: Vec<DType> = insts()
            .flat_map(|i| i.shape.leaves().into_iter().map(|a| a.dtype))
            .filter(|d| d.is_float())
            .collect::<HashSet<_>>()
            .into_iter()
            .collect();
        dtypes.sort_by_key(|d| d.name());
        let windows = insts().any(|i| i.opcode == Opcode::ReduceWindow);
        let products = insts().any(|i| i.opcode == Opcode::Reduce);
        let gathers = insts().any(|i| matches!(i.opcode, Opcode::Gather | Opcode::Scatter));
        let mut add = |comp: Computation, m: &mut Module| {
            let mut comp = comp;
            comp.name = names.make(&comp.name);
            m.comps.alloc(comp)
        };
        let mut env =
            Env { adders: HashMap::new(), multipliers: HashMap::new(), selectors: HashMap::new(), and_reducer: None };
        for dt in dtypes {
            env.adders.insert(dt, add(scalar_reducer(Reducer::Add, dt).map_err(broken)?, m));
            if products {
                env.multipliers.insert(dt, add(scalar_reducer(Reducer::Mul, dt).map_err(broken)?, m));
            }
            if windows {
                for d in [ComparisonDirection::Ge, ComparisonDirection::Le] {
                    env.selectors.insert((dt, d), add(selector(dt, d).map_err(broken)?, m));
                }
            }
        }
        if gathers {
            env.and_reducer = Some(add(scalar_reducer(Reducer::And, DType::Pred).map_err(broken)?, m));
        }
        Ok(env)
    }
}

/// `(T[], T[]) -> pred[]`: `a >= b` (`a <= b`), select-and-scatter's
/// selector for a max (min) window.
fn selector(dtype: DType, d: ComparisonDirection) -> std::result::Result<Computation, ShapeError> {
    let name = if d == ComparisonDirection::Ge { "ge" } else { "le" };
    let mut b = ComputationBuilder::new(format!("{name}_{dtype}"));
    let x = b.parameter(0, Shape::scalar(dtype), "lhs")?;
    let y = b.parameter(1, Shape::scalar(dtype), "rhs")?;
    let r = b.compare(d, x, y)?;
    b.build(r)
}

/// Whether a value carries cotangents (floating point; complex values count,
/// so that a path through them is refused rather than cut).
fn is_float_valued(shape: &Shape) -> bool {
    shape.leaves().iter().any(|a| a.dtype.is_float() || a.dtype.is_complex())
}

/// Instructions that depend on a chosen parameter and that the loss depends on,
/// through floating-point values only.
fn on_path(f: &Computation, params: &[InstId], loss: InstId) -> HashSet<InstId> {
    let order = f.post_order();
    let mut depends: HashSet<InstId> = params.iter().copied().collect();
    for &id in &order {
        let inst = f.inst(id);
        if is_float_valued(&inst.shape) && inst.operands.iter().any(|o| depends.contains(o)) {
            depends.insert(id);
        }
    }
    let mut needed = HashSet::new();
    let mut stack = vec![loss];
    while let Some(id) = stack.pop() {
        if !depends.contains(&id) || !needed.insert(id) {
            continue;
        }
        stack.extend(f.inst(id).operands.iter().copied());
    }
    needed
}

/// A value's cotangent slot: the instruction and, for tuple-shaped ones, the element.
type Slot = (InstId, Option<usize>);

struct Backward<'a> {
    comps: &'a smelt_hlo::Arena<Computation>,
    f: &'a Computation,
    b: ComputationBuilder<'a>,
    /// Forward instruction (in `f`) -> its copy in the new computation.
    fwd: HashMap<InstId, InstId>,
    /// Cotangents accumulated so far, in the new computation.
    ct: HashMap<Slot, InstId>,
    on_path: &'a HashSet<InstId>,
    adders: &'a HashMap<DType, CompId>,
    multipliers: &'a HashMap<DType, CompId>,
    selectors: &'a HashMap<(DType, ComparisonDirection), CompId>,
    /// `and` over pred, when the module gathers or scatters.
    and_reducer: Option<CompId>,
    loops: &'a HashMap<InstId, LoopPlan>,
    sorts: &'a HashMap<InstId, SortPlan>,
    conds: &'a HashMap<InstId, CondPlan>,
    /// Each planned loop's storing forward loop, in the new computation.
    stored: HashMap<InstId, InstId>,
}

impl<'a> Backward<'a> {
    fn new(
        comps: &'a smelt_hlo::Arena<Computation>,
        f: &'a Computation,
        name: String,
        on_path: &'a HashSet<InstId>,
        env: &'a Env,
        plans: &'a Plans,
    ) -> Backward<'a> {
        Backward {
            comps,
            f,
            b: ComputationBuilder::with_computations(name, Some(comps)),
            fwd: HashMap::new(),
            ct: HashMap::new(),
            on_path,
            adders: &env.adders,
            multipliers: &env.multipliers,
            selectors: &env.selectors,
            and_reducer: env.and_reducer,
            loops: &plans.loops,
            conds: &plans.conds,
            sorts: &plans.sorts,
            stored: HashMap::new(),
        }
    }

    /// Copies `f`'s instructions, its parameter 0 bound to `arg` when given
    /// (else copied too); planned loops become their storing loops.
    fn copy_forward(&mut self, arg: Option<InstId>) -> Result<()> {
        for id in self.f.post_order() {
            let inst = self.f.inst(id);
            let operands: Vec<InstId> = inst.operands.iter().map(|o| self.fwd[o]).collect();
            if let (Opcode::Parameter, Some(arg)) = (inst.opcode, arg) {
                self.fwd.insert(id, arg);
                continue;
            }
            if let Some(plan) = self.loops.get(&id) {
                let new = self.stored_loop(id, plan, operands[0])?;
                self.fwd.insert(id, new);
                continue;
            }
            let new = self
                .b
                .add_named(
                    Some(&inst.name),
                    inst.opcode,
                    &operands,
                    inst.attrs.clone(),
                    &inst.called,
                    Some(inst.shape.clone()),
                )
                .map_err(broken)?;
            let extras = self.b.extras_mut(new).map_err(broken)?;
            *extras = (*inst.extras).clone();
            extras.control_predecessors = inst.extras.control_predecessors.iter().map(|c| self.fwd[c]).collect();
            self.fwd.insert(id, new);
        }
        Ok(())
    }

    /// Transposes every instruction on a path, users before operands.
    fn transpose_all(&mut self) -> Result<()> {
        let order = self.f.post_order();
        for &id in order.iter().rev() {
            if self.on_path.contains(&id) {
                self.transpose(id)?;
            }
        }
        Ok(())
    }

    /// The new entry's copy of forward value `id`.
    fn x(&self, id: InstId) -> InstId {
        self.fwd[&id]
    }

    fn array(&self, id: InstId) -> &'a ArrayShape {
        self.f.inst(id).shape.as_array().expect("array-shaped operand")
    }

    fn new_array(&self, id: InstId) -> Result<ArrayShape> {
        Ok(self.b.shape(id).map_err(broken)?.as_array().expect("array value").clone())
    }

    fn scalar(&mut self, dtype: DType, v: f64) -> Result<InstId> {
        let lit = Literal::Array(Array::new([], ArrayData::from_f64(dtype, [v])));
        self.b.constant(lit).map_err(broken)
    }

    fn full(&mut self, dtype: DType, v: f64, dims: &[i64]) -> Result<InstId> {
        let s = self.scalar(dtype, v)?;
        if dims.is_empty() { Ok(s) } else { self.b.broadcast(s, dims, &[]).map_err(broken) }
    }

    fn zeros(&mut self, a: &ArrayShape) -> Result<InstId> {
        self.full(a.dtype, 0.0, &a.dims)
    }

    /// `v` broadcast like `like` (a new-entry value).
    fn full_like(&mut self, like: InstId, v: f64) -> Result<InstId> {
        let a = self.new_array(like)?;
        self.full(a.dtype, v, &a.dims)
    }

    fn un(&mut self, op: Opcode, x: InstId) -> Result<InstId> {
        self.b.unary(op, x).map_err(broken)
    }

    fn bin(&mut self, op: Opcode, x: InstId, y: InstId) -> Result<InstId> {
        self.b.binary(op, x, y).map_err(broken)
    }

    fn mul(&mut self, x: InstId, y: InstId) -> Result<InstId> {
        self.bin(Opcode::Multiply, x, y)
    }

    fn cmp(&mut self, d: ComparisonDirection, x: InstId, y: InstId) -> Result<InstId> {
        self.b.compare(d, x, y).map_err(broken)
    }

    /// `select(p, g, 0)`.
    fn where_(&mut self, p: InstId, g: InstId) -> Result<InstId> {
        let z = self.full_like(g, 0.0)?;
        self.b.select(p, g, z).map_err(broken)
    }

    /// `1.0` where `p`, else `0.0`, of `dtype`.
    fn indicator(&mut self, p: InstId, dtype: DType) -> Result<InstId> {
        self.b.convert(p, dtype).map_err(broken)
    }

    fn sum(&mut self, x: InstId, dims: &[i64]) -> Result<InstId> {
        if dims.is_empty() {
            return Ok(x);
        }
        let dtype = self.new_array(x)?.dtype;
        let zero = self.scalar(dtype, 0.0)?;
        let add = self.adders[&dtype];
        self.b.reduce(&[x], &[zero], dims, add).map_err(broken)
    }

    /// Adds `g` to the cotangent of `slot`, if that value is on a path.
    fn accumulate(&mut self, slot: Slot, g: InstId) -> Result<()> {
        if !self.on_path.contains(&slot.0) {
            return Ok(());
        }
        // A contribution to a scalar operand of a broadcasting op (clamp's bounds,
        // a scalar select predicate's branches) sums over the result.
        let target = match slot.1 {
            None => self.f.inst(slot.0).shape.clone(),
            Some(i) => self.f.inst(slot.0).shape.tuple_elements()[i].clone(),
        };
        let mut g = g;
        if let Some(t) = target.as_array() {
            let have = self.new_array(g)?;
            if have.dims != t.dims {
                if t.rank() == 0 {
                    let all: Vec<i64> = (0..have.rank() as i64).collect();
                    g = self.sum(g, &all)?;
                } else {
                    return Err(unsupported(format!(
                        "internal: cotangent {} for {} ({})",
                        have,
                        self.f.inst(slot.0).name,
                        t
                    )));
                }
            }
            if self.new_array(g)?.dtype != t.dtype {
                g = self.b.convert(g, t.dtype).map_err(broken)?;
            }
        }
        let total = match self.ct.get(&slot) {
            Some(&prev) => self.bin(Opcode::Add, prev, g)?,
            None => g,
        };
        self.ct.insert(slot, total);
        Ok(())
    }

    fn refuse(&self, inst: &Instruction, why: &str) -> PassError {
        unsupported(format!("{} ({}): {why}", inst.name, inst.opcode.name()))
    }
}
