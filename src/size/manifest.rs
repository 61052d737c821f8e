//! Exports larger than one machine: a DynamoDB export to S3 lists its data files in
//! `manifest-files.json`, one JSON object per line (`dataFileS3Key`, `itemCount`, …). This
//! module reads that list, finds each file next to the manifest once the export is copied
//! locally (`<manifest folder>/data/<file name>`), and splits the files into `n` shards of
//! nearly equal item counts — largest first, each to the shard with the fewest items so far,
//! ties to the lower shard — so that shard `i` of `n` can be sized anywhere and the pieces
//! merged exactly with `size --merge`. The split depends only on the manifest, never on the
//! machine.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::error::Error;

/// One data file of an export.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct DataFile {
    pub key: String,
    pub items: u64,
    pub path: PathBuf,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Line {
    data_file_s3_key: String,
    item_count: u64,
}

/// The data files `manifest` (the text of `file`) lists, resolved next to it.
///
/// # Errors
/// A line that is not a manifest entry, or a data file that is not in the manifest's `data/`
/// folder.
pub(crate) fn data_files(manifest: &str, file: &str) -> Result<Vec<DataFile>, Error> {
    let dir = Path::new(file).parent().unwrap_or_else(|| Path::new("."));
    let mut out = Vec::new();
    let mut seen = std::collections::HashMap::new();
    for (n, text) in manifest.lines().enumerate() {
        let line = u64::try_from(n).unwrap_or(u64::MAX).saturating_add(1);
        if text.trim().is_empty() {
            continue;
        }
        let entry: Line = serde_json::from_str(text).map_err(|e| {
            Error::input(format!("not a line of `manifest-files.json`: {e}"))
                .file(file)
                .at(Some((line, 1)))
                .help("Consider the `manifest-files.json` of a DynamoDB export to S3 (one JSON object per line with `dataFileS3Key` and `itemCount`).")
        })?;
        let name = entry
            .data_file_s3_key
            .rsplit('/')
            .next()
            .unwrap_or_default()
            .to_string();
        let path = dir.join("data").join(&name);
        if name.is_empty() || !crate::confine::is_file(&path) {
            return Err(Error::input(format!(
                "data file `{}` is not at `{}`",
                entry.data_file_s3_key,
                path.display()
            ))
            .file(file)
            .at(Some((line, 1)))
            .help("Consider copying the export with its layout (`aws s3 cp --recursive s3://bucket/AWSDynamoDB/<export id>/ .`): the manifest next to a `data/` folder."));
        }
        if let Some(first) = seen.insert(entry.data_file_s3_key.clone(), line) {
            return Err(Error::input(format!(
                "data file `{}` is listed twice (lines {first} and {line}): its items would be counted twice",
                entry.data_file_s3_key
            ))
            .file(file)
            .at(Some((line, 1)))
            .help("Consider the manifest exactly as the export wrote it: each data file once."));
        }
        out.push(DataFile {
            key: entry.data_file_s3_key,
            items: entry.item_count,
            path,
        });
    }
    if out.is_empty() {
        return Err(Error::input("the manifest lists no data file").file(file));
    }
    Ok(out)
}

/// `I/N` (1 ≤ I ≤ N).
///
/// # Errors
/// Not two whole numbers with 1 ≤ I ≤ N.
pub(crate) fn parse_shard(text: &str) -> Result<(usize, usize), String> {
    let (i, n) = text
        .split_once('/')
        .ok_or_else(|| format!("`{text}` is not I/N"))?;
    let i: usize = i
        .trim()
        .parse()
        .map_err(|_| format!("`{i}` is not a whole number"))?;
    let n: usize = n
        .trim()
        .parse()
        .map_err(|_| format!("`{n}` is not a whole number"))?;
    if i == 0 || i > n {
        return Err(format!("shard {i} of {n}: shards are numbered 1 to {n}"));
    }
    Ok((i, n))
}

/// The files of shard `i` (1-based) of `n`. Only as many shards as there are files can hold
/// any, so work and memory grow with the files, never with `n` (`--shard 1/10^11` is a
/// shard of one file, not 800 GB of counters).
#[must_use]
pub(crate) fn shard(files: &[DataFile], i: usize, n: usize) -> Vec<DataFile> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let mut order: Vec<usize> = (0..files.len()).collect();
    // Largest first; equal counts in manifest order.
    order.sort_by(|&a, &b| files[b].items.cmp(&files[a].items).then(a.cmp(&b)));
    let used = n.max(1).min(files.len().max(1));
    // The lightest shard first, ties to the lower shard.
    let mut load: BinaryHeap<Reverse<(u64, usize)>> = (0..used).map(|k| Reverse((0, k))).collect();
    let mut mine = Vec::new();
    for f in order {
        let Some(Reverse((items, to))) = load.pop() else {
            break;
        };
        load.push(Reverse((items.saturating_add(files[f].items), to)));
        if to.saturating_add(1) == i {
            mine.push(files[f].clone());
        }
    }
    // Read in manifest order.
    mine.sort_by(|a, b| a.key.cmp(&b.key));
    mine
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(key: &str, items: u64) -> DataFile {
        DataFile {
            key: key.into(),
            items,
            path: PathBuf::from(key),
        }
    }

    #[test]
    fn shards_balance_items_and_cover_every_file_once() {
        let files = vec![f("a", 100), f("b", 60), f("c", 50), f("d", 40), f("e", 10)];
        // Largest first to the lightest shard: a→1 (100), b→2 (60), c→2 (110), d→1 (140),
        // e→2 (120): shard 1 = {a, d} (140 items), shard 2 = {b, c, e} (120 items).
        let one: Vec<_> = shard(&files, 1, 2).into_iter().map(|x| x.key).collect();
        let two: Vec<_> = shard(&files, 2, 2).into_iter().map(|x| x.key).collect();
        assert_eq!(one, ["a", "d"]);
        assert_eq!(two, ["b", "c", "e"]);
        // More shards than files: the extra ones are empty.
        assert!(shard(&files, 7, 7).is_empty());
        // Work grows with the files, not the shards: the largest file is shard 1 of 2^64-1,
        // and the last shard of so many is empty.
        assert_eq!(shard(&files, 1, usize::MAX).len(), 1);
        assert!(shard(&files, usize::MAX, usize::MAX).is_empty());
        assert_eq!(shard(&files, 1, 100_000_000_000).len(), 1);
        assert_eq!(parse_shard("2/4"), Ok((2, 4)));
        assert!(parse_shard("0/4").is_err());
        assert!(parse_shard("5/4").is_err());
        assert!(parse_shard("x").is_err());
    }
}
