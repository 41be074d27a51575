//! XLA's HLO text format: parser and canonical printer.
//!
//! The grammar as implemented is documented in `docs/hlo-text.md`.

mod parser;
mod printer;

pub use parser::{ParseError, parse_module, parse_shape};
pub use printer::{
    DIGEST_OVER_ELEMENTS, PrintOptions, dims_text, print_computation, print_instruction, print_module,
    print_module_with,
};
