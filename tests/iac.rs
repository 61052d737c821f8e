//! `ddbcost import` and templates in place of workloads: each input kind imports field by
//! field, the imported workload prices a provisioned table's capacity at once (us-east-1:
//! RCU-hour $0.00013, WCU-hour $0.00065; Standard-IA $0.00016 / $0.00081; 730-hour month),
//! lists usage lines as depending on usage, and a usage file completes it.

mod common;

use common::{Case, root};
use ddbcost::api::import::{
    Billing, Dim, Imported, Options, Projection, Source, TableDef, template_text, templates,
};

fn fixture(rel: &str) -> String {
    root()
        .join("tests/fixtures/iac")
        .join(rel)
        .display()
        .to_string()
}

fn import(rel: &str, region: Option<&str>) -> Imported {
    let options = Options {
        parameters: Vec::new(),
        region: region.map(str::to_string),
    };
    templates(&[fixture(rel)], None, &options).expect("import")
}

fn table<'a>(i: &'a Imported, name: &str) -> &'a TableDef {
    i.tables.iter().find(|t| t.name == name).unwrap_or_else(|| {
        panic!(
            "no table {name}: {:?}",
            i.tables.iter().map(|t| &t.name).collect::<Vec<_>>()
        )
    })
}

#[allow(
    clippy::unnecessary_wraps,
    reason = "compared with optional dimensions"
)]
fn fixed(u: &str) -> Option<Dim> {
    Some(Dim::Fixed(u.into()))
}

#[allow(
    clippy::unnecessary_wraps,
    reason = "compared with optional dimensions"
)]
fn auto(min: &str, max: &str, target: Option<&str>) -> Option<Dim> {
    Some(Dim::Auto {
        min: min.into(),
        max: max.into(),
        target: target.map(str::to_string),
    })
}

#[test]
fn cloudformation_imports_every_field_it_states() {
    let i = import("cloudformation/orders.yaml", None);
    // `!Sub "${Env}-orders"` with Env's default `staging`.
    let t = table(&i, "staging-orders");
    assert_eq!(t.key, Some(("pk".into(), Some("sk".into()))));
    assert_eq!(t.attributes.len(), 4);
    assert_eq!(t.attributes[3], ("placed_at".into(), "N".into()));
    // `!If [IsProd, 50, !Ref ReadCapacity]`: IsProd is false, ReadCapacity defaults to 5.
    assert_eq!(
        t.billing,
        Billing::Provisioned {
            read: fixed("5"),
            write: fixed("10")
        }
    );
    assert_eq!(t.stream_view.as_deref(), Some("new-and-old-images"));
    assert!(t.pitr);
    assert_eq!(t.ttl_attribute.as_deref(), Some("expires_at"));
    assert!(!t.standard_ia);
    let gsi = &t.indexes[0];
    assert_eq!(gsi.name, "by-status");
    assert!(gsi.global);
    assert_eq!(gsi.key, Some(("status".into(), Some("placed_at".into()))));
    assert_eq!(
        gsi.projection,
        Projection::Include(vec!["total".into(), "customer".into()])
    );
    assert_eq!(gsi.read, fixed("5"));
    // The ScalableTarget (`!Sub table/${OrdersTable}/index/by-status`) and its policy.
    assert_eq!(gsi.write, auto("5", "100", Some("50.0")));
    let lsi = &t.indexes[1];
    assert!(!lsi.global);
    assert_eq!(lsi.projection, Projection::KeysOnly);
    // The conditional AuditTable is not created (IsProd is false) and says so.
    assert!(i.tables.iter().all(|t| t.logical_id != "AuditTable"));
    assert!(
        i.notes
            .iter()
            .any(|n| n.path == "Resources.AuditTable" && n.message.contains("`IsProd` is false"))
    );
    // EventsTable has no TableName: named by its logical id.
    let e = table(&i, "EventsTable");
    assert!(e.standard_ia);
    assert_eq!(
        e.billing,
        Billing::OnDemand {
            max_read: Some("4000".into()),
            max_write: Some("1000".into())
        }
    );
    // `!GetAtt EventsStream.Arn` and a parameter without default: reported with the line.
    let kinesis = i
        .notes
        .iter()
        .find(|n| n.path.ends_with("KinesisStreamSpecification.StreamArn"))
        .expect("a note");
    assert_eq!(kinesis.line, Some(122));
    assert!(kinesis.message.contains("known only at deployment"));
    // The destination is kept: its stream's ARN is unresolved, not its existence.
    assert!(kinesis.message.contains("is kept"));
    assert!(
        i.notes
            .iter()
            .any(|n| n.message.contains("--parameter ArchiveBucket=VALUE"))
    );
}

#[test]
fn parameters_and_conditions_follow_the_command_line() {
    let options = Options {
        parameters: vec![
            ("Env".into(), "prod".into()),
            ("ArchiveBucket".into(), "archive".into()),
        ],
        region: None,
    };
    let i = templates(&[fixture("cloudformation/orders.yaml")], None, &options).unwrap();
    // IsProd now holds: the read capacity is 50, and AuditTable exists.
    let t = table(&i, "prod-orders");
    assert!(matches!(&t.billing, Billing::Provisioned { read, .. } if *read == fixed("50")));
    assert!(i.tables.iter().any(|t| t.name == "AuditTable"));
    let e = table(&i, "EventsTable");
    assert_eq!(
        e.import_from_s3.as_deref(),
        Some("s3://archive/events/, DYNAMODB_JSON")
    );
}

#[test]
fn sam_simple_tables_import_with_their_defaults() {
    let i = import("sam/template.yaml", None);
    let s = table(&i, "sessions");
    assert_eq!(s.key, Some(("session_id".into(), None)));
    assert_eq!(
        s.billing,
        Billing::Provisioned {
            read: fixed("2"),
            write: fixed("1")
        }
    );
    // No PrimaryKey: SAM's `id` (String); no throughput: on demand.
    let c = table(&i, "CountersTable");
    assert_eq!(c.attributes, vec![("id".into(), "S".into())]);
    assert!(matches!(c.billing, Billing::OnDemand { .. }));
}

#[test]
fn serverless_variables_resolve_from_the_file() {
    let i = import("serverless/serverless.yml", None);
    // `${self:custom.usersTable}` → `users-${sls:stage}` → provider.stage `${opt:stage, 'dev'}`.
    let u = table(&i, "users-dev");
    assert_eq!(
        u.billing,
        Billing::Provisioned {
            read: fixed("4"),
            write: fixed("2")
        }
    );
    assert_eq!(u.indexes[0].projection, Projection::All);
    // `${env:PITR_ENABLED}` is not in the file: reported, not guessed.
    let n = i
        .notes
        .iter()
        .find(|n| n.path.ends_with("PointInTimeRecoverySpecification"))
        .unwrap();
    assert_eq!(n.line, Some(42));
    assert!(!u.pitr);
    // `--parameter stage=prod` is `opt:stage`.
    let options = Options {
        parameters: vec![("stage".into(), "prod".into())],
        region: None,
    };
    let i = templates(&[fixture("serverless/serverless.yml")], None, &options).unwrap();
    assert!(i.tables.iter().any(|t| t.name == "users-prod"));
}

#[test]
fn cdk_output_follows_nested_stacks() {
    let i = import("cdk.out", Some("us-east-1"));
    let c = table(&i, "carts");
    // The read dimension is auto scaled (ScalableTarget via `Fn::Join` + `Ref`), writes fixed.
    assert_eq!(
        c.billing,
        Billing::Provisioned {
            read: auto("10", "200", Some("75")),
            write: fixed("4")
        }
    );
    // The nested stack's global table, named with the parameter its parent passes.
    let g = table(&i, "profiles-prod");
    assert_eq!(g.region.as_deref(), Some("us-east-1"));
    assert_eq!(g.replicas, vec!["us-east-2".to_string()]);
    assert!(g.pitr);
    assert_eq!(i.tables.len(), 2);
}

#[test]
fn terraform_plans_import_modules_and_for_each_instances() {
    let i = import("terraform/plan.json", None);
    let o = table(&i, "orders");
    assert_eq!(
        o.billing,
        Billing::Provisioned {
            read: fixed("20"),
            write: auto("5", "50", Some("60"))
        }
    );
    assert_eq!(o.indexes[0].key, Some(("gsi1pk".into(), None)));
    assert_eq!(o.stream_view.as_deref(), Some("keys-only"));
    let w = table(&i, "sessions-web");
    assert_eq!(w.replicas, vec!["us-east-2".to_string()]);
    assert_eq!(w.ttl_attribute.as_deref(), Some("expires"));
    // An instance whose name is computed at apply: named by its address, and reported.
    assert!(
        i.tables
            .iter()
            .any(|t| t.name == "module.sessions.aws_dynamodb_table.this[\"mobile\"]")
    );
    assert!(
        i.notes
            .iter()
            .any(|n| n.message.contains("not known until apply"))
    );
}

#[test]
fn tf_files_import_literals_and_report_the_rest() {
    let i = import("terraform/main.tf", None);
    let c = table(&i, "catalog");
    assert!(c.standard_ia);
    // `"table/${aws_dynamodb_table.catalog.name}"` and the policy's references to the target.
    assert_eq!(
        c.billing,
        Billing::Provisioned {
            read: auto("8", "40", Some("70")),
            write: fixed("2")
        }
    );
    assert_eq!(
        c.indexes[0].projection,
        Projection::Include(vec!["title".into(), "price".into()])
    );
    assert!(c.pitr);
    // `"audit-${var.env}"` with `variable "env" { default = "dev" }` in the same file.
    let audit = table(&i, "audit-dev");
    assert!(audit.origin.contains("main.tf:65"), "{}", audit.origin);
    assert!(
        !i.notes
            .iter()
            .any(|n| n.path == "aws_dynamodb_table.audit.name"),
        "{:?}",
        i.notes
    );
}

#[test]
fn an_imported_workload_prices_its_capacity_at_once() {
    // SAM: sessions 2 RCU × 730 h = 1,460 RCU-hours × $0.00013 = $0.1898;
    //      1 WCU × 730 h = 730 WCU-hours × $0.00065 = $0.4745. Total $0.6643.
    let out = Case::new()
        .args([
            "estimate",
            &fixture("sam/template.yaml"),
            "--region",
            "us-east-1",
            "--format",
            "json",
        ])
        .run()
        .success();
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(common::json_line(&doc, "sessions/reads")["cost"], "0.1898");
    assert_eq!(common::json_line(&doc, "sessions/writes")["cost"], "0.4745");
    assert_eq!(doc["total"], "0.6643");
    assert!(
        doc["excluded"]
            .as_array()
            .unwrap()
            .iter()
            .any(|k| k == "sessions/storage")
    );
    assert!(
        doc["warnings"]
            .to_string()
            .contains("placeholders still to fill")
    );
    // .tf, Standard-IA: catalog reads auto scaled at their minimum, 8 × 730 = 5,840 RCU-hours
    // × $0.00016 = $0.9344; writes 2 × 730 = 1,460 × $0.00081 = $1.1826.
    let out = Case::new()
        .args([
            "estimate",
            &fixture("terraform/main.tf"),
            "--region",
            "us-east-1",
            "--format",
            "json",
        ])
        .run()
        .success();
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(common::json_line(&doc, "catalog/reads")["cost"], "0.9344");
    assert_eq!(common::json_line(&doc, "catalog/writes")["cost"], "1.1826");
    // Its GSI: 2 RCU → 1,460 × 0.00016 = 0.2336; 2 WCU → 1,460 × 0.00081 = 1.1826.
    assert_eq!(
        common::json_line(&doc, "catalog/gsi/by-category/reads")["cost"],
        "0.2336"
    );
    assert_eq!(
        common::json_line(&doc, "catalog/gsi/by-category/writes")["cost"],
        "1.1826"
    );
    // CloudFormation: the GSI's writes auto scaled at their minimum 5: 3,650 × 0.00065 = 2.3725.
    let out = Case::new()
        .args([
            "estimate",
            &fixture("cloudformation/orders.yaml"),
            "--format",
            "json",
            "--prices",
            "aws-us-east-1",
        ])
        .run()
        .success();
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(
        common::json_line(&doc, "staging-orders/gsi/by-status/writes")["cost"],
        "2.3725"
    );
}

#[test]
fn strict_refuses_placeholders() {
    Case::new()
        .args([
            "estimate",
            &fixture("sam/template.yaml"),
            "--region",
            "us-east-1",
            "--strict",
        ])
        .run()
        .code(1)
        .stderr_has("placeholder(s) still to fill: tables.sessions.item_size");
    Case::new()
        .args(["import", &fixture("sam/template.yaml"), "--strict"])
        .run()
        .code(1)
        .stderr_has("placeholder(s) still to fill");
}

#[test]
fn import_writes_a_workload_that_loads_back() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("w.yaml").display().to_string();
    Case::new()
        .args([
            "import",
            &fixture("cloudformation/orders.yaml"),
            "--region",
            "us-east-1",
            "-o",
            &out,
        ])
        .run()
        .success()
        .stderr_has("imported 2 table(s)");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("items: TODO"));
    assert!(text.contains("prices: aws-us-east-1"));
    assert!(text.contains("# note: "));
    let (w, _) = ddbcost::api::load(&text, &out).unwrap();
    let t = &w.tables[0];
    assert_eq!(t.key.as_ref().unwrap().partition, "pk");
    assert_eq!(
        t.indexes[0].include,
        vec!["total".to_string(), "customer".to_string()]
    );
    assert_eq!(t.stream.as_ref().unwrap().view, Some("new-and-old-images"));
    assert_eq!(t.ttl_attribute.as_deref(), Some("expires_at"));
    // Filling the placeholders: the estimate runs with --strict.
    let filled = text
        .replace("items: TODO", "items: 1M")
        .replace("item_size: TODO", "item_size: 1 KB")
        .replace("projected_size: TODO", "projected_size: 20 B")
        .replace("key_size: TODO", "key_size: 30 B")
        .replace("patterns: TODO", "patterns: {}");
    std::fs::write(&out, filled).unwrap();
    Case::new()
        .args(["estimate", &out, "--strict"])
        .run()
        .success();
}

#[test]
fn the_round_trip_example_estimates_and_diffs() {
    let w = |f: &str| root().join("workloads/iac").join(f).display().to_string();
    // prod-sessions in v2: 100 RCU × 730 h × $0.00013 = $9.49; 50 WCU × 730 × $0.00065 = $23.725.
    let out = Case::new()
        .args([
            "diff",
            &w("orders.template.yaml"),
            &w("orders-v2.template.yaml"),
            "--usage",
            &w("orders.usage.yaml"),
            "--region",
            "us-east-1",
            "--format",
            "json",
        ])
        .run()
        .success();
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let s = &doc["scenarios"][0];
    let line = |k: &str| {
        s["line_items"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["key"] == k)
            .unwrap_or_else(|| panic!("{k}"))
            .clone()
    };
    assert_eq!(line("prod-sessions/reads")["cost"], "9.49");
    assert_eq!(line("prod-sessions/writes")["cost"], "23.725");
    // The new ALL GSI takes every put: 10/s × 2,628,000 s = 26.28 M WRU × $0.625 = $16.425.
    assert_eq!(line("prod-orders/gsi/by-customer/writes")["cost"], "16.425");
    // Before the change the usage's by-customer entries are left out, with a note.
    assert!(
        out.stderr
            .contains("index `prod-orders.by-customer` is not in the template")
    );
}

#[test]
fn not_a_template_is_refused() {
    Case::new()
        .args([
            "import",
            &root()
                .join("workloads/cloudshop.yaml")
                .display()
                .to_string(),
        ])
        .run()
        .code(1)
        .stderr_has("is not a template ddbcost reads");
}

#[test]
fn the_readme_example_figures() {
    // README: reads 36.135 = prod-orders gets 100/s eventual on 1 KB (100 × 2,628,000 s a
    // month = 262.8 M reads × 0.5 RRU = 131.4 M RRU × $0.125 = $16.425) + prod-sessions
    // 60/s strong on 400 B (157.68 M RRU × $0.125 = $19.71).
    // writes 82.125 = 10/s puts of 1 KB (26.28 M WRU × $0.625 = $16.425) + 40/s updates of
    // 400 B (105.12 M × $0.625 = $65.70); index-writes: each put also in by-status, $16.425.
    // Rounded, they add up to the total's $144.93 (exact 144.9305…): each rounded down
    // (36.13 + 82.12 + 16.42 + 5.35 + 0.70 + 4.18 = 144.90), the 3 cents lacking go to the
    // largest remainders — index storage's 0.0078, PITR's 0.0072, and of the three 0.005s
    // the first, reads: 36.14, 82.12, 16.42.
    let w = |f: &str| root().join("workloads/iac").join(f).display().to_string();
    Case::new()
        .args([
            "estimate",
            &w("orders.template.yaml"),
            "--usage",
            &w("orders.usage.yaml"),
            "--region",
            "us-east-1",
            "--by",
            "component",
            "--format",
            "csv",
        ])
        .run()
        .success()
        .stdout_has(
            "reads,36.135,36.14,USD\nwrites,82.125,82.12,USD\nindex-writes,16.425,16.42,USD\n",
        );
}

#[test]
fn size_reads_the_workloads_keys_and_feeds_sizes_back() {
    let dir = tempfile::tempdir().unwrap();
    let w = dir.path().join("w.yaml").display().to_string();
    let template = root()
        .join("workloads/iac/orders.template.yaml")
        .display()
        .to_string();
    Case::new()
        .args(["import", &template, "--region", "us-east-1", "-o", &w])
        .run()
        .success();
    let export = fixture("orders-export.json");
    // The export's items: 940, 141, 1,526 and 35 bytes (see `--per-item`). One class per
    // write unit: (940 + 141 + 35) / 3 = 372 B for 3 of 4 items, 1,526 B for 1 of 4.
    // Keys: `pk` + `ORDER#n` (2 + 7) + `sk` + `HEADER` or `LINE#1` (2 + 6) = 17 B each.
    // by-status (KEYS_ONLY): 17 + `status` (6) + PAID (4) / SHIPPED (7) → 27, 30, 27: 28 B mean;
    // the line item has no status (not in the index).
    let out = Case::new()
        .args([
            "size",
            &export,
            "--workload",
            &w,
            "--table",
            "prod-orders",
            "--as-usage",
        ])
        .run()
        .success();
    assert!(
        out.stdout.contains("- { size: 372 B, share: 0.75 }"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("- { size: 1526 B, share: 0.25 }"));
    assert!(out.stdout.contains("key_size: 17 B"));
    assert!(out.stdout.contains("\"by-status\": { entry_size: 28 B, key_size: ~, projected_size: ~ }   # 1 item(s) without its key"));
    // Fed back as usage, the table's size placeholders are filled (its item count stays).
    let usage = dir.path().join("measured.yaml");
    std::fs::write(&usage, &out.stdout).unwrap();
    let out = Case::new()
        .args([
            "import",
            &template,
            "--region",
            "us-east-1",
            "--usage",
            &usage.display().to_string(),
        ])
        .run()
        .success();
    assert!(
        out.stderr
            .contains("placeholder(s) to fill: tables.prod-orders.items, tables.prod-orders.patterns, tables.prod-sessions"),
        "{}",
        out.stderr
    );
    // The same index sizes as `--key`/`--index` would give, without retyping them.
    let a = Case::new()
        .args([
            "size",
            &export,
            "--workload",
            &w,
            "--table",
            "prod-orders",
            "--format",
            "json",
        ])
        .run()
        .success();
    let b = Case::new()
        .args([
            "size",
            &export,
            "--key",
            "pk,sk",
            "--index",
            "by-status:status:keys-only",
            "--format",
            "json",
        ])
        .run()
        .success();
    assert_eq!(a.stdout, b.stdout);
}

#[test]
fn a_pull_request_adding_a_replica_is_priced_and_gated() {
    let tf = |f: &str| fixture(&format!("terraform/{f}"));
    let args = |extra: &[&str]| {
        let mut a = vec![
            "diff".to_string(),
            tf("before/main.tf"),
            tf("after/main.tf"),
            "--usage".into(),
            tf("usage.yaml"),
            "--region".into(),
            "us-east-1".into(),
        ];
        a.extend(extra.iter().map(std::string::ToString::to_string));
        a
    };
    let out = Case::new()
        .args(args(&["--format", "json"]))
        .run()
        .success();
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let lines = doc["scenarios"][0]["line_items"]
        .as_array()
        .unwrap()
        .clone();
    let cost = |k: &str| lines.iter().find(|l| l["key"] == k).unwrap()["cost"].clone();
    // 1 M puts of 1 KB replicated to us-east-2: 1 M rWRU × $0.625 = $0.625.
    assert_eq!(cost("profiles/replica/us-east-2/writes"), "0.625");
    // A global table stores 48 B more per item: 1 M × (1,024 + 148) B = 1,172,000,000 B
    // = 1.0915100574493408203125 GiB × $0.25 = $0.272877514362335205078125.
    assert_eq!(cost("profiles/storage"), "0.272877514362335205078125");
    // The budget gate: the total more than doubles.
    Case::new()
        .args(args(&["--fail-increase", "50%"]))
        .run()
        .code(3);
}

#[test]
fn auto_scaling_that_fits_no_table_is_reported() {
    // A plan scaling an on-demand table and a GSI the table lacks: both reported, none applied.
    let plan = r#"{"format_version": "1.2", "planned_values": {"root_module": {"resources": [
      {"address": "aws_dynamodb_table.t", "mode": "managed", "type": "aws_dynamodb_table",
       "values": {"name": "t", "billing_mode": "PAY_PER_REQUEST", "hash_key": "id",
                  "attribute": [{"name": "id", "type": "S"}]}},
      {"address": "aws_appautoscaling_target.a", "mode": "managed", "type": "aws_appautoscaling_target",
       "values": {"service_namespace": "dynamodb", "resource_id": "table/t",
                  "scalable_dimension": "dynamodb:table:ReadCapacityUnits", "min_capacity": 5, "max_capacity": 10}},
      {"address": "aws_appautoscaling_target.b", "mode": "managed", "type": "aws_appautoscaling_target",
       "values": {"service_namespace": "dynamodb", "resource_id": "table/t/index/nope",
                  "scalable_dimension": "dynamodb:index:ReadCapacityUnits", "min_capacity": 5, "max_capacity": 10}}
    ]}}}"#;
    let out = template_text(
        Source::TerraformPlan,
        plan,
        "plan.json",
        &Options::default(),
    )
    .unwrap();
    assert!(matches!(out.tables[0].billing, Billing::OnDemand { .. }));
    assert!(
        out.notes
            .iter()
            .any(|n| n.message.contains("an on-demand table"))
    );
    assert!(out.notes.iter().any(|n| n.message.contains("index `nope`")));
}

/// `compare`, `advise` and `forecast` take a template with its usage file as `estimate`
/// does (#24 §3: one way in): the same imported workload, so the same baseline to the last
/// digit; a Terraform file is imported, never read as YAML.
#[test]
fn compare_advise_and_forecast_take_a_template_as_estimate_does() {
    let template = [
        "workloads/iac/orders.template.yaml",
        "--usage",
        "workloads/iac/orders.usage.yaml",
        "--region",
        "us-east-1",
        "--format",
        "json",
    ];
    let run = |command: &[&str]| -> serde_json::Value {
        let out = Case::new()
            .args(command.iter().chain(&template))
            .run()
            .success();
        serde_json::from_str(&out.stdout).unwrap()
    };
    let total = run(&["estimate"])["total"].clone();
    assert!(total.as_str().is_some_and(|t| !t.is_empty()), "{total}");
    let cmp = run(&["compare", "--set", "tables.prod-orders.class=standard-ia"]);
    assert_eq!(cmp["baseline"]["total"], total);
    assert_eq!(run(&["advise"])["baseline_total"], total);
    let f = run(&["forecast", "--months", "1", "--start", "2027-01"]);
    let tables: std::collections::BTreeSet<&str> = f["months"][0]["line_items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["table"].as_str().unwrap())
        .collect();
    assert_eq!(
        tables.into_iter().collect::<Vec<_>>(),
        ["prod-orders", "prod-sessions"]
    );
    // A Terraform file: imported (its tables named), not a YAML error at `main.tf:1:1`.
    Case::new()
        .args(["compare", "tests/fixtures/iac/terraform/main.tf"])
        .run()
        .code(2)
        .stderr_has("has no scenarios to compare");
    // `--usage` with a workload is refused, as `estimate` refuses it.
    Case::new()
        .args([
            "advise",
            "workloads/cloudshop.yaml",
            "--usage",
            "workloads/iac/orders.usage.yaml",
        ])
        .run()
        .code(2)
        .stderr_has("`--usage` completes a template");
}

#[test]
fn one_usage_file_prices_a_projection_switch_both_ways() {
    // A pull request switching `by-status` from INCLUDE [total] to ALL: the usage file's
    // `projected_size` sizes the INCLUDE side and is left out (with a note) on the ALL side.
    let dir = tempfile::tempdir().unwrap();
    let template =
        std::fs::read_to_string(root().join("workloads/iac/orders.template.yaml")).unwrap();
    let usage = std::fs::read_to_string(root().join("workloads/iac/orders.usage.yaml")).unwrap();
    let include = template.replace(
        "ProjectionType: KEYS_ONLY",
        "ProjectionType: INCLUDE\n            NonKeyAttributes: [total]",
    );
    assert_ne!(include, template);
    let all = template.replace("ProjectionType: KEYS_ONLY", "ProjectionType: ALL");
    let usage = usage.replace(
        "by-status: { key_size: 12 B }",
        "by-status: { key_size: 12 B, projected_size: 20 B }",
    );
    let inc = common::write_file(dir.path(), "inc.template.yaml", &include);
    let all = common::write_file(dir.path(), "all.template.yaml", &all);
    let usage = common::write_file(dir.path(), "orders.usage.yaml", &usage);
    for (old, new) in [(&inc, &all), (&all, &inc)] {
        let out = Case::new()
            .args(["diff", old, new, "--usage", &usage, "--region", "us-east-1"])
            .args(["--format", "json"])
            .run()
            .success();
        assert!(
            out.stderr.contains(
                "`projected_size` of index `prod-orders.by-status` sizes an INCLUDE projection; the template's is `all`"
            ),
            "{}",
            out.stderr
        );
        let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
        let row = doc["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["key"] == "prod-orders/gsi/by-status/storage")
            .unwrap()
            .clone();
        let cost = |v: &serde_json::Value| common::dec(v.as_str().unwrap()).round_dp(6);
        // INCLUDE: 40 B table key + 12 B index key + 20 B projected + 100 B overhead = 172 B
        // × 20 M items = 3.44e9 B / 2^30 = 3.2037… GB × $0.25 = $0.800937.
        // ALL: the item, 1,024 B + 100 B = 1,124 B × 20 M = 2.248e10 B / 2^30 = 20.9361… GB
        // × $0.25 = $5.234033.
        let (before, after) = if old == &inc {
            (common::dec("0.800937"), common::dec("5.234033"))
        } else {
            (common::dec("5.234033"), common::dec("0.800937"))
        };
        assert_eq!(cost(&row["baseline"]), before);
        assert_eq!(cost(&row["scenarios"][0]), after);
    }
}

/// A folder of `.tf` files is a Terraform module, as `terraform plan` and Infracost take it:
/// detected by its files (not taken for a `cdk.out`), each file read, the variables of one
/// seen from the others.
#[test]
fn a_folder_of_tf_files_is_imported_as_terraform() {
    let dir = root().join("tests/fixtures/iac/terraform/before");
    let dir = dir.to_str().unwrap();
    for args in [
        vec!["import", dir],
        vec!["import", "--from", "terraform", dir],
    ] {
        Case::new()
            .args(&args)
            .run()
            .success()
            .stdout_has("(terraform)")
            .stdout_has("  profiles:   #")
            .stdout_has("main.tf:1 aws_dynamodb_table.profiles");
    }
    // A module split over files: the table in one, its variable's default in another.
    let split = tempfile::tempdir().unwrap();
    std::fs::write(
        split.path().join("main.tf"),
        "resource \"aws_dynamodb_table\" \"orders\" {\n  name = \"orders\"\n  billing_mode = \"PROVISIONED\"\n  read_capacity = var.rcu\n  write_capacity = 5\n  hash_key = \"pk\"\n  attribute {\n    name = \"pk\"\n    type = \"S\"\n  }\n}\n",
    )
    .unwrap();
    std::fs::write(
        split.path().join("variables.tf"),
        "variable \"rcu\" {\n  default = 25\n}\n",
    )
    .unwrap();
    Case::new()
        .args(["import", split.path().to_str().unwrap()])
        .run()
        .success()
        .stdout_has("rcu: 25");
    // A folder with no `.tf` file, named as Terraform: said so.
    let empty = tempfile::tempdir().unwrap();
    Case::new()
        .args([
            "import",
            "--from",
            "terraform",
            empty.path().to_str().unwrap(),
        ])
        .run()
        .code(1)
        .stderr_has("holds no `.tf` file");
}
