//! Terraform modules and folders in `.tf` files. One module is one folder: a file's
//! variables, locals and AWS provider are read from every `.tf` file beside it. A `module`
//! block whose `source` is a local folder (`./dynamo-db`) or a module `terraform init`
//! placed in `.terraform/modules` (found through its `modules.json`) is read as Terraform
//! reads it — every `.tf` file of that folder, its `variable` defaults overridden by the
//! arguments the block passes (evaluated where the block is), its resources addressed
//! `module.NAME.…` — and so are the modules it calls, to `MAX_DEPTH`, never a folder twice
//! in one chain. The root module's `provider "aws"` `region` applies to every table that
//! states none. What a static reading cannot follow (a remote source never initialised,
//! `count` or `for_each` on a module) is said in a note pointing to `terraform show -json`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use hcl::expr::Expression;
use hcl::structure::Body;
use serde_json::Value;

use super::{Lines, Resources, literal, resolve, scalar_text};
use crate::error::Error;
use crate::iac::{Imported, Note, Options};

/// Modules calling modules: real configurations nest two or three.
pub(super) const MAX_DEPTH: usize = 8;
/// `.tf` files read from one folder.
pub(super) const MAX_FILES: usize = 500;
/// Module calls followed in one import: a folder may be called many times (fan-out), and
/// eight levels of ten calls each would otherwise be 10^8 reads.
pub(super) const MAX_CALLS: usize = 1_000;

/// A `module` block being read: how its resources are addressed and what it was given.
pub(crate) struct Call {
    /// `module.orders.` (nested: `module.app.module.orders.`).
    pub prefix: String,
    /// The module's key in `.terraform/modules/modules.json` (`orders`, `app.orders`).
    key: String,
    /// The arguments the block passes, as values.
    args: HashMap<String, Value>,
    /// The root module's AWS provider region.
    pub region: Option<String>,
    /// The folders being read, outermost first.
    chain: Vec<PathBuf>,
    /// The root module's folder (where `.terraform` is).
    root: PathBuf,
    /// Module calls followed so far in this import (shared by every level).
    calls: std::rc::Rc<std::cell::Cell<usize>>,
}

impl Call {
    /// The module's variables: each `default`, then the arguments the block passes.
    pub(crate) fn variables(&self, siblings: &[Body], body: &Body) -> HashMap<String, Value> {
        let mut vars = super::defaults(siblings.iter().chain(std::iter::once(body)));
        vars.extend(self.args.clone());
        vars
    }
}

fn folder_of(file: &str) -> PathBuf {
    Path::new(file)
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
        .to_path_buf()
}

/// The `.tf` files of `dir`, in name order.
fn tf_files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = crate::confine::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .into_iter()
        .filter(|e| e.meta.is_file && e.path.extension().is_some_and(|e| e == "tf"))
        .map(|e| e.path)
        .collect();
    files.truncate(MAX_FILES);
    files
}

/// The other `.tf` files of `file`'s folder, parsed (those that parse).
pub(super) fn siblings(file: &str) -> Vec<Body> {
    let own = Path::new(file).file_name();
    tf_files(&folder_of(file))
        .iter()
        .filter(|p| p.file_name() != own)
        .filter_map(|p| {
            let text =
                crate::load::read_input(&p.display().to_string(), crate::load::InputKind::Template)
                    .ok()?;
            hcl::parse(&text).ok()
        })
        .collect()
}

/// The `region` of the default `provider "aws"` (one without `alias`) in the folder.
pub(super) fn provider_region(
    body: &Body,
    siblings: &[Body],
    index: &Resources<'_>,
) -> Option<String> {
    siblings
        .iter()
        .chain(std::iter::once(body))
        .flat_map(Body::blocks)
        .filter(|b| {
            b.identifier.as_str() == "provider"
                && b.labels.first().is_some_and(|l| l.as_str() == "aws")
                && !b.body.attributes().any(|a| a.key.as_str() == "alias")
        })
        .find_map(|b| {
            let e = b.body.attributes().find(|a| a.key.as_str() == "region")?;
            scalar_text(&resolve(&literal(&e.expr, None).ok()?, index)?)
        })
}

/// Where `terraform init` placed the module keyed `key` under `root`, from
/// `.terraform/modules/modules.json`.
fn initialised(root: &Path, key: &str) -> Option<PathBuf> {
    let manifest = root.join(".terraform/modules/modules.json");
    let text = crate::load::read_input(
        &manifest.display().to_string(),
        crate::load::InputKind::Template,
    )
    .ok()?;
    let doc: Value = serde_json::from_str(&text).ok()?;
    let dir = doc
        .get("Modules")?
        .as_array()?
        .iter()
        .find(|m| m.get("Key").and_then(Value::as_str) == Some(key))?
        .get("Dir")?
        .as_str()?;
    Some(tidy(&root.join(dir)))
}

/// `path` without its `.` components (`././x` is `x`), for messages.
fn tidy(path: &Path) -> PathBuf {
    let out: PathBuf = path
        .components()
        .filter(|c| !matches!(c, std::path::Component::CurDir))
        .collect();
    if out.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        out
    }
}

/// A module call's arguments, evaluated where the block is (its variables, locals,
/// resources); one ddbcost cannot read is left to the module's default, with a note.
fn arguments(
    attrs: &[(&str, &Expression)],
    index: &Resources<'_>,
    notes: &mut Vec<Note>,
    note: &dyn Fn(String) -> Note,
) -> HashMap<String, serde_json::Value> {
    let mut args = HashMap::new();
    for (k, e) in attrs {
        if matches!(
            *k,
            "source" | "version" | "count" | "for_each" | "providers" | "depends_on"
        ) {
            continue;
        }
        match literal(e, None).ok().and_then(|v| resolve(&v, index)) {
            Some(v) => {
                args.insert((*k).to_string(), v);
            }
            None => notes.push(note(format!(
                "argument `{k}` is not a value ddbcost can read here: the module's default applies, if any"
            ))),
        }
    }
    args
}

/// Reads every module `body` (the file `file`, read in `call`'s scope or as the root) calls.
///
/// # Errors
/// A module's file that cannot be read or is not HCL.
#[allow(clippy::too_many_arguments)]
pub(super) fn follow(
    body: &Body,
    lines: &Lines,
    file: &str,
    options: &Options,
    call: Option<&Call>,
    index: &Resources<'_>,
    region: Option<&str>,
    out: &mut Imported,
) -> Result<(), Error> {
    let prefix = call.map_or("", |c| c.prefix.as_str());
    let calls = call.map_or_else(std::rc::Rc::default, |c| std::rc::Rc::clone(&c.calls));
    let module_lines = lines.starts.get("module").cloned().unwrap_or_default();
    let blocks = body.blocks().filter(|b| b.identifier.as_str() == "module");
    for (n, b) in blocks.enumerate() {
        let Some(name) = b.labels.first().map(|l| l.as_str().to_string()) else {
            continue;
        };
        let line = module_lines.get(n).and_then(|l| u64::try_from(*l).ok());
        let note = |message: String| Note {
            file: file.to_string(),
            line,
            path: format!("{prefix}module.{name}"),
            message,
        };
        let attrs: Vec<(&str, &Expression)> = b
            .body
            .attributes()
            .map(|a| (a.key.as_str(), &a.expr))
            .collect();
        let get = |k: &str| attrs.iter().find(|(a, _)| *a == k).map(|(_, e)| *e);
        let Some(source) = get("source")
            .and_then(|e| literal(e, None).ok())
            .and_then(|v| v.as_str().map(str::to_string))
        else {
            out.notes.push(note(
                "a module without a literal `source`: skipped (`terraform show -json` of a plan has its resources)".into(),
            ));
            continue;
        };
        if get("count").is_some() || get("for_each").is_some() {
            out.notes.push(note("`count`/`for_each` on a module is not expanded here: read once (`terraform show -json` of a plan gives every instance)".into()));
        }
        let key = call.map_or_else(|| name.clone(), |c| format!("{}.{name}", c.key));
        let root = call.map_or_else(|| folder_of(file), |c| c.root.clone());
        let dir = if source.starts_with("./") || source.starts_with("../") {
            tidy(&folder_of(file).join(&source))
        } else if let Some(dir) = initialised(&root, &key) {
            dir
        } else {
            out.notes.push(note(format!(
                "module `{name}` comes from `{source}`, which `terraform init` has not placed in `.terraform/modules`: skipped (run `terraform init` first, or import `terraform show -json` of a plan)"
            )));
            continue;
        };
        let Ok(folder) = dir.canonicalize() else {
            out.notes.push(note(format!(
                "module source `{source}` is not a folder here ({}): skipped",
                dir.display()
            )));
            continue;
        };
        // The root module's own folder is the first of the chain.
        let mut chain = call.map_or_else(
            || folder_of(file).canonicalize().into_iter().collect(),
            |c| c.chain.clone(),
        );
        if chain.contains(&folder) {
            out.notes.push(note(format!(
                "module `{name}` calls a folder already being read ({}): a cycle, skipped",
                folder.display()
            )));
            continue;
        }
        if chain.len() >= MAX_DEPTH {
            out.notes.push(note(format!(
                "modules nest deeper than {MAX_DEPTH}: `{name}` skipped"
            )));
            continue;
        }
        calls.set(calls.get().saturating_add(1));
        if calls.get() > MAX_CALLS {
            out.notes.push(note(format!(
                "more than {MAX_CALLS} module calls in one import: `{name}` and the rest skipped"
            )));
            return Ok(());
        }
        chain.push(folder.clone());
        let args = arguments(&attrs, index, &mut out.notes, &note);
        let child = Call {
            prefix: format!("{prefix}module.{name}."),
            key,
            args,
            region: region.map(str::to_string),
            chain,
            root,
            calls: std::rc::Rc::clone(&calls),
        };
        // Listed through the path as written (shown relative), checked through the folder.
        let files = tf_files(&dir);
        if files.is_empty() {
            out.notes.push(note(format!(
                "the module folder {} holds no `.tf` file",
                folder.display()
            )));
        }
        for f in files {
            let shown = f.display().to_string();
            let text = crate::load::read_input(&shown, crate::load::InputKind::Template)?;
            super::import_scoped(&text, &shown, options, Some(&child), out)?;
        }
    }
    Ok(())
}
