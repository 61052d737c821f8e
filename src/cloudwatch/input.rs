//! The inputs of `ddbcost usage` and how each is read: a file (plain or `.gz`) opened afresh
//! for every pass and read as a stream — never whole into memory, so a gigabyte of
//! `get-metric-data` output costs a buffer, not a gigabyte — or a text already in memory
//! (standard input, the API). The first bytes tell the reader: `{` is JSON (`get-metric-data`
//! or `get-metric-statistics` output), `timestamp,…` a CSV.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read};
use std::path::PathBuf;

use super::Reading;
use super::metric_data::Query;
use crate::error::Error;

/// Where an input's bytes are.
#[derive(Debug, Clone)]
enum Body {
    File(PathBuf),
    Text(String),
}

/// One input: its name as given (errors name it), the table (and GSI) it is about when its
/// data names none (`get-metric-statistics` output, given as `TABLE[:INDEX]=FILE`), and its
/// bytes.
#[derive(Debug, Clone)]
pub(crate) struct Input {
    pub(crate) name: String,
    pub(crate) target: Option<(String, Option<String>)>,
    body: Body,
}

/// Splits `TABLE[:INDEX]=REST` into the target and the rest.
fn target(arg: &str) -> Option<((String, Option<String>), &str)> {
    let (t, rest) = arg.split_once('=')?;
    let (table, index) = match t.split_once(':') {
        Some((t, i)) => (t, Some(i.to_string())),
        None => (t, None),
    };
    (!table.is_empty() && !rest.is_empty()).then(|| ((table.to_string(), index), rest))
}

impl Input {
    /// A file named on the command line: `TABLE[:INDEX]=FILE` unless the whole argument is a
    /// path that exists.
    pub(crate) fn file(arg: &str) -> Input {
        let (target, path) = match target(arg) {
            Some((t, path)) if crate::confine::metadata(std::path::Path::new(arg)).is_err() => {
                (Some(t), path)
            }
            _ => (None, arg),
        };
        Input {
            name: path.to_string(),
            target,
            body: Body::File(PathBuf::from(path)),
        }
    }

    /// A text in memory named `name` (`TABLE[:INDEX]=NAME` for `get-metric-statistics`
    /// output).
    pub(crate) fn text(name: &str, text: String) -> Input {
        let looks_like_statistics = text.contains("\"Datapoints\"");
        let (target, name) = match target(name) {
            Some((t, rest)) if looks_like_statistics => (Some(t), rest),
            _ => (None, name),
        };
        Input {
            name: name.to_string(),
            target,
            body: Body::Text(text),
        }
    }

    /// The input's bytes (decompressed), within the run's budgets, and the mark its reader
    /// moves at each record's end.
    fn open(&self) -> Result<(Box<dyn BufRead + '_>, crate::bounded::Mark), Error> {
        match &self.body {
            Body::Text(t) => Ok((Box::new(t.as_bytes()), crate::bounded::Mark::default())),
            Body::File(path) => {
                let cannot = |e: std::io::Error| {
                    Error::input(format!("cannot read `{}`: {e}", path.display()))
                        .file(self.name.as_str())
                        .help("Consider the path of a file the AWS CLI wrote.")
                };
                crate::confine::check(path)?;
                let meta = crate::confine::metadata(path).map_err(cannot)?;
                if !meta.is_file {
                    return Err(Error::input(format!("`{}` is not a regular file", self.name))
                        .file(self.name.as_str())
                        .help("Consider saving the AWS CLI's output to a file first: `ddbcost usage` may read its inputs more than once."));
                }
                let f = crate::confine::open(path).map_err(cannot)?;
                let raw: Box<dyn Read> = if self.name.ends_with(".gz") {
                    Box::new(flate2::read::MultiGzDecoder::new(BufReader::new(f)))
                } else {
                    Box::new(f)
                };
                let (bounded, mark) = crate::bounded::Bounded::new(raw, &self.name);
                Ok((Box::new(BufReader::with_capacity(1 << 18, bounded)), mark))
            }
        }
    }
}

/// What an input holds, told by its first bytes.
enum Kind {
    Json,
    Csv,
    Other,
}

/// Reads the first bytes of `r` (past a byte-order mark and white space) and gives them
/// back in front of the rest.
fn sniff<'a>(
    mut r: Box<dyn BufRead + 'a>,
    name: &str,
) -> Result<(Kind, Box<dyn BufRead + 'a>), Error> {
    let mut head = Vec::with_capacity(64);
    (&mut r)
        .take(64)
        .read_to_end(&mut head)
        .map_err(|e| Error::input(format!("cannot read `{name}`: {e}")).file(name))?;
    let text = head.strip_prefix("\u{feff}".as_bytes()).unwrap_or(&head);
    let start = text.iter().position(|b| !b.is_ascii_whitespace());
    let body = start.map_or(&[][..], |i| &text[i..]);
    let kind = if body.first() == Some(&b'{') {
        Kind::Json
    } else if body.len() >= 9 && body[..9].eq_ignore_ascii_case(b"timestamp") {
        Kind::Csv
    } else {
        Kind::Other
    };
    Ok((
        kind,
        Box::new(BufReader::new(std::io::Cursor::new(head).chain(r))),
    ))
}

/// Reads `input` into `into`, by what it holds.
///
/// # Errors
/// An input that is neither CloudWatch output nor a CSV of metrics; what each reader refuses.
pub(crate) fn read(
    input: &Input,
    queries: &HashMap<String, Query>,
    into: &mut Reading,
) -> Result<(), Error> {
    let (r, mark) = input.open()?;
    let (kind, r) = sniff(r, &input.name)?;
    match kind {
        Kind::Json => super::metric_data::read(r, input, queries, into, mark),
        Kind::Csv => super::csv::read(r, &input.name, into),
        Kind::Other => Err(Error::input("neither `get-metric-data` output nor a CSV of metrics")
            .file(input.name.as_str())
            .help("Consider the files the script of `ddbcost usage query` writes, or a CSV with `timestamp,table,index,metric,statistic,value`.")),
    }
}

/// Reads a queries file (`--queries`), whole and at most 64 MiB (a few hundred queries are
/// far less; the bound stops a stray file).
pub(crate) fn queries(input: &Input) -> Result<HashMap<String, Query>, Error> {
    let mut text = String::new();
    input
        .open()?
        .0
        .take(64 << 20)
        .read_to_string(&mut text)
        .map_err(|e| {
            Error::input(format!("cannot read `{}`: {e}", input.name)).file(input.name.as_str())
        })?;
    super::metric_data::queries(&text, &input.name)
}
