//! Rendering `ddbcost advise`: the suggestions largest saving first (title, rule, saving in
//! money and %, what it assumes, its patch), the combined plan as cumulative steps with their
//! waterfall, and notes on what was not suggested. `yaml` prints the patches as a
//! `scenarios:` block to paste into the workload. Savings are exact; shown rounded to the
//! currency's minor unit.

use rust_decimal::Decimal;
use serde_json::{Value, json};

use super::{markdown, money};
use crate::advise::Candidate;
use crate::engine::Estimate;
use crate::error::Error;

/// One priced suggestion.
#[derive(Debug, Clone)]
pub struct Suggestion {
    pub candidate: Candidate,
    /// Baseline total − this suggestion's total (> 0).
    pub saving: Decimal,
    pub total: Decimal,
}

/// Everything `advise` found.
#[derive(Debug, Clone)]
pub struct Advice {
    pub workload: String,
    pub baseline: Estimate,
    pub suggestions: Vec<Suggestion>,
    /// The combined plan: its steps, each on top of the previous, from the baseline.
    pub plan: Option<Vec<PlanStep>>,
    pub notes: Vec<String>,
}

/// One step of the combined plan: a suggestion applied on top of the steps before it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanStep {
    /// The suggestion's name.
    pub name: String,
    /// The step's own change: its total less the previous step's (or the baseline's).
    pub step_delta: Decimal,
    /// The workload's total with this step and every one before it.
    pub total: Decimal,
}

impl Advice {
    fn currency(&self) -> &str {
        &self.baseline.currency
    }

    fn show(&self, d: Decimal) -> String {
        money::display(d, self.currency())
    }

    /// `saving` as a share of the baseline, in percent to 0.1.
    fn percent(&self, saving: Decimal) -> String {
        saving
            .checked_mul(Decimal::ONE_HUNDRED)
            .and_then(|x| x.checked_div(self.baseline.total))
            .map_or_else(|| "—".to_string(), |p| format!("{} %", p.round_dp(1)))
    }

    /// The plan's total and saving.
    fn plan_total(&self) -> Option<(Decimal, Decimal)> {
        let plan = self.plan.as_ref()?;
        let last = plan.last()?;
        Some((last.total, self.baseline.total.saturating_sub(last.total)))
    }

    fn heading(&self) -> String {
        format!(
            "Advice for {}: baseline {} {} a month; {} suggestion(s) that save",
            self.workload,
            self.show(self.baseline.total),
            self.currency(),
            self.suggestions.len()
        )
    }
}

fn patch_yaml(patch: &Value) -> String {
    crate::load::yaml::to_text(patch).unwrap_or_else(|e| e.message.to_string())
}

fn indent(text: &str, by: &str) -> String {
    text.lines().fold(String::new(), |mut out, l| {
        out.push_str(by);
        out.push_str(l);
        out.push('\n');
        out
    })
}

/// The terminal report.
#[must_use]
pub(crate) fn table(a: &Advice) -> String {
    let mut out = format!("{}\n", a.heading());
    let cur = a.currency();
    for (i, s) in a.suggestions.iter().enumerate() {
        let c = &s.candidate;
        out.push_str(&format!(
            "\n{}. {} — saves {} {cur} a month ({}), {} → {}\n   Scenario: {}\n   Rule: {}\n   Assumes: {}\n   Patch:\n{}",
            i.saturating_add(1),
            c.title,
            a.show(s.saving),
            a.percent(s.saving),
            a.show(a.baseline.total),
            a.show(s.total),
            c.name,
            c.rule,
            c.assumes,
            indent(&patch_yaml(&c.patch), "     ")
        ));
    }
    if a.suggestions.is_empty() {
        out.push_str("\nNo change the workload's declarations allow saves money.\n");
    }
    if let (Some(plan), Some((total, saving))) = (&a.plan, a.plan_total()) {
        out.push_str(&format!(
            "\nCombined plan (each step on top of the previous, priced together): {} → {} {cur} a month, saves {} ({})\n",
            a.show(a.baseline.total),
            a.show(total),
            a.show(saving),
            a.percent(saving)
        ));
        for s in plan {
            out.push_str(&format!(
                "  {:<40} {:>14} → {:>14}\n",
                s.name,
                a.show(s.step_delta),
                a.show(s.total)
            ));
        }
    }
    for n in &a.notes {
        out.push_str(&format!("Note: {n}\n"));
    }
    out.push_str(&format!(
        "\nEach saving is the engine's total with the patch applied (as `compare` prices it) less the baseline's; {}.\n",
        money::policy(cur)
    ));
    out
}

/// Markdown, for a pull request.
#[must_use]
pub(crate) fn markdown(a: &Advice) -> String {
    let cur = a.currency();
    let mut out = format!("## {}\n\n", markdown::cell(&a.heading()));
    let rows: Vec<Vec<String>> = a
        .suggestions
        .iter()
        .map(|s| {
            vec![
                format!("`{}`", s.candidate.name),
                s.candidate.title.clone(),
                a.show(s.saving),
                a.percent(s.saving),
                a.show(s.total),
            ]
        })
        .collect();
    out.push_str(&markdown::table(
        &[
            "Scenario",
            "Suggestion",
            &format!("Saving ({cur}/month)"),
            "%",
            "Total after",
        ],
        &[false, false, true, true, true],
        &rows,
    ));
    for s in &a.suggestions {
        let c = &s.candidate;
        out.push_str(&format!(
            "\n### {}\n\n{} _Assumes:_ {}\n\n```yaml\n{}```\n",
            markdown::cell(&c.title),
            c.rule,
            c.assumes,
            patch_yaml(&c.patch)
        ));
    }
    if let (Some(plan), Some((total, saving))) = (&a.plan, a.plan_total()) {
        out.push_str(&format!(
            "\n### Combined plan: {} → {} {cur}, saves {} ({})\n\n",
            a.show(a.baseline.total),
            a.show(total),
            a.show(saving),
            a.percent(saving)
        ));
        let rows: Vec<Vec<String>> = plan
            .iter()
            .map(|s| {
                vec![
                    format!("`{}`", s.name),
                    a.show(s.step_delta),
                    a.show(s.total),
                ]
            })
            .collect();
        out.push_str(&markdown::table(
            &["Step", "Δ of the step", "Running total"],
            &[false, true, true],
            &rows,
        ));
    }
    for n in &a.notes {
        out.push_str(&format!("\n_Note: {}_\n", markdown::cell(n)));
    }
    out.push_str(&format!("\n_{}._\n", money::policy(cur)));
    out
}

/// JSON: exact amounts as strings, each suggestion with its patch.
#[must_use]
pub(crate) fn json(a: &Advice) -> String {
    let suggestions: Vec<Value> = a
        .suggestions
        .iter()
        .map(|s| {
            let c = &s.candidate;
            json!({
                "name": c.name, "title": c.title, "rule": c.rule, "assumes": c.assumes,
                "monthly_saving": s.saving, "monthly_total": s.total,
                "saving_percent": s.saving.checked_mul(Decimal::ONE_HUNDRED).and_then(|x| x.checked_div(a.baseline.total)),
                "patch": c.patch,
            })
        })
        .collect();
    let plan = a.plan.as_ref().and_then(|p| {
        let (total, saving) = a.plan_total()?;
        Some(json!({
            "steps": p.iter().map(|s| json!({
                "name": s.name, "step_delta": s.step_delta, "monthly_total": s.total,
            })).collect::<Vec<_>>(),
            "monthly_total": total, "monthly_saving": saving,
        }))
    });
    let doc = json!({
        "schema": "ddbcost.advise/v1",
        "workload": a.workload,
        "currency": a.currency(),
        "baseline_total": a.baseline.total,
        "suggestions": suggestions,
        "plan": plan,
        "notes": a.notes,
    });
    format!(
        "{}\n",
        serde_json::to_string_pretty(&doc).unwrap_or_default()
    )
}

/// The suggestions as `scenarios.alternatives` (each alone on the baseline) and the combined
/// plan as `scenarios.steps` (named `plan-…`), ready to paste into the workload.
///
/// # Errors
/// A patch YAML cannot hold (never for the advisor's patches).
pub(crate) fn yaml(a: &Advice) -> Result<String, Error> {
    let cur = a.currency();
    let alternatives: Vec<Value> = a
        .suggestions
        .iter()
        .map(|s| {
            let c = &s.candidate;
            json!({
                "name": c.name,
                "description": format!("{} — saves {} {cur} a month ({}). {} Assumes: {}", c.title, a.show(s.saving), a.percent(s.saving), c.rule, c.assumes),
                "patch": c.patch,
            })
        })
        .collect();
    let mut scenarios = serde_json::Map::new();
    scenarios.insert("alternatives".into(), Value::Array(alternatives));
    if let Some(plan) = &a.plan {
        let by_name: std::collections::HashMap<&str, &Suggestion> = a
            .suggestions
            .iter()
            .rev() // the first of a name wins
            .map(|s| (s.candidate.name.as_str(), s))
            .collect();
        let steps: Vec<Value> = plan
            .iter()
            .filter_map(|step| {
                let s = by_name.get(step.name.as_str())?;
                Some(json!({
                    "name": format!("plan-{}", step.name),
                    "description": format!("Combined plan: {}", s.candidate.title),
                    "patch": s.candidate.patch,
                }))
            })
            .collect();
        scenarios.insert("steps".into(), Value::Array(steps));
    }
    let body = crate::load::yaml::to_text(&json!({ "scenarios": scenarios }))?;
    Ok(format!(
        "# ddbcost advise {}: baseline {} {cur} a month. Paste under the workload's `scenarios:`\n# (alternatives: each suggestion alone; steps: the combined plan), then `ddbcost compare`.\n{body}",
        a.workload,
        a.show(a.baseline.total)
    ))
}
