//! The discovery pass: the redeem dialog (the code checked before it is
//! sent) and what a redeem answer says, put into words — access,
//! eligibility, the pass with its remaining discoveries, the time left
//! and, once it ended, why.

use crossterm::event::KeyEvent;
use ratatui_textarea::TextArea;

use super::text::{content, edit_key, inert_inline, line_input};
use crate::api::model::{Access, DiscoveryPass, TestAccess};
use crate::api::validate;
use crate::text::format;
use crate::text::sanitize::DisplayText;
use crate::text::sanitize::Pasted;

/// Longest code the contract allows.
pub(crate) const CODE_MAX: usize = 100;

/// The dialog that redeems a discovery pass code: the code typed, why it was refused.
#[derive(Debug, Clone, Default)]
pub struct RedeemDialog {
    /// The code typed.
    pub input: TextArea<'static>,
    /// Why the code was refused (by the client or the service).
    pub error: Option<String>,
}

impl RedeemDialog {
    /// A dialog holding `code`.
    pub fn new(code: &str) -> RedeemDialog {
        RedeemDialog {
            input: line_input(&inert_inline(code)),
            error: None,
        }
    }

    /// The code typed.
    pub fn code(&self) -> String {
        content(&self.input)
    }

    /// A key that edits the code (redeeming and closing are keymap
    /// actions, handled before): a changed code clears the error.
    pub fn key(&mut self, key: KeyEvent) {
        if edit_key(&mut self.input, key) {
            self.error = None;
        }
    }

    /// Pasted text (one line, made inert); returns the notice of a paste
    /// it did not take whole.
    pub fn paste(&mut self, text: &str) -> Option<String> {
        let p = Pasted::inline(text);
        self.input.insert_str(&p.text);
        self.error = None;
        p.notice()
    }
}

/// The code to send, or why it cannot be: trimmed, 1 to 100 characters
/// (the contract's bound, checked before anything leaves the client).
pub(crate) fn check_code(code: &str) -> Result<String, String> {
    let code = code.trim();
    match validate::redeem_code(code) {
        Ok(()) => Ok(code.to_owned()),
        Err(_) if code.is_empty() => Err("type the code of your discovery pass".into()),
        Err(_) => Err(format!(
            "a code is 1 to {CODE_MAX} characters; this one has {}",
            code.chars().count()
        )),
    }
}

/// The last redeem answer.
#[derive(Debug, Clone, PartialEq)]
pub struct PassAnswer {
    /// The code that was sent.
    pub code: String,
    /// What the service answered.
    pub pass: DiscoveryPass,
}

/// How a line of the pass panel looks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tone {
    /// Plain.
    Plain,
    /// Secondary.
    Dim,
    /// Good news.
    Good,
    /// Worth a look.
    Warn,
}

/// "13d 04h 05m 06s", "1h 02m 03s", "4m 05s", "12s".
pub(crate) fn countdown(secs: i64) -> String {
    let s = secs.max(0);
    let (d, h, m, s) = (s / 86_400, (s % 86_400) / 3600, (s % 3600) / 60, s % 60);
    match (d, h, m) {
        (0, 0, 0) => format!("{s}s"),
        (0, 0, _) => format!("{m}m {s:02}s"),
        (0, _, _) => format!("{h}h {m:02}m {s:02}s"),
        _ => format!("{d}d {h:02}h {m:02}m {s:02}s"),
    }
}

/// Seconds until the pass expires, while it is active and its expiry is
/// known and ahead.
pub(crate) fn seconds_left(t: &TestAccess, clock: i64) -> Option<i64> {
    if !is_active(t) {
        return None;
    }
    let left = format::unix(&t.expires_at)? - clock;
    (left > 0).then_some(left)
}

/// Whether the service calls the pass active (and gave no reason it ended).
pub(crate) fn is_active(t: &TestAccess) -> bool {
    t.status.eq_ignore_ascii_case("active") && t.terminal_reason.is_none()
}

/// Why a pass ended, in words.
pub(crate) fn ended_text(t: &TestAccess) -> String {
    let reason = t.terminal_reason.as_deref().unwrap_or(t.status.as_str());
    let shown = DisplayText::inline(reason).into_string();
    match reason {
        "expired" => format!("ended: expired on {}", format::date(&t.expires_at)),
        "limit_reached" | "exhausted" => format!(
            "ended: all {} discoveries used",
            format::count(t.discovery_limit)
        ),
        "" => "ended (the service gave no reason)".into(),
        _ => format!("ended: {shown}"),
    }
}

/// One item of the pass panel, most important first (a short panel
/// shows the first ones).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Item {
    /// A line of text.
    Text(Tone, String),
    /// Discoveries remaining of the limit, as a gauge.
    Gauge {
        /// Remaining.
        remaining: u64,
        /// The limit.
        limit: u64,
    },
}

/// The pass panel: the last answer (or how to redeem one), the pass with
/// its gauge and countdown, and what the account can do — every field the
/// service answered. `key` is the key that opens the redeem dialog.
pub(crate) fn panel(
    answer: Option<&PassAnswer>,
    access: Option<&Access>,
    clock: i64,
    key: &str,
) -> Vec<Item> {
    let text = |tone, s: String| Item::Text(tone, s);
    let Some(answer) = answer else {
        let (tone, line) = access_line(access);
        return vec![
            text(Tone::Dim, "No code redeemed in this session.".into()),
            text(tone, line),
            text(
                Tone::Dim,
                format!("{key} (or :redeem <code>) redeems a discovery pass."),
            ),
        ];
    };
    let p = &answer.pass;
    let code = DisplayText::inline(&answer.code).into_string();
    let reason = p
        .eligibility
        .as_ref()
        .map(|e| DisplayText::inline(&e.reason).into_string())
        .filter(|r| !r.trim().is_empty());
    let mut out = Vec::new();
    if p.redeemed {
        out.push(text(Tone::Good, format!("✓ {code} redeemed")));
    } else {
        let why = reason
            .clone()
            .unwrap_or_else(|| "the service gave no reason".into());
        out.push(text(
            Tone::Warn,
            format!("✗ {code} was not redeemed: {why}"),
        ));
        // Only a pass the answer carries was redeemed before.
        out.push(text(
            Tone::Dim,
            if p.test_access.is_some() {
                "Nothing changed on the account; the pass shown below was redeemed before."
            } else {
                "Nothing changed on the account."
            }
            .into(),
        ));
    }
    if let Some(t) = &p.test_access {
        out.push(Item::Gauge {
            remaining: t.remaining,
            limit: t.discovery_limit,
        });
        let (tone, line) = status_line(t, clock);
        out.push(text(tone, line));
        out.push(text(Tone::Dim, pass_line(t)));
    }
    let (tone, line) = access_line(p.access.as_ref().or(access));
    out.push(text(tone, line));
    if let Some(e) = &p.eligibility {
        // `canRedeem` is about the code just sent, not about other codes.
        let can = if e.can_redeem {
            "can be redeemed"
        } else {
            "cannot be redeemed now"
        };
        let why = match (&reason, p.redeemed) {
            (Some(r), true) => format!(" ({r})"),
            _ => String::new(),
        };
        out.push(text(
            Tone::Dim,
            format!("Eligibility of {code}: {can}{why}"),
        ));
    }
    out
}

/// "Pass ta-1 · used 8 of 100 · activated … · service_domain".
fn pass_line(t: &TestAccess) -> String {
    let id = DisplayText::inline(&t.id).into_string();
    let source = DisplayText::inline(&t.source).into_string();
    let mut line = if id.is_empty() {
        "Pass".to_owned()
    } else {
        format!("Pass {id}")
    };
    line.push_str(&format!(
        " · used {} of {} · activated {}",
        format::count(t.discovery_used),
        format::count(t.discovery_limit),
        format::date(&t.activated_at)
    ));
    if !source.is_empty() {
        line.push_str(&format!(" · {source}"));
    }
    line
}

/// What the account can do, where known, and when the service verified it.
pub(crate) fn access_line(access: Option<&Access>) -> (Tone, String) {
    match access {
        None => (
            Tone::Dim,
            "Account access: not known until a code is redeemed".into(),
        ),
        Some(a) => {
            let kind = DisplayText::inline(&a.kind).into_string();
            let kind = if kind.is_empty() { "—".into() } else { kind };
            let leads = if a.can_create_leads {
                "can create leads"
            } else {
                "cannot create leads"
            };
            let tone = if a.can_create_leads {
                Tone::Plain
            } else {
                Tone::Warn
            };
            let verified = a
                .verified_at
                .as_deref()
                .filter(|v| !v.trim().is_empty())
                .map_or_else(String::new, |v| format!(" · verified {}", format::date(v)));
            (tone, format!("Account: {kind} · {leads}{verified}"))
        }
    }
}

/// The panel's items now: a redeem on its way first (for the view).
pub(crate) fn items(m: &crate::app::Model) -> Vec<Item> {
    items_of(&m.panes.profile, &m.keymap, m.clock, super::redeeming(m))
}

/// The panel's items of `p` at `clock`, the redeem key as `keymap` binds
/// it; "redeeming…" first while a redeem is on its way (`redeeming`).
pub(crate) fn items_of(
    p: &super::ProfileModel,
    keymap: &crate::app::keymap::Keymap,
    clock: i64,
    redeeming: bool,
) -> Vec<Item> {
    let key = keymap.key_label(crate::app::keymap::Action::RedeemPass);
    let mut items = panel(p.pass.as_ref(), p.access.as_ref(), clock, &key);
    if redeeming {
        items.insert(0, Item::Text(Tone::Plain, "redeeming…".into()));
    }
    items
}

/// Lines an item takes at `width`.
pub(crate) fn item_height(item: &Item, width: u16) -> usize {
    match item {
        Item::Gauge { .. } => 1,
        Item::Text(_, t) => crate::text::wrap::wrap(t, usize::from(width.max(1)))
            .len()
            .max(1),
    }
}

/// The pass's status with the time left, or why it ended.
pub(crate) fn status_line(t: &TestAccess, clock: i64) -> (Tone, String) {
    let status = DisplayText::inline(&t.status).into_string();
    if !is_active(t) {
        return (Tone::Warn, ended_text(t));
    }
    match seconds_left(t, clock) {
        Some(left) => (
            Tone::Plain,
            format!(
                "{status} · expires in {} ({})",
                countdown(left),
                format::date(&t.expires_at)
            ),
        ),
        None if format::unix(&t.expires_at).is_some() => {
            (Tone::Warn, format!("{status} · expired just now"))
        }
        None => (Tone::Dim, format!("{status} · expiry not given")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::model::Eligibility;
    use crossterm::event::{KeyCode, KeyModifiers};

    fn ta(status: &str, reason: Option<&str>) -> TestAccess {
        TestAccess {
            id: "ta-1".into(),
            source: "service_domain".into(),
            status: status.into(),
            activated_at: "2026-11-22T12:00:00Z".into(),
            expires_at: "2026-12-06T12:00:00Z".into(),
            discovery_limit: 100,
            discovery_used: 8,
            remaining: 92,
            terminal_reason: reason.map(str::to_owned),
        }
    }

    #[test]
    fn codes_are_checked_before_sending() {
        assert_eq!(check_code("  DEMO-PASS-1 "), Ok("DEMO-PASS-1".into()));
        assert_eq!(check_code(&"x".repeat(100)).map(|c| c.len()), Ok(100));
        let long = check_code(&"x".repeat(101)).expect_err("too long");
        assert!(long.contains("101"), "{long}");
        assert!(check_code("   ").is_err());
        assert_eq!(
            check_code(&"é".repeat(100)).map(|c| c.chars().count()),
            Ok(100),
            "characters, not bytes"
        );
    }

    #[test]
    fn the_countdown_reads_naturally() {
        assert_eq!(countdown(12), "12s");
        assert_eq!(countdown(245), "4m 05s");
        assert_eq!(countdown(3723), "1h 02m 03s");
        assert_eq!(countdown(14 * 86_400 - 1), "13d 23h 59m 59s");
        assert_eq!(countdown(-5), "0s");
    }

    #[test]
    fn a_pass_says_how_long_it_lasts_or_why_it_ended() {
        let clock = crate::app::fixtures::CLOCK;
        let line = status_line(&ta("active", None), clock).1;
        assert_eq!(
            line,
            "active · expires in 14d 00h 00m 00s (2026-12-06 12:00)"
        );
        assert_eq!(seconds_left(&ta("active", None), clock), Some(14 * 86_400));
        let ended = status_line(&ta("expired", Some("expired")), clock);
        assert_eq!(
            ended,
            (Tone::Warn, "ended: expired on 2026-12-06 12:00".into())
        );
        assert_eq!(seconds_left(&ta("expired", Some("expired")), clock), None);
        let used = ended_text(&ta("exhausted", Some("limit_reached")));
        assert_eq!(used, "ended: all 100 discoveries used");
        let later = status_line(&ta("active", None), clock + 15 * 86_400).1;
        assert_eq!(later, "active · expired just now");
    }

    #[test]
    fn a_refusal_is_explained() {
        let answer = PassAnswer {
            code: "OLD-CODE".into(),
            pass: DiscoveryPass {
                access: None,
                eligibility: Some(Eligibility {
                    can_redeem: false,
                    reason: "This code has already been redeemed".into(),
                }),
                test_access: None,
                redeemed: false,
            },
        };
        let texts = |items: &[Item]| -> Vec<String> {
            items
                .iter()
                .filter_map(|i| match i {
                    Item::Text(_, t) => Some(t.clone()),
                    Item::Gauge { .. } => None,
                })
                .collect()
        };
        let t = texts(&panel(Some(&answer), None, 0, "p"));
        assert_eq!(
            t[0],
            "✗ OLD-CODE was not redeemed: This code has already been redeemed"
        );
        assert_eq!(
            t[1], "Nothing changed on the account.",
            "no pass in the answer: none is said to be shown"
        );
        assert_eq!(t[2], "Account access: not known until a code is redeemed");
        assert_eq!(t[3], "Eligibility of OLD-CODE: cannot be redeemed now");
        // With the pass the account holds: it is the one shown below.
        let mut with_pass = answer.clone();
        with_pass.pass.test_access = Some(ta("active", None));
        let t = texts(&panel(Some(&with_pass), None, 0, "p"));
        assert!(
            t[1].contains("the pass shown below was redeemed before"),
            "{t:?}"
        );
        let none = panel(None, None, 0, "p");
        assert_eq!(none.len(), 3, "how to redeem, when nothing was");
    }

    #[test]
    fn every_field_of_the_answer_is_shown() {
        let answer = PassAnswer {
            code: "DEMO-PASS-1".into(),
            pass: crate::app::fixtures::discovery_pass(true),
        };
        let all: Vec<String> = panel(Some(&answer), None, crate::app::fixtures::CLOCK, "p")
            .iter()
            .filter_map(|i| match i {
                Item::Text(_, t) => Some(t.clone()),
                Item::Gauge { .. } => None,
            })
            .collect();
        let all = all.join("\n");
        for want in [
            "✓ DEMO-PASS-1 redeemed",
            "active · expires in 14d",
            "Pass ta-1 · used 8 of 100 · activated 2026-11-22 12:00 · service_domain",
            "Account: paid_plan · can create leads · verified 2026-09-23 12:00",
            "Eligibility of DEMO-PASS-1: cannot be redeemed now (Redeemed: the pass is active)",
        ] {
            assert!(all.contains(want), "{want}:\n{all}");
        }
    }

    #[test]
    fn the_dialog_edits_the_code() {
        let mut d = RedeemDialog::new("");
        for c in "ab".chars() {
            d.key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
        }
        d.error = Some("old".into());
        d.key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::NONE));
        assert_eq!(d.error, None, "typing clears the error");
        assert_eq!(d.code(), "abc");
        d.error = Some("old".into());
        d.key(KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE));
        assert_eq!(d.code(), "abc", "Esc is not an edit");
        assert_eq!(
            d.error.as_deref(),
            Some("old"),
            "nor does it clear the error"
        );
    }
}
