//! TZif files (RFC 8536), the compiled IANA zone database in
//! /usr/share/zoneinfo. We read the 64-bit (v2+) block when present and the
//! POSIX TZ footer for instants past the last transition. Leap-second records
//! (the "right/" zones) are skipped: times here are POSIX times.

use crate::posix_tz::PosixTz;

#[derive(Clone, Debug)]
struct LocalType {
    offset: i64,
    is_dst: bool,
    abbrev: String,
}

#[derive(Debug)]
pub struct Zone {
    transitions: Vec<i64>,
    /// Index into `types` for each transition.
    idx: Vec<u8>,
    types: Vec<LocalType>,
    footer: Option<PosixTz>,
}

struct Counts {
    isut: usize,
    isstd: usize,
    leap: usize,
    time: usize,
    typ: usize,
    chars: usize,
}

fn be32(b: &[u8]) -> i64 {
    i32::from_be_bytes([b[0], b[1], b[2], b[3]]) as i64
}

fn header(data: &[u8]) -> Result<(u8, Counts), String> {
    if data.len() < 44 || &data[..4] != b"TZif" {
        return Err("not a TZif time zone file".into());
    }
    let c = |k: usize| u32::from_be_bytes([data[20 + 4 * k], data[21 + 4 * k], data[22 + 4 * k], data[23 + 4 * k]]) as usize;
    Ok((data[4], Counts { isut: c(0), isstd: c(1), leap: c(2), time: c(3), typ: c(4), chars: c(5) }))
}

fn block_len(c: &Counts, time_size: usize) -> usize {
    c.time * time_size + c.time + c.typ * 6 + c.chars + c.leap * (time_size + 4) + c.isstd + c.isut
}

impl Zone {
    pub fn parse(data: &[u8]) -> Result<Zone, String> {
        let truncated = || "truncated TZif file".to_string();
        let (version, v1) = header(data)?;
        let mut body = 44;
        let mut counts = v1;
        let mut tsize = 4;
        if version >= b'2' {
            // Skip the 32-bit block; the 64-bit one follows with its own header.
            let second = 44 + block_len(&counts, 4);
            let (_, c2) = header(data.get(second..).ok_or_else(truncated)?)?;
            counts = c2;
            body = second + 44;
            tsize = 8;
        }
        let end = body + block_len(&counts, tsize);
        let b = data.get(body..end).ok_or_else(truncated)?;
        if counts.typ == 0 {
            return Err("TZif file declares no local time types".into());
        }
        let mut p = 0;
        let mut transitions = Vec::with_capacity(counts.time);
        for _ in 0..counts.time {
            let t = if tsize == 8 {
                i64::from_be_bytes([b[p], b[p + 1], b[p + 2], b[p + 3], b[p + 4], b[p + 5], b[p + 6], b[p + 7]])
            } else {
                be32(&b[p..])
            };
            transitions.push(t);
            p += tsize;
        }
        let idx = b[p..p + counts.time].to_vec();
        p += counts.time;
        if idx.iter().any(|&i| i as usize >= counts.typ) {
            return Err("TZif transition refers to a missing local time type".into());
        }
        let chars_at = p + counts.typ * 6;
        let chars = &b[chars_at..chars_at + counts.chars];
        let mut types = Vec::with_capacity(counts.typ);
        for k in 0..counts.typ {
            let r = &b[p + 6 * k..p + 6 * k + 6];
            let start = (r[5] as usize).min(chars.len());
            let len = chars[start..].iter().position(|&c| c == 0).unwrap_or(chars.len() - start);
            types.push(LocalType {
                offset: be32(r),
                is_dst: r[4] != 0,
                abbrev: String::from_utf8_lossy(&chars[start..start + len]).into_owned(),
            });
        }
        let footer = if tsize == 8 {
            let rest = &data[end..];
            let text = String::from_utf8_lossy(rest);
            let line = text.trim_start_matches('\n').split('\n').next().unwrap_or("");
            if line.is_empty() {
                None
            } else {
                Some(PosixTz::parse(line).ok_or_else(|| format!("unsupported TZ rule in TZif footer: {}", line))?)
            }
        } else {
            None
        };
        Ok(Zone { transitions, idx, types, footer })
    }

    /// (offset, abbreviation, is_dst) at a Unix time.
    pub fn lookup(&self, t: i64) -> (i64, String, bool) {
        let at = |i: usize| {
            let ty = &self.types[i];
            (ty.offset, ty.abbrev.clone(), ty.is_dst)
        };
        match self.transitions.last() {
            Some(&last) if t >= last => match &self.footer {
                Some(f) => f.lookup(t),
                None => at(*self.idx.last().unwrap_or(&0) as usize),
            },
            None => match &self.footer {
                Some(f) => f.lookup(t),
                None => at(0),
            },
            // Before the first transition the first local time type applies (RFC 8536 §3.2).
            Some(_) if t < self.transitions[0] => at(0),
            Some(_) => {
                let n = self.transitions.partition_point(|&x| x <= t);
                at(self.idx[n - 1] as usize)
            }
        }
    }
}
