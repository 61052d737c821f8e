//! Benchmark of `ddbcost prices import` (issue #10: the full multi-region offer file, about 30
//! regions and several MB, well under a second). The input is generated in the official shape
//! with what the real file holds per region: every DynamoDB usage type ddbcost maps, with
//! free tiers and reserved terms, plus SKUs it does not map (data transfer to each other
//! region, DAX-like and other products) that must still be read and counted.

use std::fmt::Write;
use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use ddbcost::api::import;

fn offer_file() -> String {
    let mut products = String::new();
    let mut on_demand = String::new();
    let mut n = 0u32;
    let mut add = |usage: &str, tiers: &[(&str, &str, &str)]| {
        n += 1;
        let sku = format!("SKU{n:08}");
        if !products.is_empty() {
            products.push(',');
            on_demand.push(',');
        }
        let _ = write!(
            products,
            r#""{sku}":{{"sku":"{sku}","productFamily":"Amazon DynamoDB PayPerRequest Throughput","attributes":{{"servicecode":"AmazonDynamoDB","location":"Somewhere","locationType":"AWS Region","usagetype":"{usage}","operation":"PayPerRequestThroughput","servicename":"Amazon DynamoDB"}}}}"#
        );
        let dims: Vec<String> = tiers
            .iter()
            .enumerate()
            .map(|(i, (begin, end, price))| {
                format!(
                    r#""{sku}.JRTCKXETXF.{i}":{{"rateCode":"{sku}.JRTCKXETXF.{i}","description":"${price} per unit","beginRange":"{begin}","endRange":"{end}","unit":"Units","pricePerUnit":{{"USD":"{price}"}},"appliesTo":[]}}"#
                )
            })
            .collect();
        let _ = write!(
            on_demand,
            r#""{sku}":{{"{sku}.JRTCKXETXF":{{"offerTermCode":"JRTCKXETXF","sku":"{sku}","effectiveDate":"2024-11-01T00:00:00Z","priceDimensions":{{{}}},"termAttributes":{{}}}}}}"#,
            dims.join(",")
        );
    };
    let regions: Vec<&str> = import::region_prefixes().iter().map(|(p, _)| *p).collect();
    for (r, prefix) in regions.iter().enumerate() {
        for row in import::usage_types() {
            let usage = format!("{prefix}-{}", row.usage_type);
            if row.free_tier.is_some() {
                add(
                    &usage,
                    &[("0", "25", "0.0000000000"), ("25", "Inf", "0.2500000000")],
                );
            } else {
                add(&usage, &[("0", "Inf", "0.0000001250")]);
            }
        }
        // Transfer to every other region and other products the import does not map.
        for other in &regions {
            add(
                &format!("{prefix}-{other}-AWS-Out-Bytes"),
                &[("0", "Inf", "0.0200000000")],
            );
        }
        for k in 0..120 {
            add(
                &format!("{prefix}-OtherUsage{r}-{k}"),
                &[("0", "Inf", "0.0100000000")],
            );
        }
    }
    format!(
        r#"{{"formatVersion":"v1.0","disclaimer":"generated","offerCode":"AmazonDynamoDB","version":"20241101000000","publicationDate":"2024-11-01T00:00:00Z","products":{{{products}}},"terms":{{"OnDemand":{{{on_demand}}}}}}}"#
    )
}

fn bench_import(c: &mut Criterion) {
    let text = offer_file();
    let list = import::price_list(text.as_bytes(), "index.json").expect("a valid offer");
    let import = import::price_lists(std::slice::from_ref(&list)).expect("imports");
    assert!(import.tables.len() >= 30, "{} regions", import.tables.len());
    assert!(text.len() > 3_000_000, "{} bytes: several MB", text.len());
    c.bench_function("prices import: generated all-region offer file", |b| {
        b.iter(|| {
            let list = import::price_list(black_box(text.as_bytes()), "index.json").unwrap();
            let import = import::price_lists(std::slice::from_ref(&list)).unwrap();
            for t in import.tables.values() {
                black_box(import::price_table_yaml(t, &import));
            }
        });
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = bench_import
}
criterion_main!(benches);
