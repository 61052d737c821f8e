//! The one way a workload comes in, for every command that prices: a workload file (or
//! standard input), or a template (CloudFormation, CDK, Serverless, Terraform) with its
//! `--usage` file and parameters, imported as `ddbcost import` would write it. An `Input`
//! holds the text, the label errors name and the file relative paths start from.

use std::path::Path;

use super::config::Run;
use crate::cli::{From, TemplateArgs};
use crate::error::Error;
use crate::iac::{self, Imported, Options, Source};
use crate::load::{self, SettingsOverrides};
use crate::model::Workload;
use crate::output::Diagnostics;
use crate::scenario::patch::merge_patch;
use crate::scenario::{self, ScenarioDoc};
use crate::size::samples::SampleCache;

fn source(from: From) -> Source {
    match from {
        From::Cloudformation => Source::CloudFormation,
        From::Cdk => Source::Cdk,
        From::Serverless => Source::Serverless,
        From::TerraformPlan => Source::TerraformPlan,
        From::Terraform => Source::Terraform,
        From::AwsCli => Source::Live,
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
pub(crate) fn is_template(file: &str, args: &TemplateArgs) -> bool {
    if args.from.is_some() {
        return true;
    }
    if file == load::STDIN {
        return false;
    }
    let path = Path::new(file);
    // Only a regular file is read here (a FIFO or a device would block or never end): the
    // workload loader refuses anything else with its own message.
    let text = if crate::confine::is_file(path) {
        load::read_input(file, load::InputKind::Template).ok()
    } else {
        None
    };
    iac::is_template(path, text.as_deref())
}

/// Templates are imported by the command line: the WebAssembly build has no file system
/// to read a template's folder from, and leaves the importers out.
#[cfg(target_arch = "wasm32")]
pub(crate) fn document(
    _: &[String],
    _: &TemplateArgs,
    _: Option<&str>,
    _: Option<&str>,
    _: &Diagnostics,
) -> Result<(Imported, String), Error> {
    Err(Error::usage("a template is not read in the WebAssembly build").help(
        "Consider `ddbcost import TEMPLATE` on the command line, and pasting the workload it writes.",
    ))
}

/// The workload document and its YAML for `inputs`, with `--usage` merged in.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn document(
    inputs: &[String],
    args: &TemplateArgs,
    prices: Option<&str>,
    name: Option<&str>,
    told: &Diagnostics,
) -> Result<(Imported, String), Error> {
    let imported = iac::import(inputs, args.from.map(source), &options(args)?)?;
    if imported.tables.is_empty() {
        // What was read and left out is why there is no table: say it before the error.
        for n in &imported.notes {
            told.say("note", &n.to_string());
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
    let first = inputs.first().map_or("import", String::as_str);
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
    if imported.files.iter().all(|(_, k)| *k == iac::Source::Live) {
        header.push(
            "Live tables as the AWS CLI described them; each measured figure says where it comes from and when it was read. `TODO` marks what a description cannot know (access patterns, key sizes): fill it (or merge a file with `--usage`); until then `estimate` prices what the description fixes and lists the rest as depending on usage, and `--strict` refuses."
                .into(),
        );
    } else {
        header.push(
            "`TODO` marks usage a template cannot know: fill it (or merge a file with `--usage`); until then `estimate` prices what the template fixes and lists the rest as depending on usage, and `--strict` refuses."
                .into(),
        );
    }
    if doc.get("prices").is_none() {
        header.push(
            "No price table: add `prices: aws-REGION` (or give `--prices` when estimating).".into(),
        );
    }
    if let Some(usage) = &args.usage {
        let text = load::read_file(usage)?;
        let mut patch = load::yaml::parse_value(&text, usage)?;
        for n in prune(&mut patch, &doc) {
            told.say("note", &format!("{usage}: {n}"));
            header.push(format!("usage not applied: {n}"));
        }
        merge_patch(&mut doc, &patch);
        header.push(format!("Usage merged from {usage}."));
    }
    for n in &imported.notes {
        header.push(format!("note: {n}"));
    }
    // Comments only where a placeholder is left (or on tables and patterns), and where a live
    // table's figure says what measured it.
    let still_todo = |path: &str, comment: &str| {
        if comment.starts_with(iac::workload::MEASURED) {
            return true;
        }
        let keys: Vec<&str> = path.split(iac::workload::SEP).collect();
        let value = keys.iter().try_fold(&doc, |v, k| v.get(*k));
        match value {
            Some(serde_json::Value::String(s)) => s == load::PLACEHOLDER,
            // A table keeps its origin.
            Some(serde_json::Value::Object(_)) => keys.last() != Some(&"patterns"),
            Some(_) | None => false,
        }
    };
    let comments: Vec<(String, String)> = comments
        .into_iter()
        .filter(|(p, c)| still_todo(p, c))
        .collect();
    let yaml = load::yaml::write::to_yaml(&doc, &comments, &header);
    // What is written must read back as the document it stands for: no text from a template
    // (a logical id, a name, a note) may become YAML of its own.
    let read = load::yaml::parse_value(&yaml, "the imported workload")?;
    if let Err(at) = load::yaml::write::reads_back(&doc, &read) {
        return Err(Error::input(format!(
            "the imported workload would not read back as written ({at} differs): a bug in ddbcost"
        ))
        .help("Consider reporting it with the template; `--from` and the template's names help."));
    }
    Ok((imported, yaml))
}

/// Removes from a usage patch what the template does not define — tables, indexes, and
/// patterns on an index it lacks, an INCLUDE projection's size on an index projected
/// otherwise — and says what was removed. One usage file can then serve the template before
/// and after a change (a pull request adding an index or changing its projection).
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
            // Sizes for whichever projection a side has: the included attributes' size
            // applies only where the template projects INCLUDE (a pull request switching
            // the index to ALL or KEYS_ONLY is priced with the same usage file).
            for (i, body) in indexes.iter_mut() {
                let projection = defined[i.as_str()]["projection"].as_str().unwrap_or("");
                if projection == "include" {
                    continue;
                }
                if let Some(fields) = body.as_object_mut()
                    && fields.remove("projected_size").is_some()
                {
                    notes.push(format!(
                        "`projected_size` of index `{name}.{i}` sizes an INCLUDE projection; the template's is `{projection}`"
                    ));
                }
            }
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

/// A workload document as every command that prices reads it: the text of a workload file,
/// or of the workload a template imports to (with `--usage` merged and its notes said), the
/// label its errors are named with, and the file its relative paths (samples) are taken from.
pub(crate) struct Input<'r> {
    pub(crate) text: String,
    /// The name errors give: the file, or `T + U (imported)` for template `T` and usage `U`.
    pub(crate) label: String,
    /// Relative paths start from this file's folder (a usage file's, for a template).
    pub(crate) base: String,
    /// The run's sample reader.
    samples: &'r SampleCache,
}

impl<'r> Input<'r> {
    /// The one way in: `file` (a workload, `-` for standard input, or a template with
    /// `--usage`, `--from`, `--parameter`, `--region`).
    ///
    /// # Errors
    /// The file cannot be read; a template as `import`; `--usage` with a workload.
    pub(crate) fn read(
        file: &str,
        args: &TemplateArgs,
        prices: Option<&str>,
        run: &'r Run,
    ) -> Result<Input<'r>, Error> {
        let told = &run.diagnostics;
        if !is_template(file, args) {
            if args.usage.is_some() {
                return Err(Error::usage(
                    "`--usage` completes a template, and the input is a workload",
                )
                .help("Consider merging the usage into the workload, or giving the template."));
            }
            return Ok(Input {
                text: load::read_file(file)?,
                label: file.to_string(),
                base: file.to_string(),
                samples: &run.samples,
            });
        }
        let (imported, yaml) = document(&[file.to_string()], args, prices, None, told)?;
        // What the template did not give is said here as `import` says it: an estimate of a
        // template must not hide that part of it was skipped.
        for n in &imported.notes {
            told.say("note", &n.to_string());
        }
        Ok(Input {
            text: yaml,
            label: match &args.usage {
                Some(u) => format!("{file} + {u} (imported)"),
                None => format!("{file} (imported)"),
            },
            // Samples named by the usage file are relative to it.
            base: args.usage.clone().unwrap_or_else(|| file.to_string()),
            samples: &run.samples,
        })
    }

    /// The label errors name and the file relative paths start from, for `Pricing::estimate`.
    pub(crate) fn at(&self) -> (&str, &str) {
        (&self.label, &self.base)
    }

    /// The workload, without its scenarios.
    ///
    /// # Errors
    /// What the loader refuses.
    pub(crate) fn workload(&self) -> Result<(Workload, SettingsOverrides), Error> {
        load::parse_workload_at(&self.text, &self.label, &self.base, self.samples)
    }

    /// The workload with the command line's `--set`s applied (as one alternative, named
    /// `--set` in errors), or as written when there are none.
    ///
    /// # Errors
    /// What the loader refuses; a `--set` naming what does not exist.
    pub(crate) fn workload_with(
        &self,
        sets: &[String],
    ) -> Result<(Workload, SettingsOverrides), Error> {
        if sets.is_empty() {
            return self.workload();
        }
        let (_, docs) = self.scenarios(&[("--set".to_string(), sets.to_vec())])?;
        let doc = docs
            .iter()
            .find(|d| d.name == "--set")
            .ok_or_else(|| Error::usage("--set made no change"))?;
        self.workload_of(doc)
    }

    /// The baseline document (the workload without `scenarios:`) and each scenario's, with
    /// the command line's alternatives (`--set`, `--alt`) after the file's.
    ///
    /// # Errors
    /// As `scenario::scenario_documents`.
    pub(crate) fn scenarios(
        &self,
        command_line: &[(String, Vec<String>)],
    ) -> Result<(serde_json::Value, Vec<ScenarioDoc>), Error> {
        scenario::scenario_documents(&self.text, &self.label, command_line)
    }

    /// The workload of a scenario's document.
    ///
    /// # Errors
    /// The merged document is not a valid workload.
    pub(crate) fn workload_of(
        &self,
        doc: &ScenarioDoc,
    ) -> Result<(Workload, SettingsOverrides), Error> {
        scenario::workload_of(doc, &self.label, &self.base, self.samples)
    }

    /// The workload of a document (a baseline, a candidate), named `label` in errors.
    ///
    /// # Errors
    /// What the loader refuses.
    pub(crate) fn workload_from(
        &self,
        doc: serde_json::Value,
        label: &str,
    ) -> Result<(Workload, SettingsOverrides), Error> {
        load::workload_from_value(doc, &self.base, label, self.samples)
    }
}
