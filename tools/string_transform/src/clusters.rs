//! Extended grapheme clusters (user-perceived characters) by Unicode UAX #29,
//! Unicode 17.0: every rule GB3–GB999, including Hangul syllable sequences
//! (GB6–GB8), Indic conjuncts joined by a virama (GB9c), emoji ZWJ sequences
//! (GB11) and regional-indicator pairs (GB12/13). The properties come from
//! unicode_tables.rs, generated from the Unicode Character Database.

use crate::unicode_tables::{Gcb, Incb, EXTENDED_PICTOGRAPHIC, GCB, INCB};

fn lookup<T: Copy>(table: &[(u32, u32, T)], c: u32, none: T) -> T {
    match table.binary_search_by(|&(lo, hi, _)| {
        if hi < c {
            std::cmp::Ordering::Less
        } else if lo > c {
            std::cmp::Ordering::Greater
        } else {
            std::cmp::Ordering::Equal
        }
    }) {
        Ok(i) => table[i].2,
        Err(_) => none,
    }
}

pub fn gcb(c: char) -> Gcb {
    lookup(GCB, c as u32, Gcb::Other)
}

fn incb(c: char) -> Incb {
    lookup(INCB, c as u32, Incb::None)
}

fn pictographic(c: char) -> bool {
    let c = c as u32;
    EXTENDED_PICTOGRAPHIC.binary_search_by(|&(lo, hi)| if hi < c { std::cmp::Ordering::Less } else if lo > c { std::cmp::Ordering::Greater } else { std::cmp::Ordering::Equal }).is_ok()
}

/// What the rules need to remember about the cluster so far.
#[derive(Default)]
struct State {
    /// Regional indicators in a row just before this point (GB12/13 pair them).
    ri_run: usize,
    /// GB11: 0 nothing, 1 after Extended_Pictographic Extend*, 2 after that and a ZWJ.
    emoji: u8,
    /// GB9c: 0 nothing, 1 after a consonant (with InCB Extend/Linker*), 2 once a Linker came after it.
    conjunct: u8,
}

/// Whether there is a boundary between `prev` and `next`, given what came before.
fn is_break(prev: char, next: char, st: &State) -> bool {
    use Gcb::*;
    let (p, n) = (gcb(prev), gcb(next));
    match (p, n) {
        (CR, LF) => false,                                     // GB3
        (CR | LF | Control, _) => true,                        // GB4
        (_, CR | LF | Control) => true,                        // GB5
        (L, L | V | LV | LVT) => false,                        // GB6
        (LV | V, V | T) => false,                              // GB7
        (LVT | T, T) => false,                                 // GB8
        (_, Extend | ZWJ) => false,                            // GB9
        (_, SpacingMark) => false,                             // GB9a
        (Prepend, _) => false,                                 // GB9b
        _ if st.conjunct == 2 && incb(next) == Incb::Consonant => false, // GB9c
        (ZWJ, _) if st.emoji == 2 && pictographic(next) => false,        // GB11
        (RegionalIndicator, RegionalIndicator) => st.ri_run % 2 == 0,    // GB12/13
        _ => true,                                             // GB999
    }
}

fn advance(st: &mut State, c: char) {
    let g = gcb(c);
    st.ri_run = if g == Gcb::RegionalIndicator { st.ri_run + 1 } else { 0 };
    st.emoji = if pictographic(c) {
        1
    } else if g == Gcb::Extend && st.emoji == 1 {
        1
    } else if g == Gcb::ZWJ && st.emoji == 1 {
        2
    } else {
        0
    };
    st.conjunct = match incb(c) {
        Incb::Consonant => 1,
        Incb::Linker if st.conjunct >= 1 => 2,
        Incb::Extend if st.conjunct >= 1 => st.conjunct,
        _ => 0,
    };
}

pub fn clusters(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut chars = s.char_indices();
    let first = match chars.next() {
        Some((_, c)) => c,
        None => return out,
    };
    let mut st = State::default();
    advance(&mut st, first);
    let mut start = 0;
    let mut prev = first;
    for (i, c) in chars {
        if is_break(prev, c, &st) {
            out.push(&s[start..i]);
            start = i;
        }
        advance(&mut st, c);
        prev = c;
    }
    out.push(&s[start..]);
    out
}
