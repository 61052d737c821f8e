//! What `ddbcost keys` measured, whole: one exact counter per key attribute (the table's
//! partition key, each global secondary index's), with the items and log lines read. A
//! summary adds up with another of the same layout (`merge`), and its JSON form carries every
//! value's counts, so the summaries of pieces merge to exactly the summary of the whole.

use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::ser::{SerializeSeq, Serializer};
use serde::{Deserialize, Serialize};

use super::counter::{Counts, KeyCounter};
use crate::size::scan::IndexSpec;

/// The summary format's name and version.
pub(crate) const SCHEMA: &str = "ddbcost-keys/1";

/// Which key an attribute is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum KeyRole {
    /// The table's partition key (LSI entries count in its item collections).
    Table,
    /// A global secondary index's partition key.
    Global,
}

/// The table's keys and indexes, as measured.
#[derive(Debug, Clone, Default)]
pub struct Layout {
    pub partition: String,
    pub sort: Option<String>,
    /// Global secondary indexes: `keys[0]` is the index's partition key.
    pub globals: Vec<IndexSpec>,
    /// Local secondary indexes: their entries add to the table key's item collections.
    pub locals: Vec<IndexSpec>,
}

/// One key attribute's counts.
#[derive(Debug, Clone)]
pub struct Attribute {
    /// The attribute's name.
    pub attribute: String,
    /// The index whose partition key it is (`None`: the table's).
    pub index: Option<String>,
    pub role: KeyRole,
    /// Items read that lack this attribute (for an index: items not in it).
    pub items_without: u64,
    pub counter: KeyCounter,
}

impl Attribute {
    /// `customer (table key)` or `status (index gsi-1)`.
    #[must_use]
    pub fn label(&self) -> String {
        match &self.index {
            None => format!("{} (table key)", self.attribute),
            Some(i) => format!("{} (index {i})", self.attribute),
        }
    }
}

/// Everything measured.
#[derive(Debug, Clone, Default)]
pub struct KeysSummary {
    pub attributes: Vec<Attribute>,
    /// Whether the table has local secondary indexes (item collections are limited to 10 GB).
    pub has_lsi: bool,
    pub files: u64,
    pub input_bytes: u64,
    pub items: u64,
    pub bad: u64,
    pub oversized: u64,
    pub log_lines: u64,
    pub examples: Vec<String>,
}

/// Examples of bad items or lines kept.
const EXAMPLES: usize = 20;

impl KeysSummary {
    /// An empty summary for `layout`.
    #[must_use]
    pub fn new(layout: &Layout) -> Self {
        let mut attributes = vec![Attribute {
            attribute: layout.partition.clone(),
            index: None,
            role: KeyRole::Table,
            items_without: 0,
            counter: KeyCounter::new(),
        }];
        for g in &layout.globals {
            attributes.push(Attribute {
                attribute: g.keys.first().cloned().unwrap_or_default(),
                index: Some(g.name.clone()),
                role: KeyRole::Global,
                items_without: 0,
                counter: KeyCounter::new(),
            });
        }
        KeysSummary {
            attributes,
            has_lsi: !layout.locals.is_empty(),
            ..KeysSummary::default()
        }
    }

    pub fn example(&mut self, text: String) {
        if self.examples.len() < EXAMPLES {
            self.examples.push(text);
        }
    }

    /// Adds `other` (of the same layout) into `self`, exactly.
    ///
    /// # Errors
    /// Another layout, or a count past 2^64.
    pub fn merge(&mut self, other: &KeysSummary) -> Result<(), String> {
        let shape = |s: &KeysSummary| {
            s.attributes
                .iter()
                .map(|a| (a.attribute.clone(), a.index.clone()))
                .collect::<Vec<_>>()
        };
        if shape(self) != shape(other) {
            return Err(format!(
                "it measures other keys ({}) than the first ({})",
                other
                    .attributes
                    .iter()
                    .map(Attribute::label)
                    .collect::<Vec<_>>()
                    .join(", "),
                self.attributes
                    .iter()
                    .map(Attribute::label)
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        let add = |a: u64, b: u64, what: &str| {
            a.checked_add(b).ok_or_else(|| format!("{what} pass 2^64"))
        };
        self.has_lsi |= other.has_lsi;
        self.files = add(self.files, other.files, "files")?;
        self.input_bytes = add(self.input_bytes, other.input_bytes, "input bytes")?;
        self.items = add(self.items, other.items, "items")?;
        self.bad = add(self.bad, other.bad, "malformed items")?;
        self.oversized = add(self.oversized, other.oversized, "oversized items")?;
        self.log_lines = add(self.log_lines, other.log_lines, "log lines")?;
        for (a, b) in self.attributes.iter_mut().zip(&other.attributes) {
            a.items_without = add(a.items_without, b.items_without, "items without a key")?;
            a.counter.merge(&b.counter)?;
        }
        for e in &other.examples {
            self.example(e.clone());
        }
        Ok(())
    }
}

/// A counter's values as JSON: `[[value, items, bytes, lsi_bytes, read_halves,
/// write_halves], …]`, streamed (no copy of the values is made).
pub(crate) struct Values<'a>(pub &'a KeyCounter);

impl Serialize for Values<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(usize::try_from(self.0.distinct()).ok())?;
        for (name, c) in self.0.iter() {
            seq.serialize_element(&(
                String::from_utf8_lossy(name),
                c.items,
                c.bytes,
                c.lsi_bytes,
                c.read_halves,
                c.write_halves,
            ))?;
        }
        seq.end()
    }
}

/// Reads `Values` back into a counter, value by value (no intermediate list).
pub struct ValuesIn(pub KeyCounter);

impl<'de> Deserialize<'de> for ValuesIn {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = ValuesIn;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a list of [value, items, bytes, lsi_bytes, read_halves, write_halves]")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<ValuesIn, A::Error> {
                let mut counter = KeyCounter::new();
                while let Some((name, items, bytes, lsi_bytes, read_halves, write_halves)) =
                    seq.next_element::<(std::borrow::Cow<'de, str>, u64, u64, u64, u64, u64)>()?
                {
                    counter
                        .add(
                            name.as_bytes(),
                            &Counts {
                                items,
                                bytes,
                                lsi_bytes,
                                read_halves,
                                write_halves,
                            },
                        )
                        .map_err(de::Error::custom)?;
                }
                Ok(ValuesIn(counter))
            }
        }
        d.deserialize_seq(V)
    }
}

/// The parts of `keys --format json` a merge reads back (the report's other fields are
/// derived, and recomputed).
#[derive(Deserialize)]
pub struct SummaryIn {
    pub schema: String,
    pub files: u64,
    pub input_bytes: u64,
    pub items: u64,
    pub malformed_items: u64,
    pub oversized_items: u64,
    pub log_lines: u64,
    pub has_lsi: bool,
    #[serde(default)]
    pub examples: Vec<String>,
    pub attributes: Vec<AttributeIn>,
}

#[derive(Deserialize)]
pub struct AttributeIn {
    pub attribute: String,
    pub index: Option<String>,
    pub role: KeyRole,
    pub items_without_key: u64,
    pub values: ValuesIn,
}

impl SummaryIn {
    /// The summary this document holds.
    ///
    /// # Errors
    /// Another schema than this version's, or figures that do not add up to the totals.
    pub fn into_summary(self) -> Result<KeysSummary, String> {
        if self.schema != SCHEMA {
            return Err(format!("its schema is `{}`, not `{SCHEMA}`", self.schema));
        }
        // Every item counted holds a value of each attribute or is counted without it: a
        // summary whose values do not add up to its items was edited or cut, and merging it
        // would report figures no export had.
        for a in &self.attributes {
            let counted = a.values.0.totals().items.checked_add(a.items_without_key);
            if counted != Some(self.items) {
                return Err(format!(
                    "its `{}` values hold {} item(s) and {} are without it, but its `items` is {}: the figures do not add up",
                    a.attribute,
                    a.values.0.totals().items,
                    a.items_without_key,
                    self.items
                ));
            }
        }
        Ok(KeysSummary {
            attributes: self
                .attributes
                .into_iter()
                .map(|a| Attribute {
                    attribute: a.attribute,
                    index: a.index,
                    role: a.role,
                    items_without: a.items_without_key,
                    counter: a.values.0,
                })
                .collect(),
            has_lsi: self.has_lsi,
            files: self.files,
            input_bytes: self.input_bytes,
            items: self.items,
            bad: self.malformed_items,
            oversized: self.oversized_items,
            log_lines: self.log_lines,
            examples: self.examples,
        })
    }
}
