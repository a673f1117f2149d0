//! Read-only mode's rule, applied by the client itself before anything
//! leaves (a second line of defence behind the dashboard's disabled
//! actions): only reads are sent.
//!
//! A read is a `GET` (or `HEAD`), plus the two `POST`s the contract defines
//! as reads: the verification status read (`POST
//! /api/email/domains/{id}/verify?poll=true`, "read the live status only,
//! without triggering") and the results filter (`POST
//! /api/lead-finder/{id}/results/query`, a query carried in a body; it
//! changes nothing). Everything else is refused with
//! [`ApiError::ReadOnly`](super::ApiError::ReadOnly).

use reqwest::Method;

/// Whether a request is a read that read-only mode lets through. `path` is
/// the `/api/...` path as sent (ids already encoded by [`super::seg`], so
/// each id is exactly one segment); `query` the query pairs.
pub(crate) fn is_read(method: &Method, path: &str, query: &[(String, String)]) -> bool {
    if matches!(*method, Method::GET | Method::HEAD) {
        return true;
    }
    if *method != Method::POST {
        return false;
    }
    let segments: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    match segments.as_slice() {
        ["api", "email", "domains", id, "verify"] if !id.is_empty() => query
            .iter()
            .any(|(k, v)| k == "poll" && v.eq_ignore_ascii_case("true")),
        ["api", "lead-finder", id, "results", "query"] => !id.is_empty(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect()
    }

    #[test]
    fn reads_pass_and_everything_else_is_refused() {
        assert!(is_read(&Method::GET, "/api/campaigns", &[]));
        assert!(is_read(&Method::HEAD, "/api/campaigns", &[]));
        let verify = "/api/email/domains/d1/verify";
        assert!(is_read(&Method::POST, verify, &q(&[("poll", "true")])));
        assert!(!is_read(&Method::POST, verify, &[]), "a trigger");
        assert!(!is_read(&Method::POST, verify, &q(&[("poll", "false")])));
        assert!(is_read(
            &Method::POST,
            "/api/lead-finder/s1/results/query",
            &[]
        ));
        for (m, p) in [
            (Method::POST, "/api/lead-finder"),
            (Method::POST, "/api/lead-finder/s1/run"),
            (Method::POST, "/api/lead-finder/run"),
            (Method::POST, "/api/campaigns/c1/leads"),
            (Method::PATCH, "/api/campaigns/c1"),
            (Method::DELETE, "/api/campaigns/c1/leads"),
            (Method::PUT, "/api/context"),
            (Method::POST, "/api/test-access/redeem"),
            (Method::POST, "/api/email/domains"),
            (Method::POST, "/api/email/domains//verify"),
            (Method::PATCH, "/api/email/domains/d1/verify"),
            (Method::POST, "/api/email/domains/d1/verify/x"),
            (Method::POST, "/api/lead-finder/s1/results/query/x"),
        ] {
            assert!(!is_read(&m, p, &q(&[("poll", "true")])), "{m} {p}");
        }
    }
}
