//! The API key: a secret that is shown only masked and never in `Debug`,
//! logs, error text or panics.

use std::fmt;

use std::sync::RwLock;

use secrecy::{ExposeSecret, SecretString};

/// The prefix every key of the service carries.
pub(crate) const KEY_PREFIX: &str = "pk_live_";

/// Why a key was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KeyError {
    /// No key was given anywhere.
    #[error(
        "no API key: set OUTPOST_API_KEY, put `api_key` (or `api_key_env`) in the config file, or pipe it to --key-stdin"
    )]
    Missing,
    /// The key lacks the `pk_live_` prefix.
    #[error(
        "the API key must start with `pk_live_` (keys are generated in the dashboard under Settings → API)"
    )]
    BadPrefix,
    /// The key holds whitespace or control characters.
    #[error("the API key holds spaces or control characters; paste it again")]
    BadChars,
}

/// A service API key (`pk_live_…`).
#[derive(Clone)]
pub struct ApiKey(SecretString);

impl ApiKey {
    /// Checks the format and wraps the key; surrounding whitespace is trimmed.
    pub fn parse(raw: &str) -> Result<ApiKey, KeyError> {
        let key = raw.trim();
        if key.is_empty() {
            return Err(KeyError::Missing);
        }
        if !key.starts_with(KEY_PREFIX) || key.len() == KEY_PREFIX.len() {
            return Err(KeyError::BadPrefix);
        }
        if key.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(KeyError::BadChars);
        }
        remember(key);
        Ok(ApiKey(SecretString::from(key.to_owned())))
    }

    /// The key as shown to a user: `pk_live_…1a2b`. The last four characters
    /// are shown only when at least eight follow the prefix.
    pub fn masked(&self) -> String {
        mask(self.0.expose_secret())
    }

    /// The raw key, for the `Authorization` header only.
    pub(crate) fn expose(&self) -> &str {
        self.0.expose_secret()
    }
}

fn mask(key: &str) -> String {
    let prefix = PREFIXES
        .into_iter()
        .find(|p| key.starts_with(p))
        .unwrap_or(KEY_PREFIX);
    let rest = key.strip_prefix(prefix).unwrap_or("");
    let n = rest.chars().count();
    let tail: String = rest.chars().skip(n.saturating_sub(4)).collect();
    // The tail is shown only when it is plain text: a token masked out of
    // service text may end in part of an emoji sequence, which would draw
    // at another width than it was laid out with.
    if n >= 8 && tail.chars().all(|c| c.is_ascii_graphic()) {
        format!("{prefix}…{tail}")
    } else {
        format!("{prefix}…")
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ApiKey({})", self.masked())
    }
}

impl fmt::Display for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.masked())
    }
}

/// The prefixes of the service's keys.
const PREFIXES: [&str; 2] = ["pk_live_", "pk_test_"];

/// Every key parsed in this process (the configured key, a profile's): masked
/// wherever it appears, even where the prefix rule below could not find it
/// (a key holding a quote). Bounded: a process parses a handful of keys.
static CONFIGURED: RwLock<Vec<SecretString>> = RwLock::new(Vec::new());
/// Most keys remembered in [`CONFIGURED`].
const MAX_CONFIGURED: usize = 32;

fn remember(key: &str) {
    let Ok(mut keys) = CONFIGURED.write() else {
        return;
    };
    if keys.iter().any(|k| k.expose_secret() == key) {
        return;
    }
    if keys.len() >= MAX_CONFIGURED {
        keys.remove(0);
    }
    keys.push(SecretString::from(key.to_owned()));
}

/// The one redaction of text from elsewhere (a service's answer, a URL, a
/// transport error), applied wherever such text is shown or logged:
/// every key this process was configured with is masked wherever it
/// appears, and so is any token that starts with a key prefix (`pk_live_`,
/// `pk_test_`) up to whitespace, a quote or a control character, whatever
/// it holds (`.`, `/`, `+`, `=` included). Masked text stays as it is, so
/// redacting twice changes nothing.
pub fn redact(text: &str) -> String {
    if !text.contains("pk_") {
        return text.to_owned();
    }
    let mut text = text.to_owned();
    if let Ok(keys) = CONFIGURED.read() {
        for key in keys.iter() {
            let key = key.expose_secret();
            if text.contains(key) {
                text = text.replace(key, &mask(key));
            }
        }
    }
    redact_prefixed(&text)
}

/// [`redact`] over every string of a JSON value, names included: a key
/// holding a quote is escaped in the JSON text, so it is redacted after
/// decoding, where it reads as itself.
pub(crate) fn redact_json(value: &mut serde_json::Value) {
    use serde_json::Value;
    match value {
        Value::String(s) => {
            if s.contains("pk_") {
                *s = redact(s);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(redact_json),
        Value::Object(map) => {
            let old = std::mem::take(map);
            for (name, mut v) in old {
                redact_json(&mut v);
                map.insert(redact(&name), v);
            }
        }
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
    }
}

/// Masks every token that starts with a key prefix (see [`redact`]).
fn redact_prefixed(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(pos) = rest.find("pk_") {
        out.push_str(&rest[..pos]);
        let candidate = &rest[pos..];
        let Some(prefix) = PREFIXES.into_iter().find(|p| candidate.starts_with(p)) else {
            out.push_str("pk_");
            rest = &candidate[3..];
            continue;
        };
        let end = candidate[prefix.len()..]
            .find(|c: char| c.is_whitespace() || c.is_control() || matches!(c, '"' | '\'' | '`'))
            .map_or(candidate.len(), |i| prefix.len() + i);
        let token = &candidate[..end];
        let secret = &token[prefix.len()..];
        // Empty (the bare prefix) or already masked: nothing to hide.
        if secret.is_empty() || secret.starts_with('…') {
            out.push_str(token);
        } else {
            out.push_str(&mask(token));
        }
        rest = &candidate[end..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_format_is_checked() {
        assert_eq!(ApiKey::parse("sk_live_x").unwrap_err(), KeyError::BadPrefix);
        assert_eq!(ApiKey::parse("pk_live_").unwrap_err(), KeyError::BadPrefix);
        assert_eq!(ApiKey::parse("  ").unwrap_err(), KeyError::Missing);
        assert_eq!(
            ApiKey::parse("pk_live_a b").unwrap_err(),
            KeyError::BadChars
        );
        assert!(ApiKey::parse(" pk_live_abcdef123456\n").is_ok());
    }

    #[test]
    fn key_is_masked_everywhere() {
        let key = ApiKey::parse("pk_live_SECRETSECRET1a2b").unwrap();
        assert_eq!(key.masked(), "pk_live_…1a2b");
        for shown in [
            format!("{key:?}"),
            format!("{key}"),
            format!("{:?}", Some(&key)),
        ] {
            assert!(!shown.contains("SECRET"), "{shown}");
        }
        assert_eq!(ApiKey::parse("pk_live_demo").unwrap().masked(), "pk_live_…");
    }

    #[test]
    fn echoed_keys_are_redacted() {
        assert_eq!(
            redact("bad key pk_live_SECRETSECRET1a2b given; pk_ ok"),
            "bad key pk_live_…1a2b given; pk_ ok"
        );
        // The token runs to whitespace or a quote: punctuation after a key
        // is masked with it.
        assert_eq!(redact("pk_test_abcdefgh12345678."), "pk_test_…678.");
        assert_eq!(
            redact(r#"{"k":"pk_live_ab.cd/ef+gh=ij"}"#),
            r#"{"k":"pk_live_…h=ij"}"#
        );
        assert_eq!(redact("no keys here"), "no keys here");
        // A tail that is not plain text is not shown (it could split an
        // emoji sequence).
        assert_eq!(
            redact("pk_live_abcdefgh1a2b\u{1F469}\u{200D}\u{1F4BB} x"),
            "pk_live_… x"
        );
    }
}
