//! Request plumbing shared by the routes: JSON bodies checked against a
//! shape then decoded into the shared model, query strings parsed into typed
//! values with `invalid_request` answers naming the parameter, and the two
//! success statuses.

use axum::body::Bytes;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::errors::{DemoError, invalid, invalid_field, invalid_fields};
use super::schema::{S, check_body};

/// 200 with a JSON body.
pub(crate) fn ok<T: Serialize>(body: T) -> Response {
    (StatusCode::OK, axum::Json(body)).into_response()
}

/// 201 with a JSON body.
pub(crate) fn created<T: Serialize>(body: T) -> Response {
    (StatusCode::CREATED, axum::Json(body)).into_response()
}

/// Parses a body as JSON; an empty body is an error naming `body`.
pub(crate) fn json_value(bytes: &Bytes) -> Result<Value, DemoError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(invalid_field("body", "a JSON object is required"));
    }
    serde_json::from_slice(bytes).map_err(|e| invalid(format!("body: malformed JSON ({e})")))
}

/// Parses, checks against `shape`, and decodes a body into a model type.
pub(crate) fn body<T: DeserializeOwned>(bytes: &Bytes, shape: &S) -> Result<(T, Value), DemoError> {
    let value = json_value(bytes)?;
    check_body(shape, &value).map_err(|e| invalid_fields(&e))?;
    let typed = serde_json::from_value(value.clone()).map_err(|e| invalid(format!("body: {e}")))?;
    Ok((typed, value))
}

/// A parsed query string: decoded `(key, value)` pairs in order.
#[derive(Debug, Default, Clone)]
pub(crate) struct Query(pub Vec<(String, String)>);

impl Query {
    /// Parses `a=1&b=x%20y`; `+` is a space.
    pub(crate) fn parse(raw: Option<&str>) -> Query {
        let Some(raw) = raw else {
            return Query::default();
        };
        Query(
            raw.split('&')
                .filter(|p| !p.is_empty())
                .map(|pair| {
                    let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
                    (decode(k), decode(v))
                })
                .collect(),
        )
    }

    /// The last value of `key`.
    pub(crate) fn get(&self, key: &str) -> Option<&str> {
        self.0
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// An optional integer parameter.
    pub(crate) fn int(&self, key: &str) -> Result<Option<u64>, DemoError> {
        match self.get(key) {
            None => Ok(None),
            Some(v) => v
                .trim()
                .parse::<u64>()
                .map(Some)
                .map_err(|_| invalid_field(key, "expected a non-negative integer")),
        }
    }

    /// An optional boolean parameter (`true` / `false`).
    pub(crate) fn boolean(&self, key: &str) -> Result<Option<bool>, DemoError> {
        match self.get(key) {
            None => Ok(None),
            Some("true" | "1") => Ok(Some(true)),
            Some("false" | "0") => Ok(Some(false)),
            Some(_) => Err(invalid_field(key, "expected true or false")),
        }
    }
}

fn decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok();
                match hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                    Some(b) => {
                        out.push(b);
                        i += 2;
                    }
                    None => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_strings_decode() {
        let q = Query::parse(Some("a=1&b=x%20y+z&c&a=2&bad=%zz&end=%4"));
        assert_eq!(q.get("a"), Some("2"));
        assert_eq!(q.get("b"), Some("x y z"));
        assert_eq!(q.get("c"), Some(""));
        assert_eq!(q.get("bad"), Some("%zz"));
        assert_eq!(q.get("end"), Some("%4"));
        assert!(q.int("b").is_err());
        assert_eq!(q.int("a").ok(), Some(Some(2)));
    }
}
