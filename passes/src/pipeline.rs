//! The default pipeline: the whole middle end on one screen.

use crate::constant_folding::ConstantFolding;
use crate::cse::Cse;
use crate::dce::Dce;
use crate::fusion::Fusion;
use crate::inline::CallInliner;
use crate::options::Options;
use crate::pass::{FixedPoint, Pass, Pipeline};
use crate::tuple_simplifier::TupleSimplifier;

/// Simplify to a fixed point, then fuse.
pub fn default_pipeline(_options: &Options) -> Pipeline {
    let simplify = Pipeline::new("simplify").with(ConstantFolding).with(TupleSimplifier).with(Cse).with(Dce);
    Pipeline::new("default").with(CallInliner).with(FixedPoint::new("simplify-fixpoint", simplify, 8)).with(Fusion)
}

/// Names of every pass `pass_by_name` knows.
pub const PASS_NAMES: &[&str] = &["call-inliner", "constant-folding", "cse", "dce", "fusion", "tuple-simplifier"];

/// A single pass by name, for tests and `--disable-pass` validation.
pub fn pass_by_name(name: &str) -> Option<Box<dyn Pass>> {
    Some(match name {
        "cse" => Box::new(Cse),
        "dce" => Box::new(Dce),
        "fusion" => Box::new(Fusion),
        "call-inliner" => Box::new(CallInliner),
        "tuple-simplifier" => Box::new(TupleSimplifier),
        "constant-folding" => Box::new(ConstantFolding),
        _ => return None,
    })
}
