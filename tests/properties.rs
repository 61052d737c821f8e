//! Properties that must hold for every input, checked with proptest on generated workloads,
//! items and size distributions.

mod common;

use common::{dec, estimate};
use ddbcost::api::exports as json;
use ddbcost::api::size::Summary;
use ddbcost::api::size::{Shape, size_item};
use proptest::prelude::*;
use rust_decimal::Decimal;

/// A one-table workload: a read and a write pattern, optionally a GSI, priced in us-east-1.
#[derive(Debug, Clone)]
struct W {
    read_rate: u32,
    write_rate: u32,
    size: u32,
    items: u32,
    eventual: bool,
    read_op: &'static str,
    write_op: &'static str,
    index: Option<&'static str>,
}

impl W {
    fn yaml(&self) -> String {
        let consistency = if self.eventual { "eventual" } else { "strong" };
        let items = if matches!(self.read_op, "query" | "scan" | "batch-get") {
            format!(", items: {}", self.items)
        } else {
            String::new()
        };
        let witems = if matches!(self.write_op, "batch-write" | "transact-write") {
            format!(", items: {}", self.items.min(25))
        } else {
            String::new()
        };
        let index = match self.index {
            Some(p) => format!(
                "    indexes:\n      g: {{ type: gsi, projection: {p}, key_size: 20 B{} }}\n",
                if p == "include" {
                    ", projected_size: 100 B"
                } else {
                    ""
                }
            ),
            None => String::new(),
        };
        format!(
            "tables:\n  t:\n    item_size: {} B\n    key_size: 30 B\n{index}    patterns:\n      r: {{ op: {}, rate: {}/month, consistency: {consistency}{items} }}\n      w: {{ op: {}, rate: {}/month{witems} }}\n",
            self.size, self.read_op, self.read_rate, self.write_op, self.write_rate
        )
    }

    fn total(&self) -> Decimal {
        estimate(&self.yaml(), "aws-us-east-1").total
    }
}

fn workload() -> impl Strategy<Value = W> {
    (
        0u32..5_000_000,
        0u32..5_000_000,
        1u32..409_600,
        1u32..100,
        any::<bool>(),
        prop::sample::select(vec!["get", "query", "scan", "batch-get"]),
        prop::sample::select(vec![
            "put",
            "update",
            "delete",
            "batch-write",
            "transact-write",
        ]),
        prop::option::of(prop::sample::select(vec!["keys-only", "include", "all"])),
    )
        .prop_map(
            |(read_rate, write_rate, size, items, eventual, read_op, write_op, index)| W {
                read_rate,
                write_rate,
                size,
                items,
                eventual,
                read_op,
                write_op,
                index,
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn cost_never_falls_when_a_rate_or_a_size_rises(w in workload(), more in 1u32..1_000_000, bigger in 1u32..4096) {
        let base = w.total();
        let busier = W { read_rate: w.read_rate + more, write_rate: w.write_rate + more, ..w.clone() };
        prop_assert!(busier.total() >= base);
        let larger = W { size: (w.size + bigger).min(409_600), ..w.clone() };
        prop_assert!(larger.total() >= base);
    }

    #[test]
    fn eventual_never_costs_more_than_strong(w in workload()) {
        let strong = W { eventual: false, ..w.clone() }.total();
        let eventual = W { eventual: true, ..w }.total();
        prop_assert!(eventual <= strong);
    }

    #[test]
    fn adding_an_index_never_lowers_the_bill(w in workload(), p in prop::sample::select(vec!["keys-only", "include", "all"])) {
        let without = W { index: None, ..w.clone() }.total();
        let with = W { index: Some(p), ..w }.total();
        prop_assert!(with >= without);
    }

    #[test]
    fn on_demand_cost_is_linear_in_traffic(w in workload(), k in 1u32..20) {
        // No storage is stated, so every priced line is a request line.
        let scaled = W { read_rate: w.read_rate * k, write_rate: w.write_rate * k, ..w.clone() };
        prop_assert_eq!(scaled.total(), w.total() * Decimal::from(k));
    }

    #[test]
    fn json_output_parses_back_to_the_same_numbers(w in workload()) {
        let e = estimate(&w.yaml(), "aws-us-east-1");
        let doc = json::document(&e);
        let text = serde_json::to_string(&doc).unwrap();
        let back: json::EstimateDoc = serde_json::from_str(&text).unwrap();
        prop_assert_eq!(&back, &doc);
        prop_assert_eq!(back.total, e.total.normalize());
        let sum: Decimal = back.line_items.iter().filter_map(|l| l.cost).sum();
        prop_assert_eq!(sum, e.total);
    }

    #[test]
    fn an_empty_scenario_patch_equals_the_baseline(w in workload()) {
        let text = format!("prices: aws-us-east-1\n{}scenarios:\n  alternatives:\n    - name: same\n      patch: {{}}\n", w.yaml());
        let (_, docs) = ddbcost::api::scenarios(&text, "w.yaml", &[]).unwrap();
        let (patched, _) = ddbcost::api::scenario_workload(&docs[0], "w.yaml").unwrap();
        let (base, _) = ddbcost::api::load(&text, "w.yaml").unwrap();
        prop_assert_eq!(patched, base);
    }
}

/// A generated attribute value with its size worked out as it is built, from the rules
/// written independently of the sizer.
#[derive(Debug, Clone)]
enum Attr {
    S(String),
    N(u64),
    Bool(bool),
    Null,
    L(Vec<Attr>),
    M(Vec<(String, Attr)>),
}

/// Size of a non-negative integer: its digits grouped in pairs from the right, trailing
/// all-zero pairs dropped, one byte per pair, plus one.
fn integer_size(n: u64) -> u64 {
    if n == 0 {
        return 1;
    }
    let mut digits = n.to_string();
    if digits.len() % 2 == 1 {
        digits.insert(0, '0');
    }
    let mut pairs: Vec<&str> = (0..digits.len())
        .step_by(2)
        .map(|i| &digits[i..i + 2])
        .collect();
    while pairs.last() == Some(&"00") {
        pairs.pop();
    }
    1 + pairs.len() as u64
}

impl Attr {
    fn size(&self) -> u64 {
        match self {
            Attr::S(s) => s.len() as u64,
            Attr::N(n) => integer_size(*n),
            Attr::Bool(_) | Attr::Null => 1,
            Attr::L(items) => 3 + items.iter().map(|a| a.size() + 1).sum::<u64>(),
            Attr::M(entries) => {
                3 + entries
                    .iter()
                    .map(|(k, a)| k.len() as u64 + a.size() + 1)
                    .sum::<u64>()
            }
        }
    }

    fn json(&self) -> serde_json::Value {
        use serde_json::json;
        match self {
            Attr::S(s) => json!({ "S": s }),
            Attr::N(n) => json!({ "N": n.to_string() }),
            Attr::Bool(b) => json!({ "BOOL": b }),
            Attr::Null => json!({ "NULL": true }),
            Attr::L(items) => json!({ "L": items.iter().map(Attr::json).collect::<Vec<_>>() }),
            Attr::M(entries) => {
                json!({ "M": entries.iter().map(|(k, a)| (k.clone(), a.json())).collect::<serde_json::Map<_, _>>() })
            }
        }
    }
}

fn attr() -> impl Strategy<Value = Attr> {
    let leaf = prop_oneof![
        "\\PC{0,20}".prop_map(Attr::S),
        any::<u64>().prop_map(Attr::N),
        any::<bool>().prop_map(Attr::Bool),
        Just(Attr::Null),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Attr::L),
            prop::collection::btree_map("[a-z]{1,6}", inner, 0..4)
                .prop_map(|m| Attr::M(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn an_items_size_is_the_sum_of_its_parts(attrs in prop::collection::btree_map("[A-Za-z0-9_é]{1,8}", attr(), 0..6)) {
        let expected: u64 = attrs.iter().map(|(name, a)| name.len() as u64 + a.size()).sum();
        let item: serde_json::Map<String, serde_json::Value> = attrs.iter().map(|(k, a)| (k.clone(), a.json())).collect();
        let text = serde_json::to_vec(&item).unwrap();
        prop_assert_eq!(size_item(&text, Shape::DynamoDb, &[]).unwrap().bytes, expected);
    }

    #[test]
    fn integer_sizes_agree_with_the_rules_module(n in any::<u64>()) {
        prop_assert_eq!(ddbcost::api::size::number_size(&n.to_string()), Some(integer_size(n)));
    }

    #[test]
    fn splitting_and_merging_summaries_equals_sizing_the_whole(sizes in prop::collection::vec(0u64..=409_600, 0..200), cut in 0usize..200) {
        let cut = cut.min(sizes.len());
        let mut whole = Summary::default();
        let (mut a, mut b) = (Summary::default(), Summary::default());
        for (i, s) in sizes.iter().enumerate() {
            whole.sizes.add(*s);
            if i < cut { a.sizes.add(*s) } else { b.sizes.add(*s) }
        }
        a.merge(&b).expect("small counts");
        prop_assert_eq!(a.sizes.stats(), whole.sizes.stats());
        let back = Summary::from_document(&a.document()).expect("its own document");
        prop_assert_eq!(back.sizes, whole.sizes);
    }
}

#[test]
fn the_generator_helpers_follow_the_rules() {
    // 100 → "01|00" → 1 pair → 2; 1010 → 2 pairs → 3; 1100000 → "01|10|00|00" → 3.
    assert_eq!(
        (
            integer_size(100),
            integer_size(1010),
            integer_size(1_100_000)
        ),
        (2, 3, 3)
    );
    let _ = dec("1");
}
