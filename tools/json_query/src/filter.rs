//! Filter expressions inside `[?…]`: `@.price < 10`, `@.isbn`,
//! `!(@.a == 'x') && $.limit >= @.n`, with `( )` grouping.

use crate::path::{CmpOp, Expr, Operand, Parser, MAX_DEPTH};
use moat_tool::Json;

impl Parser {
    pub(crate) fn filter(&mut self) -> Result<Expr, String> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.err("filter nested too deeply"));
        }
        let mut left = self.and()?;
        loop {
            self.ws();
            if !self.eat("||") {
                break;
            }
            left = Expr::Or(Box::new(left), Box::new(self.and()?));
        }
        self.depth -= 1;
        Ok(left)
    }

    fn and(&mut self) -> Result<Expr, String> {
        let mut left = self.not()?;
        loop {
            self.ws();
            if !self.eat("&&") {
                break;
            }
            left = Expr::And(Box::new(left), Box::new(self.not()?));
        }
        Ok(left)
    }

    fn not(&mut self) -> Result<Expr, String> {
        self.ws();
        if self.peek() == Some('!') && self.c.get(self.i + 1) != Some(&'=') {
            self.i += 1;
            self.depth += 1;
            if self.depth > MAX_DEPTH {
                return Err(self.err("filter nested too deeply"));
            }
            let e = self.not()?;
            self.depth -= 1;
            return Ok(Expr::Not(Box::new(e)));
        }
        if self.eat("(") {
            let e = self.filter()?;
            self.ws();
            if !self.eat(")") {
                return Err(self.err("expected ')'"));
            }
            return Ok(e);
        }
        let left = self.operand()?;
        self.ws();
        let op = match self.comparison() {
            Some(op) => op,
            None => {
                return match left {
                    Operand::Query(q) => Ok(Expr::Exists(q)),
                    Operand::Literal(_) => Err(self.err("expected a comparison operator (== != < <= > >=)")),
                }
            }
        };
        self.ws();
        let right = self.operand()?;
        Ok(Expr::Compare(left, op, right))
    }

    fn comparison(&mut self) -> Option<CmpOp> {
        let ops = [("==", CmpOp::Eq), ("!=", CmpOp::Ne), ("<=", CmpOp::Le), (">=", CmpOp::Ge), ("<", CmpOp::Lt), (">", CmpOp::Gt)];
        ops.iter().find(|(s, _)| self.eat(s)).map(|(_, op)| *op)
    }

    fn operand(&mut self) -> Result<Operand, String> {
        self.ws();
        match self.peek() {
            Some('@') => {
                self.i += 1;
                Ok(Operand::Query(self.segments(true)?))
            }
            Some('$') => {
                self.i += 1;
                Ok(Operand::Query(self.segments(false)?))
            }
            Some('\'') | Some('"') => Ok(Operand::Literal(Json::String(self.string()?))),
            Some(c) if c == '-' || c.is_ascii_digit() => self.number(),
            _ => {
                for (word, v) in [("true", Json::Bool(true)), ("false", Json::Bool(false)), ("null", Json::Null)] {
                    if self.eat(word) {
                        return Ok(Operand::Literal(v));
                    }
                }
                Err(self.err("expected @, $, a number, a string, true, false or null"))
            }
        }
    }

    fn number(&mut self) -> Result<Operand, String> {
        let start = self.i;
        while matches!(self.peek(), Some(c) if c.is_ascii_digit() || "+-.eE".contains(c)) {
            self.i += 1;
        }
        let text: String = self.c[start..self.i].iter().collect();
        match moat_tool::parse_json(&text) {
            Ok(n @ Json::Number(_)) => Ok(Operand::Literal(n)),
            _ => Err(self.err(&format!("invalid number '{}'", text))),
        }
    }
}

