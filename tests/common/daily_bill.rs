//! A generated CUR 2.0 export at daily granularity: 60 days (2026-09-01 to 2026-10-30) of
//! four tables' meters, with — when `changes` — five changes injected on known days (a
//! replica added, writes doubled, a query turned scan, a reservation, a one-day batch job):
//! what `ddbcost anomalies` is tested on (`tests/anomalies.rs`), and the bundled sample
//! `workloads/samples/anomalies/` (`DDBCOST_REGENERATE=1 cargo test --test anomalies`).
#![allow(dead_code)] // each test binary uses its own part

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
        // A tax line: left out.
        out.push_str(&format!(
            "Tax,2026-09-01T00:00:00Z,AmazonDynamoDB,,,0,USD,{}\n",
            if day == 20 { "99" } else { "0.3" }
        ));
    }
    out
}
