//! The SQL that reads request logs where they live (`allocate --athena-sql`): a table of one
//! JSON text column, a request a row (Athena over the JSON Lines in S3, Trino, DuckDB), summed
//! to what the local reader sums them to — read and write units and requests per table,
//! index, tenant and pattern label, and per share of a batch's or transaction's items
//! (`items` of `of_items`: units are divided once, by ddbcost, exactly). Its result, saved as
//! CSV, is a log `allocate --log` reads like the lines themselves; lines the local reader
//! would refuse (no `ConsumedCapacity`, units below zero or not numbers) are counted on a
//! row of their own, so that reading the result refuses them too.
//!
//! Two dialects, the same query: Athena and Trino (`json_extract_scalar`, `ARRAY(JSON)`,
//! `UNNEST` of a map into two columns, `element_at`), and DuckDB (`json_extract_string`,
//! `JSON[]`, `map_entries`, subscripts).

use super::log::Tenancy;
use crate::error::Error;

/// The header of the query's result, which `allocate --log` recognises.
pub(crate) const HEADER: [&str; 9] = [
    "table_name",
    "index_name",
    "tenant",
    "pattern",
    "items",
    "of_items",
    "read_units",
    "write_units",
    "requests",
];

/// Which engine runs the query.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dialect {
    /// Amazon Athena (engine 3) and Trino.
    Athena,
    /// DuckDB.
    DuckDb,
}

/// The operations whose units are read units when a level gives only `CapacityUnits`.
const READS: &str =
    "'GetItem', 'BatchGetItem', 'Query', 'Scan', 'TransactGetItems', 'ExecuteStatement'";

/// A SQL string literal.
fn quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "''"))
}

impl Dialect {
    /// A row's text as JSON.
    fn parse(self, column: &str) -> String {
        match self {
            Dialect::Athena => format!("json_parse({column})"),
            Dialect::DuckDb => format!("CAST({column} AS JSON)"),
        }
    }

    /// The scalar at `path` of `json` as text; NULL when absent (DuckDB: also for an
    /// object or a list).
    fn text(self, json: &str, path: &str) -> String {
        match self {
            Dialect::Athena => format!("json_extract_scalar({json}, '{path}')"),
            Dialect::DuckDb => format!(
                "CASE WHEN json_type({json}, '{path}') IN ('VARCHAR', 'BIGINT', 'UBIGINT', 'DOUBLE', 'HUGEINT') THEN json_extract_string({json}, '{path}') END"
            ),
        }
    }

    /// `json` as a list of JSON values: itself when a list, else a list of one.
    fn list_or_one(self, json: &str) -> String {
        match self {
            Dialect::Athena => format!(
                "CASE WHEN json_array_length({json}) IS NOT NULL THEN CAST({json} AS ARRAY(JSON)) ELSE ARRAY[{json}] END"
            ),
            Dialect::DuckDb => format!(
                "CASE WHEN json_type({json}) = 'ARRAY' THEN CAST({json} AS JSON[]) ELSE [{json}] END"
            ),
        }
    }

    /// `json` (a list) as a list of JSON values; NULL when not a list.
    fn list(self, json: &str) -> String {
        match self {
            Dialect::Athena => format!(
                "CASE WHEN json_array_length({json}) IS NOT NULL THEN CAST({json} AS ARRAY(JSON)) END"
            ),
            Dialect::DuckDb => {
                format!("CASE WHEN json_type({json}) = 'ARRAY' THEN CAST({json} AS JSON[]) END")
            }
        }
    }

    /// A `FROM` item that unnests the object `json` into rows `alias` of `(key, value)`,
    /// and the expressions of the key and the value.
    fn entries(self, json: &str, alias: &str) -> (String, String, String) {
        match self {
            Dialect::Athena => (
                format!("UNNEST(CAST({json} AS MAP(VARCHAR, JSON))) AS {alias}(k, v)"),
                format!("{alias}.k"),
                format!("{alias}.v"),
            ),
            Dialect::DuckDb => (
                format!("UNNEST(map_entries(CAST({json} AS MAP(VARCHAR, JSON)))) AS {alias}(e)"),
                format!("{alias}.e.key"),
                format!("{alias}.e.value"),
            ),
        }
    }

    /// The value of the object `json` at the (computed) key `key`; NULL when absent.
    fn at_key(self, json: &str, key: &str) -> String {
        match self {
            Dialect::Athena => format!("element_at(CAST({json} AS MAP(VARCHAR, JSON)), {key})"),
            Dialect::DuckDb => format!("CAST({json} AS MAP(VARCHAR, JSON))[{key}]"),
        }
    }

    /// The number at `field` of the level `json`, as an exact decimal; NULL when absent or
    /// not a number.
    fn units(self, json: &str, field: &str) -> String {
        let text = match self {
            Dialect::Athena => format!("json_extract_scalar({json}, '$.{field}')"),
            Dialect::DuckDb => format!("json_extract_string({json}, '$.{field}')"),
        };
        format!("TRY_CAST({text} AS DECIMAL(38, 12))")
    }
}

/// The query.
pub(crate) struct Query<'a> {
    /// The table of request lines.
    pub(crate) table: &'a str,
    /// Its column of JSON text.
    pub(crate) column: &'a str,
    /// How a key names its tenant; `None`: no tenant (a split by pattern label).
    pub(crate) tenancy: Option<&'a Tenancy>,
    pub(crate) dialect: Dialect,
}

/// A name SQL and a JSON path take as they are.
fn plain(s: &str) -> bool {
    !s.is_empty()
        && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
        && !s.starts_with(|c: char| c.is_ascii_digit())
}

/// The tenant a key value (`json`: `"ORG#1"`, `{"S": "ORG#1"}`, a number) names.
fn tenant_of_value(q: &Query<'_>, json: &str) -> String {
    let Some(t) = q.tenancy else {
        return "CAST(NULL AS VARCHAR)".to_string();
    };
    let d = q.dialect;
    let text = format!(
        "COALESCE({}, {}, {})",
        d.text(json, "$.S"),
        d.text(json, "$.N"),
        d.text(json, "$")
    );
    let group = usize::from(t.pattern.captures_len() > 1);
    format!(
        "NULLIF(regexp_extract({text}, {}, {group}), '')",
        quote(t.pattern.as_str())
    )
}

/// The tenant of the item or key `json` (its tenancy attribute).
fn tenant_of_key(q: &Query<'_>, json: &str) -> String {
    let attribute = q.tenancy.map_or("_", |t| t.attribute.as_str());
    tenant_of_value(q, &format!("json_extract({json}, '$.{attribute}')"))
}

impl Query<'_> {
    /// The SQL text.
    ///
    /// # Errors
    /// A table, column or key attribute that is not a plain name.
    pub(crate) fn sql(&self) -> Result<String, Error> {
        for (what, name) in [
            ("--athena-table", Some(self.table)),
            ("--athena-column", Some(self.column)),
            (
                "the tenant's key attribute",
                self.tenancy.map(|t| t.attribute.as_str()),
            ),
        ] {
            if let Some(name) = name.filter(|n| !plain(n)) {
                return Err(Error::usage(format!(
                    "{what} `{name}`: the SQL takes names of letters, digits and `_` only"
                ))
                .help("Consider a view or a column alias with such a name."));
            }
        }
        let d = self.dialect;
        let (eav_from, _, eav_value) =
            d.entries("json_extract(r, '$.ExpressionAttributeValues')", "g");
        let tenant = format!(
            "COALESCE({}, {}, (SELECT min({}) FROM {eav_from}))",
            tenant_of_key(self, "json_extract(r, '$.Key')"),
            tenant_of_key(self, "json_extract(r, '$.Item')"),
            tenant_of_value(self, &eav_value),
        );
        let (gsi_from, gsi_key, gsi_value) =
            d.entries("json_extract(c, '$.GlobalSecondaryIndexes')", "x");
        let (lsi_from, lsi_key, lsi_value) =
            d.entries("json_extract(c, '$.LocalSecondaryIndexes')", "y");
        let level = |field: &str, reading: bool| {
            let own = d.units("v", field);
            let whole = d.units("v", "CapacityUnits");
            let when = if reading { "reading" } else { "NOT reading" };
            format!(
                "CASE WHEN json_extract(v, '$.ReadCapacityUnits') IS NOT NULL OR json_extract(v, '$.WriteCapacityUnits') IS NOT NULL\n           THEN CASE WHEN json_extract(v, '$.{field}') IS NULL THEN 0 ELSE {own} END\n         WHEN {when} THEN CASE WHEN json_extract(v, '$.CapacityUnits') IS NULL THEN 0 ELSE {whole} END\n         ELSE 0 END"
            )
        };
        let batch = d.at_key("json_extract(r, '$.RequestItems')", "table_name");
        let batch_keys = format!(
            "COALESCE({}, {})",
            d.list(&batch),
            d.list(&format!("json_extract({batch}, '$.Keys')"))
        );
        let transact_inner = "COALESCE(json_extract(i, '$.Put'), json_extract(i, '$.Update'), json_extract(i, '$.Delete'), json_extract(i, '$.ConditionCheck'), json_extract(i, '$.Get'))";
        let items = format!(
            "SELECT {} AS item_tenant FROM UNNEST({batch_keys}) AS b(i)\n      UNION ALL\n      SELECT {} AS item_tenant FROM UNNEST({}) AS t(i)\n      WHERE {} = table_name",
            tenant_of_key(
                self,
                "COALESCE(json_extract(i, '$.PutRequest.Item'), json_extract(i, '$.DeleteRequest.Key'), i)"
            ),
            tenant_of_key(
                self,
                &format!(
                    "COALESCE(json_extract({transact_inner}, '$.Item'), json_extract({transact_inner}, '$.Key'))"
                )
            ),
            d.list("json_extract(r, '$.TransactItems')"),
            d.text(transact_inner, "$.TableName"),
        );
        let header = HEADER.join(", ");
        Ok(format!(
            "-- ddbcost: consumed capacity per table, index, tenant and pattern label, from request logs\n\
             -- with `ConsumedCapacity` (one JSON text a row, in column `{column}` of `{table}`).\n\
             -- Run it where the logs are ({engine}) and save the result as CSV: `ddbcost allocate --log RESULT.csv`\n\
             -- reads it as it reads the lines. Columns: {header}.\n\
             WITH lines AS (\n  SELECT {parsed} AS r FROM {table} WHERE trim({column}) <> ''\n),\n\
             requests AS (\n  SELECT\n    r,\n    COALESCE({operation} IN ({READS}), false) AS reading,\n    NULLIF({pattern}, '') AS pattern,\n    {tenant} AS tenant\n  FROM lines\n),\n\
             entries AS (\n  SELECT q.r, q.reading, q.pattern, q.tenant, c, {table_name} AS table_name\n  FROM requests q CROSS JOIN UNNEST({cc}) AS u(c)\n),\n\
             levels AS (\n  SELECT e.*, CAST(NULL AS VARCHAR) AS index_name, COALESCE(json_extract(c, '$.Table'), c) AS v FROM entries e\n  UNION ALL\n  SELECT e.*, {gsi_key}, {gsi_value} FROM entries e CROSS JOIN {gsi_from}\n  UNION ALL\n  SELECT e.*, {lsi_key}, {lsi_value} FROM entries e CROSS JOIN {lsi_from}\n),\n\
             units AS (\n  SELECT table_name, index_name, pattern, tenant, r,\n    {read} AS read_units,\n    {write} AS write_units\n  FROM levels\n),\n\
             shares AS (\n  SELECT u.*, s.item_tenant, s.items, s.of_items\n  FROM units u LEFT JOIN LATERAL (\n    SELECT item_tenant, count(*) AS items, sum(count(*)) OVER () AS of_items FROM (\n      {items}\n    ) GROUP BY item_tenant\n  ) s ON true\n)\n\
             SELECT\n  table_name,\n  index_name,\n  CASE WHEN items IS NULL THEN tenant ELSE item_tenant END AS tenant,\n  pattern,\n  COALESCE(items, 1) AS items,\n  COALESCE(of_items, 1) AS of_items,\n  sum(read_units) AS read_units,\n  sum(write_units) AS write_units,\n  count(*) AS requests\n\
             FROM shares\nWHERE table_name IS NOT NULL AND read_units >= 0 AND write_units >= 0\n\
             GROUP BY 1, 2, 3, 4, 5, 6\n\
             UNION ALL\n\
             -- Lines the local reader refuses: counted, so that reading the result refuses them.\n\
             SELECT NULL, NULL, NULL, 'refused', 1, 1, 0, 0, count(*)\nFROM units\nWHERE table_name IS NULL OR read_units IS NULL OR write_units IS NULL OR read_units < 0 OR write_units < 0\n\
             HAVING count(*) > 0\n\
             ORDER BY 1, 2, 3, 4, 5, 6\n",
            column = self.column,
            table = self.table,
            engine = match d {
                Dialect::Athena => "Athena or Trino",
                Dialect::DuckDb => "DuckDB",
            },
            parsed = d.parse(self.column),
            operation = d.text("r", "$.operation"),
            pattern = d.text("r", "$.pattern"),
            table_name = d.text("c", "$.TableName"),
            cc = d.list_or_one("json_extract(r, '$.ConsumedCapacity')"),
            read = level("ReadCapacityUnits", true),
            write = level("WriteCapacityUnits", false),
        ))
    }
}
