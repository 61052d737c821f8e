//! `ddbcost size`: measuring item files (or merging summaries) and rendering the result.

use crate::cli::{Format, InputShape, SizeArgs};
use crate::error::Error;
use crate::load;
use crate::output;
use crate::report;

pub(super) fn run(args: &SizeArgs) -> Result<(), Error> {
    use crate::size::scan::{self, ScanOptions};
    use crate::size::summary::{Summary, SummaryDoc};
    refuse_ignored_options(args)?;
    if args.merge {
        let mut total: Option<Summary> = None;
        for file in &args.inputs {
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
        let total = total.unwrap_or_default();
        return output::emit(args.output.as_deref(), &render_size(&total, args.format));
    }
    let options = ScanOptions {
        shape: match args.input {
            InputShape::Auto => None,
            InputShape::Dynamodb => Some(crate::size::item::Shape::DynamoDb),
            InputShape::Plain => Some(crate::size::item::Shape::Plain),
        },
        strict: args.strict,
        jobs: args.jobs,
        table_keys: args.key.clone(),
        indexes: args
            .indexes
            .iter()
            .map(|i| parse_index_spec(i, &args.key))
            .collect::<Result<_, _>>()?,
        chunk_bytes: None,
    };
    // `-` is standard input: copied to a private temporary file first, so that it is read
    // like any other file (chunked, in constant memory).
    let stdin_copy = if args.inputs.iter().any(|i| i == load::STDIN) {
        let mut tmp = tempfile::NamedTempFile::new()
            .map_err(|e| Error::input(format!("cannot buffer standard input: {e}")))?;
        std::io::copy(&mut std::io::stdin().lock(), &mut tmp)
            .map_err(|e| Error::input(format!("cannot read standard input: {e}")))?;
        Some(tmp)
    } else {
        None
    };
    let inputs: Vec<String> = args
        .inputs
        .iter()
        .map(|i| match (&stdin_copy, i.as_str()) {
            (Some(tmp), load::STDIN) => tmp.path().display().to_string(),
            _ => i.clone(),
        })
        .collect();
    let files = scan::expand(&inputs)?;
    if args.per_item {
        // Streamed (constant memory) to --output, atomically, or to standard output.
        let stdin_name = stdin_copy.as_ref().map(|t| t.path().display().to_string());
        return output::stream(args.output.as_deref(), &mut |out| {
            let broken = |e: std::io::Error| Error::input(format!("cannot write the rows: {e}"));
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
                eprintln!("warning: {e}");
            }
            Ok(())
        });
    }
    let summary = scan::scan(&files, &options)?;
    if args.format != Format::Json {
        for e in &summary.examples {
            eprintln!("warning: {e}");
        }
    }
    output::emit(args.output.as_deref(), &render_size(&summary, args.format))
}

/// Options that would be accepted and silently ignored are usage errors.
fn refuse_ignored_options(args: &SizeArgs) -> Result<(), Error> {
    let refuse =
        |what: &str, help: &str| Err(Error::usage(what.to_string()).help(help.to_string()));
    if matches!(args.format, Format::Focus | Format::Html) {
        return refuse(
            "`size` prints a table, JSON, CSV or Markdown, not FOCUS or HTML",
            "Consider `--format table|json|csv|markdown`.",
        );
    }
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
    if args.per_item && (args.format != Format::Table || args.jobs != 0 || !args.indexes.is_empty())
    {
        return refuse(
            "`--per-item` prints one CSV row per item, in file order, on one thread: `--format`, `--jobs` and `--index` do not apply",
            "Consider leaving them out, or dropping `--per-item` for the distribution.",
        );
    }
    Ok(())
}

fn render_size(summary: &crate::size::summary::Summary, format: Format) -> String {
    match format {
        Format::Json => {
            let mut s = serde_json::to_string_pretty(&summary.document()).unwrap_or_default();
            s.push('\n');
            s
        }
        Format::Markdown => report::size::markdown(summary),
        Format::Csv => report::size::table(summary, true),
        Format::Table | Format::Focus | Format::Html => report::size::table(summary, false),
    }
}

/// `NAME:KEY[,KEY]:keys-only|all|include=ATTR[,ATTR]`.
fn parse_index_spec(
    text: &str,
    table_keys: &[String],
) -> Result<crate::size::scan::IndexSpec, Error> {
    use crate::size::scan::{IndexProjection, IndexSpec};
    let usage = |why: &str| {
        Error::usage(format!("--index `{text}`: {why}"))
            .help("Consider `--index gsi1:GSI1PK,GSI1SK:keys-only` (or `:all`, or `:include=title,status`), with `--key PK,SK` for the table's keys.")
    };
    let parts: Vec<&str> = text.splitn(3, ':').collect();
    let [name, keys, projection] = parts[..] else {
        return Err(usage("expected NAME:KEYS:PROJECTION"));
    };
    let keys: Vec<String> = keys
        .split(',')
        .map(str::trim)
        .filter(|k| !k.is_empty())
        .map(str::to_string)
        .collect();
    if name.trim().is_empty() || keys.is_empty() {
        return Err(usage(
            "the index needs a name and at least one key attribute",
        ));
    }
    let projection = match projection.trim() {
        "keys-only" => IndexProjection::KeysOnly,
        "all" => IndexProjection::All,
        p => match p.strip_prefix("include=") {
            Some(list) => IndexProjection::Include(
                list.split(',')
                    .map(str::trim)
                    .filter(|a| !a.is_empty())
                    .map(str::to_string)
                    .collect(),
            ),
            None => return Err(usage(&format!("unknown projection `{p}`"))),
        },
    };
    if projection != IndexProjection::All && table_keys.is_empty() {
        return Err(usage(
            "a KEYS_ONLY or INCLUDE entry holds the table's keys: give them with --key",
        ));
    }
    Ok(IndexSpec {
        name: name.trim().to_string(),
        keys,
        projection,
    })
}
