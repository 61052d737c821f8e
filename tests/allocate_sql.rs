//! `allocate --athena-sql` (issue #50, at scale): the SQL that sums request logs where they
//! live, run on DuckDB over a Parquet copy of the logs (one JSON text column, a request a
//! row, as Athena reads JSON Lines), its CSV result read back by `allocate --log`: the same
//! split as the lines themselves give, to the last digit and in every format; lines the
//! local reader refuses are refused from the result too.

mod common;

use common::{Case, saas, write_file};

/// Runs `sql` on DuckDB over `request_logs`: a Parquet file of `lines` in column `line`;
/// the result as CSV at `out`.
fn run_on_duckdb(python: &str, lines: &[String], sql: &str, dir: &std::path::Path) -> String {
    let jsonl = dir.join("lines.txt");
    std::fs::write(&jsonl, lines.join("\n")).unwrap();
    let parquet = dir.join("logs.parquet");
    let out = dir.join("result.csv");
    // The lines go in through Python's own reading, one a row: no CSV or JSON parsing of
    // DuckDB's in between.
    let script = format!(
        "import duckdb, sys\n\
         con = duckdb.connect()\n\
         con.execute('CREATE TABLE t (line VARCHAR)')\n\
         con.executemany('INSERT INTO t VALUES (?)', [[l] for l in open({jsonl:?}).read().split('\\n')])\n\
         con.execute(\"COPY t TO '{parquet}' (FORMAT parquet)\")\n\
         con.execute(\"CREATE VIEW request_logs AS SELECT * FROM read_parquet('{parquet}')\")\n\
         con.execute('COPY (' + sys.stdin.read() + ') TO \\'{out}\\' (HEADER)')\n",
        jsonl = jsonl.display().to_string(),
        parquet = parquet.display(),
        out = out.display(),
    );
    let mut child = std::process::Command::new(python)
        .args(["-c", &script])
        .stdin(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(sql.as_bytes())
            .unwrap();
    }
    assert!(child.wait().unwrap().success(), "duckdb ran the SQL");
    out.display().to_string()
}

fn sql(extra: &[&str]) -> String {
    let mut args = vec!["allocate", "--athena-sql", "--sql-dialect", "duckdb"];
    args.extend_from_slice(extra);
    Case::new().args(args).run().success().stdout
}

/// `allocate` of the bill with `log`, in `format`, split as `extra` says.
fn allocate(bill: &str, log: &str, extra: &[&str], format: &str) -> String {
    let mut args = vec!["allocate", "--bill", bill, "--log", log, "--format", format];
    args.extend_from_slice(extra);
    Case::new().args(args).run().success().stdout
}

#[test]
fn the_sql_on_duckdb_splits_the_saas_month_as_the_lines_do() {
    let Some(python) = common::duckdb_python() else {
        common::skip_without(
            "duckdb",
            "runs the printed SQL on a Parquet copy of the logs",
        );
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let lines: Vec<String> = saas::log().lines().map(str::to_string).collect();
    let log = write_file(dir.path(), "requests.jsonl", &saas::log());
    let bill = write_file(dir.path(), "cur.csv", &saas::bill());
    let result = run_on_duckdb(
        &python,
        &lines,
        &sql(&["--tenant", "PK=ORG#([^#]+)"]),
        dir.path(),
    );
    let by_tenant = ["--tenant", "PK=ORG#([^#]+)"];
    for format in ["json", "csv", "table", "focus"] {
        assert_eq!(
            allocate(&bill, &result, &by_tenant, format),
            allocate(&bill, &log, &by_tenant, format),
            "{format}"
        );
    }
    // By pattern label: the query without a tenancy.
    let sub = dir.path().join("by-pattern");
    std::fs::create_dir(&sub).unwrap();
    let result = run_on_duckdb(&python, &lines, &sql(&["--by", "pattern"]), &sub);
    assert_eq!(
        allocate(&bill, &result, &["--by", "pattern"], "json"),
        allocate(&bill, &log, &["--by", "pattern"], "json")
    );
}

/// Requests shaped to test each rule of the reader: a batch whose 1 unit does not divide over
/// its 3 items (2 of org a, 1 of org b), a transaction over two tables, a query naming its
/// tenant among its expression values only, units as text, a GSI and an LSI, a scan of no
/// tenant, and an operation the log leaves out (its `CapacityUnits` are writes).
const SHAPED: [&str; 7] = [
    r#"{"operation":"BatchWriteItem","RequestItems":{"t":[{"PutRequest":{"Item":{"PK":{"S":"ORG#a#1"}}}},{"PutRequest":{"Item":{"PK":{"S":"ORG#a#2"}}}},{"DeleteRequest":{"Key":{"PK":{"S":"ORG#b#1"}}}}]},"ConsumedCapacity":[{"TableName":"t","CapacityUnits":1}]}"#,
    r#"{"operation":"TransactWriteItems","TransactItems":[{"Put":{"TableName":"t","Item":{"PK":{"S":"ORG#c"}}}},{"Update":{"TableName":"u","Key":{"PK":"ORG#d"}}}],"ConsumedCapacity":[{"TableName":"t","CapacityUnits":2},{"TableName":"u","CapacityUnits":2}]}"#,
    r#"{"operation":"Query","ExpressionAttributeValues":{":sk":{"S":"TASK#"},":pk":{"S":"ORG#e"}},"pattern":"list","ConsumedCapacity":{"TableName":"t","CapacityUnits":"1.5","Table":{"CapacityUnits":0.5},"GlobalSecondaryIndexes":{"g1":{"CapacityUnits":1}}}}"#,
    r#"{"operation":"PutItem","Item":{"PK":"ORG#a#9"},"ConsumedCapacity":{"TableName":"t","CapacityUnits":4,"Table":{"WriteCapacityUnits":2},"LocalSecondaryIndexes":{"l1":{"WriteCapacityUnits":1}},"GlobalSecondaryIndexes":{"g1":{"WriteCapacityUnits":1}}}}"#,
    r#"{"operation":"Scan","ConsumedCapacity":{"TableName":"t","ReadCapacityUnits":128}}"#,
    r#"{"Key":{"PK":{"S":"ORG#b#7"}},"ConsumedCapacity":{"TableName":"u","CapacityUnits":3}}"#,
    r#"{"operation":"BatchGetItem","RequestItems":{"u":{"Keys":[{"PK":{"S":"ORG#d"}},{"PK":{"S":"ORG#e"}}]}},"ConsumedCapacity":[{"TableName":"u","CapacityUnits":1}]}"#,
];

const SHAPED_BILL: &str = "line_item_line_item_type,line_item_usage_start_date,line_item_product_code,line_item_usage_type,line_item_resource_id,line_item_usage_amount,line_item_currency_code,line_item_unblended_cost\n\
Usage,2026-11-01T00:00:00Z,AmazonDynamoDB,ReadRequestUnits,arn:aws:dynamodb:us-east-1:1:table/t,1000,USD,7\n\
Usage,2026-11-01T00:00:00Z,AmazonDynamoDB,WriteRequestUnits,arn:aws:dynamodb:us-east-1:1:table/t,1000,USD,10\n\
Usage,2026-11-01T00:00:00Z,AmazonDynamoDB,ReadRequestUnits,arn:aws:dynamodb:us-east-1:1:table/u,1000,USD,1\n\
Usage,2026-11-01T00:00:00Z,AmazonDynamoDB,WriteRequestUnits,arn:aws:dynamodb:us-east-1:1:table/u,1000,USD,5\n";

#[test]
fn every_rule_of_the_reader_holds_in_the_sql() {
    let Some(python) = common::duckdb_python() else {
        common::skip_without(
            "duckdb",
            "runs the printed SQL on a Parquet copy of the logs",
        );
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let lines: Vec<String> = SHAPED.iter().map(|l| (*l).to_string()).collect();
    let log = write_file(dir.path(), "requests.jsonl", &(lines.join("\n") + "\n"));
    let bill = write_file(dir.path(), "cur.csv", SHAPED_BILL);
    let tenancy = ["--tenant", "PK=ORG#([^#]+)"];
    let result = run_on_duckdb(&python, &lines, &sql(&tenancy), dir.path());
    let local = allocate(&bill, &log, &tenancy, "json");
    assert_eq!(allocate(&bill, &result, &tenancy, "json"), local);
    let doc: serde_json::Value = serde_json::from_str(&local).unwrap();
    let row = |name: &str| {
        doc["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["name"] == name)
            .map(|r| common::dec(r["unblended"].as_str().unwrap()))
    };
    // Table t's writes, $10 over 1 (batch) + 2 (c) + 4 (a's put: 2 + 1 LSI + 1 GSI) = 7
    // units: the batch's unit 2/3 to a, 1/3 to b. a: (2/3 + 4) ÷ 7 × 10 = 6.666666666666…;
    // b: (1/3) ÷ 7 × 10 = 0.476190476190…; c: 2/7 × 10 = 2.857142857142….
    // Table u's writes, $5 over d's 2 (transaction) and b's 3 (no operation: writes):
    // d $2, b $3. Reads of t, $7 over e's 0.5 + 1 (GSI) and the scan's 128 untenanted:
    // e 1.5/129.5 × 7; reads of u, $1 over the batch get's 1 unit, d and e one key each:
    // $0.50 each.
    assert_eq!(row("a").unwrap().round_dp(9), common::dec("6.666666667"));
    assert_eq!(row("b").unwrap().round_dp(9), common::dec("3.476190476"));
    assert_eq!(row("c").unwrap().round_dp(9), common::dec("2.857142857"));
    assert_eq!(row("d").unwrap(), common::dec("2.5"));
    // e: 1.5 × 7 ÷ 129.5 = 0.081081081081… and $0.50 of u's reads.
    assert_eq!(row("e").unwrap().round_dp(9), common::dec("0.581081081"));
}

#[test]
fn lines_the_reader_refuses_are_refused_from_the_result() {
    let Some(python) = common::duckdb_python() else {
        common::skip_without(
            "duckdb",
            "runs the printed SQL on a Parquet copy of the logs",
        );
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let bill = write_file(dir.path(), "cur.csv", SHAPED_BILL);
    let mut lines: Vec<String> = SHAPED.iter().map(|l| (*l).to_string()).collect();
    // No ConsumedCapacity; units below zero.
    lines.push(r#"{"operation":"GetItem","Key":{"PK":"ORG#a"}}"#.to_string());
    lines.push(
        r#"{"operation":"GetItem","Key":{"PK":"ORG#a"},"ConsumedCapacity":{"TableName":"t","CapacityUnits":-3}}"#
            .to_string(),
    );
    let log = write_file(dir.path(), "requests.jsonl", &lines.join("\n"));
    let tenancy = ["--tenant", "PK=ORG#([^#]+)"];
    let result = run_on_duckdb(&python, &lines, &sql(&tenancy), dir.path());
    for file in [&log, &result] {
        Case::new()
            .args([
                "allocate",
                "--bill",
                &bill,
                "--log",
                file,
                "--tenant",
                "PK=ORG#([^#]+)",
            ])
            .run()
            .code(1);
    }
    Case::new()
        .args([
            "allocate",
            "--bill",
            &bill,
            "--log",
            &result,
            "--tenant",
            "PK=ORG#([^#]+)",
        ])
        .run()
        .stderr_has("the query found 2 request line(s) the local reader refuses");
}

#[test]
fn the_athena_sql_is_the_same_query_in_trino_s_words() {
    let athena = Case::new()
        .args(["allocate", "--athena-sql", "--tenant", "PK=ORG#([^#]+)"])
        .run()
        .success()
        .stdout;
    let duckdb = sql(&["--tenant", "PK=ORG#([^#]+)"]);
    // Trino's functions and types, none of DuckDB's own.
    for trino in [
        "json_parse(line)",
        "json_extract_scalar(r, '$.operation')",
        "CAST(json_extract(r, '$.ConsumedCapacity') AS ARRAY(JSON))",
        "ARRAY[json_extract(r, '$.ConsumedCapacity')]",
        "UNNEST(CAST(json_extract(c, '$.GlobalSecondaryIndexes') AS MAP(VARCHAR, JSON))) AS x(k, v)",
        "element_at(CAST(json_extract(r, '$.RequestItems') AS MAP(VARCHAR, JSON)), table_name)",
        "FROM request_logs",
    ] {
        assert!(athena.contains(trino), "{trino}");
    }
    for duck in ["JSON[]", "map_entries", "json_extract_string", "json_type"] {
        assert!(!athena.contains(duck), "{duck}");
        assert!(duckdb.contains(duck), "{duck}");
    }
    // The same shape: the same common table expressions and the same result columns.
    for part in [
        "WITH lines AS",
        "requests AS",
        "entries AS",
        "levels AS",
        "units AS",
        "shares AS",
        "LEFT JOIN LATERAL",
        "GROUP BY 1, 2, 3, 4, 5, 6",
        "'ORG#([^#]+)'",
    ] {
        assert!(athena.contains(part) && duckdb.contains(part), "{part}");
    }
    // Another table and column; names the SQL cannot take as they are, refused.
    let other = Case::new()
        .args([
            "allocate",
            "--athena-sql",
            "--by",
            "pattern",
            "--athena-table",
            "logs_2026_11",
            "--athena-column",
            "json",
        ])
        .run()
        .success()
        .stdout;
    assert!(other.contains("FROM logs_2026_11 WHERE trim(json)"));
    Case::new()
        .args([
            "allocate",
            "--athena-sql",
            "--by",
            "pattern",
            "--athena-table",
            "x; DROP TABLE y",
        ])
        .run()
        .code(2)
        .stderr_has("letters, digits and `_` only");
    // A bill with the SQL: one or the other.
    Case::new()
        .args([
            "allocate",
            "--athena-sql",
            "--bill",
            "b.csv",
            "--by",
            "pattern",
        ])
        .run()
        .code(2);
}
