//! Any text as infrastructure code through `ddbcost import`: CloudFormation (YAML/JSON with
//! intrinsics), serverless.yml, a Terraform plan, a `.tf` file (the first byte picks which);
//! the imported tables written as a workload and loaded back. Nothing may panic: numbers from
//! a template travel as text to the workload loader, which must refuse what it cannot read;
//! the written YAML must read back as the document (no name or note injects YAML), and
//! cycles and expansion bombs must end (the seeds hold each kind #23 found).
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
        _ => iac::hcl::import(text, "main.tf", &options, &mut out),
    };
    if ok.is_err() {
        return;
    }
    iac::settle(&mut out);
    for n in &out.notes {
        let _ = n.to_string();
    }
    let (doc, comments) = iac::workload::document(&out, "fuzz", Some("aws-us-east-1"));
    let header: Vec<String> = out.notes.iter().map(|n| n.to_string()).collect();
    let yaml = ddbcost::load::yaml::write::to_yaml(&doc, &comments, &header);
    // No text from the template may become YAML of its own: the file reads back as written.
    let read = ddbcost::load::yaml::parse_value(&yaml, "imported.yaml").expect("written YAML parses");
    ddbcost::load::yaml::write::reads_back(&doc, &read).expect("the imported workload reads back as written");
    if let Ok((w, _)) = ddbcost::load::parse_workload(&yaml, "imported.yaml") {
        let book = ddbcost::model::PriceBook {
            primary: ddbcost::load::prices::resolve("aws-us-east-1").expect("bundled"),
            others: ddbcost::load::prices::bundled().unwrap_or_default(),
        };
        let _ = ddbcost::engine::estimate(&w, &book, &ddbcost::model::Settings::default());
    }
});
