//! Who the bill is for (issue #50): the arithmetic that splits a billed amount over the
//! tenants, tags or patterns that caused it (`split`), exactly, with what nobody caused kept
//! as a named remainder and the shares shown to the cent by largest remainder. The readers of
//! the drivers (consumed-capacity logs, Contributor Insights reports, exports) and the
//! `allocate` command build on it.

pub(crate) mod split;
