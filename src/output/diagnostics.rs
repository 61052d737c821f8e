//! What a run says on standard error besides its report: notes and warnings, each said once
//! (a comparison prices the same tables many times, and a note is also a report warning).
//! A `Diagnostics` is a value owned by one run and passed down, so a library caller that
//! prices two workloads in one process gets two independent sets; it is `Sync` because
//! `sweep` prices on every core. What a message quotes from a file (a bad line of a sample,
//! a name) is printed with its control characters escaped (`crate::text::shown`).

use std::sync::{Mutex, PoisonError};

/// The messages of one run, and those already said.
#[derive(Debug, Default)]
pub(crate) struct Diagnostics {
    said: Mutex<Vec<String>>,
    /// Keep the messages without printing them (a library session reads them back).
    quiet: bool,
}

impl Diagnostics {
    /// Diagnostics that record what they are told and print nothing.
    #[must_use]
    pub(crate) fn quiet() -> Self {
        Diagnostics {
            said: Mutex::new(Vec::new()),
            quiet: true,
        }
    }

    /// Whether this run said `message` on standard error already.
    pub(crate) fn has_said(&self, message: &str) -> bool {
        self.said
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .iter()
            .any(|m| m == message)
    }

    /// Prints `kind: message` on standard error unless this run said the message already.
    pub(crate) fn once(&self, kind: &str, message: &str) {
        let mut said = self.said.lock().unwrap_or_else(PoisonError::into_inner);
        if !said.iter().any(|m| m == message) {
            said.push(message.to_string());
            if !self.quiet {
                super::warn(&format!("{kind}: {}", crate::text::shown(message)));
            }
        }
    }

    /// Prints `kind: message` on standard error, every time.
    pub(crate) fn say(&self, kind: &str, message: &str) {
        if self.quiet {
            self.once(kind, message);
        } else {
            super::warn(&format!("{kind}: {}", crate::text::shown(message)));
        }
    }

    /// The messages said once so far, in order.
    #[must_use]
    pub(crate) fn said(&self) -> Vec<String> {
        self.said
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_runs_keep_two_sets() {
        let (a, b) = (Diagnostics::default(), Diagnostics::default());
        a.once("note", "x");
        a.once("note", "x");
        b.once("note", "x");
        assert_eq!(a.said(), ["x"]);
        assert_eq!(b.said(), ["x"]);
    }
}
