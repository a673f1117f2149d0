//! Saving a draft: checked on the client, then created (POST) or updated
//! (PATCH) with only the changed fields; the answer becomes the editor's
//! base, clears the kept text when nothing more was typed, and a refusal
//! lands on its field, as the 409 offer, or in the note — the text always
//! stays.

use super::{After, DraftFields, Editor, close_editor};
use crate::api::ApiError;
use crate::api::model::{
    CreateThread, CreateThreadResponse, PatchThread, Thread, ThreadPage, ThreadQuery, ThreadStatus,
};
use crate::app::ctx::Ctx;
use crate::app::fixed_keys::{CLOSE, YES};
use crate::app::inbox::{InboxModel, Purpose, Question, address, in_flight, readiness, refuse};
use crate::app::requests::Requests;
use crate::app::toast::Level;
use crate::app::{ApiRequest, Cmd, Confirm, ConfirmAction};
use crate::logic::write::{Check, Seen, Verdict};

/// Where the check of a lost create looks, as its texts name it.
pub(super) const PLACE: &str = "among the drafts";

/// The editor's fields checked before a round trip; `sending` also needs
/// a recipient and a ready sender. Errors are put on their fields.
pub(super) fn validate(inbox: &mut InboxModel, sending: bool) -> bool {
    let senders = inbox.senders.clone();
    let Some(e) = inbox.editor.as_mut() else {
        return false;
    };
    e.form.clear_errors();
    let cur = e.current();
    if cur.to.is_empty() {
        if sending {
            e.form.set_error("to", "a recipient is needed to send");
        }
    } else if let Err(why) = address::check(&cur.to) {
        e.form.set_error("to", &why);
    }
    for key in ["cc", "bcc"] {
        let list = if key == "cc" { &cur.cc } else { &cur.bcc };
        if let Err(why) = address::check_list(list) {
            e.form.set_error(key, &why);
        }
    }
    if sending {
        match cur.account_id.as_deref() {
            None => e
                .form
                .set_error("from", "choose a ready email sender to send (←/→)"),
            Some(id) => {
                if let Some(Err(why)) = senders.find(id).map(readiness) {
                    e.form
                        .set_error("from", &format!("this sender cannot send: {why}"));
                }
            }
        }
    }
    let ok = !e.form.has_errors();
    if !ok {
        e.in_body = false;
    }
    ok
}

/// A create whose answer was lost: the drafts are read on the one
/// schedule of [`Check`] (at once, then 2, 4, 8 and 16 s later; a failed
/// read proves nothing) until the draft shows or the check settles. Kept
/// after a verdict without it, so creating again asks first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CreateCheck {
    /// What the create sent (to recognise the draft).
    pub sent: DraftFields,
    /// The reads of the drafts.
    pub check: Check,
}

impl CreateCheck {
    /// Reads of the drafts so far, good or failed (a timer's key).
    pub fn reads(&self) -> u32 {
        self.check.absent.saturating_add(self.check.failed)
    }

    /// Whether the drafts are still being read.
    pub fn checking(&self) -> bool {
        !self.check.settled()
    }
}

/// Saves the draft: POST when new, else PATCH with the changed fields
/// only; `after` says what follows once the service has it.
pub(crate) fn save(inbox: &mut InboxModel, cx: &mut Ctx<'_>, after: After) -> Vec<Cmd> {
    if let Some(cmds) = super::reply::instead_of_save(inbox, cx, after) {
        return cmds;
    }
    let lost = inbox
        .editor
        .as_ref()
        .and_then(|e| e.created_check.as_ref().map(|c| c.check.clone()));
    if let Some(check) = lost {
        if !check.settled() {
            return refuse(
                cx,
                "Checking the last save",
                &format!(
                    "its answer was lost and it may have created the draft; saving waits for the verdict, so the draft is not made twice: {}",
                    check.text(PLACE)
                ),
            );
        }
        ask_create_again(cx, &check, after);
        return Vec::new();
    }
    if saving(cx.requests) {
        return refuse(cx, "Saving", "a save is on its way; wait for its answer");
    }
    if !validate(inbox, after == After::Send) {
        return Vec::new();
    }
    let Some(e) = inbox.editor.as_mut() else {
        return Vec::new();
    };
    let cur = e.current();
    match e.thread.clone() {
        None if !cur.has_text() => refuse(
            cx,
            "Nothing to save yet",
            "type a recipient, a subject or some text first",
        ),
        None => {
            e.after = after;
            e.note = Some("Saving…".into());
            let req = create_request(&cur);
            let editor = e.session;
            cx.request(
                Purpose::Create {
                    editor,
                    sent: Box::new(cur),
                },
                ApiRequest::CreateThread(Box::new(req)),
            );
            Vec::new()
        }
        Some(id) if cur == e.base => {
            // The service has this text already.
            match after {
                After::Send => crate::app::inbox::send::ask(inbox, cx, &id),
                After::Close => {
                    close_editor(inbox);
                    Vec::new()
                }
                After::Stay => refuse(cx, "Nothing to save", "the service has this text already"),
            }
        }
        Some(id) => {
            e.after = after;
            e.note = Some("Saving…".into());
            let patch = patch_request(&e.base, &cur, e.html_body);
            cx.request(
                Purpose::Save {
                    thread: id.clone(),
                    sent: Box::new(cur),
                },
                ApiRequest::PatchThread {
                    id,
                    patch: Box::new(patch),
                },
            );
            Vec::new()
        }
    }
}

/// After a lost create's check found nothing: creating again asks first,
/// saying what the check saw.
fn ask_create_again(cx: &mut Ctx<'_>, check: &Check, after: After) {
    cx.confirm(Confirm {
        title: "Create this draft again?".into(),
        lines: vec![
            check.again_warning(PLACE),
            "Yes creates it; if there is one already, the service names it and offers to open it instead.".into(),
        ],
        yes: "Create".into(),
        no: None,
        destructive: true,
        on_yes: ConfirmAction::Pane(Question::CreateAgain(after).into()),
    });
}

/// Creating again was confirmed: the check is put aside and the draft
/// saved.
pub(crate) fn create_again(inbox: &mut InboxModel, cx: &mut Ctx<'_>, after: After) -> Vec<Cmd> {
    if let Some(e) = inbox.editor.as_mut() {
        e.created_check = None;
    }
    save(inbox, cx, after)
}

/// Whether a save (or the check after a lost one) is in flight.
pub(crate) fn saving(requests: &Requests) -> bool {
    in_flight(requests, |p| {
        matches!(
            p,
            Purpose::Create { .. } | Purpose::Save { .. } | Purpose::Adopt { .. }
        )
    })
}

/// The body of a create: the fields that hold something; never
/// attachments (the public interface refuses them).
pub(crate) fn create_request(cur: &DraftFields) -> CreateThread {
    let some = |s: &str| (!s.is_empty()).then(|| s.to_owned());
    CreateThread {
        participant_email: some(&cur.to),
        account_id: cur.account_id.clone().map(Some),
        participant_name: some(&cur.name),
        draft_subject: some(&cur.subject),
        draft_body_text: some(&cur.body),
        draft_body_html: None,
        draft_cc: some(&cur.cc),
        draft_bcc: some(&cur.bcc),
        draft_attachments: None,
    }
}

/// The body of a save: only the fields that differ from `base`. An emptied
/// draft field is cleared (`null`); a body saved over an HTML body clears
/// the HTML too, so the text is what gets sent.
pub(crate) fn patch_request(base: &DraftFields, cur: &DraftFields, html_body: bool) -> PatchThread {
    let changed = |a: &str, b: &str| (a != b).then(|| b.to_owned());
    let nullable = |a: &str, b: &str| (a != b).then(|| (!b.is_empty()).then(|| b.to_owned()));
    let body_changed = base.body != cur.body;
    PatchThread {
        status: None,
        unread_count: None,
        account_id: (base.account_id != cur.account_id).then(|| cur.account_id.clone()),
        participant_email: changed(&base.to, &cur.to),
        participant_name: changed(&base.name, &cur.name),
        draft_subject: nullable(&base.subject, &cur.subject),
        draft_body_text: nullable(&base.body, &cur.body),
        draft_body_html: (body_changed && html_body).then_some(None),
        draft_cc: nullable(&base.cc, &cur.cc),
        draft_bcc: nullable(&base.bcc, &cur.bcc),
    }
}

/// Which editor an answer is for: the one that created (by its session
/// number), or the one on a thread.
#[derive(Debug, Clone, Copy)]
enum Whose<'a> {
    /// The editor with this session number.
    Session(u64),
    /// The editor of this thread.
    Thread(&'a str),
}

/// The open editor, when the answer is its.
fn editor_for<'m>(inbox: &'m mut InboxModel, whose: Whose<'_>) -> Option<&'m mut Editor> {
    inbox.editor.as_mut().filter(|e| match whose {
        Whose::Session(s) => e.session == s,
        Whose::Thread(t) => e.thread.as_deref() == Some(t),
    })
}

/// The service's answer to a create.
pub(crate) fn on_created(
    inbox: &mut InboxModel,
    cx: &mut Ctx<'_>,
    editor: u64,
    sent: DraftFields,
    r: Result<CreateThreadResponse, ApiError>,
) -> Vec<Cmd> {
    let whose = Whose::Session(editor);
    match r {
        Ok(resp) => {
            let others = resp.existing_threads.total;
            crate::app::inbox::list::put_on_top(&mut inbox.list, cx, resp.thread.clone());
            let mut cmds = acknowledged(inbox, cx, whose, resp.thread, sent);
            if others > 0
                && let Some(e) = editor_for(inbox, whose)
            {
                e.note = Some(format!(
                    "Saved as a draft. This recipient has {others} other thread{} (other senders or archived).",
                    if others == 1 { "" } else { "s" }
                ));
            }
            cmds.extend(after_save(inbox, cx, whose));
            cmds
        }
        Err(e) => save_failed(inbox, cx, whose, &sent, &e),
    }
}

/// The service's answer to a save.
pub(crate) fn on_saved(
    inbox: &mut InboxModel,
    cx: &mut Ctx<'_>,
    thread: &str,
    sent: DraftFields,
    r: Result<Thread, ApiError>,
) -> Vec<Cmd> {
    let whose = Whose::Thread(thread);
    match r {
        Ok(t) => {
            crate::app::inbox::apply_thread(inbox, cx, t.clone());
            let mut cmds = acknowledged(inbox, cx, whose, t, sent);
            cmds.extend(after_save(inbox, cx, whose));
            cmds
        }
        Err(e) => save_failed(inbox, cx, whose, &sent, &e),
    }
}

/// The service holds `sent` as thread `t`: it becomes the editor's base;
/// the kept text moves under the thread's key, and is cleared once the
/// editor holds nothing more.
fn acknowledged(
    inbox: &mut InboxModel,
    cx: &mut Ctx<'_>,
    whose: Whose<'_>,
    t: Thread,
    sent: DraftFields,
) -> Vec<Cmd> {
    let Some(e) = editor_for(inbox, whose) else {
        // The editor went (its text discarded with it): what was saved is
        // on the service.
        return Vec::new();
    };
    let old_key = e.key();
    e.thread = Some(t.id.clone());
    e.service = Some(t);
    if e.html_body && sent.body != e.base.body {
        e.html_body = false;
    }
    e.base = sent;
    e.note = Some("Saved: the service has this draft.".into());
    let new_key = e.key();
    let done = !e.dirty();
    if old_key != new_key {
        cx.state.drafts.remove(&old_key);
    }
    if done {
        cx.state.drafts.remove(&new_key);
    }
    // Written now: what was typed while saving is kept under the new key.
    {
        cx.save_state();
        Vec::new()
    }
}

/// What follows a save the service acknowledged.
fn after_save(inbox: &mut InboxModel, cx: &mut Ctx<'_>, whose: Whose<'_>) -> Vec<Cmd> {
    let Some(e) = editor_for(inbox, whose) else {
        return Vec::new();
    };
    let after = std::mem::take(&mut e.after);
    let Some(thread) = e.thread.clone().filter(|_| !e.dirty()) else {
        return Vec::new();
    };
    match after {
        After::Stay => Vec::new(),
        After::Close => {
            close_editor(inbox);
            cx.notify(Level::Success, "Draft saved", "the service has it");
            Vec::new()
        }
        After::Send => crate::app::inbox::send::ask(inbox, cx, &thread),
    }
}

/// The field a service path names.
fn field_of(path: &str) -> Option<&'static str> {
    let p = path.trim();
    Some(match p {
        _ if p.starts_with("participant_email") => "to",
        _ if p.starts_with("participant_name") => "name",
        _ if p.starts_with("account_id") => "from",
        _ if p.starts_with("draft_subject") => "subject",
        _ if p.starts_with("draft_cc") => "cc",
        _ if p.starts_with("draft_bcc") => "bcc",
        _ => return None,
    })
}

/// A save failed: the text stays (in the editor and the local state) and
/// the reason goes where it belongs — a field, the 409 offer, the note.
fn save_failed(
    inbox: &mut InboxModel,
    cx: &mut Ctx<'_>,
    whose: Whose<'_>,
    sent: &DraftFields,
    err: &ApiError,
) -> Vec<Cmd> {
    let mut cmds = Vec::new();
    let Some(e) = editor_for(inbox, whose) else {
        // The editor that saved is gone: say so, nothing more.
        cx.toasts.error(cx.now, "saving the draft", err);
        return cmds;
    };
    e.after = After::Stay;
    // Make sure the text is kept even if no key was pressed since.
    e.edits += 1;
    if let Some(existing) = err.existing_thread().cloned() {
        conflict(inbox, cx, sent, existing, err);
        return cmds;
    }
    let note = if err.status() == Some(403) {
        format!(
            "{} — attachments can only be added in the web dashboard; the public interface refuses them. The text is kept.",
            crate::app::inbox::error_text(err)
        )
    } else if let (Whose::Session(editor), true) = (whose, err.maybe_accepted()) {
        if let Some(e) = editor_for(inbox, whose) {
            e.created_check = Some(CreateCheck {
                sent: sent.clone(),
                check: cx.lost_check(),
            });
        }
        cmds.extend(check_created(cx, editor, sent));
        format!(
            "{} — the draft may have been created, so it is not created again; reading the drafts to learn whether it was…",
            crate::app::inbox::error_text(err)
        )
    } else if err.maybe_accepted() {
        format!(
            "{} — the save may have reached the service (it was not repeated); the text is kept. Saving again only writes these fields again ({}).",
            crate::app::inbox::error_text(err),
            cx.keymap.key_label(crate::app::keymap::Action::SaveDraft)
        )
    } else {
        format!(
            "{} — nothing was saved; the text is kept. {} saves again.",
            crate::app::inbox::error_text(err),
            cx.keymap.key_label(crate::app::keymap::Action::SaveDraft)
        )
    };
    if let Some(e) = editor_for(inbox, whose) {
        for fe in err.field_errors() {
            if let Some(key) = field_of(&fe.path) {
                e.form.set_error(key, &fe.message);
            }
        }
        if let Some((path, message)) = err.message().split_once(": ")
            && let Some(key) = field_of(path)
            && err.status() == Some(400)
        {
            e.form.set_error(key, message);
        }
        e.note = Some(note.clone());
    }
    // The note says it; the notice too (a refresh key would not redo it).
    let level = if err.maybe_accepted() {
        Level::Warning
    } else {
        Level::Error
    };
    cx.notify(level, &format!("{} · saving the draft", err.code()), &note);
    cmds
}

/// The duplicate-recipient 409: say which thread, offer to open it.
fn conflict(
    inbox: &mut InboxModel,
    cx: &mut Ctx<'_>,
    sent: &DraftFields,
    existing: Thread,
    err: &ApiError,
) {
    let who = crate::app::inbox::participant(&existing);
    let sender = existing
        .account_id
        .as_deref()
        .map_or_else(|| "this sender".to_owned(), |a| inbox.senders.label(a));
    if let Some(e) = inbox.editor.as_mut() {
        let key = if e.base.account_id == sent.account_id {
            "to"
        } else {
            "from"
        };
        e.form.set_error(
            key,
            "this sender already has an open thread with this recipient",
        );
        e.note = Some(format!(
            "{} — your text is kept.",
            crate::app::inbox::error_text(err)
        ));
    }
    let what = match existing.draft_subject.as_deref().filter(|s| !s.is_empty()) {
        Some(s) => format!("{}, draft \"{s}\"", existing.status),
        None => existing.status.to_string(),
    };
    cx.confirm(Confirm {
        title: "There is already a thread".into(),
        lines: vec![
            format!("{sender} already has an open thread with {who} ({what})."),
            "A sender keeps one open thread per recipient (archived ones do not count).".into(),
            format!(
                "{} opens that thread instead (your text here is kept and offered back); {} keeps editing.",
                YES.label, CLOSE.label
            ),
        ],
        yes: "Open that thread".into(),
        no: None,
        destructive: false,
        on_yes: ConfirmAction::Pane(Question::OpenExisting(Box::new(existing)).into()),
    });
}

/// After a create whose answer was lost: read the drafts and look for it.
fn check_created(cx: &mut Ctx<'_>, editor: u64, sent: &DraftFields) -> Vec<Cmd> {
    let query = ThreadQuery {
        page: Some(1),
        limit: Some(crate::app::inbox::list::PAGE),
        status: Some(ThreadStatus::Draft.as_str().to_owned()),
    };
    cx.request(
        Purpose::Adopt {
            editor,
            sent: Box::new(sent.clone()),
        },
        ApiRequest::ListThreads { query },
    );
    Vec::new()
}

/// A check's timer fired (`reads`: the reads made when it was set): the
/// drafts are read again.
pub(crate) fn check_created_again(
    inbox: &mut InboxModel,
    cx: &mut Ctx<'_>,
    session: u64,
    reads: u32,
) -> Vec<Cmd> {
    let Some(e) = inbox.editor.as_mut().filter(|e| e.session == session) else {
        return Vec::new();
    };
    match e.created_check.as_mut() {
        Some(c) if c.check.next_in().is_some() && c.reads() == reads => {
            c.check.reading();
            let sent = c.sent.clone();
            check_created(cx, session, &sent)
        }
        _ => Vec::new(),
    }
}

/// The drafts read after a lost create answer: a draft with the same
/// recipient, subject and body is the one created, and the editor takes
/// it over (saving again updates it instead of creating a second). Not
/// there: read again on the schedule; a failed read proves nothing.
pub(crate) fn on_adopt(
    inbox: &mut InboxModel,
    cx: &mut Ctx<'_>,
    editor: u64,
    sent: DraftFields,
    r: Result<ThreadPage, ApiError>,
) -> Vec<Cmd> {
    let whose = Whose::Session(editor);
    if editor_for(inbox, whose)
        .is_none_or(|e| e.created_check.as_ref().is_none_or(|c| !c.checking()))
    {
        return Vec::new();
    }
    let found = r.as_ref().ok().and_then(|p| {
        p.threads
            .iter()
            .find(|t| {
                let f = DraftFields::of(t);
                f.to.eq_ignore_ascii_case(&sent.to)
                    && f.subject == sent.subject
                    && f.body == sent.body
            })
            .cloned()
    });
    if let Some(t) = found {
        crate::app::inbox::list::put_on_top(&mut inbox.list, cx, t.clone());
        let mut seen = Check::start();
        seen.saw(Seen::Found(format!("found {PLACE}")));
        if let Some(e) = editor_for(inbox, whose)
            && let Some(mut c) = e.created_check.take()
        {
            cx.settle(&mut c.check, Verdict::Found(format!("found {PLACE}")));
        }
        let cmds = acknowledged(inbox, cx, whose, t, sent);
        cx.notify(
            Level::Success,
            "The draft was created",
            &format!(
                "its answer was lost on the way and it was not created again ({}); saving now updates it",
                seen.text(PLACE)
            ),
        );
        return cmds;
    }
    let seen = match r {
        Ok(_) => Seen::Absent,
        Err(e) => Seen::Failed(crate::app::inbox::error_text(&e)),
    };
    not_found_yet(inbox, cx, whose, seen);
    Vec::new()
}

/// The draft is not among the drafts, or they could not be read: the
/// note says what the check saw so far, and its verdict once settled.
fn not_found_yet(inbox: &mut InboxModel, cx: &mut Ctx<'_>, whose: Whose<'_>, seen: Seen) {
    let save = cx.keymap.key_label(crate::app::keymap::Action::SaveDraft);
    let Some(e) = editor_for(inbox, whose) else {
        return;
    };
    let Some(c) = e.created_check.as_mut() else {
        return;
    };
    let verdict = cx.saw(&mut c.check, seen);
    let said = c.check.text(PLACE);
    e.note = Some(match verdict {
        Some(Verdict::NotFound) => format!(
            "The create's answer was lost; {said}, so it was most likely not created. The text is kept — {save} creates it (asks first)."
        ),
        Some(_) => format!(
            "The create's answer was lost; {said} — the draft may have been created: look at the drafts before saving again ({save} asks first). The text is kept."
        ),
        None => format!(
            "The create's answer was lost: {said}. The service may still be working on it; saving waits for the verdict."
        ),
    });
}
