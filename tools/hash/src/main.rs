//! hash: SHA-256, SHA-1 or MD5 of text or of a file in the working folder.

mod digest;
mod md5;
mod sha1;
mod sha256;

use digest::{Compress, Hasher};
use moat_tool::{Arg, Command, Json, Matches, Opt, Output};
use std::io::Read;

fn algorithm(name: &'static str, about: &'static str) -> Command {
    Command::new(name, "", about)
        .long_about(
            "Hashes the TEXT argument (as UTF-8, exactly as given: no trailing newline is added) or the\n\
             contents of --file, a file in the working folder. The digest is printed in lowercase hex\n\
             or in base64.",
        )
        .arg(Arg::optional("TEXT", "The text to hash"))
        .opt(Opt::value("file", "PATH", "Hash this file in the working folder instead of TEXT").short('f'))
        .opt(Opt::value("encoding", "ENCODING", "How to print the digest").default("hex").possible(&["hex", "base64"]))
        .keywords(&["hash", "digest", "checksum", name])
        .permission("read")
}

fn command() -> Command {
    Command::new("hash", env!("CARGO_PKG_VERSION"), "Compute a cryptographic hash of text or a file.")
        .long_about("SHA-256 is the default choice. SHA-1 and MD5 are broken for security and are only for matching existing checksums.")
        .subcommand(algorithm("sha256", "SHA-256 digest of text or a file"))
        .subcommand(algorithm("sha1", "SHA-1 digest of text or a file (legacy checksums only)"))
        .subcommand(algorithm("md5", "MD5 digest of text or a file (legacy checksums only)"))
        .keywords(&["hash", "digest", "checksum", "sha256", "sha1", "md5"])
        .permission("read")
}

/// Feeds text or a file through the hasher; files are streamed, so their
/// size is not limited by the sandbox's memory cap.
fn digest<C: Compress>(state: C, m: &Matches) -> Result<(Vec<u8>, u64), String> {
    let mut h = Hasher::new(state);
    match (m.get("TEXT"), m.get("file")) {
        (Some(_), Some(_)) => Err("give either TEXT or --file, not both".into()),
        (None, None) => Err("nothing to hash: give TEXT or --file <path>".into()),
        (Some(t), None) => {
            h.update(t.as_bytes());
            Ok((h.finish(), t.len() as u64))
        }
        (None, Some(path)) => {
            let meta = std::fs::metadata(path).map_err(|e| moat_tool::files::describe(path, e))?;
            if meta.is_dir() {
                return Err(format!("{} is a folder, not a file", path));
            }
            let mut f = std::fs::File::open(path).map_err(|e| moat_tool::files::describe(path, e))?;
            let mut buf = vec![0u8; 64 * 1024];
            let mut total = 0u64;
            loop {
                let n = f.read(&mut buf).map_err(|e| format!("cannot read {}: {}", path, e))?;
                if n == 0 {
                    break;
                }
                total += n as u64;
                h.update(&buf[..n]);
            }
            Ok((h.finish(), total))
        }
    }
}

fn execute(m: &Matches) -> Result<Output, String> {
    let (name, sub) = m.subcommand.as_ref().ok_or("a subcommand is required: sha256, sha1 or md5")?;
    let (bytes, len) = match name.as_str() {
        "sha256" => digest(sha256::Sha256::new(), sub)?,
        "sha1" => digest(sha1::Sha1::new(), sub)?,
        "md5" => digest(md5::Md5::new(), sub)?,
        other => return Err(format!("unknown algorithm '{}'", other)),
    };
    let text = if sub.get("encoding") == Some("base64") {
        moat_tool::b64::encode(&bytes, false, true)
    } else {
        bytes.iter().map(|b| format!("{:02x}", b)).collect()
    };
    Ok(Output::new(text)
        .meta("algorithm", Json::str(name))
        .meta("bytes", Json::int(len as i64))
        .meta("source", Json::str(if sub.get("file").is_some() { "file" } else { "text" })))
}

fn main() {
    moat_tool::run(command(), execute)
}
