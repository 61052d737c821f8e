//! What-if scenarios. A scenario is a partial workload document merged onto the baseline with
//! JSON Merge Patch semantics (RFC 7386) on the maps keyed by name. `steps` are cumulative,
//! each applied on top of the previous one (a story like CloudShop's); `alternatives` each
//! apply to the baseline; on the command line, `--alt NAME` followed by `--set path=value`s makes
//! a named alternative (the `--set`s before any `--alt` make one together).
//! `compare` joins the estimates' line items on their stable keys.
//!
//! This module works on documents and estimates only: no files, no printing.

mod compare;
pub(crate) mod patch;

pub(crate) use compare::compare;
pub use compare::{Comparison, ScenarioInput};
pub(crate) use compare::{Row, ScenarioResult, Waterfall};
pub(crate) use patch::{apply, check_names, merge_patch};

use serde_json::{Map, Value};

use crate::error::Error;
use crate::load::{self, SettingsOverrides, suggest, yaml};
use crate::model::Workload;
use crate::model::sample::SampleReader;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScenarioKind {
    /// Cumulative: applied on top of the previous step.
    Step,
    /// Applied to the baseline alone.
    Alternative,
}

impl ScenarioKind {
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            ScenarioKind::Step => "step",
            ScenarioKind::Alternative => "alternative",
        }
    }
}

/// A scenario's merged workload document.
#[derive(Debug, Clone)]
pub struct ScenarioDoc {
    pub name: String,
    pub description: Option<String>,
    pub kind: ScenarioKind,
    pub doc: Value,
}

/// `--set tables.orders.class=standard-ia` as a patch: the path's keys nest, the value is read
/// as YAML (`0.92`, `true`, `{ mode: provisioned, rcu: 10, wcu: 5 }`).
///
/// # Errors
/// No `=`, an empty path segment, or a value that is not YAML.
pub(crate) fn parse_set(arg: &str) -> Result<Value, Error> {
    let usage = |why: &str| {
        Error::usage(format!("--set `{arg}`: {why}"))
            .help("Consider `--set tables.orders.class=standard-ia` (a dotted path, `=`, a value).")
    };
    let (path, value) = arg
        .split_once('=')
        .ok_or_else(|| usage("expected PATH=VALUE"))?;
    let keys: Vec<&str> = path.trim().split('.').collect();
    if keys.iter().any(|k| k.trim().is_empty()) {
        return Err(usage("the path has an empty segment"));
    }
    let mut patch = yaml::parse_value(value, "--set").map_err(|e| usage(&e.message))?;
    for key in keys.iter().rev() {
        let mut map = Map::new();
        map.insert((*key).trim().to_string(), patch);
        patch = Value::Object(map);
    }
    Ok(patch)
}

/// The baseline document and the merged document of every scenario in `text` (a workload
/// file named `file`), then one alternative made of the `--set` patches, if any.
///
/// # Errors
/// Malformed YAML, a patch naming what does not exist, a duplicate scenario name.
pub(crate) fn scenario_documents(
    text: &str,
    file: &str,
    command_line: &[(String, Vec<String>)],
) -> Result<(Value, Vec<ScenarioDoc>), Error> {
    let mut base = yaml::parse_value(text, file)?;
    let scenarios = base
        .as_object_mut()
        .and_then(|m| m.shift_remove("scenarios"))
        .unwrap_or(Value::Null);
    let mut out: Vec<ScenarioDoc> = Vec::new();
    let add = |doc: ScenarioDoc, out: &mut Vec<ScenarioDoc>| -> Result<(), Error> {
        if doc.name == "baseline" || out.iter().any(|d| d.name == doc.name) {
            return Err(Error::input(format!(
                "scenario name `{}` is used twice (or is `baseline`)",
                doc.name
            ))
            .file(file)
            .path("scenarios")
            .help("Consider a distinct name for each scenario."));
        }
        out.push(doc);
        Ok(())
    };
    for (kind, key) in [
        (ScenarioKind::Step, "steps"),
        (ScenarioKind::Alternative, "alternatives"),
    ] {
        let mut current = base.clone();
        let list = scenarios
            .get(key)
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        for (i, s) in list.iter().enumerate() {
            let name = s
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string();
            // As the typed loader holds them (`advise` and `usage` read only these documents).
            for (field, value, is_name) in [
                ("name", Some(name.as_str()), true),
                (
                    "description",
                    s.get("description").and_then(Value::as_str),
                    false,
                ),
            ] {
                if let Some(Err(message)) = value.map(|v| crate::text::check(v, is_name)) {
                    return Err(Error::input(message)
                        .file(file)
                        .path(format!("scenarios.{key}[{i}].{field}"))
                        .help(crate::text::HELP));
                }
            }
            let origin = format!("scenario `{name}` (scenarios.{key}[{i}])");
            let patch = s.get("patch").cloned().unwrap_or(Value::Null);
            let start = if kind == ScenarioKind::Step {
                &current
            } else {
                &base
            };
            check_names(start, &patch, &origin, file)
                .map_err(|e| prefix_path(e, &format!("scenarios.{key}[{i}].patch")))?;
            let mut doc = start.clone();
            apply(&mut doc, &patch);
            if kind == ScenarioKind::Step {
                current = doc.clone();
            }
            let description = s
                .get("description")
                .and_then(Value::as_str)
                .map(str::to_string);
            add(
                ScenarioDoc {
                    name,
                    description,
                    kind,
                    doc,
                },
                &mut out,
            )?;
        }
    }
    for (name, sets) in command_line {
        if let Some(c) = name.chars().find(|&c| crate::text::unfit_for_name(c)) {
            return Err(Error::usage(format!(
                "--alt: the name \"{}\" holds {}",
                crate::text::one_line(name),
                crate::text::describe(c)
            ))
            .help(crate::text::HELP));
        }
        let mut doc = base.clone();
        for arg in sets {
            let patch = parse_set(arg)?;
            check_names(&doc, &patch, &format!("--set `{arg}`"), file).map_err(|e| Error {
                kind: crate::error::ErrorKind::Usage,
                ..e
            })?;
            apply(&mut doc, &patch);
        }
        add(
            ScenarioDoc {
                name: name.clone(),
                description: Some(sets.join(", ")),
                kind: ScenarioKind::Alternative,
                doc,
            },
            &mut out,
        )?;
    }
    Ok((base, out))
}

fn prefix_path(mut e: Error, prefix: &str) -> Error {
    let path = match e.path.take() {
        Some(p) => format!("{prefix}.{p}"),
        None => prefix.to_string(),
    };
    e.path(path)
}

/// The workload of a merged document: errors name the scenario of `label`; relative paths
/// start from `base`'s folder (samples measured by `samples`). Positions would point into the merged text, so they are left
/// out.
///
/// # Errors
/// The merged document is not a valid workload.
pub(crate) fn workload_of(
    doc: &ScenarioDoc,
    label: &str,
    base: &str,
    samples: &dyn SampleReader,
) -> Result<(Workload, SettingsOverrides), Error> {
    let label = format!("{label} (scenario `{}`)", doc.name);
    load::workload_from_value(doc.doc.clone(), base, &label, samples)
}

/// The positions of the scenarios named in `selected` (all when empty), in the workload's
/// order; unknown names are errors.
///
/// # Errors
/// A selected name no scenario has.
pub(crate) fn select(docs: &[ScenarioDoc], selected: &[String]) -> Result<Vec<usize>, Error> {
    let names: Vec<&str> = docs.iter().map(|d| d.name.as_str()).collect();
    for s in selected {
        if !names.contains(&s.as_str()) {
            return Err(
                Error::usage(format!("no scenario `{s}`")).help(suggest::consider(
                    s,
                    &names,
                    "scenarios",
                )),
            );
        }
    }
    Ok((0..docs.len())
        .filter(|&i| selected.is_empty() || selected.contains(&docs[i].name))
        .collect())
}
