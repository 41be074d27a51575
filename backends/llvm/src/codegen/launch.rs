//! Where and how each kernel runs: its launch shape (iterations of the
//! parallel dimension, the cost of one, whether they may run concurrently, the
//! smallest useful task), the cost model behind it, the loop each node of a
//! loop kernel belongs in, and the task geometry of reductions and scans.
//! The emitters (`kernels`, `reduce`, `scan`) and the step driver (`run`)
//! read it; it reads none of them.

use smelt_hlo::DType;
use smelt_kernel::{ArrayType, BinaryOp, Graph, Kernel, KernelBody, Node, NodeId, UnaryOp};

use super::count;
use crate::error::{Result, invalid};

/// How a kernel is launched: `n` iterations of its parallel dimension, each
/// costing about `cost` scalar operations; `parallel` if iterations may run
/// concurrently.
#[derive(Clone, Copy, Debug)]
pub struct LaunchShape {
    pub n: i64,
    pub cost: f64,
    pub parallel: bool,
    /// The smallest useful task (iterations; grains are multiples of it): more
    /// than 1 when tiny tasks would break up vector loops, tiles or blocks.
    pub min_grain: i64,
}

/// Tasks over a contiguous parallel dimension take at least this many elements.
const CONTIGUOUS_GRAIN: i64 = 512;

/// Scalar operations to evaluate `graph` once (inline reductions count their
/// windows).
pub(crate) fn graph_cost(g: &Graph) -> f64 {
    g.nodes.iter().map(node_cost).sum()
}

/// Scalar operations to evaluate one node once.
pub(super) fn node_cost(n: &Node) -> f64 {
    match n {
        Node::Reduce(r) => 1.0 + count(&r.window) as f64 * (graph_cost(&r.body) + 1.0),
        Node::Load { .. } => 2.0,
        // Library calls and long-latency instructions.
        Node::Unary { op, .. } if transcendental(*op) => 10.0,
        Node::Binary {
            op:
                BinaryOp::Div
                | BinaryOp::Rem
                | BinaryOp::DivUnchecked
                | BinaryOp::RemUnchecked
                | BinaryOp::Pow
                | BinaryOp::Atan2,
            ..
        } => 10.0,
        _ => 1.0,
    }
}

fn transcendental(op: UnaryOp) -> bool {
    use UnaryOp as U;
    matches!(
        op,
        U::Cbrt
            | U::Cos
            | U::Erf
            | U::Exp
            | U::Expm1
            | U::Log
            | U::Log1p
            | U::Logistic
            | U::Rsqrt
            | U::Sin
            | U::Tan
            | U::Tanh
    )
}

/// Scalar operations per iteration of a loop kernel's parallel dimension when
/// its nodes are emitted at their loops ([`node_levels`]): a node runs once per
/// index of the dimensions between the parallel one and its level, so a row
/// statistic counts once per row, not once per element.
fn hoisted_cost(space: &[i64], graph: &Graph, outputs: &[NodeId]) -> Result<f64> {
    let par = par_dim(space);
    let levels = node_levels(graph, par);
    let needed = graph.live(outputs);
    let mut cost = 0.0;
    for (i, n) in graph.nodes.iter().enumerate().filter(|&(i, _)| needed[i]) {
        let runs = match levels[i] {
            usize::MAX => 0.0,
            l => count(&space[par + 1..=l.max(par)]) as f64,
        };
        cost += runs * node_cost(n);
    }
    Ok(cost)
}

/// Whether a loop kernel can run as one flat loop: every use of a loop index is
/// an index of a load of the current element of an input shaped like `space`.
pub fn loop_is_flat(space: &[i64], graph: &Graph, outputs: &[NodeId], inputs: &[ArrayType]) -> bool {
    if space.len() < 2 {
        return false;
    }
    let is_index = |id: NodeId| matches!(graph.nodes.get(id.0 as usize), Some(Node::Index(_)));
    if outputs.iter().any(|&o| is_index(o)) {
        return false;
    }
    graph.nodes.iter().all(|n| match n {
        Node::Load { input, index } => {
            let identity = inputs.get(*input).is_some_and(|t| t.dims == space)
                && index.len() == space.len()
                && index.iter().enumerate().all(|(k, &i)| graph.nodes.get(i.0 as usize) == Some(&Node::Index(k)));
            identity || !index.iter().any(|&i| is_index(i))
        }
        other => !other.operands().into_iter().any(is_index),
    })
}

/// The loop each node of a loop kernel's graph belongs in: the largest space
/// dimension whose index it depends on (through operands, the initial values of
/// inline reductions and the enclosing nodes their bodies read), or `usize::MAX`
/// for nodes that depend on no loop index (constants, and indices of the
/// leading dimensions before `par`, which are 0).
pub fn node_levels(g: &Graph, par: usize) -> Vec<usize> {
    g.levels(|d| (d >= par).then_some(d)).into_iter().map(|l| l.unwrap_or(usize::MAX)).collect()
}

/// Tile edge for transposing loop kernels.
pub(super) const TILE: i64 = 32;

/// Whether a loop kernel over `space` has a load that transposes: its last
/// index is not the innermost loop index, which appears earlier instead. Such
/// kernels run in tiles (when the split dimension leaves two to tile).
pub(super) fn transposes(graph: &Graph, space: &[i64]) -> bool {
    transposed_dim(graph, space).is_some()
}

/// The dimension tiled with the innermost one in a transposing loop kernel
/// ([`transposes`]): the one the transposing load's own innermost index walks
/// (its contiguous direction), or the second innermost when that is not an
/// output dimension. `None` when no load transposes or the dimensions are too
/// short for tiles to pay.
pub(super) fn transposed_dim(graph: &Graph, space: &[i64]) -> Option<usize> {
    let r = space.len();
    if r < 2 || par_dim(space) > r - 2 || space[r - 1] < 2 * TILE {
        return None;
    }
    let index_of = |i: &NodeId| match graph.nodes.get(i.0 as usize) {
        Some(Node::Index(d)) => Some(*d),
        _ => None,
    };
    graph.nodes.iter().find_map(|n| match n {
        Node::Load { index, .. } => {
            let (last, rest) = index.split_last()?;
            if index_of(last) == Some(r - 1) || !rest.iter().any(|i| index_of(i) == Some(r - 1)) {
                return None;
            }
            // Tile the dimension the load reads contiguously when it is long enough
            // for a cache line of it to be used whole; else the second innermost.
            let d = match index_of(last) {
                Some(d) if d < r - 1 && d >= par_dim(space) && space[d] >= TILE / 2 => d,
                _ => r - 2,
            };
            (space[d] >= TILE / 2 && (d != r - 2 || space[d] >= 2 * TILE)).then_some(d)
        }
        _ => None,
    })
}

/// The space a loop kernel iterates (flattened when it can be).
pub(crate) fn loop_space(k: &Kernel, space: &[i64], graph: &Graph, outputs: &[NodeId]) -> Vec<i64> {
    if loop_is_flat(space, graph, outputs, &k.inputs) { vec![count(space)] } else { space.to_vec() }
}

/// The dimension of a space that is split across tasks: the first whose
/// extent is not 1 (leading unit dimensions would leave nothing to split).
pub fn par_dim(dims: &[i64]) -> usize {
    dims.iter().position(|&d| d != 1).unwrap_or(0)
}

/// The extent of [`par_dim`] (1 for a scalar space).
pub fn par_extent(dims: &[i64]) -> i64 {
    dims.get(par_dim(dims)).copied().unwrap_or(1).max(0)
}

/// The parallel dimension's extent and the cost of one of its iterations.
pub fn launch_shape(k: &Kernel) -> Result<LaunchShape> {
    let first = par_extent;
    let contiguous = |s: &[i64]| par_dim(s) + 1 >= s.len();
    let per = |total: i64, n: i64| if n > 0 { total as f64 / n as f64 } else { 0.0 };
    Ok(match &k.body {
        KernelBody::Loop { space, graph, outputs } => {
            let s = loop_space(k, space, graph, outputs);
            let n = first(&s);
            // Iterations that each reduce a window (a loop over rows whose
            // points reduce a row of their own: `logsumexp` per row) vectorize
            // inside the window, not across iterations: one is a task's worth
            // (whole vector runs per task would leave 512 rows one task).
            let reduces = graph.nodes.iter().any(|n| matches!(n, Node::Reduce(_)));
            let min_grain = if contiguous(&s) && !reduces {
                CONTIGUOUS_GRAIN
            } else if contiguous(&s) {
                1
            } else if s.len() == space.len() && transposes(graph, space) {
                // Whole tiles per task.
                TILE
            } else {
                1
            };
            let tiled = s.len() == space.len() && transposes(graph, space);
            let cost = if s.len() == space.len() && !tiled && !space.is_empty() {
                hoisted_cost(space, graph, outputs)?
            } else {
                per(count(&s), n) * graph_cost(graph)
            };
            LaunchShape { n, cost, parallel: true, min_grain }
        }
        KernelBody::Reduce { space, reduced, graph, init, .. } => {
            let kept: Vec<usize> = (0..space.len()).filter(|d| !reduced.contains(d)).collect();
            let kept_dims: Vec<i64> = kept.iter().map(|&d| space[d]).collect();
            let n = par_extent(&kept_dims);
            // Parallel over the kept innermost dimension: runs of whole cache
            // lines per task, at most a column block (a block as large as the
            // columns would leave the other threads idle).
            let acc: Vec<_> = init.iter().filter_map(|i| graph.types.get(i.0 as usize).copied()).collect();
            let inner = kept.last() == Some(&space.len().wrapping_sub(1)) && contiguous(&kept_dims);
            let min_grain = if inner { column_block(&acc).min(CONTIGUOUS_GRAIN) } else { 1 };
            LaunchShape { n, cost: per(count(space), n) * (graph_cost(graph) + 2.0), parallel: true, min_grain }
        }
        KernelBody::Scan { .. } => scan_launch(k)?,
        KernelBody::UpdateSlice { space, graph, .. } => {
            let n = first(space);
            let min_grain = if contiguous(space) { CONTIGUOUS_GRAIN } else { 1 };
            LaunchShape { n, cost: per(count(space), n) * graph_cost(graph), parallel: true, min_grain }
        }
        KernelBody::Scatter { space, graph, .. } => {
            let n = first(space);
            LaunchShape { n, cost: per(count(space), n) * graph_cost(graph), parallel: false, min_grain: 1 }
        }
        KernelBody::Sort { dims, dimension, .. } => {
            let len = dims.get(*dimension).copied().unwrap_or(1).max(1);
            let slices = count(dims) / len;
            let cost = len as f64 * (len as f64).log2().max(1.0) * 8.0 * k.inputs.len() as f64;
            LaunchShape { n: slices, cost, parallel: true, min_grain: 1 }
        }
        KernelBody::SelectAndScatter { .. } => LaunchShape { n: 1, cost: 1.0, parallel: false, min_grain: 1 },
        KernelBody::RngBitGenerator { algorithm } => {
            let (n, per_iter) = super::rng::rng_launch(*algorithm, k)?;
            LaunchShape { n, cost: per_iter, parallel: true, min_grain: 64 }
        }
    })
}

/// Kept elements per block in column order: about 16 KiB of accumulators, so
/// they stay in L1 while each input row streams through in long runs.
pub(crate) fn column_block(acc_types: &[DType]) -> i64 {
    let bytes: usize = acc_types.iter().map(|t| t.byte_size()).sum::<usize>().max(1);
    ((16384 / bytes) as i64).clamp(256, 4096) & !63
}

/// Elements of the dimensions after the axis per column-order task.
pub(super) const COLUMN_BLOCK: i64 = 512;
/// Rows per row-order task: enough side by side to cover the latency of an
/// expensive reducer (a log-add-exp chain is long), fewer when there are few
/// rows so that tasks remain to share.
pub(super) fn row_block(rows: i64) -> i64 {
    if rows >= 512 { 64 } else { 16 }
}
/// Steps along the axis per row-order tile.
pub(super) const TILE_STEPS: i64 = 32;

/// The shape of a scan: `outer` rows of `n` steps of `inner` contiguous elements.
#[derive(Clone, Copy, Debug)]
pub(super) struct Geom {
    pub outer: i64,
    pub n: i64,
    pub inner: i64,
}

impl Geom {
    pub(super) fn of(space: &[i64], axis: usize) -> Option<Geom> {
        let n = *space.get(axis)?;
        Some(Geom { outer: count(&space[..axis]), n, inner: count(&space[axis + 1..]) })
    }

    pub(super) fn column_order(&self) -> bool {
        self.inner > 1
    }

    /// Column order: blocks per outer index.
    pub(super) fn blocks(&self) -> i64 {
        let b = COLUMN_BLOCK.min(self.inner).max(1);
        (self.inner + b - 1) / b
    }

    /// Tasks of the parallel dimension (0 when there is nothing to compute).
    pub(super) fn tasks(&self) -> i64 {
        if self.n <= 0 || self.outer <= 0 || self.inner <= 0 {
            0
        } else if self.column_order() {
            self.outer * self.blocks()
        } else {
            let rb = row_block(self.outer);
            (self.outer + rb - 1) / rb
        }
    }

    /// Points one task computes (at most).
    pub(super) fn points_per_task(&self) -> i64 {
        if self.column_order() { COLUMN_BLOCK.min(self.inner) * self.n } else { row_block(self.outer) * self.n }
    }
}

/// The launch of a scan kernel: one iteration per task.
pub(crate) fn scan_launch(k: &Kernel) -> Result<LaunchShape> {
    let KernelBody::Scan { space, axis, graph, reducer, .. } = &k.body else {
        invalid!("kernel {} is not a scan", k.name);
    };
    let Some(g) = Geom::of(space, *axis) else {
        invalid!("kernel {}: scan axis {axis} outside a space of rank {}", k.name, space.len());
    };
    let per_point = graph_cost(graph) + graph_cost(&reducer.graph) + 2.0;
    Ok(LaunchShape { n: g.tasks(), cost: g.points_per_task() as f64 * per_point, parallel: true, min_grain: 1 })
}
