//! What `ddbcost import` and `ddbcost prices import` read: infrastructure code
//! (CloudFormation/SAM, CDK's output, `serverless.yml`, Terraform plans and `.tf` files)
//! into a workload document with `TODO` placeholders for the usage a template cannot know;
//! and the AWS Price List for `AmazonDynamoDB` into price tables, through one usage-type map.
//!
//! ```
//! use ddbcost::api::import::{Options, Source, template_text, workload_yaml};
//! let cfn = "Resources:\n  Orders:\n    Type: AWS::DynamoDB::Table\n    Properties:\n      BillingMode: PAY_PER_REQUEST\n      KeySchema: [{AttributeName: pk, KeyType: HASH}]\n      AttributeDefinitions: [{AttributeName: pk, AttributeType: S}]\n";
//! let imported = template_text(Source::CloudFormation, cfn, "t.yaml", &Options::default())?;
//! let (_, yaml) = workload_yaml(&imported, "shop", Some("aws-us-east-1"));
//! assert!(yaml.contains("TODO"));
//! # Ok::<(), ddbcost::api::Error>(())
//! ```

use serde_json::Value;

/// What an import found: each table (key, billing, capacity, indexes and their projection),
/// and a note for whatever was skipped; the options a template leaves open; its kinds.
///
/// ```
/// use ddbcost::api::import::{Billing, Dim, Imported, IndexDef, Note, Options, Projection, Source, TableDef, template_text};
/// let cfn = "Resources:\n  Orders:\n    Type: AWS::DynamoDB::Table\n    Properties:\n      BillingMode: PROVISIONED\n      ProvisionedThroughput: {ReadCapacityUnits: 5, WriteCapacityUnits: 5}\n      KeySchema: [{AttributeName: pk, KeyType: HASH}]\n      AttributeDefinitions: [{AttributeName: pk, AttributeType: S}, {AttributeName: s, AttributeType: S}]\n      GlobalSecondaryIndexes:\n        - IndexName: by-s\n          KeySchema: [{AttributeName: s, KeyType: HASH}]\n          Projection: {ProjectionType: KEYS_ONLY}\n          ProvisionedThroughput: {ReadCapacityUnits: 1, WriteCapacityUnits: 1}\n";
/// let i: Imported = template_text(Source::CloudFormation, cfn, "t.yaml", &Options::default())?;
/// let t: &TableDef = &i.tables[0];
/// assert!(matches!(&t.billing, Billing::Provisioned { read: Some(Dim::Fixed(r)), .. } if r == "5"));
/// let g: &IndexDef = &t.indexes[0];
/// assert_eq!((g.name.as_str(), &g.projection), ("by-s", &Projection::KeysOnly));
/// let _: &[Note] = &i.notes;
/// # Ok::<(), ddbcost::api::Error>(())
/// ```
pub use crate::iac::{
    Billing, Dim, Imported, IndexDef, Note, Options, Projection, Source, TableDef,
};
/// One row of the usage-type map and what it fills (a price at a path, or reserved fees).
///
/// ```
/// use ddbcost::api::import::{UsageTarget, UsageTypeRow, usage_types};
/// let row: &UsageTypeRow = usage_types().iter().find(|r| r.usage_type == "ReadRequestUnits").unwrap();
/// assert!(matches!(row.target, UsageTarget::Price { path: "standard.read_per_million", .. }));
/// ```
pub use crate::pricelist::mapping::{Row as UsageTypeRow, Target as UsageTarget};
/// One AWS Price List file, read.
///
/// ```
/// let bytes = std::fs::read("tests/fixtures/pricelist/offer-index.json").unwrap();
/// let list: ddbcost::api::import::PriceList = ddbcost::api::import::price_list(&bytes, "o.json")?;
/// let _ = list;
/// # Ok::<(), ddbcost::api::Error>(())
/// ```
pub use crate::pricelist::parse::PriceList;
/// What a price-list import found: a price table per region, and the SKUs no price takes.
///
/// ```
/// use ddbcost::api::import::{ImportedPriceTable, PriceImport, price_list, price_lists};
/// let bytes = std::fs::read("tests/fixtures/pricelist/offer-index.json").unwrap();
/// let import: PriceImport = price_lists(&[price_list(&bytes, "o.json")?]).unwrap();
/// let t: &ImportedPriceTable = &import.tables["us-east-1"];
/// assert_eq!(t.currency, "USD");
/// # Ok::<(), ddbcost::api::Error>(())
/// ```
pub use crate::pricelist::{Import as PriceImport, Imported as ImportedPriceTable};

use crate::error::Error;
use crate::load::yaml;
use crate::{iac, pricelist};

/// Tables from template files or folders (`from` forces their kind), with notes for what
/// was skipped.
///
/// ```
/// use ddbcost::api::import::{Options, templates};
/// let i = templates(&["workloads/iac/orders.template.yaml".into()], None, &Options::default())?;
/// assert!(!i.tables.is_empty());
/// # Ok::<(), ddbcost::api::Error>(())
/// ```
///
/// # Errors
/// A file that cannot be read, or is none of the known kinds.
pub fn templates(
    paths: &[String],
    from: Option<Source>,
    options: &Options,
) -> Result<Imported, Error> {
    iac::import(paths, from, options)
}

/// Tables from one template's text, of a known kind (a CDK output is CloudFormation).
///
/// ```
/// use ddbcost::api::import::{Options, Source, template_text};
/// let tf = "resource \"aws_dynamodb_table\" \"t\" {\n  name = \"t\"\n  hash_key = \"pk\"\n  billing_mode = \"PAY_PER_REQUEST\"\n  attribute {\n    name = \"pk\"\n    type = \"S\"\n  }\n}\n";
/// let i = template_text(Source::Terraform, tf, "main.tf", &Options::default())?;
/// assert_eq!(i.tables[0].name, "t");
/// # Ok::<(), ddbcost::api::Error>(())
/// ```
///
/// # Errors
/// Text that is not a template of that kind.
pub fn template_text(
    source: Source,
    text: &str,
    file: &str,
    options: &Options,
) -> Result<Imported, Error> {
    let mut out = Imported::default();
    match source {
        Source::CloudFormation | Source::Cdk => {
            iac::cloudformation::import(text, file, options, &mut out)?;
        }
        Source::Serverless => iac::serverless::import(text, file, options, &mut out)?,
        Source::TerraformPlan => iac::terraform::import(text, file, &mut out)?,
        Source::Terraform => iac::hcl::import(text, file, options, &mut out)?,
        Source::Live => iac::live::import(
            &[iac::live::Input {
                file: file.to_string(),
                date: None,
                text: text.to_string(),
            }],
            &mut out,
        )?,
    }
    iac::settle(&mut out);
    Ok(out)
}

/// The workload document of imported tables and its YAML, headed by the import's notes,
/// priced with the table `prices` (`None`: the workload's default).
///
/// ```
/// use ddbcost::api::import::{Options, templates, workload_yaml};
/// let i = templates(&["workloads/iac/orders.template.yaml".into()], None, &Options::default())?;
/// let (doc, yaml) = workload_yaml(&i, "orders", Some("aws-us-east-1"));
/// assert!(doc["tables"].is_object());
/// assert!(yaml.starts_with('#') || yaml.starts_with("name"));
/// # Ok::<(), ddbcost::api::Error>(())
/// ```
#[must_use]
pub fn workload_yaml(imported: &Imported, name: &str, prices: Option<&str>) -> (Value, String) {
    let (doc, comments) = iac::workload::document(imported, name, prices);
    let header: Vec<String> = imported.notes.iter().map(ToString::to_string).collect();
    let text = yaml::write::to_yaml(&doc, &comments, &header);
    (doc, text)
}

/// Checks that `yaml` reads back as exactly `doc` (no text from a template became YAML of
/// its own).
///
/// ```
/// let doc = serde_json::json!({"name": "a: b # c"});
/// ddbcost::api::import::reads_back(&doc, "name: \"a: b # c\"\n").unwrap();
/// assert!(ddbcost::api::import::reads_back(&doc, "name: a\n").is_err());
/// ```
///
/// # Errors
/// Where the two differ, or YAML that does not parse.
pub fn reads_back(doc: &Value, yaml: &str) -> Result<(), String> {
    let read = yaml::parse_value(yaml, "written.yaml").map_err(|e| e.to_string())?;
    yaml::write::reads_back(doc, &read)
}

/// One AWS Price List file (the offer JSON, or its region index).
///
/// ```
/// let bytes = std::fs::read("tests/fixtures/pricelist/offer-index.json").unwrap();
/// let list = ddbcost::api::import::price_list(&bytes, "offer.json")?;
/// let import = ddbcost::api::import::price_lists(&[list]).unwrap();
/// assert!(import.tables.contains_key("us-east-1"));
/// # Ok::<(), ddbcost::api::Error>(())
/// ```
///
/// # Errors
/// A file that is not an `AmazonDynamoDB` price list.
pub fn price_list(bytes: &[u8], file: &str) -> Result<PriceList, Error> {
    pricelist::parse::parse(bytes, file)
}

/// The price tables of every region the price lists hold.
///
/// ```
/// let bytes = std::fs::read("tests/fixtures/pricelist/offer-index.json").unwrap();
/// let import = ddbcost::api::import::price_lists(&[ddbcost::api::import::price_list(&bytes, "o.json")?]).unwrap();
/// assert!(!import.tables.is_empty());
/// # Ok::<(), ddbcost::api::Error>(())
/// ```
///
/// # Errors
/// Two lists disagreeing on a price, or a price too large to convert.
pub fn price_lists(lists: &[PriceList]) -> Result<PriceImport, String> {
    pricelist::import(lists)
}

/// One imported region as a price table's YAML (what `prices import` writes).
///
/// ```
/// let bytes = std::fs::read("tests/fixtures/pricelist/offer-index.json").unwrap();
/// let import = ddbcost::api::import::price_lists(&[ddbcost::api::import::price_list(&bytes, "o.json")?]).unwrap();
/// let yaml = ddbcost::api::import::price_table_yaml(&import.tables["us-east-1"], &import);
/// ddbcost::api::parse_price_table(&yaml, "aws-us-east-1.yaml")?;
/// # Ok::<(), ddbcost::api::Error>(())
/// ```
#[must_use]
pub fn price_table_yaml(table: &ImportedPriceTable, import: &PriceImport) -> String {
    pricelist::render(table, import)
}

/// The usage-type map: which price each `AmazonDynamoDB` usage type fills (docs/commands/prices.md's
/// table).
///
/// ```
/// let rows = ddbcost::api::import::usage_types();
/// assert!(rows.iter().any(|r| r.usage_type == "ReadRequestUnits"));
/// ```
#[must_use]
pub fn usage_types() -> &'static [UsageTypeRow] {
    pricelist::mapping::ROWS
}

/// The billing-region codes that prefix usage types outside us-east-1 (`EU` → eu-west-1, `EUC1` → eu-central-1).
///
/// ```
/// assert!(ddbcost::api::import::region_prefixes().iter().any(|(p, r)| *p == "EU" && *r == "eu-west-1"));
/// ```
#[must_use]
pub fn region_prefixes() -> &'static [(&'static str, &'static str)] {
    pricelist::mapping::REGION_PREFIXES
}
