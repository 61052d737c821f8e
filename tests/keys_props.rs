//! Property tests for `ddbcost keys`: the counter agrees with a plain map whatever the adds
//! and merges; the spread's shares are the naive ratios; logs add up exactly what their
//! lines state; the verdict never panics, whatever peak or spread it is given.

use std::collections::BTreeMap;

use ddbcost::api::keys::KeySpread;
use ddbcost::api::keys::{Counts, KeyCounter};
use ddbcost::api::keys::{KeyVerdict, assess_key};
use ddbcost::api::keys::{KeysSummary, Layout};
use ddbcost::api::keys::{LogColumns, count_log};
use ddbcost::api::keys::{Measure, spread};
use proptest::prelude::*;
use rust_decimal::Decimal;

fn counts(items: u64, reads: u64) -> Counts {
    Counts {
        items,
        bytes: items.saturating_mul(10),
        read_halves: reads,
        ..Counts::default()
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn the_counter_is_a_map(adds in prop::collection::vec((0u8..40, 1u64..1000, 0u64..50), 0..300), split in 0usize..300) {
        let mut model: BTreeMap<String, (u64, u64)> = BTreeMap::new();
        let (mut a, mut b) = (KeyCounter::new(), KeyCounter::new());
        for (n, (k, items, reads)) in adds.iter().enumerate() {
            let name = format!("key-{k}");
            let e = model.entry(name.clone()).or_default();
            e.0 += items;
            e.1 += reads;
            let target = if n < split { &mut a } else { &mut b };
            target.add(name.as_bytes(), &counts(*items, *reads)).unwrap();
        }
        a.merge(&b).unwrap();
        let got: BTreeMap<String, (u64, u64)> = a
            .iter()
            .map(|(n, c)| (String::from_utf8(n.to_vec()).unwrap(), (c.items, c.read_halves)))
            .collect();
        prop_assert_eq!(&got, &model);
        prop_assert_eq!(a.distinct(), model.len() as u64);
        // The spread: the busiest value's share of items is max ÷ total; the busiest 10 hold
        // the 10 largest.
        let s = spread(&a);
        let mut items: Vec<u64> = model.values().map(|v| v.0).collect();
        items.sort_unstable_by(|x, y| y.cmp(x));
        let total: u64 = items.iter().sum();
        let m = s.measure(Measure::Items);
        prop_assert_eq!(m.total, total);
        prop_assert_eq!(m.top[1], items.iter().take(10).sum::<u64>());
        if total > 0 {
            prop_assert_eq!(
                m.top_share(0).unwrap(),
                (Decimal::from(items[0]) / Decimal::from(total)).normalize()
            );
            // The fewest values holding 80 %: the first prefix with 5 × sum ≥ 4 × total.
            let mut run = 0u64;
            let k = items.iter().position(|v| { run += v; 5 * run >= 4 * total }).unwrap() + 1;
            prop_assert_eq!(m.keys_for_80, k as u64);
        }
    }

    #[test]
    fn a_log_adds_up_what_its_lines_state(lines in prop::collection::vec((0u8..20, any::<bool>(), 0u32..2000), 1..100)) {
        let mut text = String::from("pk,operation,units\n");
        let (mut reads, mut writes) = (0u64, 0u64);
        for (k, write, halves) in &lines {
            // Units written as halves ÷ 2: 7 halves = 3.5 units.
            let units = Decimal::from(*halves) / Decimal::TWO;
            text.push_str(&format!("k{k},{},{units}\n", if *write { "PutItem" } else { "GetItem" }));
            if *write { writes += u64::from(*halves) } else { reads += u64::from(*halves) }
        }
        let mut s = KeysSummary::new(&Layout { partition: "pk".into(), ..Layout::default() });
        let columns = LogColumns {
            key: "pk".into(),
            operation: "operation".into(),
            units: "units".into(),
            size: "item_size".into(),
            index: "index".into(),
        };
        count_log("log.csv", Box::new(text.as_bytes()), &columns, &mut s).unwrap();
        let t = s.attributes[0].counter.totals();
        prop_assert_eq!(t.read_halves, reads);
        prop_assert_eq!(t.write_halves, writes);
        prop_assert_eq!(s.log_lines, lines.len() as u64);
    }

    #[test]
    fn the_verdict_never_panics(
        reads in any::<i64>(), writes in any::<i64>(), scale in 0u32..28,
        share_r in 0u32..=10_000, share_w in 0u32..=10_000, distinct in 1u64..u64::MAX,
    ) {
        let r = Decimal::new(reads.abs(), scale);
        let w = Decimal::new(writes.abs(), scale);
        let spread = KeySpread {
            distinct: Some(Decimal::from(distinct)),
            busiest_reads: Some(Decimal::new(i64::from(share_r), 4)),
            busiest_writes: Some(Decimal::new(i64::from(share_w), 4)),
        };
        let k = || ddbcost::api::KeySubject::Named("k".to_string());
        if let Ok(a) = assess_key(&k(), &spread, r, w) {
            // Every finding can be put in words (the rounding is the report's).
            for reason in &a.reasons {
                prop_assert!(reason.to_string().starts_with("k "));
            }
            // Hot exactly when a busiest figure is past a partition's limit.
            let hot = a.busiest_rcu > Decimal::from(3000) || a.busiest_wcu > Decimal::from(1000);
            prop_assert_eq!(a.verdict == KeyVerdict::Hot, hot);
        }
        // A maximal peak is an error or a verdict, never a panic.
        if let Ok(a) = assess_key(&k(), &spread, Decimal::MAX, Decimal::MAX) {
            for reason in &a.reasons {
                prop_assert!(!reason.to_string().is_empty());
            }
        }
    }
}
