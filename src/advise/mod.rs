//! Candidate savings for `ddbcost advise`: small rules (`rules`), each reading the workload
//! and proposing a change as a merge patch of the workload document — the same patch a user
//! writes under `scenarios:`. Nothing is priced here; the command prices every candidate with
//! the engine through the scenario machinery `compare` uses, keeps those that save, and
//! combines the ones that do not touch the same fields. Pure: no files, no printing.

mod rules;

use serde_json::Value;

use crate::model::{PriceBook, Workload};

/// A proposed change, not yet priced.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    /// A scenario name: `eventual-reads-orders`.
    pub name: String,
    pub title: String,
    /// The rule that produced it, in one sentence.
    pub rule: String,
    /// What it assumes or risks, in words.
    pub assumes: String,
    /// A merge patch of the workload document.
    pub patch: Value,
}

impl Candidate {
    /// The dotted paths of the fields the patch sets (`tables.orders.capacity.mode`): two
    /// candidates conflict when one's path is a prefix of the other's.
    #[must_use]
    pub fn touches(&self) -> Vec<String> {
        let mut out = Vec::new();
        leaves(&self.patch, String::new(), &mut out);
        out
    }

    /// Whether this candidate and `other` set the same field (or one inside the other).
    #[must_use]
    pub fn conflicts(&self, other: &Candidate) -> bool {
        let mine = self.touches();
        let theirs = other.touches();
        mine.iter().any(|a| {
            theirs.iter().any(|b| {
                a == b || a.starts_with(&format!("{b}.")) || b.starts_with(&format!("{a}."))
            })
        })
    }
}

fn leaves(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Object(m) if !m.is_empty() => {
            for (k, child) in m {
                let path = if at.is_empty() {
                    k.clone()
                } else {
                    format!("{at}.{k}")
                };
                leaves(child, path, out);
            }
        }
        _ => out.push(at),
    }
}

/// Every candidate the workload's declarations allow, in rule order; `commitments` is the
/// engine's commitment advice over a year of the workload, where it was worked out.
#[must_use]
pub(crate) fn candidates(
    workload: &Workload,
    prices: &PriceBook,
    commitments: Option<&crate::engine::CommitmentAdvice>,
) -> Vec<Candidate> {
    let mut out = Vec::new();
    if let Some(advice) = commitments {
        rules::commitments(advice, workload, &mut out);
    }
    for table in &workload.tables {
        rules::capacity_mode(table, prices, &mut out);
        rules::table_class(table, &mut out);
        rules::projections(table, &mut out);
        rules::unread_index(table, &mut out);
        rules::sparse_index(table, &mut out);
        rules::eventual_reads(table, &mut out);
        rules::transactions(table, &mut out);
        rules::item_size_boundaries(table, &mut out);
        rules::stream_batching(table, &mut out);
        rules::ttl_for_stale_items(table, &mut out);
        rules::dax(table, prices, &mut out);
    }
    out
}

/// `{ "tables": { table: inner } }`.
fn table_patch(table: &str, inner: Value) -> Value {
    let mut t = serde_json::Map::new();
    t.insert(table.to_string(), inner);
    let mut root = serde_json::Map::new();
    root.insert("tables".into(), Value::Object(t));
    Value::Object(root)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn c(patch: Value) -> Candidate {
        Candidate {
            name: "x".into(),
            title: String::new(),
            rule: String::new(),
            assumes: String::new(),
            patch,
        }
    }

    #[test]
    fn conflicts_are_overlapping_fields() {
        let a = c(json!({"tables": {"t": {"capacity": {"mode": "provisioned"}}}}));
        let b = c(json!({"tables": {"t": {"capacity": {"mode": "on-demand", "rcu": null}}}}));
        let d = c(json!({"tables": {"t": {"class": "standard-ia"}}}));
        let e = c(json!({"tables": {"t": {"indexes": {"g": null}}}}));
        let f = c(json!({"tables": {"t": {"indexes": {"g": {"projection": "include"}}}}}));
        assert!(a.conflicts(&b));
        assert!(!a.conflicts(&d));
        assert!(
            e.conflicts(&f),
            "removing an index conflicts with reshaping it"
        );
        assert_eq!(a.touches(), vec!["tables.t.capacity.mode".to_string()]);
    }
}
