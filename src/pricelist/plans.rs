//! Reading the Savings Plans price list for `AWSDatabaseSavingsPlans` — a region's
//! `index.json` (`terms.savingsPlan[].rates[]`) or its CSV twin (`index.csv`: metadata rows,
//! then `DiscountedRate`, `DiscountedUsageType`, `DiscountedOperation`, … columns) — into the
//! discounted rates of each plan, and the region index (`region_index.json`) into the region
//! files it names. Which rates price DynamoDB, and what fraction of list price each is, is
//! decided in `super::import` against the list prices of the same run.

use std::collections::BTreeMap;

use rust_decimal::Decimal;
use serde::Deserialize;

use super::parse::decimal;
use crate::error::Error;

/// One discounted rate of a plan: `price` per `unit` of `usage_type` under `operation`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanRate {
    /// The plan's SKU (`DZCHH8H3SPVYZ2Z4`).
    pub plan: String,
    /// The plan's term in years, where the list states it.
    pub years: Option<u32>,
    /// `No Upfront`, … where the list states it.
    pub purchase_option: Option<String>,
    /// `AmazonDynamoDB`, `AmazonRDS`, …
    pub service: String,
    /// With its region prefix (`EU-WriteRequestUnits`).
    pub usage_type: String,
    pub operation: String,
    /// `DiscountedRegionCode` (CSV only).
    pub region_code: Option<String>,
    /// The discounted price per single unit (a request unit, a unit-hour).
    pub price: Decimal,
    pub currency: Option<String>,
}

/// One region's file named by a region index: its region code and the URL path AWS serves it
/// at (`/savingsPlan/v1.0/aws/AWSDatabaseSavingsPlans/current/eu-west-1/index.json`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegionFile {
    pub region: String,
    pub url: String,
}

#[derive(Deserialize)]
struct RawPlanList {
    version: Option<String>,
    #[serde(rename = "publicationDate")]
    publication_date: Option<String>,
    #[serde(default)]
    products: Vec<RawPlanProduct>,
    terms: RawPlanTerms,
}

#[derive(Deserialize)]
struct RawPlanProduct {
    sku: String,
    #[serde(default)]
    attributes: BTreeMap<String, String>,
}

#[derive(Deserialize)]
struct RawPlanTerms {
    #[serde(rename = "savingsPlan")]
    savings_plan: Vec<RawPlanTerm>,
}

#[derive(Deserialize)]
struct RawPlanTerm {
    sku: String,
    #[serde(rename = "leaseContractLength")]
    lease: Option<RawLease>,
    #[serde(default)]
    rates: Vec<RawRate>,
}

#[derive(Deserialize)]
struct RawLease {
    duration: Option<serde_json::Number>,
    unit: Option<String>,
}

#[derive(Deserialize)]
struct RawRate {
    #[serde(rename = "discountedServiceCode", default)]
    service: String,
    #[serde(rename = "discountedUsageType", default)]
    usage_type: String,
    #[serde(rename = "discountedOperation", default)]
    operation: String,
    #[serde(rename = "discountedRate")]
    rate: RawDiscountedRate,
}

#[derive(Deserialize)]
struct RawDiscountedRate {
    price: String,
    currency: Option<String>,
}

/// What a Savings Plans document held.
#[derive(Debug, Clone, Default)]
pub(crate) struct PlanList {
    pub version: Option<String>,
    pub publication_date: Option<String>,
    pub rates: Vec<PlanRate>,
}

fn not_a_plan_list(file: &str, why: &str) -> Error {
    Error::input(format!(
        "`{file}` is not an AWS Savings Plans price list: {why}"
    ))
    .file(file)
    .help("Consider a region's file of the AWSDatabaseSavingsPlans offer (https://pricing.us-east-1.amazonaws.com/savingsPlan/v1.0/aws/AWSDatabaseSavingsPlans/current/region_index.json names them), as JSON or CSV.")
}

/// A lease of `duration` `unit`s in whole years (`1 year`, `12 months`, `3 yr`).
fn years(duration: &str, unit: Option<&str>) -> Option<u32> {
    let n: u32 = duration.trim().parse().ok()?;
    match unit.map(|u| u.trim().to_ascii_lowercase()).as_deref() {
        None | Some("" | "year" | "years" | "yr" | "yrs") => Some(n),
        Some("month" | "months") if n.is_multiple_of(12) => n.checked_div(12),
        _ => None,
    }
}

/// A region's plan file as JSON (`value` is the whole document).
///
/// # Errors
/// A document without `terms.savingsPlan`, or a rate that is not a decimal.
pub(crate) fn from_json(value: serde_json::Value, file: &str) -> Result<PlanList, Error> {
    let raw: RawPlanList = serde_json::from_value(value).map_err(|e| {
        not_a_plan_list(
            file,
            &format!("no `terms.savingsPlan` list of plans with rates ({e})"),
        )
    })?;
    let option_of: BTreeMap<&str, &str> = raw
        .products
        .iter()
        .filter_map(|p| {
            p.attributes
                .get("purchaseOption")
                .map(|o| (p.sku.as_str(), o.as_str()))
        })
        .collect();
    let mut rates = Vec::new();
    for term in &raw.terms.savings_plan {
        let years = term.lease.as_ref().and_then(|l| {
            l.duration
                .as_ref()
                .and_then(|d| years(&d.to_string(), l.unit.as_deref()))
        });
        for r in &term.rates {
            rates.push(PlanRate {
                plan: term.sku.clone(),
                years,
                purchase_option: option_of.get(term.sku.as_str()).map(|o| (*o).to_string()),
                service: r.service.clone(),
                usage_type: r.usage_type.clone(),
                operation: r.operation.clone(),
                region_code: None,
                price: decimal(&r.rate.price, file, &term.sku)?,
                currency: r.rate.currency.clone(),
            });
        }
    }
    Ok(PlanList {
        version: raw.version,
        publication_date: raw.publication_date,
        rates,
    })
}

/// Whether `text` looks like a price list's CSV (its first row is `FormatVersion` metadata or
/// a header naming `DiscountedRate`).
#[must_use]
pub(crate) fn is_csv(text: &[u8]) -> bool {
    let head = &text[..text.len().min(4096)];
    let head = String::from_utf8_lossy(head);
    let first = head
        .trim_start_matches('\u{feff}')
        .lines()
        .next()
        .unwrap_or("");
    first.starts_with("\"FormatVersion\"")
        || first.starts_with("FormatVersion")
        || first.contains("DiscountedRate")
}

/// A region's plan file as CSV: the metadata rows (`"Publication Date","…"`, `"Version","…"`),
/// then a header row and one rate per row.
///
/// # Errors
/// No header with the rate columns, a row that is not CSV, or a rate that is not a decimal.
pub(crate) fn from_csv(text: &[u8], file: &str) -> Result<PlanList, Error> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text);
    let mut out = PlanList::default();
    let mut header: Option<BTreeMap<String, usize>> = None;
    for (i, row) in reader.records().enumerate() {
        let line = i.saturating_add(1);
        let row = row.map_err(|e| not_a_plan_list(file, &format!("row {line}: {e}")))?;
        let Some(columns) = &header else {
            let first = row.get(0).unwrap_or("").trim_start_matches('\u{feff}');
            match first {
                "Publication Date" => out.publication_date = row.get(1).map(str::to_string),
                "Version" => out.version = row.get(1).map(str::to_string),
                _ if row.iter().any(|c| c == "DiscountedRate") => {
                    header = Some(
                        row.iter()
                            .enumerate()
                            .map(|(i, c)| (c.to_string(), i))
                            .collect(),
                    );
                }
                _ => {}
            }
            continue;
        };
        let cell = |name: &str| -> Option<&str> {
            columns
                .get(name)
                .and_then(|&i| row.get(i))
                .filter(|c| !c.is_empty())
        };
        let required = |name: &str| {
            cell(name).ok_or_else(|| not_a_plan_list(file, &format!("row {line} has no `{name}`")))
        };
        let plan = cell("SKU").unwrap_or_default().to_string();
        out.rates.push(PlanRate {
            years: cell("LeaseContractLength")
                .and_then(|d| years(d, cell("LeaseContractLengthUnit"))),
            purchase_option: cell("PurchaseOption").map(str::to_string),
            service: required("DiscountedServiceCode")?.to_string(),
            usage_type: required("DiscountedUsageType")?.to_string(),
            operation: cell("DiscountedOperation").unwrap_or_default().to_string(),
            region_code: cell("DiscountedRegionCode").map(str::to_string),
            price: decimal(required("DiscountedRate")?, file, &plan)?,
            currency: cell("Currency").map(str::to_string),
            plan,
        });
    }
    if header.is_none() {
        return Err(not_a_plan_list(
            file,
            "no header row naming `DiscountedRate` and `DiscountedUsageType`",
        ));
    }
    Ok(out)
}

#[derive(Deserialize)]
struct RawRegionIndex {
    regions: RawRegions,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum RawRegions {
    /// The Savings Plans shape: `[{regionCode, versionUrl}]`.
    List(Vec<RawRegion>),
    /// The offers' shape: `{"us-east-1": {regionCode, currentVersionUrl}}`.
    Map(BTreeMap<String, RawRegion>),
}

#[derive(Deserialize)]
struct RawRegion {
    #[serde(rename = "regionCode")]
    region_code: String,
    #[serde(rename = "versionUrl", alias = "currentVersionUrl")]
    version_url: String,
}

/// The region files a region index names.
///
/// # Errors
/// `regions` without a region code and URL each.
pub(crate) fn region_index(value: serde_json::Value, file: &str) -> Result<Vec<RegionFile>, Error> {
    let raw: RawRegionIndex = serde_json::from_value(value).map_err(|e| {
        not_a_plan_list(
            file,
            &format!("a region index whose `regions` lack `regionCode` and `versionUrl` ({e})"),
        )
    })?;
    let list: Vec<RawRegion> = match raw.regions {
        RawRegions::List(l) => l,
        RawRegions::Map(m) => m.into_values().collect(),
    };
    Ok(list
        .into_iter()
        .map(|r| RegionFile {
            region: r.region_code,
            url: r.version_url,
        })
        .collect())
}

/// The local paths a region file may sit at, relative to the folder of the region index that
/// names it, most specific first: the URL's path with its leading folders dropped one at a
/// time, down to `<region>/index.json` (a mirror of AWS's folders, or the region folders beside
/// the index).
#[must_use]
pub(crate) fn local_candidates(url: &str) -> Vec<String> {
    let parts: Vec<&str> = url
        .split('/')
        .filter(|p| !p.is_empty() && *p != "." && *p != "..")
        .collect();
    (0..parts.len().saturating_sub(1))
        .map(|skip| parts[skip..].join("/"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leases_read_in_years() {
        assert_eq!(years("1", Some("year")), Some(1));
        assert_eq!(years("36", Some("months")), Some(3));
        assert_eq!(years("3", None), Some(3));
        assert_eq!(years("7", Some("months")), None);
        assert_eq!(years("x", None), None);
    }

    #[test]
    fn a_region_file_is_looked_for_beside_the_index_and_in_a_mirror() {
        assert_eq!(
            local_candidates(
                "/savingsPlan/v1.0/aws/AWSDatabaseSavingsPlans/current/eu-west-1/index.json"
            ),
            [
                "savingsPlan/v1.0/aws/AWSDatabaseSavingsPlans/current/eu-west-1/index.json",
                "v1.0/aws/AWSDatabaseSavingsPlans/current/eu-west-1/index.json",
                "aws/AWSDatabaseSavingsPlans/current/eu-west-1/index.json",
                "AWSDatabaseSavingsPlans/current/eu-west-1/index.json",
                "current/eu-west-1/index.json",
                "eu-west-1/index.json",
            ]
        );
        // `..` never climbs out of the index's folder.
        assert_eq!(local_candidates("/../../etc/passwd"), ["etc/passwd"]);
    }
}
