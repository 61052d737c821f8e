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
