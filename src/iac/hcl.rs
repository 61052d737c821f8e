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
use crate::error::Error;

/// An expression kept for the second pass: a reference (`a.b.c`) or a template with
/// references, and the line it is on.
const EXPR: &str = "\u{1}expr";

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
        Expression::FuncCall(f) => return Err(format!("a call of `{}`", f.name)),
        Expression::Conditional(_) => return Err("a conditional".into()),
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

/// The resources of a file by address, and the budget their references are followed in.
struct Resources<'a> {
    all: &'a [(String, String, Value)],
    by_address: HashMap<&'a str, usize>,
    budget: Budget,
}

impl<'a> Resources<'a> {
    fn new(all: &'a [(String, String, Value)]) -> Self {
        Resources {
            all,
            by_address: all
                .iter()
                .enumerate()
                .map(|(i, (_, a, _))| (a.as_str(), i))
                .collect(),
            budget: Budget::new(),
        }
    }
}

/// The value a reference (`aws_dynamodb_table.orders.name`) ends at, among `resources`: a
/// reference that reaches itself, or one that fans out past the budget, ends nowhere.
fn follow(reference: &str, resources: &Resources<'_>) -> Option<String> {
    let _level = resources.budget.enter(reference).ok()?;
    let (address, attribute) = reference.rsplit_once('.')?;
    let (kind, _, values) = &resources.all[*resources.by_address.get(address)?];
    // A table's `id` is its name.
    let attribute = if kind == "aws_dynamodb_table" && attribute == "id" {
        "name"
    } else {
        attribute
    };
    resolve(values.get(attribute)?, resources).and_then(|v| v.as_str().map(str::to_string))
}

/// `v` with its markers resolved, or `None` when one cannot be.
fn resolve(v: &Value, resources: &Resources<'_>) -> Option<Value> {
    let _level = resources.budget.step().ok()?;
    match v {
        Value::Object(m) if m.contains_key(EXPR) => {
            let expr = m[EXPR].as_str()?;
            if let Some(template) = expr.strip_prefix('"').and_then(|e| e.strip_suffix('"')) {
                let mut out = String::new();
                let mut rest = template;
                while let Some(start) = rest.find("${") {
                    out.push_str(&rest[..start]);
                    let after = &rest[start.saturating_add(2)..];
                    let end = after.find('}')?;
                    out.push_str(&follow(after[..end].trim(), resources)?);
                    rest = &after[end.saturating_add(1)..];
                }
                out.push_str(rest);
                resources.budget.text(out).ok().map(Value::String)
            } else {
                follow(expr, resources).map(Value::String)
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

/// Replaces each marker in `v` by its value, or drops the attribute and notes why.
fn settle(
    v: &Value,
    at: &str,
    resources: &Resources<'_>,
    file: &str,
    notes: &mut Vec<Note>,
) -> Value {
    match v {
        Value::Object(m) if !m.contains_key(EXPR) => {
            let mut out = Map::new();
            for (k, x) in m {
                if let Value::Object(inner) = x
                    && inner.contains_key(EXPR)
                {
                    match resolve(x, resources) {
                        Some(r) => {
                            out.insert(k.clone(), r);
                        }
                        None => notes.push(Note {
                            file: file.to_string(),
                            line: inner.get("line").and_then(Value::as_u64),
                            path: format!("{at}.{k}"),
                            message: format!(
                                "`{}` does not end at a literal; skipped",
                                inner[EXPR].as_str().unwrap_or("")
                            ),
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

/// Imports the resources of the `.tf` file `text` (read from `file`).
///
/// # Errors
/// HCL that does not parse.
pub fn import(text: &str, file: &str, out: &mut super::Imported) -> Result<(), Error> {
    let body: Body = hcl::parse(text).map_err(|e| {
        Error::input(format!("not valid HCL: {e}"))
            .file(file)
            .help("Consider `terraform validate`, or `terraform show -json plan.out` and `--from terraform-plan`.")
    })?;
    let lines = Lines::new(text);
    let mut notes = Vec::new();
    let mut resources = Vec::new();
    for b in body.blocks() {
        if let Some((kind, address, line)) = resource(b, &lines) {
            let v = values(&b.body, &lines, line, &address, file, &mut notes);
            resources.push((kind, address, v));
        } else if b.identifier.as_str() == "module" {
            notes.push(Note {
                file: file.to_string(),
                line: lines.line_of(1, "module").and_then(|l| u64::try_from(l).ok()),
                path: "module".into(),
                message: "modules are read from a plan (`terraform show -json plan.out`), not from `.tf` files; skipped".into(),
            });
        }
    }
    let index = Resources::new(&resources);
    let settled: Vec<Value> = resources
        .iter()
        .map(|(kind, address, v)| {
            json!({
                "address": address,
                "mode": "managed",
                "type": kind,
                "values": settle(v, address, &index, file, &mut notes),
            })
        })
        .collect();
    // Read like a plan, with the notes' lines from this file.
    let plan = json!({ "format_version": "1.2", "planned_values": { "root_module": { "resources": settled } } });
    let mut imported = super::Imported::default();
    super::terraform::import_plan(&plan, file, &mut imported)?;
    for t in &mut imported.tables {
        let header = index.by_address.get(t.logical_id.as_str()).map(|i| {
            let (kind, address, _) = &resources[*i];
            let name = address.rsplit('.').next().unwrap_or("");
            lines
                .headers
                .get(&(kind.clone(), name.to_string()))
                .copied()
        });
        if let Some(Some(l)) = header {
            t.origin = format!("{file}:{l} {} (aws_dynamodb_table)", t.logical_id);
        }
    }
    out.tables.extend(imported.tables);
    out.notes.extend(notes);
    out.notes.extend(imported.notes);
    Ok(())
}
