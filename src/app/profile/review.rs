//! The review shown before a save: the diff as lines wrapped to a width,
//! shared by drawing and by the scroll bound in `update`.

use super::diff::{Change, Delta, JsonChange, json_inline};
use crate::api::model::PutContext;
use crate::text::sanitize::DisplayText;
use crate::text::wrap::wrap;

/// The review of a save, shown until it is confirmed or dismissed.
#[derive(Debug, Clone, PartialEq)]
pub struct Review {
    /// The complete replacement that `y` sends.
    pub request: PutContext,
    /// What it changes against the stored profile.
    pub changes: Vec<Change>,
    /// First line shown.
    pub scroll: usize,
}

/// How a review line looks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
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
pub struct Line {
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

/// The review's lines at `width`.
pub fn lines(changes: &[Change], width: u16) -> Vec<Line> {
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
