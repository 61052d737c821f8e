//! The README and the reference under `docs/` are a contract: every `console` block in them
//! is a command and (part of) what it prints. This test runs each command from the
//! repository root and checks that every line the block shows is a line of the output (`…`
//! lines elide), so a header, a figure or a layout the documentation shows cannot drift from
//! what the tool prints.

mod common;

use common::root;

struct Block {
    file: String,
    command: Vec<String>,
    lines: Vec<String>,
    at: usize,
}

fn blocks(file: &str, readme: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut current: Option<(usize, usize, Vec<String>)> = None;
    for (n, raw) in readme.lines().enumerate() {
        let trimmed = raw.trim_start();
        let indent = raw.len().saturating_sub(trimmed.len());
        match &mut current {
            None if trimmed == "```console" => current = Some((n + 1, indent, Vec::new())),
            Some((_, _, _)) if trimmed == "```" => {
                let (at, _, body) = current.take().unwrap();
                let (first, rest) = body.split_first().expect("a console block has a command");
                let command = first
                    .strip_prefix("$ ddbcost ")
                    .unwrap_or_else(|| {
                        panic!("{file}:{at}: a console block starts with `$ ddbcost`")
                    })
                    .to_string();
                let command = words(&command);
                out.push(Block {
                    file: file.to_string(),
                    command,
                    lines: rest.to_vec(),
                    at,
                });
            }
            Some((_, indent_of_block, body)) => {
                let line = raw.get(*indent_of_block..).unwrap_or("").trim_end();
                body.push(line.to_string());
            }
            None => {}
        }
    }
    out
}

#[test]
fn every_console_block_of_the_readme_is_what_the_tool_prints() {
    let docs = common::documentation();
    let front = blocks(&docs[0].0, &docs[0].1);
    assert!(front.len() >= 5, "the README shows its commands");
    let blocks: Vec<Block> = docs.iter().flat_map(|(f, text)| blocks(f, text)).collect();
    assert!(
        blocks.len() > front.len(),
        "the reference under docs/ shows its commands"
    );
    let mut failures = Vec::new();
    for b in &blocks {
        let out = common::ddbcost().args(&b.command).output().unwrap();
        if !out.status.success() {
            failures.push(format!(
                "{}:{}: `ddbcost {}` failed: {}",
                b.file,
                b.at,
                b.command.join(" "),
                String::from_utf8_lossy(&out.stderr)
            ));
            continue;
        }
        let stdout = String::from_utf8_lossy(&out.stdout);
        let printed: Vec<&str> = stdout.lines().map(str::trim_end).collect();
        for line in b.lines.iter().filter(|l| !l.is_empty() && l.trim() != "…") {
            if !printed.contains(&line.as_str()) {
                failures.push(format!(
                    "{}:{}: `ddbcost {}` does not print\n  {line}\nit prints:\n{stdout}",
                    b.file,
                    b.at,
                    b.command.join(" ")
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n---\n"));
}

#[test]
fn the_readme_error_table_is_the_catalogue() {
    // One row per folder of tests/errors/, in order, with its command, exit code and an
    // excerpt of the message the catalogue checks.
    let readme = common::documentation_text();
    let start = readme
        .find("| error | command | exit | message (excerpt) |")
        .expect("the error table");
    let rows: Vec<Vec<String>> = readme[start..]
        .lines()
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            l.trim_matches('|')
                .split(" | ")
                .map(|c| c.trim().replace("\\|", "|"))
                .collect()
        })
        .collect();
    let mut folders: Vec<String> = std::fs::read_dir(root().join("tests/errors"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    folders.sort();
    let names: Vec<String> = rows
        .iter()
        .map(|r| r[0].trim_matches('`').to_string())
        .collect();
    assert_eq!(names, folders, "README error table vs tests/errors/");
    for row in &rows {
        let dir = root().join("tests/errors").join(row[0].trim_matches('`'));
        let read = |f: &str| std::fs::read_to_string(dir.join(f)).unwrap();
        assert_eq!(
            row[1].trim_matches('`'),
            read("args").lines().next().unwrap(),
            "{}",
            row[0]
        );
        assert_eq!(row[2], read("code").trim(), "{}", row[0]);
        let excerpt = row[3].trim_matches('`');
        assert!(
            read("expected").contains(excerpt) || read("expected").contains(&row[3]),
            "{}: `{}` is not in its expected message",
            row[0],
            row[3]
        );
    }
}

/// The keys of a JSON object, in order.
fn keys(v: &serde_json::Value) -> Vec<String> {
    v.as_object().unwrap().keys().cloned().collect()
}

#[test]
fn the_json_documents_have_the_fields_the_readme_names() {
    // The README's "Output formats" section names these fields; the documents have exactly
    // them, and each is named in the README in backticks.
    let readme = common::documentation_text();
    let run = |args: &[&str]| -> serde_json::Value {
        let out = common::ddbcost().args(args).output().unwrap();
        assert!(out.status.success());
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let estimate = run(&["estimate", "workloads/cloudshop.yaml", "--format", "json"]);
    let compare = run(&["compare", "workloads/cloudshop.yaml", "--format", "json"]);
    let expected: [(&serde_json::Value, &[&str]); 6] = [
        (
            &estimate,
            &[
                "schema",
                "workload",
                "currency",
                "total",
                "total_rounded",
                "rounding",
                "fx",
                "savings_plan",
                "partitions",
                "price_table",
                "settings",
                "tables",
                "line_items",
                "patterns",
                "excluded",
                "warnings",
            ],
        ),
        (
            &estimate["line_items"][0],
            &[
                "key",
                "table",
                "component",
                "label",
                "region",
                "quantity",
                "unit",
                "unit_price",
                "price_key",
                "cost",
                "cost_rounded",
                "basis",
                "patterns",
                "attribution",
            ],
        ),
        (
            &compare,
            &[
                "schema",
                "currency",
                "baseline",
                "scenarios",
                "rows",
                "waterfall",
                "notes",
            ],
        ),
        (
            &compare["scenarios"][0],
            &[
                "name",
                "kind",
                "description",
                "total",
                "total_rounded",
                "delta",
                "delta_percent",
                "step_delta",
                "line_items",
                "warnings",
                "one_time",
                "one_time_total",
                "payback_months",
            ],
        ),
        (
            &compare["rows"][0],
            &[
                "key",
                "table",
                "component",
                "label",
                "labels",
                "baseline",
                "scenarios",
                "deltas",
            ],
        ),
        (
            &compare["waterfall"]["steps"][0],
            &["name", "delta", "running_total"],
        ),
    ];
    for (doc, fields) in expected {
        assert_eq!(keys(doc), *fields);
        for f in fields {
            assert!(readme.contains(&format!("`{f}`")), "the README names `{f}`");
        }
    }
}

#[test]
fn the_readme_shows_the_price_list_mapping_of_the_code() {
    // Every row of `src/pricelist/mapping.rs` appears in the README's mapping table.
    let readme = common::documentation_text();
    for row in ddbcost::api::import::usage_types() {
        let target = match row.target {
            ddbcost::api::import::UsageTarget::Price { path, .. } => format!("`{path}`"),
            ddbcost::api::import::UsageTarget::Reserved { .. } => "`reserved.rcu_1y`".into(),
        };
        let usage = format!(
            "`{}`",
            row.usage_type.replace(".read", "").replace(".write", "")
        );
        assert!(
            readme
                .lines()
                .any(|l| l.contains(&usage) && l.contains(&target)),
            "README mapping row for {} → {target}",
            row.usage_type
        );
    }
}

#[test]
fn the_readmes_cloudshop_figures_are_derived() {
    use rust_decimal::Decimal;
    let readme = common::documentation_text();
    let d = |s: &str| s.parse::<Decimal>().unwrap();
    // Reads: table 972,068,315 + gsi-1 7,884,000 + gsi-2 47,685 read units
    // (tests/cli_estimate.rs derives each); in millions 972.07 and 7.884 + 0.047685 = 7.93.
    assert_eq!(d("972.068315").round_dp(2), d("972.07"));
    assert_eq!((d("7.884") + d("0.047685")).round_dp(2), d("7.93"));
    assert!(readme.contains("972.07 M on the table, 7.93 M on its GSIs"));
    // GSI-1's peak: 75.7 M index writes a month ÷ 2,628,000 s = 28.805… WCU/s on average;
    // the evening profile's highest hour is 1.9 of a day summing to 24.35 (mean 1.01458…):
    // 28.805… × 1.9 ÷ (24.35 ÷ 24) = 53.94 WCU/s.
    let peak = d("75700000") / d("2628000") * d("1.9") / (d("24.35") / d("24"));
    assert_eq!(peak.round_dp(2), d("53.94"));
    assert!(readme.contains("53.94 WCU/s (its 75.7 M index writes"));
    let out = common::ddbcost()
        .args(["estimate", "workloads/cloudshop.yaml", "--format", "csv"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(",reads,orders/reads,") && text.contains("972.068315"),
        "{text}"
    );
}

/// A command line split as a POSIX shell splits it, for the quoting the README uses: words
/// at blanks, and single quotes kept literal and removed.
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word: Option<String> = None;
    let mut quoted = false;
    for c in line.chars() {
        match c {
            '\'' => {
                quoted = !quoted;
                word.get_or_insert_with(String::new);
            }
            c if c.is_whitespace() && !quoted => out.extend(word.take()),
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    assert!(!quoted, "an unclosed quote in `{line}`");
    out.extend(word);
    out
}

/// A Markdown table is one block of `|` lines: a blank line inside one cuts its rows off (they
/// render as a paragraph of pipes).
#[test]
fn no_table_of_the_readme_is_cut_by_a_blank_line() {
    for (file, text) in common::documentation() {
        no_table_cut(&file, &text);
    }
}

fn no_table_cut(file: &str, readme: &str) {
    let lines: Vec<&str> = readme.lines().collect();
    let mut fenced = false;
    for (i, w) in lines.windows(3).enumerate() {
        if w[0].starts_with("```") {
            fenced = !fenced;
        }
        if !fenced && w[0].starts_with('|') && w[1].trim().is_empty() && w[2].starts_with('|') {
            let rule = w[2].trim_matches('|').split('|').all(|c| {
                let c = c.trim();
                !c.is_empty() && c.chars().all(|ch| ch == '-' || ch == ':')
            });
            // A new table (its header's next line is a rule) may follow a blank line.
            let next_is_rule = lines.get(i + 3).is_some_and(|l| {
                l.trim_matches('|').split('|').all(|c| {
                    !c.trim().is_empty() && c.trim().chars().all(|ch| ch == '-' || ch == ':')
                })
            });
            assert!(
                rule || next_is_rule,
                "{file}:{}: a blank line inside a table:\n{}\n\n{}",
                i + 2,
                w[0].chars().take(80).collect::<String>(),
                w[2].chars().take(80).collect::<String>()
            );
        }
    }
}

/// Each journey of the README's "Start here" runs as written: every `ddbcost` line of its
/// `sh` blocks succeeds from a fresh folder that holds the bundled examples (as a clone
/// does) and the two files a pull request's review names (`main.yaml`, `branch.yaml`: the
/// CloudShop case and a change of 2.6 %, under the 5 % gate).
#[test]
fn every_journey_of_the_readme_runs_as_written() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let section = readme
        .split("## Start here")
        .nth(1)
        .expect("the README's journeys")
        .split("\n## ")
        .next()
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(root().join("workloads"), dir.path().join("workloads")).unwrap();
    let main = std::fs::read_to_string(root().join("workloads/cloudshop.yaml")).unwrap();
    std::fs::write(dir.path().join("main.yaml"), &main).unwrap();
    std::fs::write(
        dir.path().join("branch.yaml"),
        main.replacen("rate: 6.3M/month", "rate: 7M/month", 1),
    )
    .unwrap();
    let mut ran = 0;
    let mut fenced = false;
    for line in section.lines() {
        if line.starts_with("```") {
            fenced = line == "```sh";
            continue;
        }
        let Some(command) = line.strip_prefix("ddbcost ").filter(|_| fenced) else {
            continue;
        };
        // What a shell would do with the rest: a comment dropped, `> FILE` written.
        let command = command.split(" # ").next().unwrap().trim();
        let (command, into) = match command.split_once(" > ") {
            Some((c, f)) => (c, Some(f.trim())),
            None => (command, None),
        };
        let out = common::ddbcost()
            .args(words(command))
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "README.md: `ddbcost {command}` failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        if let Some(f) = into {
            std::fs::write(dir.path().join(f), &out.stdout).unwrap();
        }
        ran += 1;
    }
    assert!(ran >= 12, "the journeys show their commands ({ran} run)");
    // The first journey's file was written by `init` and priced.
    assert!(dir.path().join("orders.yaml").is_file());
}

/// A heading's anchor as GitHub writes it: lower case, punctuation dropped, spaces as `-`.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == '-' || *c == '_' || *c == ' ')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors a Markdown file has: its headings' and its `<a id="…">`s (outside code).
fn anchors(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        if let Some(h) = line.strip_prefix('#') {
            out.push(slug(h.trim_start_matches('#')));
        }
        for part in line.split("<a id=\"").skip(1) {
            out.push(part.split('"').next().unwrap_or("").to_string());
        }
    }
    out
}

/// Every link of the README and the reference leads somewhere: a file of the repository that
/// exists and, after `#`, a heading or anchor it has (the reference moved out of the README,
/// and a link left behind would lead nowhere).
#[test]
fn every_link_of_the_documentation_leads_to_a_file_and_heading() {
    let docs = common::documentation();
    let mut broken = Vec::new();
    let mut checked = 0;
    for (file, text) in &docs {
        let base = root().join(file);
        let base = base.parent().unwrap();
        let mut fenced = false;
        for (n, line) in text.lines().enumerate() {
            if line.trim_start().starts_with("```") {
                fenced = !fenced;
            }
            if fenced {
                continue;
            }
            for part in line.split("](").skip(1) {
                let Some(target) = part.split(')').next() else {
                    continue;
                };
                if target.contains("://") || target.starts_with("mailto:") || target.contains(' ') {
                    continue;
                }
                let (path, anchor) = target.split_once('#').unwrap_or((target, ""));
                let to = if path.is_empty() {
                    root().join(file)
                } else {
                    base.join(path)
                };
                checked += 1;
                if !to.exists() {
                    broken.push(format!("{file}:{}: `{target}`: no such file", n + 1));
                    continue;
                }
                if !anchor.is_empty() {
                    let text = std::fs::read_to_string(&to).unwrap_or_default();
                    if !anchors(&text).iter().any(|a| a == anchor) {
                        broken.push(format!("{file}:{}: `{target}`: no such heading", n + 1));
                    }
                }
            }
        }
    }
    assert!(
        checked > 50,
        "the documentation links its parts ({checked})"
    );
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

/// The page's publishing workflow builds the page with the script `.ci/run` builds and tests
/// it with, and publishes the folder that script writes (and the reference says so).
#[test]
fn the_pages_workflow_publishes_what_the_build_writes() {
    let flow = std::fs::read_to_string(root().join(".github/workflows/pages.yml")).unwrap();
    assert!(flow.contains("- run: web/build.sh"), "{flow}");
    assert!(flow.contains("path: web/dist"), "{flow}");
    assert!(flow.contains("actions/deploy-pages@"), "{flow}");
    let ci = std::fs::read_to_string(root().join(".ci/run")).unwrap();
    assert!(ci.lines().any(|l| l.trim() == "web/build.sh"));
    assert!(ci.contains("web/test/page.test.mjs"));
    let script = std::fs::read_to_string(root().join("web/build.sh")).unwrap();
    assert!(script.contains("dist"), "web/build.sh writes web/dist");
    let docs = common::documentation_text();
    assert!(docs.contains("`.github/workflows/pages.yml`"));
}
