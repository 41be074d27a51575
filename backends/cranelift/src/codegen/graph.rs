//! Expression graphs as Cranelift values.
//!
//! A graph is emitted level by level: each node's level is the depth of the
//! innermost loop it depends on (a loop index, through its operands), and the
//! kernel emitters open one loop at a time and emit every needed node of the
//! new level right after, so each value is computed once per iteration of the
//! outermost loop it varies in (row statistics once per row, broadcast loads
//! once per outer index). Inline reductions open their own window loops where
//! they stand; their bodies and scalar functions are emitted whole.

use std::collections::HashMap;

use cranelift_codegen::ir::{InstBuilder, Value, types};
use smelt_hlo::DType;
use smelt_kernel::{ArrayType, Graph, InlineReduce, Node, NodeId, ScalarFn};

use super::Fx;
use super::scalar::clif_type;
use crate::error::{Result, invalid};

/// An array a kernel reads or writes: its base address and type.
#[derive(Clone, Debug)]
pub(crate) struct View {
    pub base: Value,
    pub ty: ArrayType,
}

/// The values of one graph's nodes emitted so far.
pub(crate) struct Vals {
    pub v: Vec<Option<Value>>,
    /// All results of each inline reduction.
    pub results: HashMap<u32, Vec<Value>>,
}

impl Vals {
    pub fn new(n: usize) -> Vals {
        Vals { v: vec![None; n], results: HashMap::new() }
    }

    pub fn get(&self, id: NodeId) -> Result<Value> {
        match self.v.get(id.0 as usize).copied().flatten() {
            Some(v) => Ok(v),
            None => invalid!("node %{} used before it is computed", id.0),
        }
    }
}

/// What a graph's leaves refer to.
pub(crate) struct Env<'e> {
    /// Loop index of each dimension of the space (None until its loop is open).
    pub indices: &'e [Option<Value>],
    pub params: &'e [Value],
    pub inputs: &'e [View],
    /// The enclosing graph's values, inside an inline reduction's body.
    pub outer: Option<&'e Vals>,
}

impl Fx<'_, '_> {
    /// Emits, in order, every node that `pick` selects and is not yet emitted.
    pub(crate) fn emit_nodes(
        &mut self,
        g: &Graph,
        pick: &dyn Fn(usize) -> bool,
        env: &Env<'_>,
        vals: &mut Vals,
    ) -> Result<()> {
        for i in 0..g.len() {
            if vals.v[i].is_none() && pick(i) {
                let v = self.node(g, NodeId(i as u32), env, vals)?;
                vals.v[i] = Some(v);
            }
        }
        Ok(())
    }

    /// Emits every node `roots` need and returns the roots' values.
    pub(crate) fn emit_all(&mut self, g: &Graph, roots: &[NodeId], env: &Env<'_>) -> Result<Vec<Value>> {
        let need = g.live(roots);
        let mut vals = Vals::new(g.len());
        self.emit_nodes(g, &|i| need[i], env, &mut vals)?;
        roots.iter().map(|&r| vals.get(r)).collect()
    }

    /// A scalar function applied to `args`, inline.
    pub(crate) fn call_fn(&mut self, f: &ScalarFn, args: &[Value]) -> Result<Vec<Value>> {
        let env = Env { indices: &[], params: args, inputs: &[], outer: None };
        self.emit_all(&f.graph, &f.outputs, &env)
    }

    /// `base + linear(index) * element size` for a dense row-major array.
    pub(crate) fn address(&mut self, view: &View, index: &[Value]) -> Result<Value> {
        let mut linear: Option<Value> = None;
        for (d, &i) in index.iter().enumerate() {
            linear = Some(match linear {
                None => i,
                Some(l) => {
                    let scaled = self.b.ins().imul_imm_s(l, view.ty.dims[d]);
                    self.b.ins().iadd(scaled, i)
                }
            });
        }
        Ok(self.element_address(view, linear))
    }

    /// The address of element `linear` (in elements) of `view`; its base for none.
    fn element_address(&mut self, view: &View, linear: Option<Value>) -> Value {
        match linear {
            None => view.base,
            Some(l) => {
                let bytes = self.b.ins().imul_imm_s(l, view.ty.dtype.byte_size() as i64);
                self.b.ins().iadd(view.base, bytes)
            }
        }
    }

    fn node(&mut self, g: &Graph, id: NodeId, env: &Env<'_>, vals: &mut Vals) -> Result<Value> {
        let t = g.dtype(id);
        Ok(match g.node(id) {
            Node::Index(d) => match env.indices.get(*d).copied().flatten() {
                Some(v) => v,
                None => invalid!("index of dimension {d} outside its loop"),
            },
            Node::Param(n) => match env.params.get(*n) {
                Some(&v) => v,
                None => invalid!("parameter {n} out of range"),
            },
            Node::Const(s) => self.constant(*s),
            Node::Outer(n) => match env.outer {
                Some(o) => o.get(*n)?,
                None => invalid!("outer reference outside a reduction body"),
            },
            Node::Load { input, index } => {
                let Some(view) = env.inputs.get(*input) else { invalid!("load of input {input} out of range") };
                // Row-major views: the shared offset terms, which address a
                // value split over neighbouring dimensions as itself.
                let (dims, mut linear) = (&view.ty.dims, None);
                let strides = smelt_kernel::row_major_strides(dims);
                for (i, stride) in smelt_kernel::ranges::address_terms(g, index, dims, &strides) {
                    let v = vals.get(i)?;
                    let term = if stride == 1 { v } else { self.b.ins().imul_imm_s(v, stride) };
                    linear = Some(match linear {
                        Some(l) => self.b.ins().iadd(l, term),
                        None => term,
                    });
                }
                let addr = self.element_address(view, linear);
                self.load_elem(view.ty.dtype, addr)?
            }
            Node::Unary { op, x } => {
                let xv = vals.get(*x)?;
                self.unary(*op, g.dtype(*x), xv)?
            }
            Node::Binary { op, a, b } => {
                let (av, bv) = (vals.get(*a)?, vals.get(*b)?);
                self.binary(*op, g.dtype(*a), av, bv)?
            }
            Node::Compare { direction, compare_type, a, b } => {
                let (av, bv) = (vals.get(*a)?, vals.get(*b)?);
                self.compare(*direction, *compare_type, g.dtype(*a), av, bv)
            }
            Node::Select { pred, on_true, on_false } => {
                let (p, x, y) = (vals.get(*pred)?, vals.get(*on_true)?, vals.get(*on_false)?);
                self.b.ins().select(p, x, y)
            }
            Node::Clamp { min, x, max } => {
                let (lo, xv, hi) = (vals.get(*min)?, vals.get(*x)?, vals.get(*max)?);
                self.clamp(t, lo, xv, hi)?
            }
            Node::MulAdd { a, b, c } => {
                let (av, bv, cv) = (vals.get(*a)?, vals.get(*b)?, vals.get(*c)?);
                self.b.ins().fma(av, bv, cv)
            }
            Node::Convert { x, to } => {
                let xv = vals.get(*x)?;
                self.convert(g.dtype(*x), *to, xv)?
            }
            Node::Bitcast { x, to } => {
                let xv = vals.get(*x)?;
                self.bitcast(g.dtype(*x), *to, xv)?
            }
            Node::Reduce(r) => {
                let results = self.inline_reduce(g, r, env, vals)?;
                let first = match results.first() {
                    Some(&v) => v,
                    None => invalid!("reduction without results"),
                };
                vals.results.insert(id.0, results);
                first
            }
            Node::ReduceResult { reduce, index } => match vals.results.get(&reduce.0).and_then(|r| r.get(*index)) {
                Some(&v) => v,
                None => invalid!("result {index} of %{} is not a reduction result", reduce.0),
            },
        })
    }

    /// Accumulator variables of the given types, set to `init`.
    pub(crate) fn accumulators(&mut self, types_: &[DType], init: &[Value]) -> Vec<cranelift_frontend::Variable> {
        types_
            .iter()
            .zip(init)
            .map(|(&t, &v)| {
                let var = self.b.declare_var(clif_type(t));
                self.b.def_var(var, v);
                var
            })
            .collect()
    }

    /// `accs = reducer(accs..., values...)`.
    pub(crate) fn accumulate(
        &mut self,
        reducer: &ScalarFn,
        accs: &[cranelift_frontend::Variable],
        values: &[Value],
    ) -> Result<()> {
        let mut args: Vec<Value> = accs.iter().map(|&a| self.b.use_var(a)).collect();
        args.extend_from_slice(values);
        let next = self.call_fn(reducer, &args)?;
        for (&a, v) in accs.iter().zip(next) {
            self.b.def_var(a, v);
        }
        Ok(())
    }

    fn inline_reduce(&mut self, g: &Graph, r: &InlineReduce, env: &Env<'_>, vals: &Vals) -> Result<Vec<Value>> {
        let init: Vec<Value> = r.init.iter().map(|&i| vals.get(i)).collect::<Result<_>>()?;
        let tys: Vec<DType> = r.init.iter().map(|&i| g.dtype(i)).collect();
        let accs = self.accumulators(&tys, &init);
        let mut loops = Vec::with_capacity(r.window.len());
        let mut idx = Vec::with_capacity(r.window.len());
        for &w in &r.window {
            let (lo, hi) = (self.b.ins().iconst(types::I64, 0), self.b.ins().iconst(types::I64, w.max(0)));
            let l = self.open_loop(lo, hi);
            idx.push(Some(l.index));
            loops.push(l);
        }
        let body_env = Env { indices: &idx, params: &[], inputs: env.inputs, outer: Some(vals) };
        let values = self.emit_all(&r.body, &r.values, &body_env)?;
        self.accumulate(&r.reducer, &accs, &values)?;
        for l in loops.into_iter().rev() {
            self.close_loop(l);
        }
        Ok(accs.iter().map(|&a| self.b.use_var(a)).collect())
    }
}
