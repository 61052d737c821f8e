//! The ddbcost command line compiled to WebAssembly, for the page in `web/`: one exported
//! function runs a command in memory (`ddbcost::api::run_in_memory`) — the arguments as a
//! JSON array, the workload's text as standard input, the day as a number — and answers
//! with its exit code and what it wrote to standard output and error. Every figure, report
//! and export the page shows therefore comes from the same code path as the binary, byte
//! for byte; `web/src/engine.js` wraps it in `estimate`, `compare`, `forecast`, `advise`.
//! Nothing here reads a clock, a file or the environment: the page passes the day.

use wasm_bindgen::prelude::wasm_bindgen;

/// Runs `ddbcost ARGS…` (`args` a JSON array of strings, without the program's name) with
/// `stdin` as standard input on day `today` (days since 1970-01-01, UTC); answers the JSON
/// object `{"code": N, "stdout": "…", "stderr": "…"}`.
#[wasm_bindgen]
#[must_use]
pub fn run(args: &str, stdin: &str, today: i32) -> String {
    let answer = match serde_json::from_str::<Vec<String>>(args) {
        Ok(args) => {
            let argv = std::iter::once("ddbcost".to_string()).chain(args);
            let out = ddbcost::api::run_in_memory(argv, stdin, i64::from(today));
            serde_json::json!({"code": out.code, "stdout": out.stdout, "stderr": out.stderr})
        }
        Err(e) => serde_json::json!({
            "code": 2,
            "stdout": "",
            "stderr": format!("error: the arguments are not a JSON array of strings: {e}"),
        }),
    };
    answer.to_string()
}

/// The workload `text` with the merge patch `patch` (JSON text) applied, written back as
/// YAML (`ddbcost::api::apply_patch`): `{"code": 0, "text": "…"}`, or `{"code": 1,
/// "error": {…}}` with the `ddbcost.error/v1` object the command line prints.
#[wasm_bindgen]
#[must_use]
pub fn apply_patch(text: &str, patch: &str) -> String {
    let patch = serde_json::from_str::<serde_json::Value>(patch)
        .map_err(|e| ddbcost::api::Error::usage(format!("the patch is not JSON: {e}")));
    let answer = patch.and_then(|p| ddbcost::api::apply_patch(text, "-", &p));
    match answer {
        Ok(text) => serde_json::json!({"code": 0, "text": text}),
        Err(e) => serde_json::json!({"code": e.exit_code(), "error": e.to_json()}),
    }
    .to_string()
}

#[cfg(test)]
mod tests {
    #[test]
    fn runs_a_command_and_refuses_bad_arguments() {
        let out: serde_json::Value =
            serde_json::from_str(&super::run(r#"["prices"]"#, "", 20_791)).unwrap();
        assert_eq!(out["code"], 0);
        assert!(out["stdout"].as_str().unwrap().contains("cloudshop-eur"));
        let bad: serde_json::Value = serde_json::from_str(&super::run("[1]", "", 20_791)).unwrap();
        assert_eq!(bad["code"], 2);
    }

    #[test]
    fn applies_a_patch_or_says_why_not() {
        let out: serde_json::Value = serde_json::from_str(&super::apply_patch(
            "tables:\n  t:\n    items: 5\n",
            r#"{"tables": {"t": {"items": "6"}}}"#,
        ))
        .unwrap();
        assert_eq!(out["text"], "tables:\n  t:\n    items: 6\n");
        let bad: serde_json::Value =
            serde_json::from_str(&super::apply_patch("a: [", "{}")).unwrap();
        assert_eq!(bad["code"], 1);
        assert!(bad["error"]["line"].is_number());
    }
}
