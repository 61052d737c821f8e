//! The sweep's report: the `--top` cheapest designs (kept in a bounded heap while the grid is
//! read, never by sorting it), the first refusals, and the whole grid as CSV or JSON written
//! row by row to the output. A design's values are read back from its place in the grid.

use std::collections::BinaryHeap;
use std::io::Write;

use rust_decimal::Decimal;
use serde::ser::SerializeStruct;
use serde_json::{Value, json};

use super::Axis;
use super::grid::{Priced, decode};
use crate::error::Error;
use crate::report::money;

/// `--by`: what the figures are, the groups (the baseline's first, then any a design adds,
/// in grid order), the baseline's figure and each design's per group (`None`: not in it, or
/// the design refused).
pub(super) struct GroupColumns {
    what: String,
    labels: Vec<String>,
    baseline: Vec<Option<Decimal>>,
    designs: Vec<Option<Vec<Option<Decimal>>>>,
}

impl GroupColumns {
    pub(super) fn new(
        what: String,
        baseline: &[(String, Decimal)],
        each: Vec<Option<super::grid::Figures>>,
    ) -> GroupColumns {
        let mut labels: Vec<String> = baseline.iter().map(|(l, _)| l.clone()).collect();
        let mut seen: std::collections::HashMap<String, usize> = labels
            .iter()
            .enumerate()
            .map(|(i, l)| (l.clone(), i))
            .collect();
        let mut place = |label: &str, labels: &mut Vec<String>| -> usize {
            if let Some(i) = seen.get(label) {
                return *i;
            }
            labels.push(label.to_string());
            let i = labels.len().saturating_sub(1);
            seen.insert(label.to_string(), i);
            i
        };
        let mut designs = Vec::with_capacity(each.len());
        let mut base = vec![None; labels.len()];
        for (l, v) in baseline {
            let i = place(l, &mut labels);
            if let Some(slot) = base.get_mut(i) {
                *slot = Some(*v);
            }
        }
        for d in each {
            designs.push(d.map(|groups| {
                let mut row: Vec<Option<Decimal>> = Vec::new();
                for (l, v) in groups {
                    let i = place(&l, &mut labels);
                    if row.len() <= i {
                        row.resize(i.saturating_add(1), None);
                    }
                    row[i] = Some(v);
                }
                row
            }));
        }
        GroupColumns {
            what,
            labels,
            baseline: base,
            designs,
        }
    }

    /// Design `k`'s figure for each group, in the columns' order.
    fn of(&self, k: usize) -> Vec<Option<Decimal>> {
        let mut row = self.designs.get(k).cloned().flatten().unwrap_or_default();
        row.resize(self.labels.len(), None);
        row
    }
}

/// Every design priced, and the ones kept (cheapest first), for the report.
pub(super) struct Outcome<'a> {
    pub(super) file: &'a str,
    pub(super) currency: &'a str,
    pub(super) baseline: Decimal,
    pub(super) max_total: Option<Decimal>,
    pub(super) count: u64,
    pub(super) axes: &'a [Axis],
    pub(super) designs: &'a [Priced],
    refused: usize,
    /// Designs priced within `max_total` (all priced ones without it).
    within: usize,
    /// The `top` cheapest of those, cheapest first (ties: grid order).
    cheapest: Vec<(Decimal, usize)>,
    /// With `--by`: each design's figures per group.
    pub(super) groups: Option<GroupColumns>,
}

impl<'a> Outcome<'a> {
    #[allow(clippy::too_many_arguments)] // each is a different part of the report's header
    pub(super) fn new(
        file: &'a str,
        currency: &'a str,
        baseline: Decimal,
        max_total: Option<Decimal>,
        count: u64,
        axes: &'a [Axis],
        designs: &'a [Priced],
        top: usize,
    ) -> Self {
        let mut heap: BinaryHeap<(Decimal, usize)> = BinaryHeap::new();
        let (mut refused, mut within) = (0usize, 0usize);
        for (k, d) in designs.iter().enumerate() {
            match d {
                Priced::Refused(_) => refused = refused.saturating_add(1),
                Priced::Total(t) if max_total.is_none_or(|m| *t <= m) => {
                    within = within.saturating_add(1);
                    if heap.len() < top {
                        heap.push((*t, k));
                    } else if heap.peek().is_some_and(|worst| (*t, k) < *worst) {
                        heap.pop();
                        heap.push((*t, k));
                    }
                }
                Priced::Total(_) => {}
            }
        }
        Outcome {
            file,
            currency,
            baseline,
            max_total,
            count,
            axes,
            designs,
            refused,
            within,
            cheapest: heap.into_sorted_vec(),
            groups: None,
        }
    }

    /// Whether every design was refused, and the first one's reason.
    pub(super) fn all_refused(&self) -> Option<&str> {
        match self.designs.first() {
            Some(Priced::Refused(why)) if self.refused == self.designs.len() => Some(why),
            _ => None,
        }
    }

    /// Design `k`'s value on each axis, as written.
    fn values(&self, k: usize) -> Vec<&str> {
        let mut choice = Vec::with_capacity(self.axes.len());
        decode(self.axes, k, &mut choice);
        self.axes
            .iter()
            .zip(&choice)
            .map(|(a, &i)| a.values[i].0.as_str())
            .collect()
    }

    /// The cheapest designs, and the first refusals.
    pub(super) fn table(&self, layout: crate::report::layout::Layout) -> String {
        let mut out = format!(
            "Sweep of {}: {} design(s) priced ({} refused), baseline {} {} a month{}\n",
            self.file,
            self.count,
            self.refused,
            money::display(self.baseline, self.currency),
            self.currency,
            self.max_total
                .map(|m| format!(
                    "; {} within {} {}",
                    self.within,
                    money::display(m, self.currency),
                    self.currency
                ))
                .unwrap_or_default()
        );
        let mut header: Vec<String> = self.axes.iter().map(|a| a.path.clone()).collect();
        header.push(format!("Monthly ({})", self.currency));
        header.push("Δ vs baseline".to_string());
        let labels = self.groups.as_ref().map_or(&[][..], |g| &g.labels[..]);
        header.extend(labels.iter().cloned());
        let mut b = tabled::builder::Builder::default();
        b.push_record(header);
        let cell = |v: Option<Decimal>| {
            v.map(|v| money::display(v, self.currency))
                .unwrap_or_default()
        };
        for &(total, k) in &self.cheapest {
            let mut row: Vec<String> = self.values(k).into_iter().map(str::to_string).collect();
            row.push(money::display(total, self.currency));
            row.push(money::display(
                total.saturating_sub(self.baseline),
                self.currency,
            ));
            if let Some(g) = &self.groups {
                row.extend(g.of(k).into_iter().map(cell));
            }
            b.push_record(row);
        }
        let mut t = b.build();
        t.with(tabled::settings::Style::rounded());
        layout.fit(&mut t);
        out.push_str(&t.to_string());
        out.push('\n');
        let refusals = self
            .designs
            .iter()
            .enumerate()
            .filter_map(|(k, d)| match d {
                Priced::Refused(why) => Some((k, why)),
                Priced::Total(_) => None,
            });
        for (k, why) in refusals.take(3) {
            out.push_str(&format!("Refused: {} — {why}\n", self.values(k).join(", ")));
        }
        if let Some(g) = &self.groups {
            let base: Vec<String> = g
                .labels
                .iter()
                .zip(&g.baseline)
                .filter_map(|(l, v)| Some(format!("{l} {}", money::display((*v)?, self.currency))))
                .collect();
            out.push_str(&format!(
                "By group: {} (the baseline: {}).\n",
                g.what,
                base.join(", ")
            ));
        }
        out.push_str(&format!("{}.\n", money::policy(self.currency)));
        out
    }

    /// Every design, one row each.
    ///
    /// # Errors
    /// The output cannot be written.
    pub(super) fn csv(&self, out: &mut dyn Write) -> Result<(), Error> {
        let broken = |e: csv::Error| match e.into_kind() {
            csv::ErrorKind::Io(e) => Error::writing("the grid", &e),
            other => Error::input(format!("cannot write CSV: {other:?}")),
        };
        let mut w = csv::Writer::from_writer(out);
        let mut header: Vec<String> = self.axes.iter().map(|a| a.path.clone()).collect();
        header.extend(["monthly_total".into(), "currency".into(), "refused".into()]);
        if let Some(g) = &self.groups {
            header.extend(g.labels.iter().map(|l| format!("by:{l}")));
        }
        w.write_record(&header).map_err(broken)?;
        for (k, d) in self.designs.iter().enumerate() {
            let mut row: Vec<String> = self.values(k).into_iter().map(str::to_string).collect();
            match d {
                Priced::Total(t) => row.extend([
                    t.normalize().to_string(),
                    self.currency.to_string(),
                    String::new(),
                ]),
                Priced::Refused(why) => {
                    row.extend([String::new(), self.currency.to_string(), why.to_string()]);
                }
            }
            if let Some(g) = &self.groups {
                row.extend(
                    g.of(k)
                        .into_iter()
                        .map(|v| v.map(|v| v.normalize().to_string()).unwrap_or_default()),
                );
            }
            w.write_record(&row).map_err(broken)?;
        }
        w.flush().map_err(|e| Error::writing("the grid", &e))
    }

    /// One design as the JSON report shows it.
    fn design(&self, k: usize) -> Value {
        let chosen: serde_json::Map<String, Value> = self
            .axes
            .iter()
            .zip(self.values(k))
            .map(|(a, v)| (a.path.clone(), json!(v)))
            .collect();
        let mut v = match &self.designs[k] {
            Priced::Total(t) => json!({"values": chosen, "monthly_total": t}),
            Priced::Refused(why) => json!({"values": chosen, "refused": &**why}),
        };
        if let (Some(g), Some(Priced::Total(_))) = (&self.groups, self.designs.get(k)) {
            let by: serde_json::Map<String, Value> = g
                .labels
                .iter()
                .zip(g.of(k))
                .filter_map(|(l, v)| Some((l.clone(), json!(v?))))
                .collect();
            v["by"] = Value::Object(by);
        }
        v
    }

    /// Every design, with the cheapest first: the document's head serialized, then the grid's
    /// designs rendered in batches on `jobs` threads, each indented as the pretty printer
    /// indents an element of the grid, and written in grid order (byte for byte what
    /// printing the whole document writes; `tests.rs` checks it).
    ///
    /// # Errors
    /// The output cannot be written; a worker panicked.
    pub(super) fn json(&self, out: &mut dyn Write, jobs: usize) -> Result<(), Error> {
        self.json_in_batches(out, jobs, 16_384)
    }

    /// `json`, `batch` designs rendered at a time.
    pub(super) fn json_in_batches(
        &self,
        out: &mut dyn Write,
        jobs: usize,
        batch: usize,
    ) -> Result<(), Error> {
        let broken = |e: std::io::Error| Error::writing("the grid", &e);
        let serialized = |e: serde_json::Error| broken(std::io::Error::from(e));
        let head = serde_json::to_vec_pretty(&Head(self)).map_err(serialized)?;
        // The head ends `"grid": []` and the document's `}`: the grid goes between.
        let open = head
            .strip_suffix(b"[]\n}")
            .filter(|_| !self.designs.is_empty());
        let Some(open) = open else {
            out.write_all(&head).map_err(broken)?;
            return out.write_all(b"\n").map_err(broken);
        };
        out.write_all(open).map_err(broken)?;
        out.write_all(b"[").map_err(broken)?;
        let mut from = 0;
        while from < self.designs.len() {
            let to = from.saturating_add(batch.max(1)).min(self.designs.len());
            let parts = super::grid::in_parallel(to.saturating_sub(from), jobs, |r| {
                let mut text = String::new();
                for k in r {
                    let k = k.saturating_add(from);
                    text.push_str(if k == 0 { "\n    " } else { ",\n    " });
                    let one = serde_json::to_string_pretty(&self.design(k)).unwrap_or_default();
                    text.push_str(&one.replace('\n', "\n    "));
                }
                vec![text]
            })?;
            for p in parts {
                out.write_all(p.as_bytes()).map_err(broken)?;
            }
            from = to;
        }
        out.write_all(b"\n  ]\n}\n").map_err(broken)
    }

    /// The whole document as one value through one pretty printer: what `json` writes, for
    /// its test.
    #[cfg(test)]
    pub(super) fn json_whole(&self) -> String {
        let mut doc = serde_json::to_value(Head(self)).unwrap_or_default();
        doc["grid"] = Value::Array((0..self.designs.len()).map(|k| self.design(k)).collect());
        serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n"
    }
}

/// The document with its grid left empty, for `json` to write the grid itself.
struct Head<'o, 'a>(&'o Outcome<'a>);

impl serde::Serialize for Head<'_, '_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.document(s)
    }
}

impl Outcome<'_> {
    fn document<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let cheapest: Vec<Value> = self.cheapest.iter().map(|&(_, k)| self.design(k)).collect();
        let varied: Vec<&str> = self.axes.iter().map(|a| a.path.as_str()).collect();
        let mut doc = s.serialize_struct("Sweep", 11)?;
        doc.serialize_field("schema", "ddbcost.sweep/v1")?;
        doc.serialize_field("workload", self.file)?;
        doc.serialize_field("currency", self.currency)?;
        doc.serialize_field("baseline_total", &self.baseline)?;
        doc.serialize_field("varied", &varied)?;
        doc.serialize_field("designs", &self.count)?;
        doc.serialize_field("refused", &self.refused)?;
        doc.serialize_field("max_total", &self.max_total)?;
        if let Some(g) = &self.groups {
            let base: serde_json::Map<String, Value> = g
                .labels
                .iter()
                .zip(&g.baseline)
                .filter_map(|(l, v)| Some((l.clone(), json!((*v)?))))
                .collect();
            doc.serialize_field("by", &json!({"what": g.what, "baseline": base}))?;
        } else {
            doc.skip_field("by")?;
        }
        doc.serialize_field("cheapest", &cheapest)?;
        doc.serialize_field("grid", &[(); 0])?;
        doc.end()
    }
}
