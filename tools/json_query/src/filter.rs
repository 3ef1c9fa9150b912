//! The parser for filter expressions inside `[?…]` (RFC 9535 §2.3.5):
//! `@.price < 10`, `@.isbn`, `!(@.a == 'x') && $.limit >= @.n`, `( )`
//! grouping, and the function extensions length, count, match, search and
//! value (§2.4), each checked for its argument and result types when parsed,
//! so a misuse is a syntax error, as the RFC requires, not a silent false.

use crate::ast::{Call, CmpOp, Expr, Function, Operand};
use crate::path::{shown, Parser, MAX_DEPTH};
use moat_tool::Json;

/// RFC 9535 §2.4.1's declared types.
#[derive(Clone, Copy, PartialEq)]
enum Type {
    Value,
    Logical,
    Nodes,
}

impl Function {
    fn named(name: &str) -> Option<Function> {
        Some(match name {
            "length" => Function::Length,
            "count" => Function::Count,
            "match" => Function::Match,
            "search" => Function::Search,
            "value" => Function::Value,
            _ => return None,
        })
    }

    fn params(self) -> &'static [Type] {
        match self {
            Function::Length => &[Type::Value],
            Function::Count | Function::Value => &[Type::Nodes],
            Function::Match | Function::Search => &[Type::Value, Type::Value],
        }
    }

    fn result(self) -> Type {
        match self {
            Function::Length | Function::Count | Function::Value => Type::Value,
            Function::Match | Function::Search => Type::Logical,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Function::Length => "length",
            Function::Count => "count",
            Function::Match => "match",
            Function::Search => "search",
            Function::Value => "value",
        }
    }
}

impl Parser {
    fn deeper(&mut self) -> Result<(), String> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.err(&format!("filters, parentheses and functions nested more than {} deep", MAX_DEPTH)));
        }
        Ok(())
    }

    /// A logical-or expression: the body of `[?…]` and of `( )`.
    pub(crate) fn filter(&mut self) -> Result<Expr, String> {
        self.deeper()?;
        let mut left = self.and()?;
        while self.operator("||") {
            left = Expr::Or(Box::new(left), Box::new(self.and()?));
        }
        self.lone_operator()?;
        self.depth -= 1;
        Ok(left)
    }

    fn and(&mut self) -> Result<Expr, String> {
        let mut left = self.basic()?;
        while self.operator("&&") {
            left = Expr::And(Box::new(left), Box::new(self.basic()?));
        }
        Ok(left)
    }

    /// `&&` or `||` after optional blank space, and the blank space after it.
    fn operator(&mut self, op: &str) -> bool {
        let save = self.i;
        self.ws();
        if self.eat(op) {
            self.ws();
            return true;
        }
        self.i = save;
        false
    }

    /// After a whole expression: a lone `&`, `|` or `=` is named rather than left to "expected ']'".
    fn lone_operator(&mut self) -> Result<(), String> {
        let save = self.i;
        self.ws();
        let found = match (self.peek(), self.c.get(self.i + 1)) {
            (Some('&'), n) if n != Some(&'&') => Some("'&' is not an operator: use && for and"),
            (Some('|'), n) if n != Some(&'|') => Some("'|' is not an operator: use || for or"),
            (Some('='), n) if n != Some(&'=') => Some("'=' is not an operator: use == to compare"),
            _ => None,
        };
        if let Some(msg) = found {
            return Err(self.err(msg));
        }
        self.i = save;
        Ok(())
    }

    /// A paren-expr, comparison-expr or test-expr. `!` only goes before a parenthesised
    /// expression or a test (a query, match(), search()), never before a comparison.
    fn basic(&mut self) -> Result<Expr, String> {
        self.ws();
        if self.peek() == Some('!') && self.c.get(self.i + 1) != Some(&'=') {
            let bang = self.i;
            self.i += 1;
            self.ws();
            self.deeper()?;
            let inner = if self.peek() == Some('(') { self.paren()? } else { self.negated_test(bang)? };
            self.depth -= 1;
            return Ok(Expr::Not(Box::new(inner)));
        }
        if self.peek() == Some('(') {
            return self.paren();
        }
        let start = self.i;
        let left = self.operand()?;
        let save = self.i;
        self.ws();
        let op = match self.comparison() {
            Some(op) => op,
            None => {
                self.i = save;
                return match left {
                    Operand::Query(q) => Ok(Expr::Exists(q)),
                    Operand::Call(c) if c.function.result() == Type::Logical => Ok(Expr::Test(c)),
                    Operand::Call(c) => {
                        Err(self.err_at(start, &format!("{}() gives a value, not true or false: compare it, e.g. {}(…) > 0", c.function.name(), c.function.name())))
                    }
                    Operand::Literal(_) => Err(self.err_at(start, "a literal is not a test by itself: compare it with == != < <= > or >=")),
                };
            }
        };
        self.check_comparable(&left, start)?;
        self.ws();
        let right_start = self.i;
        let right = self.operand()?;
        self.check_comparable(&right, right_start)?;
        if self.comparison_follows() {
            return Err(self.err("comparisons do not chain: join them with && or ||"));
        }
        Ok(Expr::Compare(left, op, right))
    }

    fn comparison_follows(&mut self) -> bool {
        let save = self.i;
        self.ws();
        let found = self.comparison().is_some();
        self.i = save;
        found
    }

    fn paren(&mut self) -> Result<Expr, String> {
        let open = self.i;
        self.i += 1; // '('
        self.ws();
        let e = self.filter()?;
        self.ws();
        if !self.eat(")") {
            return Err(match self.peek() {
                None => self.err_at(open, "unclosed '('"),
                Some(c) => self.err(&format!("expected ')', found {}", shown(c))),
            });
        }
        Ok(e)
    }

    /// After `!` (at `bang`): a query (does it select anything?) or a logical function.
    fn negated_test(&mut self, bang: usize) -> Result<Expr, String> {
        let start = self.i;
        if self.peek() == Some('!') {
            return Err(self.err("a second '!' needs parentheses: !(!…)"));
        }
        let test = match self.operand()? {
            Operand::Query(q) => Expr::Exists(q),
            Operand::Call(c) if c.function.result() == Type::Logical => Expr::Test(c),
            _ => return Err(self.err_at(start, "'!' goes before a query, match(), search() or a parenthesised expression")),
        };
        if self.comparison_follows() {
            return Err(self.err_at(bang, "'!' cannot negate a comparison directly: write !(… == …)"));
        }
        Ok(test)
    }

    /// Comparisons take values: a literal, a singular query, or a function that gives a value.
    fn check_comparable(&self, o: &Operand, at: usize) -> Result<(), String> {
        let what = match o {
            Operand::Query(q) if !q.is_singular() => {
                "this query can select several nodes and cannot be compared: use only .name, ['name'] and [index] segments, or count() or value()"
            }
            Operand::Call(c) if c.function.result() != Type::Value => "match() and search() give true or false and cannot be compared",
            _ => return Ok(()),
        };
        Err(self.err_at(at, what))
    }

    fn comparison(&mut self) -> Option<CmpOp> {
        let ops = [("==", CmpOp::Eq), ("!=", CmpOp::Ne), ("<=", CmpOp::Le), (">=", CmpOp::Ge), ("<", CmpOp::Lt), (">", CmpOp::Gt)];
        ops.iter().find(|(s, _)| self.eat(s)).map(|(_, op)| *op)
    }

    /// A query (`@…` or `$…`), a function call or a literal; what may stand where is checked by the caller.
    fn operand(&mut self) -> Result<Operand, String> {
        match self.peek() {
            Some('@') => {
                self.i += 1;
                Ok(Operand::Query(self.segments(true)?))
            }
            Some('$') => {
                self.i += 1;
                Ok(Operand::Query(self.segments(false)?))
            }
            Some(c) if c.is_ascii_lowercase() && !self.at_keyword() => Ok(Operand::Call(self.call()?)),
            _ => Ok(Operand::Literal(self.literal()?)),
        }
    }

    /// `true`, `false` or `null` as a whole word here (not the start of a function name).
    fn at_keyword(&self) -> bool {
        ["true", "false", "null"].iter().any(|w| {
            let n = w.len();
            self.c.len() >= self.i + n
                && self.c[self.i..self.i + n].iter().copied().eq(w.chars())
                && !matches!(self.c.get(self.i + n), Some(c) if c.is_ascii_alphanumeric() || *c == '_')
        })
    }

    fn literal(&mut self) -> Result<Json, String> {
        match self.peek() {
            Some('\'') | Some('"') => Ok(Json::String(self.string()?)),
            Some(c) if c == '-' || c.is_ascii_digit() => self.number(),
            found => {
                for (word, v) in [("true", Json::Bool(true)), ("false", Json::Bool(false)), ("null", Json::Null)] {
                    if self.eat(word) {
                        return Ok(v);
                    }
                }
                let found = found.map_or("the end".to_string(), shown);
                Err(self.err(&format!("expected @, $, a function, a number, a string, true, false or null, found {}", found)))
            }
        }
    }

    /// `name(arg, …)`: a known function, its arguments checked against its parameter types.
    fn call(&mut self) -> Result<Call, String> {
        let start = self.i;
        while matches!(self.peek(), Some(c) if c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_') {
            self.i += 1;
        }
        let name: String = self.c[start..self.i].iter().collect();
        let function = Function::named(&name)
            .ok_or_else(|| self.err_at(start, &format!("unknown function '{}' (there are length, count, match, search and value)", name)))?;
        if !self.eat("(") {
            return Err(self.err(&format!("expected '(' right after {}", name)));
        }
        self.deeper()?;
        let mut args = Vec::new();
        self.ws();
        if !self.eat(")") {
            loop {
                self.ws();
                let at = self.i;
                let arg = self.operand()?;
                if let Some(&param) = function.params().get(args.len()) {
                    self.check_argument(function, param, &arg, at)?;
                }
                args.push(arg);
                self.ws();
                if self.eat(",") {
                    continue;
                }
                if self.eat(")") {
                    break;
                }
                return Err(match self.peek() {
                    None => self.err_at(start, &format!("unclosed {}(", name)),
                    Some(c) => self.err(&format!("expected ',' or ')' after an argument of {}(), found {}", name, shown(c))),
                });
            }
        }
        self.depth -= 1;
        let want = function.params().len();
        if args.len() != want {
            return Err(self.err_at(start, &format!("{}() takes {} argument{}, not {}", name, want, if want == 1 { "" } else { "s" }, args.len())));
        }
        Ok(Call { function, args })
    }

    fn check_argument(&self, f: Function, param: Type, arg: &Operand, at: usize) -> Result<(), String> {
        let problem = match (param, arg) {
            (Type::Value, Operand::Query(q)) if !q.is_singular() => "a value, and this query can select several nodes (wrap it in value())",
            (Type::Value, Operand::Call(c)) if c.function.result() != Type::Value => "a value, not true or false",
            (Type::Nodes, Operand::Literal(_)) => "a query, not a literal",
            // No standard function gives nodes, so a call is never a nodelist.
            (Type::Nodes, Operand::Call(_)) => "a query, not a function",
            _ => return Ok(()),
        };
        Err(self.err_at(at, &format!("{}() needs {}", f.name(), problem)))
    }

    /// RFC 9535's number is JSON's (`-0`, fractions, exponents with e or E), so JSON's parser checks it.
    fn number(&mut self) -> Result<Json, String> {
        let start = self.i;
        while matches!(self.peek(), Some(c) if c.is_ascii_digit() || "+-.eE".contains(c)) {
            self.i += 1;
        }
        let text: String = self.c[start..self.i].iter().collect();
        match moat_tool::parse_json(&text) {
            Ok(n @ Json::Number(_)) => Ok(n),
            _ => Err(self.err_at(start, &format!("invalid number '{}'", text))),
        }
    }
}
