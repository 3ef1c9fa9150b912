//! The `--at` instant: Unix seconds (`1700000000`, `-86400.5`) or an RFC 3339
//! timestamp (`2024-03-10T02:30:00Z`, `2024-03-10 02:30:00.25+01:00`), or a
//! bare date meaning midnight UTC.

use crate::civil::{days_from_civil, days_in_month, SECS_PER_DAY};

fn digits(s: &str, at: usize, n: usize) -> Option<i64> {
    let part = s.get(at..at + n)?;
    if part.bytes().all(|b| b.is_ascii_digit()) {
        part.parse().ok()
    } else {
        None
    }
}

/// Seconds and nanoseconds from a "123.456" style string.
fn unix(s: &str) -> Option<(i64, u32)> {
    let (neg, body) = match s.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, s),
    };
    let (int, frac) = body.split_once('.').unwrap_or((body, ""));
    if int.is_empty() || !int.bytes().all(|b| b.is_ascii_digit()) || !frac.bytes().all(|b| b.is_ascii_digit()) || frac.len() > 9 {
        return None;
    }
    let secs: i64 = int.parse().ok()?;
    let nanos: u32 = if frac.is_empty() { 0 } else { format!("{:0<9}", frac).parse().ok()? };
    if !neg {
        return Some((secs, nanos));
    }
    // -1.25 is 1.25 s before the epoch: seconds -2, nanos 750000000.
    if nanos == 0 {
        Some((-secs, 0))
    } else {
        Some((-secs - 1, 1_000_000_000 - nanos))
    }
}

pub fn parse(s: &str) -> Result<(i64, u32), String> {
    let s = s.trim();
    if let Some(v) = unix(s) {
        return Ok(v);
    }
    let bad = || {
        format!("invalid --at value '{}': give Unix seconds or an RFC 3339 time with an offset, e.g. 2024-03-10T02:30:00Z", s)
    };
    let (y, mo, d) = (digits(s, 0, 4).ok_or_else(bad)?, digits(s, 5, 2).ok_or_else(bad)?, digits(s, 8, 2).ok_or_else(bad)?);
    if s.as_bytes()[4] != b'-' || s.as_bytes()[7] != b'-' || !(1..=12).contains(&mo) || d < 1 || d > days_in_month(y, mo as u32) as i64 {
        return Err(bad());
    }
    let day_secs = days_from_civil(y, mo as u32, d as u32) * SECS_PER_DAY;
    if s.len() == 10 {
        return Ok((day_secs, 0));
    }
    if !matches!(s.as_bytes()[10], b'T' | b't' | b' ') {
        return Err(bad());
    }
    let (h, mi) = (digits(s, 11, 2).ok_or_else(bad)?, digits(s, 14, 2).ok_or_else(bad)?);
    let mut i = 16;
    let mut sec = 0;
    if s.as_bytes().get(i) == Some(&b':') {
        sec = digits(s, 17, 2).ok_or_else(bad)?;
        i = 19;
    }
    let mut nanos = 0u32;
    if s.as_bytes().get(i) == Some(&b'.') {
        let start = i + 1;
        i = start;
        while s.as_bytes().get(i).map_or(false, |b| b.is_ascii_digit()) {
            i += 1;
        }
        let frac = &s[start..i];
        if frac.is_empty() || frac.len() > 9 {
            return Err(bad());
        }
        nanos = format!("{:0<9}", frac).parse().map_err(|_| bad())?;
    }
    if h > 23 || mi > 59 || sec > 60 {
        return Err(bad());
    }
    let offset = match &s[i..] {
        "Z" | "z" => 0,
        rest if rest.len() == 6 && (rest.starts_with('+') || rest.starts_with('-')) && rest.get(3..4) == Some(":") => {
            let oh = digits(rest, 1, 2).ok_or_else(bad)?;
            let om = digits(rest, 4, 2).ok_or_else(bad)?;
            let v = oh * 3600 + om * 60;
            if rest.starts_with('-') {
                -v
            } else {
                v
            }
        }
        "" => return Err(format!("the --at time '{}' has no offset: add Z for UTC or +hh:mm", s)),
        _ => return Err(bad()),
    };
    // A leap second (:60) is read as the following second, as POSIX time does.
    Ok((day_secs + h * 3600 + mi * 60 + sec - offset, nanos))
}
