//! The fusion cost model: the work a fused computation does against the work
//! of the same instructions run unfused, so that fusion never makes a kernel do
//! asymptotically more work than the program it came from.
//!
//! A kernel evaluates its fused computation over an iteration space (each
//! output's shape, outermost dimension first in layout order), and backends
//! hoist every value to the loop it depends on: an instruction runs once per
//! trip of the innermost loop its index depends on. Reductions, windows and
//! dots loop inline over what they reduce, once per evaluation of themselves.
//! The model follows every dimension of every instruction back to the loops its
//! index depends on (root dimensions through broadcasts, transposes, reshapes,
//! slices and pads; inline loops through reduces, windows and dots), counts
//! each instruction's evaluations from those loops' trip counts, and weighs an
//! evaluation by what it computes (see [`weight`]). Unfused, every
//! instruction is evaluated once per element of its result.
//!
//! A value reached through a broadcast along an inner dimension is hoisted;
//! one reached through a broadcast along an outer dimension is not, and the
//! model counts it per inner trip, as the kernel would compute it: that is the
//! cliff this model exists to see (a row statistic recomputed per element).

use std::collections::HashMap;

use smallvec::SmallVec;
use smelt_hlo::{Attrs, Computation, InstId, Instruction, Module, Opcode, Shape};

/// Fused work may be at most this many times the unfused work (fusion trades
/// some recomputation for memory traffic: row fusion computes an expensive
/// producer twice per element, small windows re-read cheap producers).
pub const MAX_COST_RATIO: f64 = 4.0;

/// Work of a computation fused and unfused, in weighted evaluations.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cost {
    pub fused: f64,
    pub unfused: f64,
}

impl Cost {
    /// Fused over unfused work (1 when there is no work).
    pub fn ratio(&self) -> f64 {
        if self.unfused <= 0.0 { 1.0 } else { self.fused / self.unfused }
    }
}

/// The cost of a fusion instruction's body (output fusions, whose root a
/// library routine computes, included: their epilogues are modelled alike).
pub fn fusion_cost(module: &Module, fusion: &Instruction) -> Option<Cost> {
    let body = module.comp(*fusion.called.first()?);
    Some(Model::of(body).cost(body))
}

/// The evaluations of each instruction of a computation run as one kernel.
pub struct Model {
    evaluations: HashMap<InstId, f64>,
}

/// One loop of a kernel: how many times its body runs in all.
struct Loop {
    trips: f64,
}

/// The loops each dimension of a value's index depends on.
type DimLoops = SmallVec<[SmallVec<[u32; 2]>; 4]>;

impl Model {
    /// Evaluation counts for `body` run as one kernel over its outputs.
    pub fn of(body: &Computation) -> Model {
        let root = body.inst(body.root);
        let outputs: Vec<InstId> = if root.opcode == Opcode::Tuple { root.operands.to_vec() } else { vec![body.root] };
        Model::build(body, &outputs, true)
    }

    /// Evaluation counts for the one instruction `id` of `comp` run as a
    /// kernel of its own: itself and how often it reads each operand.
    pub fn of_instruction(comp: &Computation, id: InstId) -> Model {
        Model::build(comp, &[id], false)
    }

    fn build(body: &Computation, outputs: &[InstId], whole: bool) -> Model {
        let mut loops: Vec<Loop> = Vec::new();
        let mut deps: HashMap<InstId, DimLoops> = HashMap::new();
        let mut evaluations = HashMap::new();
        // Outputs of one shape share their loops.
        let mut spaces: Vec<(Vec<i64>, DimLoops)> = Vec::new();
        for &out in outputs {
            let Some(a) = first_leaf(&body.inst(out).shape) else { continue };
            let dims = iteration_dims(body, body.inst(out));
            let space = match spaces.iter().find(|(d, _)| *d == dims) {
                Some((_, s)) => s.clone(),
                None => {
                    let mut space: DimLoops = dims.iter().map(|_| SmallVec::new()).collect();
                    let mut trips = 1.0;
                    let m2m = &a.layout.minor_to_major;
                    let order: Vec<usize> = if m2m.len() == dims.len() && m2m.iter().all(|&d| (d as usize) < dims.len())
                    {
                        m2m.iter().rev().map(|&d| d as usize).collect()
                    } else {
                        (0..dims.len()).collect()
                    };
                    for d in order {
                        trips *= dims[d].max(1) as f64;
                        space[d].push(loops.len() as u32);
                        loops.push(Loop { trips });
                    }
                    spaces.push((dims, space.clone()));
                    space
                }
            };
            merge(deps.entry(out).or_default(), &space);
        }
        let mut order = if whole { body.post_order() } else { Vec::new() };
        order.reverse();
        if !whole {
            order.extend_from_slice(outputs);
            for &out in outputs {
                order.extend(body.inst(out).operands.iter().copied());
            }
        }
        for (step, id) in order.into_iter().enumerate() {
            let Some(mine) = deps.get(&id).cloned() else { continue };
            if !whole && step >= outputs.len() {
                // An operand of a lone instruction: read, not computed here.
                let n = mine.iter().flatten().map(|&l| loops[l as usize].trips).fold(1.0, f64::max);
                evaluations.insert(id, n);
                continue;
            }
            let inst = body.inst(id);
            let n = mine.iter().flatten().map(|&l| loops[l as usize].trips).fold(1.0, f64::max);
            evaluations.insert(id, n);
            for (k, &op) in inst.operands.iter().enumerate() {
                let operand = body.inst(op);
                let theirs = operand_loops(body, inst, k, operand, &mine, n, &mut loops);
                merge(deps.entry(op).or_default(), &theirs);
            }
        }
        Model { evaluations }
    }

    /// How many times `id` is evaluated (0 when the kernel never reaches it).
    pub fn evaluations(&self, id: InstId) -> f64 {
        self.evaluations.get(&id).copied().unwrap_or(0.0)
    }

    /// Total weighted work, fused and unfused.
    pub fn cost(&self, body: &Computation) -> Cost {
        let mut cost = Cost { fused: 0.0, unfused: 0.0 };
        for (id, inst) in body.insts.iter() {
            let w = weight(body, inst);
            cost.fused += self.evaluations(id) * w;
            cost.unfused += iteration_elements(body, inst) * w;
        }
        cost
    }
}

/// The elements a kernel computing `inst` visits: its result's, except for a
/// dynamic-update-slice, which writes its update into its operand in place.
fn iteration_dims(body: &Computation, inst: &Instruction) -> Vec<i64> {
    match (inst.opcode, inst.operands.get(1)) {
        (Opcode::DynamicUpdateSlice, Some(&update)) => dims_of(&body.inst(update).shape),
        _ => dims_of(&inst.shape),
    }
}

/// Operand elements one output of a reduce-window reads: its window, except
/// for a scan along an axis, which backends compute reading each element once.
fn window_reads(w: &smelt_hlo::attrs::Window, operand: &[i64]) -> f64 {
    if w.as_scan(operand).is_some() {
        return 1.0;
    }
    w.dims.iter().map(|d| d.size.max(1) as f64).product()
}

/// Unions `add` into `into`, dimension by dimension.
fn merge(into: &mut DimLoops, add: &DimLoops) {
    if into.len() < add.len() {
        into.resize(add.len(), SmallVec::new());
    }
    for (i, ls) in add.iter().enumerate() {
        for &l in ls {
            if !into[i].contains(&l) {
                into[i].push(l);
            }
        }
    }
}

fn first_leaf(s: &Shape) -> Option<&smelt_hlo::ArrayShape> {
    match s {
        Shape::Array(a) => Some(a),
        Shape::Tuple(t) => t.iter().find_map(first_leaf),
    }
}

fn dims_of(s: &Shape) -> Vec<i64> {
    first_leaf(s).map(|a| a.dims.to_vec()).unwrap_or_default()
}

fn elements(s: &Shape) -> f64 {
    first_leaf(s).map_or(1.0, |a| a.dims.iter().map(|&d| d.max(0) as f64).product())
}

/// Every loop any dimension of `mine` depends on, for each of `rank` dimensions.
fn all(mine: &DimLoops, rank: usize) -> DimLoops {
    let mut union: SmallVec<[u32; 2]> = SmallVec::new();
    for &l in mine.iter().flatten() {
        if !union.contains(&l) {
            union.push(l);
        }
    }
    (0..rank).map(|_| union.clone()).collect()
}

/// A new inline loop of `extent` trips per evaluation of an instruction
/// evaluated `n` times.
fn inline_loop(loops: &mut Vec<Loop>, n: f64, extent: f64) -> u32 {
    loops.push(Loop { trips: n * extent.max(1.0) });
    loops.len() as u32 - 1
}

/// The loops operand `k` of `inst` depends on, per dimension, given the loops
/// of `inst`'s own dimensions (`mine`) and its evaluation count `n`.
fn operand_loops(
    body: &Computation,
    inst: &Instruction,
    k: usize,
    operand: &Instruction,
    mine: &DimLoops,
    n: f64,
    loops: &mut Vec<Loop>,
) -> DimLoops {
    let od = dims_of(&operand.shape);
    let rank = od.len();
    let same = || -> DimLoops { if mine.len() == rank { mine.clone() } else { all(mine, rank) } };
    match (&inst.attrs, inst.opcode) {
        _ if rank == 0 => DimLoops::new(),
        // Updated in place: the kernel writes the update's elements only.
        (_, Opcode::DynamicUpdateSlice) if k == 0 => DimLoops::new(),
        (Attrs::Dimensions(map), Opcode::Broadcast) if map.len() == rank => {
            map.iter().map(|&d| mine.get(d as usize).cloned().unwrap_or_default()).collect()
        }
        (Attrs::Dimensions(perm), Opcode::Transpose) if perm.len() == rank && mine.len() == rank => {
            let mut out: DimLoops = (0..rank).map(|_| SmallVec::new()).collect();
            for (i, &p) in perm.iter().enumerate() {
                out[p as usize] = mine[i].clone();
            }
            out
        }
        (_, Opcode::Reshape | Opcode::Bitcast) => reshape_loops(&dims_of(&inst.shape), &od, mine),
        (Attrs::Dimensions(reduced), Opcode::Reduce) => {
            let inputs = inst.operands.len() / 2;
            if k >= inputs {
                return DimLoops::new();
            }
            let extent: f64 = reduced.iter().map(|&d| od.get(d as usize).copied().unwrap_or(1) as f64).product();
            let l = inline_loop(loops, n, extent);
            let mut kept = mine.iter();
            (0..rank)
                .map(|d| {
                    if reduced.contains(&(d as i64)) {
                        SmallVec::from_slice(&[l])
                    } else {
                        kept.next().cloned().unwrap_or_default()
                    }
                })
                .collect()
        }
        (Attrs::Window(w), Opcode::ReduceWindow) => {
            if k >= inst.operands.len() / 2 {
                return DimLoops::new();
            }
            let extent = window_reads(w, &od);
            let l = inline_loop(loops, n, extent);
            let mut out = same();
            for ls in out.iter_mut() {
                ls.push(l);
            }
            out
        }
        (Attrs::Dot(dd), Opcode::Dot) => {
            let (batch, contracting) =
                if k == 0 { (&dd.lhs_batch, &dd.lhs_contracting) } else { (&dd.rhs_batch, &dd.rhs_contracting) };
            let extent: f64 = contracting.iter().map(|&d| od.get(d as usize).copied().unwrap_or(1) as f64).product();
            let l = inline_loop(loops, n, extent);
            // Result dimensions: batch, then the lhs's free ones, then the rhs's.
            let lhs_free = if k == 0 {
                0
            } else {
                let lhs_rank = inst.operands.first().map_or(0, |&o| dims_of(&body.inst(o).shape).len());
                lhs_rank.saturating_sub(dd.lhs_batch.len() + dd.lhs_contracting.len())
            };
            let mut free = batch.len() + lhs_free;
            (0..rank)
                .map(|d| {
                    let d = d as i64;
                    if contracting.contains(&d) {
                        SmallVec::from_slice(&[l])
                    } else if let Some(b) = batch.iter().position(|&x| x == d) {
                        mine.get(b).cloned().unwrap_or_default()
                    } else {
                        free += 1;
                        mine.get(free - 1).cloned().unwrap_or_default()
                    }
                })
                .collect()
        }
        (Attrs::Convolution(_), Opcode::Convolution) => {
            let extent = if k == 1 {
                elements(&operand.shape) / dims_of(&inst.shape).last().map_or(1.0, |&f| f.max(1) as f64)
            } else {
                elements(&operand.shape) / elements(&inst.shape).max(1.0)
            };
            let l = inline_loop(loops, n, extent.max(1.0));
            let mut out = all(mine, rank);
            for ls in out.iter_mut() {
                ls.push(l);
            }
            out
        }
        // Index operands of dynamic slices are scalars (handled above); the
        // sliced operand and an update follow the result's dimensions.
        (_, op)
            if op.is_elementwise()
                || matches!(
                    op,
                    Opcode::Slice
                        | Opcode::Pad
                        | Opcode::Reverse
                        | Opcode::Concatenate
                        | Opcode::DynamicSlice
                        | Opcode::DynamicUpdateSlice
                        | Opcode::Copy
                        | Opcode::Convert
                        | Opcode::Select
                        | Opcode::Clamp
                        | Opcode::GetTupleElement
                ) =>
        {
            same()
        }
        _ => all(mine, rank),
    }
}

/// Operand loops through a reshape: dimensions are grouped where the running
/// products of both sides meet, and each operand dimension depends on every
/// loop of its group's result dimensions.
fn reshape_loops(out: &[i64], operand: &[i64], mine: &DimLoops) -> DimLoops {
    let mut result: DimLoops = (0..operand.len()).map(|_| SmallVec::new()).collect();
    let (mut i, mut j) = (0, 0);
    while i < out.len() || j < operand.len() {
        let (gi, gj) = (i, j);
        let (mut pi, mut pj) = (1i128, 1i128);
        loop {
            if i < out.len() && (pi <= pj || j == operand.len()) {
                pi *= out[i].max(1) as i128;
                i += 1;
            } else if j < operand.len() {
                pj *= operand[j].max(1) as i128;
                j += 1;
            } else {
                break;
            }
            if pi == pj {
                break;
            }
        }
        let mut group: SmallVec<[u32; 2]> = SmallVec::new();
        for ls in mine.get(gi..i).into_iter().flatten() {
            for &l in ls {
                if !group.contains(&l) {
                    group.push(l);
                }
            }
        }
        for r in result.get_mut(gj..j).into_iter().flatten() {
            *r = group.clone();
        }
    }
    result
}

/// The work of one instruction of `comp` per element it computes: a fusion's
/// modelled body work spread over its iteration space, else [`weight`].
pub fn work_per_element(module: &Module, comp: &Computation, inst: &Instruction) -> f64 {
    match (inst.opcode, inst.called.first()) {
        (Opcode::Fusion, Some(&c)) => {
            let body = module.comp(c);
            let root = body.inst(body.root);
            let space = if root.opcode == Opcode::Tuple {
                root.operands.first().map_or(1.0, |&o| iteration_elements(body, body.inst(o)))
            } else {
                iteration_elements(body, root)
            };
            Model::of(body).cost(body).fused / space.max(1.0)
        }
        _ => weight(comp, inst),
    }
}

fn iteration_elements(body: &Computation, inst: &Instruction) -> f64 {
    iteration_dims(body, inst).iter().map(|&d| d.max(0) as f64).product()
}

/// Work per evaluation: operations weighted by what they cost (a
/// transcendental or divide 8, other arithmetic 1, moving data 1/4), times the
/// elements each evaluation reads for reductions, windows and products.
/// Parameters, constants and tuple plumbing are free (their reads are their
/// users' work).
pub fn weight(body: &Computation, inst: &Instruction) -> f64 {
    let operand_dims = |k: usize| inst.operands.get(k).map(|&o| dims_of(&body.inst(o).shape)).unwrap_or_default();
    match (&inst.attrs, inst.opcode) {
        (_, Opcode::Parameter | Opcode::Constant | Opcode::Tuple | Opcode::GetTupleElement | Opcode::Iota) => 0.0,
        (Attrs::Dimensions(reduced), Opcode::Reduce) => {
            let d = operand_dims(0);
            let r: f64 = reduced.iter().map(|&x| d.get(x as usize).copied().unwrap_or(1).max(1) as f64).product();
            r * (inst.operands.len() / 2).max(1) as f64
        }
        (Attrs::Window(w), Opcode::ReduceWindow) => window_reads(w, &operand_dims(0)),
        (Attrs::Dot(dd), Opcode::Dot) => {
            let d = operand_dims(0);
            dd.lhs_contracting.iter().map(|&x| d.get(x as usize).copied().unwrap_or(1).max(1) as f64).product()
        }
        (_, Opcode::Convolution) => {
            let rhs = inst.operands.get(1).map_or(1.0, |&o| elements(&body.inst(o).shape));
            rhs / dims_of(&inst.shape).last().map_or(1.0, |&f| f.max(1) as f64)
        }
        (_, op) if op.is_expensive() => 8.0,
        (_, op) if op.is_elementwise() => 1.0,
        _ => 0.25,
    }
}
