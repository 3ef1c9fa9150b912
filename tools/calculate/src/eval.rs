//! A recursive-descent evaluator. It only knows numbers, operators and a
//! fixed list of functions and constants, so no input can run code.
//!
//!   expr    := term (('+' | '-') term)*
//!   term    := unary (('*' | '/' | '%') unary)*
//!   unary   := ('-' | '+') unary | power
//!   power   := primary ('^' unary)?        right-associative; -2^2 = -(2^2)
//!   primary := number | name | name '(' expr (',' expr)* ')' | '(' expr ')'

use crate::lexer::{Tok, Token};

/// A value and a bound on the rounding error it carries (from decimal
/// literals that binary cannot hold exactly, and from each operation). A sum
/// or difference smaller than its error bound is rounding noise and is 0;
/// anything larger is a real result and is kept as computed.
#[derive(Clone, Copy)]
pub struct V {
    pub v: f64,
    pub e: f64,
}

/// Half the distance to the next float: the rounding error of one operation.
pub fn half_ulp(x: f64) -> f64 {
    let a = x.abs();
    if !a.is_finite() {
        return 0.0;
    }
    (f64::from_bits(a.to_bits() + 1) - a) / 2.0
}

impl V {
    /// A literal or a constant: exact when it is a whole number binary holds, else off by up to half an ulp.
    pub fn literal(v: f64) -> V {
        V { v, e: if v.fract() == 0.0 && v.abs() < 9007199254740992.0 { 0.0 } else { half_ulp(v) } }
    }
}

/// A step that overflows is an error, not an infinity that later arithmetic turns into nonsense.
fn finite(r: f64, what: &str) -> Result<f64, String> {
    if r.is_infinite() {
        Err(format!("overflow: {} is too large to represent", what))
    } else {
        Ok(r)
    }
}

fn add(a: V, b: V, op: char) -> Result<V, String> {
    let r = finite(if op == '+' { a.v + b.v } else { a.v - b.v }, "an intermediate result")?;
    let e = a.e + b.e + half_ulp(r);
    Ok(V { v: if r != 0.0 && r.abs() <= e { 0.0 } else { r }, e })
}

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
        let v = self.expr()?.v;
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

    fn expr(&mut self) -> Result<V, String> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(format!("the expression is nested too deeply (more than {} levels)", MAX_DEPTH));
        }
        let mut v = self.term()?;
        while let Some(Tok::Op(op @ ('+' | '-'))) = self.peek() {
            let op = *op;
            self.i += 1;
            let r = self.term()?;
            v = add(v, r, op)?;
        }
        self.depth -= 1;
        Ok(v)
    }

    fn term(&mut self) -> Result<V, String> {
        let mut v = self.unary()?;
        while let Some(Tok::Op(op @ ('*' | '/' | '%'))) = self.peek() {
            let op = *op;
            self.i += 1;
            let r = self.unary()?;
            let (a, b) = (v.v, r.v);
            v = match op {
                '*' => {
                    let x = finite(a * b, "a product")?;
                    V { v: x, e: a.abs() * r.e + b.abs() * v.e + v.e * r.e + half_ulp(x) }
                }
                _ if b == 0.0 => return Err(if op == '/' { "division by zero".into() } else { "modulo by zero".into() }),
                '/' => {
                    let x = finite(a / b, "a quotient")?;
                    V { v: x, e: (v.e + x.abs() * r.e) / b.abs() + half_ulp(x) }
                }
                _ => {
                    let x = a % b;
                    V { v: x, e: v.e + r.e * (a / b).trunc().abs() + half_ulp(x) }
                }
            };
        }
        Ok(v)
    }

    fn unary(&mut self) -> Result<V, String> {
        match self.peek() {
            Some(Tok::Op('-')) => {
                self.i += 1;
                self.nested(|s| s.unary()).map(|x| V { v: -x.v, e: x.e })
            }
            Some(Tok::Op('+')) => {
                self.i += 1;
                self.nested(|s| s.unary())
            }
            _ => self.power(),
        }
    }

    /// Guards recursion that does not pass through `expr` (chains like `----1` or `2^2^2^…`).
    fn nested(&mut self, f: impl FnOnce(&mut Self) -> Result<V, String>) -> Result<V, String> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(format!("the expression is nested too deeply (more than {} levels)", MAX_DEPTH));
        }
        let r = f(self);
        self.depth -= 1;
        r
    }

    fn power(&mut self) -> Result<V, String> {
        let b = self.primary()?;
        if let Some(Tok::Op('^')) = self.peek() {
            self.i += 1;
            let x = self.nested(|s| s.unary())?;
            let (base, exp) = (b.v, x.v);
            if base == 0.0 && exp < 0.0 {
                return Err("division by zero (0 raised to a negative power)".into());
            }
            let v = base.powf(exp);
            if v.is_nan() {
                return Err(format!("({})^({}) is not a real number", base, exp));
            }
            let v = finite(v, &format!("({})^({})", base, exp))?;
            // d(b^x) = b^x (x/b db + ln|b| dx)
            let rel = if base == 0.0 { 0.0 } else { exp.abs() * b.e / base.abs() + base.abs().ln().abs() * x.e };
            return Ok(V { v, e: v.abs() * rel + half_ulp(v) });
        }
        Ok(b)
    }

    fn primary(&mut self) -> Result<V, String> {
        let t = match self.toks.get(self.i) {
            Some(t) => t.clone(),
            None => return Err(self.unexpected("a number")),
        };
        self.i += 1;
        match t.tok {
            Tok::Num(n) => Ok(V::literal(finite(n, "a number")?)),
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

    fn name(&mut self, name: &str, pos: usize) -> Result<V, String> {
        if self.peek() != Some(&Tok::LParen) {
            return match name {
                "pi" => Ok(V::literal(std::f64::consts::PI)),
                "e" => Ok(V::literal(std::f64::consts::E)),
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
        let values: Vec<f64> = args.iter().map(|a| a.v).collect();
        let r = finite(crate::functions::call(name, &values, self.angle)?, &format!("{}(…)", name))?;
        // Relative error carried through, or the inputs' absolute error where that is larger (sin near pi).
        let rel = args.iter().map(|a| if a.v == 0.0 { 0.0 } else { a.e / a.v.abs() }).fold(0.0, f64::max);
        let abs = args.iter().map(|a| a.e).fold(0.0, f64::max);
        Ok(V { v: r, e: (r.abs() * rel).max(abs) + half_ulp(r) })
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
