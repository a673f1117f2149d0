//! The draft editor: sender (ready email senders only, with why the others
//! are unavailable), recipient, name, cc, bcc, subject, and a body in
//! ratatui-textarea (soft wrap, undo/redo, find).
//!
//! Keys are routed explicitly: the pane's chords first (save, send, find,
//! undo, redo — as the keymap binds them), then Esc and Tab, then the
//! focused text box, so a shortcut is never swallowed and a letter always
//! types.
//!
//! Saving creates the draft (POST) or updates it (PATCH) with only the
//! fields that changed. Every change is kept in the local state one second
//! after the last keystroke, or three seconds after the first one not kept
//! yet while typing goes on (and on quit or a signal), cleared only once
//! the service acknowledged exactly that text, and offered back when that
//! email's editor opens again.

use std::collections::BTreeMap;
use std::time::Duration;

use ratatui_textarea::{CursorMove, TextArea, WrapMode};

use super::{InboxModel, Question, Senders, View, readiness, refuse};
use crate::api::model::{Attachment, Thread};
use crate::app::ctx::Ctx;
use crate::app::fixed_keys::{CLOSE, NO, YES};
use crate::app::form::{FieldKind, Form};
use crate::app::keymap::Action;
use crate::app::pane::Answer;
use crate::app::toast::Level;
use crate::app::{Cmd, Confirm, ConfirmAction};
use crate::store::{Draft, State};
use crate::text::sanitize::{BLOCK_MAX, DisplayText};

mod find;
mod keys;
pub(crate) mod lines;
pub(crate) mod reply;
mod save;

pub(crate) use keys::{key, mouse, paste};
pub(crate) use save::{
    CreateCheck, check_created_again, create_again, on_adopt, on_created, on_saved, save, saving,
};

/// How long after the last edit the text is kept in the local state.
pub(crate) const KEEP_AFTER: Duration = Duration::from_secs(1);
/// How long after the first edit not kept yet the text is kept, however
/// fast the typing goes on (the quiet of [`KEEP_AFTER`] may never come):
/// what a `kill -9` can lose.
pub(crate) const KEEP_WITHIN: Duration = Duration::from_secs(3);
/// Field keys, in form order.
pub(crate) const FIELDS: [&str; 6] = ["from", "to", "name", "cc", "bcc", "subject"];
/// The From field's first option: no sender chosen yet.
const NO_SENDER: &str = "(no sender yet)";

/// Everything a draft holds that the editor edits.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DraftFields {
    /// The sender account, if chosen.
    pub account_id: Option<String>,
    /// The recipient's address.
    pub to: String,
    /// The recipient's name.
    pub name: String,
    /// Cc, comma-separated.
    pub cc: String,
    /// Bcc, comma-separated.
    pub bcc: String,
    /// Subject.
    pub subject: String,
    /// Body, as text.
    pub body: String,
}

impl DraftFields {
    /// The fields of a thread's draft, made inert (the editor shows them).
    pub fn of(t: &Thread) -> DraftFields {
        let inline = |s: Option<&str>| DisplayText::inline(s.unwrap_or("")).into_string();
        DraftFields {
            account_id: t.account_id.clone().filter(|a| !a.is_empty()),
            to: inline(Some(&t.participant_email)),
            name: inline(t.participant_name.as_deref()),
            cc: inline(t.draft_cc.as_deref()),
            bcc: inline(t.draft_bcc.as_deref()),
            subject: inline(t.draft_subject.as_deref()),
            body: DisplayText::block(&draft_body(t)).into_string(),
        }
    }

    /// Whether any text was typed (a sender alone is no draft: the
    /// service refuses `account_id` as the only field).
    pub fn has_text(&self) -> bool {
        [
            &self.to,
            &self.name,
            &self.cc,
            &self.bcc,
            &self.subject,
            &self.body,
        ]
        .iter()
        .any(|s| !s.trim().is_empty())
    }

    /// The local-state form of these fields.
    pub fn to_draft(&self) -> Draft {
        let mut fields = BTreeMap::new();
        if let Some(a) = &self.account_id {
            fields.insert("account_id".into(), a.clone());
        }
        for (k, v) in [
            ("to", &self.to),
            ("name", &self.name),
            ("cc", &self.cc),
            ("bcc", &self.bcc),
            ("subject", &self.subject),
            ("body", &self.body),
        ] {
            fields.insert(k.into(), v.clone());
        }
        let to = if self.to.is_empty() {
            "no recipient yet"
        } else {
            &self.to
        };
        let subject = if self.subject.is_empty() {
            "(no subject)"
        } else {
            &self.subject
        };
        Draft {
            title: format!("email to {to}: {subject}"),
            fields,
        }
    }

    /// Fields read back from the local state.
    pub fn from_draft(d: &Draft) -> DraftFields {
        let get = |k: &str| d.fields.get(k).cloned().unwrap_or_default();
        DraftFields {
            account_id: d
                .fields
                .get("account_id")
                .cloned()
                .filter(|a| !a.is_empty()),
            to: get("to"),
            name: get("name"),
            cc: get("cc"),
            bcc: get("bcc"),
            subject: get("subject"),
            body: get("body"),
        }
    }
}

/// A draft's body as text: the text body, else the HTML body read as
/// text; line ends made `\n`.
pub(crate) fn draft_body(t: &Thread) -> String {
    let text = t.draft_body_text.as_deref().unwrap_or("");
    let raw = if text.is_empty() {
        t.draft_body_html
            .as_deref()
            .map(crate::app::inbox::html::to_text)
            .unwrap_or_default()
    } else {
        crate::app::inbox::html::readable(text)
    };
    raw.replace("\r\n", "\n").replace('\r', "\n")
}

/// The local-state key of an editor's text: per thread, or for a new
/// email not yet saved.
pub(crate) fn draft_key(thread: Option<&str>) -> String {
    match thread {
        Some(id) => format!("inbox-draft:{id}"),
        None => "inbox-draft:new".into(),
    }
}

/// What follows a save once the service acknowledged it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum After {
    /// Keep editing.
    #[default]
    Stay,
    /// Close the editor.
    Close,
    /// Ask to send.
    Send,
}

/// The body's find line.
#[derive(Debug, Clone)]
pub struct Find {
    /// What is looked for.
    pub input: TextArea<'static>,
    /// Whether the last look found it (`None`: nothing typed yet).
    pub found: Option<bool>,
}

/// The open editor.
#[derive(Debug, Clone)]
pub struct Editor {
    /// The draft's thread; `None` until a new email is first saved.
    pub thread: Option<String>,
    /// What the service holds (as last acknowledged): changes are measured
    /// against it.
    pub base: DraftFields,
    /// The body came as HTML (saving the body replaces it with text).
    pub html_body: bool,
    /// The body is larger than the editor holds: it is read-only here.
    pub body_locked: bool,
    /// From, To, Name, Cc, Bcc, Subject.
    pub form: Form,
    /// The sender id behind each option of the From field.
    pub sender_ids: Vec<Option<String>>,
    /// Email senders that cannot be chosen, with why.
    pub unavailable: Vec<String>,
    /// The message body being written (plain text).
    pub body: TextArea<'static>,
    /// The body has the focus (else the focused field of `form`).
    pub in_body: bool,
    /// The find line, while open.
    pub find: Option<Find>,
    /// The draft's attachments (shown; they are added in the web
    /// dashboard).
    pub attachments: Vec<Attachment>,
    /// Edits made so far (the keep-draft timer restarts on each).
    pub edits: u64,
    /// The edit count last kept in the local state.
    pub kept: u64,
    /// What follows the save in flight.
    pub after: After,
    /// The service's last word on a save, or a status.
    pub note: Option<String>,
    /// A "restore your text?" question is open: the kept text is not
    /// touched until it is answered.
    pub restoring: bool,
    /// Where Esc returns to.
    pub back: View,
    /// This editor's number (answers to a closed editor's saves are not
    /// taken by a later one).
    pub session: u64,
    /// The thread as the service last answered it (sending needs it even
    /// when the list's status filter hides the draft).
    pub service: Option<Thread>,
    /// A create whose answer was lost, while the drafts are read to learn
    /// whether it made one (saving waits for the verdict).
    pub created_check: Option<CreateCheck>,
    /// The editor writes a reply in a thread (no draft of the service):
    /// what it answers.
    pub reply: Option<Box<reply::ReplyTo>>,
}

impl Editor {
    /// What the editor holds now.
    pub fn current(&self) -> DraftFields {
        let account_id = self.sender_ids.get(self.choice()).cloned().flatten();
        DraftFields {
            account_id,
            to: self.form.value("to"),
            name: self.form.value("name"),
            cc: self.form.value("cc"),
            bcc: self.form.value("bcc"),
            subject: self.form.value("subject"),
            body: self.body.lines().join("\n"),
        }
    }

    fn choice(&self) -> usize {
        self.form.fields.first().map_or(0, |f| f.choice)
    }

    /// Whether the editor differs from what the service holds.
    pub fn dirty(&self) -> bool {
        self.current() != self.base
    }

    /// Whether closing would lose something: a change to a saved draft, or
    /// any text in a new one.
    pub fn unsaved(&self) -> bool {
        let cur = self.current();
        cur != self.base && (self.thread.is_some() || cur.has_text())
    }

    /// The local-state key of this editor's text (a reply's apart from
    /// its thread's draft).
    pub fn key(&self) -> String {
        match &self.reply {
            Some(r) => reply::reply_key(&r.thread),
            None => draft_key(self.thread.as_deref()),
        }
    }

    /// Whether the field at `i` takes the focus: in a reply, To, Name, Cc
    /// and Bcc are fixed (a reply goes to the participant and carries no
    /// copies), and From too when the thread has its own sender.
    pub fn focusable(&self, i: usize) -> bool {
        let Some(r) = &self.reply else {
            return true;
        };
        match FIELDS.get(i).copied() {
            Some("from") => r.sender.is_none(),
            Some("subject") => true,
            _ => false,
        }
    }

    /// The key of the focused field (`body` for the body).
    pub fn focused(&self) -> &'static str {
        if self.in_body {
            "body"
        } else {
            FIELDS.get(self.form.focus).copied().unwrap_or("body")
        }
    }

    /// Puts `fields` into the editor.
    fn fill(&mut self, f: &DraftFields) {
        for (key, value) in [
            ("to", &f.to),
            ("name", &f.name),
            ("cc", &f.cc),
            ("bcc", &f.bcc),
            ("subject", &f.subject),
        ] {
            self.form.set_value(key, value);
        }
        self.choose_sender(f.account_id.as_deref());
        self.body = body_area(&f.body);
    }

    /// Chooses the option of a sender id (added when it is not offered,
    /// so an existing choice is never silently changed).
    fn choose_sender(&mut self, id: Option<&str>) {
        let i = match id {
            None => 0,
            Some(id) => match self
                .sender_ids
                .iter()
                .position(|s| s.as_deref() == Some(id))
            {
                Some(i) => i,
                None => {
                    self.sender_ids.push(Some(id.to_owned()));
                    if let Some(f) = self.form.fields.first_mut()
                        && let FieldKind::Select(opts) = &mut f.kind
                    {
                        opts.push(format!("{id} (unknown sender)"));
                    }
                    self.sender_ids.len() - 1
                }
            },
        };
        if let Some(f) = self.form.fields.first_mut() {
            f.choice = i;
        }
    }
}

/// A body text area: soft-wrapped, cursor at the end. Its look (cursor,
/// highlights, placeholder) is the view's, from the theme.
fn body_area(text: &str) -> TextArea<'static> {
    let lines: Vec<String> = text.split('\n').map(str::to_owned).collect();
    let mut ta = TextArea::new(lines);
    ta.set_wrap_mode(WrapMode::WordOrGlyph);
    ta.move_cursor(CursorMove::Bottom);
    ta.move_cursor(CursorMove::End);
    ta
}

/// The From options: ready email senders (the default first), the
/// unavailable ones with why.
fn sender_options(senders: &Senders) -> (Vec<String>, Vec<Option<String>>, Vec<String>) {
    let mut labels = vec![NO_SENDER.to_owned()];
    let mut ids = vec![None];
    let mut unavailable = Vec::new();
    for s in senders.email() {
        let label = DisplayText::inline(&crate::app::inbox::sender_label(s)).into_string();
        match readiness(s) {
            Ok(()) => {
                labels.push(label);
                ids.push(Some(s.id.clone()));
            }
            Err(why) => unavailable.push(format!("{label}: {why}")),
        }
    }
    (labels, ids, unavailable)
}

fn build_form(labels: &[String]) -> Form {
    let opts: Vec<&str> = labels.iter().map(String::as_str).collect();
    Form::new("", "")
        .select(
            "from",
            "From",
            "the sender: ready email senders only (←/→ choose)",
            &opts,
        )
        .text("to", "To", "the recipient's address (needed to send)")
        .text("name", "Name", "the recipient's name (optional)")
        .text("cc", "Cc", "addresses separated by commas (optional)")
        .text("bcc", "Bcc", "addresses separated by commas (optional)")
        .text("subject", "Subject", "the subject line")
}

/// A new editor on `base` (an existing draft, or empty).
fn new_editor(inbox: &mut InboxModel, thread: Option<&Thread>, back: View) -> Editor {
    inbox.editors += 1;
    let session = inbox.editors;
    let (labels, ids, unavailable) = sender_options(&inbox.senders);
    let base = thread.map(DraftFields::of).unwrap_or_default();
    let raw_body = thread.map(draft_body).unwrap_or_default();
    let mut e = Editor {
        thread: thread.map(|t| t.id.clone()),
        html_body: thread.is_some_and(|t| {
            t.draft_body_text.as_deref().unwrap_or("").is_empty()
                && !t.draft_body_html.as_deref().unwrap_or("").is_empty()
        }),
        body_locked: raw_body.chars().count() > BLOCK_MAX,
        form: build_form(&labels),
        sender_ids: ids,
        unavailable,
        body: body_area(""),
        in_body: false,
        find: None,
        attachments: thread
            .map(|t| t.draft_attachments.clone())
            .unwrap_or_default(),
        edits: 0,
        kept: 0,
        after: After::Stay,
        note: None,
        restoring: false,
        back,
        session,
        service: thread.cloned(),
        base: base.clone(),
        created_check: None,
        reply: None,
    };
    e.fill(&base);
    e
}

/// The view to return to from the editor.
fn here(inbox: &InboxModel) -> View {
    match inbox.view {
        View::Editor => View::List,
        v => v,
    }
}

/// Opens the editor on a new email (`c`, `:compose [address]`).
pub(crate) fn open_new(inbox: &mut InboxModel, cx: &mut Ctx<'_>, to: Option<&str>) -> Vec<Cmd> {
    if crate::app::read_only::refuse(cx) {
        return Vec::new();
    }
    if let Some(cmds) = reopen(inbox, cx, |e| e.thread.is_none()) {
        return cmds;
    }
    let back = here(inbox);
    let mut e = new_editor(inbox, None, back);
    // The default ready sender is chosen for a new email.
    if let Some(first) = e.sender_ids.get(1).cloned().flatten() {
        e.choose_sender(Some(&first));
        e.base.account_id = Some(first);
    }
    if let Some(to) = to.filter(|t| !t.is_empty()) {
        e.form
            .set_value("to", &DisplayText::inline(to).into_string());
        e.form.focus_key("subject");
    } else {
        e.form.focus_key("to");
    }
    inbox.editor = Some(e);
    inbox.view = View::Editor;
    offer_restore(inbox, cx)
}

/// [`open_new`] on the whole model, for another pane's tests (they
/// check its read-only gate); the pane's own code calls `open_new`.
#[cfg(test)]
pub(crate) fn compose(m: &mut crate::app::Model, to: Option<&str>) -> Vec<Cmd> {
    let (inbox, mut cx) = m.split::<InboxModel>();
    open_new(inbox, &mut cx, to)
}

/// Opens the editor on a draft (`e`), the focus in the body.
pub(crate) fn edit(inbox: &mut InboxModel, cx: &mut Ctx<'_>, t: &Thread) -> Vec<Cmd> {
    if crate::app::read_only::refuse(cx) {
        return Vec::new();
    }
    if let Some(b) = crate::app::inbox::rules::blocked_op(
        inbox,
        cx.keymap,
        cx.state,
        t,
        crate::app::inbox::rules::Op::Edit,
    ) {
        return refuse(cx, b.title, &b.why);
    }
    if let Some(cmds) = reopen(inbox, cx, |e| e.thread.as_deref() == Some(t.id.as_str())) {
        return cmds;
    }
    let back = here(inbox);
    let mut e = new_editor(inbox, Some(t), back);
    e.in_body = true;
    if e.body_locked {
        e.note =
            Some("The body is over 256 KB: shown here, changed only in the web dashboard.".into());
    } else if e.html_body {
        e.note = Some(
            "An HTML body, shown as text; saving a change to it stores this text instead.".into(),
        );
    }
    inbox.editor = Some(e);
    inbox.view = View::Editor;
    offer_restore(inbox, cx)
}

/// An editor is already open: show it again when it is the one asked for
/// (`asked`: whether the open one is it); say so when it is another.
pub(super) fn reopen(
    inbox: &mut InboxModel,
    cx: &mut Ctx<'_>,
    asked: impl Fn(&Editor) -> bool,
) -> Option<Vec<Cmd>> {
    let e = inbox.editor.as_ref()?;
    let same = asked(e);
    inbox.view = View::Editor;
    if !same {
        cx.notify(
            Level::Info,
            "Another email is open",
            &format!(
                "finish or close this one first ({}); its text is kept",
                CLOSE.label
            ),
        );
    }
    Some(Vec::new())
}

/// When text was kept for this editor (a crash, a hangup, a failed save),
/// asks whether to restore it. Text equal to what the editor shows is
/// simply dropped.
fn offer_restore(inbox: &mut InboxModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    let Some(e) = inbox.editor.as_mut() else {
        return Vec::new();
    };
    let key = e.key();
    let Some(kept) = cx.state.drafts.get(&key).map(DraftFields::from_draft) else {
        return Vec::new();
    };
    if kept == e.current() {
        cx.state.drafts.remove(&key);
        return Vec::new();
    }
    e.restoring = true;
    let subject = if kept.subject.is_empty() {
        "(no subject)".to_owned()
    } else {
        kept.subject.clone()
    };
    let to = if kept.to.is_empty() {
        "no recipient yet".to_owned()
    } else {
        kept.to.clone()
    };
    let body = kept.body.chars().count();
    let (title, said, yes, no) = if e.reply.is_some() {
        (
            "Unsent reply",
            format!(
                "A reply to {to} was kept (it was not sent): \"{subject}\", {body} characters of body."
            ),
            "Resume",
            "start over (discards it)",
        )
    } else {
        (
            "Unsaved text",
            format!(
                "Text of this email was kept (it never reached the service): to {to}, \"{subject}\", {body} characters of body."
            ),
            "Restore",
            "discard the kept text",
        )
    };
    cx.confirm(Confirm {
        title: title.into(),
        lines: vec![
            said,
            format!(
                "{} {} it; {} {}; {} keeps it for later and closes the editor.",
                YES.label,
                if e.reply.is_some() {
                    "resumes"
                } else {
                    "restores"
                },
                NO.label,
                if e.reply.is_some() {
                    "starts over"
                } else {
                    "discards it"
                },
                CLOSE.label
            ),
        ],
        yes: yes.into(),
        no: Some(no.into()),
        destructive: false,
        on_yes: ConfirmAction::Pane(Question::RestoreDraft(key).into()),
    });
    Vec::new()
}

/// The answer to "restore the kept text?".
pub(crate) fn answer_restore(
    inbox: &mut InboxModel,
    cx: &mut Ctx<'_>,
    key: &str,
    answer: Answer,
) -> Vec<Cmd> {
    let kept = cx.state.drafts.get(key).map(DraftFields::from_draft);
    let Some(e) = inbox.editor.as_mut().filter(|e| e.key() == key) else {
        return Vec::new();
    };
    e.restoring = false;
    match (answer, kept) {
        (Answer::Yes, Some(kept)) => {
            e.fill(&kept);
            e.edits += 1;
            e.kept = e.edits;
            if e.thread.is_none() && e.reply.is_none() {
                restore_create_check(inbox, cx);
            }
            Vec::new()
        }
        (Answer::No, _) => {
            cx.state.drafts.remove(key);
            if key == draft_key(None) {
                crate::app::inbox::kept::drop_create(cx.state);
            }
            {
                cx.save_state();
                Vec::new()
            }
        }
        _ => {
            // Kept for later: the editor behind the question closes.
            close_editor(inbox);
            Vec::new()
        }
    }
}

/// The new draft's text was restored: a create of it still being checked
/// when Outpost closed comes back with it, and its reads go on (saving
/// waits for the verdict, then asks first).
fn restore_create_check(inbox: &mut InboxModel, cx: &mut Ctx<'_>) {
    let Some(c) = crate::app::inbox::kept::take_create(cx.state) else {
        return;
    };
    let said = c.check.text(save::PLACE);
    if let Some(e) = inbox.editor.as_mut() {
        e.note = Some(format!(
            "An earlier save of this draft lost its answer and may have created it: {said}. Saving waits for the verdict, then asks first."
        ));
        e.created_check = Some(c);
    }
}

/// The senders arrived: the From field offers them (keeping the choice).
pub(crate) fn senders_arrived(inbox: &mut InboxModel) {
    let (labels, ids, unavailable) = sender_options(&inbox.senders);
    let Some(e) = inbox.editor.as_mut() else {
        return;
    };
    let chosen = e.sender_ids.get(e.choice()).cloned().flatten();
    // A reply's sender is the thread's, or the one the operator picks.
    let fresh_new =
        e.thread.is_none() && e.reply.is_none() && chosen.is_none() && e.base.account_id.is_none();
    if let Some(f) = e.form.fields.first_mut() {
        f.kind = FieldKind::Select(labels);
        f.choice = 0;
    }
    e.sender_ids = ids;
    e.unavailable = unavailable;
    e.choose_sender(chosen.as_deref());
    if fresh_new && let Some(first) = e.sender_ids.get(1).cloned().flatten() {
        e.choose_sender(Some(&first));
        e.base.account_id = Some(first);
    }
}

/// Opens the thread the 409 named; the editor's text is kept locally and
/// offered back when that email's editor opens again.
pub(crate) fn open_existing(inbox: &mut InboxModel, cx: &mut Ctx<'_>, t: Thread) -> Vec<Cmd> {
    let mut cmds = Vec::new();
    if let Some(e) = inbox.editor.take() {
        if e.unsaved() {
            cx.state.drafts.insert(e.key(), e.current().to_draft());
            cx.save_state();
        }
        let again = if e.thread.is_some() {
            cx.keymap.key_label(Action::EditDraft)
        } else {
            cx.keymap.key_label(Action::Compose)
        };
        cx.notify(
            Level::Info,
            "Your text is kept",
            &format!("it is offered back when you open that email's editor again ({again})"),
        );
    }
    cmds.extend(crate::app::inbox::thread::open(inbox, cx, t));
    cmds
}

/// Ctrl-S in the editor: check, save when needed, then ask to send (a
/// reply: check, then ask).
pub(crate) fn send_from_editor(inbox: &mut InboxModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    if inbox.editor.as_ref().is_some_and(|e| e.reply.is_some()) {
        return reply::ask(inbox, cx);
    }
    save(inbox, cx, After::Send)
}

/// Esc: closes, asking first when there are unsaved changes.
fn close(inbox: &mut InboxModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    let Some(e) = inbox.editor.as_ref() else {
        return Vec::new();
    };
    if !e.unsaved() {
        close_editor(inbox);
        return Vec::new();
    }
    if e.reply.is_some() {
        // A reply is never saved to the service: its text is kept locally
        // (offered again by the reply key) and the editor closes.
        return reply::keep_and_close(inbox, cx);
    }
    cx.confirm(Confirm {
        title: "Unsaved changes".into(),
        lines: vec![
            "This email has changes the service does not have yet.".into(),
            format!(
                "{} saves them and closes; {} discards them; {} keeps editing.",
                YES.label, NO.label, CLOSE.label
            ),
        ],
        yes: "Save and close".into(),
        no: Some("discard the changes".into()),
        destructive: false,
        on_yes: ConfirmAction::Pane(Question::CloseEditor.into()),
    });
    Vec::new()
}

/// The answer to "save before closing?".
pub(crate) fn answer_close(inbox: &mut InboxModel, cx: &mut Ctx<'_>, answer: Answer) -> Vec<Cmd> {
    match answer {
        Answer::Yes => save(inbox, cx, After::Close),
        Answer::No => {
            let key = inbox.editor.as_ref().map(Editor::key);
            close_editor(inbox);
            match key {
                Some(k) if cx.state.drafts.remove(&k).is_some() => {
                    cx.save_state();
                    Vec::new()
                }
                _ => Vec::new(),
            }
        }
        Answer::Dismissed => Vec::new(),
    }
}

/// Closes the editor and returns to where it was opened from.
pub(crate) fn close_editor(inbox: &mut InboxModel) {
    let back = inbox.editor.take().map_or(View::List, |e| e.back);
    inbox.view = match back {
        View::Thread if inbox.open.is_some() => View::Thread,
        _ => View::List,
    };
}

/// The keep-draft timer fired: the text goes to the local state if no
/// edit came since.
pub(crate) fn keep_draft(inbox: &mut InboxModel, cx: &mut Ctx<'_>, edits: u64) -> Vec<Cmd> {
    match inbox.editor.as_mut() {
        Some(e) if e.edits == edits => {
            e.kept = edits;
            // The frame says the text is kept now.
            cx.redraw();
            {
                cx.save_state();
                Vec::new()
            }
        }
        _ => Vec::new(),
    }
}

/// The keep-draft bound fired: the text goes to the local state if this
/// editor still has edits not kept since `kept` (steady typing).
pub(crate) fn keep_draft_bound(
    inbox: &mut InboxModel,
    cx: &mut Ctx<'_>,
    session: u64,
    kept: u64,
) -> Vec<Cmd> {
    match inbox.editor.as_ref() {
        Some(e) if e.session == session && e.kept == kept && e.edits != kept => {
            keep_draft(inbox, cx, e.edits)
        }
        _ => Vec::new(),
    }
}

/// What unsent text the editor holds, said for the quit question.
pub(crate) fn unsent(inbox: &InboxModel) -> Option<String> {
    let e = inbox.editor.as_ref()?;
    if !e.unsaved() {
        return None;
    }
    let to = e.form.value("to");
    Some(if to.is_empty() {
        "the email editor".to_owned()
    } else {
        format!("the email to {to}")
    })
}

/// Keeps the editor's text in the local state — or clears it once the
/// service has exactly that text. Untouched while a restore question is
/// open.
pub(crate) fn capture(inbox: &InboxModel, state: &mut State) {
    let Some(e) = inbox.editor.as_ref() else {
        return;
    };
    if e.restoring {
        return;
    }
    if e.unsaved() {
        state.drafts.insert(e.key(), e.current().to_draft());
    } else {
        state.drafts.remove(&e.key());
    }
}

/// Status-bar hints of the editor.
pub(crate) fn hints(inbox: &InboxModel) -> Vec<(Action, &'static str)> {
    if inbox.editor.as_ref().is_some_and(|e| e.find.is_some()) {
        // `k` would type: the find line names ↑ for "previous".
        return vec![(Action::Open, "next"), (Action::Back, "close find")];
    }
    if let Some(e) = inbox.editor.as_ref().filter(|e| e.reply.is_some()) {
        return vec![
            (Action::EditorSend, "send"),
            (
                Action::ToggleQuote,
                if reply::quoted(e) {
                    "remove quote"
                } else {
                    "quote"
                },
            ),
            (Action::FindInBody, "find"),
            (Action::Undo, "undo"),
            (Action::Redo, "redo"),
            (Action::Back, "close"),
        ];
    }
    vec![
        (Action::EditorSend, "send"),
        (Action::SaveDraft, "save"),
        (Action::FindInBody, "find"),
        (Action::Undo, "undo"),
        (Action::Redo, "redo"),
        (Action::Back, "close"),
    ]
}
