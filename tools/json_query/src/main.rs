//! json_query: run a JSONPath query over JSON given inline or read from a file.

mod ast;
mod categories;
mod eval;
mod filter;
mod iregexp;
mod nfa;
mod path;
mod select;

use moat_tool::{Arg, Command, Json, Matches, Opt, Output};

/// Paths in the metadata are for the UI; past this many, listing them all is noise.
const MAX_PATHS: usize = 100;

fn command() -> Command {
    Command::new("json_query", env!("CARGO_PKG_VERSION"), "Query JSON data with a JSONPath expression.")
        .long_about(
            "Selects values from a JSON document, given inline with --json or read from a file in the\n\
             working folder with --file, with a JSONPath query as RFC 9535 defines it: $ (root), .key and\n\
             ['key'], [n] with negative indexes counting from the end, [*] and .* (all children), ..\n\
             (all descendants), slices [start:end:step], unions [0,2] and ['a','b'], and filters such as\n\
             [?@.price < 10], [?@.isbn] and [?@.tag == 'x' && !(@.n > 3)]. Filters may call length(v),\n\
             count(query), value(query), match(text, regex) (the whole text) and search(text, regex)\n\
             (anywhere in it), with I-Regexp patterns (RFC 9485), e.g. [?match(@.date, '1974-05-..')].\n\
             The result is always a JSON array of the matching values, empty when nothing matches.",
        )
        .arg(Arg::required("QUERY", "The JSONPath expression, e.g. \"$.store.book[?(@.price < 10)].title\""))
        .opt(Opt::value("json", "JSON", "The JSON document, inline"))
        .opt(Opt::value("file", "PATH", "Read the JSON document from this file in the working folder").short('f'))
        .opt(Opt::flag("pretty", "Indent the result"))
        .opt(Opt::flag("first", "Return only the first match instead of an array (null when nothing matches)"))
        .keywords(&["json", "jsonpath", "query", "select", "filter", "data"])
        .permission("read")
}

fn execute(m: &Matches) -> Result<Output, String> {
    let text = match (m.get("json"), m.get("file")) {
        (Some(_), Some(_)) => return Err("give the JSON either inline with --json or as --file, not both".into()),
        (None, None) => return Err("no JSON given: pass --json '<document>' or --file <path>".into()),
        (Some(j), None) => j.to_string(),
        (None, Some(f)) => moat_tool::files::read_text_file(f)?,
    };
    let query_text = m.get("QUERY").unwrap_or("$");
    let query = path::Parser::new(query_text).parse_root()?;
    let doc = moat_tool::parse_json(&text)?;
    let nodes = select::select(&query, &doc, &doc);
    let result = if m.flag("first") {
        nodes.first().map(|n| n.value.clone()).unwrap_or(Json::Null)
    } else {
        Json::Array(nodes.iter().map(|n| n.value.clone()).collect())
    };
    let content = if m.flag("pretty") { result.to_pretty() } else { result.to_compact() };
    let paths: Vec<Json> = nodes.iter().take(MAX_PATHS).map(|n| Json::String(n.path_string())).collect();
    Ok(Output::new(content).meta("count", Json::int(nodes.len() as i64)).meta("paths", Json::Array(paths)))
}

fn main() {
    moat_tool::run(command(), execute)
}
