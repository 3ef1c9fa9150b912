//! clap-style help text. `-h` prints the compact layout; `--help` adds the long
//! description and, when any item has a long help, clap's roomier layout with
//! each help text indented under its item. moat parses both and merges them.

use crate::cli::{Arg, Command, Opt};

pub fn usage(cmd: &Command) -> String {
    let mut s = format!("Usage: {}", cmd.display_name());
    if !cmd.subcommands.is_empty() {
        s.push_str(" <COMMAND>");
        return s;
    }
    // -h is always there, so like clap we always show [OPTIONS].
    s.push_str(" [OPTIONS]");
    for o in cmd.opts.iter().filter(|o| o.required) {
        s.push_str(&format!(" --{} <{}>", o.long, o.value.unwrap_or("VALUE")));
    }
    for a in &cmd.args {
        s.push(' ');
        s.push_str(&arg_term(a));
    }
    s
}

fn arg_term(a: &Arg) -> String {
    let base = if a.required { format!("<{}>", a.name) } else { format!("[{}]", a.name) };
    if a.multiple {
        base + "..."
    } else {
        base
    }
}

fn opt_term(o: &Opt) -> String {
    let mut t = match o.short {
        Some(c) => format!("-{}, --{}", c, o.long),
        None => format!("    --{}", o.long),
    };
    if let Some(v) = o.value {
        t.push_str(&format!(" <{}>", v));
        if o.multiple {
            t.push_str("...");
        }
    }
    t
}

fn suffixes(default: Option<&str>, possible: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(d) = default {
        out.push(format!("[default: {}]", d));
    }
    if !possible.is_empty() {
        out.push(format!("[possible values: {}]", possible.join(", ")));
    }
    out
}

struct Item {
    term: String,
    help: String,
    long_help: String,
    extra: Vec<String>,
}

fn items_for_args(cmd: &Command) -> Vec<Item> {
    cmd.args
        .iter()
        .map(|a| Item {
            term: arg_term(a),
            help: a.help.to_string(),
            long_help: a.long_help.to_string(),
            extra: suffixes(None, a.possible),
        })
        .collect()
}

fn items_for_opts(cmd: &Command, long: bool) -> Vec<Item> {
    let mut items: Vec<Item> = cmd
        .opts
        .iter()
        .map(|o| Item {
            term: opt_term(o),
            help: o.help.to_string(),
            long_help: o.long_help.to_string(),
            extra: suffixes(o.default, o.possible),
        })
        .collect();
    let more = cmd.has_long_help() || !cmd.long_about.is_empty();
    let help = match (more, long) {
        (true, false) => "Print help (see more with '--help')",
        (true, true) => "Print help (see a summary with '-h')",
        _ => "Print help",
    };
    items.push(Item { term: "-h, --help".into(), help: help.into(), long_help: String::new(), extra: vec![] });
    if cmd.parent.is_none() {
        items.push(Item { term: "-V, --version".into(), help: "Print version".into(), long_help: String::new(), extra: vec![] });
    }
    items
}

fn render_compact(out: &mut String, heading: &str, items: &[Item]) {
    if items.is_empty() {
        return;
    }
    let width = items.iter().map(|i| i.term.chars().count()).max().unwrap_or(0);
    out.push_str(heading);
    out.push_str(":\n");
    for i in items {
        let mut line = format!("  {:width$}  {}", i.term, i.help, width = width);
        for e in &i.extra {
            line.push(' ');
            line.push_str(e);
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out.push('\n');
}

/// clap's long layout: help under the term, indented 10, items apart.
fn render_long(out: &mut String, heading: &str, items: &[Item]) {
    if items.is_empty() {
        return;
    }
    out.push_str(heading);
    out.push_str(":\n");
    for (n, i) in items.iter().enumerate() {
        if n > 0 {
            out.push('\n');
        }
        out.push_str(&format!("  {}\n", i.term));
        let text = if i.long_help.is_empty() { &i.help } else { &i.long_help };
        for line in text.lines() {
            if line.is_empty() {
                out.push('\n');
            } else {
                out.push_str(&format!("          {}\n", line));
            }
        }
        if !i.extra.is_empty() {
            out.push('\n');
            out.push_str(&format!("          {}\n", i.extra.join(" ")));
        }
    }
    out.push('\n');
}

pub fn render(cmd: &Command, long: bool) -> String {
    let mut out = String::new();
    let first = match cmd.parent {
        Some(p) => format!("{}-{}", p, cmd.name),
        None => cmd.name.to_string(),
    };
    out.push_str(&format!("{} {}\n{}\n\n", first, cmd.version, cmd.about));
    if long && !cmd.long_about.is_empty() {
        out.push_str(cmd.long_about.trim_end());
        out.push_str("\n\n");
    }
    out.push_str(&usage(cmd));
    out.push_str("\n\n");
    let roomy = long && cmd.has_long_help();
    let render_items = if roomy { render_long } else { render_compact };
    if !cmd.subcommands.is_empty() {
        let mut subs: Vec<Item> = cmd
            .subcommands
            .iter()
            .map(|s| Item { term: s.name.to_string(), help: s.about.to_string(), long_help: String::new(), extra: vec![] })
            .collect();
        subs.push(Item {
            term: "help".into(),
            help: "Print this message or the help of the given subcommand(s)".into(),
            long_help: String::new(),
            extra: vec![],
        });
        render_compact(&mut out, "Commands", &subs);
    }
    render_items(&mut out, "Arguments", &items_for_args(cmd));
    render_items(&mut out, "Options", &items_for_opts(cmd, long));
    if !cmd.keywords.is_empty() {
        out.push_str(&format!("Keywords: {}\n", cmd.keywords.join(", ")));
    }
    out.push_str(&format!("PermissionLevel: {}\n", cmd.permission));
    out
}
