//! Cache keys: what makes two compilations interchangeable.
//!
//! A module's *canonical text* is the canonical printer's output for a copy of
//! it with every name replaced by its position (computations in the printer's
//! order, instructions in post order, the module itself `m`) and the tooling
//! attributes left out (`metadata`, `backend_config`, `frontend_attributes`,
//! `sharding`, attributes smelt does not model on the module line): none of
//! those change what a module computes, and JAX and TensorFlow change them
//! from one trace to the next. Constants of more than
//! `smelt_hlo::text::DIGEST_OVER_ELEMENTS` elements appear as a BLAKE3 digest
//! of their bytes, so keying a model costs a hash of its weights, not a
//! decimal rendering of each (that was most of an ONNX import's run). The same program with other names or metadata
//! therefore has the same canonical text; a reordering of independent lines in
//! the source text does not (instructions are numbered in post order, which
//! follows source order among independent instructions), and costs one extra
//! compilation at most.
//!
//! The [`Key`] of a compilation hashes (BLAKE3) the smelt version and build
//! (a hash of the compiler's sources, from `build.rs`: a rebuilt smelt of the
//! same version never reuses an older compiler's code), the backend, the options that change code, the host target (triple, CPU and
//! LLVM's feature string: compiled code is only valid where those match), the
//! flattened argument types and the canonical text. The *family* of a module
//! ([`family_of`]) is the canonical text with the array dimensions erased: one
//! program traced at several shapes is one family, which is what the
//! recompilation policy counts (see `policy`).

use std::fmt;
use std::sync::OnceLock;

use smelt_hlo::text::{PrintOptions, print_module_with};
use smelt_hlo::{DType, Literal, Module, Shape};

/// A 32-byte BLAKE3 fingerprint.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Key(pub [u8; 32]);

impl Key {
    /// Lower-case hex, 64 digits (cache file names).
    pub fn hex(&self) -> String {
        self.0.iter().map(|b| format!("{b:02x}")).collect()
    }
}

impl fmt::Debug for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Key({})", &self.hex()[..16])
    }
}

/// One flattened argument's element type and dimensions: the kernel form's
/// array type, which compiled executables check arguments against.
pub use smelt_kernel::ArrayType as ArgType;

/// The flattened argument types of a module's entry computation: its
/// *signature* (a complex parameter is passed as its parts, `c64[3]` as
/// `f32[3,2]`: `smelt_hlo::complex`).
pub fn signature(module: &Module) -> Vec<ArgType> {
    fn walk(s: &Shape, out: &mut Vec<ArgType>) {
        match s {
            Shape::Array(a) => {
                let a = a.storage();
                out.push(ArgType { dtype: a.dtype, dims: a.dims.to_vec() })
            }
            Shape::Tuple(t) => t.iter().for_each(|e| walk(e, out)),
        }
    }
    let mut out = Vec::new();
    for s in module.entry().param_shapes() {
        walk(&s, &mut out);
    }
    out
}

/// The module's text with names replaced by positions and tooling attributes
/// left out (see the module comment).
pub fn canonical_text(module: &Module) -> String {
    let mut m = module.clone();
    m.name = "m".into();
    m.config.unknown.clear();
    for (n, cid) in m.computation_post_order().into_iter().enumerate() {
        let comp = m.comp_mut(cid);
        comp.name = format!("c{n}");
        for (k, id) in comp.post_order().into_iter().enumerate() {
            let inst = comp.inst_mut(id);
            inst.name = format!("i{k}");
            let e = &mut inst.extras;
            e.metadata = None;
            e.backend_config = None;
            e.frontend_attributes = None;
            e.sharding = None;
        }
    }
    print_module_with(&m, PrintOptions { skip_tooling_attributes: true, constant_digest: Some(constant_digest) })
}

/// A large constant in canonical text: `blake3:` and the digest of its shape
/// and little-endian bytes (weights are hashed, not printed in decimal).
fn constant_digest(lit: &Literal) -> String {
    fn feed(h: &mut blake3::Hasher, lit: &Literal) {
        match lit {
            Literal::Array(a) => {
                h.update(a.shape().to_string().as_bytes());
                h.update(b"=");
                h.update(&a.data.to_le_bytes());
            }
            Literal::Tuple(t) => {
                h.update(b"(");
                t.iter().for_each(|e| feed(h, e));
                h.update(b")");
            }
        }
    }
    let mut h = blake3::Hasher::new();
    feed(&mut h, lit);
    format!("blake3:{}", h.finalize().to_hex())
}

/// `text` with the dimensions and layouts of every shape erased: `f32[4,8]{1,0}`
/// becomes `f32[]`.
pub fn erase_shapes(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let mut copied = 0;
    while i < b.len() {
        let word_start = i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_' || b[i - 1] == b'.');
        if word_start && b[i].is_ascii_alphabetic() {
            let mut j = i;
            while j < b.len() && b[j].is_ascii_alphanumeric() {
                j += 1;
            }
            if j < b.len() && b[j] == b'[' && text[i..j].parse::<DType>().is_ok() {
                let Some(close) = text[j..].find(']') else { break };
                out.push_str(&text[copied..=j]);
                let mut k = j + close + 1;
                if k < b.len() && b[k] == b'{' {
                    k = text[k..].find('}').map_or(b.len(), |c| k + c + 1);
                }
                out.push(']');
                copied = k;
                i = k;
                continue;
            }
            i = j;
            continue;
        }
        i += 1;
    }
    out.push_str(&text[copied.min(text.len())..]);
    out
}

/// The program family: a hash of the canonical text with shapes erased.
pub fn family_of(canonical: &str) -> Key {
    Key(*blake3::hash(erase_shapes(canonical).as_bytes()).as_bytes())
}

/// The host as compiled code depends on it (computed once per process).
pub fn host_target() -> &'static str {
    static HOST: OnceLock<String> = OnceLock::new();
    HOST.get_or_init(smelt_cpu::host_target)
}

/// The cache key of compiling a module whose canonical text is `canonical`,
/// with signature `sig`, for a backend and code-changing options described by
/// `config`.
pub fn cache_key(canonical: &str, sig: &[ArgType], config: &str) -> Key {
    let mut h = blake3::Hasher::new();
    h.update(b"smelt-jit\0");
    h.update(env!("CARGO_PKG_VERSION").as_bytes());
    h.update(b"\0");
    h.update(env!("SMELT_BUILD_ID").as_bytes());
    h.update(b"\0");
    h.update(config.as_bytes());
    h.update(b"\0");
    h.update(host_target().as_bytes());
    h.update(b"\0");
    for a in sig {
        h.update(a.to_string().as_bytes());
        h.update(b";");
    }
    h.update(b"\0");
    h.update(canonical.as_bytes());
    Key(*h.finalize().as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn large_constants_are_keyed_by_their_bytes() {
        let module = |last: &str| {
            let values: Vec<String> = (0..99).map(|i| format!("{i}.5")).chain([last.to_string()]).collect();
            let text = format!(
                "HloModule m\nENTRY e {{\n  c = f32[100] constant({{{}}})\n  ROOT n = f32[100] negate(c)\n}}\n",
                values.join(", ")
            );
            canonical_text(&smelt_hlo::parse_module(&text).unwrap())
        };
        let (a, again, other) = (module("7"), module("7.0"), module("7.25"));
        assert!(a.contains("constant(blake3:") && !a.contains("98.5"), "{a}");
        assert_eq!(a, again, "the same values must give the same key");
        assert_ne!(a, other, "one changed element must change the key");
    }

    #[test]
    fn erase_shapes_drops_dims_and_layouts() {
        let t = "ENTRY c0 {\n  i0 = f32[4,8]{1,0} parameter(0)\n  i1 = (s32[], bf16[2]{0}) tuple(i0)\n  x = xf32[3]\n}";
        assert_eq!(
            erase_shapes(t),
            "ENTRY c0 {\n  i0 = f32[] parameter(0)\n  i1 = (s32[], bf16[]) tuple(i0)\n  x = xf32[3]\n}"
        );
    }
}
