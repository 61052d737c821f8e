//! ddbcost: a DynamoDB cost estimator. The library holds the whole tool so that the binary,
//! the integration tests and the benchmarks share one code path; `main.rs` only parses the
//! command line and reports errors.
//!
//! Data flows one way: `load` (files → validated `model`) → `engine` (pure pricing → `Estimate`)
//! → `report` (rendering, the only place where money is rounded) → `output` (atomic writes).
//! A run goes in through `commands` (the command line: `commands::config` resolves the run,
//! `commands::pricing` prices, one file per command); a library caller goes in through
//! `api`, the small documented facade over the same path.

// A user's number must never end in a panic or a wrapped value: every arithmetic operator
// in the library is checked (or states why it cannot overflow).
#![deny(clippy::arithmetic_side_effects)]

pub mod advise;
pub mod api;
pub mod cli;
pub mod commands;
pub mod engine;
pub mod error;
pub mod iac;
pub mod keys;
pub mod load;
pub mod model;
pub mod output;
pub mod pricelist;
pub mod report;
pub mod scenario;
pub mod size;
