//! A recursive-descent evaluator. It only knows numbers, operators and a
//! fixed list of functions and constants, so no input can run code.
//!
//!   expr    := term (('+' | '-') term)*
//!   term    := unary (('*' | '/' | '%') unary)*
//!   unary   := ('-' | '+') unary | power
//!   power   := primary ('^' unary)?        right-associative; -2^2 = -(2^2)
//!   primary := number | name | name '(' expr (',' expr)* ')' | '(' expr ')'

use crate::lexer::{Tok, Token};

/// Nesting deeper than this is refused rather than risking the small wasm stack.
const MAX_DEPTH: usize = 200;

#[derive(Clone, Copy, PartialEq)]
pub enum Angle {
    Radians,
    Degrees,
}

pub const FUNCTIONS: &[&str] =
    &["sqrt", "sin", "cos", "tan", "asin", "acos", "atan", "log", "ln", "exp", "abs", "floor", "ceil", "round", "min", "max"];

pub struct Evaluator {
    toks: Vec<Token>,
    i: usize,
    depth: usize,
    angle: Angle,
}

impl Evaluator {
    pub fn new(toks: Vec<Token>, angle: Angle) -> Evaluator {
        Evaluator { toks, i: 0, depth: 0, angle }
    }

    pub fn evaluate(mut self) -> Result<f64, String> {
        if self.toks.is_empty() {
            return Err("the expression is empty".into());
        }
        let v = self.expr()?;
        if let Some(t) = self.toks.get(self.i) {
            let prev = &self.toks[self.i - 1];
            return Err(match t.tok {
                Tok::RParen => format!("unmatched ')' at position {}", t.pos),
                _ => format!("expected an operator between '{}' and '{}' at position {}", prev.text, t.text, t.pos),
            });
        }
        Ok(v)
    }

    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.i).map(|t| &t.tok)
    }

    fn unexpected(&self, wanted: &str) -> String {
        match self.toks.get(self.i) {
            Some(t) => format!("expected {} at position {}, found '{}'", wanted, t.pos, t.text),
            None => format!("expected {} but the expression ended", wanted),
        }
    }

    fn expr(&mut self) -> Result<f64, String> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(format!("the expression is nested too deeply (more than {} levels)", MAX_DEPTH));
        }
        let mut v = self.term()?;
        while let Some(Tok::Op(op @ ('+' | '-'))) = self.peek() {
            let op = *op;
            self.i += 1;
            let r = self.term()?;
            v = cancel_noise(if op == '+' { v + r } else { v - r }, v, r);
        }
        self.depth -= 1;
        Ok(v)
    }

    fn term(&mut self) -> Result<f64, String> {
        let mut v = self.unary()?;
        while let Some(Tok::Op(op @ ('*' | '/' | '%'))) = self.peek() {
            let op = *op;
            self.i += 1;
            let r = self.unary()?;
            v = match op {
                '*' => v * r,
                _ if r == 0.0 => return Err(if op == '/' { "division by zero".into() } else { "modulo by zero".into() }),
                '/' => v / r,
                _ => v % r,
            };
        }
        Ok(v)
    }

    fn unary(&mut self) -> Result<f64, String> {
        match self.peek() {
            Some(Tok::Op('-')) => {
                self.i += 1;
                self.nested(|s| s.unary()).map(|v| -v)
            }
            Some(Tok::Op('+')) => {
                self.i += 1;
                self.nested(|s| s.unary())
            }
            _ => self.power(),
        }
    }

    /// Guards recursion that does not pass through `expr` (chains like `----1` or `2^2^2^…`).
    fn nested(&mut self, f: impl FnOnce(&mut Self) -> Result<f64, String>) -> Result<f64, String> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(format!("the expression is nested too deeply (more than {} levels)", MAX_DEPTH));
        }
        let r = f(self);
        self.depth -= 1;
        r
    }

    fn power(&mut self) -> Result<f64, String> {
        let base = self.primary()?;
        if let Some(Tok::Op('^')) = self.peek() {
            self.i += 1;
            let exp = self.nested(|s| s.unary())?;
            if base == 0.0 && exp < 0.0 {
                return Err("division by zero (0 raised to a negative power)".into());
            }
            let v = base.powf(exp);
            if v.is_nan() {
                return Err(format!("({})^({}) is not a real number", base, exp));
            }
            return Ok(v);
        }
        Ok(base)
    }

    fn primary(&mut self) -> Result<f64, String> {
        let t = match self.toks.get(self.i) {
            Some(t) => t.clone(),
            None => return Err(self.unexpected("a number")),
        };
        self.i += 1;
        match t.tok {
            Tok::Num(n) => Ok(n),
            Tok::LParen => {
                let v = self.expr()?;
                if self.peek() != Some(&Tok::RParen) {
                    return Err(self.unexpected("')'"));
                }
                self.i += 1;
                Ok(v)
            }
            Tok::Ident(name) => self.name(&name, t.pos),
            _ => {
                self.i -= 1;
                Err(self.unexpected("a number"))
            }
        }
    }

    fn name(&mut self, name: &str, pos: usize) -> Result<f64, String> {
        if self.peek() != Some(&Tok::LParen) {
            return match name {
                "pi" => Ok(std::f64::consts::PI),
                "e" => Ok(std::f64::consts::E),
                _ if FUNCTIONS.contains(&name) => Err(format!("'{}' is a function; call it like {}(x)", name, name)),
                _ => Err(unknown(name, pos)),
            };
        }
        if !FUNCTIONS.contains(&name) {
            return Err(unknown(name, pos));
        }
        self.i += 1;
        let mut args = vec![self.expr()?];
        while self.peek() == Some(&Tok::Comma) {
            self.i += 1;
            args.push(self.expr()?);
        }
        if self.peek() != Some(&Tok::RParen) {
            return Err(self.unexpected("',' or ')'"));
        }
        self.i += 1;
        crate::functions::call(name, &args, self.angle)
    }
}

fn unknown(name: &str, pos: usize) -> String {
    format!("unknown name '{}' at position {} (functions: {}; constants: pi, e)", name, pos, FUNCTIONS.join(", "))
}

/// Adding or subtracting nearly equal numbers leaves binary rounding noise:
/// 0.1 + 0.2 - 0.3 is 5.6e-17. A result 14 orders of magnitude below its
/// operands is that noise, and is 0.
pub fn cancel_noise(v: f64, a: f64, b: f64) -> f64 {
    if v != 0.0 && v.abs() <= a.abs().max(b.abs()) * 1e-14 {
        0.0
    } else {
        v
    }
}
