//! `ddbcost init`: writes a commented starter workload for a table the user describes — by
//! flags, or by answering questions when standard input is a terminal — so that the first
//! estimate is one command away. Names and index specifications are checked as they are
//! given (the index grammar is `model::index_spec`'s, as for `size` and `keys`); the written text is loaded and priced
//! before it is emitted, so `init` never writes a workload `estimate` refuses.

use std::io::{BufRead, Write};

use super::config::Run;
use super::pricing::Pricing;
use crate::cli::{InitArgs, InitMode};
use crate::error::Error;
use crate::load::{self, prices, suggest};
use crate::model::index_spec::{IndexProjection, IndexSpec};
use crate::output;

/// What the user said, as text (flags or answers), before it is checked.
struct Answers {
    table: String,
    prices: String,
    key: String,
    gsis: Vec<String>,
    lsis: Vec<String>,
    mode: InitMode,
}

const DEFAULT_TABLE: &str = "my-table";
const DEFAULT_REGION: &str = "us-east-1";
const DEFAULT_KEY: &str = "pk,sk";

pub(super) fn run(args: &InitArgs, run: &Run) -> Result<(), Error> {
    let described = args.table.is_some()
        || args.region.is_some()
        || args.prices.is_some()
        || args.key.is_some()
        || !args.gsis.is_empty()
        || !args.lsis.is_empty();
    let answers = if args.interactive || (!described && run.stdin_terminal) {
        let stdin = std::io::stdin();
        interview(&mut stdin.lock(), &mut std::io::stderr(), args)?
    } else {
        Answers {
            table: args.table.clone().unwrap_or_else(|| DEFAULT_TABLE.into()),
            prices: match (&args.prices, &args.region) {
                (Some(p), _) => p.clone(),
                (None, region) => price_id(region.as_deref().unwrap_or(DEFAULT_REGION))?,
            },
            key: args.key.clone().unwrap_or_else(|| DEFAULT_KEY.into()),
            gsis: args.gsis.clone(),
            lsis: args.lsis.clone(),
            mode: args.mode,
        }
    };
    if let Some(path) = &args.output
        && path != "-"
        // A symlink counts as there even when it dangles: replacing it is `--force`'s decision.
        && std::fs::symlink_metadata(path).is_ok()
        && !args.force
    {
        return Err(
            Error::usage(format!("`{path}` exists; init does not replace it"))
                .help("Consider another --output, or --force to replace it."),
        );
    }
    let file = args
        .output
        .as_deref()
        .filter(|p| *p != "-")
        .unwrap_or("workload.yaml");
    // The chosen table through the one pricing service (its price folders too).
    let pricing = Pricing::defaults(Some(answers.prices.clone()), &args.prices_dirs, run);
    let table = pricing
        .book(&crate::model::Workload::default(), "init")?
        .primary;
    let text = render(&answers, file, &table)?;
    check_prices(&text, &answers, &pricing)?;
    output::emit(args.output.as_deref(), &text)?;
    if let Some(path) = args.output.as_deref().filter(|p| *p != "-") {
        output::warn(&format!(
            "Wrote {path}. Replace the figures marked ←, then: ddbcost estimate {path}"
        ));
    }
    Ok(())
}

/// What init writes must load (a failure there is ddbcost's own bug, said as such) and be
/// priced by the chosen table (a region's bundled table may lack provisioned prices).
fn check_prices(text: &str, answers: &Answers, pricing: &Pricing<'_>) -> Result<(), Error> {
    let label = "(the workload init wrote)";
    let (workload, file_settings) = load::parse_workload(text, label).map_err(|e| {
        Error::input(format!(
            "init wrote a workload it cannot read: {}",
            e.message
        ))
        .help("Please report it with the options given.")
    })?;
    let book = pricing.book(&workload, label)?;
    let settings = pricing.settings(&file_settings);
    crate::engine::estimate(&workload, &book, &settings).map_err(|e| {
        Error::usage(format!(
            "price table `{}` cannot price this table: {}",
            answers.prices,
            Error::from(e).message
        ))
        .help(match answers.mode {
            InitMode::Provisioned => "Consider `--mode on-demand`, another region, or an imported price table (`ddbcost prices import`, then --prices).",
            InitMode::OnDemand => "Consider another region (`ddbcost prices` lists what each bundled table knows), or an imported price table (`ddbcost prices import`, then --prices).",
        })
    })?;
    Ok(())
}

/// The bundled price table of an AWS region.
fn price_id(region: &str) -> Result<String, Error> {
    let regions: Vec<&str> = prices::BUNDLED
        .iter()
        .filter_map(|(id, _, _)| id.strip_prefix("aws-"))
        .collect();
    if regions.contains(&region) {
        return Ok(format!("aws-{region}"));
    }
    // A real region without a bundled table is not a typo: no "did you mean" by spelling
    // (`sa-east-1` is not `us-east-1`), the bundled ones of its continent where there are.
    #[cfg(not(target_arch = "wasm32"))]
    let known = crate::pricelist::mapping::REGION_PREFIXES
        .iter()
        .any(|(_, r)| *r == region);
    // The page's download leaves the list of AWS regions out (#30's budget).
    #[cfg(target_arch = "wasm32")]
    let known = false;
    if known {
        let continent = region.split('-').next().unwrap_or_default();
        let near: Vec<String> = regions
            .iter()
            .filter(|r| r.split('-').next() == Some(continent))
            .map(|r| format!("`{r}`"))
            .collect();
        let near = if near.is_empty() {
            format!(
                "no bundled table is of its continent (bundled: {})",
                regions
                    .iter()
                    .map(|r| format!("`{r}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        } else {
            format!("bundled on its continent: {}", near.join(", "))
        };
        return Err(Error::usage(format!(
            "no bundled price table for region `{region}`"
        ))
        .help(format!(
            "Consider importing its prices from the AWS Price List: `ddbcost prices import FILE --output-dir DIR`, then `--prices-dir DIR --prices aws-{region}`; {near}."
        )));
    }
    Err(
        Error::usage(format!("no bundled price table for region `{region}`")).help(format!(
            "{} Or import one (`ddbcost prices import`) and give it with --prices.",
            suggest::consider(region, &regions, "regions with bundled prices")
        )),
    )
}

/// DynamoDB's rule for table and index names.
fn check_name(what: &str, name: &str) -> Result<(), Error> {
    if crate::model::is_dynamodb_name(name) {
        Ok(())
    } else {
        Err(Error::usage(format!(
            "{what} `{name}`: DynamoDB names are 3 to 255 of a-z, A-Z, 0-9, `_`, `.`, `-`"
        ))
        .help("Consider a name such as `orders` or `by-status`."))
    }
}

/// `PK` or `PK,SK`.
fn key_attributes(key: &str) -> Result<Vec<String>, Error> {
    let parts: Vec<String> = key.split(',').map(|k| k.trim().to_string()).collect();
    if parts.is_empty() || parts.len() > 2 || parts.iter().any(String::is_empty) {
        return Err(Error::usage(format!("--key `{key}`: expected PK or PK,SK"))
            .help("Consider `--key pk,sk` or `--key customer_id`."));
    }
    if parts.first() == parts.get(1) {
        return Err(Error::usage(format!(
            "--key `{key}`: the partition key and the sort key are one attribute"
        ))
        .help("Consider two attributes (`--key pk,sk`), or the partition key alone (`--key pk`): DynamoDB refuses a key that names one attribute twice."));
    }
    Ok(parts)
}

/// One index for the template.
#[derive(serde::Serialize)]
struct IndexView {
    name: String,
    kind: &'static str,
    partition: String,
    sort: Option<String>,
    projection: &'static str,
    include: Vec<String>,
}

fn view(spec: IndexSpec, kind: &'static str) -> Result<IndexView, Error> {
    check_name("index", &spec.name)?;
    let (projection, include) = match spec.projection {
        IndexProjection::KeysOnly => ("keys-only", Vec::new()),
        IndexProjection::All => ("all", Vec::new()),
        IndexProjection::Include(list) => ("include", list),
    };
    let mut keys = spec.keys.into_iter();
    Ok(IndexView {
        name: spec.name,
        kind,
        partition: keys.next().unwrap_or_default(),
        sort: keys.next(),
        projection,
        include,
    })
}

/// The workload text.
fn render(
    answers: &Answers,
    file: &str,
    table: &crate::model::PriceTable,
) -> Result<String, Error> {
    check_name("table", &answers.table)?;
    let keys = key_attributes(&answers.key)?;
    let mut indexes = Vec::new();
    for text in &answers.gsis {
        indexes.push(view(IndexSpec::parse_global(text, &keys, "all")?, "gsi")?);
    }
    for text in &answers.lsis {
        if keys.len() < 2 {
            return Err(
                Error::usage(format!("--lsi `{text}`: the table has no sort key")).help(
                    "Consider `--key PK,SK`: a local index only exists on a table with a sort key.",
                ),
            );
        }
        indexes.push(view(IndexSpec::parse_local(text, &keys[0], &keys)?, "lsi")?);
    }
    let mut names: Vec<&str> = indexes.iter().map(|i| i.name.as_str()).collect();
    names.sort_unstable();
    if let Some([twice, _]) = names.windows(2).find(|w| w[0] == w[1]) {
        return Err(Error::usage(format!("two indexes are named `{twice}`"))
            .help("Consider a different name for one of them."));
    }
    let mut env = minijinja::Environment::new();
    env.add_filter("q", |v: &str| load::yaml::write::name(v));
    env.add_template("init", include_str!("init.yaml.jinja"))
        .map_err(|e| template_error(&e))?;
    let context = minijinja::context! {
        file => file,
        table => &answers.table,
        prices => &answers.prices,
        prices_note => format!("{}, {}, prices of {}", table.region, table.currency, table.effective),
        partition => &keys[0],
        sort => keys.get(1),
        mode => match answers.mode { InitMode::OnDemand => "on-demand", InitMode::Provisioned => "provisioned" },
        indexes => minijinja::value::Serde(&indexes),
    };
    let mut text = env
        .get_template("init")
        .and_then(|t| t.render(context))
        .map_err(|e| template_error(&e))?;
    text.push('\n');
    Ok(text)
}

fn template_error(e: &minijinja::Error) -> Error {
    Error::input(format!("cannot write the starter workload: {e}"))
}

/// Questions on one stream, answers from another.
struct Interview<'a> {
    input: &'a mut dyn BufRead,
    out: &'a mut dyn Write,
}

impl Interview<'_> {
    /// Asks until `check` accepts the answer (an empty answer is `default`), explaining each
    /// refusal.
    fn ask(
        &mut self,
        question: &str,
        default: &str,
        check: &dyn Fn(&str) -> Result<String, Error>,
    ) -> Result<String, Error> {
        loop {
            let _ = write!(self.out, "{question} [{default}]: ");
            let _ = self.out.flush();
            let mut line = String::new();
            let n = self
                .input
                .read_line(&mut line)
                .map_err(|e| Error::input(format!("cannot read the answer: {e}")))?;
            if n == 0 {
                return Err(Error::usage(format!("no answer to “{question}”")).help(
                    "Consider giving the table with flags: `ddbcost init --table orders --region eu-west-1 --key pk,sk`.",
                ));
            }
            let answer = match line.trim() {
                "" => default,
                a => a,
            };
            match check(answer) {
                Ok(v) => return Ok(v),
                Err(e) => {
                    let _ = writeln!(self.out, "  {}", e.message);
                }
            }
        }
    }
}

/// Asks the questions on `out` and reads the answers from `input`; the flags given are the
/// defaults (and `--prices`, when given, stands for the region).
fn interview(
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    args: &InitArgs,
) -> Result<Answers, Error> {
    let mut q = Interview { input, out };
    // What the flags say is each question's default.
    let table = q.ask(
        "Table name",
        args.table.as_deref().unwrap_or(DEFAULT_TABLE),
        &|a| check_name("table", a).map(|()| a.to_string()),
    )?;
    let regions: Vec<&str> = prices::BUNDLED
        .iter()
        .filter_map(|(id, _, _)| id.strip_prefix("aws-"))
        .collect();
    let prices = match &args.prices {
        Some(p) => p.clone(),
        None => q.ask(
            &format!("Region ({})", regions.join(", ")),
            args.region.as_deref().unwrap_or(DEFAULT_REGION),
            &price_id,
        )?,
    };
    let key = q.ask(
        "Key attributes, PK or PK,SK",
        args.key.as_deref().unwrap_or(DEFAULT_KEY),
        &|a| key_attributes(a).map(|_| a.to_string()),
    )?;
    let keys = key_attributes(&key)?;
    let mut gsis = args.gsis.clone();
    loop {
        let gsi = q.ask(
            "A global secondary index NAME:PK[,SK][:keys-only|all|include=A,B] (- when done)",
            "-",
            &|a| {
                if a == "-" {
                    return Ok(a.to_string());
                }
                let spec = IndexSpec::parse_global(a, &keys, "all")?;
                check_name("index", &spec.name)?;
                Ok(a.to_string())
            },
        )?;
        if gsi == "-" {
            break;
        }
        gsis.push(gsi);
    }
    let mut lsis = args.lsis.clone();
    while keys.len() == 2 {
        let lsi = q.ask(
            "A local secondary index NAME:SK[:keys-only|all|include=A,B] (- when done)",
            "-",
            &|a| {
                if a == "-" {
                    return Ok(a.to_string());
                }
                let spec = IndexSpec::parse_local(a, &keys[0], &keys)?;
                check_name("index", &spec.name)?;
                Ok(a.to_string())
            },
        )?;
        if lsi == "-" {
            break;
        }
        lsis.push(lsi);
    }
    let default_mode = match args.mode {
        InitMode::OnDemand => "on-demand",
        InitMode::Provisioned => "provisioned",
    };
    let mode = q.ask(
        "Capacity mode, on-demand or provisioned",
        default_mode,
        &|a| match a {
            "on-demand" | "provisioned" => Ok(a.to_string()),
            _ => Err(Error::usage(format!(
                "`{a}`: expected on-demand or provisioned"
            ))),
        },
    )?;
    Ok(Answers {
        table,
        prices,
        key,
        gsis,
        lsis,
        mode: if mode == "provisioned" {
            InitMode::Provisioned
        } else {
            InitMode::OnDemand
        },
    })
}
