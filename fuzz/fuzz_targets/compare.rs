//! A workload with scenarios, and `--set` lines, through the whole what-if path: merge
//! patches, the scenario workloads, the engine, `compare`, and every renderer. Nothing may
//! panic; and an empty alternative must equal the baseline exactly.
//!
//! Input: an optional first line `--fx-rate RATE` shows every estimate in EUR at that rate
//! (the `--currency` path: the converted lines must still add up to the converted total);
//! lines starting with `--set ` (before the workload text) become `--set` arguments, grouped
//! into one alternative; the rest is the workload file.
#![no_main]
use libfuzzer_sys::fuzz_target;

use ddbcost::api::exports::{self, Period};
use ddbcost::api::{estimate, Estimate, ReportFormat, ScenarioInput, ScenarioKind, Settings};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let mut sets = Vec::new();
    let mut rest = text;
    let mut fx = None;
    if let Some(line) = rest.strip_prefix("--fx-rate ") {
        let (rate, tail) = line.split_once('\n').unwrap_or((line, ""));
        rest = tail;
        let Ok(rate) = ddbcost::api::parse_fx_rate(rate) else { return };
        fx = Some(ddbcost::api::Fx {
            from: "USD".into(),
            to: "EUR".into(),
            rate,
            date: "2026-11-30".into(),
            source: "fuzz".into(),
        });
    }
    // The conversion `price` applies after the engine, checked like it.
    let shown = |e: Estimate| -> Option<Estimate> {
        let Some(fx) = &fx else { return Some(e) };
        let e = ddbcost::api::convert(e, fx).ok()?;
        let sum = e
            .line_items
            .iter()
            .filter_map(|l| l.cost)
            .try_fold(rust_decimal::Decimal::ZERO, |a, c| a.checked_add(c));
        assert_eq!(sum, Some(e.total), "converted lines add up to the converted total");
        Some(e)
    };
    while let Some(line) = rest.strip_prefix("--set ") {
        let (set, tail) = line.split_once('\n').unwrap_or((line, ""));
        sets.push(set.to_string());
        rest = tail;
    }
    let groups = if sets.is_empty() { Vec::new() } else { vec![("cli".to_string(), sets)] };
    let Ok((baseline, _)) = ddbcost::api::load(rest, "fuzz.yaml") else { return };
    let Ok((_, docs)) = ddbcost::api::scenarios(rest, "fuzz.yaml", &groups) else { return };
    let Ok(book) = ddbcost::api::prices("aws-us-east-1") else { return };
    let settings = Settings::default();
    let Ok(base) = estimate(&baseline, &book, &settings) else { return };
    let Some(base) = shown(base) else { return };
    let mut inputs = Vec::new();
    let mut previous = base.total;
    for doc in docs {
        let Ok((workload, _)) = ddbcost::api::scenario_workload(&doc, "fuzz.yaml") else { return };
        let Ok(e): Result<Estimate, _> = estimate(&workload, &book, &settings) else { return };
        let Some(e) = shown(e) else { return };
        let previous_total = (doc.kind == ScenarioKind::Step).then_some(previous);
        if doc.kind == ScenarioKind::Step {
            previous = e.total;
        }
        inputs.push(ScenarioInput {
            name: doc.name,
            description: doc.description,
            kind: doc.kind,
            estimate: e,
            previous_total,
        });
    }
    let Ok(c) = ddbcost::api::compare(base, inputs) else { return };
    let period = Period::parse("2026-12").expect("a valid period");
    for format in [ReportFormat::Table, ReportFormat::Json, ReportFormat::Markdown] {
        let _ = ddbcost::api::render_comparison(&c, format);
    }
    let _ = exports::finance(&c, period, true);
    assert!(exports::html(&c, period).is_ok(), "the page renders");
    for s in &c.scenarios {
        let _ = exports::focus(&[(s.name.as_str(), &s.estimate)], period);
    }
    let _ = c.waterfall();
});
