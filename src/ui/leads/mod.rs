//! The Leads pane's views: the searches, a search with its results, a
//! result's detail, the create-search form and the dialogs. Its geometry
//! lives in `app::leads::layout`, shared with `update`.

mod campaign;
mod detail;
mod dialogs;
mod filter;
mod search;
mod searches;

use crate::api::{ApiError, RouteFamily};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders};
use ratatui_textarea::TextArea;

use super::theme::Theme;
use crate::api::model::LeadResult;
use crate::app::Model;
use crate::app::leads::filter::Builder;
use crate::app::leads::layout::{self, Role};
use crate::app::leads::{Dialog, LeadsModel, View};
use crate::text::sanitize::DisplayText;

/// The whole lead of a result, wrapped to `width` and styled: the same
/// lines `update` counts ([`layout::lead_line_count`]) to bound the scroll.
pub(crate) fn lead_lines(
    r: &LeadResult,
    clock: i64,
    width: u16,
    theme: &Theme,
) -> Vec<Line<'static>> {
    let mut out = Vec::new();
    for part in layout::lead_parts(r, clock) {
        let style = match part.role {
            Role::Title => theme.title,
            Role::Dim => theme.dim,
            Role::Text => theme.text,
        };
        let prefix = format!("{}: ", part.label);
        for (prefixed, line) in layout::wrap_part(&part, width) {
            match line.strip_prefix(&prefix) {
                Some(rest) if prefixed => out.push(Line::from(vec![
                    Span::styled(prefix.clone(), theme.header),
                    Span::styled(rest.to_owned(), style),
                ])),
                _ => out.push(Line::from(Span::styled(line, style))),
            }
        }
    }
    out
}

impl super::PaneView for LeadsModel {
    fn view(m: &Model, f: &mut Frame, body: Rect, theme: &Theme) {
        render(m, f, body, theme);
    }
}

/// Draws the pane.
fn render(m: &Model, f: &mut Frame, body: Rect, theme: &Theme) {
    let l = &m.panes.leads;
    match l.view {
        View::Searches => searches::render(m, f, body, theme),
        View::Search => search::render(m, f, body, theme),
        View::Detail => detail::render(m, f, body, theme),
        View::NewSearch => match &l.form {
            Some(form) => {
                let mut shown = form.form.clone();
                if crate::app::leads::creating(&m.requests) {
                    shown.submit_label = "Creating…".into();
                }
                super::widgets::form::render(f, body, &shown, theme);
            }
            None => searches::render(m, f, body, theme),
        },
    }
    match &l.dialog {
        Some(Dialog::Filter(b)) => {
            let loading = crate::app::leads::filter::fields_loading(&m.requests, &b.search)
                .then(|| placeholder(m, "the fields", None));
            filter::render(f, body, b, live_matches(l, b), loading, theme);
        }
        Some(Dialog::Campaign(c)) => campaign::render(m, f, body, c, theme),
        Some(Dialog::Export(e)) => dialogs::export(f, body, e, theme),
        Some(Dialog::Report(r)) => dialogs::report(m, f, body, r, theme),
        None => {}
    }
}

/// The shared text for Lead Finder data the pane lacks
/// ([`Model::placeholder`]): loading, offline since, rate limited, or why
/// it failed — the Refresh key only when a retry can help, the
/// refused-key advice on a 401.
fn placeholder(m: &Model, what: &str, error: Option<&ApiError>) -> String {
    m.placeholder_text(what, RouteFamily::LeadFinder, error)
}

/// What can be done about a failed refresh, after its stale mark: the
/// Refresh key when a retry can help, where to fix a refused key, else
/// nothing.
fn retry_note(m: &Model, error: Option<&ApiError>) -> Option<String> {
    match error {
        Some(e) => crate::app::fresh::next_step(&m.keymap, e, false),
        None => Some(format!(
            "{} retries",
            m.keymap.key_label(crate::app::keymap::Action::Refresh)
        )),
    }
}

/// Service text made inert for one line.
fn t(s: &str) -> String {
    DisplayText::inline(s).into_string()
}

/// A bordered block with `title`.
fn bordered<'a>(title: Line<'a>, theme: &Theme) -> Block<'a> {
    frame(theme).title(title)
}

/// A bordered block without a title yet.
fn frame<'a>(theme: &Theme) -> Block<'a> {
    Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border)
}

/// A one-line text box drawn inline: the text, with the cursor shown on
/// the character it is on.
fn cursor_spans(ta: &TextArea<'static>, theme: &Theme) -> Vec<Span<'static>> {
    let line: Vec<char> = ta
        .lines()
        .first()
        .map_or(Vec::new(), |l| l.chars().collect());
    let col = ta.cursor().1.min(line.len());
    let text = |cs: &[char]| t(&cs.iter().collect::<String>());
    let at = line.get(col).map_or(" ".to_owned(), |c| t(&c.to_string()));
    vec![
        Span::styled(text(&line[..col]), theme.text),
        Span::styled(at, theme.selected),
        Span::styled(text(line.get(col + 1..).unwrap_or_default()), theme.text),
    ]
}

/// How many results the builder's text matches, once it is applied (live)
/// and the answer is in.
fn live_matches(l: &LeadsModel, b: &Builder) -> Option<usize> {
    let o = l.open.as_ref().filter(|o| o.search.search_id == b.search)?;
    let q = b.q.lines().join(" ");
    let q = q.trim();
    (!q.is_empty() && o.filter.q == q && !b.live)
        .then_some(o.window.total)
        .flatten()
}

/// A count of cells (characters, lines) as a terminal width or height;
/// counts beyond what a terminal holds are held at the largest.
fn cells(n: usize) -> u16 {
    u16::try_from(n).unwrap_or(u16::MAX)
}
