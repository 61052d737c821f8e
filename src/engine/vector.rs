//! Vector indexes (DynamoDB vector search): each index's entries stored at the table's
//! storage price, and its writes and searches metered in bytes (`VectorWriteRequestBytes`,
//! `VectorSearchRequestBytes`), each request billed for at least the price table's
//! `vector_min_request_bytes`, at the class's `vector_write_per_gb` and
//! `vector_search_per_gb`. Priced only from a table that states those prices.

use std::sync::Arc;

use rust_decimal::Decimal;

use super::EngineError;
use super::checked;
use super::estimate::{Basis, Component, LineItem};
use super::label::Label;
use super::line::{LineSpec, Pricer, cat};
use super::usage::Weights;
use crate::model::{PriceKey, Table};

/// The lines of every vector index of `table`.
pub(super) fn lines(pricer: &Pricer<'_>, table: &Table) -> Result<Vec<LineItem>, EngineError> {
    let mut out = Vec::new();
    let t: Arc<str> = Arc::clone(&table.name);
    let region = pricer.region_of(table);
    let gb = pricer.settings.gb.gb_bytes();
    let hours = pricer.settings.month_hours;
    for v in &table.vector_indexes {
        let base = cat!(table.name, "/vector/", v.name);
        let index: Arc<str> = Arc::from(v.name.as_str());
        let spec = |suffix: &str, component, label, unit| LineSpec {
            key: cat!(base, suffix),
            table: &t,
            component,
            label,
            region: &region,
            unit,
            basis: Basis::Derived,
        };
        // Storage: every item holding a vector, its entry at the table's storage price.
        let stored = v
            .items
            .map(|items| checked::div(checked::mul(items, v.entry_bytes, &base)?, gb, &base))
            .transpose()?;
        out.push(pricer.line(
            spec(
                "/storage",
                Component::IndexStorage,
                Label::VectorStorage {
                    index: Arc::clone(&index),
                    dimensions: v.dimensions,
                },
                "GB-month",
            ),
            &PriceKey::StorageGbMonth(table.class),
            stored,
            Weights::NONE,
        )?);
        // Writes of an entry and searches: metered bytes, each request at least the minimum.
        let metered = [
            v.writes
                .map(|w| (w, v.entry_bytes, "/writes", Component::IndexWrites, true)),
            v.searches
                .zip(v.search_bytes)
                .map(|(s, b)| (s, b, "/searches", Component::Reads, false)),
        ];
        for (rate, bytes, suffix, component, write) in metered.into_iter().flatten() {
            let n = checked::some(rate.monthly(hours), &base)?;
            let (key, label) = if write {
                (
                    PriceKey::VectorWriteGb(table.class),
                    Label::VectorWrites {
                        index: Arc::clone(&index),
                        writes: n,
                    },
                )
            } else {
                (
                    PriceKey::VectorSearchGb(table.class),
                    Label::VectorSearches {
                        index: Arc::clone(&index),
                        searches: n,
                    },
                )
            };
            // The price first: a table without vector prices is named for them.
            pricer.price(&region, &key, &base)?;
            let billed = billed_gb(pricer, &region, bytes, n, &base)?;
            out.push(pricer.line(
                spec(suffix, component, label, "GB"),
                &key,
                Some(billed),
                Weights::NONE,
            )?);
        }
    }
    Ok(out)
}

/// GB billed for `requests` of `bytes` each, each at least the table's minimum.
fn billed_gb(
    pricer: &Pricer<'_>,
    region: &str,
    bytes: Decimal,
    requests: Decimal,
    context: &str,
) -> Result<Decimal, EngineError> {
    let table = pricer.table_for(region, context)?;
    let min = table
        .vector_min_request_bytes
        .ok_or_else(|| EngineError::MissingPrice {
            price: "vector_min_request_bytes".to_string(),
            table_id: table.id.clone(),
            file: table.file.clone(),
            needed_by: context.to_string(),
        })?;
    let per_request = bytes.max(min);
    checked::div(
        checked::mul(requests, per_request, context)?,
        pricer.settings.gb.gb_bytes(),
        context,
    )
}
