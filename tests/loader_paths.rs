//! The loader's two ways in agree: a workload's text read directly (`api::load`: the YAML
//! tree with positions) and the same text as a document (`api::parse_yaml` then
//! `api::load_value`: the path of every scenario and `--set`) accept and refuse the same
//! inputs and price what they accept the same. Inputs are the bundled workloads with one
//! value replaced by a value of any YAML kind, generated; every refusal is in the file's
//! words (never the name of a type inside ddbcost) and names a path the parser could reach.

use proptest::prelude::*;

mod common;

/// The bundled workloads whose files need nothing beside them.
fn bundled() -> Vec<(String, String)> {
    ["cloudshop", "saas-dashboard", "commitments-us-east-1"]
        .iter()
        .map(|name| {
            let path = common::root().join(format!("workloads/{name}.yaml"));
            (name.to_string(), std::fs::read_to_string(path).unwrap())
        })
        .collect()
}

/// A value of any kind YAML has, as it would be written after `key: `.
fn value() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("~".to_string()),
        Just("true".to_string()),
        Just("[]".to_string()),
        Just("{}".to_string()),
        Just("[1, x]".to_string()),
        Just("{ a: 1 }".to_string()),
        Just(".nan".to_string()),
        Just("1e400".to_string()),
        Just("-0".to_string()),
        Just("0x1F".to_string()),
        Just("1_000".to_string()),
        Just("\"5\"".to_string()),
        Just("7".to_string()),
        Just("2.5".to_string()),
        Just("12M".to_string()),
        Just("3 KB".to_string()),
        Just("40/s".to_string()),
        Just("get".to_string()),
        Just("strong".to_string()),
        Just("eventual".to_string()),
        Just("provisioned".to_string()),
        Just("on-demand".to_string()),
        "[a-z0-9 ./%-]{0,12}",
    ]
}

/// `text` with the value of its `line`-th `key: value` line (counted among those) replaced.
fn replace_value(text: &str, line: usize, value: &str) -> String {
    let candidates: Vec<usize> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| {
            let t = l.trim_start();
            !t.starts_with('#')
                && !t.starts_with('-')
                && t.split_once(": ")
                    .is_some_and(|(k, v)| !k.contains(' ') && !v.trim().is_empty())
        })
        .map(|(i, _)| i)
        .collect();
    let at = candidates[line % candidates.len()];
    text.lines()
        .enumerate()
        .map(|(i, l)| {
            if i == at {
                let (key, _) = l.split_once(": ").unwrap();
                format!("{key}: {value}")
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn text_and_document_load_alike(which in 0usize..3, line in 0usize..1000, v in value()) {
        let (name, text) = &bundled()[which];
        let text = replace_value(text, line, &v);
        let file = format!("{name}.yaml");
        let direct = ddbcost::api::load(&text, &file);
        let document = ddbcost::api::parse_yaml(&text, &file)
            .and_then(|doc| ddbcost::api::load_value(doc, &file));
        match (&direct, &document) {
            (Ok((a, _)), Ok((b, _))) => {
                let book = ddbcost::api::prices(a.prices.as_deref().unwrap_or("aws-us-east-1"));
                if let Ok(book) = book {
                    let settings = ddbcost::api::Settings::default();
                    let ta = ddbcost::api::estimate(a, &book, &settings).map(|e| e.total);
                    let tb = ddbcost::api::estimate(b, &book, &settings).map(|e| e.total);
                    prop_assert_eq!(ta.ok(), tb.ok(), "{}", text);
                }
            }
            (Err(a), Err(b)) => {
                for e in [a, b] {
                    let json = e.to_json();
                    let message = json["message"].as_str().unwrap_or_default();
                    prop_assert!(!message.is_empty());
                    for internal in ["Raw", "struct ", "enum "] {
                        prop_assert!(!message.contains(internal), "{}\n{}", message, text);
                    }
                    if let Some(path) = json["path"].as_str() {
                        prop_assert!(!path.contains('?'), "{}", path);
                    }
                    if let Some(line) = json["line"].as_u64() {
                        prop_assert!(line >= 1 && line <= text.lines().count() as u64 + 1, "line {}", line);
                    }
                }
                // The same refusal, whichever way in (the document has no positions, and
                // holds a number as its text: `integer `5`` there is `string "5"`).
                let words = |e: &ddbcost::api::Error| {
                    let message = e.to_json()["message"].as_str().unwrap_or_default().to_string();
                    match message.split_once("invalid type: ") {
                        Some((before, rest)) => format!("{before}invalid type: … {}", rest.split_once(", expected").map_or("", |r| r.1)),
                        None => message,
                    }
                };
                prop_assert_eq!(words(a), words(b), "{}", text);
            }
            _ => prop_assert!(false, "one way in accepts what the other refuses:\n{:?}\n{:?}\n{}", direct.as_ref().err(), document.as_ref().err(), text),
        }
    }
}
