//! What is known of a key: its schema as written and its spread (distinct values, the
//! busiest value's share of reads and writes).

use rust_decimal::Decimal;

use super::context::Reader;
use super::raw::{Quantity, RawKey};
use super::yaml::position;
use crate::error::Error;
use crate::model::KeySchema;

/// `keys: { distinct, busiest_share | busiest_read_share, busiest_write_share }`: at
/// least one distinct value, shares within [0, 1] (a specific share overrides the common
/// one), and a busiest value taking at least the average share (1 ÷ distinct).
pub(super) fn key_spread(
    rd: &Reader<'_>,
    raw: Option<&super::raw::RawKeys>,
    path: &str,
) -> Result<Option<crate::model::KeySpread>, Error> {
    let Some(k) = raw else { return Ok(None) };
    let distinct = rd.whole(
        k.distinct.as_ref(),
        &format!("{path}.distinct"),
        "`distinct`",
    )?;
    if distinct.is_some_and(|d| d.is_zero()) {
        return Err(rd.err(
            &format!("{path}.distinct"),
            k.distinct.as_ref().and_then(position),
            "a key has at least one distinct value",
            "Consider the number of distinct partition-key values, e.g. `distinct: 41200`.",
        ));
    }
    let share = |s: Option<&Quantity>, field: &str| -> Result<Option<Decimal>, Error> {
        s.map(|s| rd.share(Some(s), &format!("{path}.{field}"), Decimal::ZERO))
            .transpose()
    };
    let common = share(k.busiest_share.as_ref(), "busiest_share")?;
    let reads = share(k.busiest_read_share.as_ref(), "busiest_read_share")?.or(common);
    let writes = share(k.busiest_write_share.as_ref(), "busiest_write_share")?.or(common);
    if let Some(d) = distinct {
        for (value, field, s) in [
            (reads, "busiest_read_share", k.busiest_read_share.as_ref()),
            (
                writes,
                "busiest_write_share",
                k.busiest_write_share.as_ref(),
            ),
        ] {
            let average = Decimal::ONE.checked_div(d).unwrap_or_default();
            if let Some(v) = value
                && v < average
            {
                let (field, s) = match s {
                    Some(s) => (field, Some(s)),
                    None => ("busiest_share", k.busiest_share.as_ref()),
                };
                return Err(rd.err(
                        &format!("{path}.{field}"),
                        s.and_then(position),
                        format!(
                            "the busiest of {} values takes at least 1/{} of the traffic, not {}",
                            d.normalize(),
                            d.normalize(),
                            v.normalize()
                        ),
                        "Consider the share the busiest value was measured to take (it is at least the average share).",
                    ));
            }
        }
    }
    Ok(Some(crate::model::KeySpread {
        distinct,
        busiest_reads: reads,
        busiest_writes: writes,
    }))
}

/// A key schema as written.
pub(super) fn key_schema(k: &RawKey) -> KeySchema {
    KeySchema {
        partition: k.partition.value.clone(),
        sort: k.sort.as_ref().map(|s| s.value.clone()),
    }
}
