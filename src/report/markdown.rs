//! Markdown for pull requests and wikis: totals first, then tables whose cells escape `|`.

use rust_decimal::Decimal;

use super::Breakdown;
use super::money;
use crate::engine::Estimate;

/// Escapes a cell: `|` would end it, a newline would end the row; and, outside code spans,
/// what a Markdown renderer (a pull-request comment) would turn into HTML, a link or an image:
/// `<`, `>` and `&` as entities, `[`, `]` and `!` with a backslash. A name from a workload or
/// template is shown as text, never run as markup; a character that would act on a terminal
/// (`crate::text::acts`: an escape sequence, a bidirectional override) is written as its
/// escape, `\u{1b}`. Inside backticks nothing is interpreted, so
/// nothing there is escaped (but `|`, which ends a cell even there).
#[must_use]
pub(crate) fn cell(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for (i, part) in text.split('`').enumerate() {
        if i > 0 {
            out.push('`');
        }
        let code = i % 2 == 1;
        for c in part.chars() {
            match c {
                '|' => out.push_str("\\|"),
                '\n' | '\r' => out.push(' '),
                c if crate::text::acts(c) => out.extend(c.escape_unicode()),
                '<' if !code => out.push_str("&lt;"),
                '>' if !code => out.push_str("&gt;"),
                '&' if !code => out.push_str("&amp;"),
                '[' | ']' | '!' if !code => {
                    out.push('\\');
                    out.push(c);
                }
                c => out.push(c),
            }
        }
    }
    out
}

/// A Markdown table; `right` marks right-aligned columns.
#[must_use]
pub(crate) fn table(header: &[&str], right: &[bool], rows: &[Vec<String>]) -> String {
    let mut out = String::new();
    out.push_str(&format!(
        "| {} |\n",
        header
            .iter()
            .map(|h| cell(h))
            .collect::<Vec<_>>()
            .join(" | ")
    ));
    let rule: Vec<&str> = right
        .iter()
        .map(|r| if *r { "--:" } else { "---" })
        .collect();
    out.push_str(&format!("|{}|\n", rule.join("|")));
    for row in rows {
        out.push_str(&format!(
            "| {} |\n",
            row.iter().map(|c| cell(c)).collect::<Vec<_>>().join(" | ")
        ));
    }
    out
}

/// The settings and price table, as a closing paragraph.
#[must_use]
pub(crate) fn footer(e: &Estimate) -> String {
    let p = &e.price_table;
    let fx = super::other_tables_statement(e)
        .map(|s| s.trim_end_matches('.').to_string())
        .into_iter()
        .chain(super::fx_statement(e))
        .chain(super::savings_plan_statement(e))
        .chain(super::partitions_statement(e))
        .fold(String::new(), |mut out, f| {
            out.push(' ');
            out.push_str(&cell(&f));
            out.push('.');
            out
        });
    format!(
        "_Prices: {} ({}, {}), effective {}. {}-hour month, GB = {}, free tier {}.{fx} {}._\n",
        cell(&p.id),
        cell(&p.region),
        p.currency,
        p.effective,
        e.settings.month_hours.normalize(),
        e.settings.gb.name(),
        if e.settings.free_tier {
            "applied"
        } else {
            "off"
        },
        money::policy(&e.currency)
    )
}

#[must_use]
pub(crate) fn estimate(e: &Estimate, by: Breakdown) -> String {
    let c = &e.currency;
    let mut out = format!(
        "## ddbcost estimate: {}\n\n**Monthly total: {} {} {c}**\n\n",
        cell(&e.workload),
        money::symbol(c),
        money::display(e.total, c)
    );
    let share = |cost: Decimal| {
        crate::engine::percent_of(cost, e.total)
            .map_or_else(|| "-".to_string(), |p| format!("{} %", p.round_dp(1)))
    };
    match by {
        Breakdown::Line => {
            let rows: Vec<Vec<String>> = e
                .line_items
                .iter()
                .map(|l| {
                    vec![
                        l.table.to_string(),
                        l.label.to_string(),
                        l.quantity
                            .map_or_else(|| "depends on usage".to_string(), super::money::quantity),
                        l.unit.to_string(),
                        l.unit_price_text(),
                        l.cost
                            .map_or_else(|| l.unknown_cost_text(), |v| money::display(v, c)),
                    ]
                })
                .collect();
            out.push_str(&table(
                &[
                    "Table",
                    "Line item",
                    "Quantity",
                    "Unit",
                    "Unit price",
                    &format!("Monthly ({c})"),
                ],
                &[false, false, true, false, true, true],
                &rows,
            ));
        }
        Breakdown::Pattern => {
            let rows: Vec<Vec<String>> = e
                .pattern_costs()
                .into_iter()
                .map(|(p, v)| vec![p, money::display(v, c), share(v)])
                .collect();
            out.push_str(&table(
                &["Access pattern", &format!("Monthly ({c})"), "Share"],
                &[false, true, true],
                &rows,
            ));
        }
        Breakdown::Region => {
            let rows: Vec<Vec<String>> = e
                .region_costs()
                .into_iter()
                .map(|(r, v)| vec![r, money::display(v, c), share(v)])
                .collect();
            out.push_str(&table(
                &["Region", &format!("Monthly ({c})"), "Share"],
                &[false, true, true],
                &rows,
            ));
        }
        Breakdown::Component => {
            let rows: Vec<Vec<String>> = e
                .component_costs()
                .into_iter()
                .map(|(k, v)| vec![k.name().to_string(), money::display(v, c), share(v)])
                .collect();
            out.push_str(&table(
                &["Component", &format!("Monthly ({c})"), "Share"],
                &[false, true, true],
                &rows,
            ));
        }
    }
    if !e.excluded.is_empty() {
        out.push_str(&format!(
            "\nNot in the total (depends on usage): {}.\n",
            cell(&e.excluded.join(", "))
        ));
    }
    for w in &e.warnings {
        out.push_str(&format!("\n> warning: {}\n", cell(&w.to_string())));
    }
    out.push('\n');
    out.push_str(&footer(e));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_escape_pipes_and_newlines() {
        assert_eq!(cell("a|b\nc"), "a\\|b c");
        let t = table(&["x|y"], &[true], &[vec!["1|2".into()]]);
        assert_eq!(t, "| x\\|y |\n|--:|\n| 1\\|2 |\n");
    }

    #[test]
    fn cells_show_html_links_and_images_as_text() {
        assert_eq!(
            cell("<img src=x onerror=alert(1)> & ![t](http://x)"),
            "&lt;img src=x onerror=alert(1)&gt; &amp; \\!\\[t\\](http://x)"
        );
        // In a code span the text is already literal: only `|` is escaped.
        assert_eq!(cell("GSI `<a|b>` reads"), "GSI `<a\\|b>` reads");
    }
}
