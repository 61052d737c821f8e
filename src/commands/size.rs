//! `ddbcost size`: measuring item files (or merging summaries) and rendering the result.

use super::config::Run;
use crate::cli::{InputShape, ListFormat, SizeArgs};
use crate::error::Error;
use crate::load;
use crate::model::index_spec::{IndexProjection, IndexSpec};
use crate::output;
use crate::report;

pub(super) fn run(args: &SizeArgs, run: &Run) -> Result<(), Error> {
    use crate::size::scan::{self, ScanOptions};
    refuse_ignored_options(args)?;
    if args.merge {
        return output::emit(
            args.output.as_deref(),
            &render_size(&merged(&args.inputs)?, args.format, run),
        );
    }
    let (table_keys, index_specs) = match &args.workload {
        Some(w) => workload_specs(w, args.table.as_deref(), args.as_usage, run)?,
        None => (
            args.key.clone(),
            args.indexes
                .iter()
                .map(|i| IndexSpec::parse(i, &args.key).map_err(Error::from))
                .collect::<Result<_, _>>()?,
        ),
    };
    let options = ScanOptions {
        shape: args.input.forced(),
        strict: args.strict,
        jobs: args.jobs,
        table_keys,
        indexes: index_specs,
        chunk_bytes: None,
        // A progress bar only for a person watching: standard error is a terminal.
        progress: run.stderr_terminal,
    };
    let (stdin_copy, inputs) = crate::size::read::buffer_stdin(&args.inputs)?;
    let (files, listed) = match &args.manifest {
        Some(m) => {
            let (files, listed) = manifest_files(m, args.shard.as_deref())?;
            (files, Some(listed))
        }
        None => (scan::expand(&inputs)?, None),
    };
    if args.per_item {
        // Streamed (constant memory) to --output, atomically, or to standard output.
        let stdin_name = stdin_copy.as_ref().map(|t| t.path().display().to_string());
        return output::stream(args.output.as_deref(), &mut |out| {
            let broken = |e: std::io::Error| Error::writing("the rows", &e);
            writeln!(out, "file,line,bytes,read_units_strong,write_units").map_err(broken)?;
            let mut row = |r: scan::ItemRow| {
                let (read, write) = (r.bytes.div_ceil(4096).max(1), r.bytes.div_ceil(1024).max(1));
                let file = if stdin_name.as_deref() == Some(r.file.as_str()) {
                    "-".to_string()
                } else {
                    r.file.replace('"', "\"\"")
                };
                writeln!(out, "\"{file}\",{},{},{read},{write}", r.line, r.bytes).map_err(broken)
            };
            let summary = scan::each_item(&files, &options, &mut row)?;
            for e in &summary.examples {
                run.diagnostics.say("warning", &e.clone());
            }
            Ok(())
        });
    }
    let summary = scan::scan(&files, &options)?;
    if let Some(listed) = listed {
        // The manifest counts the items of each file: a different count is a misread (or a
        // damaged copy), said rather than passed over.
        let s = summary.sizes.stats();
        let read = s
            .items
            .saturating_add(summary.oversized)
            .saturating_add(summary.bad);
        if read != listed {
            run.diagnostics.say(
                "warning",
                &format!("the manifest lists {listed} item(s) in these files and {read} were read"),
            );
        }
    }
    if args.as_usage {
        let table = workload_table(
            args.workload.as_deref().unwrap_or_default(),
            args.table.as_deref(),
            run,
        )?;
        for e in &summary.examples {
            run.diagnostics.say("warning", &e.clone());
        }
        return output::emit(
            args.output.as_deref(),
            &usage(&summary, &table, &args.inputs),
        );
    }
    if args.format != ListFormat::Json {
        for e in &summary.examples {
            run.diagnostics.say("warning", &e.clone());
        }
    }
    output::emit(
        args.output.as_deref(),
        &render_size(&summary, args.format, run),
    )
}

/// `--merge`: the summaries printed by `size --format json`, added together.
fn merged(inputs: &[String]) -> Result<crate::size::summary::Summary, Error> {
    use crate::size::summary::{Summary, SummaryDoc};
    let mut total: Option<Summary> = None;
    for file in inputs {
        let text = load::read_file(file)?;
        let doc: SummaryDoc = serde_json::from_str(&text).map_err(|e| {
            Error::input(format!("not a size summary: {e}"))
                .file(file.as_str())
                .at(Some((e.line() as u64, e.column() as u64)))
                .help("Consider files printed by `ddbcost size --format json`.")
        })?;
        let refuse = |why: String| {
            Error::input(format!("cannot merge this summary: {why}"))
                .file(file.as_str())
                .help("Consider summaries printed by this version's `ddbcost size --format json`, unedited.")
        };
        let summary = Summary::from_document(&doc).map_err(refuse)?;
        match total.as_mut() {
            Some(t) => t.merge(&summary).map_err(refuse)?,
            None => total = Some(summary),
        }
    }
    Ok(total.unwrap_or_default())
}

/// The data files of `manifest` (all, or shard `I/N`) and the items the manifest lists in them.
fn manifest_files(
    manifest: &str,
    shard: Option<&str>,
) -> Result<(Vec<std::path::PathBuf>, u64), Error> {
    use crate::size::manifest;
    let text = load::read_file(manifest)?;
    let all = manifest::data_files(&text, manifest)?;
    let files = match shard {
        None => all,
        Some(s) => {
            let (i, n) = manifest::parse_shard(s).map_err(|why| {
                Error::usage(format!("--shard: {why}"))
                    .help("Consider `--shard 1/4` … `--shard 4/4`, one per job.")
            })?;
            manifest::shard(&all, i, n)
        }
    };
    let listed = files
        .iter()
        .map(|f| f.items)
        .fold(0u64, u64::saturating_add);
    Ok((files.into_iter().map(|f| f.path).collect(), listed))
}

/// The name of the pseudo-index that measures the table's key attributes (`--as-usage`).
const TABLE_KEY: &str = "(table key)";

/// The table `--table` names in workload `file` (or its only table).
fn workload_table(file: &str, name: Option<&str>, run: &Run) -> Result<crate::model::Table, Error> {
    let text = load::read_file(file)?;
    let (workload, _) = load::parse_workload_at(&text, file, file, &run.samples)?;
    workload
        .pick_table(file, name)
        .cloned()
        .map_err(|(message, help)| Error::usage(message).help(help))
}

/// `--key` and `--index` as the workload states them for its table.
fn workload_specs(
    file: &str,
    name: Option<&str>,
    as_usage: bool,
    run: &Run,
) -> Result<(Vec<String>, Vec<IndexSpec>), Error> {
    let table = workload_table(file, name, run)?;
    let (table_keys, mut specs) = IndexSpec::of_table(&table, file)?;
    if as_usage {
        specs.push(IndexSpec {
            name: TABLE_KEY.into(),
            keys: table_keys.clone(),
            projection: IndexProjection::KeysOnly,
        });
    }
    Ok((table_keys, specs))
}

/// Measured sizes as a usage file for `table`: item sizes as one class per write unit (items
/// of (k−1, k] KB share k write units and, as 1 KB divides 4 KB, their read units, so each
/// class's mean rounds like each of its items), the mean table key, and each index's mean
/// entry (replacing the placeholders its sizes were made of).
fn usage(
    summary: &crate::size::summary::Summary,
    table: &crate::model::Table,
    inputs: &[String],
) -> String {
    use rust_decimal::Decimal;
    let mean = |count: u64, bytes: u128| -> Option<Decimal> {
        let c = Decimal::from(count);
        (!c.is_zero())
            .then(|| Decimal::from_i128_with_scale(i128::try_from(bytes).unwrap_or(i128::MAX), 0))?
            .checked_div(c)
    };
    // Sizes shown to the thousandth of a byte, shares to 10^-12 (the last takes the rest).
    let bytes = |d: Decimal| format!("{} B", d.round_dp(3).normalize());
    let mut classes: Vec<(u64, u64, u128)> = Vec::new(); // (write units, items, bytes)
    for (size, count) in summary.sizes.buckets() {
        let units = size.div_ceil(1024).max(1);
        let b = u128::from(size).saturating_mul(u128::from(count));
        match classes.last_mut() {
            Some((u, c, t)) if *u == units => {
                *c = c.saturating_add(count);
                *t = t.saturating_add(b);
            }
            _ => classes.push((units, count, b)),
        }
    }
    let items: u64 = classes.iter().map(|c| c.1).fold(0, u64::saturating_add);
    let mut out = format!(
        "# Measured by `ddbcost size` over {items} item(s) in {}: item sizes as one class per write\n\
         # unit (means to 0.001 B, shares to 10^-12, the last taking the rest); key and entry sizes\n\
         # are means. Merge with `--usage`, or paste.\ntables:\n  {}:\n",
        inputs.join(", "),
        serde_json::to_string(&*table.name).unwrap_or_default()
    );
    if items == 0 {
        out.push_str("    # no item was measured\n");
        return out;
    }
    let total = Decimal::from(items);
    let mut given = Decimal::ZERO;
    out.push_str("    item_size:\n");
    for (n, (_, count, b)) in classes.iter().enumerate() {
        let share = if n.saturating_add(1) == classes.len() {
            Decimal::ONE.checked_sub(given).unwrap_or_default()
        } else {
            let s = Decimal::from(*count)
                .checked_div(total)
                .unwrap_or_default()
                .round_dp(12);
            given = given.checked_add(s).unwrap_or(given);
            s
        };
        let size = mean(*count, *b).unwrap_or_default();
        out.push_str(&format!(
            "      - {{ size: {}, share: {} }}\n",
            bytes(size),
            share.normalize()
        ));
    }
    out.push_str(&format!(
        "    # items: {items}   # if the input is the whole table (an export), not a sample\n"
    ));
    for ix in &summary.indexes {
        let stats = ix.entries.stats().mean();
        if ix.name == TABLE_KEY
            && let Some(m) = stats
        {
            out.push_str(&format!("    key_size: {}\n", bytes(m)));
        }
    }
    let indexes: Vec<_> = summary
        .indexes
        .iter()
        .filter(|i| i.name != TABLE_KEY)
        .filter(|i| {
            table.indexes.iter().any(|t| {
                *t.name == *i.name && !matches!(t.projection, crate::model::Projection::All)
            })
        })
        .collect();
    if !indexes.is_empty() {
        out.push_str("    indexes:\n");
        for ix in indexes {
            let entry = ix
                .entries
                .stats()
                .mean()
                .map_or_else(|| "~".to_string(), bytes);
            let skipped = ix.skipped;
            out.push_str(&format!(
                "      {}: {{ entry_size: {entry}, key_size: ~, projected_size: ~ }}   # {skipped} item(s) without its key\n",
                serde_json::to_string(&ix.name).unwrap_or_default()
            ));
        }
    }
    out
}

/// Options that would be accepted and silently ignored are usage errors.
fn refuse_ignored_options(args: &SizeArgs) -> Result<(), Error> {
    let refuse =
        |what: &str, help: &str| Err(Error::usage(what.to_string()).help(help.to_string()));
    if args.merge
        && (args.per_item
            || args.strict
            || !args.key.is_empty()
            || !args.indexes.is_empty()
            || args.input != InputShape::Auto
            || args.jobs != 0)
    {
        return refuse(
            "`--merge` reads summaries, so `--per-item`, `--strict`, `--key`, `--index`, `--input` and `--jobs` do not apply",
            "Consider giving those options when the summaries are made.",
        );
    }
    if args.per_item
        && (args.format != ListFormat::Table || args.jobs != 0 || !args.indexes.is_empty())
    {
        return refuse(
            "`--per-item` prints one CSV row per item, in file order, on one thread: `--format`, `--jobs` and `--index` do not apply",
            "Consider leaving them out, or dropping `--per-item` for the distribution.",
        );
    }
    Ok(())
}

fn render_size(summary: &crate::size::summary::Summary, format: ListFormat, run: &Run) -> String {
    match format {
        ListFormat::Json => {
            let mut s = serde_json::to_string_pretty(&summary.document()).unwrap_or_default();
            s.push('\n');
            s
        }
        ListFormat::Markdown => report::size::markdown(summary),
        ListFormat::Csv => report::size::table(summary, true, run.layout),
        ListFormat::Table => report::size::table(summary, false, run.layout),
    }
}
