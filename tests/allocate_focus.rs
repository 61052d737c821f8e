//! `allocate --format focus`: FOCUS 1.3's split cost allocation on the SaaS seed's month
//! (`tests/common/saas.rs`). The official validator checks FOCUS 1.2 (`.ci/run` runs it on
//! this file); the rules 1.3 adds for allocated charges are checked here: the allocated
//! charges of an origin charge add up to it in every summable column, their ratios add up to
//! 1, dimensions and unit prices are the origin's, and the allocated columns are null exactly
//! where the spec says.

mod common;

use std::collections::BTreeMap;

use common::{Case, dec};
use rust_decimal::Decimal;

fn rows() -> (Vec<String>, Vec<csv::StringRecord>) {
    let out = Case::new()
        .args(common::saas::ALLOCATE)
        .args(["--format", "focus"])
        .run()
        .success();
    common::csv_table(&out.stdout)
}

#[test]
fn allocated_charges_add_up_to_their_origin() {
    let (header, rows) = rows();
    let col = |name: &str| common::column(&header, name);
    let cost = |r: &csv::StringRecord, name: &str| -> Decimal {
        let v = &r[col(name)];
        if v.is_empty() { Decimal::ZERO } else { dec(v) }
    };
    // The origin of a row: its dimensions (what an allocated charge copies).
    let origin = |r: &csv::StringRecord| {
        [
            "ResourceId",
            "RegionId",
            "SkuId",
            "ChargeCategory",
            "ChargeDescription",
        ]
        .map(|c| r[col(c)].to_string())
        .join("|")
    };
    let mut sums: BTreeMap<String, [Decimal; 5]> = BTreeMap::new();
    let mut prices: BTreeMap<String, (String, String)> = BTreeMap::new();
    for r in &rows {
        let s = sums.entry(origin(r)).or_default();
        for (i, c) in [
            "BilledCost",
            "EffectiveCost",
            "ListCost",
            "ConsumedQuantity",
        ]
        .iter()
        .enumerate()
        {
            s[i] += cost(r, c);
        }
        let details = &r[col("AllocatedMethodDetails")];
        if !details.is_empty() {
            let v: serde_json::Value = serde_json::from_str(details).unwrap();
            s[4] += dec(&v["Elements"][0]["AllocatedRatio"].to_string());
        }
        // Unit prices are the origin's on every allocated charge.
        let p = (
            r[col("ListUnitPrice")].to_string(),
            r[col("ContractedUnitPrice")].to_string(),
        );
        let seen = prices.entry(origin(r)).or_insert_with(|| p.clone());
        assert_eq!(*seen, p, "{}", origin(r));
    }
    // The bill's origin charges (tests/common/saas.rs): reads 38.63 over 309,040,000 RRU,
    // writes 14.375 over 23,000,000 WRU, storage 1.58935, PITR 0.31787, tax 3.50.
    let reads = &sums["app-main|us-east-1|ReadRequestUnits|Usage|app-main ReadRequestUnits"];
    assert_eq!(reads[0], dec("38.63"));
    assert_eq!(reads[1], dec("38.63"));
    assert_eq!(reads[3], dec("309040000"));
    assert_eq!(reads[4], Decimal::ONE, "the ratios add up to 1");
    let writes = &sums["app-main|us-east-1|WriteRequestUnits|Usage|app-main WriteRequestUnits"];
    assert_eq!(writes[0], dec("14.375"));
    assert_eq!(writes[3], dec("23000000"));
    assert_eq!(writes[4], Decimal::ONE);
    let storage =
        &sums["app-main|us-east-1|TimedStorage-ByteHrs|Usage|app-main TimedStorage-ByteHrs"];
    assert_eq!(storage[0], dec("1.58935"));
    assert_eq!(storage[4], Decimal::ONE);
    let tax = &sums["||Tax|Tax|Tax"];
    assert_eq!(tax[0], dec("3.5"));
    // o001's share of the reads: 750 of 3,863 read units, so 309,040,000 × 750 ÷ 3,863 =
    // 60,000,000 request units and $7.50.
    let o001 = rows
        .iter()
        .find(|r| {
            &r[col("AllocatedResourceId")] == "o001" && &r[col("SkuId")] == "ReadRequestUnits"
        })
        .unwrap();
    assert_eq!(cost(o001, "ConsumedQuantity"), dec("60000000"));
    assert_eq!(cost(o001, "BilledCost"), dec("7.5"));
    // Σ BilledCost = the bill: 38.63 + 14.375 + 1.58935 + 0.31787 + 3.50 = 58.41222.
    let total: Decimal = sums.values().map(|s| s[0]).sum();
    assert_eq!(total, dec("58.41222"));
}

#[test]
fn allocated_columns_are_null_exactly_where_the_spec_says() {
    let (header, rows) = rows();
    let col = |name: &str| common::column(&header, name);
    let mut tenants = 0;
    for r in &rows {
        let method = &r[col("AllocatedMethodId")];
        let resource = &r[col("AllocatedResourceId")];
        let remainder = &r[col("x_AllocationRemainder")];
        let category = &r[col("ChargeCategory")];
        if category == "Tax" {
            // Not split: no allocated column.
            assert!(
                method.is_empty()
                    && resource.is_empty()
                    && r[col("AllocatedMethodDetails")].is_empty()
            );
            continue;
        }
        assert_eq!(method, "ddbcost-consumed-capacity");
        if remainder.is_empty() {
            // An allocated portion names its tenant, as id, name and tag.
            assert!(!resource.is_empty());
            assert_eq!(&r[col("AllocatedResourceName")], resource);
            let tags: serde_json::Value = serde_json::from_str(&r[col("AllocatedTags")]).unwrap();
            assert_eq!(tags["ddbcost/tenant"], resource);
            tenants += 1;
        } else {
            // The unallocated portion: no resource.
            assert!(resource.is_empty(), "{remainder}");
            assert!(r[col("AllocatedTags")].is_empty());
        }
    }
    // 200 organisations on reads, writes, storage and PITR: 800 allocated charges.
    assert_eq!(tenants, 800);
}
