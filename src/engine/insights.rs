//! CloudWatch Contributor Insights on a table and its GSIs (`contributor_insights: true`):
//! DynamoDB makes 2 rules for a table or GSI — its most accessed and most throttled
//! partition keys — and 2 more where it has a sort key (`…-PKC-`, `-PKT-`, `-SKC-`, `-SKT-`).
//! Each rule is billed for the month, and each event it matches: the most-accessed rules
//! match every request that reaches the table or GSI, the most-throttled ones only
//! throttled requests (none estimated). Prices are CloudWatch's, in the price table's
//! `cloudwatch` section.

use std::sync::Arc;

use rust_decimal::Decimal;

use super::EngineError;
use super::checked;
use super::estimate::{Basis, Component, LineItem};
use super::label::Label;
use super::line::{LineSpec, Pricer, cat, millions};
use super::usage::Weights;
use crate::model::{PriceKey, Table};

/// The rule and event lines of the table's and its GSIs' Contributor Insights.
pub(super) fn lines(pricer: &Pricer<'_>, table: &Table) -> Result<Vec<LineItem>, EngineError> {
    let mut out = Vec::new();
    let t: Arc<str> = Arc::clone(&table.name);
    let hours = pricer.settings.month_hours;
    // Every write reaches the table and each GSI that holds the item; reads reach what they
    // query.
    let mut writes = Decimal::ZERO;
    for p in table.patterns.iter().filter(|p| !p.operation.is_read()) {
        writes = checked::add(writes, checked::some(p.rate.monthly(hours), &t)?, &t)?;
    }
    let reads_of = |index: Option<&str>| -> Result<Decimal, EngineError> {
        let mut n = Decimal::ZERO;
        for p in table
            .patterns
            .iter()
            .filter(|p| p.operation.is_read() && p.index.as_deref() == index)
        {
            n = checked::add(n, checked::some(p.rate.monthly(hours), &t)?, &t)?;
        }
        Ok(n)
    };
    let mut targets: Vec<(Option<Arc<str>>, bool, Decimal)> = Vec::new();
    if table.contributor_insights {
        let sort = table.key.as_ref().is_some_and(|k| k.sort.is_some());
        targets.push((None, sort, checked::add(reads_of(None)?, writes, &t)?));
    }
    for index in table.indexes.iter().filter(|i| i.contributor_insights) {
        let sort = index.key.as_ref().is_some_and(|k| k.sort.is_some());
        let reads = reads_of(Some(&index.name))?;
        targets.push((
            Some(Arc::clone(&index.name)),
            sort,
            checked::add(reads, writes, &t)?,
        ));
    }
    let region = pricer.region_of(table);
    for (index, sort, requests) in targets {
        let rules: u32 = if sort { 4 } else { 2 };
        let base = match &index {
            None => cat!(t, "/contributor-insights"),
            Some(i) => cat!(t, "/gsi/", i, "/contributor-insights"),
        };
        let spec = |suffix: &str, label, unit| LineSpec {
            key: cat!(base, suffix),
            table: &t,
            component: Component::ContributorInsights,
            label,
            region: &region,
            unit,
            basis: Basis::Derived,
        };
        out.push(pricer.line(
            spec(
                "/rules",
                Label::InsightsRules {
                    index: index.clone(),
                    rules,
                },
                "rule-month",
            ),
            &PriceKey::InsightsRuleMonth,
            Some(Decimal::from(rules)),
            Weights::NONE,
        )?);
        // The most-accessed rules (half of them) each match every request.
        let events = checked::mul(requests, Decimal::from(rules / 2), &base)?;
        out.push(pricer.line(
            spec(
                "/events",
                Label::InsightsEvents {
                    index,
                    requests,
                    rules,
                },
                "M events",
            ),
            &PriceKey::InsightsEventsPerMillion,
            Some(millions(events)),
            Weights::NONE,
        )?);
    }
    Ok(out)
}
