//! CSV of an estimate broken down per access pattern or per component (`--format csv --by
//! pattern|component`). The per-line finance CSV is `finance`.

use super::Breakdown;
use super::money;
use crate::engine::Estimate;

pub(crate) const PATTERN_HEADER: &[&str] = &["pattern", "cost", "cost_rounded", "currency"];

pub(crate) const COMPONENT_HEADER: &[&str] = &["component", "cost", "cost_rounded", "currency"];

pub(crate) const REGION_HEADER: &[&str] = &["region", "cost", "cost_rounded", "currency"];

#[must_use]
pub(crate) fn render(e: &Estimate, by: Breakdown) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    let c = &e.currency;
    let rows = match by {
        Breakdown::Component => {
            let _ = w.write_record(COMPONENT_HEADER);
            e.component_costs()
                .into_iter()
                .map(|(k, v)| (k.name().to_string(), v))
                .collect()
        }
        Breakdown::Region => {
            let _ = w.write_record(REGION_HEADER);
            e.region_costs()
        }
        Breakdown::Pattern | Breakdown::Line => {
            let _ = w.write_record(PATTERN_HEADER);
            e.pattern_costs()
        }
    };
    // The rounded column adds up to the rounded total: apportioned over the rows.
    let costs: Vec<Option<rust_decimal::Decimal>> =
        rows.iter().map(|(_, cost)| Some(*cost)).collect();
    for ((name, cost), rounded) in rows.into_iter().zip(money::apportion(&costs, c)) {
        let _ = w.write_record([
            name,
            cost.normalize().to_string(),
            rounded.map(|r| r.to_string()).unwrap_or_default(),
            c.clone(),
        ]);
    }
    String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
}
