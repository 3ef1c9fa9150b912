//! strftime formatting, with the GNU `-` flag (`%-d` drops padding) and the
//! common extensions `%:z`, `%s`, `%f` (microseconds), `%L` (milliseconds)
//! and `%N` (nanoseconds).

use crate::civil::{days_from_civil, weekday, DateTime};

const DAYS: [&str; 7] = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const MONTHS: [&str; 12] =
    ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/// `+hhmm` / `+hh:mm`. Local mean time offsets with seconds (+05:21:10) are
/// truncated to minutes, as GNU date does; the metadata has the exact seconds.
pub fn offset(secs: i64, colon: bool) -> String {
    let sign = if secs < 0 { '-' } else { '+' };
    let a = secs.abs();
    format!("{}{:02}{}{:02}", sign, a / 3600, if colon { ":" } else { "" }, a / 60 % 60)
}

/// `+hh:mm`, with `:ss` when the offset has seconds (local mean time before
/// standard time), as ISO 8601 output must carry the exact offset for the
/// printed local time to name the true instant (Python's isoformat does the same).
pub fn offset_exact(secs: i64) -> String {
    let s = offset(secs, true);
    if secs % 60 == 0 {
        s
    } else {
        format!("{}:{:02}", s, secs.abs() % 60)
    }
}

/// RFC 9557: "-00" is the designation for "local time unknown", written -0000.
fn zone_offset(t: &DateTime, colon: bool) -> String {
    let s = offset(t.offset, colon);
    if t.offset == 0 && t.abbrev == "-00" {
        s.replacen('+', "-", 1)
    } else {
        s
    }
}

/// ISO 8601 week-based year and week number.
fn iso_week(t: &DateTime) -> (i64, u32) {
    let wd = (t.weekday + 6) % 7; // Monday = 0
    let week = (t.yday as i64 - wd as i64 + 9) / 7;
    if week < 1 {
        let prev = t.year - 1;
        let dec31 = days_from_civil(prev, 12, 31);
        let prev_yday = dec31 - days_from_civil(prev, 1, 1) + 1;
        let prev_wd = (weekday(dec31) + 6) % 7;
        return (prev, ((prev_yday - prev_wd as i64 + 9) / 7) as u32);
    }
    let days_in_year = days_from_civil(t.year + 1, 1, 1) - days_from_civil(t.year, 1, 1);
    if week == 53 && (t.yday as i64 - wd as i64) > days_in_year - 3 {
        return (t.year + 1, 1);
    }
    (t.year, week as u32)
}

pub fn format(t: &DateTime, pattern: &str) -> Result<String, String> {
    let mut out = String::new();
    let mut cs = pattern.chars().peekable();
    while let Some(c) = cs.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let mut pad = true;
        if cs.peek() == Some(&'-') {
            cs.next();
            pad = false;
        }
        let num = |n: i64, width: usize| if pad { format!("{:0w$}", n, w = width) } else { n.to_string() };
        let spec = cs.next().ok_or("the format ends with a lone '%'")?;
        let hour12 = if t.hour % 12 == 0 { 12 } else { t.hour % 12 };
        let piece = match spec {
            'Y' => t.year.to_string(),
            'C' => num(t.year.div_euclid(100), 2),
            'y' => num(t.year.rem_euclid(100), 2),
            'm' => num(t.month as i64, 2),
            'd' => num(t.day as i64, 2),
            'e' => if pad { format!("{:2}", t.day) } else { t.day.to_string() },
            'H' => num(t.hour as i64, 2),
            'I' => num(hour12 as i64, 2),
            'M' => num(t.minute as i64, 2),
            'S' => num(t.second as i64, 2),
            'f' => format!("{:06}", t.nanos / 1000),
            'L' => format!("{:03}", t.nanos / 1_000_000),
            'N' => format!("{:09}", t.nanos),
            'p' => (if t.hour < 12 { "AM" } else { "PM" }).to_string(),
            'P' => (if t.hour < 12 { "am" } else { "pm" }).to_string(),
            'j' => num(t.yday as i64, 3),
            'a' => DAYS[t.weekday as usize][..3].to_string(),
            'A' => DAYS[t.weekday as usize].to_string(),
            'b' | 'h' => MONTHS[t.month as usize - 1][..3].to_string(),
            'B' => MONTHS[t.month as usize - 1].to_string(),
            'u' => (if t.weekday == 0 { 7 } else { t.weekday }).to_string(),
            'w' => t.weekday.to_string(),
            'U' => num(((t.yday + 6 - t.weekday) / 7) as i64, 2),
            'W' => num(((t.yday + 6 - (t.weekday + 6) % 7) / 7) as i64, 2),
            'G' => iso_week(t).0.to_string(),
            'V' => num(iso_week(t).1 as i64, 2),
            'Z' => t.abbrev.clone(),
            'z' => zone_offset(t, false),
            ':' => {
                if cs.next() != Some('z') {
                    return Err("unsupported directive '%:'; only %:z is known".into());
                }
                zone_offset(t, true)
            }
            's' => t.unix.to_string(),
            'F' => format!("{}-{:02}-{:02}", t.year, t.month, t.day),
            'T' => format!("{:02}:{:02}:{:02}", t.hour, t.minute, t.second),
            'R' => format!("{:02}:{:02}", t.hour, t.minute),
            'D' => format!("{:02}/{:02}/{:02}", t.month, t.day, t.year.rem_euclid(100)),
            'r' => format!("{:02}:{:02}:{:02} {}", hour12, t.minute, t.second, if t.hour < 12 { "AM" } else { "PM" }),
            'c' => format!(
                "{} {} {:2} {:02}:{:02}:{:02} {}",
                &DAYS[t.weekday as usize][..3],
                &MONTHS[t.month as usize - 1][..3],
                t.day,
                t.hour,
                t.minute,
                t.second,
                t.year
            ),
            'n' => "\n".into(),
            't' => "\t".into(),
            '%' => "%".into(),
            other => return Err(format!("unsupported strftime directive '%{}'", other)),
        };
        out.push_str(&piece);
    }
    Ok(out)
}
