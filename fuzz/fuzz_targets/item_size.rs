//! Any bytes as an item, in both shapes: sizing must not panic.
#![no_main]
use ddbcost::size::item::{detect_shape, size_item, Shape};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let wanted = ["pk".to_string(), "GSI1PK".to_string()];
    let _ = size_item(data, Shape::DynamoDb, &wanted);
    let _ = size_item(data, Shape::Plain, &wanted);
    let _ = detect_shape(data);
});
