//! The sizes of a workload's item sample (`item_size: { sample: FILE }`), and the seam
//! through which the loader gets them: the loader names the file, a `SampleReader` measures
//! it. The loader stays free of item reading; `size::SampleCache` measures each file once per
//! run (a sweep of a thousand designs reads its sample once).

use rust_decimal::Decimal;

/// What a sample file holds, as the loader needs it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct SampleSizes {
    /// The mean item size in bytes (`None`: no item).
    pub mean: Option<Decimal>,
    /// `(bytes, items)` for each size met, smallest first.
    pub buckets: Vec<(u64, u64)>,
    /// Items over DynamoDB's 400 KB limit.
    pub oversized: u64,
}

/// Measures sample files named by a workload.
pub(crate) trait SampleReader: Sync {
    /// The sizes of the items in `path`.
    ///
    /// # Errors
    /// The file cannot be read, or holds something other than items.
    fn measure(&self, path: &str) -> Result<SampleSizes, String>;
}

/// A reader for callers that measure no samples: every sample is refused with a message
/// saying how to measure it.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct NoSamples;

impl SampleReader for NoSamples {
    fn measure(&self, _path: &str) -> Result<SampleSizes, String> {
        Err("this caller measures no samples: load with `load::parse_workload_at` and a `size::samples::SampleCache`, as the command line does".to_string())
    }
}
