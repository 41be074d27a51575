//! Whole-module tests: HLO text in, values out.

use smelt_hlo::{Array, Literal, parse_module};

use crate::{InterpError, evaluate};

fn run(text: &str, args: &[Literal]) -> Result<Literal, InterpError> {
    let m = parse_module(text).unwrap_or_else(|e| panic!("{}", e.render("test")));
    evaluate(&m, args)
}

#[test]
fn adds() {
    let r = run(
        "HloModule m\nENTRY e {\n  a = f32[2] parameter(0)\n  ROOT r = f32[2] add(a, a)\n}\n",
        &[Array::from_vec([2], vec![1.0f32, 2.0]).into()],
    )
    .unwrap();
    assert_eq!(r, Array::from_vec([2], vec![2.0f32, 4.0]).into());
}
