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
        import_error(model(5, small_graph())),
        "opset: default-domain opset 5 is not supported (smelt supports 6 to 21)"
    );
    assert_eq!(
        import_error(model(22, small_graph())),
        "opset: default-domain opset 22 is not supported (smelt supports 6 to 21)"
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
    assert_eq!(e, "node '#1' (Add): domain 'com.microsoft' is not supported (only the default ONNX domain is)");

    let mut g = small_graph();
    let short = g.initializer[0].raw_data.len() - 1;
    g.initializer[0].raw_data.truncate(short);
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

/// Runs a one-node model of `opset` on the interpreter: `x` fed, every output fetched.
fn run_node(opset: i64, n: NodeProto, x: &Array, initializers: Vec<TensorProto>) -> Vec<Array> {
    let outputs: Vec<String> = n.output.clone();
    run_nodes(opset, vec![n], &outputs, x, initializers)
}

/// Runs a model of `nodes` on the interpreter: `x` fed, `outputs` fetched.
fn run_nodes(
    opset: i64,
    nodes: Vec<NodeProto>,
    outputs: &[String],
    x: &Array,
    initializers: Vec<TensorProto>,
) -> Vec<Array> {
    use crate::graph::{Session, SessionOptions};
    let outputs: Vec<ValueInfoProto> = outputs.iter().map(|o| vi(o, 1, &[])).collect();
    let g = GraphProto {
        node: nodes,
        initializer: initializers,
        input: vec![vi("x", 1, &x.dims.iter().map(|&d| Ok(d)).collect::<Vec<_>>())],
        output: outputs,
        ..GraphProto::default()
    };
    let graph = from_bytes(&model(opset, g).encode_to_vec()).unwrap_or_else(|e| panic!("{e}"));
    let fetches = graph.outputs.clone();
    let options = SessionOptions { backend: crate::INTERP.to_string(), ..SessionOptions::default() };
    let session = Session::new(graph, options).unwrap();
    let fetches: Vec<&str> = fetches.iter().map(String::as_str).collect();
    session.run(&[("x", x.clone())], &fetches).unwrap_or_else(|e| panic!("{e}"))
}

fn attr_ints(name: &str, ints: &[i64]) -> AttributeProto {
    AttributeProto {
        name: name.into(),
        r#type: AttributeType::Ints as i32,
        ints: ints.to_vec(),
        ..AttributeProto::default()
    }
}

fn attr_float(name: &str, f: f32) -> AttributeProto {
    AttributeProto { name: name.into(), r#type: AttributeType::Float as i32, f, ..AttributeProto::default() }
}

fn i64s(name: &str, v: &[i64]) -> TensorProto {
    tensor::encode(name, &Array::from_vec([v.len() as i64], v.to_vec()))
}

fn f32s(a: &Array) -> Vec<f32> {
    a.values::<f32>().unwrap().to_vec()
}

/// Every attribute-to-input change of `upgrade::CHANGES`: the old form at an
/// old opset computes what the new form computes at opset 13.
#[test]
fn old_signatures_compute_what_opset_13_computes() {
    let x = Array::from_vec([2, 3, 4], (0..24).map(|i| i as f32 - 11.5).collect::<Vec<_>>());
    let same = |old: (i64, NodeProto, Vec<TensorProto>), new: (NodeProto, Vec<TensorProto>)| {
        let want = run_node(13, new.0, &x, new.1);
        let got = run_node(old.0, old.1, &x, old.2);
        assert_eq!(got, want);
    };
    let axes = || i64s("axes", &[1]);
    same(
        (11, node("Unsqueeze", "u", &["x"], &["y"], vec![attr_ints("axes", &[1])]), vec![]),
        (node("Unsqueeze", "u", &["x", "axes"], &["y"], vec![]), vec![axes()]),
    );
    same(
        (12, node("ReduceSum", "r", &["x"], &["y"], vec![attr_ints("axes", &[1])]), vec![]),
        (node("ReduceSum", "r", &["x", "axes"], &["y"], vec![]), vec![axes()]),
    );
    same(
        (12, node("Split", "s", &["x"], &["a", "b"], vec![attr_int("axis", 2), attr_ints("split", &[1, 3])]), vec![]),
        (node("Split", "s", &["x", "split"], &["a", "b"], vec![attr_int("axis", 2)]), vec![i64s("split", &[1, 3])]),
    );
    let slice = vec![attr_ints("starts", &[1]), attr_ints("ends", &[3]), attr_ints("axes", &[2])];
    same(
        (9, node("Slice", "s", &["x"], &["y"], slice), vec![]),
        (
            node("Slice", "s", &["x", "st", "en", "ax"], &["y"], vec![]),
            vec![i64s("st", &[1]), i64s("en", &[3]), i64s("ax", &[2])],
        ),
    );
    same(
        (9, node("TopK", "t", &["x"], &["v", "i"], vec![attr_int("k", 2)]), vec![]),
        (node("TopK", "t", &["x", "k"], &["v", "i"], vec![]), vec![i64s("k", &[2])]),
    );
    let scalar = |name: &str, v: f32| tensor::encode(name, &Array::scalar(v));
    same(
        (6, node("Clip", "c", &["x"], &["y"], vec![attr_float("min", -2.0), attr_float("max", 3.5)]), vec![]),
        (node("Clip", "c", &["x", "lo", "hi"], &["y"], vec![]), vec![scalar("lo", -2.0), scalar("hi", 3.5)]),
    );
    let pads = [0, 1, 0, 0, 0, 2];
    same(
        (6, node("Pad", "p", &["x"], &["y"], vec![attr_ints("pads", &pads), attr_float("value", 7.0)]), vec![]),
        (node("Pad", "p", &["x", "pads", "v"], &["y"], vec![]), vec![i64s("pads", &pads), scalar("v", 7.0)]),
    );
}

/// Before opset 13, Softmax normalizes over everything from `axis` on.
#[test]
fn old_softmax_normalizes_the_flattened_tail() {
    let x = Array::from_vec([2, 3, 4], (0..24).map(|i| (i as f32) * 0.1).collect::<Vec<_>>());
    let y = f32s(&run_node(12, node("Softmax", "s", &["x"], &["y"], vec![]), &x, vec![])[0]);
    let xs = f32s(&x);
    for row in 0..2 {
        let sum: f32 = xs[row * 12..(row + 1) * 12].iter().map(|v| v.exp()).sum();
        for k in row * 12..(row + 1) * 12 {
            assert!((y[k] - xs[k].exp() / sum).abs() < 1e-6, "{k}: {} vs {}", y[k], xs[k].exp() / sum);
        }
    }
}

/// Opset 6's `broadcast=1, axis=1` and PRelu's 1-D slope act along the channel axis.
#[test]
fn legacy_broadcasting_lines_up_at_the_axis() {
    let x = Array::from_vec([2, 3, 4], vec![-1.0f32; 24]);
    let b = tensor::encode("b", &Array::from_vec([3], vec![10.0f32, 20.0, 30.0]));
    let add = node("Add", "a", &["x", "b"], &["y"], vec![attr_int("broadcast", 1), attr_int("axis", 1)]);
    let y = f32s(&run_node(6, add, &x, vec![b.clone()])[0]);
    let prelu = f32s(&run_node(6, node("PRelu", "p", &["x", "b"], &["y"], vec![]), &x, vec![b])[0]);
    for (k, (&sum, &scaled)) in y.iter().zip(&prelu).enumerate() {
        let channel = (k / 4) % 3;
        assert_eq!(sum, -1.0 + 10.0 * (channel + 1) as f32);
        assert_eq!(scaled, -10.0 * (channel + 1) as f32);
    }
}

#[test]
fn dropout_is_an_identity_with_an_all_true_mask() {
    let x = Array::from_vec([2, 3], vec![1.0f32, -2.0, 3.0, 4.0, 5.0, 6.0]);
    let outs = run_node(13, node("Dropout", "d", &["x"], &["y", "mask"], vec![]), &x, vec![]);
    assert_eq!(outs[0], x);
    assert_eq!(outs[1], Array::from_vec([2, 3], vec![true; 6]));
    let old = run_node(6, node("Dropout", "d", &["x"], &["y"], vec![attr_float("ratio", 0.3)]), &x, vec![]);
    assert_eq!(old[0], x);
}

#[test]
fn old_changes_smelt_cannot_express_name_the_node() {
    let bn = node("BatchNormalization", "bn", &["x", "s", "b", "m", "v"], &["y"], vec![attr_int("spatial", 0)]);
    let g = GraphProto { node: vec![bn], input: vec![vi("x", 1, &[Ok(1), Ok(3)])], ..GraphProto::default() };
    let e = import_error(model(7, g));
    assert!(e.contains("'bn'") && e.contains("spatial=0"), "{e}");
    // Every row of the table names an op and a reason.
    assert!(upgrade::CHANGES.iter().all(|c| !c.op.is_empty() && !c.what.is_empty() && c.until <= upgrade::TARGET));
}

fn attr_str(name: &str, s: &str) -> AttributeProto {
    AttributeProto {
        name: name.into(),
        r#type: AttributeType::String as i32,
        s: s.as_bytes().to_vec(),
        ..AttributeProto::default()
    }
}

/// `Upsample` (opsets 7 and 9, and found past its deprecation at 10) and
/// opset 10's `Resize` compute opset 13's `Resize` with asymmetric
/// coordinates and floor rounding.
#[test]
fn upsample_and_resize_10_are_asymmetric_resizes() {
    let x = Array::from_vec([2, 3, 4], (0..24).map(|i| (i * i) as f32 * 0.1).collect::<Vec<_>>());
    let scales = [1.0f32, 2.0, 0.75];
    let sc = || tensor::encode("sc", &Array::from_vec([3], scales.to_vec()));
    for mode in ["nearest", "linear"] {
        let resize13 = node(
            "Resize",
            "r",
            &["x", "", "sc"],
            &["y"],
            vec![
                attr_str("mode", mode),
                attr_str("coordinate_transformation_mode", "asymmetric"),
                attr_str("nearest_mode", "floor"),
            ],
        );
        let want = run_node(13, resize13, &x, vec![sc()]);
        assert_eq!(want[0].dims.as_slice(), &[2, 6, 3]);
        let floats = AttributeProto {
            name: "scales".into(),
            r#type: AttributeType::Floats as i32,
            floats: scales.to_vec(),
            ..AttributeProto::default()
        };
        let m = || attr_str("mode", mode);
        let up7 = node("Upsample", "u", &["x"], &["y"], vec![m(), floats]);
        assert_eq!(run_node(7, up7, &x, vec![]), want, "Upsample-7 {mode}");
        for opset in [9, 13] {
            let up9 = node("Upsample", "u", &["x", "sc"], &["y"], vec![m()]);
            assert_eq!(run_node(opset, up9, &x, vec![sc()]), want, "Upsample-9 at opset {opset}, {mode}");
        }
        let r10 = node("Resize", "r", &["x", "sc"], &["y"], vec![m()]);
        assert_eq!(run_node(10, r10, &x, vec![sc()]), want, "Resize-10 {mode}");
    }
}

/// Sequences resolved at import: construct, insert and erase at constant
/// positions (negative ones too), at, length, concatenation with and without
/// a new axis, and splits into pieces of one, of a scalar size and of sizes.
#[test]
fn sequence_operators_resolve_at_import() {
    let x = Array::from_vec([2, 3], (0..6).map(|v| v as f32).collect::<Vec<_>>());
    let scalar = |name: &str, v: i64| tensor::encode(name, &Array::scalar(v));
    let nodes = vec![
        // [x, x2] -> insert x2 at -2 (0) -> [x2, x, x2] -> erase 0 -> [x, x2] -> insert x at the end.
        node("Add", "", &["x", "x"], &["x2"], vec![]),
        node("SequenceConstruct", "", &["x", "x2"], &["s1"], vec![]),
        node("SequenceInsert", "", &["s1", "x2", "minus_two"], &["s2"], vec![]),
        node("SequenceErase", "", &["s2", "zero"], &["s3"], vec![]),
        node("SequenceInsert", "", &["s3", "x"], &["s4"], vec![]),
        node("SequenceLength", "", &["s4"], &["len"], vec![]),
        node("SequenceAt", "", &["s4", "minus_one"], &["last"], vec![]),
        node("ConcatFromSequence", "", &["s4"], &["cat"], vec![attr_int("axis", 1)]),
        node("ConcatFromSequence", "", &["s4"], &["stack"], vec![attr_int("axis", -1), attr_int("new_axis", 1)]),
        node("SplitToSequence", "", &["x"], &["cols"], vec![attr_int("axis", 1), attr_int("keepdims", 0)]),
        node("ConcatFromSequence", "", &["cols"], &["transposed"], vec![attr_int("axis", 0), attr_int("new_axis", 1)]),
        node("SplitToSequence", "", &["x", "two"], &["pairs"], vec![attr_int("axis", 1)]),
        node("SequenceAt", "", &["pairs", "one"], &["tail"], vec![]),
        node("SplitToSequence", "", &["x", "sizes"], &["parts"], vec![attr_int("axis", 1)]),
        node("SequenceLength", "", &["parts"], &["parts_len"], vec![]),
    ];
    let inits = vec![
        scalar("minus_two", -2),
        scalar("zero", 0),
        scalar("minus_one", -1),
        scalar("one", 1),
        scalar("two", 2),
        i64s("sizes", &[1, 1, 1]),
    ];
    let outputs: Vec<String> =
        ["len", "last", "cat", "stack", "transposed", "tail", "parts_len"].iter().map(|s| s.to_string()).collect();
    let got = run_nodes(13, nodes, &outputs, &x, inits);
    let xs = f32s(&x);
    let x2: Vec<f32> = xs.iter().map(|v| 2.0 * v).collect();
    assert_eq!(got[0].values::<i64>().unwrap(), &[3]);
    assert_eq!(f32s(&got[1]), xs);
    // cat: rows of [x | x2 | x] side by side.
    assert_eq!(got[2].dims.as_slice(), &[2, 9]);
    let row = |r: usize| -> Vec<f32> { [&xs[3 * r..3 * r + 3], &x2[3 * r..3 * r + 3], &xs[3 * r..3 * r + 3]].concat() };
    assert_eq!(f32s(&got[2]), [row(0), row(1)].concat());
    // stack: [2, 3, 3], element [i, j, k] is item k at [i, j].
    assert_eq!(got[3].dims.as_slice(), &[2, 3, 3]);
    let stacked: Vec<f32> = (0..6).flat_map(|e| [xs[e], x2[e], xs[e]]).collect();
    assert_eq!(f32s(&got[3]), stacked);
    // Columns squeezed and stacked on a new axis 0: the transpose.
    assert_eq!(got[4].dims.as_slice(), &[3, 2]);
    assert_eq!(f32s(&got[4]), vec![0.0, 3.0, 1.0, 4.0, 2.0, 5.0]);
    // Pieces of two along 3 columns: [0..2), [2..3); the second is the last column.
    assert_eq!(got[5].dims.as_slice(), &[2, 1]);
    assert_eq!(f32s(&got[5]), vec![2.0, 5.0]);
    assert_eq!(got[6].values::<i64>().unwrap(), &[3]);
}

/// Optionals resolved at import: one holding a tensor, one holding a
/// sequence, an empty one, and opset 18's plain tensor read as an optional.
#[test]
fn optional_operators_resolve_at_import() {
    let x = Array::from_vec([2, 3], (0..6).map(|v| v as f32).collect::<Vec<_>>());
    let nodes = vec![
        node("Optional", "", &["x"], &["some"], vec![]),
        node("Optional", "", &[], &["none"], vec![]),
        node("OptionalHasElement", "", &["some"], &["has_some"], vec![]),
        node("OptionalHasElement", "", &["none"], &["has_none"], vec![]),
        node("OptionalHasElement", "", &["x"], &["has_tensor"], vec![]),
        node("OptionalGetElement", "", &["some"], &["got"], vec![]),
        node("Neg", "", &["got"], &["neg"], vec![]),
        node("SequenceConstruct", "", &["x", "neg"], &["seq"], vec![]),
        node("Optional", "", &["seq"], &["some_seq"], vec![]),
        node("OptionalGetElement", "", &["some_seq"], &["seq2"], vec![]),
        node("SequenceAt", "", &["seq2", "one"], &["second"], vec![]),
        node("OptionalGetElement", "", &["x"], &["same"], vec![]),
    ];
    let inits = vec![tensor::encode("one", &Array::scalar(1i64))];
    let outputs: Vec<String> =
        ["has_some", "has_none", "has_tensor", "second", "same"].iter().map(|s| s.to_string()).collect();
    let got = run_nodes(18, nodes, &outputs, &x, inits);
    assert_eq!(got[0].values::<bool>().unwrap(), &[true]);
    assert_eq!(got[1].values::<bool>().unwrap(), &[false]);
    assert_eq!(got[2].values::<bool>().unwrap(), &[true]);
    assert_eq!(f32s(&got[3]), f32s(&x).iter().map(|v| -v).collect::<Vec<_>>());
    assert_eq!(f32s(&got[4]), f32s(&x));
    let g = |nodes: Vec<NodeProto>, output: &str| GraphProto {
        node: nodes,
        input: vec![vi("x", 1, &[Ok(2), Ok(3)])],
        output: vec![vi(output, 1, &[])],
        ..GraphProto::default()
    };
    let e = import_error(model(
        18,
        g(
            vec![
                node("Optional", "empty", &[], &["o"], vec![]),
                node("OptionalGetElement", "get", &["o"], &["y"], vec![]),
            ],
            "y",
        ),
    ));
    assert_eq!(e, "node 'get' (OptionalGetElement): takes the element of 'o', an empty optional");
    let e = import_error(model(18, g(vec![node("Optional", "opt", &["x"], &["o"], vec![])], "o")));
    assert_eq!(
        e,
        "graph output 'o': is an optional (smelt resolves sequences and optionals at import; graph outputs must be tensors)"
    );
    let e = import_error(model(
        18,
        g(vec![node("Optional", "opt", &["x"], &["o"], vec![]), node("Relu", "relu", &["o"], &["y"], vec![])], "y"),
    ));
    assert_eq!(e, "node 'relu' (Relu): input 'o' is an optional, and Relu takes tensors");
}

#[test]
fn sequences_that_need_run_time_values_name_the_node() {
    let g = |nodes: Vec<NodeProto>, output: &str| GraphProto {
        node: nodes,
        input: vec![vi("x", 1, &[Err("N"), Ok(3)]), vi("p", 7, &[])],
        output: vec![vi(output, 1, &[])],
        ..GraphProto::default()
    };
    let e = import_error(model(
        13,
        g(
            vec![
                node("SequenceConstruct", "seq", &["x"], &["s"], vec![]),
                node("SequenceAt", "at", &["s", "p"], &["y"], vec![]),
            ],
            "y",
        ),
    ));
    assert_eq!(e, "node 'at' (SequenceAt): position 'p' must be a constant scalar (sequences are resolved at import)");
    let e = import_error(model(13, g(vec![node("SplitToSequence", "split", &["x"], &["s"], vec![])], "s")));
    assert_eq!(
        e,
        "node 'split' (SplitToSequence): splitting into pieces of one needs dimension 0 of the input known at import"
    );
    let e = import_error(model(13, g(vec![node("SequenceConstruct", "seq", &["x"], &["s"], vec![])], "s")));
    assert_eq!(
        e,
        "graph output 's': is a sequence (smelt resolves sequences and optionals at import; graph outputs must be tensors)"
    );
    let e = import_error(model(
        13,
        g(
            vec![
                node("SequenceConstruct", "seq", &["x"], &["s"], vec![]),
                node("Relu", "relu", &["s"], &["y"], vec![]),
            ],
            "y",
        ),
    ));
    assert_eq!(e, "node 'relu' (Relu): input 's' is a sequence, and Relu takes tensors");
    let mut strings = small_graph();
    strings.node.push(node("StringNormalizer", "norm", &["y"], &["z"], vec![]));
    assert_eq!(
        import_error(model(13, strings)),
        "node 'norm' (StringNormalizer): operates on string tensors, which smelt does not support"
    );
}
