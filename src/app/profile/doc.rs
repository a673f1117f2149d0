//! The stored profile as a document for reading: a heading per section,
//! a row per field (its value made inert and wrapped to the width), and
//! `extra` as the lines of its JSON tree. Built when the data, the folding
//! or the width changes — not on every frame — and shared by drawing,
//! scrolling and mouse hit-testing.

use super::fields::{ALL, FieldId, Section, Val};
use crate::api::model::PutContext;
use crate::app::json_tree::JsonTree;
use crate::text::sanitize::DisplayText;
use crate::text::wrap::wrap;

/// Columns of the label column (the longest label, "Professional
/// background", fits), the gap included.
pub(crate) const LABEL_W: u16 = 25;

/// What a row of the document is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RowKind {
    /// A section heading.
    Header(Section),
    /// A field: label and value.
    Field(FieldId),
    /// Line `n` of `extra`'s tree.
    Extra(usize),
    /// A dimmed remark.
    Note(&'static str),
    /// Space between sections.
    Blank,
    /// The discovery pass's heading (on a narrow screen the pass is the
    /// document's first section, so it scrolls with it).
    PassHeading,
    /// Item `n` of the pass panel.
    Pass(usize),
}

/// One row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocRow {
    /// What it is.
    pub kind: RowKind,
    /// Its first line in the document.
    pub top: usize,
    /// A field's value, wrapped (inert); one line for other rows.
    pub lines: Vec<String>,
    /// The value is empty (drawn dimmed).
    pub empty: bool,
}

impl DocRow {
    /// Lines it takes.
    pub fn height(&self) -> usize {
        self.lines.len().max(1)
    }

    /// Whether the cursor can rest on it.
    pub fn selectable(&self) -> bool {
        matches!(
            self.kind,
            RowKind::Field(_) | RowKind::Extra(_) | RowKind::Pass(_)
        )
    }
}

/// The document.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Doc {
    /// The width it was laid out for (inside the border).
    pub width: u16,
    /// The rows, in order.
    pub rows: Vec<DocRow>,
    /// Lines in all.
    pub height: usize,
}

/// A field's value as one text: a string as it is, items joined by ` · `.
fn value_text(v: Val<'_>) -> (String, bool) {
    match v {
        Val::Text(s) if s.trim().is_empty() => ("—".into(), true),
        Val::Text(s) => (DisplayText::block(s).into_string(), false),
        Val::List([]) => ("(none)".into(), true),
        Val::List(items) => {
            let shown: Vec<String> = items
                .iter()
                .map(|s| DisplayText::inline(s).into_string())
                .collect();
            (shown.join(" · "), false)
        }
        Val::Json(_) => (String::new(), false),
    }
}

fn blank() -> DocRow {
    DocRow {
        kind: RowKind::Blank,
        top: 0,
        lines: Vec::new(),
        empty: false,
    }
}

/// Lays the profile out for a width (inside the border).
pub(crate) fn build(p: &PutContext, profile_missing: bool, tree: &JsonTree, width: u16) -> Doc {
    let value_w = usize::from(width.saturating_sub(LABEL_W + 1).max(8));
    let mut rows: Vec<DocRow> = Vec::new();
    let mut push = |kind: RowKind, lines: Vec<String>, empty: bool| {
        rows.push(DocRow {
            kind,
            top: 0,
            lines,
            empty,
        });
    };
    for (n, section) in Section::ALL.into_iter().enumerate() {
        if n > 0 {
            push(RowKind::Blank, Vec::new(), false);
        }
        push(RowKind::Header(section), Vec::new(), false);
        if section == Section::Profile && profile_missing {
            push(
                RowKind::Note("the service did not send the profile object"),
                Vec::new(),
                true,
            );
        }
        for f in ALL.iter().filter(|f| f.section() == section) {
            if let Val::Json(map) = f.get(p) {
                if map.is_empty() {
                    push(RowKind::Note("(an empty object)"), Vec::new(), true);
                }
                for i in 0..tree.lines().len() {
                    push(RowKind::Extra(i), Vec::new(), false);
                }
                continue;
            }
            let (text, empty) = value_text(f.get(p));
            push(RowKind::Field(*f), wrap(&text, value_w), empty);
        }
    }
    let mut top = 0;
    for r in &mut rows {
        r.top = top;
        top += r.height();
    }
    Doc {
        width,
        rows,
        height: top,
    }
}

impl Doc {
    /// Keeps only the fields whose label or text contains `needle`
    /// (case-insensitive) — lines of `extra` by their key or value, all of
    /// them when "extra" itself matches — under their section headings.
    pub fn filtered(self, needle: &str, tree: &JsonTree) -> Doc {
        let needle = needle.trim().to_lowercase();
        if needle.is_empty() {
            return self;
        }
        let has = |s: &str| s.to_lowercase().contains(&needle);
        let extra_all = has(FieldId::Extra.label());
        let mut kept: Vec<DocRow> = Vec::new();
        let mut heading: Option<DocRow> = None;
        for row in self.rows {
            let keep = match &row.kind {
                RowKind::Header(_) => {
                    heading = Some(row);
                    continue;
                }
                RowKind::Field(f) => has(f.label()) || has(&row.lines.join(" ")),
                RowKind::Extra(i) => {
                    extra_all
                        || tree
                            .lines()
                            .get(*i)
                            .is_some_and(|l| has(l.key.as_str()) || has(l.value.as_str()))
                }
                _ => false,
            };
            if keep {
                if let Some(h) = heading.take() {
                    if !kept.is_empty() {
                        kept.push(blank());
                    }
                    kept.push(h);
                }
                kept.push(row);
            }
        }
        if kept.is_empty() {
            kept.push(DocRow {
                kind: RowKind::Note("no field matches the filter"),
                top: 0,
                lines: Vec::new(),
                empty: true,
            });
        }
        let mut top = 0;
        for r in &mut kept {
            r.top = top;
            top += r.height();
        }
        Doc {
            width: self.width,
            rows: kept,
            height: top,
        }
    }

    /// Puts the discovery pass first: its heading, one row per item of
    /// the panel (`heights`: the lines each takes), and a blank line.
    pub fn prepend_pass(&mut self, heights: &[usize]) {
        let mut rows = vec![DocRow {
            kind: RowKind::PassHeading,
            top: 0,
            lines: Vec::new(),
            empty: false,
        }];
        rows.extend(heights.iter().enumerate().map(|(i, h)| DocRow {
            kind: RowKind::Pass(i),
            top: 0,
            lines: vec![String::new(); (*h).max(1)],
            empty: false,
        }));
        rows.push(DocRow {
            kind: RowKind::Blank,
            top: 0,
            lines: Vec::new(),
            empty: false,
        });
        rows.append(&mut self.rows);
        let mut top = 0;
        for r in &mut rows {
            r.top = top;
            top += r.height();
        }
        self.rows = rows;
        self.height = top;
    }

    /// The first row of the pass, when the document holds it.
    pub fn pass_row(&self) -> Option<usize> {
        self.rows
            .iter()
            .position(|r| matches!(r.kind, RowKind::Pass(_)))
    }

    /// The selectable row after (or before) `from`.
    pub fn step(&self, from: usize, forward: bool) -> Option<usize> {
        if forward {
            (from + 1..self.rows.len()).find(|i| self.rows[*i].selectable())
        } else {
            (0..from.min(self.rows.len()))
                .rev()
                .find(|i| self.rows[*i].selectable())
        }
    }

    /// The first selectable row.
    pub fn first(&self) -> Option<usize> {
        self.rows.iter().position(DocRow::selectable)
    }

    /// The last selectable row.
    pub fn last(&self) -> Option<usize> {
        self.rows.iter().rposition(DocRow::selectable)
    }

    /// The row holding document line `line`.
    pub fn row_at_line(&self, line: usize) -> Option<usize> {
        self.rows
            .iter()
            .position(|r| line >= r.top && line < r.top + r.height())
    }

    /// The row of field `id`.
    pub fn row_of(&self, id: FieldId) -> Option<usize> {
        self.rows.iter().position(|r| r.kind == RowKind::Field(id))
    }

    /// The field a row shows (`extra` for its tree lines).
    pub fn field_at(&self, row: usize) -> Option<FieldId> {
        match self.rows.get(row)?.kind {
            RowKind::Field(f) => Some(f),
            RowKind::Extra(_) => Some(FieldId::Extra),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    #[test]
    fn every_field_has_a_row_and_long_values_wrap() {
        let mut p = PutContext::default();
        p.context.company.overview = "word ".repeat(40);
        p.context.extra = json!({"a": {"b": 1}})
            .as_object()
            .cloned()
            .unwrap_or_default();
        let tree = JsonTree::new(Value::Object(p.context.extra.clone()));
        let doc = build(&p, false, &tree, 60);
        let fields = doc
            .rows
            .iter()
            .filter(|r| matches!(r.kind, RowKind::Field(_)))
            .count();
        assert_eq!(fields, ALL.len() - 1, "every field but extra");
        let extra = doc
            .rows
            .iter()
            .filter(|r| matches!(r.kind, RowKind::Extra(_)))
            .count();
        assert_eq!(extra, 2, "extra as its tree lines");
        let overview = doc.row_of(FieldId::Overview).map(|i| doc.rows[i].height());
        assert_eq!(overview, Some(6), "200 chars over 34 columns");
        let last = doc.rows.last().map(|r| r.top + r.height());
        assert_eq!(Some(doc.height), last);
        assert_eq!(doc.row_at_line(0), Some(0));
    }

    #[test]
    fn the_cursor_steps_over_headings() {
        let p = PutContext::default();
        let doc = build(&p, true, &JsonTree::default(), 80);
        let first = doc.first().expect("a field");
        assert_eq!(doc.field_at(first), Some(FieldId::FirstName));
        assert_eq!(
            doc.rows[1].kind,
            RowKind::Note("the service did not send the profile object")
        );
        let next = doc.step(doc.row_of(FieldId::Website).unwrap_or(0), true);
        assert_eq!(
            next.and_then(|i| doc.field_at(i)),
            Some(FieldId::ProfessionalBackground)
        );
        assert_eq!(doc.step(first, false), None);
        assert_eq!(
            doc.last().and_then(|i| doc.field_at(i)),
            Some(FieldId::IcpKeywords),
            "an empty extra has no lines"
        );
    }
}
