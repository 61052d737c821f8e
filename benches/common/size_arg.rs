//! The SIZE argument of the input generators (`examples/gen_*.rs`): `1GB`, `100MB`, `64KB`
//! or a count of bytes.

/// Bytes `text` names, if it names any.
pub(crate) fn parse_size(text: &str) -> Option<u64> {
    let upper = text.to_ascii_uppercase();
    for (unit, factor) in [("GB", 1u64 << 30), ("MB", 1 << 20), ("KB", 1 << 10)] {
        if let Some(n) = upper.strip_suffix(unit) {
            return n.parse::<u64>().ok().map(|n| n * factor);
        }
    }
    upper.parse().ok()
}
