//! Budgets for what a reader takes in: bytes per record and bytes per file, counted after
//! decompression. Every reader of bills (CSV, `.csv.gz`) and CloudWatch files (JSON, CSV,
//! `.gz`) reads through `Bounded` and says where a record ends (`Mark::record_ends`); item
//! exports and key logs, whose lines have bounds of their own, through its file budget; a record that runs past `--max-record-bytes` (a gzip bomb of
//! one endless field) or a file that decompresses past `--max-decompressed-bytes` is
//! refused with the file's name, the budget and the flag that raises it, before memory
//! runs out.
//!
//! The budgets are the run's (`Run::limits`), in scope for its thread and the worker
//! threads it starts (`within`), like its confinement.

use std::cell::Cell;
use std::io::{self, Read};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::Error;

/// A run's budgets, in bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Limits {
    /// The most one record (a CSV row, a page's result, a line) may be.
    pub record: u64,
    /// The most one file may decompress to.
    pub file: u64,
}

/// 64 MiB: a CUR row is a few kilobytes, a `get-metric-data` result of 100,800 points a
/// few megabytes.
pub(crate) const DEFAULT_RECORD_BYTES: u64 = 64 << 20;
/// 64 GiB: a month of a large account's CUR is a few gigabytes once decompressed.
pub(crate) const DEFAULT_FILE_BYTES: u64 = 64 << 30;

impl Default for Limits {
    fn default() -> Self {
        Limits {
            record: DEFAULT_RECORD_BYTES,
            file: DEFAULT_FILE_BYTES,
        }
    }
}

thread_local! {
    static CURRENT: Cell<Limits> = const {
        Cell::new(Limits { record: DEFAULT_RECORD_BYTES, file: DEFAULT_FILE_BYTES })
    };
}

/// Runs `f` with `limits` as this thread's budgets; the ones before are put back after.
pub(crate) fn within<R>(limits: Limits, f: impl FnOnce() -> R) -> R {
    struct Restore(Limits);
    impl Drop for Restore {
        fn drop(&mut self) {
            CURRENT.with(|c| c.set(self.0));
        }
    }
    let _restore = Restore(CURRENT.with(|c| c.replace(limits)));
    f()
}

/// The budgets in scope on this thread.
pub(crate) fn limits() -> Limits {
    CURRENT.with(Cell::get)
}

/// Where the record being read started, shared by a `Bounded` reader and its consumer.
#[derive(Debug, Clone, Default)]
pub(crate) struct Mark {
    read: Arc<AtomicU64>,
    start: Arc<AtomicU64>,
}

impl Mark {
    /// The record being read has ended: the next one starts at what was read so far.
    pub(crate) fn record_ends(&self) {
        self.start
            .store(self.read.load(Ordering::Relaxed), Ordering::Relaxed);
    }
}

/// Which budget a reader passed (carried inside an `io::Error`).
#[derive(Debug)]
struct Exceeded {
    file: String,
    record: bool,
    budget: u64,
    at: u64,
}

impl std::fmt::Display for Exceeded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.record {
            write!(
                f,
                "`{}` holds a record longer than {} bytes (from byte {} of its decompressed text), the budget of one record (--max-record-bytes)",
                self.file, self.budget, self.at
            )
        } else {
            write!(
                f,
                "`{}` decompresses to more than {} bytes, the budget of one file (--max-decompressed-bytes)",
                self.file, self.budget
            )
        }
    }
}

impl std::error::Error for Exceeded {}

/// A reader that fails once a record or the whole file passes its budget.
pub(crate) struct Bounded<R> {
    inner: R,
    mark: Mark,
    limits: Limits,
    file: String,
}

impl<R: Read> Bounded<R> {
    /// `inner` (the bytes of `file`, decompressed) within the budgets in scope; the mark
    /// its consumer moves at each record's end.
    pub(crate) fn new(inner: R, file: &str) -> (Bounded<R>, Mark) {
        let mark = Mark::default();
        (
            Bounded {
                inner,
                mark: mark.clone(),
                limits: limits(),
                file: file.to_string(),
            },
            mark,
        )
    }

    /// `inner` within the budget of one file only: for readers whose records have a bound
    /// of their own (item lines, log lines).
    pub(crate) fn whole_file(inner: R, file: &str) -> Bounded<R> {
        let (mut bounded, _) = Bounded::new(inner, file);
        bounded.limits.record = u64::MAX;
        bounded
    }
}

impl<R: Read> Read for Bounded<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        let total = self
            .mark
            .read
            .fetch_add(u64::try_from(n).unwrap_or(u64::MAX), Ordering::Relaxed)
            .saturating_add(u64::try_from(n).unwrap_or(u64::MAX));
        let start = self.mark.start.load(Ordering::Relaxed);
        let exceeded = if total > self.limits.file {
            Some((false, self.limits.file))
        } else if total.saturating_sub(start) > self.limits.record {
            Some((true, self.limits.record))
        } else {
            None
        };
        match exceeded {
            None => Ok(n),
            Some((record, budget)) => Err(io::Error::new(
                io::ErrorKind::InvalidData,
                Exceeded {
                    file: self.file.clone(),
                    record,
                    budget,
                    at: start,
                },
            )),
        }
    }
}

/// The user's error for an `io::Error` that is a passed budget, else `None`.
pub(crate) fn refusal(e: &io::Error) -> Option<Error> {
    let exceeded = e.get_ref()?.downcast_ref::<Exceeded>()?;
    let flag = if exceeded.record {
        "--max-record-bytes"
    } else {
        "--max-decompressed-bytes"
    };
    Some(
        Error::input(exceeded.to_string())
            .file(exceeded.file.as_str())
            .help(format!(
                "Consider whether the file is what AWS wrote (a record this long is most likely a damaged or hostile file); if it is, raise the budget with `{flag} BYTES`."
            )),
    )
}

/// A whole small document (a JSON report, a manifest) at `path`, named `file`: one record,
/// so within the run's `--max-record-bytes`, refused past it with the flag that raises it
/// (never read to the end of a stray file, never cut short and misread).
///
/// # Errors
/// A path outside the run's confinement, a file that cannot be read or is not UTF-8, or one
/// past the budget.
pub(crate) fn read_document(path: &std::path::Path, file: &str) -> Result<String, Error> {
    crate::confine::check(path)?;
    let f = crate::confine::open(path).map_err(|e| {
        crate::confine::refusal(&e, file)
            .unwrap_or_else(|| Error::input(format!("cannot read `{file}`: {e}")).file(file))
    })?;
    let (mut r, _) = Bounded::new(f, file);
    let mut text = String::new();
    r.read_to_string(&mut text).map_err(|e| {
        refusal(&e).unwrap_or_else(|| Error::input(format!("cannot read `{file}`: {e}")).file(file))
    })?;
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_past_its_budget_is_refused_and_a_marked_one_is_not() {
        let budget = Limits {
            record: 10,
            file: 100,
        };
        within(budget, || {
            // 8 records of 9 bytes: each within the budget once its end is marked.
            let text = "abcdefgh\n".repeat(8);
            let (mut r, mark) = Bounded::new(text.as_bytes(), "f.csv");
            let mut buf = [0u8; 9];
            for _ in 0..8 {
                r.read_exact(&mut buf).unwrap();
                mark.record_ends();
            }
            // One record of 11 bytes: past 10.
            let long = "x".repeat(11);
            let (mut r, _) = Bounded::new(long.as_bytes(), "f.csv");
            let e = r.read_to_end(&mut Vec::new()).unwrap_err();
            assert!(
                refusal(&e)
                    .unwrap()
                    .message
                    .contains("longer than 10 bytes")
            );
            // A file of 101 bytes: past 100 however its records end.
            let big = "y".repeat(101);
            let (r, mark) = Bounded::new(big.as_bytes(), "g.gz");
            let mut r = r;
            let mut got = 0;
            let e = loop {
                let mut b = [0u8; 5];
                match r.read(&mut b) {
                    Ok(n) => got += n,
                    Err(e) => break e,
                }
                mark.record_ends();
            };
            assert!(got <= 100);
            assert!(refusal(&e).unwrap().message.contains("more than 100 bytes"));
        });
        assert_eq!(limits(), Limits::default());
    }
}
