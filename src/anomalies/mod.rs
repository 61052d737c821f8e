//! Why the bill jumped (issue #51): a bill read day by day — per table, region and meter, the
//! usage and the unblended cost of each day (`daily`) — and each departure from its own
//! trailing baseline found, sized a month at the new rate and explained by what the bill
//! itself shows (`detect`): a meter that began or stopped (a replica, PITR, a stream, a
//! class or mode switch), a unit price that moved with the units unchanged (a reservation or
//! plan that stopped covering it), the units that stepped, storage that grows; and, given
//! the tables' CloudWatch days (`measured`), the DynamoDB mechanism behind the units — a GSI
//! that began, a query turned scan, an item past a size boundary, more requests, TTL
//! deletions that stopped — or that what was measured does not explain it.

pub(crate) mod daily;
pub(crate) mod detect;
pub(crate) mod measured;
