//! The description of a command line: what a tool accepts, in enough detail to
//! both parse argv and print clap-style `--help` text. moat builds the model's
//! JSON Schema from that help text, so the two can never drift apart.

/// An option (`-p, --precision <DIGITS>`) or a boolean flag (`--pretty`).
#[derive(Clone, Debug)]
pub struct Opt {
    pub short: Option<char>,
    pub long: &'static str,
    /// The value name shown in help (`DIGITS`); `None` makes this a flag.
    pub value: Option<&'static str>,
    pub help: &'static str,
    pub long_help: &'static str,
    pub default: Option<&'static str>,
    pub possible: &'static [&'static str],
    pub required: bool,
    pub multiple: bool,
}

/// A positional argument (`<EXPRESSION>`, `[TEXT]`, `<FILE>...`).
#[derive(Clone, Debug)]
pub struct Arg {
    pub name: &'static str,
    pub help: &'static str,
    pub long_help: &'static str,
    pub required: bool,
    pub multiple: bool,
    pub possible: &'static [&'static str],
}

#[derive(Clone, Debug)]
pub struct Command {
    pub name: &'static str,
    /// The parent's name for subcommands: usage reads `base64 encode`.
    pub parent: Option<&'static str>,
    pub version: &'static str,
    pub about: &'static str,
    pub long_about: &'static str,
    pub args: Vec<Arg>,
    pub opts: Vec<Opt>,
    pub subcommands: Vec<Command>,
    pub keywords: Vec<&'static str>,
    /// none | read | write | execute: what moat should ask before running it.
    pub permission: &'static str,
}

impl Opt {
    pub fn flag(long: &'static str, help: &'static str) -> Opt {
        Opt {
            short: None,
            long,
            value: None,
            help,
            long_help: "",
            default: None,
            possible: &[],
            required: false,
            multiple: false,
        }
    }
    pub fn value(long: &'static str, value: &'static str, help: &'static str) -> Opt {
        Opt { value: Some(value), ..Opt::flag(long, help) }
    }
    pub fn short(mut self, c: char) -> Opt {
        self.short = Some(c);
        self
    }
    pub fn default(mut self, d: &'static str) -> Opt {
        self.default = Some(d);
        self
    }
    pub fn possible(mut self, p: &'static [&'static str]) -> Opt {
        self.possible = p;
        self
    }
    pub fn long_help(mut self, h: &'static str) -> Opt {
        self.long_help = h;
        self
    }
    pub fn required(mut self) -> Opt {
        self.required = true;
        self
    }
    pub fn multiple(mut self) -> Opt {
        self.multiple = true;
        self
    }
    pub fn takes_value(&self) -> bool {
        self.value.is_some()
    }
}

impl Arg {
    pub fn required(name: &'static str, help: &'static str) -> Arg {
        Arg { name, help, long_help: "", required: true, multiple: false, possible: &[] }
    }
    pub fn optional(name: &'static str, help: &'static str) -> Arg {
        Arg { required: false, ..Arg::required(name, help) }
    }
    pub fn possible(mut self, p: &'static [&'static str]) -> Arg {
        self.possible = p;
        self
    }
    pub fn long_help(mut self, h: &'static str) -> Arg {
        self.long_help = h;
        self
    }
    pub fn multiple(mut self) -> Arg {
        self.multiple = true;
        self
    }
}

impl Command {
    pub fn new(name: &'static str, version: &'static str, about: &'static str) -> Command {
        Command {
            name,
            parent: None,
            version,
            about,
            long_about: "",
            args: Vec::new(),
            opts: Vec::new(),
            subcommands: Vec::new(),
            keywords: Vec::new(),
            permission: "none",
        }
    }
    pub fn long_about(mut self, text: &'static str) -> Command {
        self.long_about = text;
        self
    }
    pub fn arg(mut self, a: Arg) -> Command {
        self.args.push(a);
        self
    }
    pub fn opt(mut self, o: Opt) -> Command {
        self.opts.push(o);
        self
    }
    pub fn keywords(mut self, k: &[&'static str]) -> Command {
        self.keywords = k.to_vec();
        self
    }
    pub fn permission(mut self, p: &'static str) -> Command {
        self.permission = p;
        self
    }
    pub fn subcommand(mut self, mut sub: Command) -> Command {
        sub.parent = Some(self.name);
        if sub.version.is_empty() {
            sub.version = self.version;
        }
        self.subcommands.push(sub);
        self
    }
    /// `base64 encode` for a subcommand, `calculate` otherwise.
    pub fn display_name(&self) -> String {
        match self.parent {
            Some(p) => format!("{} {}", p, self.name),
            None => self.name.to_string(),
        }
    }
    pub fn find_long(&self, long: &str) -> Option<&Opt> {
        self.opts.iter().find(|o| o.long == long)
    }
    pub fn find_short(&self, c: char) -> Option<&Opt> {
        self.opts.iter().find(|o| o.short == Some(c))
    }
    /// True when any item has a long help text: `--help` then uses clap's
    /// roomier layout, with each help text under its item.
    pub fn has_long_help(&self) -> bool {
        self.opts.iter().any(|o| !o.long_help.is_empty()) || self.args.iter().any(|a| !a.long_help.is_empty())
    }
}
