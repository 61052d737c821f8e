//! The AWS free tier, applied only when asked (`--free-tier`), as credit lines in each region
//! the workload uses, from that region's price table: 25 GB of Standard-class storage, 2.5 M stream read requests, and 25 RCU + 25 WCU of
//! provisioned Standard-class capacity per month (the allowance × the month's hours).

use std::sync::Arc;

use rust_decimal::Decimal;

use super::EngineError;
use super::checked;
use super::estimate::{Basis, Component, LineItem};
use super::label::{FreeAllowance, Label};
use super::line::cat;
use super::line::{LineSpec, Pricer, millions};
use super::usage::Weights;
use crate::model::{PriceKey, TableClass, Workload};

pub(super) fn lines(
    pricer: &Pricer<'_>,
    _workload: &Workload,
    lines: &[LineItem],
) -> Result<Vec<LineItem>, EngineError> {
    // Each region's allowance is its own (the price list states it per region, and AWS applies
    // it to "all tables in a region"): the primary region first, then the others in the order
    // their first line appears.
    let mut regions: Vec<&Arc<str>> = vec![pricer.primary_region()];
    for line in lines {
        if !regions.iter().any(|r| ***r == *line.region) {
            regions.push(&line.region);
        }
    }
    let mut out = Vec::new();
    for region in regions {
        out.extend(region_lines(pricer, region, lines)?);
    }
    Ok(out)
}

/// The credits in one region: each allowance against the region's eligible usage.
fn region_lines(
    pricer: &Pricer<'_>,
    region: &Arc<str>,
    lines: &[LineItem],
) -> Result<Vec<LineItem>, EngineError> {
    let hours = pricer.settings.month_hours;
    let used = |price_key: &PriceKey| -> Result<Decimal, EngineError> {
        let path = price_key.path();
        checked::sum(
            lines
                .iter()
                // Credits (reservations covering capacity) are not usage.
                .filter(|l| {
                    *l.region == **region && l.price_key == path && !l.unit_price.is_sign_negative()
                })
                .filter_map(|l| l.quantity),
            "free tier",
        )
    };
    let eligible = [
        PriceKey::StorageGbMonth(TableClass::Standard),
        PriceKey::StreamReadsPerMillion,
        PriceKey::RcuHour(TableClass::Standard),
        PriceKey::WcuHour(TableClass::Standard),
    ];
    let mut any = false;
    for key in &eligible {
        any |= !used(key)?.is_zero();
    }
    let primary = *region == *pricer.primary_region();
    if !any && !primary {
        return Ok(Vec::new());
    }
    let table = pricer.table_for(region, "free tier")?;
    let allowance = table
        .free_tier
        .as_ref()
        .ok_or_else(|| EngineError::MissingFreeTier {
            table_id: table.id.clone(),
        })?;
    let credits = [
        (
            "storage",
            FreeAllowance::Storage {
                gb: allowance.storage_gb,
            },
            PriceKey::StorageGbMonth(TableClass::Standard),
            allowance.storage_gb,
            "GB-month",
        ),
        (
            "stream-reads",
            FreeAllowance::StreamReads,
            PriceKey::StreamReadsPerMillion,
            millions(allowance.stream_reads),
            "M stream reads",
        ),
        (
            "rcu",
            FreeAllowance::Rcu,
            PriceKey::RcuHour(TableClass::Standard),
            checked::mul(allowance.rcu, hours, "free tier")?,
            "RCU-hour",
        ),
        (
            "wcu",
            FreeAllowance::Wcu,
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
        let key = if primary {
            cat!("account/free-tier/", suffix)
        } else {
            cat!("account/free-tier/", region, "/", suffix)
        };
        let label = Label::FreeTier {
            allowance: label,
            region: (!primary).then(|| Arc::clone(region)),
        };
        let price = pricer.price(region, &price_key, &key)?;
        out.push(pricer.line_at(
            LineSpec {
                key,
                table: &Arc::from("(account)"),
                component: Component::FreeTier,
                label,
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
