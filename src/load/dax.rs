//! Validating a table's DAX cluster: a node type as AWS names it (`dax.r5.large`), 1 to 11
//! nodes (a primary and up to 10 read replicas), the hours it runs (at most a month's), and
//! the share of eventually consistent reads its cache serves.

use rust_decimal::Decimal;

use super::context::Reader;
use super::raw::RawDax;
use super::yaml::position;
use crate::error::Error;
use crate::model::Dax;

/// A DAX cluster holds a primary node and up to 10 read replicas.
const MAX_NODES: u32 = 11;
/// The longest month's hours: a cluster cannot run longer in one.
const MAX_HOURS: u32 = 744;

pub(super) fn dax(rd: &Reader<'_>, d: Option<&RawDax>, path: &str) -> Result<Option<Dax>, Error> {
    let Some(d) = d else { return Ok(None) };
    let p = |f: &str| format!("{path}.{f}");
    let node_type = d.node_type.value.trim();
    let valid_name = node_type.strip_prefix("dax.").is_some_and(|rest| {
        !rest.is_empty()
            && rest.len() <= 40
            && rest
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'.')
    });
    if !valid_name {
        return Err(rd.err(
            &p("node_type"),
            position(&d.node_type),
            format!("`{node_type}` is not a DAX node type"),
            "Consider the node type as AWS names it, e.g. `dax.r5.large` or `dax.t3.small`.",
        ));
    }
    let nodes = rd
        .whole(Some(&d.nodes), &p("nodes"), "a DAX cluster's node count")?
        .unwrap_or_default();
    if nodes < Decimal::ONE || nodes > Decimal::from(MAX_NODES) {
        return Err(rd.err(
            &p("nodes"),
            position(&d.nodes),
            format!(
                "a DAX cluster has 1 to {MAX_NODES} nodes, not {}",
                nodes.normalize()
            ),
            "Consider 3 nodes (AWS's recommendation for production: one per Availability Zone).",
        ));
    }
    let hours = rd.count(d.hours.as_ref(), &p("hours"))?;
    if let (Some(h), Some(s)) = (hours, &d.hours)
        && (h <= Decimal::ZERO || h > Decimal::from(MAX_HOURS))
    {
        return Err(rd.err(
            &p("hours"),
            position(s),
            format!(
                "a cluster runs 0 to {MAX_HOURS} hours in a month, not {}",
                h.normalize()
            ),
            "Consider the hours it runs in the month, or leaving `hours` out for the whole month.",
        ));
    }
    let hits = rd.share(Some(&d.hits), &p("hits"), Decimal::ZERO)?;
    Ok(Some(Dax {
        node_type: node_type.to_string(),
        nodes,
        hours,
        hits,
    }))
}
