//! Strict shape checks of request bodies, naming the field path of the first
//! problems: wrong types, missing required keys and, for the bodies the
//! contract closes ("no other keys allowed"), unknown keys.
//!
//! The model types decode leniently (the client must never fail on what the
//! service sends), so the server checks shapes here first, then decodes into
//! the model and runs the documented bounds of [`crate::api::validate`] —
//! the same checks the client runs, hence the same messages.

use serde_json::Value;

use crate::api::validate::{Errors, FieldError, MAX_INT};

/// `(key, shape, required)` of an object's known keys.
pub(crate) type Fields = Vec<(&'static str, S, bool)>;

/// The expected shape of a JSON value.
#[derive(Debug, Clone)]
pub(crate) enum S {
    /// Anything.
    Any,
    /// A string.
    Str,
    /// An integer in `min..=max`.
    Int(u64, u64),
    /// Any finite number.
    Num,
    /// A boolean.
    Bool,
    /// One of these strings.
    Enum(&'static [&'static str]),
    /// An array of this shape.
    Arr(Box<S>),
    /// An object of any content.
    AnyObj,
    /// An object with known keys; `closed` rejects unknown keys.
    Obj {
        /// `(key, shape, required)`.
        fields: Vec<(&'static str, S, bool)>,
        /// Reject unknown keys.
        closed: bool,
    },
    /// `null` or this shape.
    Null(Box<S>),
    /// An object tagged by `tag`, one closed field set per tag value.
    Tagged {
        /// The discriminating key.
        tag: &'static str,
        /// `(tag value, fields)`.
        variants: Vec<(&'static str, Fields)>,
    },
    /// Any of these scalar shapes (predicate values).
    OneOf(Vec<S>, &'static str),
}

/// A non-negative integer up to the contract's maximum.
pub(crate) fn int() -> S {
    S::Int(0, MAX_INT)
}

/// An integer greater than zero.
pub(crate) fn positive() -> S {
    S::Int(1, MAX_INT)
}

/// An array of this shape.
pub(crate) fn arr(item: S) -> S {
    S::Arr(Box::new(item))
}

/// `null` or this shape.
pub(crate) fn null_or(s: S) -> S {
    S::Null(Box::new(s))
}

/// A closed object.
pub(crate) fn closed(fields: Vec<(&'static str, S, bool)>) -> S {
    S::Obj {
        fields,
        closed: true,
    }
}

/// An open object (unknown keys ignored).
pub(crate) fn open(fields: Vec<(&'static str, S, bool)>) -> S {
    S::Obj {
        fields,
        closed: false,
    }
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_owned()
    } else {
        format!("{path}.{key}")
    }
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Checks `v` against `s`; problems are pushed with their paths (at most
/// [`crate::api::validate::MAX_ERRORS`], the rest counted). `path` is the
/// path of `v` (`""` for the body itself, reported as `body`).
pub(crate) fn check(s: &S, v: &Value, path: &str, errs: &mut Errors) {
    let here = || {
        if path.is_empty() {
            "body".to_owned()
        } else {
            path.to_owned()
        }
    };
    let mismatch = |errs: &mut Errors, want: &str| {
        errs.push(here(), format!("expected {want}, got {}", kind(v)));
    };
    match s {
        S::Any => {}
        S::Str => {
            if !v.is_string() {
                mismatch(errs, "a string");
            }
        }
        S::Num => match v.as_f64() {
            Some(f) if f.is_finite() => {}
            _ => mismatch(errs, "a number"),
        },
        S::Bool => {
            if !v.is_boolean() {
                mismatch(errs, "a boolean");
            }
        }
        S::Int(min, max) => check_int(*min, *max, v, path, errs),
        S::Enum(values) => match v.as_str() {
            Some(t) if values.contains(&t) => {}
            Some(_) => errs.push(here(), format!("one of {}", values.join(", "))),
            None => mismatch(errs, "a string"),
        },
        S::Arr(item) => match v {
            Value::Array(items) => {
                for (i, x) in items.iter().enumerate() {
                    check(item, x, &format!("{}[{i}]", here_or_empty(path)), errs);
                }
            }
            _ => mismatch(errs, "an array"),
        },
        S::AnyObj => {
            if !v.is_object() {
                mismatch(errs, "an object");
            }
        }
        S::Obj { fields, closed } => check_obj(fields, *closed, &[], v, path, errs),
        S::Null(inner) => {
            if !v.is_null() {
                check(inner, v, path, errs);
            }
        }
        S::Tagged { tag, variants } => check_tagged(tag, variants, v, path, errs),
        S::OneOf(options, want) => {
            let ok = options.iter().any(|o| {
                let mut scratch = Errors::default();
                check(o, v, path, &mut scratch);
                scratch.is_empty()
            });
            if !ok {
                mismatch(errs, want);
            }
        }
    }
}

/// Pushes "expected WANT, got KIND" at `path`.
fn mismatch(errs: &mut Errors, path: &str, v: &Value, want: &str) {
    errs.push(
        here_or_empty(path).to_owned(),
        format!("expected {want}, got {}", kind(v)),
    );
}

/// Checks an integer in `min..=max`: whole floats count, fractions and
/// negatives do not.
fn check_int(min: u64, max: u64, v: &Value, path: &str, errs: &mut Errors) {
    let Value::Number(n) = v else {
        return mismatch(errs, path, v, "an integer");
    };
    let as_int = n.as_u64().map_or_else(
        || {
            if n.as_i64().is_some() {
                None // negative
            } else {
                n.as_f64().and_then(|f| {
                    (f.fract() == 0.0 && f >= 0.0 && f <= u64::MAX as f64)
                        .then_some(crate::num::f64_to_u64(f))
                })
            }
        },
        Some,
    );
    let is_fraction = n.as_f64().is_some_and(|f| f.fract() != 0.0);
    if is_fraction {
        mismatch(errs, path, v, "an integer");
        return;
    }
    let here = here_or_empty(path).to_owned();
    match as_int {
        Some(i) if i >= min && i <= max => {}
        Some(i) if i > max => errs.push(here, format!("{min} to {max}")),
        _ => errs.push(here, range_text(min, max)),
    }
}

/// Checks an object whose `tag` key picks the closed field set it must have.
fn check_tagged(tag: &str, variants: &[(&str, Fields)], v: &Value, path: &str, errs: &mut Errors) {
    let Some(obj) = v.as_object() else {
        return mismatch(errs, path, v, "an object");
    };
    let names: Vec<&str> = variants.iter().map(|(n, _)| *n).collect();
    match obj.get(tag) {
        None => errs.push(join(path, tag), "required"),
        Some(Value::String(t)) => match variants.iter().find(|(n, _)| n == t) {
            Some((_, fields)) => check_obj(fields, true, &[tag], v, path, errs),
            None => errs.push(join(path, tag), format!("one of {}", names.join(", "))),
        },
        Some(other) => errs.push(
            join(path, tag),
            format!("expected a string, got {}", kind(other)),
        ),
    }
}

fn here_or_empty(path: &str) -> &str {
    if path.is_empty() { "body" } else { path }
}

/// The message for a value below `min` (or negative, or past `u64`).
fn range_text(min: u64, max: u64) -> String {
    match (min, max) {
        (1, MAX_INT) => "must be greater than 0".to_owned(),
        (0, MAX_INT) => "must be a non-negative integer".to_owned(),
        (min, max) => format!("{min} to {max}"),
    }
}

fn check_obj(
    fields: &[(&'static str, S, bool)],
    closed: bool,
    extra_allowed: &[&str],
    v: &Value,
    path: &str,
    errs: &mut Errors,
) {
    let Some(obj) = v.as_object() else {
        let here = if path.is_empty() { "body" } else { path };
        errs.push(here, format!("expected an object, got {}", kind(v)));
        return;
    };
    for (key, shape, required) in fields {
        match obj.get(*key) {
            Some(val) => check(shape, val, &join(path, key), errs),
            None if *required => errs.push(join(path, key), "required"),
            None => {}
        }
    }
    if closed {
        for key in obj.keys() {
            if !fields.iter().any(|(k, _, _)| k == key) && !extra_allowed.contains(&key.as_str()) {
                errs.push(join(path, key), "unknown key (no other keys allowed)");
            }
        }
    }
}

/// Runs [`check`] on a whole body.
pub(crate) fn check_body(s: &S, v: &Value) -> Result<(), Vec<FieldError>> {
    let mut errs = Errors::default();
    check(s, v, "", &mut errs);
    errs.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn paths_name_the_problem() {
        let s = closed(vec![
            ("a", S::Str, true),
            ("b", arr(closed(vec![("c", int(), true)])), false),
        ]);
        let errs = check_body(
            &s,
            &json!({"b": [{"c": 1}, {"c": -1}, {"c": 1.5, "d": 0}], "x": 1}),
        )
        .unwrap_err();
        let text: Vec<String> = errs.iter().map(ToString::to_string).collect();
        assert_eq!(
            text,
            [
                "a: required",
                "b[1].c: must be a non-negative integer",
                "b[2].c: expected an integer, got a number",
                "b[2].d: unknown key (no other keys allowed)",
                "x: unknown key (no other keys allowed)",
            ]
        );
    }

    #[test]
    fn ints_past_the_maximum_name_the_bound() {
        let s = closed(vec![("n", int(), false), ("p", positive(), false)]);
        let text = |v| {
            let e = check_body(&s, &v).unwrap_err();
            e.iter().map(ToString::to_string).collect::<Vec<_>>()
        };
        assert!(check_body(&s, &json!({"n": 9007199254740991u64, "p": 1})).is_ok());
        assert_eq!(
            text(json!({"n": 9007199254740992u64, "p": 9007199254740992u64})),
            ["n: 0 to 9007199254740991", "p: 1 to 9007199254740991"]
        );
        assert_eq!(
            text(json!({"n": -1, "p": 0})),
            [
                "n: must be a non-negative integer",
                "p: must be greater than 0"
            ]
        );
    }

    #[test]
    fn tagged_objects_check_their_variant() {
        let s = S::Tagged {
            tag: "mode",
            variants: vec![
                ("count", vec![("count", positive(), true)]),
                ("all", vec![]),
            ],
        };
        assert!(check_body(&s, &json!({"mode": "all"})).is_ok());
        let e = check_body(&s, &json!({"mode": "some"})).unwrap_err();
        assert_eq!(e[0].to_string(), "mode: one of count, all");
        let e = check_body(&s, &json!({"mode": "count", "count": 0})).unwrap_err();
        assert_eq!(e[0].to_string(), "count: must be greater than 0");
    }
}
