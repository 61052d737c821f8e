//! The advisor's rules, one small function each, with the DynamoDB reasoning that makes it a
//! saving. A rule proposes only what the workload's declarations allow (`strong_required`,
//! `transaction_required`, `reads_attributes`, an index's `sparse`): it never takes away what
//! a pattern says it needs. Rules never propose turning off PITR or backups, and never write
//! sharding (it costs). Whether a proposal saves is for the engine to say, not the rule.

use rust_decimal::Decimal;
use serde_json::{Map, Value, json};

use super::{Candidate, table_patch};
use crate::engine;
use crate::model::{
    CapacityMode, Consistency, ConsumerKind, IndexKind, Operation, PriceBook, Projection, Table,
    TableClass,
};

/// The auto-scaling target proposed: AWS's default, 43 % headroom over the demand.
const TARGET: &str = "70%";

/// A share as `28.9%`, to 0.1 %.
fn pct1(x: Decimal) -> String {
    format!(
        "{}%",
        x.checked_mul(Decimal::ONE_HUNDRED)
            .unwrap_or_default()
            .round_dp(1)
            .normalize()
    )
}

/// A share as `92%` (exact to 0.0001 %, as a workload states it).
fn pct(x: Decimal) -> String {
    format!(
        "{}%",
        x.checked_mul(Decimal::ONE_HUNDRED)
            .unwrap_or_default()
            .round_dp(4)
            .normalize()
    )
}

/// Capacity mode. On demand, a request unit is billed per request; provisioned, a unit-hour
/// whether used or not. They cost the same at the break-even utilization (unit-hour price ÷
/// (3,600 × price per request unit), 28.9 % at us-east-1 list prices): traffic that keeps
/// provisioned units busier than that costs less provisioned with auto scaling, and spiky or
/// idle traffic costs less on demand. Both directions are proposed; the engine prices each
/// hour of the profile.
pub(super) fn capacity_mode(table: &Table, prices: &PriceBook, out: &mut Vec<Candidate>) {
    if table.patterns.is_empty() {
        return;
    }
    let break_even = engine::break_even_utilization(&prices.primary, table.class)
        .map(|(r, w)| {
            format!(
                " (break-even at {} average utilization for reads and {} for writes at {} prices)",
                pct1(r),
                pct1(w),
                prices.primary.id
            )
        })
        .unwrap_or_default();
    let t = &table.name;
    match table.capacity {
        CapacityMode::OnDemand => out.push(Candidate {
            name: format!("provisioned-{t}"),
            title: format!("Provisioned capacity with auto scaling for `{t}`"),
            rule: format!("Traffic that keeps provisioned units busy costs less per unit-hour than per request{break_even}; auto scaling at a {TARGET} target follows the traffic profile hour by hour."),
            assumes: "Traffic follows the stated profile; auto scaling takes minutes to react, so a burst above the provisioned units throttles until it does (on-demand absorbs it). The GSIs scale with the table's settings.".into(),
            patch: table_patch(t, json!({"capacity": {
                "mode": "provisioned",
                "auto_scaling": {"target": TARGET},
                "max_read_units": null, "max_write_units": null,
            }})),
        }),
        CapacityMode::Provisioned(p) => {
            let mut indexes = Map::new();
            for i in table.indexes.iter().filter(|i| i.kind == IndexKind::Global) {
                indexes.insert(
                    i.name.to_string(),
                    json!({"rcu": null, "wcu": null, "auto_scaling": null}),
                );
            }
            let mut inner = json!({"capacity": {
                "mode": "on-demand", "rcu": null, "wcu": null, "auto_scaling": null, "reserved": null,
            }});
            if !indexes.is_empty() {
                inner["indexes"] = Value::Object(indexes);
            }
            out.push(Candidate {
                name: format!("on-demand-{t}"),
                title: format!("On-demand capacity for `{t}`"),
                rule: format!("Provisioned units idle most hours cost more than the requests they serve would on demand{break_even}."),
                assumes: "On-demand bills each request at its list price with no capacity to plan; its reserved capacity, if any, is given up.".into(),
                patch: table_patch(t, inner),
            });
            let fixed = matches!(p.read, crate::model::Capacity::Fixed(_))
                || matches!(p.write, crate::model::Capacity::Fixed(_));
            if fixed {
                out.push(Candidate {
                    name: format!("auto-scaling-{t}"),
                    title: format!("Auto scaling instead of fixed units for `{t}`"),
                    rule: format!("Fixed units are sized for the peak hour and paid every hour; auto scaling at a {TARGET} target provisions each hour for that hour's demand."),
                    assumes: "Traffic follows the stated profile; auto scaling takes minutes to react to a burst.".into(),
                    patch: table_patch(t, json!({"capacity": {"rcu": null, "wcu": null, "auto_scaling": {"target": TARGET}}})),
                });
            }
        }
    }
}

/// Table class. Standard-IA stores for about 60 % less and bills requests about 25 % more
/// than Standard: it wins where storage dominates the table's bill, Standard where
/// throughput does. The other class is proposed; the engine says which costs less.
pub(super) fn table_class(table: &Table, out: &mut Vec<Candidate>) {
    let t = &table.name;
    let (to, why) = match table.class {
        TableClass::Standard => (
            TableClass::StandardIa,
            "Standard-IA stores for about 60 % less and bills requests about 25 % more: it wins where storage dominates the table's bill.",
        ),
        TableClass::StandardIa => (
            TableClass::Standard,
            "Standard bills requests about 20 % less than Standard-IA and stores for more: it wins where throughput dominates the table's bill.",
        ),
    };
    out.push(Candidate {
        name: format!("{}-{t}", to.name()),
        title: format!("Table class {} for `{t}`", to.name()),
        rule: why.into(),
        assumes: "The class can be changed twice in 30 days, without downtime; reserved capacity is for Standard tables only.".into(),
        patch: table_patch(t, json!({"class": to.name()})),
    });
}

/// GSI projection. An index entry holds the keys and what the index projects, and every
/// write of a projected attribute copies it: when the patterns that query a GSI state what
/// they read (`reads_attributes`), projecting only those (INCLUDE, or KEYS_ONLY when they
/// read only keys) makes entries — their storage and write units — smaller. Needs the sizes
/// of the attributes (`attribute_sizes`) and the key sizes the entry is made of.
pub(super) fn projections(table: &Table, out: &mut Vec<Candidate>) {
    let t = &table.name;
    let mut keys: Vec<&str> = Vec::new();
    if let Some(k) = &table.key {
        keys.push(&k.partition);
        keys.extend(k.sort.as_deref());
    }
    for index in table.indexes.iter().filter(|i| i.kind == IndexKind::Global) {
        let readers: Vec<_> = table
            .patterns
            .iter()
            .filter(|p| p.index.as_deref() == Some(&index.name) && p.operation.is_read())
            .collect();
        if readers.is_empty() || matches!(index.projection, Projection::KeysOnly) {
            continue;
        }
        // Every reader must say what it reads.
        let Some(lists) = readers
            .iter()
            .map(|p| p.needs.reads_attributes.as_ref())
            .collect::<Option<Vec<_>>>()
        else {
            continue;
        };
        let mut index_keys = keys.clone();
        if let Some(k) = &index.key {
            index_keys.push(&k.partition);
            index_keys.extend(k.sort.as_deref());
        }
        let mut needed: Vec<String> = lists
            .into_iter()
            .flatten()
            .filter(|a| !index_keys.contains(&a.as_str()))
            .cloned()
            .collect();
        needed.sort();
        needed.dedup();
        let patch = if needed.is_empty() {
            json!({"projection": "keys-only", "include": null, "projected_size": null})
        } else {
            let sizes: Option<Vec<Decimal>> = needed
                .iter()
                .map(|a| {
                    table
                        .attribute_sizes
                        .iter()
                        .find(|(n, _)| n == a)
                        .map(|(_, s)| *s)
                })
                .collect();
            let Some(sizes) = sizes else { continue };
            let projected: Decimal = sizes.iter().copied().sum();
            if let Projection::Include { projected_bytes } = index.projection
                && projected >= projected_bytes
            {
                continue;
            }
            json!({"projection": "include", "include": needed, "projected_size": format!("{} B", projected.normalize())})
        };
        let what = if needed.is_empty() {
            "KEYS_ONLY".to_string()
        } else {
            format!("INCLUDE {}", needed.join(", "))
        };
        out.push(Candidate {
            name: format!("project-{}-{t}", index.name),
            title: format!("Project {what} in index `{}` of `{t}`", index.name),
            rule: format!("The index's queries read only {}: an entry that projects just that is smaller to store and to copy on every write.", if needed.is_empty() { "keys".to_string() } else { needed.join(", ") }),
            assumes: "The patterns' `reads_attributes` are complete: a query that needs another attribute must then fetch it from the table (a second read). Changing a projection means rebuilding the index.".into(),
            patch: table_patch(t, json!({"indexes": {index.name.to_string(): patch}})),
        });
    }
}

/// An index no pattern reads. A GSI takes a write for every item write it holds and stores a
/// copy of each entry, whether or not anything queries it: if no access pattern queries or
/// scans it, deleting it saves all of that. (LSIs cannot be dropped without recreating the
/// table, so only GSIs.)
pub(super) fn unread_index(table: &Table, out: &mut Vec<Candidate>) {
    let t = &table.name;
    if table.patterns.is_empty() {
        return;
    }
    for index in table.indexes.iter().filter(|i| i.kind == IndexKind::Global) {
        let read = table
            .patterns
            .iter()
            .any(|p| p.index.as_deref() == Some(&index.name));
        if read {
            continue;
        }
        let mut inner = json!({"indexes": {index.name.to_string(): null}});
        let mut effects = Map::new();
        for p in &table.patterns {
            if p.index_effects.iter().any(|(n, _)| **n == *index.name) {
                effects.insert(
                    p.name.to_string(),
                    json!({"index_effects": {index.name.to_string(): null}}),
                );
            }
        }
        if !effects.is_empty() {
            inner["patterns"] = Value::Object(effects);
        }
        out.push(Candidate {
            name: format!("drop-{}-{t}", index.name),
            title: format!("Delete index `{}` of `{t}`: no pattern reads it", index.name),
            rule: "An index takes a write for every item write it holds and stores a copy of each entry whether or not anything queries it.".into(),
            assumes: "The workload lists every access pattern: a query not listed (an admin tool, a report, an export) would lose its index.".into(),
            patch: table_patch(t, inner),
        });
    }
}

/// Sparse index. An item is in a GSI only while it carries the index key: when the index's
/// queries need only items in some state (the seed's GSI-1: orders pending shipment), keeping
/// the key only on those makes every other write skip the index. The index's `sparse`
/// declaration names the writes that put an item into that state (`added_by`: 1 index write)
/// and take it out (`removed_by`: 1 delete); every other write of the table then touches the
/// index no more.
pub(super) fn sparse_index(table: &Table, out: &mut Vec<Candidate>) {
    let t = &table.name;
    for index in table.indexes.iter().filter(|i| i.kind == IndexKind::Global) {
        let Some(rule) = &index.sparse else { continue };
        let mut patterns = Map::new();
        let mut changes = false;
        for p in table.patterns.iter().filter(|p| !p.operation.is_read()) {
            let effect = if rule.added_by.iter().any(|n| **n == *p.name) {
                ("add", Decimal::ONE)
            } else if rule.removed_by.iter().any(|n| **n == *p.name) {
                ("remove", Decimal::ONE)
            } else {
                ("none", Decimal::ZERO)
            };
            let current = p
                .index_effects
                .iter()
                .find(|(n, _)| **n == *index.name)
                .map(|(_, e)| *e);
            if current != Some(effect.1) {
                changes = true;
            }
            patterns.insert(
                p.name.to_string(),
                json!({"index_effects": {index.name.to_string(): effect.0}}),
            );
        }
        if !changes {
            continue;
        }
        out.push(Candidate {
            name: format!("sparse-{}-{t}", index.name),
            title: format!("Make index `{}` of `{t}` sparse", index.name),
            rule: format!("An item is in a GSI only while it carries the index key: set the key only on the items the index's queries need ({} add it, {} remove it), and the other writes skip the index.", rule.added_by.join(", "), rule.removed_by.join(", ")),
            assumes: "The application sets the index key attribute in the writes named by `sparse.added_by` and removes it in those named by `sparse.removed_by`; the index's storage shrinks too, which is not counted unless its `key_share` or observed storage says so.".into(),
            patch: table_patch(t, json!({
                "indexes": {index.name.to_string(): {"updates_moving_key": "0", "updates_adding_key": "0", "updates_removing_key": "0"}},
                "patterns": patterns,
            })),
        });
    }
}

/// Eventually consistent reads. A strongly consistent read costs one unit per 4 KB, an
/// eventually consistent one half of that; GSIs only serve eventual reads anyway. Reads of
/// the table and its LSIs are made eventual except the share a pattern declares it needs
/// strong (`strong_required`: `true`, or a share).
pub(super) fn eventual_reads(table: &Table, out: &mut Vec<Candidate>) {
    let t = &table.name;
    let mut patterns = Map::new();
    for p in &table.patterns {
        if !matches!(
            p.operation,
            Operation::Get | Operation::BatchGet | Operation::Query | Operation::Scan
        ) {
            continue;
        }
        let on_gsi = p.index.as_ref().is_some_and(|n| {
            table
                .indexes
                .iter()
                .any(|i| *i.name == **n && i.kind == IndexKind::Global)
        });
        if on_gsi {
            continue;
        }
        let strong = p.needs.strong_share.unwrap_or(Decimal::ZERO);
        // A share is at most 1 (the loader checks), so this stays in [0, 1].
        let target = Decimal::ONE.saturating_sub(strong);
        let current = match p.consistency {
            Consistency::Strong => Decimal::ZERO,
            Consistency::Eventual => Decimal::ONE,
            Consistency::Mixed { eventual_share } => eventual_share,
        };
        if target <= current {
            continue;
        }
        let text = if target == Decimal::ONE {
            "eventual".to_string()
        } else {
            format!("{} eventual", pct(target))
        };
        patterns.insert(p.name.to_string(), json!({"consistency": text}));
    }
    if patterns.is_empty() {
        return;
    }
    let names: Vec<String> = patterns.keys().cloned().collect();
    out.push(Candidate {
        name: format!("eventual-reads-{t}"),
        title: format!("Eventually consistent reads on `{t}` ({})", names.join(", ")),
        rule: "An eventually consistent read costs half a strong one; reads not declared `strong_required` are made eventual (a declared share stays strong).".into(),
        assumes: "A read may miss a write made in about the last second; a pattern that must read its own writes should declare `strong_required` (true or the share that needs it).".into(),
        patch: table_patch(t, json!({"patterns": patterns})),
    });
}

/// Transactions. A transactional read or write costs two units per item (prepare and
/// commit); a batch one. A transaction not declared `transaction_required` becomes a batch of
/// the same items: batch-write for a write transaction of at most 25 items, batch-get
/// (strongly consistent, as a transaction reads) for a read transaction of at most 100.
pub(super) fn transactions(table: &Table, out: &mut Vec<Candidate>) {
    let t = &table.name;
    for p in &table.patterns {
        if p.needs.transaction {
            continue;
        }
        let patch = match p.operation {
            Operation::TransactWrite if p.items_per_op <= Decimal::from(25) => {
                json!({"op": "batch-write"})
            }
            Operation::TransactGet if p.items_per_op <= Decimal::from(100) => {
                json!({"op": "batch-get", "consistency": "strong"})
            }
            _ => continue,
        };
        out.push(Candidate {
            name: format!("batch-{}-{t}", p.name),
            title: format!("A batch instead of a transaction for `{}` of `{t}`", p.name),
            rule: "A transaction costs two units per item, a batch one: a pattern not declared `transaction_required` does not need all-or-nothing.".into(),
            assumes: "The items need not succeed together: a batch can partly fail and its unprocessed items are retried; batch-write holds puts and deletes only (no conditions, no updates).".into(),
            patch: table_patch(t, json!({"patterns": {p.name.to_string(): patch}})),
        });
    }
}

/// Item sizes just over a boundary. Writes are billed per started 1 KB and reads per started
/// 4 KB (a multiple of 1 KB): an item 10 % or less over a 1 KB boundary pays a whole unit for
/// a few bytes on every write (and, over a 4 KB boundary, on every read). Trimming those
/// items to the boundary is proposed for the table's stated item size(s).
pub(super) fn item_size_boundaries(table: &Table, out: &mut Vec<Candidate>) {
    let t = &table.name;
    let kb = Decimal::from(1024);
    let trim = |b: Decimal| -> Option<Decimal> {
        let below = b
            .checked_div(kb)?
            .ceil()
            .checked_sub(Decimal::ONE)?
            .checked_mul(kb)?;
        let limit = below.checked_mul(Decimal::new(11, 1))?;
        (below > Decimal::ZERO && b > below && b <= limit).then_some(below)
    };
    let (patch, saved) = if table.item_size_classes.is_empty() {
        let Some(size) = table.item_size_bytes else {
            return;
        };
        let Some(to) = trim(size) else { return };
        (
            json!({"item_size": format!("{} B", to.normalize())}),
            vec![(size, to)],
        )
    } else {
        // Shares only (a sample's counts are not a list the file can state).
        let total: Decimal = table.item_size_classes.iter().map(|c| c.weight).sum();
        if total != Decimal::ONE {
            return;
        }
        let mut saved = Vec::new();
        let list: Vec<Value> = table
            .item_size_classes
            .iter()
            .map(|c| {
                let size = match trim(c.bytes) {
                    Some(to) => {
                        saved.push((c.bytes, to));
                        to
                    }
                    None => c.bytes,
                };
                json!({"size": format!("{} B", size.normalize()), "share": c.weight.normalize().to_string()})
            })
            .collect();
        if saved.is_empty() {
            return;
        }
        (json!({"item_size": list}), saved)
    };
    let what: Vec<String> = saved
        .iter()
        .map(|(from, to)| format!("{} B → {} B", from.normalize(), to.normalize()))
        .collect();
    out.push(Candidate {
        name: format!("trim-items-{t}"),
        title: format!("Trim items of `{t}` to the unit boundary ({})", what.join(", ")),
        rule: "Writes are billed per started 1 KB and reads per started 4 KB: an item up to 10 % over a boundary pays a whole unit for a few bytes.".into(),
        assumes: "The items can lose those bytes: shorter attribute names, a compressed value, or a rarely read attribute moved to another item.".into(),
        patch: table_patch(t, patch),
    });
}

/// Commitments. Reserved capacity (blocks of 100 RCU or WCU, one or three years, an upfront
/// fee and a lower hourly fee) covers a region's provisioned Standard capacity hour by hour;
/// a Database Savings Plan commits to an amount an hour for a year and covers throughput at
/// lower rates. `engine::advise_commitments` finds the blocks and the hourly commitment that
/// minimize a year's bill; its best option that beats the workload's own commitments is
/// proposed as the workload's `commitments`.
pub(super) fn commitments(
    advice: &crate::engine::CommitmentAdvice,
    workload: &crate::model::Workload,
    out: &mut Vec<Candidate>,
) {
    let stated = advice
        .options
        .iter()
        .find(|o| o.name.starts_with("as stated"))
        .or_else(|| advice.options.iter().find(|o| o.name == "no commitments"));
    let Some(stated) = stated else { return };
    let best = advice
        .options
        .iter()
        .filter(|o| o.name != "no commitments" && !o.name.starts_with("as stated"))
        .min_by(|a, b| a.total.cmp(&b.total).then_with(|| a.name.cmp(&b.name)));
    let Some(best) = best.filter(|b| b.total < stated.total) else {
        return;
    };
    let reserved: Vec<Value> = best
        .reservations
        .iter()
        .map(|r| {
            let units = r.blocks.checked_mul(Decimal::ONE_HUNDRED).unwrap_or_default();
            let mut m = json!({
                "capacity": match r.kind { crate::model::CapacityKind::Rcu => "rcu", crate::model::CapacityKind::Wcu => "wcu" },
                "units": units.normalize().to_string(),
                "term": match r.term { crate::model::ReservedTerm::OneYear => "1y", crate::model::ReservedTerm::ThreeYears => "3y" },
            });
            if let Some(region) = &r.region {
                m["region"] = json!(region);
            }
            m
        })
        .collect();
    let plan = match best.per_hour {
        Some(h) if workload.savings_plan.is_some() => {
            json!({"per_hour": h.normalize().to_string()})
        }
        Some(h) => json!({"per_hour": h.normalize().to_string(), "term": "1y"}),
        None => Value::Null,
    };
    out.push(Candidate {
        name: "commitments".into(),
        title: format!("Commitments: {}", best.name),
        rule: "Reserved capacity and a Database Savings Plan trade a commitment for lower rates; the blocks and the hourly commitment that minimize a year of this workload's bill are proposed.".into(),
        assumes: format!("The traffic stays for the whole term: at 30 % lower traffic the same commitments would cost {} over 12 months, of which {} in fees left unused.", best.total_lower.round_dp(2), best.unused_lower.round_dp(2)),
        patch: json!({"commitments": {"reserved": reserved, "savings_plan": plan}}),
    });
}

/// TTL for items nobody reads. Storage (and PITR, which follows it) is billed per GB-month
/// for every item kept; deletes by TTL are free. When a table declares the share of its
/// items nobody reads once older than an age (`stale`), a TTL of that age removes them:
/// the stored items become the others.
pub(super) fn ttl_for_stale_items(table: &Table, out: &mut Vec<Candidate>) {
    let t = &table.name;
    let Some((age, share)) = table.stale else {
        return;
    };
    if table.ttl.is_some() || share.is_zero() {
        return;
    }
    // The items stored: stated items only (a stated or observed size has no count to cut).
    let Some(items) = table.items else { return };
    if table.storage.is_some() || table.observed.storage.is_some() {
        return;
    }
    let kept = items
        .checked_mul(Decimal::ONE.saturating_sub(share))
        .unwrap_or(items)
        .floor();
    out.push(Candidate {
        name: format!("ttl-{t}"),
        title: format!("TTL of {} on `{t}`: {} of its items are never read after that age", age.describe(), pct(share)),
        rule: "Storage and PITR are billed for every item kept and TTL deletes are free: expiring the items nobody reads once older than the declared age keeps only the others.".into(),
        assumes: format!("The items carry an expiry attribute set to their age limit; TTL deletes within days of expiry, and a deleted item is gone from reads (and, after the PITR window, from backups). Items kept: {} of {}.", kept.normalize(), items.normalize()),
        patch: table_patch(t, json!({"ttl": age.describe(), "items": kept.normalize().to_string()})),
    });
}

/// Stream readers' records per call. A reader that is not a Lambda trigger pays per
/// `GetRecords` call, and a call returns up to 1,000 records: a reader taking few records a
/// call (polling as fast as it can) pays for many calls; waiting to read 100 at a time
/// divides them.
pub(super) fn stream_batching(table: &Table, out: &mut Vec<Candidate>) {
    let t = &table.name;
    let Some(stream) = &table.stream else { return };
    let mut consumers = Map::new();
    for c in &stream.consumers {
        if let ConsumerKind::RecordsPerCall(n) = c.kind
            && n < Decimal::ONE_HUNDRED
        {
            consumers.insert(c.name.clone(), json!({"records_per_call": "100"}));
        }
    }
    if consumers.is_empty() {
        return;
    }
    let names: Vec<String> = consumers.keys().cloned().collect();
    out.push(Candidate {
        name: format!("stream-batches-{t}"),
        title: format!("Stream readers of `{t}` read 100 records a call ({})", names.join(", ")),
        rule: "A stream reader pays per GetRecords call and a call returns up to 1,000 records: reading 100 at a time divides the calls.".into(),
        assumes: "The readers can wait for records to accumulate: each change reaches them later (seconds at a steady rate).".into(),
        patch: table_patch(t, json!({"stream": {"consumers": consumers}})),
    });
}

/// Nodes the DAX proposal uses: one per Availability Zone, as AWS recommends in production.
const DAX_NODES: u32 = 3;

/// A DAX cluster for a hot read key. DAX serves repeated eventually consistent reads of an
/// item from memory, so the busiest key's share of a pattern's eventual reads
/// (`keys.busiest_read_share`, of the pattern or the table) is the least its cache serves; that
/// share, weighted by the patterns' eventual reads, is the hit share proposed. The cluster is
/// the cheapest node type the table's price table states, 3 nodes, the whole month; its fixed
/// cost and the reads it must save to pay for itself (the break-even) are stated. Whether it
/// saves at the assumed hits is the engine's to say: the proposal is kept only if it does.
pub(super) fn dax(table: &Table, prices: &PriceBook, out: &mut Vec<Candidate>) {
    if table.dax.is_some() || table.observed.read_units.is_some() {
        return;
    }
    let region = table.region.as_deref().unwrap_or(&prices.primary.region);
    let Some(book) = prices.region(region) else {
        return;
    };
    let Some((node, price)) = book
        .prices
        .iter()
        .filter_map(|(k, p)| match k {
            crate::model::PriceKey::DaxNodeHour(n) => Some((n, *p)),
            _ => None,
        })
        .min_by(|a, b| a.1.cmp(&b.1).then_with(|| a.0.cmp(b.0)))
    else {
        return;
    };
    let hours = Decimal::from(730);
    let (mut eventual, mut hot) = (Decimal::ZERO, Decimal::ZERO);
    let mut hot_patterns = Vec::new();
    for p in table.patterns.iter().filter(|p| {
        matches!(
            p.operation,
            Operation::Get | Operation::BatchGet | Operation::Query | Operation::Scan
        )
    }) {
        let share = match p.consistency {
            Consistency::Strong => continue,
            Consistency::Eventual => Decimal::ONE,
            Consistency::Mixed { eventual_share } => eventual_share,
        };
        let Some(reads) = p.rate.monthly(hours).and_then(|m| m.checked_mul(share)) else {
            return;
        };
        let busiest = p.keys.as_ref().and_then(|k| k.busiest_reads).or_else(|| {
            p.index
                .is_none()
                .then(|| table.keys.as_ref()?.busiest_reads)
                .flatten()
        });
        eventual = eventual.checked_add(reads).unwrap_or(eventual);
        if let Some(b) = busiest.filter(|b| *b > Decimal::ZERO) {
            hot = hot
                .checked_add(reads.checked_mul(b).unwrap_or_default())
                .unwrap_or(hot);
            hot_patterns.push(p.name.clone());
        }
    }
    let Some(hits) = hot
        .checked_div(eventual)
        .filter(|h| *h > Decimal::ZERO)
        .map(|h| h.round_dp(4))
    else {
        return;
    };
    let nodes = Decimal::from(DAX_NODES);
    let Some(fixed) = nodes.checked_mul(hours).and_then(|h| h.checked_mul(price)) else {
        return;
    };
    let t = &table.name;
    let break_even = match &table.capacity {
        CapacityMode::Provisioned(_) => book
            .get(&crate::model::PriceKey::RcuHour(table.class))
            .and_then(|rcu| fixed.checked_div(rcu))
            .map(|unit_hours| {
                format!(
                    "{} RCU-hours a month ({} RCU on average)",
                    unit_hours.round_dp(0).normalize(),
                    unit_hours
                        .checked_div(hours)
                        .unwrap_or_default()
                        .round_dp(1)
                        .normalize()
                )
            }),
        CapacityMode::OnDemand => book
            .get(&crate::model::PriceKey::ReadPerMillion(table.class))
            .and_then(|per_million| fixed.checked_div(per_million))
            .map(|millions| {
                format!(
                    "{} M read request units a month",
                    millions.round_dp(2).normalize()
                )
            }),
    };
    let Some(break_even) = break_even else {
        return;
    };
    out.push(Candidate {
        name: format!("dax-{t}"),
        title: format!(
            "A DAX cluster ({DAX_NODES} × {node}) in front of `{t}` for its hot read keys ({})",
            hot_patterns.join(", ")
        ),
        rule: "DAX serves repeated eventually consistent reads of an item from memory: at least the busiest key's share of each pattern's eventual reads (`keys.busiest_read_share`) hits its cache; strong and transactional reads and writes pass through.".into(),
        assumes: format!(
            "{} of the eventual reads hit the cache (the busiest keys' share; other repeated reads raise it). The cluster costs {} {cur} a month ({DAX_NODES} nodes, one per Availability Zone, × 730 h × {} per node-hour) whatever the traffic: it breaks even when its cache saves {break_even}. The application reads through the DAX client, inside the VPC.",
            pct1(hits),
            fixed.round_dp(2).normalize(),
            price.normalize(),
            cur = book.currency
        ),
        patch: table_patch(
            t,
            json!({"dax": {"node_type": node, "nodes": DAX_NODES.to_string(), "hits": pct(hits)}}),
        ),
    });
}
