//! A DynamoDB Accelerator (DAX) cluster in front of a table: its node-hours at the price of
//! its node type in the table's region (`dax_node_hour.<type>`, from the `AmazonDAX` price
//! list). The reads its cache serves are taken off the table's in `usage`.

use std::sync::Arc;

use super::EngineError;
use super::checked;
use super::estimate::{Basis, Component, LineItem};
use super::label::Label;
use super::line::{LineSpec, Pricer, cat};
use super::usage::Weights;
use crate::model::{PriceKey, Table};

/// The cluster's line, if the table has one.
pub(super) fn line(pricer: &Pricer<'_>, table: &Table) -> Result<Option<LineItem>, EngineError> {
    let Some(dax) = &table.dax else {
        return Ok(None);
    };
    let t = &table.name;
    let hours = dax.hours.unwrap_or(pricer.settings.month_hours);
    let node_hours = checked::mul(dax.nodes, hours, t)?;
    let region = pricer.region_of(table);
    pricer
        .line(
            LineSpec {
                key: cat!(t, "/dax"),
                table: t,
                component: Component::Dax,
                label: Label::Dax {
                    node_type: Arc::from(dax.node_type.as_str()),
                    nodes: dax.nodes,
                    hours,
                    hits: dax.hits,
                },
                region: &region,
                unit: "node-hour",
                basis: Basis::Derived,
            },
            &PriceKey::DaxNodeHour(dax.node_type.clone()),
            Some(node_hours),
            Weights::NONE,
        )
        .map(Some)
}
