//! current_time: the current (or a given) time in any IANA time zone.

mod at;
mod civil;
mod posix_tz;
mod strftime;
mod tzif;
mod zone;

use civil::DateTime;
use moat_tool::{Command, Json, Matches, Opt, Output};
use std::time::{SystemTime, UNIX_EPOCH};

fn command() -> Command {
    Command::new("current_time", env!("CARGO_PKG_VERSION"), "Get the current date and time in any time zone.")
        .long_about(
            "Prints the current time (or the --at instant) in an IANA time zone, using the system's\n\
             zone database, so daylight saving time is applied correctly. Formats: iso8601\n\
             (2024-03-10T03:30:00-04:00), rfc3339 (with milliseconds, Z for UTC), rfc2822\n\
             (Sun, 10 Mar 2024 03:30:00 -0400), unix (seconds), or a strftime pattern such as\n\
             \"%A %-d %B %Y, %H:%M %Z\".",
        )
        .opt(Opt::value("timezone", "ZONE", "IANA time zone, e.g. Europe/Berlin or America/New_York").short('z').default("UTC"))
        .opt(Opt::value("format", "FORMAT", "iso8601, rfc3339, rfc2822, unix or a strftime pattern").short('f').default("iso8601"))
        .opt(Opt::value("at", "TIME", "Show this instant instead of now: Unix seconds or an RFC 3339 time"))
        .keywords(&["time", "date", "clock", "timezone", "now"])
        .permission("none")
}

fn render(t: &DateTime, format: &str) -> Result<String, String> {
    match format {
        "iso8601" | "iso" => Ok(strftime::format(t, "%Y-%m-%dT%H:%M:%S")? + &strftime::offset_exact(t.offset)),
        // RFC 3339 offsets have no seconds: a local mean time offset (+00:19:32) is written as the same instant in UTC.
        "rfc3339" if t.offset % 60 != 0 => Ok(strftime::format(&DateTime::new(t.unix, t.nanos, 0, "UTC", false), "%Y-%m-%dT%H:%M:%S.%L")? + "Z"),
        "rfc3339" => Ok(strftime::format(t, "%Y-%m-%dT%H:%M:%S.%L")? + &if t.offset == 0 { "Z".to_string() } else { strftime::offset(t.offset, true) }),
        "rfc2822" => strftime::format(t, "%a, %d %b %Y %H:%M:%S %z"),
        "unix" => Ok(t.unix.to_string()),
        f if f.contains('%') => strftime::format(t, f),
        f => Err(format!(
            "unknown format '{}': use iso8601, rfc3339, rfc2822, unix or a strftime pattern such as %Y-%m-%d %H:%M",
            f
        )),
    }
}

fn execute(m: &Matches) -> Result<Output, String> {
    let zone = zone::resolve(m.get("timezone").unwrap_or("UTC"))?;
    let (secs, nanos) = match m.get("at") {
        Some(s) => at::parse(s)?,
        None => {
            // WASI clock_time_get(realtime) underneath.
            let d = SystemTime::now().duration_since(UNIX_EPOCH).map_err(|_| "the system clock is before 1970")?;
            (d.as_secs() as i64, d.subsec_nanos())
        }
    };
    let (offset, abbrev, is_dst) = zone.lookup(secs);
    let t = DateTime::new(secs, nanos, offset, &abbrev, is_dst);
    let text = render(&t, m.get("format").unwrap_or("iso8601"))?;
    Ok(Output::new(text)
        .meta("timezone", Json::str(zone.name()))
        .meta("abbreviation", Json::str(&t.abbrev))
        .meta("utc_offset", Json::str(&strftime::offset_exact(offset)))
        .meta("utc_offset_seconds", Json::int(offset))
        .meta("is_dst", Json::Bool(t.is_dst))
        .meta("unix", Json::int(secs))
        .meta("iso8601", Json::str(&render(&t, "iso8601")?)))
}

fn main() {
    moat_tool::run(command(), execute)
}
