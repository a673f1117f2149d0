//! Words for counts, so "1 lead" and "2 leads" come out right everywhere
//! the pane says how many.

use crate::text::format;

/// `one` for 1, else `many`.
pub fn plural<'a>(n: u64, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 { one } else { many }
}

/// "1 lead", "2,000 leads".
pub fn counted(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", format::count(n), plural(n, one, many))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_is_singular_and_everything_else_plural() {
        assert_eq!(counted(1, "lead", "leads"), "1 lead");
        assert_eq!(counted(0, "lead", "leads"), "0 leads");
        assert_eq!(counted(2000, "row", "rows"), "2,000 rows");
    }
}
