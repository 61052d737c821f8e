//! One test per billing rule of DESIGN.md §3, on small inline workloads priced with the
//! bundled aws-us-east-1 table (RRU $0.125 and WRU $0.625 per million, storage $0.25 per
//! GB-month, PITR $0.20, stream reads $0.20 per million, CDC $0.10 per million).
//! Each expected figure is derived in a comment from the rule and the unit price.

mod common;

use common::{cost, dec, estimate, estimate_with, line, quantity, try_estimate};
use ddbcost::api::Basis;
use ddbcost::api::{GbConvention, Settings};

fn table(body: &str) -> String {
    format!("tables:\n  t:\n{body}")
}

#[test]
fn query_sums_item_sizes_then_rounds_once() {
    // 10 items totalling 40.8 KB (41,779.2 B) → 44 KB → 11 units per query, strong.
    // 1 M queries → 11 M RRU × $0.125 = $1.375.
    let e = estimate(
        &table(
            "    patterns:\n      q: { op: query, rate: 1M/month, items: 10, item_size: 4177.92 B, consistency: strong }\n",
        ),
        "aws-us-east-1",
    );
    assert_eq!(quantity(&e, "t/reads"), dec("11"));
    assert_eq!(cost(&e, "t/reads"), dec("1.375"));
}

#[test]
fn batch_get_rounds_each_item_to_4kb() {
    // 1.5 KB → 1 unit, 6.5 KB → 2 units: 3 units per pair; 1 M pairs → 3 M RRU.
    let e = estimate(
        &table(
            "    patterns:\n      small: { op: batch-get, rate: 1M/month, items: 1, item_size: 1.5 KB, consistency: strong }\n      large: { op: batch-get, rate: 1M/month, items: 1, item_size: 6.5 KB, consistency: strong }\n",
        ),
        "aws-us-east-1",
    );
    assert_eq!(quantity(&e, "t/reads"), dec("3"));
}

#[test]
fn eventual_reads_cost_half_and_missing_items_still_cost() {
    // GetItem of 4 KB: 1 unit strong, 0.5 eventual. 2 M gets eventual → 1 M RRU → $0.125.
    let e = estimate(
        &table(
            "    item_size: 4 KB\n    patterns:\n      g: { op: get, rate: 2M/month, consistency: eventual }\n",
        ),
        "aws-us-east-1",
    );
    assert_eq!(quantity(&e, "t/reads"), dec("1"));
    assert_eq!(cost(&e, "t/reads"), dec("0.125"));
    // A 4.1 KB item costs 2 units: twice a 4 KB one. 1 M gets strong → 2 M RRU.
    let e = estimate(
        &table(
            "    patterns:\n      g: { op: get, rate: 1M/month, item_size: 4.1 KB, consistency: strong }\n",
        ),
        "aws-us-east-1",
    );
    assert_eq!(quantity(&e, "t/reads"), dec("2"));
}

#[test]
fn mixed_consistency_prices_each_share_at_its_rate() {
    // 92 % eventual: 1 − 0.92 / 2 = 0.54 of the strong units. 10 M gets of ≤ 4 KB →
    // 5.4 M RRU × $0.125 = $0.675. The case's 490 × 0.54 = 264.60 is the same arithmetic.
    let e = estimate(
        &table(
            "    item_size: 4 KB\n    patterns:\n      g: { op: get, rate: 10M/month, consistency: 92% eventual }\n",
        ),
        "aws-us-east-1",
    );
    assert_eq!(quantity(&e, "t/reads"), dec("5.4"));
    assert_eq!(cost(&e, "t/reads"), dec("0.675"));
}

#[test]
fn transactional_write_costs_double_on_the_table_only() {
    // Three 500 B items: 3 × 1 unit × 2 (transaction) = 6 units per transaction.
    // 1 M transactions → 6 M WRU × $0.625 = $3.75. The GSI (keys-only, entry < 1 KB) gets
    // 3 index writes per transaction at the normal price: 3 M WRU, not 6.
    let e = estimate(
        &table(
            "    key_size: 20 B\n    indexes:\n      g: { type: gsi, projection: keys-only, key_size: 20 B }\n    patterns:\n      tx: { op: transact-write, rate: 1M/month, items: 3, item_size: 500 B }\n",
        ),
        "aws-us-east-1",
    );
    assert_eq!(quantity(&e, "t/writes"), dec("6"));
    assert_eq!(cost(&e, "t/writes"), dec("3.75"));
    assert_eq!(quantity(&e, "t/gsi/g/writes"), dec("3"));
}

#[test]
fn index_writes_are_sized_on_the_entry() {
    // A 4 KB item put: ALL projection → 4 KB entry → 4 units; KEYS_ONLY → 40 B → 1 unit;
    // INCLUDE 40 + 1,000 B → 1,040 B → 2 units. 1 M puts each.
    let e = estimate(
        &table(
            "    item_size: 4 KB\n    key_size: 20 B\n    indexes:\n      all: { type: gsi, projection: all }\n      keys: { type: gsi, projection: keys-only, key_size: 20 B }\n      inc: { type: gsi, projection: include, key_size: 20 B, projected_size: 1000 B }\n    patterns:\n      p: { op: put, rate: 1M/month }\n",
        ),
        "aws-us-east-1",
    );
    assert_eq!(quantity(&e, "t/writes"), dec("4"));
    assert_eq!(quantity(&e, "t/gsi/all/writes"), dec("4"));
    assert_eq!(quantity(&e, "t/gsi/keys/writes"), dec("1"));
    assert_eq!(quantity(&e, "t/gsi/inc/writes"), dec("2"));
}

#[test]
fn sparse_indexes_and_key_moves() {
    // key_share 0.25: only a quarter of the puts carry the key → 0.25 M index writes.
    // Updates: 10 % move the key (2 writes), 20 % remove it (1), of the other 70 % of an
    // indexed item (share 0.25) none touches the projection (KEYS_ONLY):
    // 1 M × (0.1 × 2 + 0.2 × 1) = 0.4 M index writes.
    let e = estimate(
        &table(
            "    item_size: 500 B\n    key_size: 20 B\n    indexes:\n      s: { type: gsi, projection: keys-only, key_size: 20 B, key_share: 0.25, updates_moving_key: 10%, updates_removing_key: 0.2 }\n    patterns:\n      p: { op: put, rate: 1M/month }\n      u: { op: update, rate: 1M/month }\n",
        ),
        "aws-us-east-1",
    );
    // 0.25 (puts) + 0.4 (updates) = 0.65 M WRU.
    assert_eq!(quantity(&e, "t/gsi/s/writes"), dec("0.65"));
    let attribution = &line(&e, "t/gsi/s/writes").attribution;
    // $0.625 × 0.25 = 0.15625 for the puts, × 0.4 = 0.25 for the updates.
    assert_eq!(attribution[0].cost, dec("0.15625"));
    assert_eq!(attribution[1].cost, dec("0.25"));
}

#[test]
fn index_effects_override_per_pattern() {
    // A put with `index_effects: {g: none}` writes nothing to g; `move` writes 2 per item.
    let e = estimate(
        &table(
            "    item_size: 500 B\n    key_size: 20 B\n    indexes:\n      g: { type: gsi, projection: keys-only, key_size: 20 B }\n    patterns:\n      p: { op: put, rate: 1M/month, index_effects: { g: none } }\n      u: { op: update, rate: 1M/month, index_effects: { g: move } }\n",
        ),
        "aws-us-east-1",
    );
    assert_eq!(quantity(&e, "t/gsi/g/writes"), dec("2"));
}

#[test]
fn storage_adds_100_bytes_per_item_in_table_and_index() {
    // 1,048,576 items × (924 + 100) B = 1 GiB exactly → 1 GB-month × $0.25.
    // The keys-only index holds half of them: 524,288 × (24 + 40 + 100) B = 85,983,232 B
    // = 0.080078125 GiB.
    let e = estimate(
        &table(
            "    items: 1048576\n    item_size: 924 B\n    key_size: 24 B\n    indexes:\n      g: { type: gsi, projection: keys-only, key_size: 40 B, key_share: 0.5 }\n",
        ),
        "aws-us-east-1",
    );
    assert_eq!(quantity(&e, "t/storage"), dec("1"));
    assert_eq!(cost(&e, "t/storage"), dec("0.25"));
    assert_eq!(quantity(&e, "t/gsi/g/storage"), dec("0.080078125"));
    // Under the decimal convention the same bytes are 1,073,741,824 / 10^9 = 1.073741824 GB.
    let decimal = Settings {
        gb: GbConvention::Decimal,
        ..Settings::default()
    };
    let e = estimate_with(
        &table("    items: 1048576\n    item_size: 924 B\n"),
        "aws-us-east-1",
        decimal,
    );
    assert_eq!(quantity(&e, "t/storage"), dec("1.073741824"));
}

#[test]
fn pitr_covers_table_and_lsis_not_gsis() {
    // Table: 1 GiB (1,048,576 × 1,024 B). LSI (ALL, 924 B items + 100 B) also 1 GiB; the GSI
    // is left out of PITR. PITR = 2 GB × $0.20 = $0.40.
    let e = estimate(
        &table(
            "    items: 1048576\n    item_size: 924 B\n    pitr: true\n    indexes:\n      l: { type: lsi, projection: all }\n      g: { type: gsi, projection: all }\n",
        ),
        "aws-us-east-1",
    );
    assert_eq!(quantity(&e, "t/pitr"), dec("2"));
    assert_eq!(cost(&e, "t/pitr"), dec("0.4"));
}

#[test]
fn stream_reads_are_free_for_lambda_and_billed_per_call_otherwise() {
    // 2 M puts a month → 2 M stream records. The Lambda trigger reads them free; a reader
    // getting 100 records per call makes 20,000 calls → 0.02 M × $0.20 = $0.004.
    let e = estimate(
        &table(
            "    item_size: 500 B\n    stream:\n      consumers:\n        fn: { kind: lambda }\n        kcl: { kind: reader, records_per_call: 100 }\n    patterns:\n      p: { op: put, rate: 2M/month }\n",
        ),
        "aws-us-east-1",
    );
    assert_eq!(cost(&e, "t/stream/fn/reads"), dec("0"));
    assert_eq!(quantity(&e, "t/stream/kcl/reads"), dec("0.02"));
    assert_eq!(cost(&e, "t/stream/kcl/reads"), dec("0.004"));
}

#[test]
fn ttl_deletes_are_free_but_streamed_and_captured() {
    // 1 M TTL deletes of 2 KB items: free (price 0), but 1 M stream records for the reader
    // (1 record per call → 1 M calls × $0.20 = $0.20) and 2 CDC units each
    // (2 M × $0.10 per million = $0.20).
    let e = estimate(
        &table(
            "    item_size: 2 KB\n    ttl_deletes: 1M/month\n    kinesis_cdc: true\n    stream:\n      consumers:\n        r: { kind: reader, records_per_call: 1 }\n",
        ),
        "aws-us-east-1",
    );
    assert_eq!(cost(&e, "t/ttl-deletes"), dec("0"));
    assert_eq!(cost(&e, "t/stream/r/reads"), dec("0.2"));
    assert_eq!(quantity(&e, "t/kinesis-cdc"), dec("2"));
    assert_eq!(cost(&e, "t/kinesis-cdc"), dec("0.2"));
}

#[test]
fn replicated_writes_are_billed_in_the_replica_region_without_the_transaction_factor() {
    // 1 M transactions of 2 items × 1 KB: 4 M WRU at home (2 items × 1 unit × 2);
    // us-east-2 receives 2 M replicated writes (no 2×) at $0.625 = $1.25.
    // Transfer: 2 M × 1,024 B = 2,048,000,000 B / 2^30 = 1.9073486328125 GB × $0.01.
    let e = estimate(
        &table(
            "    items: 0\n    item_size: 1 KB\n    replicas: [us-east-2]\n    patterns:\n      tx: { op: transact-write, rate: 1M/month, items: 2 }\n",
        ),
        "aws-us-east-1",
    );
    assert_eq!(quantity(&e, "t/writes"), dec("4"));
    assert_eq!(quantity(&e, "t/replica/us-east-2/writes"), dec("2"));
    assert_eq!(cost(&e, "t/replica/us-east-2/writes"), dec("1.25"));
    assert_eq!(
        line(&e, "t/replica/us-east-2/writes").unit_price,
        dec("0.625")
    );
    assert_eq!(
        quantity(&e, "t/replica/us-east-2/transfer"),
        dec("1.9073486328125")
    );
    assert_eq!(
        cost(&e, "t/replica/us-east-2/transfer"),
        dec("0.019073486328125")
    );
}

#[test]
fn a_replica_region_uses_its_own_prices_and_refuses_the_ones_it_lacks() {
    // us-west-1 knows its replicated write price (0.6975 per million rWRU) but not storage:
    // the replica's storage, known here (1,000 items), needs it, so the estimate is refused,
    // naming the price. (Unknown storage needs no price: tests/multi_region.rs.)
    let err = try_estimate(
        &table("    items: 1000\n    item_size: 1 KB\n    replicas: [us-west-1]\n    patterns:\n      p: { op: put, rate: 1M/month }\n"),
        "aws-us-east-1",
        Settings::default(),
    )
    .unwrap_err();
    assert!(err.message.contains("standard.storage_gb_month"), "{err}");
    assert!(err.message.contains("aws-us-west-1"), "{err}");
}

#[test]
fn a_month_is_730_hours_unless_set() {
    // 1 write a second: 730 × 3,600 = 2,628,000 a month; at 720 hours, 2,592,000.
    let w = table("    item_size: 1 KB\n    patterns:\n      p: { op: put, rate: 1/s }\n");
    assert_eq!(
        quantity(&estimate(&w, "aws-us-east-1"), "t/writes"),
        dec("2.628")
    );
    let s = Settings {
        month_hours: dec("720"),
        ..Settings::default()
    };
    assert_eq!(
        quantity(&estimate_with(&w, "aws-us-east-1", s), "t/writes"),
        dec("2.592")
    );
    // 20,000 a day over 730 hours: 20,000 × 730 / 24 = 608,333.33… (exact decimal division).
    let w = table("    item_size: 1 KB\n    patterns:\n      p: { op: put, rate: 20000/day }\n");
    let q = quantity(&estimate(&w, "aws-us-east-1"), "t/writes");
    assert_eq!(q.round_dp(6), dec("0.608333"));
}

#[test]
fn provisioned_capacity_is_billed_per_unit_hour() {
    // 100 RCU × 730 h × $0.00013 = $9.49; 50 WCU × 730 h × $0.00065 = $23.725.
    let e = estimate(
        &table("    capacity: { mode: provisioned, rcu: 100, wcu: 50 }\n"),
        "aws-us-east-1",
    );
    assert_eq!(quantity(&e, "t/reads"), dec("73000"));
    assert_eq!(cost(&e, "t/reads"), dec("9.49"));
    assert_eq!(cost(&e, "t/writes"), dec("23.725"));
}

#[test]
fn provisioned_capacity_below_average_consumption_warns() {
    // 10 puts/s of 2 KB = 20 WCU on average, above the 5 provisioned.
    let e = estimate(
        &table(
            "    item_size: 2 KB\n    capacity: { mode: provisioned, rcu: 1, wcu: 5 }\n    patterns:\n      p: { op: put, rate: 10/s }\n",
        ),
        "aws-us-east-1",
    );
    assert!(
        e.warnings.iter().any(|w| w.to_string().contains("20 WCU")),
        "{:?}",
        e.warnings
    );
}

#[test]
fn on_demand_peaks_above_a_new_tables_throughput_warn() {
    // 3,000 writes/s on average, 2× in a 12-hour peak (normalized: 2/1.5 and 1/1.5):
    // 4,000 WRU/s at peak is not above 4,000; 3,100/s is (4,133 WRU/s).
    let w = |rate: &str| {
        table(&format!(
            "    item_size: 1 KB\n    traffic: {{ peak: {{ times_off_peak: 2, hours: 12 }} }}\n    patterns:\n      p: {{ op: put, rate: {rate} }}\n"
        ))
    };
    assert!(estimate(&w("3000/s"), "aws-us-east-1").warnings.is_empty());
    let e = estimate(&w("3100/s"), "aws-us-east-1");
    assert!(
        e.warnings
            .iter()
            .any(|m| m.to_string().contains("4133 WRU/s") && m.to_string().contains("absorbs 4000")),
        "{:?}",
        e.warnings
    );
    // The profile does not change the on-demand price: 3,100 × 2,628,000 = 8,146.8 M WRU.
    assert_eq!(quantity(&e, "t/writes"), dec("8146.8"));
}

#[test]
fn free_tier_credits_only_when_asked() {
    // 30 GB of Standard storage: without the free tier $7.50; with it, 25 GB are credited:
    // −25 × $0.25 = −$6.25, total $1.25.
    let w = table("    storage: 30 GB\n");
    let off = estimate(&w, "aws-us-east-1");
    assert_eq!(off.total, dec("7.5"));
    let on = estimate_with(
        &w,
        "aws-us-east-1",
        Settings {
            free_tier: true,
            ..Settings::default()
        },
    );
    assert_eq!(cost(&on, "account/free-tier/storage"), dec("-6.25"));
    assert_eq!(on.total, dec("1.25"));
}

#[test]
fn observed_figures_replace_derived_ones() {
    // Patterns derive 2.628 M RRU (1 get/s); CloudWatch says 5 M: the line uses 5 M
    // ($0.625) and still attributes it to the pattern.
    let e = estimate(
        &table(
            "    item_size: 1 KB\n    observed: { read_units: 5M }\n    patterns:\n      g: { op: get, rate: 1/s, consistency: strong }\n",
        ),
        "aws-us-east-1",
    );
    let l = line(&e, "t/reads");
    assert_eq!(l.quantity, Some(dec("5")));
    assert_eq!(l.cost, Some(dec("0.625")));
    assert_eq!(l.basis, Basis::Observed);
    assert_eq!(&*l.attribution[0].pattern, "g");
}

#[test]
fn unknown_storage_depends_on_usage_and_is_excluded() {
    // No item count and no storage: the storage line shows its price but no quantity, and
    // the total says it excludes it.
    let e = estimate(
        &table("    item_size: 1 KB\n    patterns:\n      p: { op: put, rate: 1M/month }\n"),
        "aws-us-east-1",
    );
    assert_eq!(line(&e, "t/storage").basis, Basis::DependsOnUsage);
    assert_eq!(line(&e, "t/storage").cost, None);
    assert_eq!(e.excluded, vec!["t/storage".to_string()]);
    // 1 M writes × $0.625 per million.
    assert_eq!(e.total, dec("0.625"));
}

#[test]
fn lsi_query_fetching_base_items_rounds_each_fetch() {
    // 10 LSI entries of 100 B: 1,000 B → 1 unit for the index part; each fetched 5 KB item
    // rounds to 8 KB → 2 units × 10 = 20 units on the table. 1 M queries, strong.
    let e = estimate(
        &table(
            "    item_size: 5 KB\n    key_size: 40 B\n    indexes:\n      l: { type: lsi, projection: keys-only, key_size: 60 B }\n    patterns:\n      q: { op: query, index: l, rate: 1M/month, items: 10, consistency: strong, fetch_base_items: true }\n",
        ),
        "aws-us-east-1",
    );
    assert_eq!(quantity(&e, "t/lsi/l/reads"), dec("1"));
    assert_eq!(quantity(&e, "t/reads"), dec("20"));
}

#[test]
fn backups_restores_exports_and_imports() {
    // Table 1 GiB: 4 retained backups → 4 GB-month × $0.10 = $0.40; 2 restores → 2 GB ×
    // $0.15 = $0.30; 1 full export (1 GB) + 0.5 GB incremental → 1.5 GB × $0.10 = $0.15;
    // import 10 GB × $0.15 = $1.50.
    let e = estimate(
        &table(
            "    items: 1048576\n    item_size: 924 B\n    backups: { retained: 4, restores_per_month: 2, full_exports_per_month: 1, incremental_export_per_month: 512 MB, import_per_month: 10 GB }\n",
        ),
        "aws-us-east-1",
    );
    assert_eq!(cost(&e, "t/backups"), dec("0.4"));
    assert_eq!(cost(&e, "t/restores"), dec("0.3"));
    assert_eq!(cost(&e, "t/exports"), dec("0.15"));
    assert_eq!(cost(&e, "t/imports"), dec("1.5"));
}

#[test]
fn scans_are_charged_on_items_evaluated_per_1mb_page() {
    // 1,000 items of 2,000 B: pages of 524 items (256 units) and 476 items (233 units) =
    // 489 units per scan; 1,000 scans eventual → 244,500 RRU = 0.2445 M.
    let e = estimate(
        &table(
            "    patterns:\n      s: { op: scan, rate: 1000/month, items: 1000, item_size: 2000 B, consistency: eventual }\n",
        ),
        "aws-us-east-1",
    );
    assert_eq!(quantity(&e, "t/reads"), dec("0.2445"));
}

#[test]
fn backups_taken_during_the_month_are_billed_from_that_day() {
    // 1,000 items of 1 KB with 2 backups retained; taken on day 16 of a 730-hour month, they
    // are held 730 − 15 × 24 = 370 hours of it: 370/730 of the whole month's GB-months.
    let whole = estimate(
        &table("    items: 1000\n    item_size: 1 KB\n    backups: { retained: 2 }\n"),
        "aws-us-east-1",
    );
    let prorated = estimate(
        &table(
            "    items: 1000\n    item_size: 1 KB\n    backups: { retained: 2, taken_on_day: 16 }\n",
        ),
        "aws-us-east-1",
    );
    let full = quantity(&whole, "t/backups");
    assert_eq!(
        quantity(&prorated, "t/backups"),
        full * dec("370") / dec("730")
    );
    assert!(
        line(&prorated, "t/backups")
            .label
            .to_string()
            .contains("taken on day 16: billed 370 h")
    );
    // Day 32 is no day of a month.
    let err = try_estimate(
        &table("    items: 1000\n    item_size: 1 KB\n    backups: { retained: 2, taken_on_day: 32 }\n"),
        "aws-us-east-1",
        Settings::default(),
    )
    .unwrap_err();
    assert!(err.message.contains("day 32 of the month"), "{err}");
}
