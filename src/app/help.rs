//! The help overlay's content as data, generated from the keymap and the
//! registered panes and commands, so it always matches them. `ui` styles
//! it; `update` bounds its scroll from the row count alone.

use super::{Model, Pane, command_line};
use crate::app::keymap::{Action, Scope};

/// One row of help.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Row {
    /// A section title.
    Title(String),
    /// Keys (or a command) and what they do.
    Entry {
        /// The keys, as the keymap binds them (or `:command`).
        keys: String,
        /// What they do (or the command's argument hint).
        help: String,
        /// Drawn as a command (argument hint dimmed).
        command: bool,
    },
    /// A dimmed note.
    Note(String),
    /// An empty line.
    Blank,
}

/// The rows of the help for the pane shown: its keys, the shared keys,
/// the commands, then notes.
pub fn rows(m: &Model) -> Vec<Row> {
    let mut out = Vec::new();
    let read_only = m.session.read_only;
    let mut section = |title: String, rows: Vec<(Action, String)>| {
        if rows.is_empty() {
            return;
        }
        out.push(Row::Title(title));
        out.extend(rows.into_iter().map(|(action, keys)| Row::Entry {
            keys,
            help: if read_only && action.writes() {
                format!("{} — disabled: read-only mode", action.help())
            } else {
                action.help().to_owned()
            },
            command: false,
        }));
        out.push(Row::Blank);
    };
    let scope = m.pane.scope();
    if scope != Scope::Global {
        section(
            format!("{} keys", m.pane.title()),
            m.keymap.help_actions(scope),
        );
    }
    section("Everywhere".into(), m.keymap.help_actions(Scope::Global));
    out.push(Row::Title("Commands (:)".into()));
    for (cmd, arg, _) in command_line::all() {
        let name = cmd.trim_end();
        let help = if read_only && super::read_only::command_writes(name) {
            format!("{arg} — disabled: read-only mode")
                .trim_start()
                .to_owned()
        } else {
            arg.to_owned()
        };
        out.push(Row::Entry {
            keys: format!(":{name}"),
            help,
            command: true,
        });
    }
    out.push(Row::Blank);
    out.push(Row::Note(
        "Mouse: click a tab or a row (click again to open); the wheel scrolls.".into(),
    ));
    let scopes: Vec<String> = std::iter::once(Scope::Global)
        .chain(Pane::ALL.iter().map(|p| p.scope()))
        .map(|s| format!("[keys.{}]", s.name()))
        .collect();
    out.push(Row::Note(format!(
        "Keys are set in config.toml under {} (assets/keymap.toml has them all).",
        scopes.join(", ")
    )));
    out
}

/// Columns before an entry's help: two of margin and the keys padded to 18
/// (as `ui` draws them).
const KEYS_COLUMNS: usize = 20;

/// The help's rows wrapped to `width` columns, one row per screen line, so
/// a narrow terminal reads every word (a cut line loses the end of what a
/// key does) and the scroll bound counts what is drawn. A wrapped entry
/// goes on under its help, with no keys.
pub(crate) fn lines(m: &Model, width: u16) -> Vec<Row> {
    use crate::text::wrap::{width as text_width, wrap};
    let width = usize::from(width).max(1);
    let mut out = Vec::new();
    for row in rows(m) {
        match row {
            Row::Title(t) => out.extend(wrap(&t, width).into_iter().map(Row::Title)),
            Row::Note(n) => out.extend(wrap(&n, width).into_iter().map(Row::Note)),
            Row::Blank => out.push(Row::Blank),
            Row::Entry {
                keys,
                help,
                command,
            } => {
                // Where the help starts on the entry's first line, and on
                // the lines it wraps onto.
                let (first, rest) = if command {
                    (2 + text_width(&keys) + 1, 4)
                } else {
                    (KEYS_COLUMNS.max(2 + text_width(&keys)), KEYS_COLUMNS)
                };
                let room = width.saturating_sub(first).max(1);
                let mut parts = wrap(&help, room).into_iter();
                out.push(Row::Entry {
                    keys,
                    help: parts.next().unwrap_or_default(),
                    command,
                });
                let rest_room = width.saturating_sub(rest).max(1);
                let tail = parts.collect::<Vec<_>>().join(" ");
                for part in wrap(&tail, rest_room).into_iter().filter(|p| !p.is_empty()) {
                    out.push(Row::Entry {
                        keys: if command { " ".into() } else { String::new() },
                        help: part,
                        command,
                    });
                }
            }
        }
    }
    out
}

/// The width inside the help overlay's border.
pub(crate) fn inner_width(m: &Model) -> u16 {
    crate::geometry::overlay_rect(m.layout().body)
        .width
        .saturating_sub(2)
}

/// The furthest the help can scroll: its last row at the bottom of the
/// overlay (which is as tall as the pane body, inside its border).
pub fn scroll_max(m: &Model) -> u16 {
    let n = u16::try_from(lines(m, inner_width(m)).len()).unwrap_or(u16::MAX);
    n.saturating_sub(m.layout().body.height.saturating_sub(2))
}
