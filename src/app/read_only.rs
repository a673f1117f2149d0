//! Read-only mode as the dashboard shows it: which actions and `:` commands
//! would change the service. In read-only mode they are shown disabled with
//! the reason (hints, help) and refused with a notice before any pane sees
//! them; the client refusing every write is the second line of defence.

use super::{Pane, command_line};

/// Why a write is disabled, as shown.
pub(crate) const REASON: &str = "read-only mode (--read-only, or read_only = true in config.toml): nothing is changed on the service";

/// Refuses a write in read-only mode, saying why; `true` when refused.
/// For the paths into a write that are not write actions themselves
/// (Enter on a field opens the form, a double click, a confirm's yes).
pub(crate) fn refuse(cx: &mut super::ctx::Ctx<'_>) -> bool {
    if cx.session.read_only {
        cx.notify(super::toast::Level::Warning, "Disabled", REASON);
    }
    cx.session.read_only
}

/// Whether a `:` command (by its name) would change something on the
/// service: its declaration says so (`CommandSpec::writes`). An action
/// says so itself
/// ([`Action::writes`](crate::app::keymap::Action::writes)).
pub(crate) fn command_writes(name: &str) -> bool {
    Pane::ALL
        .iter()
        .flat_map(|p| p.commands())
        .chain(command_line::GLOBAL)
        .any(|c| c.name == name && c.writes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::keymap::Action;

    /// Every pane action that names a write is classed as one, and the
    /// shared navigation is not (a wrong class would either let a write
    /// through the first line of defence or disable reading).
    #[test]
    fn writes_are_classed_and_reads_are_not() {
        for a in [
            Action::Launch,
            Action::AddDomain,
            Action::SendDraft,
            Action::EditProfile,
        ] {
            assert!(a.writes(), "{a:?}");
        }
        for a in [
            Action::Open,
            Action::Refresh,
            Action::Filter,
            Action::Export,
            Action::CopyValue,
            Action::ToggleMark,
        ] {
            assert!(!a.writes(), "{a:?}");
        }
        assert!(command_writes("domain add") && command_writes("send"));
        assert!(!command_writes("open search") && !command_writes("export"));
    }

    /// In read-only mode a write key and a write command reach no pane and
    /// send nothing; they say why, and the help marks them disabled.
    #[test]
    fn read_only_refuses_writes_with_the_reason() {
        use crate::app::fixtures::{
            self,
            drive::{api, chars, key},
        };
        use crossterm::event::KeyCode;
        let mut m = fixtures::model(100, 30);
        m.session.read_only = true;
        // Reads still go: the pane's list is asked for.
        assert!(!api(&m.start()).is_empty(), "reads are sent");
        let cmds = key(&mut m, KeyCode::Char('a'));
        assert!(api(&cmds).is_empty(), "no add dialog, no request");
        assert!(m.panes.domains.add.is_none());
        assert!(
            m.toasts
                .items()
                .last()
                .is_some_and(|t| t.text.as_str().contains("read-only")),
            "the refusal says why"
        );
        key(&mut m, KeyCode::Char(':'));
        chars(&mut m, "domain add mail.example.com");
        let cmds = key(&mut m, KeyCode::Enter);
        assert!(api(&cmds).is_empty(), "the command sends nothing");
        let help = crate::app::help::rows(&m);
        assert!(help.iter().any(|r| matches!(r,
            crate::app::help::Row::Entry { help, .. } if help.contains("add a sending domain — disabled")
        )));
    }
}
