//! Matrix-vector products: the GEMM driver's path for `n == 1` or `m == 1`,
//! and for skinny products (`n <= SKINNY_N`, more than `MR` rows of an A that
//! runs along `k`).
//!
//! Packing and a `MR x NR` tile would waste all but one row or column of every
//! tile, so these products stream the matrix once instead. Either the matrix's
//! rows run along `k` (dot products: four rows at a time against up to four
//! vectors, vectorized over `k`, reduced by a shuffle tree; a skinny product's
//! `n` columns of B are its vectors, transposed first when B runs along `n`)
//! or along the output (axpy: four vectors of outputs
//! at a time, one broadcast of the vector element per `k`). Dot-product tasks are
//! chunks of 64-aligned outputs sized to about 64K multiply-adds. Axpy tasks own
//! 4096 outputs (their accumulators stay in cache while whole matrix rows stream
//! by) and a slice of `k`, so that even one chunk keeps every core busy; a second
//! pass adds the partial sums. The epilogue runs once per output chunk.

use inkwell::IntPredicate;
use inkwell::types::BasicType;
use inkwell::values::{BasicValueEnum, FunctionValue, IntValue, PointerValue};
use smelt_hlo::DType;

use super::{Blocking, GemmSpec, S_A, S_B, S_C, S_ECTX, S_EPI, S_K, S_M, S_N, Tasks, dead_block, set_operands};
use crate::routine::{Ct, INLINE_WORK, Ir, R, Slots, call_epilogue, run_tasks};

/// Which operand is the vector.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    /// `n == 1`: rows of A times b.
    N1,
    /// `m == 1`: a times the columns of B.
    M1,
}

// Slots after the operands' (`S_A` to `S_ECTX`, shared with the GEMM driver).
const S_CHUNK: u32 = 8;
const S_NCHUNKS: u32 = 9;
const S_KSPLIT: u32 = 10;
const S_KCHUNK: u32 = 11;
const S_PART: u32 = 12;
/// B transposed for a skinny product (null when not needed), freed at the end.
const S_BT: u32 = 13;
const SLOTS: u32 = 14;

/// Products with at most this many columns (and more rows than a tile holds)
/// take the dot-product form: a tile of `NR` columns would leave most lanes idle
/// and A would be packed for a handful of columns.
const SKINNY_N: i64 = 16;
/// Shallower products of more than `SKINNY_N / 2` columns and at least four
/// tiles of rows take the tiles: their dot products are mostly the scalar
/// remainders of vector loops. `[4096, k] x [k, n]`, dots against tiles, ms:
/// k 12 n 16 0.198 / 0.027, k 12 n 12 0.140 / 0.039, k 32 n 16 0.094 /
/// 0.054, but k 48 n 8 0.061 / 0.085, and 1024 batched 12x16 by 16x12 (rhs
/// transposed) 0.32-0.51 / 0.90 (AMD EPYC, Zen 2).
const SKINNY_MIN_K: i64 = 64;
/// Vectors each group of four matrix rows is multiplied with at once.
const DOT_COLS: u32 = 4;

/// Outputs per axpy task: the accumulators (16 KiB of f32) stay in L1/L2 while
/// matrix rows stream through in runs of four pages.
const AXPY_CHUNK: i64 = 4096;
/// Tasks the axpy form aims for by splitting `k` (partial sums added afterwards).
const AXPY_TASKS: i64 = 8;

/// Whether a side streams the matrix along the output (axpy) or along `k` (dots).
fn is_axpy(spec: &GemmSpec, side: Side) -> bool {
    match side {
        Side::N1 => spec.lhs_transposed,
        Side::M1 => !spec.rhs_transposed,
    }
}

/// Emits `if (n == 1 || m == 1) { ...; return; }` into the driver.
pub(super) fn emit<'ctx>(
    tasks: &Tasks<'_, 'ctx>,
    ir: &Ir<'_, 'ctx>,
    ptrs: [PointerValue<'ctx>; 5],
    sizes: [IntValue<'ctx>; 4],
) -> R<()> {
    let (spec, ct) = (tasks.spec, tasks.ct);
    let [batch, m, n, k] = sizes;
    let mut is_n1 = ir.cmp(IntPredicate::EQ, n, ir.c(1))?;
    if !spec.lhs_transposed {
        let mr = ir.c(Blocking::new(tasks.isa, ct).mr as i64);
        let narrow =
            ir.b.build_and(ir.cmp(IntPredicate::SLE, n, ir.c(SKINNY_N))?, ir.cmp(IntPredicate::SGT, m, mr)?, "")?;
        // Short dot products over more than half a tile of columns and
        // rows enough to fill tiles are left to the tiles.
        let shallow = ir.cmp(IntPredicate::SLT, k, ir.c(SKINNY_MIN_K))?;
        let half = ir.cmp(IntPredicate::SGT, n, ir.c(SKINNY_N / 2))?;
        let tall = ir.cmp(IntPredicate::SGE, m, ir.mul(mr, ir.c(4))?)?;
        let tiles = ir.b.build_and(shallow, ir.b.build_and(half, tall, "")?, "")?;
        let skinny = ir.b.build_and(narrow, ir.b.build_not(tiles, "")?, "")?;
        is_n1 = ir.b.build_or(is_n1, skinny, "")?;
    }
    let is_m1 = ir.cmp(IntPredicate::EQ, m, ir.c(1))?;
    let any = ir.b.build_or(is_n1, is_m1, "")?;
    let launch = |side: Side| -> R<()> {
        let s = Slots::alloc(ir, SLOTS)?;
        set_operands(ir, &s, ptrs, [m, n, k])?;
        s.set(ir, S_BT, ir.c(0))?;
        if side == Side::N1 && !spec.rhs_transposed {
            // A skinny B `[k, n]` becomes `n` vectors along k.
            let many = ir.cmp(IntPredicate::SGT, n, ir.c(1))?;
            ir.if_(many, || {
                let (b, bmem) = (ptrs[1], ir.mem_ty(spec.rhs, 0));
                let bytes = spec.rhs.byte_size() as u32;
                let bt = ir.alloc(ir.mul(ir.mul(ir.mul(batch, n)?, k)?, ir.c(bytes as i64))?)?;
                ir.for_range(ir.c(0), batch, 1, |bi| {
                    let base = ir.mul(ir.mul(bi, n)?, k)?;
                    ir.for_range(ir.c(0), k, 1, |kk| {
                        ir.for_range(ir.c(0), n, 1, |j| {
                            let from = ir.add(base, ir.add(ir.mul(kk, n)?, j)?)?;
                            let to = ir.add(base, ir.add(ir.mul(j, k)?, kk)?)?;
                            let v = ir.load(bmem, ir.gep(bmem, b, from)?, bytes)?;
                            ir.store(ir.gep(bmem, bt, to)?, v, bytes)
                        })
                    })
                })?;
                s.set_ptr(ir, S_B, bt)?;
                s.set_ptr(ir, S_BT, bt)
            })?;
        }
        let rows = if side == Side::N1 { m } else { n };
        let total = ir.mul(ir.mul(batch, rows)?, k)?;
        let inline = ir.cmp(IntPredicate::SLT, total, ir.c(INLINE_WORK))?;
        let run = |f: FunctionValue<'ctx>, tasks: IntValue<'ctx>| run_tasks(ir, f, s.ptr, tasks, ir.c(1), inline);
        if is_axpy(spec, side) {
            let nchunks = ir.ceil_div(rows, ir.c(AXPY_CHUNK))?;
            let want = ir.ceil_div(ir.c(AXPY_TASKS), ir.mul(batch, nchunks)?)?;
            let ksplit = ir.clamp(want, ir.c(1), ir.max(ir.div(k, ir.c(128))?, ir.c(1))?)?;
            let kchunk = ir.ceil_div(k, ksplit)?;
            let ksplit = ir.ceil_div(k, kchunk)?;
            let part = ir.alloc(ir.mul(ir.mul(ir.mul(batch, ksplit)?, rows)?, ir.c(ct.bytes() as i64))?)?;
            s.set(ir, S_CHUNK, ir.c(AXPY_CHUNK))?;
            s.set(ir, S_NCHUNKS, nchunks)?;
            s.set(ir, S_KSPLIT, ksplit)?;
            s.set(ir, S_KCHUNK, kchunk)?;
            s.set_ptr(ir, S_PART, part)?;
            let partial = axpy_task(tasks, side)?;
            run(partial, ir.mul(ir.mul(batch, nchunks)?, ksplit)?)?;
            let sum = sum_task(tasks, side)?;
            run(sum, ir.mul(batch, nchunks)?)?;
            ir.free(part)
        } else {
            // About 64K multiply-adds per task, 64-row aligned.
            let cols = if side == Side::N1 { n } else { ir.c(1) };
            let chunk = ir.div(ir.c(1 << 16), ir.max(ir.mul(k, cols)?, ir.c(1))?)?;
            let chunk = ir.mul(ir.ceil_div(ir.max(chunk, ir.c(64))?, ir.c(64))?, ir.c(64))?;
            let nchunks = ir.ceil_div(rows, chunk)?;
            s.set(ir, S_CHUNK, chunk)?;
            s.set(ir, S_NCHUNKS, nchunks)?;
            run(dots_task(tasks, side)?, ir.mul(batch, nchunks)?)?;
            ir.free(s.get_ptr(ir, S_BT)?)
        }
    };
    ir.if_(any, || {
        ir.if_else(is_n1, || launch(Side::N1), || launch(Side::M1))?;
        ir.ret()?;
        dead_block(ir)
    })
}

fn suffix(side: Side) -> &'static str {
    if side == Side::N1 { "n1" } else { "m1" }
}

/// A side's matrix and vectors (pointers and element types), its output rows
/// and its vectors per batch element (the columns of a skinny product, else 1).
struct Operands<'ctx> {
    mat: PointerValue<'ctx>,
    md: DType,
    vec: PointerValue<'ctx>,
    vd: DType,
    rows: IntValue<'ctx>,
    cols: IntValue<'ctx>,
}

impl<'ctx> Operands<'ctx> {
    fn read(ir: &Ir<'_, 'ctx>, s: &Slots<'ctx>, spec: &GemmSpec, side: Side) -> R<Operands<'ctx>> {
        let (mat, md, vec, vd, rows) = match side {
            Side::N1 => (S_A, spec.lhs, S_B, spec.rhs, S_M),
            Side::M1 => (S_B, spec.rhs, S_A, spec.lhs, S_N),
        };
        let cols = if side == Side::N1 { s.get(ir, S_N)? } else { ir.c(1) };
        Ok(Operands { mat: s.get_ptr(ir, mat)?, md, vec: s.get_ptr(ir, vec)?, vd, rows: s.get(ir, rows)?, cols })
    }

    /// The matrix and the vectors of batch element `bi`, of depth `k`.
    fn batch(
        &self,
        ir: &Ir<'_, 'ctx>,
        bi: IntValue<'ctx>,
        k: IntValue<'ctx>,
    ) -> R<(PointerValue<'ctx>, PointerValue<'ctx>)> {
        let mmat = ir.gep(ir.mem_ty(self.md, 0), self.mat, ir.mul(bi, ir.mul(self.rows, k)?)?)?;
        let mvec = ir.gep(ir.mem_ty(self.vd, 0), self.vec, ir.mul(ir.mul(bi, self.cols)?, k)?)?;
        Ok((mmat, mvec))
    }
}

/// Batch element and outputs `r0..r1` of task `t` of the chunks of `chunk` of
/// `rows` outputs (`nchunks` per batch element).
fn chunk_of<'ctx>(
    ir: &Ir<'_, 'ctx>,
    t: IntValue<'ctx>,
    (chunk, nchunks): (IntValue<'ctx>, IntValue<'ctx>),
    rows: IntValue<'ctx>,
) -> R<(IntValue<'ctx>, IntValue<'ctx>, IntValue<'ctx>)> {
    let bi = ir.div(t, nchunks)?;
    let r0 = ir.mul(ir.rem(t, nchunks)?, chunk)?;
    let r1 = ir.min(rows, ir.add(r0, chunk)?)?;
    Ok((bi, r0, r1))
}

fn epilogue<'ctx>(
    ir: &Ir<'_, 'ctx>,
    s: &Slots<'ctx>,
    side: Side,
    bi: IntValue<'ctx>,
    r0: IntValue<'ctx>,
    r1: IntValue<'ctx>,
) -> R<()> {
    let (epi, ectx) = (s.get_ptr(ir, S_EPI)?, s.get_ptr(ir, S_ECTX)?);
    let (zero, one) = (ir.c(0), ir.c(1));
    match side {
        Side::N1 => call_epilogue(ir, epi, ectx, [bi, r0, r1, zero, s.get(ir, S_N)?]),
        Side::M1 => call_epilogue(ir, epi, ectx, [bi, zero, one, r0, r1]),
    }
}

/// Task function `{name}_{kind}_{side}` and the start of its body.
fn start<'m, 'ctx>(
    tasks: &Tasks<'m, 'ctx>,
    kind: &str,
    side: Side,
) -> (FunctionValue<'ctx>, Ir<'m, 'ctx>, Slots<'ctx>, [IntValue<'ctx>; 2]) {
    tasks.start(&format!("{kind}_{}", suffix(side)), SLOTS)
}

/// Tasks over (batch, chunk of outputs): dot products written straight to C.
fn dots_task<'ctx>(tasks: &Tasks<'_, 'ctx>, side: Side) -> R<FunctionValue<'ctx>> {
    let spec = tasks.spec;
    let (f, ir, s, [lo, hi]) = start(tasks, "dots", side);
    let k = s.get(&ir, S_K)?;
    let (chunk, nchunks, c) = (s.get(&ir, S_CHUNK)?, s.get(&ir, S_NCHUNKS)?, s.get_ptr(&ir, S_C)?);
    let ops = Operands::read(&ir, &s, spec, side)?;
    let g = Gemv::new(&ir, tasks, &ops);
    ir.for_range(lo, hi, 1, |t| {
        let (bi, r0, r1) = chunk_of(&ir, t, (chunk, nchunks), ops.rows)?;
        let (mmat, mvec) = ops.batch(&ir, bi, k)?;
        let mout = ir.gep(ir.mem_ty(spec.out, 0), c, ir.mul(ir.mul(bi, ops.rows)?, ops.cols)?)?;
        g.dots(mmat, mvec, mout, [k, ops.cols], r0, r1)?;
        epilogue(&ir, &s, side, bi, r0, r1)
    })?;
    ir.ret()?;
    Ok(f)
}

/// Tasks over (batch, chunk of outputs, slice of k): partial sums of the axpy form.
fn axpy_task<'ctx>(tasks: &Tasks<'_, 'ctx>, side: Side) -> R<FunctionValue<'ctx>> {
    let (f, ir, s, [lo, hi]) = start(tasks, "axpy", side);
    let k = s.get(&ir, S_K)?;
    let (chunk, nchunks) = (s.get(&ir, S_CHUNK)?, s.get(&ir, S_NCHUNKS)?);
    let (ksplit, kchunk, part) = (s.get(&ir, S_KSPLIT)?, s.get(&ir, S_KCHUNK)?, s.get_ptr(&ir, S_PART)?);
    let ops = Operands::read(&ir, &s, tasks.spec, side)?;
    let g = Gemv::new(&ir, tasks, &ops);
    ir.for_range(lo, hi, 1, |t| {
        let ks = ir.rem(t, ksplit)?;
        let rest = ir.div(t, ksplit)?;
        let (bi, r0, r1) = chunk_of(&ir, rest, (chunk, nchunks), ops.rows)?;
        let k0 = ir.mul(ks, kchunk)?;
        let k1 = ir.min(k, ir.add(k0, kchunk)?)?;
        let (mmat, mvec) = ops.batch(&ir, bi, k)?;
        let slot = ir.add(ir.mul(bi, ksplit)?, ks)?;
        let pout = ir.gep(tasks.ct.ty(ir.cx), part, ir.mul(slot, ops.rows)?)?;
        g.axpy(mmat, mvec, pout, k0, k1, ops.rows, r0, r1)
    })?;
    ir.ret()?;
    Ok(f)
}

/// Tasks over (batch, chunk of outputs): partial sums added, stored, epilogue.
fn sum_task<'ctx>(tasks: &Tasks<'_, 'ctx>, side: Side) -> R<FunctionValue<'ctx>> {
    let (spec, ct) = (tasks.spec, tasks.ct);
    let (f, ir, s, [lo, hi]) = start(tasks, "axpy_sum", side);
    let (chunk, nchunks, c) = (s.get(&ir, S_CHUNK)?, s.get(&ir, S_NCHUNKS)?, s.get_ptr(&ir, S_C)?);
    let (ksplit, part) = (s.get(&ir, S_KSPLIT)?, s.get_ptr(&ir, S_PART)?);
    let rows = Operands::read(&ir, &s, spec, side)?.rows;
    let ctt = ct.ty(ir.cx);
    let omem = ir.mem_ty(spec.out, 0);
    let acc = ir.alloca(ctt)?;
    ir.for_range(lo, hi, 1, |t| {
        let (bi, r0, r1) = chunk_of(&ir, t, (chunk, nchunks), rows)?;
        ir.for_range(r0, r1, 1, |r| {
            ir.store(acc, ir.zero(ct, 0), ct.bytes())?;
            ir.for_range(ir.c(0), ksplit, 1, |ks| {
                let at = ir.add(ir.mul(ir.add(ir.mul(bi, ksplit)?, ks)?, rows)?, r)?;
                let v = ir.load(ctt, ir.gep(ctt, part, at)?, ct.bytes())?;
                ir.store(acc, ir.add_ct(ct, ir.load(ctt, acc, ct.bytes())?, v)?, ct.bytes())
            })?;
            let v = ir.ct_to(ir.load(ctt, acc, ct.bytes())?, ct, spec.out)?;
            ir.store(ir.gep(omem, c, ir.add(ir.mul(bi, rows)?, r)?)?, v, spec.out.byte_size() as u32)
        })?;
        epilogue(&ir, &s, side, bi, r0, r1)
    })?;
    ir.ret()?;
    Ok(f)
}

struct Gemv<'i, 'a, 'ctx> {
    ir: &'i Ir<'a, 'ctx>,
    ct: Ct,
    lanes: u32,
    md: DType,
    vd: DType,
    out: DType,
}

impl<'i, 'a, 'ctx> Gemv<'i, 'a, 'ctx> {
    /// The loops over `ops` in task body `ir`.
    fn new(ir: &'i Ir<'a, 'ctx>, tasks: &Tasks<'_, 'ctx>, ops: &Operands<'ctx>) -> Self {
        let (ct, out) = (tasks.ct, tasks.spec.out);
        Gemv { ir, ct, lanes: Blocking::new(tasks.isa, ct).lanes, md: ops.md, vd: ops.vd, out }
    }

    /// `n` lanes (0: a scalar) of `d` at element `at` of `p`, converted.
    fn load(&self, d: DType, p: PointerValue<'ctx>, at: IntValue<'ctx>, n: u32) -> R<BasicValueEnum<'ctx>> {
        let ir = self.ir;
        let v = ir.load(ir.mem_ty(d, n), ir.gep(ir.mem_ty(d, 0), p, at)?, d.byte_size() as u32)?;
        ir.to_ct(v, d, self.ct)
    }

    fn store(&self, out: PointerValue<'ctx>, at: IntValue<'ctx>, v: BasicValueEnum<'ctx>) -> R<()> {
        let ir = self.ir;
        let omem = ir.mem_ty(self.out, 0);
        ir.store(ir.gep(omem, out, at)?, ir.ct_to(v, self.ct, self.out)?, self.out.byte_size() as u32)
    }

    /// Sum of the lanes of `v` by halving.
    fn hsum(&self, mut v: BasicValueEnum<'ctx>) -> R<BasicValueEnum<'ctx>> {
        let ir = self.ir;
        let mut w = self.lanes;
        while w > 1 {
            let lo: Vec<Option<u32>> = (0..w / 2).map(Some).collect();
            let hi: Vec<Option<u32>> = (w / 2..w).map(Some).collect();
            v = ir.add_ct(self.ct, ir.shuffle(v, v, &lo)?, ir.shuffle(v, v, &hi)?)?;
            w /= 2;
        }
        Ok(ir.b.build_extract_element(v.into_vector_value(), ir.cx.i32_type().const_zero(), "")?)
    }

    /// `out[r * cols + j] = sum_k mat[r * k + kk] * vec[j * k + kk]` for `r` in
    /// `r0..r1` and `j` in `0..cols`.
    fn dots(
        &self,
        mat: PointerValue<'ctx>,
        vec: PointerValue<'ctx>,
        out: PointerValue<'ctx>,
        [k, cols]: [IntValue<'ctx>; 2],
        r0: IntValue<'ctx>,
        r1: IntValue<'ctx>,
    ) -> R<()> {
        let ir = self.ir;
        let (ct, l) = (self.ct, self.lanes);
        let kmain = ir.sub(k, ir.rem(k, ir.c(l as i64))?)?;
        // Rows `r..r + rows` against vectors `j..j + width`.
        let tile = |r: IntValue<'ctx>, rows: u32, j: IntValue<'ctx>, width: u32| -> R<()> {
            let vt = ir.vec(ct, l);
            let accs: Vec<_> = (0..rows * width).map(|_| ir.alloca(vt.into())).collect::<R<_>>()?;
            for &a in &accs {
                ir.store(a, ir.zero(ct, l), 1)?;
            }
            let vrow = |c: u32| ir.mul(ir.add(j, ir.c(c as i64))?, k);
            let mrow = |g: u32| ir.mul(ir.add(r, ir.c(g as i64))?, k);
            ir.for_range(ir.c(0), kmain, l as i64, |kk| {
                let vs: Vec<_> =
                    (0..width).map(|c| self.load(self.vd, vec, ir.add(vrow(c)?, kk)?, l)).collect::<R<_>>()?;
                for g in 0..rows {
                    let x = self.load(self.md, mat, ir.add(mrow(g)?, kk)?, l)?;
                    for (c, &v) in vs.iter().enumerate() {
                        let a = accs[(g * width) as usize + c];
                        ir.store(a, ir.mul_add(ct, x, v, ir.load(vt.into(), a, 1)?)?, 1)?;
                    }
                }
                Ok(())
            })?;
            for g in 0..rows {
                for c in 0..width {
                    let a = accs[(g * width + c) as usize];
                    let sum = ir.alloca(ct.ty(ir.cx))?;
                    ir.store(sum, self.hsum(ir.load(vt.into(), a, 1)?)?, 1)?;
                    let (mr, vr) = (mrow(g)?, vrow(c)?);
                    ir.for_range(kmain, k, 1, |kk| {
                        let x = self.load(self.md, mat, ir.add(mr, kk)?, 0)?;
                        let v = self.load(self.vd, vec, ir.add(vr, kk)?, 0)?;
                        ir.store(sum, ir.mul_add(ct, x, v, ir.load(ct.ty(ir.cx), sum, 1)?)?, 1)
                    })?;
                    let at = ir.add(ir.mul(ir.add(r, ir.c(g as i64))?, cols)?, ir.add(j, ir.c(c as i64))?)?;
                    self.store(out, at, ir.load(ct.ty(ir.cx), sum, 1)?)?;
                }
            }
            Ok(())
        };
        let group = |r: IntValue<'ctx>, rows: u32| -> R<()> {
            let w = DOT_COLS as i64;
            let jmain = ir.sub(cols, ir.rem(cols, ir.c(w))?)?;
            ir.for_range(ir.c(0), jmain, w, |j| tile(r, rows, j, DOT_COLS))?;
            ir.for_range(jmain, cols, 1, |j| tile(r, rows, j, 1))
        };
        let span = ir.sub(r1, r0)?;
        let rmain = ir.add(r0, ir.sub(span, ir.rem(span, ir.c(4))?)?)?;
        ir.for_range(r0, rmain, 4, |r| group(r, 4))?;
        ir.for_range(rmain, r1, 1, |r| group(r, 1))
    }

    /// `part[r] = sum over kk in k0..k1 of mat[kk * ld + r] * vec[kk]` for `r` in
    /// `r0..r1` (at most [`AXPY_CHUNK`] of them), in the accumulator type: rows of
    /// the matrix streamed, accumulated in a stack buffer that stays in cache.
    fn axpy(
        &self,
        mat: PointerValue<'ctx>,
        vec: PointerValue<'ctx>,
        part: PointerValue<'ctx>,
        k0: IntValue<'ctx>,
        k1: IntValue<'ctx>,
        ld: IntValue<'ctx>,
        r0: IntValue<'ctx>,
        r1: IntValue<'ctx>,
    ) -> R<()> {
        let ir = self.ir;
        let (ct, l) = (self.ct, self.lanes);
        let ctt = ct.ty(ir.cx);
        let vt = ir.vec(ct, l);
        let acc = ir.alloca(ctt.array_type(AXPY_CHUNK as u32).into())?;
        let span = ir.sub(r1, r0)?;
        let vmain = ir.sub(span, ir.rem(span, ir.c(l as i64))?)?;
        ir.for_range(ir.c(0), span, 1, |j| ir.store(ir.gep(ctt, acc, j)?, ir.zero(ct, 0), ct.bytes()))?;
        // `rows` matrix rows per pass: one load and store of the accumulators per
        // `rows` multiply-adds.
        let pass = |kk: IntValue<'ctx>, rows: i64| -> R<()> {
            let mut xs = Vec::new();
            let mut starts = Vec::new();
            for u in 0..rows {
                let ku = ir.add(kk, ir.c(u))?;
                let x = self.load(self.vd, vec, ku, 0)?;
                xs.push((x, ir.splat(x, l)?));
                starts.push(ir.add(ir.mul(ku, ld)?, r0)?);
            }
            ir.for_range(ir.c(0), vmain, l as i64, |j| {
                let p = ir.gep(ctt, acc, j)?;
                let mut a = ir.load(vt.into(), p, ct.bytes())?;
                for (u, start) in starts.iter().enumerate() {
                    let m = self.load(self.md, mat, ir.add(*start, j)?, l)?;
                    a = ir.mul_add(ct, m, xs[u].1, a)?;
                }
                ir.store(p, a, ct.bytes())
            })?;
            ir.for_range(vmain, span, 1, |j| {
                let p = ir.gep(ctt, acc, j)?;
                let mut a = ir.load(ctt, p, ct.bytes())?;
                for (u, start) in starts.iter().enumerate() {
                    let m = self.load(self.md, mat, ir.add(*start, j)?, 0)?;
                    a = ir.mul_add(ct, m, xs[u].0, a)?;
                }
                ir.store(p, a, ct.bytes())
            })
        };
        let kspan = ir.sub(k1, k0)?;
        let kmain = ir.add(k0, ir.sub(kspan, ir.rem(kspan, ir.c(4))?)?)?;
        ir.for_range(k0, kmain, 4, |kk| pass(kk, 4))?;
        ir.for_range(kmain, k1, 1, |kk| pass(kk, 1))?;
        ir.for_range(ir.c(0), span, 1, |j| {
            let v = ir.load(ctt, ir.gep(ctt, acc, j)?, ct.bytes())?;
            ir.store(ir.gep(ctt, part, ir.add(r0, j)?)?, v, ct.bytes())
        })
    }
}
