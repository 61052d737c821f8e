//! Imported tables as a workload document: what the template states becomes workload fields;
//! what only usage can tell (items, item sizes, key sizes, rates) is written as `TODO`, which
//! the loader records as a placeholder. The document is a JSON value (so a usage file merges
//! onto it like a scenario's patch) and is written as commented YAML by the YAML module's
//! writer (`load::yaml::write`). A live table (the AWS CLI's description) also states what
//! was measured: items, their average size, the table's and each index's size as observed
//! storage, and backups retained.

use rust_decimal::Decimal;
use serde_json::{Map, Value, json};

use super::live::Live;
use super::{Billing, Dim, Imported, Projection, TableDef};
use crate::load::PLACEHOLDER;

pub(crate) use crate::load::yaml::write::{Comments, SEP};

/// How a comment on a measured figure starts (kept when the figure is not a placeholder).
pub(crate) const MEASURED: &str = "measured: ";

/// The workload document of `imported`, named `name`, priced with `prices`, and the comments
/// that explain each placeholder.
#[must_use]
pub(crate) fn document(imported: &Imported, name: &str, prices: Option<&str>) -> (Value, Comments) {
    let mut comments = Comments::new();
    let mut tables = Map::new();
    for t in &imported.tables {
        tables.insert(t.name.clone(), table(t, &mut comments));
    }
    let mut doc = Map::new();
    doc.insert("name".into(), json!(name));
    if let Some(p) = prices {
        doc.insert("prices".into(), json!(p));
    }
    doc.insert("tables".into(), Value::Object(tables));
    (Value::Object(doc), comments)
}

fn key(k: &(String, Option<String>)) -> Value {
    let mut m = Map::new();
    m.insert("partition".into(), json!(k.0));
    if let Some(s) = &k.1 {
        m.insert("sort".into(), json!(s));
    }
    Value::Object(m)
}

/// `rcu`/`wcu` or auto scaling bounds for one dimension, into `capacity` and `auto_scaling`.
fn dimension(
    dim: Option<&Dim>,
    (unit, path): (&str, &str),
    capacity: &mut Map<String, Value>,
    scaling: &mut Map<String, Value>,
    comments: &mut Comments,
) {
    match dim {
        Some(Dim::Unresolved(why)) => {
            capacity.insert(unit.into(), json!(PLACEHOLDER));
            comments.push((format!("{path}{SEP}{unit}"), format!("not resolved: {why}")));
        }
        Some(Dim::Fixed(units)) => {
            capacity.insert(unit.into(), json!(units));
        }
        Some(Dim::Auto { min, max, target }) => {
            scaling.insert(format!("min_{unit}"), json!(min));
            scaling.insert(format!("max_{unit}"), json!(max));
            if let Some(t) = target {
                scaling.insert(format!("target_{unit}"), json!(format!("{t}%")));
            }
        }
        None => {}
    }
}

fn table(t: &TableDef, comments: &mut Comments) -> Value {
    let path = format!("tables{SEP}{}", t.name);
    let mut m = Map::new();
    comments.push((path.clone(), t.origin.clone()));
    if let Some(r) = &t.region {
        m.insert("region".into(), json!(r));
    }
    if let Some(k) = &t.key {
        m.insert("key".into(), key(k));
    }
    if !t.attributes.is_empty() {
        let attrs: Map<String, Value> = t
            .attributes
            .iter()
            .map(|(n, ty)| (n.clone(), json!(ty)))
            .collect();
        m.insert("attributes".into(), Value::Object(attrs));
    }
    if t.standard_ia {
        m.insert("class".into(), json!("standard-ia"));
    }
    let capacity = capacity(t, &path, comments);
    m.insert("capacity".into(), Value::Object(capacity));
    match t.live.as_deref() {
        Some(live) => measured(live, &path, &mut m, comments),
        None => {
            m.insert("items".into(), json!(PLACEHOLDER));
            comments.push((format!("{path}{SEP}items"), "items stored".into()));
            m.insert("item_size".into(), json!(PLACEHOLDER));
            comments.push((
                format!("{path}{SEP}item_size"),
                "average item size (`ddbcost size` measures a sample)".into(),
            ));
        }
    }
    // A live index with a measured entry size needs no key size.
    let measured_entry = |name: &str| {
        t.live.as_deref().is_some_and(|l| {
            l.indexes
                .iter()
                .any(|(n, b, c)| n == name && b.is_some() && c.is_some_and(|c| c > 0))
        })
    };
    if t.indexes
        .iter()
        .any(|i| !matches!(i.projection, Projection::All) && !measured_entry(&i.name))
    {
        m.insert("key_size".into(), json!(PLACEHOLDER));
        comments.push((
            format!("{path}{SEP}key_size"),
            "bytes of the key attributes (names + values), for KEYS_ONLY and INCLUDE entries"
                .into(),
        ));
    }
    if t.pitr {
        m.insert("pitr".into(), json!(true));
    }
    if !t.tags.is_empty() {
        let tags: serde_json::Map<String, serde_json::Value> =
            t.tags.iter().map(|(k, v)| (k.clone(), json!(v))).collect();
        m.insert("tags".into(), serde_json::Value::Object(tags));
    }
    if let Some(view) = &t.stream_view {
        m.insert("stream".into(), json!({ "view": view, "consumers": {} }));
        comments.push((
            format!("{path}{SEP}stream{SEP}consumers"),
            "who reads the stream: `{ kind: lambda }` or `{ kind: reader, records_per_call: N }`"
                .into(),
        ));
    }
    if t.kinesis {
        m.insert("kinesis_cdc".into(), json!(true));
    }
    if let Some(a) = &t.ttl_attribute {
        m.insert("ttl_attribute".into(), json!(a));
    }
    if !t.replicas.is_empty() {
        m.insert("replicas".into(), json!(t.replicas));
    }
    if let Some(source) = &t.import_from_s3 {
        m.insert("backups".into(), json!({ "import_per_month": PLACEHOLDER }));
        comments.push((
            format!("{path}{SEP}backups{SEP}import_per_month"),
            format!("created by importing from S3 ({source}): the data's size"),
        ));
    }
    if !t.indexes.is_empty() {
        let indexes = t.indexes.iter().map(|i| {
            let mut x = index(i, &path, comments);
            if let (Some(live), Value::Object(x)) = (t.live.as_deref(), &mut x) {
                measured_index(
                    live,
                    &i.name,
                    &format!("{path}{SEP}indexes{SEP}{}", i.name),
                    x,
                    comments,
                );
            }
            (i.name.clone(), x)
        });
        m.insert("indexes".into(), Value::Object(indexes.collect()));
    }
    // Not `{}`: a table with no patterns has no requests, while these are only unknown yet.
    m.insert("patterns".into(), json!(PLACEHOLDER));
    comments.push((
        format!("{path}{SEP}patterns"),
        "the access patterns (op, rate, consistency…), or `--usage`; until then requests depend on usage".into(),
    ));
    Value::Object(m)
}

/// What a live table's description measured: items and their average size (`TableSizeBytes ÷
/// ItemCount`, to 0.01 B), the table's size as observed storage, and backups retained — each
/// with the date it was read.
fn measured(live: &Live, path: &str, m: &mut Map<String, Value>, comments: &mut Comments) {
    let as_of = live
        .as_of
        .as_deref()
        .map_or_else(String::new, |d| format!(" as of {d}"));
    match (live.items, live.table_bytes) {
        (Some(items), Some(bytes)) if items > 0 => {
            m.insert("items".into(), json!(items.to_string()));
            let mean = Decimal::from(bytes)
                .checked_div(Decimal::from(items))
                .unwrap_or_default()
                .round_dp(2)
                .normalize();
            m.insert("item_size".into(), json!(format!("{mean} B")));
            comments.push((
                format!("{path}{SEP}items"),
                format!("{MEASURED}ItemCount{as_of} (DynamoDB refreshes it about every six hours)"),
            ));
            comments.push((
                format!("{path}{SEP}item_size"),
                format!("{MEASURED}TableSizeBytes {bytes} ÷ ItemCount {items}, rounded to 0.01 B"),
            ));
        }
        (items, _) => {
            m.insert(
                "items".into(),
                json!(items.map_or_else(|| PLACEHOLDER.to_string(), |n| n.to_string())),
            );
            m.insert("item_size".into(), json!(PLACEHOLDER));
            comments.push((
                format!("{path}{SEP}item_size"),
                "the table is empty or its size was not described: `ddbcost size` measures a sample".into(),
            ));
        }
    }
    if let Some(bytes) = live.table_bytes {
        m.insert(
            "observed".into(),
            json!({ "storage": format!("{bytes} B") }),
        );
        comments.push((
            format!("{path}{SEP}observed{SEP}storage"),
            format!("{MEASURED}TableSizeBytes{as_of}"),
        ));
    }
    if let Some((kept, bytes)) = live.backups {
        let mut b = Map::new();
        b.insert("retained".into(), json!(kept.to_string()));
        m.insert("backups".into(), Value::Object(b));
        comments.push((
            format!("{path}{SEP}backups{SEP}retained"),
            format!("{MEASURED}on-demand backups listed{as_of}: {bytes} B in all"),
        ));
    }
}

/// A live index's size, as observed storage.
fn measured_index(
    live: &Live,
    name: &str,
    path: &str,
    x: &mut Map<String, Value>,
    comments: &mut Comments,
) {
    let Some((_, bytes, items)) = live.indexes.iter().find(|(n, ..)| n == name) else {
        return;
    };
    let as_of = live
        .as_of
        .as_deref()
        .map_or_else(String::new, |d| format!(" as of {d}"));
    if let (Some(bytes), Some(n)) = (bytes, items)
        && *n > 0
    {
        // The average entry, measured: no key or projected size to state.
        let mean = Decimal::from(*bytes)
            .checked_div(Decimal::from(*n))
            .unwrap_or_default()
            .round_dp(2)
            .normalize();
        x.remove("key_size");
        x.remove("projected_size");
        x.insert("entry_size".into(), json!(format!("{mean} B")));
        comments.push((
            format!("{path}{SEP}entry_size"),
            format!("{MEASURED}IndexSizeBytes {bytes} ÷ ItemCount {n}, rounded to 0.01 B"),
        ));
    }
    if let Some(bytes) = bytes {
        x.insert(
            "observed".into(),
            json!({ "storage": format!("{bytes} B") }),
        );
        let items = items.map_or_else(String::new, |n| format!(", {n} items"));
        comments.push((
            format!("{path}{SEP}observed{SEP}storage"),
            format!("{MEASURED}IndexSizeBytes{items}{as_of}"),
        ));
    }
}

/// A table's `capacity`: its mode, on-demand caps, or provisioned units and auto scaling
/// (`TODO` for a dimension the template does not state).
fn capacity(t: &TableDef, path: &str, comments: &mut Comments) -> Map<String, Value> {
    let mut capacity = Map::new();
    match &t.billing {
        Billing::OnDemand {
            max_read,
            max_write,
        } => {
            capacity.insert("mode".into(), json!("on-demand"));
            if let Some(r) = max_read {
                capacity.insert("max_read_units".into(), json!(r));
            }
            if let Some(w) = max_write {
                capacity.insert("max_write_units".into(), json!(w));
            }
        }
        Billing::Provisioned { read, write } => {
            capacity.insert("mode".into(), json!("provisioned"));
            let mut scaling = Map::new();
            let cpath = format!("{path}{SEP}capacity");
            let (at, out) = (&mut capacity, &mut scaling);
            dimension(read.as_ref(), ("rcu", &cpath), at, out, comments);
            dimension(write.as_ref(), ("wcu", &cpath), at, out, comments);
            if read.is_none() {
                capacity.insert("rcu".into(), json!(PLACEHOLDER));
                comments.push((
                    format!("{path}{SEP}capacity{SEP}rcu"),
                    "the template states no read capacity".into(),
                ));
            }
            if write.is_none() {
                capacity.insert("wcu".into(), json!(PLACEHOLDER));
                comments.push((
                    format!("{path}{SEP}capacity{SEP}wcu"),
                    "the template states no write capacity".into(),
                ));
            }
            if !scaling.is_empty() {
                capacity.insert("auto_scaling".into(), Value::Object(scaling));
                comments.push((
                    format!("{path}{SEP}capacity{SEP}auto_scaling"),
                    "priced at its minimum until patterns give it traffic".into(),
                ));
            }
        }
    }
    capacity
}

/// An index: its type, key, projection (with `TODO` sizes it needs) and own capacity.
fn index(i: &super::IndexDef, path: &str, comments: &mut Comments) -> Value {
    let ipath = format!("{path}{SEP}indexes{SEP}{}", i.name);
    let mut x = Map::new();
    x.insert("type".into(), json!(if i.global { "gsi" } else { "lsi" }));
    if let Some(k) = &i.key {
        x.insert("key".into(), key(k));
    }
    match &i.projection {
        Projection::KeysOnly => {
            x.insert("projection".into(), json!("keys-only"));
        }
        Projection::All => {
            x.insert("projection".into(), json!("all"));
        }
        Projection::Include(attrs) => {
            x.insert("projection".into(), json!("include"));
            x.insert("include".into(), json!(attrs));
            x.insert("projected_size".into(), json!(PLACEHOLDER));
            comments.push((
                format!("{ipath}{SEP}projected_size"),
                "bytes of the included attributes".into(),
            ));
        }
    }
    if !matches!(i.projection, Projection::All) {
        x.insert("key_size".into(), json!(PLACEHOLDER));
        comments.push((
            format!("{ipath}{SEP}key_size"),
            "bytes of the index's key attributes".into(),
        ));
    }
    let mut capacity = Map::new();
    let mut scaling = Map::new();
    let (at, out) = (&mut capacity, &mut scaling);
    dimension(i.read.as_ref(), ("rcu", &ipath), at, out, comments);
    dimension(i.write.as_ref(), ("wcu", &ipath), at, out, comments);
    x.extend(capacity);
    if !scaling.is_empty() {
        x.insert("auto_scaling".into(), Value::Object(scaling));
    }
    Value::Object(x)
}
