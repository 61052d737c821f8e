//! Terraform plans and state as JSON (`terraform show -json plan.out`, `terraform show -json`):
//! `aws_dynamodb_table` resources in the root module and every child module, each `count` /
//! `for_each` instance on its own, with `aws_appautoscaling_target` + `aws_appautoscaling_policy`
//! attached by resource id and dimension, and `aws_dynamodb_kinesis_streaming_destination`.
//! A value the plan cannot know yet (computed at apply) is absent from `planned_values` and is
//! reported.

use std::collections::HashMap;

use serde_json::Value;

use super::{Billing, Dim, IndexDef, Note, Projection, TableDef, stream_view, whole};
use crate::error::Error;
use crate::load::yaml;

/// A value's text; an empty string (how a plan writes an unset attribute) is none.
fn text(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::String(s) if s.is_empty() => None,
        Value::String(s) => Some(s.clone()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

fn first<'a>(v: &'a Value, field: &str) -> Option<&'a Value> {
    v.get(field)?.as_array()?.first()
}

/// Every managed resource of a module and its children, with its module's address.
fn resources(module: &Value, out: &mut Vec<Value>) {
    if let Some(rs) = module.get("resources").and_then(Value::as_array) {
        out.extend(
            rs.iter()
                .filter(|r| r.get("mode").and_then(Value::as_str) != Some("data"))
                .cloned(),
        );
    }
    if let Some(children) = module.get("child_modules").and_then(Value::as_array) {
        for c in children {
            resources(c, out);
        }
    }
}

/// Imports the plan or state JSON `text` (read from `file`).
///
/// # Errors
/// Malformed JSON, or a document that is neither a plan nor a state.
pub(crate) fn import(source: &str, file: &str, out: &mut super::Imported) -> Result<(), Error> {
    import_plan(&yaml::parse_template(source, file)?.value, file, out)
}

/// Imports a plan or state already parsed (`doc`, read from `file`).
///
/// # Errors
/// A document that is neither a plan nor a state.
pub(crate) fn import_plan(doc: &Value, file: &str, out: &mut super::Imported) -> Result<(), Error> {
    let Some(root) = doc
        .pointer("/planned_values/root_module")
        .or_else(|| doc.pointer("/values/root_module"))
    else {
        return Err(Error::input("not a Terraform plan or state in JSON (no `planned_values` or `values`)")
            .file(file)
            .help("Consider `terraform show -json plan.out > plan.json` (or `terraform show -json` for the state)."));
    };
    let mut all = Vec::new();
    resources(root, &mut all);
    let note = |address: &str, message: String| Note {
        file: file.to_string(),
        line: None,
        path: address.to_string(),
        message,
    };
    // Notes given before (a static reading's) are known to `table`, and kept first.
    let mut notes = std::mem::take(&mut out.notes);
    let mut tables = Vec::new();
    let mut targets: HashMap<(String, String), (String, String)> = HashMap::new();
    let mut policies: HashMap<(String, String), String> = HashMap::new();
    let mut kinesis = Vec::new();
    for r in &all {
        let address = r
            .get("address")
            .and_then(Value::as_str)
            .unwrap_or("?")
            .to_string();
        let v = r.get("values").cloned().unwrap_or(Value::Null);
        match r.get("type").and_then(Value::as_str).unwrap_or("") {
            "aws_dynamodb_table" => tables.push(table(&address, &v, file, &mut notes)),
            "aws_appautoscaling_target" => {
                if text(v.get("service_namespace")).as_deref() != Some("dynamodb") {
                    continue;
                }
                match (
                    text(v.get("resource_id")),
                    text(v.get("scalable_dimension")),
                    text(v.get("min_capacity")),
                    text(v.get("max_capacity")),
                ) {
                    (Some(id), Some(dim), Some(min), Some(max)) => {
                        targets.insert((id, dim), (min, max));
                    }
                    _ => notes.push(note(
                        &address,
                        "its resource id, dimension or bounds are not known until apply; skipped"
                            .into(),
                    )),
                }
            }
            "aws_appautoscaling_policy" => {
                if text(v.get("service_namespace")).as_deref() != Some("dynamodb") {
                    continue;
                }
                let value = first(&v, "target_tracking_scaling_policy_configuration")
                    .and_then(|c| text(c.get("target_value")));
                match (
                    text(v.get("resource_id")),
                    text(v.get("scalable_dimension")),
                    value,
                ) {
                    (Some(id), Some(dim), Some(t)) => {
                        policies.insert((id, dim), t);
                    }
                    _ => notes.push(note(
                        &address,
                        "not a target-tracking policy with known resource id and target; skipped"
                            .into(),
                    )),
                }
            }
            "aws_dynamodb_kinesis_streaming_destination" => match text(v.get("table_name")) {
                Some(t) => kinesis.push(t),
                None => notes.push(note(
                    &address,
                    "its table is not known until apply; skipped".into(),
                )),
            },
            _ => {}
        }
    }
    for ((id, dim), (min, max)) in &targets {
        let target = policies.get(&(id.clone(), dim.clone())).cloned();
        if let Err(why) = super::attach_scaling(&mut tables, id, dim, (min, max), target) {
            notes.push(note(id, why));
        }
    }
    for name in kinesis {
        if let Some(t) = tables.iter_mut().find(|t| t.name == name) {
            t.kinesis = true;
        }
    }
    out.tables.extend(tables);
    out.notes.extend(notes);
    Ok(())
}

/// A provisioned dimension: whole units, or — where the value is not a whole number, or a
/// static reading of `.tf` files could not resolve it and said so in a note (a variable
/// without a default) — unresolved, with the reason.
fn capacity(v: &Value, field: &str, address: &str, notes: &[Note]) -> Option<Dim> {
    let Some(stated) = text(v.get(field)) else {
        let at = format!("{address}.{field}");
        return notes
            .iter()
            .find(|n| n.path == at)
            .map(|n| Dim::Unresolved(n.to_string()));
    };
    match whole(&stated) {
        Some(u) if u == "0" => None,
        Some(u) => Some(Dim::Fixed(u)),
        None => Some(Dim::Unresolved(format!(
            "`{field}` is `{stated}`, which is not a whole number of units"
        ))),
    }
}

fn table(address: &str, v: &Value, file: &str, notes: &mut Vec<Note>) -> TableDef {
    let name = text(v.get("name")).unwrap_or_else(|| {
        notes.push(Note {
            file: file.into(),
            line: None,
            path: address.into(),
            message: "its name is not known until apply: the resource address names it".into(),
        });
        address.to_string()
    });
    let mut t = TableDef::new(
        name,
        address.into(),
        format!("{file} {address} (aws_dynamodb_table)"),
    );
    t.region = text(v.get("region"));
    t.key = text(v.get("hash_key")).map(|h| (h, text(v.get("range_key"))));
    if let Some(attrs) = v.get("attribute").and_then(Value::as_array) {
        for a in attrs {
            if let (Some(n), Some(ty)) = (text(a.get("name")), text(a.get("type"))) {
                t.attributes.push((n, ty));
            }
        }
    }
    t.standard_ia = text(v.get("table_class")).as_deref() == Some("STANDARD_INFREQUENT_ACCESS");
    // The provider's default billing mode is PROVISIONED.
    t.billing = if text(v.get("billing_mode")).as_deref() == Some("PAY_PER_REQUEST") {
        let od = first(v, "on_demand_throughput");
        Billing::OnDemand {
            max_read: od
                .and_then(|o| text(o.get("max_read_request_units")))
                .as_deref()
                .and_then(whole),
            max_write: od
                .and_then(|o| text(o.get("max_write_request_units")))
                .as_deref()
                .and_then(whole),
        }
    } else {
        Billing::Provisioned {
            read: capacity(v, "read_capacity", address, notes),
            write: capacity(v, "write_capacity", address, notes),
        }
    };
    if text(v.get("stream_enabled")).as_deref() == Some("true") {
        t.stream_view = text(v.get("stream_view_type"))
            .as_deref()
            .and_then(stream_view)
            .map(str::to_string);
    }
    // `tags_all` (a plan's, with the provider's default tags) else `tags`.
    if let Some(tags) = v
        .get("tags_all")
        .filter(|t| t.is_object())
        .or_else(|| v.get("tags"))
        .and_then(Value::as_object)
    {
        t.tags = tags
            .iter()
            .filter_map(|(k, v)| text(Some(v)).map(|v| (k.clone(), v)))
            .collect();
    }
    t.pitr = first(v, "point_in_time_recovery")
        .and_then(|p| text(p.get("enabled")))
        .as_deref()
        == Some("true");
    if let Some(ttl) = first(v, "ttl")
        && text(ttl.get("enabled")).as_deref() == Some("true")
    {
        t.ttl_attribute = text(ttl.get("attribute_name"));
    }
    if let Some(replicas) = v.get("replica").and_then(Value::as_array) {
        t.replicas = replicas
            .iter()
            .filter_map(|r| text(r.get("region_name")))
            .collect();
    }
    if let Some(import) = first(v, "import_table") {
        let bucket = first(import, "s3_bucket_source")
            .and_then(|b| text(b.get("bucket")))
            .unwrap_or_default();
        let format = text(import.get("input_format")).unwrap_or_default();
        t.import_from_s3 = Some(format!("s3://{bucket}, {format}"));
    }
    t.indexes = indexes(address, v, file, &t, notes);
    t
}

/// The table's GSIs and LSIs (an LSI's partition key is the table's); an index whose
/// projection is unknown is skipped with a note.
fn indexes(
    address: &str,
    v: &Value,
    file: &str,
    t: &TableDef,
    notes: &mut Vec<Note>,
) -> Vec<IndexDef> {
    let mut out = Vec::new();
    for (field, global) in [
        ("global_secondary_index", true),
        ("local_secondary_index", false),
    ] {
        let Some(items) = v.get(field).and_then(Value::as_array) else {
            continue;
        };
        for i in items {
            let Some(name) = text(i.get("name")) else {
                continue;
            };
            let projection = match text(i.get("projection_type")).as_deref() {
                Some("ALL") => Projection::All,
                Some("INCLUDE") => Projection::Include(
                    i.get("non_key_attributes")
                        .and_then(Value::as_array)
                        .map(|a| a.iter().filter_map(|x| text(Some(x))).collect())
                        .unwrap_or_default(),
                ),
                Some("KEYS_ONLY") => Projection::KeysOnly,
                other => {
                    notes.push(Note {
                        file: file.into(),
                        line: None,
                        path: format!("{address}.{field}"),
                        message: format!("index `{name}` has projection {other:?}; skipped"),
                    });
                    continue;
                }
            };
            let hash = if global {
                text(i.get("hash_key"))
            } else {
                t.key.as_ref().map(|k| k.0.clone())
            };
            let provisioned = matches!(t.billing, Billing::Provisioned { .. });
            out.push(IndexDef {
                name,
                global,
                key: hash.map(|h| (h, text(i.get("range_key")))),
                projection,
                read: if global && provisioned {
                    capacity(i, "read_capacity", &format!("{address}.{field}"), notes)
                } else {
                    None
                },
                write: if global && provisioned {
                    capacity(i, "write_capacity", &format!("{address}.{field}"), notes)
                } else {
                    None
                },
            });
        }
    }
    out
}
