//! `ddbcost mcp`: a Model Context Protocol server over standard input and output, on the
//! official Rust SDK (`rmcp`). Its tools (`tools`) are ddbcost's commands; each call runs
//! `ddbcost` itself as a child (`child`), so an agent gets the same figures, JSON and error
//! messages as the command line, byte for byte, within a time budget, and a failure ends one
//! call, never the server. Resources and the prompt are in `catalog`; the framing — request
//! budget, malformed messages answered with the protocol's error, one writer for standard
//! output — in `wire`. Diagnostics go to standard error; standard output carries protocol
//! messages only.

mod catalog;
mod child;
mod raw;
mod tools;
mod wire;

use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, GetPromptRequestParams,
    GetPromptResponse, GetPromptResult, Implementation, ListPromptsResult, ListResourcesResult,
    ListToolsResult, PaginatedRequestParams, ReadResourceRequestParams, ReadResourceResponse,
    ReadResourceResult, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use crate::error::Error;
pub(crate) use child::die_with_parent;
use child::{Outcome, Runner};

/// How the server runs.
pub(crate) struct Options {
    pub timeout: Duration,
    pub max_request_bytes: usize,
    /// The most bytes one tool's output may be (`--max-result-bytes`).
    pub max_result_bytes: usize,
    pub concurrency: usize,
    /// The folder tools may read (`--root`); `None`: none at all.
    pub root: Option<std::path::PathBuf>,
    /// `--root` could not be opened (a relative folder and the client started the server
    /// elsewhere): the server still starts, and every tool call is refused with this error,
    /// so that the client shows why instead of "connection closed".
    pub root_error: Option<Value>,
}

/// Serves MCP on standard input and output until the client closes standard input.
///
/// # Errors
/// The runtime or the root folder cannot be set up.
pub(crate) fn serve(options: &Options) -> Result<(), Error> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| Error::io(format!("cannot start the MCP server: {e}"), e))?;
    let (replies, ours) = tokio::sync::mpsc::unbounded_channel();
    let flight = wire::InFlight::default();
    let server = Server::new(options, replies.clone(), flight.clone())?;
    let runner = Arc::clone(&server.runner);
    let budget = options.max_request_bytes;
    let stopped_by = runtime.block_on(async move {
        let (sdk_in, to_sdk) = tokio::io::duplex(1 << 20);
        let (from_sdk, sdk_out) = tokio::io::duplex(1 << 20);
        let reader = tokio::spawn(wire::read(
            tokio::io::stdin(),
            to_sdk,
            replies,
            budget,
            flight.clone(),
        ));
        let writer = tokio::spawn(wire::write(from_sdk, ours, tokio::io::stdout(), flight));
        let session = async {
            match server.serve((sdk_in, sdk_out)).await {
                Ok(running) => {
                    let _ = running.waiting().await;
                }
                Err(e) => {
                    crate::output::warn(&format!("ddbcost mcp: the session did not start: {e}"));
                }
            }
        };
        let signal = tokio::select! {
            () = session => None,
            s = stop_signal() => Some(s),
        };
        reader.abort();
        if signal.is_none() {
            let _ = writer.await;
        }
        signal
    });
    // No child outlives the server, however it stops.
    runner.kill_all();
    // The runtime's blocking stdin reader would hold the process open: end it now.
    runtime.shutdown_timeout(Duration::from_millis(100));
    if let Some(signal) = stopped_by {
        // End as the signal would have ended us (status 128 + signal).
        std::process::exit(128_i32.saturating_add(signal));
    }
    Ok(())
}

/// The first SIGTERM or SIGINT the server gets (its number); never, where none can come.
async fn stop_signal() -> i32 {
    use tokio::signal::unix::{SignalKind, signal};
    let (Ok(mut term), Ok(mut int)) = (
        signal(SignalKind::terminate()),
        signal(SignalKind::interrupt()),
    ) else {
        return std::future::pending().await;
    };
    tokio::select! {
        _ = term.recv() => 15,
        _ = int.recv() => 2,
    }
}

/// The framing alone, for the fuzz target: `input` read as the server reads standard input;
/// returns what reaches the SDK and the replies sent for refused lines.
///
/// # Panics
/// Never on any input (that is what the fuzz target checks); only if a runtime cannot start.
pub(crate) fn frames(input: &[u8], budget: usize) -> (Vec<u8>, Vec<String>) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        let (sdk_in, to_sdk) = tokio::io::duplex(1 << 16);
        let (replies, mut ours) = tokio::sync::mpsc::unbounded_channel();
        let collect = tokio::spawn(async move {
            let mut got = Vec::new();
            let mut sdk_in = sdk_in;
            let _ = tokio::io::AsyncReadExt::read_to_end(&mut sdk_in, &mut got).await;
            got
        });
        wire::read(input, to_sdk, replies, budget, wire::InFlight::default()).await;
        let forwarded = collect.await.unwrap_or_default();
        let mut said = Vec::new();
        while let Ok(r) = ours.try_recv() {
            if let wire::Outgoing::Line(line) = r {
                said.push(line);
            }
        }
        (forwarded, said)
    })
}

#[derive(Clone)]
struct Server {
    runner: Arc<Runner>,
    workload_schema: Arc<Value>,
    /// Why `--root` could not be opened: every tool call is refused with it.
    root_error: Option<Value>,
    /// The writer of standard output, for answers written from a tool's bytes.
    out: tokio::sync::mpsc::UnboundedSender<wire::Outgoing>,
    flight: wire::InFlight,
}

/// A tool call's answer: a result the SDK writes (small: a refusal, `validate`, `import`),
/// or a tool's JSON output that the server writes itself from its bytes.
enum Reply {
    Result(CallToolResult),
    Raw(raw::Answer),
}

impl Server {
    fn new(
        options: &Options,
        out: tokio::sync::mpsc::UnboundedSender<wire::Outgoing>,
        flight: wire::InFlight,
    ) -> Result<Self, Error> {
        let exe = std::env::current_exe()
            .map_err(|e| Error::io(format!("cannot find the ddbcost program: {e}"), e))?;
        Ok(Server {
            runner: Arc::new(Runner {
                exe,
                root: options.root.clone(),
                timeout: options.timeout,
                max_result_bytes: options.max_result_bytes,
                permits: tokio::sync::Semaphore::new(options.concurrency.max(1)),
                live: std::sync::Mutex::default(),
            }),
            workload_schema: Arc::new(crate::load::schema::workload()),
            root_error: options.root_error.clone(),
            out,
            flight,
        })
    }

    async fn call(
        &self,
        name: &str,
        arguments: &serde_json::Map<String, Value>,
        cancel: &CancellationToken,
    ) -> Result<Reply, ErrorData> {
        let tool = tools::find(name).ok_or_else(|| {
            let names: Vec<&str> = tools::TOOLS.iter().map(|t| t.name).collect();
            ErrorData::invalid_params(
                format!(
                    "Invalid params: no tool `{name}` (tools: {})",
                    names.join(", ")
                ),
                None,
            )
        })?;
        let call = tool.call(arguments)?;
        if let Some(error) = &self.root_error {
            return Ok(Reply::Result(refused(error.clone(), &[])));
        }
        let json = tool.name != "import";
        let outcome = self.runner.run(call, json, cancel.cancelled()).await?;
        let (structured, notes) = match (outcome, tool.name) {
            (Outcome::Done { stdout, notes }, "validate") => {
                // Only the total is read: the rest of the estimate is skipped, not built.
                #[derive(serde::Deserialize)]
                struct Total {
                    total: Value,
                    currency: Value,
                }
                let t: Total = serde_json::from_slice(&stdout).map_err(|e| {
                    ErrorData::internal_error(format!("ddbcost printed no JSON: {e}"), None)
                })?;
                (
                    json!({ "schema": tool.output, "valid": true, "error": null, "total": t.total, "currency": t.currency }),
                    notes,
                )
            }
            (Outcome::Refused { error, notes }, "validate") => (
                json!({ "schema": tool.output, "valid": false, "error": error }),
                notes,
            ),
            (Outcome::Done { stdout, notes }, "import") => {
                let workload = String::from_utf8(stdout).map_err(|e| {
                    ErrorData::internal_error(format!("ddbcost printed no text: {e}"), None)
                })?;
                (
                    json!({ "schema": tool.output, "workload": workload }),
                    notes,
                )
            }
            (Outcome::Done { stdout, notes }, _) => {
                raw::is_json(&stdout).map_err(|e| {
                    ErrorData::internal_error(format!("ddbcost printed no JSON: {e}"), None)
                })?;
                let mut more = Vec::new();
                if name == "estimate"
                    && let Some(by) = arguments.get("by").and_then(Value::as_str)
                {
                    more.push(self.breakdown(arguments, by, cancel).await?);
                }
                if !notes.is_empty() {
                    more.push(notes.join("\n"));
                }
                return Ok(Reply::Raw(raw::Answer {
                    id: Value::Null,
                    json: stdout,
                    more,
                }));
            }
            (Outcome::Refused { error, notes }, _) => {
                return Ok(Reply::Result(refused(error, &notes)));
            }
        };
        let mut content = vec![ContentBlock::text(structured.to_string())];
        if !notes.is_empty() {
            content.push(ContentBlock::text(notes.join("\n")));
        }
        let mut result = CallToolResult::success(content);
        result.structured_content = Some(structured);
        Ok(Reply::Result(result))
    }

    /// The estimate's Markdown table, broken down `by`.
    async fn breakdown(
        &self,
        arguments: &serde_json::Map<String, Value>,
        by: &str,
        cancel: &CancellationToken,
    ) -> Result<String, ErrorData> {
        let mut args = arguments.clone();
        args.remove("by");
        let mut call = tools::find("estimate")
            .map(|t| t.command(&args))
            .transpose()?
            .ok_or_else(|| ErrorData::internal_error("no estimate tool", None))?;
        call.args.extend([
            "--format".into(),
            "markdown".into(),
            "--by".into(),
            by.into(),
        ]);
        match self.runner.run(call, false, cancel.cancelled()).await? {
            Outcome::Done { stdout, .. } => Ok(String::from_utf8_lossy(&stdout).into_owned()),
            Outcome::Refused { error, .. } => Err(ErrorData::internal_error(
                error["message"].as_str().unwrap_or("refused").to_string(),
                Some(error),
            )),
        }
    }
}

fn from_json<T: serde::de::DeserializeOwned>(v: Value) -> Result<T, ErrorData> {
    serde_json::from_value(v)
        .map_err(|e| ErrorData::internal_error(format!("cannot build the reply: {e}"), None))
}

/// A refusal as a tool error: the message as the command line prints it, and the error's
/// fields (path, line, column, help) as structured content.
fn refused(error: Value, notes: &[String]) -> CallToolResult {
    let text = error["text"].as_str().unwrap_or_default().to_string();
    let mut content = vec![ContentBlock::text(text)];
    if !notes.is_empty() {
        content.push(ContentBlock::text(notes.join("\n")));
    }
    let mut result = CallToolResult::error(content);
    result.structured_content = Some(error);
    result
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().enable_resources().enable_prompts().build())
            .with_server_info(Implementation::new("ddbcost", env!("CARGO_PKG_VERSION")))
            .with_instructions("ddbcost prices DynamoDB designs exactly (decimal arithmetic, AWS's billing rules per access pattern). Write a workload (schema: ddbcost://schema/workload; example: ddbcost://workloads/cloudshop), `validate` it, `estimate` it, then `compare`, `advise`, `forecast`. Tools take documents, not paths.")
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let tools: Vec<Value> = tools::TOOLS
            .iter()
            .map(|t| t.listing(&self.workload_schema))
            .collect();
        from_json(json!({ "tools": tools }))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let arguments = request.arguments.unwrap_or_default();
        match self.call(&request.name, &arguments, &context.ct).await? {
            Reply::Result(result) => Ok(result.into()),
            Reply::Raw(mut answer) => {
                // Written by the server from the tool's bytes; the SDK's own reply to this
                // id (an empty result) is dropped by the writer.
                answer.id = serde_json::to_value(&context.id).unwrap_or(Value::Null);
                self.flight.answered_here(&answer.id);
                let _ = self.out.send(wire::Outgoing::Answer(Box::new(answer)));
                Ok(CallToolResult::success(Vec::new()).into())
            }
        }
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        from_json(catalog::listing())
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let found = catalog::read(&request.uri).ok_or_else(|| {
            ErrorData::resource_not_found(
                format!("no resource `{}` (resources/list names them)", request.uri),
                None,
            )
        })?;
        from_json::<ReadResourceResult>(found).map(Into::into)
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        from_json(catalog::prompts())
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        if request.name != catalog::PROMPT {
            return Err(ErrorData::invalid_params(
                format!(
                    "Invalid params: no prompt `{}` (prompts: {})",
                    request.name,
                    catalog::PROMPT
                ),
                None,
            ));
        }
        let arg = |k: &str| {
            request
                .arguments
                .as_ref()
                .and_then(|a| a.get(k))
                .and_then(Value::as_str)
                .map(str::to_string)
        };
        let application = arg("application").ok_or_else(|| {
            ErrorData::invalid_params("Invalid params: the prompt needs `application`", None)
        })?;
        let region = arg("region").unwrap_or_else(|| "us-east-1".into());
        from_json::<GetPromptResult>(catalog::prompt(&application, &region)).map(Into::into)
    }
}
