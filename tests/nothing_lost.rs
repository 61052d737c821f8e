//! Nothing lost, nothing guessed (#23 §3): counts that must add up, keys that must exist,
//! figures a merge must not accept.

mod common;

use common::{CFN_TABLE_PROPS as CFN_TABLE, Case, write_file as write};

/// The JSON a successful run of `args` prints.
fn json_of(args: &[&str]) -> serde_json::Value {
    let out = Case::new().args(args).run().success();
    serde_json::from_str(&out.stdout).unwrap()
}

#[test]
fn keys_with_no_value_counted_is_no_data_not_well_spread() {
    let dir = tempfile::tempdir().unwrap();
    let items = write(
        dir.path(),
        "items.json",
        "{\"pk\":{\"S\":\"a\"}}\n{\"pk\":{\"S\":\"b\"}}\n",
    );
    // `--key PK` where the items hold `pk`: nothing counted.
    let out = Case::new()
        .args(["keys", &items, "--key", "PK"])
        .run()
        .code(1)
        .stderr_has("no item held a value of `PK`: no data to judge its spread");
    assert!(!out.stdout.contains("well spread"), "{}", out.stdout);
}

#[test]
fn keys_an_empty_key_in_a_log_is_not_a_value() {
    let dir = tempfile::tempdir().unwrap();
    let items = write(dir.path(), "items.json", "{\"pk\":{\"S\":\"a\"}}\n");
    let log = write(dir.path(), "log.csv", "pk,operation\na,GetItem\n,GetItem\n");
    Case::new()
        .args([
            "keys",
            &items,
            "--key",
            "pk",
            "--log",
            &log,
            "--log-key",
            "pk",
        ])
        .run()
        .code(1)
        .stderr_has("the line has no `pk` (the key value)")
        .stderr_has("log.csv:3:1");
}

#[test]
fn keys_merge_refuses_a_summary_whose_totals_disagree_with_its_values() {
    let dir = tempfile::tempdir().unwrap();
    let items = write(
        dir.path(),
        "items.json",
        "{\"pk\":{\"S\":\"a\"}}\n{\"pk\":{\"S\":\"b\"}}\n{\"pk\":{\"S\":\"b\"}}\n",
    );
    let out = Case::new()
        .args(["keys", &items, "--key", "pk", "--format", "json"])
        .run()
        .success();
    let good = write(dir.path(), "good.json", &out.stdout);
    // Two summaries of 3 items merge to 6 (a: 2, b: 4).
    let doc = json_of(&["keys", "--merge", &good, &good, "--format", "json"]);
    assert_eq!(doc["items"], 6);
    let mut edited: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    edited["items"] = serde_json::json!(30);
    let bad = write(dir.path(), "bad.json", &edited.to_string());
    Case::new()
        .args(["keys", "--merge", &good, &bad])
        .run()
        .code(1)
        .stderr_has("its `pk` values hold 3 item(s) and 0 are without it, but its `items` is 30");
}

fn fixture(rel: &str) -> String {
    common::root()
        .join("tests/fixtures/iac")
        .join(rel)
        .to_string_lossy()
        .into_owned()
}

#[test]
fn tf_count_for_each_variables_and_locals_give_every_instance() {
    let out = Case::new()
        .args(["import", &fixture("terraform/counts.tf")])
        .run()
        .success();
    let names: Vec<&str> = out
        .stdout
        .lines()
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.trim().split(':').next())
        .collect();
    // `"${local.prefix}-orders"` with `prefix = "${var.env}-shop"` and `env`'s default `prod`;
    // `count = 3` → three; `count = 0` → none; `var.enabled ? 1 : 0` with `enabled = true` →
    // one; `for_each` over a set and a map → one per key.
    assert_eq!(
        names,
        [
            "prod-shop-orders",
            "shard-0",
            "shard-1",
            "shard-2",
            "maybe",
            "each-a",
            "each-b",
            "e2-x-1",
            "e2-y-2"
        ],
        "{}",
        out.stdout
    );
    assert!(
        out.stderr.contains("`count` is 0: no table is created"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr
            .contains("a `dynamic \"global_secondary_index\"` block is expanded only by Terraform"),
        "{}",
        out.stderr
    );
    // `--parameter` sets a variable as `-var` does: the conditional turns the table off.
    let out = Case::new()
        .args([
            "import",
            &fixture("terraform/counts.tf"),
            "--parameter",
            "enabled=false",
            "--parameter",
            "env=qa",
        ])
        .run()
        .success();
    assert!(out.stdout.contains("  qa-shop-orders:"), "{}", out.stdout);
    assert!(!out.stdout.contains("  maybe:"), "{}", out.stdout);
}

#[test]
fn tf_a_count_that_cannot_be_read_is_said_never_taken_as_one() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "main.tf",
        "resource \"aws_dynamodb_table\" \"t\" {\n  count = length(var.regions)\n  name = \"orders\"\n  billing_mode = var.mode\n  read_capacity = 5\n  write_capacity = 5\n  hash_key = \"pk\"\n  attribute {\n    name = \"pk\"\n    type = \"S\"\n  }\n}\n",
    );
    let out = Case::new().args(["import", &file]).run().success();
    assert!(
        out.stderr
            .contains("`count` is not a number ddbcost can read"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr
            .contains("the billing mode is not known here: priced as PROVISIONED"),
        "{}",
        out.stderr
    );
}

#[test]
fn tf_variables_come_from_tfvars_beside_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "main.tf",
        "variable \"env\" {\n  default = \"dev\"\n}\nresource \"aws_dynamodb_table\" \"t\" {\n  name = \"${var.env}-orders\"\n  billing_mode = \"PAY_PER_REQUEST\"\n  hash_key = \"pk\"\n  attribute {\n    name = \"pk\"\n    type = \"S\"\n  }\n}\n",
    );
    let out = Case::new().args(["import", &file]).run().success();
    assert!(out.stdout.contains("  dev-orders:"), "{}", out.stdout);
    write(dir.path(), "terraform.tfvars", "env = \"stage\"\n");
    let out = Case::new().args(["import", &file]).run().success();
    assert!(out.stdout.contains("  stage-orders:"), "{}", out.stdout);
    write(dir.path(), "z.auto.tfvars", "env = \"prod\"\n");
    let out = Case::new().args(["import", &file]).run().success();
    assert!(out.stdout.contains("  prod-orders:"), "{}", out.stdout);
}

#[test]
fn cfn_a_parameter_named_with_the_wrong_case_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "t.yaml",
        &format!(
            "Parameters:\n  Env: {{Type: String, Default: dev, AllowedValues: [dev, prod]}}\nResources:\n  Orders:\n    Type: AWS::DynamoDB::Table\n    Properties:\n      TableName: !Sub 'orders-${{Env}}'\n{CFN_TABLE}"
        ),
    );
    Case::new()
        .args(["import", &file, "--parameter", "env=prod"])
        .run()
        .code(2)
        .stderr_has("--parameter `env`: the template has no such parameter")
        .stderr_has("Consider `--parameter Env=…`");
    // A value outside AllowedValues is refused, naming them.
    Case::new()
        .args(["import", &file, "--parameter", "Env=staging"])
        .run()
        .code(2)
        .stderr_has(
            "parameter `Env` = `staging` (--parameter) is not one of its AllowedValues: dev, prod",
        );
    Case::new()
        .args(["import", &file, "--parameter", "Env=prod"])
        .run()
        .success()
        .stdout_has("  orders-prod:");
}

#[test]
fn cfn_no_value_removes_the_property_and_a_region_that_is_no_region_is_said() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "t.yaml",
        "Parameters:\n  Region: {Type: String, Default: none}\nResources:\n  Orders:\n    Type: AWS::DynamoDB::GlobalTable\n    Properties:\n      TableName: !Ref AWS::NoValue\n      BillingMode: PAY_PER_REQUEST\n      AttributeDefinitions: [{AttributeName: pk, AttributeType: S}]\n      KeySchema: [{AttributeName: pk, KeyType: HASH}]\n      Replicas:\n        - Region: us-east-1\n        - Region: !Ref Region\n",
    );
    let out = Case::new()
        .args(["import", &file, "--region", "us-east-1"])
        .run()
        .success();
    // No name: the logical id names it (no "\u0000AWS::NoValue" anywhere).
    assert!(out.stdout.contains("  Orders:"), "{}", out.stdout);
    assert!(!out.stdout.contains("NoValue"), "{}", out.stdout);
    assert!(
        out.stderr
            .contains("replica region `none` is not an AWS region code"),
        "{}",
        out.stderr
    );
}

#[test]
fn sam_a_primary_key_that_cannot_be_evaluated_is_not_the_default() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "template.yaml",
        "Transform: AWS::Serverless-2016-10-31\nResources:\n  Sessions:\n    Type: AWS::Serverless::SimpleTable\n    Properties:\n      PrimaryKey: !ImportValue shared-key\n  Plain:\n    Type: AWS::Serverless::SimpleTable\n",
    );
    let out = Case::new().args(["import", &file]).run().success();
    let sessions = out.stdout.split("  Sessions:").nth(1).unwrap_or_default();
    let sessions = sessions.split("  Plain:").next().unwrap_or_default();
    assert!(!sessions.contains("partition: id"), "{}", out.stdout);
    assert!(
        out.stderr
            .contains("Resources.Sessions.Properties.PrimaryKey"),
        "{}",
        out.stderr
    );
    // Without a PrimaryKey, SAM's own default `id` (String).
    let plain = out.stdout.split("  Plain:").nth(1).unwrap_or_default();
    assert!(plain.contains("partition: id"), "{}", out.stdout);
}

#[test]
fn cfn_a_kinesis_destination_with_a_getatt_arn_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "t.yaml",
        &format!(
            "Resources:\n  Stream:\n    Type: AWS::Kinesis::Stream\n  Orders:\n    Type: AWS::DynamoDB::Table\n    Properties:\n      TableName: orders\n      KinesisStreamSpecification:\n        StreamArn: !GetAtt Stream.Arn\n{CFN_TABLE}"
        ),
    );
    let out = Case::new().args(["import", &file]).run().success();
    assert!(out.stdout.contains("kinesis_cdc: true"), "{}", out.stdout);
    assert!(
        out.stderr
            .contains("the Kinesis streaming destination is kept"),
        "{}",
        out.stderr
    );
}

#[test]
fn a_cloudformation_template_saved_as_tf_is_read_as_cloudformation() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "stack.tf",
        &format!(
            "AWSTemplateFormatVersion: '2010-09-09'\nResources:\n  Orders:\n    Type: AWS::DynamoDB::Table\n    Properties:\n      TableName: orders\n{CFN_TABLE}"
        ),
    );
    let out = Case::new().args(["import", &file]).run().success();
    assert!(out.stdout.contains("(cloudformation)"), "{}", out.stdout);
    assert!(out.stdout.contains("  orders:"), "{}", out.stdout);
}

#[test]
fn help_that_misleads_every_traffic_example_a_message_shows_loads() {
    // The examples the traffic-profile errors suggest are workloads the loader accepts.
    for traffic in [
        "{ peak: { times_average: 3, hours: 4, start: 18 } }",
        "{ flat: true }",
    ] {
        let text = format!(
            "prices: aws-us-east-1\ntables:\n  t:\n    item_size: 1 KB\n    traffic: {traffic}\n    patterns:\n      p: {{ op: put, rate: 1/s }}\n"
        );
        let (_dir, path) = common::temp_workload(&text);
        Case::new().args(["estimate", &path]).run().success();
    }
    // `flat: false` says nothing about the profile: refused, not read as flat.
    let text = "prices: aws-us-east-1\ntables:\n  t:\n    item_size: 1 KB\n    traffic: { flat: false }\n    patterns:\n      p: { op: put, rate: 1/s }\n";
    let (_dir, path) = common::temp_workload(text);
    Case::new()
        .args(["estimate", &path])
        .run()
        .code(1)
        .stderr_has("`flat: false` does not say how the traffic spreads")
        .stderr_has("times_average: 3");
    // A profile with two kinds suggests the accepted form.
    let text = "prices: aws-us-east-1\ntables:\n  t:\n    item_size: 1 KB\n    traffic: { flat: true, hourly: [1] }\n    patterns:\n      p: { op: put, rate: 1/s }\n";
    let (_dir, path) = common::temp_workload(text);
    let out = Case::new().args(["estimate", &path]).run().code(1);
    assert!(!out.stderr.contains("multiplier: 3"), "{}", out.stderr);
}

#[test]
fn help_that_misleads_init_suggests_what_fits_the_mode() {
    // us-west-1's bundled table has replicated writes only: on-demand is already the mode.
    let out = Case::new()
        .args(["init", "--region", "us-west-1"])
        .run()
        .code(2);
    assert!(!out.stderr.contains("--mode on-demand"), "{}", out.stderr);
    assert!(out.stderr.contains("another region"), "{}", out.stderr);
    Case::new()
        .args(["init", "--region", "eu-central-1", "--mode", "provisioned"])
        .run()
        .code(2)
        .stderr_has("Consider `--mode on-demand`");
}

#[test]
fn an_imported_on_demand_table_without_traffic_depends_on_usage_not_zero() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "t.yaml",
        &format!(
            "Resources:\n  Orders:\n    Type: AWS::DynamoDB::Table\n    Properties:\n      TableName: orders\n{CFN_TABLE}"
        ),
    );
    let doc = json_of(&[
        "estimate",
        &file,
        "--prices",
        "aws-us-east-1",
        "--format",
        "json",
    ]);
    // Reads and writes are lines of their own, at $0.125 / $0.625 per million, quantity unknown.
    for (key, price) in [("orders/reads", "0.125"), ("orders/writes", "0.625")] {
        let line = common::json_line(&doc, key);
        assert!(line["quantity"].is_null(), "{line}");
        assert_eq!(line["unit_price"], price, "{line}");
    }
    // …and the patterns are a placeholder to fill, as the items are.
    let import = Case::new().args(["import", &file]).run().success();
    assert!(
        import.stdout.contains("patterns: TODO"),
        "{}",
        import.stdout
    );
    assert!(
        import.stderr.contains("tables.orders.patterns"),
        "{}",
        import.stderr
    );
    // A hand-written `patterns: {}` is a table without requests: no request lines.
    let (_d, path) = common::temp_workload(
        "prices: aws-us-east-1\ntables:\n  t:\n    items: 1\n    item_size: 1 KB\n    patterns: {}\n",
    );
    let out = Case::new()
        .args(["estimate", &path, "--format", "json"])
        .run()
        .success();
    assert!(!out.stdout.contains("\"t/reads\""), "{}", out.stdout);
    // Anything else than a map or `TODO` is refused.
    let (_d, path) = common::temp_workload(
        "prices: aws-us-east-1\ntables:\n  t:\n    items: 1\n    item_size: 1 KB\n    patterns: none\n",
    );
    Case::new()
        .args(["estimate", &path])
        .run()
        .code(1)
        .stderr_has("is not a map of access patterns (or `TODO`)");
}

#[test]
fn a_scenario_that_would_do_nothing_is_an_error_naming_what_overrides_it() {
    // Per-dimension targets (as `import` writes them) leave `target` nothing to set.
    let (_d, path) = common::temp_workload(
        "prices: aws-us-east-1\ntables:\n  t:\n    item_size: 1 KB\n    capacity:\n      mode: provisioned\n      auto_scaling: { min_rcu: 5, max_rcu: 100, min_wcu: 5, max_wcu: 100, target_rcu: 70%, target_wcu: 70% }\n    patterns:\n      p: { op: put, rate: 10/s }\n",
    );
    Case::new()
        .args([
            "compare",
            &path,
            "--set",
            "tables.t.capacity.auto_scaling.target=50%",
        ])
        .run()
        .code(1)
        .stderr_has("`target` applies to neither dimension: `target_rcu` sets its own and `target_wcu` sets its own")
        .stderr_has("tables.t.capacity.auto_scaling.target");
    // With one dimension fixed and the other with its own target, the same.
    let (_d, path) = common::temp_workload(
        "prices: aws-us-east-1\ntables:\n  t:\n    item_size: 1 KB\n    capacity:\n      mode: provisioned\n      rcu: 5\n      auto_scaling: { target: 50%, target_wcu: 70% }\n    patterns:\n      p: { op: put, rate: 10/s }\n",
    );
    Case::new()
        .args(["estimate", &path])
        .run()
        .code(1)
        .stderr_has("`rcu` is fixed and `target_wcu` sets its own");
}

#[test]
fn diff_names_every_gate_crossed() {
    // 1 put/s → 2 put/s at $0.625 per M WRU: $1.6425 → $3.285 a month (2,628,000 s × 1 WRU).
    let before = "prices: aws-us-east-1\ntables:\n  t:\n    item_size: 1 KB\n    patterns:\n      p: { op: put, rate: 1/s }\n";
    let (_a, old) = common::temp_workload(before);
    let (_b, new) = common::temp_workload(&before.replace("rate: 1/s", "rate: 2/s"));
    let out = Case::new()
        .args([
            "diff",
            &old,
            &new,
            "--fail-above",
            "3",
            "--fail-increase",
            "50",
        ])
        .run()
        .code(3);
    // Both: $3.29 is above $3.00, and +100 % is more than 50 %.
    assert!(
        out.stderr
            .contains("the new monthly total 3.29 USD is above the limit of 3.00 USD; and the monthly total rises 100 % (1.64 → 3.29 USD), more than the 50 % allowed"),
        "{}",
        out.stderr
    );
}

/// A provisioned capacity a template does not resolve (a parameter without a default, a
/// variable) is kept as `TODO`, with the template position, instead of failing the import at
/// a line of a workload the user never sees; the other dimension, the table and its indexes
/// are kept, and `estimate` prices what is known.
#[test]
fn an_unresolved_provisioned_capacity_is_a_placeholder_naming_the_template_position() {
    let dir = tempfile::tempdir().unwrap();
    let cfn = write(
        dir.path(),
        "t.yaml",
        "Parameters:
  ReadCap: { Type: Number }
  IndexRead: { Type: Number }
Resources:
  Orders:
    Type: AWS::DynamoDB::Table
    Properties:
      TableName: orders
      AttributeDefinitions:
        - { AttributeName: pk, AttributeType: S }
        - { AttributeName: st, AttributeType: S }
      KeySchema: [{ AttributeName: pk, KeyType: HASH }]
      ProvisionedThroughput:
        ReadCapacityUnits: !Ref ReadCap
        WriteCapacityUnits: 5
      GlobalSecondaryIndexes:
        - IndexName: by-status
          KeySchema: [{ AttributeName: st, KeyType: HASH }]
          Projection: { ProjectionType: ALL }
          ProvisionedThroughput:
            ReadCapacityUnits: !Ref IndexRead
            WriteCapacityUnits: 3
",
    );
    let out = Case::new()
        .args(["import", &cfn, "--region", "us-east-1"])
        .run()
        .success()
        .stderr_has("placeholder(s) to fill: tables.orders.capacity.rcu")
        .stderr_has("tables.orders.indexes.by-status.rcu");
    // The placeholder's comment names the template position and the parameter to give.
    assert!(
        out.stdout.contains("rcu: TODO   # not resolved: ")
            && out
                .stdout
                .contains("t.yaml:14: Resources.Orders.Properties.ProvisionedThroughput.ReadCapacityUnits: parameter `ReadCap` has no default (give it with `--parameter ReadCap=VALUE`)"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("wcu: 5") && out.stdout.contains("wcu: 3"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains("GlobalSecondaryIndexes[0].ProvisionedThroughput.ReadCapacityUnits")
    );
    // Priced: the fixed WCU (5 + 3) × 730 h × $0.00065 = $3.796; the reads depend on the
    // placeholders.
    let doc = json_of(&[
        "estimate",
        &cfn,
        "--prices",
        "aws-us-east-1",
        "--format",
        "json",
    ]);
    assert_eq!(doc["total"], "3.796");
    let reads = common::json_line(&doc, "orders/reads");
    assert!(
        reads["cost"].is_null() && reads["quantity"].is_null(),
        "{reads}"
    );
    assert!(
        doc["excluded"]
            .to_string()
            .contains("orders/gsi/by-status/reads")
    );
    // `--strict` refuses a workload with placeholders; a parameter given resolves it.
    Case::new()
        .args(["estimate", &cfn, "--prices", "aws-us-east-1", "--strict"])
        .run()
        .code(1)
        .stderr_has("tables.orders.capacity.rcu");
    let doc = json_of(&[
        "estimate",
        &cfn,
        "--prices",
        "aws-us-east-1",
        "--format",
        "json",
        "--parameter",
        "ReadCap=10",
        "--parameter",
        "IndexRead=2",
    ]);
    // + (10 + 2) × 730 × $0.00013 = $1.1388: $4.9348.
    assert_eq!(doc["total"], "4.9348");
}

#[test]
fn tf_an_unresolved_capacity_is_a_placeholder_naming_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let tf = write(
        dir.path(),
        "main.tf",
        "variable \"read\" { type = number }
resource \"aws_dynamodb_table\" \"orders\" {
  name           = \"orders\"
  read_capacity  = var.read
  write_capacity = 5
  hash_key       = \"pk\"
  attribute {
    name = \"pk\"
    type = \"S\"
  }
}
",
    );
    let out = Case::new().args(["import", &tf]).run().success();
    assert!(
        out.stdout.contains("rcu: TODO   # not resolved: ")
            && out
                .stdout
                .contains("main.tf:4: aws_dynamodb_table.orders.read_capacity"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("wcu: 5"));
}

/// The loader's side: `TODO` stands for fixed units not known yet, so auto scaling does not
/// take that dimension, and an on-demand table takes no placeholder units either.
#[test]
fn a_capacity_placeholder_is_fixed_units_still_to_fill() {
    let head = "prices: aws-us-east-1\ntables:\n  t:\n    item_size: 1 KB\n    items: 1M\n    patterns: { put: { op: put, rate: 10/s } }\n";
    let (_d, f) = common::temp_workload(&format!(
        "{head}    capacity: {{ mode: provisioned, rcu: TODO, auto_scaling: {{ target: 70% }} }}\n"
    ));
    let doc = json_of(&["estimate", &f, "--format", "json"]);
    assert!(common::json_line(&doc, "t/reads")["cost"].is_null());
    // Writes auto scaled: 10 WCU/s flat ÷ 0.7 = 14.3 → 15 units × 730 h × $0.00065 = $7.1175.
    assert_eq!(common::json_line(&doc, "t/writes")["cost"], "7.1175");
    let (_d, f) = common::temp_workload(&format!(
        "{head}    capacity: {{ mode: on-demand, rcu: TODO }}\n"
    ));
    Case::new()
        .args(["estimate", &f])
        .run()
        .code(1)
        .stderr_has("an on-demand table has no provisioned `rcu`/`wcu`");
}

/// `Fn::ForEach` (`AWS::LanguageExtensions`) is expanded as CloudFormation expands it: one
/// table per value of the collection (a list parameter's default, or `--parameter`), names
/// through `!Sub`; a loop that cannot be expanded is named, never "no DynamoDB table".
#[test]
fn cfn_for_each_is_expanded_into_every_table() {
    let dir = tempfile::tempdir().unwrap();
    let cfn = write(
        dir.path(),
        "loops.yaml",
        "Transform: AWS::LanguageExtensions
Parameters:
  Tables: { Type: CommaDelimitedList, Default: \"orders,customers\" }
Resources:
  Fn::ForEach::Tables:
    - Name
    - !Ref Tables
    - ${Name}Table:
        Type: AWS::DynamoDB::Table
        Properties:
          TableName: !Sub \"${Name}-${AWS::Region}\"
          BillingMode: PAY_PER_REQUEST
          AttributeDefinitions: [{ AttributeName: pk, AttributeType: S }]
          KeySchema: [{ AttributeName: pk, KeyType: HASH }]
",
    );
    Case::new()
        .args(["import", &cfn, "--region", "eu-west-1"])
        .run()
        .success()
        .stderr_has("imported 2 table(s)")
        .stdout_has("orders-eu-west-1:   # ")
        .stdout_has("Resources.customersTable (AWS::DynamoDB::Table)");
    Case::new()
        .args([
            "import",
            &cfn,
            "--region",
            "eu-west-1",
            "--parameter",
            "Tables=a1,b2,c3",
        ])
        .run()
        .success()
        .stderr_has("imported 3 table(s)")
        .stdout_has("c3-eu-west-1:");
    // A collection that cannot be read: the loop is named, with what to give.
    let no_default = write(
        dir.path(),
        "no-default.yaml",
        &std::fs::read_to_string(&cfn)
            .unwrap()
            .replace(", Default: \"orders,customers\"", ""),
    );
    Case::new()
        .args(["import", &no_default])
        .run()
        .code(1)
        .stderr_has("Resources.Fn::ForEach::Tables: the collection is parameter `Tables`, which has no default (give it with `--parameter Tables=a,b`); not expanded");
}

/// Module-based Terraform: a local module (`source = "./dynamo-db"`) and one `terraform
/// init` placed in `.terraform/modules` are read with the arguments the call passes over
/// the module's defaults, variables and the AWS provider's region from the files beside the
/// root; a remote module never initialised is named with what to do.
#[test]
fn tf_modules_are_read_from_local_sources_and_terraform_init() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for sub in ["dynamo-db", ".terraform/modules/remote"] {
        std::fs::create_dir_all(d.join(sub)).unwrap();
    }
    let main = write(
        d,
        "main.tf",
        "module \"orders\" {
  source     = \"./dynamo-db\"
  name       = \"${var.env}-orders\"
  read_units = 10
}
module \"sessions\" {
  source  = \"terraform-aws-modules/dynamodb-table/aws\"
  version = \"4.0.0\"
  name    = \"sessions\"
}
module \"missing\" {
  source = \"git::https://example.com/x.git\"
}
",
    );
    write(
        d,
        "variables.tf",
        "variable \"env\" {\n  default = \"prod\"\n}\n",
    );
    write(
        d,
        "providers.tf",
        "provider \"aws\" {\n  region = \"eu-west-1\"\n}\n",
    );
    write(
        d,
        "dynamo-db/main.tf",
        "resource \"aws_dynamodb_table\" \"this\" {
  name           = var.name
  billing_mode   = \"PROVISIONED\"
  read_capacity  = var.read_units
  write_capacity = var.write_units
  hash_key       = \"pk\"
  attribute {
    name = \"pk\"
    type = \"S\"
  }
}
",
    );
    write(
        d,
        "dynamo-db/variables.tf",
        "variable \"name\" { type = string }\nvariable \"read_units\" { default = 5 }\nvariable \"write_units\" { default = 2 }\n",
    );
    write(
        d,
        ".terraform/modules/modules.json",
        r#"{"Modules":[{"Key":"","Source":"","Dir":"."},{"Key":"sessions","Source":"registry.terraform.io/terraform-aws-modules/dynamodb-table/aws","Version":"4.0.0","Dir":".terraform/modules/remote"}]}"#,
    );
    write(
        d,
        ".terraform/modules/remote/main.tf",
        "variable \"name\" {}\nresource \"aws_dynamodb_table\" \"this\" {\n  name         = var.name\n  billing_mode = \"PAY_PER_REQUEST\"\n  hash_key     = \"id\"\n  attribute {\n    name = \"id\"\n    type = \"S\"\n  }\n}\n",
    );
    let out = Case::new()
        .args(["import", &main])
        .run()
        .success()
        .stderr_has("imported 2 table(s)")
        .stderr_has("module.missing: module `missing` comes from `git::https://example.com/x.git`, which `terraform init` has not placed in `.terraform/modules`");
    // The name from the caller's variable; read units from the call, write units the
    // module's default; the provider's region, and its price table.
    assert!(
        out.stdout.contains("prices: aws-eu-west-1"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("prod-orders:   # ")
            && out.stdout.contains("module.orders.aws_dynamodb_table.this"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("rcu: 10") && out.stdout.contains("wcu: 2"));
    assert!(out.stdout.contains("sessions:   # ") && out.stdout.contains("region: eu-west-1"));
    // Priced in eu-west-1: (10 × $0.000147 + 2 × $0.000735) × 730 h = $2.1462.
    let doc = json_of(&["estimate", &main, "--format", "json"]);
    assert_eq!(doc["total"], "2.1462");
}

/// A module that calls its own folder is a cycle: said, not followed forever.
#[test]
fn tf_a_module_that_calls_itself_is_a_cycle() {
    let dir = tempfile::tempdir().unwrap();
    let main = write(
        dir.path(),
        "main.tf",
        "module \"again\" {\n  source = \"./\"\n}\nresource \"aws_dynamodb_table\" \"t\" {\n  name = \"orders\"\n  billing_mode = \"PAY_PER_REQUEST\"\n  hash_key = \"pk\"\n  attribute {\n    name = \"pk\"\n    type = \"S\"\n  }\n}\n",
    );
    Case::new()
        .args(["import", &main])
        .run()
        .success()
        .stderr_has("a cycle, skipped");
}
