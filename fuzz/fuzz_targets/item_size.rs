//! Any bytes as an item, in both shapes: sizing must not panic, and whenever the fast
//! DynamoDB-JSON scanner answers, its answer is the reference visitor's.
#![no_main]
use ddbcost::api::size::size_dynamodb;
use ddbcost::api::size::{detect_shape, reference, size_item, Shape};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let wanted = ["pk".to_string(), "GSI1PK".to_string()];
    let _ = size_item(data, Shape::DynamoDb, &wanted);
    let _ = size_item(data, Shape::Plain, &wanted);
    let _ = detect_shape(data);
    for capture in [false, true] {
        if let Some(fast) = size_dynamodb(data, &wanted, capture) {
            let slow = reference(data, Shape::DynamoDb, &wanted, capture).ok();
            assert_eq!(Some(fast), slow, "the scanner disagrees with the reference");
        }
    }
});
