//! The keymap: scope → key → action. Every action is declared once, with
//! its default keys and its help, where it belongs: the shared ones below,
//! each pane's in its own `app/<pane>/keymap.rs`, gathered here through the
//! pane registry ([`with_panes!`](crate::app::registry)). Overrides come
//! from `[keys.SCOPE]` tables of `config.toml`. The help overlay, the
//! status-bar hints and `assets/keymap.toml` (the defaults as a file to
//! copy) are generated from it, so they always match.

use std::collections::BTreeMap;
use std::fmt;
use std::fmt::Write as _;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::config::KeyOverride;

/// Whether an action's entry carries the `writes` mark.
macro_rules! is_write {
    () => {
        false
    };
    (writes) => {
        true
    };
}

/// Declares the `Scope` and `Action` enums from the sections: one per
/// scope, each action with its config name, default keys, help and
/// whether it changes the service (`writes`).
macro_rules! actions {
    (switches [$($switch:ident)*] $(
        $(#[doc = $sdoc:literal])* $scope:ident => $sname:literal {
            $($variant:ident => $name:literal, [$($key:literal),*], $help:literal $(, $writes:ident)?;)+
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

            /// The actions that show a pane, in tab order.
            pub const PANE_SWITCHES: &'static [Action] = &[$(Action::$switch,)*];

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

            /// The keys bound to it without a config.
            pub fn default_keys(self) -> &'static [&'static str] {
                match self { $($(Action::$variant => &[$($key),*],)+)+ }
            }

            /// Whether it would change something on the service (refused
            /// in read-only mode before any pane sees it).
            pub fn writes(self) -> bool {
                match self { $($(Action::$variant => is_write!($($writes)?),)+)+ }
            }

            fn parse(s: &str) -> Option<Action> {
                match s { $($($name => Some(Action::$variant),)+)+ _ => None }
            }
        }
    };
}

/// Gathers the shared section and every registered pane's keys (each
/// pane's `keymap::pane_keys!` appends its own `pane { … }` block and hands
/// the rest back here), then declares the enums. The pane-switching
/// actions belong to `Global`, in tab order.
macro_rules! collect_actions {
    ($($variant:ident($field:ident): $ty:ty,)+) => {
        collect_actions! { @rest [$($field)+] @acc [] }
    };
    (@rest [$next:ident $($rest:ident)*] @acc [$($acc:tt)*]) => {
        $crate::app::$next::keymap::pane_keys! { @rest [$($rest)*] @acc [$($acc)*] }
    };
    (@rest [$($rest:ident)*] @acc [$($acc:tt)*] pane $pane:tt) => {
        collect_actions! { @rest [$($rest)*] @acc [$($acc)* $pane] }
    };
    (@rest [] @acc [$({
        switch $switch:ident => $swname:literal, [$($swkey:literal),*], $swhelp:literal;
        $($section:tt)*
    })+]) => {
        actions! {
            switches [$($switch)+]
            /// Everywhere (navigation, panes, help, quit).
            Global => "global" {
                Quit => "quit", ["q"], "quit (asks first if something unsent would be lost)";
                ForceQuit => "force_quit", ["ctrl-c"], "quit at once (unsent text is saved locally first)";
                Suspend => "suspend", ["ctrl-z"], "suspend to the shell (fg to come back)";
                NextPane => "next_pane", ["tab"], "next pane";
                PrevPane => "prev_pane", ["shift-tab"], "previous pane";
                $($switch => $swname, [$($swkey),*], $swhelp;)+
                Help => "help", ["?"], "help for this pane";
                CommandLine => "command", [":"], "command line (the commands are listed below)";
                Refresh => "refresh", ["r"], "refresh what is shown";
                Up => "up", ["k", "up"], "move up";
                Down => "down", ["j", "down"], "move down";
                Top => "top", ["g", "home"], "go to the top";
                Bottom => "bottom", ["G", "end"], "go to the bottom";
                PageUp => "page_up", ["pgup"], "page up";
                PageDown => "page_down", ["pgdn"], "page down";
                Open => "open", ["enter"], "open the selected item";
                Back => "back", ["esc"], "back / close";
                Filter => "filter", ["/"], "filter";
                CopyId => "copy_id", ["I"], "copy the id of the selected row (or of the item open)";
            }
            $($($section)*)+
        }
    };
}
pub(crate) use collect_actions;

crate::app::registry::with_panes!(collect_actions);

/// A key with its modifiers, normalised (shift folded into the char).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct KeyCombo {
    /// Ctrl held.
    pub ctrl: bool,
    /// Alt held.
    pub alt: bool,
    /// The key pressed, with the modifiers above.
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

/// The notes at the top of `assets/keymap.toml`.
const FILE_NOTES: &str = "\
# Outpost's default keymap, generated from the keys each pane declares
# (`UPDATE_ASSETS=1 cargo test --lib keymap` writes it again; a test fails
# when it is out of date), so it is always exactly what you get without a
# config.
#
# To change a key, copy its line into the same [keys.SCOPE] table of your
# config.toml (Linux: ~/.config/outpost/config.toml) and edit the key, e.g.
#
#   [keys.domains]
#   \"c\" = \"copy_value\"
#
# Your lines are added to these; set a key to \"none\" to unbind it. A pane's
# own table is checked before [keys.global]. Keys: a character (\"y\", \"G\",
# \"?\"), a named key (enter, esc, tab, shift-tab, backspace, delete, insert,
# up, down, left, right, home, end, pgup, pgdn, space), f1 to f12, with
# ctrl-, alt- or shift- in front (\"ctrl-s\"). `?` in the dashboard lists the
# keys in force.
";

impl Keymap {
    /// The built-in bindings: every action's default keys.
    pub fn defaults() -> Keymap {
        let mut map = BTreeMap::new();
        for a in Action::ALL {
            // Declared keys are checked by `every_default_key_parses`.
            for combo in a.default_keys().iter().filter_map(|k| KeyCombo::parse(k)) {
                map.insert((a.scope(), combo), *a);
            }
        }
        Keymap { map }
    }

    /// The defaults as a config file (`assets/keymap.toml`): a table per
    /// scope, each action's keys led by its help as a comment, so the file
    /// reads like `?` in the dashboard. Copied whole into a config, it
    /// changes nothing.
    pub fn default_toml() -> String {
        let mut out = FILE_NOTES.to_owned();
        for scope in Scope::ALL {
            let _ = write!(out, "\n[keys.{}]\n", scope.name());
            for a in Action::ALL.iter().filter(|a| a.scope() == *scope) {
                let _ = writeln!(out, "# {}", a.help());
                for key in a.default_keys() {
                    let _ = writeln!(out, "\"{key}\" = \"{}\"", a.name());
                }
            }
        }
        out
    }
}

impl Default for Keymap {
    fn default() -> Self {
        Keymap::defaults()
    }
}

impl Keymap {
    /// The defaults with `overrides` applied; an error names the file, the
    /// key and what is allowed. `"none"` unbinds a key.
    pub fn with_overrides(overrides: &[KeyOverride]) -> Result<Keymap, String> {
        let mut km = Keymap::defaults();
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

    /// The bound actions of a scope with their keys as text, in action
    /// order.
    pub fn help_actions(&self, scope: Scope) -> Vec<(Action, String)> {
        Action::ALL
            .iter()
            .filter(|a| a.scope() == scope)
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
    use std::path::{Path, PathBuf};

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
    fn every_default_key_parses_and_every_action_has_one() {
        let mut seen = BTreeMap::new();
        for a in Action::ALL {
            assert!(
                !a.default_keys().is_empty(),
                "`{}` has no default key: give it one where it is declared",
                a.name()
            );
            for k in a.default_keys() {
                let combo = KeyCombo::parse(k)
                    .unwrap_or_else(|| panic!("`{}`: \"{k}\" is not a key", a.name()));
                // Two actions on one key of a scope: one would never run.
                if let Some(other) = seen.insert((a.scope(), combo), *a) {
                    panic!(
                        "\"{k}\" is bound to both `{}` and `{}`",
                        other.name(),
                        a.name()
                    );
                }
            }
        }
        assert_eq!(Keymap::defaults().map.len(), seen.len());
    }

    #[test]
    fn names_are_unique_and_panes_switch_in_tab_order() {
        let mut names: Vec<&str> = Action::ALL.iter().map(|a| a.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), Action::ALL.len(), "two actions share a name");
        let numbers: Vec<String> = Action::PANE_SWITCHES
            .iter()
            .map(|a| Keymap::default().key_label(*a))
            .collect();
        assert_eq!(numbers, ["1", "2", "3", "4", "5"]);
        assert!(
            Action::PANE_SWITCHES
                .iter()
                .all(|a| a.scope() == Scope::Global)
        );
    }

    /// `assets/keymap.toml` is the generated defaults: a user copies it, so
    /// it must be what Outpost does. `UPDATE_ASSETS=1` writes it again.
    #[test]
    fn the_keymap_file_is_the_defaults() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/keymap.toml");
        let generated = Keymap::default_toml();
        if std::env::var_os("UPDATE_ASSETS").is_some() {
            std::fs::write(&path, &generated).unwrap();
        }
        let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            on_disk == generated,
            "assets/keymap.toml is out of date: run `UPDATE_ASSETS=1 cargo test --lib keymap`"
        );
    }

    /// Copied whole into a config, the defaults file changes nothing; each
    /// action's keys are led by its help.
    #[test]
    fn the_defaults_file_read_as_a_config_changes_nothing() {
        let text = Keymap::default_toml();
        let path = Path::new("/c.toml");
        let file = crate::config::parse_file(path, &text).unwrap();
        let overrides = crate::config::key_overrides(path, file.keys);
        assert_eq!(overrides.len(), Keymap::defaults().map.len());
        assert_eq!(
            Keymap::with_overrides(&overrides).unwrap(),
            Keymap::defaults()
        );
        for a in Action::ALL {
            let first = format!("\"{}\" = \"{}\"", a.default_keys()[0], a.name());
            assert!(
                text.contains(&format!("# {}\n{first}", a.help())),
                "{first}"
            );
        }
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
