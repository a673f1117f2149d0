//! Which way the client's requests leave: straight to the service or through
//! the proxy the environment names (`HTTPS_PROXY`, `HTTP_PROXY`, `ALL_PROXY`,
//! either case; `NO_PROXY` exempts hosts), decided here once per client so
//! `outpost check` can say exactly what the client does.
//!
//! The HTTPS rule holds through a proxy: a loopback service is always
//! reached directly (a proxy would carry the key off the machine, in clear
//! for plain http, and resolve "127.0.0.1" at its own end), and a plain
//! `http://` request never goes to a proxy off loopback. An `https://`
//! service through an `http://` proxy is the usual corporate setup and
//! stays allowed: the proxy only relays a CONNECT tunnel, and the key
//! travels inside TLS.

use std::net::IpAddr;

use reqwest::Url;

use super::client::is_loopback;
use super::error::ApiError;
use super::key::redact;

/// How a client reaches its service.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Route {
    /// Straight to the service; no proxy variable applies.
    Direct,
    /// Straight to the service although proxy variable `var` is set.
    Bypassed {
        /// The variable that is not used.
        var: &'static str,
        /// Why.
        why: Bypass,
    },
    /// Through the proxy at `url`, named by `var`.
    Proxy {
        /// The variable it came from.
        var: &'static str,
        /// The proxy, as parsed (credentials included: for the client only;
        /// [`Route::describe`] hides them).
        url: Url,
    },
}

/// Why a set proxy variable is not used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bypass {
    /// The service is on a loopback address.
    Loopback,
    /// `NO_PROXY` (or `no_proxy`) covers the service's host.
    NoProxy,
}

/// The variables naming a proxy for a scheme, in the order they are read
/// (the same as curl's and reqwest's).
fn candidates(scheme: &str) -> [&'static str; 4] {
    if scheme == "http" {
        ["HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"]
    } else {
        ["HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy"]
    }
}

/// Decides how requests to `base` leave, reading the environment through
/// `env` (`std::env::var` in use; a map in tests). An error names the
/// variable when its proxy cannot be used safely or at all.
pub(crate) fn route(base: &Url, env: impl Fn(&str) -> Option<String>) -> Result<Route, ApiError> {
    let found = candidates(base.scheme()).into_iter().find_map(|var| {
        env(var)
            .map(|v| v.trim().to_owned())
            .filter(|v| !v.is_empty())
            .map(|v| (var, v))
    });
    let Some((var, raw)) = found else {
        return Ok(Route::Direct);
    };
    if is_loopback(base) {
        return Ok(Route::Bypassed {
            var,
            why: Bypass::Loopback,
        });
    }
    let no_proxy = env("NO_PROXY").or_else(|| env("no_proxy"));
    if let (Some(list), Some(host)) = (no_proxy, base.host_str())
        && no_proxy_covers(&list, host)
    {
        return Ok(Route::Bypassed {
            var,
            why: Bypass::NoProxy,
        });
    }
    let url = parse_proxy(var, &raw)?;
    if base.scheme() == "http" && !is_loopback(&url) {
        return Err(ApiError::Config(format!(
            "refusing to send the API key over plain HTTP through the proxy {} named by {var}: it is off this machine; use an https:// base URL, or unset {var}",
            shown(&url)
        )));
    }
    Ok(Route::Proxy { var, url })
}

/// Parses a proxy variable's value; a bare `host:port` means `http://`.
fn parse_proxy(var: &str, raw: &str) -> Result<Url, ApiError> {
    let with_scheme = if raw.contains("://") {
        raw.to_owned()
    } else {
        format!("http://{raw}")
    };
    let url = Url::parse(&with_scheme)
        .ok()
        .filter(|u| u.host_str().is_some_and(|h| !h.is_empty()))
        .ok_or_else(|| {
            ApiError::Config(format!(
                "{var} is not a proxy URL (`{}`); expected e.g. http://proxy.example:3128, or unset it",
                redact(&without_credentials(raw))
            ))
        })?;
    match url.scheme() {
        "http" | "https" => Ok(url),
        other => Err(ApiError::Config(format!(
            "{var} names a {other}:// proxy, which Outpost does not support; use an http:// or https:// proxy, or unset {var}"
        ))),
    }
}

/// `raw` with anything before an `@` in its authority replaced.
fn without_credentials(raw: &str) -> String {
    let (scheme, rest) = raw.split_once("://").unwrap_or(("", raw));
    let authority_end = rest.find('/').unwrap_or(rest.len());
    match rest[..authority_end].rfind('@') {
        Some(at) if scheme.is_empty() => format!("***@{}", &rest[at + 1..]),
        Some(at) => format!("{scheme}://***@{}", &rest[at + 1..]),
        None => raw.to_owned(),
    }
}

/// A proxy URL as shown: scheme, host and port; credentials hidden.
fn shown(url: &Url) -> String {
    let host = url.host_str().unwrap_or("?");
    let port = url.port().map(|p| format!(":{p}")).unwrap_or_default();
    let creds = if url.username().is_empty() && url.password().is_none() {
        ""
    } else {
        "***@"
    };
    format!("{}://{creds}{host}{port}", url.scheme())
}

/// Whether a `NO_PROXY` list covers `host`, as curl reads one: entries
/// separated by commas; `*` covers everything; an IP address or CIDR range
/// covers addresses in it; a name covers itself and its subdomains (a
/// leading dot changes nothing).
fn no_proxy_covers(list: &str, host: &str) -> bool {
    let host = host.trim_start_matches('[').trim_end_matches(']');
    let ip = host.parse::<IpAddr>().ok();
    list.split(',')
        .map(str::trim)
        .filter(|e| !e.is_empty())
        .any(|entry| match ip {
            _ if entry == "*" => true,
            Some(ip) => in_range(entry, ip),
            None => covers_name(entry, host),
        })
}

/// Whether a `NO_PROXY` name entry covers host `name` or is its parent.
fn covers_name(entry: &str, name: &str) -> bool {
    let entry = entry.trim_start_matches('.').trim_end_matches('.');
    let name = name.trim_end_matches('.');
    if entry.is_empty() {
        return false;
    }
    name.eq_ignore_ascii_case(entry)
        || name.len().checked_sub(entry.len() + 1).is_some_and(|i| {
            name.as_bytes()[i] == b'.'
                && name
                    .get(i + 1..)
                    .is_some_and(|tail| tail.eq_ignore_ascii_case(entry))
        })
}

/// Whether `ip` is the address `entry` or inside its CIDR range.
fn in_range(entry: &str, ip: IpAddr) -> bool {
    let entry = entry.trim_start_matches('[').trim_end_matches(']');
    let (addr, bits) = match entry.split_once('/') {
        Some((a, b)) => match b.parse::<u32>() {
            Ok(bits) => (a, Some(bits)),
            Err(_) => return false,
        },
        None => (entry, None),
    };
    let Ok(net) = addr.parse::<IpAddr>() else {
        return false;
    };
    match (net, ip) {
        (IpAddr::V4(n), IpAddr::V4(i)) => {
            same_prefix(u128::from(u32::from(n)), u128::from(u32::from(i)), 32, bits)
        }
        (IpAddr::V6(n), IpAddr::V6(i)) => same_prefix(u128::from(n), u128::from(i), 128, bits),
        _ => false,
    }
}

/// Whether `a` and `b`, numbers of `width` bits, agree in their first
/// `bits` bits (all of them when `None`).
fn same_prefix(a: u128, b: u128, width: u32, bits: Option<u32>) -> bool {
    let bits = bits.unwrap_or(width);
    if bits > width {
        return false;
    }
    let shift = width - bits;
    a.checked_shr(shift).unwrap_or(0) == b.checked_shr(shift).unwrap_or(0)
}

impl Route {
    /// What `outpost check` says about it, e.g. `http://proxy.example:3128
    /// (from HTTPS_PROXY; a CONNECT tunnel: the key travels inside TLS)`.
    pub fn describe(&self) -> String {
        match self {
            Route::Direct => "none (no proxy variable is set)".to_owned(),
            Route::Bypassed {
                var,
                why: Bypass::Loopback,
            } => format!(
                "none: {var} is set, but a service on a loopback address is always reached directly"
            ),
            Route::Bypassed {
                var,
                why: Bypass::NoProxy,
            } => format!("none: NO_PROXY covers the service's host ({var} is not used for it)"),
            Route::Proxy { var, url } => {
                let how = if url.scheme() == "https" {
                    "TLS to the proxy, and the key inside TLS to the service"
                } else {
                    "a CONNECT tunnel: the key travels inside TLS"
                };
                format!("{} (from {var}; {how})", shown(url))
            }
        }
    }

    /// The proxy URL the client must use, if any.
    pub fn proxy_url(&self) -> Option<&Url> {
        match self {
            Route::Proxy { url, .. } => Some(url),
            Route::Direct | Route::Bypassed { .. } => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&'static str, &'static str)]) -> impl Fn(&str) -> Option<String> {
        let pairs = pairs.to_vec();
        move |name: &str| {
            pairs
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| (*v).to_owned())
        }
    }

    fn url(s: &str) -> Url {
        Url::parse(s).unwrap()
    }

    const OFF_MACHINE: &str = "http://proxy.example:3128";

    #[test]
    fn a_loopback_service_never_goes_through_a_proxy() {
        for var in ["HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"] {
            for base in [
                "http://127.0.0.1:8787",
                "http://localhost:1",
                "http://[::1]:9",
            ] {
                let r = route(&url(base), env(&[(var, OFF_MACHINE)])).unwrap();
                assert_eq!(
                    r,
                    Route::Bypassed {
                        var,
                        why: Bypass::Loopback
                    },
                    "{base} {var}"
                );
                assert!(r.describe().contains(var), "{}", r.describe());
                assert!(r.proxy_url().is_none());
            }
        }
        // A loopback https service too: the proxy's 127.0.0.1 is not ours.
        let r = route(
            &url("https://127.0.0.1:8443"),
            env(&[("HTTPS_PROXY", OFF_MACHINE)]),
        )
        .unwrap();
        assert!(r.proxy_url().is_none(), "{r:?}");
    }

    #[test]
    fn plain_http_never_leaves_through_a_proxy_off_loopback() {
        // Only reachable with a non-loopback http base, which the HTTPS rule
        // refuses first; the route refuses on its own all the same.
        for var in ["HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"] {
            for proxy in [OFF_MACHINE, "https://proxy.example:3128", "10.0.0.1:8080"] {
                let e = route(&url("http://api.example.com"), env(&[(var, proxy)])).unwrap_err();
                let text = e.to_string();
                assert!(text.contains(var) && text.contains("plain HTTP"), "{text}");
            }
        }
        let local = route(
            &url("http://api.example.com"),
            env(&[("HTTP_PROXY", "http://127.0.0.1:3128")]),
        )
        .unwrap();
        assert!(local.proxy_url().is_some());
    }

    #[test]
    fn an_https_service_may_go_through_an_http_connect_proxy() {
        let base = url("https://api.example.com");
        for var in ["HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy"] {
            let r = route(&base, env(&[(var, OFF_MACHINE)])).unwrap();
            assert_eq!(
                r.proxy_url().map(Url::as_str),
                Some("http://proxy.example:3128/")
            );
            let text = r.describe();
            assert!(
                text.contains(var)
                    && text.contains("proxy.example:3128")
                    && text.contains("inside TLS"),
                "{text}"
            );
        }
        // HTTP_PROXY is for http:// requests only.
        assert_eq!(
            route(&base, env(&[("HTTP_PROXY", OFF_MACHINE)])).unwrap(),
            Route::Direct
        );
        // The scheme's own variable wins over ALL_PROXY; a bare host:port is http.
        let r = route(
            &base,
            env(&[
                ("ALL_PROXY", "http://all.example:1"),
                ("https_proxy", "p.example:2"),
            ]),
        )
        .unwrap();
        assert_eq!(
            r,
            Route::Proxy {
                var: "https_proxy",
                url: url("http://p.example:2")
            }
        );
        assert_eq!(
            route(&base, env(&[("HTTPS_PROXY", "  ")])).unwrap(),
            Route::Direct
        );
    }

    #[test]
    fn credentials_in_a_proxy_url_are_never_shown() {
        let r = route(
            &url("https://api.example.com"),
            env(&[("HTTPS_PROXY", "http://user:hunter2@proxy.example:3128")]),
        )
        .unwrap();
        assert!(!r.describe().contains("hunter2"), "{}", r.describe());
        assert!(r.describe().contains("***@proxy.example:3128"));
        let e = route(
            &url("http://api.example.com"),
            env(&[("HTTP_PROXY", "http://user:hunter2@proxy.example:3128")]),
        )
        .unwrap_err();
        assert!(!e.to_string().contains("hunter2"), "{e}");
        let e = route(
            &url("https://api.example.com"),
            env(&[("HTTPS_PROXY", "http://user:hunter2@ bad")]),
        )
        .unwrap_err();
        assert!(!e.to_string().contains("hunter2"), "{e}");
    }

    #[test]
    fn unusable_proxies_are_named() {
        let base = url("https://api.example.com");
        let e = route(&base, env(&[("ALL_PROXY", "socks5://127.0.0.1:1080")])).unwrap_err();
        assert!(
            e.to_string().contains("ALL_PROXY") && e.to_string().contains("socks5"),
            "{e}"
        );
        let e = route(&base, env(&[("HTTPS_PROXY", "http://")])).unwrap_err();
        assert!(e.to_string().contains("HTTPS_PROXY"), "{e}");
    }

    #[test]
    fn no_proxy_exempts_hosts_as_curl_reads_it() {
        let base = url("https://api.example.com");
        let with = |no: &'static str| {
            route(
                &base,
                env(&[("HTTPS_PROXY", OFF_MACHINE), ("NO_PROXY", no)]),
            )
            .unwrap()
        };
        for no in [
            "*",
            "api.example.com",
            ".example.com",
            "example.com",
            "x.org, example.com",
        ] {
            assert!(
                matches!(
                    with(no),
                    Route::Bypassed {
                        why: Bypass::NoProxy,
                        ..
                    }
                ),
                "{no}"
            );
        }
        for no in [
            "",
            "ample.com",
            "other.example.com",
            "api.example.com.evil",
            "10.0.0.0/8",
        ] {
            assert!(with(no).proxy_url().is_some(), "{no}");
        }
        let ip = |base: &str, no: &'static str| {
            route(
                &url(base),
                env(&[("HTTPS_PROXY", OFF_MACHINE), ("no_proxy", no)]),
            )
            .unwrap()
            .proxy_url()
            .is_none()
        };
        assert!(ip("https://10.1.2.3", "10.0.0.0/8"));
        assert!(ip("https://10.1.2.3", "10.1.2.3"));
        assert!(!ip("https://11.1.2.3", "10.0.0.0/8"));
        assert!(ip("https://[2001:db8::1]", "2001:db8::/32"));
        assert!(!ip("https://[2001:db9::1]", "2001:db8::/32"));
        assert!(!ip("https://10.1.2.3", "10.0.0.0/40"));
    }
}
