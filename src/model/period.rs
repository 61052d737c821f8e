//! The billing period an export is dated with: a calendar month, `2026-12`, and the calendar
//! arithmetic of ISO 8601 dates (days since 1970-01-01). The end is exclusive (the first day
//! of the next month), as FOCUS expects.

use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Period {
    pub year: i32,
    pub month: u32,
}

/// The last month a period may be (see `Period::parse`).
pub(crate) const LAST: (i32, u32) = (9999, 11);

impl Period {
    /// Parses `YYYY-MM`.
    ///
    /// # Errors
    /// Anything else, with what was expected.
    pub fn parse(text: &str) -> Result<Period, String> {
        let bad = || format!("`{text}` is not a month; expected YYYY-MM such as 2026-12");
        let (y, m) = text.trim().split_once('-').ok_or_else(bad)?;
        if y.len() != 4 || m.len() != 2 {
            return Err(bad());
        }
        let year: i32 = y.parse().map_err(|_| bad())?;
        let month: u32 = m.parse().map_err(|_| bad())?;
        if !(1..=12).contains(&month) || !(1970..=9999).contains(&year) {
            return Err(bad());
        }
        // A billing period ends on the first day of the next month, which dates write with
        // four-digit years (ISO 8601, FOCUS): the last month that can be priced is 9999-11.
        if (year, month) > LAST {
            return Err(format!(
                "`{text}` ends in year 10000; the last month ddbcost prices is 9999-11"
            ));
        }
        Ok(Period { year, month })
    }

    /// The month's hours: its days × 24 (672 to 744).
    #[must_use]
    pub fn hours(self) -> rust_decimal::Decimal {
        let days = self.next().first_day().saturating_sub(self.first_day());
        rust_decimal::Decimal::from(days.saturating_mul(24))
    }

    /// Days since 1970-01-01 of the first day of this month.
    #[must_use]
    pub fn first_day(self) -> i64 {
        days_from_civil(i64::from(self.year), self.month, 1)
    }

    /// The month containing `unix_seconds` (UTC).
    // The clock's days since 1970 (below 2^44 for a u64 of seconds): every intermediate of
    // the algorithm stays far inside i64.
    #[allow(clippy::arithmetic_side_effects)]
    #[must_use]
    pub fn containing(unix_seconds: u64) -> Period {
        // Civil-from-days (Howard Hinnant's algorithm).
        let days = i64::try_from(unix_seconds / 86_400).unwrap_or(0);
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z - era * 146_097;
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let month = if mp < 10 { mp + 3 } else { mp - 9 };
        let year = yoe + era * 400 + i64::from(month <= 2);
        Period {
            year: i32::try_from(year).unwrap_or(1970),
            month: u32::try_from(month).unwrap_or(1),
        }
    }

    #[must_use]
    pub fn next(self) -> Period {
        if self.month == 12 {
            Period {
                year: self.year.saturating_add(1),
                month: 1,
            }
        } else {
            Period {
                year: self.year,
                month: self.month.saturating_add(1),
            }
        }
    }

    /// `2026-12-01`.
    #[must_use]
    pub fn start_date(self) -> String {
        format!("{:04}-{:02}-01", self.year, self.month)
    }

    /// The first day of the next month (exclusive end).
    #[must_use]
    pub fn end_date(self) -> String {
        self.next().start_date()
    }

    /// `2026-12-01T00:00:00Z`.
    #[must_use]
    pub fn start_time(self) -> String {
        format!("{}T00:00:00Z", self.start_date())
    }

    #[must_use]
    pub fn end_time(self) -> String {
        format!("{}T00:00:00Z", self.end_date())
    }
}

impl fmt::Display for Period {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}", self.year, self.month)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_of_seconds_invert_days_from_civil() {
        // 2026-11-29T21:26:14Z = 1,795,987,574 s; 0 s is 1970-01-01; 2024-02-29 is day 19,782.
        assert_eq!(date_of(1_795_987_574), "2026-11-29");
        assert_eq!(date_of(0), "1970-01-01");
        assert_eq!(date_of(19_782 * 86_400), "2024-02-29");
        for day in [0i64, 59, 60, 365, 10_956, 19_782, 20_789, 2_932_896] {
            let d = date_of(u64::try_from(day).unwrap() * 86_400);
            assert_eq!(parse_date(&d), Some(day), "{d}");
        }
    }

    #[test]
    fn months_parse_and_roll_over() {
        let p = Period::parse("2026-12").unwrap();
        assert_eq!(
            (p.start_date(), p.end_date()),
            ("2026-12-01".to_string(), "2027-01-01".to_string())
        );
        for bad in ["2026-13", "2026-1", "26-12", "2026/12", "december", ""] {
            assert!(Period::parse(bad).is_err(), "{bad}");
        }
        // 2026-11-29T21:26:14Z = 1,795,987,574 s after the epoch.
        assert_eq!(
            Period::containing(1_795_987_574),
            Period {
                year: 2026,
                month: 11
            }
        );
        assert_eq!(
            Period::containing(0),
            Period {
                year: 1970,
                month: 1
            }
        );
    }
}

/// Days since 1970-01-01 of a civil date (Howard Hinnant's algorithm).
// Years are 1970–9999 and months 1–12 (checked by the callers' parsers), so every
// intermediate stays far inside i64.
#[allow(clippy::arithmetic_side_effects)]
#[must_use]
pub(crate) fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(month);
    let mp = if m > 2 { m - 3 } else { m + 9 };
    let doy = (153 * mp + 2) / 5 + i64::from(day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The civil date (`YYYY-MM-DD`, UTC) of `unix_seconds` after the epoch (Howard Hinnant's
/// algorithm, the inverse of `days_from_civil`).
// Days since 1970 of a `u64` of seconds fit in i64, and every step stays far inside it.
#[allow(clippy::arithmetic_side_effects)]
#[must_use]
pub(crate) fn date_of(unix_seconds: u64) -> String {
    let z = i64::try_from(unix_seconds / 86_400).unwrap_or(i64::MAX / 2) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

/// `YYYY-MM-DD` (a day that exists: 2026-02-30 does not) as days since 1970-01-01, or
/// `None`.
#[must_use]
pub(crate) fn parse_date(text: &str) -> Option<i64> {
    let t = text.trim();
    let (y, rest) = t.split_once('-')?;
    let (m, d) = rest.split_once('-')?;
    let (year, month, day): (i64, u32, u32) =
        (y.parse().ok()?, m.parse().ok()?, d.get(..2)?.parse().ok()?);
    ((1970..=9999).contains(&year) && (1..=days_in_month(year, month)?).contains(&day))
        .then(|| days_from_civil(year, month, day))
}

/// How many days `month` (1–12) of `year` has; `None` for no month.
pub(crate) fn days_in_month(year: i64, month: u32) -> Option<u32> {
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => Some(31),
        4 | 6 | 9 | 11 => Some(30),
        2 if leap => Some(29),
        2 => Some(28),
        _ => None,
    }
}

/// A strict `YYYY-MM-DD` day that exists (2026-02-30 does not), as days since 1970-01-01.
#[must_use]
pub(crate) fn parse_day(text: &str) -> Option<i64> {
    let b = text.as_bytes();
    let shaped = b.len() == 10
        && b[4] == b'-'
        && b[7] == b'-'
        && b.iter()
            .enumerate()
            .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit());
    if !shaped {
        return None;
    }
    let (year, month, day): (i64, u32, u32) = (
        text.get(..4)?.parse().ok()?,
        text.get(5..7)?.parse().ok()?,
        text.get(8..)?.parse().ok()?,
    );
    ((1970..=9999).contains(&year) && (1..=days_in_month(year, month)?).contains(&day))
        .then(|| days_from_civil(year, month, day))
}

#[cfg(test)]
mod date_tests {
    use super::*;

    #[test]
    fn a_day_that_does_not_exist_is_no_date() {
        assert_eq!(parse_date("2026-02-30"), None);
        assert_eq!(parse_date("2026-02-29T00:00:00Z"), None);
        // 2028 is a leap year: 2028-02-29 is 31 (January) + 28 = 59 days after 2028-01-01.
        assert_eq!(
            parse_date("2028-02-29"),
            parse_date("2028-01-01").map(|d| d + 59)
        );
        assert_eq!(parse_date("2026-04-31"), None);
        assert!(parse_date("2026-12-31").is_some());
    }

    #[test]
    fn parse_day_is_strict() {
        assert_eq!(parse_day("2024-02-29"), parse_date("2024-02-29"));
        for bad in [
            "2026-02-29",
            "2026-11-31",
            "2026-13-01",
            "2026-1-01",
            "26-11-30",
            "2026-11-30x",
            "2026-11-3x",
        ] {
            assert_eq!(parse_day(bad), None, "{bad}");
        }
    }

    #[test]
    fn days_from_civil_counts_from_1970() {
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        // 2024 is a leap year: 2024-11-01 → 2026-11-30 is 365 + 365 + 29 = 759 days.
        assert_eq!(
            parse_date("2026-11-30").unwrap() - parse_date("2024-11-01").unwrap(),
            759
        );
        assert_eq!(parse_date("2026-13-01"), None);
    }
}
