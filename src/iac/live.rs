//! Live tables from the AWS CLI's JSON (`ddbcost import` of what `aws dynamodb
//! describe-table` and its neighbours wrote): the key, attributes, billing mode and
//! throughput, on-demand maxima, GSIs and LSIs with projections, stream, replicas, class,
//! and the measured sizes (`TableSizeBytes`, `IndexSizeBytes`, `ItemCount`, as of the file's
//! date); PITR from `describe-continuous-backups`, TTL from `describe-time-to-live`, Kinesis
//! from `describe-kinesis-streaming-destination`, retained backups from `list-backups`, and
//! auto scaling from Application Auto Scaling's `describe-scalable-targets` and
//! `describe-scaling-policies`, and resource tags from `list-tags-of-resource`. What no file
//! describes is said in a note (PITR, TTL, Kinesis
//! not described), never taken as off.
//!
//! A file whose output names no table (continuous backups, time to live) belongs to the one
//! table read, or to the table whose name starts its file name (`orders.pitr.json`).

use serde_json::Value;

use super::{Billing, Dim, Imported, IndexDef, Note, Projection, TableDef};
use crate::error::Error;

/// What a live table's files measured and described, beside its structure.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Live {
    /// The date the describe-table file was written (its modification time, UTC).
    pub(crate) as_of: Option<String>,
    pub(crate) table_bytes: Option<u64>,
    pub(crate) items: Option<u64>,
    /// Per index (by name): its size in bytes and item count.
    pub(crate) indexes: Vec<(String, Option<u64>, Option<u64>)>,
    /// `None`: no `describe-continuous-backups` was given.
    pub(crate) pitr: Option<bool>,
    /// Whether a `describe-time-to-live` was given.
    pub(crate) ttl_described: bool,
    /// Whether a `describe-kinesis-streaming-destination` was given.
    pub(crate) kinesis_described: bool,
    /// From `list-backups`: the on-demand backups kept, and their bytes.
    pub(crate) backups: Option<(u64, u64)>,
    /// Warm throughput (reads, writes a second), stated but not priced.
    pub(crate) warm: Option<(u64, u64)>,
}

/// Which CLI output a JSON document is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Table,
    ContinuousBackups,
    TimeToLive,
    Kinesis,
    Backups,
    ScalableTargets,
    ScalingPolicies,
    /// `list-tags-of-resource`: `{"Tags": [{"Key", "Value"}]}`.
    Tags,
}

fn kind(doc: &Value) -> Option<Kind> {
    let o = doc.as_object()?;
    let has = |k: &str| o.contains_key(k);
    Some(if o.get("Table").is_some_and(Value::is_object) {
        Kind::Table
    } else if has("ContinuousBackupsDescription") {
        Kind::ContinuousBackups
    } else if has("TimeToLiveDescription") {
        Kind::TimeToLive
    } else if has("KinesisDataStreamDestinations") {
        Kind::Kinesis
    } else if has("BackupSummaries") {
        Kind::Backups
    } else if has("ScalableTargets") {
        Kind::ScalableTargets
    } else if has("ScalingPolicies") {
        Kind::ScalingPolicies
    } else if o.get("Tags").is_some_and(Value::is_array) && o.len() <= 2 {
        Kind::Tags
    } else {
        return None;
    })
}

/// Whether `text` is one of the AWS CLI outputs this module reads.
pub(crate) fn is_cli_output(text: &str) -> bool {
    let head = text.trim_start();
    head.starts_with('{') && serde_json::from_str::<Value>(text).is_ok_and(|d| kind(&d).is_some())
}

/// One input: its file, date and document.
pub(crate) struct Input {
    pub(crate) file: String,
    /// `YYYY-MM-DD` the file was written, where known.
    pub(crate) date: Option<String>,
    pub(crate) text: String,
}

fn bad(file: &str, path: &str, what: &str) -> Error {
    Error::input(format!("{path}: {what}"))
        .file(file)
        .help("Consider the AWS CLI's own output, unedited (`aws dynamodb describe-table --table-name T > T.json`).")
}

fn str_at<'a>(v: &'a Value, field: &str) -> Option<&'a str> {
    v.get(field).and_then(Value::as_str)
}

/// A whole, non-negative count the CLI writes as a number.
fn count(v: &Value, field: &str, file: &str, path: &str) -> Result<Option<u64>, Error> {
    match v.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) => n.as_u64().map(Some).ok_or_else(|| {
            bad(
                file,
                &format!("{path}.{field}"),
                &format!("`{n}` is not a whole, non-negative count"),
            )
        }),
        Some(other) => Err(bad(
            file,
            &format!("{path}.{field}"),
            &format!("expected a number, found {other}"),
        )),
    }
}

fn key_schema(v: &Value, file: &str, path: &str) -> Result<(String, Option<String>), Error> {
    let schema = v
        .get("KeySchema")
        .and_then(Value::as_array)
        .ok_or_else(|| bad(file, path, "no KeySchema"))?;
    let role = |r: &str| {
        schema
            .iter()
            .find(|k| str_at(k, "KeyType") == Some(r))
            .and_then(|k| str_at(k, "AttributeName"))
            .map(str::to_string)
    };
    let hash =
        role("HASH").ok_or_else(|| bad(file, &format!("{path}.KeySchema"), "no HASH key"))?;
    Ok((hash, role("RANGE")))
}

fn projection(v: &Value) -> Projection {
    let p = v.get("Projection");
    match p.and_then(|p| str_at(p, "ProjectionType")) {
        Some("KEYS_ONLY") => Projection::KeysOnly,
        Some("INCLUDE") => Projection::Include(
            p.and_then(|p| p.get("NonKeyAttributes"))
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(Value::as_str)
                        .map(str::to_string)
                        .collect()
                })
                .unwrap_or_default(),
        ),
        _ => Projection::All,
    }
}

/// Provisioned units a describe-table states (0 on an on-demand table: none).
fn units(v: &Value, field: &str, file: &str, path: &str) -> Result<Option<Dim>, Error> {
    let Some(t) = v.get("ProvisionedThroughput") else {
        return Ok(None);
    };
    Ok(
        count(t, field, file, &format!("{path}.ProvisionedThroughput"))?
            .filter(|u| *u > 0)
            .map(|u| Dim::Fixed(u.to_string())),
    )
}

/// An on-demand maximum (`-1`: none).
fn maximum(v: &Value, field: &str) -> Option<String> {
    v.get("OnDemandThroughput")
        .and_then(|t| t.get(field))
        .and_then(Value::as_i64)
        .filter(|m| *m > 0)
        .map(|m| m.to_string())
}

/// The region of a table's ARN (`arn:aws:dynamodb:REGION:…`).
fn arn_region(arn: &str) -> Option<String> {
    let parts: Vec<&str> = arn.split(':').collect();
    (parts.len() > 3 && parts[2] == "dynamodb" && !parts[3].is_empty())
        .then(|| parts[3].to_string())
}

fn table(doc: &Value, input: &Input, out: &mut Imported) -> Result<TableDef, Error> {
    let file = input.file.as_str();
    let t = &doc["Table"];
    let name = str_at(t, "TableName").ok_or_else(|| bad(file, "Table", "no TableName"))?;
    let path = format!("Table({name})");
    match str_at(t, "TableStatus") {
        Some("DELETING") => {
            return Err(Error::input(format!(
                "table `{name}` is being deleted (TableStatus DELETING)"
            ))
            .file(file)
            .help(
                "Consider leaving this file out: a table being deleted bills nothing next month.",
            ));
        }
        Some(
            s @ ("CREATING"
            | "UPDATING"
            | "ARCHIVING"
            | "ARCHIVED"
            | "INACCESSIBLE_ENCRYPTION_CREDENTIALS"),
        ) => {
            out.notes.push(note(
                file,
                &path,
                format!("TableStatus is {s}: the description may not be what bills"),
            ));
        }
        _ => {}
    }
    let mut def = TableDef::new(
        name.to_string(),
        name.to_string(),
        format!("{file} (describe-table)"),
    );
    def.key = Some(key_schema(t, file, &path)?);
    def.attributes = t
        .get("AttributeDefinitions")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|d| {
                    Some((
                        str_at(d, "AttributeName")?.to_string(),
                        str_at(d, "AttributeType")?.to_string(),
                    ))
                })
                .collect()
        })
        .unwrap_or_default();
    def.region = str_at(t, "TableArn").and_then(arn_region);
    def.standard_ia = t
        .get("TableClassSummary")
        .and_then(|c| str_at(c, "TableClass"))
        == Some("STANDARD_INFREQUENT_ACCESS");
    // A table always provisioned has no BillingModeSummary.
    let on_demand = t
        .get("BillingModeSummary")
        .and_then(|b| str_at(b, "BillingMode"))
        == Some("PAY_PER_REQUEST");
    def.billing = if on_demand {
        Billing::OnDemand {
            max_read: maximum(t, "MaxReadRequestUnits"),
            max_write: maximum(t, "MaxWriteRequestUnits"),
        }
    } else {
        Billing::Provisioned {
            read: units(t, "ReadCapacityUnits", file, &path)?,
            write: units(t, "WriteCapacityUnits", file, &path)?,
        }
    };
    let mut live = Live {
        as_of: input.date.clone(),
        table_bytes: count(t, "TableSizeBytes", file, &path)?,
        items: count(t, "ItemCount", file, &path)?,
        ..Live::default()
    };
    indexes(t, (file, &path), on_demand, (&mut def, &mut live), out)?;
    if let Some(s) = t.get("StreamSpecification")
        && s.get("StreamEnabled").and_then(Value::as_bool) == Some(true)
    {
        def.stream_view = str_at(s, "StreamViewType")
            .and_then(super::stream_view)
            .map(str::to_string);
    }
    let home = def.region.clone();
    def.replicas = t
        .get("Replicas")
        .and_then(Value::as_array)
        .map(|rs| {
            rs.iter()
                .filter(|r| str_at(r, "ReplicaStatus") != Some("DELETING"))
                .filter_map(|r| str_at(r, "RegionName"))
                .filter(|r| Some(*r) != home.as_deref())
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    if let Some(w) = t.get("WarmThroughput") {
        let r = count(w, "ReadUnitsPerSecond", file, &path)?.unwrap_or(0);
        let wr = count(w, "WriteUnitsPerSecond", file, &path)?.unwrap_or(0);
        live.warm = Some((r, wr));
    }
    def.live = Some(Box::new(live));
    Ok(def)
}

/// A table's GSIs and LSIs, and what each one's description measured.
fn indexes(
    t: &Value,
    (file, path): (&str, &str),
    on_demand: bool,
    (def, live): (&mut TableDef, &mut Live),
    out: &mut Imported,
) -> Result<(), Error> {
    for (field, global) in [
        ("GlobalSecondaryIndexes", true),
        ("LocalSecondaryIndexes", false),
    ] {
        for (i, ix) in t
            .get(field)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
        {
            let ipath = format!("{path}.{field}[{i}]");
            let iname = str_at(ix, "IndexName").ok_or_else(|| bad(file, &ipath, "no IndexName"))?;
            if str_at(ix, "IndexStatus") == Some("DELETING") {
                out.notes.push(note(
                    file,
                    &ipath,
                    format!("index `{iname}` is being deleted: left out"),
                ));
                continue;
            }
            def.indexes.push(IndexDef {
                name: iname.to_string(),
                global,
                key: Some(key_schema(ix, file, &ipath)?),
                projection: projection(ix),
                read: if global && !on_demand {
                    units(ix, "ReadCapacityUnits", file, &ipath)?
                } else {
                    None
                },
                write: if global && !on_demand {
                    units(ix, "WriteCapacityUnits", file, &ipath)?
                } else {
                    None
                },
            });
            live.indexes.push((
                iname.to_string(),
                count(ix, "IndexSizeBytes", file, &ipath)?,
                count(ix, "ItemCount", file, &ipath)?,
            ));
        }
    }
    Ok(())
}

fn note(file: &str, path: &str, message: String) -> Note {
    Note {
        file: file.to_string(),
        line: None,
        path: path.to_string(),
        message,
    }
}

/// The table a file that names none belongs to: the only one, or the one whose name starts
/// the file's name.
fn owner<'a>(tables: &'a mut [TableDef], file: &str) -> Result<&'a mut TableDef, Error> {
    if tables.len() == 1 {
        return Ok(&mut tables[0]);
    }
    let stem = std::path::Path::new(file)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let best = tables
        .iter()
        .enumerate()
        .filter(|(_, t)| {
            stem.strip_prefix(t.name.as_str())
                .is_some_and(|rest| rest.starts_with(['.', '-', '_']))
        })
        .max_by_key(|(_, t)| t.name.len())
        .map(|(i, _)| i);
    match best {
        Some(i) => Ok(&mut tables[i]),
        None => Err(Error::input(format!(
            "`{file}` names no table, and {} tables were read: which one does it describe?",
            tables.len()
        ))
        .file(file)
        .help("Consider naming the file after its table, as `ddbcost usage query` does: `orders.continuous-backups.json`.")),
    }
}

fn by_name<'a>(
    tables: &'a mut [TableDef],
    name: &str,
    file: &str,
    path: &str,
) -> Result<&'a mut TableDef, Error> {
    tables
        .iter_mut()
        .find(|t| t.name == name)
        .ok_or_else(|| {
            Error::input(format!("{path}: table `{name}` is not described by any describe-table given"))
                .file(file)
                .help("Consider adding its `aws dynamodb describe-table --table-name T` output, or leaving this file out.")
        })
}

/// What no file described, said for each live table.
fn undescribed(tables: &[TableDef], out: &mut Imported) {
    for t in tables {
        let Some(l) = &t.live else { continue };
        let origin = t.origin.clone();
        let mut said = |m: &str| out.notes.push(note(&origin, &t.name, m.to_string()));
        if l.pitr.is_none() {
            said(
                "PITR not described (no `aws dynamodb describe-continuous-backups` output): priced as off",
            );
        }
        if !l.ttl_described {
            said(
                "TTL not described (no `aws dynamodb describe-time-to-live` output): no TTL is assumed",
            );
        }
        if !l.kinesis_described {
            said(
                "Kinesis streaming not described (no `aws dynamodb describe-kinesis-streaming-destination` output): none is assumed",
            );
        }
        if l.backups.is_none() {
            said(
                "backups not described (no `aws dynamodb list-backups` output): none are assumed retained",
            );
        }
        if let Some((r, w)) = l.warm {
            said(&format!(
                "warm throughput {r} reads and {w} writes a second: stated, not priced (raising it is a one-time charge)"
            ));
        }
    }
}

/// Auto scaling read from Application Auto Scaling's outputs: targets (resource, dimension,
/// min, max) and target-tracking values (resource, dimension, target).
#[derive(Default)]
struct Scaling {
    targets: Vec<(String, String, String, String)>,
    policies: Vec<(String, String, String)>,
}

/// `list-backups`: each table's available on-demand backups, counted with their bytes.
fn backups(
    doc: &Value,
    file: &str,
    tables: &mut [TableDef],
    out: &mut Imported,
) -> Result<(), Error> {
    for (i, b) in doc["BackupSummaries"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
    {
        let path = format!("BackupSummaries[{i}]");
        let Some(name) = str_at(b, "TableName") else {
            continue;
        };
        if str_at(b, "BackupStatus").is_some_and(|s| s != "AVAILABLE") {
            continue;
        }
        let bytes = count(b, "BackupSizeBytes", file, &path)?.unwrap_or(0);
        let Some(t) = tables.iter_mut().find(|t| t.name == name) else {
            out.notes.push(note(
                file,
                &path,
                format!("a backup of table `{name}`, which no describe-table gives: left out"),
            ));
            continue;
        };
        if let Some(l) = t.live.as_mut() {
            let (n, total) = l.backups.unwrap_or((0, 0));
            l.backups = Some((n.saturating_add(1), total.saturating_add(bytes)));
        }
    }
    Ok(())
}

/// `describe-scalable-targets`: each DynamoDB target's bounds.
fn scalable_targets(doc: &Value, file: &str, scaling: &mut Scaling) -> Result<(), Error> {
    for (i, s) in doc["ScalableTargets"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
    {
        let path = format!("ScalableTargets[{i}]");
        if str_at(s, "ServiceNamespace").is_some_and(|n| n != "dynamodb") {
            continue;
        }
        let (Some(id), Some(dim)) = (str_at(s, "ResourceId"), str_at(s, "ScalableDimension"))
        else {
            return Err(bad(file, &path, "no ResourceId or ScalableDimension"));
        };
        let min = count(s, "MinCapacity", file, &path)?
            .ok_or_else(|| bad(file, &path, "no MinCapacity"))?;
        let max = count(s, "MaxCapacity", file, &path)?
            .ok_or_else(|| bad(file, &path, "no MaxCapacity"))?;
        scaling.targets.push((
            id.to_string(),
            dim.to_string(),
            min.to_string(),
            max.to_string(),
        ));
    }
    Ok(())
}

/// What one companion output adds to the tables read.
fn complete(
    kind: Kind,
    doc: &Value,
    file: &str,
    tables: &mut [TableDef],
    scaling: &mut Scaling,
    out: &mut Imported,
) -> Result<(), Error> {
    match kind {
        Kind::Table => {}
        Kind::ContinuousBackups => {
            let status = doc["ContinuousBackupsDescription"]
                .get("PointInTimeRecoveryDescription")
                .and_then(|p| str_at(p, "PointInTimeRecoveryStatus"));
            let t = owner(tables, file)?;
            let on = status == Some("ENABLED");
            t.pitr = on;
            if let Some(l) = t.live.as_mut() {
                l.pitr = Some(on);
            }
        }
        Kind::TimeToLive => {
            let d = &doc["TimeToLiveDescription"];
            let t = owner(tables, file)?;
            if matches!(str_at(d, "TimeToLiveStatus"), Some("ENABLED" | "ENABLING")) {
                t.ttl_attribute = str_at(d, "AttributeName").map(str::to_string);
            }
            if let Some(l) = t.live.as_mut() {
                l.ttl_described = true;
            }
        }
        Kind::Kinesis => {
            let name = str_at(doc, "TableName");
            let active = doc["KinesisDataStreamDestinations"]
                .as_array()
                .is_some_and(|d| {
                    d.iter().any(|d| {
                        matches!(
                            str_at(d, "DestinationStatus"),
                            Some("ACTIVE" | "ENABLING" | "UPDATING")
                        )
                    })
                });
            let t = match name {
                Some(n) => by_name(tables, n, file, "TableName")?,
                None => owner(tables, file)?,
            };
            t.kinesis = active;
            if let Some(l) = t.live.as_mut() {
                l.kinesis_described = true;
            }
        }
        Kind::Backups => backups(doc, file, tables, out)?,
        Kind::Tags => {
            let t = owner(tables, file)?;
            for (i, tag) in doc["Tags"].as_array().into_iter().flatten().enumerate() {
                match (str_at(tag, "Key"), str_at(tag, "Value")) {
                    (Some(k), Some(v)) => t.tags.push((k.to_string(), v.to_string())),
                    _ => return Err(bad(file, &format!("Tags[{i}]"), "no Key or Value")),
                }
            }
        }
        Kind::ScalableTargets => scalable_targets(doc, file, scaling)?,
        Kind::ScalingPolicies => {
            for s in doc["ScalingPolicies"].as_array().into_iter().flatten() {
                if str_at(s, "PolicyType") != Some("TargetTrackingScaling") {
                    continue;
                }
                let (Some(id), Some(dim)) =
                    (str_at(s, "ResourceId"), str_at(s, "ScalableDimension"))
                else {
                    continue;
                };
                // The number's own text, read exactly (never through a float).
                let Some(target) = s
                    .get("TargetTrackingScalingPolicyConfiguration")
                    .and_then(|c| c.get("TargetValue"))
                    .and_then(Value::as_number)
                    .map(ToString::to_string)
                    .filter(|t| {
                        t.parse::<rust_decimal::Decimal>()
                            .is_ok_and(|d| d > rust_decimal::Decimal::ZERO)
                    })
                else {
                    continue;
                };
                scaling
                    .policies
                    .push((id.to_string(), dim.to_string(), target));
            }
        }
    }
    Ok(())
}

/// Reads every CLI output in `inputs` (describe-table first, then what completes it) into
/// `out`.
///
/// # Errors
/// A file that is not one of these outputs, a table being deleted, a companion that names a
/// table no describe-table gives, or one whose table cannot be told.
pub(crate) fn import(inputs: &[Input], out: &mut Imported) -> Result<(), Error> {
    let mut docs = Vec::with_capacity(inputs.len());
    for input in inputs {
        let doc: Value = serde_json::from_str(&input.text)
            .map_err(|e| bad(&input.file, "(document)", &format!("not JSON ({e})")))?;
        let k = kind(&doc).ok_or_else(|| {
            Error::input("not an AWS CLI output ddbcost reads")
                .file(&input.file)
                .help("Consider the output of `aws dynamodb describe-table`, `describe-continuous-backups`, `describe-time-to-live`, `describe-kinesis-streaming-destination`, `list-backups`, or `aws application-autoscaling describe-scalable-targets` / `describe-scaling-policies`.")
        })?;
        docs.push((k, doc, input));
    }
    let mut tables = Vec::new();
    for (_, doc, input) in docs.iter().filter(|(k, ..)| *k == Kind::Table) {
        let t = table(doc, input, out)?;
        if tables.iter().any(|o: &TableDef| o.name == t.name) {
            return Err(
                Error::input(format!("table `{}` is described twice", t.name))
                    .file(&input.file)
                    .help("Consider one describe-table per table."),
            );
        }
        tables.push(t);
    }
    if tables.is_empty() {
        return Err(Error::input("no describe-table among the AWS CLI outputs given")
            .file(inputs.first().map_or("", |i| i.file.as_str()))
            .help("Consider `aws dynamodb describe-table --table-name T > T.json` for each table."));
    }
    let mut scaling = Scaling::default();
    for (k, doc, input) in &docs {
        complete(*k, doc, &input.file, &mut tables, &mut scaling, out)?;
    }
    let Scaling { targets, policies } = scaling;
    for (id, dim, min, max) in &targets {
        let target = policies
            .iter()
            .find(|(pid, pdim, _)| pid == id && pdim == dim)
            .map(|(.., t)| t.clone());
        if let Err(why) = super::attach_scaling(&mut tables, id, dim, (min, max), target) {
            out.notes.push(note("describe-scalable-targets", id, why));
        }
    }
    undescribed(&tables, out);
    out.tables.extend(tables);
    Ok(())
}
