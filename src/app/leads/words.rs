//! The word for a count, where the count itself is said apart ("3 of
//! them lack", "its roster is"); a count with its noun is
//! `text::format::plural`.

/// `one` for 1, else `many`.
pub(crate) fn plural<'a>(n: u64, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 { one } else { many }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_is_singular_and_everything_else_plural() {
        assert_eq!(plural(1, "lacks", "lack"), "lacks");
        assert_eq!(plural(0, "lacks", "lack"), "lack");
    }
}
