//! Parser for XLA's HLO text format, as JAX and TensorFlow print it.
//!
//! A hand-written scanner over the source bytes: attribute values have ad-hoc
//! lexical forms (`3x3`, `0_1x0_1`, `b01f_01io->b01f`, JSON in `backend_config`), so
//! each attribute is scanned by a rule chosen by its name, and values of attributes
//! smelt does not model are captured verbatim. Names are resolved after a whole
//! computation (operands) or the whole module (called computations) has been read,
//! so definition order does not matter. Every error carries the byte offset it was
//! found at; [`ParseError`] turns it into `line:col`.

use std::collections::HashMap;

use half::{bf16, f16};
use smallvec::SmallVec;

use crate::attrs::*;
use crate::computation::Computation;
use crate::dtype::DType;
use crate::instruction::{CompId, Extras, InstId, Instruction};
use crate::literal::{Array, ArrayData, Literal};
use crate::module::{AliasKind, BufferDonor, ComputationLayout, IoAlias, Module, ModuleConfig};
use crate::opcode::Opcode;
use crate::shape::{ArrayShape, Dims, Layout, Shape};

/// A syntax or name-resolution error at a place in the text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{col}: {message}")]
pub struct ParseError {
    pub line: usize,
    pub col: usize,
    pub message: String,
    /// The source line the error points into, for rendering.
    pub source_line: String,
}

impl ParseError {
    /// An error at byte `offset` of `src` (clamped to its end), with the line
    /// and column computed from it. Other text formats' parsers (StableHLO in
    /// `smelt-formats`) report through this type too.
    pub fn at(src: &str, offset: usize, message: String) -> ParseError {
        let mut offset = offset.min(src.len());
        while !src.is_char_boundary(offset) {
            offset -= 1;
        }
        let before = &src.as_bytes()[..offset];
        let line_start = before.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let col = src.get(line_start..offset).map_or(offset - line_start, |s| s.chars().count()) + 1;
        let line_end = src[offset..].find('\n').map_or(src.len(), |p| offset + p);
        let source_line = src.get(line_start..line_end).unwrap_or("").to_string();
        ParseError { line, col, message, source_line }
    }

    /// `file:line:col: message`, the source line, and a caret under the column.
    pub fn render(&self, file: &str) -> String {
        let shown: String = self.source_line.chars().take(160).collect();
        let caret_col = (self.col - 1).min(shown.chars().count());
        format!("{file}:{}:{}: {}\n  {shown}\n  {}^", self.line, self.col, self.message, " ".repeat(caret_col))
    }
}

type Result<T> = std::result::Result<T, ParseError>;

/// Parses a whole module.
pub fn parse_module(src: &str) -> std::result::Result<Module, ParseError> {
    Parser { src, pos: 0, depth: 0 }.module()
}

/// Parses a shape such as `f32[4,8]{1,0}` or `(s32[], f32[2]{0})`.
pub fn parse_shape(src: &str) -> std::result::Result<Shape, ParseError> {
    let mut p = Parser { src, pos: 0, depth: 0 };
    let shape = p.shape()?;
    p.skip_ws();
    if p.pos != src.len() {
        return Err(p.err("unexpected text after the shape"));
    }
    Ok(shape)
}

const MAX_DEPTH: usize = 64;

struct Parser<'a> {
    src: &'a str,
    pos: usize,
    depth: usize,
}

/// A parsed attribute value, typed by the attribute's name.
#[derive(Debug)]
enum Value {
    Ints(Dims),
    Int(i64),
    Bool(bool),
    Float(f64),
    Ident(String),
    Str(String),
    Slice(Vec<SliceDim>),
    Padding(Vec<PadDim>),
    Window(Window),
    ConvDims(ConvDims),
    Name(String),
    Names(Vec<String>),
    /// Braced text without the outer braces (metadata).
    Inner(String),
    Raw,
}

struct Attr {
    name: String,
    pos: usize,
    raw: String,
    value: Value,
}

struct RawInst {
    pos: usize,
    name: String,
    shape: Shape,
    opcode: Opcode,
    operands: Vec<(String, usize)>,
    attrs: Attrs,
    called: Vec<(String, usize)>,
    control_predecessors: Vec<(String, usize)>,
    extras: Extras,
    is_root: bool,
}

struct RawComp {
    pos: usize,
    name: String,
    is_entry: bool,
    insts: Vec<RawInst>,
}

impl<'a> Parser<'a> {
    fn err(&self, message: impl Into<String>) -> ParseError {
        ParseError::at(self.src, self.pos, message.into())
    }

    fn err_at(&self, pos: usize, message: impl Into<String>) -> ParseError {
        ParseError::at(self.src, pos, message.into())
    }

    fn bytes(&self) -> &'a [u8] {
        self.src.as_bytes()
    }

    fn skip_ws(&mut self) {
        let b = self.bytes();
        loop {
            while self.pos < b.len() && b[self.pos].is_ascii_whitespace() {
                self.pos += 1;
            }
            if b[self.pos..].starts_with(b"/*") {
                match self.src[self.pos + 2..].find("*/") {
                    Some(end) => self.pos += end + 4,
                    None => self.pos = b.len(),
                }
            } else if b[self.pos..].starts_with(b"//") {
                match self.src[self.pos..].find('\n') {
                    Some(end) => self.pos += end,
                    None => self.pos = b.len(),
                }
            } else {
                return;
            }
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.skip_ws();
        self.bytes().get(self.pos).copied()
    }

    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, c: u8, context: &str) -> Result<()> {
        if self.eat(c) {
            Ok(())
        } else {
            let found = self.describe_next();
            Err(self.err(format!("expected '{}' {context}, found {found}", c as char)))
        }
    }

    fn eat_str(&mut self, s: &str) -> bool {
        self.skip_ws();
        if self.src[self.pos..].starts_with(s) {
            self.pos += s.len();
            true
        } else {
            false
        }
    }

    fn describe_next(&mut self) -> String {
        self.skip_ws();
        match self.src[self.pos..].chars().next() {
            None => "end of input".into(),
            Some(_) => {
                let snippet: String =
                    self.src[self.pos..].chars().take_while(|c| !c.is_whitespace()).take(20).collect();
                format!("'{snippet}'")
            }
        }
    }

    fn is_ident_start(c: u8) -> bool {
        c.is_ascii_alphabetic() || c == b'_' || c == b'%' || c == b'$'
    }

    fn is_ident_char(c: u8) -> bool {
        c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'-' | b'$')
    }

    /// A name or keyword; a leading `%` is dropped. Stops before `->`.
    fn ident(&mut self, what: &str) -> Result<String> {
        self.skip_ws();
        let b = self.bytes();
        let start = self.pos;
        if start >= b.len() || !Self::is_ident_start(b[start]) {
            let found = self.describe_next();
            return Err(self.err(format!("expected {what}, found {found}")));
        }
        let mut end = start + 1;
        while end < b.len() && Self::is_ident_char(b[end]) {
            if b[end] == b'-' && b.get(end + 1) == Some(&b'>') {
                break;
            }
            end += 1;
        }
        self.pos = end;
        let text = &self.src[start..end];
        let text = text.strip_prefix('%').unwrap_or(text);
        if text.is_empty() {
            return Err(self.err_at(start, format!("expected {what} after '%'")));
        }
        Ok(text.to_string())
    }

    fn peek_ident(&mut self) -> Option<&'a str> {
        self.skip_ws();
        let b = self.bytes();
        if self.pos >= b.len() || !Self::is_ident_start(b[self.pos]) {
            return None;
        }
        let mut end = self.pos + 1;
        while end < b.len() && Self::is_ident_char(b[end]) {
            if b[end] == b'-' && b.get(end + 1) == Some(&b'>') {
                break;
            }
            end += 1;
        }
        Some(&self.src[self.pos..end])
    }

    fn int(&mut self, what: &str) -> Result<i64> {
        self.skip_ws();
        let b = self.bytes();
        let start = self.pos;
        let mut end = start;
        if end < b.len() && (b[end] == b'-' || b[end] == b'+') {
            end += 1;
        }
        let digits = end;
        while end < b.len() && b[end].is_ascii_digit() {
            end += 1;
        }
        if end == digits {
            let found = self.describe_next();
            return Err(self.err(format!("expected {what} (an integer), found {found}")));
        }
        self.pos = end;
        self.src[start..end].parse::<i64>().map_err(|_| self.err_at(start, format!("{what} is out of range")))
    }

    fn bool_value(&mut self, what: &str) -> Result<bool> {
        let start = self.pos;
        match self.ident(what)?.as_str() {
            "true" => Ok(true),
            "false" => Ok(false),
            other => Err(self.err_at(start, format!("expected true or false for {what}, found '{other}'"))),
        }
    }

    fn quoted(&mut self) -> Result<String> {
        self.skip_ws();
        let start = self.pos;
        if self.bytes().get(self.pos) != Some(&b'"') {
            let found = self.describe_next();
            return Err(self.err(format!("expected a quoted string, found {found}")));
        }
        self.pos += 1;
        let mut out = String::new();
        let mut chars = self.src[self.pos..].char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                '"' => {
                    self.pos += i + 1;
                    return Ok(out);
                }
                '\\' => match chars.next() {
                    Some((_, 'n')) => out.push('\n'),
                    Some((_, 't')) => out.push('\t'),
                    Some((_, c)) => out.push(c),
                    None => break,
                },
                c => out.push(c),
            }
        }
        Err(self.err_at(start, "unterminated string"))
    }

    /// `{1,2,3}` (possibly empty).
    fn int_list(&mut self, what: &str) -> Result<Dims> {
        self.braced(what, |p| p.int(what))
    }

    /// `{item, item, ...}` (possibly empty), each item read by `item`.
    fn braced<T, C: Default + Extend<T>>(
        &mut self,
        what: &str,
        mut item: impl FnMut(&mut Self) -> Result<T>,
    ) -> Result<C> {
        self.expect(b'{', &format!("to open {what}"))?;
        let mut out = C::default();
        if self.eat(b'}') {
            return Ok(out);
        }
        loop {
            out.extend(Some(item(self)?));
            if self.eat(b'}') {
                return Ok(out);
            }
            self.expect(b',', &format!("or '}}' in {what}"))?;
        }
    }

    /// Integers separated by `sep` with no spaces, as in `3x3`.
    fn separated_ints(&mut self, sep: u8, what: &str) -> Result<Vec<i64>> {
        let mut out = vec![self.int(what)?];
        while self.bytes().get(self.pos) == Some(&sep) {
            self.pos += 1;
            out.push(self.int(what)?);
        }
        Ok(out)
    }

    /// Skips one balanced value (braces, brackets, parens, strings) and returns its
    /// text. Stops at a `,` or newline outside any bracket, or at an unmatched closer.
    fn raw_value(&mut self) -> Result<String> {
        self.skip_ws();
        let b = self.bytes();
        let start = self.pos;
        let mut stack: Vec<u8> = Vec::new();
        let mut i = self.pos;
        while i < b.len() {
            let c = b[i];
            match c {
                b'"' => {
                    i += 1;
                    while i < b.len() && b[i] != b'"' {
                        if b[i] == b'\\' {
                            i += 1;
                        }
                        i += 1;
                    }
                    if i >= b.len() {
                        return Err(self.err_at(start, "unterminated string in attribute value"));
                    }
                }
                b'{' | b'[' | b'(' => stack.push(c),
                b'}' | b']' | b')' => {
                    let open = match c {
                        b'}' => b'{',
                        b']' => b'[',
                        _ => b'(',
                    };
                    match stack.pop() {
                        Some(o) if o == open => {}
                        Some(_) => {
                            return Err(self.err_at(i, format!("unbalanced '{}' in attribute value", c as char)));
                        }
                        None => break,
                    }
                }
                b',' | b'\n' if stack.is_empty() => break,
                _ => {}
            }
            i += 1;
        }
        if !stack.is_empty() {
            return Err(self.err_at(start, "unterminated attribute value"));
        }
        self.pos = i;
        let text = self.src[start..i].trim_end();
        if text.is_empty() {
            return Err(self.err_at(start, "expected an attribute value"));
        }
        Ok(text.to_string())
    }

    // ---- shapes -------------------------------------------------------------

    fn shape(&mut self) -> Result<Shape> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.err("shape nested too deeply"));
        }
        let result = self.shape_inner();
        self.depth -= 1;
        result
    }

    fn shape_inner(&mut self) -> Result<Shape> {
        if self.eat(b'(') {
            let mut elems = Vec::new();
            if self.eat(b')') {
                return Ok(Shape::Tuple(elems));
            }
            loop {
                elems.push(self.shape()?);
                if self.eat(b')') {
                    return Ok(Shape::Tuple(elems));
                }
                self.expect(b',', "or ')' in tuple shape")?;
            }
        }
        let start = self.pos;
        let ty = self.ident("a shape")?;
        let dtype = match ty.parse::<DType>() {
            Ok(d) => d,
            Err(()) => {
                let msg = match ty.as_str() {
                    "token" | "s4" | "u4" | "s2" | "u2" | "f8e4m3fn" | "f8e5m2" | "f8e4m3fnuz" | "f8e5m2fnuz"
                    | "f8e4m3b11fnuz" | "f8e4m3" | "f8e3m4" | "opaque" => {
                        format!("element type '{ty}' is not supported by smelt")
                    }
                    _ => format!("expected a shape (element type such as f32), found '{ty}'"),
                };
                return Err(self.err_at(start, msg));
            }
        };
        if self.bytes().get(self.pos) != Some(&b'[') {
            return Err(self.err(format!("expected '[' after element type {dtype}")));
        }
        self.pos += 1;
        let mut dims = Dims::new();
        if !self.eat(b']') {
            loop {
                self.skip_ws();
                match self.bytes().get(self.pos) {
                    Some(b'<') | Some(b'?') => {
                        return Err(self.err("dynamic dimensions (<=N, ?) are not supported by smelt"));
                    }
                    _ => {}
                }
                let d = self.int("a dimension size")?;
                if d < 0 {
                    return Err(self.err("dimension sizes must be non-negative"));
                }
                dims.push(d);
                if self.eat(b']') {
                    break;
                }
                self.expect(b',', "or ']' in dimensions")?;
            }
        }
        let rank = dims.len();
        let mut layout = Layout::descending(rank);
        // A layout follows directly (`f32[2]{0}`); a `{` after a space opens a
        // computation body (`-> f32[2] {`).
        if self.bytes().get(self.pos) == Some(&b'{') {
            let lpos = self.pos;
            self.pos += 1;
            let mut m2m = Dims::new();
            let mut extra = None;
            if !self.eat(b'}') {
                loop {
                    if self.peek() == Some(b':') {
                        self.pos += 1;
                        let estart = self.pos;
                        let mut depth = 0i32;
                        let b = self.bytes();
                        while self.pos < b.len() {
                            match b[self.pos] {
                                b'(' => depth += 1,
                                b')' => depth -= 1,
                                b'}' if depth <= 0 => break,
                                b'\n' => break,
                                _ => {}
                            }
                            self.pos += 1;
                        }
                        extra = Some(self.src[estart..self.pos].trim().into());
                        self.expect(b'}', "to close the layout")?;
                        break;
                    }
                    m2m.push(self.int("a layout dimension")?);
                    if self.eat(b'}') {
                        break;
                    }
                    self.expect(b',', "or '}' in layout")?;
                }
            }
            if !m2m.is_empty() || rank == 0 {
                let mut seen = m2m.clone();
                seen.sort_unstable();
                if !seen.iter().copied().eq(0..rank as i64) {
                    return Err(self.err_at(
                        lpos,
                        format!(
                            "layout {{{}}} is not a permutation of the {rank} dimensions",
                            crate::text::printer::dims_text(&m2m)
                        ),
                    ));
                }
                layout = Layout { minor_to_major: m2m, extra };
            } else {
                layout.extra = extra;
            }
        }
        Ok(Shape::Array(ArrayShape { dtype, dims, layout }))
    }

    // ---- literals -----------------------------------------------------------

    fn literal(&mut self, shape: &Shape) -> Result<Literal> {
        match shape {
            Shape::Tuple(elems) => {
                self.expect(b'(', "to open a tuple constant")?;
                let mut out = Vec::new();
                for (i, e) in elems.iter().enumerate() {
                    if i > 0 {
                        self.expect(b',', "between tuple constant elements")?;
                    }
                    out.push(self.literal(e)?);
                }
                self.expect(b')', "to close a tuple constant")?;
                Ok(Literal::Tuple(out))
            }
            Shape::Array(a) => {
                let mut tokens: Vec<(usize, &'a str)> = Vec::with_capacity(a.element_count().min(1 << 20));
                let complex = a.dtype.is_complex();
                if a.dims.is_empty() {
                    self.element(complex, &mut tokens)?;
                } else {
                    self.nested_elements(&a.dims, 0, complex, &mut tokens)?;
                }
                // A complex constant is stored as its parts (`crate::complex`).
                let data = self.convert_elements(a.dtype.component(), &tokens)?;
                let mut dims = a.dims.clone();
                if complex {
                    dims.push(2);
                }
                Ok(Literal::Array(Array { dims, data }))
            }
        }
    }

    /// One element: a number, or a complex number's `(real, imaginary)` pair.
    fn element(&mut self, complex: bool, out: &mut Vec<(usize, &'a str)>) -> Result<()> {
        if !complex {
            out.push(self.element_token()?);
            return Ok(());
        }
        self.skip_ws();
        self.expect(b'(', "to open a complex constant element")?;
        out.push(self.element_token()?);
        self.expect(b',', "between a complex element's parts")?;
        out.push(self.element_token()?);
        self.expect(b')', "to close a complex constant element")
    }

    fn nested_elements(
        &mut self,
        dims: &[i64],
        dim: usize,
        complex: bool,
        out: &mut Vec<(usize, &'a str)>,
    ) -> Result<()> {
        let open = self.pos;
        if self.peek() != Some(b'{') {
            let found = self.describe_next();
            return Err(self.err(format!("expected '{{' for dimension {dim} of the constant, found {found}")));
        }
        self.pos += 1;
        if self.src[self.pos..].trim_start().starts_with("...") {
            return Err(self.err("constant value is elided ({...}); dump the module with print_large_constants"));
        }
        let want = dims[dim];
        let mut count = 0i64;
        if !self.eat(b'}') {
            loop {
                if dim + 1 == dims.len() {
                    self.element(complex, out)?;
                } else {
                    self.nested_elements(dims, dim + 1, complex, out)?;
                }
                count += 1;
                if self.eat(b'}') {
                    break;
                }
                self.expect(b',', "or '}' in constant")?;
            }
        }
        if count != want {
            return Err(self
                .err_at(open, format!("constant has {count} elements in dimension {dim}, but the shape says {want}")));
        }
        Ok(())
    }

    fn element_token(&mut self) -> Result<(usize, &'a str)> {
        self.skip_ws();
        let b = self.bytes();
        let start = self.pos;
        let mut end = start;
        while end < b.len() && (b[end].is_ascii_alphanumeric() || matches!(b[end], b'-' | b'+' | b'.')) {
            end += 1;
        }
        if end == start {
            let found = self.describe_next();
            return Err(self.err(format!("expected a constant element, found {found}")));
        }
        self.pos = end;
        Ok((start, &self.src[start..end]))
    }

    fn convert_elements(&self, dtype: DType, tokens: &[(usize, &str)]) -> Result<ArrayData> {
        fn float(tok: &str) -> Option<f64> {
            match tok {
                "inf" | "+inf" => Some(f64::INFINITY),
                "-inf" => Some(f64::NEG_INFINITY),
                "nan" | "+nan" => Some(f64::NAN),
                "-nan" => Some(-f64::NAN),
                "true" => Some(1.0),
                "false" => Some(0.0),
                _ if tok.bytes().any(|c| c.is_ascii_alphabetic() && c != b'e' && c != b'E') => None,
                _ => tok.parse::<f64>().ok(),
            }
        }
        fn int(tok: &str) -> Option<i128> {
            match tok {
                "true" => Some(1),
                "false" => Some(0),
                _ => tok.parse::<i128>().ok(),
            }
        }
        let bad = |pos: usize, tok: &str| self.err_at(pos, format!("'{tok}' is not a valid {dtype} value"));
        macro_rules! ints {
            ($t:ty, $variant:ident) => {{
                let mut v = Vec::with_capacity(tokens.len());
                for &(pos, tok) in tokens {
                    let x = int(tok).and_then(|x| <$t>::try_from(x).ok()).ok_or_else(|| bad(pos, tok))?;
                    v.push(x);
                }
                ArrayData::$variant(v)
            }};
        }
        Ok(match dtype {
            DType::C64 | DType::C128 => return self.convert_elements(dtype.component(), tokens),
            DType::Pred => {
                let mut v = Vec::with_capacity(tokens.len());
                for &(pos, tok) in tokens {
                    v.push(match tok {
                        "true" | "1" => true,
                        "false" | "0" => false,
                        _ => return Err(bad(pos, tok)),
                    });
                }
                ArrayData::Pred(v)
            }
            DType::S8 => ints!(i8, S8),
            DType::S16 => ints!(i16, S16),
            DType::S32 => ints!(i32, S32),
            DType::S64 => ints!(i64, S64),
            DType::U8 => ints!(u8, U8),
            DType::U16 => ints!(u16, U16),
            DType::U32 => ints!(u32, U32),
            DType::U64 => ints!(u64, U64),
            DType::F32 => {
                let mut v = Vec::with_capacity(tokens.len());
                for &(pos, tok) in tokens {
                    // Parse decimal text straight to f32: one rounding, not two.
                    let x = match float(tok) {
                        Some(x) if x.is_finite() => tok.parse::<f32>().ok().or(Some(x as f32)),
                        Some(x) => Some(x as f32),
                        None => None,
                    };
                    v.push(x.ok_or_else(|| bad(pos, tok))?);
                }
                ArrayData::F32(v)
            }
            DType::F64 => {
                let mut v = Vec::with_capacity(tokens.len());
                for &(pos, tok) in tokens {
                    v.push(float(tok).ok_or_else(|| bad(pos, tok))?);
                }
                ArrayData::F64(v)
            }
            DType::F16 => {
                let mut v = Vec::with_capacity(tokens.len());
                for &(pos, tok) in tokens {
                    v.push(f16::from_f64(float(tok).ok_or_else(|| bad(pos, tok))?));
                }
                ArrayData::F16(v)
            }
            DType::Bf16 => {
                let mut v = Vec::with_capacity(tokens.len());
                for &(pos, tok) in tokens {
                    v.push(bf16::from_f64(float(tok).ok_or_else(|| bad(pos, tok))?));
                }
                ArrayData::Bf16(v)
            }
        })
    }

    // ---- attributes ---------------------------------------------------------

    /// `x` or `x_y` parts of a `pad=` or `padding=` spec.
    fn pad_spec(&mut self, allow_interior: bool) -> Result<Vec<PadDim>> {
        self.skip_ws();
        let mut out = Vec::new();
        loop {
            let parts = self.separated_ints(b'_', "a padding amount")?;
            let dim = match (parts.as_slice(), allow_interior) {
                ([low, high], _) => PadDim { low: *low, high: *high, interior: 0 },
                ([low, high, interior], true) => PadDim { low: *low, high: *high, interior: *interior },
                _ => {
                    return Err(self.err("padding must be low_high (or low_high_interior for pad)"));
                }
            };
            out.push(dim);
            if self.bytes().get(self.pos) == Some(&b'x') {
                self.pos += 1;
            } else {
                return Ok(out);
            }
        }
    }

    fn window(&mut self) -> Result<Window> {
        self.expect(b'{', "to open window")?;
        let mut size: Option<Vec<i64>> = None;
        let mut fields: HashMap<String, (usize, Vec<i64>)> = HashMap::new();
        let mut pad: Option<(usize, Vec<PadDim>)> = None;
        while !self.eat(b'}') {
            let fpos = self.pos;
            let key = self.ident("a window field")?;
            self.expect(b'=', "after window field name")?;
            self.skip_ws();
            match key.as_str() {
                "size" => size = Some(self.separated_ints(b'x', "a window size")?),
                "stride" | "lhs_dilate" | "rhs_dilate" | "rhs_reversal" => {
                    let v = self.separated_ints(b'x', "a window value")?;
                    fields.insert(key, (fpos, v));
                }
                "pad" => pad = Some((fpos, self.pad_spec(false)?)),
                other => return Err(self.err_at(fpos, format!("unknown window field '{other}'"))),
            }
        }
        let Some(size) = size else {
            return Ok(Window::default());
        };
        let rank = size.len();
        let mut dims: Vec<WindowDim> = size.into_iter().map(WindowDim::of_size).collect();
        for (key, (fpos, values)) in &fields {
            if values.len() != rank {
                return Err(self.err_at(*fpos, format!("window {key} has {} values, size has {rank}", values.len())));
            }
            for (d, &v) in dims.iter_mut().zip(values) {
                match key.as_str() {
                    "stride" => d.stride = v,
                    "lhs_dilate" => d.base_dilation = v,
                    "rhs_dilate" => d.window_dilation = v,
                    _ => d.reversal = v != 0,
                }
            }
        }
        if let Some((fpos, p)) = pad {
            if p.len() != rank {
                return Err(self.err_at(fpos, format!("window pad has {} values, size has {rank}", p.len())));
            }
            for (d, p) in dims.iter_mut().zip(p) {
                d.pad_low = p.low;
                d.pad_high = p.high;
            }
        }
        Ok(Window { dims })
    }

    /// `b01f_01io->b01f`.
    fn conv_dims(&mut self) -> Result<ConvDims> {
        self.skip_ws();
        let start = self.pos;
        let b = self.bytes();
        let mut end = start;
        while end < b.len() && (b[end].is_ascii_alphanumeric() || matches!(b[end], b'_' | b'-' | b'>' | b'?')) {
            end += 1;
        }
        self.pos = end;
        let text = &self.src[start..end];
        ConvDims::from_labels(text).map_err(|msg| self.err_at(start, format!("bad dim_labels '{text}': {msg}")))
    }

    /// `{[0:4], [1:5:2]}`.
    fn slice_spec(&mut self) -> Result<Vec<SliceDim>> {
        self.braced("slice", |p| {
            p.expect(b'[', "to open a slice dimension")?;
            let start = p.int("slice start")?;
            p.expect(b':', "in slice dimension")?;
            let limit = p.int("slice limit")?;
            let stride = if p.eat(b':') { p.int("slice stride")? } else { 1 };
            p.expect(b']', "to close a slice dimension")?;
            Ok(SliceDim { start, limit, stride })
        })
    }

    fn name_list(&mut self, what: &str) -> Result<Vec<String>> {
        self.braced(what, |p| p.ident(what))
    }

    /// Braced text; returns the inside without the outer braces.
    fn braced_inner(&mut self) -> Result<String> {
        self.skip_ws();
        if self.bytes().get(self.pos) != Some(&b'{') {
            let found = self.describe_next();
            return Err(self.err(format!("expected '{{', found {found}")));
        }
        let text = self.raw_value()?;
        // The value may go on past its closing brace (`{a}b`), and end inside
        // a multi-byte character.
        match text.strip_prefix('{').and_then(|t| t.strip_suffix('}')) {
            Some(inside) => Ok(inside.to_string()),
            None => Err(self.err(format!("expected one braced value, found `{text}`"))),
        }
    }

    fn attr_value(&mut self, name: &str) -> Result<Value> {
        Ok(match name {
            "dimensions"
            | "lhs_batch_dims"
            | "lhs_contracting_dims"
            | "rhs_batch_dims"
            | "rhs_contracting_dims"
            | "dynamic_slice_sizes"
            | "offset_dims"
            | "collapsed_slice_dims"
            | "start_index_map"
            | "operand_batching_dims"
            | "start_indices_batching_dims"
            | "slice_sizes"
            | "update_window_dims"
            | "inserted_window_dims"
            | "scatter_dims_to_operand_dims"
            | "input_batching_dims"
            | "scatter_indices_batching_dims"
            | "fft_length" => Value::Ints(self.int_list(name)?),
            "index"
            | "iota_dimension"
            | "index_vector_dim"
            | "feature_group_count"
            | "batch_group_count"
            | "exponent_bits"
            | "mantissa_bits"
            | "feature_index"
            | "k" => Value::Int(self.int(name)?),
            "is_stable" | "indices_are_sorted" | "unique_indices" | "largest" => Value::Bool(self.bool_value(name)?),
            "epsilon" => {
                let (pos, tok) = self.element_token()?;
                Value::Float(tok.parse::<f64>().map_err(|_| self.err_at(pos, "epsilon must be a number"))?)
            }
            "direction" | "type" | "kind" | "distribution" | "fft_type" => Value::Ident(self.ident(name)?),
            "custom_call_target" => Value::Str(self.quoted()?),
            "slice" => Value::Slice(self.slice_spec()?),
            "padding" => Value::Padding(self.pad_spec(true)?),
            "window" => Value::Window(self.window()?),
            "dim_labels" => Value::ConvDims(self.conv_dims()?),
            "to_apply" | "calls" | "condition" | "body" | "select" | "scatter" | "true_computation"
            | "false_computation" => {
                if self.peek() == Some(b'{') {
                    Value::Names(self.name_list(name)?)
                } else {
                    Value::Name(self.ident(name)?)
                }
            }
            "branch_computations" | "called_computations" | "control-predecessors" => {
                Value::Names(self.name_list(name)?)
            }
            "metadata" => Value::Inner(self.braced_inner()?),
            _ => {
                self.raw_value()?;
                Value::Raw
            }
        })
    }

    fn attributes(&mut self) -> Result<Vec<Attr>> {
        let mut attrs: Vec<Attr> = Vec::new();
        while self.peek() == Some(b',') {
            self.pos += 1;
            self.skip_ws();
            let pos = self.pos;
            let name = self.ident("an attribute name")?;
            self.expect(b'=', &format!("after attribute name '{name}'"))?;
            self.skip_ws();
            let vstart = self.pos;
            let value = self.attr_value(&name)?;
            let raw = self.src[vstart..self.pos].trim_end().to_string();
            if attrs.iter().any(|a| a.name == name) {
                return Err(self.err_at(pos, format!("attribute '{name}' is given twice")));
            }
            attrs.push(Attr { name, pos, raw, value });
        }
        Ok(attrs)
    }

    // ---- instructions, computations, module ---------------------------------

    /// A name after an optional `keyword` (`ROOT`, `ENTRY`): whether the keyword
    /// was there, where the name starts, and the name.
    fn marked_name(&mut self, keyword: &str, what: &str) -> Result<(bool, usize, String)> {
        self.skip_ws();
        let marked = self.peek_ident() == Some(keyword);
        if marked {
            self.ident(keyword)?;
        }
        self.skip_ws();
        let pos = self.pos;
        Ok((marked, pos, self.ident(what)?))
    }

    fn instruction(&mut self) -> Result<RawInst> {
        let (is_root, pos, name) = self.marked_name("ROOT", "an instruction name")?;
        self.expect(b'=', &format!("after instruction name '{name}'"))?;
        let shape = self.shape()?;
        self.skip_ws();
        let op_pos = self.pos;
        let op_name = self.ident("an opcode")?;
        let opcode = Opcode::from_name(&op_name)
            .ok_or_else(|| self.err_at(op_pos, format!("unknown or unsupported opcode '{op_name}'")))?;
        self.expect(b'(', &format!("after opcode {op_name}"))?;
        let mut operands = Vec::new();
        let mut attrs = Attrs::None;
        match opcode {
            Opcode::Parameter => {
                let n = self.int("a parameter number")?;
                let n = u32::try_from(n).map_err(|_| self.err("parameter number must be non-negative"))?;
                attrs = Attrs::Parameter(n);
                self.expect(b')', "after parameter number")?;
            }
            Opcode::Constant => {
                let lit = self.literal(&shape)?;
                attrs = Attrs::Constant(Box::new(lit));
                self.expect(b')', "after constant value")?;
            }
            _ => {
                if !self.eat(b')') {
                    loop {
                        self.skip_ws();
                        // Optional operand shape, as in `add(f32[] x, f32[] y)`.
                        let b = self.bytes();
                        let looks_like_shape = b.get(self.pos) == Some(&b'(')
                            || self.peek_ident().is_some_and(|id| {
                                id.parse::<DType>().is_ok() && b.get(self.pos + id.len()) == Some(&b'[')
                            });
                        if looks_like_shape {
                            self.shape()?;
                        }
                        self.skip_ws();
                        let opos = self.pos;
                        operands.push((self.ident("an operand name")?, opos));
                        if self.eat(b')') {
                            break;
                        }
                        self.expect(b',', "or ')' between operands")?;
                    }
                }
            }
        }
        let mut bag = self.attributes()?;
        let mut called = Vec::new();
        let mut extras = Extras::default();
        let mut control_predecessors = Vec::new();
        self.build_attrs(opcode, &shape, pos, &mut bag, &mut attrs, &mut called)?;
        for a in bag {
            match (a.name.as_str(), a.value) {
                ("metadata", Value::Inner(s)) => extras.metadata = Some(s),
                ("backend_config", _) => extras.backend_config = Some(a.raw),
                ("frontend_attributes", _) => extras.frontend_attributes = Some(a.raw),
                ("sharding", _) => extras.sharding = Some(a.raw),
                ("control-predecessors", Value::Names(names)) => {
                    control_predecessors = names.into_iter().map(|n| (n, a.pos)).collect();
                }
                _ => {
                    if let Attrs::CustomCall(c) = &mut attrs {
                        c.raw.push((a.name, a.raw));
                    } else {
                        extras.unknown.push((a.name, a.raw));
                    }
                }
            }
        }
        Ok(RawInst { pos, name, shape, opcode, operands, attrs, called, control_predecessors, extras, is_root })
    }

    /// Turns the op-specific and computation-reference attributes of `bag` into
    /// typed data, removing what it consumes.
    fn build_attrs(
        &self,
        op: Opcode,
        shape: &Shape,
        pos: usize,
        bag: &mut Vec<Attr>,
        attrs: &mut Attrs,
        called: &mut Vec<(String, usize)>,
    ) -> Result<()> {
        let take = |bag: &mut Vec<Attr>, name: &str| -> Option<Attr> {
            bag.iter().position(|a| a.name == name).map(|i| bag.remove(i))
        };
        let missing = |name: &str| self.err_at(pos, format!("{op} is missing attribute '{name}'"));
        macro_rules! req {
            ($name:literal, $pat:ident) => {
                match take(bag, $name) {
                    Some(Attr { value: Value::$pat(v), .. }) => v,
                    Some(a) => return Err(self.err_at(a.pos, format!("bad value for '{}'", $name))),
                    None => return Err(missing($name)),
                }
            };
        }
        macro_rules! opt {
            ($name:literal, $pat:ident) => {
                match take(bag, $name) {
                    Some(Attr { value: Value::$pat(v), .. }) => Some(v),
                    Some(a) => return Err(self.err_at(a.pos, format!("bad value for '{}'", $name))),
                    None => None,
                }
            };
        }
        match Attrs::kind_for(op) {
            AttrsKind::None | AttrsKind::Parameter | AttrsKind::Constant => {}
            AttrsKind::Iota => *attrs = Attrs::Iota { dimension: req!("iota_dimension", Int) },
            AttrsKind::Dimensions => {
                // `map` may omit dimensions (all of them); `reduce` may not.
                let dims = match op {
                    Opcode::Map => opt!("dimensions", Ints)
                        .unwrap_or_else(|| (0..shape.as_array().map_or(0, |a| a.rank() as i64)).collect()),
                    _ => req!("dimensions", Ints),
                };
                *attrs = Attrs::Dimensions(dims);
            }
            AttrsKind::Concatenate => {
                let d = req!("dimensions", Ints);
                if d.len() != 1 {
                    return Err(self.err_at(pos, "concatenate needs exactly one dimension"));
                }
                *attrs = Attrs::Concatenate { dimension: d[0] };
            }
            AttrsKind::Compare => {
                let dir = req!("direction", Ident);
                let direction = ComparisonDirection::from_name(&dir)
                    .ok_or_else(|| self.err_at(pos, format!("unknown comparison direction '{dir}'")))?;
                let compare_type = match opt!("type", Ident) {
                    Some(t) => Some(
                        CompareType::from_name(&t)
                            .ok_or_else(|| self.err_at(pos, format!("unknown comparison type '{t}'")))?,
                    ),
                    None => None,
                };
                *attrs = Attrs::Compare { direction, compare_type };
            }
            AttrsKind::Slice => *attrs = Attrs::Slice(req!("slice", Slice)),
            AttrsKind::DynamicSlice => *attrs = Attrs::DynamicSlice { sizes: req!("dynamic_slice_sizes", Ints) },
            AttrsKind::Pad => *attrs = Attrs::Pad(req!("padding", Padding)),
            AttrsKind::Dot => {
                *attrs = Attrs::Dot(DotDims {
                    lhs_batch: opt!("lhs_batch_dims", Ints).unwrap_or_default(),
                    rhs_batch: opt!("rhs_batch_dims", Ints).unwrap_or_default(),
                    lhs_contracting: opt!("lhs_contracting_dims", Ints).unwrap_or_default(),
                    rhs_contracting: opt!("rhs_contracting_dims", Ints).unwrap_or_default(),
                })
            }
            AttrsKind::Convolution => {
                let window = opt!("window", Window).unwrap_or_default();
                let dims = req!("dim_labels", ConvDims);
                *attrs = Attrs::Convolution(Box::new(ConvAttrs {
                    window,
                    dims,
                    feature_group_count: opt!("feature_group_count", Int).unwrap_or(1),
                    batch_group_count: opt!("batch_group_count", Int).unwrap_or(1),
                }))
            }
            AttrsKind::Gather => {
                *attrs = Attrs::Gather(Box::new(GatherAttrs {
                    offset_dims: req!("offset_dims", Ints),
                    collapsed_slice_dims: req!("collapsed_slice_dims", Ints),
                    start_index_map: req!("start_index_map", Ints),
                    operand_batching_dims: opt!("operand_batching_dims", Ints).unwrap_or_default(),
                    start_indices_batching_dims: opt!("start_indices_batching_dims", Ints).unwrap_or_default(),
                    index_vector_dim: req!("index_vector_dim", Int),
                    slice_sizes: req!("slice_sizes", Ints),
                    indices_are_sorted: opt!("indices_are_sorted", Bool).unwrap_or(false),
                }))
            }
            AttrsKind::Scatter => {
                *attrs = Attrs::Scatter(Box::new(ScatterAttrs {
                    update_window_dims: req!("update_window_dims", Ints),
                    inserted_window_dims: req!("inserted_window_dims", Ints),
                    scatter_dims_to_operand_dims: req!("scatter_dims_to_operand_dims", Ints),
                    input_batching_dims: opt!("input_batching_dims", Ints).unwrap_or_default(),
                    scatter_indices_batching_dims: opt!("scatter_indices_batching_dims", Ints).unwrap_or_default(),
                    index_vector_dim: req!("index_vector_dim", Int),
                    indices_are_sorted: opt!("indices_are_sorted", Bool).unwrap_or(false),
                    unique_indices: opt!("unique_indices", Bool).unwrap_or(false),
                }))
            }
            AttrsKind::Window => *attrs = Attrs::Window(opt!("window", Window).unwrap_or_default()),
            AttrsKind::Sort => {
                let d = req!("dimensions", Ints);
                if d.len() != 1 {
                    return Err(self.err_at(pos, "sort needs exactly one dimension"));
                }
                *attrs = Attrs::Sort { dimension: d[0], is_stable: opt!("is_stable", Bool).unwrap_or(false) };
            }
            AttrsKind::GetTupleElement => *attrs = Attrs::GetTupleElement { index: req!("index", Int) },
            AttrsKind::Fusion => {
                let k = req!("kind", Ident);
                let kind =
                    FusionKind::from_name(&k).ok_or_else(|| self.err_at(pos, format!("unknown fusion kind '{k}'")))?;
                *attrs = Attrs::Fusion { kind };
            }
            AttrsKind::CustomCall => {
                let target = req!("custom_call_target", Str);
                *attrs = Attrs::CustomCall(Box::new(CustomCallAttrs { target, raw: Vec::new() }));
            }
            AttrsKind::RngBitGenerator => {
                let a = match take(bag, "algorithm") {
                    Some(a) => a,
                    None => return Err(missing("algorithm")),
                };
                let algorithm = RngAlgorithm::from_name(a.raw.trim())
                    .ok_or_else(|| self.err_at(a.pos, format!("unknown rng algorithm '{}'", a.raw)))?;
                *attrs = Attrs::RngBitGenerator { algorithm };
            }
            AttrsKind::Rng => {
                let d = req!("distribution", Ident);
                let distribution = RngDistribution::from_name(&d)
                    .ok_or_else(|| self.err_at(pos, format!("unknown rng distribution '{d}'")))?;
                *attrs = Attrs::Rng { distribution };
            }
            AttrsKind::ReducePrecision => {
                *attrs = Attrs::ReducePrecision {
                    exponent_bits: req!("exponent_bits", Int),
                    mantissa_bits: req!("mantissa_bits", Int),
                }
            }
            AttrsKind::BatchNorm => {
                *attrs = Attrs::BatchNorm {
                    epsilon: req!("epsilon", Float) as f32,
                    feature_index: req!("feature_index", Int),
                }
            }
            AttrsKind::TopK => {
                *attrs = Attrs::TopK { k: req!("k", Int), largest: opt!("largest", Bool).unwrap_or(true) }
            }
            AttrsKind::Fft => {
                let k = req!("fft_type", Ident);
                let kind = FftKind::from_name(&k).ok_or_else(|| self.err_at(pos, format!("unknown fft_type '{k}'")))?;
                *attrs = Attrs::Fft { kind, lengths: req!("fft_length", Ints) };
            }
        }
        // Called computations, by role.
        let mut one = |bag: &mut Vec<Attr>, name: &str, required: bool| -> Result<()> {
            match take(bag, name) {
                Some(Attr { value: Value::Name(n), pos, .. }) => {
                    called.push((n, pos));
                    Ok(())
                }
                Some(Attr { value: Value::Names(ns), pos, .. }) if ns.len() == 1 => {
                    called.push((ns.into_iter().next().unwrap_or_default(), pos));
                    Ok(())
                }
                Some(a) => Err(self.err_at(a.pos, format!("'{name}' must name one computation"))),
                None if required => Err(missing(name)),
                None => Ok(()),
            }
        };
        match op {
            Opcode::While => {
                one(bag, "condition", true)?;
                one(bag, "body", true)?;
            }
            Opcode::SelectAndScatter => {
                one(bag, "select", true)?;
                one(bag, "scatter", true)?;
            }
            Opcode::Fusion => one(bag, "calls", true)?,
            Opcode::Call | Opcode::Map | Opcode::Reduce | Opcode::ReduceWindow | Opcode::Scatter | Opcode::Sort => {
                one(bag, "to_apply", true)?
            }
            Opcode::Conditional => {
                if let Some(a) = take(bag, "branch_computations") {
                    let Value::Names(ns) = a.value else { unreachable!("parsed as a name list") };
                    called.extend(ns.into_iter().map(|n| (n, a.pos)));
                } else {
                    one(bag, "true_computation", true)?;
                    one(bag, "false_computation", true)?;
                }
            }
            Opcode::CustomCall => {
                if let Some(a) = take(bag, "called_computations") {
                    let Value::Names(ns) = a.value else { unreachable!("parsed as a name list") };
                    called.extend(ns.into_iter().map(|n| (n, a.pos)));
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn computation(&mut self) -> Result<RawComp> {
        let (is_entry, pos, name) = self.marked_name("ENTRY", "a computation name")?;
        // Optional signature `(p: shape, ...) -> shape`, informational only.
        if self.eat(b'(') {
            if !self.eat(b')') {
                loop {
                    self.ident("a parameter name")?;
                    self.expect(b':', "after parameter name in signature")?;
                    self.shape()?;
                    if self.eat(b')') {
                        break;
                    }
                    self.expect(b',', "or ')' in computation signature")?;
                }
            }
            if !self.eat_str("->") {
                return Err(self.err("expected '->' after computation parameters"));
            }
            self.shape()?;
        }
        // Optional `, execution_thread="..."` style attributes are not used by smelt.
        self.expect(b'{', &format!("to open computation '{name}'"))?;
        let mut insts = Vec::new();
        loop {
            match self.peek() {
                Some(b'}') => {
                    self.pos += 1;
                    break;
                }
                None => {
                    return Err(self.err(format!("computation '{name}' is not closed with '}}'")));
                }
                _ => insts.push(self.instruction()?),
            }
        }
        if insts.is_empty() {
            return Err(self.err_at(pos, format!("computation '{name}' has no instructions")));
        }
        Ok(RawComp { pos, name, is_entry, insts })
    }

    fn index_path(&mut self) -> Result<Vec<i64>> {
        Ok(self.int_list("a shape index")?.to_vec())
    }

    fn module(mut self) -> Result<Module> {
        self.skip_ws();
        if self.peek_ident() != Some("HloModule") {
            let found = self.describe_next();
            return Err(self.err(format!("expected 'HloModule', found {found}")));
        }
        self.ident("HloModule")?;
        let name = self.ident("a module name")?;
        let mut config = ModuleConfig::default();
        while self.peek() == Some(b',') {
            self.pos += 1;
            let apos = self.pos;
            let attr = self.ident("a module attribute")?;
            self.expect(b'=', "after module attribute name")?;
            self.skip_ws();
            match attr.as_str() {
                "is_scheduled" => config.is_scheduled = self.bool_value("is_scheduled")?,
                "entry_computation_layout" => {
                    self.expect(b'{', "to open entry_computation_layout")?;
                    let Shape::Tuple(params) = self.shape()? else {
                        return Err(self.err_at(apos, "entry_computation_layout needs (params)->result"));
                    };
                    if !self.eat_str("->") {
                        return Err(self.err("expected '->' in entry_computation_layout"));
                    }
                    let result = self.shape()?;
                    self.expect(b'}', "to close entry_computation_layout")?;
                    config.entry_computation_layout = Some(ComputationLayout { params, result });
                }
                "input_output_alias" => {
                    self.expect(b'{', "to open input_output_alias")?;
                    while !self.eat(b'}') {
                        let output_index = self.index_path()?;
                        self.expect(b':', "after alias output index")?;
                        self.expect(b'(', "to open alias")?;
                        let param = self.int("an aliased parameter number")?;
                        let param = u32::try_from(param).map_err(|_| self.err("bad parameter number"))?;
                        self.expect(b',', "after aliased parameter number")?;
                        let param_index = self.index_path()?;
                        let mut kind = AliasKind::MayAlias;
                        if self.eat(b',') {
                            kind = match self.ident("an alias kind")?.as_str() {
                                "may-alias" => AliasKind::MayAlias,
                                "must-alias" => AliasKind::MustAlias,
                                other => {
                                    return Err(self.err(format!("unknown alias kind '{other}'")));
                                }
                            };
                        }
                        self.expect(b')', "to close alias")?;
                        config.input_output_alias.push(IoAlias { output_index, param, param_index, kind });
                        self.eat(b',');
                    }
                }
                "buffer_donor" => {
                    self.expect(b'{', "to open buffer_donor")?;
                    while !self.eat(b'}') {
                        self.expect(b'(', "to open buffer donor")?;
                        let param = self.int("a donated parameter number")?;
                        let param = u32::try_from(param).map_err(|_| self.err("bad parameter number"))?;
                        self.expect(b',', "after donated parameter number")?;
                        let param_index = self.index_path()?;
                        self.expect(b')', "to close buffer donor")?;
                        config.buffer_donor.push(BufferDonor { param, param_index });
                        self.eat(b',');
                    }
                }
                _ => {
                    let raw = self.raw_value()?;
                    config.unknown.push((attr, raw));
                }
            }
        }
        let mut raw_comps = Vec::new();
        while self.peek().is_some() {
            raw_comps.push(self.computation()?);
        }
        self.resolve(name, config, raw_comps)
    }

    fn resolve(&self, name: String, config: ModuleConfig, raw_comps: Vec<RawComp>) -> Result<Module> {
        if raw_comps.is_empty() {
            return Err(self.err("module has no computations"));
        }
        let entries: Vec<&RawComp> = raw_comps.iter().filter(|c| c.is_entry).collect();
        if entries.len() > 1 {
            return Err(self.err_at(entries[1].pos, "more than one ENTRY computation"));
        }
        // Without ENTRY, the last computation is the entry (as XLA does).
        let entry_index = raw_comps.iter().position(|c| c.is_entry).unwrap_or(raw_comps.len() - 1);
        let mut comp_ids: HashMap<&str, CompId> = HashMap::new();
        for (i, c) in raw_comps.iter().enumerate() {
            if comp_ids.insert(&c.name, CompId::from_index(i)).is_some() {
                return Err(self.err_at(c.pos, format!("computation '{}' is defined twice", c.name)));
            }
        }
        let mut comps = crate::id::Arena::new();
        for rc in &raw_comps {
            let mut comp = Computation::new(rc.name.clone());
            let mut ids: HashMap<&str, InstId> = HashMap::new();
            for (i, ri) in rc.insts.iter().enumerate() {
                if ids.insert(&ri.name, InstId::from_index(i)).is_some() {
                    return Err(self.err_at(
                        ri.pos,
                        format!("instruction '{}' is defined twice in computation '{}'", ri.name, rc.name),
                    ));
                }
            }
            let mut root = None;
            for ri in &rc.insts {
                let lookup = |(n, p): &(String, usize)| -> Result<InstId> {
                    ids.get(n.as_str()).copied().ok_or_else(|| {
                        self.err_at(*p, format!("unknown instruction '{n}' in computation '{}'", rc.name))
                    })
                };
                let operands: SmallVec<[InstId; 2]> = ri.operands.iter().map(lookup).collect::<Result<_>>()?;
                let mut extras = ri.extras.clone();
                extras.control_predecessors = ri.control_predecessors.iter().map(lookup).collect::<Result<_>>()?;
                let called = ri
                    .called
                    .iter()
                    .map(|(n, p)| {
                        comp_ids
                            .get(n.as_str())
                            .copied()
                            .ok_or_else(|| self.err_at(*p, format!("unknown computation '{n}'")))
                    })
                    .collect::<Result<_>>()?;
                let id = comp.add(Instruction {
                    name: ri.name.clone(),
                    opcode: ri.opcode,
                    shape: ri.shape.clone(),
                    operands,
                    called,
                    attrs: ri.attrs.clone(),
                    extras: Box::new(extras),
                });
                if ri.is_root {
                    if root.is_some() {
                        return Err(self.err_at(ri.pos, format!("computation '{}' has two ROOTs", rc.name)));
                    }
                    root = Some(id);
                }
            }
            // Without ROOT, the last instruction is the root (as XLA does).
            comp.root = root.unwrap_or(InstId::from_index(rc.insts.len() - 1));
            comps.alloc(comp);
        }
        Ok(Module { name, comps, entry: CompId::from_index(entry_index), config })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Text after a braced value's closing brace is an error, even when it
    /// ends inside a multi-byte character (a fuzzer's bit flip found this).
    #[test]
    fn text_after_a_braced_value_is_an_error() {
        let text = "HloModule m\nENTRY e {\n  ROOT x = f32[2]{0} parameter(0), metadata={op_name=\"a\"}\u{e9}\n}\n";
        let e = crate::parse_module(text).unwrap_err().to_string();
        assert!(e.contains("expected one braced value"), "{e}");
    }
    use crate::text::print_module;

    const SMALL: &str = r#"HloModule m, entry_computation_layout={(f32[2,3]{1,0})->f32[2]{0}}

add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}

ENTRY main {
  x = f32[2,3]{1,0} parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[2]{0} reduce(x, z), dimensions={1}, to_apply=add, metadata={op_name="sum"}
}

"#;

    #[test]
    fn parses_and_prints_back() {
        let m = parse_module(SMALL).unwrap();
        assert_eq!(print_module(&m), SMALL);
    }

    #[test]
    fn errors_carry_line_and_column() {
        let e = parse_module("HloModule m\n\nENTRY e {\n  x = f32[2] bogus(y)\n}\n").unwrap_err();
        assert_eq!((e.line, e.col), (4, 14));
        assert!(e.message.contains("unknown or unsupported opcode 'bogus'"), "{e}");
        let e = parse_module(&SMALL[..SMALL.len() - 40]).unwrap_err();
        assert!(e.line > 1, "{e}");
    }

    #[test]
    fn undefined_operand_is_an_error() {
        let e = parse_module("HloModule m\nENTRY e {\n  ROOT x = f32[] negate(y)\n}\n").unwrap_err();
        assert!(e.message.contains("unknown instruction 'y'"), "{e}");
        assert_eq!((e.line, e.col), (3, 25));
    }

    #[test]
    fn conv_dim_labels_round_trip() {
        for labels in ["b01f_01io->b01f", "f01b_i01o->01bf", "bf_io->bf", "b012f_012io->b012f"] {
            let mut p = Parser { src: labels, pos: 0, depth: 0 };
            assert_eq!(p.conv_dims().unwrap().to_string(), labels);
        }
    }
}
