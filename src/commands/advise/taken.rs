//! The fields the combined plan has set so far, indexed so that a candidate's conflict (a
//! field it sets equal to, inside or around one already set — `Candidate::conflicts`) is
//! found in a few ordered-map lookups instead of a scan of every step taken.

use std::collections::BTreeMap;
use std::ops::Bound;

use crate::advise::Candidate;

/// Dotted paths set by the steps taken, each with the step that set it (by its order).
#[derive(Debug, Default)]
pub(super) struct Taken {
    paths: BTreeMap<String, usize>,
    names: Vec<String>,
}

impl Taken {
    /// Records the fields `candidate` sets.
    pub(super) fn take(&mut self, candidate: &Candidate) {
        let at = self.names.len();
        for path in candidate.touches() {
            self.paths.entry(path).or_insert(at);
        }
        self.names.push(candidate.name.clone());
    }

    /// The name of the first step taken that sets a field `candidate` sets, or one inside or
    /// around it.
    pub(super) fn conflict(&self, candidate: &Candidate) -> Option<&str> {
        let mut first: Option<usize> = None;
        let mut saw = |at: usize| first = Some(first.map_or(at, |f| f.min(at)));
        for path in candidate.touches() {
            // The same field, or one around it: `path` itself or a prefix ending before a dot.
            if let Some(&at) = self.paths.get(&path) {
                saw(at);
            }
            for (i, _) in path.match_indices('.') {
                if let Some(&at) = path.get(..i).and_then(|p| self.paths.get(p)) {
                    saw(at);
                }
            }
            // A field inside it: every path that starts with `path.`, a run of the map.
            let inside = format!("{path}.");
            for (other, &at) in self
                .paths
                .range::<str, _>((Bound::Included(inside.as_str()), Bound::Unbounded))
            {
                if !other.starts_with(&inside) {
                    break;
                }
                saw(at);
            }
        }
        first.and_then(|at| self.names.get(at)).map(String::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn c(name: &str, patch: Value) -> Candidate {
        Candidate {
            name: name.into(),
            title: String::new(),
            rule: String::new(),
            assumes: String::new(),
            patch,
        }
    }

    /// The index finds exactly what `Candidate::conflicts` finds against each step taken,
    /// and names the first such step.
    #[test]
    fn finds_what_conflicts_finds() {
        let steps = [
            c(
                "mode",
                json!({"tables": {"t": {"capacity": {"mode": "provisioned"}}}}),
            ),
            c("class", json!({"tables": {"t": {"class": "standard-ia"}}})),
            c("drop-g", json!({"tables": {"t": {"indexes": {"g": null}}}})),
            c(
                "u-rcu",
                json!({"tables": {"u": {"capacity": {"rcu": 5, "wcu": 5}}}}),
            ),
        ];
        let probes = [
            c(
                "a",
                json!({"tables": {"t": {"capacity": {"mode": "on-demand"}}}}),
            ),
            c("b", json!({"tables": {"t": {"capacity": null}}})),
            c(
                "d",
                json!({"tables": {"t": {"indexes": {"g": {"projection": "keys"}}}}}),
            ),
            c("e", json!({"tables": {"t": {"indexes": {"h": null}}}})),
            c("f", json!({"tables": {"u": {"capacity": {"wcu": 9}}}})),
            c("g", json!({"tables": {"tt": {"class": "standard"}}})),
            c(
                "h",
                json!({"tables": {"t": {"class": "standard", "capacity": {"x": 1}}}}),
            ),
            c("i", json!({"tables": null})),
        ];
        let mut taken = Taken::default();
        for s in &steps {
            taken.take(s);
        }
        let mut conflicting = 0;
        for p in &probes {
            let expected = steps
                .iter()
                .find(|s| s.conflicts(p))
                .map(|s| s.name.as_str());
            assert_eq!(taken.conflict(p), expected, "{}", p.name);
            conflicting += usize::from(expected.is_some());
        }
        // a, b, d, f, h and i conflict; e and g do not.
        assert_eq!(conflicting, 6);
        assert_eq!(taken.conflict(&probes[6]), Some("class"));
        assert_eq!(
            taken.conflict(&probes[7]),
            Some("mode"),
            "the first step is named"
        );
    }
}
