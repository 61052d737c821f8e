//! The verdict on each key attribute: the busiest value's share of reads and writes at the
//! peak (from `--workload` or `--peak-rate`) against a partition's 3,000 RCU and 1,000 WCU a
//! second, its distinct values against the partitions the peak needs, and — where the table
//! has local secondary indexes — its largest item collection against 10 GB. The partition
//! rules are the engine's (`engine::assess_key`), the same that check a workload's `keys`.

use rust_decimal::Decimal;

use super::spread::{AttributeSpread, share};
use super::summary::{Attribute, KeyRole};
use crate::engine::{self, EngineError, KeyAssessment, KeyVerdict};
use crate::model::KeySpread;

/// The most a table with local secondary indexes holds under one partition-key value: 10 GB
/// (binary: DynamoDB sizes are counted in powers of 1,024).
pub(crate) const ITEM_COLLECTION_BYTES: u64 = 10 * 1024 * 1024 * 1024;

/// A share of the item-collection limit from which the collection is at risk (our threshold:
/// one doubling from refused writes).
pub(crate) const COLLECTION_AT_RISK: Decimal = Decimal::from_parts(5, 0, 0, false, 1);

/// Read and write units a second at the peak, and where they come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Peak {
    pub reads: Decimal,
    pub writes: Decimal,
    /// `workload w.yaml, table orders` or `--peak-rate`.
    pub from: String,
}

/// The largest item collection, against the 10 GB limit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CollectionCheck {
    pub value: String,
    /// Its items' bytes plus its LSI entries' bytes.
    pub bytes: u64,
    /// Of 10 GB.
    pub share: Decimal,
}

/// Everything said about one key attribute.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttributeReport {
    pub label: String,
    pub attribute: String,
    pub index: Option<String>,
    pub role: KeyRole,
    pub items_without: u64,
    pub spread: AttributeSpread,
    pub peak: Option<Peak>,
    pub assessment: KeyAssessment,
    pub collection: Option<CollectionCheck>,
    /// The worst of the partition check and the collection check.
    pub verdict: KeyVerdict,
    /// The reasons, in words (partition check, then collection).
    pub reasons: Vec<String>,
    /// What the figures assume.
    pub notes: Vec<String>,
    /// The measured spread as a workload states it (`keys: { … }`).
    pub workload_keys: Option<String>,
}

/// A share as a percentage for the words, to 2 decimals.
fn pct(x: Decimal) -> String {
    format!(
        "{}%",
        x.checked_mul(Decimal::ONE_HUNDRED)
            .unwrap_or_default()
            .round_dp(2)
            .normalize()
    )
}

/// The verdict on `attribute`, whose values spread as `spread`, at `peak`.
///
/// # Errors
/// A figure too large to compute.
pub(crate) fn assess(
    attribute: &Attribute,
    spread: AttributeSpread,
    peak: Option<Peak>,
    has_lsi: bool,
) -> Result<AttributeReport, EngineError> {
    let (busiest_reads, busiest_writes) = spread.busiest_shares();
    let key = KeySpread {
        distinct: (spread.distinct > 0).then(|| Decimal::from(spread.distinct)),
        busiest_reads,
        busiest_writes,
    };
    let what = match &attribute.index {
        None => format!("the table's partition key `{}`", attribute.attribute),
        Some(i) => format!("the partition key `{}` of index `{i}`", attribute.attribute),
    };
    let (reads, writes) = peak
        .as_ref()
        .map_or((Decimal::ZERO, Decimal::ZERO), |p| (p.reads, p.writes));
    let assessment = engine::assess_key(
        &engine::notice::KeySubject::Named(what.clone()),
        &key,
        reads,
        writes,
    )?;
    let mut verdict = assessment.verdict;
    let mut reasons: Vec<String> = assessment.reasons.iter().map(ToString::to_string).collect();
    let mut notes = Vec::new();
    if spread.distinct == 0 {
        notes.push("no value was counted".to_string());
    } else if !spread.has_traffic {
        notes.push(
            "no reads or writes were counted for this key (no access log, or no log line names its index): traffic is assumed to follow items, so the busiest value's share of items stands for its share of reads and writes"
                .to_string(),
        );
    }
    if peak.is_none() {
        notes.push(
            "no peak given (--workload with --table, or --peak-rate): units a second per value and partitions needed are not checked, only concentration"
                .to_string(),
        );
    }
    let collection = if attribute.role == KeyRole::Table && has_lsi {
        spread.largest_collection.as_ref().map(|b| {
            let bytes = b.counts.bytes.saturating_add(b.counts.lsi_bytes);
            CollectionCheck {
                value: b.value.clone(),
                bytes,
                share: share(bytes, ITEM_COLLECTION_BYTES).unwrap_or_default(),
            }
        })
    } else {
        None
    };
    if let Some(c) = &collection {
        if c.bytes > ITEM_COLLECTION_BYTES {
            verdict = KeyVerdict::Hot;
            reasons.push(format!(
                "{what}: the item collection of `{}` holds {} bytes with its LSI entries, over the 10 GB (10,737,418,240 B) a table with local secondary indexes allows per value — writes to it fail (ItemCollectionSizeLimitExceededException); move the LSI to a GSI or split the value",
                c.value, c.bytes
            ));
        } else if c.share >= COLLECTION_AT_RISK {
            verdict = verdict.max(KeyVerdict::AtRisk);
            reasons.push(format!(
                "{what}: the item collection of `{}` holds {} bytes with its LSI entries, {} of the 10 GB a table with local secondary indexes allows per value",
                c.value,
                c.bytes,
                pct(c.share)
            ));
        }
    }
    let workload_keys = (spread.distinct > 0).then(|| {
        let mut parts = vec![format!("distinct: {}", spread.distinct)];
        match (busiest_reads, busiest_writes) {
            (Some(r), Some(w)) if r == w => parts.push(format!("busiest_share: {}", pct(r))),
            (r, w) => {
                if let Some(r) = r {
                    parts.push(format!("busiest_read_share: {}", pct(r)));
                }
                if let Some(w) = w {
                    parts.push(format!("busiest_write_share: {}", pct(w)));
                }
            }
        }
        format!("keys: {{ {} }}", parts.join(", "))
    });
    Ok(AttributeReport {
        label: attribute.label(),
        attribute: attribute.attribute.clone(),
        index: attribute.index.clone(),
        role: attribute.role,
        items_without: attribute.items_without,
        spread,
        peak,
        assessment,
        collection,
        verdict,
        reasons,
        notes,
        workload_keys,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keys::counter::{Counts, KeyCounter};
    use crate::keys::spread::spread;

    fn table_key(bytes: u64, lsi_bytes: u64) -> Attribute {
        let mut counter = KeyCounter::new();
        counter
            .add(
                b"c1",
                &Counts {
                    items: 1,
                    bytes,
                    lsi_bytes,
                    ..Counts::default()
                },
            )
            .unwrap();
        // Many small values, so that c1's share of items stays low (1 of 10,001).
        for i in 0..10_000 {
            counter
                .add(
                    format!("v{i}").as_bytes(),
                    &Counts {
                        items: 1,
                        bytes: 10,
                        ..Counts::default()
                    },
                )
                .unwrap();
        }
        Attribute {
            attribute: "pk".into(),
            index: None,
            role: KeyRole::Table,
            items_without: 0,
            counter,
        }
    }

    const GIB: u64 = 1024 * 1024 * 1024;

    #[test]
    fn item_collections_against_ten_gigabytes() {
        // 4 GiB of items + 2 GiB of LSI entries = 6 GiB = 60 % of 10 GiB ≥ 50 %: at risk.
        let a = table_key(4 * GIB, 2 * GIB);
        let r = assess(&a, spread(&a.counter), None, true).unwrap();
        assert_eq!(r.verdict, KeyVerdict::AtRisk);
        assert_eq!(r.collection.as_ref().unwrap().share, Decimal::new(6, 1));
        // 8 + 3 = 11 GiB > 10 GiB: hot (writes to c1 fail).
        let a = table_key(8 * GIB, 3 * GIB);
        let r = assess(&a, spread(&a.counter), None, true).unwrap();
        assert_eq!(r.verdict, KeyVerdict::Hot);
        assert!(r.reasons[0].contains("ItemCollectionSizeLimitExceededException"));
        // Without an LSI the 10 GB rule does not apply.
        let r = assess(&a, spread(&a.counter), None, false).unwrap();
        assert_eq!(r.verdict, KeyVerdict::WellSpread);
        assert!(r.collection.is_none());
    }
}
