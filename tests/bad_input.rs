//! Every refusal of bad input, through the binary: the message names the file, the path
//! inside it and the position, says what was expected, suggests a fix, and the exit code is
//! 1 (bad input) or 2 (command-line usage).

mod common;

use common::{Case, Outcome, temp_workload};

fn estimate(yaml: &str) -> Outcome {
    let (_dir, path) = temp_workload(yaml);
    Case::new()
        .args(["estimate", &path, "--prices", "aws-us-east-1"])
        .run()
}

fn orders(body: &str) -> String {
    format!("tables:\n  orders:\n    item_size: 1 KB\n    key_size: 20 B\n{body}")
}

#[test]
fn unknown_field_is_refused_with_a_suggestion() {
    estimate(&orders(
        "    patterns:\n      get-order: { op: get, rate: 400/s, consistncy: strong }\n",
    ))
    .code(1)
    .stderr_has("unknown field `consistncy`")
    .stderr_has("workload.yaml:6:")
    .stderr_has("at tables.orders.patterns.get-order.consistncy")
    .stderr_has("Consider `consistency`");
}

#[test]
fn unknown_value_is_refused_with_a_suggestion() {
    estimate(&orders(
        "    patterns:\n      g: { op: get, rate: 1/s, consistency: eventul }\n",
    ))
    .code(1)
    .stderr_has("unknown consistency `eventul`")
    .stderr_has("at tables.orders.patterns.g.consistency")
    .stderr_has("Consider `eventual`");
    estimate(&orders("    patterns:\n      g: { op: gett, rate: 1/s }\n"))
        .code(1)
        .stderr_has("unknown variant `gett`")
        .stderr_has("at tables.orders.patterns.g.op")
        .stderr_has("Consider `get`");
    estimate(&orders(
        "    patterns:\n      g: { op: get, rate: 1/s, consistency: 120% eventual }\n",
    ))
    .code(1)
    .stderr_has("outside [0, 1]");
}

#[test]
fn negative_rate_is_refused() {
    estimate(&orders(
        "    patterns:\n      get-order: { op: get, rate: -5/s, consistency: strong }\n",
    ))
    .code(1)
    .stderr_has("`-5` is negative")
    .stderr_has("at tables.orders.patterns.get-order.rate")
    .stderr_has("workload.yaml:6:35")
    .stderr_has("Consider");
}

#[test]
fn non_numeric_quantity_is_refused() {
    estimate(&orders("    items: lots\n"))
        .code(1)
        .stderr_has("at tables.orders.items")
        .stderr_has("expected a non-negative count such as `41M`");
}

#[test]
fn non_finite_and_oversized_numbers_are_refused() {
    for bad in ["NaN", "inf", "1e400", "79228162514264337593543950336"] {
        estimate(&orders(&format!("    items: {bad}\n")))
            .code(1)
            .stderr_has("at tables.orders.items");
    }
}

#[test]
fn share_above_one_is_refused() {
    estimate(&orders("    indexes:\n      g: { type: gsi, projection: keys-only, key_size: 20 B, key_share: 1.5 }\n"))
        .code(1)
        .stderr_has("`1.5` is outside [0, 1]")
        .stderr_has("at tables.orders.indexes.g.key_share");
}

#[test]
fn strong_read_on_a_gsi_is_refused() {
    estimate(&orders("    indexes:\n      by-status: { type: gsi, projection: keys-only, key_size: 20 B }\n    patterns:\n      q: { op: query, index: by-status, items: 5, rate: 1/s, consistency: strong }\n"))
        .code(1)
        .stderr_has("strongly consistent read on GSI `by-status`")
        .stderr_has("at tables.orders.patterns.q.consistency")
        .stderr_has("Consider `consistency: eventual`");
}

#[test]
fn item_over_400_kb_is_refused() {
    estimate("tables:\n  orders:\n    item_size: 401 KB\n")
        .code(1)
        .stderr_has("over DynamoDB's 400 KB")
        .stderr_has("at tables.orders.item_size")
        .stderr_has("workload.yaml:3:16");
}

#[test]
fn pattern_on_a_missing_index_is_refused() {
    estimate(&orders("    indexes:\n      by-status: { type: gsi, projection: keys-only, key_size: 20 B }\n    patterns:\n      q: { op: query, index: by-stats, items: 5, rate: 1/s }\n"))
        .code(1)
        .stderr_has("table `orders` has no index `by-stats`")
        .stderr_has("at tables.orders.patterns.q.index")
        .stderr_has("Consider `by-status`");
}

#[test]
fn missing_price_is_refused_naming_price_and_table() {
    // Tokyo's table knows no PITR price.
    let (_dir, path) = temp_workload("tables:\n  t:\n    storage: 1 GB\n    pitr: true\n");
    Case::new()
        .args(["estimate", &path, "--prices", "aws-ap-northeast-1"])
        .run()
        .code(1)
        .stderr_has("price `pitr_gb_month` is not in price table `aws-ap-northeast-1`")
        .stderr_has("pricing/aws-ap-northeast-1.yaml")
        .stderr_has("`t/pitr` needs it");
}

#[test]
fn missing_file_is_refused() {
    Case::new()
        .args([
            "estimate",
            "workloads/nope.yaml",
            "--prices",
            "aws-us-east-1",
        ])
        .run()
        .code(1)
        .stderr_has("`workloads/nope.yaml` does not exist");
}

#[test]
fn a_directory_is_not_a_workload() {
    Case::new()
        .args(["estimate", "workloads", "--prices", "aws-us-east-1"])
        .run()
        .code(1)
        .stderr_has("is not a regular file");
}

#[test]
fn bytes_that_are_not_utf8_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bin.yaml");
    std::fs::write(&path, [0xff, 0xfe, 0x00]).unwrap();
    Case::new()
        .args([
            "estimate",
            &path.to_string_lossy(),
            "--prices",
            "aws-us-east-1",
        ])
        .run()
        .code(1)
        .stderr_has("is not UTF-8 text");
}

#[test]
fn malformed_yaml_and_duplicate_keys_are_refused() {
    estimate("tables: [\n")
        .code(1)
        .stderr_has("workload.yaml:1:");
    estimate("tables:\n  orders:\n    item_size: 1 KB\n  orders:\n    item_size: 2 KB\n")
        .code(1)
        .stderr_has("duplicate mapping key: orders")
        .stderr_has("distinct name");
}

#[test]
fn consistency_is_required_on_table_reads() {
    estimate(&orders("    patterns:\n      g: { op: get, rate: 1/s }\n"))
        .code(1)
        .stderr_has("does not say its consistency")
        .stderr_has("at tables.orders.patterns.g");
}

#[test]
fn items_are_required_for_queries_and_refused_on_gets() {
    estimate(&orders(
        "    patterns:\n      q: { op: query, rate: 1/s, consistency: eventual }\n",
    ))
    .code(1)
    .stderr_has("needs `items`");
    estimate(&orders(
        "    patterns:\n      g: { op: get, rate: 1/s, items: 3, consistency: eventual }\n",
    ))
    .code(1)
    .stderr_has("takes no `items`");
    estimate(&orders(
        "    patterns:\n      b: { op: batch-write, rate: 1/s, items: 30 }\n",
    ))
    .code(1)
    .stderr_has("holds 1 to 25 items");
}

#[test]
fn provisioned_tables_need_capacity_and_gsis_their_own() {
    estimate(&orders("    capacity: { mode: provisioned, rcu: 10 }\n"))
        .code(1)
        .stderr_has("needs both `rcu` and `wcu`");
    estimate(&orders("    capacity: { mode: provisioned, rcu: 10, wcu: 5 }\n    indexes:\n      g: { type: gsi, projection: keys-only, key_size: 20 B }\n"))
        .code(1)
        .stderr_has("needs its own `rcu` and `wcu`");
}

#[test]
fn an_index_entry_size_that_cannot_be_derived_is_refused() {
    estimate("tables:\n  t:\n    item_size: 1 KB\n    indexes:\n      g: { type: gsi, projection: keys-only }\n")
        .code(1)
        .stderr_has("entry size cannot be derived")
        .stderr_has("Consider adding `key_size`");
}

#[test]
fn a_stream_reader_needs_its_call_rate() {
    estimate(&orders(
        "    stream:\n      consumers:\n        r: { kind: reader }\n",
    ))
    .code(1)
    .stderr_has("exactly one of `get_records`");
    estimate(&orders(
        "    stream:\n      consumers:\n        r: { kind: reader, records_per_call: 5000 }\n",
    ))
    .code(1)
    .stderr_has("outside 1–1000");
}

#[test]
fn a_replica_in_the_tables_own_region_is_read_as_its_home() {
    // Terraform's and CloudFormation's layout: the home region among the replicas.
    estimate(&orders("    replicas: [us-east-1]\n"))
        .success()
        .stdout_has("lists its own region `us-east-1` among its replicas");
}

#[test]
fn a_replica_region_without_prices_is_refused() {
    estimate(&orders(
        "    replicas: [sa-east-1]\n    patterns:\n      p: { op: put, rate: 1/s }\n",
    ))
    .code(1)
    .stderr_has("no USD price table for region `sa-east-1`");
}

#[test]
fn command_line_usage_errors_exit_2() {
    Case::new().args(["estimate"]).run().code(2);
    Case::new()
        .args(["estimate", "workloads/cloudshop.yaml", "--format", "xml"])
        .run()
        .code(2);
    Case::new()
        .args(["estimate", "workloads/cloudshop.yaml", "--month-hours=-3"])
        .run()
        .code(2)
        .stderr_has("--month-hours");
    Case::new()
        .args([
            "estimate",
            "workloads/cloudshop.yaml",
            "--prices",
            "aws-us-east1",
        ])
        .run()
        .code(2)
        .stderr_has("no price table `aws-us-east1`")
        .stderr_has("Consider `aws-us-east-1`");
    Case::new().args(["frobnicate"]).run().code(2);
}

#[test]
fn a_workload_without_a_price_table_is_a_usage_error() {
    let (_dir, path) = temp_workload("tables:\n  t:\n    storage: 1 GB\n");
    Case::new()
        .args(["estimate", &path])
        .run()
        .code(2)
        .stderr_has("Consider `--prices aws-us-east-1`");
}

#[test]
fn output_into_a_missing_directory_fails_without_a_partial_file() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("missing").join("report.json");
    Case::new()
        .args([
            "estimate",
            "workloads/cloudshop.yaml",
            "--output",
            &target.to_string_lossy(),
        ])
        .run()
        .code(1)
        .stderr_has("does not exist");
    assert!(!target.exists());
}

#[test]
fn a_malformed_price_table_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("prices.yaml");
    std::fs::write(&path, "id: x\nregion: r\ncurrency: USD\nsource: s\neffective: 2024-13-01\nstandard: { read_per_million: -1 }\n").unwrap();
    Case::new()
        .args([
            "estimate",
            "workloads/cloudshop.yaml",
            "--prices",
            &path.to_string_lossy(),
        ])
        .run()
        .code(1)
        .stderr_has("is negative")
        .stderr_has("standard.read_per_million");
}

/// A value of the wrong shape is refused in the words of the file, never with the name of a
/// type inside ddbcost (`struct RawPattern`, `enum RawOperation`).
#[test]
fn a_value_of_the_wrong_shape_is_named_in_the_files_words() {
    let cases = [
        // (pattern, what the message says)
        (
            "      g: 5\n",
            "invalid type: integer `5`, expected a mapping",
        ),
        (
            "      g: [1]\n",
            "invalid type: sequence, expected a mapping",
        ),
        // A number is named as written, never as a float would read it (`inf`).
        (
            "      g: 1e400\n",
            "invalid type: floating point `1e400`, expected a mapping",
        ),
        (
            "      g: { op: ~, rate: 1/s }\n",
            "invalid type: null, expected one of get, batch-get, query, scan, put, update, delete, batch-write, transact-get, transact-write",
        ),
        (
            "      g: { op: get, rate: { a: 1 } }\n",
            "invalid type: map, expected a string",
        ),
    ];
    for (pattern, message) in cases {
        let out = estimate(&orders(&format!("    patterns:\n{pattern}")))
            .code(1)
            .stderr_has(message)
            .stderr_has("at tables.orders.patterns.g")
            .stderr_has("workload.yaml:6:");
        assert!(!out.stderr.contains("Raw"), "{}", out.stderr);
    }
}

/// What the parser refuses before any field is read — a duplicate key, an alias of no anchor,
/// malformed YAML — is named at the path the parser was reading.
#[test]
fn what_the_parser_refuses_is_named_at_its_path() {
    estimate(&orders("    items: 5\n    items: 6\n"))
        .code(1)
        .stderr_has("duplicate mapping key: items")
        .stderr_has("workload.yaml:6:5")
        .stderr_has("at tables.orders\n");
    estimate(&orders(
        "    patterns:\n      g: { op: get, rate: *nowhere }\n",
    ))
    .code(1)
    .stderr_has("alias references unknown anchor")
    .stderr_has("at tables.orders.patterns.g.rate");
    estimate(&orders(
        "    patterns:\n      - a\n      - b: [1, *nowhere]\n",
    ))
    .code(1)
    .stderr_has("at tables.orders.patterns[1].b[1]");
    estimate(&orders("    patterns:\n      g: 1.5\n        op: get\n"))
        .code(1)
        .stderr_has("mapping values are not allowed in this context")
        .stderr_has("workload.yaml:7:11")
        .stderr_has("at tables.orders.patterns");
}

/// A non-finite number where any value is read (a growth rate) is read as its text and
/// refused at its path and line, as in a scenario's document.
#[test]
fn a_non_finite_growth_is_refused_at_its_path() {
    estimate(&orders("    growth: .nan\n"))
        .code(1)
        .stderr_has("`.nan` is not a growth rate")
        .stderr_has("workload.yaml:5:13")
        .stderr_has("at tables.orders.growth");
}

/// A growth that is not a rate is refused where it was written, with its line.
#[test]
fn a_growth_that_is_not_a_rate_is_refused_at_its_line() {
    estimate(&orders("    growth: 5\n"))
        .code(1)
        .stderr_has("`5` is not a growth rate")
        .stderr_has("workload.yaml:5:13")
        .stderr_has("at tables.orders.growth");
    estimate(&orders("    growth: []\n"))
        .code(1)
        .stderr_has("an empty list of growth factors")
        .stderr_has("workload.yaml:5:13");
}

/// Text that would act on a terminal is refused on every way in: a workload's name or
/// description, a scenario's `--set` line, an alternative's name; and the refusal shows it
/// escaped.
#[test]
fn text_that_would_act_on_a_terminal_is_refused_on_every_way_in() {
    let ok = orders("    patterns:\n      g: { op: get, rate: 1 M, consistency: eventual }\n");
    let out = estimate(&format!("name: \"shop\\e]0;pwned\\a\"\n{ok}"))
        .code(1)
        .stderr_has("the name \"shop\\u{1b}]0;pwned\\u{7}\" holds a control character (U+001B) at character 5")
        .stderr_has("workload.yaml:1:7")
        .stderr_has("at name");
    assert!(!out.stderr.contains('\u{1b}'), "{}", out.stderr);
    // A carriage return would let a name print over what came before it.
    estimate(&orders(
        "    patterns:\n      \"get\\rPAID\": { op: get, rate: 1 M, consistency: eventual }\n",
    ))
    .code(1)
    .stderr_has("the name \"get\\u{d}PAID\" holds a line break (U+000D) at character 4")
    .stderr_has("at tables.orders.patterns.get\\u{d}PAID");
    // A description may take two lines and a tab.
    estimate(&orders(
        "    patterns:\n      g: { op: get, rate: 1 M, consistency: eventual, description: \"two\\nlines\\tok\" }\n",
    ))
    .code(0);
    // Through a scenario's `--set` (a document without text: the path, no line).
    let (_dir, path) = temp_workload(&ok);
    let out = Case::new()
        .args([
            "compare",
            &path,
            "--prices",
            "aws-us-east-1",
            "--alt",
            "x",
            "--set",
        ])
        .args(["tables.orders.patterns.g.description=\"\\u202Eevil\""])
        .run()
        .code(1)
        .stderr_has("holds a bidirectional override (U+202E)")
        .stderr_has("at tables.orders.patterns.g.description");
    assert!(!out.stderr.contains('\u{202E}'), "{}", out.stderr);
    // A scenario's name is a name: it may not break its line in the comparison.
    let (_dir, path) = temp_workload(&format!(
        "{ok}scenarios:\n  alternatives:\n    - name: \"two\\nlines\"\n      patch: {{}}\n"
    ));
    Case::new()
        .args(["compare", &path, "--prices", "aws-us-east-1"])
        .run()
        .code(1)
        .stderr_has("the name \"two\\u{a}lines\" holds a line break (U+000A)")
        .stderr_has("at scenarios.alternatives[0].name");
    let (_dir, path) = temp_workload(&ok);
    Case::new()
        .args([
            "compare",
            &path,
            "--prices",
            "aws-us-east-1",
            "--alt",
            "a\u{1b}[2J",
        ])
        .args(["--set", "tables.orders.patterns.g.rate=2 M"])
        .run()
        .code(2)
        .stderr_has("--alt: the name \"a\\u{1b}[2J\" holds a control character (U+001B)");
}

/// A field spelt out in full (`operation` for `op`) is refused with the short form offered.
#[test]
fn a_field_spelt_out_in_full_is_offered_its_short_form() {
    estimate(&orders(
        "    patterns:\n      g: { operation: get, rate: 1 M, consistency: eventual }\n",
    ))
    .code(1)
    .stderr_has("unknown field `operation`")
    .stderr_has("Consider `op` (did you mean it?)");
}

/// Two names that would look alike — `g` and `g` with a zero-width space — cannot both be
/// written: a name holds no invisible character.
#[test]
fn a_name_with_an_invisible_character_is_refused() {
    estimate(&orders(
        "    patterns:\n      g: { op: get, rate: 1 M, consistency: eventual }\n      \"g\\u200B\": { op: get, rate: 1 M, consistency: eventual }\n",
    ))
    .code(1)
    .stderr_has("the name \"g\\u{200b}\" holds an invisible character (U+200B) at character 2")
    .stderr_has("at tables.orders.patterns.g\\u{200b}");
}

#[test]
fn observed_hours_outside_a_window_are_refused() {
    // A window of 0 hours would divide by zero; one past ten years (87,600 h) is a stray
    // figure that would scale every count; a GSI's is held to the same rule.
    for (hours, at) in [
        ("0", "tables.orders.observed.hours"),
        ("100000", "tables.orders.observed.hours"),
    ] {
        estimate(&orders(&format!(
            "    patterns: {{}}\n    observed: {{ write_units: 1000, hours: {hours} }}\n"
        )))
        .code(1)
        .stderr_has(&format!("`observed.hours` {hours} is outside (0, 87,600]"))
        .stderr_has(&format!("at {at}"));
    }
    estimate(&orders(
        "    indexes:\n      g: { type: gsi, projection: all, observed: { write_units: 10, hours: -1 } }\n    patterns: {}\n",
    ))
    .code(1)
    .stderr_has("at tables.orders.indexes.g.observed.hours");
}
