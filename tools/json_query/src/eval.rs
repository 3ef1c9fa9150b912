//! Filter expressions evaluated for one candidate node (RFC 9535 §2.3.5.2):
//! comparisons, existence tests, and the functions length, count, value,
//! match and search (§2.4). "Nothing" (a query that selects no node, or a
//! function with no result) is `None`: it equals only itself and is neither
//! less nor greater than anything.

use crate::ast::{Call, CmpOp, Expr, Function, Operand};
use crate::nfa::Regex;
use crate::select::select;
use moat_tool::Json;
use std::borrow::Cow;
use std::cell::RefCell;
use std::cmp::Ordering;
use std::collections::HashMap;
use std::rc::Rc;

/// Does the filter `e` keep the node `current`?
pub fn test(e: &Expr, current: &Json, root: &Json) -> bool {
    match e {
        Expr::Or(a, b) => test(a, current, root) || test(b, current, root),
        Expr::And(a, b) => test(a, current, root) && test(b, current, root),
        Expr::Not(a) => !test(a, current, root),
        Expr::Exists(q) => !select(q, root, current).is_empty(),
        Expr::Test(c) => logical(c, current, root),
        Expr::Compare(l, op, r) => compare(value(l, current, root).as_deref(), *op, value(r, current, root).as_deref()),
    }
}

/// A value where one is wanted: a literal, the node a singular query selects, or
/// what length(), count() or value() gives. The parser has made sure a query here is singular.
fn value<'a>(o: &'a Operand, current: &'a Json, root: &'a Json) -> Option<Cow<'a, Json>> {
    match o {
        Operand::Literal(v) => Some(Cow::Borrowed(v)),
        Operand::Query(q) => only(select(q, root, current).iter().map(|n| n.value)).map(Cow::Borrowed),
        Operand::Call(c) => call_value(c, current, root).map(Cow::Owned),
    }
}

/// The one item, or nothing when there are none or several.
fn only<T>(mut items: impl Iterator<Item = T>) -> Option<T> {
    let first = items.next()?;
    if items.next().is_some() {
        return None;
    }
    Some(first)
}

/// length (§2.4.4), count (§2.4.5) and value (§2.4.8). Their arguments' types were checked when parsing.
fn call_value(c: &Call, current: &Json, root: &Json) -> Option<Json> {
    let arg = c.args.first()?;
    let nodes = |a: &Operand| match a {
        Operand::Query(q) => select(q, root, current),
        _ => Vec::new(),
    };
    match c.function {
        Function::Length => match value(arg, current, root)?.as_ref() {
            // Unicode scalar values, not bytes or UTF-16 units.
            Json::String(s) => Some(Json::int(s.chars().count() as i64)),
            Json::Array(items) => Some(Json::int(items.len() as i64)),
            Json::Object(pairs) => Some(Json::int(pairs.len() as i64)),
            _ => None,
        },
        Function::Count => Some(Json::int(nodes(arg).len() as i64)),
        Function::Value => only(nodes(arg).into_iter()).map(|n| n.value.clone()),
        Function::Match | Function::Search => None,
    }
}

thread_local! {
    /// Compiled patterns, so a filter compiles its pattern once, not once per candidate node.
    static PATTERNS: RefCell<HashMap<String, Option<Rc<Regex>>>> = RefCell::new(HashMap::new());
}

/// Past this many distinct patterns (taken from the document, say) the cache starts over.
const MAX_CACHED_PATTERNS: usize = 256;

fn compiled(pattern: &str) -> Option<Rc<Regex>> {
    PATTERNS.with(|cache| {
        let mut cache = cache.borrow_mut();
        if let Some(re) = cache.get(pattern) {
            return re.clone();
        }
        if cache.len() >= MAX_CACHED_PATTERNS {
            cache.clear();
        }
        let re = Regex::new(pattern).ok().map(Rc::new);
        cache.insert(pattern.to_string(), re.clone());
        re
    })
}

/// match (§2.4.6: the whole string) and search (§2.4.7: any substring) with an I-Regexp
/// (RFC 9485). False, not an error, for a non-string or a pattern that is not a valid I-Regexp:
/// the pattern may come from the document.
fn logical(c: &Call, current: &Json, root: &Json) -> bool {
    let text = c.args.first().and_then(|a| value(a, current, root));
    let pattern = c.args.get(1).and_then(|a| value(a, current, root));
    let (text, pattern) = match (text.as_deref(), pattern.as_deref()) {
        (Some(Json::String(t)), Some(Json::String(p))) => (t, p),
        _ => return false,
    };
    match compiled(pattern) {
        Some(re) if c.function == Function::Match => re.is_full_match(text),
        Some(re) => re.is_found_in(text),
        None => false,
    }
}

fn compare(a: Option<&Json>, op: CmpOp, b: Option<&Json>) -> bool {
    match op {
        CmpOp::Eq => equal(a, b),
        CmpOp::Ne => !equal(a, b),
        CmpOp::Lt => less(a, b),
        CmpOp::Gt => less(b, a),
        CmpOp::Le => less(a, b) || equal(a, b),
        CmpOp::Ge => less(b, a) || equal(a, b),
    }
}

fn equal(a: Option<&Json>, b: Option<&Json>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(x), Some(y)) => deep_equal(x, y),
        _ => false,
    }
}

fn deep_equal(a: &Json, b: &Json) -> bool {
    match (a, b) {
        (Json::Number(x), Json::Number(y)) => compare_numbers(x, y) == Ordering::Equal,
        (Json::Array(x), Json::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| deep_equal(p, q)),
        (Json::Object(x), Json::Object(y)) => x.len() == y.len() && x.iter().all(|(k, v)| matches!(b.get(k), Some(w) if deep_equal(v, w))),
        _ => a == b,
    }
}

/// Only numbers and strings are ordered; strings by code point (UTF-8 byte order is the same).
fn less(a: Option<&Json>, b: Option<&Json>) -> bool {
    match (a, b) {
        (Some(Json::Number(x)), Some(Json::Number(y))) => compare_numbers(x, y) == Ordering::Less,
        (Some(Json::String(x)), Some(Json::String(y))) => x < y,
        _ => false,
    }
}

/// A JSON number's exact value as sign, significant digits (no leading or trailing zeros) and
/// the power of ten after them. Numbers keep their source text, so 12345678901234567890 and
/// 12345678901234567891 must not both round to the same double and compare equal.
fn decimal(text: &str) -> (bool, String, i64) {
    let negative = text.starts_with('-');
    let unsigned = text.trim_start_matches('-');
    let (mantissa, exponent) = match unsigned.find(['e', 'E']) {
        Some(i) => (&unsigned[..i], &unsigned[i + 1..]),
        None => (unsigned, "0"),
    };
    // Saturate absurd exponents: past 10^15 they order the same way anyway.
    let exp_digits = exponent.trim_start_matches(['+', '-']);
    let mut exp: i64 = exp_digits.bytes().fold(0i64, |n, d| (n * 10 + i64::from(d - b'0')).min(1_000_000_000_000_000));
    if exponent.starts_with('-') {
        exp = -exp;
    }
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = format!("{}{}", int, frac);
    exp -= frac.len() as i64;
    let significant = digits.trim_start_matches('0');
    let trimmed = significant.trim_end_matches('0');
    exp += (significant.len() - trimmed.len()) as i64;
    (negative && !trimmed.is_empty(), trimmed.to_string(), exp)
}

fn compare_numbers(a: &str, b: &str) -> Ordering {
    let (neg_a, digits_a, exp_a) = decimal(a);
    let (neg_b, digits_b, exp_b) = decimal(b);
    let sign = |neg: bool, digits: &str| if digits.is_empty() { 0 } else if neg { -1 } else { 1 };
    let (sa, sb) = (sign(neg_a, &digits_a), sign(neg_b, &digits_b));
    if sa != sb || sa == 0 {
        return sa.cmp(&sb);
    }
    // Same sign: the larger magnitude has its leading digit at a higher power of ten; on a tie
    // the digit strings decide (a prefix is smaller: 12 < 123 at the same leading power).
    let magnitude = (digits_a.len() as i64 + exp_a)
        .cmp(&(digits_b.len() as i64 + exp_b))
        .then_with(|| digits_a.cmp(&digits_b));
    if sa < 0 {
        magnitude.reverse()
    } else {
        magnitude
    }
}
