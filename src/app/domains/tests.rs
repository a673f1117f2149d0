//! The pane's behaviour, driven through `update`.

use std::time::Duration;

use super::copy::zone_line;
use super::*;
use crate::api::ApiError;
use crate::api::model::DomainStatus;
use crate::app::fixtures;
use crate::app::{ApiReply, ApiRequest};
use crate::app::{Msg, PaneSub, SubId, subscriptions, update};

/// The watch subscription of a domain (generation 0).
fn watch_sub(domain: &str) -> SubId {
    SubId::Pane(PaneSub::Domains(DomainsSub::Watch(domain.into(), 0)))
}
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseEvent, MouseEventKind};

use crate::app::fixtures::drive::{and_queued, api, chars, ctrl, key, reply, service_error};

/// A model on the Domains pane with the fixture domains loaded.
fn loaded() -> Model {
    let mut m = fixtures::model(80, 24);
    let cmds = m.start();
    let (id, req) = api(&cmds).remove(0);
    assert_eq!(req, ApiRequest::ListDomains { skip_sync: true });
    let cmds = reply(&mut m, id, ApiReply::Domains(Ok(fixtures::domains())));
    let (sync_id, req) = api(&cmds).remove(0);
    assert_eq!(
        req,
        ApiRequest::ListDomains { skip_sync: false },
        "cached first, then live"
    );
    reply(&mut m, sync_id, ApiReply::Domains(Ok(fixtures::domains())));
    assert!(m.panes.domains.synced);
    m
}

/// Adds a domain as `:domain add NAME` does, the model split as the
/// pane's entry point splits it.
fn add(m: &mut Model, name: &str) -> Vec<Cmd> {
    let (d, mut cx) = m.split::<DomainsModel>();
    add_domain(d, &mut cx, name)
}

fn watch_ids(m: &Model) -> Vec<String> {
    subscriptions(m)
        .into_iter()
        .filter_map(|s| match s.id {
            SubId::Pane(PaneSub::Domains(DomainsSub::Watch(d, _))) => Some(d),
            _ => None,
        })
        .collect()
}

#[test]
fn a_visible_verifying_domain_is_watched_until_it_is_not() {
    let mut m = loaded();
    assert_eq!(
        watch_ids(&m),
        ["d-4"],
        "the verifying domain in view is watched"
    );
    assert!(
        subscriptions(&m).iter().any(|s| s.id == SubId::Countdown),
        "its countdown ticks"
    );
    key(&mut m, KeyCode::Char('1'));
    assert!(watch_ids(&m).is_empty(), "leaving the pane stops the watch");
    key(&mut m, KeyCode::Char('4'));
    assert_eq!(watch_ids(&m), ["d-4"]);
    key(&mut m, KeyCode::Char('j'));
    key(&mut m, KeyCode::Enter);
    assert_eq!(m.panes.domains.view, View::DomainDetail);
    assert!(
        watch_ids(&m).is_empty(),
        "the detail of a pending domain watches nothing"
    );
}

#[test]
fn polling_asks_once_at_a_time_and_announces_verified() {
    let mut m = loaded();
    key(&mut m, KeyCode::Enter);
    assert_eq!(m.panes.domains.open.as_deref(), Some("d-4"));
    let cmds = update(&mut m, Msg::SubFired(watch_sub("d-4")));
    let (id, req) = api(&cmds).remove(0);
    assert_eq!(
        req,
        ApiRequest::VerifyDomain {
            id: "d-4".into(),
            poll: true
        }
    );
    let again = update(&mut m, Msg::SubFired(watch_sub("d-4")));
    assert!(
        api(&again).is_empty(),
        "no second poll while one is in flight"
    );
    let mut done = fixtures::domain(
        "d-4",
        "mail.brightlabs.io",
        DomainStatus::Verified,
        "2026-11-22T11:50:00Z",
    );
    done.verified_at = Some("2026-11-22T12:00:00Z".into());
    let count = |m: &Model, status: &str| {
        m.panes
            .domains
            .by_status
            .iter()
            .find(|(s, _)| s == status)
            .map_or(0, |(_, n)| *n)
    };
    let verified = count(&m, "verified");
    let cmds = reply(&mut m, id, ApiReply::Domain(Ok(done)));
    assert_eq!(
        m.panes.domains.open_domain().map(|d| d.status.clone()),
        Some(DomainStatus::Verified)
    );
    // The wide list's count by status follows the change.
    assert_eq!(count(&m, "verified"), verified + 1);
    assert_eq!(count(&m, "verifying"), 0);
    assert!(
        cmds.iter()
            .any(|c| matches!(c, Cmd::Notify { title, .. } if title == "Domain verified")),
        "the bell and a desktop notification: {cmds:?}"
    );
    let toast = m.toasts.items().last().expect("announced");
    assert_eq!(toast.title.as_str(), "Domain verified");
    assert!(toast.text.as_str().contains("mail.brightlabs.io"));
    assert!(watch_ids(&m).is_empty(), "verified: polling stops");
}

/// The watch goes on through every `verifying` answer (a watch that
/// stopped after the first would leave the domain unwatched) and ends at
/// `failed`.
#[test]
fn the_watch_keeps_polling_while_the_answer_is_verifying_and_ends_at_failed() {
    let mut m = loaded();
    key(&mut m, KeyCode::Enter);
    let still = fixtures::domain(
        "d-4",
        "mail.brightlabs.io",
        DomainStatus::Verifying,
        "2026-11-22T11:50:00Z",
    );
    for round in 0..3 {
        let cmds = update(&mut m, Msg::SubFired(watch_sub("d-4")));
        let (id, req) = api(&cmds)
            .into_iter()
            .next()
            .unwrap_or_else(|| panic!("round {round}: a poll is sent after a verifying answer"));
        assert_eq!(
            req,
            ApiRequest::VerifyDomain {
                id: "d-4".into(),
                poll: true
            }
        );
        reply(&mut m, id, ApiReply::Domain(Ok(still.clone())));
        assert_eq!(watch_ids(&m), ["d-4"], "round {round}: still watched");
    }
    let cmds = update(&mut m, Msg::SubFired(watch_sub("d-4")));
    let (id, _) = api(&cmds).remove(0);
    let failed = fixtures::domain(
        "d-4",
        "mail.brightlabs.io",
        DomainStatus::Failed,
        "2026-11-22T11:50:00Z",
    );
    reply(&mut m, id, ApiReply::Domain(Ok(failed)));
    assert!(watch_ids(&m).is_empty(), "failed: polling stops");
}

#[test]
fn a_429_backs_the_watch_off() {
    let mut m = loaded();
    let base = subscriptions(&m)
        .into_iter()
        .find(|s| s.id == watch_sub("d-4"))
        .map(|s| s.every);
    assert_eq!(base, Some(m.poll.domain));
    let cmds = update(&mut m, Msg::SubFired(watch_sub("d-4")));
    let (id, _) = api(&cmds).remove(0);
    let err = ApiError::RateLimited {
        wait: Duration::from_secs(3),
        message: "Rate limit exceeded. Retry in 3 seconds.".into(),
    };
    reply(&mut m, id, ApiReply::Domain(Err(err)));
    let every = subscriptions(&m)
        .into_iter()
        .find(|s| s.id == watch_sub("d-4"))
        .map(|s| s.every);
    assert_eq!(every, Some(m.poll.domain * 2));
    assert_eq!(
        m.toasts
            .items()
            .last()
            .map(|t| t.title.as_str().starts_with("rate_limited")),
        Some(true)
    );
}

#[test]
fn stale_replies_change_nothing() {
    let mut m = loaded();
    let before = m.panes.domains.domains.items.clone();
    reply(&mut m, RequestId(999), ApiReply::Domains(Ok(Vec::new())));
    assert_eq!(m.panes.domains.domains.items, before);
    assert_eq!(m.requests.in_flight(), 0);
}

/// Inside tmux the notice says where the text went: the tmux buffer when
/// `load-buffer` took it, and a warning when it did not (tmux's default
/// keeps an application's OSC 52 from the clipboard, so "copied" alone
/// would be false).
#[test]
fn a_copy_inside_tmux_says_where_the_text_went() {
    let mut m = loaded();
    let copied = |tmux| {
        Msg::Copied(Ok(crate::app::Copied {
            chars: 152,
            tmux: Some(tmux),
            what: None,
        }))
    };
    update(&mut m, copied(Ok(())));
    let last = m.toasts.items().last().cloned().expect("a notice");
    assert_eq!(last.level, crate::app::toast::Level::Success);
    assert!(
        last.text.as_str().contains("tmux buffer"),
        "{}",
        last.text.as_str()
    );
    update(&mut m, copied(Err("no server running".into())));
    let last = m.toasts.items().last().cloned().expect("a notice");
    assert_eq!(last.level, crate::app::toast::Level::Warning);
    assert!(
        last.text.as_str().contains("no server running"),
        "{}",
        last.text.as_str()
    );
}

#[test]
fn y_copies_the_selected_value_sanitized() {
    let mut m = loaded();
    m.panes.domains.domains.items[0].dns_records[0].value =
        "v=spf1\x1b]52;c;ZXZpbA==\x07 ~all".into();
    key(&mut m, KeyCode::Enter);
    let cmds = key(&mut m, KeyCode::Char('y'));
    assert_eq!(cmds, vec![Cmd::Copy("v=spf1 ~all".into())]);
    update(
        &mut m,
        Msg::Copied(Ok(crate::app::Copied {
            chars: 11,
            tmux: None,
            what: None,
        })),
    );
    assert_eq!(
        m.toasts.items().last().map(|t| t.title.as_str()),
        Some("Copied")
    );
}

#[test]
fn adding_a_domain_keeps_the_text_when_refused() {
    let mut m = loaded();
    key(&mut m, KeyCode::Char('a'));
    assert!(m.panes.domains.add.is_some());
    chars(&mut m, "acme-mail.com");
    let cmds = update(
        &mut m,
        Msg::Key(KeyEvent::new(KeyCode::Char('s'), KeyModifiers::CONTROL)),
    );
    let (id, req) = api(&cmds).remove(0);
    assert_eq!(
        req,
        ApiRequest::CreateDomain {
            name: "acme-mail.com".into()
        }
    );
    reply(
        &mut m,
        id,
        ApiReply::Domain(Err(service_error(
            409,
            r#"{"error":{"code":"conflict","message":"Domain already added"}}"#,
        ))),
    );
    let form = m.panes.domains.add.as_ref().expect("the dialog stays open");
    assert_eq!(form.value("domain"), "acme-mail.com");
    assert_eq!(
        form.fields[0].error.as_deref(),
        Some("conflict: Domain already added")
    );
}

#[test]
fn a_new_domain_opens_on_its_records() {
    let mut m = loaded();
    let cmds = update(
        &mut m,
        Msg::Key(KeyEvent::new(KeyCode::Char(':'), KeyModifiers::NONE)),
    );
    assert!(cmds.is_empty());
    chars(&mut m, "domain add News.Example.com");
    let cmds = key(&mut m, KeyCode::Enter);
    let (id, req) = api(&cmds).remove(0);
    assert_eq!(
        req,
        ApiRequest::CreateDomain {
            name: "news.example.com".into()
        }
    );
    let new = fixtures::domain(
        "d-9",
        "news.example.com",
        DomainStatus::Pending,
        "2026-11-22T12:00:00Z",
    );
    reply(&mut m, id, ApiReply::Domain(Ok(new)));
    assert!(m.panes.domains.add.is_none());
    assert_eq!(m.panes.domains.view, View::DomainDetail);
    assert_eq!(m.panes.domains.open.as_deref(), Some("d-9"));
    assert_eq!(m.panes.domains.domains.items[0].id, "d-9", "newest first");
}

#[test]
fn a_bad_name_is_refused_before_sending() {
    let mut m = loaded();
    let cmds = and_queued(add(&mut m, "not a domain"), &mut m);
    assert!(api(&cmds).is_empty());
    let form = m.panes.domains.add.as_ref().expect("dialog with the error");
    assert!(
        form.fields[0]
            .error
            .as_deref()
            .is_some_and(|e| e.contains("hostname"))
    );
}

#[test]
fn senders_filter_by_type() {
    let mut m = loaded();
    let cmds = key(&mut m, KeyCode::Char('s'));
    let (id, req) = api(&cmds).remove(0);
    assert_eq!(req, ApiRequest::ListSenders);
    reply(&mut m, id, ApiReply::Senders(Ok(fixtures::senders())));
    assert_eq!(m.panes.domains.filtered_senders().len(), 3);
    key(&mut m, KeyCode::Char('t'));
    assert_eq!(m.panes.domains.filtered_senders().len(), 2);
    key(&mut m, KeyCode::Char('t'));
    assert_eq!(m.panes.domains.filtered_senders().len(), 1);
    let cmds = key(&mut m, KeyCode::Enter);
    let (_, req) = api(&cmds).remove(0);
    assert_eq!(req, ApiRequest::SenderSchedule { id: "s-3".into() });
    assert_eq!(m.panes.domains.view, View::SenderDetail);
}

/// A domain whose new status no longer passes the kept filter leaves the
/// list: the table's length follows (the property test once found a row
/// selected in an empty list).
#[test]
fn a_reply_that_moves_a_domain_out_of_the_filter_shortens_the_table() {
    let mut m = loaded();
    key(&mut m, KeyCode::Char('/'));
    chars(&mut m, "pending");
    key(&mut m, KeyCode::Enter);
    assert_eq!(m.panes.domains.shown_domains().len(), 1);
    let cmds = key(&mut m, KeyCode::Char('v'));
    let (id, _) = api(&cmds).remove(0);
    let verifying = fixtures::domain(
        "d-3",
        "outreach.northwind.com",
        DomainStatus::Verifying,
        "2026-11-21T08:00:00Z",
    );
    reply(&mut m, id, ApiReply::Domain(Ok(verifying)));
    assert!(m.panes.domains.shown_domains().is_empty());
    assert_eq!(m.panes.domains.table.len, 0, "no row left to select");
}

#[test]
fn a_trigger_that_fails_is_announced() {
    let mut m = loaded();
    key(&mut m, KeyCode::Char('j'));
    let cmds = key(&mut m, KeyCode::Char('v'));
    let (id, req) = api(&cmds).remove(0);
    assert_eq!(
        req,
        ApiRequest::VerifyDomain {
            id: "d-3".into(),
            poll: false
        }
    );
    let failed = fixtures::domain(
        "d-3",
        "outreach.northwind.com",
        DomainStatus::Failed,
        "2026-11-21T08:00:00Z",
    );
    reply(&mut m, id, ApiReply::Domain(Ok(failed)));
    assert_eq!(
        m.toasts.items().last().map(|t| t.title.as_str()),
        Some("Verification failed")
    );
}

#[test]
fn the_wheel_moves_and_redraws() {
    let mut m = loaded();
    m.redraw = false;
    let wheel = |kind| {
        Msg::Mouse(MouseEvent {
            kind,
            column: 10,
            row: 5,
            modifiers: KeyModifiers::NONE,
        })
    };
    update(&mut m, wheel(MouseEventKind::ScrollDown));
    assert_eq!(m.panes.domains.table.selected, 1);
    assert!(m.redraw, "a wheel step is drawn at once");
    m.redraw = false;
    update(&mut m, wheel(MouseEventKind::Moved));
    assert!(!m.redraw, "bare motion draws nothing");
}

#[test]
fn coming_back_restarts_the_watch_and_refreshes() {
    let mut m = loaded();
    key(&mut m, KeyCode::Char('1'));
    assert!(
        m.panes.domains.watches.is_empty(),
        "leaving ends the watches"
    );
    m.now += Duration::from_secs(60);
    let cmds = key(&mut m, KeyCode::Char('4'));
    assert!(
        api(&cmds)
            .iter()
            .any(|(_, r)| *r == ApiRequest::ListDomains { skip_sync: false }),
        "statuses are refreshed on return"
    );
    let left = m.panes.domains.next_check_in(&m, "d-4");
    assert_eq!(
        left,
        Some(m.poll.domain),
        "the countdown starts with the new timer"
    );
}

#[test]
fn a_manual_check_restarts_the_timer() {
    let mut m = loaded();
    key(&mut m, KeyCode::Enter);
    let before: Vec<_> = subscriptions(&m).into_iter().map(|s| s.id).collect();
    let cmds = key(&mut m, KeyCode::Char('r'));
    assert_eq!(api(&cmds).len(), 1, "r checks now");
    let after: Vec<_> = subscriptions(&m).into_iter().map(|s| s.id).collect();
    assert_ne!(
        before, after,
        "a new generation restarts the poller in step"
    );
}

#[test]
fn an_older_list_answer_does_not_undo_a_newer_poll() {
    let mut m = loaded();
    let cmds = key(&mut m, KeyCode::Char('r'));
    let (list_id, _) = api(&cmds).remove(0);
    let cmds = update(&mut m, Msg::SubFired(watch_sub("d-4")));
    let (poll_id, _) = api(&cmds).remove(0);
    let verified = fixtures::domain(
        "d-4",
        "mail.brightlabs.io",
        DomainStatus::Verified,
        "2026-11-22T11:50:00Z",
    );
    reply(&mut m, poll_id, ApiReply::Domain(Ok(verified)));
    let announced = m.toasts.items().len();
    // The slow live refresh answers last, with the older status.
    reply(&mut m, list_id, ApiReply::Domains(Ok(fixtures::domains())));
    assert_eq!(
        m.panes.domains.domain("d-4").map(|d| d.status.clone()),
        Some(DomainStatus::Verified)
    );
    assert_eq!(m.toasts.items().len(), announced, "no second announcement");
}

#[test]
fn an_older_list_answer_keeps_a_domain_added_since() {
    let mut m = loaded();
    let cmds = key(&mut m, KeyCode::Char('r'));
    let (list_id, _) = api(&cmds).remove(0);
    let cmds = and_queued(add(&mut m, "new.example.com"), &mut m);
    let (add_id, _) = api(&cmds).remove(0);
    let new = fixtures::domain(
        "d-9",
        "new.example.com",
        DomainStatus::Pending,
        "2026-11-22T12:00:00Z",
    );
    reply(&mut m, add_id, ApiReply::Domain(Ok(new)));
    reply(&mut m, list_id, ApiReply::Domains(Ok(fixtures::domains())));
    assert_eq!(m.panes.domains.domains.items[0].id, "d-9");
    assert_eq!(
        m.panes.domains.view,
        View::DomainDetail,
        "its records stay open"
    );
}

#[test]
fn a_vanished_domain_ends_its_watch_and_failures_slow_it() {
    let mut m = loaded();
    let cmds = update(&mut m, Msg::SubFired(watch_sub("d-4")));
    let (id, _) = api(&cmds).remove(0);
    reply(
        &mut m,
        id,
        ApiReply::Domain(Err(service_error(
            500,
            r#"{"error":{"code":"internal_error","message":"boom"}}"#,
        ))),
    );
    assert_eq!(
        m.panes.domains.watches.get("d-4").map(|w| w.fresh.failures),
        Some(1),
        "a 500 backs off"
    );
    let cmds = update(&mut m, Msg::SubFired(watch_sub("d-4")));
    let (id, _) = api(&cmds).remove(0);
    reply(
        &mut m,
        id,
        ApiReply::Domain(Err(service_error(
            404,
            r#"{"error":{"code":"not_found","message":"Not found"}}"#,
        ))),
    );
    assert!(
        m.panes.domains.domain("d-4").is_none(),
        "gone from the list"
    );
    assert!(watch_ids(&m).is_empty(), "no more polling");
}

#[test]
fn ctrl_z_and_esc_work_while_a_dialog_is_open() {
    let mut m = loaded();
    key(&mut m, KeyCode::Char('a'));
    chars(&mut m, "half.typed.io");
    let cmds = update(
        &mut m,
        Msg::Key(KeyEvent::new(KeyCode::Char('z'), KeyModifiers::CONTROL)),
    );
    assert!(
        cmds.contains(&Cmd::Suspend),
        "Ctrl-Z suspends from a text box"
    );
    let saved = cmds.iter().find_map(|c| match c {
        Cmd::SaveState(s) => s.drafts.get(ADD_DRAFT).cloned(),
        _ => None,
    });
    assert_eq!(
        saved
            .and_then(|d| d.fields.get("domain").cloned())
            .as_deref(),
        Some("half.typed.io")
    );
    update(
        &mut m,
        Msg::Key(KeyEvent::new(KeyCode::Char('s'), KeyModifiers::CONTROL)),
    );
    assert!(m.panes.domains.adding(&m.requests));
    key(&mut m, KeyCode::Esc);
    assert!(
        m.panes.domains.add.is_none(),
        "Esc closes a dialog that is sending"
    );
}

#[test]
fn a_typed_name_survives_quitting_and_comes_back() {
    let mut m = loaded();
    key(&mut m, KeyCode::Char('a'));
    chars(&mut m, "later.example.com");
    assert_eq!(m.unsent().as_deref(), Some("the add-domain dialog"));
    let cmds = key(&mut m, KeyCode::Char('q'));
    assert!(cmds.is_empty(), "typed in the dialog, q is text");
    let cmds = update(
        &mut m,
        Msg::Key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL)),
    );
    let Some(Cmd::SaveState(state)) = cmds.first() else {
        panic!("state saved first: {cmds:?}");
    };
    let mut next = fixtures::model(80, 24);
    next.state = (**state).clone();
    next.start();
    key(&mut next, KeyCode::Char('a'));
    assert_eq!(
        next.panes
            .domains
            .add
            .as_ref()
            .map(|f| f.value("domain"))
            .as_deref(),
        Some("later.example.comq")
    );
}

#[test]
fn the_added_notice_names_the_verify_key_in_force() {
    let mut m = loaded();
    let overrides =
        [("v", "none"), ("V", "verify")].map(|(key, action)| crate::config::KeyOverride {
            scope: "domains".into(),
            key: key.into(),
            action: action.into(),
            origin: "/c.toml".into(),
        });
    m.keymap = crate::app::keymap::Keymap::with_overrides(&overrides).unwrap();
    let cmds = and_queued(add(&mut m, "new.example.com"), &mut m);
    let (id, _) = api(&cmds).remove(0);
    let new = fixtures::domain(
        "d-9",
        "new.example.com",
        DomainStatus::Pending,
        "2026-11-22T12:00:00Z",
    );
    reply(&mut m, id, ApiReply::Domain(Ok(new)));
    let toast = m.toasts.items().last().expect("announced");
    assert!(
        toast.text.as_str().contains("then press V to verify"),
        "{}",
        toast.text.as_str()
    );
}

/// The names of the domains the list shows.
fn shown(m: &Model) -> Vec<String> {
    m.panes
        .domains
        .shown_domains()
        .iter()
        .map(|d| d.domain.clone())
        .collect()
}

#[test]
fn slash_fail_filters_the_list_and_never_opens_the_add_dialog() {
    let mut m = loaded();
    let mut cmds = key(&mut m, KeyCode::Char('/'));
    for c in "fail".chars() {
        cmds.extend(key(&mut m, KeyCode::Char(c)));
    }
    assert!(
        m.panes.domains.add.is_none(),
        "`a` typed in the filter is text, not the add key"
    );
    assert!(cmds.is_empty(), "typing sends nothing: {cmds:?}");
    assert_eq!(m.panes.domains.domain_query.text(), "fail");
    assert_eq!(shown(&m), ["fail.example.org"], "filtered as typed");
    // Enter keeps the filter and gives the keys back to the list.
    key(&mut m, KeyCode::Enter);
    assert!(!m.panes.domains.domain_query.focused);
    assert_eq!(shown(&m), ["fail.example.org"]);
    key(&mut m, KeyCode::Enter);
    assert_eq!(m.panes.domains.view, View::DomainDetail);
    assert_eq!(m.panes.domains.open.as_deref(), Some("d-2"));
    key(&mut m, KeyCode::Esc);
    assert_eq!(shown(&m), ["fail.example.org"], "kept while in the records");
    // Esc on the list clears a kept filter.
    key(&mut m, KeyCode::Esc);
    assert_eq!(shown(&m).len(), 4);
    assert_eq!(
        m.panes.domains.selected_domain().map(|d| d.id.as_str()),
        Some("d-2"),
        "the selected domain stays selected"
    );
}

#[test]
fn esc_while_typing_clears_and_closes_the_filter() {
    let mut m = loaded();
    key(&mut m, KeyCode::Char('/'));
    chars(&mut m, "acme");
    assert_eq!(shown(&m), ["acme-mail.com"]);
    assert!(
        watch_ids(&m).is_empty(),
        "a filtered-out domain is not watched"
    );
    key(&mut m, KeyCode::Esc);
    assert!(!m.panes.domains.domain_query.focused);
    assert_eq!(m.panes.domains.domain_query.text(), "");
    assert_eq!(shown(&m).len(), 4);
    assert_eq!(watch_ids(&m), ["d-4"], "back on screen, watched again");
}

#[test]
fn esc_while_refining_a_kept_filter_puts_it_back() {
    let mut m = loaded();
    key(&mut m, KeyCode::Char('/'));
    chars(&mut m, "acme");
    key(&mut m, KeyCode::Enter);
    assert_eq!(shown(&m), ["acme-mail.com"]);
    // `/` again and a refinement that matches nothing, then Esc: the kept
    // filter is back, not cleared.
    key(&mut m, KeyCode::Char('/'));
    chars(&mut m, "zzz");
    assert!(shown(&m).is_empty());
    key(&mut m, KeyCode::Esc);
    assert!(!m.panes.domains.domain_query.focused);
    assert_eq!(m.panes.domains.domain_query.text(), "acme");
    assert_eq!(shown(&m), ["acme-mail.com"]);
    // Esc on the list then clears it.
    key(&mut m, KeyCode::Esc);
    assert_eq!(shown(&m).len(), 4);
}

#[test]
fn the_filter_matches_the_status_and_ignores_case() {
    let mut m = loaded();
    key(&mut m, KeyCode::Char('/'));
    chars(&mut m, "VERIF");
    assert_eq!(shown(&m), ["mail.brightlabs.io", "acme-mail.com"]);
    // Ctrl-U clears what was typed, as in a shell.
    ctrl(&mut m, 'u');
    assert_eq!(m.panes.domains.domain_query.text(), "");
    assert!(m.panes.domains.domain_query.focused);
    // The readline keys of every text box: Ctrl-_ (sent as Ctrl-7) undoes.
    ctrl(&mut m, '7');
    assert_eq!(m.panes.domains.domain_query.text(), "VERIF");
    ctrl(&mut m, 'w');
    assert_eq!(m.panes.domains.domain_query.text(), "");
}

#[test]
fn arrows_move_the_selection_while_typing() {
    let mut m = loaded();
    key(&mut m, KeyCode::Char('/'));
    chars(&mut m, "o");
    key(&mut m, KeyCode::Down);
    assert_eq!(m.panes.domains.domain_query.text(), "o", "not typed");
    assert_eq!(
        m.panes.domains.selected_domain().map(|d| d.id.as_str()),
        Some("d-3")
    );
}

#[test]
fn the_sender_list_filters_live_and_letters_stay_text() {
    let mut m = loaded();
    let cmds = key(&mut m, KeyCode::Char('s'));
    let (id, _) = api(&cmds).remove(0);
    reply(&mut m, id, ApiReply::Senders(Ok(fixtures::senders())));
    key(&mut m, KeyCode::Char('/'));
    // `t` (type), `q` (quit) and `r` (refresh) are letters of the query.
    let mut cmds = Vec::new();
    for c in "northw".chars() {
        cmds.extend(key(&mut m, KeyCode::Char(c)));
    }
    assert!(cmds.is_empty(), "{cmds:?}");
    assert!(!m.quit);
    assert_eq!(m.panes.domains.sender_filter, SenderFilter::All);
    let names: Vec<_> = m
        .panes
        .domains
        .filtered_senders()
        .iter()
        .map(|s| s.id.clone())
        .collect();
    assert_eq!(names, ["s-2"], "matched on the address");
    key(&mut m, KeyCode::Enter);
    let cmds = key(&mut m, KeyCode::Enter);
    let (_, req) = api(&cmds).remove(0);
    assert_eq!(req, ApiRequest::SenderSchedule { id: "s-2".into() });
}

/// `/` on a sender's schedule filters its lines (a day, a field) live;
/// the letters typed never act (`a` would open the add-domain dialog, `s`
/// switch to the domains).
#[test]
fn slash_on_a_schedule_filters_it_and_no_letter_acts() {
    let mut m = loaded();
    let cmds = key(&mut m, KeyCode::Char('s'));
    let (id, _) = api(&cmds).remove(0);
    reply(&mut m, id, ApiReply::Senders(Ok(fixtures::senders())));
    let cmds = key(&mut m, KeyCode::Enter);
    let (id, _) = api(&cmds).remove(0);
    let days = serde_json::json!({"schedule": {
        "2026-11-25": {"capacity": 50, "committed": 12},
        "2026-11-26": {"capacity": 50, "committed": 0},
    }});
    reply(&mut m, id, ApiReply::Schedule(Ok(days)));
    assert_eq!(m.panes.domains.view, View::SenderDetail);
    let mut cmds = key(&mut m, KeyCode::Char('/'));
    for c in "sat-26".chars() {
        cmds.extend(key(&mut m, KeyCode::Char(c)));
    }
    assert!(cmds.is_empty(), "{cmds:?}");
    assert!(m.panes.domains.add.is_none(), "no add dialog");
    assert_eq!(
        m.panes.domains.view,
        View::SenderDetail,
        "still the schedule"
    );
    ctrl(&mut m, 'u');
    chars(&mut m, "11-26");
    let tree = m
        .panes
        .domains
        .schedule
        .items
        .first()
        .expect("the schedule");
    let keys: Vec<&str> = tree.lines().iter().map(|l| l.key.as_str()).collect();
    assert_eq!(keys, ["schedule", "2026-11-26", "capacity", "committed"]);
    // Esc clears it: every day is back.
    key(&mut m, KeyCode::Esc);
    let tree = m
        .panes
        .domains
        .schedule
        .items
        .first()
        .expect("the schedule");
    assert_eq!(tree.lines().len(), 7);
    assert_eq!(m.panes.domains.view, View::SenderDetail);
}

#[test]
fn slash_dkim_in_the_records_filters_them_and_no_letter_acts() {
    let mut m = loaded();
    key(&mut m, KeyCode::Enter);
    assert_eq!(m.panes.domains.view, View::DomainDetail);
    let mut cmds = key(&mut m, KeyCode::Char('/'));
    // `d`, `k`, `i`, `m`: none acts (`a` would add, `y` copy, `v` verify).
    for c in "dkim".chars() {
        cmds.extend(key(&mut m, KeyCode::Char(c)));
    }
    assert!(api(&cmds).is_empty(), "{cmds:?}");
    assert!(!cmds.iter().any(|c| matches!(c, Cmd::Copy(_))), "{cmds:?}");
    assert!(m.panes.domains.add.is_none());
    assert_eq!(m.panes.domains.view, View::DomainDetail);
    assert_eq!(m.panes.domains.record_query.text(), "dkim");
    let dom = m.panes.domains.open_domain().expect("open").clone();
    let shown: Vec<&str> = m
        .panes
        .domains
        .shown_records(&dom)
        .iter()
        .map(|r| r.name.as_str())
        .collect();
    assert_eq!(shown.len(), 1, "{shown:?}");
    assert!(shown[0].contains("_domainkey"), "{shown:?}");
    // Letters that are actions elsewhere stay text while it has the focus.
    let cmds = chars_cmds(&mut m, "ay");
    assert!(cmds.is_empty() && m.panes.domains.add.is_none(), "{cmds:?}");
    assert_eq!(m.panes.domains.record_query.text(), "dkimay");
    // By type and value too; Enter keeps it and gives the keys back: `y`
    // then copies the record the filter shows.
    ctrl(&mut m, 'u');
    chars(&mut m, "mx");
    assert_eq!(
        m.panes.domains.selected_record().map(|r| r.kind.as_str()),
        Some("MX")
    );
    key(&mut m, KeyCode::Enter);
    let cmds = key(&mut m, KeyCode::Char('y'));
    let copied = cmds.iter().find_map(|c| match c {
        Cmd::Copy(text) => Some(text.clone()),
        _ => None,
    });
    let mx = dom
        .dns_records
        .iter()
        .find(|r| r.kind == "MX")
        .expect("an MX");
    assert_eq!(copied.as_deref(), Some(mx.value.as_str()));
    // Esc clears the filter first, then goes back.
    key(&mut m, KeyCode::Esc);
    assert_eq!(m.panes.domains.view, View::DomainDetail);
    assert_eq!(
        m.panes.domains.shown_records(&dom).len(),
        dom.dns_records.len()
    );
    key(&mut m, KeyCode::Esc);
    assert_eq!(m.panes.domains.view, View::Domains);
}

/// Types `s` and returns the commands.
fn chars_cmds(m: &mut Model, s: &str) -> Vec<Cmd> {
    s.chars().flat_map(|c| key(m, KeyCode::Char(c))).collect()
}

/// A read that timed out (nothing reached the service).
fn timeout() -> ApiError {
    ApiError::Timeout {
        method: "GET".into(),
        after: Duration::from_secs(30),
        may_have_reached: false,
    }
}

/// The retry subscription of the pane, if any, with its period.
fn retry_sub(m: &Model) -> Option<(DomainsSub, Duration)> {
    subscriptions(m).into_iter().find_map(|s| match s.id {
        SubId::Pane(PaneSub::Domains(sub @ DomainsSub::Retry(..))) => Some((sub, s.every)),
        _ => None,
    })
}

#[test]
fn a_failed_refresh_keeps_the_list_marks_it_stale_and_the_next_poll_retries() {
    let mut m = loaded();
    let before = m.panes.domains.domains.items.clone();
    m.clock += 180;
    let cmds = key(&mut m, KeyCode::Char('r'));
    let (id, _) = api(&cmds).remove(0);
    reply(&mut m, id, ApiReply::Domains(Err(timeout())));
    assert_eq!(m.panes.domains.domains.items, before, "the values stay");
    assert!(m.panes.domains.domains.stale(), "marked stale");
    assert_eq!(
        m.panes.domains.domains.as_of(),
        Some(fixtures::CLOCK),
        "as of the last answer"
    );
    assert_eq!(watch_ids(&m), ["d-4"], "the watch goes on");
    let (sub, every) = retry_sub(&m).expect("a retry is scheduled");
    assert_eq!(every, m.poll.domain * 2);
    let cmds = update(&mut m, Msg::SubFired(SubId::Pane(PaneSub::Domains(sub))));
    let (id, req) = api(&cmds).remove(0);
    assert_eq!(req, ApiRequest::ListDomains { skip_sync: false });
    // A second failure waits twice as long.
    reply(&mut m, id, ApiReply::Domains(Err(timeout())));
    assert_eq!(retry_sub(&m).map(|(_, e)| e), Some(m.poll.domain * 4));
    let (sub, _) = retry_sub(&m).unwrap();
    let cmds = update(&mut m, Msg::SubFired(SubId::Pane(PaneSub::Domains(sub))));
    let (id, _) = api(&cmds).remove(0);
    reply(&mut m, id, ApiReply::Domains(Ok(fixtures::domains())));
    assert!(!m.panes.domains.domains.stale());
    assert_eq!(m.panes.domains.domains.as_of(), Some(fixtures::CLOCK + 180));
    assert!(retry_sub(&m).is_none(), "fresh again: no retry");
}

#[test]
fn a_refused_key_is_not_retried_by_the_poller() {
    let mut m = loaded();
    let cmds = key(&mut m, KeyCode::Char('r'));
    let (id, _) = api(&cmds).remove(0);
    let refused = service_error(
        401,
        r#"{"error":{"code":"unauthorized","message":"Invalid API key"}}"#,
    );
    reply(&mut m, id, ApiReply::Domains(Err(refused)));
    assert!(m.panes.domains.domains.stale());
    assert!(retry_sub(&m).is_none(), "retrying cannot help");
}

#[test]
fn a_failed_poll_keeps_the_last_known_status_and_says_how_old_it_is() {
    let mut m = loaded();
    m.clock += 120;
    let cmds = update(&mut m, Msg::SubFired(watch_sub("d-4")));
    let (id, _) = api(&cmds).remove(0);
    reply(&mut m, id, ApiReply::Domain(Err(timeout())));
    let w = m.panes.domains.watches.get("d-4").expect("still watched");
    assert_eq!(w.fresh.failures, 1);
    assert_eq!(
        w.fresh.read_at,
        Some(fixtures::CLOCK),
        "known as of the list"
    );
    assert_eq!(
        m.panes.domains.domain("d-4").map(|d| d.status.clone()),
        Some(DomainStatus::Verifying)
    );
    // A reply that names no domain (a malformed body read leniently) is a
    // failure too: no empty row appears, the status stays.
    let w = m.panes.domains.watches.get("d-4").cloned().unwrap();
    m.now = w.last_poll + m.panes.domains.watch_every("d-4").unwrap();
    let cmds = update(
        &mut m,
        Msg::SubFired(SubId::Pane(PaneSub::Domains(DomainsSub::Watch(
            "d-4".into(),
            w.generation,
        )))),
    );
    let (id, _) = api(&cmds).remove(0);
    reply(&mut m, id, ApiReply::Domain(Ok(SendingDomain::default())));
    assert_eq!(m.panes.domains.domains.items.len(), 4, "no empty row");
    assert!(m.panes.domains.domain("").is_none());
    assert_eq!(
        m.panes.domains.watches.get("d-4").map(|w| w.fresh.failures),
        Some(2)
    );
}

#[test]
fn a_failed_sender_refresh_keeps_the_senders() {
    let mut m = loaded();
    let cmds = key(&mut m, KeyCode::Char('s'));
    let (id, _) = api(&cmds).remove(0);
    reply(&mut m, id, ApiReply::Senders(Ok(fixtures::senders())));
    let cmds = key(&mut m, KeyCode::Char('r'));
    let (id, _) = api(&cmds).remove(0);
    reply(&mut m, id, ApiReply::Senders(Err(timeout())));
    assert_eq!(m.panes.domains.filtered_senders().len(), 3);
    assert!(m.panes.domains.senders.stale());
    let (sub, _) = retry_sub(&m).expect("retried");
    let cmds = update(&mut m, Msg::SubFired(SubId::Pane(PaneSub::Domains(sub))));
    assert_eq!(api(&cmds).remove(0).1, ApiRequest::ListSenders);
}

#[test]
fn the_age_of_stale_values_is_redrawn_only_when_it_changes() {
    let mut m = loaded();
    let age = SubId::Pane(PaneSub::Domains(DomainsSub::Age));
    let every = |m: &Model| {
        subscriptions(m)
            .into_iter()
            .find(|s| s.id == age)
            .map(|s| s.every)
    };
    // A failed list read counts its retry down: looked at every second,
    // redrawn as the count changes.
    let cmds = key(&mut m, KeyCode::Char('r'));
    let (id, _) = api(&cmds).remove(0);
    reply(&mut m, id, ApiReply::Domains(Err(timeout())));
    assert_eq!(every(&m), Some(Duration::from_secs(1)));
    m.redraw = false;
    m.clock += 1;
    update(&mut m, Msg::SubFired(age.clone()));
    assert!(m.redraw, "the retry counts down");
    // A watched domain whose poll failed says its status's age: in
    // minutes, looked at every 10 s and redrawn only when the minute
    // changes.
    let mut m = loaded();
    m.clock += 120;
    let cmds = update(&mut m, Msg::SubFired(watch_sub("d-4")));
    let (id, _) = api(&cmds).remove(0);
    reply(&mut m, id, ApiReply::Domain(Err(timeout())));
    update(&mut m, Msg::SubFired(age.clone()));
    assert_eq!(every(&m), Some(Duration::from_secs(10)));
    m.redraw = false;
    m.clock += 10;
    update(&mut m, Msg::SubFired(age));
    assert!(!m.redraw, "still '2m ago'");
}

/// Issue "one freshness holder": the domain list's title drew its own
/// stale note (`⚠ as of 3m ago (timeout) · retrying`) while every value
/// says `retrying in 8 s` from its `Freshness`; it backs off by
/// `Freshness::backoff`, and what the title says is what is scheduled.
#[test]
fn a_failing_domain_list_backs_off_and_reads_as_every_pane() {
    let mut m = loaded();
    m.clock += 180;
    let mut fresh = crate::app::fresh::Freshness::default();
    fresh.ok(fixtures::CLOCK);
    for n in 1..=5 {
        let cmds = match retry_sub(&m) {
            Some((sub, _)) => update(&mut m, Msg::SubFired(SubId::Pane(PaneSub::Domains(sub)))),
            None => key(&mut m, KeyCode::Char('r')),
        };
        let (id, _) = api(&cmds).remove(0);
        reply(&mut m, id, ApiReply::Domains(Err(timeout())));
        fresh.fail("timeout".into(), &timeout());
        assert_eq!(
            retry_sub(&m).map(|(_, every)| every),
            Some(fresh.backoff(m.poll.domain)),
            "after {n} failures"
        );
    }
    let every = m.poll.domain * 8;
    assert_eq!(
        retry_sub(&m).map(|(_, every)| every),
        Some(every),
        "never more than eight times the period"
    );
    assert_eq!(m.panes.domains.domains.fresh.next_poll(), Some(every));
    let shown = screen(&m, 80, 24);
    let said = format!("retrying in {} s", every.as_secs());
    assert!(shown.contains(&said), "{shown}");
    assert!(!shown.contains("⚠ as of"), "{shown}");
    m.clock += 5;
    let said = format!("retrying in {} s", every.as_secs() - 5);
    assert!(screen(&m, 80, 24).contains(&said), "it counts down");
    // On the senders, nothing reads the domains again.
    let cmds = key(&mut m, KeyCode::Char('s'));
    assert!(!api(&cmds).is_empty());
    assert_eq!(m.panes.domains.domains.fresh.next_poll(), None);
}

/// A refused key: nothing polls the list, and its title says its age and
/// the fix, in the one wording.
#[test]
fn a_refused_list_read_says_stale_and_the_fix() {
    let mut m = loaded();
    m.clock += 150;
    let cmds = key(&mut m, KeyCode::Char('r'));
    let (id, _) = api(&cmds).remove(0);
    reply(
        &mut m,
        id,
        ApiReply::Domains(Err(service_error(
            401,
            r#"{"error":{"code":"unauthorized","message":"bad key"}}"#,
        ))),
    );
    assert!(retry_sub(&m).is_none());
    let shown = screen(&m, 100, 24);
    assert!(
        shown.contains("stale · as of 2m ago · key refused: see `outpost check`"),
        "{shown}"
    );
}

/// Issue "one freshness holder": a verify watch backed off by its own
/// rule (2^n, up to 5 minutes); now by `Freshness` (up to 8 times the
/// period), and the countdown drawn is the poll scheduled.
#[test]
fn a_failing_watch_backs_off_by_the_one_rule() {
    let mut m = loaded();
    for _ in 0..5 {
        let w = m.panes.domains.watches["d-4"].clone();
        let cmds = update(
            &mut m,
            Msg::SubFired(SubId::Pane(PaneSub::Domains(DomainsSub::Watch(
                "d-4".into(),
                w.generation,
            )))),
        );
        let (id, _) = api(&cmds).remove(0);
        reply(&mut m, id, ApiReply::Domain(Err(timeout())));
    }
    let every = m.poll.domain * 8;
    assert_eq!(m.panes.domains.watch_every("d-4"), Some(every));
    let sub = subscriptions(&m)
        .into_iter()
        .find(|s| matches!(&s.id, SubId::Pane(PaneSub::Domains(DomainsSub::Watch(d, _))) if d == "d-4"))
        .map(|s| s.every);
    assert_eq!(sub, Some(every), "the poll scheduled is the one drawn");
    let shown = screen(&m, 100, 24);
    assert!(
        shown.contains(&format!(
            "retry in {}",
            crate::text::format::duration(every)
        )),
        "{shown}"
    );
}

/// The status of a watched domain whose poll failed said its age as
/// `10s ago`, while every other value says `just now` under 45 s.
#[test]
fn a_failed_watch_says_its_age_by_the_one_rule() {
    let mut m = loaded();
    m.clock += 10;
    let cmds = update(&mut m, Msg::SubFired(watch_sub("d-4")));
    let (id, _) = api(&cmds).remove(0);
    reply(&mut m, id, ApiReply::Domain(Err(timeout())));
    let shown = screen(&m, 100, 24);
    assert!(shown.contains("verifying · as of just now"), "{shown}");
    m.clock += 80;
    assert!(
        screen(&m, 100, 24).contains("verifying · as of 1m ago"),
        "90 s is 1m by the one rule"
    );
}

/// The footer said "watching 1 verifying domain" for a pending domain
/// watched after its verify trigger's answer was lost.
#[test]
fn the_footer_names_a_domain_watched_after_a_lost_trigger() {
    let mut m = loaded();
    key(&mut m, KeyCode::Char('j'));
    let cmds = key(&mut m, KeyCode::Char('v'));
    let (id, _) = api(&cmds).remove(0);
    reply(&mut m, id, ApiReply::Domain(Err(lost_502())));
    let shown = screen(&m, 100, 24);
    assert!(
        shown.contains("watching 1 verifying domain + 1 after a lost verify"),
        "{shown}"
    );
}

/// Presses shift and a letter.
fn shifted(m: &mut Model, c: char) -> Vec<Cmd> {
    update(
        m,
        Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::SHIFT)),
    )
}

#[test]
fn shift_y_copies_the_name_the_type_or_a_zone_file_line() {
    let mut m = loaded();
    key(&mut m, KeyCode::Enter);
    assert!(
        shifted(&mut m, 'Y').is_empty(),
        "the chooser opens, nothing copied yet"
    );
    assert!(m.panes.domains.copy_menu.is_some());
    assert_eq!(
        key(&mut m, KeyCode::Char('n')),
        vec![Cmd::Copy("resend._domainkey.mail.brightlabs.io".into())]
    );
    assert!(m.panes.domains.copy_menu.is_none(), "a choice closes it");
    shifted(&mut m, 'Y');
    assert_eq!(
        key(&mut m, KeyCode::Char('t')),
        vec![Cmd::Copy("TXT".into())]
    );
    // Arrows and Enter choose too: the fourth line is the zone-file line.
    key(&mut m, KeyCode::Down);
    key(&mut m, KeyCode::Down);
    shifted(&mut m, 'Y');
    key(&mut m, KeyCode::Down);
    key(&mut m, KeyCode::Down);
    key(&mut m, KeyCode::Down);
    assert_eq!(
        key(&mut m, KeyCode::Enter),
        vec![Cmd::Copy(
            "send.mail.brightlabs.io. 3600 IN MX 10 feedback-smtp.us-east-1.amazonses.com.".into()
        )]
    );
    // Esc closes it; letters never reach the pane while it is open.
    shifted(&mut m, 'Y');
    let cmds = key(&mut m, KeyCode::Char('a'));
    assert!(cmds.is_empty() && m.panes.domains.add.is_none(), "{cmds:?}");
    assert!(key(&mut m, KeyCode::Char('q')).is_empty() && !m.quit);
    assert!(key(&mut m, KeyCode::Esc).is_empty());
    assert!(m.panes.domains.copy_menu.is_none());
    assert_eq!(
        m.panes.domains.view,
        View::DomainDetail,
        "Esc only closed it"
    );
}

#[test]
fn zone_file_lines_quote_split_and_qualify() {
    let rec = |kind: &str, name: &str, value: &str, priority: u64| crate::api::model::DnsRecord {
        kind: kind.into(),
        name: name.into(),
        value: value.into(),
        priority,
    };
    assert_eq!(
        zone_line(&rec(
            "TXT",
            "send.x.io",
            "v=spf1 include:amazonses.com ~all",
            0
        )),
        r#"send.x.io. 3600 IN TXT "v=spf1 include:amazonses.com ~all""#
    );
    assert_eq!(
        zone_line(&rec("mx", "x.io.", "mx.example.net", 10)),
        "x.io. 3600 IN MX 10 mx.example.net."
    );
    assert_eq!(
        zone_line(&rec(
            "CNAME",
            "s1._domainkey.x.io",
            "s1.dkim.example.net.",
            0
        )),
        "s1._domainkey.x.io. 3600 IN CNAME s1.dkim.example.net."
    );
    // Quotes and backslashes are escaped; a value already quoted is not
    // quoted twice; control characters never reach the clipboard.
    assert_eq!(
        zone_line(&rec("TXT", "x.io", "\"a \\\"b\\\" c\"", 0)),
        r#"x.io. 3600 IN TXT "a \"b\" c""#
    );
    assert_eq!(
        zone_line(&rec(
            "TXT",
            "x.io",
            "v=DMARC1;\x1b]52;c;ZXZpbA==\x07 p=none",
            0
        )),
        r#"x.io. 3600 IN TXT "v=DMARC1; p=none""#
    );
    // A DKIM key longer than 255 bytes is split into strings of 255.
    let key = "p=".to_owned() + &"A".repeat(400);
    let line = zone_line(&rec("TXT", "k._domainkey.x.io", &key, 0));
    let expected = format!(
        "k._domainkey.x.io. 3600 IN TXT \"{}\" \"{}\"",
        &key[..255],
        &key[255..]
    );
    assert_eq!(line, expected);
}

#[test]
fn the_chooser_keeps_the_size_cap() {
    let mut m = loaded();
    m.panes.domains.domains.items[0].dns_records[0].value = "A".repeat(70 * 1024);
    key(&mut m, KeyCode::Enter);
    shifted(&mut m, 'Y');
    assert!(key(&mut m, KeyCode::Char('z')).is_empty(), "not copied");
    assert_eq!(
        m.toasts.items().last().map(|t| t.title.as_str()),
        Some("not copied")
    );
    assert_eq!(
        key(&mut m, KeyCode::Char('y')),
        Vec::<Cmd>::new(),
        "y keeps the cap too"
    );
}

#[test]
fn shift_y_on_the_list_says_where_it_works() {
    let mut m = loaded();
    shifted(&mut m, 'Y');
    assert!(m.panes.domains.copy_menu.is_none());
    let toast = m.toasts.items().last().expect("a notice");
    assert!(
        toast.text.as_str().contains("records"),
        "{}",
        toast.text.as_str()
    );
}

#[test]
fn a_fresh_list_answer_clears_a_failed_watch_mark() {
    let mut m = loaded();
    let cmds = update(&mut m, Msg::SubFired(watch_sub("d-4")));
    let (id, _) = api(&cmds).remove(0);
    reply(&mut m, id, ApiReply::Domain(Err(timeout())));
    assert!(m.panes.domains.watches["d-4"].fresh.is_stale());
    m.clock += 30;
    let cmds = key(&mut m, KeyCode::Char('r'));
    let (id, _) = api(&cmds).remove(0);
    reply(&mut m, id, ApiReply::Domains(Ok(fixtures::domains())));
    let w = &m.panes.domains.watches["d-4"];
    assert!(!w.fresh.is_stale(), "the list told the status just now");
    assert_eq!(w.fresh.read_at, Some(fixtures::CLOCK + 30));
}

/// Types `name` in the add dialog and sends it; the create request's id.
fn send_add(m: &mut Model, name: &str) -> crate::app::RequestId {
    key(m, KeyCode::Char('a'));
    chars(m, name);
    let (id, req) = api(&ctrl(m, 's')).remove(0);
    assert_eq!(req, ApiRequest::CreateDomain { name: name.into() });
    id
}

fn add_note(m: &Model) -> String {
    m.panes
        .domains
        .add
        .as_ref()
        .and_then(|f| f.note.clone())
        .unwrap_or_default()
}

/// A write answered 502 after the service ran it (the client marks it as
/// one that may have reached).
fn lost_502() -> ApiError {
    let mut e = crate::api::ServiceError::from_body(
        502,
        br#"{"error":{"code":"bad_gateway","message":"Bad gateway"}}"#,
        None,
    );
    e.may_have_reached = true;
    ApiError::Service(Box::new(e))
}

/// A read answered 500.
fn read_500() -> ApiError {
    service_error(
        500,
        r#"{"error":{"code":"internal_error","message":"boom"}}"#,
    )
}

/// The check's next read, if one is due: its wait, and the command it
/// sends when it falls due.
fn next_check(m: &mut Model) -> Option<(Duration, crate::app::RequestId)> {
    let (sub, every) = subscriptions(m).into_iter().find_map(|s| match s.id {
        SubId::Pane(PaneSub::Domains(sub @ DomainsSub::AddCheck(_))) => Some((sub, s.every)),
        _ => None,
    })?;
    let cmds = update(m, Msg::SubFired(SubId::Pane(PaneSub::Domains(sub))));
    let (id, req) = api(&cmds).remove(0);
    assert_eq!(req, ApiRequest::ListDomains { skip_sync: true });
    Some((every, id))
}

fn with_acme() -> Vec<SendingDomain> {
    let mut list = fixtures::domains();
    list.insert(
        0,
        fixtures::domain(
            "d-9",
            "mail.acme.io",
            DomainStatus::Pending,
            "2026-11-22T12:00:00Z",
        ),
    );
    list
}

#[test]
fn a_create_lost_after_sending_is_checked_and_asked_before_sending_again() {
    let mut m = loaded();
    let id = send_add(&mut m, "mail.acme.io");
    let lost = ApiError::Timeout {
        method: "POST".into(),
        after: Duration::from_secs(10),
        may_have_reached: true,
    };
    let cmds = reply(&mut m, id, ApiReply::Domain(Err(lost)));
    let (mut check, req) = api(&cmds).remove(0);
    assert_eq!(req, ApiRequest::ListDomains { skip_sync: true }, "re-reads");
    assert!(
        add_note(&m).contains("May have been added (timeout)"),
        "{}",
        add_note(&m)
    );
    let shown = screen(&m, 80, 24);
    assert!(shown.contains("May have been added (timeout)"), "{shown}");
    // Five good reads without it: not found.
    for _ in 0..crate::logic::write::GOOD_READS {
        reply(&mut m, check, ApiReply::Domains(Ok(fixtures::domains())));
        if let Some((_, id)) = next_check(&mut m) {
            check = id;
        }
    }
    assert_eq!(
        add_note(&m),
        "May have been added (timeout): not found in the domain list after 5 good reads. Ctrl-S asks first."
    );
    assert_eq!(
        m.panes.domains.add.as_ref().map(|f| f.value("domain")),
        Some("mail.acme.io".into()),
        "the name stays"
    );
    // Ctrl-S asks first; only yes sends it again.
    assert!(
        api(&ctrl(&mut m, 's')).is_empty(),
        "not sent without asking"
    );
    let Some(crate::app::Overlay::Confirm(c)) = &m.overlay else {
        panic!("asks");
    };
    assert_eq!(c.title, "Add again?");
    assert!(
        c.lines[0].contains("may have reached the service (timeout: no answer within 10s)"),
        "{:?}",
        c.lines
    );
    let check = m
        .panes
        .domains
        .lost_create
        .as_ref()
        .map(|l| l.check.clone());
    assert_eq!(
        c.lines[1],
        check.expect("kept").again_warning("in the domain list"),
        "the one wording of every pane"
    );
    assert!(api(&key(&mut m, KeyCode::Esc)).is_empty());
    ctrl(&mut m, 's');
    let cmds = key(&mut m, KeyCode::Char('y'));
    assert_eq!(
        api(&cmds).remove(0).1,
        ApiRequest::CreateDomain {
            name: "mail.acme.io".into()
        }
    );
}

/// Issue "One way to write, one way to read": with slow writes the list
/// was read once, before the service had added the domain, and the dialog
/// said "most likely not" for good. The list is now read again at 2, 4, 8
/// and 16 s; a failed read counts for nothing; a later read that finds it
/// shows the domain as added.
#[test]
fn a_lost_create_is_read_again_on_the_schedule_and_found_late() {
    let mut m = loaded();
    let id = send_add(&mut m, "mail.acme.io");
    let cmds = reply(&mut m, id, ApiReply::Domain(Err(lost_502())));
    let (first, _) = api(&cmds).remove(0);
    // Read at once: not there yet (the service is still working).
    reply(&mut m, first, ApiReply::Domains(Ok(fixtures::domains())));
    let note = add_note(&m);
    assert!(!note.contains("most likely"), "{note}");
    assert_eq!(
        note,
        "May have been added (bad_gateway): checking in the domain list… not there after 1 of 5 good reads"
    );
    let (wait, second) = next_check(&mut m).expect("read again");
    assert_eq!(wait, Duration::from_secs(2));
    // A failed read proves nothing.
    reply(&mut m, second, ApiReply::Domains(Err(read_500())));
    let note = add_note(&m);
    assert!(note.contains("a failed read proves nothing"), "{note}");
    assert_eq!(
        m.panes.domains.lost_create.as_ref().map(|l| l.check.absent),
        Some(1)
    );
    let (_, third) = next_check(&mut m).expect("read again after a failure");
    // It is there now: shown as added.
    reply(&mut m, third, ApiReply::Domains(Ok(with_acme())));
    assert!(m.panes.domains.add.is_none(), "the dialog closes");
    assert!(m.panes.domains.lost_create.is_none());
    assert_eq!(m.panes.domains.open.as_deref(), Some("d-9"));
    let t = m.toasts.items().last().expect("a notice");
    assert_eq!(t.title.as_str(), "Domain added");
    assert!(
        t.text.as_str().contains("found in the domain list"),
        "{}",
        t.text.as_str()
    );
    assert!(next_check(&mut m).is_none(), "settled: no more reads");
}

/// Ten failed reads say "could not check", never "most likely not".
#[test]
fn failed_reads_of_the_list_never_say_it_was_not_added() {
    let mut m = loaded();
    let id = send_add(&mut m, "mail.acme.io");
    let cmds = reply(&mut m, id, ApiReply::Domain(Err(lost_502())));
    let (mut read, _) = api(&cmds).remove(0);
    for _ in 0..crate::logic::write::MAX_FAILED_READS {
        reply(&mut m, read, ApiReply::Domains(Err(read_500())));
        assert!(!add_note(&m).contains("not found"), "{}", add_note(&m));
        if let Some((_, id)) = next_check(&mut m) {
            read = id;
        }
    }
    let note = add_note(&m);
    assert!(
        note.contains("could not check: 10 reads failed (last: internal_error"),
        "{note}"
    );
    assert!(next_check(&mut m).is_none(), "settled");
}

#[test]
fn an_unreadable_create_answer_that_went_through_shows_the_domain() {
    let mut m = loaded();
    let id = send_add(&mut m, "mail.acme.io");
    let unreadable = ApiError::Decode {
        status: 201,
        detail: "expected value at line 1 column 1".into(),
        may_have_reached: true,
    };
    let cmds = reply(&mut m, id, ApiReply::Domain(Err(unreadable)));
    let (check, _) = api(&cmds).remove(0);
    reply(&mut m, check, ApiReply::Domains(Ok(with_acme())));
    assert!(m.panes.domains.add.is_none(), "the dialog closes");
    assert!(m.panes.domains.lost_create.is_none());
    assert_eq!(m.panes.domains.view, View::DomainDetail);
    assert_eq!(m.panes.domains.open.as_deref(), Some("d-9"));
    let t = m.toasts.items().last().expect("a notice");
    assert_eq!(t.title.as_str(), "Domain added");
}

/// The verify trigger whose answer was lost may have started a check:
/// sending it again is safe, so the notice says the key may be pressed
/// again (never "r retries" or "r refreshes"), and the status is read.
#[test]
fn a_lost_verify_trigger_says_pressing_v_again_is_safe_and_reads_the_status() {
    let mut m = loaded();
    key(&mut m, KeyCode::Char('j'));
    let cmds = key(&mut m, KeyCode::Char('v'));
    let (id, trigger) = api(&cmds).remove(0);
    assert_eq!(
        trigger.settle(),
        Some(crate::logic::write::Settle::SafeToRepeat)
    );
    let cmds = reply(&mut m, id, ApiReply::Domain(Err(lost_502())));
    let t = m.toasts.items().last().expect("a notice");
    assert_eq!(t.title.as_str(), "Verification may have started");
    let text = t.text.as_str();
    assert!(text.contains("Pressing v again is safe"), "{text}");
    assert!(
        !text.contains("r retries") && !text.contains("refresh"),
        "{text}"
    );
    let (read, req) = api(&cmds).remove(0);
    assert_eq!(
        req,
        ApiRequest::VerifyDomain {
            id: "d-3".into(),
            poll: true
        },
        "the watch's status read"
    );
    assert!(
        watch_ids(&m).contains(&"d-3".to_owned()),
        "watched, pending as it is shown, until a status read tells"
    );
    // A read that fails tells nothing: the watch reads again.
    reply(&mut m, read, ApiReply::Domain(Err(read_500())));
    assert!(watch_ids(&m).contains(&"d-3".to_owned()));
    let cmds = update(&mut m, Msg::SubFired(watch_sub("d-3")));
    let (read, _) = api(&cmds).remove(0);
    let verifying = fixtures::domain(
        "d-3",
        "outreach.northwind.com",
        DomainStatus::Verifying,
        "2026-11-21T08:00:00Z",
    );
    reply(&mut m, read, ApiReply::Domain(Ok(verifying)));
    assert_eq!(
        m.panes.domains.domain("d-3").map(|d| d.status.clone()),
        Some(DomainStatus::Verifying),
        "the read settles what is shown"
    );
    assert!(
        watch_ids(&m).contains(&"d-3".to_owned()),
        "and the watch goes on"
    );
    // Pressing v again sends the trigger, without a question.
    let cmds = key(&mut m, KeyCode::Char('v'));
    assert_eq!(
        api(&cmds).remove(0).1,
        ApiRequest::VerifyDomain {
            id: "d-3".into(),
            poll: false
        }
    );
    assert!(m.overlay.is_none());
}

/// A status read after a lost trigger that shows the domain still
/// pending tells the trigger did not start a check: the watch ends, and v
/// is there to press again.
#[test]
fn a_lost_trigger_read_as_pending_ends_the_watch() {
    let mut m = loaded();
    key(&mut m, KeyCode::Char('j'));
    let cmds = key(&mut m, KeyCode::Char('v'));
    let (id, _) = api(&cmds).remove(0);
    let cmds = reply(&mut m, id, ApiReply::Domain(Err(lost_502())));
    let (read, _) = api(&cmds).remove(0);
    let pending = fixtures::domain(
        "d-3",
        "outreach.northwind.com",
        DomainStatus::Pending,
        "2026-11-21T08:00:00Z",
    );
    reply(&mut m, read, ApiReply::Domain(Ok(pending)));
    assert!(m.panes.domains.triggered.is_empty());
    assert!(
        !watch_ids(&m).contains(&"d-3".to_owned()),
        "no longer watched"
    );
}

/// A status read (`poll=true`) that fails is a read: it never "may have
/// been accepted", and the watch reads again by itself ("retrying", not
/// "r retries").
#[test]
fn a_failed_status_read_is_said_as_a_read() {
    for failure in [
        service_error(
            502,
            r#"{"error":{"code":"bad_gateway","message":"Bad gateway"}}"#,
        ),
        lost_502(),
    ] {
        let mut m = loaded();
        let cmds = update(&mut m, Msg::SubFired(watch_sub("d-4")));
        let (id, _) = api(&cmds).remove(0);
        reply(&mut m, id, ApiReply::Domain(Err(failure)));
        let t = m.toasts.items().last().expect("a notice");
        assert_eq!(t.title.as_str(), "bad_gateway · checking verification");
        let text = t.text.as_str();
        assert!(!text.contains("may have"), "{text}");
        assert!(!text.contains("accepted"), "{text}");
        assert!(text.contains("the status could not be read"), "{text}");
        assert!(text.ends_with(" · retrying"), "{text}");
    }
}

/// A write the service refused names its own key, never the Refresh key.
#[test]
fn a_refused_write_names_its_own_key() {
    let mut m = loaded();
    key(&mut m, KeyCode::Char('j'));
    let cmds = key(&mut m, KeyCode::Char('v'));
    let (id, _) = api(&cmds).remove(0);
    let limited = ApiError::RateLimited {
        wait: Duration::from_secs(3),
        message: "Rate limit exceeded. Retry in 3 seconds.".into(),
    };
    reply(&mut m, id, ApiReply::Domain(Err(limited.clone())));
    let t = m.toasts.items().last().expect("a notice");
    assert_eq!(t.title.as_str(), "rate_limited · verifying the domain");
    assert!(
        t.text.as_str().ends_with("— v triggers it again"),
        "{}",
        t.text.as_str()
    );
    // A create refused after its dialog was closed.
    key(&mut m, KeyCode::Char('a'));
    chars(&mut m, "mail.acme.io");
    let (id, _) = api(&ctrl(&mut m, 's')).remove(0);
    key(&mut m, KeyCode::Esc);
    reply(&mut m, id, ApiReply::Domain(Err(limited)));
    let t = m.toasts.items().last().expect("a notice");
    assert_eq!(t.title.as_str(), "rate_limited · adding the domain");
    assert!(
        t.text.as_str().ends_with("— a adds it again"),
        "{}",
        t.text.as_str()
    );
    assert!(!t.text.as_str().contains("r tries"), "{}", t.text.as_str());
}

/// The screen as text, lines joined.
fn screen(m: &Model, w: u16, h: u16) -> String {
    let backend = ratatui::backend::TestBackend::new(w, h);
    let mut term = ratatui::Terminal::new(backend).expect("terminal");
    term.draw(|f| crate::ui::view(m, f)).expect("draw");
    let buf = term.backend().buffer().clone();
    (0..h)
        .map(|y| {
            (0..w)
                .map(|x| buf[(x, y)].symbol().to_owned())
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A failed domain read names its next step in the words every pane uses
/// (the one `fresh::next_step`): the key fix, `retrying` while watched,
/// the Refresh key for a retryable error, nothing for a refusal.
#[test]
fn a_failed_read_names_its_next_step_in_the_words_of_every_pane() {
    let m = loaded();
    let refresh = m.keymap.key_label(crate::app::keymap::Action::Refresh);
    let cases = [
        (
            service_error(401, r#"{"code":"unauthorized","message":"no"}"#),
            false,
            Some("key refused: see `outpost check`".to_owned()),
        ),
        (
            service_error(500, r#"{"code":"internal","message":"boom"}"#),
            true,
            Some("retrying".to_owned()),
        ),
        (
            service_error(500, r#"{"code":"internal","message":"boom"}"#),
            false,
            Some(format!("{refresh} retries")),
        ),
        (
            service_error(429, r#"{"code":"rate_limited","message":"slow"}"#),
            false,
            Some(format!("{refresh} retries")),
        ),
        (
            service_error(400, r#"{"code":"bad_request","message":"no"}"#),
            false,
            None,
        ),
    ];
    for (e, polled, want) in cases {
        assert_eq!(
            crate::app::fresh::next_step(&m.keymap, &e, polled),
            want,
            "{e:?} polled={polled}"
        );
    }
}

/// The verdicts a batch of commands appends to the write journal.
fn verdicts(cmds: &[Cmd]) -> Vec<(crate::app::RequestId, crate::logic::write::Verdict)> {
    cmds.iter()
        .filter_map(|c| match c {
            Cmd::JournalVerdict { write, verdict } => Some((*write, verdict.clone())),
            _ => None,
        })
        .collect()
}

/// Issue 19: a lost create's verdict is appended to the journal when its
/// check settles, once, naming the create's own request (its entry).
#[test]
fn a_lost_creates_verdict_is_journaled_once_naming_the_create() {
    use crate::logic::write::Verdict;
    let mut m = loaded();
    let create = send_add(&mut m, "mail.acme.io");
    let cmds = reply(&mut m, create, ApiReply::Domain(Err(lost_502())));
    assert_eq!(verdicts(&cmds), [], "nothing is known yet");
    let (mut read, _) = api(&cmds).remove(0);
    let mut said = Vec::new();
    for _ in 0..crate::logic::write::GOOD_READS {
        said.extend(verdicts(&reply(
            &mut m,
            read,
            ApiReply::Domains(Ok(fixtures::domains())),
        )));
        if let Some((_, id)) = next_check(&mut m) {
            read = id;
        }
    }
    assert_eq!(said, [(create, Verdict::NotFound)]);
    // Found later by any read of the list: the last verdict is appended.
    key(&mut m, KeyCode::Esc);
    assert!(m.panes.domains.add.is_none(), "the dialog is closed");
    let list = update(&mut m, Msg::Key(KeyEvent::from(KeyCode::Char('r'))));
    let (id, req) = api(&list).remove(0);
    assert!(matches!(req, ApiRequest::ListDomains { .. }), "{req:?}");
    let cmds = reply(&mut m, id, ApiReply::Domains(Ok(with_acme())));
    assert_eq!(
        verdicts(&cmds),
        [(create, Verdict::Found("found in the domain list".into()))]
    );
}

/// A lost write no read settles (a verify trigger is safe to repeat) has
/// its verdict at once; a read never has one.
#[test]
fn a_lost_trigger_is_journaled_at_once_and_a_failed_read_never() {
    use crate::logic::write::Verdict;
    let mut m = loaded();
    key(&mut m, KeyCode::Char('j'));
    let (id, _) = api(&key(&mut m, KeyCode::Char('v'))).remove(0);
    let cmds = reply(&mut m, id, ApiReply::Domain(Err(lost_502())));
    assert_eq!(
        verdicts(&cmds),
        [(
            id,
            Verdict::NoCheck("doing it twice changes nothing".into())
        )]
    );
    let list = update(&mut m, Msg::Key(KeyEvent::from(KeyCode::Char('r'))));
    let (id, _) = api(&list).remove(0);
    let cmds = reply(&mut m, id, ApiReply::Domains(Err(read_500())));
    assert_eq!(verdicts(&cmds), []);
}

#[test]
fn i_copies_the_selected_domain_s_id_and_the_open_one_s() {
    let mut m = loaded();
    let copied = |cmds: &[Cmd]| {
        cmds.iter().find_map(|c| match c {
            Cmd::CopyId { text, what } => Some((text.clone(), what.clone())),
            _ => None,
        })
    };
    let want = m.panes.domains.selected_domain().map(|d| d.id.clone());
    let (id, what) = copied(&key(&mut m, KeyCode::Char('I'))).expect("copied");
    assert_eq!(Some(id.clone()), want);
    assert!(what.starts_with("the id of domain “"), "{what}");
    key(&mut m, KeyCode::Enter);
    let (open, _) = copied(&key(&mut m, KeyCode::Char('I'))).expect("copied");
    assert_eq!(open, id, "the open domain's");
}
