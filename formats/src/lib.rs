//! Module file formats beyond HLO text.
//!
//! Users hold programs in three forms: XLA's HLO text (read by
//! `smelt_hlo::text`), XLA's serialized `HloModuleProto` (what XLA's dumps and
//! TensorFlow's tooling write) and StableHLO MLIR text (what
//! `jax.jit(f).lower(x).as_text()` prints). This crate reads the latter two into
//! the same [`smelt_hlo::Module`] the text parser builds, so every later stage
//! (verifier, passes, backends) sees one IR, and writes the proto form back.
//! It sits at a leaf of the workspace: the protobuf machinery stays out of
//! `smelt-hlo`.
//!
//! [`proto`] reads and writes `HloModuleProto` (and reads the `HloProto` and
//! `HloSnapshot` wrappers XLA dumps); the protobuf types are generated at build
//! time from `proto/hlo.proto` by prost, with protox parsing the schema, so
//! building needs no `protoc`. [`stablehlo`] reads StableHLO text.
//! [`read_module`] reads any of the three, in a named format or the one
//! [`Format::detect`] finds.

pub mod proto;
pub mod stablehlo;

pub use proto::{ProtoError, read_proto, write_proto};

pub use stablehlo::parse_stablehlo;

use smelt_hlo::{Module, ParseError};

/// A module file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// XLA's HLO text (`HloModule name ...`).
    HloText,
    /// A serialized `xla.HloModuleProto` (or an `HloProto` / `HloSnapshot` around one).
    HloProto,
    /// StableHLO MLIR text.
    StableHlo,
}

impl Format {
    pub const ALL: [Format; 3] = [Format::HloText, Format::HloProto, Format::StableHlo];

    /// The name users type after `--format`.
    pub fn name(self) -> &'static str {
        match self {
            Format::HloText => "hlo",
            Format::HloProto => "proto",
            Format::StableHlo => "stablehlo",
        }
    }

    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.name() == name)
    }

    /// Which format `bytes` holds, from the content alone: text beginning with
    /// `HloModule` is HLO, text with MLIR's `module`/`func.func` is StableHLO, and
    /// anything that is not plain text is taken for a protobuf.
    pub fn detect(bytes: &[u8]) -> Format {
        let Ok(text) = std::str::from_utf8(bytes) else { return Format::HloProto };
        if text.chars().any(|c| c.is_control() && !c.is_whitespace()) {
            return Format::HloProto;
        }
        let body = skip_comments(text);
        if body.starts_with("HloModule") {
            Format::HloText
        } else if body.starts_with("module") || body.starts_with("func.func") || body.starts_with("#loc") {
            Format::StableHlo
        } else if text.contains("HloModule") {
            Format::HloText
        } else if text.contains("func.func") {
            Format::StableHlo
        } else {
            Format::HloText
        }
    }
}

/// `text` after leading whitespace and `//` comment lines.
fn skip_comments(mut text: &str) -> &str {
    loop {
        text = text.trim_start();
        match text.strip_prefix("//") {
            Some(rest) => text = rest.split_once('\n').map_or("", |(_, r)| r),
            None => return text,
        }
    }
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a module file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// HLO or StableHLO text with a syntax, name or shape error at a `line:col`.
    #[error("{0}")]
    Text(#[from] ParseError),
    #[error("{0} text is not UTF-8 (is it a binary HloModuleProto? try --format proto)")]
    NotUtf8(Format),
    #[error("{0}")]
    Proto(#[from] ProtoError),
}

impl ReadError {
    /// The message with `file:` in front, and for text errors the source line
    /// and a caret under the column.
    pub fn render(&self, file: &str) -> String {
        match self {
            ReadError::Text(e) => e.render(file),
            other => format!("{file}: {other}"),
        }
    }
}

/// Reads a module in `format`, or in the format [`Format::detect`] finds.
pub fn read_module(bytes: &[u8], format: Option<Format>) -> Result<Module, ReadError> {
    let format = format.unwrap_or_else(|| Format::detect(bytes));
    let text = || std::str::from_utf8(bytes).map_err(|_| ReadError::NotUtf8(format));
    match format {
        Format::HloText => Ok(smelt_hlo::parse_module(text()?)?),
        Format::StableHlo => Ok(parse_stablehlo(text()?)?),
        Format::HloProto => Ok(read_proto(bytes)?),
    }
}
