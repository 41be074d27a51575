//! The scalar computations that reduce-style HLO (reduce, reduce-window,
//! scatter, sort) names in `to_apply`, as HLO text, for tests and examples to
//! splice into the modules they write, so that each is spelled once. Each
//! constant holds one computation, named as the constant in lower case.

/// `add`: f32 sum.
pub const ADD: &str = "add {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n  ROOT s = f32[] add(x, y)\n}\n";
/// `mul`: f32 product.
pub const MUL: &str = "mul {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n  ROOT m = f32[] multiply(x, y)\n}\n";
/// `max`: f32 maximum.
pub const MAX: &str = "max {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n  ROOT m = f32[] maximum(x, y)\n}\n";
/// `min`: f32 minimum.
pub const MIN: &str = "min {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n  ROOT m = f32[] minimum(x, y)\n}\n";
/// `or`: pred disjunction.
pub const OR: &str = "or {\n  x = pred[] parameter(0)\n  y = pred[] parameter(1)\n  ROOT o = pred[] or(x, y)\n}\n";
/// `lt`: the f32 less-than comparator of an ascending sort.
pub const LT: &str =
    "lt {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n  ROOT c = pred[] compare(x, y), direction=LT\n}\n";
/// `logaddexp`: `log(exp(a) + exp(b))` as `max(a, b) + log1p(exp(-|a - b|))`,
/// the reducer of a cumulative logsumexp.
pub const LOGADDEXP: &str = "logaddexp {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  m = f32[] maximum(a, b)
  d = f32[] subtract(a, b)
  ad = f32[] abs(d)
  n = f32[] negate(ad)
  e = f32[] exponential(n)
  l = f32[] log-plus-one(e)
  ROOT r = f32[] add(m, l)
}
";
