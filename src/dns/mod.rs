//! Per-record DNS truth. The service reports one status per sending domain;
//! Outpost asks DNS itself for each record the domain must publish and
//! tells, record by record, whether it is found, missing or different (and
//! what was found instead).
//!
//! This module is pure: the questions ([`Query`]), the answers ([`Lookup`])
//! and the comparison ([`check`]). Asking DNS is an effect, carried out by
//! `runtime::dns`.

#[cfg(any(test, feature = "test-util"))]
pub(crate) mod test_server;

use std::net::IpAddr;
use std::time::Duration;

use crate::api::model::DnsRecord;

/// How long an answer is taken as it is: a record is not asked again
/// sooner (however often the watch polls), nor kept by the resolver's own
/// cache longer (whatever its TTL), so a record just published shows at
/// the next check.
pub(crate) const CACHE_FOR: Duration = Duration::from_secs(5);

/// One question to DNS: a fully qualified name and a record type.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Query {
    /// The name, lower case, with its trailing dot (`send.x.io.`), so no
    /// search domain is ever appended.
    pub name: String,
    /// The record type, upper case (`TXT`, `MX`, `CNAME`, `A`…).
    pub kind: String,
}

impl Query {
    /// The question for an expected record of `domain`. A name given
    /// relative to the domain (`send`, `@`) is made absolute.
    pub fn of(record: &DnsRecord, domain: &str) -> Query {
        Query {
            name: absolute(&record.name, domain),
            kind: record.kind.trim().to_ascii_uppercase(),
        }
    }
}

/// The name as DNS knows it: lower case, with its trailing dot.
fn absolute(name: &str, domain: &str) -> String {
    let name = name.trim().trim_end_matches('.').to_ascii_lowercase();
    let domain = domain.trim().trim_end_matches('.').to_ascii_lowercase();
    let full = if name.is_empty() || name == "@" {
        domain
    } else if domain.is_empty() || name == domain || name.ends_with(&format!(".{domain}")) {
        name
    } else {
        format!("{name}.{domain}")
    };
    format!("{full}.")
}

/// One record found at DNS.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// An MX record's preference.
    pub priority: Option<u16>,
    /// The record's data: a TXT record's strings joined, an MX exchange,
    /// a CNAME target, an address.
    pub value: String,
}

impl Found {
    /// How it is shown: `10 mx.example.net.` for an MX record.
    pub fn display(&self) -> String {
        match self.priority {
            Some(p) => format!("{p} {}", self.value),
            None => self.value.clone(),
        }
    }
}

/// The answer to one [`Query`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Lookup {
    /// Records of the type at the name.
    Records(Vec<Found>),
    /// The name exists, with no record of the type.
    NoRecords,
    /// The name does not exist (NXDOMAIN).
    NoName,
    /// No answer could be had (time-out, refused, server failure): why.
    Failed(String),
}

/// What one resolve effect brings back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answers {
    /// The resolver asked (`1.1.1.1:53`, or `system resolver`).
    pub resolver: String,
    /// Each question with its answer.
    pub lookups: Vec<(Query, Lookup)>,
}

/// How an expected record compares with what DNS holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// DNS holds the record as expected.
    Found,
    /// DNS holds no record of the type at the name.
    Missing,
    /// DNS holds records of the type at the name, none as expected: what
    /// it holds (those of the same kind first, e.g. the other SPF policy).
    Different(Vec<String>),
    /// DNS could not be asked: why.
    Failed(String),
}

impl Verdict {
    /// A short word for the table: `found`, `missing`, `differs`, `error`.
    pub fn word(&self) -> &'static str {
        match self {
            Verdict::Found => "found",
            Verdict::Missing => "missing",
            Verdict::Different(_) => "differs",
            Verdict::Failed(_) => "error",
        }
    }
}

/// Compares an expected record with the answer to its [`Query`].
pub(crate) fn check(record: &DnsRecord, lookup: &Lookup) -> Verdict {
    let found = match lookup {
        Lookup::Records(found) if !found.is_empty() => found,
        Lookup::Records(_) | Lookup::NoRecords | Lookup::NoName => return Verdict::Missing,
        Lookup::Failed(why) => return Verdict::Failed(why.clone()),
    };
    let kind = record.kind.trim().to_ascii_uppercase();
    let same = |f: &Found| match kind.as_str() {
        "TXT" | "SPF" => txt_equal(&record.value, &f.value),
        "MX" => mx_equal(record, f),
        "CNAME" | "NS" | "PTR" => host(&record.value) == host(&f.value),
        "A" | "AAAA" => ip_equal(&record.value, &f.value),
        _ => record.value.trim().eq_ignore_ascii_case(f.value.trim()),
    };
    if found.iter().any(same) {
        return Verdict::Found;
    }
    // What competes with the expected record first: a TXT name may hold
    // an SPF policy beside unrelated verification strings.
    let tag = version_tag(&record.value);
    let (alike, other): (Vec<&Found>, Vec<&Found>) = found
        .iter()
        .partition(|f| tag.is_some() && version_tag(&f.value) == tag);
    let shown = if alike.is_empty() { other } else { alike };
    Verdict::Different(shown.into_iter().map(Found::display).collect())
}

/// `v=spf1`, `v=dkim1`, `v=dmarc1`: a TXT value's version tag, lower case.
fn version_tag(value: &str) -> Option<String> {
    let v = unquote(value);
    let first = v.split([';', ' ']).next()?.trim().to_ascii_lowercase();
    first.starts_with("v=").then_some(first)
}

/// Whether two TXT values say the same: quotes and the split into
/// strings (DKIM keys come in 255-byte chunks) do not count; in a
/// tag-value list (`v=DKIM1; k=rsa; p=…`, `v=DMARC1; …`) whitespace does
/// not count at all; elsewhere runs of whitespace count as one space.
pub(crate) fn txt_equal(expected: &str, found: &str) -> bool {
    let (a, b) = (unquote(expected), unquote(found));
    let tag_list = |s: &str| {
        let v = s.trim_start().to_ascii_lowercase();
        v.starts_with("v=dkim1") || v.starts_with("v=dmarc1")
    };
    if tag_list(&a) || tag_list(&b) {
        let squeeze = |s: &str| s.split_whitespace().collect::<String>();
        squeeze(&a) == squeeze(&b)
    } else {
        let collapse = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
        collapse(&a) == collapse(&b)
    }
}

/// A TXT value as one string: `"v=DKIM1; " "p=MIIB…"` (quoted strings, as
/// zone files and some dashboards show them) joined; a lone value without
/// quotes is taken as it is.
pub(crate) fn unquote(value: &str) -> String {
    let v = value.trim();
    if !v.starts_with('"') {
        return v.to_owned();
    }
    let mut out = String::with_capacity(v.len());
    let mut chars = v.chars();
    let mut inside = false;
    while let Some(c) = chars.next() {
        match (c, inside) {
            ('"', _) => inside = !inside,
            ('\\', true) => {
                if let Some(next) = chars.next() {
                    out.push(next);
                }
            }
            (c, true) => out.push(c),
            // Whitespace between the quoted strings is no part of the value.
            (_, false) => {}
        }
    }
    out
}

/// A host name compared as DNS does: case and the trailing dot do not count.
fn host(value: &str) -> String {
    value.trim().trim_end_matches('.').to_ascii_lowercase()
}

/// An MX record: the exchange (as a host) and the preference. A value
/// written `10 mx.example.net` carries its own preference.
fn mx_equal(record: &DnsRecord, found: &Found) -> bool {
    let (priority, exchange) = match record.value.trim().split_once(char::is_whitespace) {
        Some((p, rest)) if p.parse::<u16>().is_ok() && record.priority == 0 => {
            (p.parse::<u64>().unwrap_or(0), rest)
        }
        _ => (record.priority, record.value.as_str()),
    };
    host(exchange) == host(&found.value) && found.priority.map(u64::from) == Some(priority)
}

/// Addresses compared as addresses (`::1` is `0:0::1`).
fn ip_equal(expected: &str, found: &str) -> bool {
    match (
        expected.trim().parse::<IpAddr>(),
        found.trim().parse::<IpAddr>(),
    ) {
        (Ok(a), Ok(b)) => a == b,
        _ => expected.trim() == found.trim(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(kind: &str, name: &str, value: &str, priority: u64) -> DnsRecord {
        DnsRecord {
            kind: kind.into(),
            name: name.into(),
            value: value.into(),
            priority,
        }
    }

    fn txt(values: &[&str]) -> Lookup {
        Lookup::Records(
            values
                .iter()
                .map(|v| Found {
                    priority: None,
                    value: (*v).to_owned(),
                })
                .collect(),
        )
    }

    #[test]
    fn names_are_asked_absolute_whatever_the_service_wrote() {
        let q = |name: &str| Query::of(&rec("txt", name, "", 0), "Mail.X.io").name;
        assert_eq!(q("send.mail.x.io"), "send.mail.x.io.");
        assert_eq!(q("SEND.mail.x.io."), "send.mail.x.io.");
        assert_eq!(q("send"), "send.mail.x.io.");
        assert_eq!(q("@"), "mail.x.io.");
        assert_eq!(q(""), "mail.x.io.");
        assert_eq!(q("mail.x.io"), "mail.x.io.");
        // A name that only ends like the domain is still relative.
        assert_eq!(q("xmail.x.io"), "xmail.x.io.mail.x.io.");
        assert_eq!(Query::of(&rec(" txt ", "a", "", 0), "x.io").kind, "TXT");
    }

    #[test]
    fn a_dkim_key_split_in_chunks_and_quoted_is_the_same_key() {
        let key = "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA".repeat(8);
        let expected = format!("v=DKIM1; k=rsa; p={key}");
        let r = rec("TXT", "s1._domainkey.x.io", &expected, 0);
        // DNS returns the 255-byte strings joined (the runtime joins them).
        assert_eq!(check(&r, &txt(&[&expected])), Verdict::Found);
        // A dashboard that shows the value quoted and split, with other
        // spacing around the tags.
        let (a, b) = expected.split_at(255);
        let quoted = format!("\"{}\" \"{}\"", a.replace("; ", ";"), b);
        let r = rec("TXT", "s1._domainkey.x.io", &quoted, 0);
        assert_eq!(check(&r, &txt(&[&expected])), Verdict::Found);
        // One character off is another key.
        let other = expected.replace("p=MIIB", "p=MIIC");
        assert_eq!(
            check(&r, &txt(&[&other])),
            Verdict::Different(vec![other.clone()])
        );
    }

    #[test]
    fn spf_spacing_counts_once_and_the_competing_policy_is_shown() {
        let r = rec("TXT", "x.io", "v=spf1 include:spf.mail.example ~all", 0);
        let spaced = "v=spf1  include:spf.mail.example   ~all ";
        assert_eq!(
            check(&r, &txt(&["google-site-verification=abc", spaced])),
            Verdict::Found
        );
        let other = "v=spf1 include:other.example -all";
        assert_eq!(
            check(&r, &txt(&["google-site-verification=abc", other])),
            Verdict::Different(vec![other.into()]),
            "the other SPF policy is what competes, not the verification string"
        );
        // Nothing alike: everything found is shown.
        assert_eq!(
            check(&r, &txt(&["hello"])),
            Verdict::Different(vec!["hello".into()])
        );
        // Words run together are not the same policy.
        assert!(!txt_equal("v=spf1 a mx", "v=spf1 amx"));
    }

    #[test]
    fn mx_compares_the_exchange_as_a_host_and_the_priority() {
        let r = rec("MX", "send.x.io", "Feedback-SMTP.mail.example", 10);
        let mx = |p: u16, v: &str| {
            Lookup::Records(vec![Found {
                priority: Some(p),
                value: v.into(),
            }])
        };
        assert_eq!(
            check(&r, &mx(10, "feedback-smtp.mail.example.")),
            Verdict::Found
        );
        assert_eq!(
            check(&r, &mx(20, "feedback-smtp.mail.example.")),
            Verdict::Different(vec!["20 feedback-smtp.mail.example.".into()])
        );
        assert_eq!(
            check(&r, &mx(10, "other.example.")),
            Verdict::Different(vec!["10 other.example.".into()])
        );
        // The preference written into the value.
        let r = rec("MX", "send.x.io", "10 feedback-smtp.mail.example", 0);
        assert_eq!(
            check(&r, &mx(10, "feedback-smtp.mail.example.")),
            Verdict::Found
        );
    }

    #[test]
    fn cname_and_addresses_compare_as_such() {
        let r = rec("CNAME", "s1._domainkey.x.io", "S1.dkim.example.net", 0);
        assert_eq!(check(&r, &txt(&["s1.dkim.example.net."])), Verdict::Found);
        let r = rec("AAAA", "x.io", "2001:db8::1", 0);
        assert_eq!(check(&r, &txt(&["2001:db8:0:0::1"])), Verdict::Found);
        let r = rec("A", "x.io", "192.0.2.1", 0);
        assert_eq!(
            check(&r, &txt(&["192.0.2.2"])),
            Verdict::Different(vec!["192.0.2.2".into()])
        );
    }

    #[test]
    fn no_record_no_name_and_failures_are_told_apart() {
        let r = rec("TXT", "_dmarc.x.io", "v=DMARC1; p=none", 0);
        assert_eq!(check(&r, &Lookup::NoName), Verdict::Missing);
        assert_eq!(check(&r, &Lookup::NoRecords), Verdict::Missing);
        assert_eq!(check(&r, &Lookup::Records(Vec::new())), Verdict::Missing);
        assert_eq!(
            check(&r, &Lookup::Failed("timed out".into())),
            Verdict::Failed("timed out".into())
        );
    }

    #[test]
    fn quoted_strings_are_joined_and_escapes_kept() {
        assert_eq!(unquote(r#""a b" "c\"d""#), "a bc\"d");
        assert_eq!(unquote("  plain value "), "plain value");
        assert_eq!(unquote(r#""unterminated"#), "unterminated");
    }
}
