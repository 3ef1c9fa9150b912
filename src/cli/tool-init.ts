/**
 * `moat tool init NAME --lang rust|c`: a small project that builds into a
 * working WASI 0.2 command component with the documented toolchain (Debian
 * clang + wasi-libc, or rustc with the wasm32-wasi std, then jco's preview1
 * adapter). Both export `cabi_realloc` and print clap-style help with
 * `Keywords:` and `PermissionLevel:` lines, which is what moat parses.
 */

export type InitLang = 'rust' | 'c';

function help(name: string): string {
  return [
    `${name} 0.1.0`,
    'Repeat a text, optionally in capitals.',
    '',
    `Usage: ${name} [OPTIONS] <TEXT>`,
    '',
    'Arguments:',
    '  <TEXT>  The text to repeat',
    '',
    'Options:',
    '  -u, --upper      Print the text in capitals',
    '  -n, --times <N>  How many times to repeat it [default: 1]',
    '  -h, --help       Print help',
    '  -V, --version    Print version',
    '',
    'Keywords: text, example',
    'PermissionLevel: none',
    '',
  ].join('\n');
}

function cSource(name: string): string {
  const helpLines = help(name)
    .split('\n')
    .slice(0, -1)
    .map((l) => `  ${JSON.stringify(`${l}\n`)}`)
    .join('\n');
  return `/* ${name}: a moat WebAssembly tool. moat reads --help to build the tool's schema. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Required: without this export the WASI adapter keeps its state where malloc
 * may later write, and the tool corrupts its memory once the heap grows. */
__attribute__((export_name("cabi_realloc")))
void *cabi_realloc(void *p, size_t old, size_t align, size_t n) {
  (void)old;
  return n ? realloc(p, n) : (void *)align;
}

static const char *HELP =
${helpLines};

int main(int argc, char **argv) {
  int upper = 0, times = 1, options = 1;
  const char *text = NULL;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (options && (!strcmp(a, "-h") || !strcmp(a, "--help"))) { fputs(HELP, stdout); return 0; }
    if (options && (!strcmp(a, "-V") || !strcmp(a, "--version"))) { puts("${name} 0.1.0"); return 0; }
    if (options && !strcmp(a, "--")) { options = 0; continue; }
    if (options && (!strcmp(a, "-u") || !strcmp(a, "--upper"))) { upper = 1; continue; }
    if (options && (!strcmp(a, "-n") || !strcmp(a, "--times")) && i + 1 < argc) { times = atoi(argv[++i]); continue; }
    if (options && !strncmp(a, "--times=", 8)) { times = atoi(a + 8); continue; }
    if (options && a[0] == '-' && a[1] != '\\0') { fprintf(stderr, "unknown option %s (see --help)\\n", a); return 2; }
    if (text) { fprintf(stderr, "only one TEXT is expected\\n"); return 2; }
    text = a;
  }
  if (!text) { fprintf(stderr, "missing TEXT (see --help)\\n"); return 2; }
  if (times < 1 || times > 1000) { fprintf(stderr, "--times must be between 1 and 1000\\n"); return 2; }
  for (int t = 0; t < times; t++) {
    for (const char *c = text; *c; c++) putchar(upper ? toupper((unsigned char)*c) : *c);
    putchar('\\n');
  }
  return 0;
}
`;
}

function rustSource(name: string): string {
  return `//! ${name}: a moat WebAssembly tool. moat reads --help to build the tool's schema.
use std::process::exit;

/// Required: without this export the WASI adapter keeps its state where the
/// allocator may later write, and the tool corrupts its memory once the heap
/// grows. Exported by the link flag in build.sh.
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

const HELP: &str = ${JSON.stringify(help(name))};

fn main() {
    let (mut upper, mut times, mut options, mut text) = (false, 1usize, true, None::<String>);
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "-h" | "--help" if options => { print!("{}", HELP); return; }
            "-V" | "--version" if options => { println!("${name} 0.1.0"); return; }
            "--" if options => options = false,
            "-u" | "--upper" if options => upper = true,
            "-n" | "--times" if options => times = args.next().and_then(|v| v.parse().ok()).unwrap_or(0),
            s if options && s.starts_with("--times=") => times = s[8..].parse().unwrap_or(0),
            s if options && s.starts_with('-') && s.len() > 1 => { eprintln!("unknown option {} (see --help)", s); exit(2) }
            _ if text.is_some() => { eprintln!("only one TEXT is expected"); exit(2) }
            _ => text = Some(a),
        }
    }
    let text = text.unwrap_or_else(|| { eprintln!("missing TEXT (see --help)"); exit(2) });
    if times < 1 || times > 1000 { eprintln!("--times must be between 1 and 1000"); exit(2) }
    let line = if upper { text.to_uppercase() } else { text };
    for _ in 0..times { println!("{}", line); }
}
`;
}

const MANIFEST = (name: string) => `# ${name}.toml: what ${name} may touch. Without this file: nothing.
# Copy it next to ${name}.wasm (moat tool install ${name}.wasm --manifest ${name}.toml does).

# env = ["LANG"]                     # variables passed through, by name

[filesystem]
cwd = "none"                         # none | read | read-write (the session's working folder, at /)
# paths = [{ host = "/usr/share/zoneinfo", guest = "/zoneinfo" }]   # extra folders, read-only

[network]
allow = []                           # hosts for wasi:http, e.g. ["api.example.com", "*.example.org"]

[limits]
# fuel = 1_000_000_000               # instructions
# memory_mb = 16
# timeout_ms = 5000
`;

const JCO = '${JCO:-npx --yes @bytecodealliance/jco}';

function buildScript(name: string, lang: InitLang): string {
  const core =
    lang === 'c'
      ? `# Debian: apt-get install -y clang lld wasi-libc libclang-rt-14-dev-wasm32\n\${CLANG:-clang} --target=wasm32-wasi -O2 -s -o ${name}.core.wasm ${name}.c\n`
      : `# Debian: apt-get install -y rustc cargo libstd-rust-dev-wasm32 (or rustup target add wasm32-wasip1 and set TARGET)\nTARGET=\${TARGET:-wasm32-wasi}\nRUSTFLAGS="-C link-arg=--export=cabi_realloc" \${CARGO:-cargo} build --release --target "$TARGET"\ncp "target/$TARGET/release/${name}.wasm" ${name}.core.wasm\n`;
  return `#!/bin/sh
# Builds ${name}.wasm, a WASI 0.2 command component moat can run.
set -eu
cd "$(dirname "$0")"
${core}# Wrap the core module with the WASI preview1 adapter that jco ships.
${JCO} new ${name}.core.wasm --wasi-command -o ${name}.wasm
echo "built ${name}.wasm: try  moat tool validate ${name}.wasm"
`;
}

function readme(name: string, lang: InitLang): string {
  return `# ${name}

A moat WebAssembly tool (${lang === 'c' ? 'C' : 'Rust'}).

    sh build.sh                                   # → ${name}.wasm
    moat tool validate ${name}.wasm               # the schema moat parsed from --help
    moat tool exec ${name}.wasm '{"text": "hi", "upper": true}'
    moat tool install ${name}.wasm --manifest ${name}.toml

moat builds the tool's JSON Schema from its \`--help\` (clap style: \`Arguments:\`,
\`Options:\`, \`[default: …]\`, plus \`Keywords:\` and \`PermissionLevel:\` lines).
The manifest \`${name}.toml\` grants files, network and environment; without it the
tool gets none. Keep exporting \`cabi_realloc\`.
`;
}

/** The files of a new tool project, by relative path. */
export function initFiles(name: string, lang: InitLang): Record<string, string> {
  const common = { 'build.sh': buildScript(name, lang), [`${name}.toml`]: MANIFEST(name), 'README.md': readme(name, lang), '.gitignore': '*.wasm\ntarget/\n' };
  if (lang === 'c') return { [`${name}.c`]: cSource(name), ...common };
  return {
    'Cargo.toml': `[package]\nname = "${name}"\nversion = "0.1.0"\nedition = "2021"\n\n[profile.release]\nopt-level = "s"\nlto = true\npanic = "abort"\nstrip = true\n`,
    'src/main.rs': rustSource(name),
    ...common,
  };
}
