//! The Profile pane: the stored profile by section with the discovery pass
//! beside (or above) it, the form, the review of a save, the redeem
//! dialog.

mod dialogs;
mod form;

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

use super::theme::Theme;
use crate::api::RouteFamily;
use crate::app::json_tree::NodeKind;
use crate::app::keymap::Action;
use crate::app::profile::doc::{DocRow, LABEL_W, RowKind};
use crate::app::profile::layout::{self, Areas};
use crate::app::profile::pass::{self, Item};
use crate::app::profile::{self as profile, DRAFT_KEY, ProfileModel};
use crate::app::{Load, Model};
use crate::text::format;
use crate::text::sanitize::DisplayText;
use crate::ui::widgets::progress;
use crate::ui::widgets::{filter_line, placeholder};

impl super::PaneView for ProfileModel {
    fn view(m: &Model, f: &mut Frame, body: Rect, theme: &Theme) {
        let p = &m.panes.profile;
        match &p.editor {
            Some(e) => form::render(m, f, body, e, theme),
            None => read_view(m, f, body, theme),
        }
        if let Some(r) = &p.review {
            dialogs::review(m, f, body, r, theme);
        }
        if let Some(d) = &p.redeem {
            dialogs::redeem(m, f, body, d, theme);
        }
    }
}

fn read_view(m: &Model, f: &mut Frame, body: Rect, theme: &Theme) {
    let p = &m.panes.profile;
    let a = layout::areas(body, p.needle.typing());
    document(m, f, a, theme);
    if a.pass.height > 0 && a.pass.width > 0 {
        dialogs::pass_panel(m, f, a.pass, theme);
    }
    if let Some(input) = &p.needle.input {
        filter_line::render(f, a.filter, input, "a field's name or text", theme);
    }
}

/// The title of the document: its state.
fn doc_title(m: &Model, theme: &Theme) -> Line<'static> {
    let p = &m.panes.profile;
    let mut spans = vec![Span::styled(" Company profile ", theme.title)];
    if p.needle.active() {
        // Fields shown (the lines of `extra` count as one).
        let fields = p
            .doc
            .rows
            .iter()
            .filter(|r| matches!(r.kind, RowKind::Field(_)))
            .count();
        let extra = p
            .doc
            .rows
            .iter()
            .any(|r| matches!(r.kind, RowKind::Extra(_)));
        let shown = u64::try_from(fields + usize::from(extra)).unwrap_or(u64::MAX);
        spans.push(Span::styled(
            format!(
                " /{} · {} ",
                DisplayText::inline(p.needle.text.trim()),
                format::plural(shown, "field", "fields")
            ),
            theme.key,
        ));
    }
    if profile::loading(m) {
        // Offline or rate limited, the body says so instead.
        if m.net.offline_since().is_none() {
            spans.push(Span::styled(" loading… ", theme.info));
        }
    } else if m.state.drafts.contains_key(DRAFT_KEY) {
        let key = m.keymap.key_label(Action::EditProfile);
        // "Saved locally" only when the state file can be written.
        let kept = if m.drafts_saved() {
            "saved locally"
        } else {
            "kept in this session only (not saved)"
        };
        spans.push(Span::styled(
            format!(" unsent changes {kept} — {key} offers them back "),
            theme.warn,
        ));
    } else if p.stored.is_some() {
        spans.push(Span::styled(" stored ", theme.ok));
    }
    if p.stored.is_some() {
        // How fresh what is shown is, from the one holder.
        spans.push(crate::ui::widgets::stale::freshness(m, &p.fresh, theme));
    }
    Line::from(spans)
}

/// The document's bottom line: its keys, and which lines are shown.
fn doc_footer(m: &Model, offset: usize, vp: usize, theme: &Theme) -> Line<'static> {
    let p = &m.panes.profile;
    let mut bottom = vec![
        Span::styled(
            format!(" {} ", m.keymap.key_label(Action::EditProfile)),
            theme.key,
        ),
        Span::styled("edit ", theme.dim),
        Span::styled(
            format!(" {} ", m.keymap.key_label(Action::RedeemPass)),
            theme.key,
        ),
        Span::styled("redeem a pass ", theme.dim),
    ];
    if p.doc.height > vp {
        let end = (offset + vp).min(p.doc.height);
        bottom.push(Span::styled(
            format!(" lines {}–{end} of {} ", offset + 1, p.doc.height),
            theme.dim,
        ));
    }
    Line::from(bottom)
}

fn document(m: &Model, f: &mut Frame, a: Areas, theme: &Theme) {
    let p = &m.panes.profile;
    let vp = a.viewport();
    let offset = p.offset.min(p.doc.height.saturating_sub(vp));
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border)
        .title(doc_title(m, theme))
        .title_bottom(doc_footer(m, offset, vp, theme));
    let inner = a.text();
    f.render_widget(block, a.doc);
    if p.stored.is_none() {
        // Not read yet: loading, offline, rate limited, or why it failed.
        let load = p.load_error.as_ref().map_or(Load::Pending, Load::Failed);
        let text = m.placeholder("the company profile", RouteFamily::Context, load);
        f.render_widget(
            Paragraph::new(placeholder::lines(&text, inner.width, theme)),
            inner,
        );
        return;
    }
    let items = pass::items(m);
    let mut lines: Vec<Line> = Vec::with_capacity(vp);
    let mut gauges = Vec::new();
    for (i, row) in p.doc.rows.iter().enumerate() {
        let (top, h) = (row.top, row.height());
        if top + h <= offset || top >= offset + vp {
            continue;
        }
        let selected = i == p.cursor;
        for j in 0..h {
            let n = top + j;
            if n >= offset && n < offset + vp {
                let line = match &row.kind {
                    RowKind::PassHeading => pass_heading(m, theme),
                    RowKind::Pass(k) => match items.get(*k) {
                        Some(Item::Gauge { remaining, limit }) => {
                            gauges.push((n - offset, *remaining, *limit));
                            Line::default()
                        }
                        Some(Item::Text(tone, text)) => {
                            dialogs::pass_text_line(text, *tone, j, inner.width, selected, theme)
                        }
                        None => Line::default(),
                    },
                    _ => doc_line(p, row, j, selected, theme),
                };
                lines.push(line);
            }
        }
    }
    f.render_widget(Paragraph::new(lines), inner);
    for (dy, remaining, limit) in gauges {
        let r = Rect {
            y: inner
                .y
                .saturating_add(u16::try_from(dy).unwrap_or(u16::MAX)),
            height: 1,
            ..inner
        };
        progress::render(f, r, remaining, limit, "remaining", theme);
    }
}

/// The heading of the pass when it is the document's first section.
fn pass_heading(m: &Model, theme: &Theme) -> Line<'static> {
    Line::from(vec![
        Span::styled("DISCOVERY PASS", theme.title),
        Span::styled(
            format!(
                "  the last code redeemed · {} redeems another",
                m.keymap.key_label(Action::RedeemPass)
            ),
            theme.dim,
        ),
    ])
}

/// Line `j` of a document row.
fn doc_line(
    p: &ProfileModel,
    row: &DocRow,
    j: usize,
    selected: bool,
    theme: &Theme,
) -> Line<'static> {
    let label_w = usize::from(LABEL_W);
    match &row.kind {
        RowKind::Header(s) => Line::from(vec![
            Span::styled(s.title().to_uppercase(), theme.title),
            Span::styled(format!("  {}", s.help()), theme.dim),
        ]),
        RowKind::Field(fid) => {
            let label = if j == 0 {
                format!("{:<w$}", fid.label(), w = label_w - 1)
            } else {
                " ".repeat(label_w - 1)
            };
            let label_style = if selected && j == 0 {
                theme.selected
            } else {
                theme.header
            };
            let value_style = if row.empty { theme.dim } else { theme.text };
            Line::from(vec![
                Span::styled(label, label_style),
                Span::raw(" "),
                Span::styled(row.lines.get(j).cloned().unwrap_or_default(), value_style),
            ])
        }
        RowKind::Extra(i) => tree_line(p, *i, selected, theme),
        RowKind::Note(n) => Line::from(Span::styled(format!("  {n}"), theme.dim)),
        RowKind::Blank | RowKind::PassHeading | RowKind::Pass(_) => Line::default(),
    }
}

fn tree_line(p: &ProfileModel, i: usize, selected: bool, theme: &Theme) -> Line<'static> {
    let Some(l) = p.tree.lines().get(i) else {
        return Line::default();
    };
    let marker = match (l.kind, l.folded) {
        (NodeKind::Container, true) => "▸ ",
        (NodeKind::Container, false) => "▾ ",
        _ => "  ",
    };
    let value_style = match l.kind {
        NodeKind::Text => theme.ok,
        NodeKind::Number => theme.info,
        NodeKind::Bool => theme.warn,
        NodeKind::Null | NodeKind::Container => theme.dim,
    };
    let line = Line::from(vec![
        Span::raw(format!("  {}", "  ".repeat(l.depth))),
        Span::styled(marker, theme.dim),
        Span::styled(l.key.as_str().to_owned(), theme.header),
        Span::styled(if l.value.is_empty() { "" } else { ": " }, theme.dim),
        Span::styled(l.value.as_str().to_owned(), value_style),
    ]);
    if selected {
        line.style(theme.selected)
    } else {
        line
    }
}
