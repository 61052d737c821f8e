//! The per-table path against the whole document: generated sweeps over the bundled
//! workloads (rates, classes, capacity, projections, whole patterns replaced, tables removed,
//! transfer out, refused values, another currency, the free tier, reservations) give every
//! design the same outcome both ways — the same total, or the same reason word for word.

use proptest::prelude::*;

use super::super::config::Run;
use super::grid::{self, Path, Priced};
use super::{Sweep, prepare};
use crate::cli::{Cli, Command};

/// A bundled workload, options for the run, and the values each path may take.
struct Menu {
    workload: &'static str,
    options: &'static [&'static str],
    axes: &'static [(&'static str, &'static [&'static str])],
}

const CLOUDSHOP: &[(&str, &[&str])] = &[
    (
        "tables.orders.patterns.create-order.rate",
        &["1/s", "50/s", "-1/s", "3M/month", "0/s", "2000000000000/s"],
    ),
    (
        "tables.orders.patterns.ship-order.rate",
        &["1/s", "7/s", "x", "400/s"],
    ),
    (
        "tables.orders.patterns.daily-close.rate",
        &["1/day", "10/day"],
    ),
    ("tables.orders.class", &["standard", "standard-ia"]),
    ("tables.orders.pitr", &["true", "false"]),
    (
        "tables.orders.patterns.create-order",
        &[
            "{op: get, rate: 5/s}",
            "{rate: 7/s}",
            "{op: put, rate: 1/s, consistency: strong}",
        ],
    ),
    (
        "tables.orders.capacity",
        &[
            "{mode: on-demand}",
            "{mode: provisioned, rcu: 100, wcu: 50}",
            "{mode: provisioned, auto_scaling: {target: 70%}}",
        ],
    ),
    ("tables.orders.item_size", &["1 KB", "3.5 KB", "500 KB"]),
];

const MARKETPLACE: &[(&str, &[&str])] = &[
    ("tables.listings.class", &["standard", "standard-ia"]),
    ("tables.orders.class", &["standard", "standard-ia"]),
    (
        "tables.orders.patterns.get-order.rate",
        &["1/s", "10/s", "-5/s", "1M/month"],
    ),
    (
        "tables.listings.patterns.get-listing.rate",
        &["1/s", "2/s", "300/s"],
    ),
    (
        "tables.orders.patterns.get-order.consistency",
        &["strong", "eventual", "sometimes"],
    ),
    (
        "tables.listings.capacity",
        &["{mode: on-demand}", "{mode: provisioned, rcu: 10, wcu: 5}"],
    ),
    ("tables.orders.pitr", &["true", "false"]),
    ("tables.listings.transfer_out", &["0 GB", "10 TB"]),
    ("tables.orders.transfer_out", &["1 GB", "100 TB"]),
    ("tables.listings", &["null"]),
    (
        "tables.orders.patterns.get-order",
        &[
            "{op: query, index: by-buyer, rate: 3/s, consistency: strong}",
            "{rate: 2/s}",
        ],
    ),
];

const SAAS: &[(&str, &[&str])] = &[
    (
        "tables.app-main.indexes.GSI1.projection",
        &["keys-only", "all"],
    ),
    (
        "tables.app-main.patterns.dashboard.rate",
        &["1/s", "20/s", "300/s"],
    ),
    (
        "tables.app-main.patterns.dashboard.consistency",
        &["strong", "eventual"],
    ),
    ("tables.app-main.patterns.create-task.rate", &["1/s", "5/s"]),
    ("tables.app-main.class", &["standard", "standard-ia"]),
];

const COMMITMENTS: &[(&str, &[&str])] = &[
    (
        "tables.accounts.patterns.get-account.rate",
        &["1/s", "200/s"],
    ),
    ("tables.events.pitr", &["true", "false"]),
    (
        "tables.sessions.capacity",
        &["{mode: on-demand}", "{mode: provisioned, rcu: 50, wcu: 60}"],
    ),
];

const MENUS: &[Menu] = &[
    Menu {
        workload: "cloudshop.yaml",
        options: &[],
        axes: CLOUDSHOP,
    },
    Menu {
        workload: "marketplace-us-east-1.yaml",
        options: &[],
        axes: MARKETPLACE,
    },
    Menu {
        workload: "marketplace-us-east-1.yaml",
        options: &[
            "--currency",
            "EUR",
            "--fx-rate",
            "0.9234",
            "--fx-date",
            "2026-11-30",
        ],
        axes: MARKETPLACE,
    },
    Menu {
        workload: "marketplace-us-east-1.yaml",
        options: &["--free-tier"],
        axes: MARKETPLACE,
    },
    Menu {
        workload: "saas-dashboard.yaml",
        options: &[],
        axes: SAAS,
    },
    Menu {
        workload: "commitments-us-east-1.yaml",
        options: &[],
        axes: COMMITMENTS,
    },
];

/// The sweep `ddbcost sweep WORKLOAD --vary …` would price, or `None` when it stops before
/// pricing (a usage error such as an unknown field).
fn prepared<'r>(menu: &Menu, vary: &[String], run: &'r Run) -> Option<Sweep<'r>> {
    let file = format!("{}/workloads/{}", env!("CARGO_MANIFEST_DIR"), menu.workload);
    let mut args = vec!["ddbcost".to_string(), "sweep".into(), file];
    for v in vary {
        args.extend(["--vary".to_string(), v.clone()]);
    }
    args.extend(menu.options.iter().map(|o| (*o).to_string()));
    let Ok(Cli {
        command: Command::Sweep(sweep),
        ..
    }) = Cli::try_parse_ordered_from(args)
    else {
        panic!("the test's arguments parse");
    };
    prepare(&sweep, run).ok()
}

/// `picks` as `--vary` arguments over `menu`: distinct paths, each with distinct values.
fn vary(menu: &Menu, picks: &[(usize, Vec<usize>)]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut paths: Vec<usize> = Vec::new();
    for (p, values) in picks {
        let p = p.checked_rem(menu.axes.len()).unwrap_or(0);
        if paths.contains(&p) {
            continue;
        }
        paths.push(p);
        let (path, pool) = menu.axes[p];
        let mut chosen: Vec<&str> = Vec::new();
        for v in values {
            let v = pool[v.checked_rem(pool.len()).unwrap_or(0)];
            if !chosen.contains(&v) {
                chosen.push(v);
            }
        }
        out.push(format!("{path}=[{}]", chosen.join(", ")));
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn every_design_is_priced_as_the_whole_document_prices_it(
        menu in 0..MENUS.len(),
        picks in proptest::collection::vec((0..16usize, proptest::collection::vec(0..8usize, 2..6)), 2..5),
        jobs in 1..3usize,
        batch in 1..9usize,
    ) {
        let menu = &MENUS[menu];
        let run = Run::from_environment(Some(200));
        let Some(sweep) = prepared(menu, &vary(menu, &picks), &run) else {
            return Ok(());
        };
        let fast = grid::price_all(&sweep, jobs, Path::Fastest).unwrap();
        let whole = grid::price_all(&sweep, 1, Path::Documents).unwrap();
        prop_assert_eq!(&fast, &whole);
        // The JSON report written in batches on threads is the document printed whole.
        let outcome = super::report::Outcome::new(
            &sweep.file, &sweep.currency, sweep.baseline, None, sweep.count, &sweep.axes, &fast, 3,
        );
        let mut written = Vec::new();
        outcome.json_in_batches(&mut written, jobs, batch).unwrap();
        prop_assert_eq!(String::from_utf8(written).unwrap(), outcome.json_whole());
    }
}

/// The fast path is taken where it should be (and so is what the property above checks):
/// CloudShop's two rates are set on the model, marketplace's tables priced apart; the free
/// tier and reservations pool across tables, so those sweeps go through the document.
#[test]
fn the_per_table_path_is_taken_where_nothing_is_pooled() {
    let run = Run::from_environment(Some(200));
    let plan_of = |menu: &Menu, vary: &[&str]| {
        let vary: Vec<String> = vary.iter().map(|v| (*v).to_string()).collect();
        let sweep = prepared(menu, &vary, &run).expect("a sweep");
        let label = String::from("test");
        super::parts::Plan::new(
            &sweep.axes,
            &sweep.base,
            &sweep.workload,
            &sweep.pricer,
            &label,
            4,
        )
        .map(|p| p.typed_rates())
    };
    assert_eq!(
        plan_of(
            &MENUS[0],
            &[
                "tables.orders.patterns.create-order.rate=1/s,2/s",
                "tables.orders.patterns.ship-order.rate=1/s,2/s"
            ]
        ),
        Some(2)
    );
    // A whole pattern replaced on the same path: its rate is the document's.
    assert_eq!(
        plan_of(
            &MENUS[0],
            &[
                "tables.orders.patterns.create-order.rate=1/s,2/s",
                "tables.orders.patterns.create-order=[{rate: 7/s}]"
            ]
        ),
        Some(0)
    );
    assert_eq!(
        plan_of(
            &MENUS[1],
            &[
                "tables.listings.class=standard,standard-ia",
                "tables.orders.pitr=true,false"
            ]
        ),
        Some(0)
    );
    assert_eq!(plan_of(&MENUS[3], &["tables.orders.pitr=true,false"]), None);
    assert_eq!(plan_of(&MENUS[5], &["tables.events.pitr=true,false"]), None);
    // A sweep of the settings is not on a table.
    assert_eq!(plan_of(&MENUS[1], &["settings.month_hours=720,730"]), None);
    // The outcomes both ways, for a rate beside its whole pattern replaced, for transfer out
    // (tiered over the account: tables that send out are priced together), and for a refusal.
    let both_ways = |menu: &Menu, vary: &[&str]| {
        let vary: Vec<String> = vary.iter().map(|v| (*v).to_string()).collect();
        let sweep = prepared(menu, &vary, &run).expect("a sweep");
        let fast = grid::price_all(&sweep, 2, Path::Fastest).unwrap();
        assert_eq!(fast, grid::price_all(&sweep, 1, Path::Documents).unwrap());
        fast
    };
    both_ways(
        &MENUS[0],
        &[
            "tables.orders.patterns.create-order.rate=1/s,2/s",
            "tables.orders.patterns.create-order=[{rate: 7/s}, {op: get}]",
        ],
    );
    both_ways(
        &MENUS[1],
        &[
            "tables.listings.transfer_out=[0 GB, 10 TB]",
            "tables.orders.transfer_out=[1 GB, 100 TB]",
        ],
    );
    let fast = both_ways(
        &MENUS[0],
        &[
            "tables.orders.patterns.create-order.rate=1/s,2/s",
            "tables.orders.patterns.ship-order.rate=1/s,-2/s",
        ],
    );
    assert!(matches!(fast[0], Priced::Total(_)));
    assert!(
        matches!(&fast[1], Priced::Refused(why) if why.contains("`-2` is negative")),
        "{fast:?}"
    );
}
