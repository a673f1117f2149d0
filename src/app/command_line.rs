//! The `:` command line: parsing, completion and history.

use ratatui_textarea::TextArea;

use super::Pane;
use super::fixed_keys::{self, CLOSE, CONFIRM, FixedKey, LIST_DOWN, LIST_UP, NEXT};
use crate::logic::resolve::Item;

/// What a fixed key does in the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LineKey {
    /// Runs the line.
    Run,
    /// Closes it (the text is dropped).
    Close,
    /// An older line of the history.
    Older,
    /// A newer line of the history.
    Newer,
    /// Completes the command's name.
    Complete,
}

/// The command line's keys with the footer's words for them: its handler
/// and its footer both read this table.
pub(crate) const KEYS: [(FixedKey, LineKey, &str); 5] = [
    (CONFIRM, LineKey::Run, "runs"),
    (CLOSE, LineKey::Close, "closes"),
    (LIST_UP, LineKey::Older, "history"),
    (LIST_DOWN, LineKey::Newer, "history"),
    (NEXT, LineKey::Complete, "completes"),
];

/// What `key` does in the command line, if it is one of [`KEYS`].
pub(crate) fn line_key(key: &crossterm::event::KeyEvent) -> Option<LineKey> {
    KEYS.iter()
        .find(|(k, ..)| k.matches(key))
        .map(|(_, what, _)| *what)
}

/// The key that does `what`.
pub(crate) fn key_for(what: LineKey) -> FixedKey {
    KEYS.iter()
        .find(|(_, w, _)| *w == what)
        .map_or(CONFIRM, |(k, ..)| *k)
}

/// The footer under an empty command line (`Enter runs · Esc closes · ↑/↓
/// history`); completion is named beside its candidates instead.
pub(crate) fn footer() -> String {
    let keys: Vec<(FixedKey, &str)> = KEYS
        .iter()
        .filter(|(_, what, _)| *what != LineKey::Complete)
        .map(|(k, _, does)| (*k, *does))
        .collect();
    fixed_keys::footer(&keys)
}

/// How a command takes its argument (the rest of the line).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arg {
    /// None: anything after the name is a mistake.
    None,
    /// Required, shown as this hint (`<id>`).
    Required(&'static str),
    /// Optional, shown as this hint (`[path.csv]`).
    Optional(&'static str),
}

impl Arg {
    /// The hint shown after the name.
    pub fn hint(self) -> &'static str {
        match self {
            Arg::None => "",
            Arg::Required(h) | Arg::Optional(h) => h,
        }
    }
}

/// One `:` command: its words, its argument, one line of help.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CommandSpec {
    /// The words that name it (`open search`).
    pub name: &'static str,
    /// Whether it would change something on the service (refused in
    /// read-only mode).
    pub writes: bool,
    /// Its argument.
    pub arg: Arg,
    /// What it does.
    pub help: &'static str,
}

impl CommandSpec {
    fn usage(&self) -> String {
        format!("{} {}", self.name, self.arg.hint())
            .trim_end()
            .to_owned()
    }
}

/// A parsed command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Command {
    /// `:pane <name>`.
    Pane(Pane),
    /// `:refresh`.
    Refresh,
    /// `:help`.
    Help,
    /// `:messages`: the recent notices, whole.
    Messages,
    /// `:journal`: the write journal of this profile, newest first.
    Journal,
    /// `:profile [name]`: open another workspace profile (none: the
    /// default one).
    Profile(Option<String>),
    /// `:quit` / `:q`.
    Quit,
    /// `:quit!` / `:q!`: quit at once.
    ForceQuit,
    /// A pane's own command (the pane is shown first).
    Of {
        /// The pane that runs it.
        pane: Pane,
        /// Its name, as in the pane's [`CommandSpec`].
        name: &'static str,
        /// The rest of the line, trimmed; `None` when empty.
        arg: Option<String>,
    },
}

/// Commands every pane shares (`pane <name>` is listed apart: its argument
/// is completed from the panes).
pub(crate) const GLOBAL: &[CommandSpec] = &[
    CommandSpec {
        name: "refresh",
        writes: false,
        arg: Arg::None,
        help: "refresh what is shown",
    },
    CommandSpec {
        name: "help",
        writes: false,
        arg: Arg::None,
        help: "help for this pane",
    },
    CommandSpec {
        name: "profile",
        writes: false,
        arg: Arg::Optional("[name]"),
        help: "open another workspace profile (none: the default one)",
    },
    CommandSpec {
        name: "messages",
        writes: false,
        arg: Arg::None,
        help: "the recent notices and errors, whole",
    },
    CommandSpec {
        name: "journal",
        writes: false,
        arg: Arg::None,
        help: "every write sent from this profile, newest first (/ filters, Enter opens)",
    },
    CommandSpec {
        name: "quit",
        writes: false,
        arg: Arg::None,
        help: "quit (asks first if something unsent would be lost)",
    },
    CommandSpec {
        name: "quit!",
        writes: false,
        arg: Arg::None,
        help: "quit at once",
    },
];

/// Every command with its argument hint, for completion and help: the
/// panes' own, `pane <name>` for each pane, then the shared ones.
pub(crate) fn all() -> Vec<(String, &'static str, &'static str)> {
    let mut out: Vec<(String, &'static str, &'static str)> = Vec::new();
    for pane in Pane::ALL {
        for c in pane.commands() {
            out.push((c.name.to_owned(), c.arg.hint(), c.help));
        }
    }
    for pane in Pane::ALL {
        out.push((format!("pane {}", pane.spec().key), "", "show the pane"));
    }
    for c in GLOBAL {
        out.push((c.name.to_owned(), c.arg.hint(), c.help));
    }
    out
}

/// The pane `:pane NAME` names (its key, an alias or its number).
fn pane_named(name: &str) -> Option<Pane> {
    Pane::ALL.iter().copied().find(|p| {
        let s = p.spec();
        s.key == name || s.aliases.contains(&name) || s.number.to_string() == name
    })
}

/// Parses a command line (without the leading `:`).
pub(crate) fn parse(line: &str) -> Result<Command, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.as_slice() {
        [] => return Err("type a command; Tab completes".into()),
        ["refresh" | "r"] => return Ok(Command::Refresh),
        ["help" | "h"] => return Ok(Command::Help),
        ["messages" | "msg"] => return Ok(Command::Messages),
        ["journal"] => return Ok(Command::Journal),
        ["profile"] => return Ok(Command::Profile(None)),
        ["profile", name] => return Ok(Command::Profile(Some((*name).to_owned()))),
        ["profile", ..] => return Err("usage: profile [name]".into()),
        ["quit" | "q"] => return Ok(Command::Quit),
        ["quit!" | "q!"] => return Ok(Command::ForceQuit),
        ["pane", name] => {
            return pane_named(name).map(Command::Pane).ok_or_else(|| {
                let names: Vec<String> = Pane::ALL
                    .iter()
                    .map(|p| format!("pane {}", p.spec().key))
                    .collect();
                format!("no pane `{name}`; try: {}", names.join(", "))
            });
        }
        _ => {}
    }
    // The longest pane command whose words start the line.
    let mut best: Option<(Pane, &'static CommandSpec, usize)> = None;
    for pane in Pane::ALL {
        for spec in pane.commands() {
            let n = spec.name.split_whitespace().count();
            let matches = words.len() >= n
                && spec
                    .name
                    .split_whitespace()
                    .zip(&words)
                    .all(|(a, b)| a == *b);
            if matches && best.is_none_or(|(_, _, m)| n > m) {
                best = Some((*pane, spec, n));
            }
        }
    }
    if let Some((pane, spec, n)) = best {
        let arg = words[n..].join(" ");
        let arg = (!arg.is_empty()).then_some(arg);
        return match (spec.arg, &arg) {
            (Arg::Required(_), None) | (Arg::None, Some(_)) => {
                Err(format!("usage: {}", spec.usage()))
            }
            _ => Ok(Command::Of {
                pane,
                name: spec.name,
                arg,
            }),
        };
    }
    let first = words[0];
    let near: Vec<String> = Pane::ALL
        .iter()
        .flat_map(|p| p.commands())
        .filter(|c| c.name.split_whitespace().next() == Some(first))
        .map(CommandSpec::usage)
        .collect();
    if near.is_empty() {
        Err(format!("unknown command `{first}`; Tab lists the commands"))
    } else {
        Err(format!("try: {}", near.join(", ")))
    }
}

/// Commands that extend what was typed.
///
/// Completion inserts the name alone, never a trailing space the line
/// would not show: the argument's usage is said below the line instead
/// ([`usage_hint`]), and the user types the space.
pub(crate) fn complete(line: &str) -> Vec<String> {
    let typed = line.trim_start();
    all()
        .into_iter()
        .map(|(c, _, _)| c)
        .filter(|c| c.starts_with(typed) && c != typed.trim_end())
        .collect()
}

/// When `line` names a whole command that takes an argument (nothing of
/// the argument typed yet): its usage and what it does, for the line below
/// the command line ("domain add <name> — add a sending domain").
pub(crate) fn usage_hint(line: &str) -> Option<String> {
    let typed = line.trim();
    all()
        .into_iter()
        .find(|(c, arg, _)| c == typed && !arg.is_empty())
        .map(|(c, arg, help)| format!("{c} {arg} — {help}"))
}

/// The open command line.
#[derive(Debug, Clone, Default)]
pub struct CommandLine {
    /// What is typed.
    pub input: TextArea<'static>,
    /// Position while walking the history (None = editing a new line).
    pub history_pos: Option<usize>,
    /// A message about the last attempt (bad command).
    pub error: Option<String>,
    /// The items each `:open KIND` completes from (its command's name and
    /// the list the pane held when the line was opened).
    pub(crate) args: Vec<(&'static str, Vec<Item>)>,
}

impl CommandLine {
    /// The typed text.
    pub fn text(&self) -> String {
        self.input.lines().join(" ")
    }

    /// Replaces the typed text.
    pub fn set_text(&mut self, text: &str) {
        let mut input = TextArea::new(vec![text.to_owned()]);
        input.move_cursor(ratatui_textarea::CursorMove::End);
        self.input = input;
    }

    /// What Tab would complete the line to: whole lines, the commands' or,
    /// after `open campaign ` and the like, the items' ids and names.
    pub fn candidates(&self) -> Vec<String> {
        let text = self.text();
        match self.arg_of(&text) {
            Some((name, typed, items)) => crate::app::ids::candidates(typed, items)
                .into_iter()
                .map(|c| format!("{name} {c}"))
                .collect(),
            None => complete(&text),
        }
    }

    /// The candidates as shown under the line: an argument's alone.
    pub fn shown_candidates(&self) -> Vec<String> {
        let text = self.text();
        match self.arg_of(&text) {
            Some((_, typed, items)) => crate::app::ids::candidates(typed, items),
            None => complete(&text),
        }
    }

    /// The `:open KIND` command `text` starts, the argument typed after it
    /// and the items it completes from.
    fn arg_of<'t>(&self, text: &'t str) -> Option<(&'static str, &'t str, &[Item])> {
        let text = text.trim_start();
        self.args.iter().find_map(|(name, items)| {
            let rest = text.strip_prefix(name)?.strip_prefix(' ')?;
            Some((*name, rest.trim_start(), items.as_slice()))
        })
    }

    /// Completes to the longest common prefix of the candidates.
    pub fn complete(&mut self) {
        let text = self.text();
        let candidates = self.candidates();
        if candidates.is_empty() {
            return;
        }
        let mut prefix = candidates[0].clone();
        for c in &candidates[1..] {
            let common = prefix
                .chars()
                .zip(c.chars())
                .take_while(|(a, b)| a == b)
                .count();
            prefix = prefix.chars().take(common).collect();
        }
        if prefix.len() > text.trim_start().len() {
            self.set_text(&prefix);
        }
    }

    /// Steps through `history` (older with `back`).
    pub fn recall(&mut self, history: &[String], back: bool) {
        if history.is_empty() {
            return;
        }
        let pos = match (self.history_pos, back) {
            (None, true) => Some(history.len() - 1),
            (Some(0), true) => Some(0),
            (Some(p), true) => Some(p - 1),
            (Some(p), false) if p + 1 < history.len() => Some(p + 1),
            // Past the newest: back to a new, empty line.
            (None | Some(_), false) => None,
        };
        self.history_pos = pos;
        let text = pos.map_or("", |p| history[p].as_str()).to_owned();
        self.set_text(&text);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_commands() {
        assert_eq!(
            parse("open search abc"),
            Ok(Command::Of {
                pane: Pane::Leads,
                name: "open search",
                arg: Some("abc".into())
            })
        );
        assert_eq!(
            parse(" domain  add mail.acme.io "),
            Ok(Command::Of {
                pane: Pane::Domains,
                name: "domain add",
                arg: Some("mail.acme.io".into())
            })
        );
        assert_eq!(parse("q"), Ok(Command::Quit));
        assert_eq!(parse("journal"), Ok(Command::Journal));
        assert_eq!(parse("pane 4"), Ok(Command::Pane(Pane::Domains)));
        assert_eq!(
            parse("export out/leads file.csv"),
            Ok(Command::Of {
                pane: Pane::Leads,
                name: "export",
                arg: Some("out/leads file.csv".into())
            })
        );
        assert_eq!(
            parse("open search"),
            Err("usage: open search <search>".into())
        );
        assert_eq!(parse("run all now"), Err("usage: run all".into()));
        assert!(parse("open nothing").unwrap_err().contains("open search"));
        assert!(parse("frobnicate").unwrap_err().contains("unknown command"));
    }

    #[test]
    fn open_completes_ids_and_names_of_the_list_held() {
        let mut c = CommandLine {
            args: vec![(
                "open campaign",
                vec![
                    Item::new("7dfa1b2c-0000-4000-8000-000000000000", "DACH growth"),
                    Item::new("c844f263-0000-4000-8000-000000000000", "Q3 RevOps"),
                ],
            )],
            ..CommandLine::default()
        };
        c.set_text("open campaign 7d");
        c.complete();
        assert_eq!(
            c.text(),
            "open campaign 7dfa1b2c-0000-4000-8000-000000000000"
        );
        c.set_text("open campaign q3");
        assert_eq!(c.shown_candidates(), vec!["Q3 RevOps".to_owned()]);
        // A part of a name completes to the whole name.
        c.set_text("open campaign growth");
        c.complete();
        assert_eq!(c.text(), "open campaign DACH growth");
        // Commands still complete as before.
        c.set_text("open ca");
        c.complete();
        assert_eq!(c.text(), "open campaign");
    }

    #[test]
    fn completes_and_recalls() {
        let mut c = CommandLine::default();
        c.set_text("do");
        c.complete();
        assert_eq!(c.text(), "domain add", "no hidden trailing space");
        c.complete();
        assert_eq!(c.text(), "domain add", "complete: Tab adds nothing");
        assert!(
            usage_hint(&c.text()).is_some_and(|u| u.starts_with("domain add <")),
            "the argument is named below the line: {:?}",
            usage_hint(&c.text())
        );
        assert_eq!(complete("domain add "), Vec::<String>::new());
        assert_eq!(usage_hint("refresh"), None, "no argument, no usage");
        c.set_text("pane ");
        c.complete();
        assert_eq!(c.text(), "pane ", "ambiguous: stays");
        assert_eq!(
            complete("pane "),
            [
                "pane leads",
                "pane campaigns",
                "pane inbox",
                "pane domains",
                "pane profile"
            ]
        );
        let history = vec!["refresh".to_owned(), "help".to_owned()];
        c.recall(&history, true);
        assert_eq!(c.text(), "help");
        c.recall(&history, true);
        assert_eq!(c.text(), "refresh");
        c.recall(&history, false);
        c.recall(&history, false);
        assert_eq!(c.text(), "");
    }
}
