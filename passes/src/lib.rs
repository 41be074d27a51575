//! smelt's middle end: the passes that decide what backends emit.
//!
//! Passes rewrite an [`smelt_hlo::Module`] in place ([`pass::Pass`]); a
//! [`pass::Pipeline`] runs them with verification, timing, dumps and a disable list.
//! [`pipeline::default_pipeline`] is the whole middle end in one function. After
//! the pipeline, [`schedule`] orders each computation and [`buffer_assignment`]
//! places every value; both are artifacts beside the module, not rewrites of it.
//! Backends tune the pipeline through [`options::Options`] (data), not by forking it.

pub mod algebraic_simplifier;
pub mod autodiff;
pub mod buffer_assignment;
pub mod complex_lowering;
pub mod concat_sinking;
pub mod constant_folding;
pub mod conv_phases;
pub mod conv_to_dot;
pub mod cse;
pub mod dce;
pub mod dot_canonicalizer;
pub mod fusion;
pub mod fusion_cost;
pub mod inline;
pub mod lookup_tables;
pub mod options;
pub mod pass;
pub mod pipeline;
pub mod quantized_products;
pub mod reduced_dims_grouping;
pub mod report;
pub mod reshape_mover;
pub mod rewrite;
pub mod schedule;
pub mod topk_decomposer;
pub mod tuple_simplifier;
pub mod while_loop_simplifier;

pub use autodiff::grad;
pub use options::{FusionConfig, Options};
pub use pass::{FixedPoint, Pass, PassContext, PassError, Pipeline};
pub use pipeline::{default_pipeline, pass_by_name};
