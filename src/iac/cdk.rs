//! AWS CDK: the templates `cdk synth` writes to `cdk.out/` (`*.template.json`). Each top-level
//! stack is imported as CloudFormation, and nested stacks (`AWS::CloudFormation::Stack` whose
//! `aws:asset:path` names a template in the folder) are followed with the parameters their
//! parent passes, where those are literals.

use std::path::Path;

use serde_json::Value;

use super::{Options, cloudformation};
use crate::error::Error;
use crate::load::yaml;

/// How deep nested stacks are followed (CloudFormation's own limit is 5 levels; CDK apps
/// rarely pass 3).
const MAX_NESTING: usize = 8;
/// Stacks imported from one folder, nested ones included: a nested stack used by many parents
/// is imported once for each, and this stops a fan-out that multiplies at every level.
const MAX_STACKS: usize = 1_000;

/// Imports every stack in the `cdk.out` folder `dir`.
///
/// # Errors
/// The folder cannot be read or holds no template, or a template is malformed.
pub(crate) fn import(
    dir: &Path,
    options: &Options,
    out: &mut super::Imported,
) -> Result<(), Error> {
    let shown = dir.display().to_string();
    let files: Vec<String> = crate::confine::read_dir(dir)
        .map_err(|e| Error::input(format!("`{shown}` cannot be read ({e})")).file(&shown))?
        .into_iter()
        .filter_map(|e| e.path.file_name().map(|n| n.to_string_lossy().into_owned()))
        .filter(|n| n.ends_with(".template.json"))
        .collect();
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
        let text = crate::load::read_input(&file, crate::load::InputKind::Template)?;
        templates.push((
            name.clone(),
            file.clone(),
            yaml::parse_template(&text, &file)?,
        ));
    }
    // Nested templates are reached from their parents, not read on their own; a template
    // only ever reached from a cycle of templates that nest each other has no parent outside
    // it, and is read on its own (with a note), so no table is lost.
    let nested: Vec<String> = templates
        .iter()
        .flat_map(|(_, _, t)| nested_stacks(&t.value))
        .map(|(asset, _)| asset)
        .collect();
    let mut walk = Walk {
        templates: &templates,
        reached: std::collections::HashSet::new(),
        stacks: 0,
    };
    for (name, _, _) in templates.iter().filter(|(n, _, _)| !nested.contains(n)) {
        walk.follow(name, options, out, &mut Vec::new());
    }
    for (name, file, _) in &templates {
        if !walk.reached.contains(name.as_str()) {
            out.notes.push(super::Note {
                file: file.clone(),
                line: None,
                path: name.clone(),
                message: "nested only by templates that it nests itself (a cycle): read as a stack of its own".into(),
            });
            walk.follow(name, options, out, &mut Vec::new());
        }
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

/// Follows nested stacks from a template, each chain without repeats.
struct Walk<'a> {
    templates: &'a [(String, String, yaml::Template)],
    reached: std::collections::HashSet<&'a str>,
    stacks: usize,
}

impl Walk<'_> {
    fn follow(
        &mut self,
        name: &str,
        options: &Options,
        out: &mut super::Imported,
        chain: &mut Vec<String>,
    ) {
        let templates = self.templates;
        let Some((n, file, t)) = templates.iter().find(|(n, _, _)| n == name) else {
            return;
        };
        let stop = |why: String| super::Note {
            file: file.clone(),
            line: None,
            path: name.to_string(),
            message: why,
        };
        if chain.iter().any(|c| c == name) {
            out.notes.push(stop(format!(
                "nests itself ({} → {name}): not followed again",
                chain.join(" → ")
            )));
            return;
        }
        if self.stacks >= MAX_STACKS {
            out.notes.push(stop(format!(
                "more than {MAX_STACKS} stacks in one folder (nested stacks that multiply?): not read"
            )));
            return;
        }
        self.stacks = self.stacks.saturating_add(1);
        self.reached.insert(n.as_str());
        cloudformation::import_doc(&t.value, file, &t.lines, options, "", out);
        if chain.len() >= MAX_NESTING {
            out.notes.push(stop(format!(
                "nested more than {MAX_NESTING} deep: its nested stacks are not read"
            )));
            return;
        }
        let parent = cloudformation::Cfn::new(&t.value, file, &t.lines, options, "");
        chain.push(name.to_string());
        for (asset, params) in nested_stacks(&t.value) {
            let mut child = options.clone();
            if let Some(p) = params.as_object() {
                for (k, v) in p {
                    if let Ok(Value::String(s)) = parent.eval(v) {
                        child.parameters.push((k.clone(), s));
                    }
                }
            }
            self.follow(&asset, &child, out, chain);
        }
        chain.pop();
    }
}
