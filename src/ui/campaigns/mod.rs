//! The Campaigns pane's views: the list, a campaign's detail (overview with
//! the stats chart, roster, messages), the create form, the sequence editor
//! and the dialogs. Its geometry lives in `app::campaigns::layout`, shared
//! with `update`.

mod detail;
mod dialogs;
mod editor;
mod list;

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};

use super::theme::Theme;
use crate::api::model::LeadStatus;
use crate::app::Model;
use crate::app::campaigns::{CampaignsModel, Dialog, Purpose, View, in_flight, layout};
use crate::app::keymap::Action;

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
        None => {}
    }
}

/// The style of a lead status.
pub fn lead_status(theme: &Theme, s: &LeadStatus) -> Style {
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
pub fn keys_line<'a>(m: &Model, pairs: &[(Action, &'a str)], theme: &Theme) -> Line<'a> {
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

/// Fixed keys (inside a text box the keymap does not apply) for a bottom
/// border.
pub fn fixed_keys<'a>(pairs: &[(&'a str, &'a str)], theme: &Theme) -> Line<'a> {
    let mut spans = Vec::new();
    for (k, label) in pairs {
        spans.push(Span::styled(format!(" {k} "), theme.key));
        spans.push(Span::styled(format!("{label} "), theme.dim));
    }
    Line::from(spans)
}
