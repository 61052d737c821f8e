//! How one key attribute's traffic and data spread over its values, from exact counts: the
//! distinct values; the share the busiest 1, 10 and 100 values take of items, bytes, reads and
//! writes; the fewest values that hold 80 % of each; the busiest values by name; the largest
//! item collection; the cumulative share curve for the chart. Every share is a ratio of
//! whole counts (exact to 28 digits); nothing is rounded here.

use rust_decimal::Decimal;

use super::counter::{Counts, KeyCounter};

/// The tops reported: the busiest 1, 10 and 100 values.
pub(crate) const TOPS: [usize; 3] = [1, 10, 100];

/// Busiest values listed by name.
pub(crate) const BUSIEST: usize = 10;

/// Points on the cumulative share curve (0 %, 1 %, …, 100 % of the values).
pub(crate) const CURVE_POINTS: usize = 101;

/// One figure counted per value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Measure {
    Items,
    Bytes,
    Reads,
    Writes,
}

impl Measure {
    pub const ALL: [Measure; 4] = [
        Measure::Items,
        Measure::Bytes,
        Measure::Reads,
        Measure::Writes,
    ];

    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Measure::Items => "items",
            Measure::Bytes => "bytes",
            Measure::Reads => "reads",
            Measure::Writes => "writes",
        }
    }

    /// The figure in `c` (units in halves).
    #[must_use]
    pub fn of(self, c: &Counts) -> u64 {
        match self {
            Measure::Items => c.items,
            Measure::Bytes => c.bytes,
            Measure::Reads => c.read_halves,
            Measure::Writes => c.write_halves,
        }
    }
}

/// How one measure spreads over the values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MeasureSpread {
    pub measure: Measure,
    pub total: u64,
    /// The sum of the busiest 1, 10 and 100 values (`TOPS`).
    pub top: [u64; 3],
    /// The fewest values that hold at least 80 % of the total (0 when the total is 0).
    pub keys_for_80: u64,
}

impl MeasureSpread {
    /// The busiest `TOPS[i]` values' share of the total (`None` when nothing was counted).
    #[must_use]
    pub fn top_share(&self, i: usize) -> Option<Decimal> {
        share(self.top[i], self.total)
    }
}

/// `part ÷ whole`, `None` for a zero whole.
#[must_use]
pub(crate) fn share(part: u64, whole: u64) -> Option<Decimal> {
    (whole > 0).then(|| {
        Decimal::from(part)
            .checked_div(Decimal::from(whole))
            .unwrap_or_default()
            .normalize()
    })
}

/// One of the busiest values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Busiest {
    pub value: String,
    pub counts: Counts,
}

/// How one key attribute spreads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttributeSpread {
    pub distinct: u64,
    pub totals: Counts,
    /// One per `Measure::ALL`.
    pub measures: Vec<MeasureSpread>,
    /// By traffic (read + write units), then items, then bytes, then value.
    pub busiest: Vec<Busiest>,
    /// The value with the most bytes in its item collection (items + LSI entries).
    pub largest_collection: Option<Busiest>,
    /// Whether read or write units were counted (else traffic is assumed to follow items).
    pub has_traffic: bool,
    /// Cumulative share of traffic (or items) held by the busiest 0 %, 1 %, …, 100 % of values.
    pub curve: Vec<Decimal>,
}

impl AttributeSpread {
    #[must_use]
    pub fn measure(&self, m: Measure) -> &MeasureSpread {
        &self.measures[Measure::ALL.iter().position(|x| *x == m).unwrap_or(0)]
    }

    /// The busiest value's share of reads and of writes, as the verdict reads them: from the
    /// counted units, or, with no traffic counted, the busiest value's share of items.
    #[must_use]
    pub fn busiest_shares(&self) -> (Option<Decimal>, Option<Decimal>) {
        if self.has_traffic {
            let reads = self.measure(Measure::Reads);
            let writes = self.measure(Measure::Writes);
            (reads.top_share(0), writes.top_share(0))
        } else {
            let items = self.measure(Measure::Items).top_share(0);
            (items, items)
        }
    }
}

fn traffic(c: &Counts) -> u64 {
    c.read_halves.saturating_add(c.write_halves)
}

/// The spread of the values in `counter`.
#[must_use]
pub(crate) fn spread(counter: &KeyCounter) -> AttributeSpread {
    let totals = counter.totals();
    let has_traffic = traffic(&totals) > 0;
    let mut values: Vec<u64> = Vec::with_capacity(usize::try_from(counter.distinct()).unwrap_or(0));
    let mut measures = Vec::with_capacity(Measure::ALL.len());
    for m in Measure::ALL {
        values.clear();
        values.extend(counter.iter().map(|(_, c)| m.of(c)));
        values.sort_unstable_by(|a, b| b.cmp(a));
        let total = m.of(&totals);
        let sum = |n: usize| {
            values
                .iter()
                .take(n)
                .fold(0u64, |a, b| a.saturating_add(*b))
        };
        // The fewest values with sum ≥ 80 % of the total: 5 × sum ≥ 4 × total, in u128.
        let mut running = 0u128;
        let mut keys_for_80 = 0u64;
        if total > 0 {
            for v in &values {
                running = running.saturating_add(u128::from(*v));
                keys_for_80 = keys_for_80.saturating_add(1);
                if running.saturating_mul(5) >= u128::from(total).saturating_mul(4) {
                    break;
                }
            }
        }
        measures.push(MeasureSpread {
            measure: m,
            total,
            top: [sum(TOPS[0]), sum(TOPS[1]), sum(TOPS[2])],
            keys_for_80,
        });
    }
    // The curve, of traffic (or items): values sorted by it, busiest first.
    values.clear();
    values.extend(
        counter
            .iter()
            .map(|(_, c)| if has_traffic { traffic(c) } else { c.items }),
    );
    values.sort_unstable_by(|a, b| b.cmp(a));
    let whole: u128 = values.iter().map(|v| u128::from(*v)).sum();
    let n = values.len();
    let mut curve = Vec::with_capacity(CURVE_POINTS);
    let mut taken = 0usize;
    let mut running = 0u128;
    for point in 0..CURVE_POINTS {
        // The busiest ⌈point % × n⌉ values.
        let upto = point
            .saturating_mul(n)
            .div_ceil(CURVE_POINTS.saturating_sub(1));
        while taken < upto.min(n) {
            running = running.saturating_add(u128::from(values[taken]));
            taken = taken.saturating_add(1);
        }
        curve.push(if whole == 0 {
            Decimal::ZERO
        } else {
            Decimal::from_i128_with_scale(i128::try_from(running).unwrap_or(i128::MAX), 0)
                .checked_div(Decimal::from_i128_with_scale(
                    i128::try_from(whole).unwrap_or(i128::MAX),
                    0,
                ))
                .unwrap_or_default()
        });
    }
    drop(values);
    // The busiest values by name: a small sorted list, kept to `BUSIEST`.
    let rank = |c: &Counts| (traffic(c), c.items, c.bytes);
    let mut busiest: Vec<(&[u8], &Counts)> = Vec::with_capacity(BUSIEST.saturating_add(1));
    let mut largest: Option<(&[u8], &Counts)> = None;
    for (name, c) in counter.iter() {
        let before = |other: &(&[u8], &Counts)| {
            (rank(c), std::cmp::Reverse(name)) > (rank(other.1), std::cmp::Reverse(other.0))
        };
        if busiest.len() < BUSIEST || busiest.last().is_some_and(before) {
            let at = busiest.iter().position(before).unwrap_or(busiest.len());
            busiest.insert(at, (name, c));
            busiest.truncate(BUSIEST);
        }
        let collection = |c: &Counts| c.bytes.saturating_add(c.lsi_bytes);
        if largest.is_none_or(|(n, l)| {
            (collection(c), std::cmp::Reverse(name)) > (collection(l), std::cmp::Reverse(n))
        }) {
            largest = Some((name, c));
        }
    }
    let named = |(name, c): (&[u8], &Counts)| Busiest {
        value: String::from_utf8_lossy(name).into_owned(),
        counts: *c,
    };
    AttributeSpread {
        distinct: counter.distinct(),
        totals,
        measures,
        busiest: busiest.into_iter().map(named).collect(),
        largest_collection: largest.map(named),
        has_traffic,
        curve,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counter(items: &[(&str, u64)]) -> KeyCounter {
        let mut c = KeyCounter::new();
        for (k, n) in items {
            c.add(
                k.as_bytes(),
                &Counts {
                    items: *n,
                    bytes: n.saturating_mul(100),
                    ..Counts::default()
                },
            )
            .unwrap();
        }
        c
    }

    #[test]
    fn shares_of_a_status_like_key() {
        // Five statuses, 100 items: delivered 80, shipped 10, pending 5, paid 3, cancelled 2.
        let s = spread(&counter(&[
            ("pending", 5),
            ("delivered", 80),
            ("shipped", 10),
            ("paid", 3),
            ("cancelled", 2),
        ]));
        assert_eq!(s.distinct, 5);
        let items = s.measure(Measure::Items);
        // Top 1 = 80 of 100; top 10 and top 100 = all 100.
        assert_eq!(items.top, [80, 100, 100]);
        assert_eq!(items.top_share(0), Some(Decimal::new(8, 1)));
        // 80 ≥ 80 % of 100 with one value.
        assert_eq!(items.keys_for_80, 1);
        assert_eq!(s.busiest[0].value, "delivered");
        assert_eq!(s.busiest[4].value, "cancelled");
        // No traffic counted: reads and writes are assumed to follow items (80 %).
        assert!(!s.has_traffic);
        assert_eq!(s.busiest_shares(), (Some(d("0.8")), Some(d("0.8"))));
        // Curve: the busiest 20 % of 5 values (1 value) hold 80 %; 100 % hold 100 %.
        assert_eq!(s.curve[0], Decimal::ZERO);
        assert_eq!(s.curve[20], d("0.8"));
        assert_eq!(s.curve[100], Decimal::ONE);
    }

    fn d(s: &str) -> Decimal {
        s.parse().unwrap()
    }

    #[test]
    fn ties_are_broken_by_value_and_nothing_counted_gives_no_share() {
        let s = spread(&counter(&[("b", 1), ("a", 1), ("c", 1)]));
        let names: Vec<_> = s.busiest.iter().map(|b| b.value.as_str()).collect();
        assert_eq!(names, ["a", "b", "c"]);
        // 80 % of 3 items needs ⌈2.4⌉ = 3 values.
        assert_eq!(s.measure(Measure::Items).keys_for_80, 3);
        assert_eq!(s.measure(Measure::Reads).top_share(0), None);
        let empty = spread(&KeyCounter::new());
        assert_eq!(empty.distinct, 0);
        assert!(empty.busiest.is_empty());
        assert!(empty.curve.iter().all(rust_decimal::Decimal::is_zero));
    }
}
