//! POSIX TZ strings, as found in the footer of TZif v2+ files, e.g.
//! `CET-1CEST,M3.5.0,M10.5.0/3` or `<+0330>-3:30`. They give the rule for
//! every instant after the file's last transition (RFC 8536 §3.3).

use crate::civil::{days_from_civil, days_in_month, is_leap, weekday, SECS_PER_DAY};

#[derive(Clone, Debug, PartialEq)]
enum Date {
    /// Jn: day 1..=365, February 29 never counted.
    Julian1(u32),
    /// n: day 0..=365, counting February 29.
    Julian0(u32),
    /// Mm.w.d: weekday d (0 = Sunday) of week w (5 = last) of month m.
    Month(u32, u32, u32),
}

#[derive(Clone, Debug, PartialEq)]
struct Rule {
    date: Date,
    /// Local time of the change, in seconds; RFC 8536 allows -167h..167h.
    time: i64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct PosixTz {
    pub std_abbr: String,
    /// Seconds east of UTC (the POSIX sign is inverted: CET-1 is +3600).
    pub std_off: i64,
    dst: Option<(String, i64, Rule, Rule)>,
}

struct P<'a> {
    s: &'a [u8],
    i: usize,
}

impl<'a> P<'a> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }
    fn num(&mut self) -> Option<i64> {
        let start = self.i;
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.i += 1;
        }
        std::str::from_utf8(&self.s[start..self.i]).ok()?.parse().ok()
    }
    fn name(&mut self) -> Option<String> {
        let start;
        let end;
        if self.peek() == Some(b'<') {
            start = self.i + 1;
            while self.peek()? != b'>' {
                self.i += 1;
            }
            end = self.i;
            self.i += 1;
        } else {
            start = self.i;
            while matches!(self.peek(), Some(c) if c.is_ascii_alphabetic()) {
                self.i += 1;
            }
            end = self.i;
        }
        if end - start < 3 {
            return None;
        }
        Some(String::from_utf8_lossy(&self.s[start..end]).into_owned())
    }
    /// [+-]hh[:mm[:ss]] in seconds.
    fn hms(&mut self) -> Option<i64> {
        let sign = match self.peek() {
            Some(b'-') => {
                self.i += 1;
                -1
            }
            Some(b'+') => {
                self.i += 1;
                1
            }
            _ => 1,
        };
        let mut total = self.num()? * 3600;
        for mult in [60, 1] {
            if self.peek() != Some(b':') {
                break;
            }
            self.i += 1;
            total += self.num()? * mult;
        }
        Some(sign * total)
    }
    fn rule(&mut self) -> Option<Rule> {
        let date = match self.peek()? {
            b'J' => {
                self.i += 1;
                Date::Julian1(self.num()? as u32)
            }
            b'M' => {
                self.i += 1;
                let m = self.num()? as u32;
                self.expect(b'.')?;
                let w = self.num()? as u32;
                self.expect(b'.')?;
                let d = self.num()? as u32;
                if !(1..=12).contains(&m) || !(1..=5).contains(&w) || d > 6 {
                    return None;
                }
                Date::Month(m, w, d)
            }
            _ => Date::Julian0(self.num()? as u32),
        };
        let time = if self.peek() == Some(b'/') {
            self.i += 1;
            self.hms()?
        } else {
            7200
        };
        Some(Rule { date, time })
    }
    fn expect(&mut self, c: u8) -> Option<()> {
        if self.peek() == Some(c) {
            self.i += 1;
            Some(())
        } else {
            None
        }
    }
}

impl PosixTz {
    pub fn parse(s: &str) -> Option<PosixTz> {
        let mut p = P { s: s.as_bytes(), i: 0 };
        let std_abbr = p.name()?;
        let std_off = -p.hms()?;
        let mut tz = PosixTz { std_abbr, std_off, dst: None };
        if p.peek().is_none() {
            return Some(tz);
        }
        let dst_abbr = p.name()?;
        let dst_off = if matches!(p.peek(), Some(b',') | None) { std_off + 3600 } else { -p.hms()? };
        let (start, end) = if p.peek() == Some(b',') {
            p.i += 1;
            let a = p.rule()?;
            p.expect(b',')?;
            (a, p.rule()?)
        } else {
            // No rule given: POSIX leaves it to the implementation; the US rule is the usual default.
            (Rule { date: Date::Month(3, 2, 0), time: 7200 }, Rule { date: Date::Month(11, 1, 0), time: 7200 })
        };
        if p.peek().is_some() {
            return None;
        }
        tz.dst = Some((dst_abbr, dst_off, start, end));
        Some(tz)
    }

    /// (offset, abbreviation, is_dst) at a Unix time.
    pub fn lookup(&self, t: i64) -> (i64, String, bool) {
        let (dst_abbr, dst_off, start, end) = match &self.dst {
            None => return (self.std_off, self.std_abbr.clone(), false),
            Some(d) => d,
        };
        let year = crate::civil::civil_from_days((t + self.std_off).div_euclid(SECS_PER_DAY)).0;
        // The start is given in standard local time, the end in daylight local time.
        let s = rule_local_secs(start, year) - self.std_off;
        let e = rule_local_secs(end, year) - dst_off;
        let in_dst = if s < e { t >= s && t < e } else { !(t >= e && t < s) };
        if in_dst {
            (*dst_off, dst_abbr.clone(), true)
        } else {
            (self.std_off, self.std_abbr.clone(), false)
        }
    }
}

/// Local seconds since the epoch at which a rule fires in `year`.
fn rule_local_secs(r: &Rule, year: i64) -> i64 {
    let jan1 = days_from_civil(year, 1, 1);
    let day = match r.date {
        Date::Julian1(n) => {
            let n = n as i64 - 1;
            jan1 + n + if is_leap(year) && n >= 59 { 1 } else { 0 }
        }
        Date::Julian0(n) => jan1 + n as i64,
        Date::Month(m, w, d) => {
            let first = days_from_civil(year, m, 1);
            let first_match = first + ((d as i64 - weekday(first) as i64).rem_euclid(7));
            let mut day = first_match + 7 * (w as i64 - 1);
            let last = first + days_in_month(year, m) as i64 - 1;
            while day > last {
                day -= 7;
            }
            day
        }
    };
    day * SECS_PER_DAY + r.time
}
