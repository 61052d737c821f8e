//! Access patterns in production (`allocate --workload W`): each pattern label of the logs
//! set against the workload's pattern of that name on that table — the units one request
//! consumed (reads on the table and its indexes, writes on the table), measured exactly from
//! `ConsumedCapacity`, beside the units the design's rules give one request (DESIGN §3: 4 KB
//! reads, 1 KB writes, eventual at half, transactions at twice) — with what moved and what it
//! costs a month at the design's rate: the pattern's own cost on its read or write line ×
//! (measured ÷ designed − 1).

use rust_decimal::Decimal;

use super::log::LogUsage;
use crate::engine::{Component, Estimate};
use crate::model::{Consistency, Operation, Workload};

/// One pattern, measured against its design.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Drift {
    pub(crate) table: String,
    pub(crate) pattern: String,
    /// Requests the logs hold.
    pub(crate) requests: u64,
    /// Units one request consumed (`None`: no request seen).
    pub(crate) measured: Option<Decimal>,
    /// Units one request consumes by the design (`None`: the pattern is not in the workload).
    pub(crate) designed: Option<Decimal>,
    /// What the move costs a month at the design's rate (`None`: nothing to compare).
    pub(crate) monthly_delta: Option<Decimal>,
    pub(crate) verdict: &'static str,
}

fn is_read(op: Operation) -> bool {
    matches!(
        op,
        Operation::Get
            | Operation::BatchGet
            | Operation::Query
            | Operation::Scan
            | Operation::TransactGet
    )
}

/// The design's units for one request of `pattern` on `table`.
fn designed(w: &Workload, table: &str, pattern: &str) -> Option<(Decimal, Operation, Consistency)> {
    let t = w.tables.iter().find(|t| &*t.name == table)?;
    let p = t.patterns.iter().find(|p| &*p.name == pattern)?;
    let size = p
        .item_size_bytes
        .or(t.item_size_bytes)
        .unwrap_or(Decimal::ONE);
    let units = if is_read(p.operation) {
        crate::engine::units::read_units_per_op(p.operation, p.consistency, size, p.items_per_op)?
    } else {
        crate::engine::units::write_units_per_op(p.operation, size, p.items_per_op)?
    };
    Some((units, p.operation, p.consistency))
}

/// The pattern's own cost on the lines its requests bill (reads, or the table's writes).
fn pattern_cost(e: &Estimate, table: &str, pattern: &str, read: bool) -> Decimal {
    let component = if read {
        Component::Reads
    } else {
        Component::Writes
    };
    e.line_items
        .iter()
        .filter(|l| &*l.table == table && l.component == component)
        .flat_map(|l| l.attribution.iter())
        .filter(|a| &*a.pattern == pattern)
        .fold(Decimal::ZERO, |s, a| s.checked_add(a.cost).unwrap_or(s))
}

/// Every pattern label of the logs (and every pattern of the workload's tables the logs
/// name), against the design.
#[must_use]
pub(crate) fn drift(usage: &LogUsage, w: &Workload, e: &Estimate) -> Vec<Drift> {
    let mut out = Vec::new();
    for ((table, label), requests) in &usage.requests {
        let Some(label) = label else { continue };
        let design = designed(w, table, label);
        let read = design.is_none_or(|(_, op, _)| is_read(op));
        // Reads on the table and its indexes (a query on a GSI bills there); writes on the
        // table alone (an index's writes are the amplification the design states apart).
        let units = usage
            .by_place
            .iter()
            .filter(|(p, _)| p.table == *table && p.pattern.as_deref() == Some(label))
            .filter(|(p, _)| read || p.index.is_none())
            .fold(Decimal::ZERO, |s, (_, u)| {
                s.checked_add(if read { u.read } else { u.write })
                    .unwrap_or(s)
            });
        let measured = (*requests > 0)
            .then(|| units.checked_div(Decimal::from(*requests)))
            .flatten();
        let ratio = match (measured, design) {
            (Some(m), Some((d, _, _))) if !d.is_zero() => m.checked_div(d),
            _ => None,
        };
        let verdict = match (design, ratio) {
            (None, _) => "not in the workload",
            (Some(_), None) => "no design figure to compare",
            (Some(_), Some(r)) if r == Decimal::ONE => "as designed",
            (Some((_, op, Consistency::Eventual)), Some(r))
                if r == Decimal::TWO && is_read(op) && op != Operation::TransactGet =>
            {
                "reads strongly consistent (designed eventual): twice the units"
            }
            (Some((_, op, _)), Some(r)) if r > Decimal::ONE && is_read(op) => {
                "more read units a request: items past a 4 KB boundary, or more items a request (a query that became a scan)"
            }
            (Some(_), Some(r)) if r > Decimal::ONE => {
                "more write units a request: items past a 1 KB boundary, or more items a batch"
            }
            (Some(_), Some(_)) => "fewer units a request than designed",
        };
        let monthly_delta = ratio.and_then(|r| {
            pattern_cost(e, table, label, read).checked_mul(r.checked_sub(Decimal::ONE)?)
        });
        out.push(Drift {
            table: table.clone(),
            pattern: label.clone(),
            requests: *requests,
            measured,
            designed: design.map(|(d, _, _)| d),
            monthly_delta,
            verdict,
        });
    }
    out
}
