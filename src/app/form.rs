//! A form built on ratatui-textarea: single-line and multi-line text, lists
//! of strings (one per line), toggles and selects, with per-field errors.
//! App keys are checked before the text box sees a key (Tab moves, Ctrl-S
//! submits, Esc cancels), so shortcuts are never swallowed.
//!
//! Every text box edits with [`edit_key`]: the readline keys people expect
//! from a shell, in every field, the command line and a pane's own text
//! areas alike.

use std::collections::BTreeMap;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui_textarea::{TextArea, WrapMode};

use super::fixed_keys::{self, FixedKey};

/// Edits a text area with one key, readline style; returns whether the
/// text changed. Call it instead of `TextArea::input` for every text box a
/// pane owns, so the keys are the same everywhere:
///
/// - `Ctrl-U` deletes to the start of the line (ratatui-textarea would undo),
/// - `Ctrl-W` (and `Alt-Backspace`) deletes the word before the cursor,
/// - `Ctrl-A` / `Ctrl-E` go to the start / end of the line (Home / End too),
/// - `Ctrl-K` deletes to the end of the line; `Ctrl-Y` puts back what the
///   last of these deleted,
/// - `Ctrl-_` undoes (`Ctrl-R` redoes); `Alt-B` / `Alt-F` move by words.
///
/// Keys the caller gives a meaning of its own (Enter, Tab, Esc, Ctrl-S)
/// should be handled before calling this.
pub(crate) fn edit_key(ta: &mut TextArea<'_>, key: KeyEvent) -> bool {
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    let alt = key.modifiers.contains(KeyModifiers::ALT);
    match key.code {
        KeyCode::Char('u') if ctrl && !alt => ta.delete_line_by_head(),
        // Ctrl-_ arrives as Ctrl-7 from most terminals (0x1F).
        KeyCode::Char('_' | '7') if ctrl && !alt => ta.undo(),
        _ => ta.input(key),
    }
}

/// What a form-wide key does (see [`Form::keys`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FormKey {
    /// Closes the form.
    Cancel,
    /// Sends it.
    Submit,
    /// The next field.
    Next,
    /// The previous field.
    Prev,
}

/// What a field holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FieldKind {
    /// One line of text.
    Text,
    /// Several lines of text (soft-wrapped).
    Multiline {
        /// Rows on screen.
        height: u16,
    },
    /// A list of strings, one per line.
    List {
        /// Rows on screen.
        height: u16,
    },
    /// On or off.
    Toggle,
    /// One of a fixed set of choices.
    Select(Vec<String>),
    /// Any number of a list of choices, ticked one by one (↑/↓ move
    /// through them, Space ticks); `Field::choice` is the cursor.
    Checklist(Vec<String>),
    /// A heading between groups of fields (not focusable).
    Section,
}

/// One field.
#[derive(Debug, Clone)]
pub struct Field {
    /// Stable key (used by validation and drafts).
    pub key: &'static str,
    /// Label shown above or beside it.
    pub label: String,
    /// One line of help under it.
    pub help: String,
    /// What it holds.
    pub kind: FieldKind,
    /// Whether it must be filled.
    pub required: bool,
    /// Text content (text, multiline, list).
    pub text: TextArea<'static>,
    /// Toggle state.
    pub on: bool,
    /// Select state (the cursor of a checklist).
    pub choice: usize,
    /// Checklist state, one per choice.
    pub checks: Vec<bool>,
    /// The validation message, if any.
    pub error: Option<String>,
}

impl Field {
    fn new(key: &'static str, label: &str, help: &str, kind: FieldKind) -> Field {
        let mut text = TextArea::default();
        if matches!(kind, FieldKind::Multiline { .. }) {
            text.set_wrap_mode(WrapMode::WordOrGlyph);
        }
        Field {
            key,
            label: label.to_owned(),
            help: help.to_owned(),
            kind,
            required: false,
            text,
            on: false,
            choice: 0,
            checks: Vec::new(),
            error: None,
        }
    }

    /// Whether focus can land here.
    pub fn focusable(&self) -> bool {
        self.kind != FieldKind::Section
    }

    /// Whether it edits text.
    pub fn is_text(&self) -> bool {
        matches!(
            self.kind,
            FieldKind::Text | FieldKind::Multiline { .. } | FieldKind::List { .. }
        )
    }

    /// Rows the field's input takes on screen.
    pub fn input_height(&self) -> u16 {
        match &self.kind {
            FieldKind::Multiline { height } | FieldKind::List { height } => *height,
            FieldKind::Checklist(items) => {
                u16::try_from(items.len()).unwrap_or(u16::MAX).clamp(1, 6)
            }
            FieldKind::Section => 0,
            _ => 1,
        }
    }

    /// The value as draft text.
    fn snapshot(&self) -> Option<String> {
        match &self.kind {
            FieldKind::Section => None,
            FieldKind::Toggle => Some(self.on.to_string()),
            FieldKind::Select(_) => Some(self.choice.to_string()),
            FieldKind::Checklist(_) => Some(
                self.checks
                    .iter()
                    .enumerate()
                    .filter(|(_, on)| **on)
                    .map(|(i, _)| i.to_string())
                    .collect::<Vec<_>>()
                    .join(","),
            ),
            _ => Some(self.text.lines().join("\n")),
        }
    }
}

/// What a key did to the form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FormEvent {
    /// Nothing the caller needs to act on (a redraw may still be due).
    Edited,
    /// The key was not for the form.
    Ignored,
    /// Submit (Ctrl-S, or Enter on the last single-line field).
    Submit,
    /// Cancel (Esc).
    Cancel,
}

/// A form.
#[derive(Debug, Clone)]
pub struct Form {
    /// Title of the dialog or pane section.
    pub title: String,
    /// Fields in order.
    pub fields: Vec<Field>,
    /// Index of the focused field.
    pub focus: usize,
    /// A message for the whole form (e.g. the service's answer).
    pub note: Option<String>,
    /// Label of the submit action in hints.
    pub submit_label: String,
    initial: BTreeMap<String, String>,
}

impl Form {
    /// An empty form.
    pub fn new(title: &str, submit_label: &str) -> Form {
        Form {
            title: title.to_owned(),
            fields: Vec::new(),
            focus: 0,
            note: None,
            submit_label: submit_label.to_owned(),
            initial: BTreeMap::new(),
        }
    }

    fn with(mut self, field: Field) -> Form {
        self.fields.push(field);
        if !self.fields[self.focus].focusable() {
            self.focus = self.fields.len() - 1;
        }
        self.initial = self.snapshot();
        self
    }

    /// Adds a single-line text field.
    pub fn text(self, key: &'static str, label: &str, help: &str) -> Form {
        self.with(Field::new(key, label, help, FieldKind::Text))
    }

    /// Adds a required single-line text field.
    pub fn required_text(self, key: &'static str, label: &str, help: &str) -> Form {
        let mut f = Field::new(key, label, help, FieldKind::Text);
        f.required = true;
        self.with(f)
    }

    /// Adds a multi-line text field.
    pub fn multiline(self, key: &'static str, label: &str, help: &str, height: u16) -> Form {
        self.with(Field::new(
            key,
            label,
            help,
            FieldKind::Multiline { height },
        ))
    }

    /// Adds a list-of-strings field (one per line).
    pub fn list(self, key: &'static str, label: &str, help: &str, height: u16) -> Form {
        self.with(Field::new(key, label, help, FieldKind::List { height }))
    }

    /// Adds a toggle.
    pub fn toggle(self, key: &'static str, label: &str, help: &str, on: bool) -> Form {
        let mut f = Field::new(key, label, help, FieldKind::Toggle);
        f.on = on;
        self.with(f)
    }

    /// Adds a select over `options`.
    pub fn select(self, key: &'static str, label: &str, help: &str, options: &[&str]) -> Form {
        let opts = options.iter().map(|s| (*s).to_owned()).collect();
        self.with(Field::new(key, label, help, FieldKind::Select(opts)))
    }

    /// Adds a checklist over `items`, ticked where `checked` says so.
    pub fn checklist(
        self,
        key: &'static str,
        label: &str,
        help: &str,
        items: &[String],
        checked: &[bool],
    ) -> Form {
        let mut f = Field::new(key, label, help, FieldKind::Checklist(items.to_vec()));
        f.checks = (0..items.len())
            .map(|i| checked.get(i).copied().unwrap_or(false))
            .collect();
        self.with(f)
    }

    /// Adds a section heading.
    pub fn section(self, label: &str, help: &str) -> Form {
        self.with(Field::new("", label, help, FieldKind::Section))
    }

    fn field(&self, key: &str) -> Option<&Field> {
        self.fields.iter().find(|f| f.key == key && f.focusable())
    }

    fn field_mut(&mut self, key: &str) -> Option<&mut Field> {
        self.fields
            .iter_mut()
            .find(|f| f.key == key && f.focusable())
    }

    /// Text of a field, lines joined with `\n`, trimmed.
    pub fn value(&self, key: &str) -> String {
        self.field(key)
            .map(|f| f.text.lines().join("\n").trim().to_owned())
            .unwrap_or_default()
    }

    /// Non-empty trimmed lines of a list field.
    pub fn items(&self, key: &str) -> Vec<String> {
        self.field(key)
            .map(|f| {
                f.text
                    .lines()
                    .iter()
                    .map(|l| l.trim().to_owned())
                    .filter(|l| !l.is_empty())
                    .collect()
            })
            .unwrap_or_default()
    }

    /// A toggle's state.
    pub fn is_on(&self, key: &str) -> bool {
        self.field(key).is_some_and(|f| f.on)
    }

    /// A select's chosen option.
    pub fn choice(&self, key: &str) -> &str {
        match self.field(key) {
            Some(Field {
                kind: FieldKind::Select(opts),
                choice,
                ..
            }) => opts.get(*choice).map_or("", String::as_str),
            _ => "",
        }
    }

    /// The ticked indices of a checklist.
    pub fn checked(&self, key: &str) -> Vec<usize> {
        self.field(key)
            .map(|f| {
                f.checks
                    .iter()
                    .enumerate()
                    .filter(|(_, on)| **on)
                    .map(|(i, _)| i)
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Replaces a text field's content.
    pub fn set_value(&mut self, key: &str, value: &str) {
        if let Some(f) = self.field_mut(key) {
            let lines: Vec<String> = if matches!(f.kind, FieldKind::Text) {
                vec![value.replace(['\n', '\r'], " ")]
            } else {
                value.lines().map(str::to_owned).collect()
            };
            let mut ta = TextArea::new(lines);
            if matches!(f.kind, FieldKind::Multiline { .. }) {
                ta.set_wrap_mode(WrapMode::WordOrGlyph);
            }
            ta.move_cursor(ratatui_textarea::CursorMove::End);
            f.text = ta;
        }
    }

    /// Chooses an option of a select by text.
    pub fn set_choice(&mut self, key: &str, option: &str) {
        if let Some(f) = self.field_mut(key)
            && let FieldKind::Select(opts) = &f.kind
            && let Some(i) = opts.iter().position(|o| o == option)
        {
            f.choice = i;
        }
    }

    /// Sets a toggle.
    pub fn set_on(&mut self, key: &str, on: bool) {
        if let Some(f) = self.field_mut(key) {
            f.on = on;
        }
    }

    /// Clears every field error and the note.
    pub fn clear_errors(&mut self) {
        for f in &mut self.fields {
            f.error = None;
        }
        self.note = None;
    }

    /// Re-checks the errors shown against `errors` (a fresh check of the
    /// whole form): a field keeps its error only while the check still
    /// finds one there, so fixing the other end of a range clears it at
    /// once; no field gains an error while the user types, and the focus
    /// stays.
    pub fn recheck_errors(&mut self, errors: &[(&str, String)]) {
        for f in &mut self.fields {
            if f.error.is_none() {
                continue;
            }
            let now: Vec<&str> = errors
                .iter()
                .filter(|(k, _)| *k == f.key)
                .map(|(_, m)| m.as_str())
                .collect();
            f.error = (!now.is_empty()).then(|| now.join("; "));
        }
    }

    /// Marks a field with an error and focuses the first marked field.
    pub fn set_error(&mut self, key: &str, message: &str) {
        if let Some(i) = self
            .fields
            .iter()
            .position(|f| f.key == key && f.focusable())
        {
            let f = &mut self.fields[i];
            f.error = Some(match f.error.take() {
                Some(prev) => format!("{prev}; {message}"),
                None => message.to_owned(),
            });
            if self.fields[..i].iter().all(|f| f.error.is_none()) {
                self.focus = i;
            }
        } else {
            self.note = Some(message.to_owned());
        }
    }

    /// Whether any field has an error.
    pub fn has_errors(&self) -> bool {
        self.fields.iter().any(|f| f.error.is_some())
    }

    /// Required fields left empty, as errors; true when all are filled.
    pub fn check_required(&mut self) -> bool {
        let missing: Vec<&'static str> = self
            .fields
            .iter()
            .filter(|f| f.required && f.text.lines().join("").trim().is_empty())
            .map(|f| f.key)
            .collect();
        for key in &missing {
            self.set_error(key, "required");
        }
        missing.is_empty()
    }

    /// Every field's value, for a local draft.
    pub fn snapshot(&self) -> BTreeMap<String, String> {
        self.fields
            .iter()
            .filter_map(|f| f.snapshot().map(|v| (f.key.to_owned(), v)))
            .collect()
    }

    /// Refills fields from a draft.
    pub fn restore(&mut self, draft: &BTreeMap<String, String>) {
        for (key, value) in draft {
            let Some(kind) = self.field(key).map(|f| f.kind.clone()) else {
                continue;
            };
            match kind {
                FieldKind::Toggle => self.set_on(key, value == "true"),
                FieldKind::Select(opts) => {
                    if let Some(f) = self.field_mut(key) {
                        f.choice = value.parse().unwrap_or(0).min(opts.len().saturating_sub(1));
                    }
                }
                FieldKind::Checklist(_) => {
                    if let Some(f) = self.field_mut(key) {
                        let ticked: Vec<usize> =
                            value.split(',').filter_map(|v| v.parse().ok()).collect();
                        for (i, on) in f.checks.iter_mut().enumerate() {
                            *on = ticked.contains(&i);
                        }
                    }
                }
                _ => self.set_value(key, value),
            }
        }
    }

    /// Whether anything differs from how the form started.
    pub fn is_dirty(&self) -> bool {
        self.snapshot() != self.initial
    }

    /// Treats the current content as the starting point (after a restore).
    pub fn mark_clean(&mut self) {
        self.initial = self.snapshot();
    }

    fn move_focus(&mut self, forward: bool) {
        let n = self.fields.len();
        if n == 0 {
            return;
        }
        let mut i = self.focus;
        for _ in 0..n {
            i = if forward {
                (i + 1) % n
            } else {
                (i + n - 1) % n
            };
            if self.fields[i].focusable() {
                self.focus = i;
                return;
            }
        }
    }

    /// Focuses a field by key.
    pub fn focus_key(&mut self, key: &str) {
        if let Some(i) = self
            .fields
            .iter()
            .position(|f| f.key == key && f.focusable())
        {
            self.focus = i;
        }
    }

    fn last_focusable(&self) -> usize {
        self.fields.iter().rposition(Field::focusable).unwrap_or(0)
    }

    /// The keys of the whole form, whatever field has the focus, with the
    /// footer's words for them (`None`: taken, not named): the handler and
    /// the footer both read this list.
    pub fn keys(&self) -> [(FixedKey, FormKey, Option<&str>); 4] {
        [
            (
                fixed_keys::SUBMIT,
                FormKey::Submit,
                Some(&self.submit_label),
            ),
            (fixed_keys::NEXT, FormKey::Next, Some("next field")),
            (fixed_keys::PREV, FormKey::Prev, None),
            (fixed_keys::CLOSE, FormKey::Cancel, Some("cancel")),
        ]
    }

    /// A key of the whole form ([`Form::keys`]).
    fn form_key(&mut self, key: KeyEvent) -> Option<FormEvent> {
        let (_, what, _) = self.keys().into_iter().find(|(k, ..)| k.matches(&key))?;
        Some(match what {
            FormKey::Cancel => FormEvent::Cancel,
            FormKey::Submit => FormEvent::Submit,
            FormKey::Next | FormKey::Prev => {
                self.move_focus(what == FormKey::Next);
                FormEvent::Edited
            }
        })
    }

    /// A key on a focused checklist: move through its items (and on to the
    /// next field at either end), toggle one.
    fn checklist_key(&mut self, code: KeyCode) -> FormEvent {
        let Some(field) = self.fields.get_mut(self.focus) else {
            return FormEvent::Ignored;
        };
        let FieldKind::Checklist(items) = &field.kind else {
            return FormEvent::Ignored;
        };
        match code {
            KeyCode::Down if field.choice + 1 < items.len() => field.choice += 1,
            KeyCode::Down => self.move_focus(true),
            KeyCode::Up if field.choice > 0 => field.choice -= 1,
            KeyCode::Up => self.move_focus(false),
            KeyCode::Char(' ') | KeyCode::Enter => {
                if let Some(on) = field.checks.get_mut(field.choice) {
                    *on = !*on;
                    field.error = None;
                }
            }
            _ => return FormEvent::Ignored,
        }
        FormEvent::Edited
    }

    /// Handles a key.
    pub fn handle_key(&mut self, key: KeyEvent) -> FormEvent {
        if let Some(event) = self.form_key(key) {
            return event;
        }
        if matches!(
            self.fields.get(self.focus).map(|f| &f.kind),
            Some(FieldKind::Checklist(_))
        ) {
            return self.checklist_key(key.code);
        }
        let last = self.last_focusable();
        let focus = self.focus;
        let Some(field) = self.fields.get_mut(focus) else {
            return FormEvent::Ignored;
        };
        match (&field.kind, key.code) {
            (FieldKind::Text, KeyCode::Enter) if focus == last => FormEvent::Submit,
            (FieldKind::Text | FieldKind::Toggle | FieldKind::Select(_), KeyCode::Down)
            | (FieldKind::Text, KeyCode::Enter) => {
                self.move_focus(true);
                FormEvent::Edited
            }
            (FieldKind::Text | FieldKind::Toggle | FieldKind::Select(_), KeyCode::Up) => {
                self.move_focus(false);
                FormEvent::Edited
            }
            (FieldKind::Toggle, KeyCode::Char(' ') | KeyCode::Enter) => {
                field.on = !field.on;
                field.error = None;
                FormEvent::Edited
            }
            (FieldKind::Select(opts), KeyCode::Right | KeyCode::Char(' ') | KeyCode::Enter) => {
                field.choice = (field.choice + 1) % opts.len().max(1);
                field.error = None;
                FormEvent::Edited
            }
            (FieldKind::Select(opts), KeyCode::Left) => {
                let n = opts.len().max(1);
                field.choice = (field.choice + n - 1) % n;
                field.error = None;
                FormEvent::Edited
            }
            (
                FieldKind::Toggle
                | FieldKind::Select(_)
                | FieldKind::Section
                | FieldKind::Checklist(_),
                _,
            ) => FormEvent::Ignored,
            (FieldKind::Text | FieldKind::Multiline { .. } | FieldKind::List { .. }, _) => {
                // Unknown chords (e.g. Ctrl-X) still go to the text box: its
                // emacs-style shortcuts are part of editing.
                if edit_key(&mut field.text, key) {
                    field.error = None;
                }
                FormEvent::Edited
            }
        }
    }

    /// Inserts pasted text into the focused text field.
    pub fn paste(&mut self, text: &str) {
        let focus = self.focus;
        if let Some(f) = self.fields.get_mut(focus)
            && f.is_text()
        {
            let text = if matches!(f.kind, FieldKind::Text) {
                text.replace("\r\n", " ").replace(['\n', '\r'], " ")
            } else {
                text.replace("\r\n", "\n").replace('\r', "\n")
            };
            f.text.insert_str(text);
            f.error = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    fn typed(form: &mut Form, s: &str) {
        for c in s.chars() {
            form.handle_key(key(KeyCode::Char(c)));
        }
    }

    #[test]
    fn typing_tabbing_and_submitting() {
        let mut f = Form::new("t", "Save")
            .required_text("name", "Name", "")
            .section("More", "")
            .list("tags", "Tags", "one per line", 3)
            .toggle("on", "On", "", false)
            .select("kind", "Kind", "", &["a", "b"]);
        assert!(!f.is_dirty());
        typed(&mut f, "Acme");
        assert_eq!(
            f.handle_key(key(KeyCode::Enter)),
            FormEvent::Edited,
            "Enter moves on"
        );
        assert_eq!(f.fields[f.focus].key, "tags", "sections are skipped");
        typed(&mut f, "x");
        f.handle_key(key(KeyCode::Enter));
        typed(&mut f, " y ");
        f.handle_key(key(KeyCode::Tab));
        f.handle_key(key(KeyCode::Char(' ')));
        f.handle_key(key(KeyCode::Tab));
        f.handle_key(key(KeyCode::Right));
        assert_eq!(f.value("name"), "Acme");
        assert_eq!(f.items("tags"), ["x", "y"]);
        assert!(f.is_on("on"));
        assert_eq!(f.choice("kind"), "b");
        assert!(f.is_dirty());
        assert_eq!(
            f.handle_key(KeyEvent::new(KeyCode::Char('s'), KeyModifiers::CONTROL)),
            FormEvent::Submit
        );
        assert_eq!(f.handle_key(key(KeyCode::Esc)), FormEvent::Cancel);
    }

    #[test]
    fn drafts_round_trip_and_errors_focus() {
        let mut f = Form::new("t", "Save")
            .required_text("a", "A", "")
            .multiline("b", "B", "", 3);
        f.set_value("b", "line 1\nline 2");
        let draft = f.snapshot();
        let mut g = Form::new("t", "Save")
            .required_text("a", "A", "")
            .multiline("b", "B", "", 3);
        g.restore(&draft);
        assert_eq!(g.value("b"), "line 1\nline 2");
        g.focus_key("b");
        assert!(!g.check_required());
        assert_eq!(g.fields[g.focus].key, "a");
        assert_eq!(g.fields[0].error.as_deref(), Some("required"));
        g.paste("pasted\nacross lines");
        assert_eq!(g.value("a"), "pasted across lines");
    }

    #[test]
    fn a_checklist_ticks_moves_and_round_trips() {
        let items = vec!["Dana".to_owned(), "Sam".to_owned()];
        let mut f = Form::new("t", "Save")
            .text("name", "Name", "")
            .checklist("senders", "Senders", "", &items, &[true, false])
            .toggle("on", "On", "", false);
        assert_eq!(f.checked("senders"), [0]);
        f.handle_key(key(KeyCode::Tab));
        f.handle_key(key(KeyCode::Down));
        f.handle_key(key(KeyCode::Char(' ')));
        assert_eq!(f.checked("senders"), [0, 1]);
        f.handle_key(key(KeyCode::Up));
        f.handle_key(key(KeyCode::Char(' ')));
        assert_eq!(f.checked("senders"), [1]);
        f.handle_key(key(KeyCode::Down));
        f.handle_key(key(KeyCode::Down));
        assert_eq!(
            f.fields[f.focus].key, "on",
            "past the last item the focus moves on"
        );
        let draft = f.snapshot();
        let mut g = Form::new("t", "Save").text("name", "Name", "").checklist(
            "senders",
            "Senders",
            "",
            &items,
            &[false, false],
        );
        g.restore(&draft);
        assert_eq!(g.checked("senders"), [1]);
    }
}
