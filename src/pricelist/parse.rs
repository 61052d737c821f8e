//! Reading the AWS Price List for `AmazonDynamoDB` in its two public shapes — the bulk offer
//! file (`offers/v1.0/aws/AmazonDynamoDB/current/index.json`, all regions, or
//! `…/current/<region>/index.json`) and the output of `aws pricing get-products
//! --service-code AmazonDynamoDB` (whose `PriceList` entries are JSON documents as strings) —
//! into SKUs with their terms. Prices stay decimal strings until `rust_decimal` reads them.

use std::collections::BTreeMap as HashMap;
// Sorted maps: a price list read twice is read the same way (a `HashMap`'s order changes
// from run to run, and with it which of two entries was taken).

use rust_decimal::Decimal;
use serde::Deserialize;

use super::plans::{self, PlanRate, RegionFile};
use crate::error::Error;

/// One product of the price list and its prices.
#[derive(Debug, Clone)]
#[allow(
    clippy::struct_field_names,
    reason = "`sku` is the price list's own name for the product's id"
)]
pub struct Sku {
    pub sku: String,
    pub product_family: String,
    pub usage_type: String,
    pub region_code: Option<String>,
    pub group: Option<String>,
    pub on_demand: Vec<Dimension>,
    pub reserved: Vec<ReservedTerm>,
    /// A data-transfer product's route (`AWSDataTransfer`), where the SKU states one.
    pub transfer: Option<Route>,
}

/// Where a data-transfer SKU moves data: `transferType` (`InterRegion Outbound`, `AWS
/// Outbound`…), from a region to a region or a location (`External`: the internet).
#[derive(Debug, Clone)]
pub struct Route {
    pub kind: String,
    pub from_region: Option<String>,
    pub to_region: Option<String>,
    pub to_location: Option<String>,
}

/// A price dimension: a tier `[begin, end)` of usage at `price` per unit.
#[derive(Debug, Clone)]
pub struct Dimension {
    pub begin: Decimal,
    /// `None` for `Inf`.
    pub end: Option<Decimal>,
    pub unit: String,
    pub price: Decimal,
    pub currency: String,
}

/// A reserved term: its length, purchase option and per-unit fees.
#[derive(Debug, Clone)]
pub struct ReservedTerm {
    pub years: u32,
    pub purchase_option: String,
    pub upfront: Option<Decimal>,
    pub hourly: Option<Decimal>,
    pub currency: String,
}

/// What one input file holds: an `AmazonDynamoDB` offer's SKUs, a Savings Plans list's
/// rates, or a region index's region files (the caller reads those and parses them in turn).
#[derive(Debug, Clone, Default)]
pub struct PriceList {
    pub file: String,
    /// The offer (`AmazonDynamoDB`, `AWSDataTransfer`), where the file is one.
    pub offer: Option<String>,
    pub version: Option<String>,
    pub publication_date: Option<String>,
    pub skus: Vec<Sku>,
    /// Savings Plans rates (`AWSDatabaseSavingsPlans`), every service's.
    pub plan_rates: Vec<PlanRate>,
    /// A region index's region files.
    pub regions: Vec<RegionFile>,
}

#[derive(Deserialize)]
struct RawProduct {
    sku: String,
    #[serde(rename = "productFamily", default)]
    product_family: String,
    #[serde(default)]
    attributes: HashMap<String, String>,
}

#[derive(Deserialize)]
struct RawOfferTerm {
    #[serde(rename = "priceDimensions", default)]
    price_dimensions: HashMap<String, RawDimension>,
    #[serde(rename = "termAttributes", default)]
    term_attributes: HashMap<String, String>,
}

#[derive(Deserialize)]
struct RawDimension {
    #[serde(rename = "beginRange", default)]
    begin_range: Option<String>,
    #[serde(rename = "endRange", default)]
    end_range: Option<String>,
    #[serde(default)]
    unit: String,
    #[serde(rename = "pricePerUnit", default)]
    price_per_unit: HashMap<String, String>,
}

#[derive(Deserialize)]
struct RawOffer {
    #[serde(rename = "offerCode")]
    offer_code: String,
    version: Option<String>,
    #[serde(rename = "publicationDate")]
    publication_date: Option<String>,
    products: HashMap<String, RawProduct>,
    #[serde(default)]
    terms: HashMap<String, HashMap<String, HashMap<String, RawOfferTerm>>>,
}

#[derive(Deserialize)]
struct RawPage {
    #[serde(rename = "PriceList")]
    price_list: Vec<String>,
}

#[derive(Deserialize)]
struct RawPageEntry {
    product: RawProduct,
    #[serde(rename = "serviceCode")]
    service_code: Option<String>,
    /// `terms.OnDemand["SKU.OFFER"]`: keyed by offer term, one product per entry.
    #[serde(default)]
    terms: HashMap<String, HashMap<String, RawOfferTerm>>,
    version: Option<String>,
    #[serde(rename = "publicationDate")]
    publication_date: Option<String>,
}

/// The offers `prices import` reads: DynamoDB's own, data transfer (inter-region and to the
/// internet) and DAX nodes, which AmazonDynamoDB's offer does not price.
pub(crate) const OFFERS: [&str; 3] = ["AmazonDynamoDB", "AWSDataTransfer", "AmazonDAX"];

fn not_a_price_list(file: &str, why: &str) -> Error {
    Error::input(format!("`{file}` is not an AWS Price List for AmazonDynamoDB (or AWSDataTransfer, AmazonDAX): {why}"))
        .file(file)
        .help("Consider the bulk offer file (https://pricing.us-east-1.amazonaws.com/offers/v1.0/aws/AmazonDynamoDB/current/index.json, and …/AWSDataTransfer/current/index.json for transfer prices) or the output of `aws pricing get-products --service-code AmazonDynamoDB`.")
}

/// What a Savings Plans file holds, as an input of the import.
fn of_plans(list: plans::PlanList, file: &str) -> PriceList {
    PriceList {
        file: file.to_string(),
        version: list.version,
        publication_date: list.publication_date,
        plan_rates: list.rates,
        ..PriceList::default()
    }
}

/// Parses one price-list document (`text`, from `file`): an `AmazonDynamoDB` offer file or
/// `get-products` page, a Savings Plans region file (JSON or CSV), or a region index.
///
/// # Errors
/// Not JSON (nor a Savings Plans CSV), not a price list ddbcost reads, or a price that is not
/// a decimal.
pub(crate) fn parse(text: &[u8], file: &str) -> Result<PriceList, Error> {
    if plans::is_csv(text) {
        return Ok(of_plans(plans::from_csv(text, file)?, file));
    }
    let value: serde_json::Value = serde_json::from_slice(text)
        .map_err(|e| not_a_price_list(file, &format!("not JSON ({e})")))?;
    if value
        .get("terms")
        .and_then(|t| t.get("savingsPlan"))
        .is_some()
    {
        return Ok(of_plans(plans::from_json(value, file)?, file));
    }
    if value.get("regions").is_some() && value.get("products").is_none() {
        return Ok(PriceList {
            file: file.to_string(),
            publication_date: value
                .get("publicationDate")
                .and_then(serde_json::Value::as_str)
                .map(str::to_string),
            regions: plans::region_index(value, file)?,
            ..PriceList::default()
        });
    }
    if value.get("PriceList").is_some() {
        let page: RawPage = serde_json::from_value(value).map_err(|e| {
            not_a_price_list(
                file,
                &format!("a get-products page without a list of strings ({e})"),
            )
        })?;
        let mut out = PriceList {
            file: file.to_string(),
            skus: Vec::with_capacity(page.price_list.len()),
            ..PriceList::default()
        };
        for (i, entry) in page.price_list.iter().enumerate() {
            let entry: RawPageEntry = serde_json::from_str(entry).map_err(|e| {
                not_a_price_list(
                    file,
                    &format!("PriceList[{i}] is not a product document ({e})"),
                )
            })?;
            if let Some(code) = entry.service_code.as_deref()
                && OFFERS.contains(&code)
            {
                match &out.offer {
                    Some(o) if o != code => {
                        return Err(not_a_price_list(
                            file,
                            &format!(
                                "PriceList[{i}] is for {code}, and the entries before it for {o}"
                            ),
                        ));
                    }
                    _ => out.offer = Some(code.to_string()),
                }
            } else if entry.service_code.is_some() {
                return Err(not_a_price_list(
                    file,
                    &format!(
                        "PriceList[{i}] is for {}",
                        entry.service_code.unwrap_or_default()
                    ),
                ));
            }
            out.version = out.version.or(entry.version);
            out.publication_date = out.publication_date.or(entry.publication_date);
            let terms = |kind: &str| -> Vec<&RawOfferTerm> {
                entry
                    .terms
                    .get(kind)
                    .map(|t| t.values().collect())
                    .unwrap_or_default()
            };
            let on_demand = terms("OnDemand");
            let reserved = terms("Reserved");
            out.skus
                .push(sku_of(&entry.product, &on_demand, &reserved, file)?);
        }
        return Ok(out);
    }
    let offer: RawOffer = serde_json::from_value(value).map_err(|e| {
        not_a_price_list(
            file,
            &format!("no `offerCode`, `products` and `terms` ({e})"),
        )
    })?;
    if !OFFERS.contains(&offer.offer_code.as_str()) {
        return Err(not_a_price_list(
            file,
            &format!("its offer is `{}`", offer.offer_code),
        ));
    }
    let mut skus = Vec::with_capacity(offer.products.len());
    let empty = HashMap::new();
    let on_demand_terms = offer.terms.get("OnDemand").unwrap_or(&empty);
    let reserved_terms = offer.terms.get("Reserved").unwrap_or(&empty);
    for product in offer.products.values() {
        skus.push(sku_of(
            product,
            &terms_of(on_demand_terms, &product.sku),
            &terms_of(reserved_terms, &product.sku),
            file,
        )?);
    }
    skus.sort_by(|a, b| a.sku.cmp(&b.sku));
    Ok(PriceList {
        file: file.to_string(),
        offer: Some(offer.offer_code),
        version: offer.version,
        publication_date: offer.publication_date,
        skus,
        ..PriceList::default()
    })
}

/// The terms of `sku` in a bulk offer file's `terms.OnDemand` or `terms.Reserved`.
fn terms_of<'a>(
    terms: &'a HashMap<String, HashMap<String, RawOfferTerm>>,
    sku: &str,
) -> Vec<&'a RawOfferTerm> {
    terms
        .get(sku)
        .map(|t| t.values().collect())
        .unwrap_or_default()
}

pub(crate) fn decimal(text: &str, file: &str, sku: &str) -> Result<Decimal, Error> {
    // Price lists write plain decimals ("0.0000001250"); exponents are read exactly too.
    let value = text
        .trim()
        .parse::<Decimal>()
        .or_else(|_| Decimal::from_scientific(text.trim()))
        .map_err(|_| {
            not_a_price_list(
                file,
                &format!("SKU {sku} has the price `{text}`, not a decimal"),
            )
        })?;
    // A price past 28 decimal places (`1.25e-29`) would be read as 0: refused, not rounded.
    let mantissa_digits = text
        .trim()
        .split(['e', 'E'])
        .next()
        .unwrap_or_default()
        .bytes()
        .any(|b| b.is_ascii_digit() && b != b'0');
    if value.is_zero() && mantissa_digits {
        return Err(not_a_price_list(
            file,
            &format!("SKU {sku} has the price `{text}`, smaller than a decimal of 28 places holds"),
        ));
    }
    Ok(value)
}

fn sku_of(
    product: &RawProduct,
    on_demand: &[&RawOfferTerm],
    reserved: &[&RawOfferTerm],
    file: &str,
) -> Result<Sku, Error> {
    let attr = |k: &str| product.attributes.get(k).cloned();
    let ambiguous = |why: String| {
        not_a_price_list(
            file,
            &format!(
                "SKU {} ({}) {why}: ddbcost does not choose between them",
                product.sku,
                attr("usagetype").unwrap_or_default()
            ),
        )
    };
    if on_demand.len() > 1 {
        return Err(ambiguous(format!(
            "has {} on-demand terms",
            on_demand.len()
        )));
    }
    let mut dims = Vec::new();
    for term in on_demand {
        for d in term.price_dimensions.values() {
            if d.price_per_unit.len() > 1 {
                return Err(ambiguous(format!(
                    "states its price in {} currencies ({})",
                    d.price_per_unit.len(),
                    d.price_per_unit
                        .keys()
                        .cloned()
                        .collect::<Vec<_>>()
                        .join(", ")
                )));
            }
            let Some((currency, price)) = d.price_per_unit.iter().next() else {
                continue;
            };
            let end = match d.end_range.as_deref() {
                None | Some("Inf") => None,
                Some(e) => Some(decimal(e, file, &product.sku)?),
            };
            dims.push(Dimension {
                begin: decimal(d.begin_range.as_deref().unwrap_or("0"), file, &product.sku)?,
                end,
                unit: d.unit.clone(),
                price: decimal(price, file, &product.sku)?,
                currency: currency.clone(),
            });
        }
    }
    dims.sort_by_key(|d| d.begin);
    // Tiers follow each other: one that starts before the previous ends overlaps it.
    for pair in dims.windows(2) {
        if pair[0].end.is_none_or(|end| pair[1].begin < end) {
            return Err(ambiguous(format!(
                "has tiers that overlap (one from {} and one from {})",
                pair[0].begin.normalize(),
                pair[1].begin.normalize()
            )));
        }
    }
    let mut terms = Vec::new();
    for term in reserved {
        let years = match term
            .term_attributes
            .get("LeaseContractLength")
            .map(String::as_str)
        {
            Some("1yr" | "1 yr" | "1year") => 1,
            Some("3yr" | "3 yr" | "3year") => 3,
            _ => continue,
        };
        let mut t = ReservedTerm {
            years,
            purchase_option: term
                .term_attributes
                .get("PurchaseOption")
                .cloned()
                .unwrap_or_default(),
            upfront: None,
            hourly: None,
            currency: String::new(),
        };
        for d in term.price_dimensions.values() {
            let Some((currency, price)) = d.price_per_unit.iter().next() else {
                continue;
            };
            let price = decimal(price, file, &product.sku)?;
            t.currency.clone_from(currency);
            if d.unit.eq_ignore_ascii_case("Quantity") {
                t.upfront = Some(price);
            } else {
                t.hourly = Some(price);
            }
        }
        if terms
            .iter()
            .any(|o: &ReservedTerm| o.years == t.years && o.purchase_option == t.purchase_option)
        {
            return Err(ambiguous(format!(
                "has two reserved {}-year `{}` terms",
                t.years, t.purchase_option
            )));
        }
        terms.push(t);
    }
    Ok(Sku {
        sku: product.sku.clone(),
        product_family: product.product_family.clone(),
        usage_type: attr("usagetype").unwrap_or_default(),
        region_code: attr("regionCode"),
        group: attr("group"),
        on_demand: dims,
        reserved: terms,
        transfer: attr("transferType").map(|kind| Route {
            kind,
            from_region: attr("fromRegionCode"),
            to_region: attr("toRegionCode"),
            to_location: attr("toLocation"),
        }),
    })
}
