//! Running one tool call: `ddbcost` itself, as a child process, with the command line the
//! tool stands for, the document on its standard input, errors as JSON
//! (`--error-format json`) and every file read confined to the server's root (`--root`, or
//! `--no-files` when none was given, so a document cannot read anything). The child's
//! output is the command's output byte for byte, read up to the result budget
//! (`--max-result-bytes`: past it the child is stopped and the call refused, so the server
//! never holds more than one budget of output per call).
//!
//! No child outlives its call or its server: each runs in its own process group, killed
//! when the call ends early (time budget, `notifications/cancelled`, the end of the
//! session), when the server is stopped by SIGTERM or SIGINT (`kill_all`), and — since a
//! SIGKILL'd server can run nothing — by the parent-death signal each child asks the kernel
//! for as it starts (`die_with_parent`). A crash ends one call, not the server.

use std::collections::HashSet;
use std::path::PathBuf;
use std::process::Stdio;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use rmcp::ErrorData;
use rmcp::model::ErrorCode;
use serde_json::{Value, json};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::sync::Semaphore;

/// The environment variable that tells a child the server's process id.
pub(super) const PARENT: &str = "DDBCOST_MCP_PARENT";

/// How many bytes of a child's standard error are kept (its notes and its error object);
/// the rest is read and dropped.
const MAX_STDERR_BYTES: usize = 1 << 20;

/// What every call shares.
pub(super) struct Runner {
    pub exe: PathBuf,
    /// The folder tools may read (`--root`); `None`: they read no file.
    pub root: Option<PathBuf>,
    pub timeout: Duration,
    /// The most bytes a tool's output may be.
    pub max_result_bytes: usize,
    pub permits: Semaphore,
    /// The process groups of the children running now.
    pub live: Mutex<HashSet<i32>>,
}

/// One command line to run, and what it reads on standard input.
pub(super) struct Call {
    pub args: Vec<String>,
    pub stdin: String,
}

/// How a command ended.
pub(super) enum Outcome {
    /// Exit 0: what it printed, and the notes it wrote on standard error.
    Done { stdout: Vec<u8>, notes: Vec<String> },
    /// A refusal (exit 1 or 2): the `ddbcost.error/v1` object, and the notes before it.
    Refused { error: Value, notes: Vec<String> },
}

/// JSON-RPC's code for a request that ran past its time (as the MCP SDKs name it).
const REQUEST_TIMEOUT: ErrorCode = ErrorCode(-32001);

/// Kills a child's process group when its call ends, however it ends.
struct Reaper<'r> {
    runner: &'r Runner,
    group: i32,
}

impl Drop for Reaper<'_> {
    fn drop(&mut self) {
        let mut live = self
            .runner
            .live
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if live.remove(&self.group) {
            kill_group(self.group);
        }
    }
}

fn kill_group(group: i32) {
    if let Some(pid) = rustix::process::Pid::from_raw(group) {
        // Gone already is fine: nothing is left to stop.
        let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
    }
}

/// Why a call ended without the child's answer.
enum Stop {
    TooLarge,
    Io(std::io::Error),
}

/// Reads `r` whole, failing once it passes `max` bytes; JSON is compacted as it comes
/// (`compact`), so the server holds the least of it.
async fn capped<R: AsyncRead + Unpin>(
    r: Option<R>,
    max: usize,
    compact: bool,
) -> Result<Vec<u8>, Stop> {
    let Some(mut r) = r else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    let mut compactor = super::raw::Compactor::default();
    let mut buf = vec![0u8; 1 << 16];
    let mut total: usize = 0;
    loop {
        let n = r.read(&mut buf).await.map_err(Stop::Io)?;
        if n == 0 {
            return Ok(out);
        }
        total = total.saturating_add(n);
        if total > max {
            return Err(Stop::TooLarge);
        }
        let chunk = buf.get(..n).unwrap_or_default();
        if compact {
            compactor.feed(chunk, &mut out);
        } else {
            out.extend_from_slice(chunk);
        }
    }
}

/// Reads `r` to its end, keeping the first `keep` bytes (a child never blocks on a full
/// pipe, and the server never holds more than `keep`).
async fn kept<R: AsyncRead + Unpin>(r: Option<R>, keep: usize) -> Result<Vec<u8>, Stop> {
    let Some(mut r) = r else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = r.read(&mut buf).await.map_err(Stop::Io)?;
        if n == 0 {
            return Ok(out);
        }
        let room = keep.saturating_sub(out.len()).min(n);
        out.extend_from_slice(buf.get(..room).unwrap_or_default());
    }
}

impl Runner {
    /// Kills every child still running (the server is stopping).
    pub(super) fn kill_all(&self) {
        let mut live = self.live.lock().unwrap_or_else(PoisonError::into_inner);
        for group in live.drain() {
            kill_group(group);
        }
    }

    fn command(&self, call: &Call) -> tokio::process::Command {
        let mut command = tokio::process::Command::new(&self.exe);
        command.args(&call.args).arg("--error-format").arg("json");
        match &self.root {
            Some(root) => {
                command.arg("--root").arg(root).current_dir(root);
            }
            None => {
                command.arg("--no-files").current_dir("/");
            }
        }
        command
            .env_clear()
            .env("NO_COLOR", "1")
            .env(PARENT, std::process::id().to_string())
            .process_group(0)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        command
    }

    /// Runs `call`, at most `permits` at a time, until it ends or `cancelled` resolves; its
    /// output compacted as JSON when `json`.
    ///
    /// # Errors
    /// The protocol's error for a call past the time budget, over the result budget or
    /// cancelled, or a child that could not run or ended without saying why.
    pub(super) async fn run(
        &self,
        call: Call,
        json: bool,
        cancelled: impl std::future::Future<Output = ()>,
    ) -> Result<Outcome, ErrorData> {
        let _permit = self
            .permits
            .acquire()
            .await
            .map_err(|_| ErrorData::internal_error("the server is stopping", None))?;
        let mut child = self
            .command(&call)
            .spawn()
            .map_err(|e| ErrorData::internal_error(format!("cannot run ddbcost: {e}"), None))?;
        let group = child
            .id()
            .and_then(|id| i32::try_from(id).ok())
            .unwrap_or_default();
        self.live
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(group);
        let _reaper = Reaper {
            runner: self,
            group,
        };
        let mut stdin = child.stdin.take();
        let (stdout, stderr) = (child.stdout.take(), child.stderr.take());
        let feed = async move {
            if let Some(s) = stdin.as_mut() {
                // A command that stops reading early closes the pipe: not an error here.
                let _ = s.write_all(call.stdin.as_bytes()).await;
            }
            drop(stdin);
            Ok::<(), Stop>(())
        };
        let work = async {
            let ((), out, err) = tokio::try_join!(
                feed,
                capped(stdout, self.max_result_bytes, json),
                kept(stderr, MAX_STDERR_BYTES)
            )?;
            let status = child.wait().await.map_err(Stop::Io)?;
            Ok::<_, Stop>((status, out, err))
        };
        let ended = tokio::select! {
            r = tokio::time::timeout(self.timeout, work) => r,
            () = cancelled => {
                return Err(ErrorData::new(
                    ErrorCode(-32800),
                    "the request was cancelled; its ddbcost process was stopped",
                    None,
                ));
            }
        };
        let (status, stdout, stderr) = match ended {
            Err(_) => return Err(self.past_time()),
            Ok(Err(Stop::TooLarge)) => return Err(self.too_large()),
            Ok(Err(Stop::Io(e))) => {
                return Err(ErrorData::internal_error(
                    format!("ddbcost did not finish: {e}"),
                    None,
                ));
            }
            Ok(Ok(done)) => done,
        };
        let (error, notes) = said(&stderr);
        if status.success() {
            return Ok(Outcome::Done { stdout, notes });
        }
        match error {
            Some(error) => Ok(Outcome::Refused { error, notes }),
            None => Err(ErrorData::internal_error(
                format!("ddbcost ended without an answer ({status})"),
                Some(json!({ "stderr": notes })),
            )),
        }
    }

    fn past_time(&self) -> ErrorData {
        ErrorData::new(
            REQUEST_TIMEOUT,
            format!(
                "the request ran past the time budget of {} ms (ddbcost mcp --timeout) and was stopped",
                self.timeout.as_millis()
            ),
            Some(
                json!({ "timeout_ms": u64::try_from(self.timeout.as_millis()).unwrap_or(u64::MAX) }),
            ),
        )
    }

    fn too_large(&self) -> ErrorData {
        ErrorData::internal_error(
            format!(
                "the result is larger than the {} bytes a tool result may be (ddbcost mcp --max-result-bytes); the call was stopped",
                self.max_result_bytes
            ),
            Some(json!({ "max_result_bytes": self.max_result_bytes })),
        )
    }
}

/// A child's standard error: its error object, if it wrote one, and its other lines.
fn said(stderr: &[u8]) -> (Option<Value>, Vec<String>) {
    let stderr = String::from_utf8_lossy(stderr);
    let mut notes: Vec<String> = Vec::new();
    let mut error: Option<Value> = None;
    for line in stderr.lines() {
        match serde_json::from_str::<Value>(line) {
            Ok(v) if v["schema"] == "ddbcost.error/v1" => error = Some(v),
            _ if !line.trim().is_empty() => notes.push(line.to_string()),
            _ => {}
        }
    }
    (error, notes)
}

/// Makes this process (a tool call's child) end with its server: asks the kernel for
/// SIGKILL when the parent dies, then ends at once if the parent named in `parent` is
/// already gone (it died before the request).
pub(crate) fn die_with_parent(parent: &str) {
    let Ok(expected) = parent.parse::<i32>() else {
        return;
    };
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        if rustix::process::set_parent_process_death_signal(Some(rustix::process::Signal::KILL))
            .is_err()
        {
            return;
        }
        let now = rustix::process::getppid().map_or(0, |p| p.as_raw_nonzero().get());
        if now != expected {
            std::process::exit(crate::error::exit::INPUT);
        }
    }
}
