//! Slugs: lowercase words joined by a separator. The text is first brought to
//! its canonical decomposition (NFD), so precomposed and decomposed input give
//! the same slug; marks on Latin, Greek and Cyrillic letters are then dropped
//! (é → e, ά → α), a few letters with no decomposition are spelled out
//! (ß → ss, æ → ae, ø → o, ł → l), and letters of other scripts are kept
//! whole — their marks recomposed (が, क़, 한 stay as they are).

use crate::unicode_tables::{COMPOSITION, DECOMPOSITION, NONSPACING_MARK};

fn fold(c: char) -> Option<&'static str> {
    Some(match c {
        'ß' => "ss",
        'æ' => "ae",
        'œ' => "oe",
        'ø' => "o",
        'đ' | 'ð' => "d",
        'ħ' => "h",
        'ı' => "i",
        'ł' => "l",
        'ŀ' => "l",
        'þ' => "th",
        'ŧ' => "t",
        _ => return None,
    })
}

fn is_mark(c: char) -> bool {
    let c = c as u32;
    NONSPACING_MARK.binary_search_by(|&(lo, hi)| if hi < c { std::cmp::Ordering::Less } else if lo > c { std::cmp::Ordering::Greater } else { std::cmp::Ordering::Equal }).is_ok()
}

/// Latin, Greek and Cyrillic (with their extensions): scripts whose marks a URL slug drops.
fn drops_marks(c: char) -> bool {
    matches!(c as u32, 0x0000..=0x052F | 0x1C80..=0x1C8F | 0x1D00..=0x1DBF | 0x1E00..=0x1FFF | 0x2C60..=0x2C7F | 0x2DE0..=0x2DFF | 0xA640..=0xA69F | 0xA720..=0xA7FF | 0xAB30..=0xAB6F)
}

const S_BASE: u32 = 0xAC00;
const L_BASE: u32 = 0x1100;
const V_BASE: u32 = 0x1161;
const T_BASE: u32 = 0x11A7;
const T_COUNT: u32 = 28;
const N_COUNT: u32 = 21 * 28;

/// NFD: canonical decomposition (Hangul by the algorithm) and canonical order of marks is what the table gives.
fn decompose(s: &str) -> Vec<char> {
    let mut out = Vec::with_capacity(s.len());
    for c in s.chars() {
        let cp = c as u32;
        if (S_BASE..S_BASE + 11172).contains(&cp) {
            let i = cp - S_BASE;
            out.push(char::from_u32(L_BASE + i / N_COUNT).unwrap_or(c));
            out.push(char::from_u32(V_BASE + (i % N_COUNT) / T_COUNT).unwrap_or(c));
            if i % T_COUNT != 0 {
                out.push(char::from_u32(T_BASE + i % T_COUNT).unwrap_or(c));
            }
            continue;
        }
        match DECOMPOSITION.binary_search_by_key(&cp, |&(k, _)| k) {
            Ok(i) => out.extend(DECOMPOSITION[i].1.iter().filter_map(|&d| char::from_u32(d))),
            Err(_) => out.push(c),
        }
    }
    out
}

/// Puts kept base + mark pairs (and Hangul jamo) back together, as NFC would.
fn compose(chars: &[char]) -> String {
    let mut out: Vec<char> = Vec::with_capacity(chars.len());
    for &c in chars {
        if let Some(&last) = out.last() {
            let (l, v) = (last as u32, c as u32);
            if (L_BASE..L_BASE + 19).contains(&l) && (V_BASE..V_BASE + 21).contains(&v) {
                *out.last_mut().unwrap() = char::from_u32(S_BASE + ((l - L_BASE) * 21 + (v - V_BASE)) * T_COUNT).unwrap_or(last);
                continue;
            }
            if (S_BASE..S_BASE + 11172).contains(&l) && (l - S_BASE) % T_COUNT == 0 && (T_BASE + 1..T_BASE + T_COUNT).contains(&v) {
                *out.last_mut().unwrap() = char::from_u32(l + (v - T_BASE)).unwrap_or(last);
                continue;
            }
            if let Ok(i) = COMPOSITION.binary_search_by(|&(a, b, _)| (a, b).cmp(&(l, v))) {
                *out.last_mut().unwrap() = char::from_u32(COMPOSITION[i].2).unwrap_or(last);
                continue;
            }
        }
        out.push(c);
    }
    out.into_iter().collect()
}

pub fn slugify(s: &str, sep: &str) -> String {
    let lowered = s.to_lowercase();
    let mut words: Vec<Vec<char>> = vec![Vec::new()];
    // The base the next mark belongs to: marks after a Latin/Greek/Cyrillic letter go, others stay with it.
    let mut base_drops = false;
    for c in decompose(&lowered) {
        if is_mark(c) {
            let word = words.last_mut().unwrap();
            if !base_drops && !word.is_empty() {
                word.push(c);
            }
            continue;
        }
        if let Some(f) = fold(c) {
            words.last_mut().unwrap().extend(f.chars());
            base_drops = true;
        } else if c.is_alphanumeric() {
            words.last_mut().unwrap().push(c);
            base_drops = drops_marks(c);
        } else {
            if !words.last().unwrap().is_empty() {
                words.push(Vec::new());
            }
            base_drops = true;
        }
    }
    words.iter().filter(|w| !w.is_empty()).map(|w| compose(w)).collect::<Vec<_>>().join(sep)
}
