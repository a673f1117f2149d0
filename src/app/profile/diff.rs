//! What a replacement changes, field by field: strings as old → new,
//! string arrays as the items added and removed (or "order changed"), and
//! `extra` as the JSON paths that changed. Only changed fields appear.

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::fields::{ALL, FieldId, Val};
use crate::api::model::PutContext;

/// Most JSON paths listed for `extra`; past it they are counted.
pub(crate) const MAX_JSON_PATHS: usize = 200;

/// One changed JSON path of `extra`.
#[derive(Debug, Clone, PartialEq)]
pub struct JsonChange {
    /// `extra.a.b[2]`.
    pub path: String,
    /// The value before (`None`: the path is new).
    pub old: Option<Value>,
    /// The value after (`None`: the path is gone).
    pub new: Option<Value>,
}

/// How one field changes.
#[derive(Debug, Clone, PartialEq)]
pub enum Delta {
    /// A string, before and after.
    Text {
        /// Before.
        old: String,
        /// After.
        new: String,
    },
    /// An array of strings.
    List {
        /// Items only in the new array.
        added: Vec<String>,
        /// Items only in the old array.
        removed: Vec<String>,
        /// Same items, another order.
        reordered: bool,
    },
    /// The JSON object.
    Json {
        /// Changed paths, at most [`MAX_JSON_PATHS`].
        paths: Vec<JsonChange>,
        /// Changed paths left out of `paths`.
        more: usize,
    },
}

/// One changed field.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    /// The field.
    pub field: FieldId,
    /// How it changes.
    pub delta: Delta,
}

/// The changes from `old` to `new`, in field order.
pub fn diff(old: &PutContext, new: &PutContext) -> Vec<Change> {
    ALL.iter()
        .filter_map(|f| {
            let delta = delta(f.get(old), f.get(new))?;
            Some(Change { field: *f, delta })
        })
        .collect()
}

/// How one field's value changes; `None` when it does not (or the kinds
/// differ, which no field does).
pub(crate) fn delta(old: Val<'_>, new: Val<'_>) -> Option<Delta> {
    match (old, new) {
        (Val::Text(a), Val::Text(b)) => (a != b).then(|| Delta::Text {
            old: a.to_owned(),
            new: b.to_owned(),
        }),
        (Val::List(a), Val::List(b)) => list_delta(a, b),
        (Val::Json(a), Val::Json(b)) => json_delta(a, b),
        _ => None,
    }
}

/// Items added and removed, counting repeats (a second copy of an item is
/// an addition).
fn list_delta(old: &[String], new: &[String]) -> Option<Delta> {
    if old == new {
        return None;
    }
    // `from` without one copy of each item of `take`, in `from`'s order.
    let minus = |from: &[String], take: &[String]| -> Vec<String> {
        let mut left: HashMap<&str, usize> = HashMap::new();
        for t in take {
            *left.entry(t.as_str()).or_default() += 1;
        }
        from.iter()
            .filter(|item| match left.get_mut(item.as_str()) {
                Some(n) if *n > 0 => {
                    *n -= 1;
                    false
                }
                _ => true,
            })
            .cloned()
            .collect()
    };
    let added = minus(new, old);
    let removed = minus(old, new);
    // The items both hold, in each one's order.
    let reordered = minus(old, &removed) != minus(new, &added);
    Some(Delta::List {
        added,
        removed,
        reordered,
    })
}

fn json_delta(old: &Map<String, Value>, new: &Map<String, Value>) -> Option<Delta> {
    if old == new {
        return None;
    }
    let mut out = Paths::default();
    walk_object(old, new, "extra", &mut out);
    Some(Delta::Json {
        paths: out.list,
        more: out.more,
    })
}

#[derive(Default)]
struct Paths {
    list: Vec<JsonChange>,
    more: usize,
}

impl Paths {
    fn push(&mut self, path: String, old: Option<&Value>, new: Option<&Value>) {
        if self.list.len() < MAX_JSON_PATHS {
            self.list.push(JsonChange {
                path,
                old: old.cloned(),
                new: new.cloned(),
            });
        } else {
            self.more = self.more.saturating_add(1);
        }
    }
}

/// `a.b`, or `a["odd key"]` when the key is not a plain name.
fn key_path(base: &str, key: &str) -> String {
    let plain = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if plain {
        format!("{base}.{key}")
    } else {
        format!("{base}[{}]", Value::String(key.to_owned()))
    }
}

fn walk_object(old: &Map<String, Value>, new: &Map<String, Value>, path: &str, out: &mut Paths) {
    for (k, a) in old {
        let p = key_path(path, k);
        match new.get(k) {
            Some(b) => walk(a, b, &p, out),
            None => out.push(p, Some(a), None),
        }
    }
    for (k, b) in new {
        if !old.contains_key(k) {
            out.push(key_path(path, k), None, Some(b));
        }
    }
}

fn walk(a: &Value, b: &Value, path: &str, out: &mut Paths) {
    if a == b {
        return;
    }
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => walk_object(x, y, path, out),
        (Value::Array(x), Value::Array(y)) => {
            for i in 0..x.len().max(y.len()) {
                let p = format!("{path}[{i}]");
                match (x.get(i), y.get(i)) {
                    (Some(u), Some(v)) => walk(u, v, &p, out),
                    (u, v) => out.push(p, u, v),
                }
            }
        }
        _ => out.push(path.to_owned(), Some(a), Some(b)),
    }
}

/// A JSON value on one line, cut to `max` chars.
pub(crate) fn json_inline(v: &Value, max: usize) -> String {
    let text = crate::text::format::json_text(v);
    if text.chars().count() <= max {
        text
    } else {
        let mut cut: String = text.chars().take(max.saturating_sub(1)).collect();
        cut.push('…');
        cut
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn base() -> PutContext {
        let mut p = PutContext::default();
        p.profile.first_name = "Maya".into();
        p.context.market.icp_keywords = vec!["a".into(), "b".into(), "b".into()];
        p.context.extra = json!({"demo": true, "tiers": [1, 2], "nested": {"x": 1}})
            .as_object()
            .cloned()
            .unwrap_or_default();
        p
    }

    #[test]
    fn only_changed_fields_appear() {
        let a = base();
        assert!(diff(&a, &a).is_empty());
        let mut b = a.clone();
        b.profile.first_name = "Mia".into();
        let changes = diff(&a, &b);
        assert_eq!(
            changes,
            [Change {
                field: FieldId::FirstName,
                delta: Delta::Text {
                    old: "Maya".into(),
                    new: "Mia".into()
                }
            }]
        );
    }

    #[test]
    fn arrays_show_added_and_removed_items() {
        let a = base();
        let mut b = a.clone();
        b.context.market.icp_keywords = vec!["b".into(), "c".into()];
        let d = &diff(&a, &b)[0].delta;
        assert_eq!(
            *d,
            Delta::List {
                added: vec!["c".into()],
                removed: vec!["a".into(), "b".into()],
                reordered: false
            },
            "one of the two b's went"
        );
        b.context.market.icp_keywords = vec!["b".into(), "a".into(), "b".into()];
        assert_eq!(
            diff(&a, &b)[0].delta,
            Delta::List {
                added: vec![],
                removed: vec![],
                reordered: true
            }
        );
        b.context.market.icp_keywords = vec!["b".into(), "a".into(), "x".into(), "b".into()];
        assert_eq!(
            diff(&a, &b)[0].delta,
            Delta::List {
                added: vec!["x".into()],
                removed: vec![],
                reordered: true
            },
            "an addition does not hide a move"
        );
    }

    #[test]
    fn extra_shows_changed_paths() {
        let a = base();
        let mut b = a.clone();
        b.context.extra =
            json!({"tiers": [1, 3, 4], "nested": {"x": 1, "odd key": null}, "new": "v"})
                .as_object()
                .cloned()
                .unwrap_or_default();
        let Delta::Json { paths, more } = &diff(&a, &b)[0].delta else {
            panic!("a JSON delta");
        };
        let names: Vec<&str> = paths.iter().map(|p| p.path.as_str()).collect();
        assert_eq!(
            names,
            [
                "extra.demo",
                "extra.nested[\"odd key\"]",
                "extra.tiers[1]",
                "extra.tiers[2]",
                "extra.new"
            ]
        );
        assert_eq!(*more, 0);
        assert_eq!(paths[0].new, None, "removed");
        assert_eq!(paths[4].old, None, "added");
    }

    #[test]
    fn a_huge_extra_lists_a_bounded_number_of_paths() {
        let a = PutContext::default();
        let mut b = a.clone();
        for i in 0..1000 {
            b.context.extra.insert(format!("k{i}"), json!(i));
        }
        let Delta::Json { paths, more } = &diff(&a, &b)[0].delta else {
            panic!("a JSON delta");
        };
        assert_eq!(
            (paths.len(), *more),
            (MAX_JSON_PATHS, 1000 - MAX_JSON_PATHS)
        );
    }

    #[test]
    fn json_values_are_cut_on_one_line() {
        assert_eq!(json_inline(&json!("abcdef"), 5), "\"abc…");
        assert_eq!(json_inline(&json!([1, 2]), 10), "[1,2]");
        assert_eq!(
            json_inline(&json!({"founded": 2009.0}), 40),
            r#"{"founded":2009}"#,
            "whole numbers as integers"
        );
    }
}
