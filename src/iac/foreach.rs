//! `Fn::ForEach` of CloudFormation's `AWS::LanguageExtensions` transform, expanded before a
//! template's resources are read, as CloudFormation expands it:
//! `Fn::ForEach::Name: [Identifier, Collection, {OutputKey: OutputValue}]` gives one copy of
//! the fragment per value of the collection, with `${Identifier}` (and `&{Identifier}`, the
//! value without its non-alphanumeric characters) replaced in the output keys and in
//! `Fn::Sub` strings, and `{"Ref": Identifier}` replaced by the value. Loops nest (AWS allows
//! five levels); the collection is a list or a `Ref` to a list parameter
//! (`CommaDelimitedList`, its default or `--parameter`). Bounded: at most `MAX_COPIES`
//! fragments in all, so a loop over a loop over a long list stops with a reason.

use std::collections::HashMap;

use serde_json::{Map, Value};

/// Copies all the loops of one template may make (a real template makes tens).
pub(crate) const MAX_COPIES: usize = 10_000;
/// CloudFormation's own limit of nested loops.
pub(crate) const MAX_NESTING: usize = 5;
/// JSON values all the copies may hold: 10,000 copies of a large fragment must not fill
/// memory.
pub(crate) const MAX_NODES: usize = 2_000_000;

const PREFIX: &str = "Fn::ForEach::";

/// Something a loop could not expand: where (a dotted path) and why.
pub(crate) type Refusal = (String, String);

/// `map` (a template's `Resources`) with every `Fn::ForEach::…` key replaced by its copies;
/// the loops that cannot be expanded are left out, each with why.
#[must_use]
pub(crate) fn expand(
    map: &Map<String, Value>,
    parameters: &HashMap<String, Value>,
    path: &str,
) -> (Map<String, Value>, Vec<Refusal>) {
    let mut cx = Cx {
        parameters,
        copies: 0,
        nodes: 0,
        refusals: Vec::new(),
    };
    let out = cx.map(map, path, 0);
    (out, cx.refusals)
}

struct Cx<'a> {
    parameters: &'a HashMap<String, Value>,
    copies: usize,
    nodes: usize,
    refusals: Vec<Refusal>,
}

impl Cx<'_> {
    fn map(&mut self, map: &Map<String, Value>, path: &str, depth: usize) -> Map<String, Value> {
        let mut out = Map::with_capacity(map.len());
        for (key, value) in map {
            let at = format!("{path}.{key}");
            if key.starts_with(PREFIX) {
                for (k, v) in self.for_each(value, &at, depth) {
                    if out.contains_key(&k) {
                        self.refusals.push((
                            at.clone(),
                            format!("gives `{k}` twice; the second is left out"),
                        ));
                        continue;
                    }
                    out.insert(k, v);
                }
            } else {
                out.insert(key.clone(), self.value(value, &at, depth));
            }
        }
        out
    }

    fn value(&mut self, v: &Value, path: &str, depth: usize) -> Value {
        match v {
            Value::Object(m) if m.keys().any(|k| k.starts_with(PREFIX)) => {
                Value::Object(self.map(m, path, depth))
            }
            Value::Object(m) => Value::Object(
                m.iter()
                    .map(|(k, x)| (k.clone(), self.value(x, &format!("{path}.{k}"), depth)))
                    .collect(),
            ),
            Value::Array(a) => Value::Array(
                a.iter()
                    .enumerate()
                    .map(|(i, x)| self.value(x, &format!("{path}[{i}]"), depth))
                    .collect(),
            ),
            other => other.clone(),
        }
    }

    /// The copies one loop makes, its inner loops expanded.
    fn for_each(&mut self, v: &Value, path: &str, depth: usize) -> Vec<(String, Value)> {
        if depth >= MAX_NESTING {
            self.refusals.push((
                path.to_string(),
                format!(
                    "loops nest deeper than CloudFormation's {MAX_NESTING} levels; not expanded"
                ),
            ));
            return Vec::new();
        }
        let Some([id, collection, fragment]) = v.as_array().map(Vec::as_slice) else {
            self.refusals.push((
                path.to_string(),
                "is not `[Identifier, Collection, {OutputKey: OutputValue}]`; not expanded".into(),
            ));
            return Vec::new();
        };
        let (Some(id), Some(fragment)) = (id.as_str(), fragment.as_object()) else {
            self.refusals.push((
                path.to_string(),
                "needs an identifier (text) and a fragment (a map); not expanded".into(),
            ));
            return Vec::new();
        };
        let values = match self.collection(collection) {
            Ok(values) => values,
            Err(why) => {
                self.refusals
                    .push((path.to_string(), format!("{why}; not expanded")));
                return Vec::new();
            }
        };
        let size = nodes(&Value::Object(fragment.clone()));
        let mut out = Vec::new();
        for value in values {
            self.copies = self.copies.saturating_add(1);
            self.nodes = self.nodes.saturating_add(size);
            if self.nodes > MAX_NODES {
                self.refusals.push((
                    path.to_string(),
                    format!(
                        "the copies would hold more than {MAX_NODES} values; the rest are left out"
                    ),
                ));
                return out;
            }
            if self.copies > MAX_COPIES {
                self.refusals.push((
                    path.to_string(),
                    format!("the loops make more than {MAX_COPIES} copies; the rest are left out"),
                ));
                return out;
            }
            let copy = substitute(&Value::Object(fragment.clone()), id, &value, false);
            if let Value::Object(m) = copy {
                out.extend(self.map(&m, path, depth.saturating_add(1)));
            }
        }
        out
    }

    /// The values a collection gives: a list of texts, or a list parameter.
    fn collection(&self, c: &Value) -> Result<Vec<String>, String> {
        let list = match c {
            Value::Object(m) if m.len() == 1 && m.contains_key("Ref") => {
                let name = m.get("Ref").and_then(Value::as_str).unwrap_or_default();
                match self.parameters.get(name) {
                    Some(Value::String(s)) => {
                        return Ok(s.split(',').map(|x| x.trim().to_string()).collect());
                    }
                    Some(Value::Array(a)) => a.clone(),
                    Some(_) => return Err(format!("parameter `{name}` is not a list")),
                    None => {
                        return Err(format!(
                            "the collection is parameter `{name}`, which has no default (give it with `--parameter {name}=a,b`)"
                        ));
                    }
                }
            }
            Value::Array(a) => a.clone(),
            _ => return Err("its collection is not a list ddbcost can read (a list, or `!Ref` of a list parameter)".into()),
        };
        list.iter()
            .map(|x| match x {
                Value::String(s) => Ok(s.clone()),
                Value::Number(n) => Ok(n.to_string()),
                other => Err(format!("the collection holds `{other}`, not a text")),
            })
            .collect()
    }
}

/// How many JSON values `v` holds, itself included.
fn nodes(v: &Value) -> usize {
    match v {
        Value::Object(m) => m.values().map(nodes).fold(1, usize::saturating_add),
        Value::Array(a) => a.iter().map(nodes).fold(1, usize::saturating_add),
        _ => 1,
    }
}

/// `v` with the loop's identifier replaced by `value`: in keys, in `Fn::Sub` texts (`in_sub`)
/// and as `{"Ref": id}`.
fn substitute(v: &Value, id: &str, value: &str, in_sub: bool) -> Value {
    match v {
        Value::Object(m) if m.len() == 1 && m.get("Ref").and_then(Value::as_str) == Some(id) => {
            Value::String(value.to_string())
        }
        Value::Object(m) => Value::Object(
            m.iter()
                .map(|(k, x)| {
                    let sub = in_sub || k == "Fn::Sub";
                    (replace(k, id, value), substitute(x, id, value, sub))
                })
                .collect(),
        ),
        Value::Array(a) => {
            Value::Array(a.iter().map(|x| substitute(x, id, value, in_sub)).collect())
        }
        Value::String(s) if in_sub => Value::String(replace(s, id, value)),
        other => other.clone(),
    }
}

/// `text` with `${id}` replaced by `value` and `&{id}` by its alphanumeric characters.
fn replace(text: &str, id: &str, value: &str) -> String {
    let plain: String = value.chars().filter(char::is_ascii_alphanumeric).collect();
    text.replace(&format!("${{{id}}}"), value)
        .replace(&format!("&{{{id}}}"), &plain)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_loop_gives_one_copy_per_value_and_loops_nest() {
        let resources = json!({
            "Fn::ForEach::Tables": ["Name", ["orders", "user-sessions"], {
                "&{Name}Table": {
                    "Type": "AWS::DynamoDB::Table",
                    "Properties": {
                        "TableName": {"Fn::Sub": "${Name}-${AWS::Region}"},
                        "Tags": [{"Key": "name", "Value": {"Ref": "Name"}}],
                    }
                }
            }],
            "Fn::ForEach::Envs": ["Env", {"Ref": "Envs"}, {
                "Fn::ForEach::Kinds": ["Kind", ["a", "b"], {
                    "T${Env}${Kind}": {"Type": "AWS::DynamoDB::Table"}
                }]
            }],
        });
        let params = HashMap::from([("Envs".to_string(), json!("dev, prod"))]);
        let (out, refusals) = expand(resources.as_object().unwrap(), &params, "Resources");
        assert!(refusals.is_empty(), "{refusals:?}");
        let keys: Vec<&str> = out.keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            [
                "ordersTable",
                "usersessionsTable",
                "Tdeva",
                "Tdevb",
                "Tproda",
                "Tprodb"
            ]
        );
        assert_eq!(
            out["usersessionsTable"]["Properties"]["TableName"],
            json!({"Fn::Sub": "user-sessions-${AWS::Region}"})
        );
        assert_eq!(
            out["ordersTable"]["Properties"]["Tags"][0]["Value"],
            json!("orders")
        );
    }

    #[test]
    fn loops_are_bounded_and_say_why() {
        // Six levels: CloudFormation allows five.
        let mut inner = json!({"T${L5}": {"Type": "AWS::DynamoDB::Table"}});
        for level in (0..6).rev() {
            inner =
                json!({ format!("Fn::ForEach::L{level}"): [format!("L{level}"), ["x"], inner] });
        }
        let (out, refusals) = expand(inner.as_object().unwrap(), &HashMap::new(), "Resources");
        assert!(out.is_empty());
        assert!(
            refusals[0]
                .1
                .contains("deeper than CloudFormation's 5 levels"),
            "{refusals:?}"
        );
        // 200 × 200 copies: more than 10,000.
        let many: Vec<String> = (0..200).map(|i| i.to_string()).collect();
        let doc = json!({"Fn::ForEach::A": ["A", many, {
            "Fn::ForEach::B": ["B", many, {"T${A}x${B}": {}}]
        }]});
        let (out, refusals) = expand(doc.as_object().unwrap(), &HashMap::new(), "Resources");
        assert!(out.len() < MAX_COPIES);
        assert!(
            refusals
                .iter()
                .any(|r| r.1.contains("more than 10000 copies"))
        );
        // 1,000 copies of a fragment of 5,000 values: more than 2,000,000 values.
        let big: Vec<Value> = (0..5_000).map(|i| json!(i)).collect();
        let thousand: Vec<String> = (0..1_000).map(|i| i.to_string()).collect();
        let doc = json!({"Fn::ForEach::A": ["A", thousand, {"T${A}": {"Tags": big}}]});
        let (out, refusals) = expand(doc.as_object().unwrap(), &HashMap::new(), "Resources");
        assert!(out.len() < 1_000 && !out.is_empty(), "{}", out.len());
        assert!(
            refusals
                .iter()
                .any(|r| r.1.contains("more than 2000000 values"))
        );
        // A parameter with no default.
        let doc = json!({"Fn::ForEach::A": ["A", {"Ref": "Names"}, {"T${A}": {}}]});
        let (_, refusals) = expand(doc.as_object().unwrap(), &HashMap::new(), "Resources");
        assert!(
            refusals[0]
                .1
                .contains("give it with `--parameter Names=a,b`")
        );
    }
}
