//! Serverless Framework: `serverless.yml`'s `resources.Resources` is CloudFormation. Its
//! variables are resolved where they are literals in the same file — `${self:path}`,
//! `${opt:name, 'default'}` (or `--parameter name=value`), `${sls:stage}` — and anything
//! else (`${env:…}`, `${ssm:…}`, `${file(…)}`) is reported where it is used.

use serde_json::Value;

use super::budget::Budget;
use super::{Note, Options, cloudformation};
use crate::error::Error;
use crate::load::yaml;

/// Imports the tables of `serverless.yml` (`text`, read from `file`).
///
/// # Errors
/// Malformed YAML, or a file without `resources.Resources`.
pub(crate) fn import(
    text: &str,
    file: &str,
    options: &Options,
    out: &mut super::Imported,
) -> Result<(), Error> {
    let t = yaml::parse_template(text, file)?;
    let Some(resources) = t.value.get("resources").cloned() else {
        return Err(Error::input("`serverless.yml` has no `resources` (the CloudFormation it adds)")
            .file(file)
            .help("Consider a `resources: { Resources: … }` block with the tables, or `--from cloudformation`."));
    };
    let resolver = Resolver {
        doc: &t.value,
        options,
        budget: Budget::new(),
        notes: std::cell::RefCell::default(),
    };
    let resolved = resolver.resolve(&resources);
    let region = options.region.clone().or_else(|| {
        match resolver.resolve(t.value.pointer("/provider/region").unwrap_or(&Value::Null)) {
            Value::String(s) => Some(s),
            _ => None,
        }
    });
    let options = Options {
        region,
        ..options.clone()
    };
    for message in resolver.notes.into_inner() {
        out.notes.push(Note {
            file: file.to_string(),
            line: None,
            path: "provider.stage".into(),
            message,
        });
    }
    cloudformation::import_doc(&resolved, file, &t.lines, &options, "resources", out);
    Ok(())
}

/// Resolves Serverless variables against the file itself, within a budget (a `${self:}`
/// that reaches itself is a cycle; one that fans out stops at the step budget).
struct Resolver<'a> {
    doc: &'a Value,
    options: &'a Options,
    budget: Budget,
    /// What was assumed (the default stage), said once each.
    notes: std::cell::RefCell<Vec<String>>,
}

fn unresolved(why: String) -> Value {
    let mut marker = serde_json::Map::new();
    marker.insert("ddbcost::Unresolved".to_string(), Value::String(why));
    Value::Object(marker)
}

fn is_unresolved(v: &Value) -> bool {
    v.get("ddbcost::Unresolved").is_some()
}

impl Resolver<'_> {
    /// `v` with every Serverless variable replaced by its literal value, or by an unresolved
    /// marker that the CloudFormation reader reports where the value is used.
    fn resolve(&self, v: &Value) -> Value {
        let _level = match self.budget.step() {
            Ok(level) => level,
            Err(why) => return unresolved(why),
        };
        match v {
            Value::String(s) if s.contains("${") => self.text(s),
            Value::Array(a) => Value::Array(a.iter().map(|x| self.resolve(x)).collect()),
            Value::Object(m) => Value::Object(
                m.iter()
                    .map(|(k, x)| (k.clone(), self.resolve(x)))
                    .collect(),
            ),
            other => other.clone(),
        }
    }

    /// A string with variables: each `${…}` resolved, the result kept within the text budget.
    fn text(&self, s: &str) -> Value {
        let mut out = String::new();
        let mut rest = s;
        while let Some(start) = rest.find("${") {
            out.push_str(&rest[..start]);
            let after = &rest[start.saturating_add(2)..];
            let Some(end) = closing(after) else {
                return unresolved(format!("`{s}` has an unclosed `${{`"));
            };
            match self.variable(after[..end].trim()) {
                Ok(v) => out.push_str(&v),
                Err(marker) => return marker,
            }
            rest = &after[end.saturating_add(1)..];
        }
        out.push_str(rest);
        match self.budget.text(out) {
            Ok(text) => Value::String(text),
            Err(why) => unresolved(why),
        }
    }

    /// One variable with its fallbacks (`${opt:stage, self:provider.stage, 'dev'}`): each
    /// source in turn, a quoted literal as it is, a bare one as a source.
    fn variable(&self, var: &str) -> Result<String, Value> {
        let sources = split_sources(var);
        for (i, source) in sources.iter().enumerate() {
            let source = source.trim();
            if let Some(literal) = quoted(source) {
                return Ok(literal.to_string());
            }
            // A bare fallback that names no source (`10`, `dev`) is its own value.
            if i > 0 && !source.is_empty() && !source.contains([':', '(']) {
                return Ok(source.to_string());
            }
            if let Some(v) = self.source(source)? {
                return Ok(v);
            }
        }
        let only = sources.len() == 1;
        Err(unresolved(format!(
            "Serverless variable `${{{var}}}` {} (give `opt:` values with `--parameter NAME=VALUE`)",
            if only {
                "is not a literal in this file"
            } else {
                "has no source that is a literal in this file"
            }
        )))
    }

    /// A source's value, `None` when it has none here (the next fallback is tried), an
    /// unresolved marker when it cannot be read at all.
    fn source(&self, source: &str) -> Result<Option<String>, Value> {
        if let Some(path) = source.strip_prefix("self:") {
            let pointer = format!("/{}", path.replace('.', "/"));
            let Some(v) = self.doc.pointer(&pointer) else {
                return Ok(None);
            };
            let _level = self
                .budget
                .enter(&format!("${{self:{path}}}"))
                .map_err(unresolved)?;
            return match self.resolve(v) {
                Value::String(t) => Ok(Some(t)),
                m if is_unresolved(&m) => Err(m),
                other => Ok(Some(other.to_string())),
            };
        }
        if let Some(name) = source.strip_prefix("opt:") {
            return Ok(self.parameter(name));
        }
        if source == "sls:stage" {
            if let Some(stage) = self.parameter("stage") {
                return Ok(Some(stage));
            }
            if let Some(v) = self.doc.pointer("/provider/stage") {
                let _level = self
                    .budget
                    .enter("${self:provider.stage}")
                    .map_err(unresolved)?;
                return match self.resolve(v) {
                    Value::String(s) => Ok(Some(s)),
                    m if is_unresolved(&m) => Err(m),
                    other => Ok(Some(other.to_string())),
                };
            }
            // The Framework's own default, said rather than assumed silently.
            let mut notes = self.notes.borrow_mut();
            let note = "no stage given (`--parameter stage=NAME`) or set (`provider.stage`): the Serverless Framework's default `dev` is used".to_string();
            if !notes.contains(&note) {
                notes.push(note);
            }
            return Ok(Some("dev".into()));
        }
        Err(unresolved(format!(
            "Serverless variable source `{source}` is read only at deployment (give `opt:` values with `--parameter NAME=VALUE`)"
        )))
    }

    fn parameter(&self, name: &str) -> Option<String> {
        self.options
            .parameters
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
    }
}

/// The end of a variable: the `}` that closes it, past nested `${…}`.
fn closing(after: &str) -> Option<usize> {
    let mut depth = 0usize;
    let bytes = after.as_bytes();
    for (i, b) in bytes.iter().enumerate() {
        match b {
            b'{' => depth = depth.saturating_add(1),
            b'}' if depth == 0 => return Some(i),
            b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

/// A variable's comma-separated sources, commas inside quotes kept.
fn split_sources(var: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut quote = None;
    let mut from = 0;
    for (i, c) in var.char_indices() {
        match (quote, c) {
            (None, '\'' | '"') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, ',') => {
                out.push(&var[from..i]);
                from = i.saturating_add(1);
            }
            _ => {}
        }
    }
    out.push(&var[from..]);
    out
}

/// The text of a quoted literal (`'dev'`, `"dev"`).
fn quoted(source: &str) -> Option<&str> {
    ['\'', '"']
        .iter()
        .find_map(|q| source.strip_prefix(*q).and_then(|s| s.strip_suffix(*q)))
}
