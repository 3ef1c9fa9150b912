//! Shared helpers for moat's bundled tools: a clap-like command description,
//! argv parsing, clap-style help text, JSON, and the `{"error", "content",
//! "metadata"}` output convention. std only: the build machines reach no
//! crate registry.

pub mod b64;
pub mod cli;
pub mod files;
pub mod help;
pub mod json;
pub mod json_parse;
pub mod parse;
pub mod stdin_args;

pub use cli::{Arg, Command, Opt};
pub use json::Json;
pub use json_parse::parse_json;
pub use parse::Matches;

use std::io::Write;

/// What a tool returns on success: text for the model, metadata for the UI.
pub struct Output {
    pub content: String,
    pub metadata: Vec<(String, Json)>,
}

impl Output {
    pub fn new(content: impl Into<String>) -> Output {
        Output { content: content.into(), metadata: Vec::new() }
    }
    pub fn meta(mut self, key: &str, value: Json) -> Output {
        self.metadata.push((key.to_string(), value));
        self
    }
    pub fn to_json(&self) -> String {
        Json::Object(vec![
            ("error".into(), Json::Bool(false)),
            ("content".into(), Json::String(self.content.clone())),
            ("metadata".into(), Json::Object(self.metadata.clone())),
        ])
        .to_compact()
    }
}

/// Parses argv, runs the tool, prints the result, and exits: 0 on success,
/// 1 with `error: …` on stderr when the tool fails, 2 on a usage mistake.
pub fn run(cmd: Command, execute: fn(&Matches) -> Result<Output, String>) -> ! {
    let mut argv: Vec<String> = std::env::args_os().skip(1).map(|a| a.to_string_lossy().into_owned()).collect();
    stdin_args::substitute(&mut argv);
    let code = match parse::parse(&cmd, &argv) {
        Err(parse::Stop::Print(text)) => {
            print_out(&text);
            0
        }
        Err(parse::Stop::Usage(text)) => {
            eprint!("{}", text);
            2
        }
        Ok(m) => match execute(&m) {
            Ok(out) => {
                print_out(&(out.to_json() + "\n"));
                0
            }
            Err(msg) => {
                eprintln!("error: {}", msg);
                1
            }
        },
    };
    std::process::exit(code)
}

fn print_out(text: &str) {
    let mut out = std::io::stdout();
    // A closed stdout is not worth a panic; the exit code still tells the story.
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
}

/// The component-model adapter allocates its own state through this export.
/// Without it, the adapter grows memory behind the allocator's back and the
/// 2022 dlmalloc in Rust 1.63's wasi-libc later overwrites that page
/// (see shared/research/wasm-spike.md §1). The build links it with
/// `--export=cabi_realloc`.
#[cfg(target_arch = "wasm32")]
#[no_mangle]
pub unsafe extern "C" fn cabi_realloc(p: *mut u8, old: usize, align: usize, n: usize) -> *mut u8 {
    use std::alloc::{alloc, realloc, Layout};
    if n == 0 {
        return align as *mut u8;
    }
    if p.is_null() {
        alloc(Layout::from_size_align_unchecked(n, align))
    } else {
        realloc(p, Layout::from_size_align_unchecked(old, align), n)
    }
}
