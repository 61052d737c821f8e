//! Shared test helpers: run the `ddbcost` binary fluently, and price a workload written inline.
#![allow(dead_code)]
#![allow(
    unreachable_pub,
    reason = "helpers shared by the test files, each its own crate"
)]

pub mod cloudwatch;
pub mod daily_bill;
pub mod saas;

use std::path::PathBuf;
use std::process::Command;

use ddbcost::api::{Estimate, LineItem, Settings};
use rust_decimal::Decimal;

pub fn dec(s: &str) -> Decimal {
    s.parse().expect("decimal literal")
}

/// Σ `values` as the engine totals an estimate's lines: exactly — here in one `i128` of
/// 10^-28, which holds the totals of these tests (below 10^10) — then rounded once, half to
/// even, to the widest scale of the values that are not zero, or the widest below it that
/// fits a `Decimal`'s 96 bits.
pub fn exact_total(values: impl IntoIterator<Item = Decimal>) -> Decimal {
    let mut sum: i128 = 0;
    let mut widest = 0;
    for v in values {
        if !v.is_zero() {
            widest = widest.max(v.scale());
        }
        sum += v.mantissa() * 10i128.pow(28 - v.scale());
    }
    for scale in (0..=widest).rev() {
        let unit = 10i128.pow(28 - scale);
        let (q, r) = (sum.div_euclid(unit), sum.rem_euclid(unit));
        let up = 2 * r > unit || (2 * r == unit && q % 2 != 0);
        let m = q + i128::from(up);
        if m.unsigned_abs() < 1u128 << 96 {
            return Decimal::from_i128_with_scale(m, scale);
        }
    }
    panic!("a total too large for a decimal")
}

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The documentation the tests hold to the tool: `README.md`, then every Markdown file under
/// `docs/` (sorted), each as its path from the repository's root and its text.
pub fn documentation() -> Vec<(String, String)> {
    fn walk(dir: &std::path::Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let path = e.path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|x| x == "md") {
                out.push(path);
            }
        }
    }
    let mut files = vec![root().join("README.md")];
    let mut docs = Vec::new();
    walk(&root().join("docs"), &mut docs);
    docs.sort();
    files.extend(docs);
    files
        .into_iter()
        .map(|f| {
            let text = std::fs::read_to_string(&f).unwrap();
            let name = f
                .strip_prefix(root())
                .unwrap()
                .to_string_lossy()
                .into_owned();
            (name, text)
        })
        .collect()
}

/// The README and the reference under `docs/`, as one text: for tests that find a section
/// wherever it lives.
pub fn documentation_text() -> String {
    documentation()
        .into_iter()
        .map(|(_, text)| text)
        .collect::<Vec<_>>()
        .join("\n")
}

/// The environment variables a test run keeps: what finds programs, temporary folders and
/// the locale. Everything else a developer set (`DDBCOST_PRICES`, `NO_COLOR`, `TERM`,
/// `COLUMNS`, …) is cleared, so a test sees the same environment on every machine.
const KEPT_ENV: &[&str] = &[
    "PATH",
    "HOME",
    "TMPDIR",
    "LANG",
    "LC_ALL",
    "USER",
    "SYSTEMROOT",
];

/// A hermetic command: `program` with the environment reduced to `KEPT_ENV`, in the crate's
/// folder. Every test that runs a program goes through this (or `Case`).
pub fn command(program: impl AsRef<std::ffi::OsStr>) -> Command {
    let mut cmd = Command::new(program);
    cmd.env_clear().current_dir(root());
    for name in KEPT_ENV {
        if let Some(value) = std::env::var_os(name) {
            cmd.env(name, value);
        }
    }
    cmd
}

/// The `ddbcost` binary as a hermetic command.
pub fn ddbcost() -> Command {
    command(env!("CARGO_BIN_EXE_ddbcost"))
}

/// Whether `tool` is an executable on `PATH`.
pub fn has_tool(tool: &str) -> bool {
    std::env::var_os("PATH").is_some_and(|path| {
        std::env::split_paths(&path).any(|dir| {
            let candidate = dir.join(tool);
            std::fs::metadata(&candidate).is_ok_and(|m| {
                use std::os::unix::fs::PermissionsExt;
                m.is_file() && m.permissions().mode() & 0o111 != 0
            })
        })
    })
}

/// A test that needs an outside program (`tool`) and cannot run without it: skips with a
/// message, unless `DDBCOST_REQUIRE_TOOLS=1` (set by `.ci/run`), where a missing tool fails
/// the test, so CI never passes a check that did not run.
#[track_caller]
pub fn skip_without(tool: &str, why: &str) {
    assert!(
        std::env::var_os("DDBCOST_REQUIRE_TOOLS").is_none_or(|v| v != "1"),
        "{tool} is required ({why}) and DDBCOST_REQUIRE_TOOLS=1: install it"
    );
    eprintln!("skipped: {tool} is not installed ({why})");
}

/// A run of the binary: `Case::new().args(["estimate", "…"]).run().success().stdout_has("…")`.
pub struct Case {
    args: Vec<String>,
    stdin: Option<String>,
    env: Vec<(String, String)>,
}

pub struct Outcome {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Case {
    pub fn new() -> Self {
        Case {
            args: Vec::new(),
            stdin: None,
            env: Vec::new(),
        }
    }

    pub fn args<I: IntoIterator<Item = S>, S: AsRef<str>>(mut self, args: I) -> Self {
        self.args
            .extend(args.into_iter().map(|a| a.as_ref().to_string()));
        self
    }

    /// An environment variable for the run.
    pub fn env(mut self, name: &str, value: &str) -> Self {
        self.env.push((name.to_string(), value.to_string()));
        self
    }

    /// Text piped to standard input.
    #[allow(dead_code)] // not every test file pipes input
    pub fn stdin(mut self, text: &str) -> Self {
        self.stdin = Some(text.to_string());
        self
    }

    pub fn run(self) -> Outcome {
        use std::io::Write;
        let mut child = ddbcost()
            .args(&self.args)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .envs(self.env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
            .spawn()
            .expect("run ddbcost");
        let mut pipe = child.stdin.take().expect("stdin");
        if let Some(text) = self.stdin {
            // A run may end before it reads its input (a usage error, a refused root): the
            // pipe is then closed, which is its answer, not the test's failure.
            if let Err(e) = pipe.write_all(text.as_bytes()) {
                assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "write stdin: {e}");
            }
        }
        drop(pipe);
        let out = child.wait_with_output().expect("run ddbcost");
        Outcome {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }
}

impl Outcome {
    #[track_caller]
    pub fn success(self) -> Self {
        assert_eq!(self.code, 0, "expected success, stderr:\n{}", self.stderr);
        self
    }

    #[track_caller]
    pub fn code(self, code: i32) -> Self {
        assert_eq!(
            self.code, code,
            "exit code; stdout:\n{}\nstderr:\n{}",
            self.stdout, self.stderr
        );
        self
    }

    #[track_caller]
    pub fn stdout_has(self, needle: &str) -> Self {
        assert!(
            self.stdout.contains(needle),
            "stdout lacks {needle:?}:\n{}",
            self.stdout
        );
        self
    }

    #[track_caller]
    pub fn stderr_has(self, needle: &str) -> Self {
        assert!(
            self.stderr.contains(needle),
            "stderr lacks {needle:?}:\n{}",
            self.stderr
        );
        self
    }
}

/// Writes `text` to `dir/name` and returns its path as text.
pub fn write_file(dir: &std::path::Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write file");
    path.to_string_lossy().into_owned()
}

/// The properties every hand-written CloudFormation table of the tests shares: on demand,
/// one string key `pk` (indented as properties of a resource).
pub const CFN_TABLE_PROPS: &str = "      BillingMode: PAY_PER_REQUEST
      AttributeDefinitions: [{AttributeName: pk, AttributeType: S}]
      KeySchema: [{AttributeName: pk, KeyType: HASH}]
";

/// Writes `text` to a temporary YAML file and returns its directory guard and path.
pub fn temp_workload(text: &str) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("workload.yaml");
    std::fs::write(&path, text).expect("write workload");
    let p = path.to_string_lossy().into_owned();
    (dir, p)
}

/// Prices an inline workload with a bundled price table and default settings.
pub fn estimate(yaml: &str, price_table: &str) -> Estimate {
    estimate_with(yaml, price_table, Settings::default())
}

pub fn estimate_with(yaml: &str, price_table: &str, settings: Settings) -> Estimate {
    try_estimate(yaml, price_table, settings).expect("estimate")
}

#[allow(
    clippy::needless_pass_by_value,
    reason = "callers build settings inline"
)]
pub fn try_estimate(
    yaml: &str,
    price_table: &str,
    settings: Settings,
) -> Result<Estimate, ddbcost::api::Error> {
    let (workload, _) = ddbcost::api::load(yaml, "inline.yaml")?;
    let book = ddbcost::api::prices(price_table)?;
    Ok(ddbcost::api::estimate(&workload, &book, &settings)?)
}

#[track_caller]
pub fn line<'a>(e: &'a Estimate, key: &str) -> &'a LineItem {
    e.line_items
        .iter()
        .find(|l| l.key == key)
        .unwrap_or_else(|| {
            let keys: Vec<&str> = e.line_items.iter().map(|l| l.key.as_str()).collect();
            panic!("no line {key}; lines: {keys:?}")
        })
}

#[track_caller]
pub fn quantity(e: &Estimate, key: &str) -> Decimal {
    line(e, key).quantity.expect("known quantity")
}

#[track_caller]
pub fn cost(e: &Estimate, key: &str) -> Decimal {
    line(e, key).cost.expect("known cost")
}

/// A CSV document as its header and rows.
pub fn csv_table(text: &str) -> (Vec<String>, Vec<csv::StringRecord>) {
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header = reader
        .headers()
        .expect("a CSV header")
        .iter()
        .map(str::to_string)
        .collect();
    let rows = reader.records().map(|r| r.expect("a CSV row")).collect();
    (header, rows)
}

/// The position of `name` in a CSV header.
#[track_caller]
pub fn column(header: &[String], name: &str) -> usize {
    header
        .iter()
        .position(|h| h == name)
        .unwrap_or_else(|| panic!("no column {name} in {header:?}"))
}

/// The line item `key` of a JSON estimate document.
#[track_caller]
pub fn json_line<'a>(doc: &'a serde_json::Value, key: &str) -> &'a serde_json::Value {
    doc["line_items"]
        .as_array()
        .expect("line_items")
        .iter()
        .find(|l| l["key"] == key)
        .unwrap_or_else(|| panic!("no line {key}"))
}

/// CloudShop's orders table `n` times over (`orders0` …), comments left out: a workload
/// whose estimate takes seconds in a debug build and prints ≈ 9 KB of JSON per table.
#[allow(dead_code, reason = "used by some of the test files")]
pub fn many_tables(n: usize) -> String {
    let text = std::fs::read_to_string(root().join("workloads/cloudshop.yaml")).unwrap();
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .map(|l| l.split(" #").next().unwrap_or(l))
        .collect();
    let at = lines.iter().position(|l| *l == "  orders:").unwrap();
    let end = lines[at + 1..]
        .iter()
        .position(|l| !l.is_empty() && !l.starts_with(' '))
        .map_or(lines.len(), |e| at + 1 + e);
    let mut out: Vec<String> = lines[..at].iter().map(|l| (*l).to_string()).collect();
    for k in 0..n {
        out.push(format!("  orders{k}:"));
        out.extend(lines[at + 1..end].iter().map(|l| (*l).to_string()));
    }
    out.extend(lines[end..].iter().map(|l| (*l).to_string()));
    out.join("\n")
}

/// The temporary files of atomic writes (`.ddbcost-…`) left in `dir`.
#[allow(dead_code, reason = "used by some of the test files")]
pub fn temp_files(dir: &std::path::Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".ddbcost-"))
        .collect()
}

/// A Python that can `import duckdb`: `DDBCOST_PYTHON` (`.ci/run` sets it to its venv's), else
/// `python3`.
pub fn duckdb_python() -> Option<String> {
    let python = std::env::var("DDBCOST_PYTHON").unwrap_or_else(|_| "python3".to_string());
    let ok = std::process::Command::new(&python)
        .args(["-c", "import duckdb"])
        .output()
        .is_ok_and(|o| o.status.success());
    ok.then_some(python)
}
