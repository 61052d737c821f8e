//! Key spread measured from items and access logs, for `ddbcost keys`: exact counts per key
//! value (`counter`), how they spread (`spread`), the per-key check at the peak against a
//! partition's limits and the verdict (`verdict`), access-log reading (`log`), item reading
//! through the same reader as `size` (`items`), and the mergeable summary (`summary`).

pub(crate) mod counter;
pub(crate) mod dax;
pub(crate) mod items;
pub(crate) mod log;
pub(crate) mod sharding;
pub(crate) mod spread;
pub(crate) mod summary;
pub(crate) mod verdict;
