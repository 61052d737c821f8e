//! A table of the workload: its class, capacity, sizes, key and attributes, indexes, TTL,
//! replicas, stream and consumers, backups, observed figures, and the checks across them
//! (a sparse index's patterns, an index's sizes); its patterns are read by `pattern`.

use rust_decimal::Decimal;

use super::context::Cx;
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

impl Cx<'_> {
    pub(super) fn table(&self, name: &str, t: &RawTable) -> Result<Table, Error> {
        let path = format!("tables.{name}");
        let class = match t.class {
            Some(RawClass::StandardIa) => TableClass::StandardIa,
            _ => TableClass::Standard,
        };
        let capacity = self.capacity(t.capacity.as_ref(), &format!("{path}.capacity"), class)?;
        let item_size = self.item_size(t.item_size.as_ref(), &format!("{path}.item_size"))?;
        let item_size_bytes = item_size.as_ref().map(|(mean, _)| *mean);
        let item_size_classes = item_size.map(|(_, c)| c).unwrap_or_default();
        let key_size_bytes = self.item_bytes(t.key_size.as_ref(), &format!("{path}.key_size"))?;
        let mut indexes = Vec::new();
        for (iname, i) in &t.indexes {
            indexes.push(self.index(
                &path,
                iname,
                i,
                &capacity,
                key_size_bytes,
                item_size_bytes,
            )?);
        }
        let (key, attributes) = self.key_and_attributes(t, &path)?;
        let max_throughput = self.max_throughput(t, &path)?;
        let forecast = self.forecasting(t.growth.as_ref(), &t.seasonal, t.from.as_ref(), &path)?;
        let mut attribute_sizes = Vec::with_capacity(t.attribute_sizes.len());
        for (attr, size) in &t.attribute_sizes {
            let at = format!("{path}.attribute_sizes.{attr}");
            if let Some(bytes) = self.item_bytes(Some(size), &at)? {
                attribute_sizes.push((attr.clone(), bytes));
            }
        }
        let mut table = Table {
            attribute_sizes,
            name: name.to_string(),
            forecast,
            key,
            attributes,
            ttl_attribute: t.ttl_attribute.clone(),
            keys: self.key_spread(t.keys.as_ref(), &format!("{path}.keys"))?,
            max_throughput,
            class,
            capacity,
            items: self.table_items(t, &path)?,
            item_size_bytes,
            item_size_classes,
            region: t.region.clone(),
            storage: self.size(t.storage.as_ref(), &format!("{path}.storage"))?,
            key_size_bytes,
            pitr: t.pitr,
            backups: self.backups(t.backups.as_ref(), &path)?,
            stream: None,
            kinesis_cdc: t.kinesis_cdc,
            replicas: Vec::new(),
            traffic: t
                .traffic
                .as_ref()
                .map(|tr| self.traffic(tr, &format!("{path}.traffic")))
                .transpose()?,
            ttl: self.ttl(t, &path)?,
            stale: self.stale(t, &path)?,
            ttl_deletes: self.ttl_deletes(t, &path)?,
            indexes,
            patterns: Vec::new(),
            patterns_unknown: t.patterns.placeholder,
            observed: self.observed(t.observed.as_ref(), &path)?,
        };
        table.replicas = self.replicas(t, &path)?;
        table.stream = self.stream(t, &path)?;
        if t.patterns.placeholder {
            self.placeholders
                .borrow_mut()
                .push(format!("{path}.patterns"));
        }
        for (pname, p) in &t.patterns {
            let pattern = self.pattern(&path, pname, p, &table)?;
            table.patterns.push(pattern);
        }
        self.check_sparse(t, &path, name, &table)?;
        self.check_index_sizes(&path, &table)?;
        Ok(table)
    }

    /// The table's key and its typed attributes; a key attribute must be among them when
    /// attributes are listed.
    fn key_and_attributes(&self, t: &RawTable, path: &str) -> Result<KeyAndAttributes, Error> {
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
                    return Err(self.err(
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
        &self,
        t: &RawTable,
        path: &str,
    ) -> Result<(Option<Decimal>, Option<Decimal>), Error> {
        let max_throughput = match &t.capacity {
            Some(c) => {
                let max = |s: Option<&Quantity>, f: &str| {
                    self.units(s, &format!("{path}.capacity.{f}"), &format!("`{f}`"))
                };
                let limits = (
                    max(c.max_read_units.as_ref(), "max_read_units")?,
                    max(c.max_write_units.as_ref(), "max_write_units")?,
                );
                if c.mode.value == RawMode::Provisioned
                    && (limits.0.is_some() || limits.1.is_some())
                {
                    return Err(self.err(
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
    fn table_items(&self, t: &RawTable, path: &str) -> Result<Option<Decimal>, Error> {
        match self.count(t.items.as_ref(), &format!("{path}.items"))? {
            Some(n) if n > Decimal::from(MAX_ITEMS) => Err(self.err(
                &format!("{path}.items"),
                t.items.as_ref().and_then(position),
                "a table of more than 10^15 items",
                "Consider a multiplier typo (B for M)?",
            )),
            other => Ok(other),
        }
    }

    /// How long an item lives (`ttl: 90 days`).
    fn ttl(&self, t: &RawTable, path: &str) -> Result<Option<crate::model::Retention>, Error> {
        t.ttl
            .as_ref()
            .map(|s| {
                self.scalar(
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
        &self,
        t: &RawTable,
        path: &str,
    ) -> Result<Option<(crate::model::Retention, Decimal)>, Error> {
        let Some(s) = &t.stale else { return Ok(None) };
        Ok(Some((
            self.scalar(
                &s.older_than,
                &format!("{path}.stale.older_than"),
                super::quantity::parse_retention,
                "an age such as `1 year` or `90 days`",
            )?,
            self.share(
                Some(&s.share),
                &format!("{path}.stale.share"),
                Decimal::ZERO,
            )?,
        )))
    }

    /// Items expired by TTL, as a rate.
    fn ttl_deletes(&self, t: &RawTable, path: &str) -> Result<Option<crate::model::Rate>, Error> {
        t.ttl_deletes
            .as_ref()
            .map(|s| {
                self.scalar(
                    s,
                    &format!("{path}.ttl_deletes"),
                    parse_rate,
                    "a rate such as `2M/month`",
                )
            })
            .transpose()
    }

    /// The other regions of a global table, each once.
    fn replicas(&self, t: &RawTable, path: &str) -> Result<Vec<String>, Error> {
        let mut replicas: Vec<String> = Vec::new();
        for r in &t.replicas {
            if r.value.trim().is_empty() || replicas.contains(&r.value) {
                return Err(self.err(
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
    fn stream(&self, t: &RawTable, path: &str) -> Result<Option<Stream>, Error> {
        if let Some(stream) = &t.stream {
            let mut consumers = Vec::new();
            for (cname, c) in &stream.consumers {
                consumers.push(self.consumer(
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
            return Err(self.err(
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
        &self,
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
                        .any(|p| p.name == n.value && !p.operation.is_read());
                    if !known {
                        let writes: Vec<&str> = table
                            .patterns
                            .iter()
                            .filter(|p| !p.operation.is_read())
                            .map(|p| p.name.as_str())
                            .collect();
                        return Err(self.err(
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
    fn check_index_sizes(&self, path: &str, table: &Table) -> Result<(), Error> {
        if let Some(index) = table.indexes.iter().find(|i| !i.sizes_known)
            && !table.patterns.is_empty()
        {
            let todo: Vec<String> = self
                .placeholders
                .borrow()
                .iter()
                .filter(|p| p.starts_with(&format!("{path}.")))
                .cloned()
                .collect();
            return Err(self.err(
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

    pub(super) fn backups(
        &self,
        b: Option<&RawBackups>,
        table_path: &str,
    ) -> Result<Backups, Error> {
        let Some(b) = b else {
            return Ok(Backups::default());
        };
        let p = |f: &str| format!("{table_path}.backups.{f}");
        Ok(Backups {
            retained: self
                .whole(b.retained.as_ref(), &p("retained"), "`retained` backups")?
                .unwrap_or_default(),
            restores_per_month: self
                .count(b.restores_per_month.as_ref(), &p("restores_per_month"))?
                .unwrap_or_default(),
            full_exports_per_month: self
                .count(
                    b.full_exports_per_month.as_ref(),
                    &p("full_exports_per_month"),
                )?
                .unwrap_or_default(),
            incremental_export: self.size(
                b.incremental_export_per_month.as_ref(),
                &p("incremental_export_per_month"),
            )?,
            import: self.size(b.import_per_month.as_ref(), &p("import_per_month"))?,
        })
    }

    pub(super) fn observed(
        &self,
        o: Option<&RawObserved>,
        table_path: &str,
    ) -> Result<TableObserved, Error> {
        let Some(o) = o else {
            return Ok(TableObserved::default());
        };
        let p = |f: &str| format!("{table_path}.observed.{f}");
        Ok(TableObserved {
            read_units: self.count(o.read_units.as_ref(), &p("read_units"))?,
            write_units: self.count(o.write_units.as_ref(), &p("write_units"))?,
            storage: self.size(o.storage.as_ref(), &p("storage"))?,
            pitr: self.size(o.pitr.as_ref(), &p("pitr"))?,
            stream_read_requests: self
                .count(o.stream_read_requests.as_ref(), &p("stream_read_requests"))?,
        })
    }

    pub(super) fn consumer(
        &self,
        path: &str,
        name: &str,
        c: &RawConsumer,
    ) -> Result<StreamConsumer, Error> {
        let kind = match (c.kind.value, &c.get_records, &c.records_per_call) {
            (RawConsumerKind::Lambda, None, None) => ConsumerKind::Lambda,
            (RawConsumerKind::Lambda, _, _) => {
                return Err(self.err(path, position(&c.kind), "a Lambda trigger's stream reads are free and take no `get_records`/`records_per_call`", "Consider `kind: reader` for a consumer that is not an AWS Lambda trigger."));
            }
            (RawConsumerKind::Reader, Some(calls), None) => {
                ConsumerKind::CallsPerMonth(self.scalar(
                    calls,
                    &format!("{path}.get_records"),
                    parse_rate,
                    "a rate of GetRecords calls such as `41M/month`",
                )?)
            }
            (RawConsumerKind::Reader, None, Some(per_call)) => {
                let n = self.scalar(
                    per_call,
                    &format!("{path}.records_per_call"),
                    parse_count,
                    "a number of records between 1 and 1000",
                )?;
                if n < Decimal::ONE || n > Decimal::from(MAX_RECORDS_PER_CALL) {
                    return Err(self.err(&format!("{path}.records_per_call"), position(per_call), format!("`{}` records per GetRecords call is outside 1–1000", per_call.value), "Consider the average batch your consumer reads; GetRecords returns at most 1,000 records."));
                }
                ConsumerKind::RecordsPerCall(n)
            }
            (RawConsumerKind::Reader, _, _) => {
                return Err(self.err(path, position(&c.kind), "a reader needs exactly one of `get_records` (calls per period) or `records_per_call`", "Consider `records_per_call: 100`, or `get_records: 41M/month` from CloudWatch."));
            }
        };
        Ok(StreamConsumer {
            name: name.to_string(),
            kind,
        })
    }
}
