//! Reading input files: workloads and price tables. Raw serde structs only describe the
//! files' shape (`raw`); conversion (`workload`, `prices`) validates them into `model` types
//! where invalid states cannot be expressed. YAML parsing lives in `yaml` alone.

mod capacity;
mod index;
mod pattern;
pub mod prices;
pub mod quantity;
pub mod raw;
pub mod savings_plan;
pub mod schema;
pub mod suggest;
mod workload;
pub mod yaml;

pub use workload::{
    FxStated, MAX_ITEM_BYTES, PLACEHOLDER, SettingsOverrides, parse_currency, parse_day,
    parse_fx_rate, parse_workload, parse_workload_at, workload_from_value,
};

use crate::error::Error;

/// The file name that means standard input (and, for `--output`, standard output).
pub const STDIN: &str = "-";

/// The largest input file we read (workloads and price tables are small; this bounds memory).
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// Reads a UTF-8 text file, with an error that names it and says what went wrong.
///
/// # Errors
/// Missing, unreadable, a directory or special file, too large, or not UTF-8.
pub fn read_file(path: &str) -> Result<String, Error> {
    use std::io::Read;
    if path == STDIN {
        let mut bytes = Vec::new();
        std::io::stdin()
            .lock()
            .take(MAX_FILE_BYTES.saturating_add(1))
            .read_to_end(&mut bytes)
            .map_err(|e| Error::input(format!("cannot read standard input: {e}")))?;
        if u64::try_from(bytes.len()).unwrap_or(u64::MAX) > MAX_FILE_BYTES {
            return Err(Error::input(format!(
                "standard input holds more than the {MAX_FILE_BYTES} bytes a workload or price table may be"
            ))
            .help("Consider whether this is the right input; workloads are a few kilobytes."));
        }
        return String::from_utf8(bytes).map_err(|e| {
            Error::input(format!(
                "standard input is not UTF-8 text (invalid byte at offset {})",
                e.utf8_error().valid_up_to()
            ))
            .help("Consider UTF-8 text.")
        });
    }
    let meta = std::fs::metadata(path).map_err(|e| io_error(path, &e))?;
    if !meta.is_file() {
        return Err(Error::input(format!("`{path}` is not a regular file"))
            .file(path)
            .help("Consider giving the path of a YAML file."));
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(Error::input(format!(
            "`{path}` is {} bytes, more than the {MAX_FILE_BYTES} a workload or price table may be",
            meta.len()
        ))
        .file(path)
        .help("Consider whether this is the right file; workloads are a few kilobytes."));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes))
        .map_err(|e| io_error(path, &e))?;
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
    let why = match e.kind() {
        std::io::ErrorKind::NotFound => "does not exist".to_string(),
        std::io::ErrorKind::PermissionDenied => "cannot be read (permission denied)".to_string(),
        _ => format!("cannot be read ({e})"),
    };
    Error::input(format!("`{path}` {why}"))
        .file(path)
        .help("Consider checking the path; bundled examples are in workloads/.")
}
