//! The fast DynamoDB-JSON scanner (`size::fast`) against the serde visitor it falls back to
//! (`size::item::reference`): on generated items of every type — nesting, unicode, escapes,
//! numbers of every shape, sets, binary — both give the same sizes, attribute sizes and key
//! values; on damaged text the scanner either declines or agrees with the reference.

use ddbcost::api::size::size_dynamodb;
use ddbcost::api::size::{Shape, item_keys, reference, size_item};
use proptest::prelude::*;

/// A DynamoDB-JSON value as text.
fn value(depth: u32) -> BoxedStrategy<String> {
    let leaf = prop_oneof![
        text().prop_map(|s| format!(r#"{{"S":"{s}"}}"#)),
        number().prop_map(|n| format!(r#"{{"N":"{n}"}}"#)),
        binary().prop_map(|b| format!(r#"{{"B":"{b}"}}"#)),
        any::<bool>().prop_map(|b| format!(r#"{{"BOOL":{b}}}"#)),
        prop_oneof![Just("true"), Just("false"), Just("null")]
            .prop_map(|v| format!(r#"{{"NULL":{v}}}"#)),
        prop::collection::vec(text(), 1..4)
            .prop_map(|v| format!(r#"{{"SS":["{}"]}}"#, v.join(r#"",""#))),
        prop::collection::vec(number(), 1..4)
            .prop_map(|v| format!(r#"{{"NS":["{}"]}}"#, v.join(r#"",""#))),
        prop::collection::vec(binary(), 1..3)
            .prop_map(|v| format!(r#"{{"BS":["{}"]}}"#, v.join(r#"",""#))),
    ];
    if depth == 0 {
        return leaf.boxed();
    }
    prop_oneof![
        4 => leaf,
        1 => prop::collection::vec(value(depth - 1), 0..4)
            .prop_map(|v| format!(r#"{{"L":[{}]}}"#, v.join(","))),
        1 => prop::collection::vec((text(), value(depth - 1)), 0..4).prop_map(|v| {
            let entries: Vec<String> = v.iter().map(|(k, v)| format!(r#""{k}":{v}"#)).collect();
            format!(r#"{{"M":{{{}}}}}"#, entries.join(","))
        }),
    ]
    .boxed()
}

/// String content as written in JSON: ASCII, accents, CJK, emoji, and escapes (including a
/// surrogate pair and a lone surrogate, which the scanner leaves to the reference).
fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            6 => "[a-zA-Z0-9 #:_.-]{1,6}",
            2 => prop_oneof![Just("é"), Just("東京"), Just("😀"), Just("ß"), Just("доставка")]
                .prop_map(str::to_string),
            1 => prop_oneof![
                Just(r#"\""#), Just(r"\\"), Just(r"\/"), Just(r"\n"), Just(r"\t"),
                Just(r"\u00e9"), Just(r"\u0041"), Just(r"\u20ac"), Just(r"\ud83d\ude00"),
                Just(r"\ud800")
            ]
            .prop_map(str::to_string),
        ],
        0..6,
    )
    .prop_map(|parts| parts.concat())
}

/// Numbers of every shape, and some that are not numbers.
fn number() -> impl Strategy<Value = String> {
    prop_oneof![
        "-?[0-9]{1,20}",
        "-?[0-9]{1,10}\\.[0-9]{1,10}",
        "[0-9]{1,3}[eE][+-]?[0-9]{1,3}",
        "-?0\\.0{0,5}[1-9]{1,4}",
        "[0-9]{38}",
        Just(" 12 ".to_string()),
        Just("1.2.3".to_string()),
        Just(String::new()),
    ]
}

fn binary() -> impl Strategy<Value = String> {
    prop_oneof![
        "([A-Za-z0-9+/]{4}){0,6}",
        "([A-Za-z0-9+/]{4}){0,3}[A-Za-z0-9+/]{2}==",
        "([A-Za-z0-9+/]{4}){0,3}[A-Za-z0-9+/]{3}=",
        Just("!!!!".to_string()),
    ]
}

/// An item (maybe wrapped as an export line), with attribute names that are sometimes the
/// wanted ones and sometimes escaped.
fn item() -> impl Strategy<Value = String> {
    let name = prop_oneof![
        Just("pk".to_string()),
        Just("GSI1PK".to_string()),
        Just("Item".to_string()),
        "[a-z]{1,8}",
        Just(r"n\u0061me".to_string()),
    ];
    (
        prop::collection::vec((name, value(3)), 0..8),
        any::<bool>(),
        prop_oneof![Just(""), Just(" ")],
    )
        .prop_map(|(attributes, wrap, space)| {
            let entries: Vec<String> = attributes
                .iter()
                .map(|(k, v)| format!(r#""{k}":{space}{v}"#))
                .collect();
            let item = format!("{{{}}}", entries.join(&format!(",{space}")));
            if wrap {
                format!(r#"{{"Item":{item}}}"#)
            } else {
                item
            }
        })
}

fn wanted() -> Vec<String> {
    vec!["GSI1PK".to_string(), "pk".to_string()]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Same answer as the reference, or a decline.
    #[test]
    fn the_scanner_agrees_with_the_reference(text in item(), capture in any::<bool>()) {
        let bytes = text.as_bytes();
        let expected = reference(bytes, Shape::DynamoDb, &wanted(), capture);
        match size_dynamodb(bytes, &wanted(), capture) {
            Some(fast) => prop_assert_eq!(Some(fast), expected.ok(), "{}", text),
            None => {
                // It declines only where it must: what the reference refuses as well, an
                // escaped name, a surrogate escape, or (keeping key values) any escape.
                prop_assert!(
                    expected.is_err()
                        || text.contains(r"n\u0061me")
                        || text.contains(r"\ud")
                        || (capture && text.contains('\\')),
                    "declined a plain valid item: {}", text
                );
            }
        }
        // And the public functions answer exactly as the reference.
        let public = if capture {
            item_keys(bytes, Shape::DynamoDb, &wanted())
        } else {
            size_item(bytes, Shape::DynamoDb, &wanted())
        };
        prop_assert_eq!(public.ok(), reference(bytes, Shape::DynamoDb, &wanted(), capture).ok());
    }

    /// Damaged text: a byte changed, removed or inserted anywhere.
    #[test]
    fn damaged_items_never_fool_the_scanner(
        text in item(),
        at in any::<prop::sample::Index>(),
        byte in prop_oneof![Just(b'"'), Just(b'\\'), Just(b'{'), Just(b'}'), Just(b','),
            Just(b':'), Just(b'['), Just(b']'), Just(0x01), Just(0xC3), any::<u8>()],
        how in 0u8..3,
    ) {
        let mut bytes = text.into_bytes();
        if bytes.is_empty() {
            return Ok(());
        }
        let i = at.index(bytes.len());
        match how {
            0 => bytes[i] = byte,
            1 => { bytes.remove(i); }
            _ => bytes.insert(i, byte),
        }
        for capture in [false, true] {
            if let Some(fast) = size_dynamodb(&bytes, &wanted(), capture) {
                let expected = reference(&bytes, Shape::DynamoDb, &wanted(), capture);
                prop_assert_eq!(Some(fast), expected.ok(), "{}", String::from_utf8_lossy(&bytes));
            }
        }
    }
}

#[test]
fn every_type_by_hand_through_the_scanner() {
    // The sizes of item.rs's hand-derived test, through the fast path itself:
    // "pk" (2) + "a" (1) = 3; "é😀" = 2 + 4 bytes; `\u00e9\n` unescapes to 2 + 1 bytes.
    let fast = |json: &str| size_dynamodb(json.as_bytes(), &[], false).map(|s| s.bytes);
    assert_eq!(fast(r#"{"pk":{"S":"a"}}"#), Some(3));
    assert_eq!(fast(r#"{"name":{"S":"é😀"}}"#), Some(4 + 6));
    assert_eq!(fast(r#"{"e":{"S":"\u00e9\n"}}"#), Some(1 + 3));
    // N "-0.15": 1 + one pair + 1 negative = 3; "n" + 3 = 4. B "YWJj" = 3 bytes.
    assert_eq!(fast(r#"{"n":{"N":"-0.15"}}"#), Some(4));
    assert_eq!(fast(r#"{"b":{"B":"YWJj"}}"#), Some(4));
    // L: 3 + (1 + 1) + (2 + 1) = 8, + "l" = 9; M: 3 + (1 + 1 + 1) = 6, + "m" = 7.
    assert_eq!(fast(r#"{"l":{"L":[{"S":"a"},{"N":"100"}]}}"#), Some(9));
    assert_eq!(fast(r#"{"m":{"M":{"k":{"S":"v"}}}}"#), Some(7));
    // The export wrapper, and what the scanner leaves to the reference.
    assert_eq!(fast(r#"{"Item":{"pk":{"S":"a"}}}"#), Some(3));
    assert_eq!(fast(r#"{"Item":{"pk":{"S":"a"}},"x":{}}"#), None);
    assert_eq!(fast(r#"{"s":{"S":"\ud83d\ude00"}}"#), None);
    assert_eq!(fast("{\"s\":{\"S\":\"tab\there\"}}"), None);
}
