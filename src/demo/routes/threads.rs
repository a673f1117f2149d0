//! Inbox threads: list, read, create (duplicate-recipient 409, attachments
//! 403), patch, delete drafts, list and send messages (which the
//! participant may answer, see [`crate::demo::sim`]).

use std::sync::Arc;

use axum::Extension;
use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use serde_json::Value;

use super::{Body, Ids, to_usize, with};
use crate::api::model::*;
use crate::api::validate;
use crate::demo::App;
use crate::demo::auth::Ws;
use crate::demo::clock::iso;
use crate::demo::errors::{
    DemoError, DemoResult, conflict, conflict_with, flat, internal, invalid, invalid_field,
    invalid_fields, not_found,
};
use crate::demo::http::{Query, created, json_value, ok};
use crate::demo::ids::hash_str;
use crate::demo::schema::{S, arr, check_body, int, null_or, open};
use crate::demo::sim;
use crate::demo::store::*;
use crate::logic::lead_field::looks_like_email;

fn find(ws: &Workspace, id: &str) -> DemoResult<usize> {
    ws.thread(id).ok_or_else(|| not_found("Thread not found"))
}

fn attachments_refused() -> DemoError {
    flat(
        StatusCode::FORBIDDEN,
        "Attachments can only be added from a dashboard session; API keys cannot send draft_attachments",
    )
}

/// A non-null `account_id` must be a ready email sender of the workspace.
fn check_account(ws: &Workspace, id: &str) -> DemoResult<()> {
    match ws.sender(id) {
        None => Err(invalid_field(
            "account_id",
            "not a sender account of this workspace",
        )),
        Some(s) if s.kind != Channel::Email => Err(invalid_field(
            "account_id",
            "must be an email sender account",
        )),
        Some(s) if !ready_email_sender(s) => Err(invalid_field(
            "account_id",
            &format!(
                "the sender is {} and not ready to send; reconnect it in the web dashboard",
                s.status
            ),
        )),
        Some(_) => Ok(()),
    }
}

fn check_email(email: &str) -> DemoResult<()> {
    if email.is_empty() || looks_like_email(email) {
        Ok(())
    } else {
        Err(invalid_field("participant_email", "not an email address"))
    }
}

fn decode<T: serde::de::DeserializeOwned>(v: Value) -> DemoResult<T> {
    serde_json::from_value(v).map_err(|e| invalid(format!("body: {e}")))
}

/// `GET /api/threads`: newest activity first; warm-up threads hidden.
pub(super) async fn list(
    State(app): State<Arc<App>>,
    Extension(w): Extension<Ws>,
    RawQuery(q): RawQuery,
) -> DemoResult {
    let q = Query::parse(q.as_deref());
    let (page, limit) = (q.int("page")?, q.int("limit")?);
    validate::thread_paging(page, limit).map_err(|e| invalid_fields(&e))?;
    let status = match q.get("status").filter(|s| !s.is_empty()) {
        Some(s) => {
            let st = ThreadStatus::parse(s);
            if !st.is_known() {
                return Err(invalid_field("status", "one of draft, active, archived"));
            }
            Some(st)
        }
        None => None,
    };
    let (page, limit) = (page.unwrap_or(1), limit.unwrap_or(50));
    with(&app, w, |cx| {
        let mut threads: Vec<&ThreadRec> = cx
            .ws
            .threads
            .iter()
            .filter(|t| !t.warmup && status.as_ref().is_none_or(|s| &t.t.status == s))
            .collect();
        threads.sort_by(|a, b| b.t.updated_at.cmp(&a.t.updated_at));
        let skip = to_usize((page - 1).saturating_mul(limit));
        Ok(ok(ThreadPage {
            total: threads.len() as u64,
            threads: threads
                .iter()
                .skip(skip)
                .take(to_usize(limit))
                .map(|t| t.t.clone())
                .collect(),
            page,
            limit,
        }))
    })
}

/// `GET /api/threads/{id}`.
pub(super) async fn get(
    State(app): State<Arc<App>>,
    Extension(w): Extension<Ws>,
    ids: Ids,
) -> DemoResult {
    with(&app, w, |cx| {
        let ti = find(cx.ws, ids.get(0))?;
        Ok(ok(ThreadEnvelope {
            thread: cx.ws.threads[ti].t.clone(),
        }))
    })
}

fn draft_fields(nullable: bool) -> Vec<(&'static str, S, bool)> {
    let s = || if nullable { null_or(S::Str) } else { S::Str };
    vec![
        ("participant_email", S::Str, false),
        ("account_id", null_or(S::Str), false),
        ("participant_name", S::Str, false),
        ("draft_subject", s(), false),
        ("draft_body_text", s(), false),
        ("draft_body_html", s(), false),
        ("draft_cc", s(), false),
        ("draft_bcc", s(), false),
    ]
}

/// `POST /api/threads`: a draft; never sends.
pub(super) async fn create(
    State(app): State<Arc<App>>,
    Extension(w): Extension<Ws>,
    Body(bytes): Body,
) -> DemoResult {
    let v = json_value(&bytes)?;
    if v.get("draft_attachments")
        .and_then(Value::as_array)
        .is_some_and(|a| !a.is_empty())
    {
        return Err(attachments_refused());
    }
    let mut fields = draft_fields(false);
    fields.push(("draft_attachments", null_or(arr(S::Any)), false));
    check_body(&open(fields), &v).map_err(|e| invalid_fields(&e))?;
    let req: CreateThread = decode(v)?;
    validate::create_thread(&req).map_err(|e| invalid_fields(&e))?;
    let email = req
        .participant_email
        .as_deref()
        .unwrap_or_default()
        .trim()
        .to_lowercase();
    check_email(&email)?;
    with(&app, w, |cx| {
        let account = req.account_id.clone().flatten();
        if let Some(a) = &account {
            check_account(cx.ws, a)?;
        }
        if let Some(b) = blocking_thread(cx.ws, account.as_deref(), &email, None) {
            let extra = duplicate_extra(cx.ws, &b.t, &email, None);
            return Err(conflict_with(
                "This sender already has an open thread with this recipient",
                extra,
            ));
        }
        let existing = existing_threads(cx.ws, &email, None);
        let thread = Thread {
            id: cx.ids.uuid(),
            channel: "email".into(),
            status: ThreadStatus::Draft,
            account_id: account,
            participant_email: email,
            participant_name: req.participant_name.clone(),
            draft_subject: req.draft_subject.clone(),
            draft_body_text: req.draft_body_text.clone(),
            draft_body_html: req.draft_body_html.clone(),
            draft_cc: req.draft_cc.clone(),
            draft_bcc: req.draft_bcc.clone(),
            unread_count: 0,
            draft_attachments: Vec::new(),
            created_at: Some(iso(cx.now)),
            updated_at: Some(iso(cx.now)),
        };
        cx.ws.threads.push(ThreadRec::new(thread.clone()));
        Ok(created(CreateThreadResponse {
            thread,
            existing_threads: existing,
        }))
    })
}

/// `PATCH /api/threads/{id}`.
pub(super) async fn patch(
    State(app): State<Arc<App>>,
    Extension(w): Extension<Ws>,
    ids: Ids,
    Body(bytes): Body,
) -> DemoResult {
    let v = json_value(&bytes);
    with(&app, w, |cx| {
        let ti = find(cx.ws, ids.get(0))?;
        let v = v?;
        if v.get("draft_attachments").is_some() {
            return Err(attachments_refused());
        }
        let mut fields = draft_fields(true);
        fields.push(("status", S::Str, false));
        fields.push(("unread_count", int(), false));
        check_body(&open(fields), &v).map_err(|e| invalid_fields(&e))?;
        let req: PatchThread = decode(v)?;
        validate::patch_thread(&req).map_err(|e| invalid_fields(&e))?;
        let cur = &cx.ws.threads[ti].t;
        let email = match &req.participant_email {
            Some(e) => {
                let e = e.trim().to_lowercase();
                check_email(&e)?;
                e
            }
            None => cur.participant_email.clone(),
        };
        let account = match &req.account_id {
            Some(Some(a)) => {
                check_account(cx.ws, a)?;
                Some(a.clone())
            }
            Some(None) => None,
            None => cur.account_id.clone(),
        };
        let status = req.status.clone().unwrap_or_else(|| cur.status.clone());
        let identity_changed = account != cur.account_id || email != cur.participant_email;
        if identity_changed
            && status != ThreadStatus::Archived
            && let Some(b) = blocking_thread(cx.ws, account.as_deref(), &email, Some(ids.get(0)))
        {
            let extra = duplicate_extra(cx.ws, &b.t, &email, Some(ids.get(0)));
            return Err(conflict_with(
                "This sender already has an open thread with this recipient",
                extra,
            ));
        }
        // `updated_at` is the last activity (it orders the list): editing
        // the draft, recipient or sender is activity; marking read or
        // changing the status is not, so opening a thread never moves it.
        let activity = req.participant_email.is_some()
            || req.participant_name.is_some()
            || req.account_id.is_some()
            || req.draft_subject.is_some()
            || req.draft_body_text.is_some()
            || req.draft_body_html.is_some()
            || req.draft_cc.is_some()
            || req.draft_bcc.is_some();
        let now = iso(cx.now);
        let t = &mut cx.ws.threads[ti].t;
        t.status = status;
        t.account_id = account;
        t.participant_email = email;
        if let Some(n) = &req.participant_name {
            t.participant_name = Some(n.clone());
        }
        if let Some(n) = req.unread_count {
            t.unread_count = n;
        }
        for (dst, src) in [
            (&mut t.draft_subject, &req.draft_subject),
            (&mut t.draft_body_text, &req.draft_body_text),
            (&mut t.draft_body_html, &req.draft_body_html),
            (&mut t.draft_cc, &req.draft_cc),
            (&mut t.draft_bcc, &req.draft_bcc),
        ] {
            if let Some(v) = src {
                *dst = v.clone();
            }
        }
        if activity {
            t.updated_at = Some(now);
        }
        Ok(ok(ThreadEnvelope { thread: t.clone() }))
    })
}

/// `DELETE /api/threads/{id}`: only an unsent draft.
pub(super) async fn delete(
    State(app): State<Arc<App>>,
    Extension(w): Extension<Ws>,
    ids: Ids,
) -> DemoResult {
    with(&app, w, |cx| {
        let ti = find(cx.ws, ids.get(0))?;
        let t = &cx.ws.threads[ti];
        if t.t.status != ThreadStatus::Draft || !t.messages.is_empty() {
            return Err(conflict(format!(
                "Only unsent drafts can be deleted (this thread is {}{})",
                t.t.status,
                if t.messages.is_empty() {
                    ""
                } else {
                    " and has messages"
                }
            )));
        }
        if t.t.participant_email.ends_with("@delete-fails.test") {
            return Err(internal("Unexpected failure while deleting the thread"));
        }
        cx.ws.threads.remove(ti);
        Ok(ok(Deleted { deleted: true }))
    })
}

/// `GET /api/threads/{id}/messages`: oldest first; does not mark read.
pub(super) async fn messages(
    State(app): State<Arc<App>>,
    Extension(w): Extension<Ws>,
    ids: Ids,
    RawQuery(q): RawQuery,
) -> DemoResult {
    let q = Query::parse(q.as_deref());
    let paging = (|| {
        let (page, limit) = (q.int("page")?, q.int("limit")?);
        validate::thread_paging(page, limit).map_err(|e| invalid_fields(&e))?;
        Ok((page.unwrap_or(1), limit.unwrap_or(50)))
    })();
    with(&app, w, |cx| {
        let ti = find(cx.ws, ids.get(0))?;
        let (page, limit) = paging?;
        let t = &cx.ws.threads[ti];
        let skip = to_usize((page - 1).saturating_mul(limit));
        Ok(ok(MessagesPage {
            messages: t
                .messages
                .iter()
                .skip(skip)
                .take(to_usize(limit))
                .cloned()
                .collect(),
            total: t.messages.len() as u64,
            page,
            limit,
        }))
    })
}

/// `POST /api/threads/{id}/messages`: sends; the thread becomes active and
/// its draft fields are cleared.
pub(super) async fn send(
    State(app): State<Arc<App>>,
    Extension(w): Extension<Ws>,
    ids: Ids,
    Body(bytes): Body,
) -> DemoResult {
    let v = if bytes.iter().all(u8::is_ascii_whitespace) {
        Ok(Value::Object(Default::default()))
    } else {
        json_value(&bytes)
    };
    with(&app, w, |cx| {
        let ti = find(cx.ws, ids.get(0))?;
        let v = v?;
        check_body(
            &open(vec![
                ("account_id", null_or(S::Str), false),
                ("subject", S::Str, false),
                ("body_text", S::Str, false),
                ("body_html", S::Str, false),
            ]),
            &v,
        )
        .map_err(|e| invalid_fields(&e))?;
        let req: SendMessage = decode(v)?;
        let t = &cx.ws.threads[ti].t;
        if t.participant_email.is_empty() {
            return Err(invalid_field(
                "participant_email",
                "required to send; set it on the thread first",
            ));
        }
        let account = req.account_id.clone().or_else(|| t.account_id.clone());
        let Some(account) = account else {
            return Err(invalid_field(
                "account_id",
                "a ready email sender is required to send",
            ));
        };
        check_account(cx.ws, &account)?;
        let t = &cx.ws.threads[ti].t;
        let subject = req
            .subject
            .clone()
            .or_else(|| t.draft_subject.clone())
            .unwrap_or_default();
        let body = req
            .body_text
            .clone()
            .or_else(|| t.draft_body_text.clone())
            .or_else(|| req.body_html.clone())
            .or_else(|| t.draft_body_html.clone())
            .unwrap_or_default();
        let message = ThreadMessage {
            id: cx.ids.uuid(),
            conversation_id: t.id.clone(),
            direction: "outbound".into(),
            subject,
            body_text: body,
            sent_at: iso(cx.now),
        };
        let rec = &mut cx.ws.threads[ti];
        rec.messages.push(message.clone());
        if let Some(r) = sim::draw_reply(hash_str(&message.id), &message.subject, cx.now) {
            rec.expect_reply(r);
        }
        let t = &mut rec.t;
        t.status = ThreadStatus::Active;
        t.account_id = Some(account);
        t.draft_subject = None;
        t.draft_body_text = None;
        t.draft_body_html = None;
        t.draft_cc = None;
        t.draft_bcc = None;
        // The attachments went out with the message.
        t.draft_attachments.clear();
        t.updated_at = Some(iso(cx.now));
        Ok(created(SendMessageResponse {
            message,
            thread: t.clone(),
        }))
    })
}
