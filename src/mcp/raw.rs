//! A tool's JSON output passed to the client without being parsed into a value: compacted
//! as it is read from the child (white space outside strings dropped, so the reply is one
//! line), checked to be one JSON value without building it, and written by the one writer
//! of standard output into the reply twice — escaped, as the text block the protocol asks
//! for, and as is, as the structured content — a chunk at a time. The server holds one
//! compact copy of a result, however large (within `--max-result-bytes`).

use std::io::Write as _;

/// Strips the white space outside strings from JSON text fed in pieces.
#[derive(Debug, Default)]
pub(super) struct Compactor {
    in_string: bool,
    escaped: bool,
}

impl Compactor {
    /// Appends `chunk`, compacted, to `out`.
    pub(super) fn feed(&mut self, chunk: &[u8], out: &mut Vec<u8>) {
        for &b in chunk {
            if self.in_string {
                out.push(b);
                if self.escaped {
                    self.escaped = false;
                } else if b == b'\\' {
                    self.escaped = true;
                } else if b == b'"' {
                    self.in_string = false;
                }
            } else if !matches!(b, b' ' | b'\n' | b'\r' | b'\t') {
                if b == b'"' {
                    self.in_string = true;
                }
                out.push(b);
            }
        }
    }
}

/// Whether `json` is one JSON value (checked without building it).
pub(super) fn is_json(json: &[u8]) -> Result<(), String> {
    serde_json::from_slice::<serde::de::IgnoredAny>(json)
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// A tool's successful answer, to be written as its reply.
#[derive(Debug)]
pub(super) struct Answer {
    /// The request's id.
    pub id: serde_json::Value,
    /// The tool's output: one compact JSON value.
    pub json: Vec<u8>,
    /// More text blocks after the first (a breakdown, the notes).
    pub more: Vec<String>,
}

/// How many bytes of the result are escaped and written at a time.
const CHUNK: usize = 1 << 16;

impl Answer {
    /// The reply line (with its newline), written to `out` a piece at a time.
    pub(super) async fn write<W: tokio::io::AsyncWrite + Unpin>(
        &self,
        out: &mut W,
    ) -> std::io::Result<()> {
        use tokio::io::AsyncWriteExt;
        let head = format!(
            "{{\"jsonrpc\":\"2.0\",\"id\":{},\"result\":{{\"content\":[{{\"type\":\"text\",\"text\":\"",
            self.id
        );
        out.write_all(head.as_bytes()).await?;
        let mut escaped = Vec::with_capacity(CHUNK + CHUNK / 4);
        for piece in self.json.chunks(CHUNK) {
            escaped.clear();
            for &b in piece {
                // Compact JSON holds no raw control character: only these two need escaping.
                if b == b'"' || b == b'\\' {
                    escaped.push(b'\\');
                }
                escaped.push(b);
            }
            out.write_all(&escaped).await?;
        }
        out.write_all(b"\"}").await?;
        for text in &self.more {
            let block = serde_json::json!({ "type": "text", "text": text });
            let mut bytes = Vec::new();
            let _ = write!(bytes, ",{block}");
            out.write_all(&bytes).await?;
        }
        out.write_all(b"],\"structuredContent\":").await?;
        for piece in self.json.chunks(CHUNK) {
            out.write_all(piece).await?;
        }
        out.write_all(b",\"isError\":false}}\n").await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compacting_keeps_strings_and_drops_the_rest() {
        let pretty = b"{\n  \"a b\": \"x \\\" \\\\ y\",\n  \"n\": [1, 2]\n}\n";
        let mut out = Vec::new();
        let mut c = Compactor::default();
        // Fed in pieces that split an escape.
        for piece in pretty.chunks(7) {
            c.feed(piece, &mut out);
        }
        assert_eq!(out, br#"{"a b":"x \" \\ y","n":[1,2]}"#.to_vec());
        assert!(is_json(&out).is_ok());
        assert!(is_json(b"{\"a\":").is_err());
    }

    #[test]
    fn the_reply_carries_the_output_as_text_and_as_content() {
        let answer = Answer {
            id: serde_json::json!(7),
            json: br#"{"total":"1.5","name":"a \"q\""}"#.to_vec(),
            more: vec!["note".into()],
        };
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let mut out = Vec::new();
        runtime.block_on(answer.write(&mut out)).unwrap();
        assert_eq!(out.last(), Some(&b'\n'));
        let reply: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(reply["id"], 7);
        let structured = &reply["result"]["structuredContent"];
        assert_eq!(structured["name"], "a \"q\"");
        let text: serde_json::Value =
            serde_json::from_str(reply["result"]["content"][0]["text"].as_str().unwrap()).unwrap();
        assert_eq!(&text, structured);
        assert_eq!(reply["result"]["content"][1]["text"], "note");
        assert_eq!(reply["result"]["isError"], false);
    }
}
