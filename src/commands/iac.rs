//! `ddbcost import`, and templates given where a workload is expected (`estimate` and `diff`
//! read a template plus `--usage` as the workload `import` would write).

use std::path::Path;

use crate::cli::{From, TemplateArgs, TemplateImportArgs};
use crate::error::Error;
use crate::iac::{self, Imported, Options, Source};
use crate::load::{self, SettingsOverrides};
use crate::model::Workload;
use crate::output;
use crate::scenario::patch::merge_patch;

fn source(from: From) -> Source {
    match from {
        From::Cloudformation => Source::CloudFormation,
        From::Cdk => Source::Cdk,
        From::Serverless => Source::Serverless,
        From::TerraformPlan => Source::TerraformPlan,
        From::Terraform => Source::Terraform,
    }
}

fn options(args: &TemplateArgs) -> Result<Options, Error> {
    let mut parameters = Vec::new();
    for p in &args.parameters {
        let Some((name, value)) = p.split_once('=') else {
            return Err(Error::usage(format!("--parameter `{p}` is not NAME=VALUE"))
                .help("Consider `--parameter Env=prod`."));
        };
        parameters.push((name.trim().to_string(), value.to_string()));
    }
    Ok(Options {
        parameters,
        region: args.region.clone(),
    })
}

/// Whether `file` holds infrastructure code rather than a workload.
#[must_use]
pub fn is_template(file: &str, args: &TemplateArgs) -> bool {
    if args.from.is_some() {
        return true;
    }
    if file == load::STDIN {
        return false;
    }
    let path = Path::new(file);
    // Only a regular file is read here (a FIFO or a device would block or never end): the
    // workload loader refuses anything else with its own message.
    let text = if path.is_file() {
        load::read_input(file, load::InputKind::Template).ok()
    } else {
        None
    };
    iac::is_template(path, text.as_deref())
}

/// The workload document and its YAML for `inputs`, with `--usage` merged in.
fn document(
    inputs: &[String],
    args: &TemplateArgs,
    prices: Option<&str>,
    name: Option<&str>,
) -> Result<(Imported, String), Error> {
    let imported = iac::import(inputs, args.from.map(source), &options(args)?)?;
    if imported.tables.is_empty() {
        // What was read and left out is why there is no table: say it before the error.
        for n in &imported.notes {
            crate::output::warn(&format!("note: {n}"));
        }
        return Err(Error::input(format!(
            "no DynamoDB table in {}",
            inputs.join(", ")
        ))
        .help(if imported.notes.is_empty() {
            "Consider the template that defines the tables (`AWS::DynamoDB::Table`, `aws_dynamodb_table`…)."
        } else {
            "Consider the notes above: what they left out may be the tables."
        }));
    }
    let first = inputs.first().map(String::as_str).unwrap_or("import");
    let stem = Path::new(first.trim_end_matches('/'))
        .file_stem()
        .map_or_else(|| first.to_string(), |s| s.to_string_lossy().into_owned());
    // `--region`, else the one region every table states (a Terraform provider's).
    let one_region = imported
        .tables
        .first()
        .and_then(|t| t.region.clone())
        .filter(|r| {
            imported
                .tables
                .iter()
                .all(|t| t.region.as_deref() == Some(r.as_str()))
        });
    let default_prices = args
        .region
        .clone()
        .or(one_region)
        .map(|r| format!("aws-{r}"));
    let (mut doc, comments) = iac::workload::document(
        &imported,
        name.unwrap_or(&stem),
        prices.or(default_prices.as_deref()),
    );
    let mut header = vec![format!(
        "Imported by `ddbcost import` from {}.",
        imported
            .files
            .iter()
            .map(|(f, k)| format!("{f} ({})", k.name()))
            .collect::<Vec<_>>()
            .join(", ")
    )];
    header.push(
        "`TODO` marks usage a template cannot know: fill it (or merge a file with `--usage`); until then `estimate` prices what the template fixes and lists the rest as depending on usage, and `--strict` refuses."
            .into(),
    );
    if doc.get("prices").is_none() {
        header.push(
            "No price table: add `prices: aws-REGION` (or give `--prices` when estimating).".into(),
        );
    }
    if let Some(usage) = &args.usage {
        let text = load::read_file(usage)?;
        let mut patch = load::yaml::parse_value(&text, usage)?;
        for n in prune(&mut patch, &doc) {
            crate::output::warn(&format!("note: {usage}: {n}"));
            header.push(format!("usage not applied: {n}"));
        }
        merge_patch(&mut doc, &patch);
        header.push(format!("Usage merged from {usage}."));
    }
    for n in &imported.notes {
        header.push(format!("note: {n}"));
    }
    // Comments only where a placeholder is left (or on tables and patterns).
    let still_todo = |path: &str| {
        let keys: Vec<&str> = path.split(iac::workload::SEP).collect();
        let value = keys.iter().try_fold(&doc, |v, k| v.get(*k));
        match value {
            Some(serde_json::Value::String(s)) => s == load::PLACEHOLDER,
            // A table keeps its origin.
            Some(serde_json::Value::Object(_)) => keys.last() != Some(&"patterns"),
            Some(_) => false,
            None => false,
        }
    };
    let comments: Vec<(String, String)> = comments
        .into_iter()
        .filter(|(p, _)| still_todo(p))
        .collect();
    let yaml = iac::workload::to_yaml(&doc, &comments, &header);
    // What is written must read back as the document it stands for: no text from a template
    // (a logical id, a name, a note) may become YAML of its own.
    let read = load::yaml::parse_value(&yaml, "the imported workload")?;
    if let Err(at) = iac::workload::reads_back(&doc, &read) {
        return Err(Error::input(format!(
            "the imported workload would not read back as written ({at} differs): a bug in ddbcost"
        ))
        .help("Consider reporting it with the template; `--from` and the template's names help."));
    }
    Ok((imported, yaml))
}

/// Removes from a usage patch what the template does not define — tables, indexes, and
/// patterns on an index it lacks — and says what was removed. One usage file can then serve
/// the template before and after a change (a pull request adding an index).
fn prune(patch: &mut serde_json::Value, doc: &serde_json::Value) -> Vec<String> {
    let mut notes = Vec::new();
    let Some(tables) = patch
        .get_mut("tables")
        .and_then(serde_json::Value::as_object_mut)
    else {
        return notes;
    };
    tables.retain(|name, _| {
        let keep = doc.pointer("/tables").and_then(|t| t.get(name)).is_some();
        if !keep {
            notes.push(format!("table `{name}` is not in the template"));
        }
        keep
    });
    for (name, table) in tables.iter_mut() {
        let defined = doc["tables"][name.as_str()]["indexes"].clone();
        let has_index = |i: &str| defined.get(i).is_some();
        if let Some(indexes) = table
            .get_mut("indexes")
            .and_then(serde_json::Value::as_object_mut)
        {
            indexes.retain(|i, _| {
                let keep = has_index(i);
                if !keep {
                    notes.push(format!("index `{name}.{i}` is not in the template"));
                }
                keep
            });
        }
        if let Some(patterns) = table
            .get_mut("patterns")
            .and_then(serde_json::Value::as_object_mut)
        {
            patterns.retain(|p, body| {
                let index = body.get("index").and_then(serde_json::Value::as_str);
                let keep = index.is_none_or(has_index);
                if !keep {
                    notes.push(format!(
                        "pattern `{name}.{p}` reads index `{}`, which is not in the template",
                        index.unwrap_or_default()
                    ));
                }
                keep
            });
        }
    }
    notes
}

/// `ddbcost import`.
///
/// # Errors
/// Unreadable or malformed inputs, no table in them, a usage file that does not fit, or
/// placeholders left under `--strict`.
pub fn run(args: &TemplateImportArgs) -> Result<(), Error> {
    let (imported, yaml) = document(
        &args.inputs,
        &args.template,
        args.prices.as_deref(),
        args.name.as_deref(),
    )?;
    for n in &imported.notes {
        crate::output::warn(&format!("note: {n}"));
    }
    // What we write must load: check it as `estimate` will read it.
    let label = args.output.as_deref().unwrap_or("the imported workload");
    let (workload, _) = load::parse_workload(&yaml, label)?;
    if args.strict && !workload.placeholders.is_empty() {
        return Err(strict_error(&workload, label));
    }
    crate::output::warn(&format!(
        "imported {} table(s); {} placeholder(s) to fill{}",
        workload.tables.len(),
        workload.placeholders.len(),
        if workload.placeholders.is_empty() {
            String::new()
        } else {
            listed(&workload.placeholders)
        }
    ));
    match args.output.as_deref() {
        Some(path) if path != "-" => output::write_atomic(path, yaml.as_bytes()),
        _ => output::emit(None, &yaml),
    }
}

/// `: a, b, …` — the first ten of a list, and how many more (20,000 tables leave 40,000).
fn listed(items: &[String]) -> String {
    const SHOWN: usize = 10;
    let mut text = format!(
        ": {}",
        items
            .iter()
            .take(SHOWN)
            .cloned()
            .collect::<Vec<_>>()
            .join(", ")
    );
    if items.len() > SHOWN {
        text.push_str(&format!(
            " … and {} more",
            items.len().saturating_sub(SHOWN)
        ));
    }
    text
}

fn strict_error(workload: &Workload, label: &str) -> Error {
    Error::input(format!(
        "{} placeholder(s) still to fill{}",
        workload.placeholders.len(),
        listed(&workload.placeholders)
    ))
    .file(label)
    .help("Consider filling them with `--usage USAGE.yaml` (see the README's import section), or leaving out `--strict`.")
}

/// The text of the workload `file` names — or, for a template, of the workload it imports
/// to (with `--usage` merged, its notes said) — and the file its relative paths and errors
/// are named from: the one way every command that reads a workload document takes.
///
/// # Errors
/// The file cannot be read; a template as `import`; `--usage` with a workload.
pub fn workload_text(
    file: &str,
    args: &TemplateArgs,
    prices: Option<&str>,
) -> Result<(String, String), Error> {
    if !is_template(file, args) {
        if args.usage.is_some() {
            return Err(Error::usage(
                "`--usage` completes a template, and the input is a workload",
            )
            .help("Consider merging the usage into the workload, or giving the template."));
        }
        return Ok((load::read_file(file)?, file.to_string()));
    }
    let (imported, yaml) = document(&[file.to_string()], args, prices, None)?;
    for n in &imported.notes {
        crate::output::warn(&format!("note: {n}"));
    }
    // Samples named by the usage file are relative to it.
    Ok((yaml, args.usage.clone().unwrap_or_else(|| file.to_string())))
}

/// The workload a template (plus `--usage`) stands for, as `estimate` and `diff` read it.
///
/// # Errors
/// As `import`.
pub fn workload(
    file: &str,
    args: &TemplateArgs,
    prices: Option<&str>,
) -> Result<(Workload, SettingsOverrides), Error> {
    let (imported, yaml) = document(&[file.to_string()], args, prices, None)?;
    // What the template did not give is said here as `import` says it: an estimate of a
    // template must not hide that part of it was skipped.
    for n in &imported.notes {
        crate::output::warn(&format!("note: {n}"));
    }
    let label = match &args.usage {
        Some(u) => format!("{file} + {u} (imported)"),
        None => format!("{file} (imported)"),
    };
    // Samples named by the usage file are relative to it.
    let base = args.usage.as_deref().unwrap_or(file);
    load::parse_workload_at(&yaml, &label, base)
}
