//! Applying a called computation to scalars: reducers, comparators, scatter
//! combiners, `map` bodies.
//!
//! These run once per element (or per comparison), so evaluating them through the
//! general evaluator (allocating literals every call) would dominate. Instead a
//! computation made only of scalar elementwise instructions is compiled once into
//! a [`ScalarProgram`]: a flat list of operations over a register file of
//! [`Scalar`]s, run with no allocation. Anything else (calls, tuples of tuples,
//! non-scalar instructions) falls back to the evaluator, with the same semantics.

use std::rc::Rc;

use smelt_hlo::attrs::{CompareType, ComparisonDirection};
use smelt_hlo::{ArrayData, Attrs, CompId, Computation, DType, Literal, Opcode, Shape};

use crate::error::{Fail, KResult, invalid};
use crate::eval::{Evaluator, live_order};
use crate::value::{Scalar, binary_ok, scalar_of, unary_ok};

#[derive(Clone, Debug)]
enum Op {
    Const(Scalar),
    Unary(Opcode, usize),
    Binary(Opcode, usize, usize),
    Compare(ComparisonDirection, Option<CompareType>, usize, usize),
    Select(usize, usize, usize),
    Clamp(usize, usize, usize),
    Convert(DType, usize),
    BitcastConvert(DType, usize),
    IsFinite(usize),
}

/// A scalar computation compiled to straight-line code. Registers `0..params`
/// hold the arguments; operation `k` writes register `params + k`.
#[derive(Debug)]
pub(crate) struct ScalarProgram {
    params: usize,
    ops: Vec<Op>,
    outputs: Vec<usize>,
}

fn scalar_dtype(shape: &Shape) -> Option<DType> {
    match shape {
        Shape::Array(a) if a.dims.is_empty() => Some(a.dtype),
        _ => None,
    }
}

impl ScalarProgram {
    /// Compiles `comp` if it is made only of scalar elementwise instructions whose
    /// element types all check out; `None` otherwise.
    pub(crate) fn compile(comp: &Computation) -> Option<ScalarProgram> {
        let order = live_order(comp).ok()?;
        let params = comp.params();
        for (n, &p) in params.iter().enumerate() {
            if comp.insts[p].parameter_number() != Some(n as u32) {
                return None;
            }
        }
        let mut reg = vec![usize::MAX; comp.insts.capacity()];
        let mut dtypes: Vec<DType> = Vec::new();
        for &p in &params {
            dtypes.push(scalar_dtype(&comp.insts[p].shape)?);
        }
        let mut ops = Vec::new();
        let mut outputs = Vec::new();
        for &id in &order {
            let inst = &comp.insts[id];
            if let Attrs::Parameter(n) = inst.attrs {
                reg[id.index()] = n as usize;
                continue;
            }
            let operand = |k: usize| -> Option<(usize, DType)> {
                let r = reg[inst.operands.get(k)?.index()];
                Some((r, *dtypes.get(r)?))
            };
            if inst.opcode == Opcode::Tuple {
                if id != comp.root {
                    return None;
                }
                for k in 0..inst.operands.len() {
                    outputs.push(operand(k)?.0);
                }
                continue;
            }
            let dtype = scalar_dtype(&inst.shape)?;
            let op = match (inst.opcode, &inst.attrs) {
                (Opcode::Constant, Attrs::Constant(lit)) => {
                    let Literal::Array(a) = &**lit else {
                        return None;
                    };
                    let s = scalar_of(a, "constant").ok()?;
                    if s.dtype() != dtype {
                        return None;
                    }
                    Op::Const(s)
                }
                (Opcode::Compare, Attrs::Compare { direction, compare_type }) => {
                    let ((a, ta), (b, tb)) = (operand(0)?, operand(1)?);
                    if ta != tb || dtype != DType::Pred || inst.operands.len() != 2 {
                        return None;
                    }
                    Op::Compare(*direction, *compare_type, a, b)
                }
                (Opcode::Select, _) => {
                    let ((p, tp), (a, ta), (b, tb)) = (operand(0)?, operand(1)?, operand(2)?);
                    if tp != DType::Pred || ta != dtype || tb != dtype {
                        return None;
                    }
                    Op::Select(p, a, b)
                }
                (Opcode::Clamp, _) => {
                    let ((l, tl), (x, tx), (h, th)) = (operand(0)?, operand(1)?, operand(2)?);
                    if tl != dtype || tx != dtype || th != dtype || !binary_ok(dtype, Opcode::Maximum) {
                        return None;
                    }
                    Op::Clamp(l, x, h)
                }
                (Opcode::Convert, _) => Op::Convert(dtype, operand(0)?.0),
                (Opcode::BitcastConvert, _) => {
                    let (a, ta) = operand(0)?;
                    if ta.byte_size() != dtype.byte_size() {
                        return None;
                    }
                    Op::BitcastConvert(dtype, a)
                }
                (Opcode::IsFinite, _) => {
                    let (a, ta) = operand(0)?;
                    if !ta.is_float() || dtype != DType::Pred {
                        return None;
                    }
                    Op::IsFinite(a)
                }
                (op, _) if op.is_elementwise_unary() && op != Opcode::ReducePrecision => {
                    let (a, ta) = operand(0)?;
                    if ta != dtype || !unary_ok(dtype, op) || inst.operands.len() != 1 {
                        return None;
                    }
                    Op::Unary(op, a)
                }
                (op, _) if op.is_elementwise_binary() => {
                    let ((a, ta), (b, tb)) = (operand(0)?, operand(1)?);
                    if ta != dtype || tb != dtype || !binary_ok(dtype, op) || inst.operands.len() != 2 {
                        return None;
                    }
                    Op::Binary(op, a, b)
                }
                _ => return None,
            };
            reg[id.index()] = dtypes.len();
            dtypes.push(dtype);
            ops.push(op);
            if id == comp.root {
                outputs.push(dtypes.len() - 1);
            }
        }
        if outputs.is_empty() {
            // The root is a parameter.
            let r = reg[comp.root.index()];
            if r == usize::MAX {
                return None;
            }
            outputs.push(r);
        }
        Some(ScalarProgram { params: params.len(), ops, outputs })
    }

    /// Runs the program. `args` have the parameter types (checked by [`Applier::new`]).
    fn run(&self, args: &[Scalar], regs: &mut Vec<Scalar>, out: &mut [Scalar]) {
        regs.clear();
        regs.extend_from_slice(&args[..self.params.min(args.len())]);
        for op in &self.ops {
            let v = match *op {
                Op::Const(s) => s,
                Op::Unary(op, a) => Scalar::unary(op, regs[a]),
                Op::Binary(op, a, b) => Scalar::binary(op, regs[a], regs[b]).unwrap_or(regs[a]),
                Op::Compare(dir, ty, a, b) => Scalar::Pred(Scalar::compare(dir, ty, regs[a], regs[b]).unwrap_or(false)),
                Op::Select(p, a, b) => {
                    if regs[p].as_pred().unwrap_or(false) {
                        regs[a]
                    } else {
                        regs[b]
                    }
                }
                Op::Clamp(l, x, h) => Scalar::clamp(regs[l], regs[x], regs[h]).unwrap_or(regs[x]),
                Op::Convert(to, a) => regs[a].convert(to),
                Op::BitcastConvert(to, a) => {
                    let mut bytes = Vec::with_capacity(8);
                    regs[a].le_bytes(&mut bytes);
                    Scalar::get(&ArrayData::from_le_bytes(to, &bytes), 0)
                }
                Op::IsFinite(a) => Scalar::Pred(regs[a].is_finite()),
            };
            regs.push(v);
        }
        for (o, &r) in out.iter_mut().zip(&self.outputs) {
            *o = regs[r];
        }
    }
}

enum Kind {
    Program(Rc<ScalarProgram>),
    General,
}

/// A called computation ready to apply to scalars of known types.
pub(crate) struct Applier<'e, 'm> {
    ev: &'e Evaluator<'m>,
    comp: CompId,
    kind: Kind,
    outs: usize,
    regs: Vec<Scalar>,
}

impl<'e, 'm> Applier<'e, 'm> {
    /// Checks that `comp` takes scalars of `params` and returns scalars of `outs`
    /// (one scalar, or a tuple of them), then compiles it if it can.
    pub(crate) fn new(
        ev: &'e Evaluator<'m>,
        comp: CompId,
        params: &[DType],
        outs: &[DType],
    ) -> KResult<Applier<'e, 'm>> {
        let c = ev.comp(comp).map_err(Fail::from)?;
        let ps = c.params();
        if ps.len() != params.len() {
            invalid!("computation '{}' takes {} parameters, {} expected", c.name, ps.len(), params.len());
        }
        for (k, (&p, &want)) in ps.iter().zip(params).enumerate() {
            if scalar_dtype(&c.insts[p].shape) != Some(want) {
                invalid!("parameter {k} of computation '{}' is {}, expected {want}[]", c.name, c.insts[p].shape);
            }
        }
        let root = c.result_shape();
        let ok = match root {
            Shape::Array(_) => outs.len() == 1 && scalar_dtype(root) == Some(outs[0]),
            Shape::Tuple(t) => t.len() == outs.len() && t.iter().zip(outs).all(|(s, &d)| scalar_dtype(s) == Some(d)),
        };
        if !ok {
            let want: Vec<String> = outs.iter().map(|d| format!("{d}[]")).collect();
            invalid!("computation '{}' returns {root}, expected {}", c.name, want.join(", "));
        }
        let kind = match ev.program(comp, c) {
            Some(p) => Kind::Program(p),
            None => Kind::General,
        };
        Ok(Applier { ev, comp, kind, outs: outs.len(), regs: Vec::new() })
    }

    /// Applies the computation; `out` receives one scalar per output.
    pub(crate) fn call(&mut self, args: &[Scalar], out: &mut [Scalar]) -> KResult<()> {
        match &self.kind {
            Kind::Program(p) => {
                p.run(args, &mut self.regs, out);
                Ok(())
            }
            Kind::General => {
                let lits: Vec<Literal> = args.iter().map(|s| Literal::Array(s.to_array())).collect();
                let refs: Vec<&Literal> = lits.iter().collect();
                let r = self.ev.call_nested(self.comp, &refs)?;
                match &r {
                    Literal::Array(a) => {
                        if let Some(o) = out.first_mut() {
                            *o = scalar_of(a, "result")?;
                        }
                    }
                    Literal::Tuple(t) => {
                        for (o, e) in out.iter_mut().zip(t).take(self.outs) {
                            let Literal::Array(a) = e else {
                                invalid!("nested tuple result");
                            };
                            *o = scalar_of(a, "result")?;
                        }
                    }
                }
                Ok(())
            }
        }
    }

    /// Applies a computation with one output.
    pub(crate) fn call1(&mut self, args: &[Scalar]) -> KResult<Scalar> {
        let mut out = [Scalar::Pred(false)];
        self.call(args, &mut out)?;
        Ok(out[0])
    }
}

/// If `comp` is `compare(p0, p1)`: a sort comparator looking only at the
/// first operand, which sorting then runs as a typed comparison.
pub(crate) fn simple_compare(comp: &Computation) -> Option<(ComparisonDirection, Option<CompareType>)> {
    let root = comp.root_inst();
    let Attrs::Compare { direction, compare_type } = root.attrs else {
        return None;
    };
    if root.opcode != Opcode::Compare || root.operands.len() != 2 {
        return None;
    }
    let a = comp.insts.get(root.operands[0])?.parameter_number()?;
    let b = comp.insts.get(root.operands[1])?.parameter_number()?;
    ((a, b) == (0, 1)).then_some((direction, compare_type))
}

/// If `comp` is `f(p0, p1) = p0 op p1` (either operand order) for a commutative
/// op, returns the op: reductions then run a typed loop instead of a program.
pub(crate) fn simple_binary(comp: &Computation) -> Option<Opcode> {
    let root = comp.root_inst();
    if comp.num_params() != 2 || root.operands.len() != 2 {
        return None;
    }
    let op = root.opcode;
    if !matches!(op, Opcode::Add | Opcode::Multiply | Opcode::Maximum | Opcode::Minimum | Opcode::And | Opcode::Or) {
        return None;
    }
    let a = comp.insts.get(root.operands[0])?.parameter_number()?;
    let b = comp.insts.get(root.operands[1])?.parameter_number()?;
    ((a, b) == (0, 1) || (a, b) == (1, 0)).then_some(op)
}
