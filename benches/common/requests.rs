//! Request logs shaped like a SaaS month, for `allocate`'s benchmark and for
//! `examples/gen_log.rs`: 5,000 organisations with a Zipf-like spread, Queries and GetItems,
//! PutItems with GSI writes, a BatchWriteItem of 25 items a hundred lines, and now and then a
//! Scan with no tenant, over the tables `app-0` to `app-2`; and a CUR 2.0 month of 200 tables
//! (`app-0` to `app-199`) to split.

use std::fmt::Write;

/// Deterministic lines, one at a time.
pub(crate) struct Lines {
    state: u64,
    at: usize,
}

impl Default for Lines {
    fn default() -> Self {
        Lines { state: 11, at: 0 }
    }
}

impl Lines {
    fn next(&mut self) -> u64 {
        self.state = self
            .state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1);
        self.state >> 33
    }

    /// Appends the next line to `out`.
    pub(crate) fn write(&mut self, out: &mut String) {
        let i = self.at;
        self.at += 1;
        // Log-uniform over 1..5,000: organisation k about 1/k as busy as the first.
        let u = self.next() % 1_000_000;
        let org = (1..=5_000u64)
            .find(|k| k * k * 1_000_000 / 25_000_000 >= u / 40)
            .unwrap_or(5_000);
        let table = format!("app-{}", self.next() % 3);
        let _ = match i % 100 {
            0 => writeln!(
                out,
                r#"{{"timestamp":"2026-11-02T09:00:00Z","operation":"Scan","pattern":"report","ConsumedCapacity":{{"TableName":"{table}","CapacityUnits":128.5,"Table":{{"CapacityUnits":128.5}}}}}}"#
            ),
            1 => {
                let items: Vec<String> = (0..25)
                    .map(|j| format!(r#"{{"PutRequest":{{"Item":{{"PK":{{"S":"ORG#o{org}"}},"SK":{{"S":"TASK#{j}"}}}}}}}}"#))
                    .collect();
                writeln!(
                    out,
                    r#"{{"timestamp":"2026-11-02T09:00:00Z","operation":"BatchWriteItem","pattern":"import","RequestItems":{{"{table}":[{}]}},"ConsumedCapacity":[{{"TableName":"{table}","CapacityUnits":25,"Table":{{"CapacityUnits":25}}}}]}}"#,
                    items.join(",")
                )
            }
            n if n % 4 == 0 => writeln!(
                out,
                r#"{{"timestamp":"2026-11-02T09:00:00Z","operation":"PutItem","pattern":"create-task","Item":{{"PK":{{"S":"ORG#o{org}"}},"SK":{{"S":"TASK#{i}"}},"title":{{"S":"a task"}}}},"ConsumedCapacity":{{"TableName":"{table}","CapacityUnits":3,"Table":{{"CapacityUnits":1}},"GlobalSecondaryIndexes":{{"GSI1":{{"CapacityUnits":1}},"GSI2":{{"CapacityUnits":1}}}}}}}}"#
            ),
            n if n % 2 == 0 => writeln!(
                out,
                r#"{{"timestamp":"2026-11-02T09:00:00Z","operation":"GetItem","pattern":"get-task","Key":{{"PK":{{"S":"ORG#o{org}"}},"SK":{{"S":"TASK#{i}"}}}},"ConsumedCapacity":{{"TableName":"{table}","CapacityUnits":0.5,"Table":{{"CapacityUnits":0.5}}}}}}"#
            ),
            _ => writeln!(
                out,
                r#"{{"timestamp":"2026-11-02T09:00:00Z","operation":"Query","pattern":"dashboard","ExpressionAttributeValues":{{":pk":{{"S":"ORG#o{org}"}}}},"ConsumedCapacity":{{"TableName":"{table}","CapacityUnits":7.5,"Table":{{"CapacityUnits":7.5}}}}}}"#
            ),
        };
    }
}

/// `count` deterministic log lines.
pub(crate) fn log(count: usize) -> String {
    let mut lines = Lines::default();
    let mut out = String::with_capacity(count * 260);
    for _ in 0..count {
        lines.write(&mut out);
    }
    out
}

/// A CUR 2.0 month of 200 tables, 8 lines each.
pub(crate) fn bill() -> String {
    let mut out = String::from(
        "line_item_line_item_type,line_item_usage_start_date,line_item_product_code,line_item_usage_type,line_item_resource_id,line_item_usage_amount,line_item_currency_code,line_item_unblended_cost\n",
    );
    for t in 0..200 {
        for (usage, cost) in [
            ("ReadRequestUnits", "38.63"),
            ("WriteRequestUnits", "14.375"),
            ("TimedStorage-ByteHrs", "1.58935"),
            ("TimedPITRStorage-ByteHrs", "0.31787"),
            ("ReplWriteRequestUnits", "2.5"),
            ("StreamsReadRequestUnits", "0.2"),
            ("ReadCapacityUnit-Hrs", "9.49"),
            ("WriteCapacityUnit-Hrs", "47.45"),
        ] {
            let _ = writeln!(
                out,
                "Usage,2026-11-01T00:00:00Z,AmazonDynamoDB,{usage},arn:aws:dynamodb:us-east-1:1:table/app-{t},1000,USD,{cost}"
            );
        }
    }
    out
}
