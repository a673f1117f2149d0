//! The launch preflight's dialog: the progress of the walk over the pending
//! roster (Esc stops it), then what was found in groups, errors first, one
//! line each (cut with `…` to the width), the selected one jumping to its
//! place with Enter.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use super::super::theme::Theme;
use super::super::widgets::progress;
use super::{fixed, fixed_keys};
use crate::app::Model;
use crate::app::campaigns::fixed_keys::{CLOSE, CONFIRM, YES};
use crate::app::campaigns::layout;
use crate::app::campaigns::preflight::{Check, Line as Row};
use crate::app::keymap::Action;
use crate::logic::preflight::{Kind, Severity};
use crate::text::format;
use crate::text::sanitize::DisplayText;
use crate::text::wrap::fit;

/// Draws the dialog over the pane body.
pub(super) fn render(m: &Model, f: &mut Frame, body: Rect, c: &Check, theme: &Theme) {
    let a = layout::preflight(body);
    f.render_widget(Clear, a.frame);
    let title = format!(
        " Launch preflight · “{}” ",
        DisplayText::inline(&c.campaign.name)
    );
    let title = fit(&title, usize::from(a.frame.width.saturating_sub(4)));
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.title)
        .title(Span::styled(title, theme.title))
        .title_bottom(hint(m, c, theme));
    f.render_widget(block, a.frame);
    let width = usize::from(a.summary.width);
    if c.finished() {
        f.render_widget(Paragraph::new(verdict(c, width, theme)), a.summary);
        f.render_widget(Paragraph::new(list(c, a.list, theme)), a.list);
    } else {
        f.render_widget(Paragraph::new(walking(c, width, theme)), a.summary);
        if c.walk.is_some() && a.list.height > 0 {
            let (checked, total) = c.progress();
            let total = total.unwrap_or(0).max(checked);
            let text = format!(
                "checked {} of {}",
                format::count(checked),
                format::plural(total, "lead", "leads")
            );
            let bar = Rect {
                height: 1,
                ..a.list
            };
            progress::labelled(f, bar, checked, total, text, theme);
        }
    }
}

/// The keys the dialog takes now.
fn hint(m: &Model, c: &Check, theme: &Theme) -> Line<'static> {
    if !c.finished() {
        let mut pairs = Vec::new();
        if c.error.is_some() {
            pairs.push((m.keymap.key_label(Action::Refresh), "read again"));
        }
        if c.walk.is_some() {
            pairs.push((fixed(CLOSE), "stop (lists what was found)"));
        } else {
            pairs.push((fixed(CLOSE), "close"));
        }
        return fixed_keys(&pairs, theme);
    }
    let moves = format!(
        "{}/{}",
        m.keymap.key_label(Action::Down),
        m.keymap.key_label(Action::Up)
    );
    let mut pairs = vec![(moves, "move"), (fixed(CONFIRM), "show where")];
    if !c.report.blocks() {
        pairs.push((fixed(YES), "go on to launch"));
    }
    pairs.push((fixed(CLOSE), "close"));
    fixed_keys(&pairs, theme)
}

/// The summary while the campaign or the roster is read.
fn walking(c: &Check, width: usize, theme: &Theme) -> Vec<Line<'static>> {
    let first = if c.walk.is_none() {
        "Reading the campaign as the service will send it…".to_owned()
    } else {
        let (e, w) = (c.report.errors.len(), c.report.warnings.len());
        format!(
            "Checking the pending leads page by page · found so far: {}, {}",
            format::plural(e as u64, "error", "errors"),
            format::plural(w as u64, "warning", "warnings")
        )
    };
    let mut out = vec![Line::from(Span::styled(fit(&first, width), theme.info))];
    if let Some(e) = &c.error {
        let text = format!("Could not read: {}", DisplayText::inline(e));
        out.push(Line::from(Span::styled(fit(&text, width), theme.err)));
    }
    out
}

/// What the findings mean for the launch, and what is left unchecked.
fn verdict(c: &Check, width: usize, theme: &Theme) -> Vec<Line<'static>> {
    let r = &c.report;
    let (text, style) = if r.blocks() {
        (
            format!(
                "{} the launch: fix {} (Enter shows where), then launch again.",
                format::plural(r.errors.len() as u64, "error blocks", "errors block"),
                if r.errors.len() == 1 { "it" } else { "them" }
            ),
            theme.err,
        )
    } else if !r.warnings.is_empty() {
        (
            format!(
                "{}: y goes on to the launch question all the same.",
                format::plural(r.warnings.len() as u64, "warning", "warnings")
            ),
            theme.warn,
        )
    } else {
        (
            "Nothing found in the leads checked: y goes on to the launch question.".to_owned(),
            theme.ok,
        )
    };
    let second = match &c.note {
        Some(n) => Span::styled(fit(n, width), theme.err),
        None => {
            let unchecked = r.not_checked();
            let text = if unchecked > 0 {
                format!(
                    "{} of {} not checked: the walk was stopped.",
                    format::count(unchecked),
                    format::plural(r.pending, "pending lead", "pending leads")
                )
            } else {
                format!("Every pending lead checked ({}).", format::count(r.checked))
            };
            let style = if unchecked > 0 { theme.warn } else { theme.dim };
            Span::styled(fit(&text, width), style)
        }
    };
    vec![
        Line::from(Span::styled(fit(&text, width), style)),
        Line::from(second),
    ]
}

/// The visible part of the findings list.
fn list(c: &Check, area: Rect, theme: &Theme) -> Vec<Line<'static>> {
    let width = usize::from(area.width);
    let rows = usize::from(area.height).max(1);
    let mut table = c.table.clone();
    table.clamp(rows);
    table
        .visible(rows)
        .filter_map(|i| Some((i, c.lines.get(i)?)))
        .map(|(i, row)| match row {
            Row::Heading(kind) => heading(c, *kind, width, theme),
            Row::Finding(f) => {
                let text = format!("  {}", DisplayText::inline(&f.text));
                let style = if i == c.table.selected {
                    theme.selected
                } else {
                    theme.text
                };
                Line::from(Span::styled(fit(&text, width), style))
            }
        })
        .collect()
}

/// A group's heading: its severity, title and count.
fn heading(c: &Check, kind: Kind, width: usize, theme: &Theme) -> Line<'static> {
    let n = c
        .lines
        .iter()
        .filter(|l| matches!(l, Row::Finding(f) if f.kind == kind))
        .count();
    let (word, style) = match kind.severity() {
        Severity::Error => ("error", theme.err),
        Severity::Warning => ("warning", theme.warn),
    };
    let text = format!("{word} · {} ({n})", kind.title());
    Line::from(Span::styled(fit(&text, width), style))
}
