//! Sizing one item from its JSON text without building it: a serde visitor walks the
//! document and adds up the DynamoDB size of every attribute. Three input shapes: DynamoDB
//! JSON (`{"pk": {"S": "a"}}`), plain JSON (`{"pk": "a"}`: string → S, number → N,
//! boolean → BOOL, null → NULL, array → L, object → M), and the export-to-S3 line
//! (`{"Item": {…}}`) around either. DynamoDB JSON goes through the scanner in `fast` first;
//! this visitor is the reference it falls back to and is tested against.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use super::rules::{base64_len, number_size};

/// How attribute values are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// Every value is `{"<type>": …}`.
    DynamoDb,
    /// Values are plain JSON.
    Plain,
}

/// The size of one item, and of the attributes asked for by name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ItemSize {
    pub bytes: u64,
    /// (index into the wanted names, name + value bytes) for each wanted attribute present.
    pub attributes: Vec<(usize, u64)>,
    /// (index into the wanted names, value) for each wanted attribute holding a key type (S,
    /// N or B), filled by `item_keys` only. Numbers are canonical (`1.50` and `1.5` are one
    /// key, as in DynamoDB); binary values stay in base64.
    pub values: Vec<(usize, String)>,
}

/// Sizes one JSON document holding an item (or `{"Item": …}`).
///
/// # Errors
/// Malformed JSON, an unknown type tag, invalid base64, an invalid number.
pub(crate) fn size_item(
    json: &[u8],
    shape: Shape,
    wanted: &[String],
) -> Result<ItemSize, serde_json::Error> {
    read_item(json, shape, wanted, false)
}

/// Sizes one item like `size_item` and also keeps the values of the wanted attributes that
/// hold a key type (for `ddbcost keys`).
///
/// # Errors
/// As `size_item`.
pub(crate) fn item_keys(
    json: &[u8],
    shape: Shape,
    wanted: &[String],
) -> Result<ItemSize, serde_json::Error> {
    read_item(json, shape, wanted, true)
}

fn read_item(
    json: &[u8],
    shape: Shape,
    wanted: &[String],
    capture: bool,
) -> Result<ItemSize, serde_json::Error> {
    if shape == Shape::DynamoDb
        && let Some(size) = super::fast::size_dynamodb(json, wanted, capture)
    {
        return Ok(size);
    }
    reference(json, shape, wanted, capture)
}

/// The reference path: sizes an item with the serde visitor alone (what `size_item` and
/// `item_keys` fall back to whenever the fast scanner is not sure). With `capture`, keeps
/// key values like `item_keys`.
///
/// # Errors
/// As `size_item`.
pub(crate) fn reference(
    json: &[u8],
    shape: Shape,
    wanted: &[String],
    capture: bool,
) -> Result<ItemSize, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_slice(json);
    let size = ItemSeed {
        shape,
        wanted,
        top: true,
        capture,
    }
    .deserialize(&mut de)?;
    de.end()?;
    Ok(size)
}

/// Guesses the shape of an item: DynamoDB JSON when every attribute value is an object with
/// exactly one key that is a type tag.
#[must_use]
pub(crate) fn detect_shape(json: &[u8]) -> Shape {
    try_detect_shape(json).unwrap_or(Shape::Plain)
}

/// The shape of an item, `None` when `json` is not an object at all (a malformed line says
/// nothing of how the items after it are written).
#[must_use]
pub(crate) fn try_detect_shape(json: &[u8]) -> Option<Shape> {
    let Ok(serde_json::Value::Object(mut item)) = serde_json::from_slice::<serde_json::Value>(json)
    else {
        return None;
    };
    if item.len() == 1
        && let Some(serde_json::Value::Object(inner)) = item.get("Item")
    {
        item = inner.clone();
    }
    let typed = |v: &serde_json::Value| {
        v.as_object()
            .is_some_and(|m| m.len() == 1 && m.keys().all(|k| TAGS.contains(&k.as_str())))
    };
    Some(if !item.is_empty() && item.values().all(typed) {
        Shape::DynamoDb
    } else {
        Shape::Plain
    })
}

const TAGS: &[&str] = &["S", "N", "B", "BOOL", "NULL", "SS", "NS", "BS", "L", "M"];

struct ItemSeed<'w> {
    shape: Shape,
    wanted: &'w [String],
    /// At the top level `{"Item": {…}}` is an export line wrapping the item.
    top: bool,
    /// Keep the values of wanted attributes.
    capture: bool,
}

impl<'de> DeserializeSeed<'de> for ItemSeed<'_> {
    type Value = ItemSize;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<ItemSize, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for ItemSeed<'_> {
    type Value = ItemSize;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an item: a JSON object of attributes")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ItemSize, A::Error> {
        let mut size = ItemSize::default();
        let mut first = true;
        while let Some(name) = map.next_key::<Cow<'de, str>>()? {
            if self.top && first && name == "Item" {
                // Possibly the export wrapper: size its inner object as the item, and make
                // sure it is alone.
                let inner = map.next_value_seed(ItemSeed { top: false, ..self })?;
                if map.next_key::<IgnoredAny>()?.is_some() {
                    return Err(de::Error::custom(
                        "an export line holds `Item` and nothing else",
                    ));
                }
                return Ok(inner);
            }
            first = false;
            let wanted = self.wanted.iter().position(|w| *w == name);
            let value = match (self.shape, wanted.filter(|_| self.capture)) {
                (Shape::DynamoDb, None) => map.next_value_seed(Typed)?,
                (Shape::Plain, None) => map.next_value_seed(Plain)?,
                (shape, Some(i)) => {
                    let (bytes, value) = map.next_value_seed(KeyValue(shape))?;
                    if let Some(v) = value {
                        size.values.push((i, v));
                    }
                    bytes
                }
            };
            // Sizes saturate: anything past 400 KB is reported as oversized whatever its size.
            let attribute = (name.len() as u64).saturating_add(value);
            size.bytes = size.bytes.saturating_add(attribute);
            if let Some(i) = wanted {
                size.attributes.push((i, attribute));
            }
        }
        Ok(size)
    }
}

/// A string's UTF-8 length.
#[derive(Clone, Copy)]
struct StrLen;
impl<'de> DeserializeSeed<'de> for StrLen {
    type Value = u64;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<u64, D::Error> {
        Ok(Cow::<'de, str>::deserialize(d)?.len() as u64)
    }
}

use serde::Deserialize;

/// A number given as a string (DynamoDB JSON `N`).
#[derive(Clone, Copy)]
struct NumText;
impl<'de> DeserializeSeed<'de> for NumText {
    type Value = u64;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<u64, D::Error> {
        let s = Cow::<'de, str>::deserialize(d)?;
        number_size(&s).ok_or_else(|| de::Error::custom(format!("invalid number `{s}` (DynamoDB stores up to 38 significant digits, from 1E-130 to 9.99…E+125)")))
    }
}

/// Binary as base64 (DynamoDB JSON `B`).
#[derive(Clone, Copy)]
struct B64;
impl<'de> DeserializeSeed<'de> for B64 {
    type Value = u64;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<u64, D::Error> {
        let s = Cow::<'de, str>::deserialize(d)?;
        base64_len(&s).ok_or_else(|| de::Error::custom("invalid base64 in a `B` value"))
    }
}

/// A set: the sum of its elements.
struct SetOf<S>(S);
impl<'de, S: DeserializeSeed<'de, Value = u64> + Copy> DeserializeSeed<'de> for SetOf<S> {
    type Value = u64;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<u64, D::Error> {
        d.deserialize_seq(self)
    }
}
impl<'de, S: DeserializeSeed<'de, Value = u64> + Copy> Visitor<'de> for SetOf<S> {
    type Value = u64;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a set (JSON array)")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<u64, A::Error> {
        let mut total = 0;
        while let Some(v) = seq.next_element_seed(self.0)? {
            total = u64::saturating_add(total, v);
        }
        Ok(total)
    }
}

/// A DynamoDB-JSON value: `{"<type>": …}`.
#[derive(Clone, Copy)]
struct Typed;
impl<'de> DeserializeSeed<'de> for Typed {
    type Value = u64;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<u64, D::Error> {
        d.deserialize_map(self)
    }
}
impl<'de> Visitor<'de> for Typed {
    type Value = u64;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a DynamoDB JSON value such as {\"S\": \"text\"}")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<u64, A::Error> {
        let Some(tag) = map.next_key::<Cow<'de, str>>()? else {
            return Err(de::Error::custom(
                "an empty value object; expected one type tag such as `S`",
            ));
        };
        let size = typed_rest(&tag, &mut map)?;
        if map.next_key::<IgnoredAny>()?.is_some() {
            return Err(de::Error::custom(format!(
                "a value with `{tag}` and another type tag"
            )));
        }
        Ok(size)
    }
}

/// The size of a DynamoDB-JSON value whose type tag `tag` has just been read from `map`.
fn typed_rest<'de, A: MapAccess<'de>>(tag: &str, map: &mut A) -> Result<u64, A::Error> {
    Ok(match tag {
        "S" => map.next_value_seed(StrLen)?,
        "N" => map.next_value_seed(NumText)?,
        "B" => map.next_value_seed(B64)?,
        "BOOL" => {
            map.next_value::<bool>()?;
            1
        }
        "NULL" => {
            map.next_value::<IgnoredAny>()?;
            1
        }
        "SS" => map.next_value_seed(SetOf(StrLen))?,
        "NS" => map.next_value_seed(SetOf(NumText))?,
        "BS" => map.next_value_seed(SetOf(B64))?,
        "L" => map.next_value_seed(ListOf(Typed))?,
        "M" => map.next_value_seed(MapOf(Typed))?,
        other => {
            return Err(de::Error::custom(format!(
                "unknown type tag `{other}`; expected one of S, N, B, BOOL, NULL, SS, NS, BS, L, M"
            )));
        }
    })
}

/// A wanted attribute's value: its size, and its text when it holds a key type.
#[derive(Clone, Copy)]
struct KeyValue(Shape);
impl<'de> DeserializeSeed<'de> for KeyValue {
    type Value = (u64, Option<String>);
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        match self.0 {
            Shape::DynamoDb => d.deserialize_map(self),
            Shape::Plain => d.deserialize_any(self),
        }
    }
}
impl<'de> Visitor<'de> for KeyValue {
    type Value = (u64, Option<String>);
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an attribute value")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        if self.0 == Shape::Plain {
            return Ok((MapOf(Plain).visit_map(map)?, None));
        }
        let Some(tag) = map.next_key::<Cow<'de, str>>()? else {
            return Err(de::Error::custom(
                "an empty value object; expected one type tag such as `S`",
            ));
        };
        let out = match tag.as_ref() {
            "S" => {
                let s = map.next_value::<Cow<'de, str>>()?;
                (s.len() as u64, Some(s.into_owned()))
            }
            "N" => {
                let s = map.next_value::<Cow<'de, str>>()?;
                let size = number_size(&s)
                    .ok_or_else(|| de::Error::custom(format!("invalid number `{s}` (DynamoDB stores up to 38 significant digits, from 1E-130 to 9.99…E+125)")))?;
                (size, Some(canonical_number(&s)))
            }
            "B" => {
                let s = map.next_value::<Cow<'de, str>>()?;
                let size = base64_len(&s)
                    .ok_or_else(|| de::Error::custom("invalid base64 in a `B` value"))?;
                (size, Some(s.into_owned()))
            }
            other => (typed_rest(other, &mut map)?, None),
        };
        if map.next_key::<IgnoredAny>()?.is_some() {
            return Err(de::Error::custom(format!(
                "a value with `{tag}` and another type tag"
            )));
        }
        Ok(out)
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
        Ok((Plain.visit_bool(v)?, None))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok((Plain.visit_unit()?, None))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
        Ok((Plain.visit_u64(v)?, Some(v.to_string())))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
        Ok((Plain.visit_i64(v)?, Some(v.to_string())))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
        Ok((Plain.visit_f64(v)?, Some(canonical_number(&v.to_string()))))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Ok((v.len() as u64, Some(v.to_string())))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        Ok((ListOf(Plain).visit_seq(seq)?, None))
    }
}

/// A number's text with the zeros that do not change its value removed (`007.50` → `7.5`,
/// `-0` → `0`), so that equal numbers are one key. Exponent forms are kept as written.
#[must_use]
pub(crate) fn canonical_number(text: &str) -> String {
    let t = text.trim();
    if t.contains(['e', 'E']) {
        return t.to_string();
    }
    let (negative, digits) = match t.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let (int, frac) = digits.split_once('.').unwrap_or((digits, ""));
    let int = int.trim_start_matches('0');
    let frac = frac.trim_end_matches('0');
    let int = if int.is_empty() { "0" } else { int };
    let mut out = String::with_capacity(t.len());
    if negative && (int != "0" || !frac.is_empty()) {
        out.push('-');
    }
    out.push_str(int);
    if !frac.is_empty() {
        out.push('.');
        out.push_str(frac);
    }
    out
}

/// A list: 3 + Σ(element + 1).
struct ListOf<S>(S);
impl<'de, S: DeserializeSeed<'de, Value = u64> + Copy> DeserializeSeed<'de> for ListOf<S> {
    type Value = u64;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<u64, D::Error> {
        d.deserialize_seq(self)
    }
}
impl<'de, S: DeserializeSeed<'de, Value = u64> + Copy> Visitor<'de> for ListOf<S> {
    type Value = u64;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list (JSON array)")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<u64, A::Error> {
        let mut total = 3;
        while let Some(v) = seq.next_element_seed(self.0)? {
            total = u64::saturating_add(total, v.saturating_add(1));
        }
        Ok(total)
    }
}

/// A map: 3 + Σ(key + value + 1).
struct MapOf<S>(S);
impl<'de, S: DeserializeSeed<'de, Value = u64> + Copy> DeserializeSeed<'de> for MapOf<S> {
    type Value = u64;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<u64, D::Error> {
        d.deserialize_map(self)
    }
}
impl<'de, S: DeserializeSeed<'de, Value = u64> + Copy> Visitor<'de> for MapOf<S> {
    type Value = u64;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a map (JSON object)")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<u64, A::Error> {
        let mut total = 3;
        while let Some(key) = map.next_key::<Cow<'de, str>>()? {
            let entry = (key.len() as u64)
                .saturating_add(map.next_value_seed(self.0)?)
                .saturating_add(1);
            total = u64::saturating_add(total, entry);
        }
        Ok(total)
    }
}

/// A plain-JSON value, mapped to DynamoDB types.
#[derive(Clone, Copy)]
struct Plain;
impl<'de> DeserializeSeed<'de> for Plain {
    type Value = u64;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<u64, D::Error> {
        d.deserialize_any(self)
    }
}
impl<'de> Visitor<'de> for Plain {
    type Value = u64;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<u64, E> {
        Ok(1)
    }
    fn visit_unit<E: de::Error>(self) -> Result<u64, E> {
        Ok(1)
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<u64, E> {
        Ok(number_size(&v.to_string()).unwrap_or(1))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<u64, E> {
        Ok(number_size(&v.to_string()).unwrap_or(1))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<u64, E> {
        // A plain-JSON decimal arrives as a float; its shortest text is the one written for
        // up to 15 significant digits.
        number_size(&v.to_string()).ok_or_else(|| E::custom(format!("invalid number `{v}` (DynamoDB stores up to 38 significant digits, from 1E-130 to 9.99…E+125)")))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<u64, E> {
        Ok(v.len() as u64)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<u64, A::Error> {
        ListOf(Plain).visit_seq(seq)
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<u64, A::Error> {
        MapOf(Plain).visit_map(map)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn typed(json: &str) -> u64 {
        size_item(json.as_bytes(), Shape::DynamoDb, &[])
            .unwrap()
            .bytes
    }

    fn plain(json: &str) -> u64 {
        size_item(json.as_bytes(), Shape::Plain, &[]).unwrap().bytes
    }

    #[test]
    fn every_type_by_hand() {
        assert_eq!(typed("{}"), 0); // the empty item
        // "pk" (2) + "a" (1) = 3.
        assert_eq!(typed(r#"{"pk":{"S":"a"}}"#), 3);
        // Unicode: "é" is 2 bytes, "😀" 4: "name" (4) + 6 = 10; escapes count unescaped.
        assert_eq!(typed(r#"{"name":{"S":"é😀"}}"#), 10);
        assert_eq!(typed(r#"{"e":{"S":"\u00e9\n"}}"#), 1 + 3);
        // N: "n" + 100 → 2 bytes = 3; negative fraction "-0.15" → 2 + 1 = 3 → 4.
        assert_eq!(typed(r#"{"n":{"N":"100"}}"#), 3);
        assert_eq!(typed(r#"{"n":{"N":"-0.15"}}"#), 4);
        // B: base64 "YWJj" = 3 bytes: "b" + 3 = 4.
        assert_eq!(typed(r#"{"b":{"B":"YWJj"}}"#), 4);
        // BOOL and NULL: 1 byte each: "t" + 1 + "z" + 1 = 4.
        assert_eq!(typed(r#"{"t":{"BOOL":true},"z":{"NULL":true}}"#), 4);
        // Sets sum their elements: "ss" + (1 + 2) = 5; "ns" + (2 + 2) = 6; "bs" + (1 + 2) = 5.
        assert_eq!(typed(r#"{"ss":{"SS":["a","bc"]}}"#), 5);
        assert_eq!(typed(r#"{"ns":{"NS":["1","100"]}}"#), 6);
        assert_eq!(typed(r#"{"bs":{"BS":["YQ==","YWI="]}}"#), 5);
        // L: 3 + Σ(element + 1): "l" + 3 + (1 + 1) + (2 + 1) = 1 + 8 = 9.
        assert_eq!(typed(r#"{"l":{"L":[{"S":"a"},{"N":"100"}]}}"#), 9);
        // M: 3 + Σ(key + value + 1): "m" + 3 + ("k" 1 + "v" 1 + 1) = 1 + 6 = 7.
        assert_eq!(typed(r#"{"m":{"M":{"k":{"S":"v"}}}}"#), 7);
        // Nested: a list holding a map holding a list:
        // inner list [ "x" ] = 3 + (1 + 1) = 5; map {"a": that} = 3 + (1 + 5 + 1) = 10;
        // outer list [map] = 3 + (10 + 1) = 14; "o" + 14 = 15.
        assert_eq!(typed(r#"{"o":{"L":[{"M":{"a":{"L":[{"S":"x"}]}}}]}}"#), 15);
        // Empty list and map: 3 each.
        assert_eq!(typed(r#"{"l":{"L":[]},"m":{"M":{}}}"#), 1 + 3 + 1 + 3);
    }

    #[test]
    fn plain_json_maps_to_dynamodb_types() {
        // "pk" + "a" = 3; "n" + 100 (2) = 3; "f" + 0.15 (2) = 3; "t" + 1; "z" + 1.
        assert_eq!(
            plain(r#"{"pk":"a","n":100,"f":0.15,"t":true,"z":null}"#),
            3 + 3 + 3 + 2 + 2
        );
        // list ["a", 1] = 3 + (1 + 1) + (2 + 1) = 8; map {"k": "v"} = 3 + 3 = 6.
        assert_eq!(plain(r#"{"l":["a",1],"m":{"k":"v"}}"#), 1 + 8 + 1 + 6);
        assert_eq!(plain(r#"{"n":-42}"#), 1 + 3);
    }

    #[test]
    fn export_lines_wrap_the_item() {
        assert_eq!(typed(r#"{"Item":{"pk":{"S":"a"}}}"#), 3);
        assert_eq!(
            detect_shape(br#"{"Item":{"pk":{"S":"a"}}}"#),
            Shape::DynamoDb
        );
        assert_eq!(detect_shape(br#"{"pk":"a"}"#), Shape::Plain);
    }

    #[test]
    fn wanted_attributes_are_reported() {
        let s = size_item(
            br#"{"pk":{"S":"ab"},"x":{"N":"1"},"GSI1PK":{"S":"u"}}"#,
            Shape::DynamoDb,
            &["GSI1PK".into(), "pk".into()],
        )
        .unwrap();
        // pk = 2 + 2 = 4; GSI1PK = 6 + 1 = 7.
        assert_eq!(s.attributes, vec![(1, 4), (0, 7)]);
    }

    #[test]
    fn key_values_are_kept_canonical() {
        let s = item_keys(
            br#"{"pk":{"N":"007.50"},"g":{"S":"a"},"m":{"M":{}},"x":{"S":"no"}}"#,
            Shape::DynamoDb,
            &["pk".into(), "g".into(), "m".into()],
        )
        .unwrap();
        // Numbers equal in value are one key; a map is no key type.
        assert_eq!(s.values, vec![(0, "7.5".to_string()), (1, "a".to_string())]);
        // Sizes are those of size_item: "pk" + 7.5 (base-100 pairs 7|.5 → 2 + 1 = 3 B) = 5;
        // "g" + 1 = 2; "m" + 3 = 4; "x" + 2 = 3.
        assert_eq!(s.bytes, 5 + 2 + 4 + 3);
        let p = item_keys(
            br#"{"pk":12,"f":-0.0}"#,
            Shape::Plain,
            &["pk".into(), "f".into()],
        )
        .unwrap();
        assert_eq!(p.values, vec![(0, "12".to_string()), (1, "0".to_string())]);
        // A plain-JSON decimal arrives as a float; its shortest text is the key.
        let f = item_keys(br#"{"pk":7.50}"#, Shape::Plain, &["pk".into()]).unwrap();
        assert_eq!(f.values, vec![(0, "7.5".to_string())]);
        assert_eq!(canonical_number("-0.000"), "0");
        assert_eq!(canonical_number("100"), "100");
        assert_eq!(canonical_number("1E+3"), "1E+3");
    }

    #[test]
    fn malformed_values_are_errors() {
        for bad in [
            r#"{"a":{"X":"1"}}"#,
            r#"{"a":{"N":"12x"}}"#,
            r#"{"a":{"B":"!!!!"}}"#,
            r#"{"a":{"S":"x","N":"1"}}"#,
            r#"{"a":{}}"#,
            r#"{"a":"#,
        ] {
            assert!(
                size_item(bad.as_bytes(), Shape::DynamoDb, &[]).is_err(),
                "{bad}"
            );
        }
    }
}
