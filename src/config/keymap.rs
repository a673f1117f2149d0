//! The keymap: scope → key → action, with defaults from DESIGN.md and
//! overrides from `[keys.SCOPE]` tables of `config.toml`. The help overlay
//! and the status-bar hints are generated from it, so they always match.

use std::collections::BTreeMap;
use std::fmt;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::KeyOverride;

/// Where a binding applies. Pane scopes are checked before `Global`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scope {
    /// Everywhere (navigation, panes, help, quit).
    Global,
    /// The Leads pane.
    Leads,
    /// The Campaigns pane.
    Campaigns,
    /// The Inbox pane.
    Inbox,
    /// The Senders & Domains pane.
    Domains,
    /// The Profile pane.
    Profile,
}

impl Scope {
    /// Every scope.
    pub const ALL: [Scope; 6] = [
        Scope::Global,
        Scope::Leads,
        Scope::Campaigns,
        Scope::Inbox,
        Scope::Domains,
        Scope::Profile,
    ];

    /// The name used in `[keys.NAME]`.
    pub fn name(self) -> &'static str {
        match self {
            Scope::Global => "global",
            Scope::Leads => "leads",
            Scope::Campaigns => "campaigns",
            Scope::Inbox => "inbox",
            Scope::Domains => "domains",
            Scope::Profile => "profile",
        }
    }

    fn parse(s: &str) -> Option<Scope> {
        Scope::ALL.into_iter().find(|sc| sc.name() == s)
    }
}

macro_rules! actions {
    ($($variant:ident => $name:literal, $scope:ident, $help:literal;)+) => {
        /// Everything a key can do.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Action { $(#[doc = $help] $variant,)+ }

        impl Action {
            /// Every action, in help order.
            pub const ALL: &'static [Action] = &[$(Action::$variant,)+];

            /// The name used in config files.
            pub fn name(self) -> &'static str {
                match self { $(Action::$variant => $name,)+ }
            }

            /// The scope the action belongs to.
            pub fn scope(self) -> Scope {
                match self { $(Action::$variant => Scope::$scope,)+ }
            }

            /// One line of help.
            pub fn help(self) -> &'static str {
                match self { $(Action::$variant => $help,)+ }
            }

            fn parse(s: &str) -> Option<Action> {
                match s { $($name => Some(Action::$variant),)+ _ => None }
            }
        }
    };
}

actions! {
    Quit => "quit", Global, "quit (asks first if something unsent would be lost)";
    ForceQuit => "force_quit", Global, "quit at once (unsent text is saved locally first)";
    Suspend => "suspend", Global, "suspend to the shell (fg to come back)";
    NextPane => "next_pane", Global, "next pane";
    PrevPane => "prev_pane", Global, "previous pane";
    PaneLeads => "pane_leads", Global, "Leads pane";
    PaneCampaigns => "pane_campaigns", Global, "Campaigns pane";
    PaneInbox => "pane_inbox", Global, "Inbox pane";
    PaneDomains => "pane_domains", Global, "Senders & Domains pane";
    PaneProfile => "pane_profile", Global, "Profile pane";
    Help => "help", Global, "help for this pane";
    CommandLine => "command", Global, "command line (the commands are listed below)";
    Refresh => "refresh", Global, "refresh what is shown";
    Up => "up", Global, "move up";
    Down => "down", Global, "move down";
    Top => "top", Global, "go to the top";
    Bottom => "bottom", Global, "go to the bottom";
    PageUp => "page_up", Global, "page up";
    PageDown => "page_down", Global, "page down";
    Open => "open", Global, "open the selected item";
    Back => "back", Global, "back / close";
    Filter => "filter", Global, "filter";
    ToggleSenders => "toggle_senders", Domains, "switch between sending domains and senders";
    AddDomain => "add_domain", Domains, "add a sending domain";
    Verify => "verify", Domains, "verify the domain (trigger a DNS check)";
    CopyValue => "copy_value", Domains, "copy the selected DNS value (OSC 52, works over SSH)";
    SenderType => "sender_type", Domains, "filter senders by type (all, email, network)";
    NewSearch => "new_search", Leads, "create a search";
    RunSearch => "run_search", Leads, "run the search (resumes when the last run can continue)";
    RunAll => "run_all", Leads, "run every eligible search";
    ToggleMark => "toggle_mark", Leads, "select / unselect the lead";
    MarkLoaded => "mark_loaded", Leads, "select every loaded lead (the pages read so far)";
    MarkMatching => "mark_matching", Leads, "select every lead matching the filter";
    AddToCampaign => "add_to_campaign", Leads, "add the selected leads to a campaign…";
    Export => "export", Leads, "export the filtered results to CSV";
    Enrichment => "enrichment", Leads, "open the result on its enrichment fields and coverage";
    RemoveChip => "remove_chip", Leads, "remove the last filter chip (or click a chip)";
    ClearMarks => "clear_marks", Leads, "unselect every lead";
    NextSection => "next_section", Leads, "next part of the result detail (lead, person, company, fields)";
    PrevSection => "prev_section", Leads, "previous part of the result detail";

    // The Campaigns pane's actions (scope Campaigns).
    NewCampaign => "new_campaign", Campaigns, "create a campaign (the type first, then its settings)";
    ImportCsv => "import_csv", Campaigns, "import leads from a CSV file into the draft";
    Launch => "launch", Campaigns, "launch the draft (asks first, naming the pending leads)";
    Pause => "pause", Campaigns, "pause the active campaign";
    Resume => "resume", Campaigns, "resume the paused campaign";
    NextTab => "next_tab", Campaigns, "next part of the campaign (overview, roster, messages)";
    PrevTab => "prev_tab", Campaigns, "previous part of the campaign";
    StatusFilter => "status_filter", Campaigns, "filter the roster or the messages by status";
    EditItem => "edit", Campaigns, "edit the selected lead or message";
    EditSequence => "edit_sequence", Campaigns, "edit the sequence (draft only)";
    DeleteLeads => "delete_leads", Campaigns, "delete the selected leads (draft only)";
    DeleteAllLeads => "delete_all_leads", Campaigns, "delete every lead of the roster (draft only)";
    MarkLead => "mark_lead", Campaigns, "select / unselect the lead";
    MarkLoadedLeads => "mark_loaded_leads", Campaigns, "select every loaded lead (the pages read so far)";

    // The Inbox pane's actions (scope Inbox).

    // The Profile pane's actions (scope Profile).
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

const DEFAULTS: &[(&str, Action)] = &[
    ("q", Action::Quit),
    ("ctrl-c", Action::ForceQuit),
    ("ctrl-z", Action::Suspend),
    ("tab", Action::NextPane),
    ("shift-tab", Action::PrevPane),
    ("1", Action::PaneLeads),
    ("2", Action::PaneCampaigns),
    ("3", Action::PaneInbox),
    ("4", Action::PaneDomains),
    ("5", Action::PaneProfile),
    ("?", Action::Help),
    (":", Action::CommandLine),
    ("r", Action::Refresh),
    ("k", Action::Up),
    ("up", Action::Up),
    ("j", Action::Down),
    ("down", Action::Down),
    ("g", Action::Top),
    ("home", Action::Top),
    ("G", Action::Bottom),
    ("end", Action::Bottom),
    ("pgup", Action::PageUp),
    ("pgdn", Action::PageDown),
    ("enter", Action::Open),
    ("esc", Action::Back),
    ("/", Action::Filter),
];

const PANE_DEFAULTS: &[(Scope, &str, Action)] = &[
    (Scope::Domains, "s", Action::ToggleSenders),
    (Scope::Domains, "a", Action::AddDomain),
    (Scope::Domains, "v", Action::Verify),
    (Scope::Domains, "y", Action::CopyValue),
    (Scope::Domains, "t", Action::SenderType),
    (Scope::Leads, "n", Action::NewSearch),
    (Scope::Leads, "R", Action::RunSearch),
    (Scope::Leads, "ctrl-r", Action::RunAll),
    (Scope::Leads, "space", Action::ToggleMark),
    (Scope::Leads, "a", Action::MarkLoaded),
    (Scope::Leads, "A", Action::MarkMatching),
    (Scope::Leads, "c", Action::AddToCampaign),
    (Scope::Leads, "E", Action::Export),
    (Scope::Leads, "e", Action::Enrichment),
    (Scope::Leads, "x", Action::RemoveChip),
    (Scope::Leads, "u", Action::ClearMarks),
    (Scope::Leads, "l", Action::NextSection),
    (Scope::Leads, "right", Action::NextSection),
    (Scope::Leads, "h", Action::PrevSection),
    (Scope::Leads, "left", Action::PrevSection),
    // The Campaigns pane's keys.
    (Scope::Campaigns, "n", Action::NewCampaign),
    (Scope::Campaigns, "i", Action::ImportCsv),
    (Scope::Campaigns, "L", Action::Launch),
    (Scope::Campaigns, "p", Action::Pause),
    (Scope::Campaigns, "R", Action::Resume),
    (Scope::Campaigns, "l", Action::NextTab),
    (Scope::Campaigns, "right", Action::NextTab),
    (Scope::Campaigns, "h", Action::PrevTab),
    (Scope::Campaigns, "left", Action::PrevTab),
    (Scope::Campaigns, "t", Action::StatusFilter),
    (Scope::Campaigns, "e", Action::EditItem),
    (Scope::Campaigns, "s", Action::EditSequence),
    (Scope::Campaigns, "d", Action::DeleteLeads),
    (Scope::Campaigns, "D", Action::DeleteAllLeads),
    (Scope::Campaigns, "space", Action::MarkLead),
    (Scope::Campaigns, "a", Action::MarkLoadedLeads),
    // The Inbox pane's keys.

    // The Profile pane's keys.
];

impl Default for Keymap {
    fn default() -> Self {
        let mut map = BTreeMap::new();
        for (key, action) in DEFAULTS {
            if let Some(combo) = KeyCombo::parse(key) {
                map.insert((Scope::Global, combo), *action);
            }
        }
        for (scope, key, action) in PANE_DEFAULTS {
            if let Some(combo) = KeyCombo::parse(key) {
                map.insert((*scope, combo), *action);
            }
        }
        Keymap { map }
    }
}

impl Keymap {
    /// The defaults with `overrides` applied; an error names the file, the
    /// key and what is allowed. `"none"` unbinds a key.
    pub fn with_overrides(overrides: &[KeyOverride]) -> Result<Keymap, String> {
        let mut km = Keymap::default();
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
                    Scope::ALL.map(Scope::name).join(", ")
                )
            })?;
            let combo = KeyCombo::parse(&o.key).ok_or_else(|| {
                format!("{at}: not a key; use e.g. \"y\", \"G\", \"ctrl-s\", \"shift-tab\", \"pgdn\", \"f5\"")
            })?;
            if matches!(o.action.as_str(), "none" | "unbound") {
                km.map.remove(&(scope, combo));
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
            km.map.insert((scope, combo), action);
        }
        Ok(km)
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

    /// The first key of an action as text (`?` if unbound).
    pub fn key_label(&self, action: Action) -> String {
        self.keys_for(action)
            .first()
            .map_or_else(|| "—".to_owned(), ToString::to_string)
    }

    /// Help rows for a scope: (keys, action help), in action order, leaving
    /// out `hidden` actions (e.g. panes this build does not have).
    pub fn help_rows(&self, scope: Scope, hidden: &[Action]) -> Vec<(String, &'static str)> {
        Action::ALL
            .iter()
            .filter(|a| a.scope() == scope && !hidden.contains(a))
            .filter_map(|a| {
                let keys = self.keys_for(*a);
                (!keys.is_empty()).then(|| {
                    let text: Vec<String> = keys.iter().map(ToString::to_string).collect();
                    (text.join(" "), a.help())
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
