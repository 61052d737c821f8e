//! `ddbcost size` end to end: the three input shapes, gzip and folders, exact distributions,
//! malformed and oversized items, merging summaries, index entries, and workload samples.
//! Each size is derived by hand from DynamoDB's rules in a comment.

mod common;

use std::io::Write;

use common::{Case, temp_workload};
use ddbcost::api::size::SummaryDoc;

fn write(dir: &std::path::Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

fn summary(args: &[&str]) -> SummaryDoc {
    let out = Case::new()
        .args(["size"])
        .args(args)
        .args(["--format", "json"])
        .run()
        .success();
    serde_json::from_str(&out.stdout).expect("size JSON parses")
}

/// Three export lines:
/// 1. pk "ORDER#1" (2 + 7) + total N 129.90 (5 + 4: 1|29|.90 → 3 pairs + 1) = 18 B
/// 2. pk "ORDER#2" (9) + tags SS `["a","bc"]` (4 + 3) = 16 B
/// 3. pk "ORDER#3" (9) + blob B "YWJj" (4 + 3) + lines L [M {sku: S "X"}]:
///    map = 3 + (3 + 1 + 1) = 8, list = 3 + (8 + 1) = 12 → "lines" (5) + 12 = 17 → 33 B
const EXPORT: &str = r#"{"Item":{"pk":{"S":"ORDER#1"},"total":{"N":"129.90"}}}
{"Item":{"pk":{"S":"ORDER#2"},"tags":{"SS":["a","bc"]}}}
{"Item":{"pk":{"S":"ORDER#3"},"blob":{"B":"YWJj"},"lines":{"L":[{"M":{"sku":{"S":"X"}}}]}}}
"#;

#[test]
fn sizes_an_export_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let f = write(dir.path(), "export.json", EXPORT);
    let s = summary(&[&f]);
    assert_eq!(s.items, 3);
    assert_eq!(s.total_bytes, "67"); // 18 + 16 + 33
    assert_eq!((s.min, s.p50, s.max), (16, 18, 33));
    // Each item ≤ 4 KB: 1 read unit strong each = 3, eventual 1.5, transactional 6;
    // ≤ 1 KB: 1 write unit each = 3, transactional 6. Stored: 67 + 3 × 100 = 367.
    assert_eq!(s.read_units.strong.as_deref(), Some("3"));
    assert_eq!(s.write_units.transactional, "6");
    assert_eq!(s.stored_bytes, "367");
}

#[test]
fn gzip_folders_and_plain_json() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("AWSDynamoDB/0001/data");
    std::fs::create_dir_all(&data).unwrap();
    let mut gz = flate2::write::GzEncoder::new(
        std::fs::File::create(data.join("part-1.json.gz")).unwrap(),
        flate2::Compression::fast(),
    );
    gz.write_all(EXPORT.as_bytes()).unwrap();
    gz.finish().unwrap();
    write(
        &dir.path().join("AWSDynamoDB/0001"),
        "manifest-summary.json",
        r#"{"itemCount": 3}"#,
    );
    // A pretty-printed plain-JSON item: "pk" + "USER#1" = 8; "name" + "Zoë" (Z, o, ë = 4 B)
    // = 8; "age" + 42 (1 pair + 1) = 5; "tags" + L ["a", 1.5]: 3 + (1 + 1) + (3 + 1) = 9 →
    // 13. Total 34.
    write(
        &data,
        "plain.json",
        "{\n  \"pk\": \"USER#1\",\n  \"name\": \"Zoë\",\n  \"age\": 42,\n  \"tags\": [\"a\", 1.5]\n}\n",
    );
    let s = summary(&[&dir.path().to_string_lossy()]);
    assert_eq!(s.files, 2, "the manifest is skipped");
    assert_eq!(s.items, 4);
    assert_eq!(s.total_bytes, "101"); // 67 + 34
}

#[test]
fn malformed_items_are_counted_or_stop_a_strict_scan() {
    let dir = tempfile::tempdir().unwrap();
    let text = format!(
        "{EXPORT}not json\n{{\"Item\":{{\"a\":{{\"X\":\"1\"}}}}}}\n{{\"Item\":{{\"a\":{{\"B\":\"!!!!\"}}}}}}\n{{\"Item\":{{\"a\":{{\"N\":\"1.2.3\"}}}}}}\n"
    );
    let f = write(dir.path(), "bad.json", &text);
    let out = Case::new()
        .args(["size", &f, "--format", "json"])
        .run()
        .success();
    let s: SummaryDoc = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!((s.items, s.bad), (3, 4));
    let joined = s.examples.join("\n");
    assert!(joined.contains("bad.json:4: malformed item"), "{joined}");
    assert!(
        joined.contains("bad.json:5: malformed item: unknown type tag `X`"),
        "{joined}"
    );
    assert!(
        joined.contains("bad.json:6: malformed item: invalid base64"),
        "{joined}"
    );
    assert!(
        joined.contains("bad.json:7: malformed item: invalid number `1.2.3`"),
        "{joined}"
    );
    Case::new()
        .args(["size", &f, "--strict"])
        .run()
        .code(1)
        .stderr_has("bad.json:4:1")
        .stderr_has("malformed item");
}

#[test]
fn items_over_400_kb_are_reported_not_counted() {
    let dir = tempfile::tempdir().unwrap();
    // "s" (1) + 409,600 bytes of text = 409,601 B: one byte over the limit.
    let big = format!(
        "{{\"s\":{{\"S\":\"{}\"}}}}\n{{\"s\":{{\"S\":\"{}\"}}}}\n",
        "x".repeat(409_600),
        "x".repeat(409_599)
    );
    let f = write(dir.path(), "big.json", &big);
    let s = summary(&[&f]);
    assert_eq!((s.items, s.oversized, s.max), (1, 1, 409_600));
    assert!(
        s.examples[0].contains("409601 bytes is over the 400 KB"),
        "{:?}",
        s.examples
    );
}

#[test]
fn summaries_of_pieces_merge_to_the_whole() {
    let dir = tempfile::tempdir().unwrap();
    let lines: Vec<&str> = EXPORT.lines().collect();
    let a = write(dir.path(), "a.json", &format!("{}\n", lines[0]));
    let b = write(
        dir.path(),
        "b.json",
        &format!("{}\n{}\n", lines[1], lines[2]),
    );
    let whole = write(dir.path(), "whole.json", EXPORT);
    let sa = dir.path().join("a.summary.json");
    let sb = dir.path().join("b.summary.json");
    Case::new()
        .args([
            "size",
            &a,
            "--format",
            "json",
            "--output",
            &sa.to_string_lossy(),
        ])
        .run()
        .success();
    Case::new()
        .args([
            "size",
            &b,
            "--format",
            "json",
            "--output",
            &sb.to_string_lossy(),
        ])
        .run()
        .success();
    let merged = summary(&["--merge", &sa.to_string_lossy(), &sb.to_string_lossy()]);
    let direct = summary(&[&whole]);
    assert_eq!(merged.histogram, direct.histogram);
    assert_eq!(
        (merged.items, merged.total_bytes.clone(), merged.p50),
        (direct.items, direct.total_bytes.clone(), direct.p50)
    );
    Case::new()
        .args(["size", "--merge", &whole])
        .run()
        .code(1)
        .stderr_has("not a size summary");
}

#[test]
fn index_entries_and_sparse_items() {
    let dir = tempfile::tempdir().unwrap();
    // Item 1 carries GSI1PK: keys-only entry = pk (2 + 7) + sk (2 + 1) + GSI1PK (6 + 4) = 22 B;
    // item 2 lacks it (sparse: skipped). INCLUDE of "total": + 5 + 2 (1|00 → 1 pair) = 29 B.
    let f = write(
        dir.path(),
        "items.json",
        "{\"pk\":{\"S\":\"ORDER#1\"},\"sk\":{\"S\":\"H\"},\"GSI1PK\":{\"S\":\"open\"},\"total\":{\"N\":\"100\"}}\n{\"pk\":{\"S\":\"ORDER#2\"},\"sk\":{\"S\":\"H\"}}\n",
    );
    let s = summary(&[
        &f,
        "--key",
        "pk,sk",
        "--index",
        "by-status:GSI1PK:keys-only",
        "--index",
        "with-total:GSI1PK:include=total",
    ]);
    assert_eq!(
        (s.indexes[0].entries, s.indexes[0].skipped, s.indexes[0].max),
        (1, 1, 22)
    );
    assert_eq!(s.indexes[1].max, 29);
    Case::new()
        .args(["size", &f, "--index", "x:GSI1PK:keys-only"])
        .run()
        .code(2)
        .stderr_has("give them with --key");
    Case::new()
        .args(["size", &f, "--index", "x:GSI1PK:sideways"])
        .run()
        .code(2)
        .stderr_has("unknown projection");
}

#[test]
fn per_item_rows_and_both_cores() {
    let dir = tempfile::tempdir().unwrap();
    let f = write(dir.path(), "export.json", EXPORT);
    Case::new()
        .args(["size", &f, "--per-item"])
        .run()
        .success()
        .stdout_has("file,line,bytes,read_units_strong,write_units")
        .stdout_has("export.json\",3,33,1,1");
    // One job or two: the same summary.
    let one = summary(&[&f, "--jobs", "1"]);
    let two = summary(&[&f, "--jobs", "2"]);
    assert_eq!(one.histogram, two.histogram);
}

#[test]
fn missing_inputs_are_refused() {
    Case::new()
        .args(["size", "no/such/file.json"])
        .run()
        .code(1)
        .stderr_has("cannot be read");
    Case::new().args(["size"]).run().code(2);
}

#[test]
fn a_workload_can_measure_its_item_size_from_a_sample() {
    // workloads/samples/order.json measures 691 B: 1 write unit per put. 1 M puts →
    // 1 M WRU × $0.625 = $0.625.
    let out = Case::new()
        .args(["size", "workloads/samples/order.json", "--format", "json"])
        .run()
        .success();
    let s: SummaryDoc = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(s.total_bytes, "691");
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("samples")).unwrap();
    std::fs::copy(
        "workloads/samples/order.json",
        dir.path().join("samples/order.json"),
    )
    .unwrap();
    let w = write(
        dir.path(),
        "w.yaml",
        "prices: aws-us-east-1\ntables:\n  t:\n    item_size: { sample: samples/order.json }\n    patterns:\n      p: { op: put, rate: 1M/month }\n",
    );
    let out = Case::new()
        .args(["estimate", &w, "--format", "json"])
        .run()
        .success();
    let doc: ddbcost::api::exports::EstimateDoc = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(doc.line_items[0].cost, Some("0.625".parse().unwrap()));
    let (_d, bad) = temp_workload(
        "prices: aws-us-east-1\ntables:\n  t:\n    item_size: { sample: nowhere.json }\n",
    );
    Case::new()
        .args(["estimate", &bad])
        .run()
        .code(1)
        .stderr_has("sample")
        .stderr_has("nowhere.json")
        .stderr_has("at tables.t.item_size");
}

#[test]
fn the_chunked_parallel_path_gives_the_same_summary_and_line_numbers() {
    // A file split into 1 KB chunks sized on two threads: the same histogram as one thread
    // reading it whole, and a malformed line reported at its true line number.
    use ddbcost::api::size::{ScanOptions, scan};
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::new();
    for i in 0..2000 {
        if i == 1234 {
            text.push_str("{not json\n");
        } else {
            text.push_str(&format!(
                "{{\"pk\":{{\"S\":\"item-{i}\"}},\"n\":{{\"N\":\"{i}\"}}}}\n"
            ));
        }
    }
    let path = dir.path().join("items.json");
    std::fs::write(&path, &text).unwrap();
    let files = vec![path];
    let whole = scan(
        &files,
        &ScanOptions {
            jobs: 1,
            ..Default::default()
        },
    )
    .unwrap();
    let chunked = scan(
        &files,
        &ScanOptions {
            jobs: 2,
            chunk_bytes: Some(1024),
            ..Default::default()
        },
    )
    .unwrap();
    assert!(text.len() > 40 * 1024, "many chunks");
    assert_eq!(whole.sizes, chunked.sizes);
    assert_eq!((whole.bad, chunked.bad), (1, 1));
    assert!(
        chunked.examples[0].contains("items.json:1235:"),
        "{:?}",
        chunked.examples
    );
    assert_eq!(whole.examples, chunked.examples);
}

#[test]
fn manifest_shards_merge_to_the_whole_export() {
    use std::io::Write as _;
    let dir = tempfile::tempdir().unwrap();
    let export = dir.path().join("AWSDynamoDB/01700000000000-abcdef12");
    std::fs::create_dir_all(export.join("data")).unwrap();
    let mut manifest = String::new();
    let mut n = 0;
    // Five gzip data files of 7, 3, 12, 1 and 5 items, listed as an export lists them.
    for (f, count) in [7, 3, 12, 1, 5].iter().enumerate() {
        let name = format!("part-{f}.json.gz");
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        for _ in 0..*count {
            n += 1;
            writeln!(
                gz,
                "{{\"Item\":{{\"pk\":{{\"S\":\"k{n}\"}},\"v\":{{\"S\":\"{}\"}}}}}}",
                "x".repeat(n * 37 % 2000)
            )
            .unwrap();
        }
        std::fs::write(export.join("data").join(&name), gz.finish().unwrap()).unwrap();
        manifest.push_str(&format!(
            "{{\"itemCount\":{count},\"md5Checksum\":\"x\",\"etag\":\"y\",\"dataFileS3Key\":\"AWSDynamoDB/01700000000000-abcdef12/data/{name}\"}}\n"
        ));
    }
    let manifest_path = export.join("manifest-files.json");
    std::fs::write(&manifest_path, manifest).unwrap();
    let m = manifest_path.to_string_lossy().into_owned();
    let mut pieces = Vec::new();
    for i in 1..=3 {
        let out = dir.path().join(format!("shard-{i}.json"));
        Case::new()
            .args([
                "size",
                "--manifest",
                &m,
                "--shard",
                &format!("{i}/3"),
                "--format",
                "json",
                "-o",
            ])
            .args([out.to_str().unwrap()])
            .run()
            .success();
        pieces.push(out.to_string_lossy().into_owned());
    }
    let merged = summary(
        &[
            &["--merge"],
            &pieces.iter().map(String::as_str).collect::<Vec<_>>()[..],
        ]
        .concat(),
    );
    let whole = summary(&["--manifest", &m]);
    let folder = summary(&[export.join("data").to_str().unwrap()]);
    // 7 + 3 + 12 + 1 + 5 = 28 items, the same distribution however it is cut.
    assert_eq!(whole.items, 28);
    assert_eq!(
        serde_json::to_value(&merged).unwrap(),
        serde_json::to_value(&whole).unwrap()
    );
    assert_eq!(
        serde_json::to_value(&whole).unwrap(),
        serde_json::to_value(&folder).unwrap()
    );
    // Shards balance items: largest first to the lightest shard — 12 → 1, 7 → 2, 5 → 3,
    // 3 → 3 (8), 1 → 2 (8): 12, 8 and 8 items.
    let one = summary(&["--manifest", &m, "--shard", "1/3"]);
    assert_eq!(one.items, 12);
    // Refused: a shard out of range, a file the manifest names but the copy lacks.
    Case::new()
        .args(["size", "--manifest", &m, "--shard", "4/3"])
        .run()
        .code(2)
        .stderr_has("shards are numbered 1 to 3");
    std::fs::remove_file(export.join("data/part-3.json.gz")).unwrap();
    Case::new()
        .args(["size", "--manifest", &m])
        .run()
        .code(1)
        .stderr_has(
            "data file `AWSDynamoDB/01700000000000-abcdef12/data/part-3.json.gz` is not at",
        );
}
