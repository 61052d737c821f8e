//! The tools `ddbcost mcp` offers, each a command line: its name, what it does (in words an
//! agent reads), the JSON Schema of its arguments (the workload's own schema for the
//! `workload` argument, as `ddbcost schema workload` prints it), the schema id of its
//! structured output, and how its arguments become the command's options. The workload is a
//! document (YAML or JSON text, or a JSON object), as are items and a log; what the measured
//! loop reads — CloudWatch pages, bills, templates — is named by path, read inside the
//! server's `--root` (a bill is Parquet or a delivery folder, a month of minutes is
//! hundreds of megabytes: not documents to send whole).

use rmcp::ErrorData;
use serde_json::{Map, Value, json};

use super::child::Call;

/// One tool.
pub(super) struct Tool {
    pub name: &'static str,
    pub description: &'static str,
    /// The structured output's `schema` (what the command's JSON says it is).
    pub output: &'static str,
    /// The arguments besides the document, as JSON Schema properties.
    properties: fn() -> Value,
    /// Required arguments.
    required: &'static [&'static str],
    /// The arguments → the command line.
    build: fn(&Args<'_>) -> Result<Call, ErrorData>,
}

/// The settings every pricing command takes.
fn settings() -> Value {
    json!({
        "prices": { "type": "string", "description": "Price table: a bundled id (aws-us-east-1, aws-eu-west-1, cloudshop-eur, …; see the ddbcost://prices resources) or a file under the server's --root; overrides the workload's `prices`" },
        "prices_dir": { "type": "string", "description": "A folder of price tables under the server's --root (written by `ddbcost prices import`)" },
        "currency": { "type": "string", "description": "Report in this currency (ISO 4217), converted at fx_rate" },
        "fx_rate": { "type": "string", "description": "Conversion rate `[FROM=]RATE`, e.g. `0.92` or `USD=0.92`" },
        "free_tier": { "type": "boolean", "description": "Subtract the AWS free tier (off by default)" },
        "month_hours": { "type": "string", "description": "Hours in a billing month (default 730)" },
        "gb": { "type": "string", "enum": ["binary", "decimal"], "description": "GB convention for storage (default binary, 2^30 bytes)" },
        "max_price_age": { "type": "integer", "minimum": 0, "description": "Refuse a price table that took effect more than this many days ago" },
    })
}

fn workload_argument() -> Value {
    json!({
        "description": "The workload: YAML or JSON text, or a JSON object, in the shape of the workload schema (resource ddbcost://schema/workload). Tables, access patterns with their rates, item sizes and consistency, indexes and projections, capacity, streams, PITR…",
        "anyOf": [ { "type": "string" }, { "$ref": "#/$defs/Workload" } ]
    })
}

fn with(extra: Value) -> Value {
    let mut out = settings();
    if let (Some(o), Value::Object(e)) = (out.as_object_mut(), extra) {
        o.extend(e);
    }
    out
}

fn sets() -> Value {
    json!({ "type": "array", "items": { "type": "string" }, "description": "Changes before pricing, `PATH=VALUE` each (e.g. `tables.orders.class=standard-ia`)" })
}

pub(super) const TOOLS: &[Tool] = &[
    Tool {
        name: "estimate",
        description: "Price a DynamoDB workload exactly: the itemized monthly bill per table, line item, access pattern, component and region (exact decimals; `total` and each line's `cost`, with `cost_rounded` to the currency's minor unit). Returns ddbcost's estimate JSON.",
        output: "ddbcost.estimate/v1",
        properties: || {
            with(json!({
                "period": { "type": "string", "pattern": "^[0-9]{4}-[0-9]{2}$", "description": "Billing month YYYY-MM (prices' age is counted to it)" },
                "set": sets(),
                "by": { "type": "string", "enum": ["line", "pattern", "component", "region"], "description": "Also return a Markdown table broken down this way" },
            }))
        },
        required: &["workload"],
        build: |a| {
            let mut call = a.priced("estimate")?;
            a.option(&mut call, "period", "--period")?;
            a.repeated(&mut call, "set", "--set")?;
            if let Some(by) = a.text("by")?
                && !["line", "pattern", "component", "region"].contains(&by.as_str())
            {
                return Err(invalid(&format!(
                    "`by` is line, pattern, component or region, not `{by}`"
                )));
            }
            Ok(call)
        },
    },
    Tool {
        name: "compare",
        description: "What-if: price a baseline and its scenarios line by line with deltas, and what each costs once (a GSI's backfill, a new table's first load, work stated under `once:`) with its payback. Scenarios come from the workload's `scenarios:` (steps and alternatives), or from `alternatives` here (each a name and its `PATH=VALUE` changes). Returns ddbcost's comparison JSON.",
        output: "ddbcost.compare/v1",
        properties: || {
            with(json!({
                "scenario": { "type": "array", "items": { "type": "string" }, "description": "Only these scenarios of the workload" },
                "alternatives": { "type": "array", "items": { "type": "object", "additionalProperties": false, "required": ["name", "set"], "properties": { "name": { "type": "string" }, "set": { "type": "array", "items": { "type": "string" }, "minItems": 1 } } }, "description": "Alternatives to the baseline, each a name and its changes" },
                "period": { "type": "string", "pattern": "^[0-9]{4}-[0-9]{2}$" },
            }))
        },
        required: &["workload"],
        build: |a| {
            let mut call = a.priced("compare")?;
            a.repeated(&mut call, "scenario", "--scenario")?;
            a.option(&mut call, "period", "--period")?;
            for alt in a.array("alternatives")? {
                let name = alt
                    .get("name")
                    .and_then(Value::as_str)
                    .ok_or_else(|| invalid("alternatives: each needs a string `name`"))?;
                let changes = alt
                    .get("set")
                    .and_then(Value::as_array)
                    .filter(|s| !s.is_empty())
                    .ok_or_else(|| {
                        invalid("alternatives: each needs `set`, a list of PATH=VALUE changes")
                    })?;
                call.args.extend(["--alt".into(), name.into()]);
                for c in changes {
                    let c = c.as_str().ok_or_else(|| {
                        invalid("alternatives: each change is a string PATH=VALUE")
                    })?;
                    call.args.extend(["--set".into(), c.into()]);
                }
            }
            Ok(call)
        },
    },
    Tool {
        name: "advise",
        description: "Suggest changes that lower the bill (capacity mode, table class, projections, consistency, reserved capacity, DAX…), each priced as a what-if with its saving and assumption. Returns ddbcost's advice JSON.",
        output: "ddbcost.advise/v1",
        properties: || {
            with(
                json!({ "min_saving": { "type": "string", "description": "Only suggestions saving at least this much a month" } }),
            )
        },
        required: &["workload"],
        build: |a| {
            let mut call = a.priced("advise")?;
            a.option(&mut call, "min_saving", "--min-saving")?;
            Ok(call)
        },
    },
    Tool {
        name: "forecast",
        description: "Month-by-month forecast of the bill over `months` from `start`, with the workload's growth (or `growth` here, applied to every table), reserved capacity and Savings Plans. Returns ddbcost's forecast JSON.",
        output: "ddbcost.forecast/v1",
        properties: || {
            with(json!({
                "months": { "type": "integer", "minimum": 1, "maximum": 120 },
                "start": { "type": "string", "pattern": "^[0-9]{4}-[0-9]{2}$", "description": "First month YYYY-MM" },
                "growth": { "type": "string", "description": "Growth of every table, e.g. `3%/month`" },
                "set": sets(),
            }))
        },
        required: &["workload", "months"],
        build: |a| {
            let mut call = a.priced("forecast")?;
            let months = a
                .integer("months")?
                .ok_or_else(|| invalid("`months` is required"))?;
            call.args.extend(["--months".into(), months.to_string()]);
            a.option(&mut call, "start", "--start")?;
            if let Some(g) = a.text("growth")? {
                for table in a.table_names()? {
                    call.args
                        .extend(["--set".into(), format!("tables.{table}.growth={g}")]);
                }
            }
            a.repeated(&mut call, "set", "--set")?;
            Ok(call)
        },
    },
    Tool {
        name: "sweep",
        description: "Price every combination of the varied fields (`vary`: `PATH=V1,V2,…` each; at most 10,000 designs) and return the cheapest `top`. Returns ddbcost's sweep JSON.",
        output: "ddbcost.sweep/v1",
        properties: || {
            with(json!({
                "vary": { "type": "array", "items": { "type": "string" }, "minItems": 1, "description": "Fields to vary, `PATH=V1,V2,…` each" },
                "top": { "type": "integer", "minimum": 1, "maximum": 1000, "description": "How many designs to return (default 10)" },
                "max_total": { "type": "string", "description": "Only designs costing at most this much a month" },
            }))
        },
        required: &["workload", "vary"],
        build: |a| {
            let mut call = a.priced("sweep")?;
            let mut designs: u64 = 1;
            for v in a.strings("vary")? {
                let values = v.split_once('=').map_or(1, |(_, vs)| vs.split(',').count());
                designs = designs.saturating_mul(u64::try_from(values).unwrap_or(u64::MAX));
                call.args.extend(["--vary".into(), v]);
            }
            if designs > MAX_DESIGNS {
                return Err(invalid(&format!(
                    "`vary` makes {designs} designs, more than the {MAX_DESIGNS} a call may price; vary fewer values (the command line has no such bound)"
                )));
            }
            a.option(&mut call, "max_total", "--max-total")?;
            let top = a.integer("top")?.unwrap_or(10);
            call.args
                .extend(["--top".into(), top.to_string(), "--jobs".into(), "1".into()]);
            Ok(call)
        },
    },
    Tool {
        name: "size",
        description: "Measure DynamoDB item sizes as DynamoDB bills them (the `items` text: DynamoDB JSON, plain JSON or JSON lines, an export's lines): the size distribution, read and write units per item, and index entry sizes for `key` and `index`. Returns ddbcost's size JSON.",
        output: "ddbcost.size/v1",
        properties: || {
            json!({
                "items": { "type": "string", "description": "The items, as text" },
                "key": { "type": "string", "description": "The table's key attributes, `PK[,SK]`" },
                "index": { "type": "array", "items": { "type": "string" }, "description": "Indexes to measure, `NAME:KEY[,KEY]:keys-only|all|include=ATTR[,ATTR]` each" },
            })
        },
        required: &["items"],
        build: |a| {
            let mut call = Call {
                args: vec!["size".into(), "-".into()],
                stdin: a.required_text("items")?,
            };
            a.option(&mut call, "key", "--key")?;
            a.repeated(&mut call, "index", "--index")?;
            Ok(call)
        },
    },
    Tool {
        name: "keys",
        description: "How evenly a partition key spreads load (from `items` text and the `key` attribute, or from an access `log` in CSV): the distinct values, the busiest keys' shares of reads and writes, and the verdict against DynamoDB's per-partition limits. Returns ddbcost's keys JSON.",
        output: "ddbcost-keys/1",
        properties: || {
            json!({
                "items": { "type": "string", "description": "Items as text (as for `size`)" },
                "key": { "type": "string", "description": "The partition key attribute (with items)" },
                "sort_key": { "type": "string" },
                "log": { "type": "string", "description": "An access log as CSV text (instead of items)" },
                "log_key": { "type": "string", "description": "The log's key column" },
                "log_operation": { "type": "string", "description": "The log's operation column" },
            })
        },
        required: &[],
        build: |a| {
            let mut call = match (a.text("items")?, a.text("log")?) {
                (Some(items), None) => Call {
                    args: vec!["keys".into(), "-".into()],
                    stdin: items,
                },
                (None, Some(log)) => Call {
                    args: vec!["keys".into(), "--log".into(), "-".into()],
                    stdin: log,
                },
                _ => return Err(invalid("give exactly one of `items` and `log`")),
            };
            a.option(&mut call, "key", "--key")?;
            a.option(&mut call, "sort_key", "--sort-key")?;
            a.option(&mut call, "log_key", "--log-key")?;
            a.option(&mut call, "log_operation", "--log-operation")?;
            Ok(call)
        },
    },
    Tool {
        name: "validate",
        description: "Check a workload without trusting it: loads and prices it, and returns `valid` and, when it is not, the loader's error as data (message, file, path inside the document such as `tables.orders.patterns.get-order.rate`, line, column, the line quoted, and a suggestion). Never a tool error for a bad workload: the verdict is the result.",
        output: "ddbcost.validate/v1",
        properties: settings,
        required: &["workload"],
        build: |a| a.priced("estimate"),
    },
    Tool {
        name: "explain",
        description: "Which DynamoDB rule produced a line item (`line`: its key, e.g. `orders/reads`, as the estimate's line_items name it): the rule in words, the units and their rounding, each access pattern's share with its arithmetic, the unit price and the price table it comes from. Returns ddbcost's explain JSON.",
        output: "ddbcost.explain/v1",
        properties: || {
            with(
                json!({ "line": { "type": "string", "description": "The line item's key as the estimate's line_items[].key names it (`orders/reads`, `orders/gsi/by-date/writes`); omitted: every line" } }),
            )
        },
        required: &["workload"],
        build: |a| {
            let mut call = a.priced("explain")?;
            if let Some(line) = a.text("line")? {
                call.args.extend(["--line".into(), line]);
            }
            Ok(call)
        },
    },
    Tool {
        name: "usage",
        description: "The capacity decision on measured CloudWatch data: `files` are `aws cloudwatch get-metric-data` outputs (pages in any order, `.gz` too) or the CSV `timestamp,table,index,metric,statistic,value`, paths under the server's --root. With `workload` (the tables as they run), each table's verdict starts from what runs today: keep, right-sized fixed capacity, auto scaling or on demand, priced on the measured curve with burst capacity, the saving against today's cost, the throttle risk left, the AWS CLI commands that apply it, and GSIs never read. Returns ddbcost's usage JSON.",
        output: "ddbcost.usage/v2",
        properties: || {
            with(json!({
                "files": { "type": "array", "items": { "type": "string" }, "minItems": 1, "description": "CloudWatch outputs, paths under the server's --root" },
                "queries": { "type": "array", "items": { "type": "string" }, "description": "The `--metric-data-queries` files that produced results whose labels are not ddbcost's, paths under --root" },
                "workload": {},
                "target": { "type": "string", "description": "Auto-scaling target for a dimension without a policy of its own (default 70%)" },
                "months": { "type": "integer", "minimum": 1, "maximum": 120, "description": "With a workload: the horizon of the commitment search (default 12)" },
                "allow_partial": { "type": "boolean", "description": "Price an answer that lacks pages, said PARTIAL, instead of refusing it" },
            }))
        },
        required: &["files"],
        build: |a| {
            let mut call = if a.0.get("workload").is_some_and(|w| !w.is_null()) {
                Call {
                    args: vec!["usage".into(), "--workload".into(), "-".into()],
                    stdin: a.workload()?,
                }
            } else {
                Call {
                    args: vec!["usage".into()],
                    stdin: String::new(),
                }
            };
            a.settings(&mut call)?;
            for f in a.strings("files")? {
                call.args.push(path(&f)?);
            }
            a.repeated(&mut call, "queries", "--queries")?;
            a.option(&mut call, "target", "--target")?;
            if let Some(m) = a.integer("months")? {
                call.args.extend(["--months".into(), m.to_string()]);
            }
            if a.boolean("allow_partial")? {
                call.args.push("--allow-partial".into());
            }
            Ok(call)
        },
    },
    Tool {
        name: "bill",
        description: "An AWS bill's DynamoDB rows (CUR 2.0 CSV, .csv.gz or Parquet, a Data Exports or legacy CUR delivery folder read through its current manifest, the legacy CUR, FOCUS 1.2 with AWS columns), paths under the server's --root: per table, region, component and meter, every row counted once; with `commitments`, the reserved capacity and savings plan the bill's hours call for. Returns ddbcost's bill JSON.",
        output: "ddbcost.bill/v1",
        properties: || {
            json!({
                "files": { "type": "array", "items": { "type": "string" }, "minItems": 1, "description": "Bill files or delivery folders, paths under the server's --root" },
                "period": { "type": "string", "description": "The billing period to read, `YYYY-MM`, when the files hold several" },
                "commitments": { "type": "boolean", "description": "Also size reserved capacity and a Database Savings Plan from the bill's hours" },
                "prices_dir": { "type": "string", "description": "A folder of price tables under --root, for `commitments`" },
            })
        },
        required: &["files"],
        build: |a| {
            let mut call = Call {
                args: vec!["bill".into()],
                stdin: String::new(),
            };
            for f in a.strings("files")? {
                call.args.push(path(&f)?);
            }
            a.option(&mut call, "period", "--period")?;
            a.option(&mut call, "prices_dir", "--prices-dir")?;
            if a.boolean("commitments")? {
                call.args.push("--commitments".into());
            }
            Ok(call)
        },
    },
    Tool {
        name: "reconcile",
        description: "Estimate against actual: the workload's estimate for the billing period's own hours joined with the bill (`bills`, paths under the server's --root, read as `bill` reads them) per table, region, component and meter, with the variance in money and percent and its cause (quantity, a rate below list from a reservation or savings plan, a component or table billed and not in the workload, one not billed). With `before` (the workload before the change the month ran) or work stated under `once:`, the change's one-time work (a GSI backfill, a first load, a rewrite, a restore…) set against what the bill billed beyond the estimate (`one_time`), and with `metrics` a backfill's write units as CloudWatch measured them. Returns ddbcost's reconcile JSON.",
        output: "ddbcost.reconcile/v1",
        properties: || {
            with(json!({
                "bills": { "type": "array", "items": { "type": "string" }, "minItems": 1, "description": "Bill files or delivery folders, paths under the server's --root" },
                "period": { "type": "string", "description": "The billing period, `YYYY-MM`, when the bill holds several" },
                "before": { "type": "string", "description": "The workload before the change, a path under --root: its one-time work set against the bill" },
                "metrics": { "type": "array", "items": { "type": "string" }, "description": "CloudWatch files of the period, paths under --root: a backfill's measured write units (OnlineIndexConsumedWriteCapacity)" },
                "set": sets(),
            }))
        },
        required: &["workload", "bills"],
        build: |a| {
            let mut call = a.priced("reconcile")?;
            for f in a.strings("bills")? {
                call.args.extend(["--bill".into(), path(&f)?]);
            }
            a.option(&mut call, "period", "--period")?;
            a.repeated(&mut call, "set", "--set")?;
            if let Some(b) = a.text("before")? {
                call.args.extend(["--before".into(), path(&b)?]);
            }
            let metrics = a.strings("metrics")?;
            if !metrics.is_empty() {
                call.args.push("--metrics".into());
                for f in metrics {
                    call.args.push(path(&f)?);
                }
            }
            Ok(call)
        },
    },
    Tool {
        name: "allocate",
        description: "Who the bill is for: a bill (`bills`, read as `bill` reads them) split by tenant (or by the logs' `pattern` labels) from application logs of requests with DynamoDB's ConsumedCapacity (`logs`, JSON Lines, plain or gzip) and, for bytes, DynamoDB exports (`exports`) — paths under the server's --root. Every billed line of every table goes to the tenants by what caused it (reads by read units, writes by write units, storage/PITR/backups by bytes); what no tenant caused (untenanted requests, unused provisioned capacity, unmeasured lines, account fees, taxes) is a named remainder. Exact; the tenants and remainders add up to the bill. Returns ddbcost's allocate JSON.",
        output: "ddbcost.allocate/v1",
        properties: || {
            json!({
                "bills": { "type": "array", "items": { "type": "string" }, "minItems": 1, "description": "Bill files or delivery folders, paths under the server's --root" },
                "logs": { "type": "array", "items": { "type": "string" }, "minItems": 1, "description": "Request logs with ConsumedCapacity (JSON Lines, plain or .gz), paths under --root" },
                "tenant": { "type": "string", "description": "How a request's key names its tenant, `ATTR=REGEX` (the first group is the tenant), e.g. `PK=ORG#([^#]+)`; required unless `by` is `pattern`" },
                "exports": { "type": "array", "items": { "type": "string" }, "description": "DynamoDB exports for bytes per tenant, `[TABLE=]PATH` each, under --root" },
                "by": { "type": "string", "enum": ["tenant", "pattern"], "description": "Split by tenant (default) or by the logs' `pattern` labels" },
                "spread_unused": { "type": "boolean", "description": "Spread provisioned capacity nobody consumed over the tenants instead of keeping it as its own share" },
                "top": { "type": "integer", "minimum": 1, "description": "The N costliest tenants one by one, the rest as one row" },
                "period": { "type": "string", "description": "The billing period, `YYYY-MM`, when the bill holds several" },
            })
        },
        required: &["bills", "logs"],
        build: |a| {
            let mut call = Call {
                args: vec!["allocate".into()],
                stdin: String::new(),
            };
            for f in a.strings("bills")? {
                call.args.extend(["--bill".into(), path(&f)?]);
            }
            for f in a.strings("logs")? {
                call.args.extend(["--log".into(), path(&f)?]);
            }
            for f in a.strings("exports")? {
                call.args.extend(["--export".into(), path(&f)?]);
            }
            a.option(&mut call, "tenant", "--tenant")?;
            a.option(&mut call, "by", "--by")?;
            a.option(&mut call, "period", "--period")?;
            if let Some(n) = a.integer("top")? {
                call.args.extend(["--top".into(), n.to_string()]);
            }
            if a.boolean("spread_unused")? {
                call.args.push("--spread-unused".into());
            }
            Ok(call)
        },
    },
    Tool {
        name: "anomalies",
        description: "Why the bill jumped: a bill at daily or hourly granularity (`bills`, CUR 2.0, legacy CUR or FOCUS, paths under the server's --root, each data file once) read day by day per table, region and meter; each day a meter leaves its own trailing baseline (the median of the `window` days before) by at least `min_change` percent and `min_daily` is listed on its first day — a step, one day, or recent — with its cost a day before and after, its money a month at the new rate, and the mechanism the bill shows (a meter that began or stopped, such as a replica or PITR; the same units at another unit price, such as a reservation; units that stepped; storage that grew); with `metrics`, the mechanism CloudWatch measured (a GSI that began, a query turned scan, units per request past an item size boundary, more requests, TTL deletions that stopped) or that none explains it. Returns ddbcost's anomalies JSON.",
        output: "ddbcost.anomalies/v1",
        properties: || {
            json!({
                "bills": { "type": "array", "items": { "type": "string" }, "minItems": 1, "description": "Bill files or delivery folders, paths under the server's --root" },
                "window": { "type": "integer", "minimum": 3, "maximum": 60, "description": "Days of the trailing baseline (default 7)" },
                "min_change": { "type": "string", "pattern": "^[0-9]+(\\.[0-9]+)?%?$", "description": "The least change from the baseline flagged, percent of it, as a decimal string (default \"50\")" },
                "min_daily": { "type": "string", "pattern": "^[0-9]+(\\.[0-9]+)?$", "description": "The least change a day flagged, in the bill's currency, as a decimal string (default \"1\")" },
                "metrics": { "type": "array", "items": { "type": "string" }, "description": "CloudWatch files of the tables (get-metric-data pages as `ddbcost usage query --requests` fetches them, or the CSV of metrics), paths under --root: each departure's mechanism from what was measured (a GSI that began, a scan, units per request, requests, TTL deletions)" },
                "workload": workload_argument(),
            })
        },
        required: &["bills"],
        build: |a| {
            let mut call = Call {
                args: vec!["anomalies".into()],
                stdin: String::new(),
            };
            for f in a.strings("bills")? {
                call.args.push(path(&f)?);
            }
            if let Some(n) = a.integer("window")? {
                call.args.extend(["--window".into(), n.to_string()]);
            }
            a.option(&mut call, "min_change", "--min-change")?;
            a.option(&mut call, "min_daily", "--min-daily")?;
            let metrics = a.strings("metrics")?;
            if !metrics.is_empty() {
                call.args.push("--metrics".into());
                for f in metrics {
                    call.args.push(path(&f)?);
                }
            }
            if a.0.get("workload").is_some_and(|w| !w.is_null()) {
                // The workload as designed: each day set against its estimate.
                call.stdin = a.workload()?;
                call.args.extend(["--workload".into(), "-".into()]);
            }
            Ok(call)
        },
    },
    Tool {
        name: "import",
        description: "A workload from infrastructure code or live tables: CloudFormation/SAM, a `cdk.out` folder, serverless.yml, a Terraform plan JSON or `.tf`, or the AWS CLI's describe-table JSON (and its neighbours) — `files`, paths under the server's --root. Returns the workload as YAML text (`workload`), with TODO placeholders for what the code cannot know, ready for `estimate` or `usage`.",
        output: "ddbcost.import/v1",
        properties: || {
            json!({
                "files": { "type": "array", "items": { "type": "string" }, "minItems": 1, "description": "Templates, a cdk.out folder, a plan JSON, .tf files or describe-table outputs, paths under --root" },
                "from": { "type": "string", "enum": ["cloudformation", "cdk", "serverless", "terraform-plan", "terraform", "aws-cli"], "description": "The kind of input (detected when not given)" },
                "region": { "type": "string", "description": "The region the stack is deployed to" },
                "parameter": { "type": "array", "items": { "type": "string" }, "description": "CloudFormation parameters, `Name=Value` each" },
                "prices": { "type": "string", "description": "The price table the workload names (default aws-REGION)" },
                "name": { "type": "string", "description": "The workload's name" },
            })
        },
        required: &["files"],
        build: |a| {
            let mut call = Call {
                args: vec!["import".into()],
                stdin: String::new(),
            };
            for f in a.strings("files")? {
                call.args.push(path(&f)?);
            }
            a.option(&mut call, "from", "--from")?;
            a.option(&mut call, "region", "--region")?;
            a.repeated(&mut call, "parameter", "--parameter")?;
            a.option(&mut call, "prices", "--prices")?;
            a.option(&mut call, "name", "--name")?;
            Ok(call)
        },
    },
];

/// The most designs one `sweep` call prices.
const MAX_DESIGNS: u64 = 10_000;

/// The tool named `name`.
pub(super) fn find(name: &str) -> Option<&'static Tool> {
    TOOLS.iter().find(|t| t.name == name)
}

impl Tool {
    /// The tool as `tools/list` describes it.
    pub(super) fn listing(&self, workload_schema: &Value) -> Value {
        let mut properties = (self.properties)();
        let uses_workload =
            self.required.contains(&"workload") || properties.get("workload").is_some();
        let mut input = json!({ "type": "object", "additionalProperties": false });
        if uses_workload && let Some(p) = properties.as_object_mut() {
            p.insert("workload".into(), workload_argument());
            let mut defs = workload_schema
                .get("$defs")
                .cloned()
                .unwrap_or_else(|| json!({}));
            let mut root = workload_schema.clone();
            if let Some(r) = root.as_object_mut() {
                r.remove("$defs");
                r.remove("$schema");
            }
            if let Some(d) = defs.as_object_mut() {
                d.insert("Workload".into(), root);
            }
            input["$defs"] = defs;
        }
        input["properties"] = properties;
        input["required"] = json!(self.required);
        json!({
            "name": self.name,
            "title": format!("ddbcost {}", self.name),
            "description": self.description,
            "inputSchema": input,
            "outputSchema": {
                "type": "object",
                "properties": { "schema": { "const": self.output } },
                "required": ["schema"],
            },
            "annotations": { "readOnlyHint": true, "openWorldHint": false, "idempotentHint": true },
        })
    }

    /// The command line for these arguments, printing the command's JSON.
    ///
    /// # Errors
    /// Invalid params: an unknown argument, one of the wrong type, one missing.
    pub(super) fn call(&self, arguments: &Map<String, Value>) -> Result<Call, ErrorData> {
        let mut call = self.command(arguments)?;
        // `import` writes YAML; the server wraps it (see `mod.rs`).
        if self.name != "import" {
            call.args.extend(["--format".into(), "json".into()]);
        }
        Ok(call)
    }

    /// The command line for these arguments, without its format.
    ///
    /// # Errors
    /// As `call`.
    pub(super) fn command(&self, arguments: &Map<String, Value>) -> Result<Call, ErrorData> {
        let known = (self.properties)();
        for name in arguments.keys() {
            let listed = known.get(name).is_some()
                || (name == "workload" && self.required.contains(&"workload"));
            if !listed {
                let names: Vec<&String> = known
                    .as_object()
                    .map(|o| o.keys().collect())
                    .unwrap_or_default();
                return Err(invalid(&format!(
                    "`{}` has no argument `{name}` (it takes workload and {names:?})",
                    self.name
                )));
            }
        }
        for name in self.required {
            if !arguments.contains_key(*name) {
                return Err(invalid(&format!(
                    "`{}` needs the argument `{name}`",
                    self.name
                )));
            }
        }
        (self.build)(&Args(arguments))
    }
}

/// A path argument: relative to the server's root (the child runs there, with `--root`, which
/// refuses anything outside); one that reads as an option is refused.
fn path(p: &str) -> Result<String, ErrorData> {
    if p.is_empty() || p.starts_with('-') {
        return Err(invalid(&format!(
            "`{p}` is not a path under the server's root"
        )));
    }
    Ok(p.to_string())
}

pub(super) fn invalid(message: &str) -> ErrorData {
    ErrorData::invalid_params(format!("Invalid params: {message}"), None)
}

/// A tool call's arguments, read by type.
pub(super) struct Args<'a>(&'a Map<String, Value>);

impl Args<'_> {
    pub(super) fn text(&self, name: &str) -> Result<Option<String>, ErrorData> {
        match self.0.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            // A number where text is expected (`month_hours: 720`) is read as written.
            Some(Value::Number(n)) => Ok(Some(n.to_string())),
            Some(_) => Err(invalid(&format!("`{name}` is a string"))),
        }
    }

    fn required_text(&self, name: &str) -> Result<String, ErrorData> {
        self.text(name)?
            .ok_or_else(|| invalid(&format!("`{name}` is required")))
    }

    fn integer(&self, name: &str) -> Result<Option<u64>, ErrorData> {
        match self.0.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => v
                .as_u64()
                .map(Some)
                .ok_or_else(|| invalid(&format!("`{name}` is a whole number ≥ 0"))),
        }
    }

    fn boolean(&self, name: &str) -> Result<bool, ErrorData> {
        match self.0.get(name) {
            None | Some(Value::Null) => Ok(false),
            Some(Value::Bool(b)) => Ok(*b),
            Some(_) => Err(invalid(&format!("`{name}` is true or false"))),
        }
    }

    fn array(&self, name: &str) -> Result<Vec<Value>, ErrorData> {
        match self.0.get(name) {
            None | Some(Value::Null) => Ok(Vec::new()),
            Some(Value::Array(a)) => Ok(a.clone()),
            Some(_) => Err(invalid(&format!("`{name}` is a list"))),
        }
    }

    fn strings(&self, name: &str) -> Result<Vec<String>, ErrorData> {
        self.array(name)?
            .into_iter()
            .map(|v| match v {
                Value::String(s) => Ok(s),
                _ => Err(invalid(&format!("`{name}` is a list of strings"))),
            })
            .collect()
    }

    fn option(&self, call: &mut Call, name: &str, flag: &str) -> Result<(), ErrorData> {
        if let Some(v) = self.text(name)? {
            call.args.extend([flag.to_string(), v]);
        }
        Ok(())
    }

    fn repeated(&self, call: &mut Call, name: &str, flag: &str) -> Result<(), ErrorData> {
        for v in self.strings(name)? {
            call.args.extend([flag.to_string(), v]);
        }
        Ok(())
    }

    /// The workload as text: a string as given, an object as JSON (which YAML reads).
    pub(super) fn workload(&self) -> Result<String, ErrorData> {
        match self.0.get("workload") {
            Some(Value::String(s)) => Ok(s.clone()),
            Some(v @ Value::Object(_)) => Ok(v.to_string()),
            _ => Err(invalid(
                "`workload` is the workload's YAML or JSON text, or a JSON object",
            )),
        }
    }

    /// `command -` with the workload on standard input and the pricing settings.
    fn priced(&self, command: &str) -> Result<Call, ErrorData> {
        let mut call = Call {
            args: vec![command.into(), "-".into()],
            stdin: self.workload()?,
        };
        self.settings(&mut call)?;
        Ok(call)
    }

    /// The pricing settings every pricing tool takes, as options.
    fn settings(&self, call: &mut Call) -> Result<(), ErrorData> {
        self.option(call, "prices", "--prices")?;
        self.option(call, "prices_dir", "--prices-dir")?;
        self.option(call, "currency", "--currency")?;
        self.option(call, "fx_rate", "--fx-rate")?;
        self.option(call, "month_hours", "--month-hours")?;
        self.option(call, "gb", "--gb")?;
        if let Some(days) = self.integer("max_price_age")? {
            call.args
                .extend(["--max-price-age".into(), days.to_string()]);
        }
        if self.boolean("free_tier")? {
            call.args.push("--free-tier".into());
        }
        Ok(())
    }

    /// The names of the workload's tables (for an option applied to each).
    fn table_names(&self) -> Result<Vec<String>, ErrorData> {
        let doc = crate::load::yaml::parse_value(&self.workload()?, "workload")
            .map_err(|e| invalid(&e.to_string()))?;
        Ok(doc
            .get("tables")
            .and_then(Value::as_object)
            .map(|t| t.keys().cloned().collect())
            .unwrap_or_default())
    }
}
