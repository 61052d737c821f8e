//! Validating how a workload buys throughput: on-demand or provisioned capacity (fixed or
//! auto scaled, with reserved blocks), and traffic profiles that shape demand over a day or a
//! week.

use rust_decimal::Decimal;

use super::context::Reader;
use super::quantity::parse_share;
use super::raw::*;
use super::yaml::{self, position};
use crate::error::Error;
use crate::model::*;

pub(super) fn capacity(
    rd: &Reader<'_>,
    c: Option<&RawCapacity>,
    path: &str,
    class: TableClass,
) -> Result<CapacityMode, Error> {
    let Some(c) = c else {
        return Ok(CapacityMode::OnDemand);
    };
    let units = stated_units(rd, c.rcu.as_ref(), c.wcu.as_ref(), path)?;
    if c.mode.value == RawMode::OnDemand {
        if units.any() || c.auto_scaling.is_some() {
            return Err(rd.err(
                path,
                position(&c.mode),
                "an on-demand table has no provisioned `rcu`/`wcu` or `auto_scaling`",
                "Consider `mode: provisioned`, or removing them.",
            ));
        }
        if let Some(r) = &c.reserved {
            return Err(rd.err(&format!("{path}.reserved"), position(&r.term), "reserved capacity is not offered for on-demand tables", "Consider `mode: provisioned`: reserved capacity discounts provisioned Standard-class capacity only."));
        }
        return Ok(CapacityMode::OnDemand);
    }
    let (Some(read), Some(write)) = units.dimensions(rd, c.auto_scaling.as_ref(), path)? else {
        return Err(rd.err(path, position(&c.mode), "a provisioned table needs both `rcu` and `wcu`, or `auto_scaling` for the dimension not fixed", "Consider `rcu: 100` and `wcu: 50` (units per second), or `auto_scaling: { target: 70% }` (both dimensions, or the one without fixed units)."));
    };
    let reserved = match &c.reserved {
        None => None,
        Some(r) => {
            let rpath = format!("{path}.reserved");
            if class == TableClass::StandardIa {
                return Err(rd.err(
                    &rpath,
                    position(&r.term),
                    "reserved capacity is not offered for Standard-IA tables",
                    "Consider `class: standard`, or no reservation.",
                ));
            }
            let block = |s: Option<&Quantity>, field: &str| -> Result<Decimal, Error> {
                let units = rd
                    .whole(s, &format!("{rpath}.{field}"), "reserved capacity")?
                    .unwrap_or_default();
                if !units
                    .checked_rem(Decimal::ONE_HUNDRED)
                    .is_some_and(|r| r.is_zero())
                {
                    return Err(rd.err(
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
                return Err(rd.err(
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

/// The `rcu` and `wcu` stated at `path` (a table's capacity or a GSI), each a number of
/// units or a placeholder.
pub(super) fn stated_units(
    rd: &Reader<'_>,
    rcu: Option<&Quantity>,
    wcu: Option<&Quantity>,
    path: &str,
) -> Result<StatedUnits, Error> {
    let (rpath, wpath) = (format!("{path}.rcu"), format!("{path}.wcu"));
    let (read, write) = (
        units(rd, rcu, &rpath, "`rcu`")?,
        units(rd, wcu, &wpath, "`wcu`")?,
    );
    Ok(StatedUnits {
        read,
        write,
        read_todo: rd.is_placeholder(&rpath),
        write_todo: rd.is_placeholder(&wpath),
    })
}

/// Reads and writes, each on its own: fixed units where `rcu`/`wcu` is given, auto scaling
/// where it is not and `auto_scaling` is (AWS scales reads and writes with separate
/// scalable targets), `None` where neither is given.
pub(super) fn dimensions(
    rd: &Reader<'_>,
    rcu: Option<Decimal>,
    wcu: Option<Decimal>,
    auto_scaling: Option<&RawAutoScaling>,
    path: &str,
) -> Result<(Option<Capacity>, Option<Capacity>), Error> {
    let Some(a) = auto_scaling else {
        return Ok((rcu.map(Capacity::Fixed), wcu.map(Capacity::Fixed)));
    };
    let apath = format!("{path}.auto_scaling");
    if rcu.is_some() && wcu.is_some() {
        return Err(rd.err(&apath, None, "`auto_scaling` scales nothing: both `rcu` and `wcu` are fixed", "Consider removing `rcu` or `wcu` for the dimension to scale, or removing `auto_scaling`."));
    }
    for (fixed, kind, bounds) in [
        (rcu.is_some(), "rcu", [&a.min_rcu, &a.max_rcu]),
        (wcu.is_some(), "wcu", [&a.min_wcu, &a.max_wcu]),
    ] {
        if fixed && bounds.iter().any(|b| b.is_some()) {
            return Err(rd.err(
                &apath,
                None,
                format!("`auto_scaling` bounds `{kind}`, which `{kind}` fixes"),
                format!("Consider removing `{kind}` to scale it, or `min_{kind}`/`max_{kind}`."),
            ));
        }
    }
    // A `target` that no dimension takes (each has its own, or is fixed) would change
    // nothing: a scenario setting it would silently do nothing.
    if let Some(t) = &a.target {
        let mut overriders = Vec::new();
        for (fixed, own, kind) in [
            (rcu.is_some(), a.target_rcu.is_some(), "rcu"),
            (wcu.is_some(), a.target_wcu.is_some(), "wcu"),
        ] {
            match (fixed, own) {
                (true, _) => overriders.push(format!("`{kind}` is fixed")),
                (false, true) => overriders.push(format!("`target_{kind}` sets its own")),
                (false, false) => {}
            }
        }
        if overriders.len() == 2 {
            return Err(rd.err(
                    &format!("{apath}.target"),
                    position(t),
                    format!(
                        "`target` applies to neither dimension: {}",
                        overriders.join(" and ")
                    ),
                    "Consider changing `target_rcu`/`target_wcu` instead (or removing them so that `target` applies).",
                ));
        }
    }
    let (scaled_read, scaled_write) = self::auto_scaling(rd, a, &apath)?;
    Ok((
        Some(rcu.map_or(scaled_read, Capacity::Fixed)),
        Some(wcu.map_or(scaled_write, Capacity::Fixed)),
    ))
}

/// Auto scaling for reads and writes: target utilization 20–90 % (default 70 %),
/// min and max units (default 1 and 40,000, AWS's defaults).
pub(super) fn auto_scaling(
    rd: &Reader<'_>,
    a: &RawAutoScaling,
    path: &str,
) -> Result<(Capacity, Capacity), Error> {
    let target_of = |t: Option<&Quantity>, field: &str| -> Result<Option<Decimal>, Error> {
        let Some(t) = t else { return Ok(None) };
        let target = rd.scalar(
            t,
            &format!("{path}.{field}"),
            parse_share,
            "a target utilization such as `70%`",
        )?;
        if target < Decimal::new(2, 1) || target > Decimal::new(9, 1) {
            return Err(rd.err(
                &format!("{path}.{field}"),
                position(t),
                format!("target utilization `{}` is outside 20–90 %", t.value),
                "Consider a target between 20% and 90% (AWS's range); 70% is the default.",
            ));
        }
        Ok(Some(target))
    };
    let target = target_of(a.target.as_ref(), "target")?.unwrap_or(Decimal::new(7, 1));
    let targets = [
        target_of(a.target_rcu.as_ref(), "target_rcu")?.unwrap_or(target),
        target_of(a.target_wcu.as_ref(), "target_wcu")?.unwrap_or(target),
    ];
    let bound = |s: Option<&Quantity>, field: &str, default: u32| -> Result<Decimal, Error> {
        Ok(
            units(rd, s, &format!("{path}.{field}"), &format!("`{field}`"))?
                .unwrap_or_else(|| Decimal::from(default)),
        )
    };
    let mut out = Vec::new();
    for (min, max, kind, target) in [
        (&a.min_rcu, &a.max_rcu, "rcu", targets[0]),
        (&a.min_wcu, &a.max_wcu, "wcu", targets[1]),
    ] {
        let (lo, hi) = (
            bound(min.as_ref(), &format!("min_{kind}"), 1)?,
            bound(max.as_ref(), &format!("max_{kind}"), 40_000)?,
        );
        if lo > hi || hi.is_zero() {
            return Err(rd.err(
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

/// A peak's hourly profile: `hours` from `start` at a multiple of the off-peak hours or
/// of the day's average.
fn peak(
    rd: &Reader<'_>,
    peak: &RawPeak,
    path: &str,
    pos: Option<(u64, u64)>,
) -> Result<Vec<Decimal>, Error> {
    let multiplier = |s: &Quantity, p: &str| {
        rd.scalar(
            s,
            p,
            super::quantity::parse_money,
            "a non-negative multiplier such as `1.5`",
        )
    };
    let ppath = format!("{path}.peak");
    let factor = match (&peak.times_off_peak, &peak.times_average, &peak.multiplier) {
        (Some(m), None, None) => {
            PeakFactor::OffPeak(multiplier(m, &format!("{ppath}.times_off_peak"))?)
        }
        (None, Some(m), None) => {
            PeakFactor::Average(multiplier(m, &format!("{ppath}.times_average"))?)
        }
        (None, None, Some(m)) => {
            return Err(rd.err(&format!("{ppath}.multiplier"), position(m), "`multiplier` is ambiguous: a multiple of the off-peak hours, or of the day's average?", format!("Consider `times_off_peak: {v}` (each peak hour carries {v}× an off-peak hour's traffic) or `times_average: {v}` ({v}× the day's average hour).", v = m.value.trim())));
        }
        _ => {
            return Err(rd.err(
                &ppath,
                pos,
                "a peak needs exactly one of `times_off_peak` or `times_average`",
                "Consider `peak: { times_average: 3, hours: 4, start: 18 }`.",
            ));
        }
    };
    let hours = rd
        .whole(
            Some(&peak.hours),
            &format!("{path}.peak.hours"),
            "peak `hours`",
        )?
        .and_then(|h| u32::try_from(h.mantissa()).ok())
        .unwrap_or(0);
    let start = rd
        .whole(
            peak.start.as_ref(),
            &format!("{path}.peak.start"),
            "peak `start`",
        )?
        .map_or(Some(0), |h| u32::try_from(h.mantissa()).ok())
        .unwrap_or(u32::MAX);
    if !(1..=23).contains(&hours) || start > 23 {
        return Err(rd.err(
            &format!("{path}.peak"),
            pos,
            "peak `hours` must be a whole 1–23 and `start` a whole 0–23",
            "Consider `peak: { times_average: 3, hours: 4, start: 18 }`.",
        ));
    }
    let (m, off) = match factor {
        PeakFactor::OffPeak(m) => (m, Decimal::ONE),
        PeakFactor::Average(m) => {
            // Peak hours at m × the average leave (24 − m·h) for the 24 − h others.
            let peak_share = m.checked_mul(Decimal::from(hours));
            let day = Decimal::from(24);
            let rest = peak_share.and_then(|p| day.checked_sub(p));
            match rest {
                Some(rest) if rest >= Decimal::ZERO => {
                    let off = rest
                        .checked_div(Decimal::from(24u32.saturating_sub(hours)))
                        .unwrap_or_default();
                    if off.is_zero() {
                        return Err(rd.err(
                            &format!("{ppath}.times_average"),
                            pos,
                            "a peak that carries the whole day leaves no off-peak traffic",
                            "Consider an `hourly` profile with zeros where there is no traffic.",
                        ));
                    }
                    (m, off)
                }
                _ => {
                    return Err(rd.err(&format!("{ppath}.times_average"), pos, format!("{} hours at {}× the average are more than a day's traffic", hours, m.normalize()), "Consider `times_average` × `hours` at most 24 (the day's traffic is 24 average hours)."));
                }
            }
        }
    };
    Ok(peak_profile(m, off, hours, start))
}

/// A traffic profile, normalized to a mean multiplier of 1.
pub(super) fn traffic(
    rd: &Reader<'_>,
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
        return Err(rd.err(path, pos, "a traffic profile needs exactly one of `flat`, `peak`, `hourly` or `weekly`", "Consider `traffic: { peak: { times_average: 3, hours: 4, start: 18 } }` or 24 `hourly` multipliers."));
    }
    let multiplier = |s: &Quantity, p: &str| {
        rd.scalar(
            s,
            p,
            super::quantity::parse_money,
            "a non-negative multiplier such as `1.5`",
        )
    };
    let day = |values: &Vec<Quantity>, p: &str| -> Result<Vec<Decimal>, Error> {
        if values.len() != 24 {
            return Err(rd.err(
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
    // `flat: false` would say only what the profile is not: refused, not read as flat.
    if let Some(false) = raw.flat {
        return Err(rd.err(
                &format!("{path}.flat"),
                pos,
                "`flat: false` does not say how the traffic spreads",
                "Consider `traffic: { peak: { times_average: 3, hours: 4, start: 18 } }`, 24 `hourly` multipliers, or `flat: true`.",
            ));
    }
    let hourly: Vec<Decimal> = if raw.flat.is_some() {
        vec![Decimal::ONE; 24]
    } else if let Some(peak) = &raw.peak {
        self::peak(rd, peak, path, pos)?
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
    let sum = hourly
        .iter()
        .try_fold(Decimal::ZERO, |acc, m| acc.checked_add(*m))
        .ok_or_else(|| {
            rd.err(
                path,
                pos,
                "traffic multipliers too large to add up exactly",
                "Consider multipliers relative to an ordinary hour (1 = average), e.g. `3`.",
            )
        })?;
    if sum.is_zero() {
        return Err(rd.err(
            path,
            pos,
            "a traffic profile whose multipliers are all zero",
            "Consider multipliers relative to an ordinary hour (1 = average).",
        ));
    }
    // Normalized to a mean of 1, so that a profile shapes the month's traffic without
    // changing its total: m × n / sum (multiply first; exact for whole multipliers).
    let n = Decimal::from(hourly.len());
    let too_large = || {
        rd.err(
            path,
            pos,
            "traffic multipliers too far apart to normalize exactly",
            "Consider multipliers relative to an ordinary hour (1 = average), e.g. `3`.",
        )
    };
    let hourly = hourly
        .into_iter()
        .map(|m| m.checked_mul(n).and_then(|x| x.checked_div(sum)))
        .collect::<Option<Vec<Decimal>>>()
        .ok_or_else(too_large)?;
    Ok(TrafficProfile { hourly })
}

/// Provisioned capacity units (`rcu`, `wcu`, auto-scaling bounds): whole, at least 1
/// (AWS refuses 0 and fractions).
pub(super) fn units(
    rd: &Reader<'_>,
    s: Option<&Quantity>,
    path: &str,
    what: &str,
) -> Result<Option<Decimal>, Error> {
    let units = rd.whole(s, path, what)?;
    if units.is_some_and(|u| u < Decimal::ONE) {
        return Err(rd.err(
            path,
            s.and_then(position),
            format!("{what} must be at least 1 (AWS's minimum for provisioned capacity)"),
            "Consider `1` or more, or on-demand capacity for a table with no traffic.",
        ));
    }
    Ok(units)
}

/// Provisioned units as a workload states them: a number, a placeholder (`TODO`, as
/// `import` writes for a capacity its template does not resolve), or nothing.
pub(super) struct StatedUnits {
    pub(super) read: Option<Decimal>,
    pub(super) write: Option<Decimal>,
    read_todo: bool,
    write_todo: bool,
}

impl StatedUnits {
    /// Whether anything is stated, a placeholder included.
    pub(super) fn any(&self) -> bool {
        self.read.is_some() || self.write.is_some() || self.read_todo || self.write_todo
    }

    /// `dimensions` of these units, a placeholder standing for fixed units not yet known
    /// (`Capacity::Unknown`: auto scaling does not take that dimension).
    pub(super) fn dimensions(
        &self,
        rd: &Reader<'_>,
        auto_scaling: Option<&RawAutoScaling>,
        path: &str,
    ) -> Result<(Option<Capacity>, Option<Capacity>), Error> {
        let stand_in = |units: Option<Decimal>, todo: bool| units.or(todo.then_some(Decimal::ONE));
        let (read, write) = dimensions(
            rd,
            stand_in(self.read, self.read_todo),
            stand_in(self.write, self.write_todo),
            auto_scaling,
            path,
        )?;
        let unknown =
            |c: Option<Capacity>, todo: bool| if todo { Some(Capacity::Unknown) } else { c };
        Ok((
            unknown(read, self.read_todo),
            unknown(write, self.write_todo),
        ))
    }
}

/// How a peak's size is stated.
enum PeakFactor {
    /// Each peak hour is m × an off-peak hour.
    OffPeak(Decimal),
    /// Each peak hour is m × the day's average hour.
    Average(Decimal),
}

/// A day with a peak of `hours` hours from `start` (UTC, wrapping past midnight) at
/// `peak`, the other hours at `off`.
fn peak_profile(peak: Decimal, off: Decimal, hours: u32, start: u32) -> Vec<Decimal> {
    (0..24u32)
        .map(|h| {
            // Hours since the peak started, modulo a day: both operands are below 24.
            let since = h
                .checked_sub(start)
                .unwrap_or_else(|| h.saturating_add(24).saturating_sub(start));
            if since < hours { peak } else { off }
        })
        .collect()
}
