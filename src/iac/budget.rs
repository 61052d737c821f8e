//! Bounds on evaluating infrastructure code, shared by every template reader: a chain of
//! names being evaluated (a condition, a resource's name, a `${self:…}` path) so that one
//! that reaches itself is a cycle, not a stack overflow; a depth bound; and an expansion
//! budget of evaluation steps and of the length of any text produced, so that definitions
//! that double at each level (`!And [!Condition P, !Condition P]`, names joined from the
//! previous name twice) stop with a reason instead of running for hours. A reader turns the
//! reason into a note at the path it was evaluating.

use std::cell::{Cell, RefCell};

/// Evaluation steps one template may take: a real template takes a few thousand.
pub(crate) const MAX_STEPS: u64 = 1_000_000;
/// Nested evaluations (a reference inside a reference …): real templates nest a handful.
pub(crate) const MAX_DEPTH: u32 = 300;
/// The longest text an evaluation may produce (a DynamoDB table name is at most 255 bytes;
/// a policy document or a joined list a few kilobytes).
pub(crate) const MAX_TEXT_BYTES: usize = 64 * 1024;

#[derive(Debug, Default)]
pub(crate) struct Budget {
    steps: Cell<u64>,
    depth: Cell<u32>,
    chain: RefCell<Vec<String>>,
}

/// Leaves a level of depth (and a name of the chain) when dropped.
pub(crate) struct Level<'a> {
    budget: &'a Budget,
    named: bool,
}

impl Drop for Level<'_> {
    fn drop(&mut self) {
        self.budget
            .depth
            .set(self.budget.depth.get().saturating_sub(1));
        if self.named {
            self.budget.chain.borrow_mut().pop();
        }
    }
}

impl Budget {
    #[must_use]
    pub(crate) fn new() -> Self {
        Budget::default()
    }

    /// One evaluation step, one level deeper.
    ///
    /// # Errors
    /// The step budget or the depth bound is exhausted.
    pub(crate) fn step(&self) -> Result<Level<'_>, String> {
        let steps = self.steps.get().saturating_add(1);
        self.steps.set(steps);
        if steps > MAX_STEPS {
            return Err(format!(
                "evaluating it takes more than {MAX_STEPS} steps (definitions that expand at each level?); stopped"
            ));
        }
        let depth = self.depth.get().saturating_add(1);
        if depth > MAX_DEPTH {
            return Err(format!(
                "it nests more than {MAX_DEPTH} evaluations deep; stopped"
            ));
        }
        self.depth.set(depth);
        Ok(Level {
            budget: self,
            named: false,
        })
    }

    /// Enters the evaluation of `name` (`condition IsProd`, `Resources.Orders`): refused when
    /// `name` is already being evaluated further up, with the chain that leads back to it.
    ///
    /// # Errors
    /// A cycle, or the bounds of `step`.
    pub(crate) fn enter(&self, name: &str) -> Result<Level<'_>, String> {
        {
            let chain = self.chain.borrow();
            if let Some(at) = chain.iter().position(|n| n == name) {
                let mut cycle: Vec<&str> = chain[at..].iter().map(String::as_str).collect();
                cycle.push(name);
                return Err(format!(
                    "{name} refers to itself ({}): a cycle",
                    cycle.join(" → ")
                ));
            }
        }
        let mut level = self.step()?;
        self.chain.borrow_mut().push(name.to_string());
        level.named = true;
        Ok(level)
    }

    /// Text an evaluation produced, refused past `MAX_TEXT_BYTES`.
    ///
    /// # Errors
    /// The text is too long.
    #[allow(
        clippy::unused_self,
        reason = "one of the budget's checks, called on it like the others"
    )]
    pub(crate) fn text(&self, text: String) -> Result<String, String> {
        if text.len() > MAX_TEXT_BYTES {
            return Err(format!(
                "it evaluates to more than {MAX_TEXT_BYTES} bytes of text (a name that doubles?); stopped"
            ));
        }
        Ok(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_met_again_is_a_cycle_with_its_chain() {
        let b = Budget::new();
        let _a = b.enter("condition A").unwrap();
        let _b = b.enter("condition B").unwrap();
        let err = b.enter("condition A").err().unwrap();
        assert!(
            err.contains("condition A → condition B → condition A"),
            "{err}"
        );
    }

    #[test]
    fn leaving_a_level_forgets_its_name() {
        let b = Budget::new();
        drop(b.enter("x").unwrap());
        assert!(b.enter("x").is_ok());
    }

    #[test]
    fn steps_and_depth_are_bounded() {
        let b = Budget::new();
        let mut levels = Vec::new();
        for _ in 0..MAX_DEPTH {
            levels.push(b.step().unwrap());
        }
        assert!(b.step().err().unwrap().contains("deep"));
        drop(levels);
        let b = Budget::new();
        for _ in 0..MAX_STEPS {
            drop(b.step().unwrap());
        }
        assert!(b.step().err().unwrap().contains("steps"));
        assert!(
            b.text("x".repeat(MAX_TEXT_BYTES.saturating_add(1)))
                .is_err()
        );
    }
}
