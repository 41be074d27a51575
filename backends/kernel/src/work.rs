//! How much work a step does per call, for telling a slow step from a heavy
//! one: `smelt bench --profile` flags a step whose time is far above what its
//! work allows ([`StepWork::suspicious`]), the regression guard against
//! performance cliffs (a kernel recomputing per element what it should hold,
//! a loop paying microseconds per scalar iteration).
//!
//! Work is counted in units of a class: elements visited times operations per
//! element for kernels (inline reductions count their windows), bytes for
//! copies, multiply-adds for products, comparisons for sorts. The allowances
//! are bounds orders of magnitude above any machine's norm (a kernel step may
//! take 2 µs plus 50 ns per 16 operations of each element, a copy 2 µs plus 2 ns
//! per byte, a product 10 µs plus 2 ns per multiply-add): a step over them is
//! not slow for its machine, it is doing something wrong on any machine.

use crate::ir::{Graph, KernelBody, Node, Program, Step, UnaryOp};

/// What kind of work a step does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WorkClass {
    /// A loop, reduce, scan, update-slice or scatter kernel: operations per element.
    Kernel,
    /// A buffer copy: bytes.
    Copy,
    /// A dot or convolution: multiply-adds.
    Product,
    /// A sort: comparisons (n log2 n per sorted row).
    Sort,
    /// Work the model does not size (never flagged).
    Other,
}

/// A step's work per call.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StepWork {
    pub class: WorkClass,
    pub units: f64,
}

/// Nanoseconds any call may take, whatever its work.
const CALL_NS: f64 = 2000.0;
/// The same for a library routine (products, sorts): it packs its operands
/// and may hand parts to the thread pool, a wake-up that alone takes
/// microseconds on a loaded machine.
const LIBRARY_CALL_NS: f64 = 10_000.0;

impl StepWork {
    /// The work of `step` of `program` (control flow has none of its own).
    pub fn of(program: &Program, step: &Step) -> StepWork {
        let (class, units) = match step {
            Step::Kernel { kernel, .. } => match program.kernels.get(kernel.0 as usize).map(|k| &k.body) {
                Some(KernelBody::Sort { dims, dimension, .. }) => {
                    let n = dims.get(*dimension).copied().unwrap_or(1).max(2) as f64;
                    (WorkClass::Sort, elements(dims) * n.log2())
                }
                Some(body) => match body.graph_and_space() {
                    Some((g, space)) => (WorkClass::Kernel, elements(space) * graph_ops(g, Count::Bound).max(1.0)),
                    None => (WorkClass::Other, 0.0),
                },
                None => (WorkClass::Other, 0.0),
            },
            Step::Copy { src, .. } => (WorkClass::Copy, src.ty.byte_size() as f64),
            Step::ParallelCopy { moves } => (WorkClass::Copy, moves.iter().map(|(s, _)| s.ty.byte_size() as f64).sum()),
            Step::Dot(d) => (WorkClass::Product, elements(&[d.batch, d.m, d.n, d.k])),
            Step::Conv(c) => {
                let out = elements(&c.out.ty.dims);
                let kernel = elements(&c.kernel.ty.dims);
                let out_features = c.out.ty.dims.get(c.dims.output_feature as usize).copied().unwrap_or(1).max(1);
                (WorkClass::Product, out * kernel / out_features as f64)
            }
            Step::CustomCall(_) | Step::While { .. } | Step::Conditional { .. } => (WorkClass::Other, 0.0),
        };
        StepWork { class, units }
    }

    /// Why `calls` calls taking `total_ns` in all are far slower than this
    /// work allows, or None (see the module comment).
    pub fn suspicious(&self, total_ns: f64, calls: u64) -> Option<String> {
        if calls == 0 {
            return None;
        }
        let (per_unit, fixed) = match self.class {
            WorkClass::Kernel => (50.0 / 16.0, CALL_NS),
            WorkClass::Copy => (2.0, CALL_NS),
            WorkClass::Product => (2.0, LIBRARY_CALL_NS),
            WorkClass::Sort => (20.0, LIBRARY_CALL_NS),
            WorkClass::Other => return None,
        };
        let per_call = total_ns / calls as f64;
        let allowed = fixed + self.units * per_unit;
        (per_call > allowed).then(|| {
            format!(
                "{per_call:.0} ns per call for {:.0} units of {:?} work: over the {allowed:.0} ns any machine needs",
                self.units, self.class
            )
        })
    }
}

/// A program's work per run by class, as it typically runs rather than
/// [`StepWork`]'s bounds (an inline reduction counts its body once per point,
/// not once per point of its window); a while loop's body and every branch
/// of a conditional count once, since trip counts and branches are known
/// only at run time.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ProgramWork {
    /// Kernel operations (elements times operations per element).
    pub kernel: f64,
    /// Bytes copied.
    pub copy: f64,
    /// Multiply-adds of products (dots and convolutions).
    pub product: f64,
    /// Comparisons of sorts.
    pub sort: f64,
}

impl ProgramWork {
    /// The work of `program`'s steps.
    pub fn of(program: &Program) -> ProgramWork {
        let mut w = ProgramWork::default();
        w.add_steps(program, &program.steps);
        w
    }

    fn add_steps(&mut self, program: &Program, steps: &[Step]) {
        for step in steps {
            match step {
                Step::While { cond, body, .. } => {
                    self.add_steps(program, cond);
                    self.add_steps(program, body);
                }
                Step::Conditional { branches, .. } => {
                    for b in branches {
                        self.add_steps(program, b);
                    }
                }
                Step::Kernel { kernel, .. }
                    if let Some((g, space)) =
                        program.kernels.get(kernel.0 as usize).and_then(|k| k.body.graph_and_space()) =>
                {
                    self.kernel += elements(space) * graph_ops(g, Count::Typical).max(1.0);
                }
                _ => {
                    let s = StepWork::of(program, step);
                    match s.class {
                        WorkClass::Kernel => self.kernel += s.units,
                        WorkClass::Copy => self.copy += s.units,
                        WorkClass::Product => self.product += s.units,
                        WorkClass::Sort => self.sort += s.units,
                        WorkClass::Other => {}
                    }
                }
            }
        }
    }
}

/// Operations sin, cos and tan may take: a huge argument's Payne-Hanek
/// reduction runs lane by lane, a few hundred scalar operations (docs/math.md).
const TRIG_OPS: f64 = 256.0;

/// How [`graph_ops`] counts.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Count {
    /// The most a point may cost: sin, cos and tan [`TRIG_OPS`], an inline
    /// reduction's body once per point of its window ([`StepWork`]'s bounds).
    Bound,
    /// As the code generators typically run it: every node once, an inline
    /// reduction's body once (a row reduction is computed once per row and
    /// its share per point is small) ([`ProgramWork`]).
    Typical,
}

/// Operations per point of a graph, counted as `count` says.
fn graph_ops(g: &Graph, count: Count) -> f64 {
    g.nodes
        .iter()
        .map(|n| match (n, count) {
            (Node::Unary { op: UnaryOp::Sin | UnaryOp::Cos | UnaryOp::Tan, .. }, Count::Bound) => TRIG_OPS,
            (Node::Reduce(r), Count::Bound) => {
                r.window.iter().map(|&w| w.max(1) as f64).product::<f64>() * graph_ops(&r.body, count).max(1.0)
            }
            (Node::Reduce(r), Count::Typical) => graph_ops(&r.body, count).max(1.0),
            _ => 1.0,
        })
        .sum()
}

/// Elements of an array of `dims` (negative extents count as empty).
fn elements(dims: &[i64]) -> f64 {
    dims.iter().map(|&x| x.max(0) as f64).product()
}

#[cfg(test)]
mod tests {
    use smelt_hlo::reducers::LT;

    use super::*;

    /// A program's typical work: products by their multiply-adds, sorts by
    /// comparisons, and a while loop's body once, whatever its trip count.
    #[test]
    fn program_work_counts_loop_bodies_once() {
        let hlo = format!(
            "HloModule w
{LT}cond {{
  s = (s32[], f32[256]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(1000)
  ROOT more = pred[] compare(i, n), direction=LT
}}
body {{
  s = (s32[], f32[256]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  v = f32[256] get-tuple-element(s), index=1
  one = s32[] constant(1)
  j = s32[] add(i, one)
  w = f32[256] multiply(v, v)
  ROOT t = (s32[], f32[256]) tuple(j, w)
}}
ENTRY e {{
  a = f32[64,32] parameter(0)
  b = f32[32,16] parameter(1)
  x = f32[1024] parameter(2)
  v = f32[256] parameter(3)
  d = f32[64,16] dot(a, b), lhs_contracting_dims={{1}}, rhs_contracting_dims={{0}}
  s = f32[1024] sort(x), dimensions={{0}}, to_apply=lt
  zero = s32[] constant(0)
  init = (s32[], f32[256]) tuple(zero, v)
  l = (s32[], f32[256]) while(init), condition=cond, body=body
  r = f32[256] get-tuple-element(l), index=1
  ROOT t = (f32[64,16], f32[1024], f32[256]) tuple(d, s, r)
}}
"
        );
        let program = crate::lower_module(&smelt_hlo::parse_module(&hlo).unwrap()).unwrap();
        let w = ProgramWork::of(&program);
        assert_eq!(w.product, (64 * 16 * 32) as f64);
        assert_eq!(w.sort, 1024.0 * 10.0);
        // The loop's multiply (256 elements) counts once, not a thousand
        // times (with the state's copies lowering adds, a few times 256).
        assert!(w.kernel >= 256.0 && w.kernel < 10.0 * 256.0, "{w:?}");
    }

    #[test]
    fn steps_are_flagged_only_far_past_their_work() {
        // 1,000 elements of 10 operations: 2 µs + 10,000 * 50/16 ns allowed.
        let k = StepWork { class: WorkClass::Kernel, units: 10_000.0 };
        assert!(k.suspicious(30_000.0 * 100.0, 100).is_none());
        let why = k.suspicious(40_000.0 * 100.0, 100).expect("40 µs per call is over 33.25 µs");
        assert!(why.contains("40000 ns per call for 10000 units of Kernel work"), "{why}");
        // A scalar kernel in a loop: tens of ns is the norm, microseconds a cliff.
        let scalar = StepWork { class: WorkClass::Kernel, units: 3.0 };
        assert!(scalar.suspicious(50.0 * 65_536.0, 65_536).is_none());
        assert!(scalar.suspicious(5_500.0 * 65_536.0, 65_536).is_some());
        // Copies by the byte; work the model does not size, and steps that did
        // not run, are never flagged.
        let copy = StepWork { class: WorkClass::Copy, units: 262_144.0 };
        assert!(copy.suspicious(100_000.0, 1).is_none());
        assert!(copy.suspicious(1e7, 1).is_some());
        // A tiny product pays its routine's fixed cost, not a cliff.
        let outer = StepWork { class: WorkClass::Product, units: 768.0 };
        assert!(outer.suspicious(4_800.0, 1).is_none());
        assert!(outer.suspicious(50_000.0, 1).is_some());
        assert!(StepWork { class: WorkClass::Other, units: 0.0 }.suspicious(1e12, 1).is_none());
        assert!(k.suspicious(1e12, 0).is_none());
    }
}
