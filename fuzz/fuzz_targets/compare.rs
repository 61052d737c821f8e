//! A workload with scenarios, and `--set` lines, through the whole what-if path: merge
//! patches, the scenario workloads, the engine, `compare`, and every renderer. Nothing may
//! panic; and an empty alternative must equal the baseline exactly.
//!
//! Input: lines starting with `--set ` (before the workload text) become `--set` arguments,
//! grouped into one alternative; the rest is the workload file.
#![no_main]
use libfuzzer_sys::fuzz_target;

use ddbcost::engine::{Estimate, estimate};
use ddbcost::model::{PriceBook, Settings};
use ddbcost::report::{self, period::Period};
use ddbcost::scenario::{self, ScenarioInput, ScenarioKind};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let mut sets = Vec::new();
    let mut rest = text;
    while let Some(line) = rest.strip_prefix("--set ") {
        let (set, tail) = line.split_once('\n').unwrap_or((line, ""));
        sets.push(set.to_string());
        rest = tail;
    }
    let groups = if sets.is_empty() { Vec::new() } else { vec![("cli".to_string(), sets)] };
    let Ok((baseline, _)) = ddbcost::load::parse_workload(rest, "fuzz.yaml") else { return };
    let Ok((_, docs)) = scenario::scenario_documents(rest, "fuzz.yaml", &groups) else { return };
    let Ok(primary) = ddbcost::load::prices::resolve("aws-us-east-1") else { return };
    let others = ddbcost::load::prices::bundled().unwrap_or_default();
    let book = PriceBook { primary, others };
    let settings = Settings::default();
    let Ok(base) = estimate(&baseline, &book, &settings) else { return };
    let mut inputs = Vec::new();
    let mut previous = base.total;
    for doc in docs {
        let Ok((workload, _)) = scenario::workload_of(&doc, "fuzz.yaml") else { return };
        let Ok(e): Result<Estimate, _> = estimate(&workload, &book, &settings) else { return };
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
    let Ok(c) = scenario::compare(base, inputs) else { return };
    let period = Period::parse("2026-12").expect("a valid period");
    let _ = report::compare::table(&c);
    let _ = report::compare::json(&c);
    let _ = report::compare::markdown(&c);
    let _ = report::finance::render(&c, period, true);
    let _ = report::html::render(&c, period);
    for s in &c.scenarios {
        let _ = report::focus::render(&[(s.name.as_str(), &s.estimate)], period);
    }
    let _ = c.waterfall();
});
