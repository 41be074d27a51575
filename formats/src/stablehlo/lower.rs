//! The StableHLO syntax tree to an HLO [`Module`].
//!
//! Each `func.func` becomes a computation (the public `main` the entry), and each
//! region a computation of its own. StableHLO regions may use values of the
//! enclosing function; HLO computations may not. So `case` branches take their
//! captured values as one tuple parameter, `while` loops carry them as extra loop
//! state, and reducer-like regions (reduce, sort, scatter, ...) must not capture.
//!
//! Every value's type is written in the text, so a region's captures are typed
//! before any HLO is built: nested regions are lowered first (pass one), then the
//! enclosing computation's instructions (pass two), all through
//! [`smelt_hlo::builder`], whose shape inference checks each op against the type the
//! text declares. Errors point at the op's `line:col`.

use std::collections::{HashMap, HashSet};

use smelt_hlo::attrs::{
    CompareType, ComparisonDirection, ConvAttrs, CustomCallAttrs, DotDims, FftKind, GatherAttrs, PadDim, RngAlgorithm,
    ScatterAttrs, SliceDim, Window, WindowDim,
};
use smelt_hlo::builder::{ComputationBuilder, ModuleBuilder};
use smelt_hlo::module::{AliasKind, BufferDonor, IoAlias};
use smelt_hlo::{Array, ArrayData, Attrs, CompId, DType, InstId, Literal, Module, Opcode, ParseError, Shape};

use super::syntax::{Attr, Dense, DenseBody, Func, ModuleAst, NamedAttr, Op, Region, Scalar, ValueRef};
use super::{chlo, chlo_elementary, chlo_special};

pub type Result<T> = std::result::Result<T, ParseError>;

/// Constants larger than this (a `dense<0.0>` splat of a huge type) are refused.
const MAX_CONSTANT_BYTES: usize = 1 << 31;

pub fn lower(src: &str, ast: &ModuleAst) -> Result<Module> {
    let entry = ast
        .funcs
        .iter()
        .find(|f| f.name == "main")
        .or_else(|| {
            let public: Vec<&Func> = ast.funcs.iter().filter(|f| f.public).collect();
            if public.len() == 1 { Some(public[0]) } else { None }
        })
        .ok_or_else(|| ParseError::at(src, 0, "no entry function: expected func.func @main".into()))?;
    let mut l = Lower {
        src,
        funcs: ast.funcs.iter().map(|f| (f.name.as_str(), f)).collect(),
        mb: ModuleBuilder::new(ast.name.clone().unwrap_or_else(|| "module".into())),
        lowered: HashMap::new(),
        active: Vec::new(),
        names: HashSet::new(),
        name_counts: HashMap::new(),
    };
    let entry_id = l.func(entry)?;
    let mut module = l.mb.build(entry_id).map_err(|e| ParseError::at(src, entry.pos, e.to_string()))?;
    aliases(src, entry, &mut module)?;
    Ok(module)
}

/// `tf.aliasing_output = N` and `jax.buffer_donor = true` on the entry's arguments.
fn aliases(src: &str, entry: &Func, module: &mut Module) -> Result<()> {
    for (i, arg) in entry.args.iter().enumerate() {
        for a in &arg.attrs {
            match (a.name.as_str(), &a.value) {
                ("tf.aliasing_output", Attr::Int(out)) => {
                    let out = i64::try_from(*out).map_err(|_| ParseError::at(src, a.pos, "bad output index".into()))?;
                    if out < 0 || out as usize >= entry.results.len() {
                        return Err(ParseError::at(src, a.pos, format!("aliasing output {out} does not exist")));
                    }
                    let output_index = if entry.results.len() == 1 { vec![] } else { vec![out] };
                    module.config.input_output_alias.push(IoAlias {
                        output_index,
                        param: i as u32,
                        param_index: vec![],
                        kind: AliasKind::MayAlias,
                    });
                }
                ("jax.buffer_donor", Attr::Bool(true)) => {
                    module.config.buffer_donor.push(BufferDonor { param: i as u32, param_index: vec![] })
                }
                _ => {}
            }
        }
    }
    Ok(())
}

struct Lower<'a> {
    src: &'a str,
    funcs: HashMap<&'a str, &'a Func>,
    mb: ModuleBuilder,
    /// Functions lowered so far: their computation and result count.
    lowered: HashMap<String, (CompId, usize)>,
    /// Functions being lowered, to reject recursion.
    active: Vec<String>,
    names: HashSet<String>,
    /// The next suffix to try per computation-name base.
    name_counts: HashMap<String, usize>,
}

/// How a region's computation receives its inputs.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// One parameter per block argument; no captures (functions, reducers).
    Closed,
    /// One tuple parameter holding the captures (case branches).
    Branch,
    /// One tuple parameter: block arguments then captures. The body returns the
    /// same tuple; the condition a predicate.
    LoopBody,
    LoopCond,
}

/// Value types by name, one map per enclosing region, innermost last.
type TypeEnv = Vec<HashMap<(String, usize), Shape>>;

/// What pass one prepared for an op: its regions' computations and captures.
#[derive(Default)]
struct Prepared {
    comps: Vec<CompId>,
    captures: Vec<Vec<ValueRef>>,
}

fn lookup_type(env: &TypeEnv, v: &ValueRef) -> Option<Shape> {
    env.iter().rev().find_map(|m| m.get(&(v.name.clone(), v.index)).cloned())
}

/// Values a region uses but does not define, in order of first use.
fn free_values(region: &Region) -> Vec<ValueRef> {
    let mut defined: HashSet<&str> = region.args.iter().map(|a| a.0.as_str()).collect();
    for op in &region.ops {
        defined.extend(op.results.iter().map(|r| r.0.as_str()));
    }
    let mut out: Vec<ValueRef> = Vec::new();
    let mut seen = HashSet::new();
    let mut push = |v: &ValueRef, out: &mut Vec<ValueRef>| {
        if !defined.contains(v.name.as_str()) && seen.insert((v.name.clone(), v.index)) {
            out.push(v.clone());
        }
    };
    for op in &region.ops {
        for v in &op.operands {
            push(v, &mut out);
        }
        for r in &op.regions {
            for v in free_values(r) {
                push(&v, &mut out);
            }
        }
    }
    out
}

/// The custom-call target XLA expands itself rather than calling.
const APPROX_TOP_K: &str = "ApproxTopK";

fn short_name(name: &str) -> &str {
    name.strip_prefix("stablehlo.").unwrap_or(name)
}

impl<'a> Lower<'a> {
    fn err(&self, pos: usize, msg: impl Into<String>) -> ParseError {
        ParseError::at(self.src, pos, msg.into())
    }

    /// `base`, or `base.N` with the next free `N` for that base.
    fn comp_name(&mut self, base: &str) -> String {
        let next = self.name_counts.entry(base.to_string()).or_insert(0);
        let mut name = if *next == 0 { base.to_string() } else { format!("{base}.{next}") };
        while !self.names.insert(name.clone()) {
            *next += 1;
            name = format!("{base}.{next}");
        }
        *next += 1;
        name
    }

    /// Lowers a function once; calls share its computation.
    fn func(&mut self, f: &'a Func) -> Result<CompId> {
        if let Some(&(id, _)) = self.lowered.get(&f.name) {
            return Ok(id);
        }
        if self.active.contains(&f.name) {
            return Err(self.err(f.pos, format!("@{} calls itself; recursion is not supported", f.name)));
        }
        self.active.push(f.name.clone());
        let region = &f.body;
        let args: Vec<(String, Shape, usize)> =
            f.args.iter().map(|a| (a.name.clone(), a.shape.clone(), a.pos)).collect();
        let name = self.comp_name(&f.name);
        let id = self.region(&name, region, Some(&args), Mode::Closed, &[], &mut Vec::new())?;
        self.active.pop();
        self.lowered.insert(f.name.clone(), (id, f.results.len()));
        Ok(id)
    }

    /// Lowers `region` to a computation named `name`. `args` overrides the block
    /// arguments (a function's); `captures` are outer values the region uses, typed
    /// by `env` (the enclosing regions' value types, innermost last; this region's
    /// level is pushed while it is lowered and popped after).
    fn region(
        &mut self,
        name: &str,
        region: &'a Region,
        args: Option<&[(String, Shape, usize)]>,
        mode: Mode,
        captures: &[ValueRef],
        env: &mut TypeEnv,
    ) -> Result<CompId> {
        let args = args.unwrap_or(&region.args);
        if mode == Mode::Closed
            && let Some(v) = captures.first()
        {
            return Err(self
                .err(v.pos, format!("this region uses %{} from outside it; only case and while regions may", v.name)));
        }
        let capture_types = captures
            .iter()
            .map(|v| lookup_type(env, v).ok_or_else(|| self.err(v.pos, format!("use of undefined value %{}", v.name))))
            .collect::<Result<Vec<_>>>()?;

        // Pass one: types of this region's values, and its ops' regions lowered.
        let mut level = HashMap::new();
        for (n, s, _) in args {
            level.insert((n.clone(), 0), s.clone());
        }
        for (v, s) in captures.iter().zip(&capture_types) {
            level.insert((v.name.clone(), v.index), s.clone());
        }
        env.push(level);
        let mut prepared = Vec::with_capacity(region.ops.len());
        for op in &region.ops {
            prepared.push(self.prepare(op, env)?);
            let types = &op.result_types;
            if types.len() != op.result_count() && !is_terminator(op) {
                return Err(self.err(
                    op.pos,
                    format!("{} defines {} values but has {} result types", op.name, op.result_count(), types.len()),
                ));
            }
            let mut k = 0;
            let top = env.last_mut().expect("pushed above");
            for (rname, count) in &op.results {
                for i in 0..*count {
                    top.insert((rname.clone(), i), types[k].clone());
                    k += 1;
                }
            }
        }

        env.pop();

        // Pass two: the instructions.
        let mut b = self.mb.builder(name);
        let mut values: HashMap<(String, usize), InstId> = HashMap::new();
        let to_err =
            |e: smelt_hlo::shape_inference::ShapeError, pos: usize| ParseError::at(self.src, pos, e.to_string());
        let mut state = None;
        match mode {
            Mode::Closed => {
                for (i, (n, s, pos)) in args.iter().enumerate() {
                    let p = b.parameter(i as u32, s.clone(), n).map_err(|e| to_err(e, *pos))?;
                    values.insert((n.clone(), 0), p);
                }
            }
            Mode::Branch | Mode::LoopBody | Mode::LoopCond => {
                let arg_shapes = args.iter().map(|a| a.1.clone());
                let tuple = Shape::Tuple(arg_shapes.chain(capture_types.iter().cloned()).collect());
                let p = b.parameter(0, tuple, "state").map_err(|e| to_err(e, region.pos))?;
                let names =
                    args.iter().map(|a| (a.0.clone(), 0)).chain(captures.iter().map(|v| (v.name.clone(), v.index)));
                for (i, key) in names.enumerate() {
                    let g = b.get_tuple_element(p, i as i64).map_err(|e| to_err(e, region.pos))?;
                    values.insert(key, g);
                }
                state = Some(p);
            }
        }
        let mut root = None;
        for (op, prep) in region.ops.iter().zip(&prepared) {
            if is_terminator(op) {
                let mut outs = op.operands.iter().map(|v| self.value(&values, v)).collect::<Result<Vec<_>>>()?;
                if mode == Mode::LoopBody {
                    let p = state.expect("loop bodies have a state parameter");
                    for i in 0..captures.len() {
                        let g = b.get_tuple_element(p, (args.len() + i) as i64).map_err(|e| to_err(e, op.pos))?;
                        outs.push(g);
                    }
                }
                let r = if outs.len() == 1 && mode != Mode::LoopBody {
                    outs[0]
                } else {
                    b.tuple(&outs).map_err(|e| to_err(e, op.pos))?
                };
                root = Some((r, op.pos));
                break;
            }
            let ids = self.op(&mut b, &values, op, prep)?;
            let mut k = 0;
            for (rname, count) in &op.results {
                for i in 0..*count {
                    let id = *ids.get(k).ok_or_else(|| self.err(op.pos, format!("{} has too few results", op.name)))?;
                    values.insert((rname.clone(), i), id);
                    k += 1;
                }
            }
        }
        let (root, pos) = root.ok_or_else(|| self.err(region.pos, "region has no return"))?;
        let comp = b.build(root).map_err(|e| to_err(e, pos))?;
        Ok(self.mb.add_computation(comp))
    }

    fn value(&self, values: &HashMap<(String, usize), InstId>, v: &ValueRef) -> Result<InstId> {
        values.get(&(v.name.clone(), v.index)).copied().ok_or_else(|| {
            if v.index > 0 && values.contains_key(&(v.name.clone(), 0)) {
                self.err(v.pos, format!("%{} has no result #{}", v.name, v.index))
            } else {
                self.err(v.pos, format!("use of undefined value %{}", v.name))
            }
        })
    }

    /// Pass one for an op: lower its regions (and its callee) to computations.
    fn prepare(&mut self, op: &'a Op, env: &mut TypeEnv) -> Result<Prepared> {
        let short = short_name(&op.name);
        let mut p = Prepared::default();
        match short {
            "func.call" | "call" => {
                let callee = op.callee.as_deref().unwrap_or("");
                let f = *self.funcs.get(callee).ok_or_else(|| self.err(op.pos, format!("no function @{callee}")))?;
                p.comps.push(self.func(f)?);
            }
            // XLA lowers ApproxTopK on CPU to a sort by its comparator function.
            "custom_call" if op.callee.as_deref() == Some(APPROX_TOP_K) => {
                let Some(NamedAttr { value: Attr::List(items), pos, .. }) = op.attr(&["called_computations"]) else {
                    return Err(self.err(op.pos, "ApproxTopK needs a comparator in called_computations"));
                };
                let [Attr::Symbol(name)] = items.as_slice() else {
                    return Err(self.err(*pos, "ApproxTopK takes one comparator function"));
                };
                let f = *self.funcs.get(name.as_str()).ok_or_else(|| self.err(*pos, format!("no function @{name}")))?;
                p.comps.push(self.func(f)?);
            }
            "while" => {
                if op.regions.len() != 2 {
                    return Err(self.err(op.pos, "while needs a cond and a do region"));
                }
                // Both regions see the same loop state, so they share one capture list.
                let mut captures = free_values(&op.regions[0]);
                for v in free_values(&op.regions[1]) {
                    if !captures.iter().any(|c| c.name == v.name && c.index == v.index) {
                        captures.push(v);
                    }
                }
                let cond_name = self.comp_name("while_cond");
                let body_name = self.comp_name("while_body");
                p.comps.push(self.region(&cond_name, &op.regions[0], None, Mode::LoopCond, &captures, env)?);
                p.comps.push(self.region(&body_name, &op.regions[1], None, Mode::LoopBody, &captures, env)?);
                p.captures.push(captures);
            }
            "case" => {
                for (i, r) in op.regions.iter().enumerate() {
                    let captures = free_values(r);
                    let name = self.comp_name(&format!("branch_{i}"));
                    p.comps.push(self.region(&name, r, None, Mode::Branch, &captures, env)?);
                    p.captures.push(captures);
                }
            }
            _ if op.applies.is_some() => {
                let (opname, pos) = op.applies.clone().expect("checked");
                let n = op.operands.len() / 2;
                let mut dtypes = Vec::new();
                for v in &op.operands[n..] {
                    let s = lookup_type(env, v)
                        .ok_or_else(|| self.err(v.pos, format!("use of undefined value %{}", v.name)))?;
                    dtypes.push(
                        s.as_array().map(|a| a.dtype).ok_or_else(|| self.err(v.pos, "init values must be arrays"))?,
                    );
                }
                p.comps.push(self.applies_reducer(&opname, pos, &dtypes)?);
            }
            _ => {
                for (i, r) in op.regions.iter().enumerate() {
                    let captures = free_values(r);
                    let name = self.comp_name(&format!("{}_{}", short.replace('.', "_"), i));
                    p.comps.push(self.region(&name, r, None, Mode::Closed, &captures, env)?);
                }
            }
        }
        Ok(p)
    }

    /// The body of `reduce ... applies stablehlo.add`: the op over (acc_i, x_i).
    fn applies_reducer(&mut self, opname: &str, pos: usize, dtypes: &[DType]) -> Result<CompId> {
        let opcode = Opcode::from_name(&short_name(opname).replace('_', "-"))
            .filter(|o| {
                o.is_elementwise() && o.arity().accepts(2) && Attrs::kind_for(*o) == smelt_hlo::attrs::AttrsKind::None
            })
            .ok_or_else(|| self.err(pos, format!("'{opname}' is not a binary reducer op")))?;
        let name = self.comp_name(&format!("{}_reducer", opcode.name()));
        let n = dtypes.len();
        let mut b = self.mb.builder(name);
        let to_err = |e: smelt_hlo::shape_inference::ShapeError| ParseError::at(self.src, pos, e.to_string());
        let mut params = Vec::new();
        for i in 0..2 * n {
            params.push(b.parameter(i as u32, Shape::scalar(dtypes[i % n]), "p").map_err(to_err)?);
        }
        let mut outs = Vec::new();
        for i in 0..n {
            outs.push(b.binary(opcode, params[i], params[n + i]).map_err(to_err)?);
        }
        let root = if n == 1 { outs[0] } else { b.tuple(&outs).map_err(to_err)? };
        let comp = b.build(root).map_err(to_err)?;
        Ok(self.mb.add_computation(comp))
    }

    /// Pass two for an op: its instructions; returns one id per result.
    fn op(
        &self,
        b: &mut ComputationBuilder<'_>,
        values: &HashMap<(String, usize), InstId>,
        op: &Op,
        prep: &Prepared,
    ) -> Result<Vec<InstId>> {
        let operands = op.operands.iter().map(|v| self.value(values, v)).collect::<Result<Vec<_>>>()?;
        let mut ctx = OpCtx { l: self, b, op, values };
        ctx.lower(&operands, prep)
    }
}

fn is_terminator(op: &Op) -> bool {
    matches!(op.name.as_str(), "stablehlo.return" | "func.return" | "return")
}

/// Lowering one op: the builder, the op, and attribute accessors whose errors
/// name the op.
struct OpCtx<'l, 'a, 'b, 'm> {
    l: &'l Lower<'a>,
    b: &'b mut ComputationBuilder<'m>,
    op: &'l Op,
    /// The enclosing computation's values, for captures.
    values: &'l HashMap<(String, usize), InstId>,
}

impl OpCtx<'_, '_, '_, '_> {
    fn err(&self, msg: impl Into<String>) -> ParseError {
        ParseError::at(self.l.src, self.op.pos, format!("{}: {}", self.op.name, msg.into()))
    }

    fn attr(&self, names: &[&str]) -> Option<&NamedAttr> {
        self.op.attr(names)
    }

    fn req(&self, names: &[&str]) -> Result<&NamedAttr> {
        self.attr(names).ok_or_else(|| self.err(format!("missing attribute '{}'", names[names.len() - 1])))
    }

    fn int(&self, names: &[&str], default: Option<i64>) -> Result<i64> {
        match self.attr(names) {
            None => default.ok_or_else(|| self.err(format!("missing attribute '{}'", names[names.len() - 1]))),
            Some(a) => match &a.value {
                Attr::Int(v) => {
                    i64::try_from(*v).map_err(|_| ParseError::at(self.l.src, a.pos, "integer out of range".into()))
                }
                _ => Err(ParseError::at(self.l.src, a.pos, format!("'{}' must be an integer", a.name))),
            },
        }
    }

    fn flag(&self, names: &[&str]) -> Result<bool> {
        match self.attr(names) {
            None => Ok(false),
            Some(NamedAttr { value: Attr::Bool(v), .. }) => Ok(*v),
            Some(NamedAttr { value: Attr::Unit, .. }) => Ok(true),
            Some(a) => Err(ParseError::at(self.l.src, a.pos, format!("'{}' must be true or false", a.name))),
        }
    }

    /// An integer list attribute (`[1, 2]`, `array<i64: 1, 2>`, `dense<[1, 2]>`),
    /// flattened; booleans count as 0 and 1.
    fn ints(&self, names: &[&str], default: Option<Vec<i64>>) -> Result<Vec<i64>> {
        match self.attr(names) {
            None => default.ok_or_else(|| self.err(format!("missing attribute '{}'", names[names.len() - 1]))),
            Some(a) => flat_ints(&a.value)
                .ok_or_else(|| ParseError::at(self.l.src, a.pos, format!("'{}' must be a list of integers", a.name))),
        }
    }

    fn enum_value(&self, names: &[&str]) -> Result<Option<String>> {
        match self.attr(names) {
            None => Ok(None),
            Some(NamedAttr { value: Attr::Enum(v), .. }) => Ok(Some(v.clone())),
            Some(NamedAttr { value: Attr::Str(v), .. }) => Ok(Some(v.clone())),
            Some(a) => Err(ParseError::at(self.l.src, a.pos, format!("'{}' must be a keyword", a.name))),
        }
    }

    fn result(&self) -> Result<Shape> {
        match self.op.result_types.as_slice() {
            [t] => Ok(t.clone()),
            _ => Err(self.err("expected exactly one result type")),
        }
    }

    /// The declared result: one type, or a tuple of several.
    fn results_shape(&self) -> Shape {
        match self.op.result_types.as_slice() {
            [t] => t.clone(),
            ts => Shape::Tuple(ts.to_vec()),
        }
    }

    fn add(
        &mut self,
        opcode: Opcode,
        operands: &[InstId],
        attrs: Attrs,
        called: &[CompId],
        declared: Option<Shape>,
    ) -> Result<InstId> {
        let src = self.l.src;
        let (pos, name) = (self.op.pos, self.op.name.clone());
        self.b
            .add_instruction(opcode, operands, attrs, called, declared)
            .map_err(|e| ParseError::at(src, pos, format!("{name}: {e}")))
    }

    /// Splits a tuple-shaped instruction into one value per result.
    fn unpack(&mut self, t: InstId, n: usize) -> Result<Vec<InstId>> {
        let src = self.l.src;
        let pos = self.op.pos;
        (0..n)
            .map(|i| self.b.get_tuple_element(t, i as i64).map_err(|e| ParseError::at(src, pos, e.to_string())))
            .collect()
    }

    /// Adds an instruction with one result, or a tuple split into its results.
    fn add_results(
        &mut self,
        opcode: Opcode,
        operands: &[InstId],
        attrs: Attrs,
        called: &[CompId],
    ) -> Result<Vec<InstId>> {
        let declared = self.results_shape();
        let id = self.add(opcode, operands, attrs, called, Some(declared))?;
        match self.op.result_types.len() {
            1 => Ok(vec![id]),
            n => self.unpack(id, n),
        }
    }

    fn dtype_of(&self, id: InstId) -> Result<DType> {
        self.b
            .shape(id)
            .ok()
            .and_then(|s| s.as_array())
            .map(|a| a.dtype)
            .ok_or_else(|| self.err("operand must be an array"))
    }

    fn dims_of(&self, id: InstId) -> Result<Vec<i64>> {
        self.b
            .shape(id)
            .ok()
            .and_then(|s| s.as_array())
            .map(|a| a.dims.to_vec())
            .ok_or_else(|| self.err("operand must be an array"))
    }

    fn lower(&mut self, x: &[InstId], prep: &Prepared) -> Result<Vec<InstId>> {
        let op = self.op;
        let name = op.name.as_str();
        if let Some(chlo) = name.strip_prefix("chlo.") {
            return self.chlo(chlo, x);
        }
        let short = match name.strip_prefix("stablehlo.") {
            Some(s) => s,
            None if matches!(name, "func.call" | "call") => "call",
            None => return Err(self.err("unsupported operation")),
        };
        let one = |id: InstId| Ok(vec![id]);
        match short {
            "constant" => {
                let a = self.req(&["value"])?;
                let Attr::Dense(d) = &a.value else { return Err(self.err("value must be dense<...>")) };
                let lit = dense_literal(d).map_err(|m| ParseError::at(self.l.src, a.pos, m))?;
                let id = self.add(Opcode::Constant, &[], Attrs::Constant(Box::new(lit)), &[], Some(self.result()?))?;
                one(id)
            }
            "iota" => {
                let dimension = self.int(&["dim", "iota_dimension"], None)?;
                one(self.add(Opcode::Iota, &[], Attrs::Iota { dimension }, &[], Some(self.result()?))?)
            }
            "broadcast_in_dim" => {
                let dims = self.ints(&["dims", "broadcast_dimensions"], None)?;
                let (operand, dims) = self.drop_expanded_dims(x, &dims)?;
                one(self.add(
                    Opcode::Broadcast,
                    &[operand],
                    Attrs::Dimensions(dims.into()),
                    &[],
                    Some(self.result()?),
                )?)
            }
            "select" if x.len() == 3 => {
                // StableHLO lets a scalar predicate choose between whole arrays; HLO
                // wants it broadcast.
                let result = self.result()?;
                let mut pred = x[0];
                if let (Ok([]), Some(r)) = (self.dims_of(pred).as_deref(), result.as_array())
                    && r.rank() > 0
                {
                    let (src, pos) = (self.l.src, self.op.pos);
                    pred = self.b.broadcast(pred, &r.dims, &[]).map_err(|e| ParseError::at(src, pos, e.to_string()))?;
                }
                one(self.add(Opcode::Select, &[pred, x[1], x[2]], Attrs::None, &[], Some(result))?)
            }
            "transpose" => {
                let dims = self.ints(&["dims", "permutation"], None)?;
                one(self.add(Opcode::Transpose, x, Attrs::Dimensions(dims.into()), &[], Some(self.result()?))?)
            }
            "reverse" => {
                let dims = self.ints(&["dims", "dimensions"], None)?;
                one(self.add(Opcode::Reverse, x, Attrs::Dimensions(dims.into()), &[], Some(self.result()?))?)
            }
            "concatenate" => {
                let dimension = self.int(&["dim", "dimension"], None)?;
                one(self.add(Opcode::Concatenate, x, Attrs::Concatenate { dimension }, &[], Some(self.result()?))?)
            }
            "compare" => {
                let dir = self.enum_value(&["comparison_direction"])?.ok_or_else(|| self.err("missing direction"))?;
                let direction = ComparisonDirection::from_name(&dir)
                    .ok_or_else(|| self.err(format!("unknown direction '{dir}'")))?;
                let dtype = self.dtype_of(*x.first().ok_or_else(|| self.err("needs two operands"))?)?;
                let compare_type = match self.enum_value(&["compare_type"])? {
                    None => None,
                    Some(t) => {
                        let t = CompareType::from_name(&t)
                            .ok_or_else(|| self.err(format!("unknown compare type '{t}'")))?;
                        let default = if dtype.is_float() || dtype.is_complex() {
                            CompareType::Float
                        } else if dtype.is_signed_int() {
                            CompareType::Signed
                        } else {
                            CompareType::Unsigned
                        };
                        (t != default).then_some(t)
                    }
                };
                one(self.add(
                    Opcode::Compare,
                    x,
                    Attrs::Compare { direction, compare_type },
                    &[],
                    Some(self.result()?),
                )?)
            }
            "slice" => {
                let starts = self.ints(&["start_indices"], None)?;
                let limits = self.ints(&["limit_indices"], None)?;
                let strides = self.ints(&["strides"], Some(vec![1; starts.len()]))?;
                if limits.len() != starts.len() || strides.len() != starts.len() {
                    return Err(self.err("start, limit and stride lists differ in length"));
                }
                let dims = (0..starts.len())
                    .map(|i| SliceDim { start: starts[i], limit: limits[i], stride: strides[i] })
                    .collect();
                one(self.add(Opcode::Slice, x, Attrs::Slice(dims), &[], Some(self.result()?))?)
            }
            "dynamic_slice" => {
                let sizes = self.ints(&["sizes", "slice_sizes"], None)?;
                one(self.add(
                    Opcode::DynamicSlice,
                    x,
                    Attrs::DynamicSlice { sizes: sizes.into() },
                    &[],
                    Some(self.result()?),
                )?)
            }
            "pad" => {
                let low = self.ints(&["low", "edge_padding_low"], None)?;
                let high = self.ints(&["high", "edge_padding_high"], None)?;
                let interior = self.ints(&["interior", "interior_padding"], Some(vec![0; low.len()]))?;
                if high.len() != low.len() || interior.len() != low.len() {
                    return Err(self.err("padding lists differ in length"));
                }
                let dims =
                    (0..low.len()).map(|i| PadDim { low: low[i], high: high[i], interior: interior[i] }).collect();
                one(self.add(Opcode::Pad, x, Attrs::Pad(dims), &[], Some(self.result()?))?)
            }
            "dot_general" => {
                let fields = self.struct_fields(&["dot_dimension_numbers"])?;
                let get = |k: &str| field_ints(&fields, k).map(Into::into);
                let dims = DotDims {
                    lhs_batch: get("lhs_batching_dimensions").ok_or_else(|| self.err("bad lhs_batching_dimensions"))?,
                    rhs_batch: get("rhs_batching_dimensions").ok_or_else(|| self.err("bad rhs_batching_dimensions"))?,
                    lhs_contracting: get("lhs_contracting_dimensions")
                        .ok_or_else(|| self.err("bad lhs_contracting_dimensions"))?,
                    rhs_contracting: get("rhs_contracting_dimensions")
                        .ok_or_else(|| self.err("bad rhs_contracting_dimensions"))?,
                };
                one(self.add(Opcode::Dot, x, Attrs::Dot(dims), &[], Some(self.result()?))?)
            }
            "dot" => {
                let lhs_rank = self.dims_of(*x.first().ok_or_else(|| self.err("needs two operands"))?)?.len() as i64;
                let dims = DotDims {
                    lhs_contracting: [lhs_rank - 1].as_slice().into(),
                    rhs_contracting: [0].as_slice().into(),
                    ..DotDims::default()
                };
                one(self.add(Opcode::Dot, x, Attrs::Dot(dims), &[], Some(self.result()?))?)
            }
            "convolution" => {
                let attrs = self.convolution(x)?;
                one(self.add(Opcode::Convolution, x, attrs, &[], Some(self.result()?))?)
            }
            "gather" => {
                let f = self.struct_fields(&["dimension_numbers"])?;
                let get = |k: &str| field_ints(&f, k).map(Into::into).ok_or_else(|| self.err(format!("bad {k}")));
                let attrs = GatherAttrs {
                    offset_dims: get("offset_dims")?,
                    collapsed_slice_dims: get("collapsed_slice_dims")?,
                    start_index_map: get("start_index_map")?,
                    operand_batching_dims: get("operand_batching_dims")?,
                    start_indices_batching_dims: get("start_indices_batching_dims")?,
                    index_vector_dim: field_int(&f, "index_vector_dim").unwrap_or(0),
                    slice_sizes: self.ints(&["slice_sizes"], None)?.into(),
                    indices_are_sorted: self.flag(&["indices_are_sorted"])?,
                };
                one(self.add(Opcode::Gather, x, Attrs::Gather(Box::new(attrs)), &[], Some(self.result()?))?)
            }
            "scatter" => {
                let f = self.struct_fields(&["scatter_dimension_numbers"])?;
                let get = |k: &str| field_ints(&f, k).map(Into::into).ok_or_else(|| self.err(format!("bad {k}")));
                let attrs = ScatterAttrs {
                    update_window_dims: get("update_window_dims")?,
                    inserted_window_dims: get("inserted_window_dims")?,
                    scatter_dims_to_operand_dims: get("scatter_dims_to_operand_dims")?,
                    input_batching_dims: get("input_batching_dims")?,
                    scatter_indices_batching_dims: get("scatter_indices_batching_dims")?,
                    index_vector_dim: field_int(&f, "index_vector_dim").unwrap_or(0),
                    indices_are_sorted: self.flag(&["indices_are_sorted"])?,
                    unique_indices: self.flag(&["unique_indices"])?,
                };
                self.add_results(Opcode::Scatter, x, Attrs::Scatter(Box::new(attrs)), &self.comps(prep, 1)?)
            }
            "reduce" => {
                let dims = self.ints(&["dimensions"], None)?;
                self.add_results(Opcode::Reduce, x, Attrs::Dimensions(dims.into()), &self.comps(prep, 1)?)
            }
            "reduce_window" => {
                let rank = self.dims_of(*x.first().ok_or_else(|| self.err("needs operands"))?)?.len();
                let window = self.window(rank)?;
                self.add_results(Opcode::ReduceWindow, x, Attrs::Window(window), &self.comps(prep, 1)?)
            }
            "select_and_scatter" => {
                let rank = self.dims_of(*x.first().ok_or_else(|| self.err("needs operands"))?)?.len();
                let window = self.window(rank)?;
                let comps = self.comps(prep, 2)?;
                one(self.add(Opcode::SelectAndScatter, x, Attrs::Window(window), &comps, Some(self.result()?))?)
            }
            "sort" => {
                let rank = self.dims_of(*x.first().ok_or_else(|| self.err("needs operands"))?)?.len() as i64;
                let mut dimension = self.int(&["dimension"], Some(-1))?;
                if dimension < 0 {
                    dimension += rank;
                }
                let is_stable = self.flag(&["is_stable"])?;
                self.add_results(Opcode::Sort, x, Attrs::Sort { dimension, is_stable }, &self.comps(prep, 1)?)
            }
            "while" => {
                let captures = prep.captures.first().map(Vec::as_slice).unwrap_or(&[]);
                let mut state = x.to_vec();
                for v in captures {
                    state.push(self.l.value(self.values, v)?);
                }
                let pos = self.op.pos;
                let t = self.b.tuple(&state).map_err(|e| ParseError::at(self.l.src, pos, e.to_string()))?;
                let comps = self.comps(prep, 2)?;
                let w = self.add(Opcode::While, &[t], Attrs::None, &comps, None)?;
                self.unpack(w, x.len())
            }
            "case" => {
                let mut operands = vec![*x.first().ok_or_else(|| self.err("needs an index operand"))?];
                for captures in &prep.captures {
                    let vals = captures.iter().map(|v| self.l.value(self.values, v)).collect::<Result<Vec<_>>>()?;
                    let pos = self.op.pos;
                    operands.push(self.b.tuple(&vals).map_err(|e| ParseError::at(self.l.src, pos, e.to_string()))?);
                }
                let comps = prep.comps.clone();
                if comps.is_empty() {
                    return Err(self.err("case needs at least one branch"));
                }
                let n = self.op.result_types.len();
                let c = self.add(Opcode::Conditional, &operands, Attrs::None, &comps, None)?;
                if n == 1 { Ok(vec![c]) } else { self.unpack(c, n) }
            }
            "call" => {
                let comps = self.comps(prep, 1)?;
                let n = self.op.result_types.len();
                let c = self.add(Opcode::Call, x, Attrs::None, &comps, None)?;
                if n == 1 { Ok(vec![c]) } else { self.unpack(c, n) }
            }
            "custom_call" if self.op.callee.as_deref() == Some(APPROX_TOP_K) => self.approx_top_k(x, prep),
            "custom_call" => self.custom_call(x),
            "fft" => {
                let t = self.enum_value(&["type", "fft_type"])?.ok_or_else(|| self.err("missing fft type"))?;
                let kind = FftKind::from_name(&t).ok_or_else(|| self.err(format!("unknown fft type '{t}'")))?;
                let lengths = self.ints(&["length", "fft_length"], None)?.into();
                one(self.add(Opcode::Fft, x, Attrs::Fft { kind, lengths }, &[], Some(self.result()?))?)
            }
            "rng_bit_generator" => {
                let a = self.enum_value(&["rng_algorithm", "algorithm"])?.unwrap_or_else(|| "DEFAULT".into());
                let algorithm = match a.as_str() {
                    "DEFAULT" => RngAlgorithm::Default,
                    "THREE_FRY" => RngAlgorithm::ThreeFry,
                    "PHILOX" => RngAlgorithm::Philox,
                    _ => return Err(self.err(format!("unknown rng algorithm '{a}'"))),
                };
                self.add_results(Opcode::RngBitGenerator, x, Attrs::RngBitGenerator { algorithm }, &[])
            }
            "reduce_precision" => {
                let (exponent_bits, mantissa_bits) = match self.enum_value(&["format"])? {
                    Some(f) => {
                        let parsed = f
                            .strip_prefix('e')
                            .and_then(|r| r.split_once('m'))
                            .and_then(|(e, m)| Some((e.parse().ok()?, m.parse().ok()?)));
                        parsed.ok_or_else(|| self.err(format!("bad format '{f}', expected eNmM")))?
                    }
                    None => (self.int(&["exponent_bits"], None)?, self.int(&["mantissa_bits"], None)?),
                };
                one(self.add(
                    Opcode::ReducePrecision,
                    x,
                    Attrs::ReducePrecision { exponent_bits, mantissa_bits },
                    &[],
                    Some(self.result()?),
                )?)
            }
            "get_tuple_element" => {
                let index = self.int(&["index"], None)?;
                one(self.add(Opcode::GetTupleElement, x, Attrs::GetTupleElement { index }, &[], None)?)
            }
            "tuple" => one(self.add(Opcode::Tuple, x, Attrs::None, &[], None)?),
            "optimization_barrier" => {
                let pos = self.op.pos;
                let t = self.b.tuple(x).map_err(|e| ParseError::at(self.l.src, pos, e.to_string()))?;
                let o = self.add(Opcode::OptimizationBarrier, &[t], Attrs::None, &[], None)?;
                self.unpack(o, x.len())
            }
            "batch_norm_inference" | "batch_norm_training" | "batch_norm_grad" => {
                let opcode = Opcode::from_name(&short.replace('_', "-")).ok_or_else(|| self.err("unsupported"))?;
                let epsilon = match self.attr(&["epsilon"]).map(|a| &a.value) {
                    Some(Attr::Float(f)) => *f as f32,
                    _ => return Err(self.err("missing float attribute 'epsilon'")),
                };
                let feature_index = self.int(&["feature_index"], None)?;
                self.add_results(opcode, x, Attrs::BatchNorm { epsilon, feature_index }, &[])
            }
            _ => {
                let opcode = Opcode::from_name(&short.replace('_', "-"))
                    .filter(|o| {
                        Attrs::kind_for(*o) == smelt_hlo::attrs::AttrsKind::None
                            && !matches!(
                                o,
                                Opcode::Tuple | Opcode::While | Opcode::Conditional | Opcode::Call | Opcode::Fusion
                            )
                    })
                    .ok_or_else(|| self.err("unsupported operation"))?;
                let result = self.result()?;
                let complex = result.as_array().is_some_and(|a| a.dtype.is_complex());
                if let Some(expand) = chlo::complex_expansion(opcode).filter(|_| complex) {
                    let (src, pos) = (self.l.src, self.op.pos);
                    let z = *x.first().ok_or_else(|| self.err("needs an operand"))?;
                    return expand(self.b, z).map(|id| vec![id]).map_err(|m| ParseError::at(src, pos, m));
                }
                one(self.add(opcode, x, Attrs::None, &[], Some(result))?)
            }
        }
    }

    /// StableHLO's broadcast_in_dim may stretch an operand dimension of size 1
    /// to any size; HLO's broadcast may not. Such dimensions are reshaped away
    /// first, and the broadcast then creates them.
    fn drop_expanded_dims(&mut self, x: &[InstId], dims: &[i64]) -> Result<(InstId, Vec<i64>)> {
        let operand = *x.first().ok_or_else(|| self.err("needs an operand"))?;
        let in_dims = self.dims_of(operand)?;
        let out =
            self.result()?.as_array().map(|a| a.dims.to_vec()).ok_or_else(|| self.err("result must be an array"))?;
        if in_dims.len() != dims.len() {
            return Ok((operand, dims.to_vec()));
        }
        let stretched = |i: usize| {
            in_dims[i] == 1 && usize::try_from(dims[i]).ok().and_then(|d| out.get(d)).is_some_and(|&n| n != 1)
        };
        if !(0..dims.len()).any(stretched) {
            return Ok((operand, dims.to_vec()));
        }
        let keep: Vec<usize> = (0..dims.len()).filter(|&i| !stretched(i)).collect();
        let kept_dims: Vec<i64> = keep.iter().map(|&i| in_dims[i]).collect();
        let (src, pos) = (self.l.src, self.op.pos);
        let r = self.b.reshape(operand, &kept_dims).map_err(|e| ParseError::at(src, pos, e.to_string()))?;
        Ok((r, keep.iter().map(|&i| dims[i]).collect()))
    }

    fn comps(&self, prep: &Prepared, n: usize) -> Result<Vec<CompId>> {
        if prep.comps.len() != n {
            return Err(self.err(format!("expected {n} region(s), found {}", prep.comps.len())));
        }
        Ok(prep.comps.clone())
    }

    fn struct_fields(&self, names: &[&str]) -> Result<Vec<(String, Attr)>> {
        match self.attr(names) {
            Some(NamedAttr { value: Attr::Struct(f), .. }) => Ok(f.clone()),
            Some(a) => Err(ParseError::at(self.l.src, a.pos, format!("'{}' has the wrong form", a.name))),
            None => Err(self.err(format!("missing attribute '{}'", names[0]))),
        }
    }

    /// The window of reduce_window and select_and_scatter.
    fn window(&self, rank: usize) -> Result<Window> {
        let sizes = self.ints(&["window_dimensions"], None)?;
        let strides = self.ints(&["window_strides"], Some(vec![1; rank]))?;
        let base = self.ints(&["base_dilations"], Some(vec![1; rank]))?;
        let win = self.ints(&["window_dilations"], Some(vec![1; rank]))?;
        let pad = self.ints(&["padding"], Some(vec![0; 2 * rank]))?;
        if sizes.len() != rank
            || strides.len() != rank
            || base.len() != rank
            || win.len() != rank
            || pad.len() != 2 * rank
        {
            return Err(self.err(format!("window attributes must have one entry per dimension ({rank})")));
        }
        let dims = (0..rank)
            .map(|i| WindowDim {
                size: sizes[i],
                stride: strides[i],
                pad_low: pad[2 * i],
                pad_high: pad[2 * i + 1],
                window_dilation: win[i],
                base_dilation: base[i],
                reversal: false,
            })
            .collect();
        Ok(Window { dims })
    }

    fn convolution(&self, x: &[InstId]) -> Result<Attrs> {
        let dims = match self.attr(&["dimension_numbers"]).map(|a| &a.value) {
            Some(Attr::Conv(d)) => d.clone(),
            _ => return Err(self.err("missing dimension numbers")),
        };
        let kernel = self.dims_of(*x.get(1).ok_or_else(|| self.err("needs an input and a kernel"))?)?;
        let n = dims.kernel_spatial.len();
        let sizes = dims
            .kernel_spatial
            .iter()
            .map(|&d| kernel.get(d as usize).copied().ok_or_else(|| self.err("kernel spatial dimension out of range")))
            .collect::<Result<Vec<_>>>()?;
        let strides = self.ints(&["window_strides"], Some(vec![1; n]))?;
        let pad = self.ints(&["padding"], Some(vec![0; 2 * n]))?;
        let lhs = self.ints(&["lhs_dilation"], Some(vec![1; n]))?;
        let rhs = self.ints(&["rhs_dilation"], Some(vec![1; n]))?;
        let rev = self.ints(&["window_reversal"], Some(vec![0; n]))?;
        if strides.len() != n || pad.len() != 2 * n || lhs.len() != n || rhs.len() != n || rev.len() != n {
            return Err(self.err(format!("window attributes must have one entry per spatial dimension ({n})")));
        }
        let window = Window {
            dims: (0..n)
                .map(|i| WindowDim {
                    size: sizes[i],
                    stride: strides[i],
                    pad_low: pad[2 * i],
                    pad_high: pad[2 * i + 1],
                    window_dilation: rhs[i],
                    base_dilation: lhs[i],
                    reversal: rev[i] != 0,
                })
                .collect(),
        };
        Ok(Attrs::Convolution(Box::new(ConvAttrs {
            window,
            dims,
            feature_group_count: self.int(&["feature_group_count"], Some(1))?,
            batch_group_count: self.int(&["batch_group_count"], Some(1))?,
        })))
    }

    /// `custom_call @ApproxTopK(operands..., init_values...)` as XLA's CPU backend
    /// runs it (its fallback, an exact top-k): the operands sorted together
    /// along `reduction_dim` by the comparator, each result the leading slice of
    /// its operand, as long as the declared result.
    fn approx_top_k(&mut self, x: &[InstId], prep: &Prepared) -> Result<Vec<InstId>> {
        let comps = self.comps(prep, 1)?;
        let n = x.len() / 2;
        if n == 0 || x.len() != 2 * n || self.op.result_types.len() != n {
            return Err(self.err("ApproxTopK takes operands and as many init values, and has one result per operand"));
        }
        let config = match self.attr(&["mhlo.backend_config"]) {
            Some(NamedAttr { value: Attr::Dict(items), .. }) => items,
            _ => return Err(self.err("ApproxTopK needs its mhlo.backend_config")),
        };
        let rank = self.dims_of(x[0])?.len() as i64;
        let dim = match config.iter().find(|a| a.name == "reduction_dim").map(|a| &a.value) {
            Some(Attr::Int(d)) => i64::try_from(*d).map_err(|_| self.err("reduction_dim out of range"))?,
            _ => return Err(self.err("ApproxTopK needs a reduction_dim")),
        };
        let dim = if dim < 0 { dim + rank } else { dim };
        if !(0..rank).contains(&dim) {
            return Err(self.err("reduction_dim out of range"));
        }
        let results = self.op.result_types.clone();
        let sort_shape = if n == 1 {
            self.b.shape(x[0]).map_err(|e| self.err(e.to_string()))?.clone()
        } else {
            Shape::Tuple(
                x[..n]
                    .iter()
                    .map(|&v| self.b.shape(v).cloned())
                    .collect::<std::result::Result<_, _>>()
                    .map_err(|e| self.err(e.to_string()))?,
            )
        };
        let attrs = Attrs::Sort { dimension: dim, is_stable: false };
        let sorted = self.add(Opcode::Sort, &x[..n], attrs, &comps, Some(sort_shape))?;
        let sorted = if n == 1 { vec![sorted] } else { self.unpack(sorted, n)? };
        let (src, pos) = (self.l.src, self.op.pos);
        let mut out = Vec::with_capacity(n);
        for (v, shape) in sorted.into_iter().zip(&results) {
            let limits: Vec<i64> = shape.as_array().ok_or_else(|| self.err("results must be arrays"))?.dims.to_vec();
            let starts = vec![0; limits.len()];
            let strides = vec![1; limits.len()];
            out.push(self.b.slice(v, &starts, &limits, &strides).map_err(|e| ParseError::at(src, pos, e.to_string()))?);
        }
        Ok(out)
    }

    /// `custom_call @target(...)`: the HLO custom-call XLA makes of it, with the
    /// result layouts, backend config and aliasing carried over.
    fn custom_call(&mut self, x: &[InstId]) -> Result<Vec<InstId>> {
        let target = self.op.callee.clone().unwrap_or_default();
        if let Some(a) = self.attr(&["called_computations"])
            && !matches!(&a.value, Attr::List(l) if l.is_empty())
        {
            return Err(ParseError::at(
                self.l.src,
                a.pos,
                "custom calls with called computations are not supported".into(),
            ));
        }
        let layouts = |names: &[&str]| -> Result<Option<Vec<Vec<i64>>>> {
            match self.attr(names) {
                None => Ok(None),
                Some(a) => match &a.value {
                    Attr::List(items) => items
                        .iter()
                        .map(|i| flat_ints(i).ok_or_else(|| ParseError::at(self.l.src, a.pos, "bad layout".into())))
                        .collect::<Result<Vec<_>>>()
                        .map(Some),
                    _ => Err(ParseError::at(self.l.src, a.pos, "layouts must be a list".into())),
                },
            }
        };
        let with_layout = |s: &Shape, l: &[i64]| -> Result<Shape> {
            match s {
                Shape::Array(a) if l.len() == a.rank() => {
                    let mut a = a.clone();
                    a.layout.minor_to_major = l.into();
                    Ok(Shape::Array(a))
                }
                _ => Err(self.err("a layout does not match its shape's rank")),
            }
        };
        let mut results = self.op.result_types.clone();
        if let Some(ls) = layouts(&["result_layouts"])? {
            if ls.len() != results.len() {
                return Err(self.err("result_layouts needs one layout per result"));
            }
            results = results.iter().zip(&ls).map(|(s, l)| with_layout(s, l)).collect::<Result<_>>()?;
        }
        let mut raw = Vec::new();
        if let Some(ls) = layouts(&["operand_layouts"])? {
            if ls.len() != x.len() {
                return Err(self.err("operand_layouts needs one layout per operand"));
            }
            let shapes = x
                .iter()
                .zip(&ls)
                .map(|(&id, l)| with_layout(&self.b.shape(id).map_err(|e| self.err(e.to_string()))?.clone(), l))
                .collect::<Result<Vec<_>>>()?;
            let text: Vec<String> = shapes.iter().map(|s| s.to_string()).collect();
            raw.push(("operand_layout_constraints".to_string(), format!("{{{}}}", text.join(", "))));
        }
        if let Some(NamedAttr { value: Attr::List(aliases), .. }) = self.attr(&["output_operand_aliases"]) {
            let mut parts = Vec::new();
            for a in aliases {
                let Attr::Struct(f) = a else { return Err(self.err("bad output_operand_aliases")) };
                let out = field_ints(f, "output_tuple_indices").unwrap_or_default();
                let operand = field_int(f, "operand_index").unwrap_or(0);
                let inner = field_ints(f, "operand_tuple_indices").unwrap_or_default();
                let list = |v: &[i64]| v.iter().map(i64::to_string).collect::<Vec<_>>().join(",");
                parts.push(format!("{{{}}}: ({operand}, {{{}}})", list(&out), list(&inner)));
            }
            if !parts.is_empty() {
                raw.push(("output_to_operand_aliasing".to_string(), format!("{{{}}}", parts.join(", "))));
            }
        }
        let typed_ffi = matches!(self.attr(&["mhlo.backend_config"]).map(|a| &a.value), Some(Attr::Dict(_)));
        let api = match self.attr(&["api_version"]).map(|a| &a.value) {
            Some(Attr::Int(1)) => None,
            Some(Attr::Int(2)) => Some("API_VERSION_STATUS_RETURNING"),
            Some(Attr::Int(3)) => Some("API_VERSION_STATUS_RETURNING_UNIFIED"),
            Some(Attr::Int(4)) => Some("API_VERSION_TYPED_FFI"),
            Some(_) => return Err(self.err("unknown api_version")),
            None if typed_ffi => Some("API_VERSION_TYPED_FFI"),
            None => None,
        };
        if let Some(api) = api {
            raw.push(("api_version".to_string(), api.to_string()));
        }
        if self.flag(&["has_side_effect"])? {
            raw.push(("custom_call_has_side_effect".to_string(), "true".to_string()));
        }
        let declared = if results.len() == 1 { results[0].clone() } else { Shape::Tuple(results.clone()) };
        let attrs = Attrs::CustomCall(Box::new(CustomCallAttrs { target, raw }));
        let id = self.add(Opcode::CustomCall, x, attrs, &[], Some(declared))?;
        let backend_config = match self.attr(&["mhlo.backend_config"]) {
            Some(a @ NamedAttr { value: Attr::Dict(_), .. }) => Some(a.raw.clone()),
            _ => match self.attr(&["backend_config"]).map(|a| &a.value) {
                Some(Attr::Str(s)) if !s.is_empty() => Some(format!("{s:?}")),
                _ => None,
            },
        };
        let frontend = match self.attr(&["mhlo.frontend_attributes"]).map(|a| &a.value) {
            Some(Attr::Dict(items)) if !items.is_empty() => {
                let parts: Vec<String> = items
                    .iter()
                    .map(|i| match &i.value {
                        Attr::Str(s) => format!("{}={s:?}", i.name),
                        _ => format!("{}={:?}", i.name, i.raw),
                    })
                    .collect();
                Some(format!("{{{}}}", parts.join(",")))
            }
            _ => None,
        };
        let pos = self.op.pos;
        let extras = self.b.extras_mut(id).map_err(|e| ParseError::at(self.l.src, pos, e.to_string()))?;
        extras.backend_config = backend_config;
        extras.frontend_attributes = frontend;
        if results.len() == 1 { Ok(vec![id]) } else { self.unpack(id, results.len()) }
    }

    fn chlo(&mut self, name: &str, x: &[InstId]) -> Result<Vec<InstId>> {
        let arg = |i: usize| x.get(i).copied().ok_or_else(|| self.err("missing operand"));
        match name {
            "erf" => Ok(vec![self.add(Opcode::Erf, &[arg(0)?], Attrs::None, &[], Some(self.result()?))?]),
            "square" => {
                let v = arg(0)?;
                Ok(vec![self.add(Opcode::Multiply, &[v, v], Attrs::None, &[], Some(self.result()?))?])
            }
            "top_k" => {
                let k = self.int(&["k"], None)?;
                self.add_results(Opcode::TopK, x, Attrs::TopK { k, largest: true }, &[])
            }
            _ => {
                type Unary = fn(&mut ComputationBuilder<'_>, InstId) -> std::result::Result<InstId, String>;
                type Binary = fn(&mut ComputationBuilder<'_>, InstId, InstId) -> std::result::Result<InstId, String>;
                let unary: Option<Unary> = match name {
                    "erfc" => Some(chlo::erfc),
                    "erf_inv" => Some(chlo::erf_inv),
                    "sinh" => Some(chlo_elementary::sinh),
                    "cosh" => Some(chlo_elementary::cosh),
                    "asin" => Some(chlo_elementary::asin),
                    "acos" => Some(chlo_elementary::acos),
                    "asinh" => Some(chlo_elementary::asinh),
                    "acosh" => Some(chlo_elementary::acosh),
                    "atan" => Some(chlo_elementary::atan),
                    "atanh" => Some(chlo_elementary::atanh),
                    "lgamma" => Some(chlo_special::lgamma),
                    "digamma" => Some(chlo_special::digamma),
                    "bessel_i1e" => Some(chlo_special::bessel_i1e),
                    _ => None,
                };
                let binary: Option<Binary> = match name {
                    "next_after" => Some(chlo_elementary::next_after),
                    "zeta" => Some(chlo_special::zeta),
                    "polygamma" => Some(chlo_special::polygamma),
                    _ => None,
                };
                let r = match (unary, binary) {
                    (Some(f), _) => f(self.b, arg(0)?),
                    (_, Some(f)) => f(self.b, arg(0)?, arg(1)?),
                    _ => return Err(self.err("unsupported operation")),
                };
                let (src, pos) = (self.l.src, self.op.pos);
                let opname = &self.op.name;
                Ok(vec![r.map_err(|m| ParseError::at(src, pos, format!("{opname}: {m}")))?])
            }
        }
    }
}

fn flat_ints(a: &Attr) -> Option<Vec<i64>> {
    let mut out = Vec::new();
    fn walk(a: &Attr, out: &mut Vec<i64>) -> Option<()> {
        match a {
            Attr::Int(v) => out.push(i64::try_from(*v).ok()?),
            Attr::Bool(b) => out.push(*b as i64),
            Attr::List(items) => {
                for i in items {
                    walk(i, out)?;
                }
            }
            Attr::Dense(d) => match &d.body {
                DenseBody::Elements(es) => {
                    let n = d.shape.as_array()?.element_count();
                    let vals: Vec<i64> = es
                        .iter()
                        .map(|e| match e {
                            Scalar::Int(v) => i64::try_from(*v).ok(),
                            Scalar::Bool(b) => Some(*b as i64),
                            _ => None,
                        })
                        .collect::<Option<_>>()?;
                    if vals.len() == n {
                        out.extend(vals);
                    } else if vals.len() == 1 {
                        out.extend(std::iter::repeat_n(vals[0], n));
                    } else {
                        return None;
                    }
                }
                DenseBody::Bytes(_) => return None,
            },
            _ => return None,
        }
        Some(())
    }
    walk(a, &mut out)?;
    Some(out)
}

fn field_ints(fields: &[(String, Attr)], name: &str) -> Option<Vec<i64>> {
    match fields.iter().find(|f| f.0 == name) {
        None => Some(Vec::new()),
        Some((_, a)) => flat_ints(a),
    }
}

fn field_int(fields: &[(String, Attr)], name: &str) -> Option<i64> {
    match fields.iter().find(|f| f.0 == name) {
        Some((_, Attr::Int(v))) => i64::try_from(*v).ok(),
        _ => None,
    }
}

/// The literal of `dense<...> : tensor<...>`: elements in row-major order, one
/// element splatted, or raw little-endian bytes.
fn dense_literal(d: &Dense) -> std::result::Result<Literal, String> {
    let Some(shape) = d.shape.as_array() else { return Err("a constant must be a tensor".into()) };
    let dtype = shape.dtype;
    let storage = dtype.component();
    let parts = if dtype.is_complex() { 2 } else { 1 };
    let count = shape.dims.iter().try_fold(1usize, |acc, &d| usize::try_from(d).ok().and_then(|d| acc.checked_mul(d)));
    let count = count.ok_or("constant size overflows")?;
    let elem = storage.byte_size() * parts;
    if count.checked_mul(elem).is_none_or(|b| b > MAX_CONSTANT_BYTES) {
        return Err(format!("constant of {count} elements is too large"));
    }
    // A splat is a few characters of text, but its array is all there.
    smelt_hlo::budget::check((count * elem) as u128, || format!("constant {}", d.shape)).map_err(|e| e.to_string())?;
    let bytes = match &d.body {
        DenseBody::Bytes(b) if b.len() == count * elem => b.clone(),
        DenseBody::Bytes(b) if b.len() == elem => b.repeat(count),
        DenseBody::Bytes(b) => {
            return Err(format!("hex constant has {} bytes, {} needs {}", b.len(), d.shape, count * elem));
        }
        DenseBody::Elements(es) => {
            let one = |s: &Scalar, out: &mut Vec<u8>| scalar_bytes(*s, dtype, out);
            let mut out = Vec::with_capacity(count * elem);
            if es.len() == count {
                for s in es {
                    one(s, &mut out)?;
                }
            } else if es.len() == 1 {
                let mut e = Vec::new();
                one(&es[0], &mut e)?;
                out = e.repeat(count);
            } else {
                return Err(format!("constant has {} elements, {} needs {count}", es.len(), d.shape));
            }
            out
        }
    };
    let mut dims = shape.dims.to_vec();
    if parts == 2 {
        dims.push(2);
    }
    Ok(Literal::Array(Array::new(dims, ArrayData::from_le_bytes(storage, &bytes))))
}

/// Appends one element of `dtype` (both parts for complex types).
fn scalar_bytes(s: Scalar, dtype: DType, out: &mut Vec<u8>) -> std::result::Result<(), String> {
    let as_f64 = |s: Scalar| -> std::result::Result<f64, String> {
        match s {
            Scalar::Float(f) => Ok(f),
            Scalar::Int(i) => Ok(i as f64),
            Scalar::Bool(b) => Ok(b as u8 as f64),
            _ => Err(format!("bad {} element", dtype.name())),
        }
    };
    let int = |s: Scalar| -> std::result::Result<i128, String> {
        match s {
            Scalar::Int(i) => Ok(i),
            Scalar::Bits(b) => Ok(b as i128),
            Scalar::Bool(b) => Ok(b as i128),
            _ => Err(format!("expected an integer {} element", dtype.name())),
        }
    };
    match dtype {
        DType::Pred => out.push(match s {
            Scalar::Bool(b) => b as u8,
            Scalar::Int(i) => (i != 0) as u8,
            _ => return Err("expected true or false".into()),
        }),
        DType::S8 | DType::U8 | DType::S16 | DType::U16 | DType::S32 | DType::U32 | DType::S64 | DType::U64 => {
            let v = int(s)?;
            out.extend_from_slice(&v.to_le_bytes()[..dtype.byte_size()]);
        }
        DType::F16 => match s {
            Scalar::Bits(b) => out.extend_from_slice(&(b as u16).to_le_bytes()),
            s => out.extend_from_slice(&half::f16::from_f64(as_f64(s)?).to_le_bytes()),
        },
        DType::Bf16 => match s {
            Scalar::Bits(b) => out.extend_from_slice(&(b as u16).to_le_bytes()),
            s => out.extend_from_slice(&half::bf16::from_f64(as_f64(s)?).to_le_bytes()),
        },
        DType::F32 => match s {
            Scalar::Bits(b) => out.extend_from_slice(&(b as u32).to_le_bytes()),
            s => out.extend_from_slice(&(as_f64(s)? as f32).to_le_bytes()),
        },
        DType::F64 => match s {
            Scalar::Bits(b) => out.extend_from_slice(&b.to_le_bytes()),
            s => out.extend_from_slice(&as_f64(s)?.to_le_bytes()),
        },
        DType::C64 | DType::C128 => {
            let (re, im) = match s {
                Scalar::Complex(re, im) => (re, im),
                s => (as_f64(s)?, 0.0),
            };
            for v in [re, im] {
                if dtype == DType::C64 {
                    out.extend_from_slice(&(v as f32).to_le_bytes());
                } else {
                    out.extend_from_slice(&v.to_le_bytes());
                }
            }
        }
    }
    Ok(())
}
