//! Reductions: reduce, reduce-window and select-and-scatter.
//!
//! Reductions apply the reducer sequentially, in row-major order of the reduced
//! elements, starting from the init value (`acc = f(acc, x)`), as XLA's
//! evaluator does; XLA CPU may reassociate, which the corpus tolerances cover.
//! A reducer that is a single add/multiply/max/min/and/or of its two parameters
//! runs as a typed loop; any other reducer (variadic argmax-style ones included)
//! runs through [`Applier`] on scalars. Window positions that fall into padding
//! or between dilated base elements are skipped, as XLA does.

use smelt_hlo::attrs::Window;
use smelt_hlo::{Array, ArrayData, CompId, DType, Element, Literal, Opcode, with_data};

use crate::apply::{Applier, simple_binary};
use crate::error::{Fail, KResult, invalid};
use crate::eval::Evaluator;
use crate::index::{Odometer, adims, check_dim_list, count, make, strides};
use crate::num::Elem;
use crate::value::{Scalar, binary_ok, scalar_of};

/// Checks variadic operands and their init values; returns the element types.
fn check_operands(inputs: &[&Array], inits: &[&Array]) -> KResult<Vec<DType>> {
    if inputs.is_empty() || inputs.len() != inits.len() {
        invalid!("{} inputs with {} init values", inputs.len(), inits.len());
    }
    let mut dtypes = Vec::with_capacity(inputs.len());
    for (a, i) in inputs.iter().zip(inits) {
        if a.dims != inputs[0].dims {
            invalid!("inputs {} and {} differ in shape", inputs[0].shape(), a.shape());
        }
        scalar_of(i, "init value")?;
        if i.dtype() != a.dtype() {
            invalid!("init value {} does not match input {}", i.shape(), a.shape());
        }
        dtypes.push(a.dtype());
    }
    Ok(dtypes)
}

/// The reducer's fast op, if it has one that applies to `dtypes`; its signature
/// is checked as on the general path.
fn fast_op(ev: &Evaluator<'_>, comp: CompId, dtypes: &[DType]) -> KResult<Option<Opcode>> {
    let c = ev.comp(comp).map_err(Fail::from)?;
    let op = match (dtypes, simple_binary(c)) {
        ([d], Some(op)) if binary_ok(*d, op) => op,
        _ => return Ok(None),
    };
    // Validate the reducer's signature even on the fast path.
    Applier::new(ev, comp, &[dtypes[0], dtypes[0]], &[dtypes[0]])?;
    Ok(Some(op))
}

/// The value of the scalar `init`, typed like `_like`.
fn typed_init<T: Element>(_like: &[T], init: &Array) -> KResult<T> {
    match T::unwrap(&init.data) {
        Some(i) => Ok(i[0]),
        None => invalid!("init type mismatch"),
    }
}

/// Typed fold of `offsets` (relative to `base`) with a fast op.
#[inline]
fn fold<T: Elem>(op: Opcode, v: &[T], init: T, base: usize, offsets: &[usize]) -> T {
    macro_rules! go {
        ($op:expr) => {
            offsets.iter().fold(init, |acc, &o| T::binary($op, acc, v[base + o]))
        };
    }
    match op {
        Opcode::Add => go!(Opcode::Add),
        Opcode::Maximum => go!(Opcode::Maximum),
        Opcode::Minimum => go!(Opcode::Minimum),
        Opcode::Multiply => go!(Opcode::Multiply),
        _ => go!(op),
    }
}

/// Builds the result: one array, or a tuple of them for variadic reductions.
fn result(dims: &[usize], data: Vec<ArrayData>) -> Literal {
    let mut arrays: Vec<Literal> = data.into_iter().map(|d| Literal::Array(make(dims, d))).collect();
    if arrays.len() == 1 { arrays.pop().unwrap_or(Literal::Tuple(Vec::new())) } else { Literal::Tuple(arrays) }
}

/// Runs a general (or variadic) reducer over groups of input offsets.
struct General<'e, 'm> {
    applier: Applier<'e, 'm>,
    args: Vec<Scalar>,
    accs: Vec<Scalar>,
}

impl<'e, 'm> General<'e, 'm> {
    fn new(ev: &'e Evaluator<'m>, comp: CompId, dtypes: &[DType]) -> KResult<Self> {
        let params: Vec<DType> = dtypes.iter().chain(dtypes).copied().collect();
        Ok(General {
            applier: Applier::new(ev, comp, &params, dtypes)?,
            args: Vec::with_capacity(2 * dtypes.len()),
            accs: Vec::with_capacity(dtypes.len()),
        })
    }

    /// Reduces the elements at `offsets` of every input, writing element `o` of `outs`.
    fn reduce_into(
        &mut self,
        inputs: &[&Array],
        inits: &[Scalar],
        offsets: impl Iterator<Item = usize>,
        outs: &mut [ArrayData],
        o: usize,
    ) -> KResult<()> {
        self.accs.clear();
        self.accs.extend_from_slice(inits);
        for off in offsets {
            self.args.clear();
            self.args.extend_from_slice(&self.accs);
            self.args.extend(inputs.iter().map(|a| Scalar::get(&a.data, off)));
            self.applier.call(&self.args, &mut self.accs)?;
        }
        for (out, &acc) in outs.iter_mut().zip(&self.accs) {
            if !acc.set(out, o) {
                invalid!("reducer result type {} does not match", acc.dtype());
            }
        }
        Ok(())
    }
}

pub(crate) fn reduce(
    ev: &Evaluator<'_>,
    comp: CompId,
    inputs: &[&Array],
    inits: &[&Array],
    dimensions: &[i64],
) -> KResult<Literal> {
    let dtypes = check_operands(inputs, inits)?;
    let src = adims(inputs[0]);
    let mut red = check_dim_list(dimensions, src.len(), "reduce dimension")?;
    red.sort_unstable();
    let kept: Vec<usize> = (0..src.len()).filter(|d| !red.contains(d)).collect();
    let ss = strides(&src);
    let out_dims: Vec<usize> = kept.iter().map(|&d| src[d]).collect();
    let red_dims: Vec<usize> = red.iter().map(|&d| src[d]).collect();
    let n_out = count(&out_dims)?;
    let offsets = |dims: &[usize], which: &[usize]| -> KResult<Vec<usize>> {
        let mut v = Vec::with_capacity(count(dims)?);
        let mut it = Odometer::new(dims);
        while let Some(idx) = it.next() {
            v.push(idx.iter().zip(which).map(|(&i, &d)| i * ss[d]).sum());
        }
        Ok(v)
    };
    let outer = offsets(&out_dims, &kept)?;
    let inner = offsets(&red_dims, &red)?;
    let init_scalars: Vec<Scalar> = inits.iter().map(|i| Scalar::get(&i.data, 0)).collect();

    if let Some(op) = fast_op(ev, comp, &dtypes)? {
        let data = with_data!(&inputs[0].data, v => {
            let init = typed_init(v, inits[0])?;
            let out: Vec<_> = outer.iter().map(|&b| fold(op, v, init, b, &inner)).collect();
            Element::wrap(out)
        });
        return Ok(result(&out_dims, vec![data]));
    }

    let mut general = General::new(ev, comp, &dtypes)?;
    let mut outs: Vec<ArrayData> = dtypes.iter().map(|&d| ArrayData::zeros(d, n_out)).collect();
    for (o, &b) in outer.iter().enumerate() {
        general.reduce_into(inputs, &init_scalars, inner.iter().map(|&i| b + i), &mut outs, o)?;
    }
    Ok(result(&out_dims, outs))
}

/// Where each window of a reduce-window (or select-and-scatter) reads.
struct WindowGeom {
    out_dims: Vec<usize>,
    /// Per dimension: (size, stride, padding low, window dilation, base dilation).
    dims: Vec<(i64, i64, i64, i64, i64)>,
    in_dims: Vec<usize>,
    in_strides: Vec<usize>,
}

impl WindowGeom {
    fn new(window: &Window, in_dims: &[usize]) -> KResult<WindowGeom> {
        if window.dims.len() != in_dims.len() {
            invalid!("window has {} dimensions, operand rank is {}", window.dims.len(), in_dims.len());
        }
        let mut out_dims = Vec::with_capacity(in_dims.len());
        let mut dims = Vec::with_capacity(in_dims.len());
        for (k, (w, &d)) in window.dims.iter().zip(in_dims).enumerate() {
            if w.size < 0 || w.stride < 1 || w.window_dilation < 1 || w.base_dilation < 1 {
                invalid!("window dimension {k} has a non-positive size, stride or dilation");
            }
            let base = if d == 0 { 0 } else { (d as i128 - 1) * w.base_dilation as i128 + 1 };
            let padded = base + w.pad_low as i128 + w.pad_high as i128;
            let extent = if w.size == 0 { 0 } else { (w.size as i128 - 1) * w.window_dilation as i128 + 1 };
            if padded < 0 {
                invalid!("padding makes window dimension {k} negative");
            }
            let n = if padded < extent { 0 } else { (padded - extent) / w.stride as i128 + 1 };
            if n > i64::MAX as i128 {
                invalid!("window dimension {k} is too large");
            }
            out_dims.push(n as usize);
            dims.push((w.size, w.stride, w.pad_low, w.window_dilation, w.base_dilation));
        }
        count(&out_dims)?;
        Ok(WindowGeom { out_dims, dims, in_dims: in_dims.to_vec(), in_strides: strides(in_dims) })
    }

    /// The input offsets inside the window at output index `o`, in row-major
    /// window order; padding and dilation holes are skipped.
    fn offsets(&self, o: &[usize], per_dim: &mut Vec<Vec<usize>>, buf: &mut Vec<usize>) {
        per_dim.resize_with(self.dims.len(), Vec::new);
        for (k, &(size, stride, lo, wdil, bdil)) in self.dims.iter().enumerate() {
            let v = &mut per_dim[k];
            v.clear();
            let start = o[k] as i128 * stride as i128 - lo as i128;
            let (wdil, bdil) = (wdil as i128, bdil as i128);
            let d = self.in_dims[k];
            if (size as u128) <= d as u128 {
                // Walk the window: position `start + w * wdil` in the dilated, padded input.
                for w in 0..size as i128 {
                    let p = start + w * wdil;
                    if p >= 0 && p % bdil == 0 && p / bdil < d as i128 {
                        v.push((p / bdil) as usize * self.in_strides[k]);
                    }
                }
            } else {
                // Fewer inputs than window taps: walk the inputs instead (same order).
                for i in 0..d {
                    let off = i as i128 * bdil - start;
                    if off >= 0 && off % wdil == 0 && off / wdil < size as i128 {
                        v.push(i * self.in_strides[k]);
                    }
                }
            }
        }
        buf.clear();
        if per_dim.iter().any(|v| v.is_empty()) {
            return;
        }
        let rank = per_dim.len();
        let mut idx = vec![0usize; rank];
        loop {
            buf.push(idx.iter().zip(per_dim.iter()).map(|(&i, v)| v[i]).sum());
            let mut k = rank;
            loop {
                if k == 0 {
                    return;
                }
                k -= 1;
                idx[k] += 1;
                if idx[k] < per_dim[k].len() {
                    break;
                }
                idx[k] = 0;
            }
        }
    }
}

pub(crate) fn reduce_window(
    ev: &Evaluator<'_>,
    comp: CompId,
    inputs: &[&Array],
    inits: &[&Array],
    window: &Window,
) -> KResult<Literal> {
    let dtypes = check_operands(inputs, inits)?;
    let geom = WindowGeom::new(window, &adims(inputs[0]))?;
    let n_out = count(&geom.out_dims)?;
    let init_scalars: Vec<Scalar> = inits.iter().map(|i| Scalar::get(&i.data, 0)).collect();
    let mut per_dim = Vec::new();
    let mut buf = Vec::new();
    let mut it = Odometer::new(&geom.out_dims);

    if let Some(op) = fast_op(ev, comp, &dtypes)? {
        let data = with_data!(&inputs[0].data, v => {
            let init = typed_init(v, inits[0])?;
            let mut out = Vec::with_capacity(n_out);
            while let Some(o) = it.next() {
                geom.offsets(o, &mut per_dim, &mut buf);
                out.push(fold(op, v, init, 0, &buf));
            }
            Element::wrap(out)
        });
        return Ok(result(&geom.out_dims, vec![data]));
    }

    let mut general = General::new(ev, comp, &dtypes)?;
    let mut outs: Vec<ArrayData> = dtypes.iter().map(|&d| ArrayData::zeros(d, n_out)).collect();
    let mut o = 0;
    while let Some(idx) = it.next() {
        geom.offsets(idx, &mut per_dim, &mut buf);
        general.reduce_into(inputs, &init_scalars, buf.iter().copied(), &mut outs, o)?;
        o += 1;
    }
    Ok(result(&geom.out_dims, outs))
}

/// `select-and-scatter`: for each window (one per `source` element) the `select`
/// computation picks an operand element (keeping the current pick while
/// `select(picked, candidate)` is true), and `scatter` combines the source value
/// into the output at that position. The output starts as `init` everywhere.
pub(crate) fn select_and_scatter(
    ev: &Evaluator<'_>,
    select: CompId,
    scatter: CompId,
    operand: &Array,
    source: &Array,
    init: &Array,
    window: &Window,
) -> KResult<Array> {
    let dims = adims(operand);
    let geom = WindowGeom::new(window, &dims)?;
    if geom.out_dims != adims(source) {
        invalid!("source shape {} does not match the {} windows of the operand", source.shape(), geom.out_dims.len());
    }
    let init_v = scalar_of(init, "init value")?;
    if init_v.dtype() != source.dtype() {
        invalid!("init value {} does not match source {}", init.shape(), source.shape());
    }
    let mut sel = Applier::new(ev, select, &[operand.dtype(), operand.dtype()], &[DType::Pred])?;
    let st = source.dtype();
    let mut sc = Applier::new(ev, scatter, &[st, st], &[st])?;
    let mut out = init_v.splat(count(&dims)?);
    let mut per_dim = Vec::new();
    let mut buf = Vec::new();
    let mut it = Odometer::new(&geom.out_dims);
    let mut s = 0usize;
    while let Some(idx) = it.next() {
        geom.offsets(idx, &mut per_dim, &mut buf);
        let mut picked: Option<usize> = None;
        for &off in &buf {
            picked = match picked {
                None => Some(off),
                Some(p) => {
                    let keep = sel.call1(&[Scalar::get(&operand.data, p), Scalar::get(&operand.data, off)])?;
                    if keep.as_pred().unwrap_or(false) { Some(p) } else { Some(off) }
                }
            };
        }
        if let Some(p) = picked {
            let v = sc.call1(&[Scalar::get(&out, p), Scalar::get(&source.data, s)])?;
            if !v.set(&mut out, p) {
                invalid!("scatter result type {} does not match", v.dtype());
            }
        }
        s += 1;
    }
    Ok(make(&dims, out))
}
