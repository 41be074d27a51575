//! Kernel functions: one per kernel and buffer-aliasing pattern, kernels
//! identical but for their names counting as one (`Cg::canonical_kernel`).
//!
//! ABI: `void kernel_N(ptr bufs, i64 begin, i64 end)`. `bufs` holds one pointer
//! per kernel input, then one per output; `[begin, end)` is a range of the
//! kernel's parallel dimension (its first dimension of extent other than 1, or
//! what `launch::launch_shape` says for the other kinds), the rest of the space runs
//! fully. The exported function loads the pointers and calls an internal,
//! always-inlined body whose pointer parameters carry what buffer assignment
//! guarantees at this launch: `noalias` for buffers no other slot overlaps (or
//! that only other inputs overlap), `align` (64 for arena offsets that allow
//! it) and `dereferenceable`. A slot holding exactly the buffer of an earlier
//! slot (an in-place kernel) gets the same pointer value, so LLVM sees the
//! read and the write of each element at the same address and vectorizes
//! without runtime alias checks. After inlining, `noalias` becomes scoped alias
//! metadata.
//!
//! Loop kernels whose loads all read the current element of same-shaped inputs
//! run as one flat loop over the whole space; others as a loop nest with the
//! innermost dimension contiguous, in 32x32 tiles when a load transposes: of
//! the innermost dimension and the one the load reads contiguously (an outer
//! one as well as the second innermost), so both the load's and the store's
//! cache lines are used whole.

use inkwell::IntPredicate;
use inkwell::attributes::AttributeLoc;
use inkwell::module::Linkage;
use inkwell::types::BasicMetadataTypeEnum;
use inkwell::values::{BasicMetadataValueEnum, BasicValueEnum, FunctionValue, IntValue, PointerValue};
use smelt_hlo::DType;
use smelt_kernel::ranges;
use smelt_kernel::{BinaryOp, Graph, Kernel, KernelBody, KernelId, Node, NodeId, ScalarFn, WindowSpec};

use super::graph::{Env, Io, Task, as_int};
use super::launch::{TILE, loop_space, node_levels, par_dim, par_extent, transposed_dim};
use super::{Cg, count};
use crate::error::{LlvmError, Result, invalid};

/// What one kernel launch guarantees about one buffer pointer.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Slot {
    pub noalias: bool,
    pub align: u32,
    pub bytes: u64,
    /// An earlier slot holding exactly the same buffer.
    pub same_as: Option<usize>,
}

/// A loop kernel's nest as [`Cg::emit_loop_hoisting`] emits it: its space,
/// graph, output nodes, and input and output buffers.
#[derive(Clone, Copy)]
struct Nest<'a, 'ctx> {
    space: &'a [i64],
    graph: &'a Graph,
    outputs: &'a [NodeId],
    io: &'a [Io<'ctx>],
    outs: &'a [Io<'ctx>],
}

impl<'ctx> Cg<'ctx, '_> {
    /// The entry point for kernel `kid` launched with buffers described by
    /// `slots`: `void(ptr bufs, i64 begin, i64 end)`, the buffers' pointers in
    /// an array (what `smelt_parallel_for` and the profiler call).
    pub fn kernel_fn(&mut self, kid: KernelId, slots: Vec<Slot>) -> Result<FunctionValue<'ctx>> {
        let kid = self.canonical_kernel(kid);
        let slots = self.sort_slots(kid, slots);
        let key = (kid.0, slots.clone());
        if let Some(&f) = self.variants.get(&key) {
            return Ok(f);
        }
        let t = self.t;
        let entry_type = t.void.fn_type(&[t.ptr.into(), t.i64.into(), t.i64.into()], false);
        if self.remote.get(kid.0 as usize) == Some(&true) {
            // Defined by another module of the same program.
            let name = self.entry_name(kid.0, &slots);
            let f = self.module.add_function(&name, entry_type, Some(Linkage::External));
            self.variants.insert(key, f);
            self.remote_entries.push((kid, slots, name));
            return Ok(f);
        }
        let body = self.kernel_body(kid, &slots)?;
        let name = self.bodies[&key].0.clone();
        let nslots = slots.len();
        let f = self.module.add_function(&name, entry_type, Some(Linkage::External));
        self.stamp(f);
        self.begin_fn(f);
        let bufs = param(f, 0)?.into_pointer_value();
        let mut ptrs: Vec<PointerValue<'ctx>> = Vec::with_capacity(nslots);
        for (i, s) in slots.iter().enumerate() {
            let p = match s.same_as {
                Some(j) if j < i => ptrs[j],
                _ => self.load_ptr(bufs, i as u64)?,
            };
            ptrs.push(p);
        }
        let mut args: Vec<BasicMetadataValueEnum<'ctx>> = ptrs.iter().map(|&p| p.into()).collect();
        args.push(param(f, 1)?.into());
        args.push(param(f, 2)?.into());
        self.call(body, &args)?;
        self.b.build_return(None)?;
        self.end_fn()?;
        self.variants.insert(key, f);
        Ok(f)
    }

    /// `slots` as sort kernel `kid` (canonical) uses them: aligned to their
    /// elements only. A sort copies each slice into scratch first, so its
    /// buffers' alignment buys nothing, and sorts launched on a parameter and
    /// on the arena share one function (other kernels: `slots` as given).
    fn sort_slots(&self, kid: KernelId, mut slots: Vec<Slot>) -> Vec<Slot> {
        if let Some(k) = self.program.kernels.get(kid.0 as usize)
            && matches!(k.body, KernelBody::Sort { .. })
        {
            for (s, t) in slots.iter_mut().zip(k.inputs.iter().chain(&k.outputs)) {
                s.align = s.align.min(t.dtype.byte_size().max(1) as u32);
            }
        }
        slots
    }

    /// The always-inlined body of kernel `kid` for buffers described by
    /// `slots` (see [`Cg::kernel_body_fn`]), made once per kernel and slots.
    /// A caller with the pointers at hand calls it directly; it is inlined
    /// there.
    pub fn kernel_body(&mut self, kid: KernelId, slots: &[Slot]) -> Result<FunctionValue<'ctx>> {
        let kid = self.canonical_kernel(kid);
        let slots = &self.sort_slots(kid, slots.to_vec());
        let key = (kid.0, slots.to_vec());
        if let Some((_, f)) = self.bodies.get(&key) {
            return Ok(*f);
        }
        let name = self.entry_name(kid.0, slots);
        let body = self.kernel_body_fn(kid, slots, &name)?;
        self.bodies.insert(key, (name, body));
        Ok(body)
    }

    /// The internal, always-inlined body of kernel `kid`:
    /// `NAME.body(ptr buf0, ..., ptr bufN, i64 begin, i64 end)` computes the
    /// iterations `[begin, end)` of the kernel's parallel dimension (see
    /// `launch::launch_shape`), one pointer per input then output, described by `slots`.
    pub fn kernel_body_fn(&mut self, kid: KernelId, slots: &[Slot], name: &str) -> Result<FunctionValue<'ctx>> {
        let program = self.program;
        let Some(k) = program.kernels.get(kid.0 as usize) else {
            invalid!("kernel {} out of range ({} kernels)", kid.0, program.kernels.len());
        };
        let t = self.t;
        let nslots = slots.len();
        if k.inputs.len() + k.outputs.len() != nslots {
            invalid!("kernel {} has {} buffers, launched with {nslots}", kid.0, k.inputs.len() + k.outputs.len());
        }

        // The body, with attributed pointer parameters.
        let mut params: Vec<BasicMetadataTypeEnum<'ctx>> = vec![t.ptr.into(); nslots];
        params.push(t.i64.into());
        params.push(t.i64.into());
        let body = self.module.add_function(&format!("{name}.body"), t.void.fn_type(&params, false), None);
        self.stamp(body);
        self.internal_inline(body);
        self.slot_attributes(body, slots);
        self.begin_fn(body);
        self.mark_straight_line();
        if let Some(stub) = self.tiles.get(&kid.0).cloned() {
            self.emit_tile_stub(body, &stub, nslots)?;
            self.end_fn()?;
            return Ok(body);
        }
        let mut io = Vec::with_capacity(nslots);
        for (i, ty) in k.inputs.iter().chain(&k.outputs).enumerate() {
            let p = param(body, i as u32)?.into_pointer_value();
            io.push(Io::new(p, ty));
        }
        let begin = param(body, nslots as u32)?.into_int_value();
        let end = param(body, nslots as u32 + 1)?.into_int_value();
        // Column-order reductions accumulate in their outputs: they must alias nothing.
        let column_ok = match &k.body {
            KernelBody::Reduce { reduce_outputs, .. } => reduce_outputs.iter().all(|&o| {
                let i = k.inputs.len() + o;
                slots.get(i).is_some_and(|s| s.noalias && s.same_as.is_none())
                    && !slots.iter().any(|s| s.same_as == Some(i))
            }),
            _ => false,
        };
        self.emit_kernel_body(k, Task { io: &io, begin, end }, column_ok)?;
        self.b.build_return(None)?;
        self.end_fn()?;
        Ok(body)
    }

    /// Puts on `body`'s first pointer parameters what `slots` guarantee
    /// about them: `noalias` (not for a slot repeating an earlier one's
    /// buffer), `align` and, where the size is known, `dereferenceable`.
    pub fn slot_attributes(&self, body: FunctionValue<'ctx>, slots: &[Slot]) {
        for (i, s) in slots.iter().enumerate() {
            let loc = AttributeLoc::Param(i as u32);
            if s.noalias && s.same_as.is_none() {
                body.add_attribute(loc, self.enum_attr("noalias", 0));
            }
            body.add_attribute(loc, self.enum_attr("align", s.align.max(1) as u64));
            if s.bytes > 0 {
                body.add_attribute(loc, self.enum_attr("dereferenceable", s.bytes));
            }
        }
    }

    /// A tile-run kernel's body: the buffer pointers into an array, then
    /// one call of the interpreter ([`super::TileStub`]).
    fn emit_tile_stub(&mut self, body: FunctionValue<'ctx>, stub: &super::TileStub, nslots: usize) -> Result<()> {
        let t = self.t;
        let name = body.get_name().to_string_lossy().into_owned();
        let words: Vec<u8> = stub.code.iter().flat_map(|w| w.to_le_bytes()).collect();
        let code = self.global_bytes(&format!("{name}.tiles"), &words);
        let entry = t.void.fn_type(&[t.ptr.into(), t.i64.into(), t.i64.into()], false);
        let fns: Vec<PointerValue<'ctx>> = stub
            .fns
            .iter()
            .map(|s| {
                let f = self.module.get_function(s).unwrap_or_else(|| self.module.add_function(s, entry, None));
                f.as_global_value().as_pointer_value()
            })
            .collect();
        let table = t.ptr.const_array(&fns);
        let g = self.module.add_global(table.get_type(), None, &format!("{name}.fns"));
        g.set_initializer(&table);
        g.set_constant(true);
        g.set_linkage(Linkage::Private);
        let arr = self.alloca_array(t.ptr, nslots.max(1) as u32, "bufs")?;
        for i in 0..nslots {
            let p = param(body, i as u32)?.into_pointer_value();
            self.store_ptr(arr, i as u64, p)?;
        }
        let run = self.function(
            super::TILE_RUN_SYMBOL,
            None,
            &[t.ptr.into(), t.i64.into(), t.ptr.into(), t.ptr.into(), t.i64.into(), t.i64.into()],
        );
        let begin = param(body, nslots as u32)?;
        let end = param(body, nslots as u32 + 1)?;
        let len = self.i64c(stub.code.len() as i64);
        self.call(run, &[code.into(), len.into(), g.as_pointer_value().into(), arr.into(), begin.into(), end.into()])?;
        self.b.build_return(None)?;
        Ok(())
    }

    fn emit_kernel_body(&mut self, k: &Kernel, task: Task<'_, 'ctx>, column_ok: bool) -> Result<()> {
        let Task { io, begin, end } = task;
        let ni = k.inputs.len();
        match &k.body {
            KernelBody::Loop { space, graph, outputs } => self.emit_loop(k, space, graph, outputs, task),
            KernelBody::Reduce { .. } => self.emit_reduce_kernel(k, task, column_ok),
            KernelBody::Scan { .. } => self.emit_scan_kernel(k, task),
            KernelBody::UpdateSlice { space, graph, start, value } => {
                self.emit_update_slice(space, graph, start, *value, io, ni, begin, end)
            }
            KernelBody::Scatter { space, graph, target, in_bounds, values, combiner } => {
                self.emit_scatter(space, graph, target, *in_bounds, values, combiner, io, ni, begin, end)
            }
            KernelBody::Sort { dims, dimension, comparator, .. } => {
                self.emit_sort(k, dims, *dimension, comparator, task)
            }
            KernelBody::SelectAndScatter { window, select, scatter } => {
                self.emit_select_and_scatter(k, window, select, scatter, io)
            }
            KernelBody::RngBitGenerator { algorithm } => self.emit_rng(k, *algorithm, task),
        }
    }

    /// Opens the loop of dimension `d` of a space whose parallel dimension is
    /// `par` (which runs over `range`, the others over their extent); returns it
    /// and the row-major offset of the current element given the enclosing
    /// loops' offset `off`.
    fn open_dim(
        &self,
        d: usize,
        par: usize,
        extent: i64,
        range: (IntValue<'ctx>, IntValue<'ctx>),
        off: IntValue<'ctx>,
    ) -> Result<(super::Loop<'ctx>, IntValue<'ctx>)> {
        let (lo, hi) = if d == par { range } else { (self.i64c(0), self.i64c(extent)) };
        let l = self.loop_begin(lo, hi, 1, &format!("d{d}"))?;
        let off = if d == par {
            l.index
        } else {
            let m = self.b.build_int_mul(off, self.i64c(extent), "")?;
            self.b.build_int_add(m, l.index, "")?
        };
        Ok((l, off))
    }

    /// Opens loops over `space` (dimension 0 over `[begin, end)`); returns the
    /// loops, the indices and the row-major offset of the current element.
    pub fn open_space(
        &self,
        space: &[i64],
        begin: IntValue<'ctx>,
        end: IntValue<'ctx>,
    ) -> Result<(Vec<super::Loop<'ctx>>, Vec<IntValue<'ctx>>, IntValue<'ctx>)> {
        let par = par_dim(space);
        let mut loops = Vec::with_capacity(space.len());
        let mut idx = Vec::with_capacity(space.len());
        let mut off = self.i64c(0);
        for (d, &extent) in space.iter().enumerate() {
            if d < par {
                // Leading dimensions of extent 1.
                idx.push(self.i64c(0));
                continue;
            }
            let l;
            (l, off) = self.open_dim(d, par, extent, (begin, end), off)?;
            idx.push(l.index);
            loops.push(l);
        }
        Ok((loops, idx, off))
    }

    /// A loop kernel's loops with the graph emitted as they open: each node
    /// the outputs need goes in the body of the outermost loop it depends on
    /// (see [`node_levels`]), so a value that depends only on leading indices (a
    /// row statistic such as a softmax's max and sum, computed by an inline
    /// reduction) is computed once per row instead of once per element. An
    /// innermost dimension that concatenations or pads switch along
    /// ([`ranges::split_points`]) runs as one loop per piece, each with the
    /// graph specialized to its piece: no selects between operands, no index
    /// clamps, affine loads that vectorize.
    ///
    /// The parallel (outermost) dimension is cut the same way when it is not
    /// the innermost one and the graph reduces windows: a concatenation
    /// along channels fused into a pool reads one operand per tap instead of
    /// every operand and a select (a 3x3/2 max pool over two 64-channel
    /// halves of `1x128x55x55`, two threads: 0.057 -> 0.045 ms, as fast as
    /// over one array). Each piece is the nest over the task's part of it.
    /// Elementwise kernels are left whole: DenseNet-121's concatenations
    /// with batch norms ran no faster cut (their loads hit the same lines)
    /// and took 36% longer to compile.
    fn emit_loop_hoisting(
        &mut self,
        space: &[i64],
        graph: &Graph,
        outputs: &[NodeId],
        io: &[Io<'ctx>],
        outs: &[Io<'ctx>],
        begin: IntValue<'ctx>,
        end: IntValue<'ctx>,
    ) -> Result<()> {
        let par = par_dim(space);
        let windows = graph.nodes.iter().any(|n| matches!(n, Node::Reduce(_)));
        let cuts =
            if windows && par + 1 < space.len() { ranges::split_points(graph, par, space[par]) } else { Vec::new() };
        let nest = Nest { space, graph, outputs, io, outs };
        if cuts.is_empty() {
            return self.emit_loop_piece(nest, (begin, end), None);
        }
        let mut bounds = vec![0];
        bounds.extend(cuts);
        bounds.push(space[par]);
        for piece in bounds.windows(2) {
            let lo = self.max_i64(begin, self.i64c(piece[0]))?;
            let hi = self.min_i64(end, self.i64c(piece[1]))?;
            self.emit_loop_piece(nest, (lo, hi), Some((par, piece[0], piece[1])))?;
        }
        Ok(())
    }

    /// [`Cg::emit_loop_hoisting`]'s nest over `range` of the parallel
    /// dimension, with the graph specialized to `par_piece` (`(dim, lo, hi)`,
    /// that dimension's piece) where there is one.
    fn emit_loop_piece(
        &mut self,
        Nest { space, graph, outputs, io, outs }: Nest<'_, 'ctx>,
        (begin, end): (IntValue<'ctx>, IntValue<'ctx>),
        par_piece: Option<(usize, i64, i64)>,
    ) -> Result<()> {
        let par = par_dim(space);
        let levels = node_levels(graph, par);
        let needed = graph.live(outputs);
        let at_level = |l: usize| nodes_at_level(&levels, &needed, l);
        let last = space.len() - 1;
        let splits = if last > par { ranges::split_points(graph, last, space[last]) } else { Vec::new() };
        let mut env = Env::new(graph);
        if let Some(p) = par_piece {
            let base = ranges::specialize_within(graph, space, &[p]);
            (env.folds, env.window_folds) = (base.graph, base.windows);
        }
        // Row values a row statistic computes that the elements need again
        // (a softmax's exp) are kept from the statistic's loop.
        let mut rows = Vec::new();
        if last > par && splits.is_empty() && par_piece.is_none() {
            let reuse = row_reuse(graph, space, &levels, &needed);
            for &(reduce, value, elem) in &reuse.kept {
                let d = graph.dtype(elem);
                let bytes = (space[last] as u64 * d.byte_size().max(1) as u64) as u32;
                let buf = self.alloca(self.t.i8.array_type(bytes), "row")?;
                if let Some(i) = buf.as_instruction() {
                    i.set_alignment(64).map_err(|e| LlvmError::Llvm(e.to_string()))?;
                }
                env.materialize.insert(reduce.0, (value, buf, d));
                rows.push((elem, buf, d));
            }
            for &(reduce, node, k) in &reuse.reads {
                let (elem, buf, d) = rows[k];
                if graph.dtype(elem) == d {
                    env.row_reads.entry(reduce.0).or_default().push((node, buf, d));
                }
            }
        }
        // A row kernel (a statistic over the innermost dimension, computed per
        // row before the row's elements) walks each row in several passes and
        // spends most of a row's time computing from cache; the rows ahead are
        // prefetched so that their memory traffic overlaps that computing.
        let row_kernel = last > par
            && graph.nodes.iter().enumerate().any(
                |(i, n)| matches!(n, Node::Reduce(r) if needed[i] && levels[i] < last && r.window[..] == [space[last]]),
            );
        let streams = if row_kernel { row_streams(graph, space, &needed, io, outs) } else { Vec::new() };
        // Leading unit dimensions are the constant 0; what depends on nothing
        // else goes before the loops (level `par`, by `node_levels`'s numbering,
        // is the first loop's body).
        env.indices = vec![self.i64c(0); par];
        let mut loops = Vec::with_capacity(space.len() - par);
        let mut off = self.i64c(0);
        let none = at_level(usize::MAX);
        self.emit_nodes(&mut env, io, &none)?;
        for (d, &extent) in space.iter().enumerate().skip(par) {
            if d == last && !splits.is_empty() {
                break;
            }
            let l;
            (l, off) = self.open_dim(d, par, extent, (begin, end), off)?;
            env.indices.push(l.index);
            loops.push(l);
            if d + 1 == space.len() {
                env.identity = Some((off, space.to_vec()));
                let at = env.indices[d];
                for &(elem, buf, dt) in &rows {
                    let v = self.load_elem(buf, dt, at)?;
                    env.bind(elem, v);
                }
            }
            if d + 2 == space.len() && row_kernel {
                self.prefetch_row(&streams, off, space[last])?;
            }
            let here = at_level(d);
            self.emit_nodes(&mut env, io, &here)?;
        }
        let fold = last > par && !ranges::strided(graph, last);
        let lanes = i64::from(self.target.vector_bits / 32);
        if splits.is_empty() {
            self.emit_nodes(&mut env, io, outputs)?;
            self.store_outputs(&env, outputs, outs, off)?;
            if fold && folds_tail(space[last], lanes) {
                if let Some(inner) = loops.pop() {
                    self.loop_end_fold_tail(inner)?;
                }
            }
            return self.close_loops(loops);
        }
        let inner = at_level(last);
        let mut bounds = vec![0];
        bounds.extend(splits);
        bounds.push(space[last]);
        let row = self.b.build_int_mul(off, self.i64c(space[last]), "")?;
        for piece in bounds.windows(2) {
            let within: Vec<_> = par_piece.into_iter().chain([(last, piece[0], piece[1])]).collect();
            let piece_folds = ranges::specialize_within(graph, space, &within);
            (env.folds, env.window_folds) = (piece_folds.graph, piece_folds.windows);
            let l = self.loop_begin(self.i64c(piece[0]), self.i64c(piece[1]), 1, &format!("d{last}.{}", piece[0]))?;
            let at = self.b.build_int_add(row, l.index, "")?;
            env.indices.push(l.index);
            env.identity = Some((at, space.to_vec()));
            self.emit_nodes(&mut env, io, &inner)?;
            self.emit_nodes(&mut env, io, outputs)?;
            self.store_outputs(&env, outputs, outs, at)?;
            if fold && folds_tail(piece[1] - piece[0], lanes) {
                self.loop_end_fold_tail(l)?;
            } else {
                self.loop_end(l)?;
            }
            env.indices.pop();
            env.forget(&inner);
        }
        self.close_loops(loops)
    }

    /// Prefetches row `row + ROWS_AHEAD` of each stream (rows of `width`
    /// elements): one hint per cache line, for reading or for writing.
    fn prefetch_row(
        &self,
        streams: &[(PointerValue<'ctx>, DType, bool)],
        row: IntValue<'ctx>,
        width: i64,
    ) -> Result<()> {
        let ahead = self.b.build_int_add(row, self.i64c(ROWS_AHEAD), "")?;
        let first = self.b.build_int_mul(ahead, self.i64c(width), "")?;
        self.prefetch_elements(streams, first, self.i64c(width))
    }

    /// Prefetches elements `first .. first + count` of each stream: one hint
    /// per cache line, for reading or for writing.
    pub(super) fn prefetch_elements(
        &self,
        streams: &[(PointerValue<'ctx>, DType, bool)],
        first: IntValue<'ctx>,
        count: IntValue<'ctx>,
    ) -> Result<()> {
        if streams.is_empty() {
            return Ok(());
        }
        let f = inkwell::intrinsics::Intrinsic::find("llvm.prefetch")
            .and_then(|i| i.get_declaration(&self.module, &[self.t.ptr.into()]))
            .ok_or_else(|| LlvmError::Llvm("llvm.prefetch not found".into()))?;
        let i32c = |v: u64| self.t.i32.const_int(v, false);
        for &(base, d, write) in streams {
            let size = self.i64c(d.byte_size().max(1) as i64);
            let start = self.b.build_int_mul(first, size, "")?;
            let bytes = self.b.build_int_mul(count, size, "")?;
            let l = self.loop_begin(self.i64c(0), bytes, CACHE_LINE, "prefetch")?;
            let at = self.b.build_int_add(start, l.index, "")?;
            // SAFETY: a prefetch is a hint that never faults; the address may
            // lie past the buffer's end (the last rows of a task).
            let p = unsafe { self.b.build_gep(self.t.i8, base, &[at], "")? };
            self.call(f, &[p.into(), i32c(write as u64).into(), i32c(3).into(), i32c(1).into()])?;
            self.loop_end(l)?;
        }
        Ok(())
    }

    /// Stores each output's value at element `off` of its buffer.
    fn store_outputs(
        &mut self,
        env: &Env<'_, 'ctx>,
        outputs: &[NodeId],
        outs: &[Io<'ctx>],
        off: IntValue<'ctx>,
    ) -> Result<()> {
        for (&o, out) in outputs.iter().zip(outs) {
            let v = self.value(env, o)?;
            self.store_elem(out.ptr, out.dtype, off, v)?;
        }
        Ok(())
    }

    /// Like [`Cg::open_space`], but dimension `a` and the innermost one run in
    /// square tiles (the other dimensions outside them, in order), so a load
    /// that walks the output's rows down its own columns (a transpose) touches
    /// each cache line and page a tile at a time.
    fn open_space_tiled(
        &self,
        space: &[i64],
        a: usize,
        begin: IntValue<'ctx>,
        end: IntValue<'ctx>,
    ) -> Result<(Vec<super::Loop<'ctx>>, Vec<IntValue<'ctx>>, IntValue<'ctx>)> {
        let r = space.len();
        let par = par_dim(space);
        let range = |d: usize| if d == par { (begin, end) } else { (self.i64c(0), self.i64c(space[d])) };
        let mut loops = Vec::with_capacity(r + 2);
        let mut idx = vec![self.i64c(0); r];
        for d in (par..r - 1).filter(|&d| d != a) {
            let (lo, hi) = range(d);
            let l = self.loop_begin(lo, hi, 1, &format!("d{d}"))?;
            idx[d] = l.index;
            loops.push(l);
        }
        let (ilo, ihi) = range(a);
        let (jlo, jhi) = range(r - 1);
        let ib = self.loop_begin(ilo, ihi, TILE, "ti")?;
        let jb = self.loop_begin(jlo, jhi, TILE, "tj")?;
        let iend = self.min_i64(self.b.build_int_add(ib.index, self.i64c(TILE), "")?, ihi)?;
        let jend = self.min_i64(self.b.build_int_add(jb.index, self.i64c(TILE), "")?, jhi)?;
        let (ibv, jbv) = (ib.index, jb.index);
        loops.push(ib);
        loops.push(jb);
        let i = self.loop_begin(ibv, iend, 1, &format!("d{a}"))?;
        let j = self.loop_begin(jbv, jend, 1, &format!("d{}", r - 1))?;
        idx[a] = i.index;
        idx[r - 1] = j.index;
        loops.push(i);
        loops.push(j);
        // The row-major offset of the point.
        let mut off = self.i64c(0);
        for d in par..r {
            let m = self.b.build_int_mul(off, self.i64c(space[d]), "")?;
            off = self.b.build_int_add(m, idx[d], "")?;
        }
        Ok((loops, idx, off))
    }

    pub fn min_i64(&self, a: IntValue<'ctx>, b: IntValue<'ctx>) -> Result<IntValue<'ctx>> {
        let lt = self.b.build_int_compare(inkwell::IntPredicate::SLT, a, b, "")?;
        Ok(self.b.build_select(lt, a, b, "")?.into_int_value())
    }

    pub fn max_i64(&self, a: IntValue<'ctx>, b: IntValue<'ctx>) -> Result<IntValue<'ctx>> {
        let gt = self.b.build_int_compare(inkwell::IntPredicate::SGT, a, b, "")?;
        Ok(self.b.build_select(gt, a, b, "")?.into_int_value())
    }

    pub fn close_loops(&self, loops: Vec<super::Loop<'ctx>>) -> Result<()> {
        for l in loops.into_iter().rev() {
            self.loop_end(l)?;
        }
        Ok(())
    }

    fn emit_loop(
        &mut self,
        k: &Kernel,
        space: &[i64],
        graph: &Graph,
        outputs: &[NodeId],
        task: Task<'_, 'ctx>,
    ) -> Result<()> {
        let Task { io, begin, end } = task;
        let ni = k.inputs.len();
        if outputs.len() != k.outputs.len() {
            invalid!("kernel {}: {} output values for {} outputs", k.name, outputs.len(), k.outputs.len());
        }
        for (o, t) in outputs.iter().zip(&k.outputs) {
            if t.element_count() as i64 != count(space) {
                invalid!("kernel {}: output {:?} does not match the space {space:?}", k.name, t.dims);
            }
            if graph.types.get(o.0 as usize) != Some(&t.dtype) {
                invalid!("kernel {}: an output value's type differs from the output's {}", k.name, t.dtype);
            }
        }
        // The loop nest's shape is the kernel's, as its launch shape reads it
        // (the task range means the same to every loop emitted below).
        let flat = loop_space(k, space, graph, outputs);
        if io.len() != ni + outputs.len() {
            invalid!("kernel {}: {} buffers for {ni} inputs and {} outputs", k.name, io.len(), outputs.len());
        }
        let (inputs, outs) = io.split_at(ni);
        // Outputs that need an integer division are computed in a loop of
        // their own: x86 has no vector integer division, and one such output
        // would keep the vectorizer off every other output of the kernel.
        // Not when an output is written in place of an input: the first loop
        // would overwrite what the second still reads.
        let in_place = outs.iter().any(|o| inputs.iter().any(|i| i.ptr == o.ptr));
        if self.x86 && !space.is_empty() && !in_place {
            let (slow, fast): (Vec<usize>, Vec<usize>) =
                (0..outputs.len()).partition(|&j| needs_integer_division(graph, outputs[j]));
            if !slow.is_empty() && !fast.is_empty() {
                for group in [fast, slow] {
                    let values: Vec<NodeId> = group.iter().map(|&j| outputs[j]).collect();
                    let group_outs: Vec<Io<'ctx>> = group.iter().map(|&j| outs[j].clone()).collect();
                    self.emit_loop_nest(space, &flat, graph, &values, inputs, &group_outs, begin, end)?;
                }
                return Ok(());
            }
        }
        self.emit_loop_nest(space, &flat, graph, outputs, inputs, outs, begin, end)
    }

    /// One loop nest of a loop kernel over `space` (or `flat`, its flattened
    /// form when the kernel runs flat), storing `values` into `outs`.
    #[allow(clippy::too_many_arguments)]
    fn emit_loop_nest(
        &mut self,
        space: &[i64],
        flat: &[i64],
        graph: &Graph,
        values: &[NodeId],
        inputs: &[Io<'ctx>],
        outs: &[Io<'ctx>],
        begin: IntValue<'ctx>,
        end: IntValue<'ctx>,
    ) -> Result<()> {
        let tiled = if !space.is_empty() && flat.len() == space.len() { transposed_dim(graph, space) } else { None };
        if !space.is_empty() && flat.len() == space.len() && tiled.is_none() {
            return self.emit_loop_hoisting(space, graph, values, inputs, outs, begin, end);
        }
        let (loops, idx, off) = if space.is_empty() {
            // A scalar: one iteration of a dummy dimension.
            let l = self.loop_begin_once(begin, end, "d0")?;
            (vec![l], Vec::new(), self.i64c(0))
        } else if let Some(a) = tiled {
            self.open_space_tiled(space, a, begin, end)?
        } else {
            self.open_space(flat, begin, end)?
        };
        let mut env = Env::with_indices(graph, if flat.len() == space.len() { idx } else { Vec::new() });
        env.identity = Some((off, space.to_vec()));
        self.emit_nodes(&mut env, inputs, values)?;
        for (&o, out) in values.iter().zip(outs) {
            let v = self.value(&env, o)?;
            self.store_elem(out.ptr, out.dtype, off, v)?;
        }
        self.close_loops(loops)
    }

    fn emit_update_slice(
        &mut self,
        space: &[i64],
        graph: &Graph,
        start: &[NodeId],
        value: NodeId,
        io: &[Io<'ctx>],
        ni: usize,
        begin: IntValue<'ctx>,
        end: IntValue<'ctx>,
    ) -> Result<()> {
        let Some(out) = io.get(ni).cloned() else {
            invalid!("update-slice kernel without an output");
        };
        if start.len() != out.dims.len() || space.len() != out.dims.len() {
            invalid!(
                "update-slice: {} start indices and a space of rank {} for rank {}",
                start.len(),
                space.len(),
                out.dims.len()
            );
        }
        // Start indices are loop-invariant: emit them before the loops.
        if start.iter().any(|s| graph.types.get(s.0 as usize) != Some(&DType::S64)) {
            invalid!("update-slice start indices must be s64");
        }
        let mut env0 = Env::new(graph);
        self.emit_nodes(&mut env0, io, start)?;
        let starts: Vec<IntValue<'ctx>> = start
            .iter()
            .map(|&s| self.value(&env0, s).and_then(|v| as_int(v, "a start index")))
            .collect::<Result<_>>()?;
        if space.is_empty() {
            let l = self.loop_begin(begin, end, 1, "d0")?;
            let mut env = Env::new(graph);
            self.emit_nodes(&mut env, io, &[value])?;
            let v = self.value(&env, value)?;
            self.store_elem(out.ptr, out.dtype, self.i64c(0), v)?;
            return self.loop_end(l);
        }
        let (loops, idx, _) = self.open_space(space, begin, end)?;
        let mut env = Env::with_indices(graph, idx.clone());
        self.emit_nodes(&mut env, io, &[value])?;
        let v = self.value(&env, value)?;
        let mut off = self.i64c(0);
        for (d, (&i, &s)) in idx.iter().zip(&starts).enumerate() {
            let p = self.b.build_int_add(s, i, "")?;
            let p = self.b.build_int_mul(p, self.i64c(out.strides[d]), "")?;
            off = self.b.build_int_add(off, p, "")?;
        }
        self.store_elem(out.ptr, out.dtype, off, v)?;
        self.close_loops(loops)
    }

    fn emit_scatter(
        &mut self,
        space: &[i64],
        graph: &Graph,
        target: &[NodeId],
        in_bounds: NodeId,
        values: &[NodeId],
        combiner: &ScalarFn,
        io: &[Io<'ctx>],
        ni: usize,
        begin: IntValue<'ctx>,
        end: IntValue<'ctx>,
    ) -> Result<()> {
        let outs: Vec<Io<'ctx>> = io[ni.min(io.len())..].to_vec();
        if outs.len() != values.len() || outs.is_empty() {
            invalid!("scatter with {} outputs and {} update values", outs.len(), values.len());
        }
        if outs.iter().any(|o| o.dims.len() != target.len()) {
            invalid!("scatter: {} target indices for outputs of another rank", target.len());
        }
        if target.iter().any(|t| graph.types.get(t.0 as usize) != Some(&DType::S64))
            || graph.types.get(in_bounds.0 as usize) != Some(&DType::Pred)
        {
            invalid!("scatter targets must be s64 and its in-bounds flag pred");
        }
        let mut roots = vec![in_bounds];
        roots.extend_from_slice(target);
        roots.extend_from_slice(values);
        // Each node goes in the body of the outermost loop it depends on, so an
        // update's index, bounds check and target row are computed once per
        // update, not once per element of its window: the innermost loop then
        // adds a contiguous run of the window straight into the target row,
        // which vectorizes.
        let par = if space.is_empty() { 0 } else { par_dim(space) };
        let levels = node_levels(graph, par);
        let needed = graph.live(&roots);
        let at_level = |l: usize| nodes_at_level(&levels, &needed, l);
        let mut env = Env::new(graph);
        env.indices = vec![self.i64c(0); par];
        self.emit_nodes(&mut env, io, &at_level(usize::MAX))?;
        let mut loops = Vec::with_capacity(space.len());
        // The bounds check, where it is known before the innermost loop.
        let mut outer_check = None;
        if space.is_empty() {
            loops.push(self.loop_begin(begin, end, 1, "d0")?);
        } else {
            let last = space.len() - 1;
            let mut off = self.i64c(0);
            for (d, &extent) in space.iter().enumerate().skip(par) {
                if d == last && d > par && levels[in_bounds.0 as usize] < last {
                    let ok = as_int(self.value(&env, in_bounds)?, "an in-bounds flag")?;
                    outer_check = Some(self.if_begin(ok, "scatter.rows")?);
                }
                let l;
                (l, off) = self.open_dim(d, par, extent, (begin, end), off)?;
                env.indices.push(l.index);
                loops.push(l);
                self.emit_nodes(&mut env, io, &at_level(d))?;
            }
        }
        self.emit_nodes(&mut env, io, &roots)?;
        let join = match outer_check {
            Some(_) => None,
            None => {
                let ok = as_int(self.value(&env, in_bounds)?, "an in-bounds flag")?;
                Some(self.if_begin(ok, "scatter")?)
            }
        };
        let mut off = self.i64c(0);
        for (d, &t) in target.iter().enumerate() {
            let tv = as_int(self.value(&env, t)?, "a scatter target")?;
            let p = self.b.build_int_mul(tv, self.i64c(outs[0].strides[d]), "")?;
            off = self.b.build_int_add(off, p, "")?;
        }
        let mut args = Vec::with_capacity(2 * outs.len());
        for o in &outs {
            args.push(self.load_elem(o.ptr, o.dtype, off)?);
        }
        for &v in values {
            args.push(self.value(&env, v)?);
        }
        let new = self.apply_fn(combiner, &args, io, false)?;
        if new.len() != outs.len() {
            invalid!("scatter combiner with {} results for {} outputs", new.len(), outs.len());
        }
        for (o, v) in outs.iter().zip(new) {
            self.store_elem(o.ptr, o.dtype, off, v)?;
        }
        if let Some(join) = join {
            self.if_end(join)?;
        }
        if let Some(rows) = outer_check {
            if let Some(inner) = loops.pop() {
                self.loop_end(inner)?;
            }
            self.if_end(rows)?;
        }
        self.close_loops(loops)
    }

    fn emit_select_and_scatter(
        &mut self,
        k: &Kernel,
        window: &[WindowSpec],
        select: &ScalarFn,
        scatter: &ScalarFn,
        io: &[Io<'ctx>],
    ) -> Result<()> {
        if k.inputs.len() != 3 || k.outputs.len() != 1 {
            invalid!("select-and-scatter kernel {} needs 3 inputs and 1 output", k.name);
        }
        let (operand, source, init, out) = (io[0].clone(), io[1].clone(), io[2].clone(), io[3].clone());
        let rank = operand.dims.len();
        if window.len() != rank || source.dims.len() != rank || out.dims != operand.dims {
            invalid!("select-and-scatter kernel {}: window, source and operand ranks differ", k.name);
        }
        // The output starts as the init value everywhere.
        let init_v = self.load_elem(init.ptr, init.dtype, self.i64c(0))?;
        let fill = self.loop_begin(self.i64c(0), self.i64c(count(&out.dims)), 1, "fill")?;
        self.store_elem(out.ptr, out.dtype, fill.index, init_v)?;
        self.loop_end(fill)?;

        let picked = self.alloca(self.t.i64, "picked")?;
        let has = self.alloca(self.t.i1, "has")?;
        let zero = self.i64c(0);
        let (src_loops, sidx, soff) = self.open_space(&source.dims, zero, self.i64c(par_extent(&source.dims)))?;
        self.b.build_store(picked, zero)?;
        self.b.build_store(has, self.t.i1.const_zero())?;
        let mut wloops = Vec::with_capacity(rank);
        let mut valid = self.t.i1.const_int(1, false);
        let mut off = zero;
        for (d, w) in window.iter().enumerate() {
            let l = self.loop_begin(zero, self.i64c(w.size), 1, &format!("w{d}"))?;
            let p = self.b.build_int_mul(sidx[d], self.i64c(w.stride), "")?;
            let p = self.b.build_int_sub(p, self.i64c(w.pad_low), "")?;
            let q = self.b.build_int_mul(l.index, self.i64c(w.window_dilation), "")?;
            let p = self.b.build_int_add(p, q, "")?;
            let nonneg = self.b.build_int_compare(IntPredicate::SGE, p, zero, "")?;
            let (i, aligned) = if w.base_dilation == 1 {
                (p, self.t.i1.const_int(1, false))
            } else {
                let r = self.b.build_int_signed_rem(p, self.i64c(w.base_dilation.max(1)), "")?;
                let a = self.b.build_int_compare(IntPredicate::EQ, r, zero, "")?;
                (self.b.build_int_signed_div(p, self.i64c(w.base_dilation.max(1)), "")?, a)
            };
            let inside = self.b.build_int_compare(IntPredicate::SLT, i, self.i64c(operand.dims[d]), "")?;
            let ok = self.b.build_and(self.b.build_and(nonneg, aligned, "")?, inside, "")?;
            valid = self.b.build_and(valid, ok, "")?;
            let term = self.b.build_int_mul(i, self.i64c(operand.strides[d]), "")?;
            off = self.b.build_int_add(off, term, "")?;
            wloops.push(l);
        }
        let join = self.if_begin(valid, "sel")?;
        let cur = self.b.build_load(self.t.i64, picked, "")?.into_int_value();
        let had = self.b.build_load(self.t.i1, has, "")?.into_int_value();
        let a = self.load_elem(operand.ptr, operand.dtype, cur)?;
        let c = self.load_elem(operand.ptr, operand.dtype, off)?;
        let keep = self.apply_fn(select, &[a, c], io, false)?;
        let keep = match keep.first() {
            Some(&v) if v.get_type() == self.t.i1.into() => v.into_int_value(),
            _ => invalid!("select function without a pred result"),
        };
        let keep = self.b.build_and(had, keep, "")?;
        let next = self.b.build_select(keep, cur, off, "")?;
        self.b.build_store(picked, next)?;
        self.b.build_store(has, self.t.i1.const_int(1, false))?;
        self.if_end(join)?;
        self.close_loops(wloops)?;
        let had = self.b.build_load(self.t.i1, has, "")?.into_int_value();
        let join = self.if_begin(had, "scat")?;
        let p = self.b.build_load(self.t.i64, picked, "")?.into_int_value();
        let old = self.load_elem(out.ptr, out.dtype, p)?;
        let s = self.load_elem(source.ptr, source.dtype, soff)?;
        let new = self.apply_fn(scatter, &[old, s], io, false)?;
        let Some(&new) = new.first() else {
            invalid!("scatter function without a result");
        };
        self.store_elem(out.ptr, out.dtype, p, new)?;
        self.if_end(join)?;
        self.close_loops(src_loops)
    }
}

/// Rows shorter than this many elements may have their tails masked.
const FOLD_TAIL_BELOW: i64 = 64;

/// Whether an innermost loop of `trip` iterations runs better with its tail
/// masked: short rows that are not a whole number of vectors of `lanes`
/// f32 lanes (a padded window's edge pieces of a column or two stay scalar;
/// `lanes` 0, a target of unknown width: none).
fn folds_tail(trip: i64, lanes: i64) -> bool {
    lanes > 0 && (4..FOLD_TAIL_BELOW).contains(&trip) && trip % lanes != 0
}

pub fn param<'ctx>(f: FunctionValue<'ctx>, i: u32) -> Result<BasicValueEnum<'ctx>> {
    f.get_nth_param(i).ok_or_else(|| LlvmError::Llvm(format!("missing parameter {i}")))
}

/// Whether `value` depends on an integer division or remainder (x86 has no
/// vector form; loops split such outputs from the rest so the rest vectorize).
fn needs_integer_division(graph: &Graph, value: NodeId) -> bool {
    let live = graph.live(std::slice::from_ref(&value));
    graph.nodes.iter().enumerate().any(|(i, n)| {
        live[i]
            && matches!(n, Node::Binary { op: BinaryOp::DivUnchecked | BinaryOp::RemUnchecked, .. })
            // Quotients of up to 32 bits go through float divisions, which vectorize.
            && graph.types.get(i).is_some_and(|t| !t.is_float() && t.byte_size() > 4)
    })
}

/// How far ahead a row kernel prefetches, in rows, and the line size it
/// assumes (64 bytes on every x86 and most aarch64 cores; a smaller line only
/// leaves some lines to the hardware prefetcher).
pub(super) const ROWS_AHEAD: i64 = 2;
const CACHE_LINE: i64 = 64;

/// The buffers a row kernel streams row by row: inputs the graph loads at the
/// element's own index (read) and the outputs (written), when their shape is
/// the iteration space's.
pub(super) fn row_streams<'ctx>(
    graph: &Graph,
    space: &[i64],
    needed: &[bool],
    io: &[Io<'ctx>],
    outs: &[Io<'ctx>],
) -> Vec<(PointerValue<'ctx>, DType, bool)> {
    let identity = |index: &[NodeId]| {
        index.len() == space.len()
            && index.iter().enumerate().all(|(d, i)| graph.nodes.get(i.0 as usize) == Some(&Node::Index(d)))
    };
    let mut inputs: Vec<usize> = graph
        .nodes
        .iter()
        .enumerate()
        .filter_map(|(i, n)| match n {
            Node::Load { input, index } if needed[i] && identity(index) => Some(*input),
            _ => None,
        })
        .collect();
    inputs.sort_unstable();
    inputs.dedup();
    let reads =
        inputs.into_iter().filter_map(|k| io.get(k)).filter(|b| b.dims == space).map(|b| (b.ptr, b.dtype, false));
    let writes = outs.iter().filter(|b| b.dims == space).map(|b| (b.ptr, b.dtype, true));
    reads.chain(writes).collect()
}

/// Rows of at most this many elements keep a row statistic's values for reuse.
const ROW_REUSE_MAX: i64 = 8192;

/// The needed nodes at loop level `l` ([`node_levels`]), in id order: what a
/// hoisting emitter computes in the body of that level's loop.
fn nodes_at_level(levels: &[usize], needed: &[bool], l: usize) -> Vec<NodeId> {
    (0..levels.len()).filter(|&i| needed[i] && levels[i] == l).map(|i| NodeId(i as u32)).collect()
}

/// What row statistics share with the elements and with each other.
#[derive(Default)]
struct RowReuse {
    /// Row statistics whose per-element value the elements compute again:
    /// `(the inline reduction, its body's value node, the equal node of the
    /// loop graph)`.
    kept: Vec<(NodeId, NodeId, NodeId)>,
    /// Nodes of a later reduction's body equal to a kept value: `(the later
    /// reduction, its body's node, the position in `kept`)`.
    reads: Vec<(NodeId, NodeId, usize)>,
}

/// [`RowReuse`] for reductions over exactly the innermost dimension, emitted
/// per row: a value is kept when it costs enough to be worth a store and a
/// load (see `launch::node_cost`) and the loop graph needs the same
/// expression of the same element at its innermost level; a later
/// reduction's body reads it where it computes the same expression. The
/// expressions are equal when the bodies' nodes, with their window index
/// read as the loop's innermost index and their `Outer` nodes as what they
/// name, are the same nodes of the loop graph.
fn row_reuse(graph: &Graph, space: &[i64], levels: &[usize], needed: &[bool]) -> RowReuse {
    let last = space.len() - 1;
    let mut out = RowReuse::default();
    let Some(index_last) = graph.nodes.iter().position(|n| *n == Node::Index(last)) else {
        return out;
    };
    if space[last] > ROW_REUSE_MAX {
        return out;
    }
    for (i, n) in graph.nodes.iter().enumerate() {
        let Node::Reduce(r) = n else {
            continue;
        };
        let [value] = r.values[..] else {
            continue;
        };
        if !needed[i] || levels[i] >= last || r.window[..] != [space[last]] {
            continue;
        }
        let live = r.body.live(&[value]);
        // Each body node as a node of the loop graph, where it is one.
        let mut same: Vec<Option<NodeId>> = vec![None; r.body.nodes.len()];
        for (j, b) in r.body.nodes.iter().enumerate() {
            if !live[j] {
                continue;
            }
            same[j] = match b {
                Node::Outer(k) => Some(*k),
                Node::Index(0) => Some(NodeId(index_last as u32)),
                Node::Index(_) | Node::Param(_) | Node::Reduce(_) => None,
                b if b.operands().iter().all(|o| same.get(o.0 as usize).is_some_and(|s| s.is_some())) => {
                    let mapped = b.map_operands(|o| same[o.0 as usize].unwrap_or(o));
                    let ty = r.body.dtype(NodeId(j as u32));
                    graph
                        .nodes
                        .iter()
                        .enumerate()
                        .position(|(k, g)| *g == mapped && graph.dtype(NodeId(k as u32)) == ty)
                        .map(|k| NodeId(k as u32))
                }
                _ => None,
            };
        }
        // Values of earlier kept reductions this body computes again.
        for (j, s) in same.iter().enumerate() {
            let computed = !matches!(r.body.nodes[j], Node::Outer(_) | Node::Index(_) | Node::Const(_));
            if let (Some(s), true) = (s, computed)
                && let Some(k) = out.kept.iter().position(|&(_, _, elem)| elem == *s)
            {
                out.reads.push((NodeId(i as u32), NodeId(j as u32), k));
            }
        }
        let cost: f64 =
            r.body.nodes.iter().zip(&live).filter(|(_, l)| **l).map(|(n, _)| super::launch::node_cost(n)).sum();
        if cost < 8.0 {
            continue;
        }
        if let Some(elem) = same[value.0 as usize]
            && needed[elem.0 as usize]
            && levels[elem.0 as usize] == last
        {
            out.kept.push((NodeId(i as u32), value, elem));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Short rows that are not whole vectors have their tails masked.
    #[test]
    fn short_rows_off_the_vector_width_fold_their_tails() {
        assert!(folds_tail(28, 16) && folds_tail(14, 16) && folds_tail(4, 16) && folds_tail(12, 8));
        assert!(!folds_tail(32, 16) && !folds_tail(48, 16) && !folds_tail(100, 16) && !folds_tail(1, 16));
        assert!(!folds_tail(24, 8) && !folds_tail(28, 0));
    }
}
