//! Reading input files: workloads and price tables. Raw serde structs only describe the
//! files' shape (`raw`); conversion (`workload`, and by concept `pattern`, `index`,
//! `capacity`; `prices`) validates them into `model` types where invalid states cannot be
//! expressed. The loader depends on `model` only: YAML is read and written in `yaml` alone,
//! and a sample a workload names is measured by the `model::sample::SampleReader` it is given.

mod capacity;
mod commitments;
#[cfg(any(target_arch = "wasm32", test))]
mod compact_json;
mod context;
mod dax;
mod forecast;
mod index;
mod keys;
mod pattern;
pub(crate) mod prices;
pub(crate) mod quantity;
pub(crate) mod raw;
pub(crate) mod savings_plan;
pub(crate) mod schema;
pub(crate) mod suggest;
mod table;
mod tenants;
mod vector;
mod workload;
pub(crate) mod yaml;

pub(crate) use context::PLACEHOLDER;
pub(crate) use workload::FxStated;
pub use workload::SettingsOverrides;
pub(crate) use workload::{
    parse_currency, parse_day, parse_fx_rate, parse_workload, parse_workload_at,
    workload_from_value,
};

use crate::error::Error;

/// The file name that means standard input (and, for `--output`, standard output).
pub(crate) const STDIN: &str = "-";

/// The largest input file we read (workloads and price tables are small; this bounds memory).
pub(crate) const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// The kinds of text input, each with its own bound (documented in docs/hardening.md's input
/// limits): a bound stops a wrong file early with a message that fits it, never after
/// reading it whole.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum InputKind {
    /// Workloads, usage files and price tables: a few kilobytes; 16 MiB.
    Workload,
    /// CloudFormation/SAM/Serverless templates, `.tf` files and Terraform plans or state in
    /// JSON: a plan of a large estate runs to tens of megabytes; 256 MiB.
    Template,
    /// CloudWatch output given to `usage` on standard input (held whole, since it is read
    /// more than once; files are read as streams, of any size): 256 MiB.
    Metrics,
}

impl InputKind {
    #[must_use]
    pub(crate) fn max_bytes(self) -> u64 {
        match self {
            InputKind::Workload => MAX_FILE_BYTES,
            InputKind::Template | InputKind::Metrics => 256 * 1024 * 1024,
        }
    }

    fn what(self) -> &'static str {
        match self {
            InputKind::Workload => "a workload or price table",
            InputKind::Template => "a template or Terraform plan",
            InputKind::Metrics => "CloudWatch output on standard input",
        }
    }

    fn help(self) -> &'static str {
        match self {
            InputKind::Workload => {
                "Consider whether this is the right file; workloads are a few kilobytes."
            }
            InputKind::Template => {
                "Consider whether this is the right file, or a plan of fewer resources (`terraform plan -target=…`, then `terraform show -json`)."
            }
            InputKind::Metrics => {
                "Consider saving the AWS CLI's output to files and naming them: `ddbcost usage FILE…` reads files of any size as streams, while standard input is held whole."
            }
        }
    }
}

/// Reads a UTF-8 text file, with an error that names it and says what went wrong.
///
/// # Errors
/// Missing, unreadable, a directory or special file, too large, or not UTF-8.
pub(crate) fn read_file(path: &str) -> Result<String, Error> {
    read_input(path, InputKind::Workload)
}

/// Reads a UTF-8 text file of `kind`, refused past the kind's bound before it is read.
///
/// # Errors
/// Missing, unreadable, a directory or special file, too large, or not UTF-8.
pub(crate) fn read_input(path: &str, kind: InputKind) -> Result<String, Error> {
    use std::io::Read;
    let max = kind.max_bytes();
    let too_large = |what: String| {
        Error::input(format!(
            "{what}, more than the {max} bytes (= {} MiB) {} may be",
            max / (1024 * 1024),
            kind.what()
        ))
        .help(kind.help())
    };
    if path == STDIN {
        let bytes = crate::streams::read_stdin(max.saturating_add(1))
            .map_err(|e| Error::input(format!("cannot read standard input: {e}")))?;
        if u64::try_from(bytes.len()).unwrap_or(u64::MAX) > max {
            return Err(too_large("standard input holds more".into()));
        }
        return String::from_utf8(bytes).map_err(|e| {
            Error::input(format!(
                "standard input is not UTF-8 text (invalid byte at offset {})",
                e.utf8_error().valid_up_to()
            ))
            .help("Consider UTF-8 text.")
        });
    }
    crate::confine::check(std::path::Path::new(path))?;
    let meta =
        crate::confine::metadata(std::path::Path::new(path)).map_err(|e| io_error(path, &e))?;
    if !meta.is_file {
        return Err(Error::input(format!("`{path}` is not a regular file"))
            .file(path)
            .help("Consider giving the path of a YAML file."));
    }
    if meta.len > max {
        return Err(too_large(format!("`{path}` is {} bytes", meta.len)).file(path));
    }
    let mut bytes = Vec::new();
    crate::confine::open(std::path::Path::new(path))
        .and_then(|f| f.take(max.saturating_add(1)).read_to_end(&mut bytes))
        .map_err(|e| io_error(path, &e))?;
    if u64::try_from(bytes.len()).unwrap_or(u64::MAX) > max {
        // It grew while being read.
        return Err(too_large(format!("`{path}` holds more")).file(path));
    }
    String::from_utf8(bytes).map_err(|e| {
        Error::input(format!(
            "`{path}` is not UTF-8 text (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        ))
        .file(path)
        .help("Consider saving the file as UTF-8.")
    })
}

fn io_error(path: &str, e: &std::io::Error) -> Error {
    if let Some(refused) = crate::confine::refusal(e, path) {
        return refused;
    }
    let why = match e.kind() {
        std::io::ErrorKind::NotFound => "does not exist".to_string(),
        std::io::ErrorKind::PermissionDenied => "cannot be read (permission denied)".to_string(),
        _ => format!("cannot be read ({e})"),
    };
    Error::io(
        format!("`{path}` {why}"),
        std::io::Error::new(e.kind(), e.to_string()),
    )
    .file(path)
    .help("Consider checking the path; bundled examples are in workloads/.")
}
