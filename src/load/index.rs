//! Validating a table's secondary indexes: projection, the sizes their entries need, sparse
//! shares and key moves, and their own capacity on provisioned tables.

use rust_decimal::Decimal;

use super::context::Reader;
use super::raw::*;
use super::yaml::position;
use crate::error::Error;
use crate::model::*;

pub(super) fn index(
    rd: &Reader<'_>,
    table_path: &str,
    name: &str,
    i: &RawIndex,
    capacity: &CapacityMode,
    table_key: Option<Decimal>,
    table_item: Option<Decimal>,
) -> Result<Index, Error> {
    let path = format!("{table_path}.indexes.{name}");
    let p = |f: &str| format!("{path}.{f}");
    let kind = match i.kind {
        RawIndexKind::Gsi => IndexKind::Global,
        RawIndexKind::Lsi => IndexKind::Local,
    };
    if kind == IndexKind::Local && i.contributor_insights {
        return Err(Error::input(format!(
            "`contributor_insights` on the local index `{name}`: DynamoDB offers Contributor Insights on tables and global secondary indexes only"
        ))
        .file(rd.file)
        .path(p("contributor_insights"))
        .help("Consider `contributor_insights: true` on the table instead (its rules see the LSI's requests as the table's)."));
    }
    let entry_size_bytes = rd.item_bytes(i.entry_size.as_ref(), &p("entry_size"))?;
    let key_size_bytes = rd.item_bytes(i.key_size.as_ref(), &p("key_size"))?;
    let projected = rd.item_bytes(i.projected_size.as_ref(), &p("projected_size"))?;
    let projection = projection(rd, i, projected, entry_size_bytes, &path)?;
    // Sizes left as placeholders (`TODO`, from `ddbcost import`): the entry size is
    // unknown until they are filled, and the index's storage depends on usage.
    let placeholder_sizes = [
        p("entry_size"),
        p("key_size"),
        p("projected_size"),
        format!("{table_path}.key_size"),
        format!("{table_path}.item_size"),
    ]
    .iter()
    .any(|f| rd.is_placeholder(f));
    let sizes_known = entry_size_bytes.is_some() || !placeholder_sizes;
    if sizes_known && entry_size_bytes.is_none() {
        let needs_keys = !matches!(projection, Projection::All);
        if needs_keys && (table_key.is_none() || key_size_bytes.is_none()) {
            return Err(rd.err(&path, position(&i.projection), "the index entry size cannot be derived: it needs the table's `key_size` and the index's `key_size`", "Consider adding `key_size` to the table and to the index (bytes of the key attributes' names and values), or `entry_size` to the index."));
        }
        if !needs_keys && table_item.is_none() {
            return Err(rd.err(
                &path,
                position(&i.projection),
                "an ALL projection copies the item, but the table has no `item_size`",
                "Consider adding `item_size` to the table, or `entry_size` to the index.",
            ));
        }
    }
    let moving = rd.share(
        i.updates_moving_key.as_ref(),
        &p("updates_moving_key"),
        Decimal::ZERO,
    )?;
    let adding = rd.share(
        i.updates_adding_key.as_ref(),
        &p("updates_adding_key"),
        Decimal::ZERO,
    )?;
    let removing = rd.share(
        i.updates_removing_key.as_ref(),
        &p("updates_removing_key"),
        Decimal::ZERO,
    )?;
    // Each share is in [0, 1]: the sum is at most 3 and cannot overflow.
    if moving.saturating_add(adding).saturating_add(removing) > Decimal::ONE {
        return Err(rd.err(
            &path,
            position(&i.projection),
            "`updates_moving_key` + `updates_adding_key` + `updates_removing_key` is above 1",
            "Consider shares of all updates that add up to at most 1.",
        ));
    }
    // ALL sees every attribute change; KEYS_ONLY none; INCLUDE is assumed to (1) unless
    // the workload says how often an included attribute changes.
    let touching_default = match projection {
        Projection::KeysOnly => Decimal::ZERO,
        _ => Decimal::ONE,
    };
    let index_capacity = index_capacity(rd, i, kind, capacity, &path)?;
    let observed = match &i.observed {
        Some(o) => IndexObserved {
            read_units: rd.count(o.read_units.as_ref(), &p("observed.read_units"))?,
            write_units: rd.count(o.write_units.as_ref(), &p("observed.write_units"))?,
            storage: rd.size(o.storage.as_ref(), &p("observed.storage"))?,
            hours: super::table::observed_hours(rd, o.hours.as_ref(), &p("observed.hours"))?,
        },
        None => IndexObserved::default(),
    };
    if !i.include.is_empty() && !matches!(projection, Projection::Include { .. }) {
        return Err(rd.err(
            &p("include"),
            position(&i.include[0]),
            "`include` names the attributes of an `include` projection",
            "Consider `projection: include`, or removing `include`.",
        ));
    }
    Ok(Index {
        name: name.into(),
        sparse: i.sparse.as_ref().map(|s| crate::model::SparseRule {
            added_by: s.added_by.iter().map(|a| a.value.clone()).collect(),
            removed_by: s.removed_by.iter().map(|a| a.value.clone()).collect(),
        }),
        keys: super::keys::key_spread(rd, i.keys.as_ref(), &p("keys"))?,
        kind,
        projection,
        key: i.key.as_ref().map(super::keys::key_schema),
        include: i.include.iter().map(|a| a.value.clone()).collect(),
        sizes_known,
        key_size_bytes,
        entry_size_bytes,
        key_share: rd.share(i.key_share.as_ref(), &p("key_share"), Decimal::ONE)?,
        updates_moving_key: moving,
        updates_adding_key: adding,
        updates_removing_key: removing,
        updates_touching_projection: rd.share(
            i.updates_touching_projection.as_ref(),
            &p("updates_touching_projection"),
            touching_default,
        )?,
        capacity: index_capacity,
        observed,
        contributor_insights: i.contributor_insights,
    })
}

/// An index's own capacity: none for an LSI or a GSI of an on-demand table (refused when
/// stated); for a GSI of a provisioned table, each dimension its own or the table's auto
/// scaling.
fn index_capacity(
    rd: &Reader<'_>,
    i: &RawIndex,
    kind: IndexKind,
    capacity: &CapacityMode,
    path: &str,
) -> Result<Option<ProvisionedCapacity>, Error> {
    let path = path.to_string();
    let units = super::capacity::stated_units(rd, i.rcu.as_ref(), i.wcu.as_ref(), &path)?;
    let own = units.any() || i.auto_scaling.is_some();
    let index_capacity = match (kind, capacity) {
        (IndexKind::Local, _) if own => {
            return Err(rd.err(
                &path,
                position(&i.projection),
                "an LSI shares the table's capacity and takes no `rcu`/`wcu`/`auto_scaling`",
                "Consider removing them from the LSI.",
            ));
        }
        (IndexKind::Global, CapacityMode::OnDemand) if own => {
            return Err(rd.err(
                &path,
                position(&i.projection),
                "a GSI of an on-demand table takes no provisioned capacity",
                "Consider removing it, or making the table provisioned.",
            ));
        }
        (IndexKind::Local, _) | (IndexKind::Global, CapacityMode::OnDemand) => None,
        (IndexKind::Global, CapacityMode::Provisioned(table_cap)) => {
            // Each dimension on its own; one the GSI does not state inherits the table's
            // auto scaling (AWS applies a table's auto scaling settings to its GSIs by
            // default), never the table's fixed units.
            let (read, write) = units.dimensions(rd, i.auto_scaling.as_ref(), &path)?;
            let inherit = |own: Option<Capacity>, table: Capacity| {
                own.or(matches!(table, Capacity::AutoScaling { .. }).then_some(table))
            };
            let (Some(read), Some(write)) = (
                inherit(read, table_cap.read),
                inherit(write, table_cap.write),
            ) else {
                return Err(rd.err(&path, position(&i.projection), "a GSI of a provisioned table needs its own `rcu` and `wcu` (or `auto_scaling`, its own or the table's) for each dimension", "Consider adding `rcu` and `wcu` to the index."));
            };
            Some(ProvisionedCapacity {
                read,
                write,
                reserved: None,
            })
        }
    };
    Ok(index_capacity)
}

/// The projection, with the included attributes' size an INCLUDE projection needs.
fn projection(
    rd: &Reader<'_>,
    i: &RawIndex,
    projected: Option<Decimal>,
    entry_size_bytes: Option<Decimal>,
    path: &str,
) -> Result<Projection, Error> {
    let p = |f: &str| format!("{path}.{f}");
    let projection = match (i.projection.value, projected) {
        (RawProjection::KeysOnly, None) => Projection::KeysOnly,
        (RawProjection::All, None) => Projection::All,
        (RawProjection::Include, Some(projected_bytes)) => Projection::Include { projected_bytes },
        (RawProjection::Include, None)
            if entry_size_bytes.is_some() || rd.is_placeholder(&p("projected_size")) =>
        {
            Projection::Include {
                projected_bytes: Decimal::ZERO,
            }
        }
        (RawProjection::Include, None) => {
            return Err(rd.err(
                &p("projection"),
                position(&i.projection),
                "an `include` projection needs `projected_size` (bytes of the included attributes)",
                "Consider `projected_size: 120 B`, or `entry_size` for the whole entry.",
            ));
        }
        (_, Some(_)) => {
            return Err(rd.err(
                &p("projected_size"),
                position(&i.projection),
                "`projected_size` applies only to `projection: include`",
                "Consider removing it, or `projection: include`.",
            ));
        }
    };
    Ok(projection)
}
