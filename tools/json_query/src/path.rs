//! JSONPath syntax (RFC 9535, plus the `[?(…)]` filter spelling most tools
//! use): `$`, `.key`, `['key']`, `[n]`, `[-1]`, `[*]`, `..`, `[a:b:c]`,
//! unions `[0,2]`, and filters. Parsing is separate from evaluation so syntax
//! errors say where they are before any data is touched.

use moat_tool::Json;

#[derive(Debug, Clone)]
pub enum Selector {
    Name(String),
    Wildcard,
    Index(i64),
    Slice(Option<i64>, Option<i64>, Option<i64>),
    Filter(Box<Expr>),
}

#[derive(Debug, Clone)]
pub struct Segment {
    /// `..` : apply to the node and all its descendants.
    pub descendant: bool,
    pub selectors: Vec<Selector>,
}

#[derive(Debug, Clone)]
pub struct Query {
    /// `@` (the current node in a filter) rather than `$`.
    pub relative: bool,
    pub segments: Vec<Segment>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

#[derive(Debug, Clone)]
pub enum Operand {
    Literal(Json),
    Query(Query),
}

#[derive(Debug, Clone)]
pub enum Expr {
    Or(Box<Expr>, Box<Expr>),
    And(Box<Expr>, Box<Expr>),
    Not(Box<Expr>),
    Compare(Operand, CmpOp, Operand),
    Exists(Query),
}

pub const MAX_DEPTH: usize = 64;

pub struct Parser {
    pub(crate) c: Vec<char>,
    pub(crate) i: usize,
    pub(crate) depth: usize,
}

impl Parser {
    pub fn new(src: &str) -> Parser {
        Parser { c: src.chars().collect(), i: 0, depth: 0 }
    }

    pub(crate) fn err(&self, msg: &str) -> String {
        format!("invalid JSONPath at position {}: {}", self.i + 1, msg)
    }

    pub(crate) fn peek(&self) -> Option<char> {
        self.c.get(self.i).copied()
    }

    pub(crate) fn eat(&mut self, s: &str) -> bool {
        let n = s.chars().count();
        if self.c.len() >= self.i + n && self.c[self.i..self.i + n].iter().copied().eq(s.chars()) {
            self.i += n;
            return true;
        }
        false
    }

    pub(crate) fn ws(&mut self) {
        while matches!(self.peek(), Some(c) if c.is_whitespace()) {
            self.i += 1;
        }
    }

    /// The whole query. A missing leading `$` is forgiven: `store.book` means `$.store.book`.
    pub fn parse_root(mut self) -> Result<Query, String> {
        self.ws();
        let q = if self.eat("$") || matches!(self.peek(), Some('.' | '[')) {
            self.segments(false)?
        } else {
            let first = Segment { descendant: false, selectors: vec![Selector::Name(self.name()?)] };
            let mut q = self.segments(false)?;
            q.segments.insert(0, first);
            q
        };
        self.ws();
        if self.i < self.c.len() {
            return Err(self.err(&format!("unexpected '{}'", self.c[self.i])));
        }
        Ok(q)
    }

    pub(crate) fn segments(&mut self, relative: bool) -> Result<Query, String> {
        let mut segments = Vec::new();
        loop {
            let save = self.i;
            self.ws();
            if self.eat("..") {
                let selectors = match self.peek() {
                    Some('[') => self.bracket()?,
                    Some('*') => {
                        self.i += 1;
                        vec![Selector::Wildcard]
                    }
                    _ => vec![Selector::Name(self.name()?)],
                };
                segments.push(Segment { descendant: true, selectors });
            } else if self.eat(".") {
                let sel = if self.eat("*") { Selector::Wildcard } else { Selector::Name(self.name()?) };
                segments.push(Segment { descendant: false, selectors: vec![sel] });
            } else if self.peek() == Some('[') {
                segments.push(Segment { descendant: false, selectors: self.bracket()? });
            } else {
                // Whitespace is allowed between segments, not after the last one.
                self.i = save;
                return Ok(Query { relative, segments });
            }
        }
    }

    fn name(&mut self) -> Result<String, String> {
        let start = self.i;
        while matches!(self.peek(), Some(c) if c.is_alphanumeric() || c == '_' || c == '-' || c == '$' || (c as u32) > 0x7f) {
            self.i += 1;
        }
        if self.i == start {
            return Err(self.err("expected a member name, '*' or '['"));
        }
        Ok(self.c[start..self.i].iter().collect())
    }

    fn bracket(&mut self) -> Result<Vec<Selector>, String> {
        self.i += 1; // '['
        let mut out = Vec::new();
        loop {
            self.ws();
            out.push(self.selector()?);
            self.ws();
            if self.eat(",") {
                continue;
            }
            if self.eat("]") {
                return Ok(out);
            }
            return Err(self.err("expected ',' or ']'"));
        }
    }

    fn selector(&mut self) -> Result<Selector, String> {
        match self.peek() {
            Some('\'') | Some('"') => Ok(Selector::Name(self.string()?)),
            Some('*') => {
                self.i += 1;
                Ok(Selector::Wildcard)
            }
            Some('?') => {
                self.i += 1;
                self.ws();
                Ok(Selector::Filter(Box::new(self.filter()?)))
            }
            Some(c) if c == '-' || c == ':' || c.is_ascii_digit() => self.index_or_slice(),
            Some(c) => Err(self.err(&format!("unexpected '{}' in brackets", c))),
            None => Err(self.err("unterminated '['")),
        }
    }

    fn int(&mut self) -> Result<Option<i64>, String> {
        self.ws();
        let start = self.i;
        if self.peek() == Some('-') {
            self.i += 1;
        }
        while matches!(self.peek(), Some(c) if c.is_ascii_digit()) {
            self.i += 1;
        }
        if self.i == start {
            return Ok(None);
        }
        let text: String = self.c[start..self.i].iter().collect();
        text.parse().map(Some).map_err(|_| self.err(&format!("invalid index '{}'", text)))
    }

    fn index_or_slice(&mut self) -> Result<Selector, String> {
        let start = self.int()?;
        self.ws();
        if !self.eat(":") {
            return start.map(Selector::Index).ok_or_else(|| self.err("expected an index"));
        }
        let end = self.int()?;
        self.ws();
        let step = if self.eat(":") { self.int()? } else { None };
        if step == Some(0) {
            return Err(self.err("a slice step cannot be 0"));
        }
        Ok(Selector::Slice(start, end, step))
    }

    /// A quoted name with JSON-style escapes; single quotes allowed.
    pub(crate) fn string(&mut self) -> Result<String, String> {
        let quote = self.c[self.i];
        self.i += 1;
        let mut out = String::new();
        loop {
            let c = self.peek().ok_or_else(|| self.err("unterminated string"))?;
            self.i += 1;
            if c == quote {
                return Ok(out);
            }
            if c != '\\' {
                out.push(c);
                continue;
            }
            let e = self.peek().ok_or_else(|| self.err("unterminated string"))?;
            self.i += 1;
            out.push(match e {
                'n' => '\n',
                't' => '\t',
                'r' => '\r',
                'b' => '\u{8}',
                'f' => '\u{c}',
                'u' => {
                    let hex: String = self.c.get(self.i..self.i + 4).map(|h| h.iter().collect()).unwrap_or_default();
                    self.i += 4;
                    u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32).ok_or_else(|| self.err("invalid \\u escape"))?
                }
                other => other,
            });
        }
    }
}
