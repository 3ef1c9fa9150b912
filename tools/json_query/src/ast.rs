//! A parsed JSONPath query (RFC 9535): segments of selectors, and the filter
//! expressions with their function calls. Built by path.rs and filter.rs,
//! evaluated by select.rs and eval.rs.

use moat_tool::Json;

#[derive(Debug, Clone)]
pub enum Selector {
    Name(String),
    Wildcard,
    Index(i64),
    /// start, end, step; a missing part takes its default from the step's sign.
    Slice(Option<i64>, Option<i64>, Option<i64>),
    Filter(Box<Expr>),
}

#[derive(Debug, Clone)]
pub struct Segment {
    /// `..` : apply to the node and all its descendants.
    pub descendant: bool,
    pub selectors: Vec<Selector>,
}

#[derive(Debug, Clone)]
pub struct Query {
    /// `@` (the current node in a filter) rather than `$`.
    pub relative: bool,
    pub segments: Vec<Segment>,
}

impl Query {
    /// A singular query (RFC 9535 §2.3.5.1): only `.name`, `['name']` and `[n]` segments, so
    /// it selects at most one node and can stand where a value is needed.
    pub fn is_singular(&self) -> bool {
        self.segments
            .iter()
            .all(|s| !s.descendant && s.selectors.len() == 1 && matches!(s.selectors[0], Selector::Name(_) | Selector::Index(_)))
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

/// A side of a comparison, or a function's argument: a literal, a query, or a function call.
/// Which are allowed where is checked by the parser (filter.rs), by the RFC's type rules.
#[derive(Debug, Clone)]
pub enum Operand {
    Literal(Json),
    Query(Query),
    Call(Call),
}

/// The function extensions of RFC 9535 §2.4.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Function {
    Length,
    Count,
    Match,
    Search,
    Value,
}

#[derive(Debug, Clone)]
pub struct Call {
    pub function: Function,
    pub args: Vec<Operand>,
}

#[derive(Debug, Clone)]
pub enum Expr {
    Or(Box<Expr>, Box<Expr>),
    And(Box<Expr>, Box<Expr>),
    Not(Box<Expr>),
    Compare(Operand, CmpOp, Operand),
    /// A query as a test: true when it selects at least one node.
    Exists(Query),
    /// match() or search(): a function whose result is logical.
    Test(Call),
}
