//! `ddbcost prices import`: reading AWS Price List files (gzip or not), building one price
//! table per region, checking each parses back as a price table, and writing them atomically.

use std::io::Read;

use crate::cli::ImportArgs;
use crate::error::Error;
use crate::load::prices::parse_price_table;
use crate::output;
use crate::pricelist::{self, parse};

/// The largest price-list file read (the all-region bulk file is a few megabytes).
const MAX_PRICE_LIST_BYTES: u64 = 512 * 1024 * 1024;

fn read(path: &str) -> Result<Vec<u8>, Error> {
    let fail = |why: String| {
        Error::input(format!("`{path}` cannot be read: {why}"))
            .file(path)
            .help("Consider checking the path of the price-list file.")
    };
    let too_large = |what: &str| {
        Error::input(format!(
            "`{path}` {what} more than the {MAX_PRICE_LIST_BYTES} bytes (= {} MiB) a price list may be",
            MAX_PRICE_LIST_BYTES / (1024 * 1024)
        ))
        .file(path)
        .help("Consider the AmazonDynamoDB offer file (tens of MB), not the index of every service.")
    };
    let file = std::path::Path::new(path);
    crate::confine::check(file)?;
    if crate::confine::metadata(file).is_ok_and(|m| m.is_file && m.len > MAX_PRICE_LIST_BYTES) {
        return Err(too_large("is"));
    }
    let mut bytes = Vec::new();
    crate::confine::open(file)
        .and_then(|f| {
            f.take(MAX_PRICE_LIST_BYTES.saturating_add(1))
                .read_to_end(&mut bytes)
        })
        .map_err(|e| fail(e.to_string()))?;
    if bytes.len() as u64 > MAX_PRICE_LIST_BYTES {
        return Err(too_large("holds"));
    }
    if bytes.starts_with(&[0x1f, 0x8b]) {
        let mut plain = Vec::new();
        flate2::read::MultiGzDecoder::new(bytes.as_slice())
            .take(MAX_PRICE_LIST_BYTES.saturating_add(1))
            .read_to_end(&mut plain)
            .map_err(|e| fail(format!("not valid gzip ({e})")))?;
        if plain.len() as u64 > MAX_PRICE_LIST_BYTES {
            return Err(too_large("unpacks to"));
        }
        return Ok(plain);
    }
    Ok(bytes)
}

/// The region files a region index names, read from beside it (`<region>/index.json`, or a
/// mirror of AWS's folders): each one found is parsed; those missing are named with the URL
/// to fetch them from; none found is an error.
fn region_files(
    index: &str,
    regions: &[crate::pricelist::plans::RegionFile],
) -> Result<Vec<parse::PriceList>, Error> {
    let dir = std::path::Path::new(index)
        .parent()
        .unwrap_or_else(|| std::path::Path::new("."));
    let mut found = Vec::new();
    let mut missing = Vec::new();
    for region in regions {
        let local = crate::pricelist::plans::local_candidates(&region.url)
            .into_iter()
            .map(|c| dir.join(c))
            .find(|p| crate::confine::is_file(p));
        match local {
            Some(path) => {
                let shown = path.display().to_string();
                let list = parse::parse(&read(&shown)?, &shown)?;
                if !list.regions.is_empty() {
                    return Err(Error::input(format!(
                        "`{shown}` (named by `{index}` for {}) is itself a region index",
                        region.region
                    ))
                    .file(&shown)
                    .help("Consider the region's price-list file, not another index."));
                }
                found.push(list);
            }
            None => missing.push(region),
        }
    }
    if found.is_empty() {
        return Err(Error::input(format!(
            "`{index}` is a region index naming {} region file(s), none of them beside it",
            regions.len()
        ))
        .file(index)
        .help(format!(
            "Consider fetching the regions you need next to the index, e.g. `{}` from https://pricing.us-east-1.amazonaws.com{}, or passing the region files themselves.",
            regions
                .first()
                .and_then(|r| crate::pricelist::plans::local_candidates(&r.url).pop())
                .unwrap_or_default(),
            regions.first().map(|r| r.url.as_str()).unwrap_or_default()
        )));
    }
    if !missing.is_empty() {
        crate::output::warn(&format!(
            "note: {} region(s) named by `{index}` are not beside it and were not read: {}",
            missing.len(),
            missing
                .iter()
                .map(|r| r.region.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    Ok(found)
}

pub(super) fn run(args: &ImportArgs) -> Result<(), Error> {
    let dir = std::path::Path::new(&args.output_dir);
    // Created if missing (with its parents), as `mkdir -p` would.
    std::fs::create_dir_all(dir).map_err(|e| {
        Error::input(format!(
            "--output-dir `{}` cannot be created ({e})",
            args.output_dir
        ))
        .help("Consider a writable folder for the imported price tables.")
    })?;
    if !dir.is_dir() {
        return Err(Error::usage(format!(
            "--output-dir `{}` is not a directory",
            args.output_dir
        ))
        .help("Consider a folder for the imported price tables."));
    }
    let mut lists = Vec::with_capacity(args.inputs.len());
    for input in &args.inputs {
        let list = parse::parse(&read(input)?, input)?;
        if list.regions.is_empty() {
            lists.push(list);
        } else {
            lists.extend(region_files(input, &list.regions)?);
        }
    }
    let import = pricelist::import(&lists)
        .map_err(|why| Error::input(format!("the price lists disagree: {why}")))?;
    if import.tables.is_empty() {
        // What the lists held, and why none of it maps, is what `--verbose` promises.
        if args.verbose {
            for (usage_type, sku, why) in &import.unmapped {
                crate::output::warn(&format!("  {usage_type} (SKU {sku}): {why}"));
            }
        }
        if !import.transfer_files.is_empty() || !import.dax_files.is_empty() {
            return Err(Error::input(
                "data-transfer or DAX prices alone make no price table: they go to the regions an AmazonDynamoDB offer prices, and none was given",
            )
            .help("Consider passing the AmazonDynamoDB offer file (or its region's file) in the same `prices import` as the AWSDataTransfer or AmazonDAX offer."));
        }
        if !import.plan_files.is_empty() {
            return Err(Error::input(
                "Savings Plans rates alone make no price table: each rate is a fraction of a list price, and no AmazonDynamoDB offer was given",
            )
            .help("Consider passing the AmazonDynamoDB offer file (or its region's file) in the same `prices import` as the Savings Plans files."));
        }
        return Err(Error::input(format!(
            "the price lists hold no DynamoDB price ddbcost uses ({} SKU(s) read, none mapped)",
            import.unmapped.len()
        ))
        .help(if args.verbose {
            "Consider the AmazonDynamoDB offer file (the SKUs above are why this one gives nothing)."
        } else {
            "Consider the AmazonDynamoDB offer file; `--verbose` lists each SKU and why it maps to nothing."
        }));
    }
    let mut summary = String::new();
    // Every region's table or none: a failure on the last leaves the folder as it was.
    let mut batch = output::Batch::new();
    for table in import.tables.values() {
        let text = pricelist::render(table, &import);
        let path = dir.join(format!("aws-{}.yaml", table.region));
        let shown = path.display().to_string();
        // What is written must be a valid price table: read it back before writing.
        parse_price_table(&text, &shown)?;
        batch.add(&shown, text.as_bytes())?;
        summary.push_str(&format!(
            "aws-{}: {} prices{}{}{}{}{} -> {shown}\n",
            table.region,
            table.prices.len(),
            if table.free_tier.len() == 4 {
                ", free tier"
            } else {
                ""
            },
            if table.reserved.is_empty() {
                String::new()
            } else {
                format!(
                    ", reserved {}",
                    table.reserved.keys().cloned().collect::<Vec<_>>().join("/")
                )
            },
            if table.plan_rates.is_empty() {
                String::new()
            } else {
                format!(", {} savings plan rates", table.plan_rates.len())
            },
            if table.transfer_to.is_empty() {
                String::new()
            } else {
                format!(", transfer to {} region(s)", table.transfer_to.len())
            },
            if table.dax_node_hour.is_empty() {
                String::new()
            } else {
                format!(", {} DAX node type(s)", table.dax_node_hour.len())
            }
        ));
    }
    batch.commit()?;
    say_skipped(&import, args.verbose);
    output::emit(None, &summary)
}

/// What the import read and left: other kinds of transfer, regions without DynamoDB prices,
/// other services' plan rates, unmapped SKUs (listed with `--verbose`).
fn say_skipped(import: &pricelist::Import, verbose: bool) {
    let skipped = &import.transfer_skipped;
    if skipped.other_kinds > 0 {
        crate::output::warn(&format!(
            "note: {} data-transfer SKU(s) of other kinds (intra-region, inbound, CloudFront…) skipped: DynamoDB bills inter-region transfer and transfer out to the internet",
            skipped.other_kinds
        ));
    }
    if !skipped.regions.is_empty() {
        crate::output::warn(&format!(
            "note: transfer prices of {} region(s) without AmazonDynamoDB prices in this import skipped: {}",
            skipped.regions.len(),
            skipped
                .regions
                .iter()
                .cloned()
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    if import.dax_skipped > 0 {
        crate::output::warn(&format!(
            "note: {} DAX SKU(s) that are not node-hours skipped",
            import.dax_skipped
        ));
    }
    if !import.dax_regions_skipped.is_empty() {
        crate::output::warn(&format!(
            "note: DAX prices of {} region(s) without AmazonDynamoDB prices in this import skipped: {}",
            import.dax_regions_skipped.len(),
            import
                .dax_regions_skipped
                .iter()
                .cloned()
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    if import.plan_rates_other_services > 0 {
        crate::output::warn(&format!(
            "note: {} savings plan rate(s) for services other than DynamoDB skipped",
            import.plan_rates_other_services
        ));
    }
    if !import.unmapped.is_empty() {
        crate::output::warn(&format!(
            "note: {} {} map to no ddbcost price{}",
            import.unmapped.len(),
            if import.plan_files.is_empty() {
                "SKU(s)"
            } else {
                "SKU(s) or savings plan rate(s)"
            },
            if verbose {
                ":"
            } else {
                " (--verbose lists them)"
            }
        ));
        if verbose {
            for (usage_type, sku, why) in &import.unmapped {
                crate::output::warn(&format!("  {usage_type} (SKU {sku}): {why}"));
            }
        }
    }
}
