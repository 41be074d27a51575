//! StableHLO, the MLIR dialect JAX prints by default (`jax.jit(f).lower(x).as_text()`),
//! read into smelt's HLO IR.
//!
//! Reading is two steps: [`syntax`] turns text into a small tree of functions,
//! regions and ops (generic and pretty forms alike), and [`lower`] maps it onto HLO
//! through the module builder, so every op is shape-checked against the types the
//! text declares. CHLO ops without an HLO opcode are decomposed in [`chlo`]. Errors
//! are [`ParseError`]s with the `line:col` of the offending op or attribute.

mod chlo;
mod lower;
mod syntax;

use smelt_hlo::{Module, ParseError};

/// Parses StableHLO MLIR text into a module. The entry is `@main` (or the only
/// public function); functions it calls become computations.
pub fn parse_stablehlo(src: &str) -> Result<Module, ParseError> {
    let ast = syntax::parse(src)?;
    lower::lower(src, &ast)
}
