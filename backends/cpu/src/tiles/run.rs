//! The tile interpreter: runs a kernel's tile code over rows of lanes,
//! calling the library for every operation.
//!
//! A tile-run kernel's entry point in the program's module is a stub that
//! calls [`tile_run`] (`smelt_tile_run`) with its code, the addresses of the
//! library functions the code names, its buffers and its `[begin, end)` of
//! the parallel dimension, the same contract as a compiled kernel's. Values
//! live in a per-thread scratch area: scalar slots of 8 bytes and tiles of
//! [`TILE`] lanes of up to 8 bytes, each element stored as in memory.
//!
//! The code (see [`super::plan`]):
//!
//! ```text
//! VERSION, kind, inputs, rank, dims[rank], par, lane (-1: point by point), reduced (-1),
//!   strides[rank] (row-major), kept strides[rank] (of the kept dims; 0 for the reduced one)
//! reduce kinds: init scalar, value tile, combining fn, fold fn, fold lanes, identity scalar,
//!   accumulator tile, element bytes, result scalar
//! scalars, tiles
//! outputs: m, then per output: buffer (output number), element bytes, is tile, slot
//!   (is tile 2: one call of the lane code computes it, into the output when
//!   the output overlaps no input; reduce kinds' extra outputs too)
//! buffers: n, then the bytes of each, inputs then outputs
//! row code length, row code, lane code length, lane code
//! ```
//!
//! Row code runs once per row (point by point: once per point), lane code
//! once per chunk of at most [`TILE`] lanes of the row. Instructions:
//!
//! ```text
//! INDEX    dst, dim                        scalar = the loop index of `dim`
//! CONST    dst, bits
//! LOAD_S   dst, input, bytes, n, (slot, stride) x n
//! LOAD_T   dst, input, bytes, n, (slot, stride) x n   lanes along the input's last dimension
//! SPLAT    dst, scalar, bytes
//! CALL_S   fn, k, dst, scalars x k        one lane
//! CALL_T   fn, k, dst, tiles x k          the chunk's lanes (-1 - slot: a scalar operand)
//! REDUCE   dst, init, fn, fold, fold lanes, identity, bytes, window, acc, value, row length,
//!          lane length, row code, lane code
//! ```
//!
//! A reduction runs its body over the window in chunks, combines each chunk
//! into the accumulator lane by lane, and folds the accumulator's lanes (up
//! to the fold's size, the lanes past the row's filled with the operation's
//! identity) and `init` into one with the library's fold: float sums are
//! reassociated, as compiled reductions reassociate them.

use std::cell::RefCell;

use super::library::TILE;
use super::plan::{KIND_LOOP, KIND_REDUCE_INNER, KIND_REDUCE_OUTER, VERSION};

/// Opcodes of tile code.
pub(crate) mod op {
    pub const INDEX: i64 = 1;
    pub const CONST: i64 = 2;
    pub const LOAD_S: i64 = 3;
    pub const LOAD_T: i64 = 4;
    pub const SPLAT: i64 = 5;
    pub const CALL_S: i64 = 6;
    pub const CALL_T: i64 = 7;
    pub const REDUCE: i64 = 8;

    /// The words of the instruction `w` starts with.
    pub fn len(w: &[i64]) -> usize {
        let at = |i: usize| w.get(i).copied().unwrap_or(0).max(0) as usize;
        match w.first().copied() {
            Some(INDEX | CONST) => 3,
            Some(SPLAT) => 4,
            Some(LOAD_S | LOAD_T) => 5 + 2 * at(4),
            Some(CALL_S | CALL_T) => 4 + at(2),
            Some(REDUCE) => 13 + at(11) + at(12),
            _ => w.len().max(1),
        }
    }
}

pub use smelt_llvm::codegen::TILE_RUN_SYMBOL;

/// A library function: a compiled kernel's entry point.
type TileFnPtr = unsafe extern "C" fn(*const *mut u8, i64, i64);

/// The address of [`tile_run`], for the JIT's symbol map.
pub fn tile_run_address() -> usize {
    tile_run as *const () as usize
}

/// Dimensions and indices: on the stack for the ranks kernels have.
type Dims = smallvec::SmallVec<[i64; 8]>;

thread_local! {
    static SCRATCH: RefCell<Vec<u64>> = const { RefCell::new(Vec::new()) };
}

/// A parsed code header.
struct Header {
    kind: i64,
    /// Kernel inputs (outputs follow them in the buffers).
    inputs: i64,
    dims: Dims,
    par: usize,
    lane: Option<usize>,
    reduced: Option<usize>,
    /// Reduce kinds: init scalar, value tile, combining fn, fold fn, fold
    /// lanes, identity scalar, accumulator tile, element bytes, result scalar.
    reduce: [i64; REDUCE_WORDS],
    scalars: usize,
    tiles: usize,
    /// Row-major strides of the space, and of its kept dimensions (0 for the
    /// reduced one).
    strides: std::ops::Range<usize>,
    kept: std::ops::Range<usize>,
    outputs: std::ops::Range<usize>,
    /// Bytes of every buffer, inputs then outputs.
    sizes: std::ops::Range<usize>,
    row: std::ops::Range<usize>,
    lanes: std::ops::Range<usize>,
}

/// Words of the reduce kinds' header part.
pub(crate) const REDUCE_WORDS: usize = 9;

fn header(c: &[i64]) -> Option<Header> {
    let word = |i: usize| c.get(i).copied();
    if word(0)? != VERSION {
        return None;
    }
    let (kind, inputs, r) = (word(1)?, word(2)?, usize::try_from(word(3)?).ok()?);
    let dims = Dims::from_slice(c.get(4..4 + r)?);
    let mut at = 4 + r;
    let (par, lane, reduced) = (usize::try_from(word(at)?).ok()?, word(at + 1)?, word(at + 2)?);
    at += 3;
    let strides = at..at + r;
    let kept = strides.end..strides.end + r;
    at = kept.end;
    let mut reduce = [0; REDUCE_WORDS];
    if kind != KIND_LOOP {
        reduce.copy_from_slice(c.get(at..at + REDUCE_WORDS)?);
        at += REDUCE_WORDS;
    }
    let (scalars, tiles) = (usize::try_from(word(at)?).ok()?, usize::try_from(word(at + 1)?).ok()?);
    let m = usize::try_from(word(at + 2)?).ok()?;
    let outputs = at + 3..at + 3 + 4 * m;
    at = outputs.end;
    let nb = usize::try_from(word(at)?).ok()?;
    let sizes = at + 1..at + 1 + nb;
    at = sizes.end;
    let rl = usize::try_from(word(at)?).ok()?;
    let row = at + 1..at + 1 + rl;
    let ll = usize::try_from(word(row.end)?).ok()?;
    let lanes = row.end + 1..row.end + 1 + ll;
    (lanes.end <= c.len()).then_some(Header {
        kind,
        inputs,
        dims,
        par,
        lane: usize::try_from(lane).ok(),
        reduced: usize::try_from(reduced).ok(),
        reduce,
        scalars,
        tiles,
        strides,
        kept,
        outputs,
        sizes,
        row,
        lanes,
    })
}

/// Visits every instruction of tile code `code`, reduction bodies after
/// their `REDUCE`, each with whether it runs per lane (lane code) rather
/// than per row.
pub(crate) fn visit(code: &[i64], mut f: impl FnMut(&[i64], bool)) {
    fn walk(c: &[i64], lanes: bool, f: &mut dyn FnMut(&[i64], bool)) {
        let mut pc = 0;
        while pc < c.len() {
            let w = &c[pc..];
            let len = op::len(w).min(w.len());
            f(&w[..len], lanes);
            if w[0] == op::REDUCE && len >= 13 {
                let rl = (w[11].max(0) as usize).min(len - 13);
                walk(&w[13..13 + rl], false, f);
                walk(&w[13 + rl..len], true, f);
            }
            pc += len;
        }
    }
    if let Some(h) = header(code) {
        walk(&code[h.row], false, &mut f);
        walk(&code[h.lanes], true, &mut f);
    }
}

/// Tile code's kernel kind and, for reduce kinds, the reduced dimension's
/// extent (read from its header).
pub(crate) fn kind_and_reduced(code: &[i64]) -> Option<(i64, Option<i64>)> {
    let h = header(code)?;
    Some((h.kind, h.reduced.and_then(|d| h.dims.get(d).copied())))
}

/// How many calls tile code `code` makes of its function number `f` per
/// row, counting every reduction body once.
#[cfg(test)]
pub(crate) fn calls_of(code: &[i64], f: i64) -> usize {
    let mut n = 0;
    visit(code, |w, _| n += usize::from(matches!(w[0], op::CALL_S | op::CALL_T) && w[1] == f));
    n
}

/// Runs tile code `code[..len]` on `bufs` (inputs, then outputs) for the
/// iterations `[begin, end)` of its parallel dimension.
///
/// # Safety
///
/// `code` is tile code from [`super::plan`] for the kernel whose buffers
/// `bufs` holds, `fns` the addresses of the library functions it names.
pub(crate) unsafe extern "C" fn tile_run(
    code: *const i64,
    len: i64,
    fns: *const TileFnPtr,
    bufs: *const *mut u8,
    begin: i64,
    end: i64,
) {
    // SAFETY: the caller passes the code's words.
    let code = unsafe { std::slice::from_raw_parts(code, len as usize) };
    let Some(h) = header(code) else { return };
    if begin >= end {
        return;
    }
    // Scalars, tiles, then each tile's current address.
    let words = h.scalars + h.tiles * TILE + h.tiles;
    SCRATCH.with(|s| {
        let mut own = Vec::new();
        let mut borrowed = s.try_borrow_mut();
        let mem: &mut Vec<u64> = match borrowed.as_mut() {
            Ok(v) => v,
            Err(_) => &mut own,
        };
        if mem.len() < words {
            mem.resize(words, 0);
        }
        let r = h.dims.len();
        let base = mem.as_mut_ptr();
        // SAFETY: `mem` holds the scalars, the tiles and their addresses.
        let (tiles, views) = unsafe { (base.add(h.scalars) as *mut u8, base.add(h.scalars + h.tiles * TILE)) };
        let views = views as *mut *mut u8;
        for t in 0..h.tiles {
            // SAFETY: as above.
            unsafe { views.add(t).write(tiles.add(t * TILE * 8)) };
        }
        let mut m = Machine {
            code,
            fns,
            bufs,
            scalars: base,
            tiles,
            views,
            idx: smallvec::smallvec![0; r],
            direct: false,
            ahead: if walks_rows_twice(code, &h) { smallvec::smallvec![0; STREAMS] } else { Default::default() },
            splatted: smallvec::smallvec![(0, 0); h.tiles],
        };
        m.direct = m.outputs_apart(&h);
        m.kernel(&h, begin, end);
    });
}

/// Whether a loop kernel's rows are walked in several passes: a row
/// reduction before the row's lanes (softmax's max and sum).
fn walks_rows_twice(code: &[i64], h: &Header) -> bool {
    let mut reduces = false;
    if h.kind == KIND_LOOP && h.lane.is_some() {
        let mut pc = 0;
        let row = &code[h.row.clone()];
        while pc < row.len() && !reduces {
            reduces = row[pc] == op::REDUCE;
            pc += op::len(&row[pc..]);
        }
    }
    reduces
}

struct Machine<'c> {
    code: &'c [i64],
    fns: *const TileFnPtr,
    bufs: *const *mut u8,
    scalars: *mut u64,
    tiles: *mut u8,
    /// Where each tile's lanes are now: its own storage, or the row of an
    /// input a load reads in place.
    views: *mut *mut u8,
    idx: Dims,
    /// Outputs computed by one call each are written in place (no output
    /// overlaps an input).
    direct: bool,
    /// Per input (the first [`STREAMS`]), where its prefetched bytes end;
    /// empty where loads do not prefetch (kernels that read each element
    /// once, which the hardware's prefetchers follow; issuing hints there
    /// only stalled on a full memory pipeline).
    ahead: smallvec::SmallVec<[usize; STREAMS]>,
    /// Per tile, the scalar bits a splat last filled it with and how many
    /// lanes: a splat of the same value again (a constant's, in every row)
    /// is skipped. Only splats write a splatted tile's first lanes.
    splatted: smallvec::SmallVec<[(u64, usize); 32]>,
}

/// How many chunks ahead the loads of row kernels prefetch, as compiled row
/// kernels do (`smelt_llvm::codegen`'s `ROWS_AHEAD`): a row is walked in
/// several passes from cache, and the first would otherwise wait on memory.
/// Chunks follow one another in memory when rows are contiguous (else the
/// hint only costs its instructions).
const CHUNKS_AHEAD: usize = 2;

/// Inputs whose loads prefetch (kernels rarely read more).
const STREAMS: usize = 16;

/// The line size prefetches step by (64 bytes on every x86 core).
const LINE: usize = 64;

/// Hints that the `len` bytes from `at` will be read soon.
fn prefetch(at: *const u8, len: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        let mut off = 0;
        while off < len {
            // SAFETY: a prefetch never faults, whatever the address.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(at.wrapping_add(off) as *const i8) };
            off += LINE;
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (at, len);
}

fn bytes(e: i64) -> usize {
    e as usize
}

impl<'c> Machine<'c> {
    fn scalar(&self, s: i64) -> *mut u8 {
        // SAFETY: slots are within the scratch area sized for them.
        unsafe { self.scalars.add(s as usize) as *mut u8 }
    }

    /// A tile's lanes, to read.
    fn tile(&self, t: i64) -> *mut u8 {
        // SAFETY: as for `scalar`.
        unsafe { *self.views.add(t as usize) }
    }

    /// A tile's own storage, to write.
    fn own(&self, t: i64) -> *mut u8 {
        // SAFETY: as for `scalar`.
        unsafe { self.tiles.add(t as usize * TILE * 8) }
    }

    fn view(&self, t: i64, at: *mut u8) {
        // SAFETY: as for `scalar`.
        unsafe { self.views.add(t as usize).write(at) }
    }

    fn buf(&self, i: i64) -> *mut u8 {
        // SAFETY: the kernel's buffers, inputs then outputs.
        unsafe { *self.bufs.add(i as usize) }
    }

    fn call(&self, f: i64, args: &[*mut u8], n: usize) {
        // SAFETY: `f` names a library function taking these buffers.
        unsafe { (*self.fns.add(f as usize))(args.as_ptr(), 0, n as i64) }
    }

    fn read_index(&self, s: i64) -> i64 {
        // SAFETY: an index slot holds an i64.
        unsafe { (self.scalar(s) as *const i64).read() }
    }

    /// The element offset of a load: `sum slot * stride` over `terms`.
    fn offset(&self, terms: &[i64]) -> i64 {
        terms.chunks_exact(2).map(|t| self.read_index(t[0]) * t[1]).sum()
    }

    fn splat(&self, dst: *mut u8, src: *const u8, e: usize, n: usize) {
        // SAFETY: `dst` holds `n` elements of `e` bytes; `src` one.
        unsafe {
            match e {
                4 => std::slice::from_raw_parts_mut(dst as *mut u32, n).fill((src as *const u32).read_unaligned()),
                8 => std::slice::from_raw_parts_mut(dst as *mut u64, n).fill((src as *const u64).read_unaligned()),
                _ => {
                    for i in 0..n {
                        std::ptr::copy_nonoverlapping(src, dst.add(i * e), e);
                    }
                }
            }
        }
    }

    /// Runs the code `block` with the chunk `[lane0, lane0 + n)`; splats fill `fill` lanes.
    fn block(&mut self, block: std::ops::Range<usize>, lane0: i64, n: usize, fill: usize) {
        let mut pc = block.start;
        while pc < block.end {
            let w = &self.code[pc..block.end];
            let len = op::len(w);
            match w[0] {
                op::INDEX => {
                    let v = self.idx[w[2] as usize];
                    // SAFETY: a scalar slot.
                    unsafe { (self.scalar(w[1]) as *mut i64).write(v) };
                }
                op::CONST => {
                    // SAFETY: a scalar slot.
                    unsafe { (self.scalar(w[1]) as *mut i64).write(w[2]) };
                }
                op::LOAD_S | op::LOAD_T => {
                    let (dst, input, e, k) = (w[1], w[2], bytes(w[3]), w[4] as usize);
                    let terms = &w[5..5 + 2 * k];
                    let tile = w[0] == op::LOAD_T;
                    let off = self.offset(terms) + if tile { lane0 } else { 0 };
                    // SAFETY: the lowering keeps loads within their input.
                    let from = unsafe { self.buf(input).add(off as usize * e) };
                    if tile {
                        // Read in place: library functions take any address.
                        self.view(dst, from);
                        self.prefetch_ahead(input as usize, from, n * e);
                    } else {
                        let to = self.scalar(dst);
                        // SAFETY: a scalar slot of 8 bytes.
                        unsafe {
                            (to as *mut u64).write(0);
                            std::ptr::copy_nonoverlapping(from, to, e);
                        }
                    }
                }
                op::SPLAT => {
                    let (t, src, e) = (w[1], self.scalar(w[2]), bytes(w[3]));
                    // SAFETY: a scalar slot of 8 bytes.
                    let bits = unsafe { (src as *const u64).read() };
                    let done = self.splatted.get_mut(t as usize);
                    if done.as_ref().is_none_or(|d| d.0 != bits || d.1 < fill) {
                        if let Some(d) = done {
                            *d = (bits, fill);
                        }
                        self.splat(self.own(t), src, e, fill);
                    }
                }
                op::CALL_S | op::CALL_T => {
                    let (f, k, dst) = (w[1], w[2] as usize, w[3]);
                    let tile = w[0] == op::CALL_T;
                    let mut args = [std::ptr::null_mut(); 4];
                    for (j, &a) in w[4..4 + k].iter().enumerate() {
                        args[j] = match (tile, a) {
                            (true, a) if a < 0 => self.scalar(-1 - a),
                            (true, a) => self.tile(a),
                            (false, a) => self.scalar(a),
                        };
                    }
                    args[k] = if tile { self.tile(dst) } else { self.scalar(dst) };
                    if !tile {
                        // SAFETY: a scalar slot; the result fills its first bytes.
                        unsafe { (self.scalar(dst) as *mut u64).write(0) };
                    }
                    self.call(f, &args[..=k], if tile { n } else { 1 });
                }
                op::REDUCE => {
                    let (rl, ll) = (w[11] as usize, w[12] as usize);
                    let body = pc + 13;
                    self.reduce(&w[1..11], body..body + rl, body + rl..body + rl + ll);
                }
                _ => return,
            }
            pc += len;
        }
    }

    /// Prefetches the chunk [`CHUNKS_AHEAD`] chunks of `len` bytes past
    /// `from`, a chunk of `input`, unless an earlier load did (a row's later
    /// passes, a chunk already ahead).
    fn prefetch_ahead(&mut self, input: usize, from: *mut u8, len: usize) {
        let Some(end) = self.ahead.get_mut(input) else { return };
        let lo = from as usize + CHUNKS_AHEAD * len;
        let hi = lo + len;
        if hi > *end {
            let start = lo.max(*end);
            prefetch(start as *const u8, hi - start);
            *end = hi;
        }
    }

    /// An inline reduction: `[dst, init, fn, fold, fold lanes, identity,
    /// bytes, window, acc, value]`.
    fn reduce(&mut self, a: &[i64], row: std::ops::Range<usize>, lane: std::ops::Range<usize>) {
        let (dst, init, f, fold, fold_lanes, pad) = (a[0], a[1], a[2], a[3], a[4], a[5]);
        let (e, window, acc, value) = (bytes(a[6]), a[7], a[8], a[9]);
        let fill = (window.max(0) as usize).min(TILE);
        self.block(row, 0, 0, fill);
        let (mut c0, mut cur) = (0, self.own(acc));
        while c0 < window {
            let n = ((window - c0) as usize).min(TILE);
            self.block(lane.clone(), c0, n, fill);
            self.accumulate(f, acc, &mut cur, value, e, n, c0 == 0, c0 + (n as i64) < window);
            c0 += n as i64;
        }
        self.finish([fold, fold_lanes, init, pad], acc, cur, e, fill, dst);
    }

    /// The accumulator storage `cur` is not: tiles `acc` and `acc + 1` take
    /// turns holding the accumulator, so no call writes an operand (the
    /// library's loops vectorize only apart from their operands).
    fn other(&self, acc: i64, cur: *mut u8) -> *mut u8 {
        if cur == self.own(acc) { self.own(acc + 1) } else { self.own(acc) }
    }

    /// Combines the chunk's values into the accumulator at `cur`. The first
    /// chunk is the accumulator: read in place when it is the only one,
    /// copied when later chunks will overwrite it.
    #[allow(clippy::too_many_arguments)]
    fn accumulate(&self, f: i64, acc: i64, cur: &mut *mut u8, value: i64, e: usize, n: usize, first: bool, more: bool) {
        let v = self.tile(value);
        if first && more {
            *cur = self.own(acc);
            // SAFETY: a tile and a tile's storage, apart.
            unsafe { std::ptr::copy_nonoverlapping(v, *cur, n * e) };
        } else if first {
            *cur = v;
        } else {
            let next = self.other(acc, *cur);
            self.call(f, &[*cur, v, next], n);
            // A last, partial chunk leaves the other lanes as they were.
            // SAFETY: lanes `[n, TILE)` of two accumulator tiles.
            unsafe { std::ptr::copy_nonoverlapping((*cur).add(n * e), next.add(n * e), (TILE - n) * e) };
            *cur = next;
        }
    }

    /// Folds `lanes` accumulator lanes (at `cur`) and scalar `init` into
    /// scalar `dst` (`init` itself for no lanes) with one call of the
    /// library's `fold` over `fold_lanes` lanes: the accumulator's in a tile
    /// (copied there when `cur` is a row read in place), the rest the
    /// operation's identity (scalar `pad`).
    fn finish(
        &self,
        [fold, fold_lanes, init, pad]: [i64; 4],
        acc: i64,
        cur: *mut u8,
        e: usize,
        lanes: usize,
        dst: i64,
    ) {
        let out = self.scalar(dst);
        // SAFETY: scalar slots.
        unsafe { (out as *mut u64).write(0) };
        if lanes == 0 {
            // SAFETY: scalar slots of 8 bytes.
            unsafe { std::ptr::copy_nonoverlapping(self.scalar(init), out, 8) };
            return;
        }
        let fold_lanes = (fold_lanes.max(0) as usize).min(TILE);
        // A scratch tile is padded where it is (its lanes past the row hold
        // nothing a later call reads); a row read in place is folded where
        // it is when it fills the fold, else copied out first.
        let tile = if self.scratch(cur) || lanes >= fold_lanes {
            cur
        } else {
            // SAFETY: `lanes` elements of a row and of a tile's storage, apart.
            unsafe { std::ptr::copy_nonoverlapping(cur, self.own(acc), lanes * e) };
            self.own(acc)
        };
        if lanes < fold_lanes {
            // SAFETY: lanes `[lanes, fold_lanes)` of an accumulator tile.
            self.splat(unsafe { tile.add(lanes * e) }, self.scalar(pad), e, fold_lanes - lanes);
        }
        self.call(fold, &[tile, self.scalar(init), out], 1);
    }

    /// Whether `at` is a tile's own storage (not a row read in place).
    fn scratch(&self, at: *mut u8) -> bool {
        let (a, t) = (at as usize, self.tiles as usize);
        a >= t && a < self.views as usize
    }

    /// Whether no output buffer overlaps an input buffer.
    fn outputs_apart(&self, h: &Header) -> bool {
        let sizes = &self.code[h.sizes.clone()];
        let ni = h.inputs as usize;
        let range = |i: usize| {
            let p = self.buf(i as i64) as usize;
            (p, p + sizes.get(i).copied().unwrap_or(0) as usize)
        };
        (ni..sizes.len()).all(|o| {
            let (a, b) = range(o);
            (0..ni).all(|i| {
                let (c, d) = range(i);
                b <= c || d <= a
            })
        })
    }

    /// `sum idx[j] * strides[j]`.
    fn linear(&self, strides: &[i64]) -> i64 {
        self.idx.iter().zip(strides).map(|(i, s)| i * s).sum()
    }

    /// Points the tiles of outputs computed in place at the chunk's place
    /// in their output.
    fn redirect(&self, entries: &[i64], inputs: i64, strides: &[i64]) {
        let at = self.linear(strides) as usize;
        for o in entries.chunks_exact(4).filter(|o| o[2] == 2) {
            // SAFETY: outputs hold every index of the space.
            self.view(o[3], unsafe { self.buf(inputs + o[0]).add(at * bytes(o[1])) });
        }
    }

    /// Stores the chunk's `n` lanes (one element for a scalar entry) of
    /// every output entry `[output, bytes, is tile, slot]` at the current index.
    fn store(&self, entries: &[i64], inputs: i64, strides: &[i64], n: usize) {
        let at = self.linear(strides) as usize;
        for o in entries.chunks_exact(4) {
            if o[2] == 2 && self.direct {
                continue;
            }
            let (e, tile) = (bytes(o[1]), o[2] != 0);
            let (src, count) = if tile { (self.tile(o[3]), n) } else { (self.scalar(o[3]), 1) };
            // SAFETY: outputs hold every index of the space.
            unsafe { std::ptr::copy_nonoverlapping(src, self.buf(inputs + o[0]).add(at * e), count * e) };
        }
    }

    /// Runs the kernel's iterations `[begin, end)`.
    fn kernel(&mut self, h: &Header, begin: i64, end: i64) {
        let c = self.code;
        let r = h.dims.len();
        let dims = &h.dims;
        let outputs = &c[h.outputs.clone()];
        let (par, ni) = (h.par, h.inputs);
        // The dimensions rows walk: all but the lane and the reduced one.
        let walk: smallvec::SmallVec<[usize; 8]> =
            (0..r).filter(|&j| Some(j) != h.lane && Some(j) != h.reduced).collect();
        let lane_range = match h.lane {
            Some(l) if l == par => (begin, end),
            Some(l) => (0, dims[l]),
            None => (0, 1),
        };
        let (strides, kept_strides) = (&c[h.strides.clone()], &c[h.kept.clone()]);
        // The odometer over the walked dimensions (the parallel one within `[begin, end)`).
        let lo = |j: usize| if j == par { begin } else { 0 };
        let hi = |j: usize| if j == par { end } else { dims[j] };
        if walk.iter().any(|&j| lo(j) >= hi(j)) {
            return;
        }
        for &j in &walk {
            self.idx[j] = lo(j);
        }
        let fill = ((lane_range.1 - lane_range.0).max(0) as usize).min(TILE);
        let [init, value, f, fold, fold_lanes, pad, acc, e, result] = h.reduce;
        let e = bytes(e);
        loop {
            match h.kind {
                KIND_LOOP => {
                    self.block(h.row.clone(), 0, 0, fill);
                    let mut l0 = lane_range.0;
                    while l0 < lane_range.1 {
                        let n = ((lane_range.1 - l0) as usize).min(TILE);
                        if let Some(l) = h.lane {
                            self.idx[l] = l0;
                        }
                        if self.direct {
                            self.redirect(outputs, ni, strides);
                        }
                        self.block(h.lanes.clone(), l0, n, fill);
                        self.store(outputs, ni, strides, n);
                        l0 += n as i64;
                    }
                }
                KIND_REDUCE_INNER => {
                    let l = h.lane.unwrap_or(r - 1);
                    self.block(h.row.clone(), 0, 0, fill);
                    let (mut l0, mut cur) = (0, self.own(acc));
                    while l0 < dims[l] {
                        let n = ((dims[l] - l0) as usize).min(TILE);
                        self.idx[l] = l0;
                        if self.direct {
                            self.redirect(&outputs[4..], ni, strides);
                        }
                        self.block(h.lanes.clone(), l0, n, fill);
                        self.accumulate(f, acc, &mut cur, value, e, n, l0 == 0, l0 + (n as i64) < dims[l]);
                        self.store(&outputs[4..], ni, strides, n);
                        l0 += n as i64;
                    }
                    self.finish([fold, fold_lanes, init, pad], acc, cur, e, fill, result);
                    self.idx[l] = 0;
                    let at = self.linear(kept_strides) as usize;
                    // SAFETY: the reduce output holds the kept index.
                    unsafe {
                        std::ptr::copy_nonoverlapping(self.scalar(result), self.buf(ni + outputs[0]).add(at * e), e)
                    };
                }
                KIND_REDUCE_OUTER => {
                    let (l, d) = (h.lane.unwrap_or(r - 1), h.reduced.unwrap_or(0));
                    let mut l0 = lane_range.0;
                    while l0 < lane_range.1 {
                        let n = ((lane_range.1 - l0) as usize).min(TILE);
                        self.idx[l] = l0;
                        // The row code computes the init value.
                        self.idx[d] = 0;
                        self.block(h.row.clone(), 0, 0, n);
                        self.splat(self.own(acc), self.scalar(init), e, n);
                        let mut cur = self.own(acc);
                        for j in 0..dims[d] {
                            self.idx[d] = j;
                            self.block(h.row.clone(), 0, 0, n);
                            if self.direct {
                                self.redirect(&outputs[4..], ni, strides);
                            }
                            self.block(h.lanes.clone(), l0, n, n);
                            let next = self.other(acc, cur);
                            self.call(f, &[cur, self.tile(value), next], n);
                            cur = next;
                            self.store(&outputs[4..], ni, strides, n);
                        }
                        self.idx[d] = 0;
                        let at = self.linear(kept_strides) as usize;
                        // SAFETY: the reduce output holds the kept lanes.
                        unsafe { std::ptr::copy_nonoverlapping(cur, self.buf(ni + outputs[0]).add(at * e), n * e) };
                        l0 += n as i64;
                    }
                }
                _ => return,
            }
            // The next row.
            let mut k = walk.len();
            loop {
                if k == 0 {
                    return;
                }
                k -= 1;
                let j = walk[k];
                self.idx[j] += 1;
                if self.idx[j] < hi(j) {
                    break;
                }
                self.idx[j] = lo(j);
            }
        }
    }
}
