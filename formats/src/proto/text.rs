//! The text forms of proto fields that smelt keeps as text.
//!
//! [`Extras`](smelt_hlo::Extras) and custom-call attributes hold attribute
//! values as XLA's text printer writes them (`metadata={op_name="..."}`,
//! `frontend_attributes={k="v"}`, `operand_precision={highest,highest}`, ...).
//! Each `*_text` function renders a proto field exactly as XLA prints it, so a
//! module read from a proto prints like XLA's own text dump of it; each
//! `parse_*` function reads such text back for the writer, leniently: text it
//! cannot read yields what it could read, since writing never fails.

use std::collections::BTreeMap;

use smelt_hlo::attrs::Braced;

use super::xla::{
    CustomCallApiVersion, CustomCallSchedule, OpMetadata, OpSharding, OutputOperandAliasing, op_sharding,
    precision_config::Precision,
};

/// Escapes like absl's `CEscape`: `\n \r \t \" \' \\`, and every other byte
/// outside printable ASCII as three octal digits.
pub fn c_escape(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for &b in bytes {
        match b {
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            b'"' => out.push_str("\\\""),
            b'\'' => out.push_str("\\'"),
            b'\\' => out.push_str("\\\\"),
            0x20..=0x7e => out.push(b as char),
            _ => out.push_str(&format!("\\{b:03o}")),
        }
    }
    out
}

/// Undoes [`c_escape`] (and `\xHH`); an unknown escape stands for its character.
pub fn c_unescape(s: &str) -> Vec<u8> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' || i + 1 == b.len() {
            out.push(b[i]);
            i += 1;
            continue;
        }
        i += 1;
        match b[i] {
            b'n' => out.push(b'\n'),
            b'r' => out.push(b'\r'),
            b't' => out.push(b'\t'),
            b'0'..=b'7' => {
                let mut v = 0u32;
                let mut n = 0;
                while n < 3 && i < b.len() && (b'0'..=b'7').contains(&b[i]) {
                    v = v * 8 + u32::from(b[i] - b'0');
                    i += 1;
                    n += 1;
                }
                out.push(v as u8);
                continue;
            }
            b'x' if b.get(i + 1..i + 3).is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit)) => {
                let hex = std::str::from_utf8(&b[i + 1..i + 3]).unwrap_or("0");
                out.push(u8::from_str_radix(hex, 16).unwrap_or(0));
                i += 3;
                continue;
            }
            c => out.push(c),
        }
        i += 1;
    }
    out
}

fn unescape_string(s: &str) -> String {
    String::from_utf8_lossy(&c_unescape(s)).into_owned()
}

/// Whether XLA's lexer reads `s` as one braced value (`{...}` with balanced
/// braces outside strings and nothing after it), as its `LexesAsJsonDict`
/// decides whether a backend config prints bare or quoted.
pub fn lexes_as_dict(s: &str) -> bool {
    let s = s.trim_start();
    s.starts_with('{') && braced_prefix(s).is_some_and(|(_, rest)| rest.bytes().all(|c| c.is_ascii_whitespace()))
}

/// A quoted string value at the start of `s` (after `"`): its unescaped text
/// and the rest after the closing quote.
fn quoted_prefix(s: &str) -> Option<(String, &str)> {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'"' => return Some((unescape_string(&s[..i]), &s[i + 1..])),
            _ => i += 1,
        }
    }
    None
}

/// A balanced braced value at the start of `s`: the value and the rest.
fn braced_prefix(s: &str) -> Option<(&str, &str)> {
    let b = s.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    if b[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
            }
            b'{' => depth += 1,
            b'}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Some((&s[..=i], &s[i + 1..]));
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

// ---- metadata -------------------------------------------------------------

/// The inside of `metadata={...}`, or `None` when XLA prints no metadata.
pub fn metadata_text(m: &OpMetadata) -> Option<String> {
    let mut parts = Vec::new();
    let quoted = |key: &str, v: &str| format!("{key}=\"{}\"", c_escape(v.as_bytes()));
    if !m.op_type.is_empty() {
        parts.push(quoted("op_type", &m.op_type));
    }
    if !m.op_name.is_empty() {
        parts.push(quoted("op_name", &m.op_name));
    }
    if !m.source_file.is_empty() {
        parts.push(quoted("source_file", &m.source_file));
    }
    for (key, v) in [
        ("source_line", m.source_line),
        ("source_end_line", m.source_end_line),
        ("source_column", m.source_column),
        ("source_end_column", m.source_end_column),
    ] {
        if v != 0 {
            parts.push(format!("{key}={v}"));
        }
    }
    if !m.deduplicated_name.is_empty() {
        parts.push(quoted("deduplicated_name", &m.deduplicated_name));
    }
    if !m.scheduling_name.is_empty() {
        parts.push(format!("scheduling_name=\"{}\"", m.scheduling_name));
    }
    if m.stack_frame_id != 0 {
        parts.push(format!("stack_frame_id={}", m.stack_frame_id));
    }
    (!parts.is_empty()).then(|| parts.join(" "))
}

/// Reads [`metadata_text`]'s form; keys it does not know are skipped.
pub fn parse_metadata(text: &str) -> OpMetadata {
    let mut m = OpMetadata::default();
    let mut rest = text.trim();
    while let Some((key, after)) = rest.split_once('=') {
        let key = key.trim();
        let after = after.trim_start();
        let (string, int, next) = if let Some(q) = after.strip_prefix('"') {
            match quoted_prefix(q) {
                Some((v, next)) => (Some(v), None, next),
                None => break,
            }
        } else if after.starts_with('{') {
            match braced_prefix(after) {
                Some((_, next)) => (None, None, next),
                None => break,
            }
        } else {
            let end = after.find(char::is_whitespace).unwrap_or(after.len());
            (None, after[..end].parse::<i32>().ok(), &after[end..])
        };
        match (key, string, int) {
            ("op_type", Some(v), _) => m.op_type = v,
            ("op_name", Some(v), _) => m.op_name = v,
            ("source_file", Some(v), _) => m.source_file = v,
            ("deduplicated_name", Some(v), _) => m.deduplicated_name = v,
            ("scheduling_name", Some(v), _) => m.scheduling_name = v,
            ("source_line", _, Some(v)) => m.source_line = v,
            ("source_end_line", _, Some(v)) => m.source_end_line = v,
            ("source_column", _, Some(v)) => m.source_column = v,
            ("source_end_column", _, Some(v)) => m.source_end_column = v,
            ("stack_frame_id", _, Some(v)) => m.stack_frame_id = v,
            _ => {}
        }
        rest = next.trim_start();
    }
    m
}

// ---- backend config and frontend attributes --------------------------------

/// The value of `backend_config=`: bare when it is a braced value, else quoted.
pub fn backend_config_text(bytes: &[u8]) -> Option<String> {
    if bytes.is_empty() {
        return None;
    }
    match std::str::from_utf8(bytes) {
        Ok(s) if lexes_as_dict(s) => Some(s.to_string()),
        _ => Some(format!("\"{}\"", c_escape(bytes))),
    }
}

pub fn parse_backend_config(text: &str) -> Vec<u8> {
    match text.strip_prefix('"').and_then(|t| t.strip_suffix('"')) {
        Some(inner) => c_unescape(inner),
        None => text.as_bytes().to_vec(),
    }
}

/// The value of `frontend_attributes=`, keys sorted; `None` when empty.
pub fn frontend_attributes_text(map: &BTreeMap<String, String>) -> Option<String> {
    if map.is_empty() {
        return None;
    }
    let items: Vec<String> =
        map.iter().map(|(k, v)| if lexes_as_dict(v) { format!("{k}={v}") } else { format!("{k}=\"{v}\"") }).collect();
    Some(format!("{{{}}}", items.join(",")))
}

pub fn parse_frontend_attributes(text: &str) -> BTreeMap<String, String> {
    let mut map = BTreeMap::new();
    let Some(mut rest) = text.trim().strip_prefix('{') else { return map };
    loop {
        rest = rest.trim_start().trim_start_matches(',').trim_start();
        let Some((key, after)) = rest.split_once('=') else { break };
        let after = after.trim_start();
        let (value, next) = if let Some(q) = after.strip_prefix('"') {
            match quoted_prefix(q) {
                Some(v) => v,
                None => break,
            }
        } else {
            match braced_prefix(after) {
                Some((v, next)) => (v.to_string(), next),
                None => break,
            }
        };
        map.insert(key.trim().to_string(), value);
        rest = next;
    }
    map
}

// ---- op-specific attributes smelt keeps as text ------------------------------

/// `{highest,default}`, or `None` when every operand has the default precision
/// (XLA prints nothing then).
pub fn precision_text(precisions: &[i32]) -> Option<String> {
    if precisions.iter().all(|&p| p == Precision::Default as i32) {
        return None;
    }
    let names: Vec<String> = precisions
        .iter()
        .map(|&p| Precision::try_from(p).map_or_else(|_| p.to_string(), |p| p.as_str_name().to_ascii_lowercase()))
        .collect();
    Some(format!("{{{}}}", names.join(",")))
}

pub fn parse_precision(text: &str) -> Vec<i32> {
    let inner = text.trim().trim_start_matches('{').trim_end_matches('}');
    inner
        .split(',')
        .filter(|s| !s.trim().is_empty())
        .map(|s| Precision::from_str_name(&s.trim().to_ascii_uppercase()).map_or(0, |p| p as i32))
        .collect()
}

/// `{{0}: (0, {}), {1}: (2, {0})}`.
pub fn aliasing_text(pairs: &[OutputOperandAliasing]) -> Option<String> {
    if pairs.is_empty() {
        return None;
    }
    let items: Vec<String> = pairs
        .iter()
        .map(|p| {
            format!("{}: ({}, {})", Braced(&p.output_shape_index), p.operand_index, Braced(&p.operand_shape_index))
        })
        .collect();
    Some(format!("{{{}}}", items.join(", ")))
}

pub fn parse_aliasing(text: &str) -> Vec<OutputOperandAliasing> {
    fn index(s: &str) -> Option<(Vec<i64>, &str)> {
        let s = s.trim_start().strip_prefix('{')?;
        let (inside, rest) = s.split_once('}')?;
        let v =
            inside.split(',').filter(|x| !x.trim().is_empty()).map(|x| x.trim().parse().ok()).collect::<Option<_>>()?;
        Some((v, rest))
    }
    let mut out = Vec::new();
    let Some(mut rest) = text.trim().strip_prefix('{') else { return out };
    loop {
        rest = rest.trim_start().trim_start_matches(',');
        let Some((output_shape_index, r)) = index(rest) else { break };
        let Some(r) = r.trim_start().strip_prefix(':').and_then(|r| r.trim_start().strip_prefix('(')) else { break };
        let Some((operand, r)) = r.split_once(',') else { break };
        let Ok(operand_index) = operand.trim().parse() else { break };
        let Some((operand_shape_index, r)) = index(r) else { break };
        let Some(r) = r.trim_start().strip_prefix(')') else { break };
        out.push(OutputOperandAliasing { output_shape_index, operand_index, operand_shape_index });
        rest = r;
    }
    out
}

/// Splits `{a, b, (c, d)}` at its top-level commas.
pub fn split_braced_list(text: &str) -> Vec<&str> {
    let inner = text.trim().strip_prefix('{').and_then(|t| t.strip_suffix('}')).unwrap_or("");
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (i, c) in inner.char_indices() {
        match c {
            '{' | '(' | '[' => depth += 1,
            '}' | ')' | ']' => depth -= 1,
            ',' if depth == 0 => {
                out.push(inner[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    if !inner[start..].trim().is_empty() {
        out.push(inner[start..].trim());
    }
    out
}

// ---- sharding ------------------------------------------------------------

fn sharding_type_name(t: i32) -> String {
    op_sharding::Type::try_from(t).map_or_else(|_| t.to_string(), |t| t.as_str_name().to_ascii_lowercase())
}

/// The value of `sharding=` as XLA prints it: `{replicated}`, `{maximal
/// device=1}`, `{devices=[2,1]0,1}`, `{devices=[2,2]<=[4] last_tile_dim_replicate}`,
/// a tuple's leaves as `{{...}, {...}}`.
pub fn sharding_text(s: &OpSharding) -> String {
    use op_sharding::Type as T;
    let join = |v: &[i64]| v.iter().map(i64::to_string).collect::<Vec<_>>().join(",");
    match T::try_from(s.r#type) {
        Ok(T::Tuple) => {
            let elems: Vec<String> = s.tuple_shardings.iter().map(sharding_text).collect();
            format!("{{{}}}", elems.join(", "))
        }
        Ok(T::Maximal) => format!("{{maximal device={}}}", s.tile_assignment_devices.first().copied().unwrap_or(0)),
        Ok(T::Other) => {
            let mut out = format!("{{devices=[{}]", join(&s.tile_assignment_dimensions));
            if s.tile_assignment_devices.is_empty() && !s.iota_reshape_dims.is_empty() {
                out.push_str(&format!("<=[{}]", join(&s.iota_reshape_dims)));
                let perm: Vec<i64> = s.iota_transpose_perm.iter().map(|&p| i64::from(p)).collect();
                if !perm.iter().copied().eq(0..perm.len() as i64) {
                    out.push_str(&format!("T({})", join(&perm)));
                }
            } else {
                out.push_str(&join(&s.tile_assignment_devices));
            }
            if s.replicate_on_last_tile_dim {
                out.push_str(" last_tile_dim_replicate");
            }
            if !s.last_tile_dims.is_empty() {
                let names: Vec<String> = s.last_tile_dims.iter().map(|&t| sharding_type_name(t)).collect();
                out.push_str(&format!(" last_tile_dims={{{}}}", names.join(", ")));
            }
            out.push('}');
            out
        }
        _ => format!("{{{}}}", sharding_type_name(s.r#type)),
    }
}

/// Reads [`sharding_text`]'s forms; `None` for anything else.
pub fn parse_sharding(text: &str) -> Option<OpSharding> {
    use op_sharding::Type as T;
    let inner = text.trim().strip_prefix('{')?.strip_suffix('}')?.trim();
    let ints = |s: &str| -> Option<Vec<i64>> {
        s.split(',').filter(|x| !x.trim().is_empty()).map(|x| x.trim().parse().ok()).collect()
    };
    let simple = |t: T| Some(OpSharding { r#type: t as i32, ..Default::default() });
    if inner.starts_with('{') {
        let elems = split_braced_list(text).into_iter().map(parse_sharding).collect::<Option<_>>()?;
        return Some(OpSharding { r#type: T::Tuple as i32, tuple_shardings: elems, ..Default::default() });
    }
    if inner.is_empty() {
        return Some(OpSharding { r#type: T::Tuple as i32, ..Default::default() });
    }
    if let Some(device) = inner.strip_prefix("maximal device=") {
        let device = device.trim().parse().ok()?;
        return Some(OpSharding {
            r#type: T::Maximal as i32,
            tile_assignment_dimensions: vec![1],
            tile_assignment_devices: vec![device],
            ..Default::default()
        });
    }
    let Some(rest) = inner.strip_prefix("devices=[") else {
        return simple(T::from_str_name(&inner.to_ascii_uppercase())?);
    };
    let (dims, rest) = rest.split_once(']')?;
    let mut s = OpSharding { r#type: T::Other as i32, tile_assignment_dimensions: ints(dims)?, ..Default::default() };
    let (devices, mut options) = rest.split_once(' ').unwrap_or((rest, ""));
    if let Some(iota) = devices.strip_prefix("<=[") {
        let (reshape, perm) = iota.split_once(']')?;
        s.iota_reshape_dims = ints(reshape)?;
        s.iota_transpose_perm = match perm.strip_prefix("T(").and_then(|p| p.strip_suffix(')')) {
            Some(p) => ints(p)?.into_iter().map(|x| i32::try_from(x).ok()).collect::<Option<_>>()?,
            None => (0..s.iota_reshape_dims.len() as i32).collect(),
        };
    } else {
        s.tile_assignment_devices = ints(devices)?;
    }
    loop {
        options = options.trim_start();
        if let Some(r) = options.strip_prefix("last_tile_dim_replicate") {
            s.replicate_on_last_tile_dim = true;
            options = r;
        } else if let Some(r) = options.strip_prefix("last_tile_dims={") {
            let (names, r) = r.split_once('}')?;
            for n in names.split(',') {
                s.last_tile_dims.push(T::from_str_name(&n.trim().to_ascii_uppercase())? as i32);
            }
            options = r;
        } else {
            break;
        }
    }
    options.trim().is_empty().then_some(s)
}

pub fn schedule_name(v: i32) -> String {
    CustomCallSchedule::try_from(v).map_or_else(|_| v.to_string(), |s| s.as_str_name().to_string())
}

pub fn api_version_name(v: i32) -> String {
    CustomCallApiVersion::try_from(v).map_or_else(|_| v.to_string(), |s| s.as_str_name().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_round_trip() {
        let s = "a\"b\\c\nd'\u{e9}\x01";
        assert_eq!(c_unescape(&c_escape(s.as_bytes())), s.as_bytes());
        assert_eq!(c_escape("\u{e9}".as_bytes()), "\\303\\251");
    }

    #[test]
    fn metadata_round_trips() {
        let m = OpMetadata {
            op_type: "Add".into(),
            op_name: "jit(f)/add \"x\"".into(),
            source_file: "/a/b.py".into(),
            source_line: 12,
            source_column: 3,
            ..Default::default()
        };
        let text = metadata_text(&m).unwrap();
        assert_eq!(
            text,
            r#"op_type="Add" op_name="jit(f)/add \"x\"" source_file="/a/b.py" source_line=12 source_column=3"#
        );
        assert_eq!(parse_metadata(&text), m);
        assert_eq!(metadata_text(&OpMetadata::default()), None);
    }

    #[test]
    fn frontend_attributes_round_trip() {
        let mut map = BTreeMap::new();
        map.insert("b".to_string(), "x, {y}".to_string());
        map.insert("a".to_string(), "{k=1}".to_string());
        let text = frontend_attributes_text(&map).unwrap();
        assert_eq!(text, r#"{a={k=1},b="x, {y}"}"#);
        assert_eq!(parse_frontend_attributes(&text), map);
    }

    #[test]
    fn backend_configs_print_bare_when_braced() {
        assert_eq!(backend_config_text(b"{\"a\":1}").as_deref(), Some("{\"a\":1}"));
        assert_eq!(backend_config_text(b"{a} b").as_deref(), Some("\"{a} b\""));
        assert_eq!(parse_backend_config("\"{a} b\""), b"{a} b");
        assert_eq!(backend_config_text(b""), None);
    }

    #[test]
    fn aliasing_and_precision_round_trip() {
        let text = "{{0}: (0, {}), {1,2}: (3, {4})}";
        assert_eq!(aliasing_text(&parse_aliasing(text)).as_deref(), Some(text));
        assert_eq!(precision_text(&parse_precision("{highest,default}")).as_deref(), Some("{highest,default}"));
        assert_eq!(precision_text(&[0, 0]), None);
        assert_eq!(split_braced_list("{f32[2]{0}, (s32[], f32[1,2]{1,0})}"), ["f32[2]{0}", "(s32[], f32[1,2]{1,0})"]);
    }

    #[test]
    fn shardings_round_trip() {
        for text in [
            "{replicated}",
            "{manual}",
            "{maximal device=3}",
            "{devices=[2,1]0,1}",
            "{devices=[2,2]<=[4] last_tile_dim_replicate}",
            "{devices=[2,2,2]<=[2,4]T(1,0) last_tile_dims={manual}}",
            "{{replicated}, {maximal device=0}, {devices=[2]1,0}}",
        ] {
            let s = parse_sharding(text).unwrap_or_else(|| panic!("{text}"));
            assert_eq!(sharding_text(&s), text);
        }
        assert_eq!(parse_sharding("{devices=[2]0,1 bogus}"), None);
    }
}
