//! Email addresses checked on the client before a round trip: the
//! recipient, and the comma-separated cc and bcc lists. Deliberately plain
//! (`local@domain.tld`, no display names or comments): what the service
//! stores is a bare address, and a mistake here is cheaper to catch than a
//! bounce.

/// Longest address (RFC 5321 path limit).
const MAX_ADDRESS: usize = 254;
/// Longest local part.
const MAX_LOCAL: usize = 64;

/// Why an address is refused, said for the field it is in.
pub(crate) fn check(address: &str) -> Result<(), String> {
    let a = address.trim();
    if a.is_empty() {
        return Err("empty address".into());
    }
    let bad = || Err(format!("`{a}` is not an email address (name@example.com)"));
    if a.chars().count() > MAX_ADDRESS {
        return Err(format!("an address is at most {MAX_ADDRESS} characters"));
    }
    let Some((local, domain)) = a.rsplit_once('@') else {
        return bad();
    };
    let local_ok = !local.is_empty()
        && local.chars().count() <= MAX_LOCAL
        && !local.starts_with('.')
        && !local.ends_with('.')
        && !local.contains("..")
        && local
            .chars()
            .all(|c| !c.is_whitespace() && !c.is_control() && !"@<>()[]\\,;:\"".contains(c));
    let labels: Vec<&str> = domain.split('.').collect();
    let label_ok = |l: &&str| {
        !l.is_empty()
            && l.chars().count() <= 63
            && !l.starts_with('-')
            && !l.ends_with('-')
            && l.chars().all(|c| c.is_alphanumeric() || c == '-')
    };
    let tld_ok = labels
        .last()
        .is_some_and(|t| t.chars().count() >= 2 && t.chars().all(char::is_alphabetic));
    if local_ok && labels.len() >= 2 && labels.iter().all(label_ok) && tld_ok {
        Ok(())
    } else {
        bad()
    }
}

/// A comma-separated list (cc, bcc): every non-empty entry must be an
/// address; empty entries (a trailing comma) are ignored. Returns the
/// entries, trimmed.
pub(crate) fn check_list(list: &str) -> Result<Vec<String>, String> {
    let entries: Vec<String> = list
        .split(',')
        .map(str::trim)
        .filter(|e| !e.is_empty())
        .map(str::to_owned)
        .collect();
    let bad: Vec<String> = entries
        .iter()
        .filter(|e| check(e).is_err())
        .map(|e| format!("`{e}`"))
        .collect();
    match bad.len() {
        0 => Ok(entries),
        1 => Err(format!(
            "{} is not an email address; separate addresses with commas",
            bad[0]
        )),
        _ => Err(format!(
            "{} are not email addresses; separate addresses with commas",
            bad.join(", ")
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_addresses_pass_and_near_misses_do_not() {
        for ok in [
            "jonas.fischer@kestrel.io",
            "a+tag@sub.example.co.uk",
            "O'Brien@example.ie",
            "jürgen@bücher.de",
        ] {
            assert_eq!(check(ok), Ok(()), "{ok}");
        }
        for bad in [
            "",
            "jonas",
            "jonas@",
            "@kestrel.io",
            "jonas@kestrel",
            "jonas@@kestrel.io",
            "jo nas@kestrel.io",
            "jonas@kestrel..io",
            "jonas@-kestrel.io",
            "Jonas <jonas@kestrel.io>",
            "jonas@kestrel.i0",
            ".jonas@kestrel.io",
        ] {
            assert!(check(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn lists_name_every_bad_entry() {
        assert_eq!(
            check_list(" a@x.io, b@y.io ,"),
            Ok(vec!["a@x.io".to_owned(), "b@y.io".to_owned()])
        );
        assert_eq!(check_list(""), Ok(Vec::new()));
        let e = check_list("a@x.io; b@y.io").unwrap_err();
        assert!(e.contains("`a@x.io; b@y.io` is not"), "{e}");
        let e = check_list("sam, a@x.io, lee").unwrap_err();
        assert!(e.contains("`sam`, `lee` are not"), "{e}");
    }
}
