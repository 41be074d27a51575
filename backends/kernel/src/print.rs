//! A readable text form of programs, for dumps, debugging and test failures.
//!
//! ```text
//! kernel k0 'add_fusion': loop [4, 5] (in0: f32[4,3], in1: f32[5]) -> (f32[4,5])
//!   %0 = s64 index 0
//!   %1 = s64 index 1
//!   %2 = f32 load in0[%0, %1]
//!   ...
//!   out0 = %5
//! ```
//!
//! Nodes print as `%id = type op operands`; reduction bodies and scalar
//! functions nest in braces. Buffers print as `param0`, `result1`, `const2` and
//! `temp+64` (a byte offset into the arena).

use std::fmt::{self, Write};

use crate::ir::{ArrayType, BufRef, Buffer, Graph, Kernel, KernelBody, Node, NodeId, Program, Scalar, ScalarFn, Step};

impl fmt::Display for ArrayType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let dims: Vec<String> = self.dims.iter().map(i64::to_string).collect();
        write!(f, "{}[{}]", self.dtype, dims.join(","))
    }
}

impl fmt::Display for Buffer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Buffer::Param(n) => write!(f, "param{n}"),
            Buffer::Result(n) => write!(f, "result{n}"),
            Buffer::Const(n) => write!(f, "const{n}"),
            Buffer::Temp(o) => write!(f, "temp+{o}"),
        }
    }
}

impl fmt::Display for BufRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.buffer, self.ty)
    }
}

impl fmt::Display for Scalar {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Scalar::Int(_, v) => write!(f, "{v}"),
            Scalar::Float(_, v) => write!(f, "{v:?}"),
        }
    }
}

fn ids(ids: &[NodeId]) -> String {
    ids.iter().map(|i| format!("%{}", i.0)).collect::<Vec<_>>().join(", ")
}

/// Writes a graph's nodes, one per line, at indentation `pad`.
fn graph(out: &mut String, g: &Graph, pad: usize) -> fmt::Result {
    let sp = " ".repeat(pad);
    for (i, node) in g.nodes.iter().enumerate() {
        let t = g.types.get(i).map_or("?".to_string(), |t| t.to_string());
        write!(out, "{sp}%{i} = {t} ")?;
        match node {
            Node::Index(d) => writeln!(out, "index {d}")?,
            Node::Param(n) => writeln!(out, "param {n}")?,
            Node::Const(c) => writeln!(out, "const {c}")?,
            Node::Load { input, index } => writeln!(out, "load in{input}[{}]", ids(index))?,
            Node::Unary { op, x } => writeln!(out, "{} %{}", format!("{op:?}").to_lowercase(), x.0)?,
            Node::Binary { op, a, b } => writeln!(out, "{} %{}, %{}", format!("{op:?}").to_lowercase(), a.0, b.0)?,
            Node::Compare { direction, compare_type, a, b } => {
                let ty = compare_type.map_or(String::new(), |t| format!(" {}", t.name()));
                writeln!(out, "compare {}{ty} %{}, %{}", direction.name(), a.0, b.0)?
            }
            Node::Select { pred, on_true, on_false } => {
                writeln!(out, "select %{}, %{}, %{}", pred.0, on_true.0, on_false.0)?
            }
            Node::Clamp { min, x, max } => writeln!(out, "clamp %{}, %{}, %{}", min.0, x.0, max.0)?,
            Node::MulAdd { a, b, c } => writeln!(out, "muladd %{}, %{}, %{}", a.0, b.0, c.0)?,
            Node::Convert { x, .. } => writeln!(out, "convert %{}", x.0)?,
            Node::Bitcast { x, .. } => writeln!(out, "bitcast %{}", x.0)?,
            Node::ReduceResult { reduce, index } => writeln!(out, "result {index} of %{}", reduce.0)?,
            Node::Outer(n) => writeln!(out, "outer %{}", n.0)?,
            Node::Reduce(r) => {
                let window: Vec<String> = r.window.iter().map(i64::to_string).collect();
                writeln!(out, "reduce over [{}] from ({}) {{", window.join(", "), ids(&r.init))?;
                graph(out, &r.body, pad + 2)?;
                writeln!(out, "{sp}  values ({})", ids(&r.values))?;
                write!(out, "{sp}  reducer ")?;
                scalar_fn(out, &r.reducer, pad + 2)?;
                writeln!(out, "{sp}}}")?;
            }
        }
    }
    Ok(())
}

fn scalar_fn(out: &mut String, f: &ScalarFn, pad: usize) -> fmt::Result {
    let params: Vec<String> = f.params.iter().map(|t| t.to_string()).collect();
    let pattern = f.pattern.map_or(String::new(), |p| format!(" {p:?}"));
    writeln!(out, "({}){pattern} {{", params.join(", "))?;
    graph(out, &f.graph, pad + 2)?;
    writeln!(out, "{}  -> ({})", " ".repeat(pad), ids(&f.outputs))?;
    writeln!(out, "{}}}", " ".repeat(pad))
}

fn kernel(out: &mut String, id: usize, k: &Kernel) -> fmt::Result {
    let ins: Vec<String> = k.inputs.iter().enumerate().map(|(i, t)| format!("in{i}: {t}")).collect();
    let outs: Vec<String> = k.outputs.iter().map(|t| t.to_string()).collect();
    let dims = |d: &[i64]| d.iter().map(i64::to_string).collect::<Vec<_>>().join(", ");
    let head = format!("kernel k{id} '{}'", k.name);
    let sig = format!("({}) -> ({})", ins.join(", "), outs.join(", "));
    match &k.body {
        KernelBody::Loop { space, graph: g, outputs } => {
            writeln!(out, "{head}: loop [{}] {sig}", dims(space))?;
            graph(out, g, 2)?;
            for (i, o) in outputs.iter().enumerate() {
                writeln!(out, "  out{i} = %{}", o.0)?;
            }
        }
        KernelBody::Reduce { space, reduced, graph: g, init, values, reducer, reduce_outputs, extra } => {
            let red: Vec<String> = reduced.iter().map(usize::to_string).collect();
            writeln!(out, "{head}: reduce [{}] over dimensions {{{}}} {sig}", dims(space), red.join(", "))?;
            graph(out, g, 2)?;
            writeln!(out, "  init ({}) values ({})", ids(init), ids(values))?;
            write!(out, "  reducer ")?;
            scalar_fn(out, reducer, 2)?;
            for (r, o) in reduce_outputs.iter().enumerate() {
                writeln!(out, "  out{o} = accumulator {r}")?;
            }
            for (o, n) in extra {
                writeln!(out, "  out{o} = %{} at every point", n.0)?;
            }
        }
        KernelBody::Scan { space, axis, reverse, graph: g, init, values, reducer } => {
            let dir = if *reverse { " reverse" } else { "" };
            writeln!(out, "{head}: scan [{}] along {axis}{dir} {sig}", dims(space))?;
            graph(out, g, 2)?;
            writeln!(out, "  init ({}) values ({})", ids(init), ids(values))?;
            write!(out, "  reducer ")?;
            scalar_fn(out, reducer, 2)?;
            for r in 0..init.len() {
                writeln!(out, "  out{r} = accumulator {r} at every point")?;
            }
        }
        KernelBody::UpdateSlice { space, graph: g, start, value } => {
            writeln!(out, "{head}: update-slice [{}] {sig}", dims(space))?;
            graph(out, g, 2)?;
            writeln!(out, "  out0[({}) + index] = %{}", ids(start), value.0)?;
        }
        KernelBody::Scatter { space, graph: g, target, in_bounds, values, combiner } => {
            writeln!(out, "{head}: scatter [{}] {sig}", dims(space))?;
            graph(out, g, 2)?;
            writeln!(out, "  if %{}: out[{}] = combine(out, {})", in_bounds.0, ids(target), ids(values))?;
            write!(out, "  combiner ")?;
            scalar_fn(out, combiner, 2)?;
        }
        KernelBody::Sort { dims: d, dimension, stable, comparator } => {
            writeln!(
                out,
                "{head}: sort [{}] along {dimension}{} {sig}",
                dims(d),
                if *stable { " stable" } else { "" }
            )?;
            write!(out, "  comparator ")?;
            scalar_fn(out, comparator, 2)?;
        }
        KernelBody::SelectAndScatter { window, select, scatter } => {
            writeln!(out, "{head}: select-and-scatter {window:?} {sig}")?;
            write!(out, "  select ")?;
            scalar_fn(out, select, 2)?;
            write!(out, "  scatter ")?;
            scalar_fn(out, scatter, 2)?;
        }
        KernelBody::RngBitGenerator { algorithm } => writeln!(out, "{head}: {} {sig}", algorithm.name())?,
    }
    Ok(())
}

fn bufs(b: &[BufRef]) -> String {
    b.iter().map(|b| b.buffer.to_string()).collect::<Vec<_>>().join(", ")
}

fn steps(out: &mut String, steps_: &[Step], pad: usize) -> fmt::Result {
    let sp = " ".repeat(pad);
    for step in steps_ {
        match step {
            Step::Kernel { kernel, inputs, outputs } => {
                writeln!(out, "{sp}k{} ({}) -> ({})", kernel.0, bufs(inputs), bufs(outputs))?
            }
            Step::Copy { src, dst } => writeln!(out, "{sp}copy {} -> {}", src.buffer, dst.buffer)?,
            Step::ParallelCopy { moves } => {
                let m: Vec<String> = moves.iter().map(|(s, d)| format!("{} -> {}", s.buffer, d.buffer)).collect();
                writeln!(out, "{sp}parallel-copy {}", m.join(", "))?
            }
            Step::Dot(d) => {
                let t = |b: bool| if b { "ᵀ" } else { "" };
                let epi = d.epilogue.as_ref().map_or(String::new(), |(k, b)| format!(" then k{} ({})", k.0, bufs(b)));
                writeln!(
                    out,
                    "{sp}dot {}{} x {}{} -> {} [b={} m={} n={} k={}]{epi}",
                    d.lhs.buffer,
                    t(d.lhs_transposed),
                    d.rhs.buffer,
                    t(d.rhs_transposed),
                    d.out,
                    d.batch,
                    d.m,
                    d.n,
                    d.k
                )?
            }
            Step::Conv(c) => {
                let epi = c.epilogue.as_ref().map_or(String::new(), |(k, b)| format!(" then k{} ({})", k.0, bufs(b)));
                writeln!(out, "{sp}convolution {}, {} -> {} ({}){epi}", c.input, c.kernel, c.out, c.dims)?
            }
            Step::CustomCall(c) => {
                writeln!(out, "{sp}custom-call `{}` {} -> {}", c.call.spec(), bufs(&c.inputs), bufs(&c.outputs))?
            }
            Step::While { cond, pred, body, update } => {
                writeln!(out, "{sp}while {{")?;
                steps(out, cond, pad + 2)?;
                writeln!(out, "{sp}}} {} {{", pred.buffer)?;
                steps(out, body, pad + 2)?;
                let m: Vec<String> = update.iter().map(|(s, d)| format!("{} -> {}", s.buffer, d.buffer)).collect();
                writeln!(out, "{sp}}} update {}", m.join(", "))?;
            }
            Step::Conditional { index, branches } => {
                writeln!(out, "{sp}conditional {} {{", index.buffer)?;
                for (b, s) in branches.iter().enumerate() {
                    writeln!(out, "{sp}  branch {b}:")?;
                    steps(out, s, pad + 4)?;
                }
                writeln!(out, "{sp}}}")?;
            }
        }
    }
    Ok(())
}

impl fmt::Display for Kernel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        kernel(&mut out, 0, self)?;
        f.write_str(&out)
    }
}

impl fmt::Display for Program {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        let params: Vec<String> = self.params.iter().map(|t| t.to_string()).collect();
        let results: Vec<String> = self.results.iter().map(|t| t.to_string()).collect();
        writeln!(
            out,
            "program '{}' ({}) -> ({}), {} temporary bytes",
            self.name,
            params.join(", "),
            results.join(", "),
            self.temp_bytes
        )?;
        for (i, c) in self.constants.iter().enumerate() {
            writeln!(out, "const{i} = {}", c.ty)?;
        }
        for (i, k) in self.kernels.iter().enumerate() {
            kernel(&mut out, i, k)?;
        }
        writeln!(out, "steps:")?;
        steps(&mut out, &self.steps, 2)?;
        f.write_str(&out)
    }
}
