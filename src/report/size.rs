//! Rendering a size summary: the distribution, what the sizes cost in request units, the
//! items just above a unit boundary, and each index's entries.

use tabled::builder::Builder;
use tabled::settings::object::Columns;
use tabled::settings::{Alignment, Style};

use super::layout::Layout;
use super::markdown;
use super::money::quantity;
use crate::size::summary::Summary;
use rust_decimal::Decimal;

fn rows(summary: &Summary) -> Vec<[String; 2]> {
    let s = summary.sizes.stats();
    let n = |v: u128| {
        quantity(Decimal::from_i128_with_scale(
            i128::try_from(v).unwrap_or(i128::MAX),
            0,
        ))
    };
    let mean = s
        .mean()
        .map_or_else(|| "—".to_string(), |m| quantity(m.round_dp(1)));
    let mut out = vec![
        ["Files".to_string(), summary.files.to_string()],
        ["Items".to_string(), n(u128::from(s.items))],
        ["Item bytes (total)".to_string(), n(s.total_bytes)],
        [
            "Size min / mean / max".to_string(),
            format!(
                "{} / {mean} / {} B",
                n(u128::from(s.min)),
                n(u128::from(s.max))
            ),
        ],
        [
            "Size p50 / p90 / p99".to_string(),
            format!(
                "{} / {} / {} B",
                n(u128::from(s.p50)),
                n(u128::from(s.p90)),
                n(u128::from(s.p99))
            ),
        ],
        [
            "Read units, each item once: strong / eventual / transactional".to_string(),
            format!(
                "{} / {} / {}",
                n(s.read_units),
                quantity(
                    Decimal::from_i128_with_scale(
                        i128::try_from(s.read_units).unwrap_or(i128::MAX),
                        0
                    )
                    .checked_div(Decimal::TWO)
                    .unwrap_or_default(),
                ),
                n(s.read_units.saturating_mul(2))
            ),
        ],
        [
            "Write units, each item once: standard / transactional".to_string(),
            format!(
                "{} / {}",
                n(s.write_units),
                n(s.write_units.saturating_mul(2))
            ),
        ],
        [
            "Stored bytes (+100 B per item)".to_string(),
            n(s.stored_bytes()),
        ],
        [
            "Items ≤ 102 B above a 1 KB boundary".to_string(),
            format!(
                "{} (trimming saves {} write units per write of each)",
                n(u128::from(s.just_above_1kb)),
                n(u128::from(s.just_above_1kb))
            ),
        ],
        [
            "Items ≤ 409 B above a 4 KB boundary".to_string(),
            format!(
                "{} (trimming saves {} read units per strong read of each)",
                n(u128::from(s.just_above_4kb)),
                n(u128::from(s.just_above_4kb))
            ),
        ],
        [
            "Items over 400 KB (not counted above)".to_string(),
            summary.oversized.to_string(),
        ],
        [
            "Malformed items (not counted above)".to_string(),
            summary.bad.to_string(),
        ],
    ];
    for i in &summary.indexes {
        let e = i.entries.stats();
        let mean = e
            .mean()
            .map_or_else(|| "—".to_string(), |m| quantity(m.round_dp(1)));
        out.push([
            format!("Index `{}`", i.name),
            format!(
                "{} entries ({} items without its key); entry {} / {mean} / {} B (min / mean / max), p99 {} B; {} write units per write of each; {} stored bytes",
                n(u128::from(e.items)),
                n(u128::from(i.skipped)),
                n(u128::from(e.min)),
                n(u128::from(e.max)),
                n(u128::from(e.p99)),
                n(e.write_units),
                n(e.stored_bytes())
            ),
        ]);
    }
    out
}

/// The terminal view (or CSV of the same rows).
#[must_use]
pub(crate) fn table(summary: &Summary, csv: bool, layout: Layout) -> String {
    let rows = rows(summary);
    if csv {
        let mut w = csv::Writer::from_writer(Vec::new());
        let _ = w.write_record(["measure", "value"]);
        for r in &rows {
            let _ = w.write_record(r);
        }
        return String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default();
    }
    let mut b = Builder::default();
    for r in rows {
        b.push_record(r);
    }
    let mut t = b.build();
    t.with(Style::rounded());
    t.modify(Columns::new(1..2), Alignment::right());
    layout.fit(&mut t);
    format!(
        "ddbcost size\n{t}\nSizes follow DynamoDB's rules (UTF-8 names and strings, base-100 number digits, decoded binary, list/map overheads); units are per read or write of each item once.\n"
    )
}

#[must_use]
pub(crate) fn markdown(summary: &Summary) -> String {
    let rows: Vec<Vec<String>> = rows(summary).into_iter().map(|[a, b]| vec![a, b]).collect();
    format!(
        "## ddbcost size\n\n{}",
        markdown::table(&["Measure", "Value"], &[false, true], &rows)
    )
}
