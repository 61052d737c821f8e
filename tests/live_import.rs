//! `ddbcost import` of live tables: the AWS CLI's JSON (`describe-table` and its neighbours)
//! becomes a workload whose measured figures are stated, with their source and date, and
//! whatever no file describes is said, never taken as off. Fixtures: `tests/fixtures/live/`,
//! built from the shapes in DESIGN.md §8 (two tables: `orders` on demand with a GSI, a
//! stream, a replica, PITR, TTL and two backups; `events` provisioned and auto scaled, with
//! an LSI, described by nothing else).

mod common;

use common::{Case, dec, root, write_file};

const LIVE: &str = "tests/fixtures/live/";

fn imported() -> String {
    Case::new().args(["import", LIVE]).run().success().stdout
}

#[test]
fn a_folder_of_cli_outputs_becomes_a_workload_with_its_measured_figures() {
    let yaml = imported();
    let (w, _) = ddbcost::api::load(&yaml, "live.yaml").expect("the imported workload loads");
    let table = |n: &str| w.tables.iter().find(|t| *t.name == *n).unwrap();
    let (orders, events) = (table("orders"), table("events"));
    // ItemCount, stated as items.
    assert!(
        yaml.contains("items: 41000000   # measured: ItemCount as of "),
        "{yaml}"
    );
    // 52,428,800,000 B ÷ 41,000,000 items = 1,278.7512… B, rounded to 1,278.75 B.
    assert!(
        yaml.contains(
            "item_size: 1278.75 B   # measured: TableSizeBytes 52428800000 ÷ ItemCount 41000000"
        ),
        "{yaml}"
    );
    // 10,737,418,240 B ÷ 25,000,000 = 429.4967… B → 429.5 B.
    assert!(yaml.contains("item_size: 429.5 B"), "{yaml}");
    // An index's measured entry: 3,200,000,000 B ÷ 40,000,000 = 80 B (no key or projected
    // size to fill); the LSI's 900,000,000 ÷ 25,000,000 = 36 B.
    assert!(yaml.contains("entry_size: 80 B"), "{yaml}");
    assert!(yaml.contains("entry_size: 36 B"), "{yaml}");
    assert!(!yaml.contains("projected_size"), "{yaml}");
    assert!(!yaml.contains("key_size"), "{yaml}");
    // The structure: on demand with a read maximum, the stream, TTL, PITR, the replica (the
    // table's own region left out), two backups (the third, still CREATING, left out).
    for line in [
        "mode: on-demand",
        "max_read_units: 40000",
        "view: new-and-old-images",
        "ttl_attribute: expires_at",
        "pitr: true",
        "replicas: [us-east-2]",
        "retained: 2   # measured: on-demand backups listed as of ",
        ": 104400000000 B in all",
        "min_rcu: 100",
        "max_wcu: 4000",
        "target_wcu: 50.0%",
        "prices: aws-us-east-1",
    ] {
        assert!(yaml.contains(line), "{line}\n{yaml}");
    }
    assert!(orders.pitr && !events.pitr);
    assert_eq!(orders.replicas, ["us-east-2"]);
    assert_eq!(&*events.indexes[0].name, "by-kind");
}

#[test]
fn what_no_file_describes_is_said() {
    let out = Case::new().args(["import", LIVE]).run().success();
    for said in [
        "events: PITR not described (no `aws dynamodb describe-continuous-backups` output)",
        "events: TTL not described",
        "events: Kinesis streaming not described",
        "events: backups not described",
        "orders: warm throughput 12000 reads and 4000 writes a second: stated, not priced",
    ] {
        assert!(out.stderr.contains(said), "{said}\n{}", out.stderr);
        // And in the file's header, for whoever reads it later.
        assert!(out.stdout.contains(said), "{said}");
    }
    assert!(
        !out.stderr.contains("orders: PITR not described"),
        "{}",
        out.stderr
    );
}

#[test]
fn the_measured_workload_prices_its_storage_as_measured() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_file(dir.path(), "live.yaml", &imported());
    let out = Case::new()
        .args(["estimate", &path, "--format", "json"])
        .run()
        .success();
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let line = |key: &str| {
        doc["line_items"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["key"] == key)
            .unwrap_or_else(|| panic!("no {key}"))
            .clone()
    };
    let cost = |key: &str| dec(line(key)["cost"].as_str().unwrap());
    // us-east-1, Standard: storage $0.25 per GB-month, PITR $0.20, backups $0.10.
    // events: TableSizeBytes 10,737,418,240 B = 10 GB (2^30) × 0.25 = $2.50, observed.
    assert_eq!(cost("events/storage"), dec("2.5"));
    assert_eq!(line("events/storage")["basis"], "observed");
    // orders: 52,428,800,000 B = 48.828125 GB × 0.25 = $12.20703125.
    assert_eq!(cost("orders/storage"), dec("12.20703125"));
    // The GSI: 3,200,000,000 B ÷ 2^30 × 0.25; PITR 48.828125 × 0.20 = $9.765625.
    assert_eq!(
        cost("orders/gsi/by-status/storage"),
        dec("3200000000") / dec("1073741824") * dec("0.25")
    );
    assert_eq!(cost("orders/pitr"), dec("9.765625"));
    // Two backups of the table: 2 × 48.828125 GB × 0.10 = $9.765625.
    assert_eq!(cost("orders/backups"), dec("9.765625"));
    // events auto scaled with no traffic yet: at its minimum, 100 RCU × 730 h × $0.00013 =
    // $9.49 and 500 WCU × 730 h × $0.00065 = $237.25.
    assert_eq!(cost("events/reads"), dec("9.49"));
    assert_eq!(cost("events/writes"), dec("237.25"));
    // The patterns are what a description cannot know: orders' requests depend on usage.
    assert!(line("orders/reads")["cost"].is_null());
}

#[test]
fn one_describe_table_is_a_live_import_alone_or_with_from() {
    for args in [
        vec!["import", "tests/fixtures/live/events.describe-table.json"],
        vec![
            "import",
            "--from",
            "aws-cli",
            "tests/fixtures/live/events.describe-table.json",
        ],
    ] {
        let out = Case::new().args(&args).run().success();
        assert!(out.stdout.contains("(aws-cli)"), "{}", out.stdout);
        assert!(out.stdout.contains("mode: provisioned"), "{}", out.stdout);
        // Without its scalable targets, the describe-table's own units: 400 RCU, 1,200 WCU.
        assert!(out.stdout.contains("rcu: 400"), "{}", out.stdout);
        assert!(out.stdout.contains("wcu: 1200"), "{}", out.stdout);
    }
}

#[test]
fn the_table_class_and_a_table_always_provisioned_are_read() {
    use ddbcost::api::import::{Billing, Dim, Options, Source, template_text};
    // No BillingModeSummary: a table that was always provisioned.
    let text = r#"{"Table": {"TableName": "t", "TableStatus": "ACTIVE",
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
        "ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 7},
        "TableClassSummary": {"TableClass": "STANDARD_INFREQUENT_ACCESS"},
        "TableSizeBytes": 0, "ItemCount": 0}}"#;
    let i = template_text(Source::Live, text, "t.json", &Options::default()).unwrap();
    let t = &i.tables[0];
    assert!(t.standard_ia);
    assert!(matches!(
        &t.billing,
        Billing::Provisioned { read: Some(Dim::Fixed(r)), write: Some(Dim::Fixed(w)) } if r == "5" && w == "7"
    ));
}

#[test]
fn refusals_name_the_file_and_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let deleting = write_file(
        d,
        "gone.json",
        r#"{"Table": {"TableName": "gone", "TableStatus": "DELETING", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}]}}"#,
    );
    Case::new()
        .args(["import", &deleting])
        .run()
        .code(1)
        .stderr_has("table `gone` is being deleted (TableStatus DELETING)")
        .stderr_has("gone.json");
    // Two tables and a file that names none, named after neither: which one?
    let orders = root().join(LIVE).join("orders.describe-table.json");
    let events = root().join(LIVE).join("events.describe-table.json");
    let pitr = write_file(
        d,
        "pitr.json",
        r#"{"ContinuousBackupsDescription": {"PointInTimeRecoveryDescription": {"PointInTimeRecoveryStatus": "ENABLED"}}}"#,
    );
    Case::new()
        .args([
            "import",
            orders.to_str().unwrap(),
            events.to_str().unwrap(),
            &pitr,
        ])
        .run()
        .code(1)
        .stderr_has("names no table, and 2 tables were read: which one does it describe?")
        .stderr_has("orders.continuous-backups.json");
    // A Kinesis destination of a table nobody described.
    let kinesis = write_file(
        d,
        "k.json",
        r#"{"TableName": "nobody", "KinesisDataStreamDestinations": []}"#,
    );
    Case::new()
        .args(["import", orders.to_str().unwrap(), &kinesis])
        .run()
        .code(1)
        .stderr_has("table `nobody` is not described by any describe-table given");
    // Companions alone: no describe-table.
    Case::new()
        .args(["import", "--from", "aws-cli", &kinesis])
        .run()
        .code(1)
        .stderr_has("no describe-table among the AWS CLI outputs given");
    // JSON that is no CLI output, forced as one.
    let other = write_file(d, "other.json", r#"{"Items": []}"#);
    Case::new()
        .args(["import", "--from", "aws-cli", &other])
        .run()
        .code(1)
        .stderr_has("not an AWS CLI output ddbcost reads");
    // A count that is not a whole number.
    let fraction = write_file(
        d,
        "f.json",
        r#"{"Table": {"TableName": "f", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}], "ItemCount": -3}}"#,
    );
    Case::new()
        .args(["import", &fraction])
        .run()
        .code(1)
        .stderr_has("Table(f).ItemCount: `-3` is not a whole, non-negative count");
}
