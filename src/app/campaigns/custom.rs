//! A lead's custom fields as the edit form shows them, one `key: value` a
//! line, and read back exactly: a value is JSON text (a string that reads
//! back as itself is shown without quotes), so numbers stay numbers,
//! booleans booleans, objects objects, and a string with a newline is one
//! quoted line (`"a\nb"`). A value whose text is unchanged keeps the
//! original value, whatever JSON spelling the service used (`2009.0`).

use serde_json::{Map, Value};

use crate::app::json_tree::inert_json;
use crate::text::format;
use crate::text::format::json_text;
use crate::text::sanitize::DisplayText;

/// `key: value` lines of custom fields, in key order.
pub(crate) fn lines(fields: &Map<String, Value>) -> Vec<String> {
    fields
        .iter()
        .map(|(k, v)| format!("{}: {}", key_text(k), value_text(v)))
        .collect()
}

/// A value as the form shows it.
pub(crate) fn value_text(v: &Value) -> String {
    match v {
        Value::String(s) if plain(s) => s.clone(),
        Value::Number(n) => format::number(n),
        Value::String(s) => quoted(s),
        other => inert_json(&json_text(other)),
    }
}

/// A key as the form shows it: bare unless it holds what would break the
/// line apart (a colon, a quote first, spaces at the ends).
fn key_text(k: &str) -> String {
    if !k.is_empty() && !k.contains(':') && !k.starts_with('"') && plain(k) {
        k.to_owned()
    } else {
        quoted(k)
    }
}

/// Whether a string can be shown bare: it reads back as itself (not as
/// JSON of another type, nor trimmed) and holds nothing a terminal would
/// act on.
fn plain(s: &str) -> bool {
    s.trim() == s
        && serde_json::from_str::<Value>(s).is_err()
        && DisplayText::inline(s).as_str() == s
}

/// A string as a JSON literal, with anything a terminal would act on
/// (bidi overrides, zero-width characters) escaped too.
fn quoted(s: &str) -> String {
    inert_json(&Value::String(s.to_owned()).to_string())
}

/// Reads `key: value` lines back; a value whose text equals what
/// [`value_text`] shows for the `original` keeps that value. The error
/// names the line; a blank key is an error unless `original` has it.
pub(crate) fn parse(
    lines: &[String],
    original: &Map<String, Value>,
) -> Result<Map<String, Value>, String> {
    let mut out = Map::new();
    for (i, line) in lines.iter().enumerate() {
        let at = |what: &str| format!("line {}: {what}", i + 1);
        let (key, rest) = split_key(line).ok_or_else(|| at("write it as key: value"))?;
        // A blank key is refused as typed, but one the lead already had
        // (the service sent it) stays, or the lead could never be saved.
        if key.trim().is_empty() && !original.contains_key(&key) {
            return Err(at("the key is empty"));
        }
        if out.contains_key(&key) {
            return Err(at(&format!("the key {} is given twice", key_text(&key))));
        }
        let text = rest.trim();
        let value = match original.get(&key) {
            Some(v) if value_text(v) == text => v.clone(),
            _ => serde_json::from_str::<Value>(text).unwrap_or_else(|_| Value::String(text.into())),
        };
        out.insert(key, value);
    }
    Ok(out)
}

/// The key of a line (bare up to the first colon, or a quoted JSON
/// string) and the text after its colon.
fn split_key(line: &str) -> Option<(String, &str)> {
    let line = line.trim_start();
    if line.starts_with('"') {
        let mut stream = serde_json::Deserializer::from_str(line).into_iter::<String>();
        let key = stream.next()?.ok()?;
        let rest = line.get(stream.byte_offset()..)?.trim_start();
        return Some((key, rest.strip_prefix(':')?));
    }
    let (k, rest) = line.split_once(':')?;
    Some((k.trim().to_owned(), rest))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn map(v: Value) -> Map<String, Value> {
        match v {
            Value::Object(m) => m,
            _ => Map::new(),
        }
    }

    #[test]
    fn every_json_type_reads_back_exactly() {
        let fields = map(json!({
            "plan": "pro",
            "seats": 42,
            "ratio": 0.25,
            "founded": 2009.0,
            "active": true,
            "none": null,
            "owner": {"name": "Ana", "tags": [1, "x"]},
            "note": "line one\nline two",
            "zip": "01067",
            "count": "42",
            "yes": "true",
            "quoted": "\"hi\"",
            "padded": "  spaced ",
            "empty": "",
            "odd: key": "v",
            "bidi": "a\u{202e}b",
        }));
        let shown = lines(&fields);
        assert!(shown.contains(&"plan: pro".to_owned()), "{shown:?}");
        assert!(shown.contains(&"seats: 42".to_owned()), "{shown:?}");
        assert!(shown.contains(&"founded: 2009".to_owned()), "{shown:?}");
        assert!(
            shown.contains(&r#"note: "line one\nline two""#.to_owned()),
            "{shown:?}"
        );
        assert!(shown.contains(&"zip: 01067".to_owned()), "{shown:?}");
        assert!(shown.contains(&r#"count: "42""#.to_owned()), "{shown:?}");
        assert!(
            shown.contains(&r#"bidi: "a\u202eb""#.to_owned()),
            "{shown:?}"
        );
        assert!(shown.iter().all(|l| !l.contains('\n')), "one line each");
        let back = parse(&shown, &fields).expect("reads back");
        assert_eq!(back, fields);
        // Without the original, the text alone gives the same values
        // (whole floats aside, which read back as whole numbers).
        let fresh = parse(&shown, &Map::new()).expect("reads back");
        assert_eq!(fresh.get("note"), fields.get("note"));
        assert_eq!(fresh.get("owner"), fields.get("owner"));
        assert_eq!(fresh.get("yes"), Some(&json!("true")));
        assert_eq!(fresh.get("founded"), Some(&json!(2009)));
    }

    #[test]
    fn typed_values_are_json_or_plain_text() {
        let typed = [
            "count: 7".to_owned(),
            "flag: false".to_owned(),
            "name: Ana López".to_owned(),
            r#"two: "a\nb""#.to_owned(),
        ];
        let back = parse(&typed, &Map::new()).expect("reads");
        assert_eq!(back.get("count"), Some(&json!(7)));
        assert_eq!(back.get("flag"), Some(&json!(false)));
        assert_eq!(back.get("name"), Some(&json!("Ana López")));
        assert_eq!(back.get("two"), Some(&json!("a\nb")));
        assert_eq!(
            parse(&["no colon".to_owned()], &Map::new()),
            Err("line 1: write it as key: value".to_owned())
        );
        assert!(parse(&["a: 1".to_owned(), "a: 2".to_owned()], &Map::new()).is_err());
    }

    #[test]
    fn a_blank_key_the_service_sent_reads_back_but_a_typed_one_is_refused() {
        let fields = map(json!({"": "from the import", " ": 3, "plan": "pro"}));
        let shown = lines(&fields);
        assert!(
            shown.contains(&r#""": from the import"#.to_owned()),
            "{shown:?}"
        );
        assert_eq!(parse(&shown, &fields), Ok(fields.clone()));
        assert_eq!(
            parse(&[r#""": typed"#.to_owned()], &map(json!({"plan": "pro"}))),
            Err("line 1: the key is empty".to_owned())
        );
    }
}
