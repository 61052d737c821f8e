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

use std::path::Path;

use crate::error::Error;
use ledger::Ledger;

/// Reads every input (a file or a delivery folder) into one ledger of `period` (or of the
/// only period the inputs hold).
///
/// # Errors
/// What the readers refuse; several currencies; several periods without one chosen; no
/// DynamoDB row.
pub(crate) fn read_all(inputs: &[String], period: Option<String>) -> Result<Ledger, Error> {
    let mut ledger = Ledger::new(period);
    for input in inputs {
        for file in read::files(Path::new(input))? {
            let name = file.display().to_string();
            ledger.files.push(name.clone());
            let mut sink = |row: row::Row| ledger.add(&row, &name);
            read::read(&file, &mut sink)?;
        }
    }
    ledger.finish()?;
    Ok(ledger)
}
