//! `ddbcost schema`: prints the JSON Schema of a workload file or a price table (built by
//! `load::schema` from the loader's own types), for editors (`# yaml-language-server:
//! $schema=…`) and validators.

use crate::cli::{SchemaArgs, SchemaKind};
use crate::error::Error;
use crate::load::schema;
use crate::output;

pub(super) fn run(args: &SchemaArgs) -> Result<(), Error> {
    let value = match args.kind {
        SchemaKind::Workload => schema::workload(),
        SchemaKind::PriceTable => schema::price_table(),
    };
    let text = serde_json::to_string_pretty(&value)
        .map_err(|e| Error::input(format!("cannot write the schema: {e}")))?;
    output::emit(args.output.as_deref(), &format!("{text}\n"))
}
