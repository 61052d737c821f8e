//! Whatever text a workload holds, what ddbcost prints for a terminal cannot act on it:
//! generated names and descriptions of any characters (escape sequences, carriage returns,
//! bidirectional overrides, invisible characters, tabs, line breaks, plain text) put in a
//! table's name, a pattern's name, a description, a scenario's name and a `--set` value;
//! `estimate`, `compare` and `advise` run in memory as tables, Markdown and text errors.
//! Nothing printed holds a character that acts; a name is refused exactly when it holds one
//! that may not stand in a name, a description exactly when it holds one that acts.

use proptest::prelude::*;

/// A character that acts on a terminal (the rule of `src/text.rs`, written again here).
fn acts(c: char) -> bool {
    (c.is_control() && c != '\t' && c != '\n')
        || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{2028}' | '\u{2029}')
}

/// A character a name may not hold: one that acts, tab, line feed, or an invisible one.
fn unfit_for_name(c: char) -> bool {
    c.is_control()
        || acts(c)
        || matches!(
            c,
            '\u{AD}' | '\u{180E}' | '\u{200B}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}'
        )
}

/// Text of plain and hostile characters alike.
fn text() -> impl Strategy<Value = String> {
    let hostile = prop_oneof![
        Just('\u{1b}'),
        Just('\r'),
        Just('\t'),
        Just('\n'),
        Just('\u{0}'),
        Just('\u{7}'),
        Just('\u{7f}'),
        Just('\u{9b}'),
        Just('\u{202E}'),
        Just('\u{2067}'),
        Just('\u{2028}'),
        Just('\u{200B}'),
        Just('\u{FEFF}'),
        Just('\u{AD}'),
    ];
    let plain = prop_oneof![
        proptest::char::range('a', 'z'),
        Just('['),
        Just('-'),
        Just('é'),
        Just('\u{200D}'),
    ];
    proptest::collection::vec(prop_oneof![3 => plain, 1 => hostile], 1..12)
        .prop_map(|cs| cs.into_iter().collect())
}

/// `s` as a double-quoted YAML string: every character outside printable ASCII escaped.
fn quoted(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            ' '..='~' => out.push(c),
            c => out.push_str(&format!("\\U{:08X}", u32::from(c))),
        }
    }
    out.push('"');
    out
}

fn workload(table: &str, pattern: &str, description: &str, scenario: &str) -> String {
    format!(
        "prices: aws-us-east-1\ntables:\n  {}:\n    item_size: 1 KB\n    patterns:\n      {}: {{ op: get, rate: 1 M, consistency: eventual, description: {} }}\n      ddbcost-test-writes: {{ op: put, rate: 1 M }}\nscenarios:\n  alternatives:\n    - name: {}\n      patch: {{ tables: {{ {}: {{ item_size: 2 KB }} }} }}\n",
        quoted(table),
        quoted(pattern),
        quoted(description),
        quoted(scenario),
        quoted(table),
    )
}

const RUNS: &[&[&str]] = &[
    &["estimate", "-"],
    &["estimate", "-", "--by", "pattern", "--format", "markdown"],
    &["compare", "-"],
    &["advise", "-"],
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn nothing_printed_for_a_terminal_acts_on_it(
        table in text(), pattern in text(), description in text(), scenario in text(),
        set in text(),
    ) {
        let yaml = workload(&table, &pattern, &description, &scenario);
        let fit = !table.chars().any(unfit_for_name)
            && !pattern.chars().any(unfit_for_name)
            && !scenario.chars().any(unfit_for_name)
            && !description.chars().any(acts);
        for run in RUNS {
            let out = ddbcost::api::run_in_memory(
                std::iter::once("ddbcost").chain(run.iter().copied()),
                &yaml,
                20_791,
            );
            prop_assert!(!out.stdout.chars().any(acts), "{run:?} stdout: {:?}", out.stdout);
            prop_assert!(!out.stderr.chars().any(acts), "{run:?} stderr: {:?}", out.stderr);
            // Refused exactly when the text breaks the rule (the names may still clash:
            // a pattern named `w`, or a scenario named `baseline`).
            if fit && pattern != "w" && scenario != "baseline" {
                prop_assert_eq!(out.code, 0, "{:?}: {}", run, out.stderr);
            } else if !fit {
                prop_assert_eq!(out.code, 1, "{:?}: {}", run, out.stderr);
                prop_assert!(out.stderr.contains(" holds "), "{}", out.stderr);
            }
        }
        // A `--set` value carries the same text into a scenario's document.
        let yaml = workload("t", "g", "d", "s");
        let value = format!("tables.t.patterns.g.description={}", quoted(&set));
        let out = ddbcost::api::run_in_memory(
            ["ddbcost", "compare", "-", "--alt", "x", "--set", &value],
            &yaml,
            20_791,
        );
        prop_assert!(!out.stderr.chars().any(acts), "stderr: {:?}", out.stderr);
        prop_assert!(!out.stdout.chars().any(acts), "stdout: {:?}", out.stdout);
        prop_assert_eq!(out.code == 0, !set.chars().any(acts), "{}", out.stderr);
    }
}
