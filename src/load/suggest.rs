//! "Did you mean …?" for names a user mistyped: fields, enum values, index and table names.

/// The candidate closest to `input`, if it is close enough to be a plausible typo.
#[must_use]
pub(crate) fn closest<'a, I: IntoIterator<Item = &'a str>>(
    input: &str,
    candidates: I,
) -> Option<&'a str> {
    candidates
        .into_iter()
        .map(|c| {
            (
                strsim::damerau_levenshtein(&input.to_lowercase(), &c.to_lowercase()),
                c,
            )
        })
        .filter(|(d, c)| *d <= (c.len().max(input.len()) / 3).max(2))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// A "Consider …" sentence: the closest candidate if there is one, and what is known.
#[must_use]
pub(crate) fn consider(input: &str, candidates: &[&str], what: &str) -> String {
    match closest(input, candidates.iter().copied()) {
        Some(c) => format!(
            "Consider `{c}` (did you mean it?); {what}: {}.",
            list(candidates)
        ),
        None if candidates.is_empty() => format!("Consider declaring it first; {what}: none."),
        None => format!("Consider one of the {what}: {}.", list(candidates)),
    }
}

fn list(candidates: &[&str]) -> String {
    candidates
        .iter()
        .map(|c| format!("`{c}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_plausible_typos_only() {
        assert_eq!(
            closest("consistncy", ["rate", "consistency"]),
            Some("consistency")
        );
        assert_eq!(closest("eventul", ["strong", "eventual"]), Some("eventual"));
        assert_eq!(closest("zzzzzz", ["strong", "eventual"]), None);
    }
}
