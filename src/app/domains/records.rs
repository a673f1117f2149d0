//! What a domain's DNS records hold, as an operator reads them: which of
//! DKIM, SPF, DMARC and MX are there, and how many records of each type.

use crate::api::model::DnsRecord;

/// The purposes found among a domain's records, and the count by type.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct RecordSummary {
    /// A DKIM key (`*._domainkey.*`, or a `v=DKIM1` value).
    pub dkim: bool,
    /// An SPF policy (`v=spf1`).
    pub spf: bool,
    /// A DMARC policy (`_dmarc.*`, or a `v=DMARC1` value).
    pub dmarc: bool,
    /// A mail exchanger (type MX).
    pub mx: bool,
    /// Records by type, most first (ties by name): `[("TXT", 3), ("MX", 1)]`.
    pub by_type: Vec<(String, usize)>,
}

/// What one record is for: `DKIM`, `SPF`, `DMARC`, `MX`, or `None`.
pub(crate) fn purpose(r: &DnsRecord) -> Option<&'static str> {
    let kind = r.kind.trim().to_ascii_uppercase();
    let name = r.name.trim().to_ascii_lowercase();
    let value = r.value.trim().trim_start_matches('"').to_ascii_lowercase();
    if name.contains("_domainkey") || value.starts_with("v=dkim1") {
        Some("DKIM")
    } else if name.starts_with("_dmarc.") || value.starts_with("v=dmarc1") {
        Some("DMARC")
    } else if kind == "TXT" && value.starts_with("v=spf1") {
        Some("SPF")
    } else if kind == "MX" {
        Some("MX")
    } else {
        None
    }
}

impl RecordSummary {
    /// Reads the records.
    pub(crate) fn of(records: &[DnsRecord]) -> RecordSummary {
        let mut s = RecordSummary::default();
        for r in records {
            let kind = r.kind.trim().to_ascii_uppercase();
            match purpose(r) {
                Some("DKIM") => s.dkim = true,
                Some("DMARC") => s.dmarc = true,
                Some("SPF") => s.spf = true,
                Some("MX") => s.mx = true,
                _ => {}
            }
            match s.by_type.iter_mut().find(|(k, _)| *k == kind) {
                Some((_, n)) => *n += 1,
                None => s.by_type.push((kind, 1)),
            }
        }
        s.by_type
            .sort_by(|(ka, na), (kb, nb)| nb.cmp(na).then_with(|| ka.cmp(kb)));
        s
    }

    /// `3 TXT, 1 MX` (`—` when there are none).
    pub(crate) fn types_text(&self) -> String {
        if self.by_type.is_empty() {
            return "—".into();
        }
        self.by_type
            .iter()
            .map(|(k, n)| format!("{n} {k}"))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::model::DomainStatus;
    use crate::app::fixtures;

    fn rec(kind: &str, name: &str, value: &str) -> DnsRecord {
        DnsRecord {
            kind: kind.into(),
            name: name.into(),
            value: value.into(),
            priority: 0,
        }
    }

    #[test]
    fn the_fixture_domain_has_the_four_purposes() {
        let d = fixtures::domain("d", "mail.x.io", DomainStatus::Pending, "");
        let s = RecordSummary::of(&d.dns_records);
        assert!(s.dkim && s.spf && s.dmarc && s.mx);
        assert_eq!(s.types_text(), "3 TXT, 1 MX");
    }

    #[test]
    fn missing_purposes_are_told_apart() {
        let s = RecordSummary::of(&[
            rec("txt", "x.io", "\"v=spf1 -all\""),
            rec("CNAME", "s1._domainkey.x.io", "s1.dkim.example.net"),
        ]);
        assert!(s.spf && s.dkim, "{s:?}");
        assert!(!s.dmarc && !s.mx, "{s:?}");
        assert_eq!(s.types_text(), "1 CNAME, 1 TXT");
        assert_eq!(RecordSummary::of(&[]).types_text(), "—");
    }
}
