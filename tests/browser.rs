//! Every bundled report rendered in a real browser: headless Chromium loads each HTML report
//! (estimates of every bundled workload, their comparisons, a forecast, a key spread, a
//! diff), the test fails on any console message (a script error, a resource that does not
//! load), and each page's screenshot is written to `target/browser/`. With
//! `DDBCOST_UPDATE_SCREENSHOTS=1` the screenshots the README shows are written to `docs/`
//! too (`docs/screenshot.sh` does that). Skipped, with a message, where no Chromium is
//! installed (`apt-get install chromium`; `DDBCOST_CHROMIUM` names another binary).

mod common;

use std::path::{Path, PathBuf};

use common::{Case, root};

fn chromium() -> Option<String> {
    let candidates = std::env::var("DDBCOST_CHROMIUM")
        .ok()
        .into_iter()
        .chain(["chromium", "chromium-browser", "google-chrome"].map(String::from));
    candidates.into_iter().find(|c| {
        common::command(c)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

/// Loads `page` headless, screenshots it to `png`; returns the console messages.
fn load(browser: &str, page: &Path, png: &Path, height: u32) -> Vec<String> {
    let profile = tempfile::tempdir().unwrap();
    let out = common::command(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            // Off the network (reports are self-contained) and out of the GPU.
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            "--enable-logging=stderr",
            "--v=0",
            &format!("--user-data-dir={}", profile.path().display()),
            &format!("--window-size=1200,{height}"),
            &format!("--screenshot={}", png.display()),
            &format!("file://{}", page.display()),
        ])
        .output()
        .expect("run chromium");
    assert!(
        out.status.success(),
        "chromium failed on {}",
        page.display()
    );
    String::from_utf8_lossy(&out.stderr)
        .lines()
        .filter(|l| l.contains(":CONSOLE"))
        .map(str::to_string)
        .collect()
}

fn png_ok(png: &Path) {
    let bytes = std::fs::read(png).unwrap_or_default();
    assert!(
        bytes.len() > 2_000 && bytes.starts_with(b"\x89PNG"),
        "{}: no screenshot",
        png.display()
    );
}

#[test]
fn every_bundled_report_renders_without_console_errors() {
    let Some(browser) = chromium() else {
        return common::skip_without(
            "chromium",
            "to render the HTML reports in: apt-get install chromium, or set DDBCOST_CHROMIUM",
        );
    };
    let dir = root().join("target/browser");
    std::fs::create_dir_all(&dir).unwrap();

    // The detector works: a page with a script error is caught.
    let bad = dir.join("self-check.html");
    std::fs::write(
        &bad,
        "<!DOCTYPE html><p>x</p><script>undefinedFunction();</script>",
    )
    .unwrap();
    let caught = load(&browser, &bad, &dir.join("self-check.png"), 400);
    assert!(
        caught.iter().any(|l| l.contains("undefinedFunction")),
        "the console is not read: {caught:?}"
    );

    let mut reports: Vec<(String, Vec<String>, u32)> = Vec::new();
    for w in [
        "cloudshop",
        "marketplace-us-east-1",
        "saas-dashboard",
        "commitments-us-east-1",
    ] {
        let file = format!("workloads/{w}.yaml");
        reports.push((
            format!("{w}-estimate"),
            vec!["estimate".into(), file.clone()],
            2000,
        ));
        if std::fs::read_to_string(root().join(&file))
            .unwrap()
            .contains("\nscenarios:")
        {
            reports.push((format!("{w}-compare"), vec!["compare".into(), file], 2600));
        }
    }
    let args = |s: &[&str]| s.iter().map(|a| a.to_string()).collect::<Vec<_>>();
    reports.push((
        "cloudshop-forecast".into(),
        args(&["forecast", "workloads/cloudshop.yaml", "--months", "12"]),
        2000,
    ));
    reports.push((
        "orders-keys".into(),
        args(&["keys", "workloads/samples/orders.jsonl", "--key", "PK"]),
        2000,
    ));
    // A pull request's change: CloudShop with a busier order creation.
    let changed = dir.join("cloudshop-changed.yaml");
    let text = std::fs::read_to_string(root().join("workloads/cloudshop.yaml")).unwrap();
    assert!(text.contains("rate: 6.3M/month"));
    std::fs::write(
        &changed,
        text.replacen("rate: 6.3M/month", "rate: 7M/month", 1),
    )
    .unwrap();
    reports.push((
        "cloudshop-diff".into(),
        args(&[
            "diff",
            "workloads/cloudshop.yaml",
            changed.to_str().unwrap(),
        ]),
        2000,
    ));
    let mut failures = Vec::new();
    for (name, mut command, height) in reports {
        let page: PathBuf = dir.join(format!("{name}.html"));
        command.extend(args(&[
            "--format",
            "html",
            "--output",
            page.to_str().unwrap(),
        ]));
        let out = Case::new().args(&command).run();
        assert!(matches!(out.code, 0 | 3), "{command:?}: {}", out.stderr);
        let png = dir.join(format!("{name}.png"));
        let console = load(&browser, &page, &png, height);
        if !console.is_empty() {
            failures.push(format!("{name}: {console:#?}"));
        }
        png_ok(&png);
    }
    assert!(
        failures.is_empty(),
        "console messages:\n{}",
        failures.join("\n")
    );

    if std::env::var_os("DDBCOST_UPDATE_SCREENSHOTS").is_some() {
        // The screenshot the README shows, rendered for a fixed period so it does not age.
        let page = root().join("docs/cloudshop-compare.html");
        Case::new()
            .args([
                "compare",
                "workloads/cloudshop.yaml",
                "--format",
                "html",
                "--period",
                "2026-12",
                "--output",
                page.to_str().unwrap(),
            ])
            .run()
            .success();
        let png = root().join("docs/cloudshop-compare.png");
        let console = load(&browser, &page, &png, 2600);
        assert!(console.is_empty(), "{console:?}");
        png_ok(&png);
    }
}
