//! Hostile files for the readers of the measured world, on the binary: gzip bombs (one
//! endless record, a file that decompresses past its budget) for bills, reconcile, CloudWatch
//! output, item exports and key logs, each refused with the file, the budget and the flag
//! that raises it; and the leftovers of the hostile run (a carriage return quoted inside a
//! CUR field, a damaged gzip, a day that does not exist, standard input that is no
//! CloudWatch output, a symlinked part of a delivery, `init --key pk,pk`, SAM keys).

mod common;

use std::io::Write;

use common::{Case, root, write_file};

/// `text` gzip-compressed.
fn gzip(text: &[u8]) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    gz.write_all(text).unwrap();
    gz.finish().unwrap()
}

/// A gzip of `head`, then `n` bytes of `fill`, then `tail`, built without holding the
/// decompressed text (a bomb: a few kilobytes that decompress to `n` bytes).
fn bomb(head: &str, fill: u8, n: usize, tail: &str) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    gz.write_all(head.as_bytes()).unwrap();
    let block = vec![fill; 1 << 20];
    let mut left = n;
    while left > 0 {
        let take = left.min(block.len());
        gz.write_all(&block[..take]).unwrap();
        left -= take;
    }
    gz.write_all(tail.as_bytes()).unwrap();
    gz.finish().unwrap()
}

fn save(dir: &std::path::Path, name: &str, bytes: &[u8]) -> String {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path.display().to_string()
}

const CUR_HEADER: &str = "line_item_line_item_type,line_item_usage_start_date,line_item_product_code,line_item_usage_type,line_item_resource_id,line_item_usage_amount,line_item_currency_code,line_item_unblended_cost\n";

#[test]
fn a_bill_with_one_endless_field_is_refused_at_the_record_budget() {
    let dir = tempfile::tempdir().unwrap();
    // 200 MiB of one quoted field, in ≈ 200 KB of gzip.
    let file = save(
        dir.path(),
        "bomb.csv.gz",
        &bomb(
            &format!("{CUR_HEADER}Usage,2026-11-01T00:00:00Z,AmazonDynamoDB,ReadRequestUnits,\""),
            b'a',
            200 << 20,
            "\",1,USD,1\n",
        ),
    );
    for command in [
        vec!["bill", file.as_str()],
        vec![
            "reconcile",
            "workloads/cloudshop.yaml",
            "--bill",
            file.as_str(),
        ],
    ] {
        Case::new()
            .args(&command)
            .args(["--max-record-bytes", "1048576"])
            .run()
            .code(1)
            .stderr_has("bomb.csv.gz")
            .stderr_has("a record longer than 1048576 bytes")
            .stderr_has("--max-record-bytes");
    }
    // The default budget (64 MiB) stops it too.
    Case::new()
        .args(["bill", file.as_str()])
        .run()
        .code(1)
        .stderr_has("a record longer than 67108864 bytes");
}

#[test]
fn a_bill_that_decompresses_past_its_budget_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let row = "Usage,2026-11-01T00:00:00Z,AmazonDynamoDB,ReadRequestUnits,arn:aws:dynamodb:us-east-1:1:table/orders,1,USD,0.000000125\n";
    // 20,000 rows of 110 bytes: ≈ 2.2 MB decompressed, past a budget of 1 MiB.
    let text = format!("{CUR_HEADER}{}", row.repeat(20_000));
    let file = save(dir.path(), "big.csv.gz", &gzip(text.as_bytes()));
    Case::new()
        .args(["bill", file.as_str(), "--max-decompressed-bytes", "1048576"])
        .run()
        .code(1)
        .stderr_has("big.csv.gz")
        .stderr_has("decompresses to more than 1048576 bytes")
        .stderr_has("--max-decompressed-bytes");
    // Within the default budget it is read: 20,000 rows of 1 unit.
    Case::new()
        .args(["bill", file.as_str(), "--format", "json"])
        .run()
        .success()
        .stdout_has("\"quantity\": \"20000\"");
}

#[test]
fn cloudwatch_output_with_an_endless_string_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let file = save(
        dir.path(),
        "pages.json.gz",
        &bomb(
            "{\"MetricDataResults\":[{\"Id\":\"m0\",\"Label\":\"",
            b'x',
            100 << 20,
            "\",\"Timestamps\":[],\"Values\":[]}]}",
        ),
    );
    Case::new()
        .args([
            "usage",
            file.as_str(),
            "--prices",
            "aws-us-east-1",
            "--max-record-bytes",
            "1048576",
        ])
        .run()
        .code(1)
        .stderr_has("pages.json.gz")
        .stderr_has("a record longer than 1048576 bytes");
}

#[test]
fn exports_and_logs_that_decompress_past_their_budget_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let item = "{\"Item\":{\"PK\":{\"S\":\"PEDIDO#1\"},\"total\":{\"N\":\"12.5\"}}}\n";
    let export = save(
        dir.path(),
        "items.json.gz",
        &gzip(item.repeat(40_000).as_bytes()),
    );
    Case::new()
        .args([
            "size",
            export.as_str(),
            "--max-decompressed-bytes",
            "1048576",
        ])
        .run()
        .code(1)
        .stderr_has("items.json.gz")
        .stderr_has("decompresses to more than 1048576 bytes");
    let log_text = format!(
        "PK,operation,units\n{}",
        "PEDIDO#4000,GetItem,1\n".repeat(60_000)
    );
    let log = save(dir.path(), "access.csv.gz", &gzip(log_text.as_bytes()));
    Case::new()
        .args([
            "keys",
            "--log",
            log.as_str(),
            "--key",
            "PK",
            "--max-decompressed-bytes",
            "1048576",
        ])
        .run()
        .code(1)
        .stderr_has("access.csv.gz")
        .stderr_has("decompresses to more than 1048576 bytes");
}

/// November's bill of `orders` with the table's name written `name` (quoted as given).
fn bill_naming(name: &str) -> String {
    std::fs::read_to_string(root().join("tests/fixtures/bill/november-orders.csv"))
        .unwrap()
        .replace(
            "arn:aws:dynamodb:us-east-1:111122223333:table/orders",
            &format!("\"arn:aws:dynamodb:us-east-1:111122223333:table/{name}\""),
        )
}

#[test]
fn a_carriage_return_quoted_in_a_field_is_data() {
    let dir = tempfile::tempdir().unwrap();
    let text = bill_naming("ord\rers");
    let crlf = text.replace('\n', "\r\n");
    for (name, bytes) in [
        ("lf.csv", text.as_bytes().to_vec()),
        ("crlf.csv", crlf.as_bytes().to_vec()),
        ("lf.csv.gz", gzip(text.as_bytes())),
    ] {
        let file = save(dir.path(), name, &bytes);
        // The fixture's 60 rows, every one DynamoDB's.
        Case::new()
            .args(["bill", file.as_str()])
            .run()
            .success()
            .stdout_has("60 rows read: 60 DynamoDB")
            .stdout_has("ord\\u{d}ers");
    }
}

#[test]
fn a_damaged_gzip_is_said_to_be_damaged() {
    let dir = tempfile::tempdir().unwrap();
    let mut bytes = gzip(bill_naming("orders").as_bytes());
    // The CRC-32 of the decompressed text: the last 8 bytes are CRC and length.
    let at = bytes.len() - 8;
    bytes[at] ^= 0xff;
    let file = save(dir.path(), "damaged.csv.gz", &bytes);
    Case::new()
        .args(["bill", file.as_str()])
        .run()
        .code(1)
        .stderr_has("damaged.csv.gz")
        .stderr_has("downloading the file again");
}

#[test]
fn a_day_that_does_not_exist_is_no_time() {
    let dir = tempfile::tempdir().unwrap();
    let csv = write_file(
        dir.path(),
        "m.csv",
        "timestamp,table,index,metric,statistic,value\n2026-02-28T00:00:00Z,orders,,ConsumedReadCapacityUnits,Sum,1\n2026-02-30T00:00:00Z,orders,,ConsumedReadCapacityUnits,Sum,1\n",
    );
    Case::new()
        .args(["usage", csv.as_str(), "--prices", "aws-us-east-1"])
        .run()
        .code(1)
        .stderr_has("2026-02-30");
}

#[test]
fn standard_input_that_is_no_cloudwatch_output_is_refused_at_once() {
    Case::new()
        .args(["usage", "-", "--prices", "aws-us-east-1"])
        .stdin(&"\0".repeat(1 << 20))
        .run()
        .code(1)
        .stderr_has("neither `get-metric-data` output nor a CSV of metrics")
        .stderr_has("usage query");
}

#[test]
fn a_symlinked_part_of_a_delivery_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data").join("BILLING_PERIOD=2026-11");
    std::fs::create_dir_all(&data).unwrap();
    let elsewhere = write_file(dir.path(), "kept-aside.csv", &bill_naming("orders"));
    std::os::unix::fs::symlink(&elsewhere, data.join("part-1.csv")).unwrap();
    write_file(
        &data,
        "Manifest.json",
        "{\"billingPeriod\":{\"start\":\"2026-11-01T00:00:00.000Z\"},\"dataFiles\":[\"s3://b/exports/cur/data/BILLING_PERIOD=2026-11/part-1.csv\"]}",
    );
    // November 2026 for `orders`: 30 days × ($5.40 + $0.54) = $178.20.
    Case::new()
        .args([
            "bill",
            dir.path().join("data").to_str().unwrap(),
            "--format",
            "json",
        ])
        .run()
        .success()
        .stdout_has("\"unblended\": \"178.2\"");
}

#[test]
fn a_key_that_names_one_attribute_twice_is_refused() {
    Case::new()
        .args([
            "init",
            "--key",
            "pk,pk",
            "--table",
            "orders",
            "--region",
            "us-east-1",
        ])
        .run()
        .code(2)
        .stderr_has("the partition key and the sort key are one attribute");
}

#[test]
fn sam_keys_are_the_default_only_when_none_is_stated() {
    let dir = tempfile::tempdir().unwrap();
    let template = write_file(
        dir.path(),
        "template.yaml",
        "AWSTemplateFormatVersion: '2010-09-09'\nTransform: AWS::Serverless-2016-10-31\nParameters:\n  Env:\n    Type: String\nConditions:\n  IsProd: !Equals [!Ref Env, prod]\nResources:\n  Unknown:\n    Type: AWS::Serverless::SimpleTable\n    Properties: !If [IsProd, {PrimaryKey: {Name: pk, Type: String}}, {}]\n  Removed:\n    Type: AWS::Serverless::SimpleTable\n    Properties:\n      PrimaryKey: !Ref AWS::NoValue\n",
    );
    let out = Case::new()
        .args(["import", template.as_str()])
        .run()
        .success();
    let yaml = out.stdout.clone();
    // `Unknown`: its properties cannot be evaluated (no `Env`): no key, and a note says so.
    let unknown = yaml.split("  Removed:").next().unwrap();
    assert!(!unknown.contains("partition: id"), "{yaml}");
    out.stderr_has("Resources.Unknown.Properties")
        .stderr_has("the table's properties are unknown");
    // `Removed`: `!Ref AWS::NoValue` removes the key: SAM's default, `id` of type String.
    let removed = yaml.split("  Removed:").nth(1).unwrap();
    assert!(
        removed.contains("partition: id") && removed.contains("id: S"),
        "{yaml}"
    );
}
