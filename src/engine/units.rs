//! Request units per operation: the DynamoDB rounding rules (DESIGN.md §3). Reads round to
//! 4 KB — per item for GetItem, BatchGetItem and transactions, once over the summed sizes for a
//! Query, per page of at most 1 MB for a Scan. Writes round to 1 KB per item, minimum 1.
//! Pure arithmetic on bytes; prices live elsewhere.

use rust_decimal::Decimal;

use crate::model::{Consistency, Operation};

const READ_UNIT_BYTES: u32 = 4096;
const WRITE_UNIT_BYTES: u32 = 1024;
/// A Query or Scan page holds at most 1 MB of data.
const PAGE_BYTES: u32 = 1_048_576;

fn ceil_units(bytes: Decimal, unit_bytes: u32) -> Option<Decimal> {
    // Whole, non-negative byte counts (the common case) round up in integer arithmetic;
    // decimal division is the engine's most expensive operation.
    if let Some(n) = whole(bytes) {
        return Some(Decimal::from(n.div_ceil(u128::from(unit_bytes))));
    }
    Some(bytes.checked_div(Decimal::from(unit_bytes))?.ceil())
}

/// A whole, non-negative decimal as an integer (sizes and counts far below 2^96).
fn whole(d: Decimal) -> Option<u128> {
    (d.scale() == 0 && !d.is_sign_negative()).then(|| d.mantissa().unsigned_abs())
}

/// Read units for one item of `item_bytes`: rounded up to 4 KB, at least 1 (a missing item
/// still costs a read). `None` only for a size too large to represent.
#[must_use]
pub(crate) fn item_read_units(item_bytes: Decimal) -> Option<Decimal> {
    Some(ceil_units(item_bytes, READ_UNIT_BYTES)?.max(Decimal::ONE))
}

/// Write units for one item of `item_bytes`: rounded up to 1 KB, at least 1.
#[must_use]
pub(crate) fn item_write_units(item_bytes: Decimal) -> Option<Decimal> {
    Some(ceil_units(item_bytes, WRITE_UNIT_BYTES)?.max(Decimal::ONE))
}

/// Units read by one Query returning `items` of `item_bytes`: summed, then rounded once per
/// page of at most 1 MB (a logical query over more than 1 MB is several requests).
#[must_use]
pub(crate) fn query_read_units(item_bytes: Decimal, items: Decimal) -> Option<Decimal> {
    paged_read_units(item_bytes, items)
}

/// Units read by one Scan evaluating `items` of `item_bytes`, paged like a Query: on the
/// items evaluated, since filters and projections do not reduce it.
#[must_use]
pub(crate) fn scan_read_units(item_bytes: Decimal, items: Decimal) -> Option<Decimal> {
    paged_read_units(item_bytes, items)
}

/// Pages of at most 1 MB of whole items, each page's summed size rounded up to 4 KB.
/// Every step is checked: `None` when a figure cannot be represented.
fn paged_read_units(item_bytes: Decimal, items: Decimal) -> Option<Decimal> {
    // Whole sizes and counts (the common case) page in integer arithmetic.
    if let (Some(size), Some(n)) = (whole(item_bytes), whole(items)) {
        let size = size.max(1);
        let per_page = u128::from(PAGE_BYTES).checked_div(size)?.max(1);
        let (full_pages, rest) = (n.checked_div(per_page)?, n.checked_rem(per_page)?);
        let unit = u128::from(READ_UNIT_BYTES);
        let page_units = per_page.checked_mul(size)?.div_ceil(unit);
        let rest_units = rest.checked_mul(size)?.div_ceil(unit);
        let units = full_pages
            .checked_mul(page_units)?
            .checked_add(rest_units)?;
        return Decimal::try_from_i128_with_scale(i128::try_from(units.max(1)).ok()?, 0).ok();
    }
    let page = Decimal::from(PAGE_BYTES);
    let size = item_bytes.max(Decimal::ONE);
    let per_page = page.checked_div(size)?.floor().max(Decimal::ONE);
    let full_pages = items.checked_div(per_page)?.floor();
    let rest_items = items.checked_sub(full_pages.checked_mul(per_page)?)?;
    let full_page_units = ceil_units(per_page.checked_mul(size)?, READ_UNIT_BYTES)?;
    let rest_units = if rest_items.is_zero() {
        Decimal::ZERO
    } else {
        ceil_units(rest_items.checked_mul(size)?, READ_UNIT_BYTES)?
    };
    Some(
        full_pages
            .checked_mul(full_page_units)?
            .checked_add(rest_units)?
            .max(Decimal::ONE),
    )
}

/// The multiplier a consistency applies to strongly consistent read units.
#[must_use]
pub(crate) fn consistency_factor(consistency: Consistency) -> Decimal {
    match consistency {
        Consistency::Strong => Decimal::ONE,
        Consistency::Eventual => Decimal::new(5, 1),
        // Strong reads at 1, eventual at ½: 1 − share / 2 (the share is in [0, 1] by load,
        // so neither step can overflow).
        Consistency::Mixed { eventual_share } => Decimal::ONE
            .saturating_sub(eventual_share.checked_div(Decimal::TWO).unwrap_or_default()),
    }
}

/// Read units consumed by one read operation on items of `item_bytes`.
/// Transactional reads cost 2 units per 4 KB whatever the consistency.
#[must_use]
pub(crate) fn read_units_per_op(
    operation: Operation,
    consistency: Consistency,
    item_bytes: Decimal,
    items: Decimal,
) -> Option<Decimal> {
    let factor = consistency_factor(consistency);
    match operation {
        Operation::Get => item_read_units(item_bytes)?.checked_mul(factor),
        Operation::BatchGet => item_read_units(item_bytes)?
            .checked_mul(items)?
            .checked_mul(factor),
        Operation::Query => query_read_units(item_bytes, items)?.checked_mul(factor),
        Operation::Scan => scan_read_units(item_bytes, items)?.checked_mul(factor),
        Operation::TransactGet => item_read_units(item_bytes)?
            .checked_mul(items)?
            .checked_mul(Decimal::TWO),
        _ => Some(Decimal::ZERO),
    }
}

/// Write units consumed on the base table by one write operation. Transactions cost 2×.
#[must_use]
pub(crate) fn write_units_per_op(
    operation: Operation,
    item_bytes: Decimal,
    items: Decimal,
) -> Option<Decimal> {
    let per_item = item_write_units(item_bytes)?;
    match operation {
        Operation::Put | Operation::Update | Operation::Delete => Some(per_item),
        Operation::BatchWrite => per_item.checked_mul(items),
        Operation::TransactWrite => per_item.checked_mul(items)?.checked_mul(Decimal::TWO),
        _ => Some(Decimal::ZERO),
    }
}

/// Items written by one operation (1, or the batch or transaction size).
#[must_use]
pub(crate) fn items_written_per_op(operation: Operation, items: Decimal) -> Decimal {
    match operation {
        Operation::Put | Operation::Update | Operation::Delete => Decimal::ONE,
        Operation::BatchWrite | Operation::TransactWrite => items,
        _ => Decimal::ZERO,
    }
}

#[cfg(test)]
#[allow(clippy::arithmetic_side_effects)]
mod tests {
    use super::*;
    use crate::engine::dec;

    #[track_caller]
    fn reads(op: Operation, c: Consistency, bytes: &str, items: &str, expected: &str) {
        assert_eq!(
            read_units_per_op(op, c, dec(bytes), dec(items)).expect("small"),
            dec(expected),
            "{op:?} {c:?} {bytes} B × {items}"
        );
    }

    #[test]
    fn query_sums_sizes_then_rounds_once() {
        // 10 items totalling 40.8 KB = 41,779.2 B → rounded up to 44 KB = 11 units of 4 KB.
        reads(Operation::Query, Consistency::Strong, "4177.92", "10", "11");
        // Eventual is half: 11 × 0.5 = 5.5.
        reads(
            Operation::Query,
            Consistency::Eventual,
            "4177.92",
            "10",
            "5.5",
        );
        // A query returning nothing still costs 1 unit (0.5 eventual).
        reads(Operation::Query, Consistency::Strong, "100", "0", "1");
    }

    #[test]
    fn batch_get_rounds_each_item() {
        // 1.5 KB → 4 KB = 1 unit; 6.5 KB → 8 KB = 2 units; summed: 3. Modelled as two
        // batch-get patterns since a pattern has one average size: 1 × 1 + 1 × 2.
        let a = read_units_per_op(
            Operation::BatchGet,
            Consistency::Strong,
            dec("1536"),
            dec("1"),
        )
        .expect("small");
        let b = read_units_per_op(
            Operation::BatchGet,
            Consistency::Strong,
            dec("6656"),
            dec("1"),
        )
        .expect("small");
        assert_eq!(a + b, dec("3"));
        // The same two sizes in one Query: 8 KB summed → 2 units, not 3.
        assert_eq!(
            query_read_units(dec("4096"), dec("2")).expect("small"),
            dec("2")
        );
    }

    #[test]
    fn get_rounds_to_4kb_and_eventual_halves() {
        // 4.1 KB = 4198.4 B → 8 KB → 2 units: twice a 4 KB item.
        reads(Operation::Get, Consistency::Strong, "4198.4", "1", "2");
        reads(Operation::Get, Consistency::Strong, "4096", "1", "1");
        reads(Operation::Get, Consistency::Eventual, "4096", "1", "0.5");
        // A missing item (0 B) still costs 1 / 0.5.
        reads(Operation::Get, Consistency::Strong, "0", "1", "1");
        reads(Operation::Get, Consistency::Eventual, "0", "1", "0.5");
    }

    #[test]
    fn transactional_reads_cost_double() {
        // 3 items of 5 KB: each → 8 KB = 2 units, × 2 for the transaction = 12.
        reads(
            Operation::TransactGet,
            Consistency::Strong,
            "5120",
            "3",
            "12",
        );
    }

    #[test]
    fn scan_is_paged_at_1mb_on_items_evaluated() {
        // 1,000 items of 2,000 B: 524 fit in a 1 MB page (1,048,576 / 2,000 = 524.3).
        // Page 1: 524 × 2,000 = 1,048,000 B → ceil(/4096) = 256 units.
        // Page 2: 476 × 2,000 = 952,000 B → ceil(232.42) = 233 units. Total 489.
        reads(Operation::Scan, Consistency::Strong, "2000", "1000", "489");
        // Eventual: 489 / 2 = 244.5.
        reads(
            Operation::Scan,
            Consistency::Eventual,
            "2000",
            "1000",
            "244.5",
        );
    }

    #[test]
    fn queries_over_1mb_are_paged() {
        // 300 items of 4,000 B = 1,200,000 B: page 1 holds 262 items (1,048,000 B → 256
        // units), page 2 holds 38 (152,000 B → 37.1 → 38 units): 294, not ceil(1.2 MB) = 293.
        assert_eq!(
            query_read_units(dec("4000"), dec("300")).expect("small"),
            dec("294")
        );
    }

    #[test]
    fn writes_round_to_1kb_minimum_one() {
        // 500 B → 1 unit; 1,025 B → 2 units; 4 KB → 4 units.
        assert_eq!(
            write_units_per_op(Operation::Put, dec("500"), dec("1")),
            Some(dec("1"))
        );
        assert_eq!(
            write_units_per_op(Operation::Update, dec("1025"), dec("1")),
            Some(dec("2"))
        );
        assert_eq!(
            write_units_per_op(Operation::Delete, dec("4096"), dec("1")),
            Some(dec("4"))
        );
        // Deleting a missing item still costs 1.
        assert_eq!(
            write_units_per_op(Operation::Delete, dec("0"), dec("1")),
            Some(dec("1"))
        );
    }

    #[test]
    fn transactional_write_of_three_small_items_is_six() {
        // 3 items × ceil(500 / 1024) = 3 × 1, × 2 for the transaction = 6.
        assert_eq!(
            write_units_per_op(Operation::TransactWrite, dec("500"), dec("3")),
            Some(dec("6"))
        );
        // BatchWrite rounds each item: 3 × ceil(1.5 KB) = 3 × 2 = 6 (no transaction factor).
        assert_eq!(
            write_units_per_op(Operation::BatchWrite, dec("1536"), dec("3")),
            Some(dec("6"))
        );
    }
}
