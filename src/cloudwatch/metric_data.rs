//! `aws cloudwatch get-metric-data` output: `{"MetricDataResults": [{Id, Label, Timestamps,
//! Values, StatusCode}], "Messages"}`. A result carries only its `Id` and `Label`, so each
//! is named either by the label `ddbcost usage query` writes (`ddbcost:TABLE:INDEX:METRIC:
//! STAT:PERIOD`, INDEX empty for the table, then `:Operation=Scan` for a metric kept per
//! operation or receiving region) or by the queries file that produced it
//! (`--queries q.json`: `[{Id, MetricStat: {Metric: {Namespace, MetricName, Dimensions},
//! Period, Stat}}]`). Another namespace, a metric ddbcost does not read, a negative or
//! non-numeric value are refused with the file and the result; a status other than
//! `Complete` is said.

use std::collections::{BTreeMap, HashMap};
use std::io::Read;

use serde::Deserialize;
use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::Value;
use serde_json::value::RawValue;

use super::input::Input;
use super::{Key, Metric, Reading, Times, value};
use crate::error::Error;

/// What a query asked for: the series' key, statistic and period.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Query {
    pub(crate) key: Key,
    pub(crate) statistic: String,
    pub(crate) period: u32,
}

/// The label `usage query` gives a query, and reads back.
pub(crate) fn label(q: &Query) -> String {
    let by = match (q.key.metric.by(), &q.key.by) {
        (Some(d), Some(v)) => format!(":{d}={v}"),
        _ => String::new(),
    };
    format!(
        "ddbcost:{}:{}:{}:{}:{}{by}",
        q.key.table,
        q.key.index.as_deref().unwrap_or(""),
        q.key.metric.name(),
        q.statistic,
        q.period
    )
}

fn from_label(label: &str) -> Option<Query> {
    let parts: Vec<&str> = label.strip_prefix("ddbcost:")?.split(':').collect();
    let (table, index, metric, statistic, period, by) = match parts.as_slice() {
        [t, i, m, s, p] => (t, i, m, s, p, None),
        [t, i, m, s, p, b] => (t, i, m, s, p, Some(*b)),
        _ => return None,
    };
    let metric = Metric::parse(metric)?;
    let by = match by {
        None => None,
        Some(b) => {
            let (name, value) = b.split_once('=')?;
            if Some(name) != metric.by() || value.is_empty() {
                return None;
            }
            Some(value.to_string())
        }
    };
    Some(Query {
        key: Key {
            table: (*table).to_string(),
            index: (!index.is_empty()).then(|| (*index).to_string()),
            metric,
            by,
        },
        statistic: (*statistic).to_string(),
        period: period.parse().ok()?,
    })
}

fn bad(file: &str, at: &str, why: &str) -> Error {
    Error::input(format!("{at}: {why}")).file(file).help(
        "Consider the output of the commands `ddbcost usage query` prints, unedited, with their queries file (`--queries`).",
    )
}

/// Reads a queries file (`--metric-data-queries`): each query's `Id` and what it asks for.
///
/// # Errors
/// Not a list of queries; another namespace; a metric or dimension ddbcost does not read.
pub(crate) fn queries(text: &str, file: &str) -> Result<HashMap<String, Query>, Error> {
    let doc: Value = serde_json::from_str(text)
        .map_err(|e| bad(file, "(document)", &format!("not JSON ({e})")))?;
    let list = doc
        .as_array()
        .or_else(|| doc.get("MetricDataQueries").and_then(Value::as_array))
        .ok_or_else(|| bad(file, "(document)", "not a list of metric data queries"))?;
    let mut out = HashMap::new();
    for (i, q) in list.iter().enumerate() {
        let at = format!("[{i}]");
        let Some(id) = q.get("Id").and_then(Value::as_str) else {
            return Err(bad(file, &at, "no Id"));
        };
        let Some(stat) = q.get("MetricStat") else {
            // An expression over other queries: nothing to read.
            continue;
        };
        let metric = &stat["Metric"];
        let namespace = metric
            .get("Namespace")
            .and_then(Value::as_str)
            .unwrap_or("");
        if namespace != "AWS/DynamoDB" {
            return Err(bad(
                file,
                &format!("{at} ({id})"),
                &format!("namespace `{namespace}`, not AWS/DynamoDB"),
            ));
        }
        let name = metric
            .get("MetricName")
            .and_then(Value::as_str)
            .unwrap_or("");
        let m = Metric::parse(name).ok_or_else(|| {
            bad(
                file,
                &format!("{at} ({id})"),
                &format!("metric `{name}` is not one ddbcost reads"),
            )
        })?;
        let mut table = None;
        let mut index = None;
        let mut by = None;
        for d in metric
            .get("Dimensions")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            match (
                d.get("Name").and_then(Value::as_str),
                d.get("Value").and_then(Value::as_str),
            ) {
                (Some("TableName"), Some(v)) => table = Some(v.to_string()),
                (Some("GlobalSecondaryIndexName"), Some(v)) => index = Some(v.to_string()),
                (Some(name), Some(v)) if Some(name) == m.by() => by = Some(v.to_string()),
                (Some(other), _) => {
                    return Err(bad(
                        file,
                        &format!("{at} ({id})"),
                        &format!(
                            "dimension `{other}` is not one ddbcost reads for {name} (TableName, GlobalSecondaryIndexName{})",
                            m.by().map_or_else(String::new, |b| format!(", {b}"))
                        ),
                    ));
                }
                _ => {}
            }
        }
        let table =
            table.ok_or_else(|| bad(file, &format!("{at} ({id})"), "no TableName dimension"))?;
        let period = stat
            .get("Period")
            .and_then(Value::as_u64)
            .and_then(|p| u32::try_from(p).ok())
            .filter(|p| *p > 0)
            .ok_or_else(|| bad(file, &format!("{at} ({id})"), "no Period (seconds)"))?;
        let statistic = stat
            .get("Stat")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        out.insert(
            id.to_string(),
            Query {
                key: Key {
                    table,
                    index,
                    metric: m,
                    by,
                },
                statistic,
                period,
            },
        );
    }
    Ok(out)
}

/// What a JSON document's reader carries: where it reads, the queries that name results, the
/// reading filled, and an error of ddbcost's own raised inside serde's visitor.
struct Cx<'a> {
    input: &'a Input,
    queries: &'a HashMap<String, Query>,
    into: &'a mut Reading,
    error: Option<Error>,
    results: bool,
    next_token: bool,
    /// Moved at each result's end: one result is one record of the budget.
    mark: crate::bounded::Mark,
}

/// One element of `MetricDataResults`; timestamps and values kept as their raw text (a
/// value's digits exactly as written, never through a float).
#[derive(Deserialize)]
struct Entry {
    #[serde(rename = "Id", default)]
    id: String,
    #[serde(rename = "Label")]
    label: Option<String>,
    #[serde(rename = "Timestamps")]
    timestamps: Option<Box<RawValue>>,
    #[serde(rename = "Values")]
    values: Option<Box<RawValue>>,
    #[serde(rename = "StatusCode")]
    status: Option<String>,
    #[serde(rename = "Messages", default)]
    messages: Vec<Message>,
}

/// A message CloudWatch sends with an answer or a result (`{Code, Value}`).
#[derive(Debug, PartialEq, Eq, Deserialize)]
pub(super) struct Message {
    #[serde(rename = "Code", default)]
    code: Option<String>,
    #[serde(rename = "Value", default)]
    value: Option<String>,
}

impl Message {
    fn said(&self) -> String {
        format!(
            "{}: {}",
            self.code.as_deref().unwrap_or("(no code)"),
            self.value.as_deref().unwrap_or("")
        )
    }
}

/// The top-level object: `MetricDataResults` read one result at a time; `Label` and
/// `Datapoints` kept for `get-metric-statistics` output; anything else skipped.
struct Doc<'c, 'a>(&'c mut Cx<'a>);

#[derive(Default)]
struct Statistics {
    label: Option<String>,
    datapoints: Option<Vec<BTreeMap<String, Box<RawValue>>>>,
}

impl<'de> DeserializeSeed<'de> for Doc<'_, '_> {
    type Value = Statistics;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Statistics, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Doc<'_, '_> {
    type Value = Statistics;
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("an object")
    }
    fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Statistics, M::Error> {
        let mut stats = Statistics::default();
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            match key.as_ref() {
                "MetricDataResults" => {
                    self.0.results = true;
                    map.next_value_seed(Results(&mut *self.0))?;
                }
                "Label" => stats.label = map.next_value()?,
                "Datapoints" => stats.datapoints = Some(map.next_value()?),
                "NextToken" => {
                    let token: Option<String> = map.next_value()?;
                    self.0.next_token = token.is_some_and(|t| !t.is_empty());
                }
                "Messages" => {
                    let messages: Option<Vec<Message>> = map.next_value()?;
                    said(self.0, messages.unwrap_or_default());
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(stats)
    }
}

/// The page's own messages, said as warnings.
fn said(cx: &mut Cx<'_>, messages: Vec<Message>) {
    let file = cx.input.name.as_str();
    for m in messages {
        cx.into
            .warnings
            .push(format!("{file}: CloudWatch says {}", m.said()));
    }
}

/// A page read by hand (`page::read`) into the reading, part by part in the page's order, as
/// `Doc` reads it through serde.
fn by_hand(
    parts: Vec<super::page::Part<'_>>,
    cx: &mut Cx<'_>,
) -> Result<Statistics, serde_json::Error> {
    for part in parts {
        match part {
            super::page::Part::Results(results) => {
                cx.results = true;
                for (i, r) in results.iter().enumerate() {
                    if let Err(e) = result(cx, i, r) {
                        cx.error = Some(e);
                        return Err(serde::de::Error::custom("refused"));
                    }
                    cx.mark.record_ends();
                }
            }
            super::page::Part::Messages(messages) => said(cx, messages),
            super::page::Part::NextToken(given) => cx.next_token = given,
        }
    }
    Ok(Statistics::default())
}

struct Results<'c, 'a>(&'c mut Cx<'a>);

impl<'de> DeserializeSeed<'de> for Results<'_, '_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for Results<'_, '_> {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a list of metric data results")
    }
    fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<(), S::Error> {
        let mut i = 0usize;
        while let Some(entry) = seq.next_element::<Entry>()? {
            let entry = super::page::Result {
                id: &entry.id,
                label: entry.label.as_deref(),
                timestamps: entry.timestamps.as_deref().map(RawValue::get),
                values: entry.values.as_deref().map(RawValue::get),
                status: entry.status.as_deref(),
                messages: entry.messages,
                times: None,
                amounts: None,
            };
            if let Err(e) = result(self.0, i, &entry) {
                self.0.error = Some(e);
                return Err(serde::de::Error::custom("refused"));
            }
            i = i.saturating_add(1);
            self.0.mark.record_ends();
        }
        Ok(())
    }
}

/// A JSON list's elements, each its raw text.
fn list<'r>(raw: Option<&'r str>, what: &str, file: &str, at: &str) -> Result<Vec<&'r str>, Error> {
    let raw = raw.ok_or_else(|| bad(file, at, &format!("no {what}")))?;
    if let Some(items) = flat_list(raw) {
        return Ok(items);
    }
    serde_json::from_str::<Vec<&RawValue>>(raw)
        .map(|items| items.into_iter().map(RawValue::get).collect())
        .map_err(|e| bad(file, at, &format!("{what} is not a list ({e})")))
}

/// The items of a JSON list (text serde has already checked is JSON) whose items are all
/// strings without an escape or numbers — what CloudWatch writes, millions of them — split
/// in one pass over its bytes; each item as serde's `RawValue` gives it (a string with its
/// quotes). `None` for any other list (nesting, escapes, literals): serde reads it instead.
pub(super) fn flat_list(raw: &str) -> Option<Vec<&str>> {
    let b = raw.as_bytes();
    let blank = |c: u8| matches!(c, b' ' | b'\t' | b'\n' | b'\r');
    let mut i = b.iter().position(|c| !blank(*c))?;
    if b.get(i) != Some(&b'[') {
        return None;
    }
    i = i.checked_add(1)?;
    let mut out = Vec::new();
    let skip = |mut i: usize| {
        while b.get(i).is_some_and(|c| blank(*c)) {
            i = i.saturating_add(1);
        }
        i
    };
    i = skip(i);
    if b.get(i) == Some(&b']') {
        return (skip(i.saturating_add(1)) == b.len()).then_some(out);
    }
    loop {
        let start = i;
        match b.get(i)? {
            b'"' => {
                let close = b
                    .get(i.checked_add(1)?..)?
                    .iter()
                    .position(|c| matches!(c, b'"' | b'\\'))?;
                i = i.checked_add(close)?.checked_add(1)?;
                if b.get(i) != Some(&b'"') {
                    return None;
                }
                i = i.checked_add(1)?;
            }
            b'-' | b'0'..=b'9' => {
                while b
                    .get(i)
                    .is_some_and(|c| matches!(c, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E'))
                {
                    i = i.saturating_add(1);
                }
            }
            _ => return None,
        }
        out.push(raw.get(start..i)?);
        i = skip(i);
        match b.get(i)? {
            b',' => i = skip(i.checked_add(1)?),
            b']' => return (skip(i.saturating_add(1)) == b.len()).then_some(out),
            _ => return None,
        }
    }
}

/// A JSON string's text: the inside of its quotes when it has no escape (as CloudWatch's
/// timestamps never do), else what serde reads it as; `None` for anything not a string.
fn unquoted(raw: &str) -> Option<std::borrow::Cow<'_, str>> {
    match raw.strip_prefix('"').and_then(|r| r.strip_suffix('"')) {
        Some(inner) if !inner.contains(['\\', '"']) => Some(std::borrow::Cow::Borrowed(inner)),
        _ => serde_json::from_str::<String>(raw)
            .ok()
            .map(std::borrow::Cow::Owned),
    }
}

/// Reads one result into the reading.
fn result(cx: &mut Cx<'_>, i: usize, r: &super::page::Result<'_>) -> Result<(), Error> {
    let file = cx.input.name.as_str();
    let at = format!("MetricDataResults[{i}] ({})", r.id);
    let q = r
        .label
        .and_then(from_label)
        .or_else(|| cx.queries.get(r.id).cloned())
        .ok_or_else(|| {
            Error::input(format!("{at}: names no metric (its label is not one `ddbcost usage query` wrote, and no queries file has its Id)"))
                .file(file)
                .help("Consider giving the queries file that produced it: `--queries q.json`.")
        })?;
    let tally = cx.into.statuses.entry(q.key.clone()).or_default();
    match r.status {
        Some("Complete") | None => tally.0 = tally.0.saturating_add(1),
        Some("PartialData") => tally.1 = tally.1.saturating_add(1),
        Some(status) => cx.into.warnings.push(format!(
            "{file}: {at} is {status}: CloudWatch could not return all of it"
        )),
    }
    for m in &r.messages {
        cx.into
            .warnings
            .push(format!("{file}: {at}: CloudWatch says {}", m.said()));
    }
    if let (Some(times), Some(amounts)) = (&r.times, &r.amounts)
        && times.len() == amounts.len()
    {
        // Read by hand as the page was checked (`page`): as the lists below read them.
        let points = times.iter().copied().zip(amounts.iter().copied());
        return cx
            .into
            .add(q.key, &q.statistic, Some(q.period), points, file);
    }
    let times = list(r.timestamps, "Timestamps", file, &at)?;
    let values = list(r.values, "Values", file, &at)?;
    if times.len() != values.len() {
        return Err(bad(
            file,
            &at,
            &format!("{} timestamps and {} values", times.len(), values.len()),
        ));
    }
    let mut points = Vec::with_capacity(times.len());
    let mut clock = Times::default();
    for (j, (t, v)) in times.iter().zip(&values).enumerate() {
        let t = unquoted(t)
            .as_deref()
            .and_then(|t| clock.parse(t))
            .ok_or_else(|| {
                bad(
                    file,
                    &format!("{at}.Timestamps[{j}]"),
                    &format!("`{t}` is not an ISO 8601 time"),
                )
            })?;
        let v = value(v).map_err(|why| bad(file, &format!("{at}.Values[{j}]"), &why))?;
        points.push((t, v));
    }
    cx.into
        .add(q.key, &q.statistic, Some(q.period), points, file)
}

/// The most of a document read whole before it is parsed (a page the AWS CLI writes for a
/// few hundred queries of a day is a few megabytes): parsing a slice is several times faster
/// than parsing a reader byte by byte, and this much held bounds the memory it costs.
const WHOLE: u64 = 32 << 20;

/// Parses the document in `r`: read whole when it is at most `WHOLE` bytes and within the
/// record budget (one document is then one record, which the budget already admits) — by
/// hand in one pass (`page`) where `hand` and the page allow, else by serde — or else
/// streamed one result at a time by serde, the bytes read ahead given back in front of the
/// rest.
fn whole_or_streamed(
    mut r: impl std::io::BufRead,
    cx: &mut Cx<'_>,
    whole: u64,
    hand: bool,
) -> Result<Statistics, serde_json::Error> {
    fn parse<'de, R: serde_json::de::Read<'de>>(
        mut de: serde_json::Deserializer<R>,
        cx: &mut Cx<'_>,
    ) -> Result<Statistics, serde_json::Error> {
        let stats = Doc(cx).deserialize(&mut de)?;
        de.end()?;
        Ok(stats)
    }
    let cap = whole.min(crate::bounded::limits().record.saturating_sub(1));
    let mut head = Vec::new();
    (&mut r)
        .take(cap)
        .read_to_end(&mut head)
        .map_err(serde_json::Error::io)?;
    if u64::try_from(head.len()).is_ok_and(|n| n < cap) {
        if hand && let Some(parts) = super::page::read(&head) {
            return by_hand(parts, cx);
        }
        parse(serde_json::Deserializer::from_slice(&head), cx)
    } else {
        parse(
            serde_json::Deserializer::from_reader(std::io::Cursor::new(head).chain(r)),
            cx,
        )
    }
}

/// Reads one JSON document — a page of `get-metric-data` output, one result at a time, or
/// `get-metric-statistics` output for `input.target` — into `into`.
///
/// # Errors
/// Not JSON or neither output; a result no label or query names; timestamps and values of
/// different lengths; a timestamp that does not parse; a negative or non-numeric value;
/// `get-metric-statistics` output without its table named.
pub(crate) fn read(
    r: impl std::io::BufRead,
    input: &Input,
    queries: &HashMap<String, Query>,
    into: &mut Reading,
    mark: crate::bounded::Mark,
) -> Result<(), Error> {
    read_within(r, input, queries, into, mark, WHOLE, true)
}

/// `read`, a document of at most `whole` bytes parsed as one slice (by hand where `hand` and
/// the page lets it, else by serde).
fn read_within(
    r: impl std::io::BufRead,
    input: &Input,
    queries: &HashMap<String, Query>,
    into: &mut Reading,
    mark: crate::bounded::Mark,
    whole: u64,
    hand: bool,
) -> Result<(), Error> {
    let file = input.name.as_str();
    let mut cx = Cx {
        input,
        queries,
        into,
        error: None,
        results: false,
        next_token: false,
        mark,
    };
    let stats = whole_or_streamed(r, &mut cx, whole, hand);
    if let Some(e) = cx.error.take() {
        return Err(e);
    }
    let stats = stats.map_err(|e| {
        if e.is_io() {
            let io = std::io::Error::from(e);
            return crate::bounded::refusal(&io).unwrap_or_else(|| {
                bad(file, "(document)", &format!("cannot be read ({io})")).help("Consider the file as the AWS CLI wrote it: a compressed file that is damaged or cut short fails its checksum.")
            });
        }
        bad(file, "(document)", &format!("not JSON ({e})"))
    })?;
    if cx.results {
        cx.into.pages = cx.into.pages.saturating_add(1);
        if cx.next_token {
            cx.into.continued.push(file.to_string());
        }
    }
    match (cx.results, stats.datapoints, &input.target) {
        (true, _, None) => Ok(()),
        (true, _, Some((table, _))) => Err(bad(
            file,
            "(document)",
            &format!(
                "named for table `{table}` (`TABLE=FILE`), but it is `get-metric-data` output, which names its own tables"
            ),
        )),
        (false, Some(points), Some((table, index))) => super::statistics::read(
            stats.label.as_deref().unwrap_or(""),
            &points,
            file,
            (table, index.as_deref()),
            cx.into,
        ),
        (false, Some(_), None) => Err(Error::input(
            "`get-metric-statistics` output names no table",
        )
        .file(file)
        .help("Consider giving it as `TABLE=FILE` (or `TABLE:INDEX=FILE` for a GSI).")),
        (false, None, _) => Err(bad(
            file,
            "(document)",
            "no MetricDataResults: not get-metric-data output",
        )),
    }
}

/// What reading the page `doc` whole gives — the reading, or the error — as text: by hand
/// where `hand` and the page allow (`page`), else by serde; for the tests and the fuzz
/// target that hold the two readers to one answer.
pub(crate) fn reading_of(doc: &str, hand: bool) -> String {
    reading_within(doc, WHOLE, hand)
}

/// `reading_of`, a page of more than `whole` bytes streamed by serde.
fn reading_within(doc: &str, whole: u64, hand: bool) -> String {
    let input = Input::text("page.json", doc.to_string());
    let mut reading = Reading::default();
    let done = read_within(
        doc.as_bytes(),
        &input,
        &HashMap::new(),
        &mut reading,
        crate::bounded::Mark::default(),
        whole,
        hand,
    );
    match done {
        Ok(()) => format!("{reading:?}"),
        Err(e) => format!("error: {e}"),
    }
}

#[cfg(test)]
#[allow(
    clippy::arithmetic_side_effects,
    reason = "indices of generated test texts"
)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// A series: its table's number, and each point's minute, value and decimals.
    type Series = (u8, Vec<(u32, u32, u8)>);

    /// A page of results named by labels, in one of several shapes (`shape`'s bits: written
    /// without blanks; a field ddbcost does not read and a result's own message; the page's
    /// messages first; an exponent in a value), some of them broken on purpose (`damage`).
    fn page(series: &[Series], token: bool, damage: u8, shape: u8) -> String {
        let results: Vec<String> = series
            .iter()
            .enumerate()
            .map(|(i, (table, points))| {
                let times: Vec<String> = points
                    .iter()
                    .map(|(t, _, _)| format!("\"2026-11-01T{:02}:{:02}:00Z\"", t / 60 % 24, t % 60))
                    .collect();
                let values: Vec<String> = points
                    .iter()
                    .map(|(_, v, scale)| {
                        let d = rust_decimal::Decimal::new(i64::from(*v), u32::from(*scale % 4));
                        if shape & 8 != 0 && *scale % 4 == 0 {
                            format!("{}E-{}", v, scale % 3)
                        } else {
                            d.to_string()
                        }
                    })
                    .collect();
                let other = if shape & 2 != 0 {
                    ", \"Extra\": {\"a\": [1, -2.5e3, true, null, \"x\"]}, \"Messages\": [{\"Code\": \"c\", \"Value\": \"v\"}]"
                } else {
                    ""
                };
                format!(
                    "{{\"Id\": \"m{i}\", \"Label\": \"ddbcost:t{table}::ConsumedReadCapacityUnits:Sum:60\", \"Timestamps\": [{}], \"Values\": [{}]{other}, \"StatusCode\": \"Complete\"}}",
                    times.join(", "),
                    values.join(", ")
                )
            })
            .collect();
        let said = "\"Messages\": [{\"Code\": \"Note\", \"Value\": \"said\"}]";
        let mut doc = if shape & 4 != 0 {
            format!("{{{said}, \"MetricDataResults\": [{}]", results.join(",\n"))
        } else {
            format!(
                "{{\"MetricDataResults\": [{}], \"Messages\": []",
                results.join(",\n")
            )
        };
        if token {
            doc.push_str(", \"NextToken\": \"abc\"");
        }
        doc.push_str("}\n");
        if shape & 1 != 0 {
            doc = doc.replace([' ', '\n'], "");
        }
        match damage % 10 {
            1 => doc.truncate(doc.len() / 2),
            2 => doc = doc.replacen("Complete", "PartialData", 1),
            3 => doc = doc.replacen(":Sum:", ":Bogus:", 1),
            // A type serde refuses, an escape (the same name), a field twice, a number that
            // is not JSON, a result that is not an object.
            4 => doc = doc.replacen("\"m0\"", "0", 1),
            5 => doc = doc.replacen("ddbcost:t", "ddbcost:\\u0074", 1),
            6 => doc = doc.replacen("\"Complete\"", "\"Complete\", \"StatusCode\": null", 1),
            7 => doc = doc.replacen("\"Values\": [", "\"Values\": [01, ", 1),
            8 => doc = doc.replacen("[{", "[[{", 1),
            _ => {}
        }
        doc
    }

    proptest! {
        /// A page read by hand reads as serde reads it whole, and as serde streams it result
        /// by result: the same series, points, warnings and errors. Undamaged pages of every
        /// shape are read by hand (so the comparison is never of serde with itself).
        #[test]
        fn a_page_read_by_hand_reads_as_serde_reads_it(
            series in prop::collection::vec(
                (0u8..4, prop::collection::vec((0u32..1_440, 0u32..1_000_000, any::<u8>()), 0..40)),
                0..6,
            ),
            token in any::<bool>(),
            damage in any::<u8>(),
            shape in 0u8..16,
        ) {
            let doc = page(&series, token, damage, shape);
            let hand = reading_within(&doc, u64::MAX, true);
            prop_assert_eq!(&hand, &reading_within(&doc, u64::MAX, false));
            prop_assert_eq!(&hand, &reading_of(&doc, true));
            if !matches!(damage % 10, 4 | 6 | 8) {
                // (serde places a value of the wrong type or a field given twice one column apart,
                // read whole or streamed.)
                prop_assert_eq!(&hand, &reading_within(&doc, 0, false));
            }
            if matches!(damage % 10, 0 | 2 | 3 | 9) {
                let parts = super::super::page::read(doc.as_bytes());
                prop_assert!(parts.is_some(), "declined: {}", doc);
                // Every list read as it was checked, not left to the reading of its span.
                for part in parts.into_iter().flatten() {
                    if let super::super::page::Part::Results(results) = part {
                        prop_assert!(results.iter().all(|r| r.times.is_some() && r.amounts.is_some()));
                    }
                }
            }
        }
    }

    proptest! {
        /// A list split in one pass is the list serde reads, item by item, text for text:
        /// strings (escapes and quotes inside left to serde), numbers of every shape,
        /// literals, nesting, whitespace anywhere; a list it cannot split is declined.
        #[test]
        fn a_list_splits_as_serde_reads_it(
            items in prop::collection::vec(
                prop_oneof![
                    "\"[-:TZ0-9]{0,22}\"",
                    "\"[a\\\\\"]{0,4}\"",
                    "-?[0-9]{1,6}(\\.[0-9]{1,4})?([eE][-+]?[0-9]{1,2})?",
                    "true|null|\\[1\\]|\\{\\}",
                ],
                0..12,
            ),
            blanks in prop::collection::vec("[ \t\n\r]{0,2}", 30),
        ) {
            let mut text = format!("{}[", blanks[0]);
            for (k, item) in items.iter().enumerate() {
                if k > 0 {
                    text.push(',');
                }
                text.push_str(&blanks[(2 * k + 1) % 30]);
                text.push_str(item);
                text.push_str(&blanks[(2 * k + 2) % 30]);
            }
            text.push(']');
            text.push_str(&blanks[29]);
            let serde: Option<Vec<String>> = serde_json::from_str::<Vec<&RawValue>>(&text)
                .ok()
                .map(|v| v.into_iter().map(|r| r.get().to_string()).collect());
            let Some(serde) = serde else {
                // Not JSON (a damaged escape): never reaches the splitter.
                return Ok(());
            };
            if let Some(fast) = flat_list(&text) {
                prop_assert_eq!(fast.iter().map(ToString::to_string).collect::<Vec<_>>(), serde);
            } else {
                let plain = items.iter().all(|i| {
                    (i.starts_with('"') && !i.contains('\\') && i.matches('"').count() == 2)
                        || i.starts_with(['-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9'])
                });
                prop_assert!(!plain, "declined a plain list: {}", text);
            }
        }
    }
}
