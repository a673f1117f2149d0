//! Lenient decoding helpers: the client never fails on a `null` where a
//! string was expected, a float or numeric string where an int was expected,
//! or an unknown enum value.

use serde::{Deserialize, Deserializer};
use serde_json::Value;

/// Decodes any JSON into a string: `null` becomes empty, numbers and booleans
/// their text, objects and arrays their compact JSON.
pub fn string<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    Ok(match Value::deserialize(d)? {
        Value::Null => String::new(),
        Value::String(s) => s,
        other => other.to_string(),
    })
}

/// Like [`string`] but keeps `null` (and absence, with `default`) as `None`.
pub fn opt_string<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Ok(match Value::deserialize(d)? {
        Value::Null => None,
        Value::String(s) => Some(s),
        other => Some(other.to_string()),
    })
}

fn value_to_u64(v: &Value) -> Option<u64> {
    match v {
        Value::Number(n) => n
            .as_u64()
            .or_else(|| n.as_i64().map(|i| i.max(0) as u64))
            .or_else(|| {
                n.as_f64().map(|f| {
                    if f.is_finite() && f > 0.0 {
                        crate::num::f64_to_u64(f)
                    } else {
                        0
                    }
                })
            }),
        Value::String(s) => s
            .trim()
            .parse::<f64>()
            .ok()
            .map(|f| crate::num::f64_to_u64(f.max(0.0))),
        Value::Bool(b) => Some(u64::from(*b)),
        _ => None,
    }
}

/// Decodes an int leniently: floats are truncated, numeric strings parsed,
/// anything else (including `null`) becomes 0.
pub fn int<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    Ok(value_to_u64(&Value::deserialize(d)?).unwrap_or(0))
}

/// Like [`int`] but keeps `null` and non-numbers as `None`.
pub fn opt_int<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    Ok(value_to_u64(&Value::deserialize(d)?))
}

/// Decodes a number leniently (`null` and non-numbers become 0.0).
pub fn float<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    Ok(match Value::deserialize(d)? {
        Value::Number(n) => n.as_f64().unwrap_or(0.0),
        Value::String(s) => s.trim().parse().unwrap_or(0.0),
        _ => 0.0,
    })
}

/// Decodes a boolean leniently (`"true"`, `1` accepted; anything else false).
pub fn boolean<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    Ok(match Value::deserialize(d)? {
        Value::Bool(b) => b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0),
        Value::String(s) => matches!(s.as_str(), "true" | "1"),
        _ => false,
    })
}

/// Like [`boolean`] but keeps `null` as `None`.
pub fn opt_boolean<'de, D: Deserializer<'de>>(d: D) -> Result<Option<bool>, D::Error> {
    Ok(match Value::deserialize(d)? {
        Value::Bool(b) => Some(b),
        Value::Number(n) => Some(n.as_f64().is_some_and(|f| f != 0.0)),
        Value::String(s) => Some(matches!(s.as_str(), "true" | "1")),
        // `null`, arrays and objects say nothing either way.
        _ => None,
    })
}

/// Decodes an array leniently: `null` or a non-array becomes empty, and an
/// element that does not decode is skipped instead of failing the whole list.
pub fn vec<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: serde::de::DeserializeOwned,
{
    Ok(match Value::deserialize(d)? {
        Value::Array(items) => items
            .into_iter()
            .filter_map(|v| serde_json::from_value(v).ok())
            .collect(),
        _ => Vec::new(),
    })
}

/// Decodes an optional nested object leniently: a value that does not decode
/// becomes `None` instead of failing the parent.
pub fn opt<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: serde::de::DeserializeOwned,
{
    Ok(match Value::deserialize(d)? {
        Value::Null => None,
        v => serde_json::from_value(v).ok(),
    })
}

/// Decodes a nested object leniently: `null` or a value that does not decode
/// becomes the default instead of failing the parent.
pub fn or_default<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: serde::de::DeserializeOwned + Default,
{
    Ok(serde_json::from_value(Value::deserialize(d)?).unwrap_or_default())
}

/// Decodes a JSON object leniently: anything but an object becomes empty.
pub fn object<'de, D: Deserializer<'de>>(d: D) -> Result<serde_json::Map<String, Value>, D::Error> {
    Ok(match Value::deserialize(d)? {
        Value::Object(m) => m,
        _ => serde_json::Map::new(),
    })
}

/// Defines a string enum whose unknown values are kept as `Other(String)` and
/// shown verbatim, so a new server-side value never breaks decoding.
#[macro_export]
macro_rules! string_enum {
    ($(#[$meta:meta])* $vis:vis enum $name:ident { $($(#[$vmeta:meta])* $variant:ident => $text:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        $vis enum $name {
            $($(#[$vmeta])* #[doc = concat!("`", $text, "` on the wire.")] $variant,)+
            /// A value this client does not know, kept verbatim.
            Other(String),
        }

        impl $name {
            /// Every known value, in declaration order.
            pub const KNOWN: &'static [$name] = &[$($name::$variant),+];

            /// The wire text of this value.
            pub fn as_str(&self) -> &str {
                match self {
                    $($name::$variant => $text,)+
                    $name::Other(s) => s.as_str(),
                }
            }

            /// Parses wire text; unknown text becomes `Other`.
            pub fn parse(s: &str) -> Self {
                match s {
                    $($text => $name::$variant,)+
                    other => $name::Other(other.to_string()),
                }
            }

            /// Whether this is a value the client knows.
            pub fn is_known(&self) -> bool {
                !matches!(self, $name::Other(_))
            }
        }

        impl Default for $name {
            fn default() -> Self {
                $name::Other(String::new())
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let text = $crate::api::model::lenient::string(d)?;
                Ok($name::parse(&text))
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Deserialize)]
    struct Probe {
        #[serde(default, deserialize_with = "int")]
        n: u64,
        #[serde(default, deserialize_with = "string")]
        s: String,
        #[serde(default, deserialize_with = "vec")]
        v: Vec<u64>,
    }

    #[test]
    fn ints_accept_floats_strings_and_null() {
        let p: Probe = serde_json::from_str(r#"{"n": 12.7, "s": null, "v": [1, "x", 3]}"#).unwrap();
        assert_eq!(p.n, 12);
        assert_eq!(p.s, "");
        assert_eq!(p.v, vec![1, 3], "a bad element is skipped, not fatal");
        let p: Probe = serde_json::from_str(r#"{"n": "42", "s": 5}"#).unwrap();
        assert_eq!((p.n, p.s.as_str()), (42, "5"));
        let p: Probe = serde_json::from_str(r#"{"n": -3}"#).unwrap();
        assert_eq!(p.n, 0);
    }
}
