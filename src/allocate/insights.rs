//! Contributor Insights reports as drivers (`allocate --insights`): the output of `aws
//! cloudwatch get-insight-rule-report` for a table's most-accessed-keys rule (DESIGN §9) —
//! `AggregateValue`, `ApproximateUniqueCount` and `Contributors[] {Keys, ApproximateAggregateValue}`:
//! the top keys (at most 100) by the capacity they consumed, approximate. Each contributor's
//! key names a tenant through the tenancy's pattern; what the report's total holds beyond
//! its top keys is a remainder of its own. Values are read as exact decimals from their
//! digits, never through a float.

use rust_decimal::Decimal;
use serde_json::Value;

use super::bill::{Drivers, Measure};
use super::log::Tenancy;
use crate::error::Error;

/// A report, read: each contributor's tenant (`None`: its key names none) and value, and
/// what the report's total holds beyond them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Insights {
    pub(crate) contributors: Vec<(Option<String>, Decimal)>,
    pub(crate) outside: Decimal,
    /// The keys the rule saw (`ApproximateUniqueCount`), where given.
    pub(crate) unique: Option<Decimal>,
}

fn bad(file: &str, why: &str) -> Error {
    Error::input(format!("not a Contributor Insights report: {why}"))
        .file(file)
        .help("Consider the JSON `aws cloudwatch get-insight-rule-report --rule-name R --start-time T0 --end-time T1 --period 3600` prints, for the table's most-accessed-keys rule.")
}

fn number(v: Option<&Value>, file: &str, field: &str) -> Result<Decimal, Error> {
    let parsed = match v {
        Some(Value::Number(n)) => n.to_string().parse::<Decimal>().ok(),
        Some(Value::String(s)) => s.parse::<Decimal>().ok(),
        _ => None,
    };
    match parsed {
        Some(d) if !d.is_sign_negative() || d.is_zero() => Ok(d),
        _ => Err(bad(file, &format!("`{field}` is not a number at least 0"))),
    }
}

/// Reads a report from `text` (named `file`).
///
/// # Errors
/// Not JSON; no `Contributors`; a value that is not a number at least 0.
pub(crate) fn read(text: &str, file: &str, tenancy: &Tenancy) -> Result<Insights, Error> {
    let doc: Value =
        serde_json::from_str(text).map_err(|e| bad(file, &format!("not JSON ({e})")))?;
    let list = doc
        .get("Contributors")
        .and_then(Value::as_array)
        .ok_or_else(|| bad(file, "no `Contributors` list"))?;
    let mut out = Insights::default();
    let mut given = Decimal::ZERO;
    for (i, c) in list.iter().enumerate() {
        let at = format!("Contributors[{i}]");
        let key = c
            .get("Keys")
            .and_then(Value::as_array)
            .and_then(|k| k.first())
            .and_then(Value::as_str)
            .ok_or_else(|| bad(file, &format!("`{at}.Keys` is not a list of key values")))?;
        let value = number(
            c.get("ApproximateAggregateValue"),
            file,
            &format!("{at}.ApproximateAggregateValue"),
        )?;
        given = given
            .checked_add(value)
            .ok_or_else(|| bad(file, "values past what a decimal holds"))?;
        out.contributors.push((tenancy.of(key), value));
    }
    // The total over every key, where the report gives it; what it holds past the top keys
    // is the remainder (never below zero: approximate values may overshoot it).
    if let Some(total) = doc.get("AggregateValue") {
        let total = number(Some(total), file, "AggregateValue")?;
        out.outside = total
            .checked_sub(given)
            .filter(Decimal::is_sign_positive)
            .unwrap_or_default();
    }
    out.unique = doc
        .get("ApproximateUniqueCount")
        .map(|u| number(Some(u), file, "ApproximateUniqueCount"))
        .transpose()?;
    Ok(out)
}

/// The report `text` (named `file`) of `table` as the drivers of its reads and writes,
/// unless the logs already measure that table; the note that says which.
///
/// # Errors
/// A report that cannot be read; a total past what a decimal holds.
pub(crate) fn apply(
    text: &str,
    file: &str,
    table: &str,
    tenancy: &Tenancy,
    drivers: &mut Drivers,
) -> Result<String, Error> {
    let table = table.to_string();
    let logged = drivers
        .by
        .range((table.clone(), None)..)
        .take_while(|((t, _), _)| *t == table)
        .any(|(_, m)| !m.read.is_zero() || !m.write.is_zero());
    if logged {
        return Ok(format!(
            "the logs measure table `{table}` exactly: its Contributor Insights report `{file}` is not used"
        ));
    }
    let report = read(text, file, tenancy)?;
    for (tenant, value) in &report.contributors {
        let m = Measure {
            read: *value,
            write: *value,
            bytes: Decimal::ZERO,
        };
        drivers.add(&table, tenant.as_deref(), m)?;
    }
    let outside = drivers.outside.entry(table.clone()).or_default();
    *outside = outside
        .checked_add(report.outside)
        .ok_or_else(|| Error::input("a report's total past what a decimal holds"))?;
    Ok(format!(
        "table `{table}` is split by its Contributor Insights report `{file}`: the top {} keys' consumed capacity, approximate (CloudWatch's own figures), for its reads and writes; what the report holds past them is a remainder",
        report.contributors.len()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_reads_into_tenants_and_what_lies_past_its_top_keys() {
        let tenancy = Tenancy::parse("PK=ORG#([^#]+)").unwrap();
        let text = r#"{"KeyLabels":["PK"],"AggregationStatistic":"Sum","AggregateValue":1000.0,"ApproximateUniqueCount":250,"Contributors":[{"Keys":["ORG#a"],"ApproximateAggregateValue":600.0,"Datapoints":[]},{"Keys":["ORG#b#x"],"ApproximateAggregateValue":250.5},{"Keys":["admin"],"ApproximateAggregateValue":49.5}],"MetricDatapoints":[]}"#;
        let r = read(text, "ci.json", &tenancy).unwrap();
        assert_eq!(r.contributors[0], (Some("a".into()), Decimal::from(600)));
        assert_eq!(r.contributors[1], (Some("b".into()), Decimal::new(2505, 1)));
        // A key outside the pattern names no tenant.
        assert_eq!(r.contributors[2].0, None);
        // 1,000 − (600 + 250.5 + 49.5) = 100 past the top keys.
        assert_eq!(r.outside, Decimal::from(100));
        assert_eq!(r.unique, Some(Decimal::from(250)));
        for bad_text in [
            "{",
            "{}",
            r#"{"Contributors":[{"Keys":["a"],"ApproximateAggregateValue":-1}]}"#,
        ] {
            assert!(read(bad_text, "ci.json", &tenancy).is_err(), "{bad_text}");
        }
    }
}
