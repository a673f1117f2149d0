//! The Inbox pane: the thread list, an open thread, the draft editor.

mod editor;
mod list;
mod thread;

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Span;

use super::theme::Theme;
use crate::api::model::ThreadStatus;
use crate::app::Model;
use crate::app::inbox::send::Stage;
use crate::app::inbox::{InboxModel, View};
use crate::logic::write::Verdict;
use crate::text::sanitize::DisplayText;

impl super::PaneView for InboxModel {
    fn view(m: &Model, f: &mut Frame, body: Rect, theme: &Theme) {
        match m.panes.inbox.view {
            View::List => list::render(m, f, body, theme),
            View::Thread => thread::render(m, f, body, theme),
            View::Editor => editor::render(m, f, body, theme),
        }
    }
}

/// A thread's status as shown: the send in progress wins over the status;
/// an active thread whose newest message is inbound awaits a reply.
fn status_span(m: &Model, id: &str, status: &ThreadStatus, theme: &Theme) -> Span<'static> {
    let check = m.panes.inbox.checks.get(id);
    let what = if check.is_some_and(|c| c.reply) {
        "reply"
    } else {
        "draft"
    };
    match check.map(|c| c.stage()) {
        Some(Stage::Sending) => Span::styled("sending…", theme.info),
        Some(Stage::Checking) => Span::styled("checking send…", theme.warn),
        Some(Stage::Settled(Verdict::NotFound)) => {
            Span::styled(format!("{what} · not sent?"), theme.err)
        }
        // The check could not tell: it may have gone.
        Some(Stage::Settled(_)) => Span::styled(format!("{what} · sent?"), theme.err),
        None if *status == ThreadStatus::Active && m.panes.inbox.lasts.awaiting(id) => {
            Span::styled("awaiting reply", theme.key)
        }
        None => {
            let style = match status {
                ThreadStatus::Draft => theme.warn,
                ThreadStatus::Active => theme.ok,
                _ => theme.dim,
            };
            Span::styled(DisplayText::inline(status.as_str()).into_string(), style)
        }
    }
}
