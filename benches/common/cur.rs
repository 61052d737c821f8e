//! CUR 2.0 CSV shaped like a real export, shared by the bill benchmark and
//! `examples/gen_cur.rs`: 44 columns (the ones ddbcost reads among the payer, product,
//! pricing and resource-tag columns a real export carries, with their long texts; the tags a
//! JSON object, as CUR 2.0 writes a map in CSV), hourly rows
//! per table and usage type, one row in four another service's; and the same rows as Parquet
//! typed as Data Exports types them (amounts, rates and costs DOUBLE, times TIMESTAMP(MILLIS),
//! `resource_tags` a MAP, the rest UTF8; Snappy, row groups of 20,000 rows).

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
        "{n:032x},2026-11-{day:02}T{h:02}:00:00Z/2026-11-{day:02}T{h:02}:59:59Z,EUINGB26-1234567,AWS EMEA SARL,AWS,Anniversary,111122223333,Example Payer Ltd,2026-11-01T00:00:00.000Z,2026-12-01T00:00:00.000Z,111122223333,production,Usage,2026-11-{day:02}T{h:02}:00:00Z,2026-11-{day:02}T{h:02}:59:59Z,{product},{usage},{op},,{resource},{amount},0,0,USD,{rate},{amount}E-6,{rate},{amount}E-6,\"${rate} per unit for {usage} in US East (N. Virginia)\",,Amazon Web Services EMEA SARL,Amazon DynamoDB,us-east-1,\"{{'product_family': 'Amazon DynamoDB PayPerRequest Throughput', 'servicecode': 'AmazonDynamoDB', 'group': 'DDB-ReadUnits', 'location': 'US East (N. Virginia)'}}\",ABCDEFGHIJKLMNOP.JRTCKXETXF.6YS6EN2CT7,123456789,USD,{amount}E-6,{rate},OnDemand,ReadRequestUnits,,,\"{{\"\"user:team\"\": \"\"shop\"\", \"\"user:env\"\": \"\"production\"\"}}\""
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

/// The columns Data Exports writes as DOUBLE.
const DOUBLES: [&str; 9] = [
    "line_item_usage_amount",
    "line_item_normalization_factor",
    "line_item_normalized_usage_amount",
    "line_item_unblended_rate",
    "line_item_unblended_cost",
    "line_item_blended_rate",
    "line_item_blended_cost",
    "pricing_public_on_demand_cost",
    "pricing_public_on_demand_rate",
];

/// The columns Data Exports writes as TIMESTAMP.
const TIMES: [&str; 4] = [
    "bill_billing_period_start_date",
    "bill_billing_period_end_date",
    "line_item_usage_start_date",
    "line_item_usage_end_date",
];

/// Milliseconds since 1970 of `2026-11-DDTHH:MM:SS…` (every time here is in November 2026
/// or its first next day).
fn millis(t: &str) -> i64 {
    let n = |a: usize, b: usize| t.get(a..b).and_then(|x| x.parse::<i64>().ok()).unwrap_or(0);
    // 2026-11-01T00:00:00Z is 1,793,491,200 s.
    let month_start = if n(5, 7) == 12 {
        1_793_491_200 + 30 * 86_400
    } else {
        1_793_491_200
    };
    (month_start + (n(8, 10) - 1) * 86_400 + n(11, 13) * 3_600 + n(14, 16) * 60 + n(17, 19)) * 1_000
}

/// `rows` rows over `tables` tables as a Parquet file at `path`.
pub(crate) fn parquet(rows: u64, tables: u64, path: &std::path::Path) {
    use parquet::data_type::{ByteArray, ByteArrayType, DoubleType, Int64Type};
    use parquet::file::properties::WriterProperties;
    use parquet::file::writer::SerializedFileWriter;
    let text = csv(rows, tables);
    let mut reader = ::csv::Reader::from_reader(text.as_bytes());
    let header: Vec<String> = reader
        .headers()
        .unwrap()
        .iter()
        .map(str::to_string)
        .collect();
    let records: Vec<::csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    let fields: Vec<String> = header
        .iter()
        .map(|c| {
            if DOUBLES.contains(&c.as_str()) {
                format!("OPTIONAL DOUBLE {c};")
            } else if TIMES.contains(&c.as_str()) {
                format!("OPTIONAL INT64 {c} (TIMESTAMP(MILLIS,true));")
            } else if c == "resource_tags" {
                format!("OPTIONAL group {c} (MAP) {{ REPEATED group key_value {{ REQUIRED BINARY key (UTF8); OPTIONAL BINARY value (UTF8); }} }}")
            } else {
                format!("OPTIONAL BINARY {c} (UTF8);")
            }
        })
        .collect();
    let schema = parquet::schema::parser::parse_message_type(&format!(
        "message schema {{ {} }}",
        fields.join(" ")
    ))
    .unwrap();
    let props = WriterProperties::builder()
        .set_compression(parquet::basic::Compression::SNAPPY)
        .set_max_row_group_size(20_000)
        .build();
    let file = std::fs::File::create(path).unwrap();
    let mut w = SerializedFileWriter::new(
        file,
        std::sync::Arc::new(schema),
        std::sync::Arc::new(props),
    )
    .unwrap();
    for chunk in records.chunks(20_000) {
        let mut rg = w.next_row_group().unwrap();
        let mut i = 0;
        while let Some(mut col) = rg.next_column().unwrap() {
            let name = header[i.min(header.len() - 1)].as_str();
            let cells: Vec<&str> = chunk
                .iter()
                .map(|r| r.get(i.min(header.len() - 1)).unwrap_or(""))
                .collect();
            if name == "resource_tags" {
                // The key leaf, then the value leaf: the CSV's JSON object as entries.
                let value_leaf = i >= header.len();
                let (mut d, mut r, mut v) = (Vec::new(), Vec::new(), Vec::new());
                for c in &cells {
                    let entries: Vec<(String, String)> =
                        serde_json::from_str::<std::collections::BTreeMap<String, String>>(c)
                            .map(|m| m.into_iter().collect())
                            .unwrap_or_default();
                    if entries.is_empty() {
                        d.push(0);
                        r.push(0);
                    }
                    for (j, (k, val)) in entries.iter().enumerate() {
                        r.push(i16::from(j > 0));
                        d.push(if value_leaf { 3 } else { 2 });
                        v.push(ByteArray::from(if value_leaf {
                            val.as_str()
                        } else {
                            k.as_str()
                        }));
                    }
                }
                col.typed::<ByteArrayType>()
                    .write_batch(&v, Some(&d), Some(&r))
                    .unwrap();
            } else {
                let defs: Vec<i16> = cells.iter().map(|c| i16::from(!c.is_empty())).collect();
                let present = cells.iter().filter(|c| !c.is_empty());
                if DOUBLES.contains(&name) {
                    let v: Vec<f64> = present.map(|c| c.parse().unwrap()).collect();
                    col.typed::<DoubleType>()
                        .write_batch(&v, Some(&defs), None)
                        .unwrap();
                } else if TIMES.contains(&name) {
                    let v: Vec<i64> = present.map(|c| millis(c)).collect();
                    col.typed::<Int64Type>()
                        .write_batch(&v, Some(&defs), None)
                        .unwrap();
                } else {
                    let v: Vec<ByteArray> = present.map(|c| ByteArray::from(*c)).collect();
                    col.typed::<ByteArrayType>()
                        .write_batch(&v, Some(&defs), None)
                        .unwrap();
                }
            }
            col.close().unwrap();
            i += 1;
        }
        rg.close().unwrap();
    }
    w.close().unwrap();
}
