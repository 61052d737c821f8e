//! AWS CDK: the templates `cdk synth` writes to `cdk.out/` (`*.template.json`). Each top-level
//! stack is imported as CloudFormation, and nested stacks (`AWS::CloudFormation::Stack` whose
//! `aws:asset:path` names a template in the folder) are followed with the parameters their
//! parent passes, where those are literals.

use std::path::Path;

use serde_json::Value;

use super::{Options, cloudformation};
use crate::error::Error;
use crate::load::yaml;

/// How deep nested stacks are followed.
const MAX_NESTING: usize = 8;

/// Imports every stack in the `cdk.out` folder `dir`.
///
/// # Errors
/// The folder cannot be read or holds no template, or a template is malformed.
pub fn import(dir: &Path, options: &Options, out: &mut super::Imported) -> Result<(), Error> {
    let shown = dir.display().to_string();
    let mut files: Vec<String> = std::fs::read_dir(dir)
        .map_err(|e| Error::input(format!("`{shown}` cannot be read ({e})")).file(&shown))?
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".template.json"))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(
            Error::input(format!("`{shown}` holds no `*.template.json`"))
                .file(&shown)
                .help("Consider running `cdk synth` first; its output folder is `cdk.out`."),
        );
    }
    let mut templates = Vec::new();
    for name in &files {
        let path = dir.join(name);
        let file = path.display().to_string();
        let text = crate::load::read_file(&file)?;
        templates.push((
            name.clone(),
            file.clone(),
            yaml::parse_template(&text, &file)?,
        ));
    }
    // Nested templates are reached from their parents, not read on their own.
    let nested: Vec<String> = templates
        .iter()
        .flat_map(|(_, _, t)| nested_stacks(&t.value))
        .map(|(asset, _)| asset)
        .collect();
    for (name, _, _) in templates.iter().filter(|(n, _, _)| !nested.contains(n)) {
        follow(name, &templates, options, out, 0);
    }
    Ok(())
}

/// The nested stacks of a template: (asset file name, the `Parameters` passed).
fn nested_stacks(doc: &Value) -> Vec<(String, Value)> {
    let Some(resources) = doc.get("Resources").and_then(Value::as_object) else {
        return Vec::new();
    };
    resources
        .values()
        .filter(|r| r.get("Type").and_then(Value::as_str) == Some("AWS::CloudFormation::Stack"))
        .filter_map(|r| {
            let asset = r.pointer("/Metadata/aws:asset:path")?.as_str()?.to_string();
            let params = r
                .pointer("/Properties/Parameters")
                .cloned()
                .unwrap_or(Value::Null);
            Some((asset, params))
        })
        .collect()
}

fn follow(
    name: &str,
    templates: &[(String, String, yaml::Template)],
    options: &Options,
    out: &mut super::Imported,
    depth: usize,
) {
    let Some((_, file, t)) = templates.iter().find(|(n, _, _)| n == name) else {
        return;
    };
    cloudformation::import_doc(&t.value, file, &t.lines, options, "", out);
    if depth >= MAX_NESTING {
        return;
    }
    let parent = cloudformation::Cfn::new(&t.value, file, &t.lines, options, "");
    for (asset, params) in nested_stacks(&t.value) {
        let mut child = options.clone();
        if let Some(p) = params.as_object() {
            for (k, v) in p {
                if let Ok(Value::String(s)) = parent.eval(v) {
                    child.parameters.push((k.clone(), s));
                }
            }
        }
        follow(&asset, templates, &child, out, depth.saturating_add(1));
    }
}
