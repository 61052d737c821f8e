//! CloudFormation and SAM templates (YAML with short-form intrinsics, or JSON):
//! `AWS::DynamoDB::Table`, `AWS::DynamoDB::GlobalTable`, `AWS::Serverless::SimpleTable`, and
//! Application Auto Scaling targets and target-tracking policies on them. Intrinsics are
//! evaluated where their inputs are known — parameters (defaults or `--parameter`), mappings,
//! conditions, `AWS::Region` (`--region`), references to tables — and reported otherwise.

use std::cell::RefCell;
use std::collections::HashMap;

use serde_json::{Map, Value};

use super::budget::Budget;
use super::{Billing, Dim, IndexDef, Note, Options, Projection, TableDef, stream_view, whole};
use crate::error::Error;
use crate::load::yaml;

/// Why an intrinsic could not be evaluated.
type Unresolved = String;

/// The template and what resolves its intrinsics.
pub(crate) struct Cfn<'a> {
    file: &'a str,
    lines: &'a HashMap<String, u64>,
    parameters: HashMap<String, Value>,
    mappings: Map<String, Value>,
    conditions: Map<String, Value>,
    resources: Map<String, Value>,
    region: Option<String>,
    /// Path prefix of `Resources` in the file (`resources.Resources` in serverless.yml).
    prefix: String,
    /// Cycles, depth and expansion of the intrinsics.
    budget: Budget,
    /// Conditions and resource names are pure: each is evaluated once, so definitions that
    /// use the previous one twice cost linear, not exponential, time.
    conditions_seen: RefCell<HashMap<String, bool>>,
    names_seen: RefCell<HashMap<String, Value>>,
    /// `Fn::ForEach` loops that could not be expanded: where, and why.
    loops_refused: Vec<super::foreach::Refusal>,
}

const NO_VALUE: &str = "\u{0}AWS::NoValue";

impl<'a> Cfn<'a> {
    /// Reads `doc` (a template's long-form JSON) with `options`; `prefix` is where the
    /// template sits in its file.
    #[must_use]
    pub(crate) fn new(
        doc: &Value,
        file: &'a str,
        lines: &'a HashMap<String, u64>,
        options: &Options,
        prefix: &str,
    ) -> Self {
        let get = |k: &str| {
            doc.get(k)
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_default()
        };
        let mut parameters = HashMap::new();
        for (name, p) in get("Parameters") {
            if let Some(d) = p.get("Default") {
                parameters.insert(name, d.clone());
            }
        }
        for (name, value) in &options.parameters {
            parameters.insert(name.clone(), Value::String(value.clone()));
        }
        // `Fn::ForEach` (the `AWS::LanguageExtensions` transform) is expanded first, as
        // CloudFormation does before it reads the resources.
        let (resources, loops_refused) =
            super::foreach::expand(&get("Resources"), &parameters, "Resources");
        Cfn {
            file,
            lines,
            parameters,
            mappings: get("Mappings"),
            conditions: get("Conditions"),
            resources,
            loops_refused,
            region: options.region.clone(),
            prefix: prefix.to_string(),
            budget: Budget::new(),
            conditions_seen: RefCell::default(),
            names_seen: RefCell::default(),
        }
    }

    fn note(&self, path: &str, message: impl Into<String>) -> Note {
        let full = if self.prefix.is_empty() {
            path.to_string()
        } else {
            format!("{}.{path}", self.prefix)
        };
        // The nearest enclosing path with a known line.
        let mut p = full.as_str();
        let line = loop {
            if let Some(l) = self.lines.get(p) {
                break Some(*l);
            }
            match p.rfind(['.', '[']) {
                Some(i) => p = &p[..i],
                None => break None,
            }
        };
        Note {
            file: self.file.to_string(),
            line,
            path: full,
            message: message.into(),
        }
    }

    fn line(&self, path: &str) -> Option<u64> {
        self.note(path, "").line
    }

    /// The name a `Ref` to resource `id` evaluates to: a table's literal `TableName`, else
    /// its logical id (which is how imported tables without a name are called).
    fn resource_name(&self, id: &str) -> Result<Value, Unresolved> {
        if let Some(known) = self.names_seen.borrow().get(id) {
            return Ok(known.clone());
        }
        let name = {
            let _level = self.budget.enter(&format!("Resources.{id}"))?;
            self.resource_name_once(id)
        };
        // Only values are remembered: a failure may depend on how deep it was reached.
        if let Ok(v) = &name {
            self.names_seen
                .borrow_mut()
                .insert(id.to_string(), v.clone());
        }
        name
    }

    fn resource_name_once(&self, id: &str) -> Result<Value, Unresolved> {
        let r = &self.resources[id];
        let kind = r.get("Type").and_then(Value::as_str).unwrap_or("");
        if kind.starts_with("AWS::DynamoDB::") || kind == "AWS::Serverless::SimpleTable" {
            return match r.pointer("/Properties/TableName") {
                Some(name) => self.eval(name),
                None => Ok(Value::String(id.to_string())),
            };
        }
        // Auto scaling references resolve to their logical id (policies point at targets).
        Ok(Value::String(id.to_string()))
    }

    fn reference(&self, name: &str) -> Result<Value, Unresolved> {
        if let Some(v) = self.parameters.get(name) {
            return Ok(v.clone());
        }
        match name {
            "AWS::Region" => self.region.clone().map(Value::String).ok_or_else(|| {
                "`AWS::Region` is known only at deployment (give it with `--region`)".to_string()
            }),
            "AWS::NoValue" => Ok(Value::String(NO_VALUE.into())),
            "AWS::Partition" => Ok(Value::String("aws".into())),
            "AWS::URLSuffix" => Ok(Value::String("amazonaws.com".into())),
            _ if name.starts_with("AWS::") => Err(format!("`{name}` is known only at deployment")),
            _ if self.resources.contains_key(name) => self.resource_name(name),
            _ => Err(format!(
                "parameter `{name}` has no default (give it with `--parameter {name}=VALUE`)"
            )),
        }
    }

    fn condition(&self, name: &str) -> Result<bool, Unresolved> {
        if let Some(known) = self.conditions_seen.borrow().get(name) {
            return Ok(*known);
        }
        let c = self
            .conditions
            .get(name)
            .ok_or_else(|| format!("condition `{name}` is not defined"))?;
        let value = {
            let _level = self.budget.enter(&format!("condition `{name}`"))?;
            self.truth(c)
        };
        if let Ok(b) = value {
            self.conditions_seen
                .borrow_mut()
                .insert(name.to_string(), b);
        }
        value
    }

    fn truth(&self, v: &Value) -> Result<bool, Unresolved> {
        match self.eval(v)? {
            Value::Bool(b) => Ok(b),
            Value::String(s) if s == "true" => Ok(true),
            Value::String(s) if s == "false" => Ok(false),
            other => Err(format!("`{other}` is not a condition")),
        }
    }

    fn text(&self, v: &Value) -> Result<String, Unresolved> {
        match self.eval(v)? {
            Value::String(s) => Ok(s),
            Value::Bool(b) => Ok(b.to_string()),
            Value::Number(n) => Ok(n.to_string()),
            other => Err(format!("`{other}` is not text")),
        }
    }

    fn sub(&self, template: &str, vars: &Map<String, Value>) -> Result<String, Unresolved> {
        let mut out = String::new();
        let mut rest = template;
        while let Some(start) = rest.find("${") {
            out.push_str(&rest[..start]);
            let after = &rest[start.saturating_add(2)..];
            let end = after
                .find('}')
                .ok_or_else(|| format!("`{template}` has an unclosed `${{`"))?;
            let name = &after[..end];
            if let Some(literal) = name.strip_prefix('!') {
                out.push_str("${");
                out.push_str(literal);
                out.push('}');
            } else if let Some(v) = vars.get(name) {
                out.push_str(&self.text(v)?);
            } else if let Some((resource, _)) = name.split_once('.') {
                return Err(format!(
                    "`${{{name}}}` is an attribute of `{resource}`, known only at deployment"
                ));
            } else {
                out.push_str(&match self.reference(name)? {
                    Value::String(s) => s,
                    other => other.to_string(),
                });
            }
            rest = &after[end.saturating_add(1)..];
        }
        out.push_str(rest);
        self.budget.text(out)
    }

    /// Evaluates the intrinsics in `v`.
    ///
    /// # Errors
    /// An intrinsic whose inputs are not known before deployment, with the reason.
    pub(crate) fn eval(&self, v: &Value) -> Result<Value, Unresolved> {
        let _level = self.budget.step()?;
        match v {
            Value::Array(items) => {
                let mut out = Vec::new();
                for item in items {
                    let e = self.eval(item)?;
                    if e != Value::String(NO_VALUE.into()) {
                        out.push(e);
                    }
                }
                Ok(Value::Array(out))
            }
            Value::Object(m) if m.len() == 1 => {
                let (k, arg) = m.iter().next().unwrap_or_else(|| unreachable!("one entry"));
                self.intrinsic(k, arg).unwrap_or_else(|| self.eval_map(m))
            }
            Value::Object(m) => self.eval_map(m),
            other => Ok(other.clone()),
        }
    }

    fn eval_map(&self, m: &Map<String, Value>) -> Result<Value, Unresolved> {
        let mut out = Map::new();
        for (k, v) in m {
            let e = self.eval(v)?;
            if e != Value::String(NO_VALUE.into()) {
                out.insert(k.clone(), e);
            }
        }
        Ok(Value::Object(out))
    }

    /// `Some` when `key` is an intrinsic function.
    fn intrinsic(&self, key: &str, arg: &Value) -> Option<Result<Value, Unresolved>> {
        let list = |n: usize| -> Result<Vec<Value>, Unresolved> {
            match arg {
                Value::Array(a) if a.len() == n => Ok(a.clone()),
                _ => Err(format!("`{key}` takes a list of {n}")),
            }
        };
        Some(match key {
            "Ref" => arg
                .as_str()
                .ok_or_else(|| "`Ref` takes a name".to_string())
                .and_then(|n| self.reference(n)),
            "Condition" => arg
                .as_str()
                .ok_or_else(|| "`Condition` takes a name".to_string())
                .and_then(|n| self.condition(n))
                .map(Value::Bool),
            "Fn::Sub" => match arg {
                Value::String(s) => self.sub(s, &Map::new()).map(Value::String),
                Value::Array(a) if a.len() == 2 => match (&a[0], &a[1]) {
                    (Value::String(s), Value::Object(vars)) => self.sub(s, vars).map(Value::String),
                    _ => Err("`Fn::Sub` takes a string and a map".into()),
                },
                _ => Err("`Fn::Sub` takes a string".into()),
            },
            "Fn::Join" => list(2).and_then(|a| {
                let delim = self.text(&a[0])?;
                match self.eval(&a[1])? {
                    Value::Array(parts) => parts
                        .iter()
                        .map(|p| self.text(p))
                        .collect::<Result<Vec<_>, _>>()
                        .and_then(|p| self.budget.text(p.join(&delim)))
                        .map(Value::String),
                    _ => Err("`Fn::Join` joins a list".into()),
                }
            }),
            "Fn::Select" => list(2).and_then(|a| {
                let i: usize = self
                    .text(&a[0])?
                    .trim()
                    .parse()
                    .map_err(|_| "`Fn::Select` takes an index".to_string())?;
                match self.eval(&a[1])? {
                    Value::Array(items) => items
                        .get(i)
                        .cloned()
                        .ok_or_else(|| format!("`Fn::Select` index {i} is past the list")),
                    _ => Err("`Fn::Select` selects from a list".into()),
                }
            }),
            "Fn::Split" => list(2).and_then(|a| {
                let delim = self.text(&a[0])?;
                let s = self.text(&a[1])?;
                Ok(Value::Array(
                    s.split(delim.as_str())
                        .map(|p| Value::String(p.into()))
                        .collect(),
                ))
            }),
            "Fn::If" => list(3).and_then(|a| {
                let name = a[0]
                    .as_str()
                    .ok_or_else(|| "`Fn::If` names a condition".to_string())?;
                if self.condition(name)? {
                    self.eval(&a[1])
                } else {
                    self.eval(&a[2])
                }
            }),
            "Fn::Equals" => {
                list(2).and_then(|a| Ok(Value::Bool(self.eval(&a[0])? == self.eval(&a[1])?)))
            }
            "Fn::Not" => list(1).and_then(|a| self.truth(&a[0]).map(|b| Value::Bool(!b))),
            "Fn::And" | "Fn::Or" => match arg {
                Value::Array(items) => items
                    .iter()
                    .map(|i| self.truth(i))
                    .collect::<Result<Vec<bool>, _>>()
                    .map(|values| {
                        Value::Bool(if key == "Fn::And" {
                            values.iter().all(|b| *b)
                        } else {
                            values.iter().any(|b| *b)
                        })
                    }),
                _ => Err(format!("`{key}` takes a list")),
            },
            "Fn::FindInMap" => list(3).and_then(|a| {
                let keys = [self.text(&a[0])?, self.text(&a[1])?, self.text(&a[2])?];
                self.mappings
                    .get(&keys[0])
                    .and_then(|m| m.get(&keys[1]))
                    .and_then(|m| m.get(&keys[2]))
                    .cloned()
                    .ok_or_else(|| {
                        format!("mapping `{}` has no `{}.{}`", keys[0], keys[1], keys[2])
                    })
            }),
            // A value another tool could not resolve (a Serverless variable, say), with why.
            "ddbcost::Unresolved" => Err(arg.as_str().unwrap_or("unresolved").to_string()),
            "Fn::GetAtt" => Err("`Fn::GetAtt` is known only at deployment".into()),
            "Fn::ImportValue" => Err(
                "`Fn::ImportValue` reads another stack's output, known only at deployment".into(),
            ),
            "Fn::GetAZs" | "Fn::Base64" | "Fn::Cidr" | "Fn::Transform" | "Fn::Length"
            | "Fn::ToJsonString" | "Fn::ForEach" => {
                Err(format!("`{key}` is not evaluated by ddbcost"))
            }
            _ => return None,
        })
    }
}

/// A property evaluated, or a note and `None`.
fn prop(
    cfn: &Cfn<'_>,
    props: &Value,
    path: &str,
    name: &str,
    notes: &mut Vec<Note>,
) -> Option<Value> {
    let v = props.get(name)?;
    match cfn.eval(v) {
        // `!Ref AWS::NoValue` removes the property, as CloudFormation reads it.
        Ok(Value::String(s)) if s == NO_VALUE => None,
        Ok(e) => Some(e),
        Err(why) => {
            notes.push(cfn.note(&format!("{path}.{name}"), format!("{why}; skipped")));
            None
        }
    }
}

fn text_of(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

fn units(cfn: &Cfn<'_>, v: Option<&Value>, path: &str, notes: &mut Vec<Note>) -> Option<String> {
    let v = v?;
    match text_of(v).as_deref().and_then(whole) {
        Some(u) => Some(u),
        None => {
            notes.push(cfn.note(
                path,
                format!("`{v}` is not a whole number of units; skipped"),
            ));
            None
        }
    }
}

fn key_schema(v: Option<&Value>) -> Option<(String, Option<String>)> {
    let items = v?.as_array()?;
    let mut hash = None;
    let mut range = None;
    for k in items {
        let name = k.get("AttributeName").and_then(text_of)?;
        match k.get("KeyType").and_then(Value::as_str) {
            Some("HASH") => hash = Some(name),
            Some("RANGE") => range = Some(name),
            _ => return None,
        }
    }
    Some((hash?, range))
}

fn projection(v: Option<&Value>) -> Option<Projection> {
    let p = v?;
    Some(
        match p
            .get("ProjectionType")
            .and_then(Value::as_str)
            .unwrap_or("KEYS_ONLY")
        {
            "ALL" => Projection::All,
            "INCLUDE" => Projection::Include(
                p.get("NonKeyAttributes")
                    .and_then(Value::as_array)
                    .map(|a| a.iter().filter_map(text_of).collect())
                    .unwrap_or_default(),
            ),
            "KEYS_ONLY" => Projection::KeysOnly,
            _ => return None,
        },
    )
}

/// Auto scaling stated by resources: `(resource id, dimension)` → (min, max, target).
#[derive(Default)]
struct Scaling {
    targets: HashMap<String, (String, String, String, String)>, // logical id → (resource id, dimension, min, max)
    policies: HashMap<String, String>,                          // target logical id → target value
}

/// Imports `text` (the contents of `file`) into `out`.
///
/// # Errors
/// Malformed YAML or JSON.
pub(crate) fn import(
    text: &str,
    file: &str,
    options: &Options,
    out: &mut super::Imported,
) -> Result<(), Error> {
    let t = yaml::parse_template(text, file)?;
    if t.value
        .get("Resources")
        .and_then(Value::as_object)
        .is_none()
    {
        return Err(Error::input("the template has no `Resources`")
            .file(file)
            .help("Consider a CloudFormation or SAM template (or `--from` for another kind)."));
    }
    check_parameters(&t.value, file, options)?;
    import_doc(&t.value, file, &t.lines, options, "", out);
    Ok(())
}

/// `--parameter` names the template's parameters exactly (CloudFormation's names are
/// case-sensitive: `env` is not `Env`, and a value given under the wrong name would be
/// silently ignored), and every value — given or default — is one of its `AllowedValues`.
///
/// # Errors
/// A parameter the template lacks, or a value it does not allow.
pub(crate) fn check_parameters(doc: &Value, file: &str, options: &Options) -> Result<(), Error> {
    let declared = doc
        .get("Parameters")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    for (name, _) in &options.parameters {
        if declared.contains_key(name) {
            continue;
        }
        let names: Vec<&str> = declared.keys().map(String::as_str).collect();
        let help = match names.iter().find(|n| n.eq_ignore_ascii_case(name)) {
            Some(n) => format!("Consider `--parameter {n}=…`: parameter names are case-sensitive."),
            None if names.is_empty() => {
                "Consider leaving it out: the template declares no parameters.".to_string()
            }
            None => format!(
                "{} (the template declares {}).",
                crate::load::suggest::consider(name, &names, "parameters"),
                names.join(", ")
            ),
        };
        return Err(Error::usage(format!(
            "--parameter `{name}`: the template has no such parameter"
        ))
        .file(file)
        .help(help));
    }
    for (name, p) in &declared {
        let Some(allowed) = p.get("AllowedValues").and_then(Value::as_array) else {
            continue;
        };
        let given = options
            .parameters
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone());
        let value = given.clone().or_else(|| p.get("Default").and_then(text_of));
        let Some(value) = value else { continue };
        let texts: Vec<String> = allowed.iter().filter_map(text_of).collect();
        if !texts.contains(&value) {
            let from = if given.is_some() {
                "--parameter"
            } else {
                "its Default"
            };
            return Err(Error::usage(format!(
                "parameter `{name}` = `{value}` ({from}) is not one of its AllowedValues: {}",
                texts.join(", ")
            ))
            .file(file)
            .path(format!("Parameters.{name}"))
            .help(format!(
                "Consider `--parameter {name}={}`.",
                texts.first().map_or("…", String::as_str)
            )));
        }
    }
    Ok(())
}

/// Imports a template's long-form document (also used for serverless.yml and CDK output).
pub(crate) fn import_doc(
    doc: &Value,
    file: &str,
    lines: &HashMap<String, u64>,
    options: &Options,
    prefix: &str,
    out: &mut super::Imported,
) {
    let cfn = Cfn::new(doc, file, lines, options, prefix);
    let mut notes: Vec<Note> = cfn
        .loops_refused
        .iter()
        .map(|(path, why)| cfn.note(path, why.clone()))
        .collect();
    let mut tables = Vec::new();
    let mut scaling = Scaling::default();
    for (id, r) in &cfn.resources {
        let path = format!("Resources.{id}");
        let kind = r.get("Type").and_then(Value::as_str).unwrap_or("");
        if let Some(cond) = r.get("Condition").and_then(Value::as_str) {
            match cfn.condition(cond) {
                Ok(true) => {}
                Ok(false) => {
                    if kind.starts_with("AWS::DynamoDB::") || kind == "AWS::Serverless::SimpleTable"
                    {
                        notes.push(
                            cfn.note(&path, format!("condition `{cond}` is false: not created")),
                        );
                    }
                    continue;
                }
                Err(why) => {
                    if kind.starts_with("AWS::DynamoDB::") {
                        notes.push(cfn.note(&path, format!("condition `{cond}` cannot be evaluated ({why}): imported as if true")));
                    }
                }
            }
        }
        let props_path = format!("{path}.Properties");
        let (props, known) = properties(&cfn, r, kind, &props_path, &mut notes);
        match kind {
            "AWS::DynamoDB::Table" => tables.push(table(&cfn, id, &props, &props_path, &mut notes)),
            "AWS::DynamoDB::GlobalTable" => {
                tables.push(global_table(&cfn, id, &props, &props_path, &mut notes));
            }
            "AWS::Serverless::SimpleTable" => {
                tables.push(simple_table(
                    &cfn,
                    id,
                    &props,
                    &props_path,
                    known,
                    &mut notes,
                ));
            }
            "AWS::ApplicationAutoScaling::ScalableTarget" => {
                let mut get = |n: &str| {
                    prop(&cfn, &props, &props_path, n, &mut notes)
                        .as_ref()
                        .and_then(text_of)
                };
                if get("ServiceNamespace").as_deref() != Some("dynamodb") {
                    continue;
                }
                if let (Some(rid), Some(dim), Some(min), Some(max)) = (
                    get("ResourceId"),
                    get("ScalableDimension"),
                    get("MinCapacity"),
                    get("MaxCapacity"),
                ) {
                    scaling.targets.insert(id.clone(), (rid, dim, min, max));
                }
            }
            "AWS::ApplicationAutoScaling::ScalingPolicy" => {
                if props.get("PolicyType").and_then(Value::as_str) != Some("TargetTrackingScaling")
                {
                    notes.push(cfn.note(
                        &path,
                        "only target-tracking scaling policies are imported; skipped",
                    ));
                    continue;
                }
                let target = props
                    .pointer("/TargetTrackingScalingPolicyConfiguration/TargetValue")
                    .and_then(|v| cfn.eval(v).ok())
                    .as_ref()
                    .and_then(text_of);
                let scaled = match props.get("ScalingTargetId") {
                    Some(Value::Object(m)) if m.contains_key("Ref") => {
                        m["Ref"].as_str().map(str::to_string)
                    }
                    _ => None,
                };
                match (scaled, target) {
                    (Some(t), Some(v)) => {
                        scaling.policies.insert(t, v);
                    }
                    _ => notes.push(cfn.note(&path, "a scaling policy whose target or value is not a literal reference; skipped")),
                }
            }
            _ => {}
        }
    }
    // Attach auto scaling to the tables and indexes it names.
    for (target_id, (rid, dim, min, max)) in &scaling.targets {
        let target = scaling.policies.get(target_id).cloned();
        if let Err(why) = super::attach_scaling(&mut tables, rid, dim, (min, max), target) {
            notes.push(cfn.note(&format!("Resources.{target_id}"), why));
        }
    }
    out.tables.extend(tables);
    out.notes.extend(notes);
}

fn common(cfn: &Cfn<'_>, t: &mut TableDef, props: &Value, path: &str, notes: &mut Vec<Note>) {
    if let Some(k) = prop(cfn, props, path, "KeySchema", notes) {
        t.key = key_schema(Some(&k));
        if t.key.is_none() {
            notes.push(cfn.note(
                &format!("{path}.KeySchema"),
                "not a key schema of HASH and RANGE attributes; skipped",
            ));
        }
    }
    if let Some(Value::Array(defs)) = prop(cfn, props, path, "AttributeDefinitions", notes) {
        for d in defs {
            if let (Some(n), Some(ty)) = (
                d.get("AttributeName").and_then(text_of),
                d.get("AttributeType").and_then(text_of),
            ) {
                t.attributes.push((n, ty));
            }
        }
    }
    if let Some(v) = prop(cfn, props, path, "StreamSpecification", notes) {
        match v
            .get("StreamViewType")
            .and_then(Value::as_str)
            .and_then(stream_view)
        {
            Some(view) => t.stream_view = Some(view.into()),
            None => notes.push(cfn.note(
                &format!("{path}.StreamSpecification"),
                "no known `StreamViewType`; skipped",
            )),
        }
    }
    if let Some(v) = prop(cfn, props, path, "TimeToLiveSpecification", notes)
        && v.get("Enabled").and_then(text_of).as_deref() == Some("true")
    {
        t.ttl_attribute = v.get("AttributeName").and_then(text_of);
    }
    if let Some(list) = prop(cfn, props, path, "Tags", notes).and_then(|v| v.as_array().cloned()) {
        for (i, tag) in list.iter().enumerate() {
            match (
                tag.get("Key").and_then(text_of),
                tag.get("Value").and_then(text_of),
            ) {
                (Some(k), Some(v)) => t.tags.push((k, v)),
                _ => notes.push(cfn.note(
                    &format!("{path}.Tags[{i}]"),
                    "a tag whose key or value cannot be evaluated; skipped",
                )),
            }
        }
    }
    if let Some(v) = prop(cfn, props, path, "PointInTimeRecoverySpecification", notes) {
        t.pitr = v
            .get("PointInTimeRecoveryEnabled")
            .and_then(text_of)
            .as_deref()
            == Some("true");
    }
    // The stream's ARN is usually `!GetAtt Stream.Arn`, known only at deployment: the
    // destination exists whatever its ARN, so it is kept (and the ARN said unresolved).
    if let Some(spec) = props.get("KinesisStreamSpecification") {
        t.kinesis = spec.get("StreamArn").is_some();
        if let Some(arn) = spec.get("StreamArn")
            && let Err(why) = cfn.eval(arn)
        {
            notes.push(cfn.note(
                &format!("{path}.KinesisStreamSpecification.StreamArn"),
                format!("{why}: the Kinesis streaming destination is kept, its stream unresolved"),
            ));
        }
    }
    if let Some(v) = prop(cfn, props, path, "TableClass", notes) {
        t.standard_ia = text_of(&v).as_deref() == Some("STANDARD_INFREQUENT_ACCESS");
    }
    if let Some(v) = prop(cfn, props, path, "ImportSourceSpecification", notes) {
        let bucket = v
            .pointer("/S3BucketSource/S3Bucket")
            .and_then(text_of)
            .unwrap_or_default();
        let prefix = v
            .pointer("/S3BucketSource/S3KeyPrefix")
            .and_then(text_of)
            .unwrap_or_default();
        let format = v.get("InputFormat").and_then(text_of).unwrap_or_default();
        t.import_from_s3 = Some(format!("s3://{bucket}/{prefix}, {format}"));
    }
}

fn name_of(cfn: &Cfn<'_>, id: &str, props: &Value, path: &str, notes: &mut Vec<Note>) -> String {
    prop(cfn, props, path, "TableName", notes)
        .as_ref()
        .and_then(text_of)
        .unwrap_or_else(|| id.to_string())
}

fn origin(cfn: &Cfn<'_>, id: &str, kind: &str) -> String {
    let at = match cfn.line(&format!("Resources.{id}")) {
        Some(l) => format!("{}:{l}", cfn.file),
        None => cfn.file.to_string(),
    };
    format!("{at} Resources.{id} ({kind})")
}

/// The two dimensions of a `ProvisionedThroughput` value: each field evaluated on its own,
/// so that one unresolved field (a parameter without a default) keeps the other; a field
/// stated but not resolved, or not a whole number, is kept as unresolved, with its position.
fn throughput(
    cfn: &Cfn<'_>,
    v: Option<&Value>,
    path: &str,
    notes: &mut Vec<Note>,
) -> (Option<Dim>, Option<Dim>) {
    let Some(v) = v else { return (None, None) };
    let whole_value;
    let v = if is_intrinsic(v) {
        match cfn.eval(v) {
            Ok(Value::String(s)) if s == NO_VALUE => return (None, None),
            Ok(e) => {
                whole_value = e;
                &whole_value
            }
            Err(why) => {
                let note = cfn.note(path, format!("{why}; its capacity is imported as `TODO`"));
                let text = note.to_string();
                notes.push(note);
                return (
                    Some(Dim::Unresolved(text.clone())),
                    Some(Dim::Unresolved(text)),
                );
            }
        }
    } else {
        v
    };
    let mut field = |name: &str| -> Option<Dim> {
        let fpath = format!("{path}.{name}");
        let raw = v.get(name)?;
        let value = match cfn.eval(raw) {
            Ok(Value::String(s)) if s == NO_VALUE => return None,
            Ok(e) => e,
            Err(why) => {
                let note = cfn.note(&fpath, format!("{why}; imported as `TODO`"));
                let text = note.to_string();
                notes.push(note);
                return Some(Dim::Unresolved(text));
            }
        };
        match text_of(&value).as_deref().and_then(whole) {
            Some(u) => Some(Dim::Fixed(u)),
            None => {
                let note = cfn.note(
                    &fpath,
                    format!("`{value}` is not a whole number of units; imported as `TODO`"),
                );
                let text = note.to_string();
                notes.push(note);
                Some(Dim::Unresolved(text))
            }
        }
    };
    (field("ReadCapacityUnits"), field("WriteCapacityUnits"))
}

/// An index of a written-out list with every field but `ProvisionedThroughput` (read on its
/// own by `throughput`) evaluated; `None`, with a note, when the index itself is `!Ref
/// AWS::NoValue` or cannot be evaluated.
fn index_fields(cfn: &Cfn<'_>, raw: &Value, path: &str, notes: &mut Vec<Note>) -> Option<Value> {
    let Some(fields) = raw.as_object().filter(|_| !is_intrinsic(raw)) else {
        return match cfn.eval(raw) {
            Ok(Value::String(s)) if s == NO_VALUE => None,
            Ok(v) => Some(v),
            Err(why) => {
                notes.push(cfn.note(path, format!("{why}; skipped")));
                None
            }
        };
    };
    let mut out = serde_json::Map::new();
    for (k, v) in fields {
        if k == "ProvisionedThroughput" {
            continue;
        }
        match cfn.eval(v) {
            Ok(Value::String(s)) if s == NO_VALUE => {}
            Ok(e) => {
                out.insert(k.clone(), e);
            }
            Err(why) => notes.push(cfn.note(&format!("{path}.{k}"), format!("{why}; skipped"))),
        }
    }
    Some(Value::Object(out))
}

/// Whether `v` is an intrinsic function (`{"Ref": …}`, `{"Fn::If": […]}`) rather than a
/// property's own map.
fn is_intrinsic(v: &Value) -> bool {
    v.as_object().is_some_and(|m| {
        m.len() == 1
            && m.keys()
                .all(|k| k == "Ref" || k.starts_with("Fn::") || k == "Condition")
    })
}

fn on_demand(cfn: &Cfn<'_>, v: Option<Value>, path: &str, notes: &mut Vec<Note>) -> Billing {
    let v = v.unwrap_or(Value::Null);
    Billing::OnDemand {
        max_read: units(
            cfn,
            v.get("MaxReadRequestUnits"),
            &format!("{path}.MaxReadRequestUnits"),
            notes,
        ),
        max_write: units(
            cfn,
            v.get("MaxWriteRequestUnits"),
            &format!("{path}.MaxWriteRequestUnits"),
            notes,
        ),
    }
}

fn indexes(
    cfn: &Cfn<'_>,
    props: &Value,
    path: &str,
    notes: &mut Vec<Note>,
    global: bool,
) -> Vec<IndexDef> {
    let field = if global {
        "GlobalSecondaryIndexes"
    } else {
        "LocalSecondaryIndexes"
    };
    // A list written out is read index by index and field by field, so that one unresolved
    // value (a parameter without a default in a capacity) loses neither the index nor the
    // list; a list made by an intrinsic function is evaluated whole.
    let raw_items = match props.get(field) {
        Some(Value::Array(items)) => items.clone(),
        _ => match prop(cfn, props, path, field, notes) {
            Some(Value::Array(items)) => items,
            _ => return Vec::new(),
        },
    };
    let mut out = Vec::new();
    for (n, raw) in raw_items.iter().enumerate() {
        let ipath = format!("{path}.{field}[{n}]");
        let Some(i) = index_fields(cfn, raw, &ipath, notes) else {
            continue;
        };
        let i = &i;
        let Some(name) = i.get("IndexName").and_then(text_of) else {
            notes.push(cfn.note(&ipath, "an index without `IndexName`; skipped"));
            continue;
        };
        let Some(projection) = projection(i.get("Projection")) else {
            notes.push(cfn.note(&ipath, "an unknown `ProjectionType`; skipped"));
            continue;
        };
        let (read, write) = throughput(
            cfn,
            raw.get("ProvisionedThroughput"),
            &format!("{ipath}.ProvisionedThroughput"),
            notes,
        );
        out.push(IndexDef {
            name,
            global,
            key: key_schema(i.get("KeySchema")),
            projection,
            read,
            write,
        });
    }
    out
}

fn table(cfn: &Cfn<'_>, id: &str, props: &Value, path: &str, notes: &mut Vec<Note>) -> TableDef {
    let mut t = TableDef::new(
        name_of(cfn, id, props, path, notes),
        id.into(),
        origin(cfn, id, "AWS::DynamoDB::Table"),
    );
    common(cfn, &mut t, props, path, notes);
    let mode = prop(cfn, props, path, "BillingMode", notes)
        .as_ref()
        .and_then(text_of);
    // CloudFormation's default billing mode is PROVISIONED.
    t.billing = if mode.as_deref() == Some("PAY_PER_REQUEST") {
        on_demand(
            cfn,
            prop(cfn, props, path, "OnDemandThroughput", notes),
            &format!("{path}.OnDemandThroughput"),
            notes,
        )
    } else {
        let (read, write) = throughput(
            cfn,
            props.get("ProvisionedThroughput"),
            &format!("{path}.ProvisionedThroughput"),
            notes,
        );
        Billing::Provisioned { read, write }
    };
    t.indexes = indexes(cfn, props, path, notes, true);
    t.indexes.extend(indexes(cfn, props, path, notes, false));
    t
}

/// A resource's properties, and whether they are known: written as an intrinsic
/// (`!If [...]`) they are evaluated, and ones that cannot be are unknown (noted for a table),
/// never read as empty — which would give a SimpleTable SAM's default key.
fn properties(
    cfn: &Cfn<'_>,
    r: &Value,
    kind: &str,
    path: &str,
    notes: &mut Vec<Note>,
) -> (Value, bool) {
    match r.get("Properties") {
        None => (Value::Object(Map::new()), true),
        Some(p @ Value::Object(m)) if !m.keys().any(|k| k.starts_with("Fn::") || k == "Ref") => {
            (p.clone(), true)
        }
        Some(p) => match cfn.eval(p) {
            Ok(v @ Value::Object(_)) => (v, true),
            other => {
                if kind.starts_with("AWS::DynamoDB::") || kind == "AWS::Serverless::SimpleTable" {
                    let why = other.err().unwrap_or_else(|| "not an object".into());
                    notes.push(cfn.note(
                        path,
                        format!("{why}; the table's properties are unknown, skipped"),
                    ));
                }
                (Value::Object(Map::new()), false)
            }
        },
    }
}

fn simple_table(
    cfn: &Cfn<'_>,
    id: &str,
    props: &Value,
    path: &str,
    known: bool,
    notes: &mut Vec<Note>,
) -> TableDef {
    let mut t = TableDef::new(
        name_of(cfn, id, props, path, notes),
        id.into(),
        origin(cfn, id, "AWS::Serverless::SimpleTable"),
    );
    // SAM's default primary key, when none is stated (or `!Ref AWS::NoValue` removes it):
    // `id` of type String. One that is stated but cannot be evaluated, or properties that
    // cannot be, are unknown (noted), never the default.
    let removed = props
        .get("PrimaryKey")
        .is_some_and(|v| matches!(cfn.eval(v), Ok(Value::String(s)) if s == NO_VALUE));
    let stated = !known || (props.get("PrimaryKey").is_some() && !removed);
    let pk = prop(cfn, props, path, "PrimaryKey", notes);
    let key = match (&pk, stated) {
        (None, false) => Some(("id".to_string(), "S")),
        (None, true) => None,
        (Some(pk), _) => {
            let ty = match pk.get("Type").and_then(text_of).as_deref() {
                Some("Number") => "N",
                Some("Binary") => "B",
                _ => "S",
            };
            match pk.get("Name").and_then(text_of) {
                Some(name) => Some((name, ty)),
                None => {
                    notes.push(cfn.note(
                        &format!("{path}.PrimaryKey.Name"),
                        "the primary key's name is not stated; the key is left out",
                    ));
                    None
                }
            }
        }
    };
    if let Some((name, ty)) = key {
        t.key = Some((name.clone(), None));
        t.attributes.push((name, ty.into()));
    }
    // `ProvisionedThroughput` makes a SimpleTable provisioned (unless `!Ref AWS::NoValue`).
    let removed = |v: &Value| matches!(cfn.eval(v), Ok(Value::String(s)) if s == NO_VALUE);
    t.billing = match props.get("ProvisionedThroughput").filter(|v| !removed(v)) {
        Some(v) => {
            let (read, write) = throughput(
                cfn,
                Some(v),
                &format!("{path}.ProvisionedThroughput"),
                notes,
            );
            Billing::Provisioned { read, write }
        }
        None => Billing::OnDemand {
            max_read: None,
            max_write: None,
        },
    };
    t
}

fn auto_dim(
    cfn: &Cfn<'_>,
    v: &Value,
    path: &str,
    notes: &mut Vec<Note>,
    fixed_field: &str,
    auto_field: &str,
) -> Option<Dim> {
    if let Some(u) = units(
        cfn,
        v.get(fixed_field),
        &format!("{path}.{fixed_field}"),
        notes,
    ) {
        return Some(Dim::Fixed(u));
    }
    let a = v.get(auto_field)?;
    Some(Dim::Auto {
        min: units(
            cfn,
            a.get("MinCapacity"),
            &format!("{path}.{auto_field}.MinCapacity"),
            notes,
        )?,
        max: units(
            cfn,
            a.get("MaxCapacity"),
            &format!("{path}.{auto_field}.MaxCapacity"),
            notes,
        )?,
        target: a
            .pointer("/TargetTrackingScalingPolicyConfiguration/TargetValue")
            .and_then(text_of),
    })
}

fn global_table(
    cfn: &Cfn<'_>,
    id: &str,
    props: &Value,
    path: &str,
    notes: &mut Vec<Note>,
) -> TableDef {
    let mut t = TableDef::new(
        name_of(cfn, id, props, path, notes),
        id.into(),
        origin(cfn, id, "AWS::DynamoDB::GlobalTable"),
    );
    common(cfn, &mut t, props, path, notes);
    let replicas = match prop(cfn, props, path, "Replicas", notes) {
        Some(Value::Array(r)) => r,
        _ => Vec::new(),
    };
    let regions: Vec<String> = replicas
        .iter()
        .filter_map(|r| r.get("Region").and_then(text_of))
        .collect();
    let home = home_region(cfn, &regions, path, notes);
    if !home.is_empty() {
        t.region = Some(home.clone());
    }
    t.replicas = regions.iter().filter(|r| **r != home).cloned().collect();
    let home_replica = replicas
        .iter()
        .find(|r| r.get("Region").and_then(text_of).as_deref() == Some(home.as_str()));
    let mode = prop(cfn, props, path, "BillingMode", notes)
        .as_ref()
        .and_then(text_of);
    t.billing = if mode.as_deref() == Some("PAY_PER_REQUEST") {
        on_demand(
            cfn,
            prop(cfn, props, path, "WriteOnDemandThroughputSettings", notes)
                .map(|w| serde_json::json!({"MaxWriteRequestUnits": w.get("MaxWriteRequestUnits")}))
                .filter(|v| !v["MaxWriteRequestUnits"].is_null()),
            path,
            notes,
        )
    } else {
        let write = prop(
            cfn,
            props,
            path,
            "WriteProvisionedThroughputSettings",
            notes,
        )
        .and_then(|w| {
            auto_dim(
                cfn,
                &w,
                &format!("{path}.WriteProvisionedThroughputSettings"),
                notes,
                "WriteCapacityUnits",
                "WriteCapacityAutoScalingSettings",
            )
        });
        let read = home_replica
            .and_then(|r| r.get("ReadProvisionedThroughputSettings"))
            .and_then(|r| {
                auto_dim(
                    cfn,
                    r,
                    &format!("{path}.Replicas"),
                    notes,
                    "ReadCapacityUnits",
                    "ReadCapacityAutoScalingSettings",
                )
            });
        Billing::Provisioned { read, write }
    };
    if let Some(r) = home_replica {
        if r.pointer("/PointInTimeRecoverySpecification/PointInTimeRecoveryEnabled")
            .and_then(text_of)
            .as_deref()
            == Some("true")
        {
            t.pitr = true;
        }
        if r.get("TableClass").and_then(text_of).as_deref() == Some("STANDARD_INFREQUENT_ACCESS") {
            t.standard_ia = true;
        }
        if r.get("KinesisStreamSpecification").is_some() {
            t.kinesis = true;
        }
    }
    t.indexes = indexes(cfn, props, path, notes, true);
    global_index_capacity(cfn, props, path, notes, home_replica, &mut t.indexes);
    t.indexes.extend(indexes(cfn, props, path, notes, false));
    t
}

/// The stack's region is the table's home (the other replicas are its replicas); without
/// one, or when it is not a replica, the first replica, with a note.
fn home_region(cfn: &Cfn<'_>, regions: &[String], path: &str, notes: &mut Vec<Note>) -> String {
    match &cfn.region {
        Some(r) if regions.contains(r) => r.clone(),
        Some(r) => {
            notes.push(cfn.note(&format!("{path}.Replicas"), format!("the stack's region `{r}` is not among the replicas; the first replica is taken as the table's region")));
            regions.first().cloned().unwrap_or_default()
        }
        None => {
            if regions.len() > 1 {
                notes.push(cfn.note(&format!("{path}.Replicas"), format!("the stack's region is not given (`--region`): `{}`, the first replica, is taken as the table's region", regions.first().cloned().unwrap_or_default())));
            }
            regions.first().cloned().unwrap_or_default()
        }
    }
}

/// A GlobalTable's GSIs state write capacity on the index and read capacity per replica:
/// the home replica's read capacity and the index's write capacity, on each GSI.
fn global_index_capacity(
    cfn: &Cfn<'_>,
    props: &Value,
    path: &str,
    notes: &mut Vec<Note>,
    home_replica: Option<&Value>,
    indexes: &mut [IndexDef],
) {
    if let Some(Value::Array(items)) = props
        .get("GlobalSecondaryIndexes")
        .map(|v| cfn.eval(v).unwrap_or(Value::Null))
    {
        for (n, i) in items.iter().enumerate() {
            let Some(name) = i.get("IndexName").and_then(text_of) else {
                continue;
            };
            let write = i.get("WriteProvisionedThroughputSettings").and_then(|w| {
                auto_dim(
                    cfn,
                    w,
                    &format!("{path}.GlobalSecondaryIndexes[{n}]"),
                    notes,
                    "WriteCapacityUnits",
                    "WriteCapacityAutoScalingSettings",
                )
            });
            let read = home_replica
                .and_then(|r| r.get("GlobalSecondaryIndexes"))
                .and_then(Value::as_array)
                .and_then(|g| {
                    g.iter().find(|x| {
                        x.get("IndexName").and_then(text_of).as_deref() == Some(name.as_str())
                    })
                })
                .and_then(|x| x.get("ReadProvisionedThroughputSettings"))
                .and_then(|r| {
                    auto_dim(
                        cfn,
                        r,
                        &format!("{path}.Replicas"),
                        notes,
                        "ReadCapacityUnits",
                        "ReadCapacityAutoScalingSettings",
                    )
                });
            if let Some(ix) = indexes.iter_mut().find(|x| x.name == name) {
                ix.write = write.or(ix.write.take());
                ix.read = read.or(ix.read.take());
            }
        }
    }
}
