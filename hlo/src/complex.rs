//! Complex numbers as pairs of real numbers: the one place their semantics live.
//!
//! The interpreter, the kernel form and every backend compute on real arrays.
//! A module with `c64`/`c128` values is first rewritten by [`lower`] into one in
//! which each complex value is stored as its parts, `c64[d...]` as
//! `f32[d..., 2]` (real part, then imaginary part, innermost). Those are the
//! bytes of XLA's complex arrays, so arguments, results and `.npy` files need no
//! conversion ([`crate::ArrayShape::storage`]). Every complex operation becomes
//! real operations on the parts, following XLA CPU's definitions in
//! `xla/service/elemental_ir_emitter.cc` (`EmitComplexUnaryOp`,
//! `EmitComplexBinaryOp`, `EmitComplexAbs`, `EmitComplexDivide`,
//! `EmitComplexSqrt`, `EmitComplexRsqrt`, `EmitComplexPower`, `EmitComplexLog`),
//! special values included; `fft` becomes a custom call to `smelt_fft`,
//! `smelt_ifft`, `smelt_rfft` or `smelt_irfft` on the parts (`fft_rank` in its
//! `backend_config`), which `smelt-linalg` computes. Data movement keeps the
//! pair dimension innermost; reductions and scatters of complex values must add
//! or overwrite (the only combiners that act on the parts independently).
//! Anything else with complex values is refused, naming the instruction.

use std::collections::HashMap;

use crate::attrs::{Attrs, ComparisonDirection as Dir, CustomCallAttrs, FftKind, SliceDim};
use crate::builder::{ComputationBuilder, Reducer, scalar_reducer};
use crate::computation::Computation;
use crate::dtype::DType;
use crate::instruction::{CompId, InstId, Instruction};
use crate::literal::{Array, ArrayData, Literal};
use crate::module::Module;
use crate::opcode::Opcode;
use crate::shape::{ArrayShape, Dims, Shape};
use crate::shape_inference::ShapeError;

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum ComplexError {
    #[error("{computation}: {instruction} ({opcode}): {message}")]
    Unsupported { computation: String, instruction: String, opcode: Opcode, message: String },
    /// The module does not verify: its complex values are not lowered.
    #[error("lowering complex values: {0}")]
    Invalid(String),
    #[error("{computation}: {instruction}: lowering its complex values: {source}")]
    Shape { computation: String, instruction: String, source: ShapeError },
}

type Result<T> = std::result::Result<T, ComplexError>;

/// The custom-call target of a lowered `fft` of `kind`.
pub fn fft_target(kind: FftKind) -> &'static str {
    match kind {
        FftKind::Fft => "smelt_fft",
        FftKind::Ifft => "smelt_ifft",
        FftKind::Rfft => "smelt_rfft",
        FftKind::Irfft => "smelt_irfft",
    }
}

/// Whether `module` has complex values or operations [`lower`] rewrites.
pub fn has_complex(module: &Module) -> bool {
    module.comps.iter().any(|(_, c)| c.insts.iter().any(|(_, i)| touches_complex(c, i)))
}

/// Whether `inst` has a complex operand or result, or is a complex operation.
fn touches_complex(comp: &Computation, inst: &Instruction) -> bool {
    matches!(inst.opcode, Opcode::Real | Opcode::Imag | Opcode::Complex | Opcode::Fft)
        || inst.shape.has_complex()
        || inst.operands.iter().any(|&o| comp.insts.get(o).is_some_and(|i| i.shape.has_complex()))
}

/// Rewrites every complex value of `module` into its parts (see the module
/// docs); returns whether anything changed. A module without complex values is
/// left as it is.
pub fn lower(module: &mut Module) -> Result<bool> {
    if !has_complex(module) {
        return Ok(false);
    }
    // The rewrite reads operands and attributes as the verifier guarantees them.
    crate::verifier::verify(module).map_err(|e| ComplexError::Invalid(e.to_string()))?;
    // Real reducers for the reductions and scatters of complex values.
    let mut needed = Vec::new();
    for (_, comp) in module.comps.iter() {
        for (_, inst) in comp.insts.iter() {
            if !matches!(inst.opcode, Opcode::Reduce | Opcode::ReduceWindow | Opcode::Scatter)
                || !inst.shape.has_complex()
            {
                continue;
            }
            let (Some(callee), Some(a)) = (inst.to_apply(), inst.shape.leaves().first().copied()) else { continue };
            if let Some(kind) = combine_of(module.comp(callee)) {
                needed.push((kind, a.dtype.component()));
            }
        }
    }
    let mut reducers: HashMap<(Combine, DType), CompId> = HashMap::new();
    for (kind, t) in needed {
        if reducers.contains_key(&(kind, t)) {
            continue;
        }
        let mut c = combiner(kind, t).map_err(|source| ComplexError::Shape {
            computation: module.entry().name.clone(),
            instruction: format!("the {t} combiner"),
            source,
        })?;
        c.name = module.unique_name(&c.name);
        reducers.insert((kind, t), module.add_computation(c));
    }
    // Comparators of sorts of complex values, on the parts.
    let sorts: Vec<CompId> = module
        .comps
        .iter()
        .flat_map(|(_, c)| c.insts.iter().filter(|(_, i)| i.opcode == Opcode::Sort && touches_complex(c, i)))
        .filter_map(|(_, i)| i.to_apply())
        .collect();
    let comparators = add_wrappers(module, sorts, comparator_on_parts)?;
    // Combiners of reductions of complex values other than by adding (products):
    // a variadic reduce of the parts, the combiner rebuilding the complex numbers.
    let general: Vec<CompId> = module
        .comps
        .iter()
        .flat_map(|(_, c)| c.insts.iter().filter(|(_, i)| i.opcode == Opcode::Reduce && i.shape.has_complex()))
        .filter_map(|(_, i)| i.to_apply())
        .filter(|&c| combine_of(module.comp(c)).is_none())
        .collect();
    let combiners = add_wrappers(module, general, combiner_on_parts)?;
    let prepared = Prepared { reducers, comparators, combiners };
    for id in module.computation_post_order() {
        let comp = module.comp(id);
        if !comp.insts.iter().any(|(_, i)| touches_complex(comp, i)) {
            continue;
        }
        let lowered = lower_computation(module, comp, &prepared)?;
        *module.comp_mut(id) = lowered;
    }
    if let Some(layout) = &mut module.config.entry_computation_layout {
        layout.params = layout.params.iter().map(Shape::storage).collect();
        layout.result = layout.result.storage();
    }
    Ok(true)
}

/// How a reduction or scatter combines two complex values, when it acts on the
/// parts independently.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Combine {
    Add,
    /// The second value replaces the first (a scatter's overwrite).
    Replace,
}

fn combine_of(comp: &Computation) -> Option<Combine> {
    let root = comp.root_inst();
    let param = |id: InstId| comp.inst(id).parameter_number();
    match root.opcode {
        Opcode::Parameter if root.parameter_number() == Some(1) => Some(Combine::Replace),
        Opcode::Add => {
            let mut ps = [param(root.operand(0)), param(root.operand(1))];
            ps.sort();
            (ps == [Some(0), Some(1)]).then_some(Combine::Add)
        }
        _ => None,
    }
}

fn combiner(kind: Combine, t: DType) -> std::result::Result<Computation, ShapeError> {
    match kind {
        Combine::Add => scalar_reducer(Reducer::Add, t),
        Combine::Replace => {
            let mut b = ComputationBuilder::new(format!("replace_{t}"));
            b.parameter(0, Shape::scalar(t), "old")?;
            let new = b.parameter(1, Shape::scalar(t), "new")?;
            b.build(new)
        }
    }
}

/// The computations [`lower`] adds before rewriting any.
struct Prepared {
    /// Real combiners of reductions and scatters of complex values.
    reducers: HashMap<(Combine, DType), CompId>,
    /// Comparator of a sort of complex values -> the one taking their parts.
    comparators: HashMap<CompId, CompId>,
    /// Combiner of a reduce of complex values other than by adding -> the one
    /// taking their parts.
    combiners: HashMap<CompId, CompId>,
}

/// Adds `wrap(original)` to the module once per distinct callee of
/// `originals`; maps each callee to its wrapper.
fn add_wrappers(
    module: &mut Module,
    originals: Vec<CompId>,
    wrap: fn(&Module, CompId) -> Result<Computation>,
) -> Result<HashMap<CompId, CompId>> {
    let mut wrappers = HashMap::new();
    for original in originals {
        if wrappers.contains_key(&original) {
            continue;
        }
        let mut c = wrap(module, original)?;
        c.name = module.unique_name(&c.name);
        wrappers.insert(original, module.add_computation(c));
    }
    Ok(wrappers)
}

/// A comparator taking each complex operand's parts as two operands (real,
/// then imaginary; each as the pair `lhs, rhs`), calling `original` on the
/// complex numbers they make.
fn comparator_on_parts(module: &Module, original: CompId) -> Result<Computation> {
    let comp = module.comp(original);
    let fail = |source| ComplexError::Shape {
        computation: comp.name.clone(),
        instruction: comp.root_inst().name.clone(),
        source,
    };
    let mut b = ComputationBuilder::with_computations(format!("{}_on_parts", comp.name), Some(&module.comps));
    let mut args = Vec::new();
    let mut next = 0u32;
    let types: Vec<DType> = comp.param_shapes().iter().map(|s| s.as_array().map_or(DType::Pred, |a| a.dtype)).collect();
    for pair in types.chunks(2) {
        let t = pair[0];
        if t.is_complex() {
            let part = Shape::scalar(t.component());
            let mut p = Vec::new();
            for name in ["re_lhs", "re_rhs", "im_lhs", "im_rhs"] {
                p.push(b.parameter(next, part.clone(), name).map_err(fail)?);
                next += 1;
            }
            args.push(b.binary(Opcode::Complex, p[0], p[2]).map_err(fail)?);
            args.push(b.binary(Opcode::Complex, p[1], p[3]).map_err(fail)?);
        } else {
            for name in ["lhs", "rhs"] {
                args.push(b.parameter(next, Shape::scalar(t), name).map_err(fail)?);
                next += 1;
            }
        }
    }
    let root = b.call(&args, original).map_err(fail)?;
    b.build(root).map_err(fail)
}

/// A reduce combiner of one complex operand taking its parts as operands
/// (`acc_re, acc_im, x_re, x_im`) and giving them as a tuple, calling
/// `original` on the complex numbers they make.
fn combiner_on_parts(module: &Module, original: CompId) -> Result<Computation> {
    let comp = module.comp(original);
    let fail = |source| ComplexError::Shape {
        computation: comp.name.clone(),
        instruction: comp.root_inst().name.clone(),
        source,
    };
    let t = comp.param_shapes().first().and_then(|s| s.as_array()).map_or(DType::C64, |a| a.dtype);
    let mut b = ComputationBuilder::with_computations(format!("{}_on_parts", comp.name), Some(&module.comps));
    let part = Shape::scalar(t.component());
    let mut p = Vec::new();
    for (k, name) in ["acc_re", "acc_im", "re", "im"].into_iter().enumerate() {
        p.push(b.parameter(k as u32, part.clone(), name).map_err(fail)?);
    }
    let acc = b.binary(Opcode::Complex, p[0], p[1]).map_err(fail)?;
    let x = b.binary(Opcode::Complex, p[2], p[3]).map_err(fail)?;
    let z = b.call(&[acc, x], original).map_err(fail)?;
    let re = b.unary(Opcode::Real, z).map_err(fail)?;
    let im = b.unary(Opcode::Imag, z).map_err(fail)?;
    let root = b.tuple(&[re, im]).map_err(fail)?;
    b.build(root).map_err(fail)
}

fn lower_computation(module: &Module, comp: &Computation, prepared: &Prepared) -> Result<Computation> {
    let mut l = Lowering {
        b: ComputationBuilder::with_computations(comp.name.clone(), Some(&module.comps)),
        module,
        comp,
        reducers: &prepared.reducers,
        comparators: &prepared.comparators,
        combiners: &prepared.combiners,
        map: HashMap::new(),
    };
    for id in comp.post_order() {
        let inst = comp.inst(id);
        let new = l.instruction(inst).map_err(|e| match e {
            Fail::Shape(source) => {
                ComplexError::Shape { computation: comp.name.clone(), instruction: inst.name.clone(), source }
            }
            Fail::Unsupported(message) => ComplexError::Unsupported {
                computation: comp.name.clone(),
                instruction: inst.name.clone(),
                opcode: inst.opcode,
                message,
            },
        })?;
        l.map.insert(id, new);
    }
    let Some(&root) = l.map.get(&comp.root) else {
        return Err(ComplexError::Unsupported {
            computation: comp.name.clone(),
            instruction: "ROOT".into(),
            opcode: Opcode::Tuple,
            message: "the root is not an instruction of the computation".into(),
        });
    };
    let shape_error = |source| ComplexError::Shape {
        computation: comp.name.clone(),
        instruction: comp.root_inst().name.clone(),
        source,
    };
    l.b.build(root).map_err(shape_error)
}

enum Fail {
    Shape(ShapeError),
    Unsupported(String),
}

impl From<ShapeError> for Fail {
    fn from(e: ShapeError) -> Fail {
        Fail::Shape(e)
    }
}

type Step<T> = std::result::Result<T, Fail>;

fn unsupported<T>(message: impl Into<String>) -> Step<T> {
    Err(Fail::Unsupported(message.into()))
}

struct Lowering<'m> {
    b: ComputationBuilder<'m>,
    module: &'m Module,
    comp: &'m Computation,
    reducers: &'m HashMap<(Combine, DType), CompId>,
    comparators: &'m HashMap<CompId, CompId>,
    combiners: &'m HashMap<CompId, CompId>,
    /// Old instruction -> its lowered value (complex values as parts).
    map: HashMap<InstId, InstId>,
}

/// A complex value's logical shape: the component type and dimensions.
#[derive(Clone)]
struct Logical {
    t: DType,
    dims: Dims,
}

impl<'m> Lowering<'m> {
    fn operand_shape(&self, inst: &Instruction, k: usize) -> &'m Shape {
        &self.comp.inst(inst.operand(k)).shape
    }

    fn operand_array(&self, inst: &Instruction, k: usize) -> Step<&'m ArrayShape> {
        match self.operand_shape(inst, k).as_array() {
            Some(a) => Ok(a),
            None => unsupported(format!("operand {k} is a tuple")),
        }
    }

    fn result_array<'i>(&self, inst: &'i Instruction) -> Step<&'i ArrayShape> {
        match inst.shape.as_array() {
            Some(a) => Ok(a),
            None => unsupported("the result is a tuple"),
        }
    }

    /// Rebuilds `inst` on the lowered operands and callees, with its stored shape.
    fn same(&mut self, inst: &Instruction, attrs: Attrs, operands: &[InstId]) -> Step<InstId> {
        let called: Vec<CompId> = inst.called.to_vec();
        let id =
            self.b.add_named(Some(&inst.name), inst.opcode, operands, attrs, &called, Some(inst.shape.storage()))?;
        let extras = self.b.extras_mut(id)?;
        *extras = (*inst.extras).clone();
        extras.control_predecessors =
            inst.extras.control_predecessors.iter().filter_map(|p| self.map.get(p)).copied().collect();
        Ok(id)
    }

    /// Names the value `inst` lowers to after it (keeping names in profiles and
    /// errors) by adding a copy-free alias: the last instruction built gets the name.
    fn named(&mut self, inst: &Instruction, value: InstId) -> Step<InstId> {
        let shape = self.b.shape(value)?.clone();
        // A reshape to the same shape is free and carries the old name.
        let id = self.b.add_named(Some(&inst.name), Opcode::Reshape, &[value], Attrs::None, &[], Some(shape))?;
        Ok(id)
    }

    fn instruction(&mut self, inst: &Instruction) -> Step<InstId> {
        let Some(ops) = inst.operands.iter().map(|o| self.map.get(o).copied()).collect::<Option<Vec<InstId>>>() else {
            return unsupported("an operand is not an instruction of the computation");
        };
        if !touches_complex(self.comp, inst) {
            return self.same(inst, inst.attrs.clone(), &ops);
        }
        use Opcode as O;
        let value = match inst.opcode {
            O::Parameter
            | O::Constant
            | O::Tuple
            | O::GetTupleElement
            | O::Call
            | O::CustomCall
            | O::Fusion
            | O::While
            | O::Conditional
            | O::Copy
            | O::OptimizationBarrier
            | O::Add
            | O::Subtract
            | O::Negate
            | O::Concatenate
            | O::Reverse
            | O::Reshape
            | O::Bitcast
            | O::AddDependency => return self.same(inst, inst.attrs.clone(), &ops),
            O::Broadcast => {
                let out = self.result_array(inst)?.rank() as i64;
                let mut dims = inst.attrs.dimensions().to_vec();
                dims.push(out);
                return self.same(inst, Attrs::Dimensions(dims.into()), &ops);
            }
            O::Transpose => {
                let n = inst.attrs.dimensions().len() as i64;
                let mut perm = inst.attrs.dimensions().to_vec();
                perm.push(n);
                return self.same(inst, Attrs::Dimensions(perm.into()), &ops);
            }
            O::Slice => {
                let Attrs::Slice(s) = &inst.attrs else { return unsupported("slice without a slice config") };
                let mut s = s.clone();
                s.push(SliceDim { start: 0, limit: 2, stride: 1 });
                return self.same(inst, Attrs::Slice(s), &ops);
            }
            O::DynamicSlice => {
                let Attrs::DynamicSlice { sizes } = &inst.attrs else { return unsupported("no slice sizes") };
                let mut sizes = sizes.clone();
                sizes.push(2);
                let zero = self.zero_index(inst, 1)?;
                let mut ops = ops;
                ops.push(zero);
                return self.same(inst, Attrs::DynamicSlice { sizes }, &ops);
            }
            O::DynamicUpdateSlice => {
                let zero = self.zero_index(inst, 2)?;
                let mut ops = ops;
                ops.push(zero);
                return self.same(inst, Attrs::None, &ops);
            }
            O::Gather => {
                let Attrs::Gather(g) = &inst.attrs else { return unsupported("gather without attributes") };
                let mut g = g.clone();
                g.slice_sizes.push(2);
                g.offset_dims.push(self.result_array(inst)?.rank() as i64);
                return self.same(inst, Attrs::Gather(g), &ops);
            }
            O::Scatter => return self.scatter(inst, &ops),
            O::Select => {
                let a = self.result_array(inst)?;
                let storage = a.storage();
                let pred_dims: Vec<i64> = (0..a.rank() as i64).collect();
                let p = self.b.broadcast(ops[0], &storage.dims, &pred_dims)?;
                return self.same(inst, Attrs::None, &[p, ops[1], ops[2]]);
            }
            O::Pad => {
                let Attrs::Pad(cfg) = &inst.attrs else { return unsupported("pad without a config") };
                let x = self.logical(self.operand_array(inst, 0)?)?;
                let (xr, xi) = self.parts(ops[0], &x)?;
                let scalar = Logical { t: x.t, dims: Dims::new() };
                let (vr, vi) = self.parts(ops[1], &scalar)?;
                let pr = self.b.pad(xr, vr, cfg)?;
                let pi = self.b.pad(xi, vi, cfg)?;
                let out = self.logical(self.result_array(inst)?)?;
                self.pack(pr, pi, &out)?
            }
            O::Real | O::Imag => {
                let a = self.operand_array(inst, 0)?;
                if !a.dtype.is_complex() {
                    if inst.opcode == O::Real {
                        ops[0]
                    } else {
                        let x = Logical { t: a.dtype, dims: a.dims.clone() };
                        self.splat(0.0, &x)?
                    }
                } else {
                    let x = self.logical(a)?;
                    let (re, im) = self.parts(ops[0], &x)?;
                    if inst.opcode == O::Real { re } else { im }
                }
            }
            O::Complex => {
                let out = self.logical(self.result_array(inst)?)?;
                self.pack(ops[0], ops[1], &out)?
            }
            O::Convert => {
                let from = self.operand_array(inst, 0)?;
                let to = self.result_array(inst)?;
                if from.dtype.is_complex() {
                    // complex -> complex: each part (shape inference refuses complex -> real).
                    return self.same(inst, Attrs::None, &ops);
                }
                let out = self.logical(to)?;
                let re = self.b.convert(ops[0], out.t)?;
                let im = self.splat(0.0, &out)?;
                self.pack(re, im, &out)?
            }
            O::Dot | O::Convolution => return self.bilinear(inst, &ops),
            O::Reduce => return self.reduce(inst, &ops),
            O::Sort => return self.sort(inst, &ops),
            O::ReduceWindow => {
                // Each part on its own, from its part of the initial value.
                if ops.len() != 2 {
                    return unsupported("a reduce-window of several operands with complex values is not supported");
                }
                let out = self.logical(self.result_array(inst)?)?;
                let (add, kind) = self.reducer(inst, out.t)?;
                if kind != Combine::Add {
                    return unsupported("complex values reduce only by adding");
                }
                let x = self.logical(self.operand_array(inst, 0)?)?;
                let (xr, xi) = self.parts(ops[0], &x)?;
                let (vr, vi) = self.parts(ops[1], &Logical { t: x.t, dims: Dims::new() })?;
                let window = |l: &mut Self, v: InstId, init: InstId| -> Step<InstId> {
                    Ok(l.b.add_instruction(O::ReduceWindow, &[v, init], inst.attrs.clone(), &[add], None)?)
                };
                let re = window(self, xr, vr)?;
                let im = window(self, xi, vi)?;
                self.pack(re, im, &out)?
            }
            O::Fft => return self.fft(inst, &ops),
            O::Compare => {
                let Attrs::Compare { direction, .. } = inst.attrs else { return unsupported("no direction") };
                let x = self.logical(self.operand_array(inst, 0)?)?;
                let (a, b) = self.parts(ops[0], &x)?;
                let (c, d) = self.parts(ops[1], &x)?;
                let mut f = Parts { b: &mut self.b, x: x.clone() };
                match direction {
                    // Ordered: NaN parts compare unequal.
                    Dir::Eq => {
                        let (p, q) = (f.cmp(Dir::Eq, a, c)?, f.cmp(Dir::Eq, b, d)?);
                        f.bin(O::And, p, q)?
                    }
                    // Unordered: true when a part is NaN.
                    Dir::Ne => {
                        let (p, q) = (f.cmp(Dir::Ne, a, c)?, f.cmp(Dir::Ne, b, d)?);
                        f.bin(O::Or, p, q)?
                    }
                    _ => return unsupported("complex numbers are not ordered"),
                }
            }
            O::Abs => {
                let x = self.logical(self.operand_array(inst, 0)?)?;
                let (a, b) = self.parts(ops[0], &x)?;
                Parts { b: &mut self.b, x }.abs(a, b)?
            }
            O::Sign
            | O::Exp
            | O::Expm1
            | O::Log
            | O::Log1p
            | O::Sine
            | O::Cosine
            | O::Tan
            | O::Tanh
            | O::Sqrt
            | O::Rsqrt => {
                let x = self.logical(self.operand_array(inst, 0)?)?;
                let (a, b) = self.parts(ops[0], &x)?;
                let (re, im) = Parts { b: &mut self.b, x: x.clone() }.unary(inst.opcode, a, b)?;
                self.pack(re, im, &x)?
            }
            O::Multiply | O::Divide | O::Power => {
                let x = self.logical(self.operand_array(inst, 0)?)?;
                let (a, b) = self.parts(ops[0], &x)?;
                let (c, d) = self.parts(ops[1], &x)?;
                let mut f = Parts { b: &mut self.b, x: x.clone() };
                let (re, im) = match inst.opcode {
                    O::Multiply => f.mul((a, b), (c, d))?,
                    O::Divide => f.div((a, b), (c, d))?,
                    _ => f.pow((a, b), (c, d))?,
                };
                self.pack(re, im, &x)?
            }
            op => return unsupported(format!("{op} of complex values is not supported")),
        };
        self.named(inst, value)
    }

    fn logical(&self, a: &ArrayShape) -> Step<Logical> {
        Ok(Logical { t: a.dtype.component(), dims: a.dims.clone() })
    }

    /// The real and imaginary parts of the stored value `v`.
    fn parts(&mut self, v: InstId, x: &Logical) -> Step<(InstId, InstId)> {
        let mut starts = vec![0; x.dims.len() + 1];
        let mut limits: Vec<i64> = x.dims.iter().copied().chain([1]).collect();
        let strides = vec![1; x.dims.len() + 1];
        let n = x.dims.len();
        let re = self.b.slice(v, &starts, &limits, &strides)?;
        starts[n] = 1;
        limits[n] = 2;
        let im = self.b.slice(v, &starts, &limits, &strides)?;
        Ok((self.b.reshape(re, &x.dims)?, self.b.reshape(im, &x.dims)?))
    }

    /// The stored value of the complex number with parts `re` and `im`.
    fn pack(&mut self, re: InstId, im: InstId, x: &Logical) -> Step<InstId> {
        let one: Vec<i64> = x.dims.iter().copied().chain([1]).collect();
        let r = self.b.reshape(re, &one)?;
        let i = self.b.reshape(im, &one)?;
        Ok(self.b.concatenate(&[r, i], x.dims.len() as i64)?)
    }

    fn splat(&mut self, v: f64, x: &Logical) -> Step<InstId> {
        Parts { b: &mut self.b, x: x.clone() }.c(v)
    }

    /// A zero start index of the type of `inst`'s other start indices (from operand `first`).
    fn zero_index(&mut self, inst: &Instruction, first: usize) -> Step<InstId> {
        let t = match inst.operands.get(first) {
            Some(&o) => self.comp.inst(o).shape.as_array().map_or(DType::S32, |a| a.dtype),
            None => DType::S32,
        };
        Ok(self.b.constant(Literal::Array(Array::new([], ArrayData::zeros(t, 1))))?)
    }

    /// `dot` or `convolution` of complex operands: four real products of the parts.
    fn bilinear(&mut self, inst: &Instruction, ops: &[InstId]) -> Step<InstId> {
        let (la, ra) = (self.operand_array(inst, 0)?, self.operand_array(inst, 1)?);
        let out = self.logical(self.result_array(inst)?)?;
        let split = |l: &mut Self, v: InstId, a: &ArrayShape| -> Step<(InstId, Option<InstId>)> {
            if a.dtype.is_complex() {
                let x = l.logical(a)?;
                let (re, im) = l.parts(v, &x)?;
                Ok((re, Some(im)))
            } else {
                Ok((l.b.convert(v, out.t)?, None))
            }
        };
        let (ar, ai) = split(self, ops[0], la)?;
        let (br, bi) = split(self, ops[1], ra)?;
        // The same product of real operands, giving the component type.
        let real_shape = Shape::array(out.t, &out.dims);
        let dot = |l: &mut Self, x: InstId, y: InstId| -> Step<InstId> {
            let attrs = inst.attrs.clone();
            Ok(l.b.add_instruction(inst.opcode, &[x, y], attrs, &[], Some(real_shape.clone()))?)
        };
        let rr = dot(self, ar, br)?;
        let (re, im) = match (ai, bi) {
            (Some(ai), Some(bi)) => {
                let ii = dot(self, ai, bi)?;
                let ri = dot(self, ar, bi)?;
                let ir = dot(self, ai, br)?;
                (self.b.binary(Opcode::Subtract, rr, ii)?, self.b.binary(Opcode::Add, ri, ir)?)
            }
            (Some(ai), None) => (rr, dot(self, ai, br)?),
            (None, Some(bi)) => (rr, dot(self, ar, bi)?),
            (None, None) => (rr, self.splat(0.0, &out)?),
        };
        let v = self.pack(re, im, &out)?;
        self.named(inst, v)
    }

    fn reducer(&self, inst: &Instruction, t: DType) -> Step<(CompId, Combine)> {
        let callee = inst.to_apply().ok_or_else(|| Fail::Unsupported("no combiner".into()))?;
        let Some(kind) = combine_of(self.module.comp(callee)) else {
            return unsupported("combining complex values other than by adding or overwriting is not supported");
        };
        match self.reducers.get(&(kind, t)) {
            Some(&c) => Ok((c, kind)),
            None => unsupported("no real combiner was prepared"),
        }
    }

    /// `reduce` of one complex operand: by addition the parts reduce apart
    /// and the initial value is added once; any other combiner (a product)
    /// becomes a reduce of the two parts whose combiner rebuilds the complex
    /// numbers.
    fn reduce(&mut self, inst: &Instruction, ops: &[InstId]) -> Step<InstId> {
        if ops.len() != 2 {
            return unsupported("a reduce of several operands with complex values is not supported");
        }
        let out = self.result_array(inst)?;
        let t = out.dtype.component();
        if let Some(&combiner) = inst.to_apply().and_then(|c| self.combiners.get(&c)) {
            let x = self.logical(self.operand_array(inst, 0)?)?;
            let (re, im) = self.parts(ops[0], &x)?;
            let scalar = Logical { t, dims: Dims::new() };
            let (init_re, init_im) = self.parts(ops[1], &scalar)?;
            let r = self.b.reduce(&[re, im], &[init_re, init_im], inst.attrs.dimensions(), combiner)?;
            let (re, im) = (self.b.get_tuple_element(r, 0)?, self.b.get_tuple_element(r, 1)?);
            let v = self.pack(re, im, &self.logical(out)?)?;
            return self.named(inst, v);
        }
        let (add, kind) = self.reducer(inst, t)?;
        if kind != Combine::Add {
            return unsupported("complex values reduce only by adding");
        }
        let zero = self.splat(0.0, &Logical { t, dims: Dims::new() })?;
        let sum = self.b.reduce(&[ops[0]], &[zero], inst.attrs.dimensions(), add)?;
        let storage = out.storage();
        let init = self.b.broadcast(ops[1], &storage.dims, &[out.rank() as i64])?;
        let v = self.b.binary(Opcode::Add, sum, init)?;
        self.named(inst, v)
    }

    fn scatter(&mut self, inst: &Instruction, ops: &[InstId]) -> Step<InstId> {
        if ops.len() != 3 {
            return unsupported("a scatter of several operands with complex values is not supported");
        }
        let Attrs::Scatter(s) = &inst.attrs else { return unsupported("scatter without attributes") };
        let updates = self.operand_array(inst, 2)?;
        let t = self.result_array(inst)?.dtype.component();
        let (combiner, _) = self.reducer(inst, t)?;
        let mut s = s.clone();
        s.update_window_dims.push(updates.rank() as i64);
        let id = self.b.add_named(
            Some(&inst.name),
            Opcode::Scatter,
            ops,
            Attrs::Scatter(s),
            &[combiner],
            Some(inst.shape.storage()),
        )?;
        Ok(id)
    }

    /// `sort` of complex values: each one's parts as two operands, compared
    /// by the original comparator on the complex numbers they make.
    fn sort(&mut self, inst: &Instruction, ops: &[InstId]) -> Step<InstId> {
        let Some(&comparator) = inst.to_apply().and_then(|c| self.comparators.get(&c)) else {
            return unsupported("no comparator on the parts was prepared");
        };
        let mut operands = Vec::new();
        let mut shapes = Vec::new();
        for (k, &v) in ops.iter().enumerate() {
            let a = self.operand_array(inst, k)?;
            if a.dtype.is_complex() {
                let x = self.logical(a)?;
                let (re, im) = self.parts(v, &x)?;
                operands.extend([re, im]);
                shapes.push(Some(x));
            } else {
                operands.push(v);
                shapes.push(None);
            }
        }
        let sorted = self.b.add_instruction(Opcode::Sort, &operands, inst.attrs.clone(), &[comparator], None)?;
        let mut results = Vec::new();
        let mut at = 0;
        for x in &shapes {
            let first = self.b.get_tuple_element(sorted, at)?;
            match x {
                Some(x) => {
                    let second = self.b.get_tuple_element(sorted, at + 1)?;
                    results.push(self.pack(first, second, x)?);
                    at += 2;
                }
                None => {
                    results.push(first);
                    at += 1;
                }
            }
        }
        match results[..] {
            [only] => self.named(inst, only),
            _ => Ok(self.b.add_named(Some(&inst.name), Opcode::Tuple, &results, Attrs::None, &[], None)?),
        }
    }

    /// `fft` as a custom call on the parts, computed by `smelt-linalg`.
    fn fft(&mut self, inst: &Instruction, ops: &[InstId]) -> Step<InstId> {
        let Attrs::Fft { kind, lengths } = &inst.attrs else { return unsupported("fft without attributes") };
        let attrs = Attrs::CustomCall(Box::new(CustomCallAttrs { target: fft_target(*kind).into(), raw: Vec::new() }));
        let id = self.b.add_named(Some(&inst.name), Opcode::CustomCall, ops, attrs, &[], Some(inst.shape.storage()))?;
        self.b.extras_mut(id)?.backend_config = Some(format!("{{fft_rank = {} : i64}}", lengths.len()));
        Ok(id)
    }
}

/// Real arithmetic on the parts of complex values of one logical shape.
struct Parts<'a, 'm> {
    b: &'a mut ComputationBuilder<'m>,
    x: Logical,
}

type Pair = (InstId, InstId);

impl Parts<'_, '_> {
    /// The constant `v` in every element.
    fn c(&mut self, v: f64) -> Step<InstId> {
        let s = self.b.constant(Literal::Array(Array::new([], ArrayData::from_f64(self.x.t, [v]))))?;
        if self.x.dims.is_empty() {
            return Ok(s);
        }
        Ok(self.b.broadcast(s, &self.x.dims.clone(), &[])?)
    }

    fn un(&mut self, op: Opcode, x: InstId) -> Step<InstId> {
        Ok(self.b.unary(op, x)?)
    }

    fn bin(&mut self, op: Opcode, x: InstId, y: InstId) -> Step<InstId> {
        Ok(self.b.binary(op, x, y)?)
    }

    fn add(&mut self, x: InstId, y: InstId) -> Step<InstId> {
        self.bin(Opcode::Add, x, y)
    }

    fn sub(&mut self, x: InstId, y: InstId) -> Step<InstId> {
        self.bin(Opcode::Subtract, x, y)
    }

    fn mul_r(&mut self, x: InstId, y: InstId) -> Step<InstId> {
        self.bin(Opcode::Multiply, x, y)
    }

    fn div_r(&mut self, x: InstId, y: InstId) -> Step<InstId> {
        self.bin(Opcode::Divide, x, y)
    }

    /// `k * x` for a constant `k`.
    fn scale(&mut self, k: f64, x: InstId) -> Step<InstId> {
        let k = self.c(k)?;
        self.mul_r(k, x)
    }

    fn cmp(&mut self, d: Dir, x: InstId, y: InstId) -> Step<InstId> {
        Ok(self.b.compare(d, x, y)?)
    }

    /// `x == k` (ordered) for a constant `k`.
    fn is(&mut self, x: InstId, k: f64) -> Step<InstId> {
        let k = self.c(k)?;
        self.cmp(Dir::Eq, x, k)
    }

    fn is_nan(&mut self, x: InstId) -> Step<InstId> {
        self.cmp(Dir::Ne, x, x)
    }

    /// Ordered not-equal (false when either side is NaN).
    fn one(&mut self, x: InstId, y: InstId) -> Step<InstId> {
        let lt = self.cmp(Dir::Lt, x, y)?;
        let gt = self.cmp(Dir::Gt, x, y)?;
        self.bin(Opcode::Or, lt, gt)
    }

    fn and(&mut self, p: InstId, q: InstId) -> Step<InstId> {
        self.bin(Opcode::And, p, q)
    }

    fn or(&mut self, p: InstId, q: InstId) -> Step<InstId> {
        self.bin(Opcode::Or, p, q)
    }

    fn not(&mut self, p: InstId) -> Step<InstId> {
        self.un(Opcode::Not, p)
    }

    fn sel(&mut self, p: InstId, x: InstId, y: InstId) -> Step<InstId> {
        Ok(self.b.select(p, x, y)?)
    }

    fn abs_r(&mut self, x: InstId) -> Step<InstId> {
        self.un(Opcode::Abs, x)
    }

    /// `|x| == inf`.
    fn is_inf(&mut self, x: InstId) -> Step<InstId> {
        let a = self.abs_r(x)?;
        self.is(a, f64::INFINITY)
    }

    /// `|x|` with the sign of `y`, through the bits.
    fn copysign(&mut self, x: InstId, y: InstId) -> Step<InstId> {
        let (bits, sign) = match self.x.t {
            DType::F32 => (DType::U32, 1u64 << 31),
            _ => (DType::U64, 1u64 << 63),
        };
        let mask = |l: &mut Self, m: u64| -> Step<InstId> {
            let data = match bits {
                DType::U32 => ArrayData::U32(vec![m as u32]),
                _ => ArrayData::U64(vec![m]),
            };
            let s = l.b.constant(Literal::Array(Array::new([], data)))?;
            if l.x.dims.is_empty() {
                return Ok(s);
            }
            Ok(l.b.broadcast(s, &l.x.dims.clone(), &[])?)
        };
        let xb = self.b.bitcast_convert(x, bits)?;
        let yb = self.b.bitcast_convert(y, bits)?;
        let magnitude = mask(self, !sign)?;
        let sign = mask(self, sign)?;
        let m = self.bin(Opcode::And, xb, magnitude)?;
        let s = self.bin(Opcode::And, yb, sign)?;
        let r = self.bin(Opcode::Or, m, s)?;
        Ok(self.b.bitcast_convert(r, self.x.t)?)
    }

    /// `copysign(k, y)` for a constant `k`.
    fn signed(&mut self, k: f64, y: InstId) -> Step<InstId> {
        let k = self.c(k)?;
        self.copysign(k, y)
    }

    /// `max(|a|, |b|)`, `min(|a|, |b|)` and `1 + (min / max)^2` (XLA's `EmitComplexAbsHelper`).
    fn abs_helper(&mut self, a: InstId, b: InstId) -> Step<(InstId, InstId, InstId)> {
        let (aa, ab) = (self.abs_r(a)?, self.abs_r(b)?);
        let mx = self.bin(Opcode::Maximum, aa, ab)?;
        let mn = self.bin(Opcode::Minimum, aa, ab)?;
        let q = self.div_r(mn, mx)?;
        let qq = self.mul_r(q, q)?;
        let one = self.c(1.0)?;
        let t = self.add(one, qq)?;
        Ok((mx, mn, t))
    }

    /// `|z|` without overflow: `max * sqrt(1 + (min / max)^2)`, `min` where that is NaN.
    fn abs(&mut self, a: InstId, b: InstId) -> Step<InstId> {
        let (mx, mn, t) = self.abs_helper(a, b)?;
        let s = self.un(Opcode::Sqrt, t)?;
        let r = self.mul_r(mx, s)?;
        let nan = self.is_nan(r)?;
        self.sel(nan, mn, r)
    }

    fn mul(&mut self, (a, b): Pair, (c, d): Pair) -> Step<Pair> {
        let (ac, bd) = (self.mul_r(a, c)?, self.mul_r(b, d)?);
        let (ad, bc) = (self.mul_r(a, d)?, self.mul_r(b, c)?);
        Ok((self.sub(ac, bd)?, self.add(ad, bc)?))
    }

    /// Smith's algorithm, then XLA's repair of a NaN result: a zero divisor, an
    /// infinite numerator or an infinite divisor.
    fn div(&mut self, (a, b): Pair, (c, d): Pair) -> Step<Pair> {
        let rcd = self.div_r(c, d)?;
        let t = self.mul_r(rcd, c)?;
        let dcd = self.add(d, t)?;
        let rdc = self.div_r(d, c)?;
        let t = self.mul_r(rdc, d)?;
        let ddc = self.add(c, t)?;
        let (ac, ad) = (self.abs_r(c)?, self.abs_r(d)?);
        let lt = self.cmp(Dir::Lt, ac, ad)?;
        // |c| < |d|: ((c/d) a + b) / (d + (c/d) c), ((c/d) b - a) / (d + (c/d) c).
        let t = self.mul_r(rcd, a)?;
        let t = self.add(t, b)?;
        let re_lt = self.div_r(t, dcd)?;
        let t = self.mul_r(rcd, b)?;
        let t = self.sub(t, a)?;
        let im_lt = self.div_r(t, dcd)?;
        // Otherwise: ((d/c) b + a) / (c + (d/c) d), (b - (d/c) a) / (c + (d/c) d).
        let t = self.mul_r(rdc, b)?;
        let t = self.add(t, a)?;
        let re_ge = self.div_r(t, ddc)?;
        let t = self.mul_r(rdc, a)?;
        let t = self.sub(b, t)?;
        let im_ge = self.div_r(t, ddc)?;
        let er = self.sel(lt, re_lt, re_ge)?;
        let ei = self.sel(lt, im_lt, im_ge)?;
        // Repairs, only where both parts are NaN.
        let (nr, ni) = (self.is_nan(er)?, self.is_nan(ei)?);
        let both_nan = self.and(nr, ni)?;
        let inf = self.c(f64::INFINITY)?;
        let (aa, ab) = (self.abs_r(a)?, self.abs_r(b)?);
        // Zero divisor, numerator not all NaN: copysign(inf, c) * (a, b).
        let (c0, d0) = (self.is(ac, 0.0)?, self.is(ad, 0.0)?);
        let zero_den = self.and(c0, d0)?;
        let (an, bn) = (self.is_nan(a)?, self.is_nan(b)?);
        let (an, bn) = (self.not(an)?, self.not(bn)?);
        let some_num = self.or(an, bn)?;
        let case1 = self.and(zero_den, some_num)?;
        let k = self.copysign(inf, c)?;
        let r1 = (self.mul_r(k, a)?, self.mul_r(k, b)?);
        // Infinite numerator, finite divisor.
        let (ai, bi) = (self.is(aa, f64::INFINITY)?, self.is(ab, f64::INFINITY)?);
        let inf_num = self.or(ai, bi)?;
        let (cf, df) = (self.one(ac, inf)?, self.one(ad, inf)?);
        let fin_den = self.and(cf, df)?;
        let case2 = self.and(inf_num, fin_den)?;
        let zero = self.c(0.0)?;
        let ar = self.unit_sign(a, ai)?;
        let br = self.unit_sign(b, bi)?;
        let (r2r, r2i) = self.scaled_product(inf, (ar, br), (c, d))?;
        // Infinite divisor, finite numerator.
        let (ci, di) = (self.is(ac, f64::INFINITY)?, self.is(ad, f64::INFINITY)?);
        let inf_den = self.or(ci, di)?;
        let (af, bf) = (self.one(aa, inf)?, self.one(ab, inf)?);
        let fin_num = self.and(af, bf)?;
        let case3 = self.and(inf_den, fin_num)?;
        let cr = self.unit_sign(c, ci)?;
        let dr = self.unit_sign(d, di)?;
        let (r3r, r3i) = self.scaled_product(zero, (a, b), (cr, dr))?;
        let c3 = self.and(both_nan, case3)?;
        let re = self.sel(c3, r3r, er)?;
        let im = self.sel(c3, r3i, ei)?;
        let c2 = self.and(both_nan, case2)?;
        let re = self.sel(c2, r2r, re)?;
        let im = self.sel(c2, r2i, im)?;
        let c1 = self.and(both_nan, case1)?;
        Ok((self.sel(c1, r1.0, re)?, self.sel(c1, r1.1, im)?))
    }

    /// `copysign(1, x)` where `inf` holds, else `copysign(0, x)`.
    fn unit_sign(&mut self, x: InstId, inf: InstId) -> Step<InstId> {
        let (one, zero) = (self.c(1.0)?, self.c(0.0)?);
        let t = self.sel(inf, one, zero)?;
        self.copysign(t, x)
    }

    /// `(k (p c + q d), k (q c - p d))`: the repaired quotients' shape.
    fn scaled_product(&mut self, k: InstId, (p, q): Pair, (c, d): Pair) -> Step<Pair> {
        let (x, y) = (self.mul_r(p, c)?, self.mul_r(q, d)?);
        let t = self.add(x, y)?;
        let re = self.mul_r(k, t)?;
        let (x, y) = (self.mul_r(q, c)?, self.mul_r(p, d)?);
        let t = self.sub(x, y)?;
        Ok((re, self.mul_r(k, t)?))
    }

    /// `z^w` (XLA's `EmitComplexPower`): `|z|^c e^(-d arg z)` at angle `c arg z + d log |z|`,
    /// with the exact cases `0^w`, `z^0`, `1^w` and `inf^real`.
    fn pow(&mut self, (a, b): Pair, (c, d): Pair) -> Step<Pair> {
        let m = self.abs(a, b)?;
        let mc = self.bin(Opcode::Power, m, c)?;
        let th = self.bin(Opcode::Atan2, b, a)?;
        let nd = self.un(Opcode::Negate, d)?;
        let t = self.mul_r(nd, th)?;
        let e = self.un(Opcode::Exp, t)?;
        let coeff = self.mul_r(mc, e)?;
        let t1 = self.mul_r(c, th)?;
        let lm = self.un(Opcode::Log, m)?;
        let t2 = self.mul_r(d, lm)?;
        let q = self.add(t1, t2)?;
        let (cq, sq) = (self.un(Opcode::Cosine, q)?, self.un(Opcode::Sine, q)?);
        let (mut re, mut im) = (self.mul_r(coeff, cq)?, self.mul_r(coeff, sq)?);
        let (one, zero, inf) = (self.c(1.0)?, self.c(0.0)?, self.c(f64::INFINITY)?);
        let (m0, d0, c0) = (self.is(m, 0.0)?, self.is(d, 0.0)?, self.is(c, 0.0)?);
        let b0 = self.is(b, 0.0)?;
        let cge = self.cmp(Dir::Ge, c, zero)?;
        // 0^w with real w >= 0: 1 for w = 0, else 0.
        let p = self.and(m0, d0)?;
        let p = self.and(p, cge)?;
        let v = self.sel(c0, one, zero)?;
        re = self.sel(p, v, re)?;
        im = self.sel(p, zero, im)?;
        // z^0 = 1.
        let p = self.and(c0, d0)?;
        re = self.sel(p, one, re)?;
        im = self.sel(p, zero, im)?;
        // 1^w = 1.
        let a1 = self.is(a, 1.0)?;
        let p = self.and(a1, b0)?;
        re = self.sel(p, one, re)?;
        im = self.sel(p, zero, im)?;
        // inf^c for real c: inf when c > 0, 0 when c < 0.
        let ainf = self.is(a, f64::INFINITY)?;
        let real_inf = self.and(ainf, b0)?;
        let real_inf = self.and(real_inf, d0)?;
        let cgt = self.cmp(Dir::Gt, c, zero)?;
        let p = self.and(real_inf, cgt)?;
        re = self.sel(p, inf, re)?;
        im = self.sel(p, zero, im)?;
        let clt = self.cmp(Dir::Lt, c, zero)?;
        let p = self.and(real_inf, clt)?;
        re = self.sel(p, zero, re)?;
        im = self.sel(p, zero, im)?;
        Ok((re, im))
    }

    /// `cos(x) - 1`, accurate near 0 (XLA's `EmitCosm1`).
    fn cosm1(&mut self, x: InstId) -> Step<InstId> {
        // XLA's coefficients as it writes them (each rounds to the f64 it means).
        #[allow(clippy::excessive_precision)]
        const P: [f64; 7] = [
            4.7377507964246204691685e-14,
            -1.1470284843425359765671e-11,
            2.0876754287081521758361e-9,
            -2.7557319214999787979814e-7,
            2.4801587301570552304991e-5,
            -1.3888888888888872993737e-3,
            4.1666666666666666609054e-2,
        ];
        let xx = self.mul_r(x, x)?;
        let cx = self.un(Opcode::Cosine, x)?;
        let one = self.c(1.0)?;
        let large = self.sub(cx, one)?;
        let mut p = self.c(0.0)?;
        for k in P {
            let t = self.mul_r(p, xx)?;
            let k = self.c(k)?;
            p = self.add(t, k)?;
        }
        let x4 = self.mul_r(xx, xx)?;
        let t = self.mul_r(x4, p)?;
        let h = self.scale(-0.5, xx)?;
        let small = self.add(t, h)?;
        let bound = self.c(0.61685)?;
        let big = self.cmp(Dir::Gt, xx, bound)?;
        self.sel(big, large, small)
    }

    /// The unary complex operations that give a complex result.
    fn unary(&mut self, op: Opcode, a: InstId, b: InstId) -> Step<Pair> {
        use Opcode as O;
        Ok(match op {
            O::Sign => {
                let r = self.abs(a, b)?;
                let z = self.is(r, 0.0)?;
                let zero = self.c(0.0)?;
                let (x, y) = (self.div_r(a, r)?, self.div_r(b, r)?);
                (self.sel(z, zero, x)?, self.sel(z, zero, y)?)
            }
            O::Exp => {
                let ea = self.un(O::Exp, a)?;
                let (cb, sb) = (self.un(O::Cosine, b)?, self.un(O::Sine, b)?);
                (self.mul_r(ea, cb)?, self.mul_r(ea, sb)?)
            }
            O::Expm1 => {
                let em = self.un(O::Expm1, a)?;
                let one = self.c(1.0)?;
                let ea = self.add(em, one)?;
                let cm = self.cosm1(b)?;
                let cb = self.add(cm, one)?;
                let t = self.mul_r(em, cb)?;
                let re = self.add(t, cm)?;
                let sb = self.un(O::Sine, b)?;
                let t = self.mul_r(ea, sb)?;
                let b0 = self.is(b, 0.0)?;
                let zero = self.c(0.0)?;
                (re, self.sel(b0, zero, t)?)
            }
            O::Log => {
                let r = self.abs(a, b)?;
                (self.un(O::Log, r)?, self.bin(O::Atan2, b, a)?)
            }
            O::Log1p => {
                let one = self.c(1.0)?;
                let a1 = self.add(a, one)?;
                let (aa1, ab) = (self.abs_r(a1)?, self.abs_r(b)?);
                let mx = self.bin(O::Maximum, aa1, ab)?;
                let mn = self.bin(O::Minimum, aa1, ab)?;
                let gt = self.cmp(Dir::Gt, a1, ab)?;
                let mx1 = self.sub(mx, one)?;
                let m1 = self.sel(gt, a, mx1)?;
                let rr = self.div_r(mn, mx)?;
                let rr2 = self.mul_r(rr, rr)?;
                let l = self.un(O::Log1p, rr2)?;
                let h = self.scale(0.5, l)?;
                let l1 = self.un(O::Log1p, m1)?;
                let r = self.add(h, l1)?;
                let nan = self.is_nan(r)?;
                (self.sel(nan, mn, r)?, self.bin(O::Atan2, b, a1)?)
            }
            O::Sine | O::Cosine => {
                let ey = self.un(O::Exp, b)?;
                let h = self.scale(0.5, ey)?;
                let half = self.c(0.5)?;
                let hn = self.div_r(half, ey)?;
                let sh = self.sub(h, hn)?;
                let ch = self.add(h, hn)?;
                let (sa, ca) = (self.un(O::Sine, a)?, self.un(O::Cosine, a)?);
                if op == O::Sine {
                    (self.mul_r(sa, ch)?, self.mul_r(ca, sh)?)
                } else {
                    let t = self.mul_r(sa, sh)?;
                    (self.mul_r(ca, ch)?, self.un(O::Negate, t)?)
                }
            }
            O::Tanh => self.tanh(a, b)?,
            O::Tan => {
                // tan z = -i tanh(i z), i z = (-b, a).
                let nb = self.scale(-1.0, b)?;
                let (re, im) = self.tanh(nb, a)?;
                (im, self.scale(-1.0, re)?)
            }
            O::Sqrt => self.sqrt(a, b)?,
            O::Rsqrt => self.rsqrt(a, b)?,
            _ => return unsupported(format!("{op} of complex values is not supported")),
        })
    }

    fn tanh(&mut self, a: InstId, b: InstId) -> Step<Pair> {
        use Opcode as O;
        let two = self.add(a, a)?;
        let e1 = self.un(O::Expm1, two)?;
        let neg = self.scale(-1.0, two)?;
        let e2 = self.un(O::Expm1, neg)?;
        let num_r = self.sub(e1, e2)?;
        let (cb, sb) = (self.un(O::Cosine, b)?, self.un(O::Sine, b)?);
        let cc = self.mul_r(cb, cb)?;
        let den2 = self.scale(4.0, cc)?;
        let cs = self.mul_r(cb, sb)?;
        let num_i = self.scale(4.0, cs)?;
        let s = self.add(e1, e2)?;
        let den = self.add(s, den2)?;
        let s_inf = self.is(s, f64::INFINITY)?;
        let unit = self.signed(1.0, a)?;
        let q = self.div_r(num_r, den)?;
        let re = self.sel(s_inf, unit, q)?;
        let im = self.div_r(num_i, den)?;
        let s2nan = self.is_nan(num_i)?;
        let a_inf = self.is_inf(a)?;
        let finite_a = self.not(a_inf)?;
        let p = self.and(s2nan, finite_a)?;
        let nan = self.c(f64::NAN)?;
        let re = self.sel(p, nan, re)?;
        let b0 = self.is(b, 0.0)?;
        let q = self.and(a_inf, s2nan)?;
        let p = self.or(b0, q)?;
        let zero = self.c(0.0)?;
        let im = self.sel(p, zero, im)?;
        Ok((re, im))
    }

    fn sqrt(&mut self, a: InstId, b: InstId) -> Step<Pair> {
        use Opcode as O;
        let (mx, mn, t) = self.abs_helper(a, b)?;
        let sm = self.un(O::Sqrt, mx)?;
        let quarter = self.c(0.25)?;
        let p = self.bin(O::Power, t, quarter)?;
        let r = self.mul_r(sm, p)?;
        let rn = self.is_nan(r)?;
        let r = self.sel(rn, mn, r)?;
        let th = self.bin(O::Atan2, b, a)?;
        let g = self.scale(0.5, th)?;
        let (cg, sg) = (self.un(O::Cosine, g)?, self.un(O::Sine, g)?);
        let (inf, zero, nan) = (self.c(f64::INFINITY)?, self.c(0.0)?, self.c(f64::NAN)?);
        let b_inf = self.is_inf(b)?;
        let a_pinf = self.is(a, f64::INFINITY)?;
        let a_ninf = self.is(a, f64::NEG_INFINITY)?;
        let ab = self.abs_r(b)?;
        let b_fin = self.one(ab, inf)?;
        let rcg = self.mul_r(r, cg)?;
        let p = self.and(a_ninf, b_fin)?;
        let inner = self.sel(p, zero, rcg)?;
        let p = self.or(b_inf, a_pinf)?;
        let re = self.sel(p, inf, inner)?;
        let rsg = self.mul_r(r, sg)?;
        let sg0 = self.is(sg, 0.0)?;
        let inner = self.sel(sg0, sg, rsg)?;
        let r_nan = self.is_nan(r)?;
        let inner = self.sel(r_nan, nan, inner)?;
        let p = self.or(b_inf, a_ninf)?;
        let inf_b = self.copysign(inf, b)?;
        let im = self.sel(p, inf_b, inner)?;
        let r0 = self.is(r, 0.0)?;
        Ok((self.sel(r0, zero, re)?, self.sel(r0, zero, im)?))
    }

    fn rsqrt(&mut self, a: InstId, b: InstId) -> Step<Pair> {
        use Opcode as O;
        let (mx, mn, t) = self.abs_helper(a, b)?;
        let s = self.un(O::Sqrt, t)?;
        let (rm, rs) = (self.un(O::Rsqrt, mx)?, self.un(O::Rsqrt, s)?);
        let r = self.mul_r(rm, rs)?;
        let rn = self.is_nan(r)?;
        let rmn = self.un(O::Rsqrt, mn)?;
        let r = self.sel(rn, rmn, r)?;
        let th = self.bin(O::Atan2, b, a)?;
        let g = self.scale(-0.5, th)?;
        let (cg, sg) = (self.un(O::Cosine, g)?, self.un(O::Sine, g)?);
        let (inf, nan, zero) = (self.c(f64::INFINITY)?, self.c(f64::NAN)?, self.c(0.0)?);
        let (a0, b0) = (self.is(a, 0.0)?, self.is(b, 0.0)?);
        let zz = self.and(b0, a0)?;
        let b_inf = self.is_inf(b)?;
        let a_nan = self.is_nan(a)?;
        let a_inf = self.is_inf(a)?;
        let p = self.and(b_inf, a_nan)?;
        let sp = self.or(p, a_inf)?;
        let za = self.copysign(zero, a)?;
        let rcg = self.mul_r(r, cg)?;
        let inner = self.sel(sp, za, rcg)?;
        let re = self.sel(zz, inf, inner)?;
        let zb = self.copysign(zero, b)?;
        let nzb = self.scale(-1.0, zb)?;
        let rsg = self.mul_r(r, sg)?;
        let inner = self.sel(sp, nzb, rsg)?;
        let im = self.sel(zz, nan, inner)?;
        Ok((re, im))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::{parse_module, print_module};
    use crate::verifier::verify;

    fn lowered(text: &str) -> Module {
        let mut m = parse_module(text).unwrap();
        verify(&m).unwrap();
        assert!(lower(&mut m).unwrap());
        verify(&m).unwrap_or_else(|e| panic!("{e}\n{}", print_module(&m)));
        m
    }

    #[test]
    fn complex_values_become_their_parts() {
        let m = lowered(
            "HloModule t\n\nENTRY e {\n  x = f32[3]{0} parameter(0)\n  y = f32[3]{0} parameter(1)\n  \
             z = c64[3]{0} complex(x, y)\n  k = c64[] constant((1, -2))\n  kb = c64[3]{0} broadcast(k), dimensions={}\n  \
             p = c64[3]{0} multiply(z, kb)\n  ROOT r = (c64[3]{0}, f32[3]{0}) tuple(p, x)\n}\n",
        );
        let root = m.entry().root_inst();
        assert_eq!(root.shape.to_string(), "(f32[3,2]{1,0}, f32[3]{0})");
        assert!(!has_complex(&m));
    }

    #[test]
    fn fft_becomes_a_custom_call_on_the_parts() {
        let m = lowered(
            "HloModule t\n\nENTRY e {\n  x = f32[2,8]{1,0} parameter(0)\n  \
             ROOT f = c64[2,5]{1,0} fft(x), fft_type=RFFT, fft_length={8}\n}\n",
        );
        let root = m.entry().root_inst();
        assert_eq!(root.opcode, Opcode::CustomCall);
        assert_eq!(root.shape.to_string(), "f32[2,5,2]{2,1,0}");
        assert_eq!(root.extras.backend_config.as_deref(), Some("{fft_rank = 1 : i64}"));
    }

    #[test]
    fn sorts_compare_complex_keys_through_their_parts() {
        let m = lowered(
            "HloModule t\n\nlt {\n  a = c64[] parameter(0)\n  b = c64[] parameter(1)\n  i = s32[] parameter(2)\n  \
             j = s32[] parameter(3)\n  ra = f32[] real(a)\n  rb = f32[] real(b)\n  \
             ROOT c = pred[] compare(ra, rb), direction=LT\n}\n\nENTRY e {\n  x = c64[5]{0} parameter(0)\n  \
             k = s32[5]{0} iota(), iota_dimension=0\n  \
             ROOT s = (c64[5]{0}, s32[5]{0}) sort(x, k), dimensions={0}, to_apply=lt\n}\n",
        );
        assert_eq!(m.entry().root_inst().shape.to_string(), "(f32[5,2]{1,0}, s32[5]{0})");
        let sort = m.entry().insts.iter().find(|(_, i)| i.opcode == Opcode::Sort).unwrap().1;
        assert_eq!(sort.operands.len(), 3);
        assert_eq!(m.comp(sort.called[0]).num_params(), 6);
    }

    #[test]
    fn products_reduce_the_parts_together() {
        let m = lowered(
            "HloModule t\n\nmul {\n  a = c64[] parameter(0)\n  b = c64[] parameter(1)\n  \
             ROOT m = c64[] multiply(a, b)\n}\n\nENTRY e {\n  x = c64[4,3]{1,0} parameter(0)\n  \
             one = c64[] constant((1, 0))\n  ROOT r = c64[4]{0} reduce(x, one), dimensions={1}, to_apply=mul\n}\n",
        );
        assert_eq!(m.entry().root_inst().shape.to_string(), "f32[4,2]{1,0}");
        let reduce = m.entry().insts.iter().find(|(_, i)| i.opcode == Opcode::Reduce).unwrap().1;
        assert_eq!(reduce.operands.len(), 4, "re, im and their initial values");
        let combiner = m.comp(reduce.called[0]);
        assert_eq!(combiner.num_params(), 4);
        assert_eq!(combiner.root_inst().shape.to_string(), "(f32[], f32[])");
    }

    #[test]
    fn malformed_modules_are_errors() {
        let mut m =
            parse_module("HloModule t\n\nENTRY e {\n  x = c64[3]{0} parameter(0)\n  ROOT n = c64[4]{0} negate(x)\n}\n")
                .unwrap();
        assert!(matches!(lower(&mut m), Err(ComplexError::Invalid(_))));
    }

    #[test]
    fn unsupported_operations_name_the_instruction() {
        let mut m = parse_module(
            "HloModule t\n\nENTRY e {\n  x = c64[3]{0} parameter(0)\n  ROOT m = c64[3]{0} maximum(x, x)\n}\n",
        )
        .unwrap();
        let e = lower(&mut m).unwrap_err().to_string();
        assert!(e.contains("m (maximum)"), "{e}");
    }
}
