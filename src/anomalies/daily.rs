//! A bill day by day: every DynamoDB row (CUR 2.0, legacy CUR, FOCUS — what `bill` reads,
//! each data file once) summed per table (or the account), region, meter and UTC day, its
//! usage amount and unblended cost exact. Credits, refunds and taxes are left out (they
//! explain no usage); commitments' fees are kept (their end is a jump).

use std::collections::BTreeMap;

use rust_decimal::Decimal;

use crate::bill::map::{Owner, place};
use crate::bill::row::{Charge, Row};
use crate::engine::Component;
use crate::error::Error;

/// A series' identity: the table (`None`: the account), the region, the meter.
pub(crate) type Meter = (Option<String>, String, String);

/// A day's usage amount and unblended cost.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Day {
    pub(crate) amount: Decimal,
    pub(crate) cost: Decimal,
}

/// Every meter's days, and the span they cover.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Daily {
    /// Per meter, per day (days since 1970-01-01, UTC).
    pub(crate) series: BTreeMap<Meter, BTreeMap<i64, Day>>,
    pub(crate) currency: Option<String>,
    /// The first and last day any row falls on.
    pub(crate) span: Option<(i64, i64)>,
    /// Rows left out, and why, by count.
    pub(crate) left_out: BTreeMap<&'static str, u64>,
    /// What each meter bills (reads, writes, storage…), as the bill's rules map it.
    pub(crate) components: BTreeMap<Meter, Component>,
}

impl Daily {
    /// Adds a row (named `file` in errors).
    ///
    /// # Errors
    /// A second currency; a sum past a decimal's range.
    pub(crate) fn add(&mut self, row: &Row, file: &str) -> Result<(), Error> {
        let mut skip = |why: &'static str| {
            let n = self.left_out.entry(why).or_default();
            *n = n.saturating_add(1);
            Ok(())
        };
        if !crate::bill::ledger::is_dynamodb(&row.product) {
            return skip("rows of other services");
        }
        if matches!(row.charge, Charge::Credit | Charge::Refund | Charge::Tax) {
            return skip("credits, refunds and taxes");
        }
        let Ok(p) = place(row) else {
            return skip("rows of a usage type no rule maps");
        };
        match &self.currency {
            Some(c) if *c != row.currency && !row.currency.is_empty() => {
                return Err(Error::input(format!(
                    "the bill is in {c} and in {}: a daily series needs one currency",
                    row.currency
                ))
                .file(file)
                .help("Consider the files of one payer account and currency."));
            }
            None if !row.currency.is_empty() => self.currency = Some(row.currency.clone()),
            _ => {}
        }
        let day = row.start.div_euclid(86_400);
        self.span = Some(match self.span {
            Some((a, b)) => (a.min(day), b.max(day)),
            None => (day, day),
        });
        let table = match p.owner {
            Owner::Table(t) => Some(t),
            Owner::Account => None,
        };
        let meter = (table, p.region, p.meter);
        if !self.components.contains_key(&meter) {
            self.components.insert(meter.clone(), p.component);
        }
        let d = self
            .series
            .entry(meter)
            .or_default()
            .entry(day)
            .or_default();
        let overflow = || Error::input("a day's usage past what a decimal holds").file(file);
        d.amount = d.amount.checked_add(row.amount).ok_or_else(overflow)?;
        d.cost = d.cost.checked_add(row.unblended).ok_or_else(overflow)?;
        Ok(())
    }
}

/// Reads `inputs` (files or delivery folders, each data file once) day by day; the notes on
/// files counted once.
///
/// # Errors
/// What the bill readers refuse; several currencies; no DynamoDB row.
pub(crate) fn read(inputs: &[String]) -> Result<(Daily, Vec<String>), Error> {
    let (files, notes) = crate::bill::data_files(inputs)?;
    let mut daily = Daily::default();
    for file in files {
        let name = file.display().to_string();
        let mut sink = |row: &Row| daily.add(row, &name);
        crate::bill::read::read(&file, &mut sink)?;
    }
    if daily.series.is_empty() {
        return Err(Error::input("no DynamoDB usage in the bill")
            .help("Consider the CUR 2.0, legacy CUR or FOCUS files of the account that runs the tables, at daily or hourly granularity."));
    }
    Ok((daily, notes))
}
