//! The editor writing a reply in a thread: To fixed to the participant,
//! the subject `Re: ` + the subject of the message answered (never
//! doubled, [`crate::logic::reply::subject`]), that message quoted under
//! the text (a key takes the quote out and puts it back), and the sender
//! the thread's own — or one the operator picks when the thread has none.
//!
//! A reply is no draft of the service: nothing is saved there before it
//! goes. Its text is kept in the local state under its own key (per
//! thread, beside the thread's draft text) until the service has the
//! message, and offered first when a reply on that thread opens again.

use ratatui_textarea::CursorMove;

use super::{Editor, InboxModel, View, body_area, here, new_editor, offer_restore};
use crate::api::model::{Thread, ThreadMessage};
use crate::app::ctx::Ctx;
use crate::app::inbox::refuse;
use crate::app::keymap::Action;
use crate::app::toast::Level;
use crate::app::{Cmd, Confirm, ConfirmAction};
use crate::logic::reply;
use crate::text::sanitize::DisplayText;

/// Quoted lines at most; a longer message is cut with a marker (the
/// thread keeps it whole).
pub(crate) const QUOTE_LINES: usize = 40;

/// What the editor's reply answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplyTo {
    /// The thread.
    pub thread: String,
    /// The message answered (its id).
    pub message: String,
    /// The quote of that message (`On …, … wrote:` and `> ` lines), as it
    /// is put under the text.
    pub quote: String,
    /// The thread's own sender: the reply goes from it (not chosen here).
    pub sender: Option<String>,
    /// The thread's message count when the reply was opened, when known:
    /// a check of a lost send only takes messages past it.
    pub baseline: Option<usize>,
}

/// What a confirmed reply sends: exactly what the question showed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplySend {
    /// The thread.
    pub thread: String,
    /// The sender.
    pub account_id: String,
    /// The subject.
    pub subject: String,
    /// The body as text (the HTML body is made from it).
    pub body: String,
}

/// The local-state key of a thread's reply text (apart from its draft's).
pub(crate) fn reply_key(thread: &str) -> String {
    format!("inbox-reply:{thread}")
}

/// The quote of `msg` written by `who`: a header line, then its text with
/// `> ` before each line, at most [`QUOTE_LINES`] lines.
pub(crate) fn quote(msg: &ThreadMessage, who: &str) -> String {
    let text = crate::app::inbox::html::readable(&msg.body_text)
        .replace("\r\n", "\n")
        .replace('\r', "\n");
    let text = DisplayText::block(text.trim_end()).into_string();
    let when = crate::text::format::date(&msg.sent_at);
    let mut out = format!("On {when}, {} wrote:", DisplayText::inline(who));
    let lines: Vec<&str> = text.lines().collect();
    for line in lines.iter().take(QUOTE_LINES) {
        out.push('\n');
        if line.is_empty() {
            out.push('>');
        } else {
            out.push_str("> ");
            out.push_str(line);
        }
    }
    if lines.len() > QUOTE_LINES {
        out.push_str("\n> […]");
    }
    out
}

/// Who wrote a message of thread `t`: the participant when inbound, else
/// "you".
fn author(t: &Thread, msg: &ThreadMessage) -> String {
    if msg.direction.eq_ignore_ascii_case("inbound") {
        crate::app::inbox::participant(t)
    } else {
        "you".to_owned()
    }
}

/// The fields a reply to `msg` in `t` opens with: To the participant, the
/// thread's sender, `Re: ` + its subject, an empty line to write on and
/// the quote under it.
pub(crate) fn prefill(t: &Thread, msg: &ThreadMessage) -> super::DraftFields {
    let inline = |s: &str| DisplayText::inline(s).into_string();
    super::DraftFields {
        account_id: t.account_id.clone().filter(|a| !a.trim().is_empty()),
        to: inline(&t.participant_email),
        name: inline(t.participant_name.as_deref().unwrap_or("")),
        cc: String::new(),
        bcc: String::new(),
        subject: inline(&reply::subject(&msg.subject)),
        body: format!("\n\n{}", quote(msg, &author(t, msg))),
    }
}

/// Opens the editor on a reply to `msg` in thread `t` (`baseline`: the
/// thread's message count, when known). A reply text kept for the thread
/// is offered first.
pub(crate) fn open(
    inbox: &mut InboxModel,
    cx: &mut Ctx<'_>,
    t: &Thread,
    msg: &ThreadMessage,
    baseline: Option<usize>,
) -> Vec<Cmd> {
    if crate::app::read_only::refuse(cx) {
        return Vec::new();
    }
    if let Some(cmds) = super::reopen(inbox, cx, |e| {
        e.reply.as_ref().is_some_and(|r| r.thread == t.id)
    }) {
        return cmds;
    }
    let back = here(inbox);
    let mut e = new_editor(inbox, None, back);
    let base = prefill(t, msg);
    e.reply = Some(Box::new(ReplyTo {
        thread: t.id.clone(),
        message: msg.id.clone(),
        quote: quote(msg, &author(t, msg)),
        sender: base.account_id.clone(),
        baseline,
    }));
    e.service = Some(t.clone());
    e.fill(&base);
    e.base = base;
    // The text goes above the quote: the cursor on the first line.
    e.body.move_cursor(CursorMove::Top);
    e.body.move_cursor(CursorMove::Head);
    e.in_body = true;
    inbox.editor = Some(e);
    inbox.view = View::Editor;
    offer_restore(inbox, cx)
}

/// The body's text.
fn body_text(e: &Editor) -> String {
    e.body.lines().join("\n")
}

/// Whether the quote is under the text now.
pub(crate) fn quoted(e: &Editor) -> bool {
    e.reply
        .as_ref()
        .is_some_and(|r| body_text(e).contains(&r.quote))
}

/// The text written above the quote (the body without it), trimmed.
pub(crate) fn written(e: &Editor) -> String {
    let body = body_text(e);
    match e.reply.as_ref() {
        Some(r) => body.replacen(&r.quote, "", 1).trim().to_owned(),
        None => body.trim().to_owned(),
    }
}

/// The quote key: takes the quote out of the body when it is there, else
/// puts it back under the text. The cursor stays on its line.
pub(crate) fn toggle_quote(inbox: &mut InboxModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    let Some(e) = inbox.editor.as_mut() else {
        return Vec::new();
    };
    let Some(q) = e.reply.as_ref().map(|r| r.quote.clone()) else {
        return refuse(
            cx,
            "Not a reply",
            "only a reply quotes the message it answers",
        );
    };
    if e.body_locked {
        return Vec::new();
    }
    let body = body_text(e);
    let (text, said) = match body.find(&q) {
        Some(at) => {
            let before = body[..at].trim_end();
            let after = body[at + q.len()..].trim_start();
            let joined = match (before.is_empty(), after.is_empty()) {
                (_, true) => before.to_owned(),
                (true, false) => after.to_owned(),
                (false, false) => format!("{before}\n\n{after}"),
            };
            (joined, "the quoted message is out of the reply")
        }
        None => {
            let text = body.trim_end();
            let joined = if text.is_empty() {
                format!("\n\n{q}")
            } else {
                format!("{text}\n\n{q}")
            };
            (joined, "the quoted message is under the text again")
        }
    };
    let ratatui_textarea::DataCursor(row, col) = e.body.cursor();
    e.body = body_area(&text);
    let rows = e.body.lines().len();
    let row = row.min(rows.saturating_sub(1));
    let col = col.min(e.body.lines().get(row).map_or(0, |l| l.chars().count()));
    e.body.move_cursor(CursorMove::Jump(
        u16::try_from(row).unwrap_or(u16::MAX),
        u16::try_from(col).unwrap_or(u16::MAX),
    ));
    super::keys::edited(e);
    e.note = Some(format!(
        "Quote: {said} ({} again {}).",
        cx.keymap.key_label(Action::ToggleQuote),
        if said.ends_with("again") {
            "takes it out"
        } else {
            "puts it back"
        }
    ));
    Vec::new()
}

/// The send key in a reply: the fields are checked (a sender, a subject,
/// some text above the quote), then the question says exactly what goes.
pub(crate) fn ask(inbox: &mut InboxModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    if !super::save::validate(inbox, true) {
        return Vec::new();
    }
    let Some(e) = inbox.editor.as_mut() else {
        return Vec::new();
    };
    let Some(r) = e.reply.clone() else {
        return Vec::new();
    };
    let cur = e.current();
    if cur.subject.trim().is_empty() {
        e.form.set_error("subject", "a reply needs a subject");
        e.in_body = false;
        e.form.focus_key("subject");
        return Vec::new();
    }
    if written(e).is_empty() {
        e.note =
            Some("✗ Nothing written yet — write the reply above the quoted message first.".into());
        e.in_body = true;
        return Vec::new();
    }
    let Some(account_id) = cur.account_id.clone() else {
        return Vec::new();
    };
    let t = e.service.clone();
    let send = ReplySend {
        thread: r.thread.clone(),
        account_id,
        subject: cur.subject.trim().to_owned(),
        body: cur.body.trim_end().to_owned(),
    };
    if let Some(t) = t.as_ref()
        && let Some(b) = crate::app::inbox::reply::blocked(inbox, cx.keymap, t)
    {
        return refuse(cx, b.title, &b.why);
    }
    let lines = confirm_lines(inbox, t.as_ref(), &send);
    cx.confirm(Confirm {
        title: "Send this reply?".into(),
        lines,
        yes: "Send".into(),
        no: None,
        destructive: true,
        on_yes: ConfirmAction::Pane(crate::app::inbox::Question::Reply(Box::new(send)).into()),
    });
    Vec::new()
}

/// The question's lines: to, from, subject, the text's start, whether the
/// quote goes, what an earlier lost send saw, and the draft the service
/// clears.
fn confirm_lines(inbox: &InboxModel, t: Option<&Thread>, s: &ReplySend) -> Vec<String> {
    let to = t.map_or_else(|| s.thread.clone(), crate::app::inbox::participant);
    let text: String = inbox
        .editor
        .as_ref()
        .map(written)
        .unwrap_or_default()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let start: String = text.chars().take(60).collect();
    let start = if text.chars().count() > 60 {
        format!("{start}…")
    } else {
        start
    };
    let mut lines = vec![
        format!("To:      {to}"),
        format!("From:    {}", inbox.senders.label(&s.account_id)),
        format!("Subject: {}", s.subject),
        format!("Text:    {start}"),
    ];
    if inbox.editor.as_ref().is_some_and(quoted) {
        lines.push("The message it answers is quoted under the text.".into());
    }
    let draft = t.is_some_and(|t| {
        [&t.draft_subject, &t.draft_body_text, &t.draft_body_html]
            .iter()
            .any(|v| v.as_deref().is_some_and(|s| !s.trim().is_empty()))
    });
    if draft {
        lines.push(
            "The thread keeps a draft: this reply carries its own subject and text, and the service clears that draft when it goes.".into(),
        );
    }
    if let Some(c) = inbox.checks.get(&s.thread).and_then(|c| c.check.as_ref()) {
        lines.push(c.again_warning(crate::app::inbox::send::PLACE));
    }
    lines.push(
        "It is sent once: if the answer is lost, Outpost checks the thread instead of sending again."
            .into(),
    );
    lines
}

/// Keeps the reply's text in the local state now (the save key: a reply
/// has no draft on the service); it is offered when a reply on the thread
/// opens again.
pub(crate) fn keep(inbox: &mut InboxModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    let Some(e) = inbox.editor.as_mut() else {
        return Vec::new();
    };
    if e.unsaved() {
        cx.state.drafts.insert(e.key(), e.current().to_draft());
        e.kept = e.edits;
        cx.save_state();
    }
    e.note = Some(format!(
        "A reply is not saved on the service: its text is kept locally until it is sent ({} sends).",
        cx.keymap.key_label(Action::EditorSend)
    ));
    Vec::new()
}

/// Closes a reply's editor, its text kept locally (offered again by the
/// reply key on the thread).
pub(crate) fn keep_and_close(inbox: &mut InboxModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    let kept = inbox.editor.as_ref().filter(|e| e.unsaved()).map(|e| {
        cx.state.drafts.insert(e.key(), e.current().to_draft());
    });
    super::close_editor(inbox);
    if kept.is_some() {
        cx.save_state();
        cx.notify(
            Level::Info,
            "Reply kept",
            &format!(
                "its text is kept locally and offered when you reply in this thread again ({})",
                cx.keymap.key_label(Action::ReplyThread)
            ),
        );
    }
    Vec::new()
}

/// What saving does in a reply's editor (it has no draft on the service
/// to save to): `None` in any other editor.
pub(crate) fn instead_of_save(
    inbox: &mut InboxModel,
    cx: &mut Ctx<'_>,
    after: super::After,
) -> Option<Vec<Cmd>> {
    inbox.editor.as_ref()?.reply.as_ref()?;
    Some(match after {
        super::After::Send => ask(inbox, cx),
        super::After::Close => keep_and_close(inbox, cx),
        super::After::Stay => keep(inbox, cx),
    })
}
