//! Tables from infrastructure code (`ddbcost import`): CloudFormation and SAM templates
//! (`cloudformation`), CDK's synthesized `cdk.out` (`cdk`), `serverless.yml` (`serverless`),
//! Terraform plans and state as JSON (`terraform`) and plain `.tf` files (`hcl`) become
//! `TableDef`s, which `workload` writes as a workload document with `TODO` placeholders for
//! the usage a template cannot know. Anything not understood is reported as a `Note` with its
//! file, line (where the format has lines) and path, and skipped — never guessed.

pub(crate) mod budget;
pub(crate) mod cdk;
pub(crate) mod cloudformation;
pub(crate) mod foreach;
pub(crate) mod hcl;
pub(crate) mod live;
pub(crate) mod serverless;
pub(crate) mod terraform;
pub(crate) mod workload;

use std::fmt;
use std::path::Path;

use crate::error::Error;

/// The kinds of input `import` reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    CloudFormation,
    Cdk,
    Serverless,
    TerraformPlan,
    Terraform,
    /// The AWS CLI's JSON for live tables (`describe-table` and its neighbours).
    Live,
}

impl Source {
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Source::CloudFormation => "cloudformation",
            Source::Cdk => "cdk",
            Source::Serverless => "serverless",
            Source::TerraformPlan => "terraform-plan",
            Source::Terraform => "terraform",
            Source::Live => "aws-cli",
        }
    }
}

/// Something in the input that was not imported, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    pub file: String,
    pub line: Option<u64>,
    /// Where inside the input (`Resources.Orders.Properties.BillingMode`,
    /// `module.app.aws_dynamodb_table.orders`).
    pub path: String,
    pub message: String,
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{line}: {}: {}", self.file, self.path, self.message),
            None => write!(f, "{}: {}: {}", self.file, self.path, self.message),
        }
    }
}

/// One dimension of provisioned capacity: fixed units, or auto scaling.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Dim {
    Fixed(String),
    Auto {
        min: String,
        max: String,
        /// Target utilization in percent (`70`), where a target-tracking policy states it.
        target: Option<String>,
    },
    /// Stated, but not resolved statically (a parameter without a default, a variable, an
    /// expression): why, with its position in the template. Imported as `TODO`.
    Unresolved(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Billing {
    OnDemand {
        max_read: Option<String>,
        max_write: Option<String>,
    },
    Provisioned {
        read: Option<Dim>,
        write: Option<Dim>,
    },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Projection {
    KeysOnly,
    Include(Vec<String>),
    All,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexDef {
    pub name: String,
    pub global: bool,
    pub key: Option<(String, Option<String>)>,
    pub projection: Projection,
    /// A GSI's own provisioned capacity (`None`: not stated).
    pub read: Option<Dim>,
    pub write: Option<Dim>,
}

/// A table as the input states it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableDef {
    /// `TableName`, else the logical id or resource address.
    pub name: String,
    /// Where it was found (`template.yaml:12 Resources.Orders (AWS::DynamoDB::Table)`).
    pub origin: String,
    /// The resource's own name in the input (logical id, resource address), for matching
    /// auto scaling resources that refer to it.
    pub logical_id: String,
    pub region: Option<String>,
    pub key: Option<(String, Option<String>)>,
    /// Attribute name → `S`, `N` or `B`.
    pub attributes: Vec<(String, String)>,
    pub standard_ia: bool,
    pub billing: Billing,
    pub indexes: Vec<IndexDef>,
    /// `keys-only`, `new-image`, `old-image`, `new-and-old-images`.
    pub stream_view: Option<String>,
    pub kinesis: bool,
    pub pitr: bool,
    pub ttl_attribute: Option<String>,
    pub replicas: Vec<String>,
    /// An import-from-S3 specification, described (its size is usage: a placeholder).
    pub import_from_s3: Option<String>,
    /// The table's resource tags (`Tags`, `tags`, `list-tags-of-resource`), key → value.
    pub tags: Vec<(String, String)>,
    /// For a live table (the AWS CLI's description): what was measured and described.
    pub(crate) live: Option<Box<live::Live>>,
}

impl TableDef {
    #[must_use]
    pub fn new(name: String, logical_id: String, origin: String) -> Self {
        TableDef {
            name,
            origin,
            logical_id,
            region: None,
            key: None,
            attributes: Vec::new(),
            standard_ia: false,
            billing: Billing::OnDemand {
                max_read: None,
                max_write: None,
            },
            indexes: Vec::new(),
            stream_view: None,
            kinesis: false,
            pitr: false,
            ttl_attribute: None,
            replicas: Vec::new(),
            import_from_s3: None,
            tags: Vec::new(),
            live: None,
        }
    }
}

/// Everything an import found.
#[derive(Debug, Clone, Default)]
pub struct Imported {
    pub tables: Vec<TableDef>,
    pub notes: Vec<Note>,
    /// The files read, with their kind.
    pub files: Vec<(String, Source)>,
}

/// Options that resolve what a template leaves open.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// `--parameter Name=Value`: CloudFormation parameters (and Serverless `opt:` options).
    pub parameters: Vec<(String, String)>,
    /// The region the stack is deployed to (`AWS::Region`; a global table's home).
    pub region: Option<String>,
}

/// Which kind of input `path` holds: from `--from`, else from its name and first bytes.
///
/// # Errors
/// The file cannot be read, or is none of the known kinds.
pub(crate) fn detect(path: &Path, text: Option<&str>) -> Result<Source, Error> {
    if crate::confine::is_dir(path) {
        // A Terraform module's folder (as `terraform plan` and Infracost take it), the AWS
        // CLI's outputs, else a `cdk.out`.
        return Ok(if !tf_files(path).is_empty() {
            Source::Terraform
        } else if live_files(path).is_some_and(|f| !f.is_empty()) {
            Source::Live
        } else {
            Source::Cdk
        });
    }
    if text.is_some_and(live::is_cli_output) {
        return Ok(Source::Live);
    }
    let name = path.file_name().map(|n| n.to_string_lossy().to_lowercase());
    let name = name.as_deref().unwrap_or("");
    let text_head: String = text.unwrap_or("").chars().take(4096).collect();
    // A name says what a file should be, its text what it is: a CloudFormation template saved
    // as `.tf` is read as CloudFormation.
    let cloudformation_text = text_head.contains("AWSTemplateFormatVersion")
        || text_head.lines().any(|l| l.starts_with("Resources:"))
        || text_head.trim_start().starts_with('{') && text_head.contains("\"Resources\"");
    if name.ends_with(".tf") && !cloudformation_text {
        return Ok(Source::Terraform);
    }
    if name == "serverless.yml" || name == "serverless.yaml" {
        return Ok(Source::Serverless);
    }
    let text = text.unwrap_or("");
    let head: String = text.chars().take(4096).collect();
    if head.contains("\"format_version\"")
        && (text.contains("\"planned_values\"") || text.contains("\"values\""))
    {
        return Ok(Source::TerraformPlan);
    }
    if head.contains("AWSTemplateFormatVersion")
        || text.contains("AWS::DynamoDB::")
        || text.contains("AWS::Serverless::")
        || head.contains("\"Resources\"")
        || head.lines().any(|l| l.starts_with("Resources:"))
    {
        if head.lines().any(|l| l.starts_with("service:")) {
            return Ok(Source::Serverless);
        }
        return Ok(Source::CloudFormation);
    }
    Err(Error::input(format!(
        "`{}` is not a template ddbcost reads",
        path.display()
    ))
    .file(path.display().to_string())
    .help("Consider `--from cloudformation|cdk|serverless|terraform-plan|terraform` (see docs/commands/import.md)."))
}

/// The AWS CLI outputs in folder `dir` (its `.json` files, sorted by name), or `None` when it
/// holds synthesized templates (a `cdk.out`) or cannot be read.
fn live_files(dir: &Path) -> Option<Vec<std::path::PathBuf>> {
    let files: Vec<std::path::PathBuf> = crate::confine::read_dir(dir)
        .ok()?
        .into_iter()
        .filter(|e| e.meta.is_file && e.path.extension().is_some_and(|x| x == "json"))
        .map(|e| e.path)
        .collect();
    if files
        .iter()
        .any(|p| p.to_string_lossy().ends_with(".template.json"))
    {
        return None;
    }
    Some(files)
}

/// The `.tf` files of folder `dir`, sorted by name (none when it cannot be read).
fn tf_files(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut files: Vec<std::path::PathBuf> = crate::confine::read_dir(dir)
        .map(|entries| {
            entries
                .into_iter()
                .filter(|e| e.meta.is_file && e.path.extension().is_some_and(|x| x == "tf"))
                .map(|e| e.path)
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

/// A live input's date: when its file was last written (UTC), as the day its facts were read.
fn written_on(path: &Path) -> Option<String> {
    let modified = crate::confine::metadata(path).ok()?.modified?;
    let secs = modified
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?
        .as_secs();
    Some(crate::model::period::date_of(secs))
}

/// Whether `path` holds infrastructure code rather than a workload (for commands that accept
/// either).
#[must_use]
pub(crate) fn is_template(path: &Path, text: Option<&str>) -> bool {
    if crate::confine::is_dir(path) {
        // A `cdk.out` folder (synthesized templates), or a Terraform module's folder.
        return !tf_files(path).is_empty()
            || crate::confine::read_dir(path).is_ok_and(|entries| {
                entries
                    .iter()
                    .any(|e| e.path.to_string_lossy().ends_with(".template.json"))
            });
    }
    let Some(text) = text else { return false };
    // A workload has `tables:` at the top level; templates never do.
    if text.lines().any(|l| l.starts_with("tables:")) {
        return false;
    }
    detect(path, Some(text)).is_ok()
}

/// Imports every input; the first error stops the import.
///
/// # Errors
/// An input that cannot be read or parsed, or is not a template.
pub(crate) fn import(
    inputs: &[String],
    from: Option<Source>,
    options: &Options,
) -> Result<Imported, Error> {
    let mut out = Imported::default();
    // Live tables are read together: a file that names no table belongs to one of them.
    let mut live_inputs = Vec::new();
    for input in inputs {
        let path = Path::new(input);
        crate::confine::check(path)?;
        let text = if crate::confine::is_dir(path) {
            None
        } else {
            Some(crate::load::read_input(
                input,
                crate::load::InputKind::Template,
            )?)
        };
        let kind = match from {
            Some(k) => k,
            None => detect(path, text.as_deref())?,
        };
        if kind == Source::Live {
            let files = if crate::confine::is_dir(path) {
                live_files(path).unwrap_or_default()
            } else {
                vec![path.to_path_buf()]
            };
            for f in files {
                let file = f.display().to_string();
                let text = crate::load::read_input(&file, crate::load::InputKind::Template)?;
                live_inputs.push(live::Input {
                    date: written_on(&f),
                    file,
                    text,
                });
            }
            out.files.push((input.clone(), kind));
            continue;
        }
        if kind == Source::Terraform && crate::confine::is_dir(path) {
            // A module's folder: each of its `.tf` files (their variables and locals are read
            // across the folder as siblings).
            let files = tf_files(path);
            if files.is_empty() {
                return Err(Error::input(format!("`{input}` holds no `.tf` file"))
                    .file(input.clone())
                    .help("Consider the folder of the Terraform module that declares the tables (its `*.tf` files), or a plan as JSON (`--from terraform-plan`)."));
            }
            for f in files {
                let file = f.display().to_string();
                let text = crate::load::read_input(&file, crate::load::InputKind::Template)?;
                hcl::import(&text, &file, options, &mut out)?;
            }
            out.files.push((input.clone(), kind));
            continue;
        }
        let text = text.unwrap_or_default();
        match kind {
            Source::CloudFormation => cloudformation::import(&text, input, options, &mut out)?,
            Source::Serverless => serverless::import(&text, input, options, &mut out)?,
            Source::Cdk => cdk::import(path, options, &mut out)?,
            Source::TerraformPlan => terraform::import(&text, input, &mut out)?,
            Source::Terraform => hcl::import(&text, input, options, &mut out)?,
            Source::Live => {}
        }
        out.files.push((input.clone(), kind));
    }
    if !live_inputs.is_empty() {
        live::import(&live_inputs, &mut out)?;
    }
    settle(&mut out);
    let mut seen = std::collections::HashSet::new();
    for t in &out.tables {
        if !seen.insert(t.name.clone()) {
            return Err(
                Error::input(format!("two tables are named `{}` ({})", t.name, t.origin))
                    .help("Consider importing the templates one at a time, or renaming one table."),
            );
        }
    }
    Ok(out)
}

/// What every reader's tables go through before they are written: names a workload can hold,
/// regions that are region codes (see `settle_names`, `settle_regions`).
pub(crate) fn settle(out: &mut Imported) {
    settle_names(out);
    settle_regions(out);
}

/// A table name an intrinsic or a variable produced that DynamoDB would refuse is said in a
/// note; one that no workload could hold (empty, over 255 bytes — a name that doubled at each
/// level — or with control characters such as a newline) is replaced by the input's own id
/// for the table, made of allowed characters. A name the input did not state (a Terraform
/// address standing for an unknown name) is a label and kept.
fn settle_names(out: &mut Imported) {
    for (i, t) in out.tables.iter_mut().enumerate() {
        if crate::model::is_dynamodb_name(&t.name) {
            continue;
        }
        let unusable =
            t.name.is_empty() || t.name.len() > 255 || t.name.chars().any(char::is_control);
        if !unusable && t.name == t.logical_id {
            continue;
        }
        let shown: String = t.name.chars().take(60).collect();
        let ellipsis = if t.name.chars().count() > 60 {
            "…"
        } else {
            ""
        };
        let mut message = format!(
            "table name {shown:?}{ellipsis} is not a DynamoDB name (3 to 255 of a-z A-Z 0-9 _ . -): DynamoDB would refuse it"
        );
        if unusable {
            let cleaned: String = t
                .logical_id
                .chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-') {
                        c
                    } else {
                        '-'
                    }
                })
                .take(255)
                .collect();
            // The input's own id is a label (as a Terraform address is), kept even if short.
            let replacement = if cleaned.is_empty() {
                format!("table-{}", i.saturating_add(1))
            } else {
                cleaned
            };
            message.push_str(&format!("; named `{replacement}` here"));
            t.name = replacement;
        }
        out.notes.push(Note {
            file: t.origin.clone(),
            line: None,
            path: t.logical_id.clone(),
            message,
        });
    }
}

/// Whether `text` is shaped like an AWS region code (`us-east-1`, `ap-southeast-2`,
/// `us-gov-west-1`): two letters, words, a number.
#[must_use]
pub(crate) fn is_region_code(text: &str) -> bool {
    let parts: Vec<&str> = text.split('-').collect();
    parts.len() >= 3
        && parts[0].len() == 2
        && parts[0].bytes().all(|b| b.is_ascii_lowercase())
        && parts[1..parts.len().saturating_sub(1)]
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_lowercase()))
        && parts
            .last()
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// A region or replica region that is no region code (a parameter defaulting to `none`, a
/// typo) is said and left out, never priced as if it were one.
fn settle_regions(out: &mut Imported) {
    for t in &mut out.tables {
        let mut notes = Vec::new();
        if let Some(r) = t.region.as_deref().filter(|r| !is_region_code(r)) {
            notes.push(format!("region `{r}` is not an AWS region code (such as `eu-west-1`): the table is priced in the workload's region"));
            t.region = None;
        }
        t.replicas.retain(|r| {
            let ok = is_region_code(r);
            if !ok {
                notes.push(format!(
                    "replica region `{r}` is not an AWS region code (such as `eu-west-1`): left out"
                ));
            }
            ok
        });
        for message in notes {
            out.notes.push(Note {
                file: t.origin.clone(),
                line: None,
                path: t.logical_id.clone(),
                message,
            });
        }
    }
}

/// Attaches an Application Auto Scaling target to the table or GSI its resource id names
/// (`table/NAME` or `table/NAME/index/INDEX`, NAME a table's name or the input's own id for
/// it), for the dimension `dimension` (`dynamodb:table:ReadCapacityUnits`, …), with bounds
/// `min`/`max` and a target-tracking value where a policy states one.
///
/// # Errors
/// What it names that the input does not define, in words for a note.
pub(crate) fn attach_scaling(
    tables: &mut [TableDef],
    resource_id: &str,
    dimension: &str,
    (min, max): (&str, &str),
    target: Option<String>,
) -> Result<(), String> {
    let parts: Vec<&str> = resource_id.split('/').collect();
    let (table_name, index) = match parts.as_slice() {
        ["table", t] => (*t, None),
        ["table", t, "index", i] => (*t, Some(*i)),
        _ => return Err(format!("resource id `{resource_id}` names no table")),
    };
    let Some(t) = tables
        .iter_mut()
        .find(|t| t.name == table_name || t.logical_id == table_name)
    else {
        return Err(format!(
            "auto scaling of `{table_name}`, a table this input does not define; skipped"
        ));
    };
    let d = Dim::Auto {
        min: whole(min).unwrap_or_else(|| min.to_string()),
        max: whole(max).unwrap_or_else(|| max.to_string()),
        target,
    };
    let read = dimension.ends_with("ReadCapacityUnits");
    let slot = match index {
        None => match &mut t.billing {
            Billing::Provisioned { read: r, write: w } => {
                if read {
                    r
                } else {
                    w
                }
            }
            Billing::OnDemand { .. } => {
                return Err(format!(
                    "auto scaling of `{table_name}`, an on-demand table; skipped"
                ));
            }
        },
        Some(i) => {
            let Some(ix) = t.indexes.iter_mut().find(|x| x.name == i) else {
                return Err(format!(
                    "auto scaling of index `{i}`, which table `{table_name}` does not have; skipped"
                ));
            };
            if read { &mut ix.read } else { &mut ix.write }
        }
    };
    *slot = Some(d);
    Ok(())
}

/// A whole, non-negative number written as text (`5`, `"5"`), for capacity units.
#[must_use]
pub(crate) fn whole(text: &str) -> Option<String> {
    let t = text.trim();
    (!t.is_empty() && t.len() <= 12 && t.bytes().all(|b| b.is_ascii_digit()))
        .then(|| t.trim_start_matches('0').to_string())
        .map(|s| if s.is_empty() { "0".to_string() } else { s })
}

/// A stream view type as the workload writes it.
#[must_use]
pub(crate) fn stream_view(aws: &str) -> Option<&'static str> {
    match aws {
        "KEYS_ONLY" => Some("keys-only"),
        "NEW_IMAGE" => Some("new-image"),
        "OLD_IMAGE" => Some("old-image"),
        "NEW_AND_OLD_IMAGES" => Some("new-and-old-images"),
        _ => None,
    }
}
