//! ddbcost: a DynamoDB cost estimator. The library holds the whole tool so that the binary,
//! the integration tests, the benchmarks and the fuzz targets share one code path; `main.rs`
//! only calls `api::run`.
//!
//! Data flows one way: `load` (files → validated `model`) → `engine` (pure pricing → `Estimate`,
//! its lines and warnings as structured values) → `report` (the words and the rendering, the
//! only place where a figure is rounded) → `output` (atomic writes). A run goes in through
//! `commands` (the command line: `commands::config` resolves the run, `commands::pricing`
//! prices, one file per command). Everything is `pub(crate)` except `api`, the small
//! documented facade every caller outside the crate uses (the `unreachable_pub` lint keeps it
//! so).

// A user's number must never end in a panic or a wrapped value: every arithmetic operator
// in the library is checked (or states why it cannot overflow).
#![deny(clippy::arithmetic_side_effects)]
// The WebAssembly build leaves out the commands that read a machine's files
// (`commands::files`): what only they use is dead code there.
#![cfg_attr(target_arch = "wasm32", allow(dead_code, unused_imports))]

mod advise;
mod allocate;
mod anomalies;
pub mod api;
mod bill;
mod bounded;
mod cli;
mod cloudwatch;
mod commands;
mod confine;
mod engine;
mod error;
mod iac;
mod json_scan;
mod keys;
mod load;
#[cfg(not(target_arch = "wasm32"))]
mod mcp;
mod model;
mod output;
mod pricelist;
mod report;
mod scenario;
mod size;
mod streams;
mod text;
