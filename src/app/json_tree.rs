//! A browsable tree of JSON, for everything the contract leaves "not shown"
//! (a sender's schedule, enrichment person and company, metadata). Lines are
//! flattened (and sanitized) once when the data or the folding changes, not
//! on every frame.

use std::collections::{BTreeSet, HashSet};

use serde_json::Value;

use super::table::TableState;
use crate::text::format::{number, plural};
use crate::text::sanitize::DisplayText;

/// One visible line of the tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreeLine {
    /// Nesting depth.
    pub depth: usize,
    /// Key or `[index]`.
    pub key: DisplayText,
    /// The value of a leaf, or a summary of a folded container.
    pub value: DisplayText,
    /// What kind of value it is.
    pub kind: NodeKind,
    /// Path from the root, for folding.
    pub path: String,
    /// Whether a container is folded.
    pub folded: bool,
}

/// The kind of a JSON value, for colouring.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeKind {
    /// An object or array.
    Container,
    /// A string.
    Text,
    /// A number.
    Number,
    /// `true` / `false`.
    Bool,
    /// `null`.
    Null,
}

/// A JSON tree with folding and a selection.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct JsonTree {
    root: Value,
    folded: BTreeSet<String>,
    /// Lower-cased text lines must contain (with their parents and, for a
    /// matching container, its contents); empty shows every line.
    filter: String,
    lines: Vec<TreeLine>,
    /// Lines of the whole unfolded tree while a filter is set.
    total: usize,
    /// Selection over the visible lines.
    pub table: TableState,
}

impl JsonTree {
    /// A tree over `root`, fully unfolded.
    pub fn new(root: Value) -> JsonTree {
        let mut t = JsonTree {
            root,
            ..Default::default()
        };
        t.reflow(1);
        t
    }

    /// The visible lines.
    pub fn lines(&self) -> &[TreeLine] {
        &self.lines
    }

    /// Keeps only the lines whose key or value contains `needle` (case
    /// ignored), with their parents, and the contents of a matching
    /// container; folds are ignored while it is set, so nothing matching
    /// hides. `None` shows the tree as folded.
    pub fn set_filter(&mut self, needle: Option<&str>, viewport: usize) {
        let needle = needle.map(str::to_lowercase).unwrap_or_default();
        if needle != self.filter {
            self.filter = needle;
            self.reflow(viewport);
        }
    }

    /// `(shown, of)` lines while a filter is set.
    pub fn filtered(&self) -> Option<(usize, usize)> {
        (!self.filter.is_empty()).then_some((self.lines.len(), self.total))
    }

    /// The JSON shown.
    pub fn root(&self) -> &Value {
        &self.root
    }

    /// Folds or unfolds the selected container.
    pub fn toggle(&mut self, viewport: usize) {
        let Some(line) = self.lines.get(self.table.selected) else {
            return;
        };
        if line.kind != NodeKind::Container {
            return;
        }
        let path = line.path.clone();
        if !self.folded.remove(&path) {
            self.folded.insert(path);
        }
        self.reflow(viewport);
    }

    fn reflow(&mut self, viewport: usize) {
        let mut lines = Vec::new();
        let unfolded = BTreeSet::new();
        let folded = if self.filter.is_empty() {
            &self.folded
        } else {
            &unfolded
        };
        match &self.root {
            Value::Object(_) | Value::Array(_) => {
                walk_children(&self.root, "", 0, folded, &mut lines);
            }
            other => lines.push(leaf(0, "value", "", other)),
        }
        self.total = lines.len();
        if !self.filter.is_empty() {
            lines = matching(lines, &self.filter);
        }
        self.lines = lines;
        self.table.set_len(self.lines.len(), viewport);
    }
}

/// The lines that contain `needle`, their parents, and what a matching
/// container holds, in order. Linear in the lines (times their depth): a
/// one-letter filter on a large tree stays quick.
fn matching(lines: Vec<TreeLine>, needle: &str) -> Vec<TreeLine> {
    // Every proper prefix of a path (`/a/b/c` → `/a`, `/a/b`).
    fn parents(path: &str) -> impl Iterator<Item = &str> {
        path.match_indices('/')
            .map(|(i, _)| &path[..i])
            .filter(|p| !p.is_empty())
    }
    let hits: HashSet<&str> = lines
        .iter()
        .filter(|l| {
            l.key.as_str().to_lowercase().contains(needle)
                || l.value.as_str().to_lowercase().contains(needle)
        })
        .map(|l| l.path.as_str())
        .collect();
    let above: HashSet<&str> = hits.iter().flat_map(|h| parents(h)).collect();
    let keep: Vec<bool> = lines
        .iter()
        .map(|l| {
            let p = l.path.as_str();
            hits.contains(p) || above.contains(p) || parents(p).any(|q| hits.contains(q))
        })
        .collect();
    lines
        .into_iter()
        .zip(keep)
        .filter_map(|(l, k)| k.then_some(l))
        .collect()
}

fn summary(v: &Value) -> String {
    let n = |len: usize| u64::try_from(len).unwrap_or(u64::MAX);
    match v {
        Value::Object(m) => format!("{{…}} {}", plural(n(m.len()), "key", "keys")),
        Value::Array(a) => format!("[…] {}", plural(n(a.len()), "item", "items")),
        _ => String::new(),
    }
}

/// JSON text with every character the sanitizer would alter written as a
/// `\u` escape (outside strings JSON is plain ASCII, so only string
/// contents change).
pub(crate) fn inert_json(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    let mut buf = [0u8; 4];
    for c in json.chars() {
        let one: &str = c.encode_utf8(&mut buf);
        if DisplayText::inline(one).as_str() == one {
            out.push(c);
        } else {
            let mut units = [0u16; 2];
            for u in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{u:04x}"));
            }
        }
    }
    out
}

fn leaf(depth: usize, key: &str, path: &str, v: &Value) -> TreeLine {
    let (kind, text) = match v {
        Value::String(s) => (NodeKind::Text, DisplayText::inline(s)),
        Value::Number(n) => (NodeKind::Number, DisplayText::own(number(n))),
        Value::Bool(b) => (NodeKind::Bool, DisplayText::own(b.to_string())),
        Value::Null => (NodeKind::Null, DisplayText::own("null")),
        container => (NodeKind::Container, DisplayText::own(summary(container))),
    };
    TreeLine {
        depth,
        key: DisplayText::inline(key),
        value: text,
        kind,
        path: path.to_owned(),
        folded: false,
    }
}

fn walk_children(
    v: &Value,
    path: &str,
    depth: usize,
    folded: &BTreeSet<String>,
    out: &mut Vec<TreeLine>,
) {
    let children: Vec<(String, &Value)> = match v {
        Value::Object(m) => m.iter().map(|(k, v)| (k.clone(), v)).collect(),
        Value::Array(a) => a
            .iter()
            .enumerate()
            .map(|(i, v)| (format!("[{i}]"), v))
            .collect(),
        _ => return,
    };
    for (key, child) in children {
        let child_path = format!("{path}/{key}");
        let is_container = matches!(child, Value::Object(_) | Value::Array(_));
        let is_folded = folded.contains(&child_path);
        let mut line = leaf(depth, &key, &child_path, child);
        if is_container {
            line.folded = is_folded;
            line.value = if is_folded {
                DisplayText::own(summary(child))
            } else {
                DisplayText::default()
            };
        }
        out.push(line);
        if is_container && !is_folded {
            walk_children(child, &child_path, depth + 1, folded, out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::format::{json_text, value_text};
    use serde_json::json;

    #[test]
    fn flattens_and_folds() {
        let mut t = JsonTree::new(json!({"a": {"b": 1, "c": [true, null]}, "d": "x\u{1b}[31m"}));
        let keys: Vec<_> = t
            .lines()
            .iter()
            .map(|l| (l.depth, l.key.as_str().to_owned()))
            .collect();
        assert_eq!(
            keys,
            [
                (0, "a".into()),
                (1, "b".into()),
                (1, "c".into()),
                (2, "[0]".into()),
                (2, "[1]".into()),
                (0, "d".into())
            ]
        );
        assert_eq!(t.lines()[5].value.as_str(), "x", "values are sanitized");
        t.toggle(10);
        assert_eq!(t.lines().len(), 2);
        assert_eq!(t.lines()[0].value.as_str(), "{…} 2 keys");
        t.toggle(10);
        assert_eq!(t.lines().len(), 6);
    }

    #[test]
    fn whole_numbers_show_as_integers() {
        let t = JsonTree::new(json!({"founded": 2009.0, "score": 0.5, "n": 7, "one": [1]}));
        let values: Vec<_> = t.lines().iter().map(|l| l.value.as_str()).collect();
        assert_eq!(values, ["2009", "7", "", "1", "0.5"]);
        let mut t = JsonTree::new(json!({"one": [1]}));
        t.toggle(10);
        assert_eq!(t.lines()[0].value.as_str(), "[…] 1 item");
    }

    #[test]
    fn a_filter_keeps_matches_with_their_parents_and_contents() {
        let mut t = JsonTree::new(json!({
            "schedule": {
                "2026-11-25": {"capacity": 50, "committed": 12},
                "2026-11-26": {"capacity": 40, "committed": 0}
            }
        }));
        t.toggle(10);
        assert_eq!(t.lines().len(), 1, "folded");
        t.set_filter(Some("11-26"), 10);
        let keys: Vec<_> = t
            .lines()
            .iter()
            .map(|l| l.key.as_str().to_owned())
            .collect();
        assert_eq!(keys, ["schedule", "2026-11-26", "capacity", "committed"]);
        assert_eq!(t.filtered(), Some((4, 7)));
        t.set_filter(Some("COMMITTED"), 10);
        assert_eq!(
            t.lines().len(),
            5,
            "both days' committed, under their parents"
        );
        t.set_filter(None, 10);
        assert_eq!(t.lines().len(), 1, "the folds come back");
        assert_eq!(t.filtered(), None);
    }

    #[test]
    fn scalars_show_as_one_line() {
        let t = JsonTree::new(json!(42));
        assert_eq!(t.lines().len(), 1);
        assert_eq!(t.lines()[0].value.as_str(), "42");
    }

    #[test]
    fn whole_numbers_are_written_as_integers_everywhere() {
        let v = json!({"founded": 2009.0, "share": [1.0, 2.5], "name": "Acme", "big": 1e300});
        assert_eq!(
            json_text(&v),
            r#"{"big":1e+300,"founded":2009,"name":"Acme","share":[1,2.5]}"#
        );
        assert_eq!(value_text(&json!(2009.0)), "2009");
        assert_eq!(value_text(&json!(-3.0)), "-3");
        assert_eq!(value_text(&json!("plain")), "plain");
        assert_eq!(value_text(&json!(u64::MAX)), u64::MAX.to_string());
        let t = JsonTree::new(json!({"founded": 2009.0}));
        assert_eq!(t.lines()[0].value.as_str(), "2009");
    }
}
