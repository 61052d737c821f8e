//! `ddbcost advise`: every candidate the rules propose is applied to the workload document as
//! a merge patch and priced by the same path `compare` takes (document → loader → engine);
//! those that save are listed largest first, and the ones that do not set the same fields are
//! combined into one plan, priced as cumulative steps (never a sum of separate savings).
//! Every figure comes from the pricing service's `DocumentPricer` (`commands::pricing`).

use rust_decimal::Decimal;

mod slices;
mod taken;

use super::config::Run;
use super::pricing::{DocumentPricer, Pricing};
use crate::advise::{self, Candidate};
use crate::cli::{AdviseArgs, AdviseFormat};
use crate::engine::Estimate;
use crate::error::Error;
use crate::report::advise::{Advice, PlanStep, Suggestion};
use crate::scenario;
use crate::{load, output, report};
use slices::Slices;

pub(super) fn run(args: &AdviseArgs, run: &Run) -> Result<(), Error> {
    let advice = advice(args, run)?;
    let text = match args.format {
        AdviseFormat::Table => report::advise::table(&advice),
        AdviseFormat::Markdown => report::advise::markdown(&advice),
        AdviseFormat::Json => report::advise::json(&advice),
        AdviseFormat::Yaml => report::advise::yaml(&advice)?,
    };
    output::emit(args.output.as_deref(), &text)
}

/// The priced suggestions and the combined plan of `args.workload`.
///
/// # Errors
/// The workload or its prices cannot be read; a bad `--min-saving`.
pub(crate) fn advice(args: &AdviseArgs, run: &Run) -> Result<Advice, Error> {
    let file = args.workload.as_str();
    let min_saving = match &args.min_saving {
        // Default: one minor unit of the currency (set below, once the currency is known).
        None => Decimal::NEGATIVE_ONE,
        Some(text) => text
            .trim()
            .parse::<Decimal>()
            .ok()
            .filter(|d| !d.is_sign_negative())
            .ok_or_else(|| {
                Error::usage(format!("--min-saving `{text}` is not an amount"))
                    .help("Consider a non-negative amount in the estimate's currency, e.g. `--min-saving 10`.")
            })?,
    };
    let (pricing, src) = Pricing::open(file, &args.template, &args.settings, run)?;
    let file = src.label.as_str();
    // The baseline: the workload without its own scenarios.
    let (base, _) = src.scenarios(&[])?;
    let (workload, file_settings) = src.workload_from(base.clone(), file)?;
    let (baseline, book) = pricing.estimate(&workload, &file_settings, src.at(), None)?;
    // A saving that rounds to nothing in the currency is not a saving to act on.
    let min_saving = if min_saving.is_sign_negative() {
        Decimal::new(1, crate::report::money::minor_digits(&baseline.currency))
    } else {
        min_saving
    };
    let mut notes = Vec::new();
    let commitments = commitment_advice(
        &workload,
        &book,
        &pricing,
        &file_settings,
        file,
        run,
        &mut notes,
    )?;
    // Every candidate is priced with the baseline's price book, settings and currency
    // conversion — what `price` would load again for each (a patch changes neither the
    // prices nor the settings), so each figure is the one `compare` shows.
    let pricer = pricing.documents(book, &file_settings, src.at())?;
    let slices = Slices::of(&base, &workload, &baseline, &pricer);
    let mut suggestions = Vec::new();
    for c in advise::candidates(&workload, &pricer.book, commitments.as_ref()) {
        match priced(&base, &c, &pricer, slices.as_ref()) {
            Ok(total) => {
                let saving = baseline.total.saturating_sub(total);
                if saving > Decimal::ZERO && saving >= min_saving {
                    suggestions.push(Suggestion {
                        candidate: c,
                        saving,
                        total,
                    });
                }
            }
            Err(e) => notes.push(format!(
                "`{}` could not be priced, so it is not suggested: {}{}",
                c.name,
                e.message,
                e.help.map(|h| format!(" ({h})")).unwrap_or_default()
            )),
        }
    }
    // Largest saving first; equal savings by name, so the order never depends on the rules'.
    suggestions.sort_by(|a, b| {
        b.saving
            .cmp(&a.saving)
            .then_with(|| a.candidate.name.cmp(&b.candidate.name))
    });
    let plan = combined(base, &baseline, &suggestions, &pricer, slices, &mut notes);
    Ok(Advice {
        workload: args.workload.clone(),
        baseline,
        suggestions,
        plan,
        notes,
    })
}

/// The engine's commitment advice over the 12 months from this one, where commitments can
/// apply: a provisioned table (reserved capacity) or savings-plan rates (a plan).
fn commitment_advice(
    workload: &crate::model::Workload,
    book: &crate::model::PriceBook,
    pricing: &Pricing<'_>,
    file_settings: &load::SettingsOverrides,
    file: &str,
    run: &Run,
    notes: &mut Vec<String>,
) -> Result<Option<crate::engine::CommitmentAdvice>, Error> {
    let provisioned = workload
        .tables
        .iter()
        .any(|t| matches!(t.capacity, crate::model::CapacityMode::Provisioned(_)));
    let rates = workload
        .savings_plan
        .as_ref()
        .is_some_and(|p| p.rates.is_some())
        || book.primary.savings_plan_rates.is_some();
    if !provisioned && !rates {
        notes.push("commitments: no provisioned table and no savings-plan rates, so neither reserved capacity nor a Database Savings Plan applies".to_string());
        return Ok(None);
    }
    let now = run.this_month();
    let settings = pricing.settings(file_settings);
    let advice = crate::engine::advise_commitments(
        workload,
        book,
        &settings,
        (i64::from(now.year), now.month),
        12,
    )
    .map_err(|e| Error::from(e).file(file))?;
    notes.extend(advice.notes.iter().map(|n| format!("commitments: {n}")));
    Ok(Some(advice))
}

/// The total of the baseline document with `candidate`'s patch: its table alone where the
/// slices allow it, else the whole workload.
fn priced(
    base: &serde_json::Value,
    candidate: &Candidate,
    pricer: &DocumentPricer,
    slices: Option<&Slices>,
) -> Result<Decimal, Error> {
    let origin = format!("suggestion `{}`", candidate.name);
    scenario::check_names(base, &candidate.patch, &origin, &pricer.file)?;
    let label = format!("{} (suggestion `{}`)", pricer.file, candidate.name);
    if let Some(slices) = slices
        && let Some(at) = slices.table_of(&candidate.patch)
        && let Some(priced) = slices.price(base, at, &candidate.patch, pricer, &label)?
    {
        return Ok(priced.total);
    }
    let mut doc = base.clone();
    scenario::merge_patch(&mut doc, &candidate.patch);
    pricer.estimate(doc, &label).map(|e| e.total)
}

/// The suggestions that set different fields, applied one on top of the other (largest
/// first; a suggestion that conflicts with one already taken, or that no longer saves on top
/// of the others, is left out), as steps from the baseline. A step on one table is priced
/// with the slices; one on several tables (a commitment) with the whole workload, after
/// which the slices no longer hold and every later step is priced whole.
fn combined(
    mut doc: serde_json::Value,
    baseline: &Estimate,
    suggestions: &[Suggestion],
    pricer: &DocumentPricer,
    mut slices: Option<Slices>,
    notes: &mut Vec<String>,
) -> Option<Vec<PlanStep>> {
    let mut taken = taken::Taken::default();
    let mut steps = Vec::new();
    let mut previous = baseline.total;
    let label = format!("{} (combined plan)", pricer.file);
    for s in suggestions {
        let c = &s.candidate;
        if let Some(other) = taken.conflict(c) {
            notes.push(format!(
                "`{}` is left out of the combined plan: it changes what `{other}` changes",
                c.name
            ));
            continue;
        }
        let sliced = slices.as_ref().and_then(|sl| {
            let at = sl.table_of(&c.patch)?;
            sl.price(&doc, at, &c.patch, pricer, &label).transpose()
        });
        let priced = match sliced {
            Some(result) => result.map(|p| (p.total, Some(p))),
            None => {
                let mut next = doc.clone();
                scenario::merge_patch(&mut next, &c.patch);
                pricer.estimate(next, &label).map(|e| (e.total, None))
            }
        };
        let (total, slice) = match priced {
            Ok(p) => p,
            Err(e) => {
                notes.push(format!(
                    "`{}` is left out of the combined plan: with the others it cannot be priced ({})",
                    c.name, e.message
                ));
                continue;
            }
        };
        if total >= previous {
            notes.push(format!(
                "`{}` is left out of the combined plan: on top of the suggestions before it, it saves nothing",
                c.name
            ));
            continue;
        }
        taken.take(c);
        scenario::merge_patch(&mut doc, &c.patch);
        match (slice, slices.as_mut()) {
            (Some(p), Some(sl)) => sl.take(&p),
            // Priced whole: the slices no longer describe the document.
            _ => slices = None,
        }
        steps.push(PlanStep {
            name: c.name.clone(),
            step_delta: total.saturating_sub(previous),
            total,
        });
        previous = total;
    }
    (!steps.is_empty()).then_some(steps)
}
