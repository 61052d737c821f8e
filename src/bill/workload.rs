//! A workload built from a bill, for `estimate`, `compare` and `advise`: per table, in the
//! region it was billed the most, its capacity mode (provisioned where capacity unit-hours were
//! billed: the whole units ⌈unit-hours ÷ the period's hours⌉, the exact average commented),
//! its class (Standard-IA where its meters are `IA-`), and what it used as `observed` for a
//! month of the period's own hours (`settings.month_hours`): request units, storage and
//! PITR in GB (the bill's GB-months), stream read requests. What a workload cannot state
//! (backups, restores, replicas' regions, commitments…) is listed in the header with its cost.

use std::collections::BTreeMap;

use rust_decimal::Decimal;
use serde_json::{Value, json};

use super::ledger::{Ledger, Sums};
use super::map::{Owner, Place};
use crate::engine::Component;
use crate::load::yaml::write::{Comments, SEP, to_yaml};

fn text(d: Decimal) -> Value {
    json!(d.normalize().to_string())
}

/// The YAML of the workload built from `ledger`.
#[must_use]
pub(crate) fn yaml(ledger: &Ledger) -> String {
    let period = ledger.period.clone().unwrap_or_default();
    let hours = crate::model::period::Period::parse(&period)
        .map_or(Decimal::from(730), crate::model::period::Period::hours);
    let cur = ledger.currency.clone().unwrap_or_else(|| "USD".to_string());
    let mut header = vec![
        format!(
            "Built by `ddbcost bill` from the {period} bill ({} h): `observed` is what each table used in it, for a month of those hours.",
            hours.normalize()
        ),
        "A GSI's throughput is billed on its table: the reads and writes below include its indexes'.".to_string(),
    ];
    let mut comments = Comments::new();
    let mut tables = serde_json::Map::new();
    let mut regions: BTreeMap<&str, Decimal> = BTreeMap::new();
    // Each table's rows, found in one pass (not a pass over every row per table).
    let mut by_table: BTreeMap<&str, Vec<(&Place, &Sums)>> = BTreeMap::new();
    for (p, s) in &ledger.places {
        if let Owner::Table(name) = &p.owner {
            by_table.entry(name.as_str()).or_default().push((p, s));
        }
    }
    for (name, places) in &by_table {
        if let Some((region, total, t)) =
            table(name, places, (&cur, hours), &mut header, &mut comments)
        {
            let r = regions.entry(region).or_default();
            *r = r.checked_add(total).unwrap_or(*r);
            tables.insert(name.to_string(), t);
        }
    }
    for (p, s) in ledger
        .places
        .iter()
        .filter(|(p, _)| p.owner == Owner::Account)
    {
        header.push(format!(
            "account: {} {} in {} ({} {}) is not in the workload",
            p.component.name(),
            p.meter,
            p.region,
            s.unblended.normalize(),
            cur
        ));
    }
    let mut doc = json!({ "settings": { "month_hours": text(hours) }, "tables": tables });
    // The price table of the region billed the most; the others are found beside it (same
    // currency) for the tables there.
    if let Some((r, _)) = regions.iter().max_by_key(|(_, c)| **c) {
        doc["prices"] = json!(format!("aws-{r}"));
    }
    to_yaml(&doc, &comments, &header)
}

/// One table's entry, in the region it was billed the most: (that region, its total, the
/// entry); what it cannot state goes to `header`.
fn table<'l>(
    name: &str,
    places: &[(&'l Place, &'l Sums)],
    (cur, hours): (&str, Decimal),
    header: &mut Vec<String>,
    comments: &mut Comments,
) -> Option<(&'l str, Decimal, Value)> {
    // The region billed the most is the table's; the others are said.
    let mut by_region: BTreeMap<&str, Decimal> = BTreeMap::new();
    for (p, s) in places {
        let r = by_region.entry(p.region.as_str()).or_default();
        *r = r.checked_add(s.unblended).unwrap_or(*r);
    }
    let (&region, _) = by_region.iter().max_by_key(|(_, c)| **c)?;
    let total: Decimal = by_region.values().copied().sum();
    let mut t = serde_json::Map::new();
    let mut observed = serde_json::Map::new();
    let mut rcu = None;
    let mut wcu = None;
    let mut ia = false;
    let path = |keys: &[&str]| {
        let mut k = vec!["tables", name];
        k.extend(keys);
        k.join(SEP)
    };
    let replicas = replica_regions(places, region);
    for &(p, s) in places {
        if p.region != region {
            let why = if replicas.contains(p.region.as_str()) {
                "is its replica's, which the workload prices from its writes".to_string()
            } else {
                format!("is not in the workload (its region is {region})")
            };
            header.push(format!(
                "table `{name}`: {} {} in {} ({} {}) {why}",
                p.component.name(),
                p.meter,
                p.region,
                s.unblended.normalize(),
                cur
            ));
            continue;
        }
        ia |= p.meter.starts_with("IA-");
        let meter = p.meter.trim_start_matches("IA-");
        match (p.component, meter) {
            (Component::Reads, "ReadRequestUnits") => {
                observed.insert("read_units".into(), text(s.amount));
            }
            (Component::Writes, "WriteRequestUnits")
            | (Component::ReplicatedWrites, "ReplWriteRequestUnits") => {
                let before = observed
                    .get("write_units")
                    .and_then(Value::as_str)
                    .and_then(|v| v.parse::<Decimal>().ok())
                    .unwrap_or_default();
                let sum = before.checked_add(s.amount).unwrap_or(before);
                observed.insert("write_units".into(), text(sum));
            }
            (Component::Reads, "ReadCapacityUnit-Hrs") => rcu = Some(s.amount),
            (Component::Writes, "WriteCapacityUnit-Hrs")
            | (Component::ReplicatedWrites, "ReplWriteCapacityUnit-Hrs") => wcu = Some(s.amount),
            (Component::Storage, _) => {
                observed.insert(
                    "storage".into(),
                    json!(format!("{} GB", s.amount.normalize())),
                );
            }
            (Component::Pitr, _) => {
                t.insert("pitr".into(), json!(true));
                observed.insert("pitr".into(), json!(format!("{} GB", s.amount.normalize())));
            }
            (Component::StreamReads, _) => {
                // The bill counts the requests, not who made them: one reader stands for
                // them, and `observed` states the count.
                t.insert(
                    "stream".into(),
                    json!({"consumers": {"billed": {"kind": "reader", "records_per_call": "1"}}}),
                );
                observed.insert("stream_read_requests".into(), text(s.amount));
            }
            _ => header.push(not_stated(name, p.component, &p.meter, s, cur)),
        }
    }
    if !observed.contains_key("storage") {
        observed.insert("storage".into(), json!("0 GB"));
        comments.push((
            path(&["observed", "storage"]),
            "no storage billed".to_string(),
        ));
    }
    t.insert("region".into(), json!(region));
    if !replicas.is_empty() {
        t.insert(
            "replicas".into(),
            json!(replicas.iter().collect::<Vec<_>>()),
        );
    }
    if ia {
        t.insert("class".into(), json!("standard-ia"));
    }
    t.insert(
        "capacity".into(),
        capacity((rcu, wcu), hours, &|k| path(k), comments),
    );
    if !observed.is_empty() {
        t.insert("observed".into(), Value::Object(observed));
    }
    Some((region, total, Value::Object(t)))
}

/// The table's capacity: provisioned where capacity unit-hours were billed (the whole units
/// ⌈unit-hours ÷ the period's hours⌉, the exact average commented), else on demand.
fn capacity(
    (rcu, wcu): (Option<Decimal>, Option<Decimal>),
    hours: Decimal,
    path: &dyn Fn(&[&str]) -> String,
    comments: &mut Comments,
) -> Value {
    let mut capacity = serde_json::Map::new();
    if rcu.is_none() && wcu.is_none() {
        capacity.insert("mode".into(), json!("on-demand"));
        return Value::Object(capacity);
    }
    capacity.insert("mode".into(), json!("provisioned"));
    for (unit, hours_billed) in [("rcu", rcu), ("wcu", wcu)] {
        let h = hours_billed.unwrap_or(Decimal::ZERO);
        let average = h.checked_div(hours).unwrap_or_default();
        let whole = average.ceil().max(Decimal::ONE);
        capacity.insert(unit.into(), text(whole));
        comments.push((
            path(&["capacity", unit]),
            format!(
                "billed {} unit-hours = {} on average over {} h; whole units: {}",
                h.normalize(),
                average.round_dp(4).normalize(),
                hours.normalize(),
                whole.normalize()
            ),
        ));
    }
    Value::Object(capacity)
}

/// A global table's replicas: the other regions where its writes were billed as replicated
/// writes (its own region's replicated writes are its writes).
fn replica_regions<'l>(
    places: &[(&'l Place, &'l Sums)],
    home: &str,
) -> std::collections::BTreeSet<&'l str> {
    places
        .iter()
        .filter(|(p, _)| p.region != home && p.component == Component::ReplicatedWrites)
        .map(|(p, _)| p.region.as_str())
        .collect()
}

fn not_stated(name: &str, c: Component, meter: &str, s: &Sums, cur: &str) -> String {
    format!(
        "table `{name}`: {} {meter} ({} {cur}) is not in the workload",
        c.name(),
        s.unblended.normalize()
    )
}
