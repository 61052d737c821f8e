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
mod tools;
mod wire;

use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, GetPromptRequestParams,
    GetPromptResponse, GetPromptResult, Implementation, ListPromptsResult, ListResourcesResult,
    ListToolsResult, PaginatedRequestParams, ReadResourceRequestParams, ReadResourceResponse,
    ReadResourceResult, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde_json::{Value, json};

use crate::error::Error;
use child::{Outcome, Runner};

/// How the server runs.
pub(crate) struct Options {
    pub timeout: Duration,
    pub max_request_bytes: usize,
    pub concurrency: usize,
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
    let server = Server::new(options)?;
    let budget = options.max_request_bytes;
    runtime.block_on(async move {
        let (sdk_in, to_sdk) = tokio::io::duplex(1 << 20);
        let (from_sdk, sdk_out) = tokio::io::duplex(1 << 20);
        let (replies, ours) = tokio::sync::mpsc::unbounded_channel();
        let reader = tokio::spawn(wire::read(tokio::io::stdin(), to_sdk, replies, budget));
        let writer = tokio::spawn(wire::write(from_sdk, ours, tokio::io::stdout()));
        match server.serve((sdk_in, sdk_out)).await {
            Ok(running) => {
                let _ = running.waiting().await;
            }
            Err(e) => crate::output::warn(&format!("ddbcost mcp: the session did not start: {e}")),
        }
        reader.abort();
        let _ = writer.await;
    });
    // The runtime's blocking stdin reader would hold the process open: end it now.
    runtime.shutdown_timeout(Duration::from_millis(100));
    Ok(())
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
        wire::read(input, to_sdk, replies, budget).await;
        let forwarded = collect.await.unwrap_or_default();
        let mut said = Vec::new();
        while let Ok(r) = ours.try_recv() {
            said.push(r);
        }
        (forwarded, said)
    })
}

#[derive(Clone)]
struct Server {
    runner: Arc<Runner>,
    workload_schema: Arc<Value>,
}

impl Server {
    fn new(options: &Options) -> Result<Self, Error> {
        let exe = std::env::current_exe()
            .map_err(|e| Error::io(format!("cannot find the ddbcost program: {e}"), e))?;
        // `--root` is the run's confinement, resolved once by `confine::set`.
        let (root, empty) = match crate::confine::root() {
            Some(r) => (r, None),
            None => {
                let dir = tempfile::Builder::new()
                    .prefix("ddbcost-mcp-")
                    .tempdir()
                    .map_err(|e| Error::io(format!("cannot make a private folder: {e}"), e))?;
                (dir.path().to_path_buf(), Some(dir))
            }
        };
        Ok(Server {
            runner: Arc::new(Runner {
                exe,
                root,
                _empty: empty,
                timeout: options.timeout,
                permits: tokio::sync::Semaphore::new(options.concurrency.max(1)),
            }),
            workload_schema: Arc::new(crate::load::schema::workload()),
        })
    }

    async fn call(
        &self,
        name: &str,
        arguments: &serde_json::Map<String, Value>,
    ) -> Result<CallToolResult, ErrorData> {
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
        let outcome = self.runner.run(call).await?;
        let (structured, notes) = match (outcome, tool.name) {
            (Outcome::Done { stdout, notes }, "validate") => {
                let estimate: Value = parse(&stdout)?;
                (
                    json!({ "schema": tool.output, "valid": true, "error": null, "total": estimate["total"], "currency": estimate["currency"] }),
                    notes,
                )
            }
            (Outcome::Refused { error, notes }, "validate") => (
                json!({ "schema": tool.output, "valid": false, "error": error }),
                notes,
            ),
            (Outcome::Done { stdout, notes }, "import") => {
                (json!({ "schema": tool.output, "workload": stdout }), notes)
            }
            (Outcome::Done { stdout, notes }, _) => (parse(&stdout)?, notes),
            (Outcome::Refused { error, notes }, _) => return Ok(refused(&error, &notes)),
        };
        let mut content = vec![json!({ "type": "text", "text": structured.to_string() })];
        if name == "estimate"
            && let Some(by) = arguments.get("by").and_then(Value::as_str)
        {
            content.push(json!({ "type": "text", "text": self.breakdown(arguments, by).await? }));
        }
        if !notes.is_empty() {
            content.push(json!({ "type": "text", "text": notes.join("\n") }));
        }
        from_json(json!({ "content": content, "structuredContent": structured, "isError": false }))
    }

    /// The estimate's Markdown table, broken down `by`.
    async fn breakdown(
        &self,
        arguments: &serde_json::Map<String, Value>,
        by: &str,
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
        match self.runner.run(call).await? {
            Outcome::Done { stdout, .. } => Ok(stdout),
            Outcome::Refused { error, .. } => Err(ErrorData::internal_error(
                error["message"].as_str().unwrap_or("refused").to_string(),
                Some(error),
            )),
        }
    }
}

fn parse(stdout: &str) -> Result<Value, ErrorData> {
    serde_json::from_str(stdout)
        .map_err(|e| ErrorData::internal_error(format!("ddbcost printed no JSON: {e}"), None))
}

fn from_json<T: serde::de::DeserializeOwned>(v: Value) -> Result<T, ErrorData> {
    serde_json::from_value(v)
        .map_err(|e| ErrorData::internal_error(format!("cannot build the reply: {e}"), None))
}

/// A refusal as a tool error: the message as the command line prints it, and the error's
/// fields (path, line, column, help) as structured content.
fn refused(error: &Value, notes: &[String]) -> CallToolResult {
    let text = error["text"].as_str().unwrap_or_default().to_string();
    let mut content = vec![json!({ "type": "text", "text": text })];
    if !notes.is_empty() {
        content.push(json!({ "type": "text", "text": notes.join("\n") }));
    }
    from_json(json!({ "content": content, "structuredContent": error, "isError": true }))
        .unwrap_or_else(|_| CallToolResult::error(Vec::new()))
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
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let arguments = request.arguments.clone().unwrap_or_default();
        self.call(&request.name, &arguments).await.map(Into::into)
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
