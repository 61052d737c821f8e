//! The only module that parses YAML (with serde-saphyr, which is pure Rust and enforces input
//! budgets against alias bombs and deep nesting). It turns parser and type errors into our
//! `Error`: file, path inside the document, line and column, and a "did you mean" for
//! unknown fields and values.

use serde::de::DeserializeOwned;

use super::suggest;
use crate::error::Error;

/// The node budget of a small document (larger ones get one node per byte).
const MIN_NODE_BUDGET: usize = 50_000;

/// A scalar with the position it was written at.
pub type Spanned<T> = serde_saphyr::Spanned<T>;

/// 1-based (line, column) of a spanned value.
pub fn position<T>(value: &Spanned<T>) -> Option<(u64, u64)> {
    let loc = value.referenced;
    (loc.line() > 0).then(|| (loc.line(), loc.column()))
}

/// The text a spanned node was written as in `source` (where it is defined: an alias points
/// back to its anchor), trimmed. `None` when the span has no byte offsets.
pub fn source_text<'a, T>(value: &Spanned<T>, source: &'a str) -> Option<&'a str> {
    let span = value.defined.span();
    let at = usize::try_from(span.byte_offset()?).ok()?;
    let len = usize::try_from(span.byte_len()?).ok()?;
    let text = source.get(at..at.checked_add(len)?)?.trim();
    (!text.is_empty()).then_some(text)
}

/// Deserializes `text` (the contents of `file`) into `T`, rejecting unknown fields.
///
/// # Errors
/// Malformed YAML, a value of the wrong type, an unknown field or value.
pub fn parse<T: DeserializeOwned>(text: &str, file: &str) -> Result<T, Error> {
    let mut path = None;
    // A budget that scales with the input: an honest document has at most about one node per
    // byte it is written in (a node takes at least a character and a separator), so a
    // 1,000-table workload passes, while an alias bomb — many nodes out of few bytes — is
    // stopped after as many nodes as its text has bytes, early and in little memory.
    let max_nodes = text.len().max(MIN_NODE_BUDGET);
    let options = serde_saphyr::options! {
        // YAML 1.2 booleans only (`true`/`false`): `on`, `yes` or `no` are text, so a scenario
        // named `on` or a country code `NO` is never read as a boolean.
        strict_booleans: true,
        budget: serde_saphyr::budget! {
            max_nodes: max_nodes,
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
        return "Consider a document without runaway aliases or nesting: ddbcost refuses YAML that expands to more nodes than it has bytes (at least 50,000), uses more than 1,000 aliases, or nests deeper than 48 levels (a guard against alias bombs).".to_string();
    }
    if message.starts_with("duplicate mapping key") {
        return "Consider giving each entry a distinct name: a repeated key would silently replace the first.".to_string();
    }
    "Consider checking the value against the README's workload reference.".to_string()
}

/// Parses `text` into an untyped document (for merge patches) without ever reading a number:
/// each number keeps the text it was written as (`1234.5678901234567891` stays those 23
/// characters, as a JSON string), so a scenario's document holds exactly what the workload
/// file says and the typed loader reads every number from its text, as it does for the
/// baseline. Booleans, nulls and strings keep their YAML meaning.
///
/// # Errors
/// Malformed YAML, or a number whose text cannot be located in the input.
pub fn parse_value(text: &str, file: &str) -> Result<serde_json::Value, Error> {
    let node: Spanned<Node> = parse(text, file)?;
    to_value(node, text).map_err(|why| {
        Error::input(why)
            .file(file)
            .help("Consider quoting the number (`\"1.5\"`): quantities are read from their text.")
    })
}

/// An untyped YAML node whose numbers are only located, never converted.
#[derive(Debug)]
enum Node {
    Null,
    Bool(bool),
    Number,
    Text(String),
    Seq(Vec<Spanned<Node>>),
    Map(Vec<(String, Spanned<Node>)>),
}

/// The JSON value of `node`: numbers become the text `source` has at their span.
fn to_value(node: Spanned<Node>, source: &str) -> Result<serde_json::Value, String> {
    use serde_json::Value;
    Ok(match node.value {
        Node::Null => Value::Null,
        Node::Bool(b) => Value::Bool(b),
        Node::Text(t) => Value::String(t),
        Node::Number => {
            let raw = source_text(&node, source).ok_or_else(|| {
                format!(
                    "the number at line {} cannot be read from its text",
                    node.defined.line()
                )
            })?;
            Value::String(raw.to_string())
        }
        Node::Seq(items) => Value::Array(
            items
                .into_iter()
                .map(|n| to_value(n, source))
                .collect::<Result<_, _>>()?,
        ),
        Node::Map(entries) => {
            let mut map = serde_json::Map::with_capacity(entries.len());
            for (k, v) in entries {
                map.insert(k, to_value(v, source)?);
            }
            Value::Object(map)
        }
    })
}

impl<'de> serde::Deserialize<'de> for Node {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(NodeVisitor)
    }
}

struct NodeVisitor;

impl<'de> serde::de::Visitor<'de> for NodeVisitor {
    type Value = Node;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a YAML value")
    }
    fn visit_unit<E>(self) -> Result<Node, E> {
        Ok(Node::Null)
    }
    fn visit_none<E>(self) -> Result<Node, E> {
        Ok(Node::Null)
    }
    fn visit_some<D: serde::Deserializer<'de>>(self, d: D) -> Result<Node, D::Error> {
        serde::Deserialize::deserialize(d)
    }
    fn visit_bool<E>(self, b: bool) -> Result<Node, E> {
        Ok(Node::Bool(b))
    }
    // Numbers: the value is dropped unread; `to_value` takes the text at the node's span.
    fn visit_i64<E>(self, _: i64) -> Result<Node, E> {
        Ok(Node::Number)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Node, E> {
        Ok(Node::Number)
    }
    fn visit_i128<E>(self, _: i128) -> Result<Node, E> {
        Ok(Node::Number)
    }
    fn visit_u128<E>(self, _: u128) -> Result<Node, E> {
        Ok(Node::Number)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Node, E> {
        Ok(Node::Number)
    }
    fn visit_str<E>(self, v: &str) -> Result<Node, E> {
        Ok(Node::Text(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<Node, E> {
        Ok(Node::Text(v))
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Node, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<Spanned<Node>>()? {
            items.push(item);
        }
        Ok(Node::Seq(items))
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Node, A::Error> {
        let mut entries = Vec::new();
        while let Some(key) = map.next_key::<Key>()? {
            entries.push((key.0, map.next_value::<Spanned<Node>>()?));
        }
        Ok(Node::Map(entries))
    }
}

/// A mapping key as text, whatever YAML would type it as (`2024:` names a table too).
struct Key(String);

impl<'de> serde::Deserialize<'de> for Key {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let key: Spanned<String> = serde::Deserialize::deserialize(d)?;
        Ok(Key(key.value))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_keep_their_text() {
        let doc = parse_value(
            "a: 1234.5678901234567891\nb: [1e3, -0.000000000000000000000000001, 7e28]\nc: { d: 12, e: '3.5', f: true, g: ~ }\nh: &x 0.1\ni: *x\n2024: 5\n",
            "t.yaml",
        )
        .expect("valid YAML");
        assert_eq!(
            doc,
            json!({
                "a": "1234.5678901234567891",
                "b": ["1e3", "-0.000000000000000000000000001", "7e28"],
                "c": {"d": "12", "e": "3.5", "f": true, "g": null},
                "h": "0.1",
                "i": "0.1",
                "2024": "5",
            })
        );
    }
}
