//! The command line, declared with clap. Parsing only validates the shape of the arguments;
//! `commands` turns them into a configuration and runs them.

use crate::model::period::Period;
use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};

#[derive(Debug, Parser)]
#[command(
    name = "ddbcost",
    version,
    about = "DynamoDB cost estimator: itemized monthly bills from access patterns"
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub command: Command,
    /// Fit terminal tables within N columns (default: `COLUMNS`, else the terminal's width
    /// when standard output is one; piped output keeps its natural width).
    #[arg(long, global = true, value_name = "N", value_parser = clap::value_parser!(u16).range(20..))]
    pub width: Option<u16>,
    /// Read input files only inside DIR: each is opened beneath the folder, so a path
    /// elsewhere (absolute, `..` out, a symlink out) is refused (standard input is always
    /// allowed).
    #[arg(long, global = true, value_name = "DIR")]
    pub root: Option<String>,
    /// Read no input file at all (every path refused; standard input allowed): what
    /// `ddbcost mcp` gives its children when it has no `--root`.
    #[arg(long, global = true, hide = true, conflicts_with = "root")]
    pub no_files: bool,
    /// Refuse a record (a bill row, a CloudWatch result, an item or log line) longer than
    /// BYTES once decompressed (default 64 MiB)
    #[arg(long, global = true, value_name = "BYTES", default_value_t = crate::bounded::DEFAULT_RECORD_BYTES, value_parser = clap::value_parser!(u64).range(1024..), hide_short_help = true)]
    pub max_record_bytes: u64,
    /// Refuse an input file that decompresses to more than BYTES (default 64 GiB)
    #[arg(long, global = true, value_name = "BYTES", default_value_t = crate::bounded::DEFAULT_FILE_BYTES, value_parser = clap::value_parser!(u64).range(1024..), hide_short_help = true)]
    pub max_decompressed_bytes: u64,
    /// How an error is written on standard error: `text` (default) or `json`, one object
    /// with schema `ddbcost.error/v1` (kind, message, file, path, line, column, help).
    #[arg(long, global = true, value_enum, default_value_t = ErrorFormat::Text)]
    pub error_format: ErrorFormat,
}

/// How errors are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum ErrorFormat {
    Text,
    Json,
}

impl Cli {
    /// Parses `args` like `Cli::try_parse_from`, then groups `compare`'s `--set`s under the
    /// `--alt NAME` before them (clap's derive keeps each option's values but not how they
    /// interleave, so the positions are read from the matches).
    ///
    /// # Errors
    /// A usage error, or `--help`/`--version` (which clap reports as errors to print).
    pub(crate) fn try_parse_ordered_from<I, T>(args: I) -> Result<Cli, clap::Error>
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        let matches = Cli::command().try_get_matches_from(args)?;
        let mut cli = Cli::from_arg_matches(&matches)?;
        if let (Command::Compare(c), Some(("compare", m))) =
            (&mut cli.command, matches.subcommand())
        {
            let positioned = |id: &str| -> Vec<(usize, String)> {
                match (m.indices_of(id), m.get_many::<String>(id)) {
                    (Some(at), Some(values)) => at.zip(values.cloned()).collect(),
                    _ => Vec::new(),
                }
            };
            let mut events: Vec<(usize, bool, String)> = positioned("alts")
                .into_iter()
                .map(|(i, v)| (i, true, v))
                .chain(positioned("sets").into_iter().map(|(i, v)| (i, false, v)))
                .collect();
            events.sort_by_key(|e| e.0);
            let mut groups: Vec<(String, Vec<String>)> = Vec::new();
            for (_, is_alt, value) in events {
                if is_alt {
                    groups.push((value, Vec::new()));
                } else {
                    match groups.last_mut() {
                        Some(g) => g.1.push(value),
                        None => groups.push(("--set".to_string(), vec![value])),
                    }
                }
            }
            if let Some((name, _)) = groups.iter().find(|g| g.1.is_empty()) {
                return Err(Cli::command().error(
                    clap::error::ErrorKind::ValueValidation,
                    format!("--alt {name} has no --set after it (each alternative is the --set options that follow its --alt)"),
                ));
            }
            c.alternatives = groups;
        }
        Ok(cli)
    }
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Itemized monthly bill of a workload: per table, per line item, per access pattern.
    Estimate(EstimateArgs),
    /// Baseline vs the workload's scenarios (and `--set` changes), line by line.
    Compare(CompareArgs),
    /// What a change to a workload file does to the bill; can fail a budget gate (exit 3).
    Diff(DiffArgs),
    /// Each month of a horizon: growth, seasons, launch months, and stored items that move.
    Forecast(ForecastArgs),
    /// Find savings, price each with the engine, and print them as scenarios to paste.
    Advise(AdviseArgs),
    /// Price every combination of the given values (projections × modes × classes …) on all
    /// cores and list the cheapest designs.
    // Left out of the page's build: it reads files (#30's budget).
    #[cfg(not(target_arch = "wasm32"))]
    Sweep(SweepArgs),
    /// Measure item sizes exactly, from one item to a whole table export.
    // Left out of the page's build: it reads or writes a machine's files (#30's budget).
    #[cfg(not(target_arch = "wasm32"))]
    Size(SizeArgs),
    /// How keys spread over their values, from items and access logs: hot keys, few
    /// values, large item collections, and what write sharding would cost.
    // Left out of the page's build: it reads or writes a machine's files (#30's budget).
    #[cfg(not(target_arch = "wasm32"))]
    Keys(KeysArgs),
    /// Measured usage from CloudWatch (`get-metric-data` pages, or CSV): per table, GSI and
    /// dimension, what on demand, auto scaling (simulated step by step), fixed and the current
    /// capacity cost on the real curve, and the verdict; `usage query` writes the fetch.
    // Left out of the page's build: it reads CloudWatch files (#30's budget).
    #[cfg(not(target_arch = "wasm32"))]
    Usage(UsageArgs),
    /// The AWS bill's DynamoDB rows (CUR 2.0, legacy CUR, FOCUS 1.2, ddbcost's FOCUS):
    /// per table, region and component what was used and billed, every row counted once;
    /// `--to-workload` writes a workload built from it.
    // Left out of the page's build: it reads bill files (#30's budget).
    #[cfg(not(target_arch = "wasm32"))]
    Bill(BillArgs),
    /// Estimate against actual: the workload's estimate beside the bill, per table, region,
    /// component and meter, with the variance and its cause.
    // Left out of the page's build: it reads bill files (#30's budget).
    #[cfg(not(target_arch = "wasm32"))]
    Reconcile(ReconcileArgs),
    /// Split a bill over tenants: every billed line of every table by what caused it, from
    /// application logs of requests with `ConsumedCapacity`, what no tenant caused named.
    // Left out of the page's build: it reads files (#30's budget).
    #[cfg(not(target_arch = "wasm32"))]
    Allocate(AllocateArgs),
    /// Every jump in a bill read day by day: per table and meter, the day it left its own
    /// trailing baseline, its money a month at the new rate, and what the bill shows caused it.
    // Left out of the page's build: it reads bill files (#30's budget).
    #[cfg(not(target_arch = "wasm32"))]
    Anomalies(AnomaliesArgs),
    /// List the bundled price tables with their region, currency and date.
    Prices(PricesArgs),
    /// Print a shell completion script (bash, zsh, fish, powershell, elvish).
    // Left out of the page's build: it reads or writes a machine's files (#30's budget).
    #[cfg(not(target_arch = "wasm32"))]
    Completions(CompletionsArgs),
    /// Print the man page (roff), or write one per command into a folder.
    // Left out of the page's build: it reads or writes a machine's files (#30's budget).
    #[cfg(not(target_arch = "wasm32"))]
    Man(ManArgs),
    /// Print the JSON Schema (draft 2020-12) of the workload file or of a price table, for
    /// editors and validators.
    Schema(SchemaArgs),
    /// Write a commented starter workload for a table you describe (flags, or questions
    /// when standard input is a terminal).
    // Left out of the page's build: it reads or writes a machine's files (#30's budget).
    #[cfg(not(target_arch = "wasm32"))]
    Init(InitArgs),
    /// Write a workload from infrastructure code: CloudFormation/SAM, CDK's `cdk.out`,
    /// `serverless.yml`, a Terraform plan as JSON, or `.tf` files; or from live tables as the
    /// AWS CLI describes them (`describe-table` and its neighbours).
    // Left out of the page's build: it reads or writes a machine's files (#30's budget).
    #[cfg(not(target_arch = "wasm32"))]
    Import(TemplateImportArgs),
    /// Which DynamoDB rule produced each line item: the rule in words, its units and
    /// rounding, each access pattern's share with its arithmetic, the unit price and its table.
    Explain(ExplainArgs),
    /// Serve the Model Context Protocol on standard input and output, for agents: every
    /// command as a tool (documents in, ddbcost's JSON out), the bundled price tables,
    /// examples and schema as resources, and a design prompt.
    // Left out of the page's build: it reads or writes a machine's files (#30's budget).
    #[cfg(not(target_arch = "wasm32"))]
    Mcp(McpArgs),
}

#[derive(Debug, Args)]
pub(crate) struct ExplainArgs {
    /// Workload file (YAML), or `-` for standard input
    pub workload: String,
    /// Only this line item (its key as the estimate's JSON `line_items[].key` names it, e.g.
    /// `orders/reads`)
    #[arg(long, value_name = "KEY")]
    pub line: Option<String>,
    #[arg(long, value_enum, default_value_t = ExplainFormat::Text)]
    pub format: ExplainFormat,
    /// Write the explanation to this file (atomically) instead of standard output
    #[arg(short, long)]
    pub output: Option<String>,
    /// Change a field before estimating, e.g. `--set tables.orders.class=standard-ia` (repeatable).
    #[arg(long = "set", value_name = "PATH=VALUE")]
    pub sets: Vec<String>,
    #[command(flatten)]
    pub settings: SettingsArgs,
    #[command(flatten)]
    pub template: TemplateArgs,
}

/// How `explain` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum ExplainFormat {
    Text,
    Json,
}

/// `--timeout SECONDS` (decimal, 0.001 to 3600) in milliseconds.
/// A calendar month, `YYYY-MM`: the one parser of every command's month (`--period`,
/// `--start`).
fn month(text: &str) -> Result<Period, String> {
    Period::parse(text)
}

fn timeout_ms(text: &str) -> Result<u64, String> {
    let seconds: rust_decimal::Decimal = text
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds"))?;
    let ms = seconds
        .checked_mul(rust_decimal::Decimal::ONE_THOUSAND)
        .map(|m| m.round())
        .and_then(|m| u64::try_from(m).ok())
        .filter(|m| (1..=3_600_000).contains(m))
        .ok_or_else(|| format!("`{text}`: a timeout is 0.001 to 3600 seconds"))?;
    Ok(ms)
}

#[derive(Debug, Args)]
pub(crate) struct McpArgs {
    /// Stop a tool call that runs longer than this many seconds, e.g. `60` or `0.5` (the
    /// client gets the protocol's error, -32001)
    #[arg(long, value_name = "SECONDS", default_value = "60", value_parser = timeout_ms)]
    pub timeout: u64,
    /// Refuse a request larger than this many bytes (the protocol's error, `-32600`)
    #[arg(long, value_name = "BYTES", default_value_t = 8 * 1024 * 1024, value_parser = clap::value_parser!(u64).range(1024..=268_435_456))]
    pub max_request_bytes: u64,
    /// Stop a tool call whose output passes this many bytes (the protocol's error, -32603;
    /// the server holds at most a few times this much per call)
    #[arg(long, value_name = "BYTES", default_value_t = 32 * 1024 * 1024, value_parser = clap::value_parser!(u64).range(1024..=1_073_741_824))]
    pub max_result_bytes: u64,
    /// How many tool calls run at once (others wait)
    #[arg(long, value_name = "N", default_value_t = 4, value_parser = clap::value_parser!(u64).range(1..=64))]
    pub jobs: u64,
}

#[derive(Debug, Args)]
pub(crate) struct ForecastArgs {
    /// Workload file (YAML) or template, or `-` for standard input.
    pub workload: String,
    /// How many months to price (1–120).
    #[arg(long)]
    pub months: u32,
    /// The first month, `YYYY-MM` (default: the current month).
    #[arg(long, value_name = "YYYY-MM", value_parser = month)]
    pub start: Option<Period>,
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
    /// CSV for Excel (byte-order mark, CRLF, guarded formula-like text).
    #[arg(long)]
    pub excel: bool,
    /// Also price commitment options over the horizon: reserved blocks per region and a
    /// savings-plan commitment that minimize the total, and each at 30 % lower traffic
    /// (table, markdown or json).
    #[arg(long)]
    pub advise: bool,
    /// Change a field before forecasting, e.g. `--set tables.orders.class=standard-ia` (repeatable).
    #[arg(long = "set", value_name = "PATH=VALUE")]
    pub sets: Vec<String>,
    /// Per tenant (`tenant`: one tenant's cost per tier or rank) or per value of a table tag
    /// (`tag:KEY`), month by month (table, JSON, CSV, Markdown).
    #[arg(long, value_parser = by_arg, value_name = "tenant|tag:KEY")]
    pub by: Option<ByArg>,
    /// Write the report to this file (atomically) instead of standard output.
    #[arg(long, short)]
    pub output: Option<String>,
    #[command(flatten)]
    pub settings: SettingsArgs,
    /// A template instead of a workload: `--usage`, `--from`, `--parameter`, `--region`.
    #[command(flatten)]
    pub template: TemplateArgs,
}

/// The kinds of infrastructure code `import` reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum From {
    /// A CloudFormation or SAM template, YAML or JSON.
    Cloudformation,
    /// The `cdk.out` folder `cdk synth` writes.
    Cdk,
    /// `serverless.yml` (its `resources`).
    Serverless,
    /// `terraform show -json plan.out` (or of the state).
    TerraformPlan,
    /// A `.tf` file (literal attributes only).
    Terraform,
    /// The AWS CLI's JSON for live tables: `describe-table` and its neighbours (files, or a
    /// folder of them).
    AwsCli,
}

// How templates are read, for `import` and for commands given a template instead of a
// workload.
#[derive(Debug, Args, Default)]
pub(crate) struct TemplateArgs {
    /// The kind of infrastructure code (detected when not given).
    #[arg(long, value_enum)]
    pub from: Option<From>,
    /// A CloudFormation parameter (or Serverless `opt:` option), `Name=Value` (repeatable).
    #[arg(long = "parameter", value_name = "NAME=VALUE")]
    pub parameters: Vec<String>,
    /// The region the stack is deployed to (`AWS::Region`; a global table's home region; the
    /// price table `aws-REGION` when `--prices` is not given).
    #[arg(long)]
    pub region: Option<String>,
    /// Usage to merge into the imported tables: a partial workload (`tables.T.items`,
    /// `item_size`, `patterns`…, and `prices`), merged like a scenario's patch.
    #[arg(long, value_name = "USAGE.yaml")]
    pub usage: Option<String>,
}

#[derive(Debug, Args)]
pub(crate) struct TemplateImportArgs {
    /// Template files, a `cdk.out` folder, a plan JSON or `.tf` files.
    #[arg(required = true)]
    pub inputs: Vec<String>,
    #[command(flatten)]
    pub template: TemplateArgs,
    /// The price table the workload names (`prices:`); default `aws-REGION` with `--region`.
    #[arg(long)]
    pub prices: Option<String>,
    /// The workload's `name` (default: the first input's file name).
    #[arg(long)]
    pub name: Option<String>,
    /// Write the workload to this file (atomically) instead of standard output.
    #[arg(long, short)]
    pub output: Option<String>,
    /// Refuse (exit 1) while any placeholder (`TODO`) remains, after `--usage`.
    #[arg(long)]
    pub strict: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum InputShape {
    /// Detect per file from its first item.
    Auto,
    /// `{"pk": {"S": "a"}}`.
    Dynamodb,
    /// `{"pk": "a"}`.
    Plain,
}

impl InputShape {
    /// The shape to read every file as (`None`: detect it per file).
    #[must_use]
    pub(crate) fn forced(self) -> Option<crate::size::item::Shape> {
        match self {
            InputShape::Auto => None,
            InputShape::Dynamodb => Some(crate::size::item::Shape::DynamoDb),
            InputShape::Plain => Some(crate::size::item::Shape::Plain),
        }
    }
}

#[derive(Debug, Args)]
pub(crate) struct SizeArgs {
    /// Item files (DynamoDB JSON, plain JSON, export-to-S3 `.json`/`.json.gz`) or folders; with
    /// `--merge`, summaries printed by `size --format json`; `-` reads standard input.
    #[arg(required_unless_present = "manifest")]
    pub inputs: Vec<String>,
    /// The `manifest-files.json` of an export to S3 copied locally: its data files (in the
    /// `data/` folder next to it) are the input.
    #[arg(long, value_name = "manifest-files.json", conflicts_with_all = ["inputs", "merge"])]
    pub manifest: Option<String>,
    /// With `--manifest`: size only shard I of N (1 ≤ I ≤ N; files split by item count),
    /// for `size --merge` to combine.
    #[arg(long, value_name = "I/N", requires = "manifest")]
    pub shard: Option<String>,
    #[arg(long, value_enum, default_value_t = ListFormat::Table)]
    pub format: ListFormat,
    /// How attribute values are written.
    #[arg(long, value_enum, default_value_t = InputShape::Auto)]
    pub input: InputShape,
    /// One CSV row per item (file, line, bytes, units) instead of the distribution.
    #[arg(long)]
    pub per_item: bool,
    /// Stop at the first malformed item instead of counting it and going on.
    #[arg(long)]
    pub strict: bool,
    /// Worker threads (default: all cores).
    #[arg(long, default_value_t = 0)]
    pub jobs: usize,
    /// The table's key attributes, for index entries, e.g. `--key PK,SK`.
    #[arg(long, value_delimiter = ',')]
    pub key: Vec<String>,
    /// An index to measure: `NAME:KEY[,KEY]:keys-only|all|include=ATTR[,ATTR]` (repeatable).
    #[arg(long = "index", value_name = "NAME:KEYS:PROJECTION")]
    pub indexes: Vec<String>,
    /// Take the table's keys and its indexes (keys, projection, INCLUDE attributes) from this
    /// workload's `key` and `indexes.*.key` / `include`, instead of `--key` / `--index`.
    #[arg(long, value_name = "W.yaml")]
    pub workload: Option<String>,
    /// The workload's table to size for (needed when it has several).
    #[arg(long, requires = "workload")]
    pub table: Option<String>,
    /// Print the measured sizes as a usage file for the workload's table (`item_size` classes
    /// per write unit, `key_size`), ready for `--usage` or to paste.
    #[arg(long, requires = "workload")]
    pub as_usage: bool,
    /// Merge summaries (from `size --format json`) instead of reading items.
    #[arg(long)]
    pub merge: bool,
    /// Write the report to this file (atomically) instead of standard output (`-`: standard
    /// output).
    #[arg(long, short)]
    pub output: Option<String>,
}

#[derive(Debug, Args)]
pub(crate) struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

#[derive(Debug, Args)]
pub(crate) struct InitArgs {
    /// The table's name (DynamoDB's rule: 3–255 of `a-z A-Z 0-9 _ . -`).
    #[arg(long)]
    pub table: Option<String>,
    /// The AWS region whose bundled price table prices it (`eu-west-1`).
    #[arg(long, conflicts_with = "prices")]
    pub region: Option<String>,
    /// A price table id or file instead of a region.
    #[arg(long)]
    pub prices: Option<String>,
    /// A folder of price tables (e.g. written by `prices import`) the chosen table may come
    /// from, searched before the bundled ones (repeatable; also `DDBCOST_PRICES`).
    #[arg(long = "prices-dir", value_name = "DIR")]
    pub prices_dirs: Vec<String>,
    /// The key attributes: `PK` or `PK,SK`.
    #[arg(long, value_name = "PK[,SK]")]
    pub key: Option<String>,
    /// A global secondary index: `NAME:PK[,SK][:keys-only|all|include=ATTR[,ATTR]]`
    /// (repeatable; projection default all).
    #[arg(long = "gsi", value_name = "NAME:PK[,SK]")]
    pub gsis: Vec<String>,
    /// A local secondary index: `NAME:SK[:keys-only|all|include=ATTR[,ATTR]]` (repeatable;
    /// projection default all).
    #[arg(long = "lsi", value_name = "NAME:SK")]
    pub lsis: Vec<String>,
    /// Capacity mode.
    #[arg(long, value_enum, default_value_t = InitMode::OnDemand)]
    pub mode: InitMode,
    /// Ask the questions on standard error and read the answers from standard input, even
    /// when it is not a terminal (it is asked by default when it is one and no table is
    /// described by flags).
    #[arg(long)]
    pub interactive: bool,
    /// Write the workload to this file (atomically; an existing file is kept unless
    /// `--force`) instead of standard output.
    #[arg(long, short)]
    pub output: Option<String>,
    /// Replace an existing `--output` file.
    #[arg(long, requires = "output")]
    pub force: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum InitMode {
    OnDemand,
    Provisioned,
}

#[derive(Debug, Args)]
pub(crate) struct SchemaArgs {
    /// Which file's schema.
    #[arg(value_enum, default_value_t = SchemaKind::Workload)]
    pub kind: SchemaKind,
    /// Write it to this file (atomically) instead of standard output.
    #[arg(long, short)]
    pub output: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum SchemaKind {
    /// A workload file (`workloads/*.yaml`).
    Workload,
    /// A price table (`pricing/*.yaml`).
    PriceTable,
}

#[derive(Debug, Args)]
pub(crate) struct ManArgs {
    /// Write `ddbcost.1` and one page per command (`ddbcost-estimate.1`, …) into this folder
    /// instead of printing the main page.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<String>,
}

#[derive(Debug, Args)]
pub(crate) struct SweepArgs {
    /// Workload file (YAML) or template, or `-` for standard input.
    pub workload: String,
    /// A path and its values: `tables.orders.class=standard,standard-ia`, or a YAML list for
    /// values holding commas: `tables.orders.capacity=[{mode: on-demand}, {mode: provisioned, rcu: 400, wcu: 100}]`
    /// (repeatable: every combination is priced).
    #[arg(long = "vary", value_name = "PATH=V1,V2,…", required = true)]
    pub vary: Vec<String>,
    /// Also each design's cost per tenant (`tenant`: one tenant's monthly cost per tier or
    /// rank) or per value of a table tag (`tag:KEY`): a column each, in every format. Each
    /// design is then priced whole (as `estimate --set` prices it), not table by table.
    #[arg(long, value_parser = by_arg, value_name = "tenant|tag:KEY")]
    pub by: Option<ByArg>,
    /// How many of the cheapest designs to list (table).
    #[arg(long, default_value_t = 10)]
    pub top: usize,
    /// Keep only designs costing at most this a month (in the estimate's currency).
    #[arg(long, value_name = "AMOUNT")]
    pub max_total: Option<String>,
    #[arg(long, value_enum, default_value_t = SweepFormat::Table)]
    pub format: SweepFormat,
    /// Worker threads (default: all cores).
    #[arg(long, default_value_t = 0)]
    pub jobs: usize,
    /// Write the report to this file (atomically) instead of standard output.
    #[arg(long, short)]
    pub output: Option<String>,
    #[command(flatten)]
    pub settings: SettingsArgs,
    /// A template instead of a workload: `--usage`, `--from`, `--parameter`, `--region`.
    #[command(flatten)]
    pub template: TemplateArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum SweepFormat {
    /// The cheapest designs.
    Table,
    /// Every design, one row each.
    Csv,
    /// Every design, with the cheapest first.
    Json,
}

#[derive(Debug, Args)]
pub(crate) struct AdviseArgs {
    /// Workload file (YAML), or `-` for standard input.
    pub workload: String,
    /// Leave out suggestions saving less than this a month, in the estimate's currency
    /// (default: one minor unit, e.g. 0.01).
    #[arg(long, value_name = "AMOUNT")]
    pub min_saving: Option<String>,
    #[arg(long, value_enum, default_value_t = AdviseFormat::Table)]
    pub format: AdviseFormat,
    /// Write the report to this file (atomically) instead of standard output.
    #[arg(long, short)]
    pub output: Option<String>,
    #[command(flatten)]
    pub settings: SettingsArgs,
    /// A template instead of a workload: `--usage`, `--from`, `--parameter`, `--region`.
    #[command(flatten)]
    pub template: TemplateArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum AdviseFormat {
    Table,
    Json,
    Markdown,
    /// The suggestions as a `scenarios.alternatives` block, and the combined plan as steps.
    Yaml,
}

#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub(crate) struct UsageArgs {
    #[command(subcommand)]
    pub action: Option<UsageAction>,
    /// `aws cloudwatch get-metric-data` output (several files are pages, in any order), a
    /// CSV with `timestamp,table,index,metric,statistic,value`, or `get-metric-statistics`
    /// output given as `TABLE=FILE` / `TABLE:INDEX=FILE`.
    #[arg(required = true, value_name = "FILE")]
    pub inputs: Vec<String>,
    /// The `--metric-data-queries` file that produced results whose labels are not
    /// ddbcost's (repeatable).
    #[arg(long = "queries", value_name = "FILE")]
    pub queries: Vec<String>,
    /// The workload describing the tables measured (`ddbcost import` of their
    /// describe-table): their class, region and auto-scaling policy; every measured table
    /// must be in it.
    #[arg(long, value_name = "W.yaml")]
    pub workload: Option<String>,
    /// Prices and settings as `estimate` takes them (`--prices`, default the workload's, else
    /// `aws-us-east-1`; `--prices-dir`, `--month-hours`, `--max-price-age`, `--currency`…),
    /// over the workload's `settings:`.
    #[command(flatten)]
    pub settings: SettingsArgs,
    /// Also write the workload with what was measured: `observed` read and write units per
    /// table and GSI for a month, and the traffic profile of the data (needs `--workload`).
    #[arg(long, value_name = "OUT.yaml", requires = "workload")]
    pub measured_workload: Option<String>,
    /// The auto-scaling target for a table or GSI whose policy the workload does not state.
    #[arg(long, default_value = "70%", value_name = "PERCENT")]
    pub target: String,
    /// Price an answer that lacks pages (every result of a series `PartialData`, or every
    /// page with a `NextToken`), saying so in the report, instead of refusing it.
    #[arg(long)]
    pub allow_partial: bool,
    /// The most CloudWatch points held in memory at once (12 bytes each): past it the
    /// inputs are read again, once per shard of tables, so memory stays bounded.
    #[arg(long, default_value_t = 4_000_000, value_name = "N")]
    pub max_points_held: u64,
    /// With `--workload`: the horizon, in months from the one the window ends in, over which
    /// reserved capacity and a savings plan are searched on the measured workload (1–120).
    #[arg(long, default_value_t = 12, value_name = "N")]
    pub months: u32,
    #[arg(long, value_enum, default_value_t = UsageFormat::Table)]
    pub format: UsageFormat,
    /// Write to FILE instead of standard output.
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<String>,
}

#[derive(Debug, Args)]
pub(crate) struct BillArgs {
    /// Bill files (CSV, `.csv.gz`, Parquet) or delivery folders (with their
    /// `Manifest.json`, every part it lists required).
    #[arg(required_unless_present = "athena_sql", value_name = "FILE")]
    pub inputs: Vec<String>,
    #[command(flatten)]
    pub period: PeriodArgs,
    /// Also write a workload built from the bill: per table its capacity mode and `observed`
    /// usage for the period, for `estimate`, `compare` and `advise`.
    #[arg(long, value_name = "OUT.yaml")]
    pub to_workload: Option<String>,
    /// Also size commitments from the bill's hours: the reserved capacity to own per region
    /// and kind (blocks of 100, 1 and 3 years) and a Database Savings Plan's hourly
    /// commitment, priced with each region's `aws-REGION` table (or `--prices-dir`).
    #[arg(long)]
    pub commitments: bool,
    /// A folder of price tables searched before the bundled ones (repeatable).
    #[arg(long = "prices-dir", value_name = "DIR")]
    pub prices_dirs: Vec<String>,
    /// With `--commitments`: the hours the commitments are priced for (default: the billing
    /// period's own, 672–744).
    #[arg(long)]
    pub month_hours: Option<String>,
    /// With `--commitments`: refuse (exit 1) a price table that took effect more than DAYS
    /// before the billing period.
    #[arg(long, value_name = "DAYS")]
    pub max_price_age: Option<u32>,
    #[arg(long, value_enum, default_value_t = BillFormat::Table)]
    pub format: BillFormat,
    /// Group the bill by the value of a resource tag (`tag:KEY`; CUR 2.0 `resource_tags`,
    /// legacy `resourceTags/user:KEY`, FOCUS `Tags`): table, JSON, CSV or Markdown.
    #[arg(long, value_name = "tag:KEY", value_parser = tag_by)]
    pub by: Option<String>,
    /// Write to FILE instead of standard output.
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<String>,
}

/// `tag:KEY` → KEY.
fn tag_by(text: &str) -> Result<String, String> {
    match text.strip_prefix("tag:") {
        Some(key) if !key.is_empty() => Ok(key.to_string()),
        _ => Err(format!("`{text}`: expected tag:KEY, e.g. tag:team")),
    }
}

// The billing period of `bill` and `reconcile`, and the SQL that fetches it.
#[derive(Debug, Args)]
pub(crate) struct PeriodArgs {
    /// The billing period to read (`YYYY-MM`), when the files hold several.
    #[arg(long, value_name = "YYYY-MM", value_parser = month)]
    pub period: Option<Period>,
    /// Print the SQL that aggregates a CUR 2.0 table (Athena, Trino, Spark SQL) to the hourly
    /// DynamoDB rows `bill` and `reconcile --bill` read, for `--period`; its CSV result is an
    /// input.
    #[arg(long, requires = "period")]
    pub athena_sql: bool,
    /// The CUR 2.0 table the SQL reads.
    #[arg(long, default_value = "cost_and_usage_report", value_name = "TABLE")]
    pub athena_table: String,
}

#[derive(Debug, Args)]
pub(crate) struct AllocateArgs {
    /// Bill files (CSV, `.csv.gz`, Parquet) or delivery folders (repeatable), as `bill` reads
    /// them.
    #[arg(
        long = "bill",
        required_unless_present = "athena_sql",
        value_name = "FILE"
    )]
    pub bills: Vec<String>,
    /// Application logs of requests with `ConsumedCapacity` (JSON Lines, plain or `.gz`),
    /// or the CSV result of the `--athena-sql` query (repeatable).
    #[arg(
        long = "log",
        required_unless_present = "athena_sql",
        value_name = "FILE"
    )]
    pub logs: Vec<String>,
    /// Print the SQL that sums request logs where they live (a table of one JSON text
    /// column, a request a row) per table, index, tenant and pattern label, instead of
    /// splitting a bill; its result, saved as CSV, is a `--log`.
    #[arg(long, conflicts_with_all = ["bills", "logs"])]
    pub athena_sql: bool,
    /// The table of request lines the SQL reads.
    #[arg(long, default_value = "request_logs", value_name = "TABLE")]
    pub athena_table: String,
    /// Its column of JSON text.
    #[arg(long, default_value = "line", value_name = "COLUMN")]
    pub athena_column: String,
    /// The engine the SQL is written for.
    #[arg(long, value_enum, default_value_t = SqlDialect::Athena)]
    pub sql_dialect: SqlDialect,
    /// How a request's key names its tenant: `ATTR=REGEX`, the tenant the first group (e.g.
    /// `PK=ORG#([^#]+)`).
    #[arg(long, value_name = "ATTR=REGEX")]
    pub tenant: Option<String>,
    /// Split by tenant (`--tenant`) or by the logs' `pattern` labels.
    #[arg(long, value_enum, default_value_t = AllocateBy::Tenant)]
    pub by: AllocateBy,
    /// A DynamoDB export (folder or item files) giving bytes per tenant for storage, PITR
    /// and backups: `TABLE=PATH`, or `PATH` when its manifest-summary.json or the bill names
    /// the table (repeatable).
    #[arg(long = "export", value_name = "[TABLE=]PATH")]
    pub exports: Vec<String>,
    /// A Contributor Insights report (`aws cloudwatch get-insight-rule-report` JSON) of a
    /// table's most-accessed-keys rule: its top keys drive that table's reads and writes
    /// where the logs do not measure it (approximate); `TABLE=FILE`, or `FILE` for a
    /// one-table bill (repeatable).
    #[arg(long = "insights", value_name = "[TABLE=]FILE")]
    pub insights: Vec<String>,
    /// Spread provisioned capacity no logged request consumed over the tenants by what they
    /// consumed, instead of keeping it as its own share.
    #[arg(long)]
    pub spread_unused: bool,
    /// Show the N costliest tenants one by one and the rest as one row (table, Markdown,
    /// JSON; the CSV keeps every row).
    #[arg(long, value_name = "N")]
    pub top: Option<usize>,
    /// The workload as designed: its tables' `tenants:` name the tenant when `--tenant` is
    /// not given, and each pattern label of the logs is set against its design (units a
    /// request, what the difference costs a month) in the table, Markdown and JSON views.
    #[arg(long, value_name = "W.yaml")]
    pub workload: Option<String>,
    /// The billing period to read (`YYYY-MM`), when the files hold several.
    #[arg(long, value_name = "YYYY-MM", value_parser = month)]
    pub period: Option<Period>,
    #[arg(long, value_enum, default_value_t = AllocateFormat::Table)]
    pub format: AllocateFormat,
    /// Write to FILE instead of standard output.
    #[arg(short, long)]
    pub output: Option<String>,
}

#[derive(Debug, Args)]
pub(crate) struct AnomaliesArgs {
    /// Bill files (CSV, `.csv.gz`, Parquet) or delivery folders at daily or hourly
    /// granularity (CUR 2.0, legacy CUR, FOCUS), as `bill` reads them, each data file once.
    #[arg(required = true, value_name = "FILE")]
    pub bills: Vec<String>,
    /// The days of a meter's trailing baseline (its median), 3 to 60.
    #[arg(long, default_value_t = 7, value_parser = clap::value_parser!(u8).range(3..=60))]
    pub window: u8,
    /// The least change from the baseline a day that is flagged, in the bill's currency.
    #[arg(long, default_value = "1", value_name = "AMOUNT")]
    pub min_daily: String,
    /// The least change from the baseline, as a percentage of it, that is flagged.
    #[arg(long, default_value = "50", value_name = "PERCENT")]
    pub min_change: String,
    /// The workload as designed: each day of the bill is set against its estimate of the
    /// meter, a day, instead of the meter's own trailing days.
    #[arg(long, value_name = "W.yaml")]
    pub workload: Option<String>,
    /// CloudWatch data of the tables (`get-metric-data` pages as `usage query --requests`
    /// fetches them, or the CSV of metrics): the mechanism of each departure from what was
    /// measured — a GSI that began, a scan, units per request, requests, TTL deletions.
    #[arg(long = "metrics", value_name = "FILE", num_args = 1..)]
    pub metrics: Vec<String>,
    /// The queries file that produced `--metrics` pages whose labels are not ddbcost's.
    #[arg(long, value_name = "FILE", requires = "metrics")]
    pub queries: Option<String>,
    #[arg(long, value_enum, default_value_t = AnomaliesFormat::Table)]
    pub format: AnomaliesFormat,
    /// Write to FILE instead of standard output.
    #[arg(short, long)]
    pub output: Option<String>,
}

/// How `anomalies` writes what it found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum AnomaliesFormat {
    Table,
    Json,
    Markdown,
    /// A self-contained page: each departure with a chart of its meter's days.
    Html,
}

/// How `allocate` writes its split.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum AllocateFormat {
    Table,
    Json,
    /// One row per party per billed line.
    Csv,
    Markdown,
    /// FOCUS rows with FOCUS 1.3's split cost allocation (allocated charges per origin).
    Focus,
    /// A self-contained page: the costliest tenants as bars, the rest summed.
    Html,
}

/// The engine `allocate --athena-sql` writes for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum SqlDialect {
    /// Amazon Athena (engine 3) and Trino.
    Athena,
    /// DuckDB.
    Duckdb,
}

/// Who `allocate` splits the bill over.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum AllocateBy {
    Tenant,
    Pattern,
}

#[derive(Debug, Args)]
pub(crate) struct ReconcileArgs {
    /// Workload file (YAML), or a template with `--from`.
    pub workload: String,
    /// Bill files (CSV, `.csv.gz`, Parquet) or delivery folders (repeatable).
    #[arg(
        long = "bill",
        required_unless_present = "athena_sql",
        value_name = "FILE"
    )]
    pub bills: Vec<String>,
    #[command(flatten)]
    pub period: PeriodArgs,
    /// Change a field before estimating (repeatable).
    #[arg(long = "set", value_name = "PATH=VALUE")]
    pub sets: Vec<String>,
    /// The workload before the change the bill's month ran: what the change cost once (a
    /// GSI's backfill, a first load; and work stated under `once:`) is set against what the
    /// bill billed beyond the estimate on the rows that carry it.
    #[arg(long, value_name = "BEFORE.yaml")]
    pub before: Option<String>,
    /// CloudWatch data of the period (as `usage query` fetches it, or the CSV of metrics):
    /// a GSI backfill's write units as measured (`OnlineIndexConsumedWriteCapacity`).
    #[arg(long = "metrics", value_name = "FILE", num_args = 1..)]
    pub metrics: Vec<String>,
    /// Per value of a tag (`tag:KEY`): the workload's tables' `tags:` estimated, the bill's
    /// resource tags billed, and the variance of each value (table, JSON, CSV, Markdown).
    #[arg(long, value_name = "tag:KEY", value_parser = tag_by)]
    pub by: Option<String>,
    #[arg(long, value_enum, default_value_t = BillFormat::Table)]
    pub format: BillFormat,
    /// Write to FILE instead of standard output.
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<String>,
    #[command(flatten)]
    pub settings: SettingsArgs,
    #[command(flatten)]
    pub template: TemplateArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum BillFormat {
    Table,
    Json,
    Markdown,
    Csv,
    /// A self-contained page (`reconcile`: estimate against the bill, as bars).
    Html,
}

#[derive(Debug, Subcommand)]
pub(crate) enum UsageAction {
    /// Print a shell script that writes the `--metric-data-queries` files and runs the
    /// `aws cloudwatch get-metric-data` commands that fetch them, paged by the API's limits.
    Query(UsageQueryArgs),
}

#[derive(Debug, Args)]
pub(crate) struct UsageQueryArgs {
    /// A table to measure (repeatable).
    #[arg(long = "table", required = true, value_name = "TABLE")]
    pub tables: Vec<String>,
    /// A GSI to measure, `TABLE:INDEX` (repeatable).
    #[arg(long = "gsi", value_name = "TABLE:INDEX")]
    pub gsis: Vec<String>,
    /// Days to fetch, ending at `--end` (CloudWatch keeps 60-second points 15 days, 300-second
    /// 63, 3,600-second 455).
    #[arg(long)]
    pub days: u32,
    /// Seconds a point spans: 60, 300, 3600.
    #[arg(long, default_value_t = 60)]
    pub period: u32,
    /// The day the window ends (its first second, UTC; default: today).
    #[arg(long, value_name = "YYYY-MM-DD")]
    pub end: Option<String>,
    /// The AWS region of the tables (`--region` of each command).
    #[arg(long)]
    pub region: Option<String>,
    /// Each table's successful requests per operation too (`SuccessfulRequestLatency`
    /// `SampleCount`): what `anomalies --metrics` divides units and items by.
    #[arg(long)]
    pub requests: bool,
    /// Write the script to FILE instead of standard output.
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum UsageFormat {
    Table,
    Json,
    Markdown,
    /// The series hour by hour: consumed, and the unit-hours each option held.
    Csv,
    /// A self-contained page with one chart per table and dimension.
    Html,
}

#[derive(Debug, Args)]
pub(crate) struct KeysArgs {
    /// Item files (DynamoDB JSON, plain JSON, export-to-S3 `.json`/`.json.gz`) or folders, as
    /// for `size`; with `--merge`, summaries printed by `keys --format json`; `-` reads
    /// standard input. May be empty when `--log` is given.
    pub inputs: Vec<String>,
    /// The table's partition key attribute (default: the workload table's `key`).
    #[arg(long, value_name = "ATTR")]
    pub key: Option<String>,
    /// The table's sort key attribute (index entries hold it).
    #[arg(long, value_name = "ATTR")]
    pub sort_key: Option<String>,
    /// A global secondary index: `NAME:PK[,SK][:keys-only|all|include=ATTR[,ATTR]]`
    /// (repeatable; projection default keys-only).
    #[arg(long = "index", value_name = "NAME:ATTR[,ATTR]")]
    pub indexes: Vec<String>,
    /// A local secondary index: `NAME:SK[:keys-only|all|include=ATTR[,ATTR]]` (repeatable;
    /// projection default all). Its entries count in the table key's item collections.
    #[arg(long = "lsi", value_name = "NAME:SK")]
    pub lsis: Vec<String>,
    /// An access log (CSV with a header, or JSON Lines; gzip or not; repeatable).
    #[arg(long = "log", value_name = "FILE")]
    pub logs: Vec<String>,
    /// The log column holding the key value (default: the partition key's name).
    #[arg(long, value_name = "COLUMN")]
    pub log_key: Option<String>,
    /// The log column holding the operation (GetItem, Query, PutItem…, or read/write).
    #[arg(long, value_name = "COLUMN", default_value = "operation")]
    pub log_operation: String,
    /// The log column holding consumed units, where present.
    #[arg(long, value_name = "COLUMN", default_value = "units")]
    pub log_units: String,
    /// The log column holding the item size in bytes, where present (used without units).
    #[arg(long, value_name = "COLUMN", default_value = "item_size")]
    pub log_size: String,
    /// The log column naming the index a request used, where present (empty: the table).
    #[arg(long, value_name = "COLUMN", default_value = "index")]
    pub log_index: String,
    /// The workload whose table's peak hour (rates and traffic profile) the values are
    /// checked at; its key and indexes stand in for --key/--index when those are not given.
    #[arg(long, value_name = "W.yaml")]
    pub workload: Option<String>,
    /// The workload's table (needed when it has several).
    #[arg(long, requires = "workload")]
    pub table: Option<String>,
    /// Peak units a second instead of a workload: `reads=R,writes=W` for the table's key,
    /// `NAME:reads=R,writes=W` for an index's (repeatable).
    #[arg(long = "peak-rate", value_name = "[INDEX:]reads=R,writes=W")]
    pub peak_rates: Vec<String>,
    /// Price table for pricing write sharding and a cache (default: the workload's `prices`).
    #[arg(long)]
    pub prices: Option<String>,
    /// A folder of price tables searched before the bundled ones (repeatable; also
    /// `DDBCOST_PRICES` and the workload's `price_dirs:`).
    #[arg(long = "prices-dir", value_name = "DIR")]
    pub prices_dirs: Vec<String>,
    /// Hours in a billing month (default 730, or the workload's `settings.month_hours`).
    #[arg(long)]
    pub month_hours: Option<String>,
    /// GB convention for storage (default binary, or the workload's `settings.gb`).
    #[arg(long, value_enum)]
    pub gb: Option<Gb>,
    /// Refuse (exit 1) a price table that took effect more than DAYS before today.
    #[arg(long, value_name = "DAYS")]
    pub max_price_age: Option<u32>,
    /// Subtract the AWS free tier (off by default).
    #[arg(long)]
    pub free_tier: bool,
    /// Show costs in this currency (ISO 4217), converted at `--fx-rate`.
    #[arg(long, value_name = "CODE")]
    pub currency: Option<String>,
    /// Units of `--currency` per unit of the price table's currency (`[FROM=]RATE`).
    #[arg(long = "fx-rate", value_name = "[FROM=]RATE")]
    pub fx_rates: Vec<String>,
    /// The day the rate is from, `YYYY-MM-DD`.
    #[arg(long = "fx-date", value_name = "DATE")]
    pub fx_date: Option<String>,
    /// Where the rate comes from.
    #[arg(long = "fx-source", value_name = "TEXT")]
    pub fx_source: Option<String>,
    #[arg(long, value_enum, default_value_t = KeysFormat::Table)]
    pub format: KeysFormat,
    /// How attribute values are written.
    #[arg(long, value_enum, default_value_t = InputShape::Auto)]
    pub input: InputShape,
    /// Stop at the first malformed item instead of counting it and going on.
    #[arg(long)]
    pub strict: bool,
    /// Worker threads (default: all cores).
    #[arg(long, default_value_t = 0)]
    pub jobs: usize,
    /// Merge summaries (from `keys --format json`) instead of reading items.
    #[arg(long)]
    pub merge: bool,
    /// Write the report to this file (atomically) instead of standard output.
    #[arg(long, short)]
    pub output: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum KeysFormat {
    Table,
    /// The report with every value's counts: a summary `--merge` reads back.
    Json,
    Markdown,
    /// A self-contained page with the busiest values and the cumulative share curve.
    Html,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Format {
    Table,
    Json,
    /// The finance CSV.
    Csv,
    Markdown,
    /// FinOps FOCUS 1.2 columns.
    Focus,
    /// A self-contained HTML report with charts (use with --output).
    Html,
}

/// The formats of `size` and `prices`: a report with no export (no FOCUS, no HTML).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum ListFormat {
    Table,
    Json,
    Csv,
    Markdown,
}

// How exports are dated and shaped for spreadsheets.
#[derive(Debug, Args)]
pub(crate) struct ExportArgs {
    /// The month the charges are dated in (CSV and FOCUS), e.g. `2026-12`, and priced for its
    /// own hours (672–744, unless `--month-hours` says otherwise); default: this month, priced
    /// for a 730-hour month.
    #[arg(long, value_name = "YYYY-MM", value_parser = month)]
    pub period: Option<Period>,
    /// CSV for Excel: a UTF-8 byte-order mark, CRLF line ends, formula-like text guarded.
    #[arg(long)]
    pub excel: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum By {
    /// One row per line item, grouped by table.
    Line,
    /// One row per access pattern.
    Pattern,
    /// One row per billing component (reads, writes, index writes, storage…).
    Component,
    /// One row per region the lines are billed in.
    Region,
    /// Per tenant of the tables that state `tenants:`: tiers, or the busiest and the tail.
    Tenant,
    /// Per value of a table tag (`tag:KEY`).
    #[value(skip)]
    Tag,
}

/// `--by`: a breakdown, or `tag:KEY` (per value of the tables' tag KEY).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ByArg {
    pub kind: By,
    /// The tag key, for `tag:KEY`.
    pub tag: Option<String>,
}

fn by_arg(text: &str) -> Result<ByArg, String> {
    if let Some(key) = text.strip_prefix("tag:") {
        if key.is_empty() {
            return Err("`tag:` needs the tag's key, e.g. `tag:team`".to_string());
        }
        return Ok(ByArg {
            kind: By::Tag,
            tag: Some(key.to_string()),
        });
    }
    <By as ValueEnum>::from_str(text, true)
        .map(|kind| ByArg { kind, tag: None })
        .map_err(|_| {
            format!("`{text}`: expected line, pattern, component, region, tenant or tag:KEY")
        })
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Gb {
    /// 2^30 bytes (DynamoDB Developer Guide).
    Binary,
    /// 10^9 bytes.
    Decimal,
}

#[derive(Debug, Args)]
pub(crate) struct EstimateArgs {
    /// Workload file (YAML), e.g. workloads/cloudshop.yaml, or `-` for standard input.
    pub workload: String,
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
    /// Write the report to this file (atomically) instead of standard output (`-`: standard
    /// output).
    #[arg(long, short)]
    pub output: Option<String>,
    /// Break the bill down per line item (default), access pattern, component, region,
    /// tenant, or value of a table tag: line, pattern, component, region, tenant, tag:KEY.
    #[arg(long, value_parser = by_arg, default_value = "line", value_name = "BY")]
    pub by: ByArg,
    /// Change a field before estimating, e.g. `--set tables.orders.class=standard-ia` (repeatable).
    #[arg(long = "set", value_name = "PATH=VALUE")]
    pub sets: Vec<String>,
    #[command(flatten)]
    pub settings: SettingsArgs,
    #[command(flatten)]
    pub export: ExportArgs,
    #[command(flatten)]
    pub template: TemplateArgs,
}

// Settings shared by every command that estimates.
#[derive(Debug, Default, Args)]
pub(crate) struct SettingsArgs {
    /// Price table: a bundled id (see `ddbcost prices`) or a path; overrides the workload's `prices`.
    #[arg(long)]
    pub prices: Option<String>,
    /// A folder of price tables (e.g. written by `prices import`), searched before the bundled
    /// tables for every region the workload needs (repeatable; also `DDBCOST_PRICES`, folders
    /// separated by `:`, and the workload's `price_dirs:`).
    #[arg(long = "prices-dir", value_name = "DIR")]
    pub prices_dirs: Vec<String>,
    /// Hours in a billing month (default 730, or the workload's `settings.month_hours`).
    #[arg(long)]
    pub month_hours: Option<String>,
    /// GB convention for storage (default binary, or the workload's `settings.gb`).
    #[arg(long, value_enum)]
    pub gb: Option<Gb>,
    /// Refuse (exit 1) a price table that took effect more than DAYS before today (or before
    /// `--period`); without it, a table older than 365 days prints a note.
    #[arg(long, value_name = "DAYS")]
    pub max_price_age: Option<u32>,
    /// Subtract the AWS free tier (off by default).
    #[arg(long)]
    pub free_tier: bool,
    /// Refuse (exit 1) a workload that still has placeholders (`TODO`, left by `ddbcost
    /// import` for usage a template cannot know).
    #[arg(long)]
    pub strict: bool,
    /// Show costs in this currency (ISO 4217, e.g. `EUR`), converted from the price table's at
    /// `--fx-rate` (or the workload's `settings.fx`).
    #[arg(long, value_name = "CODE")]
    pub currency: Option<String>,
    /// Units of `--currency` per unit of the price table's currency, e.g. `0.92`; `USD=0.92`
    /// names the currency it converts from (repeatable, one per currency).
    #[arg(long = "fx-rate", value_name = "[FROM=]RATE")]
    pub fx_rates: Vec<String>,
    /// The day the rate is from, `YYYY-MM-DD` (required with `--fx-rate`).
    #[arg(long = "fx-date", value_name = "DATE")]
    pub fx_date: Option<String>,
    /// Where the rate comes from, printed with it (e.g. "ECB reference rate").
    #[arg(long = "fx-source", value_name = "TEXT")]
    pub fx_source: Option<String>,
}

#[derive(Debug, Args)]
pub(crate) struct CompareArgs {
    /// Workload file (YAML) with `scenarios:` (or `--set`s), or `-` for standard input.
    pub workload: String,
    /// Show only these scenarios (repeatable; steps are still applied cumulatively).
    #[arg(long = "scenario", value_name = "NAME")]
    pub scenarios: Vec<String>,
    /// Change a field, e.g. `--set tables.orders.class=standard-ia` (repeatable). The `--set`s
    /// after an `--alt NAME` make that alternative; those before any `--alt` make together one
    /// alternative named `--set`.
    #[arg(long = "set", value_name = "PATH=VALUE")]
    pub sets: Vec<String>,
    /// Start a named alternative made of the `--set`s that follow (repeatable):
    /// `--alt ia --set tables.orders.class=standard-ia --alt prov --set …`.
    #[arg(long = "alt", value_name = "NAME")]
    pub alts: Vec<String>,
    /// The alternatives the command line makes, `(name, --set values)`, in order (filled by
    /// `Cli::try_parse_ordered_from`).
    #[arg(skip)]
    pub alternatives: Vec<(String, Vec<String>)>,
    /// Per tenant (`tenant`: the tables' `tenants:`, one tenant's cost per tier or rank) or
    /// per value of a table tag (`tag:KEY`), the baseline beside each scenario.
    #[arg(long, value_parser = by_arg, value_name = "tenant|tag:KEY")]
    pub by: Option<ByArg>,
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
    /// Write the report to this file (atomically) instead of standard output (`-`: standard
    /// output).
    #[arg(long, short)]
    pub output: Option<String>,
    #[command(flatten)]
    pub settings: SettingsArgs,
    /// A template instead of a workload: `--usage`, `--from`, `--parameter`, `--region`.
    #[command(flatten)]
    pub template: TemplateArgs,
    #[command(flatten)]
    pub export: ExportArgs,
}

#[derive(Debug, Args)]
pub(crate) struct DiffArgs {
    /// The workload before the change.
    pub old: String,
    /// The workload after the change.
    pub new: String,
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
    /// Write the report to this file (atomically) instead of standard output (`-`: standard
    /// output).
    #[arg(long, short)]
    pub output: Option<String>,
    /// Exit with code 3 when the new monthly total is above this amount.
    #[arg(long, value_name = "AMOUNT")]
    pub fail_above: Option<String>,
    /// Exit with code 3 when the total rises by more than this percentage.
    #[arg(long, value_name = "PERCENT")]
    pub fail_increase: Option<String>,
    /// Exit with code 3 when what the change costs once (a GSI's backfill, a first load) is
    /// above this amount, or cannot be known.
    #[arg(long, value_name = "AMOUNT")]
    pub fail_one_time_above: Option<String>,
    #[command(flatten)]
    pub settings: SettingsArgs,
    #[command(flatten)]
    pub export: ExportArgs,
    #[command(flatten)]
    pub template: TemplateArgs,
}

#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true)]
pub(crate) struct PricesArgs {
    #[command(subcommand)]
    pub action: Option<PricesAction>,
    #[arg(long, value_enum, default_value_t = ListFormat::Table)]
    pub format: ListFormat,
}

#[derive(Debug, Subcommand)]
pub(crate) enum PricesAction {
    /// Import the AWS Price List for AmazonDynamoDB (the bulk offer file, optionally gzipped,
    /// or `aws pricing get-products` pages) as one price table per region.
    Import(ImportArgs),
    /// Every price the engine can ask a table for: its value, or absent (and how to fill it).
    Show(ShowArgs),
    /// Which prices changed between two price tables (or two folders of them, matched by
    /// region), by how much, and what that does to workloads' totals.
    Diff(PricesDiffArgs),
}

#[derive(Debug, Args)]
pub(crate) struct PricesDiffArgs {
    /// The prices before: a bundled id, a price-table file, or a folder of them.
    pub before: String,
    /// The prices after, in the same form.
    pub after: String,
    /// Workloads to price under both (tables only: each is priced with BEFORE, then AFTER).
    #[arg(long = "workload", value_name = "FILE")]
    pub workloads: Vec<String>,
    /// Folders of price tables for the other regions a workload's tables live in or
    /// replicate to (searched before `DDBCOST_PRICES`, the workload's `price_dirs` and the
    /// bundled tables; repeatable).
    #[arg(long = "prices-dir", value_name = "DIR")]
    pub prices_dirs: Vec<String>,
}

#[derive(Debug, Args)]
pub(crate) struct ShowArgs {
    /// A bundled price table id (see `ddbcost prices`) or a path to a price-table file.
    pub table: String,
}

#[derive(Debug, Args)]
pub(crate) struct ImportArgs {
    /// Price-list files: `offers/v1.0/aws/AmazonDynamoDB/current/index.json` (or a region's),
    /// `.gz` accepted, or the JSON printed by `aws pricing get-products --service-code
    /// AmazonDynamoDB` (several pages may be given).
    #[arg(required = true)]
    pub inputs: Vec<String>,
    /// Where to write `aws-<region>.yaml` (atomically; existing tables are replaced).
    #[arg(long, value_name = "DIR")]
    pub output_dir: String,
    /// List every SKU that maps to no price (they are always counted).
    #[arg(long)]
    pub verbose: bool,
}
