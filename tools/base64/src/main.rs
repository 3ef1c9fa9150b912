//! base64: encode or decode base64, standard or URL-safe, padded or not, from
//! text or a file in the working folder.

use moat_tool::{b64, files, Arg, Command, Json, Matches, Opt, Output};

fn encode_cmd() -> Command {
    Command::new("encode", "", "Encode text or a file as base64")
        .long_about("Encodes the TEXT argument (its UTF-8 bytes) or the bytes of --file, a file in the working folder.")
        .arg(Arg::optional("TEXT", "The text to encode"))
        .opt(Opt::value("file", "PATH", "Encode this file in the working folder instead of TEXT").short('f'))
        .opt(Opt::flag("url-safe", "Use the URL-safe alphabet (- and _ instead of + and /)"))
        .opt(Opt::flag("no-padding", "Leave out the trailing '=' padding"))
        .keywords(&["base64", "encode"])
        .permission("read")
}

fn decode_cmd() -> Command {
    Command::new("decode", "", "Decode base64 to text or to a file")
        .long_about(
            "Decodes base64 given as TEXT or read from --file. Whitespace and line breaks are ignored;\n\
             padding is optional. The result must be UTF-8 text unless --output names a file in the\n\
             working folder to write the decoded bytes to.",
        )
        .arg(Arg::optional("TEXT", "The base64 to decode"))
        .opt(Opt::value("file", "PATH", "Read the base64 from this file in the working folder").short('f'))
        .opt(Opt::value("output", "PATH", "Write the decoded bytes to this file in the working folder").short('o'))
        .opt(Opt::flag("url-safe", "Use the URL-safe alphabet (- and _ instead of + and /)"))
        .keywords(&["base64", "decode"])
        .permission("write")
}

fn command() -> Command {
    Command::new("base64", env!("CARGO_PKG_VERSION"), "Encode or decode base64.")
        .long_about("Standard (RFC 4648 §4) and URL-safe (§5) alphabets, with or without padding.")
        .subcommand(encode_cmd())
        .subcommand(decode_cmd())
        .keywords(&["base64", "encode", "decode", "binary"])
        .permission("write")
}

fn input(m: &Matches) -> Result<Vec<u8>, String> {
    match (m.get("TEXT"), m.get("file")) {
        (Some(_), Some(_)) => Err("give either TEXT or --file, not both".into()),
        (None, None) => Err("no input: give TEXT or --file <path>".into()),
        (Some(t), None) => Ok(t.as_bytes().to_vec()),
        (None, Some(p)) => files::read_file(p),
    }
}

fn encode(m: &Matches) -> Result<Output, String> {
    let data = input(m)?;
    let text = b64::encode(&data, m.flag("url-safe"), !m.flag("no-padding"));
    Ok(Output::new(text).meta("bytes", Json::int(data.len() as i64)))
}

fn decode(m: &Matches) -> Result<Output, String> {
    let raw = input(m)?;
    let text = String::from_utf8(raw).map_err(|_| "the base64 input is not text (it contains non-UTF-8 bytes)".to_string())?;
    let bytes = b64::decode(&text, m.flag("url-safe"))?;
    if let Some(path) = m.get("output") {
        files::write_file(path, &bytes)?;
        return Ok(Output::new(format!("wrote {} bytes to {}", bytes.len(), path))
            .meta("bytes", Json::int(bytes.len() as i64))
            .meta("output", Json::str(path)));
    }
    let n = bytes.len();
    let decoded = String::from_utf8(bytes)
        .map_err(|_| format!("the decoded data is binary ({} bytes), not UTF-8 text; pass --output <path> to write it to a file", n))?;
    Ok(Output::new(decoded).meta("bytes", Json::int(n as i64)))
}

fn execute(m: &Matches) -> Result<Output, String> {
    match &m.subcommand {
        Some((name, sub)) if name == "encode" => encode(sub),
        Some((_, sub)) => decode(sub),
        None => Err("a subcommand is required: encode or decode".into()),
    }
}

fn main() {
    moat_tool::run(command(), execute)
}
