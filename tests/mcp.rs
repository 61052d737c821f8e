//! `ddbcost mcp` as agents meet it: the official MCP Python SDK calls every tool on the
//! bundled examples (`tests/mcp/client.py`, in the venv `.ci/run` makes), and raw JSON-RPC
//! checks what an SDK would hide — malformed and oversized requests answered with the
//! protocol's error, the time budget, concurrent calls, files outside `--root` refused,
//! standard output carrying protocol messages only.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use common::{Case, dec, many_tables, root};
use rust_decimal::Decimal;
use serde_json::{Value, json};

/// A server on pipes, read by a thread (so that a missing reply fails the test instead of
/// hanging it).
struct Server {
    child: Child,
    stdin: ChildStdin,
    lines: mpsc::Receiver<String>,
}

impl Server {
    fn start(args: &[&str]) -> Server {
        Server::start_with(args, &[])
    }

    /// A server with these environment variables set too (`TMPDIR`: where a temporary
    /// folder would go).
    fn start_with(args: &[&str], env: &[(&str, &std::path::Path)]) -> Server {
        Server::start_in(&root(), args, env)
    }

    /// A server started in the folder `dir`, as an agent starts it from its own.
    fn start_in(dir: &std::path::Path, args: &[&str], env: &[(&str, &std::path::Path)]) -> Server {
        let mut command = common::ddbcost();
        for (k, v) in env {
            command.env(k, v);
        }
        let mut child = command
            .arg("mcp")
            .args(args)
            .current_dir(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start ddbcost mcp");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        let mut s = Server {
            child,
            stdin,
            lines,
        };
        s.send(
            &json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "raw-test", "version": "0"}}}),
        );
        let init = s.reply();
        assert_eq!(init["result"]["serverInfo"]["name"], "ddbcost", "{init}");
        s.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        s
    }

    fn send(&mut self, message: &Value) {
        self.send_raw(&message.to_string());
    }

    fn send_raw(&mut self, line: &str) {
        self.stdin.write_all(line.as_bytes()).unwrap();
        self.stdin.write_all(b"\n").unwrap();
        self.stdin.flush().unwrap();
    }

    /// The next message on standard output, which must be a JSON-RPC 2.0 message.
    fn reply(&self) -> Value {
        let line = self
            .lines
            .recv_timeout(Duration::from_secs(60))
            .expect("a reply within 60 s");
        let v: Value = serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("standard output carried a non-JSON line ({e}): {line}"));
        assert_eq!(v["jsonrpc"], "2.0", "{line}");
        v
    }

    fn call(&mut self, id: u64, tool: &str, arguments: &Value) -> Value {
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": tool, "arguments": arguments}}));
        let r = self.reply();
        assert_eq!(r["id"], id, "{r}");
        r
    }

    fn alive(&mut self) {
        self.send(&json!({"jsonrpc": "2.0", "id": 999, "method": "ping"}));
        assert_eq!(self.reply()["id"], 999);
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn cloudshop() -> String {
    std::fs::read_to_string(root().join("workloads/cloudshop.yaml")).unwrap()
}

#[test]
fn malformed_and_oversized_requests_get_the_protocols_error() {
    let mut s = Server::start(&["--max-request-bytes", "4096"]);
    s.send_raw("{not json");
    let r = s.reply();
    assert_eq!(r["error"]["code"], -32700, "{r}");
    assert_eq!(r["id"], Value::Null);
    s.send_raw(r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#);
    assert_eq!(s.reply()["error"]["code"], -32600);
    s.send_raw(r#"{"jsonrpc":"1.0","id":2,"method":"ping"}"#);
    let r = s.reply();
    assert_eq!(
        (r["id"].clone(), r["error"]["code"].clone()),
        (json!(2), json!(-32600))
    );
    s.send(
        &json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"nam": "estimate"}}),
    );
    assert_eq!(s.reply()["error"]["code"], -32602);
    // 5,000 bytes of workload: over the 4,096-byte budget; the id is still answered.
    let r = s.call(4, "estimate", &json!({"workload": "x".repeat(5000)}));
    assert_eq!(r["error"]["code"], -32600, "{r}");
    assert!(
        r["error"]["message"]
            .as_str()
            .unwrap()
            .contains("4096 bytes"),
        "{r}"
    );
    let r = s.call(5, "no-such-tool", &json!({}));
    assert_eq!(r["error"]["code"], -32602);
    let r = s.call(6, "estimate", &json!({"workload": "tables: {}", "rate": 3}));
    assert_eq!(r["error"]["code"], -32602);
    assert!(
        r["error"]["message"].as_str().unwrap().contains("`rate`"),
        "{r}"
    );
    let r = s.call(
        8,
        "estimate",
        &json!({"workload": "tables: {}", "by": "table"}),
    );
    assert_eq!(r["error"]["code"], -32602, "{r}");
    s.send(&json!({"jsonrpc": "2.0", "id": 7, "method": "no/such/method"}));
    assert_eq!(s.reply()["error"]["code"], -32601);
    s.alive();
}

#[test]
fn initialize_answers_the_revision_asked_for() {
    for (asked, answered) in [
        ("2024-11-05", "2024-11-05"),
        ("2025-03-26", "2025-03-26"),
        ("2025-06-18", "2025-06-18"),
        ("2025-11-25", "2025-11-25"),
        ("1999-01-01", "2025-11-25"),
    ] {
        let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": asked, "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}});
        let out = Case::new().args(["mcp"]).stdin(&format!("{init}\n")).run();
        let reply: Value = serde_json::from_str(out.stdout.lines().next().unwrap()).unwrap();
        assert_eq!(reply["result"]["protocolVersion"], answered, "{asked}");
        assert_eq!(
            out.stdout.lines().count(),
            1,
            "protocol messages only: {}",
            out.stdout
        );
    }
}

/// The README's configuration snippet starts a server that answers.
#[test]
fn the_readmes_snippet_starts_the_server() {
    let readme = common::documentation_text();
    let block = readme
        .split("<!-- mcp-config -->\n```json\n")
        .nth(1)
        .and_then(|r| r.split("```").next())
        .expect("the README's MCP snippet");
    let config: Value = serde_json::from_str(block).unwrap();
    let server = &config["mcpServers"]["ddbcost"];
    assert_eq!(server["command"], "ddbcost");
    let args: Vec<&str> = server["args"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(args[0], "mcp");
    let mut s = Server::start(&args[1..]);
    let r = s.call(1, "estimate", &json!({"workload": cloudshop()}));
    assert_eq!(r["result"]["structuredContent"]["total"], "1243.54");
}

#[test]
fn a_call_past_the_time_budget_is_stopped_with_the_protocols_error() {
    // One millisecond: less than starting any process takes.
    let mut s = Server::start(&["--timeout", "0.001"]);
    let r = s.call(1, "estimate", &json!({"workload": cloudshop()}));
    assert_eq!(r["error"]["code"], -32001, "{r}");
    assert!(
        r["error"]["message"]
            .as_str()
            .unwrap()
            .contains("time budget of 1 ms"),
        "{r}"
    );
    s.alive();
}

#[test]
fn concurrent_calls_are_each_answered() {
    let mut s = Server::start(&["--jobs", "2"]);
    let text = cloudshop();
    for id in 1..=6 {
        s.send(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": "estimate", "arguments": {"workload": text}}}));
    }
    let mut ids: Vec<u64> = (1..=6)
        .map(|_| {
            let r = s.reply();
            // CloudShop's bill, derived in tests/compare_cli.rs from the seeds' figures.
            assert_eq!(r["result"]["structuredContent"]["total"], "1243.54", "{r}");
            r["id"].as_u64().unwrap()
        })
        .collect();
    ids.sort_unstable();
    assert_eq!(ids, [1, 2, 3, 4, 5, 6]);
}

#[test]
fn a_bad_workload_is_a_tool_error_with_the_command_lines_message() {
    let mut s = Server::start(&[]);
    let typo =
        "tables:\n  t:\n    item_size: 1 KB\n    patterns:\n      get: { op: get, rat: 1/s }\n";
    let r = s.call(1, "estimate", &json!({"workload": typo}));
    assert_eq!(r["result"]["isError"], true, "{r}");
    let e = &r["result"]["structuredContent"];
    assert_eq!(e["path"], "tables.t.patterns.get.rat");
    assert_eq!(
        (e["line"].clone(), e["column"].clone()),
        (json!(5), json!(23))
    );
    let cli = Case::new().args(["estimate", "-"]).stdin(typo).run();
    assert_eq!(cli.code, 1);
    assert_eq!(
        r["result"]["content"][0]["text"].as_str().unwrap(),
        cli.stderr.trim_end(),
        "the same words as the command line"
    );
    // validate answers with the verdict, not a tool error.
    let r = s.call(2, "validate", &json!({"workload": typo}));
    assert_eq!(r["result"]["isError"], false);
    assert_eq!(r["result"]["structuredContent"]["valid"], false);
    let e = &r["result"]["structuredContent"]["error"];
    assert_eq!(e["path"], "tables.t.patterns.get.rat");
    assert!(
        e["expected"]
            .as_str()
            .unwrap()
            .starts_with("one of keys, op, rate"),
        "{e}"
    );
    assert!(e["help"].as_str().unwrap().contains("`rate`"), "{e}");
}

#[test]
fn files_outside_the_root_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let inside = dir.path().join("root");
    std::fs::create_dir(&inside).unwrap();
    std::fs::copy(
        root().join("workloads/samples/order.json"),
        inside.join("order.json"),
    )
    .unwrap();
    std::os::unix::fs::symlink("/etc", inside.join("etc")).unwrap();
    std::fs::write(dir.path().join("secret.json"), "{\"pk\": {\"S\": \"x\"}}").unwrap();
    let mut s = Server::start(&["--root", inside.to_str().unwrap()]);
    let with_sample = |sample: &str| {
        json!({"workload": format!(
            "prices: aws-us-east-1\ntables:\n  t:\n    item_size: {{ sample: {sample} }}\n    patterns:\n      put: {{ op: put, rate: 1M/month }}\n"
        )})
    };
    // Inside: order.json measures 691 B (README), one write unit: 1 M × 1 WRU × $0.625/M.
    let r = s.call(1, "estimate", &with_sample("order.json"));
    let writes = r["result"]["structuredContent"]["line_items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["key"] == "t/writes")
        .cloned()
        .unwrap_or_else(|| panic!("{r}"));
    assert_eq!(writes["cost"], "0.625");
    for outside in ["../secret.json", "/etc/passwd", "etc/passwd"] {
        let r = s.call(2, "estimate", &with_sample(outside));
        assert_eq!(r["result"]["isError"], true, "{outside}: {r}");
        let message = r["result"]["structuredContent"]["message"]
            .as_str()
            .unwrap();
        assert!(
            message.contains("outside the folder this run may read"),
            "{outside}: {message}"
        );
    }
    // A price table path outside is refused the same way.
    let r = s.call(
        3,
        "estimate",
        &json!({"workload": cloudshop(), "prices": "/work/nothing.yaml"}),
    );
    assert_eq!(r["result"]["isError"], true, "{r}");
}

#[test]
fn without_a_root_a_document_reads_no_file() {
    let mut s = Server::start(&[]);
    let r = s.call(1, "estimate", &json!({"workload": "tables:\n  t:\n    item_size: { sample: workloads/samples/order.json }\n    patterns:\n      put: { op: put, rate: 1/s }\n"}));
    assert_eq!(r["result"]["isError"], true, "{r}");
}

#[test]
fn explain_states_the_rule_and_its_arithmetic() {
    // 10 strong gets a second of a 6 KB item: ⌈6 KB ÷ 4 KB⌉ = 2 RRU each;
    // 10 × 3,600 × 730 = 26,280,000 requests → 52,560,000 RRU = 52.56 M × $0.125 = $6.57.
    let w = "prices: aws-us-east-1\ntables:\n  t:\n    item_size: 6 KB\n    patterns:\n      get: { op: get, rate: 10/s, consistency: strong }\n";
    let out = Case::new()
        .args(["explain", "-", "--line", "t/reads", "--format", "json"])
        .stdin(w)
        .run();
    assert_eq!(out.code, 0, "{}", out.stderr);
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(doc["schema"], "ddbcost.explain/v1");
    let line = &doc["lines"][0];
    assert_eq!(line["cost"], "6.57");
    assert_eq!(line["price_table"]["id"], "aws-us-east-1");
    assert!(
        line["rule"]
            .as_str()
            .unwrap()
            .contains("rounded up to the next 4 KB")
    );
    assert_eq!(
        line["arithmetic"]
            .as_str()
            .unwrap()
            .split(" (")
            .next()
            .unwrap(),
        "52.56 M RRU × 0.125 USD per M RRU = 6.57 USD"
    );
    let p = &line["patterns"][0];
    assert_eq!(p["requests_per_month"], "26280000");
    assert_eq!(p["units_per_request"], "2");
    assert_eq!(dec(p["units"].as_str().unwrap()), dec("52560000"));
    // A line the estimate does not have is refused with the nearest key.
    let bad = Case::new()
        .args(["explain", "-", "--line", "t/read"])
        .stdin(w)
        .run();
    assert_eq!(bad.code, 1);
    assert!(bad.stderr.contains("`t/reads`?"), "{}", bad.stderr);
}

/// A Python that can `import mcp`: `DDBCOST_PYTHON` (`.ci/run` sets it to its venv's).
fn mcp_python() -> Option<String> {
    let python = std::env::var("DDBCOST_PYTHON").unwrap_or_else(|_| "python3".to_string());
    std::process::Command::new(&python)
        .args(["-c", "import mcp"])
        .output()
        .is_ok_and(|o| o.status.success())
        .then_some(python)
}

#[test]
#[allow(clippy::too_many_lines)] // one client session, every tool in it
fn the_official_python_sdk_prices_compares_and_advises() {
    let Some(python) = mcp_python() else {
        common::skip_without("the MCP Python SDK", "pip install mcp, or DDBCOST_PYTHON");
        return;
    };
    let cloudshop = cloudshop();
    let marketplace =
        std::fs::read_to_string(root().join("workloads/marketplace-us-east-1.yaml")).unwrap();
    let items = std::fs::read_to_string(root().join("workloads/samples/orders.jsonl")).unwrap();
    let live = std::fs::read_to_string(root().join("workloads/samples/orders-live.yaml")).unwrap();
    let typo =
        "tables:\n  t:\n    item_size: 1 KB\n    patterns:\n      get: { op: get, rat: 1/s }\n";
    let calls = json!([
        {"tool": "estimate", "arguments": {"workload": cloudshop, "by": "component"}},
        {"tool": "compare", "arguments": {"workload": cloudshop}},
        {"tool": "advise", "arguments": {"workload": cloudshop}},
        {"tool": "forecast", "arguments": {"workload": marketplace, "months": 3, "start": "2027-01"}},
        {"tool": "sweep", "arguments": {"workload": cloudshop, "vary": ["tables.orders.patterns.get-order.consistency=strong,eventual"]}},
        {"tool": "size", "arguments": {"items": items}},
        {"tool": "keys", "arguments": {"items": items, "key": "PK"}},
        {"tool": "validate", "arguments": {"workload": typo}},
        {"tool": "explain", "arguments": {"workload": cloudshop, "line": "orders/reads"}},
        {"tool": "estimate", "arguments": {"workload": "tables:\n  t:\n    item_size: { sample: ../README.md }\n    patterns:\n      put: { op: put, rate: 1/s }\n"}},
        {"tool": "compare", "arguments": {"workload": cloudshop, "alternatives": [{"name": "eventual-gets", "set": ["tables.orders.patterns.get-order.consistency=eventual"]}]}},
        {"tool": "usage", "arguments": {"files": ["samples/orders-metrics.json.gz"], "workload": live}},
        {"tool": "import", "arguments": {"files": ["iac/orders.template.yaml"], "region": "us-east-1"}},
    ]);
    let dir = tempfile::tempdir().unwrap();
    let calls_file = dir.path().join("calls.json");
    std::fs::write(&calls_file, calls.to_string()).unwrap();
    let out = common::command(&python)
        .arg(root().join("tests/mcp/client.py"))
        .arg(env!("CARGO_BIN_EXE_ddbcost"))
        .arg(root().join("workloads"))
        .arg(&calls_file)
        .current_dir(root())
        .output()
        .expect("run the Python client");
    assert!(
        out.status.success(),
        "client failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let seen: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(seen["server"], "ddbcost");
    let tools: Vec<&str> = seen["tools"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    for t in [
        "estimate",
        "compare",
        "advise",
        "forecast",
        "sweep",
        "size",
        "keys",
        "validate",
        "explain",
        "usage",
        "bill",
        "reconcile",
        "allocate",
        "anomalies",
        "import",
    ] {
        assert!(tools.contains(&t), "{t} listed: {tools:?}");
    }
    // The workload argument carries the workload schema.
    assert!(
        seen["tools"]["estimate"]["input"]["$defs"]["Workload"]["properties"]["tables"].is_object()
    );
    let resources: Vec<&str> = seen["resources"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(
        resources.contains(&"ddbcost://prices/aws-us-east-1"),
        "{resources:?}"
    );
    assert!(resources.contains(&"ddbcost://schema/workload"));
    assert_eq!(seen["cloudshop_resource"], cloudshop.as_str());
    assert_eq!(seen["prompts"], json!(["design-table"]));
    assert!(
        seen["prompt_text"]
            .as_str()
            .unwrap()
            .contains("Access patterns first")
    );

    let c = seen["calls"].as_array().unwrap();
    let ok = |i: usize| {
        assert_eq!(c[i]["is_error"], false, "{}", c[i]);
        &c[i]["structured"]
    };
    // CloudShop's bill: €1,243.54 (the seeds' case, derived line by line in tests/compare_cli.rs).
    assert_eq!(ok(0)["total"], "1243.54");
    assert_eq!(ok(0)["currency"], "EUR");
    // The notes come last: cloudshop-eur took effect on 2025-03-01, over 365 days ago.
    assert!(
        c[0]["texts"]
            .as_array()
            .unwrap()
            .last()
            .unwrap()
            .as_str()
            .unwrap()
            .contains("took effect on 2025-03-01"),
        "{}",
        c[0]["texts"]
    );
    assert!(
        c[0]["texts"][1]
            .as_str()
            .unwrap()
            .contains("| index-writes"),
        "{}",
        c[0]["texts"][1]
    );
    // Its story: €928.04 after the sparse GSI (1,243.54 − (410 − 94.50)), then eventual
    // reads, then provisioned capacity (figures of tests/compare_cli.rs).
    let steps: Vec<(&str, &str)> = ok(1)["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["name"].as_str().unwrap(), s["total"].as_str().unwrap()))
        .collect();
    assert_eq!(steps[0], ("sparse-gsi-1", "928.04"));
    assert_eq!(
        steps.iter().map(|s| s.0).collect::<Vec<_>>(),
        ["sparse-gsi-1", "eventual-reads", "provisioned-auto-scaling"]
    );
    assert_eq!(ok(2)["schema"], "ddbcost.advise/v1");
    assert!(!ok(2)["suggestions"].as_array().unwrap().is_empty());
    assert_eq!(ok(3)["months"].as_array().unwrap().len(), 3);
    assert_eq!(ok(4)["designs"], 2);
    assert_eq!(ok(5)["schema"], "ddbcost.size/v1");
    assert_eq!(ok(6)["schema"], "ddbcost-keys/1");
    assert_eq!(ok(7)["valid"], false);
    assert_eq!(ok(7)["error"]["path"], "tables.t.patterns.get.rat");
    // orders/reads: 972,068,315 RRU × €0.50 per million = €486.0341575.
    assert_eq!(ok(8)["lines"][0]["cost"], "486.0341575");
    assert_eq!(c[9]["is_error"], true);
    assert!(
        c[9]["structured"]["message"]
            .as_str()
            .unwrap()
            .contains("outside the folder"),
        "{}",
        c[9]
    );
    // get-order's 388,868,315 strong RRU (explain's line above: 194.4341575 ÷ €0.50 per
    // million) halve when eventual: −194,434,157.5 RRU × €0.50/M = −€97.21707875.
    let alt = ok(10)["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "eventual-gets")
        .unwrap_or_else(|| panic!("{}", c[10]));
    assert_eq!(
        dec(alt["total"].as_str().unwrap()),
        dec("1243.54") - dec("97.21707875")
    );

    // Each tool's figures are the command line's, byte for byte.
    let cli = |args: &[&str], stdin: &str| -> Value {
        let o = Case::new().args(args).stdin(stdin).run();
        assert_eq!(o.code, 0, "{}", o.stderr);
        serde_json::from_str(&o.stdout).unwrap()
    };
    assert_eq!(
        *ok(0),
        cli(&["estimate", "-", "--format", "json"], &cloudshop)
    );
    assert_eq!(
        *ok(1),
        cli(&["compare", "-", "--format", "json"], &cloudshop)
    );
    assert_eq!(
        *ok(2),
        cli(&["advise", "-", "--format", "json"], &cloudshop)
    );
    // The measured loop: usage on files under the root (the README's example, derived in
    // tests/usage_verdict.rs: $540.93 today, $347.07 a month saved), and import.
    let usage = ok(11);
    assert_eq!(usage["schema"], "ddbcost.usage/v2");
    assert_eq!(
        dec(usage["tables"][0]["verdict"]["saving_monthly"]
            .as_str()
            .unwrap())
        .round_dp(2),
        dec("347.07")
    );
    assert!(ok(12)["workload"].as_str().unwrap().contains("tables:"));
}

mod generated {
    use super::*;
    use proptest::prelude::*;

    /// A line a client (or a broken one) might send; `Some(id)` when it must be answered
    /// with that id.
    fn message(id: u64) -> impl Strategy<Value = (String, Option<u64>)> {
        let tools = prop::sample::select(vec![
            "estimate", "compare", "advise", "forecast", "sweep", "size", "keys", "validate",
            "explain", "nope", "",
        ]);
        let values = prop_oneof![
            Just(json!(null)),
            Just(json!(true)),
            any::<i64>().prop_map(|n| json!(n)),
            "[ -~]{0,40}".prop_map(|s| json!(s)),
            Just(json!(
                "tables:\n  t:\n    item_size: 1 KB\n    patterns:\n      g: { op: get, rate: 5/s }\n"
            )),
            Just(
                json!({"tables": {"t": {"item_size": "2 KB", "patterns": {"p": {"op": "put", "rate": "-1/s"}}}}})
            ),
            Just(json!(["tables.t.class=standard-ia"])),
        ];
        let keys = prop::sample::select(vec![
            "workload",
            "months",
            "vary",
            "items",
            "key",
            "line",
            "set",
            "by",
            "prices",
            "free_tier",
            "bogus",
        ]);
        let arguments = prop::collection::btree_map(keys, values, 0..4);
        prop_oneof![
            (tools, arguments).prop_map(move |(t, a)| (
                json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": t, "arguments": a}}).to_string(),
                Some(id)
            )),
            "[ -~]{0,30}".prop_map(move |uri| (
                json!({"jsonrpc": "2.0", "id": id, "method": "resources/read", "params": {"uri": uri}}).to_string(),
                Some(id)
            )),
            prop::sample::select(vec!["tools/list", "resources/list", "prompts/list", "ping", "prompts/get", "x/y"]).prop_map(move |m| (
                json!({"jsonrpc": "2.0", "id": id, "method": m}).to_string(),
                Some(id)
            )),
            "[ -~]{1,60}".prop_map(|junk| (junk, None)),
            Just((json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 12345}}).to_string(), None)),
        ]
    }

    fn session() -> impl Strategy<Value = Vec<(String, Option<u64>)>> {
        (1usize..8).prop_flat_map(|n| (1..=n as u64).map(message).collect::<Vec<_>>())
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]
        #[test]
        fn generated_requests_never_end_the_server(lines in session()) {
            let mut s = Server::start(&["--timeout", "10", "--max-request-bytes", "2048"]);
            let mut pending: Vec<u64> = Vec::new();
            for (line, id) in &lines {
                s.send_raw(line);
                pending.extend(id);
            }
            s.send(&json!({"jsonrpc": "2.0", "id": 100_000, "method": "ping"}));
            let mut answered: Vec<u64> = Vec::new();
            let mut pinged = false;
            while !(pinged && answered.len() >= pending.len()) {
                let r = s.reply();
                if r["id"] == 100_000 {
                    prop_assert!(r.get("result").is_some(), "{r}");
                    pinged = true;
                } else if let Some(id) = r["id"].as_u64() {
                    prop_assert!(r.get("result").is_some() || r["error"]["code"].is_i64(), "{r}");
                    answered.push(id);
                }
            }
            answered.sort_unstable();
            pending.sort_unstable();
            prop_assert_eq!(answered, pending);
        }
    }
}

#[test]
fn forecast_growth_and_the_sweep_bound() {
    let mut s = Server::start(&[]);
    let w = "prices: aws-us-east-1\ntables:\n  t:\n    item_size: 1 KB\n    patterns:\n      get: { op: get, rate: 10M/month, consistency: strong }\n";
    let r = s.call(
        1,
        "forecast",
        &json!({"workload": w, "months": 3, "start": "2027-01", "growth": "10%/month"}),
    );
    let months = r["result"]["structuredContent"]["months"]
        .as_array()
        .unwrap_or_else(|| panic!("{r}"));
    // 10 M strong 1 KB gets × 1 RRU × $0.125 per million = $1.25, then × 1.1 a month.
    let totals: Vec<Decimal> = months
        .iter()
        .map(|m| dec(m["total"].as_str().unwrap()))
        .collect();
    assert_eq!(totals, [dec("1.25"), dec("1.375"), dec("1.5125")]);
    // 101 × 100 = 10,100 designs: over the 10,000 a call may price.
    let many = |n: usize| (1..=n).map(|i| i.to_string()).collect::<Vec<_>>().join(",");
    let r = s.call(
        2,
        "sweep",
        &json!({"workload": w, "vary": [
            format!("tables.t.patterns.get.items={}", many(101)),
            format!("tables.t.item_size={}", many(100)),
        ]}),
    );
    assert_eq!(r["error"]["code"], -32602, "{r}");
    assert!(
        r["error"]["message"]
            .as_str()
            .unwrap()
            .contains("10100 designs"),
        "{r}"
    );
}

/// The two options every command takes that the server relies on, from the command line.
#[test]
fn root_and_json_errors_on_the_command_line() {
    // A usage error as JSON: exit 2, kind usage, clap's words in the message.
    let out = Case::new()
        .args(["estimate", "--bogus", "--error-format", "json"])
        .run();
    assert_eq!(out.code, 2);
    let e: Value = serde_json::from_str(out.stderr.trim()).unwrap();
    assert_eq!(
        (e["schema"].clone(), e["kind"].clone()),
        (json!("ddbcost.error/v1"), json!("usage"))
    );
    assert!(e["message"].as_str().unwrap().contains("--bogus"), "{e}");
    // An input error as JSON: the path, line, column and what was expected.
    let typo =
        "tables:\n  t:\n    item_size: 1 KB\n    patterns:\n      get: { op: get, rat: 1/s }\n";
    let out = Case::new()
        .args(["estimate", "-", "--error-format", "json"])
        .stdin(typo)
        .run();
    assert_eq!(out.code, 1);
    let e: Value = serde_json::from_str(out.stderr.trim()).unwrap();
    assert_eq!(e["path"], "tables.t.patterns.get.rat");
    assert_eq!(
        (
            e["line"].clone(),
            e["column"].clone(),
            e["exit_code"].clone()
        ),
        (json!(5), json!(23), json!(1))
    );
    // --root: a file inside is read, one outside refused (exit 1), standard input allowed.
    let inside = Case::new()
        .args([
            "estimate",
            "workloads/cloudshop.yaml",
            "--root",
            "workloads",
            "--format",
            "json",
        ])
        .run();
    assert_eq!(inside.code, 0, "{}", inside.stderr);
    let outside = Case::new()
        .args(["estimate", "README.md", "--root", "workloads"])
        .run();
    assert_eq!(outside.code, 1);
    assert!(
        outside
            .stderr
            .contains("outside the folder this run may read"),
        "{}",
        outside.stderr
    );
    let stdin = Case::new()
        .args(["estimate", "-", "--root", "workloads", "--format", "json"])
        .stdin(&cloudshop())
        .run();
    assert_eq!(stdin.code, 0, "{}", stdin.stderr);
    let missing = Case::new()
        .args(["estimate", "-", "--root", "no-such-folder"])
        .stdin("x")
        .run();
    assert_eq!(missing.code, 2, "{}", missing.stderr);
}

mod explained {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]
        /// Any get: explain's units per request are DynamoDB's rule (⌈size ÷ 4 KB⌉, halved
        /// when eventual), its requests the rate over a 730-hour month, its cost units ×
        /// $0.125 per million — and `--set` of the rate reaches it the same way.
        #[test]
        fn explain_is_the_rule_for_any_get(bytes in 1u32..=400_000, rate in 1u32..=5000, set_rate in proptest::option::of(1u32..=5000), eventual in any::<bool>()) {
            let consistency = if eventual { "eventual" } else { "strong" };
            let w = format!("prices: aws-us-east-1\ntables:\n  t:\n    item_size: {bytes} B\n    patterns:\n      get: {{ op: get, rate: {rate}/s, consistency: {consistency} }}\n");
            let mut args = vec!["explain".to_string(), "-".into(), "--line".into(), "t/reads".into(), "--format".into(), "json".into()];
            if let Some(r) = set_rate {
                args.extend(["--set".into(), format!("tables.t.patterns.get.rate={r}/s")]);
            }
            let out = Case::new().args(&args).stdin(&w).run();
            prop_assert_eq!(out.code, 0, "{}", out.stderr);
            let doc: Value = serde_json::from_str(&out.stdout).unwrap();
            let p = &doc["lines"][0]["patterns"][0];
            let per = Decimal::from(bytes.div_ceil(4096)) * if eventual { dec("0.5") } else { Decimal::ONE };
            let requests = Decimal::from(set_rate.unwrap_or(rate)) * Decimal::from(3600 * 730);
            prop_assert_eq!(dec(p["units_per_request"].as_str().unwrap()), per);
            prop_assert_eq!(dec(p["requests_per_month"].as_str().unwrap()), requests);
            let cost = per * requests / Decimal::from(1_000_000) * dec("0.125");
            prop_assert_eq!(dec(doc["lines"][0]["cost"].as_str().unwrap()), cost);
            prop_assert_eq!(dec(p["cost"].as_str().unwrap()), cost);
        }
    }
}

/// The measured loop through the server (#47): `import` a template, `usage` on two weeks of
/// metrics with the tables as they run, `bill` and `reconcile` on a bill — every file named
/// by its path under `--root`, and one outside refused.
#[test]
fn the_measured_loop_runs_through_the_server_on_files_under_its_root() {
    let mut s = Server::start(&["--root", root().to_str().unwrap()]);
    // import: the template's tables as a workload (YAML text).
    let r = s.call(
        1,
        "import",
        &json!({"files": ["workloads/iac/orders.template.yaml"], "region": "us-east-1"}),
    );
    let imported = &r["result"]["structuredContent"];
    assert_eq!(imported["schema"], "ddbcost.import/v1", "{r}");
    assert!(
        imported["workload"].as_str().unwrap().contains("tables:"),
        "{r}"
    );
    // usage: the README's example; its figures are derived in tests/usage_verdict.rs
    // (today $540.93 a month, $347.07 saved).
    let live = std::fs::read_to_string(root().join("workloads/samples/orders-live.yaml")).unwrap();
    let r = s.call(
        2,
        "usage",
        &json!({"files": ["workloads/samples/orders-metrics.json.gz"], "workload": live}),
    );
    let usage = &r["result"]["structuredContent"];
    assert_eq!(usage["schema"], "ddbcost.usage/v2", "{r}");
    let v = &usage["tables"][0]["verdict"];
    assert_eq!(dec(v["today_monthly"].as_str().unwrap()), dec("540.93"));
    assert_eq!(
        dec(v["saving_monthly"].as_str().unwrap()).round_dp(2),
        dec("347.07")
    );
    assert!(
        v["commands"][0]
            .as_str()
            .unwrap()
            .starts_with("aws dynamodb update-table --table-name orders")
    );
    // usage without a workload: the verdict is against on demand, assumed.
    let r = s.call(
        3,
        "usage",
        &json!({"files": ["workloads/samples/orders-metrics.json.gz"]}),
    );
    assert_eq!(
        r["result"]["structuredContent"]["tables"][0]["verdict"]["today"], "provisioned",
        "{r}"
    );
    // A file outside the root is refused, as every file the tools read.
    for outside in ["../secret.json", "/etc/passwd"] {
        let r = s.call(4, "usage", &json!({"files": [outside]}));
        assert_eq!(r["result"]["isError"], true, "{outside}: {r}");
        let r = s.call(5, "bill", &json!({"files": [outside]}));
        assert_eq!(r["result"]["isError"], true, "{outside}: {r}");
    }
    // An argument that reads as an option is not a path.
    let r = s.call(6, "bill", &json!({"files": ["--commitments"]}));
    assert!(r["error"].is_object(), "{r}");
    s.alive();
}

#[test]
fn bill_and_reconcile_run_through_the_server() {
    let mut s = Server::start(&["--root", root().to_str().unwrap()]);
    // November 2026 for `orders` on demand (tests/fixtures/bill/november-orders.csv): each
    // day 8,640,000 WRU ($5.40) and 4,320,000 RRU ($0.54); 30 days: $178.20.
    let bill = "tests/fixtures/bill/november-orders.csv";
    let r = s.call(1, "bill", &json!({"files": [bill]}));
    let doc = &r["result"]["structuredContent"];
    assert_eq!(doc["schema"], "ddbcost.bill/v1", "{r}");
    assert_eq!(
        dec(doc["total"]["unblended"].as_str().unwrap()),
        dec("178.2"),
        "{r}"
    );
    // The same usage measured over November's 720 hours reconciles with no variance.
    let workload = "prices: aws-us-east-1\ntables:\n  orders:\n    capacity: { mode: on-demand }\n    patterns: {}\n    observed: { read_units: 129600000, write_units: 259200000, hours: 720, storage: 0 GB }\n";
    let r = s.call(
        2,
        "reconcile",
        &json!({"workload": workload, "bills": [bill]}),
    );
    let rec = &r["result"]["structuredContent"];
    assert_eq!(rec["schema"], "ddbcost.reconcile/v1", "{r}");
    assert_eq!(
        dec(rec["total"]["variance"].as_str().unwrap()),
        Decimal::ZERO,
        "{r}"
    );
    s.alive();
}

#[test]
fn allocate_runs_through_the_server() {
    let mut s = Server::start(&["--root", root().to_str().unwrap()]);
    // The SaaS seed's month (tests/common/saas.rs, worked in tests/allocate_saas.rs): o001
    // costs 7.50 of reads + 1.6875 of writes + 0.3192 of storage and PITR = $9.5067.
    let r = s.call(
        1,
        "allocate",
        &json!({
            "bills": ["workloads/samples/saas/cur-2026-11.csv"],
            "logs": ["workloads/samples/saas/requests-2026-11.jsonl.gz"],
            "exports": ["workloads/samples/saas/export"],
            "tenant": "PK=ORG#([^#]+)",
            "top": 1,
        }),
    );
    let doc = &r["result"]["structuredContent"];
    assert_eq!(doc["schema"], "ddbcost.allocate/v1", "{r}");
    assert_eq!(doc["rows"][0]["name"], "o001", "{r}");
    assert_eq!(
        dec(doc["rows"][0]["unblended"].as_str().unwrap()),
        dec("9.5067")
    );
    // The bill's total: 38.63 + 14.375 + 1.58935 + 0.31787 + 3.50 = 58.41222.
    assert_eq!(
        dec(doc["total"]["unblended"].as_str().unwrap()),
        dec("58.41222")
    );
    // A log outside the root is refused.
    let r = s.call(
        2,
        "allocate",
        &json!({"bills": ["workloads/samples/saas/cur-2026-11.csv"], "logs": ["/etc/passwd"], "tenant": "PK=(.*)"}),
    );
    assert_eq!(r["result"]["isError"], true, "{r}");
    s.alive();
}

#[test]
fn anomalies_run_through_the_server() {
    let mut s = Server::start(&["--root", root().to_str().unwrap()]);
    // The bundled 60 days (tests/common/daily_bill.rs, worked in tests/anomalies.rs): seven
    // departures, the first the replica's meter on 2026-09-16, $0 → $1.25 a day.
    let r = s.call(
        1,
        "anomalies",
        &json!({"bills": ["workloads/samples/anomalies/cur-daily-2026-09-10.csv"], "window": 7, "min_change": "50"}),
    );
    let doc = &r["result"]["structuredContent"];
    assert_eq!(doc["schema"], "ddbcost.anomalies/v1", "{r}");
    assert_eq!(doc["departures"].as_array().unwrap().len(), 7, "{r}");
    assert_eq!(doc["departures"][0]["day"], "2026-09-16");
    assert_eq!(doc["departures"][0]["mechanism"]["kind"], "began");
    // With the tables' CloudWatch days: the mechanisms measured (the replica's lag from its
    // first day; scans that began on 2026-10-11).
    let r = s.call(
        4,
        "anomalies",
        &json!({"bills": ["workloads/samples/anomalies/cur-daily-2026-09-10.csv"],
                "metrics": ["workloads/samples/anomalies/cloudwatch-daily-2026-09-10.csv"]}),
    );
    let doc = &r["result"]["structuredContent"];
    assert_eq!(doc["rule"]["metrics_series"], 19, "{r}");
    assert_eq!(doc["departures"][0]["mechanism"]["kind"], "replica");
    assert_eq!(
        doc["departures"][4]["mechanism"]["kind"],
        "items-per-request"
    );
    // Against a workload given as text: the design's days.
    let r = s.call(
        5,
        "anomalies",
        &json!({"bills": ["workloads/samples/anomalies/cur-daily-2026-09-10.csv"],
                "workload": "prices: aws-us-east-1\ntables:\n  orders:\n    item_size: 1 KB\n    storage: 0 GB\n    patterns:\n      get: { op: get, rate: 8M/day, consistency: strong }\n"}),
    );
    let doc = &r["result"]["structuredContent"];
    assert_eq!(doc["rule"]["baseline"], "workload:-", "{r}");
    // A bill outside the root is refused; a window outside 3–60 is invalid.
    let r = s.call(2, "anomalies", &json!({"bills": ["/etc/passwd"]}));
    assert_eq!(r["result"]["isError"], true, "{r}");
    let r = s.call(
        3,
        "anomalies",
        &json!({"bills": ["workloads/samples/anomalies/cur-daily-2026-09-10.csv"], "window": 1}),
    );
    assert!(
        r["error"].is_object() || r["result"]["isError"] == true,
        "{r}"
    );
    s.alive();
}

/// The processes whose parent is `pid` (from `/proc`).
fn children_of(pid: u32) -> Vec<u32> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(child) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{child}/stat")) else {
            continue;
        };
        // `pid (comm) state ppid …`: the fields after the command's closing parenthesis.
        let after = stat.rsplit_once(") ").map_or("", |(_, r)| r);
        let ppid: Option<u32> = after.split(' ').nth(1).and_then(|p| p.parse().ok());
        if ppid == Some(pid) {
            out.push(child);
        }
    }
    out
}

/// Whether process `pid` still runs (a zombie waiting for its reaper does not).
fn running(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|s| s.rsplit_once(") ").map(|(_, r)| r.starts_with('Z')))
        .is_some_and(|zombie| !zombie)
}

/// Waits (at most 20 s) until none of `pids` runs.
fn all_gone(pids: &[u32]) -> bool {
    let until = std::time::Instant::now() + Duration::from_secs(20);
    while std::time::Instant::now() < until {
        if pids.iter().all(|p| !running(*p)) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    false
}

/// Starts a slow `estimate` (2,000 tables) as request `id` and returns the child running
/// it, once it runs.
fn slow_call(s: &mut Server, id: u64) -> u32 {
    s.send(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": "estimate", "arguments": {"workload": many_tables(2_000)}}}));
    let until = std::time::Instant::now() + Duration::from_secs(20);
    loop {
        if let Some(&c) = children_of(s.child.id()).first() {
            return c;
        }
        assert!(std::time::Instant::now() < until, "no child started");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn every_id_shape_gets_one_answer() {
    let mut s = Server::start(&[]);
    // Ids MCP does not allow: the protocol's -32600, with a null id (the id cannot be named).
    for id in ["null", "{\"a\":1}", "[1]", "1.5", "true"] {
        s.send_raw(&format!(
            "{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":\"ping\"}}"
        ));
        let r = s.reply();
        assert_eq!(r["error"]["code"], -32600, "{id}: {r}");
        assert_eq!(r["id"], Value::Null, "{id}: {r}");
    }
    // Strings and integers, negative and large, are answered under their own id.
    for id in [
        json!("a-1"),
        json!(-7),
        json!(9_007_199_254_740_993_u64),
        json!(""),
    ] {
        s.send(&json!({"jsonrpc": "2.0", "id": id, "method": "ping"}));
        assert_eq!(s.reply()["id"], id);
    }
    // An id reused while the first request runs: the second gets an error of its own, the
    // first its answer; then the id is free again.
    s.send(&json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call",
        "params": {"name": "estimate", "arguments": {"workload": many_tables(300)}}}));
    s.send(&json!({"jsonrpc": "2.0", "id": 5, "method": "ping"}));
    let first = s.reply();
    assert_eq!(first["id"], 5);
    assert_eq!(first["error"]["code"], -32600, "{first}");
    assert!(
        first["error"]["message"]
            .as_str()
            .unwrap()
            .contains("already used"),
        "{first}"
    );
    let second = s.reply();
    assert_eq!(second["id"], 5);
    assert!(
        second["result"]["structuredContent"]["total"].is_string(),
        "{second}"
    );
    s.send(&json!({"jsonrpc": "2.0", "id": 5, "method": "ping"}));
    assert_eq!(s.reply()["id"], 5);
}

#[test]
fn a_cancelled_call_stops_its_child() {
    let mut s = Server::start(&["--max-request-bytes", "67108864"]);
    let child = slow_call(&mut s, 11);
    s.send(
        &json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": 11, "reason": "the user changed their mind"}}),
    );
    assert!(
        all_gone(&[child]),
        "the child of a cancelled call still runs"
    );
    // The server goes on, and the id can be used again.
    s.send(&json!({"jsonrpc": "2.0", "id": 11, "method": "ping"}));
    assert_eq!(s.reply()["id"], 11);
}

#[test]
fn no_child_and_no_folder_outlive_the_server() {
    // Each way a server ends: its input closed, SIGTERM, SIGINT, SIGKILL.
    for how in ["eof", "TERM", "INT", "KILL"] {
        let tmp = tempfile::tempdir().unwrap();
        let mut s = Server::start_with(
            &["--max-request-bytes", "67108864"],
            &[("TMPDIR", tmp.path())],
        );
        let child = slow_call(&mut s, 1);
        let server = s.child.id();
        match how {
            "eof" => {
                // Our end of its standard input, closed (a pipe of our own in its place).
                let (_unused, w) = std::io::pipe().unwrap();
                let ours = ChildStdin::from(std::os::fd::OwnedFd::from(w));
                drop(std::mem::replace(&mut s.stdin, ours));
            }
            signal => {
                let status = std::process::Command::new("kill")
                    .args([&format!("-{signal}"), &server.to_string()])
                    .status()
                    .unwrap();
                assert!(status.success());
            }
        }
        let until = std::time::Instant::now() + Duration::from_secs(30);
        let ended = loop {
            if let Some(status) = s.child.try_wait().unwrap() {
                break status;
            }
            assert!(
                std::time::Instant::now() < until,
                "{how}: the server did not end"
            );
            std::thread::sleep(Duration::from_millis(20));
        };
        if how == "TERM" {
            use std::os::unix::process::ExitStatusExt;
            assert!(
                ended.code() == Some(143) || ended.signal() == Some(15),
                "{how}: {ended:?}"
            );
        }
        assert!(
            all_gone(&[child]),
            "{how}: the child {child} outlived its server"
        );
        let left: Vec<_> = std::fs::read_dir(tmp.path())
            .unwrap()
            .flatten()
            .map(|e| e.file_name())
            .collect();
        assert!(
            left.is_empty(),
            "{how}: left in the temporary folder: {left:?}"
        );
    }
}

/// The server's peak resident memory so far, in bytes (`VmHWM`).
fn peak_rss(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap();
    kb * 1024
}

#[test]
fn a_large_result_costs_the_server_a_few_times_its_size() {
    let mut s = Server::start(&["--max-request-bytes", "67108864"]);
    s.alive();
    let base = peak_rss(s.child.id());
    // 2,000 tables: an estimate of ≈ 18 MB of JSON, within the default 32 MiB budget.
    let r = s.call(1, "estimate", &json!({"workload": many_tables(2_000)}));
    let text = r["result"]["content"][0]["text"].as_str().unwrap();
    let result = u64::try_from(text.len()).unwrap();
    assert!(result > 10_000_000, "{result} bytes");
    let grown = peak_rss(s.child.id()).saturating_sub(base);
    // The request (≈ 7 MB of YAML, decoded by the framing and the SDK) and one compact copy
    // of the result, written to standard output from its bytes: measured 4.7× the result
    // (15.2× when the result was held as a value, its text and the SDK's line); the bound
    // allows 6×.
    eprintln!(
        "result {result} B, server grew {grown} B ({:.1}×)",
        grown as f64 / result as f64
    );
    assert!(
        grown < 6 * result,
        "the server grew {grown} bytes for a result of {result}"
    );
}

#[test]
fn a_result_past_its_budget_is_refused_and_the_server_goes_on() {
    let mut s = Server::start(&["--max-result-bytes", "100000"]);
    // 50 tables: ≈ 450 KB of JSON, past the 100,000 bytes allowed.
    let r = s.call(1, "estimate", &json!({"workload": many_tables(50)}));
    assert_eq!(r["error"]["code"], -32603, "{r}");
    let message = r["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("100000 bytes") && message.contains("--max-result-bytes"),
        "{r}"
    );
    assert!(all_gone(&children_of(s.child.id())), "the child still runs");
    let r = s.call(2, "estimate", &json!({"workload": cloudshop()}));
    assert!(r["result"]["structuredContent"]["total"].is_string(), "{r}");
}

#[test]
fn reconcile_sets_a_change_s_one_time_work_against_the_bill_through_the_server() {
    let dir = tempfile::tempdir().unwrap();
    let orders = |extra: &str| {
        format!(
            "prices: aws-us-east-1\ntables:\n  orders:\n    items: 4M\n    item_size: 1.5 KB\n    key_size: 40 B\n{extra}    patterns:\n      put: {{ op: put, rate: 1/s }}\n"
        )
    };
    std::fs::write(dir.path().join("before.yaml"), orders("")).unwrap();
    // The month after a GSI was added: 2,592,000 puts × (2 + 2) write units = 10,368,000
    // estimated, and its backfill of 4,000,000 items × 2 = 8,000,000: 18,368,000 billed.
    std::fs::write(
        dir.path().join("cur.csv"),
        "line_item_line_item_type,line_item_usage_start_date,line_item_product_code,line_item_usage_type,line_item_resource_id,line_item_usage_amount,line_item_currency_code,line_item_unblended_cost\nUsage,2026-11-10T00:00:00Z,AmazonDynamoDB,WriteRequestUnits,arn:aws:dynamodb:us-east-1:1:table/orders,18368000,USD,11.48\n",
    )
    .unwrap();
    let mut s = Server::start(&["--root", dir.path().to_str().unwrap()]);
    let r = s.call(
        1,
        "reconcile",
        &json!({
            "workload": orders("    indexes:\n      by-status: { type: gsi, projection: all }\n"),
            "bills": ["cur.csv"],
            "before": "before.yaml",
        }),
    );
    let once = &r["result"]["structuredContent"]["one_time"][0];
    assert_eq!(once["items"][0]["change"], "GSI backfill", "{r}");
    assert_eq!(dec(once["predicted"].as_str().unwrap()), dec("8000000"));
    // 18,368,000 − 10,368,000 = 8,000,000 beyond the estimate: the backfill, exactly.
    assert_eq!(
        dec(once["billed_beyond_estimate"]["quantity"].as_str().unwrap()),
        dec("8000000")
    );
    // A `before` outside the root is refused.
    let r = s.call(
        2,
        "reconcile",
        &json!({"workload": orders(""), "bills": ["cur.csv"], "before": "/etc/passwd"}),
    );
    assert_eq!(r["result"]["isError"], true, "{r}");
    s.alive();
}

/// The README's configuration names `--root` relatively; an agent may start the server from
/// any folder. Where the root cannot be opened the server still starts, and each tool call
/// is refused with why (not a closed connection).
#[test]
fn a_root_that_cannot_be_opened_is_said_to_the_client() {
    let elsewhere = tempfile::tempdir().unwrap();
    let mut s = Server::start_in(elsewhere.path(), &["--root", "workloads"], &[]);
    let r = s.call(1, "estimate", &json!({"workload": "tables: {}"}));
    assert_eq!(r["result"]["isError"], true, "{r}");
    let error = &r["result"]["structuredContent"];
    let message = error["message"].as_str().unwrap();
    assert!(
        message.starts_with("--root `workloads` cannot be used (relative to `"),
        "{message}"
    );
    assert!(error["help"].as_str().unwrap().contains("absolute path"));
    s.alive();
}
