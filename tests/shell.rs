//! Completions and man pages come from the parser's own definition: every command is in
//! them, the bash script parses, and the man pages render.

mod common;

use common::Case;

const COMMANDS: [&str; 10] = [
    "estimate", "compare", "diff", "forecast", "advise", "sweep", "size", "keys", "prices",
    "import",
];

#[test]
fn completions_name_every_command() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let out = Case::new().args(["completions", shell]).run().success();
        for c in COMMANDS {
            assert!(out.stdout.contains(c), "{shell} completion lacks `{c}`");
        }
    }
    let bash = Case::new().args(["completions", "bash"]).run().success();
    // Nested commands are completed too, and `help` of them.
    for nested in [
        "prices__subcmd__show",
        "prices__subcmd__diff",
        "usage__subcmd__query",
    ] {
        assert!(
            bash.stdout.contains(&format!("ddbcost__subcmd__{nested})")),
            "bash completion lacks `{nested}`"
        );
    }
    assert!(bash.stdout.contains("--fail-one-time-above"));
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("ddbcost.bash");
    std::fs::write(&script, &bash.stdout).unwrap();
    if common::has_tool("bash") {
        let status = common::command("bash")
            .arg("-n")
            .arg(&script)
            .status()
            .unwrap();
        assert!(status.success(), "the bash completion script parses");
    } else {
        common::skip_without("bash", "to check the completion script with");
    }
    Case::new().args(["completions", "tcsh"]).run().code(2);
}

#[test]
fn man_pages_render_for_every_command() {
    let page = Case::new().args(["man"]).run().success();
    assert!(page.stdout.contains(".TH ddbcost 1"));
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    Case::new().args(["man", "--dir", d]).run().success();
    for c in COMMANDS {
        let file = dir.path().join(format!("ddbcost-{c}.1"));
        let text = std::fs::read_to_string(&file).unwrap_or_else(|_| panic!("{file:?}"));
        assert!(text.contains(&format!(".TH ddbcost-{c} 1")), "{c}");
    }
    // Every page a page names (`ddbcost-prices-show(1)` in SEE ALSO) was written, and none
    // names clap's `help` command, which has no page.
    let mut named = 0;
    for entry in std::fs::read_dir(dir.path()).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        for part in text.split("ddbcost\\-").skip(1) {
            let Some(end) = part.find("(1)") else {
                continue;
            };
            let name = part[..end].replace("\\-", "-");
            if name.chars().all(|c| c.is_ascii_lowercase() || c == '-') {
                named += 1;
                assert!(
                    dir.path().join(format!("ddbcost-{name}.1")).is_file(),
                    "ddbcost-{name}(1) is named and not written"
                );
            }
        }
    }
    assert!(named > COMMANDS.len(), "{named}");
    assert!(dir.path().join("ddbcost-prices-show.1").is_file());
    assert!(dir.path().join("ddbcost-usage-query.1").is_file());
    // Rendered by man(1), where installed.
    if common::has_tool("man") {
        let o = common::command("man")
            .arg("-l")
            .arg(dir.path().join("ddbcost-keys.1"))
            .env("MANPAGER", "cat")
            .env("MANWIDTH", "100")
            .output()
            .unwrap();
        assert!(o.status.success(), "{o:?}");
        let text = String::from_utf8_lossy(&o.stdout);
        assert!(text.contains("--peak-rate"), "{text}");
    } else {
        common::skip_without("man", "man-db renders the pages");
    }
    Case::new()
        .args(["man", "--dir", "/nonexistent/folder"])
        .run()
        .code(2)
        .stderr_has("is not a folder");
}
