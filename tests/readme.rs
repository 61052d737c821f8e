//! The README is a contract: every `console` block in it is a command and (part of) what it
//! prints. This test runs each command from the repository root and checks that every line
//! the block shows is a line of the output (`…` lines elide), so a header, a figure or a
//! layout the README documents cannot drift from what the tool prints.

mod common;

use common::root;

struct Block {
    command: Vec<String>,
    lines: Vec<String>,
    at: usize,
}

fn blocks(readme: &str) -> Vec<Block> {
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
                        panic!("README.md:{at}: a console block starts with `$ ddbcost`")
                    })
                    .to_string();
                let command = words(&command);
                out.push(Block {
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
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let blocks = blocks(&readme);
    assert!(blocks.len() >= 5, "the README shows its commands");
    let mut failures = Vec::new();
    for b in &blocks {
        let out = common::ddbcost().args(&b.command).output().unwrap();
        if !out.status.success() {
            failures.push(format!(
                "README.md:{}: `ddbcost {}` failed: {}",
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
                    "README.md:{}: `ddbcost {}` does not print\n  {line}\nit prints:\n{stdout}",
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
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
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
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
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
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
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
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
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
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
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
                "README.md:{}: a blank line inside a table:\n{}\n\n{}",
                i + 2,
                w[0].chars().take(80).collect::<String>(),
                w[2].chars().take(80).collect::<String>()
            );
        }
    }
}
