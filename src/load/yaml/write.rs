//! Writing YAML, the other half of the YAML module: a JSON document as commented YAML (what
//! `ddbcost import` writes), keys and values quoted wherever plain text would read back
//! differently, comments kept on their line, and a check that what was written reads back as
//! the document. `init`'s template quotes its values with `name`.

use std::collections::HashMap;

use serde_json::Value;

/// Comments to write beside fields, by path: the keys joined with `SEP` (a table's name may
/// hold dots).
pub(crate) type Comments = Vec<(String, String)>;

/// Joins the keys of a comment's path.
pub(crate) const SEP: &str = "\u{1f}";

/// A scalar as YAML: plain where that reads back as the same text, else double-quoted.
#[must_use]
pub(crate) fn scalar(text: &str) -> String {
    let plain = !text.is_empty()
        && text.chars().all(|c| {
            c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '/' | '@' | '%' | ' ' | ':')
        })
        && !text.starts_with([' ', '-', ':', '@', '%'])
        && !text.ends_with([' ', ':'])
        && !text.contains(": ")
        && !matches!(
            text.to_ascii_lowercase().as_str(),
            "true" | "false" | "null" | "~" | "yes" | "no" | "on" | "off"
        );
    if plain {
        text.to_string()
    } else {
        serde_json::to_string(text).unwrap_or_else(|_| "\"\"".into())
    }
}

fn inline(v: &Value) -> Option<String> {
    match v {
        Value::Null => Some("~".into()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Number(n) => Some(n.to_string()),
        Value::String(s) => Some(scalar(s)),
        Value::Array(a) if a.iter().all(|x| !x.is_object() && !x.is_array()) => Some(format!(
            "[{}]",
            a.iter().filter_map(inline).collect::<Vec<_>>().join(", ")
        )),
        Value::Object(m) if m.is_empty() => Some("{}".into()),
        _ => None,
    }
}

/// Text for a YAML comment: on one line whatever it holds. A template's logical id or a
/// note may carry a newline, and a comment that ends early would turn the rest of its text
/// into YAML; control characters and Unicode line separators are written escaped.
#[must_use]
pub(crate) fn comment_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push(' '),
            c if c.is_control() || matches!(c, '\u{2028}' | '\u{2029}' | '\u{feff}') => {
                out.push_str(&format!("\\u{{{:04x}}}", u32::from(c)));
            }
            c => out.push(c),
        }
    }
    out
}

/// `doc` as YAML with `comments` beside the fields they name, after a `header` of comment
/// lines. Keys and values go through `scalar` (quoted wherever plain text would read back
/// differently), comments through `comment_text`; `reads_back` checks the result.
#[must_use]
pub(crate) fn to_yaml(doc: &Value, comments: &Comments, header: &[String]) -> String {
    let mut out = String::new();
    for h in header {
        out.push_str(&format!("# {}\n", comment_text(h)));
    }
    let comments: HashMap<&str, &str> = comments
        .iter()
        .rev()
        .map(|(p, c)| (p.as_str(), c.as_str()))
        .collect();
    write_map(doc, "", 0, &comments, &mut out);
    out
}

/// Whether `yaml` (what `to_yaml` wrote) reads back as `doc`: the same keys, and scalars of
/// the same text (a count written `5` reads back as a number). A difference is ddbcost's bug;
/// the caller refuses to write such a document.
///
/// # Errors
/// The path of the first difference.
pub(crate) fn reads_back(doc: &Value, yaml: &Value) -> Result<(), String> {
    fn same(a: &Value, b: &Value, path: &str) -> Result<(), String> {
        match (a, b) {
            (Value::Object(x), Value::Object(y)) => {
                if x.len() != y.len() || x.keys().zip(y.keys()).any(|(p, q)| p != q) {
                    return Err(format!("the keys of `{path}`"));
                }
                for (k, v) in x {
                    same(v, &y[k], &format!("{path}.{k}"))?;
                }
                Ok(())
            }
            (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
                for (i, (p, q)) in x.iter().zip(y).enumerate() {
                    same(p, q, &format!("{path}[{i}]"))?;
                }
                Ok(())
            }
            (Value::String(x), Value::Number(y)) | (Value::Number(y), Value::String(x))
                if *x == y.to_string() =>
            {
                Ok(())
            }
            (x, y) if x == y => Ok(()),
            _ => Err(format!("the value of `{path}`")),
        }
    }
    same(doc, yaml, "")
}

fn write_map(
    v: &Value,
    path: &str,
    indent: usize,
    comments: &HashMap<&str, &str>,
    out: &mut String,
) {
    let Value::Object(m) = v else { return };
    for (k, child) in m {
        let p = if path.is_empty() {
            k.clone()
        } else {
            format!("{path}{SEP}{k}")
        };
        let comment = comments
            .get(p.as_str())
            .map(|c| format!("   # {}", comment_text(c)))
            .unwrap_or_default();
        let pad = " ".repeat(indent);
        match inline(child) {
            Some(text) => out.push_str(&format!("{pad}{}: {text}{comment}\n", scalar(k))),
            None => {
                out.push_str(&format!("{pad}{}:{comment}\n", scalar(k)));
                match child {
                    Value::Array(items) => {
                        for item in items {
                            out.push_str(&format!("{pad}  -\n"));
                            write_map(item, &p, indent.saturating_add(4), comments, out);
                        }
                    }
                    _ => write_map(child, &p, indent.saturating_add(2), comments, out),
                }
            }
        }
    }
}

/// A name or identifier as YAML for a template (`init`'s): plain only when it starts with a
/// letter or `_` and holds letters, digits, `_`, `.` and `-` and is no YAML 1.1 boolean or
/// null; else double-quoted, so that no reader takes it for a number or a flag.
#[must_use]
pub(crate) fn name(value: &str) -> String {
    let plain = value
        .bytes()
        .next()
        .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
        && value
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
        && !matches!(
            value.to_ascii_lowercase().as_str(),
            "true" | "false" | "null" | "yes" | "no" | "on" | "off" | "y" | "n"
        );
    if plain {
        value.to_string()
    } else {
        serde_json::to_string(value).unwrap_or_else(|_| value.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scalars_read_back_as_written() {
        assert_eq!(scalar("orders"), "orders");
        assert_eq!(scalar("70%"), "70%");
        assert_eq!(scalar("true"), "\"true\"");
        assert_eq!(scalar("a: b"), "\"a: b\"");
        assert_eq!(scalar("-x"), "\"-x\"");
        assert_eq!(scalar("#x"), "\"#x\"");
        assert_eq!(scalar(""), "\"\"");
        assert_eq!(scalar("a\nb: 1"), "\"a\\nb: 1\"");
    }

    #[test]
    fn names_are_quoted_unless_plainly_names() {
        assert_eq!(name("orders"), "orders");
        assert_eq!(name("2024"), "\"2024\"");
        assert_eq!(name("yes"), "\"yes\"");
        assert_eq!(name("a b"), "\"a b\"");
    }

    #[test]
    fn a_comment_stays_on_its_line() {
        assert_eq!(comment_text("Orders\nname: x"), "Orders\\nname: x");
        assert_eq!(comment_text("a\u{2028}b\u{85}c"), "a\\u{2028}b\\u{0085}c");
    }
}
