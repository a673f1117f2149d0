//! The Leads pane: the layout (shared with `update` for page sizes and
//! mouse hit-testing), the hints, and the dispatch to each view.

mod dialogs;
mod views;

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use super::layout::{split_left, split_top};
use super::sanitize::DisplayText;
use super::theme::Theme;
use super::widgets::vtable;
use crate::api::model::LeadResult;
use crate::app::Model;
use crate::app::leads::detail::Tab;
use crate::app::leads::{Dialog, LeadsModel, View, search};
use crate::config::keymap::Action;

/// Width from which the result detail puts the lead and the enrichment side
/// by side.
pub const WIDE: u16 = 140;

/// The list of searches fills the body.
pub fn searches_area(body: Rect) -> Rect {
    body
}

/// Rows of the searches list on screen.
pub fn searches_viewport(body: Rect) -> usize {
    vtable::viewport(searches_area(body))
}

/// Where the parts of the search view go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchAreas {
    /// Run status, sources and the diagnostics funnel.
    pub run: Rect,
    /// The filter chips and the selection.
    pub chips: Rect,
    /// The results table.
    pub table: Rect,
}

impl SearchAreas {
    /// Result rows on screen.
    pub fn viewport(&self) -> usize {
        vtable::viewport(self.table)
    }
}

/// Diagnostics rows shown at most for a body height.
pub fn diagnostics_cap(body: Rect) -> usize {
    match body.height {
        0..=17 => 1,
        18..=29 => 3,
        30..=39 => 6,
        _ => 12,
    }
}

/// Short screens show the run as two lines: status, and the funnel summed
/// over the queries.
pub fn compact_run(body: Rect) -> bool {
    body.height < 18
}

/// Lines inside the run panel.
fn run_lines(body: Rect, leads: &LeadsModel) -> u16 {
    let Some(o) = &leads.open else {
        return 1;
    };
    let Some(run) = &o.latest_run else {
        return 1;
    };
    let diag: usize = run
        .source_status
        .iter()
        .map(|s| s.query_diagnostics.len())
        .sum();
    if compact_run(body) {
        return 1 + u16::from(diag > 0);
    }
    let mut lines = 1;
    if !run.source_status.is_empty() {
        lines += 1;
    }
    if diag > 0 {
        lines += 1 + diag.min(diagnostics_cap(body));
    }
    if !run.errors.is_empty() {
        lines += 1;
    }
    lines as u16
}

/// The areas of the search view.
pub fn search_areas(body: Rect, leads: &LeadsModel) -> SearchAreas {
    let run_h = (run_lines(body, leads) + 2).min(body.height / 2);
    let chips_h = 1.min(body.height.saturating_sub(run_h));
    SearchAreas {
        run: Rect {
            height: run_h,
            ..body
        },
        chips: Rect {
            y: body.y + run_h,
            height: chips_h,
            ..body
        },
        table: Rect {
            y: body.y + run_h + chips_h,
            height: body.height.saturating_sub(run_h + chips_h),
            ..body
        },
    }
}

/// Result rows on screen.
pub fn results_viewport(body: Rect, leads: &LeadsModel) -> usize {
    search_areas(body, leads).viewport()
}

/// Where the parts of the result detail go: the lead, and the enrichment
/// panel.
pub fn detail_areas(body: Rect) -> (Rect, Rect) {
    if body.width >= WIDE {
        split_left(body, body.width * 9 / 20)
    } else {
        split_top(body, 11.min(body.height / 2))
    }
}

/// Rows of the enrichment panel's list on screen.
pub fn detail_viewport(body: Rect) -> usize {
    vtable::viewport(detail_areas(body).1)
}

/// Where the Lead part goes: the panel beside the summary on a wide
/// screen; below [`WIDE`] the whole body (the summary would only repeat
/// the lead's first lines).
pub fn lead_panel(body: Rect) -> Rect {
    if body.width >= WIDE {
        detail_areas(body).1
    } else {
        body
    }
}

/// Where the Lead part's text goes (inside its border).
pub fn lead_text_area(body: Rect) -> Rect {
    let panel = lead_panel(body);
    Rect {
        x: panel.x.saturating_add(1),
        y: panel.y.saturating_add(1),
        width: panel.width.saturating_sub(2),
        height: panel.height.saturating_sub(2),
    }
}

/// Cuts `text` into lines of at most `width` columns, breaking at spaces
/// (a word longer than a line, such as a URL, is cut where it falls), each
/// line of the text on its own.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let cw = |c: char| Span::raw(c.to_string()).width();
    let mut out = Vec::new();
    for para in text.split('\n') {
        let mut line = String::new();
        let mut w = 0usize;
        for word in para.split(' ') {
            let ww: usize = word.chars().map(cw).sum();
            let gap = usize::from(!line.is_empty());
            if w + gap + ww <= width {
                if gap == 1 {
                    line.push(' ');
                }
                line.push_str(word);
                w += gap + ww;
                continue;
            }
            if ww <= width {
                // It fits a line of its own.
                out.push(std::mem::take(&mut line));
                w = 0;
            } else if gap == 1 && w + 1 < width {
                // Longer than any line (a URL): cut, starting right here.
                line.push(' ');
                w += 1;
            } else if !line.is_empty() {
                out.push(std::mem::take(&mut line));
                w = 0;
            }
            for c in word.chars() {
                let x = cw(c);
                if w + x > width && !line.is_empty() {
                    out.push(std::mem::take(&mut line));
                    w = 0;
                }
                line.push(c);
                w += x;
            }
        }
        out.push(line);
    }
    out
}

/// The whole lead of a result, wrapped to `width`: who (the canonical
/// lead), why (search and signal reasons), the post with all of its
/// content, and the links. The Lead part of the detail scrolls over these
/// lines; `update` counts them to bound the scroll.
pub fn lead_lines(r: &LeadResult, clock: i64, width: u16, theme: &Theme) -> Vec<Line<'static>> {
    let t = |s: &str| DisplayText::inline(s).into_string();
    let or_dash = |s: &str| {
        if s.trim().is_empty() {
            "—".to_owned()
        } else {
            t(s)
        }
    };
    let c = r.canonical_lead.clone().unwrap_or_default();
    let company = if c.company.trim().is_empty() {
        &r.entity_company
    } else {
        &c.company
    };
    let mut head = t(&crate::app::leads::result_name(r));
    if !c.title.is_empty() {
        head.push_str(&format!(" · {}", t(&c.title)));
    }
    if !company.is_empty() {
        head.push_str(&format!(" @ {}", t(company)));
    }
    if !c.company_domain.is_empty() {
        head.push_str(&format!(" ({})", t(&c.company_domain)));
    }
    let score = format!(
        "score {:.2} {} · {} · found {}",
        r.score,
        t(&r.quality_tier),
        or_dash(&r.status),
        super::format::ago(&r.created_at, clock)
    );
    // (label, text, style); an empty entry is a blank line.
    let mut parts: Vec<(&str, String, ratatui::style::Style)> = vec![
        ("", head, theme.title),
        ("", score, theme.dim),
        ("", String::new(), theme.text),
        ("email", or_dash(&c.email), theme.text),
        ("network", or_dash(&c.network_url), theme.text),
        ("company", or_dash(company), theme.text),
        ("query", or_dash(&r.query), theme.text),
        ("occurred", super::format::date(&r.occurred_at), theme.text),
        ("", String::new(), theme.text),
        ("search reason", or_dash(&r.search_reason), theme.text),
        ("signal reason", or_dash(&r.signal_reason), theme.text),
        ("", String::new(), theme.text),
        ("post", or_dash(&r.title), theme.text),
    ];
    if !r.content.trim().is_empty() {
        parts.push(("content", String::new(), theme.text));
        for l in DisplayText::block(&r.content).as_str().lines() {
            parts.push(("", l.to_owned(), theme.text));
        }
    }
    parts.push(("", String::new(), theme.text));
    parts.push(("link", or_dash(&r.search_url), theme.text));
    let mut out = Vec::new();
    for (label, text, style) in parts {
        if label.is_empty() {
            out.extend(
                wrap(&text, width.into())
                    .into_iter()
                    .map(|l| Line::from(Span::styled(l, style))),
            );
            continue;
        }
        let prefix = format!("{label}: ");
        for (i, l) in wrap(&format!("{prefix}{text}"), width.into())
            .into_iter()
            .enumerate()
        {
            match l.strip_prefix(&prefix) {
                Some(rest) if i == 0 => out.push(Line::from(vec![
                    Span::styled(prefix.clone(), theme.header),
                    Span::styled(rest.to_owned(), style),
                ])),
                _ => out.push(Line::from(Span::styled(l, style))),
            }
        }
    }
    out
}

/// The chip labels as drawn (`[label ×]`), with their columns.
pub fn chip_spans(leads: &LeadsModel, area: Rect) -> Vec<(usize, u16, u16, String)> {
    let Some(o) = &leads.open else {
        return Vec::new();
    };
    let mut x = area.x + " Filter: ".chars().count() as u16;
    search::chips(o, leads.open_descriptors())
        .into_iter()
        .enumerate()
        .map(|(i, label)| {
            let text = format!("[{label} ×]");
            // Labels can come from the service: any length, so saturating.
            let w = u16::try_from(text.chars().count()).unwrap_or(u16::MAX);
            let span = (i, x, x.saturating_add(w), text);
            x = x.saturating_add(w).saturating_add(1);
            span
        })
        .collect()
}

/// The chip under a click, if any.
pub fn chip_at(leads: &LeadsModel, area: Rect, x: u16, y: u16) -> Option<usize> {
    if y != area.y || area.height == 0 {
        return None;
    }
    chip_spans(leads, area)
        .into_iter()
        .find(|(_, a, b, _)| (*a..*b).contains(&x) && *b <= area.x + area.width)
        .map(|(i, ..)| i)
}

/// Status-bar hints of the current view.
pub fn hints(m: &Model) -> Vec<(Action, &'static str)> {
    let l = &m.leads;
    if l.dialog.is_some() || l.view == View::NewSearch {
        // Dialogs and the form show their own keys.
        return Vec::new();
    }
    match l.view {
        View::Searches => vec![
            (Action::Open, "open"),
            (Action::NewSearch, "new"),
            (Action::RunSearch, "run"),
            (Action::RunAll, "run all"),
            (Action::Refresh, "refresh"),
        ],
        View::Search => {
            let resumable = l
                .open
                .as_ref()
                .and_then(|o| o.latest_run.as_ref())
                .is_some_and(|r| crate::app::leads::searches::resumable(Some(&r.status)));
            vec![
                (Action::Filter, "filter"),
                (Action::ToggleMark, "select"),
                (Action::AddToCampaign, "add to campaign"),
                (Action::Open, "detail"),
                (Action::Export, "export"),
                (
                    Action::RunSearch,
                    if resumable { "resume run" } else { "run" },
                ),
                (Action::MarkMatching, "all matching"),
                (Action::Back, "back"),
            ]
        }
        View::Detail => vec![
            (Action::NextSection, "next part"),
            if l.detail.as_ref().is_some_and(|d| d.tab == Tab::Lead) {
                (Action::Down, "scroll")
            } else {
                (Action::Open, "fold")
            },
            (Action::ToggleMark, "select"),
            (Action::AddToCampaign, "add to campaign"),
            (Action::Back, "back"),
        ],
        View::NewSearch => Vec::new(),
    }
}

/// Draws the pane.
pub fn render(m: &Model, f: &mut Frame, body: Rect, theme: &Theme) {
    let l = &m.leads;
    match l.view {
        View::Searches => views::searches(m, f, body, theme),
        View::Search => views::search(m, f, body, theme),
        View::Detail => views::detail(m, f, body, theme),
        View::NewSearch => match &l.form {
            Some(form) => {
                let mut shown = form.form.clone();
                if form.pending.is_some() {
                    shown.submit_label = "Creating…".into();
                }
                super::widgets::form::render(f, body, &shown, theme);
            }
            None => views::searches(m, f, body, theme),
        },
    }
    match &l.dialog {
        Some(Dialog::Filter(b)) => dialogs::filter(f, body, b, theme),
        Some(Dialog::Campaign(c)) => dialogs::campaign(f, body, c, theme),
        Some(Dialog::Export(e)) => dialogs::export(f, body, e, theme),
        Some(Dialog::Report(r)) => dialogs::report(f, body, r, theme),
        None => {}
    }
}

#[cfg(test)]
mod tests {
    use super::wrap;

    #[test]
    fn wrap_breaks_at_spaces_and_cuts_what_cannot_fit() {
        assert_eq!(wrap("one two three", 7), ["one two", "three"]);
        assert_eq!(wrap("link: abcdefghij", 8), ["link: ab", "cdefghij"]);
        assert_eq!(wrap("a\n\nb", 5), ["a", "", "b"]);
        assert_eq!(wrap("", 5), [""]);
        assert_eq!(wrap("López Ω", 5), ["López", "Ω"]);
        assert!(wrap("x y z", 0).iter().all(|l| l.chars().count() <= 1));
    }
}
