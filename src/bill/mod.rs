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
pub(crate) mod once_check;
#[cfg(not(target_arch = "wasm32"))]
pub(crate) mod parquet;
#[cfg(not(target_arch = "wasm32"))]
pub(crate) mod parquet_columns;
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
    let (files, notes) = data_files(inputs)?;
    ledger.notes.extend(notes);
    for file in files {
        let name = file.display().to_string();
        ledger.files.push(name.clone());
        let mut sink = |row: &row::Row| ledger.add(row, &name);
        read::read(&file, &mut sink)?;
    }
    ledger.finish()?;
    Ok(ledger)
}

/// The data files of `inputs` (files, or delivery folders), each once: a file given twice,
/// or two files with the same bytes (a redelivered part), kept once and said in the notes.
///
/// # Errors
/// An input that cannot be listed or read.
pub(crate) fn data_files(inputs: &[String]) -> Result<(Vec<PathBuf>, Vec<String>), Error> {
    let mut notes = Vec::new();
    let mut files: Vec<PathBuf> = Vec::new();
    let mut seen = Seen::default();
    for input in inputs {
        let (found, listed) = read::files(Path::new(input))?;
        notes.extend(listed);
        for file in found {
            match seen.once(&files, &file)? {
                None => files.push(file),
                Some(same) => notes.push(format!(
                    "`{}` is the same bill file as `{}`: counted once",
                    file.display(),
                    files
                        .get(same)
                        .map(|p| p.display().to_string())
                        .unwrap_or_default()
                )),
            }
        }
    }
    Ok((files, notes))
}

/// The bill files kept so far, by what makes two of them one: the same file (device and
/// inode, however it was named), or the same bytes (the same size first, then the same
/// hash, then compared) — each file looked up in constant time, not against every other.
#[derive(Default)]
struct Seen {
    by_id: std::collections::HashMap<(u64, u64), usize>,
    by_size: std::collections::HashMap<u64, Vec<usize>>,
    hashes: std::collections::HashMap<usize, u64>,
}

impl Seen {
    /// The index in `kept` of the file `file` is, else `None` (and `file` is recorded as
    /// the next one kept).
    fn once(&mut self, kept: &[PathBuf], file: &Path) -> Result<Option<usize>, Error> {
        let cannot = |e: std::io::Error| {
            Error::input(format!("cannot read `{}`: {e}", file.display()))
                .file(file.display().to_string())
        };
        let meta = crate::confine::metadata(file).map_err(cannot)?;
        if let Some(&k) = self.by_id.get(&meta.id) {
            return Ok(Some(k));
        }
        let same_size = self.by_size.get(&meta.len).cloned().unwrap_or_default();
        if !same_size.is_empty() {
            let hash = content_hash(file).map_err(cannot)?;
            for k in same_size {
                let Some(path) = kept.get(k) else { continue };
                let theirs = match self.hashes.get(&k) {
                    Some(h) => *h,
                    None => {
                        let h = content_hash(path).map_err(cannot)?;
                        self.hashes.insert(k, h);
                        h
                    }
                };
                if theirs == hash && same_bytes(path, file).map_err(cannot)? {
                    return Ok(Some(k));
                }
            }
            self.hashes.insert(kept.len(), hash);
        }
        self.by_id.insert(meta.id, kept.len());
        self.by_size.entry(meta.len).or_default().push(kept.len());
        Ok(None)
    }
}

/// A hash of a file's bytes (to find candidates; equal bytes are then compared).
fn content_hash(path: &Path) -> std::io::Result<u64> {
    use std::hash::Hasher;
    let mut f = crate::confine::open(path)?;
    let mut h = std::collections::hash_map::DefaultHasher::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = read_full(&mut f, &mut buf)?;
        if n == 0 {
            return Ok(h.finish());
        }
        h.write(buf.get(..n).unwrap_or_default());
    }
}

/// Whether two files of one size hold the same bytes, compared a block at a time.
fn same_bytes(a: &Path, b: &Path) -> std::io::Result<bool> {
    let (mut fa, mut fb) = (crate::confine::open(a)?, crate::confine::open(b)?);
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
