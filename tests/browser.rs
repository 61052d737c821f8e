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
    load_at(browser, page, png, (1200, height))
}

/// `load` in a window of `width` × `height` pixels.
fn load_at(browser: &str, page: &Path, png: &Path, (width, height): (u32, u32)) -> Vec<String> {
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
            &format!("--window-size={width},{height}"),
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

/// A script that measures the page as the browser lays it out, and logs it on one console
/// line: the viewport's width, each table's right edge, the page's scroll width, the
/// smallest chart text in screen pixels (an SVG's font size × its scale on screen), the
/// distinct bar colours of each chart, and the table headers.
const PROBE: &str = r"<script>
(function () {
  const vw = document.documentElement.clientWidth;
  const tables = [...document.querySelectorAll('table')].map(t => Math.ceil(t.getBoundingClientRect().right));
  const fonts = [...document.querySelectorAll('svg text')].filter(t => t.textContent.trim() !== '').map(t => {
    const m = t.getScreenCTM();
    return parseFloat(getComputedStyle(t).fontSize) * (m ? Math.hypot(m.a, m.b) : 1);
  });
  const fills = [...document.querySelectorAll('svg')].map(s => new Set([...s.querySelectorAll('rect')]
    .map(r => (r.getAttribute('fill') || '').toUpperCase())
    .filter(c => c && c !== '#FFFFFF' && c !== 'NONE')).size);
  const headers = [...document.querySelectorAll('th')].map(t => t.textContent.trim());
  const edges = [...document.body.children].map(e => e.getBoundingClientRect()).filter(r => r.width > 0);
  const left = edges.length ? Math.floor(Math.min(...edges.map(r => r.left))) : null;
  console.log('DDBCOST-LAYOUT ' + JSON.stringify({ vw, tables, left, scroll: document.documentElement.scrollWidth,
    min_font: fonts.length ? Math.min(...fonts) : null, fonts: fonts.length, fills, headers }));
})();
</script>";

/// The page's layout as `PROBE` measures it, in a 1,200-pixel-wide window.
fn layout(browser: &str, page: &Path, dir: &Path) -> serde_json::Value {
    layout_at(browser, page, dir, 1200)
}

/// `layout` in a window `width` pixels wide.
fn layout_at(browser: &str, page: &Path, dir: &Path, width: u32) -> serde_json::Value {
    let probed = dir.join(format!(
        "{}.probed.html",
        page.file_stem().unwrap().to_string_lossy()
    ));
    let html = std::fs::read_to_string(page).unwrap();
    assert!(html.contains("</body>"), "{}", page.display());
    std::fs::write(
        &probed,
        html.replacen("</body>", &format!("{PROBE}</body>"), 1),
    )
    .unwrap();
    let console = load_at(browser, &probed, &dir.join("probe.png"), (width, 1200));
    let line = console
        .iter()
        .find_map(|l| l.split("DDBCOST-LAYOUT ").nth(1))
        .unwrap_or_else(|| panic!("{}: the probe did not run: {console:?}", page.display()));
    // The console line ends with `", source: …`.
    let json = line.rsplit_once("\", source").map_or(line, |(j, _)| j);
    serde_json::from_str(&json.replace("\\\"", "\"")).unwrap_or_else(|e| panic!("{e}: {json}"))
}

/// Every table fits the 1,200-pixel window (no column off-screen), nothing scrolls sideways,
/// chart text reads at 12 px or more, and a stacked chart's series each have a colour of
/// their own (as many bar colours as the table has components). Returns what was checked.
fn check_layout(name: &str, l: &serde_json::Value) -> usize {
    let vw = l["vw"].as_f64().unwrap();
    let mut checked = 0;
    for right in l["tables"].as_array().unwrap() {
        assert!(
            right.as_f64().unwrap() <= vw,
            "{name}: a table ends at {right} px, past {vw}: {l}"
        );
        checked += 1;
    }
    assert!(
        l["scroll"].as_f64().unwrap() <= vw,
        "{name}: the page scrolls sideways: {l}"
    );
    if let Some(min) = l["min_font"].as_f64() {
        assert!(min >= 12.0, "{name}: chart text at {min:.1} px: {l}");
        checked += 1;
    }
    if name.ends_with("-forecast") {
        let components = l["headers"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|h| *h != "Month" && !h.as_str().unwrap().starts_with("Total"))
            .count();
        assert!(components > 0, "{name}: {l}");
        assert_eq!(
            usize::try_from(l["fills"][0].as_u64().unwrap()).unwrap(),
            components,
            "{name}: two series of the chart share a colour: {l}"
        );
        checked += 1;
    }
    checked
}

/// Narrow, as on a phone (390 pixels asked; headless Chromium opens no window narrower than
/// 500): the page does not scroll sideways (a wide table scrolls inside itself, a chart
/// shrinks), and its text keeps a side margin of 8 pixels or more.
fn check_phone(name: &str, l: &serde_json::Value) -> usize {
    let vw = l["vw"].as_f64().unwrap();
    assert!(
        vw <= 500.0,
        "{name}: a window of {vw} px is not narrow: {l}"
    );
    assert!(
        l["scroll"].as_f64().unwrap() <= vw,
        "{name} at {vw} px: the page scrolls sideways: {l}"
    );
    for right in l["tables"].as_array().unwrap() {
        assert!(
            right.as_f64().unwrap() <= vw,
            "{name} at {vw} px: a table ends at {right} px, past {vw}: {l}"
        );
    }
    let left = l["left"].as_f64().unwrap();
    assert!(
        left >= 8.0,
        "{name} at {vw} px: text {left} px from the edge: {l}"
    );
    1
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
#[allow(
    clippy::too_many_lines,
    reason = "one browser session: every report rendered, then each measured"
)]
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

    // The probe works: a table wider than the window and 9-pixel chart text are measured.
    let wide = dir.join("self-check-wide.html");
    std::fs::write(
        &wide,
        "<!DOCTYPE html><body><table style=\"width:1500px\"><tr><td>x</td></tr></table><svg width=\"200\" height=\"50\"><text x=\"0\" y=\"20\" font-size=\"9\">x</text></svg></body>",
    )
    .unwrap();
    let l = layout(&browser, &wide, &dir);
    assert!(
        l["tables"][0].as_f64().unwrap() > l["vw"].as_f64().unwrap(),
        "{l}"
    );
    assert!(l["min_font"].as_f64().unwrap() < 12.0, "{l}");

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
    let args = |s: &[&str]| {
        s.iter()
            .map(std::string::ToString::to_string)
            .collect::<Vec<_>>()
    };
    reports.push((
        "cloudshop-forecast".into(),
        args(&["forecast", "workloads/cloudshop.yaml", "--months", "12"]),
        2000,
    ));
    // Every component at once (15): the widest table and the most series.
    reports.push((
        "marketplace-forecast".into(),
        args(&[
            "forecast",
            "workloads/marketplace-us-east-1.yaml",
            "--months",
            "12",
        ]),
        2400,
    ));
    reports.push((
        "orders-keys".into(),
        args(&["keys", "workloads/samples/orders.jsonl", "--key", "PK"]),
        2000,
    ));
    // A pull request's change: CloudShop with a busier order creation, in a folder as deep as
    // a CI runner's checkout (its path is a column heading, the title of a bar and a note).
    let deep = dir.join("a_checkout_as_deep_as_ci_runners_make/pull_request_42");
    std::fs::create_dir_all(&deep).unwrap();
    let changed = deep.join("cloudshop-changed.yaml");
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
    // Measured usage: two days of 5-minute points, a busy evening and a spike the auto
    // scaling meets late (throttle-risk hours marked).
    let metrics = dir.join("usage-metrics.csv");
    let mut csv = String::from("timestamp,table,index,metric,statistic,value\n");
    for i in 0..576i64 {
        let (day, rest) = (1 + i / 288, (i % 288) * 300);
        let (h, m) = (rest / 3_600, rest % 3_600 / 60);
        let value = if i == 400 {
            600_000
        } else if h >= 18 {
            60_000
        } else {
            30_000
        };
        csv.push_str(&format!(
            "2026-11-{day:02}T{h:02}:{m:02}:00Z,orders,,ConsumedWriteCapacityUnits,Sum,{value}\n"
        ));
        csv.push_str(&format!(
            "2026-11-{day:02}T{h:02}:{m:02}:00Z,orders,by-status,ConsumedReadCapacityUnits,Sum,{}\n",
            value / 4
        ));
    }
    std::fs::write(&metrics, csv).unwrap();
    reports.push((
        "orders-usage".into(),
        args(&["usage", metrics.to_str().unwrap()]),
        2000,
    ));
    // A bill (the FOCUS export of a bundled workload, read back), and the workload against it.
    let own = dir.join("own-focus.csv");
    Case::new()
        .args([
            "estimate",
            "workloads/commitments-us-east-1.yaml",
            "--format",
            "focus",
            "--output",
            own.to_str().unwrap(),
        ])
        .run()
        .success();
    reports.push(("bill".into(), args(&["bill", own.to_str().unwrap()]), 2000));
    reports.push((
        "reconcile".into(),
        args(&[
            "reconcile",
            "workloads/commitments-us-east-1.yaml",
            "--bill",
            own.to_str().unwrap(),
        ]),
        2400,
    ));
    // A bill split by tenant (the SaaS seed's month): the costliest tenants as bars.
    reports.push(("allocate".into(), args(&common::saas::ALLOCATE), 2000));
    // A bill's jumps day by day (the bundled 60 days): a chart per departure.
    reports.push((
        "anomalies".into(),
        args(&[
            "anomalies",
            "workloads/samples/anomalies/cur-daily-2026-09-10.csv",
        ]),
        2600,
    ));
    let mut failures = Vec::new();
    let mut layouts_checked = 0;
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
        layouts_checked += check_layout(&name, &layout(&browser, &page, &dir));
        layouts_checked += check_phone(&name, &layout_at(&browser, &page, &dir, 390));
    }
    assert!(
        failures.is_empty(),
        "console messages:\n{}",
        failures.join("\n")
    );
    // Every report was measured: its tables, its chart text, a forecast's colours.
    assert!(layouts_checked >= 25, "{layouts_checked} layout checks");

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
