//! `ddbcost keys`: counting key values in items and access logs (or merging summaries),
//! checking each key attribute at the peak, pricing write sharding for a hot one, rendering.

use rust_decimal::Decimal;

use super::config::Run;
use super::pricing::Pricing;
use crate::cli::{KeysArgs, KeysFormat};
use crate::error::Error;
use crate::keys::dax::{self, DaxCost};
use crate::keys::log::LogColumns;
use crate::keys::sharding::{self, ShardingCost};
use crate::keys::summary::{KeysSummary, Layout, SummaryIn};
use crate::keys::verdict::{self, AttributeReport, Peak};
use crate::keys::{items, log, spread};
use crate::model::{IndexKind, Table, Workload};
use crate::size::scan::{self, IndexSpec, ScanOptions};
use crate::{engine, load, output, report};

/// A workload the peaks come from, with its table.
struct Context {
    file: String,
    workload: Workload,
    settings: crate::model::Settings,
    /// The workload's own settings (its `fx` for `--currency`).
    file_settings: load::SettingsOverrides,
    table: Table,
}

pub(super) fn run(args: &KeysArgs, run: &Run) -> Result<(), Error> {
    // The arguments that need no input, typed first.
    let rates = peak_rates(args)?;
    // `keys` prices sharding and a cache through the one pricing service, with `estimate`'s
    // options over the workload's settings, typed before any input is read.
    // (`--strict` is keys' own: stop at a malformed item.)
    let pricing = Pricing::new(
        &crate::cli::SettingsArgs {
            prices: args.prices.clone(),
            prices_dirs: args.prices_dirs.clone(),
            month_hours: args.month_hours.clone(),
            gb: args.gb,
            max_price_age: args.max_price_age,
            free_tier: args.free_tier,
            strict: false,
            currency: args.currency.clone(),
            fx_rates: args.fx_rates.clone(),
            fx_date: args.fx_date.clone(),
            fx_source: args.fx_source.clone(),
        },
        run,
    )?;
    let context = match &args.workload {
        Some(file) => {
            let text = load::read_file(file)?;
            let (workload, file_settings) =
                load::parse_workload_at(&text, file, file, &run.samples)?;
            pricing.check_strict(&workload, file)?;
            let table = workload
                .pick_table(file, args.table.as_deref())
                .cloned()
                .map_err(|(message, help)| Error::usage(message).help(help))?;
            let settings = pricing.settings(&file_settings);
            Some(Context {
                file: file.clone(),
                workload,
                settings,
                file_settings,
                table,
            })
        }
        None => None,
    };
    if !args.peak_rates.is_empty() && context.is_some() {
        return Err(
            Error::usage("--peak-rate and --workload both give the peak: which one?")
                .help("Consider one of them: the workload's peak hour, or the rates you measured."),
        );
    }
    let summary = if args.merge {
        merged(args)?
    } else {
        let layout = layout(args, context.as_ref())?;
        measured(args, &layout, run.stderr_terminal)?
    };
    if args.format != KeysFormat::Json {
        for e in &summary.examples {
            run.diagnostics.say("warning", &e.clone());
        }
    }
    // No value counted (a `--key` that no item has, a log of another table): there is no
    // spread to judge, and "well spread" would be a guess.
    if let Some(empty) = summary
        .attributes
        .iter()
        .find(|a| a.counter.distinct() == 0)
    {
        return Err(Error::input(format!(
            "no item{} held a value of `{}`: no data to judge its spread",
            if summary.log_lines > 0 { " or log line" } else { "" },
            empty.attribute,
        ))
        .help("Consider the attribute's exact name (`--key` is case-sensitive), or the items of the table it belongs to."));
    }
    let peaks = peaks(&rates, context.as_ref(), &summary)?;
    let mut reports = Vec::with_capacity(summary.attributes.len());
    for (attribute, peak) in summary.attributes.iter().zip(peaks) {
        let s = spread::spread(&attribute.counter);
        let r = verdict::assess(attribute, s, peak, summary.has_lsi)
            .map_err(|e| Error::from(e).help("Consider smaller peak rates."))?;
        reports.push(r);
    }
    let (sharding, dax) = match &context {
        Some(c) => price_remedies(&pricing, c, &reports)?,
        None => (vec![None; reports.len()], vec![None; reports.len()]),
    };
    let page = report::keys::Page {
        summary: &summary,
        reports: &reports,
        sharding: &sharding,
        dax: &dax,
    };
    match args.format {
        KeysFormat::Json => output::stream(args.output.as_deref(), &mut |out| {
            report::keys::json(&page, out)
                .map_err(|e| Error::writing("the summary", &std::io::Error::from(e)))
        }),
        KeysFormat::Table => output::emit(
            args.output.as_deref(),
            &report::keys::table(&page, run.layout),
        ),
        KeysFormat::Markdown => {
            output::emit(args.output.as_deref(), &report::keys::markdown(&page))
        }
        KeysFormat::Html => output::emit(args.output.as_deref(), &report::keys::html(&page)?),
    }
}

/// The table's keys and indexes: from the command line, else the workload's table.
fn layout(args: &KeysArgs, context: Option<&Context>) -> Result<Layout, Error> {
    if let Some(key) = &args.key {
        let table_keys: Vec<String> = std::iter::once(key.clone())
            .chain(args.sort_key.clone())
            .collect();
        let mut globals = Vec::new();
        for text in &args.indexes {
            globals.push(IndexSpec::parse_global(text, &table_keys, "keys-only")?);
        }
        let mut locals = Vec::new();
        for text in &args.lsis {
            locals.push(IndexSpec::parse_local(text, key, &table_keys)?);
        }
        return Ok(Layout {
            partition: key.clone(),
            sort: args.sort_key.clone(),
            globals,
            locals,
        });
    }
    if !args.indexes.is_empty() || !args.lsis.is_empty() || args.sort_key.is_some() {
        return Err(Error::usage("--index, --lsi and --sort-key need --key")
            .help("Consider `--key ATTR` naming the table's partition key."));
    }
    let Some(c) = context else {
        return Err(Error::usage("which attribute is the partition key?").help(
            "Consider `--key ATTR`, or `--workload W.yaml --table T` whose table states `key`.",
        ));
    };
    let (table_keys, specs) = IndexSpec::of_table(&c.table, &c.file)?;
    let mut layout = Layout {
        partition: table_keys.first().cloned().unwrap_or_default(),
        sort: table_keys.get(1).cloned(),
        ..Layout::default()
    };
    for (spec, index) in specs.into_iter().zip(&c.table.indexes) {
        match index.kind {
            IndexKind::Global => layout.globals.push(spec),
            IndexKind::Local => layout.locals.push(spec),
        }
    }
    Ok(layout)
}

/// Counts from items and logs.
fn measured(args: &KeysArgs, layout: &Layout, progress: bool) -> Result<KeysSummary, Error> {
    if args.inputs.is_empty() && args.logs.is_empty() {
        return Err(Error::usage("nothing to read: no item files and no --log")
            .help("Consider item files (an export folder, `items.json`) or `--log access.csv`."));
    }
    let stdin_items = args.inputs.iter().any(|i| i == load::STDIN);
    if stdin_items && args.logs.iter().any(|l| l == load::STDIN) {
        return Err(
            Error::usage("standard input (`-`) can be the items or a log, not both")
                .help("Consider writing one of them to a file."),
        );
    }
    let mut summary = if args.inputs.is_empty() {
        KeysSummary::new(layout)
    } else {
        let (_stdin_copy, inputs) = crate::size::read::buffer_stdin(&args.inputs)?;
        let files = scan::expand(&inputs)?;
        let options = ScanOptions {
            shape: args.input.forced(),
            strict: args.strict,
            jobs: args.jobs,
            // A progress bar only for a person watching: standard error is a terminal.
            progress,
            ..ScanOptions::default()
        };
        items::count_items(&files, &options, layout)?
    };
    let columns = LogColumns {
        key: args
            .log_key
            .clone()
            .unwrap_or_else(|| layout.partition.clone()),
        operation: args.log_operation.clone(),
        units: args.log_units.clone(),
        size: args.log_size.clone(),
        index: args.log_index.clone(),
    };
    for file in &args.logs {
        log::count_log(file, &columns, &mut summary)?;
    }
    Ok(summary)
}

/// Summaries merged.
fn merged(args: &KeysArgs) -> Result<KeysSummary, Error> {
    let measuring = args.key.is_some()
        || args.sort_key.is_some()
        || !args.indexes.is_empty()
        || !args.lsis.is_empty()
        || !args.logs.is_empty();
    if measuring {
        return Err(Error::usage(
            "--merge adds up summaries: --key, --sort-key, --index, --lsi and --log measure items",
        )
        .help("Consider measuring each piece with `keys --format json`, then merging those."));
    }
    if args.inputs.is_empty() {
        return Err(Error::usage("--merge needs summaries to merge")
            .help("Consider files printed by `ddbcost keys --format json`."));
    }
    let mut total: Option<KeysSummary> = None;
    for file in &args.inputs {
        let refuse = |why: String| {
            Error::input(format!("cannot merge this summary: {why}"))
                .file(file.as_str())
                .help("Consider summaries printed by this version's `ddbcost keys --format json`, unedited.")
        };
        let reader: Box<dyn std::io::Read> = if file == load::STDIN {
            crate::streams::stdin()
        } else {
            crate::confine::check(std::path::Path::new(file))?;
            Box::new(
                crate::confine::open(std::path::Path::new(file)).map_err(|e| {
                    Error::input(format!("`{file}` cannot be read ({e})")).file(file.as_str())
                })?,
            )
        };
        let doc: SummaryIn =
            serde_json::from_reader(std::io::BufReader::new(reader)).map_err(|e| {
                Error::input(format!("not a keys summary: {e}"))
                    .file(file.as_str())
                    .at(Some((e.line() as u64, e.column() as u64)))
                    .help("Consider files printed by `ddbcost keys --format json`.")
            })?;
        let summary = doc.into_summary().map_err(refuse)?;
        match total.as_mut() {
            Some(t) => t.merge(&summary).map_err(refuse)?,
            None => total = Some(summary),
        }
    }
    total.ok_or_else(|| Error::usage("--merge needs summaries to merge"))
}

/// A `--peak-rate`, typed: the index it is for (`None`: the table's key), reads and writes a
/// second.
struct PeakRate {
    text: String,
    index: Option<String>,
    reads: Decimal,
    writes: Decimal,
}

impl PeakRate {
    fn usage(&self, why: &str) -> Error {
        peak_rate_usage(&self.text, why)
    }
}

fn peak_rate_usage(text: &str, why: &str) -> Error {
    Error::usage(format!("--peak-rate `{text}`: {why}"))
        .help("Consider `--peak-rate reads=12000,writes=3000` (units a second at the peak), or `--peak-rate gsi-1:reads=800,writes=3000` for an index.")
}

/// Every `--peak-rate`, read before any item is: a typo is refused at once, not after the
/// scan.
fn peak_rates(args: &KeysArgs) -> Result<Vec<PeakRate>, Error> {
    let mut out = Vec::with_capacity(args.peak_rates.len());
    for text in &args.peak_rates {
        let (target, rates) = match text.split_once(':') {
            Some((index, rates)) => (Some(index.trim()), rates),
            None => (None, text.as_str()),
        };
        let usage = |why: String| peak_rate_usage(text, &why);
        let (mut reads, mut writes) = (None, None);
        for part in rates.split(',') {
            let (name, value) = part
                .split_once('=')
                .ok_or_else(|| usage(format!("`{part}` is not NAME=NUMBER")))?;
            let value: Decimal = value
                .trim()
                .parse()
                .map_err(|_| usage(format!("`{}` is not a number", value.trim())))?;
            if value.is_sign_negative() {
                return Err(usage(format!("{value} is negative")));
            }
            match name.trim() {
                "reads" => reads = Some(value),
                "writes" => writes = Some(value),
                other => {
                    return Err(usage(format!(
                        "unknown rate `{other}`; expected reads or writes"
                    )));
                }
            }
        }
        out.push(PeakRate {
            text: text.clone(),
            index: target.map(str::to_string),
            reads: reads.unwrap_or_default(),
            writes: writes.unwrap_or_default(),
        });
    }
    Ok(out)
}

/// The peak of each attribute: the workload's, `--peak-rate`, or none.
fn peaks(
    rates: &[PeakRate],
    context: Option<&Context>,
    summary: &KeysSummary,
) -> Result<Vec<Option<Peak>>, Error> {
    if let Some(c) = context {
        let p =
            engine::key_peaks(&c.table, &c.settings).map_err(|e| Error::from(e).file(&c.file))?;
        let from = format!("workload {}, table {}", c.file, c.table.name);
        return summary
            .attributes
            .iter()
            .map(|a| match &a.index {
                None => Ok(Some(Peak {
                    reads: p.table.0,
                    writes: p.table.1,
                    from: from.clone(),
                })),
                Some(name) => p
                    .indexes
                    .iter()
                    .find(|(n, ..)| n == name)
                    .map(|(_, _, r, w)| {
                        Some(Peak {
                            reads: *r,
                            writes: *w,
                            from: from.clone(),
                        })
                    })
                    .ok_or_else(|| {
                        Error::usage(format!(
                            "index `{name}` is not an index of table `{}` in `{}`",
                            c.table.name, c.file
                        ))
                        .help("Consider the workload's index names in --index.")
                    }),
            })
            .collect();
    }
    let mut out: Vec<Option<Peak>> = vec![None; summary.attributes.len()];
    for rate in rates {
        let at = summary
            .attributes
            .iter()
            .position(|a| a.index.as_deref() == rate.index.as_deref())
            .ok_or_else(|| {
                rate.usage(&format!(
                    "no index `{}` is measured",
                    rate.index.as_deref().unwrap_or_default()
                ))
            })?;
        if out[at].is_some() {
            return Err(rate.usage("this key's peak is given twice"));
        }
        out[at] = Some(Peak {
            reads: rate.reads,
            writes: rate.writes,
            from: "--peak-rate".to_string(),
        });
    }
    Ok(out)
}

/// Per report, write sharding's bill and DAX's, where priced.
type Remedies = (Vec<Option<ShardingCost>>, Vec<Option<DaxCost>>);

/// For each key hot on writes, the bill before and after sharding it; for each key hot on
/// reads, what a DAX cluster serving the busiest value's share of the reads would do to it.
/// The price book is read once, and only when a key needs it.
fn price_remedies(
    pricing: &Pricing<'_>,
    c: &Context,
    reports: &[AttributeReport],
) -> Result<Remedies, Error> {
    let mut sharded = Vec::with_capacity(reports.len());
    let mut cached = Vec::with_capacity(reports.len());
    let mut book = None;
    for r in reports {
        let hot_reads = r
            .assessment
            .reasons
            .iter()
            .find_map(|reason| match reason.finding {
                crate::engine::notice::KeyFinding::HotReads { share, .. } => Some(share),
                _ => None,
            });
        if (r.assessment.suffixes.is_some() || hot_reads.is_some()) && book.is_none() {
            let b = pricing.book(&c.workload, &c.file)?;
            pricing.book_freshness(&b, None)?;
            // `--currency`: every price converted at the stated rate before anything is priced.
            book = Some(match pricing.fx(&b.primary.currency, &c.file_settings)? {
                Some(fx) => crate::engine::convert_book(b, &fx).map_err(Error::from)?,
                None => b,
            });
        }
        let engine_error = |e: crate::engine::EngineError| Error::from(e).file(&c.file);
        sharded.push(match (r.assessment.suffixes, book.as_ref()) {
            (Some(n), Some(prices)) => Some(
                sharding::price_sharding(
                    &c.workload,
                    prices,
                    &c.settings,
                    &c.table.name,
                    r.index.as_deref(),
                    n,
                )
                .map_err(engine_error)?,
            ),
            _ => None,
        });
        cached.push(match (hot_reads, book.as_ref()) {
            (Some(share), Some(prices)) => {
                dax::price_dax(&c.workload, prices, &c.settings, &c.table.name, share)
                    .map_err(engine_error)?
            }
            _ => None,
        });
    }
    Ok((sharded, cached))
}
