//! Who the bill is for (issue #50): the arithmetic that splits a billed amount over the
//! tenants, tags or patterns that caused it (`split`), exactly, with what nobody caused kept
//! as a named remainder and the shares shown to the cent by largest remainder; and the first
//! reader of drivers (`log`: application logs with `ConsumedCapacity`, units per table, index,
//! tenant and pattern), with the SQL that sums the same logs where they live (`sql`, whose
//! result `log` reads back). Contributor Insights reports, exports and the `allocate`
//! command build on them.

pub(crate) mod bill;
pub(crate) mod drift;
mod hand;
pub(crate) mod insights;
pub(crate) mod line;
pub(crate) mod log;
mod skim;
pub(crate) mod split;
pub(crate) mod sql;
