//! The command line, declared with clap. Parsing only validates the shape of the arguments;
//! `commands` turns them into a configuration and runs them.

use clap::{Args, Parser, Subcommand, ValueEnum};

#[derive(Debug, Parser)]
#[command(
    name = "ddbcost",
    version,
    about = "DynamoDB cost estimator: itemized monthly bills from access patterns"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Itemized monthly bill of a workload: per table, per line item, per access pattern.
    Estimate(EstimateArgs),
    /// List the bundled price tables with their region, currency and date.
    Prices(PricesArgs),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Table,
    Json,
    Csv,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum By {
    /// One row per line item, grouped by table.
    Line,
    /// One row per access pattern.
    Pattern,
    /// One row per billing component (reads, writes, index writes, storage…).
    Component,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Gb {
    /// 2^30 bytes (DynamoDB Developer Guide).
    Binary,
    /// 10^9 bytes.
    Decimal,
}

#[derive(Debug, Args)]
pub struct EstimateArgs {
    /// Workload file (YAML), e.g. workloads/cloudshop.yaml.
    pub workload: String,
    /// Price table: a bundled id (see `ddbcost prices`) or a path; overrides the workload's `prices`.
    #[arg(long)]
    pub prices: Option<String>,
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
    /// Write the report to this file (atomically) instead of standard output.
    #[arg(long, short)]
    pub output: Option<String>,
    /// Break the bill down per line item (default), per access pattern or per component.
    #[arg(long, value_enum, default_value_t = By::Line)]
    pub by: By,
    /// Hours in a billing month (default 730, or the workload's `settings.month_hours`).
    #[arg(long)]
    pub month_hours: Option<String>,
    /// GB convention for storage (default binary, or the workload's `settings.gb`).
    #[arg(long, value_enum)]
    pub gb: Option<Gb>,
    /// Subtract the AWS free tier (off by default).
    #[arg(long)]
    pub free_tier: bool,
}

#[derive(Debug, Args)]
pub struct PricesArgs {
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
}
