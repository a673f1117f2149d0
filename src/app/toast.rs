//! Toasts: short notices and errors in a corner, expiring on their own.
//! Errors show the service's `error.code` and message.
//!
//! At most [`Toasts::MAX`] are on screen; the same message again refreshes
//! the one shown and counts (`×3`) instead of stacking. Every message is
//! also kept whole in a log of the last [`Toasts::LOG`], which `:messages`
//! lists — a toast that had to be cut says so.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use crate::api::ApiError;
use crate::text::sanitize::DisplayText;

/// How a toast looks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// Neutral information.
    Info,
    /// Something finished well.
    Success,
    /// Worth a look.
    Warning,
    /// Something failed.
    Error,
}

impl Level {
    /// A short name for the message log.
    pub fn name(self) -> &'static str {
        match self {
            Level::Info => "info",
            Level::Success => "done",
            Level::Warning => "warning",
            Level::Error => "error",
        }
    }
}

/// One toast.
#[derive(Debug, Clone, PartialEq)]
pub struct Toast {
    /// Identity, for expiry.
    pub id: u64,
    /// Its level, which picks its colour and mark.
    pub level: Level,
    /// Short title: the error code or what happened.
    pub title: DisplayText,
    /// The text under the title: what happened and what to do.
    pub text: DisplayText,
    /// How many times it was said in a row (shown as `×n` above 1).
    pub count: u32,
    /// When it goes away.
    pub expires: Instant,
}

impl Toast {
    /// The title with its repeat count (`timeout · loading ×3`).
    pub fn heading(&self) -> String {
        if self.count > 1 {
            format!("{} ×{}", self.title, self.count)
        } else {
            self.title.to_string()
        }
    }
}

/// One message of the log `:messages` shows, kept whole.
#[derive(Debug, Clone, PartialEq)]
pub struct Logged {
    /// Its level, which picks its colour and mark.
    pub level: Level,
    /// Title.
    pub title: DisplayText,
    /// The whole message.
    pub text: DisplayText,
    /// Times said in a row.
    pub count: u32,
    /// When it was last said.
    pub at: Instant,
}

/// The toasts on screen, newest last, and the log of recent messages.
#[derive(Debug, Clone, PartialEq)]
pub struct Toasts {
    items: Vec<Toast>,
    log: VecDeque<Logged>,
    next_id: u64,
    /// Notices pushed since the start (the runtime writes each new one to
    /// the log file).
    pushed: u64,
    /// The key label of Refresh, for "r retries" (set from the keymap).
    retry_key: String,
}

impl Default for Toasts {
    fn default() -> Self {
        Toasts {
            items: Vec::new(),
            log: VecDeque::new(),
            next_id: 0,
            pushed: 0,
            retry_key: "r".into(),
        }
    }
}

impl Toasts {
    /// Most toasts shown at once: a third stacked over the rows read
    /// more than it told.
    pub const MAX: usize = 2;
    /// How long a toast stays, whatever its level (`:messages` keeps it).
    pub const TTL: Duration = Duration::from_secs(4);
    /// Most messages kept for `:messages`.
    pub const LOG: usize = 50;

    /// Sets the key named in "r retries" (the keymap's Refresh key).
    pub fn set_retry_key(&mut self, label: &str) {
        label.clone_into(&mut self.retry_key);
    }

    /// Adds a toast; the same message as one on screen counts up instead.
    pub fn push(&mut self, now: Instant, level: Level, title: &str, text: &str) {
        let ttl = Self::TTL;
        let title = DisplayText::inline(title);
        let text = DisplayText::block(text);
        self.pushed = self.pushed.wrapping_add(1);
        self.log_message(now, level, &title, &text);
        // A failing poller says the same thing every few seconds: one toast
        // counts it, moved to the newest place.
        if let Some(i) = self
            .items
            .iter()
            .position(|t| t.level == level && t.title == title && t.text == text)
        {
            let mut t = self.items.remove(i);
            t.count = t.count.saturating_add(1);
            t.expires = now + ttl;
            self.items.push(t);
            return;
        }
        self.next_id += 1;
        self.items.push(Toast {
            id: self.next_id,
            level,
            title,
            text,
            count: 1,
            expires: now + ttl,
        });
        if self.items.len() > Self::MAX {
            self.items.remove(0);
        }
    }

    fn log_message(&mut self, now: Instant, level: Level, title: &DisplayText, text: &DisplayText) {
        if let Some(last) = self.log.back_mut()
            && last.level == level
            && last.title == *title
            && last.text == *text
        {
            last.count = last.count.saturating_add(1);
            last.at = now;
            return;
        }
        self.log.push_back(Logged {
            level,
            title: title.clone(),
            text: text.clone(),
            count: 1,
            at: now,
        });
        if self.log.len() > Self::LOG {
            self.log.pop_front();
        }
    }

    /// Adds an error toast for a failed call: `code · context` as title, the
    /// message below; "r retries" only when retrying can help; for a 401 how
    /// to fix the key; when the request may have been accepted, a refresh
    /// to check instead of a resend.
    pub fn error(&mut self, now: Instant, context: &str, err: &ApiError) {
        let title = format!("{} · {}", err.code(), context);
        let text = error_body(err, &self.retry_key);
        self.push(now, Level::Error, &title, &text);
    }

    /// How many notices were pushed since the start: when it changes, the
    /// newest entry of [`Toasts::log`] is new.
    pub fn pushed(&self) -> u64 {
        self.pushed
    }

    /// Drops expired toasts; returns whether any went.
    pub fn expire(&mut self, now: Instant) -> bool {
        let before = self.items.len();
        self.items.retain(|t| t.expires > now);
        before != self.items.len()
    }

    /// Takes back every toast titled `title` still on screen, each with the
    /// newest log entry saying the same: a notice the next message proved
    /// wrong is not left behind in `:messages` either. Entries of earlier
    /// occasions, no longer on screen, stay.
    pub fn retract(&mut self, title: &str) {
        let (gone, kept): (Vec<Toast>, Vec<Toast>) = std::mem::take(&mut self.items)
            .into_iter()
            .partition(|t| t.title.as_str() == title);
        self.items = kept;
        for t in gone {
            if let Some(i) = self
                .log
                .iter()
                .rposition(|l| l.level == t.level && l.title == t.title && l.text == t.text)
            {
                self.log.remove(i);
            }
        }
    }

    /// Dismisses every toast (the log keeps them).
    pub fn clear(&mut self) -> bool {
        let had = !self.items.is_empty();
        self.items.clear();
        had
    }

    /// The toasts, oldest first.
    pub fn items(&self) -> &[Toast] {
        &self.items
    }

    /// The recent messages, oldest first, whole.
    pub fn log(&self) -> impl DoubleEndedIterator<Item = &Logged> + ExactSizeIterator {
        self.log.iter()
    }

    /// Whether there are none on screen.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}

/// An error as one line, `code: message`, without the code twice (some
/// messages begin with it: `timeout: timeout: no answer` is never shown).
pub(crate) fn error_text(err: &ApiError) -> String {
    format!("{}: {}", err.code(), err.message())
}

/// The body of an error toast (see [`Toasts::error`]); `key` is the label
/// of the Refresh key.
pub(crate) fn error_body(err: &ApiError, key: &str) -> String {
    if err.maybe_accepted() {
        return format!(
            "{}. The request may have been accepted, so it was not sent again — {key} refreshes to check before you send it again.",
            uncertain_detail(err)
        );
    }
    let message = err.message();
    if err.is_unauthorized() {
        if message.contains("refused the API key") {
            return message;
        }
        return format!(
            "{message}. The service refused the API key: put a valid key in the config file (`api_key`) or in OUTPOST_API_KEY, then run `outpost check` to test it"
        );
    }
    match err {
        ApiError::RateLimited { .. } => format!("{message} — {key} tries once now"),
        _ if err.retryable() => format!("{message} — {key} retries"),
        _ => message,
    }
}

/// What went wrong with a request that may have been accepted, without the
/// advice the error's own text adds (the toast gives its own).
fn uncertain_detail(err: &ApiError) -> String {
    match err {
        ApiError::Timeout { method, after, .. } => {
            format!("No answer to the {method} within {}s", after.as_secs_f32())
        }
        ApiError::Transport { detail, .. } => format!("The connection was lost: {detail}"),
        ApiError::Decode { status, detail, .. } => {
            format!("The service said {status} but its answer could not be read: {detail}")
        }
        ApiError::TooLarge { limit, .. } => {
            format!("The service's answer exceeded {limit} bytes and was dropped")
        }
        ApiError::TooMany { what, .. } => format!("The answer was dropped: {what}"),
        other => other.message(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::ServiceError;

    fn service(status: u16, body: &str) -> ApiError {
        ApiError::Service(Box::new(ServiceError::from_body(
            status,
            body.as_bytes(),
            None,
        )))
    }

    fn body_of(t: &Toasts) -> String {
        t.items()
            .last()
            .map(|t| t.text.to_string())
            .unwrap_or_default()
    }

    #[test]
    fn repeats_count_up_and_at_most_two_show() {
        let now = Instant::now();
        let mut t = Toasts::default();
        for _ in 0..3 {
            t.push(now, Level::Error, "timeout · loading", "no answer");
        }
        assert_eq!(t.items().len(), 1);
        assert_eq!(t.items()[0].heading(), "timeout · loading ×3");
        for i in 0..5 {
            t.push(now, Level::Info, &format!("n{i}"), "x");
        }
        assert_eq!(t.items().len(), 2);
        // A repeat of one still shown moves it to the newest place.
        t.push(now, Level::Info, "n3", "x");
        let titles: Vec<String> = t.items().iter().map(Toast::heading).collect();
        assert_eq!(titles, ["n4", "n3 ×2"]);
        // The log keeps every message whole, repeats counted.
        let log: Vec<(String, u32)> = t.log().map(|l| (l.title.to_string(), l.count)).collect();
        assert_eq!(log.len(), 7);
        assert_eq!(log[0], ("timeout · loading".into(), 3));
        assert_eq!(log[6], ("n3".into(), 1));
    }

    /// Every toast, an error too, goes after 4 s (`:messages` keeps it).
    #[test]
    fn every_toast_goes_after_four_seconds() {
        let now = Instant::now();
        let mut t = Toasts::default();
        t.push(now, Level::Error, "boom", "x");
        t.push(now, Level::Info, "fine", "y");
        assert!(!t.expire(now + Duration::from_millis(3_999)));
        assert_eq!(t.items().len(), 2);
        assert!(t.expire(now + Duration::from_secs(4)));
        assert!(t.items().is_empty());
    }

    #[test]
    fn the_log_keeps_the_last_fifty() {
        let now = Instant::now();
        let mut t = Toasts::default();
        for i in 0..60 {
            t.push(now, Level::Info, "n", &format!("message {i}"));
        }
        assert_eq!(t.log().len(), Toasts::LOG);
        assert_eq!(
            t.log().next().map(|l| l.text.to_string()).as_deref(),
            Some("message 10")
        );
        assert!(t.clear());
        assert_eq!(t.log().len(), Toasts::LOG, "dismissing keeps the log");
    }

    #[test]
    fn errors_offer_r_only_when_it_can_help() {
        let now = Instant::now();
        let mut t = Toasts::default();
        t.set_retry_key("F5");
        let timeout = ApiError::Timeout {
            method: "GET".into(),
            after: Duration::from_secs(30),
            may_have_reached: false,
        };
        t.error(now, "loading searches", &timeout);
        assert_eq!(t.items()[0].title.as_str(), "timeout · loading searches");
        assert_eq!(body_of(&t), "no answer within 30s — F5 retries");

        t.error(
            now,
            "adding the lead",
            &service(409, r#"{"error":"Already there"}"#),
        );
        assert_eq!(body_of(&t), "Already there");
    }

    #[test]
    fn a_refused_key_says_how_to_fix_it_and_never_r_retries() {
        let now = Instant::now();
        let mut t = Toasts::default();
        let e = service(
            401,
            r#"{"error":{"code":"unauthorized","message":"Invalid API key"}}"#,
        );
        t.error(now, "loading", &e);
        let body = body_of(&t);
        assert!(
            body.starts_with("Invalid API key. The service refused"),
            "{body}"
        );
        assert!(
            body.contains("OUTPOST_API_KEY") && body.contains("outpost check"),
            "{body}"
        );
        assert!(!body.contains("retries"), "{body}");
        // The client's own wording (with the masked key) is kept as it is.
        let ApiError::Service(s) = e else { return };
        let e = ApiError::Service(Box::new(s.refused_key("pk_live_…1a2b")));
        t.error(now, "loading again", &e);
        let body = body_of(&t);
        assert!(body.contains("pk_live_…1a2b"), "{body}");
        assert_eq!(body.matches("refused").count(), 1, "{body}");
    }

    #[test]
    fn a_write_that_may_have_been_accepted_offers_a_refresh_never_a_resend() {
        let now = Instant::now();
        let mut t = Toasts::default();
        let e = ApiError::Timeout {
            method: "POST".into(),
            after: Duration::from_secs(30),
            may_have_reached: true,
        };
        t.error(now, "creating the search", &e);
        let body = body_of(&t);
        assert!(body.contains("may have been accepted"), "{body}");
        assert!(body.contains("r refreshes to check"), "{body}");
        assert!(!body.contains("retries"), "{body}");
        let e = ApiError::Decode {
            status: 201,
            detail: "EOF".into(),
            may_have_reached: true,
        };
        t.error(now, "creating the search", &e);
        assert!(body_of(&t).contains("said 201"), "{}", body_of(&t));
    }

    /// A domain status read (`POST …/verify?poll=true`) that timed out is a
    /// read: its toast offers the retry, and never says a request "may have
    /// been accepted" or "was not sent again".
    #[test]
    fn a_post_read_that_timed_out_is_worded_as_a_read() {
        let now = Instant::now();
        let mut t = Toasts::default();
        let e = ApiError::Timeout {
            method: "POST".into(),
            after: Duration::from_secs(30),
            may_have_reached: false,
        };
        t.error(now, "checking mail.example.com", &e);
        let body = body_of(&t);
        assert_eq!(body, "no answer within 30s — r retries");
        for never in ["may have", "accepted", "not sent", "again —", "write"] {
            assert!(!body.contains(never), "{never}: {body}");
        }
    }

    #[test]
    fn no_doubled_prefix() {
        let e = ApiError::Timeout {
            method: "GET".into(),
            after: Duration::from_secs(30),
            may_have_reached: false,
        };
        assert_eq!(error_text(&e), "timeout: no answer within 30s");
        let e = ApiError::RateLimited {
            wait: Duration::from_secs(5),
            message: "slow down".into(),
        };
        assert_eq!(error_text(&e), "rate_limited: slow down");
    }

    /// One error of every kind, each with the words its code names at the
    /// start of its text where it has them.
    fn every_variant() -> Vec<ApiError> {
        let all = vec![
            ApiError::Config("config: no base URL".into()),
            ApiError::Invalid(vec![crate::api::validate::FieldError::new(
                "title", "required",
            )]),
            service(
                404,
                r#"{"error":{"code":"not_found","message":"not_found: no such search"}}"#,
            ),
            ApiError::RateLimited {
                wait: Duration::from_secs(5),
                message: "rate_limited: slow down".into(),
            },
            ApiError::Connect {
                host: "h:1".into(),
                detail: "refused".into(),
            },
            ApiError::Timeout {
                method: "POST".into(),
                after: Duration::from_secs(30),
                may_have_reached: true,
            },
            ApiError::Transport {
                detail: "reset by peer".into(),
                may_have_reached: false,
            },
            ApiError::Decode {
                status: 200,
                detail: "EOF".into(),
                may_have_reached: false,
            },
            ApiError::ReadOnly {
                method: "POST".into(),
                path: "/api/lead-finder".into(),
            },
            ApiError::TooLarge {
                limit: 10,
                may_have_reached: false,
            },
            ApiError::TooMany {
                what: crate::api::bound::Overflow::List,
                may_have_reached: false,
            },
        ];
        // A new variant must be added above (this match stops compiling).
        for e in &all {
            match e {
                ApiError::Config(_)
                | ApiError::Invalid(_)
                | ApiError::Service(_)
                | ApiError::RateLimited { .. }
                | ApiError::Connect { .. }
                | ApiError::Timeout { .. }
                | ApiError::Transport { .. }
                | ApiError::Decode { .. }
                | ApiError::ReadOnly { .. }
                | ApiError::TooLarge { .. }
                | ApiError::TooMany { .. } => {}
            }
        }
        all
    }

    #[test]
    fn no_error_repeats_its_code_in_any_wording() {
        let words = |s: &str| s.to_lowercase().replace(['_', '-'], " ");
        for e in every_variant() {
            let text = error_text(&e);
            let code = words(e.code());
            let after = words(&text[e.code().len() + 2..]);
            assert!(!after.starts_with(&code), "{e:?}: {text}");
        }
        let transport = ApiError::Transport {
            detail: "reset by peer".into(),
            may_have_reached: false,
        };
        assert_eq!(error_text(&transport), "connection_lost: reset by peer");
        assert_eq!(transport.to_string(), "connection lost: reset by peer");
        let invalid = ApiError::Invalid(vec![crate::api::validate::FieldError::new(
            "title", "required",
        )]);
        assert_eq!(error_text(&invalid), "invalid_request: title: required");
        let read_only = ApiError::ReadOnly {
            method: "POST".into(),
            path: "/api/lead-finder".into(),
        };
        assert_eq!(
            error_text(&read_only),
            "read_only: POST /api/lead-finder was not sent: read-only mode lets nothing through that could change the service"
        );
        let refused = service(
            404,
            r#"{"error":{"code":"not_found","message":"not_found: no such search"}}"#,
        );
        assert_eq!(error_text(&refused), "not_found: no such search");
    }

    /// A write answered 502 says once that it may have been accepted and
    /// what to do: the error's message carries the service's words only.
    #[test]
    fn a_write_answered_5xx_gives_its_advice_once() {
        let mut e = ServiceError::from_body(
            502,
            br#"{"error":{"code":"bad_gateway","message":"upstream answer lost"}}"#,
            None,
        );
        e.may_have_reached = true;
        let body = error_body(&ApiError::Service(Box::new(e)), "r");
        assert!(body.starts_with("upstream answer lost."), "{body}");
        assert_eq!(body.matches("refresh").count(), 1, "{body}");
    }
}
