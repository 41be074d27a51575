//! Launch planning: how each kernel maps onto CUDA's grid of thread blocks.
//!
//! Every kernel gets one [`Strategy`], chosen from its body alone, and the
//! [`Launch`]es (grid and block size; two for split reductions and random
//! bits) derived from it. The code generator
//! (`codegen`) renders exactly these strategies, and the functions here that
//! model them ([`thread_partials`], [`block_reduce`], [`grid_stride`]) are
//! what the unit tests check against a serial reference, so the mapping and
//! the combine order are tested without a GPU.
//!
//! - [`Strategy::Elementwise`]: one thread per point of the flattened space,
//!   grid-stride; consecutive threads touch consecutive elements (coalesced).
//! - [`Strategy::Transpose`]: a loop kernel that reads inputs transposed
//!   (an input's innermost dimension is not the space's): 32 x 32 tiles
//!   through shared memory, read along the input's innermost dimension and
//!   written along the output's, so both sides are coalesced.
//! - [`Strategy::RowLoop`]: a loop kernel with row statistics (an inline
//!   reduction that does not depend on the innermost index: softmax's max and
//!   sum, layer norm's mean and variance): one block per row; the block
//!   computes each statistic together (each thread folds a strided slice, then
//!   warp shuffles, then shared memory across warps) and every thread then
//!   writes a strided slice of the row. One kernel, one pass per statistic.
//! - [`Strategy::RowReduce`]: a reduction over the innermost dimensions: one
//!   block per kept point, combined as above.
//! - [`Strategy::ColumnReduce`]: any other reduction: one thread per kept
//!   point, folding the reduced points in order; consecutive threads read
//!   consecutive kept elements.
//! - [`Strategy::SplitRowReduce`], [`Strategy::SplitColumnReduce`]: the two
//!   above when there are too few rows or kept points to fill the device
//!   (full reductions, long rows, tall columns): two launches. The first
//!   splits each row's (column's) reduced points into `splits` chunks
//!   ([`split_chunk`]), each folded by one block (thread) into a partial
//!   result in scratch memory; the second combines each row's partials.
//! - [`Strategy::UpdateSlice`]: one thread per point of the update.
//! - [`Strategy::Scan`]: one thread per line along the scanned axis (the
//!   other dimensions' points), folding along it; consecutive threads take
//!   consecutive lines.
//! - [`Strategy::Outer`]: anything else: the CPU backend's kernel body, one
//!   thread per iteration of its parallel dimension. [`Strategy::Sort`] is
//!   the same (one slice per thread, the CPU's merge sort) with at most as
//!   many threads as the device heap holds scratch slices for;
//!   [`Strategy::Rng`] the same for random bits, then one thread writes the
//!   generator's new state.
//! - [`Strategy::Serial`]: scatter and select-and-scatter, whose updates apply
//!   in order: one thread.
//!
//! Cross-thread combines apply the reducer to pairs of partial results, so
//! they need a reducer whose values have the accumulators' types and that is
//! associative and commutative (XLA's contract for reductions; the init value
//! is an identity, which each thread starts from). Reducers that take a
//! validity flag or other extra values use the serial strategies.

use smelt_kernel::{Graph, Kernel, KernelBody, Node, NodeId, ScalarFn};

use crate::error::{GpuError, Result};

/// Threads per warp.
pub const WARP: u32 = 32;
/// Threads per block of an elementwise launch.
pub const BLOCK: u32 = 256;
/// Threads per block of an `Outer` launch (each thread runs a whole row or tile).
pub const OUTER_BLOCK: u32 = 128;
/// Most threads per block of a row strategy.
pub const MAX_ROW_BLOCK: u32 = 256;
/// Most blocks per launch; kernels loop (grid-stride) over what is left.
pub const MAX_GRID: i64 = 1 << 20;
/// Side of a transpose tile.
pub const TILE: i64 = 32;
/// Rows of a tile each thread of a transpose block handles: the block is
/// `TILE / TILE_ROWS` rows of `TILE` threads, row `ty` handling tile rows
/// `ty, ty + TILE / TILE_ROWS, ...`.
pub const TILE_ROWS: i64 = 4;
/// Most transposed inputs one kernel stages through shared memory.
pub const MAX_TILED_LOADS: usize = 4;
/// Shuffle distances of the warp-level tree, in order.
pub const SHUFFLE_OFFSETS: [u32; 5] = [16, 8, 4, 2, 1];
/// Bytes of shared memory per accumulator: one 8-byte slot per warp.
pub const SHARED_PER_ACC: u32 = 8 * (MAX_ROW_BLOCK / WARP);

/// Grid and block size of one launch (one-dimensional).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Launch {
    pub grid: u32,
    pub block: u32,
}

/// How a kernel's work is spread over threads (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Strategy {
    Elementwise {
        points: i64,
    },
    /// Tiles over space dims `a` (the transposed inputs' innermost) and the
    /// innermost `b`; `batch` counts the points of the other dims.
    Transpose {
        batch: i64,
        a: usize,
        tiles_a: i64,
        tiles_b: i64,
    },
    RowLoop {
        rows: i64,
        cols: i64,
    },
    RowReduce {
        rows: i64,
        row_len: i64,
    },
    ColumnReduce {
        kept: i64,
    },
    SplitRowReduce {
        rows: i64,
        row_len: i64,
        splits: i64,
    },
    SplitColumnReduce {
        kept: i64,
        reduced: i64,
        splits: i64,
    },
    UpdateSlice {
        points: i64,
    },
    Scan {
        lines: i64,
    },
    Outer {
        iterations: i64,
    },
    Sort {
        slices: i64,
        max_threads: i64,
    },
    Rng {
        iterations: i64,
    },
    Serial,
}

/// Bytes of device heap the sort strategy lets its threads hold at once (the
/// runtime's heap is at least twice this).
pub const SORT_HEAP_BUDGET: i64 = 128 << 20;

/// Stage-one blocks a split row reduction aims for.
pub const SPLIT_ROW_BLOCKS: i64 = 1024;
/// Fewest elements per block in stage one of a split row reduction.
pub const SPLIT_ROW_MIN_CHUNK: i64 = 4096;
/// Stage-one threads a split column reduction aims for.
pub const SPLIT_COLUMN_THREADS: i64 = 1 << 17;
/// Fewest elements per thread in stage one of a split column reduction.
pub const SPLIT_COLUMN_MIN_CHUNK: i64 = 256;

/// Elements per chunk when `len` reduced points are split `splits` ways.
pub fn split_chunk(len: i64, splits: i64) -> i64 {
    if len <= 0 { 0 } else { (len - 1) / splits.max(1) + 1 }
}

/// How many ways to split `len` points of each of `rows` rows so that about
/// `target` workers run, with at least `min_chunk` points each (1: do not split).
pub fn splits_for(rows: i64, len: i64, target: i64, min_chunk: i64) -> i64 {
    (target / rows.max(1)).min(len / min_chunk).max(1)
}

impl Strategy {
    /// The launches that run this strategy, in order (two for split reductions).
    pub fn launches(&self) -> Vec<Launch> {
        match *self {
            Strategy::SplitRowReduce { rows, splits, .. } => vec![
                Launch { grid: blocks(rows.saturating_mul(splits), 1), block: BLOCK },
                Launch { grid: blocks(rows, 1), block: row_block(splits) },
            ],
            Strategy::SplitColumnReduce { kept, splits, .. } => vec![
                Launch { grid: blocks(kept.saturating_mul(splits), BLOCK), block: BLOCK },
                Launch { grid: blocks(kept, BLOCK), block: BLOCK },
            ],
            Strategy::Rng { iterations } => {
                vec![Launch { grid: blocks(iterations, OUTER_BLOCK), block: OUTER_BLOCK }, Launch { grid: 1, block: 1 }]
            }
            _ => vec![self.launch()],
        }
    }

    /// Scratch bytes for the partial results of `accs` accumulators (one
    /// 8-byte slot each per row or kept point and split).
    pub fn scratch_bytes(&self, accs: usize) -> usize {
        match *self {
            Strategy::SplitRowReduce { rows: n, splits, .. } | Strategy::SplitColumnReduce { kept: n, splits, .. } => {
                (n.max(0) as usize).saturating_mul(splits.max(0) as usize).saturating_mul(8 * accs)
            }
            _ => 0,
        }
    }

    /// Whether the entries take a scratch pointer after the buffers.
    pub fn takes_scratch(&self) -> bool {
        matches!(self, Strategy::SplitRowReduce { .. } | Strategy::SplitColumnReduce { .. })
    }

    /// The first (or only) launch.
    pub fn launch(&self) -> Launch {
        match *self {
            Strategy::SplitRowReduce { .. } | Strategy::SplitColumnReduce { .. } | Strategy::Rng { .. } => {
                self.launches()[0]
            }
            Strategy::Sort { slices, max_threads } => {
                // At most `max_threads` threads (whole blocks), at least one.
                let threads = slices.min(max_threads).max(1);
                let block = threads.min(OUTER_BLOCK as i64);
                Launch { grid: (threads / block).clamp(1, MAX_GRID) as u32, block: block as u32 }
            }
            Strategy::Elementwise { points } => Launch { grid: blocks(points, BLOCK), block: BLOCK },
            Strategy::Transpose { batch, tiles_a, tiles_b, .. } => Launch {
                grid: blocks(batch.saturating_mul(tiles_a).saturating_mul(tiles_b), 1),
                block: (TILE * TILE / TILE_ROWS) as u32,
            },
            Strategy::ColumnReduce { kept } => Launch { grid: blocks(kept, BLOCK), block: BLOCK },
            Strategy::UpdateSlice { points } => Launch { grid: blocks(points, BLOCK), block: BLOCK },
            Strategy::Scan { lines } => Launch { grid: blocks(lines, BLOCK), block: BLOCK },
            Strategy::RowLoop { rows, cols } => Launch { grid: blocks(rows, 1), block: row_block(cols) },
            Strategy::RowReduce { rows, row_len } => Launch { grid: blocks(rows, 1), block: row_block(row_len) },
            Strategy::Outer { iterations } => Launch { grid: blocks(iterations, OUTER_BLOCK), block: OUTER_BLOCK },
            Strategy::Serial => Launch { grid: 1, block: 1 },
        }
    }

    /// A short name for dumps.
    pub fn name(&self) -> &'static str {
        match self {
            Strategy::Elementwise { .. } => "elementwise",
            Strategy::Transpose { .. } => "transpose",
            Strategy::RowLoop { .. } => "row-loop",
            Strategy::RowReduce { .. } => "row-reduce",
            Strategy::ColumnReduce { .. } => "column-reduce",
            Strategy::SplitRowReduce { .. } => "split-row-reduce",
            Strategy::SplitColumnReduce { .. } => "split-column-reduce",
            Strategy::UpdateSlice { .. } => "update-slice",
            Strategy::Scan { .. } => "scan",
            Strategy::Outer { .. } => "outer",
            Strategy::Sort { .. } => "sort",
            Strategy::Rng { .. } => "rng",
            Strategy::Serial => "serial",
        }
    }
}

/// Blocks of `per_block` threads covering `n` items, at least 1, at most [`MAX_GRID`].
pub fn blocks(n: i64, per_block: u32) -> u32 {
    let b = (n.max(1) - 1) / per_block as i64 + 1;
    b.clamp(1, MAX_GRID) as u32
}

/// Threads per block for a row of `len` elements: the next power of two,
/// between one warp and [`MAX_ROW_BLOCK`].
pub fn row_block(len: i64) -> u32 {
    let len = len.clamp(1, MAX_ROW_BLOCK as i64) as u32;
    len.next_power_of_two().clamp(WARP, MAX_ROW_BLOCK)
}

/// Whether a reducer can combine two partial results: it takes accumulators
/// then values of the same types.
pub fn combinable(reducer: &ScalarFn, acc_types: &[smelt_hlo::DType]) -> bool {
    let n = acc_types.len();
    n > 0 && reducer.params.len() == 2 * n && reducer.params[..n] == *acc_types && reducer.params[n..] == *acc_types
}

/// The inline reductions of a loop graph that do not depend on the innermost
/// index of a space of rank `rank` (row statistics), in id order.
pub fn row_statistics(graph: &Graph, rank: usize) -> Result<Vec<NodeId>> {
    if rank == 0 {
        return Ok(Vec::new());
    }
    let levels = smelt_llvm::codegen::node_levels(graph, 0);
    Ok(graph
        .nodes
        .iter()
        .enumerate()
        .filter(|(i, n)| matches!(n, Node::Reduce(_)) && levels[*i] != rank - 1)
        .map(|(i, _)| NodeId(i as u32))
        .collect())
}

/// The loads of a loop kernel worth staging through transpose tiles: whole
/// inputs read at a permutation of the space's indices whose innermost
/// (non-unit) dimension is space dimension `a`, not the space's innermost,
/// with both of those dimensions at least half a tile. Returns `a` and the
/// load nodes (all with the same `a`, at most [`MAX_TILED_LOADS`]).
pub fn transposed_loads(k: &Kernel) -> Option<(usize, Vec<NodeId>)> {
    let KernelBody::Loop { space, graph, .. } = &k.body else { return None };
    let rank = space.len();
    if rank < 2 || space[rank - 1] < TILE / 2 {
        return None;
    }
    let mut found: Option<usize> = None;
    let mut loads = Vec::new();
    for (i, n) in graph.nodes.iter().enumerate() {
        let Node::Load { input, index } = n else { continue };
        let ty = k.inputs.get(*input)?;
        if index.len() != ty.dims.len() {
            return None;
        }
        // Each index component: the space index of its dimension, or 0 for a unit dim.
        let mut perm = Vec::with_capacity(index.len());
        let mut ok = true;
        for (&x, &d) in index.iter().zip(&ty.dims) {
            match graph.nodes.get(x.0 as usize) {
                Some(Node::Index(s)) if space.get(*s) == Some(&d) => perm.push(Some(*s)),
                Some(Node::Const(c)) if d == 1 && matches!(c, smelt_kernel::Scalar::Int(_, 0)) => perm.push(None),
                _ => ok = false,
            }
        }
        let used: Vec<usize> = perm.iter().flatten().copied().collect();
        let mut sorted = used.clone();
        sorted.sort_unstable();
        sorted.dedup();
        if !ok || sorted.len() != used.len() || space.iter().enumerate().any(|(s, &e)| e > 1 && !used.contains(&s)) {
            continue;
        }
        let Some(&a) = used.last() else { continue };
        if a == rank - 1 || space[a] < TILE / 2 {
            continue;
        }
        if found.is_some_and(|f| f != a) || loads.len() == MAX_TILED_LOADS {
            return None;
        }
        found = Some(a);
        loads.push(NodeId(i as u32));
    }
    found.map(|a| (a, loads))
}

fn count(dims: &[i64]) -> i64 {
    dims.iter().map(|&d| d.max(0)).product()
}

/// The strategy for kernel `k`.
pub fn choose(k: &Kernel) -> Result<Strategy> {
    Ok(match &k.body {
        KernelBody::Loop { space, graph, .. } => {
            let stats = row_statistics(graph, space.len())?;
            let cols = space.last().copied().unwrap_or(1);
            if stats.is_empty()
                && let Some((a, _)) = transposed_loads(k)
            {
                let b = space.len() - 1;
                let others: Vec<i64> = (0..b).filter(|&d| d != a).map(|d| space[d]).collect();
                let tiles = |d: i64| (d + TILE - 1) / TILE;
                Strategy::Transpose { batch: count(&others), a, tiles_a: tiles(space[a]), tiles_b: tiles(space[b]) }
            } else if stats.is_empty() || cols <= 1 {
                Strategy::Elementwise { points: count(space) }
            } else if stats.iter().all(|&id| match graph.node(id) {
                Node::Reduce(r) => {
                    let acc: Vec<_> = r.init.iter().map(|&i| graph.dtype(i)).collect();
                    combinable(&r.reducer, &acc)
                }
                _ => false,
            }) {
                Strategy::RowLoop { rows: count(&space[..space.len() - 1]), cols }
            } else {
                Strategy::Outer { iterations: smelt_llvm::codegen::launch_shape(k)?.n }
            }
        }
        KernelBody::Reduce { space, reduced, graph, init, reducer, .. } => {
            let rank = space.len();
            if reduced.len() > rank || reduced.iter().any(|&d| d >= rank) {
                return Err(GpuError::InvalidProgram(format!("kernel {}: reduced dimension out of range", k.name)));
            }
            if init.iter().any(|i| i.0 as usize >= graph.types.len()) {
                return Err(GpuError::InvalidProgram(format!("kernel {}: init node out of range", k.name)));
            }
            let trailing =
                !reduced.is_empty() && reduced.iter().enumerate().all(|(i, &d)| d == rank - reduced.len() + i);
            let acc: Vec<_> = init.iter().map(|&i| graph.dtype(i)).collect();
            let kept: Vec<i64> = (0..rank).filter(|d| !reduced.contains(d)).map(|d| space[d]).collect();
            let reduced_dims: Vec<i64> = reduced.iter().map(|&d| space[d]).collect();
            let (rows, len) = (count(&kept), count(&reduced_dims));
            let combines = combinable(reducer, &acc);
            if trailing && combines && len > 1 {
                match splits_for(rows, len, SPLIT_ROW_BLOCKS, SPLIT_ROW_MIN_CHUNK) {
                    1 => Strategy::RowReduce { rows, row_len: len },
                    splits => Strategy::SplitRowReduce { rows, row_len: len, splits },
                }
            } else {
                match splits_for(rows, len, SPLIT_COLUMN_THREADS, SPLIT_COLUMN_MIN_CHUNK) {
                    s if s > 1 && combines => Strategy::SplitColumnReduce { kept: rows, reduced: len, splits: s },
                    _ => Strategy::ColumnReduce { kept: rows },
                }
            }
        }
        KernelBody::Scatter { .. } | KernelBody::SelectAndScatter { .. } => Strategy::Serial,
        KernelBody::UpdateSlice { space, .. } => Strategy::UpdateSlice { points: count(space) },
        KernelBody::Scan { space, axis, .. } if *axis < space.len() => {
            Strategy::Scan { lines: count(space) / space[*axis].max(1) }
        }
        KernelBody::Sort { dims, dimension, .. } => {
            let len = dims.get(*dimension).copied().unwrap_or(1).max(1);
            // The CPU sort's scratch: each operand's slice, keys and indices.
            let per_element: i64 = k.inputs.iter().map(|t| t.dtype.byte_size() as i64).sum::<i64>() + 24;
            let max_threads = (SORT_HEAP_BUDGET / len.saturating_mul(per_element).max(1)).max(1);
            Strategy::Sort { slices: count(dims) / len, max_threads }
        }
        KernelBody::RngBitGenerator { .. } => Strategy::Rng { iterations: smelt_llvm::codegen::launch_shape(k)?.n },
        _ => Strategy::Outer { iterations: smelt_llvm::codegen::launch_shape(k)?.n },
    })
}

/// The indices `(block, thread, item)` a grid-stride loop of `launch` visits
/// for `n` items, in no particular order: thread `t` of block `b` takes items
/// `b * block + t`, then `grid * block` further, and so on.
pub fn grid_stride(n: i64, launch: Launch) -> Vec<(u32, u32, i64)> {
    let total = launch.grid as i64 * launch.block as i64;
    let mut out = Vec::new();
    for b in 0..launch.grid {
        for t in 0..launch.block {
            let mut i = b as i64 * launch.block as i64 + t as i64;
            while i < n {
                out.push((b, t, i));
                i += total;
            }
        }
    }
    out
}

/// What each thread of a `block`-thread row strategy holds after folding its
/// slice of `values` (thread `t` takes `t`, `t + block`, ...) from `init`.
pub fn thread_partials<T: Copy>(values: &[T], block: u32, init: T, combine: impl Fn(T, T) -> T) -> Vec<T> {
    let mut acc = vec![init; block as usize];
    for (i, &v) in values.iter().enumerate() {
        let t = i % block as usize;
        acc[t] = combine(acc[t], v);
    }
    acc
}

/// The block combine of the row strategies, step by step as the generated code
/// does it: within each warp, `SHUFFLE_OFFSETS` rounds of `v = combine(v,
/// shfl_down(v, offset))` (a lane past the warp's end reads its own value);
/// lane 0 of each warp stores to shared memory; warp 0 loads one value per
/// warp (`init` past the last warp) and runs the same rounds; lane 0 holds
/// the result.
pub fn block_reduce<T: Copy>(partials: &[T], init: T, combine: impl Fn(T, T) -> T) -> T {
    let warp_tree = |lanes: &mut Vec<T>| {
        for off in SHUFFLE_OFFSETS {
            let before = lanes.clone();
            for (l, v) in lanes.iter_mut().enumerate() {
                let src = l + off as usize;
                let other = if src < WARP as usize { before[src] } else { before[l] };
                *v = combine(*v, other);
            }
        }
        lanes[0]
    };
    let shared: Vec<T> = partials.chunks(WARP as usize).map(|w| warp_tree(&mut w.to_vec())).collect();
    let mut lanes: Vec<T> = (0..WARP as usize).map(|l| shared.get(l).copied().unwrap_or(init)).collect();
    warp_tree(&mut lanes)
}
