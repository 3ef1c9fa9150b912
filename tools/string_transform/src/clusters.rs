//! User-perceived characters, approximately: a base character with the marks,
//! joiners and modifiers that attach to it. Full UAX #29 needs Unicode tables
//! we cannot fetch; this covers what breaks naive reversal in practice —
//! combining accents, emoji ZWJ sequences, skin tones, variation selectors,
//! flags (regional-indicator pairs) and CRLF.

fn is_extender(c: char) -> bool {
    matches!(c as u32,
        0x0300..=0x036F     // combining diacritical marks
        | 0x0483..=0x0489
        | 0x0591..=0x05BD   // Hebrew points
        | 0x0610..=0x061A | 0x064B..=0x065F | 0x0670 // Arabic marks
        | 0x0900..=0x0903 | 0x093A..=0x094F // Devanagari signs and vowel marks
        | 0x1AB0..=0x1AFF | 0x1DC0..=0x1DFF
        | 0x200C            // zero-width non-joiner
        | 0x20D0..=0x20FF   // combining marks for symbols (keycaps)
        | 0x3099..=0x309A   // kana voicing marks
        | 0xFE00..=0xFE0F   // variation selectors
        | 0xFE20..=0xFE2F
        | 0x1F3FB..=0x1F3FF // emoji skin-tone modifiers
        | 0xE0020..=0xE007F // emoji tag sequences
        | 0xE0100..=0xE01EF)
}

fn is_regional_indicator(c: char) -> bool {
    (0x1F1E6..=0x1F1FF).contains(&(c as u32))
}

const ZWJ: char = '\u{200D}';

pub fn clusters(s: &str) -> Vec<&str> {
    let idx: Vec<(usize, char)> = s.char_indices().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < idx.len() {
        let start = idx[i].0;
        let first = idx[i].1;
        i += 1;
        if first == '\r' && i < idx.len() && idx[i].1 == '\n' {
            i += 1;
        } else if is_regional_indicator(first) && i < idx.len() && is_regional_indicator(idx[i].1) {
            i += 1;
        }
        loop {
            match idx.get(i).map(|p| p.1) {
                Some(c) if is_extender(c) => i += 1,
                // A joiner glues the next character on: 👩‍💻 is one.
                Some(ZWJ) => i += if i + 1 < idx.len() { 2 } else { 1 },
                _ => break,
            }
        }
        let end = idx.get(i).map(|p| p.0).unwrap_or(s.len());
        out.push(&s[start..end]);
    }
    out
}
