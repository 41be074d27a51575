//! Loop kernels whose innermost dimension is split into pieces (concatenations,
//! pads, and both around a reduction), against the interpreter, bit for bit.

use super::*;

/// A module whose entry passes its parameters (`params`, each `name = type`)
/// to one loop fusion: the fused computation's `body`, whose root is of type `ty`.
fn loop_fusion(params: &[&str], ty: &str, body: &str) -> String {
    let decls: String = params.iter().enumerate().map(|(i, p)| format!("  {p} parameter({i})\n")).collect();
    let names: Vec<&str> = params.iter().map(|p| p.split(' ').next().unwrap_or_default()).collect();
    format!(
        "HloModule m\nfused {{\n{decls}{body}}}\nENTRY e {{\n{decls}  ROOT f = {ty} fusion({}), kind=kLoop, calls=fused\n}}\n",
        names.join(", ")
    )
}

#[test]
fn concatenations_and_pads_along_the_innermost_dimension() {
    let ab: &[&str] = &["a = f32[6,5]{1,0}", "b = f32[6,7]{1,0}"];
    let cases = [
        // Four gates side by side, each computed from its own operands.
        loop_fusion(
            ab,
            "f32[6,24]{1,0}",
            "  e = f32[6,5]{1,0} exponential(a)
  n = f32[6,7]{1,0} negate(b)
  ROOT c = f32[6,24]{1,0} concatenate(e, n, a, n), dimensions={1}
",
        ),
        // Padding on both sides with interior padding, then a concatenation.
        loop_fusion(
            ab,
            "f32[6,21]{1,0}",
            "  z = f32[] constant(-1)
  p = f32[6,14]{1,0} pad(a, z), padding=0_0x2_3_1
  ROOT c = f32[6,21]{1,0} concatenate(p, b), dimensions={1}
",
        ),
        // A slice at a dynamic offset beside a static one (clamped indices).
        loop_fusion(
            &[ab[0], ab[1], "i = s32[]"],
            "f32[6,8]{1,0}",
            "  z = s32[] constant(0)
  d = f32[6,3]{1,0} dynamic-slice(b, z, i), dynamic_slice_sizes={6,3}
  ROOT c = f32[6,8]{1,0} concatenate(d, a), dimensions={1}
",
        ),
    ];
    for hlo in &cases {
        let mut args = vec![inputs(DType::F32, &[6, 5], 1), inputs(DType::F32, &[6, 7], 2)];
        let starts: &[f64] = if hlo.contains("s32[] parameter(2)") { &[-2.0, 3.0, 9.0] } else { &[0.0] };
        for &start in starts {
            if starts.len() > 1 {
                args.truncate(2);
                args.push(array_of(DType::S32, &[], &[start]));
            }
            let program = check_hlo(hlo, &args, 1e-6);
            // The concatenation's dimension runs as one loop per piece.
            let ir = super::emit(&program, &CompileOptions::default(), crate::Emit::LlvmIr).unwrap();
            assert!(String::from_utf8_lossy(&ir).contains("d1.0"), "no pieces in\n{}", String::from_utf8_lossy(&ir));
        }
    }
}
