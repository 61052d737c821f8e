//! `ddbcost usage`'s verdict starts from what runs today: each option — keep, right-size the
//! fixed capacity, auto scaling, on demand — priced on the measured curve with burst capacity
//! (300 s of unused capacity banked) and its saving against today's cost. Every figure is
//! derived here from the rule and the us-east-1 prices ($0.125 per million RRU, $0.625 per
//! million WRU, $0.00013 per RCU-hour, $0.00065 per WCU-hour, a 730-hour month).

mod common;

use common::cloudwatch::{NOV_1, curve, page, points, result, s, usage_json};
use common::{Case, dec, write_file};
use serde_json::{Value, json};

const W: &str = "ddbcost:orders::ConsumedWriteCapacityUnits:Sum";
const R: &str = "ddbcost:orders::ConsumedReadCapacityUnits:Sum";
const PW: &str = "ddbcost:orders::ProvisionedWriteCapacityUnits:Average";
const PR: &str = "ddbcost:orders::ProvisionedReadCapacityUnits:Average";

fn label(metric: &str, period: i64) -> String {
    format!("{metric}:{period}")
}

fn workload(dir: &std::path::Path, capacity: &str) -> String {
    write_file(
        dir,
        "w.yaml",
        &format!(
            "prices: aws-us-east-1\ntables:\n  orders:\n    item_size: 1 KB\n    capacity: {capacity}\n    patterns: {{}}\n"
        ),
    )
}

fn commands(v: &Value) -> Vec<String> {
    v["commands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_string())
        .collect()
}

fn dimension<'a>(doc: &'a Value, name: &str) -> &'a Value {
    doc["tables"][0]["dimensions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["dimension"] == name)
        .unwrap()
}

#[test]
fn a_table_provisioned_well_above_a_flat_curve_is_right_sized_against_todays_cost() {
    let dir = tempfile::tempdir().unwrap();
    let w = workload(dir.path(), "{ mode: provisioned, rcu: 1200, wcu: 450 }");
    // 14 days of 5-minute points (4,032): 50 RCU/s and 100 WCU/s consumed, 1,200 and 450
    // provisioned all along.
    let file = write_file(
        dir.path(),
        "m.json",
        &page(&[
            result(&label(R, 300), &points(4_032, 300, "15000")),
            result(&label(W, 300), &points(4_032, 300, "30000")),
            result(&label(PR, 300), &points(4_032, 300, "1200")),
            result(&label(PW, 300), &points(4_032, 300, "450")),
        ]),
    );
    let out = dir.path().join("measured.yaml").display().to_string();
    let doc = usage_json(
        std::slice::from_ref(&file),
        &["--workload", &w, "--measured-workload", &out],
    );
    let (reads, writes) = (dimension(&doc, "reads"), dimension(&doc, "writes"));
    // Today, measured: 1,200 RCU × 730 h × 0.00013 = $113.88 and 450 WCU × 730 × 0.00065 =
    // $213.525 a month ($327.405), utilization 50 ÷ 1,200 and 100 ÷ 450.
    assert_eq!(
        reads["today"]["setting"],
        json!({"mode": "fixed", "units": "1200"})
    );
    assert_eq!(reads["today"]["source"], "measured");
    assert_eq!(s(&reads["current"]["monthly"]), dec("113.88"));
    assert_eq!(s(&writes["current"]["monthly"]), dec("213.525"));
    // Auto scaling from the 1,200 measured: 50 ≤ 50 % × 1,200 for 3 points, so from point 3
    // it holds ⌈50 ÷ 0.7⌉ = 72: (3 × 1,200 + 4,029 × 72) × 300 ÷ 3,600 = 24,474 RCU-hours.
    assert_eq!(s(&reads["auto_scaling"]["unit_hours"]), dec("24474"));
    // Fixed with the same headroom, 72 RCU: 72 × 336 h = 24,192 RCU-hours, less than auto
    // scaling's (which starts high): right-size to 72 RCU, 72 × 730 × 0.00013 = $6.8328 a
    // month; writes likewise ⌈100 ÷ 0.7⌉ = 143 WCU, 143 × 730 × 0.00065 = $67.8535.
    assert_eq!(s(&reads["fixed"]["units"]), dec("72"));
    assert_eq!(s(&reads["fixed"]["cost"]["unit_hours"]), dec("24192"));
    assert_eq!(s(&writes["fixed"]["units"]), dec("143"));
    let v = &doc["tables"][0]["verdict"];
    assert_eq!(v["choice"], "provisioned");
    assert_eq!(v["today"], "provisioned");
    assert_eq!(s(&v["today_monthly"]), dec("327.405"));
    // The saving is against today, not against on demand: 327.405 − (6.8328 + 67.8535) =
    // $252.7187 a month, 77.19 % of today's cost.
    assert_eq!(s(&v["proposed_monthly"]), dec("74.6863"));
    assert_eq!(s(&v["saving_monthly"]), dec("252.7187"));
    assert_eq!(
        commands(v),
        [
            "aws dynamodb update-table --table-name orders --provisioned-throughput ReadCapacityUnits=72,WriteCapacityUnits=143"
        ]
    );
    let text = v["text"].as_str().unwrap();
    assert!(
        text.starts_with("change the provisioned capacity: saves 252.72 a month (77.2 % of today's 327.41); reads fixed at 72 RCU (today fixed at 1200 RCU); writes fixed at 143 WCU (today fixed at 450 WCU)"),
        "{text}"
    );
    assert!(!text.contains("switch to provisioned"), "{text}");
    // The measured workload's `measured-verdict` scenario sets the same capacity, and prices
    // as usage did: 74.6863 a month of capacity.
    let yaml = std::fs::read_to_string(&out).unwrap();
    assert!(yaml.contains("name: measured-verdict"), "{yaml}");
    let cmp = Case::new()
        .args(["compare", &out, "--format", "json"])
        .run()
        .success();
    let cmp: Value = serde_json::from_str(&cmp.stdout).unwrap();
    let scenario = &cmp["scenarios"][0];
    let line = |key: &str| {
        s(&scenario["line_items"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["key"] == key)
            .unwrap_or_else(|| panic!("no line {key}: {scenario}"))["cost"])
    };
    assert_eq!(line("orders/reads"), dec("6.8328"));
    assert_eq!(line("orders/writes"), dec("67.8535"));
}

#[test]
fn a_table_provisioned_below_a_growing_curve_moves_to_auto_scaling() {
    let dir = tempfile::tempdir().unwrap();
    let w = workload(dir.path(), "{ mode: provisioned, rcu: 5, wcu: 100 }");
    // Two weeks of 5-minute points: 50 WCU/s the first week, 150 the second; 100 WCU
    // provisioned all along. Reads are not measured.
    let file = write_file(
        dir.path(),
        "m.json",
        &page(&[
            result(
                &label(W, 300),
                &curve(4_032, 300, |t| {
                    if t < NOV_1 + 7 * 86_400 {
                        15_000
                    } else {
                        45_000
                    }
                }),
            ),
            result(&label(PW, 300), &points(4_032, 300, "100")),
        ]),
    );
    let doc = usage_json(std::slice::from_ref(&file), &["--workload", &w]);
    let writes = dimension(&doc, "writes");
    // Today: 100 WCU; the bank is full (300 × 100 = 30,000) when the second week starts at
    // 150: each point needs (150 − 100) × 300 = 15,000, so 2 points are served from burst
    // and the other 2,014 are at risk: 10,070 minutes. $47.45 a month (100 × 730 × 0.00065).
    assert_eq!(s(&writes["current"]["burst_minutes"]), dec("10"));
    assert_eq!(s(&writes["current"]["throttle_minutes"]), dec("10070"));
    assert_eq!(s(&writes["current"]["monthly"]), dec("47.45"));
    // Auto scaling at 70 % from the 100 measured: 50 ≤ 50 % × 100 for 3 points → ⌈50 ÷ 0.7⌉
    // = 72 from point 3; at point 2,016, 150 > 70 % × 72 → ⌈150 ÷ 0.7⌉ = 215 from point
    // 2,017. Point 2,016 needs (150 − 72) × 300 = 23,400 of a bank of 300 × 72 = 21,600: 5
    // minutes at risk. (3 × 100 + 2,014 × 72 + 2,015 × 215) × 300 ÷ 3,600 = 578,533 ÷ 12
    // WCU-hours.
    let auto_hours = dec("578533") * dec("300") / dec("3600");
    assert_eq!(s(&writes["auto_scaling"]["unit_hours"]), auto_hours);
    assert_eq!(s(&writes["auto_scaling"]["throttle_minutes"]), dec("5"));
    let auto_monthly = auto_hours * dec("0.00065") * dec("730") / dec("336");
    assert_eq!(s(&writes["auto_scaling"]["monthly"]), auto_monthly);
    // The weeks differ by (45,000 − 15,000) × 2,016 ÷ their mean (30,000 × 2,016) = 100 %:
    // not stable, so no fixed capacity is proposed; auto scaling's 5 minutes are within the
    // tolerance (0.1 % of 20,160 minutes = 20.16), on demand would cost 120,960,000 WRU ×
    // $0.625 / M × 730 ÷ 336 = $164.25. Today is at risk, so the cheapest option within the
    // tolerance is chosen even though it costs more than today: auto scaling.
    let v = &doc["tables"][0]["verdict"];
    assert_eq!(s(&v["weekly_variation"]), dec("1"));
    assert_eq!(v["stable"], false);
    assert_eq!(s(&v["on_demand_monthly"]), dec("164.25"));
    assert_eq!(v["choice"], "provisioned");
    assert_eq!(s(&v["proposed_monthly"]), auto_monthly);
    assert_eq!(s(&v["today_throttle_minutes"]), dec("10070"));
    assert_eq!(s(&v["throttle_minutes"]), dec("5"));
    let text = v["text"].as_str().unwrap();
    // 68.08… − 47.45 = 20.63 more a month.
    assert!(
        text.starts_with("change the provisioned capacity: costs 20.63 more a month than today's 47.45, and cuts the throttle risk from 10070 to 5 min; writes auto scaling at 70 % (1–40000 WCU) (today fixed at 100 WCU)"),
        "{text}"
    );
    // Auto scaling is registered on the table's writes; no update-table (auto scaling sets
    // the capacity itself), reads untouched.
    let cmds = commands(v);
    assert_eq!(cmds.len(), 2, "{cmds:?}");
    assert!(cmds[0].starts_with("aws application-autoscaling register-scalable-target --service-namespace dynamodb --resource-id table/orders --scalable-dimension dynamodb:table:WriteCapacityUnits --min-capacity 1 --max-capacity 40000"));
    assert!(cmds[1].starts_with("aws application-autoscaling put-scaling-policy"));
}

#[test]
fn a_two_minute_step_each_monday_is_absorbed_by_burst() {
    let dir = tempfile::tempdir().unwrap();
    // 14 days of minutes (20,160) from Sunday November 1st: 100 WCU/s, and 200 for the two
    // minutes 09:00–09:01 each Monday (November 2nd and 9th). An on-demand table.
    let monday_9 = |t: i64| {
        let day = (t - NOV_1) / 86_400;
        let minute = (t % 86_400) / 60;
        day % 7 == 1 && (540..542).contains(&minute)
    };
    let file = write_file(
        dir.path(),
        "m.json",
        &page(&[result(
            &label(W, 60),
            &curve(20_160, 60, |t| if monday_9(t) { 12_000 } else { 6_000 }),
        )]),
    );
    let doc = usage_json(std::slice::from_ref(&file), &[]);
    let writes = dimension(&doc, "writes");
    // Auto scaling holds ⌈100 ÷ 0.7⌉ = 143; its bank is full (300 × 143 = 42,900) when the
    // step comes; each minute of it needs (200 − 143) × 60 = 3,420: both served from burst,
    // none at risk. After 2 minutes above 70 % it rises to ⌈200 ÷ 0.7⌉ = 286 for the 15
    // minutes it takes to fall back: 143 × 20,160 + 2 × 15 × 143 = 2,887,170 WCU-minutes =
    // 48,119.5 WCU-hours.
    assert_eq!(s(&writes["auto_scaling"]["throttle_minutes"]), dec("0"));
    assert_eq!(s(&writes["auto_scaling"]["burst_minutes"]), dec("4"));
    assert_eq!(s(&writes["auto_scaling"]["unit_hours"]), dec("48119.5"));
    // Fixed with the same headroom: the curve ÷ 0.7 is 142.86 with steps of 285.71. At 143
    // the first Monday's bank holds only (143 − 142.857…) × 60 × 1,980 minutes ≈ 16,971 of
    // the 2 × (285.71 − 143) × 60 ≈ 17,126 needed; at 144 it is full: 144 WCU, 48,384
    // WCU-hours — more than auto scaling.
    assert_eq!(s(&writes["fixed"]["units"]), dec("144"));
    // The verdict stays with auto scaling (no move to fixed capacity at the peak of 200):
    // 48,119.5 × 0.00065 × 730 ÷ 336 a month against on demand's (100 × 1,209,600 + 4 × 100
    // × 60) = 120,984,000 WRU × 0.625 / M × 730 ÷ 336.
    let v = &doc["tables"][0]["verdict"];
    assert_eq!(v["choice"], "provisioned");
    assert_eq!(
        v["plans"][0]["setting"],
        json!({"mode": "auto-scaling", "target": "0.7", "min": "1", "max": "40000"})
    );
    assert_eq!(s(&v["plans"][0]["burst_minutes"]), dec("4"));
    assert_eq!(s(&v["throttle_minutes"]), dec("0"));
    assert_eq!(
        s(&v["on_demand_monthly"]),
        dec("120984000") / dec("1000000") * dec("0.625") * dec("730") / dec("336")
    );
    assert_eq!(
        s(&v["proposed_monthly"]),
        dec("48119.5") * dec("0.00065") * dec("730") / dec("336")
    );
    let text = v["text"].as_str().unwrap();
    assert!(text.contains("4 min served from burst"), "{text}");
}

#[test]
fn a_daily_batch_burst_cannot_absorb_stays_on_demand_with_the_risk_stated() {
    let dir = tempfile::tempdir().unwrap();
    // 14 days of minutes: 10 WCU/s, and 1,000 from 02:00 to 02:59 and from 14:00 to 14:59.
    let batch = |t: i64| matches!((t % 86_400) / 3_600, 2 | 14);
    let file = write_file(
        dir.path(),
        "m.json",
        &page(&[result(
            &label(W, 60),
            &curve(20_160, 60, |t| if batch(t) { 60_000 } else { 600 }),
        )]),
    );
    let doc = usage_json(std::slice::from_ref(&file), &[]);
    let writes = dimension(&doc, "writes");
    // Auto scaling holds ⌈10 ÷ 0.7⌉ = 15, its bank 300 × 15 = 4,500: the batch's first
    // minute needs (1,000 − 15) × 60 = 59,100, and the second minute finds the bank empty
    // (the capacity rises from the third): 2 minutes at risk a batch, 2 × 2 × 14 = 56.
    assert_eq!(s(&writes["auto_scaling"]["throttle_minutes"]), dec("56"));
    // Fixed with headroom must carry an hour at 1,000 ÷ 0.7 = 1,428.57…: the bank (300 s)
    // covers (1,428.57 − C) × 3,600 ≤ 300 × C from C = 1,318.68…, so 1,319 WCU: $625.8655 a
    // month (1,319 × 730 × 0.00065).
    assert_eq!(s(&writes["fixed"]["units"]), dec("1319"));
    assert_eq!(s(&writes["fixed"]["cost"]["monthly"]), dec("625.8655"));
    // On demand: a day is 22 h × 3,600 × 10 + 2 × 3,600 × 1,000 = 7,992,000 WRU, × 14 =
    // 111,888,000 × $0.625 / M = $69.93 for 336 h, × 730 ÷ 336 a month.
    let on_demand = dec("69.93") * dec("730") / dec("336");
    let v = &doc["tables"][0]["verdict"];
    assert_eq!(s(&v["on_demand_monthly"]), on_demand);
    // Auto scaling's 56 minutes are over the tolerance (20.16), fixed capacity costs more
    // than today: keep on demand, and say what auto scaling would have risked.
    assert_eq!(v["choice"], "keep");
    assert_eq!(s(&v["proposed_monthly"]), on_demand);
    assert_eq!(v["commands"], json!([]));
    let text = v["text"].as_str().unwrap();
    assert!(
        text.starts_with("keep on demand: provisioned (writes fixed at 1319 WCU"),
        "{text}"
    );
    assert!(
        text.contains("auto scaling at 70 % (1–40000 WCU) would cost"),
        "{text}"
    );
    assert!(
        text.contains("less with 56 min at risk of throttling"),
        "{text}"
    );
}

#[test]
fn a_gsi_never_read_is_named_with_what_deleting_it_saves_and_one_without_metrics_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    // 1 M items of 1 KB; two GSIs projecting all. by-status: its writes measured (100 WCU/s,
    // as the table's) and its reads asked for and answered with no point; by-date: no metric
    // fetched at all (table metrics first, the common case).
    let w = write_file(
        dir.path(),
        "w.yaml",
        "prices: aws-us-east-1\ntables:\n  orders:\n    item_size: 1 KB\n    items: 1M\n    capacity: { mode: on-demand }\n    indexes:\n      by-status: { type: gsi, projection: all }\n      by-date: { type: gsi, projection: all }\n    patterns: {}\n",
    );
    let writes = points(4_032, 300, "30000");
    let file = write_file(
        dir.path(),
        "m.json",
        &page(&[
            result(&label(W, 300), &writes),
            result(
                "ddbcost:orders:by-status:ConsumedWriteCapacityUnits:Sum:300",
                &writes,
            ),
            result(
                "ddbcost:orders:by-status:ConsumedReadCapacityUnits:Sum:300",
                &[],
            ),
        ]),
    );
    let out = dir.path().join("measured.yaml").display().to_string();
    let doc = usage_json(
        std::slice::from_ref(&file),
        &["--workload", &w, "--measured-workload", &out],
    );
    let t = &doc["tables"][0];
    assert_eq!(t["unread_gsis"], json!(["by-status"]));
    assert_eq!(t["unmeasured_gsis"], json!(["by-date"]));
    let f = &t["index_findings"][0];
    assert_eq!(f["change"], "delete");
    // Its writes as they cost today, on demand: 120,960,000 WRU × $0.625 / M × 730 ÷ 336 =
    // $164.25; no read capacity (on demand, nothing read); its storage: 1 M entries of 1,024
    // B + 100 B of index overhead = 1,124,000,000 B ÷ 2^30 GB × $0.25.
    assert_eq!(s(&f["writes_monthly"]), dec("164.25"));
    assert_eq!(s(&f["reads_monthly"]), dec("0"));
    let storage = dec("1124000000") / dec("1073741824") * dec("0.25");
    assert_eq!(s(&f["storage_monthly"]), storage);
    let lines: Vec<&str> = t["verdict"]["indexes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    // 164.25 + 0.2617 = 164.51 shown.
    assert!(lines[0].starts_with("GSI `by-status` was never read in the window (0 read units measured): deleting it saves 164.51 a month — its writes 164.25, its read capacity 0.00, its storage 0.26"), "{lines:?}");
    assert!(
        lines[1].starts_with("GSI `by-date` has no metric: it keeps the workload's own figures"),
        "{lines:?}"
    );
    // The measured workload writes the measured zero, and says by-date kept its figures.
    let yaml = std::fs::read_to_string(&out).unwrap();
    assert!(
        yaml.contains("read_units: 0   # measured: asked for, and no point came back"),
        "{yaml}"
    );
    assert!(
        yaml.contains("GSI `by-date`: no metrics measured; it keeps what the workload states"),
        "{yaml}"
    );
    // Without the workload, the saving is at least its writes.
    let bare = usage_json(std::slice::from_ref(&file), &[]);
    assert!(
        bare["tables"][0]["verdict"]["indexes"][0]
            .as_str()
            .unwrap()
            .contains("deleting it saves at least its writes, 164.25 a month")
    );
}

/// The README's example (`workloads/samples/orders-live.yaml` and its metrics), derived.
#[test]
fn the_readme_example_is_derived() {
    let root = common::root();
    let metrics = root.join("workloads/samples/orders-metrics.json.gz");
    let w = root.join("workloads/samples/orders-live.yaml");
    let doc = usage_json(
        &[metrics.display().to_string()],
        &["--workload", w.to_str().unwrap()],
    );
    let t = &doc["tables"][0];
    let v = &t["verdict"];
    // Today, measured (the table) and stated (the index): 1,200 RCU × 730 × $0.00013 =
    // $113.88, 450 WCU × 730 × $0.00065 = $213.525 twice: $540.93.
    assert_eq!(s(&v["today_monthly"]), dec("540.93"));
    let dim = |index: Option<&str>, name: &str| {
        t["dimensions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["dimension"] == name && d["index"].as_str() == index)
            .unwrap()
            .clone()
    };
    // Reads: 300 RCU/s on weekdays 09:00–17:59, 100 otherwise. Fixed with the target's
    // headroom must hold 300 ÷ 0.7 = 428.57 for 9 hours (32,400 s) with a bank of 300 s:
    // (428.57 − C) × 32,400 ≤ 300 C from C = 424.64…: 425 RCU, × 730 × $0.00013 = $40.3325.
    let reads = dim(None, "reads");
    assert_eq!(s(&reads["fixed"]["units"]), dec("425"));
    assert_eq!(s(&reads["fixed"]["cost"]["monthly"]), dec("40.3325"));
    // Auto scaling holds ⌈100 ÷ 0.7⌉ = 143 at night; at 09:00 the first point needs (300 −
    // 143) × 300 = 47,100 of a 42,900 bank: 5 minutes at risk each weekday, 50 in all.
    assert_eq!(s(&reads["auto_scaling"]["throttle_minutes"]), dec("50"));
    // Writes: 200 WCU/s by day, 80 by night. Auto scaling holds ⌈80 ÷ 0.7⌉ = 115; the 09:00
    // point needs (200 − 115) × 300 = 25,500 of a 34,500 bank (burst), then ⌈200 ÷ 0.7⌉ =
    // 286 from 09:05 to 18:14 (110 points; it falls after three points ≤ 50 %), on 10
    // weekdays; the table's starts at the measured 450 for its first 3 points. Points ×
    // WCU: 4,032 × 115 + 10 × 110 × (286 − 115) + 3 × (450 − 115) = 652,785; × 300 ÷ 3,600 =
    // 54,398.75 WCU-hours for 336 h. The index starts at 115: 651,780 → 54,315.
    let writes = dim(None, "writes");
    assert_eq!(s(&writes["auto_scaling"]["unit_hours"]), dec("54398.75"));
    assert_eq!(s(&writes["auto_scaling"]["burst_minutes"]), dec("50"));
    assert_eq!(s(&writes["auto_scaling"]["throttle_minutes"]), dec("0"));
    let gsi = dim(Some("by-status"), "writes");
    assert_eq!(s(&gsi["auto_scaling"]["unit_hours"]), dec("54315"));
    // Proposed: 40.3325 + (54,398.75 + 54,315) × $0.00065 × 730 ÷ 336 a month; the saving is
    // today's $540.93 less that: $347.07 shown.
    let monthly = |units: &str| dec(units) * dec("0.00065") * dec("730") / dec("336");
    let proposed = dec("40.3325") + monthly("54398.75") + monthly("54315");
    assert_eq!(s(&v["proposed_monthly"]), proposed);
    assert_eq!(s(&v["saving_monthly"]), dec("540.93") - proposed);
    assert_eq!((dec("540.93") - proposed).round_dp(2), dec("347.07"));
    // The index is never read: deleting it saves its writes as they cost today ($213.525)
    // and its storage, 20 M entries of 1,024 + 100 B = 22,480,000,000 B ÷ 2^30 × $0.25.
    let f = &t["index_findings"][0];
    assert_eq!(s(&f["writes_monthly"]), dec("213.525"));
    assert_eq!(
        s(&f["storage_monthly"]),
        dec("22480000000") / dec("1073741824") * dec("0.25")
    );
}

#[test]
fn a_gsi_read_only_through_keys_is_shown_with_what_keys_only_saves() {
    let dir = tempfile::tempdir().unwrap();
    // Items of 2 KB; the status index projects ALL, and its one query reads only its key.
    let w = write_file(
        dir.path(),
        "w.yaml",
        "prices: aws-us-east-1\ntables:\n  orders:\n    item_size: 2 KB\n    key_size: 20 B\n    key: { partition: pk }\n    attribute_sizes: { status: 12 B, total: 8 B }\n    indexes:\n      by-status: { type: gsi, projection: all, key_size: 10 B, key: { partition: status } }\n    patterns:\n      create: { op: put, rate: 10/s }\n      panel: { op: query, index: by-status, rate: 1/s, items: 10, reads_attributes: [status] }\n",
    );
    // Two weeks of 5-minute points: the table and the index each write 20 WCU/s (6,000 a
    // point: 2 KB entries), the index is read at 5 RCU/s (1,500 a point).
    let file = write_file(
        dir.path(),
        "m.json",
        &page(&[
            result(&label(W, 300), &points(4_032, 300, "6000")),
            result(
                "ddbcost:orders:by-status:ConsumedWriteCapacityUnits:Sum:300",
                &points(4_032, 300, "6000"),
            ),
            result(
                "ddbcost:orders:by-status:ConsumedReadCapacityUnits:Sum:300",
                &points(4_032, 300, "1500"),
            ),
        ]),
    );
    let doc = usage_json(std::slice::from_ref(&file), &["--workload", &w]);
    let f = &doc["tables"][0]["index_findings"][0];
    assert_eq!(f["change"], "projection");
    assert_eq!(
        f["what"],
        "Project KEYS_ONLY in index `by-status` of `orders`"
    );
    // The patterns derive, per put, a 2 KB entry (2 WRU) under ALL and a keys-only one (1
    // WRU): writes × ½; the query of 10 entries, 20 KB (5 RRU × ½ eventual = 2.5) under ALL,
    // 10 small entries (1 × ½ = 0.5) keys-only: reads × ⅕. On the measured counts, a month
    // of 730 h: writes 20 × 1,209,600 × ½ = 12,096,000 WRU fewer × $0.625 / M × 730 ÷ 336 =
    // $16.425; reads 5 × 1,209,600 × ⅘ = 4,838,400 RRU fewer × $0.125 / M × 730 ÷ 336 =
    // $1.314. Together $17.739.
    assert_eq!(s(&f["saving_monthly"]), dec("17.739"));
}
