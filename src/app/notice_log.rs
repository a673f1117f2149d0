//! The `:messages` overlay's content as data: every recent notice and error
//! whole (a toast may have had to cut one), newest first, wrapped to the
//! overlay's width. `ui` styles it; `update` bounds its scroll from the row
//! count alone.

use super::Model;
use super::toast::Level;
use crate::geometry::overlay_rect;
use crate::text::{format, wrap};

/// One row of the message list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Row {
    /// A message's first row: its level, title and age.
    Head {
        /// Its level, which picks its colour and mark.
        level: Level,
        /// Title, with its repeat count.
        title: String,
        /// How long ago it was last said (`12s ago`).
        age: String,
    },
    /// A row of a message's text.
    Text(String),
    /// Between messages.
    Blank,
    /// When there is nothing to list.
    Empty,
}

/// Columns of text inside the overlay (its border and a two-column indent
/// taken off).
fn text_width(m: &Model) -> usize {
    usize::from(overlay_rect(m.layout().body).width.saturating_sub(4)).max(10)
}

/// The rows, newest message first.
pub(crate) fn rows(m: &Model) -> Vec<Row> {
    let width = text_width(m);
    let mut out = Vec::new();
    for l in m.toasts.log().rev() {
        if !out.is_empty() {
            out.push(Row::Blank);
        }
        let title = if l.count > 1 {
            format!("{} ×{}", l.title, l.count)
        } else {
            l.title.to_string()
        };
        out.push(Row::Head {
            level: l.level,
            title,
            age: format!(
                "{} ago",
                format::duration(m.now.saturating_duration_since(l.at))
            ),
        });
        out.extend(
            wrap::wrap(l.text.as_str(), width)
                .into_iter()
                .map(Row::Text),
        );
    }
    if out.is_empty() {
        out.push(Row::Empty);
    }
    out
}

/// The furthest the list can scroll: its last row at the bottom of the
/// overlay.
pub(crate) fn scroll_max(m: &Model) -> u16 {
    let n = u16::try_from(rows(m).len()).unwrap_or(u16::MAX);
    n.saturating_sub(m.layout().body.height.saturating_sub(2))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::fixtures::{self, drive};
    use crate::app::{Overlay, update};
    use crossterm::event::KeyCode;

    #[test]
    fn messages_lists_every_notice_whole_newest_first() {
        let mut m = fixtures::model(60, 15);
        let now = m.now;
        let long = "word ".repeat(200);
        m.toasts.push(now, Level::Error, "first", long.trim());
        m.toasts.push(now, Level::Info, "second", "short");
        m.toasts.push(now, Level::Info, "second", "short");
        drive::key(&mut m, KeyCode::Char(':'));
        drive::chars(&mut m, "messages");
        drive::key(&mut m, KeyCode::Enter);
        assert!(matches!(m.overlay, Some(Overlay::Messages { scroll: 0 })));
        let rows = rows(&m);
        assert!(
            matches!(&rows[0], Row::Head { title, .. } if title == "second ×2"),
            "{rows:?}"
        );
        let text: String = rows
            .iter()
            .filter_map(|r| match r {
                Row::Text(t) => Some(format!("{t} ")),
                _ => None,
            })
            .collect();
        assert_eq!(
            text.split_whitespace().filter(|w| *w == "word").count(),
            200,
            "the long one whole"
        );
        // It scrolls to its end and no further.
        for _ in 0..100 {
            drive::key(&mut m, KeyCode::Char('j'));
        }
        let max = scroll_max(&m);
        assert!(max > 0);
        assert!(matches!(m.overlay, Some(Overlay::Messages { scroll }) if scroll == max));
        update(
            &mut m,
            crate::app::Msg::Key(crossterm::event::KeyEvent::from(KeyCode::Esc)),
        );
        assert!(m.overlay.is_none());
    }
}
