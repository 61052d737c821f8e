//! The server's standard streams, framed: JSON-RPC messages one per line. Each line from
//! standard input is judged here before the SDK sees it — a line over the request budget, a
//! line that is not JSON, a JSON value that is not a JSON-RPC 2.0 message, or a known method
//! whose parameters do not decode is answered with the protocol's error (`-32600`, `-32700`,
//! `-32602`) instead of being dropped, so a client never waits for an answer that will not
//! come. Every line on standard output is a whole protocol message: the SDK's and ours go
//! through one writer.

use rmcp::RoleServer;
use rmcp::service::RxJsonRpcMessage;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader, DuplexStream};
use tokio::sync::mpsc;

/// How many bytes of a line we keep to find its `id` when the line is over the budget.
const ID_WINDOW: usize = 256;

/// Reads framed messages from `input`, forwards the acceptable ones to `sdk`, and sends an
/// error reply for each refused one to `replies`. Ends at the end of `input`.
pub(super) async fn read<R: AsyncRead + Unpin>(
    input: R,
    mut sdk: DuplexStream,
    replies: mpsc::UnboundedSender<String>,
    budget: usize,
) {
    let mut input = BufReader::with_capacity(1 << 16, input);
    loop {
        let Ok(Some(line)) = next_line(&mut input, budget).await else {
            return;
        };
        let verdict = match line {
            Line::Whole(bytes) => judge(&bytes).map(|()| bytes),
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
                if replies.send(reply.to_string()).is_err() {
                    return;
                }
            }
            Err(None) => {}
        }
    }
}

/// Writes every reply, the SDK's (`sdk`, line by line) and ours (`replies`), to `out`, a
/// whole line at a time. Ends when both sources have ended.
pub(super) async fn write<W: AsyncWrite + Unpin>(
    sdk: DuplexStream,
    mut replies: mpsc::UnboundedReceiver<String>,
    mut out: W,
) {
    let mut sdk = BufReader::new(sdk).lines();
    let (mut sdk_open, mut ours_open) = (true, true);
    while sdk_open || ours_open {
        let line = tokio::select! {
            l = sdk.next_line(), if sdk_open => match l {
                Ok(Some(l)) => l,
                _ => { sdk_open = false; continue; }
            },
            r = replies.recv(), if ours_open => match r {
                Some(r) => r,
                None => { ours_open = false; continue; }
            },
        };
        let mut bytes = line.into_bytes();
        bytes.push(b'\n');
        if out.write_all(&bytes).await.is_err() || out.flush().await.is_err() {
            return;
        }
    }
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

/// `Ok` for a line the SDK should read; else the reply to send (`None`: nothing to say, as
/// for a blank line or a response the SDK would ignore anyway).
fn judge(bytes: &[u8]) -> Result<(), Option<Value>> {
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
    let id = map.get("id").filter(|i| i.is_string() || i.is_number());
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
    if let Err(e) = serde_json::from_value::<RxJsonRpcMessage<RoleServer>>(value.clone()) {
        // A request we cannot decode is answered; a notification or response is not.
        return Err((method.is_some() && id.is_some())
            .then(|| error(&reply_id, -32602, &format!("Invalid params: {e}"))));
    }
    Ok(())
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
        assert!(judge(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}").is_ok());
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
