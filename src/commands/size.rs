//! `ddbcost size`: measuring item files (or merging summaries) and rendering the result.

use crate::cli::{Format, InputShape, SizeArgs};
use crate::error::Error;
use crate::load;
use crate::output;
use crate::report;

pub(super) fn run(args: &SizeArgs) -> Result<(), Error> {
    use crate::size::scan::{self, ScanOptions};
    use crate::size::summary::{Summary, SummaryDoc};
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
    };
    let files = scan::expand(&args.inputs)?;
    if args.per_item {
        let mut out = std::io::BufWriter::new(std::io::stdout().lock());
        use std::io::Write;
        let _ = writeln!(out, "file,line,bytes,read_units_strong,write_units");
        let mut row = |r: scan::ItemRow| {
            let (read, write) = (r.bytes.div_ceil(4096).max(1), r.bytes.div_ceil(1024).max(1));
            let file = r.file.replace('"', "\"\"");
            writeln!(out, "\"{file}\",{},{},{read},{write}", r.line, r.bytes)
                .map_err(|e| Error::input(format!("cannot write to standard output: {e}")))
        };
        let summary = scan::each_item(&files, &options, &mut row)?;
        let _ = out.flush();
        for e in &summary.examples {
            eprintln!("warning: {e}");
        }
        return Ok(());
    }
    let summary = scan::scan(&files, &options)?;
    if args.format != Format::Json {
        for e in &summary.examples {
            eprintln!("warning: {e}");
        }
    }
    output::emit(args.output.as_deref(), &render_size(&summary, args.format))
}

fn render_size(summary: &crate::size::summary::Summary, format: Format) -> String {
    match format {
        Format::Json => {
            let mut s = serde_json::to_string_pretty(&summary.document()).unwrap_or_default();
            s.push('\n');
            s
        }
        Format::Markdown => report::size::markdown(summary),
        Format::Table | Format::Csv | Format::Focus | Format::Html => {
            report::size::table(summary, format == Format::Csv)
        }
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
