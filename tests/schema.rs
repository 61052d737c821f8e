//! `ddbcost schema`: the JSON Schema of workloads and price tables, checked with an
//! independent validator (the `jsonschema` crate) against every bundled file, parsed as an
//! editor parses YAML (numbers as numbers); the committed `docs/schema/*.json` (what the
//! bundled files' `# yaml-language-server` lines name) are the command's output; and a file
//! the loader refuses for an unknown field is refused by the schema too.

mod common;

use common::{Case, root};
use serde_json::Value;

fn schema(kind: &str) -> Value {
    let out = Case::new().args(["schema", kind]).run().success();
    serde_json::from_str(&out.stdout).expect("the schema is JSON")
}

/// A YAML file as an editor's language server sees it.
fn yaml(text: &str) -> Value {
    serde_saphyr::from_str(text).expect("YAML")
}

fn errors(schema: &Value, instance: &Value) -> Vec<String> {
    let validator = jsonschema::draft202012::new(schema).expect("a valid draft 2020-12 schema");
    validator
        .iter_errors(instance)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect()
}

fn yaml_files(dir: &str) -> Vec<std::path::PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(root().join(dir))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    files
}

#[test]
fn the_schema_is_draft_2020_12_with_descriptions() {
    let s = schema("workload");
    assert_eq!(s["$schema"], "https://json-schema.org/draft/2020-12/schema");
    assert!(jsonschema::meta::is_valid(&s));
    // Every property of every object has a description (generated from the loader's types).
    let mut missing = Vec::new();
    let mut objects = vec![("(top)".to_string(), &s)];
    for (name, def) in s["$defs"].as_object().unwrap() {
        objects.push((name.clone(), def));
    }
    for (name, object) in objects {
        for (field, property) in object["properties"].as_object().into_iter().flatten() {
            if property.get("description").is_none() {
                missing.push(format!("{name}.{field}"));
            }
        }
    }
    assert!(missing.is_empty(), "no description: {missing:?}");
    // Quantities carry examples; so do the main fields.
    assert!(s["$defs"]["Quantity"]["examples"].is_array());
    assert_eq!(
        s["$defs"]["RawPattern"]["properties"]["rate"]["examples"][0],
        "20/s"
    );
    assert!(jsonschema::meta::is_valid(&schema("price-table")));
}

#[test]
fn the_committed_schemas_are_the_commands_output() {
    for (kind, file) in [
        ("workload", "docs/schema/workload.json"),
        ("price-table", "docs/schema/price-table.json"),
    ] {
        let committed: Value =
            serde_json::from_str(&std::fs::read_to_string(root().join(file)).unwrap()).unwrap();
        assert_eq!(
            committed,
            schema(kind),
            "{file} is stale: run `ddbcost schema {kind} -o {file}`"
        );
    }
}

#[test]
fn every_bundled_file_names_and_satisfies_its_schema() {
    for (dir, kind, line) in [
        (
            "workloads",
            "workload",
            "# yaml-language-server: $schema=../docs/schema/workload.json",
        ),
        (
            "pricing",
            "price-table",
            "# yaml-language-server: $schema=../docs/schema/price-table.json",
        ),
    ] {
        let s = schema(kind);
        for file in yaml_files(dir) {
            let text = std::fs::read_to_string(&file).unwrap();
            assert_eq!(text.lines().next(), Some(line), "{}", file.display());
            let found = errors(&s, &yaml(&text));
            assert!(found.is_empty(), "{}: {found:#?}", file.display());
        }
    }
}

/// The same typo, refused by the loader (exit 1, naming the field) and by the schema.
#[test]
fn an_unknown_field_is_refused_by_both() {
    let base = std::fs::read_to_string(root().join("workloads/cloudshop.yaml")).unwrap();
    let s = schema("workload");
    for (from, to, field) in [
        ("    items: ", "    itemz: ", "itemz"),
        (
            "        op: put",
            "        op: put\n        rates: 1/s",
            "rates",
        ),
        (
            "prices: cloudshop-eur",
            "prices: cloudshop-eur\npricez: x",
            "pricez",
        ),
        (
            "        projected_size: 80 B",
            "        projected_sise: 80 B",
            "projected_sise",
        ),
    ] {
        assert!(base.contains(from), "{from}");
        let text = base.replacen(from, to, 1);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("typo.yaml");
        std::fs::write(&path, &text).unwrap();
        let out = Case::new()
            .args(["estimate", path.to_str().unwrap()])
            .run()
            .code(1);
        assert!(out.stderr.contains(field), "{field}: {}", out.stderr);
        let found = errors(&s, &yaml(&text));
        assert!(
            found.iter().any(|e| e.contains(field)),
            "the schema accepts `{field}`: {found:?}"
        );
    }
    // And a price table with a misspelt price.
    let table = std::fs::read_to_string(root().join("pricing/aws-us-east-1.yaml")).unwrap();
    let typo = table.replacen("pitr_gb_month", "pitr_gb_mnth", 1);
    assert_ne!(typo, table);
    let found = errors(&schema("price-table"), &yaml(&typo));
    assert!(
        found.iter().any(|e| e.contains("pitr_gb_mnth")),
        "{found:?}"
    );
}

#[test]
fn a_wrong_value_is_refused_by_the_schema() {
    let s = schema("workload");
    let text = "prices: aws-us-east-1\ntables:\n  t:\n    capacity: { mode: on-demnd }\n    indexes:\n      g: { type: gsi, projection: everything }\n";
    let found = errors(&s, &yaml(text));
    assert!(found.iter().any(|e| e.contains("on-demnd")), "{found:?}");
    assert!(found.iter().any(|e| e.contains("everything")), "{found:?}");
    // The minimal valid workload is valid.
    assert!(errors(&s, &yaml("prices: aws-us-east-1\ntables: {}\n")).is_empty());
}

mod agreement {
    //! For generated workloads (optional fields of the table, its indexes, patterns, stream,
    //! backups and commitments, each present or not), whatever the loader accepts the schema
    //! accepts; and a typo in any field name, at any level, is refused by both.

    use proptest::prelude::*;
    use proptest::test_runner::{Config, TestRunner};
    use serde_json::Value;

    /// Optional parts of a table, each with a valid value.
    const TABLE_PARTS: &[&str] = &[
        "    class: standard-ia\n",
        "    capacity: { mode: provisioned, rcu: 10, wcu: 5 }\n",
        "    items: 2M\n",
        "    key_size: 30 B\n",
        "    pitr: true\n",
        "    ttl: 90 days\n",
        "    replicas: [us-east-2]\n",
        "    keys: { distinct: 41200, busiest_share: 2% }\n",
        "    traffic: { peak: { times_average: 2, hours: 6, start: 16 } }\n",
        "    backups: { retained: 2, restores_per_month: 1 }\n",
        "    stream:\n      view: new-image\n      consumers:\n        search: { kind: reader, records_per_call: 1 }\n        fn: { kind: lambda }\n",
        "    observed: { storage: 210 GB }\n",
        "    attribute_sizes: { status: 14 B }\n",
    ];

    /// Optional fields of a GSI.
    const INDEX_PARTS: &[&str] = &[
        "projection: keys-only",
        "projection: include, include: [status], projected_size: 80 B",
        "key_size: 20 B",
        "key_share: 50%",
        "updates_moving_key: 1",
    ];

    /// Optional fields of a read pattern.
    const PATTERN_PARTS: &[&str] = &[
        "keys: { distinct: 100 }",
        "items: 10",
        "item_size: 2 KB",
        "description: the reads",
    ];

    fn workload(table: &[bool], index: Option<&[bool]>, pattern: &[bool]) -> String {
        let mut y = String::from("prices: aws-us-east-1\ntables:\n  t:\n    item_size: 1 KB\n");
        for (part, on) in TABLE_PARTS.iter().zip(table) {
            if *on {
                y.push_str(part);
            }
        }
        let on_index = index.is_some();
        if let Some(flags) = index {
            let fields: Vec<&str> = INDEX_PARTS
                .iter()
                .zip(flags)
                .filter(|(_, on)| **on)
                .map(|(p, _)| *p)
                // Two projections: the last one given.
                .fold(Vec::new(), |mut v, p| {
                    if p.starts_with("projection") {
                        v.retain(|q: &&str| !q.starts_with("projection"));
                    }
                    v.push(p);
                    v
                });
            let mut fields = fields;
            if !fields.iter().any(|f| f.starts_with("projection")) {
                fields.insert(0, "projection: all");
            }
            // A GSI of a provisioned table states its own capacity.
            if table[1] {
                fields.push("rcu: 5, wcu: 5");
            }
            y.push_str(&format!(
                "    indexes:\n      g: {{ type: gsi, {} }}\n",
                fields.join(", ")
            ));
        }
        let fields: Vec<&str> = PATTERN_PARTS
            .iter()
            .zip(pattern)
            .filter(|(_, on)| **on)
            .map(|(p, _)| *p)
            .collect();
        let op = if fields.contains(&"items: 10") {
            "query"
        } else {
            "get"
        };
        let on = if on_index && op == "query" {
            ", index: g"
        } else {
            ""
        };
        let extra = if fields.is_empty() {
            String::new()
        } else {
            format!(", {}", fields.join(", "))
        };
        y.push_str(&format!(
            "    patterns:\n      r: {{ op: {op}, rate: 10/s, consistency: eventual{on}{extra} }}\n      w: {{ op: put, rate: 2/s }}\n"
        ));
        y
    }

    /// Every field name of `doc` at a position the schema lists fields (not a user's name of
    /// a table, index, pattern, consumer or attribute), as JSON pointers.
    fn field_paths(doc: &Value, at: &str, named: bool, out: &mut Vec<String>) {
        let Value::Object(map) = doc else { return };
        for (k, v) in map {
            let here = format!("{at}/{k}");
            if !named {
                out.push(here.clone());
            }
            // The children of these maps are names the user chose.
            let children_named = !named
                && matches!(
                    k.as_str(),
                    "tables" | "indexes" | "patterns" | "consumers" | "attribute_sizes"
                );
            field_paths(v, &here, children_named, out);
        }
    }

    fn misspelt(doc: &Value, pointer: &str) -> Value {
        let mut doc = doc.clone();
        let (parent, key) = pointer.rsplit_once('/').unwrap();
        let map = doc.pointer_mut(parent).unwrap().as_object_mut().unwrap();
        let v = map.shift_remove(key).unwrap();
        map.insert(format!("{key}x"), v);
        doc
    }

    #[test]
    fn the_schema_accepts_what_the_loader_accepts_and_refuses_its_typos() {
        let schema = ddbcost::api::schema();
        let validator = jsonschema::draft202012::new(&schema).unwrap();
        let strategy = (
            prop::collection::vec(any::<bool>(), TABLE_PARTS.len()),
            prop::option::of(prop::collection::vec(any::<bool>(), INDEX_PARTS.len())),
            prop::collection::vec(any::<bool>(), PATTERN_PARTS.len()),
            any::<prop::sample::Index>(),
        );
        let mut runner = TestRunner::new(Config::with_cases(96));
        let (accepted, typos) = (std::cell::Cell::new(0u32), std::cell::Cell::new(0u32));
        runner
            .run(&strategy, |(table, index, pattern, pick)| {
                let text = workload(&table, index.as_deref(), &pattern);
                let loaded = ddbcost::api::load(&text, "gen.yaml");
                let doc: Value = serde_saphyr::from_str(&text).unwrap();
                let schema_errors: Vec<String> =
                    validator.iter_errors(&doc).map(|e| e.to_string()).collect();
                if let Err(e) = loaded {
                    // Only a workload the loader accepts says anything about its typos.
                    let _ = e;
                    return Ok(());
                }
                accepted.set(accepted.get() + 1);
                prop_assert!(schema_errors.is_empty(), "{text}\n{schema_errors:?}");
                let mut paths = Vec::new();
                field_paths(&doc, "", false, &mut paths);
                let pointer = pick.get(&paths);
                let typo = misspelt(&doc, pointer);
                let field = format!("{}x", pointer.rsplit('/').next().unwrap());
                // The loader's own document of the text (numbers kept as their text).
                let exact = ddbcost::api::parse_yaml(&text, "gen.yaml").unwrap();
                let refused = ddbcost::api::load_value(misspelt(&exact, pointer), "gen.yaml");
                prop_assert!(
                    refused.is_err(),
                    "the loader accepts `{pointer}` misspelt\n{text}"
                );
                let message = refused.unwrap_err().message;
                prop_assert!(message.contains(&field), "{pointer}: {message}");
                let found: Vec<String> = validator
                    .iter_errors(&typo)
                    .map(|e| e.to_string())
                    .collect();
                prop_assert!(
                    found.iter().any(|e| e.contains(&field)),
                    "the schema accepts `{field}` at {pointer}: {found:?}"
                );
                typos.set(typos.get() + 1);
                Ok(())
            })
            .unwrap();
        // The generator must make valid workloads most of the time, or the first half proves
        // nothing.
        let (accepted, typos) = (accepted.get(), typos.get());
        eprintln!("{accepted} of 96 generated workloads load");
        assert!(
            accepted >= 48,
            "only {accepted} of 96 generated workloads load"
        );
        assert_eq!(typos, accepted);
    }
}
