//! Reduction kernels, in one of two loop orders so both common shapes vectorize.
//!
//! - Column order (the innermost dimension is kept, e.g. summing a `[rows,
//!   cols]` array over rows): the reduced dimensions loop outside the kept
//!   innermost one, and each output element accumulates in the output buffer
//!   itself, a block of kept elements at a time so the block stays in L1. The
//!   innermost loop reads the input contiguously and updates contiguous outputs:
//!   it vectorizes with no reassociation at all, so each element is still summed
//!   in the interpreter's order. The block's run of the row two ahead is
//!   prefetched: runs are short, and hardware prefetchers lose them. Used when the outputs alias nothing else at
//!   this launch (they are accumulators while the inputs are read).
//! - Row order (otherwise, e.g. summing over the last dimension): for each kept
//!   index, the accumulators live in registers while the reduced dimensions run
//!   inside. Integer and min/max reducers vectorize as LLVM recognizes them;
//!   float sums reassociate in chunks (see `graph`), keeping the error low.
//!
//! The parallel dimension is the first kept dimension (a full reduction runs on
//! one thread).

use inkwell::IntPredicate;
use inkwell::values::{BasicValueEnum, IntValue, PointerValue};
use smelt_hlo::DType;
use smelt_kernel::ranges;
use smelt_kernel::{FnPattern, Graph, Kernel, KernelBody, Node, NodeId, ScalarFn};

use super::graph::{Env, Io, Task};
use super::kernels::{ROWS_AHEAD, row_streams};
use super::launch::column_block;
use super::{Cg, Loop, count, strides};
use crate::error::{Result, invalid};

/// The validated parts of a reduction kernel.
struct Plan<'k, 'ctx> {
    /// The reduce outputs (one per accumulator), the extra outputs with the
    /// nodes they store, and the accumulators' initial values.
    outs: &'k [Io<'ctx>],
    extras: &'k [(Io<'ctx>, NodeId)],
    inits: &'k [BasicValueEnum<'ctx>],
    space: &'k [i64],
    graph: &'k Graph,
    values: &'k [NodeId],
    reducer: &'k ScalarFn,
    rank: usize,
    kept: Vec<usize>,
    /// Which kept dimension is split across tasks (see `launch::par_dim`).
    par: usize,
    reduced: Vec<usize>,
    space_strides: Vec<i64>,
    /// Row-major strides of the kept dimensions (the reduce outputs' layout).
    kept_strides: Vec<i64>,
    acc_types: Vec<DType>,
}

impl<'ctx> Cg<'ctx, '_> {
    pub(crate) fn emit_reduce_kernel(&mut self, k: &Kernel, task: Task<'_, 'ctx>, column_ok: bool) -> Result<()> {
        let Task { io, .. } = task;
        let KernelBody::Reduce { space, reduced, graph, init, values, reducer, reduce_outputs, extra } = &k.body else {
            invalid!("kernel {} is not a reduction", k.name);
        };
        let rank = space.len();
        let mut red = reduced.clone();
        red.sort_unstable();
        red.dedup();
        if red.len() != reduced.len() || red.iter().any(|&d| d >= rank) {
            invalid!("kernel {}: reduced dimensions {reduced:?} for a space of rank {rank}", k.name);
        }
        let kept: Vec<usize> = (0..rank).filter(|d| !red.contains(d)).collect();
        let n = init.len();
        if values.len() != n || reduce_outputs.len() != n || reducer.outputs.len() != n || reducer.params.len() != 2 * n
        {
            invalid!("kernel {}: reduction arities disagree", k.name);
        }
        let acc_types: Vec<DType> = init.iter().map(|&i| graph.dtype(i)).collect();
        let kept_dims: Vec<i64> = kept.iter().map(|&d| space[d]).collect();
        let ni = k.inputs.len();
        for (r, &o) in reduce_outputs.iter().enumerate() {
            match k.outputs.get(o) {
                Some(t) if t.element_count() as i64 == count(&kept_dims) && t.dtype == acc_types[r] => {}
                _ => invalid!("kernel {}: reduce output {o} does not hold {:?} of {}", k.name, kept_dims, acc_types[r]),
            }
        }
        for &(o, node) in extra {
            match k.outputs.get(o) {
                Some(t)
                    if t.element_count() as i64 == count(space)
                        && graph.types.get(node.0 as usize) == Some(&t.dtype) => {}
                _ => invalid!("kernel {}: extra output {o} does not match the space", k.name),
            }
        }
        let outs: Vec<Io<'ctx>> = reduce_outputs.iter().map(|&o| io[ni + o].clone()).collect();
        let extras: Vec<(Io<'ctx>, NodeId)> = extra.iter().map(|&(o, nd)| (io[ni + o].clone(), nd)).collect();

        let inits = self.initial_values(graph, io, init)?;

        let plan = Plan {
            outs: &outs,
            extras: &extras,
            inits: &inits,
            space,
            graph,
            values,
            reducer,
            rank,
            par: super::launch::par_dim(&kept_dims),
            space_strides: strides(space),
            kept_strides: strides(&kept_dims),
            kept,
            reduced: red,
            acc_types,
        };
        let column = column_ok && rank > 0 && plan.kept.last() == Some(&(rank - 1)) && !plan.reduced.is_empty();
        if column { self.emit_column_order(&plan, task) } else { self.emit_row_order(&plan, task) }
    }

    /// Row-major offset into the kept layout of the kept indices in `idx`
    /// (indexed by space dimension; missing ones are skipped).
    fn kept_offset(&self, plan: &Plan<'_, 'ctx>, idx: &[Option<IntValue<'ctx>>]) -> Result<IntValue<'ctx>> {
        let mut off = self.i64c(0);
        for (j, &d) in plan.kept.iter().enumerate() {
            if let Some(i) = idx[d] {
                let t = self.b.build_int_mul(i, self.i64c(plan.kept_strides[j]), "")?;
                off = self.b.build_int_add(off, t, "")?;
            }
        }
        Ok(off)
    }

    /// Opens the loops over the first `n` kept dimensions and returns the
    /// index of each space dimension (those not yet set are `None`) with the
    /// open loops. Kept dimensions before the parallel one are 0, the parallel
    /// one runs over the task range and the rest over their extents.
    fn kept_loops(
        &self,
        plan: &Plan<'_, 'ctx>,
        n: usize,
        begin: IntValue<'ctx>,
        end: IntValue<'ctx>,
    ) -> Result<(Vec<Option<IntValue<'ctx>>>, Vec<Loop<'ctx>>)> {
        let mut idx = vec![None; plan.rank];
        let mut loops = Vec::new();
        for (j, &d) in plan.kept[..n].iter().enumerate() {
            if j < plan.par {
                idx[d] = Some(self.i64c(0));
                continue;
            }
            let (lo, hi) = if j == plan.par { (begin, end) } else { (self.i64c(0), self.i64c(plan.space[d])) };
            let l = self.loop_begin(lo, hi, 1, &format!("k{d}"))?;
            idx[d] = Some(l.index);
            loops.push(l);
        }
        Ok((idx, loops))
    }

    fn full_offset(&self, plan: &Plan<'_, 'ctx>, idx: &[IntValue<'ctx>]) -> Result<IntValue<'ctx>> {
        let mut off = self.i64c(0);
        for (d, &i) in idx.iter().enumerate() {
            let t = self.b.build_int_mul(i, self.i64c(plan.space_strides[d]), "")?;
            off = self.b.build_int_add(off, t, "")?;
        }
        Ok(off)
    }

    /// Emits the values (and stores the extra outputs) at the full index `idx`,
    /// with the graph specialized by `folds` (to a piece of the innermost
    /// dimension; empty: as it is).
    fn reduce_point(
        &mut self,
        plan: &Plan<'_, 'ctx>,
        io: &[Io<'ctx>],
        idx: &[IntValue<'ctx>],
        folds: ranges::Specialized,
    ) -> Result<Vec<BasicValueEnum<'ctx>>> {
        let off = self.full_offset(plan, idx)?;
        let mut env = Env::with_indices(plan.graph, idx.to_vec());
        env.identity = Some((off, plan.space.to_vec()));
        (env.folds, env.window_folds) = (folds.graph, folds.windows);
        let mut roots = plan.values.to_vec();
        roots.extend(plan.extras.iter().map(|e| e.1));
        self.emit_nodes(&mut env, io, &roots)?;
        for (o, node) in plan.extras {
            let v = self.value(&env, *node)?;
            self.store_elem(o.ptr, o.dtype, off, v)?;
        }
        plan.values.iter().map(|&v| self.value(&env, v)).collect()
    }

    fn emit_row_order(&mut self, plan: &Plan<'_, 'ctx>, task: Task<'_, 'ctx>) -> Result<()> {
        let (Task { io, begin, end }, outs, inits) = (task, plan.outs, plan.inits);
        let (idx, mut loops) = self.kept_loops(plan, plan.kept.len(), begin, end)?;
        if plan.kept.is_empty() {
            loops.push(self.loop_begin_once(begin, end, "k0")?);
        }
        let ko = self.kept_offset(plan, &idx)?;
        let extents: Vec<i64> = plan.reduced.iter().map(|&d| plan.space[d]).collect();
        let unrolled = super::graph::unrolls(&extents, plan.graph);
        let mut accs: Vec<PointerValue<'ctx>> = Vec::with_capacity(inits.len());
        for (&v, &t) in inits.iter().zip(&plan.acc_types) {
            let a = self.alloca(self.reg_type(t), "acc")?;
            self.b.build_store(a, v)?;
            accs.push(a);
        }
        let lo: Vec<IntValue<'ctx>> = plan.reduced.iter().map(|_| self.i64c(0)).collect();
        let hi: Vec<IntValue<'ctx>> = plan.reduced.iter().map(|&d| self.i64c(plan.space[d])).collect();
        let inner = plan.reduced.last().map(|&d| plan.space[d]);
        let kept_idx = idx.clone();
        let mut body = |cg: &mut Cg<'ctx, '_>, ridx: &[IntValue<'ctx>]| -> Result<Vec<BasicValueEnum<'ctx>>> {
            let mut full = Vec::with_capacity(plan.rank);
            let mut r = ridx.iter();
            for ki in kept_idx.iter() {
                match ki {
                    Some(i) => full.push(*i),
                    None => match r.next() {
                        Some(&i) => full.push(i),
                        None => invalid!("reduction index mismatch"),
                    },
                }
            }
            cg.reduce_point(plan, io, &full, Default::default())
        };
        if unrolled {
            let results =
                self.reduce_unrolled(&extents, inits.to_vec(), &plan.acc_types, plan.reducer, io, &mut body)?;
            for (v, o) in results.into_iter().zip(outs) {
                self.store_elem(o.ptr, o.dtype, ko, v)?;
            }
            return self.close_loops(loops);
        }
        if arg_lanes(plan) {
            self.reduce_box_arg(&lo, &hi, &accs, &plan.acc_types, plan.reducer, io, &mut body)?;
        } else {
            self.reduce_box(&lo, &hi, inner, &accs, &plan.acc_types, plan.reducer, io, &mut body)?;
        }
        for ((&a, &t), o) in accs.iter().zip(&plan.acc_types).zip(outs) {
            let v = self.b.build_load(self.reg_type(t), a, "")?;
            self.store_elem(o.ptr, o.dtype, ko, v)?;
        }
        self.close_loops(loops)
    }

    fn emit_column_order(&mut self, plan: &Plan<'_, 'ctx>, task: Task<'_, 'ctx>) -> Result<()> {
        let (Task { io, begin, end }, outs, inits) = (task, plan.outs, plan.inits);
        let inner = plan.rank - 1;
        let m = plan.kept.len();
        let (mut idx, loops) = self.kept_loops(plan, m - 1, begin, end)?;
        let ko = self.kept_offset(plan, &idx)?;
        let (lo, hi) = if plan.par == m - 1 { (begin, end) } else { (self.i64c(0), self.i64c(plan.space[inner])) };
        let block = column_block(&plan.acc_types);
        let live = plan.graph.live(&[plan.values, &plan.extras.iter().map(|e| e.1).collect::<Vec<_>>()].concat());
        let extra_outs: Vec<Io<'ctx>> = plan.extras.iter().map(|e| e.0.clone()).collect();
        let streams = row_streams(plan.graph, plan.space, &live, io, &extra_outs);
        let blocks = self.loop_begin(lo, hi, block, "blk")?;
        let jb = blocks.index;
        let je = self.b.build_int_add(jb, self.i64c(block), "")?;
        let short = self.b.build_int_compare(IntPredicate::SLT, je, hi, "")?;
        let je = self.b.build_select(short, je, hi, "")?.into_int_value();
        // Initialize the block of outputs.
        let il = self.loop_begin(jb, je, 1, "init")?;
        let o = self.b.build_int_add(ko, il.index, "")?;
        for (out, &v) in outs.iter().zip(inits) {
            self.store_elem(out.ptr, out.dtype, o, v)?;
        }
        self.loop_end(il)?;
        // Reduced dimensions outside, the kept block inside.
        let mut rloops = Vec::with_capacity(plan.reduced.len());
        for &d in &plan.reduced {
            let l = self.loop_begin(self.i64c(0), self.i64c(plan.space[d]), 1, &format!("r{d}"))?;
            idx[d] = Some(l.index);
            rloops.push(l);
        }
        // Each row's run of the block is short and the hardware prefetchers
        // lose the stream at every jump to the next row, so the block's run
        // `ROWS_AHEAD` rows further down the innermost reduced dimension is
        // prefetched (inputs read at the element's index, extra outputs).
        if let (Some(&d), false) = (plan.reduced.last(), streams.is_empty()) {
            let at: Vec<IntValue<'ctx>> =
                (0..plan.rank).map(|k| if k == inner { jb } else { idx[k].unwrap_or_else(|| self.i64c(0)) }).collect();
            let here = self.full_offset(plan, &at)?;
            let first = self.b.build_int_add(here, self.i64c(ROWS_AHEAD * plan.space_strides[d]), "")?;
            let count = self.b.build_int_sub(je, jb, "")?;
            self.prefetch_elements(&streams, first, count)?;
        }
        // The columns run as one loop per piece of the innermost dimension
        // that concatenations or pads switch along (`ranges::split_points`),
        // each with the graph specialized to its piece: no selects between
        // the pieces' operands, no clamped indices, loads that vectorize.
        let mut bounds = vec![0];
        bounds.extend(ranges::split_points(plan.graph, inner, plan.space[inner]));
        bounds.push(plan.space[inner]);
        for piece in bounds.windows(2) {
            let folds = if bounds.len() > 2 {
                ranges::specialize(plan.graph, plan.space, inner, piece[0], piece[1])
            } else {
                Default::default()
            };
            let (plo, phi) = if bounds.len() > 2 {
                (self.max_i64(jb, self.i64c(piece[0]))?, self.min_i64(je, self.i64c(piece[1]))?)
            } else {
                (jb, je)
            };
            let jl = self.loop_begin(plo, phi, 1, "col")?;
            idx[inner] = Some(jl.index);
            let full: Vec<IntValue<'ctx>> = idx.iter().map(|i| i.unwrap_or_else(|| self.i64c(0))).collect();
            let vals = self.reduce_point(plan, io, &full, folds)?;
            let o = self.b.build_int_add(ko, jl.index, "")?;
            let mut args = Vec::with_capacity(2 * outs.len());
            for out in outs {
                args.push(self.load_elem(out.ptr, out.dtype, o)?);
            }
            args.extend(vals);
            let new = self.apply_fn(plan.reducer, &args, io, false)?;
            for (out, v) in outs.iter().zip(new) {
                self.store_elem(out.ptr, out.dtype, o, v)?;
            }
            self.loop_end(jl)?;
        }
        self.close_loops(rloops)?;
        self.loop_end(blocks)?;
        self.close_loops(loops)
    }
}

/// Whether a row-order reduction is an argmax or argmin over the innermost
/// dimension long enough for lanes ([`Cg::reduce_box_arg`]): the reducer's
/// pattern, one reduced dimension, the values a float and that dimension's
/// index as s32 or s64 (so that the lanes' order is the indices').
fn arg_lanes(plan: &Plan<'_, '_>) -> bool {
    let (&[d], &[_, index]) = (plan.reduced.as_slice(), plan.values) else { return false };
    let is_index = |n: NodeId| matches!(plan.graph.nodes.get(n.0 as usize), Some(Node::Index(i)) if *i == d);
    let index_value = match plan.graph.nodes.get(index.0 as usize) {
        Some(Node::Convert { x, .. }) => is_index(*x),
        _ => is_index(index),
    };
    matches!(plan.reducer.pattern, Some(FnPattern::ArgMax { .. }))
        && d + 1 == plan.rank
        && index_value
        && plan.acc_types.first().is_some_and(|t| t.is_float())
        // Indices the lanes compare as signed, each its own value (no
        // narrow type wrapping them around).
        && matches!(plan.acc_types.get(1), Some(DType::S32 | DType::S64))
        && plan.space[d] >= 4 * super::graph::MINMAX_LANES
        && plan.space[d] <= i64::from(i32::MAX)
}
