//! Control flow under differentiation: loops (a backward loop over the
//! body's vector-Jacobian product, at states stored per iteration when the
//! trip count is a constant, recomputed from the initial state otherwise),
//! conditionals (a backward conditional over the branches'
//! products) and sorts (through the permutation). They are planned before
//! the computation that uses them is built, since planning adds computations.

use super::*;

/// Loops are differentiated when their trip count follows from constants, up
/// to this many trips.
pub(super) const MAX_LOOP_TRIPS: u64 = 1 << 24;

/// The most bytes a loop's stored states may take (trips times the bytes of the
/// state elements the body changes).
pub const LOOP_STACK_BUDGET: u64 = 1 << 30;

/// How one `while` on a differentiated path is differentiated: the forward
/// loop replaced by one that also counts its iterations and, when the trip
/// count is a constant, stores per iteration the state elements the body
/// changes (stacked along a new leading dimension, `trips` long); a backward
/// loop that runs the iterations in reverse, each computing the body's
/// vector-Jacobian product at that iteration's input state: read from the
/// stacks, or recomputed by replaying the body from the initial state (when
/// the trip count is only known at run time: constant memory, time
/// quadratic in the trips).
pub(super) struct LoopPlan {
    /// The constant trip count (stacks' length); 0 when recomputing.
    trips: u64,
    /// Per state element: whether it is stored per iteration.
    variant: Vec<bool>,
    /// When recomputing: the replay loop's condition and body over
    /// `(k, limit, state...)`.
    replay: Option<(CompId, CompId)>,
    /// Per state element: whether it carries a cotangent.
    float: Vec<bool>,
    fwd_cond: CompId,
    fwd_body: CompId,
    bwd_cond: CompId,
    bwd_body: CompId,
}

impl LoopPlan {
    pub(super) fn stacked(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.variant.len()).filter(|&k| self.variant[k])
    }

    pub(super) fn invariant(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.variant.len()).filter(|&k| !self.variant[k])
    }

    pub(super) fn floats(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.float.len()).filter(|&k| self.float[k])
    }
}

/// How a `conditional` on a differentiated path is differentiated: a backward
/// conditional with the same selector whose branch `j` computes the
/// vector-Jacobian product of forward branch `j` (at its operand, for the
/// cotangent of the result) and returns the cotangents of every branch's
/// operand, zero for the branches not taken.
pub(super) struct CondPlan {
    branches: Vec<CompId>,
    /// Per branch: its operand's floating-point leaves (the element of a
    /// tuple operand, or `None` for an array operand), in result order.
    leaves: Vec<Vec<(Option<usize>, ArrayShape)>>,
}

/// The control flow of one computation on a differentiated path, planned.
#[derive(Default)]
pub(super) struct Plans {
    pub(super) loops: HashMap<InstId, LoopPlan>,
    pub(super) conds: HashMap<InstId, CondPlan>,
    pub(super) sorts: HashMap<InstId, SortPlan>,
}

/// How a `sort` on a differentiated path is differentiated: the sort
/// repeated with an iota beside its operands gives the permutation it
/// applied; sorting the cotangents by that permutation puts each back where
/// its element came from.
pub(super) struct SortPlan {
    /// The forward comparator with two ignored s32 parameters appended.
    with_iota: CompId,
    /// `lhs < rhs` on an s32 key, ignoring the cotangents' parameters.
    by_key: CompId,
}

/// Plans sort `id` of `f`: its two comparators.
pub(super) fn plan_sort(m: &mut Module, names: &mut NameUniquer, f: &Computation, id: InstId) -> Result<SortPlan> {
    let inst = f.inst(id);
    let cmp = m.comp(inst.called[0]).clone();
    let mut b = ComputationBuilder::new(format!("{}_with_iota", cmp.name));
    let mut params = Vec::with_capacity(cmp.num_params() + 2);
    for (n, shape) in cmp.param_shapes().into_iter().enumerate() {
        params.push(b.parameter(n as u32, shape, &format!("p{n}")).map_err(broken)?);
    }
    let n = params.len() as u32;
    b.parameter(n, Shape::scalar(DType::S32), "iota_lhs").map_err(broken)?;
    b.parameter(n + 1, Shape::scalar(DType::S32), "iota_rhs").map_err(broken)?;
    let map = b.inline(&cmp, &params).map_err(broken)?;
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
pub(super) fn plan_control(
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
        let counted = crate::while_loop_simplifier::constant_trip_count(m, cid, id, MAX_LOOP_TRIPS);
        let trips = counted.unwrap_or(0);
        let elements: Vec<ArrayShape> = match &inst.shape {
            Shape::Tuple(es) => es
                .iter()
                .map(|e| e.as_array().cloned().ok_or_else(|| refuse("a loop state with nested tuples".into())))
                .collect::<Result<_>>()?,
            _ => return Err(refuse("a loop state that is not a tuple".into())),
        };
        let body = m.comp(body_id).clone();
        let broot = body.root_inst();
        if broot.opcode != Opcode::Tuple {
            return Err(refuse("a loop body whose root is not a tuple".into()));
        }
        let variant: Vec<bool> = (0..elements.len())
            .map(|k| {
                let o = body.inst(broot.operands[k]);
                counted.is_some()
                    && !(o.opcode == Opcode::GetTupleElement
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
            replay: None,
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
        if counted.is_none() {
            let (rc, rb) = replay(m, &body, &elements).map_err(broken)?;
            plan.replay = Some((add_renamed(m, names, rc), add_renamed(m, names, rb)));
        }
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
pub(super) fn plan_conditional(
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
pub(super) fn branch_vjp(
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

/// Rewrites every `while` whose state is a single array (as JAX emits
/// `while_loop` over one array) into one over a one-element tuple, the form
/// the loop rules take: `get-tuple-element(while(tuple(init)), 0)`.
pub(super) fn tuple_loop_states(m: &mut Module, names: &mut NameUniquer) -> Result<()> {
    let comps: Vec<CompId> = m.comps.ids().collect();
    for cid in comps {
        let loops: Vec<InstId> = m
            .comp(cid)
            .insts
            .iter()
            .filter(|(_, i)| i.opcode == Opcode::While && !i.shape.is_tuple())
            .map(|(id, _)| id)
            .collect();
        for w in loops {
            let inst = m.comp(cid).inst(w).clone();
            let state = Shape::Tuple(vec![inst.shape.clone()]);
            let wrap = |comp: &Computation, wrap_root: bool| -> std::result::Result<Computation, ShapeError> {
                let mut b = ComputationBuilder::with_computations(format!("{}_tupled", comp.name), Some(&m.comps));
                let p = b.parameter(0, state.clone(), "state")?;
                let x = b.get_tuple_element(p, 0)?;
                let map = b.inline(comp, &[x])?;
                let root = if wrap_root { b.tuple(&[map[&comp.root]])? } else { map[&comp.root] };
                b.build(root)
            };
            let cond = wrap(m.comp(inst.called[0]), false).map_err(broken)?;
            let body = wrap(m.comp(inst.called[1]), true).map_err(broken)?;
            let (cond, body) = (add_renamed(m, names, cond), add_renamed(m, names, body));
            let comp = m.comp_mut(cid);
            let init = comp.add(Instruction::new(
                names.make("tupled_init"),
                Opcode::Tuple,
                state.clone(),
                &[inst.operands[0]],
                Attrs::None,
            ));
            let mut tupled = Instruction::new(names.make(&inst.name), Opcode::While, state, &[init], Attrs::None)
                .with_called(&[cond, body]);
            tupled.extras = inst.extras.clone();
            let tupled = comp.add(tupled);
            let result = comp.add(Instruction::new(
                names.make("tupled_result"),
                Opcode::GetTupleElement,
                inst.shape.clone(),
                &[tupled],
                Attrs::GetTupleElement { index: 0 },
            ));
            comp.replace_all_uses(w, result);
            comp.remove(w);
        }
    }
    Ok(())
}

/// Rewrites every `map` whose computation is elementwise (parameters, scalar
/// constants, elementwise ops) into those ops over whole arrays, which the
/// elementwise rules differentiate; other maps are left (and refused on a
/// path).
pub(super) fn elementwise_maps(m: &mut Module, names: &mut NameUniquer) {
    let comps: Vec<CompId> = m.comps.ids().collect();
    for cid in comps {
        let maps: Vec<InstId> =
            m.comp(cid).insts.iter().filter(|(_, i)| i.opcode == Opcode::Map).map(|(id, _)| id).collect();
        for id in maps {
            let inst = m.comp(cid).inst(id).clone();
            let f = m.comp(inst.called[0]).clone();
            let Some(out) = inst.shape.as_array().cloned() else { continue };
            let scalar_only = f.insts.iter().all(|(_, i)| {
                i.shape.as_array().is_some_and(|a| a.rank() == 0)
                    && (matches!(i.opcode, Opcode::Parameter | Opcode::Constant) || i.opcode.is_elementwise())
            });
            if !scalar_only {
                continue;
            }
            let comp = m.comp_mut(cid);
            let mut map: HashMap<InstId, InstId> = HashMap::new();
            for fid in f.post_order() {
                let i = f.inst(fid);
                let dtype = i.shape.as_array().expect("checked: scalars").dtype;
                let shape = Shape::Array(ArrayShape { dtype, dims: out.dims.clone(), layout: out.layout.clone() });
                let new = match (i.opcode, i.parameter_number()) {
                    (_, Some(p)) => inst.operands[p as usize],
                    (Opcode::Constant, _) => {
                        let c = comp.add(Instruction::new(
                            names.make(&i.name),
                            Opcode::Constant,
                            i.shape.clone(),
                            &[],
                            i.attrs.clone(),
                        ));
                        let b = Instruction::new(
                            names.make(&i.name),
                            Opcode::Broadcast,
                            shape,
                            &[c],
                            Attrs::Dimensions(Default::default()),
                        );
                        comp.add(b)
                    }
                    _ => {
                        let operands: Vec<InstId> = i.operands.iter().map(|o| map[o]).collect();
                        comp.add(Instruction::new(names.make(&i.name), i.opcode, shape, &operands, i.attrs.clone()))
                    }
                };
                map.insert(fid, new);
            }
            comp.replace_all_uses(id, map[&f.root]);
            comp.remove(id);
        }
    }
}

/// Adds a computation built here, every name in it made unique in the module.
pub(super) fn add_renamed(m: &mut Module, names: &mut NameUniquer, mut comp: Computation) -> CompId {
    comp.name = names.make(&comp.name);
    let ids: Vec<InstId> = comp.insts.ids().collect();
    for id in ids {
        let name = names.make(&comp.inst(id).name);
        comp.inst_mut(id).name = name;
    }
    m.comps.alloc(comp)
}

/// The state elements `0..n` of tuple `p` as a tuple.
pub(super) fn state_of(b: &mut ComputationBuilder<'_>, p: InstId, n: usize) -> std::result::Result<InstId, ShapeError> {
    let elements = (0..n).map(|k| b.get_tuple_element(p, k as i64)).collect::<std::result::Result<Vec<_>, _>>()?;
    b.tuple(&elements)
}

/// The forward loop's condition over the augmented state: the original one on
/// its first `n` elements.
pub(super) fn fwd_cond(
    m: &Module,
    cond: &Computation,
    n: usize,
    aug: &Shape,
) -> std::result::Result<Computation, ShapeError> {
    let mut b = ComputationBuilder::with_computations(format!("{}_stored", cond.name), Some(&m.comps));
    let p = b.parameter(0, aug.clone(), "state")?;
    let s = state_of(&mut b, p, n)?;
    let map = b.inline(cond, &[s])?;
    b.build(map[&cond.root])
}

/// The forward loop's body over the augmented state `(state..., t, stacks...)`:
/// the original body, `t + 1`, and the iteration's input state written into
/// row `t` of the stacks.
pub(super) fn fwd_body(
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
    let map = b.inline(body, &[s])?;
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

/// The replay loop over `(k, limit, state...)`: the body applied while
/// `k < limit`, to recompute an iteration's input state from the initial one.
pub(super) fn replay(
    m: &Module,
    body: &Computation,
    elements: &[ArrayShape],
) -> std::result::Result<(Computation, Computation), ShapeError> {
    let n = elements.len();
    let mut shapes = vec![Shape::scalar(DType::S32), Shape::scalar(DType::S32)];
    shapes.extend(elements.iter().map(|a| Shape::Array(a.clone())));
    let shape = Shape::Tuple(shapes);
    let mut c = ComputationBuilder::new(format!("{}_replay_cond", body.name));
    let p = c.parameter(0, shape.clone(), "state")?;
    let (k, limit) = (c.get_tuple_element(p, 0)?, c.get_tuple_element(p, 1)?);
    let lt = c.compare(ComparisonDirection::Lt, k, limit)?;
    let cond = c.build(lt)?;
    let mut b = ComputationBuilder::with_computations(format!("{}_replay", body.name), Some(&m.comps));
    let p = b.parameter(0, shape, "state")?;
    let elems = (0..n).map(|i| b.get_tuple_element(p, (i + 2) as i64)).collect::<std::result::Result<Vec<_>, _>>()?;
    let s = b.tuple(&elems)?;
    let map = b.inline(body, &[s])?;
    let root = body.root_inst();
    let (k, limit) = (b.get_tuple_element(p, 0)?, b.get_tuple_element(p, 1)?);
    let one = b.constant(Literal::Array(Array::scalar(1i32)))?;
    let mut out = vec![b.binary(Opcode::Add, k, one)?, limit];
    out.extend(root.operands.iter().map(|o| map[o]));
    let r = b.tuple(&out)?;
    Ok((cond, b.build(r)?))
}

/// The backward loop's condition: iterations left (`t > 0`).
pub(super) fn bwd_cond(name: &str, bwd: &Shape) -> std::result::Result<Computation, ShapeError> {
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
pub(super) fn bwd_body(
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
    // Recomputing: iteration t - 1's input state replayed from the initial one.
    let replayed = match plan.replay {
        Some((cond, body_id)) => {
            let mut init = vec![zero, t1];
            for i in 0..n {
                init.push(gte(&mut bw, 1 + floats.len() + i)?);
            }
            let init = bw.b.tuple(&init).map_err(broken)?;
            Some(bw.b.while_loop(init, cond, body_id).map_err(broken)?)
        }
        None => None,
    };
    let mut state = Vec::with_capacity(n);
    for (k, a) in elements.iter().enumerate() {
        if let Some(r) = replayed {
            state.push(bw.b.get_tuple_element(r, (k + 2) as i64).map_err(broken)?);
            continue;
        }
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

impl Backward<'_> {
    /// The storing forward loop of `id` from initial state `init`; returns the
    /// loop's result as the original loop has it (its first elements).
    pub(super) fn stored_loop(&mut self, id: InstId, plan: &LoopPlan, init: InstId) -> Result<InstId> {
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

    /// A planned sort's cotangents sent back through its permutation.
    pub(super) fn transpose_sort(&mut self, id: InstId) -> Result<()> {
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

    /// A planned conditional's backward conditional: the result's cotangent
    /// taken, by the branch the selector picks, to the branch operands'.
    pub(super) fn transpose_conditional(&mut self, id: InstId, plan: &CondPlan) -> Result<()> {
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
    pub(super) fn transpose_loop(&mut self, id: InstId, plan: &LoopPlan) -> Result<()> {
        let inst = self.f.inst(id);
        let elements = inst.shape.tuple_elements().to_vec();
        let n = elements.len();
        let w = self.stored[&id];
        let count = if plan.replay.is_some() {
            // The storing loop counted its iterations.
            self.b.get_tuple_element(w, n as i64).map_err(broken)?
        } else {
            let trips = i32::try_from(plan.trips).map_err(|_| self.refuse(inst, "too many trips"))?;
            self.b.constant(Literal::Array(Array::scalar(trips))).map_err(broken)?
        };
        let mut state = vec![count];
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
        // Elements not stored: the initial state when recomputing (replays
        // start there), else the final one (they never change).
        let kept = if plan.replay.is_some() { self.x(inst.operands[0]) } else { w };
        for k in plan.invariant() {
            state.push(self.b.get_tuple_element(kept, k as i64).map_err(broken)?);
        }
        let init = self.b.tuple(&state).map_err(broken)?;
        let back = self.b.while_loop(init, plan.bwd_cond, plan.bwd_body).map_err(broken)?;
        for (i, k) in plan.floats().enumerate() {
            let g = self.b.get_tuple_element(back, (1 + i) as i64).map_err(broken)?;
            self.accumulate((inst.operands[0], Some(k)), g)?;
        }
        Ok(())
    }
}
