//! Running a parsed command line: `run` resolves the run's configuration (`config`) and hands
//! each command to its own file. A command file reads its inputs, prices through the one
//! pricing service (`pricing`), renders with `report` and writes with `output`; no command
//! file imports another. Three modules here are not commands: `config` (the run's
//! configuration, the only reader of the environment, terminal and clock), `pricing` (price
//! book, settings, currency conversion and freshness) and `exports` (the formats an estimate
//! or comparison leaves in); `iac` turns a template argument into a workload for every
//! command that takes one. The only module (with `main`) that touches files and standard
//! streams.

pub(crate) mod advise;
mod allocate;
#[cfg(not(target_arch = "wasm32"))]
mod anomalies;
mod bill;
mod compare;
mod config;
mod diff;
mod estimate;
mod explain;
mod exports;
mod forecast;
mod import;
mod init;
mod input;
mod keys;
mod prices;
mod prices_diff;
mod prices_import;
mod pricing;
#[cfg(not(target_arch = "wasm32"))]
mod reconcile;
mod schema;
mod shell;
mod size;
mod sweep;
mod usage;

pub(crate) use compare::comparison;
pub(crate) use config::Run;
pub(crate) use input::Input;
pub(crate) use pricing::Pricing;

use crate::cli::{Cli, Command, PricesAction};
use crate::error::Error;

/// Runs one command in `run`'s world; diagnostics (warnings) go to standard error.
///
/// # Errors
/// Any user-facing error, carrying its exit code.
pub(crate) fn run(cli: Cli, run: &Run) -> Result<(), Error> {
    match cli.command {
        Command::Estimate(args) => estimate::run(&args, run),
        Command::Compare(args) => compare::run(&args, run),
        Command::Diff(args) => diff::run(&args, run),
        Command::Forecast(args) => forecast::run(&args, run),
        Command::Advise(args) => advise::run(&args, run),
        Command::Schema(args) => schema::run(&args),
        Command::Explain(args) => explain::run(&args, run),
        Command::Prices(args) => match &args.action {
            Some(PricesAction::Show(show)) => prices::show(&show.table, run),
            None => prices::list(&args, run),
            #[cfg(not(target_arch = "wasm32"))]
            Some(PricesAction::Import(import)) => prices_import::run(import),
            #[cfg(not(target_arch = "wasm32"))]
            Some(PricesAction::Diff(diff)) => prices_diff::run(diff, run),
            #[cfg(target_arch = "wasm32")]
            Some(_) => in_the_browser("prices import|diff"),
        },
        // The page's build has no other command: the parser there knows none.
        #[cfg(not(target_arch = "wasm32"))]
        other => files(other, run),
    }
}

/// The commands that read the files and streams of a machine (items, logs, bills,
/// templates, price lists) or write several files: left out of the WebAssembly build, whose
/// page has no file system.
#[cfg(not(target_arch = "wasm32"))]
fn files(command: Command, run: &Run) -> Result<(), Error> {
    match command {
        Command::Size(args) => size::run(&args, run),
        Command::Keys(args) => keys::run(&args, run),
        Command::Usage(args) => usage::run(&args, run),
        Command::Bill(args) => bill::run(&args, run),
        Command::Reconcile(args) => reconcile::run(&args, run),
        Command::Allocate(args) => allocate::run(&args, run),
        Command::Anomalies(args) => anomalies::run(&args, run),
        Command::Sweep(args) => sweep::run(&args, run),
        Command::Completions(args) => shell::completions(&args),
        Command::Man(args) => shell::man(&args),
        Command::Init(args) => init::run(&args, run),
        Command::Import(args) => import::run(&args, run),
        Command::Mcp(args) => crate::mcp::serve(&crate::mcp::Options {
            timeout: std::time::Duration::from_millis(args.timeout),
            max_request_bytes: usize::try_from(args.max_request_bytes).unwrap_or(usize::MAX),
            max_result_bytes: usize::try_from(args.max_result_bytes).unwrap_or(usize::MAX),
            concurrency: usize::try_from(args.jobs).unwrap_or(1),
            root: run
                .root
                .as_ref()
                .and_then(|r| r.path().map(std::path::Path::to_path_buf)),
            root_error: run.root_error.as_ref().map(Error::to_json),
        }),
        // Answered by `run`.
        Command::Estimate(_)
        | Command::Compare(_)
        | Command::Diff(_)
        | Command::Forecast(_)
        | Command::Advise(_)
        | Command::Schema(_)
        | Command::Explain(_)
        | Command::Prices(_) => Err(Error::usage("not a command of files")),
    }
}

#[cfg(target_arch = "wasm32")]
fn in_the_browser(what: &str) -> Result<(), Error> {
    Err(Error::usage(format!("{what} is not in the WebAssembly build")).help(
        "Consider the `ddbcost` command line: the page prices, compares, forecasts and advises.",
    ))
}
