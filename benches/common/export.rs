//! Deterministic DynamoDB export-to-S3 lines (`{"Item": {…}}`, DynamoDB JSON), for the size
//! and keys benchmarks and `examples/gen_export.rs`. Two shapes:
//!
//! - `Simple`: the first generator's shape — ten attributes, most of each item one long run
//!   of `x` (200 B to 4 KB). It flatters a scanner: nearly every byte is inside one string.
//! - `Realistic`: items shaped like real tables — 12 to 40 short attributes, keys with
//!   prefixes and dates, unicode text (accents, CJK, emoji), escapes, numbers of every shape
//!   (integers, negatives, decimals, exponents, 38 digits), nested maps and lists, string,
//!   number and binary sets, binary, BOOL and NULL. About 1 KB an item on average.

#![allow(
    unreachable_pub,
    reason = "shared by the benchmarks and an example, each its own crate"
)]

use std::fmt::Write;

/// Which items to write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Simple,
    Realistic,
}

/// A small deterministic generator (PCG-like LCG).
pub struct Rng(u64);

impl Rng {
    #[must_use]
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }
    pub fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }
    /// A number in `lo..=hi`.
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next() % (hi - lo + 1)
    }
    pub fn pick<'a, T>(&mut self, from: &'a [T]) -> &'a T {
        &from[usize::try_from(self.next() % from.len() as u64).unwrap_or(0)]
    }
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

/// Appends one export line (with its newline) to `out`.
pub fn line(kind: Kind, rng: &mut Rng, i: u64, out: &mut String) {
    match kind {
        Kind::Simple => simple(rng, i, out),
        Kind::Realistic => realistic(rng, i, out),
    }
    out.push('\n');
}

/// `count` lines of `kind`, from a fixed seed.
#[must_use]
pub fn lines(kind: Kind, count: u64) -> Vec<String> {
    let mut rng = Rng::new(42);
    (0..count)
        .map(|i| {
            let mut s = String::new();
            line(kind, &mut rng, i, &mut s);
            s.pop();
            s
        })
        .collect()
}

fn simple(rng: &mut Rng, i: u64, out: &mut String) {
    let note = "x".repeat(usize::try_from(rng.range(20, 4000)).unwrap_or(20));
    let status = *rng.pick(&["PAID", "SHIPPED", "PENDING"]);
    let _ = write!(
        out,
        r#"{{"Item":{{"pk":{{"S":"ORDER#{i:08}"}},"sk":{{"S":"HEADER"}},"status":{{"S":"{status}"}},"total":{{"N":"{}.{:02}"}},"paid":{{"BOOL":{}}},"note":{{"S":"{note}"}},"tags":{{"SS":["a","bb","ccc"]}},"blob":{{"B":"YWJjZGVm"}},"lines":{{"L":[{{"M":{{"sku":{{"S":"SKU-{}"}},"qty":{{"N":"{}"}}}}}},{{"M":{{"sku":{{"S":"SKU-{}"}},"qty":{{"N":"1"}}}}}}]}},"gone":{{"NULL":true}}}}}}"#,
        rng.range(1, 9999),
        rng.range(0, 99),
        rng.chance(50),
        rng.range(1, 999),
        rng.range(1, 9),
        rng.range(1, 999),
    );
}

const WORDS: &[&str] = &[
    "order",
    "shipped",
    "the",
    "customer",
    "asked",
    "for",
    "a",
    "refund",
    "café",
    "naïve",
    "Zürich",
    "São",
    "Paulo",
    "東京",
    "配送",
    "済み",
    "😀",
    "🚚",
    "fast",
    "delivery",
    "box",
    "gift",
    "wrap",
    "note",
    "return",
    "window",
    "é",
    "größe",
    "Ελλάδα",
    "доставка",
    "ok",
];

const NAMES: &[&str] = &[
    "Ana", "José", "Zoë", "Björn", "Léa", "Mei", "Sven", "Amélie", "Jürgen", "Ngozi", "李",
    "Søren", "Chloé", "Ömer", "Ravi",
];

fn words(rng: &mut Rng, count: u64, out: &mut String) {
    for w in 0..count {
        if w > 0 {
            out.push(' ');
        }
        out.push_str(rng.pick::<&str>(WORDS));
    }
    // Now and then an escape, as exporters write them.
    if rng.chance(10) {
        out.push_str(rng.pick::<&str>(&[r#"\"quoted\""#, r"\n", r"\u00e9", r"\/", r"\t", r"\\"]));
    }
}

/// `count` elements written by `element`, separated by commas.
fn list(out: &mut String, count: u64, mut element: impl FnMut(&mut String)) {
    for i in 0..count {
        if i > 0 {
            out.push(',');
        }
        element(out);
    }
}

/// A number of one of the shapes real tables hold.
fn number(rng: &mut Rng, out: &mut String) {
    let _ = match rng.next() % 9 {
        0 => write!(out, "{}", rng.range(0, 9)),
        1 => write!(out, "{}", rng.range(0, 100_000)),
        2 => write!(out, "-{}", rng.range(1, 5000)),
        3 => write!(out, "{}.{:02}", rng.range(0, 9999), rng.range(0, 99)),
        4 => write!(out, "0.{:04}", rng.range(1, 9999)),
        5 => write!(out, "{}E{}", rng.range(1, 99), rng.range(0, 30)),
        6 => write!(out, "1{:018}{:019}", rng.next(), rng.next() % 1_000_000_000),
        7 => write!(out, "17{:08}", rng.range(0, 99_999_999)), // epoch seconds
        _ => write!(out, "-{}.{}", rng.range(0, 180), rng.range(0, 999_999)),
    };
}

fn base64(rng: &mut Rng, bytes: u64, out: &mut String) {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let groups = bytes / 3;
    for _ in 0..groups * 4 {
        out.push(*rng.pick(ALPHABET) as char);
    }
    match bytes % 3 {
        1 => {
            out.push(*rng.pick(ALPHABET) as char);
            out.push('A');
            out.push_str("==");
        }
        2 => {
            out.push(*rng.pick(ALPHABET) as char);
            out.push(*rng.pick(ALPHABET) as char);
            out.push('A');
            out.push('=');
        }
        _ => {}
    }
}

#[allow(
    clippy::too_many_lines,
    reason = "one export item written out as DynamoDB JSON, field by field"
)]
fn realistic(rng: &mut Rng, i: u64, out: &mut String) {
    let kind = rng.next() % 3;
    let _ = write!(
        out,
        r#"{{"Item":{{"pk":{{"S":"{}#{:016x}"}},"sk":{{"S":"{}#2026-{:02}-{:02}T{:02}:{:02}:{:02}Z#{i}"}}"#,
        ["USER", "ORDER", "EVENT"][kind as usize],
        rng.next() ^ (i << 20),
        ["PROFILE", "ORDER", "EVT"][kind as usize],
        rng.range(1, 12),
        rng.range(1, 28),
        rng.range(0, 23),
        rng.range(0, 59),
        rng.range(0, 59),
    );
    let _ = write!(
        out,
        r#","GSI1PK":{{"S":"STATUS#{}"}},"type":{{"S":"{}"}},"v":{{"N":"{}"}}"#,
        rng.pick(&["PAID", "SHIPPED", "PENDING", "CANCELLED", "RETURNED"]),
        ["user", "order", "event"][kind as usize],
        rng.range(1, 40),
    );
    let attributes = rng.range(8, 36);
    for a in 0..attributes {
        match rng.next() % 14 {
            0 | 1 => {
                let _ = write!(out, r#","n{a}":{{"N":""#);
                number(rng, out);
                out.push_str(r#""}"#);
            }
            2 | 3 => {
                let _ = write!(out, r#","t{a}":{{"S":""#);
                let count = rng.range(1, 8);
                words(rng, count, out);
                out.push_str(r#""}"#);
            }
            4 => {
                let _ = write!(
                    out,
                    r#","name":{{"S":"{} {}"}},"email":{{"S":"user{}@example.com"}}"#,
                    rng.pick(NAMES),
                    rng.pick(NAMES),
                    rng.range(1, 1_000_000)
                );
            }
            5 => {
                let _ = write!(out, r#","b{a}":{{"BOOL":{}}}"#, rng.chance(50));
            }
            6 => {
                let _ = write!(out, r#","z{a}":{{"NULL":true}}"#);
            }
            7 => {
                let _ = write!(
                    out,
                    r#","addr{a}":{{"M":{{"street":{{"S":"{} {}"}},"city":{{"S":"{}"}},"zip":{{"S":"{:05}"}},"geo":{{"M":{{"lat":{{"N":"{}.{}"}},"lon":{{"N":"-{}.{}"}}}}}}}}}}"#,
                    rng.range(1, 999),
                    rng.pick(WORDS),
                    rng.pick(&["Zürich", "São Paulo", "東京", "Lyon", "Kraków"]),
                    rng.range(0, 99_999),
                    rng.range(0, 89),
                    rng.range(0, 999_999),
                    rng.range(0, 179),
                    rng.range(0, 999_999),
                );
            }
            8 => {
                let _ = write!(out, r#","lines{a}":{{"L":["#);
                let count = rng.range(0, 4);
                list(out, count, |out| {
                    let _ = write!(
                        out,
                        r#"{{"M":{{"sku":{{"S":"SKU-{}"}},"qty":{{"N":"{}"}},"price":{{"N":"{}.{:02}"}},"gift":{{"BOOL":{}}}}}}}"#,
                        rng.range(1, 99_999),
                        rng.range(1, 9),
                        rng.range(1, 500),
                        rng.range(0, 99),
                        rng.chance(10)
                    );
                });
                out.push_str("]}");
            }
            9 => {
                let _ = write!(out, r#","tags{a}":{{"SS":["#);
                let count = rng.range(1, 5);
                list(out, count, |out| {
                    let _ = write!(out, r#""{}""#, rng.pick(WORDS));
                });
                out.push_str("]}");
            }
            10 => {
                let _ = write!(out, r#","scores{a}":{{"NS":["#);
                let count = rng.range(1, 4);
                list(out, count, |out| {
                    out.push('"');
                    number(rng, out);
                    out.push('"');
                });
                out.push_str("]}");
            }
            11 => {
                let _ = write!(out, r#","bin{a}":{{"B":""#);
                let bytes = rng.range(8, 120);
                base64(rng, bytes, out);
                out.push_str(r#""}"#);
            }
            12 => {
                let _ = write!(out, r#","hashes{a}":{{"BS":["#);
                let count = rng.range(1, 3);
                list(out, count, |out| {
                    out.push('"');
                    base64(rng, 16, out);
                    out.push('"');
                });
                out.push_str("]}");
            }
            _ => {
                let _ = write!(out, r#","desc{a}":{{"S":""#);
                let count = rng.range(10, 60);
                words(rng, count, out);
                out.push_str(r#""}"#);
            }
        }
    }
    out.push_str("}}");
}
