//! Item sizes by DynamoDB's rules (`ddbcost size`): one item's JSON, in DynamoDB's typed shape
//! (`{"S": "…"}`) or plain, sized exactly; the fast scanner an export is read with, and the
//! reference it must always agree with; a whole export summarized.
//!
//! ```
//! use ddbcost::api::size::{Shape, detect_shape, size_item};
//! let item = br#"{"pk": {"S": "order#1"}, "qty": {"N": "3"}}"#;
//! assert_eq!(detect_shape(item), Shape::DynamoDb);
//! // "pk" (2) + "order#1" (7) + "qty" (3) + the number 3 (1 byte of digits + 1) = 14 B.
//! assert_eq!(size_item(item, Shape::DynamoDb, &[])?.bytes, 14);
//! # Ok::<(), serde_json::Error>(())
//! ```

use std::path::PathBuf;

/// An index `size` measures the entries of (`--index by-status:status`): its name, keys and
/// projection.
///
/// ```
/// use ddbcost::api::size::{IndexProjection, IndexSpec};
/// let g = IndexSpec { name: "by-status".into(), keys: vec!["status".into()], projection: IndexProjection::KeysOnly };
/// assert_eq!(g.keys, ["status"]);
/// ```
pub use crate::model::index_spec::{IndexProjection, IndexSpec};
/// An item's size and the sizes of the attributes asked for; the two JSON shapes.
///
/// ```
/// use ddbcost::api::size::{ItemSize, Shape, size_item};
/// let s: ItemSize = size_item(br#"{"pk": {"S": "ab"}}"#, Shape::DynamoDb, &["pk".to_string()])?;
/// // "pk" (2) + "ab" (2) = 4 B, all of it the wanted attribute's.
/// assert_eq!((s.bytes, s.attributes.as_slice()), (4, &[(0, 4)][..]));
/// # Ok::<(), serde_json::Error>(())
/// ```
pub use crate::size::item::{ItemSize, Shape};
/// How `scan` reads an export: shape, strictness, worker threads, the keys and indexes.
///
/// ```
/// let o = ddbcost::api::size::ScanOptions { jobs: 1, strict: true, ..Default::default() };
/// assert!(o.shape.is_none());
/// ```
pub use crate::size::scan::ScanOptions;
/// An export's size summary, and its JSON document (`ddbcost.size/v1`, what `size --format
/// json` prints and `--merge` reads back).
///
/// ```
/// use ddbcost::api::size::{ScanOptions, Summary, SummaryDoc, scan};
/// let s: Summary = scan(&["workloads/samples/orders.jsonl".into()], &ScanOptions { jobs: 1, ..ScanOptions::default() })?;
/// let doc: SummaryDoc = s.document();
/// assert_eq!(Summary::from_document(&doc).unwrap().sizes.items(), s.sizes.items());
/// # Ok::<(), ddbcost::api::Error>(())
/// ```
pub use crate::size::summary::{Summary, SummaryDoc};

use crate::error::Error;
use crate::size::{fast, item, rules, scan as scanner};

/// One item's size (and those of the `wanted` attributes' values, for index entries).
///
/// ```
/// use ddbcost::api::size::{Shape, size_item};
/// // "name" (4) + "Ann" (3) = 7 B.
/// assert_eq!(size_item(br#"{"name": "Ann"}"#, Shape::Plain, &[])?.bytes, 7);
/// # Ok::<(), serde_json::Error>(())
/// ```
///
/// # Errors
/// Text that is not a JSON object of the shape.
pub fn size_item(
    json: &[u8],
    shape: Shape,
    wanted: &[String],
) -> Result<ItemSize, serde_json::Error> {
    item::size_item(json, shape, wanted)
}

/// As `size_item`, keeping the `wanted` attributes' values (the key counter's input).
///
/// ```
/// use ddbcost::api::size::{Shape, item_keys};
/// let s = item_keys(br#"{"pk": {"S": "a"}}"#, Shape::DynamoDb, &["pk".to_string()])?;
/// assert_eq!(s.bytes, 3);
/// # Ok::<(), serde_json::Error>(())
/// ```
///
/// # Errors
/// As `size_item`.
pub fn item_keys(
    json: &[u8],
    shape: Shape,
    wanted: &[String],
) -> Result<ItemSize, serde_json::Error> {
    item::item_keys(json, shape, wanted)
}

/// The reference sizer: a full JSON parse, slow and obviously right; every fast path is
/// tested against it.
///
/// ```
/// use ddbcost::api::size::{Shape, reference, size_item};
/// let item = br#"{"pk": {"S": "a"}, "tags": {"SS": ["x", "yz"]}}"#;
/// assert_eq!(reference(item, Shape::DynamoDb, &[], false)?, size_item(item, Shape::DynamoDb, &[])?);
/// # Ok::<(), serde_json::Error>(())
/// ```
///
/// # Errors
/// As `size_item`.
pub fn reference(
    json: &[u8],
    shape: Shape,
    wanted: &[String],
    capture: bool,
) -> Result<ItemSize, serde_json::Error> {
    item::reference(json, shape, wanted, capture)
}

/// Whether an item is in DynamoDB's typed shape or plain JSON.
///
/// ```
/// use ddbcost::api::size::{Shape, detect_shape};
/// assert_eq!(detect_shape(br#"{"a": 1}"#), Shape::Plain);
/// ```
#[must_use]
pub fn detect_shape(json: &[u8]) -> Shape {
    item::detect_shape(json)
}

/// The fast scanner for one line of a DynamoDB export; `None` where it declines (the
/// reference then sizes the line).
///
/// ```
/// let s = ddbcost::api::size::size_dynamodb(br#"{"Item":{"pk":{"S":"a"}}}"#, &[], false);
/// assert_eq!(s.map(|s| s.bytes), Some(3));
/// ```
#[must_use]
pub fn size_dynamodb(json: &[u8], wanted: &[String], capture: bool) -> Option<ItemSize> {
    fast::size_dynamodb(json, wanted, capture)
}

/// The bytes DynamoDB counts for a number written as `text`: its significant digits, two
/// to a byte, plus one; `None` for text that is not a DynamoDB number.
///
/// ```
/// // 12345: 5 significant digits → ⌈5 ÷ 2⌉ + 1 = 4 bytes.
/// assert_eq!(ddbcost::api::size::number_size("12345"), Some(4));
/// assert_eq!(ddbcost::api::size::number_size("1e"), None);
/// ```
#[must_use]
pub fn number_size(text: &str) -> Option<u64> {
    rules::number_size(text)
}

/// The decoded length of base64 `text` (a binary attribute's size); `None` if not base64.
///
/// ```
/// assert_eq!(ddbcost::api::size::base64_len("aGVsbG8="), Some(5));
/// assert_eq!(ddbcost::api::size::base64_len("a"), None);
/// ```
#[must_use]
pub fn base64_len(text: &str) -> Option<u64> {
    rules::base64_len(text)
}

/// A whole export (files or folders, gzip or not) summarized: items, sizes, index entries.
///
/// ```
/// use ddbcost::api::size::{ScanOptions, scan};
/// let s = scan(&["workloads/samples/orders.jsonl".into()], &ScanOptions { jobs: 1, ..ScanOptions::default() })?;
/// assert!(s.sizes.items().unwrap_or(0) > 0);
/// # Ok::<(), ddbcost::api::Error>(())
/// ```
///
/// # Errors
/// A file that cannot be read; a malformed item when `strict`.
pub fn scan(files: &[PathBuf], options: &ScanOptions) -> Result<Summary, Error> {
    scanner::scan(files, options)
}
