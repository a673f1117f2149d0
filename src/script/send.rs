//! `outpost thread send <thread>` (the thread's draft, as the service keeps
//! it) and `outpost thread reply <thread> --body-file FILE [--subject S]`
//! (a reply to its last inbound message), through the one write path
//! ([`super::call`]): asked first (`--yes` off a terminal), sent once, a
//! lost answer checked in the thread.
//!
//! A reply is `POST /api/threads/{id}/messages` carrying its own
//! `subject`, `body_text` and `body_html` (the service fills an omitted
//! field from the thread's draft, so a stale draft could go out), to the
//! thread's participant, from the thread's sender (or `--from`), with the
//! subject `Re: ` + the subject of the last inbound message (an existing
//! `Re:`, `RE:` or `Re[2]:` is not doubled).
//!
//! `--json`:
//!
//! ```json
//! {"action": "send" | "reply", "thread_id", "to", "from", "subject",
//!  "outcome": "done" | "may_have_reached",
//!  "message": {"id", "subject", "sent_at"} | null,
//!  "check": null | {"lost", "verdict", "text"}}
//! ```

use std::path::PathBuf;

use clap::Args;
use serde::Serialize;

use super::Ctx;
use super::call::{self, CheckJson, Proof, Record, Sent, Write};
use super::confirm::{self, Question};
use super::exit::{Exit, Failure};
use super::output::{cut, stdout_failure, write_json};
use crate::api::ApiRequest;
use crate::api::model::{SendMessage, SendMessageResponse, Thread};
use crate::logic::proof::SentMessage;
use crate::logic::reply;
use crate::logic::resolve::Use;
use crate::text::sanitize;

/// The longest body file read (a reply, not an attachment).
const MAX_BODY: u64 = 1024 * 1024;

/// Flags of `outpost thread send`.
#[derive(Debug, Clone, Args)]
pub struct SendArgs {
    /// The thread: its id, a unique id prefix, or its participant's exact
    /// address or name.
    pub thread: String,
    /// The sender to send from when the thread has none: its id, a unique
    /// id prefix or its address.
    #[arg(long, value_name = "SENDER")]
    pub from: Option<String>,
    /// Answer yes to the question (needed off a terminal).
    #[arg(long, short = 'y')]
    pub yes: bool,
    /// Print one JSON document instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Flags of `outpost thread reply`.
#[derive(Debug, Clone, Args)]
pub struct ReplyArgs {
    /// The thread: its id, a unique id prefix, or its participant's exact
    /// address or name.
    pub thread: String,
    /// The reply's text, read from FILE (UTF-8).
    #[arg(long, value_name = "FILE")]
    pub body_file: PathBuf,
    /// The subject, instead of "Re: " and the last inbound message's.
    #[arg(long, value_name = "S")]
    pub subject: Option<String>,
    /// The sender to send from when the thread has none: its id, a unique
    /// id prefix or its address.
    #[arg(long, value_name = "SENDER")]
    pub from: Option<String>,
    /// Answer yes to the question (needed off a terminal).
    #[arg(long, short = 'y')]
    pub yes: bool,
    /// Print one JSON document instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `message` of the document.
#[derive(Debug, Serialize)]
struct MessageJson<'a> {
    id: &'a str,
    subject: &'a str,
    sent_at: &'a str,
}

/// The document of `--json`.
#[derive(Debug, Serialize)]
struct SendJson<'a> {
    action: &'a str,
    thread_id: &'a str,
    to: &'a str,
    from: &'a str,
    subject: &'a str,
    outcome: &'a str,
    message: Option<MessageJson<'a>>,
    check: Option<CheckJson>,
}

/// A message about to go: where, from whom, what.
struct Outgoing {
    action: &'static str,
    thread: Thread,
    from_address: String,
    subject: String,
    body: String,
    send: SendMessage,
}

/// The sender a message goes from: `--from`, else the thread's; its id and
/// address.
async fn sender(ctx: &Ctx, t: &Thread, from: Option<&str>) -> Result<(String, String), Failure> {
    if let Some(typed) = from {
        let s = super::resolve::sender(ctx, typed).await?;
        return Ok((s.id, s.email_address));
    }
    let Some(id) = t.account_id.clone().filter(|a| !a.trim().is_empty()) else {
        return Err(Failure::usage(format!(
            "thread {} has no sender: give --from SENDER (an email sender's id, a unique id prefix or its address)",
            t.id
        )));
    };
    // The address, for the question; a sender the list lacks is still the
    // thread's (the service decides whether it is ready).
    let list: Vec<crate::api::model::SenderAccount> = ctx
        .read(ApiRequest::ListSenders)
        .await
        .map_err(|e| Failure::api("listing the senders", &e))?;
    let address = list
        .into_iter()
        .find(|s| s.id == id)
        .map_or_else(|| id.clone(), |s| s.email_address);
    Ok((id, address))
}

/// Who the thread's participant is, as shown: `Name <address>`.
fn participant(t: &Thread) -> String {
    match t.participant_name.as_deref().map(str::trim) {
        Some(n) if !n.is_empty() => format!("{n} <{}>", t.participant_email),
        _ => t.participant_email.clone(),
    }
}

fn blank(v: Option<&str>) -> bool {
    v.is_none_or(|s| s.trim().is_empty())
}

/// `outpost thread send`.
pub(crate) async fn send(
    ctx: &Ctx,
    a: &SendArgs,
    out: &mut impl std::io::Write,
) -> Result<Exit, Failure> {
    let t = super::resolve::thread(ctx, &a.thread, Use::Write).await?;
    refuse_read_only(ctx, "sending the draft")?;
    if blank(t.draft_subject.as_deref())
        && blank(t.draft_body_text.as_deref())
        && blank(t.draft_body_html.as_deref())
    {
        return Err(Failure::new(
            Exit::Failed,
            format!(
                "thread {} has no draft to send (no subject, no body); `thread reply` answers it",
                t.id
            ),
        ));
    }
    no_participant(&t)?;
    let (from, from_address) = sender(ctx, &t, a.from.as_deref()).await?;
    let body = t
        .draft_body_text
        .clone()
        .filter(|b| !b.trim().is_empty())
        .or_else(|| t.draft_body_html.clone())
        .unwrap_or_default();
    let m = Outgoing {
        action: "send",
        subject: t.draft_subject.clone().unwrap_or_default(),
        body,
        // Only the sender is given: the draft goes as the service keeps it.
        send: SendMessage {
            account_id: a.from.as_ref().map(|_| from.clone()),
            ..SendMessage::default()
        },
        thread: t,
        from_address,
    };
    go(ctx, m, a.yes, a.json, out).await
}

/// `outpost thread reply`.
pub(crate) async fn reply(
    ctx: &Ctx,
    a: &ReplyArgs,
    out: &mut impl std::io::Write,
) -> Result<Exit, Failure> {
    let body = read_body(&a.body_file)?;
    let t = super::resolve::thread(ctx, &a.thread, Use::Write).await?;
    refuse_read_only(ctx, "replying")?;
    no_participant(&t)?;
    let subject = match &a.subject {
        Some(s) if !s.trim().is_empty() => s.trim().to_owned(),
        Some(_) => return Err(Failure::usage("--subject is empty")),
        None => {
            let (_, _, page) = call::newest_messages(ctx, &t.id)
                .await
                .map_err(|e| Failure::api("reading the thread's messages", &e))?;
            let Some(last) = reply::last_inbound(&page) else {
                return Err(Failure::usage(format!(
                    "thread {} has no inbound message among its latest to reply to: give --subject",
                    t.id
                )));
            };
            reply::subject(&last.subject)
        }
    };
    let (from, from_address) = sender(ctx, &t, a.from.as_deref()).await?;
    let m = Outgoing {
        action: "reply",
        send: SendMessage {
            account_id: Some(from.clone()),
            subject: Some(subject.clone()),
            body_text: Some(body.clone()),
            body_html: Some(reply::html_of_text(&body)),
        },
        subject,
        body,
        thread: t,
        from_address,
    };
    go(ctx, m, a.yes, a.json, out).await
}

fn refuse_read_only(ctx: &Ctx, doing: &str) -> Result<(), Failure> {
    if ctx.client.read_only() {
        return Err(Failure::new(
            Exit::ReadOnly,
            format!(
                "{doing}: read-only mode lets nothing through that could change the service; nothing was sent"
            ),
        ));
    }
    Ok(())
}

fn no_participant(t: &Thread) -> Result<(), Failure> {
    if t.participant_email.trim().is_empty() {
        return Err(Failure::new(
            Exit::Failed,
            format!("thread {} has no participant address to send to", t.id),
        ));
    }
    Ok(())
}

/// The reply's text: a UTF-8 file of at most 1 MiB, not blank.
fn read_body(path: &std::path::Path) -> Result<String, Failure> {
    let bad = |why: String| Failure::usage(format!("--body-file {}: {why}", path.display()));
    let meta = std::fs::metadata(path).map_err(|e| bad(e.to_string()))?;
    if meta.len() > MAX_BODY {
        return Err(bad("larger than 1 MiB".into()));
    }
    let text = crate::files::read_to_string(path).map_err(|e| bad(e.to_string()))?;
    if text.trim().is_empty() {
        return Err(bad("it is empty".into()));
    }
    Ok(text.trim_end().to_owned())
}

/// The question before a message goes: to, from, subject, body.
fn question(m: &Outgoing, to: &str) -> Question {
    let t = &m.thread;
    let mut lines = vec![
        format!("To:      {to}"),
        format!("From:    {}", m.from_address),
        format!("Subject: {}", m.subject),
        format!("Body:    {}", cut(&sanitize::inline(&m.body), 70)),
    ];
    if m.action == "reply"
        && !(blank(t.draft_subject.as_deref())
            && blank(t.draft_body_text.as_deref())
            && blank(t.draft_body_html.as_deref()))
    {
        lines.push("The thread keeps a draft: the service clears it when this reply goes.".into());
    }
    lines.push("A sent message cannot be taken back.".into());
    let ask = if m.action == "reply" {
        format!("Send this reply to {to}?")
    } else {
        format!("Send the draft to {to}?")
    };
    Question {
        ask,
        lines,
        always: true,
    }
}

/// Asks, sends once, reports.
async fn go(
    ctx: &Ctx,
    m: Outgoing,
    yes: bool,
    json: bool,
    out: &mut impl std::io::Write,
) -> Result<Exit, Failure> {
    let t = &m.thread;
    let to = participant(t);
    // What the thread holds now: only messages past it can be this one.
    let (_, baseline, _) = call::newest_messages(ctx, &t.id)
        .await
        .map_err(|e| Failure::api("reading the thread's messages", &e))?;
    let sent = SentMessage {
        baseline: Some(baseline),
        subject: m.subject.clone(),
        body: m.body.clone(),
    };
    let record = Record::send(&t.id, &sent, m.action == "reply");
    let q = question(&m, &to);
    confirm::ask(ctx, &q, &record.key, yes).await?;
    let doing = format!(
        "{} thread {} ({to})",
        if m.action == "reply" {
            "replying in"
        } else {
            "sending the draft of"
        },
        t.id
    );
    let w = Write {
        req: ApiRequest::SendMessage {
            id: t.id.clone(),
            send: Box::new(m.send.clone()),
        },
        doing: doing.clone(),
        record,
    };
    let mut proof = Proof::Message {
        thread: t.id.clone(),
        sent,
    };
    let result = call::send::<SendMessageResponse>(ctx, &w, &mut proof)
        .await
        .map_err(|e| Failure::api(&doing, &e))?;
    report(&m, &to, &result, json, out)
}

/// Prints what the message came to; the exit code.
fn report(
    m: &Outgoing,
    to: &str,
    result: &Sent<SendMessageResponse>,
    json: bool,
    out: &mut impl std::io::Write,
) -> Result<Exit, Failure> {
    let t = &m.thread;
    let (outcome, message, check, exit) = match result {
        Sent::Done(r) => (
            "done",
            Some(MessageJson {
                id: &r.message.id,
                subject: &r.message.subject,
                sent_at: &r.message.sent_at,
            }),
            None,
            Exit::Ok,
        ),
        Sent::Lost(l) if l.found() => ("done", None, Some(l.json()), Exit::Ok),
        Sent::Lost(l) => (
            "may_have_reached",
            None,
            Some(l.json()),
            Exit::MayHaveReached,
        ),
    };
    let written = if json {
        write_json(
            out,
            &SendJson {
                action: m.action,
                thread_id: &t.id,
                to: &t.participant_email,
                from: &m.from_address,
                subject: &m.subject,
                outcome,
                message,
                check,
            },
        )
    } else if exit == Exit::Ok {
        writeln!(
            out,
            "sent: \"{}\" to {}",
            sanitize::inline(&m.subject),
            sanitize::inline(to)
        )
    } else {
        Ok(())
    };
    written.map_err(|e| stdout_failure(&e))?;
    Ok(exit)
}
