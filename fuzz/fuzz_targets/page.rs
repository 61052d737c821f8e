//! Any text as the calculator page sends it: a workload as standard input to one of the
//! commands the page runs in memory (`api::run_in_memory`: estimate in JSON, the finance CSV,
//! FOCUS and HTML, a breakdown, compare with a `--set` alternative, forecast, advise), and
//! the Apply button's patch (`api::apply_patch`). Nothing may panic; a run ends 0, 1 or 2;
//! a refusal's last line on standard error is the `ddbcost.error/v1` object the page reads;
//! and a workload written back by `apply_patch` loads as the patched document does. The
//! commands that print for a terminal (a table, Markdown, a text error) never print a
//! character that would act on it (an escape sequence, a carriage return, a bidirectional
//! override): whatever the workload holds, it is refused or shown escaped.
//!
//! Input: the first byte picks the command, the rest is the workload.
#![no_main]
use libfuzzer_sys::fuzz_target;

const COMMANDS: &[&[&str]] = &[
    &["estimate", "-", "--format", "json"],
    &["estimate", "-", "--format", "csv", "--period", "2027-01"],
    &["estimate", "-", "--format", "focus", "--period", "2027-01"],
    &["estimate", "-", "--format", "html", "--period", "2027-01"],
    &["estimate", "-", "--by", "pattern", "--format", "csv"],
    &["compare", "-", "--alt", "a", "--set", "tables.t.items=2000", "--format", "json"],
    &["forecast", "-", "--months", "3", "--start", "2027-01", "--format", "json"],
    &["advise", "-", "--format", "json", "--prices", "aws-us-east-1"],
];

/// Commands whose output and errors are text for a terminal.
const TERMINAL: &[&[&str]] = &[
    &["estimate", "-"],
    &["estimate", "-", "--format", "markdown", "--by", "pattern"],
    &["compare", "-", "--alt", "a", "--set", "tables.t.items=2000"],
    &["advise", "-", "--prices", "aws-us-east-1"],
];

/// A character that acts on a terminal instead of being shown (as `ddbcost`'s `text::acts`,
/// written again here).
fn acts(c: char) -> bool {
    (c.is_control() && c != '\t' && c != '\n')
        || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{2028}' | '\u{2029}')
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let all = COMMANDS.len() + TERMINAL.len();
    let pick = usize::from(pick) % all;
    if let Some(command) = pick.checked_sub(COMMANDS.len()).map(|i| TERMINAL[i]) {
        let args = std::iter::once("ddbcost").chain(command.iter().copied());
        let out = ddbcost::api::run_in_memory(args, text, 20_791);
        assert!(matches!(out.code, 0..=2), "exit code {}", out.code);
        assert!(!out.stdout.chars().any(acts), "stdout acts: {:?}", out.stdout);
        assert!(!out.stderr.chars().any(acts), "stderr acts: {:?}", out.stderr);
        return;
    }
    let command = COMMANDS[pick];
    let args = std::iter::once("ddbcost")
        .chain(command.iter().copied())
        .chain(["--error-format", "json"]);
    let out = ddbcost::api::run_in_memory(args, text, 20_791);
    assert!(matches!(out.code, 0..=2), "exit code {}", out.code);
    if out.code == 0 {
        assert!(!out.stdout.is_empty(), "a run that succeeds prints its report");
    } else {
        let last = out.stderr.lines().last().expect("a refusal says why");
        let error: serde_json::Value = serde_json::from_str(last).expect("the JSON error");
        assert_eq!(error["schema"], "ddbcost.error/v1");
        assert_eq!(error["exit_code"], out.code);
    }
    // Apply: a patch that sets a field of every table the document has.
    let Ok(doc) = ddbcost::api::parse_yaml(text, "w.yaml") else { return };
    let Some(tables) = doc.get("tables").and_then(|t| t.as_object()) else { return };
    let patch = serde_json::json!({
        "tables": tables.keys().map(|k| (k.clone(), serde_json::json!({"items": "2000"}))).collect::<serde_json::Map<_, _>>()
    });
    if let Ok(written) = ddbcost::api::apply_patch(text, "w.yaml", &patch) {
        let mut patched = doc.clone();
        ddbcost::api::merge_patch(&mut patched, &patch);
        let back = ddbcost::api::parse_yaml(&written, "w.yaml").expect("what apply_patch writes is YAML");
        assert_eq!(back, patched, "the written workload is the patched document");
    }
});
