//! Change data capture: DynamoDB Streams read requests (one per `GetRecords` call; free for
//! AWS Lambda triggers), Kinesis Data Streams CDC units (1 per KB of each changed item), and
//! TTL deletes (free themselves, but each one emits a stream record).

use std::borrow::Cow;

use rust_decimal::Decimal;

use super::EngineError;
use super::label::{Label, StreamReader};
use std::sync::Arc;

use super::checked;
use super::estimate::{Basis, Component, LineItem};
use super::line::cat;
use super::line::{LineSpec, Pricer, millions};
use super::usage::{Metric, TableUsage, Weights};
use crate::model::{ConsumerKind, PriceKey, Table};

pub(super) fn lines(
    pricer: &Pricer<'_>,
    table: &Table,
    usage: &TableUsage,
) -> Result<Vec<LineItem>, EngineError> {
    let t = &Arc::clone(&table.name);
    let home = pricer.region_of(table);
    let region = &home;
    let month_hours = pricer.settings.month_hours;
    let mut out = Vec::new();
    // Each item-level write and each TTL delete emits one stream record.
    let records = checked::add(usage.total(Metric::ItemsWritten), usage.ttl_deletes, t)?;
    let record_weights = usage.weights(Metric::ItemsWritten);

    if table.ttl_deletes.is_some() || table.ttl.is_some() {
        let deletes = usage.ttl_deletes;
        out.push(pricer.line_at(
            LineSpec {
                key: cat!(t, "/ttl-deletes"),
                table: t,
                component: Component::TtlDeletes,
                label: Label::TtlDeletes,
                region,
                unit: "M deletes",
                basis: Basis::Derived,
            },
            Decimal::ZERO,
            Cow::Borrowed("free by rule"),
            Some(millions(deletes)),
            Weights::NONE,
        )?);
    }

    if let Some(stream) = &table.stream {
        if let Some(observed) = table.observed.stream_read_requests {
            out.push(pricer.line(
                LineSpec {
                    key: cat!(t, "/stream/reads"),
                    table: t,
                    component: Component::StreamReads,
                    label: Label::StreamReads(StreamReader::Observed),
                    region,
                    unit: "M stream reads",
                    basis: Basis::Observed,
                },
                &PriceKey::StreamReadsPerMillion,
                Some(millions(observed)),
                record_weights,
            )?);
        } else {
            for consumer in &stream.consumers {
                let key = cat!(t, "/stream/", consumer.name, "/reads");
                let name = || Arc::<str>::from(consumer.name.as_str());
                let spec = |label: StreamReader| LineSpec {
                    key: key.clone(),
                    table: t,
                    component: Component::StreamReads,
                    label: Label::StreamReads(label),
                    region,
                    unit: "M stream reads",
                    basis: Basis::Derived,
                };
                let line = match &consumer.kind {
                    ConsumerKind::Lambda => pricer.line_at(
                        spec(StreamReader::Lambda(name())),
                        Decimal::ZERO,
                        Cow::Borrowed("free by rule"),
                        Some(millions(records)),
                        record_weights,
                    )?,
                    ConsumerKind::CallsPerMonth(rate) => pricer.line(
                        spec(StreamReader::Calls(name())),
                        &PriceKey::StreamReadsPerMillion,
                        Some(millions(checked::some(rate.monthly(month_hours), &key)?)),
                        record_weights,
                    )?,
                    ConsumerKind::RecordsPerCall(per_call) => pricer.line(
                        spec(StreamReader::RecordsPerCall(name(), *per_call)),
                        &PriceKey::StreamReadsPerMillion,
                        Some(millions(checked::div(records, *per_call, &key)?)),
                        record_weights,
                    )?,
                };
                out.push(line);
            }
        }
    }

    if table.kinesis_cdc {
        // 1 CDC unit per KB of the larger image of each changed item: the non-transactional
        // write units of the item writes, plus TTL deletes.
        let units = checked::add(
            usage.total(Metric::PlainWriteUnits),
            usage.ttl_delete_units,
            t,
        )?;
        out.push(pricer.line(
            LineSpec {
                key: cat!(t, "/kinesis-cdc"),
                table: t,
                component: Component::KinesisCdc,
                label: Label::KinesisCdc,
                region,
                unit: "M CDC units",
                basis: Basis::Derived,
            },
            &PriceKey::KinesisCdcPerMillion,
            Some(millions(units)),
            usage.weights(Metric::PlainWriteUnits),
        )?);
    }
    Ok(out)
}
