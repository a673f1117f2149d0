//! The review shown before a save: the diff as lines wrapped to a width,
//! shared by drawing and by the scroll bound in `update`.

use super::diff::{Change, Delta, JsonChange, json_inline};
use crate::api::model::PutContext;
use crate::app::fixed_keys;
use crate::text::sanitize::DisplayText;
use crate::text::wrap::wrap;

/// The review of a save, shown until it is confirmed or dismissed.
#[derive(Debug, Clone, PartialEq)]
pub struct Review {
    /// The complete replacement that [`fixed_keys::YES`] sends.
    pub request: PutContext,
    /// What it changes against the stored profile.
    pub changes: Vec<Change>,
    /// First line shown.
    pub scroll: usize,
}

/// How a review line looks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mark {
    /// The field's name.
    Field,
    /// What goes.
    Old,
    /// What comes.
    New,
    /// Changed in place, or a remark.
    Note,
}

/// One line of the review.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Line {
    /// How it looks.
    pub mark: Mark,
    /// The text (inert).
    pub text: String,
}

fn push_wrapped(out: &mut Vec<Line>, mark: Mark, sign: &str, text: &str, width: usize) {
    let body = width.saturating_sub(4).max(8);
    for (i, l) in wrap(text, body).into_iter().enumerate() {
        let lead = if i == 0 { sign } else { " " };
        out.push(Line {
            mark,
            text: format!("  {lead} {l}"),
        });
    }
}

fn shown(text: &str) -> String {
    if text.trim().is_empty() {
        "(empty)".into()
    } else {
        DisplayText::block(text).into_string()
    }
}

fn json_line(c: &JsonChange) -> (Mark, String, String) {
    let path = DisplayText::inline(&c.path).into_string();
    let v = |v: &serde_json::Value| DisplayText::inline(&json_inline(v, 60)).into_string();
    match (&c.old, &c.new) {
        (None, Some(n)) => (Mark::New, "+".into(), format!("{path}: {}", v(n))),
        (Some(o), None) => (Mark::Old, "−".into(), format!("{path}: {}", v(o))),
        (Some(o), Some(n)) => (
            Mark::Note,
            "~".into(),
            format!("{path}: {} → {}", v(o), v(n)),
        ),
        (None, None) => (Mark::Note, "~".into(), path),
    }
}

/// Says what a save sends, under the changes.
pub(crate) const NOTE: &str =
    "The whole profile is sent (PUT replaces it); only these fields differ.";

/// The review as drawn at the current size: where it goes, its lines, and
/// the note and keys under them (wrapped) — shared by drawing and by the
/// scroll keys.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Shown {
    /// The dialog (borders included).
    pub rect: crate::geometry::Rect,
    /// Every line of the changes.
    pub lines: Vec<Line>,
    /// The note and the keys, wrapped, under the changes.
    pub footer: Vec<String>,
    /// How many of the footer's lines are the note (the keys follow).
    pub note_rows: usize,
    /// Lines of the changes on screen.
    pub viewport: usize,
}

/// The keys of the review, named from the keys its handler reads: the
/// fixed answers of every confirm of the dashboard ([`fixed_keys::YES`] saves,
/// [`fixed_keys::NO`] goes back; [`fixed_keys::DISMISS`] too, unnamed there as well),
/// Back and the movement keys as the keymap binds them.
pub(crate) fn keys_text(keymap: &crate::app::keymap::Keymap) -> String {
    use crate::app::keymap::Action;
    let k = |a| keymap.key_label(a);
    format!(
        "{} saves · {} or {} goes back to the form · {}/{} scroll",
        fixed_keys::YES.label,
        fixed_keys::NO.label,
        k(Action::Back),
        k(Action::Down),
        k(Action::Up)
    )
}

/// The review of `r` in the pane's `body` (for the view).
pub(crate) fn on_screen(m: &crate::app::Model, r: &Review, body: crate::geometry::Rect) -> Shown {
    laid_out(&m.keymap, r, body)
}

/// The review of `r` in the pane's `body`, its keys named as `keymap`
/// binds them.
pub(crate) fn laid_out(
    keymap: &crate::app::keymap::Keymap,
    r: &Review,
    body: crate::geometry::Rect,
) -> Shown {
    let lines = lines(&r.changes, super::layout::review_width(body));
    // The footer's height depends on the width only: measure it first.
    let width = usize::from(super::layout::review_width(body).max(1));
    let mut footer = wrap(NOTE, width);
    let note_rows = footer.len();
    footer.extend(wrap(&keys_text(keymap), width));
    let want = lines.len().saturating_add(footer.len());
    let rect = super::layout::review_rect(body, want);
    let viewport = usize::from(rect.height.saturating_sub(2))
        .saturating_sub(footer.len())
        .max(1);
    Shown {
        rect,
        lines,
        footer,
        note_rows,
        viewport,
    }
}

/// The review's lines at `width`.
pub(crate) fn lines(changes: &[Change], width: u16) -> Vec<Line> {
    let width = usize::from(width);
    let mut out = Vec::new();
    for (i, c) in changes.iter().enumerate() {
        if i > 0 {
            out.push(Line {
                mark: Mark::Note,
                text: String::new(),
            });
        }
        let (section, label) = (c.field.section().title(), c.field.label());
        out.push(Line {
            mark: Mark::Field,
            text: if section == label {
                label.to_owned()
            } else {
                format!("{section} · {label}")
            },
        });
        match &c.delta {
            Delta::Text { old, new } => {
                push_wrapped(&mut out, Mark::Old, "−", &shown(old), width);
                push_wrapped(&mut out, Mark::New, "+", &shown(new), width);
            }
            Delta::List {
                added,
                removed,
                reordered,
            } => {
                for item in removed {
                    push_wrapped(&mut out, Mark::Old, "−", &shown(item), width);
                }
                for item in added {
                    push_wrapped(&mut out, Mark::New, "+", &shown(item), width);
                }
                if *reordered {
                    push_wrapped(&mut out, Mark::Note, "~", "same items, new order", width);
                }
            }
            Delta::Json { paths, more } => {
                for p in paths {
                    let (mark, sign, text) = json_line(p);
                    push_wrapped(&mut out, mark, &sign, &text, width);
                }
                if *more > 0 {
                    let text = format!("… and {more} more changed paths");
                    push_wrapped(&mut out, Mark::Note, " ", &text, width);
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::profile::diff::diff;
    use serde_json::json;

    #[test]
    fn each_kind_of_change_reads_as_old_and_new() {
        let a = PutContext::default();
        let mut b = a.clone();
        b.profile.website = "https://acme.example".into();
        b.context.content.topics_to_avoid = vec!["politics".into()];
        b.context.extra = json!({"tier": "gold"})
            .as_object()
            .cloned()
            .unwrap_or_default();
        let text: Vec<String> = lines(&diff(&a, &b), 60)
            .into_iter()
            .map(|l| l.text)
            .collect();
        assert_eq!(
            text,
            [
                "Profile · Website",
                "  − (empty)",
                "  + https://acme.example",
                "",
                "Content · Topics to avoid",
                "  + politics",
                "",
                "Extra",
                "  + extra.tier: \"gold\"",
            ]
        );
    }

    #[test]
    fn long_values_wrap_under_their_sign() {
        let a = PutContext::default();
        let mut b = a.clone();
        b.context.company.overview = "word ".repeat(10).trim().to_owned();
        let l = lines(&diff(&a, &b), 24);
        assert_eq!(l[2].text, "  + word word word word");
        assert_eq!(l[3].text, "    word word word word");
        assert_eq!(l[2].mark, Mark::New);
    }
}
