//! Exit codes of the scripting commands, and the failure a command ends
//! with: what is printed on stderr and which code the process returns.

use std::process::ExitCode;

use crate::api::ApiError;
use crate::logic::write::{self, Outcome, Settle};
use crate::text::sanitize;

/// The exit codes, as documented in the README and in `--help`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// 0: done (`domain watch`: the domain verified).
    Ok = 0,
    /// 1: the service refused or failed the request (its code is printed),
    /// a watched domain failed, or a code was not redeemed.
    Failed = 1,
    /// 2: `domain watch` timed out before the domain verified or failed.
    TimedOut = 2,
    /// 3: no API key, or the service refused it (401).
    Auth = 3,
    /// 4: rate limited longer than Outpost waits by itself (429).
    RateLimited = 4,
    /// 5: the service could not be reached, did not answer in time, or sent
    /// an answer that could not be read.
    Unreachable = 5,
    /// 6: read-only mode refused a request that could change the service
    /// (nothing was sent).
    ReadOnly = 6,
    /// 7: a write's answer was lost and it may have reached the service
    /// (checked and not found, not checkable, or the check failed); it was
    /// not sent again.
    MayHaveReached = 7,
    /// 8: `campaign launch`: the launch preflight found errors (nothing was
    /// sent).
    Blocked = 8,
    /// 9: the service has it in another state: a search already running
    /// (409), or a campaign not in the state a change starts from.
    Conflict = 9,
    /// 10: `--wait`: the run failed.
    RunFailed = 10,
    /// 11: `--wait`: the run was cancelled.
    RunCancelled = 11,
    /// 12: `search run --all`: some searches failed (or, with `--wait`,
    /// some runs did not complete).
    SomeFailed = 12,
    /// 13: not confirmed: declined at the question, or `--yes` missing off
    /// a terminal (nothing was sent).
    NotConfirmed = 13,
    /// 64: a bad command line, config, profile or input file.
    Usage = 64,
}

/// The exit codes as `--help` shows them.
pub(crate) const EXIT_CODES: &str = "\
Exit codes (scripting commands):
  0   ok (domain watch: verified)
  1   the service refused or failed the request (its code is printed on
      stderr); domain watch: failed; redeem: not redeemed
  2   domain watch: timed out
  3   no API key, or the key was refused (401)
  4   rate limited (429) longer than Outpost waits by itself
  5   service unreachable, no answer in time, or an unreadable answer
  6   refused by read-only mode (nothing was sent)
  7   a write's answer was lost: it may have reached the service (checked
      and not found, or not checkable); it was not sent again
  8   campaign launch: blocked by the launch preflight (nothing was sent)
  9   conflict: a run already queued or running (409), or a campaign not in
      the state the change starts from
  10  --wait: the run failed
  11  --wait: the run was cancelled
  12  search run --all: some searches failed (with --wait: some runs did
      not complete)
  13  not confirmed: declined, or --yes missing off a terminal (nothing
      was sent)
  64  bad command line, config, profile or input file
An import that stops part-way exits with the code of what stopped it; its
report says which lines went in.";

impl Exit {
    /// The code of a failed call.
    pub fn of(e: &ApiError) -> Exit {
        match e {
            ApiError::ReadOnly { .. } => Exit::ReadOnly,
            ApiError::RateLimited { .. } => Exit::RateLimited,
            ApiError::Config(_) | ApiError::Invalid(_) => Exit::Usage,
            ApiError::Connect { .. }
            | ApiError::Timeout { .. }
            | ApiError::Transport { .. }
            | ApiError::Decode { .. }
            | ApiError::TooLarge { .. }
            | ApiError::TooMany { .. } => Exit::Unreachable,
            ApiError::Service(s) => match s.status {
                401 => Exit::Auth,
                429 => Exit::RateLimited,
                _ => Exit::Failed,
            },
        }
    }
}

impl From<Exit> for ExitCode {
    fn from(e: Exit) -> ExitCode {
        ExitCode::from(e as u8)
    }
}

/// Why a command stopped: printed on stderr (made inert), with its code.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Failure {
    /// The exit code.
    pub exit: Exit,
    /// The message, starting with the service's code when there is one.
    pub message: String,
    /// The error's code (`not_found`, `timeout`), when a call failed.
    pub code: Option<String>,
}

impl Failure {
    /// A failure with a code and a message.
    pub(crate) fn new(exit: Exit, message: impl Into<String>) -> Failure {
        Failure {
            exit,
            message: message.into(),
            code: None,
        }
    }

    /// A bad command line or input.
    pub(crate) fn usage(message: impl Into<String>) -> Failure {
        Failure::new(Exit::Usage, message)
    }

    /// A failed call, `context` saying what was being done.
    pub(crate) fn api(context: &str, e: &ApiError) -> Failure {
        let mut f = Failure::new(Exit::of(e), format!("{context}: {}", describe(e)));
        f.code = Some(e.code().to_owned());
        f
    }

    /// A failed write, `context` saying what was being done: one that may
    /// have reached the service says so, with what to do as `settle` says
    /// (it was never repeated).
    pub(crate) fn write(context: &str, e: &ApiError, settle: Settle) -> Failure {
        let mut f = Failure::api(context, e);
        if write::of_error(e) == Outcome::MayHaveReached {
            f.message = format!("{context}: {}: {}", e.code(), settle.advice());
        }
        f
    }

    /// Prints it on stderr, inert.
    pub(crate) fn print(&self) {
        crate::errln!("outpost: {}", sanitize::inline(&self.message));
    }
}

/// An error with the service's code first, said as the command's end:
/// `not_found: Campaign not found (HTTP 404)`. A rate limit the command
/// gives up on never repeats the service's "Retry in N seconds" (it is not
/// retried): it says how long the service asked to wait.
pub(crate) fn describe(e: &ApiError) -> String {
    match e {
        ApiError::RateLimited { wait, message } => gave_up(*wait, message),
        // Its text already starts with the code.
        ApiError::Service(_) => e.to_string(),
        // The message never repeats the code in any wording.
        _ => format!("{}: {}", e.code(), e.message()),
    }
}

/// A rate limit given up on: the service's words without its advice to
/// retry, and the wait it asked for.
fn gave_up(wait: std::time::Duration, message: &str) -> String {
    let said = without_retry_advice(message);
    let said = if said.is_empty() {
        "rate limit exceeded".to_owned()
    } else {
        said
    };
    let long = wait > crate::api::retry::RetryPolicy::default().max_sleep;
    let wait = crate::api::gate::human_wait(wait);
    if long {
        format!(
            "rate_limited: {said}; the service asked to wait {wait}, longer than Outpost waits by itself; nothing more was sent"
        )
    } else {
        format!(
            "rate_limited: {said}; still limited after Outpost's own waits (the last asked for {wait}); nothing more was sent"
        )
    }
}

/// The service's message without its sentences that say when to retry
/// ("Retry in 1 seconds.", "Try again after 3s").
pub(crate) fn without_retry_advice(message: &str) -> String {
    let mut kept = Vec::new();
    for sentence in message.split_inclusive(['.', ';']) {
        let lower = sentence.to_ascii_lowercase();
        let advice = [
            "retry in",
            "retry after",
            "try again in",
            "try again after",
            "wait ",
        ]
        .iter()
        .any(|w| lower.contains(w));
        if !advice {
            kept.push(sentence.trim());
        }
    }
    kept.join(" ")
        .trim()
        .trim_end_matches(['.', ';'])
        .trim()
        .to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::ServiceError;

    #[test]
    fn each_kind_of_error_has_its_code() {
        let service =
            |status: u16| ApiError::Service(Box::new(ServiceError::from_body(status, b"", None)));
        assert_eq!(Exit::of(&service(404)), Exit::Failed);
        assert_eq!(Exit::of(&service(401)), Exit::Auth);
        assert_eq!(Exit::of(&service(429)), Exit::RateLimited);
        assert_eq!(Exit::of(&service(500)), Exit::Failed);
        let ro = ApiError::ReadOnly {
            method: "POST".into(),
            path: "/api/x".into(),
        };
        assert_eq!(Exit::of(&ro), Exit::ReadOnly);
        assert_eq!(
            describe(&ro),
            "read_only: POST /api/x was not sent: read-only mode lets nothing through that could change the service"
        );
        let lost = ApiError::Connect {
            host: "h".into(),
            detail: "refused".into(),
        };
        assert_eq!(Exit::of(&lost), Exit::Unreachable);
        assert_eq!(describe(&lost), "unreachable: cannot reach h: refused");
        // Never the code twice, in any wording.
        let slow = ApiError::Timeout {
            method: "GET".into(),
            after: std::time::Duration::from_secs(3),
            may_have_reached: false,
        };
        assert!(
            !describe(&slow).starts_with("timeout: timeout"),
            "{}",
            describe(&slow)
        );
        assert_eq!(
            describe(&service(404)),
            "not_found: no such resource (HTTP 404)"
        );
        assert_eq!(ExitCode::from(Exit::Usage), ExitCode::from(64));
    }

    /// A rate limit given up on says how long the service asked to wait,
    /// never its "Retry in N seconds" (nothing is retried after it).
    #[test]
    fn a_rate_limit_given_up_on_drops_the_services_retry_advice() {
        let e = ApiError::RateLimited {
            wait: std::time::Duration::from_secs(1),
            message: "Rate limit exceeded. Retry in 1 seconds.".into(),
        };
        assert_eq!(
            describe(&e),
            "rate_limited: Rate limit exceeded; still limited after Outpost's own waits (the last asked for 1 s); nothing more was sent"
        );
        let long = ApiError::RateLimited {
            wait: std::time::Duration::from_secs(9000),
            message: "Slow down; retry after 9000 s".into(),
        };
        assert_eq!(
            describe(&long),
            "rate_limited: Slow down; the service asked to wait 2 h 30 min, longer than Outpost waits by itself; nothing more was sent"
        );
        assert_eq!(without_retry_advice("Retry in 3 seconds."), "");
    }

    /// The CLI says of a write that may have reached what the dashboard
    /// says, by how it is settled; a refused one keeps the service's words.
    #[test]
    fn a_write_that_may_have_reached_says_so_and_what_to_do() {
        let mut e = ServiceError::from_body(502, b"{}", None);
        e.may_have_reached = true;
        let lost = ApiError::Service(Box::new(e));
        let f = Failure::write("redeeming the code", &lost, Settle::NoCheck);
        assert!(
            f.message
                .starts_with("redeeming the code: internal_error: it may have been carried out"),
            "{}",
            f.message
        );
        assert!(f.message.contains("web dashboard"), "{}", f.message);
        let f = Failure::write("triggering verification of d1", &lost, Settle::SafeToRepeat);
        assert!(f.message.contains("trying again is safe"), "{}", f.message);
        let refused = ApiError::Service(Box::new(ServiceError::from_body(
            409,
            br#"{"error":{"code":"conflict","message":"Already active"}}"#,
            None,
        )));
        let f = Failure::write("redeeming the code", &refused, Settle::NoCheck);
        assert_eq!(
            f.message,
            "redeeming the code: conflict: Already active (HTTP 409)"
        );
        assert_eq!(f.exit, Exit::Failed);
    }
}
