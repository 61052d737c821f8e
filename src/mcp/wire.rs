//! The server's standard streams, framed: JSON-RPC messages one per line. Each line from
//! standard input is judged here before the SDK sees it — a line over the request budget, a
//! line that is not JSON, a JSON value that is not a JSON-RPC 2.0 message, or a known method
//! whose parameters do not decode is answered with the protocol's error (`-32600`, `-32700`,
//! `-32602`) instead of being dropped, so a client never waits for an answer that will not
//! come. A request `id` must be a string or an integer (never `null`, an object, an array
//! or a fraction, as MCP says); a request that reuses the id of one still in flight gets
//! an error of its own, so every request gets exactly one answer. Every line on standard
//! output is a whole protocol message: the SDK's and ours go through one writer, which
//! streams the SDK's lines through a small buffer instead of holding each whole.

use std::collections::HashSet;
use std::sync::{Arc, Mutex, PoisonError};

use rmcp::RoleServer;
use rmcp::service::RxJsonRpcMessage;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader, DuplexStream};
use tokio::sync::mpsc;

/// How many bytes of a line we keep to find its `id` when the line is over the budget.
const ID_WINDOW: usize = 256;

/// The ids of the requests not answered yet (their JSON text: `7` and `"7"` are two ids),
/// and those answered by the server itself (`raw::Answer`), whose SDK reply is not written.
#[derive(Clone, Default)]
pub(super) struct InFlight(Arc<Mutex<Ids>>);

#[derive(Default)]
struct Ids {
    open: HashSet<String>,
    ours: HashSet<String>,
}

impl InFlight {
    fn ids(&self) -> std::sync::MutexGuard<'_, Ids> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Marks `id` in flight; `false` when it already is.
    fn begin(&self, id: &Value) -> bool {
        self.ids().open.insert(id.to_string())
    }

    /// Marks `id` answered (or cancelled).
    fn end(&self, id: &Value) {
        self.ids().open.remove(&id.to_string());
    }

    /// `id` is answered by the server itself: the SDK's reply to it is dropped.
    pub(super) fn answered_here(&self, id: &Value) {
        self.ids().ours.insert(id.to_string());
    }

    /// Whether the SDK's reply to `id` is to be dropped (once).
    fn drop_sdk_reply(&self, id: &Value) -> bool {
        self.ids().ours.remove(&id.to_string())
    }
}

/// What the server itself writes: an error line, or a tool's answer streamed from its bytes.
#[derive(Debug)]
pub(super) enum Outgoing {
    Line(String),
    Answer(Box<super::raw::Answer>),
}

/// Reads framed messages from `input`, forwards the acceptable ones to `sdk`, and sends an
/// error reply for each refused one to `replies`. Ends at the end of `input`.
pub(super) async fn read<R: AsyncRead + Unpin>(
    input: R,
    mut sdk: DuplexStream,
    replies: mpsc::UnboundedSender<Outgoing>,
    budget: usize,
    flight: InFlight,
) {
    let mut input = BufReader::with_capacity(1 << 16, input);
    loop {
        let Ok(Some(line)) = next_line(&mut input, budget).await else {
            return;
        };
        let verdict = match line {
            Line::Whole(bytes) => judge(&bytes).and_then(|seen| match seen {
                Seen::Request(id) if !flight.begin(&id) => Err(Some(error(
                    &id,
                    -32600,
                    &format!("Invalid Request: the id {id} is already used by a request in flight; give each request its own id"),
                ))),
                Seen::Cancel(id) => {
                    // The SDK sends no answer to a cancelled request: it is over.
                    flight.end(&id);
                    Ok(bytes)
                }
                _ => Ok(bytes),
            }),
            Line::TooLong { head, len } => Err(Some(too_long(&head, len, budget))),
        };
        match verdict {
            Ok(mut bytes) => {
                bytes.push(b'\n');
                if sdk.write_all(&bytes).await.is_err() {
                    return;
                }
            }
            Err(Some(reply)) => {
                if replies.send(Outgoing::Line(reply.to_string())).is_err() {
                    return;
                }
            }
            Err(None) => {}
        }
    }
}

/// What the writer does next.
enum Next {
    Sdk,
    SdkEnded,
    Ours(Outgoing),
    OursEnded,
}

/// Writes every reply, the SDK's (`sdk`, line by line) and ours (`replies`), to `out`, a
/// whole line at a time; each answered request leaves `flight`. Ends when both sources
/// have ended.
pub(super) async fn write<W: AsyncWrite + Unpin>(
    sdk: DuplexStream,
    mut replies: mpsc::UnboundedReceiver<Outgoing>,
    mut out: W,
    flight: InFlight,
) {
    let mut sdk = BufReader::with_capacity(1 << 16, sdk);
    let (mut sdk_open, mut ours_open) = (true, true);
    while sdk_open || ours_open {
        let next = tokio::select! {
            r = sdk.fill_buf(), if sdk_open => {
                if matches!(r, Ok(b) if !b.is_empty()) { Next::Sdk } else { Next::SdkEnded }
            },
            r = replies.recv(), if ours_open => r.map_or(Next::OursEnded, Next::Ours),
        };
        let written = match next {
            Next::SdkEnded => {
                sdk_open = false;
                continue;
            }
            Next::OursEnded => {
                ours_open = false;
                continue;
            }
            Next::Ours(Outgoing::Line(line)) => {
                let mut bytes = line.into_bytes();
                bytes.push(b'\n');
                out.write_all(&bytes).await.is_ok()
            }
            Next::Ours(Outgoing::Answer(answer)) => {
                let written = answer.write(&mut out).await.is_ok();
                flight.end(&answer.id);
                written
            }
            Next::Sdk => copy_line(&mut sdk, &mut out, &flight).await.is_ok(),
        };
        if !written || out.flush().await.is_err() {
            return;
        }
    }
}

/// Copies one line from `sdk` to `out` as it comes (a newline added if the stream ends
/// inside it), once its first bytes tell its `id`: the request leaves `flight`, and a reply
/// the server already wrote itself is dropped instead.
async fn copy_line<W: AsyncWrite + Unpin>(
    sdk: &mut BufReader<DuplexStream>,
    out: &mut W,
    flight: &InFlight,
) -> std::io::Result<()> {
    // The first bytes, up to where the id is (or the line ends).
    let mut head = Vec::new();
    let mut ended = false;
    while head.len() < ID_WINDOW && !ended {
        let chunk = sdk.fill_buf().await?;
        if chunk.is_empty() {
            break;
        }
        let room = ID_WINDOW.saturating_sub(head.len()).min(chunk.len());
        let part = chunk.get(..room).unwrap_or_default();
        let (part, ends) = match memchr::memchr(b'\n', part) {
            Some(at) => (part.get(..=at).unwrap_or(part), true),
            None => (part, false),
        };
        head.extend_from_slice(part);
        let used = part.len();
        sdk.consume(used);
        ended = ends;
    }
    let id = id_in(&head);
    let keep = !flight.drop_sdk_reply(&id);
    flight.end(&id);
    if keep {
        out.write_all(&head).await?;
    }
    if !ended {
        loop {
            let chunk = sdk.fill_buf().await?;
            if chunk.is_empty() {
                break;
            }
            let (part, ends) = match memchr::memchr(b'\n', chunk) {
                Some(at) => (chunk.get(..=at).unwrap_or(chunk), true),
                None => (chunk, false),
            };
            if keep {
                out.write_all(part).await?;
            }
            let used = part.len();
            sdk.consume(used);
            if ends {
                ended = true;
                break;
            }
        }
    }
    if keep && !ended {
        out.write_all(b"\n").await?;
    }
    Ok(())
}

enum Line {
    Whole(Vec<u8>),
    TooLong { head: Vec<u8>, len: usize },
}

/// The next line (without its newline), or the first bytes of one over `budget` (the rest is
/// read and dropped: memory stays bounded whatever the peer sends). `None` at the end.
async fn next_line<R: AsyncRead + Unpin>(
    input: &mut BufReader<R>,
    budget: usize,
) -> std::io::Result<Option<Line>> {
    let mut line: Vec<u8> = Vec::new();
    let mut len: usize = 0;
    let mut over = false;
    loop {
        let chunk = input.fill_buf().await?;
        if chunk.is_empty() {
            return Ok((len > 0).then(|| finish(line, len, over)));
        }
        let (part, ends) = match memchr::memchr(b'\n', chunk) {
            Some(at) => (&chunk[..at], true),
            None => (chunk, false),
        };
        len = len.saturating_add(part.len());
        if !over && len > budget {
            over = true;
            line.truncate(ID_WINDOW);
        }
        let keep = if over {
            ID_WINDOW.saturating_sub(line.len()).min(part.len())
        } else {
            part.len()
        };
        line.extend_from_slice(&part[..keep]);
        let used = if ends {
            part.len().saturating_add(1)
        } else {
            part.len()
        };
        input.consume(used);
        if ends {
            return Ok(Some(finish(line, len, over)));
        }
    }
}

fn finish(line: Vec<u8>, len: usize, over: bool) -> Line {
    if over {
        Line::TooLong { head: line, len }
    } else {
        Line::Whole(line)
    }
}

/// What a line the SDK may read is, for the requests in flight.
#[derive(Debug, PartialEq)]
enum Seen {
    /// A request, with its id.
    Request(Value),
    /// `notifications/cancelled` of the request with this id.
    Cancel(Value),
    /// Anything else (a notification, a response).
    Other,
}

/// Whether a JSON-RPC id is one MCP allows: a string or an integer.
fn valid_id(id: &Value) -> bool {
    id.is_string() || id.is_i64() || id.is_u64()
}

/// `Ok` for a line the SDK should read (and what it is); else the reply to send (`None`:
/// nothing to say, as for a blank line or a response the SDK would ignore anyway).
fn judge(bytes: &[u8]) -> Result<Seen, Option<Value>> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(None);
    }
    let value: Value = serde_json::from_slice(bytes).map_err(|e| {
        Some(error(
            &Value::Null,
            -32700,
            &format!("Parse error: not JSON ({e})"),
        ))
    })?;
    let Value::Object(map) = &value else {
        let why = if value.is_array() {
            "Invalid Request: batches are not supported; send one message per line"
        } else {
            "Invalid Request: a JSON-RPC message is an object"
        };
        return Err(Some(error(&Value::Null, -32600, why)));
    };
    if let Some(bad) = map.get("id").filter(|i| !valid_id(i)) {
        let shape = match bad {
            Value::Null => "null",
            Value::Object(_) => "an object",
            Value::Array(_) => "an array",
            Value::Bool(_) => "a boolean",
            Value::Number(_) => "a number with a fraction or out of range",
            Value::String(_) => "a string",
        };
        return Err(Some(error(
            &Value::Null,
            -32600,
            &format!(
                "Invalid Request: `id` is {shape}; a request's id is a string or an integer (MCP never allows null)"
            ),
        )));
    }
    let id = map.get("id");
    let reply_id = id.cloned().unwrap_or(Value::Null);
    if map.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Err(Some(error(
            &reply_id,
            -32600,
            "Invalid Request: `jsonrpc` must be \"2.0\"",
        )));
    }
    let method = map.get("method");
    if method.is_some_and(|m| !m.is_string()) || (method.is_none() && id.is_none()) {
        return Err(Some(error(
            &reply_id,
            -32600,
            "Invalid Request: a request needs a string `method` (and an `id`)",
        )));
    }
    // The SDK reads a request whose parameters it cannot decode as a method it does not
    // know; say what is wrong with them instead.
    let needs = match method.and_then(Value::as_str) {
        Some("tools/call" | "prompts/get") => Some("name"),
        Some("resources/read") => Some("uri"),
        _ => None,
    };
    if let (Some(field), Some(_)) = (needs, id)
        && !map
            .get("params")
            .and_then(|p| p.get(field))
            .is_some_and(Value::is_string)
    {
        return Err(Some(error(
            &reply_id,
            -32602,
            &format!("Invalid params: `params.{field}` must be a string"),
        )));
    }
    let seen = match (method.and_then(Value::as_str), id) {
        (Some(_), Some(id)) => Seen::Request(id.clone()),
        (Some("notifications/cancelled"), None) => map
            .get("params")
            .and_then(|p| p.get("requestId"))
            .filter(|i| valid_id(i))
            .map_or(Seen::Other, |i| Seen::Cancel(i.clone())),
        _ => Seen::Other,
    };
    if let Err(e) = serde_json::from_value::<RxJsonRpcMessage<RoleServer>>(value.clone()) {
        // A request we cannot decode is answered; a notification or response is not.
        return Err((method.is_some() && id.is_some())
            .then(|| error(&reply_id, -32602, &format!("Invalid params: {e}"))));
    }
    Ok(seen)
}

/// The reply to a line of `len` bytes over `budget`: its `id` if the first bytes name one.
fn too_long(head: &[u8], len: usize, budget: usize) -> Value {
    error(
        &id_in(head),
        -32600,
        &format!(
            "Invalid Request: the message is {len} bytes, more than the {budget} bytes a request may be (ddbcost mcp --max-request-bytes)"
        ),
    )
}

/// The `id` written near the start of a message (`{"jsonrpc":"2.0","id":7,…`), if any.
fn id_in(head: &[u8]) -> Value {
    let text = String::from_utf8_lossy(head);
    let Some(at) = text.find("\"id\"") else {
        return Value::Null;
    };
    if text.find("\"params\"").is_some_and(|p| p < at) {
        return Value::Null;
    }
    let rest = text[at.saturating_add(4)..].trim_start();
    let Some(rest) = rest.strip_prefix(':') else {
        return Value::Null;
    };
    let rest = rest.trim_start();
    let end = if let Some(quoted) = rest.strip_prefix('"') {
        quoted.find('"').map_or(0, |e| e.saturating_add(2))
    } else {
        rest.find(|c: char| !(c.is_ascii_digit() || c == '-'))
            .unwrap_or(0)
    };
    serde_json::from_str::<Value>(&rest[..end])
        .ok()
        .filter(|v| v.is_string() || v.is_number())
        .unwrap_or(Value::Null)
}

fn error(id: &Value, code: i64, message: &str) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refused_lines_get_the_protocols_error() {
        assert_eq!(judge(b"   "), Err(None));
        let code = |b: &[u8]| judge(b).unwrap_err().unwrap()["error"]["code"].clone();
        assert_eq!(code(b"{not json"), -32700);
        assert_eq!(code(b"[1,2]"), -32600);
        assert_eq!(
            code(b"{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"ping\"}"),
            -32600
        );
        assert_eq!(code(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":7}"), -32600);
        assert_eq!(
            judge(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}"),
            Ok(Seen::Request(json!(1)))
        );
        for id in ["null", "{}", "[1]", "1.5", "true"] {
            let line = format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":\"ping\"}}");
            let reply = judge(line.as_bytes()).unwrap_err().unwrap();
            assert_eq!(reply["error"]["code"], -32600, "{id}");
            assert_eq!(reply["id"], Value::Null, "{id}");
        }
        assert_eq!(
            code(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{}}"),
            -32602
        );
    }

    #[test]
    fn an_oversized_request_keeps_its_id() {
        assert_eq!(
            id_in(br#"{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"#),
            42
        );
        assert_eq!(id_in(br#"{"jsonrpc":"2.0","id":"a-1","method":"x""#), "a-1");
        assert_eq!(id_in(br#"{"params":{"id":3}"#), Value::Null);
        assert_eq!(id_in(b"xxxx"), Value::Null);
    }
}
