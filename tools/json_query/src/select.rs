//! Evaluates a parsed JSONPath against a document (RFC 9535 §2.3, §2.5),
//! keeping each match's normalized path (`$['store']['book'][0]`, §2.7) for
//! the caller.

use crate::ast::{Query, Selector};
use crate::eval::test;
use moat_tool::Json;
use std::fmt::Write;
use std::rc::Rc;

#[derive(Clone, Copy)]
pub enum Step<'a> {
    Key(&'a str),
    Index(usize),
}

/// A path as a list shared from the leaf up: a child costs one small allocation, not a copy of
/// its parent's path (filters and `..` make many nodes whose paths are never printed).
struct Link<'a> {
    parent: Option<Rc<Link<'a>>>,
    step: Step<'a>,
}

#[derive(Clone)]
pub struct Node<'a> {
    pub value: &'a Json,
    path: Option<Rc<Link<'a>>>,
}

impl<'a> Node<'a> {
    /// The normalized path: `$`, then `['name']` or `[index]` for each step from the root.
    pub fn path_string(&self) -> String {
        let mut steps = Vec::new();
        let mut link = self.path.as_deref();
        while let Some(l) = link {
            steps.push(l.step);
            link = l.parent.as_deref();
        }
        let mut s = String::from("$");
        for step in steps.iter().rev() {
            match step {
                Step::Key(k) => {
                    s.push_str("['");
                    push_normalized(&mut s, k);
                    s.push_str("']");
                }
                Step::Index(i) => {
                    let _ = write!(s, "[{}]", i);
                }
            }
        }
        s
    }

    fn child(&self, step: Step<'a>, value: &'a Json) -> Node<'a> {
        Node { value, path: Some(Rc::new(Link { parent: self.path.clone(), step })) }
    }

    fn children(&self) -> Vec<Node<'a>> {
        match self.value {
            Json::Array(items) => items.iter().enumerate().map(|(i, v)| self.child(Step::Index(i), v)).collect(),
            Json::Object(pairs) => pairs.iter().map(|(k, v)| self.child(Step::Key(k), v)).collect(),
            _ => Vec::new(),
        }
    }
}

/// A member name in a normalized path (§2.7): single quotes; `'` and `\` escaped; b f n r t
/// by letter, other control characters as `\u00xx` in lower case; everything else as it is.
fn push_normalized(s: &mut String, name: &str) {
    for c in name.chars() {
        match c {
            '\'' => s.push_str("\\'"),
            '\\' => s.push_str("\\\\"),
            '\u{8}' => s.push_str("\\b"),
            '\u{c}' => s.push_str("\\f"),
            '\n' => s.push_str("\\n"),
            '\r' => s.push_str("\\r"),
            '\t' => s.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(s, "\\u{:04x}", c as u32);
            }
            c => s.push(c),
        }
    }
}

/// The nodes `q` selects, in order; `current` is what `@` means (the root outside filters).
pub fn select<'a>(q: &Query, root: &'a Json, current: &'a Json) -> Vec<Node<'a>> {
    let start = Node { value: if q.relative { current } else { root }, path: None };
    let mut nodes = vec![start];
    for seg in &q.segments {
        let inputs = if seg.descendant {
            let mut all = Vec::new();
            for n in &nodes {
                descendants(n, &mut all);
            }
            all
        } else {
            nodes
        };
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

/// Appends the node and everything below it, in document order (§2.5.2.2).
fn descendants<'a>(n: &Node<'a>, out: &mut Vec<Node<'a>>) {
    out.push(n.clone());
    for c in n.children() {
        descendants(&c, out);
    }
}

fn apply<'a>(sel: &Selector, n: &Node<'a>, root: &'a Json, out: &mut Vec<Node<'a>>) {
    match (sel, n.value) {
        // With duplicate names the last one wins, as Json::get and JavaScript have it.
        (Selector::Name(name), Json::Object(pairs)) => {
            if let Some((k, v)) = pairs.iter().rev().find(|(k, _)| k == name) {
                out.push(n.child(Step::Key(k), v));
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

/// The indexes a slice selects (§2.3.4.2.2): Python's semantics, negative steps included.
/// A zero step is valid and selects nothing.
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
    } else if step < 0 {
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
