//! Arguments that cannot travel in argv — text with U+0000 (argv strings end
//! at the first NUL) or too long for the argument buffer — come on stdin
//! instead: the host puts `\u{1}moat-stdin:N` in argv and sends the values as
//! `<byte length>\n<UTF-8 bytes>` one after another.

use std::io::Read;

const MARKER: &str = "\u{1}moat-stdin:";

/// Replaces each marker in `argv` with its value from stdin. Without markers stdin is left alone.
pub fn substitute(argv: &mut [String]) {
    if !argv.iter().any(|a| a.starts_with(MARKER)) {
        return;
    }
    let mut bytes = Vec::new();
    if std::io::stdin().read_to_end(&mut bytes).is_err() {
        return;
    }
    let values = frames(&bytes);
    for a in argv.iter_mut() {
        let index = a.strip_prefix(MARKER).and_then(|n| n.parse::<usize>().ok());
        if let Some(v) = index.and_then(|i| values.get(i)) {
            *a = v.clone();
        }
    }
}

/// `<len>\n<bytes>` frames; a malformed tail ends the list.
fn frames(mut rest: &[u8]) -> Vec<String> {
    let mut out = Vec::new();
    while let Some(nl) = rest.iter().position(|&b| b == b'\n') {
        let len = match std::str::from_utf8(&rest[..nl]).ok().and_then(|s| s.parse::<usize>().ok()) {
            Some(n) => n,
            None => break,
        };
        let start = nl + 1;
        if rest.len() < start + len {
            break;
        }
        out.push(String::from_utf8_lossy(&rest[start..start + len]).into_owned());
        rest = &rest[start + len..];
    }
    out
}
