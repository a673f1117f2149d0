//! The API key: a secret that is shown only masked and never in `Debug`,
//! logs, error text or panics.

use std::fmt;

use secrecy::{ExposeSecret, SecretString};

/// The prefix every key of the service carries.
pub const KEY_PREFIX: &str = "pk_live_";

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
    let prefix = ["pk_live_", "pk_test_"]
        .into_iter()
        .find(|p| key.starts_with(p))
        .unwrap_or(KEY_PREFIX);
    let rest = key.strip_prefix(prefix).unwrap_or("");
    let n = rest.chars().count();
    if n >= 8 {
        let tail: String = rest.chars().skip(n - 4).collect();
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

/// Masks anything that looks like a key (`pk_live_…`, `pk_test_…`) in text
/// that came from elsewhere, in case a server echoes a key back.
pub fn redact(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(pos) = rest.find("pk_") {
        out.push_str(&rest[..pos]);
        let candidate = &rest[pos..];
        // "pk_" itself is part of the token, so `end` is at least 3.
        let end = candidate
            .char_indices()
            .find(|(_, c)| !(c.is_ascii_alphanumeric() || *c == '_' || *c == '-'))
            .map_or(candidate.len(), |(i, _)| i);
        let token = &candidate[..end];
        let is_key = ["pk_live_", "pk_test_"]
            .iter()
            .any(|p| token.len() > p.len() && token.starts_with(p));
        out.push_str(&if is_key {
            mask(token)
        } else {
            token.to_string()
        });
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
        assert_eq!(redact("pk_test_abcdefgh12345678."), "pk_test_…5678.");
        assert_eq!(redact("no keys here"), "no keys here");
    }
}
