//! The Campaigns pane's views: the list, a campaign's detail (overview with
//! the stats chart, roster, messages), the create form, the sequence editor
//! and the dialogs. Its geometry lives in `app::campaigns::layout`, shared
//! with `update`.

mod detail;
mod dialogs;
mod editor;
mod list;
mod preflight;

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};

use ratatui::widgets::{Clear, Paragraph};

use super::theme::Theme;
use super::widgets::{filter_line, placeholder};
use crate::api::model::LeadStatus;
use crate::app::campaigns::fixed_keys::FixedKey;
use crate::app::campaigns::{CampaignsModel, Dialog, Purpose, View, in_flight, layout};
use crate::app::keymap::Action;
use crate::app::live_filter::LiveFilter;
use crate::app::toast::Level;
use crate::app::{Model, Placeholder};
use crate::text::sanitize::DisplayText;

impl super::PaneView for CampaignsModel {
    fn view(m: &Model, f: &mut Frame, body: Rect, theme: &Theme) {
        render(m, f, body, theme);
    }
}

/// Draws the pane.
fn render(m: &Model, f: &mut Frame, body: Rect, theme: &Theme) {
    let c = &m.panes.campaigns;
    match c.view {
        View::List => list::render(m, f, body, theme),
        View::Detail => detail::render(m, f, body, theme),
        View::Create => match &c.create {
            Some(form) => {
                let mut shown = form.form.clone();
                if in_flight(m, |p| *p == Purpose::Create) {
                    shown.submit_label = "Creating…".into();
                }
                super::widgets::form::render(f, body, &shown, theme);
            }
            None => list::render(m, f, body, theme),
        },
        View::Sequence => match &c.sequence {
            Some(e) => editor::render(m, f, body, e, theme),
            None => detail::render(m, f, body, theme),
        },
    }
    match &c.dialog {
        Some(Dialog::Import(d)) => dialogs::import(m, f, layout::dialog(body, 100), d, theme),
        Some(Dialog::Lead(d)) => dialogs::lead(m, f, layout::dialog(body, 80), d, theme),
        Some(Dialog::EditLead(d)) => dialogs::form(f, body, &d.form, theme),
        Some(Dialog::Thread(d)) => dialogs::thread(m, f, layout::dialog(body, 100), d, theme),
        Some(Dialog::EditMessage(d)) => dialogs::form(f, body, &d.form, theme),
        Some(Dialog::Preflight(d)) => preflight::render(m, f, body, d, theme),
        None => {}
    }
}

/// The style of a lead status.
pub(crate) fn lead_status(theme: &Theme, s: &LeadStatus) -> Style {
    match s {
        LeadStatus::Pending => theme.info,
        LeadStatus::Replied => theme.ok,
        LeadStatus::Bounced => theme.err,
        LeadStatus::TimedOut => theme.warn,
        LeadStatus::Completed | LeadStatus::Cancelled | LeadStatus::Other(_) => theme.dim,
        _ => theme.text,
    }
}

/// `key label` pairs for a dialog's bottom border, keys from the keymap.
pub(crate) fn keys_line<'a>(m: &Model, pairs: &[(Action, &'a str)], theme: &Theme) -> Line<'a> {
    let mut spans = Vec::new();
    for (a, label) in pairs {
        spans.push(Span::styled(
            format!(" {} ", m.keymap.key_label(*a)),
            theme.key,
        ));
        spans.push(Span::styled(format!("{label} "), theme.dim));
    }
    Line::from(spans)
}

/// `key label` pairs for a bottom border: keys a text box or the editor
/// handles itself (named by their one definition, [`FixedKey`]) or keys
/// of the keymap (already labelled).
pub(crate) fn fixed_keys<'a>(pairs: &[(String, &'a str)], theme: &Theme) -> Line<'a> {
    let mut spans = Vec::new();
    for (k, label) in pairs {
        spans.push(Span::styled(format!(" {k} "), theme.key));
        spans.push(Span::styled(format!("{label} "), theme.dim));
    }
    Line::from(spans)
}

/// A fixed key's label, for [`fixed_keys`].
pub(crate) fn fixed(k: FixedKey) -> String {
    k.label.to_owned()
}

/// The text filter of a list as it applies, for its bottom border (with
/// the key that clears it). Nothing while it is typed: [`filter_input`]
/// draws the shared input line over the border then.
pub(crate) fn needle_chip(m: &Model, n: &LiveFilter, theme: &Theme) -> Vec<Span<'static>> {
    if n.typing() || !n.active() {
        return Vec::new();
    }
    let text = DisplayText::inline(&n.text).into_string();
    vec![Span::styled(
        format!(" / {text} · {} clears ", m.keymap.key_label(Action::Back)),
        theme.info,
    )]
}

/// A table's bottom border while its filter is typed: `rest` (what else
/// the border says) at its right end, the shared `/` input line
/// ([`filter_line`]) in the room left of it.
pub(crate) fn filter_input(
    f: &mut Frame,
    area: Rect,
    n: &LiveFilter,
    rest: &Line,
    placeholder: &str,
    theme: &Theme,
) {
    let Some(input) = &n.input else {
        return;
    };
    if area.height < 2 || area.width < 3 {
        return;
    }
    let inner = area.width - 2;
    // A column of border is left before what follows (or the corner).
    let rest_w = u16::try_from(rest.width()).map_or(u16::MAX, |w| w.saturating_add(1));
    // The input keeps at least half the border; the rest is cut first.
    let rest_w = rest_w.min(inner / 2);
    let line = Rect {
        x: area.x + 1,
        y: area.bottom() - 1,
        width: inner - rest_w,
        height: 1,
    };
    f.render_widget(Clear, line);
    filter_line::render(f, line, input, placeholder, theme);
}

/// A bottom border's line: as given, or while the filter is typed, moved to
/// the right end (the input line takes the left).
pub(crate) fn footer_line(spans: Vec<Span<'static>>, n: &LiveFilter) -> Line<'static> {
    let line = Line::from(spans);
    if n.typing() {
        line.right_aligned()
    } else {
        line
    }
}

/// What a table with no rows says, drawn wrapped under its header (the
/// table's own line would cut it), coloured by how loud it is.
pub(crate) fn empty_rows(f: &mut Frame, area: Rect, p: &Placeholder, theme: &Theme) {
    let inner = Rect {
        x: area.x.saturating_add(1),
        y: area.y.saturating_add(2),
        width: area.width.saturating_sub(2),
        height: area.height.saturating_sub(3),
    };
    if inner.width == 0 || inner.height == 0 {
        return;
    }
    f.render_widget(Clear, inner);
    f.render_widget(
        Paragraph::new(placeholder::lines(p, inner.width, theme)),
        inner,
    );
}

/// A placeholder of the pane's own words (not about loading).
pub(crate) fn said(text: String) -> Placeholder {
    Placeholder {
        text,
        level: Level::Info,
    }
}
