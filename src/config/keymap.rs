//! The keymap: scope → key → action, with defaults from DESIGN.md and
//! overrides from `[keys.SCOPE]` tables of `config.toml`. The help overlay
//! and the status-bar hints are generated from it, so they always match.

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::KeyOverride;

macro_rules! actions {
    ($(
        $(#[doc = $sdoc:literal])* $scope:ident => $sname:literal {
            $($variant:ident => $name:literal, $help:literal;)+
        }
    )+) => {
        /// Where a binding applies: a `[keys.NAME]` table. Pane scopes are
        /// checked before `Global`.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Scope { $($(#[doc = $sdoc])* $scope,)+ }

        impl Scope {
            /// Every scope.
            pub const ALL: &'static [Scope] = &[$(Scope::$scope,)+];

            /// The name used in `[keys.NAME]`.
            pub fn name(self) -> &'static str {
                match self { $(Scope::$scope => $sname,)+ }
            }

            fn parse(s: &str) -> Option<Scope> {
                match s { $($sname => Some(Scope::$scope),)+ _ => None }
            }
        }

        /// Everything a key can do.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Action { $($(#[doc = $help] $variant,)+)+ }

        impl Action {
            /// Every action, in help order.
            pub const ALL: &'static [Action] = &[$($(Action::$variant,)+)+];

            /// The name used in config files.
            pub fn name(self) -> &'static str {
                match self { $($(Action::$variant => $name,)+)+ }
            }

            /// The scope the action belongs to.
            pub fn scope(self) -> Scope {
                match self { $($(Action::$variant => Scope::$scope,)+)+ }
            }

            /// One line of help.
            pub fn help(self) -> &'static str {
                match self { $($(Action::$variant => $help,)+)+ }
            }

            fn parse(s: &str) -> Option<Action> {
                match s { $($($name => Some(Action::$variant),)+)+ _ => None }
            }
        }
    };
}

// A new pane adds its scope here (a section with its actions) and a
// `[keys.NAME]` table with their default keys to assets/keymap.toml; the
// tests below check that the two agree.
actions! {
    /// Everywhere (navigation, panes, help, quit).
    Global => "global" {
        Quit => "quit", "quit (asks first if something unsent would be lost)";
        ForceQuit => "force_quit", "quit at once (unsent text is saved locally first)";
        Suspend => "suspend", "suspend to the shell (fg to come back)";
        NextPane => "next_pane", "next pane";
        PrevPane => "prev_pane", "previous pane";
        PaneLeads => "pane_leads", "Leads pane";
        PaneCampaigns => "pane_campaigns", "Campaigns pane";
        PaneInbox => "pane_inbox", "Inbox pane";
        PaneDomains => "pane_domains", "Senders & Domains pane";
        PaneProfile => "pane_profile", "Profile pane";
        Help => "help", "help for this pane";
        CommandLine => "command", "command line (the commands are listed below)";
        Refresh => "refresh", "refresh what is shown";
        Up => "up", "move up";
        Down => "down", "move down";
        Top => "top", "go to the top";
        Bottom => "bottom", "go to the bottom";
        PageUp => "page_up", "page up";
        PageDown => "page_down", "page down";
        Open => "open", "open the selected item";
        Back => "back", "back / close";
        Filter => "filter", "filter";
    }
    /// The Leads pane.
    Leads => "leads" {
        NewSearch => "new_search", "create a search";
        RunSearch => "run_search", "run the search (resumes when the last run can continue)";
        RunAll => "run_all", "run every eligible search";
        ToggleMark => "toggle_mark", "select / unselect the lead";
        MarkLoaded => "mark_loaded", "select every loaded lead";
        MarkMatching => "mark_matching", "select every lead matching the filter";
        AddToCampaign => "add_to_campaign", "add the selected leads to a campaign…";
        Export => "export", "export the filtered results to CSV";
        Enrichment => "enrichment", "open the result on its enrichment fields and coverage";
        RemoveChip => "remove_chip", "remove the last filter chip (or click a chip)";
        ClearMarks => "clear_marks", "unselect every lead";
        NextSection => "next_section", "next part of the result detail (lead, person, company, fields)";
        PrevSection => "prev_section", "previous part of the result detail";
    }
    /// The Campaigns pane.
    Campaigns => "campaigns" {
        NewCampaign => "new_campaign", "create a campaign (the type first, then its settings)";
        ImportCsv => "import_csv", "import leads from a CSV file into the draft";
        Launch => "launch", "launch the draft (asks first, naming the pending leads)";
        Pause => "pause", "pause the active campaign";
        Resume => "resume", "resume the paused campaign";
        NextTab => "next_tab", "next part of the campaign (overview, roster, messages)";
        PrevTab => "prev_tab", "previous part of the campaign";
        CampaignStatusFilter => "campaign_status_filter", "filter the roster or the messages by status";
        EditItem => "edit", "edit the selected lead or message";
        EditSequence => "edit_sequence", "edit the sequence (draft only)";
        DeleteLeads => "delete_leads", "delete the selected leads (draft only)";
        DeleteAllLeads => "delete_all_leads", "delete every lead of the roster (draft only)";
        MarkLead => "mark_lead", "select / unselect the lead";
        MarkLoadedLeads => "mark_loaded_leads", "select every loaded lead (the pages read so far)";
    }
    /// The Inbox pane.
    Inbox => "inbox" {
        Compose => "compose", "write a new email (kept as a draft until sent)";
        EditDraft => "edit_draft", "edit the draft (the editor opens on its body)";
        SendDraft => "send", "send the draft (asks first, naming recipient and sender)";
        EditorSend => "editor_send", "in the editor: save, then send (asks first)";
        SaveDraft => "save_draft", "in the editor: save the draft to the service";
        FindInBody => "find", "in the editor: find text in the body (Enter next, Up previous)";
        Undo => "undo", "in the editor: undo";
        Redo => "redo", "in the editor: redo";
        MarkRead => "mark_read", "mark the thread read";
        MarkUnread => "mark_unread", "mark the thread unread";
        Archive => "archive", "archive / unarchive the thread";
        DeleteDraft => "delete_draft", "delete the draft (asks first; only unsent drafts)";
        StatusFilter => "status_filter", "show all threads, drafts, active or archived";
        ScrollBodyDown => "scroll_body_down", "scroll the message body down";
        ScrollBodyUp => "scroll_body_up", "scroll the message body up";
    }
    /// The Senders & Domains pane.
    Domains => "domains" {
        ToggleSenders => "toggle_senders", "switch between sending domains and senders";
        AddDomain => "add_domain", "add a sending domain";
        Verify => "verify", "verify the domain (trigger a DNS check)";
        CopyValue => "copy_value", "copy the selected DNS value (OSC 52, works over SSH)";
        CopyRecord => "copy_record", "copy the record's name, type, value or zone-file line…";
        SenderType => "sender_type", "filter senders by type (all, email, network)";
    }
    /// The Profile pane.
    Profile => "profile" {
        EditProfile => "edit_profile", "edit the profile as a form (saving shows the changes first, y sends)";
        RedeemPass => "redeem_pass", "redeem a discovery-pass code";
        SaveProfile => "save_profile", "in the form: review the changes before they are sent";
    }
}

/// A key with its modifiers, normalised (shift folded into the char).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct KeyCombo {
    /// Ctrl held.
    pub ctrl: bool,
    /// Alt held.
    pub alt: bool,
    /// The key.
    pub code: ComboCode,
}

/// The key part of a combo.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ComboCode {
    /// A character (case kept: `G` is shift-g).
    Char(char),
    /// A named key.
    Named(&'static str),
    /// A function key.
    F(u8),
}

const NAMED: &[(&str, &[&str])] = &[
    ("enter", &["enter", "return"]),
    ("esc", &["esc", "escape"]),
    ("tab", &["tab"]),
    ("backtab", &["backtab", "shift-tab"]),
    ("backspace", &["backspace"]),
    ("delete", &["delete", "del"]),
    ("insert", &["insert", "ins"]),
    ("up", &["up"]),
    ("down", &["down"]),
    ("left", &["left"]),
    ("right", &["right"]),
    ("home", &["home"]),
    ("end", &["end"]),
    ("pageup", &["pageup", "pgup"]),
    ("pagedown", &["pagedown", "pgdn"]),
    ("space", &["space"]),
];

impl KeyCombo {
    /// Parses `ctrl-s`, `shift-tab`, `G`, `pgdn`, `f5`, `?`.
    pub fn parse(text: &str) -> Option<KeyCombo> {
        let mut ctrl = false;
        let mut alt = false;
        let mut shift = false;
        let mut rest = text.trim();
        if rest.is_empty() {
            return None;
        }
        loop {
            let lower = rest.to_ascii_lowercase();
            if rest.chars().count() > 1
                && (lower.starts_with("ctrl-") || lower.starts_with("ctrl+"))
            {
                ctrl = true;
                rest = &rest[5..];
            } else if rest.chars().count() > 1
                && (lower.starts_with("alt-") || lower.starts_with("alt+"))
            {
                alt = true;
                rest = &rest[4..];
            } else if rest.chars().count() > 1
                && (lower.starts_with("shift-") || lower.starts_with("shift+"))
            {
                shift = true;
                rest = &rest[6..];
            } else {
                break;
            }
        }
        let lower = rest.to_ascii_lowercase();
        let code = if rest.chars().count() == 1 {
            let c = rest.chars().next()?;
            if c == ' ' {
                ComboCode::Named("space")
            } else if shift && c.is_ascii_alphabetic() {
                ComboCode::Char(c.to_ascii_uppercase())
            } else if ctrl && c.is_ascii_alphabetic() {
                ComboCode::Char(c.to_ascii_lowercase())
            } else {
                ComboCode::Char(c)
            }
        } else if let Some(n) = lower.strip_prefix('f').and_then(|n| n.parse::<u8>().ok()) {
            if !(1..=12).contains(&n) {
                return None;
            }
            ComboCode::F(n)
        } else {
            let lookup = if shift && lower == "tab" {
                "backtab"
            } else {
                lower.as_str()
            };
            let name = NAMED
                .iter()
                .find(|(_, aliases)| aliases.contains(&lookup))?
                .0;
            ComboCode::Named(name)
        };
        Some(KeyCombo { ctrl, alt, code })
    }

    /// The combo of a terminal key event.
    pub fn from_event(ev: &KeyEvent) -> Option<KeyCombo> {
        let ctrl = ev.modifiers.contains(KeyModifiers::CONTROL);
        let alt = ev.modifiers.contains(KeyModifiers::ALT);
        let code = match ev.code {
            KeyCode::Char(' ') => ComboCode::Named("space"),
            KeyCode::Char(c) if ctrl && c.is_ascii_alphabetic() => {
                ComboCode::Char(c.to_ascii_lowercase())
            }
            // Terminals send Ctrl-_ as 0x1F, which reads as Ctrl-7.
            KeyCode::Char('7') if ctrl => ComboCode::Char('_'),
            KeyCode::Char(c) => ComboCode::Char(c),
            KeyCode::F(n) => ComboCode::F(n),
            KeyCode::Enter => ComboCode::Named("enter"),
            KeyCode::Esc => ComboCode::Named("esc"),
            KeyCode::Tab if ev.modifiers.contains(KeyModifiers::SHIFT) => {
                ComboCode::Named("backtab")
            }
            KeyCode::Tab => ComboCode::Named("tab"),
            KeyCode::BackTab => ComboCode::Named("backtab"),
            KeyCode::Backspace => ComboCode::Named("backspace"),
            KeyCode::Delete => ComboCode::Named("delete"),
            KeyCode::Insert => ComboCode::Named("insert"),
            KeyCode::Up => ComboCode::Named("up"),
            KeyCode::Down => ComboCode::Named("down"),
            KeyCode::Left => ComboCode::Named("left"),
            KeyCode::Right => ComboCode::Named("right"),
            KeyCode::Home => ComboCode::Named("home"),
            KeyCode::End => ComboCode::Named("end"),
            KeyCode::PageUp => ComboCode::Named("pageup"),
            KeyCode::PageDown => ComboCode::Named("pagedown"),
            _ => return None,
        };
        Some(KeyCombo { ctrl, alt, code })
    }
}

impl fmt::Display for KeyCombo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.ctrl {
            f.write_str("Ctrl-")?;
        }
        if self.alt {
            f.write_str("Alt-")?;
        }
        match self.code {
            ComboCode::Char(c) if self.ctrl || self.alt => write!(f, "{}", c.to_ascii_uppercase()),
            ComboCode::Char(c) => write!(f, "{c}"),
            ComboCode::F(n) => write!(f, "F{n}"),
            ComboCode::Named(n) => f.write_str(match n {
                "enter" => "Enter",
                "esc" => "Esc",
                "tab" => "Tab",
                "backtab" => "Shift-Tab",
                "backspace" => "Backspace",
                "delete" => "Del",
                "insert" => "Ins",
                "up" => "↑",
                "down" => "↓",
                "left" => "←",
                "right" => "→",
                "home" => "Home",
                "end" => "End",
                "pageup" => "PgUp",
                "pagedown" => "PgDn",
                "space" => "Space",
                other => other,
            }),
        }
    }
}

/// The bound keys.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Keymap {
    map: BTreeMap<(Scope, KeyCombo), Action>,
}

/// The default keymap: the TOML a user can copy into `config.toml`, and
/// the source of the built-in bindings.
pub const DEFAULT_TOML: &str = include_str!("../../assets/keymap.toml");

/// The name errors in [`DEFAULT_TOML`] are reported under.
const DEFAULT_ORIGIN: &str = "assets/keymap.toml (built in)";

impl Keymap {
    /// The built-in bindings, read from [`DEFAULT_TOML`] with the same parser
    /// as a user's `[keys.*]` tables.
    pub fn defaults() -> Result<Keymap, String> {
        let origin = Path::new(DEFAULT_ORIGIN);
        let file = super::parse_file(origin, DEFAULT_TOML).map_err(|e| e.to_string())?;
        let mut km = Keymap {
            map: BTreeMap::new(),
        };
        km.apply(&super::key_overrides(origin, file.keys))?;
        Ok(km)
    }
}

impl Default for Keymap {
    // Infallible: the input is the embedded constant file (see below).
    #[allow(clippy::expect_used)]
    fn default() -> Self {
        // The embedded file is part of the build, not outside data, and
        // `tests::the_embedded_defaults_parse_and_cover_every_action` keeps it
        // valid.
        Keymap::defaults().expect("assets/keymap.toml is a valid keymap")
    }
}

impl Keymap {
    /// The defaults with `overrides` applied; an error names the file, the
    /// key and what is allowed. `"none"` unbinds a key.
    pub fn with_overrides(overrides: &[KeyOverride]) -> Result<Keymap, String> {
        let mut km = Keymap::defaults()?;
        km.apply(overrides)?;
        Ok(km)
    }

    /// Binds (or with `"none"` unbinds) each override in turn.
    fn apply(&mut self, overrides: &[KeyOverride]) -> Result<(), String> {
        for o in overrides {
            let at = format!(
                "config file {}: [keys.{}] \"{}\"",
                o.origin.display(),
                o.scope,
                o.key
            );
            let scope = Scope::parse(&o.scope).ok_or_else(|| {
                format!(
                    "config file {}: [keys.{}]: unknown scope; allowed: {}",
                    o.origin.display(),
                    o.scope,
                    Scope::ALL
                        .iter()
                        .map(|s| s.name())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            })?;
            let combo = KeyCombo::parse(&o.key).ok_or_else(|| {
                format!("{at}: not a key; use e.g. \"y\", \"G\", \"ctrl-s\", \"shift-tab\", \"pgdn\", \"f5\"")
            })?;
            if matches!(o.action.as_str(), "none" | "unbound") {
                self.map.remove(&(scope, combo));
                continue;
            }
            let action = Action::parse(&o.action).ok_or_else(|| {
                let allowed: Vec<&str> = Action::ALL
                    .iter()
                    .filter(|a| a.scope() == scope)
                    .map(|a| a.name())
                    .collect();
                format!(
                    "{at} = \"{}\": unknown action; allowed here: {}, none",
                    o.action,
                    allowed.join(", ")
                )
            })?;
            if action.scope() != scope {
                return Err(format!(
                    "{at} = \"{}\": that action belongs in [keys.{}]",
                    o.action,
                    action.scope().name()
                ));
            }
            self.map.insert((scope, combo), action);
        }
        Ok(())
    }

    /// The action of a key in `scope` (checked first) or globally.
    pub fn action(&self, scope: Scope, ev: &KeyEvent) -> Option<Action> {
        let combo = KeyCombo::from_event(ev)?;
        self.map
            .get(&(scope, combo))
            .or_else(|| self.map.get(&(Scope::Global, combo)))
            .copied()
    }

    /// The keys bound to an action, for hints and help.
    pub fn keys_for(&self, action: Action) -> Vec<KeyCombo> {
        self.map
            .iter()
            .filter(|(_, a)| **a == action)
            .map(|((_, k), _)| *k)
            .collect()
    }

    /// The label of a key bound to `action` that still acts while a text
    /// box has the focus (a named key or a chord, not a letter that would
    /// type): `↑` rather than `k`.
    pub fn text_box_label(&self, action: Action) -> String {
        self.keys_for(action)
            .into_iter()
            .find(|k| k.ctrl || k.alt || !matches!(k.code, ComboCode::Char(_)))
            .map_or_else(|| self.key_label(action), |k| k.to_string())
    }

    /// The first key of an action as text (`?` if unbound).
    pub fn key_label(&self, action: Action) -> String {
        self.keys_for(action)
            .first()
            .map_or_else(|| "—".to_owned(), ToString::to_string)
    }

    /// Help rows for a scope: (keys, action help), in action order, leaving
    /// out `hidden` actions (e.g. panes this build does not have).
    pub fn help_rows(&self, scope: Scope, hidden: &[Action]) -> Vec<(String, &'static str)> {
        self.help_actions(scope, hidden)
            .into_iter()
            .map(|(a, keys)| (keys, a.help()))
            .collect()
    }

    /// The bound actions of a scope with their keys as text, in action
    /// order, leaving out `hidden` ones.
    pub fn help_actions(&self, scope: Scope, hidden: &[Action]) -> Vec<(Action, String)> {
        Action::ALL
            .iter()
            .filter(|a| a.scope() == scope && !hidden.contains(a))
            .filter_map(|a| {
                let keys = self.keys_for(*a);
                (!keys.is_empty()).then(|| {
                    let text: Vec<String> = keys.iter().map(ToString::to_string).collect();
                    (*a, text.join(" "))
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn key(code: KeyCode, m: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, m)
    }

    #[test]
    fn defaults_follow_the_design() {
        let km = Keymap::default();
        let k = |c| km.action(Scope::Domains, &key(KeyCode::Char(c), KeyModifiers::NONE));
        assert_eq!(k('q'), Some(Action::Quit));
        assert_eq!(k('y'), Some(Action::CopyValue));
        assert_eq!(k('4'), Some(Action::PaneDomains));
        assert_eq!(
            km.action(Scope::Leads, &key(KeyCode::Char('G'), KeyModifiers::SHIFT)),
            Some(Action::Bottom)
        );
        assert_eq!(
            km.action(Scope::Leads, &key(KeyCode::BackTab, KeyModifiers::SHIFT)),
            Some(Action::PrevPane)
        );
        assert_eq!(
            km.action(
                Scope::Leads,
                &key(KeyCode::Char('c'), KeyModifiers::CONTROL)
            ),
            Some(Action::ForceQuit)
        );
        assert_eq!(
            km.action(Scope::Leads, &key(KeyCode::Char(' '), KeyModifiers::NONE)),
            Some(Action::ToggleMark)
        );
    }

    #[test]
    fn overrides_rebind_unbind_and_explain_mistakes() {
        let o = |scope: &str, k: &str, a: &str| KeyOverride {
            scope: scope.into(),
            key: k.into(),
            action: a.into(),
            origin: PathBuf::from("/c.toml"),
        };
        let km =
            Keymap::with_overrides(&[o("domains", "c", "copy_value"), o("global", "q", "none")])
                .unwrap();
        let ev = |c| key(KeyCode::Char(c), KeyModifiers::NONE);
        assert_eq!(km.action(Scope::Domains, &ev('c')), Some(Action::CopyValue));
        assert_eq!(km.action(Scope::Domains, &ev('q')), None);

        let err = Keymap::with_overrides(&[o("domains", "c", "copy")]).unwrap_err();
        assert!(
            err.contains("/c.toml") && err.contains("copy_value"),
            "{err}"
        );
        let err = Keymap::with_overrides(&[o("global", "ctrl-", "quit")]).unwrap_err();
        assert!(err.contains("not a key"), "{err}");
        let err = Keymap::with_overrides(&[o("global", "y", "copy_value")]).unwrap_err();
        assert!(err.contains("[keys.domains]"), "{err}");
        let err = Keymap::with_overrides(&[o("nowhere", "y", "quit")]).unwrap_err();
        assert!(
            err.contains("global, leads, campaigns, inbox, domains, profile"),
            "{err}"
        );
    }

    /// The binding lines of the embedded file: (scope, key, action).
    fn default_lines() -> Vec<(String, String, String)> {
        let file: BTreeMap<String, super::super::KeyTables> = toml::from_str(DEFAULT_TOML).unwrap();
        let mut out = Vec::new();
        for (scope, keys) in &file["keys"] {
            for (key, action) in keys {
                out.push((scope.clone(), key.clone(), action.clone()));
            }
        }
        out
    }

    #[test]
    fn the_embedded_defaults_parse_and_cover_every_action() {
        let km = Keymap::defaults().unwrap();
        for a in Action::ALL {
            assert!(
                !km.keys_for(*a).is_empty(),
                "assets/keymap.toml has no key for `{}`: add a line to [keys.{}]",
                a.name(),
                a.scope().name()
            );
        }
        let lines = default_lines();
        for scope in Scope::ALL {
            assert!(
                lines.iter().any(|(s, _, _)| s == scope.name()),
                "assets/keymap.toml has no [keys.{}] table",
                scope.name()
            );
        }
        // Two spellings of one key ("pgdn", "pagedown") in a table would
        // silently drop a binding.
        assert_eq!(lines.len(), km.map.len(), "a key is bound twice in a table");
        // Copied whole into a config, the file changes nothing.
        let path = Path::new("/c.toml");
        let file = crate::config::parse_file(path, DEFAULT_TOML).unwrap();
        let copied = Keymap::with_overrides(&crate::config::key_overrides(path, file.keys));
        assert_eq!(copied.unwrap(), km);
    }

    /// Each action's lines are led by one comment: its help text, so the
    /// file reads like `?` in the dashboard.
    #[test]
    fn each_action_in_the_file_is_explained_by_its_help() {
        let mut scope = None;
        let mut comment: Option<&str> = None;
        let mut group: Option<Action> = None;
        let mut seen = Vec::new();
        for (n, line) in DEFAULT_TOML.lines().enumerate() {
            let at = format!("assets/keymap.toml line {}", n + 1);
            let line = line.trim();
            if let Some(name) = line
                .strip_prefix("[keys.")
                .and_then(|l| l.strip_suffix(']'))
            {
                scope = Some(Scope::parse(name).unwrap_or_else(|| panic!("{at}: unknown scope")));
                (comment, group) = (None, None);
            } else if line.is_empty() {
                assert!(comment.is_none(), "{at}: a comment with no key under it");
                group = None;
            } else if let Some(text) = line.strip_prefix('#') {
                // Before the first table: the file's own notes.
                if scope.is_some() {
                    let text = text.trim();
                    assert!(comment.is_none(), "{at}: one comment line per action");
                    comment = Some(text);
                }
            } else {
                let binding: BTreeMap<String, String> =
                    toml::from_str(line).unwrap_or_else(|e| panic!("{at}: {e}"));
                let action = binding.values().next().and_then(|a| Action::parse(a));
                let action = action.unwrap_or_else(|| panic!("{at}: not an action"));
                match comment.take() {
                    Some(text) => {
                        assert_eq!(text, action.help(), "{at}: the comment must be the help");
                        assert!(
                            !seen.contains(&action),
                            "{at}: keep an action's keys together"
                        );
                        seen.push(action);
                        group = Some(action);
                    }
                    None => assert_eq!(group, Some(action), "{at}: explain the action above it"),
                }
                assert_eq!(Some(action.scope()), scope, "{at}: wrong table");
            }
        }
        assert_eq!(seen.len(), Action::ALL.len());
    }

    #[test]
    fn combos_parse_and_print() {
        for (text, shown) in [
            ("ctrl-s", "Ctrl-S"),
            ("shift-tab", "Shift-Tab"),
            ("G", "G"),
            ("pgdn", "PgDn"),
            ("f5", "F5"),
            ("?", "?"),
            ("space", "Space"),
        ] {
            assert_eq!(KeyCombo::parse(text).unwrap().to_string(), shown, "{text}");
        }
        assert!(KeyCombo::parse("f13").is_none());
        assert!(KeyCombo::parse("hyper-x").is_none());
    }
}
