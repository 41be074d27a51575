//! Helpers shared by the golden tests: random inputs rich in edge cases (NaN,
//! infinities, -0, integer limits; `smelt_hlo::random`), and running a module
//! on the reference interpreter, so a test fails when a rewrite changes a result, not only when
//! the printed text differs.

use smelt_hlo::random::SplitMix;
use smelt_hlo::{Literal, Module};

/// Edge-heavy random arguments for the parameters of `m`'s entry.
pub fn edge_args(rng: &mut SplitMix, m: &Module) -> Vec<Literal> {
    rng.edge_args(&m.entry().param_shapes())
}

/// Runs the entry on the interpreter, with a bound on loop iterations so a
/// miscompiled loop (or a data-dependent loop given extreme inputs, such as the
/// Collatz case) fails quickly instead of hanging.
pub fn run(m: &Module, args: &[Literal]) -> Result<Literal, String> {
    let options = smelt_interp::Options { max_while_iterations: Some(10_000), ..Default::default() };
    smelt_interp::evaluate_with(m, m.entry, args, &options).map_err(|e| e.to_string())
}

/// Bitwise equality of every leaf, any NaN equal to any NaN.
pub fn same(a: &Literal, b: &Literal) -> bool {
    let (la, lb) = (a.leaves(), b.leaves());
    la.len() == lb.len()
        && la.iter().zip(&lb).all(|(x, y)| {
            x.dims == y.dims
                && x.dtype() == y.dtype()
                && (x.data == y.data
                    || (0..x.len()).all(|i| {
                        let (p, q) = (x.data.get_f64(i), y.data.get_f64(i));
                        (p.is_nan() && q.is_nan()) || p.to_bits() == q.to_bits()
                    }))
        })
}
