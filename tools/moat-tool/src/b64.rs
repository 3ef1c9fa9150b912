//! Base64 (RFC 4648): the standard and URL-safe alphabets, with or without
//! padding. Decoding skips whitespace (wrapped MIME text) and reports the
//! first bad character by position.

const STD: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const URL: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

pub fn encode(data: &[u8], url_safe: bool, pad: bool) -> String {
    let abc = if url_safe { URL } else { STD };
    let mut out = String::with_capacity((data.len() + 2) / 3 * 4);
    for chunk in data.chunks(3) {
        let n = (chunk[0] as u32) << 16 | (*chunk.get(1).unwrap_or(&0) as u32) << 8 | *chunk.get(2).unwrap_or(&0) as u32;
        let emit = chunk.len() + 1;
        for k in 0..4 {
            if k < emit {
                out.push(abc[(n >> (18 - 6 * k) & 63) as usize] as char);
            } else if pad {
                out.push('=');
            }
        }
    }
    out
}

fn sextet(c: char, url_safe: bool) -> Option<u32> {
    Some(match c {
        'A'..='Z' => c as u32 - 'A' as u32,
        'a'..='z' => c as u32 - 'a' as u32 + 26,
        '0'..='9' => c as u32 - '0' as u32 + 52,
        '+' if !url_safe => 62,
        '/' if !url_safe => 63,
        '-' if url_safe => 62,
        '_' if url_safe => 63,
        _ => return None,
    })
}

pub fn decode(text: &str, url_safe: bool) -> Result<Vec<u8>, String> {
    let mut vals: Vec<u32> = Vec::with_capacity(text.len());
    let mut pads = 0;
    for (pos, c) in text.chars().enumerate() {
        if c.is_ascii_whitespace() {
            continue;
        }
        if c == '=' {
            pads += 1;
            if pads > 2 {
                return Err(format!("invalid padding at position {}: more than two '='", pos + 1));
            }
            continue;
        }
        if pads > 0 {
            return Err(format!("invalid character '{}' at position {}: nothing may follow the '=' padding", c, pos + 1));
        }
        match sextet(c, url_safe) {
            Some(v) => vals.push(v),
            None => {
                let hint = match (c, url_safe) {
                    ('-' | '_', false) => " (this looks like URL-safe base64; use the URL-safe alphabet)",
                    ('+' | '/', true) => " (this looks like standard base64; do not use the URL-safe alphabet)",
                    _ => "",
                };
                return Err(format!("invalid base64 character '{}' at position {}{}", c, pos + 1, hint));
            }
        }
    }
    if vals.len() % 4 == 1 {
        return Err(format!("invalid base64 length: {} base64 characters cannot encode whole bytes (one is missing or extra)", vals.len()));
    }
    if pads > 0 && (vals.len() + pads) % 4 != 0 {
        return Err("invalid padding: the '=' count does not match the length".into());
    }
    let mut out = Vec::with_capacity(vals.len() * 3 / 4);
    for chunk in vals.chunks(4) {
        let mut n = 0u32;
        for (k, v) in chunk.iter().enumerate() {
            n |= v << (18 - 6 * k);
        }
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend_from_slice(&bytes[..chunk.len() - 1]);
    }
    Ok(out)
}
