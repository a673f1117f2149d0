//! What a failed TLS connection means and how to fix it.
//!
//! rustls says `invalid peer certificate: UnknownIssuer`; a user behind a
//! company proxy that inspects HTTPS needs to hear that the certificate's
//! authority is not trusted here and that `SSL_CERT_FILE` / `SSL_CERT_DIR`
//! add it. The trust roots are the system's (rustls-platform-verifier reads
//! them through rustls-native-certs), replaced by the PEM bundle in
//! `SSL_CERT_FILE` and the directories in `SSL_CERT_DIR` when either is set.

use std::error::Error;

use rustls::CertificateError;

use crate::text::sanitize::inline;

/// Makes ring the process's TLS crypto provider, once: reqwest (built
/// without a provider of its own) uses it for every client, and so does the
/// demo's `--tls-cert` server. Called before any client is built; calling it
/// again changes nothing.
pub(crate) fn install_provider() {
    // An error only says a provider is already installed: that is the goal.
    let _ = rustls::crypto::ring::default_provider().install_default();
}

/// The rustls error somewhere in `e`'s chain of causes. An `io::Error`
/// wrapping another error skips it in `source()` (it returns the inner
/// error's own source), and hyper wraps rustls's in two of them, so an
/// `io::Error` is looked into through `get_ref`.
fn find_rustls<'a>(e: &'a (dyn Error + 'static)) -> Option<&'a rustls::Error> {
    let mut cur: Option<&'a (dyn Error + 'static)> = Some(e);
    while let Some(err) = cur {
        if let Some(tls) = err.downcast_ref::<rustls::Error>() {
            return Some(tls);
        }
        cur = match err
            .downcast_ref::<std::io::Error>()
            .and_then(|io| io.get_ref())
        {
            Some(inner) => Some(inner),
            None => err.source(),
        };
    }
    None
}

/// Where the trust roots come from, as a clause: the variables that are
/// set (read through `env`), or the system's store.
fn roots(env: &impl Fn(&str) -> Option<String>) -> Option<String> {
    let set: Vec<String> = ["SSL_CERT_FILE", "SSL_CERT_DIR"]
        .into_iter()
        .filter_map(|var| env(var).map(|v| format!("{var}={}", inline(&v))))
        .collect();
    (!set.is_empty()).then(|| set.join(" and "))
}

/// How to trust the authority that signed the service's certificate.
fn trust_advice(env: &impl Fn(&str) -> Option<String>) -> String {
    match roots(env) {
        Some(set) => format!(
            "{set} is set, and the CA certificates there (used instead of the system's) do not include it: add the authority's CA certificate (PEM) there"
        ),
        None => "if your network inspects HTTPS (a company proxy or firewall that re-signs certificates), set SSL_CERT_FILE to a PEM file holding its CA certificate, or SSL_CERT_DIR to a directory of them (either replaces the system's CA store)".to_owned(),
    }
}

/// A date of a certificate check, for a message.
fn date(t: rustls::pki_types::UnixTime) -> String {
    let secs = i64::try_from(t.as_secs()).unwrap_or(i64::MAX);
    time::OffsetDateTime::from_unix_timestamp(secs).map_or_else(
        |_| format!("{secs} s after 1970"),
        |d| {
            let f = time::macros::format_description!("[year]-[month]-[day] [hour]:[minute] UTC");
            d.format(&f).unwrap_or_else(|_| d.to_string())
        },
    )
}

/// A name as rustls presents it (`DnsName("api.example.com")`), bare.
fn bare_name(presented: &str) -> &str {
    presented
        .strip_prefix("DnsName(\"")
        .and_then(|rest| rest.strip_suffix("\")"))
        .unwrap_or(presented)
}

/// What a certificate failure means, with what to do.
fn explain_certificate(
    c: &CertificateError,
    host: &str,
    env: &impl Fn(&str) -> Option<String>,
) -> String {
    match c {
        CertificateError::UnknownIssuer => format!(
            "the service's TLS certificate is signed by an authority this machine does not trust (invalid peer certificate: UnknownIssuer); {}; then run `outpost check`",
            trust_advice(env)
        ),
        CertificateError::ExpiredContext { time, not_after } => format!(
            "the service's TLS certificate expired on {} (this machine's clock says {}): if the clock is right, the service has to renew its certificate",
            date(*not_after),
            date(*time)
        ),
        CertificateError::Expired => "the service's TLS certificate has expired: if this machine's clock is right, the service has to renew its certificate".to_owned(),
        CertificateError::NotValidYetContext { time, not_before } => format!(
            "the service's TLS certificate is valid only from {} and this machine's clock says {}: check the clock",
            date(*not_before),
            date(*time)
        ),
        CertificateError::NotValidYet => {
            "the service's TLS certificate is not valid yet: check this machine's clock".to_owned()
        }
        CertificateError::NotValidForNameContext {
            expected,
            presented,
        } => format!(
            "the service's TLS certificate is not valid for {} (it names {}): check the host name in the base URL",
            inline(&expected.to_str()),
            inline(&presented.iter().map(|n| bare_name(n)).collect::<Vec<_>>().join(", "))
        ),
        CertificateError::NotValidForName => format!(
            "the service's TLS certificate is not valid for {host}: check the host name in the base URL"
        ),
        CertificateError::Revoked => "the service's TLS certificate has been revoked".to_owned(),
        other => format!("the service's TLS certificate was refused ({other:?})"),
    }
}

/// The explanation of a TLS failure in `e`'s chain (connecting to `host`),
/// reading the environment through `env`; `None` when `e` is no TLS failure.
pub(crate) fn explain_with(
    e: &(dyn Error + 'static),
    host: &str,
    env: impl Fn(&str) -> Option<String>,
) -> Option<String> {
    let text = match find_rustls(e)? {
        rustls::Error::InvalidCertificate(c) => explain_certificate(c, host, &env),
        rustls::Error::General(msg) if msg.contains("No CA certificates") => match roots(&env) {
            Some(set) => format!(
                "no CA certificate could be read from {set}: point it at a PEM file (or a directory of them) holding the certificates to trust"
            ),
            None => "this machine has no CA certificates to check the service's TLS certificate with: install them (the ca-certificates package on most Linux systems), or set SSL_CERT_FILE to a PEM bundle".to_owned(),
        },
        other => format!("the TLS connection failed: {}", inline(&other.to_string())),
    };
    Some(text)
}

/// [`explain_with`] over the process environment.
pub(crate) fn explain(e: &(dyn Error + 'static), host: &str) -> Option<String> {
    explain_with(e, host, |var| std::env::var(var).ok())
}

/// Where the client's trust roots come from, for `outpost check`.
pub(crate) fn roots_line() -> String {
    match roots(&|var: &str| std::env::var(var).ok()) {
        Some(set) => format!("{set} (instead of the system's CA store)"),
        None => "the system's CA store (SSL_CERT_FILE / SSL_CERT_DIR would replace it)".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// As hyper hands it over: an io::Error in an io::Error.
    fn io_wrapped(e: rustls::Error) -> Box<dyn Error + 'static> {
        let inner = std::io::Error::new(std::io::ErrorKind::InvalidData, e);
        Box::new(std::io::Error::other(inner))
    }

    #[test]
    fn an_unknown_issuer_says_how_to_trust_it() {
        let e = io_wrapped(rustls::Error::InvalidCertificate(
            CertificateError::UnknownIssuer,
        ));
        let none = |_: &str| None;
        let text = explain_with(e.as_ref(), "api.example.com", none).unwrap();
        for part in [
            "does not trust",
            "UnknownIssuer",
            "SSL_CERT_FILE",
            "SSL_CERT_DIR",
            "outpost check",
        ] {
            assert!(text.contains(part), "`{part}` missing: {text}");
        }
        let set = |v: &str| (v == "SSL_CERT_FILE").then(|| "/etc/corp.pem".to_owned());
        let text = explain_with(e.as_ref(), "api.example.com", set).unwrap();
        assert!(
            text.contains("SSL_CERT_FILE=/etc/corp.pem is set"),
            "{text}"
        );
    }

    #[test]
    fn other_errors_are_no_tls_failure() {
        let e = std::io::Error::other("refused");
        assert_eq!(explain_with(&e, "h", |_| None), None);
    }
}
