//! Any text as infrastructure code through `ddbcost import`: CloudFormation (YAML/JSON with
//! intrinsics), serverless.yml, a Terraform plan, a `.tf` file (the first byte picks which);
//! the imported tables written as a workload and loaded back. Nothing may panic: numbers from
//! a template travel as text to the workload loader, which must refuse what it cannot read.
#![no_main]
use ddbcost::iac::{self, Imported, Options};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((kind, rest)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let options = Options { parameters: vec![("Env".into(), "prod".into())], region: Some("us-east-1".into()) };
    let mut out = Imported::default();
    let ok = match kind % 4 {
        0 => iac::cloudformation::import(text, "t.yaml", &options, &mut out),
        1 => iac::serverless::import(text, "serverless.yml", &options, &mut out),
        2 => iac::terraform::import(text, "plan.json", &mut out),
        _ => iac::hcl::import(text, "main.tf", &mut out),
    };
    if ok.is_err() {
        return;
    }
    for n in &out.notes {
        let _ = n.to_string();
    }
    let (doc, comments) = iac::workload::document(&out, "fuzz", Some("aws-us-east-1"));
    let yaml = iac::workload::to_yaml(&doc, &comments, &["fuzz".to_string()]);
    if let Ok((w, _)) = ddbcost::load::parse_workload(&yaml, "imported.yaml") {
        let book = ddbcost::model::PriceBook {
            primary: ddbcost::load::prices::resolve("aws-us-east-1").expect("bundled"),
            others: ddbcost::load::prices::bundled().unwrap_or_default(),
        };
        let _ = ddbcost::engine::estimate(&w, &book, &ddbcost::model::Settings::default());
    }
});
