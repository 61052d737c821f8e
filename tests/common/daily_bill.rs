//! A generated CUR 2.0 export at daily granularity: 60 days (2026-09-01 to 2026-10-30) of
//! five tables' meters, with — when `changes` — seven changes injected on known days (a
//! replica added, a GSI added to a table with data, TTL deletions stopped, items grown past
//! 1 KB, a query turned scan, a reservation, a one-day batch job); and the tables'
//! CloudWatch metrics over the same days (`metrics`, the CSV of metrics, a point a day):
//! what `ddbcost anomalies` is tested on (`tests/anomalies.rs`), and the bundled sample
//! `workloads/samples/anomalies/` (`DDBCOST_REGENERATE=1 cargo test --test anomalies`).
#![allow(dead_code)] // each test binary uses its own part

use rust_decimal::Decimal;

pub const HEADER: &str = "line_item_line_item_type,line_item_usage_start_date,line_item_product_code,line_item_usage_type,line_item_resource_id,line_item_usage_amount,line_item_currency_code,line_item_unblended_cost\n";

/// One day's row.
fn row(day: u32, table: &str, usage_type: &str, amount: &str, cost: &str) -> String {
    // 2026-09-01 + day (September has 30 days).
    let (month, dom) = if day < 30 {
        (9, day + 1)
    } else {
        (10, day - 29)
    };
    format!(
        "Usage,2026-{month:02}-{dom:02}T00:00:00Z,AmazonDynamoDB,{usage_type},arn:aws:dynamodb:us-east-1:1:table/{table},{amount},USD,{cost}\n"
    )
}

/// 60 days; `changes` injects the five changes.
pub fn bill(changes: bool) -> String {
    let mut out = HEADER.to_string();
    for day in 0..60 {
        // orders: 8M reads a day ($1.00), 1.6M writes ($1.00); from day 30 items past 1 KB
        // write 2 units each: 3.2M ($2.00). Day 50, one day of 5× reads (a batch job).
        let reads = if changes && day == 50 {
            ("40000000", "5")
        } else {
            ("8000000", "1")
        };
        out.push_str(&row(day, "orders", "ReadRequestUnits", reads.0, reads.1));
        let writes = if changes && day >= 30 {
            ("3200000", "2")
        } else {
            ("1600000", "1")
        };
        out.push_str(&row(day, "orders", "WriteRequestUnits", writes.0, writes.1));
        // From day 15, a replica in us-east-2: 2M replicated writes a day ($1.25).
        if changes && day >= 15 {
            out.push_str(&row(
                day,
                "orders",
                "USE2-ReplWriteRequestUnits",
                "2000000",
                "1.25",
            ));
        }
        // catalog: 16M reads a day ($2.00); from day 40 a query turned scan, 20×: 320M ($40).
        let scan = if changes && day >= 40 {
            ("320000000", "40")
        } else {
            ("16000000", "2")
        };
        out.push_str(&row(day, "catalog", "ReadRequestUnits", scan.0, scan.1));
        // events: 10,000 RCU all day, 240,000 RCU-hours × $0.00013 = $31.20; from day 45 a
        // reservation covers them at $0.00005: $12.00 a day for the same hours.
        let rcu = if changes && day >= 45 { "12" } else { "31.2" };
        out.push_str(&row(day, "events", "ReadCapacityUnit-Hrs", "240000", rcu));
        // users: 1.6M writes a day ($1.00); from day 20 a GSI that every item carries: its
        // 1.6M writes a day more ($1.00), and on day 20 its backfill of 4M items, a write
        // unit each ($2.50): $4.50 that day, $2.00 a day after.
        let users = match day {
            20 if changes => ("7200000", "4.5"),
            21.. if changes => ("3200000", "2"),
            _ => ("1600000", "1"),
        };
        out.push_str(&row(day, "users", "WriteRequestUnits", users.0, users.1));
        // sessions: 2M writes a day ($1.25), and 100 GB kept (its TTL deletes as much a
        // day as is written); from day 25 TTL deletions stop and 10 GB a day stay.
        out.push_str(&row(
            day,
            "sessions",
            "WriteRequestUnits",
            "2000000",
            "1.25",
        ));
        let (gb_months, cost) = sessions_storage(if changes { day } else { 0 });
        out.push_str(&row(
            day,
            "sessions",
            "TimedStorage-ByteHrs",
            &gb_months.to_string(),
            &cost.to_string(),
        ));
        // A tax line: left out.
        out.push_str(&format!(
            "Tax,2026-09-01T00:00:00Z,AmazonDynamoDB,,,0,USD,{}\n",
            if day == 20 { "99" } else { "0.3" }
        ));
    }
    out
}

/// sessions' storage on `day`: 100 GB, and from day 25 10 GB more a day (day 25: 110 GB).
/// A day of G GB is G × 24 ÷ 730 GB-months at $0.25 each; both to 10 places, as a CUR
/// carries them.
pub fn sessions_storage(day: u32) -> (Decimal, Decimal) {
    let gb = Decimal::from(100 + 10 * day.saturating_sub(24));
    let gb_months = gb * Decimal::from(24) / Decimal::from(730);
    (
        gb_months.round_dp(10),
        (gb_months * Decimal::new(25, 2)).round_dp(10),
    )
}

pub const METRICS_HEADER: &str = "timestamp,table,index,metric,statistic,value,dimension\n";

/// One series, a point a day on the days `value` gives one.
fn series(
    out: &mut String,
    at: (&str, &str),
    metric: &str,
    dim: &str,
    value: impl Fn(u32) -> Option<u64>,
) {
    let statistic = match metric {
        "SuccessfulRequestLatency" => "SampleCount",
        "ReplicationLatency" => "Average",
        _ => "Sum",
    };
    for day in 0..60 {
        let Some(v) = value(day) else { continue };
        let (month, dom) = if day < 30 {
            (9, day + 1)
        } else {
            (10, day - 29)
        };
        out.push_str(&format!(
            "2026-{month:02}-{dom:02}T00:00:00Z,{},{},{metric},{statistic},{v},{dim}\n",
            at.0, at.1
        ));
    }
}

/// The tables' CloudWatch metrics, a point a day, series by series; `changes` as `bill`.
pub fn metrics(changes: bool) -> String {
    let mut out = METRICS_HEADER.to_string();
    let o = &mut out;
    // From day `d` (with the changes) `after`, else `before`.
    let from = |d: u32, before: u64, after: u64| {
        move |day: u32| Some(if changes && day >= d { after } else { before })
    };
    let always = |v: u64| move |_: u32| Some(v);
    // orders: 8M strong GetItem a day of 1 KB items, a read unit each (day 50: 40M, a
    // batch job); 1.6M PutItem a day, a write unit each until day 30, then 2 (items past
    // 1 KB); from day 15 its replica's lag to us-east-2 measured.
    let gets = |day: u32| {
        Some(if changes && day == 50 {
            40_000_000
        } else {
            8_000_000
        })
    };
    let t = ("orders", "");
    series(o, t, "ConsumedReadCapacityUnits", "", gets);
    series(o, t, "SuccessfulRequestLatency", "Operation=GetItem", gets);
    series(
        o,
        t,
        "ConsumedWriteCapacityUnits",
        "",
        from(30, 1_600_000, 3_200_000),
    );
    series(
        o,
        t,
        "SuccessfulRequestLatency",
        "Operation=PutItem",
        always(1_600_000),
    );
    let lag = |day: u32| (changes && day >= 15).then_some(850);
    series(o, t, "ReplicationLatency", "ReceivingRegion=us-east-2", lag);
    // catalog: 32M eventually consistent queries a day, one 1 KB item each (16M read
    // units); from day 40 a scan instead: 160,000 a day, 1,000 items and 2,000 units each.
    let t = ("catalog", "");
    series(
        o,
        t,
        "ConsumedReadCapacityUnits",
        "",
        from(40, 16_000_000, 320_000_000),
    );
    series(
        o,
        t,
        "SuccessfulRequestLatency",
        "Operation=Query",
        from(40, 32_000_000, 0),
    );
    series(
        o,
        t,
        "ReturnedItemCount",
        "Operation=Query",
        from(40, 32_000_000, 0),
    );
    series(
        o,
        t,
        "SuccessfulRequestLatency",
        "Operation=Scan",
        from(40, 0, 160_000),
    );
    series(
        o,
        t,
        "ReturnedItemCount",
        "Operation=Scan",
        from(40, 0, 160_000_000),
    );
    // events: provisioned, 5M read units consumed a day, 5M GetItem.
    let t = ("events", "");
    series(o, t, "ConsumedReadCapacityUnits", "", always(5_000_000));
    series(
        o,
        t,
        "SuccessfulRequestLatency",
        "Operation=GetItem",
        always(5_000_000),
    );
    users_and_sessions(o, changes);
    out
}

/// users' GSI and sessions' TTL, as `metrics`.
fn users_and_sessions(o: &mut String, changes: bool) {
    let from = |d: u32, before: u64, after: u64| {
        move |day: u32| Some(if changes && day >= d { after } else { before })
    };
    let always = |v: u64| move |_: u32| Some(v);
    // users: 1.6M PutItem a day; from day 20 GSI by-email's 1.6M write units a day, and its
    // backfill's 4M on day 20 (0 the day after).
    let t = ("users", "");
    series(o, t, "ConsumedWriteCapacityUnits", "", always(1_600_000));
    series(
        o,
        t,
        "SuccessfulRequestLatency",
        "Operation=PutItem",
        always(1_600_000),
    );
    let gsi = |day: u32| (changes && day >= 20).then_some(1_600_000);
    series(
        o,
        ("users", "by-email"),
        "ConsumedWriteCapacityUnits",
        "",
        gsi,
    );
    let backfill = |day: u32| match day {
        20 if changes => Some(4_000_000),
        21 if changes => Some(0),
        _ => None,
    };
    series(
        o,
        ("users", "by-email"),
        "OnlineIndexConsumedWriteCapacity",
        "",
        backfill,
    );
    // sessions: 2M PutItem a day; 2M TTL deletions a day until day 25, none after.
    let t = ("sessions", "");
    series(o, t, "ConsumedWriteCapacityUnits", "", always(2_000_000));
    series(
        o,
        t,
        "SuccessfulRequestLatency",
        "Operation=PutItem",
        always(2_000_000),
    );
    series(
        o,
        t,
        "TimeToLiveDeletedItemCount",
        "",
        from(25, 2_000_000, 0),
    );
}
