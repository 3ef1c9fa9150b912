//! Tokens of an arithmetic expression, each with its character position so
//! errors can point at the problem.

#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    Num(f64),
    Ident(String),
    Op(char),
    LParen,
    RParen,
    Comma,
}

#[derive(Clone, Debug)]
pub struct Token {
    pub tok: Tok,
    /// 1-based character position in the expression.
    pub pos: usize,
    pub text: String,
}

pub fn lex(src: &str) -> Result<Vec<Token>, String> {
    let chars: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let start = i;
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        let tok = if c.is_ascii_digit() || (c == '.' && chars.get(i + 1).map_or(false, |d| d.is_ascii_digit())) {
            i = number_end(&chars, i)?;
            let text: String = chars[start..i].iter().collect();
            let n: f64 = text.parse().map_err(|_| format!("invalid number '{}' at position {}", text, start + 1))?;
            Tok::Num(n)
        } else if c.is_alphabetic() || c == '_' {
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            Tok::Ident(chars[start..i].iter().collect::<String>().to_lowercase())
        } else {
            i += 1;
            match c {
                '*' if chars.get(i) == Some(&'*') => {
                    i += 1;
                    Tok::Op('^')
                }
                '+' | '-' | '*' | '/' | '%' | '^' => Tok::Op(c),
                '×' => Tok::Op('*'),
                '÷' => Tok::Op('/'),
                '−' => Tok::Op('-'),
                '(' => Tok::LParen,
                ')' => Tok::RParen,
                ',' => Tok::Comma,
                _ => return Err(format!("unexpected character '{}' at position {}", c, start + 1)),
            }
        };
        out.push(Token { tok, pos: start + 1, text: chars[start..i].iter().collect() });
    }
    Ok(out)
}

/// Digits, an optional fraction, an optional exponent: `12`, `1.5`, `.5`, `2e-3`.
/// `2e` stays `2` followed by the name `e`, which the parser then rejects.
fn number_end(chars: &[char], mut i: usize) -> Result<usize, String> {
    let start = i;
    while i < chars.len() && chars[i].is_ascii_digit() {
        i += 1;
    }
    if i < chars.len() && chars[i] == '.' {
        i += 1;
        while i < chars.len() && chars[i].is_ascii_digit() {
            i += 1;
        }
        if i < chars.len() && chars[i] == '.' {
            return Err(format!("invalid number at position {}: more than one decimal point", start + 1));
        }
    }
    if i < chars.len() && (chars[i] == 'e' || chars[i] == 'E') {
        let mut j = i + 1;
        if j < chars.len() && (chars[j] == '+' || chars[j] == '-') {
            j += 1;
        }
        if j < chars.len() && chars[j].is_ascii_digit() {
            while j < chars.len() && chars[j].is_ascii_digit() {
                j += 1;
            }
            i = j;
        }
    }
    Ok(i)
}
