//! The default pipeline: the whole middle end on one screen.

use crate::algebraic_simplifier::AlgebraicSimplifier;
use crate::complex_lowering::ComplexLowering;
use crate::concat_sinking::ConcatSinking;
use crate::constant_folding::ConstantFolding;
use crate::conv_phases::ConvPhases;
use crate::conv_to_dot::ConvToDot;
use crate::cse::Cse;
use crate::dce::Dce;
use crate::dot_canonicalizer::DotCanonicalizer;
use crate::fusion::Fusion;
use crate::inline::CallInliner;
use crate::lookup_tables::LookupTables;
use crate::options::Options;
use crate::pass::{FixedPoint, Pass, Pipeline};
use crate::quantized_products::QuantizedProducts;
use crate::reduced_dims_grouping::ReducedDimsGrouping;
use crate::reshape_mover::ReshapeMover;
use crate::topk_decomposer::TopkDecomposer;
use crate::tuple_simplifier::TupleSimplifier;
use crate::while_loop_simplifier::WhileLoopSimplifier;

/// Store complex values as their parts, inline calls, decompose `topk` into a sort, simplify to a fixed point,
/// turn 1x1 convolutions into dots, put dots in canonical form, split convolutions over a dilated base by output
/// phase, merge neighbouring reduced dimensions, move elementwise operations above
/// the concatenations they read, then fuse as
/// `options.fusion` allows (a backend's capabilities). (The simplifier would
/// fold the canonicalizer's transposes back into the dots, so it does not run
/// after it.)
pub fn default_pipeline(options: &Options) -> Pipeline {
    let simplify = Pipeline::new("simplify")
        .with(AlgebraicSimplifier)
        .with(ConstantFolding)
        .with(ReshapeMover)
        .with(TupleSimplifier)
        .with(WhileLoopSimplifier)
        .with(Cse)
        .with(Dce);
    Pipeline::new("default")
        .with(ComplexLowering)
        .with(CallInliner)
        .with(TopkDecomposer)
        .with(QuantizedProducts { u8s8: options.u8s8_products })
        .with(FixedPoint::new("simplify-fixpoint", simplify, 8))
        .with(LookupTables)
        .with(ConvToDot)
        .with(DotCanonicalizer)
        .with(ConvPhases)
        .with(ReducedDimsGrouping)
        .with(ConcatSinking)
        .with(Cse)
        .with(Dce)
        .with(Fusion::new(options.fusion.clone()))
}

/// Every pass on its own, in its default configuration: what `pass_by_name`
/// looks names up in.
fn every_pass() -> [Box<dyn Pass>; 18] {
    [
        Box::new(AlgebraicSimplifier),
        Box::new(CallInliner),
        Box::new(ComplexLowering),
        Box::new(ConcatSinking),
        Box::new(ConstantFolding),
        Box::new(ConvPhases),
        Box::new(ConvToDot),
        Box::new(Cse),
        Box::new(Dce),
        Box::new(DotCanonicalizer),
        Box::new(QuantizedProducts::default()),
        Box::new(ReducedDimsGrouping),
        Box::new(LookupTables),
        Box::new(Fusion::default()),
        Box::new(ReshapeMover),
        Box::new(TopkDecomposer),
        Box::new(TupleSimplifier),
        Box::new(WhileLoopSimplifier),
    ]
}

/// The names `pass_by_name` knows, sorted.
pub fn pass_names() -> Vec<&'static str> {
    every_pass().iter().map(|p| p.name()).collect()
}

/// A single pass by name, for tests and `--disable-pass` validation.
pub fn pass_by_name(name: &str) -> Option<Box<dyn Pass>> {
    every_pass().into_iter().find(|p| p.name() == name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::PassContext;

    /// The pipeline fuses what the options allow: a dot's relu epilogue joins
    /// the dot in an output fusion only when the backend runs epilogues.
    #[test]
    fn fusion_follows_the_options() {
        let text = "HloModule m\nENTRY e {\n  a = f32[4,3] parameter(0)\n  b = f32[3,5] parameter(1)\n  \
            d = f32[4,5] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n  \
            z = f32[] constant(0)\n  zb = f32[4,5] broadcast(z), dimensions={}\n  \
            ROOT r = f32[4,5] maximum(d, zb)\n}\n";
        let optimized = |options: Options| {
            let mut m = smelt_hlo::parse_module(text).unwrap();
            default_pipeline(&options).run_on(&mut m, &mut PassContext::new(Options::default())).unwrap();
            smelt_hlo::print_module(&m)
        };
        assert!(optimized(Options::default()).contains("kind=kOutput"));
        let mut no_epilogues = Options::default();
        no_epilogues.fusion.dot_epilogue = false;
        let text = optimized(no_epilogues);
        assert!(!text.contains("kind=kOutput"), "{text}");
    }
}
