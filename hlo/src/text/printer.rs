//! The canonical printer.
//!
//! One spelling per module: no `%` sigils, no computation signatures, layouts on
//! every array of rank >= 1, computations callees-first with the entry last,
//! instructions in post order, attributes in XLA's order (op-specific, called
//! computations, sharding, frontend attributes, control predecessors, metadata,
//! backend config). `parse(print(m))` gives back `m` for a compacted module, and
//! dumps, golden tests and cache fingerprints rely on the text being stable.

use std::fmt::{self, Write};

use crate::attrs::{Attrs, Braced, PaddingText, SliceText};
use crate::computation::Computation;
use crate::instruction::{InstId, Instruction};
use crate::literal::Literal;
use crate::module::{ComputationLayout, Module};
use crate::opcode::Opcode;
use crate::shape::{Shape, write_list};

/// What to leave out of printed text.
#[derive(Clone, Copy, Debug, Default)]
pub struct PrintOptions {
    /// Leave out metadata, backend_config, frontend_attributes and sharding (the
    /// form fingerprints use).
    pub skip_tooling_attributes: bool,
    /// Print constants of more than [`DIGEST_OVER_ELEMENTS`] elements as this
    /// function's text for them (a digest): the fingerprint form, which must
    /// not cost a decimal rendering of every weight. Such text does not parse
    /// back.
    pub constant_digest: Option<fn(&Literal) -> String>,
}

/// Constants larger than this print as their digest under
/// [`PrintOptions::constant_digest`].
pub const DIGEST_OVER_ELEMENTS: usize = 64;

/// Prints a module in canonical form.
pub fn print_module(m: &Module) -> String {
    print_module_with(m, PrintOptions::default())
}

pub fn print_module_with(m: &Module, options: PrintOptions) -> String {
    let mut out = String::new();
    write_module(&mut out, m, options).expect("writing to a String cannot fail");
    out
}

fn write_module(out: &mut String, m: &Module, options: PrintOptions) -> fmt::Result {
    write!(out, "HloModule {}", m.name)?;
    let c = &m.config;
    if c.is_scheduled {
        out.push_str(", is_scheduled=true");
    }
    if !c.input_output_alias.is_empty() {
        out.push_str(", input_output_alias={ ");
        for (i, a) in c.input_output_alias.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            write!(out, "{}: ({}, {}, {})", Braced(&a.output_index), a.param, Braced(&a.param_index), a.kind.name())?;
        }
        out.push_str(" }");
    }
    if !c.buffer_donor.is_empty() {
        out.push_str(", buffer_donor={ ");
        for (i, d) in c.buffer_donor.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            write!(out, "({}, {})", d.param, Braced(&d.param_index))?;
        }
        out.push_str(" }");
    }
    if let Some(layout) = &c.entry_computation_layout {
        write!(out, ", entry_computation_layout={{{}}}", LayoutText(layout))?;
    }
    if !options.skip_tooling_attributes {
        for (name, value) in &c.unknown {
            write!(out, ", {name}={value}")?;
        }
    }
    out.push_str("\n\n");
    let order = m.computation_post_order();
    for &cid in &order {
        let comp = m.comp(cid);
        if cid == m.entry {
            out.push_str("ENTRY ");
        }
        write_computation(out, m, comp, options)?;
        out.push('\n');
    }
    Ok(())
}

struct LayoutText<'a>(&'a ComputationLayout);

impl fmt::Display for LayoutText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("(")?;
        for (i, p) in self.0.params.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
                if i % 5 == 0 {
                    write!(f, "/*index={i}*/")?;
                }
            }
            write!(f, "{p}")?;
        }
        write!(f, ")->{}", self.0.result)
    }
}

/// Prints one computation (`name {` ... `}` and a newline).
pub fn print_computation(m: &Module, comp: &Computation) -> String {
    let mut out = String::new();
    write_computation(&mut out, m, comp, PrintOptions::default()).expect("String write");
    out
}

fn write_computation(out: &mut String, m: &Module, comp: &Computation, options: PrintOptions) -> fmt::Result {
    writeln!(out, "{} {{", comp.name)?;
    for id in comp.post_order() {
        out.push_str("  ");
        if id == comp.root {
            out.push_str("ROOT ");
        }
        write_instruction(out, m, comp, comp.inst(id), options)?;
        out.push('\n');
    }
    out.push_str("}\n");
    Ok(())
}

fn literal_elements(lit: &Literal) -> usize {
    match lit {
        Literal::Array(a) => a.len(),
        Literal::Tuple(t) => t.iter().map(literal_elements).sum(),
    }
}

/// Prints one instruction as it appears in a computation (no indentation, no `ROOT`).
pub fn print_instruction(m: &Module, comp: &Computation, id: InstId) -> String {
    let mut out = String::new();
    write_instruction(&mut out, m, comp, comp.inst(id), PrintOptions::default()).expect("String write");
    out
}

fn write_instruction(
    out: &mut String,
    m: &Module,
    comp: &Computation,
    inst: &Instruction,
    options: PrintOptions,
) -> fmt::Result {
    write!(out, "{} = {} {}(", inst.name, inst.shape, inst.opcode)?;
    match &inst.attrs {
        Attrs::Parameter(n) => write!(out, "{n}")?,
        Attrs::Constant(lit) if options.constant_digest.is_some() && literal_elements(lit) > DIGEST_OVER_ELEMENTS => {
            out.push_str(&options.constant_digest.map_or_else(String::new, |digest| digest(lit)))
        }
        Attrs::Constant(lit) => match (&**lit, &inst.shape) {
            (Literal::Array(a), Shape::Array(s)) if s.dtype.is_complex() => {
                write!(out, "{}", crate::literal::ComplexText(a))?
            }
            _ => write!(out, "{lit}")?,
        },
        _ => write_inst_names(out, comp, &inst.operands)?,
    }
    out.push(')');
    write_op_attrs(out, inst)?;
    for (name, value) in &inst.extras.unknown {
        write!(out, ", {name}={value}")?;
    }
    write_called(out, m, comp, inst)?;
    let e = &inst.extras;
    if !options.skip_tooling_attributes {
        if let Some(s) = &e.sharding {
            write!(out, ", sharding={s}")?;
        }
        if let Some(s) = &e.frontend_attributes {
            write!(out, ", frontend_attributes={s}")?;
        }
    }
    if !e.control_predecessors.is_empty() {
        out.push_str(", control-predecessors={");
        write_inst_names(out, comp, &e.control_predecessors)?;
        out.push('}');
    }
    if !options.skip_tooling_attributes {
        if let Some(s) = &e.metadata {
            write!(out, ", metadata={{{s}}}")?;
        }
        if let Some(s) = &e.backend_config {
            write!(out, ", backend_config={s}")?;
        }
    }
    Ok(())
}

fn write_op_attrs(out: &mut String, inst: &Instruction) -> fmt::Result {
    match &inst.attrs {
        Attrs::None | Attrs::Parameter(_) | Attrs::Constant(_) => {}
        Attrs::Iota { dimension } => write!(out, ", iota_dimension={dimension}")?,
        Attrs::Dimensions(d) => write!(out, ", dimensions={}", Braced(d))?,
        Attrs::Concatenate { dimension } => write!(out, ", dimensions={{{dimension}}}")?,
        Attrs::Compare { direction, compare_type } => {
            write!(out, ", direction={}", direction.name())?;
            if let Some(t) = compare_type {
                write!(out, ", type={}", t.name())?;
            }
        }
        Attrs::Slice(s) => write!(out, ", slice={}", SliceText(s))?,
        Attrs::DynamicSlice { sizes } => write!(out, ", dynamic_slice_sizes={}", Braced(sizes))?,
        Attrs::Pad(p) => write!(out, ", padding={}", PaddingText(p))?,
        Attrs::Dot(d) => {
            if !d.lhs_batch.is_empty() {
                write!(out, ", lhs_batch_dims={}", Braced(&d.lhs_batch))?;
            }
            write!(out, ", lhs_contracting_dims={}", Braced(&d.lhs_contracting))?;
            if !d.rhs_batch.is_empty() {
                write!(out, ", rhs_batch_dims={}", Braced(&d.rhs_batch))?;
            }
            write!(out, ", rhs_contracting_dims={}", Braced(&d.rhs_contracting))?;
        }
        Attrs::Convolution(c) => {
            write!(out, ", window={}, dim_labels={}", c.window, c.dims)?;
            if c.feature_group_count != 1 {
                write!(out, ", feature_group_count={}", c.feature_group_count)?;
            }
            if c.batch_group_count != 1 {
                write!(out, ", batch_group_count={}", c.batch_group_count)?;
            }
        }
        Attrs::Gather(g) => {
            write!(out, ", offset_dims={}", Braced(&g.offset_dims))?;
            write!(out, ", collapsed_slice_dims={}", Braced(&g.collapsed_slice_dims))?;
            write!(out, ", start_index_map={}", Braced(&g.start_index_map))?;
            if !g.operand_batching_dims.is_empty() {
                write!(out, ", operand_batching_dims={}", Braced(&g.operand_batching_dims))?;
            }
            if !g.start_indices_batching_dims.is_empty() {
                write!(out, ", start_indices_batching_dims={}", Braced(&g.start_indices_batching_dims))?;
            }
            write!(out, ", index_vector_dim={}", g.index_vector_dim)?;
            write!(out, ", slice_sizes={}", Braced(&g.slice_sizes))?;
            if g.indices_are_sorted {
                out.push_str(", indices_are_sorted=true");
            }
        }
        Attrs::Scatter(s) => {
            write!(out, ", update_window_dims={}", Braced(&s.update_window_dims))?;
            write!(out, ", inserted_window_dims={}", Braced(&s.inserted_window_dims))?;
            write!(out, ", scatter_dims_to_operand_dims={}", Braced(&s.scatter_dims_to_operand_dims))?;
            if !s.input_batching_dims.is_empty() {
                write!(out, ", input_batching_dims={}", Braced(&s.input_batching_dims))?;
            }
            if !s.scatter_indices_batching_dims.is_empty() {
                write!(out, ", scatter_indices_batching_dims={}", Braced(&s.scatter_indices_batching_dims))?;
            }
            write!(out, ", index_vector_dim={}", s.index_vector_dim)?;
            if s.indices_are_sorted {
                out.push_str(", indices_are_sorted=true");
            }
            if s.unique_indices {
                out.push_str(", unique_indices=true");
            }
        }
        Attrs::Window(w) => write!(out, ", window={w}")?,
        Attrs::Sort { dimension, is_stable } => {
            write!(out, ", dimensions={{{dimension}}}")?;
            if *is_stable {
                out.push_str(", is_stable=true");
            }
        }
        Attrs::GetTupleElement { index } => write!(out, ", index={index}")?,
        Attrs::Fusion { kind } => write!(out, ", kind={}", kind.name())?,
        Attrs::CustomCall(c) => {
            write!(out, ", custom_call_target=\"{}\"", escape(&c.target))?;
            for (name, value) in &c.raw {
                write!(out, ", {name}={value}")?;
            }
        }
        Attrs::RngBitGenerator { algorithm } => write!(out, ", algorithm={}", algorithm.name())?,
        Attrs::Rng { distribution } => write!(out, ", distribution={}", distribution.name())?,
        Attrs::ReducePrecision { exponent_bits, mantissa_bits } => {
            write!(out, ", exponent_bits={exponent_bits}, mantissa_bits={mantissa_bits}")?
        }
        Attrs::BatchNorm { epsilon, feature_index } => {
            let eps = crate::literal::format_element(&crate::literal::ArrayData::F32(vec![*epsilon]), 0, false);
            write!(out, ", epsilon={eps}, feature_index={feature_index}")?
        }
        Attrs::TopK { k, largest } => write!(out, ", k={k}, largest={largest}")?,
        Attrs::Fft { kind, lengths } => write!(out, ", fft_type={}, fft_length={}", kind.name(), Braced(lengths))?,
    }
    Ok(())
}

/// The names of `ids`, comma separated; an id with no instruction prints as
/// `<removed #n>`.
fn write_inst_names(out: &mut String, comp: &Computation, ids: &[InstId]) -> fmt::Result {
    for (i, &id) in ids.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        match comp.insts.get(id) {
            Some(inst) => out.push_str(&inst.name),
            None => write!(out, "<removed {id:?}>")?,
        }
    }
    Ok(())
}

fn write_called(out: &mut String, m: &Module, comp: &Computation, inst: &Instruction) -> fmt::Result {
    let name = |i: usize| -> &str {
        inst.called.get(i).and_then(|&c| m.comps.get(c)).map_or("<missing>", |c| c.name.as_str())
    };
    let list = |out: &mut String| -> fmt::Result {
        out.push('{');
        for i in 0..inst.called.len() {
            if i > 0 {
                out.push_str(", ");
            }
            out.push_str(name(i));
        }
        out.push('}');
        Ok(())
    };
    if inst.called.is_empty() {
        return Ok(());
    }
    match inst.opcode {
        Opcode::While => write!(out, ", condition={}, body={}", name(0), name(1))?,
        Opcode::SelectAndScatter => write!(out, ", select={}, scatter={}", name(0), name(1))?,
        Opcode::Conditional => {
            let pred_index = inst
                .operands
                .first()
                .and_then(|&p| comp.insts.get(p))
                .is_some_and(|p| matches!(&p.shape, Shape::Array(a) if a.dtype == crate::DType::Pred));
            if pred_index && inst.called.len() == 2 {
                write!(out, ", true_computation={}, false_computation={}", name(0), name(1))?;
            } else {
                out.push_str(", branch_computations=");
                list(out)?;
            }
        }
        Opcode::Fusion => write!(out, ", calls={}", name(0))?,
        Opcode::CustomCall => {
            out.push_str(", called_computations=");
            list(out)?;
        }
        _ => write!(out, ", to_apply={}", name(0))?,
    }
    Ok(())
}

/// Escapes `"` and `\` for a quoted attribute string.
pub(crate) fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out
}

/// `{1,0}` etc. for callers outside this module.
pub fn dims_text(d: &[i64]) -> String {
    let mut s = String::new();
    write_list(&mut s, d).expect("String write");
    s
}
