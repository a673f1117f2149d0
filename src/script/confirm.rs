//! Asking before a write that cannot be taken back (launch, resume, send,
//! reply), and before doing again a write whose last answer was lost.
//!
//! On a terminal the question is asked on stderr and answered on stdin;
//! `--yes` answers it beforehand. Off a terminal (a script, cron) nothing
//! can be asked: without `--yes` the write is not sent (exit 13). A write
//! whose answer was lost is kept in the workspace's state (see
//! [`super::call::Record`]); doing it again asks first, saying what its
//! check saw, even for a write that otherwise goes without a question.
//! Runs of `--demo` keep nothing.

use std::io::{BufRead, IsTerminal};

use super::Ctx;
use super::call::{Lost, Record};
use super::exit::{Exit, Failure};
use crate::logic::write::Check;
use crate::store::{PendingWrite, State, Store};
use crate::text::sanitize;

/// A question before a write.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Question {
    /// What is about to be done, as a question: `Launch campaign "Q3"?`.
    pub ask: String,
    /// Lines said before it (what goes, to whom, warnings).
    pub lines: Vec<String>,
    /// Whether the write needs an answer at all (launch, resume, send,
    /// reply); another one is asked only when it was lost before.
    pub always: bool,
}

/// Whether a question can be asked: stdin and stderr on a terminal.
pub(crate) fn interactive() -> bool {
    std::io::stdin().is_terminal() && std::io::stderr().is_terminal()
}

/// Asks `q` (with what an earlier lost try of the same write saw, when
/// there was one): Ok to go on. `yes` answers it beforehand.
pub(crate) async fn ask(ctx: &Ctx, q: &Question, key: &str, yes: bool) -> Result<(), Failure> {
    let earlier = earlier(ctx, key);
    if !q.always && earlier.is_none() {
        return Ok(());
    }
    if yes {
        // Answered beforehand: only what the last attempt saw is said.
        if let Some(warning) = &earlier {
            crate::errln!("outpost: warning: {}", sanitize::inline(warning));
        }
        return Ok(());
    }
    let mut lines = q.lines.clone();
    if let Some(warning) = &earlier {
        lines.push(warning.clone());
    }
    if !interactive() {
        let why = if earlier.is_some() {
            "its last attempt may have reached the service, so doing it again"
        } else {
            "it cannot be taken back, so it"
        };
        return Err(Failure::new(
            Exit::NotConfirmed,
            format!(
                "{} — not sent: {why} needs --yes when not run from a terminal",
                q.ask.trim_end_matches('?')
            ),
        ));
    }
    if answer_yes(&lines, &q.ask).await {
        Ok(())
    } else {
        Err(Failure::new(
            Exit::NotConfirmed,
            "not confirmed; nothing was sent",
        ))
    }
}

/// Asks once more, for the launch preflight's warnings: on a terminal a
/// second question; `--yes` answers it (it overrides warnings, never
/// errors).
pub(crate) async fn ask_again(ask: &str, lines: &[String], yes: bool) -> Result<(), Failure> {
    if yes {
        for l in lines {
            crate::errln!("outpost: warning: {}", sanitize::inline(l.trim()));
        }
        return Ok(());
    }
    if interactive() && answer_yes(lines, ask).await {
        return Ok(());
    }
    Err(Failure::new(
        Exit::NotConfirmed,
        "not confirmed; nothing was sent",
    ))
}

/// Says `lines` and asks `ask [y/N]` on stderr; whether the answer read
/// from stdin is yes.
async fn answer_yes(lines: &[String], ask: &str) -> bool {
    for l in lines {
        crate::errln!("{}", sanitize::inline(l));
    }
    crate::stdio::err_text(format_args!("{} [y/N] ", sanitize::inline(ask)));
    let line = tokio::task::spawn_blocking(|| {
        let mut line = String::new();
        std::io::stdin().lock().read_line(&mut line).map(|_| line)
    })
    .await;
    matches!(line, Ok(Ok(l)) if matches!(l.trim().to_ascii_lowercase().as_str(), "y" | "yes"))
}

/// The state this workspace keeps, read without touching the file (none
/// with `--demo`, or when there is no file).
fn state(ctx: &Ctx) -> Option<State> {
    if ctx.demo {
        return None;
    }
    let bytes = crate::files::read(ctx.state_file.as_deref()?).ok()?;
    serde_json::from_slice(&bytes).ok()
}

/// What an earlier try of the write kept under `key` saw, as the warning
/// of a question to do it again.
fn earlier(ctx: &Ctx, key: &str) -> Option<String> {
    let state = state(ctx)?;
    let w = state.pending_writes.get(key)?;
    Some(Check::from_kept(w).again_warning(place_of(w)))
}

/// Where a kept write's check looked.
fn place_of(w: &PendingWrite) -> &'static str {
    if w.kind == "send" {
        "in the thread"
    } else {
        "where the service shows it"
    }
}

/// Changes the state file (merged with what others wrote, under its
/// lock); a failure is said, never fatal: the write's outcome stands.
fn change(ctx: &Ctx, f: impl FnOnce(&mut State) -> bool) {
    if ctx.demo {
        return;
    }
    let Some(path) = ctx.state_file.clone() else {
        return;
    };
    let store = Store::new(Some(path));
    let (mut state, warnings) = store.load();
    for w in warnings {
        crate::errln!("outpost: warning: {}", sanitize::inline(&w));
    }
    if f(&mut state)
        && let Err(e) = store.save(&state)
    {
        crate::errln!(
            "outpost: warning: the lost write could not be kept: {}",
            sanitize::inline(&e.to_string())
        );
    }
}

/// Keeps a write whose answer was lost (and that its check did not find).
pub(crate) fn keep(ctx: &Ctx, r: &Record, lost: &Lost) {
    // A found write is not kept by its callers; kept anyway, it would
    // read as a check still going on.
    let (verdict, detail) = lost.check.kept_verdict().unwrap_or_default();
    let w = PendingWrite {
        kind: r.kind.clone(),
        thread: r.thread.clone(),
        fields: r.fields.clone(),
        baseline: r.baseline.and_then(|b| usize::try_from(b).ok()),
        lost: Some(lost.error.code().to_owned()),
        absent: lost.check.absent,
        failed: lost.check.failed,
        last_error: lost.check.last_error.clone(),
        verdict,
        verdict_detail: detail,
    };
    change(ctx, |s| {
        s.pending_writes.insert(r.key.clone(), w);
        true
    });
}

/// Drops the record of an earlier lost try (the write is now known done).
pub(crate) fn forget(ctx: &Ctx, key: &str) {
    if state(ctx).is_some_and(|s| s.pending_writes.contains_key(key)) {
        change(ctx, |s| s.pending_writes.remove(key).is_some());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::write::Verdict;

    #[test]
    fn a_kept_write_comes_back_as_its_check() {
        let w = PendingWrite {
            kind: "cli".into(),
            absent: 5,
            verdict: Some("not_found".into()),
            ..PendingWrite::default()
        };
        let c = Check::from_kept(&w);
        assert_eq!(c.verdict, Some(Verdict::NotFound));
        assert!(
            c.again_warning(place_of(&w))
                .starts_with("The last attempt may have reached the service: not found where the service shows it after 5 good reads"),
            "{}",
            c.again_warning(place_of(&w))
        );
        let unknown = PendingWrite {
            verdict: Some("maybe".into()),
            ..w
        };
        assert_eq!(Check::from_kept(&unknown).verdict, None);
    }
}
