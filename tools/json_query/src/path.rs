//! The JSONPath parser (RFC 9535 §2.1–2.3): `$`, `.name`, `['name']`, `[n]`,
//! `[*]`, `..`, slices `[a:b:c]`, unions `[0,'a']` and filters `[?…]` (whose
//! expressions are filter.rs). Every syntax rule of the RFC is checked here,
//! before any data is touched, and an error names the position and the reason.
//! One extension: a missing leading `$` is forgiven (`store.book`).

use crate::ast::{Query, Segment, Selector};

/// Filters, parentheses and function calls nest at most this deep: the wasm stack is small.
pub const MAX_DEPTH: usize = 64;

/// A character for an error message, which must stay one line: controls and blank space by code point.
pub(crate) fn shown(c: char) -> String {
    if c.is_control() || c.is_whitespace() {
        format!("U+{:04X}", c as u32)
    } else {
        format!("'{}'", c)
    }
}

/// name-first (RFC 9535 §2.5.1.1): ALPHA, `_`, or any non-ASCII character (surrogates cannot occur in a str).
fn name_first(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_' || (c as u32) >= 0x80
}

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
        self.err_at(self.i, msg)
    }

    /// Positions count characters from 1.
    pub(crate) fn err_at(&self, at: usize, msg: &str) -> String {
        format!("invalid JSONPath at position {}: {}", at + 1, msg)
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

    /// RFC 9535's blank space: space, tab, line feed, carriage return (nothing else).
    pub(crate) fn ws(&mut self) {
        while matches!(self.peek(), Some(' ' | '\t' | '\n' | '\r')) {
            self.i += 1;
        }
    }

    /// The whole query. A missing leading `$` is forgiven: `store.book` means `$.store.book`.
    /// No blank space before or after it (RFC 9535).
    pub fn parse_root(mut self) -> Result<Query, String> {
        if matches!(self.peek(), Some(' ' | '\t' | '\n' | '\r')) {
            return Err(self.err("blank space before the query"));
        }
        let q = if self.eat("$") || matches!(self.peek(), Some('.' | '[')) {
            self.segments(false)?
        } else {
            match self.peek() {
                None => return Err(self.err("the query is empty: it starts with $")),
                Some(c) if !name_first(c) => return Err(self.err(&format!("a query starts with $, not {}", shown(c)))),
                _ => {}
            }
            let first = Segment { descendant: false, selectors: vec![Selector::Name(self.name("a name")?)] };
            let mut q = self.segments(false)?;
            q.segments.insert(0, first);
            q
        };
        if self.i < self.c.len() {
            let end = self.i;
            self.ws();
            return Err(match self.peek() {
                None => self.err_at(end, "blank space after the query"),
                Some(c) => self.err(&format!("unexpected {} (a segment starts with '.', '..' or '[')", shown(c))),
            });
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
                    _ => vec![Selector::Name(self.name("a member name, '*' or '[' after '..'")?)],
                };
                segments.push(Segment { descendant: true, selectors });
            } else if self.eat(".") {
                let sel = if self.eat("*") { Selector::Wildcard } else { Selector::Name(self.name("a member name or '*' after '.'")?) };
                segments.push(Segment { descendant: false, selectors: vec![sel] });
            } else if self.peek() == Some('[') {
                segments.push(Segment { descendant: false, selectors: self.bracket()? });
            } else {
                // Blank space belongs here only before a segment. After the last one it is the
                // caller's: fine before `==` in a filter, an error after the whole query.
                self.i = save;
                return Ok(Query { relative, segments });
            }
        }
    }

    /// A member-name shorthand: a letter, `_` or any non-ASCII character first, then digits too.
    /// `wanted` says what may stand here, for the error.
    fn name(&mut self, wanted: &str) -> Result<String, String> {
        let start = self.i;
        if !matches!(self.peek(), Some(c) if name_first(c)) {
            let found = self.peek().map_or("the end".to_string(), shown);
            return Err(self.err(&format!(
                "expected {}, found {} (a name starts with a letter, _ or a non-ASCII character; write others as ['name'])",
                wanted, found
            )));
        }
        while matches!(self.peek(), Some(c) if name_first(c) || c.is_ascii_digit()) {
            self.i += 1;
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
            return Err(match self.peek() {
                None => self.err("unterminated '['"),
                Some(c) => self.err(&format!("expected ',' or ']' after a selector, found {}", shown(c))),
            });
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
            Some(']') => Err(self.err("expected a selector before ']'")),
            Some(c) => Err(self.err(&format!("unexpected {} in brackets: expected a quoted name, '*', an index, a slice or a ?filter", shown(c)))),
            None => Err(self.err("unterminated '['")),
        }
    }

    /// RFC 9535's int: `0`, or an optional `-` and digits without a leading zero, within ±(2^53 − 1).
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
        let digits = text.trim_start_matches('-');
        if digits.is_empty() || (digits.starts_with('0') && (digits.len() > 1 || text.starts_with('-'))) {
            return Err(self.err_at(start, &format!("invalid integer '{}' (no leading zeros, no -0)", text)));
        }
        match text.parse::<i64>() {
            Ok(n) if n.abs() <= 9_007_199_254_740_991 => Ok(Some(n)),
            _ => Err(self.err_at(start, &format!("integer '{}' is out of range (at most 2^53 - 1 either way)", text))),
        }
    }

    fn index_or_slice(&mut self) -> Result<Selector, String> {
        let start = self.int()?;
        self.ws();
        if !self.eat(":") {
            return start.map(Selector::Index).ok_or_else(|| self.err("expected an index or a slice"));
        }
        let end = self.int()?;
        self.ws();
        let step = if self.eat(":") { self.int()? } else { None };
        Ok(Selector::Slice(start, end, step))
    }

    /// The four hex digits after `\u` (either case); `at` is the escape's backslash, for errors.
    fn hex4(&mut self, at: usize) -> Result<u32, String> {
        let hex: String = self.c.get(self.i..self.i + 4).map(|h| h.iter().collect()).unwrap_or_default();
        if hex.len() != 4 || !hex.chars().all(|h| h.is_ascii_hexdigit()) {
            return Err(self.err_at(at, "\\u needs four hex digits"));
        }
        self.i += 4;
        Ok(u32::from_str_radix(&hex, 16).unwrap_or(0))
    }

    /// A `\u` escape after its backslash and `u`: a code point, or a surrogate pair written as two escapes.
    fn unicode_escape(&mut self, at: usize) -> Result<char, String> {
        let hi = self.hex4(at)?;
        let cp = if (0xD800..0xDC00).contains(&hi) {
            let low_at = self.i;
            if !self.eat("\\u") {
                return Err(self.err_at(at, &format!("\\u{:04X} is a high surrogate: a \\u low surrogate (DC00 to DFFF) must follow", hi)));
            }
            let lo = self.hex4(low_at)?;
            if !(0xDC00..0xE000).contains(&lo) {
                return Err(self.err_at(low_at, &format!("\\u{:04X} after the high surrogate \\u{:04X} is not a low surrogate (DC00 to DFFF)", lo, hi)));
            }
            0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
        } else if (0xDC00..0xE000).contains(&hi) {
            return Err(self.err_at(at, &format!("\\u{:04X} is a low surrogate without a high one before it", hi)));
        } else {
            hi
        };
        char::from_u32(cp).ok_or_else(|| self.err_at(at, "invalid \\u escape"))
    }

    /// A quoted string (RFC 9535): JSON's escapes, `\'` only in single quotes and `\"` only in
    /// double quotes, surrogate pairs as two `\u` escapes, no raw control characters.
    pub(crate) fn string(&mut self) -> Result<String, String> {
        let start = self.i;
        let quote = self.c[self.i];
        self.i += 1;
        let mut out = String::new();
        loop {
            let c = self.peek().ok_or_else(|| self.err_at(start, "unterminated string"))?;
            if (c as u32) < 0x20 {
                return Err(self.err(&format!("control character {} in a string: escape it", shown(c))));
            }
            self.i += 1;
            if c == quote {
                return Ok(out);
            }
            if c != '\\' {
                out.push(c);
                continue;
            }
            let escape_at = self.i - 1;
            let e = self.peek().ok_or_else(|| self.err_at(start, "unterminated string"))?;
            self.i += 1;
            out.push(match e {
                'n' => '\n',
                't' => '\t',
                'r' => '\r',
                'b' => '\u{8}',
                'f' => '\u{c}',
                '/' => '/',
                '\\' => '\\',
                '\'' if quote == '\'' => '\'',
                '"' if quote == '"' => '"',
                'u' => self.unicode_escape(escape_at)?,
                '\'' | '"' => return Err(self.err_at(escape_at, &format!("invalid escape: {} needs no backslash inside {} quotes", shown(e), if quote == '"' { "double" } else { "single" }))),
                other => return Err(self.err_at(escape_at, &format!("invalid escape: backslash before {} (valid: \\b \\f \\n \\r \\t \\/ \\\\ \\uXXXX and the quote)", shown(other)))),
            });
        }
    }
}
