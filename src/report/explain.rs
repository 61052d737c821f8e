//! `ddbcost explain`: for each line item, the DynamoDB rule that produced it in words, its
//! arithmetic (quantity × unit price = cost, exact, then the rounded figure and how it was
//! rounded), the price table and entry the unit price comes from, and each access pattern's
//! share: its units, its requests a month and the units each request takes (units ÷
//! requests), beside what the pattern states (operation, rate, item size, consistency).

use rust_decimal::Decimal;
use serde_json::{Value, json};

use crate::engine::{Component, Estimate, LineItem};
use crate::model::{AccessPattern, Consistency, Workload};
use crate::report::money;

/// The rule behind a component, in words; `provisioned` for lines in capacity-hours.
fn rule(component: Component, provisioned: bool) -> &'static str {
    match (component, provisioned) {
        (Component::Reads, false) => {
            "On demand, DynamoDB bills reads in read request units (RRU): a strongly consistent read of an item takes its size rounded up to the next 4 KB, one unit per 4 KB; an eventually consistent read half of that; a transactional read twice. A query or scan reads the summed size of the items it returns or evaluates, rounded up to 4 KB once per request; a batch get rounds each item. A read on an index is sized by the index entry (keys and projected attributes)."
        }
        (Component::Reads, true) => {
            "Provisioned, DynamoDB bills the read capacity units (RCU) held each hour: one RCU serves one strongly consistent read of up to 4 KB a second (two eventually consistent, half a transactional one). The units are those provisioned — as stated, or, under auto scaling, what the patterns need hour by hour (their rate at that hour's traffic, sized as for request units) above the target utilization — billed for every hour they are held."
        }
        (Component::Writes, false) => {
            "On demand, DynamoDB bills writes in write request units (WRU): a write takes the item's size (the larger of before and after) rounded up to the next 1 KB, one unit per KB; a transactional write twice; a batch write rounds each item."
        }
        (Component::Writes, true) => {
            "Provisioned, DynamoDB bills the write capacity units (WCU) held each hour: one WCU serves one write of up to 1 KB a second (half a transactional one). The units are those provisioned — as stated, or, under auto scaling, what the patterns need hour by hour above the target utilization — billed for every hour they are held."
        }
        (Component::IndexWrites, _) => {
            "Every write to the table is also written into each global secondary index that holds the item, sized by the index entry (its keys and projected attributes) rounded up to 1 KB: a put that adds an entry writes once, an update that changes the index key twice (the old entry deleted, the new one put), an update that touches nothing the index projects not at all. Transactions do not double index writes."
        }
        (Component::Storage, _) => {
            "Storage is billed per GB-month: each item's size plus 100 bytes of overhead, over the month (GB = 2^30 bytes unless settings.gb is decimal)."
        }
        (Component::IndexStorage, _) => {
            "Each index stores its entries (keys, projected attributes and 100 bytes of overhead per entry), billed per GB-month like the table's storage."
        }
        (Component::Pitr, _) => {
            "Point-in-time recovery (continuous backups) is billed per GB-month of the table's size, indexes included."
        }
        (Component::Backups, _) => "On-demand backups are billed per GB-month of backup stored.",
        (Component::Restores, _) => "A restore is billed per GB restored.",
        (Component::Exports, _) => "An export to S3 is billed per GB of table data exported.",
        (Component::Imports, _) => {
            "An import from S3 is billed per GB of uncompressed source data; it consumes no write units."
        }
        (Component::StreamReads, _) => {
            "DynamoDB Streams bills GetRecords calls in stream read request units (one per call, returning up to 1 MB); reads by AWS Lambda triggers and by global tables are free."
        }
        (Component::KinesisCdc, _) => {
            "Change data capture to Kinesis Data Streams is billed per change data capture unit: each item written (or deleted by TTL) takes its size rounded up to 1 KB."
        }
        (Component::TtlDeletes, _) => {
            "Deletes by TTL are free; the line shows them because streams and replicas still carry them."
        }
        (Component::ReservedUpfront, _) => {
            "Reserved capacity's upfront fee, per 100 units, spread evenly over the months of its term."
        }
        (Component::ReservedCapacity, _) => {
            "Reserved capacity's hourly fee, per 100 units, every hour of the term; the reserved units are then not billed at the provisioned price."
        }
        (Component::SavingsPlan, _) => {
            "A Database Savings Plan: the hourly commitment is billed, and the usage it covers is credited at the plan's discounted rates."
        }
        (Component::ReplicatedWrites, _) => {
            "Every write to a global table is billed as a replicated write in every region that holds a replica, the one it was written in included: replicated write request units on demand, replicated WCU-hours provisioned, at each region's price (its GSIs' writes are ordinary WRU/WCU); reserved capacity never covers replicated WCU (AWS Prescriptive Guidance, global tables FAQ; Developer Guide, global-tables-billing)."
        }
        (Component::ReplicaIndexWrites, _) => {
            "Each replica's global secondary indexes are written too, as in the source region."
        }
        (Component::ReplicaStorage, _) => {
            "Each replica stores the whole table, billed per GB-month at its region's storage price."
        }
        (Component::ReplicaReads, _) => {
            "Reads served by a replica are billed in the replica's region, by the same rules as the table's reads."
        }
        (Component::Transfer, _) => {
            "Data transfer: replication to each other region per GB at the inter-region price, and transfer out to the internet per GB by tier (the first tier on the table's line, the discounts of higher tiers on the account's)."
        }
        (Component::Dax, _) => {
            "A DynamoDB Accelerator (DAX) cluster is billed per node-hour by node type; the eventually consistent reads its cache serves do not reach DynamoDB (strong reads and writes pass through)."
        }
        (Component::ContributorInsights, _) => {
            "CloudWatch Contributor Insights for DynamoDB bills each rule for the month (2 on a table or GSI: most accessed and most throttled partition keys; 2 more with a sort key) and each million events its rules match: every request for the most-accessed rules, only throttled ones for the others (CloudWatch's prices, in the price table's `cloudwatch` section)."
        }
        (Component::FreeTier, _) => {
            "The AWS free tier, subtracted because the run asked for it (--free-tier)."
        }
    }
}

/// The explanation of `estimate`'s lines (only `only`, if given) as JSON.
pub(crate) fn json(estimate: &Estimate, workload: &Workload, only: Option<&str>) -> Value {
    let lines: Vec<Value> = estimate
        .line_items
        .iter()
        .filter(|l| only.is_none_or(|k| l.key == k))
        .map(|l| line(estimate, workload, l))
        .collect();
    json!({
        "schema": "ddbcost.explain/v1",
        "workload": estimate.workload,
        "currency": estimate.currency,
        "rounding": money::policy(&estimate.currency),
        "month_hours": estimate.settings.month_hours,
        "lines": lines,
    })
}

fn line(e: &Estimate, workload: &Workload, l: &LineItem) -> Value {
    let table = e.price_table_in(&l.region);
    let provisioned = l.unit.contains("CU-h");
    let arithmetic = match (l.quantity, l.cost, &l.price_missing_from) {
        (_, _, Some(missing)) => format!("depends on usage; price not in table {missing}"),
        (Some(q), Some(c), None) => format!(
            "{} {} × {} {} per {} = {} {} (shown {}, {})",
            q.normalize(),
            l.unit,
            l.unit_price.normalize(),
            e.currency,
            l.unit,
            c.normalize(),
            e.currency,
            money::display(c, &e.currency),
            money::policy(&e.currency),
        ),
        _ => format!(
            "depends on usage the workload does not state; {} {} per {}",
            l.unit_price.normalize(),
            e.currency,
            l.unit
        ),
    };
    let patterns: Vec<Value> = l
        .attribution
        .iter()
        .map(|a| pattern_share(e, workload, l, &a.pattern, a.cost))
        .collect();
    json!({
        "key": l.key,
        "table": &*l.table,
        "component": l.component.name(),
        "label": l.label.to_string(),
        "region": &*l.region,
        "rule": rule(l.component, provisioned),
        "quantity": l.quantity,
        "unit": l.unit,
        "unit_price": l.unit_price,
        "price_key": l.price_key,
        "price_table": { "id": table.id, "source": table.source, "effective": table.effective },
        "cost": l.cost.map(|c| c.normalize()),
        "cost_rounded": l.cost.map(|c| money::round(c, &e.currency)),
        "arithmetic": arithmetic,
        "patterns": patterns,
    })
}

/// One pattern's part of a line: its cost, its units (cost ÷ unit price), and for request
/// units its requests a month and units per request.
fn pattern_share(e: &Estimate, w: &Workload, l: &LineItem, name: &str, cost: Decimal) -> Value {
    let units = (!l.unit_price.is_zero())
        .then(|| cost.checked_div(l.unit_price))
        .flatten()
        .map(|u| {
            if l.unit.starts_with("M ") {
                u.checked_mul(Decimal::from(1_000_000)).unwrap_or(u)
            } else {
                u
            }
        });
    let pattern = w
        .tables
        .iter()
        .find(|t| *t.name == *l.table)
        .and_then(|t| t.patterns.iter().find(|p| &*p.name == name));
    let requests = pattern.and_then(|p| p.rate.monthly(e.settings.month_hours));
    let per_request = match (units, requests, l.unit.starts_with("M ")) {
        (Some(u), Some(r), true) if !r.is_zero() => u.checked_div(r).map(|d| d.normalize()),
        _ => None,
    };
    let mut out = json!({
        "pattern": name,
        "cost": cost.normalize(),
        "units": units.map(|d| d.normalize()),
        "unit": l.unit.trim_start_matches("M "),
        "requests_per_month": requests.map(|d| d.normalize()),
        "units_per_request": per_request,
    });
    if let Some(p) = pattern {
        out["states"] = states(p);
    }
    out
}

/// What a pattern states that decides its units.
fn states(p: &AccessPattern) -> Value {
    let consistency = match p.consistency {
        Consistency::Strong => "strong".to_string(),
        Consistency::Eventual => "eventual".to_string(),
        Consistency::Mixed { eventual_share } => format!(
            "{}% eventual",
            eventual_share
                .checked_mul(Decimal::ONE_HUNDRED)
                .unwrap_or(eventual_share)
                .normalize()
        ),
    };
    json!({
        "op": p.operation.name(),
        "item_size_bytes": p.item_size_bytes.map(|d| d.normalize()),
        "items_per_request": p.items_per_op.normalize(),
        "consistency": p.operation.is_read().then_some(consistency),
        "index": p.index,
    })
}

/// The explanation as text, one block per line.
pub(crate) fn text(doc: &Value) -> String {
    let mut out = String::new();
    for l in doc["lines"].as_array().into_iter().flatten() {
        out.push_str(&format!("{}  {}\n", s(&l["key"]), s(&l["label"])));
        out.push_str(&format!("  rule: {}\n", s(&l["rule"])));
        out.push_str(&format!("  cost: {}\n", s(&l["arithmetic"])));
        out.push_str(&format!(
            "  price: {} of table {} ({}, effective {})\n",
            s(&l["price_key"]),
            s(&l["price_table"]["id"]),
            s(&l["price_table"]["source"]),
            s(&l["price_table"]["effective"])
        ));
        for p in l["patterns"].as_array().into_iter().flatten() {
            let mut part = format!(
                "  - {}: {} {}",
                s(&p["pattern"]),
                s(&p["cost"]),
                s(&doc["currency"])
            );
            if !p["units"].is_null() {
                part.push_str(&format!(", {} {}", s(&p["units"]), s(&p["unit"])));
            }
            if !p["units_per_request"].is_null() {
                part.push_str(&format!(
                    " = {} requests a month × {} {} each",
                    s(&p["requests_per_month"]),
                    s(&p["units_per_request"]),
                    s(&p["unit"])
                ));
            }
            if let Some(st) = p.get("states") {
                let consistency = st["consistency"]
                    .as_str()
                    .map(|c| format!(", {c} consistency"))
                    .unwrap_or_default();
                part.push_str(&format!(
                    " ({}{consistency}, {} item(s) per request{})",
                    s(&st["op"]),
                    s(&st["items_per_request"]),
                    st["item_size_bytes"]
                        .as_str()
                        .map(|b| format!(", {b} B per item"))
                        .unwrap_or_default()
                ));
            }
            out.push_str(&part);
            out.push('\n');
        }
        out.push('\n');
    }
    out
}

fn s(v: &Value) -> String {
    match v {
        Value::String(t) => t.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}
