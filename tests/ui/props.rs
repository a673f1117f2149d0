//! Property tests: random sequences of messages never panic `update` or
//! `view`, and keep every selection in bounds.

use std::time::Duration;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use outpost::api::ApiError;
use outpost::api::model::DomainStatus;
use outpost::app::domains::layout::areas;
use outpost::app::{ApiReply, ApiRequest, Cmd, Model, Msg, RequestId, SubId, fixtures, update};
use proptest::prelude::*;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

#[derive(Debug, Clone)]
enum Step {
    Key(KeyCode, bool),
    Resize(u16, u16),
    Click(u16, u16),
    Wheel(bool),
    Answer {
        pick: usize,
        n: usize,
        status: u8,
        fail: bool,
    },
    Stale(u64),
    Watch(usize),
    Tick,
}

fn key_code() -> impl Strategy<Value = KeyCode> {
    prop_oneof![
        prop::sample::select(vec![
            'j', 'k', 'g', 'G', 'v', 'y', 'a', 's', 't', 'r', '?', ':', '4', '1', 'q', 'x', 'n',
            ' ', '/', 'f', 'i'
        ])
        .prop_map(KeyCode::Char),
        prop::sample::select(vec![
            KeyCode::Enter,
            KeyCode::Esc,
            KeyCode::Tab,
            KeyCode::BackTab,
            KeyCode::PageDown,
            KeyCode::PageUp,
            KeyCode::Up,
            KeyCode::Down,
            KeyCode::Home,
            KeyCode::End,
            KeyCode::Backspace,
        ]),
    ]
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        6 => (key_code(), any::<bool>()).prop_map(|(k, ctrl_s)| Step::Key(k, ctrl_s)),
        2 => (1u16..220, 1u16..70).prop_map(|(w, h)| Step::Resize(w, h)),
        1 => (0u16..200, 0u16..60).prop_map(|(x, y)| Step::Click(x, y)),
        1 => any::<bool>().prop_map(Step::Wheel),
        4 => (0usize..8, 0usize..40, 0u8..5, any::<bool>()).prop_map(|(pick, n, status, fail)| Step::Answer { pick, n, status, fail }),
        1 => (0u64..500).prop_map(Step::Stale),
        1 => (0usize..40).prop_map(Step::Watch),
        1 => Just(Step::Tick),
    ]
}

fn domains(n: usize, status: u8) -> Vec<outpost::api::model::SendingDomain> {
    (0..n)
        .map(|i| {
            let s = match (i as u8 + status) % 5 {
                0 => DomainStatus::Verifying,
                1 => DomainStatus::Verified,
                2 => DomainStatus::Failed,
                3 => DomainStatus::Pending,
                _ => DomainStatus::Other("quarantined".into()),
            };
            let mut d = fixtures::domain(
                &format!("d-{i}"),
                &format!("mail{i}.example.com"),
                s,
                "2026-11-22T10:00:00Z",
            );
            d.dns_records.truncate(i % 5);
            d
        })
        .collect()
}

fn reply_for(req: &ApiRequest, n: usize, status: u8, fail: bool) -> ApiReply {
    let err = || ApiError::Timeout {
        method: "GET".into(),
        after: Duration::from_secs(30),
        may_have_reached: false,
    };
    match req {
        ApiRequest::ListDomains { .. } if fail => ApiReply::Domains(Err(err())),
        ApiRequest::ListDomains { .. } => ApiReply::Domains(Ok(domains(n, status))),
        ApiRequest::CreateDomain { .. } | ApiRequest::VerifyDomain { .. } if fail => {
            ApiReply::Domain(Err(err()))
        }
        ApiRequest::CreateDomain { .. } | ApiRequest::VerifyDomain { .. } => {
            let mut all = domains(n.max(1), status);
            ApiReply::Domain(Ok(all.remove(0)))
        }
        ApiRequest::ListSenders if fail => ApiReply::Senders(Err(err())),
        ApiRequest::ListSenders => ApiReply::Senders(Ok(fixtures::senders()
            .into_iter()
            .cycle()
            .take(n)
            .collect())),
        ApiRequest::SenderSchedule { .. } => {
            ApiReply::Schedule(Ok(serde_json::json!({"n": n, "days": [1, 2, {"x": null}]})))
        }
        _ => ApiReply::Senders(Ok(Vec::new())),
    }
}

fn check_invariants(m: &Model) -> Result<(), TestCaseError> {
    let d = &m.panes.domains;
    let body = m.layout().body;
    for (t, n, view) in [
        (
            &d.table,
            d.shown_domains().len(),
            outpost::app::domains::View::Domains,
        ),
        (
            &d.senders_table,
            d.filtered_senders().len(),
            outpost::app::domains::View::Senders,
        ),
    ] {
        prop_assert_eq!(t.len, n, "table length follows the data");
        if n > 0 {
            prop_assert!(t.selected < n, "selection {} out of {}", t.selected, n);
            let vp = areas(body, view, d.filter_bar(view)).viewport().max(1);
            prop_assert!(t.offset <= t.selected && t.selected < t.offset + vp);
        }
    }
    if let Some(open) = d.open_domain() {
        let n = open.dns_records.len();
        if n > 0 {
            prop_assert!(d.records.selected < n);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn random_messages_never_panic_and_keep_selections_in_bounds(steps in prop::collection::vec(step(), 1..80)) {
        let mut m = fixtures::model(80, 24);
        let mut pending: Vec<(RequestId, ApiRequest)> = Vec::new();
        let take = |cmds: Vec<Cmd>, pending: &mut Vec<(RequestId, ApiRequest)>| {
            for c in cmds {
                if let Cmd::Api { id, req } = c {
                    pending.push((id, req));
                }
            }
        };
        let cmds = m.start();
        take(cmds, &mut pending);
        for s in steps {
            let msg = match s {
                Step::Key(KeyCode::Char('s'), true) => Msg::Key(KeyEvent::new(KeyCode::Char('s'), KeyModifiers::CONTROL)),
                Step::Key(k, _) => Msg::Key(KeyEvent::new(k, KeyModifiers::NONE)),
                Step::Resize(w, h) => Msg::Resize(w, h),
                Step::Click(x, y) => Msg::Mouse(MouseEvent { kind: MouseEventKind::Down(MouseButton::Left), column: x, row: y, modifiers: KeyModifiers::NONE }),
                Step::Wheel(down) => Msg::Mouse(MouseEvent { kind: if down { MouseEventKind::ScrollDown } else { MouseEventKind::ScrollUp }, column: 5, row: 5, modifiers: KeyModifiers::NONE }),
                Step::Answer { pick, n, status, fail } => {
                    if pending.is_empty() {
                        continue;
                    }
                    // Out of order on purpose.
                    let (id, req) = pending.remove(pick % pending.len());
                    Msg::Api { id, latency: Duration::from_millis(3), reply: Box::new(reply_for(&req, n, status, fail)) }
                }
                Step::Stale(id) => Msg::Api { id: RequestId(10_000 + id), latency: Duration::ZERO, reply: Box::new(ApiReply::Domains(Ok(domains(3, 0)))) },
                Step::Watch(i) => Msg::SubFired(SubId::Pane(outpost::app::PaneSub::Domains(outpost::app::domains::DomainsSub::Watch(format!("d-{i}"), 0)))),
                Step::Tick => Msg::SubFired(SubId::Countdown),
            };
            let cmds = update(&mut m, msg);
            take(cmds, &mut pending);
            if m.quit {
                break;
            }
            check_invariants(&m)?;
            let (w, h) = m.size;
            let mut t = Terminal::new(TestBackend::new(w.max(1), h.max(1))).expect("backend");
            t.draw(|f| outpost::ui::view(&m, f)).expect("draw");
        }
    }
}
