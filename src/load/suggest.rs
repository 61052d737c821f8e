//! "Did you mean …?" for names a user mistyped: fields, enum values, index and table names.

/// The candidate closest to `input`, if it is close enough to be a plausible typo; else the
/// one `input` spells out in full (`operation` for `op`, `consistent` for `consistency`:
/// one is the start of the other, and the shorter is at least 2 letters), when only one does.
#[must_use]
pub(crate) fn closest<'a, I: IntoIterator<Item = &'a str>>(
    input: &str,
    candidates: I,
) -> Option<&'a str> {
    let input = input.to_lowercase();
    let candidates: Vec<&'a str> = candidates.into_iter().collect();
    let typo = candidates
        .iter()
        .map(|c| (strsim::damerau_levenshtein(&input, &c.to_lowercase()), *c))
        .filter(|(d, c)| *d <= (c.len().max(input.len()) / 3).max(2))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c);
    typo.or_else(|| {
        let mut spelt = candidates.iter().filter(|c| {
            let c = c.to_lowercase();
            let (short, long) = if c.len() < input.len() {
                (c.as_str(), input.as_str())
            } else {
                (input.as_str(), c.as_str())
            };
            short.chars().count() >= 2 && long.starts_with(short)
        });
        match (spelt.next(), spelt.next()) {
            (Some(c), None) => Some(*c),
            _ => None,
        }
    })
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

    #[test]
    fn a_name_spelt_out_in_full_finds_its_short_form() {
        // `operation` is 7 edits from `op`, too far for a typo, and starts with it.
        assert_eq!(closest("operation", ["keys", "op", "rate"]), Some("op"));
        assert_eq!(
            closest("Consistent", ["rate", "consistency"]),
            Some("consistency")
        );
        // Two candidates it could stand for, or a one-letter start: no guess.
        assert_eq!(closest("read", ["read_units", "read_share"]), None);
        assert_eq!(closest("r", ["rate"]), None);
    }
}
