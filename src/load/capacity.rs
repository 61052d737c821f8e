//! Validating how a workload buys throughput: on-demand or provisioned capacity (fixed or
//! auto scaled, with reserved blocks), and traffic profiles that shape demand over a day or a
//! week.

use rust_decimal::Decimal;

use super::quantity::{parse_count, parse_share};
use super::raw::*;
use super::workload::Cx;
use super::yaml::{self, position};
use crate::error::Error;
use crate::model::*;

impl Cx<'_> {
    pub(super) fn capacity(
        &self,
        c: Option<&RawCapacity>,
        path: &str,
        class: TableClass,
    ) -> Result<CapacityMode, Error> {
        let Some(c) = c else {
            return Ok(CapacityMode::OnDemand);
        };
        let rcu = self.count(c.rcu.as_ref(), &format!("{path}.rcu"))?;
        let wcu = self.count(c.wcu.as_ref(), &format!("{path}.wcu"))?;
        if c.mode.value == RawMode::OnDemand {
            if rcu.is_some() || wcu.is_some() || c.auto_scaling.is_some() {
                return Err(self.err(
                    path,
                    position(&c.mode),
                    "an on-demand table has no provisioned `rcu`/`wcu` or `auto_scaling`",
                    "Consider `mode: provisioned`, or removing them.",
                ));
            }
            if let Some(r) = &c.reserved {
                return Err(self.err(&format!("{path}.reserved"), position(&r.term), "reserved capacity is not offered for on-demand tables", "Consider `mode: provisioned`: reserved capacity discounts provisioned Standard-class capacity only."));
            }
            return Ok(CapacityMode::OnDemand);
        }
        let (read, write) = match (rcu, wcu, &c.auto_scaling) {
            (Some(rcu), Some(wcu), None) => (Capacity::Fixed(rcu), Capacity::Fixed(wcu)),
            (None, None, Some(a)) => self.auto_scaling(a, &format!("{path}.auto_scaling"))?,
            (_, _, Some(_)) => {
                return Err(self.err(path, position(&c.mode), "a provisioned table has either fixed `rcu` and `wcu` or `auto_scaling`, not both", "Consider removing `rcu`/`wcu` (auto scaling sizes capacity hour by hour)."));
            }
            _ => {
                return Err(self.err(path, position(&c.mode), "a provisioned table needs both `rcu` and `wcu`, or `auto_scaling`", "Consider `rcu: 100` and `wcu: 50` (units per second), or `auto_scaling: { target: 70% }`."));
            }
        };
        let reserved = match &c.reserved {
            None => None,
            Some(r) => {
                let rpath = format!("{path}.reserved");
                if class == TableClass::StandardIa {
                    return Err(self.err(
                        &rpath,
                        position(&r.term),
                        "reserved capacity is not offered for Standard-IA tables",
                        "Consider `class: standard`, or no reservation.",
                    ));
                }
                let block = |s: Option<&Scalar>, field: &str| -> Result<Decimal, Error> {
                    let units = self
                        .count(s, &format!("{rpath}.{field}"))?
                        .unwrap_or_default();
                    if !(units % Decimal::from(100)).is_zero() {
                        return Err(self.err(
                            &format!("{rpath}.{field}"),
                            s.and_then(position),
                            format!(
                                "reserved capacity is sold in blocks of 100 units, not {}",
                                units.normalize()
                            ),
                            "Consider a multiple of 100, e.g. `200`.",
                        ));
                    }
                    Ok(units)
                };
                let (rcu, wcu) = (block(r.rcu.as_ref(), "rcu")?, block(r.wcu.as_ref(), "wcu")?);
                if rcu.is_zero() && wcu.is_zero() {
                    return Err(self.err(
                        &rpath,
                        position(&r.term),
                        "a reservation of no units",
                        "Consider `rcu: 100` or `wcu: 100`.",
                    ));
                }
                Some(Reserved {
                    rcu,
                    wcu,
                    term: match r.term.value {
                        RawTerm::OneYear => ReservedTerm::OneYear,
                        RawTerm::ThreeYears => ReservedTerm::ThreeYears,
                    },
                })
            }
        };
        Ok(CapacityMode::Provisioned(ProvisionedCapacity {
            read,
            write,
            reserved,
        }))
    }

    /// Auto scaling for reads and writes: target utilization 20–90 % (default 70 %),
    /// min and max units (default 1 and 40,000, AWS's defaults).
    pub(super) fn auto_scaling(
        &self,
        a: &RawAutoScaling,
        path: &str,
    ) -> Result<(Capacity, Capacity), Error> {
        let target = match &a.target {
            Some(t) => {
                let target = self.scalar(
                    t,
                    &format!("{path}.target"),
                    parse_share,
                    "a target utilization such as `70%`",
                )?;
                if target < Decimal::new(2, 1) || target > Decimal::new(9, 1) {
                    return Err(self.err(
                        &format!("{path}.target"),
                        position(t),
                        format!("target utilization `{}` is outside 20–90 %", t.value),
                        "Consider a target between 20% and 90% (AWS's range); 70% is the default.",
                    ));
                }
                target
            }
            None => Decimal::new(7, 1),
        };
        let bound = |s: Option<&Scalar>, field: &str, default: u32| -> Result<Decimal, Error> {
            Ok(self
                .count(s, &format!("{path}.{field}"))?
                .unwrap_or_else(|| Decimal::from(default)))
        };
        let mut out = Vec::new();
        for (min, max, kind) in [
            (&a.min_rcu, &a.max_rcu, "rcu"),
            (&a.min_wcu, &a.max_wcu, "wcu"),
        ] {
            let (lo, hi) = (
                bound(min.as_ref(), &format!("min_{kind}"), 1)?,
                bound(max.as_ref(), &format!("max_{kind}"), 40_000)?,
            );
            if lo > hi || hi.is_zero() {
                return Err(self.err(
                    &format!("{path}.max_{kind}"),
                    max.as_ref().and_then(position),
                    format!(
                        "`max_{kind}` {} is below `min_{kind}` {} (or zero)",
                        hi.normalize(),
                        lo.normalize()
                    ),
                    "Consider a maximum at least the minimum.",
                ));
            }
            out.push(Capacity::AutoScaling {
                target,
                min: lo,
                max: hi,
            });
        }
        Ok((out[0], out[1]))
    }

    /// A traffic profile, normalized to a mean multiplier of 1.
    pub(super) fn traffic(
        &self,
        t: &yaml::Spanned<RawTraffic>,
        path: &str,
    ) -> Result<TrafficProfile, Error> {
        let pos = position(t);
        let raw = &t.value;
        let given = [
            raw.flat.is_some(),
            raw.peak.is_some(),
            raw.hourly.is_some(),
            raw.weekly.is_some(),
        ]
        .iter()
        .filter(|g| **g)
        .count();
        if given != 1 {
            return Err(self.err(path, pos, "a traffic profile needs exactly one of `flat`, `peak`, `hourly` or `weekly`", "Consider `traffic: { peak: { multiplier: 3, hours: 4, start: 18 } }` or 24 `hourly` multipliers."));
        }
        let multiplier = |s: &Scalar, p: &str| {
            self.scalar(
                s,
                p,
                super::quantity::parse_money,
                "a non-negative multiplier such as `1.5`",
            )
        };
        let day = |values: &Vec<Scalar>, p: &str| -> Result<Vec<Decimal>, Error> {
            if values.len() != 24 {
                return Err(self.err(
                    p,
                    pos,
                    format!("{} hourly multipliers; a day has 24", values.len()),
                    "Consider one multiplier per hour, 0:00 to 23:00 UTC.",
                ));
            }
            values
                .iter()
                .enumerate()
                .map(|(h, v)| multiplier(v, &format!("{p}[{h}]")))
                .collect()
        };
        let hourly: Vec<Decimal> = if raw.flat.is_some() {
            vec![Decimal::ONE; 24]
        } else if let Some(peak) = &raw.peak {
            let m = multiplier(&peak.multiplier, &format!("{path}.peak.multiplier"))?;
            let hours = self.scalar(
                &peak.hours,
                &format!("{path}.peak.hours"),
                parse_count,
                "a number of hours between 1 and 23",
            )?;
            let start = match &peak.start {
                Some(s) => self.scalar(
                    s,
                    &format!("{path}.peak.start"),
                    parse_count,
                    "an hour of the day, 0 to 23",
                )?,
                None => Decimal::ZERO,
            };
            if hours < Decimal::ONE
                || hours > Decimal::from(23)
                || !hours.fract().is_zero()
                || start > Decimal::from(23)
                || !start.fract().is_zero()
            {
                return Err(self.err(
                    &format!("{path}.peak"),
                    pos,
                    "peak `hours` must be a whole 1–23 and `start` a whole 0–23",
                    "Consider `peak: { multiplier: 3, hours: 4, start: 18 }`.",
                ));
            }
            let (hours, start) = (
                u32::try_from(hours.mantissa()).unwrap_or(0),
                u32::try_from(start.mantissa()).unwrap_or(0),
            );
            (0..24u32)
                .map(|h| {
                    if (h + 24 - start) % 24 < hours {
                        m
                    } else {
                        Decimal::ONE
                    }
                })
                .collect()
        } else if let Some(values) = &raw.hourly {
            day(values, &format!("{path}.hourly"))?
        } else if let Some(w) = &raw.weekly {
            let mut all = Vec::with_capacity(168);
            for (name, values) in [
                ("mon", &w.mon),
                ("tue", &w.tue),
                ("wed", &w.wed),
                ("thu", &w.thu),
                ("fri", &w.fri),
                ("sat", &w.sat),
                ("sun", &w.sun),
            ] {
                all.extend(day(values, &format!("{path}.weekly.{name}"))?);
            }
            all
        } else {
            unreachable!("one profile kind is given")
        };
        let sum: Decimal = hourly.iter().sum();
        if sum.is_zero() {
            return Err(self.err(
                path,
                pos,
                "a traffic profile whose multipliers are all zero",
                "Consider multipliers relative to an ordinary hour (1 = average).",
            ));
        }
        let mean = sum / Decimal::from(hourly.len());
        Ok(TrafficProfile {
            hourly: hourly.into_iter().map(|m| m / mean).collect(),
        })
    }
}
