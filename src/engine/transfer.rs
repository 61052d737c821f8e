//! Data transfer out to the internet: each table's line at the first tier's price (the GB its
//! patterns send, `transfer_out` per request, plus what the table states a month), then per
//! region the tiers past the first, which count the region's whole month (every table's
//! transfer together, as AWS tiers an account's usage), and with `--free-tier` the monthly
//! allowance (AWS: 100 GB across services and regions), which the tiers count from.
//! Replication between regions is `replicas`' (inter-region transfer, not to the internet).

use std::sync::Arc;

use rust_decimal::Decimal;

use super::EngineError;
use super::checked;
use super::estimate::{Basis, Component, LineItem};
use super::label::{FreeAllowance, Label};
use super::line::{LineSpec, Pricer, cat};
use super::sizes::stated_gb;
use super::usage::{Metric, TableUsage, Weights};
use crate::model::{PriceKey, Table};

/// The table's transfer-out line, if the table or a pattern states transfer out.
pub(super) fn table_line(
    pricer: &Pricer<'_>,
    table: &Table,
    usage: &TableUsage,
) -> Result<Option<LineItem>, EngineError> {
    let from_patterns = table.patterns.iter().any(|p| p.transfer_out.is_some());
    if !from_patterns && table.transfer_out.is_none() {
        return Ok(None);
    }
    let settings = pricer.settings;
    let t = &table.name;
    let sent = checked::div(usage.total(Metric::BytesOut), settings.gb.gb_bytes(), t)?;
    let stated = table
        .transfer_out
        .map(|size| stated_gb(size, settings, t))
        .transpose()?;
    let gb = checked::add(sent, stated.unwrap_or_default(), t)?;
    // What the table states is no pattern's: then the cost is not split over the patterns.
    let weights = if stated.is_some() {
        Weights::NONE
    } else {
        usage.weights(Metric::BytesOut)
    };
    let region = pricer.region_of(table);
    pricer
        .line(
            LineSpec {
                key: cat!(t, "/transfer-out"),
                table: t,
                component: Component::Transfer,
                label: Label::TransferOut,
                region: &region,
                unit: "GB",
                basis: Basis::Derived,
            },
            &PriceKey::TransferOutGb,
            Some(gb),
            weights,
        )
        .map(Some)
}

/// The account's transfer-out lines: the free allowance (with `--free-tier`), then each
/// region's tiers past the first.
pub(super) fn account_lines(
    pricer: &Pricer<'_>,
    lines: &[LineItem],
) -> Result<Vec<LineItem>, EngineError> {
    let path = PriceKey::TransferOutGb.path();
    // Each region's month, in the order its first line appears.
    let mut regions: Vec<(Arc<str>, Decimal, Decimal)> = Vec::new();
    for l in lines.iter().filter(|l| l.price_key == path) {
        let Some(gb) = l.quantity else { continue };
        match regions.iter_mut().find(|(r, _, _)| **r == *l.region) {
            Some((_, total, _)) => *total = checked::add(*total, gb, "transfer out")?,
            None => regions.push((Arc::clone(&l.region), gb, l.unit_price)),
        }
    }
    let mut out = Vec::new();
    if regions.is_empty() {
        return Ok(out);
    }
    let account: Arc<str> = Arc::from("(account)");
    let mut free_left = if pricer.settings.free_tier {
        allowance(pricer, &regions)?
    } else {
        Decimal::ZERO
    };
    let primary = Arc::clone(pricer.primary_region());
    for (region, total, first) in &regions {
        let free = free_left.min(*total);
        free_left = checked::sub(free_left, free, "transfer out")?;
        if free > Decimal::ZERO {
            let here = **region == *primary;
            out.push(pricer.line_at(
                LineSpec {
                    key: if here {
                        "account/free-tier/transfer-out".to_string()
                    } else {
                        cat!("account/free-tier/", region, "/transfer-out")
                    },
                    table: &account,
                    component: Component::FreeTier,
                    label: Label::FreeTier {
                        allowance: FreeAllowance::TransferOut { gb: free },
                        region: (!here).then(|| Arc::clone(region)),
                    },
                    region,
                    unit: "GB",
                    basis: Basis::Derived,
                },
                Decimal::ZERO.saturating_sub(*first),
                path.clone(),
                Some(free),
                Weights::NONE,
            )?);
        }
        // The tiers count what is billed: the month past the free allowance.
        let billed = checked::sub(*total, free, "transfer out")?;
        let tiers = &pricer.table_for(region, "transfer out")?.transfer_out_tiers;
        for (i, (from, price)) in tiers.iter().enumerate() {
            let to = tiers.get(i.saturating_add(1)).map(|(next, _)| *next);
            let past = checked::sub(billed, *from, "transfer out")?;
            let width = match to {
                Some(to) => checked::sub(to, *from, "transfer out")?,
                None => past,
            };
            let gb = past.min(width);
            if gb <= Decimal::ZERO {
                break;
            }
            let difference = checked::sub(*price, *first, "transfer out")?;
            out.push(pricer.line_at(
                LineSpec {
                    key: cat!(
                        "account/transfer-out/",
                        region,
                        "/from-",
                        from.normalize().to_string()
                    ),
                    table: &account,
                    component: Component::Transfer,
                    label: Label::TransferOutTier {
                        region: Arc::clone(region),
                        from: *from,
                        to,
                        price: *price,
                        first: *first,
                    },
                    region,
                    unit: "GB",
                    basis: Basis::Derived,
                },
                difference,
                path.clone(),
                Some(gb),
                Weights::NONE,
            )?);
        }
    }
    Ok(out)
}

/// The monthly free allowance: the primary table's, else the first region's that states it.
fn allowance(
    pricer: &Pricer<'_>,
    regions: &[(Arc<str>, Decimal, Decimal)],
) -> Result<Decimal, EngineError> {
    let primary = &pricer.book.primary;
    std::iter::once(primary)
        .chain(regions.iter().filter_map(|(r, _, _)| pricer.book.region(r)))
        .find_map(|t| t.transfer_out_free_gb)
        .ok_or_else(|| EngineError::MissingTransferAllowance {
            table_id: primary.id.clone(),
        })
}
