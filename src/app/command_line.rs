//! The `:` command line: parsing, completion and history.

use ratatui_textarea::TextArea;

use super::Pane;

/// A parsed command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// `:open search <id>`.
    OpenSearch(String),
    /// `:domain add <name>`.
    DomainAdd(String),
    /// `:pane <name>`.
    Pane(Pane),
    /// `:refresh`.
    Refresh,
    /// `:help`.
    Help,
    /// `:run all`.
    RunAll,
    /// `:export [path]`.
    Export(Option<String>),
    /// `:quit` / `:q`.
    Quit,
    /// `:quit!` / `:q!`: quit at once.
    ForceQuit,
}

/// Every command with its argument hint, for completion and help.
pub const COMMANDS: &[(&str, &str)] = &[
    ("open search ", "<id>"),
    ("domain add ", "<name>"),
    ("pane leads", ""),
    ("pane domains", ""),
    ("refresh", ""),
    ("run all", ""),
    ("export ", "[path.csv]"),
    ("help", ""),
    ("quit", ""),
    ("quit!", ""),
];

/// Parses a command line (without the leading `:`).
pub fn parse(line: &str) -> Result<Command, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let rest = |n: usize| words.get(n..).map(|w| w.join(" ")).unwrap_or_default();
    match words.as_slice() {
        [] => Err("type a command; Tab completes".into()),
        ["open", "search", id] => Ok(Command::OpenSearch((*id).to_owned())),
        ["open", "search"] => Err("usage: open search <id>".into()),
        ["open", what, ..] => Err(format!("cannot open `{what}` here; try: open search <id>")),
        ["domain", "add", name] => Ok(Command::DomainAdd((*name).to_owned())),
        ["domain", "add", ..] => Err("usage: domain add <name>".into()),
        ["pane", name] => match *name {
            "leads" | "1" => Ok(Command::Pane(Pane::Leads)),
            "domains" | "senders" | "4" => Ok(Command::Pane(Pane::Domains)),
            other => Err(format!("no pane `{other}`; try: pane leads, pane domains")),
        },
        ["refresh"] | ["r"] => Ok(Command::Refresh),
        ["help"] | ["h"] => Ok(Command::Help),
        ["run", "all"] => Ok(Command::RunAll),
        ["export"] => Ok(Command::Export(None)),
        ["export", ..] => Ok(Command::Export(Some(rest(1)))),
        ["quit"] | ["q"] => Ok(Command::Quit),
        ["quit!"] | ["q!"] => Ok(Command::ForceQuit),
        [first, ..] => Err(format!("unknown command `{first}`; Tab lists the commands")),
    }
}

/// Commands that extend what was typed.
pub fn complete(line: &str) -> Vec<&'static str> {
    let typed = line.trim_start();
    COMMANDS
        .iter()
        .map(|(c, _)| *c)
        .filter(|c| c.starts_with(typed) && *c != typed)
        .collect()
}

/// The open command line.
#[derive(Debug, Clone)]
pub struct CommandLine {
    /// What is typed.
    pub input: TextArea<'static>,
    /// Position while walking the history (None = editing a new line).
    pub history_pos: Option<usize>,
    /// A message about the last attempt (bad command).
    pub error: Option<String>,
}

impl Default for CommandLine {
    fn default() -> Self {
        let mut input = TextArea::default();
        input.set_cursor_line_style(ratatui::style::Style::default());
        CommandLine {
            input,
            history_pos: None,
            error: None,
        }
    }
}

impl CommandLine {
    /// The typed text.
    pub fn text(&self) -> String {
        self.input.lines().join(" ")
    }

    /// Replaces the typed text.
    pub fn set_text(&mut self, text: &str) {
        let mut input = TextArea::new(vec![text.to_owned()]);
        input.set_cursor_line_style(ratatui::style::Style::default());
        input.move_cursor(ratatui_textarea::CursorMove::End);
        self.input = input;
    }

    /// Completes to the longest common prefix of the candidates.
    pub fn complete(&mut self) {
        let text = self.text();
        let candidates = complete(&text);
        if candidates.is_empty() {
            return;
        }
        let mut prefix = candidates[0].to_owned();
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
            (None, false) => None,
            (Some(0), true) => Some(0),
            (Some(p), true) => Some(p - 1),
            (Some(p), false) if p + 1 < history.len() => Some(p + 1),
            (Some(_), false) => None,
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
            Ok(Command::OpenSearch("abc".into()))
        );
        assert_eq!(
            parse(" domain  add mail.acme.io "),
            Ok(Command::DomainAdd("mail.acme.io".into()))
        );
        assert_eq!(parse("q"), Ok(Command::Quit));
        assert_eq!(
            parse("export out/leads file.csv"),
            Ok(Command::Export(Some("out/leads file.csv".into())))
        );
        assert!(
            parse("open campaign x")
                .unwrap_err()
                .contains("open search")
        );
        assert!(parse("frobnicate").unwrap_err().contains("unknown command"));
    }

    #[test]
    fn completes_and_recalls() {
        let mut c = CommandLine::default();
        c.set_text("do");
        c.complete();
        assert_eq!(c.text(), "domain add ");
        c.set_text("pane ");
        c.complete();
        assert_eq!(c.text(), "pane ", "ambiguous: stays");
        assert_eq!(complete("pane "), ["pane leads", "pane domains"]);
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
