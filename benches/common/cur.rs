//! CUR 2.0 CSV shaped like a real export, shared by the bill benchmark and
//! `examples/gen_cur.rs`: 44 columns (the ones ddbcost reads among the payer, product,
//! pricing and resource-tag columns a real export carries, with their long texts), hourly rows
//! per table and usage type, one row in four another service's.

use std::fmt::Write;

/// The header.
pub(crate) const HEADER: &str = "identity_line_item_id,identity_time_interval,bill_invoice_id,bill_invoicing_entity,bill_billing_entity,bill_bill_type,bill_payer_account_id,bill_payer_account_name,bill_billing_period_start_date,bill_billing_period_end_date,line_item_usage_account_id,line_item_usage_account_name,line_item_line_item_type,line_item_usage_start_date,line_item_usage_end_date,line_item_product_code,line_item_usage_type,line_item_operation,line_item_availability_zone,line_item_resource_id,line_item_usage_amount,line_item_normalization_factor,line_item_normalized_usage_amount,line_item_currency_code,line_item_unblended_rate,line_item_unblended_cost,line_item_blended_rate,line_item_blended_cost,line_item_line_item_description,line_item_tax_type,line_item_legal_entity,product_product_name,product_region_code,product,pricing_rate_code,pricing_rate_id,pricing_currency,pricing_public_on_demand_cost,pricing_public_on_demand_rate,pricing_term,pricing_unit,reservation_effective_cost,savings_plan_savings_plan_effective_cost,resource_tags\n";

const USAGE: [(&str, &str, &str); 6] = [
    ("ReadRequestUnits", "PayPerRequestThroughput", "0.000000125"),
    (
        "WriteRequestUnits",
        "PayPerRequestThroughput",
        "0.000000625",
    ),
    ("TimedStorage-ByteHrs", "StandardStorage", "0.25"),
    ("WriteCapacityUnit-Hrs", "CommittedThroughput", "0.00065"),
    ("ReadCapacityUnit-Hrs", "CommittedThroughput", "0.00013"),
    (
        "TimedPITRStorage-ByteHrs",
        "PointInTimeRecoveryBackupStorage",
        "0.2",
    ),
];

/// Appends row `n` (hour `n / per_hour` of November 2026) to `out`.
pub(crate) fn row(out: &mut String, n: u64, tables: u64) {
    let hour = (n / (tables * 8)) % 720;
    let (day, h) = (hour / 24 + 1, hour % 24);
    let t = n % tables;
    let other = n % 4 == 3;
    let (usage, op, rate) = USAGE[usize::try_from((n / tables) % 6).unwrap_or(0)];
    let amount = 1_000 + (n * 7_919) % 100_000;
    let (product, usage, resource) = if other {
        (
            "AmazonEC2",
            "BoxUsage:m5.large",
            format!("arn:aws:ec2:us-east-1:111122223333:instance/i-{n:017x}"),
        )
    } else {
        (
            "AmazonDynamoDB",
            usage,
            format!("arn:aws:dynamodb:us-east-1:111122223333:table/table-{t}"),
        )
    };
    let _ = writeln!(
        out,
        "{n:032x},2026-11-{day:02}T{h:02}:00:00Z/2026-11-{day:02}T{h:02}:59:59Z,EUINGB26-1234567,AWS EMEA SARL,AWS,Anniversary,111122223333,Example Payer Ltd,2026-11-01T00:00:00.000Z,2026-12-01T00:00:00.000Z,111122223333,production,Usage,2026-11-{day:02}T{h:02}:00:00Z,2026-11-{day:02}T{h:02}:59:59Z,{product},{usage},{op},,{resource},{amount},0,0,USD,{rate},{amount}E-6,{rate},{amount}E-6,\"${rate} per unit for {usage} in US East (N. Virginia)\",,Amazon Web Services EMEA SARL,Amazon DynamoDB,us-east-1,\"{{'product_family': 'Amazon DynamoDB PayPerRequest Throughput', 'servicecode': 'AmazonDynamoDB', 'group': 'DDB-ReadUnits', 'location': 'US East (N. Virginia)'}}\",ABCDEFGHIJKLMNOP.JRTCKXETXF.6YS6EN2CT7,123456789,USD,{amount}E-6,{rate},OnDemand,ReadRequestUnits,,,\"{{'user_team': 'shop', 'user_env': 'production'}}\""
    );
}

/// `rows` rows over `tables` tables, after the header.
pub(crate) fn csv(rows: u64, tables: u64) -> String {
    let mut out = String::with_capacity(usize::try_from(rows).unwrap_or(0) * 900 + HEADER.len());
    out.push_str(HEADER);
    for n in 0..rows {
        row(&mut out, n, tables);
    }
    out
}
