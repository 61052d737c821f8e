//! The words of the engine's warnings, written from the structured `engine::Notice` (and a
//! key's `KeyReason`); the figures they state are rounded here, for display only (units a
//! second to whole units or 2 decimals, shares to 2 decimals of a percent).

use std::fmt;

use rust_decimal::Decimal;

use crate::engine::notice::{KeyFinding, KeyReason, KeySubject, Notice};
use crate::model::CapacityKind;

/// A number for a warning: whole units, grouped by nothing (the report formats money only).
fn n(x: Decimal) -> Decimal {
    x.round_dp(0).normalize()
}

/// A share as a percentage.
fn pct(x: Decimal) -> Decimal {
    x.checked_mul(Decimal::ONE_HUNDRED)
        .unwrap_or_default()
        .round_dp(2)
        .normalize()
}

fn upper(kind: CapacityKind) -> &'static str {
    match kind {
        CapacityKind::Rcu => "RCU",
        CapacityKind::Wcu => "WCU",
    }
}

impl fmt::Display for KeySubject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KeySubject::Table(name) => write!(f, "the partition key of table `{name}`"),
            KeySubject::Index(index) => write!(f, "the partition key of {index}"),
            KeySubject::Pattern(name) => write!(f, "the key of pattern `{name}`"),
            KeySubject::Named(what) => f.write_str(what),
        }
    }
}

impl fmt::Display for KeyReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = &self.subject;
        match self.finding {
            KeyFinding::HotReads {
                share,
                reads,
                busiest,
            } => write!(
                f,
                "{what} is hot: its busiest value takes {}% of {} RCU/s at the peak hour = {} RCU/s, more than the 3,000 a partition serves — that value throttles whatever the table's capacity (cache its reads, or change the key)",
                pct(share),
                n(reads),
                n(busiest)
            ),
            KeyFinding::HotWrites {
                share,
                writes,
                busiest,
                suffixes,
            } => write!(
                f,
                "{what} is hot: its busiest value takes {}% of {} WCU/s at the peak hour = {} WCU/s, more than the 1,000 a partition serves — write sharding needs at least {} suffixes (value#0 … value#{}), and each read of that value then takes {} queries",
                pct(share),
                n(writes),
                n(busiest),
                suffixes.normalize(),
                suffixes.saturating_sub(Decimal::ONE).normalize(),
                suffixes.normalize()
            ),
            KeyFinding::FewValues {
                distinct,
                needed,
                reads,
                writes,
            } => write!(
                f,
                "{what} has {} distinct values, fewer than the {} partitions its peak ({} RCU/s, {} WCU/s) needs: each value lives in one partition, so the others get no traffic while these throttle",
                distinct.normalize(),
                needed.normalize(),
                n(reads),
                n(writes)
            ),
            KeyFinding::AtRisk {
                share,
                kind,
                busiest,
                limit,
                headroom,
                distinct,
            } => {
                let traffic = match kind {
                    CapacityKind::Rcu => "reads",
                    CapacityKind::Wcu => "writes",
                };
                write!(
                    f,
                    "{what} is at risk: one value takes {}% of its {traffic}",
                    pct(share)
                )?;
                // With no peak known (zero traffic), the units a second say nothing.
                if !busiest.is_zero() {
                    write!(
                        f,
                        " ({} {}/s at the peak hour)",
                        busiest.round_dp(2).normalize(),
                        upper(kind)
                    )?;
                }
                if let Some(d) = distinct {
                    write!(f, " among {} values", d.normalize())?;
                }
                if let Some(h) = headroom {
                    write!(
                        f,
                        "; it reaches a partition's {} at {}× today's peak",
                        limit.normalize(),
                        h.round_dp(1).normalize()
                    )?;
                }
                f.write_str(". That value's partition carries this share of any growth; adaptive capacity cannot split it")
            }
        }
    }
}

impl fmt::Display for Notice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Notice::Placeholders(paths) => write!(
                f,
                "placeholders still to fill (their lines depend on usage): {}",
                paths.join(", ")
            ),
            Notice::OnDemandPeak {
                table,
                kind,
                peak,
                limit,
            } => {
                let unit = match kind {
                    CapacityKind::Rcu => "RRU",
                    CapacityKind::Wcu => "WRU",
                };
                write!(
                    f,
                    "table `{table}`: the peak hour needs {} {unit}/s; a new on-demand table absorbs {} at once (then twice its previous peak), so expect throttling unless it is pre-warmed",
                    n(*peak),
                    limit.normalize()
                )
            }
            Notice::Throttled {
                table,
                gsi,
                kind,
                hours,
                peak,
            } => {
                let upper = upper(*kind);
                match gsi {
                    None => write!(f, "table `{table}`")?,
                    Some(gsi) => write!(f, "GSI `{gsi}`")?,
                }
                write!(
                    f,
                    ": demand exceeds the provisioned {upper} in {hours} hour(s) of the traffic profile (peak {} {upper}/s); requests above it would be throttled",
                    peak.round_dp(2).normalize()
                )
            }
            Notice::NoPlanRate { price, region } => write!(
                f,
                "the Database Savings Plan has no rate for `{price}` in {region}: that usage is billed at list price"
            ),
            Notice::Key(reason) => reason.fmt(f),
            Notice::Note(text) => f.write_str(text),
            Notice::Windowed {
                table,
                index,
                hours,
                month_hours,
            } => write!(
                f,
                "table `{table}`{}: the observed counts were measured over {} h and are priced for a {}-hour month (× {} ÷ {})",
                index
                    .as_ref()
                    .map_or_else(String::new, |i| format!(", GSI `{i}`")),
                hours.normalize(),
                month_hours.normalize(),
                month_hours.normalize(),
                hours.normalize()
            ),
        }
    }
}

/// Each notice in words, in order.
#[must_use]
pub(crate) fn texts(notices: &[Notice]) -> Vec<String> {
    notices.iter().map(ToString::to_string).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::notice::KeySubject;

    fn d(s: &str) -> Decimal {
        s.parse().unwrap()
    }

    fn reason(finding: KeyFinding) -> String {
        KeyReason {
            subject: KeySubject::Named("k".to_string()),
            finding,
        }
        .to_string()
    }

    #[test]
    fn a_hot_write_key_states_its_suffixes() {
        // 94 % of 2,500 WCU/s = 2,350 WCU/s; ⌈2.35⌉ = 3 suffixes, value#0 … value#2.
        let text = reason(KeyFinding::HotWrites {
            share: d("0.94"),
            writes: d("2500"),
            busiest: d("2350"),
            suffixes: d("3"),
        });
        assert!(text.starts_with("k is hot: its busiest value takes 94% of 2500 WCU/s"));
        assert!(text.contains("= 2350 WCU/s"), "{text}");
        assert!(
            text.contains("at least 3 suffixes (value#0 … value#2)"),
            "{text}"
        );
    }

    #[test]
    fn at_risk_rounds_only_for_display() {
        // 71 % of 55 WCU/s = 39.05 WCU/s; 1,000 ÷ 39.05 = 25.608… shown as 25.6.
        let text = reason(KeyFinding::AtRisk {
            share: d("0.71"),
            kind: CapacityKind::Wcu,
            busiest: d("39.05"),
            limit: d("1000"),
            headroom: Some(d("1000") / d("39.05")),
            distinct: Some(d("6")),
        });
        assert!(
            text.contains("71% of its writes (39.05 WCU/s at the peak hour) among 6 values; it reaches a partition's 1000 at 25.6× today's peak."),
            "{text}"
        );
    }

    #[test]
    fn throttling_rounds_the_peak_to_cents_of_a_unit() {
        // A peak of 123.456 RCU/s is shown as 123.46.
        let text = Notice::Throttled {
            table: "orders".into(),
            gsi: Some("by-status".into()),
            kind: CapacityKind::Rcu,
            hours: 3,
            peak: d("123.456"),
        }
        .to_string();
        assert_eq!(
            text,
            "GSI `by-status`: demand exceeds the provisioned RCU in 3 hour(s) of the traffic profile (peak 123.46 RCU/s); requests above it would be throttled"
        );
    }
}
