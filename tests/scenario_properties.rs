//! Properties of the what-if path over generated workloads **and generated scenario sets**:
//! steps and alternatives whose patches add, remove and re-add tables, indexes, PITR and
//! stream consumers, and change rates written as plain decimals of up to 28 digits. The test
//! keeps its own model of what each scenario means and writes each scenario's workload out as
//! a standalone file, so the expected figures never go through the patch code:
//! - `compare` never fails;
//! - every scenario column equals the standalone estimate of its workload, line by line,
//!   exactly;
//! - an empty patch equals the baseline exactly;
//! - `--scenario` of any subset gives the same per-scenario figures (totals, deltas, and a
//!   step's own delta).

mod common;

use common::estimate;
use proptest::prelude::*;
use rust_decimal::Decimal;

const NAMES: [&str; 4] = ["t0", "t1", "t2", "t3"];

/// A table as the test models it.
#[derive(Debug, Clone, PartialEq)]
struct T {
    /// Writes per second, as written: a plain decimal of up to 28 digits.
    rate: String,
    size: u32,
    pitr: bool,
    gsi: Option<&'static str>,
    consumer: bool,
    ia: bool,
}

/// Tables in document order: a patch that adds a table appends it, as a merge patch does, so
/// the standalone file sums its tables in the same order (decimal sums past 28 digits round,
/// and rounding depends on the order).
type Model = indexmap::IndexMap<&'static str, T>;

#[derive(Debug, Clone)]
enum Op {
    Pitr(usize, bool),
    AddTable(usize, T),
    RemoveTable(usize),
    AddGsi(usize, &'static str),
    RemoveGsi(usize),
    Rate(usize, String),
    Class(usize, bool),
    AddConsumer(usize),
    RemoveConsumer(usize),
}

fn rate() -> impl Strategy<Value = String> {
    // Up to 28 significant digits, at most 10^12 a second (the loader's bound).
    (0u128..10u128.pow(28), 16u32..=28).prop_map(|(m, scale)| {
        Decimal::from_i128_with_scale(i128::try_from(m).unwrap(), scale)
            .normalize()
            .to_string()
    })
}

fn table() -> impl Strategy<Value = T> {
    (
        rate(),
        1u32..20_000,
        any::<bool>(),
        prop::option::of(prop::sample::select(vec!["keys-only", "all"])),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(rate, size, pitr, gsi, consumer, ia)| T {
            rate,
            size,
            pitr,
            gsi,
            consumer,
            ia,
        })
}

fn op() -> impl Strategy<Value = Op> {
    let t = 0usize..4;
    prop_oneof![
        (t.clone(), any::<bool>()).prop_map(|(i, b)| Op::Pitr(i, b)),
        (t.clone(), table()).prop_map(|(i, x)| Op::AddTable(i, x)),
        t.clone().prop_map(Op::RemoveTable),
        (t.clone(), prop::sample::select(vec!["keys-only", "all"]))
            .prop_map(|(i, p)| Op::AddGsi(i, p)),
        t.clone().prop_map(Op::RemoveGsi),
        (t.clone(), rate()).prop_map(|(i, r)| Op::Rate(i, r)),
        (t.clone(), any::<bool>()).prop_map(|(i, b)| Op::Class(i, b)),
        t.clone().prop_map(Op::AddConsumer),
        t.prop_map(Op::RemoveConsumer),
    ]
}

/// The YAML of a table as a full definition (a workload's, or a patch adding it).
fn table_yaml(t: &T) -> String {
    let mut out = format!(
        "{{ item_size: {} B, key_size: 20 B, items: 1000, pitr: {}, class: {}",
        t.size,
        t.pitr,
        if t.ia { "standard-ia" } else { "standard" }
    );
    if let Some(p) = t.gsi {
        out.push_str(&format!(
            ", indexes: {{ g: {{ type: gsi, projection: {p}, key_size: 10 B }} }}"
        ));
    }
    if t.consumer {
        out.push_str(", stream: { consumers: { c: { kind: reader, records_per_call: 100 } } }");
    }
    // The rate as a plain YAML number: read from its text, never through a float.
    out.push_str(&format!(
        ", patterns: {{ w: {{ op: put, rate: {} }}, r: {{ op: get, rate: 1/s, consistency: eventual }} }} }}",
        t.rate
    ));
    out
}

fn workload_yaml(m: &Model) -> String {
    let mut out = String::from("prices: aws-us-east-1\ntables:\n");
    for (name, t) in m {
        out.push_str(&format!("  {name}: {}\n", table_yaml(t)));
    }
    out
}

/// Applies `op` to `m`, returning the patch fragment (`tables.NAME: …`) or `None` when the op
/// does not apply (a missing table, or removing the last one).
fn apply(m: &mut Model, op: &Op) -> Option<(String, String)> {
    let name = |i: &usize| NAMES[*i];
    match op {
        Op::AddTable(i, t) => {
            if m.contains_key(name(i)) {
                return None;
            }
            m.insert(name(i), t.clone());
            Some((name(i).into(), table_yaml(t)))
        }
        Op::RemoveTable(i) => {
            if m.len() < 2 || m.shift_remove(name(i)).is_none() {
                return None;
            }
            Some((name(i).into(), "null".into()))
        }
        other => {
            let (Op::Pitr(i, _)
            | Op::AddGsi(i, _)
            | Op::RemoveGsi(i)
            | Op::Rate(i, _)
            | Op::Class(i, _)
            | Op::AddConsumer(i)
            | Op::RemoveConsumer(i)) = other
            else {
                unreachable!()
            };
            let t = m.get_mut(name(i))?;
            let fragment = match other {
                Op::Pitr(_, b) => {
                    t.pitr = *b;
                    format!("{{ pitr: {b} }}")
                }
                Op::AddGsi(_, p) if t.gsi.is_none() => {
                    t.gsi = Some(p);
                    format!(
                        "{{ indexes: {{ g: {{ type: gsi, projection: {p}, key_size: 10 B }} }} }}"
                    )
                }
                Op::RemoveGsi(_) if t.gsi.is_some() => {
                    t.gsi = None;
                    "{ indexes: { g: null } }".into()
                }
                Op::Rate(_, r) => {
                    t.rate.clone_from(r);
                    format!("{{ patterns: {{ w: {{ rate: {r} }} }} }}")
                }
                Op::Class(_, ia) => {
                    t.ia = *ia;
                    format!(
                        "{{ class: {} }}",
                        if *ia { "standard-ia" } else { "standard" }
                    )
                }
                Op::AddConsumer(_) if !t.consumer => {
                    t.consumer = true;
                    "{ stream: { consumers: { c: { kind: reader, records_per_call: 100 } } } }"
                        .into()
                }
                Op::RemoveConsumer(_) if t.consumer => {
                    t.consumer = false;
                    "{ stream: null }".into()
                }
                _ => return None,
            };
            Some((name(i).into(), fragment))
        }
    }
}

/// A scenario: its name, whether it is a step, its patch text and its expected model.
struct Scenario {
    name: String,
    step: bool,
    patch: String,
    model: Model,
}

/// The patch of `ops` applied one after another to `start` (later fragments for the same
/// table are merged by applying them as separate scenarios' worth of edits is not possible in
/// one patch, so only the first op per table is kept).
fn scenario(name: String, step: bool, start: &Model, ops: &[Op]) -> Scenario {
    let mut model = start.clone();
    let mut fragments: Vec<(String, String)> = Vec::new();
    for op in ops {
        let index = match op {
            Op::Pitr(i, _)
            | Op::AddTable(i, _)
            | Op::RemoveTable(i)
            | Op::AddGsi(i, _)
            | Op::RemoveGsi(i)
            | Op::Rate(i, _)
            | Op::Class(i, _)
            | Op::AddConsumer(i)
            | Op::RemoveConsumer(i) => *i,
        };
        if fragments.iter().any(|(t, _)| t == NAMES[index]) {
            continue;
        }
        if let Some(f) = apply(&mut model, op) {
            fragments.push(f);
        }
    }
    let body: Vec<String> = fragments.iter().map(|(t, f)| format!("{t}: {f}")).collect();
    let patch = if body.is_empty() {
        "{}".to_string()
    } else {
        format!("{{ tables: {{ {} }} }}", body.join(", "))
    };
    Scenario {
        name,
        step,
        patch,
        model,
    }
}

fn scenarios(base: &Model, steps: &[Vec<Op>], alternatives: &[Vec<Op>]) -> Vec<Scenario> {
    let mut out = Vec::new();
    let mut current = base.clone();
    for (i, ops) in steps.iter().enumerate() {
        let s = scenario(format!("step-{i}"), true, &current, ops);
        current.clone_from(&s.model);
        out.push(s);
    }
    for (i, ops) in alternatives.iter().enumerate() {
        out.push(scenario(format!("alt-{i}"), false, base, ops));
    }
    // Always one empty patch: it must equal the baseline exactly.
    out.push(scenario("unchanged".into(), false, base, &[]));
    out
}

fn full_yaml(base: &Model, all: &[Scenario]) -> String {
    let mut out = workload_yaml(base);
    out.push_str("scenarios:\n");
    for (key, step) in [("steps", true), ("alternatives", false)] {
        let mine: Vec<&Scenario> = all.iter().filter(|s| s.step == step).collect();
        if mine.is_empty() {
            continue;
        }
        out.push_str(&format!("  {key}:\n"));
        for s in mine {
            out.push_str(&format!(
                "    - name: {}\n      patch: {}\n",
                s.name, s.patch
            ));
        }
    }
    out
}

fn comparison(path: &str, selected: &[&str]) -> ddbcost::api::Comparison {
    let mut args = vec![path];
    for s in selected {
        args.push("--scenario");
        args.push(s);
    }
    ddbcost::api::Session::on_day(20_789)
        .compare_with(args)
        .expect("compare never fails on a valid scenario set")
}

fn model() -> impl Strategy<Value = Model> {
    prop::collection::vec(table(), 1..=3).prop_map(|ts| {
        ts.into_iter()
            .enumerate()
            .map(|(i, t)| (NAMES[i], t))
            .collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn every_scenario_column_equals_its_standalone_estimate(
        base in model(),
        steps in prop::collection::vec(prop::collection::vec(op(), 1..4), 0..4),
        alternatives in prop::collection::vec(prop::collection::vec(op(), 1..4), 0..4),
        mask in any::<u16>(),
    ) {
        let all = scenarios(&base, &steps, &alternatives);
        let text = full_yaml(&base, &all);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("w.yaml");
        std::fs::write(&path, &text).unwrap();
        let path = path.to_string_lossy().into_owned();

        let c = comparison(&path, &[]);
        prop_assert_eq!(c.scenarios.len(), all.len());
        let baseline = estimate(&workload_yaml(&base), "aws-us-east-1");
        prop_assert_eq!(c.baseline.total, baseline.total);
        for (s, expected) in c.scenarios.iter().zip(&all) {
            prop_assert_eq!(&s.name, &expected.name);
            let alone = estimate(&workload_yaml(&expected.model), "aws-us-east-1");
            prop_assert_eq!(s.estimate.total, alone.total, "scenario {}\n{}", s.name, text);
            let lines = |e: &ddbcost::api::Estimate| -> Vec<(String, Option<Decimal>)> {
                e.line_items.iter().map(|l| (l.key.clone(), l.cost)).collect()
            };
            prop_assert_eq!(lines(&s.estimate), lines(&alone), "scenario {}", s.name);
            if s.name == "unchanged" {
                prop_assert_eq!(s.estimate.total, c.baseline.total);
                prop_assert_eq!(lines(&s.estimate), lines(&c.baseline));
            }
            // The delta is the exact difference of the standalone totals.
            prop_assert_eq!(s.delta, alone.total - baseline.total);
        }
        // Each row's cells are the lines of each scenario (absent → None).
        for row in &c.rows {
            for (i, cell) in row.scenarios.iter().enumerate() {
                let line = c.scenarios[i].estimate.line_items.iter().find(|l| l.key == row.key);
                prop_assert_eq!(*cell, line.and_then(|l| l.cost));
            }
        }

        // Any subset shows the same figures for the scenarios it keeps.
        let chosen: Vec<&str> = all
            .iter()
            .enumerate()
            .filter(|(i, _)| mask & (1 << i) != 0)
            .map(|(_, s)| s.name.as_str())
            .collect();
        if !chosen.is_empty() {
            let sub = comparison(&path, &chosen);
            prop_assert_eq!(sub.scenarios.len(), chosen.len());
            for s in &sub.scenarios {
                let full = c.scenarios.iter().find(|f| f.name == s.name).unwrap();
                prop_assert_eq!(s.estimate.total, full.estimate.total);
                prop_assert_eq!(s.delta, full.delta);
                prop_assert_eq!(s.step_delta, full.step_delta);
            }
            // The waterfall's deltas add up to its change, whatever is left out — to 10^-10:
            // totals of 28-digit rates carry 28 significant digits, and each difference of two
            // of them rounds in its last digit.
            if let Some(w) = sub.waterfall() {
                let sum: Decimal = w.steps.iter().map(|s| s.delta).sum();
                prop_assert_eq!(sum.round_dp(10), (w.end - w.start).round_dp(10));
            }
        }
    }
}
