//! Item sizes measured from real items: the DynamoDB size rules (`rules`), a streaming sizer
//! for DynamoDB JSON, plain JSON and export-to-S3 files (`item`, `scan`), and a mergeable
//! summary (`summary`): an exact histogram of sizes, so that percentiles, unit costs and
//! boundary effects are exact and summaries of pieces add up to the summary of the whole.
//! `samples` measures the item samples workloads name, once per run, for the loader.

pub(crate) mod fast;
pub(crate) mod item;
pub(crate) mod manifest;
pub(crate) mod read;
pub(crate) mod rules;
pub(crate) mod samples;
pub(crate) mod scan;
pub(crate) mod summary;
