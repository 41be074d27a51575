//! StableHLO, the MLIR dialect JAX prints by default (`jax.jit(f).lower(x).as_text()`),
//! read into smelt's HLO IR.
//!
//! Reading is two steps: [`syntax`] turns text into a small tree of functions,
//! regions and ops (generic and pretty forms alike), and [`lower`] maps it onto HLO
//! through the module builder, so every op is shape-checked against the types the
//! text declares. CHLO ops without an HLO opcode are decomposed in [`chlo`],
//! [`chlo_elementary`] and [`chlo_special`]. Errors are [`ParseError`]s with the
//! `line:col` of the offending op or attribute.

mod chlo;
mod chlo_elementary;
mod chlo_special;
mod lower;
mod syntax;

use smelt_hlo::{Module, ParseError};

/// Parses StableHLO MLIR text into a module. The entry is `@main` (or the only
/// public function); functions it calls become computations.
pub fn parse_stablehlo(src: &str) -> Result<Module, ParseError> {
    let ast = syntax::parse(src)?;
    lower::lower(src, &ast)
}

#[cfg(test)]
mod tests {
    use smelt_hlo::{Opcode, Shape, verify};

    use super::parse_stablehlo;

    fn module(src: &str) -> smelt_hlo::Module {
        let m = parse_stablehlo(src).unwrap_or_else(|e| panic!("{}", e.render("test.mlir")));
        verify(&m).unwrap_or_else(|e| panic!("{e}"));
        m
    }

    fn error(src: &str) -> (usize, usize, String) {
        let e = parse_stablehlo(src).expect_err("should not parse");
        (e.line, e.col, e.message)
    }

    fn opcodes(m: &smelt_hlo::Module) -> Vec<Opcode> {
        m.entry().insts.iter().map(|(_, i)| i.opcode).collect()
    }

    #[test]
    fn broadcast_in_dim_stretching_unit_dimensions_reshapes_first() {
        let m = module(
            "func.func @main(%a: tensor<4x1xf32>) -> tensor<4x3xf32> {
               %0 = stablehlo.broadcast_in_dim %a, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x3xf32>
               return %0 : tensor<4x3xf32>
             }",
        );
        assert_eq!(opcodes(&m), [Opcode::Parameter, Opcode::Reshape, Opcode::Broadcast]);
    }

    #[test]
    fn a_scalar_select_predicate_is_broadcast() {
        let m = module(
            "func.func @main(%p: tensor<i1>, %a: tensor<3xf32>, %b: tensor<3xf32>) -> tensor<3xf32> {
               %0 = stablehlo.select %p, %a, %b : tensor<i1>, tensor<3xf32>
               return %0 : tensor<3xf32>
             }",
        );
        assert!(opcodes(&m).contains(&Opcode::Broadcast));
    }

    #[test]
    fn while_loops_carry_captured_values_as_extra_state() {
        // The body adds %step, defined outside the loop: the loop state grows by one.
        let m = module(
            "func.func @main(%x: tensor<f32>, %step: tensor<f32>) -> tensor<f32> {
               %0 = stablehlo.while(%it = %x) : tensor<f32>
                cond {
                 %c = stablehlo.constant dense<1.0e+01> : tensor<f32>
                 %1 = stablehlo.compare LT, %it, %c, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
                 stablehlo.return %1 : tensor<i1>
               } do {
                 %1 = stablehlo.add %it, %step : tensor<f32>
                 stablehlo.return %1 : tensor<f32>
               }
               return %0 : tensor<f32>
             }",
        );
        let w = m.entry().insts.iter().find(|(_, i)| i.opcode == Opcode::While).map(|(_, i)| i.clone()).unwrap();
        assert_eq!(w.shape, Shape::Tuple(vec![Shape::scalar(smelt_hlo::DType::F32); 2]));
    }

    #[test]
    fn case_branches_take_their_captures_as_a_tuple() {
        let m = module(
            r#"func.func @main(%i: tensor<i32>, %x: tensor<2xf32>) -> tensor<2xf32> {
               %0 = "stablehlo.case"(%i) ({
                 %1 = stablehlo.negate %x : tensor<2xf32>
                 stablehlo.return %1 : tensor<2xf32>
               }, {
                 stablehlo.return %x : tensor<2xf32>
               }) : (tensor<i32>) -> tensor<2xf32>
               return %0 : tensor<2xf32>
             }"#,
        );
        let c = m.entry().insts.iter().find(|(_, i)| i.opcode == Opcode::Conditional).map(|(_, i)| i.clone());
        let c = c.unwrap();
        assert_eq!((c.operands.len(), c.called.len()), (3, 2));
    }

    #[test]
    fn functions_become_called_computations_and_multiple_results_a_tuple() {
        let m = module(
            "module @m {
               func.func public @main(%a: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
                 %0:2 = call @twice(%a) : (tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
                 return %0#1, %0#0 : tensor<2xf32>, tensor<2xf32>
               }
               func.func private @twice(%a: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
                 %0 = stablehlo.add %a, %a : tensor<2xf32>
                 return %0, %a : tensor<2xf32>, tensor<2xf32>
               }
             }",
        );
        assert_eq!(m.comps.len(), 2);
        assert!(m.entry().result_shape().is_tuple());
    }

    #[test]
    fn constants_read_splats_hex_bits_and_raw_bytes() {
        let m = module(
            r#"func.func @main() -> (tensor<2xf32>, tensor<f32>, tensor<2xi16>) {
               %0 = stablehlo.constant dense<1.5> : tensor<2xf32>
               %1 = stablehlo.constant dense<0xFF800000> : tensor<f32>
               %2 = stablehlo.constant dense<"0x01000200"> : tensor<2xi16>
               return %0, %1, %2 : tensor<2xf32>, tensor<f32>, tensor<2xi16>
             }"#,
        );
        let text = smelt_hlo::print_module(&m);
        assert!(text.contains("constant({1.5, 1.5})"), "{text}");
        assert!(text.contains("constant(-inf)"), "{text}");
        assert!(text.contains("constant({1, 2})"), "{text}");
    }

    #[test]
    fn chlo_expansions_parse_and_verify() {
        // lgamma on f32 expands into elementwise HLO; bf16 computes in f32.
        let m = module(
            "func.func @main(%a: tensor<4xf32>, %b: tensor<4xbf16>) -> (tensor<4xf32>, tensor<4xbf16>) {
               %0 = chlo.lgamma %a : tensor<4xf32> -> tensor<4xf32>
               %1 = chlo.lgamma %b : tensor<4xbf16> -> tensor<4xbf16>
               return %0, %1 : tensor<4xf32>, tensor<4xbf16>
             }",
        );
        let ops = opcodes(&m);
        assert!(ops.contains(&Opcode::Log1p) && ops.contains(&Opcode::Sine) && ops.contains(&Opcode::Convert));
        // Two-operand and bit-level expansions, and a clear refusal where no reference exists.
        module(
            "func.func @main(%a: tensor<3xf64>, %b: tensor<3xf64>) -> tensor<3xf64> {
               %0 = chlo.next_after %a, %b : tensor<3xf64>, tensor<3xf64> -> tensor<3xf64>
               %1 = chlo.polygamma %0, %b : tensor<3xf64>, tensor<3xf64> -> tensor<3xf64>
               return %1 : tensor<3xf64>
             }",
        );
        let e = error(
            "func.func @main(%a: tensor<3xf64>) -> tensor<3xf64> {
               %0 = chlo.bessel_i1e %a : tensor<3xf64> -> tensor<3xf64>
               return %0 : tensor<3xf64>
             }",
        );
        assert!(e.2.contains("not supported for f64"), "{}", e.2);
    }

    #[test]
    fn approx_top_k_becomes_a_sort_by_its_comparator_and_slices() {
        let m = module(
            "func.func private @gt(%a: tensor<f32>, %b: tensor<f32>, %i: tensor<i32>, %j: tensor<i32>) -> tensor<i1> {
               %0 = stablehlo.compare GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
               return %0 : tensor<i1>
             }
             func.func public @main(%x: tensor<3x10xf32>, %i: tensor<3x10xi32>) -> (tensor<3x2xf32>, tensor<3x2xi32>) {
               %c = stablehlo.constant dense<-1> : tensor<i32>
               %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
               %0:2 = stablehlo.custom_call @ApproxTopK(%x, %i, %cst, %c) {called_computations = [@gt],
                 mhlo.backend_config = {aggregate_to_topk = true, reduction_dim = 1 : i64, top_k = 2 : i64}}
                 : (tensor<3x10xf32>, tensor<3x10xi32>, tensor<f32>, tensor<i32>) -> (tensor<3x2xf32>, tensor<3x2xi32>)
               return %0#0, %0#1 : tensor<3x2xf32>, tensor<3x2xi32>
             }",
        );
        let ops = opcodes(&m);
        assert!(ops.contains(&Opcode::Sort) && !ops.contains(&Opcode::CustomCall));
        assert_eq!(ops.iter().filter(|o| **o == Opcode::Slice).count(), 2);
    }

    #[test]
    fn errors_point_at_the_offending_place() {
        let head = "func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n";
        let cases = [
            ("  %0 = stablehlo.add %a, %b : tensor<4xf32>\n", (2, 26), "undefined value %b"),
            ("  %0 = stablehlo.add %a, %a : tensor<5xf32>\n", (2, 8), "does not match"),
            ("  %0 = stablehlo.frob %a : tensor<4xf32>\n", (2, 8), "unsupported operation"),
            ("  %0 = stablehlo.add %a, %a : tensor<4xf8E4M3FN>\n", (2, 40), "element type 'f8E4M3FN'"),
            ("  %0 = stablehlo.constant dense<[1.0, 2.0]> : tensor<4xf32>\n", (2, 27), "2 elements"),
            // A hex string with a character of several bytes: bad digits,
            // not a slice through the character.
            (
                "  %0 = stablehlo.constant dense<\"0x00000\u{e9}0000000000000000000000000\"> : tensor<4xf32>\n",
                (2, 33),
                "bad hex digit",
            ),
        ];
        for (body, (line, col), message) in cases {
            let src = format!("{head}{body}  return %0 : tensor<4xf32>\n}}\n");
            let (l, c, m) = error(&src);
            assert_eq!((l, c), (line, col), "{body}: {m}");
            assert!(m.contains(message), "{body}: {m}");
        }
        assert!(error("func.func @main(%a: tensor<?xf32>) {").2.contains("dynamic"));
        assert!(error("func.func private @f() -> () {\n  return\n}").2.contains("no entry function"));
        let deep = format!(
            "func.func @main() -> tensor<f32> {{ %0 = stablehlo.constant dense<{}1.0{}> : tensor<f32>",
            "[".repeat(200),
            "]".repeat(200)
        );
        assert!(error(&deep).2.contains("nesting deeper"));
    }
}
