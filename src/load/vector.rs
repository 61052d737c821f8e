//! Validating a table's vector indexes: dimensions (an f32 vector, 4 bytes each, within an
//! item's 400 KB), the entry's size, the items holding a vector, the writes and searches a
//! month, and the bytes one search consumes. DynamoDB serves vector indexes on on-demand
//! tables only.

use rust_decimal::Decimal;

use super::context::Reader;
use super::quantity::parse_rate;
use super::raw::RawVectorIndex;
use super::yaml::position;
use crate::error::Error;
use crate::model::{CapacityMode, VectorIndex};

/// An item, vector included, holds at most 400 KB.
const MAX_ENTRY_BYTES: u32 = 409_600;
/// DynamoDB's limits (Developer Guide, vector search quotas; DESIGN §9): vector indexes a
/// table, dimensions a vector.
const MAX_VECTOR_INDEXES: usize = 5;
const MAX_DIMENSIONS: u32 = 4_096;
/// Bytes of one dimension: vectors are stored as 32-bit floats.
const BYTES_PER_DIMENSION: u32 = 4;

pub(super) fn vector_indexes(
    rd: &Reader<'_>,
    raw: &indexmap::IndexMap<String, RawVectorIndex>,
    capacity: &CapacityMode,
    table_items: Option<Decimal>,
    path: &str,
) -> Result<Vec<VectorIndex>, Error> {
    let mut out = Vec::with_capacity(raw.len());
    for (n, (name, v)) in raw.iter().enumerate() {
        let at = format!("{path}.vector_indexes.{name}");
        let p = |f: &str| format!("{at}.{f}");
        if n >= MAX_VECTOR_INDEXES {
            return Err(rd.err(
                &at,
                position(&v.dimensions),
                format!(
                    "a table holds at most {MAX_VECTOR_INDEXES} vector indexes; `{name}` is the {}th",
                    n.saturating_add(1)
                ),
                "Consider fewer vector indexes (DynamoDB's limit is 5 a table), or another table for the rest.",
            ));
        }
        if matches!(capacity, CapacityMode::Provisioned(_)) {
            return Err(rd.err(
                &at,
                position(&v.dimensions),
                "a vector index needs an on-demand table: DynamoDB serves vector indexes in on-demand capacity mode only",
                "Consider `capacity: { mode: on-demand }` for this table, or removing the vector index.",
            ));
        }
        let dimensions = rd
            .whole(
                Some(&v.dimensions),
                &p("dimensions"),
                "a vector's dimensions",
            )?
            .unwrap_or_default();
        if dimensions > Decimal::from(MAX_DIMENSIONS) {
            return Err(rd.err(
                &p("dimensions"),
                position(&v.dimensions),
                format!(
                    "{} dimensions: a vector index holds at most {MAX_DIMENSIONS}",
                    dimensions.normalize()
                ),
                "Consider an embedding of at most 4,096 dimensions (DynamoDB's limit), e.g. `1536`.",
            ));
        }
        let copied = rd
            .item_bytes(v.projected_size.as_ref(), &p("projected_size"))?
            .unwrap_or_default();
        let stated = rd.item_bytes(v.entry_size.as_ref(), &p("entry_size"))?;
        let vector = dimensions.checked_mul(Decimal::from(BYTES_PER_DIMENSION));
        let entry_bytes = match (stated, vector.and_then(|b| b.checked_add(copied))) {
            (Some(e), _) => e,
            (None, Some(e))
                if dimensions >= Decimal::ONE && e <= Decimal::from(MAX_ENTRY_BYTES) =>
            {
                e
            }
            _ => {
                return Err(rd.err(
                    &p("dimensions"),
                    position(&v.dimensions),
                    format!(
                        "{} dimensions × 4 bytes (+ {} B copied) is no vector an item of at most 400 KB holds",
                        dimensions.normalize(),
                        copied.normalize()
                    ),
                    "Consider the embedding's dimensions (1 to 102,400 at 4 bytes each), e.g. `1536`.",
                ));
            }
        };
        let rate = |q: Option<&super::raw::Quantity>, field: &str| {
            q.map(|q| {
                rd.scalar(
                    q,
                    &p(field),
                    parse_rate,
                    "a rate such as `2M/month` or `50/s`",
                )
            })
            .transpose()
        };
        let writes = rate(v.writes.as_ref(), "writes")?;
        let searches = rate(v.searches.as_ref(), "searches")?;
        let search_bytes = rd.size(v.search_bytes.as_ref(), &p("search_bytes"))?;
        let search_bytes = search_bytes.and_then(crate::model::DataSize::to_bytes);
        if let (Some(s), None) = (&v.searches, search_bytes) {
            return Err(rd.err(
                &p("searches"),
                position(s),
                "searches without `search_bytes`: a search is metered by the bytes it examines and returns, which its dimensions, `TopK` and projection decide",
                "Consider `search_bytes:` as `ReturnConsumedCapacity` reports a search (`VectorSearchRequestBytes`), e.g. `40 KB`.",
            ));
        }
        let items = match v.items.as_ref() {
            Some(q) => rd.count(Some(q), &p("items"))?,
            None => table_items,
        };
        out.push(VectorIndex {
            name: name.clone(),
            dimensions,
            entry_bytes,
            items,
            writes,
            searches,
            search_bytes,
        });
    }
    Ok(out)
}
