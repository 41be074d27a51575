//! `rng-bit-generator` kernels: threefry-2x32-20 and philox-4x32-10 with exactly
//! the interpreter's bit layouts (`backends/interp/src/rng.rs`, after XLA's
//! `prng.cc`).
//!
//! The kernel function writes only the bits (output 1), over `[begin, end)` of
//! its iterations (counters): every iteration is a pure function of the key and
//! counter, so they run in parallel and vectorize. The new state (output 0) is
//! written by `smelt_run` after the launch ([`Cg::emit_rng_state`]), so no task
//! overwrites the state another is still reading when the kernel runs in place.

use inkwell::IntPredicate;
use inkwell::values::{IntValue, PointerValue};
use smelt_hlo::DType;
use smelt_hlo::attrs::RngAlgorithm;
use smelt_kernel::Kernel;

use super::graph::Task;
use super::{Cg, count, strides};
use crate::error::{Result, invalid, unsupported};

/// The validated layout of one generator.
pub(crate) struct RngPlan {
    philox: bool,
    /// Bytes per output element.
    width: usize,
    dims: Vec<i64>,
    n: i64,
    /// Threefry, 32-bit results: the dimension split in halves, and the half shape.
    split: Option<(usize, Vec<i64>)>,
    /// Kernel iterations (counters used).
    pub iters: i64,
    state_len: usize,
}

pub(crate) fn rng_plan(algorithm: RngAlgorithm, k: &Kernel) -> Result<RngPlan> {
    let (Some(state), Some(st_out), Some(bits)) = (k.inputs.first(), k.outputs.first(), k.outputs.get(1)) else {
        invalid!("rng-bit-generator kernel {} needs a state input and two outputs", k.name);
    };
    if state.dtype != DType::U64 || state.dims.len() != 1 || st_out.dims != state.dims || st_out.dtype != DType::U64 {
        invalid!("rng-bit-generator kernel {}: the state must be u64[n] in and out", k.name);
    }
    if bits.dtype == DType::Pred {
        unsupported!("rng-bit-generator producing pred");
    }
    let philox = !matches!(algorithm, RngAlgorithm::ThreeFry);
    let state_len = state.dims[0] as usize;
    match (philox, state_len) {
        (false, 2) | (true, 2) | (true, 3) => {}
        _ => invalid!("rng-bit-generator kernel {}: a state of {state_len} words", k.name),
    }
    let width = bits.dtype.byte_size();
    let dims = bits.dims.clone();
    let n = count(&dims);
    let mut split = None;
    let iters = if philox {
        if width == 8 { (2 * n + 3) / 4 } else { (n + 3) / 4 }
    } else if width == 8 {
        n
    } else if dims.is_empty() {
        1
    } else {
        // XLA's SplitShapeIntoHalves: the first even dimension, else the largest.
        let sd = dims.iter().position(|&d| d % 2 == 0).unwrap_or_else(|| {
            let mut best = 0;
            for (i, &d) in dims.iter().enumerate() {
                if d > dims[best] {
                    best = i;
                }
            }
            best
        });
        let mut half = dims.clone();
        half[sd] = (dims[sd] + 1) / 2;
        let h = count(&half);
        split = Some((sd, half));
        h
    };
    Ok(RngPlan { philox, width, dims, n, split, iters, state_len })
}

/// Iterations and the cost of one.
pub(crate) fn rng_launch(algorithm: RngAlgorithm, k: &Kernel) -> Result<(i64, f64)> {
    let p = rng_plan(algorithm, k)?;
    Ok((p.iters, if p.philox { 60.0 } else { 100.0 }))
}

impl<'ctx> Cg<'ctx, '_> {
    fn u32c(&self, v: u32) -> IntValue<'ctx> {
        self.t.i32.const_int(v as u64, false)
    }

    fn rotl(&self, x: IntValue<'ctx>, r: u32) -> Result<IntValue<'ctx>> {
        let a = self.b.build_left_shift(x, self.u32c(r), "")?;
        let b = self.b.build_right_shift(x, self.u32c(32 - r), false, "")?;
        Ok(self.b.build_or(a, b, "")?)
    }

    /// Threefry-2x32 with 20 rounds.
    fn threefry(&self, key: [IntValue<'ctx>; 2], ctr: [IntValue<'ctx>; 2]) -> Result<[IntValue<'ctx>; 2]> {
        const ROTATIONS: [u32; 8] = [13, 15, 26, 6, 17, 29, 16, 24];
        let b = &self.b;
        let k2 = b.build_xor(b.build_xor(key[0], key[1], "")?, self.u32c(0x1BD1_1BDA), "")?;
        let ks = [key[0], key[1], k2];
        let mut x0 = b.build_int_add(ctr[0], ks[0], "")?;
        let mut x1 = b.build_int_add(ctr[1], ks[1], "")?;
        for block in 0..5usize {
            let rots = if block % 2 == 0 { &ROTATIONS[..4] } else { &ROTATIONS[4..] };
            for &r in rots {
                x0 = b.build_int_add(x0, x1, "")?;
                x1 = self.rotl(x1, r)?;
                x1 = b.build_xor(x1, x0, "")?;
            }
            let i = block + 1;
            x0 = b.build_int_add(x0, ks[i % 3], "")?;
            x1 = b.build_int_add(x1, ks[(i + 1) % 3], "")?;
            x1 = b.build_int_add(x1, self.u32c(i as u32), "")?;
        }
        Ok([x0, x1])
    }

    /// Philox-4x32 with 10 rounds.
    fn philox(&self, ctr: [IntValue<'ctx>; 4], key: [IntValue<'ctx>; 2]) -> Result<[IntValue<'ctx>; 4]> {
        let b = &self.b;
        let i64t = self.t.i64;
        let mulhilo = |x: IntValue<'ctx>, m: u64| -> Result<(IntValue<'ctx>, IntValue<'ctx>)> {
            let w = b.build_int_z_extend(x, i64t, "")?;
            let p = b.build_int_mul(w, i64t.const_int(m, false), "")?;
            let hi = b.build_right_shift(p, i64t.const_int(32, false), false, "")?;
            Ok((b.build_int_truncate(hi, self.t.i32, "")?, b.build_int_truncate(p, self.t.i32, "")?))
        };
        let mut x = ctr;
        let mut k = key;
        for _ in 0..10 {
            let (h0, l0) = mulhilo(x[0], 0xD251_1F53)?;
            let (h1, l1) = mulhilo(x[2], 0xCD9E_8D57)?;
            let y0 = b.build_xor(b.build_xor(h1, x[1], "")?, k[0], "")?;
            let y2 = b.build_xor(b.build_xor(h0, x[3], "")?, k[1], "")?;
            x = [y0, l1, y2, l0];
            k = [
                b.build_int_add(k[0], self.u32c(0x9E37_79B9), "")?,
                b.build_int_add(k[1], self.u32c(0xBB67_AE85), "")?,
            ];
        }
        Ok(x)
    }

    fn split64(&self, v: IntValue<'ctx>) -> Result<[IntValue<'ctx>; 2]> {
        let lo = self.b.build_int_truncate(v, self.t.i32, "")?;
        let hi = self.b.build_right_shift(v, self.i64c(32), false, "")?;
        Ok([lo, self.b.build_int_truncate(hi, self.t.i32, "")?])
    }

    fn join64(&self, lo: IntValue<'ctx>, hi: IntValue<'ctx>) -> Result<IntValue<'ctx>> {
        let l = self.b.build_int_z_extend(lo, self.t.i64, "")?;
        let h = self.b.build_int_z_extend(hi, self.t.i64, "")?;
        let h = self.b.build_left_shift(h, self.i64c(32), "")?;
        Ok(self.b.build_or(l, h, "")?)
    }

    /// 128-bit `(lo, hi) + i`.
    fn add128(
        &self,
        lo: IntValue<'ctx>,
        hi: IntValue<'ctx>,
        i: IntValue<'ctx>,
    ) -> Result<(IntValue<'ctx>, IntValue<'ctx>)> {
        let l = self.b.build_int_add(lo, i, "")?;
        let carry = self.b.build_int_compare(IntPredicate::ULT, l, lo, "")?;
        let carry = self.b.build_int_z_extend(carry, self.t.i64, "")?;
        Ok((l, self.b.build_int_add(hi, carry, "")?))
    }

    /// The key and the counter (low, high) of the state.
    fn rng_state(
        &self,
        p: &RngPlan,
        state: PointerValue<'ctx>,
    ) -> Result<(IntValue<'ctx>, IntValue<'ctx>, IntValue<'ctx>)> {
        let key = self.load_elem(state, DType::U64, self.i64c(0))?.into_int_value();
        let lo = self.load_elem(state, DType::U64, self.i64c(1))?.into_int_value();
        let hi = if p.state_len == 3 { self.load_elem(state, DType::U64, self.i64c(2))?.into_int_value() } else { key };
        Ok((key, lo, hi))
    }

    /// Stores the low `width` bytes of `v` (an i32 or i64) as element `off`.
    fn store_bits(&self, p: &RngPlan, out: PointerValue<'ctx>, off: IntValue<'ctx>, v: IntValue<'ctx>) -> Result<()> {
        let d = match p.width {
            1 => DType::U8,
            2 => DType::U16,
            4 => DType::U32,
            _ => DType::U64,
        };
        let ty = self.int_type_of(d);
        let v =
            if v.get_type().get_bit_width() > ty.get_bit_width() { self.b.build_int_truncate(v, ty, "")? } else { v };
        self.store_elem(out, d, off, v.into())
    }

    pub(crate) fn emit_rng(&mut self, k: &Kernel, algorithm: RngAlgorithm, task: Task<'_, 'ctx>) -> Result<()> {
        let Task { io, begin, end } = task;
        let p = rng_plan(algorithm, k)?;
        let (state, out) = (io[0].ptr, io[2].ptr);
        let (key, lo, hi) = self.rng_state(&p, state)?;
        let kw = self.split64(key)?;
        let l = self.loop_begin(begin, end, 1, "ctr")?;
        let i = l.index;
        let nv = self.i64c(p.n);
        if p.philox {
            let (cl, ch) = self.add128(lo, hi, i)?;
            let (a, b) = (self.split64(cl)?, self.split64(ch)?);
            let w = self.philox([a[0], a[1], b[0], b[1]], kw)?;
            if p.width == 8 {
                for j in 0..2 {
                    let v = self.join64(w[2 * j], w[2 * j + 1])?;
                    self.store_guarded(&p, out, i, 2, j as i64, nv, v)?;
                }
            } else {
                for (j, &wj) in w.iter().enumerate() {
                    self.store_guarded(&p, out, i, 4, j as i64, nv, wj)?;
                }
            }
        } else {
            let ctr = self.b.build_int_add(lo, i, "")?;
            let w = self.threefry(kw, self.split64(ctr)?)?;
            match &p.split {
                _ if p.width == 8 => {
                    let v = self.join64(w[0], w[1])?;
                    self.store_bits(&p, out, i, v)?;
                }
                None => self.store_bits(&p, out, self.i64c(0), w[0])?,
                Some((sd, half)) => {
                    // Half index -> full offsets of the two interleaved elements.
                    let st = strides(&p.dims);
                    let mut rest = i;
                    let mut base = self.i64c(0);
                    let mut hsd = self.i64c(0);
                    for d in (0..half.len()).rev() {
                        let e = self.i64c(half[d].max(1));
                        let x = self.b.build_int_signed_rem(rest, e, "")?;
                        rest = self.b.build_int_signed_div(rest, e, "")?;
                        if d == *sd {
                            hsd = x;
                        } else {
                            let t = self.b.build_int_mul(x, self.i64c(st[d]), "")?;
                            base = self.b.build_int_add(base, t, "")?;
                        }
                    }
                    for (c, &wc) in w.iter().enumerate() {
                        let pos = self.b.build_int_mul(hsd, self.i64c(2), "")?;
                        let pos = self.b.build_int_add(pos, self.i64c(c as i64), "")?;
                        let inside = self.b.build_int_compare(IntPredicate::SLT, pos, self.i64c(p.dims[*sd]), "")?;
                        let join = self.if_begin(inside, "half")?;
                        let t = self.b.build_int_mul(pos, self.i64c(st[*sd]), "")?;
                        let off = self.b.build_int_add(base, t, "")?;
                        self.store_bits(&p, out, off, wc)?;
                        self.if_end(join)?;
                    }
                }
            }
        }
        self.loop_end(l)
    }

    /// Stores `v` as element `i * per + j` if that is below `n`.
    fn store_guarded(
        &self,
        p: &RngPlan,
        out: PointerValue<'ctx>,
        i: IntValue<'ctx>,
        per: i64,
        j: i64,
        n: IntValue<'ctx>,
        v: IntValue<'ctx>,
    ) -> Result<()> {
        let off = self.b.build_int_mul(i, self.i64c(per), "")?;
        let off = self.b.build_int_add(off, self.i64c(j), "")?;
        let inside = self.b.build_int_compare(IntPredicate::SLT, off, n, "")?;
        let join = self.if_begin(inside, "tail")?;
        self.store_bits(p, out, off, v)?;
        self.if_end(join)
    }

    /// Writes the new state of a generator after its launch: the counter
    /// advanced by the iterations used.
    pub fn emit_rng_state(
        &self,
        k: &Kernel,
        algorithm: RngAlgorithm,
        state: PointerValue<'ctx>,
        out: PointerValue<'ctx>,
    ) -> Result<()> {
        let p = rng_plan(algorithm, k)?;
        let (key, lo, hi) = self.rng_state(&p, state)?;
        let (nl, nh) = self.add128(lo, hi, self.i64c(p.iters))?;
        self.store_elem(out, DType::U64, self.i64c(0), key.into())?;
        self.store_elem(out, DType::U64, self.i64c(1), nl.into())?;
        if p.state_len == 3 {
            self.store_elem(out, DType::U64, self.i64c(2), nh.into())?;
        }
        Ok(())
    }
}
