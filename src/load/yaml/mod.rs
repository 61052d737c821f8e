//! The only module that reads and writes YAML. Reading (here) uses serde-saphyr, which is
//! pure Rust and enforces input budgets against alias bombs and deep nesting, and turns
//! parser and type errors into our `Error`: file, path inside the document, line and column,
//! and a "did you mean" for unknown fields and values. Writing is `write`.

mod tree;
pub(crate) mod write;

use serde::de::DeserializeOwned;

use super::suggest;
use crate::error::Error;

/// The node budget of a small document (larger ones get one node per byte).
const MIN_NODE_BUDGET: usize = 50_000;

/// Where a parsed value was written: 1-based line and column (0 when unknown) and, when
/// known, the bytes of the source it spans.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Location {
    line: u64,
    column: u64,
    bytes: Option<(u64, u64)>,
}

impl Location {
    /// No position (a value from a document without text).
    pub const UNKNOWN: Location = Location {
        line: 0,
        column: 0,
        bytes: None,
    };

    /// 1-based line, 0 when unknown.
    #[must_use]
    pub fn line(&self) -> u64 {
        self.line
    }

    /// 1-based column, 0 when unknown.
    #[must_use]
    pub fn column(&self) -> u64 {
        self.column
    }

    /// Line, column, whether the bytes are known, offset, length: how `Spanned` is handed
    /// its positions by the tree's deserializer.
    fn to_numbers(self) -> [u64; 5] {
        let (known, (at, len)) = match self.bytes {
            Some(b) => (1, b),
            None => (0, (0, 0)),
        };
        [self.line, self.column, known, at, len]
    }

    fn from_numbers(n: &[u64]) -> Location {
        match n {
            [line, column, known, at, len] => Location {
                line: *line,
                column: *column,
                bytes: (*known == 1).then_some((*at, *len)),
            },
            _ => Location::UNKNOWN,
        }
    }
}

impl From<serde_saphyr::Location> for Location {
    fn from(l: serde_saphyr::Location) -> Location {
        let span = l.span();
        Location {
            line: l.line(),
            column: l.column(),
            bytes: span.byte_offset().zip(span.byte_len()),
        }
    }
}

/// The name `Spanned` asks the tree's deserializer for, to be handed its positions.
const SPANNED: &str = "$ddbcost::Spanned";

/// A value with the position it was written at: where it is used (`referenced`: an alias)
/// and where it is defined (`defined`: its anchor). Its JSON Schema is its value's: a
/// spanned field needs no schema of its own, so the schema cannot drift from what the
/// loader reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spanned<T> {
    pub value: T,
    pub referenced: Location,
    pub defined: Location,
}

impl<T> Spanned<T> {
    /// `value`, at the positions of another node.
    pub fn at(value: T, referenced: Location, defined: Location) -> Self {
        Spanned {
            value,
            referenced,
            defined,
        }
    }
}

/// From the tree's deserializer: the positions, then the value; from any other (a value
/// buffered by serde), the value alone, at no position.
impl<'de, T: serde::Deserialize<'de>> serde::Deserialize<'de> for Spanned<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(std::marker::PhantomData<T>);
        impl<'de, T: serde::Deserialize<'de>> serde::de::Visitor<'de> for V<T> {
            type Value = Spanned<T>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a value")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<Spanned<T>, A::Error> {
                let numbers: [u64; 10] = seq
                    .next_element()?
                    .ok_or_else(|| serde::de::Error::custom("a value without its positions"))?;
                let value = seq
                    .next_element()?
                    .ok_or_else(|| serde::de::Error::custom("positions without their value"))?;
                let (referenced, defined) = numbers.split_at(5);
                Ok(Spanned::at(
                    value,
                    Location::from_numbers(referenced),
                    Location::from_numbers(defined),
                ))
            }
            fn visit_newtype_struct<D: serde::Deserializer<'de>>(
                self,
                d: D,
            ) -> Result<Spanned<T>, D::Error> {
                T::deserialize(d).map(|v| Spanned::at(v, Location::UNKNOWN, Location::UNKNOWN))
            }
        }
        d.deserialize_newtype_struct(SPANNED, V(std::marker::PhantomData))
    }
}

impl<T: schemars::JsonSchema> schemars::JsonSchema for Spanned<T> {
    fn inline_schema() -> bool {
        T::inline_schema()
    }
    fn schema_name() -> std::borrow::Cow<'static, str> {
        T::schema_name()
    }
    fn schema_id() -> std::borrow::Cow<'static, str> {
        T::schema_id()
    }
    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        T::json_schema(generator)
    }
}

/// A spanned value serializes as its value (the schema's `default`s are written from it).
impl<T: serde::Serialize> serde::Serialize for Spanned<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.value.serialize(serializer)
    }
}

/// A value that knows where it was written.
pub(crate) trait Located {
    /// Where it is used (an alias) and where it is defined (its anchor).
    fn locations(&self) -> (Location, Location);
}

impl<T> Located for Spanned<T> {
    fn locations(&self) -> (Location, Location) {
        (self.referenced, self.defined)
    }
}

impl Located for (Location, Location) {
    fn locations(&self) -> (Location, Location) {
        *self
    }
}

/// 1-based (line, column) of a spanned value.
pub(crate) fn position(value: &impl Located) -> Option<(u64, u64)> {
    let loc = value.locations().0;
    (loc.line() > 0).then(|| (loc.line(), loc.column()))
}

/// The text a spanned node was written as in `source` (where it is defined: an alias points
/// back to its anchor), trimmed. `None` when the span has no byte offsets.
pub(crate) fn source_text<'a>(value: &impl Located, source: &'a str) -> Option<&'a str> {
    let (at, len) = value.locations().1.bytes?;
    let at = usize::try_from(at).ok()?;
    let len = usize::try_from(len).ok()?;
    let text = source.get(at..at.checked_add(len)?)?.trim();
    (!text.is_empty()).then_some(text)
}

/// Deserializes `text` (the contents of `file`) into `T`, rejecting unknown fields.
///
/// # Errors
/// Malformed YAML, a value of the wrong type, an unknown field or value.
pub(crate) fn parse<T: DeserializeOwned>(text: &str, file: &str) -> Result<T, Error> {
    let tree = read_tree(text, file)?;
    T::deserialize(tree::TreeDeserializer::root(&tree, text)).map_err(|e| refused(e, file, text))
}

/// Deserializes a document without text (a scenario's merged workload) into `T`, as `parse`
/// does: the same reader, the same errors, without positions.
///
/// # Errors
/// A value of the wrong type, an unknown field or value.
pub(crate) fn parse_document<T: DeserializeOwned>(
    doc: serde_json::Value,
    file: &str,
) -> Result<T, Error> {
    let tree = tree::Tree::from_value(doc);
    T::deserialize(tree::TreeDeserializer::root(&tree, "")).map_err(|e| refused(e, file, ""))
}

/// A value the typed reader refused, as our `Error`.
fn refused(e: tree::TreeError, file: &str, text: &str) -> Error {
    let position =
        e.at.filter(|l| l.line() > 0)
            .map(|l| (l.line(), l.column()));
    let mut err = Error::input(e.message.clone())
        .file(file)
        .at(position)
        .quoting(text);
    if let Some(p) = e.path.filter(|p| !p.is_empty()) {
        err = err.path(p);
    }
    let help = e.help.unwrap_or_else(|| help_for(&e.message));
    err.help(help)
}

/// Parses `text` into the tree. A non-finite number (`.nan`, `1e400`) is kept, to be refused
/// by the typed reader at its path, or kept as its text in an untyped document.
///
/// # Errors
/// Malformed YAML, a breached budget, a duplicate key: at the path the parser was reading.
fn read_tree(text: &str, file: &str) -> Result<tree::Tree, Error> {
    let mut at = String::new();
    let options = options(text, serde_saphyr::NonFiniteFloatPolicy::PassThrough);
    serde_saphyr::with_deserializer_from_str_with_options(text, options, |de| {
        tree::build(de).map_err(|(e, path)| {
            at = path;
            e
        })
    })
    .map_err(|e| {
        let err = unparsed(&e, file, text);
        if at.is_empty() { err } else { err.path(at) }
    })
}

/// Parses `text` with serde-saphyr into `T` (a template), within the input budgets.
///
/// # Errors
/// Malformed YAML, a breached budget, a duplicate key, a non-finite number.
fn read<T: DeserializeOwned>(text: &str, file: &str) -> Result<T, Error> {
    let options = options(text, serde_saphyr::NonFiniteFloatPolicy::Reject);
    serde_saphyr::with_deserializer_from_str_with_options(text, options, |de| T::deserialize(de))
        .map_err(|e| unparsed(&e, file, text))
}

/// The parser's options for `text`: YAML 1.2 booleans and the input budgets.
fn options(text: &str, non_finite: serde_saphyr::NonFiniteFloatPolicy) -> serde_saphyr::Options {
    // A budget that scales with the input: an honest document has at most about one node per
    // byte it is written in (a node takes at least a character and a separator), so a
    // 1,000-table workload passes, while an alias bomb — many nodes out of few bytes — is
    // stopped after as many nodes as its text has bytes, early and in little memory.
    let max_nodes = text.len().max(MIN_NODE_BUDGET);
    serde_saphyr::options! {
        // YAML 1.2 booleans only (`true`/`false`): `on`, `yes` or `no` are text, so a scenario
        // named `on` or a country code `NO` is never read as a boolean.
        strict_booleans: true,
        non_finite_float_policy: non_finite,
        budget: serde_saphyr::budget! {
            max_nodes: max_nodes,
            // Parser events grow with nodes (a start and an end per collection).
            max_events: max_nodes.saturating_mul(2),
            max_aliases: 1_000,
            max_depth: 48,
            max_total_scalar_bytes: text.len().max(16 * 1024 * 1024),
            max_recorded_anchor_bytes: 1024 * 1024,
        },
    }
}

/// A text serde-saphyr refused, as our `Error`.
fn unparsed(e: &serde_saphyr::Error, file: &str, text: &str) -> Error {
    let position = e.location().map(|l| (l.line(), l.column()));
    let raw = e.without_snippet().to_string();
    let message = strip_position(&raw);
    Error::input(message.clone())
        .file(file)
        .at(position)
        .quoting(text)
        .help(help_for(&message))
}

/// serde-saphyr prefixes "error: line L column C: "; we print the position ourselves.
/// It may also end the message with " at line L, column C".
fn strip_position(raw: &str) -> String {
    let first = raw.lines().next().unwrap_or(raw);
    let first = first.strip_prefix("error: ").unwrap_or(first);
    let first = match first.find(": ") {
        Some(i) if first.starts_with("line ") => first.get(i.saturating_add(2)..).unwrap_or(first),
        _ => first,
    };
    let first = match first.rfind(" at line ") {
        Some(i) if first[i..].contains(", column ") => &first[..i],
        _ => first,
    };
    // "set DuplicateKeyPolicy in Options" speaks to programmers, not to users.
    first.replace(", set DuplicateKeyPolicy in Options if acceptable", "")
}

/// A suggestion for the common mistakes: a misspelt field or value.
fn help_for(message: &str) -> String {
    for what in ["field", "variant"] {
        let prefix = format!("unknown {what} `");
        if let Some(rest) = message.strip_prefix(&prefix) {
            let (name, rest) = rest.split_once('`').unwrap_or((rest, ""));
            let candidates: Vec<&str> = rest
                .split_once("expected one of ")
                .or_else(|| rest.split_once("expected "))
                .map(|(_, list)| {
                    list.split(", ")
                        .map(|c| c.trim_matches(|ch: char| ch == '`' || ch.is_whitespace()))
                        .filter(|c| !c.is_empty())
                        .collect()
                })
                .unwrap_or_default();
            let noun = if what == "field" { "field" } else { "value" };
            return match suggest::closest(name, candidates.iter().copied()) {
                Some(c) => format!(
                    "Consider `{c}` (did you mean it?); unknown {noun}s are refused so that a typo cannot silently cost zero."
                ),
                None => {
                    format!("Consider one of the allowed {noun}s; docs/workload.md lists them.")
                }
            };
        }
    }
    if message.starts_with("budget breached") {
        return "Consider a document without runaway aliases or nesting: ddbcost refuses YAML that expands to more nodes than it has bytes (at least 50,000), uses more than 1,000 aliases, or nests deeper than 48 levels (a guard against alias bombs).".to_string();
    }
    if message.starts_with("alias references unknown anchor") {
        return "Consider defining the anchor (`&name value`) before the alias that uses it (`*name`): YAML reads an alias only after its anchor.".to_string();
    }
    if message.starts_with("unexpected character") {
        return "Consider removing it: YAML allows no control character in its text, and names and text are printed on terminals and in reports, where one would act instead of being shown.".to_string();
    }
    if message.starts_with("duplicate mapping key") {
        return "Consider giving each entry a distinct name: a repeated key would silently replace the first.".to_string();
    }
    "Consider checking the value against docs/workload.md (the workload file's reference)."
        .to_string()
}

/// Parses `text` into an untyped document (for merge patches) without ever reading a number:
/// each number keeps the text it was written as (`1234.5678901234567891` stays those 23
/// characters, as a JSON string), so a scenario's document holds exactly what the workload
/// file says and the typed loader reads every number from its text, as it does for the
/// baseline. Booleans, nulls and strings keep their YAML meaning.
///
/// # Errors
/// Malformed YAML, or a number whose text cannot be located in the input.
pub(crate) fn parse_value(text: &str, file: &str) -> Result<serde_json::Value, Error> {
    let tree = read_tree(text, file)?;
    to_value(tree, text).map_err(|why| {
        Error::input(why)
            .file(file)
            .help("Consider quoting the number (`\"1.5\"`): quantities are read from their text.")
    })
}

/// The JSON value of a node: numbers become the text `source` has at their span.
fn to_value(tree: tree::Tree, source: &str) -> Result<serde_json::Value, String> {
    use serde_json::Value;
    use tree::Node;
    Ok(match tree.node {
        Node::Null => Value::Null,
        Node::Bool(b) => Value::Bool(b),
        Node::Text(t) => Value::String(t),
        Node::Number { .. } => {
            let raw = source_text(&(tree.referenced, tree.defined), source).ok_or_else(|| {
                format!(
                    "the number at line {} cannot be read from its text",
                    tree.defined.line()
                )
            })?;
            Value::String(raw.to_string())
        }
        Node::Seq(items) => Value::Array(
            items
                .into_iter()
                .map(|n| to_value(n, source))
                .collect::<Result<_, _>>()?,
        ),
        Node::Map(entries) => {
            let mut map = serde_json::Map::with_capacity(entries.len());
            for (k, v) in entries {
                let Node::Text(key) = k.node else { continue };
                map.insert(key, to_value(v, source)?);
            }
            Value::Object(map)
        }
    })
}

/// `value` as YAML text (the advisor's scenarios).
///
/// # Errors
/// A value YAML cannot hold (never for JSON values).
pub(crate) fn to_text(value: &serde_json::Value) -> Result<String, Error> {
    serde_saphyr::to_string(value).map_err(|e| Error::input(format!("cannot write YAML: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_keep_their_text() {
        let doc = parse_value(
            "a: 1234.5678901234567891\nb: [1e3, -0.000000000000000000000000001, 7e28]\nc: { d: 12, e: '3.5', f: true, g: ~ }\nh: &x 0.1\ni: *x\n2024: 5\n",
            "t.yaml",
        )
        .expect("valid YAML");
        assert_eq!(
            doc,
            json!({
                "a": "1234.5678901234567891",
                "b": ["1e3", "-0.000000000000000000000000001", "7e28"],
                "c": {"d": "12", "e": "3.5", "f": true, "g": null},
                "h": "0.1",
                "i": "0.1",
                "2024": "5",
            })
        );
    }
}

/// A mapping key as text, whatever YAML would type it as (`2024:` names a resource too).
struct Key(String);

impl<'de> serde::Deserialize<'de> for Key {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let key: serde_saphyr::Spanned<String> = serde::Deserialize::deserialize(d)?;
        Ok(Key(key.value))
    }
}

/// A CloudFormation-style document (YAML with short-form intrinsics, or JSON) as JSON in the
/// long form: `!Ref X` becomes `{"Ref": "X"}`, `!GetAtt A.B` `{"Fn::GetAtt": ["A", "B"]}`,
/// `!Sub`, `!If`, `!Join`, `!Select`, … `{"Fn::Sub": …}`; numbers keep their text (as
/// strings), as in `parse_value`. `lines` maps each mapping entry's dotted path
/// (`Resources.Orders.Properties.TableName`) to its 1-based line.
#[derive(Debug, Clone)]
pub(crate) struct Template {
    pub value: serde_json::Value,
    pub lines: std::collections::HashMap<String, u64>,
}

/// Parses a template (see `Template`). JSON is read by the same parser (JSON is YAML).
///
/// # Errors
/// Malformed YAML or JSON, or a number whose text cannot be located.
pub(crate) fn parse_template(text: &str, file: &str) -> Result<Template, Error> {
    let node: TNode = read(text, file)?;
    let mut lines = std::collections::HashMap::new();
    let value = tnode_value(node, text, "", &mut lines).map_err(|why| {
        Error::input(why)
            .file(file)
            .help("Consider quoting the number: template numbers are read from their text.")
    })?;
    Ok(Template { value, lines })
}

/// A node of a template: its tag (`!Ref`) and its value.
#[derive(Debug)]
struct TNode(serde_saphyr::Tagged<serde_saphyr::Spanned<TInner>>);

#[derive(Debug)]
enum TInner {
    Null,
    Bool(bool),
    Number,
    Text(String),
    Seq(Vec<TNode>),
    Map(Vec<(String, TNode)>),
}

fn tnode_value(
    node: TNode,
    source: &str,
    path: &str,
    lines: &mut std::collections::HashMap<String, u64>,
) -> Result<serde_json::Value, String> {
    use serde_json::Value;
    let serde_saphyr::Tagged(spanned, tag) = node.0;
    let line = spanned.defined.line();
    if line > 0 && !path.is_empty() {
        lines.entry(path.to_string()).or_insert(line);
    }
    let value = match spanned.value {
        TInner::Null => Value::Null,
        TInner::Bool(b) => Value::Bool(b),
        TInner::Text(t) => Value::String(t),
        TInner::Number => {
            let raw = source_text(&(spanned.referenced.into(), spanned.defined.into()), source)
                .ok_or_else(|| format!("the number at line {line} cannot be read from its text"))?;
            Value::String(raw.to_string())
        }
        TInner::Seq(items) => Value::Array(
            items
                .into_iter()
                .enumerate()
                .map(|(i, n)| tnode_value(n, source, &format!("{path}[{i}]"), lines))
                .collect::<Result<_, _>>()?,
        ),
        TInner::Map(entries) => {
            let mut map = serde_json::Map::with_capacity(entries.len());
            for (k, v) in entries {
                let child = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                let v = tnode_value(v, source, &child, lines)?;
                map.insert(k, v);
            }
            Value::Object(map)
        }
    };
    // Short-form intrinsics: `!Ref`, `!Condition` keep their names; the others are `Fn::…`.
    // `!GetAtt A.B` is the string form of `["A", "B"]`.
    Ok(match tag.as_deref().and_then(|t| t.strip_prefix('!')) {
        None | Some("") => value,
        Some(name @ ("Ref" | "Condition")) => {
            serde_json::json!({ name: value })
        }
        Some("GetAtt") => {
            let value = match value {
                Value::String(s) => match s.split_once('.') {
                    Some((resource, attribute)) => serde_json::json!([resource, attribute]),
                    None => Value::String(s),
                },
                other => other,
            };
            serde_json::json!({ "Fn::GetAtt": value })
        }
        Some(name) => {
            let mut map = serde_json::Map::new();
            map.insert(format!("Fn::{name}"), value);
            Value::Object(map)
        }
    })
}

impl<'de> serde::Deserialize<'de> for TNode {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        serde::Deserialize::deserialize(d).map(TNode)
    }
}

impl<'de> serde::Deserialize<'de> for TInner {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(TVisitor)
    }
}

struct TVisitor;

impl<'de> serde::de::Visitor<'de> for TVisitor {
    type Value = TInner;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a template value")
    }
    fn visit_unit<E>(self) -> Result<TInner, E> {
        Ok(TInner::Null)
    }
    fn visit_none<E>(self) -> Result<TInner, E> {
        Ok(TInner::Null)
    }
    fn visit_some<D: serde::Deserializer<'de>>(self, d: D) -> Result<TInner, D::Error> {
        serde::Deserialize::deserialize(d)
    }
    fn visit_bool<E>(self, b: bool) -> Result<TInner, E> {
        Ok(TInner::Bool(b))
    }
    // Numbers: the value is dropped unread; the text is taken from the node's span.
    fn visit_i64<E>(self, _: i64) -> Result<TInner, E> {
        Ok(TInner::Number)
    }
    fn visit_u64<E>(self, _: u64) -> Result<TInner, E> {
        Ok(TInner::Number)
    }
    fn visit_i128<E>(self, _: i128) -> Result<TInner, E> {
        Ok(TInner::Number)
    }
    fn visit_u128<E>(self, _: u128) -> Result<TInner, E> {
        Ok(TInner::Number)
    }
    fn visit_f64<E>(self, _: f64) -> Result<TInner, E> {
        Ok(TInner::Number)
    }
    fn visit_str<E>(self, v: &str) -> Result<TInner, E> {
        Ok(TInner::Text(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<TInner, E> {
        Ok(TInner::Text(v))
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<TInner, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<TNode>()? {
            items.push(item);
        }
        Ok(TInner::Seq(items))
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<TInner, A::Error> {
        let mut entries = Vec::new();
        while let Some(key) = map.next_key::<Key>()? {
            entries.push((key.0, map.next_value::<TNode>()?));
        }
        Ok(TInner::Map(entries))
    }
}

#[cfg(test)]
mod template_tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn short_form_intrinsics_become_the_long_form() {
        let t = parse_template(
            "Resources:\n  T:\n    Type: AWS::DynamoDB::Table\n    Properties:\n      TableName: !Sub '${Env}-orders'\n      A: !Ref Env\n      B: !GetAtt T.Arn\n      C: !If [IsProd, 10, 5]\n      D: !Join ['-', [a, !Ref Env]]\n      E: 5\n",
            "t.yaml",
        )
        .unwrap();
        let p = &t.value["Resources"]["T"]["Properties"];
        assert_eq!(p["TableName"], json!({"Fn::Sub": "${Env}-orders"}));
        assert_eq!(p["A"], json!({"Ref": "Env"}));
        assert_eq!(p["B"], json!({"Fn::GetAtt": ["T", "Arn"]}));
        assert_eq!(p["C"], json!({"Fn::If": ["IsProd", "10", "5"]}));
        assert_eq!(p["D"], json!({"Fn::Join": ["-", ["a", {"Ref": "Env"}]]}));
        assert_eq!(p["E"], json!("5"));
        assert_eq!(t.lines["Resources.T.Properties.TableName"], 5);
    }

    #[test]
    fn json_templates_parse_too() {
        let t = parse_template(
            "{\"Resources\": {\"T\": {\"Properties\": {\"ReadCapacityUnits\": 5, \"X\": {\"Ref\": \"P\"}}}}}",
            "t.json",
        )
        .unwrap();
        assert_eq!(
            t.value["Resources"]["T"]["Properties"]["ReadCapacityUnits"],
            json!("5")
        );
        assert_eq!(
            t.value["Resources"]["T"]["Properties"]["X"],
            json!({"Ref": "P"})
        );
    }
}
