//! Building computations and modules in Rust code.
//!
//! Tests, passes and the graph frontend construct IR here rather than by assembling
//! [`Instruction`]s by hand: every method infers the new instruction's shape with
//! [`crate::shape_inference`], names it uniquely (`add.3`), and reports bad input as a
//! [`ShapeError`] instead of panicking, so what a builder produces verifies.
//!
//! A [`ComputationBuilder`] makes one computation. Instructions that call other
//! computations (reduce, call, while, ...) need those computations' signatures, so
//! such builders come from a [`ModuleBuilder`], which owns the computations built so
//! far and makes the common scalar reducers:
//!
//! ```
//! use smelt_hlo::builder::{ModuleBuilder, Reducer};
//! use smelt_hlo::{DType, Shape, verify};
//!
//! let mut mb = ModuleBuilder::new("sum_rows");
//! let add = mb.scalar_reducer(Reducer::Add, DType::F32)?;
//! let mut b = mb.builder("main");
//! let x = b.parameter(0, Shape::array(DType::F32, [4, 8]), "x")?;
//! let zero = b.constant(smelt_hlo::Array::scalar(0f32).into())?;
//! let sum = b.reduce(&[x], &[zero], &[1], add)?;
//! let main = b.build(sum)?;
//! let entry = mb.add_computation(main);
//! let module = mb.build(entry)?;
//! assert!(verify(&module).is_ok());
//! # Ok::<(), smelt_hlo::shape_inference::ShapeError>(())
//! ```

use std::collections::{HashMap, HashSet};

use crate::attrs::{Attrs, ComparisonDirection, DotDims, PadDim, SliceDim};
use crate::computation::Computation;
use crate::dtype::DType;
use crate::id::Arena;
use crate::instruction::{CompId, InstId, Instruction};
use crate::literal::Literal;
use crate::module::{Module, ModuleConfig};
use crate::opcode::Opcode;
use crate::shape::Shape;
use crate::shape_inference::{
    ProgramShape, ShapeError, infer_bitcast_convert, infer_broadcast, infer_convert, infer_dot, infer_reshape,
    infer_shape,
};

type Result<T> = std::result::Result<T, ShapeError>;

/// Builds one computation. See the module docs.
pub struct ComputationBuilder<'m> {
    comp: Computation,
    names: HashSet<String>,
    next_id: u64,
    params: HashSet<u32>,
    /// Computations that instructions may call, by id.
    comps: Option<&'m Arena<Computation>>,
    /// Signatures of computations the module will hold under these ids once
    /// this one is built ([`Self::declare_computation`]).
    declared: HashMap<CompId, ProgramShape>,
}

impl ComputationBuilder<'static> {
    /// A builder for a computation that calls no other computation.
    pub fn new(name: impl Into<String>) -> ComputationBuilder<'static> {
        ComputationBuilder::with_computations(name, None)
    }
}

impl<'m> ComputationBuilder<'m> {
    /// A builder whose instructions may call the computations of `comps`.
    pub fn with_computations(name: impl Into<String>, comps: Option<&'m Arena<Computation>>) -> ComputationBuilder<'m> {
        ComputationBuilder {
            comp: Computation::new(name),
            names: HashSet::new(),
            next_id: 1,
            params: HashSet::new(),
            comps,
            declared: HashMap::new(),
        }
    }

    /// Lets instructions call a computation that is not in the module yet:
    /// the caller adds it under `id`, with this signature, before the module
    /// is built (a loop body made while its caller is being built).
    pub fn declare_computation(&mut self, id: CompId, signature: ProgramShape) {
        self.declared.insert(id, signature);
    }

    /// The shape of an instruction built so far.
    pub fn shape(&self, id: InstId) -> Result<&Shape> {
        self.comp.insts.get(id).map(|i| &i.shape).ok_or(ShapeError::UnknownInstruction { id })
    }

    /// `name` if it is free, else `name.N` for the first free `N`.
    fn unique_name(&mut self, name: &str) -> String {
        let mut candidate = name.to_string();
        while !self.names.insert(candidate.clone()) {
            candidate = format!("{name}.{}", self.next_id);
            self.next_id += 1;
        }
        candidate
    }

    /// `opcode.N` with a fresh `N`.
    fn auto_name(&mut self, op: Opcode) -> String {
        loop {
            let candidate = format!("{}.{}", op.name(), self.next_id);
            self.next_id += 1;
            if self.names.insert(candidate.clone()) {
                return candidate;
            }
        }
    }

    /// Adds any instruction: infers its shape from the operands, attributes and called
    /// computations (`declared` supplies what they cannot, see
    /// [`crate::shape_inference`]) and checks `declared`, if given, against it. The
    /// instruction keeps `declared` (layout included) when given, else the inferred
    /// shape.
    pub fn add_instruction(
        &mut self,
        op: Opcode,
        operands: &[InstId],
        attrs: Attrs,
        called: &[CompId],
        declared: Option<Shape>,
    ) -> Result<InstId> {
        self.add_named(None, op, operands, attrs, called, declared)
    }

    /// The tooling attributes (metadata, backend_config, ...) of an instruction built so far.
    pub fn extras_mut(&mut self, id: InstId) -> Result<&mut crate::instruction::Extras> {
        self.comp.insts.get_mut(id).map(|i| &mut *i.extras).ok_or(ShapeError::UnknownInstruction { id })
    }

    /// [`Self::add_instruction`] with a chosen name (made unique if taken), or
    /// `opcode.N` for `None`.
    pub fn add_named(
        &mut self,
        name: Option<&str>,
        op: Opcode,
        operands: &[InstId],
        attrs: Attrs,
        called: &[CompId],
        declared: Option<Shape>,
    ) -> Result<InstId> {
        let shapes = operands.iter().map(|&id| self.shape(id)).collect::<Result<Vec<_>>>()?;
        let signatures = called
            .iter()
            .map(|&id| {
                self.comps
                    .and_then(|comps| comps.get(id))
                    .and_then(ProgramShape::of)
                    .or_else(|| self.declared.get(&id).cloned())
                    .ok_or(ShapeError::UnknownComputation { id })
            })
            .collect::<Result<Vec<_>>>()?;
        let inferred = infer_shape(op, &shapes, &attrs, &signatures, declared.as_ref())?;
        let shape = match declared {
            Some(d) if !d.same_type(&inferred) => {
                return Err(ShapeError::Invalid {
                    op,
                    message: format!("declared shape {d} does not match the inferred shape {inferred}"),
                });
            }
            Some(d) => d,
            None => inferred,
        };
        if let Attrs::Parameter(n) = attrs
            && !self.params.insert(n)
        {
            return Err(ShapeError::Invalid { op, message: format!("parameter number {n} is already defined") });
        }
        let name = match name {
            Some(name) => self.unique_name(name),
            None => self.auto_name(op),
        };
        let inst = Instruction::new(name, op, shape, operands, attrs).with_called(called);
        Ok(self.comp.add(inst))
    }

    /// `parameter(number)` named `name` (made unique if taken).
    pub fn parameter(&mut self, number: u32, shape: Shape, name: &str) -> Result<InstId> {
        let name = if name.is_empty() { "param" } else { name };
        let attrs = Attrs::Parameter(number);
        self.add_named(Some(name), Opcode::Parameter, &[], attrs, &[], Some(shape))
    }

    pub fn constant(&mut self, value: Literal) -> Result<InstId> {
        self.add_instruction(Opcode::Constant, &[], Attrs::Constant(Box::new(value)), &[], None)
    }

    /// `iota` of `shape`, counting along `dimension`.
    pub fn iota(&mut self, shape: Shape, dimension: i64) -> Result<InstId> {
        self.add_instruction(Opcode::Iota, &[], Attrs::Iota { dimension }, &[], Some(shape))
    }

    /// An elementwise unary op (`negate`, `exponential`, `is-finite`, `copy`, ...).
    pub fn unary(&mut self, op: Opcode, x: InstId) -> Result<InstId> {
        self.add_instruction(op, &[x], Attrs::None, &[], None)
    }

    /// An elementwise binary op other than `compare` (`add`, `and`, `power`, ...).
    pub fn binary(&mut self, op: Opcode, lhs: InstId, rhs: InstId) -> Result<InstId> {
        self.add_instruction(op, &[lhs, rhs], Attrs::None, &[], None)
    }

    pub fn compare(&mut self, direction: ComparisonDirection, lhs: InstId, rhs: InstId) -> Result<InstId> {
        let attrs = Attrs::Compare { direction, compare_type: None };
        self.add_instruction(Opcode::Compare, &[lhs, rhs], attrs, &[], None)
    }

    pub fn select(&mut self, pred: InstId, on_true: InstId, on_false: InstId) -> Result<InstId> {
        self.add_instruction(Opcode::Select, &[pred, on_true, on_false], Attrs::None, &[], None)
    }

    pub fn clamp(&mut self, min: InstId, x: InstId, max: InstId) -> Result<InstId> {
        self.add_instruction(Opcode::Clamp, &[min, x, max], Attrs::None, &[], None)
    }

    pub fn convert(&mut self, x: InstId, dtype: DType) -> Result<InstId> {
        let shape = infer_convert(self.shape(x)?, dtype)?;
        self.add_instruction(Opcode::Convert, &[x], Attrs::None, &[], Some(shape))
    }

    pub fn bitcast_convert(&mut self, x: InstId, dtype: DType) -> Result<InstId> {
        let shape = infer_bitcast_convert(self.shape(x)?, dtype)?;
        self.add_instruction(Opcode::BitcastConvert, &[x], Attrs::None, &[], Some(shape))
    }

    /// Broadcasts `x` to dimensions `out_dims`; operand dimension `i` becomes result
    /// dimension `broadcast_dimensions[i]`.
    pub fn broadcast(&mut self, x: InstId, out_dims: &[i64], broadcast_dimensions: &[i64]) -> Result<InstId> {
        let shape = infer_broadcast(self.shape(x)?, out_dims, broadcast_dimensions)?;
        let attrs = Attrs::Dimensions(broadcast_dimensions.iter().copied().collect());
        self.add_instruction(Opcode::Broadcast, &[x], attrs, &[], Some(shape))
    }

    pub fn reshape(&mut self, x: InstId, dims: &[i64]) -> Result<InstId> {
        let shape = infer_reshape(self.shape(x)?, dims)?;
        self.add_instruction(Opcode::Reshape, &[x], Attrs::None, &[], Some(shape))
    }

    /// Result dimension `i` is operand dimension `permutation[i]`.
    pub fn transpose(&mut self, x: InstId, permutation: &[i64]) -> Result<InstId> {
        let attrs = Attrs::Dimensions(permutation.iter().copied().collect());
        self.add_instruction(Opcode::Transpose, &[x], attrs, &[], None)
    }

    pub fn reverse(&mut self, x: InstId, dims: &[i64]) -> Result<InstId> {
        let attrs = Attrs::Dimensions(dims.iter().copied().collect());
        self.add_instruction(Opcode::Reverse, &[x], attrs, &[], None)
    }

    /// `slice` with one start, limit and stride per dimension.
    pub fn slice(&mut self, x: InstId, starts: &[i64], limits: &[i64], strides: &[i64]) -> Result<InstId> {
        if starts.len() != limits.len() || starts.len() != strides.len() {
            return Err(ShapeError::Invalid {
                op: Opcode::Slice,
                message: format!("got {} starts, {} limits and {} strides", starts.len(), limits.len(), strides.len()),
            });
        }
        let dims = starts
            .iter()
            .zip(limits)
            .zip(strides)
            .map(|((&start, &limit), &stride)| SliceDim { start, limit, stride })
            .collect();
        self.add_instruction(Opcode::Slice, &[x], Attrs::Slice(dims), &[], None)
    }

    pub fn concatenate(&mut self, xs: &[InstId], dimension: i64) -> Result<InstId> {
        let attrs = Attrs::Concatenate { dimension };
        self.add_instruction(Opcode::Concatenate, xs, attrs, &[], None)
    }

    pub fn pad(&mut self, x: InstId, value: InstId, padding: &[PadDim]) -> Result<InstId> {
        let attrs = Attrs::Pad(padding.to_vec());
        self.add_instruction(Opcode::Pad, &[x, value], attrs, &[], None)
    }

    /// `dynamic-slice` of `sizes` at scalar start indices.
    pub fn dynamic_slice(&mut self, x: InstId, starts: &[InstId], sizes: &[i64]) -> Result<InstId> {
        let operands: Vec<InstId> = std::iter::once(x).chain(starts.iter().copied()).collect();
        let attrs = Attrs::DynamicSlice { sizes: sizes.iter().copied().collect() };
        self.add_instruction(Opcode::DynamicSlice, &operands, attrs, &[], None)
    }

    pub fn dynamic_update_slice(&mut self, x: InstId, update: InstId, starts: &[InstId]) -> Result<InstId> {
        let operands: Vec<InstId> = [x, update].into_iter().chain(starts.iter().copied()).collect();
        self.add_instruction(Opcode::DynamicUpdateSlice, &operands, Attrs::None, &[], None)
    }

    /// `reduce(operands..., inits...)` over `dims` with `reducer`, a computation of the
    /// module builder this builder came from.
    pub fn reduce(&mut self, operands: &[InstId], inits: &[InstId], dims: &[i64], reducer: CompId) -> Result<InstId> {
        let all: Vec<InstId> = operands.iter().chain(inits).copied().collect();
        let attrs = Attrs::Dimensions(dims.iter().copied().collect());
        self.add_instruction(Opcode::Reduce, &all, attrs, &[reducer], None)
    }

    /// `dot` with general dimension numbers; `out` is the result element type
    /// (XLA's preferred_element_type), the operands' when `None`.
    pub fn dot(&mut self, lhs: InstId, rhs: InstId, dims: DotDims, out: Option<DType>) -> Result<InstId> {
        let shape = infer_dot(self.shape(lhs)?, self.shape(rhs)?, &dims, out)?;
        self.add_instruction(Opcode::Dot, &[lhs, rhs], Attrs::Dot(dims), &[], Some(shape))
    }

    pub fn tuple(&mut self, elements: &[InstId]) -> Result<InstId> {
        self.add_instruction(Opcode::Tuple, elements, Attrs::None, &[], None)
    }

    pub fn get_tuple_element(&mut self, t: InstId, index: i64) -> Result<InstId> {
        let attrs = Attrs::GetTupleElement { index };
        self.add_instruction(Opcode::GetTupleElement, &[t], attrs, &[], None)
    }

    pub fn call(&mut self, args: &[InstId], callee: CompId) -> Result<InstId> {
        self.add_instruction(Opcode::Call, args, Attrs::None, &[callee], None)
    }

    pub fn while_loop(&mut self, init: InstId, condition: CompId, body: CompId) -> Result<InstId> {
        self.add_instruction(Opcode::While, &[init], Attrs::None, &[condition, body], None)
    }

    /// Copies `comp`'s instructions into this computation, its parameter `n`
    /// bound to `args[n]`; returns the copy of every instruction (a parameter's
    /// is its argument). `comp`'s calls must name computations this builder
    /// knows. How autodiff and the graph frontend splice one computation into
    /// another.
    pub fn inline(&mut self, comp: &Computation, args: &[InstId]) -> Result<HashMap<InstId, InstId>> {
        let mut map = HashMap::with_capacity(comp.insts.len());
        for id in comp.post_order() {
            let inst = comp.inst(id);
            let new = match inst.parameter_number() {
                Some(n) => *args.get(n as usize).ok_or_else(|| ShapeError::Invalid {
                    op: Opcode::Parameter,
                    message: format!("{} takes parameter {n}, but {} arguments were given", comp.name, args.len()),
                })?,
                None => {
                    let operands: Vec<InstId> = inst.operands.iter().map(|o| map[o]).collect();
                    let attrs = inst.attrs.clone();
                    self.add_named(
                        Some(&inst.name),
                        inst.opcode,
                        &operands,
                        attrs,
                        &inst.called,
                        Some(inst.shape.clone()),
                    )?
                }
            };
            map.insert(id, new);
        }
        Ok(map)
    }

    /// Finishes the computation with `root` as its result.
    pub fn build(mut self, root: InstId) -> Result<Computation> {
        if !self.comp.insts.contains(root) {
            return Err(ShapeError::UnknownInstruction { id: root });
        }
        self.comp.root = root;
        Ok(self.comp)
    }
}

/// The scalar reductions [`ModuleBuilder::scalar_reducer`] makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reducer {
    Add,
    Max,
    Min,
    Mul,
    And,
    Or,
}

impl Reducer {
    pub fn opcode(self) -> Opcode {
        match self {
            Reducer::Add => Opcode::Add,
            Reducer::Max => Opcode::Maximum,
            Reducer::Min => Opcode::Minimum,
            Reducer::Mul => Opcode::Multiply,
            Reducer::And => Opcode::And,
            Reducer::Or => Opcode::Or,
        }
    }
}

/// `(T[], T[]) -> T[]` applying `kind`, named like `add_f32`. And/or need pred or an
/// integer type.
pub fn scalar_reducer(kind: Reducer, dtype: DType) -> Result<Computation> {
    let op = kind.opcode();
    let mut b = ComputationBuilder::new(format!("{}_{dtype}", op.name()));
    let x = b.parameter(0, Shape::scalar(dtype), "lhs")?;
    let y = b.parameter(1, Shape::scalar(dtype), "rhs")?;
    let r = b.binary(op, x, y)?;
    b.build(r)
}

/// Collects computations into a module. See the module docs.
pub struct ModuleBuilder {
    name: String,
    comps: Arena<Computation>,
    names: HashSet<String>,
    reducers: HashMap<(Reducer, DType), CompId>,
}

impl ModuleBuilder {
    pub fn new(name: impl Into<String>) -> ModuleBuilder {
        ModuleBuilder { name: name.into(), comps: Arena::new(), names: HashSet::new(), reducers: HashMap::new() }
    }

    pub fn computations(&self) -> &Arena<Computation> {
        &self.comps
    }

    /// A builder whose instructions may call this module's computations.
    pub fn builder(&self, name: impl Into<String>) -> ComputationBuilder<'_> {
        ComputationBuilder::with_computations(name, Some(&self.comps))
    }

    /// Adds a computation, renaming it (`name.N`) if its name is taken.
    pub fn add_computation(&mut self, mut comp: Computation) -> CompId {
        let base = comp.name.clone();
        let mut n = 1;
        while !self.names.insert(comp.name.clone()) {
            comp.name = format!("{base}.{n}");
            n += 1;
        }
        self.comps.alloc(comp)
    }

    /// The `(T[], T[]) -> T[]` reducer applying `kind`, made once per kind and type.
    pub fn scalar_reducer(&mut self, kind: Reducer, dtype: DType) -> Result<CompId> {
        if let Some(&id) = self.reducers.get(&(kind, dtype)) {
            return Ok(id);
        }
        let id = self.add_computation(scalar_reducer(kind, dtype)?);
        self.reducers.insert((kind, dtype), id);
        Ok(id)
    }

    /// The module, with `entry` as its entry computation. Call
    /// [`crate::verifier::verify`] on it before handing it on.
    pub fn build(self, entry: CompId) -> Result<Module> {
        if !self.comps.contains(entry) {
            return Err(ShapeError::UnknownComputation { id: entry });
        }
        Ok(Module { name: self.name, comps: self.comps, entry, config: ModuleConfig::default() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::literal::Array;
    use crate::text::{parse_module, print_module};
    use crate::verifier::verify;

    fn f32s(dims: &[i64]) -> Shape {
        Shape::array(DType::F32, dims)
    }

    /// Softmax over the last axis, built with the builder, verifies and prints as
    /// expected, and its text parses back to the same module.
    #[test]
    fn builds_a_verified_softmax() -> Result<()> {
        let mut mb = ModuleBuilder::new("softmax");
        let max = mb.scalar_reducer(Reducer::Max, DType::F32)?;
        let add = mb.scalar_reducer(Reducer::Add, DType::F32)?;
        assert_eq!(mb.scalar_reducer(Reducer::Add, DType::F32)?, add);
        let mut b = mb.builder("main");
        let x = b.parameter(0, f32s(&[2, 3]), "x")?;
        let ninf = b.constant(Array::scalar(f32::NEG_INFINITY).into())?;
        let m = b.reduce(&[x], &[ninf], &[1], max)?;
        let mb_ = b.broadcast(m, &[2, 3], &[0])?;
        let shifted = b.binary(Opcode::Subtract, x, mb_)?;
        let e = b.unary(Opcode::Exp, shifted)?;
        let zero = b.constant(Array::scalar(0f32).into())?;
        let s = b.reduce(&[e], &[zero], &[1], add)?;
        let sb = b.broadcast(s, &[2, 3], &[0])?;
        let y = b.binary(Opcode::Divide, e, sb)?;
        let main = b.build(y)?;
        let entry = mb.add_computation(main);
        let module = mb.build(entry)?;
        assert!(verify(&module).is_ok(), "{:?}", verify(&module).err());
        let text = print_module(&module);
        assert_eq!(
            text,
            "HloModule softmax\n\n\
             maximum_f32 {\n  lhs = f32[] parameter(0)\n  rhs = f32[] parameter(1)\n  \
             ROOT maximum.1 = f32[] maximum(lhs, rhs)\n}\n\n\
             add_f32 {\n  lhs = f32[] parameter(0)\n  rhs = f32[] parameter(1)\n  \
             ROOT add.1 = f32[] add(lhs, rhs)\n}\n\n\
             ENTRY main {\n  x = f32[2,3]{1,0} parameter(0)\n  \
             constant.1 = f32[] constant(-inf)\n  \
             reduce.2 = f32[2]{0} reduce(x, constant.1), dimensions={1}, to_apply=maximum_f32\n  \
             broadcast.3 = f32[2,3]{1,0} broadcast(reduce.2), dimensions={0}\n  \
             subtract.4 = f32[2,3]{1,0} subtract(x, broadcast.3)\n  \
             exponential.5 = f32[2,3]{1,0} exponential(subtract.4)\n  \
             constant.6 = f32[] constant(0)\n  \
             reduce.7 = f32[2]{0} reduce(exponential.5, constant.6), dimensions={1}, to_apply=add_f32\n  \
             broadcast.8 = f32[2,3]{1,0} broadcast(reduce.7), dimensions={0}\n  \
             ROOT divide.9 = f32[2,3]{1,0} divide(exponential.5, broadcast.8)\n}\n\n"
        );
        assert!(parse_module(&text).unwrap() == module);
        Ok(())
    }

    #[test]
    fn generic_instructions_keep_declared_layouts() -> Result<()> {
        let mut b = ComputationBuilder::new("f");
        let x = b.parameter(0, f32s(&[4, 8]), "x")?;
        let mut declared = f32s(&[4, 8]);
        if let Shape::Array(a) = &mut declared {
            a.layout.minor_to_major = [0, 1].into_iter().collect();
        }
        let c = b.add_instruction(Opcode::Copy, &[x], Attrs::None, &[], Some(declared.clone()))?;
        assert_eq!(b.shape(c)?, &declared);
        let t = b.tuple(&[x, c])?;
        // Inferred shapes have default layouts, so the tuple's element has one too.
        let g = b.get_tuple_element(t, 1)?;
        assert_eq!(b.shape(g)?.to_string(), "f32[4,8]{1,0}");
        let i = b.iota(Shape::array(DType::S32, [4]), 0)?;
        let f = b.convert(i, DType::F32)?;
        let u = b.bitcast_convert(f, DType::U8)?;
        assert_eq!(b.shape(u)?.to_string(), "u8[4,4]{1,0}");
        let comp = b.build(g)?;
        assert_eq!(comp.insts.len(), 7);
        Ok(())
    }

    #[test]
    fn bad_input_is_an_error_with_a_message() {
        let mut b = ComputationBuilder::new("f");
        let x = b.parameter(0, f32s(&[4]), "x").unwrap();
        let y = b.parameter(1, f32s(&[3]), "x").unwrap();
        assert_eq!(b.comp.inst(y).name, "x.1", "a taken name is made unique");
        let msg = |r: Result<InstId>| r.unwrap_err().to_string();
        assert_eq!(msg(b.binary(Opcode::Add, x, y)), "add: operand 1 has shape f32[3]{0}, expected f32[4]{0}");
        assert_eq!(
            msg(b.add_instruction(Opcode::Negate, &[x, y], Attrs::None, &[], None)),
            "negate: expected 1 operands, got 2"
        );
        assert_eq!(msg(b.transpose(x, &[1])), "transpose: transpose dimension 1 is out of range for rank 1");
        assert_eq!(msg(b.parameter(1, f32s(&[2]), "z")), "parameter: parameter number 1 is already defined");
        assert_eq!(
            msg(b.add_instruction(Opcode::Negate, &[x], Attrs::None, &[], Some(f32s(&[5])))),
            "negate: declared shape f32[5]{0} does not match the inferred shape f32[4]{0}"
        );
        assert_eq!(msg(b.slice(x, &[0], &[2, 3], &[1])), "slice: got 1 starts, 2 limits and 1 strides");
        assert_eq!(
            msg(b.reshape(x, &[i64::MAX, 2])),
            "reshape: result shape f32[9223372036854775807,2]{1,0} is malformed: its size \
             overflows 64 bits"
        );
        // A builder without a module knows no computations.
        assert_eq!(msg(b.call(&[x], CompId::from_index(0))), "computation #0 is not known to this builder");
        let mut other = ComputationBuilder::new("g");
        let o = other.parameter(0, f32s(&[1]), "o").unwrap();
        let _ = other.unary(Opcode::Negate, o).unwrap();
        let foreign = other.unary(Opcode::Negate, o).unwrap();
        assert_eq!(msg(b.unary(Opcode::Negate, foreign)), "instruction #2 does not belong to this builder");
        assert_eq!(b.build(foreign).unwrap_err().to_string(), "instruction #2 does not belong to this builder");
    }

    #[test]
    fn reducer_signatures_are_checked() {
        assert_eq!(
            scalar_reducer(Reducer::And, DType::F32).unwrap_err().to_string(),
            "and: operand 0 has element type f32, expected pred or an integer type"
        );
        let mut mb = ModuleBuilder::new("m");
        let add = mb.scalar_reducer(Reducer::Add, DType::S32).unwrap();
        let mut b = mb.builder("main");
        let x = b.parameter(0, f32s(&[4]), "x").unwrap();
        let z = b.constant(Array::scalar(0f32).into()).unwrap();
        assert_eq!(
            b.reduce(&[x], &[z], &[0], add).unwrap_err().to_string(),
            "reduce: init value 0 has shape f32[], expected s32[]"
        );
        let main = b.build(x).unwrap();
        let id = mb.add_computation(main);
        let renamed = mb.add_computation(Computation { name: "main".into(), ..mb.computations()[id].clone() });
        assert_eq!(mb.computations()[renamed].name, "main.1");
        assert!(mb.build(CompId::from_index(9)).is_err());
    }
}
