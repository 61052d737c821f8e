//! The words of every line item's label, written from the structured `engine::Label` the
//! engine returns; the figures a label states are rounded here, for display only (a cover
//! amount to 2 decimals, a percentage to 1, an item count to whole items).

use std::fmt;

use rust_decimal::Decimal;

use crate::engine::label::{FreeAllowance, IndexRef, Label, PlanShape, StreamReader};
use crate::model::CapacityKind;

fn upper(kind: CapacityKind) -> &'static str {
    match kind {
        CapacityKind::Rcu => "RCU",
        CapacityKind::Wcu => "WCU",
    }
}

/// A share as a percentage with up to one decimal.
fn percent(share: Decimal) -> Decimal {
    share
        .checked_mul(Decimal::ONE_HUNDRED)
        .unwrap_or_default()
        .round_dp(1)
        .normalize()
}

impl fmt::Display for IndexRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} `{}`", self.kind.upper(), self.name)
    }
}

impl fmt::Display for PlanShape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            PlanShape::Fixed { units, hours } => {
                write!(f, "{} × {} h", units.normalize(), hours.normalize())
            }
            PlanShape::Unknown => f.write_str("units still to fill: TODO"),
            PlanShape::AutoScaling {
                target,
                min,
                max,
                average,
            } => write!(
                f,
                "auto scaling at {} % target, {}–{} units, averaging {}",
                crate::engine::percent(target)
                    .unwrap_or_default()
                    .normalize(),
                min.normalize(),
                max.normalize(),
                average.round_dp(1).normalize()
            ),
        }
    }
}

impl fmt::Display for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Label::Requests {
                index,
                kind,
                derived,
            } => requests(f, index.as_ref(), *kind, *derived),
            Label::Provisioned {
                kind,
                table,
                gsi,
                plan,
                reserved,
            } => provisioned(f, *kind, table, gsi.as_deref(), plan, *reserved),
            Label::TableReservedUpfront { kind, term, paid } => write!(
                f,
                "Reserved {}, {} upfront: {} paid once, amortized over {} months",
                upper(*kind),
                term.name(),
                paid.normalize(),
                term.months()
            ),
            Label::TableReservedHourly {
                kind,
                term,
                blocks,
                hours,
            } => write!(
                f,
                "Reserved {}, {} hourly fee ({} × 100 units × {} h)",
                upper(*kind),
                term.name(),
                blocks.normalize(),
                hours.normalize()
            ),
            Label::TableStorage { class, ttl } => {
                write!(f, "Table storage ({})", class.name())?;
                ttl.map_or(Ok(()), |t| {
                    write!(
                        f,
                        " — {} items: {} inserts a month kept {} (TTL)",
                        t.items.round_dp(0).normalize(),
                        t.inserts.round_dp(0).normalize(),
                        t.ttl.describe()
                    )
                })
            }
            Label::IndexStorage(index) => write!(f, "{index} storage"),
            Label::Pitr => f.write_str("Point-in-time recovery (table + LSIs)"),
            Label::Backups { retained, taken } => {
                write!(
                    f,
                    "On-demand backups ({} retained, table + LSIs",
                    retained.normalize()
                )?;
                match taken {
                    Some((day, hours)) => write!(
                        f,
                        "; taken on day {}: billed {} h of the month)",
                        day.normalize(),
                        hours.round_dp(4).normalize()
                    ),
                    None => f.write_str(")"),
                }
            }
            Label::BackupsStated => f.write_str("On-demand backups (storage as stated)"),
            Label::RestoresStated => f.write_str("Restores (data restored a month, as stated)"),
            Label::Restores { per_month } => write!(
                f,
                "Restores ({} a month, table + all indexes)",
                per_month.normalize()
            ),
            Label::Exports => f.write_str("Exports to S3 (full + incremental data processed)"),
            Label::Imports => f.write_str("Import from S3 (uncompressed source)"),
            Label::TtlDeletes => f.write_str("TTL deletes (free; index removals free too)"),
            Label::StreamReads(reader) => stream_reads(f, reader),
            Label::KinesisCdc => f.write_str("Kinesis Data Streams change data capture units"),
            Label::ReplicatedRequests { region, index } => match index {
                None => write!(f, "Replicated write request units in {region}"),
                Some(index) => write!(f, "{index} write request units in {region}"),
            },
            Label::InsightsRules { .. }
            | Label::InsightsEvents { .. }
            | Label::GlobalWrites { .. }
            | Label::GlobalWcu { .. } => global_or_insights(f, self),
            Label::ReplicatedWcu { region, plan } => {
                write!(f, "Replicated WCU in {region} ({plan})")
            }
            Label::ReplicaRcu { region, plan } => write!(f, "Provisioned RCU in {region} ({plan})"),
            Label::ReplicaGsiWcu { region, index } => {
                write!(f, "GSI `{index}` provisioned WCU in {region}")
            }
            Label::ReplicaStorage { region } => {
                write!(f, "Replica storage in {region} (table + indexes)")
            }
            Label::ReplicationTransfer { from, to } => {
                write!(f, "Replication transfer {from} → {to}")
            }
            Label::TransferOut
            | Label::TransferOutTier { .. }
            | Label::Dax { .. }
            | Label::VectorStorage { .. }
            | Label::VectorWrites { .. }
            | Label::VectorSearches { .. } => beside(f, self),
            Label::FreeTier { .. }
            | Label::PoolUpfront { .. }
            | Label::PoolHourly { .. }
            | Label::PoolCovered { .. }
            | Label::SavingsPlanCommitment { .. }
            | Label::SavingsPlanCovers { .. } => commitment(f, self),
            Label::Text(text) => f.write_str(text),
        }
    }
}

/// A global table's own-region writes, and Contributor Insights' lines.
fn global_or_insights(f: &mut fmt::Formatter<'_>, label: &Label) -> fmt::Result {
    match label {
        Label::InsightsRules { index, rules } => write!(
            f,
            "Contributor Insights on {}: {rules} rules (most accessed and most throttled keys)",
            index
                .as_ref()
                .map_or_else(|| "the table".to_string(), |i| format!("GSI `{i}`"))
        ),
        Label::InsightsEvents {
            index,
            requests,
            rules,
        } => write!(
            f,
            "Contributor Insights events on {}: {} requests a month × {} most-accessed rule(s) (throttled-key rules match only throttled requests: none estimated)",
            index
                .as_ref()
                .map_or_else(|| "the table".to_string(), |i| format!("GSI `{i}`")),
            super::money::quantity(*requests),
            rules / 2
        ),
        Label::GlobalWrites { region, derived } => {
            write!(
                f,
                "Replicated write request units in {region} (a global table's writes, its own region's too)"
            )?;
            match derived {
                Some(d) => write!(f, " (observed; patterns derive {})", d.normalize()),
                None => Ok(()),
            }
        }
        Label::GlobalWcu { region, plan } => write!(
            f,
            "Replicated WCU in {region} ({plan}; a global table's writes, its own region's too; no reservation covers rWCU)"
        ),
        _ => Ok(()),
    }
}

fn requests(
    f: &mut fmt::Formatter<'_>,
    index: Option<&IndexRef>,
    kind: CapacityKind,
    derived: Option<Decimal>,
) -> fmt::Result {
    let what = match kind {
        CapacityKind::Rcu => "read",
        CapacityKind::Wcu => "write",
    };
    match index {
        None if kind == CapacityKind::Rcu => f.write_str("Read request units")?,
        None => f.write_str("Write request units")?,
        Some(index) => write!(f, "{index} {what} request units")?,
    }
    match derived {
        Some(d) => write!(f, " (observed; patterns derive {})", d.normalize()),
        None => Ok(()),
    }
}

fn provisioned(
    f: &mut fmt::Formatter<'_>,
    kind: CapacityKind,
    table: &str,
    gsi: Option<&str>,
    plan: &PlanShape,
    reserved: Decimal,
) -> fmt::Result {
    let upper = upper(kind);
    match gsi {
        None => write!(f, "Provisioned {upper}, table `{table}` ({plan}")?,
        Some(gsi) => write!(f, "Provisioned {upper}, GSI `{gsi}` ({plan}")?,
    }
    if !reserved.is_zero() {
        write!(f, ", above {} reserved", reserved.normalize())?;
    }
    f.write_str(")")
}

fn stream_reads(f: &mut fmt::Formatter<'_>, reader: &StreamReader) -> fmt::Result {
    match reader {
        StreamReader::Observed => f.write_str("Stream read requests (observed)"),
        StreamReader::Lambda(name) => {
            write!(f, "Stream records read by Lambda trigger `{name}` (free)")
        }
        StreamReader::Calls(name) => write!(f, "Stream read requests by `{name}`"),
        StreamReader::RecordsPerCall(name, per_call) => write!(
            f,
            "Stream read requests by `{name}` ({} record{} per GetRecords call)",
            per_call.normalize(),
            if *per_call == Decimal::ONE { "" } else { "s" }
        ),
    }
}

/// The free tier, reservations pooled in a region, and the savings plan.
fn commitment(f: &mut fmt::Formatter<'_>, label: &Label) -> fmt::Result {
    match label {
        Label::FreeTier { allowance, region } => {
            match allowance {
                FreeAllowance::Storage { gb } => {
                    write!(f, "Free tier: {} GB storage (Standard)", gb.normalize())?;
                }
                FreeAllowance::StreamReads => f.write_str("Free tier: stream read requests")?,
                FreeAllowance::Rcu => f.write_str("Free tier: provisioned RCU (Standard)")?,
                FreeAllowance::Wcu => f.write_str("Free tier: provisioned WCU (Standard)")?,
                FreeAllowance::TransferOut { gb } => write!(
                    f,
                    "Free tier: {} GB data transfer out to the internet (across services and regions)",
                    gb.normalize()
                )?,
            }
            match region {
                Some(region) => write!(f, " in {region}"),
                None => Ok(()),
            }
        }
        Label::PoolUpfront {
            kind,
            region,
            term,
            blocks,
            ..
        } => write!(
            f,
            "Reserved {} in {region}, {} × 100 units, {}: upfront amortized over {} months",
            upper(*kind),
            blocks.normalize(),
            term.name(),
            term.months()
        ),
        Label::PoolHourly {
            kind,
            region,
            term,
            blocks,
            hours,
        } => write!(
            f,
            "Reserved {} in {region}, {}: hourly fee ({} × 100 units × {} h, used or not)",
            upper(*kind),
            term.name(),
            blocks.normalize(),
            hours.normalize()
        ),
        Label::PoolCovered {
            kind,
            region,
            covered,
            unused,
        } => {
            let upper = upper(*kind);
            write!(
                f,
                "Reserved {upper} in {region} cover {} of the pooled provisioned {upper}-hours ({} reserved unit-hours unused)",
                covered.round_dp(2).normalize(),
                unused.round_dp(2).normalize()
            )
        }
        Label::SavingsPlanCommitment {
            per_hour,
            hours,
            utilization,
            coverage,
        } => write!(
            f,
            "Database Savings Plan: {}/h × {} h, used or not ({}% used, {}% of eligible usage covered)",
            per_hour.normalize(),
            hours.normalize(),
            percent(*utilization),
            percent(*coverage)
        ),
        Label::SavingsPlanCovers {
            quantity,
            unit,
            price,
            region,
            rate,
        } => write!(
            f,
            "Savings Plan covers {} {unit} of `{price}` in {region} at {} of list",
            quantity.round_dp(2).normalize(),
            rate.normalize()
        ),
        // `Label::fmt` sends only the variants above here.
        _ => Ok(()),
    }
}

/// What is billed beside the table's requests: data sent out, a DAX cluster, vector indexes.
fn beside(f: &mut fmt::Formatter<'_>, label: &Label) -> fmt::Result {
    match label {
        Label::TransferOut => f.write_str("Data transfer out to the internet"),
        Label::Dax {
            node_type,
            nodes,
            hours,
            hits,
        } => write!(
            f,
            "DAX cluster: {} × {node_type} × {} h (cache serves {} % of eventual reads)",
            nodes.normalize(),
            hours.normalize(),
            percent(*hits)
        ),
        Label::TransferOutTier {
            region,
            from,
            to,
            price,
            first,
        } => {
            let range = match to {
                Some(to) => format!(
                    "{}–{} GB",
                    super::money::quantity(*from),
                    super::money::quantity(*to)
                ),
                None => format!("over {} GB", super::money::quantity(*from)),
            };
            write!(
                f,
                "Transfer out tier {range} in {region} ({} per GB, not {})",
                price.normalize(),
                first.normalize()
            )
        }
        Label::VectorStorage { index, dimensions } => write!(
            f,
            "Vector index `{index}` storage ({} dimensions)",
            dimensions.normalize()
        ),
        Label::VectorWrites { index, writes } => write!(
            f,
            "Vector index `{index}` writes ({} a month, each request to the index billed for at least the price table's minimum)",
            super::money::quantity(*writes)
        ),
        Label::VectorSearches { index, searches } => write!(
            f,
            "Vector index `{index}` searches ({} a month, each request billed for at least the price table's minimum)",
            super::money::quantity(*searches)
        ),
        _ => Ok(()),
    }
}
