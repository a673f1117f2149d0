//! The profile as a form: every field of the contract, strings in text
//! boxes (multi-line where long), string arrays as editable lists, `extra`
//! as JSON. What it sends is always the complete profile: the profile it
//! was opened on, with every field set from the form, so a replacement can
//! never be partial.

use std::collections::BTreeMap;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui_textarea::TextArea;

use serde_json::{Map, Value};

use super::diff::{Change, delta};
use super::fields::{ALL, FieldId, Kind, Section, Val};
use super::json_edit::JsonEditor;
use super::list_edit::{ListEditor, ListKey};
use super::text::{block_input, content, edit_key, inert_block, inert_inline, line_input};
use crate::api::model::PutContext;
use crate::app::fixed_keys;
use crate::store::Draft;
use crate::text::sanitize::DisplayText;
use crate::text::sanitize::Pasted;

/// How a field is being edited.
#[derive(Debug, Clone)]
pub enum Input {
    /// One line.
    Line(TextArea<'static>),
    /// Several wrapped lines.
    Long(TextArea<'static>),
    /// An array of strings.
    List(ListEditor),
    /// The `extra` object.
    Json(JsonEditor),
}

/// One field of the form.
#[derive(Debug, Clone)]
pub struct EditField {
    /// Which field.
    pub id: FieldId,
    /// Its editor.
    pub input: Input,
    /// The service's complaint about it, or the client's.
    pub error: Option<String>,
    /// A text field's text as first shown (to tell an untouched field).
    initial: String,
}

impl EditField {
    fn new(id: FieldId, base: &PutContext) -> EditField {
        let (input, initial) = match id.get(base) {
            Val::Text(raw) => {
                // A short field holding a line break is edited over several
                // lines, so the break survives an edit.
                if id.kind() == Kind::Line && !raw.contains('\n') {
                    let shown = DisplayText::inline(raw).into_string();
                    (Input::Line(line_input(&shown)), shown)
                } else {
                    let shown = DisplayText::block(raw).into_string();
                    (Input::Long(block_input(&shown)), shown)
                }
            }
            Val::List(items) => (Input::List(ListEditor::new(items)), String::new()),
            Val::Json(map) => (Input::Json(JsonEditor::new(map)), String::new()),
        };
        EditField {
            id,
            input,
            error: None,
            initial,
        }
    }

    /// Whether the field differs from how it was first shown.
    pub fn is_dirty(&self) -> bool {
        match &self.input {
            Input::Line(t) | Input::Long(t) => content(t) != self.initial,
            Input::List(l) => l.is_dirty(),
            Input::Json(j) => j.is_dirty(),
        }
    }

    /// The field as draft text (a list as a JSON array of its items).
    fn draft_text(&self) -> String {
        match &self.input {
            Input::Line(t) | Input::Long(t) => content(t),
            Input::List(l) => serde_json::to_string(&l.texts()).unwrap_or_default(),
            Input::Json(j) => j.content(),
        }
    }

    fn restore(&mut self, text: &str) {
        match &mut self.input {
            Input::Line(t) => *t = line_input(&inert_inline(text)),
            Input::Long(t) => *t = block_input(&inert_block(text)),
            Input::List(l) => {
                let items: Vec<String> = serde_json::from_str(text).unwrap_or_default();
                let items: Vec<String> = items.iter().map(|s| inert_inline(s)).collect();
                l.set_texts(&items);
            }
            Input::Json(j) => j.set_text(&inert_block(text)),
        }
    }

    /// The field's value as it would be sent; a `Json` field that is not
    /// a valid object is the error.
    fn value(&self, base: &PutContext) -> Result<Owned, String> {
        Ok(match &self.input {
            Input::Line(t) | Input::Long(t) => {
                let text = content(t);
                Owned::Text(if text == self.initial {
                    match self.id.get(base) {
                        Val::Text(raw) => raw.to_owned(),
                        _ => text,
                    }
                } else {
                    text.trim().to_owned()
                })
            }
            Input::List(l) => Owned::List(l.value()),
            Input::Json(j) => Owned::Json(j.value()?),
        })
    }

    /// Writes the field into `out`.
    fn write(&self, base: &PutContext, out: &mut PutContext) -> Result<(), String> {
        match self.value(base)? {
            Owned::Text(v) => {
                if let Some(slot) = self.id.text_mut(out) {
                    *slot = v;
                }
            }
            Owned::List(v) => {
                if let Some(slot) = self.id.list_mut(out) {
                    *slot = v;
                }
            }
            Owned::Json(v) => out.context.extra = v,
        }
        Ok(())
    }

    /// How the field changes the stored profile (`None`: it does not, or
    /// it cannot be sent yet).
    fn change(&self, base: &PutContext) -> Option<Change> {
        let value = self.value(base).ok()?;
        let new = match &value {
            Owned::Text(v) => Val::Text(v),
            Owned::List(v) => Val::List(v),
            Owned::Json(v) => Val::Json(v),
        };
        let delta = delta(self.id.get(base), new)?;
        Some(Change {
            field: self.id,
            delta,
        })
    }
}

/// A field's value, owned.
enum Owned {
    Text(String),
    List(Vec<String>),
    Json(Map<String, Value>),
}

/// The form.
#[derive(Debug, Clone)]
pub struct Editor {
    /// Every field of the profile, in order.
    pub fields: Vec<EditField>,
    /// The focused field.
    pub focus: usize,
    /// The stored profile the form was opened on.
    pub base: PutContext,
    /// The service did not send the `profile` object: its four fields
    /// start empty, and what is typed there is what will be stored.
    pub profile_missing: bool,
    /// A message for the whole form (the service's answer).
    pub note: Option<String>,
    /// What the form changes so far (recomputed after every edit).
    pub changes: Vec<Change>,
}

impl Editor {
    /// A form over the stored profile.
    pub fn new(base: PutContext, profile_missing: bool) -> Editor {
        let fields = ALL.iter().map(|f| EditField::new(*f, &base)).collect();
        Editor {
            fields,
            focus: 0,
            base,
            profile_missing,
            note: None,
            changes: Vec::new(),
        }
    }

    /// The field being edited.
    pub fn focused(&self) -> FieldId {
        self.fields
            .get(self.focus)
            .map_or(FieldId::FirstName, |f| f.id)
    }

    /// Focuses a field.
    pub fn focus_on(&mut self, id: FieldId) {
        if let Some(i) = self.fields.iter().position(|f| f.id == id) {
            self.focus = i;
        }
    }

    /// The field `id`.
    pub fn field(&self, id: FieldId) -> Option<&EditField> {
        self.fields.iter().find(|f| f.id == id)
    }

    /// Whether anything differs from the stored profile it was opened on.
    pub fn is_dirty(&self) -> bool {
        self.fields.iter().any(EditField::is_dirty)
    }

    /// The complete replacement: the stored profile with every field set
    /// from the form; the errors are the fields that cannot be sent.
    pub fn request(&self) -> Result<PutContext, Vec<(FieldId, String)>> {
        let mut out = self.base.clone();
        let errors: Vec<(FieldId, String)> = self
            .fields
            .iter()
            .filter_map(|f| f.write(&self.base, &mut out).err().map(|e| (f.id, e)))
            .collect();
        if errors.is_empty() {
            Ok(out)
        } else {
            Err(errors)
        }
    }

    /// Recomputes [`Editor::changes`]; `extra` counts as unchanged while
    /// its text is not a valid object.
    pub fn refresh_changes(&mut self) {
        self.changes = self
            .fields
            .iter()
            .filter_map(|f| f.change(&self.base))
            .collect();
    }

    /// Recomputes the change of the focused field only (after a key: the
    /// others did not move, and a long list or a large `extra` elsewhere
    /// costs nothing).
    fn refresh_focused(&mut self) {
        let Some(f) = self.fields.get(self.focus) else {
            return;
        };
        let id = f.id;
        let change = f.change(&self.base);
        self.changes.retain(|c| c.field != id);
        if let Some(c) = change {
            // Keep field order: the fields are in `ALL` order, as are ids.
            let at = self.changes.partition_point(|c| c.field < id);
            self.changes.insert(at, c);
        }
    }

    /// Marks a field with an error and focuses the first marked field.
    pub fn set_error(&mut self, id: FieldId, message: &str) {
        let Some(i) = self.fields.iter().position(|f| f.id == id) else {
            return;
        };
        let first = self.fields[..i].iter().all(|f| f.error.is_none());
        let f = &mut self.fields[i];
        f.error = Some(match f.error.take() {
            Some(prev) => format!("{prev}; {message}"),
            None => message.to_owned(),
        });
        if first {
            self.focus = i;
        }
    }

    /// Clears every field error and the note.
    pub fn clear_errors(&mut self) {
        for f in &mut self.fields {
            f.error = None;
        }
        self.note = None;
    }

    /// The changed fields as a local draft (untouched fields are left out,
    /// so a draft restored over a newer stored profile changes only what
    /// was typed).
    pub fn draft(&self) -> Draft {
        let fields: BTreeMap<String, String> = self
            .fields
            .iter()
            .filter(|f| f.is_dirty())
            .map(|f| (f.id.key().to_owned(), f.draft_text()))
            .collect();
        Draft {
            title: "company profile".into(),
            fields,
        }
    }

    /// Puts a draft's fields back.
    pub fn restore(&mut self, draft: &Draft) {
        for f in &mut self.fields {
            if let Some(text) = draft.fields.get(f.id.key()) {
                f.restore(text);
            }
        }
        if let Some(i) = self.fields.iter().position(EditField::is_dirty) {
            self.focus = i;
        }
        self.refresh_changes();
    }

    /// Inserts pasted text into the focused field (made inert); returns
    /// the notice of a paste the field did not take whole.
    pub fn paste(&mut self, text: &str) -> Option<String> {
        let mut notice = None;
        if let Some(f) = self.fields.get_mut(self.focus) {
            notice = match &mut f.input {
                Input::Line(t) => {
                    let p = Pasted::inline(text);
                    t.insert_str(&p.text);
                    p.notice()
                }
                Input::Long(t) => {
                    let p = Pasted::block(text);
                    t.insert_str(&p.text);
                    p.notice()
                }
                Input::List(l) => l.paste(text),
                Input::Json(j) => j.paste(text),
            };
            f.error = None;
        }
        self.refresh_focused();
        notice
    }

    /// Handles a key the form's keymap actions left (saving, closing and
    /// the section jumps are bound in the keymap and handled before): Tab
    /// and Shift-Tab step through the fields, the rest edits the focused
    /// one.
    pub fn key(&mut self, key: KeyEvent) {
        if fixed_keys::NEXT.matches(&key) {
            self.step(true);
        } else if fixed_keys::PREV.matches(&key) {
            self.step(false);
        } else {
            self.field_key(key);
        }
    }

    fn field_key(&mut self, key: KeyEvent) {
        let Some(f) = self.fields.get_mut(self.focus) else {
            return;
        };
        let plain = key.modifiers == KeyModifiers::NONE;
        let leave = match &mut f.input {
            Input::Line(t) => match key.code {
                KeyCode::Up if plain => Some(false),
                KeyCode::Down | KeyCode::Enter if plain => Some(true),
                _ => {
                    edit_key(t, key);
                    None
                }
            },
            Input::Long(t) => {
                let before = t.cursor();
                let moving = matches!(key.code, KeyCode::Up | KeyCode::Down) && plain;
                edit_key(t, key);
                (moving && t.cursor() == before).then_some(key.code == KeyCode::Down)
            }
            Input::List(l) => leave_of(l.key(key)),
            Input::Json(j) => leave_of(j.key(key)),
        };
        match leave {
            Some(forward) => self.step(forward),
            None => {
                if let Some(f) = self.fields.get_mut(self.focus) {
                    f.error = None;
                }
                self.refresh_focused();
            }
        }
    }

    fn step(&mut self, forward: bool) {
        let n = self.fields.len();
        if n == 0 {
            return;
        }
        self.focus = if forward {
            (self.focus + 1).min(n - 1)
        } else {
            self.focus.saturating_sub(1)
        };
    }

    /// PgDn: the first field of the next section; PgUp: the first field of
    /// this section, or of the one above when already there.
    pub fn jump_section(&mut self, forward: bool) {
        let here = self.focused().section();
        let first = |s: Section| self.fields.iter().position(|f| f.id.section() == s);
        let target = if forward {
            Section::ALL
                .iter()
                .skip_while(|s| **s != here)
                .nth(1)
                .and_then(|s| first(*s))
        } else {
            let start = first(here).unwrap_or(0);
            if start < self.focus {
                Some(start)
            } else {
                Section::ALL
                    .iter()
                    .rev()
                    .skip_while(|s| **s != here)
                    .nth(1)
                    .and_then(|s| first(*s))
            }
        };
        if let Some(i) = target {
            self.focus = i;
        }
    }
}

fn leave_of(k: ListKey) -> Option<bool> {
    match k {
        ListKey::Edited => None,
        ListKey::Leave { forward } => Some(forward),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn stored() -> PutContext {
        let mut p = PutContext::default();
        p.profile.first_name = "Maya".into();
        p.profile.website = "https://northwind.example".into();
        p.context.company.overview = "We build \u{1b}[1mforecasts".into();
        p.context.content.preferred_tone = "line one\nline two".into();
        p.context.market.icp_keywords = vec!["RevOps".into(), "CRM".into()];
        p.context.extra = json!({"demo": true})
            .as_object()
            .cloned()
            .unwrap_or_default();
        p
    }

    fn k(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    fn typed(e: &mut Editor, s: &str) {
        for c in s.chars() {
            e.key(k(KeyCode::Char(c)));
        }
    }

    #[test]
    fn an_untouched_form_sends_the_stored_profile_exactly() {
        let e = Editor::new(stored(), false);
        assert!(!e.is_dirty());
        assert_eq!(e.request(), Ok(stored()));
        assert!(
            matches!(
                e.field(FieldId::PreferredTone).map(|f| &f.input),
                Some(Input::Long(_))
            ),
            "a short field with a line break is edited over lines"
        );
    }

    #[test]
    fn one_edit_sends_the_whole_profile_with_that_change() {
        let mut e = Editor::new(stored(), false);
        e.focus_on(FieldId::LastName);
        typed(&mut e, "Chen ");
        let sent = e.request().expect("valid");
        let mut want = stored();
        want.profile.last_name = "Chen".into();
        assert_eq!(sent, want, "complete, with the one change, trimmed");
        assert_eq!(e.changes.len(), 1);
        assert_eq!(e.changes[0].field, FieldId::LastName);
    }

    #[test]
    fn invalid_extra_blocks_the_request_and_names_the_field() {
        let mut e = Editor::new(stored(), false);
        e.focus_on(FieldId::Extra);
        e.key(k(KeyCode::Char('x')));
        let errors = e.request().expect_err("not JSON");
        assert_eq!(errors[0].0, FieldId::Extra);
        assert!(errors[0].1.starts_with("line 1, column 1"), "{errors:?}");
        assert!(e.changes.is_empty(), "an invalid extra is not a change yet");
    }

    #[test]
    fn keys_move_between_fields_and_sections() {
        let mut e = Editor::new(stored(), false);
        e.key(k(KeyCode::Tab));
        assert_eq!(e.focused(), FieldId::LastName);
        e.key(k(KeyCode::Enter));
        assert_eq!(
            e.focused(),
            FieldId::CompanyName,
            "Enter on a line moves on"
        );
        e.jump_section(true);
        assert_eq!(e.focused(), FieldId::ProfessionalBackground);
        e.jump_section(true);
        assert_eq!(e.focused(), FieldId::Overview);
        e.key(k(KeyCode::Down));
        assert_eq!(e.focused(), FieldId::Product, "↓ on the last line leaves");
        e.jump_section(false);
        assert_eq!(e.focused(), FieldId::Overview);
        e.jump_section(false);
        assert_eq!(e.focused(), FieldId::ProfessionalBackground);
        e.key(KeyEvent::new(KeyCode::BackTab, KeyModifiers::SHIFT));
        assert_eq!(e.focused(), FieldId::Website, "Shift-Tab goes back");
    }

    #[test]
    fn drafts_hold_only_what_was_changed_and_come_back() {
        let mut e = Editor::new(stored(), false);
        e.focus_on(FieldId::IcpKeywords);
        e.key(k(KeyCode::Enter));
        typed(&mut e, "pipeline");
        e.focus_on(FieldId::Overview);
        typed(&mut e, "Now: ");
        let draft = e.draft();
        let keys: Vec<&str> = draft.fields.keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            ["context.company.overview", "context.market.icpKeywords"]
        );
        let mut newer = stored();
        newer.profile.first_name = "Mia".into();
        let mut again = Editor::new(newer.clone(), false);
        again.restore(&draft);
        let sent = again.request().expect("valid");
        assert_eq!(
            sent.profile.first_name, "Mia",
            "untouched fields follow the newer profile"
        );
        assert_eq!(
            sent.context.market.icp_keywords,
            ["RevOps", "pipeline", "CRM"]
        );
        assert_eq!(sent.context.company.overview, "Now: We build forecasts");
        assert_eq!(
            again.focused(),
            FieldId::Overview,
            "the first changed field has focus"
        );
    }

    #[test]
    fn the_changes_follow_each_edit_in_field_order() {
        let mut e = Editor::new(stored(), false);
        e.focus_on(FieldId::Extra);
        e.key(k(KeyCode::Char(' ')));
        e.focus_on(FieldId::Website);
        typed(&mut e, "/x");
        e.focus_on(FieldId::IcpKeywords);
        e.key(KeyEvent::new(KeyCode::Char('d'), KeyModifiers::CONTROL));
        let fields: Vec<FieldId> = e.changes.iter().map(|c| c.field).collect();
        assert_eq!(
            fields,
            [FieldId::Website, FieldId::IcpKeywords],
            "a space in extra is the same object"
        );
        e.focus_on(FieldId::Website);
        e.key(k(KeyCode::Backspace));
        e.key(k(KeyCode::Backspace));
        let live = e.changes.clone();
        e.refresh_changes();
        assert_eq!(live, e.changes, "kept in step with a full recount");
        assert_eq!(live.len(), 1, "the website is as stored again");
    }

    #[test]
    fn errors_mark_the_field_and_focus_it() {
        let mut e = Editor::new(stored(), false);
        e.focus_on(FieldId::Extra);
        e.set_error(FieldId::Website, "must be a URL");
        assert_eq!(e.focused(), FieldId::Website);
        typed(&mut e, "/");
        assert_eq!(
            e.field(FieldId::Website).and_then(|f| f.error.clone()),
            None,
            "typing clears it"
        );
    }
}
