//! The CI example in `docs/ci/` (a GitHub Actions workflow and a pre-commit hook around
//! `docs/ci/ddbcost-diff.sh`), run as the workflow runs it: a temporary repository with a
//! `main` and a pull-request branch that changes CloudShop, the workflow's own "Price the
//! workload changes" step read from the workflow file and run with bash as Actions does,
//! the Markdown comment it writes, the budget gate failing the step; and the pre-commit hook
//! refusing a commit past the gate. Skipped, with a message, where git is not installed.

mod common;

use std::path::Path;
use std::process::Output;

use common::root;

fn git(dir: &Path, args: &[&str]) -> Output {
    let out = common::command("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.com")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.com")
        .output()
        .expect("git");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn has_git() -> bool {
    common::command("git")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// `upstream` (branch main, CloudShop and the CI scripts) cloned to `work`, on a branch
/// `change` where CloudShop creates 7 M orders a month instead of 6.3 M.
fn repositories(tmp: &Path) -> std::path::PathBuf {
    let upstream = tmp.join("upstream");
    std::fs::create_dir_all(upstream.join("workloads")).unwrap();
    std::fs::create_dir_all(upstream.join("docs/ci")).unwrap();
    std::fs::copy(
        root().join("workloads/cloudshop.yaml"),
        upstream.join("workloads/cloudshop.yaml"),
    )
    .unwrap();
    for f in [
        "ddbcost-diff.sh",
        "pre-commit",
        "github-actions-ddbcost.yml",
    ] {
        std::fs::copy(
            root().join("docs/ci").join(f),
            upstream.join("docs/ci").join(f),
        )
        .unwrap();
    }
    git(&upstream, &["init", "-q", "-b", "main"]);
    git(&upstream, &["add", "."]);
    git(&upstream, &["commit", "-q", "-m", "cloudshop"]);
    let work = tmp.join("work");
    git(
        tmp,
        &[
            "clone",
            "-q",
            upstream.to_str().unwrap(),
            work.to_str().unwrap(),
        ],
    );
    git(&work, &["checkout", "-q", "-b", "change"]);
    change_rate(&work, "7M/month");
    git(&work, &["commit", "-q", "-am", "more orders"]);
    work
}

fn change_rate(work: &Path, rate: &str) {
    let path = work.join("workloads/cloudshop.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    let at = text.find("create-order:").unwrap();
    let rate_at = at + text[at..].find("rate: ").unwrap() + "rate: ".len();
    let end = rate_at + text[rate_at..].find('\n').unwrap();
    let mut changed = text.clone();
    changed.replace_range(rate_at..end, rate);
    std::fs::write(&path, changed).unwrap();
}

/// The workflow's step that prices the change, as written in the workflow file.
fn workflow_step() -> (String, serde_json::Value) {
    let text = std::fs::read_to_string(root().join("docs/ci/github-actions-ddbcost.yml")).unwrap();
    let workflow: serde_json::Value = serde_saphyr::from_str(&text).unwrap();
    let job = &workflow["jobs"]["cost"];
    let step = job["steps"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "Price the workload changes")
        .expect("the workflow's diff step");
    (
        step["run"].as_str().unwrap().to_string(),
        job["env"].clone(),
    )
}

/// Runs `script` as GitHub Actions runs a `run:` step (bash -e -o pipefail).
fn run_step(work: &Path, script: &str, fail_increase: &str) -> Output {
    common::command("bash")
        .args(["--noprofile", "--norc", "-eo", "pipefail", "-c", script])
        .current_dir(work)
        .env("GITHUB_BASE_REF", "main")
        .env("DDBCOST", env!("CARGO_BIN_EXE_ddbcost"))
        .env("DDBCOST_FAIL_INCREASE", fail_increase)
        .env_remove("DDBCOST_FAIL_ABOVE")
        .output()
        .unwrap()
}

#[test]
fn the_workflow_step_writes_the_comment_and_gates_the_budget() {
    if !has_git() {
        return common::skip_without("git", "the CI example runs in a git repository");
    }
    let tmp = tempfile::tempdir().unwrap();
    let work = repositories(tmp.path());
    let (script, env) = workflow_step();
    assert_eq!(env["DDBCOST"], "target/release/ddbcost");
    assert_eq!(env["DDBCOST_FAIL_INCREASE"], "10");
    assert_eq!(env["DDBCOST_FAIL_ONE_TIME_ABOVE"], "1000");

    // Within the workflow's 10 % gate.
    let out = run_step(&work, &script, "10");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let comment = std::fs::read_to_string(work.join("ddbcost-comment.md")).unwrap();
    assert!(comment.starts_with("## DynamoDB cost of this change (ddbcost)"));
    assert!(
        comment.contains("### `workloads/cloudshop.yaml`"),
        "{comment}"
    );
    // +0.7 M puts a month: table writes 0.7 × €5 = €3.50, one gsi-1 and one gsi-2 write each
    // (+€3.50 twice), and a stream record each for two consumers reading one record a call:
    // 2 × 0.7 × €0.22 = €0.308. Δ = 10.5 + 0.308 = €10.808 → 1,243.54 + 10.81 = 1,254.35.
    assert!(
        comment.contains("| 1,254.35 | +10.81 | +0.9 % |"),
        "{comment}"
    );
    assert!(comment.contains("| orders | Write request units | 205.00 | 208.50 | +3.50 |"));
    assert!(!comment.contains("Budget gate crossed"));
    // No temporary file is left in the repository.
    let status = git(&work, &["status", "--porcelain"]);
    let status = String::from_utf8_lossy(&status.stdout);
    assert_eq!(status.trim(), "?? ddbcost-comment.md");

    // A 0.5 % gate: 10.808 / 1,243.54 = 0.87 % crosses it; the step fails with 3, and the
    // comment is still written for the next step to post.
    let out = run_step(&work, &script, "0.5");
    assert_eq!(out.status.code(), Some(3));
    let comment = std::fs::read_to_string(work.join("ddbcost-comment.md")).unwrap();
    assert!(comment.contains("+10.81"));
    assert!(comment.contains("**Budget gate crossed** for `workloads/cloudshop.yaml`:"));
    // ddbcost's own reason, not only that a gate was crossed.
    assert!(
        comment.contains("error: the monthly total rises 0.87 % (1,243.54 → 1,254.35 EUR), more than the 0.5 % allowed"),
        "{comment}"
    );

    // A workload ddbcost cannot price fails the step with 1, and says which.
    let path = work.join("workloads/cloudshop.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, text.replacen("    items: ", "    itemz: ", 1)).unwrap();
    let out = run_step(&work, &script, "10");
    assert_eq!(out.status.code(), Some(1));
    let comment = std::fs::read_to_string(work.join("ddbcost-comment.md")).unwrap();
    assert!(comment.contains("**ddbcost could not price `workloads/cloudshop.yaml`**"));
    // …with the loader's message in the comment: the typo and what was expected.
    assert!(comment.contains("unknown field `itemz`"), "{comment}");
}

#[test]
fn a_change_to_a_template_alone_is_priced_with_its_usage_file() {
    if !has_git() {
        return common::skip_without("git", "the CI example runs in a git repository");
    }
    let tmp = tempfile::tempdir().unwrap();
    let work = repositories(tmp.path());
    // The pull request adds only a template change: `orders.template.yaml` (and its usage file,
    // committed on main) → the version with a GSI and a replica (`orders-v2`).
    let infra = work.join("infra");
    std::fs::create_dir_all(&infra).unwrap();
    git(&work, &["checkout", "-q", "main"]);
    std::fs::copy(
        root().join("workloads/iac/orders.template.yaml"),
        infra.join("orders.template.yaml"),
    )
    .unwrap();
    std::fs::copy(
        root().join("workloads/iac/orders.usage.yaml"),
        infra.join("orders.usage.yaml"),
    )
    .unwrap();
    git(&work, &["add", "infra"]);
    git(&work, &["commit", "-q", "-m", "the template"]);
    git(&work, &["checkout", "-q", "-b", "template-change"]);
    std::fs::copy(
        root().join("workloads/iac/orders-v2.template.yaml"),
        infra.join("orders.template.yaml"),
    )
    .unwrap();
    git(&work, &["commit", "-q", "-am", "a GSI and a replica"]);
    let step = |one_time_gate: Option<&str>| {
        let mut c = common::command("bash");
        c.args(["docs/ci/ddbcost-diff.sh", "main"])
            .current_dir(&work)
            .env("DDBCOST", env!("CARGO_BIN_EXE_ddbcost"))
            .env("DDBCOST_REGION", "us-east-1")
            .env_remove("DDBCOST_FAIL_INCREASE")
            .env_remove("DDBCOST_FAIL_ABOVE");
        match one_time_gate {
            Some(g) => c.env("DDBCOST_FAIL_ONE_TIME_ABOVE", g),
            None => c.env_remove("DDBCOST_FAIL_ONE_TIME_ABOVE"),
        };
        c.output().unwrap()
    };
    let out = step(None);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let comment = String::from_utf8_lossy(&out.stdout);
    assert!(
        comment.contains("### `infra/orders.template.yaml`"),
        "{comment}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        comment.contains("A template, with usage from `infra/orders.usage.yaml`"),
        "{comment}"
    );
    assert!(
        !comment.contains("No workload or template changed"),
        "{comment}"
    );
    // The change is priced line by line: the GSI the pull request adds appears.
    assert!(
        comment.contains("| prod-orders | GSI `by-customer` write request units | — |"),
        "{comment}"
    );
    // What the change costs once is in the comment: the new GSI's backfill, 20,000,000 items
    // of 1 KB × 1 write unit × $0.625 per million write request units = $12.50.
    assert!(
        comment
            .contains("| Scenario | Kind | Monthly (USD) | Δ vs baseline | Δ % | One-time (USD) |"),
        "{comment}"
    );
    assert!(
        comment.contains("GSI `by-customer` backfilled: 20,000,000 items"),
        "{comment}"
    );
    // The one-time gate: $12.50 is within $20 and past $10 (exit 3, the comment still written).
    assert_eq!(step(Some("20")).status.code(), Some(0));
    let crossed = step(Some("10"));
    assert_eq!(crossed.status.code(), Some(3));
    let comment = String::from_utf8_lossy(&crossed.stdout);
    assert!(comment.contains("**Budget gate crossed**"), "{comment}");
    assert!(comment.contains("One-time (USD)"), "{comment}");
    // Nothing temporary is left beside the template.
    let status = git(&work, &["status", "--porcelain"]);
    assert_eq!(String::from_utf8_lossy(&status.stdout).trim(), "");
}

#[test]
fn the_pre_commit_hook_refuses_a_commit_past_the_gate() {
    if !has_git() {
        return common::skip_without("git", "the CI example runs in a git repository");
    }
    let tmp = tempfile::tempdir().unwrap();
    let work = repositories(tmp.path());
    std::fs::copy(
        work.join("docs/ci/pre-commit"),
        work.join(".git/hooks/pre-commit"),
    )
    .unwrap();
    let commit = |gate: &str| {
        common::command("git")
            .args(["commit", "-q", "-m", "even more orders"])
            .current_dir(&work)
            .env("GIT_AUTHOR_NAME", "t")
            .env("GIT_AUTHOR_EMAIL", "t@example.com")
            .env("GIT_COMMITTER_NAME", "t")
            .env("GIT_COMMITTER_EMAIL", "t@example.com")
            .env("DDBCOST", env!("CARGO_BIN_EXE_ddbcost"))
            .env("DDBCOST_FAIL_INCREASE", gate)
            .output()
            .unwrap()
    };
    // 7 M → 14 M orders a month: far past a 5 % gate.
    change_rate(&work, "14M/month");
    git(&work, &["add", "workloads/cloudshop.yaml"]);
    let refused = commit("5");
    assert!(!refused.status.success());
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(
        stderr.contains("a budget gate is crossed; commit refused"),
        "{stderr}"
    );
    assert!(stderr.contains("**Budget gate crossed**"));
    // Nothing was committed, and nothing temporary is left beside the workload.
    let log = git(&work, &["log", "--oneline"]);
    assert_eq!(String::from_utf8_lossy(&log.stdout).lines().count(), 2);
    let status = git(&work, &["status", "--porcelain"]);
    assert_eq!(
        String::from_utf8_lossy(&status.stdout).trim(),
        "M  workloads/cloudshop.yaml"
    );
    // Within a 200 % gate, the commit goes through.
    let accepted = commit("200");
    assert!(
        accepted.status.success(),
        "{}",
        String::from_utf8_lossy(&accepted.stderr)
    );
}
