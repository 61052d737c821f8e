//! Running one tool call: `ddbcost` itself, as a child process, with the command line the
//! tool stands for, the document on its standard input, errors as JSON
//! (`--error-format json`) and every file read confined to the server's root (`--root`; an
//! empty private folder when none was given, so a document cannot read anything). The
//! child's output is the command's output byte for byte; a child past the time budget is
//! killed; a crash ends one call, not the server.

use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use rmcp::ErrorData;
use rmcp::model::ErrorCode;
use serde_json::{Value, json};
use tokio::io::AsyncWriteExt;
use tokio::sync::Semaphore;

/// What every call shares.
pub(super) struct Runner {
    pub exe: PathBuf,
    /// The folder tools may read (`--root`), or an empty one of our own.
    pub root: PathBuf,
    /// Kept so the empty folder lives as long as the server.
    pub _empty: Option<tempfile::TempDir>,
    pub timeout: Duration,
    pub permits: Semaphore,
}

/// One command line to run, and what it reads on standard input.
pub(super) struct Call {
    pub args: Vec<String>,
    pub stdin: String,
}

/// How a command ended.
pub(super) enum Outcome {
    /// Exit 0: what it printed, and the notes it wrote on standard error.
    Done { stdout: String, notes: Vec<String> },
    /// A refusal (exit 1 or 2): the `ddbcost.error/v1` object, and the notes before it.
    Refused { error: Value, notes: Vec<String> },
}

/// JSON-RPC's code for a request that ran past its time (as the MCP SDKs name it).
const REQUEST_TIMEOUT: ErrorCode = ErrorCode(-32001);

impl Runner {
    /// Runs `call`, at most `permits` at a time.
    ///
    /// # Errors
    /// The protocol's error for a call past the time budget, or a child that could not run
    /// or ended without saying why.
    pub(super) async fn run(&self, call: Call) -> Result<Outcome, ErrorData> {
        let _permit = self
            .permits
            .acquire()
            .await
            .map_err(|_| ErrorData::internal_error("the server is stopping", None))?;
        let mut child = tokio::process::Command::new(&self.exe)
            .args(&call.args)
            .arg("--error-format")
            .arg("json")
            .arg("--root")
            .arg(&self.root)
            .current_dir(&self.root)
            .env_clear()
            .env("NO_COLOR", "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| ErrorData::internal_error(format!("cannot run ddbcost: {e}"), None))?;
        let mut stdin = child.stdin.take();
        let feed = async move {
            if let Some(s) = stdin.as_mut() {
                // A command that stops reading early closes the pipe: not an error here.
                let _ = s.write_all(call.stdin.as_bytes()).await;
            }
            drop(stdin);
        };
        let work = async {
            let ((), out) = tokio::join!(feed, child.wait_with_output());
            out
        };
        let out = tokio::time::timeout(self.timeout, work)
            .await
            .map_err(|_| {
                ErrorData::new(
                    REQUEST_TIMEOUT,
                    format!(
                        "the request ran past the time budget of {} ms (ddbcost mcp --timeout) and was stopped",
                        self.timeout.as_millis()
                    ),
                    Some(json!({ "timeout_ms": u64::try_from(self.timeout.as_millis()).unwrap_or(u64::MAX) })),
                )
            })?
            .map_err(|e| ErrorData::internal_error(format!("ddbcost did not finish: {e}"), None))?;
        let stderr = String::from_utf8_lossy(&out.stderr);
        let mut notes: Vec<String> = Vec::new();
        let mut error: Option<Value> = None;
        for line in stderr.lines() {
            match serde_json::from_str::<Value>(line) {
                Ok(v) if v["schema"] == "ddbcost.error/v1" => error = Some(v),
                _ if !line.trim().is_empty() => notes.push(line.to_string()),
                _ => {}
            }
        }
        if out.status.success() {
            return Ok(Outcome::Done {
                stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
                notes,
            });
        }
        match error {
            Some(error) => Ok(Outcome::Refused { error, notes }),
            None => Err(ErrorData::internal_error(
                format!("ddbcost ended without an answer ({})", out.status),
                Some(json!({ "stderr": notes })),
            )),
        }
    }
}
