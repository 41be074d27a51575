//! [`Module`] to proto: number everything, convert each field.

use std::collections::{BTreeMap, HashMap, HashSet};

use prost::Message;
use smelt_hlo::attrs::*;
use smelt_hlo::{ArrayData, CompId, Computation, DType, InstId, Instruction, Literal, Module, Opcode, Shape};

use super::text;
use super::xla;

/// Serializes `module` as an `HloModuleProto`. The module is expected to be
/// well-formed (as [`smelt_hlo::verify`] checks); an operand that names no
/// instruction is written as id -1.
pub fn write_proto(module: &Module) -> Vec<u8> {
    module_proto(module).encode_to_vec()
}

fn module_proto(m: &Module) -> xla::HloModuleProto {
    // Callees before callers, the entry last, as XLA requires.
    let order = m.computation_post_order();
    let comp_ids: HashMap<CompId, i64> = order.iter().enumerate().map(|(i, &c)| (c, i as i64)).collect();
    let fused: HashSet<CompId> = m
        .comps
        .iter()
        .flat_map(|(_, c)| c.insts.iter())
        .filter(|(_, i)| i.opcode == Opcode::Fusion)
        .flat_map(|(_, i)| i.called.iter().copied())
        .collect();
    let mut computations = Vec::with_capacity(order.len());
    let mut sequences = BTreeMap::new();
    for (ci, &cid) in order.iter().enumerate() {
        let c = computation_proto(m.comp(cid), ci as i64, &comp_ids, fused.contains(&cid));
        if !fused.contains(&cid) {
            let instruction_ids = c.instructions.iter().map(|i| i.id).collect();
            sequences.insert(c.id, xla::hlo_schedule_proto::InstructionSequence { instruction_ids });
        }
        computations.push(c);
    }
    let entry = m.entry();
    let host_program_shape = match &m.config.entry_computation_layout {
        Some(l) => xla::ProgramShapeProto {
            parameters: l.params.iter().map(shape_proto).collect(),
            result: Some(shape_proto(&l.result)),
            parameter_names: param_names(entry),
        },
        None => program_shape(entry),
    };
    let c = &m.config;
    let input_output_alias = xla::HloInputOutputAliasProto {
        entries: c
            .input_output_alias
            .iter()
            .map(|a| xla::hlo_input_output_alias_proto::AliasEntryProto {
                output_shape_index: a.output_index.clone(),
                parameter_number: i64::from(a.param),
                parameter_shape_index: a.param_index.clone(),
                kind: match a.kind {
                    smelt_hlo::module::AliasKind::MayAlias => xla::Kind::MayAlias,
                    smelt_hlo::module::AliasKind::MustAlias => xla::Kind::MustAlias,
                } as i32,
            })
            .collect(),
    };
    let buffer_donor = xla::HloBufferDonorProto {
        entries: c
            .buffer_donor
            .iter()
            .map(|d| xla::hlo_buffer_donor_proto::BufferDonorEntryProto {
                parameter_number: i64::from(d.param),
                parameter_shape_index: d.param_index.clone(),
            })
            .collect(),
    };
    let frontend_attributes = c
        .unknown
        .iter()
        .find(|(k, _)| k == "frontend_attributes")
        .map(|(_, v)| xla::FrontendAttributes { map: text::parse_frontend_attributes(v) });
    xla::HloModuleProto {
        name: m.name.clone(),
        entry_computation_name: entry.name.clone(),
        entry_computation_id: comp_ids.get(&m.entry).copied().unwrap_or(-1),
        computations,
        host_program_shape: Some(host_program_shape),
        id: 0,
        schedule: c.is_scheduled.then_some(xla::HloScheduleProto { sequences }),
        input_output_alias: Some(input_output_alias),
        buffer_donor: Some(buffer_donor),
        frontend_attributes,
    }
}

fn param_names(c: &Computation) -> Vec<String> {
    c.params().into_iter().map(|id| c.inst(id).name.clone()).collect()
}

fn program_shape(c: &Computation) -> xla::ProgramShapeProto {
    xla::ProgramShapeProto {
        parameters: c.param_shapes().iter().map(shape_proto).collect(),
        result: c.insts.get(c.root).map(|r| shape_proto(&r.shape)),
        parameter_names: param_names(c),
    }
}

fn computation_proto(
    c: &Computation,
    index: i64,
    comp_ids: &HashMap<CompId, i64>,
    is_fusion: bool,
) -> xla::HloComputationProto {
    let order = c.post_order();
    let ids: HashMap<InstId, i64> = order.iter().enumerate().map(|(i, &id)| (id, index << 32 | i as i64)).collect();
    let instructions = order.iter().map(|&id| instruction_proto(c, id, &ids, comp_ids)).collect();
    xla::HloComputationProto {
        name: c.name.clone(),
        instructions,
        program_shape: Some(program_shape(c)),
        id: index,
        root_id: ids.get(&c.root).copied().unwrap_or(-1),
        is_fusion_computation: is_fusion,
    }
}

fn dtype_proto(d: DType) -> xla::PrimitiveType {
    use xla::PrimitiveType as P;
    match d {
        DType::Pred => P::Pred,
        DType::S8 => P::S8,
        DType::S16 => P::S16,
        DType::S32 => P::S32,
        DType::S64 => P::S64,
        DType::U8 => P::U8,
        DType::U16 => P::U16,
        DType::U32 => P::U32,
        DType::U64 => P::U64,
        DType::F16 => P::F16,
        DType::Bf16 => P::Bf16,
        DType::F32 => P::F32,
        DType::F64 => P::F64,
        DType::C64 => P::C64,
        DType::C128 => P::C128,
    }
}

fn shape_proto(s: &Shape) -> xla::ShapeProto {
    match s {
        Shape::Tuple(elems) => xla::ShapeProto {
            element_type: xla::PrimitiveType::Tuple as i32,
            tuple_shapes: elems.iter().map(shape_proto).collect(),
            ..Default::default()
        },
        Shape::Array(a) => {
            let mut layout =
                xla::LayoutProto { minor_to_major: a.layout.minor_to_major.to_vec(), ..Default::default() };
            if let Some(extra) = &a.layout.extra {
                layout_extra(extra, &mut layout);
            }
            xla::ShapeProto {
                element_type: dtype_proto(a.dtype) as i32,
                dimensions: a.dims.to_vec(),
                tuple_shapes: Vec::new(),
                layout: Some(layout),
                is_dynamic_dimension: vec![false; a.rank()],
            }
        }
    }
}

/// Reads back the layout details the reader renders (`T(8,128)(2,1)E(4)S(1)`);
/// others have no field here and are dropped.
fn layout_extra(extra: &str, l: &mut xla::LayoutProto) {
    let ints = |s: &str| -> Vec<i64> { s.split(',').filter_map(|x| x.trim().parse().ok()).collect() };
    let mut rest = extra;
    while let Some(c) = rest.chars().next() {
        let after = &rest[c.len_utf8()..];
        match c {
            'T' | '(' if after.starts_with('(') || c == '(' => {
                let body = if c == 'T' { &after[1..] } else { after };
                let Some((inside, next)) = body.split_once(')') else { return };
                l.tiles.push(xla::TileProto { dimensions: ints(inside) });
                rest = next;
            }
            'E' | 'S' if after.starts_with('(') => {
                let Some((inside, next)) = after[1..].split_once(')') else { return };
                let v = inside.trim().parse().unwrap_or(0);
                if c == 'E' {
                    l.element_size_in_bits = v;
                } else {
                    l.memory_space = v;
                }
                rest = next;
            }
            _ => rest = after,
        }
    }
}

fn literal_proto(lit: &Literal, shape: &Shape) -> xla::LiteralProto {
    let mut p = xla::LiteralProto { shape: Some(shape_proto(shape)), ..Default::default() };
    match lit {
        Literal::Tuple(elems) => {
            let shapes = shape.tuple_elements();
            p.tuple_literals =
                elems.iter().enumerate().map(|(i, e)| literal_proto(e, shapes.get(i).unwrap_or(&e.shape()))).collect();
        }
        Literal::Array(a) => {
            let complex = shape.as_array().is_some_and(|s| s.dtype.is_complex());
            let le = |d: &ArrayData| d.to_le_bytes();
            match &a.data {
                ArrayData::Pred(v) => p.preds = v.clone(),
                ArrayData::S8(_) => p.s8s = le(&a.data),
                ArrayData::U8(v) => p.u8s = v.clone(),
                ArrayData::S16(_) => p.s16s = le(&a.data),
                ArrayData::U16(_) => p.u16s = le(&a.data),
                ArrayData::F16(_) => p.f16s = le(&a.data),
                ArrayData::Bf16(_) => p.bf16s = le(&a.data),
                ArrayData::S32(v) => p.s32s = v.clone(),
                ArrayData::S64(v) => p.s64s = v.clone(),
                ArrayData::U32(v) => p.u32s = v.clone(),
                ArrayData::U64(v) => p.u64s = v.clone(),
                ArrayData::F32(v) if complex => p.c64s = v.clone(),
                ArrayData::F32(v) => p.f32s = v.clone(),
                ArrayData::F64(v) if complex => p.c128s = v.clone(),
                ArrayData::F64(v) => p.f64s = v.clone(),
            }
        }
    }
    p
}

fn window_proto(w: &Window) -> xla::Window {
    xla::Window {
        dimensions: w
            .dims
            .iter()
            .map(|d| xla::WindowDimension {
                size: d.size,
                stride: d.stride,
                padding_low: d.pad_low,
                padding_high: d.pad_high,
                window_dilation: d.window_dilation,
                base_dilation: d.base_dilation,
                window_reversal: d.reversal,
            })
            .collect(),
    }
}

fn instruction_proto(
    c: &Computation,
    id: InstId,
    ids: &HashMap<InstId, i64>,
    comp_ids: &HashMap<CompId, i64>,
) -> xla::HloInstructionProto {
    let inst = c.inst(id);
    let id_of = |id: &InstId| ids.get(id).copied().unwrap_or(-1);
    let mut called: Vec<i64> = inst.called.iter().map(|c| comp_ids.get(c).copied().unwrap_or(-1)).collect();
    // XLA keeps a while's body before its condition.
    if inst.opcode == Opcode::While && called.len() == 2 {
        called.swap(0, 1);
    }
    let e = &inst.extras;
    let mut p = xla::HloInstructionProto {
        name: inst.name.clone(),
        opcode: inst.opcode.name().to_string(),
        shape: Some(shape_proto(&inst.shape)),
        id: id_of(&id),
        operand_ids: inst.operands.iter().map(id_of).collect(),
        control_predecessor_ids: e.control_predecessors.iter().map(id_of).collect(),
        called_computation_ids: called,
        metadata: e.metadata.as_deref().map(text::parse_metadata),
        backend_config: e.backend_config.as_deref().map(text::parse_backend_config).unwrap_or_default(),
        frontend_attributes: e
            .frontend_attributes
            .as_deref()
            .map(|f| xla::FrontendAttributes { map: text::parse_frontend_attributes(f) }),
        sharding: e.sharding.as_deref().and_then(text::parse_sharding),
        ..Default::default()
    };
    for (name, value) in &e.unknown {
        match name.as_str() {
            "operand_precision" => {
                p.precision_config = Some(xla::PrecisionConfig { operand_precision: text::parse_precision(value) })
            }
            "output_to_operand_aliasing" => p.output_operand_aliasing = text::parse_aliasing(value),
            _ => {}
        }
    }
    let operand0 = inst.operands.first().and_then(|&id| c.insts.get(id)).and_then(|i| i.shape.as_array());
    op_attrs(&mut p, inst, operand0.map(|a| a.dtype));
    p
}

fn op_attrs(p: &mut xla::HloInstructionProto, inst: &Instruction, operand0: Option<DType>) {
    match &inst.attrs {
        Attrs::None => {}
        Attrs::Parameter(n) => p.parameter_number = i64::from(*n),
        Attrs::Constant(lit) => p.literal = Some(literal_proto(lit, &inst.shape)),
        Attrs::Iota { dimension } => p.dimensions = vec![*dimension],
        Attrs::Dimensions(d) => p.dimensions = d.to_vec(),
        Attrs::Concatenate { dimension } => p.dimensions = vec![*dimension],
        Attrs::Compare { direction, compare_type } => {
            p.comparison_direction = direction.name().to_string();
            let default = operand0.map(|d| {
                if d.is_float() || d.is_complex() {
                    CompareType::Float
                } else if d.is_signed_int() {
                    CompareType::Signed
                } else {
                    CompareType::Unsigned
                }
            });
            p.comparison_type = compare_type.or(default).map(|t| t.name().to_string()).unwrap_or_default();
        }
        Attrs::Slice(s) => {
            p.slice_dimensions = s
                .iter()
                .map(|s| xla::hlo_instruction_proto::SliceDimensions {
                    start: s.start,
                    limit: s.limit,
                    stride: s.stride,
                })
                .collect()
        }
        Attrs::DynamicSlice { sizes } => p.dynamic_slice_sizes = sizes.to_vec(),
        Attrs::Pad(pads) => {
            p.padding_config = Some(xla::PaddingConfig {
                dimensions: pads
                    .iter()
                    .map(|d| xla::padding_config::PaddingConfigDimension {
                        edge_padding_low: d.low,
                        edge_padding_high: d.high,
                        interior_padding: d.interior,
                    })
                    .collect(),
            })
        }
        Attrs::Dot(d) => {
            p.dot_dimension_numbers = Some(xla::DotDimensionNumbers {
                lhs_contracting_dimensions: d.lhs_contracting.to_vec(),
                rhs_contracting_dimensions: d.rhs_contracting.to_vec(),
                lhs_batch_dimensions: d.lhs_batch.to_vec(),
                rhs_batch_dimensions: d.rhs_batch.to_vec(),
            })
        }
        Attrs::Convolution(c) => {
            let d = &c.dims;
            p.window = Some(window_proto(&c.window));
            p.convolution_dimension_numbers = Some(xla::ConvolutionDimensionNumbers {
                kernel_input_feature_dimension: d.kernel_input_feature,
                kernel_output_feature_dimension: d.kernel_output_feature,
                kernel_spatial_dimensions: d.kernel_spatial.to_vec(),
                input_batch_dimension: d.input_batch,
                input_feature_dimension: d.input_feature,
                output_batch_dimension: d.output_batch,
                output_feature_dimension: d.output_feature,
                input_spatial_dimensions: d.input_spatial.to_vec(),
                output_spatial_dimensions: d.output_spatial.to_vec(),
            });
            p.feature_group_count = c.feature_group_count;
            p.batch_group_count = c.batch_group_count;
        }
        Attrs::Gather(g) => {
            p.gather_dimension_numbers = Some(xla::GatherDimensionNumbers {
                offset_dims: g.offset_dims.to_vec(),
                collapsed_slice_dims: g.collapsed_slice_dims.to_vec(),
                start_index_map: g.start_index_map.to_vec(),
                index_vector_dim: g.index_vector_dim,
                operand_batching_dims: g.operand_batching_dims.to_vec(),
                start_indices_batching_dims: g.start_indices_batching_dims.to_vec(),
            });
            p.gather_slice_sizes = g.slice_sizes.to_vec();
            p.indices_are_sorted = g.indices_are_sorted;
        }
        Attrs::Scatter(s) => {
            p.scatter_dimension_numbers = Some(xla::ScatterDimensionNumbers {
                update_window_dims: s.update_window_dims.to_vec(),
                inserted_window_dims: s.inserted_window_dims.to_vec(),
                scatter_dims_to_operand_dims: s.scatter_dims_to_operand_dims.to_vec(),
                index_vector_dim: s.index_vector_dim,
                input_batching_dims: s.input_batching_dims.to_vec(),
                scatter_indices_batching_dims: s.scatter_indices_batching_dims.to_vec(),
            });
            p.indices_are_sorted = s.indices_are_sorted;
            p.unique_indices = s.unique_indices;
        }
        Attrs::Window(w) => p.window = Some(window_proto(w)),
        Attrs::Sort { dimension, is_stable } => {
            p.dimensions = vec![*dimension];
            p.is_stable = *is_stable;
        }
        Attrs::GetTupleElement { index } => p.tuple_index = *index,
        Attrs::Fusion { kind } => p.fusion_kind = kind.name().to_string(),
        Attrs::CustomCall(cc) => custom_call_proto(p, cc),
        Attrs::RngBitGenerator { algorithm } => {
            p.rng_algorithm = match algorithm {
                RngAlgorithm::Default => xla::RandomAlgorithm::RngDefault,
                RngAlgorithm::ThreeFry => xla::RandomAlgorithm::RngThreeFry,
                RngAlgorithm::Philox => xla::RandomAlgorithm::RngPhilox,
            } as i32
        }
        Attrs::Rng { distribution } => {
            p.distribution = match distribution {
                RngDistribution::Uniform => xla::RandomDistribution::RngUniform,
                RngDistribution::Normal => xla::RandomDistribution::RngNormal,
            } as i32
        }
        Attrs::ReducePrecision { exponent_bits, mantissa_bits } => {
            p.exponent_bits = i32::try_from(*exponent_bits).unwrap_or(i32::MAX);
            p.mantissa_bits = i32::try_from(*mantissa_bits).unwrap_or(i32::MAX);
        }
        Attrs::BatchNorm { epsilon, feature_index } => {
            p.epsilon = *epsilon;
            p.feature_index = *feature_index;
        }
        Attrs::TopK { k, largest } => {
            p.k = *k;
            p.largest = *largest;
        }
        Attrs::Fft { kind, lengths } => {
            p.fft_type = match kind {
                FftKind::Fft => xla::FftType::Fft,
                FftKind::Ifft => xla::FftType::Ifft,
                FftKind::Rfft => xla::FftType::Rfft,
                FftKind::Irfft => xla::FftType::Irfft,
            } as i32;
            p.fft_length = lengths.to_vec();
        }
    }
}

fn custom_call_proto(p: &mut xla::HloInstructionProto, cc: &CustomCallAttrs) {
    p.custom_call_target = cc.target.clone();
    // Text without `api_version=` means the original API.
    p.custom_call_api_version = xla::CustomCallApiVersion::ApiVersionOriginal as i32;
    for (name, value) in &cc.raw {
        match name.as_str() {
            "operand_layout_constraints" => {
                p.constrain_layout = true;
                p.operand_shapes_with_layout = text::split_braced_list(value)
                    .into_iter()
                    .filter_map(|s| smelt_hlo::text::parse_shape(s).ok())
                    .map(|s| shape_proto(&s))
                    .collect();
            }
            "custom_call_has_side_effect" => p.custom_call_has_side_effect = value.trim() == "true",
            "output_to_operand_aliasing" => p.output_operand_aliasing = text::parse_aliasing(value),
            "schedule" => {
                p.custom_call_schedule = xla::CustomCallSchedule::from_str_name(value.trim()).map_or(0, |s| s as i32)
            }
            "api_version" => {
                p.custom_call_api_version =
                    xla::CustomCallApiVersion::from_str_name(value.trim()).map_or(0, |v| v as i32)
            }
            _ => {}
        }
    }
}
