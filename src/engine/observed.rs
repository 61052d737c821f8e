//! Measured counts priced for the month at hand: a table's or GSI's `observed` counts
//! measured over `hours` (a CloudWatch window) are × month_hours ÷ hours, exactly, before
//! anything is priced — so one measured workload prices a 730-hour month, a 720-hour
//! November against its bill, or a forecast's months, each at its own length. Sizes
//! (storage, PITR) are not counts and are kept.

use std::borrow::Cow;

use rust_decimal::Decimal;

use super::EngineError;
use super::checked;
use crate::model::Workload;

/// Each table's and GSI's window (`observed.hours`), said when priced.
pub(crate) fn windows(workload: &Workload, month_hours: Decimal) -> Vec<super::notice::Notice> {
    let mut out = Vec::new();
    for t in &workload.tables {
        if let Some(hours) = t.observed.hours {
            out.push(super::notice::Notice::Windowed {
                table: t.name.clone(),
                index: None,
                hours,
                month_hours,
            });
        }
        for i in &t.indexes {
            if let Some(hours) = i.observed.hours {
                out.push(super::notice::Notice::Windowed {
                    table: t.name.clone(),
                    index: Some(i.name.clone()),
                    hours,
                    month_hours,
                });
            }
        }
    }
    out
}

/// `workload` with every windowed count rescaled to a month of `month_hours` (borrowed when
/// no count states its window).
///
/// # Errors
/// A rescaled count too large to hold.
pub(crate) fn for_month(
    workload: &Workload,
    month_hours: Decimal,
) -> Result<Cow<'_, Workload>, EngineError> {
    let windowed = workload.tables.iter().any(|t| {
        t.observed.hours.is_some() || t.indexes.iter().any(|i| i.observed.hours.is_some())
    });
    if !windowed {
        return Ok(Cow::Borrowed(workload));
    }
    let mut w = workload.clone();
    for t in &mut w.tables {
        let context = format!("observed counts of table `{}`", t.name);
        if let Some(hours) = t.observed.hours.take() {
            for count in [
                &mut t.observed.read_units,
                &mut t.observed.write_units,
                &mut t.observed.stream_read_requests,
            ] {
                *count = rescale(*count, month_hours, hours, &context)?;
            }
        }
        for i in &mut t.indexes {
            if let Some(hours) = i.observed.hours.take() {
                for count in [&mut i.observed.read_units, &mut i.observed.write_units] {
                    *count = rescale(*count, month_hours, hours, &context)?;
                }
            }
        }
    }
    Ok(Cow::Owned(w))
}

fn rescale(
    count: Option<Decimal>,
    month_hours: Decimal,
    hours: Decimal,
    context: &str,
) -> Result<Option<Decimal>, EngineError> {
    count
        .map(|c| checked::div(checked::mul(c, month_hours, context)?, hours, context))
        .transpose()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::dec;

    #[test]
    fn a_window_is_rescaled_to_the_month_and_sizes_are_kept() {
        // 21,600,000 write units over 48 hours: a 720-hour month holds 15 × as many.
        let (w, _) = crate::load::parse_workload(
            "prices: aws-us-east-1\ntables:\n  orders:\n    item_size: 1 KB\n    storage: 5 GB\n    patterns: {}\n    observed: { write_units: 21600000, hours: 48, storage: 2 GB }\n",
            "w.yaml",
        )
        .unwrap();
        let m = for_month(&w, dec("720")).unwrap();
        assert_eq!(m.tables[0].observed.storage, w.tables[0].observed.storage);
        assert_eq!(m.tables[0].observed.write_units, Some(dec("324000000")));
        assert_eq!(m.tables[0].observed.hours, None);
        assert_eq!(m.tables[0].observed.read_units, None);
        // No window: borrowed as it is.
        let plain = Workload::default();
        assert!(matches!(
            for_month(&plain, dec("730")).unwrap(),
            Cow::Borrowed(_)
        ));
    }
}
