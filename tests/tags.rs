//! Tags from design to bill: a table's `tags:` (imported from CloudFormation, Terraform and
//! the live `list-tags-of-resource`), `estimate --by tag:KEY` worked by hand from the
//! us-east-1 list prices ($0.125 per million read request units), and the tags carried by
//! the finance CSV and the FOCUS export.

mod common;

use common::{Case, dec, temp_workload, write_file};
use serde_json::Value;

/// Three tables reading 8M strong 1 KB items a month each ($1.00: 8 × $0.125): `pay` and
/// `ledger` tagged `team: payments`, `search` tagged `team: discovery`, `scratch` untagged.
const WORKLOAD: &str = "prices: aws-us-east-1\ntables:\n  pay:\n    tags: { team: payments, env: prod }\n    item_size: 1 KB\n    storage: 0 GB\n    patterns: { get: { op: get, rate: 8M/month, consistency: strong } }\n  ledger:\n    tags: { team: payments }\n    item_size: 1 KB\n    storage: 0 GB\n    patterns: { get: { op: get, rate: 8M/month, consistency: strong } }\n  search:\n    tags: { team: discovery, cost-center: 4711 }\n    item_size: 1 KB\n    storage: 0 GB\n    patterns: { get: { op: get, rate: 8M/month, consistency: strong } }\n  scratch:\n    item_size: 1 KB\n    storage: 0 GB\n    patterns: { get: { op: get, rate: 8M/month, consistency: strong } }\n";

#[test]
fn an_estimate_splits_by_the_value_of_a_tag() {
    let (_dir, path) = temp_workload(WORKLOAD);
    let out = Case::new()
        .args(["estimate", &path, "--by", "tag:team", "--format", "json"])
        .run()
        .success();
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    let cost = |v: &str| {
        doc["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["value"] == v)
            .map(|r| dec(r["cost"].as_str().unwrap()))
    };
    // payments: pay + ledger = 2 × $1.00; discovery: $1.00; scratch untagged: $1.00.
    assert_eq!(cost("payments"), Some(dec("2")));
    assert_eq!(cost("discovery"), Some(dec("1")));
    assert_eq!(cost("(untagged)"), Some(dec("1")));
    assert_eq!(doc["rows"][0]["value"], "discovery");
    assert_eq!(
        doc["rows"][1]["tables"],
        serde_json::json!(["pay", "ledger"])
    );
    // A tag whose value is a number reads as its text.
    Case::new()
        .args(["estimate", &path, "--by", "tag:cost-center"])
        .run()
        .success()
        .stdout_has("4711")
        .stdout_has("│ TOTAL");
    let csv = Case::new()
        .args(["estimate", &path, "--by", "tag:team", "--format", "csv"])
        .run()
        .success();
    assert!(
        csv.stdout
            .starts_with("tag:team,tables,cost,cost_rounded,currency\n")
    );
    assert!(
        csv.stdout.contains("payments,pay ledger,2,2.00,USD"),
        "{}",
        csv.stdout
    );
    Case::new()
        .args(["estimate", &path, "--by", "tag:"])
        .run()
        .code(2)
        .stderr_has("needs the tag's key");
}

#[test]
fn the_finance_csv_and_focus_carry_the_tags() {
    let (_dir, path) = temp_workload(WORKLOAD);
    let out = Case::new()
        .args(["estimate", &path, "--format", "csv"])
        .run()
        .success();
    let (header, rows) = common::csv_table(&out.stdout);
    let tags = common::column(&header, "tags");
    let table = common::column(&header, "table");
    let pay = rows.iter().find(|r| &r[table] == "pay").unwrap();
    let v: Value = serde_json::from_str(&pay[tags]).unwrap();
    assert_eq!(v, serde_json::json!({"team": "payments", "env": "prod"}));
    assert!(rows.iter().find(|r| &r[table] == "scratch").unwrap()[tags].is_empty());
    let out = Case::new()
        .args([
            "estimate", &path, "--format", "focus", "--period", "2026-12",
        ])
        .run()
        .success();
    let (header, rows) = common::csv_table(&out.stdout);
    let tags = common::column(&header, "Tags");
    let name = common::column(&header, "ResourceName");
    let search = rows.iter().find(|r| &r[name] == "search").unwrap();
    let v: Value = serde_json::from_str(&search[tags]).unwrap();
    assert_eq!(v["cost-center"], "4711");
}

#[test]
fn a_tag_past_aws_limits_is_refused_where_it_is_written() {
    let long = "k".repeat(129);
    let (_dir, path) = temp_workload(&WORKLOAD.replace("env: prod", &format!("{long}: x")));
    Case::new()
        .args(["estimate", &path])
        .run()
        .code(1)
        .stderr_has("a tag key has 1 to 128 characters, not 129")
        .stderr_has("tables.pay.tags.");
}

#[test]
fn tags_are_imported_from_templates_and_live_tables() {
    let dir = tempfile::tempdir().unwrap();
    let cfn = write_file(
        dir.path(),
        "t.template.yaml",
        "Resources:\n  Orders:\n    Type: AWS::DynamoDB::Table\n    Properties:\n      TableName: orders\n      BillingMode: PAY_PER_REQUEST\n      AttributeDefinitions: [{ AttributeName: pk, AttributeType: S }]\n      KeySchema: [{ AttributeName: pk, KeyType: HASH }]\n      Tags:\n        - { Key: team, Value: payments }\n        - { Key: env, Value: prod }\n",
    );
    Case::new()
        .args(["import", &cfn, "--region", "us-east-1"])
        .run()
        .success()
        .stdout_has("tags:")
        .stdout_has("team: payments")
        .stdout_has("env: prod");
    let tf = write_file(
        dir.path(),
        "main.tf",
        "resource \"aws_dynamodb_table\" \"orders\" {\n  name         = \"orders\"\n  billing_mode = \"PAY_PER_REQUEST\"\n  hash_key     = \"pk\"\n  attribute {\n    name = \"pk\"\n    type = \"S\"\n  }\n  tags = {\n    team = \"payments\"\n  }\n}\n",
    );
    Case::new()
        .args([
            "import",
            &tf,
            "--from",
            "terraform",
            "--region",
            "us-east-1",
        ])
        .run()
        .success()
        .stdout_has("team: payments");
    let live = dir.path().join("live");
    std::fs::create_dir(&live).unwrap();
    write_file(
        &live,
        "orders.json",
        r#"{"Table":{"TableName":"orders","TableArn":"arn:aws:dynamodb:us-east-1:1:table/orders","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"BillingModeSummary":{"BillingMode":"PAY_PER_REQUEST"},"ProvisionedThroughput":{"ReadCapacityUnits":0,"WriteCapacityUnits":0},"TableSizeBytes":1000,"ItemCount":10}}"#,
    );
    write_file(
        &live,
        "orders.tags.json",
        r#"{"Tags":[{"Key":"team","Value":"payments"}]}"#,
    );
    Case::new()
        .args(["import", live.to_str().unwrap(), "--from", "aws-cli"])
        .run()
        .success()
        .stdout_has("team: payments");
}

/// The CUR 2.0 bill of the four tables, `resource_tags` a JSON map with `user:` keys: pay $3
/// + ledger $2 (payments), search $4 (discovery), scratch $1 (no tags), tax $0.50.
fn tagged_cur() -> String {
    let arn = |t: &str| format!("arn:aws:dynamodb:us-east-1:1:table/{t}");
    format!(
        "line_item_line_item_type,line_item_usage_start_date,line_item_product_code,line_item_usage_type,line_item_resource_id,line_item_usage_amount,line_item_currency_code,line_item_unblended_cost,resource_tags\n\
Usage,2026-11-01T00:00:00Z,AmazonDynamoDB,ReadRequestUnits,{},1,USD,3,\"{{\"\"user:team\"\":\"\"payments\"\"}}\"\n\
Usage,2026-11-01T00:00:00Z,AmazonDynamoDB,WriteRequestUnits,{},1,USD,2,\"{{\"\"user:team\"\":\"\"payments\"\",\"\"user:env\"\":\"\"prod\"\"}}\"\n\
Usage,2026-11-01T00:00:00Z,AmazonDynamoDB,ReadRequestUnits,{},1,USD,4,\"{{\"\"user:team\"\":\"\"discovery\"\"}}\"\n\
Usage,2026-11-01T00:00:00Z,AmazonDynamoDB,ReadRequestUnits,{},1,USD,1,\n\
Tax,2026-11-01T00:00:00Z,AmazonDynamoDB,,,,USD,0.5,\n",
        arn("pay"),
        arn("ledger"),
        arn("search"),
        arn("scratch")
    )
}

#[test]
fn a_bill_groups_by_the_tags_its_rows_state() {
    let dir = tempfile::tempdir().unwrap();
    let arn = |t: &str| format!("arn:aws:dynamodb:us-east-1:1:table/{t}");
    let cur = tagged_cur();
    let file = write_file(dir.path(), "cur.csv", &cur);
    let out = Case::new()
        .args(["bill", &file, "--by", "tag:team", "--format", "json"])
        .run()
        .success();
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    let money = |v: &str| {
        doc["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["value"] == v)
            .map(|r| dec(r["unblended"].as_str().unwrap()))
    };
    // payments 3 + 2 = 5; discovery 4; untagged 1; the tax is the account's: 0.5.
    assert_eq!(money("payments"), Some(dec("5")));
    assert_eq!(money("discovery"), Some(dec("4")));
    assert_eq!(money("(untagged)"), Some(dec("1")));
    assert_eq!(money("(account)"), Some(dec("0.5")));
    assert_eq!(
        dec(doc["total"]["unblended"].as_str().unwrap()),
        dec("10.5")
    );
    // The legacy CUR: one column per tag.
    let legacy = format!(
        "lineItem/LineItemType,lineItem/UsageStartDate,lineItem/ProductCode,lineItem/UsageType,lineItem/ResourceId,lineItem/UsageAmount,lineItem/CurrencyCode,lineItem/UnblendedCost,resourceTags/user:team\n\
Usage,2026-11-01T00:00:00Z,AmazonDynamoDB,ReadRequestUnits,{},1,USD,3,payments\n\
Usage,2026-11-01T00:00:00Z,AmazonDynamoDB,ReadRequestUnits,{},1,USD,4,\n",
        arn("pay"),
        arn("search")
    );
    let file = write_file(dir.path(), "legacy.csv", &legacy);
    Case::new()
        .args(["bill", &file, "--by", "tag:team", "--format", "csv"])
        .run()
        .success()
        .stdout_has("payments,pay,3,3,3.00,3.00,USD")
        .stdout_has("(untagged),search,4,4,4.00,4.00,USD");
    // Tags that are not a JSON object are refused at their row.
    let broken = cur.replacen("\"{\"\"user:team\"\":\"\"payments\"\"}\"", "oops", 1);
    let file = write_file(dir.path(), "broken.csv", &broken);
    Case::new()
        .args(["bill", &file, "--by", "tag:team"])
        .run()
        .code(1)
        .stderr_has("row 1: `resource_tags` is not a JSON object of tags");
    Case::new()
        .args(["bill", &file, "--by", "team"])
        .run()
        .code(2)
        .stderr_has("expected tag:KEY");
}

#[test]
fn reconcile_sets_each_tag_value_s_estimate_beside_its_bill() {
    let dir = tempfile::tempdir().unwrap();
    let file = write_file(dir.path(), "cur.csv", &tagged_cur());
    // The budget before deploy against the bill after: the workload's payments tables were
    // estimated at $2.00 ($1.00 each, priced for November's 720 hours: the rates are a
    // month's, so the same) and billed $3 + $2 = $5: +$3.00, +150 %; discovery $1.00 against
    // $4: +$3.00, +300 %; untagged $1.00 against $1: 0; the account's $0.50 tax, only billed.
    let (_w, workload) = temp_workload(WORKLOAD);
    let out = Case::new()
        .args([
            "reconcile",
            &workload,
            "--bill",
            &file,
            "--by",
            "tag:team",
            "--format",
            "json",
        ])
        .run()
        .success();
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(doc["schema"], "ddbcost.reconcile-tags/v1");
    let row = |v: &str| {
        doc["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["value"] == v)
            .unwrap_or_else(|| panic!("no {v}: {doc}"))
            .clone()
    };
    let f = |v: &Value| dec(v.as_str().unwrap());
    assert_eq!(f(&row("payments")["estimated"]), dec("2"));
    assert_eq!(f(&row("payments")["unblended"]), dec("5"));
    assert_eq!(f(&row("payments")["variance"]), dec("3"));
    assert_eq!(f(&row("payments")["variance_percent"]), dec("150"));
    assert_eq!(f(&row("discovery")["variance_percent"]), dec("300"));
    assert_eq!(f(&row("(untagged)")["variance"]), dec("0"));
    assert_eq!(row("(account)")["estimated"], Value::Null);
    assert_eq!(f(&row("(account)")["unblended"]), dec("0.5"));
    Case::new()
        .args(["reconcile", &workload, "--bill", &file, "--by", "tag:team"])
        .run()
        .success()
        .stdout_has("the 2026-11 bill by tag `team`, estimate beside bill")
        .stdout_has("+150 %");
    let csv = Case::new()
        .args([
            "reconcile",
            &workload,
            "--bill",
            &file,
            "--by",
            "tag:team",
            "--format",
            "csv",
        ])
        .run()
        .success()
        .stdout;
    assert!(csv.starts_with(
        "billing_period,currency,tag_key,tag_value,estimated,unblended,effective,variance
"
    ));
    assert!(
        csv.contains(
            "2026-11,USD,team,payments,2,5,5,3
"
        ),
        "{csv}"
    );
}

#[test]
fn compare_shows_each_tag_value_moving() {
    let (_dir, path) = temp_workload(WORKLOAD);
    // Eventual reads on `search` halve its $1.00: discovery 1.00 → 0.50.
    let out = Case::new()
        .args([
            "compare",
            &path,
            "--set",
            "tables.search.patterns.get.consistency=eventual",
            "--by",
            "tag:team",
            "--format",
            "csv",
        ])
        .run()
        .success();
    assert!(
        out.stdout.contains(",discovery,baseline,1,,USD"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains(",discovery,--set,0.5,-0.5,USD"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains(",payments,--set,2,0,USD"),
        "{}",
        out.stdout
    );
}

#[test]
fn a_parquet_bill_gives_its_resource_tags_map() {
    let Some(python) = common::duckdb_python() else {
        common::skip_without(
            "duckdb",
            "writes a CUR 2.0 Parquet file with a resource_tags MAP",
        );
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let pq = dir.path().join("cur.parquet");
    // Two tables as Data Exports writes them: `resource_tags` a MAP(VARCHAR, VARCHAR).
    let script = format!(
        "import duckdb\ncon = duckdb.connect()\ncon.execute(\"\"\"COPY (SELECT * FROM (VALUES
 ('Usage', TIMESTAMP '2026-11-01 00:00:00', 'AmazonDynamoDB', 'ReadRequestUnits', 'arn:aws:dynamodb:us-east-1:1:table/pay', 1.0, 'USD', 3.0, MAP {{'user:team': 'payments'}}),
 ('Usage', TIMESTAMP '2026-11-01 00:00:00', 'AmazonDynamoDB', 'ReadRequestUnits', 'arn:aws:dynamodb:us-east-1:1:table/search', 1.0, 'USD', 4.0, MAP {{'user:team': 'discovery'}}),
 ('Usage', TIMESTAMP '2026-11-01 00:00:00', 'AmazonDynamoDB', 'ReadRequestUnits', 'arn:aws:dynamodb:us-east-1:1:table/scratch', 1.0, 'USD', 1.0, NULL)
) AS t(line_item_line_item_type, line_item_usage_start_date, line_item_product_code, line_item_usage_type, line_item_resource_id, line_item_usage_amount, line_item_currency_code, line_item_unblended_cost, resource_tags)) TO '{}' (FORMAT PARQUET)\"\"\")\n",
        pq.display()
    );
    let status = std::process::Command::new(&python)
        .args(["-c", &script])
        .status()
        .unwrap();
    assert!(status.success(), "duckdb wrote the Parquet file");
    // payments $3, discovery $4, scratch (no tags) $1.
    Case::new()
        .args([
            "bill",
            pq.to_str().unwrap(),
            "--by",
            "tag:team",
            "--format",
            "csv",
        ])
        .run()
        .success()
        .stdout_has("discovery,search,4,4,4.00,4.00,USD")
        .stdout_has("payments,pay,3,3,3.00,3.00,USD")
        .stdout_has("(untagged),scratch,1,1,1.00,1.00,USD");
}
