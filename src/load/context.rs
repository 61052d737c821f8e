//! The reader of one workload file: where its errors point (the file, the path inside it,
//! the line and column, the source line), and how its quantities are read — counts, shares,
//! sizes, item sizes (a sample measured through the `SampleReader` the reader was given),
//! and placeholders (`TODO`) recorded as met. It knows no concept: each concept's module
//! (`workload`, `table`, `pattern`, `index`, `capacity`, `forecast`, `keys`, `commitments`)
//! is a set of functions that take the `Reader` and the raw value of that concept, and
//! return the model's value or an error pointing into the file.

use rust_decimal::Decimal;

use super::quantity::{parse_count, parse_share, parse_size};
use super::raw::{Quantity, RawItemSize, RawSizeClass};
use super::workload::MAX_ITEM_BYTES;
use super::yaml::{self, position};
use crate::error::Error;
use crate::model::sample::SampleReader;
use crate::model::{DataSize, SizeClass};

pub(super) struct Reader<'a> {
    pub(super) file: &'a str,
    pub(super) text: &'a str,
    /// The folder sample files are read from (the workload file's).
    pub(super) base_dir: Option<std::path::PathBuf>,
    /// What measures them.
    pub(super) samples: &'a dyn SampleReader,
    /// Paths of the values written as `TODO` (placeholders `ddbcost import` leaves for usage
    /// a template cannot know), in the order met.
    pub(super) placeholders: std::cell::RefCell<Placeholders>,
}

/// The paths of the placeholders met, in order, and as a set: a workload of thousands of
/// imported tables asks of each value whether it was one.
#[derive(Debug, Default)]
pub(super) struct Placeholders {
    paths: Vec<String>,
    set: std::collections::HashSet<String>,
}

impl Placeholders {
    pub(super) fn push(&mut self, path: String) {
        self.set.insert(path.clone());
        self.paths.push(path);
    }

    pub(super) fn contains(&self, path: &str) -> bool {
        self.set.contains(path)
    }

    pub(super) fn iter(&self) -> impl Iterator<Item = &String> {
        self.paths.iter()
    }

    /// The paths, in the order met.
    pub(super) fn into_paths(self) -> Vec<String> {
        self.paths
    }
}

/// The value a placeholder is written as.
pub(crate) const PLACEHOLDER: &str = "TODO";

impl Reader<'_> {
    pub(super) fn err(
        &self,
        path: &str,
        pos: Option<(u64, u64)>,
        message: impl Into<String>,
        help: impl Into<String>,
    ) -> Error {
        Error::input(message)
            .file(self.file)
            .path(path)
            .at(pos)
            .quoting(self.text)
            .help(help)
    }

    pub(super) fn scalar<T>(
        &self,
        s: &Quantity,
        path: &str,
        parse: fn(&str) -> Result<T, String>,
        example: &str,
    ) -> Result<T, Error> {
        parse(&s.value).map_err(|why| {
            self.err(
                path,
                position(s),
                format!("{why}; expected {example}"),
                format!("Consider writing it like {example}."),
            )
        })
    }

    pub(super) fn count(&self, s: Option<&Quantity>, path: &str) -> Result<Option<Decimal>, Error> {
        let s = s.filter(|s| !self.placeholder(s, path));
        s.map(|s| {
            self.scalar(
                s,
                path,
                parse_count,
                "a non-negative count such as `41M` or `1200`",
            )
        })
        .transpose()
    }

    /// A whole number (capacity units, hours, blocks): read from its decimal value, so `4.0`
    /// is 4 and `4.5` is refused with its path — never the digits without their scale.
    pub(super) fn whole(
        &self,
        s: Option<&Quantity>,
        path: &str,
        what: &str,
    ) -> Result<Option<Decimal>, Error> {
        let Some(value) = self.count(s, path)? else {
            return Ok(None);
        };
        if !value.fract().is_zero() {
            return Err(self.err(
                path,
                s.and_then(position),
                format!("{what} must be a whole number, not {}", value.normalize()),
                "Consider a whole number: DynamoDB counts these in whole units.",
            ));
        }
        Ok(Some(value.trunc().normalize()))
    }

    pub(super) fn share(
        &self,
        s: Option<&Quantity>,
        path: &str,
        default: Decimal,
    ) -> Result<Decimal, Error> {
        Ok(s.map(|s| {
            self.scalar(
                s,
                path,
                parse_share,
                "a share between 0 and 1 such as `0.92` or `92%`",
            )
        })
        .transpose()?
        .unwrap_or(default))
    }

    /// Whether `s` is a placeholder (`TODO`): if so it is recorded under `path`, and the
    /// value counts as not stated.
    pub(super) fn placeholder(&self, s: &Quantity, path: &str) -> bool {
        let todo = s.value.trim() == PLACEHOLDER;
        if todo {
            self.placeholders.borrow_mut().push(path.to_string());
        }
        todo
    }

    /// Whether the value at `path` was a placeholder.
    pub(super) fn is_placeholder(&self, path: &str) -> bool {
        self.placeholders.borrow().contains(path)
    }

    pub(super) fn size(&self, s: Option<&Quantity>, path: &str) -> Result<Option<DataSize>, Error> {
        let s = s.filter(|s| !self.placeholder(s, path));
        s.map(|s| {
            self.scalar(
                s,
                path,
                parse_size,
                "a size such as `3.5 KB`, `210 GB` or `800` (bytes)",
            )
        })
        .transpose()
    }

    /// An item or entry size in bytes, at most 400 KB.
    pub(super) fn item_bytes(
        &self,
        s: Option<&Quantity>,
        path: &str,
    ) -> Result<Option<Decimal>, Error> {
        let Some(s) = s.filter(|s| !self.placeholder(s, path)) else {
            return Ok(None);
        };
        let size = self.scalar(
            s,
            path,
            parse_size,
            "a size such as `3.5 KB` or `800` (bytes)",
        )?;
        if size.unit == crate::model::SizeUnit::B
            && !size.amount.fract().is_zero()
            && !s.value.trim().ends_with(['b', 'B'])
        {
            return Err(self.err(
                path,
                position(s),
                format!("a fractional size needs its unit: `{}`", s.value.trim()),
                "Consider writing the unit, e.g. `114.5 B` or `3.5 KB`.",
            ));
        }
        let bytes =
            size.to_bytes()
                .filter(|b| *b <= Decimal::from(MAX_ITEM_BYTES))
                .ok_or_else(|| {
                    self.err(
                path,
                position(s),
                format!("item size `{}` is over DynamoDB's 400 KB (409,600 B) limit", s.value),
                "Consider storing large attributes in S3 and keeping a pointer in the item.",
            )
                })?;
        Ok(Some(bytes))
    }

    /// An item size written out, a list of size classes, or the sizes of the items in a sample
    /// file (relative to the workload's folder), measured by DynamoDB's rules. Returns the
    /// mean size and, when items differ, the classes it is made of (request units are rounded
    /// per item, so the engine rounds each class on its own).
    pub(super) fn item_size(
        &self,
        s: Option<&yaml::Spanned<RawItemSize>>,
        path: &str,
    ) -> Result<Option<(Decimal, Vec<SizeClass>)>, Error> {
        let Some(s) = s else { return Ok(None) };
        let spanned = |value: String| Quantity::at(value, s.referenced, s.defined);
        match &s.value {
            RawItemSize::Text(text) => Ok(self
                .item_bytes(Some(&spanned(text.clone())), path)?
                .map(|b| (b, Vec::new()))),
            RawItemSize::Classes(classes) => self.size_classes(classes, path, s).map(Some),
            RawItemSize::Sample(file) => {
                let Some(base) = &self.base_dir else {
                    return Err(self.err(
                        path,
                        position(s),
                        format!("a sample (`{file}`) cannot be read from here"),
                        "Consider a workload file on disk.",
                    ));
                };
                let sample = base.join(file);
                let shown = sample.display().to_string();
                let measured = self.samples.measure(&shown).map_err(|message| {
                    // The parser may quote the file's text (`invalid type: string "…"`):
                    // a file named as a sample may be anything, so its text is not shown.
                    let why = redact_quoted(&message);
                    self.err(path, position(s), format!("sample `{shown}`: {why}"), "Consider a file of items in DynamoDB JSON or plain JSON (see `ddbcost size`).")
                })?;
                if measured.oversized > 0 {
                    return Err(self.err(
                        path,
                        position(s),
                        format!("sample `{shown}` holds an item over DynamoDB's 400 KB limit"),
                        "Consider storing large attributes in S3.",
                    ));
                }
                match measured.mean {
                    // The sample's own distribution: one class per size, weighted by its count.
                    Some(mean) => Ok(Some((
                        mean,
                        measured
                            .buckets
                            .iter()
                            .map(|&(bytes, count)| SizeClass {
                                bytes: Decimal::from(bytes),
                                weight: Decimal::from(count),
                            })
                            .collect(),
                    ))),
                    None => Err(self.err(
                        path,
                        position(s),
                        format!("sample `{shown}` holds no items"),
                        "Consider a file with at least one item.",
                    )),
                }
            }
        }
    }

    /// `[{ size, share }, …]`: sizes of at most 400 KB whose shares add up to exactly 1.
    fn size_classes(
        &self,
        classes: &[RawSizeClass],
        path: &str,
        s: &yaml::Spanned<RawItemSize>,
    ) -> Result<(Decimal, Vec<SizeClass>), Error> {
        if classes.is_empty() {
            return Err(self.err(
                path,
                position(s),
                "an empty list of item sizes",
                "Consider `[{ size: 1.8 KB, share: 90% }, { size: 4.5 KB, share: 10% }]`.",
            ));
        }
        let mut out = Vec::with_capacity(classes.len());
        let (mut total_share, mut mean) = (Decimal::ZERO, Decimal::ZERO);
        for (i, c) in classes.iter().enumerate() {
            let p = format!("{path}[{i}]");
            let bytes = self
                .item_bytes(Some(&c.size), &format!("{p}.size"))?
                .unwrap_or_default();
            let share = self.share(Some(&c.share), &format!("{p}.share"), Decimal::ZERO)?;
            // Shares are at most 1 each and sizes at most 409,600 B: sums stay small.
            total_share = total_share.saturating_add(share);
            mean = mean.saturating_add(bytes.saturating_mul(share));
            out.push(SizeClass {
                bytes,
                weight: share,
            });
        }
        if total_share != Decimal::ONE {
            return Err(self.err(
                path,
                position(s),
                format!(
                    "the shares of the item sizes add up to {}, not 1",
                    total_share.normalize()
                ),
                "Consider shares that cover every item once, e.g. `90%` and `10%`.",
            ));
        }
        Ok((mean, out))
    }
}

/// `message` with every double-quoted text replaced by `"…"`.
fn redact_quoted(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut inside = false;
    for c in message.chars() {
        if c == '"' {
            if inside {
                out.push_str("…\"");
            } else {
                out.push('"');
            }
            inside = !inside;
        } else if !inside {
            out.push(c);
        }
    }
    out
}
