//! A read document as a tree of located nodes, and the one serde deserializer that reads the
//! typed documents (the workload, a price table) from it. serde-saphyr parses the text once
//! into the tree, with its budgets, merge keys and duplicate-key check; every typed reader is
//! then compiled against this small deserializer instead of against saphyr's, whose copy per
//! type was most of the WebAssembly download. It knows the path to each node and where the
//! node was written, so a refused value is named as `tables.orders.patterns.get-order.rate`
//! at its line and column. A scenario's merged document (JSON, no positions) is read the
//! same way, through `Tree::from_value`.

use std::fmt;

use serde::de::{self, DeserializeSeed, Unexpected, Visitor};

use super::{Location, SPANNED};

/// A node with where it is used (an alias) and where it is defined (its anchor).
#[derive(Debug)]
pub(crate) struct Tree {
    pub(crate) node: Node,
    pub(crate) referenced: Location,
    pub(crate) defined: Location,
}

/// What a node holds. A number holds no value: every reader is handed the text it was
/// written as (`1_000`, `2.50`, `1e400` stay so), never what a float would make of it.
#[derive(Debug)]
pub(crate) enum Node {
    Null,
    Bool(bool),
    /// A number, and whether YAML reads it as an integer (for a type error's words).
    Number {
        integer: bool,
    },
    Text(String),
    Seq(Vec<Tree>),
    /// Entries in the order written; each key is a `Text` node.
    Map(Vec<(Tree, Tree)>),
}

impl Tree {
    /// A document without positions (a scenario's merged workload). Numbers become their
    /// text, as `parse_value` keeps them, so none is read through a float.
    pub(crate) fn from_value(value: serde_json::Value) -> Tree {
        use serde_json::Value;
        let node = match value {
            Value::Null => Node::Null,
            Value::Bool(b) => Node::Bool(b),
            Value::Number(n) => Node::Text(n.to_string()),
            Value::String(s) => Node::Text(s),
            Value::Array(items) => Node::Seq(items.into_iter().map(Tree::from_value).collect()),
            Value::Object(map) => Node::Map(
                map.into_iter()
                    .map(|(k, v)| (Tree::unplaced(Node::Text(k)), Tree::from_value(v)))
                    .collect(),
            ),
        };
        Tree::unplaced(node)
    }

    fn unplaced(node: Node) -> Tree {
        Tree {
            node,
            referenced: Location::UNKNOWN,
            defined: Location::UNKNOWN,
        }
    }

    /// What the node is, in serde's words (`integer `5``, `string "x"`, `map`), for a
    /// type error; a number as written in `source`.
    fn described(&self, source: &str) -> String {
        match &self.node {
            Node::Null => "null".to_string(),
            Node::Bool(b) => Unexpected::Bool(*b).to_string(),
            Node::Number { integer } => {
                let kind = if *integer {
                    "integer"
                } else {
                    "floating point"
                };
                match self.scalar_text(source) {
                    Some(text) => format!("{kind} `{text}`"),
                    None => kind.to_string(),
                }
            }
            Node::Text(s) => Unexpected::Str(s).to_string(),
            Node::Seq(_) => Unexpected::Seq.to_string(),
            Node::Map(_) => Unexpected::Map.to_string(),
        }
    }

    /// A scalar's text as written in `source` (where it is defined); a string's as read.
    fn scalar_text<'a>(&'a self, source: &'a str) -> Option<std::borrow::Cow<'a, str>> {
        use std::borrow::Cow;
        match &self.node {
            Node::Text(s) => Some(Cow::Borrowed(s)),
            Node::Bool(b) => Some(
                super::source_text(&(self.referenced, self.defined), source)
                    .map_or_else(|| Cow::Owned(b.to_string()), Cow::Borrowed),
            ),
            Node::Number { .. } => {
                super::source_text(&(self.referenced, self.defined), source).map(Cow::Borrowed)
            }
            Node::Null | Node::Seq(_) | Node::Map(_) => None,
        }
    }
}

/// Where a node sits in the document: a chain from the root, printed as a refusal names it
/// (`tables.orders.patterns[0].rate`).
#[derive(Clone, Copy)]
pub(crate) enum Path<'p> {
    Root,
    Key(&'p Path<'p>, &'p str),
    Index(&'p Path<'p>, usize),
}

impl fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut steps = Vec::new();
        let mut at = self;
        loop {
            match at {
                Path::Root => break,
                Path::Key(parent, key) => {
                    steps.push(StepRef::Key(key));
                    at = parent;
                }
                Path::Index(parent, i) => {
                    steps.push(StepRef::Index(*i));
                    at = parent;
                }
            }
        }
        write_path(f, steps.into_iter().rev())
    }
}

/// One step of a path: a mapping's key or a sequence's index.
#[derive(Clone, Copy)]
enum StepRef<'a> {
    Key(&'a str),
    Index(usize),
}

/// Writes a path as a refusal names it: keys joined by dots, indexes in brackets.
fn write_path<'a>(
    out: &mut impl fmt::Write,
    steps: impl IntoIterator<Item = StepRef<'a>>,
) -> fmt::Result {
    for (n, step) in steps.into_iter().enumerate() {
        match step {
            StepRef::Key(key) => {
                if n > 0 {
                    out.write_char('.')?;
                }
                out.write_str(&crate::text::one_line(key))?;
            }
            StepRef::Index(i) => write!(out, "[{i}]")?,
        }
    }
    Ok(())
}

/// A refused value: the message, and (once known) where it was written and its path.
#[derive(Debug)]
pub(crate) struct TreeError {
    pub(crate) message: String,
    pub(crate) at: Option<Location>,
    pub(crate) path: Option<String>,
    /// A suggestion of the refusal's own (else one is chosen from the message).
    pub(crate) help: Option<String>,
}

impl TreeError {
    /// Fills in the innermost node the error passed through: its path and position.
    fn within(mut self, path: &Path<'_>, tree: &Tree) -> TreeError {
        if self.path.is_none() {
            self.path = Some(path.to_string());
        }
        if self.at.is_none() && tree.referenced.line() > 0 {
            self.at = Some(tree.referenced);
        }
        self
    }
}

impl fmt::Display for TreeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for TreeError {}

impl de::Error for TreeError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        TreeError {
            message: msg.to_string(),
            at: None,
            path: None,
            help: None,
        }
    }
    fn invalid_type(unexpected: Unexpected<'_>, expected: &dyn de::Expected) -> Self {
        Self::custom(format_args!(
            "invalid type: {unexpected}, expected {}",
            in_words(expected)
        ))
    }
    fn invalid_value(unexpected: Unexpected<'_>, expected: &dyn de::Expected) -> Self {
        Self::custom(format_args!(
            "invalid value: {unexpected}, expected {}",
            in_words(expected)
        ))
    }
    // The lists are written as serde-saphyr writes them (`expected one of a, b`).
    fn unknown_variant(variant: &str, expected: &'static [&'static str]) -> Self {
        Self::custom(format_args!(
            "unknown variant `{variant}`, expected one of {}",
            expected.join(", ")
        ))
    }
    fn unknown_field(field: &str, expected: &'static [&'static str]) -> Self {
        Self::custom(format_args!(
            "unknown field `{field}`, expected one of {}",
            expected.join(", ")
        ))
    }
}

/// What a reader expects, in the words of whoever wrote the file: serde names a derived type
/// (`struct RawPattern`, `enum RawOperation`), which means nothing there.
fn in_words(expected: &dyn de::Expected) -> String {
    let text = expected.to_string();
    if text.starts_with("struct ") || text == "a map" {
        "a mapping".to_string()
    } else if text.starts_with("enum ") {
        "one of the allowed names".to_string()
    } else {
        text
    }
}

/// Reads a typed value from a node. `source` is the document's text (empty without one).
pub(crate) struct TreeDeserializer<'a, 'p> {
    tree: &'a Tree,
    source: &'a str,
    path: Path<'p>,
    /// The document itself: an empty one reads as an empty mapping.
    root: bool,
    /// A name — a mapping's key, or the value of a `name` field — held to
    /// `text::unfit_for_name`.
    name: bool,
}

impl<'a> TreeDeserializer<'a, 'static> {
    /// The deserializer of a whole document.
    pub(crate) fn root(tree: &'a Tree, source: &'a str) -> Self {
        TreeDeserializer {
            tree,
            source,
            path: Path::Root,
            root: true,
            name: false,
        }
    }
}

impl<'a> TreeDeserializer<'a, '_> {
    fn locate<T>(&self, result: Result<T, TreeError>) -> Result<T, TreeError> {
        result.map_err(|e| e.within(&self.path, self.tree))
    }

    /// `text` as a reader may take it: refused, at its path and position, when it holds a
    /// character that would act on a terminal or reorder a report rather than be shown
    /// (`crate::text`) — in a name, any control character at all.
    fn checked<'t>(&self, text: &'t str) -> Result<&'t str, TreeError> {
        let Err(message) = crate::text::check(text, self.name) else {
            return Ok(text);
        };
        let mut e = <TreeError as de::Error>::custom(message);
        e.help = Some(crate::text::HELP.to_string());
        self.locate(Err(e))
    }

    fn refuse<T>(&self, expected: &dyn de::Expected) -> Result<T, TreeError> {
        let found = self.tree.described(self.source);
        self.locate(Err(de::Error::invalid_type(
            Unexpected::Other(&found),
            expected,
        )))
    }

    fn visit_map<'de, V: Visitor<'de>>(
        &self,
        entries: &'a [(Tree, Tree)],
        v: V,
    ) -> Result<V::Value, TreeError> {
        let access = Entries {
            rest: entries.iter(),
            current: None,
            source: self.source,
            path: &self.path,
        };
        self.locate(v.visit_map(access))
    }

    fn visit_seq<'de, V: Visitor<'de>>(
        &self,
        items: &'a [Tree],
        v: V,
    ) -> Result<V::Value, TreeError> {
        let access = Items {
            rest: items.iter().enumerate(),
            source: self.source,
            path: &self.path,
        };
        self.locate(v.visit_seq(access))
    }
}

macro_rules! forward_to_any {
    ($($method:ident)*) => {
        $(fn $method<V: Visitor<'de>>(self, v: V) -> Result<V::Value, TreeError> {
            self.deserialize_any(v)
        })*
    };
}

impl<'de> de::Deserializer<'de> for TreeDeserializer<'_, '_> {
    type Error = TreeError;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, TreeError> {
        let result = match &self.tree.node {
            Node::Null => v.visit_unit(),
            Node::Bool(b) => v.visit_bool(*b),
            // A number is handed over as the text it was written as, as in a document
            // without text (a scenario's), where every number is text: both ways in read it
            // alike, and none through a float (`.nan` and `1e400` are refused by the reader
            // of the quantity, at its path).
            Node::Number { .. } => match self.tree.scalar_text(self.source) {
                Some(text) => v.visit_str(&text),
                None => Err(de::Error::custom(
                    "a number whose text cannot be located in the file",
                )),
            },
            Node::Text(s) => v.visit_str(self.checked(s)?),
            Node::Seq(items) => return self.visit_seq(items, v),
            Node::Map(entries) => return self.visit_map(entries, v),
        };
        self.locate(result)
    }

    forward_to_any! {
        deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
        deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64
        deserialize_u128 deserialize_f32 deserialize_f64 deserialize_char deserialize_bytes
        deserialize_byte_buf
    }

    /// Text: a string as read, a number or boolean as written (`1_000`, `2.50` stay so).
    fn deserialize_str<V: Visitor<'de>>(self, v: V) -> Result<V::Value, TreeError> {
        match self.tree.scalar_text(self.source) {
            Some(text) => {
                let text = self.checked(&text)?;
                self.locate(v.visit_str(text))
            }
            None => self.refuse(&v),
        }
    }

    fn deserialize_string<V: Visitor<'de>>(self, v: V) -> Result<V::Value, TreeError> {
        self.deserialize_str(v)
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, v: V) -> Result<V::Value, TreeError> {
        self.deserialize_str(v)
    }

    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value, TreeError> {
        if matches!(self.tree.node, Node::Null) {
            self.locate(v.visit_none())
        } else {
            v.visit_some(self)
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, v: V) -> Result<V::Value, TreeError> {
        match self.tree.node {
            Node::Null => self.locate(v.visit_unit()),
            _ => self.refuse(&v),
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        v: V,
    ) -> Result<V::Value, TreeError> {
        self.deserialize_unit(v)
    }

    /// `Spanned` asks by name and is handed its node's positions before its value.
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        v: V,
    ) -> Result<V::Value, TreeError> {
        if name == SPANNED {
            let positions = [self.tree.referenced, self.tree.defined].map(Location::to_numbers);
            let access = WithPositions {
                positions: Some(positions),
                value: Some(self),
            };
            v.visit_seq(access)
        } else {
            v.visit_newtype_struct(self)
        }
    }

    fn deserialize_seq<V: Visitor<'de>>(self, v: V) -> Result<V::Value, TreeError> {
        match &self.tree.node {
            Node::Seq(items) => self.visit_seq(items, v),
            _ => self.refuse(&v),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _: usize, v: V) -> Result<V::Value, TreeError> {
        self.deserialize_seq(v)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: usize,
        v: V,
    ) -> Result<V::Value, TreeError> {
        self.deserialize_seq(v)
    }

    fn deserialize_map<V: Visitor<'de>>(self, v: V) -> Result<V::Value, TreeError> {
        match &self.tree.node {
            Node::Map(entries) => self.visit_map(entries, v),
            Node::Null if self.root => self.visit_map(&[], v),
            _ => self.refuse(&v),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, TreeError> {
        self.deserialize_map(v)
    }

    /// A unit variant as its name (`get`), one with content as a one-entry mapping.
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        variants: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, TreeError> {
        let access = match &self.tree.node {
            Node::Map(entries) if entries.len() == 1 => {
                let (key, value) = &entries[0];
                Variant {
                    name: key,
                    content: Some(value),
                    source: self.source,
                    path: &self.path,
                }
            }
            Node::Map(_) | Node::Seq(_) | Node::Null => {
                return self.refuse(&format!("one of {}", variants.join(", ")).as_str());
            }
            _ => Variant {
                name: self.tree,
                content: None,
                source: self.source,
                path: &self.path,
            },
        };
        self.locate(v.visit_enum(access))
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, TreeError> {
        v.visit_unit()
    }
}

/// A mapping's entries, each value at the path of its key.
struct Entries<'a, 'p> {
    rest: std::slice::Iter<'a, (Tree, Tree)>,
    current: Option<&'a (Tree, Tree)>,
    source: &'a str,
    path: &'p Path<'p>,
}

/// A key's text (keys are `Text` nodes).
fn key_text(key: &Tree) -> &str {
    match &key.node {
        Node::Text(s) => s,
        _ => "?",
    }
}

impl<'de> de::MapAccess<'de> for Entries<'_, '_> {
    type Error = TreeError;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, TreeError> {
        let Some(entry) = self.rest.next() else {
            return Ok(None);
        };
        self.current = Some(entry);
        let key = &entry.0;
        let path = Path::Key(self.path, key_text(key));
        let de = TreeDeserializer {
            tree: key,
            source: self.source,
            path,
            root: false,
            name: true,
        };
        seed.deserialize(de).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, TreeError> {
        let (key, value) = self
            .current
            .take()
            .ok_or_else(|| de::Error::custom("a value was asked for before its key"))?;
        let path = Path::Key(self.path, key_text(key));
        let de = TreeDeserializer {
            tree: value,
            source: self.source,
            path,
            root: false,
            // The value of a `name` field is a name too (a workload's, a scenario's).
            name: key_text(key) == "name",
        };
        seed.deserialize(de)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.rest.len())
    }
}

/// A sequence's items, each at its index.
struct Items<'a, 'p> {
    rest: std::iter::Enumerate<std::slice::Iter<'a, Tree>>,
    source: &'a str,
    path: &'p Path<'p>,
}

impl<'de> de::SeqAccess<'de> for Items<'_, '_> {
    type Error = TreeError;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, TreeError> {
        let Some((i, item)) = self.rest.next() else {
            return Ok(None);
        };
        let de = TreeDeserializer {
            tree: item,
            source: self.source,
            path: Path::Index(self.path, i),
            root: false,
            name: false,
        };
        seed.deserialize(de).map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.rest.len())
    }
}

/// What `Spanned` reads: the two positions as numbers, then the value.
struct WithPositions<'a, 'p> {
    positions: Option<[[u64; 5]; 2]>,
    value: Option<TreeDeserializer<'a, 'p>>,
}

impl<'de> de::SeqAccess<'de> for WithPositions<'_, '_> {
    type Error = TreeError;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, TreeError> {
        if let Some(positions) = self.positions.take() {
            let numbers = positions.into_iter().flatten();
            let numbers: de::value::SeqDeserializer<_, TreeError> =
                de::value::SeqDeserializer::new(numbers);
            return seed.deserialize(numbers).map(Some);
        }
        match self.value.take() {
            Some(de) => seed.deserialize(de).map(Some),
            None => Ok(None),
        }
    }
}

/// An enum's variant: its name node and the content of a `{ variant: content }` mapping.
struct Variant<'a, 'p> {
    name: &'a Tree,
    content: Option<&'a Tree>,
    source: &'a str,
    path: &'p Path<'p>,
}

impl<'de, 'a, 'p> de::EnumAccess<'de> for Variant<'a, 'p> {
    type Error = TreeError;
    type Variant = Content<'a, 'p>;

    fn variant_seed<V: DeserializeSeed<'de>>(
        self,
        seed: V,
    ) -> Result<(V::Value, Content<'a, 'p>), TreeError> {
        let name = TreeDeserializer {
            tree: self.name,
            source: self.source,
            path: *self.path,
            root: false,
            name: false,
        };
        let variant = seed.deserialize(name)?;
        let content = Content {
            name: self.name,
            inner: self.content,
            source: self.source,
            path: self.path,
        };
        Ok((variant, content))
    }
}

/// A variant's content, at the path of the variant's name.
struct Content<'a, 'p> {
    name: &'a Tree,
    inner: Option<&'a Tree>,
    source: &'a str,
    path: &'p Path<'p>,
}

impl<'de> de::VariantAccess<'de> for Content<'_, '_> {
    type Error = TreeError;

    fn unit_variant(self) -> Result<(), TreeError> {
        match self.inner {
            None
            | Some(Tree {
                node: Node::Null, ..
            }) => Ok(()),
            Some(tree) => Err(de::Error::invalid_type(
                Unexpected::Other(&tree.described(self.source)),
                &"a unit variant",
            )),
        }
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, TreeError> {
        let path = Path::Key(self.path, key_text(self.name));
        let Some(tree) = self.inner else {
            return Err(de::Error::invalid_type(
                Unexpected::UnitVariant,
                &"a variant with content",
            ));
        };
        seed.deserialize(TreeDeserializer {
            tree,
            source: self.source,
            path,
            root: false,
            name: false,
        })
    }

    fn tuple_variant<V: Visitor<'de>>(self, _: usize, v: V) -> Result<V::Value, TreeError> {
        self.newtype_variant_seed(Shaped::Seq(v))
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, TreeError> {
        self.newtype_variant_seed(Shaped::Map(v))
    }
}

/// A visitor handed to a node as a sequence or a mapping (tuple and struct variants).
enum Shaped<V> {
    Seq(V),
    Map(V),
}

impl<'de, V: Visitor<'de>> DeserializeSeed<'de> for Shaped<V> {
    type Value = V::Value;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        match self {
            Shaped::Seq(v) => d.deserialize_seq(v),
            Shaped::Map(v) => d.deserialize_map(v),
        }
    }
}

/// One step of the path to a node being read: a mapping's key or a sequence's index.
#[derive(Debug)]
pub(crate) enum Step {
    Key(String),
    Index(usize),
}

/// The path of `steps`, written as a refused value's path is (`tables.orders.items[0]`).
pub(crate) fn path_text(steps: &[Step]) -> String {
    let mut text = String::new();
    let steps = steps.iter().map(|step| match step {
        Step::Key(key) => StepRef::Key(key),
        Step::Index(i) => StepRef::Index(*i),
    });
    // Writing into a String cannot fail.
    let _ = write_path(&mut text, steps);
    text
}

thread_local! {
    /// The path to the node being built: pushed and popped as the tree is read, and left
    /// where the parser stopped when it refuses the text.
    static BUILDING: std::cell::RefCell<Vec<Step>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Builds the tree from serde-saphyr's deserializer; on a refusal (a duplicate key, an
/// unknown anchor, malformed YAML), also the path to the node the parser was reading.
pub(crate) fn build<'de, D: de::Deserializer<'de>>(d: D) -> Result<Tree, (D::Error, String)> {
    BUILDING.with_borrow_mut(Vec::clear);
    let built = de::Deserialize::deserialize(d);
    let path = BUILDING.with_borrow_mut(|steps| {
        let path = path_text(steps);
        steps.clear();
        path
    });
    built.map_err(|e| (e, path))
}

/// Runs `read` with `step` on the path being built, and gives the step back; a refusal
/// leaves it there.
fn within<T, E>(step: Step, read: impl FnOnce() -> Result<T, E>) -> Result<(T, Option<Step>), E> {
    BUILDING.with_borrow_mut(|steps| steps.push(step));
    let value = read()?;
    Ok((value, BUILDING.with_borrow_mut(Vec::pop)))
}

/// Builds a node (serde-saphyr is the only deserializer it is compiled against).
impl<'de> de::Deserialize<'de> for Tree {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let spanned: serde_saphyr::Spanned<Node> = de::Deserialize::deserialize(d)?;
        Ok(Tree {
            node: spanned.value,
            referenced: spanned.referenced.into(),
            defined: spanned.defined.into(),
        })
    }
}

impl<'de> de::Deserialize<'de> for Node {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(NodeVisitor)
    }
}

struct NodeVisitor;

impl<'de> Visitor<'de> for NodeVisitor {
    type Value = Node;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a YAML value")
    }
    fn visit_unit<E>(self) -> Result<Node, E> {
        Ok(Node::Null)
    }
    fn visit_none<E>(self) -> Result<Node, E> {
        Ok(Node::Null)
    }
    fn visit_some<D: de::Deserializer<'de>>(self, d: D) -> Result<Node, D::Error> {
        de::Deserialize::deserialize(d)
    }
    fn visit_bool<E>(self, b: bool) -> Result<Node, E> {
        Ok(Node::Bool(b))
    }
    // Numbers: the value is dropped unread; readers get the text at the node's span.
    fn visit_i64<E>(self, _: i64) -> Result<Node, E> {
        Ok(Node::Number { integer: true })
    }
    fn visit_u64<E>(self, _: u64) -> Result<Node, E> {
        Ok(Node::Number { integer: true })
    }
    fn visit_i128<E>(self, _: i128) -> Result<Node, E> {
        Ok(Node::Number { integer: true })
    }
    fn visit_u128<E>(self, _: u128) -> Result<Node, E> {
        Ok(Node::Number { integer: true })
    }
    fn visit_f64<E>(self, _: f64) -> Result<Node, E> {
        Ok(Node::Number { integer: false })
    }
    fn visit_str<E>(self, v: &str) -> Result<Node, E> {
        Ok(Node::Text(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<Node, E> {
        Ok(Node::Text(v))
    }
    fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Node, A::Error> {
        let mut items = Vec::new();
        while let (Some(item), _) = within(Step::Index(items.len()), || seq.next_element::<Tree>())?
        {
            items.push(item);
        }
        Ok(Node::Seq(items))
    }
    fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<Node, A::Error> {
        let mut entries = Vec::new();
        while let Some(key) = map.next_key::<serde_saphyr::Spanned<String>>()? {
            // The key's text is lent to the path while its value is read.
            let (value, step) = within(Step::Key(key.value), || map.next_value::<Tree>())?;
            let Some(Step::Key(name)) = step else {
                return Err(de::Error::custom("the path being read lost a key"));
            };
            let key = Tree {
                node: Node::Text(name),
                referenced: key.referenced.into(),
                defined: key.defined.into(),
            };
            entries.push((key, value));
        }
        Ok(Node::Map(entries))
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Spanned, parse, parse_document};
    use super::{Step, path_text};

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Doc {
        a: Spanned<String>,
        #[serde(default)]
        b: Vec<Spanned<String>>,
        c: Option<Kind>,
    }

    #[derive(Debug, serde::Deserialize, PartialEq)]
    #[serde(rename_all = "kebab-case")]
    enum Kind {
        Plain,
        WithSize { size: String },
    }

    #[test]
    fn paths_are_written_as_refusals_name_them() {
        let steps = [
            Step::Key("tables".into()),
            Step::Key("orders".into()),
            Step::Index(2),
            Step::Key("rate".into()),
        ];
        assert_eq!(path_text(&steps), "tables.orders[2].rate");
        assert_eq!(path_text(&[Step::Index(0)]), "[0]");
        assert_eq!(path_text(&[]), "");
    }

    #[test]
    fn a_spanned_value_knows_where_it_was_written_and_where_its_anchor_is() {
        let doc: Doc = parse("a: &x 1_000\nb:\n  - two\n  - *x\nc: plain\n", "t.yaml").unwrap();
        // A number read as text keeps the text it was written as.
        assert_eq!(doc.a.value, "1_000");
        // The value starts after its anchor: `a: &x 1_000`, column 7.
        assert_eq!((doc.a.referenced.line(), doc.a.referenced.column()), (1, 7));
        assert_eq!(doc.b[1].value, "1_000");
        // The alias is used at line 4 and defined at line 1.
        assert_eq!(doc.b[1].referenced.line(), 4);
        assert_eq!(doc.b[1].defined.line(), 1);
        assert_eq!(doc.c, Some(Kind::Plain));
    }

    #[test]
    fn variants_with_content_are_one_entry_mappings() {
        let doc: Doc = parse("a: x\nc: { with-size: { size: 2 KB } }\n", "t.yaml").unwrap();
        assert_eq!(
            doc.c,
            Some(Kind::WithSize {
                size: "2 KB".into()
            })
        );
    }

    #[test]
    fn a_refusal_names_the_path_line_and_column_of_the_value() {
        let e = parse::<Doc>("a: x\nb: [ok, { no: 1 }]\n", "t.yaml").unwrap_err();
        let text = e.to_string();
        assert!(
            text.contains("invalid type: map, expected a string"),
            "{text}"
        );
        let json = e.to_json();
        assert_eq!(json["path"], "b[1]", "{json}");
        assert_eq!(json["line"], 2, "{json}");
        let e = parse::<Doc>("a: x\nd: 1\n", "t.yaml").unwrap_err();
        assert!(
            e.to_string()
                .contains("unknown field `d`, expected one of a, b, c")
        );
        let e = parse::<Doc>("a: x\nc: { with-size: 1, plain: ~ }\n", "t.yaml").unwrap_err();
        assert!(
            e.to_string().contains("expected one of plain, with-size"),
            "{e}"
        );
    }

    #[test]
    fn a_document_without_text_is_read_the_same_way_at_no_position() {
        let doc: Doc = parse_document(
            serde_json::json!({"a": 12.5, "b": ["x"], "c": "plain"}),
            "merged",
        )
        .unwrap();
        assert_eq!(doc.a.value, "12.5");
        assert_eq!(doc.a.referenced.line(), 0);
        let e = parse_document::<Doc>(serde_json::json!({"a": [1]}), "merged").unwrap_err();
        let json = e.to_json();
        assert_eq!(json["path"], "a", "{json}");
    }

    #[derive(Debug, serde::Deserialize)]
    struct Named {
        names: indexmap::IndexMap<String, String>,
    }

    #[test]
    fn text_that_would_act_on_a_terminal_is_refused_where_it_is_written() {
        // A value may lay itself out (a description over two lines, a tab)...
        let doc: Named = parse("names:\n  a: \"two\\nlines\\tx\"\n", "t.yaml").unwrap();
        assert_eq!(doc.names["a"], "two\nlines\tx");
        // ...but not hold an escape sequence, at line 2 column 6 where the value starts.
        let e = parse::<Named>("names:\n  a: \"x\\e[2J\"\n", "t.yaml").unwrap_err();
        let json = e.to_json();
        assert_eq!(json["path"], "names.a", "{json}");
        assert_eq!(
            (json["line"].clone(), json["column"].clone()),
            (2.into(), 6.into())
        );
        assert!(
            e.message.contains(
                "the text \"x\\u{1b}[2J\" holds a control character (U+001B) at character 2"
            ),
            "{e}"
        );
        // A name (a key) may not hold a line break, and the path shows it escaped.
        let e = parse::<Named>("names:\n  \"a\\nb\": x\n", "t.yaml").unwrap_err();
        assert!(
            e.message
                .contains("the name \"a\\u{a}b\" holds a line break (U+000A)"),
            "{e}"
        );
        assert_eq!(e.to_json()["path"], "names.a\\u{a}b");
        // A document without text (a scenario's) is held to the same rule, at its path.
        let e = parse_document::<Named>(serde_json::json!({"names": {"a": "\u{202E}x"}}), "merged")
            .unwrap_err();
        assert!(
            e.message.contains("a bidirectional override (U+202E)"),
            "{e}"
        );
        assert_eq!(e.to_json()["path"], "names.a");
    }
}
