//! Compile time grows about linearly with the program: an elementwise chain
//! and an unrolled stack of identical layers, each at two sizes 8x apart,
//! compiled through the CPU backend. The test asserts the ratio of the
//! times (the best of three each) less the time of the smallest program of
//! the kind (what every compilation costs: LLVM's setup, the runtime),
//! never a wall-clock limit: linear growth is 8x, quadratic 64x, and the
//! bound, 24x, leaves room for a noisy machine.

use std::fmt::Write;
use std::time::Instant;

use smelt::engine::{Compiled, Pipeline};

const GROWTH: usize = 8;
const MAX_RATIO: f64 = 24.0;

/// `n` dependent elementwise operations on a vector, none of which the
/// simplifier removes.
fn chain(n: usize) -> String {
    let ops = ["add", "multiply", "subtract", "maximum"];
    let mut s =
        String::from("HloModule chain\n\nENTRY main {\n  v0 = f32[64] parameter(0)\n  p = f32[64] parameter(1)\n");
    for i in 0..n {
        let _ = writeln!(s, "  v{} = f32[64] {}(v{i}, p)", i + 1, ops[i % ops.len()]);
    }
    let _ = writeln!(s, "  ROOT r = f32[64] negate(v{n})\n}}");
    s
}

/// `layers` identical layers: a product with a bias, tanh, and the row mean
/// subtracted, as an unrolled network is emitted.
fn layers(layers: usize) -> String {
    let mut s = String::from(
        "HloModule layers\n\nadd {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT s = f32[] add(a, b)\n}\n\n\
         ENTRY main {\n  x0 = f32[16,32] parameter(0)\n  w = f32[32,32] parameter(1)\n  b = f32[32] parameter(2)\n  \
         zero = f32[] constant(0)\n  k = f32[] constant(0.03125)\n  kb = f32[16] broadcast(k), dimensions={}\n",
    );
    for i in 0..layers {
        let _ = write!(
            s,
            "  d{i} = f32[16,32] dot(x{i}, w), lhs_contracting_dims={{1}}, rhs_contracting_dims={{0}}\n  \
             bb{i} = f32[16,32] broadcast(b), dimensions={{1}}\n  a{i} = f32[16,32] add(d{i}, bb{i})\n  \
             t{i} = f32[16,32] tanh(a{i})\n  s{i} = f32[16] reduce(t{i}, zero), dimensions={{1}}, to_apply=add\n  \
             m{i} = f32[16] multiply(s{i}, kb)\n  mb{i} = f32[16,32] broadcast(m{i}), dimensions={{0}}\n  \
             x{} = f32[16,32] subtract(t{i}, mb{i})\n",
            i + 1
        );
    }
    let _ = writeln!(s, "  ROOT r = f32[16,32] copy(x{layers})\n}}");
    s
}

/// Seconds to parse, optimize and compile `text` for the CPU, the best of three.
fn compile_s(text: &str) -> f64 {
    (0..3)
        .map(|_| {
            let t = Instant::now();
            let module = smelt_hlo::parse_module(text).unwrap_or_else(|e| panic!("{e}"));
            Compiled::new(module, "cpu", Pipeline::Default).unwrap_or_else(|e| panic!("{e}"));
            t.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

fn assert_about_linear(what: &str, make: fn(usize) -> String, small: usize) {
    let base = compile_s(&make(1));
    let (a, b) = (compile_s(&make(small)), compile_s(&make(small * GROWTH)));
    let ratio = (b - base).max(0.0) / (a - base).max(1e-3);
    eprintln!(
        "{what}: 1 in {:.1} ms, {small} in {:.1} ms, {} in {:.1} ms: {ratio:.1}x beyond the first",
        base * 1e3,
        a * 1e3,
        small * GROWTH,
        b * 1e3
    );
    assert!(ratio <= MAX_RATIO, "{what}: {GROWTH}x the size took {ratio:.1}x the time ({a:.3} s -> {b:.3} s)");
}

#[test]
fn compile_time_of_a_long_elementwise_chain_grows_about_linearly() {
    assert_about_linear("elementwise chain", chain, 2000);
}

#[test]
fn compile_time_of_identical_layers_grows_about_linearly() {
    assert_about_linear("unrolled layers", layers, 32);
}

/// `n` reductions, each with its own reducer region, summed: StableHLO as JAX
/// prints a program with many reductions.
fn stablehlo_regions(n: usize) -> String {
    let mut s = String::from(
        "func.func @main(%x: tensor<16xf32>) -> tensor<f32> {\n  %z = stablehlo.constant dense<0.0> : tensor<f32>\n  \
         %r0 = stablehlo.constant dense<0.0> : tensor<f32>\n",
    );
    for i in 1..=n {
        let _ = write!(
            s,
            "  %s{i} = stablehlo.reduce(%x init: %z) across dimensions = [0] : (tensor<16xf32>, tensor<f32>) -> tensor<f32>\n   \
             reducer(%a: tensor<f32>, %b: tensor<f32>) {{\n    %t = stablehlo.add %a, %b : tensor<f32>\n    \
             stablehlo.return %t : tensor<f32>\n  }}\n  %r{i} = stablehlo.add %r{}, %s{i} : tensor<f32>\n",
            i - 1
        );
    }
    let _ = writeln!(s, "  return %r{n} : tensor<f32>\n}}");
    s
}

/// Importing StableHLO grows about linearly with the program, regions included
/// (each becomes a computation with its own name), by the same ratio rule.
#[test]
fn stablehlo_import_time_grows_about_linearly() {
    let import_s = |text: &str| {
        (0..3)
            .map(|_| {
                let t = Instant::now();
                smelt::formats::parse_stablehlo(text).unwrap_or_else(|e| panic!("{e}"));
                t.elapsed().as_secs_f64()
            })
            .fold(f64::INFINITY, f64::min)
    };
    let (small, large) = (stablehlo_regions(500), stablehlo_regions(500 * GROWTH));
    let ratio = import_s(&large) / import_s(&small);
    eprintln!("stablehlo import: {GROWTH}x the regions took {ratio:.1}x the time");
    assert!(ratio < MAX_RATIO, "importing {GROWTH}x the regions took {ratio:.1}x the time");
}
