//! AWS bills for DynamoDB: the rows of a CUR 2.0 export (Parquet or gzip CSV, a delivery
//! folder with its manifest, or single files), of the legacy CUR, of a FOCUS 1.2 export with
//! AWS columns, or of ddbcost's own FOCUS export, read as streams (`read`, `parquet`) in
//! one parser (`parse`, `columns`, `row`), placed by table, region and component through the
//! usage-type map `prices import` uses (`map`), and summed so every row counts once
//! (`ledger`).

pub(crate) mod columns;
pub(crate) mod commit;
pub(crate) mod ledger;
pub(crate) mod map;
#[cfg(not(target_arch = "wasm32"))]
pub(crate) mod parquet;
pub(crate) mod parse;
pub(crate) mod read;
pub(crate) mod reconcile;
pub(crate) mod row;
pub(crate) mod sql;
pub(crate) mod workload;

use std::path::{Path, PathBuf};

use crate::error::Error;
use ledger::Ledger;

/// Reads every input (a file or a delivery folder) into one ledger of `period` (or of the
/// only period the inputs hold). Each data file counts once: a file given twice (itself, or
/// inside a folder given too), or two files with the same bytes (a part copied twice), is
/// read once and said — a bill read twice would double every cost, and the copy is the
/// usual slip, so it is dropped with a note rather than refused.
///
/// # Errors
/// What the readers refuse; several currencies; several periods without one chosen; no
/// DynamoDB row.
pub(crate) fn read_all(inputs: &[String], period: Option<String>) -> Result<Ledger, Error> {
    let mut ledger = Ledger::new(period);
    let mut files: Vec<PathBuf> = Vec::new();
    for input in inputs {
        let (found, notes) = read::files(Path::new(input))?;
        ledger.notes.extend(notes);
        for file in found {
            match once(&files, &file)? {
                None => files.push(file),
                Some(same) => ledger.notes.push(format!(
                    "`{}` is the same bill file as `{}`: counted once",
                    file.display(),
                    same.display()
                )),
            }
        }
    }
    for file in files {
        let name = file.display().to_string();
        ledger.files.push(name.clone());
        let mut sink = |row: row::Row| ledger.add(&row, &name);
        read::read(&file, &mut sink)?;
    }
    ledger.finish()?;
    Ok(ledger)
}

/// The file among `kept` that `file` is: the same path once resolved, or the same bytes.
fn once<'k>(kept: &'k [PathBuf], file: &Path) -> Result<Option<&'k PathBuf>, Error> {
    let cannot = |e: std::io::Error| {
        Error::input(format!("cannot read `{}`: {e}", file.display()))
            .file(file.display().to_string())
    };
    let real = std::fs::canonicalize(file).map_err(cannot)?;
    let size = std::fs::metadata(file).map_err(cannot)?.len();
    for k in kept {
        if std::fs::canonicalize(k).is_ok_and(|r| r == real) {
            return Ok(Some(k));
        }
        if std::fs::metadata(k).is_ok_and(|m| m.len() == size)
            && same_bytes(k, file).map_err(cannot)?
        {
            return Ok(Some(k));
        }
    }
    Ok(None)
}

/// Whether two files of one size hold the same bytes, compared a block at a time.
fn same_bytes(a: &Path, b: &Path) -> std::io::Result<bool> {
    let (mut fa, mut fb) = (std::fs::File::open(a)?, std::fs::File::open(b)?);
    let (mut ba, mut bb) = (vec![0u8; 1 << 16], vec![0u8; 1 << 16]);
    loop {
        let n = read_full(&mut fa, &mut ba)?;
        let m = read_full(&mut fb, &mut bb)?;
        if n != m || ba.get(..n) != bb.get(..m) {
            return Ok(false);
        }
        if n == 0 {
            return Ok(true);
        }
    }
}

/// Fills `buf` as far as the reader goes.
fn read_full(r: &mut impl std::io::Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut filled = 0;
    while let Some(rest) = buf.get_mut(filled..) {
        if rest.is_empty() {
            break;
        }
        match r.read(rest)? {
            0 => break,
            n => filled = filled.saturating_add(n),
        }
    }
    Ok(filled)
}
