//! Import tests on models built in code (the case folders are in `tests/it/onnx.rs`).

use super::proto::*;
use super::*;

fn vi(name: &str, elem_type: i32, dims: &[Result<i64, &str>]) -> ValueInfoProto {
    use tensor_shape_proto::{Dimension, dimension::Value as D};
    let dim = dims
        .iter()
        .map(|d| Dimension {
            value: Some(match d {
                Ok(v) => D::DimValue(*v),
                Err(p) => D::DimParam(p.to_string()),
            }),
            ..Dimension::default()
        })
        .collect();
    ValueInfoProto {
        name: name.into(),
        r#type: Some(TypeProto {
            value: Some(type_proto::Value::TensorType(type_proto::Tensor {
                elem_type,
                shape: Some(TensorShapeProto { dim }),
            })),
            ..TypeProto::default()
        }),
        ..ValueInfoProto::default()
    }
}

fn node(op: &str, name: &str, inputs: &[&str], outputs: &[&str], attribute: Vec<AttributeProto>) -> NodeProto {
    NodeProto {
        op_type: op.into(),
        name: name.into(),
        input: inputs.iter().map(|s| s.to_string()).collect(),
        output: outputs.iter().map(|s| s.to_string()).collect(),
        attribute,
        ..NodeProto::default()
    }
}

fn attr_int(name: &str, i: i64) -> AttributeProto {
    AttributeProto { name: name.into(), r#type: AttributeType::Int as i32, i, ..AttributeProto::default() }
}

fn model(opset: i64, graph: GraphProto) -> ModelProto {
    ModelProto {
        ir_version: 8,
        opset_import: vec![OperatorSetIdProto { domain: String::new(), version: opset }],
        graph: Some(graph),
        ..ModelProto::default()
    }
}

/// x[N,3] -> Constant c, initializer w -> `Add(x, w)`, `Mul(., c)` -> y.
fn small_graph() -> GraphProto {
    let w = tensor::encode("w", &Array::from_vec([3], vec![1.0f32, 2.0, 3.0]));
    let c = AttributeProto {
        name: "value_float".into(),
        r#type: AttributeType::Float as i32,
        f: 2.0,
        ..AttributeProto::default()
    };
    GraphProto {
        node: vec![
            node("Constant", "/Constant", &[], &["/Constant_output_0"], vec![c]),
            node("Add", "", &["x", "w"], &["/Add_output_0"], vec![]),
            node("Mul", "/layer.0/Mul", &["/Add_output_0", "/Constant_output_0"], &["y"], vec![]),
        ],
        initializer: vec![w],
        input: vec![vi("x", 1, &[Err("N"), Ok(3)])],
        output: vec![vi("y", 1, &[Err("N"), Ok(3)])],
        ..GraphProto::default()
    }
}

#[test]
fn imports_leaves_nodes_and_outputs() {
    let graph = from_bytes(&model(17, small_graph()).encode_to_vec()).unwrap();
    assert_eq!(graph.inputs, ["x"]);
    assert_eq!(graph.outputs, ["y"]);
    let x = graph.node(graph.find("x").unwrap());
    assert!(
        matches!(&x.kind, NodeKind::Placeholder { dtype: DType::F32, dims } if *dims == [Dim::Symbolic("N".into()), Dim::Fixed(3)])
    );
    let c = graph.node(graph.tensor("/Constant_output_0").unwrap().node);
    assert_eq!(c.name, "/Constant");
    assert!(matches!(&c.kind, NodeKind::Constant(a) if *a == Array::scalar(2.0f32)));
    // The unnamed node is named after its op type.
    let add = graph.node(graph.find("Add").unwrap());
    assert_eq!(add.outputs, ["/Add_output_0"]);
    assert_eq!(add.inputs, [graph.tensor("x"), graph.tensor("w")]);
    assert_eq!(graph.node(graph.find("/layer.0/Mul").unwrap()).op, "Mul");
}

#[test]
fn declared_inputs_and_outputs() {
    let mut g = small_graph();
    // IR < 4 style: the initializer listed among the inputs is not an input.
    g.input.push(vi("w", 1, &[Ok(3)]));
    let mut y = vi("y", 1, &[Err("N"), Ok(3)]);
    if let Some(type_proto::Value::TensorType(t)) = y.r#type.as_mut().and_then(|t| t.value.as_mut()) {
        t.shape.as_mut().unwrap().dim[0].value = None; // neither a value nor a name
    }
    g.output = vec![y];
    let (inputs, outputs) = declared_io(&model(17, g)).unwrap();
    assert_eq!(
        inputs,
        [Declared {
            name: "x".into(),
            dtype: Some(DType::F32),
            dims: Some(vec![Some(Dim::Symbolic("N".into())), Some(Dim::Fixed(3))])
        }]
    );
    assert_eq!(outputs[0].dims, Some(vec![None, Some(Dim::Fixed(3))]));
    // An input of no tensor type names itself.
    let mut g = small_graph();
    g.input[0].r#type = None;
    let e = declared_io(&model(17, g)).unwrap_err().to_string();
    assert_eq!(e, "graph input 'x': is not a tensor (sequences, maps and optionals are not supported)");
}

#[test]
fn duplicate_and_empty_names_are_made_unique_and_attrs_convert() {
    let attrs = vec![
        attr_int("i", -3),
        AttributeProto { name: "f".into(), r#type: AttributeType::Float as i32, f: 0.5, ..Default::default() },
        AttributeProto {
            name: "is".into(),
            r#type: AttributeType::Ints as i32,
            ints: vec![1, -1],
            ..Default::default()
        },
        AttributeProto {
            name: "fs".into(),
            r#type: AttributeType::Floats as i32,
            floats: vec![1.5],
            ..Default::default()
        },
        AttributeProto {
            name: "s".into(),
            r#type: AttributeType::String as i32,
            s: b"NOTSET".to_vec(),
            ..Default::default()
        },
        AttributeProto {
            name: "ss".into(),
            r#type: AttributeType::Strings as i32,
            strings: vec![b"a".to_vec(), b"b".to_vec()],
            ..Default::default()
        },
        AttributeProto {
            name: "t".into(),
            r#type: AttributeType::Tensor as i32,
            t: Some(tensor::encode("", &Array::from_vec([2], vec![7i64, 8]))),
            ..Default::default()
        },
    ];
    let g = GraphProto {
        node: vec![
            node("Relu", "r", &["x"], &["a"], attrs),
            node("Relu", "r", &["a"], &["b"], vec![]),
            node("Relu", "", &["b"], &["c"], vec![]),
            node("Relu", "", &["c"], &["x_out"], vec![]),
        ],
        input: vec![vi("x", 1, &[Ok(2)])],
        output: vec![vi("x_out", 1, &[Ok(2)])],
        ..GraphProto::default()
    };
    let graph = import(&model(13, g)).unwrap();
    let names: Vec<&str> = graph.nodes.iter().map(|n| n.name.as_str()).collect();
    assert_eq!(names, ["x", "r", "r_1", "Relu", "Relu_1"]);
    let r = graph.node(graph.find("r").unwrap());
    assert_eq!(r.int("i"), Some(-3));
    assert_eq!(r.float("f"), Some(0.5));
    assert_eq!(r.ints("is"), Some(&[1, -1][..]));
    assert_eq!(r.floats("fs"), Some(&[1.5][..]));
    assert_eq!(r.string("s"), Some("NOTSET"));
    assert_eq!(r.strings("ss"), Some(&["a".to_string(), "b".to_string()][..]));
    assert_eq!(r.tensor("t"), Some(&Array::from_vec([2], vec![7i64, 8])));
}

#[test]
fn empty_input_and_output_names() {
    let g = GraphProto {
        node: vec![
            node("Clip", "clip", &["x", "", "hi"], &["y"], vec![]),
            node("TopK", "top", &["y", "k"], &["z", ""], vec![]),
        ],
        initializer: vec![
            tensor::encode("hi", &Array::scalar(1.0f32)),
            tensor::encode("k", &Array::from_vec([1], vec![1i64])),
        ],
        input: vec![vi("x", 1, &[Ok(2)])],
        output: vec![vi("z", 1, &[Ok(2)])],
        ..GraphProto::default()
    };
    let graph = import(&model(17, g)).unwrap();
    let clip = graph.node(graph.find("clip").unwrap());
    assert_eq!(clip.inputs, [graph.tensor("x"), None, graph.tensor("hi")]);
    assert_eq!(graph.node(graph.find("top").unwrap()).outputs, ["z", ""]);
}

#[test]
fn constant_node_forms() {
    let cases = [
        (
            AttributeProto { name: "value_int".into(), r#type: AttributeType::Int as i32, i: 4, ..Default::default() },
            Array::scalar(4i64),
        ),
        (
            AttributeProto {
                name: "value_ints".into(),
                r#type: AttributeType::Ints as i32,
                ints: vec![0, -1],
                ..Default::default()
            },
            Array::from_vec([2], vec![0i64, -1]),
        ),
        (
            AttributeProto {
                name: "value_floats".into(),
                r#type: AttributeType::Floats as i32,
                floats: vec![0.5],
                ..Default::default()
            },
            Array::from_vec([1], vec![0.5f32]),
        ),
        (
            AttributeProto {
                name: "value".into(),
                r#type: AttributeType::Tensor as i32,
                t: Some(tensor::encode("", &Array::from_vec([1, 1], vec![true]))),
                ..Default::default()
            },
            Array::from_vec([1, 1], vec![true]),
        ),
    ];
    for (a, want) in cases {
        let g = GraphProto {
            node: vec![node("Constant", "", &[], &["c"], vec![a])],
            output: vec![vi("c", 7, &[])],
            ..GraphProto::default()
        };
        let graph = import(&model(21, g)).unwrap();
        let c = graph.node(graph.tensor("c").unwrap().node);
        assert_eq!(c.name, "Constant");
        assert!(matches!(&c.kind, NodeKind::Constant(a) if *a == want), "{:?}", c.kind);
    }
}

fn import_error(m: ModelProto) -> String {
    from_bytes(&m.encode_to_vec()).unwrap_err().to_string()
}

#[test]
fn errors_name_the_place() {
    assert_eq!(
        import_error(model(12, small_graph())),
        "opset: default-domain opset 12 is not supported (smelt supports 13 to 21)"
    );
    assert_eq!(
        import_error(model(22, small_graph())),
        "opset: default-domain opset 22 is not supported (smelt supports 13 to 21)"
    );
    let mut m = model(17, small_graph());
    m.opset_import[0].domain = "com.microsoft".into();
    assert_eq!(import_error(m), "opset: the model imports no default-domain (ai.onnx) opset");

    let mut g = small_graph();
    g.node.insert(1, node("FancyOp", "/blocks.0/Fancy", &["x"], &["f"], vec![]));
    assert_eq!(import_error(model(17, g)), "node '/blocks.0/Fancy': op type 'FancyOp' is not supported");
    let mut g = small_graph();
    g.node.insert(1, node("FancyOp", "", &["x"], &["f"], vec![]));
    assert_eq!(import_error(model(17, g)), "node 'FancyOp': op type 'FancyOp' is not supported (node #1 of the graph)");

    let mut g = small_graph();
    g.node[1].domain = "com.microsoft".into();
    let e = import_error(model(17, g));
    assert_eq!(e, "node 'Add' (Add): domain 'com.microsoft' is not supported (only the default ONNX domain is)");

    let mut g = small_graph();
    g.initializer[0].raw_data.pop();
    assert_eq!(import_error(model(17, g)), "initializer 'w': raw_data holds 11 bytes, 3 elements of f32 need 12");

    let mut g = small_graph();
    g.node[0].attribute[0] =
        AttributeProto { name: "value_string".into(), r#type: AttributeType::String as i32, ..Default::default() };
    assert_eq!(
        import_error(model(17, g)),
        "node '/Constant' (Constant): attribute 'value_string' is not supported for Constant (string and sparse values)"
    );

    let mut g = small_graph();
    g.output[0].name = "nope".into();
    assert_eq!(import_error(model(17, g)), "graph output 'nope': no node, input or initializer produces it");

    let mut g = small_graph();
    g.input[0] = vi("x", 8, &[Ok(1)]);
    assert_eq!(import_error(model(17, g)), "graph input 'x': element type STRING is not supported");

    let mut g = small_graph();
    g.node[0].attribute.push(attr_int("value_int", 1));
    assert_eq!(
        import_error(model(17, g)),
        "node '/Constant' (Constant): a Constant takes exactly one value attribute, it has 2"
    );

    let mut g = small_graph();
    g.node[0].attribute[0].r#type = AttributeType::Graph as i32;
    assert_eq!(
        import_error(model(17, g)),
        "node '/Constant' (Constant): attribute 'value_float': GRAPH attributes are not supported"
    );
}

#[test]
fn truncated_and_garbage_bytes_are_errors() {
    let bytes = model(17, small_graph()).encode_to_vec();
    for len in [1, bytes.len() / 3, bytes.len() / 2, bytes.len() - 1] {
        let e = from_bytes(&bytes[..len]).unwrap_err();
        assert!(matches!(e, OnnxError::Decode(_) | OnnxError::NoGraph | OnnxError::Opset(_)), "{len}: {e}");
    }
    assert!(matches!(from_bytes(b"\xff\xff\xff\xff not protobuf"), Err(OnnxError::Decode(_))));
    assert!(matches!(from_bytes(b""), Err(OnnxError::Opset(_))));
}
