//! `ddbcost mcp`'s framing of standard input on arbitrary bytes: nothing may panic; every
//! line forwarded to the SDK is a JSON-RPC 2.0 object that decodes; every reply is a JSON-RPC
//! error object; memory stays bounded by the request budget (a small one here, so that
//! oversized lines are exercised).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (forwarded, replies) = ddbcost::api::mcp_frames(data, 512);
    for line in forwarded.split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
        assert!(line.len() <= 512, "a line over the budget was forwarded");
        let v: serde_json::Value = serde_json::from_slice(line).expect("forwarded lines are JSON");
        assert_eq!(v["jsonrpc"], "2.0");
    }
    for r in replies {
        let v: serde_json::Value = serde_json::from_str(&r).expect("replies are JSON");
        assert!(v["error"]["code"].is_i64(), "{r}");
    }
});
