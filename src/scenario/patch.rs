//! JSON Merge Patch (RFC 7386) on workload documents, and the check that a patch only names
//! tables, indexes, patterns and stream consumers that exist — or adds complete new ones — so
//! that a typo cannot silently compare the baseline with itself.

use serde_json::{Map, Value};

use crate::error::Error;
use crate::load::suggest;

/// Applies `patch` to `target`: maps merge key by key, `null` removes a key, anything else
/// replaces the target value.
pub(crate) fn merge_patch(target: &mut Value, patch: &Value) {
    let Value::Object(patch) = patch else {
        *target = patch.clone();
        return;
    };
    if !target.is_object() {
        *target = Value::Object(Map::new());
    }
    if let Value::Object(map) = target {
        for (key, value) in patch {
            if value.is_null() {
                map.shift_remove(key);
            } else {
                merge_patch(map.entry(key.clone()).or_insert(Value::Null), value);
            }
        }
    }
}

/// The settings that belong to one capacity mode only: a patch that switches a table to the
/// other mode drops them (unless it restates them), so that `capacity: { mode: on-demand }`
/// is the whole change — not a refusal for the auto scaling the table had.
const PROVISIONED_ONLY: &[&str] = &["rcu", "wcu", "auto_scaling", "reserved"];
const ON_DEMAND_ONLY: &[&str] = &["max_read_units", "max_write_units"];
/// An index's own provisioned settings, which an on-demand table's indexes cannot have.
const INDEX_PROVISIONED: &[&str] = &["rcu", "wcu", "auto_scaling"];

/// Applies a scenario's `patch` to a workload document: [`merge_patch`], and a table whose
/// capacity mode the patch switches loses the settings of the mode it leaves (the table's
/// provisioned `rcu`, `wcu`, `auto_scaling`, `reserved` and its indexes' own `rcu`, `wcu`,
/// `auto_scaling` on a switch to on demand; `max_read_units`/`max_write_units` on a switch to
/// provisioned), except those the patch states itself.
pub(crate) fn apply(target: &mut Value, patch: &Value) {
    merge_patch(target, patch);
    let Some(tables) = patch.get("tables").and_then(Value::as_object) else {
        return;
    };
    leave_include(target, tables);
    for (name, table_patch) in tables {
        let Some(cap_patch) = table_patch.get("capacity") else {
            continue;
        };
        let leaves: &[&str] = match cap_patch.get("mode").and_then(Value::as_str) {
            Some("on-demand") => PROVISIONED_ONLY,
            Some("provisioned") => ON_DEMAND_ONLY,
            _ => continue,
        };
        let Some(table) = target
            .get_mut("tables")
            .and_then(|t| t.get_mut(name))
            .and_then(Value::as_object_mut)
        else {
            continue;
        };
        if let Some(cap) = table.get_mut("capacity").and_then(Value::as_object_mut) {
            for field in leaves {
                if cap_patch.get(*field).is_none() {
                    cap.shift_remove(*field);
                }
            }
        }
        if leaves == PROVISIONED_ONLY
            && let Some(indexes) = table.get_mut("indexes").and_then(Value::as_object_mut)
        {
            for (index, spec) in indexes.iter_mut() {
                let index_patch = table_patch.get("indexes").and_then(|i| i.get(index));
                let Some(spec) = spec.as_object_mut() else {
                    continue;
                };
                for field in INDEX_PROVISIONED {
                    if index_patch.and_then(|p| p.get(*field)).is_none() {
                        spec.shift_remove(*field);
                    }
                }
            }
        }
    }
}

/// What only an INCLUDE projection has: the attributes it names and their size.
const INCLUDE_ONLY: &[&str] = &["include", "projected_size"];

/// An index whose projection the patch switches from `include` (to `keys-only` or `all`)
/// loses what only an INCLUDE projection has, except what the patch states itself — so that
/// a sweep over projections prices each, not refuses all but one.
fn leave_include(target: &mut Value, tables: &Map<String, Value>) {
    for (name, table_patch) in tables {
        let Some(index_patches) = table_patch.get("indexes").and_then(Value::as_object) else {
            continue;
        };
        for (index, index_patch) in index_patches {
            let Some(projection) = index_patch.get("projection").and_then(Value::as_str) else {
                continue;
            };
            if projection == "include" {
                continue;
            }
            let Some(spec) = target
                .get_mut("tables")
                .and_then(|t| t.get_mut(name))
                .and_then(|t| t.get_mut("indexes"))
                .and_then(|i| i.get_mut(index))
                .and_then(Value::as_object_mut)
            else {
                continue;
            };
            for field in INCLUDE_ONLY {
                if index_patch.get(*field).is_none() {
                    spec.shift_remove(*field);
                }
            }
        }
    }
}

/// What a named collection holds, and what a new entry in it must state to be an addition
/// rather than a typo.
struct Collection {
    what: &'static str,
    /// An entry the base lacks is accepted as new if it has any of these fields.
    completes: &'static [&'static str],
}

const TABLES: Collection = Collection {
    what: "table",
    completes: &["patterns", "items", "storage"],
};
const INDEXES: Collection = Collection {
    what: "index",
    completes: &["type"],
};
const PATTERNS: Collection = Collection {
    what: "pattern",
    completes: &["op"],
};
const CONSUMERS: Collection = Collection {
    what: "stream consumer",
    completes: &["kind"],
};

/// Checks the names `patch` uses against `base`. `origin` says where the patch comes from
/// (`scenarios.steps[0] (sparse-gsi)` or `--set …`), for the error.
///
/// # Errors
/// A name the base lacks, unless the patch adds a complete new entry.
pub(crate) fn check_names(
    base: &Value,
    patch: &Value,
    origin: &str,
    file: &str,
) -> Result<(), Error> {
    let Some(patch) = patch.as_object() else {
        return Err(Error::input(format!("the patch of {origin} is not a map of workload fields"))
            .file(file)
            .help("Consider a patch shaped like the workload: `tables: { orders: { class: standard-ia } }`."));
    };
    if patch.contains_key("scenarios") {
        return Err(
            Error::input(format!("the patch of {origin} sets `scenarios`"))
                .file(file)
                .help("Consider defining every scenario under the workload's own `scenarios:`."),
        );
    }
    if let Some(tables) = patch.get("tables") {
        check_collection(
            base.get("tables"),
            tables,
            &TABLES,
            "tables",
            origin,
            file,
            |base_table, table_patch, path| {
                for (field, collection) in [("indexes", &INDEXES), ("patterns", &PATTERNS)] {
                    if let Some(p) = table_patch.get(field) {
                        check_collection(
                            base_table.and_then(|t| t.get(field)),
                            p,
                            collection,
                            &format!("{path}.{field}"),
                            origin,
                            file,
                            |_, _, _| Ok(()),
                        )?;
                    }
                }
                if let Some(consumers) = table_patch.get("stream").and_then(|s| s.get("consumers"))
                {
                    let base_consumers = base_table
                        .and_then(|t| t.get("stream"))
                        .and_then(|s| s.get("consumers"));
                    check_collection(
                        base_consumers,
                        consumers,
                        &CONSUMERS,
                        &format!("{path}.stream.consumers"),
                        origin,
                        file,
                        |_, _, _| Ok(()),
                    )?;
                }
                Ok(())
            },
        )?;
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn check_collection(
    base: Option<&Value>,
    patch: &Value,
    collection: &Collection,
    path: &str,
    origin: &str,
    file: &str,
    nested: impl Fn(Option<&Value>, &Value, &str) -> Result<(), Error>,
) -> Result<(), Error> {
    let Some(entries) = patch.as_object() else {
        return Ok(()); // replaced wholesale (or removed); the workload loader checks it
    };
    let base_entries = base.and_then(Value::as_object);
    for (name, entry) in entries {
        let entry_path = format!("{path}.{name}");
        // Looked up by key: a patch of one table of thousands checks that one.
        let exists = base_entries.is_some_and(|m| m.contains_key(name));
        let adds_complete = entry
            .as_object()
            .is_some_and(|m| collection.completes.iter().any(|f| m.contains_key(*f)));
        if !exists && !adds_complete {
            let what = collection.what;
            let message = if entry.is_null() {
                format!("{origin} removes {what} `{name}`, which does not exist")
            } else {
                format!("{origin} changes {what} `{name}`, which does not exist")
            };
            let plural = format!("{what}s here");
            let known: Vec<&str> = base_entries
                .map(|m| m.keys().map(String::as_str).collect())
                .unwrap_or_default();
            let mut help = suggest::consider(name, &known, &plural);
            help.push_str(&format!(
                " A new {what} must state {}.",
                collection
                    .completes
                    .iter()
                    .map(|f| format!("`{f}`"))
                    .collect::<Vec<_>>()
                    .join(" or ")
            ));
            return Err(Error::input(message).file(file).path(entry_path).help(help));
        }
        if exists && !entry.is_null() {
            nested(base.and_then(|b| b.get(name)), entry, &entry_path)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn merge_patch_follows_rfc_7386() {
        // RFC 7386 §3 example.
        let mut target = json!({"a": "b", "c": {"d": "e", "f": "g"}});
        merge_patch(&mut target, &json!({"a": "z", "c": {"f": null}}));
        assert_eq!(target, json!({"a": "z", "c": {"d": "e"}}));
        // A non-map patch replaces; a map patch on a scalar starts from an empty map.
        let mut t = json!({"a": [1, 2]});
        merge_patch(&mut t, &json!({"a": [3]}));
        assert_eq!(t, json!({"a": [3]}));
        let mut t = json!("x");
        merge_patch(&mut t, &json!({"k": 1}));
        assert_eq!(t, json!({"k": 1}));
        // An empty patch changes nothing.
        let mut t = json!({"a": 1});
        merge_patch(&mut t, &json!({}));
        assert_eq!(t, json!({"a": 1}));
    }

    #[test]
    fn names_must_exist_or_be_complete_additions() {
        let base = json!({"tables": {"orders": {"patterns": {"get-order": {"op": "get"}}, "indexes": {"gsi-1": {"type": "gsi"}}}}});
        let ok = json!({"tables": {"orders": {"patterns": {"get-order": {"consistency": "eventual"}, "new": {"op": "put", "rate": "1/s"}}}}});
        assert!(check_names(&base, &ok, "step", "f.yaml").is_ok());
        let typo =
            json!({"tables": {"orders": {"patterns": {"get-ordr": {"consistency": "eventual"}}}}});
        let err = check_names(&base, &typo, "step", "f.yaml").unwrap_err();
        assert!(err.message.contains("pattern `get-ordr`"), "{err}");
        assert!(
            err.help.as_deref().unwrap_or("").contains("`get-order`"),
            "{err}"
        );
        let table_typo = json!({"tables": {"order": {"class": "standard-ia"}}});
        assert!(
            check_names(&base, &table_typo, "step", "f.yaml")
                .unwrap_err()
                .message
                .contains("table `order`")
        );
        let index_typo = json!({"tables": {"orders": {"indexes": {"gsi1": {"key_share": 0.5}}}}});
        assert!(check_names(&base, &index_typo, "step", "f.yaml").is_err());
        let removes_missing = json!({"tables": {"orders": {"indexes": {"gsi-9": null}}}});
        assert!(
            check_names(&base, &removes_missing, "step", "f.yaml")
                .unwrap_err()
                .message
                .contains("removes index")
        );
    }
}
