//! Imported tables as a workload document: what the template states becomes workload fields;
//! what only usage can tell (items, item sizes, key sizes, rates) is written as `TODO`, which
//! the loader records as a placeholder. The document is a JSON value (so a usage file merges
//! onto it like a scenario's patch) and is written as commented YAML.

use std::collections::HashMap;

use serde_json::{Map, Value, json};

use super::{Billing, Dim, Imported, Projection, TableDef};
use crate::load::PLACEHOLDER;

/// Comments to write beside fields, by path: the keys joined with `SEP` (a table's name may
/// hold dots).
pub type Comments = Vec<(String, String)>;

/// Joins the keys of a comment's path.
pub const SEP: &str = "\u{1f}";

/// The workload document of `imported`, named `name`, priced with `prices`, and the comments
/// that explain each placeholder.
#[must_use]
pub fn document(imported: &Imported, name: &str, prices: Option<&str>) -> (Value, Comments) {
    let mut comments = Comments::new();
    let mut tables = Map::new();
    for t in &imported.tables {
        tables.insert(t.name.clone(), table(t, &mut comments));
    }
    let mut doc = Map::new();
    doc.insert("name".into(), json!(name));
    if let Some(p) = prices {
        doc.insert("prices".into(), json!(p));
    }
    doc.insert("tables".into(), Value::Object(tables));
    (Value::Object(doc), comments)
}

fn key(k: &(String, Option<String>)) -> Value {
    let mut m = Map::new();
    m.insert("partition".into(), json!(k.0));
    if let Some(s) = &k.1 {
        m.insert("sort".into(), json!(s));
    }
    Value::Object(m)
}

/// `rcu`/`wcu` or auto scaling bounds for one dimension, into `capacity` and `auto_scaling`.
fn dimension(
    dim: Option<&Dim>,
    (unit, path): (&str, &str),
    capacity: &mut Map<String, Value>,
    scaling: &mut Map<String, Value>,
    comments: &mut Comments,
) {
    match dim {
        Some(Dim::Unresolved(why)) => {
            capacity.insert(unit.into(), json!(PLACEHOLDER));
            comments.push((format!("{path}{SEP}{unit}"), format!("not resolved: {why}")));
        }
        Some(Dim::Fixed(units)) => {
            capacity.insert(unit.into(), json!(units));
        }
        Some(Dim::Auto { min, max, target }) => {
            scaling.insert(format!("min_{unit}"), json!(min));
            scaling.insert(format!("max_{unit}"), json!(max));
            if let Some(t) = target {
                scaling.insert(format!("target_{unit}"), json!(format!("{t}%")));
            }
        }
        None => {}
    }
}

fn table(t: &TableDef, comments: &mut Comments) -> Value {
    let path = format!("tables{SEP}{}", t.name);
    let mut m = Map::new();
    comments.push((path.clone(), t.origin.clone()));
    if let Some(r) = &t.region {
        m.insert("region".into(), json!(r));
    }
    if let Some(k) = &t.key {
        m.insert("key".into(), key(k));
    }
    if !t.attributes.is_empty() {
        let attrs: Map<String, Value> = t
            .attributes
            .iter()
            .map(|(n, ty)| (n.clone(), json!(ty)))
            .collect();
        m.insert("attributes".into(), Value::Object(attrs));
    }
    if t.standard_ia {
        m.insert("class".into(), json!("standard-ia"));
    }
    let capacity = capacity(t, &path, comments);
    m.insert("capacity".into(), Value::Object(capacity));
    m.insert("items".into(), json!(PLACEHOLDER));
    comments.push((format!("{path}{SEP}items"), "items stored".into()));
    m.insert("item_size".into(), json!(PLACEHOLDER));
    comments.push((
        format!("{path}{SEP}item_size"),
        "average item size (`ddbcost size` measures a sample)".into(),
    ));
    if t.indexes
        .iter()
        .any(|i| !matches!(i.projection, Projection::All))
    {
        m.insert("key_size".into(), json!(PLACEHOLDER));
        comments.push((
            format!("{path}{SEP}key_size"),
            "bytes of the key attributes (names + values), for KEYS_ONLY and INCLUDE entries"
                .into(),
        ));
    }
    if t.pitr {
        m.insert("pitr".into(), json!(true));
    }
    if let Some(view) = &t.stream_view {
        m.insert("stream".into(), json!({ "view": view, "consumers": {} }));
        comments.push((
            format!("{path}{SEP}stream{SEP}consumers"),
            "who reads the stream: `{ kind: lambda }` or `{ kind: reader, records_per_call: N }`"
                .into(),
        ));
    }
    if t.kinesis {
        m.insert("kinesis_cdc".into(), json!(true));
    }
    if let Some(a) = &t.ttl_attribute {
        m.insert("ttl_attribute".into(), json!(a));
    }
    if !t.replicas.is_empty() {
        m.insert("replicas".into(), json!(t.replicas));
    }
    if let Some(source) = &t.import_from_s3 {
        m.insert("backups".into(), json!({ "import_per_month": PLACEHOLDER }));
        comments.push((
            format!("{path}{SEP}backups{SEP}import_per_month"),
            format!("created by importing from S3 ({source}): the data's size"),
        ));
    }
    if !t.indexes.is_empty() {
        let indexes = t
            .indexes
            .iter()
            .map(|i| (i.name.clone(), index(i, &path, comments)));
        m.insert("indexes".into(), Value::Object(indexes.collect()));
    }
    // Not `{}`: a table with no patterns has no requests, while these are only unknown yet.
    m.insert("patterns".into(), json!(PLACEHOLDER));
    comments.push((
        format!("{path}{SEP}patterns"),
        "the access patterns (op, rate, consistency…), or `--usage`; until then requests depend on usage".into(),
    ));
    Value::Object(m)
}

/// A table's `capacity`: its mode, on-demand caps, or provisioned units and auto scaling
/// (`TODO` for a dimension the template does not state).
fn capacity(t: &TableDef, path: &str, comments: &mut Comments) -> Map<String, Value> {
    let mut capacity = Map::new();
    match &t.billing {
        Billing::OnDemand {
            max_read,
            max_write,
        } => {
            capacity.insert("mode".into(), json!("on-demand"));
            if let Some(r) = max_read {
                capacity.insert("max_read_units".into(), json!(r));
            }
            if let Some(w) = max_write {
                capacity.insert("max_write_units".into(), json!(w));
            }
        }
        Billing::Provisioned { read, write } => {
            capacity.insert("mode".into(), json!("provisioned"));
            let mut scaling = Map::new();
            let cpath = format!("{path}{SEP}capacity");
            let (at, out) = (&mut capacity, &mut scaling);
            dimension(read.as_ref(), ("rcu", &cpath), at, out, comments);
            dimension(write.as_ref(), ("wcu", &cpath), at, out, comments);
            if read.is_none() {
                capacity.insert("rcu".into(), json!(PLACEHOLDER));
                comments.push((
                    format!("{path}{SEP}capacity{SEP}rcu"),
                    "the template states no read capacity".into(),
                ));
            }
            if write.is_none() {
                capacity.insert("wcu".into(), json!(PLACEHOLDER));
                comments.push((
                    format!("{path}{SEP}capacity{SEP}wcu"),
                    "the template states no write capacity".into(),
                ));
            }
            if !scaling.is_empty() {
                capacity.insert("auto_scaling".into(), Value::Object(scaling));
                comments.push((
                    format!("{path}{SEP}capacity{SEP}auto_scaling"),
                    "priced at its minimum until patterns give it traffic".into(),
                ));
            }
        }
    }
    capacity
}

/// An index: its type, key, projection (with `TODO` sizes it needs) and own capacity.
fn index(i: &super::IndexDef, path: &str, comments: &mut Comments) -> Value {
    let ipath = format!("{path}{SEP}indexes{SEP}{}", i.name);
    let mut x = Map::new();
    x.insert("type".into(), json!(if i.global { "gsi" } else { "lsi" }));
    if let Some(k) = &i.key {
        x.insert("key".into(), key(k));
    }
    match &i.projection {
        Projection::KeysOnly => {
            x.insert("projection".into(), json!("keys-only"));
        }
        Projection::All => {
            x.insert("projection".into(), json!("all"));
        }
        Projection::Include(attrs) => {
            x.insert("projection".into(), json!("include"));
            x.insert("include".into(), json!(attrs));
            x.insert("projected_size".into(), json!(PLACEHOLDER));
            comments.push((
                format!("{ipath}{SEP}projected_size"),
                "bytes of the included attributes".into(),
            ));
        }
    }
    if !matches!(i.projection, Projection::All) {
        x.insert("key_size".into(), json!(PLACEHOLDER));
        comments.push((
            format!("{ipath}{SEP}key_size"),
            "bytes of the index's key attributes".into(),
        ));
    }
    let mut capacity = Map::new();
    let mut scaling = Map::new();
    let (at, out) = (&mut capacity, &mut scaling);
    dimension(i.read.as_ref(), ("rcu", &ipath), at, out, comments);
    dimension(i.write.as_ref(), ("wcu", &ipath), at, out, comments);
    x.extend(capacity);
    if !scaling.is_empty() {
        x.insert("auto_scaling".into(), Value::Object(scaling));
    }
    Value::Object(x)
}

/// A scalar as YAML: plain where that reads back as the same text, else double-quoted.
fn scalar(text: &str) -> String {
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
pub fn comment_text(text: &str) -> String {
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
pub fn to_yaml(doc: &Value, comments: &Comments, header: &[String]) -> String {
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
pub fn reads_back(doc: &Value, yaml: &Value) -> Result<(), String> {
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
    fn a_comment_stays_on_its_line() {
        assert_eq!(comment_text("Orders\nname: x"), "Orders\\nname: x");
        assert_eq!(comment_text("a\u{2028}b\u{85}c"), "a\\u{2028}b\\u{0085}c");
    }
}
