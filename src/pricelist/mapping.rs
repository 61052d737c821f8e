//! How the AWS Price List for `AmazonDynamoDB` maps onto a ddbcost price table: one row per
//! usage type (without its region prefix), the price-table field it fills and the factor that
//! turns AWS's price per single unit into the table's unit; and the billing region codes
//! that prefix usage types outside us-east-1. docs/commands/prices.md shows the same table.

/// What a usage type fills.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// A price at this dotted path of the price table, = AWS's per-unit price × `factor`.
    Price { path: &'static str, factor: u32 },
    /// Reserved capacity (`HeavyUsage:dynamodb.read|write`): per-unit fees × 100 per block.
    Reserved { kind: &'static str },
}

/// One row of the mapping.
#[derive(Debug, Clone, Copy)]
pub struct Row {
    pub usage_type: &'static str,
    pub target: Target,
    /// The AWS `group` attribute that confirms the row where the file states one.
    pub groups: &'static [&'static str],
    /// What the free tier (a first tier priced 0) of this usage type grants, if anything.
    pub free_tier: Option<FreeTierField>,
}

/// A free-tier allowance field, and how a tier's end converts to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FreeTierField {
    /// GB-months of Standard storage.
    StorageGb,
    /// Stream read requests (a count).
    StreamReads,
    /// Unit-hours of provisioned capacity: ÷ 744 (the longest month) gives the units.
    Rcu,
    Wcu,
}

const fn price(
    usage_type: &'static str,
    path: &'static str,
    factor: u32,
    groups: &'static [&'static str],
) -> Row {
    Row {
        usage_type,
        target: Target::Price { path, factor },
        groups,
        free_tier: None,
    }
}

const MILLION: u32 = 1_000_000;

/// The mapping, by usage type without its region prefix.
pub(crate) const ROWS: &[Row] = &[
    price(
        "ReadRequestUnits",
        "standard.read_per_million",
        MILLION,
        &["DDB-ReadUnits"],
    ),
    price(
        "WriteRequestUnits",
        "standard.write_per_million",
        MILLION,
        &["DDB-WriteUnits"],
    ),
    price(
        "IA-ReadRequestUnits",
        "standard_ia.read_per_million",
        MILLION,
        &["DDB-ReadUnitsIA"],
    ),
    price(
        "IA-WriteRequestUnits",
        "standard_ia.write_per_million",
        MILLION,
        &["DDB-WriteUnitsIA"],
    ),
    price(
        "ReplWriteRequestUnits",
        "standard.replicated_write_per_million",
        MILLION,
        &["DDB-ReplicatedWriteUnits"],
    ),
    price(
        "IA-ReplWriteRequestUnits",
        "standard_ia.replicated_write_per_million",
        MILLION,
        &["DDB-ReplicatedWriteUnitsIA"],
    ),
    Row {
        free_tier: Some(FreeTierField::Rcu),
        ..price(
            "ReadCapacityUnit-Hrs",
            "standard.rcu_hour",
            1,
            &["DDB-ReadUnits"],
        )
    },
    Row {
        free_tier: Some(FreeTierField::Wcu),
        ..price(
            "WriteCapacityUnit-Hrs",
            "standard.wcu_hour",
            1,
            &["DDB-WriteUnits"],
        )
    },
    price(
        "IA-ReadCapacityUnit-Hrs",
        "standard_ia.rcu_hour",
        1,
        &["DDB-ReadUnitsIA"],
    ),
    price(
        "IA-WriteCapacityUnit-Hrs",
        "standard_ia.wcu_hour",
        1,
        &["DDB-WriteUnitsIA"],
    ),
    price(
        "ReplWriteCapacityUnit-Hrs",
        "standard.replicated_wcu_hour",
        1,
        &["DDB-ReplicatedWriteUnits"],
    ),
    price(
        "IA-ReplWriteCapacityUnit-Hrs",
        "standard_ia.replicated_wcu_hour",
        1,
        &["DDB-ReplicatedWriteUnitsIA"],
    ),
    Row {
        free_tier: Some(FreeTierField::StorageGb),
        ..price("TimedStorage-ByteHrs", "standard.storage_gb_month", 1, &[])
    },
    price(
        "IA-TimedStorage-ByteHrs",
        "standard_ia.storage_gb_month",
        1,
        &[],
    ),
    price("TimedPITRStorage-ByteHrs", "pitr_gb_month", 1, &[]),
    price("TimedBackupStorage-ByteHrs", "backup_gb_month", 1, &[]),
    price("RestoreDataSize-Bytes", "restore_gb", 1, &[]),
    price("ExportDataSize-Bytes", "export_gb", 1, &[]),
    price("ImportDataSize-Bytes", "import_gb", 1, &[]),
    Row {
        free_tier: Some(FreeTierField::StreamReads),
        ..price("Streams-Requests", "stream_reads_per_million", MILLION, &[])
    },
    price(
        "ChangeDataCaptureUnits-Kinesis",
        "kinesis_cdc_per_million",
        MILLION,
        &[],
    ),
    price("DataTransfer-Out-Bytes", "transfer_out_gb", 1, &[]),
    price("VectorWriteRequest", "standard.vector_write_per_gb", 1, &[]),
    price("VectorSearch", "standard.vector_search_per_gb", 1, &[]),
    price(
        "IA-VectorWriteRequest",
        "standard_ia.vector_write_per_gb",
        1,
        &[],
    ),
    price(
        "IA-VectorSearch",
        "standard_ia.vector_search_per_gb",
        1,
        &[],
    ),
    Row {
        usage_type: "HeavyUsage:dynamodb.read",
        target: Target::Reserved { kind: "rcu" },
        groups: &[],
        free_tier: None,
    },
    Row {
        usage_type: "HeavyUsage:dynamodb.write",
        target: Target::Reserved { kind: "wcu" },
        groups: &[],
        free_tier: None,
    },
];

/// Billing region codes (the usage-type prefix) and their regions; no prefix is us-east-1.
pub(crate) const REGION_PREFIXES: &[(&str, &str)] = &[
    ("AFS1", "af-south-1"),
    ("APE1", "ap-east-1"),
    ("APN1", "ap-northeast-1"),
    ("APN2", "ap-northeast-2"),
    ("APN3", "ap-northeast-3"),
    ("APS1", "ap-southeast-1"),
    ("APS2", "ap-southeast-2"),
    ("APS3", "ap-south-1"),
    ("APS4", "ap-southeast-3"),
    ("APS5", "ap-south-2"),
    ("APS6", "ap-southeast-4"),
    ("CAN1", "ca-central-1"),
    ("EU", "eu-west-1"),
    ("EUC1", "eu-central-1"),
    ("EUC2", "eu-central-2"),
    ("EUN1", "eu-north-1"),
    ("EUS1", "eu-south-1"),
    ("EUS2", "eu-south-2"),
    ("EUW1", "eu-west-1"),
    ("EUW2", "eu-west-2"),
    ("EUW3", "eu-west-3"),
    ("ILC1", "il-central-1"),
    ("MEC1", "me-central-1"),
    ("MES1", "me-south-1"),
    ("SAE1", "sa-east-1"),
    ("USE1", "us-east-1"),
    ("USE2", "us-east-2"),
    ("UGE1", "us-gov-east-1"),
    ("UGW1", "us-gov-west-1"),
    ("USW1", "us-west-1"),
    ("USW2", "us-west-2"),
];

/// Splits a usage type into its region (from the prefix; none = us-east-1) and the rest.
#[must_use]
pub(crate) fn split_usage_type(usage_type: &str) -> (Option<&'static str>, &str) {
    if let Some((prefix, rest)) = usage_type.split_once('-')
        && let Some((_, region)) = REGION_PREFIXES.iter().find(|(p, _)| *p == prefix)
    {
        return (Some(region), rest);
    }
    (Some("us-east-1"), usage_type)
}

/// The mapping row of a usage type without its prefix.
#[must_use]
pub(crate) fn row(usage_type: &str) -> Option<&'static Row> {
    ROWS.iter().find(|r| r.usage_type == usage_type)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefixes_split_and_us_east_1_has_none() {
        assert_eq!(
            split_usage_type("ReadRequestUnits"),
            (Some("us-east-1"), "ReadRequestUnits")
        );
        assert_eq!(
            split_usage_type("EU-ReadRequestUnits"),
            (Some("eu-west-1"), "ReadRequestUnits")
        );
        assert_eq!(
            split_usage_type("USW2-IA-TimedStorage-ByteHrs"),
            (Some("us-west-2"), "IA-TimedStorage-ByteHrs")
        );
        // `IA-` is not a region: the whole name is us-east-1's.
        assert_eq!(
            split_usage_type("IA-ReadRequestUnits"),
            (Some("us-east-1"), "IA-ReadRequestUnits")
        );
        assert_eq!(
            split_usage_type("APN1-HeavyUsage:dynamodb.write"),
            (Some("ap-northeast-1"), "HeavyUsage:dynamodb.write")
        );
    }
}
