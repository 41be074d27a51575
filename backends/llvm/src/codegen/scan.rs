//! Scan kernels (cumulative sums, products, maxima along one axis), in one of
//! two loop orders so that both common shapes run at memory speed.
//!
//! - Column order (some dimension after the axis is not 1, e.g. `cumsum(x, 0)`
//!   of a `[rows, cols]` array): a task takes one index of the dimensions before
//!   the axis and a block of the (flattened) dimensions after it. The axis runs
//!   outside and the block inside: the inner loop reads a contiguous stretch of
//!   values and combines it with the output's previous row (`init` for the first
//!   row, which is peeled), so it vectorizes while each element still
//!   accumulates in order.
//! - Row order (the axis is the innermost dimension): a task takes a block of
//!   rows, which advance along the axis together, a tile of steps at a time.
//!   The tile's values are computed row by row (contiguous reads) into a stack
//!   array laid out step-major; the scan then walks the tile's steps with the
//!   block's rows side by side, accumulators in a stack array, so the loop over
//!   rows is independent work that vectorizes without gathers and hides the
//!   reducer's latency; the results go back out row by row. Walking one row at
//!   a time instead would wait on the reducer's latency at every element (an
//!   add's few cycles, a log-add-exp's dozens), and reading a column of rows
//!   directly would gather from addresses a power of two apart.
//!
//! Either way the parallel dimension is the task index (see `launch::scan_launch`).
//! Both orders compute the recurrence `out[j] = reducer(out[j -/+ 1], v[j])`,
//! which for a reverse scan reassociates a float sum or product (the kernel
//! form allows it: reverse scans have one commutative, associative reducer).

use inkwell::values::{BasicValueEnum, IntValue, PointerValue};
use smelt_hlo::DType;
use smelt_kernel::{Graph, Kernel, KernelBody, NodeId, ScalarFn};

use super::graph::{Env, Io, Task};
use super::launch::{COLUMN_BLOCK, Geom, TILE_STEPS, row_block};
use super::{Cg, count};
use crate::error::{Result, invalid};

impl<'ctx> Cg<'ctx, '_> {
    pub(crate) fn emit_scan_kernel(&mut self, k: &Kernel, task: Task<'_, 'ctx>) -> Result<()> {
        let Task { io, .. } = task;
        let KernelBody::Scan { space, axis, reverse, graph, init, values, reducer } = &k.body else {
            invalid!("kernel {} is not a scan", k.name);
        };
        let Some(g) = Geom::of(space, *axis) else {
            invalid!("kernel {}: scan axis {axis} outside a space of rank {}", k.name, space.len());
        };
        let n = init.len();
        if values.len() != n || k.outputs.len() != n || reducer.outputs.len() != n || reducer.params.len() != 2 * n {
            invalid!("kernel {}: scan arities disagree", k.name);
        }
        let acc_types: Vec<DType> = init.iter().map(|&i| graph.dtype(i)).collect();
        for (t, &a) in k.outputs.iter().zip(&acc_types) {
            if t.element_count() as i64 != count(space) || t.dtype != a {
                invalid!("kernel {}: scan output {} {:?} does not hold {a} {space:?}", k.name, t.dtype, t.dims);
            }
        }
        let outs: Vec<Io<'ctx>> = io[k.inputs.len()..].to_vec();
        let inits = self.initial_values(graph, io, init)?;
        let s = Scan {
            outs: &outs,
            inits: &inits,
            space,
            axis: *axis,
            reverse: *reverse,
            graph,
            values,
            reducer,
            geom: g,
            acc_types: &acc_types,
        };
        if g.column_order() { self.scan_columns(&s, task) } else { self.scan_rows(&s, task) }
    }

    /// The axis position of step `step` (counting from the end when reversed).
    fn scan_position(&self, s: &Scan<'_, 'ctx>, step: IntValue<'ctx>) -> Result<IntValue<'ctx>> {
        if s.reverse { Ok(self.b.build_int_sub(self.i64c(s.geom.n - 1), step, "")?) } else { Ok(step) }
    }

    /// The values at the point of outer index `o`, axis position `j` and inner
    /// (flattened) index `i`, whose row-major offset is `off`.
    fn scan_values(
        &mut self,
        s: &Scan<'_, 'ctx>,
        io: &[Io<'ctx>],
        (o, j, i): (IntValue<'ctx>, IntValue<'ctx>, IntValue<'ctx>),
        off: IntValue<'ctx>,
    ) -> Result<Vec<BasicValueEnum<'ctx>>> {
        let mut idx = self.unflatten(o, &s.space[..s.axis])?;
        idx.push(j);
        idx.extend(self.unflatten(i, &s.space[s.axis + 1..])?);
        let mut env = Env::with_indices(s.graph, idx);
        env.identity = Some((off, s.space.to_vec()));
        self.emit_nodes(&mut env, io, s.values)?;
        s.values.iter().map(|&v| self.value(&env, v)).collect()
    }

    /// Row-major indices of the flat index `x` in `dims` (unused ones fold away).
    fn unflatten(&self, x: IntValue<'ctx>, dims: &[i64]) -> Result<Vec<IntValue<'ctx>>> {
        let mut idx = vec![self.i64c(0); dims.len()];
        let mut rest = x;
        for d in (0..dims.len()).rev() {
            if dims[d] == 1 {
                continue;
            }
            if dims[..d].iter().all(|&e| e == 1) {
                idx[d] = rest;
                break;
            }
            let e = self.i64c(dims[d].max(1));
            idx[d] = self.b.build_int_unsigned_rem(rest, e, "")?;
            rest = self.b.build_int_unsigned_div(rest, e, "")?;
        }
        Ok(idx)
    }

    fn scan_columns(&mut self, s: &Scan<'_, 'ctx>, task: Task<'_, 'ctx>) -> Result<()> {
        let (Task { io, begin, end }, outs, inits) = (task, s.outs, s.inits);
        let g = s.geom;
        let block = COLUMN_BLOCK.min(g.inner);
        let blocks = self.i64c(g.blocks());
        let task = self.loop_begin(begin, end, 1, "task")?;
        let o = self.b.build_int_unsigned_div(task.index, blocks, "")?;
        let b = self.b.build_int_unsigned_rem(task.index, blocks, "")?;
        let i0 = self.b.build_int_mul(b, self.i64c(block), "")?;
        let i1 = self.min_i64(self.b.build_int_add(i0, self.i64c(block), "")?, self.i64c(g.inner))?;
        let plane = self.b.build_int_mul(o, self.i64c(g.n), "")?;
        // The first row starts from `init`; every later one from the row before.
        for first in [true, false] {
            let (lo, hi) = if first { (self.i64c(0), self.i64c(1)) } else { (self.i64c(1), self.i64c(g.n)) };
            let steps = self.loop_begin(lo, hi, 1, if first { "first" } else { "step" })?;
            let j = self.scan_position(s, steps.index)?;
            let row = self.b.build_int_mul(self.b.build_int_add(plane, j, "")?, self.i64c(g.inner), "")?;
            let prev_j = if s.reverse {
                self.b.build_int_add(j, self.i64c(1), "")?
            } else {
                self.b.build_int_sub(j, self.i64c(1), "")?
            };
            let prev = self.b.build_int_mul(self.b.build_int_add(plane, prev_j, "")?, self.i64c(g.inner), "")?;
            let cols = self.loop_begin(i0, i1, 1, "col")?;
            let off = self.b.build_int_add(row, cols.index, "")?;
            let vals = self.scan_values(s, io, (o, j, cols.index), off)?;
            let mut args = Vec::with_capacity(2 * outs.len());
            if first {
                args.extend_from_slice(inits);
            } else {
                let p = self.b.build_int_add(prev, cols.index, "")?;
                for out in outs {
                    args.push(self.load_elem(out.ptr, out.dtype, p)?);
                }
            }
            args.extend(vals);
            let new = self.apply_fn(s.reducer, &args, io, false)?;
            self.store_all(outs, off, &new)?;
            self.loop_end(cols)?;
            self.loop_end(steps)?;
        }
        self.loop_end(task)
    }

    fn scan_rows(&mut self, s: &Scan<'_, 'ctx>, task: Task<'_, 'ctx>) -> Result<()> {
        let (Task { io, begin, end }, outs, inits) = (task, s.outs, s.inits);
        let g = s.geom;
        let rb = row_block(g.outer);
        let value_types: Vec<DType> = s.values.iter().map(|&v| s.graph.dtype(v)).collect();
        let tile = (rb * TILE_STEPS) as u32;
        let mut accs = Vec::with_capacity(s.acc_types.len());
        let mut results = Vec::with_capacity(s.acc_types.len());
        for &t in s.acc_types {
            accs.push((self.alloca_array(self.reg_type(t), rb as u32, "accs")?, t));
            results.push((self.alloca_array(self.reg_type(t), tile, "results")?, t));
        }
        let mut vals = Vec::with_capacity(value_types.len());
        for &t in &value_types {
            vals.push((self.alloca_array(self.reg_type(t), tile, "values")?, t));
        }
        let task = self.loop_begin(begin, end, 1, "task")?;
        let r0 = self.b.build_int_mul(task.index, self.i64c(rb), "")?;
        let r1 = self.min_i64(self.b.build_int_add(r0, self.i64c(rb), "")?, self.i64c(g.outer))?;
        let il = self.loop_begin(r0, r1, 1, "init")?;
        let local = self.b.build_int_sub(il.index, r0, "")?;
        for (&(a, t), &v) in accs.iter().zip(inits) {
            let p = self.stack_elem(a, t, local)?;
            self.b.build_store(p, v)?;
        }
        self.loop_end(il)?;
        let chunk = self.loop_begin(self.i64c(0), self.i64c(g.n), TILE_STEPS, "chunk")?;
        let s0 = chunk.index;
        let s1 = self.min_i64(self.b.build_int_add(s0, self.i64c(TILE_STEPS), "")?, self.i64c(g.n))?;
        // Slot of (step, row) in a tile: rows of one step are adjacent.
        let at = |cg: &Self, step: IntValue<'ctx>, row: IntValue<'ctx>| -> Result<IntValue<'ctx>> {
            let st = cg.b.build_int_mul(cg.b.build_int_sub(step, s0, "")?, cg.i64c(rb), "")?;
            Ok(cg.b.build_int_add(st, cg.b.build_int_sub(row, r0, "")?, "")?)
        };
        // 1. The values of the tile, each row read contiguously.
        let rows = self.loop_begin(r0, r1, 1, "in.row")?;
        let steps = self.loop_begin(s0, s1, 1, "in.step")?;
        let j = self.scan_position(s, steps.index)?;
        let off = self.b.build_int_add(self.b.build_int_mul(rows.index, self.i64c(g.n), "")?, j, "")?;
        let v = self.scan_values(s, io, (rows.index, j, self.i64c(0)), off)?;
        let i = at(self, steps.index, rows.index)?;
        for (&(buf, t), &x) in vals.iter().zip(&v) {
            let p = self.stack_elem(buf, t, i)?;
            self.b.build_store(p, x)?;
        }
        self.loop_end_scalar(steps)?;
        self.loop_end_scalar(rows)?;
        // 2. The scan: at each step, the rows side by side.
        let steps = self.loop_begin(s0, s1, 1, "scan.step")?;
        let rows = self.loop_begin(r0, r1, 1, "scan.row")?;
        let i = at(self, steps.index, rows.index)?;
        let local = self.b.build_int_sub(rows.index, r0, "")?;
        let mut args = Vec::with_capacity(accs.len() + vals.len());
        let mut acc_ptrs = Vec::with_capacity(accs.len());
        for &(a, t) in &accs {
            let p = self.stack_elem(a, t, local)?;
            args.push(self.b.build_load(self.reg_type(t), p, "")?);
            acc_ptrs.push(p);
        }
        for &(buf, t) in &vals {
            let p = self.stack_elem(buf, t, i)?;
            args.push(self.b.build_load(self.reg_type(t), p, "")?);
        }
        let new = self.apply_fn(s.reducer, &args, io, false)?;
        if new.len() != accs.len() {
            invalid!("a scan reducer with {} results for {} accumulators", new.len(), accs.len());
        }
        for ((&p, &(res, t)), &x) in acc_ptrs.iter().zip(&results).zip(&new) {
            self.b.build_store(p, x)?;
            let q = self.stack_elem(res, t, i)?;
            self.b.build_store(q, x)?;
        }
        self.loop_end(rows)?;
        self.loop_end(steps)?;
        // 3. The results, each row written contiguously.
        let rows = self.loop_begin(r0, r1, 1, "out.row")?;
        let steps = self.loop_begin(s0, s1, 1, "out.step")?;
        let j = self.scan_position(s, steps.index)?;
        let off = self.b.build_int_add(self.b.build_int_mul(rows.index, self.i64c(g.n), "")?, j, "")?;
        let i = at(self, steps.index, rows.index)?;
        let mut out_vals = Vec::with_capacity(results.len());
        for &(res, t) in &results {
            let p = self.stack_elem(res, t, i)?;
            out_vals.push(self.b.build_load(self.reg_type(t), p, "")?);
        }
        self.store_all(outs, off, &out_vals)?;
        self.loop_end_scalar(steps)?;
        self.loop_end_scalar(rows)?;
        self.loop_end(chunk)?;
        self.loop_end(task)
    }

    /// Element `i` of a stack array of `t` registers.
    fn stack_elem(&self, base: PointerValue<'ctx>, t: DType, i: IntValue<'ctx>) -> Result<PointerValue<'ctx>> {
        // SAFETY: callers index below the array's length (a row block or a tile).
        Ok(unsafe { self.b.build_in_bounds_gep(self.reg_type(t), base, &[i], "")? })
    }

    /// Stores `values[r]` into output `r` at `off`.
    fn store_all(&self, outs: &[Io<'ctx>], off: IntValue<'ctx>, values: &[BasicValueEnum<'ctx>]) -> Result<()> {
        if values.len() != outs.len() {
            invalid!("a scan reducer with {} results for {} outputs", values.len(), outs.len());
        }
        for (o, &v) in outs.iter().zip(values) {
            self.store_elem(o.ptr, o.dtype, off, v)?;
        }
        Ok(())
    }
}

/// What the scan emitters share.
struct Scan<'k, 'ctx> {
    /// The outputs, one per accumulator, and the accumulators' initial values.
    outs: &'k [Io<'ctx>],
    inits: &'k [BasicValueEnum<'ctx>],
    space: &'k [i64],
    axis: usize,
    reverse: bool,
    graph: &'k Graph,
    values: &'k [NodeId],
    reducer: &'k ScalarFn,
    geom: Geom,
    acc_types: &'k [DType],
}
