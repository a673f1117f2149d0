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
    // One help row is one screen row: the note is wrapped to fit 80
    // columns inside the overlay's border.
    let note = format!(
        "Keys are set in config.toml under {} (assets/keymap.toml has them all).",
        scopes.join(", ")
    );
    out.extend(
        crate::text::wrap::wrap(&note, 76)
            .into_iter()
            .map(Row::Note),
    );
    out
}

/// The furthest the help can scroll: its last row at the bottom of the
/// overlay (which is as tall as the pane body, inside its border).
pub fn scroll_max(m: &Model) -> u16 {
    let n = u16::try_from(rows(m).len()).unwrap_or(u16::MAX);
    n.saturating_sub(m.layout().body.height.saturating_sub(2))
}
