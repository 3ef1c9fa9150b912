//! calculate: evaluate an arithmetic expression safely.

mod eval;
mod functions;
mod lexer;

use eval::{Angle, Evaluator};
use moat_tool::{Arg, Command, Json, Matches, Opt, Output};

const MAX_LEN: usize = 10_000;

fn command() -> Command {
    Command::new("calculate", env!("CARGO_PKG_VERSION"), "Evaluate an arithmetic expression safely.")
        .long_about(
            "Supports + - * / % (remainder) and ^ (power, right-associative; ** also works), parentheses,\n\
             unary minus (-2^2 is -4), the functions sqrt sin cos tan asin acos atan log ln exp abs floor\n\
             ceil round min max (log is base 10, log(x, b) takes a base; min and max take any number of\n\
             arguments) and the constants pi and e. Division by zero and invalid input are errors; the\n\
             result is rounded to the requested number of digits.",
        )
        .arg(Arg::required("EXPRESSION", "The expression, e.g. \"2 * (3 + 4)\""))
        .opt(Opt::value("precision", "DIGITS", "Digits after the decimal point").short('p').default("10"))
        .opt(Opt::value("mode", "MODE", "Angle unit").default("radians").possible(&["radians", "degrees"]))
        .keywords(&["math", "arithmetic", "calculator", "expression"])
        .permission("none")
}

/// Rounds to `digits` decimals and drops trailing zeros; very large or very
/// small magnitudes use exponent form so they stay readable.
fn format_result(v: f64, digits: usize) -> String {
    let a = v.abs();
    if a != 0.0 && (a >= 1e15 || a < 1e-6) {
        let s = format!("{:.*e}", digits.min(15), v);
        let (mant, exp) = s.split_once('e').unwrap_or((&s, "0"));
        return format!("{}e{}", trim_zeros(mant), exp);
    }
    let s = trim_zeros(&format!("{:.*}", digits, v));
    if s == "-0" {
        "0".into()
    } else {
        s
    }
}

fn trim_zeros(s: &str) -> String {
    if !s.contains('.') {
        return s.to_string();
    }
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

fn execute(m: &Matches) -> Result<Output, String> {
    let expr = m.get("EXPRESSION").unwrap_or("");
    if expr.chars().count() > MAX_LEN {
        return Err(format!("the expression is too long (more than {} characters)", MAX_LEN));
    }
    let precision: usize = m
        .get("precision")
        .unwrap_or("10")
        .parse()
        .ok()
        .filter(|p| *p <= 15)
        .ok_or("--precision must be a whole number from 0 to 15")?;
    let angle = if m.get("mode") == Some("degrees") { Angle::Degrees } else { Angle::Radians };
    let v = Evaluator::new(lexer::lex(expr)?, angle).evaluate()?;
    if v.is_nan() {
        return Err("the result is not a real number".into());
    }
    if v.is_infinite() {
        return Err("the result is too large to represent (overflow)".into());
    }
    let text = format_result(v, precision);
    Ok(Output::new(text.clone())
        .meta("expression", Json::str(expr))
        .meta("value", Json::num(text.parse::<f64>().unwrap_or(v)))
        .meta("mode", Json::str(m.get("mode").unwrap_or("radians"))))
}

fn main() {
    moat_tool::run(command(), execute)
}
