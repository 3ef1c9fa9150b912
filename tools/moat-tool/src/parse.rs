//! argv → `Matches`, with clap's conventions: `--long value`, `--long=value`,
//! `-s value`, `-svalue`, `--` ends options, `-h`/`--help`/`-V`/`--version`.
//! Usage mistakes print clap-like messages on stderr and exit with 2.

use crate::cli::{Command, Opt};
use crate::help;

#[derive(Debug, Default)]
pub struct Matches {
    values: Vec<(String, Vec<String>)>,
    pub subcommand: Option<(String, Box<Matches>)>,
}

impl Matches {
    /// The value of an option (by long name) or positional (by name), or its default.
    pub fn get(&self, id: &str) -> Option<&str> {
        self.values.iter().find(|(k, _)| k == id).and_then(|(_, v)| v.last()).map(|s| s.as_str())
    }
    pub fn get_all(&self, id: &str) -> Vec<&str> {
        self.values.iter().filter(|(k, _)| k == id).flat_map(|(_, v)| v.iter().map(|s| s.as_str())).collect()
    }
    pub fn flag(&self, long: &str) -> bool {
        self.values.iter().any(|(k, _)| k == long)
    }
    fn push(&mut self, id: &str, v: String) {
        match self.values.iter_mut().find(|(k, _)| k == id) {
            Some((_, vs)) => vs.push(v),
            None => self.values.push((id.to_string(), vec![v])),
        }
    }
}

/// What to do instead of running: print help or version (exit 0) or a usage error (exit 2).
#[derive(Debug, PartialEq)]
pub enum Stop {
    Print(String),
    Usage(String),
}

fn usage_error(cmd: &Command, msg: &str) -> Stop {
    Stop::Usage(format!("error: {}\n\n{}\n\nFor more information, try '--help'.\n", msg, help::usage(cmd)))
}

/// A token that starts with '-' but is a value, like `-2+3` or `-.5`: clap's allow_negative_numbers.
fn looks_negative(tok: &str) -> bool {
    let mut cs = tok.chars();
    cs.next() == Some('-') && matches!(cs.next(), Some(c) if c.is_ascii_digit() || c == '.' || c == '(')
}

fn take_value(cmd: &Command, o: &Opt, inline: Option<String>, rest: &mut std::slice::Iter<String>) -> Result<String, Stop> {
    let v = match inline {
        Some(v) => v,
        None => match rest.next() {
            Some(v) => v.clone(),
            None => {
                return Err(usage_error(cmd, &format!("a value is required for '--{} <{}>' but none was supplied", o.long, o.value.unwrap_or("VALUE"))))
            }
        },
    };
    if !o.possible.is_empty() && !o.possible.contains(&v.as_str()) {
        return Err(usage_error(
            cmd,
            &format!("invalid value '{}' for '--{}': possible values are {}", v, o.long, o.possible.join(", ")),
        ));
    }
    Ok(v)
}

fn record_opt(cmd: &Command, m: &mut Matches, o: &Opt, v: String) -> Result<(), Stop> {
    if m.flag(o.long) && !o.multiple {
        return Err(usage_error(cmd, &format!("the argument '--{}' cannot be used multiple times", o.long)));
    }
    m.push(o.long, v);
    Ok(())
}

pub fn parse(cmd: &Command, argv: &[String]) -> Result<Matches, Stop> {
    let mut m = Matches::default();
    let mut positionals: Vec<String> = Vec::new();
    let mut rest = argv.iter();
    let mut only_positionals = false;
    while let Some(tok) = rest.next() {
        if only_positionals || tok == "-" || !tok.starts_with('-') || looks_negative(tok) {
            if positionals.is_empty() && !only_positionals && !cmd.subcommands.is_empty() {
                return parse_subcommand(cmd, tok, &mut rest, m);
            }
            positionals.push(tok.clone());
            continue;
        }
        if tok == "--" {
            only_positionals = true;
            continue;
        }
        if tok == "-h" || tok == "--help" {
            return Err(Stop::Print(help::render(cmd, tok == "--help")));
        }
        if (tok == "-V" || tok == "--version") && cmd.parent.is_none() {
            return Err(Stop::Print(format!("{} {}\n", cmd.name, cmd.version)));
        }
        if let Some(long) = tok.strip_prefix("--") {
            let (name, inline) = match long.find('=') {
                Some(i) => (&long[..i], Some(long[i + 1..].to_string())),
                None => (long, None),
            };
            let o = cmd.find_long(name).ok_or_else(|| usage_error(cmd, &format!("unexpected argument '--{}' found", name)))?;
            let v = if o.takes_value() {
                take_value(cmd, o, inline, &mut rest)?
            } else if inline.is_some() {
                return Err(usage_error(cmd, &format!("unexpected value for flag '--{}'", name)));
            } else {
                String::new()
            };
            record_opt(cmd, &mut m, o, v)?;
            continue;
        }
        // Short options: `-p 3`, `-p3`, or bundled flags `-ab`.
        let shorts: Vec<char> = tok.chars().skip(1).collect();
        let mut i = 0;
        while i < shorts.len() {
            let c = shorts[i];
            let o = cmd.find_short(c).ok_or_else(|| usage_error(cmd, &format!("unexpected argument '-{}' found", c)))?;
            if o.takes_value() {
                let attached: String = shorts[i + 1..].iter().collect();
                let inline = if attached.is_empty() { None } else { Some(attached.trim_start_matches('=').to_string()) };
                let v = take_value(cmd, o, inline, &mut rest)?;
                record_opt(cmd, &mut m, o, v)?;
                break;
            }
            record_opt(cmd, &mut m, o, String::new())?;
            i += 1;
        }
    }
    finish(cmd, m, positionals)
}

fn parse_subcommand(cmd: &Command, tok: &str, rest: &mut std::slice::Iter<String>, m: Matches) -> Result<Matches, Stop> {
    let tail: Vec<String> = rest.cloned().collect();
    if tok == "help" {
        return match tail.first() {
            None => Err(Stop::Print(help::render(cmd, true))),
            Some(name) => match cmd.subcommands.iter().find(|s| s.name == name) {
                Some(sub) => Err(Stop::Print(help::render(sub, true))),
                None => Err(usage_error(cmd, &format!("unrecognized subcommand '{}'", name))),
            },
        };
    }
    let sub = cmd
        .subcommands
        .iter()
        .find(|s| s.name == tok)
        .ok_or_else(|| usage_error(cmd, &format!("unrecognized subcommand '{}'", tok)))?;
    let sm = parse(sub, &tail)?;
    Ok(Matches { subcommand: Some((sub.name.to_string(), Box::new(sm))), ..m })
}

fn finish(cmd: &Command, mut m: Matches, positionals: Vec<String>) -> Result<Matches, Stop> {
    if !cmd.subcommands.is_empty() && m.subcommand.is_none() {
        return Err(Stop::Usage(format!("error: a subcommand is required\n\n{}", help::render(cmd, false))));
    }
    let mut given = positionals.into_iter();
    let mut missing: Vec<String> = cmd.opts.iter().filter(|o| o.required && !m.flag(o.long)).map(|o| format!("--{} <{}>", o.long, o.value.unwrap_or("VALUE"))).collect();
    for a in &cmd.args {
        let vals: Vec<String> = if a.multiple { given.by_ref().collect() } else { given.next().into_iter().collect() };
        if vals.is_empty() && a.required {
            missing.push(format!("<{}>", a.name));
        }
        for v in vals {
            if !a.possible.is_empty() && !a.possible.contains(&v.as_str()) {
                return Err(usage_error(cmd, &format!("invalid value '{}' for '<{}>': possible values are {}", v, a.name, a.possible.join(", "))));
            }
            m.push(a.name, v);
        }
    }
    if let Some(extra) = given.next() {
        return Err(usage_error(cmd, &format!("unexpected argument '{}' found", extra)));
    }
    if !missing.is_empty() {
        return Err(usage_error(cmd, &format!("the following required arguments were not provided:\n  {}", missing.join("\n  "))));
    }
    for o in &cmd.opts {
        if let (Some(d), false) = (o.default, m.flag(o.long)) {
            m.push(o.long, d.to_string());
        }
    }
    Ok(m)
}
