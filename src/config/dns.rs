//! `[dns]`: which resolver answers Outpost's own DNS checks of a sending
//! domain's records (the system's by default).

use std::net::{IpAddr, SocketAddr};

use serde::Deserialize;

/// `[dns]` of a config file.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DnsFile {
    /// `"1.1.1.1:53"`, `"1.1.1.1"` or `"[2606:4700:4700::1111]:53"`.
    pub resolver: Option<String>,
}

/// The DNS settings, resolved.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Dns {
    /// The resolver to ask; `None`: the system's (`/etc/resolv.conf`).
    pub resolver: Option<SocketAddr>,
}

/// What `dns.resolver` accepts, for error messages.
pub(crate) const ALLOWED: &str = "allowed an IP address with an optional port, e.g. \"1.1.1.1:53\", \"1.1.1.1\" or \"[2606:4700:4700::1111]:53\" (leave it out to use the system's resolver)";

/// Reads `dns.resolver`: an address with a port, or a bare address (port
/// 53). Names are refused: the resolver cannot be found by asking DNS.
pub(crate) fn parse_resolver(text: &str) -> Result<SocketAddr, String> {
    let t = text.trim();
    if let Ok(addr) = t.parse::<SocketAddr>() {
        return if addr.port() == 0 {
            Err(format!("dns.resolver = {text:?}: port 0; {ALLOWED}"))
        } else {
            Ok(addr)
        };
    }
    let bare = t.trim_start_matches('[').trim_end_matches(']');
    bare.parse::<IpAddr>()
        .map(|ip| SocketAddr::new(ip, 53))
        .map_err(|_| format!("dns.resolver = {text:?}: {ALLOWED}"))
}

impl Dns {
    /// A later layer over this one (its values already checked).
    pub fn layer(&mut self, file: &DnsFile) {
        if let Some(addr) = file
            .resolver
            .as_deref()
            .and_then(|r| parse_resolver(r).ok())
        {
            self.resolver = Some(addr);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolver_addresses_with_or_without_a_port() {
        assert_eq!(
            parse_resolver("1.1.1.1:53").unwrap().to_string(),
            "1.1.1.1:53"
        );
        assert_eq!(
            parse_resolver(" 9.9.9.9 ").unwrap().to_string(),
            "9.9.9.9:53"
        );
        assert_eq!(
            parse_resolver("[2606:4700:4700::1111]:5353")
                .unwrap()
                .to_string(),
            "[2606:4700:4700::1111]:5353"
        );
        assert_eq!(parse_resolver("::1").unwrap().to_string(), "[::1]:53");
        assert_eq!(parse_resolver("[::1]").unwrap().to_string(), "[::1]:53");
    }

    #[test]
    fn a_name_or_a_bad_port_says_what_is_allowed() {
        for bad in ["dns.google", "1.1.1.1:0", "1.1.1.1:99999", "", "1.1.1"] {
            let e = parse_resolver(bad).unwrap_err();
            assert!(e.starts_with("dns.resolver = "), "{e}");
            assert!(e.contains("\"1.1.1.1:53\""), "{e}");
        }
    }
}
