//! Elementwise functions of one 8-bit value become table lookups.
//!
//! A quantized model wraps its elementwise operations in quantize/dequantize
//! pairs (onnxruntime's QDQ form puts a pair after every operation of a
//! transformer's tanh GELU: about 130 scalar operations per element, ten of
//! them divisions, one a tanh), yet such a chain is a function of one u8 or s8
//! value, which takes 256 values. This pass evaluates the chain on all 256
//! once, with the reference interpreter, and replaces it by a lookup:
//! `gather(constant T[256], convert_s32(x) (+ 128 for s8))`, one load per
//! element (onnxruntime does the same for its quantized sigmoid and tanh).
//!
//! Contract:
//! - A *member* of an 8-bit array `s` is an elementwise instruction (no side
//!   effects) with `s`'s dimensions whose operands are `s`, members of `s`, or
//!   splat constants (`constant`, `broadcast` of a scalar constant), at least
//!   one not a constant. An 8-bit member of `s` stays a member of `s` (the
//!   chain continues through requantizations).
//! - A member with a user that is not a member of the same source, or that is
//!   the computation's root, ends a chain. Its *cone* (the members it depends
//!   on, itself included) becomes a lookup when its operations cost at least
//!   [`MIN_COST`] (a transcendental function alone does, a division costs 4,
//!   other operations 1).
//! - Tables hold 32-bit entries (the lookup is a hardware gather): a narrower
//!   result is looked up as s32 (integers, pred) or f32 (f16, bf16) and
//!   converted, exactly.
//! - Exact: each table entry is the interpreter's value of the cone on that
//!   input, which is what the interpreter computes per element. Everything
//!   else is untouched; the cone's dead instructions are left to `dce`.

use std::collections::HashMap;

use smelt_hlo::attrs::GatherAttrs;
use smelt_hlo::{Array, ArrayData, Attrs, Computation, DType, InstId, Literal, Module, Opcode, Shape};

use crate::pass::{PassContext, Result, Rewrite};
use crate::rewrite::{Rewriter, rewrite_each, splat};

/// What a chain must cost to be worth a lookup: a vector gather of 32-bit
/// table entries costs about as much as a dozen or two vector operations per
/// element (its loads are the lanes'), so a short dequantize-relu-requantize
/// stays arithmetic while any transcendental function or a long QDQ chain
/// becomes a table ([`cost`]).
pub const MIN_COST: usize = 24;

/// An operation's cost in vector arithmetic operations, roughly.
fn cost(op: Opcode) -> usize {
    match op {
        Opcode::Divide | Opcode::Remainder | Opcode::Sqrt | Opcode::Rsqrt => 4,
        op if op.is_expensive() => MIN_COST,
        _ => 1,
    }
}

pub struct LookupTables;

impl Rewrite for LookupTables {
    const NAME: &'static str = "lookup-tables";

    fn rewrite(&mut self, module: &mut Module, cx: &mut PassContext) -> Result<bool> {
        let tables = rewrite_each(module, |mut rw| {
            // Every table first: a chain's cone may hold another chain's
            // output, which its own lookup replaces.
            let tables: Vec<(InstId, InstId, Array)> = chains(rw.comp)
                .into_iter()
                .filter_map(|(output, source, cone)| Some((output, source, tabulate(rw.comp, source, &cone, output)?)))
                .collect();
            let made = tables.into_iter().map(|(output, source, table)| lookup(&mut rw, output, source, table));
            made.filter(|&made| made).count()
        });
        Ok(cx.counted("lookup_tables", tables))
    }
}

fn eight_bit(comp: &Computation, id: InstId) -> Option<DType> {
    let a = comp.inst(id).shape.as_array()?;
    matches!(a.dtype, DType::U8 | DType::S8).then_some(a.dtype)
}

fn dims(comp: &Computation, id: InstId) -> Option<&[i64]> {
    comp.inst(id).shape.as_array().map(|a| a.dims.as_slice())
}

/// The chains worth a table: (output, source, cone in dependency order).
fn chains(comp: &Computation) -> Vec<(InstId, InstId, Vec<InstId>)> {
    let order = comp.post_order();
    let mut member: HashMap<InstId, InstId> = HashMap::new();
    for &id in &order {
        let inst = comp.inst(id);
        if !inst.opcode.is_elementwise() || inst.opcode.has_side_effect() || inst.shape.as_array().is_none() {
            continue;
        }
        let mut source = None;
        let mut ok = true;
        for &o in &inst.operands {
            let s = if let Some(&s) = member.get(&o) {
                s
            } else if splat(comp, o).is_some() {
                continue;
            } else if eight_bit(comp, o).is_some() {
                o
            } else {
                ok = false;
                break;
            };
            ok &= source.is_none_or(|x| x == s);
            source = Some(s);
        }
        if let (true, Some(s)) = (ok, source)
            && dims(comp, s) == dims(comp, id)
        {
            member.insert(id, s);
        }
    }
    let users = comp.users();
    let mut found = Vec::new();
    for &id in &order {
        let Some(&s) = member.get(&id) else { continue };
        let ends = id == comp.root || users[id].iter().any(|u| member.get(u) != Some(&s));
        if !ends {
            continue;
        }
        // The cone, in dependency order.
        let mut inside = vec![id];
        let mut stack = vec![id];
        while let Some(x) = stack.pop() {
            for &o in &comp.inst(x).operands {
                if member.get(&o) == Some(&s) && !inside.contains(&o) {
                    inside.push(o);
                    stack.push(o);
                }
            }
        }
        let cone: Vec<InstId> = order.iter().copied().filter(|x| inside.contains(x)).collect();
        if cone.iter().map(|&x| cost(comp.inst(x).opcode)).sum::<usize>() >= MIN_COST {
            found.push((id, s, cone));
        }
    }
    found
}

/// The 256 values of `output` as a function of `source`: its cone copied into
/// a module over every source value, run by the interpreter.
fn tabulate(comp: &Computation, source: InstId, cone: &[InstId], output: InstId) -> Option<Array> {
    let dtype = eight_bit(comp, source)?;
    let values = match dtype {
        DType::U8 => ArrayData::U8((0..=255u8).collect()),
        _ => ArrayData::S8((-128..=127i8).collect()),
    };
    let with_dims = |shape: &Shape| -> Option<Shape> {
        let mut a = shape.as_array()?.clone();
        a.dims = [256].into_iter().collect();
        a.layout = smelt_hlo::Layout::descending(1);
        Some(Shape::Array(a))
    };
    let mut table = Computation::new("table");
    let p = table.add(smelt_hlo::Instruction::new(
        "table.x",
        Opcode::Parameter,
        with_dims(&comp.inst(source).shape)?,
        &[],
        Attrs::Parameter(0),
    ));
    let mut map: HashMap<InstId, InstId> = HashMap::from([(source, p)]);
    for &id in cone {
        let inst = comp.inst(id);
        let mut operands = Vec::with_capacity(inst.operands.len());
        for &o in &inst.operands {
            let new = match map.get(&o) {
                Some(&n) => n,
                None => {
                    let v = splat(comp, o)?;
                    let dtype = v.dtype();
                    let c = table.add(smelt_hlo::Instruction::new(
                        format!("table.c{}", table.insts.len()),
                        Opcode::Constant,
                        Shape::Array(v.shape()),
                        &[],
                        Attrs::Constant(Box::new(Literal::Array(v))),
                    ));
                    table.add(smelt_hlo::Instruction::new(
                        format!("table.b{}", table.insts.len()),
                        Opcode::Broadcast,
                        Shape::array(dtype, vec![256]),
                        &[c],
                        Attrs::Dimensions(Default::default()),
                    ))
                }
            };
            operands.push(new);
        }
        let copy = smelt_hlo::Instruction::new(
            format!("table.{}", inst.name),
            inst.opcode,
            with_dims(&inst.shape)?,
            &operands,
            inst.attrs.clone(),
        );
        map.insert(id, table.add(copy));
    }
    let out = *map.get(&output)?;
    let wide = table_type(comp.inst(output).shape.as_array()?.dtype);
    table.root = if table.inst(out).shape.as_array()?.dtype == wide {
        out
    } else {
        table.add(smelt_hlo::Instruction::new(
            "table.wide",
            Opcode::Convert,
            Shape::array(wide, vec![256]),
            &[out],
            Attrs::None,
        ))
    };
    let module = Module::new("lookup_table", table);
    smelt_hlo::verify(&module).ok()?;
    let arg = Literal::Array(Array::new([256], values));
    smelt_interp::evaluate(&module, &[arg]).ok()?.as_array().cloned()
}

/// The type a table of `dtype` values holds: 32 bits wide.
fn table_type(dtype: DType) -> DType {
    match dtype {
        d if d.byte_size() < 4 && d.is_float() => DType::F32,
        d if d.byte_size() < 4 => DType::S32,
        d => d,
    }
}

/// Replaces `output` by a lookup of `source` in `table`.
fn lookup(rw: &mut Rewriter<'_>, output: InstId, source: InstId, table: Array) -> bool {
    rw.begin(output);
    match build_lookup(rw, output, source, table) {
        Some(v) => rw.replace(output, v),
        None => {
            rw.discard_created();
            false
        }
    }
}

/// The instructions of [`lookup`], ending in a value of `output`'s type.
fn build_lookup(rw: &mut Rewriter<'_>, output: InstId, source: InstId, table: Array) -> Option<InstId> {
    let dims = rw.dims(source).to_vec();
    let wide = table.dtype();
    let t = rw.constant(table);
    let mut index = rw.convert(source, DType::S32)?;
    if rw.dtype(source) == Some(DType::S8) {
        let c = rw.constant(Array::new([], ArrayData::S32(vec![128])));
        let b = rw.broadcast(c, &dims, &[])?;
        index = rw.binary(Opcode::Add, index, b)?;
    }
    let mut vector = dims.clone();
    vector.push(1);
    let index = rw.reshape(index, &vector)?;
    let attrs = GatherAttrs {
        offset_dims: vec![].into(),
        collapsed_slice_dims: vec![0].into(),
        start_index_map: vec![0].into(),
        operand_batching_dims: vec![].into(),
        start_indices_batching_dims: vec![].into(),
        index_vector_dim: dims.len() as i64,
        slice_sizes: vec![1].into(),
        indices_are_sorted: false,
    };
    let gather = rw.add(Opcode::Gather, Shape::array(wide, &dims), &[t, index], Attrs::Gather(Box::new(attrs)));
    match rw.dtype(output)? {
        d if d == wide => Some(gather),
        d => rw.convert(gather, d),
    }
}
