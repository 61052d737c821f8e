//! A table's tenants (`tenants:`): the key attribute and the pattern that name a tenant, and
//! before launch how many there are and how they spread — tiers of alike tenants with their
//! shares of the requests and the bytes (per pattern where a tier's mix differs), or a count
//! spread by a Zipf exponent. Shares of a table add up to 1 exactly, or the file is refused.

use rust_decimal::Decimal;

use super::context::Reader;
use super::raw::{RawTable, RawTenantTier};
use super::yaml::position;
use crate::error::Error;
use crate::model::{TenantSpread, TenantTier, Tenants};

/// The most tenants a table's spread may state (each is priced on its own under Zipf).
pub(crate) const MAX_TENANTS: u32 = 1_000_000;

/// The largest Zipf exponent: past it the first tenant takes practically everything.
const MAX_ZIPF: Decimal = Decimal::from_parts(4, 0, 0, false, 0);

pub(super) fn tenants(rd: &Reader<'_>, t: &RawTable, path: &str) -> Result<Option<Tenants>, Error> {
    let Some(raw) = &t.tenants else {
        return Ok(None);
    };
    let path = format!("{path}.tenants");
    if raw.key.value.trim().is_empty() {
        return Err(rd.err(
            &format!("{path}.key"),
            position(&raw.key),
            "the tenant's key attribute is empty",
            "Consider the attribute that names the tenant, e.g. `key: PK`.",
        ));
    }
    // The pattern is compiled where it is used (`allocate`, on the command line): checked
    // here there, so a typo is refused where it is written. The page in the browser never
    // reads logs and leaves the regular-expression engine out of its download (#30's budget).
    #[cfg(not(target_arch = "wasm32"))]
    if let Err(e) = regex::Regex::new(&raw.pattern.value) {
        return Err(rd.err(
            &format!("{path}.pattern"),
            position(&raw.pattern),
            format!("the pattern does not compile ({e})"),
            "Consider a regular expression whose first group is the tenant, e.g. `ORG#([^#]+)`.",
        ));
    }
    let spread = match (raw.tiers.is_empty(), &raw.count, &raw.zipf) {
        (false, None, None) => TenantSpread::Tiers(tiers(rd, t, raw, &path)?),
        (true, Some(count), Some(zipf)) => {
            let at = format!("{path}.count");
            let n = rd.whole(Some(count), &at, "`count`")?.unwrap_or_default();
            let n = u32::try_from(n.mantissa())
                .ok()
                .filter(|n| (1..=MAX_TENANTS).contains(n))
                .ok_or_else(|| {
                    rd.err(
                        &at,
                        position(count),
                        format!(
                            "a table has 1 to {MAX_TENANTS} tenants, not {}",
                            n.normalize()
                        ),
                        "Consider the number of tenants you plan for, e.g. `count: 2000`.",
                    )
                })?;
            let at = format!("{path}.zipf");
            let exponent = rd.count(Some(zipf), &at)?.unwrap_or_default();
            if exponent > MAX_ZIPF {
                return Err(rd.err(
                    &at,
                    position(zipf),
                    format!("a Zipf exponent from 0 to 4, not {}", exponent.normalize()),
                    "Consider `zipf: 1` (the k-th busiest tenant takes 1/k of the first's traffic) or `zipf: 0` (all alike).",
                ));
            }
            TenantSpread::Zipf { count: n, exponent }
        }
        _ => {
            return Err(rd.err(
                &path,
                position(&raw.key),
                "tenants spread either by `tiers`, or by `count` and `zipf`",
                "Consider `tiers: { enterprise: { count: 10, share: 40% }, … }`, or `count: 2000` with `zipf: 1.1`.",
            ));
        }
    };
    Ok(Some(Tenants {
        key: raw.key.value.clone(),
        pattern: raw.pattern.value.clone(),
        spread,
    }))
}

fn tiers(
    rd: &Reader<'_>,
    t: &RawTable,
    raw: &super::raw::RawTenants,
    path: &str,
) -> Result<Vec<TenantTier>, Error> {
    let mut out = Vec::new();
    let mut total: u64 = 0;
    for (name, tier) in &raw.tiers {
        let at = format!("{path}.tiers.{name}");
        out.push(tier_of(rd, t, name, tier, &at)?);
        total = total.saturating_add(out.last().map_or(0, |t: &TenantTier| u64::from(t.count)));
    }
    if total > u64::from(MAX_TENANTS) {
        return Err(rd.err(
            &format!("{path}.tiers"),
            position(&raw.key),
            format!("a table has at most {MAX_TENANTS} tenants, not {total}"),
            "Consider fewer, larger tiers.",
        ));
    }
    let sum = |f: &dyn Fn(&TenantTier) -> Decimal| {
        out.iter()
            .try_fold(Decimal::ZERO, |a, t| a.checked_add(f(t)))
            .unwrap_or(Decimal::MAX)
    };
    let check = |what: &str, s: Decimal| {
        if s == Decimal::ONE {
            return Ok(());
        }
        Err(rd.err(
            &format!("{path}.tiers"),
            position(&raw.key),
            format!("the tiers' {what} add up to {}, not 1", s.normalize()),
            "Consider shares that together make the whole table (e.g. 40% + 40% + 20%).",
        ))
    };
    check("shares", sum(&|t| t.share))?;
    check("storage shares", sum(&|t| t.storage_share))?;
    let mut named: Vec<&String> = out
        .iter()
        .flat_map(|t| t.patterns.iter().map(|(p, _)| p))
        .collect();
    named.sort();
    named.dedup();
    for p in named {
        check(&format!("shares of pattern `{p}`"), sum(&|t| t.share_of(p)))?;
    }
    Ok(out)
}

fn tier_of(
    rd: &Reader<'_>,
    t: &RawTable,
    name: &str,
    tier: &RawTenantTier,
    at: &str,
) -> Result<TenantTier, Error> {
    let count = rd
        .whole(Some(&tier.count), &format!("{at}.count"), "`count`")?
        .unwrap_or_default();
    let count = u32::try_from(count.mantissa())
        .ok()
        .filter(|n| (1..=MAX_TENANTS).contains(n))
        .ok_or_else(|| {
            rd.err(
                &format!("{at}.count"),
                position(&tier.count),
                format!(
                    "a tier has 1 to {MAX_TENANTS} tenants, not {}",
                    count.normalize()
                ),
                "Consider the number of tenants in the tier, e.g. `count: 10`.",
            )
        })?;
    let share = rd.share(Some(&tier.share), &format!("{at}.share"), Decimal::ZERO)?;
    let storage_share = match &tier.storage_share {
        Some(s) => rd.share(Some(s), &format!("{at}.storage_share"), Decimal::ZERO)?,
        None => share,
    };
    let mut patterns = Vec::new();
    for (p, s) in &tier.patterns {
        let here = format!("{at}.patterns.{p}");
        if !t.patterns.by_name.contains_key(p) {
            let names: Vec<&str> = t.patterns.by_name.keys().map(String::as_str).collect();
            return Err(rd.err(
                &here,
                position(s),
                format!("the table has no pattern `{p}`"),
                format!("Consider one of its patterns: {}.", names.join(", ")),
            ));
        }
        patterns.push((p.clone(), rd.share(Some(s), &here, Decimal::ZERO)?));
    }
    Ok(TenantTier {
        name: name.to_string(),
        count,
        share,
        storage_share,
        patterns,
    })
}
