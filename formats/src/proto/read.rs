//! Proto to [`Module`]: decode, resolve ids, convert each field.

use std::collections::{HashMap, HashSet};

use half::{bf16, f16};
use prost::Message;
use smallvec::SmallVec;
use smelt_hlo::attrs::*;
use smelt_hlo::module::{AliasKind, BufferDonor, ComputationLayout, IoAlias};
use smelt_hlo::shape::{ArrayShape, Dims, Layout};
use smelt_hlo::{Arena, Array, ArrayData, CompId, Computation, DType, Extras, InstId, Instruction, Literal};
use smelt_hlo::{Module, ModuleConfig, Opcode, Shape};

use super::ProtoError;
use super::text;
use super::xla;

type Result<T, E = ProtoError> = std::result::Result<T, E>;

/// Reads a serialized `HloModuleProto`, or an `HloProto` or `HloSnapshot`
/// wrapping one, into the module the HLO text parser builds for the same
/// program.
pub fn read_proto(bytes: &[u8]) -> Result<Module> {
    let proto = decode(bytes)?;
    module(&proto)
}

/// Whether a decoded message has the structure of a module: protobuf has no
/// type tags, so a wrapper message may decode as a module of nonsense.
fn looks_like_module(m: &xla::HloModuleProto) -> bool {
    !m.computations.is_empty()
        && m.computations.iter().all(|c| {
            !c.name.is_empty() && !c.instructions.is_empty() && c.instructions.iter().all(|i| !i.opcode.is_empty())
        })
}

fn decode(bytes: &[u8]) -> Result<xla::HloModuleProto> {
    let direct = match xla::HloModuleProto::decode(bytes) {
        Ok(m) if looks_like_module(&m) => return Ok(m),
        other => other,
    };
    let wrapped = xla::HloProto::decode(bytes)
        .ok()
        .and_then(|p| p.hlo_module)
        .filter(looks_like_module)
        .or_else(|| xla::HloSnapshot::decode(bytes).ok().and_then(|s| s.hlo?.hlo_module).filter(looks_like_module));
    if let Some(m) = wrapped {
        return Ok(m);
    }
    match direct {
        Err(e) => Err(ProtoError::Decode(e.to_string())),
        Ok(m) if m.computations.is_empty() => Err(ProtoError::Empty),
        // Not module-shaped, but the conversion says precisely what is wrong.
        Ok(m) => Ok(m),
    }
}

fn module(p: &xla::HloModuleProto) -> Result<Module> {
    let module_err = |message: String| ProtoError::Module { module: p.name.clone(), message };
    if p.name.is_empty() {
        return Err(module_err("the module has no name".into()));
    }
    let mut comp_ids: HashMap<i64, CompId> = HashMap::new();
    let mut names = HashSet::new();
    for (i, c) in p.computations.iter().enumerate() {
        if comp_ids.insert(c.id, CompId::from_index(i)).is_some() {
            return Err(module_err(format!("computation id {} is used twice", c.id)));
        }
        if !names.insert(c.name.as_str()) {
            return Err(module_err(format!("computation '{}' is defined twice", c.name)));
        }
    }
    let mut comps = Arena::new();
    for c in &p.computations {
        comps.alloc(computation(c, &comp_ids)?);
    }
    let by_id = comp_ids.get(&p.entry_computation_id).copied();
    let by_name = p.computations.iter().position(|c| c.name == p.entry_computation_name).map(CompId::from_index);
    let entry = match (by_id, by_name) {
        (Some(id), Some(named)) if id != named => {
            return Err(module_err(format!(
                "entry computation id {} and name '{}' name different computations",
                p.entry_computation_id, p.entry_computation_name
            )));
        }
        (Some(id), _) | (None, Some(id)) => id,
        (None, None) => {
            return Err(module_err(format!(
                "the entry computation (id {}, name '{}') is not in the module",
                p.entry_computation_id, p.entry_computation_name
            )));
        }
    };
    let config = config(p).map_err(module_err)?;
    Ok(Module { name: p.name.clone(), comps, entry, config })
}

fn config(p: &xla::HloModuleProto) -> Result<ModuleConfig, String> {
    let mut config = ModuleConfig::default();
    if let Some(ps) = &p.host_program_shape {
        let params = ps
            .parameters
            .iter()
            .map(|s| shape(Some(s), 0))
            .collect::<Result<_, _>>()
            .map_err(|e| format!("host program shape: {e}"))?;
        let result = shape(ps.result.as_ref(), 0).map_err(|e| format!("host program result: {e}"))?;
        config.entry_computation_layout = Some(ComputationLayout { params, result });
    }
    config.is_scheduled = p.schedule.as_ref().is_some_and(|s| !s.sequences.is_empty());
    let param_number =
        |n: i64| u32::try_from(n).map_err(|_| format!("parameter number {n} in an alias or donor is out of range"));
    for a in p.input_output_alias.iter().flat_map(|a| &a.entries) {
        config.input_output_alias.push(IoAlias {
            output_index: a.output_shape_index.clone(),
            param: param_number(a.parameter_number)?,
            param_index: a.parameter_shape_index.clone(),
            kind: if a.kind == xla::Kind::MustAlias as i32 { AliasKind::MustAlias } else { AliasKind::MayAlias },
        });
    }
    for d in p.buffer_donor.iter().flat_map(|d| &d.entries) {
        config.buffer_donor.push(BufferDonor {
            param: param_number(d.parameter_number)?,
            param_index: d.parameter_shape_index.clone(),
        });
    }
    if let Some(text) = p.frontend_attributes.as_ref().and_then(|f| text::frontend_attributes_text(&f.map)) {
        config.unknown.push(("frontend_attributes".into(), text));
    }
    Ok(config)
}

fn computation(c: &xla::HloComputationProto, comp_ids: &HashMap<i64, CompId>) -> Result<Computation> {
    let comp_err = |message: String| ProtoError::Computation { computation: c.name.clone(), message };
    if c.instructions.is_empty() {
        return Err(comp_err("the computation has no instructions".into()));
    }
    let mut ids: HashMap<i64, InstId> = HashMap::new();
    let mut names = HashSet::new();
    for (i, inst) in c.instructions.iter().enumerate() {
        if inst.name.is_empty() {
            return Err(comp_err(format!("instruction {} ({}) has no name", inst.id, inst.opcode)));
        }
        if !names.insert(inst.name.as_str()) {
            return Err(comp_err(format!("instruction '{}' is defined twice", inst.name)));
        }
        if ids.insert(inst.id, InstId::from_index(i)).is_some() {
            return Err(comp_err(format!("instruction id {} is used twice", inst.id)));
        }
    }
    // Shapes first: attributes may depend on operands' shapes.
    let mut shapes = Vec::with_capacity(c.instructions.len());
    for inst in &c.instructions {
        shapes.push(shape(inst.shape.as_ref(), 0).map_err(|m| inst_err(c, inst, m))?);
    }
    let mut comp = Computation::new(c.name.clone());
    for (inst, shape) in c.instructions.iter().zip(&shapes) {
        let built = instruction(inst, shape, &ids, &shapes, comp_ids).map_err(|m| inst_err(c, inst, m))?;
        comp.add(built);
    }
    comp.root = *ids.get(&c.root_id).ok_or_else(|| comp_err(format!("root id {} names no instruction", c.root_id)))?;
    Ok(comp)
}

fn inst_err(c: &xla::HloComputationProto, i: &xla::HloInstructionProto, message: String) -> ProtoError {
    ProtoError::Instruction { computation: c.name.clone(), name: i.name.clone(), opcode: i.opcode.clone(), message }
}

// ---- shapes and literals ----------------------------------------------------

/// Tuples nest at most this deep (protobuf decoding allows 100 levels).
const MAX_DEPTH: usize = 64;

fn dtype(t: i32) -> Result<Option<DType>, String> {
    use xla::PrimitiveType as P;
    let p = P::try_from(t).map_err(|_| format!("unknown element type {t}"))?;
    Ok(Some(match p {
        P::Pred => DType::Pred,
        P::S8 => DType::S8,
        P::S16 => DType::S16,
        P::S32 => DType::S32,
        P::S64 => DType::S64,
        P::U8 => DType::U8,
        P::U16 => DType::U16,
        P::U32 => DType::U32,
        P::U64 => DType::U64,
        P::F16 => DType::F16,
        P::Bf16 => DType::Bf16,
        P::F32 => DType::F32,
        P::F64 => DType::F64,
        P::C64 => DType::C64,
        P::C128 => DType::C128,
        P::Tuple => return Ok(None),
        other => {
            let name = other.as_str_name().to_ascii_lowercase();
            return Err(format!("element type '{name}' is not supported by smelt"));
        }
    }))
}

fn shape(s: Option<&xla::ShapeProto>, depth: usize) -> Result<Shape, String> {
    let s = s.ok_or("the shape is missing")?;
    if depth > MAX_DEPTH {
        return Err("shape nested too deeply".into());
    }
    let Some(dtype) = dtype(s.element_type)? else {
        let elems = s.tuple_shapes.iter().map(|e| shape(Some(e), depth + 1)).collect::<Result<_, _>>()?;
        return Ok(Shape::Tuple(elems));
    };
    if let Some(&d) = s.dimensions.iter().find(|&&d| d < 0) {
        return Err(format!("dimension size {d} is negative"));
    }
    if s.is_dynamic_dimension.iter().any(|&d| d) {
        return Err("dynamic dimensions are not supported by smelt".into());
    }
    let dims = Dims::from_slice(&s.dimensions);
    let rank = dims.len();
    let mut layout = Layout::descending(rank);
    if let Some(l) = &s.layout {
        if !l.minor_to_major.is_empty() {
            let mut seen = l.minor_to_major.clone();
            seen.sort_unstable();
            if !seen.iter().copied().eq(0..rank as i64) {
                return Err(format!(
                    "layout {{{}}} is not a permutation of the {rank} dimensions",
                    smelt_hlo::text::dims_text(&l.minor_to_major)
                ));
            }
            layout.minor_to_major = Dims::from_slice(&l.minor_to_major);
        }
        layout.extra = layout_extra(l).map(String::into_boxed_str);
    }
    Ok(Shape::Array(ArrayShape { dtype, dims, layout }))
}

/// The layout details after `:` as XLA prints them (`T(8,128)(2,1)E(4)S(1)`).
fn layout_extra(l: &xla::LayoutProto) -> Option<String> {
    let mut out = String::new();
    if !l.tiles.is_empty() {
        out.push('T');
        for t in &l.tiles {
            out.push('(');
            out.push_str(&smelt_hlo::text::dims_text(&t.dimensions));
            out.push(')');
        }
    }
    if l.element_size_in_bits != 0 {
        out.push_str(&format!("E({})", l.element_size_in_bits));
    }
    if l.memory_space != 0 {
        out.push_str(&format!("S({})", l.memory_space));
    }
    (!out.is_empty()).then_some(out)
}

/// Number of elements of `dims`, or an error if it does not fit a `usize`.
fn element_count(dims: &[i64]) -> Result<usize, String> {
    dims.iter()
        .try_fold(1usize, |acc, &d| acc.checked_mul(usize::try_from(d).ok()?))
        .ok_or_else(|| format!("the shape's element count overflows ({dims:?})"))
}

fn literal(l: &xla::LiteralProto, shape: &Shape, depth: usize) -> Result<Literal, String> {
    let a = match shape {
        Shape::Tuple(elems) => {
            if l.tuple_literals.len() != elems.len() {
                return Err(format!(
                    "constant has {} tuple elements, its shape has {}",
                    l.tuple_literals.len(),
                    elems.len()
                ));
            }
            if depth > MAX_DEPTH {
                return Err("constant nested too deeply".into());
            }
            let out = l.tuple_literals.iter().zip(elems).map(|(l, s)| literal(l, s, depth + 1));
            return Ok(Literal::Tuple(out.collect::<Result<_, _>>()?));
        }
        Shape::Array(a) => a,
    };
    let n = element_count(&a.dims)?;
    // Values in one repeated field, or packed little-endian in bytes.
    fn exact<T: Clone>(v: &[T], n: usize, what: &str) -> Result<Vec<T>, String> {
        if v.len() != n {
            return Err(format!("constant has {} {what} values, its shape needs {n}", v.len()));
        }
        Ok(v.to_vec())
    }
    fn packed<T, const W: usize>(b: &[u8], n: usize, what: &str, f: fn([u8; W]) -> T) -> Result<Vec<T>, String> {
        if b.len() / W != n || !b.len().is_multiple_of(W) {
            return Err(format!("constant has {} bytes of {what} values, its shape needs {}", b.len(), n * W));
        }
        Ok(b.chunks_exact(W).map(|c| f(c.try_into().unwrap_or([0; W]))).collect())
    }
    let pairs = n.checked_mul(2).ok_or("the shape's element count overflows")?;
    let data = match a.dtype {
        DType::Pred => ArrayData::Pred(exact(&l.preds, n, "pred")?),
        DType::S8 => ArrayData::S8(packed(&l.s8s, n, "s8", i8::from_le_bytes)?),
        DType::U8 => ArrayData::U8(packed(&l.u8s, n, "u8", u8::from_le_bytes)?),
        DType::S16 => ArrayData::S16(packed(&l.s16s, n, "s16", i16::from_le_bytes)?),
        DType::U16 => ArrayData::U16(packed(&l.u16s, n, "u16", u16::from_le_bytes)?),
        DType::F16 => ArrayData::F16(packed(&l.f16s, n, "f16", f16::from_le_bytes)?),
        DType::Bf16 => ArrayData::Bf16(packed(&l.bf16s, n, "bf16", bf16::from_le_bytes)?),
        DType::S32 => ArrayData::S32(exact(&l.s32s, n, "s32")?),
        DType::S64 => ArrayData::S64(exact(&l.s64s, n, "s64")?),
        DType::U32 => ArrayData::U32(exact(&l.u32s, n, "u32")?),
        DType::U64 => ArrayData::U64(exact(&l.u64s, n, "u64")?),
        DType::F32 => ArrayData::F32(exact(&l.f32s, n, "f32")?),
        DType::F64 => ArrayData::F64(exact(&l.f64s, n, "f64")?),
        // A complex constant is stored as its parts, innermost.
        DType::C64 => ArrayData::F32(exact(&l.c64s, pairs, "c64 part")?),
        DType::C128 => ArrayData::F64(exact(&l.c128s, pairs, "c128 part")?),
    };
    let mut dims = a.dims.clone();
    if a.dtype.is_complex() {
        dims.push(2);
    }
    Ok(Literal::Array(Array { dims, data }))
}

// ---- instructions ---------------------------------------------------------------

fn instruction(
    p: &xla::HloInstructionProto,
    shape: &Shape,
    ids: &HashMap<i64, InstId>,
    shapes: &[Shape],
    comp_ids: &HashMap<i64, CompId>,
) -> Result<Instruction, String> {
    let opcode = Opcode::from_name(&p.opcode).ok_or_else(|| "unknown or unsupported opcode".to_string())?;
    let lookup = |id: &i64, what: &str| {
        ids.get(id).copied().ok_or_else(|| format!("{what} id {id} names no instruction of the computation"))
    };
    let operands: SmallVec<[InstId; 2]> =
        p.operand_ids.iter().map(|id| lookup(id, "operand")).collect::<Result<_, _>>()?;
    let control_predecessors =
        p.control_predecessor_ids.iter().map(|id| lookup(id, "control predecessor")).collect::<Result<_, _>>()?;
    let mut called: SmallVec<[CompId; 1]> = p
        .called_computation_ids
        .iter()
        .map(|id| comp_ids.get(id).copied().ok_or_else(|| format!("called computation id {id} is not in the module")))
        .collect::<Result<_, _>>()?;
    let want_called = match opcode {
        Opcode::While | Opcode::SelectAndScatter => Some(2),
        Opcode::Fusion
        | Opcode::Call
        | Opcode::Map
        | Opcode::Reduce
        | Opcode::ReduceWindow
        | Opcode::Scatter
        | Opcode::Sort => Some(1),
        Opcode::Conditional | Opcode::CustomCall => None,
        _ => Some(0),
    };
    if let Some(n) = want_called
        && called.len() != n
    {
        return Err(format!("takes {n} called computations, the proto gives {}", called.len()));
    }
    if opcode == Opcode::Conditional && called.is_empty() {
        return Err("a conditional needs at least one branch computation".into());
    }
    // XLA keeps a while's body before its condition; smelt the other way round.
    if opcode == Opcode::While {
        called.swap(0, 1);
    }
    let operand0_dtype =
        operands.first().and_then(|id| shapes.get(id.index())).and_then(Shape::as_array).map(|a| a.dtype);
    let mut extras = Extras {
        metadata: p.metadata.as_ref().and_then(text::metadata_text),
        backend_config: text::backend_config_text(&p.backend_config),
        frontend_attributes: p.frontend_attributes.as_ref().and_then(|f| text::frontend_attributes_text(&f.map)),
        sharding: p.sharding.as_ref().map(text::sharding_text),
        control_predecessors,
        ..Extras::default()
    };
    let attrs = attrs(p, opcode, shape, operand0_dtype, &mut extras)?;
    Ok(Instruction {
        name: p.name.clone(),
        opcode,
        shape: shape.clone(),
        operands,
        called,
        attrs,
        extras: Box::new(extras),
    })
}

fn one_dimension(dims: &[i64], what: &str) -> Result<i64, String> {
    match dims {
        [d] => Ok(*d),
        _ => Err(format!("{what} needs exactly one dimension, the proto gives {}", dims.len())),
    }
}

fn window(w: Option<&xla::Window>) -> Window {
    // Proto3 leaves unset fields at 0; a stride or dilation of 0 means 1.
    let one = |v: i64| if v == 0 { 1 } else { v };
    Window {
        dims: w
            .map(|w| &w.dimensions[..])
            .unwrap_or_default()
            .iter()
            .map(|d| WindowDim {
                size: d.size,
                stride: one(d.stride),
                pad_low: d.padding_low,
                pad_high: d.padding_high,
                window_dilation: one(d.window_dilation),
                base_dilation: one(d.base_dilation),
                reversal: d.window_reversal,
            })
            .collect(),
    }
}

fn default_compare_type(dtype: DType) -> CompareType {
    if dtype.is_float() || dtype.is_complex() {
        CompareType::Float
    } else if dtype.is_signed_int() {
        CompareType::Signed
    } else {
        CompareType::Unsigned
    }
}

/// The op-specific attributes, and the attributes smelt keeps as text.
fn attrs(
    p: &xla::HloInstructionProto,
    op: Opcode,
    shape: &Shape,
    operand0: Option<DType>,
    extras: &mut Extras,
) -> Result<Attrs, String> {
    let missing = |what: &str| format!("{op} is missing its {what}");
    Ok(match Attrs::kind_for(op) {
        AttrsKind::None => Attrs::None,
        AttrsKind::Parameter => Attrs::Parameter(
            u32::try_from(p.parameter_number)
                .map_err(|_| format!("parameter number {} is out of range", p.parameter_number))?,
        ),
        AttrsKind::Constant => {
            let l = p.literal.as_ref().ok_or_else(|| missing("literal"))?;
            Attrs::Constant(Box::new(literal(l, shape, 0)?))
        }
        AttrsKind::Iota => Attrs::Iota { dimension: one_dimension(&p.dimensions, "iota")? },
        AttrsKind::Dimensions => {
            let mut dims = Dims::from_slice(&p.dimensions);
            // As in text, a map without dimensions maps over all of them.
            if op == Opcode::Map && dims.is_empty() {
                dims = (0..shape.as_array().map_or(0, |a| a.rank() as i64)).collect();
            }
            Attrs::Dimensions(dims)
        }
        AttrsKind::Concatenate => Attrs::Concatenate { dimension: one_dimension(&p.dimensions, "concatenate")? },
        AttrsKind::Compare => {
            let direction = ComparisonDirection::from_name(&p.comparison_direction)
                .ok_or_else(|| format!("unknown comparison direction '{}'", p.comparison_direction))?;
            let compare_type = if p.comparison_type.is_empty() {
                None
            } else {
                let t = CompareType::from_name(&p.comparison_type)
                    .ok_or_else(|| format!("unknown comparison type '{}'", p.comparison_type))?;
                // XLA prints the type only when it is not the element type's default.
                (operand0.map(default_compare_type) != Some(t)).then_some(t)
            };
            Attrs::Compare { direction, compare_type }
        }
        AttrsKind::Slice => Attrs::Slice(
            p.slice_dimensions.iter().map(|s| SliceDim { start: s.start, limit: s.limit, stride: s.stride }).collect(),
        ),
        AttrsKind::DynamicSlice => Attrs::DynamicSlice { sizes: Dims::from_slice(&p.dynamic_slice_sizes) },
        AttrsKind::Pad => {
            let c = p.padding_config.as_ref().ok_or_else(|| missing("padding config"))?;
            Attrs::Pad(
                c.dimensions
                    .iter()
                    .map(|d| PadDim {
                        low: d.edge_padding_low,
                        high: d.edge_padding_high,
                        interior: d.interior_padding,
                    })
                    .collect(),
            )
        }
        AttrsKind::Dot => {
            let d = p.dot_dimension_numbers.clone().unwrap_or_default();
            push_precision(p, extras);
            Attrs::Dot(DotDims {
                lhs_batch: Dims::from_slice(&d.lhs_batch_dimensions),
                rhs_batch: Dims::from_slice(&d.rhs_batch_dimensions),
                lhs_contracting: Dims::from_slice(&d.lhs_contracting_dimensions),
                rhs_contracting: Dims::from_slice(&d.rhs_contracting_dimensions),
            })
        }
        AttrsKind::Convolution => {
            let d = p.convolution_dimension_numbers.as_ref().ok_or_else(|| missing("convolution dimension numbers"))?;
            push_precision(p, extras);
            let dims = ConvDims {
                input_batch: d.input_batch_dimension,
                input_feature: d.input_feature_dimension,
                input_spatial: Dims::from_slice(&d.input_spatial_dimensions),
                kernel_input_feature: d.kernel_input_feature_dimension,
                kernel_output_feature: d.kernel_output_feature_dimension,
                kernel_spatial: Dims::from_slice(&d.kernel_spatial_dimensions),
                output_batch: d.output_batch_dimension,
                output_feature: d.output_feature_dimension,
                output_spatial: Dims::from_slice(&d.output_spatial_dimensions),
            };
            let n = dims.input_spatial.len();
            if dims.kernel_spatial.len() != n || dims.output_spatial.len() != n {
                return Err("convolution dimension numbers have different spatial ranks".into());
            }
            let group = |g: i64| if g == 0 { 1 } else { g };
            Attrs::Convolution(Box::new(ConvAttrs {
                window: window(p.window.as_ref()),
                dims,
                feature_group_count: group(p.feature_group_count),
                batch_group_count: group(p.batch_group_count),
            }))
        }
        AttrsKind::Gather => {
            let g = p.gather_dimension_numbers.as_ref().ok_or_else(|| missing("gather dimension numbers"))?;
            Attrs::Gather(Box::new(GatherAttrs {
                offset_dims: Dims::from_slice(&g.offset_dims),
                collapsed_slice_dims: Dims::from_slice(&g.collapsed_slice_dims),
                start_index_map: Dims::from_slice(&g.start_index_map),
                operand_batching_dims: Dims::from_slice(&g.operand_batching_dims),
                start_indices_batching_dims: Dims::from_slice(&g.start_indices_batching_dims),
                index_vector_dim: g.index_vector_dim,
                slice_sizes: Dims::from_slice(&p.gather_slice_sizes),
                indices_are_sorted: p.indices_are_sorted,
            }))
        }
        AttrsKind::Scatter => {
            let s = p.scatter_dimension_numbers.as_ref().ok_or_else(|| missing("scatter dimension numbers"))?;
            Attrs::Scatter(Box::new(ScatterAttrs {
                update_window_dims: Dims::from_slice(&s.update_window_dims),
                inserted_window_dims: Dims::from_slice(&s.inserted_window_dims),
                scatter_dims_to_operand_dims: Dims::from_slice(&s.scatter_dims_to_operand_dims),
                input_batching_dims: Dims::from_slice(&s.input_batching_dims),
                scatter_indices_batching_dims: Dims::from_slice(&s.scatter_indices_batching_dims),
                index_vector_dim: s.index_vector_dim,
                indices_are_sorted: p.indices_are_sorted,
                unique_indices: p.unique_indices,
            }))
        }
        AttrsKind::Window => Attrs::Window(window(p.window.as_ref())),
        AttrsKind::Sort => Attrs::Sort { dimension: one_dimension(&p.dimensions, "sort")?, is_stable: p.is_stable },
        AttrsKind::GetTupleElement => Attrs::GetTupleElement { index: p.tuple_index },
        AttrsKind::Fusion => {
            let kind = FusionKind::from_name(&p.fusion_kind)
                .ok_or_else(|| format!("unknown fusion kind '{}'", p.fusion_kind))?;
            if let Some(t) = text::aliasing_text(&p.output_operand_aliasing) {
                extras.unknown.push(("output_to_operand_aliasing".into(), t));
            }
            Attrs::Fusion { kind }
        }
        AttrsKind::CustomCall => Attrs::CustomCall(Box::new(custom_call(p)?)),
        AttrsKind::RngBitGenerator => {
            use xla::RandomAlgorithm as R;
            let algorithm = match R::try_from(p.rng_algorithm) {
                Ok(R::RngDefault) => RngAlgorithm::Default,
                Ok(R::RngThreeFry) => RngAlgorithm::ThreeFry,
                Ok(R::RngPhilox) => RngAlgorithm::Philox,
                Err(_) => return Err(format!("unknown rng algorithm {}", p.rng_algorithm)),
            };
            Attrs::RngBitGenerator { algorithm }
        }
        AttrsKind::Rng => {
            use xla::RandomDistribution as R;
            let distribution = match R::try_from(p.distribution) {
                Ok(R::RngUniform) => RngDistribution::Uniform,
                Ok(R::RngNormal) => RngDistribution::Normal,
                _ => return Err(format!("unknown rng distribution {}", p.distribution)),
            };
            Attrs::Rng { distribution }
        }
        AttrsKind::ReducePrecision => Attrs::ReducePrecision {
            exponent_bits: i64::from(p.exponent_bits),
            mantissa_bits: i64::from(p.mantissa_bits),
        },
        AttrsKind::BatchNorm => Attrs::BatchNorm { epsilon: p.epsilon, feature_index: p.feature_index },
        AttrsKind::TopK => Attrs::TopK { k: p.k, largest: p.largest },
        AttrsKind::Fft => {
            use xla::FftType as F;
            let kind = match F::try_from(p.fft_type) {
                Ok(F::Fft) => FftKind::Fft,
                Ok(F::Ifft) => FftKind::Ifft,
                Ok(F::Rfft) => FftKind::Rfft,
                Ok(F::Irfft) => FftKind::Irfft,
                Err(_) => return Err(format!("unknown fft type {}", p.fft_type)),
            };
            Attrs::Fft { kind, lengths: Dims::from_slice(&p.fft_length) }
        }
    })
}

/// `operand_precision={...}` of dot and convolution, kept as text.
fn push_precision(p: &xla::HloInstructionProto, extras: &mut Extras) {
    if let Some(t) = p.precision_config.as_ref().and_then(|c| text::precision_text(&c.operand_precision)) {
        extras.unknown.push(("operand_precision".into(), t));
    }
}

/// A custom call's target and, as text in XLA's order, the attributes smelt
/// does not model.
fn custom_call(p: &xla::HloInstructionProto) -> Result<CustomCallAttrs, String> {
    let mut raw = Vec::new();
    if p.constrain_layout {
        let shapes = p
            .operand_shapes_with_layout
            .iter()
            .map(|s| shape(Some(s), 0).map(|s| s.to_string()))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| format!("operand layout constraint: {e}"))?;
        raw.push(("operand_layout_constraints".into(), format!("{{{}}}", shapes.join(", "))));
    }
    if p.custom_call_has_side_effect {
        raw.push(("custom_call_has_side_effect".into(), "true".into()));
    }
    if let Some(t) = text::aliasing_text(&p.output_operand_aliasing) {
        raw.push(("output_to_operand_aliasing".into(), t));
    }
    if p.custom_call_schedule != xla::CustomCallSchedule::ScheduleNone as i32 {
        raw.push(("schedule".into(), text::schedule_name(p.custom_call_schedule)));
    }
    if p.custom_call_api_version != xla::CustomCallApiVersion::ApiVersionOriginal as i32 {
        raw.push(("api_version".into(), text::api_version_name(p.custom_call_api_version)));
    }
    Ok(CustomCallAttrs { target: p.custom_call_target.clone(), raw })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn array_shape(t: xla::PrimitiveType, dims: &[i64]) -> xla::ShapeProto {
        xla::ShapeProto { element_type: t as i32, dimensions: dims.to_vec(), ..Default::default() }
    }

    fn one_instruction_module(inst: xla::HloInstructionProto) -> Vec<u8> {
        let root_id = inst.id;
        xla::HloModuleProto {
            name: "m".into(),
            entry_computation_name: "main".into(),
            entry_computation_id: 1,
            computations: vec![xla::HloComputationProto {
                name: "main".into(),
                instructions: vec![inst],
                id: 1,
                root_id,
                ..Default::default()
            }],
            ..Default::default()
        }
        .encode_to_vec()
    }

    #[test]
    fn a_constant_claiming_2_to_the_60_elements_is_an_error() {
        let shape = array_shape(xla::PrimitiveType::F32, &[1 << 60]);
        let inst = xla::HloInstructionProto {
            name: "c".into(),
            opcode: "constant".into(),
            shape: Some(shape.clone()),
            literal: Some(xla::LiteralProto { shape: Some(shape), f32s: vec![1.0, 2.0], ..Default::default() }),
            id: 7,
            ..Default::default()
        };
        let e = read_proto(&one_instruction_module(inst)).unwrap_err().to_string();
        assert_eq!(
            e,
            "instruction 'c' (constant) in computation 'main': constant has 2 f32 values, its shape needs 1152921504606846976"
        );
        // Dimensions whose product overflows are an error too.
        let shape = array_shape(xla::PrimitiveType::F32, &[1 << 40, 1 << 40]);
        let inst = xla::HloInstructionProto {
            name: "c".into(),
            opcode: "constant".into(),
            shape: Some(shape),
            literal: Some(xla::LiteralProto::default()),
            id: 7,
            ..Default::default()
        };
        let e = read_proto(&one_instruction_module(inst)).unwrap_err().to_string();
        assert!(e.contains("element count overflows"), "{e}");
    }

    #[test]
    fn unsupported_element_types_and_dangling_roots_are_named() {
        let inst = xla::HloInstructionProto {
            name: "t".into(),
            opcode: "parameter".into(),
            shape: Some(array_shape(xla::PrimitiveType::F8e4m3fn, &[2])),
            id: 3,
            ..Default::default()
        };
        let e = read_proto(&one_instruction_module(inst.clone())).unwrap_err().to_string();
        assert_eq!(
            e,
            "instruction 't' (parameter) in computation 'main': element type 'f8e4m3fn' is not supported by smelt"
        );
        let mut m = xla::HloModuleProto::decode(&one_instruction_module(inst)[..]).unwrap();
        m.computations[0].instructions[0].shape = Some(array_shape(xla::PrimitiveType::F32, &[2]));
        m.computations[0].root_id = 99;
        let e = read_proto(&m.encode_to_vec()).unwrap_err().to_string();
        assert_eq!(e, "computation 'main': root id 99 names no instruction");
    }
}
