//! Plain Terraform files (`.tf`, HCL, parsed with `hcl-rs`): the resources a plan would show,
//! from their literal attributes. References between resources are followed where they end
//! at a literal (`aws_dynamodb_table.orders.name`, `"table/${aws_dynamodb_table.orders.name}"`,
//! `aws_appautoscaling_target.read.resource_id`); any other expression (a variable, a function
//! call, a conditional) is reported with its file and line and the attribute skipped. The
//! resources then read exactly as a plan's (`terraform`).

use std::collections::HashMap;

use hcl::expr::{Expression, TemplateExpr, TraversalOperator};
use hcl::structure::{Block, Body};
use serde_json::{Map, Value, json};

use super::Note;
use super::budget::Budget;

mod modules;
use crate::error::Error;

/// An expression kept for the second pass: a reference (`a.b.c`) or a template with
/// references, and the line it is on.
const EXPR: &str = "\u{1}expr";
/// A conditional kept for the second pass: `[condition, if true, if false]`.
const IF: &str = "\u{1}if";

/// Where words start lines, built in one pass so that finding an attribute's line costs a
/// binary search, not a scan of the file (a 1 MB `.tf` has tens of thousands of them).
struct Lines {
    /// First word of a line (`read_capacity`, `resource`, `ttl`) → its 1-based line numbers.
    starts: HashMap<String, Vec<usize>>,
    /// `"kind" "name"` of each `resource` header → its line.
    headers: HashMap<(String, String), usize>,
}

impl Lines {
    fn new(text: &str) -> Self {
        let mut starts: HashMap<String, Vec<usize>> = HashMap::new();
        let mut headers = HashMap::new();
        for (i, l) in text.lines().enumerate() {
            let n = i.saturating_add(1);
            let t = l.trim_start();
            let word: String = t
                .chars()
                .take_while(|c| c.is_alphanumeric() || matches!(c, '_' | '-'))
                .collect();
            if word.is_empty() {
                continue;
            }
            let after = t[word.len()..].trim_start();
            if word == "resource" {
                let labels: Vec<&str> = after.split('"').skip(1).step_by(2).take(2).collect();
                if let [kind, name] = labels.as_slice() {
                    headers
                        .entry(((*kind).to_string(), (*name).to_string()))
                        .or_insert(n);
                }
            }
            if after.is_empty()
                || after.starts_with(['=', '{', '"'])
                || t[word.len()..].starts_with(' ')
            {
                starts.entry(word).or_default().push(n);
            }
        }
        Lines { starts, headers }
    }

    /// The 1-based line of the first line at or after `from` that starts (after spaces) with
    /// `word`.
    fn line_of(&self, from: usize, word: &str) -> Option<usize> {
        let lines = self.starts.get(word)?;
        let at = lines.partition_point(|l| *l < from);
        lines.get(at).copied()
    }
}

fn traversal_text(t: &hcl::expr::Traversal) -> Option<String> {
    let Expression::Variable(v) = &t.expr else {
        return None;
    };
    let mut out = v.as_str().to_string();
    for op in &t.operators {
        match op {
            TraversalOperator::GetAttr(id) => {
                out.push('.');
                out.push_str(id.as_str());
            }
            _ => return None,
        }
    }
    Some(out)
}

/// A literal expression as JSON; references and templates as `EXPR` markers; anything else
/// `Err` with what it is.
fn literal(e: &Expression, line: Option<usize>) -> Result<Value, String> {
    Ok(match e {
        Expression::Null => Value::Null,
        Expression::Bool(b) => Value::Bool(*b),
        // Numbers as their text (an integer's digits; a fraction's shortest decimal form).
        Expression::Number(n) => Value::String(n.to_string()),
        Expression::String(s) => Value::String(s.clone()),
        Expression::Array(items) => Value::Array(
            items
                .iter()
                .map(|i| literal(i, line))
                .collect::<Result<_, _>>()?,
        ),
        Expression::Object(o) => {
            let mut m = Map::new();
            for (k, v) in o {
                m.insert(k.to_string(), literal(v, line)?);
            }
            Value::Object(m)
        }
        Expression::Traversal(t) => match traversal_text(t) {
            Some(r) => json!({ EXPR: r, "line": line }),
            None => return Err("an indexed or splat reference".into()),
        },
        Expression::TemplateExpr(t) => match t.as_ref() {
            TemplateExpr::QuotedString(s) => json!({ EXPR: format!("\"{s}\""), "line": line }),
            TemplateExpr::Heredoc(_) => return Err("a heredoc".into()),
        },
        Expression::Parenthesis(inner) => literal(inner, line)?,
        Expression::Variable(v) => return Err(format!("the variable `{}`", v.as_str())),
        // Conversions of a literal are that literal (`toset(["a", "b"])`).
        Expression::FuncCall(f)
            if matches!(f.name.name.as_str(), "toset" | "tolist" | "tomap")
                && f.args.len() == 1 =>
        {
            literal(&f.args[0], line)?
        }
        Expression::FuncCall(f) => return Err(format!("a call of `{}`", f.name)),
        // `cond ? a : b`, decided once `cond` resolves (a variable's default, a literal).
        Expression::Conditional(c) => json!({ IF: [
            literal(&c.cond_expr, line)?,
            literal(&c.true_expr, line)?,
            literal(&c.false_expr, line)?,
        ], "line": line }),
        Expression::Operation(_) => return Err("an operation".into()),
        Expression::ForExpr(_) => return Err("a `for` expression".into()),
        _ => return Err("an expression ddbcost does not evaluate".into()),
    })
}

/// A block's body as a plan's `values`: attributes by name, nested blocks as lists.
fn values(
    body: &Body,
    lines: &Lines,
    from: usize,
    at: &str,
    file: &str,
    notes: &mut Vec<Note>,
) -> Value {
    let mut m = Map::new();
    for a in body.attributes() {
        let key = a.key.as_str();
        let line = lines.line_of(from, key);
        match literal(&a.expr, line) {
            Ok(v) => {
                m.insert(key.to_string(), v);
            }
            Err(what) => notes.push(Note {
                file: file.to_string(),
                line: line.and_then(|l| u64::try_from(l).ok()),
                path: format!("{at}.{key}"),
                message: format!("{what} is not a literal; skipped"),
            }),
        }
    }
    for b in body.blocks() {
        let key = b.identifier.as_str();
        let inner_from = lines.line_of(from, key).unwrap_or(from);
        let v = values(
            &b.body,
            lines,
            inner_from,
            &format!("{at}.{key}"),
            file,
            notes,
        );
        if let Value::Array(list) = m
            .entry(key.to_string())
            .or_insert_with(|| Value::Array(Vec::new()))
        {
            list.push(v);
        }
    }
    Value::Object(m)
}

/// A resource block's address and header line.
fn resource(b: &Block, lines: &Lines) -> Option<(String, String, usize)> {
    if b.identifier.as_str() != "resource" {
        return None;
    }
    let [kind, name] = b.labels.as_slice() else {
        return None;
    };
    let (kind, name) = (kind.as_str(), name.as_str());
    let header = lines
        .headers
        .get(&(kind.to_string(), name.to_string()))
        .copied()
        .unwrap_or(1);
    Some((kind.to_string(), format!("{kind}.{name}"), header))
}

/// The resources of a file by address, its variables (`var.NAME`: `--parameter`, then
/// `terraform.tfvars` and `*.auto.tfvars` beside it, then the `default`) and locals
/// (`local.NAME`), and the budget their references are followed in.
struct Resources<'a> {
    all: &'a [(String, String, Value)],
    by_address: HashMap<&'a str, usize>,
    vars: HashMap<String, Value>,
    locals: HashMap<String, Value>,
    budget: Budget,
}

impl<'a> Resources<'a> {
    fn new(
        all: &'a [(String, String, Value)],
        vars: HashMap<String, Value>,
        locals: HashMap<String, Value>,
    ) -> Self {
        Resources {
            all,
            by_address: all
                .iter()
                .enumerate()
                .map(|(i, (_, a, _))| (a.as_str(), i))
                .collect(),
            vars,
            locals,
            budget: Budget::new(),
        }
    }
}

/// A scalar's text (`5`, `true`, `orders`); `None` for lists, maps and null.
fn scalar_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// The value a reference (`aws_dynamodb_table.orders.name`, `var.env`, `local.prefix`) ends
/// at: a reference that reaches itself, or one that fans out past the budget, ends nowhere.
fn follow(reference: &str, resources: &Resources<'_>) -> Option<Value> {
    let _level = resources.budget.enter(reference).ok()?;
    if let Some(name) = reference.strip_prefix("var.") {
        return resolve(resources.vars.get(name)?, resources);
    }
    if let Some(name) = reference.strip_prefix("local.") {
        return resolve(resources.locals.get(name)?, resources);
    }
    let (address, attribute) = reference.rsplit_once('.')?;
    let (kind, _, values) = &resources.all[*resources.by_address.get(address)?];
    // A table's `id` is its name.
    let attribute = if kind == "aws_dynamodb_table" && attribute == "id" {
        "name"
    } else {
        attribute
    };
    resolve(values.get(attribute)?, resources)
}

/// `v` with its markers resolved, or `None` when one cannot be.
fn resolve(v: &Value, resources: &Resources<'_>) -> Option<Value> {
    let _level = resources.budget.step().ok()?;
    match v {
        Value::Object(m) if m.contains_key(IF) => {
            let parts = m[IF].as_array()?;
            let branch = match scalar_text(&resolve(parts.first()?, resources)?)?.as_str() {
                "true" => parts.get(1)?,
                "false" => parts.get(2)?,
                _ => return None,
            };
            resolve(branch, resources)
        }
        Value::Object(m) if m.contains_key(EXPR) => {
            let expr = m[EXPR].as_str()?;
            if let Some(template) = expr.strip_prefix('"').and_then(|e| e.strip_suffix('"')) {
                let mut out = String::new();
                let mut rest = template;
                while let Some(start) = rest.find("${") {
                    out.push_str(&rest[..start]);
                    let after = &rest[start.saturating_add(2)..];
                    let end = after.find('}')?;
                    out.push_str(&scalar_text(&follow(after[..end].trim(), resources)?)?);
                    rest = &after[end.saturating_add(1)..];
                }
                out.push_str(rest);
                resources.budget.text(out).ok().map(Value::String)
            } else {
                follow(expr, resources)
            }
        }
        Value::Object(m) => {
            let mut out = Map::new();
            for (k, x) in m {
                out.insert(k.clone(), resolve(x, resources)?);
            }
            Some(Value::Object(out))
        }
        Value::Array(a) => a
            .iter()
            .map(|x| resolve(x, resources))
            .collect::<Option<Vec<_>>>()
            .map(Value::Array),
        other => Some(other.clone()),
    }
}

/// `v` with `count.index`, `each.key` and `each.value` replaced, in templates and as bare
/// references, by one instance's values.
fn instance(v: &Value, substitutions: &[(&str, &str)]) -> Value {
    match v {
        Value::Object(m) if m.contains_key(EXPR) => {
            let expr = m[EXPR].as_str().unwrap_or_default();
            if let Some((_, value)) = substitutions.iter().find(|(name, _)| *name == expr) {
                return Value::String((*value).to_string());
            }
            let mut text = expr.to_string();
            for (name, value) in substitutions {
                text = text.replace(&format!("${{{name}}}"), value);
            }
            if text.starts_with('"') && !text.contains("${") {
                return Value::String(text.trim_matches('"').to_string());
            }
            let mut out = m.clone();
            out.insert(EXPR.into(), Value::String(text));
            Value::Object(out)
        }
        Value::Object(m) => Value::Object(
            m.iter()
                .map(|(k, x)| (k.clone(), instance(x, substitutions)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(|x| instance(x, substitutions)).collect()),
        other => other.clone(),
    }
}

/// Replaces each marker in `v` by its value, or drops the attribute and notes why.
fn settle(
    v: &Value,
    at: &str,
    resources: &Resources<'_>,
    file: &str,
    notes: &mut Vec<Note>,
) -> Value {
    match v {
        Value::Object(m) if !m.contains_key(EXPR) && !m.contains_key(IF) => {
            let mut out = Map::new();
            for (k, x) in m {
                if let Value::Object(inner) = x
                    && (inner.contains_key(EXPR) || inner.contains_key(IF))
                {
                    match resolve(x, resources) {
                        Some(r) => {
                            out.insert(k.clone(), r);
                        }
                        None => notes.push(Note {
                            file: file.to_string(),
                            line: inner.get("line").and_then(Value::as_u64),
                            path: format!("{at}.{k}"),
                            message: match inner.get(EXPR).and_then(Value::as_str) {
                                Some(expr) => {
                                    format!("`{expr}` does not end at a literal; skipped")
                                }
                                None => "a conditional whose condition is not known here; skipped"
                                    .to_string(),
                            },
                        }),
                    }
                    continue;
                }
                out.insert(
                    k.clone(),
                    settle(x, &format!("{at}.{k}"), resources, file, notes),
                );
            }
            Value::Object(out)
        }
        Value::Array(a) => Value::Array(
            a.iter()
                .map(|x| settle(x, at, resources, file, notes))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// The literal (or template) value of every attribute of `body`'s `variable` blocks'
/// `default`, then of `tfvars` files, then of `--parameter NAME=VALUE`, by name.
fn variables(
    body: &Body,
    siblings: &[Body],
    file: &str,
    options: &super::Options,
) -> HashMap<String, Value> {
    let mut vars = defaults(siblings.iter().chain(std::iter::once(body)));
    vars.extend(tfvars(file));
    for (name, value) in &options.parameters {
        vars.insert(name.clone(), Value::String(value.clone()));
    }
    vars
}

/// The `default` of every `variable` block in `bodies` (a module's files), by name.
pub(super) fn defaults<'a>(bodies: impl Iterator<Item = &'a Body>) -> HashMap<String, Value> {
    let mut vars = HashMap::new();
    for b in bodies.flat_map(Body::blocks) {
        if b.identifier.as_str() != "variable" {
            continue;
        }
        let [name] = b.labels.as_slice() else {
            continue;
        };
        if let Some(d) = b.body.attributes().find(|a| a.key.as_str() == "default")
            && let Ok(v) = literal(&d.expr, None)
        {
            vars.insert(name.as_str().to_string(), v);
        }
    }
    vars
}

/// The values of `terraform.tfvars`, then of `*.auto.tfvars` in name order, beside `file`,
/// as Terraform reads them for the root module.
fn tfvars(file: &str) -> HashMap<String, Value> {
    let mut vars = HashMap::new();
    let dir = std::path::Path::new(file)
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(std::path::Path::new("."));
    let mut tfvars: Vec<std::path::PathBuf> = crate::confine::read_dir(dir)
        .map(|entries| {
            entries
                .into_iter()
                .map(|e| e.path)
                .filter(|p| {
                    p.file_name()
                        .and_then(|n| n.to_str())
                        .is_some_and(|n| n.ends_with(".auto.tfvars"))
                })
                .collect()
        })
        .unwrap_or_default();
    tfvars.sort();
    tfvars.insert(0, dir.join("terraform.tfvars"));
    for path in tfvars {
        let Ok(text) = crate::load::read_input(
            &path.display().to_string(),
            crate::load::InputKind::Template,
        ) else {
            continue;
        };
        if let Ok(values) = hcl::parse(&text) {
            for a in values.attributes() {
                if let Ok(v) = literal(&a.expr, None) {
                    vars.insert(a.key.as_str().to_string(), v);
                }
            }
        }
    }
    vars
}

/// The values of `locals` blocks (literals and templates of references), by name.
fn locals(body: &Body, siblings: &[Body]) -> HashMap<String, Value> {
    let mut out = HashMap::new();
    for b in siblings
        .iter()
        .chain(std::iter::once(body))
        .flat_map(Body::blocks)
        .filter(|b| b.identifier.as_str() == "locals")
    {
        for a in b.body.attributes() {
            if let Ok(v) = literal(&a.expr, None) {
                out.insert(a.key.as_str().to_string(), v);
            }
        }
    }
    out
}

/// The instances of a resource: one, or one per `count` index or `for_each` key, each with
/// its address and values; a `count` of 0 gives none. A `count` or `for_each` that cannot be
/// read is said in a note and the resource read once.
fn instances(
    address: &str,
    values: &Value,
    index: &Resources<'_>,
    file: &str,
    line: usize,
    notes: &mut Vec<Note>,
) -> Vec<(String, Value)> {
    let note = |notes: &mut Vec<Note>, message: String| {
        notes.push(Note {
            file: file.to_string(),
            line: u64::try_from(line).ok(),
            path: address.to_string(),
            message,
        });
    };
    let mut base = values.clone();
    let (count, for_each) = match base.as_object_mut() {
        Some(m) => (m.remove("count"), m.remove("for_each")),
        None => (None, None),
    };
    if let Some(c) = count {
        let n = resolve(&c, index)
            .as_ref()
            .and_then(scalar_text)
            .and_then(|t| t.parse::<u32>().ok());
        return match n {
            Some(0) => {
                note(notes, "`count` is 0: no table is created".into());
                Vec::new()
            }
            Some(n) if n <= 1_000 => (0..n)
                .map(|i| {
                    let i = i.to_string();
                    (
                        format!("{address}[{i}]"),
                        instance(&base, &[("count.index", i.as_str())]),
                    )
                })
                .collect(),
            _ => {
                note(notes, "`count` is not a number ddbcost can read (a variable without a default, a conditional): imported once; `terraform show -json` of a plan gives every instance".into());
                vec![(address.to_string(), base)]
            }
        };
    }
    if let Some(f) = for_each {
        let keys: Option<Vec<(String, String)>> = match resolve(&f, index) {
            Some(Value::Object(m)) => Some(
                m.iter()
                    .map(|(k, v)| (k.clone(), scalar_text(v).unwrap_or_default()))
                    .collect(),
            ),
            Some(Value::Array(a)) => a
                .iter()
                .map(|v| scalar_text(v).map(|t| (t.clone(), t)))
                .collect(),
            _ => None,
        };
        return match keys {
            Some(keys) => keys
                .iter()
                .map(|(k, v)| {
                    (
                        format!("{address}[\"{k}\"]"),
                        instance(
                            &base,
                            &[("each.key", k.as_str()), ("each.value", v.as_str())],
                        ),
                    )
                })
                .collect(),
            None => {
                note(notes, "`for_each` is not a set or map ddbcost can read: imported once; `terraform show -json` of a plan gives every instance".into());
                vec![(address.to_string(), base)]
            }
        };
    }
    vec![(address.to_string(), base)]
}

/// Imports the resources of the `.tf` file `text` (read from `file`): variables with their
/// defaults (overridden by `.tfvars` beside it and `--parameter`), locals, `count` and
/// `for_each` with literal values; modules are pointed to a plan.
///
/// # Errors
/// HCL that does not parse.
pub(crate) fn import(
    text: &str,
    file: &str,
    options: &super::Options,
    out: &mut super::Imported,
) -> Result<(), Error> {
    import_scoped(text, file, options, None, out)
}

/// The file's resource blocks, as `(type, address, line, values)`; a `count` or `for_each`
/// that is not a literal is kept as such (said, never read as 1), and each `dynamic` block
/// gets a note.
fn resources(
    body: &Body,
    lines: &Lines,
    file: &str,
    notes: &mut Vec<Note>,
) -> Vec<(String, String, usize, Value)> {
    let mut raw = Vec::new();
    for b in body.blocks() {
        if let Some((kind, address, line)) = resource(b, lines) {
            let mut v = values(&b.body, lines, line, &address, file, notes);
            // A `count` or `for_each` that is not a literal (a conditional, a function) was
            // left out of the values: keep that it was there, so it is said, never read as 1.
            for meta in ["count", "for_each"] {
                if b.body.attributes().any(|a| a.key.as_str() == meta)
                    && let Some(m) = v.as_object_mut()
                {
                    m.entry(meta)
                        .or_insert_with(|| json!({ EXPR: "\u{1}not a literal" }));
                }
            }
            for d in b
                .body
                .blocks()
                .filter(|d| d.identifier.as_str() == "dynamic")
            {
                let what = d
                    .labels
                    .first()
                    .map(|l| l.as_str().to_string())
                    .unwrap_or_default();
                notes.push(Note {
                    file: file.to_string(),
                    line: lines.line_of(line, "dynamic").and_then(|l| u64::try_from(l).ok()),
                    path: format!("{address}.dynamic.{what}"),
                    message: format!("a `dynamic \"{what}\"` block is expanded only by Terraform: not read (`terraform show -json` of a plan has every `{what}`)"),
                });
            }
            raw.push((kind, address, line, v));
        }
    }
    raw
}

/// One file of the root module (`call` is `None`) or of a module a `module` block calls.
pub(super) fn import_scoped(
    text: &str,
    file: &str,
    options: &super::Options,
    call: Option<&modules::Call>,
    out: &mut super::Imported,
) -> Result<(), Error> {
    let body: Body = hcl::parse(text).map_err(|e| {
        Error::input(format!("not valid HCL: {e}"))
            .file(file)
            .help("Consider `terraform validate`, or `terraform show -json plan.out` and `--from terraform-plan`.")
    })?;
    let lines = Lines::new(text);
    let mut notes = Vec::new();
    let raw = resources(&body, &lines, file, &mut notes);
    let plain: Vec<(String, String, Value)> = raw
        .iter()
        .map(|(k, a, _, v)| (k.clone(), a.clone(), v.clone()))
        .collect();
    let siblings = modules::siblings(file);
    let vars = match call {
        Some(c) => c.variables(&siblings, &body),
        None => variables(&body, &siblings, file, options),
    };
    let index = Resources::new(&plain, vars, locals(&body, &siblings));
    let region = match call {
        Some(c) => c.region.clone(),
        None => modules::provider_region(&body, &siblings, &index),
    };
    let prefix = call.map_or_else(String::new, |c| c.prefix.clone());
    let mut settled = Vec::new();
    let mut headers: HashMap<String, usize> = HashMap::new();
    for (kind, address, line, v) in &raw {
        for (instance_address, values) in instances(address, v, &index, file, *line, &mut notes) {
            let values = settle(&values, &instance_address, &index, file, &mut notes);
            if kind == "aws_dynamodb_table"
                && values.get("billing_mode").is_none()
                && v.get("billing_mode").is_some()
            {
                notes.push(Note {
                    file: file.to_string(),
                    line: lines.line_of(*line, "billing_mode").and_then(|l| u64::try_from(l).ok()),
                    path: format!("{instance_address}.billing_mode"),
                    message: "the billing mode is not known here: priced as PROVISIONED, the AWS provider's default; give it with `--parameter NAME=VALUE` or import a plan".into(),
                });
            }
            let instance_address = format!("{prefix}{instance_address}");
            headers.insert(instance_address.clone(), *line);
            settled.push(json!({
                "address": instance_address,
                "mode": "managed",
                "type": kind,
                "values": values,
            }));
        }
    }
    // Read like a plan, with the notes' lines from this file.
    let plan = json!({ "format_version": "1.2", "planned_values": { "root_module": { "resources": settled } } });
    // The notes so far go in first: a capacity they name as unresolved is kept as such.
    let mut imported = super::Imported {
        notes: std::mem::take(&mut notes),
        ..super::Imported::default()
    };
    super::terraform::import_plan(&plan, file, &mut imported)?;
    for t in &mut imported.tables {
        if let Some(l) = headers.get(&t.logical_id) {
            t.origin = format!("{file}:{l} {} (aws_dynamodb_table)", t.logical_id);
        }
        // The AWS provider's region (the root module's `provider "aws"`), where the
        // resource states none.
        if t.region.is_none() {
            t.region.clone_from(&region);
        }
    }
    out.tables.extend(imported.tables);
    out.notes.extend(notes);
    out.notes.extend(imported.notes);
    // The modules this file calls, with the arguments it passes.
    modules::follow(
        &body,
        &lines,
        file,
        options,
        call,
        &index,
        region.as_deref(),
        out,
    )
}
