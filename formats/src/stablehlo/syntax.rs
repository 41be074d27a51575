//! StableHLO MLIR text to a small syntax tree.
//!
//! MLIR's syntax is context-sensitive (`tensor<2x3xf32>`, `%6:2`, `[0:5]`), so this is
//! a cursor-based recursive-descent reader over characters, not a token stream. It
//! reads both the generic form (`"stablehlo.case"(%0) ({...}) : ...`) and the pretty
//! forms JAX prints, and normalizes the pretty forms' attributes to their generic
//! names where the two differ only in spelling, so [`super::lower`] reads one shape of
//! op. Every node keeps its byte offset for `line:col` errors.

use smelt_hlo::attrs::ConvDims;
use smelt_hlo::{DType, ParseError, Shape};

pub type Result<T> = std::result::Result<T, ParseError>;

/// Nesting deeper than this (regions, lists) is rejected rather than risking the stack.
const MAX_DEPTH: usize = 64;

#[derive(Debug, Default)]
pub struct ModuleAst {
    pub name: Option<String>,
    pub funcs: Vec<Func>,
}

#[derive(Debug)]
pub struct Func {
    pub name: String,
    pub pos: usize,
    pub public: bool,
    pub args: Vec<Arg>,
    pub results: Vec<Shape>,
    pub body: Region,
}

#[derive(Debug)]
pub struct Arg {
    pub name: String,
    pub shape: Shape,
    pub attrs: Vec<NamedAttr>,
    pub pos: usize,
}

/// A region with one block: its arguments and its ops, the terminator last.
#[derive(Debug, Default)]
pub struct Region {
    pub pos: usize,
    pub args: Vec<(String, Shape, usize)>,
    pub ops: Vec<Op>,
}

/// A use of an SSA value: `%name` or `%name#index`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ValueRef {
    pub name: String,
    pub index: usize,
    pub pos: usize,
}

#[derive(Debug, Default)]
pub struct Op {
    pub pos: usize,
    /// Result groups: `%6:2` is `("6", 2)`, `%x` is `("x", 1)`.
    pub results: Vec<(String, usize)>,
    /// Full op name: `stablehlo.add`, `chlo.erf`, `func.call`, `func.return`.
    pub name: String,
    pub operands: Vec<ValueRef>,
    pub attrs: Vec<NamedAttr>,
    pub regions: Vec<Region>,
    pub result_types: Vec<Shape>,
    /// `applies stablehlo.add` of a pretty reduce: the body is that op.
    pub applies: Option<(String, usize)>,
    /// The callee of `func.call`, the target of `custom_call`.
    pub callee: Option<String>,
}

impl Op {
    pub fn attr(&self, names: &[&str]) -> Option<&NamedAttr> {
        self.attrs.iter().find(|a| names.contains(&a.name.as_str()))
    }

    /// Number of values the op defines.
    pub fn result_count(&self) -> usize {
        self.results.iter().map(|r| r.1).sum()
    }
}

#[derive(Clone, Debug)]
pub struct NamedAttr {
    pub name: String,
    pub value: Attr,
    pub pos: usize,
    /// The value as written, for attributes passed through verbatim.
    pub raw: String,
}

#[derive(Clone, Debug)]
pub enum Attr {
    Int(i128),
    Float(f64),
    Bool(bool),
    Str(String),
    Unit,
    List(Vec<Attr>),
    Dense(Dense),
    /// A bare keyword or the value of `#dialect<kind VALUE>`: `GT`, `DEFAULT`, `FFT`.
    Enum(String),
    /// `#stablehlo.gather<k = v, ...>` and other struct attributes.
    Struct(Vec<(String, Attr)>),
    Dict(Vec<NamedAttr>),
    /// `@name`, without the `@`.
    Symbol(String),
    Conv(ConvDims),
    /// Something this reader skips (types, sharding rules).
    Other,
}

#[derive(Clone, Debug)]
pub struct Dense {
    pub shape: Shape,
    pub body: DenseBody,
}

#[derive(Clone, Debug)]
pub enum DenseBody {
    /// `dense<"0x...">`: little-endian bytes of every element (or of one, a splat).
    Bytes(Vec<u8>),
    Elements(Vec<Scalar>),
}

#[derive(Clone, Copy, Debug)]
pub enum Scalar {
    Int(i128),
    Float(f64),
    Bool(bool),
    /// A hexadecimal literal: the element's bit pattern.
    Bits(u64),
    Complex(f64, f64),
}

pub fn parse(src: &str) -> Result<ModuleAst> {
    let mut c = Cursor { src, pos: 0, depth: 0 };
    c.module()
}

struct Cursor<'s> {
    src: &'s str,
    pos: usize,
    depth: usize,
}

fn is_ident_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'$' | b'-')
}

impl<'s> Cursor<'s> {
    fn err(&self, pos: usize, msg: impl Into<String>) -> ParseError {
        ParseError::at(self.src, pos, msg.into())
    }

    fn bytes(&self) -> &'s [u8] {
        self.src.as_bytes()
    }

    /// Skips whitespace and `//` comments.
    fn ws(&mut self) {
        let b = self.bytes();
        loop {
            while self.pos < b.len() && b[self.pos].is_ascii_whitespace() {
                self.pos += 1;
            }
            if b[self.pos..].starts_with(b"//") {
                while self.pos < b.len() && b[self.pos] != b'\n' {
                    self.pos += 1;
                }
            } else {
                return;
            }
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.ws();
        self.bytes().get(self.pos).copied()
    }

    fn at(&mut self, s: &str) -> bool {
        self.ws();
        self.src[self.pos..].starts_with(s)
    }

    /// Eats `s` if it comes next. Words must not run on into an identifier.
    fn eat(&mut self, s: &str) -> bool {
        if !self.at(s) {
            return false;
        }
        let end = self.pos + s.len();
        let word = s.as_bytes().last().is_some_and(|&b| is_ident_char(b));
        if word && self.bytes().get(end).is_some_and(|&b| is_ident_char(b)) {
            return false;
        }
        self.pos = end;
        true
    }

    fn expect(&mut self, s: &str) -> Result<()> {
        if self.eat(s) { Ok(()) } else { Err(self.err(self.pos, format!("expected '{s}', found {}", self.found()))) }
    }

    fn found(&self) -> String {
        let rest = self.src[self.pos..].trim_start();
        if rest.is_empty() {
            return "end of input".into();
        }
        let word: String = rest.chars().take_while(|c| !c.is_whitespace()).take(24).collect();
        format!("'{word}'")
    }

    fn enter(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.err(self.pos, format!("nesting deeper than {MAX_DEPTH} levels")));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    /// A bare identifier (`stablehlo.add`, `tensor`, `GT`), possibly empty.
    fn ident(&mut self) -> &'s str {
        self.ws();
        let b = self.bytes();
        let start = self.pos;
        if start < b.len() && (b[start].is_ascii_alphabetic() || b[start] == b'_') {
            self.pos += 1;
            while self.pos < b.len() && is_ident_char(b[self.pos]) && b[self.pos] != b'-' {
                self.pos += 1;
            }
        }
        &self.src[start..self.pos]
    }

    fn expect_ident(&mut self, what: &str) -> Result<&'s str> {
        let pos = self.pos;
        let id = self.ident();
        if id.is_empty() { Err(self.err(pos, format!("expected {what}, found {}", self.found()))) } else { Ok(id) }
    }

    /// The name after a sigil (`%`, `@`, `^`, `#`): identifier characters or a quoted string.
    fn sigil_name(&mut self, sigil: u8) -> Result<String> {
        self.ws();
        let start = self.pos;
        if self.bytes().get(self.pos) != Some(&sigil) {
            return Err(self.err(start, format!("expected '{}', found {}", sigil as char, self.found())));
        }
        self.pos += 1;
        if self.bytes().get(self.pos) == Some(&b'"') {
            return self.string();
        }
        let b = self.bytes();
        let name_start = self.pos;
        while self.pos < b.len() && (is_ident_char(b[self.pos]) && b[self.pos] != b'-') {
            self.pos += 1;
        }
        if self.pos == name_start {
            return Err(self.err(start, "expected a name"));
        }
        Ok(self.src[name_start..self.pos].to_string())
    }

    fn string(&mut self) -> Result<String> {
        self.ws();
        let start = self.pos;
        if self.bytes().get(self.pos) != Some(&b'"') {
            return Err(self.err(start, format!("expected a string, found {}", self.found())));
        }
        self.pos += 1;
        let mut out = Vec::new();
        let b = self.bytes();
        loop {
            match b.get(self.pos) {
                None => return Err(self.err(start, "unterminated string")),
                Some(b'"') => {
                    self.pos += 1;
                    break;
                }
                Some(b'\\') => {
                    let esc = b.get(self.pos + 1).copied();
                    match esc {
                        Some(b'n') => out.push(b'\n'),
                        Some(b't') => out.push(b'\t'),
                        Some(b'"') => out.push(b'"'),
                        Some(b'\\') => out.push(b'\\'),
                        Some(h) if h.is_ascii_hexdigit() => {
                            let hex = self.src.get(self.pos + 1..self.pos + 3).unwrap_or("");
                            let v = u8::from_str_radix(hex, 16)
                                .map_err(|_| self.err(self.pos, "bad \\XX escape in string"))?;
                            out.push(v);
                            self.pos += 1;
                        }
                        _ => return Err(self.err(self.pos, "bad escape in string")),
                    }
                    self.pos += 2;
                }
                Some(&c) => {
                    out.push(c);
                    self.pos += 1;
                }
            }
        }
        Ok(String::from_utf8_lossy(&out).into_owned())
    }

    /// An integer or float literal: `-3`, `1.5e+00`, `0x7FC00000`.
    fn number(&mut self) -> Result<Scalar> {
        self.ws();
        let start = self.pos;
        let b = self.bytes();
        let mut p = self.pos;
        let neg = b.get(p) == Some(&b'-');
        if neg {
            p += 1;
        }
        if b[p..].starts_with(b"0x") || b[p..].starts_with(b"0X") {
            let digits_start = p + 2;
            let mut q = digits_start;
            while q < b.len() && b[q].is_ascii_hexdigit() {
                q += 1;
            }
            let bits = u64::from_str_radix(&self.src[digits_start..q], 16)
                .map_err(|_| self.err(start, "bad hexadecimal literal"))?;
            self.pos = q;
            return Ok(if neg { Scalar::Int(-(bits as i128)) } else { Scalar::Bits(bits) });
        }
        let digits_start = p;
        while p < b.len() && b[p].is_ascii_digit() {
            p += 1;
        }
        if p == digits_start {
            // MLIR spells non-finite floats in hex, but accept the words too.
            for (word, v) in [("inf", f64::INFINITY), ("nan", f64::NAN)] {
                if b[p..].starts_with(word.as_bytes()) {
                    self.pos = p + word.len();
                    return Ok(Scalar::Float(if neg { -v } else { v }));
                }
            }
            return Err(self.err(start, format!("expected a number, found {}", self.found())));
        }
        let mut float = false;
        if b.get(p) == Some(&b'.') {
            float = true;
            p += 1;
            while p < b.len() && b[p].is_ascii_digit() {
                p += 1;
            }
        }
        if matches!(b.get(p), Some(b'e' | b'E')) {
            float = true;
            p += 1;
            if matches!(b.get(p), Some(b'+' | b'-')) {
                p += 1;
            }
            while p < b.len() && b[p].is_ascii_digit() {
                p += 1;
            }
        }
        let text = &self.src[start..p];
        self.pos = p;
        if float {
            text.parse::<f64>().map(Scalar::Float).map_err(|_| self.err(start, format!("bad number '{text}'")))
        } else {
            text.parse::<i128>().map(Scalar::Int).map_err(|_| self.err(start, format!("bad integer '{text}'")))
        }
    }

    fn int(&mut self) -> Result<i64> {
        let pos = self.pos;
        match self.number()? {
            Scalar::Int(v) => i64::try_from(v).map_err(|_| self.err(pos, "integer out of range")),
            _ => Err(self.err(pos, "expected an integer")),
        }
    }

    /// Skips a balanced bracketed span starting at `(`, `[`, `{` or `<`; `->`
    /// inside does not close an angle bracket.
    fn skip_balanced(&mut self) -> Result<()> {
        self.ws();
        let start = self.pos;
        let b = self.bytes();
        let mut stack = Vec::new();
        loop {
            let Some(&c) = b.get(self.pos) else {
                return Err(self.err(start, "unbalanced brackets"));
            };
            match c {
                b'"' => {
                    self.string()?;
                    continue;
                }
                b'-' if b.get(self.pos + 1) == Some(&b'>') => self.pos += 1,
                b'(' | b'[' | b'{' | b'<' => stack.push(c),
                b')' | b']' | b'}' | b'>' => {
                    let open = match c {
                        b')' => b'(',
                        b']' => b'[',
                        b'}' => b'{',
                        _ => b'<',
                    };
                    if stack.pop() != Some(open) {
                        return Err(self.err(self.pos, format!("unbalanced '{}'", c as char)));
                    }
                }
                _ => {}
            }
            self.pos += 1;
            if stack.is_empty() {
                return Ok(());
            }
        }
    }

    /// `tensor<2x3xf32>`, `tensor<f32>`, `tensor<4xcomplex<f32>>`, `tuple<...>`.
    fn ty(&mut self) -> Result<Shape> {
        self.ws();
        let pos = self.pos;
        if self.eat("tensor") {
            self.expect("<")?;
            let mut dims = Vec::new();
            loop {
                self.ws();
                match self.bytes().get(self.pos) {
                    Some(b'0'..=b'9') => {
                        let b = self.bytes();
                        let s = self.pos;
                        while self.pos < b.len() && b[self.pos].is_ascii_digit() {
                            self.pos += 1;
                        }
                        let d: i64 =
                            self.src[s..self.pos].parse().map_err(|_| self.err(s, "dimension out of range"))?;
                        dims.push(d);
                        if self.bytes().get(self.pos) != Some(&b'x') {
                            return Err(self.err(self.pos, "expected 'x' after a dimension"));
                        }
                        self.pos += 1;
                    }
                    Some(b'?') => return Err(self.err(self.pos, "dynamic dimensions ('?') are not supported")),
                    Some(b'*') => return Err(self.err(self.pos, "unranked tensors are not supported")),
                    _ => break,
                }
            }
            let dtype = self.element_type()?;
            if self.at(",") {
                return Err(self.err(self.pos, "tensor encodings (sparsity, bounds) are not supported"));
            }
            self.expect(">")?;
            return Ok(Shape::array(dtype, dims));
        }
        if self.eat("tuple") {
            self.expect("<")?;
            let mut elems = Vec::new();
            if !self.eat(">") {
                self.enter()?;
                loop {
                    elems.push(self.ty()?);
                    if !self.eat(",") {
                        break;
                    }
                }
                self.leave();
                self.expect(">")?;
            }
            return Ok(Shape::Tuple(elems));
        }
        if self.at("!stablehlo.token") {
            return Err(self.err(pos, "tokens (!stablehlo.token) are not supported"));
        }
        // A bare element type is a scalar (`i32` in `1 : i32` is not a shape, but
        // reducer signatures occasionally spell scalars this way).
        let dtype = self.element_type()?;
        Ok(Shape::scalar(dtype))
    }

    fn element_type(&mut self) -> Result<DType> {
        self.ws();
        let pos = self.pos;
        if self.eat("complex") {
            self.expect("<")?;
            let inner = self.element_type()?;
            self.expect(">")?;
            return match inner {
                DType::F32 => Ok(DType::C64),
                DType::F64 => Ok(DType::C128),
                _ => Err(self.err(pos, format!("complex<{}> is not supported", inner.name()))),
            };
        }
        let name = self.ident();
        let dtype = match name {
            "i1" => DType::Pred,
            "i8" | "si8" => DType::S8,
            "i16" | "si16" => DType::S16,
            "i32" | "si32" => DType::S32,
            "i64" | "si64" => DType::S64,
            "ui8" => DType::U8,
            "ui16" => DType::U16,
            "ui32" => DType::U32,
            "ui64" => DType::U64,
            "f16" => DType::F16,
            "bf16" => DType::Bf16,
            "f32" => DType::F32,
            "f64" => DType::F64,
            // MLIR's `index` appears in layout attributes only.
            "index" => DType::S64,
            "" => return Err(self.err(pos, format!("expected an element type, found {}", self.found()))),
            other => return Err(self.err(pos, format!("element type '{other}' is not supported"))),
        };
        Ok(dtype)
    }

    /// Types separated by commas.
    fn type_list(&mut self) -> Result<Vec<Shape>> {
        let mut out = vec![self.ty()?];
        while self.eat(",") {
            out.push(self.ty()?);
        }
        Ok(out)
    }

    /// `(T, U) -> R`, `(T) -> (R, S)`, `T -> R`, `T, U` or `T`: the input and, when
    /// there is an arrow, the result types.
    fn signature(&mut self) -> Result<(Vec<Shape>, Option<Vec<Shape>>)> {
        let inputs = match self.paren_types()? {
            Some(types) => types,
            None => self.type_list()?,
        };
        if !self.eat("->") {
            return Ok((inputs, None));
        }
        let results = match self.paren_types()? {
            Some(types) => types,
            None => vec![self.ty()?],
        };
        Ok((inputs, Some(results)))
    }

    /// `(T, U)` or `()` when a parenthesis comes next, else `None`.
    fn paren_types(&mut self) -> Result<Option<Vec<Shape>>> {
        if !self.eat("(") {
            return Ok(None);
        }
        if self.eat(")") {
            return Ok(Some(Vec::new()));
        }
        let types = self.type_list()?;
        self.expect(")")?;
        Ok(Some(types))
    }

    fn value_ref(&mut self) -> Result<ValueRef> {
        self.ws();
        let pos = self.pos;
        let name = self.sigil_name(b'%')?;
        let mut index = 0;
        if self.bytes().get(self.pos) == Some(&b'#') {
            self.pos += 1;
            index = usize::try_from(self.int()?).map_err(|_| self.err(pos, "bad result index"))?;
        }
        Ok(ValueRef { name, index, pos })
    }

    fn value_list(&mut self, close: &str) -> Result<Vec<ValueRef>> {
        let mut out = Vec::new();
        if self.eat(close) {
            return Ok(out);
        }
        loop {
            out.push(self.value_ref()?);
            if !self.eat(",") {
                break;
            }
        }
        self.expect(close)?;
        Ok(out)
    }

    /// Skips `loc(...)`.
    fn skip_loc(&mut self) -> Result<()> {
        if self.eat("loc") {
            if !self.at("(") {
                return Err(self.err(self.pos, "expected '(' after loc"));
            }
            self.skip_balanced()?;
        }
        Ok(())
    }

    fn module(&mut self) -> Result<ModuleAst> {
        let mut ast = ModuleAst::default();
        self.top_level_aliases()?;
        let wrapped = self.eat("module");
        if wrapped {
            if self.peek() == Some(b'@') {
                ast.name = Some(self.sigil_name(b'@')?);
            }
            if self.eat("attributes") {
                self.skip_balanced()?;
            }
            self.expect("{")?;
        }
        loop {
            self.top_level_aliases()?;
            if wrapped && self.eat("}") {
                break;
            }
            if self.peek().is_none() {
                if wrapped {
                    return Err(self.err(self.pos, "expected '}' closing the module"));
                }
                break;
            }
            if self.at("func.func") {
                ast.funcs.push(self.func()?);
            } else {
                return Err(self.err(self.pos, format!("expected func.func, found {}", self.found())));
            }
        }
        self.skip_loc()?;
        self.top_level_aliases()?;
        if self.peek().is_some() {
            return Err(self.err(self.pos, format!("unexpected {} after the module", self.found())));
        }
        Ok(ast)
    }

    /// `#loc1 = loc(...)` and other attribute aliases: skipped.
    fn top_level_aliases(&mut self) -> Result<()> {
        while self.peek() == Some(b'#') {
            self.sigil_name(b'#')?;
            self.expect("=")?;
            self.skip_attr_value()?;
        }
        Ok(())
    }

    fn skip_attr_value(&mut self) -> Result<()> {
        self.attr_value().map(|_| ())
    }

    fn func(&mut self) -> Result<Func> {
        let pos = self.pos;
        self.expect("func.func")?;
        let mut public = true;
        if self.eat("private") {
            public = false;
        } else {
            self.eat("public");
        }
        let name = self.sigil_name(b'@')?;
        self.expect("(")?;
        let mut args = Vec::new();
        if !self.eat(")") {
            loop {
                self.ws();
                let apos = self.pos;
                let name = self.sigil_name(b'%')?;
                self.expect(":")?;
                let shape = self.ty()?;
                let attrs = if self.at("{") { self.attr_dict()? } else { Vec::new() };
                self.skip_loc()?;
                args.push(Arg { name, shape, attrs, pos: apos });
                if !self.eat(",") {
                    break;
                }
            }
            self.expect(")")?;
        }
        let mut results = Vec::new();
        if self.eat("->") {
            if self.eat("(") {
                if !self.eat(")") {
                    loop {
                        results.push(self.ty()?);
                        if self.at("{") {
                            self.attr_dict()?;
                        }
                        if !self.eat(",") {
                            break;
                        }
                    }
                    self.expect(")")?;
                }
            } else {
                results.push(self.ty()?);
            }
        }
        if self.eat("attributes") {
            self.skip_balanced()?;
        }
        let body = self.region()?;
        self.skip_loc()?;
        Ok(Func { name, pos, public, args, results, body })
    }

    /// `{ [^bb0(%a: T, ...):] ops }`.
    fn region(&mut self) -> Result<Region> {
        self.enter()?;
        self.ws();
        let pos = self.pos;
        self.expect("{")?;
        let mut region = Region { pos, ..Region::default() };
        if self.peek() == Some(b'^') {
            self.sigil_name(b'^')?;
            if self.eat("(") && !self.eat(")") {
                loop {
                    self.ws();
                    let apos = self.pos;
                    let name = self.sigil_name(b'%')?;
                    self.expect(":")?;
                    let shape = self.ty()?;
                    self.skip_loc()?;
                    region.args.push((name, shape, apos));
                    if !self.eat(",") {
                        break;
                    }
                }
                self.expect(")")?;
            }
            self.expect(":")?;
        }
        while !self.eat("}") {
            if self.peek().is_none() {
                return Err(self.err(pos, "region is not closed with '}'"));
            }
            if self.peek() == Some(b'^') {
                return Err(self.err(self.pos, "regions with more than one block are not supported"));
            }
            region.ops.push(self.op()?);
        }
        self.leave();
        Ok(region)
    }

    fn op(&mut self) -> Result<Op> {
        self.ws();
        let mut op = Op { pos: self.pos, ..Op::default() };
        if self.peek() == Some(b'%') {
            loop {
                let name = self.sigil_name(b'%')?;
                let mut count = 1;
                if self.bytes().get(self.pos) == Some(&b':') {
                    self.pos += 1;
                    let p = self.pos;
                    count = usize::try_from(self.int()?).map_err(|_| self.err(p, "bad result count"))?;
                    if count == 0 || count > 4096 {
                        return Err(self.err(p, "bad result count"));
                    }
                }
                op.results.push((name, count));
                if !self.eat(",") {
                    break;
                }
            }
            self.expect("=")?;
        }
        self.ws();
        op.pos = self.pos;
        if self.peek() == Some(b'"') {
            op.name = self.string()?;
            self.generic_op(&mut op)?;
        } else {
            op.name = self.expect_ident("an operation name")?.to_string();
            self.pretty_op(&mut op)?;
        }
        self.skip_loc()?;
        Ok(op)
    }

    /// `"name"(%a) <{props}> ({regions}) {attrs} : (T) -> R`.
    fn generic_op(&mut self, op: &mut Op) -> Result<()> {
        self.expect("(")?;
        op.operands = self.value_list(")")?;
        if self.eat("<{") {
            self.pos -= 1;
            op.attrs.extend(self.attr_dict()?);
            self.expect(">")?;
        }
        if self.at("(") {
            self.expect("(")?;
            loop {
                op.regions.push(self.region()?);
                if !self.eat(",") {
                    break;
                }
            }
            self.expect(")")?;
        }
        if self.at("{") {
            op.attrs.extend(self.attr_dict()?);
        }
        self.expect(":")?;
        let (_, results) = self.signature()?;
        op.result_types = results.ok_or_else(|| self.err(self.pos, "expected '->' and result types"))?;
        Ok(())
    }

    fn pretty_op(&mut self, op: &mut Op) -> Result<()> {
        let short = op.name.strip_prefix("stablehlo.").unwrap_or(&op.name).to_string();
        match short.as_str() {
            "constant" => {
                if self.at("{") {
                    op.attrs.extend(self.attr_dict()?);
                }
                let pos = self.pos;
                let value = self.attr_value()?;
                let Attr::Dense(d) = &value else {
                    return Err(self.err(pos, "expected a dense<...> : tensor<...> constant"));
                };
                op.result_types = vec![d.shape.clone()];
                op.attrs.push(NamedAttr { name: "value".into(), value, pos, raw: String::new() });
                Ok(())
            }
            "return" | "func.return" => {
                if self.peek() == Some(b'%') {
                    loop {
                        op.operands.push(self.value_ref()?);
                        if !self.eat(",") {
                            break;
                        }
                    }
                    self.expect(":")?;
                    self.type_list()?;
                }
                Ok(())
            }
            "reduce" => self.pretty_reduce(op),
            "while" => self.pretty_while(op),
            "custom_call" => {
                op.callee = Some(self.sigil_name(b'@')?);
                self.expect("(")?;
                op.operands = self.value_list(")")?;
                if self.at("{") {
                    op.attrs.extend(self.attr_dict()?);
                }
                self.finish_signature(op, false)
            }
            "func.call" | "call" => {
                op.callee = Some(self.sigil_name(b'@')?);
                self.expect("(")?;
                op.operands = self.value_list(")")?;
                if self.at("{") {
                    op.attrs.extend(self.attr_dict()?);
                }
                self.finish_signature(op, false)
            }
            "convolution" => {
                self.expect("(")?;
                op.operands = self.value_list(")")?;
                self.items(op)?;
                if self.at("{") {
                    op.attrs.extend(self.attr_dict()?);
                }
                self.finish_signature(op, false)
            }
            "chlo.top_k" => {
                self.expect("(")?;
                op.operands.push(self.value_ref()?);
                self.expect(",")?;
                self.expect("k")?;
                self.expect("=")?;
                let pos = self.pos;
                let k = self.int()?;
                op.attrs.push(NamedAttr { name: "k".into(), value: Attr::Int(k as i128), pos, raw: String::new() });
                self.expect(")")?;
                self.finish_signature(op, false)
            }
            _ => {
                self.items(op)?;
                if self.at("{") {
                    op.attrs.extend(self.attr_dict()?);
                }
                let list_results = matches!(short.as_str(), "optimization_barrier");
                self.finish_signature(op, list_results)
            }
        }
    }

    /// `: signature`, setting the result types. Without an arrow the last type
    /// is the result's (`: T` for same-type ops, `: tensor<i1>, T` for select),
    /// or, for `list_results`, every type is a result.
    fn finish_signature(&mut self, op: &mut Op, list_results: bool) -> Result<()> {
        self.expect(":")?;
        let (inputs, results) = self.signature()?;
        op.result_types = match results {
            Some(r) => r,
            None if list_results => inputs,
            None => inputs.last().cloned().into_iter().collect(),
        };
        Ok(())
    }

    /// The comma-separated operands and keyword attributes of a pretty op:
    /// `%a, %b, dims = [0, 1]`, `GT, %a, %b, FLOAT`, `%x [0:2, 1:3]`, `%t[0]`.
    fn items(&mut self, op: &mut Op) -> Result<()> {
        let short = op.name.strip_prefix("stablehlo.").unwrap_or(&op.name).to_string();
        let mut bare = 0;
        loop {
            self.ws();
            let pos = self.pos;
            match self.peek() {
                Some(b'%') => {
                    op.operands.push(self.value_ref()?);
                    if self.at("[") {
                        self.bracket_after_operand(op, &short)?;
                    }
                }
                Some(c) if c.is_ascii_alphabetic() => {
                    let save = self.pos;
                    let word = self.ident().to_string();
                    if self.at("=") && !self.at("==") {
                        self.expect("=")?;
                        self.keyword_attr(op, &word, pos)?;
                    } else if short == "compare" {
                        let name = if bare == 0 { "comparison_direction" } else { "compare_type" };
                        bare += 1;
                        op.attrs.push(NamedAttr {
                            name: name.into(),
                            value: Attr::Enum(word),
                            pos,
                            raw: String::new(),
                        });
                    } else {
                        self.pos = save;
                        return Ok(());
                    }
                }
                _ => return Ok(()),
            }
            if !self.eat(",") {
                return Ok(());
            }
        }
    }

    /// `[0:5, 1:3:2]` of slice, `[0]` of get_tuple_element.
    fn bracket_after_operand(&mut self, op: &mut Op, short: &str) -> Result<()> {
        let pos = self.pos;
        self.expect("[")?;
        if short == "get_tuple_element" {
            let i = self.int()?;
            self.expect("]")?;
            op.attrs.push(NamedAttr { name: "index".into(), value: Attr::Int(i as i128), pos, raw: String::new() });
            return Ok(());
        }
        if short != "slice" {
            return Err(self.err(pos, format!("unexpected '[' in {}", op.name)));
        }
        let (mut starts, mut limits, mut strides) = (Vec::new(), Vec::new(), Vec::new());
        if !self.eat("]") {
            loop {
                starts.push(Attr::Int(self.int()? as i128));
                self.expect(":")?;
                limits.push(Attr::Int(self.int()? as i128));
                let stride = if self.eat(":") { self.int()? } else { 1 };
                strides.push(Attr::Int(stride as i128));
                if !self.eat(",") {
                    break;
                }
            }
            self.expect("]")?;
        }
        for (name, v) in [("start_indices", starts), ("limit_indices", limits), ("strides", strides)] {
            op.attrs.push(NamedAttr { name: name.into(), value: Attr::List(v), pos, raw: String::new() });
        }
        Ok(())
    }

    /// `name = value` inside a pretty op, in the spelling of the generic form.
    fn keyword_attr(&mut self, op: &mut Op, word: &str, pos: usize) -> Result<()> {
        match word {
            // dot_general: `batching_dims = [0] x [0]`.
            "batching_dims" | "contracting_dims" => {
                let lhs = self.attr_value()?;
                self.expect("x")?;
                let rhs = self.attr_value()?;
                let kind = if word == "batching_dims" { "batching" } else { "contracting" };
                let fields = vec![(format!("lhs_{kind}_dimensions"), lhs), (format!("rhs_{kind}_dimensions"), rhs)];
                match op.attrs.iter_mut().find(|a| a.name == "dot_dimension_numbers") {
                    Some(NamedAttr { value: Attr::Struct(s), .. }) => s.extend(fields),
                    _ => op.attrs.push(NamedAttr {
                        name: "dot_dimension_numbers".into(),
                        value: Attr::Struct(fields),
                        pos,
                        raw: String::new(),
                    }),
                }
            }
            // convolution: `dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]`.
            "dim_numbers" => {
                let dims = self.conv_dims()?;
                op.attrs.push(NamedAttr {
                    name: "dimension_numbers".into(),
                    value: Attr::Conv(dims),
                    pos,
                    raw: String::new(),
                });
            }
            // convolution: `window = {stride = [..], pad = [[..]], lhs_dilate = [..], ...}`.
            "window" => {
                for a in self.attr_dict()? {
                    let name = match a.name.as_str() {
                        "stride" => "window_strides",
                        "pad" => "padding",
                        "lhs_dilate" => "lhs_dilation",
                        "rhs_dilate" => "rhs_dilation",
                        "reverse" => "window_reversal",
                        other => return Err(self.err(a.pos, format!("unknown window field '{other}'"))),
                    };
                    op.attrs.push(NamedAttr { name: name.into(), ..a });
                }
            }
            _ => {
                let start = self.pos;
                let value = self.attr_value()?;
                let raw = self.src[start..self.pos].trim().to_string();
                op.attrs.push(NamedAttr { name: word.to_string(), value, pos, raw });
            }
        }
        Ok(())
    }

    /// `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]`, read through XLA's label form.
    fn conv_dims(&mut self) -> Result<ConvDims> {
        self.ws();
        let pos = self.pos;
        let lhs = self.conv_part()?;
        self.expect("x")?;
        let rhs = self.conv_part()?;
        self.expect("->")?;
        let out = self.conv_part()?;
        ConvDims::from_labels(&format!("{lhs}_{rhs}->{out}"))
            .map_err(|m| self.err(pos, format!("bad convolution dimension numbers: {m}")))
    }

    /// `[b, 0, 1, f]` as `b01f`.
    fn conv_part(&mut self) -> Result<String> {
        {
            self.expect("[")?;
            let mut s = String::new();
            loop {
                self.ws();
                let c = self.bytes().get(self.pos).copied().unwrap_or(b' ');
                if c == b']' {
                    self.pos += 1;
                    return Ok(s);
                }
                if c == b',' || c.is_ascii_alphanumeric() {
                    if c != b',' {
                        s.push(c as char);
                    }
                    self.pos += 1;
                } else {
                    return Err(self.err(self.pos, "bad convolution dimension numbers"));
                }
            }
        }
    }

    /// `reduce(%a init: %b), (%c init: %d) applies stablehlo.add across dimensions = [1]
    /// : sig` or, instead of `applies`, a `reducer(%x: T, %y: T) (...) { ... }` body.
    fn pretty_reduce(&mut self, op: &mut Op) -> Result<()> {
        let mut inits = Vec::new();
        loop {
            self.expect("(")?;
            op.operands.push(self.value_ref()?);
            self.expect("init")?;
            self.expect(":")?;
            inits.push(self.value_ref()?);
            self.expect(")")?;
            if !self.eat(",") {
                break;
            }
        }
        op.operands.extend(inits);
        if self.eat("applies") {
            self.ws();
            let pos = self.pos;
            op.applies = Some((self.expect_ident("a reducer op")?.to_string(), pos));
        }
        self.expect("across")?;
        self.expect("dimensions")?;
        self.expect("=")?;
        let pos = self.pos;
        let dims = self.attr_value()?;
        op.attrs.push(NamedAttr { name: "dimensions".into(), value: dims, pos, raw: String::new() });
        if self.at("{") {
            op.attrs.extend(self.attr_dict()?);
        }
        self.finish_signature(op, false)?;
        if op.applies.is_none() {
            self.expect("reducer")?;
            let (mut firsts, mut seconds) = (Vec::new(), Vec::new());
            while self.eat("(") {
                for side in [&mut firsts, &mut seconds] {
                    self.ws();
                    let apos = self.pos;
                    let name = self.sigil_name(b'%')?;
                    self.expect(":")?;
                    let shape = self.ty()?;
                    self.skip_loc()?;
                    side.push((name, shape, apos));
                    self.eat(",");
                }
                self.expect(")")?;
            }
            let mut body = self.region()?;
            firsts.extend(seconds);
            body.args = firsts;
            op.regions.push(body);
        }
        Ok(())
    }

    /// `while(%iterArg = %a, ...) : T, ... cond { ... } do { ... }`.
    fn pretty_while(&mut self, op: &mut Op) -> Result<()> {
        self.expect("(")?;
        let mut names = Vec::new();
        if !self.eat(")") {
            loop {
                self.ws();
                let apos = self.pos;
                names.push((self.sigil_name(b'%')?, apos));
                self.expect("=")?;
                op.operands.push(self.value_ref()?);
                if !self.eat(",") {
                    break;
                }
            }
            self.expect(")")?;
        }
        if self.at("attributes") {
            self.expect("attributes")?;
            op.attrs.extend(self.attr_dict()?);
        }
        op.result_types = if self.eat(":") { self.type_list()? } else { Vec::new() };
        if op.result_types.len() != names.len() {
            return Err(self.err(op.pos, "while needs one type per loop-carried value"));
        }
        for keyword in ["cond", "do"] {
            self.expect(keyword)?;
            let mut region = self.region()?;
            region.args = names.iter().zip(&op.result_types).map(|((n, p), s)| (n.clone(), s.clone(), *p)).collect();
            op.regions.push(region);
        }
        Ok(())
    }

    /// `{name = value, flag, ...}`.
    fn attr_dict(&mut self) -> Result<Vec<NamedAttr>> {
        self.enter()?;
        self.expect("{")?;
        let mut out = Vec::new();
        if !self.eat("}") {
            loop {
                self.ws();
                let pos = self.pos;
                let name = if self.peek() == Some(b'"') {
                    self.string()?
                } else {
                    self.expect_ident("an attribute name")?.to_string()
                };
                let (value, raw) = if self.eat("=") {
                    self.ws();
                    let start = self.pos;
                    let v = self.attr_value()?;
                    (v, self.src[start..self.pos].trim().to_string())
                } else {
                    (Attr::Unit, String::new())
                };
                out.push(NamedAttr { name, value, pos, raw });
                if !self.eat(",") {
                    break;
                }
            }
            self.expect("}")?;
        }
        self.leave();
        Ok(out)
    }

    fn attr_value(&mut self) -> Result<Attr> {
        self.enter()?;
        let v = self.attr_value_inner();
        self.leave();
        v
    }

    fn attr_value_inner(&mut self) -> Result<Attr> {
        self.ws();
        let pos = self.pos;
        let value = match self.peek() {
            None => return Err(self.err(pos, "expected an attribute value, found end of input")),
            Some(b'[') => {
                self.expect("[")?;
                let mut items = Vec::new();
                if !self.eat("]") {
                    loop {
                        items.push(self.attr_value()?);
                        if !self.eat(",") {
                            break;
                        }
                    }
                    self.expect("]")?;
                }
                Attr::List(items)
            }
            Some(b'{') => Attr::Dict(self.attr_dict()?),
            Some(b'"') => Attr::Str(self.string()?),
            Some(b'@') => Attr::Symbol(self.sigil_name(b'@')?),
            Some(b'#') => self.hash_attr()?,
            Some(b'(') | Some(b'<') => {
                self.skip_balanced()?;
                Attr::Other
            }
            Some(c) if c.is_ascii_digit() || c == b'-' => {
                let v = match self.number()? {
                    Scalar::Int(i) => Attr::Int(i),
                    Scalar::Bits(b) => Attr::Int(b as i128),
                    Scalar::Float(f) => Attr::Float(f),
                    _ => Attr::Other,
                };
                self.scalar_type_suffix()?;
                v
            }
            Some(_) => {
                let word = self.expect_ident("an attribute value")?;
                match word {
                    "true" => Attr::Bool(true),
                    "false" => Attr::Bool(false),
                    "unit" => Attr::Unit,
                    "dense" => Attr::Dense(self.dense(pos)?),
                    "dense_resource" => return Err(self.err(pos, "dense_resource constants are not supported")),
                    "array" => self.dense_array()?,
                    _ => {
                        if self.at("<") || self.at("(") {
                            self.skip_balanced()?;
                            Attr::Other
                        } else {
                            Attr::Enum(word.to_string())
                        }
                    }
                }
            }
        };
        if matches!(value, Attr::Bool(_)) {
            self.scalar_type_suffix()?;
        }
        Ok(value)
    }

    /// The `: i64` of a typed scalar attribute (`1 : i64`, `true : i1`), but not
    /// the `: tensor<...>` or `: (...)` of the op's signature that may follow.
    fn scalar_type_suffix(&mut self) -> Result<()> {
        let save = self.pos;
        if self.eat(":") {
            self.ws();
            let rest = &self.src[self.pos..];
            let scalar = ["i", "si", "ui", "f", "bf", "index", "complex"].iter().any(|p| rest.starts_with(p))
                && !rest.starts_with("func");
            if scalar {
                self.element_type()?;
                return Ok(());
            }
        }
        self.pos = save;
        Ok(())
    }

    /// `#stablehlo<comparison_direction GT>`, `#stablehlo.gather<k = v, ...>`,
    /// `#stablehlo.conv<[b, 0, f]x[...]->[...]>`, aliases like `#loc3`.
    fn hash_attr(&mut self) -> Result<Attr> {
        let name = self.sigil_name(b'#')?;
        if !self.at("<") {
            return Ok(Attr::Other);
        }
        if name == "stablehlo.conv" {
            self.expect("<")?;
            self.eat("raw");
            let dims = self.conv_dims()?;
            self.expect(">")?;
            return Ok(Attr::Conv(dims));
        }
        if name.contains('.') && name.starts_with("stablehlo.") {
            self.expect("<")?;
            let mut fields = Vec::new();
            if !self.eat(">") {
                loop {
                    let field = self.expect_ident("a field name")?.to_string();
                    self.expect("=")?;
                    fields.push((field, self.attr_value()?));
                    if !self.eat(",") {
                        break;
                    }
                }
                self.expect(">")?;
            }
            return Ok(Attr::Struct(fields));
        }
        if name == "stablehlo" || name == "chlo" {
            // `#stablehlo<kind VALUE>`.
            self.expect("<")?;
            self.expect_ident("an enum kind")?;
            let value = self.expect_ident("an enum value")?.to_string();
            self.expect(">")?;
            return Ok(Attr::Enum(value));
        }
        self.skip_balanced()?;
        Ok(Attr::Other)
    }

    /// `array<i64: 1, 2>` or `array<i1: true>`: a list.
    fn dense_array(&mut self) -> Result<Attr> {
        self.expect("<")?;
        self.element_type()?;
        let mut items = Vec::new();
        if self.eat(":") {
            loop {
                let pos = self.pos;
                items.push(match self.attr_value()? {
                    a @ (Attr::Int(_) | Attr::Bool(_) | Attr::Float(_)) => a,
                    _ => return Err(self.err(pos, "expected a number in array<...>")),
                });
                if !self.eat(",") {
                    break;
                }
            }
        }
        self.expect(">")?;
        Ok(Attr::List(items))
    }

    /// `dense<...> : tensor<...>` after the word `dense`.
    fn dense(&mut self, pos: usize) -> Result<Dense> {
        self.expect("<")?;
        let body = if self.peek() == Some(b'"') {
            let spos = self.pos;
            let text = self.string()?;
            let hex = text.strip_prefix("0x").ok_or_else(|| self.err(spos, "expected a \"0x...\" hex string"))?;
            if hex.len() % 2 != 0 {
                return Err(self.err(spos, "hex string has an odd number of digits"));
            }
            // Pairs of bytes, not of chars: a string may hold any UTF-8.
            let digit = |b: u8| (b as char).to_digit(16);
            let bytes = hex
                .as_bytes()
                .chunks_exact(2)
                .map(|p| Some((digit(p[0])? * 16 + digit(p[1])?) as u8))
                .collect::<Option<Vec<u8>>>()
                .ok_or_else(|| self.err(spos, "bad hex digit in dense string"))?;
            DenseBody::Bytes(bytes)
        } else {
            let mut out = Vec::new();
            if !self.at(">") {
                self.dense_elements(&mut out)?;
            }
            DenseBody::Elements(out)
        };
        self.expect(">")?;
        self.expect(":")?;
        let shape = self.ty().map_err(|e| if e.message.is_empty() { self.err(pos, "bad dense type") } else { e })?;
        Ok(Dense { shape, body })
    }

    fn dense_elements(&mut self, out: &mut Vec<Scalar>) -> Result<()> {
        self.enter()?;
        if self.eat("[") {
            if !self.eat("]") {
                loop {
                    self.dense_elements(out)?;
                    if !self.eat(",") {
                        break;
                    }
                }
                self.expect("]")?;
            }
        } else if self.eat("(") {
            let re = self.dense_float()?;
            self.expect(",")?;
            let im = self.dense_float()?;
            self.expect(")")?;
            out.push(Scalar::Complex(re, im));
        } else if self.eat("true") {
            out.push(Scalar::Bool(true));
        } else if self.eat("false") {
            out.push(Scalar::Bool(false));
        } else {
            out.push(self.number()?);
        }
        self.leave();
        Ok(())
    }

    fn dense_float(&mut self) -> Result<f64> {
        match self.number()? {
            Scalar::Int(i) => Ok(i as f64),
            Scalar::Float(f) => Ok(f),
            Scalar::Bits(b) => Ok(f64::from_bits(b)),
            _ => Err(self.err(self.pos, "expected a number")),
        }
    }
}
