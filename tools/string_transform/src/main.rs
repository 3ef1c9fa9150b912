//! string_transform: case, trimming, reversal, length, slugs and word counts,
//! all by Unicode characters rather than bytes.

mod clusters;
mod unicode_tables;
mod slug;

use moat_tool::{Arg, Command, Json, Matches, Opt, Output};

const OPERATIONS: &[&str] = &["upper", "lower", "trim", "trim_start", "trim_end", "reverse", "length", "slugify", "word_count"];

fn command() -> Command {
    Command::new("string_transform", env!("CARGO_PKG_VERSION"), "Transform or measure a string.")
        .long_about(
            "upper and lower change case by Unicode rules (ß becomes SS). trim, trim_start and trim_end\n\
             remove Unicode whitespace. reverse reverses user-perceived characters (extended grapheme\n\
             clusters, Unicode UAX #29, Unicode 17), so accents, Hangul syllables, Indic conjuncts and\n\
             emoji sequences stay whole. length counts Unicode characters (code points), not bytes; the\n\
             metadata also gives bytes and user-perceived characters. slugify makes a lowercase URL slug:\n\
             the same for composed and decomposed input, accents dropped from Latin, Greek and Cyrillic\n\
             letters, other scripts kept. word_count counts whitespace-separated words.",
        )
        .arg(Arg::required("OPERATION", "What to do with the text").possible(OPERATIONS))
        .arg(Arg::required("TEXT", "The text to transform"))
        .opt(Opt::value("separator", "SEP", "Separator between words for slugify").default("-"))
        .keywords(&["string", "text", "case", "slug", "length", "unicode"])
        .permission("none")
}

fn execute(m: &Matches) -> Result<Output, String> {
    let op = m.get("OPERATION").unwrap_or("");
    let text = m.get("TEXT").unwrap_or("");
    let chars = text.chars().count();
    let result = match op {
        "upper" => text.to_uppercase(),
        "lower" => text.to_lowercase(),
        "trim" => text.trim().to_string(),
        "trim_start" => text.trim_start().to_string(),
        "trim_end" => text.trim_end().to_string(),
        "reverse" => clusters::clusters(text).into_iter().rev().collect(),
        "length" => chars.to_string(),
        "slugify" => slug::slugify(text, m.get("separator").unwrap_or("-")),
        "word_count" => text.split_whitespace().count().to_string(),
        other => return Err(format!("unknown operation '{}'; use one of {}", other, OPERATIONS.join(", "))),
    };
    let mut out = Output::new(result).meta("operation", Json::str(op));
    match op {
        "length" => {
            out = out
                .meta("chars", Json::int(chars as i64))
                .meta("bytes", Json::int(text.len() as i64))
                .meta("graphemes", Json::int(clusters::clusters(text).len() as i64))
                .meta("unicode", Json::str(unicode_tables::UNICODE_VERSION));
        }
        "word_count" => {
            out = out
                .meta("words", Json::int(text.split_whitespace().count() as i64))
                .meta("lines", Json::int(text.lines().count() as i64))
                .meta("chars", Json::int(chars as i64));
        }
        _ => out = out.meta("input_chars", Json::int(chars as i64)),
    }
    Ok(out)
}

fn main() {
    moat_tool::run(command(), execute)
}
