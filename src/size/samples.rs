//! The sample reader of a run: each `item_size: { sample: FILE }` a workload names is read
//! and sized once (strictly: a malformed item is an error), then served from memory to every
//! later load — a comparison's scenarios, a sweep's designs, advise's candidates.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};

use super::scan::{self, ScanOptions};
use crate::model::sample::{SampleReader, SampleSizes};
#[cfg(test)]
use rust_decimal::Decimal;

/// Sample sizes measured so far in this run, by path.
#[derive(Debug, Default)]
pub(crate) struct SampleCache {
    measured: Mutex<HashMap<String, Result<SampleSizes, String>>>,
}

impl SampleCache {
    /// How many files were measured (not served from memory).
    #[cfg(test)]
    #[must_use]
    pub(crate) fn files_measured(&self) -> usize {
        self.measured
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }
}

impl SampleReader for SampleCache {
    fn measure(&self, path: &str) -> Result<SampleSizes, String> {
        if cfg!(target_arch = "wasm32") {
            return Err(format!(
                "`{path}` is not read in the browser (the page has no file system): give the item size instead (`ddbcost size {path}` measures it)"
            ));
        }
        let mut measured = self.measured.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(known) = measured.get(path) {
            return known.clone();
        }
        let options = ScanOptions {
            strict: true,
            jobs: 1,
            ..ScanOptions::default()
        };
        let result = scan::expand(&[path.to_string()])
            .and_then(|files| scan::scan(&files, &options))
            .map(|summary| SampleSizes {
                mean: summary.sizes.stats().mean(),
                buckets: summary.sizes.buckets().collect(),
                oversized: summary.oversized,
            })
            .map_err(|e| e.message.to_string());
        measured.insert(path.to_string(), result.clone());
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sample_is_read_once_per_run() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("items.jsonl");
        std::fs::write(&path, "{\"pk\": \"a\"}\n{\"pk\": \"bb\"}\n").unwrap();
        let path = path.display().to_string();
        let cache = SampleCache::default();
        let first = cache.measure(&path).unwrap();
        // Attribute name + value: `pk` + `a` = 3 bytes, `pk` + `bb` = 4 bytes; mean 3.5.
        assert_eq!(first.buckets, [(3, 1), (4, 1)]);
        assert_eq!(first.mean, Some(Decimal::new(35, 1)));
        // Gone from disk, still known: the second load of the run does not read it again.
        std::fs::remove_file(&path).unwrap();
        assert_eq!(cache.measure(&path).unwrap(), first);
        assert_eq!(cache.files_measured(), 1);
        // A new run reads the disk.
        assert!(SampleCache::default().measure(&path).is_err());
    }
}
