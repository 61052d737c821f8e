//! A series' points held in 12 bytes each instead of 24: the time as seconds from the
//! series' first point (an `i32`: 68 years either way) and the value packed in a `u64` — its
//! scale in the top byte, its mantissa zigzag-encoded in the other 56 bits (every count
//! CloudWatch writes: `1234`, `12.5`, `0.3333333333333333`) — or, for a value wider than
//! that, an index into the few held whole. Exact: a value reads back as the same `Decimal`,
//! scale included (property-tested), so a month of minutes for 200 tables is held in half
//! the memory, or twice the points in the same.

use rust_decimal::Decimal;

/// The top byte of a packed value that holds an index into `wide` instead of a scale.
const WIDE: u64 = 0xFF;
const LOW: u64 = (1 << 56) - 1;

/// The points of one series, in the order they were read until `sort_by_time`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Points {
    anchor: i64,
    at: Vec<i32>,
    values: Vec<u64>,
    wide: Vec<Decimal>,
}

/// A point too far from the series' first to be held: more than 68 years apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TooFarApart;

impl Points {
    pub(crate) fn len(&self) -> usize {
        self.at.len()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.at.is_empty()
    }

    /// Room for `n` more points (a result's, known before they are added).
    pub(crate) fn reserve(&mut self, n: usize) {
        self.at.reserve(n);
        self.values.reserve(n);
    }

    /// Adds the point (`t` in Unix seconds, its value).
    ///
    /// # Errors
    /// A time more than 68 years from the series' first point.
    pub(crate) fn push(&mut self, t: i64, v: Decimal) -> Result<(), TooFarApart> {
        if self.at.is_empty() {
            self.anchor = t;
        }
        let at = t
            .checked_sub(self.anchor)
            .and_then(|d| i32::try_from(d).ok())
            .ok_or(TooFarApart)?;
        let packed = self.pack(v);
        self.at.push(at);
        self.values.push(packed);
        Ok(())
    }

    fn pack(&mut self, v: Decimal) -> u64 {
        let m = v.mantissa();
        // Zigzag: 0, -1, 1, -2… as 0, 1, 2, 3…; a negative zero is held whole.
        let z = (m.unsigned_abs() << 1).saturating_sub(u128::from(m < 0));
        match u64::try_from(z) {
            Ok(z) if z <= LOW && !(m == 0 && v.is_sign_negative()) => {
                (u64::from(v.scale()) << 56) | z
            }
            _ => {
                let index = self.wide.len() as u64;
                self.wide.push(v);
                (WIDE << 56) | (index & LOW)
            }
        }
    }

    fn unpack(&self, p: u64) -> Decimal {
        let scale = p >> 56;
        let low = p & LOW;
        if scale == WIDE {
            return usize::try_from(low)
                .ok()
                .and_then(|i| self.wide.get(i))
                .copied()
                .unwrap_or_default();
        }
        let negative = low & 1 == 1;
        let m = (low >> 1).saturating_add(u64::from(negative));
        #[allow(
            clippy::cast_possible_truncation,
            reason = "the low and middle 32 bits of a 56-bit magnitude"
        )]
        let (lo, mid) = (m as u32, (m >> 32) as u32);
        // The scale byte was written from a Decimal's scale (at most 28).
        Decimal::from_parts(lo, mid, 0, negative, u32::try_from(scale).unwrap_or(0))
    }

    /// The points as (Unix seconds, value).
    pub(crate) fn iter(&self) -> impl Iterator<Item = (i64, Decimal)> + '_ {
        self.at
            .iter()
            .zip(&self.values)
            .map(|(a, p)| (self.anchor.saturating_add(i64::from(*a)), self.unpack(*p)))
    }

    /// Sorts the points by time (stably: points at one time keep the order they were read
    /// in).
    pub(crate) fn sort_by_time(&mut self) {
        if self.at.is_sorted() {
            return;
        }
        let mut pairs: Vec<(i32, u64)> = self
            .at
            .iter()
            .copied()
            .zip(self.values.iter().copied())
            .collect();
        pairs.sort_by_key(|(a, _)| *a);
        (self.at, self.values) = pairs.into_iter().unzip();
    }

    /// Keeps the points for which `keep(previous kept, this)` says so, in order.
    ///
    /// # Errors
    /// What `keep` returns.
    pub(crate) fn retain_with<E>(
        &mut self,
        mut keep: impl FnMut(Option<(i64, Decimal)>, (i64, Decimal)) -> Result<bool, E>,
    ) -> Result<(), E> {
        let mut at = Vec::with_capacity(self.at.len());
        let mut values = Vec::with_capacity(self.values.len());
        let mut last: Option<(i64, Decimal)> = None;
        for (i, point) in self.iter().enumerate() {
            if keep(last, point)? {
                at.push(self.at.get(i).copied().unwrap_or_default());
                values.push(self.values.get(i).copied().unwrap_or_default());
                last = Some(point);
            }
        }
        self.at = at;
        self.values = values;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Every value reads back as itself, scale and sign included, and every time as
        /// itself; sorted, the points are the same points in time order.
        #[test]
        fn points_read_back_exactly(
            points in prop::collection::vec(
                (-1_000_000_000i64..1_000_000_000, any::<i64>(), 0u32..=28, any::<bool>(), any::<bool>()),
                0..200,
            ),
        ) {
            let points: Vec<(i64, Decimal)> = points
                .into_iter()
                .map(|(t, m, s, wide, negative_zero)| {
                    let mut d = Decimal::new(m, s);
                    if wide {
                        d = d.checked_mul(Decimal::from(u64::MAX)).unwrap_or(d);
                    }
                    if negative_zero {
                        d = Decimal::from_parts(0, 0, 0, true, s);
                    }
                    (t, d)
                })
                .collect();
            let mut held = Points::default();
            for (t, v) in &points {
                held.push(*t, *v).unwrap();
            }
            let back: Vec<(i64, Decimal)> = held.iter().collect();
            prop_assert_eq!(back.len(), points.len());
            for ((t, v), (bt, bv)) in points.iter().zip(&back) {
                prop_assert_eq!(t, bt);
                prop_assert_eq!(v, bv);
                prop_assert_eq!(v.to_string(), bv.to_string());
            }
            let mut sorted = points.clone();
            sorted.sort_by_key(|(t, _)| *t);
            held.sort_by_time();
            let back: Vec<String> = held.iter().map(|(t, v)| format!("{t} {v}")).collect();
            let want: Vec<String> = sorted.iter().map(|(t, v)| format!("{t} {v}")).collect();
            prop_assert_eq!(back, want);
        }
    }

    #[test]
    fn a_point_68_years_away_is_refused() {
        let mut p = Points::default();
        p.push(0, Decimal::ONE).unwrap();
        assert!(p.push(i64::from(i32::MAX) + 1, Decimal::ONE).is_err());
        assert!(p.push(i64::from(i32::MIN), Decimal::ONE).is_ok());
    }
}
