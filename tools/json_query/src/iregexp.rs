//! The syntax of I-Regexp (RFC 9485 §3), the interoperable regular
//! expressions of JSONPath's match() and search(): branches `|`,
//! concatenation, `* + ? {n} {n,} {n,m}`, groups, `.` (anything but CR and
//! LF), escapes, classes `[a-z\p{Lu}]` and `[^…]`, and `\p{…}`/`\P{…}`
//! General_Category escapes. Nothing else: no `\d`, `\w`, backreferences,
//! lazy quantifiers or `(?…)`. Parsed to a tree here; nfa.rs runs it.

use crate::categories::GENERAL_CATEGORY;

/// A repetition count above this is refused: `{1000000}` would be a huge program.
/// The pattern is then treated like an invalid one (match() and search() give false).
pub const MAX_REPEAT: u32 = 1000;
/// Groups nest at most this deep: the wasm stack is small.
const MAX_NESTING: usize = 100;

#[derive(Debug, Clone)]
pub enum Item {
    Range(char, char),
    /// A category (`L` or `Lu`) and whether it is negated (`\P{…}`).
    Category(&'static str, bool),
}

#[derive(Debug, Clone)]
pub enum Class {
    /// `.`: any character but CR and LF.
    Dot,
    Set { negated: bool, items: Vec<Item> },
}

#[derive(Debug, Clone)]
pub enum Node {
    Class(Class),
    Concat(Vec<Node>),
    Alt(Vec<Node>),
    Repeat(Box<Node>, u32, Option<u32>),
    /// `^` and `$`. RFC 9485's grammar makes them ordinary characters (as in XSD), but its own
    /// mappings to ECMAScript and PCRE (§5) leave them unescaped, where they are anchors, and the
    /// JSONPath Compliance Test Suite expects anchors (`match(@, '^ab.*')` matches "abc"). We
    /// follow the test suite: what portable implementations do.
    Start,
    End,
}

/// The General_Category of `c`, two letters (`Lu`); `Cn` where the table has no entry.
fn category(c: char) -> &'static str {
    let c = c as u32;
    let i = GENERAL_CATEGORY.partition_point(|&(_, hi, _)| hi < c);
    match GENERAL_CATEGORY.get(i) {
        Some(&(lo, _, cat)) if lo <= c => cat,
        _ => "Cn",
    }
}

impl Class {
    pub fn matches(&self, c: char) -> bool {
        match self {
            Class::Dot => c != '\n' && c != '\r',
            Class::Set { negated, items } => {
                let hit = items.iter().any(|it| match it {
                    Item::Range(lo, hi) => *lo <= c && c <= *hi,
                    // `\p{L}` is every L· category; `\p{Lu}` just that one.
                    Item::Category(cat, neg) => category(c).starts_with(cat) != *neg,
                });
                hit != *negated
            }
        }
    }
}

/// RFC 9485's IsCategory: the one-letter groups and their two-letter categories (no `Cs`).
const CATEGORIES: &[&str] = &[
    "L", "Lu", "Ll", "Lt", "Lm", "Lo", "M", "Mn", "Mc", "Me", "N", "Nd", "Nl", "No", "P", "Pc", "Pd", "Ps", "Pe", "Pi", "Pf", "Po", "Z", "Zs", "Zl", "Zp", "S", "Sm",
    "Sc", "Sk", "So", "C", "Cc", "Cf", "Co", "Cn",
];

/// Parses a whole pattern; an error names the position (in characters, from 1) and the reason.
pub fn parse(pattern: &str) -> Result<Node, String> {
    let mut p = Parser { c: pattern.chars().collect(), i: 0 };
    let node = p.regexp(0)?;
    match p.peek() {
        None => Ok(node),
        Some(')') => Err(p.err("')' without '('")),
        Some(c) => Err(p.err(&format!("unexpected '{}'", c))),
    }
}

struct Parser {
    c: Vec<char>,
    i: usize,
}

impl Parser {
    fn peek(&self) -> Option<char> {
        self.c.get(self.i).copied()
    }

    fn next_is(&self, c: char) -> bool {
        self.c.get(self.i + 1) == Some(&c)
    }

    fn err(&self, msg: &str) -> String {
        format!("at {}: {}", self.i + 1, msg)
    }

    fn regexp(&mut self, depth: usize) -> Result<Node, String> {
        if depth > MAX_NESTING {
            return Err(self.err("groups nested too deeply"));
        }
        let mut branches = vec![self.branch(depth)?];
        while self.peek() == Some('|') {
            self.i += 1;
            branches.push(self.branch(depth)?);
        }
        Ok(if branches.len() == 1 { branches.swap_remove(0) } else { Node::Alt(branches) })
    }

    fn branch(&mut self, depth: usize) -> Result<Node, String> {
        let mut pieces = Vec::new();
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                break;
            }
            let atom = self.atom(depth)?;
            pieces.push(self.quantified(atom)?);
        }
        Ok(Node::Concat(pieces))
    }

    /// QuantExact: decimal digits, capped at MAX_REPEAT.
    fn count(&mut self) -> Result<u32, String> {
        let start = self.i;
        while matches!(self.peek(), Some(c) if c.is_ascii_digit()) {
            self.i += 1;
        }
        if self.i == start {
            return Err(self.err("expected a number in {…}"));
        }
        let text: String = self.c[start..self.i].iter().collect();
        match text.parse::<u32>() {
            Ok(n) if n <= MAX_REPEAT => Ok(n),
            _ => Err(format!("at {}: repetition count {} is over {}", start + 1, text, MAX_REPEAT)),
        }
    }

    fn quantified(&mut self, atom: Node) -> Result<Node, String> {
        let (min, max) = match self.peek() {
            Some('*') => (0, None),
            Some('+') => (1, None),
            Some('?') => (0, Some(1)),
            Some('{') => {
                self.i += 1;
                let min = self.count()?;
                let max = if self.peek() == Some(',') {
                    self.i += 1;
                    if self.peek() == Some('}') {
                        None
                    } else {
                        Some(self.count()?)
                    }
                } else {
                    Some(min)
                };
                if self.peek() != Some('}') {
                    return Err(self.err("expected '}' to close a repetition"));
                }
                if matches!(max, Some(m) if m < min) {
                    return Err(self.err("a repetition's maximum is below its minimum"));
                }
                self.i += 1;
                return Ok(Node::Repeat(Box::new(atom), min, max));
            }
            _ => return Ok(atom),
        };
        self.i += 1;
        Ok(Node::Repeat(Box::new(atom), min, max))
    }

    fn atom(&mut self, depth: usize) -> Result<Node, String> {
        let c = self.peek().ok_or_else(|| self.err("unexpected end"))?;
        self.i += 1;
        match c {
            '(' => {
                let open = self.i - 1;
                let inner = self.regexp(depth + 1)?;
                if self.peek() != Some(')') {
                    return Err(format!("at {}: unclosed '('", open + 1));
                }
                self.i += 1;
                Ok(inner)
            }
            '.' => Ok(Node::Class(Class::Dot)),
            '^' => Ok(Node::Start),
            '$' => Ok(Node::End),
            '[' => self.class_expr(),
            '\\' => Ok(Node::Class(Class::Set { negated: false, items: vec![self.escape()?] })),
            '*' | '+' | '?' | '{' => {
                self.i -= 1;
                Err(self.err(&format!("'{}' has nothing to repeat (escape it as \\{})", c, c)))
            }
            '}' | ']' => {
                self.i -= 1;
                Err(self.err(&format!("a lone '{}' must be escaped as \\{}", c, c)))
            }
            c => Ok(Node::Class(Class::Set { negated: false, items: vec![Item::Range(c, c)] })),
        }
    }

    /// After a backslash: a SingleCharEsc or a category escape `\p{…}`/`\P{…}`.
    fn escape(&mut self) -> Result<Item, String> {
        let e = self.peek().ok_or_else(|| self.err("a pattern cannot end with a backslash"))?;
        self.i += 1;
        match e {
            'n' => Ok(Item::Range('\n', '\n')),
            'r' => Ok(Item::Range('\r', '\r')),
            't' => Ok(Item::Range('\t', '\t')),
            '(' | ')' | '*' | '+' | '-' | '.' | '?' | '[' | '\\' | ']' | '^' | '{' | '|' | '}' => Ok(Item::Range(e, e)),
            'p' | 'P' => {
                if self.peek() != Some('{') {
                    return Err(self.err(&format!("\\{} needs a category in braces, e.g. \\{}{{Lu}}", e, e)));
                }
                self.i += 1;
                let start = self.i;
                while matches!(self.peek(), Some(c) if c != '}') {
                    self.i += 1;
                }
                if self.peek() != Some('}') {
                    return Err(format!("at {}: unclosed \\{}{{", start - 1, e));
                }
                let name: String = self.c[start..self.i].iter().collect();
                self.i += 1;
                let cat = CATEGORIES.iter().find(|c| **c == name).ok_or_else(|| format!("at {}: unknown category '{}' (L, Lu, Nd, P, …)", start + 1, name))?;
                Ok(Item::Category(cat, e == 'P'))
            }
            other => {
                self.i -= 1;
                Err(self.err(&format!("'\\{}' is not an I-Regexp escape", other)))
            }
        }
    }

    /// A CCchar: a class member that can also end a range; `-`, `[` and `]` only escaped.
    fn class_char(&mut self) -> Result<char, String> {
        match self.peek() {
            None => Err(self.err("unclosed '['")),
            Some('\\') if !matches!(self.c.get(self.i + 1), Some('p' | 'P')) => {
                self.i += 1;
                match self.escape()? {
                    Item::Range(c, _) => Ok(c),
                    Item::Category(..) => Err(self.err("a category cannot end a range")),
                }
            }
            Some('\\') => Err(self.err("a category cannot be a range's end")),
            Some(c @ ('-' | '[' | ']')) => Err(self.err(&format!("'{}' inside a class must be escaped as \\{}", c, c))),
            Some(c) => {
                self.i += 1;
                Ok(c)
            }
        }
    }

    /// CCE1: a character, a range `a-z`, or a category escape.
    fn class_member(&mut self) -> Result<Item, String> {
        if self.peek() == Some('\\') && matches!(self.c.get(self.i + 1), Some('p' | 'P')) {
            self.i += 1;
            return self.escape();
        }
        let lo = self.class_char()?;
        // `a-` right before `]` is a character and a trailing '-', not a range.
        if self.peek() == Some('-') && !self.next_is(']') && self.c.get(self.i + 1).is_some() {
            self.i += 1;
            let hi = self.class_char()?;
            if hi < lo {
                return Err(self.err(&format!("the range {}-{} is backwards", lo, hi)));
            }
            return Ok(Item::Range(lo, hi));
        }
        Ok(Item::Range(lo, lo))
    }

    /// charClassExpr = "[" ["^"] ("-" / CCE1) *CCE1 ["-"] "]": never empty, and a bare '-' only first or last.
    fn class_expr(&mut self) -> Result<Node, String> {
        let open = self.i - 1;
        let negated = self.peek() == Some('^');
        if negated {
            self.i += 1;
        }
        let mut items = Vec::new();
        if self.peek() == Some('-') {
            self.i += 1;
            items.push(Item::Range('-', '-'));
        } else if self.peek() == Some(']') {
            return Err(self.err("an empty class (escape a ']' that belongs in it as \\])"));
        } else {
            items.push(self.class_member()?);
        }
        loop {
            match self.peek() {
                None => return Err(format!("at {}: unclosed '['", open + 1)),
                Some(']') => {
                    self.i += 1;
                    break;
                }
                Some('-') if self.next_is(']') => {
                    self.i += 2;
                    items.push(Item::Range('-', '-'));
                    break;
                }
                _ => items.push(self.class_member()?),
            }
        }
        Ok(Node::Class(Class::Set { negated, items }))
    }
}
