//! Progress on standard error only for a person watching: a bar with bytes and items a
//! second when standard error is a terminal (here a pseudo-terminal made by `script(1)`,
//! skipped where it is missing), nothing when it is a pipe.

mod common;

use common::Case;

fn items_file(dir: &std::path::Path) -> String {
    let path = dir.join("items.jsonl");
    let mut text = String::with_capacity(12 << 20);
    for i in 0..300_000 {
        text.push_str(&format!(
            "{{\"pk\":\"customer#{i}\",\"v\":\"{}\"}}\n",
            "x".repeat(i % 40)
        ));
    }
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn a_terminal_sees_progress_and_a_pipe_does_not() {
    let dir = tempfile::tempdir().unwrap();
    let file = items_file(dir.path());
    // Piped: not a byte on standard error.
    let out = Case::new().args(["size", &file]).run().success();
    assert_eq!(out.stderr, "");
    let out = Case::new()
        .args(["keys", &file, "--key", "pk"])
        .run()
        .success();
    assert_eq!(out.stderr, "");
    // In a pseudo-terminal: the bar, with items a second.
    let bin = env!("CARGO_BIN_EXE_ddbcost");
    for command in [
        format!("{bin} size {file} --jobs 1"),
        format!("{bin} keys {file} --key pk --jobs 1"),
    ] {
        if !common::has_tool("script") {
            return common::skip_without("script", "util-linux's script(1) makes a terminal");
        }
        let o = common::command("script")
            .args(["-qec", &command, "/dev/null"])
            // A terminal that can draw a bar (the cleared environment has no TERM).
            .env("TERM", "xterm")
            .output()
            .unwrap();
        assert!(o.status.success(), "{command}: {o:?}");
        let text = String::from_utf8_lossy(&o.stdout);
        assert!(text.contains("items/s"), "{command}: {text}");
    }
}
