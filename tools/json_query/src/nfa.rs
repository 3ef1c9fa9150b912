//! Runs an I-Regexp (parsed by iregexp.rs): compiled to an NFA program and
//! simulated in lock-step (Thompson), so matching time is linear in the text
//! whatever the pattern; a pattern from the document cannot blow up the way
//! a backtracking engine can.

use crate::iregexp::{self, Class, Node};

/// Repetitions are unrolled; past this many instructions the pattern is refused.
const MAX_PROGRAM: usize = 100_000;

#[derive(Debug)]
enum Inst {
    /// Read one character of the class.
    Class(Class),
    /// Try both.
    Split(usize, usize),
    Jmp(usize),
    /// `^` and `$`: go on only at the start / the end of the text.
    AtStart,
    AtEnd,
    Match,
}

pub struct Regex {
    prog: Vec<Inst>,
}

fn emit(n: &Node, prog: &mut Vec<Inst>) -> Result<(), String> {
    if prog.len() > MAX_PROGRAM {
        return Err("pattern too large once its repetitions are counted out".into());
    }
    match n {
        Node::Class(c) => prog.push(Inst::Class(c.clone())),
        Node::Start => prog.push(Inst::AtStart),
        Node::End => prog.push(Inst::AtEnd),
        Node::Concat(parts) => {
            for p in parts {
                emit(p, prog)?;
            }
        }
        Node::Alt(branches) => {
            // split L1, next; L1: branch; jmp end; next: split …; the last branch falls through to end.
            let mut jumps = Vec::new();
            for (k, b) in branches.iter().enumerate() {
                if k + 1 < branches.len() {
                    let split = prog.len();
                    prog.push(Inst::Split(split + 1, 0));
                    emit(b, prog)?;
                    jumps.push(prog.len());
                    prog.push(Inst::Jmp(0));
                    let next = prog.len();
                    prog[split] = Inst::Split(split + 1, next);
                } else {
                    emit(b, prog)?;
                }
            }
            let end = prog.len();
            for j in jumps {
                prog[j] = Inst::Jmp(end);
            }
        }
        Node::Repeat(inner, min, max) => {
            for _ in 0..*min {
                emit(inner, prog)?;
            }
            match max {
                None => {
                    // L: split body, end; body; jmp L
                    let split = prog.len();
                    prog.push(Inst::Split(split + 1, 0));
                    emit(inner, prog)?;
                    prog.push(Inst::Jmp(split));
                    let end = prog.len();
                    prog[split] = Inst::Split(split + 1, end);
                }
                Some(max) => {
                    // Each optional copy may be skipped straight to the end.
                    let mut splits = Vec::new();
                    for _ in *min..*max {
                        splits.push(prog.len());
                        prog.push(Inst::Split(0, 0));
                        emit(inner, prog)?;
                    }
                    let end = prog.len();
                    for s in splits {
                        prog[s] = Inst::Split(s + 1, end);
                    }
                }
            }
        }
    }
    Ok(())
}

impl Regex {
    /// Parses and compiles; an error is one line saying where and why.
    pub fn new(pattern: &str) -> Result<Regex, String> {
        let node = iregexp::parse(pattern)?;
        let mut prog = Vec::new();
        emit(&node, &mut prog)?;
        prog.push(Inst::Match);
        Ok(Regex { prog })
    }

    /// Adds the thread at `pc` and all it reaches without reading a character, at text position `at` of `len`.
    fn add(&self, list: &mut Vec<usize>, seen: &mut [u32], generation: u32, pc: usize, at: usize, len: usize) {
        let mut stack = vec![pc];
        while let Some(pc) = stack.pop() {
            if seen[pc] == generation {
                continue;
            }
            seen[pc] = generation;
            match &self.prog[pc] {
                Inst::Jmp(t) => stack.push(*t),
                Inst::Split(a, b) => {
                    // Pushed in reverse so `a` is explored first (order only matters for speed here).
                    stack.push(*b);
                    stack.push(*a);
                }
                Inst::AtStart if at == 0 => stack.push(pc + 1),
                Inst::AtEnd if at == len => stack.push(pc + 1),
                Inst::AtStart | Inst::AtEnd => {}
                Inst::Class(_) | Inst::Match => list.push(pc),
            }
        }
    }

    fn run(&self, text: &str, anchored: bool) -> bool {
        let chars: Vec<char> = text.chars().collect();
        let len = chars.len();
        let mut seen = vec![0u32; self.prog.len()];
        let mut generation = 1;
        let mut current = Vec::new();
        self.add(&mut current, &mut seen, generation, 0, 0, len);
        let matched = |threads: &[usize]| threads.iter().any(|&pc| matches!(self.prog[pc], Inst::Match));
        for (at, &c) in chars.iter().enumerate() {
            // search(): any match will do, so stop at the first.
            if !anchored && matched(&current) {
                return true;
            }
            generation += 1;
            let mut next = Vec::new();
            for &pc in &current {
                if let Inst::Class(cls) = &self.prog[pc] {
                    if cls.matches(c) {
                        self.add(&mut next, &mut seen, generation, pc + 1, at + 1, len);
                    }
                }
            }
            // search(): a match may also start after this character.
            if !anchored {
                self.add(&mut next, &mut seen, generation, 0, at + 1, len);
            }
            current = next;
        }
        matched(&current)
    }

    /// match(): the pattern matches the whole text.
    pub fn is_full_match(&self, text: &str) -> bool {
        self.run(text, true)
    }

    /// search(): the pattern matches some substring of the text.
    pub fn is_found_in(&self, text: &str) -> bool {
        self.run(text, false)
    }
}
