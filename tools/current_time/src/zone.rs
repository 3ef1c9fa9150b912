//! Finding a zone's TZif file. Under moat the database is a read-only grant
//! mounted at /zoneinfo and the tool sees nothing else; natively, `TZDIR`
//! (the variable glibc uses) points elsewhere, e.g. /usr/share/zoneinfo.

use crate::tzif::Zone;

const DEFAULT_DIR: &str = "/zoneinfo";

pub enum Resolved {
    /// UTC without a database: always available.
    Utc,
    File(String, Zone),
}

fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name.split('/').all(|c| {
            !c.is_empty() && c != "." && c != ".." && c.chars().all(|ch| ch.is_ascii_alphanumeric() || "_+-".contains(ch))
        })
}

/// Matches `america/new_york` to `America/New_York` one component at a time.
fn case_insensitive(dir: &str, name: &str) -> Option<String> {
    let mut path = dir.to_string();
    let mut found = Vec::new();
    for comp in name.split('/') {
        let entry = std::fs::read_dir(&path).ok()?.filter_map(|e| e.ok()).find(|e| e.file_name().to_string_lossy().eq_ignore_ascii_case(comp))?;
        let real = entry.file_name().to_string_lossy().into_owned();
        path = format!("{}/{}", path, real);
        found.push(real);
    }
    Some(found.join("/"))
}

pub fn resolve(name: &str) -> Result<Resolved, String> {
    let name = name.trim();
    if !valid_name(name) {
        return Err(format!("invalid time zone name '{}': use an IANA name such as Europe/Berlin or UTC", name));
    }
    let dir = std::env::var("TZDIR").unwrap_or_else(|_| DEFAULT_DIR.to_string());
    let is_utc = ["UTC", "Etc/UTC", "Z", "Zulu", "Etc/Zulu", "GMT", "Etc/GMT"].contains(&name);
    // Names are case-sensitive, as in the IANA database: a near miss is an error that names the real zone.
    let canonical = match std::fs::metadata(format!("{}/{}", dir, name)) {
        Ok(m) if m.is_file() => Some(name.to_string()),
        _ => match case_insensitive(&dir, name) {
            Some(real) => return Err(format!("unknown time zone '{}' (names are case-sensitive): did you mean {}?", name, real)),
            None => None,
        },
    };
    match canonical {
        Some(n) => {
            let data = std::fs::read(format!("{}/{}", dir, n)).map_err(|e| format!("cannot read the zone file for {}: {}", n, e))?;
            let zone = Zone::parse(&data).map_err(|e| format!("{}: {}", n, e))?;
            Ok(Resolved::File(n, zone))
        }
        None if is_utc => Ok(Resolved::Utc),
        None if std::fs::metadata(&dir).is_err() => {
            Err(format!("the time zone database is not available (no {}), so only UTC works", dir))
        }
        None => Err(format!("unknown time zone '{}': use an IANA name such as America/New_York, Europe/Berlin or UTC", name)),
    }
}

impl Resolved {
    pub fn name(&self) -> &str {
        match self {
            Resolved::Utc => "UTC",
            Resolved::File(n, _) => n,
        }
    }
    pub fn lookup(&self, t: i64) -> (i64, String, bool) {
        match self {
            Resolved::Utc => (0, "UTC".into(), false),
            Resolved::File(_, z) => z.lookup(t),
        }
    }
}
