//! Sort kernels: a generated bottom-up merge sort with the comparator inlined.
//!
//! The algorithm is the interpreter's (`backends/interp/src/sort.rs`) step for
//! step: runs of width 1, 2, 4, ... merged left to right, taking from the right
//! run only when its element is strictly before (`cmp(right, left)`). So results
//! are stable and agree with the interpreter exactly, even for comparators that
//! are not strict weak orders (float `LT` with NaNs).
//!
//! The fast path: a comparator that is `FnPattern::LessThan` on operand 0 and a
//! strict weak order (integer and pred keys, float keys in total order) sorts
//! by a stable LSD radix sort on order-preserving integer keys. Any stable sort
//! gives the same result for such orders, so it still agrees exactly.
//!
//! Each slice along the sort dimension is copied into a scratch buffer
//! (`malloc`ed once per task), sorted there, and written back, so in-place sorts
//! and strided slices need nothing special. One operand sorts its values
//! directly. Several operands sort operand 0's values together with a
//! permutation, and the comparator reads the other operands through the
//! permutation; a comparator that only compares operand 0 never reads them.
//! Slices run in parallel.
//!
//! Loops whose iterations depend on one another (merge passes and merges,
//! the copies of a run's rest, histogram counts, prefix sums, scatters) are
//! left as written, neither vectorized nor unrolled: LLVM's vectorizer found
//! nothing to do there, its analysis and the remainder loops it weighed cost
//! a quarter of a sort program's compile time (`sort_argsort` 128 -> 94 ms,
//! run time unchanged), unrolling the 256-bucket prefix sums and the scatters
//! another 10% of the sort kernels' LLVM time, and for a short slice LLVM
//! worked out the merge passes' count and copied the whole merge, comparator
//! inlined, once per pass (a 16-element sort cost 68 ms of LLVM). The copies
//! in and out stay vectorizable.

use inkwell::IntPredicate;
use inkwell::values::{BasicValueEnum, IntValue, PointerValue};
use smelt_hlo::DType;
use smelt_hlo::attrs::CompareType;
use smelt_kernel::{FnPattern, Kernel, ScalarFn};

use super::graph::Task;
use super::{Cg, count, strides};
use crate::error::{Result, invalid};

impl<'ctx> Cg<'ctx, '_> {
    pub(crate) fn emit_sort(
        &mut self,
        k: &Kernel,
        dims: &[i64],
        dimension: usize,
        cmp: &ScalarFn,
        task: Task<'_, 'ctx>,
    ) -> Result<()> {
        let Task { io, begin, end } = task;
        let n_ops = k.inputs.len();
        if n_ops == 0 || k.outputs.len() != n_ops {
            invalid!("sort kernel {} with {} inputs and {} outputs", k.name, n_ops, k.outputs.len());
        }
        if k.inputs.iter().chain(&k.outputs).any(|t| t.dims != dims) || dimension >= dims.len() {
            invalid!("sort kernel {}: operands do not match dims {dims:?} or dimension {dimension}", k.name);
        }
        if cmp.params.len() != 2 * n_ops {
            invalid!("sort kernel {}: comparator of {} parameters for {n_ops} operands", k.name, cmp.params.len());
        }
        let len = dims[dimension];
        if len <= 1 || count(dims) == 0 {
            // Nothing to reorder: copy through (outputs may be other buffers).
            return self.sort_copy_through(k, task, dims, dimension);
        }
        let stride = strides(dims)[dimension];
        let (outer_dims, outer_strides) = outer_layout(dims, dimension);
        let dtypes: Vec<DType> = k.inputs.iter().map(|t| t.dtype).collect();
        let multi = n_ops > 1;
        if len >= RADIX_MIN
            && let Some(key) = radix_key(cmp, dtypes[0])
        {
            return self.emit_radix_sort(k, &dtypes, key, len, stride, &outer_dims, &outer_strides, task);
        }

        // Scratch: operand copies (operand 0's is key buffer A), key buffer B,
        // and for several operands two permutation buffers.
        let esz: Vec<i64> = dtypes.iter().map(|d| d.byte_size() as i64).collect();
        let mut offsets = Vec::new();
        let mut total = 0i64;
        for &e in &esz {
            offsets.push(total);
            total += round8(len * e);
        }
        let keys_b_off = total;
        total += round8(len * esz[0]);
        let (perm_a_off, perm_b_off) = (total, total + len * 8);
        if multi {
            total += 2 * len * 8;
        }
        let mem = self.scratch_alloc(total)?;
        let at = |cg: &Self, off: i64| cg.byte_offset(mem, cg.i64c(off));
        let copies: Vec<PointerValue<'ctx>> = offsets.iter().map(|&o| at(self, o)).collect::<Result<_>>()?;
        let keys_b = at(self, keys_b_off)?;
        let (perm_a, perm_b) = (at(self, perm_a_off)?, at(self, perm_b_off)?);

        // Slices [begin, end) in row-major order of the other dimensions.
        let sl = self.loop_begin(begin, end, 1, "slice")?;
        let base = self.slice_base(sl.index, &outer_dims, &outer_strides)?;
        let lenv = self.i64c(len);
        // Copy in.
        let cl = self.loop_begin(self.i64c(0), lenv, 1, "in")?;
        let src = self.b.build_int_mul(cl.index, self.i64c(stride), "")?;
        let src = self.b.build_int_add(base, src, "")?;
        for (j, &d) in dtypes.iter().enumerate() {
            let v = self.load_elem(io[j].ptr, d, src)?;
            self.store_elem(copies[j], d, cl.index, v)?;
        }
        if multi {
            self.store_elem(perm_a, DType::S64, cl.index, cl.index.into())?;
        }
        self.loop_end(cl)?;

        // Merge passes, ping-ponging between the A and B buffers.
        let bufs = self.ping_pong([copies[0], keys_b, perm_a, perm_b])?;
        let width = self.alloca(self.t.i64, "width")?;
        self.b.build_store(width, self.i64c(1))?;
        let pass = self.while_begin("pass")?;
        let w = self.b.build_load(self.t.i64, width, "")?.into_int_value();
        let more = self.b.build_int_compare(IntPredicate::SLT, w, lenv, "")?;
        self.while_test(&pass, more)?;
        let w = self.b.build_load(self.t.i64, width, "")?.into_int_value();
        let [sk, dk, sp, dp] = self.ping_pong_load(&bufs)?;
        let w2 = self.b.build_int_add(w, w, "")?;
        let runs = self.loop_begin_dyn(self.i64c(0), lenv, w2, "run")?;
        let lo = runs.index;
        let min_len = |cg: &Self, x: IntValue<'ctx>| -> Result<IntValue<'ctx>> {
            let lt = cg.b.build_int_compare(IntPredicate::SLT, x, lenv, "")?;
            Ok(cg.b.build_select(lt, x, lenv, "")?.into_int_value())
        };
        let mid = min_len(self, self.b.build_int_add(lo, w, "")?)?;
        let hi = min_len(self, self.b.build_int_add(lo, w2, "")?)?;
        let l = self.alloca(self.t.i64, "l")?;
        let r = self.alloca(self.t.i64, "r")?;
        let o = self.alloca(self.t.i64, "o")?;
        self.b.build_store(l, lo)?;
        self.b.build_store(r, mid)?;
        self.b.build_store(o, lo)?;
        let merge = self.while_begin("merge")?;
        let lv = self.b.build_load(self.t.i64, l, "")?.into_int_value();
        let rv = self.b.build_load(self.t.i64, r, "")?.into_int_value();
        let c1 = self.b.build_int_compare(IntPredicate::SLT, lv, mid, "")?;
        let c2 = self.b.build_int_compare(IntPredicate::SLT, rv, hi, "")?;
        let both = self.b.build_and(c1, c2, "")?;
        self.while_test(&merge, both)?;
        let lv = self.b.build_load(self.t.i64, l, "")?.into_int_value();
        let rv = self.b.build_load(self.t.i64, r, "")?.into_int_value();
        let ov = self.b.build_load(self.t.i64, o, "")?.into_int_value();
        let kl = self.load_elem(sk, dtypes[0], lv)?;
        let kr = self.load_elem(sk, dtypes[0], rv)?;
        let (pl, pr) = if multi {
            (Some(self.load_elem(sp, DType::S64, lv)?), Some(self.load_elem(sp, DType::S64, rv)?))
        } else {
            (None, None)
        };
        // cmp(right, left): the right element goes first only if strictly before.
        let mut args: Vec<BasicValueEnum<'ctx>> = vec![kr, kl];
        for j in 1..n_ops {
            if let (Some(pl), Some(pr)) = (pl, pr) {
                args.push(self.load_elem(copies[j], dtypes[j], pr.into_int_value())?);
                args.push(self.load_elem(copies[j], dtypes[j], pl.into_int_value())?);
            }
        }
        let res = self.apply_fn(cmp, &args, io, false)?;
        let take_r = match res.first() {
            Some(&v) if v.get_type() == self.t.i1.into() => v.into_int_value(),
            _ => invalid!("comparator without a pred result"),
        };
        let kv = self.select(take_r, kr, kl)?;
        self.store_elem(dk, dtypes[0], ov, kv)?;
        if let (Some(pl), Some(pr)) = (pl, pr) {
            let pv = self.select(take_r, pr, pl)?;
            self.store_elem(dp, DType::S64, ov, pv)?;
        }
        let tr = self.b.build_int_z_extend(take_r, self.t.i64, "")?;
        let tl = self.b.build_int_sub(self.i64c(1), tr, "")?;
        self.b.build_store(r, self.b.build_int_add(rv, tr, "")?)?;
        self.b.build_store(l, self.b.build_int_add(lv, tl, "")?)?;
        self.b.build_store(o, self.b.build_int_add(ov, self.i64c(1), "")?)?;
        self.while_end_plain(merge)?;
        // The rest of whichever run is left.
        let lv = self.b.build_load(self.t.i64, l, "")?.into_int_value();
        let rv = self.b.build_load(self.t.i64, r, "")?.into_int_value();
        let ov = self.b.build_load(self.t.i64, o, "")?.into_int_value();
        let ov = self.copy_run(sk, dk, sp, dp, dtypes[0], multi, lv, mid, ov)?;
        self.copy_run(sk, dk, sp, dp, dtypes[0], multi, rv, hi, ov)?;
        self.loop_end_plain(runs)?;
        self.ping_pong_set(&bufs, [dk, sk, dp, sp])?;
        self.b.build_store(width, w2)?;
        self.while_end_plain(pass)?;

        // Write back through the sorted order.
        let (sk, sp) = self.ping_pong_sorted(&bufs)?;
        let ni = k.inputs.len();
        let wl = self.loop_begin(self.i64c(0), lenv, 1, "out")?;
        let dst = self.b.build_int_mul(wl.index, self.i64c(stride), "")?;
        let dst = self.b.build_int_add(base, dst, "")?;
        let v = self.load_elem(sk, dtypes[0], wl.index)?;
        self.store_elem(io[ni].ptr, dtypes[0], dst, v)?;
        if multi {
            let p = self.load_elem(sp, DType::S64, wl.index)?.into_int_value();
            for (j, &d) in dtypes.iter().enumerate().skip(1) {
                let v = self.load_elem(copies[j], d, p)?;
                self.store_elem(io[ni + j].ptr, d, dst, v)?;
            }
        }
        self.loop_end(wl)?;
        self.loop_end(sl)?;
        self.scratch_free(mem)
    }

    /// `malloc(bytes)`, trapping when it fails.
    fn scratch_alloc(&self, bytes: i64) -> Result<PointerValue<'ctx>> {
        let malloc = self.function("malloc", Some(self.t.ptr.into()), &[self.t.i64.into()]);
        let mem = self.call(malloc, &[self.i64c(bytes.max(8)).into()])?;
        let Some(mem) = mem.map(|m| m.into_pointer_value()) else {
            invalid!("malloc returns nothing");
        };
        let null = self.b.build_is_null(mem, "")?;
        let fail = self.if_begin(null, "oom")?;
        self.intrinsic_void("llvm.trap")?;
        self.if_end(fail)?;
        Ok(mem)
    }

    fn scratch_free(&self, mem: PointerValue<'ctx>) -> Result<()> {
        let free = self.function("free", None, &[self.t.ptr.into()]);
        self.call(free, &[mem.into()])?;
        Ok(())
    }

    /// Slots for the buffers a sort's passes ping-pong between, holding
    /// `[keys A, keys B, permutation A, permutation B]`: A is the first source.
    fn ping_pong(&self, [keys_a, keys_b, perm_a, perm_b]: [PointerValue<'ctx>; 4]) -> Result<PingPong<'ctx>> {
        let bufs = PingPong {
            src_k: self.alloca(self.t.ptr, "src.k")?,
            dst_k: self.alloca(self.t.ptr, "dst.k")?,
            src_p: self.alloca(self.t.ptr, "src.p")?,
            dst_p: self.alloca(self.t.ptr, "dst.p")?,
        };
        self.ping_pong_set(&bufs, [keys_a, keys_b, perm_a, perm_b])?;
        Ok(bufs)
    }

    /// Makes `[source keys, destination keys, source permutation, destination
    /// permutation]` the buffers of the next pass.
    fn ping_pong_set(&self, bufs: &PingPong<'ctx>, [sk, dk, sp, dp]: [PointerValue<'ctx>; 4]) -> Result<()> {
        self.b.build_store(bufs.src_k, sk)?;
        self.b.build_store(bufs.dst_k, dk)?;
        self.b.build_store(bufs.src_p, sp)?;
        self.b.build_store(bufs.dst_p, dp)?;
        Ok(())
    }

    /// The buffers of this pass, in [`Self::ping_pong_set`]'s order.
    fn ping_pong_load(&self, bufs: &PingPong<'ctx>) -> Result<[PointerValue<'ctx>; 4]> {
        let load =
            |slot| -> Result<PointerValue<'ctx>> { Ok(self.b.build_load(self.t.ptr, slot, "")?.into_pointer_value()) };
        Ok([load(bufs.src_k)?, load(bufs.dst_k)?, load(bufs.src_p)?, load(bufs.dst_p)?])
    }

    /// The sorted keys and permutation after the last pass.
    fn ping_pong_sorted(&self, bufs: &PingPong<'ctx>) -> Result<(PointerValue<'ctx>, PointerValue<'ctx>)> {
        let sk = self.b.build_load(self.t.ptr, bufs.src_k, "")?.into_pointer_value();
        let sp = self.b.build_load(self.t.ptr, bufs.src_p, "")?.into_pointer_value();
        Ok((sk, sp))
    }

    /// The offset of the first element of slice `i` (row-major over the other dimensions).
    fn slice_base(&self, i: IntValue<'ctx>, outer_dims: &[i64], outer_strides: &[i64]) -> Result<IntValue<'ctx>> {
        let mut rest = i;
        let mut base = self.i64c(0);
        for d in (0..outer_dims.len()).rev() {
            let e = self.i64c(outer_dims[d].max(1));
            let x = self.b.build_int_signed_rem(rest, e, "")?;
            rest = self.b.build_int_signed_div(rest, e, "")?;
            let t = self.b.build_int_mul(x, self.i64c(outer_strides[d]), "")?;
            base = self.b.build_int_add(base, t, "")?;
        }
        Ok(base)
    }

    /// Copies `src[from..to]` to `dst[at..]` (keys and, if `multi`, the
    /// permutation); returns the next destination index.
    fn copy_run(
        &self,
        sk: PointerValue<'ctx>,
        dk: PointerValue<'ctx>,
        sp: PointerValue<'ctx>,
        dp: PointerValue<'ctx>,
        key: DType,
        multi: bool,
        from: IntValue<'ctx>,
        to: IntValue<'ctx>,
        at: IntValue<'ctx>,
    ) -> Result<IntValue<'ctx>> {
        let l = self.loop_begin(from, to, 1, "rest")?;
        let d = self.b.build_int_sub(l.index, from, "")?;
        let d = self.b.build_int_add(at, d, "")?;
        let v = self.load_elem(sk, key, l.index)?;
        self.store_elem(dk, key, d, v)?;
        if multi {
            let p = self.load_elem(sp, DType::S64, l.index)?;
            self.store_elem(dp, DType::S64, d, p)?;
        }
        self.loop_end_plain(l)?;
        let n = self.b.build_int_sub(to, from, "")?;
        let pos = self.b.build_int_compare(IntPredicate::SGT, n, self.i64c(0), "")?;
        let n = self.b.build_select(pos, n, self.i64c(0), "")?.into_int_value();
        Ok(self.b.build_int_add(at, n, "")?)
    }

    /// A sort with nothing to reorder copies each operand to its output.
    fn sort_copy_through(&self, k: &Kernel, task: Task<'_, 'ctx>, dims: &[i64], dimension: usize) -> Result<()> {
        let Task { io, begin, end } = task;
        let len = dims.get(dimension).copied().unwrap_or(1).max(0);
        let ni = k.inputs.len();
        // Iterations are slices; a slice of length <= 1 is one element.
        let l = self.loop_begin(begin, end, 1, "slice")?;
        let (outer_dims, outer_strides) = outer_layout(dims, dimension);
        let off = self.slice_base(l.index, &outer_dims, &outer_strides)?;
        if len == 1 {
            for j in 0..ni {
                let v = self.load_elem(io[j].ptr, io[j].dtype, off)?;
                self.store_elem(io[ni + j].ptr, io[ni + j].dtype, off, v)?;
            }
        }
        self.loop_end(l)
    }

    /// Calls a void intrinsic without arguments.
    pub fn intrinsic_void(&self, name: &str) -> Result<()> {
        let i = inkwell::intrinsics::Intrinsic::find(name)
            .ok_or_else(|| crate::error::LlvmError::Llvm(format!("no intrinsic {name}")))?;
        let f = i
            .get_declaration(&self.module, &[])
            .ok_or_else(|| crate::error::LlvmError::Llvm(format!("bad intrinsic {name}")))?;
        self.call(f, &[])?;
        Ok(())
    }
}

impl<'ctx> Cg<'ctx, '_> {
    /// The unsigned-order key of a value.
    fn radix_encode(&self, v: BasicValueEnum<'ctx>, d: DType, key: RadixKey) -> Result<IntValue<'ctx>> {
        let bits = self.to_bits(v, d)?;
        let ty = bits.get_type();
        let sign = ty.const_int(1u64 << (key.bits - 1), false);
        let k = match key.order {
            KeyOrder::Unsigned => bits,
            KeyOrder::Signed => self.b.build_xor(bits, sign, "")?,
            KeyOrder::FloatTotal => {
                let s = self.b.build_right_shift(bits, ty.const_int(key.bits as u64 - 1, false), true, "")?;
                let mask = self.b.build_or(s, sign, "")?;
                self.b.build_xor(bits, mask, "")?
            }
        };
        Ok(if key.descending { self.b.build_not(k, "")? } else { k })
    }

    /// The value a key encodes.
    fn radix_decode(&self, k: IntValue<'ctx>, d: DType, key: RadixKey) -> Result<BasicValueEnum<'ctx>> {
        let k = if key.descending { self.b.build_not(k, "")? } else { k };
        let ty = k.get_type();
        let sign = ty.const_int(1u64 << (key.bits - 1), false);
        let bits = match key.order {
            KeyOrder::Unsigned => k,
            KeyOrder::Signed => self.b.build_xor(k, sign, "")?,
            KeyOrder::FloatTotal => {
                let top = self.b.build_right_shift(k, ty.const_int(key.bits as u64 - 1, false), false, "")?;
                let was_positive = self.b.build_int_compare(IntPredicate::NE, top, ty.const_zero(), "")?;
                let mask = self.b.build_select(was_positive, sign, ty.const_all_ones(), "")?.into_int_value();
                self.b.build_xor(k, mask, "")?
            }
        };
        self.value_of_bits(bits, d)
    }

    /// `digit`-th byte of a key, as an i64.
    fn radix_digit(&self, k: IntValue<'ctx>, digit: u32) -> Result<IntValue<'ctx>> {
        let ty = k.get_type();
        let s = self.b.build_right_shift(k, ty.const_int(8 * digit as u64, false), false, "")?;
        let s = self.b.build_and(s, ty.const_int(255, false), "")?;
        Ok(if ty.get_bit_width() < 64 { self.b.build_int_z_extend(s, self.t.i64, "")? } else { s })
    }

    /// A stable LSD radix sort by bytes of the keys (with a permutation when
    /// several operands move together). Passes whose byte is the same for every
    /// key are skipped.
    fn emit_radix_sort(
        &mut self,
        k: &Kernel,
        dtypes: &[DType],
        key: RadixKey,
        len: i64,
        stride: i64,
        outer_dims: &[i64],
        outer_strides: &[i64],
        task: Task<'_, 'ctx>,
    ) -> Result<()> {
        let Task { io, begin, end } = task;
        let n_ops = dtypes.len();
        let multi = n_ops > 1;
        let key_t = match key.bits {
            8 => DType::U8,
            16 => DType::U16,
            32 => DType::U32,
            _ => DType::U64,
        };
        let passes = key.bits / 8;
        let kb = key_t.byte_size() as i64;
        // Scratch: two key buffers, two permutations, copies of operands 1..,
        // one 256-entry histogram per pass.
        let mut total = 0i64;
        let mut take = |bytes: i64| {
            let at = total;
            total += round8(bytes);
            at
        };
        let (ka, kbuf) = (take(len * kb), take(len * kb));
        let (pa, pb) = if multi { (take(len * 8), take(len * 8)) } else { (0, 0) };
        let copies: Vec<i64> = dtypes.iter().skip(1).map(|d| take(len * d.byte_size() as i64)).collect();
        let hist_bytes = passes as i64 * 256 * 8;
        let hist = take(hist_bytes);
        let mem = self.scratch_alloc(total)?;
        let at = |cg: &Self, off: i64| cg.byte_offset(mem, cg.i64c(off));
        let (keys_a, keys_b) = (at(self, ka)?, at(self, kbuf)?);
        let (perm_a, perm_b) = (at(self, pa)?, at(self, pb)?);
        let copies: Vec<PointerValue<'ctx>> = copies.iter().map(|&o| at(self, o)).collect::<Result<_>>()?;
        let hist = at(self, hist)?;
        let lenv = self.i64c(len);
        let ni = k.inputs.len();

        let sl = self.loop_begin(begin, end, 1, "slice")?;
        let base = self.slice_base(sl.index, outer_dims, outer_strides)?;
        // Keys (and the permutation and other operands) in.
        let l = self.loop_begin(self.i64c(0), lenv, 1, "in")?;
        let src = self.b.build_int_add(base, self.b.build_int_mul(l.index, self.i64c(stride), "")?, "")?;
        let v = self.load_elem(io[0].ptr, dtypes[0], src)?;
        let kv = self.radix_encode(v, dtypes[0], key)?;
        self.store_elem(keys_a, key_t, l.index, kv.into())?;
        if multi {
            self.store_elem(perm_a, DType::S64, l.index, l.index.into())?;
            for (j, &c) in copies.iter().enumerate() {
                let v = self.load_elem(io[j + 1].ptr, dtypes[j + 1], src)?;
                self.store_elem(c, dtypes[j + 1], l.index, v)?;
            }
        }
        self.loop_end(l)?;
        // All histograms in one pass over the keys.
        self.b.build_memset(hist, 8, self.t.i8.const_zero(), self.i64c(hist_bytes))?;
        let l = self.loop_begin(self.i64c(0), lenv, 1, "count")?;
        let kv = self.load_elem(keys_a, key_t, l.index)?.into_int_value();
        for p in 0..passes {
            let dgt = self.radix_digit(kv, p)?;
            let slot = self.b.build_int_add(dgt, self.i64c(p as i64 * 256), "")?;
            let c = self.load_elem(hist, DType::S64, slot)?.into_int_value();
            let c = self.b.build_int_add(c, self.i64c(1), "")?;
            self.store_elem(hist, DType::S64, slot, c.into())?;
        }
        self.loop_end_plain(l)?;
        let bufs = self.ping_pong([keys_a, keys_b, perm_a, perm_b])?;
        for p in 0..passes {
            let hp = self.byte_offset(hist, self.i64c(p as i64 * 256 * 8))?;
            let sk = self.b.build_load(self.t.ptr, bufs.src_k, "")?.into_pointer_value();
            let first = self.load_elem(sk, key_t, self.i64c(0))?.into_int_value();
            let d0 = self.radix_digit(first, p)?;
            let c0 = self.load_elem(hp, DType::S64, d0)?.into_int_value();
            let varies = self.b.build_int_compare(IntPredicate::NE, c0, lenv, "")?;
            let join = self.if_begin(varies, "pass")?;
            // Counts to starting positions.
            let sum = self.alloca(self.t.i64, "sum")?;
            self.b.build_store(sum, self.i64c(0))?;
            let bl = self.loop_begin(self.i64c(0), self.i64c(256), 1, "scan")?;
            let c = self.load_elem(hp, DType::S64, bl.index)?.into_int_value();
            let s = self.b.build_load(self.t.i64, sum, "")?.into_int_value();
            self.store_elem(hp, DType::S64, bl.index, s.into())?;
            self.b.build_store(sum, self.b.build_int_add(s, c, "")?)?;
            self.loop_end_plain(bl)?;
            let [sk, dk, sp, dp] = self.ping_pong_load(&bufs)?;
            let l = self.loop_begin(self.i64c(0), lenv, 1, "scatter")?;
            let kv = self.load_elem(sk, key_t, l.index)?.into_int_value();
            let dgt = self.radix_digit(kv, p)?;
            let pos = self.load_elem(hp, DType::S64, dgt)?.into_int_value();
            self.store_elem(hp, DType::S64, dgt, self.b.build_int_add(pos, self.i64c(1), "")?.into())?;
            self.store_elem(dk, key_t, pos, kv.into())?;
            if multi {
                let pv = self.load_elem(sp, DType::S64, l.index)?;
                self.store_elem(dp, DType::S64, pos, pv)?;
            }
            self.loop_end_plain(l)?;
            self.ping_pong_set(&bufs, [dk, sk, dp, sp])?;
            self.if_end(join)?;
        }
        // Out, through the sorted keys (and permutation).
        let (sk, sp) = self.ping_pong_sorted(&bufs)?;
        let l = self.loop_begin(self.i64c(0), lenv, 1, "out")?;
        let dst = self.b.build_int_add(base, self.b.build_int_mul(l.index, self.i64c(stride), "")?, "")?;
        let kv = self.load_elem(sk, key_t, l.index)?.into_int_value();
        let v = self.radix_decode(kv, dtypes[0], key)?;
        self.store_elem(io[ni].ptr, dtypes[0], dst, v)?;
        if multi {
            let p = self.load_elem(sp, DType::S64, l.index)?.into_int_value();
            for (j, &c) in copies.iter().enumerate() {
                let v = self.load_elem(c, dtypes[j + 1], p)?;
                self.store_elem(io[ni + j + 1].ptr, dtypes[j + 1], dst, v)?;
            }
        }
        self.loop_end(l)?;
        self.loop_end(sl)?;
        self.scratch_free(mem)
    }
}

/// Stack slots holding the buffers a sort pass reads from and writes to.
struct PingPong<'ctx> {
    src_k: PointerValue<'ctx>,
    dst_k: PointerValue<'ctx>,
    src_p: PointerValue<'ctx>,
    dst_p: PointerValue<'ctx>,
}

/// The extents and row-major strides of the dimensions other than `dimension`.
fn outer_layout(dims: &[i64], dimension: usize) -> (Vec<i64>, Vec<i64>) {
    let st = strides(dims);
    let outer = |v: &[i64]| v.iter().enumerate().filter(|&(d, _)| d != dimension).map(|(_, &x)| x).collect();
    (outer(dims), outer(&st))
}

fn round8(x: i64) -> i64 {
    (x + 7) & !7
}

/// Slices at least this long sort by radix when their order allows it.
const RADIX_MIN: i64 = 128;

/// How keys order in a radix sort: as unsigned integers after a bijection.
#[derive(Clone, Copy)]
enum KeyOrder {
    Unsigned,
    Signed,
    FloatTotal,
}

#[derive(Clone, Copy)]
struct RadixKey {
    order: KeyOrder,
    descending: bool,
    bits: u32,
}

/// A radix order equivalent to the comparator, when it is a strict weak order
/// on operand 0 alone: integers (as their compare type orders them), pred, and
/// floats in total order. Any stable sort then gives the merge sort's result.
/// (Plain float `LT` is not: NaNs are unordered and -0 equals +0.)
fn radix_key(cmp: &ScalarFn, key: DType) -> Option<RadixKey> {
    let Some(FnPattern::LessThan { descending, compare_type }) = cmp.pattern else {
        return None;
    };
    let bits = (key.byte_size() * 8) as u32;
    let order = match (key, compare_type) {
        (DType::Pred, _) => KeyOrder::Unsigned,
        (k, Some(CompareType::TotalOrder)) if k.is_float() => KeyOrder::FloatTotal,
        (k, _) if k.is_float() => return None,
        (_, Some(CompareType::Unsigned)) => KeyOrder::Unsigned,
        (_, Some(CompareType::Signed)) => KeyOrder::Signed,
        (k, _) if k.is_signed_int() => KeyOrder::Signed,
        _ => KeyOrder::Unsigned,
    };
    Some(RadixKey { order, descending, bits })
}
