//! The editor's keys, routed explicitly: the pane's chords first (as the
//! keymap binds them), then Esc and Tab, then the focused text box. Also
//! find in the body, undo and redo, paste and the mouse.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use ratatui_textarea::{CursorMove, TextArea};

use super::{After, Editor, FIELDS, Find, close, save, send_from_editor};
use crate::app::ctx::Ctx;
use crate::app::inbox::{InboxModel, refuse};
use crate::app::keymap::{Action, Keymap, Scope};
use crate::app::{Cmd, fixed_keys};
use crate::text::sanitize::Pasted;

/// Whether a key is a chord the pane may bind in the editor (Ctrl or Alt
/// held, or a function key); plain keys always type.
fn is_chord(key: &KeyEvent) -> bool {
    key.modifiers
        .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
        || matches!(key.code, KeyCode::F(_))
}

/// A key in the editor.
pub(crate) fn key(inbox: &mut InboxModel, cx: &mut Ctx<'_>, key: KeyEvent) -> Vec<Cmd> {
    if is_chord(&key) {
        match cx.keymap.action(Scope::Inbox, &key) {
            Some(Action::EditorSend | Action::SendDraft) => return send_from_editor(inbox, cx),
            Some(Action::SaveDraft) => return save(inbox, cx, After::Stay),
            Some(Action::FindInBody) => return with_editor(inbox, open_find),
            Some(Action::Undo) => return with_editor(inbox, |e| undo(e, true)),
            Some(Action::Redo) => return with_editor(inbox, |e| undo(e, false)),
            Some(Action::ToggleQuote) => return super::reply::toggle_quote(inbox, cx),
            _ => {}
        }
    }
    if inbox.editor.as_ref().is_some_and(|e| e.find.is_some()) {
        let keymap = cx.keymap;
        return with_editor(inbox, |e| find_key(e, keymap, key));
    }
    if fixed_keys::CLOSE.matches(&key) {
        close(inbox, cx)
    } else if fixed_keys::NEXT.matches(&key) {
        with_editor(inbox, |e| move_focus(e, true))
    } else if fixed_keys::PREV.matches(&key) {
        with_editor(inbox, |e| move_focus(e, false))
    } else {
        with_editor(inbox, |e| type_key(e, cx, key))
    }
}

/// Runs `f` on the open editor (nothing happens without one).
fn with_editor(inbox: &mut InboxModel, f: impl FnOnce(&mut Editor) -> Vec<Cmd>) -> Vec<Cmd> {
    inbox.editor.as_mut().map_or_else(Vec::new, f)
}

/// Moves the focus along From … Subject, Body (and round), over the
/// fields that take it.
fn move_focus(e: &mut Editor, forward: bool) -> Vec<Cmd> {
    for _ in 0..=FIELDS.len() {
        step_focus(e, forward);
        if e.in_body || e.focusable(e.form.focus) {
            break;
        }
    }
    Vec::new()
}

/// One step of [`move_focus`].
fn step_focus(e: &mut Editor, forward: bool) {
    let last = FIELDS.len() - 1;
    match (e.in_body, forward) {
        (true, true) => {
            e.in_body = false;
            e.form.focus = 0;
        }
        (true, false) => {
            e.in_body = false;
            e.form.focus = last;
        }
        (false, true) if e.form.focus >= last => e.in_body = true,
        (false, true) => e.form.focus += 1,
        (false, false) if e.form.focus == 0 => e.in_body = true,
        (false, false) => e.form.focus -= 1,
    }
}

/// A key for the focused field or the body.
fn type_key(e: &mut Editor, cx: &mut Ctx<'_>, key: KeyEvent) -> Vec<Cmd> {
    if e.in_body {
        if e.body_locked {
            return refuse(
                cx,
                "Read-only body",
                "this body can only be changed in the web dashboard",
            );
        }
        if crate::app::form::edit_key(&mut e.body, key) {
            edited(e);
        }
        return Vec::new();
    }
    let on_text = e.form.focus > 0;
    match key.code {
        KeyCode::Enter | KeyCode::Down => return move_focus(e, true),
        KeyCode::Up if (0..e.form.focus).any(|i| e.focusable(i)) => return move_focus(e, false),
        KeyCode::Up => return Vec::new(),
        _ => {}
    }
    let focus = e.form.focus;
    let before = e
        .form
        .fields
        .get(focus)
        .map(|f| (f.choice, f.text.lines().to_vec()));
    if on_text
        || matches!(
            key.code,
            KeyCode::Left | KeyCode::Right | KeyCode::Char(' ')
        )
    {
        e.form.handle_key(key);
    }
    let after = e
        .form
        .fields
        .get(focus)
        .map(|f| (f.choice, f.text.lines().to_vec()));
    if before != after {
        edited(e);
    }
    Vec::new()
}

/// Counts an edit (the keep-draft timer restarts) and clears the note.
pub(super) fn edited(e: &mut Editor) {
    e.edits += 1;
    if e.note.as_deref().is_some_and(|n| n.starts_with("Saved")) {
        e.note = None;
    }
}

/// Undo (`true`) or redo in the focused text box.
fn undo(e: &mut Editor, back: bool) -> Vec<Cmd> {
    let focus = e.form.focus;
    let ta = if e.in_body {
        if e.body_locked {
            return Vec::new();
        }
        &mut e.body
    } else {
        match e.form.fields.get_mut(focus) {
            Some(f) if f.is_text() => &mut f.text,
            _ => return Vec::new(),
        }
    };
    let changed = if back { ta.undo() } else { ta.redo() };
    if changed {
        edited(e);
    }
    Vec::new()
}

/// Opens the find line (or, when open, finds the next match).
fn open_find(e: &mut Editor) -> Vec<Cmd> {
    e.in_body = true;
    match &e.find {
        Some(f) => {
            let text = f.input.lines().join(" ");
            let found = super::find::look(&mut e.body, &text, true, false);
            if let Some(f) = e.find.as_mut() {
                f.found = Some(found);
            }
        }
        None => {
            e.find = Some(Find {
                input: TextArea::default(),
                found: None,
            });
        }
    }
    Vec::new()
}

/// A key while the find line is open: Enter (or Down) finds the next
/// match, Up the previous one, Esc closes (as `keymap` binds them);
/// typing finds as it goes.
fn find_key(e: &mut Editor, keymap: &Keymap, key: KeyEvent) -> Vec<Cmd> {
    let action = if matches!(key.code, KeyCode::Char(_)) && !is_chord(&key) {
        None
    } else {
        keymap.action(Scope::Inbox, &key)
    };
    let Some(find) = e.find.as_mut() else {
        return Vec::new();
    };
    let text = find.input.lines().join(" ");
    match action {
        Some(Action::Back) => {
            e.find = None;
            e.body.cancel_selection();
        }
        Some(Action::Open | Action::Down) => {
            find.found = Some(super::find::look(&mut e.body, &text, true, false));
        }
        Some(Action::Up) => find.found = Some(super::find::look(&mut e.body, &text, false, false)),
        _ => {
            if crate::app::form::edit_key(&mut find.input, key) {
                let text = find.input.lines().join(" ");
                find.found = if text.is_empty() {
                    e.body.cancel_selection();
                    None
                } else {
                    Some(super::find::look(&mut e.body, &text, true, true))
                };
            }
        }
    }
    Vec::new()
}

/// Pasted text goes to the focused field (one line) or the body.
pub(crate) fn paste(inbox: &mut InboxModel, cx: &mut Ctx<'_>, text: &str) -> Vec<Cmd> {
    let Some(e) = inbox.editor.as_mut() else {
        return Vec::new();
    };
    let pasted = if let Some(find) = e.find.as_mut() {
        let p = Pasted::inline(text);
        find.input.insert_str(&p.text);
        p
    } else if e.in_body {
        if e.body_locked {
            return Vec::new();
        }
        let p = Pasted::block(text);
        if e.body.insert_str(&p.text) {
            edited(e);
        }
        p
    } else if e.form.focus > 0 {
        let p = Pasted::inline(text);
        e.form.paste(&p.text);
        edited(e);
        p
    } else {
        return Vec::new();
    };
    cx.notify_paste(pasted.notice());
    Vec::new()
}

/// Mouse in the editor: a click focuses a field or the body; the wheel
/// moves through the body.
pub(crate) fn mouse(inbox: &mut InboxModel, cx: &Ctx<'_>, ev: MouseEvent) -> Vec<Cmd> {
    let Some((areas, _)) = super::lines::areas(inbox, cx) else {
        return Vec::new();
    };
    let Some(e) = inbox.editor.as_mut() else {
        return Vec::new();
    };
    match ev.kind {
        MouseEventKind::Down(MouseButton::Left) => {
            if let Some(i) = areas.field_at(ev.column, ev.row) {
                if !e.focusable(i) {
                    return Vec::new();
                }
                e.in_body = false;
                e.form.focus = i;
            } else if areas.in_body(ev.column, ev.row) {
                e.in_body = true;
            }
        }
        MouseEventKind::ScrollDown if areas.in_body(ev.column, ev.row) => {
            for _ in 0..3 {
                e.body.move_cursor(CursorMove::Down);
            }
        }
        MouseEventKind::ScrollUp if areas.in_body(ev.column, ev.row) => {
            for _ in 0..3 {
                e.body.move_cursor(CursorMove::Up);
            }
        }
        _ => {}
    }
    Vec::new()
}
