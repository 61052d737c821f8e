//! `ddbcost explain`: which DynamoDB rule produced each line item of a workload's estimate
//! (or of the one `--line` names), with its arithmetic and each pattern's share, as text or
//! JSON (`report::explain` writes both).

use super::config::Run;
use super::pricing::Pricing;
use crate::cli::{ExplainArgs, ExplainFormat};
use crate::error::Error;
use crate::output;
use crate::report::explain;

pub(super) fn run(args: &ExplainArgs, run: &Run) -> Result<(), Error> {
    let (pricing, src) = Pricing::open(&args.workload, &args.template, &args.settings, run)?;
    let (workload, file_settings) = src.workload_with(&args.sets)?;
    let (estimate, _) = pricing.estimate(&workload, &file_settings, src.at(), None)?;
    if let Some(key) = &args.line
        && !estimate.line_items.iter().any(|l| &l.key == key)
    {
        let keys: Vec<&str> = estimate.line_items.iter().map(|l| l.key.as_str()).collect();
        let nearest = keys
            .iter()
            .min_by_key(|k| strsim::levenshtein(k, key))
            .map_or(String::new(), |k| format!("`{k}`? "));
        return Err(Error::input(format!("the estimate has no line `{key}`"))
            .file(src.at().0)
            .help(format!("Consider {nearest}Its lines: {}.", keys.join(", "))));
    }
    let doc = explain::json(&estimate, &workload, args.line.as_deref());
    let text = match args.format {
        ExplainFormat::Json => format!(
            "{}\n",
            serde_json::to_string_pretty(&doc)
                .map_err(|e| Error::input(format!("cannot write the explanation: {e}")))?
        ),
        ExplainFormat::Text => explain::text(&doc),
    };
    output::emit(args.output.as_deref(), &text)
}
