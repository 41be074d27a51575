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

    let mut names = NameUniquer::new(&m);
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
    selectors: HashMap<DType, CompId>,
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
                env.selectors.insert(dt, add(ge_selector(dt).map_err(broken)?, m));
            }
        }
        if gathers {
            env.and_reducer = Some(add(scalar_reducer(Reducer::And, DType::Pred).map_err(broken)?, m));
        }
        Ok(env)
    }
}

/// Loops are differentiated when their trip count follows from constants, up
/// to this many trips.
const MAX_LOOP_TRIPS: u64 = 1 << 24;

/// The most bytes a loop's stored states may take (trips times the bytes of the
/// state elements the body changes).
pub const LOOP_STACK_BUDGET: u64 = 1 << 30;

/// How one `while` on a differentiated path is differentiated: the forward
/// loop replaced by one that also stores, per iteration, the state elements
/// the body changes (stacked along a new leading dimension, `trips` long);
/// a backward loop that runs the iterations in reverse, each computing the
/// body's vector-Jacobian product at the stored state.
struct LoopPlan {
    trips: u64,
    /// Per state element: whether the body changes it (it is stored).
    variant: Vec<bool>,
    /// Per state element: whether it carries a cotangent.
    float: Vec<bool>,
    fwd_cond: CompId,
    fwd_body: CompId,
    bwd_cond: CompId,
    bwd_body: CompId,
}

impl LoopPlan {
    fn stacked(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.variant.len()).filter(|&k| self.variant[k])
    }

    fn invariant(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.variant.len()).filter(|&k| !self.variant[k])
    }

    fn floats(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.float.len()).filter(|&k| self.float[k])
    }
}

/// How a `conditional` on a differentiated path is differentiated: a backward
/// conditional with the same selector whose branch `j` computes the
/// vector-Jacobian product of forward branch `j` (at its operand, for the
/// cotangent of the result) and returns the cotangents of every branch's
/// operand, zero for the branches not taken.
struct CondPlan {
    branches: Vec<CompId>,
    /// Per branch: its operand's floating-point leaves (the element of a
    /// tuple operand, or `None` for an array operand), in result order.
    leaves: Vec<Vec<(Option<usize>, ArrayShape)>>,
}

/// The control flow of one computation on a differentiated path, planned.
#[derive(Default)]
struct Plans {
    loops: HashMap<InstId, LoopPlan>,
    conds: HashMap<InstId, CondPlan>,
    sorts: HashMap<InstId, SortPlan>,
}

/// How a `sort` on a differentiated path is differentiated: the sort
/// repeated with an iota beside its operands gives the permutation it
/// applied; sorting the cotangents by that permutation puts each back where
/// its element came from.
struct SortPlan {
    /// The forward comparator with two ignored s32 parameters appended.
    with_iota: CompId,
    /// `lhs < rhs` on an s32 key, ignoring the cotangents' parameters.
    by_key: CompId,
}

/// Plans sort `id` of `f`: its two comparators.
fn plan_sort(m: &mut Module, names: &mut NameUniquer, f: &Computation, id: InstId) -> Result<SortPlan> {
    let inst = f.inst(id);
    let cmp = m.comp(inst.called[0]).clone();
    let mut b = ComputationBuilder::new(format!("{}_with_iota", cmp.name));
    let mut map = HashMap::new();
    for cid in cmp.post_order() {
        let i = cmp.inst(cid);
        let new = match i.parameter_number() {
            Some(p) => b.parameter(p, i.shape.clone(), &i.name),
            None => {
                let operands: Vec<InstId> = i.operands.iter().map(|o| map[o]).collect();
                b.add_named(Some(&i.name), i.opcode, &operands, i.attrs.clone(), &i.called, Some(i.shape.clone()))
            }
        }
        .map_err(broken)?;
        map.insert(cid, new);
    }
    let n = cmp.num_params() as u32;
    b.parameter(n, Shape::scalar(DType::S32), "iota_lhs").map_err(broken)?;
    b.parameter(n + 1, Shape::scalar(DType::S32), "iota_rhs").map_err(broken)?;
    let with_iota = b.build(map[&cmp.root]).map_err(broken)?;
    let mut k = ComputationBuilder::new("by_permutation");
    let l = k.parameter(0, Shape::scalar(DType::S32), "lhs").map_err(broken)?;
    let r = k.parameter(1, Shape::scalar(DType::S32), "rhs").map_err(broken)?;
    let operands = match &inst.shape {
        Shape::Tuple(es) => es.clone(),
        s => vec![s.clone()],
    };
    let mut p = 2;
    for e in operands.iter().filter(|e| is_float_valued(e)) {
        let dt = e.as_array().expect("sort operands are arrays").dtype;
        for side in ["lhs", "rhs"] {
            k.parameter(p, Shape::scalar(dt), &format!("ct_{side}")).map_err(broken)?;
            p += 1;
        }
    }
    let lt = k.compare(ComparisonDirection::Lt, l, r).map_err(broken)?;
    let by_key = k.build(lt).map_err(broken)?;
    Ok(SortPlan { with_iota: add_renamed(m, names, with_iota), by_key: add_renamed(m, names, by_key) })
}

/// Plans every `while` and `conditional` of computation `cid` (a copy of which
/// is `f`) on a path.
fn plan_control(
    m: &mut Module,
    names: &mut NameUniquer,
    env: &Env,
    cid: CompId,
    f: &Computation,
    on_path: &HashSet<InstId>,
) -> Result<Plans> {
    let mut plans = Plans::default();
    for id in f.post_order() {
        let inst = f.inst(id);
        if inst.opcode == Opcode::Sort && on_path.contains(&id) {
            plans.sorts.insert(id, plan_sort(m, names, f, id)?);
            continue;
        }
        if inst.opcode == Opcode::Conditional && on_path.contains(&id) {
            let plan = plan_conditional(m, names, env, f, id)?;
            plans.conds.insert(id, plan);
            continue;
        }
        if inst.opcode != Opcode::While || !on_path.contains(&id) {
            continue;
        }
        let refuse = |why: String| unsupported(format!("{} ({}): {why}", inst.name, inst.opcode.name()));
        let (cond_id, body_id) = (inst.called[0], inst.called[1]);
        let trips = crate::while_loop_simplifier::constant_trip_count(m, cid, id, MAX_LOOP_TRIPS).ok_or_else(|| {
            refuse(
                "its trip count does not follow from constants; only loops with a constant trip count \
                 (fori_loop with constant bounds) are differentiated"
                    .into(),
            )
        })?;
        let elements: Vec<ArrayShape> = match &inst.shape {
            Shape::Tuple(es) => es
                .iter()
                .map(|e| e.as_array().cloned().ok_or_else(|| refuse("a loop state with nested tuples".into())))
                .collect::<Result<_>>()?,
            _ => return Err(refuse("a loop state that is not a tuple".into())),
        };
        let body = m.comp(body_id).clone();
        let broot = body.root_inst();
        let variant: Vec<bool> = (0..elements.len())
            .map(|k| {
                let o = body.inst(broot.operands[k]);
                !(o.opcode == Opcode::GetTupleElement
                    && o.attrs == Attrs::GetTupleElement { index: k as i64 }
                    && body.inst(o.operands[0]).opcode == Opcode::Parameter)
            })
            .collect();
        let float: Vec<bool> = elements.iter().map(|a| a.dtype.is_float()).collect();
        let bytes: u64 = elements.iter().zip(&variant).filter(|(_, v)| **v).map(|(a, _)| a.byte_size() as u64).sum();
        if trips.saturating_mul(bytes) > LOOP_STACK_BUDGET {
            return Err(refuse(format!(
                "storing its {trips} iterations' states would take {} bytes, over the {LOOP_STACK_BUDGET}-byte budget",
                trips.saturating_mul(bytes)
            )));
        }
        let plan_shapes = |plan_variant: &[bool]| -> (Shape, Shape) {
            let stacks = elements.iter().zip(plan_variant).filter(|(_, v)| **v).map(|(a, _)| {
                let mut dims = vec![trips as i64];
                dims.extend(a.dims.iter().copied());
                Shape::array(a.dtype, dims)
            });
            let arrays = |it: &mut dyn Iterator<Item = &ArrayShape>| -> Vec<Shape> {
                it.map(|a| Shape::Array(a.clone())).collect()
            };
            let mut aug = arrays(&mut elements.iter());
            aug.push(Shape::scalar(DType::S32));
            aug.extend(stacks.clone());
            let mut bwd = vec![Shape::scalar(DType::S32)];
            bwd.extend(arrays(&mut elements.iter().filter(|a| a.dtype.is_float())));
            bwd.extend(stacks);
            bwd.extend(arrays(&mut elements.iter().zip(plan_variant).filter(|(_, v)| !**v).map(|(a, _)| a)));
            (Shape::Tuple(aug), Shape::Tuple(bwd))
        };
        let (aug_shape, bwd_shape) = plan_shapes(&variant);
        let mut plan = LoopPlan {
            trips,
            variant,
            float,
            fwd_cond: cond_id,
            fwd_body: body_id,
            bwd_cond: cond_id,
            bwd_body: body_id,
        };
        let cond = m.comp(cond_id).clone();
        let fwd_cond = fwd_cond(m, &cond, elements.len(), &aug_shape).map_err(broken)?;
        plan.fwd_cond = add_renamed(m, names, fwd_cond);
        let fwd_body = fwd_body(m, &body, &plan, &elements, &aug_shape).map_err(broken)?;
        plan.fwd_body = add_renamed(m, names, fwd_body);
        let bwd_cond = bwd_cond(&format!("{}_bwd_cond", cond.name), &bwd_shape).map_err(broken)?;
        plan.bwd_cond = add_renamed(m, names, bwd_cond);
        // The body's own loops first: its vector-Jacobian product needs their plans.
        let bparam = body.param(0).expect("a verified loop body has its parameter");
        let body_path = self::on_path(&body, &[bparam], body.root);
        let inner = plan_control(m, names, env, body_id, &body, &body_path)?;
        let bwd_body = bwd_body(m, env, &body, &body_path, &inner, &plan, &elements, &bwd_shape)?;
        plan.bwd_body = add_renamed(m, names, bwd_body);
        plans.loops.insert(id, plan);
    }
    Ok(plans)
}

/// Plans conditional `id` of `f`: each branch's vector-Jacobian product.
fn plan_conditional(
    m: &mut Module,
    names: &mut NameUniquer,
    env: &Env,
    f: &Computation,
    id: InstId,
) -> Result<CondPlan> {
    let inst = f.inst(id);
    let refuse = |why: &str| unsupported(format!("{} ({}): {why}", inst.name, inst.opcode.name()));
    let mut leaves = Vec::with_capacity(inst.called.len());
    for &o in &inst.operands[1..] {
        let ls: Vec<(Option<usize>, ArrayShape)> = match &f.inst(o).shape {
            Shape::Array(a) => a.dtype.is_float().then(|| (None, a.clone())).into_iter().collect(),
            Shape::Tuple(es) => {
                let mut ls = Vec::new();
                for (k, e) in es.iter().enumerate() {
                    match e {
                        Shape::Array(a) if a.dtype.is_float() => ls.push((Some(k), a.clone())),
                        Shape::Array(_) => {}
                        Shape::Tuple(_) => return Err(refuse("a branch operand with nested tuples")),
                    }
                }
                ls
            }
        };
        leaves.push(ls);
    }
    if inst.shape.tuple_elements().iter().any(Shape::is_tuple) {
        return Err(refuse("a result with nested tuples"));
    }
    let mut branches = Vec::with_capacity(inst.called.len());
    for (j, &bid) in inst.called.iter().enumerate() {
        let branch = m.comp(bid).clone();
        let param = branch.param(0).ok_or_else(|| refuse("a branch without a parameter"))?;
        let path = on_path(&branch, &[param], branch.root);
        let inner = plan_control(m, names, env, bid, &branch, &path)?;
        let vjp = branch_vjp(m, env, &branch, &path, &inner, j, &leaves, &inst.shape)?;
        branches.push(add_renamed(m, names, vjp));
    }
    Ok(CondPlan { branches, leaves })
}

/// Branch `j`'s vector-Jacobian product: `(operand, result cotangent)` to the
/// cotangents of every branch's operand leaves (zero but for branch `j`).
#[allow(clippy::too_many_arguments)]
fn branch_vjp(
    m: &Module,
    env: &Env,
    branch: &Computation,
    path: &HashSet<InstId>,
    inner: &Plans,
    j: usize,
    leaves: &[Vec<(Option<usize>, ArrayShape)>],
    result: &Shape,
) -> Result<Computation> {
    let param = branch.param(0).expect("checked by the caller");
    let arg_shape = Shape::Tuple(vec![branch.inst(param).shape.clone(), result.clone()]);
    let mut bw = Backward::new(&m.comps, branch, format!("{}_vjp", branch.name), path, env, inner);
    let p = bw.b.parameter(0, arg_shape, "operand_and_cotangent").map_err(broken)?;
    let x = bw.b.get_tuple_element(p, 0).map_err(broken)?;
    let g = bw.b.get_tuple_element(p, 1).map_err(broken)?;
    bw.copy_forward(Some(x))?;
    match result {
        Shape::Array(_) => {
            bw.ct.insert((branch.root, None), g);
        }
        Shape::Tuple(es) => {
            for (k, e) in es.iter().enumerate() {
                if is_float_valued(e) {
                    let gk = bw.b.get_tuple_element(g, k as i64).map_err(broken)?;
                    bw.ct.insert((branch.root, Some(k)), gk);
                }
            }
        }
    }
    bw.transpose_all()?;
    let mut out = Vec::new();
    for (i, ls) in leaves.iter().enumerate() {
        for (elem, a) in ls {
            let v = match bw.ct.get(&(param, *elem)) {
                Some(&v) if i == j => v,
                _ => bw.zeros(a)?,
            };
            out.push(v);
        }
    }
    let r = bw.b.tuple(&out).map_err(broken)?;
    bw.b.build(r).map_err(broken)
}

/// Adds a computation built here, every name in it made unique in the module.
fn add_renamed(m: &mut Module, names: &mut NameUniquer, mut comp: Computation) -> CompId {
    comp.name = names.make(&comp.name);
    let ids: Vec<InstId> = comp.insts.ids().collect();
    for id in ids {
        let name = names.make(&comp.inst(id).name);
        comp.inst_mut(id).name = name;
    }
    m.comps.alloc(comp)
}

/// Copies `comp`'s instructions into `b`, its parameter 0 bound to `arg`;
/// returns the copy of each instruction.
fn inline(
    b: &mut ComputationBuilder<'_>,
    comp: &Computation,
    arg: InstId,
) -> std::result::Result<HashMap<InstId, InstId>, ShapeError> {
    let mut map = HashMap::new();
    for id in comp.post_order() {
        let inst = comp.inst(id);
        let new = if inst.opcode == Opcode::Parameter {
            arg
        } else {
            let operands: Vec<InstId> = inst.operands.iter().map(|o| map[o]).collect();
            b.add_named(
                Some(&inst.name),
                inst.opcode,
                &operands,
                inst.attrs.clone(),
                &inst.called,
                Some(inst.shape.clone()),
            )?
        };
        map.insert(id, new);
    }
    Ok(map)
}

/// The state elements `0..n` of tuple `p` as a tuple.
fn state_of(b: &mut ComputationBuilder<'_>, p: InstId, n: usize) -> std::result::Result<InstId, ShapeError> {
    let elements = (0..n).map(|k| b.get_tuple_element(p, k as i64)).collect::<std::result::Result<Vec<_>, _>>()?;
    b.tuple(&elements)
}

/// The forward loop's condition over the augmented state: the original one on
/// its first `n` elements.
fn fwd_cond(m: &Module, cond: &Computation, n: usize, aug: &Shape) -> std::result::Result<Computation, ShapeError> {
    let mut b = ComputationBuilder::with_computations(format!("{}_stored", cond.name), Some(&m.comps));
    let p = b.parameter(0, aug.clone(), "state")?;
    let s = state_of(&mut b, p, n)?;
    let map = inline(&mut b, cond, s)?;
    b.build(map[&cond.root])
}

/// The forward loop's body over the augmented state `(state..., t, stacks...)`:
/// the original body, `t + 1`, and the iteration's input state written into
/// row `t` of the stacks.
fn fwd_body(
    m: &Module,
    body: &Computation,
    plan: &LoopPlan,
    elements: &[ArrayShape],
    aug: &Shape,
) -> std::result::Result<Computation, ShapeError> {
    let n = elements.len();
    let mut b = ComputationBuilder::with_computations(format!("{}_stored", body.name), Some(&m.comps));
    let p = b.parameter(0, aug.clone(), "state")?;
    let s = state_of(&mut b, p, n)?;
    let map = inline(&mut b, body, s)?;
    let root = map[&body.root];
    let mut out = (0..n).map(|k| b.get_tuple_element(root, k as i64)).collect::<std::result::Result<Vec<_>, _>>()?;
    let t = b.get_tuple_element(p, n as i64)?;
    let one = b.constant(Literal::Array(Array::scalar(1i32)))?;
    out.push(b.binary(Opcode::Add, t, one)?);
    let zero = b.constant(Literal::Array(Array::scalar(0i32)))?;
    for (j, k) in plan.stacked().enumerate() {
        let stack = b.get_tuple_element(p, (n + 1 + j) as i64)?;
        let x = b.get_tuple_element(p, k as i64)?;
        let mut dims = vec![1];
        dims.extend(elements[k].dims.iter().copied());
        let row = b.reshape(x, &dims)?;
        let mut starts = vec![t];
        starts.extend(std::iter::repeat_n(zero, elements[k].rank()));
        out.push(b.dynamic_update_slice(stack, row, &starts)?);
    }
    let r = b.tuple(&out)?;
    b.build(r)
}

/// The backward loop's condition: iterations left (`t > 0`).
fn bwd_cond(name: &str, bwd: &Shape) -> std::result::Result<Computation, ShapeError> {
    let mut b = ComputationBuilder::new(name);
    let p = b.parameter(0, bwd.clone(), "state")?;
    let t = b.get_tuple_element(p, 0)?;
    let zero = b.constant(Literal::Array(Array::scalar(0i32)))?;
    let r = b.compare(ComparisonDirection::Gt, t, zero)?;
    b.build(r)
}

/// The backward loop's body over `(t, cotangents..., stacks..., invariants...)`:
/// iteration `t - 1`'s input state read back from the stacks, the body
/// recomputed on it, and its vector-Jacobian product taking the cotangents of
/// the iteration's output to those of its input.
#[allow(clippy::too_many_arguments)]
fn bwd_body(
    m: &Module,
    env: &Env,
    body: &Computation,
    body_path: &HashSet<InstId>,
    inner: &Plans,
    plan: &LoopPlan,
    elements: &[ArrayShape],
    bwd: &Shape,
) -> Result<Computation> {
    let n = elements.len();
    let floats: Vec<usize> = plan.floats().collect();
    let stacked: Vec<usize> = plan.stacked().collect();
    let invariant: Vec<usize> = plan.invariant().collect();
    let mut bw = Backward::new(&m.comps, body, format!("{}_bwd", body.name), body_path, env, inner);
    let p = bw.b.parameter(0, bwd.clone(), "state").map_err(broken)?;
    let gte = |bw: &mut Backward<'_>, i: usize| bw.b.get_tuple_element(p, i as i64).map_err(broken);
    let t = gte(&mut bw, 0)?;
    let one = bw.b.constant(Literal::Array(Array::scalar(1i32))).map_err(broken)?;
    let t1 = bw.bin(Opcode::Subtract, t, one)?;
    let zero = bw.b.constant(Literal::Array(Array::scalar(0i32))).map_err(broken)?;
    let mut state = Vec::with_capacity(n);
    for (k, a) in elements.iter().enumerate() {
        let v = match stacked.iter().position(|&s| s == k) {
            Some(j) => {
                let stack = gte(&mut bw, 1 + floats.len() + j)?;
                let mut starts = vec![t1];
                starts.extend(std::iter::repeat_n(zero, a.rank()));
                let mut sizes = vec![1];
                sizes.extend(a.dims.iter().copied());
                let row = bw.b.dynamic_slice(stack, &starts, &sizes).map_err(broken)?;
                bw.b.reshape(row, &a.dims).map_err(broken)?
            }
            None => {
                let j = invariant.iter().position(|&i| i == k).expect("an invariant element");
                gte(&mut bw, 1 + floats.len() + stacked.len() + j)?
            }
        };
        state.push(v);
    }
    let s = bw.b.tuple(&state).map_err(broken)?;
    bw.copy_forward(Some(s))?;
    for (i, &k) in floats.iter().enumerate() {
        let g = gte(&mut bw, 1 + i)?;
        bw.ct.insert((body.root, Some(k)), g);
    }
    bw.transpose_all()?;
    let bparam = body.param(0).expect("a verified loop body has its parameter");
    let mut out = vec![t1];
    for &k in &floats {
        let g = match bw.ct.get(&(bparam, Some(k))) {
            Some(&g) => g,
            None => bw.zeros(&elements[k])?,
        };
        out.push(g);
    }
    for i in 0..stacked.len() + invariant.len() {
        out.push(gte(&mut bw, 1 + floats.len() + i)?);
    }
    let r = bw.b.tuple(&out).map_err(broken)?;
    bw.b.build(r).map_err(broken)
}

/// `(T[], T[]) -> pred[]`: `a >= b`, select-and-scatter's selector for a max window.
fn ge_selector(dtype: DType) -> std::result::Result<Computation, ShapeError> {
    let mut b = ComputationBuilder::new(format!("ge_{dtype}"));
    let x = b.parameter(0, Shape::scalar(dtype), "lhs")?;
    let y = b.parameter(1, Shape::scalar(dtype), "rhs")?;
    let r = b.compare(ComparisonDirection::Ge, x, y)?;
    b.build(r)
}

fn is_float_valued(shape: &Shape) -> bool {
    shape.leaves().iter().any(|a| a.dtype.is_float())
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
    selectors: &'a HashMap<DType, CompId>,
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

    /// The storing forward loop of `id` from initial state `init`; returns the
    /// loop's result as the original loop has it (its first elements).
    fn stored_loop(&mut self, id: InstId, plan: &LoopPlan, init: InstId) -> Result<InstId> {
        let elements = self.f.inst(id).shape.tuple_elements().to_vec();
        let n = elements.len();
        let mut state = Vec::with_capacity(n + 1);
        for k in 0..n {
            state.push(self.b.get_tuple_element(init, k as i64).map_err(broken)?);
        }
        state.push(self.b.constant(Literal::Array(Array::scalar(0i32))).map_err(broken)?);
        for k in plan.stacked() {
            let a = elements[k].as_array().expect("planned loops have array elements");
            let mut dims = vec![plan.trips as i64];
            dims.extend(a.dims.iter().copied());
            state.push(self.full(a.dtype, 0.0, &dims)?);
        }
        let init = self.b.tuple(&state).map_err(broken)?;
        let w = self.b.while_loop(init, plan.fwd_cond, plan.fwd_body).map_err(broken)?;
        self.stored.insert(id, w);
        let mut out = Vec::with_capacity(n);
        for k in 0..n {
            out.push(self.b.get_tuple_element(w, k as i64).map_err(broken)?);
        }
        self.b.tuple(&out).map_err(broken)
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

    /// A planned sort's cotangents sent back through its permutation.
    fn transpose_sort(&mut self, id: InstId) -> Result<()> {
        let inst = self.f.inst(id);
        let plan = &self.sorts[&id];
        let Attrs::Sort { dimension, is_stable } = inst.attrs else { unreachable!("verified sort") };
        let tuple = inst.shape.is_tuple();
        let mut cts = Vec::new();
        for (k, &o) in inst.operands.iter().enumerate() {
            let a = self.array(o);
            if !a.dtype.is_float() {
                continue;
            }
            let slot = (id, tuple.then_some(k));
            let g = match self.ct.get(&slot) {
                Some(&g) => g,
                None => self.zeros(a)?,
            };
            cts.push((o, g));
        }
        let dims = self.array(inst.operands[0]).dims.clone();
        let iota = self.b.iota(Shape::array(DType::S32, &dims), dimension).map_err(broken)?;
        let mut operands: Vec<InstId> = inst.operands.iter().map(|&o| self.x(o)).collect();
        operands.push(iota);
        let attrs = Attrs::Sort { dimension, is_stable };
        let sorted = self.b.add_instruction(Opcode::Sort, &operands, attrs, &[plan.with_iota], None).map_err(broken)?;
        let perm = self.b.get_tuple_element(sorted, inst.operands.len() as i64).map_err(broken)?;
        let mut back_ops = vec![perm];
        back_ops.extend(cts.iter().map(|&(_, g)| g));
        let attrs = Attrs::Sort { dimension, is_stable: true };
        let back = self.b.add_instruction(Opcode::Sort, &back_ops, attrs, &[plan.by_key], None).map_err(broken)?;
        for (i, &(o, _)) in cts.iter().enumerate() {
            let g = self.b.get_tuple_element(back, (i + 1) as i64).map_err(broken)?;
            self.accumulate((o, None), g)?;
        }
        Ok(())
    }

    /// A product's cotangent: `g` times the product of the other elements,
    /// from exclusive running products on either side (no division, so zeros
    /// are exact; JAX's rule).
    fn transpose_product(&mut self, id: InstId, g: InstId) -> Result<()> {
        let inst = self.f.inst(id);
        let x = inst.operands[0];
        let Attrs::Dimensions(dims) = &inst.attrs else { unreachable!("verified reduce") };
        let xs = self.array(x).clone();
        let mut reduced: Vec<i64> = dims.to_vec();
        reduced.sort_unstable();
        let kept: Vec<i64> = (0..xs.rank() as i64).filter(|d| !reduced.contains(d)).collect();
        let perm: Vec<i64> = reduced.iter().chain(&kept).copied().collect();
        let n: i64 = reduced.iter().map(|&d| xs.dims[d as usize]).product();
        let m: i64 = kept.iter().map(|&d| xs.dims[d as usize]).product();
        let xt = self.b.transpose(self.x(x), &perm).map_err(broken)?;
        let moved = self.new_array(xt)?.dims;
        let x2 = self.b.reshape(xt, &[n, m]).map_err(broken)?;
        let one = self.scalar(xs.dtype, 1.0)?;
        let mul = self.multipliers[&xs.dtype];
        let running = |bw: &mut Self, low: i64, high: i64| -> Result<InstId> {
            let w = |size: i64, lo: i64, hi: i64| WindowDim {
                size,
                stride: 1,
                pad_low: lo,
                pad_high: hi,
                window_dilation: 1,
                base_dilation: 1,
                reversal: false,
            };
            let window = Window { dims: vec![w(n, low, high), w(1, 0, 0)] };
            bw.b.add_instruction(Opcode::ReduceWindow, &[x2, one], Attrs::Window(window), &[mul], None).map_err(broken)
        };
        // Before element i: x[0..i]; after it: x[i+1..n].
        let before = running(self, n, -1)?;
        let after = running(self, -1, n)?;
        let others = self.mul(before, after)?;
        let gm = self.b.reshape(g, &[m]).map_err(broken)?;
        let gb = self.b.broadcast(gm, &[n, m], &[1]).map_err(broken)?;
        let r = self.mul(gb, others)?;
        let r = self.b.reshape(r, &moved).map_err(broken)?;
        let mut inv = vec![0i64; perm.len()];
        for (i, &p) in perm.iter().enumerate() {
            inv[p as usize] = i as i64;
        }
        let r = self.b.transpose(r, &inv).map_err(broken)?;
        self.accumulate((x, None), r)
    }

    /// A planned conditional's backward conditional: the result's cotangent
    /// taken, by the branch the selector picks, to the branch operands'.
    fn transpose_conditional(&mut self, id: InstId, plan: &CondPlan) -> Result<()> {
        let inst = self.f.inst(id);
        let g = match &inst.shape {
            Shape::Array(_) => match self.ct.get(&(id, None)) {
                Some(&g) => g,
                None => return Ok(()),
            },
            Shape::Tuple(es) => {
                let mut parts = Vec::with_capacity(es.len());
                for (k, e) in es.iter().enumerate() {
                    let part = match self.ct.get(&(id, Some(k))) {
                        Some(&g) => g,
                        None => self.zeros(e.as_array().expect("planned: no nested tuples"))?,
                    };
                    parts.push(part);
                }
                self.b.tuple(&parts).map_err(broken)?
            }
        };
        let mut operands = vec![self.x(inst.operands[0])];
        for &o in &inst.operands[1..] {
            let pair = self.b.tuple(&[self.x(o), g]).map_err(broken)?;
            operands.push(pair);
        }
        let back = self
            .b
            .add_instruction(Opcode::Conditional, &operands, Attrs::None, &plan.branches, None)
            .map_err(broken)?;
        let mut at = 0;
        for (j, ls) in plan.leaves.iter().enumerate() {
            for (elem, _) in ls {
                let v = self.b.get_tuple_element(back, at).map_err(broken)?;
                self.accumulate((inst.operands[1 + j], *elem), v)?;
                at += 1;
            }
        }
        Ok(())
    }

    /// A planned loop's backward loop: the cotangents of its result taken to
    /// those of its initial state.
    fn transpose_loop(&mut self, id: InstId, plan: &LoopPlan) -> Result<()> {
        let inst = self.f.inst(id);
        let elements = inst.shape.tuple_elements().to_vec();
        let n = elements.len();
        let w = self.stored[&id];
        let trips = i32::try_from(plan.trips).map_err(|_| self.refuse(inst, "too many trips"))?;
        let mut state = vec![self.b.constant(Literal::Array(Array::scalar(trips))).map_err(broken)?];
        for k in plan.floats() {
            let g = match self.ct.get(&(id, Some(k))) {
                Some(&g) => g,
                None => self.zeros(elements[k].as_array().expect("planned loops have array elements"))?,
            };
            state.push(g);
        }
        for j in 0..plan.stacked().count() {
            state.push(self.b.get_tuple_element(w, (n + 1 + j) as i64).map_err(broken)?);
        }
        for k in plan.invariant() {
            state.push(self.b.get_tuple_element(w, k as i64).map_err(broken)?);
        }
        let init = self.b.tuple(&state).map_err(broken)?;
        let back = self.b.while_loop(init, plan.bwd_cond, plan.bwd_body).map_err(broken)?;
        for (i, k) in plan.floats().enumerate() {
            let g = self.b.get_tuple_element(back, (1 + i) as i64).map_err(broken)?;
            self.accumulate((inst.operands[0], Some(k)), g)?;
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

    /// Turns the cotangent of `id`'s result into cotangents of its operands.
    fn transpose(&mut self, id: InstId) -> Result<()> {
        let inst = self.f.inst(id);
        let ops = &inst.operands;
        if inst.shape.is_tuple() {
            return self.transpose_tuple(id);
        }
        let Some(&g) = self.ct.get(&(id, None)) else {
            return Ok(());
        };
        use Opcode as O;
        let y = self.x(id);
        match inst.opcode {
            O::Parameter => {}
            O::Negate => {
                let r = self.un(O::Negate, g)?;
                self.accumulate((ops[0], None), r)?;
            }
            O::Copy | O::ReducePrecision | O::OptimizationBarrier => self.accumulate((ops[0], None), g)?,
            O::Convert => {
                if self.array(ops[0]).dtype.is_float() {
                    self.accumulate((ops[0], None), g)?;
                }
            }
            O::Exp => {
                let r = self.mul(g, y)?;
                self.accumulate((ops[0], None), r)?;
            }
            O::Expm1 => {
                let one = self.full_like(y, 1.0)?;
                let e = self.bin(O::Add, y, one)?;
                let r = self.mul(g, e)?;
                self.accumulate((ops[0], None), r)?;
            }
            O::Log => {
                let r = self.bin(O::Divide, g, self.x(ops[0]))?;
                self.accumulate((ops[0], None), r)?;
            }
            O::Log1p => {
                let one = self.full_like(y, 1.0)?;
                let d = self.bin(O::Add, self.x(ops[0]), one)?;
                let r = self.bin(O::Divide, g, d)?;
                self.accumulate((ops[0], None), r)?;
            }
            O::Tanh => {
                let one = self.full_like(y, 1.0)?;
                let yy = self.mul(y, y)?;
                let d = self.bin(O::Subtract, one, yy)?;
                let r = self.mul(g, d)?;
                self.accumulate((ops[0], None), r)?;
            }
            O::Logistic => {
                let one = self.full_like(y, 1.0)?;
                let c = self.bin(O::Subtract, one, y)?;
                let d = self.mul(y, c)?;
                let r = self.mul(g, d)?;
                self.accumulate((ops[0], None), r)?;
            }
            O::Sqrt => {
                let half = self.full_like(y, 0.5)?;
                let d = self.bin(O::Divide, half, y)?;
                let r = self.mul(g, d)?;
                self.accumulate((ops[0], None), r)?;
            }
            O::Rsqrt => {
                // d/dx x^-1/2 = -1/2 * y / x.
                let c = self.full_like(y, -0.5)?;
                let q = self.bin(O::Divide, y, self.x(ops[0]))?;
                let d = self.mul(c, q)?;
                let r = self.mul(g, d)?;
                self.accumulate((ops[0], None), r)?;
            }
            O::Cbrt => {
                // d/dx x^1/3 = 1/3 / y^2.
                let third = self.full_like(y, 1.0 / 3.0)?;
                let yy = self.mul(y, y)?;
                let d = self.bin(O::Divide, third, yy)?;
                let r = self.mul(g, d)?;
                self.accumulate((ops[0], None), r)?;
            }
            O::Sine => {
                let c = self.un(O::Cosine, self.x(ops[0]))?;
                let r = self.mul(g, c)?;
                self.accumulate((ops[0], None), r)?;
            }
            O::Cosine => {
                let s = self.un(O::Sine, self.x(ops[0]))?;
                let n = self.un(O::Negate, s)?;
                let r = self.mul(g, n)?;
                self.accumulate((ops[0], None), r)?;
            }
            O::Tan => {
                let one = self.full_like(y, 1.0)?;
                let yy = self.mul(y, y)?;
                let d = self.bin(O::Add, one, yy)?;
                let r = self.mul(g, d)?;
                self.accumulate((ops[0], None), r)?;
            }
            O::Erf => {
                // 2/sqrt(pi) * exp(-x^2).
                let x = self.x(ops[0]);
                let xx = self.mul(x, x)?;
                let n = self.un(O::Negate, xx)?;
                let e = self.un(O::Exp, n)?;
                let c = self.full_like(y, std::f64::consts::FRAC_2_SQRT_PI)?;
                let d = self.mul(c, e)?;
                let r = self.mul(g, d)?;
                self.accumulate((ops[0], None), r)?;
            }
            O::Abs => {
                // g where x >= 0, else -g (JAX's rule: 1 at 0).
                let x = self.x(ops[0]);
                let zero = self.full_like(x, 0.0)?;
                let nonneg = self.cmp(ComparisonDirection::Ge, x, zero)?;
                let n = self.un(O::Negate, g)?;
                let r = self.b.select(nonneg, g, n).map_err(broken)?;
                self.accumulate((ops[0], None), r)?;
            }
            // Piecewise constant: zero almost everywhere, as in JAX.
            O::Sign | O::Floor | O::Ceil | O::RoundNearestAfz | O::RoundNearestEven => {}
            O::Add => {
                self.accumulate((ops[0], None), g)?;
                self.accumulate((ops[1], None), g)?;
            }
            O::Subtract => {
                self.accumulate((ops[0], None), g)?;
                if self.on_path.contains(&ops[1]) {
                    let n = self.un(O::Negate, g)?;
                    self.accumulate((ops[1], None), n)?;
                }
            }
            O::Multiply => {
                if self.on_path.contains(&ops[0]) {
                    let r = self.mul(g, self.x(ops[1]))?;
                    self.accumulate((ops[0], None), r)?;
                }
                if self.on_path.contains(&ops[1]) {
                    let r = self.mul(g, self.x(ops[0]))?;
                    self.accumulate((ops[1], None), r)?;
                }
            }
            O::Divide => {
                let d = self.x(ops[1]);
                if self.on_path.contains(&ops[0]) {
                    let r = self.bin(O::Divide, g, d)?;
                    self.accumulate((ops[0], None), r)?;
                }
                if self.on_path.contains(&ops[1]) {
                    // -g * y / d.
                    let q = self.bin(O::Divide, y, d)?;
                    let p = self.mul(g, q)?;
                    let r = self.un(O::Negate, p)?;
                    self.accumulate((ops[1], None), r)?;
                }
            }
            O::Maximum | O::Minimum => {
                // JAX's balanced rule: ties split the cotangent evenly.
                let (a, c) = (self.x(ops[0]), self.x(ops[1]));
                let a_is = self.cmp(ComparisonDirection::Eq, a, y)?;
                let c_is = self.cmp(ComparisonDirection::Eq, c, y)?;
                let dtype = self.array(id).dtype;
                for (k, mine, other) in [(0, a_is, c_is), (1, c_is, a_is)] {
                    if !self.on_path.contains(&ops[k]) {
                        continue;
                    }
                    let half = self.full_like(g, 0.5)?;
                    let one = self.full_like(g, 1.0)?;
                    let share = self.b.select(other, half, one).map_err(broken)?;
                    let ind = self.indicator(mine, dtype)?;
                    let w = self.mul(share, ind)?;
                    let r = self.mul(g, w)?;
                    self.accumulate((ops[k], None), r)?;
                }
            }
            O::Power => {
                let (a, e) = (self.x(ops[0]), self.x(ops[1]));
                if self.on_path.contains(&ops[0]) {
                    // e * a^(e-1).
                    let one = self.full_like(e, 1.0)?;
                    let em1 = self.bin(O::Subtract, e, one)?;
                    let p = self.bin(O::Power, a, em1)?;
                    let d = self.mul(e, p)?;
                    let r = self.mul(g, d)?;
                    self.accumulate((ops[0], None), r)?;
                }
                if self.on_path.contains(&ops[1]) {
                    // y * log(a), with log(1) where a == 0.
                    let zero = self.full_like(a, 0.0)?;
                    let one = self.full_like(a, 1.0)?;
                    let a0 = self.cmp(ComparisonDirection::Eq, a, zero)?;
                    let safe = self.b.select(a0, one, a).map_err(broken)?;
                    let l = self.un(O::Log, safe)?;
                    let d = self.mul(y, l)?;
                    let r = self.mul(g, d)?;
                    self.accumulate((ops[1], None), r)?;
                }
            }
            O::Atan2 => {
                // atan2(a, c): d/da = c / (a^2 + c^2), d/dc = -a / (a^2 + c^2).
                let (a, c) = (self.x(ops[0]), self.x(ops[1]));
                let aa = self.mul(a, a)?;
                let cc = self.mul(c, c)?;
                let den = self.bin(O::Add, aa, cc)?;
                if self.on_path.contains(&ops[0]) {
                    let q = self.bin(O::Divide, c, den)?;
                    let r = self.mul(g, q)?;
                    self.accumulate((ops[0], None), r)?;
                }
                if self.on_path.contains(&ops[1]) {
                    let q = self.bin(O::Divide, a, den)?;
                    let n = self.un(O::Negate, q)?;
                    let r = self.mul(g, n)?;
                    self.accumulate((ops[1], None), r)?;
                }
            }
            O::Remainder => {
                self.accumulate((ops[0], None), g)?;
                if self.on_path.contains(&ops[1]) {
                    // -g * sign(a/c) * floor(|a/c|).
                    let q = self.bin(O::Divide, self.x(ops[0]), self.x(ops[1]))?;
                    let s = self.un(O::Sign, q)?;
                    let aq = self.un(O::Abs, q)?;
                    let t = self.un(O::Floor, aq)?;
                    let st = self.mul(s, t)?;
                    let p = self.mul(g, st)?;
                    let r = self.un(O::Negate, p)?;
                    self.accumulate((ops[1], None), r)?;
                }
            }
            O::Select => {
                let p = self.x(ops[0]);
                if self.on_path.contains(&ops[1]) {
                    let r = self.where_(p, g)?;
                    self.accumulate((ops[1], None), r)?;
                }
                if self.on_path.contains(&ops[2]) {
                    let z = self.full_like(g, 0.0)?;
                    let r = self.b.select(p, z, g).map_err(broken)?;
                    self.accumulate((ops[2], None), r)?;
                }
            }
            O::Clamp => {
                // clamp(lo, x, hi); bounds may be scalars.
                let (lo, x, hi) = (self.x(ops[0]), self.x(ops[1]), self.x(ops[2]));
                let dims = self.array(id).dims.clone();
                let lo_b = self.like_result(lo, &dims)?;
                let hi_b = self.like_result(hi, &dims)?;
                if self.on_path.contains(&ops[1]) {
                    let above = self.cmp(ComparisonDirection::Gt, x, lo_b)?;
                    let below = self.cmp(ComparisonDirection::Lt, x, hi_b)?;
                    let inside = self.bin(O::And, above, below)?;
                    let r = self.where_(inside, g)?;
                    self.accumulate((ops[1], None), r)?;
                }
                if self.on_path.contains(&ops[0]) {
                    let over = self.cmp(ComparisonDirection::Gt, lo_b, x)?;
                    let ok = self.cmp(ComparisonDirection::Lt, lo_b, hi_b)?;
                    let both = self.bin(O::And, over, ok)?;
                    let r = self.where_(both, g)?;
                    self.accumulate((ops[0], None), r)?;
                }
                if self.on_path.contains(&ops[2]) {
                    let under = self.cmp(ComparisonDirection::Lt, hi_b, x)?;
                    let r = self.where_(under, g)?;
                    self.accumulate((ops[2], None), r)?;
                }
            }
            O::Broadcast => {
                let Attrs::Dimensions(map) = &inst.attrs else { unreachable!("verified broadcast") };
                let out_rank = self.array(id).rank() as i64;
                let reduced: Vec<i64> = (0..out_rank).filter(|d| !map.contains(d)).collect();
                let mut r = self.sum(g, &reduced)?;
                let mut sorted: Vec<i64> = map.to_vec();
                sorted.sort_unstable();
                if sorted != map.as_slice() {
                    let perm: Vec<i64> =
                        map.iter().map(|d| sorted.iter().position(|s| s == d).expect("a mapped dim") as i64).collect();
                    r = self.b.transpose(r, &perm).map_err(broken)?;
                }
                self.accumulate((ops[0], None), r)?;
            }
            O::Reshape | O::Bitcast => {
                let dims = self.array(ops[0]).dims.clone();
                let r = self.b.reshape(g, &dims).map_err(broken)?;
                self.accumulate((ops[0], None), r)?;
            }
            O::Transpose => {
                let Attrs::Dimensions(perm) = &inst.attrs else { unreachable!("verified transpose") };
                let mut inv = vec![0i64; perm.len()];
                for (i, &p) in perm.iter().enumerate() {
                    inv[p as usize] = i as i64;
                }
                let r = self.b.transpose(g, &inv).map_err(broken)?;
                self.accumulate((ops[0], None), r)?;
            }
            O::Reverse => {
                let Attrs::Dimensions(dims) = &inst.attrs else { unreachable!("verified reverse") };
                let r = self.b.reverse(g, dims).map_err(broken)?;
                self.accumulate((ops[0], None), r)?;
            }
            O::Slice => {
                let Attrs::Slice(sl) = &inst.attrs else { unreachable!("verified slice") };
                let in_dims = &self.array(ops[0]).dims;
                let out_dims = &self.array(id).dims;
                let pads: Vec<PadDim> = sl
                    .iter()
                    .zip(in_dims.iter().zip(out_dims))
                    .map(|(s, (&n, &k))| {
                        let last = if k == 0 { s.start } else { s.start + (k - 1) * s.stride + 1 };
                        PadDim { low: s.start, high: n - last, interior: if k == 0 { 0 } else { s.stride - 1 } }
                    })
                    .collect();
                let zero = self.scalar(self.array(id).dtype, 0.0)?;
                let r = self.b.pad(g, zero, &pads).map_err(broken)?;
                self.accumulate((ops[0], None), r)?;
            }
            O::Pad => {
                let Attrs::Pad(cfg) = &inst.attrs else { unreachable!("verified pad") };
                let unpad: Vec<PadDim> =
                    cfg.iter().map(|p| PadDim { low: -p.low, high: -p.high, interior: 0 }).collect();
                let zero = self.scalar(self.array(id).dtype, 0.0)?;
                let u = self.b.pad(g, zero, &unpad).map_err(broken)?;
                let ud = self.new_array(u)?.dims;
                let starts = vec![0; ud.len()];
                let strides: Vec<i64> = cfg.iter().map(|p| p.interior + 1).collect();
                let gx = self.b.slice(u, &starts, &ud, &strides).map_err(broken)?;
                if self.on_path.contains(&ops[1]) {
                    let rank: Vec<i64> = (0..ud.len() as i64).collect();
                    let tg = self.sum(g, &rank)?;
                    let tx = self.sum(gx, &rank)?;
                    let r = self.bin(O::Subtract, tg, tx)?;
                    self.accumulate((ops[1], None), r)?;
                }
                self.accumulate((ops[0], None), gx)?;
            }
            O::Concatenate => {
                let Attrs::Concatenate { dimension } = inst.attrs else { unreachable!("verified concatenate") };
                let out = self.array(id).dims.clone();
                let mut at = 0;
                for &o in ops.iter() {
                    let n = self.array(o).dims[dimension as usize];
                    if self.on_path.contains(&o) {
                        let mut starts = vec![0; out.len()];
                        let mut limits = out.to_vec();
                        starts[dimension as usize] = at;
                        limits[dimension as usize] = at + n;
                        let r = self.b.slice(g, &starts, &limits, &vec![1; out.len()]).map_err(broken)?;
                        self.accumulate((o, None), r)?;
                    }
                    at += n;
                }
            }
            O::DynamicSlice => {
                let starts: Vec<InstId> = ops[1..].iter().map(|&o| self.x(o)).collect();
                let z = self.zeros(self.array(ops[0]))?;
                let r = self.b.dynamic_update_slice(z, g, &starts).map_err(broken)?;
                self.accumulate((ops[0], None), r)?;
            }
            O::DynamicUpdateSlice => {
                let starts: Vec<InstId> = ops[2..].iter().map(|&o| self.x(o)).collect();
                if self.on_path.contains(&ops[0]) {
                    let z = self.zeros(self.array(ops[1]))?;
                    let r = self.b.dynamic_update_slice(g, z, &starts).map_err(broken)?;
                    self.accumulate((ops[0], None), r)?;
                }
                if self.on_path.contains(&ops[1]) {
                    let sizes = self.array(ops[1]).dims.clone();
                    let r = self.b.dynamic_slice(g, &starts, &sizes).map_err(broken)?;
                    self.accumulate((ops[1], None), r)?;
                }
            }
            O::Reduce => self.transpose_reduce(id, g)?,
            O::ReduceWindow => self.transpose_reduce_window(id, g)?,
            O::Dot => self.transpose_dot(id, g)?,
            O::Convolution => self.transpose_convolution(id, g)?,
            O::Gather => self.transpose_gather(id, g)?,
            O::Scatter => self.transpose_scatter(id, g)?,
            O::Sort if self.sorts.contains_key(&id) => self.transpose_sort(id)?,
            O::Conditional if self.conds.contains_key(&id) => {
                let plan = &self.conds[&id];
                self.transpose_conditional(id, plan)?;
            }
            O::GetTupleElement => {
                let Attrs::GetTupleElement { index } = inst.attrs else { unreachable!("verified get-tuple-element") };
                self.accumulate((ops[0], Some(index as usize)), g)?;
            }
            _ => return Err(self.refuse(inst, "no gradient rule for this opcode yet")),
        }
        Ok(())
    }

    /// `v` (a scalar or an array of `dims`) as an array of `dims`.
    fn like_result(&mut self, v: InstId, dims: &[i64]) -> Result<InstId> {
        if self.new_array(v)?.rank() == 0 && !dims.is_empty() {
            self.b.broadcast(v, dims, &[]).map_err(broken)
        } else {
            Ok(v)
        }
    }

    fn transpose_tuple(&mut self, id: InstId) -> Result<()> {
        let inst = self.f.inst(id);
        if let Some(plan) = self.loops.get(&id) {
            return self.transpose_loop(id, plan);
        }
        if let Some(plan) = self.conds.get(&id) {
            return self.transpose_conditional(id, plan);
        }
        if self.sorts.contains_key(&id) {
            return self.transpose_sort(id);
        }
        match inst.opcode {
            Opcode::Parameter => Ok(()),
            Opcode::Tuple => {
                for (i, &o) in inst.operands.iter().enumerate() {
                    if let Some(&g) = self.ct.get(&(id, Some(i))) {
                        if self.f.inst(o).shape.is_tuple() {
                            return Err(self.refuse(inst, "nested tuples are not differentiated yet"));
                        }
                        self.accumulate((o, None), g)?;
                    }
                }
                Ok(())
            }
            _ if !self.ct.keys().any(|&(i, _)| i == id) => Ok(()),
            _ => Err(self.refuse(inst, "no gradient rule for this tuple-shaped opcode yet")),
        }
    }

    /// The binary opcode `reducer` applies to its two parameters, if it is one.
    fn reducer_op(&self, reducer: CompId) -> Option<Opcode> {
        let c = &self.comps[reducer];
        let root = c.root_inst();
        let params: Vec<Option<u32>> = root.operands.iter().map(|&o| c.inst(o).parameter_number()).collect();
        let simple = root.operands.len() == 2 && (params == [Some(0), Some(1)] || params == [Some(1), Some(0)]);
        simple.then_some(root.opcode)
    }

    fn transpose_reduce(&mut self, id: InstId, g: InstId) -> Result<()> {
        let inst = self.f.inst(id);
        let (x, init) = (inst.operands[0], inst.operands[1]);
        let Attrs::Dimensions(dims) = &inst.attrs else { unreachable!("verified reduce") };
        let xs = self.array(x);
        let kept: Vec<i64> = (0..xs.rank() as i64).filter(|d| !dims.contains(d)).collect();
        match self.reducer_op(inst.called[0]) {
            Some(Opcode::Add) => {
                let r = self.b.broadcast(g, &xs.dims, &kept).map_err(broken)?;
                self.accumulate((x, None), r)?;
                self.accumulate((init, None), g)?;
            }
            Some(Opcode::Maximum | Opcode::Minimum) => {
                if self.on_path.contains(&init) {
                    return Err(self.refuse(inst, "a max/min reduction's initial value has no gradient rule"));
                }
                // Ties share the cotangent evenly (JAX's chooser rule).
                let yb = self.b.broadcast(self.x(id), &xs.dims, &kept).map_err(broken)?;
                let is = self.cmp(ComparisonDirection::Eq, self.x(x), yb)?;
                let ind = self.indicator(is, xs.dtype)?;
                let counts = self.sum(ind, dims)?;
                let q = self.bin(Opcode::Divide, g, counts)?;
                let qb = self.b.broadcast(q, &xs.dims, &kept).map_err(broken)?;
                let r = self.mul(qb, ind)?;
                self.accumulate((x, None), r)?;
            }
            Some(Opcode::Multiply) => {
                if self.on_path.contains(&init) {
                    return Err(self.refuse(inst, "a product's initial value has no gradient rule"));
                }
                self.transpose_product(id, g)?;
            }
            _ => return Err(self.refuse(inst, "only sum, product, max and min reductions have gradient rules yet")),
        }
        Ok(())
    }

    fn transpose_reduce_window(&mut self, id: InstId, g: InstId) -> Result<()> {
        let inst = self.f.inst(id);
        let (x, init) = (inst.operands[0], inst.operands[1]);
        let Attrs::Window(w) = &inst.attrs else { unreachable!("verified reduce-window") };
        if self.on_path.contains(&init) {
            return Err(self.refuse(inst, "a windowed reduction's initial value has no gradient rule"));
        }
        let xs = self.array(x);
        let out = self.array(id);
        match self.reducer_op(inst.called[0]) {
            Some(Opcode::Add) => {
                // Pad the cotangent (strides become interior padding), then sum it
                // over the same window (JAX's reduce_window_sum transpose).
                let pads = vjp_lhs_padding(
                    &xs.dims,
                    &w.dims.iter().map(|d| d.size).collect::<Vec<_>>(),
                    &w.dims.iter().map(|d| d.stride).collect::<Vec<_>>(),
                    &out.dims,
                    &w.dims.iter().map(|d| d.pad_low).collect::<Vec<_>>(),
                    &w.dims.iter().map(|d| d.base_dilation).collect::<Vec<_>>(),
                    &w.dims.iter().map(|d| d.window_dilation).collect::<Vec<_>>(),
                );
                let cfg: Vec<PadDim> = pads
                    .iter()
                    .zip(&w.dims)
                    .map(|(&(lo, hi), d)| PadDim { low: lo, high: hi, interior: d.stride - 1 })
                    .collect();
                let zero = self.scalar(out.dtype, 0.0)?;
                let padded = self.b.pad(g, zero, &cfg).map_err(broken)?;
                let window = Window {
                    dims: w
                        .dims
                        .iter()
                        .map(|d| WindowDim {
                            size: d.size,
                            stride: d.base_dilation,
                            pad_low: 0,
                            pad_high: 0,
                            window_dilation: d.window_dilation,
                            base_dilation: 1,
                            reversal: false,
                        })
                        .collect(),
                };
                let add = self.adders[&out.dtype];
                let zero = self.scalar(out.dtype, 0.0)?;
                let r = self
                    .b
                    .add_instruction(Opcode::ReduceWindow, &[padded, zero], Attrs::Window(window), &[add], None)
                    .map_err(broken)?;
                if self.new_array(r)?.dims != xs.dims {
                    return Err(self.refuse(inst, "this window's sum gradient does not map back onto its operand"));
                }
                self.accumulate((x, None), r)?;
            }
            Some(op @ (Opcode::Maximum | Opcode::Minimum)) => {
                if w.dims.iter().any(|d| d.base_dilation != 1 || d.window_dilation != 1) {
                    return Err(self.refuse(inst, "max/min windows with dilation have no gradient rule yet"));
                }
                if op == Opcode::Minimum {
                    return Err(self.refuse(inst, "min windows have no gradient rule yet"));
                }
                // The cotangent goes to the first maximal element of each window.
                let zero = self.scalar(out.dtype, 0.0)?;
                let select = self.selectors[&out.dtype];
                let add = self.adders[&out.dtype];
                let r = self
                    .b
                    .add_instruction(
                        Opcode::SelectAndScatter,
                        &[self.x(x), g, zero],
                        Attrs::Window(w.clone()),
                        &[select, add],
                        None,
                    )
                    .map_err(broken)?;
                self.accumulate((x, None), r)?;
            }
            _ => return Err(self.refuse(inst, "only sum and max windows have gradient rules yet")),
        }
        Ok(())
    }

    fn transpose_dot(&mut self, id: InstId, g: InstId) -> Result<()> {
        let inst = self.f.inst(id);
        let Attrs::Dot(d) = &inst.attrs else { unreachable!("verified dot") };
        let (l, r) = (inst.operands[0], inst.operands[1]);
        if self.on_path.contains(&l) {
            let gl = self.dot_transpose_lhs(g, l, r, d, false)?;
            self.accumulate((l, None), gl)?;
        }
        if self.on_path.contains(&r) {
            let swapped = DotDims {
                lhs_batch: d.rhs_batch.clone(),
                rhs_batch: d.lhs_batch.clone(),
                lhs_contracting: d.rhs_contracting.clone(),
                rhs_contracting: d.lhs_contracting.clone(),
            };
            let gr = self.dot_transpose_lhs(g, r, l, &swapped, true)?;
            self.accumulate((r, None), gr)?;
        }
        Ok(())
    }

    /// The cotangent of `x` in `dot(x, y)` (or `dot(y, x)` when `swap`), JAX's
    /// `_dot_general_transpose_lhs`.
    fn dot_transpose_lhs(&mut self, g: InstId, x: InstId, y: InstId, d: &DotDims, swap: bool) -> Result<InstId> {
        let xr = self.array(x).rank() as i64;
        let yr = self.array(y).rank() as i64;
        let x_dtype = self.array(x).dtype;
        let y_dtype = self.array(y).dtype;
        let x_kept: Vec<i64> = (0..xr).filter(|i| !d.lhs_contracting.contains(i) && !d.lhs_batch.contains(i)).collect();
        let y_kept: Vec<i64> = (0..yr).filter(|i| !d.rhs_contracting.contains(i) && !d.rhs_batch.contains(i)).collect();
        let nb = d.lhs_batch.len() as i64;
        let ans_batch: Vec<i64> = (0..nb).collect();
        let ans_y: Vec<i64> = if swap {
            (nb..nb + y_kept.len() as i64).collect()
        } else {
            let s = nb + x_kept.len() as i64;
            (s..s + y_kept.len() as i64).collect()
        };
        let dims = DotDims {
            lhs_batch: ans_batch.into_iter().collect(),
            rhs_batch: d.rhs_batch.clone(),
            lhs_contracting: ans_y.into_iter().collect(),
            rhs_contracting: y_kept.iter().copied().collect(),
        };
        let mut by_y: Vec<(i64, i64)> =
            d.rhs_contracting.iter().copied().zip(d.lhs_contracting.iter().copied()).collect();
        by_y.sort_unstable();
        let order: Vec<i64> =
            d.lhs_batch.iter().copied().chain(x_kept.iter().copied()).chain(by_y.iter().map(|&(_, xc)| xc)).collect();
        let mut out_axes: Vec<i64> = (0..order.len() as i64).collect();
        out_axes.sort_by_key(|&i| order[i as usize]);
        let g = if self.new_array(g)?.dtype != y_dtype { self.b.convert(g, y_dtype).map_err(broken)? } else { g };
        let p = self.b.dot(g, self.x(y), dims, Some(x_dtype)).map_err(broken)?;
        if out_axes.iter().enumerate().all(|(i, &a)| a == i as i64) {
            Ok(p)
        } else {
            self.b.transpose(p, &out_axes).map_err(broken)
        }
    }

    fn transpose_convolution(&mut self, id: InstId, g: InstId) -> Result<()> {
        let inst = self.f.inst(id);
        let Attrs::Convolution(c) = &inst.attrs else { unreachable!("verified convolution") };
        if c.batch_group_count != 1 {
            return Err(self.refuse(inst, "convolutions with batch_group_count > 1 have no gradient rule yet"));
        }
        if c.window.dims.iter().any(|w| w.reversal) {
            return Err(self.refuse(inst, "reversed convolution windows have no gradient rule yet"));
        }
        let (l, r) = (inst.operands[0], inst.operands[1]);
        if self.on_path.contains(&l) {
            let gl = self.conv_transpose_lhs(g, l, r, c)?;
            self.accumulate((l, None), gl)?;
        }
        if self.on_path.contains(&r) {
            let gr = self.conv_transpose_rhs(g, l, r, c)?;
            self.accumulate((r, None), gr)?;
        }
        Ok(())
    }

    /// JAX's `_conv_general_dilated_transpose_lhs` (batch_group_count 1).
    fn conv_transpose_lhs(&mut self, g: InstId, lhs: InstId, rhs: InstId, c: &ConvAttrs) -> Result<InstId> {
        let d = &c.dims;
        let ls = self.array(lhs).clone();
        let mut kernel = self.x(rhs);
        let groups = c.feature_group_count;
        if groups > 1 {
            kernel = self.reshape_axis_out_of(d.kernel_output_feature, groups, kernel)?;
            kernel = self.reshape_axis_into(d.kernel_output_feature, d.kernel_input_feature, kernel)?;
        }
        let ks = self.new_array(kernel)?;
        let gs = self.new_array(g)?;
        let sizes: Vec<i64> = d.kernel_spatial.iter().map(|&k| ks.dims[k as usize]).collect();
        let pads = vjp_lhs_padding(
            &d.input_spatial.iter().map(|&i| ls.dims[i as usize]).collect::<Vec<_>>(),
            &sizes,
            &c.window.dims.iter().map(|w| w.stride).collect::<Vec<_>>(),
            &d.output_spatial.iter().map(|&o| gs.dims[o as usize]).collect::<Vec<_>>(),
            &c.window.dims.iter().map(|w| w.pad_low).collect::<Vec<_>>(),
            &c.window.dims.iter().map(|w| w.base_dilation).collect::<Vec<_>>(),
            &c.window.dims.iter().map(|w| w.window_dilation).collect::<Vec<_>>(),
        );
        let reversed = self.b.reverse(kernel, &d.kernel_spatial).map_err(broken)?;
        let window = Window {
            dims: c
                .window
                .dims
                .iter()
                .zip(&sizes)
                .zip(&pads)
                .map(|((w, &size), &(lo, hi))| WindowDim {
                    size,
                    stride: w.base_dilation,
                    pad_low: lo,
                    pad_high: hi,
                    window_dilation: w.window_dilation,
                    base_dilation: w.stride,
                    reversal: false,
                })
                .collect(),
        };
        let dims = ConvDims {
            input_batch: d.output_batch,
            input_feature: d.output_feature,
            input_spatial: d.output_spatial.clone(),
            kernel_input_feature: d.kernel_output_feature,
            kernel_output_feature: d.kernel_input_feature,
            kernel_spatial: d.kernel_spatial.clone(),
            output_batch: d.input_batch,
            output_feature: d.input_feature,
            output_spatial: d.input_spatial.clone(),
        };
        let attrs = ConvAttrs { window, dims, feature_group_count: groups, batch_group_count: 1 };
        let shape = Shape::array(ls.dtype, &ls.dims);
        self.b
            .add_instruction(Opcode::Convolution, &[g, reversed], Attrs::Convolution(Box::new(attrs)), &[], Some(shape))
            .map_err(broken)
    }

    /// JAX's `_conv_general_dilated_transpose_rhs` (batch_group_count 1).
    fn conv_transpose_rhs(&mut self, g: InstId, lhs: InstId, rhs: InstId, c: &ConvAttrs) -> Result<InstId> {
        let d = &c.dims;
        let ls = self.array(lhs);
        let ks = self.array(rhs);
        let gs = self.new_array(g)?;
        let out_sizes: Vec<i64> = d.output_spatial.iter().map(|&o| gs.dims[o as usize]).collect();
        let pads = vjp_rhs_padding(
            &d.input_spatial.iter().map(|&i| ls.dims[i as usize]).collect::<Vec<_>>(),
            &d.kernel_spatial.iter().map(|&k| ks.dims[k as usize]).collect::<Vec<_>>(),
            &c.window.dims.iter().map(|w| w.stride).collect::<Vec<_>>(),
            &out_sizes,
            &c.window.dims.iter().map(|w| w.pad_low).collect::<Vec<_>>(),
            &c.window.dims.iter().map(|w| w.base_dilation).collect::<Vec<_>>(),
            &c.window.dims.iter().map(|w| w.window_dilation).collect::<Vec<_>>(),
        );
        let window = Window {
            dims: c
                .window
                .dims
                .iter()
                .zip(&out_sizes)
                .zip(&pads)
                .map(|((w, &size), &(lo, hi))| WindowDim {
                    size,
                    stride: w.window_dilation,
                    pad_low: lo,
                    pad_high: hi,
                    window_dilation: w.stride,
                    base_dilation: w.base_dilation,
                    reversal: false,
                })
                .collect(),
        };
        let dims = ConvDims {
            input_batch: d.input_feature,
            input_feature: d.input_batch,
            input_spatial: d.input_spatial.clone(),
            kernel_input_feature: d.output_batch,
            kernel_output_feature: d.output_feature,
            kernel_spatial: d.output_spatial.clone(),
            output_batch: d.kernel_input_feature,
            output_feature: d.kernel_output_feature,
            output_spatial: d.kernel_spatial.clone(),
        };
        let attrs = ConvAttrs { window, dims, feature_group_count: 1, batch_group_count: c.feature_group_count };
        let shape = Shape::array(ks.dtype, &ks.dims);
        self.b
            .add_instruction(
                Opcode::Convolution,
                &[self.x(lhs), g],
                Attrs::Convolution(Box::new(attrs)),
                &[],
                Some(shape),
            )
            .map_err(broken)
    }

    /// Gather's cotangent scattered (added) back into zeros at the same start
    /// indices, clamped as gather clamps them (JAX's gather transpose).
    fn transpose_gather(&mut self, id: InstId, g: InstId) -> Result<()> {
        let inst = self.f.inst(id);
        let Attrs::Gather(ga) = &inst.attrs else { unreachable!("verified gather") };
        let (x, idx) = (inst.operands[0], inst.operands[1]);
        let xs = self.array(x);
        let windows: Vec<i64> = xs.dims.iter().zip(&ga.slice_sizes).map(|(&n, &s)| n - s).collect();
        let (clamped, _) = self.clamp_starts(idx, ga.index_vector_dim, &ga.start_index_map, &windows)?;
        let zeros = self.zeros(xs)?;
        let sa = ScatterAttrs {
            update_window_dims: ga.offset_dims.clone(),
            inserted_window_dims: ga.collapsed_slice_dims.clone(),
            scatter_dims_to_operand_dims: ga.start_index_map.clone(),
            input_batching_dims: ga.operand_batching_dims.clone(),
            scatter_indices_batching_dims: ga.start_indices_batching_dims.clone(),
            index_vector_dim: ga.index_vector_dim,
            indices_are_sorted: ga.indices_are_sorted,
            unique_indices: false,
        };
        let add = self.adders[&xs.dtype];
        let r = self
            .b
            .add_instruction(Opcode::Scatter, &[zeros, clamped, g], Attrs::Scatter(Box::new(sa)), &[add], None)
            .map_err(broken)?;
        self.accumulate((x, None), r)
    }

    /// A scatter's cotangent. Adding: all of it to the operand; replacing (at
    /// unique indices): the operand's minus what was overwritten. The updates
    /// get the windows they went into (gathered), zero for windows scatter
    /// skipped as out of bounds.
    fn transpose_scatter(&mut self, id: InstId, g: InstId) -> Result<()> {
        let inst = self.f.inst(id);
        let Attrs::Scatter(sa) = &inst.attrs else { unreachable!("verified scatter") };
        let combiner = &self.comps[inst.called[0]];
        let replaces = combiner.root_inst().parameter_number() == Some(1);
        let adds = self.reducer_op(inst.called[0]) == Some(Opcode::Add);
        if inst.operands.len() != 3 || !(adds || replaces && sa.unique_indices) {
            return Err(self.refuse(
                inst,
                "only single-operand scatters that add, or replace at unique indices, have gradient rules yet",
            ));
        }
        let (x, idx, u) = (inst.operands[0], inst.operands[1], inst.operands[2]);
        let us = self.array(u);
        if adds {
            self.accumulate((x, None), g)?;
        } else if self.on_path.contains(&x) {
            // What was overwritten gets nothing: zeros scattered over the cotangent.
            let z = self.zeros(us)?;
            let r = self
                .b
                .add_instruction(Opcode::Scatter, &[g, self.x(idx), z], inst.attrs.clone(), &inst.called, None)
                .map_err(broken)?;
            self.accumulate((x, None), r)?;
        }
        if !self.on_path.contains(&u) {
            return Ok(());
        }
        let xs = self.array(x);
        let mut slice_sizes = Vec::with_capacity(xs.rank());
        let mut pos = 0;
        for i in 0..xs.rank() as i64 {
            if sa.inserted_window_dims.contains(&i) || sa.input_batching_dims.contains(&i) {
                slice_sizes.push(1);
            } else {
                slice_sizes.push(us.dims[sa.update_window_dims[pos] as usize]);
                pos += 1;
            }
        }
        let windows: Vec<i64> = xs.dims.iter().zip(&slice_sizes).map(|(&n, &s)| n - s).collect();
        let (clamped, inside) =
            self.clamp_starts(idx, sa.index_vector_dim, &sa.scatter_dims_to_operand_dims, &windows)?;
        let ga = GatherAttrs {
            offset_dims: sa.update_window_dims.clone(),
            collapsed_slice_dims: sa.inserted_window_dims.clone(),
            start_index_map: sa.scatter_dims_to_operand_dims.clone(),
            operand_batching_dims: sa.input_batching_dims.clone(),
            start_indices_batching_dims: sa.scatter_indices_batching_dims.clone(),
            index_vector_dim: sa.index_vector_dim,
            slice_sizes: slice_sizes.into_iter().collect(),
            indices_are_sorted: sa.indices_are_sorted,
        };
        let gathered = self
            .b
            .add_instruction(Opcode::Gather, &[g, clamped], Attrs::Gather(Box::new(ga)), &[], None)
            .map_err(broken)?;
        // `inside` has the update's scatter (non-window) dimensions, in order.
        let batch: Vec<i64> = (0..us.rank() as i64).filter(|d| !sa.update_window_dims.contains(d)).collect();
        let mask = self.b.broadcast(inside, &us.dims, &batch).map_err(broken)?;
        let r = self.where_(mask, gathered)?;
        self.accumulate((u, None), r)
    }

    /// The start indices `idx` (index vectors along `ivd`, component `k` for
    /// operand dimension `map[k]`) clamped into `[0, limits[map[k]]]` as gather
    /// clamps them, and whether each index vector was inside already (the
    /// windows scatter applies), shaped as `idx` without `ivd`.
    fn clamp_starts(&mut self, idx: InstId, ivd: i64, map: &[i64], limits: &[i64]) -> Result<(InstId, InstId)> {
        let is = self.array(idx).clone();
        let bounds: Vec<f64> = map.iter().map(|&d| limits[d as usize] as f64).collect();
        let x = self.x(idx);
        let lit = Array::new([bounds.len() as i64], ArrayData::from_f64(is.dtype, bounds.iter().copied()));
        let upper = self.b.constant(Literal::Array(lit)).map_err(broken)?;
        let upper = if ivd as usize == is.rank() {
            let s = self.b.reshape(upper, &[]).map_err(broken)?;
            self.b.broadcast(s, &is.dims, &[]).map_err(broken)?
        } else {
            self.b.broadcast(upper, &is.dims, &[ivd]).map_err(broken)?
        };
        let zero = self.full(is.dtype, 0.0, &is.dims)?;
        let clamped = self.b.clamp(zero, x, upper).map_err(broken)?;
        let same = self.cmp(ComparisonDirection::Eq, clamped, x)?;
        let inside = if ivd as usize == is.rank() {
            same
        } else {
            let t = self.b.constant(Literal::Array(Array::scalar(true))).map_err(broken)?;
            let and = self.and_reducer.expect("made when the program gathers or scatters");
            self.b.reduce(&[same], &[t], &[ivd], and).map_err(broken)?
        };
        Ok((clamped, inside))
    }

    /// Splits axis `src` of `x` into `(size1, n / size1)`.
    fn reshape_axis_out_of(&mut self, src: i64, size1: i64, x: InstId) -> Result<InstId> {
        let mut dims = self.new_array(x)?.dims.to_vec();
        let n = dims[src as usize];
        dims.splice(src as usize..=src as usize, [size1, n / size1]);
        self.b.reshape(x, &dims).map_err(broken)
    }

    /// Merges axis `src` of `x` into axis `dst` (numbered without `src`) as its
    /// major part.
    fn reshape_axis_into(&mut self, src: i64, dst: i64, x: InstId) -> Result<InstId> {
        let dims = self.new_array(x)?.dims.to_vec();
        let mut perm: Vec<i64> = (0..dims.len() as i64).filter(|&i| i != src).collect();
        perm.insert(dst as usize, src);
        let mut shape: Vec<i64> = dims.iter().enumerate().filter(|&(i, _)| i as i64 != src).map(|(_, &d)| d).collect();
        shape[dst as usize] *= dims[src as usize];
        let t = self.b.transpose(x, &perm).map_err(broken)?;
        self.b.reshape(t, &shape).map_err(broken)
    }
}

fn dilate(n: i64, d: i64) -> i64 {
    if n == 0 { 0 } else { 1 + d * (n - 1) }
}

/// The padding of the cotangent's convolution (or window sum) that gives the
/// operand's gradient: JAX's `_conv_general_vjp_lhs_padding`.
fn vjp_lhs_padding(
    in_shape: &[i64],
    window: &[i64],
    strides: &[i64],
    out_shape: &[i64],
    pad_low: &[i64],
    lhs_dilation: &[i64],
    rhs_dilation: &[i64],
) -> Vec<(i64, i64)> {
    (0..in_shape.len())
        .map(|i| {
            let lhs_d = dilate(in_shape[i], lhs_dilation[i]);
            let rhs_d = dilate(window[i], rhs_dilation[i]);
            let out_d = dilate(out_shape[i], strides[i]);
            let before = rhs_d - pad_low[i] - 1;
            let after = lhs_d + rhs_d - 1 - out_d - before;
            (before, after)
        })
        .collect()
}

/// JAX's `_conv_general_vjp_rhs_padding`.
fn vjp_rhs_padding(
    in_shape: &[i64],
    window: &[i64],
    strides: &[i64],
    out_shape: &[i64],
    pad_low: &[i64],
    lhs_dilation: &[i64],
    rhs_dilation: &[i64],
) -> Vec<(i64, i64)> {
    (0..in_shape.len())
        .map(|i| {
            let lhs_d = dilate(in_shape[i], lhs_dilation[i]);
            let rhs_d = dilate(window[i], rhs_dilation[i]);
            let out_d = dilate(out_shape[i], strides[i]);
            let from_lhs = out_d - lhs_d;
            let from_rhs = rhs_d - pad_low[i] - 1;
            (pad_low[i], from_lhs + from_rhs)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use smelt_hlo::Dims;
    use smelt_hlo::builder::ModuleBuilder;
    use smelt_hlo::parse_module;
    use smelt_hlo::random::SplitMix;

    type B<'m> = ComputationBuilder<'m>;
    type R<T> = std::result::Result<T, ShapeError>;

    fn f64s(dims: &[i64]) -> Shape {
        Shape::array(DType::F64, dims)
    }

    fn scalar(b: &mut B<'_>, v: f64) -> R<InstId> {
        b.constant(Literal::Array(Array::scalar(v)))
    }

    fn splat(b: &mut B<'_>, v: f64, dims: &[i64]) -> R<InstId> {
        let s = scalar(b, v)?;
        b.broadcast(s, dims, &[])
    }

    /// `v * v + 1`: positive, for the ops that need it.
    fn positive(b: &mut B<'_>, v: InstId) -> R<InstId> {
        let sq = b.binary(Opcode::Multiply, v, v)?;
        let one = splat(b, 1.0, &[3, 4])?;
        b.binary(Opcode::Add, sq, one)
    }

    /// A random f64 program of `x, y: [3, 4]` and `w: [4, 2]` with a scalar loss,
    /// drawn from elementwise math, data movement, reductions, dots and selects.
    fn random_program(seed: u64) -> R<Module> {
        let mut rng = SplitMix::new(seed);
        let mut mb = ModuleBuilder::new(format!("random_{seed}"));
        let add = mb.scalar_reducer(Reducer::Add, DType::F64)?;
        let max = mb.scalar_reducer(Reducer::Max, DType::F64)?;
        let mut b = mb.builder("main");
        let x = b.parameter(0, f64s(&[3, 4]), "x")?;
        let y = b.parameter(1, f64s(&[3, 4]), "y")?;
        let w = b.parameter(2, f64s(&[4, 2]), "w")?;
        let mut pool = vec![x, y];
        for _ in 0..8 {
            let a = pool[rng.below(pool.len())];
            let c = pool[rng.below(pool.len())];
            let v = match rng.below(14) {
                0 => b.unary(Opcode::Tanh, a)?,
                1 => b.unary(Opcode::Sine, a)?,
                2 => {
                    let s = splat(&mut b, 0.3, &[3, 4])?;
                    let t = b.binary(Opcode::Multiply, a, s)?;
                    b.unary(Opcode::Exp, t)?
                }
                3 => {
                    let p = positive(&mut b, a)?;
                    b.unary(Opcode::Log, p)?
                }
                4 => {
                    let p = positive(&mut b, c)?;
                    b.binary(Opcode::Divide, a, p)?
                }
                5 => b.binary(Opcode::Multiply, a, c)?,
                6 => b.binary([Opcode::Maximum, Opcode::Minimum][rng.below(2)], a, c)?,
                7 => {
                    let p = positive(&mut b, a)?;
                    let e = splat(&mut b, 0.7, &[3, 4])?;
                    b.binary(Opcode::Power, p, e)?
                }
                8 => {
                    let t = b.transpose(a, &[1, 0])?;
                    let r = b.reverse(t, &[0])?;
                    b.reshape(r, &[3, 4])?
                }
                9 => {
                    let s = b.slice(a, &[1, 0], &[3, 4], &[1, 2])?;
                    let z = scalar(&mut b, 0.25)?;
                    let pads = [PadDim { low: 1, high: 0, interior: 0 }, PadDim { low: 0, high: 1, interior: 1 }];
                    let p = b.pad(s, z, &pads)?;
                    let top = b.slice(c, &[0, 0], &[1, 4], &[1, 1])?;
                    let rest = b.slice(p, &[1, 0], &[3, 4], &[1, 1])?;
                    let cat = b.concatenate(&[top, rest], 0)?;
                    b.binary(Opcode::Add, cat, a)?
                }
                10 => {
                    let ninf = scalar(&mut b, f64::NEG_INFINITY)?;
                    let m = b.reduce(&[a], &[ninf], &[1], max)?;
                    let mb_ = b.broadcast(m, &[3, 4], &[0])?;
                    b.binary(Opcode::Subtract, c, mb_)?
                }
                11 => {
                    let dims = |l: i64, r: i64| DotDims {
                        lhs_contracting: Dims::from_slice(&[l]),
                        rhs_contracting: Dims::from_slice(&[r]),
                        ..Default::default()
                    };
                    let d = b.dot(a, w, dims(1, 0), None)?;
                    let back = b.dot(d, w, dims(1, 1), None)?;
                    b.unary(Opcode::Tanh, back)?
                }
                12 => {
                    let z = splat(&mut b, 0.0, &[3, 4])?;
                    let p = b.compare(ComparisonDirection::Gt, a, z)?;
                    let s = b.unary(Opcode::Sine, c)?;
                    b.select(p, c, s)?
                }
                _ => {
                    let z = scalar(&mut b, 0.0)?;
                    let s = b.reduce(&[a], &[z], &[0], add)?;
                    let sb = b.broadcast(s, &[3, 4], &[1])?;
                    let t = b.unary(Opcode::Tanh, sb)?;
                    b.binary(Opcode::Multiply, t, c)?
                }
            };
            pool.push(v);
        }
        let last = *pool.last().expect("the pool has values");
        let io = b.iota(f64s(&[3, 4]), 1)?;
        let weighted = b.binary(Opcode::Multiply, last, io)?;
        let z = scalar(&mut b, 0.0)?;
        let loss = b.reduce(&[weighted], &[z], &[0, 1], add)?;
        let main = b.build(loss)?;
        let entry = mb.add_computation(main);
        mb.build(entry)
    }

    fn loss_at(m: &Module, args: &[Literal]) -> f64 {
        smelt_interp::evaluate(m, args).unwrap().as_array().unwrap().data.get_f64(0)
    }

    /// Gradients of random programs agree with central finite differences.
    #[test]
    fn gradients_match_finite_differences() {
        let mut checked = 0;
        for seed in 0..40u64 {
            let m = random_program(seed).unwrap();
            let g = grad(&m, &[0, 1, 2]).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            let mut rng = SplitMix::new(1000 + seed);
            let mut arr = |dims: &[i64]| {
                let n = dims.iter().product::<i64>() as usize;
                Array::from_vec(dims, (0..n).map(|_| rng.uniform(-1.5, 1.5)).collect::<Vec<f64>>())
            };
            let args = vec![Literal::Array(arr(&[3, 4])), Literal::Array(arr(&[3, 4])), Literal::Array(arr(&[4, 2]))];
            let out = smelt_interp::evaluate(&g, &args).unwrap();
            let Literal::Tuple(parts) = out else { panic!("a tuple") };
            assert_eq!(parts.len(), 4);
            assert!((parts[0].as_array().unwrap().data.get_f64(0) - loss_at(&m, &args)).abs() < 1e-12);
            for p in 0..3 {
                let grads = parts[p + 1].as_array().unwrap();
                let base = args[p].as_array().unwrap();
                for i in 0..base.len() {
                    let h = 1e-6;
                    let shifted = |d: f64| {
                        let mut a = args.clone();
                        let Literal::Array(t) = &mut a[p] else { unreachable!() };
                        let ArrayData::F64(v) = &mut t.data else { unreachable!() };
                        v[i] += d;
                        loss_at(&m, &a)
                    };
                    let fd = (shifted(h) - shifted(-h)) / (2.0 * h);
                    let got = grads.data.get_f64(i);
                    assert!(
                        (got - fd).abs() <= 1e-5 + 1e-4 * fd.abs(),
                        "seed {seed}, parameter {p}, element {i}: autodiff {got}, finite differences {fd}\n{}",
                        smelt_hlo::print_module(&m)
                    );
                    checked += 1;
                }
            }
        }
        assert_eq!(checked, 40 * 32);
    }

    fn error_of(text: &str, wrt: &[u32]) -> String {
        grad(&parse_module(text).unwrap(), wrt).unwrap_err().to_string()
    }

    #[test]
    fn refusals_name_the_instruction() {
        let map = "HloModule s\n\
            neg { a = f32[] parameter(0)  ROOT n = f32[] negate(a) }\n\
            add { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT c = f32[] add(a, b) }\n\
            ENTRY main {\n  x = f32[5] parameter(0)\n  s = f32[5] map(x), dimensions={0}, to_apply=neg\n  \
            z = f32[] constant(0)\n  ROOT l = f32[] reduce(s, z), dimensions={0}, to_apply=add\n}\n";
        assert_eq!(error_of(map, &[0]), "autodiff: s (map): no gradient rule for this opcode yet");
        // Off the path (the mapped value is not used by the loss), it costs nothing.
        let off = map.replace("reduce(s, z)", "reduce(x, z)");
        assert!(grad(&parse_module(&off).unwrap(), &[0]).is_ok());
        let int = "HloModule i\nENTRY main {\n  x = f32[] parameter(0)\n  n = s32[] parameter(1)\n  \
            ROOT y = f32[] multiply(x, x)\n}\n";
        assert_eq!(
            error_of(int, &[1]),
            "autodiff: parameter 1 (n) is s32[]: only floating-point arrays have gradients"
        );
        assert_eq!(error_of(int, &[0, 0]), "autodiff: parameter 0 is named twice");
        assert_eq!(error_of(int, &[2]), "autodiff: the entry computation has no parameter 2 (it has 2)");
        let vector = "HloModule v\nENTRY main {\n  x = f32[3] parameter(0)\n  ROOT y = f32[3] exponential(x)\n}\n";
        assert!(error_of(vector, &[0]).contains("must be a floating-point scalar loss"));
        // A loop whose trip count depends on a float value.
        let dynamic = "HloModule d\n\
            cond { p = (f32[]) parameter(0)  v = f32[] get-tuple-element(p), index=0  \
            one = f32[] constant(100)  ROOT c = pred[] compare(v, one), direction=LT }\n\
            body { p = (f32[]) parameter(0)  v = f32[] get-tuple-element(p), index=0  \
            two = f32[] constant(2)  m = f32[] multiply(v, two)  ROOT t = (f32[]) tuple(m) }\n\
            ENTRY main {\n  x = f32[] parameter(0)\n  t = (f32[]) tuple(x)\n  \
            w = (f32[]) while(t), condition=cond, body=body\n  ROOT r = f32[] get-tuple-element(w), index=0\n}\n";
        assert!(
            error_of(dynamic, &[0]).starts_with("autodiff: w (while): its trip count does not follow from constants")
        );
    }

    /// A loop of constant trip count: the gradient of `x * 2^n` is `2^n`, and
    /// the module keeps the forward loop's result as its loss.
    #[test]
    fn a_counted_loop_differentiates() {
        let text = "HloModule l\n\
            cond { p = (s32[], f32[]) parameter(0)  i = s32[] get-tuple-element(p), index=0  \
            n = s32[] constant(5)  ROOT c = pred[] compare(i, n), direction=LT }\n\
            body { p = (s32[], f32[]) parameter(0)  i = s32[] get-tuple-element(p), index=0  \
            v = f32[] get-tuple-element(p), index=1  one = s32[] constant(1)  j = s32[] add(i, one)  \
            two = f32[] constant(2)  m = f32[] multiply(v, two)  ROOT t = (s32[], f32[]) tuple(j, m) }\n\
            ENTRY main {\n  x = f32[] parameter(0)\n  z = s32[] constant(0)\n  t = (s32[], f32[]) tuple(z, x)\n  \
            w = (s32[], f32[]) while(t), condition=cond, body=body\n  ROOT r = f32[] get-tuple-element(w), index=1\n}\n";
        let g = grad(&parse_module(text).unwrap(), &[0]).unwrap();
        let out = smelt_interp::evaluate(&g, &[Literal::Array(Array::scalar(1.5f32))]).unwrap();
        let Literal::Tuple(parts) = out else { panic!("a tuple") };
        assert_eq!(parts[0].as_array().unwrap().data.get_f64(0), 48.0);
        assert_eq!(parts[1].as_array().unwrap().data.get_f64(0), 32.0);
    }

    /// A loop's gradient equals that of the same program unrolled: an RNN
    /// step `h = tanh(w h) + 0.1` four times, the loss `sum(h * h)`, with
    /// respect to the weights (passed through the loop unchanged) and the
    /// initial state.
    #[test]
    fn a_loop_matches_its_unrolled_form() {
        let step = |h: &str, out: &str| {
            format!(
                "  {out}.d = f32[3] dot({w}, {h}), lhs_contracting_dims={{1}}, rhs_contracting_dims={{0}}\n  \
                 {out}.t = f32[3] tanh({out}.d)\n  {out}.c = f32[] constant(0.1)\n  \
                 {out}.b = f32[3] broadcast({out}.c), dimensions={{}}\n  {out} = f32[3] add({out}.t, {out}.b)\n",
                w = "w"
            )
        };
        let tail = |h: &str| {
            format!(
                "  sq = f32[3] multiply({h}, {h})\n  z = f32[] constant(0)\n  \
                 ROOT l = f32[] reduce(sq, z), dimensions={{0}}, to_apply=add\n}}\n"
            )
        };
        let add = "add { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT c = f32[] add(a, b) }\n";
        let mut unrolled =
            format!("HloModule u\n{add}ENTRY main {{\n  w = f32[3,3] parameter(0)\n  h0 = f32[3] parameter(1)\n");
        for k in 0..4 {
            unrolled += &step(&format!("h{k}"), &format!("h{}", k + 1));
        }
        unrolled += &tail("h4");
        let state = "(s32[], f32[3], f32[3,3])";
        let looped = format!(
            "HloModule l\n{add}\
             cond {{ p = {state} parameter(0)  i = s32[] get-tuple-element(p), index=0  \
             n = s32[] constant(4)  ROOT c = pred[] compare(i, n), direction=LT }}\n\
             body {{\n  p = {state} parameter(0)\n  i = s32[] get-tuple-element(p), index=0\n  \
             h = f32[3] get-tuple-element(p), index=1\n  w = f32[3,3] get-tuple-element(p), index=2\n\
             {}  one = s32[] constant(1)\n  j = s32[] add(i, one)\n  ROOT t = {state} tuple(j, h1, w)\n}}\n\
             ENTRY main {{\n  w = f32[3,3] parameter(0)\n  h0 = f32[3] parameter(1)\n  zero = s32[] constant(0)\n  \
             init = {state} tuple(zero, h0, w)\n  r = {state} while(init), condition=cond, body=body\n  \
             h4 = f32[3] get-tuple-element(r), index=1\n{}",
            step("h", "h1"),
            tail("h4")
        );
        let mut rng = SplitMix::new(7);
        let mut arr = |dims: &[i64]| {
            let n = dims.iter().product::<i64>() as usize;
            Literal::Array(Array::from_vec(dims, (0..n).map(|_| rng.uniform(-0.8, 0.8) as f32).collect::<Vec<f32>>()))
        };
        let args = vec![arr(&[3, 3]), arr(&[3])];
        let run = |text: &str| {
            let g = grad(&parse_module(text).unwrap_or_else(|e| panic!("{e}\n{text}")), &[0, 1]).unwrap();
            smelt_interp::evaluate(&g, &args).unwrap().into_leaves()
        };
        let (a, b) = (run(&looped), run(&unrolled));
        assert_eq!(a.len(), 3);
        for (x, y) in a.iter().zip(&b) {
            for i in 0..x.len() {
                let (p, q) = (x.data.get_f64(i), y.data.get_f64(i));
                assert!((p - q).abs() <= 1e-6 + 1e-5 * q.abs(), "loop {p}, unrolled {q}");
            }
        }
    }
}
