//! The SQL that aggregates a CUR 2.0 table where it lives (Athena, Trino, Spark SQL, DuckDB)
//! to the hourly DynamoDB rows `bill` and `reconcile` read: one row per billing period, line
//! item type, hour, usage type, operation, resource and currency, its amounts and costs
//! summed as DECIMAL (never as floating point), under the CUR 2.0 column names, so the CSV the
//! query returns is an input like the export itself.

use super::columns::{Dialect, Field, column};

/// The columns grouped by, as they are.
const KEYS: [Field; 7] = [
    Field::Period,
    Field::Kind,
    Field::Product,
    Field::UsageType,
    Field::Operation,
    Field::Resource,
    Field::Currency,
];

/// The columns summed.
const SUMS: [Field; 9] = [
    Field::Amount,
    Field::Unblended,
    Field::List,
    Field::ReservationEffective,
    Field::ReservationUnusedUpfront,
    Field::ReservationUnusedRecurring,
    Field::PlanEffective,
    Field::PlanCommitment,
    Field::PlanUsed,
];

fn name(f: Field) -> &'static str {
    column(Dialect::Cur2, f).unwrap_or("?")
}

/// The query over `table` for billing period `period` (`YYYY-MM`).
#[must_use]
pub(crate) fn athena(table: &str, period: &str) -> String {
    let mut select: Vec<String> = KEYS.iter().map(|f| format!("  {}", name(*f))).collect();
    select.push(format!(
        "  date_trunc('hour', {start}) AS {start}",
        start = name(Field::Start)
    ));
    select.push(format!("  max({end}) AS {end}", end = name(Field::End)));
    for f in SUMS {
        select.push(format!(
            "  sum(CAST({c} AS DECIMAL(38, 12))) AS {c}",
            c = name(f)
        ));
    }
    let group: Vec<String> = KEYS
        .iter()
        .map(|f| name(*f).to_string())
        .chain(std::iter::once(format!(
            "date_trunc('hour', {})",
            name(Field::Start)
        )))
        .collect();
    format!(
        "-- ddbcost: the hourly DynamoDB rows of billing period {period}, for `ddbcost bill` and `ddbcost reconcile --bill`.\n\
         -- Run it in Athena (or Trino, Spark SQL, DuckDB) and save the result as CSV.\n\
         SELECT\n{}\nFROM {table}\nWHERE {} = 'AmazonDynamoDB'\n  AND {} = TIMESTAMP '{period}-01 00:00:00'\nGROUP BY {}\nORDER BY {}\n",
        select.join(",\n"),
        name(Field::Product),
        name(Field::Period),
        group.join(", "),
        group.join(", ")
    )
}
