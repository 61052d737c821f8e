//! Any text as infrastructure code through `ddbcost import`: CloudFormation (YAML/JSON with
//! intrinsics), serverless.yml, a Terraform plan, a `.tf` file, or the AWS CLI's description
//! of a live table (the first byte picks which);
//! the imported tables written as a workload and loaded back. Nothing may panic: numbers from
//! a template travel as text to the workload loader, which must refuse what it cannot read;
//! the written YAML must read back as the document (no name or note injects YAML), and
//! cycles and expansion bombs must end (the seeds hold each kind #23 found).
#![no_main]
use ddbcost::api::import::{Options, Source, reads_back, template_text, workload_yaml};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((kind, rest)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let options = Options { parameters: vec![("Env".into(), "prod".into())], region: Some("us-east-1".into()) };
    let (source, file) = match kind % 5 {
        0 => (Source::CloudFormation, "t.yaml"),
        1 => (Source::Serverless, "serverless.yml"),
        2 => (Source::TerraformPlan, "plan.json"),
        3 => (Source::Terraform, "main.tf"),
        _ => (Source::Live, "describe-table.json"),
    };
    let Ok(out) = template_text(source, text, file, &options) else { return };
    for n in &out.notes {
        let _ = n.to_string();
    }
    let (doc, yaml) = workload_yaml(&out, "fuzz", Some("aws-us-east-1"));
    // No text from the template may become YAML of its own: the file reads back as written.
    reads_back(&doc, &yaml).expect("the imported workload reads back as written");
    if let Ok((w, _)) = ddbcost::api::load(&yaml, "imported.yaml") {
        let book = ddbcost::api::prices("aws-us-east-1").expect("bundled");
        let _ = ddbcost::api::estimate(&w, &book, &ddbcost::api::Settings::default());
    }
});
