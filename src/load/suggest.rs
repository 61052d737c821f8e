//! "Did you mean …?" for names a user mistyped: fields, enum values, index and table names.

/// The candidate closest to `input`, if it is close enough to be a plausible typo.
#[must_use]
pub fn closest<'a, I: IntoIterator<Item = &'a str>>(input: &str, candidates: I) -> Option<&'a str> {
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

/// "Consider `x`." or a listing of what is allowed.
#[must_use]
pub fn did_you_mean(input: &str, candidates: &[&str]) -> String {
    match closest(input, candidates.iter().copied()) {
        Some(c) => format!("did you mean `{c}`? Expected one of: {}", list(candidates)),
        None => format!("expected one of: {}", list(candidates)),
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
