//! The default pipeline: the whole middle end on one screen.

use crate::algebraic_simplifier::AlgebraicSimplifier;
use crate::constant_folding::ConstantFolding;
use crate::cse::Cse;
use crate::dce::Dce;
use crate::dot_canonicalizer::DotCanonicalizer;
use crate::fusion::Fusion;
use crate::inline::CallInliner;
use crate::options::Options;
use crate::pass::{FixedPoint, Pass, Pipeline};
use crate::reshape_mover::ReshapeMover;
use crate::tuple_simplifier::TupleSimplifier;
use crate::while_loop_simplifier::WhileLoopSimplifier;

/// Inline calls, simplify to a fixed point, put dots in canonical form, then fuse.
/// (The simplifier would fold the canonicalizer's transposes back into the dots, so
/// it does not run after it.)
pub fn default_pipeline(_options: &Options) -> Pipeline {
    let simplify = Pipeline::new("simplify")
        .with(AlgebraicSimplifier)
        .with(ConstantFolding)
        .with(ReshapeMover)
        .with(TupleSimplifier)
        .with(WhileLoopSimplifier)
        .with(Cse)
        .with(Dce);
    Pipeline::new("default")
        .with(CallInliner)
        .with(FixedPoint::new("simplify-fixpoint", simplify, 8))
        .with(DotCanonicalizer)
        .with(Cse)
        .with(Dce)
        .with(Fusion)
}

/// Names of every pass `pass_by_name` knows.
pub const PASS_NAMES: &[&str] = &[
    "algebraic-simplifier",
    "call-inliner",
    "constant-folding",
    "cse",
    "dce",
    "dot-canonicalizer",
    "fusion",
    "reshape-mover",
    "tuple-simplifier",
    "while-loop-simplifier",
];

/// A single pass by name, for tests and `--disable-pass` validation.
pub fn pass_by_name(name: &str) -> Option<Box<dyn Pass>> {
    Some(match name {
        "algebraic-simplifier" => Box::new(AlgebraicSimplifier),
        "reshape-mover" => Box::new(ReshapeMover),
        "while-loop-simplifier" => Box::new(WhileLoopSimplifier),
        "dot-canonicalizer" => Box::new(DotCanonicalizer),
        "cse" => Box::new(Cse),
        "dce" => Box::new(Dce),
        "fusion" => Box::new(Fusion),
        "call-inliner" => Box::new(CallInliner),
        "tuple-simplifier" => Box::new(TupleSimplifier),
        "constant-folding" => Box::new(ConstantFolding),
        _ => return None,
    })
}
