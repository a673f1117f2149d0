//! A journal line of one write, made from the operation sent and its reply:
//! what it was sent to, a short summary of what was sent (a subject,
//! counts, at most [`BODY_CHARS`] characters of a body — never the key),
//! and the outcome as `logic::write` classifies it.

use super::{Journal, Outcome, Target, WriteLine, now_text};
use crate::api::key::redact;
use crate::api::model::{DeleteLeads, LeadInput, NodeType};
use crate::api::{ApiError, ApiReply, ApiRequest, Settle};
use crate::logic::lead_field::LeadField;
use crate::logic::write;

/// Characters of a body a summary keeps.
pub(crate) const BODY_CHARS: usize = 200;

/// Characters of any other text a summary keeps (a subject, a name).
const TEXT_CHARS: usize = 120;

/// Characters of a failure's message kept.
const MESSAGE_CHARS: usize = 300;

/// What the journal says of a write before its reply: taken from the
/// request, which `execute` hands on to the client.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Draft {
    operation: String,
    target: Target,
    summary: String,
    settle: Option<Settle>,
}

/// `text` on one line, whitespace runs made one space, cut to `max`
/// characters with `…`.
pub(crate) fn clip(text: &str, max: usize) -> String {
    let one: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if one.chars().count() <= max {
        one
    } else {
        let mut cut: String = one.chars().take(max).collect();
        cut.push('…');
        cut
    }
}

/// `name: "text"` of a text field, clipped.
fn field(name: &str, text: &str, max: usize) -> String {
    format!("{name}: \"{}\"", clip(text, max))
}

fn target(kind: &str, id: Option<&str>, name: Option<&str>) -> Target {
    Target {
        kind: kind.to_owned(),
        id: id.map(str::to_owned),
        name: name
            .filter(|n| !n.trim().is_empty())
            .map(|n| clip(n, TEXT_CHARS)),
    }
}

/// The lead fields an input sets (`first_name, company`), custom fields
/// counted.
fn fields_set(input: &LeadInput) -> String {
    let mut set: Vec<String> = LeadField::ALL
        .into_iter()
        .filter(|f| f.of_input(input).is_some())
        .map(|f| f.name().to_owned())
        .collect();
    if let Some(custom) = &input.custom_fields {
        set.push(crate::text::format::plural(
            custom.len() as u64,
            "custom field",
            "custom fields",
        ));
    }
    set.join(", ")
}

/// A code shown by its first characters only (a pass code is a secret of
/// sorts).
fn masked_code(code: &str) -> String {
    let head: String = code.trim().chars().take(4).collect();
    format!("{head}…")
}

impl Draft {
    /// The journal's view of a write about to be sent.
    #[expect(
        clippy::too_many_lines,
        reason = "One arm per write of the table of operations, each a few lines: split, they would only be harder to check against it."
    )]
    pub(crate) fn of(req: &ApiRequest) -> Draft {
        let mut parts: Vec<String> = Vec::new();
        let target = match req {
            ApiRequest::CreateDomain { name } => target("domain", None, Some(name)),
            ApiRequest::VerifyDomain { id, .. } => {
                parts.push("verification triggered".into());
                target("domain", Some(id), None)
            }
            ApiRequest::CreateSearch(s) => {
                parts.push(field("intent", &s.intent, BODY_CHARS));
                target("search", None, Some(&s.title))
            }
            ApiRequest::RunSearch { id, continuation } => {
                if let Some(c) = continuation {
                    parts.push(format!("continuation: {c}"));
                }
                target("search", Some(id), None)
            }
            ApiRequest::RunAll => {
                parts.push("every search".into());
                target("search", None, None)
            }
            ApiRequest::CreateCampaign(c) => {
                parts.push(format!("type: {}", c.kind.as_str()));
                parts.push(crate::text::format::plural(
                    c.sender_account_ids.len() as u64,
                    "sender",
                    "senders",
                ));
                if let Some(l) = c.daily_limit {
                    parts.push(format!("daily limit: {l}"));
                }
                target("campaign", None, Some(&c.name))
            }
            ApiRequest::UpdateCampaign { id, update: u } => {
                if let Some(n) = &u.name {
                    parts.push(field("name", n, TEXT_CHARS));
                }
                if let Some(s) = &u.sender_account_ids {
                    parts.push(crate::text::format::plural(
                        s.len() as u64,
                        "sender",
                        "senders",
                    ));
                }
                if let Some(l) = u.daily_limit {
                    parts.push(format!("daily limit: {l}"));
                }
                for (name, set) in [
                    ("stop on reply", u.stop_on_reply),
                    ("open tracking", u.open_tracking),
                    ("skip other campaigns", u.skip_other_campaigns),
                ] {
                    if let Some(b) = set {
                        parts.push(format!("{name}: {b}"));
                    }
                }
                if u.signature.is_some() {
                    parts.push("signature".into());
                }
                if u.operating_hours.is_some() {
                    parts.push("operating hours".into());
                }
                if let Some(nodes) = &u.sequence_nodes {
                    let steps = nodes.iter().filter(|n| n.kind != NodeType::End).count();
                    parts.push(format!(
                        "sequence: {}",
                        crate::text::format::plural(steps as u64, "step", "steps")
                    ));
                    if let Some(first) = nodes.iter().find(|n| n.kind != NodeType::End) {
                        if !first.subject.trim().is_empty() {
                            parts.push(field("first subject", &first.subject, TEXT_CHARS));
                        }
                        parts.push(field("first body", &first.body, BODY_CHARS));
                    }
                }
                target("campaign", Some(id), None)
            }
            ApiRequest::LaunchCampaign { id }
            | ApiRequest::PauseCampaign { id }
            | ApiRequest::ResumeCampaign { id } => target("campaign", Some(id), None),
            ApiRequest::AddLeads { id, channel, leads } => {
                parts.push(format!(
                    "{} ({})",
                    crate::text::format::plural(leads.len() as u64, "lead", "leads"),
                    channel.as_str()
                ));
                target("campaign", Some(id), None)
            }
            ApiRequest::EditLead { id, edit } => {
                parts.push(format!("lead {}: {}", edit.id, fields_set(&edit.fields)));
                target("campaign", Some(id), None)
            }
            ApiRequest::DeleteLeads { id, which } => {
                parts.push(match which {
                    DeleteLeads::Ids { ids } => crate::text::format::plural(
                        ids.len() as u64,
                        "lead deleted",
                        "leads deleted",
                    ),
                    DeleteLeads::All { .. } => "every lead deleted".into(),
                });
                target("campaign", Some(id), None)
            }
            ApiRequest::EditGeneratedMessage { id, edit } => {
                parts.push(format!("message {}", edit.message_id));
                if let Some(s) = &edit.subject {
                    parts.push(field("subject", s, TEXT_CHARS));
                }
                if let Some(b) = edit.body_text.as_ref().or(edit.body_html.as_ref()) {
                    parts.push(field("body", b, BODY_CHARS));
                }
                target("campaign", Some(id), None)
            }
            ApiRequest::CreateThread(t) => {
                if let Some(s) = &t.draft_subject {
                    parts.push(field("subject", s, TEXT_CHARS));
                }
                if let Some(b) = t.draft_body_text.as_ref().or(t.draft_body_html.as_ref()) {
                    parts.push(field("body", b, BODY_CHARS));
                }
                target("thread", None, t.participant_email.as_deref())
            }
            ApiRequest::PatchThread { id, patch: p } => {
                if let Some(s) = &p.status {
                    parts.push(format!("status: {}", s.as_str()));
                }
                if let Some(e) = &p.participant_email {
                    parts.push(format!("to: {}", clip(e, TEXT_CHARS)));
                }
                if let Some(s) = &p.draft_subject {
                    parts.push(field(
                        "draft subject",
                        s.as_deref().unwrap_or(""),
                        TEXT_CHARS,
                    ));
                }
                if let Some(b) = &p.draft_body_text {
                    parts.push(field("draft body", b.as_deref().unwrap_or(""), BODY_CHARS));
                }
                if let Some(n) = p.unread_count {
                    parts.push(format!("unread: {n}"));
                }
                target("thread", Some(id), None)
            }
            ApiRequest::DeleteThread { id } => target("thread", Some(id), None),
            ApiRequest::SendMessage { id, send } => {
                if let Some(s) = &send.subject {
                    parts.push(field("subject", s, TEXT_CHARS));
                }
                if let Some(b) = send.body_text.as_ref().or(send.body_html.as_ref()) {
                    parts.push(field("body", b, BODY_CHARS));
                }
                if let Some(a) = &send.account_id {
                    parts.push(format!("from sender {a}"));
                }
                target("thread", Some(id), None)
            }
            ApiRequest::PutContext(_) => target("profile", None, Some("company profile")),
            ApiRequest::Redeem { code } => {
                parts.push(format!("code {}", masked_code(code)));
                target("pass", None, None)
            }
            // Reads are never recorded; a write added to the table without
            // an arm here is still recorded, by its name.
            _ => target("", None, None),
        };
        Draft {
            operation: req.name().to_owned(),
            target,
            summary: redact(&parts.join("; ")),
            settle: req.settle(),
        }
    }

    /// The journal's view of a write sent around the table of operations
    /// (a client method called directly): named by its route, its target
    /// read from the path, its summary from the JSON body.
    pub(crate) fn of_route(method: &str, path: &str, body: Option<&[u8]>) -> Draft {
        let segs: Vec<&str> = path.trim_start_matches('/').split('/').collect();
        let (kind, id) = match segs.as_slice() {
            ["api", "email", "domains", rest @ ..] => ("domain", rest.first()),
            ["api", "lead-finder", "run", ..] => ("search", None),
            ["api", "lead-finder", rest @ ..] => ("search", rest.first()),
            ["api", "campaigns", rest @ ..] => ("campaign", rest.first()),
            ["api", "threads", rest @ ..] => ("thread", rest.first()),
            ["api", "senders", rest @ ..] => ("sender", rest.first()),
            ["api", "context", ..] => ("profile", None),
            ["api", "test-access", ..] => ("pass", None),
            _ => ("", None),
        };
        let summary = body
            .and_then(|b| serde_json::from_slice::<serde_json::Value>(b).ok())
            .map(|v| json_summary(&v))
            .unwrap_or_default();
        Draft {
            operation: format!("{method} {path}"),
            target: target(kind, id.copied().filter(|i| !i.is_empty()), None),
            summary: redact(&summary),
            settle: None,
        }
    }

    /// The write line of a write sent around the table, once its answer
    /// (`error`, if it failed) came.
    pub(crate) fn finish_route(
        self,
        error: Option<&ApiError>,
        id: String,
        journal: &Journal,
    ) -> WriteLine {
        self.line(error, (None, None), id, journal)
    }

    /// The write line of this write once `reply` came, named `id`.
    pub(crate) fn finish(self, reply: &ApiReply, id: String, journal: &Journal) -> WriteLine {
        self.line(reply.error(), answered(reply), id, journal)
    }

    fn line(
        self,
        error: Option<&ApiError>,
        found: (Option<String>, Option<String>),
        id: String,
        journal: &Journal,
    ) -> WriteLine {
        let mut target = self.target;
        let (found_id, found_name) = found;
        if target.id.is_none() {
            target.id = found_id;
        }
        if target.name.is_none() {
            target.name = found_name.map(|n| clip(&n, TEXT_CHARS));
        }
        target.name = target.name.map(|n| redact(&n));
        let mut line = WriteLine {
            id,
            at: now_text(),
            profile: journal.profile().map(str::to_owned),
            source: journal.source(),
            operation: self.operation,
            target,
            summary: self.summary,
            outcome: Outcome::Done,
            status: None,
            code: None,
            message: None,
            settle: None,
        };
        if let Some(e) = error {
            failed(&mut line, e, self.settle);
        }
        line
    }
}

/// A JSON body said short: each top-level field, a text clipped (a body's
/// to [`BODY_CHARS`]), a list by its length, a code by its start.
fn json_summary(v: &serde_json::Value) -> String {
    use serde_json::Value;
    let Value::Object(map) = v else {
        return String::new();
    };
    let parts: Vec<String> = map
        .iter()
        .map(|(k, v)| match v {
            Value::String(_) if k == "code" => {
                format!("code {}", masked_code(v.as_str().unwrap_or("")))
            }
            Value::String(s) if k.contains("body") => field(k, s, BODY_CHARS),
            Value::String(s) => field(k, s, TEXT_CHARS),
            Value::Array(a) => format!(
                "{k}: {}",
                crate::text::format::plural(a.len() as u64, "item", "items")
            ),
            Value::Object(_) => k.clone(),
            other => format!("{k}: {other}"),
        })
        .collect();
    clip(&parts.join("; "), 2 * BODY_CHARS)
}

/// Fills in a failed write's outcome, code and message.
fn failed(line: &mut WriteLine, e: &ApiError, settle: Option<Settle>) {
    line.outcome = match write::of_error(e) {
        write::Outcome::Done => Outcome::Done,
        write::Outcome::Refused => Outcome::Refused,
        write::Outcome::MayHaveReached => Outcome::MayHaveReached,
    };
    line.status = e.status();
    line.code = Some(e.code().to_owned());
    line.message = Some(redact(&clip(&e.message(), MESSAGE_CHARS)));
    if line.outcome == Outcome::MayHaveReached {
        line.settle = settle.map(|s| {
            match s {
                Settle::Check => "check",
                Settle::SafeToRepeat => "safe_to_repeat",
                Settle::NoCheck => "no_check",
            }
            .to_owned()
        });
    }
}

/// The id and name of what a successful answer is about (a created
/// campaign's, a thread's participant).
fn answered(reply: &ApiReply) -> (Option<String>, Option<String>) {
    let some = |s: &str| (!s.trim().is_empty()).then(|| s.to_owned());
    match reply {
        ApiReply::Domain(Ok(d)) => (some(&d.id), some(&d.domain)),
        ApiReply::SearchCreated(r) => match r.as_ref() {
            Ok(s) => (some(&s.search_id), some(&s.title)),
            Err(_) => (None, None),
        },
        ApiReply::RunStarted(r) => match r.as_ref() {
            Ok(run) => (some(&run.search.search_id), some(&run.search.title)),
            Err(_) => (None, None),
        },
        ApiReply::Campaign(r) => match r.as_ref() {
            Ok(c) => (some(&c.id), some(&c.name)),
            Err(_) => (None, None),
        },
        ApiReply::Thread(r) => match r.as_ref() {
            Ok(t) => (some(&t.id), some(&t.participant_email)),
            Err(_) => (None, None),
        },
        ApiReply::ThreadCreated(r) => match r.as_ref() {
            Ok(t) => (some(&t.thread.id), some(&t.thread.participant_email)),
            Err(_) => (None, None),
        },
        ApiReply::Sent(r) => match r.as_ref() {
            Ok(s) => (some(&s.thread.id), some(&s.thread.participant_email)),
            Err(_) => (None, None),
        },
        _ => (None, None),
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::api::error::ServiceError;
    use crate::api::model::{Campaign, SendMessage, SendMessageResponse, Thread};
    use crate::journal::Source;

    fn journal() -> Journal {
        Journal::new("unused".into(), Some("acme".into()), Source::Dashboard)
    }

    fn send(body: &str) -> ApiRequest {
        ApiRequest::SendMessage {
            id: "t-1".into(),
            send: Box::new(SendMessage {
                account_id: Some("s-1".into()),
                subject: Some("Re: pricing".into()),
                body_text: Some(body.into()),
                body_html: None,
            }),
        }
    }

    fn sent() -> ApiReply {
        ApiReply::Sent(Box::new(Ok(SendMessageResponse {
            thread: Thread {
                id: "t-1".into(),
                participant_email: "rosa@example.com".into(),
                ..Thread::default()
            },
            ..SendMessageResponse::default()
        })))
    }

    #[test]
    fn a_send_says_to_whom_what_subject_and_the_start_of_the_body() {
        let body = format!("Hi Rosa,\n\n  {}", "word ".repeat(100));
        let line = Draft::of(&send(&body)).finish(&sent(), "e-1".into(), &journal());
        assert_eq!(line.operation, "SendMessage");
        assert_eq!(line.target.kind, "thread");
        assert_eq!(line.target.id.as_deref(), Some("t-1"));
        assert_eq!(line.target.name.as_deref(), Some("rosa@example.com"));
        assert_eq!(line.outcome, Outcome::Done);
        assert_eq!((line.code, line.settle), (None, None));
        let expected_body: String = format!("Hi Rosa, {}", "word ".repeat(100))
            .chars()
            .take(BODY_CHARS)
            .collect();
        assert_eq!(
            line.summary,
            format!("subject: \"Re: pricing\"; body: \"{expected_body}…\"; from sender s-1")
        );
        assert_eq!(line.profile.as_deref(), Some("acme"));
        assert_eq!(line.source, Source::Dashboard);
    }

    #[test]
    fn a_key_in_what_was_sent_never_reaches_the_journal() {
        let line = Draft::of(&send("my key is pk_live_abcdefghijklmnopqrstu, keep it")).finish(
            &sent(),
            "e-1".into(),
            &journal(),
        );
        assert!(
            !line.summary.contains("pk_live_abcdefghijklmnopqrstu"),
            "{}",
            line.summary
        );
        assert!(line.summary.contains("keep it"), "{}", line.summary);
    }

    #[test]
    fn a_refusal_keeps_its_code_and_a_lost_answer_how_it_is_settled() {
        let launch = ApiRequest::LaunchCampaign { id: "c-1".into() };
        let mut e = ServiceError::from_body(
            409,
            br#"{"error":{"code":"conflict","message":"Campaign is not a draft"}}"#,
            None,
        );
        e.may_have_reached = false;
        let refused = ApiReply::Campaign(Box::new(Err(ApiError::Service(Box::new(e)))));
        let line = Draft::of(&launch).finish(&refused, "e-1".into(), &journal());
        assert_eq!(line.outcome, Outcome::Refused);
        assert_eq!(line.status, Some(409));
        assert_eq!(line.code.as_deref(), Some("conflict"));
        assert_eq!(line.message.as_deref(), Some("Campaign is not a draft"));
        assert_eq!(line.settle, None);
        assert_eq!(line.target.id.as_deref(), Some("c-1"));

        let lost = ApiReply::Campaign(Box::new(Err(ApiError::Timeout {
            method: "POST".into(),
            after: Duration::from_secs(30),
            may_have_reached: true,
        })));
        let line = Draft::of(&launch).finish(&lost, "e-2".into(), &journal());
        assert_eq!(line.outcome, Outcome::MayHaveReached);
        assert_eq!(line.code.as_deref(), Some("timeout"));
        assert_eq!(line.settle.as_deref(), Some("check"));

        let done = ApiReply::Campaign(Box::new(Ok(Campaign {
            id: "c-1".into(),
            name: "Spring push".into(),
            ..Campaign::default()
        })));
        let line = Draft::of(&launch).finish(&done, "e-3".into(), &journal());
        assert_eq!(line.target.name.as_deref(), Some("Spring push"));
    }

    #[test]
    fn a_write_sent_around_the_table_is_named_by_its_route() {
        let d = Draft::of_route(
            "POST",
            "/api/threads/t-9/messages",
            Some(br#"{"subject":"Hi","body_text":"Hello   there","cc":["a","b"]}"#),
        );
        let lost = ApiError::Timeout {
            method: "POST".into(),
            after: Duration::from_secs(30),
            may_have_reached: true,
        };
        let line = d.finish_route(Some(&lost), "e-1".into(), &journal());
        assert_eq!(line.operation, "POST /api/threads/t-9/messages");
        assert_eq!(
            (line.target.kind.as_str(), line.target.id.as_deref()),
            ("thread", Some("t-9"))
        );
        assert_eq!(
            line.summary,
            r#"body_text: "Hello there"; cc: 2 items; subject: "Hi""#
        );
        assert_eq!(line.outcome, Outcome::MayHaveReached);
        assert_eq!(line.settle, None, "not known off the table");
        let run_all = Draft::of_route("POST", "/api/lead-finder/run", None);
        assert_eq!(
            (run_all.target.kind.as_str(), run_all.target.id),
            ("search", None)
        );
        let redeem = Draft::of_route(
            "POST",
            "/api/test-access/redeem",
            Some(br#"{"code":"SECRET-1"}"#),
        );
        assert_eq!(redeem.summary, "code SECR…");
    }

    #[test]
    fn counts_stand_for_lists_and_a_pass_code_is_masked() {
        let add = ApiRequest::AddLeads {
            id: "c-1".into(),
            channel: crate::api::model::Channel::Email,
            leads: std::sync::Arc::from(vec![LeadInput::default(); 1000]),
        };
        assert_eq!(Draft::of(&add).summary, "1,000 leads (email)");
        let delete = ApiRequest::DeleteLeads {
            id: "c-1".into(),
            which: DeleteLeads::Ids {
                ids: vec!["a".into(), "b".into()],
            },
        };
        assert_eq!(Draft::of(&delete).summary, "2 leads deleted");
        let redeem = ApiRequest::Redeem {
            code: "PASS-1234-5678".into(),
        };
        let d = Draft::of(&redeem);
        assert_eq!(d.summary, "code PASS…");
        assert_eq!(d.target.kind, "pass");
    }
}
