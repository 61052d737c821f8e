//! The only module that parses YAML (with serde-saphyr, which is pure Rust and enforces input
//! budgets against alias bombs and deep nesting). It turns parser and type errors into our
//! `Error`: file, path inside the document, line and column, and a "did you mean" for
//! unknown fields and values.

use serde::de::DeserializeOwned;

use super::suggest;
use crate::error::Error;

/// A scalar with the position it was written at.
pub type Spanned<T> = serde_saphyr::Spanned<T>;

/// 1-based (line, column) of a spanned value.
pub fn position<T>(value: &Spanned<T>) -> Option<(u64, u64)> {
    let loc = value.referenced;
    (loc.line() > 0).then(|| (loc.line(), loc.column()))
}

/// Deserializes `text` (the contents of `file`) into `T`, rejecting unknown fields.
///
/// # Errors
/// Malformed YAML, a value of the wrong type, an unknown field or value.
pub fn parse<T: DeserializeOwned>(text: &str, file: &str) -> Result<T, Error> {
    let mut path = None;
    // Workloads and price tables are small: a tight budget stops alias bombs and deep
    // nesting early, in little memory.
    let options = serde_saphyr::options! {
        budget: serde_saphyr::budget! {
            max_nodes: 50_000,
            max_aliases: 1_000,
            max_depth: 48,
            max_total_scalar_bytes: 16 * 1024 * 1024,
            max_recorded_anchor_bytes: 1024 * 1024,
        },
    };
    let result = serde_saphyr::with_deserializer_from_str_with_options(text, options, |de| {
        serde_path_to_error::deserialize::<_, T>(de).map_err(|e| {
            path = Some(e.path().to_string());
            e.into_inner()
        })
    });
    result.map_err(|e| {
        let position = e.location().map(|l| (l.line(), l.column()));
        let raw = e.without_snippet().to_string();
        let message = strip_position(&raw);
        let mut err = Error::input(message.clone())
            .file(file)
            .at(position)
            .quoting(text);
        if let Some(p) = path.filter(|p| p != "." && !p.is_empty()) {
            // `Spanned` wraps scalars in a `value` field of its own; users never wrote it.
            let p = p.strip_suffix(".value").unwrap_or(&p).to_string();
            err = err.path(p);
        }
        err.help(help_for(&message))
    })
}

/// serde-saphyr prefixes "error: line L column C: "; we print the position ourselves.
/// It may also end the message with " at line L, column C".
fn strip_position(raw: &str) -> String {
    let first = raw.lines().next().unwrap_or(raw);
    let first = first.strip_prefix("error: ").unwrap_or(first);
    let first = match first.find(": ") {
        Some(i) if first.starts_with("line ") => first.get(i.saturating_add(2)..).unwrap_or(first),
        _ => first,
    };
    let first = match first.rfind(" at line ") {
        Some(i) if first[i..].contains(", column ") => &first[..i],
        _ => first,
    };
    // "set DuplicateKeyPolicy in Options" speaks to programmers, not to users.
    first.replace(", set DuplicateKeyPolicy in Options if acceptable", "")
}

/// A suggestion for the common mistakes: a misspelt field or value.
fn help_for(message: &str) -> String {
    for what in ["field", "variant"] {
        let prefix = format!("unknown {what} `");
        if let Some(rest) = message.strip_prefix(&prefix) {
            let (name, rest) = rest.split_once('`').unwrap_or((rest, ""));
            let candidates: Vec<&str> = rest
                .split_once("expected one of ")
                .or_else(|| rest.split_once("expected "))
                .map(|(_, list)| {
                    list.split(", ")
                        .map(|c| c.trim_matches(|ch: char| ch == '`' || ch.is_whitespace()))
                        .filter(|c| !c.is_empty())
                        .collect()
                })
                .unwrap_or_default();
            let noun = if what == "field" { "field" } else { "value" };
            return match suggest::closest(name, candidates.iter().copied()) {
                Some(c) => format!(
                    "Consider `{c}` (did you mean it?); unknown {noun}s are refused so that a typo cannot silently cost zero."
                ),
                None => format!(
                    "Consider one of the allowed {noun}s; the README's workload reference lists them."
                ),
            };
        }
    }
    if message.starts_with("budget breached") {
        return "Consider a smaller document: ddbcost refuses YAML that expands past 50,000 nodes, 1,000 aliases or 48 levels (a guard against alias bombs and runaway nesting).".to_string();
    }
    if message.starts_with("duplicate mapping key") {
        return "Consider giving each entry a distinct name: a repeated key would silently replace the first.".to_string();
    }
    "Consider checking the value against the README's workload reference.".to_string()
}

/// Parses `text` into an untyped document (for merge patches). Integers stay exact; decimal
/// numbers pass through `f64` and are written back in their shortest form, which is their
/// original text for up to 15 significant digits.
///
/// # Errors
/// Malformed YAML.
pub fn parse_value(text: &str, file: &str) -> Result<serde_json::Value, Error> {
    parse(text, file)
}
