//! A table of the workload: its class, capacity, sizes, key and attributes, indexes, TTL,
//! replicas, stream and consumers, backups, observed figures, and the checks across them
//! (a sparse index's patterns, an index's sizes); its patterns are read by `pattern`.

use rust_decimal::Decimal;

use super::context::Reader;
use super::keys::key_schema;
use super::quantity::{parse_count, parse_rate};
use super::raw::{
    Quantity, RawAttributeType, RawBackups, RawClass, RawConsumer, RawConsumerKind, RawMode,
    RawObserved, RawStreamView, RawTable,
};
use super::workload::{MAX_ITEMS, MAX_RECORDS_PER_CALL};
use super::yaml::position;
use crate::error::Error;
use crate::model::{
    Backups, ConsumerKind, KeySchema, Stream, StreamConsumer, Table, TableClass, TableObserved,
};

/// A table's key, and its attributes with their types (`S`, `N`, `B`).
type KeyAndAttributes = (Option<KeySchema>, Vec<(String, char)>);

pub(super) fn table(rd: &Reader<'_>, name: &str, t: &RawTable) -> Result<Table, Error> {
    let path = format!("tables.{name}");
    let class = match t.class {
        Some(RawClass::StandardIa) => TableClass::StandardIa,
        _ => TableClass::Standard,
    };
    let capacity =
        super::capacity::capacity(rd, t.capacity.as_ref(), &format!("{path}.capacity"), class)?;
    let item_size = rd.item_size(t.item_size.as_ref(), &format!("{path}.item_size"))?;
    let item_size_bytes = item_size.as_ref().map(|(mean, _)| *mean);
    let item_size_classes = item_size.map(|(_, c)| c).unwrap_or_default();
    let key_size_bytes = rd.item_bytes(t.key_size.as_ref(), &format!("{path}.key_size"))?;
    let mut indexes = Vec::new();
    for (iname, i) in &t.indexes {
        indexes.push(super::index::index(
            rd,
            &path,
            iname,
            i,
            &capacity,
            key_size_bytes,
            item_size_bytes,
        )?);
    }
    let (key, attributes) = key_and_attributes(rd, t, &path)?;
    let max_throughput = max_throughput(rd, t, &path)?;
    let forecast =
        super::forecast::forecasting(rd, t.growth.as_ref(), &t.seasonal, t.from.as_ref(), &path)?;
    let mut attribute_sizes = Vec::with_capacity(t.attribute_sizes.len());
    for (attr, size) in &t.attribute_sizes {
        let at = format!("{path}.attribute_sizes.{attr}");
        if let Some(bytes) = rd.item_bytes(Some(size), &at)? {
            attribute_sizes.push((attr.clone(), bytes));
        }
    }
    let mut table = Table {
        attribute_sizes,
        name: name.into(),
        forecast,
        key,
        attributes,
        ttl_attribute: t.ttl_attribute.clone(),
        keys: super::keys::key_spread(rd, t.keys.as_ref(), &format!("{path}.keys"))?,
        max_throughput,
        class,
        capacity,
        items: table_items(rd, t, &path)?,
        item_size_bytes,
        item_size_classes,
        region: t.region.clone(),
        storage: rd.size(t.storage.as_ref(), &format!("{path}.storage"))?,
        key_size_bytes,
        pitr: t.pitr,
        backups: backups(rd, t.backups.as_ref(), &path)?,
        stream: None,
        kinesis_cdc: t.kinesis_cdc,
        contributor_insights: t.contributor_insights,
        tenants: super::tenants::tenants(rd, t, &path)?,
        tags: tags(rd, t, &path)?,
        replicas: Vec::new(),
        traffic: t
            .traffic
            .as_ref()
            .map(|tr| super::capacity::traffic(rd, tr, &format!("{path}.traffic")))
            .transpose()?,
        ttl: ttl(rd, t, &path)?,
        stale: stale(rd, t, &path)?,
        ttl_deletes: ttl_deletes(rd, t, &path)?,
        transfer_out: rd.size(t.transfer_out.as_ref(), &format!("{path}.transfer_out"))?,
        dax: super::dax::dax(rd, t.dax.as_ref(), &format!("{path}.dax"))?,
        vector_indexes: Vec::new(),
        indexes,
        patterns: Vec::new(),
        patterns_unknown: t.patterns.placeholder,
        observed: observed(rd, t.observed.as_ref(), &path)?,
        once: crate::model::Once::default(),
    };
    table.replicas = replicas(rd, t, &path)?;
    table.vector_indexes =
        super::vector::vector_indexes(rd, &t.vector_indexes, &table.capacity, table.items, &path)?;
    table.stream = stream(rd, t, &path)?;
    table.once = once(rd, t.once.as_ref(), &table, &path)?;
    if t.patterns.placeholder {
        rd.placeholders
            .borrow_mut()
            .push(format!("{path}.patterns"));
    }
    for (pname, p) in &t.patterns {
        let pattern = super::pattern::pattern(rd, &path, pname, p, &table)?;
        table.patterns.push(pattern);
    }
    check_sparse(rd, t, &path, name, &table)?;
    check_index_sizes(rd, &path, &table)?;
    Ok(table)
}

/// The table's key and its typed attributes; a key attribute must be among them when
/// attributes are listed.
fn key_and_attributes(
    rd: &Reader<'_>,
    t: &RawTable,
    path: &str,
) -> Result<KeyAndAttributes, Error> {
    let mut attributes = Vec::new();
    for (attr, kind) in &t.attributes {
        attributes.push((
            attr.clone(),
            match kind.value {
                RawAttributeType::S => 'S',
                RawAttributeType::N => 'N',
                RawAttributeType::B => 'B',
            },
        ));
    }
    let key = t.key.as_ref().map(key_schema);
    if let (Some(k), false) = (&t.key, t.attributes.is_empty()) {
        for name in std::iter::once(&k.partition).chain(&k.sort) {
            if !t.attributes.contains_key(&name.value) {
                return Err(rd.err(
                    &format!("{path}.key"),
                    position(name),
                    format!("key attribute `{}` is not in `attributes`", name.value),
                    "Consider adding it to `attributes` with its type (`S`, `N` or `B`).",
                ));
            }
        }
    }
    Ok((key, attributes))
}

/// `max_read_units`/`max_write_units`: on-demand caps, refused on a provisioned table.
fn max_throughput(
    rd: &Reader<'_>,
    t: &RawTable,
    path: &str,
) -> Result<(Option<Decimal>, Option<Decimal>), Error> {
    let max_throughput = match &t.capacity {
        Some(c) => {
            let max = |s: Option<&Quantity>, f: &str| {
                super::capacity::units(rd, s, &format!("{path}.capacity.{f}"), &format!("`{f}`"))
            };
            let limits = (
                max(c.max_read_units.as_ref(), "max_read_units")?,
                max(c.max_write_units.as_ref(), "max_write_units")?,
            );
            if c.mode.value == RawMode::Provisioned && (limits.0.is_some() || limits.1.is_some()) {
                return Err(rd.err(
                    &format!("{path}.capacity"),
                    position(&c.mode),
                    "`max_read_units`/`max_write_units` cap on-demand throughput",
                    "Consider `mode: on-demand`, or `auto_scaling` bounds for a provisioned table.",
                ));
            }
            limits
        }
        None => (None, None),
    };
    Ok(max_throughput)
}

/// The items stored: at most 10^15.
fn table_items(rd: &Reader<'_>, t: &RawTable, path: &str) -> Result<Option<Decimal>, Error> {
    match rd.count(t.items.as_ref(), &format!("{path}.items"))? {
        Some(n) if n > Decimal::from(MAX_ITEMS) => Err(rd.err(
            &format!("{path}.items"),
            t.items.as_ref().and_then(position),
            "a table of more than 10^15 items",
            "Consider a multiplier typo (B for M)?",
        )),
        other => Ok(other),
    }
}

/// How long an item lives (`ttl: 90 days`).
fn ttl(
    rd: &Reader<'_>,
    t: &RawTable,
    path: &str,
) -> Result<Option<crate::model::Retention>, Error> {
    t.ttl
        .as_ref()
        .map(|s| {
            rd.scalar(
                s,
                &format!("{path}.ttl"),
                super::quantity::parse_retention,
                "a retention such as `90 days`",
            )
        })
        .transpose()
}

/// The share of items older than an age (`stale: { older_than: 1 year, share: 60% }`).
fn stale(
    rd: &Reader<'_>,
    t: &RawTable,
    path: &str,
) -> Result<Option<(crate::model::Retention, Decimal)>, Error> {
    let Some(s) = &t.stale else { return Ok(None) };
    Ok(Some((
        rd.scalar(
            &s.older_than,
            &format!("{path}.stale.older_than"),
            super::quantity::parse_retention,
            "an age such as `1 year` or `90 days`",
        )?,
        rd.share(
            Some(&s.share),
            &format!("{path}.stale.share"),
            Decimal::ZERO,
        )?,
    )))
}

/// Items expired by TTL, as a rate.
fn ttl_deletes(
    rd: &Reader<'_>,
    t: &RawTable,
    path: &str,
) -> Result<Option<crate::model::Rate>, Error> {
    t.ttl_deletes
        .as_ref()
        .map(|s| {
            rd.scalar(
                s,
                &format!("{path}.ttl_deletes"),
                parse_rate,
                "a rate such as `2M/month`",
            )
        })
        .transpose()
}

/// The other regions of a global table, each once.
fn replicas(rd: &Reader<'_>, t: &RawTable, path: &str) -> Result<Vec<String>, Error> {
    let mut replicas: Vec<String> = Vec::new();
    for r in &t.replicas {
        if r.value.trim().is_empty() || replicas.contains(&r.value) {
            return Err(rd.err(
                &format!("{path}.replicas"),
                position(r),
                format!("replica region `{}` is empty or repeated", r.value),
                "Consider listing each other region once, e.g. `[us-east-2]`.",
            ));
        }
        replicas.push(r.value.clone());
    }
    Ok(replicas)
}

/// The table's stream and its consumers; observed stream reads need one.
fn stream(rd: &Reader<'_>, t: &RawTable, path: &str) -> Result<Option<Stream>, Error> {
    if let Some(stream) = &t.stream {
        let mut consumers = Vec::new();
        for (cname, c) in &stream.consumers {
            consumers.push(consumer(
                rd,
                &format!("{path}.stream.consumers.{cname}"),
                cname,
                c,
            )?);
        }
        return Ok(Some(Stream {
            view: stream.view.map(|v| match v {
                RawStreamView::KeysOnly => "keys-only",
                RawStreamView::NewImage => "new-image",
                RawStreamView::OldImage => "old-image",
                RawStreamView::NewAndOldImages => "new-and-old-images",
            }),
            consumers,
        }));
    } else if let Some(s) = t
        .observed
        .as_ref()
        .and_then(|o| o.stream_read_requests.as_ref())
    {
        return Err(rd.err(
            &format!("{path}.observed.stream_read_requests"),
            position(s),
            "observed stream reads on a table without a stream",
            "Consider adding `stream: { consumers: ... }` to the table.",
        ));
    }
    Ok(None)
}

/// An index's `sparse` names write patterns of this table.
fn check_sparse(
    rd: &Reader<'_>,
    t: &RawTable,
    path: &str,
    name: &str,
    table: &Table,
) -> Result<(), Error> {
    for (iname, i) in &t.indexes {
        let Some(s) = &i.sparse else { continue };
        for (field, names) in [("added_by", &s.added_by), ("removed_by", &s.removed_by)] {
            for n in names {
                let known = table
                    .patterns
                    .iter()
                    .any(|p| *p.name == *n.value && !p.operation.is_read());
                if !known {
                    let writes: Vec<&str> = table
                        .patterns
                        .iter()
                        .filter(|p| !p.operation.is_read())
                        .map(|p| &*p.name)
                        .collect();
                    return Err(rd.err(
                        &format!("{path}.indexes.{iname}.sparse.{field}"),
                        position(n),
                        format!("`{}` is not a write pattern of table `{name}`", n.value),
                        format!("Consider one of: {}.", writes.join(", ")),
                    ));
                }
            }
        }
    }
    Ok(())
}

/// The patterns need every index's entry size: placeholders left in the sizes it is made
/// of are refused, with their paths.
fn check_index_sizes(rd: &Reader<'_>, path: &str, table: &Table) -> Result<(), Error> {
    if let Some(index) = table.indexes.iter().find(|i| !i.sizes_known)
        && !table.patterns.is_empty()
    {
        let todo: Vec<String> = rd
            .placeholders
            .borrow()
            .iter()
            .filter(|p| p.starts_with(&format!("{path}.")))
            .cloned()
            .collect();
        return Err(rd.err(
                &format!("{path}.indexes.{}", index.name),
                None,
                format!(
                    "the patterns need index `{}`'s entry size, and the sizes it is made of are still placeholders: {}",
                    index.name,
                    todo.join(", ")
                ),
                "Consider filling them (`ddbcost size` measures item and key sizes from a sample), or `entry_size` on the index.",
            ));
    }
    Ok(())
}

/// A day of the month, 1 to 31.
fn taken_on_day(
    rd: &Reader<'_>,
    q: Option<&super::raw::Quantity>,
    path: &str,
) -> Result<Option<Decimal>, Error> {
    let day = rd.whole(q, path, "a day of the month")?;
    if let Some(d) = day
        && !(Decimal::ONE..=Decimal::from(31)).contains(&d)
    {
        return Err(rd.err(
            path,
            q.and_then(position),
            format!("day {} of the month", d.normalize()),
            "Consider the day the backups were taken, 1 to 31.",
        ));
    }
    Ok(day)
}

pub(super) fn backups(
    rd: &Reader<'_>,
    b: Option<&RawBackups>,
    table_path: &str,
) -> Result<Backups, Error> {
    let Some(b) = b else {
        return Ok(Backups::default());
    };
    let p = |f: &str| format!("{table_path}.backups.{f}");
    for (count, size, count_name, size_name) in [
        (&b.retained, &b.stored, "retained", "stored"),
        (
            &b.restores_per_month,
            &b.restored_per_month,
            "restores_per_month",
            "restored_per_month",
        ),
        (
            &b.full_exports_per_month,
            &b.exported_per_month,
            "full_exports_per_month",
            "exported_per_month",
        ),
    ] {
        if let (Some(_), Some(s)) = (count, size) {
            return Err(rd.err(
                &p(size_name),
                position(s),
                format!("`{count_name}` (a count, sized from the table) and `{size_name}` (a size) both say how much is billed"),
                format!("Consider one of them: `{size_name}` when the size is known (`460 GB`), else `{count_name}`."),
            ));
        }
    }
    Ok(Backups {
        stored: rd.size(b.stored.as_ref(), &p("stored"))?,
        restored: rd.size(b.restored_per_month.as_ref(), &p("restored_per_month"))?,
        exported: rd.size(b.exported_per_month.as_ref(), &p("exported_per_month"))?,
        retained: rd
            .whole(b.retained.as_ref(), &p("retained"), "`retained` backups")?
            .unwrap_or_default(),
        restores_per_month: rd
            .count(b.restores_per_month.as_ref(), &p("restores_per_month"))?
            .unwrap_or_default(),
        taken_on_day: taken_on_day(rd, b.taken_on_day.as_ref(), &p("taken_on_day"))?,
        full_exports_per_month: rd
            .count(
                b.full_exports_per_month.as_ref(),
                &p("full_exports_per_month"),
            )?
            .unwrap_or_default(),
        incremental_export: rd.size(
            b.incremental_export_per_month.as_ref(),
            &p("incremental_export_per_month"),
        )?,
        import: rd.size(b.import_per_month.as_ref(), &p("import_per_month"))?,
    })
}

/// `once:`: one-time work stated with this version of the table.
fn once(
    rd: &Reader<'_>,
    o: Option<&crate::load::raw::RawOnce>,
    table: &Table,
    table_path: &str,
) -> Result<crate::model::Once, Error> {
    let Some(o) = o else {
        return Ok(crate::model::Once::default());
    };
    let p = |f: &str| format!("{table_path}.once.{f}");
    let rewrite = match &o.rewrite {
        Some(r) => {
            let items = rd
                .count(Some(&r.items), &p("rewrite.items"))?
                .unwrap_or_default();
            let item_bytes = rd.item_bytes(r.item_size.as_ref(), &p("rewrite.item_size"))?;
            if item_bytes.is_none() && table.item_size_bytes.is_none() {
                return Err(rd.err(
                    &p("rewrite"),
                    position(&r.items),
                    "a rewrite needs the size of the items it writes",
                    "Consider `item_size:` on the rewrite or on the table.",
                ));
            }
            let mut indexes = Vec::with_capacity(r.indexes.len());
            for (i, name) in r.indexes.iter().enumerate() {
                let global = table
                    .indexes
                    .iter()
                    .any(|x| *x.name == *name.value && x.kind == crate::model::IndexKind::Global);
                if !global {
                    let known: Vec<&str> = table.indexes.iter().map(|x| &*x.name).collect();
                    return Err(rd.err(
                        &format!("{}[{i}]", p("rewrite.indexes")),
                        position(name),
                        format!("`{}` is not a GSI of this table", name.value),
                        format!(
                            "Consider one of its GSIs: {}.",
                            if known.is_empty() {
                                "(none)".to_string()
                            } else {
                                known.join(", ")
                            }
                        ),
                    ));
                }
                indexes.push(name.value.clone());
            }
            Some(crate::model::Rewrite {
                items,
                item_bytes,
                indexes,
            })
        }
        None => None,
    };
    let warm_throughput = match &o.warm_throughput {
        Some(w) => Some(crate::model::WarmThroughput {
            reads: rd.count(w.reads.as_ref(), &p("warm_throughput.reads"))?,
            writes: rd.count(w.writes.as_ref(), &p("warm_throughput.writes"))?,
            price: rd.count(w.price.as_ref(), &p("warm_throughput.price"))?,
        }),
        None => None,
    };
    Ok(crate::model::Once {
        rewrite,
        restore: rd.size(o.restore.as_ref(), &p("restore"))?,
        export: rd.size(o.export.as_ref(), &p("export"))?,
        import: rd.size(o.import.as_ref(), &p("import"))?,
        warm_throughput,
    })
}

pub(super) fn observed(
    rd: &Reader<'_>,
    o: Option<&RawObserved>,
    table_path: &str,
) -> Result<TableObserved, Error> {
    let Some(o) = o else {
        return Ok(TableObserved::default());
    };
    let p = |f: &str| format!("{table_path}.observed.{f}");
    Ok(TableObserved {
        read_units: rd.count(o.read_units.as_ref(), &p("read_units"))?,
        write_units: rd.count(o.write_units.as_ref(), &p("write_units"))?,
        storage: rd.size(o.storage.as_ref(), &p("storage"))?,
        pitr: rd.size(o.pitr.as_ref(), &p("pitr"))?,
        stream_read_requests: rd
            .count(o.stream_read_requests.as_ref(), &p("stream_read_requests"))?,
        hours: observed_hours(rd, o.hours.as_ref(), &p("hours"))?,
    })
}

/// `observed.hours`: the hours measured counts span, above 0 and at most ten years' (a
/// stray figure must not scale a count by millions).
pub(super) fn observed_hours(
    rd: &Reader<'_>,
    hours: Option<&crate::load::raw::Quantity>,
    path: &str,
) -> Result<Option<Decimal>, Error> {
    let Some(h) = rd.count(hours, path)? else {
        return Ok(None);
    };
    if h.is_zero() || h > Decimal::from(87_600) {
        return Err(rd.err(
            path,
            hours.and_then(position),
            format!("`observed.hours` {} is outside (0, 87,600]", h.normalize()),
            "Consider the window's hours the counts were measured over (336 for two weeks; `ddbcost usage --measured-workload` writes it).",
        ));
    }
    Ok(Some(h))
}

pub(super) fn consumer(
    rd: &Reader<'_>,
    path: &str,
    name: &str,
    c: &RawConsumer,
) -> Result<StreamConsumer, Error> {
    let kind = match (c.kind.value, &c.get_records, &c.records_per_call) {
        (RawConsumerKind::Lambda, None, None) => ConsumerKind::Lambda,
        (RawConsumerKind::Lambda, _, _) => {
            return Err(rd.err(path, position(&c.kind), "a Lambda trigger's stream reads are free and take no `get_records`/`records_per_call`", "Consider `kind: reader` for a consumer that is not an AWS Lambda trigger."));
        }
        (RawConsumerKind::Reader, Some(calls), None) => ConsumerKind::CallsPerMonth(rd.scalar(
            calls,
            &format!("{path}.get_records"),
            parse_rate,
            "a rate of GetRecords calls such as `41M/month`",
        )?),
        (RawConsumerKind::Reader, None, Some(per_call)) => {
            let n = rd.scalar(
                per_call,
                &format!("{path}.records_per_call"),
                parse_count,
                "a number of records between 1 and 1000",
            )?;
            if n < Decimal::ONE || n > Decimal::from(MAX_RECORDS_PER_CALL) {
                return Err(rd.err(&format!("{path}.records_per_call"), position(per_call), format!("`{}` records per GetRecords call is outside 1–1000", per_call.value), "Consider the average batch your consumer reads; GetRecords returns at most 1,000 records."));
            }
            ConsumerKind::RecordsPerCall(n)
        }
        (RawConsumerKind::Reader, _, _) => {
            return Err(rd.err(path, position(&c.kind), "a reader needs exactly one of `get_records` (calls per period) or `records_per_call`", "Consider `records_per_call: 100`, or `get_records: 41M/month` from CloudWatch."));
        }
    };
    Ok(StreamConsumer {
        name: name.into(),
        kind,
    })
}

/// The table's tags: AWS's limits — a key of 1 to 128 characters, a value of at most 256.
fn tags(rd: &Reader<'_>, t: &RawTable, path: &str) -> Result<Vec<(String, String)>, Error> {
    let mut out = Vec::with_capacity(t.tags.len());
    for (key, value) in &t.tags {
        let at = format!("{path}.tags.{key}");
        let chars = key.chars().count();
        if !(1..=128).contains(&chars) {
            return Err(rd.err(
                &at,
                position(value),
                format!("a tag key has 1 to 128 characters, not {chars}"),
                "Consider a shorter key, as AWS allows.",
            ));
        }
        let v = value.0.value.clone();
        if v.chars().count() > 256 {
            return Err(rd.err(
                &at,
                position(value),
                "a tag value has at most 256 characters",
                "Consider a shorter value, as AWS allows.",
            ));
        }
        out.push((key.clone(), v));
    }
    Ok(out)
}
