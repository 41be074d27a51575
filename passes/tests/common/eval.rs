//! A small reference evaluator for the golden tests: it runs a module before and
//! after the passes on the same inputs so a test fails when a rewrite changes a
//! result, not only when the printed text differs.
//!
//! It stands in for the interpreter crate (not in this branch yet) and covers what
//! the golden tests use: float, integer and pred arrays (a few ops report
//! `unsupported`), elementwise ops with XLA's edge cases, data movement, dot,
//! single-input reduce, tuples, while, call and fusion. Floats are computed in f64
//! and rounded to the element type after every op, which gives IEEE f32 results for
//! +, -, *, / exactly. Dot sums in f64 before rounding.

use smelt_hlo::attrs::{CompareType, ComparisonDirection};
use smelt_hlo::{ArrayData, Attrs, CompId, Computation, DType, InstId, Literal, Module, Opcode};

#[derive(Clone, Debug, PartialEq)]
pub enum Data {
    F(Vec<f64>),
    I(Vec<i128>),
}

#[derive(Clone, Debug)]
pub struct Arr {
    pub dtype: DType,
    pub dims: Vec<i64>,
    pub data: Data,
}

#[derive(Clone, Debug)]
pub enum Value {
    Arr(Arr),
    Tuple(Vec<Value>),
}

pub type Result<T> = std::result::Result<T, String>;

fn unsupported<T>(what: impl std::fmt::Display) -> Result<T> {
    Err(format!("unsupported: {what}"))
}

impl Value {
    /// Bitwise equality, any NaN equal to any NaN.
    pub fn same(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Tuple(a), Value::Tuple(b)) => a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.same(y)),
            (Value::Arr(a), Value::Arr(b)) => {
                a.dtype == b.dtype
                    && a.dims == b.dims
                    && match (&a.data, &b.data) {
                        (Data::F(x), Data::F(y)) => {
                            x.iter().zip(y).all(|(p, q)| (p.is_nan() && q.is_nan()) || p.to_bits() == q.to_bits())
                        }
                        (Data::I(x), Data::I(y)) => x == y,
                        _ => false,
                    }
            }
            _ => false,
        }
    }

    fn arr(&self) -> Result<&Arr> {
        match self {
            Value::Arr(a) => Ok(a),
            Value::Tuple(_) => Err("expected an array".into()),
        }
    }
}

fn count(dims: &[i64]) -> usize {
    dims.iter().product::<i64>().max(0) as usize
}

fn strides(dims: &[i64]) -> Vec<i64> {
    let mut s = vec![1; dims.len()];
    for i in (0..dims.len().saturating_sub(1)).rev() {
        s[i] = s[i + 1] * dims[i + 1];
    }
    s
}

fn unflatten(mut i: usize, dims: &[i64], out: &mut [i64]) {
    for d in (0..dims.len()).rev() {
        let n = dims[d].max(1) as usize;
        out[d] = (i % n) as i64;
        i /= n;
    }
}

/// Rounds a float to the element type.
fn round(dtype: DType, x: f64) -> Result<f64> {
    match dtype {
        DType::F32 => Ok(x as f32 as f64),
        DType::F64 => Ok(x),
        DType::F16 => Ok(round_to(x, 11, -14, 15)),
        DType::Bf16 => Ok(round_to(x, 8, -126, 127)),
        t => unsupported(t),
    }
}

/// Rounds to nearest-even with a `p`-bit significand and exponents `emin..=emax`
/// (subnormals and overflow to infinity included).
fn round_to(x: f64, p: i32, emin: i32, emax: i32) -> f64 {
    if !x.is_finite() || x == 0.0 {
        return x;
    }
    let e = (((x.to_bits() >> 52) & 0x7ff) as i32 - 1023).max(emin);
    let ulp = 2f64.powi(e - (p - 1));
    let q = (x / ulp).round_ties_even() * ulp;
    if q.abs() >= 2f64.powi(emax + 1) { f64::INFINITY.copysign(x) } else { q }
}

/// Wraps an integer to the element type (pred: nonzero is true).
fn wrap(dtype: DType, v: i128) -> i128 {
    match dtype {
        DType::Pred => i128::from(v != 0),
        t => {
            let bits = t.bit_width() as u32;
            let m = v & ((1i128 << bits) - 1);
            if t.is_signed_int() && m >= 1i128 << (bits - 1) { m - (1i128 << bits) } else { m }
        }
    }
}

fn int_min(t: DType) -> i128 {
    if t.is_signed_int() { -(1i128 << (t.bit_width() - 1)) } else { 0 }
}

fn int_max(t: DType) -> i128 {
    match t {
        DType::Pred => 1,
        t if t.is_signed_int() => (1i128 << (t.bit_width() - 1)) - 1,
        t => (1i128 << t.bit_width()) - 1,
    }
}

impl Arr {
    fn build(dtype: DType, dims: Vec<i64>, f: impl Fn(usize) -> Num) -> Result<Arr> {
        let n = count(&dims);
        let data = if dtype.is_float() {
            let mut v = Vec::with_capacity(n);
            for i in 0..n {
                v.push(round(dtype, f(i).f())?);
            }
            Data::F(v)
        } else {
            Data::I((0..n).map(|i| wrap(dtype, f(i).i())).collect())
        };
        Ok(Arr { dtype, dims, data })
    }

    fn get(&self, i: usize) -> Num {
        match &self.data {
            Data::F(v) => Num::F(v[i]),
            Data::I(v) => Num::I(v[i]),
        }
    }

    /// The same elements moved: output element `i` is input element `src(i)`, or
    /// `fill` where `src` gives `None`.
    fn moved(&self, dims: Vec<i64>, fill: Option<Num>, src: impl Fn(&[i64]) -> Option<usize>) -> Result<Arr> {
        let mut idx = vec![0; dims.len()];
        let n = count(&dims);
        let mut out = Vec::with_capacity(n);
        for i in 0..n {
            unflatten(i, &dims, &mut idx);
            out.push(match src(&idx) {
                Some(j) => self.get(j),
                None => fill.ok_or("no fill value")?,
            });
        }
        Arr::build(self.dtype, dims, |i| out[i])
    }

    fn flat(&self, idx: &[i64]) -> usize {
        idx.iter().zip(strides(&self.dims)).map(|(i, s)| i * s).sum::<i64>() as usize
    }
}

#[derive(Clone, Copy, Debug)]
enum Num {
    F(f64),
    I(i128),
}

impl Num {
    fn f(self) -> f64 {
        match self {
            Num::F(x) => x,
            Num::I(v) => v as f64,
        }
    }
    fn i(self) -> i128 {
        match self {
            Num::I(v) => v,
            Num::F(x) => x as i128,
        }
    }
}

fn from_literal(lit: &Literal) -> Result<Value> {
    match lit {
        Literal::Tuple(t) => Ok(Value::Tuple(t.iter().map(from_literal).collect::<Result<_>>()?)),
        Literal::Array(a) => {
            let data = match &a.data {
                ArrayData::F32(v) => Data::F(v.iter().map(|&x| x as f64).collect()),
                ArrayData::F64(v) => Data::F(v.clone()),
                ArrayData::F16(v) => Data::F(v.iter().map(|x| x.to_f64()).collect()),
                ArrayData::Bf16(v) => Data::F(v.iter().map(|x| x.to_f64()).collect()),
                d => Data::I((0..d.len()).map(|i| d.get_f64(i) as i128).collect()),
            };
            // get_f64 is exact below 2^53; wider integers are read precisely here.
            let data = match (&a.data, data) {
                (ArrayData::S64(v), _) => Data::I(v.iter().map(|&x| x as i128).collect()),
                (ArrayData::U64(v), _) => Data::I(v.iter().map(|&x| x as i128).collect()),
                (_, d) => d,
            };
            Ok(Value::Arr(Arr { dtype: a.dtype(), dims: a.dims.to_vec(), data }))
        }
    }
}

/// Evaluates the entry computation on `args`.
pub fn run(m: &Module, args: &[Value]) -> Result<Value> {
    let mut steps = 0u64;
    call(m, m.entry, args, &mut steps)
}

fn call(m: &Module, cid: CompId, args: &[Value], steps: &mut u64) -> Result<Value> {
    let c = m.comp(cid);
    let mut vals: Vec<Option<Value>> = vec![None; c.insts.capacity()];
    for id in c.post_order() {
        *steps += 1;
        if *steps > 2_000_000 {
            return Err("evaluation too long".into());
        }
        let v = eval(m, c, id, &vals, args, steps)?;
        vals[id.index()] = Some(v);
    }
    vals[c.root.index()].take().ok_or_else(|| "no root value".into())
}

fn eval(
    m: &Module,
    c: &Computation,
    id: InstId,
    vals: &[Option<Value>],
    args: &[Value],
    steps: &mut u64,
) -> Result<Value> {
    let inst = c.inst(id);
    let get = |i: usize| -> Result<&Value> {
        vals[inst.operands[i].index()].as_ref().ok_or_else(|| "operand not ready".to_string())
    };
    let arr = |i: usize| -> Result<&Arr> { get(i)?.arr() };
    let out = inst.shape.as_array();
    let out_dims = || out.map(|a| a.dims.to_vec()).unwrap_or_default();
    let out_type = || out.map(|a| a.dtype).unwrap_or(DType::Pred);
    use Opcode as O;
    let v = match inst.opcode {
        O::Parameter => args.get(inst.parameter_number().unwrap_or(0) as usize).cloned().ok_or("missing argument")?,
        O::Constant => match &inst.attrs {
            Attrs::Constant(lit) => from_literal(lit)?,
            _ => return unsupported("constant"),
        },
        O::Iota => {
            let Attrs::Iota { dimension } = inst.attrs else {
                return unsupported("iota");
            };
            let dims = out_dims();
            let mut idx = vec![0; dims.len()];
            let vals: Vec<i64> = (0..count(&dims))
                .map(|i| {
                    unflatten(i, &dims, &mut idx);
                    idx[dimension as usize]
                })
                .collect();
            Value::Arr(Arr::build(out_type(), dims, |i| {
                if out_type().is_float() { Num::F(vals[i] as f64) } else { Num::I(vals[i] as i128) }
            })?)
        }
        O::Tuple => Value::Tuple((0..inst.operands.len()).map(|i| get(i).cloned()).collect::<Result<_>>()?),
        O::GetTupleElement => {
            let Attrs::GetTupleElement { index } = inst.attrs else {
                return unsupported("gte");
            };
            match get(0)? {
                Value::Tuple(t) => t.get(index as usize).cloned().ok_or("bad index")?,
                _ => return Err("gte of an array".into()),
            }
        }
        O::Call | O::Fusion => {
            let ops: Vec<Value> = (0..inst.operands.len()).map(|i| get(i).cloned()).collect::<Result<_>>()?;
            call(m, inst.called[0], &ops, steps)?
        }
        O::While => {
            let (cond, body) = (inst.called[0], inst.called[1]);
            let mut state = get(0)?.clone();
            loop {
                let p = call(m, cond, std::slice::from_ref(&state), steps)?;
                if p.arr()?.get(0).i() == 0 {
                    break state;
                }
                state = call(m, body, std::slice::from_ref(&state), steps)?;
            }
        }
        O::Broadcast => {
            let x = arr(0)?;
            let map = inst.attrs.dimensions().to_vec();
            let xs = strides(&x.dims);
            Value::Arr(x.moved(out_dims(), None, |idx| {
                Some(map.iter().zip(&xs).map(|(&d, s)| idx[d as usize] * s).sum::<i64>() as usize)
            })?)
        }
        O::Reshape => {
            let x = arr(0)?;
            Value::Arr(x.moved(out_dims(), None, {
                let dims = out_dims();
                let st = strides(&dims);
                move |idx| Some(idx.iter().zip(&st).map(|(i, s)| i * s).sum::<i64>() as usize)
            })?)
        }
        O::Transpose => {
            let x = arr(0)?;
            let perm = inst.attrs.dimensions().to_vec();
            let xs = strides(&x.dims);
            Value::Arr(x.moved(out_dims(), None, |idx| {
                Some(perm.iter().enumerate().map(|(i, &p)| idx[i] * xs[p as usize]).sum::<i64>() as usize)
            })?)
        }
        O::Reverse => {
            let x = arr(0)?;
            let rev = inst.attrs.dimensions().to_vec();
            Value::Arr(x.moved(out_dims(), None, |idx| {
                let mut j = idx.to_vec();
                for &d in &rev {
                    j[d as usize] = x.dims[d as usize] - 1 - j[d as usize];
                }
                Some(x.flat(&j))
            })?)
        }
        O::Slice => {
            let Attrs::Slice(s) = &inst.attrs else {
                return unsupported("slice");
            };
            let x = arr(0)?;
            Value::Arr(x.moved(out_dims(), None, |idx| {
                let j: Vec<i64> = idx.iter().zip(s).map(|(i, d)| d.start + i * d.stride).collect();
                Some(x.flat(&j))
            })?)
        }
        O::Pad => {
            let Attrs::Pad(p) = &inst.attrs else {
                return unsupported("pad");
            };
            let (x, fill) = (arr(0)?, arr(1)?.get(0));
            Value::Arr(x.moved(out_dims(), Some(fill), |idx| {
                let mut j = Vec::with_capacity(idx.len());
                for (d, (&i, pd)) in idx.iter().zip(p).enumerate() {
                    let k = i - pd.low;
                    if k < 0 || k % (pd.interior + 1) != 0 {
                        return None;
                    }
                    let k = k / (pd.interior + 1);
                    if k >= x.dims[d] {
                        return None;
                    }
                    j.push(k);
                }
                Some(x.flat(&j))
            })?)
        }
        O::Concatenate => {
            let Attrs::Concatenate { dimension } = inst.attrs else {
                return unsupported("concatenate");
            };
            let d = dimension as usize;
            let parts: Vec<&Arr> = (0..inst.operands.len()).map(arr).collect::<Result<_>>()?;
            let dims = out_dims();
            let mut idx = vec![0; dims.len()];
            let mut out = Vec::new();
            for i in 0..count(&dims) {
                unflatten(i, &dims, &mut idx);
                let mut k = idx[d];
                for p in &parts {
                    if k < p.dims[d] {
                        let mut j = idx.clone();
                        j[d] = k;
                        out.push(p.get(p.flat(&j)));
                        break;
                    }
                    k -= p.dims[d];
                }
            }
            Value::Arr(Arr::build(out_type(), dims, |i| out[i])?)
        }
        O::DynamicSlice | O::DynamicUpdateSlice => {
            let x = arr(0)?;
            let first = if inst.opcode == O::DynamicSlice { 1 } else { 2 };
            let size: Vec<i64> = if inst.opcode == O::DynamicSlice { out_dims() } else { arr(1)?.dims.clone() };
            let mut starts = Vec::new();
            for (d, k) in (first..inst.operands.len()).enumerate() {
                let s = arr(k)?.get(0).i();
                starts.push(s.clamp(0, i128::from(x.dims[d] - size[d])) as i64);
            }
            if inst.opcode == O::DynamicSlice {
                Value::Arr(x.moved(out_dims(), None, |idx| {
                    let j: Vec<i64> = idx.iter().zip(&starts).map(|(i, s)| i + s).collect();
                    Some(x.flat(&j))
                })?)
            } else {
                let u = arr(1)?;
                let dims = x.dims.clone();
                let mut idx = vec![0; dims.len()];
                let mut out = Vec::new();
                for i in 0..count(&dims) {
                    unflatten(i, &dims, &mut idx);
                    let inside = idx.iter().zip(&starts).zip(&size).all(|((i, s), n)| i >= s && i - s < *n);
                    out.push(if inside {
                        let j: Vec<i64> = idx.iter().zip(&starts).map(|(i, s)| i - s).collect();
                        u.get(u.flat(&j))
                    } else {
                        x.get(i)
                    });
                }
                Value::Arr(Arr::build(x.dtype, dims, |i| out[i])?)
            }
        }
        O::Dot => {
            let Attrs::Dot(d) = &inst.attrs else {
                return unsupported("dot");
            };
            let (l, r) = (arr(0)?, arr(1)?);
            let free = |rank: usize, b: &[i64], c: &[i64]| -> Vec<usize> {
                (0..rank).filter(|&i| !b.contains(&(i as i64)) && !c.contains(&(i as i64))).collect()
            };
            let lf = free(l.dims.len(), &d.lhs_batch, &d.lhs_contracting);
            let rf = free(r.dims.len(), &d.rhs_batch, &d.rhs_contracting);
            let kdims: Vec<i64> = d.lhs_contracting.iter().map(|&c| l.dims[c as usize]).collect();
            let dims = out_dims();
            let mut idx = vec![0; dims.len()];
            let mut kidx = vec![0; kdims.len()];
            let mut out = Vec::new();
            let nb = d.lhs_batch.len();
            for i in 0..count(&dims) {
                unflatten(i, &dims, &mut idx);
                let mut li = vec![0; l.dims.len()];
                let mut ri = vec![0; r.dims.len()];
                for b in 0..nb {
                    li[d.lhs_batch[b] as usize] = idx[b];
                    ri[d.rhs_batch[b] as usize] = idx[b];
                }
                for (k, &f) in lf.iter().enumerate() {
                    li[f] = idx[nb + k];
                }
                for (k, &f) in rf.iter().enumerate() {
                    ri[f] = idx[nb + lf.len() + k];
                }
                let (mut fs, mut is) = (0f64, 0i128);
                for k in 0..count(&kdims) {
                    unflatten(k, &kdims, &mut kidx);
                    for (c, &kv) in kidx.iter().enumerate() {
                        li[d.lhs_contracting[c] as usize] = kv;
                        ri[d.rhs_contracting[c] as usize] = kv;
                    }
                    let (a, b) = (l.get(l.flat(&li)), r.get(r.flat(&ri)));
                    fs += a.f() * b.f();
                    is = wrap(out_type(), is.wrapping_add(a.i().wrapping_mul(b.i())));
                }
                out.push(if out_type().is_float() { Num::F(fs) } else { Num::I(is) });
            }
            Value::Arr(Arr::build(out_type(), dims, |i| out[i])?)
        }
        O::Reduce => {
            let n = inst.operands.len() / 2;
            let xs: Vec<&Arr> = (0..n).map(arr).collect::<Result<_>>()?;
            let inits: Vec<&Arr> = (n..2 * n).map(arr).collect::<Result<_>>()?;
            let x0 = xs[0];
            let red = inst.attrs.dimensions().to_vec();
            let kept: Vec<usize> = (0..x0.dims.len()).filter(|d| !red.contains(&(*d as i64))).collect();
            let dims: Vec<i64> = kept.iter().map(|&d| x0.dims[d]).collect();
            let rdims: Vec<i64> = red.iter().map(|&d| x0.dims[d as usize]).collect();
            let mut idx = vec![0; dims.len()];
            let mut ridx = vec![0; rdims.len()];
            let mut outs: Vec<Vec<Num>> = vec![Vec::new(); n];
            let scalar = |t: DType, v: Num| -> Result<Value> { Ok(Value::Arr(Arr::build(t, vec![], |_| v)?)) };
            for i in 0..count(&dims) {
                unflatten(i, &dims, &mut idx);
                let mut xi = vec![0; x0.dims.len()];
                for (k, &d) in kept.iter().enumerate() {
                    xi[d] = idx[k];
                }
                let mut accs: Vec<Value> = inits.iter().map(|a| scalar(a.dtype, a.get(0))).collect::<Result<_>>()?;
                for k in 0..count(&rdims) {
                    unflatten(k, &rdims, &mut ridx);
                    for (c, &d) in red.iter().enumerate() {
                        xi[d as usize] = ridx[c];
                    }
                    let mut call_args = accs.clone();
                    for x in &xs {
                        call_args.push(scalar(x.dtype, x.get(x.flat(&xi)))?);
                    }
                    accs = match call(m, inst.called[0], &call_args, steps)? {
                        Value::Tuple(t) => t,
                        v => vec![v],
                    };
                }
                for (o, a) in outs.iter_mut().zip(&accs) {
                    o.push(a.arr()?.get(0));
                }
            }
            let mut results = Vec::with_capacity(n);
            for (o, init) in outs.iter().zip(&inits) {
                results.push(Value::Arr(Arr::build(init.dtype, dims.clone(), |i| o[i])?));
            }
            if inst.shape.is_tuple() { Value::Tuple(results) } else { results.pop().ok_or("empty reduce")? }
        }
        O::Conditional => {
            let p = arr(0)?;
            let branch = if p.dtype == DType::Pred {
                usize::from(p.get(0).i() == 0)
            } else {
                let k = p.get(0).i();
                let last = inst.called.len() as i128 - 1;
                if k < 0 || k > last { last as usize } else { k as usize }
            };
            let arg = get(branch + 1)?.clone();
            call(m, inst.called[branch], &[arg], steps)?
        }
        O::BitcastConvert => {
            let x = arr(0)?;
            let t = out_type();
            if x.dtype.bit_width() != t.bit_width() {
                return unsupported("bitcast-convert between widths");
            }
            let bits = |n: Num| -> Result<u64> {
                Ok(match x.dtype {
                    DType::F32 => (n.f() as f32).to_bits() as u64,
                    DType::F64 => n.f().to_bits(),
                    d if d.is_int() => (n.i() as u64) & (u64::MAX >> (64 - d.bit_width())),
                    d => return unsupported(d),
                })
            };
            let mut out = Vec::new();
            for i in 0..count(&x.dims) {
                let b = bits(x.get(i))?;
                out.push(match t {
                    DType::F32 => Num::F(f32::from_bits(b as u32) as f64),
                    DType::F64 => Num::F(f64::from_bits(b)),
                    d if d.is_int() => Num::I(b as i128),
                    d => return unsupported(d),
                });
            }
            Value::Arr(Arr::build(t, x.dims.clone(), |i| out[i])?)
        }
        op if op.is_elementwise() => {
            let ops: Vec<&Arr> = (0..inst.operands.len()).map(arr).collect::<Result<_>>()?;
            let dims = out_dims();
            let n = count(&dims);
            // Scalar operands (clamp bounds) apply to every element.
            let at = |k: usize, i: usize| ops[k].get(if ops[k].dims.is_empty() { 0 } else { i });
            let t = ops[0].dtype;
            let mut out = Vec::with_capacity(n);
            for i in 0..n {
                out.push(elementwise(inst, t, out_type(), &|k| at(k, i))?);
            }
            Value::Arr(Arr::build(out_type(), dims, |i| out[i])?)
        }
        op => return unsupported(op),
    };
    Ok(v)
}

fn elementwise(inst: &smelt_hlo::Instruction, t: DType, out: DType, x: &dyn Fn(usize) -> Num) -> Result<Num> {
    use Opcode as O;
    let float = t.is_float();
    let f = |k: usize| x(k).f();
    let i = |k: usize| x(k).i();
    let bits = t.bit_width() as u32;
    Ok(match inst.opcode {
        O::Convert => {
            if out.is_float() {
                Num::F(x(0).f())
            } else if out == DType::Pred {
                Num::I(i128::from(if float { f(0) != 0.0 } else { i(0) != 0 }))
            } else if float {
                let v = f(0);
                Num::I(if v.is_nan() { 0 } else { (v.trunc().clamp(int_min(out) as f64, int_max(out) as f64)) as i128 })
            } else {
                Num::I(i(0))
            }
        }
        O::Copy => x(0),
        O::Negate if float => Num::F(-f(0)),
        O::Negate => Num::I(-i(0)),
        O::Not if t == DType::Pred => Num::I(1 - i(0)),
        O::Not => Num::I(!i(0)),
        O::Abs if float => Num::F(f(0).abs()),
        O::Abs => Num::I(i(0).abs()),
        O::Exp => Num::F(f(0).exp()),
        O::Log => Num::F(f(0).ln()),
        O::Tanh => Num::F(f(0).tanh()),
        O::Sqrt => Num::F(f(0).sqrt()),
        O::Rsqrt => Num::F(1.0 / f(0).sqrt()),
        O::Floor => Num::F(f(0).floor()),
        O::Ceil => Num::F(f(0).ceil()),
        O::Logistic => Num::F(1.0 / (1.0 + (-f(0)).exp())),
        O::Sine => Num::F(f(0).sin()),
        O::Cosine => Num::F(f(0).cos()),
        O::Tan => Num::F(f(0).tan()),
        O::Expm1 => Num::F(f(0).exp_m1()),
        O::Log1p => Num::F(f(0).ln_1p()),
        O::Cbrt => Num::F(f(0).cbrt()),
        O::RoundNearestAfz => Num::F(f(0).round()),
        O::RoundNearestEven => Num::F(f(0).round_ties_even()),
        O::Atan2 => Num::F(f(0).atan2(f(1))),
        O::Sign if float => Num::F(if f(0).is_nan() || f(0) == 0.0 { f(0) } else { f(0).signum() }),
        O::Sign => Num::I(i(0).signum()),
        O::Popcnt => Num::I(i128::from((i(0) as u64 & (u64::MAX >> (64 - bits))).count_ones())),
        O::Clz => Num::I(i128::from((i(0) as u64 & (u64::MAX >> (64 - bits))).leading_zeros() - (64 - bits))),
        O::IsFinite => Num::I(i128::from(f(0).is_finite())),
        O::Add if float => Num::F(f(0) + f(1)),
        O::Subtract if float => Num::F(f(0) - f(1)),
        O::Multiply if float => Num::F(f(0) * f(1)),
        O::Divide if float => Num::F(f(0) / f(1)),
        O::Power if float => Num::F(f(0).powf(f(1))),
        O::Add if t == DType::Pred => Num::I(i(0) | i(1)),
        O::Multiply if t == DType::Pred => Num::I(i(0) & i(1)),
        O::Add => Num::I(i(0) + i(1)),
        O::Subtract => Num::I(i(0) - i(1)),
        O::Multiply => Num::I(i(0).wrapping_mul(i(1))),
        O::Divide => Num::I(match (i(0), i(1)) {
            (_, 0) => -1,
            (a, -1) if a == int_min(t) => a,
            (a, b) => a / b,
        }),
        O::Remainder if float => Num::F(f(0) % f(1)),
        O::Remainder => Num::I(match (i(0), i(1)) {
            (a, 0) => a,
            (a, -1) if a == int_min(t) => 0,
            (a, b) => a % b,
        }),
        O::Maximum | O::Minimum if float => {
            let (a, b) = (f(0), f(1));
            let max = inst.opcode == O::Maximum;
            Num::F(if a.is_nan() || b.is_nan() {
                f64::NAN
            } else if (a > b) == max && a != b {
                a
            } else if a == b {
                // max(-0, +0) is +0, min(-0, +0) is -0.
                if (a.is_sign_negative() && max) || (!a.is_sign_negative() && !max) { b } else { a }
            } else {
                b
            })
        }
        O::Maximum => Num::I(i(0).max(i(1))),
        O::Minimum => Num::I(i(0).min(i(1))),
        O::And => Num::I(i(0) & i(1)),
        O::Or => Num::I(i(0) | i(1)),
        O::Xor => Num::I(i(0) ^ i(1)),
        O::ShiftLeft => Num::I(if i(1) < 0 || i(1) >= bits as i128 { 0 } else { i(0) << i(1) }),
        O::ShiftRightLogical => {
            let u = i(0) & ((1i128 << bits) - 1);
            Num::I(if i(1) < 0 || i(1) >= bits as i128 { 0 } else { u >> i(1) })
        }
        O::ShiftRightArithmetic => {
            let s = i(1).clamp(0, bits as i128 - 1);
            Num::I(if i(1) < 0 || i(1) >= bits as i128 { i(0) >> (bits - 1) } else { i(0) >> s })
        }
        O::Compare => {
            let Attrs::Compare { direction, compare_type } = inst.attrs else {
                return unsupported("compare");
            };
            if compare_type == Some(CompareType::TotalOrder) {
                return unsupported("TOTALORDER");
            }
            use ComparisonDirection as D;
            let holds = if float {
                let (a, b) = (f(0), f(1));
                match direction {
                    D::Eq => a == b,
                    D::Ne => a != b,
                    D::Lt => a < b,
                    D::Le => a <= b,
                    D::Gt => a > b,
                    D::Ge => a >= b,
                }
            } else {
                let (a, b) = (i(0), i(1));
                match direction {
                    D::Eq => a == b,
                    D::Ne => a != b,
                    D::Lt => a < b,
                    D::Le => a <= b,
                    D::Gt => a > b,
                    D::Ge => a >= b,
                }
            };
            Num::I(i128::from(holds))
        }
        O::Select => {
            if i(0) != 0 {
                x(1)
            } else {
                x(2)
            }
        }
        O::Clamp => {
            // clamp(lo, x, hi) = min(max(x, lo), hi), NaN propagating.
            if float {
                let (lo, v, hi) = (f(0), f(1), f(2));
                Num::F(if lo.is_nan() || v.is_nan() || hi.is_nan() { f64::NAN } else { v.max(lo).min(hi) })
            } else {
                Num::I(i(1).max(i(0)).min(i(2)))
            }
        }
        op => return unsupported(op),
    })
}

/// A deterministic pseudo-random generator (xorshift).
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// A number below `n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A value for an element of type `t`: often an edge case (NaN, infinities,
    /// -0, integer limits), else a small random value.
    fn element(&mut self, t: DType) -> Num {
        let r = self.next();
        let pick = r % 16;
        if t.is_float() {
            const EDGES: [f64; 8] = [0.0, -0.0, 1.0, -1.0, f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 0.5];
            Num::F(if pick < 6 {
                EDGES[(r >> 8) as usize % EDGES.len()]
            } else {
                ((r >> 16) % 2001) as f64 / 64.0 - 15.625
            })
        } else if t == DType::Pred {
            Num::I(((r >> 8) & 1) as i128)
        } else {
            let edges = [0, 1, -1, int_min(t), int_max(t), 2];
            Num::I(if pick < 5 {
                wrap(t, edges[(r >> 8) as usize % edges.len()])
            } else {
                wrap(t, ((r >> 16) % 21) as i128 - 10)
            })
        }
    }

    /// Random arguments for the parameters of `m`'s entry.
    pub fn args(&mut self, m: &Module) -> Result<Vec<Value>> {
        m.entry().param_shapes().iter().map(|s| self.value(s)).collect()
    }

    fn value(&mut self, s: &smelt_hlo::Shape) -> Result<Value> {
        match s {
            smelt_hlo::Shape::Tuple(t) => Ok(Value::Tuple(t.iter().map(|e| self.value(e)).collect::<Result<_>>()?)),
            smelt_hlo::Shape::Array(a) => {
                let n = count(&a.dims);
                let vals: Vec<Num> = (0..n).map(|_| self.element(a.dtype)).collect();
                Ok(Value::Arr(Arr::build(a.dtype, a.dims.to_vec(), |i| vals[i])?))
            }
        }
    }
}
