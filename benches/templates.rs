//! Benchmark of reading templates (#23 §2 "quadratic work"): a CloudFormation template of
//! 2,000 and 20,000 tables and a 1 MB `.tf` file, imported, written as a workload and loaded
//! back — what `ddbcost import` does. Before #23 the 20,000 tables took 54 s and the `.tf`
//! 78 s (a comment looked up by scanning every comment, a line found by scanning the file).

use std::fmt::Write;
use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use ddbcost::api::import::{Options, templates, workload_yaml};

fn cloudformation(tables: usize) -> String {
    let mut text = String::from("Resources:\n");
    for i in 0..tables {
        let _ = write!(
            text,
            "  T{i}:\n    Type: AWS::DynamoDB::Table\n    Properties:\n      TableName: t-{i}\n      BillingMode: PAY_PER_REQUEST\n      AttributeDefinitions: [{{AttributeName: pk, AttributeType: S}}]\n      KeySchema: [{{AttributeName: pk, KeyType: HASH}}]\n"
        );
    }
    text
}

fn terraform(bytes: usize) -> String {
    let mut text = String::new();
    let mut i = 0;
    while text.len() < bytes {
        let _ = write!(
            text,
            "resource \"aws_dynamodb_table\" \"t{i}\" {{\n  name           = \"t-{i}\"\n  billing_mode   = \"PROVISIONED\"\n  read_capacity  = 5\n  write_capacity = 5\n  hash_key       = \"pk\"\n  attribute {{\n    name = \"pk\"\n    type = \"S\"\n  }}\n  ttl {{\n    attribute_name = \"exp\"\n    enabled        = true\n  }}\n}}\n"
        );
        i += 1;
    }
    text
}

/// Import → workload document → YAML → loaded back, as `ddbcost import` runs.
fn import(path: &str) -> usize {
    let imported = templates(&[path.to_string()], None, &Options::default()).expect("imports");
    let (_, yaml) = workload_yaml(&imported, "bench", Some("aws-us-east-1"));
    let (workload, _) = ddbcost::api::load(&yaml, "bench.yaml").expect("loads");
    workload.tables.len()
}

fn bench(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut group = c.benchmark_group("import templates");
    group.sample_size(10);
    for (name, text) in [
        ("cloudformation 2,000 tables", cloudformation(2_000)),
        ("cloudformation 20,000 tables", cloudformation(20_000)),
        ("terraform .tf 1 MB", terraform(1_000_000)),
    ] {
        let file = dir.path().join(if name.starts_with("terraform") {
            "main.tf"
        } else {
            "template.yaml"
        });
        std::fs::write(&file, &text).expect("write");
        let path = file.to_string_lossy().into_owned();
        group.bench_function(name, |b| b.iter(|| black_box(import(&path))));
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
