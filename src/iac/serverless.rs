//! Serverless Framework: `serverless.yml`'s `resources.Resources` is CloudFormation. Its
//! variables are resolved where they are literals in the same file — `${self:path}`,
//! `${opt:name, 'default'}` (or `--parameter name=value`), `${sls:stage}` — and anything
//! else (`${env:…}`, `${ssm:…}`, `${file(…)}`) is reported where it is used.

use serde_json::Value;

use super::{Options, cloudformation};
use crate::error::Error;
use crate::load::yaml;

/// How deep `${self:…}` may refer through other variables.
const MAX_DEPTH: usize = 10;

/// Imports the tables of `serverless.yml` (`text`, read from `file`).
///
/// # Errors
/// Malformed YAML, or a file without `resources.Resources`.
pub fn import(
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
    let resolved = resolve(&resources, &t.value, options, 0);
    let region = options.region.clone().or_else(|| {
        match resolve(
            t.value.pointer("/provider/region").unwrap_or(&Value::Null),
            &t.value,
            options,
            0,
        ) {
            Value::String(s) => Some(s),
            _ => None,
        }
    });
    let options = Options {
        region,
        ..options.clone()
    };
    cloudformation::import_doc(&resolved, file, &t.lines, &options, "resources", out);
    Ok(())
}

/// `v` with every Serverless variable replaced by its literal value, or by an unresolved
/// marker that the CloudFormation reader reports where the value is used.
fn resolve(v: &Value, doc: &Value, options: &Options, depth: usize) -> Value {
    match v {
        Value::String(s) if s.contains("${") => resolve_text(s, doc, options, depth),
        Value::Array(a) => {
            Value::Array(a.iter().map(|x| resolve(x, doc, options, depth)).collect())
        }
        Value::Object(m) => Value::Object(
            m.iter()
                .map(|(k, x)| (k.clone(), resolve(x, doc, options, depth)))
                .collect(),
        ),
        other => other.clone(),
    }
}

fn unresolved(why: String) -> Value {
    serde_json::json!({ "ddbcost::Unresolved": why })
}

fn resolve_text(s: &str, doc: &Value, options: &Options, depth: usize) -> Value {
    if depth > MAX_DEPTH {
        return unresolved(format!("`{s}` refers to itself"));
    }
    let mut out = String::new();
    let mut rest = s;
    while let Some(start) = rest.find("${") {
        out.push_str(&rest[..start]);
        let after = &rest[start.saturating_add(2)..];
        let Some(end) = after.find('}') else {
            return unresolved(format!("`{s}` has an unclosed `${{`"));
        };
        let var = after[..end].trim();
        let (source, fallback) = match var.split_once(',') {
            Some((v, d)) => (
                v.trim(),
                Some(d.trim().trim_matches(['\'', '"']).to_string()),
            ),
            None => (var, None),
        };
        let value = if let Some(path) = source.strip_prefix("self:") {
            let pointer = format!("/{}", path.replace('.', "/"));
            match doc.pointer(&pointer) {
                Some(v) => match resolve(v, doc, options, depth.saturating_add(1)) {
                    Value::String(t) => Some(t),
                    Value::Object(m) if m.contains_key("ddbcost::Unresolved") => {
                        return Value::Object(m);
                    }
                    other => Some(other.to_string()),
                },
                None => None,
            }
        } else if let Some(name) = source.strip_prefix("opt:") {
            options
                .parameters
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.clone())
        } else if source == "sls:stage" {
            options
                .parameters
                .iter()
                .find(|(n, _)| n == "stage")
                .map(|(_, v)| v.clone())
                .or_else(|| {
                    match resolve(
                        doc.pointer("/provider/stage")?,
                        doc,
                        options,
                        depth.saturating_add(1),
                    ) {
                        Value::String(s) => Some(s),
                        _ => None,
                    }
                })
                .or_else(|| Some("dev".into()))
        } else {
            None
        };
        match value.or(fallback) {
            Some(v) => out.push_str(&v),
            None => {
                return unresolved(format!(
                    "Serverless variable `${{{var}}}` is not a literal in this file (give `opt:` values with `--parameter NAME=VALUE`)"
                ));
            }
        }
        rest = &after[end.saturating_add(1)..];
    }
    out.push_str(rest);
    Value::String(out)
}
