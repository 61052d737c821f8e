//! What `ddbcost mcp` offers besides tools: the bundled price tables, the bundled example
//! workloads and the JSON Schemas as resources (`ddbcost://prices/ID`,
//! `ddbcost://workloads/NAME`, `ddbcost://schema/workload`), and the prompt that leads an
//! agent through the access-pattern method of the seeds, ending in an `estimate` call.

use serde_json::{Value, json};

/// The example workloads shipped in `workloads/`: (name, contents). Each is priced by the
/// test suite; those that read a sample file need it under the server's `--root`.
const WORKLOADS: &[(&str, &str)] = &[
    ("cloudshop", include_str!("../../workloads/cloudshop.yaml")),
    (
        "commitments-us-east-1",
        include_str!("../../workloads/commitments-us-east-1.yaml"),
    ),
    (
        "marketplace-us-east-1",
        include_str!("../../workloads/marketplace-us-east-1.yaml"),
    ),
    (
        "saas-dashboard",
        include_str!("../../workloads/saas-dashboard.yaml"),
    ),
];

/// One resource: its URI, name, description, MIME type and text.
struct Resource {
    uri: String,
    name: String,
    description: String,
    mime: &'static str,
    text: String,
}

fn resources() -> Vec<Resource> {
    let mut out = vec![
        Resource {
            uri: "ddbcost://schema/workload".into(),
            name: "workload-schema".into(),
            description: "JSON Schema (draft 2020-12) of a workload: what every tool's `workload` argument may hold".into(),
            mime: "application/schema+json",
            text: pretty(&crate::load::schema::workload()),
        },
        Resource {
            uri: "ddbcost://schema/price-table".into(),
            name: "price-table-schema".into(),
            description: "JSON Schema of a price table".into(),
            mime: "application/schema+json",
            text: pretty(&crate::load::schema::price_table()),
        },
    ];
    for (id, file, text) in crate::load::prices::BUNDLED {
        out.push(Resource {
            uri: format!("ddbcost://prices/{id}"),
            name: (*id).to_string(),
            description: format!("Bundled price table `{id}` ({file}): every price with its source and the date it took effect"),
            mime: "application/yaml",
            text: (*text).to_string(),
        });
    }
    for (name, text) in WORKLOADS {
        out.push(Resource {
            uri: format!("ddbcost://workloads/{name}"),
            name: (*name).to_string(),
            description: format!(
                "Example workload `workloads/{name}.yaml`: pass its text as a tool's `workload`"
            ),
            mime: "application/yaml",
            text: (*text).to_string(),
        });
    }
    out
}

fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_default()
}

/// `resources/list`'s result.
pub(super) fn listing() -> Value {
    let list: Vec<Value> = resources()
        .iter()
        .map(|r| {
            json!({
                "uri": r.uri, "name": r.name, "description": r.description,
                "mimeType": r.mime, "size": r.text.len(),
            })
        })
        .collect();
    json!({ "resources": list })
}

/// `resources/read`'s result for `uri`, if there is such a resource.
pub(super) fn read(uri: &str) -> Option<Value> {
    resources()
        .into_iter()
        .find(|r| r.uri == uri)
        .map(|r| json!({ "contents": [ { "uri": r.uri, "mimeType": r.mime, "text": r.text } ] }))
}

/// The one prompt's name.
pub(super) const PROMPT: &str = "design-table";

/// `prompts/list`'s result.
pub(super) fn prompts() -> Value {
    json!({ "prompts": [ {
        "name": PROMPT,
        "title": "Design and price a DynamoDB table, access patterns first",
        "description": "Leads through the access-pattern method: write the patterns first (key, rate, latency, consistency), then indexes and projections, then capacity; ends in an `estimate` call.",
        "arguments": [
            { "name": "application", "description": "What the application does and what it stores", "required": true },
            { "name": "region", "description": "AWS region (default us-east-1; bundled price tables: see ddbcost://prices/…)", "required": false },
        ],
    } ] })
}

/// `prompts/get`'s result for the design prompt.
pub(super) fn prompt(application: &str, region: &str) -> Value {
    let text = format!(
        "Design a DynamoDB table for this application and price it exactly with ddbcost.\n\n\
Application: {application}\nRegion: {region} (price table `aws-{region}`; read the resource ddbcost://prices/aws-{region} if it exists, else ask for a price table)\n\n\
Work in this order, writing each step into a workload document (schema: resource ddbcost://schema/workload; example: ddbcost://workloads/cloudshop):\n\n\
1. Access patterns first. List every way the application reads and writes data, before any key design. For each pattern write: the operation (get, query, scan, put, update, delete, batch or transact), the key it uses, its rate (`50/s`, `2M/month`, with a peak if it has one), the latency it needs, the item size it reads or writes, and its consistency (eventual unless the application must read its own writes; a strong read is half the items per unit and is impossible on a GSI).\n\
2. Keys. Choose the partition and sort key so the busiest patterns are a `get` or a `query`, never a `scan`; check that no single key value takes more than a partition's 3,000 read or 1,000 write units per second (the `keys` tool measures a sample).\n\
3. Indexes and projections. Add a GSI only for a pattern the table's key cannot serve. Every write to the table is copied into each GSI that holds the item, sized by its projection: project KEYS_ONLY or INCLUDE the attributes the pattern reads rather than ALL when the items are large. Say how often an update touches a projected attribute.\n\
4. Capacity. Start on demand; where the traffic is steady, compare provisioned capacity (with auto scaling) with the `compare` tool, and reserved capacity or a Savings Plan with `forecast`.\n\
5. Then call the `estimate` tool with the workload's text. Report its `total` with the currency and the rounding it states, the biggest line items, and what each pattern costs (line_items[].attribution). Call `validate` first if unsure; call `advise` for what to change, and `explain` for any line whose rule is not obvious.\n\n\
Never invent a price: ddbcost refuses a price the table lacks, and says which."
    );
    json!({
        "description": "The access-pattern method, ending in an estimate",
        "messages": [ { "role": "user", "content": { "type": "text", "text": text } } ],
    })
}
