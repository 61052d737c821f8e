//! The AWS free tier, applied only when asked (`--free-tier`), as credit lines in the primary
//! region: 25 GB of Standard-class storage, 2.5 M stream read requests, and 25 RCU + 25 WCU of
//! provisioned Standard-class capacity per month (the allowance × the month's hours).

use std::borrow::Cow;
use std::sync::Arc;

use rust_decimal::Decimal;

use super::EngineError;
use super::checked;
use super::estimate::{Basis, Component, LineItem};
use super::line::cat;
use super::line::{LineSpec, Pricer, millions};
use super::usage::Weights;
use crate::model::{PriceKey, TableClass, Workload};

pub fn lines(
    pricer: &Pricer<'_>,
    _workload: &Workload,
    lines: &[LineItem],
) -> Result<Vec<LineItem>, EngineError> {
    let primary = &pricer.book.primary;
    let allowance = primary
        .free_tier
        .as_ref()
        .ok_or_else(|| EngineError::MissingFreeTier {
            table_id: primary.id.clone(),
        })?;
    let region = pricer.primary_region();
    let hours = pricer.settings.month_hours;
    let used = |price_key: &PriceKey| -> Result<Decimal, EngineError> {
        let path = price_key.path();
        checked::sum(
            lines
                .iter()
                .filter(|l| *l.region == **region && l.price_key == path)
                .filter_map(|l| l.quantity),
            "free tier",
        )
    };
    let storage_label = format!(
        "Free tier: {} GB storage (Standard)",
        allowance.storage_gb.normalize()
    );
    let credits = [
        (
            "storage",
            storage_label.as_str(),
            PriceKey::StorageGbMonth(TableClass::Standard),
            allowance.storage_gb,
            "GB-month",
        ),
        (
            "stream-reads",
            "Free tier: stream read requests",
            PriceKey::StreamReadsPerMillion,
            millions(allowance.stream_reads),
            "M stream reads",
        ),
        (
            "rcu",
            "Free tier: provisioned RCU (Standard)",
            PriceKey::RcuHour(TableClass::Standard),
            checked::mul(allowance.rcu, hours, "free tier")?,
            "RCU-hour",
        ),
        (
            "wcu",
            "Free tier: provisioned WCU (Standard)",
            PriceKey::WcuHour(TableClass::Standard),
            checked::mul(allowance.wcu, hours, "free tier")?,
            "WCU-hour",
        ),
    ];
    let mut out = Vec::new();
    for (suffix, label, price_key, free, unit) in credits {
        let used = used(&price_key)?;
        if used.is_zero() {
            continue;
        }
        let credited = used.min(free);
        let key = cat!("account/free-tier/", suffix);
        let price = pricer.price(region, &price_key, &key)?;
        out.push(pricer.line_at(
            LineSpec {
                key,
                table: &Arc::from("(account)"),
                component: Component::FreeTier,
                label: Cow::Owned(label.to_string()),
                region,
                unit,
                basis: Basis::Derived,
            },
            Decimal::ZERO.saturating_sub(price),
            price_key.path(),
            Some(credited),
            Weights::NONE,
        )?);
    }
    Ok(out)
}
