//! Readers that are bounded and cannot be made to loop (#23 §2): cycles and expansion bombs
//! in every template reader (CloudFormation conditions and names, `!Join` names that double,
//! CDK stacks that nest each other, Serverless `${self:}` chains and fan-outs, `.tf`
//! references), through `import` and through `estimate`/`diff`, which accept templates. Each
//! ends in a note or an error naming where it stopped, never a stack overflow or a hang.
//! The speed of large imports is measured in `benches/import.rs`, not here.

mod common;

use std::path::Path;

use common::{CFN_TABLE_PROPS as TABLE, Case, write_file as write};

/// `import`, `estimate` and `diff` of one template: none crashes (a stack overflow is exit
/// 134, a panic 101) and each says `needle`.
#[track_caller]
fn every_command_reads(file: &str, needle: &str) {
    let import = Case::new().args(["import", file]).run();
    assert_eq!(import.code, 0, "import: {}", import.stderr);
    assert!(
        import.stderr.contains(needle),
        "import lacks {needle:?}: {}",
        import.stderr
    );
    for args in [
        vec!["estimate", file, "--prices", "aws-us-east-1"],
        vec!["diff", file, file, "--prices", "aws-us-east-1"],
    ] {
        let out = Case::new().args(&args).run();
        assert!(
            out.code == 0 || out.code == 1,
            "{args:?}: exit {}: {}",
            out.code,
            out.stderr
        );
        assert!(
            out.stderr.contains(needle),
            "{args:?} lacks {needle:?}: {}",
            out.stderr
        );
    }
}

#[test]
fn cycles_a_condition_that_refers_to_itself_is_a_note() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "self.yaml",
        &format!(
            "Conditions:\n  A: !Not [!Condition A]\nResources:\n  Orders:\n    Type: AWS::DynamoDB::Table\n    Condition: A\n    Properties:\n{TABLE}"
        ),
    );
    every_command_reads(&file, "condition `A` → condition `A`): a cycle");
}

#[test]
fn cycles_two_conditions_naming_each_other_are_a_note() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "mutual.yaml",
        &format!(
            "Conditions:\n  A: !Condition B\n  B: !Not [!Condition A]\nResources:\n  Orders:\n    Type: AWS::DynamoDB::Table\n    Condition: A\n    Properties:\n{TABLE}"
        ),
    );
    every_command_reads(&file, "condition `A` → condition `B` → condition `A`");
}

#[test]
fn cycles_tables_named_by_each_other_are_a_note() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "names.yaml",
        &format!(
            "Resources:\n  A:\n    Type: AWS::DynamoDB::Table\n    Properties:\n      TableName: !Ref B\n{TABLE}  B:\n    Type: AWS::DynamoDB::Table\n    Properties:\n      TableName: !Ref A\n{TABLE}"
        ),
    );
    every_command_reads(&file, "a cycle");
}

#[test]
fn expansion_bombs_sixty_conditions_that_double_are_evaluated_once_each() {
    // C60 = C59 ∧ C59, …: 2^60 evaluations without remembering each condition; 61 with it.
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::from("Conditions:\n  C0: !Equals [a, a]\n");
    for i in 1..=60 {
        text.push_str(&format!(
            "  C{i}: !And [!Condition C{}, !Condition C{}]\n",
            i - 1,
            i - 1
        ));
    }
    text.push_str(&format!(
        "Resources:\n  Orders:\n    Type: AWS::DynamoDB::Table\n    Condition: C60\n    Properties:\n      TableName: orders\n{TABLE}"
    ));
    let file = write(dir.path(), "and.yaml", &text);
    // Within bounds, the condition is simply true: the table is imported without a note.
    let out = Case::new().args(["import", &file]).run().success();
    assert!(out.stdout.contains("  orders:"), "{}", out.stdout);
    assert!(
        !out.stderr.contains("cannot be evaluated"),
        "{}",
        out.stderr
    );
    // 3,000 conditions in a chain: deeper than the bound, stopped with a note.
    let mut chain = String::from("Conditions:\n  C0: !Equals [a, a]\n");
    for i in 1..=3000 {
        chain.push_str(&format!("  C{i}: !Not [!Condition C{}]\n", i - 1));
    }
    chain.push_str(&format!(
        "Resources:\n  Orders:\n    Type: AWS::DynamoDB::Table\n    Condition: C3000\n    Properties:\n{TABLE}"
    ));
    let file = write(dir.path(), "chain.yaml", &chain);
    every_command_reads(&file, "evaluations deep; stopped");
}

#[test]
fn expansion_bombs_names_that_double_stop_at_the_text_bound() {
    // T_i's name joins T_{i-1}'s twice: 4 bytes · 2^39 at the end without a bound.
    let dir = tempfile::tempdir().unwrap();
    let mut text = format!(
        "Resources:\n  T0:\n    Type: AWS::DynamoDB::Table\n    Properties:\n      TableName: base\n{TABLE}"
    );
    for i in 1..40 {
        text.push_str(&format!(
            "  T{i}:\n    Type: AWS::DynamoDB::Table\n    Properties:\n      TableName: !Join ['', [!Ref T{}, !Ref T{}]]\n{TABLE}",
            i - 1,
            i - 1
        ));
    }
    let file = write(dir.path(), "join.yaml", &text);
    every_command_reads(&file, "bytes of text (a name that doubles?); stopped");
    // !Sub doubles the same way.
    let mut sub = format!(
        "Resources:\n  T0:\n    Type: AWS::DynamoDB::Table\n    Properties:\n      TableName: base\n{TABLE}"
    );
    for i in 1..40 {
        sub.push_str(&format!(
            "  T{i}:\n    Type: AWS::DynamoDB::Table\n    Properties:\n      TableName: !Sub '${{T{}}}${{T{}}}'\n{TABLE}",
            i - 1,
            i - 1
        ));
    }
    let file = write(dir.path(), "sub.yaml", &sub);
    every_command_reads(&file, "stopped");
    // Names over 255 bytes are not DynamoDB names: said, and the logical id names the table.
    let out = Case::new().args(["import", &file]).run().success();
    assert!(
        out.stderr.contains("is not a DynamoDB name"),
        "{}",
        out.stderr
    );
    assert!(out.stdout.contains("  T9:"), "{}", out.stdout);
}

fn cdk_stack(name: &str, nested: &[&str]) -> String {
    let mut resources = vec![format!(
        r#""{name}Table": {{"Type": "AWS::DynamoDB::Table", "Properties": {{"TableName": "{name}", "BillingMode": "PAY_PER_REQUEST", "AttributeDefinitions": [{{"AttributeName": "pk", "AttributeType": "S"}}], "KeySchema": [{{"AttributeName": "pk", "KeyType": "HASH"}}]}}}}"#
    )];
    for (i, n) in nested.iter().enumerate() {
        resources.push(format!(
            r#""Nested{i}": {{"Type": "AWS::CloudFormation::Stack", "Metadata": {{"aws:asset:path": "{n}"}}, "Properties": {{}}}}"#
        ));
    }
    format!(r#"{{"Resources": {{{}}}}}"#, resources.join(", "))
}

#[test]
fn cycles_a_cdk_stack_that_nests_itself_is_read_once() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("cdk.out");
    std::fs::create_dir(&out_dir).unwrap();
    write(
        &out_dir,
        "App.template.json",
        &cdk_stack("app", &["App.template.json"]),
    );
    let folder = out_dir.to_string_lossy().into_owned();
    every_command_reads(&folder, "nests itself");
    let out = Case::new().args(["import", &folder]).run().success();
    assert_eq!(out.stdout.matches("  app:").count(), 1, "{}", out.stdout);
}

#[test]
fn cycles_cdk_templates_that_all_nest_each_other_still_give_their_tables() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("cdk.out");
    std::fs::create_dir(&out_dir).unwrap();
    write(
        &out_dir,
        "A.template.json",
        &cdk_stack("alpha", &["B.template.json"]),
    );
    write(
        &out_dir,
        "B.template.json",
        &cdk_stack("beta", &["A.template.json"]),
    );
    let folder = out_dir.to_string_lossy().into_owned();
    let out = Case::new().args(["import", &folder]).run().success();
    assert!(out.stdout.contains("  alpha:"), "{}", out.stdout);
    assert!(out.stdout.contains("  beta:"), "{}", out.stdout);
    assert!(out.stderr.contains("a cycle"), "{}", out.stderr);
}

#[test]
fn expansion_bombs_cdk_stacks_that_multiply_stop_at_the_bound() {
    // Each level nests the next one ten times: 10^8 stacks at depth 8 without a bound.
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("cdk.out");
    std::fs::create_dir(&out_dir).unwrap();
    for level in 0..9 {
        let next = format!("L{}.nested.template.json", level + 1);
        let nested: Vec<&str> = if level < 8 {
            vec![next.as_str(); 10]
        } else {
            Vec::new()
        };
        let name = if level == 0 {
            "Root.template.json".to_string()
        } else {
            format!("L{level}.nested.template.json")
        };
        // Every stack's table has its own name only at the root: the rest share one, which
        // the import refuses as two tables of one name, or stops before.
        write(&out_dir, &name, &cdk_stack(&format!("t{level}"), &nested));
    }
    let folder = out_dir.to_string_lossy().into_owned();
    let out = Case::new().args(["import", &folder]).run();
    assert!(out.code == 0 || out.code == 1, "{}", out.stderr);
    assert!(
        out.stderr.contains("two tables are named") || out.stderr.contains("stacks in one folder"),
        "{}",
        out.stderr
    );
}

#[test]
fn cycles_a_serverless_self_reference_is_a_note() {
    let dir = tempfile::tempdir().unwrap();
    let sub = dir.path().join("sls");
    std::fs::create_dir(&sub).unwrap();
    let file = write(
        &sub,
        "serverless.yml",
        "service: shop\nprovider:\n  name: aws\n  stage: prod\ncustom:\n  a: ${self:custom.b}\n  b: ${self:custom.a}\nresources:\n  Resources:\n    Orders:\n      Type: AWS::DynamoDB::Table\n      Properties:\n        TableName: ${self:custom.a}\n        BillingMode: PAY_PER_REQUEST\n        AttributeDefinitions: [{AttributeName: pk, AttributeType: S}]\n        KeySchema: [{AttributeName: pk, KeyType: HASH}]\n",
    );
    every_command_reads(&file, "a cycle");
}

#[test]
fn expansion_bombs_a_serverless_fan_out_stops_at_the_budget() {
    // Each level refers to the next one ten times, 12 levels deep: 10^12 without a budget.
    let dir = tempfile::tempdir().unwrap();
    let sub = dir.path().join("sls");
    std::fs::create_dir(&sub).unwrap();
    let mut custom = String::new();
    for level in 0..12 {
        let refs = format!("${{self:custom.l{}}}", level + 1).repeat(10);
        custom.push_str(&format!("  l{level}: \"{refs}\"\n"));
    }
    custom.push_str("  l12: x\n");
    let file = write(
        &sub,
        "serverless.yml",
        &format!(
            "service: shop\nprovider:\n  name: aws\n  stage: prod\ncustom:\n{custom}resources:\n  Resources:\n    Orders:\n      Type: AWS::DynamoDB::Table\n      Properties:\n        TableName: ${{self:custom.l0}}\n        BillingMode: PAY_PER_REQUEST\n        AttributeDefinitions: [{{AttributeName: pk, AttributeType: S}}]\n        KeySchema: [{{AttributeName: pk, KeyType: HASH}}]\n"
        ),
    );
    every_command_reads(&file, "stopped");
}

#[test]
fn serverless_fallbacks_are_sources_and_the_default_stage_is_said() {
    let dir = tempfile::tempdir().unwrap();
    let sub = dir.path().join("sls");
    std::fs::create_dir(&sub).unwrap();
    let file = write(
        &sub,
        "serverless.yml",
        "service: shop\nprovider:\n  name: aws\n  stage: prod\nresources:\n  Resources:\n    Orders:\n      Type: AWS::DynamoDB::Table\n      Properties:\n        TableName: orders-${opt:stage, self:provider.stage}\n        BillingMode: PAY_PER_REQUEST\n        AttributeDefinitions: [{AttributeName: pk, AttributeType: S}]\n        KeySchema: [{AttributeName: pk, KeyType: HASH}]\n    Carts:\n      Type: AWS::DynamoDB::Table\n      Properties:\n        TableName: carts-${sls:stage}\n        BillingMode: PAY_PER_REQUEST\n        AttributeDefinitions: [{AttributeName: pk, AttributeType: S}]\n        KeySchema: [{AttributeName: pk, KeyType: HASH}]\n",
    );
    // `${opt:stage, self:provider.stage}` without --parameter: the second source, `prod`.
    let out = Case::new().args(["import", &file]).run().success();
    assert!(out.stdout.contains("  orders-prod:"), "{}", out.stdout);
    assert!(out.stdout.contains("  carts-prod:"), "{}", out.stdout);
    let out = Case::new()
        .args(["import", &file, "--parameter", "stage=qa"])
        .run()
        .success();
    assert!(out.stdout.contains("  orders-qa:"), "{}", out.stdout);
    // No stage anywhere: the Framework's `dev`, said in a note.
    let file = write(
        &sub,
        "serverless.yml",
        "service: shop\nprovider:\n  name: aws\nresources:\n  Resources:\n    Carts:\n      Type: AWS::DynamoDB::Table\n      Properties:\n        TableName: carts-${sls:stage}\n        BillingMode: PAY_PER_REQUEST\n        AttributeDefinitions: [{AttributeName: pk, AttributeType: S}]\n        KeySchema: [{AttributeName: pk, KeyType: HASH}]\n",
    );
    let out = Case::new().args(["import", &file]).run().success();
    assert!(out.stdout.contains("  carts-dev:"), "{}", out.stdout);
    assert!(
        out.stderr.contains("default `dev` is used"),
        "{}",
        out.stderr
    );
}

#[test]
fn expansion_bombs_tf_references_that_fan_out_end_nowhere() {
    // Each resource's name is the next one's ten times over, 8 deep: 10^8 without a budget.
    let dir = tempfile::tempdir().unwrap();
    let mut tf = String::new();
    for level in 0..8 {
        let refs = format!("${{aws_dynamodb_table.t{}.name}}", level + 1).repeat(10);
        tf.push_str(&format!(
            "resource \"aws_dynamodb_table\" \"t{level}\" {{\n  name = \"{refs}\"\n  billing_mode = \"PAY_PER_REQUEST\"\n  hash_key = \"pk\"\n  attribute {{\n    name = \"pk\"\n    type = \"S\"\n  }}\n}}\n"
        ));
    }
    tf.push_str("resource \"aws_dynamodb_table\" \"t8\" {\n  name = \"x\"\n  billing_mode = \"PAY_PER_REQUEST\"\n  hash_key = \"pk\"\n  attribute {\n    name = \"pk\"\n    type = \"S\"\n  }\n}\n");
    let file = write(dir.path(), "main.tf", &tf);
    every_command_reads(&file, "does not end at a literal");
    // A reference to itself ends nowhere too.
    let file = write(
        dir.path(),
        "self.tf",
        "resource \"aws_dynamodb_table\" \"a\" {\n  name = aws_dynamodb_table.a.name\n  billing_mode = \"PAY_PER_REQUEST\"\n  hash_key = \"pk\"\n  attribute {\n    name = \"pk\"\n    type = \"S\"\n  }\n}\n",
    );
    every_command_reads(&file, "does not end at a literal");
}

#[test]
fn text_that_becomes_yaml_a_newline_in_a_logical_id_stays_in_its_comment() {
    // A logical id with a newline and YAML after it: before, `month_hours: 1` became a
    // setting of the imported workload and priced the table at one hour a month.
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "inject.json",
        r#"{"Resources": {"Orders\nsettings:\n  month_hours: 1\nx": {"Type": "AWS::DynamoDB::Table", "Properties": {"BillingMode": "PROVISIONED", "ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 5}, "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}], "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}]}}}}"#,
    );
    let out = Case::new().args(["import", &file]).run().success();
    assert!(!out.stdout.contains("\nsettings:"), "{}", out.stdout);
    let est = Case::new()
        .args([
            "estimate",
            &file,
            "--prices",
            "aws-us-east-1",
            "--format",
            "json",
        ])
        .run()
        .success();
    let doc: serde_json::Value = serde_json::from_str(&est.stdout).unwrap();
    // 5 RCU × 730 h × $0.00013 + 5 WCU × 730 h × $0.00065 = $0.4745 + $2.3725 = $2.847:
    // a whole month, not one hour.
    let total: rust_decimal::Decimal = doc["total"].as_str().unwrap().parse().unwrap();
    assert_eq!(total, common::dec("2.847"), "{}", est.stdout);
}

#[test]
fn each_input_kind_has_its_own_bound_and_message() {
    let dir = tempfile::tempdir().unwrap();
    // A template may be larger than a workload (real plans are tens of MB), up to 256 MiB.
    let path = dir.path().join("huge.tf");
    let file = std::fs::File::create(&path).unwrap();
    file.set_len(257 * 1024 * 1024).unwrap(); // sparse: nothing written
    Case::new()
        .args(["import", &path.to_string_lossy()])
        .run()
        .code(1)
        .stderr_has("more than the 268435456 bytes (= 256 MiB) a template or Terraform plan may be")
        .stderr_has("terraform plan -target");
    // A 17 MiB template is read (a workload of that size is not): only the kind decides.
    let mut big = String::from("Resources:\n");
    let mut i = 0;
    while big.len() < 17 * 1024 * 1024 {
        big.push_str(&format!(
            "  T{i}:\n    Type: AWS::SNS::Topic\n    Properties:\n      TopicName: topic-{i}-{}\n",
            "x".repeat(200)
        ));
        i += 1;
    }
    big.push_str(&format!(
        "  Orders:\n    Type: AWS::DynamoDB::Table\n    Properties:\n      TableName: orders\n{TABLE}"
    ));
    let file = write(dir.path(), "big.yaml", &big);
    Case::new()
        .args(["import", &file])
        .run()
        .success()
        .stdout_has("  orders:");
}

fn size_json(args: &[&str]) -> serde_json::Value {
    let out = Case::new()
        .args(["size", "--format", "json"])
        .args(args)
        .run()
        .success();
    serde_json::from_str(&out.stdout).unwrap()
}

fn gzip(path: &Path, text: &str) {
    use std::io::Write;
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(text.as_bytes()).unwrap();
    std::fs::write(path, gz.finish().unwrap()).unwrap();
}

#[test]
fn a_first_line_decides_nothing_a_malformed_first_line_is_one_bad_item() {
    let dir = tempfile::tempdir().unwrap();
    let text = "{\"pk\":{\"S\":\"a\"\n{\"pk\":{\"S\":\"b\"}}\n{\"pk\":{\"S\":\"c\"}}\n";
    let plain = write(dir.path(), "items.json", text);
    let gz = dir.path().join("items.json.gz");
    gzip(&gz, text);
    for file in [plain.as_str(), gz.to_str().unwrap()] {
        let s = size_json(&[file]);
        // Two items of "pk" (2 B) + "b" (1 B) = 3 B each, and one bad line: plain or gzip.
        assert_eq!(s["items"], 2, "{file}: {s}");
        assert_eq!(s["bad"], 1, "{file}: {s}");
        assert_eq!(s["total_bytes"], "6", "{file}: {s}");
    }
    // `keys` reads the same way.
    let out = Case::new()
        .args(["keys", &plain, "--key", "pk", "--format", "json"])
        .run()
        .success();
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(doc["items"], 2, "{}", out.stdout);
    // A pretty-printed document is still one document.
    let pretty = write(
        dir.path(),
        "item.json",
        "{\n  \"Item\": {\n    \"pk\": {\n      \"S\": \"a\"\n    },\n    \"l\": {\"L\": [\n      {\"S\": \"x\"}\n    ]}\n  }\n}\n",
    );
    let s = size_json(&[&pretty]);
    assert_eq!(s["items"], 1, "{s}");
    assert_eq!(s["bad"], 0, "{s}");
}

#[test]
fn one_long_line_an_over_one_mib_first_line_keeps_the_items_after_it() {
    let dir = tempfile::tempdir().unwrap();
    // A 2 MiB string: an item over 400 KB, on the first line, then three items.
    let mut text = format!("{{\"pk\":{{\"S\":\"{}\"}}}}\n", "x".repeat(2 << 20));
    for k in ["a", "b", "c"] {
        text.push_str(&format!("{{\"pk\":{{\"S\":\"{k}\"}}}}\n"));
    }
    let file = write(dir.path(), "long.json", &text);
    let s = size_json(&[&file]);
    assert_eq!(s["items"], 3, "{s}");
    assert_eq!(s["oversized"], 1, "{s}");
}

#[test]
fn one_long_line_past_the_line_bound_is_skipped_and_counted() {
    let dir = tempfile::tempdir().unwrap();
    // 17 MiB without a newline, then two items: the line is not kept in memory.
    let mut text = format!("{{\"pk\":{{\"S\":\"{}\"}}}}\n", "x".repeat(17 << 20));
    text.push_str("{\"pk\":{\"S\":\"a\"}}\n{\"pk\":{\"S\":\"b\"}}");
    let file = write(dir.path(), "huge.json", &text);
    let out = Case::new()
        .args(["size", &file, "--format", "json"])
        .run()
        .success();
    let s: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(s["items"], 2, "{s}");
    assert_eq!(s["oversized"], 1, "{s}");
    // `{"pk":{"S":"` (12) + 17 × 2^20 + `"}}` (3) + the newline = 17,825,808 bytes.
    let example = s["examples"][0].as_str().unwrap_or_default();
    assert!(
        example.contains(":1: a line of 17825808 bytes, more than the 16777216 read")
            && example.contains("skipped to the next line"),
        "{s}"
    );
    // The same line in a gzip file, and a file that ends without a newline inside it.
    let gz = dir.path().join("huge.json.gz");
    gzip(&gz, &text);
    assert_eq!(size_json(&[gz.to_str().unwrap()])["items"], 2);
    let tail = write(
        dir.path(),
        "tail.json",
        &format!("{{\"pk\":{{\"S\":\"a\"}}}}\n{}", "x".repeat(17 << 20)),
    );
    let s = size_json(&[&tail]);
    assert_eq!(
        (s["items"].as_u64(), s["oversized"].as_u64()),
        (Some(1), Some(1))
    );
}

#[test]
fn one_long_line_in_an_access_log_is_refused_at_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let items = write(dir.path(), "items.json", "{\"pk\":{\"S\":\"a\"}}\n");
    let csv = write(
        dir.path(),
        "log.csv",
        &format!("pk,op\na,read\nb,{}\n", "x".repeat(2 << 20)),
    );
    let jsonl = write(
        dir.path(),
        "log.jsonl",
        &format!(
            "{{\"pk\":\"a\",\"op\":\"read\"}}\n{{\"pk\":\"{}",
            "x".repeat(2 << 20)
        ),
    );
    for (log, at) in [(csv, ":3:1"), (jsonl, ":2:1")] {
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
                "--log-operation",
                "op",
            ])
            .run()
            .code(1)
            .stderr_has("a line longer than 1048576 bytes")
            .stderr_has(at);
    }
}

#[test]
fn shards_past_the_files_cost_nothing_and_cannot_overflow() {
    let dir = tempfile::tempdir().unwrap();
    let export = dir.path().join("export");
    std::fs::create_dir_all(export.join("data")).unwrap();
    let mut manifest = String::new();
    for (f, count) in [3, 1].iter().enumerate() {
        let name = format!("part-{f}.json");
        let items: String = (0..*count)
            .map(|i| format!("{{\"Item\":{{\"pk\":{{\"S\":\"k{f}{i}\"}}}}}}\n"))
            .collect::<Vec<_>>()
            .concat();
        std::fs::write(export.join("data").join(&name), items).unwrap();
        manifest.push_str(&format!(
            "{{\"itemCount\":{count},\"dataFileS3Key\":\"AWSDynamoDB/x/data/{name}\"}}\n"
        ));
    }
    let m = write(&export, "manifest-files.json", &manifest);
    // Shard 1 of 2^64 - 1 holds the largest file (3 items), the last of them none.
    let max = u64::MAX.to_string();
    let s = size_json(&["--manifest", &m, "--shard", &format!("1/{max}")]);
    assert_eq!(s["items"], 3, "{s}");
    let s = size_json(&["--manifest", &m, "--shard", &format!("{max}/{max}")]);
    assert_eq!(s["items"], 0, "{s}");
    let s = size_json(&["--manifest", &m, "--shard", "2/100000000000"]);
    assert_eq!(s["items"], 1, "{s}");
    // Past what the platform counts: a usage error, not a panic.
    Case::new()
        .args([
            "size",
            "--manifest",
            &m,
            "--shard",
            "1/99999999999999999999999",
        ])
        .run()
        .code(2);
    // A data file listed twice would be counted twice: refused, naming both lines.
    manifest.push_str("{\"itemCount\":3,\"dataFileS3Key\":\"AWSDynamoDB/x/data/part-0.json\"}\n");
    let m = write(&export, "manifest-files.json", &manifest);
    Case::new()
        .args(["size", "--manifest", &m])
        .run()
        .code(1)
        .stderr_has("is listed twice (lines 1 and 3)");
}

#[test]
fn a_price_list_past_its_bound_is_too_large_not_bad_json() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("offer.json");
    let file = std::fs::File::create(&path).unwrap();
    file.set_len(513 * 1024 * 1024).unwrap(); // sparse
    Case::new()
        .args(["prices", "import", path.to_str().unwrap(), "--output-dir"])
        .args([dir.path().join("out").to_str().unwrap()])
        .run()
        .code(1)
        .stderr_has("is more than the 536870912 bytes (= 512 MiB) a price list may be");
}

#[test]
fn numbers_dynamodb_rejects_are_malformed_items() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "nums.json",
        "{\"n\":{\"N\":\"1e126\"}}\n{\"n\":{\"N\":\"1e-400\"}}\n{\"n\":{\"N\":\"123456789012345678901234567890123456789\"}}\n{\"n\":{\"N\":\"5\"}}\n",
    );
    let s = size_json(&[&file]);
    // Only `5` is a number DynamoDB stores: "n" (1 B) + one base-100 pair + 1 = 3 B.
    assert_eq!(
        (s["items"].as_u64(), s["bad"].as_u64()),
        (Some(1), Some(3)),
        "{s}"
    );
    assert_eq!(s["total_bytes"], "3", "{s}");
    assert!(
        s["examples"][0]
            .as_str()
            .unwrap()
            .contains("38 significant digits"),
        "{s}"
    );
}

/// Terraform modules that fan out — each level calling the next folder ten times, seven
/// levels deep (10^7 reads) — stop at 1,000 module calls with a note, instead of running
/// for hours.
#[test]
fn tf_modules_that_fan_out_stop_at_a_call_budget() {
    let dir = tempfile::tempdir().unwrap();
    for level in 0..7 {
        let d = dir.path().join(format!("l{level}"));
        std::fs::create_dir_all(&d).unwrap();
        let calls: String = (0..10)
            .map(|i| format!("module \"m{i}\" {{\n  source = \"../l{}\"\n}}\n", level + 1))
            .collect::<Vec<_>>()
            .concat();
        std::fs::write(d.join("main.tf"), calls).unwrap();
    }
    std::fs::create_dir_all(dir.path().join("l7")).unwrap();
    std::fs::write(
        dir.path().join("l7/main.tf"),
        "variable \"x\" { default = 1 }\n",
    )
    .unwrap();
    let main = dir.path().join("l0/main.tf");
    std::fs::write(
        &main,
        format!(
            "{}resource \"aws_dynamodb_table\" \"t\" {{\n  name = \"orders\"\n  billing_mode = \"PAY_PER_REQUEST\"\n  hash_key = \"pk\"\n  attribute {{\n    name = \"pk\"\n    type = \"S\"\n  }}\n}}\n",
            std::fs::read_to_string(&main).unwrap()
        ),
    )
    .unwrap();
    Case::new()
        .args(["import", main.to_str().unwrap()])
        .run()
        .success()
        .stderr_has("imported 1 table(s)")
        .stderr_has("more than 1000 module calls in one import");
}
