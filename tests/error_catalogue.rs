//! The error catalogue: `tests/errors/<name>/` holds, for every user-facing error, its input
//! files, the command line (`args`, one argument per line, `{root}` = the repository), the
//! exit code (`code`) and lines the message must contain (`expected`). Each is run from its
//! own folder.

use std::path::PathBuf;
mod common;

#[test]
fn every_error_in_the_catalogue_reads_as_documented() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut cases: Vec<PathBuf> = std::fs::read_dir(root.join("tests/errors"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    cases.sort();
    assert!(
        cases.len() >= 40,
        "the catalogue covers the user-facing errors"
    );
    let mut failures = Vec::new();
    for case in &cases {
        let read = |f: &str| {
            std::fs::read_to_string(case.join(f))
                .unwrap_or_else(|_| panic!("{}/{f}", case.display()))
        };
        let args: Vec<String> = read("args")
            .lines()
            .map(|a| a.replace("{root}", &root.to_string_lossy()))
            .collect();
        let code: i32 = read("code").trim().parse().unwrap();
        let out = common::ddbcost()
            .args(&args)
            .current_dir(case)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        let name = case.file_name().unwrap().to_string_lossy();
        if out.status.code() != Some(code) {
            failures.push(format!(
                "{name}: exit {:?}, expected {code}\n{stderr}",
                out.status.code()
            ));
        }
        for line in read("expected").lines().filter(|l| !l.is_empty()) {
            if !stderr.contains(line) {
                failures.push(format!("{name}: message lacks {line:?}\n{stderr}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n---\n"));
}
