//! `Det`: determinants through LAPACK's LU factorization (`getrf`), the
//! custom call JAX's `jnp.linalg.det` lowers to, which every backend runs
//! through `smelt_linalg`: `P A = L U` with `L` unit lower triangular, so
//! `det A` is the product of `U`'s diagonal, negated for an odd number of
//! row swaps (pivot `i`, 1-based, not `i + 1`). A singular matrix has a
//! zero on that diagonal, and so a zero determinant.

use smelt_hlo::attrs::{ComparisonDirection, CustomCallAttrs};
use smelt_hlo::builder::Reducer;
use smelt_hlo::{Attrs, DType, Opcode, Shape};

use super::util::{convert, emit, input, reduce, select, splat};
use crate::graph::lower::{LowerCx, Val, at};
use crate::graph::{GraphError, Node, Result};

/// `Det`: `[..., n, n]` to `[...]`, f64 in f64 and the other float types
/// through f32 (LAPACK's two real precisions).
pub fn det(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let r = x.dims.len();
    if r < 2 || x.dims[r - 1] != x.dims[r - 2] {
        return Err(GraphError::node(node, format!("takes square matrices [..., n, n], not {:?}", x.dims)));
    }
    let (n, batch) = (x.dims[r - 1], &x.dims[..r - 2]);
    let (work, target) = match x.dtype {
        DType::F64 => (DType::F64, "lapack_dgetrf_ffi"),
        DType::F32 | DType::F16 | DType::Bf16 => (DType::F32, "lapack_sgetrf_ffi"),
        other => return Err(GraphError::unsupported(node, format!("Det of {other}: takes floats"))),
    };
    if n == 0 {
        // The empty product.
        return Ok(vec![splat(cx, node, x.dtype, 1.0, batch)?]);
    }
    let a = convert(cx, node, x, work)?;
    let pivots_dims = [batch, &[n]].concat();
    let shape = Shape::Tuple(vec![
        Shape::array(work, &x.dims),
        Shape::array(DType::S32, &pivots_dims),
        Shape::array(DType::S32, batch),
    ]);
    let attrs = Attrs::CustomCall(Box::new(CustomCallAttrs { target: target.into(), raw: Vec::new() }));
    let lu = at(node, cx.b.add_instruction(Opcode::CustomCall, &[a.id], attrs, &[], Some(shape)))?;
    let factors = emit(cx, node, |b| b.get_tuple_element(lu, 0))?;
    let pivots = emit(cx, node, |b| b.get_tuple_element(lu, 1))?;
    // U's diagonal: the factors where row == column, summed along the row.
    let row = emit(cx, node, |b| b.iota(Shape::array(DType::S32, &x.dims), (r - 2) as i64))?;
    let col = emit(cx, node, |b| b.iota(Shape::array(DType::S32, &x.dims), (r - 1) as i64))?;
    let on = emit(cx, node, |b| b.compare(ComparisonDirection::Eq, row.id, col.id))?;
    let zero = splat(cx, node, work, 0.0, &x.dims)?;
    let diagonal = select(cx, node, &on, &factors, &zero)?;
    let diagonal = reduce(cx, node, &diagonal, &[r - 1], Reducer::Add, false)?;
    let product = reduce(cx, node, &diagonal, &[r - 2], Reducer::Mul, false)?;
    // Row swaps: pivots that are not their own (1-based) row.
    let own = emit(cx, node, |b| b.iota(Shape::array(DType::S32, &pivots_dims), (r - 2) as i64))?;
    let one = splat(cx, node, DType::S32, 1.0, &pivots_dims)?;
    let own = emit(cx, node, |b| b.binary(Opcode::Add, own.id, one.id))?;
    let swapped = emit(cx, node, |b| b.compare(ComparisonDirection::Ne, pivots.id, own.id))?;
    let swaps = convert(cx, node, &swapped, DType::S32)?;
    let swaps = reduce(cx, node, &swaps, &[r - 2], Reducer::Add, false)?;
    let ones = splat(cx, node, DType::S32, 1.0, batch)?;
    let parity = emit(cx, node, |b| b.binary(Opcode::And, swaps.id, ones.id))?;
    let odd = emit(cx, node, |b| b.compare(ComparisonDirection::Eq, parity.id, ones.id))?;
    let negated = emit(cx, node, |b| b.unary(Opcode::Negate, product.id))?;
    let det = select(cx, node, &odd, &negated, &product)?;
    Ok(vec![convert(cx, node, &det, x.dtype)?])
}
