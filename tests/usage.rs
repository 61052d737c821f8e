//! `ddbcost usage`: CloudWatch's measured consumption read from `get-metric-data` pages (in
//! any order, overlapping) or CSV, and the capacity decision on it, each figure derived here
//! from the rule and the us-east-1 prices ($0.125 per million RRU, $0.625 per million WRU,
//! $0.00013 per RCU-hour, $0.00065 per WCU-hour, a 730-hour month). `usage query` writes the
//! fetch.

mod common;

use common::cloudwatch::{NOV_1, iso, page, points, result, s, usage_json};
use common::{Case, dec, write_file};
use serde_json::{Value, json};

#[test]
fn a_stable_fortnight_on_demand_switches_to_auto_scaling_and_pages_may_come_in_any_order() {
    let dir = tempfile::tempdir().unwrap();
    // 14 days of 5-minute points (4,032): 100 WCU/s (30,000 units a point) and 50 RCU/s
    // (15,000), split into two pages that overlap by one point, given newest page first.
    let w = points(4_032, 300, "30000");
    let r = points(4_032, 300, "15000");
    let wl = "ddbcost:orders::ConsumedWriteCapacityUnits:Sum:300";
    let rl = "ddbcost:orders::ConsumedReadCapacityUnits:Sum:300";
    let later = write_file(
        dir.path(),
        "metrics-2.json",
        &page(&[result(wl, &w[2_015..]), result(rl, &r[2_016..])]),
    );
    let earlier = write_file(
        dir.path(),
        "metrics-1.json",
        &page(&[result(wl, &w[..2_016]), result(rl, &r[..2_016])]),
    );
    let doc = usage_json(&[later, earlier], &[]);
    assert_eq!(doc["schema"], "ddbcost.usage/v2");
    // 4,032 × 2 points used, the overlapping one read twice and counted as duplicated.
    assert_eq!(doc["points"]["read"], 8_065);
    assert_eq!(doc["points"]["used"], 8_064);
    assert_eq!(doc["points"]["duplicated"], 1);
    let dims = doc["tables"][0]["dimensions"].as_array().unwrap();
    let writes = dims.iter().find(|d| d["dimension"] == "writes").unwrap();
    // On demand: 100 × 1,209,600 s = 120,960,000 WRU × 0.625 / M = $75.60 for 336 h;
    // a month: 75.60 × 730 ÷ 336 = $164.25.
    assert_eq!(s(&writes["consumed"]), dec("120960000"));
    assert_eq!(s(&writes["on_demand"]["cost"]), dec("75.6"));
    assert_eq!(s(&writes["on_demand"]["monthly"]), dec("164.25"));
    // Auto scaling at 70 %: ⌈100 ÷ 0.7⌉ = 143 WCU all along, 143 × 336 = 48,048 WCU-hours ×
    // 0.00065 = $31.2312; a month 143 × 730 × 0.00065 = $67.8535; no throttle.
    assert_eq!(s(&writes["auto_scaling"]["unit_hours"]), dec("48048"));
    assert_eq!(s(&writes["auto_scaling"]["cost"]), dec("31.2312"));
    assert_eq!(s(&writes["auto_scaling"]["monthly"]), dec("67.8535"));
    assert_eq!(s(&writes["auto_scaling"]["throttle_minutes"]), dec("0"));
    // Fixed with auto scaling's headroom: the smallest capacity that serves 100 ÷ 0.7 =
    // 142.86 WCU/s, 143 (the curve is flat: burst adds nothing): $67.8535 a month, as auto
    // scaling — which the verdict prefers on a tie, since it follows any change.
    assert_eq!(s(&writes["fixed"]["units"]), dec("143"));
    assert_eq!(s(&writes["fixed"]["cost"]["monthly"]), dec("67.8535"));
    // Today: nothing measured nor stated, so on demand, assumed, at the on-demand cost.
    assert_eq!(writes["today"]["setting"]["mode"], "on-demand");
    assert_eq!(writes["today"]["source"], "assumed");
    assert_eq!(s(&writes["current"]["monthly"]), dec("164.25"));
    let reads = dims.iter().find(|d| d["dimension"] == "reads").unwrap();
    // Reads: 50 × 1,209,600 = 60,480,000 RRU × 0.125 / M = $7.56 → × 730 ÷ 336 = $16.425;
    // auto scaling ⌈50 ÷ 0.7⌉ = 72 RCU × 730 × 0.00013 = $6.8328 a month.
    assert_eq!(s(&reads["on_demand"]["monthly"]), dec("16.425"));
    assert_eq!(s(&reads["auto_scaling"]["monthly"]), dec("6.8328"));
    // The verdict: two identical weeks (0 % apart); provisioned (auto scaling, no throttle)
    // 67.8535 + 6.8328 = 74.6863 against today's 164.25 + 16.425 = 180.675 on demand:
    // saves 105.9887 a month, 58.66… %.
    let v = &doc["tables"][0]["verdict"];
    assert_eq!(v["choice"], "provisioned");
    assert_eq!(v["today"], "on-demand");
    assert_eq!(v["today_assumed"], true);
    assert_eq!(s(&v["today_monthly"]), dec("180.675"));
    assert_eq!(s(&v["on_demand_monthly"]), dec("180.675"));
    assert_eq!(s(&v["provisioned_monthly"]), dec("74.6863"));
    assert_eq!(s(&v["proposed_monthly"]), dec("74.6863"));
    assert_eq!(s(&v["saving_monthly"]), dec("105.9887"));
    assert_eq!(s(&v["weekly_variation"]), dec("0"));
    let plans = v["plans"].as_array().unwrap();
    let plan = |dim: &str| plans.iter().find(|p| p["dimension"] == dim).unwrap();
    let auto = json!({"mode": "auto-scaling", "target": "0.7", "min": "1", "max": "40000"});
    assert_eq!(plan("writes")["setting"], auto);
    assert_eq!(plan("reads")["setting"], auto);
    // The commands: provisioned at where auto scaling holds the curve now (72 and 143),
    // then a scalable target and a target-tracking policy per dimension.
    let commands: Vec<&str> = v["commands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    assert_eq!(
        commands[0],
        "aws dynamodb update-table --table-name orders --billing-mode PROVISIONED --provisioned-throughput ReadCapacityUnits=72,WriteCapacityUnits=143"
    );
    assert_eq!(commands.len(), 5);
    assert!(commands.contains(&"aws application-autoscaling register-scalable-target --service-namespace dynamodb --resource-id table/orders --scalable-dimension dynamodb:table:WriteCapacityUnits --min-capacity 1 --max-capacity 40000"));
    assert!(commands.contains(&"aws application-autoscaling put-scaling-policy --service-namespace dynamodb --resource-id table/orders --scalable-dimension dynamodb:table:ReadCapacityUnits --policy-name orders-read-target-tracking --policy-type TargetTrackingScaling --target-tracking-scaling-policy-configuration '{\"TargetValue\":70,\"PredefinedMetricSpecification\":{\"PredefinedMetricType\":\"DynamoDBReadCapacityUtilization\"}}'"));
    let text = v["text"].as_str().unwrap();
    assert!(
        text.starts_with(
            "switch to provisioned capacity: saves 105.99 a month (58.7 % of today's 180.68)"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "reads auto scaling at 70 % (1–40000 RCU); writes auto scaling at 70 % (1–40000 WCU)"
        ),
        "{text}"
    );
    assert!(
        text.contains("moving back to on demand is allowed 4 times in 24 hours"),
        "{text}"
    );
}

#[test]
fn a_week_is_too_short_to_decide_and_a_gsi_has_its_own_curve() {
    let dir = tempfile::tempdir().unwrap();
    // A week of minutes: the table writes 100 WCU/s (6,000 a minute), its GSI 20 (1,200).
    let t = points(10_080, 60, "6000");
    let g = points(10_080, 60, "1200");
    let file = write_file(
        dir.path(),
        "m.json",
        &page(&[
            result("ddbcost:orders::ConsumedWriteCapacityUnits:Sum:60", &t),
            result(
                "ddbcost:orders:by-status:ConsumedWriteCapacityUnits:Sum:60",
                &g,
            ),
        ]),
    );
    let doc = usage_json(&[file], &[]);
    let dims = doc["tables"][0]["dimensions"].as_array().unwrap();
    assert_eq!(dims.len(), 2);
    let gsi = dims.iter().find(|d| d["index"] == "by-status").unwrap();
    // The GSI: ⌈20 ÷ 0.7⌉ = 29 WCU × 168 h = 4,872 WCU-hours.
    assert_eq!(s(&gsi["auto_scaling"]["unit_hours"]), dec("4872"));
    let table = dims.iter().find(|d| d["index"].is_null()).unwrap();
    // The table: 143 × 168 = 24,024 WCU-hours.
    assert_eq!(s(&table["auto_scaling"]["unit_hours"]), dec("24024"));
    let text = doc["tables"][0]["verdict"]["text"].as_str().unwrap();
    assert!(
        text.starts_with("measure longer: under two complete weeks"),
        "{text}"
    );
}

#[test]
fn a_csv_export_reads_like_the_cli_output() {
    let dir = tempfile::tempdir().unwrap();
    let mut csv = String::from("timestamp,table,index,metric,statistic,value\n");
    for (t, v) in points(4_032, 300, "30000") {
        csv.push_str(&format!(
            "{},orders,,ConsumedWriteCapacityUnits,Sum,{v}\n",
            iso(t)
        ));
    }
    let file = write_file(dir.path(), "m.csv", &csv);
    let doc = usage_json(&[file], &[]);
    let writes = &doc["tables"][0]["dimensions"][0];
    // The same curve as the fortnight above: $164.25 a month on demand, $67.8535 auto scaled.
    assert_eq!(s(&writes["on_demand"]["monthly"]), dec("164.25"));
    assert_eq!(s(&writes["auto_scaling"]["monthly"]), dec("67.8535"));
    assert_eq!(doc["window"]["period_seconds"], 300);
}

#[test]
fn gaps_are_counted_and_taken_as_nothing_consumed() {
    let dir = tempfile::tempdir().unwrap();
    // 60 minutes at 600 units a minute (10/s), with minutes 10–19 missing: 50 points of 60.
    let mut p = points(60, 60, "600");
    p.drain(10..20);
    let file = write_file(
        dir.path(),
        "m.json",
        &page(&[result("ddbcost:t::ConsumedReadCapacityUnits:Sum:60", &p)]),
    );
    let doc = usage_json(&[file], &[]);
    let d = &doc["tables"][0]["dimensions"][0];
    assert_eq!(
        (
            d["points"].as_u64(),
            d["steps"].as_u64(),
            d["gaps"].as_u64()
        ),
        (Some(50), Some(60), Some(10))
    );
    // 50 × 600 = 30,000 RRU consumed.
    assert_eq!(s(&d["consumed"]), dec("30000"));
}

#[test]
fn the_workloads_policy_and_measured_capacity_are_used() {
    let dir = tempfile::tempdir().unwrap();
    let workload = write_file(
        dir.path(),
        "w.yaml",
        "prices: aws-us-east-1\ntables:\n  orders:\n    item_size: 1 KB\n    capacity: { mode: provisioned, auto_scaling: { target: 50%, min_wcu: 300, max_wcu: 1000, min_rcu: 1, max_rcu: 10 } }\n    patterns: {}\n",
    );
    // 14 days of minutes would be large: 2 days at 300 s of 100 WCU/s, provisioned at 400.
    let w = points(576, 300, "30000");
    let p = points(576, 300, "400");
    let file = write_file(
        dir.path(),
        "m.json",
        &page(&[
            result("ddbcost:orders::ConsumedWriteCapacityUnits:Sum:300", &w),
            result(
                "ddbcost:orders::ProvisionedWriteCapacityUnits:Average:300",
                &p,
            ),
        ]),
    );
    let doc = usage_json(std::slice::from_ref(&file), &["--workload", &workload]);
    let d = &doc["tables"][0]["dimensions"][0];
    // The policy of the workload: 50 %, 300–1,000. Starting at the measured 400 (utilization
    // 25 % ≤ 30 % for 3 points), it falls to ⌈100 ÷ 0.5⌉ = 200 → min 300 from point 3:
    // (3 × 400 + 573 × 300) × 300 ÷ 3,600 = 14,425 WCU-hours.
    assert_eq!(d["policy"]["target"], "0.5");
    assert_eq!(s(&d["auto_scaling"]["unit_hours"]), dec("14425"));
    // The current capacity, 400 all along: 400 × 48 h = 19,200 WCU-hours × 0.00065 = $12.48.
    assert_eq!(s(&d["current"]["unit_hours"]), dec("19200"));
    assert_eq!(s(&d["current"]["cost"]), dec("12.48"));
    // A measured table the workload does not describe is refused.
    let other = write_file(
        dir.path(),
        "o.json",
        &page(&[result(
            "ddbcost:nobody::ConsumedWriteCapacityUnits:Sum:300",
            &w,
        )]),
    );
    Case::new()
        .args(["usage", &other, "--workload", &workload])
        .run()
        .code(1)
        .stderr_has("table `nobody` is measured, and the workload does not describe it");
}

#[test]
fn bad_cloudwatch_data_is_refused_with_its_file() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let l = "ddbcost:t::ConsumedReadCapacityUnits:Sum:60";
    let refuse = |files: &[&str], needle: &str| {
        let mut args = vec!["usage"];
        args.extend(files);
        Case::new().args(&args).run().code(1).stderr_has(needle);
    };
    // Two pages that overlap and disagree.
    let a = write_file(d, "a.json", &page(&[result(l, &points(3, 60, "5"))]));
    let b = write_file(d, "b.json", &page(&[result(l, &points(3, 60, "6"))]));
    refuse(&[&a, &b], "overlapping pages that disagree");
    // A negative value, a value that is no number.
    let neg = write_file(d, "n.json", &page(&[result(l, &points(2, 60, "-1"))]));
    refuse(&[&neg], "-1 is negative");
    let text = write_file(d, "x.json", &page(&[result(l, &points(2, 60, "\"lots\""))]));
    refuse(&[&text], "is not a number");
    // Mixed periods in one series.
    let mut mixed = points(3, 60, "5");
    mixed.push((NOV_1 + 210, "5".into()));
    let m = write_file(d, "m.json", &page(&[result(l, &mixed)]));
    refuse(&[&m], "mixed periods in one series");
    // A result nobody names; a queries file of another namespace.
    let unnamed = write_file(
        d,
        "u.json",
        &page(&[result("my label", &points(2, 60, "5"))]),
    );
    refuse(&[&unnamed], "names no metric");
    let queries = write_file(
        d,
        "q.json",
        r#"[{"Id": "m0", "MetricStat": {"Metric": {"Namespace": "AWS/EC2", "MetricName": "CPUUtilization", "Dimensions": []}, "Period": 60, "Stat": "Average"}}]"#,
    );
    Case::new()
        .args(["usage", &unnamed, "--queries", &queries])
        .run()
        .code(1)
        .stderr_has("namespace `AWS/EC2`, not AWS/DynamoDB");
    // A file that is neither.
    let other = write_file(d, "o.txt", "hello\n");
    refuse(
        &[&other],
        "neither `get-metric-data` output nor a CSV of metrics",
    );
}

#[test]
fn an_answer_missing_its_last_page_is_refused_or_priced_as_partial() {
    let dir = tempfile::tempdir().unwrap();
    let label = "ddbcost:t::ConsumedReadCapacityUnits:Sum:60";
    // A first page: 3 minutes at 300 units, PartialData (more pages exist), with a NextToken.
    let mut first = result(label, &points(3, 60, "300"));
    first["StatusCode"] = json!("PartialData");
    let mut doc: Value = serde_json::from_str(&page(&[first])).unwrap();
    doc["NextToken"] = json!("token-1");
    doc["Messages"] = json!([{"Code": "MaxDatapointsExceeded", "Value": "more datapoints"}]);
    let f1 = write_file(dir.path(), "p1.json", &doc.to_string());
    // Alone, it is refused: the page that completes the series is missing.
    Case::new()
        .args(["usage", &f1])
        .run()
        .code(1)
        .stderr_has("every result read is PartialData (in ")
        .stderr_has("every page given carries a NextToken (")
        .stderr_has("--allow-partial");
    // With --allow-partial it is priced and said partial; CloudWatch's message is shown.
    let out = Case::new()
        .args(["usage", &f1, "--allow-partial", "--format", "json"])
        .run()
        .success()
        .stderr_has("CloudWatch says MaxDatapointsExceeded: more datapoints");
    let partial: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(partial["partial"].as_array().unwrap().len(), 2);
    Case::new()
        .args(["usage", &f1, "--allow-partial"])
        .run()
        .success()
        .stdout_has("PARTIAL (--allow-partial): ConsumedReadCapacityUnits of table `t`");
    // The second page (3 more minutes, Complete, no NextToken) completes it: 6 × 300 = 1,800
    // units; a result CloudWatch could not return is said.
    let second: Vec<(i64, String)> = (3..6)
        .map(|i| (NOV_1 + i * 60, "300".to_string()))
        .collect();
    let mut other = result(
        "ddbcost:u::ConsumedReadCapacityUnits:Sum:60",
        &points(6, 60, "1"),
    );
    other["StatusCode"] = json!("InternalError");
    let f2 = write_file(
        dir.path(),
        "p2.json",
        &page(&[result(label, &second), other]),
    );
    let out = Case::new()
        .args(["usage", &f1, &f2, "--format", "json"])
        .run()
        .success()
        .stderr_has("is InternalError: CloudWatch could not return all of it");
    let whole: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(whole["partial"], json!([]));
    let t = whole["tables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["table"] == "t")
        .unwrap();
    assert_eq!(s(&t["dimensions"][0]["consumed"]), dec("1800"));
}

#[test]
fn a_label_whose_period_disagrees_with_the_points_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    // An hour of 5-minute points (12), labelled as one-minute points: read at 60 s, each Sum
    // of 300 s would be 5× the demand a second.
    let f = write_file(
        dir.path(),
        "m.json",
        &page(&[result(
            "ddbcost:t::ConsumedWriteCapacityUnits:Sum:60",
            &points(12, 300, "3000"),
        )]),
    );
    Case::new()
        .args(["usage", &f])
        .run()
        .code(1)
        .stderr_has("labelled every 60 s, but its 12 points are 300 s apart: priced at the label's period, each point would count 5× the demand");
    // Sparse points of a one-minute series (nothing consumed in most minutes) are not a
    // mislabel: minutes 0, 7, 9, 30, 31, 55.
    let sparse: Vec<(i64, String)> = [0, 7, 9, 30, 31, 55]
        .iter()
        .map(|m| (NOV_1 + m * 60, "60".to_string()))
        .collect();
    let g = write_file(
        dir.path(),
        "s.json",
        &page(&[result(
            "ddbcost:t::ConsumedWriteCapacityUnits:Sum:60",
            &sparse,
        )]),
    );
    Case::new().args(["usage", &g]).run().success();
}

#[test]
fn a_series_that_covers_part_of_the_window_is_said() {
    let dir = tempfile::tempdir().unwrap();
    // Table a: 2 hours of minutes; table b: its second hour only.
    let late: Vec<(i64, String)> = (60..120)
        .map(|i| (NOV_1 + i * 60, "60".to_string()))
        .collect();
    let f = write_file(
        dir.path(),
        "m.json",
        &page(&[
            result(
                "ddbcost:a::ConsumedReadCapacityUnits:Sum:60",
                &points(120, 60, "60"),
            ),
            result("ddbcost:b::ConsumedReadCapacityUnits:Sum:60", &late),
        ]),
    );
    Case::new()
        .args(["usage", &f])
        .run()
        .success()
        .stderr_has("ConsumedReadCapacityUnits of table `b`: points from 2026-11-01T01:00:00Z to 2026-11-01T02:00:00Z only, in a window from 2026-11-01T00:00:00Z to 2026-11-01T02:00:00Z: the rest is taken as 0 consumed");
}

#[test]
fn usage_query_writes_the_fetch_within_retention() {
    let out = Case::new()
        .args([
            "usage",
            "query",
            "--table",
            "orders",
            "--gsi",
            "orders:by-status",
            "--days",
            "14",
            "--end",
            "2026-11-01",
            "--region",
            "us-east-1",
        ])
        .run()
        .success();
    // 14 days × 1,440 = 20,160 points a query: 5 queries a call; 8 for the table + 9 for
    // the GSI (6, and its backfill's 3) = 17 queries → 4 calls.
    assert_eq!(
        out.stdout
            .matches("aws cloudwatch get-metric-data --region us-east-1")
            .count(),
        4
    );
    assert!(
        out.stdout
            .contains("OnlineIndexPercentageProgress:Maximum:60")
    );
    assert!(
        out.stdout
            .contains("--start-time 2026-10-18T00:00:00Z --end-time 2026-11-01T00:00:00Z")
    );
    assert!(
        out.stdout
            .contains("\"Label\": \"ddbcost:orders:by-status:ConsumedReadCapacityUnits:Sum:60\"")
    );
    assert!(
        out.stdout
            .contains("CloudWatch keeps 60-second points for 15 days")
    );
    Case::new()
        .args(["usage", "query", "--table", "orders", "--days", "30"])
        .run()
        .code(2)
        .stderr_has("CloudWatch keeps 60-second points for 15 days");
}

#[test]
fn the_measured_workload_prices_as_the_data_did() {
    let dir = tempfile::tempdir().unwrap();
    let workload = write_file(
        dir.path(),
        "w.yaml",
        "prices: aws-us-east-1\ntables:\n  orders:\n    item_size: 1 KB\n    items: 1M\n    indexes:\n      by-status: { type: gsi, projection: all }\n    patterns: {}\n",
    );
    // Two days of 5-minute points: 100 WCU/s (30,000 a point), twice as much 18:00–23:59.
    let w: Vec<(i64, String)> = (0..576)
        .map(|i| {
            let t = NOV_1 + i * 300;
            let hour = (t / 3_600) % 24;
            (
                t,
                if hour >= 18 {
                    "60000".to_string()
                } else {
                    "30000".to_string()
                },
            )
        })
        .collect();
    let file = write_file(
        dir.path(),
        "m.json",
        &page(&[result(
            "ddbcost:orders::ConsumedWriteCapacityUnits:Sum:300",
            &w,
        )]),
    );
    let out_path = dir.path().join("measured.yaml");
    let out = out_path.to_str().unwrap();
    let doc = usage_json(
        std::slice::from_ref(&file),
        &["--workload", &workload, "--measured-workload", out],
    );
    let yaml = std::fs::read_to_string(&out_path).unwrap();
    // 2 days × (18 h × 360,000 + 6 h × 720,000 units) = 2 × 10,800,000 = 21,600,000 units in
    // 48 h, written as the window's with its hours; a month: 21,600,000 × 730 ÷ 48 =
    // 328,500,000 write units.
    assert!(yaml.contains("write_units: 21600000   # measured: 21600000 units in 48 h (576 of 576 points, 0 gaps taken as 0); a 730-hour month: 328500000"), "{yaml}");
    assert!(yaml.contains("hours: 48"), "{yaml}");
    // Under a week: the profile of the day, 18:00–23:59 at 2 parts of 1.5 a mean hour
    // (18 × 1 + 6 × 2 = 30 parts over 24 hours: 1 ÷ 1.25 = 0.8, 2 ÷ 1.25 = 1.6).
    assert!(yaml.contains("hourly: [0.8, 0.8,"), "{yaml}");
    assert!(yaml.contains("1.6, 1.6]"), "{yaml}");
    assert!(
        yaml.contains("GSI `by-status`: no metrics measured"),
        "{yaml}"
    );
    // Priced as a workload, its writes cost what `usage` says on demand costs a month:
    // 328.5 M WRU × $0.625 = $205.3125.
    let on_demand = s(&doc["tables"][0]["dimensions"][0]["on_demand"]["monthly"]);
    assert_eq!(on_demand, dec("205.3125"));
    let est = Case::new()
        .args(["estimate", out, "--format", "json"])
        .run()
        .success();
    let e: Value = serde_json::from_str(&est.stdout).unwrap();
    let writes = e["line_items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["key"] == "orders/writes")
        .unwrap();
    assert_eq!(s(&writes["cost"]), on_demand);
}

#[test]
fn the_hourly_series_adds_up_to_the_window() {
    let dir = tempfile::tempdir().unwrap();
    // 3 hours of minutes at 50 RCU/s (3,000 a minute).
    let file = write_file(
        dir.path(),
        "m.json",
        &page(&[result(
            "ddbcost:t::ConsumedReadCapacityUnits:Sum:60",
            &points(180, 60, "3000"),
        )]),
    );
    let out = Case::new()
        .args(["usage", &file, "--format", "csv"])
        .run()
        .success();
    let (header, rows) = common::csv_table(&out.stdout);
    let col = |n: &str| header.iter().position(|h| h == n).unwrap();
    assert_eq!(rows.len(), 3);
    for r in &rows {
        // Each hour: 50 × 3,600 = 180,000 units; auto scaling ⌈50 ÷ 0.7⌉ = 72 RCU for the
        // hour = 72 unit-hours — written exactly `72` (60 × 72 × 60 ÷ 3,600, divided once);
        // fixed with the same headroom, 72.
        assert_eq!(dec(&r[col("consumed_units")]), dec("180000"));
        assert_eq!(&r[col("auto_scaling_unit_hours")], "72");
        assert_eq!(&r[col("fixed_unit_hours")], "72");
    }
    assert_eq!(&rows[1][col("hour_start")], "2026-11-01T01:00:00Z");
}

#[test]
fn get_metric_statistics_is_read_when_its_table_is_named() {
    let dir = tempfile::tempdir().unwrap();
    // Unordered datapoints, as the CLI writes them: 4 hours of 3,600-second Sums of 360,000
    // write units (100 WCU/s).
    let points: Vec<Value> = [3, 0, 2, 1]
        .iter()
        .map(|h| json!({"Timestamp": iso(NOV_1 + h * 3_600), "Sum": 360_000.0, "Unit": "Count"}))
        .collect();
    let text = json!({"Label": "ConsumedWriteCapacityUnits", "Datapoints": points}).to_string();
    let file = write_file(dir.path(), "stats.json", &text);
    let doc = usage_json(&[format!("orders:by-status={file}")], &[]);
    let d = &doc["tables"][0]["dimensions"][0];
    assert_eq!(doc["tables"][0]["table"], "orders");
    assert_eq!(d["index"], "by-status");
    assert_eq!(doc["window"]["period_seconds"], 3_600);
    // 4 × 360,000 = 1,440,000 units; auto scaling 143 WCU × 4 h = 572 WCU-hours.
    assert_eq!(s(&d["consumed"]), dec("1440000"));
    assert_eq!(s(&d["auto_scaling"]["unit_hours"]), dec("572"));
    // Without its table: refused, with what to write.
    Case::new()
        .args(["usage", &file])
        .run()
        .code(1)
        .stderr_has("`get-metric-statistics` output names no table")
        .stderr_has("TABLE=FILE");
}

#[test]
fn a_stray_timestamp_is_refused_not_allocated() {
    // Found by the `cloudwatch` fuzz target: a year typed 3026 made a window of a thousand
    // years of minutes (525 million steps, 8 GB). Past two years of minutes it is refused.
    let dir = tempfile::tempdir().unwrap();
    let text = json!({"MetricDataResults": [{
        "Id": "m0", "Label": "ddbcost:t::ConsumedReadCapacityUnits:Sum:60",
        "Timestamps": ["3026-11-01T00:00:00Z", "2026-11-01T00:01:00Z"],
        "Values": [1.5, 2], "StatusCode": "Complete"}]})
    .to_string();
    let f = write_file(dir.path(), "stray.json", &text);
    // A thousand years apart: more than one series holds (68 years from its first point).
    Case::new()
        .args(["usage", &f])
        .run()
        .code(1)
        .stderr_has("are more than 68 years apart")
        .stderr_has("a timestamp out of place");
    // Three years apart: past two years of minutes.
    let f = write_file(
        dir.path(),
        "stray3.json",
        &text.replace("3026-11-01", "2029-11-01"),
    );
    Case::new()
        .args(["usage", &f])
        .run()
        .code(1)
        .stderr_has("more than 1051200")
        .stderr_has("a timestamp out of place");
}

#[test]
fn throttle_events_returned_items_and_ttl_deletions_are_summed() {
    let dir = tempfile::tempdir().unwrap();
    // 3 minutes of reads, and beside them 2 + 0 + 5 = 7 read throttle events and
    // 10 + 20 + 30 = 60 items deleted by TTL.
    let f = write_file(
        dir.path(),
        "m.json",
        &page(&[
            result(
                "ddbcost:t::ConsumedReadCapacityUnits:Sum:60",
                &points(3, 60, "600"),
            ),
            result(
                "ddbcost:t::ReadThrottleEvents:Sum:60",
                &[
                    (NOV_1, "2".into()),
                    (NOV_1 + 60, "0".into()),
                    (NOV_1 + 120, "5".into()),
                ],
            ),
            result(
                "ddbcost:t::TimeToLiveDeletedItemCount:Sum:60",
                &[
                    (NOV_1, "10".into()),
                    (NOV_1 + 60, "20".into()),
                    (NOV_1 + 120, "30".into()),
                ],
            ),
        ]),
    );
    let doc = usage_json(std::slice::from_ref(&f), &[]);
    let other = doc["other_metrics"].as_array().unwrap();
    let sum = |m: &str| s(&other.iter().find(|o| o["metric"] == m).unwrap()["sum"]);
    assert_eq!(sum("ReadThrottleEvents"), dec("7"));
    assert_eq!(sum("TimeToLiveDeletedItemCount"), dec("60"));
    // Read but not analysed: 6 of the 9 points.
    assert_eq!(doc["points"]["dropped"], 6);
    Case::new()
        .args(["usage", &f])
        .run()
        .success()
        .stdout_has("measured on table `t`: 7 ReadThrottleEvents in the window");
}

#[test]
fn a_gsi_backfill_is_read_from_its_online_index_metrics() {
    let dir = tempfile::tempdir().unwrap();
    // While GSI `by-status` is built: 3 minutes of 1,000,000 backfill write units each
    // (3,000,000 in all), progress 20 %, 60 %, 100 % (the highest: 100), and 0 + 4 + 1 = 5
    // throttled backfill writes.
    let f = write_file(
        dir.path(),
        "m.json",
        &page(&[
            result(
                "ddbcost:t::ConsumedWriteCapacityUnits:Sum:60",
                &points(3, 60, "600"),
            ),
            result(
                "ddbcost:t:by-status:OnlineIndexConsumedWriteCapacity:Sum:60",
                &points(3, 60, "1000000"),
            ),
            result(
                "ddbcost:t:by-status:OnlineIndexPercentageProgress:Maximum:60",
                &[
                    (NOV_1, "20".into()),
                    (NOV_1 + 60, "60".into()),
                    (NOV_1 + 120, "100".into()),
                ],
            ),
            result(
                "ddbcost:t:by-status:OnlineIndexThrottleEvents:Sum:60",
                &[
                    (NOV_1, "0".into()),
                    (NOV_1 + 60, "4".into()),
                    (NOV_1 + 120, "1".into()),
                ],
            ),
        ]),
    );
    let doc = usage_json(std::slice::from_ref(&f), &[]);
    let other = doc["other_metrics"].as_array().unwrap();
    let of = |m: &str| other.iter().find(|o| o["metric"] == m).unwrap().clone();
    assert_eq!(
        s(&of("OnlineIndexConsumedWriteCapacity")["value"]),
        dec("3000000")
    );
    assert_eq!(
        s(&of("OnlineIndexConsumedWriteCapacity")["sum"]),
        dec("3000000")
    );
    let progress = of("OnlineIndexPercentageProgress");
    assert_eq!(progress["statistic"], "Maximum");
    assert_eq!(s(&progress["value"]), dec("100"));
    assert_eq!(progress["sum"], serde_json::Value::Null);
    assert_eq!(s(&of("OnlineIndexThrottleEvents")["value"]), dec("5"));
    Case::new()
        .args(["usage", &f])
        .run()
        .success()
        .stdout_has("backfill measured on table `t`, GSI `by-status`: 3,000,000 write units consumed building the index in the window (OnlineIndexConsumedWriteCapacity)")
        .stdout_has("backfill measured on table `t`, GSI `by-status`: 100 % done at most in the window")
        .stdout_has("backfill measured on table `t`, GSI `by-status`: 5 of its writes throttled");
}

#[test]
fn the_work_of_one_run_is_bounded() {
    // 96 read series, each two points 1,051,199 minutes apart: a window of 1,051,200 steps
    // (the most one window may span), × 96 curves = 100,915,200 steps to simulate, more than
    // the 100,000,000 one run does. Refused at once, with the way out.
    let dir = tempfile::tempdir().unwrap();
    let far = NOV_1 + 1_051_199 * 60;
    let results: Vec<Value> = (0..96)
        .map(|i| {
            json!({"Id": format!("m{i}"), "Label": format!("ddbcost:t{i}::ConsumedReadCapacityUnits:Sum:60"),
                   "Timestamps": ["2026-11-01T00:00:00Z", iso(far)], "Values": [1, 1], "StatusCode": "Complete"})
        })
        .collect();
    let f = write_file(dir.path(), "many.json", &page(&results));
    Case::new()
        .args(["usage", &f])
        .run()
        .code(1)
        .stderr_has("96 consumed series over a window of 1051200 periods: 100915200 steps to simulate, more than 100000000")
        .stderr_has("splitting the tables into shards");
}

#[test]
fn the_verdict_becomes_a_scenario_and_commitments_are_sized_on_it() {
    let dir = tempfile::tempdir().unwrap();
    // 14 days of 5-minute points at 30,000 write units (100 WCU/s), on an on-demand table:
    // stable, and auto scaling at 70 % holds ⌈100 ÷ 0.7⌉ = 143 WCU throughout, never short.
    let f = write_file(
        dir.path(),
        "m.json",
        &page(&[result(
            "ddbcost:orders::ConsumedWriteCapacityUnits:Sum:300",
            &points(4_032, 300, "30000"),
        )]),
    );
    let w = write_file(
        dir.path(),
        "w.yaml",
        // Updates, not puts: the forecast behind the commitment search would store each new item.
        "prices: aws-us-east-1\ntables:\n  orders:\n    item_size: 1 KB\n    capacity: { mode: on-demand }\n    patterns:\n      update: { op: update, rate: 1/s }\n",
    );
    let out = dir.path().join("measured.yaml").display().to_string();
    let doc = usage_json(
        std::slice::from_ref(&f),
        &["--workload", &w, "--measured-workload", &out],
    );
    let c = &doc["commitments"];
    assert_eq!(c["on"], "measured-verdict");
    assert_eq!(c["months"], 12);
    assert_eq!(c["start"], "2026-11");
    let option = |name: &str| {
        c["advice"]["options"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["name"] == name)
            .unwrap_or_else(|| panic!("no option {name}: {c}"))
            .clone()
    };
    // No commitments, 12 months of 730 h: writes 143 WCU × 8,760 h × $0.00065 = $814.242;
    // reads (none measured nor stated) auto scale at their floor, 1 RCU × 8,760 × $0.00013
    // = $1.1388: $815.3808.
    assert_eq!(s(&option("no commitments")["total"]), dec("815.3808"));
    // One block of 100 WCU for a year: $150 upfront + $0.0128 × 8,760 = $112.128 in fees,
    // the other 43 WCU × 8,760 × $0.00065 = $244.842, reads $1.1388: $508.1088. (A second
    // block would cost 100 × ($1.50 ÷ 8,760 + $0.000128) ≈ $0.0299 an hour to save 43 ×
    // $0.00065 = $0.02795.)
    let reserved = option("reserved capacity, 1 year");
    assert_eq!(s(&reserved["total"]), dec("508.1088"));
    assert_eq!(reserved["reservations"][0]["capacity"], "wcu");
    assert_eq!(s(&reserved["reservations"][0]["units"]), dec("100"));
    // The measured workload carries the verdict as a scenario, which prices as `usage` did:
    // 143 WCU × 730 h × $0.00065 = $67.8535 a month.
    let yaml = std::fs::read_to_string(&out).unwrap();
    assert!(yaml.contains("name: measured-verdict"), "{yaml}");
    let compared = Case::new()
        .args(["compare", &out, "--format", "json"])
        .run()
        .success();
    let cmp: Value = serde_json::from_str(&compared.stdout).unwrap();
    let verdict = &cmp["scenarios"][0];
    assert_eq!(verdict["name"], "measured-verdict");
    let writes = verdict["line_items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["key"] == "orders/writes")
        .unwrap_or_else(|| panic!("no write line: {verdict}"));
    let usage_auto = s(&doc["tables"][0]["dimensions"][0]["auto_scaling"]["monthly"]);
    assert_eq!(usage_auto, dec("67.8535"));
    assert_eq!(s(&writes["cost"]), usage_auto);
    // A horizon outside 1–120 months is refused before any input is read.
    Case::new()
        .args(["usage", "missing.json", "--workload", &w, "--months", "0"])
        .run()
        .code(2)
        .stderr_has("--months 0 is outside 1–120");
}

/// Three tables' reads and writes (b with a GSI, c with its provisioned capacity and throttle
/// events), split over two pages that overlap by one point of every series.
fn three_tables(dir: &std::path::Path) -> Vec<String> {
    let mut first = Vec::new();
    let mut second = Vec::new();
    for (table, index, metric, value) in [
        ("a", "", "ConsumedReadCapacityUnits", "600"),
        ("a", "", "ConsumedWriteCapacityUnits", "120"),
        ("b", "", "ConsumedReadCapacityUnits", "3000"),
        ("b", "by-day", "ConsumedWriteCapacityUnits", "60"),
        ("c", "", "ConsumedWriteCapacityUnits", "900"),
        ("c", "", "ProvisionedWriteCapacityUnits", "20"),
        ("c", "", "WriteThrottleEvents", "1"),
    ] {
        let label = format!("ddbcost:{table}:{index}:{metric}:Sum:60");
        let label = if metric.starts_with("Provisioned") {
            label.replace(":Sum:", ":Average:")
        } else {
            label
        };
        let all = points(40, 60, value);
        first.push(result(&label, &all[..21]));
        second.push(result(&label, &all[20..]));
    }
    vec![
        write_file(dir, "p1.json", &page(&first)),
        write_file(dir, "p2.json", &page(&second)),
    ]
}

#[test]
fn a_reading_too_large_to_hold_is_read_again_in_shards_with_the_same_figures() {
    let dir = tempfile::tempdir().unwrap();
    let files = three_tables(dir.path());
    let mut whole = usage_json(&files, &[]);
    let mut sharded = usage_json(&files, &["--max-points-held", "90"]);
    // Read: 7 series × (21 + 20) = 287 points, 7 of them twice (the overlap). Held at once:
    // at most 90, so the first pass only surveys; then table a (2 series × 41 = 82 points)
    // is a shard, b (82) another (82 + 82 > 90), c (3 × 41 = 123) a shard alone though
    // past 90: 1 + 3 = 4 passes.
    assert_eq!(whole["points"]["read"], 287);
    assert_eq!(whole["points"]["passes"], 1);
    assert_eq!(sharded["points"]["passes"], 4);
    assert_eq!(sharded["points"]["max_held"], 90);
    // The same decision either way, point for point: 7 duplicates, 5 consumed and 1
    // provisioned series of 40 used (240), the 40 throttle points not analysed.
    assert_eq!(sharded["points"]["duplicated"], 7);
    assert_eq!(sharded["points"]["used"], 240);
    assert_eq!(sharded["points"]["dropped"], 40);
    for doc in [&mut whole, &mut sharded] {
        let points = doc["points"].as_object_mut().unwrap();
        points.remove("passes");
        points.remove("max_held");
    }
    assert_eq!(whole, sharded);
    // c's write throttle events: 40 × 1.
    let other = sharded["other_metrics"].as_array().unwrap();
    assert_eq!(s(&other[0]["sum"]), dec("40"));
    let mut args = vec!["usage".to_string()];
    args.extend(files.iter().cloned());
    args.extend(["--max-points-held".into(), "90".into()]);
    Case::new()
        .args(&args)
        .run()
        .success()
        .stdout_has("read in 4 passes of at most 90 points held");
}

#[test]
fn values_keep_every_digit_written() {
    // 1,234,567,890,123.0000001 units a minute has more digits than a 64-bit float holds
    // (it would read 1,234,567,890,123): two minutes consume 2,469,135,780,246.0000002 exactly.
    let dir = tempfile::tempdir().unwrap();
    let text = page(&[result(
        "ddbcost:t::ConsumedReadCapacityUnits:Sum:60",
        &points(2, 60, "1234567890123.0000001"),
    )])
    .replace("1234567890123.0", "1234567890123.0000001");
    let f = write_file(dir.path(), "m.json", &text);
    let doc = usage_json(&[f], &[]);
    assert_eq!(
        s(&doc["tables"][0]["dimensions"][0]["consumed"]),
        dec("2469135780246.0000002")
    );
}

#[test]
fn compressed_files_and_standard_input_read_like_files() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let text = page(&[result(
        "ddbcost:t::ConsumedReadCapacityUnits:Sum:60",
        &points(3, 60, "600"),
    )]);
    let plain = write_file(dir.path(), "m.json", &text);
    let gz = dir.path().join("m.json.gz");
    let mut enc = flate2::write::GzEncoder::new(
        std::fs::File::create(&gz).unwrap(),
        flate2::Compression::default(),
    );
    enc.write_all(text.as_bytes()).unwrap();
    enc.finish().unwrap();
    let want = usage_json(&[plain], &[]);
    // 3 minutes × 600 units.
    assert_eq!(
        s(&want["tables"][0]["dimensions"][0]["consumed"]),
        dec("1800")
    );
    assert_eq!(usage_json(&[gz.display().to_string()], &[]), want);
    let out = Case::new()
        .args(["usage", "-", "--format", "json"])
        .stdin(&text)
        .run()
        .success();
    assert_eq!(serde_json::from_str::<Value>(&out.stdout).unwrap(), want);
}

#[test]
fn a_fifo_is_refused_since_inputs_may_be_read_twice() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe.json");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    Case::new()
        .args(["usage", fifo.to_str().unwrap()])
        .run()
        .code(1)
        .stderr_has("is not a regular file")
        .stderr_has("may read its inputs more than once");
}

/// Any Unix second as ISO 8601.

#[test]
fn measured_names_are_shown_without_acting_on_the_terminal() {
    // A week of minutes for a table and a GSI whose names hold an escape sequence and a
    // right-to-left override: the table and Markdown show them escaped, the JSON keeps them.
    let dir = tempfile::tempdir().unwrap();
    let t = points(10_080, 60, "6000");
    let file = write_file(
        dir.path(),
        "m.json",
        &page(&[
            result(
                "ddbcost:orders\u{1b}[2J::ConsumedWriteCapacityUnits:Sum:60",
                &t,
            ),
            result(
                "ddbcost:orders\u{1b}[2J:by\u{202E}status:ConsumedWriteCapacityUnits:Sum:60",
                &t,
            ),
        ]),
    );
    for format in ["table", "markdown", "html"] {
        let out = Case::new()
            .args(["usage", &file, "--format", format])
            .run()
            .success();
        assert!(
            !out.stdout.contains('\u{1b}') && !out.stdout.contains('\u{202E}'),
            "{format}: {}",
            out.stdout
        );
        assert!(
            out.stdout.contains("orders\\u{1b}"),
            "{format}: {}",
            out.stdout
        );
        assert!(
            out.stdout.contains("by\\u{202e}status"),
            "{format}: {}",
            out.stdout
        );
    }
    let doc = usage_json(&[file], &[]);
    assert_eq!(doc["tables"][0]["table"], "orders\u{1b}[2J");
}

/// Each Markdown table `usage` writes has a delimiter row of as many cells as its header (a
/// renderer reads `|---|…|---||` as an eighth, empty column, or not as a table at all).
#[test]
fn the_markdown_tables_are_well_formed() {
    let out = Case::new()
        .args([
            "usage",
            "workloads/samples/orders-metrics.json.gz",
            "--workload",
            "workloads/samples/orders-live.yaml",
            "--format",
            "markdown",
        ])
        .run()
        .success();
    let lines: Vec<&str> = out.stdout.lines().collect();
    let cells = |l: &str| l.trim().trim_matches('|').split('|').count();
    let mut tables = 0;
    for pair in lines.windows(2) {
        if pair[1].starts_with("|-") || pair[1].starts_with("|:") {
            tables += 1;
            assert_eq!(cells(pair[0]), cells(pair[1]), "{}\n{}", pair[0], pair[1]);
            assert!(
                pair[1].ends_with('|') && !pair[1].ends_with("||"),
                "{}",
                pair[1]
            );
        }
    }
    assert!(tables >= 2, "{}", out.stdout);
}
