//! Writes a CloudFormation template of N tables to standard output, for measuring how
//! `import` grows with the size of a stack:
//!
//! ```text
//! cargo run --release --example gen_template -- 6400 > /tmp/stack.json
//! /usr/bin/time -v target/release/ddbcost import /tmp/stack.json > /tmp/workload.yaml
//! ```
//!
//! Each table is what a stack's tables usually are: a partition and a sort key, one GSI of
//! every attribute, PITR and a stream; every fifth provisioned with auto scaling's bounds
//! unknown (its units stated), the rest on demand. Usage a template cannot know is left to
//! `import`'s placeholders.

use std::fmt::Write as _;
use std::io::Write as _;

fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(10);
    let mut out = String::from(r#"{"AWSTemplateFormatVersion":"2010-09-09","Resources":{"#);
    for t in 0..n {
        if t > 0 {
            out.push(',');
        }
        let billing = if t % 5 == 0 {
            r#""BillingMode":"PROVISIONED","ProvisionedThroughput":{"ReadCapacityUnits":50,"WriteCapacityUnits":20},"#
        } else {
            r#""BillingMode":"PAY_PER_REQUEST","#
        };
        let index_throughput = if t % 5 == 0 {
            r#","ProvisionedThroughput":{"ReadCapacityUnits":10,"WriteCapacityUnits":10}"#
        } else {
            ""
        };
        let _ = write!(
            out,
            r#""Table{t}":{{"Type":"AWS::DynamoDB::Table","Properties":{{"TableName":"orders-{t}",{billing}"AttributeDefinitions":[{{"AttributeName":"pk","AttributeType":"S"}},{{"AttributeName":"sk","AttributeType":"S"}},{{"AttributeName":"owner","AttributeType":"S"}}],"KeySchema":[{{"AttributeName":"pk","KeyType":"HASH"}},{{"AttributeName":"sk","KeyType":"RANGE"}}],"GlobalSecondaryIndexes":[{{"IndexName":"by-owner","KeySchema":[{{"AttributeName":"owner","KeyType":"HASH"}}],"Projection":{{"ProjectionType":"ALL"}}{index_throughput}}}],"PointInTimeRecoverySpecification":{{"PointInTimeRecoveryEnabled":true}},"StreamSpecification":{{"StreamViewType":"NEW_AND_OLD_IMAGES"}}}}}}"#
        );
    }
    out.push_str("}}\n");
    let _ = std::io::stdout().lock().write_all(out.as_bytes());
}
