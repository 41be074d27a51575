//! Cranelift functions for a program's kernels.
//!
//! Every kernel with a loop body (`Loop`, `Reduce`, `Scan`, `UpdateSlice`,
//! `Scatter`) becomes one function `kernel(bufs, begin, end)`: `bufs` points to
//! the base addresses of the kernel's inputs then outputs, and `[begin, end)`
//! is the range of the outermost parallel dimension this call covers (the
//! signature of a `smelt_runtime::pool` task, so the pool calls kernels
//! directly). Sorts and select-and-scatter compile only their scalar
//! functions, `f(args, results)` over 8-byte slots, for the runtime routines;
//! `rng-bit-generator` needs no code.

mod graph;
mod math;
mod scalar;
mod simd;

use std::collections::HashMap;

use cranelift_codegen::ir::{AbiParam, Block, FuncRef, Function, InstBuilder, Signature, UserFuncName, Value, types};
use cranelift_codegen::isa::OwnedTargetIsa;
use cranelift_codegen::settings::{self, Configurable};
use cranelift_codegen::{Context, ir::condcodes::IntCC};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext, Variable};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{FuncId, Linkage, Module};
use smelt_hlo::DType;
use smelt_kernel::{Graph, Kernel, KernelBody, NodeId, Program, ScalarFn};

use crate::CompileOptions;
use crate::error::{CraneliftError, Result, invalid};
use graph::{Env, Vals, View};

/// How a kernel's function splits over threads: `n` iterations of its
/// outermost parallel dimension, each worth `inner` elements of work.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Split {
    pub n: i64,
    pub inner: i64,
    pub parallel: bool,
}

/// What was compiled for one kernel, before addresses are known.
pub(crate) enum KernelFn {
    Loop { id: FuncId, split: Split },
    Sort { less: FuncId },
    SelectAndScatter { select: FuncId, scatter: FuncId },
    Rng,
}

/// The module and its kernels, compiled but not yet finalized.
pub(crate) struct Built {
    pub module: JITModule,
    pub kernels: Vec<KernelFn>,
    /// CLIF text of every function, when asked for.
    pub clif: String,
}

fn isa(options: &CompileOptions) -> Result<OwnedTargetIsa> {
    let mut flags = settings::builder();
    let set = |f: &mut settings::Builder, k: &str, v: &str| {
        f.set(k, v).map_err(|e| CraneliftError::Codegen(format!("setting {k}={v}: {e}")))
    };
    set(&mut flags, "opt_level", if options.optimize { "speed" } else { "none" })?;
    set(&mut flags, "use_colocated_libcalls", "false")?;
    set(&mut flags, "is_pic", "false")?;
    let builder = cranelift_native::builder().map_err(|e| CraneliftError::Codegen(format!("host ISA: {e}")))?;
    builder.finish(settings::Flags::new(flags)).map_err(|e| CraneliftError::Codegen(format!("host ISA: {e}")))
}

/// Builds (and, unless only text is wanted, compiles) every kernel.
pub(crate) fn build(program: &Program, options: &CompileOptions, want_clif: bool) -> Result<Built> {
    let isa = isa(options)?;
    let mut jb = JITBuilder::with_isa(isa, cranelift_module::default_libcall_names());
    for (name, ptr) in smelt_runtime::routines::scalar::symbols() {
        jb.symbol(name, ptr);
    }
    let module = JITModule::new(jb);
    let mut cx = ModuleCx {
        module,
        helpers: HashMap::new(),
        fcx: FunctionBuilderContext::new(),
        ctx: None,
        clif: String::new(),
        want_clif,
        optimize: options.optimize,
        simd: options.simd,
    };
    let mut kernels = Vec::with_capacity(program.kernels.len());
    for (i, k) in program.kernels.iter().enumerate() {
        let compiled = cx.kernel(i, k, options).map_err(|e| match e {
            CraneliftError::Unsupported(m) => CraneliftError::Unsupported(format!("kernel k{i} '{}': {m}", k.name)),
            CraneliftError::InvalidProgram(m) => {
                CraneliftError::InvalidProgram(format!("kernel k{i} '{}': {m}", k.name))
            }
            e => e,
        })?;
        kernels.push(compiled);
        options.deadline.check(|| format!("Cranelift's kernel k{i} '{}'", k.name))?;
    }
    Ok(Built { module: cx.module, kernels, clif: cx.clif })
}

/// Renders every function as CLIF text.
pub(crate) fn emit_clif(program: &Program, options: &CompileOptions) -> Result<String> {
    Ok(build(program, options, true)?.clif)
}

struct ModuleCx {
    module: JITModule,
    helpers: HashMap<String, FuncId>,
    fcx: FunctionBuilderContext,
    ctx: Option<Context>,
    clif: String,
    want_clif: bool,
    optimize: bool,
    /// Whether elementwise innermost loops may run on 128-bit vectors.
    simd: bool,
}

/// The signature of a helper by name: float helpers take and return their
/// type; the rest are listed.
fn helper_signature(name: &str, sig: &mut Signature) -> Result<()> {
    let (params, ret): (&[cranelift_codegen::ir::Type], cranelift_codegen::ir::Type) = match name {
        "smelt_rt_f64_to_f16" | "smelt_rt_f64_to_bf16" => (&[types::F64], types::F32),
        "smelt_rt_f16_from_bits" => (&[types::I32], types::F32),
        "smelt_rt_f16_to_bits" => (&[types::F32], types::I32),
        "smelt_rt_round_f16" | "smelt_rt_round_bf16" => (&[types::F32], types::F32),
        n if n.starts_with("smelt_rt_") => {
            let t = if n.ends_with("_f64") { types::F64 } else { types::F32 };
            let binary = n.starts_with("smelt_rt_fmod_");
            (
                if binary {
                    if t == types::F64 { &[types::F64, types::F64] } else { &[types::F32, types::F32] }
                } else if t == types::F64 {
                    &[types::F64]
                } else {
                    &[types::F32]
                },
                t,
            )
        }
        _ => invalid!("no runtime helper named {name}"),
    };
    sig.params.extend(params.iter().map(|&t| AbiParam::new(t)));
    sig.returns.push(AbiParam::new(ret));
    Ok(())
}

impl ModuleCx {
    fn signature(&self, params: &[cranelift_codegen::ir::Type]) -> Signature {
        let mut sig = self.module.make_signature();
        sig.params.extend(params.iter().map(|&t| AbiParam::new(t)));
        sig
    }

    fn helper(&mut self, name: &str) -> Result<FuncId> {
        if let Some(&id) = self.helpers.get(name) {
            return Ok(id);
        }
        let mut sig = self.module.make_signature();
        helper_signature(name, &mut sig)?;
        let id = self
            .module
            .declare_function(name, Linkage::Import, &sig)
            .map_err(|e| CraneliftError::Codegen(format!("declaring {name}: {e}")))?;
        self.helpers.insert(name.to_string(), id);
        Ok(id)
    }

    /// Declares a function, lets `body` fill it, and compiles it.
    fn function(
        &mut self,
        name: &str,
        params: &[cranelift_codegen::ir::Type],
        body: &mut dyn FnMut(&mut Fx<'_, '_>, &[Value]) -> Result<()>,
    ) -> Result<FuncId> {
        let sig = self.signature(params);
        let id = self
            .module
            .declare_function(name, Linkage::Local, &sig)
            .map_err(|e| CraneliftError::Codegen(format!("declaring {name}: {e}")))?;
        let mut ctx = self.ctx.take().unwrap_or_else(|| self.module.make_context());
        ctx.func = Function::with_name_signature(UserFuncName::user(0, id.as_u32()), sig);
        {
            let mut fcx = std::mem::take(&mut self.fcx);
            let b = FunctionBuilder::new(&mut ctx.func, &mut fcx);
            let mut fx = Fx { b, cx: self, refs: HashMap::new() };
            let entry = fx.b.create_block();
            fx.b.append_block_params_for_function_params(entry);
            fx.b.switch_to_block(entry);
            let args = fx.b.block_params(entry).to_vec();
            body(&mut fx, &args)?;
            fx.b.ins().return_(&[]);
            fx.b.seal_all_blocks();
            let frontend = fx.cx.module.isa().frontend_config();
            fx.b.finalize(frontend);
            self.fcx = fcx;
        }
        if self.want_clif && !self.optimize {
            self.clif.push_str(&format!("; {name}\n{}\n", ctx.func.display()));
        }
        self.module.define_function(id, &mut ctx).map_err(|e| match e {
            cranelift_module::ModuleError::Compilation(c @ cranelift_codegen::CodegenError::Verifier(_)) => {
                CraneliftError::Codegen(format!(
                    "{name}: {}",
                    cranelift_codegen::print_errors::pretty_error(&ctx.func, c)
                ))
            }
            other => CraneliftError::Codegen(format!("{name}: {other}")),
        })?;
        if self.want_clif && self.optimize {
            self.clif.push_str(&format!("; {name}\n{}\n", ctx.func.display()));
        }
        ctx.clear();
        self.ctx = Some(ctx);
        Ok(id)
    }

    fn kernel(&mut self, i: usize, k: &Kernel, options: &CompileOptions) -> Result<KernelFn> {
        let name = format!("k{i}");
        let ptr = types::I64;
        let kparams = [ptr, types::I64, types::I64];
        let total = |space: &[i64]| space.iter().map(|&d| d.max(0)).product::<i64>();
        let split = |n: i64, work: i64| Split {
            n: n.max(0),
            inner: if n > 0 { work / n } else { 0 },
            parallel: options.parallel,
        };
        Ok(match &k.body {
            KernelBody::Loop { space, graph, outputs } => {
                let id = self.function(&name, &kparams, &mut |fx, a| fx.loop_kernel(k, a, space, graph, outputs))?;
                KernelFn::Loop { id, split: split(space.first().copied().unwrap_or(1), total(space)) }
            }
            KernelBody::Reduce { space, reduced, graph, init, values, reducer, reduce_outputs, extra } => {
                let kept: Vec<usize> = (0..space.len()).filter(|d| !reduced.contains(d)).collect();
                let id = self.function(&name, &kparams, &mut |fx, a| {
                    fx.reduce_kernel(k, a, space, &kept, reduced, graph, init, values, reducer, reduce_outputs, extra)
                })?;
                let n = kept.first().map_or(1, |&d| space[d]);
                let mut s = split(n, total(space));
                s.parallel &= !kept.is_empty();
                KernelFn::Loop { id, split: s }
            }
            KernelBody::Scan { space, axis, reverse, graph, init, values, reducer } => {
                let others: Vec<usize> = (0..space.len()).filter(|d| d != axis).collect();
                let id = self.function(&name, &kparams, &mut |fx, a| {
                    fx.scan_kernel(k, a, space, &others, *axis, *reverse, graph, init, values, reducer)
                })?;
                let n = others.first().map_or(1, |&d| space[d]);
                let mut s = split(n, total(space));
                s.parallel &= !others.is_empty();
                KernelFn::Loop { id, split: s }
            }
            KernelBody::UpdateSlice { space, graph, start, value } => {
                let id = self.function(&name, &kparams, &mut |fx, a| {
                    fx.update_slice_kernel(k, a, space, graph, start, *value)
                })?;
                KernelFn::Loop { id, split: split(space.first().copied().unwrap_or(1), total(space)) }
            }
            KernelBody::Scatter { space, graph, target, in_bounds, values, combiner } => {
                let id = self.function(&name, &kparams, &mut |fx, a| {
                    fx.scatter_kernel(k, a, space, graph, target, *in_bounds, values, combiner)
                })?;
                // Updates apply in order (indices may repeat): one thread.
                KernelFn::Loop { id, split: Split { n: 1, inner: total(space), parallel: false } }
            }
            KernelBody::Sort { comparator, .. } => {
                KernelFn::Sort { less: self.scalar_fn(&format!("{name}_less"), comparator)? }
            }
            KernelBody::SelectAndScatter { select, scatter, .. } => KernelFn::SelectAndScatter {
                select: self.scalar_fn(&format!("{name}_select"), select)?,
                scatter: self.scalar_fn(&format!("{name}_scatter"), scatter)?,
            },
            KernelBody::RngBitGenerator { .. } => KernelFn::Rng,
        })
    }

    /// `f(args, results)`: a scalar function over 8-byte slots.
    fn scalar_fn(&mut self, name: &str, f: &ScalarFn) -> Result<FuncId> {
        self.function(name, &[types::I64, types::I64], &mut |fx, a| {
            let mut args = Vec::with_capacity(f.params.len());
            for (i, &t) in f.params.iter().enumerate() {
                let addr = fx.b.ins().iadd_imm_s(a[0], 8 * i as i64);
                args.push(fx.load_elem(t, addr)?);
            }
            let outs = fx.call_fn(f, &args)?;
            for (i, (&o, v)) in f.outputs.iter().zip(outs).enumerate() {
                let addr = fx.b.ins().iadd_imm_s(a[1], 8 * i as i64);
                fx.store_elem(f.graph.dtype(o), v, addr)?;
            }
            Ok(())
        })
    }
}

/// One function being built.
pub(crate) struct Fx<'m, 'f> {
    pub b: FunctionBuilder<'f>,
    cx: &'m mut ModuleCx,
    refs: HashMap<FuncId, FuncRef>,
}

/// An open counted loop.
pub(crate) struct Loop {
    header: Block,
    exit: Block,
    var: Variable,
    pub index: Value,
}

impl Fx<'_, '_> {
    /// Calls a runtime helper and returns its result.
    pub(crate) fn call(&mut self, name: &str, args: &[Value]) -> Result<Value> {
        let id = self.cx.helper(name)?;
        let fref = match self.refs.get(&id) {
            Some(&r) => r,
            None => {
                let r = self.cx.module.declare_func_in_func(id, self.b.func);
                self.refs.insert(id, r);
                r
            }
        };
        let call = self.b.ins().call(fref, args);
        match self.b.inst_results(call).first() {
            Some(&v) => Ok(v),
            None => invalid!("helper {name} returns nothing"),
        }
    }

    pub(crate) fn call1(&mut self, name: &str, x: Value) -> Result<Value> {
        self.call(name, &[x])
    }

    /// Opens `for index in lo..hi` and positions the builder in its body.
    pub(crate) fn open_loop(&mut self, lo: Value, hi: Value) -> Loop {
        self.open_loop_by(lo, hi, 1)
    }

    /// Closes the innermost open loop: increments, branches back, continues after it.
    pub(crate) fn close_loop(&mut self, l: Loop) {
        self.close_loop_by(l, 1)
    }

    /// Opens `for index in (lo..hi).step_by(step)`; the body runs while
    /// `index + step <= hi`.
    pub(crate) fn open_loop_by(&mut self, lo: Value, hi: Value, step: i64) -> Loop {
        let (header, body, exit) = (self.b.create_block(), self.b.create_block(), self.b.create_block());
        let var = self.b.declare_var(types::I64);
        self.b.def_var(var, lo);
        self.b.ins().jump(header, &[]);
        self.b.switch_to_block(header);
        let index = self.b.use_var(var);
        let end = if step == 1 { index } else { self.b.ins().iadd_imm_s(index, step - 1) };
        let more = self.b.ins().icmp(IntCC::SignedLessThan, end, hi);
        self.b.ins().brif(more, body, &[], exit, &[]);
        self.b.switch_to_block(body);
        Loop { header, exit, var, index }
    }

    /// Closes a loop opened with [`Fx::open_loop_by`].
    pub(crate) fn close_loop_by(&mut self, l: Loop, step: i64) {
        let next = self.b.ins().iadd_imm_s(l.index, step);
        self.b.def_var(l.var, next);
        self.b.ins().jump(l.header, &[]);
        self.b.switch_to_block(l.exit);
    }

    fn imm(&mut self, v: i64) -> Value {
        self.b.ins().iconst(types::I64, v)
    }

    /// The kernel's arrays: inputs then outputs, base addresses loaded from `bufs`.
    fn views(&mut self, k: &Kernel, bufs: Value) -> (Vec<View>, Vec<View>) {
        let load = |fx: &mut Self, i: usize, ty: &smelt_kernel::ArrayType| View {
            base: fx.b.ins().load(types::I64, cranelift_codegen::ir::MemFlagsData::trusted(), bufs, 8 * i as i32),
            ty: ty.clone(),
        };
        let ins: Vec<View> = k.inputs.iter().enumerate().map(|(i, t)| load(self, i, t)).collect();
        let n = k.inputs.len();
        let outs: Vec<View> = k.outputs.iter().enumerate().map(|(i, t)| load(self, n + i, t)).collect();
        (ins, outs)
    }

    /// Starts emitting a kernel's graph: the nodes `roots` need, each at the
    /// loop level `index_level` gives its deepest index; level 0 is emitted now.
    fn start_nest<'g>(
        &mut self,
        g: &'g Graph,
        ins: Vec<View>,
        rank: usize,
        roots: &[NodeId],
        index_level: &dyn Fn(usize) -> usize,
    ) -> Result<Nest<'g>> {
        let mut n = Nest {
            g,
            lv: g.levels(|d| Some(index_level(d))).into_iter().map(|l| l.unwrap_or(0)).collect(),
            need: g.live(roots),
            vals: Vals::new(g.len()),
            idx: vec![None; rank],
            ins,
        };
        self.emit_level(&mut n, 0)?;
        Ok(n)
    }

    /// Emits the needed nodes of one level.
    fn emit_level(&mut self, n: &mut Nest<'_>, level: usize) -> Result<()> {
        let env = Env { indices: &n.idx, params: &[], inputs: &n.ins, outer: None };
        let (need, lv) = (&n.need, &n.lv);
        self.emit_nodes(n.g, &|i| need[i] && lv[i] == level, &env, &mut n.vals)
    }

    /// Opens the loops of `order` (dimensions of `space`, the first from
    /// `begin` to `end` when `bounds` are given), emitting each level's nodes
    /// as its loop opens; the first loop opened is level `first_level + 1`.
    fn open_dims(
        &mut self,
        n: &mut Nest<'_>,
        order: &[usize],
        first_level: usize,
        space: &[i64],
        bounds: Option<(Value, Value)>,
    ) -> Result<Vec<Loop>> {
        let mut loops = Vec::with_capacity(order.len());
        for (j, &d) in order.iter().enumerate() {
            let (lo, hi) = match bounds {
                Some(b) if j == 0 => b,
                _ => (self.imm(0), self.imm(space[d].max(0))),
            };
            let l = self.open_loop(lo, hi);
            n.idx[d] = Some(l.index);
            loops.push(l);
            self.emit_level(n, first_level + j + 1)?;
        }
        Ok(loops)
    }

    fn close_nest(&mut self, loops: Vec<Loop>) {
        for l in loops.into_iter().rev() {
            self.close_loop(l);
        }
    }

    /// Accumulator variables for `init` (nodes emitted already).
    fn start_accumulators(&mut self, n: &Nest<'_>, init: &[NodeId]) -> Result<Vec<Variable>> {
        let init_v = n.values(init)?;
        let tys: Vec<DType> = init.iter().map(|&i| n.g.dtype(i)).collect();
        Ok(self.accumulators(&tys, &init_v))
    }

    /// Stores `value` (a scalar of the view's type) at `index`.
    fn store_at(&mut self, view: &View, index: &[Value], value: Value) -> Result<()> {
        let addr = self.address(view, index)?;
        self.store_elem(view.ty.dtype, value, addr)
    }

    fn loop_kernel(&mut self, k: &Kernel, a: &[Value], space: &[i64], g: &Graph, outputs: &[NodeId]) -> Result<()> {
        let (ins, outs) = self.views(k, a[0]);
        if outs.len() != outputs.len() {
            invalid!("{} outputs for {} output values", outs.len(), outputs.len());
        }
        let rank = space.len();
        let mut n = self.start_nest(g, ins, rank, outputs, &|d| d + 1)?;
        let inner_n = space.last().copied().unwrap_or(0);
        let out_types: Vec<DType> = outs.iter().map(|v| v.ty.dtype).collect();
        let vector = self.cx.simd
            && rank >= 2
            && inner_n >= 2 * simd::LANES
            && simd::vectorizable(g, &n.need, &n.lv, rank, rank - 1, &n.ins, outputs, &out_types);
        let bounds = Some((a[1], a[2]));
        if !vector {
            let order: Vec<usize> = (0..rank).collect();
            let loops = self.open_dims(&mut n, &order, 0, space, bounds)?;
            self.store_outputs(&outs, outputs, &n)?;
            self.close_nest(loops);
            return Ok(());
        }
        // Outer loops as usual; the innermost on vectors, then its remainder.
        let order: Vec<usize> = (0..rank - 1).collect();
        let loops = self.open_dims(&mut n, &order, 0, space, bounds)?;
        let full = inner_n / simd::LANES * simd::LANES;
        let (lo, hi) = (self.imm(0), self.imm(full));
        let l = self.open_loop_by(lo, hi, simd::LANES);
        n.idx[rank - 1] = Some(l.index);
        let pairs: Vec<(View, NodeId)> = outs.iter().cloned().zip(outputs.iter().copied()).collect();
        self.vector_body(g, &n.need, &n.lv, rank, &n.idx, &n.ins, &pairs, &n.vals)?;
        self.close_loop_by(l, simd::LANES);
        let (lo, hi) = (self.imm(full), self.imm(inner_n));
        let l = self.open_loop(lo, hi);
        n.idx[rank - 1] = Some(l.index);
        self.emit_level(&mut n, rank)?;
        self.store_outputs(&outs, outputs, &n)?;
        self.close_loop(l);
        self.close_nest(loops);
        Ok(())
    }

    fn store_outputs(&mut self, outs: &[View], outputs: &[NodeId], n: &Nest<'_>) -> Result<()> {
        let index = n.full_index();
        for (view, &o) in outs.iter().zip(outputs) {
            self.store_at(view, &index, n.vals.get(o)?)?;
        }
        Ok(())
    }

    fn reduce_kernel(
        &mut self,
        k: &Kernel,
        a: &[Value],
        space: &[i64],
        kept: &[usize],
        reduced: &[usize],
        g: &Graph,
        init: &[NodeId],
        values: &[NodeId],
        reducer: &ScalarFn,
        reduce_outputs: &[usize],
        extra: &[(usize, NodeId)],
    ) -> Result<()> {
        let (ins, outs) = self.views(k, a[0]);
        let mut order = kept.to_vec();
        order.extend_from_slice(reduced);
        let pos: HashMap<usize, usize> = order.iter().enumerate().map(|(p, &d)| (d, p)).collect();
        let mut roots = init.to_vec();
        roots.extend_from_slice(values);
        roots.extend(extra.iter().map(|e| e.1));
        let mut n = self.start_nest(g, ins, space.len(), &roots, &|d| pos.get(&d).map_or(0, |p| p + 1))?;
        let bounds = (!kept.is_empty()).then_some((a[1], a[2]));
        let outer = self.open_dims(&mut n, kept, 0, space, bounds)?;
        let accs = self.start_accumulators(&n, init)?;
        let inner = self.open_dims(&mut n, reduced, kept.len(), space, None)?;
        self.accumulate(reducer, &accs, &n.values(values)?)?;
        let full = n.full_index();
        for &(o, node) in extra {
            let Some(view) = outs.get(o) else { invalid!("extra output {o} out of range") };
            self.store_at(view, &full, n.vals.get(node)?)?;
        }
        self.close_nest(inner);
        let kept_index: Vec<Value> = kept.iter().filter_map(|&d| n.idx[d]).collect();
        for (r, &o) in reduce_outputs.iter().enumerate() {
            let (Some(view), Some(&acc)) = (outs.get(o), accs.get(r)) else {
                invalid!("reduction output {o} out of range")
            };
            let v = self.b.use_var(acc);
            self.store_at(view, &kept_index, v)?;
        }
        self.close_nest(outer);
        Ok(())
    }

    fn scan_kernel(
        &mut self,
        k: &Kernel,
        a: &[Value],
        space: &[i64],
        others: &[usize],
        axis: usize,
        reverse: bool,
        g: &Graph,
        init: &[NodeId],
        values: &[NodeId],
        reducer: &ScalarFn,
    ) -> Result<()> {
        let (ins, outs) = self.views(k, a[0]);
        if outs.len() != init.len() || axis >= space.len() {
            invalid!("scan with {} outputs for {} accumulators", outs.len(), init.len());
        }
        let pos: HashMap<usize, usize> = others.iter().enumerate().map(|(p, &d)| (d, p)).collect();
        let mut roots = init.to_vec();
        roots.extend_from_slice(values);
        let level = |d| pos.get(&d).map_or(others.len() + 1, |p| p + 1);
        let mut n = self.start_nest(g, ins, space.len(), &roots, &level)?;
        let bounds = (!others.is_empty()).then_some((a[1], a[2]));
        let outer = self.open_dims(&mut n, others, 0, space, bounds)?;
        let accs = self.start_accumulators(&n, init)?;
        let len = space[axis].max(0);
        let (lo, hi) = (self.imm(0), self.imm(len));
        let l = self.open_loop(lo, hi);
        n.idx[axis] = Some(if reverse {
            let last = self.imm(len - 1);
            self.b.ins().isub(last, l.index)
        } else {
            l.index
        });
        self.emit_level(&mut n, others.len() + 1)?;
        self.accumulate(reducer, &accs, &n.values(values)?)?;
        let full = n.full_index();
        for (view, &acc) in outs.iter().zip(&accs) {
            let v = self.b.use_var(acc);
            self.store_at(view, &full, v)?;
        }
        self.close_loop(l);
        self.close_nest(outer);
        Ok(())
    }

    fn update_slice_kernel(
        &mut self,
        k: &Kernel,
        a: &[Value],
        space: &[i64],
        g: &Graph,
        start: &[NodeId],
        value: NodeId,
    ) -> Result<()> {
        let (ins, outs) = self.views(k, a[0]);
        let Some(out) = outs.first() else { invalid!("update-slice without an output") };
        if start.len() != space.len() {
            invalid!("update-slice start of rank {} for rank {}", start.len(), space.len());
        }
        let mut roots = start.to_vec();
        roots.push(value);
        let mut n = self.start_nest(g, ins, space.len(), &roots, &|d| d + 1)?;
        let order: Vec<usize> = (0..space.len()).collect();
        let loops = self.open_dims(&mut n, &order, 0, space, Some((a[1], a[2])))?;
        let mut at = Vec::with_capacity(space.len());
        for (d, &s) in start.iter().enumerate() {
            let (sv, Some(i)) = (n.vals.get(s)?, n.idx[d]) else { invalid!("update-slice index {d} outside its loop") };
            at.push(self.b.ins().iadd(sv, i));
        }
        self.store_at(out, &at, n.vals.get(value)?)?;
        self.close_nest(loops);
        Ok(())
    }

    fn scatter_kernel(
        &mut self,
        k: &Kernel,
        a: &[Value],
        space: &[i64],
        g: &Graph,
        target: &[NodeId],
        in_bounds: NodeId,
        values: &[NodeId],
        combiner: &ScalarFn,
    ) -> Result<()> {
        let (ins, outs) = self.views(k, a[0]);
        if outs.len() != values.len() {
            invalid!("scatter with {} outputs for {} update values", outs.len(), values.len());
        }
        let mut roots = target.to_vec();
        roots.push(in_bounds);
        roots.extend_from_slice(values);
        let mut n = self.start_nest(g, ins, space.len(), &roots, &|d| d + 1)?;
        let order: Vec<usize> = (0..space.len()).collect();
        let loops = self.open_dims(&mut n, &order, 0, space, None)?;
        let at = n.values(target)?;
        let (apply, next) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(n.vals.get(in_bounds)?, apply, &[], next, &[]);
        self.b.switch_to_block(apply);
        let mut args = Vec::with_capacity(2 * outs.len());
        let mut addrs = Vec::with_capacity(outs.len());
        for view in &outs {
            let addr = self.address(view, &at)?;
            args.push(self.load_elem(view.ty.dtype, addr)?);
            addrs.push(addr);
        }
        args.extend(n.values(values)?);
        let new = self.call_fn(combiner, &args)?;
        for ((view, addr), v) in outs.iter().zip(addrs).zip(new) {
            self.store_elem(view.ty.dtype, v, addr)?;
        }
        self.b.ins().jump(next, &[]);
        self.b.switch_to_block(next);
        self.close_nest(loops);
        Ok(())
    }
}

/// A kernel's graph being emitted loop by loop: levels, what is needed, the
/// values so far, the open loops' indices and the kernel's inputs.
struct Nest<'g> {
    g: &'g Graph,
    lv: Vec<usize>,
    need: Vec<bool>,
    vals: Vals,
    idx: Vec<Option<Value>>,
    ins: Vec<View>,
}

impl Nest<'_> {
    fn values(&self, ids: &[NodeId]) -> Result<Vec<Value>> {
        ids.iter().map(|&i| self.vals.get(i)).collect()
    }

    /// The indices of every open loop, in dimension order.
    fn full_index(&self) -> Vec<Value> {
        self.idx.iter().flatten().copied().collect()
    }
}
