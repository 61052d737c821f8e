//! A month of the SaaS dashboard seed (`app-main`, `PK = ORG#<id>`), generated: 200
//! organisations — `o001` large, `o002`–`o200` a long tail alike — as the three sources
//! `ddbcost allocate` reads, in their documented shapes:
//!
//! - **requests** with `ConsumedCapacity` (`ReturnConsumedCapacity: INDEXES`): o001 renders
//!   its dashboard 100 times (a Query of 7.5 read units), batch-writes 25 tasks (one
//!   `BatchWriteItem`, its consumed capacity a list) and creates a project (1 unit on the
//!   table, 1 on `GSI2`); each of o002–o200 renders twice and creates a task (1 unit); o200
//!   is new: a `TransactWriteItems` of 2 items (4 units); an operator's `Scan` names no
//!   organisation (128 units). Reads: 100 × 7.5 + 199 × 2 × 7.5 + 128 = 3,863 units;
//!   writes: 27 + 199 + 4 = 230 units.
//! - **an export** (DynamoDB JSON, with its `manifest-summary.json`): o001 holds 200 items,
//!   each other organisation 5; every item is 33 bytes (`PK` 2 + 8, `SK` 2 + 10, `t` 1 + 10),
//!   133 with DynamoDB's 100 bytes of overhead: 26,600 bytes for o001, 665 for each other,
//!   158,935 in all.
//! - **the bill** (CUR 2.0 CSV, November 2026, us-east-1): reads $38.63 (one cent a read
//!   unit of the log), writes $14.375 (6.25 cents a write unit), storage $1.58935
//!   (10^-5 a byte), PITR $0.31787 (2 × 10^-6 a byte), and $3.50 of tax.

/// The organisations: `o001`…`o200`.
pub const ORGS: u32 = 200;

fn org(k: u32) -> String {
    format!("o{k:03}")
}

/// The request log, one JSON object a line.
#[must_use]
pub fn log() -> String {
    let mut out = String::new();
    let query = |k: u32| {
        format!(
            "{{\"timestamp\":\"2026-11-{:02}T10:00:00Z\",\"operation\":\"Query\",\"pattern\":\"dashboard\",\"ExpressionAttributeValues\":{{\":pk\":{{\"S\":\"ORG#{}\"}}}},\"ConsumedCapacity\":{{\"TableName\":\"app-main\",\"CapacityUnits\":7.5,\"Table\":{{\"CapacityUnits\":7.5}}}}}}\n",
            1 + k % 28,
            org(k)
        )
    };
    for _ in 0..100 {
        out.push_str(&query(1));
    }
    let items: Vec<String> = (1..=25)
        .map(|i| format!("{{\"PutRequest\":{{\"Item\":{{\"PK\":{{\"S\":\"ORG#o001\"}},\"SK\":{{\"S\":\"TASK#{i:05}\"}}}}}}}}"))
        .collect();
    out.push_str(&format!(
        "{{\"timestamp\":\"2026-11-02T09:00:00Z\",\"operation\":\"BatchWriteItem\",\"pattern\":\"create-task\",\"RequestItems\":{{\"app-main\":[{}]}},\"ConsumedCapacity\":[{{\"TableName\":\"app-main\",\"CapacityUnits\":25,\"Table\":{{\"CapacityUnits\":25}}}}]}}\n",
        items.join(",")
    ));
    out.push_str("{\"timestamp\":\"2026-11-03T09:00:00Z\",\"operation\":\"PutItem\",\"pattern\":\"create-project\",\"Item\":{\"PK\":{\"S\":\"ORG#o001\"},\"SK\":{\"S\":\"PROJECT#p_001\"}},\"ConsumedCapacity\":{\"TableName\":\"app-main\",\"CapacityUnits\":2,\"Table\":{\"CapacityUnits\":1},\"GlobalSecondaryIndexes\":{\"GSI2\":{\"CapacityUnits\":1}}}}\n");
    for k in 2..=ORGS {
        out.push_str(&query(k));
        out.push_str(&query(k));
        out.push_str(&format!(
            "{{\"timestamp\":\"2026-11-04T09:00:00Z\",\"operation\":\"PutItem\",\"pattern\":\"create-task\",\"Item\":{{\"PK\":{{\"S\":\"ORG#{}\"}},\"SK\":{{\"S\":\"TASK#00001\"}}}},\"ConsumedCapacity\":{{\"TableName\":\"app-main\",\"CapacityUnits\":1,\"Table\":{{\"CapacityUnits\":1}}}}}}\n",
            org(k)
        ));
    }
    out.push_str("{\"timestamp\":\"2026-11-20T12:00:00Z\",\"operation\":\"TransactWriteItems\",\"pattern\":\"create-organization\",\"TransactItems\":[{\"Put\":{\"TableName\":\"app-main\",\"Item\":{\"PK\":{\"S\":\"ORG#o200\"},\"SK\":{\"S\":\"META\"}}}},{\"Put\":{\"TableName\":\"app-main\",\"Item\":{\"PK\":{\"S\":\"ORG#o200\"},\"SK\":{\"S\":\"USER#u_1\"}}}}],\"ConsumedCapacity\":[{\"TableName\":\"app-main\",\"CapacityUnits\":4,\"Table\":{\"CapacityUnits\":4}}]}\n");
    out.push_str("{\"timestamp\":\"2026-11-28T03:00:00Z\",\"operation\":\"Scan\",\"pattern\":\"operator-report\",\"ConsumedCapacity\":{\"TableName\":\"app-main\",\"CapacityUnits\":128,\"Table\":{\"CapacityUnits\":128}}}\n");
    out
}

/// The export's items (DynamoDB JSON, one `{"Item": …}` a line).
#[must_use]
pub fn export_items() -> String {
    let mut out = String::new();
    for k in 1..=ORGS {
        let n = if k == 1 { 200 } else { 5 };
        for i in 1..=n {
            out.push_str(&format!(
                "{{\"Item\":{{\"PK\":{{\"S\":\"ORG#{}\"}},\"SK\":{{\"S\":\"TASK#{i:05}\"}},\"t\":{{\"S\":\"0123456789\"}}}}}}\n",
                org(k)
            ));
        }
    }
    out
}

/// The export's `manifest-summary.json`, naming its table.
pub const MANIFEST: &str = "{\"version\":\"2020-06-30\",\"exportArn\":\"arn:aws:dynamodb:us-east-1:111122223333:table/app-main/export/01764000000000-a1b2c3d4\",\"startTime\":\"2026-11-30T00:00:00.000Z\",\"endTime\":\"2026-11-30T00:05:00.000Z\",\"tableArn\":\"arn:aws:dynamodb:us-east-1:111122223333:table/app-main\",\"tableId\":\"a1b2c3d4-0000-0000-0000-000000000000\",\"exportTime\":\"2026-11-30T00:00:00.000Z\",\"s3Bucket\":\"exports\",\"s3Prefix\":null,\"s3SseAlgorithm\":\"AES256\",\"s3SseKmsKeyId\":null,\"manifestFilesS3Key\":\"AWSDynamoDB/01764000000000-a1b2c3d4/manifest-files.json\",\"billedSizeBytes\":158935,\"itemCount\":1195,\"outputFormat\":\"DYNAMODB_JSON\"}\n";

/// The bill: CUR 2.0 columns, November 2026.
#[must_use]
pub fn bill() -> String {
    let arn = "arn:aws:dynamodb:us-east-1:111122223333:table/app-main";
    let mut out = String::from(
        "bill_billing_period_start_date,line_item_line_item_type,line_item_usage_start_date,line_item_product_code,line_item_usage_type,line_item_resource_id,line_item_usage_amount,line_item_currency_code,line_item_unblended_cost,pricing_public_on_demand_cost\n",
    );
    for (usage_type, amount, cost) in [
        ("ReadRequestUnits", "309040000", "38.63"),
        ("WriteRequestUnits", "23000000", "14.375"),
        ("TimedStorage-ByteHrs", "6.35740", "1.58935"),
        ("TimedPITRStorage-ByteHrs", "1.58935", "0.31787"),
    ] {
        out.push_str(&format!(
            "2026-11-01T00:00:00Z,Usage,2026-11-01T00:00:00Z,AmazonDynamoDB,{usage_type},{arn},{amount},USD,{cost},{cost}\n"
        ));
    }
    out.push_str("2026-11-01T00:00:00Z,Tax,2026-11-01T00:00:00Z,AmazonDynamoDB,,,,USD,3.50,\n");
    out
}

/// `allocate` of the bundled sample (`workloads/samples/saas/`): its bill, its requests by
/// organisation, and its export.
pub const ALLOCATE: [&str; 9] = [
    "allocate",
    "--bill",
    "workloads/samples/saas/cur-2026-11.csv",
    "--log",
    "workloads/samples/saas/requests-2026-11.jsonl.gz",
    "--tenant",
    "PK=ORG#([^#]+)",
    "--export",
    "workloads/samples/saas/export",
];
