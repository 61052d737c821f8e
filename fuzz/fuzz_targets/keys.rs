//! Any bytes as an access log, as a keys summary to merge, or as an item whose key values are
//! kept: reading, counting, the spread, the verdict at extreme peaks and the reports must
//! not panic.
#![no_main]
use ddbcost::api::keys::{
    assess, count_log, render_json, render_markdown, render_table, spread, KeysSummary, Layout,
    LogColumns, Page, Peak, SummaryIn,
};
use ddbcost::api::size::{item_keys, IndexProjection, IndexSpec, Shape};
use libfuzzer_sys::fuzz_target;
use rust_decimal::Decimal;

fn report(s: &KeysSummary) {
    let mut reports = Vec::new();
    for (i, a) in s.attributes.iter().enumerate() {
        let peak = Peak {
            reads: if i == 0 { Decimal::MAX } else { Decimal::ZERO },
            writes: Decimal::new(12345, 1),
            from: String::new(),
        };
        if let Ok(r) = assess(a, spread(&a.counter), Some(peak), s.has_lsi) {
            reports.push(r);
        }
    }
    if reports.len() == s.attributes.len() {
        let sharding = vec![None; reports.len()];
        let dax = vec![None; reports.len()];
        let page = Page {
            summary: s,
            reports: &reports,
            sharding: &sharding,
            dax: &dax,
        };
        let _ = render_table(&page);
        let _ = render_markdown(&page);
        let _ = render_json(&page, &mut std::io::sink());
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let layout = Layout {
        partition: "pk".into(),
        sort: Some("sk".into()),
        globals: vec![IndexSpec {
            name: "g".into(),
            keys: vec!["gpk".into()],
            projection: IndexProjection::KeysOnly,
        }],
        locals: Vec::new(),
    };
    match mode % 3 {
        0 => {
            let mut s = KeysSummary::new(&layout);
            let columns = LogColumns {
                key: "pk".into(),
                operation: "operation".into(),
                units: "units".into(),
                size: "item_size".into(),
                index: "index".into(),
            };
            if count_log("fuzz", Box::new(rest), &columns, &mut s).is_ok() {
                report(&s);
            }
        }
        1 => {
            if let Ok(doc) = serde_json::from_slice::<SummaryIn>(rest)
                && let Ok(s) = doc.into_summary()
            {
                let mut twice = s.clone();
                if twice.merge(&s).is_ok() {
                    report(&twice);
                }
            }
        }
        _ => {
            let wanted = ["gpk".to_string(), "pk".to_string(), "sk".to_string()];
            let _ = item_keys(rest, Shape::DynamoDb, &wanted);
            let _ = item_keys(rest, Shape::Plain, &wanted);
        }
    }
});
