//! Evaluates a parsed JSONPath against a document, keeping each match's
//! normalized path (`$['store']['book'][0]`) for the caller.

use crate::path::{CmpOp, Expr, Operand, Query, Selector};
use moat_tool::json::write_string;
use moat_tool::Json;

#[derive(Clone)]
pub enum Step {
    Key(String),
    Index(usize),
}

#[derive(Clone)]
pub struct Node<'a> {
    pub value: &'a Json,
    pub path: Vec<Step>,
}

impl<'a> Node<'a> {
    pub fn path_string(&self) -> String {
        let mut s = String::from("$");
        for step in &self.path {
            match step {
                Step::Key(k) => {
                    s.push('[');
                    // Normalized paths use single quotes; the JSON escaping is close enough and unambiguous.
                    let mut q = String::new();
                    write_string(&mut q, k);
                    s.push('\'');
                    s.push_str(&q[1..q.len() - 1].replace('\'', "\\'").replace("\\\"", "\""));
                    s.push('\'');
                    s.push(']');
                }
                Step::Index(i) => s.push_str(&format!("[{}]", i)),
            }
        }
        s
    }

    fn child(&self, step: Step, value: &'a Json) -> Node<'a> {
        let mut path = self.path.clone();
        path.push(step);
        Node { value, path }
    }

    fn children(&self) -> Vec<Node<'a>> {
        match self.value {
            Json::Array(items) => items.iter().enumerate().map(|(i, v)| self.child(Step::Index(i), v)).collect(),
            Json::Object(pairs) => pairs.iter().map(|(k, v)| self.child(Step::Key(k.clone()), v)).collect(),
            _ => Vec::new(),
        }
    }
}

pub fn select<'a>(q: &Query, root: &'a Json, current: &'a Json) -> Vec<Node<'a>> {
    let start = Node { value: if q.relative { current } else { root }, path: Vec::new() };
    let mut nodes = vec![start];
    for seg in &q.segments {
        let inputs: Vec<Node<'a>> = if seg.descendant { nodes.iter().flat_map(descendants).collect() } else { nodes };
        let mut out = Vec::new();
        for n in &inputs {
            for sel in &seg.selectors {
                apply(sel, n, root, &mut out);
            }
        }
        nodes = out;
    }
    nodes
}

/// The node and everything below it, in document order.
fn descendants<'a>(n: &Node<'a>) -> Vec<Node<'a>> {
    let mut out = vec![n.clone()];
    for c in n.children() {
        out.extend(descendants(&c));
    }
    out
}

fn apply<'a>(sel: &Selector, n: &Node<'a>, root: &'a Json, out: &mut Vec<Node<'a>>) {
    match (sel, n.value) {
        (Selector::Name(name), Json::Object(_)) => {
            if let Some(v) = n.value.get(name) {
                out.push(n.child(Step::Key(name.clone()), v));
            }
        }
        (Selector::Wildcard, _) => out.extend(n.children()),
        (Selector::Index(i), Json::Array(items)) => {
            let len = items.len() as i64;
            let idx = if *i < 0 { len + i } else { *i };
            if (0..len).contains(&idx) {
                out.push(n.child(Step::Index(idx as usize), &items[idx as usize]));
            }
        }
        (Selector::Slice(start, end, step), Json::Array(items)) => {
            for i in slice_indexes(items.len() as i64, *start, *end, step.unwrap_or(1)) {
                out.push(n.child(Step::Index(i), &items[i]));
            }
        }
        (Selector::Filter(expr), Json::Array(_) | Json::Object(_)) => {
            for c in n.children() {
                if test(expr, c.value, root) {
                    out.push(c);
                }
            }
        }
        _ => {}
    }
}

/// Python slice semantics (RFC 9535 §2.3.4.2), including negative steps.
fn slice_indexes(len: i64, start: Option<i64>, end: Option<i64>, step: i64) -> Vec<usize> {
    let norm = |i: i64| if i < 0 { len + i } else { i };
    let mut out = Vec::new();
    if step > 0 {
        let lo = start.map(norm).unwrap_or(0).clamp(0, len);
        let hi = end.map(norm).unwrap_or(len).clamp(0, len);
        let mut i = lo;
        while i < hi {
            out.push(i as usize);
            i += step;
        }
    } else {
        let hi = start.map(norm).unwrap_or(len - 1).clamp(-1, len - 1);
        let lo = end.map(norm).unwrap_or(-len - 1).clamp(-1, len - 1);
        let mut i = hi;
        while i > lo {
            out.push(i as usize);
            i += step;
        }
    }
    out
}

fn test(e: &Expr, current: &Json, root: &Json) -> bool {
    match e {
        Expr::Or(a, b) => test(a, current, root) || test(b, current, root),
        Expr::And(a, b) => test(a, current, root) && test(b, current, root),
        Expr::Not(a) => !test(a, current, root),
        Expr::Exists(q) => !select(q, root, current).is_empty(),
        Expr::Compare(l, op, r) => compare(value(l, current, root), *op, value(r, current, root)),
    }
}

/// A comparison side: a literal, or a query that matched exactly one node.
/// Anything else is "nothing", which only equals nothing.
fn value<'a>(o: &'a Operand, current: &'a Json, root: &'a Json) -> Option<&'a Json> {
    match o {
        Operand::Literal(v) => Some(v),
        Operand::Query(q) => {
            let nodes = select(q, root, current);
            if nodes.len() == 1 {
                Some(nodes[0].value)
            } else {
                None
            }
        }
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
        // 1 == 1.0: numbers compare by value, not by their text.
        (Json::Number(_), Json::Number(_)) => a.as_f64() == b.as_f64(),
        (Json::Array(x), Json::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| deep_equal(p, q)),
        (Json::Object(x), Json::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| b.get(k).map_or(false, |w| deep_equal(v, w)))
        }
        _ => a == b,
    }
}

fn less(a: Option<&Json>, b: Option<&Json>) -> bool {
    match (a, b) {
        (Some(x @ Json::Number(_)), Some(y @ Json::Number(_))) => x.as_f64() < y.as_f64(),
        (Some(Json::String(x)), Some(Json::String(y))) => x < y,
        _ => false,
    }
}
