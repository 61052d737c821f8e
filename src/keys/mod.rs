//! Key spread measured from items and access logs, for `ddbcost keys`: exact counts per key
//! value (`counter`), how they spread (`spread`), the per-key check at the peak against a
//! partition's limits and the verdict (`verdict`), access-log reading (`log`), item reading
//! through the same reader as `size` (`items`), and the mergeable summary (`summary`).

pub mod counter;
pub mod items;
pub mod log;
pub mod sharding;
pub mod spread;
pub mod summary;
pub mod verdict;
