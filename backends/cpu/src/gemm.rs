//! Matrix multiplication generated as LLVM IR: `c[b,i,j] = sum_k a[b,i,k] * b[b,k,j]`.
//!
//! The design is BLIS's, written for a row-major C whose columns are the vector
//! lanes:
//!
//! - **Microkernel** (`ukernel`): an `MR x NR` tile of C held in `MR * NV` vector
//!   registers (`NR = NV * lanes`). Each step over `k` loads `NV` vectors of packed
//!   B, broadcasts `MR` scalars of packed A and issues `MR * NV` independent FMAs,
//!   enough to cover the FMA latency (4 cycles, 2 pipes on Zen 4). AVX-512 uses
//!   `12 x 32` f32 (24 accumulators + 2 B vectors + 1 broadcast of 32 registers),
//!   AVX2 `6 x 16`, NEON `8 x 12`, anything else `4 x 8`. The last row tile
//!   of a matrix takes a variant one or two thirds as tall where that holds
//!   its rows ([`tile_heights`]), and the last column panel a variant one
//!   vector wide where that holds its columns (n = 196: 6 x 32 + 4, 784:
//!   24 x 32 + 16), so rows and columns past the edge are not computed; a
//!   last panel of up to [`TAIL_COLUMNS`] more (n = 49: 32 + 16 + 1) adds a
//!   tail column kernel per column left, its vectors along the rows (A
//!   packed) or along `k` (A in place), instead of a second vector of dead
//!   lanes; over A in place a last panel of at most [`TAIL_COLUMNS`]
//!   columns takes the tail column kernel alone (n = 49 with AVX2: 3 x 16
//!   + 1).
//! - **Packing**: A is copied into `MR`-row micro-panels (`k`-major, `MR` values per
//!   `k`) and B into `NR`-column micro-panels, converting to the accumulator type
//!   and padding edges with zeros, so the microkernel reads both sequentially.
//!   An A stored along `k` in the accumulator type (a layer's weights, as
//!   convolutions and dots of NCHW models hold them) is read in place instead
//!   when B is narrow ([`A_IN_PLACE_COLUMNS`]), by a microkernel variant that
//!   broadcasts from `MR` row pointers: packing cost a pass over all of A
//!   per call for the few panels it serves (Zen 2: `2048x49x1024` 1.21x,
//!   `1000x169x512` 1.07x faster). Over wider B the packed micro-panels
//!   stream from L2 better than a tile's rows far apart (`64x3136x256`
//!   1.12x).
//!   Panels whose source runs along `k` are transposed in registers (`lanes x
//!   lanes` shuffles), the others are copied a row at a time. When A is at
//!   most four row blocks (`m <= 4 MC`: a few rows through a layer's weights,
//!   or a 1x1 NCHW convolution's output channels over its pixels), every B
//!   panel is used by at most four macro-kernel calls: full panels of a B
//!   stored along its columns are then read in place (the microkernel takes
//!   B's row stride), only the edge panel is packed, and the macro kernel
//!   runs panel by panel so each comes from memory once per row block and
//!   serves the row tiles from L1 or L2. On hosts with a large L2, past
//!   one row block (twelve row tiles) over rows a page or more apart B is
//!   packed after all ([`IN_PLACE_PAGED_ROW_TILES`]).
//! - **bf16 pairs**: on AVX512-BF16, bf16 operands are packed as pairs along
//!   `k` for a `vdpbf16ps` microkernel with the same f32 tile
//!   ([`Blocking::pairs`]), where that instruction is measured to pay on the
//!   host ([`crate::routine::bf16_pairs_pay`]); else they convert to f32.
//! - **Integer pairs and quads**: 8- and 16-bit integer products into i32 are
//!   packed as s16 pairs along `k`: `vpdpwssd` on VNNI, `vpmaddwd` and an add
//!   on AVX2 (twice the multiply-adds per instruction of widening to i32 and
//!   `vpmulld`); u8 x s8 as quads for `vpdpbusd` on VNNI only.
//! - **Cache blocking**, from the host's cache sizes (`caches.rs`): `KC` (depth)
//!   keeps an A micro-panel (`MR x KC`, 12 KiB for f32 of a 32 KiB L1d) in L1
//!   while the microkernel sweeps the B micro-panels of a `KC x NC` block (half
//!   the L2); `MC` rows of A are packed at a time.
//!   `KC` is balanced over `k` so the last block is not a sliver.
//! - **Threads**: all of B (for as many batch elements as fit in a 64 MiB budget,
//!   or a slab of columns of one when a whole one does not) is packed first, one
//!   `smelt_parallel_for` over its panels; then a second `smelt_parallel_for` runs
//!   tasks, each a rectangle of C (batch element x rows x columns) that packs its
//!   own A. The task count grows with the work (one task per ~2 MFLOP, at most
//!   two per thread of `smelt_parallel_threads`, as each task streams the B
//!   blocks into its L2 once) and splits rows first, in slices of at least
//!   six row tiles that reuse each B block from L2 (two when B is at most
//!   eight panels wide: a column split would leave each task a panel or
//!   two), then columns (each column slice repacks its A rows); slices
//!   are whole tiles split as evenly as they go, the larger first. A
//!   product of one task packs B on the calling thread as well.
//! - **Scratch**: packed B and A live in `smelt_scratch_alloc` memory, which
//!   the JIT's runtime keeps for the next call (on huge pages) instead of
//!   faulting in fresh pages every time.
//! - **Matrix-vector** products (`m == 1` or `n == 1`) skip packing and stream the
//!   matrix once (`gemv.rs`).
//! - **Epilogue**: after the last `KC` block of a task's `MR`-row strip of an `NC`
//!   block, the strip is final and still in L1/L2: the epilogue callback runs on it.
//!
//! Accumulation follows XLA: f32 for f16/bf16/f32 results (low-precision results
//! round once at the end: `KC` then covers all of `k`), f64 for f64, wrapping i32
//! for integer results up to 32 bits, wrapping i64 for 64-bit ones.

use inkwell::IntPredicate;
use inkwell::module::{Linkage, Module};
use inkwell::targets::TargetMachine;
use inkwell::types::BasicType;
use inkwell::values::{BasicValueEnum, FunctionValue, IntValue, PointerValue};
use smelt_hlo::DType;

use crate::routine::{
    Ct, INLINE_WORK, Ir, Isa, R, RoutineError, Slots, call_epilogue, declare, enum_attr, run_tasks, set_target_attrs,
    task_entry, task_function,
};

/// What a generated matrix multiply computes. Operands are dense row-major
/// `[batch, m, k]` (`[batch, k, m]` when `lhs_transposed`) and `[batch, k, n]`
/// (`[batch, n, k]` when `rhs_transposed`); the result is `[batch, m, n]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GemmSpec {
    pub lhs: DType,
    pub rhs: DType,
    pub out: DType,
    pub lhs_transposed: bool,
    pub rhs_transposed: bool,
}

impl GemmSpec {
    /// The symbol of the generated function, e.g. `smelt_gemm_f32_f32_f32_nt`.
    pub fn symbol(&self) -> String {
        format!(
            "smelt_gemm_{}_{}_{}_{}{}",
            self.lhs.name(),
            self.rhs.name(),
            self.out.name(),
            if self.lhs_transposed { 't' } else { 'n' },
            if self.rhs_transposed { 't' } else { 'n' }
        )
    }
}

/// Register and cache blocking for one accumulator type on one vector ISA.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Blocking {
    pub ct: Ct,
    /// Rows of the microkernel tile.
    pub mr: u32,
    /// Vectors per row of the tile.
    pub nv: u32,
    pub lanes: u32,
    /// Depth of a packed block.
    pub kc: i64,
    /// Columns of a packed B block.
    pub nc: i64,
    /// Rows of A packed at a time.
    pub mc: i64,
    /// Elements packed together along `k` for one dot-product instruction:
    /// 1 (plain), 2 (16-bit pairs for `vdpbf16ps` or `vpdpwssd`, see
    /// [`Blocking::grouped`]) or 4 (8-bit quads for `vpdpbusd`).
    pub group: u32,
}

impl Blocking {
    /// Operands packed in groups of `group` along `k`, one 32-bit lane of the
    /// accumulator's vector per group: bf16 or s16 pairs (`vdpbf16ps` into f32
    /// on AVX512-BF16, `vpdpwssd` into i32 on AVX512-VNNI, `vpmaddwd` and an
    /// add on AVX2 and AVX512-BW without it) or u8 x s8 quads
    /// (`vpdpbusd` into i32 on AVX512-VNNI). The tile is the accumulator's; a B
    /// row of the panel is `NR` groups, an A step `MR` groups, `group` values
    /// of `k` per instruction. Depth blocks are whole groups; the last one is
    /// padded with zeros.
    pub fn grouped(isa: Isa, ct: Ct, group: u32) -> Blocking {
        let base = Blocking::new(isa, ct);
        let g = group as i64;
        let bytes = 4 / g;
        let kc = (depth_bytes(isa) / bytes) / g * g;
        let nr = base.nr() as i64;
        let nc = ((b_block_bytes(isa) / (kc * bytes)) / nr).max(1) * nr;
        Blocking { kc, nc, group, ..base }
    }

    /// Bytes of one packed element.
    pub fn packed_bytes(&self) -> i64 {
        if self.group > 1 { 4 / self.group as i64 } else { self.ct.bytes() as i64 }
    }

    pub fn new(isa: Isa, ct: Ct) -> Blocking {
        let lanes = (isa.vector_bits / (8 * ct.bytes())).max(1);
        let (mr, nv) = match (isa.registers, isa.vector_bits) {
            (32, 512) => (12, 2),
            (32, _) => (8, 3),
            (_, 256) => (6, 2),
            _ => (4, 2),
        };
        let nr = (nv * lanes) as i64;
        let kc = depth_bytes(isa) / ct.bytes() as i64;
        // A B block of half the L2, a whole number of micro-panels.
        let nc = ((b_block_bytes(isa) / (kc * ct.bytes() as i64)) / nr).max(1) * nr;
        Blocking { ct, mr, nv, lanes, kc, nc, mc: 12 * mr as i64, group: 1 }
    }

    pub fn nr(&self) -> u32 {
        self.nv * self.lanes
    }
}

/// Bytes of depth per packed row: 1 KiB per 32 KiB of L1d (an A micro-panel of
/// `MR` rows takes 12 of 32 KiB with AVX-512, 18 of 48), a multiple of 64
/// between 512 bytes and 4 KiB.
fn depth_bytes(isa: Isa) -> i64 {
    ((isa.caches.l1d / 32) as i64 & !63).clamp(512, 4096)
}

/// Bytes of a packed B block: half the L2, at least 128 KiB.
fn b_block_bytes(isa: Isa) -> i64 {
    ((isa.caches.l2 / 2) as i64).max(128 << 10)
}

/// Bytes of packed B per round of batch elements (one element may exceed it).
/// Tests use a small budget so that batched shapes take several rounds.
const PACK_BUDGET_BYTES: i64 = if cfg!(test) { 8 << 10 } else { 64 << 20 };
/// Multiply-adds per task (about 2 MFLOP): SqueezeNet's 1x1 products of
/// 3-6M multiply-adds (`64x3025x16`) ran 0.117 -> 0.075 ms in two tasks
/// inside the model, whose workers are awake (Zen 2: the model 1.07-1.11x,
/// `lstm_multitask_forward` 1.19x, the rest of the corpus even); alone, a
/// bench loop's sleeping workers made the split look slower.
const TASK_WORK_SHIFT: u32 = 20;
/// Tasks per thread at most. Each task streams the packed B blocks from L3
/// into L2 once for its rows, so taller tasks reuse them more: on 2 threads a
/// `[4096]^3` product ran at 275 GFLOP/s in 16 tasks and 295 in 4 (Intel
/// Xeon, Emerald Rapids); two per thread still balance a late thread.
const TASKS_PER_THREAD: i64 = 2;
/// The most bytes of packed A a task keeps across its column blocks (else
/// each block repacks its `MC x KC` piece of A).
const A_KEEP_BYTES: i64 = if cfg!(test) { 128 << 10 } else { 64 << 20 };
/// Row blocks of A (`MC` rows each) at most for B to be read in place
/// ([`reads_b_in_place`]).
const IN_PLACE_ROW_BLOCKS: i64 = 4;
/// Row strides (bytes) that keep B packed when more than one row tile reuses
/// its panels: a panel's rows that far apart fall into a few cache sets (a
/// 4 KiB stride puts `KC` = 256 rows into 16 of the L2's 1024 sets, 128
/// lines), and reading in place ran `256x1024x512` 1.5x slower than packing.
const IN_PLACE_ALIASED_STRIDE: i64 = 2048;
/// Row tiles at most that read B in place when its rows are a page or more
/// apart, on hosts with a large L2 ([`crate::caches::Caches::large_l2`]):
/// one row block (`MC`). Past it each row tile rereads the panel (it does
/// not stay in L1 beside the A tile), and rows pages apart are fetched one
/// line at a time; the packed block streams from a large L2 instead. On the
/// Intel Xeon of `docs/benchmarks.md` (2 MiB L2), two threads, alone:
/// `192x3136x576` 3.02 ms packed against 3.17 in place, `512x3136x256`
/// 3.15-3.30 against 3.45-3.52; `128x3136x256` (11 row tiles) 0.85-0.88
/// in place against 0.91-0.93 packed, and inside ResNet-50, where packing
/// B writes its blocks out of a cache full of the layers before, 0.92-0.99
/// against 1.30-1.36 (one thread 1.66-1.78 against 2.53-2.63); earlier
/// `32x3136x256` (3) 206 GFLOP/s in place against 158, `96x784x192` (8)
/// 347 against 288. On a Zen 2 EPYC (512 KiB L2) reading in place won at
/// any stride (`128x3136x256` 1.32x), so smaller L2s keep it.
const IN_PLACE_PAGED_ROW_TILES: i64 = 12;
/// Fewest row tiles a task gets when rows are split, so each task reuses
/// B's blocks from L2 over several tiles.
const MIN_TASK_ROW_TILES: i64 = 6;
/// The same when B has at most [`NARROW_B_PANELS`] panels: a column split
/// would leave each task one or two panels (n = 49, a 7x7 image: 32 + 17
/// columns, both computed 32 wide), and each task rereading all of so
/// narrow a B is cheap. Intel Xeon of `docs/benchmarks.md`, two threads:
/// `192x49x1024` 138-150 -> 175-187 GFLOP/s, `160x49x1024` 1.11x,
/// `128x49x1024` 1.10x, `96x196x576` 1.06x.
const MIN_NARROW_TASK_ROW_TILES: i64 = 2;
/// Bytes of one way of an x86 L1d (64 sets of 64-byte lines, 32 KiB 8-way
/// or 48 KiB 12-way): rows a multiple of this apart fall into one set.
pub(crate) const L1_WAY_BYTES: i64 = 4096;
/// B's panels at most for an A whose rows alias in the L1 (4 KiB apart) to
/// be read in place all the same: each packed row block would serve only
/// these few panels, and packing streams all of a layer's weights through
/// a second buffer per call. Intel Xeon of `docs/benchmarks.md`, two threads,
/// weights from memory (`gemm_bench`, `SMELT_BENCH_COLD=20`):
/// `512x49x2048` 194 -> 257 GFLOP/s, `2048x49x1024` 207 -> 277,
/// `512x98x2048` 263 -> 293, `256x128x1024` 1.05x, `256x160x1024` 1.02x;
/// seven panels (`256x196x1024`) 0.98x, so they stay packed. With AVX2's
/// six-row tiles the same holds on a Zen 3 EPYC (32 KiB 8-way L1d), one
/// thread, `gemm_bench`: `256x196x1024` 66 -> 87 GFLOP/s packed,
/// `256x196x2048` 66 -> 87 (`256x196x1040`, rows spread: 87 in place);
/// `2048x49x1024` and `512x49x2048` even either way with weights from
/// memory (63 against 62), so they are not packed: runs of their rows are
/// copied to rows spread over the L1 sets and read in place from there
/// ([`spread_row_bytes`]; A, B and C from memory: 61 -> 62-71 and 61 ->
/// 69, `352x49x1024` 61 -> 69, `192x49x1024` 50 -> 60).
const A_ALIASED_NARROW_PANELS: i64 = 4;
/// B's columns at most for A to be read in place. Past them A's tiles are
/// read once per panel (B read in place goes panel by panel over all row
/// tiles) or from L1 copies that do not last, and a tile's rows far apart
/// stream from L2 worse than one packed micro-panel. Intel Xeon of
/// `docs/benchmarks.md`, one thread, `gemm_bench`, packed against in
/// place: `64x3136x256` 1.12x, `128x3136x256` 1.19x, `96x784x192` 1.10x,
/// `128x784x512` 1.06x, `256x3136x64` 1.03x (weights from memory:
/// `64x784x192` 1.2x), 392 columns (`128x392x1152`) 1.02-1.05x; 196
/// (`1024x196x256`) 0.9x and 49 (`2048x49x512`) 0.67x, so they stay in
/// place, as on Zen 2 (AVX2) `1000x169x512` (1.07x in place).
const A_IN_PLACE_COLUMNS: i64 = 256;
/// Rows ahead that the microkernel prefetches a B panel read in place
/// (its rows a matrix row apart, beyond any hardware prefetcher's stride).
/// Intel Xeon of `docs/benchmarks.md`, two threads, B from memory
/// (`gemm_bench`, `SMELT_BENCH_COLD_B=40`): `64x3136x256` 176 -> 264
/// GFLOP/s, `16x3025x128` 138 -> 201, `32x729x256` 194 -> 226 (8 rows
/// ahead: 249, 189, 221; 32: 267, 175, 220); B warm 1.0-1.23x.
const B_PREFETCH_ROWS: i64 = 16;
/// B's panels at most for [`MIN_NARROW_TASK_ROW_TILES`] (n <= 256 for f32
/// on AVX-512).
const NARROW_B_PANELS: i64 = 8;

/// Returns the function computing `spec`, generating it into `module` on first
/// use (later calls find it by [`GemmSpec::symbol`]). The function has the C
/// signature
///
/// ```c
/// void f(const void* a, const void* b, void* c, int64_t batch, int64_t m, int64_t n, int64_t k,
///        void (*epilogue)(void* ctx, int64_t b, int64_t i0, int64_t i1, int64_t j0, int64_t j1),
///        void* epilogue_ctx);
/// ```
///
/// and calls the external `smelt_parallel_for(task, ctx, n, grain)` to spread its
/// work. When `epilogue` is not null it is called exactly once for every output
/// element, on disjoint blocks `c[b, i0..i1, j0..j1]` whose values are final,
/// right after each is computed (possibly from several threads at once, each block
/// from one thread). With `k == 0` the result is zeros and each batch element is
/// one block.
pub fn gemm_function<'ctx>(
    module: &Module<'ctx>,
    target: &TargetMachine,
    spec: &GemmSpec,
) -> Result<FunctionValue<'ctx>, RoutineError> {
    let name = spec.symbol();
    if let Some(f) = module.get_function(&name) {
        return Ok(f);
    }
    let ct = Ct::for_product("dot", [spec.lhs, spec.rhs], spec.out)?;
    let isa = Isa::of(target);
    let group = group_for(isa, ct, spec.lhs, spec.rhs);
    let parts = Parts::get(module, target, isa, ct, (spec.lhs, spec.rhs, spec.out), group, false)?;
    build_driver(module, target, isa, spec, &name, &parts)
}

/// How many elements of `k` products of `lhs` and `rhs` accumulating in
/// `ct` take per instruction ([`Blocking::grouped`]): 4 for u8 x s8 into
/// wrapping i32 on AVX512-VNNI (`vpdpbusd`), 2 for bf16 into f32 on
/// AVX512-BF16 and integers that fit s16 (s8, u8, s16) into wrapping i32 on
/// AVX2 or AVX-512 (`vpdpwssd` with VNNI, else `vpmaddwd`), else 1.
pub(crate) fn group_for(isa: Isa, ct: Ct, lhs: DType, rhs: DType) -> u32 {
    let s16 = |d: DType| matches!(d, DType::S8 | DType::U8 | DType::S16);
    if isa.int8_quads && ct == Ct::I32 && lhs == DType::U8 && rhs == DType::S8 {
        4
    } else if (isa.bf16_pairs && lhs == DType::Bf16 && rhs == DType::Bf16 && ct == Ct::F32)
        || (isa.int16_pairs && ct == Ct::I32 && s16(lhs) && s16(rhs))
    {
        2
    } else {
        1
    }
}

/// The internal functions a GEMM driver (or a convolution) is built from.
pub(crate) struct Parts<'ctx> {
    pub blk: Blocking,
    /// `void (ptr src, i64 rs, i64 ks, i64 rows, i64 kc, ptr dst)`: packs an `MR`-row
    /// micro-panel of A; source element (r, kk) at `src[r*rs + kk*ks]`.
    pub pack_a: FunctionValue<'ctx>,
    /// The same for `NR`-column micro-panels of B.
    pub pack_b: FunctionValue<'ctx>,
    /// `void (i64 mc, i64 nc, i64 kc, ptr ap, ptr bp, ptr c, i64 ldc, i64 accumulate,
    /// ptr epi, ptr ectx, i64 eb, i64 ei0, i64 ej0, i64 last)`: multiplies a packed
    /// `mc x kc` block of A by a packed `kc x nc` block of B into C (row stride
    /// `ldc`), adding to C when `accumulate`; when `last`, calls the epilogue on
    /// each finished `MR`-row strip as `(eb, ei0 + r0, ei0 + r1, ej0, ej0 + nc)`.
    pub macro_kernel: FunctionValue<'ctx>,
}

/// The GEMM parts of one operand and result type combination
/// (`(lhs, rhs, out)`, packed in groups of `group`) as a routine of their
/// own: convolutions in the routine cache call them from an object built
/// once per machine ([`export_parts`]) instead of compiling them again into
/// every convolution of another shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartsSpec {
    pub types: (DType, DType, DType),
    pub group: u32,
    /// What the object defines: A's and B's packing and the macro kernel.
    pub symbols: [String; 3],
}

impl PartsSpec {
    /// The parts of `types` packed in groups of `group` on `target`'s ISA.
    pub fn new(target: &TargetMachine, types: (DType, DType, DType), group: u32) -> R<PartsSpec> {
        let ct = Ct::for_product("dot", [types.0, types.1], types.2)?;
        let isa = Isa::of(target);
        let blk = blocking(isa, ct, group);
        let symbols = [pack_name(&blk, types.0, blk.mr), pack_name(&blk, types.1, blk.nr()), macro_name(&blk, types.2)];
        Ok(PartsSpec { types, group, symbols })
    }

    /// The parts a product of `types` uses on `target`'s ISA ([`group_for`]).
    pub fn of_product(target: &TargetMachine, types: (DType, DType, DType)) -> R<PartsSpec> {
        let ct = Ct::for_product("dot", [types.0, types.1], types.2)?;
        PartsSpec::new(target, types, group_for(Isa::of(target), ct, types.0, types.1))
    }
}

/// Defines `spec`'s parts in `module` with external linkage.
pub(crate) fn export_parts(module: &Module<'_>, target: &TargetMachine, spec: &PartsSpec) -> R<()> {
    let ct = Ct::for_product("dot", [spec.types.0, spec.types.1], spec.types.2)?;
    let parts = Parts::get(module, target, Isa::of(target), ct, spec.types, spec.group, false)?;
    for f in [parts.pack_a, parts.pack_b, parts.macro_kernel] {
        f.set_linkage(Linkage::External);
    }
    Ok(())
}

fn blocking(isa: Isa, ct: Ct, group: u32) -> Blocking {
    if group > 1 { Blocking::grouped(isa, ct, group) } else { Blocking::new(isa, ct) }
}

/// The packing function of `src` into `p`-wide micro-panels.
fn pack_name(blk: &Blocking, src: DType, p: u32) -> String {
    match blk.group {
        group @ (2 | 4) => grouped_pack_name(src, group, p),
        _ => format!("smelt_gemm_pack_{}_{}_{p}", src.name(), blk.ct.name()),
    }
}

/// The packing function of `src` into `p`-wide panels of `group`-element groups.
fn grouped_pack_name(src: DType, group: u32, p: u32) -> String {
    format!("smelt_gemm_pack_{}x{group}_{p}", src.name())
}

fn macro_name(blk: &Blocking, out: DType) -> String {
    format!(
        "smelt_gemm_macro_{}_{}_{}x{}{}",
        blk.ct.name(),
        out.name(),
        blk.mr,
        blk.nr(),
        if blk.group > 1 { format!("_x{}", blk.group) } else { String::new() }
    )
}

impl<'ctx> Parts<'ctx> {
    /// The parts for operands and result `(lhs, rhs, out)` accumulating in
    /// `ct`, operands packed in groups of `group` along `k` ([`Blocking::grouped`]).
    /// `shared`: only declared, for a [`PartsSpec`] object to define.
    pub fn get(
        module: &Module<'ctx>,
        target: &TargetMachine,
        isa: Isa,
        ct: Ct,
        (lhs, rhs, out): (DType, DType, DType),
        group: u32,
        shared: bool,
    ) -> R<Parts<'ctx>> {
        let blk = blocking(isa, ct, group);
        if shared {
            let cx = module.get_context();
            let (i, p) = (cx.i64_type().into(), cx.ptr_type(Default::default()).into());
            let pack = cx.void_type().fn_type(&[p, i, i, i, i, p], false);
            let macro_type = cx.void_type().fn_type(&[i, i, i, p, p, p, i, i, p, p, i, i, i, i, p, i, i, i], false);
            return Ok(Parts {
                blk,
                pack_a: declare(module, &pack_name(&blk, lhs, blk.mr), pack),
                pack_b: declare(module, &pack_name(&blk, rhs, blk.nr()), pack),
                macro_kernel: declare(module, &macro_name(&blk, out), macro_type),
            });
        }
        let (pack_a, pack_b) = if group == 4 {
            (
                pack_quads_function(module, target, isa, blk.mr, lhs)?,
                pack_quads_function(module, target, isa, blk.nr(), rhs)?,
            )
        } else if group == 2 {
            (
                pack_pairs_function(module, target, isa, blk.mr, lhs)?,
                pack_pairs_function(module, target, isa, blk.nr(), rhs)?,
            )
        } else {
            (
                pack_function(module, target, isa, &blk, lhs, blk.mr)?,
                pack_function(module, target, isa, &blk, rhs, blk.nr())?,
            )
        };
        // Per tile height (the full `MR`, then the edge heights), the
        // microkernel on packed A and, for plain groups, on A in place; for
        // plain groups also one vector wide, for a last column panel of at
        // most one vector of live columns.
        let widths: &[u32] = if group == 1 && blk.nv > 1 { &[blk.nv, 1] } else { &[blk.nv] };
        let mut kernels = Vec::new();
        for &width in widths {
            for height in tile_heights(&blk) {
                let shape = (height, width);
                let packed = ukernel_function(module, target, isa, &blk, out, false, shape)?;
                let rows = if group == 1 {
                    Some(ukernel_function(module, target, isa, &blk, out, true, shape)?)
                } else {
                    None
                };
                kernels.push(((height, width), packed, rows));
            }
        }
        // Float tiles stored to C as they are: a last panel of a few columns
        // past one vector takes the one-vector microkernel and the tail
        // column kernel ([`TAIL_COLUMNS`]).
        let tail = if group == 1
            && blk.nv > 1
            && ct.is_float()
            && crate::routine::mem_type(module.get_context(), out) == ct.ty(module.get_context())
        {
            Some(tail_column_function(module, target, isa, &blk, out)?)
        } else {
            None
        };
        let macro_kernel = macro_function(module, target, isa, &blk, out, &kernels, tail)?;
        Ok(Parts { blk, pack_a, pack_b, macro_kernel })
    }

    /// Calls [`Parts::macro_kernel`]: `[mc, nc, kc, ldc]`, the packed blocks and
    /// C, the [`depth_flags`], the epilogue and its context, and `[eb, ei0, ej0]`;
    /// `direct`: B's source, row stride and columns read in place; `a_rows`:
    /// A's row stride when A is read in place from its first pointer (plain
    /// groups only), else A is packed.
    #[allow(clippy::too_many_arguments)]
    pub fn call_macro(
        &self,
        ir: &Ir<'_, 'ctx>,
        [mc, nc, kc, ldc]: [IntValue<'ctx>; 4],
        [ap, bp, c]: [PointerValue<'ctx>; 3],
        (accumulate, last): (IntValue<'ctx>, IntValue<'ctx>),
        (epi, ectx): (PointerValue<'ctx>, PointerValue<'ctx>),
        [eb, ei0, ej0]: [IntValue<'ctx>; 3],
        direct: Option<(PointerValue<'ctx>, IntValue<'ctx>, IntValue<'ctx>)>,
        a_rows: Option<IntValue<'ctx>>,
    ) -> R<()> {
        let (bsrc, ldsrc, cols) = direct.unwrap_or((ir.ptrt().const_null(), ir.c(0), ir.c(0)));
        let lda = a_rows.unwrap_or(ir.c(0));
        let args = [
            mc.into(),
            nc.into(),
            kc.into(),
            ap.into(),
            bp.into(),
            c.into(),
            ldc.into(),
            accumulate.into(),
            epi.into(),
            ectx.into(),
            eb.into(),
            ei0.into(),
            ej0.into(),
            last.into(),
            bsrc.into(),
            ldsrc.into(),
            cols.into(),
            lda.into(),
        ];
        ir.call(self.macro_kernel, &args)?;
        Ok(())
    }
}

fn internal_function<'ctx>(
    module: &Module<'ctx>,
    target: &TargetMachine,
    isa: Isa,
    name: &str,
    params: &[inkwell::types::BasicMetadataTypeEnum<'ctx>],
) -> FunctionValue<'ctx> {
    let cx = module.get_context();
    let f = module.add_function(name, cx.void_type().fn_type(params, false), Some(Linkage::Internal));
    set_target_attrs(cx, f, target, isa);
    f
}

// ---- microkernel ---------------------------------------------------------------

/// A function of the microkernel's signature, `void (i64 kc, ptr a, ptr b,
/// ptr c, i64 ldc, i64 rows, i64 cols, i64 accumulate, i64 ldb, i64 lda)`,
/// which the macro kernel calls per tile (the microkernels and the tail
/// column kernel), named `name`; or the module's, when it has it already.
/// One copy per module, never inlined: the macro kernel calls it from
/// several places (two loop orders, packed or in-place A).
fn tile_kernel_function<'ctx>(
    module: &Module<'ctx>,
    target: &TargetMachine,
    isa: Isa,
    name: &str,
) -> std::result::Result<FunctionValue<'ctx>, FunctionValue<'ctx>> {
    if let Some(f) = module.get_function(name) {
        return Err(f);
    }
    let cx = module.get_context();
    let (i, p) = (cx.i64_type().into(), cx.ptr_type(Default::default()).into());
    let f = internal_function(module, target, isa, name, &[i, p, p, p, i, i, i, i, i, i]);
    f.add_attribute(inkwell::attributes::AttributeLoc::Function, enum_attr(cx, "noinline"));
    Ok(f)
}

/// The parameters of a [`tile_kernel_function`], in order: the depth, A, B
/// and C, C's row stride, the tile's live rows and columns, whether to add
/// to C, B's row stride, and A's row stride (0: A packed).
struct TileParams<'ctx> {
    kc: IntValue<'ctx>,
    a: PointerValue<'ctx>,
    b: PointerValue<'ctx>,
    c: PointerValue<'ctx>,
    ldc: IntValue<'ctx>,
    rows: IntValue<'ctx>,
    cols: IntValue<'ctx>,
    accumulate: IntValue<'ctx>,
    ldb: IntValue<'ctx>,
    lda: IntValue<'ctx>,
}

impl<'ctx> TileParams<'ctx> {
    fn of(ir: &Ir<'_, 'ctx>) -> TileParams<'ctx> {
        TileParams {
            kc: ir.param_int(0),
            a: ir.param_ptr(1),
            b: ir.param_ptr(2),
            c: ir.param_ptr(3),
            ldc: ir.param_int(4),
            rows: ir.param_int(5),
            cols: ir.param_int(6),
            accumulate: ir.param_int(7),
            ldb: ir.param_int(8),
            lda: ir.param_int(9),
        }
    }
}

/// The heights of tile the microkernel comes in: `MR`, then for an `MR` of
/// thirds (12 with AVX-512, 6 with AVX2) one and two thirds of it, for the
/// last row tile of a matrix whose rows are not a multiple of `MR`. A full
/// tile there would compute rows that are thrown away: of ResNet's and
/// SqueezeNet's products (64, 128, 256, ... or 16 rows of weights), every
/// one ends in 4 or 8 rows of 12, and `16 x 3025 x 64` computed 24 rows.
fn tile_heights(blk: &Blocking) -> Vec<u32> {
    let mr = blk.mr;
    if mr % 3 == 0 && mr >= 6 { vec![mr, 2 * mr / 3, mr / 3] } else { vec![mr] }
}

/// The microkernel computing `height <= MR` rows of a tile; with `a_rows`,
/// the variant that reads A in place: row `r` of the tile at `a + r * lda`
/// (rows past `mr` read the last row, whose results are not stored),
/// element `kk` of a row at `+ kk` (plain groups only). Packed A keeps its
/// `MR`-row micro-panels whatever the height.
fn ukernel_function<'ctx>(
    module: &Module<'ctx>,
    target: &TargetMachine,
    isa: Isa,
    blk: &Blocking,
    out: DType,
    a_rows: bool,
    (height, width): (u32, u32),
) -> R<FunctionValue<'ctx>> {
    // `width` vectors per row: `NV`, or fewer for a last column panel of
    // fewer live columns (B's panels stay `NR` wide).
    let (nv, lanes, nr) = (width, blk.lanes, width * blk.lanes);
    // The packed panel's row count (its stride per `k`) and the rows computed.
    let (panel_rows, mr) = (blk.mr, height);
    let name = format!(
        "smelt_gemm_ukernel_{}_{}_{}x{nr}{}{}{}",
        blk.ct.name(),
        out.name(),
        blk.mr,
        if blk.group > 1 { format!("_x{}", blk.group) } else { String::new() },
        if a_rows { "_rows" } else { "" },
        if height < blk.mr { format!("_h{height}") } else { String::new() }
    );
    let f = match tile_kernel_function(module, target, isa, &name) {
        Ok(f) => f,
        Err(existing) => return Ok(existing),
    };
    let ir = Ir::new(module, f);
    let ct = blk.ct;
    let ctt = ct.ty(ir.cx);
    let vt = ir.vec(ct, lanes);
    // B's rows are `ldb` apart: `NR` in a packed panel, the matrix's row
    // length when the macro kernel reads a panel in place (then unaligned).
    let TileParams { kc, a: ap, b: bp, c, ldc, rows: mrv, cols: nrv, accumulate: accf, ldb, lda } = TileParams::of(&ir);
    let vbytes = lanes * ct.bytes();
    let mut accs = Vec::new();
    for _ in 0..(mr * nv) {
        let a = ir.alloca(vt.into())?;
        ir.store(a, ir.zero(ct, lanes), vbytes)?;
        accs.push(a);
    }
    // Start fetching the C tile now; it is read only after the k loop. (Rows
    // past the matrix's edge are only hinted at, never accessed.)
    let row_bytes = nr * out.byte_size() as u32;
    let ldc_bytes = ir.mul(ldc, ir.c(out.byte_size() as i64))?;
    for r in 0..mr {
        let mut off = 0;
        while off < row_bytes {
            let at = ir.add(ir.mul(ir.c(r as i64), ldc_bytes)?, ir.c(off as i64))?;
            ir.prefetch(c, at)?;
            off += 64;
        }
    }
    let a_row_ptrs = if a_rows {
        let last = ir.sub(mrv, ir.c(1))?;
        (0..mr).map(|r| ir.gep(ctt, ap, ir.mul(ir.min(ir.c(r as i64), last)?, lda)?)).collect::<R<Vec<_>>>()?
    } else {
        Vec::new()
    };
    let step = |kk: IntValue<'ctx>| -> R<()> {
        let bbase = ir.mul(kk, ldb)?;
        let mut bv = Vec::new();
        for j in 0..nv {
            let ptr = ir.gep(ctt, bp, ir.add(bbase, ir.c((j * lanes) as i64))?)?;
            bv.push(ir.load(vt.into(), ptr, ct.bytes())?);
        }
        let abase = ir.mul(kk, ir.c(panel_rows as i64))?;
        for r in 0..mr {
            let ptr = match a_row_ptrs.get(r as usize) {
                Some(&row) => ir.gep(ctt, row, kk)?,
                None => ir.gep(ctt, ap, ir.add(abase, ir.c(r as i64))?)?,
            };
            let a = ir.load(ctt, ptr, ct.bytes())?;
            let s = ir.splat(a, lanes)?;
            for j in 0..nv {
                let slot = accs[(r * nv + j) as usize];
                let acc = ir.load(vt.into(), slot, vbytes)?;
                let v = ir.mul_add(ct, s, bv[j as usize], acc)?;
                ir.store(slot, v, vbytes)?;
            }
        }
        Ok(())
    };
    // Grouped: one step per group of k, `vdpbf16ps` (bf16 pairs into f32),
    // `vpdpwssd` (s16 pairs into i32) or `vpdpbusd` (u8 x s8 quads into i32)
    // on a broadcast A group and `NV` vectors of B groups. Without VNNI, s16
    // pairs are `vpmaddwd` (the pair sums, wrapping as `vpdpwssd` does) added
    // to the accumulator.
    let group = blk.group;
    let declare = |name: &str| -> R<FunctionValue<'ctx>> {
        let i = inkwell::intrinsics::Intrinsic::find(name)
            .ok_or_else(|| RoutineError::Llvm(format!("no intrinsic {name}")))?;
        i.get_declaration(module, &[]).ok_or_else(|| RoutineError::Llvm(format!("bad {name} declaration")))
    };
    // The instruction, and whether it returns the pair sums (to be added)
    // rather than taking and returning the accumulator.
    let dp = if group > 1 {
        let (name, sums) = match (group, blk.ct) {
            // 256-bit vectors: AVX-VNNI's (VEX) forms of the same instructions.
            (4, _) if isa.vector_bits == 256 => ("llvm.x86.avx512.vpdpbusd.256", false),
            (4, _) => ("llvm.x86.avx512.vpdpbusd.512", false),
            (_, Ct::I32) if !isa.vnni && isa.vector_bits == 256 => ("llvm.x86.avx2.pmadd.wd", true),
            (_, Ct::I32) if !isa.vnni => ("llvm.x86.avx512.pmaddw.d.512", true),
            (_, Ct::I32) if isa.vector_bits == 256 => ("llvm.x86.avx512.vpdpwssd.256", false),
            (_, Ct::I32) => ("llvm.x86.avx512.vpdpwssd.512", false),
            _ => ("llvm.x86.avx512bf16.dpbf16ps.512", false),
        };
        Some((declare(name)?, sums))
    } else {
        None
    };
    let pair_step = |p: IntValue<'ctx>| -> R<()> {
        let Some((dp, sums)) = dp else { return Ok(()) };
        let pairs_t = inkwell::types::BasicTypeEnum::try_from(dp.get_type().get_param_types()[usize::from(!sums)])
            .map_err(|_| RoutineError::Llvm("a pair instruction takes a non-basic type".into()))?;
        let i32t = ir.cx.i32_type();
        let et = if group == 2 { ir.cx.i16_type() } else { ir.cx.i8_type() };
        let bbase = ir.mul(p, ir.c((group * blk.nr()) as i64))?;
        let mut bv = Vec::new();
        for j in 0..nv {
            let ptr = ir.gep(et.into(), bp, ir.add(bbase, ir.c((group * j * lanes) as i64))?)?;
            let v = ir.load(et.vec_type(group * lanes).into(), ptr, (4 * lanes).min(64))?;
            bv.push(ir.b.build_bit_cast(v, pairs_t, "")?);
        }
        let abase = ir.mul(p, ir.c(panel_rows as i64))?;
        for r in 0..mr {
            let ptr = ir.gep(i32t.into(), ap, ir.add(abase, ir.c(r as i64))?)?;
            let a = ir.splat(ir.load(i32t.into(), ptr, 4)?, lanes)?;
            let a = ir.b.build_bit_cast(a, pairs_t, "")?;
            for j in 0..nv {
                let slot = accs[(r * nv + j) as usize];
                let acc = ir.load(vt.into(), slot, vbytes)?;
                let v = if sums {
                    let sum = ir
                        .call(dp, &[a.into(), bv[j as usize].into()])?
                        .ok_or_else(|| RoutineError::Llvm("vpmaddwd returns nothing".into()))?;
                    ir.b.build_int_add(acc.into_vector_value(), sum.into_vector_value(), "")?.into()
                } else {
                    ir.call(dp, &[acc.into(), a.into(), bv[j as usize].into()])?
                        .ok_or_else(|| RoutineError::Llvm("a pair instruction returns nothing".into()))?
                };
                ir.store(slot, v, vbytes)?;
            }
        }
        Ok(())
    };
    const UNROLL: i64 = 4;
    if group > 1 {
        let g = group as i64;
        let npairs = ir.div(ir.add(kc, ir.c(g - 1))?, ir.c(g))?;
        let pmain = ir.sub(npairs, ir.rem(npairs, ir.c(2))?)?;
        ir.for_range(ir.c(0), pmain, 2, |p0| {
            pair_step(p0)?;
            pair_step(ir.add(p0, ir.c(1))?)
        })?;
        ir.for_range(pmain, npairs, 1, &pair_step)?;
    } else {
        let ahead = B_PREFETCH_ROWS;
        let used_bytes = (nr * ct.bytes()) as i64;
        let bstride = ir.mul(ldb, ir.c(ct.bytes() as i64))?;
        // A read in place: the next row tile's rows, `MR` rows down, are
        // fetched while this tile computes, a line of each row once per
        // line of steps (behind a branch: unrolling to a line spills). A
        // row's segment, `KC` long, is too short a run for the hardware
        // prefetchers, and in a model the weights come from memory: a chain
        // of eight `512 -> 512` 3x3 layers over 7x7 ran 1.05-1.11x faster
        // on one thread (one such layer alone, weights cached: even).
        let line = 64 / ct.bytes() as i64;
        let next_tile_bytes = if a_rows { Some(ir.mul(lda, ir.c((panel_rows * ct.bytes()) as i64))?) } else { None };
        let kmain = ir.sub(kc, ir.rem(kc, ir.c(UNROLL))?)?;
        let prefetch_a = |k0: IntValue<'ctx>| -> R<()> {
            let Some(next) = next_tile_bytes else { return Ok(()) };
            let starts_line = ir.cmp(IntPredicate::EQ, ir.rem(k0, ir.c(line.max(UNROLL)))?, ir.c(0))?;
            ir.if_(starts_line, || {
                let at = ir.add(next, ir.mul(k0, ir.c(ct.bytes() as i64))?)?;
                for &row in &a_row_ptrs {
                    ir.prefetch_for(row, at, false)?;
                }
                Ok(())
            })
        };
        let steps = |prefetch: bool| -> R<()> {
            ir.for_range(ir.c(0), kmain, UNROLL, |k0| {
                prefetch_a(k0)?;
                for u in 0..UNROLL {
                    let kk = ir.add(k0, ir.c(u))?;
                    if prefetch {
                        let row = ir.mul(ir.add(kk, ir.c(ahead))?, bstride)?;
                        let mut off = 0;
                        while off < used_bytes {
                            ir.prefetch_for(bp, ir.add(row, ir.c(off))?, false)?;
                            off += 64;
                        }
                        ir.prefetch_for(bp, ir.add(row, ir.c(used_bytes - 1))?, false)?;
                    }
                    step(kk)?;
                }
                Ok(())
            })?;
            ir.for_range(kmain, kc, 1, &step)
        };
        // A panel read in place has its rows a matrix row apart, often
        // pages: no hardware prefetcher follows that stride.
        let in_place = ir.cmp(IntPredicate::NE, ldb, ir.c(blk.nr() as i64))?;
        ir.if_else(in_place, || steps(true), || steps(false))?;
    }

    // Stores: whole tiles straight from registers, tiles cut by the right edge
    // through a stack tile.
    let omem = ir.mem_ty(out, 0);
    let ovt = ir.mem_ty(out, lanes);
    let obytes = out.byte_size() as u32;
    let can_acc = crate::routine::mem_type(ir.cx, out) == ctt;
    let store_row = |r: u32, accumulate: bool| -> R<()> {
        let rowp = ir.gep(omem, c, ir.mul(ir.c(r as i64), ldc)?)?;
        for j in 0..nv {
            let ptr = ir.gep(omem, rowp, ir.c((j * lanes) as i64))?;
            let mut v = ir.load(vt.into(), accs[(r * nv + j) as usize], vbytes)?;
            if accumulate {
                let old = ir.load(ovt, ptr, obytes)?;
                v = ir.add_ct(ct, old, v)?;
            }
            ir.store(ptr, ir.ct_to(v, ct, out)?, obytes)?;
        }
        Ok(())
    };
    let rows = |accumulate: bool| -> R<()> {
        for r in 0..mr {
            if r == 0 {
                store_row(r, accumulate)?;
            } else {
                let live = ir.cmp(IntPredicate::SLT, ir.c(r as i64), mrv)?;
                ir.if_(live, || store_row(r, accumulate))?;
            }
        }
        Ok(())
    };
    let full_width = ir.cmp(IntPredicate::EQ, nrv, ir.c(nr as i64))?;
    let accumulate = ir.cmp(IntPredicate::NE, accf, ir.c(0))?;
    ir.if_else(
        full_width,
        || if can_acc { ir.if_else(accumulate, || rows(true), || rows(false)) } else { rows(false) },
        || {
            let tile = ir.alloca(ctt.array_type(mr * nr).into())?;
            for r in 0..mr {
                for j in 0..nv {
                    let v = ir.load(vt.into(), accs[(r * nv + j) as usize], vbytes)?;
                    let ptr = ir.gep(ctt, tile, ir.c((r * nr + j * lanes) as i64))?;
                    ir.store(ptr, v, ct.bytes())?;
                }
            }
            ir.for_range(ir.c(0), mrv, 1, |r| {
                ir.for_range(ir.c(0), nrv, 1, |j| {
                    let mut v =
                        ir.load(ctt, ir.gep(ctt, tile, ir.add(ir.mul(r, ir.c(nr as i64))?, j)?)?, ct.bytes())?;
                    let ptr = ir.gep(omem, c, ir.add(ir.mul(r, ldc)?, j)?)?;
                    if can_acc {
                        let old = ir.load(omem, ptr, obytes)?;
                        let sum = ir.add_ct(ct, old, v)?;
                        v = ir.b.build_select(accumulate, sum, v, "")?;
                    }
                    ir.store(ptr, ir.ct_to(v, ct, out)?, obytes)
                })
            })
        },
    )?;
    ir.ret()?;
    Ok(f)
}

/// Columns past one vector that a last column panel may hold and still be
/// computed by the one-vector microkernel and, per column, the
/// [`tail_column_function`], instead of a second vector of mostly dead
/// lanes: `n = 49` (7 x 7 pixels, 32 + 17 with AVX-512) cost two full
/// panels, a quarter of the lanes idle. On one thread of an Intel Xeon
/// (AVX-512) `512 x 49 x 2048` ran 1.05-1.10x faster with it; DenseNet-121
/// 1.06x on two. A last panel of at most this many columns over A read in
/// place takes the tail column kernel alone (`n = 49` with AVX2: 3 x 16 +
/// 1): one Zen 3 thread, weights from memory, `2048x49x512` 74.7 -> 83
/// GFLOP/s, `512x49x2048` 61.3 -> 69.2, `1000x97x512` 85 -> 90. (Over
/// packed A the tail kernel's one vector of rows per `k` is no cheaper.)
const TAIL_COLUMNS: i64 = 3;

/// `void (i64 kc, ptr a, ptr b, ptr c, i64 ldc, i64 rows, i64 cols, i64
/// accumulate, i64 ldb, i64 lda)`, the microkernel's signature, computing
/// one column of C (`cols` is ignored) for the rows of a tile: `c[r * ldc]
/// (+)= sum_k a[r, k] * b[k * ldb]`. With A packed (`lda == 0`, `MR` values
/// per `k`) the vectors run along the rows, one broadcast of B per `k`; with
/// A in place (row `r` at `a + r * lda`) along `k`, B's column gathered a
/// vector at a time and each row's sums added up at the end. Float
/// accumulators stored to C as they are (the caller checks).
fn tail_column_function<'ctx>(
    module: &Module<'ctx>,
    target: &TargetMachine,
    isa: Isa,
    blk: &Blocking,
    out: DType,
) -> R<FunctionValue<'ctx>> {
    let (ct, lanes, mr) = (blk.ct, blk.lanes, blk.mr);
    let name = format!("smelt_gemm_tail_column_{}_{}_{}", ct.name(), out.name(), mr);
    let f = match tile_kernel_function(module, target, isa, &name) {
        Ok(f) => f,
        Err(existing) => return Ok(existing),
    };
    let ir = Ir::new(module, f);
    let ctt = ct.ty(ir.cx);
    let vt: inkwell::types::BasicTypeEnum<'ctx> = ir.vec(ct, lanes).into();
    let (eb, vb) = (ct.bytes(), lanes * ct.bytes());
    let TileParams { kc, a: ap, b: bp, c, ldc, rows: mrv, accumulate: accf, ldb, lda, .. } = TileParams::of(&ir);
    // The column's sums, one per row of the tile, before they go to C.
    let sums = ir.alloca(ctt.array_type(mr.div_ceil(lanes) * lanes).into())?;
    let b_at = |k: IntValue<'ctx>| -> R<BasicValueEnum<'ctx>> { ir.load(ctt, ir.gep(ctt, bp, ir.mul(k, ldb)?)?, eb) };
    let packed = ir.cmp(IntPredicate::EQ, lda, ir.c(0))?;
    ir.if_else(
        packed,
        || {
            let parts = mr.div_ceil(lanes);
            let accs = (0..parts).map(|_| ir.alloca(vt)).collect::<R<Vec<_>>>()?;
            for &a in &accs {
                ir.store(a, ir.zero(ct, lanes), vb)?;
            }
            ir.for_range(ir.c(0), kc, 1, |k| {
                let bk = ir.splat(b_at(k)?, lanes)?;
                for (v, &acc) in accs.iter().enumerate() {
                    let first = v as u32 * lanes;
                    let at = ir.gep(ctt, ap, ir.add(ir.mul(k, ir.c(mr as i64))?, ir.c(first as i64))?)?;
                    let av = if first + lanes <= mr {
                        ir.load(vt, at, eb)?
                    } else {
                        let mask = ir.lanes_in_range(
                            ir.c(first as i64),
                            lanes,
                            0,
                            mr as i64,
                            ir.cx.bool_type().const_int(1, false),
                        )?;
                        ir.masked_load(vt, at, mask)?
                    };
                    let sum = ir.mul_add(ct, av, bk, ir.load(vt, acc, vb)?)?;
                    ir.store(acc, sum, vb)?;
                }
                Ok(())
            })?;
            for (v, &acc) in accs.iter().enumerate() {
                let at = ir.gep(ctt, sums, ir.c((v as u32 * lanes) as i64))?;
                ir.store(at, ir.load(vt, acc, vb)?, eb)?;
            }
            Ok(())
        },
        || {
            let last = ir.sub(mrv, ir.c(1))?;
            let rows =
                (0..mr as i64).map(|r| ir.gep(ctt, ap, ir.mul(ir.min(ir.c(r), last)?, lda)?)).collect::<R<Vec<_>>>()?;
            let accs = (0..mr).map(|_| ir.alloca(vt)).collect::<R<Vec<_>>>()?;
            for &a in &accs {
                ir.store(a, ir.zero(ct, lanes), vb)?;
            }
            // `lanes` steps from `k0`; past `kc` (the last, partial vector)
            // A's lanes are masked off and B's are zero, never read.
            let step = |k0: IntValue<'ctx>, partial: bool| -> R<()> {
                let live = ir.sub(kc, k0)?;
                let mut bv = ir.zero(ct, lanes).into_vector_value();
                for l in 0..lanes {
                    let k = ir.add(k0, ir.c(l as i64))?;
                    let x = if partial {
                        let inside = ir.cmp(IntPredicate::SLT, ir.c(l as i64), live)?;
                        let x = b_at(ir.select(inside, k, k0)?)?;
                        ir.b.build_select(inside, x, ir.zero(ct, 0), "")?
                    } else {
                        b_at(k)?
                    };
                    bv = ir.b.build_insert_element(bv, x, ir.cx.i32_type().const_int(l as u64, false), "")?;
                }
                // Lanes `k0 + l < kc`: `-lanes <= k0 - kc + l < 0`.
                let yes = ir.cx.bool_type().const_int(1, false);
                let mask = if partial {
                    Some(ir.lanes_in_range(ir.sub(k0, kc)?, lanes, -(lanes as i64), 0, yes)?)
                } else {
                    None
                };
                for (&row, &acc) in rows.iter().zip(&accs) {
                    let at = ir.gep_wrapping(ctt, row, k0)?;
                    let av = match mask {
                        Some(m) => ir.masked_load(vt, at, m)?,
                        None => ir.load(vt, at, eb)?,
                    };
                    let sum = ir.mul_add(ct, av, bv.into(), ir.load(vt, acc, vb)?)?;
                    ir.store(acc, sum, vb)?;
                }
                Ok(())
            };
            let kmain = ir.sub(kc, ir.rem(kc, ir.c(lanes as i64))?)?;
            ir.for_range(ir.c(0), kmain, lanes as i64, |k0| step(k0, false))?;
            ir.if_(ir.cmp(IntPredicate::SLT, kmain, kc)?, || step(kmain, true))?;
            // Each row's lanes added up pairwise, halving the vector.
            for (r, &acc) in accs.iter().enumerate() {
                let mut v = ir.load(vt, acc, vb)?;
                let mut n = lanes;
                while n > 1 {
                    let h = n / 2;
                    let lo: Vec<Option<u32>> = (0..h).map(Some).collect();
                    let hi: Vec<Option<u32>> = (h..n).map(Some).collect();
                    v = ir.add_ct(ct, ir.shuffle(v, v, &lo)?, ir.shuffle(v, v, &hi)?)?;
                    n = h;
                }
                let x = ir.b.build_extract_element(v.into_vector_value(), ir.cx.i32_type().const_zero(), "")?;
                ir.store(ir.gep(ctt, sums, ir.c(r as i64))?, x, eb)?;
            }
            Ok(())
        },
    )?;
    // C's column: rows past `rows` are not stored.
    ir.for_range(ir.c(0), mrv, 1, |r| {
        let mut v = ir.load(ctt, ir.gep(ctt, sums, r)?, eb)?;
        let at = ir.gep(ctt, c, ir.mul(r, ldc)?)?;
        let old = ir.load(ctt, at, eb)?;
        let sum = ir.add_ct(ct, old, v)?;
        v = ir.b.build_select(ir.cmp(IntPredicate::NE, accf, ir.c(0))?, sum, v, "")?;
        ir.store(at, v, eb)
    })?;
    ir.ret()?;
    Ok(f)
}

// ---- packing -------------------------------------------------------------------

/// `void (ptr src, i64 rs, i64 ks, i64 rows, i64 kc, ptr dst)`: packs `rows <= p`
/// rows (zero-padded to `p`) of depth `kc` into `dst[kk * p + r]`.
/// A packing routine `void (ptr src, i64 rs, i64 ks, i64 rows, i64 kc, ptr dst)`
/// named `name`, started: the function, a builder in it, its pointers
/// `[src, dst]` and integers `[rs, ks, rows, kc]`; or the function, when the
/// module already has it.
#[allow(clippy::type_complexity)]
fn pack_begin<'m, 'ctx>(
    module: &'m Module<'ctx>,
    target: &TargetMachine,
    isa: Isa,
    name: &str,
) -> std::result::Result<
    (FunctionValue<'ctx>, Ir<'m, 'ctx>, [PointerValue<'ctx>; 2], [IntValue<'ctx>; 4]),
    FunctionValue<'ctx>,
> {
    if let Some(f) = module.get_function(name) {
        return Err(f);
    }
    let cx = module.get_context();
    let (i, pt) = (cx.i64_type().into(), cx.ptr_type(Default::default()).into());
    let f = internal_function(module, target, isa, name, &[pt, i, i, i, i, pt]);
    let ir = Ir::new(module, f);
    let ptrs = [ir.param_ptr(0), ir.param_ptr(5)];
    let ints = [ir.param_int(1), ir.param_int(2), ir.param_int(3), ir.param_int(4)];
    Ok((f, ir, ptrs, ints))
}

fn pack_function<'ctx>(
    module: &Module<'ctx>,
    target: &TargetMachine,
    isa: Isa,
    blk: &Blocking,
    src: DType,
    p: u32,
) -> R<FunctionValue<'ctx>> {
    let ct = blk.ct;
    let name = pack_name(blk, src, p);
    let (f, ir, [sp, dst], [rs, ks, rows, kc]) = match pack_begin(module, target, isa, &name) {
        Ok(started) => started,
        Err(existing) => return Ok(existing),
    };
    let lanes = blk.lanes;
    let smem = ir.mem_ty(src, 0);
    let ctt = ct.ty(ir.cx);
    let sb = src.byte_size() as u32;
    let cb = ct.bytes();
    let pl = p as i64;

    // General: element by element, rows past `rows` read row 0 and store zero.
    let scalar = |from: IntValue<'ctx>| -> R<()> {
        ir.for_range(from, kc, 1, |kk| {
            for r in 0..p {
                let live = ir.cmp(IntPredicate::SLT, ir.c(r as i64), rows)?;
                let rr = ir.select(live, ir.c(r as i64), ir.c(0))?;
                let at = ir.add(ir.mul(rr, rs)?, ir.mul(kk, ks)?)?;
                let v = ir.to_ct(ir.load(smem, ir.gep(smem, sp, at)?, sb)?, src, ct)?;
                let v = ir.b.build_select(live, v, ir.zero(ct, 0), "")?;
                let d = ir.gep(ctt, dst, ir.add(ir.mul(kk, ir.c(pl))?, ir.c(r as i64))?)?;
                ir.store(d, v, cb)?;
            }
            Ok(())
        })
    };
    let full = ir.cmp(IntPredicate::EQ, rows, ir.c(pl))?;
    let k_unit = ir.cmp(IntPredicate::EQ, ks, ir.c(1))?;
    let r_unit = ir.cmp(IntPredicate::EQ, rs, ir.c(1))?;
    let transposing = ir.b.build_and(full, k_unit, "")?;
    let copying = ir.b.build_and(full, r_unit, "")?;
    ir.if_else(
        transposing,
        || {
            // `lanes` k values of `lanes` rows at a time, transposed in registers.
            let kmain = ir.sub(kc, ir.rem(kc, ir.c(lanes as i64))?)?;
            let svt = ir.mem_ty(src, lanes);
            ir.for_range(ir.c(0), kmain, lanes as i64, |kk| {
                for g in 0..p.div_ceil(lanes) {
                    let mut vs = Vec::new();
                    for r in 0..lanes {
                        let row = g * lanes + r;
                        if row < p {
                            let at = ir.add(ir.mul(ir.c(row as i64), rs)?, kk)?;
                            let v = ir.load(svt, ir.gep(smem, sp, at)?, sb)?;
                            vs.push(ir.to_ct(v, src, ct)?);
                        } else {
                            vs.push(ir.zero(ct, lanes));
                        }
                    }
                    let cols = transpose(&ir, vs, lanes)?;
                    let count = (p - g * lanes).min(lanes);
                    for (t, v) in cols.into_iter().enumerate() {
                        let v = if count == lanes {
                            v
                        } else {
                            let mask: Vec<Option<u32>> = (0..count).map(Some).collect();
                            ir.shuffle(v, v, &mask)?
                        };
                        let at = ir.add(ir.mul(ir.add(kk, ir.c(t as i64))?, ir.c(pl))?, ir.c((g * lanes) as i64))?;
                        ir.store(ir.gep(ctt, dst, at)?, v, cb)?;
                    }
                }
                Ok(())
            })?;
            scalar(kmain)
        },
        || {
            ir.if_else(
                copying,
                || {
                    // A row of `p` contiguous values per k.
                    ir.for_range(ir.c(0), kc, 1, |kk| {
                        let mut c0 = 0;
                        while c0 < p {
                            let n = (p - c0).min(lanes);
                            let at = ir.add(ir.mul(kk, ks)?, ir.c(c0 as i64))?;
                            let v = ir.load(ir.mem_ty(src, n), ir.gep(smem, sp, at)?, sb)?;
                            let v = ir.to_ct(v, src, ct)?;
                            let d = ir.add(ir.mul(kk, ir.c(pl))?, ir.c(c0 as i64))?;
                            ir.store(ir.gep(ctt, dst, d)?, v, cb)?;
                            c0 += n;
                        }
                        Ok(())
                    })
                },
                || scalar(ir.c(0)),
            )
        },
    )?;
    ir.ret()?;
    Ok(f)
}

/// Transposes `n` vectors of `n` lanes (`n` a power of two): `log2 n` rounds of
/// interleaving row `i` with row `i + n/2`.
pub(crate) fn transpose<'ctx>(
    ir: &Ir<'_, 'ctx>,
    mut v: Vec<BasicValueEnum<'ctx>>,
    n: u32,
) -> R<Vec<BasicValueEnum<'ctx>>> {
    if n == 1 {
        return Ok(v);
    }
    let h = n / 2;
    let lo: Vec<Option<u32>> = (0..n).map(|x| Some(if x % 2 == 0 { x / 2 } else { n + x / 2 })).collect();
    let hi: Vec<Option<u32>> = (0..n).map(|x| Some(if x % 2 == 0 { h + x / 2 } else { n + h + x / 2 })).collect();
    let mut s = 1;
    while s < n {
        let mut next = Vec::with_capacity(n as usize);
        for i in 0..h as usize {
            next.push(ir.shuffle(v[i], v[i + h as usize], &lo)?);
            next.push(ir.shuffle(v[i], v[i + h as usize], &hi)?);
        }
        v = next;
        s *= 2;
    }
    Ok(v)
}

// ---- macro kernel ----------------------------------------------------------------

fn macro_function<'ctx>(
    module: &Module<'ctx>,
    target: &TargetMachine,
    isa: Isa,
    blk: &Blocking,
    out: DType,
    kernels: &[((u32, u32), FunctionValue<'ctx>, Option<FunctionValue<'ctx>>)],
    tail: Option<FunctionValue<'ctx>>,
) -> R<FunctionValue<'ctx>> {
    let (mr, nr) = (blk.mr as i64, blk.nr() as i64);
    let name = macro_name(blk, out);
    if let Some(f) = module.get_function(&name) {
        return Ok(f);
    }
    let cx = module.get_context();
    let (i, p) = (cx.i64_type().into(), cx.ptr_type(Default::default()).into());
    let f = internal_function(module, target, isa, &name, &[i, i, i, p, p, p, i, i, p, p, i, i, i, i, p, i, i, i]);
    let ir = Ir::new(module, f);
    // Panels `j0` with `j0 + NR <= direct` are read in place from `bsrc`
    // (rows `ldsrc` apart) instead of from the packed block.
    let (bsrc, ldsrc, direct) = (ir.param_ptr(14), ir.param_int(15), ir.param_int(16));
    // A in place (rows `lda` apart) when `lda` is not 0, else packed.
    let lda = ir.param_int(17);
    let a_packed = ir.cmp(IntPredicate::EQ, lda, ir.c(0))?;
    let (mc, nc, kc, ap, bp, c, ldc, accf) = (
        ir.param_int(0),
        ir.param_int(1),
        ir.param_int(2),
        ir.param_ptr(3),
        ir.param_ptr(4),
        ir.param_ptr(5),
        ir.param_int(6),
        ir.param_int(7),
    );
    let (epi, ectx, eb, ei0, ej0, last) =
        (ir.param_ptr(8), ir.param_ptr(9), ir.param_int(10), ir.param_int(11), ir.param_int(12), ir.param_int(13));
    let pt = packed_type(&ir, blk);
    let kp = packed_depth(&ir, blk, kc)?;
    let omem = ir.mem_ty(out, 0);
    let is_last = ir.cmp(IntPredicate::NE, last, ir.c(0))?;
    // The microkernel on the tile at rows `r0`, columns `j0`.
    let tile = |r0: IntValue<'ctx>, j0: IntValue<'ctx>| -> R<()> {
        let rows = ir.min(ir.c(mr), ir.sub(mc, r0)?)?;
        let a = ir.gep(pt, ap, ir.mul(r0, ir.select(a_packed, kp, lda)?)?)?;
        let all_cols = ir.min(ir.c(nr), ir.sub(nc, j0)?)?;
        let lanes = blk.lanes as i64;
        // A few columns past one vector: the one-vector kernel, then the
        // tail column kernel per column left.
        let split = match tail {
            Some(_) => ir.b.build_and(
                ir.cmp(IntPredicate::SGT, all_cols, ir.c(lanes))?,
                ir.cmp(IntPredicate::SLE, all_cols, ir.c(lanes + TAIL_COLUMNS))?,
                "",
            )?,
            None => ir.cx.bool_type().const_zero(),
        };
        let cols = ir.select(split, ir.c(lanes), all_cols)?;
        let packed = ir.gep(pt, bp, ir.mul(j0, kp)?)?;
        let in_place = ir.cmp(IntPredicate::SLE, ir.add(j0, ir.c(nr))?, direct)?;
        let b = ir.b.build_select(in_place, ir.gep(pt, bsrc, j0)?, packed, "")?.into_pointer_value();
        let ldb = ir.select(in_place, ldsrc, ir.c(nr))?;
        let cp = ir.gep(omem, ir.gep(omem, c, ir.mul(r0, ldc)?)?, j0)?;
        let args = [
            kc.into(),
            a.into(),
            b.into(),
            cp.into(),
            ldc.into(),
            rows.into(),
            cols.into(),
            accf.into(),
            ldb.into(),
            lda.into(),
        ];
        // The lowest tile that holds the rows left, called through a pointer:
        // direct calls behind `rows <= h` tests would let LLVM narrow the
        // full tile's row count and rebuild its row pointers as one chain
        // whose loads, hoisted four steps at a time, spill (0.6x).
        // Likewise the narrowest width that holds the columns left.
        let ptr = |f: FunctionValue<'ctx>| f.as_global_value().as_pointer_value();
        let pick = |fits: IntValue<'ctx>,
                    a: (PointerValue<'ctx>, PointerValue<'ctx>),
                    b: (PointerValue<'ctx>, PointerValue<'ctx>)|
         -> R<(PointerValue<'ctx>, PointerValue<'ctx>)> {
            let one = |x: PointerValue<'ctx>, y: PointerValue<'ctx>| -> R<PointerValue<'ctx>> {
                Ok(ir.b.build_select(fits, x, y, "")?.into_pointer_value())
            };
            Ok((one(a.0, b.0)?, one(a.1, b.1)?))
        };
        let mut chosen: Option<(PointerValue<'ctx>, PointerValue<'ctx>)> = None;
        let mut widths: Vec<u32> = kernels.iter().map(|k| k.0.1).collect();
        widths.dedup();
        for width in widths {
            let mut by_height: Option<(PointerValue<'ctx>, PointerValue<'ctx>)> = None;
            for &((height, _), packed, in_place) in kernels.iter().filter(|k| k.0.1 == width) {
                let here = (ptr(packed), ptr(in_place.unwrap_or(packed)));
                by_height = Some(match by_height {
                    None => here,
                    Some(prev) => pick(ir.cmp(IntPredicate::SLE, rows, ir.c(height as i64))?, here, prev)?,
                });
            }
            let Some(here) = by_height else { continue };
            chosen = Some(match chosen {
                None => here,
                Some(prev) => pick(ir.cmp(IntPredicate::SLE, cols, ir.c((width * blk.lanes) as i64))?, here, prev)?,
            });
        }
        let (packed, in_place) = chosen.ok_or_else(|| RoutineError::Llvm("no microkernel".into()))?;
        let kernel = ir.b.build_select(a_packed, packed, in_place, "")?.into_pointer_value();
        let ty = kernels[0].1.get_type();
        // A last panel of at most `TAIL_COLUMNS` columns over A in place:
        // the tail column kernel alone, its vectors along `k` all live,
        // where the one-vector microkernel would compute a vector of
        // mostly dead lanes ([`TAIL_COLUMNS`]).
        let only_tail = match tail {
            Some(_) => ir.b.build_and(
                ir.b.build_not(a_packed, "")?,
                ir.cmp(IntPredicate::SLE, all_cols, ir.c(TAIL_COLUMNS))?,
                "",
            )?,
            None => ir.cx.bool_type().const_zero(),
        };
        ir.if_(ir.b.build_not(only_tail, "")?, || {
            ir.b.build_indirect_call(ty, kernel, &args, "")?;
            Ok(())
        })?;
        if let Some(tail) = tail {
            let first = ir.select(only_tail, ir.c(0), ir.c(lanes))?;
            ir.if_(ir.b.build_or(split, only_tail, "")?, || {
                ir.for_range(first, all_cols, 1, |j| {
                    let mut args = args;
                    args[2] = ir.gep(pt, b, j)?.into();
                    args[3] = ir.gep(omem, cp, j)?.into();
                    ir.call(tail, &args)?;
                    Ok(())
                })
            })?;
        }
        Ok(())
    };
    let strip_done = |r0: IntValue<'ctx>| -> R<()> {
        ir.if_(is_last, || {
            let rows = ir.min(ir.c(mr), ir.sub(mc, r0)?)?;
            let i0 = ir.add(ei0, r0)?;
            call_epilogue(&ir, epi, ectx, [eb, i0, ir.add(i0, rows)?, ej0, ir.add(ej0, nc)?])
        })
    };
    // B read in place (few rows, see `reads_b_in_place`): panel by panel, so
    // each unpacked panel comes from memory once and serves every row tile
    // from L1. Else row tile by row tile: the A micro-panel stays in L1 and
    // the packed B block streams from L2.
    let by_panel = ir.cmp(IntPredicate::SGT, direct, ir.c(0))?;
    ir.if_else(
        by_panel,
        || {
            ir.for_range(ir.c(0), nc, nr, |j0| ir.for_range(ir.c(0), mc, mr, |r0| tile(r0, j0)))?;
            ir.for_range(ir.c(0), mc, mr, strip_done)
        },
        || {
            ir.for_range(ir.c(0), mc, mr, |r0| {
                ir.for_range(ir.c(0), nc, nr, |j0| tile(r0, j0))?;
                strip_done(r0)
            })
        },
    )?;
    ir.ret()?;
    Ok(f)
}

/// Whether this product may read B's full panels in place, unpacked: when
/// A is at most [`IN_PLACE_ROW_BLOCKS`] row blocks (decided at run time),
/// each B panel is used by that many macro-kernel calls, and packing costs
/// a pass that writes all of B and a barrier. On a Zen 2 EPYC, reading in
/// place ran `16x3025x128` 1.21x and `8x3025x64` 1.21x faster than packing
/// (up to one row block, with A packed), then, with A read in place too,
/// `128x3136x256` 1.32x, `96x784x192` 1.30x (two blocks) and `256x3136x256`
/// 1.12x, `288x1000x200` 1.15x, `256x784x512` even (four); not for rows a
/// multiple of [`IN_PLACE_ALIASED_STRIDE`] apart, nor for many row tiles
/// over rows pages apart on a large L2 ([`IN_PLACE_PAGED_ROW_TILES`]). B
/// must be stored along its columns in the accumulator type.
fn reads_b_in_place(spec: &GemmSpec, blk: &Blocking, cx: inkwell::context::ContextRef<'_>) -> bool {
    blk.group == 1 && !spec.rhs_transposed && crate::routine::mem_type(cx, spec.rhs) == blk.ct.ty(cx)
}

/// The element type of packed panels: the accumulator type, or the 16-bit
/// (pairs) or 8-bit (quads) bits of grouped operands.
pub(crate) fn packed_type<'ctx>(ir: &Ir<'_, 'ctx>, blk: &Blocking) -> inkwell::types::BasicTypeEnum<'ctx> {
    match blk.group {
        2 => ir.cx.i16_type().into(),
        4 => ir.cx.i8_type().into(),
        _ => blk.ct.ty(ir.cx),
    }
}

/// The packed depth of a block of depth `kc`: `kc`, rounded up to whole
/// groups when grouped (the padding is zeros).
pub(crate) fn packed_depth<'ctx>(ir: &Ir<'_, 'ctx>, blk: &Blocking, kc: IntValue<'ctx>) -> R<IntValue<'ctx>> {
    let g = blk.group as i64;
    if g > 1 { ir.mul(ir.div(ir.add(kc, ir.c(g - 1))?, ir.c(g))?, ir.c(g)) } else { Ok(kc) }
}

/// `void (ptr src, i64 rs, i64 ks, i64 rows, i64 kc, ptr dst)` for 16-bit
/// pairs: packs `p` rows (of which `rows` exist) of `src[r*rs + kk*ks]` as
/// `dst[(kk / 2) * p + r]` pairs `(kk, kk + 1)`, zeros past `rows` and `kc`.
/// bf16 and s16 are copied as they are; s8 and u8 are widened to s16.
fn pack_pairs_function<'ctx>(
    module: &Module<'ctx>,
    target: &TargetMachine,
    isa: Isa,
    p: u32,
    src: DType,
) -> R<FunctionValue<'ctx>> {
    let name = grouped_pack_name(src, 2, p);
    let (f, ir, [sp, dst], [rs, ks, rows, kc]) = match pack_begin(module, target, isa, &name) {
        Ok(started) => started,
        Err(existing) => return Ok(existing),
    };
    let (i16t, i32t) = (ir.cx.i16_type(), ir.cx.i32_type());
    let narrow = src.byte_size() == 1;
    let st = if narrow { ir.cx.i8_type() } else { i16t };
    // `n` source elements from `at` as 16-bit values (a scalar for n = 1).
    let load16 = |at: IntValue<'ctx>, n: u32| -> R<BasicValueEnum<'ctx>> {
        let ptr = ir.gep(st.into(), sp, at)?;
        let ty: inkwell::types::BasicTypeEnum<'ctx> = if n == 1 { st.into() } else { st.vec_type(n).into() };
        let v = ir.load(ty, ptr, src.byte_size() as u32)?;
        if !narrow {
            return Ok(v);
        }
        let wide: inkwell::types::BasicTypeEnum<'ctx> = if n == 1 { i16t.into() } else { i16t.vec_type(n).into() };
        let signed = src != DType::U8;
        Ok(match v {
            BasicValueEnum::IntValue(x) => {
                let w = wide.into_int_type();
                if signed { ir.b.build_int_s_extend(x, w, "")? } else { ir.b.build_int_z_extend(x, w, "")? }.into()
            }
            BasicValueEnum::VectorValue(x) => {
                let w = wide.into_vector_type();
                if signed { ir.b.build_int_s_extend(x, w, "")? } else { ir.b.build_int_z_extend(x, w, "")? }.into()
            }
            other => other,
        })
    };
    let pl = p as i64;
    let npairs = ir.div(ir.add(kc, ir.c(1))?, ir.c(2))?;
    let full = ir.cmp(IntPredicate::EQ, rows, ir.c(pl))?;
    let even = ir.cmp(IntPredicate::EQ, ir.rem(kc, ir.c(2))?, ir.c(0))?;
    let k_unit = ir.cmp(IntPredicate::EQ, ks, ir.c(1))?;
    let r_unit = ir.cmp(IntPredicate::EQ, rs, ir.c(1))?;
    let whole = ir.b.build_and(full, even, "")?;
    let scalar = || pack_groups_scalar(&ir, dst, [rs, ks, rows, kc], (p, 2), i16t, &|at| load16(at, 1));
    // Rows along k (A as stored): each pair is two neighbouring source elements.
    let words = || -> R<()> {
        ir.for_range(ir.c(0), npairs, 1, |q| {
            for r in 0..p {
                let at = ir.add(ir.mul(ir.c(r as i64), rs)?, ir.mul(q, ir.c(2))?)?;
                let v = if narrow {
                    ir.b.build_bit_cast(load16(at, 2)?, i32t, "")?
                } else {
                    ir.load(i32t.into(), ir.gep(i16t.into(), sp, at)?, 2)?
                };
                ir.store(ir.gep(i32t.into(), dst, ir.add(ir.mul(q, ir.c(pl))?, ir.c(r as i64))?)?, v, 4)?;
            }
            Ok(())
        })
    };
    // Rows contiguous across (B as stored): two rows of `p` values interleaved.
    let interleave = || -> R<()> {
        let mask: Vec<Option<u32>> = (0..p).flat_map(|r| [Some(r), Some(p + r)]).collect();
        ir.for_range(ir.c(0), npairs, 1, |q| {
            let k0 = ir.mul(q, ir.c(2))?;
            let lo = load16(ir.mul(k0, ks)?, p)?;
            let hi = load16(ir.mul(ir.add(k0, ir.c(1))?, ks)?, p)?;
            let v = ir.shuffle(lo, hi, &mask)?;
            ir.store(ir.gep(i16t.into(), dst, ir.mul(q, ir.c(2 * pl))?)?, v, 2)
        })
    };
    ir.if_else(ir.b.build_and(whole, k_unit, "")?, words, || {
        ir.if_else(ir.b.build_and(whole, r_unit, "")?, interleave, scalar)
    })?;
    ir.ret()?;
    Ok(f)
}

/// The element-by-element packing of `p` rows into groups of `g` along `k`
/// (pairs and quads share it): `load(at)` reads source element `at` as an
/// `elem`; rows past `rows` and depth past `kc` are zero.
fn pack_groups_scalar<'ctx>(
    ir: &Ir<'_, 'ctx>,
    dst: PointerValue<'ctx>,
    [rs, ks, rows, kc]: [IntValue<'ctx>; 4],
    (p, g): (u32, i64),
    elem: inkwell::types::IntType<'ctx>,
    load: &dyn Fn(IntValue<'ctx>) -> R<BasicValueEnum<'ctx>>,
) -> R<()> {
    let groups = ir.div(ir.add(kc, ir.c(g - 1))?, ir.c(g))?;
    ir.for_range(ir.c(0), groups, 1, |q| {
        for r in 0..p as i64 {
            for t in 0..g {
                let kk = ir.add(ir.mul(q, ir.c(g))?, ir.c(t))?;
                let live =
                    ir.b.build_and(ir.cmp(IntPredicate::SLT, ir.c(r), rows)?, ir.cmp(IntPredicate::SLT, kk, kc)?, "")?;
                let at = ir
                    .add(ir.mul(ir.select(live, ir.c(r), ir.c(0))?, rs)?, ir.mul(ir.select(live, kk, ir.c(0))?, ks)?)?;
                let v = ir.b.build_select(live, load(at)?, elem.const_zero().into(), "")?;
                let d = ir.add(ir.mul(ir.add(ir.mul(q, ir.c(p as i64))?, ir.c(r))?, ir.c(g))?, ir.c(t))?;
                ir.store(ir.gep(elem.into(), dst, d)?, v, elem.get_bit_width() / 8)?;
            }
        }
        Ok(())
    })
}

/// `void (ptr src, i64 rs, i64 ks, i64 rows, i64 kc, ptr dst)` for 8-bit
/// quads (`vpdpbusd`): packs `p` rows (of which `rows` exist) of
/// `src[r*rs + kk*ks]`, u8 or s8 bytes as they are, as
/// `dst[((kk / 4) * p + r) * 4 + kk % 4]`, zeros past `rows` and `kc`.
fn pack_quads_function<'ctx>(
    module: &Module<'ctx>,
    target: &TargetMachine,
    isa: Isa,
    p: u32,
    src: DType,
) -> R<FunctionValue<'ctx>> {
    let name = grouped_pack_name(src, 4, p);
    let (f, ir, [sp, dst], [rs, ks, rows, kc]) = match pack_begin(module, target, isa, &name) {
        Ok(started) => started,
        Err(existing) => return Ok(existing),
    };
    let (i8t, i32t) = (ir.cx.i8_type(), ir.cx.i32_type());
    let pl = p as i64;
    let nquads = ir.div(ir.add(kc, ir.c(3))?, ir.c(4))?;
    let full = ir.cmp(IntPredicate::EQ, rows, ir.c(pl))?;
    let whole = ir.cmp(IntPredicate::EQ, ir.rem(kc, ir.c(4))?, ir.c(0))?;
    let whole = ir.b.build_and(full, whole, "")?;
    let k_unit = ir.cmp(IntPredicate::EQ, ks, ir.c(1))?;
    let r_unit = ir.cmp(IntPredicate::EQ, rs, ir.c(1))?;
    let scalar = || {
        pack_groups_scalar(&ir, dst, [rs, ks, rows, kc], (p, 4), i8t, &|at| {
            ir.load(i8t.into(), ir.gep(i8t.into(), sp, at)?, 1)
        })
    };
    // Rows along k (A as stored): each quad is four neighbouring bytes.
    let words = || -> R<()> {
        ir.for_range(ir.c(0), nquads, 1, |q| {
            for r in 0..p {
                let at = ir.add(ir.mul(ir.c(r as i64), rs)?, ir.mul(q, ir.c(4))?)?;
                let v = ir.load(i32t.into(), ir.gep(i8t.into(), sp, at)?, 1)?;
                ir.store(ir.gep(i32t.into(), dst, ir.add(ir.mul(q, ir.c(pl))?, ir.c(r as i64))?)?, v, 4)?;
            }
            Ok(())
        })
    };
    // Rows contiguous across (B as stored): four rows of `p` bytes interleaved.
    let interleave = || -> R<()> {
        let halves: Vec<Option<u32>> = (0..2 * p).map(Some).collect();
        let mask: Vec<Option<u32>> = (0..p)
            .flat_map(|r| (0..4u32).map(move |t| Some(if t < 2 { t * p + r } else { 2 * p + (t - 2) * p + r })))
            .collect();
        ir.for_range(ir.c(0), nquads, 1, |q| {
            let k0 = ir.mul(q, ir.c(4))?;
            let row = |t: i64| -> R<BasicValueEnum<'ctx>> {
                let at = ir.mul(ir.add(k0, ir.c(t))?, ks)?;
                ir.load(i8t.vec_type(p).into(), ir.gep(i8t.into(), sp, at)?, 1)
            };
            let lo = ir.shuffle(row(0)?, row(1)?, &halves)?;
            let hi = ir.shuffle(row(2)?, row(3)?, &halves)?;
            let v = ir.shuffle(lo, hi, &mask)?;
            ir.store(ir.gep(i8t.into(), dst, ir.mul(q, ir.c(4 * pl))?)?, v, 4)
        })
    };
    ir.if_else(ir.b.build_and(whole, k_unit, "")?, words, || {
        ir.if_else(ir.b.build_and(whole, r_unit, "")?, interleave, scalar)
    })?;
    ir.ret()?;
    Ok(f)
}

// ---- driver ----------------------------------------------------------------------

// Slots of the context the driver hands to its tasks. The first eight, up to
// `S_ECTX`, are the matrix-vector tasks' too (see [`set_operands`]).
const S_A: u32 = 0;
const S_B: u32 = 1;
const S_C: u32 = 2;
const S_M: u32 = 3;
const S_N: u32 = 4;
const S_K: u32 = 5;
const S_EPI: u32 = 6;
const S_ECTX: u32 = 7;
const S_BPACK: u32 = 8;
const S_B0: u32 = 9;
const S_NPAD: u32 = 10;
const S_NKB: u32 = 11;
const S_KCB: u32 = 12;
const S_NCB: u32 = 13;
const S_NJP: u32 = 14;
const S_TM: u32 = 15;
const S_TN: u32 = 16;
const S_MT: u32 = 17;
const S_NT: u32 = 18;
/// First column of the current slab, its width, and packed B's per-batch stride.
const S_J0: u32 = 19;
const S_SW: u32 = 20;
const S_PBS: u32 = 21;
/// Nonzero when B's full panels are read in place (see [`reads_b_in_place`]).
const S_DIRECT: u32 = 22;
const SLOTS: u32 = 23;

/// Stores the operands, their sizes and the epilogue in slots `S_A` to `S_ECTX`.
fn set_operands<'ctx>(
    ir: &Ir<'_, 'ctx>,
    s: &Slots<'ctx>,
    [a, b, c, epi, ectx]: [PointerValue<'ctx>; 5],
    [m, n, k]: [IntValue<'ctx>; 3],
) -> R<()> {
    s.set_ptr(ir, S_A, a)?;
    s.set_ptr(ir, S_B, b)?;
    s.set_ptr(ir, S_C, c)?;
    s.set(ir, S_M, m)?;
    s.set(ir, S_N, n)?;
    s.set(ir, S_K, k)?;
    s.set_ptr(ir, S_EPI, epi)?;
    s.set_ptr(ir, S_ECTX, ectx)
}

/// The C signature every GEMM function has (see [`gemm_function`]).
pub(crate) fn gemm_type(cx: inkwell::context::ContextRef<'_>) -> inkwell::types::FunctionType<'_> {
    let (i, p) = (cx.i64_type().into(), cx.ptr_type(Default::default()).into());
    cx.void_type().fn_type(&[p, p, p, i, i, i, i, p, p], false)
}

fn build_driver<'ctx>(
    module: &Module<'ctx>,
    target: &TargetMachine,
    isa: Isa,
    spec: &GemmSpec,
    name: &str,
    parts: &Parts<'ctx>,
) -> R<FunctionValue<'ctx>> {
    let cx = module.get_context();
    let blk = parts.blk;
    let ct = blk.ct;
    let nr = blk.nr() as i64;
    let f = module.add_function(name, gemm_type(cx), Some(Linkage::External));
    set_target_attrs(cx, f, target, isa);
    let tasks = Tasks { module, target, isa, spec, name, ct };
    let pack_task = pack_task_function(&tasks, parts)?;
    let compute_task = compute_task_function(&tasks, parts)?;
    for (idx, nm) in ["a", "b", "c", "batch", "m", "n", "k", "epilogue", "epilogue_ctx"].iter().enumerate() {
        if let Some(v) = f.get_nth_param(idx as u32) {
            v.set_name(nm);
        }
    }
    for idx in [0u32, 1, 2] {
        f.add_attribute(inkwell::attributes::AttributeLoc::Param(idx), enum_attr(cx, "noalias"));
    }

    let ir = Ir::new(module, f);
    let (a, b, c) = (ir.param_ptr(0), ir.param_ptr(1), ir.param_ptr(2));
    let (batch, m, n, k) = (ir.param_int(3), ir.param_int(4), ir.param_int(5), ir.param_int(6));
    let (epi, ectx) = (ir.param_ptr(7), ir.param_ptr(8));
    let zero = ir.c(0);
    let empty = ir.b.build_or(
        ir.cmp(IntPredicate::SLE, batch, zero)?,
        ir.b.build_or(ir.cmp(IntPredicate::SLE, m, zero)?, ir.cmp(IntPredicate::SLE, n, zero)?, "")?,
        "",
    )?;
    ir.if_(empty, || {
        ir.ret()?;
        dead_block(&ir)
    })?;
    let omem = ir.mem_ty(spec.out, 0);
    let no_depth = ir.cmp(IntPredicate::SLE, k, zero)?;
    ir.if_(no_depth, || {
        // An empty sum: zeros, one epilogue block per batch element.
        let mn = ir.mul(m, n)?;
        ir.for_range(zero, batch, 1, |bi| {
            let base = ir.mul(bi, mn)?;
            ir.for_range(zero, mn, 1, |e| {
                let z = ir.ct_to(ir.zero(ct, 0), ct, spec.out)?;
                ir.store(ir.gep(omem, c, ir.add(base, e)?)?, z, spec.out.byte_size() as u32)
            })?;
            call_epilogue(&ir, epi, ectx, [bi, zero, m, zero, n])
        })?;
        ir.ret()?;
        dead_block(&ir)
    })?;

    gemv::emit(&tasks, &ir, [a, b, c, epi, ectx], [batch, m, n, k])?;
    let npad = ir.mul(ir.ceil_div(n, ir.c(nr))?, ir.c(nr))?;
    let full_depth = crate::routine::mem_type(ir.cx, spec.out) != ct.ty(ir.cx);
    let pb_bytes = blk.packed_bytes();
    let (nkb, kcb, ncb) = if full_depth {
        // Results rounded once: one block over all of k, B blocks of half the L2.
        let cols = ir.div(ir.c(b_block_bytes(isa) / pb_bytes), k)?;
        let ncb = ir.clamp(ir.mul(ir.div(cols, ir.c(nr))?, ir.c(nr))?, ir.c(nr), ir.c(blk.nc))?;
        (ir.c(1), k, ncb)
    } else if blk.group > 1 {
        // Blocks of whole groups, so that a group never straddles two.
        let nkb = ir.ceil_div(k, ir.c(blk.kc))?;
        let kcb = packed_depth(&ir, &blk, ir.ceil_div(k, nkb)?)?;
        (ir.ceil_div(k, kcb)?, kcb, ir.c(blk.nc))
    } else {
        let nkb = ir.ceil_div(k, ir.c(blk.kc))?;
        (nkb, ir.ceil_div(k, nkb)?, ir.c(blk.nc))
    };
    // Packed B stays within the budget: whole matrices for as many batch elements
    // as fit, else one matrix in slabs of columns.
    let budget = ir.c(PACK_BUDGET_BYTES / pb_bytes);
    let kp = packed_depth(&ir, &blk, k)?;
    let slab = ir.clamp(ir.mul(ir.div(ir.div(budget, kp)?, ir.c(nr))?, ir.c(nr))?, ir.c(nr), npad)?;
    let nslabs = ir.ceil_div(npad, slab)?;
    let per_batch = ir.mul(kp, slab)?;
    let whole = ir.cmp(IntPredicate::EQ, nslabs, ir.c(1))?;
    let bgroup = ir.select(whole, ir.clamp(ir.div(budget, per_batch)?, ir.c(1), batch)?, ir.c(1))?;
    let bpack = ir.alloc(ir.mul(ir.mul(bgroup, per_batch)?, ir.c(pb_bytes))?)?;
    let s = Slots::alloc(&ir, SLOTS)?;
    set_operands(&ir, &s, [a, b, c, epi, ectx], [m, n, k])?;
    s.set_ptr(&ir, S_BPACK, bpack)?;
    s.set(&ir, S_PBS, per_batch)?;
    s.set(&ir, S_NKB, nkb)?;
    s.set(&ir, S_KCB, kcb)?;
    s.set(&ir, S_NCB, ncb)?;
    let direct = if reads_b_in_place(spec, &blk, ir.cx) {
        // Past one row tile a panel is reused from cache, which rows a
        // multiple of `IN_PLACE_ALIASED_STRIDE` apart defeat.
        let few = ir.cmp(IntPredicate::SLE, m, ir.c(IN_PLACE_ROW_BLOCKS * blk.mc))?;
        let stride = ir.mul(n, ir.c(blk.ct.bytes() as i64))?;
        let spread = ir.cmp(IntPredicate::NE, ir.rem(stride, ir.c(IN_PLACE_ALIASED_STRIDE))?, ir.c(0))?;
        let once = ir.cmp(IntPredicate::SLE, m, ir.c(blk.mr as i64))?;
        let mut ok = ir.b.build_and(few, ir.b.build_or(spread, once, "")?, "")?;
        if isa.caches.large_l2() {
            let near = ir.cmp(IntPredicate::SLT, stride, ir.c(4096))?;
            let rows = ir.c(IN_PLACE_PAGED_ROW_TILES * blk.mr as i64);
            let short = ir.cmp(IntPredicate::SLE, m, rows)?;
            ok = ir.b.build_and(ok, ir.b.build_or(near, short, "")?, "")?;
        }
        ir.b.build_int_z_extend(ok, ir.i64t(), "")?
    } else {
        ir.c(0)
    };
    s.set(&ir, S_DIRECT, direct)?;
    let total = ir.mul(ir.mul(ir.mul(batch, m)?, n)?, k)?;
    let inline = ir.cmp(IntPredicate::SLT, total, ir.c(INLINE_WORK))?;
    let (mr, mtiles) = (ir.c(blk.mr as i64), ir.ceil_div(m, ir.c(blk.mr as i64))?);
    let max_tasks = ir.mul(ir.max(ir.thread_count()?, ir.c(1))?, ir.c(TASKS_PER_THREAD))?;
    let rounds = ir.ceil_div(batch, bgroup)?;
    ir.for_range(zero, rounds, 1, |round| {
        let b0 = ir.mul(round, bgroup)?;
        let nb = ir.min(bgroup, ir.sub(batch, b0)?)?;
        s.set(&ir, S_B0, b0)?;
        ir.for_range(zero, nslabs, 1, |sl| {
            let j0 = ir.mul(sl, slab)?;
            let sw = ir.min(slab, ir.sub(n, j0)?)?;
            let ntiles = ir.ceil_div(sw, ir.c(nr))?;
            s.set(&ir, S_J0, j0)?;
            s.set(&ir, S_SW, sw)?;
            s.set(&ir, S_NPAD, ir.mul(ntiles, ir.c(nr))?)?;
            s.set(&ir, S_NJP, ntiles)?;
            // Task grid: enough tasks for the work, rows split before columns.
            let work = ir.mul(ir.mul(ir.mul(nb, m)?, sw)?, k)?;
            let tasks =
                ir.clamp(ir.b.build_right_shift(work, ir.c(TASK_WORK_SHIFT as i64), false, "")?, ir.c(1), max_tasks)?;
            let per_matrix = ir.ceil_div(tasks, nb)?;
            let narrow = ir.cmp(IntPredicate::SLE, ntiles, ir.c(NARROW_B_PANELS))?;
            let least = ir.select(narrow, ir.c(MIN_NARROW_TASK_ROW_TILES), ir.c(MIN_TASK_ROW_TILES))?;
            let tm = ir.clamp(per_matrix, ir.c(1), ir.ceil_div(mtiles, least)?)?;
            let tn = ir.clamp(ir.ceil_div(per_matrix, tm)?, ir.c(1), ntiles)?;
            let mt = ir.mul(ir.ceil_div(mtiles, tm)?, mr)?;
            let nt = ir.mul(ir.ceil_div(ntiles, tn)?, ir.c(nr))?;
            let tm = ir.ceil_div(m, mt)?;
            let tn = ir.ceil_div(sw, nt)?;
            s.set(&ir, S_TM, tm)?;
            s.set(&ir, S_TN, tn)?;
            s.set(&ir, S_MT, mt)?;
            s.set(&ir, S_NT, nt)?;
            let panels = ir.mul(ir.mul(nb, nkb)?, ntiles)?;
            let ntasks = ir.mul(ir.mul(nb, tm)?, tn)?;
            // A product of one task runs on the calling thread, and so does
            // its packing: waking the workers for the pack alone cost more
            // than it saved (`64 x 3025 x 16`, a 1x1 convolution over 16
            // channels: 0.144 -> 0.102 ms; `256 x 512 x 16` 0.085 -> 0.064
            // ms; AMD EPYC, Zen 2).
            let one = ir.cmp(IntPredicate::SLE, ntasks, ir.c(1))?;
            let pack_grain = ir.select(one, ir.max(panels, ir.c(1))?, ir.c(1))?;
            run_tasks(&ir, pack_task, s.ptr, panels, pack_grain, inline)?;
            run_tasks(&ir, compute_task, s.ptr, ntasks, ir.c(1), inline)
        })
    })?;
    ir.free(bpack)?;
    ir.ret()?;
    Ok(f)
}

/// After a `ret` inside a conditional: continue building in an unreachable block
/// so the helper's branch to the join block has somewhere to live.
fn dead_block(ir: &Ir<'_, '_>) -> R<()> {
    let bb = ir.cx.append_basic_block(ir.func, "dead");
    ir.b.position_at_end(bb);
    Ok(())
}

/// The macro kernel's `accumulate` and `last` arguments (0 or 1) for depth
/// block `pb` of `nkb`.
pub(crate) fn depth_flags<'ctx>(
    ir: &Ir<'_, 'ctx>,
    pb: IntValue<'ctx>,
    nkb: IntValue<'ctx>,
) -> R<(IntValue<'ctx>, IntValue<'ctx>)> {
    let accumulate = ir.b.build_int_z_extend(ir.cmp(IntPredicate::SGT, pb, ir.c(0))?, ir.i64t(), "")?;
    let last = ir.b.build_int_z_extend(ir.cmp(IntPredicate::EQ, pb, ir.sub(nkb, ir.c(1))?)?, ir.i64t(), "")?;
    Ok((accumulate, last))
}

/// Row and depth strides of an operand's micro-panels: `(rs, ks)` such that
/// element (row, kk) is at `row * rs + kk * ks`.
fn strides<'ctx>(
    ir: &Ir<'_, 'ctx>,
    rows_minor: bool,
    rows: IntValue<'ctx>,
    depth: IntValue<'ctx>,
) -> (IntValue<'ctx>, IntValue<'ctx>) {
    if rows_minor { (ir.c(1), rows) } else { (depth, ir.c(1)) }
}

/// What the task functions of one product are generated from.
struct Tasks<'m, 'ctx> {
    module: &'m Module<'ctx>,
    target: &'m TargetMachine,
    isa: Isa,
    spec: &'m GemmSpec,
    /// The driver's symbol, which task names extend.
    name: &'m str,
    ct: Ct,
}

impl<'m, 'ctx> Tasks<'m, 'ctx> {
    /// Task function `{name}_{suffix}` with a context of `slots` slots, and the
    /// start of its body: the builder, the context and the range `lo..hi`.
    fn start(&self, suffix: &str, slots: u32) -> (FunctionValue<'ctx>, Ir<'m, 'ctx>, Slots<'ctx>, [IntValue<'ctx>; 2]) {
        let f = task_function(self.module, self.target, self.isa, &format!("{}_{suffix}", self.name));
        let (ir, s, lo, hi) = task_entry(self.module, f, slots);
        (f, ir, s, [lo, hi])
    }
}

fn pack_task_function<'ctx>(tasks: &Tasks<'_, 'ctx>, parts: &Parts<'ctx>) -> R<FunctionValue<'ctx>> {
    let spec = tasks.spec;
    let (f, ir, s, [lo, hi]) = tasks.start("pack", SLOTS);
    let nr = parts.blk.nr() as i64;
    let (b, bpack, b0) = (s.get_ptr(&ir, S_B)?, s.get_ptr(&ir, S_BPACK)?, s.get(&ir, S_B0)?);
    let (n, k, npad, nkb, kcb, njp) = (
        s.get(&ir, S_N)?,
        s.get(&ir, S_K)?,
        s.get(&ir, S_NPAD)?,
        s.get(&ir, S_NKB)?,
        s.get(&ir, S_KCB)?,
        s.get(&ir, S_NJP)?,
    );
    // B's rows in panel terms are its columns j: contiguous unless transposed.
    let (rs, ks) = strides(&ir, !spec.rhs_transposed, n, k);
    let rhs_t = ir.mem_ty(spec.rhs, 0);
    let pt = packed_type(&ir, &parts.blk);
    let (slab0, pbs) = (s.get(&ir, S_J0)?, s.get(&ir, S_PBS)?);
    let direct = s.get(&ir, S_DIRECT)?;
    ir.for_range(lo, hi, 1, |t| {
        let jp = ir.rem(t, njp)?;
        let pb = ir.rem(ir.div(t, njp)?, nkb)?;
        let bb = ir.div(t, ir.mul(njp, nkb)?)?;
        let k0 = ir.mul(pb, kcb)?;
        let kc = ir.min(kcb, ir.sub(k, k0)?)?;
        // Panel `jp` of the slab: columns from `j0` (relative), `col` (absolute).
        let j0 = ir.mul(jp, ir.c(nr))?;
        let col = ir.add(slab0, j0)?;
        let rows = ir.min(ir.c(nr), ir.sub(n, col)?)?;
        let mat = ir.mul(ir.add(b0, bb)?, ir.mul(k, n)?)?;
        let at = ir.add(mat, ir.add(ir.mul(col, rs)?, ir.mul(k0, ks)?)?)?;
        let src = ir.gep(rhs_t, b, at)?;
        let kp = packed_depth(&ir, &parts.blk, kc)?;
        let d = ir.add(ir.mul(bb, pbs)?, ir.add(ir.mul(k0, npad)?, ir.mul(j0, kp)?)?)?;
        let dst = ir.gep(pt, bpack, d)?;
        // Full panels read in place are not packed.
        let full = ir.cmp(IntPredicate::EQ, rows, ir.c(nr))?;
        let in_place = ir.b.build_and(full, ir.cmp(IntPredicate::NE, direct, ir.c(0))?, "")?;
        ir.if_(ir.b.build_not(in_place, "")?, || {
            ir.call(parts.pack_b, &[src.into(), rs.into(), ks.into(), rows.into(), kc.into(), dst.into()])?;
            Ok(())
        })
    })?;
    ir.ret()?;
    Ok(f)
}

fn compute_task_function<'ctx>(tasks: &Tasks<'_, 'ctx>, parts: &Parts<'ctx>) -> R<FunctionValue<'ctx>> {
    let spec = tasks.spec;
    let (f, ir, s, [lo, hi]) = tasks.start("task", SLOTS);
    let blk = parts.blk;
    let pt = packed_type(&ir, &blk);
    let (a, c, bpack) = (s.get_ptr(&ir, S_A)?, s.get_ptr(&ir, S_C)?, s.get_ptr(&ir, S_BPACK)?);
    let (b, direct) = (s.get_ptr(&ir, S_B)?, s.get(&ir, S_DIRECT)?);
    let rhs_t = ir.mem_ty(spec.rhs, 0);
    let (m, n, k, b0) = (s.get(&ir, S_M)?, s.get(&ir, S_N)?, s.get(&ir, S_K)?, s.get(&ir, S_B0)?);
    let (npad, nkb, kcb, ncb) = (s.get(&ir, S_NPAD)?, s.get(&ir, S_NKB)?, s.get(&ir, S_KCB)?, s.get(&ir, S_NCB)?);
    // The current slab of columns: its first column, width, and packed B's stride.
    let (slab0, sw, pbs) = (s.get(&ir, S_J0)?, s.get(&ir, S_SW)?, s.get(&ir, S_PBS)?);
    let (tm, tn, mt, nt) = (s.get(&ir, S_TM)?, s.get(&ir, S_TN)?, s.get(&ir, S_MT)?, s.get(&ir, S_NT)?);
    let (epi, ectx) = (s.get_ptr(&ir, S_EPI)?, s.get_ptr(&ir, S_ECTX)?);
    // A's rows are its rows i: contiguous along k unless transposed.
    let (rs, ks) = strides(&ir, spec.lhs_transposed, m, k);
    let lhs_t = ir.mem_ty(spec.lhs, 0);
    let omem = ir.mem_ty(spec.out, 0);
    let mc = ir.c(blk.mc);
    let mr = blk.mr as i64;
    // Packed A: an `MC x KC` block repacked for every column block, or, when a
    // task spans several column blocks, all of its rows and depth packed during
    // the first and reused by the others (within `A_KEEP_BYTES`).
    let kpb = packed_depth(&ir, &blk, kcb)?;
    let rows_pad = ir.mul(ir.ceil_div(mt, ir.c(mr))?, ir.c(mr))?;
    let whole_bytes = ir.mul(ir.mul(ir.mul(rows_pad, nkb)?, kpb)?, ir.c(blk.packed_bytes()))?;
    let several = ir.cmp(IntPredicate::SGT, nt, ncb)?;
    let fits = ir.cmp(IntPredicate::SLE, whole_bytes, ir.c(A_KEEP_BYTES))?;
    let keep_a = ir.b.build_and(several, fits, "")?;
    let block_bytes = ir.mul(ir.mul(mc, kpb)?, ir.c(blk.packed_bytes()))?;
    // A stored along k in the accumulator type is read in place, unpacked,
    // where B is narrow ([`A_IN_PLACE_COLUMNS`]): packing would cost a pass
    // over A (all of a layer's weights) per call for the few panels it
    // serves. Over wider B, A's tiles are read once per panel, and a packed
    // micro-panel streams from L2 where twelve rows did not.
    // A tile whose rows fall into one cache set (4 KiB apart) does not stay
    // in L1 beside the B panels it sweeps (12 rows with AVX-512; 6 with
    // AVX2 fill six of a Zen 3's eight ways): packed, unless B is so narrow
    // ([`A_ALIASED_NARROW_PANELS`]) that the packing pass would cost more
    // than the few panels it serves: then runs of its rows are copied whole
    // into rows one cache line longer (`a_copy`, [`spread_row_bytes`]), a
    // plain sequential copy where packing interleaves the rows, and each
    // run is multiplied over every depth block before the next is copied.
    let can_a = reads_a_in_place(spec, &blk, ir.cx);
    let no = ir.cx.bool_type().const_zero();
    let (a_in_place, a_copy) = if !can_a {
        (no, no)
    } else {
        let narrow = ir.cmp(IntPredicate::SLE, n, ir.c(A_IN_PLACE_COLUMNS))?;
        let stride = ir.mul(rs, ir.c(blk.ct.bytes() as i64))?;
        let spread = ir.cmp(IntPredicate::NE, ir.rem(stride, ir.c(L1_WAY_BYTES))?, ir.c(0))?;
        let very = ir.cmp(IntPredicate::SLE, n, ir.c(A_ALIASED_NARROW_PANELS * blk.nr() as i64))?;
        let in_place = ir.b.build_or(ir.b.build_and(spread, narrow, "")?, very, "")?;
        (in_place, ir.b.build_and(very, ir.b.build_not(spread, "")?, "")?)
    };
    // The copy: whole rows (all of k), as many whole row tiles as a
    // quarter of the L2 holds, at least one.
    let ebytes = ir.c(blk.ct.bytes() as i64);
    let copy_row_bytes = spread_row_bytes(&ir, ir.mul(k, ebytes)?)?;
    let copy_stride = ir.div(copy_row_bytes, ebytes)?;
    let fit = ir.div(ir.c(tasks.isa.caches.l2 as i64 / 4), copy_row_bytes)?;
    let copy_rows = ir.clamp(ir.mul(ir.div(fit, ir.c(mr))?, ir.c(mr))?, ir.c(mr), mc)?;
    let copy_bytes = ir.mul(copy_rows, copy_row_bytes)?;
    let apack = ir.alloc(ir.select(
        a_in_place,
        ir.select(a_copy, copy_bytes, ir.c(0))?,
        ir.select(keep_a, whole_bytes, block_bytes)?,
    )?)?;
    ir.for_range(lo, hi, 1, |t| {
        let ni = ir.rem(t, tn)?;
        let mi = ir.rem(ir.div(t, tn)?, tm)?;
        let bb = ir.div(t, ir.mul(tn, tm)?)?;
        let bi = ir.add(b0, bb)?;
        // Whole tiles split as evenly as they go, the larger slices first
        // (22 row tiles in four tasks: 6, 6, 5, 5, so two threads take 11
        // each; slices of `MT` rows left 6, 6, 6, 4, one thread 12).
        let slice = |i: IntValue<'ctx>, parts: IntValue<'ctx>, tiles: IntValue<'ctx>| -> R<IntValue<'ctx>> {
            let (q, r) = (ir.div(tiles, parts)?, ir.rem(tiles, parts)?);
            ir.add(ir.mul(i, q)?, ir.min(i, r)?)
        };
        let mtiles = ir.ceil_div(m, ir.c(mr))?;
        let i_start = ir.mul(slice(mi, tm, mtiles)?, ir.c(mr))?;
        let i_end = ir.min(m, ir.mul(slice(ir.add(mi, ir.c(1))?, tm, mtiles)?, ir.c(mr))?)?;
        let ntiles = ir.ceil_div(sw, ir.c(blk.nr() as i64))?;
        let j_start = ir.mul(slice(ni, tn, ntiles)?, ir.c(blk.nr() as i64))?;
        let j_end = ir.min(sw, ir.mul(slice(ir.add(ni, ir.c(1))?, tn, ntiles)?, ir.c(blk.nr() as i64))?)?;
        let amat = ir.gep(lhs_t, a, ir.mul(bi, ir.mul(m, k)?)?)?;
        let cmat = ir.gep(omem, c, ir.add(ir.mul(bi, ir.mul(m, n)?)?, slab0)?)?;
        let bmat = ir.gep(pt, bpack, ir.mul(bb, pbs)?)?;
        ir.for_step(j_start, j_end, ncb, |jc| {
            let nc = ir.min(ncb, ir.sub(j_end, jc)?)?;
            let pack = ir.b.build_or(ir.b.build_not(keep_a, "")?, ir.cmp(IntPredicate::EQ, jc, j_start)?, "")?;
            // Depth block `pb` of the `mcc` rows from `ic`; `copied`: A's
            // rows from `ic` are in `apack`, whole, `copy_stride` apart.
            let block = |pb: IntValue<'ctx>, ic: IntValue<'ctx>, mcc: IntValue<'ctx>, copied: bool| -> R<()> {
                let k0 = ir.mul(pb, kcb)?;
                let kc = ir.min(kcb, ir.sub(k, k0)?)?;
                let (accumulate, last) = depth_flags(&ir, pb, nkb)?;
                let kp = packed_depth(&ir, &blk, kc)?;
                let bblock = ir.gep(pt, bmat, ir.add(ir.mul(k0, npad)?, ir.mul(jc, kp)?)?)?;
                let (ablock, lda) = if copied {
                    (ir.gep(lhs_t, apack, k0)?, copy_stride)
                } else {
                    // This block's place in packed A: kept, block `pb` of
                    // rows from `ic`; else the one block.
                    let at_kept = ir.mul(ir.add(ir.mul(pb, rows_pad)?, ir.sub(ic, i_start)?)?, kpb)?;
                    let in_place = ir.gep(lhs_t, amat, ir.add(ir.mul(ic, rs)?, k0)?)?;
                    let packed = ir.gep(pt, apack, ir.select(keep_a, at_kept, ir.c(0))?)?;
                    let ablock = ir.b.build_select(a_in_place, in_place, packed, "")?.into_pointer_value();
                    let pack = ir.b.build_and(pack, ir.b.build_not(a_in_place, "")?, "")?;
                    ir.if_(pack, || {
                        ir.for_range(ir.c(0), mcc, mr, |r0| {
                            let rows = ir.min(ir.c(mr), ir.sub(mcc, r0)?)?;
                            let at = ir.add(ir.mul(ir.add(ic, r0)?, rs)?, ir.mul(k0, ks)?)?;
                            let src = ir.gep(lhs_t, amat, at)?;
                            let dst = ir.gep(pt, ablock, ir.mul(r0, kp)?)?;
                            let args = [src.into(), rs.into(), ks.into(), rows.into(), kc.into(), dst.into()];
                            ir.call(parts.pack_a, &args)?;
                            Ok(())
                        })
                    })?;
                    (ablock, ir.select(a_in_place, rs, ir.c(0))?)
                };
                let cblock = ir.gep(omem, cmat, ir.add(ir.mul(ic, n)?, jc)?)?;
                let (sizes, at) = ([mcc, nc, kc, n], [bi, ic, ir.add(slab0, jc)?]);
                // In place: B's block at row k0, column slab0 + jc; its
                // panels are full up to column n.
                let col = ir.add(slab0, jc)?;
                let bsrc = ir.gep(rhs_t, b, ir.add(ir.mul(bi, ir.mul(k, n)?)?, ir.add(ir.mul(k0, n)?, col)?)?)?;
                let cols = ir.select(ir.cmp(IntPredicate::NE, direct, ir.c(0))?, ir.sub(n, col)?, ir.c(0))?;
                let in_place = Some((bsrc, n, cols));
                let (ops, flags) = ([ablock, bblock, cblock], (accumulate, last));
                parts.call_macro(&ir, sizes, ops, flags, (epi, ectx), at, in_place, Some(lda))
            };
            ir.if_else(
                a_copy,
                || {
                    // Rows first: each run of rows copied whole (one
                    // sequential read of the weights), then its depth blocks.
                    ir.for_step(i_start, i_end, copy_rows, |ic| {
                        let mcc = ir.min(copy_rows, ir.sub(i_end, ic)?)?;
                        let row_bytes = ir.mul(k, ebytes)?;
                        ir.for_range(ir.c(0), mcc, 1, |r| {
                            let src = ir.gep(lhs_t, amat, ir.mul(ir.add(ic, r)?, rs)?)?;
                            let dst = ir.gep(lhs_t, apack, ir.mul(r, copy_stride)?)?;
                            ir.b.build_memcpy(dst, 4, src, 4, row_bytes)?;
                            Ok(())
                        })?;
                        ir.for_range(ir.c(0), nkb, 1, |pb| block(pb, ic, mcc, true))
                    })
                },
                || {
                    ir.for_range(ir.c(0), nkb, 1, |pb| {
                        ir.for_step(i_start, i_end, mc, |ic| block(pb, ic, ir.min(mc, ir.sub(i_end, ic)?)?, false))
                    })
                },
            )
        })
    })?;
    ir.free(apack)?;
    ir.ret()?;
    Ok(f)
}

/// Bytes between the copied rows of an aliased A, `row_bytes` long:
/// whole cache lines and one more, never a multiple of 4 KiB, so that a
/// tile's rows fall into different L1 sets. Zen 3 EPYC, one thread, weights
/// from memory (`gemm_bench`): `2048x49x1024` ran at 62 GFLOP/s against 76
/// for `2048x49x1040`, `512x49x2048` 62 against 75 for `x2064`,
/// `192x49x1024` 52 against 67 for `x1040`.
fn spread_row_bytes<'ctx>(ir: &Ir<'_, 'ctx>, row_bytes: IntValue<'ctx>) -> R<IntValue<'ctx>> {
    let lines = ir.add(ir.mul(ir.ceil_div(row_bytes, ir.c(64))?, ir.c(64))?, ir.c(64))?;
    let aliased = ir.cmp(IntPredicate::EQ, ir.rem(lines, ir.c(L1_WAY_BYTES))?, ir.c(0))?;
    ir.add(lines, ir.select(aliased, ir.c(64), ir.c(0))?)
}

/// Whether the product reads A in place: stored along k (not transposed),
/// in the accumulator type, plain groups.
fn reads_a_in_place(spec: &GemmSpec, blk: &Blocking, cx: inkwell::context::ContextRef<'_>) -> bool {
    blk.group == 1 && !spec.lhs_transposed && crate::routine::mem_type(cx, spec.lhs) == blk.ct.ty(cx)
}

mod gemv;
#[cfg(test)]
pub(crate) mod tests;
