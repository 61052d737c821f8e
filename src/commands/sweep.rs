//! `ddbcost sweep`: every combination of the values given for some paths of the workload
//! (each GSI's projection × capacity mode × table class × auto-scaling target …), each merged
//! into the workload document as a patch, loaded and priced with the baseline's price book —
//! the path `compare` takes — on all cores; the cheapest designs first, the whole grid as CSV
//! or JSON. A combination the loader refuses is listed with its reason, never priced at 0.
//! The workload comes in through `commands::input` (a template too), and every design is
//! priced by the pricing service's `DocumentPricer`.

use rust_decimal::Decimal;
use serde_json::{Value, json};

use super::config::Run;
use super::input::Input;
use super::pricing::{DocumentPricer, Pricing};
use crate::cli::{SweepArgs, SweepFormat};
use crate::error::Error;
use crate::report::money;
use crate::{load, output, scenario};

/// More combinations than this are refused (a typo in a list, not a design space).
const MAX_VARIANTS: u64 = 10_000_000;

/// One varied path: its text and each value's patch.
struct Axis {
    path: String,
    values: Vec<(String, Value)>,
}

/// `PATH=V1,V2` or `PATH=[YAML list]`.
fn axis(arg: &str, base: &Value, file: &str) -> Result<Axis, Error> {
    let usage = |why: &str| {
        Error::usage(format!("--vary `{arg}`: {why}")).help(
            "Consider `--vary tables.orders.class=standard,standard-ia` (a dotted path, `=`, values separated by commas), or a YAML list for values holding commas.",
        )
    };
    let (path, values) = arg
        .split_once('=')
        .ok_or_else(|| usage("expected PATH=V1,V2,…"))?;
    let texts: Vec<String> = if values.trim_start().starts_with('[') {
        match load::yaml::parse_value(values, "--vary").map_err(|e| usage(&e.message))? {
            Value::Array(items) => items
                .iter()
                .map(|v| match v {
                    Value::String(s) => s.clone(),
                    other => serde_json::to_string(other).unwrap_or_default(),
                })
                .collect(),
            _ => return Err(usage("expected a list")),
        }
    } else {
        values.split(',').map(|v| v.trim().to_string()).collect()
    };
    if texts.is_empty() || texts.iter().any(String::is_empty) {
        return Err(usage("a value is empty"));
    }
    let mut out = Vec::with_capacity(texts.len());
    for t in texts {
        let patch = scenario::parse_set(&format!("{}={t}", path.trim()))?;
        scenario::check_names(base, &patch, &format!("--vary `{arg}`"), file).map_err(|e| {
            Error {
                kind: crate::error::ErrorKind::Usage,
                ..e
            }
        })?;
        out.push((t, patch));
    }
    Ok(Axis {
        path: path.trim().to_string(),
        values: out,
    })
}

/// One design's outcome.
struct Design {
    /// The value index on each axis.
    choice: Vec<usize>,
    total: Result<Decimal, String>,
}

pub(super) fn run(args: &SweepArgs, run: &Run) -> Result<(), Error> {
    // The arguments that need no workload, typed first.
    let max_total = args
        .max_total
        .as_deref()
        .map(|t| {
            t.trim()
                .parse::<Decimal>()
                .ok()
                .filter(|d| !d.is_sign_negative())
                .ok_or_else(|| {
                    Error::usage(format!("--max-total `{t}` is not an amount"))
                        .help("Consider a non-negative amount, e.g. `--max-total 500`.")
                })
        })
        .transpose()?;
    let (pricing, src) = Pricing::open(&args.workload, &args.template, &args.settings, run)?;
    let file = src.label.as_str();
    let (base, _) = src.scenarios(&[])?;
    let (workload, file_settings) = src.workload_from(base.clone(), file)?;
    let (baseline, book) = pricing.estimate(&workload, &file_settings, src.at(), None)?;
    let currency = baseline.currency.clone();
    let axes: Vec<Axis> = args
        .vary
        .iter()
        .map(|a| axis(a, &base, file))
        .collect::<Result<_, _>>()?;
    // The same path twice would keep only the last value of each design silently.
    for (i, a) in axes.iter().enumerate() {
        if let Some(b) = axes
            .iter()
            .skip(i.saturating_add(1))
            .find(|b| b.path == a.path)
        {
            return Err(Error::usage(format!("--vary `{}` is given twice", b.path))
                .help("Consider one --vary per path, with every value in its list."));
        }
    }
    for a in &axes {
        fields_exist(a, &base, &src)?;
    }
    let count = axes
        .iter()
        .try_fold(1u64, |n, a| n.checked_mul(a.values.len() as u64))
        .filter(|n| *n <= MAX_VARIANTS)
        .ok_or_else(|| {
            Error::usage(format!("more than {MAX_VARIANTS} combinations to price"))
                .help("Consider fewer values per --vary.")
        })?;
    let pricer = pricing.documents(book, &file_settings, src.at())?;
    let designs = price_all(&axes, &base, &pricer, count, args.jobs)?;
    if let Some(Err(why)) = designs
        .iter()
        .all(|d| d.total.is_err())
        .then(|| designs.first().map(|d| d.total.clone()))
        .flatten()
    {
        return Err(Error::input(format!(
            "every one of the {count} design(s) was refused; the first: {why}"
        ))
        .file(file)
        .help("Consider values the workload can take (the first design's reason says which does not)."));
    }
    let mut ranked: Vec<&Design> = designs
        .iter()
        .filter(|d| matches!(&d.total, Ok(t) if max_total.is_none_or(|m| *t <= m)))
        .collect();
    ranked.sort_by(|a, b| match (&a.total, &b.total) {
        (Ok(x), Ok(y)) => x.cmp(y).then_with(|| a.choice.cmp(&b.choice)),
        _ => std::cmp::Ordering::Equal,
    });
    let outcome = Outcome {
        file,
        currency: &currency,
        baseline: baseline.total,
        max_total,
        count,
        refused: designs.iter().filter(|d| d.total.is_err()).count(),
        axes: &axes,
        designs: &designs,
        ranked,
    };
    let text = match args.format {
        SweepFormat::Table => outcome.table(args.top, run.layout),
        SweepFormat::Csv => outcome.csv()?,
        SweepFormat::Json => outcome.json(args.top),
    };
    output::emit(args.output.as_deref(), &text)
}

/// Every design priced, and the ones kept (cheapest first), for the report.
struct Outcome<'a> {
    file: &'a str,
    currency: &'a str,
    baseline: Decimal,
    max_total: Option<Decimal>,
    count: u64,
    refused: usize,
    axes: &'a [Axis],
    designs: &'a [Design],
    ranked: Vec<&'a Design>,
}

impl Outcome<'_> {
    /// A design's value on each axis, as written.
    fn values(&self, d: &Design) -> Vec<&str> {
        self.axes
            .iter()
            .zip(&d.choice)
            .map(|(a, &i)| a.values[i].0.as_str())
            .collect()
    }

    /// The `top` cheapest designs, and the first refusals.
    fn table(&self, top: usize, layout: crate::report::layout::Layout) -> String {
        let mut out = format!(
            "Sweep of {}: {} design(s) priced ({} refused), baseline {} {} a month{}\n",
            self.file,
            self.count,
            self.refused,
            money::display(self.baseline, self.currency),
            self.currency,
            self.max_total
                .map(|m| format!(
                    "; {} within {} {}",
                    self.ranked.len(),
                    money::display(m, self.currency),
                    self.currency
                ))
                .unwrap_or_default()
        );
        let mut rows: Vec<Vec<String>> = Vec::new();
        for d in self.ranked.iter().take(top) {
            let total = d.total.as_ref().map_or(Decimal::ZERO, |t| *t);
            let mut row: Vec<String> = self.values(d).into_iter().map(str::to_string).collect();
            row.push(money::display(total, self.currency));
            row.push(money::display(
                total.saturating_sub(self.baseline),
                self.currency,
            ));
            rows.push(row);
        }
        let mut header: Vec<&str> = self.axes.iter().map(|a| a.path.as_str()).collect();
        let total_label = format!("Monthly ({})", self.currency);
        header.push(&total_label);
        header.push("Δ vs baseline");
        let mut b = tabled::builder::Builder::default();
        b.push_record(header.iter().map(std::string::ToString::to_string));
        for r in rows {
            b.push_record(r);
        }
        let mut t = b.build();
        t.with(tabled::settings::Style::rounded());

        layout.fit(&mut t);
        out.push_str(&t.to_string());
        out.push('\n');
        for d in self.designs.iter().filter(|d| d.total.is_err()).take(3) {
            if let Err(why) = &d.total {
                out.push_str(&format!("Refused: {} — {why}\n", self.values(d).join(", ")));
            }
        }
        out.push_str(&format!("{}.\n", money::policy(self.currency)));
        out
    }

    /// Every design, one row each.
    fn csv(&self) -> Result<String, Error> {
        let mut w = csv::Writer::from_writer(Vec::new());
        let mut header: Vec<String> = self.axes.iter().map(|a| a.path.clone()).collect();
        header.extend(["monthly_total".into(), "currency".into(), "refused".into()]);
        w.write_record(&header)
            .map_err(|e| Error::input(format!("cannot write CSV: {e}")))?;
        for d in self.designs {
            let mut row: Vec<String> = self.values(d).into_iter().map(str::to_string).collect();
            match &d.total {
                Ok(t) => {
                    row.extend([
                        t.normalize().to_string(),
                        self.currency.to_string(),
                        String::new(),
                    ]);
                }
                Err(why) => row.extend([String::new(), self.currency.to_string(), why.clone()]),
            }
            w.write_record(&row)
                .map_err(|e| Error::input(format!("cannot write CSV: {e}")))?;
        }
        Ok(String::from_utf8(
            w.into_inner()
                .map_err(|e| Error::input(format!("cannot write CSV: {e}")))?,
        )
        .unwrap_or_default())
    }

    /// Every design, with the cheapest first.
    fn json(&self, top: usize) -> String {
        let design = |d: &Design| {
            let chosen: serde_json::Map<String, Value> = self
                .axes
                .iter()
                .zip(self.values(d))
                .map(|(a, v)| (a.path.clone(), json!(v)))
                .collect();
            match &d.total {
                Ok(t) => json!({"values": chosen, "monthly_total": t}),
                Err(why) => json!({"values": chosen, "refused": why}),
            }
        };
        let doc = json!({
            "schema": "ddbcost.sweep/v1",
            "workload": self.file,
            "currency": self.currency,
            "baseline_total": self.baseline,
            "varied": self.axes.iter().map(|a| a.path.clone()).collect::<Vec<_>>(),
            "designs": self.count,
            "refused": self.refused,
            "max_total": self.max_total,
            "cheapest": self.ranked.iter().take(top).map(|d| design(d)).collect::<Vec<_>>(),
            "grid": self.designs.iter().map(design).collect::<Vec<_>>(),
        });
        format!(
            "{}\n",
            serde_json::to_string_pretty(&doc).unwrap_or_default()
        )
    }
}

/// A path that names a field the workload format lacks (`tables.orders.clas`) makes every
/// design fail the same way: a usage error, found by loading the baseline with each value.
fn fields_exist(a: &Axis, base: &Value, src: &Input<'_>) -> Result<(), Error> {
    for (text, patch) in &a.values {
        let mut doc = base.clone();
        scenario::apply(&mut doc, patch);
        if let Err(e) = src.workload_from(doc, "--vary")
            && (e.message.starts_with("unknown field") || e.message.starts_with("unknown variant"))
        {
            return Err(
                Error::usage(format!("--vary `{}={text}`: {}", a.path, e.message)).help(
                    e.help
                        .as_deref()
                        .unwrap_or("Consider a path the README's workload reference lists.")
                        .to_string(),
                ),
            );
        }
    }
    Ok(())
}

/// Every combination priced, on `jobs` threads (0 = all cores), in grid order (the last
/// axis varies fastest).
///
/// # Errors
/// A worker panicked: its designs are lost, so the run fails rather than report fewer.
fn price_all(
    axes: &[Axis],
    base: &Value,
    pricer: &DocumentPricer,
    count: u64,
    jobs: usize,
) -> Result<Vec<Design>, Error> {
    let jobs = if jobs == 0 {
        std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
    } else {
        jobs
    };
    let n = usize::try_from(count).unwrap_or(usize::MAX);
    let workers = jobs.clamp(1, n.max(1));
    let per = n.div_ceil(workers);
    let choice = |mut k: usize| -> Vec<usize> {
        let mut c = vec![0; axes.len()];
        for (slot, a) in c.iter_mut().zip(axes).rev() {
            let len = a.values.len().max(1);
            *slot = k.checked_rem(len).unwrap_or(0);
            k = k.checked_div(len).unwrap_or(0);
        }
        c
    };
    let run = |from: usize, to: usize| -> Vec<Design> {
        (from..to)
            .map(|k| {
                let c = choice(k);
                let mut doc = base.clone();
                for (a, &i) in axes.iter().zip(&c) {
                    scenario::apply(&mut doc, &a.values[i].1);
                }
                let total = pricer
                    .estimate(doc, &format!("{} (a sweep design)", pricer.file))
                    .map(|e| e.total)
                    .map_err(|e| e.message.to_string());
                Design { choice: c, total }
            })
            .collect()
    };
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..workers)
            .map(|w| {
                let from = w.saturating_mul(per).min(n);
                let to = from.saturating_add(per).min(n);
                s.spawn(move || run(from, to))
            })
            .collect();
        let mut all = Vec::with_capacity(n);
        for h in handles {
            all.extend(h.join().map_err(|_| {
                Error::input("a sweep worker panicked: its designs are lost, so the sweep is not reported")
                    .help("Consider reporting it with the workload and the --vary lines: it is a bug in ddbcost.")
            })?);
        }
        Ok(all)
    })
}
