//! Whole-module tests: HLO text in, values (or located errors) out. They pin
//! down the tricky semantics (scatter bounds, stable multi-operand sort, window
//! padding and dilation, select-and-scatter, control flow) and that malformed
//! modules fail with an error naming the place instead of panicking.

use smelt_hlo::{Array, ArrayData, Literal, Module, parse_module};

use crate::{InterpError, evaluate, evaluate_instruction};

fn module(text: &str) -> Module {
    parse_module(text).unwrap_or_else(|e| panic!("{}", e.render("test")))
}

fn run(text: &str, args: &[Literal]) -> Result<Literal, InterpError> {
    evaluate(&module(text), args)
}

fn f32s(dims: &[i64], v: &[f32]) -> Literal {
    Array::from_vec(dims, v.to_vec()).into()
}

fn s32s(dims: &[i64], v: &[i32]) -> Literal {
    Array::from_vec(dims, v.to_vec()).into()
}

fn vals_f32(l: &Literal) -> Vec<f32> {
    l.as_array().unwrap().values::<f32>().unwrap().to_vec()
}

fn vals_s32(l: &Literal) -> Vec<i32> {
    l.as_array().unwrap().values::<i32>().unwrap().to_vec()
}

fn tuple(l: Literal) -> Vec<Literal> {
    match l {
        Literal::Tuple(t) => t,
        Literal::Array(a) => panic!("tuple expected, got {}", a.shape()),
    }
}

const ADD: &str = "add {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n  ROOT s = f32[] add(x, y)\n}\n";

#[test]
fn scatter_adds_duplicates_and_skips_out_of_bounds_indices() {
    let text = format!(
        "HloModule m\n{ADD}ENTRY e {{\n  o = f32[4] parameter(0)\n  i = s32[5,1] parameter(1)\n  u = f32[5] parameter(2)\n  ROOT r = f32[4] scatter(o, i, u), update_window_dims={{}}, inserted_window_dims={{0}}, scatter_dims_to_operand_dims={{0}}, index_vector_dim=1, to_apply=add\n}}\n"
    );
    let r =
        run(&text, &[f32s(&[4], &[0.0; 4]), s32s(&[5, 1], &[1, 1, 3, 7, -1]), f32s(&[5], &[1.0, 2.0, 3.0, 4.0, 5.0])])
            .unwrap();
    assert_eq!(vals_f32(&r), vec![0.0, 3.0, 0.0, 3.0]);
}

#[test]
fn scatter_skips_a_window_that_does_not_fit() {
    // Windows of two elements at starts 0 and 4 of a 5-element operand: the
    // second does not fit and is dropped whole (not clamped).
    let text = format!(
        "HloModule m\n{ADD}ENTRY e {{\n  o = f32[5] parameter(0)\n  i = s32[2,1] parameter(1)\n  u = f32[2,2] parameter(2)\n  ROOT r = f32[5] scatter(o, i, u), update_window_dims={{1}}, inserted_window_dims={{}}, scatter_dims_to_operand_dims={{0}}, index_vector_dim=1, to_apply=add\n}}\n"
    );
    let r = run(&text, &[f32s(&[5], &[0.0; 5]), s32s(&[2, 1], &[0, 4]), f32s(&[2, 2], &[1.0, 2.0, 3.0, 4.0])]).unwrap();
    assert_eq!(vals_f32(&r), vec![1.0, 2.0, 0.0, 0.0, 0.0]);
}

#[test]
fn scatter_set_with_batching_dims() {
    // out[b, idx[b]] = u[b]: a computation returning its second parameter.
    let text = "HloModule m\nset {\n  x = f32[] parameter(0)\n  ROOT y = f32[] parameter(1)\n}\nENTRY e {\n  o = f32[2,3] parameter(0)\n  i = s32[2,1] parameter(1)\n  u = f32[2] parameter(2)\n  ROOT r = f32[2,3] scatter(o, i, u), update_window_dims={}, inserted_window_dims={1}, scatter_dims_to_operand_dims={1}, input_batching_dims={0}, scatter_indices_batching_dims={0}, index_vector_dim=1, to_apply=set\n}\n";
    let r = run(text, &[f32s(&[2, 3], &[0.0; 6]), s32s(&[2, 1], &[2, 0]), f32s(&[2], &[7.0, 8.0])]).unwrap();
    assert_eq!(vals_f32(&r), vec![0.0, 0.0, 7.0, 8.0, 0.0, 0.0]);
}

#[test]
fn sort_is_stable_and_carries_values() {
    let text = "HloModule m\nlt {\n  a = s32[] parameter(0)\n  b = s32[] parameter(1)\n  c = s32[] parameter(2)\n  d = s32[] parameter(3)\n  ROOT r = pred[] compare(a, b), direction=LT\n}\nENTRY e {\n  k = s32[6] parameter(0)\n  v = s32[6] parameter(1)\n  ROOT s = (s32[6], s32[6]) sort(k, v), dimensions={0}, is_stable=true, to_apply=lt\n}\n";
    let r = tuple(run(text, &[s32s(&[6], &[3, 1, 3, 0, 1, 3]), s32s(&[6], &[0, 1, 2, 3, 4, 5])]).unwrap());
    assert_eq!(vals_s32(&r[0]), vec![0, 1, 1, 3, 3, 3]);
    assert_eq!(vals_s32(&r[1]), vec![3, 1, 4, 0, 2, 5]);
}

#[test]
fn sort_descending_in_total_order_along_rows() {
    let text = "HloModule m\ngt {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT r = pred[] compare(a, b), direction=GT, type=TOTALORDER\n}\nENTRY e {\n  k = f32[2,3] parameter(0)\n  ROOT s = f32[2,3] sort(k), dimensions={1}, to_apply=gt\n}\n";
    let r = run(text, &[f32s(&[2, 3], &[-0.0, f32::NAN, 0.0, 1.0, f32::NEG_INFINITY, 2.0])]).unwrap();
    let v = vals_f32(&r);
    assert!(v[0].is_nan());
    assert!(v[1] == 0.0 && v[1].is_sign_positive());
    assert!(v[2] == 0.0 && v[2].is_sign_negative());
    assert_eq!(&v[3..], &[2.0, 1.0, f32::NEG_INFINITY]);
}

#[test]
fn sort_with_an_inconsistent_comparator_does_not_panic() {
    let text = "HloModule m\nyes {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT t = pred[] constant(true)\n}\nENTRY e {\n  k = f32[40] parameter(0)\n  ROOT s = f32[40] sort(k), dimensions={0}, to_apply=yes\n}\n";
    let input: Vec<f32> = (0..40).map(|i| i as f32).collect();
    let r = run(text, &[f32s(&[40], &input)]).unwrap();
    let mut v = vals_f32(&r);
    v.sort_by(f32::total_cmp);
    assert_eq!(v, input);
}

fn reduce_window(window: &str, input: &[f32]) -> Vec<f32> {
    let n = input.len();
    // The result shape is what the interpreter computes; declare it by trying.
    let probe = |out: usize| {
        format!(
            "HloModule m\n{ADD}ENTRY e {{\n  x = f32[{n}] parameter(0)\n  z = f32[] constant(0)\n  ROOT r = f32[{out}] reduce-window(x, z), window={{{window}}}, to_apply=add\n}}\n"
        )
    };
    for out in 0..=2 * n + 2 {
        if let Ok(r) = run(&probe(out), &[f32s(&[n as i64], input)]) {
            return vals_f32(&r);
        }
    }
    panic!("no output size fits window {window}");
}

#[test]
fn reduce_window_padding_strides_and_dilations() {
    let x = [1.0, 2.0, 3.0, 4.0, 5.0];
    // Padded [_,1,2,3,4,5,_], windows of 2 every 2.
    assert_eq!(reduce_window("size=2 stride=2 pad=1_1", &x), vec![1.0, 5.0, 9.0]);
    // Base dilation: [1,_,2,_,3,_,4,_,5], windows of 3 every 2.
    assert_eq!(reduce_window("size=3 stride=2 lhs_dilate=2", &x), vec![3.0, 5.0, 7.0, 9.0]);
    // Window dilation: taps p and p + 2.
    assert_eq!(reduce_window("size=2 rhs_dilate=2", &x), vec![4.0, 6.0, 8.0]);
    // A window wider than the input (cumsum style): size 5 with 4 low padding.
    assert_eq!(reduce_window("size=5 pad=4_0", &x), vec![1.0, 3.0, 6.0, 10.0, 15.0]);
}

#[test]
fn reduce_with_a_general_reducer_and_a_call_inside() {
    // Sum of squares through a scalar program, then through the evaluator (the
    // reducer calls another computation, which scalar programs do not handle).
    let text = "HloModule m\nsq {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  bb = f32[] multiply(b, b)\n  ROOT s = f32[] add(a, bb)\n}\nsq_call {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT s = f32[] call(a, b), to_apply=sq\n}\nENTRY e {\n  x = f32[2,3] parameter(0)\n  z = f32[] constant(0)\n  r1 = f32[2] reduce(x, z), dimensions={1}, to_apply=sq\n  r2 = f32[3] reduce(x, z), dimensions={0}, to_apply=sq_call\n  ROOT t = (f32[2], f32[3]) tuple(r1, r2)\n}\n";
    let r = tuple(run(text, &[f32s(&[2, 3], &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0])]).unwrap());
    assert_eq!(vals_f32(&r[0]), vec![14.0, 77.0]);
    assert_eq!(vals_f32(&r[1]), vec![17.0, 29.0, 45.0]);
}

#[test]
fn variadic_reduce_argmax_picks_the_lowest_index_on_ties() {
    let text = "HloModule m\namax {\n  a = f32[] parameter(0)\n  i = s32[] parameter(1)\n  b = f32[] parameter(2)\n  j = s32[] parameter(3)\n  gt = pred[] compare(a, b), direction=GT\n  eq = pred[] compare(a, b), direction=EQ\n  lt = pred[] compare(i, j), direction=LT\n  tie = pred[] and(eq, lt)\n  pick = pred[] or(gt, tie)\n  v = f32[] select(pick, a, b)\n  k = s32[] select(pick, i, j)\n  ROOT t = (f32[], s32[]) tuple(v, k)\n}\nENTRY e {\n  x = f32[5] parameter(0)\n  io = s32[5] iota(), iota_dimension=0\n  ninf = f32[] constant(-inf)\n  zero = s32[] constant(0)\n  ROOT r = (f32[], s32[]) reduce(x, io, ninf, zero), dimensions={0}, to_apply=amax\n}\n";
    let r = tuple(run(text, &[f32s(&[5], &[1.0, 7.0, 3.0, 7.0, 2.0])]).unwrap());
    assert_eq!(vals_f32(&r[0]), vec![7.0]);
    assert_eq!(vals_s32(&r[1]), vec![1]);
}

#[test]
fn select_and_scatter_routes_gradients_to_the_first_maximum() {
    let text = format!(
        "HloModule m\n{ADD}ge {{\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT r = pred[] compare(a, b), direction=GE\n}}\nENTRY e {{\n  x = f32[4] parameter(0)\n  s = f32[2] parameter(1)\n  z = f32[] constant(0)\n  ROOT r = f32[4] select-and-scatter(x, s, z), window={{size=2 stride=2}}, select=ge, scatter=add\n}}\n"
    );
    let r = run(&text, &[f32s(&[4], &[1.0, 5.0, 2.0, 2.0]), f32s(&[2], &[10.0, 20.0])]).unwrap();
    assert_eq!(vals_f32(&r), vec![0.0, 10.0, 20.0, 0.0]);
}

#[test]
fn while_loop_carries_a_tuple() {
    let text = "HloModule m\ncond {\n  p = (s32[], f32[]) parameter(0)\n  i = s32[] get-tuple-element(p), index=0\n  n = s32[] constant(5)\n  ROOT c = pred[] compare(i, n), direction=LT\n}\nbody {\n  p = (s32[], f32[]) parameter(0)\n  i = s32[] get-tuple-element(p), index=0\n  a = f32[] get-tuple-element(p), index=1\n  one = s32[] constant(1)\n  two = f32[] constant(2)\n  i2 = s32[] add(i, one)\n  a2 = f32[] multiply(a, two)\n  ROOT t = (s32[], f32[]) tuple(i2, a2)\n}\nENTRY e {\n  a = f32[] parameter(0)\n  z = s32[] constant(0)\n  init = (s32[], f32[]) tuple(z, a)\n  ROOT w = (s32[], f32[]) while(init), condition=cond, body=body\n}\n";
    let r = tuple(run(text, &[Array::scalar(1.0f32).into()]).unwrap());
    assert_eq!(vals_s32(&r[0]), vec![5]);
    assert_eq!(vals_f32(&r[1]), vec![32.0]);
}

#[test]
fn while_loops_can_be_given_an_iteration_limit() {
    let text = "HloModule m\ncond {\n  p = s32[] parameter(0)\n  ROOT t = pred[] constant(true)\n}\nbody {\n  p = s32[] parameter(0)\n  one = s32[] constant(1)\n  ROOT n = s32[] add(p, one)\n}\nENTRY main {\n  z = s32[] constant(0)\n  ROOT w.1 = s32[] while(z), condition=cond, body=body\n}\n";
    let m = module(text);
    let options = crate::Options { max_while_iterations: Some(100), ..Default::default() };
    let e = crate::evaluate_with(&m, m.entry, &[], &options).unwrap_err();
    assert_eq!(e.to_string(), "while loop 'w.1' of computation 'main' ran more than 100 iterations");
}

#[test]
fn conditional_branches_by_pred_and_by_clamped_index() {
    let branches = "b0 {\n  x = f32[] parameter(0)\n  ROOT r = f32[] negate(x)\n}\nb1 {\n  x = f32[] parameter(0)\n  ROOT r = f32[] add(x, x)\n}\nb2 {\n  x = f32[] parameter(0)\n  ROOT r = f32[] multiply(x, x)\n}\n";
    let by_index = format!(
        "HloModule m\n{branches}ENTRY e {{\n  i = s32[] parameter(0)\n  x = f32[] parameter(1)\n  ROOT c = f32[] conditional(i, x, x, x), branch_computations={{b0, b1, b2}}\n}}\n"
    );
    let x: Literal = Array::scalar(3.0f32).into();
    for (i, want) in [(0, -3.0), (1, 6.0), (2, 9.0), (7, 9.0), (-1, 9.0)] {
        let r = run(&by_index, &[Array::scalar(i).into(), x.clone()]).unwrap();
        assert_eq!(vals_f32(&r), vec![want], "index {i}");
    }
    let by_pred = format!(
        "HloModule m\n{branches}ENTRY e {{\n  p = pred[] parameter(0)\n  x = f32[] parameter(1)\n  ROOT c = f32[] conditional(p, x, x), true_computation=b0, false_computation=b1\n}}\n"
    );
    let r = run(&by_pred, &[Array::scalar(true).into(), x.clone()]).unwrap();
    assert_eq!(vals_f32(&r), vec![-3.0]);
    let r = run(&by_pred, &[Array::scalar(false).into(), x]).unwrap();
    assert_eq!(vals_f32(&r), vec![6.0]);
}

#[test]
fn map_applies_its_computation_per_element() {
    let text = "HloModule m\nf {\n  a = f32[] parameter(0)\n  b = s32[] parameter(1)\n  c = f32[] convert(b)\n  ROOT r = f32[] multiply(a, c)\n}\nENTRY e {\n  x = f32[3] parameter(0)\n  y = s32[3] parameter(1)\n  ROOT m = f32[3] map(x, y), dimensions={0}, to_apply=f\n}\n";
    let r = run(text, &[f32s(&[3], &[1.5, 2.0, -1.0]), s32s(&[3], &[2, 3, 4])]).unwrap();
    assert_eq!(vals_f32(&r), vec![3.0, 6.0, -4.0]);
}

#[test]
fn convolution_with_feature_first_labels_and_window_reversal() {
    // One batch, one feature, 1-D: [1,2,3,4] convolved with the reversed kernel [1,10].
    let text = "HloModule m\nENTRY e {\n  x = f32[1,1,4] parameter(0)\n  k = f32[1,1,2] parameter(1)\n  ROOT c = f32[1,1,3] convolution(x, k), window={size=2 rhs_reversal=1}, dim_labels=bf0_oi0->bf0\n}\n";
    let r = run(text, &[f32s(&[1, 1, 4], &[1.0, 2.0, 3.0, 4.0]), f32s(&[1, 1, 2], &[1.0, 10.0])]).unwrap();
    assert_eq!(vals_f32(&r), vec![12.0, 23.0, 34.0]);
}

#[test]
fn bitcast_follows_layouts() {
    // A column-major f32[2,3] reinterpreted as row-major f32[3,2] is its transpose.
    let text = "HloModule m\nENTRY e {\n  a = f32[2,3]{0,1} parameter(0)\n  ROOT b = f32[3,2]{1,0} bitcast(a)\n}\n";
    let r = run(text, &[f32s(&[2, 3], &[0.0, 1.0, 2.0, 3.0, 4.0, 5.0])]).unwrap();
    assert_eq!(vals_f32(&r), vec![0.0, 3.0, 1.0, 4.0, 2.0, 5.0]);
}

#[test]
fn rng_bit_generator_threefry_and_default() {
    let text = "HloModule m\nENTRY e {\n  s = u64[2] parameter(0)\n  ROOT r = (u64[2], u32[4]) rng-bit-generator(s), algorithm=rng_three_fry\n}\n";
    let state: Literal = Array::from_vec([2], vec![0u64, 0]).into();
    let r = tuple(run(text, std::slice::from_ref(&state)).unwrap());
    let bits = r[1].as_array().unwrap().values::<u32>().unwrap();
    assert_eq!(&bits[..2], &[0x6b200159, 0x99ba4efe]);
    let text = text.replace("rng_three_fry", "rng_default");
    let r = tuple(run(&text, &[state]).unwrap());
    let bits = r[1].as_array().unwrap().values::<u32>().unwrap();
    assert_eq!(bits, &[0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8]);
}

#[test]
fn evaluates_a_single_instruction_for_folding() {
    let m = module(
        "HloModule m\nENTRY e {\n  a = s32[2] parameter(0)\n  b = s32[2] constant({3, 4})\n  ROOT r = s32[2] multiply(a, b)\n}\n",
    );
    let entry = m.entry();
    let r = evaluate_instruction(&m, m.entry, entry.root, &[s32s(&[2], &[5, 6]), s32s(&[2], &[3, 4])]).unwrap();
    assert_eq!(vals_s32(&r), vec![15, 24]);
    let bad = evaluate_instruction(&m, m.entry, entry.root, &[s32s(&[2], &[5, 6])]);
    assert!(bad.is_err());
}

// ---- Errors: located, and never a panic. ----

fn error(text: &str, args: &[Literal]) -> String {
    match run(text, args) {
        Ok(v) => panic!("expected an error, got {v}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn custom_calls_name_their_target() {
    let text = "HloModule m\nENTRY main {\n  a = f32[2] parameter(0)\n  ROOT cc.1 = f32[2] custom-call(a), custom_call_target=\"foo\"\n}\n";
    assert_eq!(
        error(text, &[f32s(&[2], &[1.0, 2.0])]),
        "unsupported custom-call target \"foo\" in instruction 'cc.1' of computation 'main'"
    );
}

#[test]
fn arguments_are_checked_against_parameters() {
    let text = "HloModule m\nENTRY main {\n  a = f32[2] parameter(0)\n  b = s32[] parameter(1)\n  ROOT r = f32[2] add(a, a)\n}\n";
    assert_eq!(error(text, &[f32s(&[2], &[1.0, 2.0])]), "computation 'main' takes 2 arguments, got 1");
    assert_eq!(
        error(text, &[f32s(&[2], &[1.0, 2.0]), f32s(&[], &[1.0])]),
        "argument 1 of computation 'main' (parameter 'b') must be s32[], got f32[]"
    );
    // Dimensions that do not match the data are refused too.
    let broken = Literal::Array(Array { dims: [3i64].into_iter().collect(), data: ArrayData::F32(vec![1.0]) });
    assert!(error(text, &[broken, s32s(&[], &[1])]).contains("parameter 'a'"));
}

#[test]
fn unsupported_types_and_bad_shapes_are_located_errors() {
    let text = "HloModule m\nENTRY main {\n  a = f32[2] parameter(0)\n  ROOT p.1 = f32[2] popcnt(a)\n}\n";
    assert_eq!(
        error(text, &[f32s(&[2], &[1.0, 2.0])]),
        "unsupported popcnt on f32 in instruction 'p.1' of computation 'main'"
    );
    let text = "HloModule m\nENTRY main {\n  a = f32[2] parameter(0)\n  ROOT r = f32[3] add(a, a)\n}\n";
    let e = error(text, &[f32s(&[2], &[1.0, 2.0])]);
    assert!(e.starts_with("invalid add instruction 'r' of computation 'main'"), "{e}");
    let text = "HloModule m\nENTRY main {\n  a = f32[4] parameter(0)\n  ROOT s = f32[10] slice(a), slice={[0:10]}\n}\n";
    let e = error(text, &[f32s(&[4], &[0.0; 4])]);
    assert!(e.contains("slice"), "{e}");
}

#[test]
fn absurd_sizes_are_refused_not_allocated() {
    // A result that cannot fit: refused by the memory budget before evaluating.
    let text = "HloModule m\nENTRY main {\n  c = f32[] constant(1)\n  ROOT b = f32[100000,100000,100] broadcast(c), dimensions={}\n}\n";
    let e = error(text, &[]);
    assert!(e.contains("the parameters and result of computation 'main'") && e.contains("memory budget"), "{e}");
    // An intermediate value that large: refused by the interpreter's own limit.
    let text = format!(
        "HloModule m\n{}ENTRY main {{\n  c = f32[] constant(1)\n  b = f32[100000,100000,100] broadcast(c), dimensions={{}}\n  ROOT r = f32[] reduce(b, c), dimensions={{0,1,2}}, to_apply=add\n}}\n",
        smelt_hlo::reducers::ADD
    );
    let e = error(&text, &[]);
    assert!(e.contains("more than the interpreter's limit"), "{e}");
}

/// Makes the root of computation `f` (changed by `edit` first) call `f`.
fn call_itself(m: &mut Module, edit: impl FnOnce(&mut smelt_hlo::Instruction)) {
    let f = m.find_computation("f").unwrap();
    let comp = m.comp_mut(f);
    let root = comp.root;
    let inst = comp.inst_mut(root);
    edit(inst);
    inst.called = [f].into_iter().collect();
}

#[test]
fn recursion_is_bounded() {
    let mut m = module(
        "HloModule m\nf {\n  x = f32[] parameter(0)\n  ROOT r = f32[] negate(x)\n}\nENTRY main {\n  a = f32[] parameter(0)\n  ROOT c = f32[] call(a), to_apply=f\n}\n",
    );
    // Make `f` call itself.
    call_itself(&mut m, |root| root.opcode = smelt_hlo::Opcode::Call);
    let e = evaluate(&m, &[Array::scalar(1.0f32).into()]).unwrap_err();
    assert!(matches!(e, InterpError::TooDeep { .. }), "{e}");
}

#[test]
fn recursion_through_a_reducer_is_bounded() {
    let mut m = module(
        "HloModule m\nadd {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n  ROOT s = f32[] add(x, y)\n}\nf {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n  b = f32[1] broadcast(x), dimensions={}\n  ROOT r = f32[] reduce(b, y), dimensions={0}, to_apply=add\n}\nENTRY main {\n  a = f32[2] parameter(0)\n  z = f32[] constant(0)\n  ROOT r = f32[] reduce(a, z), dimensions={0}, to_apply=f\n}\n",
    );
    // Make `f` reduce with itself.
    call_itself(&mut m, |_| {});
    let e = evaluate(&m, &[f32s(&[2], &[1.0, 2.0])]).unwrap_err();
    assert!(matches!(e, InterpError::TooDeep { .. }), "{e}");
    // A called computation that is not in the module is an error at the caller.
    let entry = m.entry;
    let root = m.entry().root;
    m.comp_mut(entry).inst_mut(root).called = [smelt_hlo::CompId::from_index(99)].into_iter().collect();
    let e = evaluate(&m, &[f32s(&[2], &[1.0, 2.0])]).unwrap_err().to_string();
    assert!(e.contains("instruction 'r' of computation 'main'"), "{e}");
}

#[test]
fn dangling_operands_are_malformed_not_panics() {
    let mut m = module(
        "HloModule m\nENTRY main {\n  a = f32[] parameter(0)\n  n = f32[] negate(a)\n  ROOT r = f32[] add(n, a)\n}\n",
    );
    let n = m.entry().find("n").unwrap();
    m.entry_mut().remove(n);
    let e = evaluate(&m, &[Array::scalar(1.0f32).into()]).unwrap_err();
    assert!(matches!(e, InterpError::Malformed { .. }), "{e}");
}

#[test]
fn mismatched_reducers_are_errors() {
    // The reducer takes s32 but the input is f32.
    let text = "HloModule m\nadd_s32 {\n  x = s32[] parameter(0)\n  y = s32[] parameter(1)\n  ROOT s = s32[] add(x, y)\n}\nENTRY main {\n  a = f32[3] parameter(0)\n  z = f32[] constant(0)\n  ROOT r = f32[] reduce(a, z), dimensions={0}, to_apply=add_s32\n}\n";
    let e = error(text, &[f32s(&[3], &[1.0, 2.0, 3.0])]);
    assert!(e.contains("instruction 'r'"), "{e}");
}

/// Complex products (lowered to four real ones, `smelt_hlo::complex`) against
/// complex arithmetic done here: a matrix-vector dot and a 1-D convolution.
#[test]
fn complex_dots_and_convolutions_multiply_complex_numbers() {
    let text = "HloModule c\n\nENTRY e {\n  a = c64[2,3]{1,0} parameter(0)\n  x = c64[3]{0} parameter(1)\n  \
        s = c64[1,1,5]{2,1,0} parameter(2)\n  k = c64[1,1,2]{2,1,0} parameter(3)\n  \
        d = c64[2]{0} dot(a, x), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n  \
        c = c64[1,1,4]{2,1,0} convolution(s, k), window={size=2}, dim_labels=bf0_oi0->bf0\n  \
        ROOT t = (c64[2]{0}, c64[1,1,4]{2,1,0}) tuple(d, c)\n}\n";
    // Parts, real then imaginary, innermost.
    let a: Vec<f32> = (0..12).map(|i| i as f32 * 0.5 - 2.0).collect();
    let x: Vec<f32> = (0..6).map(|i| 1.0 - i as f32 * 0.25).collect();
    let s: Vec<f32> = (0..10).map(|i| (i as f32).sin()).collect();
    let k = vec![0.5f32, -1.0, 2.0, 0.25];
    let args = [f32s(&[2, 3, 2], &a), f32s(&[3, 2], &x), f32s(&[1, 1, 5, 2], &s), f32s(&[1, 1, 2, 2], &k)];
    let out = tuple(run(text, &args).unwrap());
    let mul = |p: (f32, f32), q: (f32, f32)| (p.0 * q.0 - p.1 * q.1, p.0 * q.1 + p.1 * q.0);
    let at = |v: &[f32], i: usize| (v[2 * i], v[2 * i + 1]);
    let mut want = Vec::new();
    for r in 0..2 {
        let mut acc = (0.0, 0.0);
        for j in 0..3 {
            let m = mul(at(&a, r * 3 + j), at(&x, j));
            acc = (acc.0 + m.0, acc.1 + m.1);
        }
        want.extend([acc.0, acc.1]);
    }
    for o in 0..4 {
        let mut acc = (0.0, 0.0);
        for w in 0..2 {
            let m = mul(at(&s, o + w), at(&k, w));
            acc = (acc.0 + m.0, acc.1 + m.1);
        }
        want.extend([acc.0, acc.1]);
    }
    let got: Vec<f32> = vals_f32(&out[0]).into_iter().chain(vals_f32(&out[1])).collect();
    for (g, w) in got.iter().zip(&want) {
        assert!((g - w).abs() < 1e-5, "{got:?} != {want:?}");
    }
}
