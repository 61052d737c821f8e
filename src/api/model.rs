//! The typed workload, for a caller that builds or varies a design in code rather than in
//! YAML (a sweep over capacity, projection and class): what `load` returns, field by field.
//! A value built here skips the loader's checks; `load` is the checked way in.

/// The parts of a workload: its tables, their patterns and indexes (with projections),
/// capacity (on demand or provisioned, fixed or auto scaled) and class.
///
/// ```
/// use ddbcost::api::model::{Projection, TableClass};
/// use ddbcost::api::{Settings, estimate, load, prices};
/// let text = "tables:\n  t:\n    items: 1M\n    item_size: 1 KB\n    indexes:\n      g: { type: gsi, projection: all }\n    patterns:\n      put: { op: put, rate: 1M/month }\n";
/// let (mut w, _) = load(text, "w.yaml")?;
/// let book = prices("aws-us-east-1")?;
/// let all = estimate(&w, &book, &Settings::default())?.total;
/// w.tables[0].indexes[0].projection = Projection::KeysOnly;
/// w.tables[0].class = TableClass::Standard;
/// // Keys only: smaller index entries, fewer index write units and less storage.
/// assert!(estimate(&w, &book, &Settings::default())?.total < all);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub use crate::model::{
    AccessPattern, Capacity, CapacityMode, Index, IndexKind, Projection, ProvisionedCapacity,
    Table, TableClass, Workload,
};
