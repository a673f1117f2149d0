//! The Inbox pane's keys: its actions with their default keys, help and
//! whether they change the service, and the key that shows the pane. The
//! keymap gathers them through the pane registry, so they are declared here
//! alone (`assets/keymap.toml` is generated from them).

/// Appends the pane's block to the keymap's collector (see `app::keymap`).
macro_rules! pane_keys {
    ($($acc:tt)*) => {
        $crate::app::keymap::collect_actions! {
            $($acc)*
            pane {
                switch PaneInbox => "pane_inbox", ["3"], "Inbox pane";
                /// The Inbox pane.
                Inbox => "inbox" {
                    Compose => "compose", ["c"], "write a new email (kept as a draft until sent)", writes;
                    EditDraft => "edit_draft", ["e"], "edit the draft (the editor opens on its body)", writes;
                    SendDraft => "send", ["S"], "send the draft (asks first, naming recipient and sender)", writes;
                    ReplyThread => "reply", ["R"], "reply: on a thread to its last inbound message, in a thread to the selected message (sent asking first)", writes;
                    ToggleQuote => "toggle_quote", ["ctrl-q"], "in a reply: remove or put back the quoted message under the text";
                    EditorSend => "editor_send", ["ctrl-s"], "in the editor: save, then send (asks first)", writes;
                    SaveDraft => "save_draft", ["ctrl-o"], "in the editor: save the draft to the service", writes;
                    FindInBody => "find", ["ctrl-f"], "in the editor: find text in the body (open or down: the next match, up: the one before)";
                    Undo => "undo", ["ctrl-_"], "in the editor: undo";
                    Redo => "redo", ["ctrl-r"], "in the editor: redo";
                    MarkRead => "mark_read", ["m"], "mark the thread read", writes;
                    MarkUnread => "mark_unread", ["u"], "mark the thread unread", writes;
                    Archive => "archive", ["a"], "archive / unarchive the thread", writes;
                    DeleteDraft => "delete_draft", ["D"], "delete the draft (asks first; only unsent drafts)", writes;
                    StatusFilter => "status_filter", ["s"], "show all threads, drafts, active or archived";
                    ScrollBodyDown => "scroll_body_down", ["J"], "scroll the message body down";
                    ScrollBodyUp => "scroll_body_up", ["K"], "scroll the message body up";
                }
            }
        }
    };
}
pub(crate) use pane_keys;

#[cfg(test)]
mod tests {
    use crate::app::fixed_keys;
    use crate::app::keymap::{Action, Keymap, Scope};

    /// The key names a help line may not hold: every named key or chord
    /// the keymap binds by default, and the fixed keys of dialogs (a help
    /// line naming one goes wrong once the key is remapped).
    fn key_names_in(help: &str) -> Vec<String> {
        let keymap = Keymap::default();
        let mut names: Vec<String> = Action::ALL
            .iter()
            .map(|a| keymap.key_label(*a))
            .filter(|l| l.chars().count() > 1)
            .collect();
        names.extend(
            [
                fixed_keys::CONFIRM,
                fixed_keys::CLOSE,
                fixed_keys::SUBMIT,
                fixed_keys::NEXT,
                fixed_keys::PREV,
                fixed_keys::LIST_UP,
                fixed_keys::LIST_DOWN,
                fixed_keys::LIST_PAGE_UP,
                fixed_keys::LIST_PAGE_DOWN,
                fixed_keys::YES,
                fixed_keys::NO,
                fixed_keys::DISMISS,
            ]
            .map(|k| k.label.to_owned()),
        );
        names.extend(["Up", "Down", "Left", "Right"].map(str::to_owned));
        help.split(|c: char| c.is_whitespace() || "(),;:.".contains(c))
            .filter(|w| names.iter().any(|n| n == w))
            .map(str::to_owned)
            .collect()
    }

    /// The help lines of the keymap (and `assets/keymap.toml`) name no
    /// key: the keys the help would name can be remapped.
    #[test]
    fn the_inbox_and_profile_help_names_no_key() {
        for a in Action::ALL
            .iter()
            .filter(|a| matches!(a.scope(), Scope::Inbox | Scope::Profile))
        {
            assert_eq!(
                key_names_in(a.help()),
                Vec::<String>::new(),
                "{a:?}: {}",
                a.help()
            );
        }
    }
}
