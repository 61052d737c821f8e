//! Shows an estimate in another currency: every cost, unit price and attributed share is
//! multiplied by one exact rate, the total is re-added from the converted lines (their exact sum, so the
//! lines still add up to it), and the list prices stay on each line in the price table's
//! currency for exports that keep both (FOCUS `PricingCurrency…` columns).

use super::EngineError;
use super::checked;
use super::estimate::Estimate;
use crate::model::Fx;

/// `estimate` with its costs in `fx.to`.
///
/// # Errors
/// The estimate is not priced in `fx.from` (or was converted already), or a converted figure
/// is too large to hold exactly.
pub(crate) fn convert(mut estimate: Estimate, fx: &Fx) -> Result<Estimate, EngineError> {
    if estimate.fx.is_some() || estimate.currency != fx.from {
        return Err(EngineError::FxMismatch {
            priced_in: estimate.currency,
            from: fx.from.clone(),
        });
    }
    let rate = fx.rate;
    let (mut total, mut exact) = (rust_decimal::Decimal::ZERO, None);
    for line in &mut estimate.line_items {
        let context = format!("{} converted to {}", line.key, fx.to);
        line.unit_price = checked::mul(line.pricing_unit_price, rate, &context)?;
        line.cost = match line.pricing_cost {
            Some(cost) => Some(checked::mul(cost, rate, &context)?),
            None => None,
        };
        // Shares are converted one by one, and the last takes the remainder, so that they
        // still add up to the line's converted cost exactly (as `line::attribute` does).
        if let Some(cost) = line.cost
            && let Some((last, rest)) = line.attribution.split_last_mut()
        {
            let mut given = rust_decimal::Decimal::ZERO;
            for share in rest {
                share.cost = checked::mul(share.cost, rate, &context)?;
                given = checked::add(given, share.cost, &context)?;
            }
            last.cost = checked::sub(cost, given, &context)?;
        }
        if let Some(cost) = line.cost {
            checked::some(
                super::exact_sum::add_to(&mut total, &mut exact, cost),
                "total",
            )?;
        }
    }
    estimate.total = total;
    if let Some(sp) = &estimate.savings_plan {
        estimate.savings_plan = Some(sp.converted(rate).ok_or_else(|| EngineError::Overflow {
            context: format!("the savings plan converted to {}", fx.to),
        })?);
    }
    estimate.currency.clone_from(&fx.to);
    estimate.fx = Some(fx.clone());
    Ok(estimate)
}

/// `book` with every price in `fx.to`: each list price (and transfer tier) × the rate. Costs
/// are linear in prices, so what is priced with the converted book is what converting each
/// cost would give; Savings Plan rates are shares, not money, and stay.
///
/// # Errors
/// A table not priced in `fx.from`, or a converted price too large to hold exactly.
pub(crate) fn convert_book(
    mut book: crate::model::PriceBook,
    fx: &Fx,
) -> Result<crate::model::PriceBook, EngineError> {
    for table in std::iter::once(&mut book.primary).chain(book.others.iter_mut()) {
        if table.currency != fx.from {
            return Err(EngineError::FxMismatch {
                priced_in: table.currency.clone(),
                from: fx.from.clone(),
            });
        }
        let context = format!("price table `{}` converted to {}", table.id, fx.to);
        for price in table.prices.values_mut() {
            *price = checked::mul(*price, fx.rate, &context)?;
        }
        for tier in &mut table.transfer_out_tiers {
            tier.1 = checked::mul(tier.1, fx.rate, &context)?;
        }
        table.currency.clone_from(&fx.to);
    }
    Ok(book)
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;
    use std::sync::Arc;

    use rust_decimal::Decimal;

    use super::*;
    use crate::engine::{Attribution, Basis, Component, LineItem, PriceTableRef};
    use crate::model::Settings;

    fn d(s: &str) -> Decimal {
        s.parse().unwrap()
    }

    fn line(key: &str, quantity: &str, price: &str, shares: &[&str]) -> LineItem {
        let cost = d(quantity).checked_mul(d(price)).unwrap();
        LineItem {
            key: key.into(),
            table: Arc::from("t"),
            component: Component::Reads,
            label: crate::engine::label::Label::Text(Cow::Borrowed("reads")),
            region: Arc::from("us-east-1"),
            quantity: Some(d(quantity)),
            unit: "M RRU",
            unit_price: d(price),
            pricing_unit_price: d(price),
            price_key: Cow::Borrowed("standard.read_per_million"),
            price_missing_from: None,
            cost: Some(cost),
            pricing_cost: Some(cost),
            basis: Basis::Derived,
            attribution: shares
                .iter()
                .enumerate()
                .map(|(i, s)| Attribution {
                    pattern: Arc::from(format!("p{i}").as_str()),
                    cost: d(s),
                })
                .collect(),
        }
    }

    fn estimate(lines: Vec<LineItem>) -> Estimate {
        let total = lines.iter().filter_map(|l| l.cost).sum();
        Estimate {
            workload: "w".into(),
            currency: "USD".into(),
            fx: None,
            price_table: PriceTableRef {
                id: "aws-us-east-1".into(),
                region: "us-east-1".into(),
                currency: "USD".into(),
                source: "s".into(),
                effective: "2024-11-01".into(),
            },
            other_price_tables: Vec::new(),
            settings: Settings::default(),
            line_items: lines,
            total,
            excluded: Vec::new(),
            warnings: Vec::new(),
            tags: Vec::new(),
            savings_plan: None,
            partitions: Vec::new(),
        }
    }

    fn fx(rate: &str) -> Fx {
        Fx {
            from: "USD".into(),
            to: "EUR".into(),
            rate: d(rate),
            date: "2026-11-30".into(),
            source: "test".into(),
        }
    }

    #[test]
    fn costs_prices_and_shares_convert_exactly() {
        // 3 M RRU × $0.125 = $0.375, split 0.125 / 0.25 over two patterns.
        let e = estimate(vec![
            line("a", "3", "0.125", &["0.125", "0.25"]),
            line("b", "2", "0.625", &[]),
        ]);
        let e = convert(e, &fx("0.92")).unwrap();
        let a = &e.line_items[0];
        // $0.125 × 0.92 = €0.115 per million; $0.375 × 0.92 = €0.345.
        assert_eq!(a.unit_price, d("0.115"));
        assert_eq!(a.pricing_unit_price, d("0.125"));
        assert_eq!(a.cost, Some(d("0.345")));
        assert_eq!(a.pricing_cost, Some(d("0.375")));
        // Shares: 0.125 × 0.92 = 0.115; the last takes 0.345 − 0.115 = 0.23 (= 0.25 × 0.92).
        assert_eq!(a.attribution[0].cost, d("0.115"));
        assert_eq!(a.attribution[1].cost, d("0.23"));
        // Total: 0.345 + 2 × 0.625 × 0.92 (= 1.15) = €1.495.
        assert_eq!(e.total, d("1.495"));
        assert_eq!(e.currency, "EUR");
    }

    #[test]
    fn refuses_a_rate_from_another_currency_or_a_second_conversion() {
        let e = convert(estimate(vec![line("a", "1", "1", &[])]), &fx("0.92")).unwrap();
        assert!(convert(e.clone(), &fx("0.92")).is_err());
        let mut jpy = fx("0.0061");
        jpy.from = "JPY".into();
        assert!(convert(estimate(vec![]), &jpy).is_err());
    }

    #[test]
    fn an_overflowing_conversion_is_an_error_not_a_panic() {
        let e = estimate(vec![line("a", "1", "79228162514264337593543950335", &[])]);
        assert!(convert(e, &fx("2")).is_err());
    }
}
