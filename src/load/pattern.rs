//! Validating access patterns: operation, rate, sizes, items, consistency (no strong reads on a
//! GSI), the index a query runs on, and per-pattern index effects.

use rust_decimal::Decimal;

use super::context::Reader;
use super::quantity::{parse_count, parse_rate, parse_share};
use super::raw::*;
use super::suggest;
use super::workload::{MAX_ITEMS, MAX_RATE_PER_SECOND};
use super::yaml::position;
use crate::error::Error;
use crate::model::*;

pub(super) fn pattern(
    rd: &Reader<'_>,
    table_path: &str,
    name: &str,
    p: &RawPattern,
    table: &Table,
) -> Result<AccessPattern, Error> {
    let path = format!("{table_path}.patterns.{name}");
    let f = |field: &str| format!("{path}.{field}");
    let operation = operation(p.op.value);
    let rate = pattern_rate(rd, p, &path)?;
    let item_size = rd.item_size(p.item_size.as_ref(), &f("item_size"))?;
    let item_size_bytes = item_size.as_ref().map(|(mean, _)| *mean);
    let item_size_classes = item_size.map(|(_, c)| c).unwrap_or_default();
    let overwrites = rd.share(p.overwrites.as_ref(), &f("overwrites"), Decimal::ZERO)?;
    if p.overwrites.is_some()
        && !matches!(
            operation,
            Operation::Put | Operation::BatchWrite | Operation::TransactWrite
        )
    {
        return Err(rd.err(&f("overwrites"), p.overwrites.as_ref().and_then(position), format!("`overwrites` describes puts, and this pattern is a `{}`", operation.name()), "Consider removing it: an update states what it changes on each index (`updates_moving_key`, `updates_touching_projection`…)."));
    }

    if p.overwrite_changes.is_some() && p.overwrites.is_none() {
        return Err(rd.err(&f("overwrite_changes"), p.overwrite_changes.as_ref().and_then(position), "`overwrite_changes` says what an overwrite changes, and this pattern states no `overwrites`".to_string(), "Consider `overwrites: 100%` (the share of puts that replace an item) beside it, or removing it."));
    }
    let overwrite_changes = match p.overwrite_changes.as_ref().map(|c| c.value) {
        None | Some(RawOverwriteChanges::Nothing) => OverwriteChanges::Nothing,
        Some(RawOverwriteChanges::Projected) => OverwriteChanges::Projected,
        Some(RawOverwriteChanges::Keys) => OverwriteChanges::Keys,
        Some(RawOverwriteChanges::Updates) => OverwriteChanges::Updates,
    };
    let items_per_op = items_per_op(rd, p, operation, &path)?;
    let index = pattern_index(rd, p, operation, table, &path)?;
    let consistency = consistency(rd, p, operation, index, &path, name)?;
    let index_effects = index_effects(rd, p, operation, table, &path)?;
    let size_known = item_size_bytes.is_some()
        || table.item_size_bytes.is_some()
        || index.is_some_and(|i| {
            i.entry_size_bytes.is_some() || !matches!(i.projection, Projection::All)
        });
    if !size_known {
        return Err(rd.err(&path, position(&p.op), format!("pattern `{name}` has no `item_size` and the table has none"), "Consider `item_size: 1.2 KB` on the pattern or the table (for writes: the larger of the item before and after)."));
    }
    let needs = needs(rd, p, operation, &path)?;
    if let (Some(index), Some(read)) = (index, &needs.reads_attributes) {
        hidden_attributes(rd, p, table, index, read, &path, name)?;
    }
    Ok(AccessPattern {
        needs,
        name: name.into(),
        keys: super::keys::key_spread(rd, p.keys.as_ref(), &format!("{path}.keys"))?,
        operation,
        rate,
        item_size_bytes,
        item_size_classes,
        overwrites,
        overwrite_changes,
        items_per_op,
        consistency,
        transfer_out: sent_out(rd, p, operation, &f("transfer_out"))?,
        index: index.map(|i| i.name.to_string()),
        fetches_base_items: p.fetch_base_items,
        description: p.description.clone(),
        index_effects,
        traffic: p
            .traffic
            .as_ref()
            .map(|tr| super::capacity::traffic(rd, tr, &f("traffic")))
            .transpose()?,
        forecast: super::forecast::forecasting(
            rd,
            p.growth.as_ref(),
            &p.seasonal,
            p.from.as_ref(),
            &path,
        )?,
    })
}

/// The pattern's rate: below 10^12 requests a second (no table serves a trillion; such a
/// rate is a unit typo).
fn pattern_rate(rd: &Reader<'_>, p: &RawPattern, path: &str) -> Result<Rate, Error> {
    let f = |field: &str| format!("{path}.{field}");
    let rate = rd.scalar(
        &p.rate,
        &f("rate"),
        parse_rate,
        "a rate such as `400/s` or `41M/month` (a plain number is per second)",
    )?;
    let per_second = rate
        .monthly(Decimal::from(730))
        .and_then(|m| m.checked_div(Decimal::from(2_628_000)));
    if per_second.is_none_or(|r| r > Decimal::from(MAX_RATE_PER_SECOND)) {
        return Err(rd.err(
                &f("rate"),
                position(&p.rate),
                format!("`{}` is above 10^12 requests a second", p.rate.value),
                "Consider checking the unit (`/month` rather than `/s`?) and the multiplier (M = 10^6, B = 10^9).",
            ));
    }
    Ok(rate)
}

/// Items per operation: stated for a multi-item operation (within its batch or
/// transaction limit), one otherwise.
fn items_per_op(
    rd: &Reader<'_>,
    p: &RawPattern,
    operation: Operation,
    path: &str,
) -> Result<Decimal, Error> {
    let f = |field: &str| format!("{path}.{field}");
    let path = path.to_string();
    let items = rd.count(p.items.as_ref(), &f("items"))?;
    if let (Some(n), Some(s)) = (items, p.items.as_ref())
        && n > Decimal::from(MAX_ITEMS)
    {
        return Err(rd.err(
            &f("items"),
            position(s),
            format!("`{}` items per operation is above 10^15", s.value),
            "Consider the items one operation touches; a multiplier typo (B for M)?",
        ));
    }
    let items_per_op = match (operation.is_multi_item(), items) {
        (true, Some(n)) => n,
        (true, None) => {
            return Err(rd.err(&path, position(&p.op), format!("a `{}` needs `items` (items per operation)", operation.name()), match operation {
                    Operation::Scan => "Consider `items:` the number of items the scan evaluates (filters do not reduce it).",
                    Operation::Query => "Consider `items:` the number of items a query returns (their sizes are summed, then rounded to 4 KB).",
                    _ => "Consider `items:` the number of items in the batch or transaction.",
                }));
        }
        (false, Some(_)) => {
            return Err(rd.err(
                &f("items"),
                position(&p.op),
                format!(
                    "a `{}` works on one item and takes no `items`",
                    operation.name()
                ),
                "Consider `batch-get`, `batch-write` or `query` for several items.",
            ));
        }
        (false, None) => Decimal::ONE,
    };
    let limit = match operation {
        Operation::BatchWrite => Some(25),
        Operation::BatchGet | Operation::TransactGet | Operation::TransactWrite => Some(100),
        _ => None,
    };
    if let (Some(limit), Some(items_scalar)) = (limit, p.items.as_ref())
        && (items_per_op > Decimal::from(limit) || items_per_op < Decimal::ONE)
    {
        return Err(rd.err(
            &f("items"),
            position(items_scalar),
            format!(
                "a `{}` holds 1 to {limit} items, not `{}`",
                operation.name(),
                items_scalar.value
            ),
            "Consider splitting it into several operations (a higher rate).",
        ));
    }

    Ok(items_per_op)
}

/// The index a query or scan runs on (one of the table's), and whether it may fetch base
/// items (an LSI only).
fn pattern_index<'t>(
    rd: &Reader<'_>,
    p: &RawPattern,
    operation: Operation,
    table: &'t Table,
    path: &str,
) -> Result<Option<&'t Index>, Error> {
    let f = |field: &str| format!("{path}.{field}");
    let index = match &p.index {
        None => None,
        Some(iname) => {
            let Some(index) = table.indexes.iter().find(|i| *i.name == *iname.value) else {
                let names: Vec<&str> = table.indexes.iter().map(|i| &*i.name).collect();
                let help = suggest::consider(&iname.value, &names, "the table's indexes");
                return Err(rd.err(
                    &f("index"),
                    position(iname),
                    format!("table `{}` has no index `{}`", table.name, iname.value),
                    help,
                ));
            };
            if !matches!(operation, Operation::Query | Operation::Scan) {
                return Err(rd.err(
                    &f("index"),
                    position(iname),
                    format!(
                        "a `{}` cannot run on an index; only `query` and `scan` can",
                        operation.name()
                    ),
                    "Consider `op: query` on the index.",
                ));
            }
            Some(index)
        }
    };
    if p.fetch_base_items && !index.is_some_and(|i| i.kind == IndexKind::Local) {
        return Err(rd.err(
            &f("fetch_base_items"),
            position(&p.op),
            "only a query on an LSI can fetch non-projected attributes from the table",
            "Consider removing `fetch_base_items`, or querying the table.",
        ));
    }

    Ok(index)
}

/// The read consistency: stated for a read (never strong on a GSI), eventual on a GSI
/// when not stated, none for a write.
fn consistency(
    rd: &Reader<'_>,
    p: &RawPattern,
    operation: Operation,
    index: Option<&Index>,
    path: &str,
    name: &str,
) -> Result<Consistency, Error> {
    let f = |field: &str| format!("{path}.{field}");
    let path = path.to_string();
    let consistency = match (&p.consistency, operation.is_read(), operation) {
        (Some(c), false, _) | (Some(c), _, Operation::TransactGet) => {
            return Err(rd.err(&f("consistency"), position(c), format!("a `{}` has no read consistency", operation.name()), "Consider removing `consistency`; transactional reads always cost 2 units per 4 KB."));
        }
        (Some(c), true, _) => {
            let parsed = parse_consistency(&c.value).map_err(|why| {
                let help = match suggest::closest(c.value.trim(), ["strong", "eventual"]) {
                    Some(close) => format!(
                        "Consider `{close}` (did you mean it?), or a share such as `92% eventual`."
                    ),
                    None => "Consider `strong`, `eventual`, or a share such as `92% eventual`."
                        .to_string(),
                };
                rd.err(&f("consistency"), position(c), why, help)
            })?;
            let on_gsi = index.is_some_and(|i| i.kind == IndexKind::Global);
            if on_gsi && parsed != Consistency::Eventual {
                return Err(rd.err(&f("consistency"), position(c), format!("a strongly consistent read on GSI `{}`: GSIs support eventual consistency only", index.map_or("", |i| &*i.name)), "Consider `consistency: eventual`, or querying the table or an LSI."));
            }
            parsed
        }
        (None, true, Operation::TransactGet) | (None, false, _) => Consistency::Strong,
        (None, true, _) if index.is_some_and(|i| i.kind == IndexKind::Global) => {
            Consistency::Eventual
        }
        (None, true, _) => {
            return Err(rd.err(&path, position(&p.op), format!("read pattern `{name}` does not say its consistency"), "Consider `consistency: eventual` (half price, DynamoDB's default) or `consistency: strong`."));
        }
    };

    Ok(consistency)
}

/// What a write does to each named index (`index_effects`), for the table's indexes.
fn index_effects(
    rd: &Reader<'_>,
    p: &RawPattern,
    operation: Operation,
    table: &Table,
    path: &str,
) -> Result<Vec<(String, Decimal)>, Error> {
    let f = |field: &str| format!("{path}.{field}");
    let mut index_effects = Vec::new();
    for (iname, effect) in &p.index_effects {
        let epath = f(&format!("index_effects.{iname}"));
        if !table.indexes.iter().any(|i| *i.name == **iname) {
            let names: Vec<&str> = table.indexes.iter().map(|i| &*i.name).collect();
            return Err(rd.err(
                &epath,
                position(effect),
                format!("table `{}` has no index `{iname}`", table.name),
                suggest::consider(iname, &names, "the table's indexes"),
            ));
        }
        if operation.is_read() {
            return Err(rd.err(
                &epath,
                position(effect),
                "a read pattern writes no index entries",
                "Consider removing `index_effects` from this read pattern.",
            ));
        }
        index_effects.push((iname.clone(), rd.scalar(effect, &epath, parse_index_effect, "one of `none`, `put`, `add`, `remove`, `update`, `move`, or index writes per item written such as `0.5`")?));
    }

    Ok(index_effects)
}

/// What the pattern needs of a design (`strong_required`, `transaction_required`,
/// `reads_attributes`), for `advise`.
fn needs(
    rd: &Reader<'_>,
    p: &RawPattern,
    operation: Operation,
    path: &str,
) -> Result<PatternNeeds, Error> {
    let f = |field: &str| format!("{path}.{field}");
    let reads = operation.is_read();
    let strong_share = match p.strong_required.as_ref().map(|s| (&s.value, s)) {
        None => None,
        Some((super::raw::RawStrong::Flag(true), _)) => Some(Decimal::ONE),
        Some((super::raw::RawStrong::Flag(false), _)) => Some(Decimal::ZERO),
        Some((super::raw::RawStrong::Share(t), _)) if t.trim() == "true" => Some(Decimal::ONE),
        Some((super::raw::RawStrong::Share(t), _)) if t.trim() == "false" => Some(Decimal::ZERO),
        Some((super::raw::RawStrong::Share(text), s)) => {
            let scalar = super::raw::Quantity::at(text.clone(), s.referenced, s.defined);
            Some(rd.share(Some(&scalar), &f("strong_required"), Decimal::ONE)?)
        }
    };
    if p.strong_required.is_some() && !reads {
        return Err(rd.err(
            &f("strong_required"),
            p.strong_required.as_ref().and_then(position),
            format!(
                "`strong_required` describes reads, and this pattern is a `{}`",
                operation.name()
            ),
            "Consider removing it: only reads have a consistency.",
        ));
    }
    if p.transaction_required
        && !matches!(operation, Operation::TransactGet | Operation::TransactWrite)
    {
        return Err(rd.err(
            &f("transaction_required"),
            position(&p.op),
            format!(
                "`transaction_required` describes transactions, and this pattern is a `{}`",
                operation.name()
            ),
            "Consider removing it, or `op: transact-write`.",
        ));
    }
    if let Some(attrs) = &p.reads_attributes
        && (!reads || attrs.is_empty())
    {
        return Err(rd.err(
            &f("reads_attributes"),
            attrs.first().and_then(position).or_else(|| position(&p.op)),
            "`reads_attributes` lists the attributes a read uses (at least one)",
            "Consider removing it, or naming the attributes the pattern's reads use.",
        ));
    }
    Ok(PatternNeeds {
        strong_share,
        transaction: p.transaction_required,
        reads_attributes: p
            .reads_attributes
            .as_ref()
            .map(|a| a.iter().map(|x| x.value.clone()).collect()),
    })
}

/// `strong`, `eventual`, or a share of eventually consistent reads: `92% eventual`.
fn parse_consistency(text: &str) -> Result<Consistency, String> {
    match text.trim() {
        "strong" => Ok(Consistency::Strong),
        "eventual" => Ok(Consistency::Eventual),
        other => {
            let share = other
                .strip_suffix("eventual")
                .map(str::trim)
                .ok_or_else(|| format!("unknown consistency `{other}`"))?;
            let eventual_share =
                parse_share(share).map_err(|why| format!("{why} in consistency `{other}`"))?;
            Ok(match eventual_share {
                s if s.is_zero() => Consistency::Strong,
                s if s == Decimal::ONE => Consistency::Eventual,
                eventual_share => Consistency::Mixed { eventual_share },
            })
        }
    }
}

/// An index effect keyword (DESIGN.md §3) as index writes per item written: an item without
/// the key writes nothing (`none`), a put of an item carrying it or an update that adds or
/// removes it or changes a projected attribute writes 1, an update that moves it writes 2.
fn parse_index_effect(text: &str) -> Result<Decimal, String> {
    match text.trim() {
        "none" => Ok(Decimal::ZERO),
        "put" | "add" | "remove" | "update" | "delete" => Ok(Decimal::ONE),
        "move" => Ok(Decimal::TWO),
        other => {
            let n = parse_count(other).map_err(|_| format!("unknown index effect `{other}`"))?;
            if n > Decimal::TWO {
                return Err(format!(
                    "`{other}` index writes per item is above 2 (a key move)"
                ));
            }
            Ok(n)
        }
    }
}

fn operation(op: RawOperation) -> Operation {
    match op {
        RawOperation::Get => Operation::Get,
        RawOperation::BatchGet => Operation::BatchGet,
        RawOperation::Query => Operation::Query,
        RawOperation::Scan => Operation::Scan,
        RawOperation::Put => Operation::Put,
        RawOperation::Update => Operation::Update,
        RawOperation::Delete => Operation::Delete,
        RawOperation::BatchWrite => Operation::BatchWrite,
        RawOperation::TransactGet => Operation::TransactGet,
        RawOperation::TransactWrite => Operation::TransactWrite,
    }
}

/// A read on an index that declares what it reads (`reads_attributes`) must find it there: an
/// attribute the projection hides would be fetched from the table by a second read that no
/// line prices (an LSI's `fetch_base_items` prices it). Judged only where the table's key is
/// stated (else a key attribute cannot be told from a hidden one).
fn hidden_attributes(
    rd: &Reader<'_>,
    p: &RawPattern,
    table: &Table,
    index: &Index,
    read: &[String],
    path: &str,
    name: &str,
) -> Result<(), Error> {
    let Some(table_key) = &table.key else {
        return Ok(());
    };
    if matches!(index.projection, Projection::All)
        || (index.kind == IndexKind::Local && p.fetch_base_items)
    {
        return Ok(());
    }
    let mut keys: Vec<&str> = vec![table_key.partition.as_str()];
    keys.extend(table_key.sort.as_deref());
    if let Some(k) = &index.key {
        keys.push(&k.partition);
        keys.extend(k.sort.as_deref());
    }
    let hidden: Vec<&str> = read
        .iter()
        .map(String::as_str)
        .filter(|a| !keys.contains(a) && !index.include.iter().any(|i| i == a))
        .collect();
    if hidden.is_empty() {
        return Ok(());
    }
    let projection = match index.projection {
        Projection::KeysOnly => "KEYS_ONLY".to_string(),
        _ => format!("INCLUDE {}", index.include.join(", ")),
    };
    Err(rd.err(
        &format!("{path}.reads_attributes"),
        p.reads_attributes.as_ref().and_then(|r| r.first()).and_then(position),
        format!(
            "pattern `{name}` reads {}, which index `{}` does not project ({projection}): each would be fetched from the table by a second read that no line prices",
            hidden.iter().map(|a| format!("`{a}`")).collect::<Vec<_>>().join(", "),
            index.name
        ),
        format!(
            "Consider projecting them (`projection: include`, `include: [{}]`), or pricing the fetches as a pattern on the table and leaving them out of `reads_attributes`.",
            hidden.join(", ")
        ),
    ))
}

/// `transfer_out`: a size per request, or `returned` (what a read returns).
fn sent_out(
    rd: &Reader<'_>,
    p: &RawPattern,
    operation: Operation,
    path: &str,
) -> Result<Option<crate::model::SentOut>, Error> {
    let Some(q) = p.transfer_out.as_ref() else {
        return Ok(None);
    };
    if q.value.trim() != "returned" {
        return Ok(rd.size(Some(q), path)?.map(crate::model::SentOut::Bytes));
    }
    if !operation.is_read() {
        return Err(rd.err(
            path,
            position(q),
            "`transfer_out: returned` is what a read returns, and this pattern writes",
            "Consider the bytes the write sends back (`ReturnValues`) as a size, e.g. `transfer_out: 1 KB`.",
        ));
    }
    Ok(Some(crate::model::SentOut::Returned))
}
