//! The arithmetic the allocation of a bill over tenants rests on (issue #50, first part):
//! an amount split in proportion to what each tenant drove, the shares and the remainder
//! adding up to the amount exactly, and shares shown to the cent by largest remainder so
//! that the rounded rows add up to the rounded total.

mod common;

use common::dec;
use ddbcost::api::allocate::{Split, split, to_minor_unit};
use proptest::prelude::*;
use rust_decimal::Decimal;

#[test]
fn three_tenants_worked_by_hand() {
    // $100 of reads; tenants drove 50, 30 and 15 read units, 5 went to no tenant (a scan
    // without a tenant key): 50/100 × 100 = $50, $30, $15, and $5 remains.
    let s = split(dec("100"), &[dec("50"), dec("30"), dec("15")], dec("5")).unwrap();
    assert_eq!(
        s,
        Split {
            shares: vec![dec("50"), dec("30"), dec("15")],
            remainder: dec("5")
        }
    );
    // $10 over three equal tenants: 3.333333333333 each (12 places, truncated), and the
    // 0.000000000001 the division leaves is the remainder.
    let s = split(dec("10"), &[dec("1"), dec("1"), dec("1")], Decimal::ZERO).unwrap();
    assert_eq!(s.shares, vec![dec("3.333333333333"); 3]);
    assert_eq!(s.remainder, dec("0.000000000001"));
    // Shown in cents: 3.33 × 3 = 9.99, one cent short of the total 9.9999999999999 shown as
    // $10.00: it goes to the first of the equal losers.
    assert_eq!(
        to_minor_unit(&[dec("3.3333333333333"); 3], 2),
        vec![dec("3.34"), dec("3.33"), dec("3.33")]
    );
    // Nothing driven: the whole amount remains.
    let s = split(dec("7.5"), &[Decimal::ZERO, Decimal::ZERO], Decimal::ZERO).unwrap();
    assert_eq!(s.remainder, dec("7.5"));
    // A negative driver is refused.
    assert!(split(dec("1"), &[dec("-1")], Decimal::ZERO).is_err());
}

fn money() -> impl Strategy<Value = Decimal> {
    (-100_000_000_000i64..100_000_000_000, 0u32..=6).prop_map(|(m, s)| Decimal::new(m, s))
}

fn driver() -> impl Strategy<Value = Decimal> {
    prop_oneof![
        Just(Decimal::ZERO),
        (0i64..1_000_000_000_000, 0u32..=3).prop_map(|(m, s)| Decimal::new(m, s)),
    ]
}

proptest! {
    /// For any amount and any drivers: the shares and the remainder add up to the amount
    /// exactly; a tenant that drove nothing gets nothing; on a positive amount no share and
    /// no remainder is negative.
    #[test]
    fn shares_and_remainder_add_up_exactly(
        amount in money(),
        drivers in proptest::collection::vec(driver(), 0..40),
        unattributed in driver(),
    ) {
        let s = split(amount, &drivers, unattributed).unwrap();
        let sum = s.shares.iter().copied().fold(s.remainder, |a, b| a + b);
        prop_assert_eq!(sum, amount);
        for (d, share) in drivers.iter().zip(&s.shares) {
            if d.is_zero() {
                prop_assert!(share.is_zero());
            }
            if amount >= Decimal::ZERO {
                prop_assert!(*share >= Decimal::ZERO);
            }
        }
        if amount >= Decimal::ZERO {
            prop_assert!(s.remainder >= Decimal::ZERO);
        }
    }

    /// Merging two tenants merges their costs: the merged tenant's share is the two shares'
    /// sum, to within the 12th decimal place each share is truncated at.
    #[test]
    fn merging_two_tenants_merges_their_costs(
        amount in money(),
        a in driver(),
        b in driver(),
        rest in proptest::collection::vec(driver(), 0..10),
    ) {
        let mut apart = vec![a, b];
        apart.extend(&rest);
        let mut merged = vec![a + b];
        merged.extend(&rest);
        let apart = split(amount, &apart, Decimal::ZERO).unwrap();
        let merged = split(amount, &merged, Decimal::ZERO).unwrap();
        let together = apart.shares[0] + apart.shares[1];
        prop_assert!((merged.shares[0] - together).abs() <= dec("0.000000000003"),
            "{} vs {}", merged.shares[0], together);
    }

    /// Shown to the cent, the rows add up to the total shown to the cent, and each row moved
    /// by less than a cent.
    #[test]
    fn rounded_rows_add_up_to_the_rounded_total(
        values in proptest::collection::vec(money(), 0..40),
    ) {
        let rounded = to_minor_unit(&values, 2);
        let total: Decimal = values.iter().copied().sum();
        let shown: Decimal = rounded.iter().copied().sum();
        prop_assert_eq!(
            shown,
            total.round_dp_with_strategy(2, rust_decimal::RoundingStrategy::MidpointAwayFromZero)
        );
        for (v, r) in values.iter().zip(&rounded) {
            prop_assert!((*v - *r).abs() < dec("0.01"));
        }
    }
}

proptest! {
    /// Any bytes as a consumed-capacity log: read or refused with a message, never a panic.
    #[test]
    fn any_log_is_read_or_refused(bytes in proptest::collection::vec(any::<u8>(), 0..2_000)) {
        let tenancy = ddbcost::api::allocate::Tenancy::parse("PK=ORG#([^#]+)").unwrap();
        let mut usage = ddbcost::api::allocate::LogUsage::default();
        let _ = ddbcost::api::allocate::read_log(&bytes[..], "fuzz.log", &tenancy, &mut usage);
    }

    /// Lines shaped like real ones add their units exactly; one with units below zero or
    /// past a decimal (`-3`, `1e400`) refuses the log, never counts as none.
    #[test]
    fn shaped_lines_add_their_units(
        lines in proptest::collection::vec(
            (0u8..4, any::<bool>(), prop_oneof![Just("1e400".to_string()), Just("-3".to_string()), (0u32..100_000, 0u32..4).prop_map(|(m, s)| Decimal::new(i64::from(m), s).to_string())]),
            0..30,
        ),
    ) {
        let tenancy = ddbcost::api::allocate::Tenancy::parse("PK=ORG#([^#]+)").unwrap();
        let mut usage = ddbcost::api::allocate::LogUsage::default();
        let mut text = String::new();
        for (org, list, units) in &lines {
            let c = format!("{{\"TableName\":\"t\",\"CapacityUnits\":{units}}}");
            let c = if *list { format!("[{c}]") } else { c };
            text.push_str(&format!("{{\"operation\":\"PutItem\",\"Key\":{{\"PK\":\"ORG#{org}\"}},\"ConsumedCapacity\":{c}}}\n"));
        }
        let bad = lines.iter().any(|(_, _, u)| u == "-3" || u == "1e400");
        let read = ddbcost::api::allocate::read_log(text.as_bytes(), "t.log", &tenancy, &mut usage);
        prop_assert_eq!(read.is_err(), bad);
        if !bad {
            let expected: Decimal = lines.iter().map(|(_, _, u)| u.parse::<Decimal>().unwrap()).sum();
            let got: Decimal = usage.by_place.values().map(|u| u.write).sum();
            prop_assert_eq!(got, expected);
        }
    }
}

proptest! {
    /// Any bytes as a Contributor Insights report of the bill's table: read or refused with
    /// a message, never a panic; what is read adds up (rows to the total).
    #[test]
    fn any_insights_report_is_read_or_refused(
        bytes in proptest::collection::vec(any::<u8>(), 0..600),
        value in 0u32..100_000,
    ) {
        let bill = "line_item_line_item_type,line_item_usage_start_date,line_item_product_code,line_item_usage_type,line_item_resource_id,line_item_usage_amount,line_item_currency_code,line_item_unblended_cost\nUsage,2026-11-01T00:00:00Z,AmazonDynamoDB,ReadRequestUnits,arn:aws:dynamodb:us-east-1:1:table/t,8000000,USD,10\n";
        let text = String::from_utf8_lossy(&bytes);
        for report in [
            text.to_string(),
            format!(r#"{{"AggregateValue":{value},"Contributors":[{{"Keys":["ORG#{text:?}"],"ApproximateAggregateValue":{value}}}]}}"#),
        ] {
            let out = ddbcost::api::allocate::report_text_with_insights(
                "b.csv", bill, "", Some(("t", &report)), Some("PK=ORG#(.+)"),
                ddbcost::api::ReportFormat::Json,
            );
            if let Ok(json) = out {
                let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
                let rows: Decimal = doc["rows"].as_array().unwrap().iter()
                    .map(|r| r["unblended"].as_str().unwrap().parse::<Decimal>().unwrap())
                    .sum();
                prop_assert_eq!(rows, dec("10"));
            }
        }
    }
}
