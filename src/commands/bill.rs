//! `ddbcost bill`: the bill's DynamoDB rows read (`bill`), per table, region and component,
//! with what is kept apart and what nobody maps, rendered (`report::bill`); and with
//! `--to-workload`, a workload built from it (`bill::workload`).

use super::config::Run;
use crate::cli::{BillArgs, BillFormat};
use crate::error::Error;
use crate::{bill, output, report};

/// A `YYYY-MM` period, checked.
pub(super) fn period(text: &str) -> Result<String, Error> {
    let ok = text.len() == 7
        && text.as_bytes().get(4) == Some(&b'-')
        && text[..4].bytes().all(|b| b.is_ascii_digit())
        && text[5..]
            .parse::<u32>()
            .is_ok_and(|m| (1..=12).contains(&m));
    if ok {
        Ok(text.to_string())
    } else {
        Err(Error::usage(format!("--period `{text}` is not YYYY-MM"))
            .help("Consider `--period 2026-11`."))
    }
}

pub(super) fn run(args: &BillArgs, run: &Run) -> Result<(), Error> {
    let chosen = args.period.as_deref().map(period).transpose()?;
    let ledger = bill::read_all(&args.inputs, chosen)?;
    if let Some(out) = &args.to_workload {
        let yaml = bill::workload::yaml(&ledger);
        // What is written must load: a figure the loader refuses is ddbcost's bug.
        crate::load::parse_workload_at(&yaml, out, out, &run.samples)?;
        output::emit(Some(out), &yaml)?;
    }
    let text = match args.format {
        BillFormat::Table => report::bill::table(&ledger),
        BillFormat::Json => report::bill::json(&ledger),
        BillFormat::Markdown => report::bill::markdown(&ledger),
        BillFormat::Csv => report::bill::csv(&ledger),
    };
    output::emit(args.output.as_deref(), &text)
}
