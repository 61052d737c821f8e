//! `ddbcost usage`: CloudWatch's measured consumption read (`cloudwatch`), one curve per
//! table, GSI and dimension over the window measured (a period without a point — CloudWatch
//! writes none when nothing was consumed — is counted as a gap and taken as 0, and said), and
//! the capacity decision on it (`engine::measured`): on demand, auto scaling simulated step
//! by step, fixed at the peak, and the current capacity where measured, per month; then the
//! verdict by the seeds' rule. `usage query` writes the fetch (`cloudwatch::query`).

use rust_decimal::Decimal;

use super::config::Run;
use super::pricing::Pricing;
use crate::cli::{UsageAction, UsageArgs, UsageQueryArgs};
use crate::cloudwatch::input::Input;
use crate::cloudwatch::{self, analysis};
use crate::error::Error;
use crate::model::Workload;
use crate::{load, output, report};

pub(super) fn run(args: &UsageArgs, run: &Run) -> Result<(), Error> {
    if let Some(UsageAction::Query(q)) = &args.action {
        return query(q, run);
    }
    // The arguments that need no input, typed first.
    let target = typed_target(args)?;
    // The pricing flags as `estimate` takes them, checked before any input is read.
    let pricing = Pricing::new(&args.settings, run)?;
    // Standard input is held (it cannot be read twice); a file is opened for each pass.
    let input = |f: &String| -> Result<Input, Error> {
        if f == load::STDIN {
            Ok(Input::text(f, metrics_from_stdin()?))
        } else {
            Ok(Input::file(f))
        }
    };
    let queries = args
        .queries
        .iter()
        .map(input)
        .collect::<Result<Vec<_>, _>>()?;
    let inputs = args
        .inputs
        .iter()
        .map(input)
        .collect::<Result<Vec<_>, _>>()?;
    let workload = match &args.workload {
        Some(file) => {
            // Read once: it may be standard input.
            let text = load::read_file(file)?;
            let (w, file_settings) = load::parse_workload_at(&text, file, file, &run.samples)?;
            pricing.check_strict(&w, file)?;
            Some((w, file_settings, file.clone(), text))
        }
        None => None,
    };
    let (book, file_settings) = match &workload {
        Some((w, file_settings, file, _)) => (pricing.book(w, file)?, file_settings.clone()),
        None => {
            // Without a workload, `--prices` or the us-east-1 table.
            let w = Workload {
                prices: Some("aws-us-east-1".to_string()),
                ..Workload::default()
            };
            (
                pricing.book(&w, "usage")?,
                load::SettingsOverrides::default(),
            )
        }
    };
    let settings = pricing.settings(&file_settings);
    // `--currency`: every price converted at the stated rate before anything is priced.
    let fx = pricing.fx(&book.primary.currency, &file_settings)?;
    let book = match &fx {
        Some(fx) => crate::engine::convert_book(book, fx).map_err(Error::from)?,
        None => book,
    };
    let mut report = analysis::measure(
        &inputs,
        &queries,
        args.max_points_held,
        &analysis::Facts {
            workload: workload.as_ref().map(|(w, _, _, _)| w),
            book: &book,
            target,
            month_hours: settings.month_hours,
            allow_partial: args.allow_partial,
            hour_by_hour: matches!(
                args.format,
                crate::cli::UsageFormat::Csv | crate::cli::UsageFormat::Html
            ),
        },
    )?;
    report.fx = fx.as_ref().map(crate::model::Fx::describe);
    // Prices' age is counted to the month the window starts in.
    pricing.book_freshness(
        &book,
        Some(crate::model::period::Period::containing(
            u64::try_from(report.start.max(0)).unwrap_or(0),
        )),
    )?;
    for w in &report.warnings {
        run.diagnostics.once("warning", w);
    }
    if let Some((_, _, file, text)) = &workload {
        let doc = load::yaml::parse_value(text, file)?;
        let yaml = cloudwatch::measured::workload(doc, &report, file);
        // What is written must load: a measured figure the loader refuses is ddbcost's bug.
        let (measured, _) = load::parse_workload_at(&yaml, file, file, &run.samples)?;
        index_findings(&mut report, &measured, file, &book, &settings)?;
        projection_findings(
            &mut report,
            (&doc_of(text, file)?, &yaml),
            (&measured, file),
            (&book, &settings),
            run,
        )?;
        report.commitments = Some(commitments(
            &report,
            &yaml,
            &measured,
            file,
            &book,
            &settings,
            args.months,
            run,
        )?);
        if let Some(out) = &args.measured_workload {
            output::emit(Some(out), &yaml)?;
        }
    }
    let text = match args.format {
        crate::cli::UsageFormat::Table => report::usage::table(&report),
        crate::cli::UsageFormat::Markdown => report::usage::markdown(&report),
        crate::cli::UsageFormat::Json => report::usage::json(&report),
        crate::cli::UsageFormat::Csv => report::usage::csv(&report),
        crate::cli::UsageFormat::Html => report::usage::html(&report)?,
    };
    output::emit(args.output.as_deref(), &text)
}

/// `--target`, `--months` and `--max-points-held`, typed before any input is read: the
/// target as a share.
fn typed_target(args: &UsageArgs) -> Result<Decimal, Error> {
    let target = load::quantity::parse_share(&args.target)
        .ok()
        .filter(|t| *t > Decimal::ZERO)
        .ok_or_else(|| {
            Error::usage(format!(
                "--target `{}` is not a share in (0, 100 %]",
                args.target
            ))
            .help("Consider `--target 70%` (DynamoDB's default), between 20 % and 90 %.")
        })?;
    if args.months == 0 || args.months > 120 {
        return Err(
            Error::usage(format!("--months {} is outside 1–120", args.months))
                .help("Consider `--months 12` (or 36 for a three-year reservation)."),
        );
    }
    if args.max_points_held == 0 {
        return Err(Error::usage("--max-points-held 0: no point could be read")
            .help("Consider the default (4,000,000 points, about 200 MB)."));
    }
    Ok(target)
}

/// What the measured GSIs could save, priced on the measured workload with the run's prices
/// and settings: one never read in the window is named with the saving of deleting it — its
/// measured writes and read capacity as they cost today, and its storage line.
fn index_findings(
    report: &mut analysis::Report,
    measured: &Workload,
    file: &str,
    book: &crate::model::PriceBook,
    settings: &crate::model::Settings,
) -> Result<(), Error> {
    use crate::cloudwatch::analysis::IndexFinding;
    let baseline =
        crate::engine::estimate(measured, book, settings).map_err(|e| Error::from(e).file(file))?;
    let line = |key: &str| {
        baseline
            .line_items
            .iter()
            .find(|l| l.key == key)
            .and_then(|l| l.cost)
    };
    for t in &mut report.tables {
        let mut found = Vec::new();
        for g in &t.unread {
            let today = |writes: bool| {
                t.dimensions
                    .iter()
                    .find(|d| d.writes == writes && d.index.as_ref() == Some(g))
                    .map_or(Decimal::ZERO, |d| d.decision.current.monthly)
            };
            found.push(IndexFinding::Delete {
                index: g.clone(),
                writes: today(true),
                reads: today(false),
                storage: line(&format!("{}/gsi/{g}/storage", t.name)),
            });
        }
        t.index_findings = found;
    }
    Ok(())
}

/// `text` parsed as a document, without its scenarios.
fn doc_of(text: &str, file: &str) -> Result<serde_json::Value, Error> {
    let mut doc = load::yaml::parse_value(text, file)?;
    if let Some(map) = doc.as_object_mut() {
        map.remove("scenarios");
    }
    Ok(doc)
}

/// A measured GSI that is read, whose patterns state what they read (`reads_attributes`):
/// `advise`'s projection rule (KEYS_ONLY, or INCLUDE of what they read) priced on the
/// measured workload. The measured index units are what the index costs today; the change's
/// effect on them is what the patterns derive — the index's write (and read) units after ÷
/// before, on demand, from the workload's own patterns — applied to the measured counts; the
/// index's storage follows its smaller entries. The saving is the measured workload's total
/// less the changed one's.
fn projection_findings(
    report: &mut analysis::Report,
    (design, yaml): (&serde_json::Value, &str),
    (measured, file): (&Workload, &str),
    (book, settings): (&crate::model::PriceBook, &crate::model::Settings),
    run: &Run,
) -> Result<(), Error> {
    use serde_json::{Value, json};
    let load = |doc: Value, label: &str| -> Result<crate::engine::Estimate, Error> {
        let (w, _) = load::workload_from_value(doc, file, label, &run.samples)?;
        crate::engine::estimate(&w, book, settings).map_err(|e| Error::from(e).file(label))
    };
    let quantity = |e: &crate::engine::Estimate, key: &str| {
        e.line_items
            .iter()
            .find(|l| l.key == key)
            .and_then(|l| l.quantity)
    };
    let (design_workload, _) = load::workload_from_value(design.clone(), file, file, &run.samples)?;
    let candidates = crate::advise::candidates(&design_workload, book, None);
    let measured_doc = doc_of(yaml, file)?;
    let baseline =
        crate::engine::estimate(measured, book, settings).map_err(|e| Error::from(e).file(file))?;
    for t in &mut report.tables {
        let mut read: Vec<String> = t
            .dimensions
            .iter()
            .filter(|d| !d.writes && !d.decision.consumed.is_zero())
            .filter_map(|d| d.index.clone())
            .collect();
        read.dedup();
        for g in read {
            let name = format!("project-{g}-{}", t.name);
            let Some(c) = candidates.iter().find(|c| c.name == name) else {
                continue;
            };
            // The design on demand and without observed figures, before and after: what
            // the patterns derive for the index.
            let mut plain = design.clone();
            let mut strip = json!({"tables": {t.name.as_str(): {
                "capacity": {"mode": "on-demand", "rcu": null, "wcu": null, "auto_scaling": null, "reserved": null},
                "observed": null,
            }}});
            if let Some(indexes) = design["tables"][t.name.as_str()]["indexes"].as_object() {
                for i in indexes.keys() {
                    strip["tables"][t.name.as_str()]["indexes"][i.as_str()] =
                        json!({"rcu": null, "wcu": null, "auto_scaling": null, "observed": null});
                }
            }
            crate::scenario::merge_patch(&mut plain, &strip);
            let mut changed = plain.clone();
            crate::scenario::merge_patch(&mut changed, &c.patch);
            let label = format!("{file} (suggestion `{name}`)");
            let (before, after) = (load(plain, file)?, load(changed, &label)?);
            let prefix = format!("{}/gsi/{g}", t.name);
            let ratio = |what: &str| -> Option<Decimal> {
                let b = quantity(&before, &format!("{prefix}/{what}"))?;
                let a = quantity(&after, &format!("{prefix}/{what}"))?;
                (!b.is_zero()).then(|| a.checked_div(b)).flatten()
            };
            // The measured workload with the change, the index's measured counts scaled.
            let mut doc = measured_doc.clone();
            crate::scenario::merge_patch(&mut doc, &c.patch);
            let observed = &mut doc["tables"][t.name.as_str()]["indexes"][g.as_str()]["observed"];
            for (field, what) in [("write_units", "writes"), ("read_units", "reads")] {
                let count = observed
                    .get(field)
                    .and_then(Value::as_str)
                    .and_then(|v| v.parse::<Decimal>().ok());
                if let (Some(count), Some(r)) = (count, ratio(what)) {
                    let scaled = count.checked_mul(r).unwrap_or(count);
                    observed[field] = json!(scaled.normalize().to_string());
                }
            }
            let total = load(doc, &label)?.total;
            let saving = baseline.total.saturating_sub(total);
            if saving > Decimal::ZERO {
                t.index_findings
                    .push(crate::cloudwatch::analysis::IndexFinding::Project {
                        index: g,
                        what: c.title.clone(),
                        saving,
                    });
            }
        }
    }
    Ok(())
}

/// The commitment search (`forecast --advise`) on the measured workload `yaml`, with the
/// verdicts applied when its `measured-verdict` scenario was written, from the month the
/// window ends.
#[allow(clippy::too_many_arguments)] // the report, the workload twice, its prices and horizon
fn commitments(
    report: &analysis::Report,
    yaml: &str,
    measured: &Workload,
    file: &str,
    book: &crate::model::PriceBook,
    settings: &crate::model::Settings,
    months: u32,
    run: &Run,
) -> Result<analysis::Commitments, Error> {
    let (_, docs) = crate::scenario::scenario_documents(yaml, file, &[])?;
    let verdict = docs
        .iter()
        .find(|d| d.name == cloudwatch::measured::VERDICT)
        .map(|d| crate::scenario::workload_of(d, file, file, &run.samples))
        .transpose()?
        .map(|(w, _)| w);
    let day = crate::model::period::date_of(u64::try_from(report.end.max(0)).unwrap_or(0));
    let start = (
        day.get(..4).and_then(|y| y.parse().ok()).unwrap_or(1970),
        day.get(5..7).and_then(|m| m.parse().ok()).unwrap_or(1),
    );
    let advice = crate::engine::advise_commitments(
        verdict.as_ref().unwrap_or(measured),
        book,
        settings,
        start,
        months,
    )
    .map_err(|e| Error::from(e).file(file))?;
    Ok(analysis::Commitments {
        advice,
        months,
        start,
        on_verdict: verdict.is_some(),
    })
}

fn query(q: &UsageQueryArgs, run: &Run) -> Result<(), Error> {
    let mut targets: Vec<(String, Option<String>)> =
        q.tables.iter().map(|t| (t.clone(), None)).collect();
    for g in &q.gsis {
        let (t, i) = g
            .split_once(':')
            .filter(|(t, i)| !t.is_empty() && !i.is_empty())
            .ok_or_else(|| {
                Error::usage(format!("--gsi `{g}`: expected TABLE:INDEX"))
                    .help("Consider `--gsi orders:by-status`.")
            })?;
        targets.push((t.to_string(), Some(i.to_string())));
    }
    let end_day = match &q.end {
        Some(d) => crate::model::period::parse_date(d).ok_or_else(|| {
            Error::usage(format!("--end `{d}` is not a date"))
                .help("Consider `--end 2026-12-01` (the window ends at its first second, UTC).")
        })?,
        None => run.today,
    };
    let script = cloudwatch::query::script(
        &targets,
        q.days,
        q.period,
        end_day.saturating_mul(86_400),
        q.region.as_deref(),
        q.requests,
    )
    .map_err(|why| Error::usage(why).help("Consider `--period 60 --days 14` for a fortnight of minutes, or `--period 300 --days 60`."))?;
    output::emit(q.output.as_deref(), &script)
}

/// Standard input as CloudWatch output: its first bytes must open JSON or a CSV of metrics
/// (refused at once otherwise, before a stream of anything else is read whole); then the
/// whole text, within its bound.
fn metrics_from_stdin() -> Result<String, Error> {
    let head = crate::streams::read_stdin(64)
        .map_err(|e| Error::input(format!("cannot read standard input: {e}")))?;
    let text = head.strip_prefix("\u{feff}".as_bytes()).unwrap_or(&head);
    let start = text.iter().position(|b| !b.is_ascii_whitespace());
    let body = start.map_or(&[][..], |i| text.get(i..).unwrap_or_default());
    let opens = body.first() == Some(&b'{')
        || body
            .get(..9)
            .is_some_and(|b| b.eq_ignore_ascii_case(b"timestamp"))
        || (start.is_none() && head.len() < 64);
    if !opens && start.is_some() {
        return Err(Error::input(
            "standard input is neither `get-metric-data` output nor a CSV of metrics",
        )
        .file(load::STDIN)
        .help("Consider the files the script of `ddbcost usage query` writes (JSON), or a CSV with `timestamp,table,index,metric,statistic,value`."));
    }
    let max = load::InputKind::Metrics.max_bytes();
    let mut bytes = head;
    let rest_budget = max
        .saturating_add(1)
        .saturating_sub(u64::try_from(bytes.len()).unwrap_or(u64::MAX));
    bytes.extend(
        crate::streams::read_stdin(rest_budget)
            .map_err(|e| Error::input(format!("cannot read standard input: {e}")))?,
    );
    if u64::try_from(bytes.len()).unwrap_or(u64::MAX) > max {
        return Err(Error::input(format!(
            "standard input holds more than the {max} bytes (= {} MiB) CloudWatch output on standard input may be",
            max / (1024 * 1024)
        ))
        .help("Consider saving the AWS CLI's output to files and naming them: `ddbcost usage FILE…` reads files of any size as streams, while standard input is held whole."));
    }
    String::from_utf8(bytes).map_err(|e| {
        Error::input(format!(
            "standard input is not UTF-8 text (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        ))
        .help("Consider the AWS CLI's output as it wrote it.")
    })
}
