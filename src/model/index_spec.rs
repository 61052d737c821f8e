//! An index as the item readers measure it: its name, key attributes and projection, and
//! the command-line text that states one (`--index NAME:KEYS:PROJECTION`, `--gsi`, `--lsi`),
//! or the spec a workload's table gives for each of its indexes. Parsed here once for
//! `size`, `keys` and `init`.

use std::fmt;

use super::{IndexKind, Projection, Table};

/// An index to measure: its key attributes and projection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexSpec {
    pub name: String,
    pub keys: Vec<String>,
    pub projection: IndexProjection,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IndexProjection {
    KeysOnly,
    Include(Vec<String>),
    All,
}

/// Why a spec was refused: what the user wrote wrong, and what to write instead.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecError {
    pub message: String,
    pub help: &'static str,
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for SpecError {}

const INDEX_HELP: &str = "Consider `--index gsi1:GSI1PK,GSI1SK:keys-only` (or `:all`, or `:include=title,status`), with `--key PK,SK` for the table's keys.";

impl IndexSpec {
    /// `NAME:KEY[,KEY]:keys-only|all|include=ATTR[,ATTR]`; `table_keys` are the table's
    /// key attributes, which a KEYS_ONLY or INCLUDE entry holds.
    ///
    /// # Errors
    /// A malformed spec, or a projection that needs the table's keys when none are given.
    pub fn parse(text: &str, table_keys: &[String]) -> Result<IndexSpec, SpecError> {
        let refuse = |why: &str| SpecError {
            message: format!("--index `{text}`: {why}"),
            help: INDEX_HELP,
        };
        let parts: Vec<&str> = text.splitn(3, ':').collect();
        let [name, keys, projection] = parts[..] else {
            return Err(refuse("expected NAME:KEYS:PROJECTION"));
        };
        let keys: Vec<String> = list(keys);
        if name.trim().is_empty() || keys.is_empty() {
            return Err(refuse(
                "the index needs a name and at least one key attribute",
            ));
        }
        let projection = match projection.trim() {
            "keys-only" => IndexProjection::KeysOnly,
            "all" => IndexProjection::All,
            p => match p.strip_prefix("include=") {
                Some(attributes) => IndexProjection::Include(list(attributes)),
                None => return Err(refuse(&format!("unknown projection `{p}`"))),
            },
        };
        if projection != IndexProjection::All && table_keys.is_empty() {
            return Err(refuse(
                "a KEYS_ONLY or INCLUDE entry holds the table's keys: give them with --key",
            ));
        }
        Ok(IndexSpec {
            name: name.trim().to_string(),
            keys,
            projection,
        })
    }

    /// `NAME:PK[,SK][:PROJECTION]`, the projection defaulting to `default`.
    ///
    /// # Errors
    /// As `parse`.
    pub fn parse_global(
        text: &str,
        table_keys: &[String],
        default: &str,
    ) -> Result<IndexSpec, SpecError> {
        let full = if text.matches(':').count() == 1 {
            format!("{text}:{default}")
        } else {
            text.to_string()
        };
        IndexSpec::parse(&full, table_keys)
    }

    /// `NAME:SK[:PROJECTION]`: a local secondary index on the table's partition key `key`,
    /// the projection defaulting to `all`.
    ///
    /// # Errors
    /// No sort key, or several; else as `parse`.
    pub fn parse_local(
        text: &str,
        key: &str,
        table_keys: &[String],
    ) -> Result<IndexSpec, SpecError> {
        let (name, rest) = text.split_once(':').unwrap_or((text, ""));
        let (sort, projection) = rest.split_once(':').unwrap_or((rest, "all"));
        if sort.trim().is_empty() || sort.contains(',') {
            return Err(SpecError {
                message: format!("--lsi `{text}`: expected NAME:SORT_KEY[:PROJECTION]"),
                help: "Consider `--lsi by-date:created_at` (an LSI shares the table's partition key).",
            });
        }
        IndexSpec::parse(&format!("{name}:{key},{sort}:{projection}"), table_keys)
    }

    /// The key attributes of `table` (of workload `file`) and one spec per index, in the
    /// table's order (an LSI's keys are the table's partition key and its own sort key).
    ///
    /// # Errors
    /// A table or index that states no key; an INCLUDE projection that names no attribute.
    pub fn of_table(table: &Table, file: &str) -> Result<(Vec<String>, Vec<IndexSpec>), SpecError> {
        let Some(key) = &table.key else {
            return Err(SpecError {
                message: format!("table `{}` of `{file}` states no `key`", table.name),
                help: "Consider `key: { partition: pk, sort: sk }` on the table (`ddbcost import` writes it), or `--key`/`--index`.",
            });
        };
        let table_keys: Vec<String> = std::iter::once(key.partition.clone())
            .chain(key.sort.clone())
            .collect();
        let mut specs = Vec::new();
        for i in &table.indexes {
            let Some(k) = &i.key else {
                return Err(SpecError {
                    message: format!(
                        "index `{}` of table `{}` states no `key`",
                        i.name, table.name
                    ),
                    help: "Consider `key: { partition: ATTR, sort: ATTR }` on the index.",
                });
            };
            let keys: Vec<String> = std::iter::once(k.partition.clone())
                .chain(k.sort.clone())
                .collect();
            let keys = if i.kind == IndexKind::Local && keys.len() == 1 {
                // An LSI written with its sort key only shares the table's partition key.
                std::iter::once(key.partition.clone()).chain(keys).collect()
            } else {
                keys
            };
            let projection = match i.projection {
                Projection::All => IndexProjection::All,
                Projection::KeysOnly => IndexProjection::KeysOnly,
                Projection::Include { .. } if i.include.is_empty() => {
                    return Err(SpecError {
                        message: format!(
                            "index `{}` projects INCLUDE attributes the workload does not name",
                            i.name
                        ),
                        help: "Consider `include: [attr, …]` on the index.",
                    });
                }
                Projection::Include { .. } => IndexProjection::Include(i.include.clone()),
            };
            specs.push(IndexSpec {
                name: i.name.to_string(),
                keys,
                projection,
            });
        }
        Ok((table_keys, specs))
    }
}

/// The non-empty, trimmed items of a comma-separated list.
fn list(text: &str) -> Vec<String> {
    text.split(',')
        .map(str::trim)
        .filter(|a| !a.is_empty())
        .map(str::to_string)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_three_forms_parse_to_one_spec() {
        let keys = vec!["PK".to_string(), "SK".to_string()];
        let full = IndexSpec::parse("g:G1,G2:include=a, b", &keys).unwrap();
        assert_eq!(full.keys, ["G1", "G2"]);
        assert_eq!(
            full.projection,
            IndexProjection::Include(vec!["a".into(), "b".into()])
        );
        let global = IndexSpec::parse_global("g:G1", &keys, "keys-only").unwrap();
        assert_eq!(global.projection, IndexProjection::KeysOnly);
        let local = IndexSpec::parse_local("l:date", "PK", &keys).unwrap();
        assert_eq!(local.keys, ["PK", "date"]);
        assert_eq!(local.projection, IndexProjection::All);
        assert!(IndexSpec::parse("g:G1:keys-only", &[]).is_err());
        assert!(IndexSpec::parse_local("l:a,b", "PK", &keys).is_err());
    }
}
