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
    let t: Arc<str> = Arc::from(table.name.as_str());
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
        if let Some(writes) = v.writes {
            let n = checked::some(writes.monthly(hours), &base)?;
            // The price first: a table without vector prices is named for them.
            pricer.price(&region, &PriceKey::VectorWriteGb(table.class), &base)?;
            let billed = billed_gb(pricer, &region, v.entry_bytes, n, &base)?;
            out.push(pricer.line(
                spec(
                    "/writes",
                    Component::IndexWrites,
                    Label::VectorWrites {
                        index: Arc::clone(&index),
                        writes: n,
                    },
                    "GB",
                ),
                &PriceKey::VectorWriteGb(table.class),
                Some(billed),
                Weights::NONE,
            )?);
        }
        if let (Some(searches), Some(bytes)) = (v.searches, v.search_bytes) {
            let n = checked::some(searches.monthly(hours), &base)?;
            pricer.price(&region, &PriceKey::VectorSearchGb(table.class), &base)?;
            let billed = billed_gb(pricer, &region, bytes, n, &base)?;
            out.push(pricer.line(
                spec(
                    "/searches",
                    Component::Reads,
                    Label::VectorSearches {
                        index: Arc::clone(&index),
                        searches: n,
                    },
                    "GB",
                ),
                &PriceKey::VectorSearchGb(table.class),
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
