//! `ddbcost import`: a workload written from infrastructure code (CloudFormation/SAM, CDK's
//! `cdk.out`, `serverless.yml`, a Terraform plan as JSON, or `.tf` files), with `TODO` where
//! usage is unknown, checked to load before it is written.

use super::config::Run;
use super::input::document;
use crate::cli::TemplateImportArgs;
use crate::error::Error;
use crate::load;
use crate::model::Workload;
use crate::output;

/// `ddbcost import`.
///
/// # Errors
/// Unreadable or malformed inputs, no table in them, a usage file that does not fit, or
/// placeholders left under `--strict`.
pub(super) fn run(args: &TemplateImportArgs, run: &Run) -> Result<(), Error> {
    let (imported, yaml) = document(
        &args.inputs,
        &args.template,
        args.prices.as_deref(),
        args.name.as_deref(),
        &run.diagnostics,
    )?;
    for n in &imported.notes {
        run.diagnostics.say("note", &n.to_string());
    }
    // What we write must load: check it as `estimate` will read it.
    let label = args.output.as_deref().unwrap_or("the imported workload");
    let (workload, _) = load::parse_workload_at(&yaml, label, label, &run.samples)?;
    if args.strict && !workload.placeholders.is_empty() {
        return Err(strict_error(&workload, label));
    }
    output::warn(&format!(
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
    .help("Consider filling them with `--usage USAGE.yaml` (see docs/commands/import.md), or leaving out `--strict`.")
}
