//! Property tests: random sequences of messages never panic `update` or
//! `view`, and keep every selection in bounds.

use std::time::Duration;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use outpost::testkit::api::ApiError;
use outpost::testkit::api::model::DomainStatus;
use outpost::testkit::app::domains::layout::areas;
use outpost::testkit::app::{
    ApiReply, ApiRequest, Cmd, Model, Msg, RequestId, SubId, fixtures, update,
};
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

fn domains(n: usize, status: u8) -> Vec<outpost::testkit::api::model::SendingDomain> {
    (0..n)
        .map(|i| {
            let s = match (i % 5 + usize::from(status)) % 5 {
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
        other => ApiReply::failed(other, err()),
    }
}

fn check_invariants(m: &Model) -> Result<(), TestCaseError> {
    let d = &m.panes.domains;
    let body = m.layout().body;
    for (t, n, view) in [
        (
            &d.table,
            d.shown_domains().len(),
            outpost::testkit::app::domains::View::Domains,
        ),
        (
            &d.senders_table,
            d.filtered_senders().len(),
            outpost::testkit::app::domains::View::Senders,
        ),
    ] {
        prop_assert_eq!(t.len, n, "table length follows the data");
        if n > 0 {
            prop_assert!(t.selected < n, "selection {} out of {}", t.selected, n);
            let vp = areas(body, view, d.filter_bar(view), false)
                .viewport()
                .max(1);
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
                if let Some((id, req)) = c.request() {
                    pending.push((id, req.clone()));
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
                Step::Watch(i) => Msg::SubFired(SubId::Pane(outpost::testkit::app::PaneSub::Domains(outpost::testkit::app::domains::DomainsSub::Watch(format!("d-{i}"), 0)))),
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
            t.draw(|f| outpost::testkit::ui::view(&m, f)).expect("draw");
        }
    }
}

// ---------------------------------------------------------------------------
// Rendering widths: whatever a service sends, what is drawn stays inside its
// area, and every row is as wide on the terminal as ratatui thinks it is.
// ---------------------------------------------------------------------------

use outpost::testkit::text::sanitize::DisplayText;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};
use unicode_width::UnicodeWidthStr;

/// Hostile and awkward text: wide and zero-width characters, joiners inside
/// and outside emoji, combining runs, controls, escape sequences, bidi
/// marks, key-like tokens.
fn awkward() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        "[a-z ]{1,6}",
        Just("\u{200D}".to_owned()),
        Just("👩\u{200D}💻".to_owned()),
        Just("❤\u{FE0F}".to_owned()),
        Just("1\u{FE0F}\u{20E3}".to_owned()),
        Just("👍🏽".to_owned()),
        Just("🇫🇷".to_owned()),
        Just("漢字かな".to_owned()),
        Just("e\u{301}\u{302}\u{303}\u{304}\u{305}\u{306}".to_owned()),
        Just("\u{301}".to_owned()),
        Just("\u{200B}\u{200C}\u{2060}\u{FEFF}".to_owned()),
        Just("\u{202E}\u{2066}".to_owned()),
        Just("\x1b[31m\x1b]0;t\x07\u{9b}2J".to_owned()),
        Just("\t\r\n\u{7}\u{8}".to_owned()),
        Just("pk_live_abcdefgh1a2b".to_owned()),
        any::<char>().prop_map(String::from),
    ];
    prop::collection::vec(piece, 0..12).prop_map(|v| v.concat())
}

/// What a terminal puts on screen for one buffer row: each cell's symbol in
/// turn, the cells a wide symbol covers skipped (as ratatui's diff does).
fn drawn_symbols(buf: &Buffer, area: Rect, y: u16) -> Vec<String> {
    let mut out = Vec::new();
    let mut skip = 0usize;
    for x in area.x..area.x + area.width {
        let sym = buf[(x, y)].symbol();
        if skip == 0 {
            out.push(sym.to_owned());
        }
        skip = skip.max(sym.width()).saturating_sub(1);
    }
    out
}

/// The columns a terminal advances for those symbols: each symbol's width,
/// except that a symbol after one ending in a zero-width joiner is joined
/// into the previous cell (tmux does this), advancing nothing.
fn terminal_width(symbols: &[String]) -> usize {
    let mut w = 0;
    let mut joined = false;
    for s in symbols {
        if !joined {
            w += s.width();
        }
        joined = s.ends_with('\u{200D}');
    }
    w
}

/// Renders with `draw` into `area` inside a larger buffer and checks both
/// invariants.
fn check_render(area: Rect, draw: impl FnOnce(&mut Buffer, Rect)) -> Result<(), TestCaseError> {
    let outer = Rect::new(0, 0, area.right() + 3, area.bottom() + 3);
    let mut buf = Buffer::empty(outer);
    draw(&mut buf, area);
    for y in outer.top()..outer.bottom() {
        for x in outer.left()..outer.right() {
            let inside = x >= area.x && x < area.right() && y >= area.y && y < area.bottom();
            if !inside {
                prop_assert_eq!(
                    buf[(x, y)].symbol(),
                    " ",
                    "cell ({}, {}) outside {:?}",
                    x,
                    y,
                    area
                );
            }
        }
    }
    for y in area.top()..area.bottom() {
        let symbols = drawn_symbols(&buf, area, y);
        prop_assert_eq!(
            terminal_width(&symbols),
            usize::from(area.width),
            "row {} draws {:?}",
            y,
            symbols
        );
    }
    Ok(())
}

fn render_all(text: &str, w: u16, h: u16) -> Result<(), TestCaseError> {
    let area = Rect::new(2, 1, w, h);
    let inline = DisplayText::inline(text);
    let block = DisplayText::block(text);
    check_render(area, |buf, a| {
        use ratatui::widgets::Widget;
        Paragraph::new(Line::from(inline.as_str().to_owned())).render(a, buf);
    })?;
    // Wrapped by the shared helper (ratatui's own wrap can draw a wide
    // character past the edge: ratatui#2679).
    check_render(area, |buf, a| {
        use ratatui::widgets::Widget;
        let inner = a.width.saturating_sub(2);
        Paragraph::new(outpost::testkit::ui::widgets::wrapped::lines(
            block.as_str(),
            inner,
            Style::default(),
        ))
        .block(
            Block::default()
                .borders(Borders::ALL)
                .title(Span::raw(inline.as_str().to_owned())),
        )
        .render(a, buf);
    })?;
    // The shared virtual table and the toasts, through the real view: a
    // domain named with the text, and a toast titled and worded with it.
    let mut m = fixtures::model(w.max(60), h.max(15));
    let mut d = fixtures::domain("x", text, DomainStatus::Failed, "2026-11-22T10:00:00Z");
    d.dns_records[0].value = text.to_owned();
    let mut cmds = m.start();
    while let Some((id, _)) = cmds.iter().find_map(Cmd::request) {
        cmds = update(
            &mut m,
            Msg::Api {
                id,
                latency: Duration::ZERO,
                reply: Box::new(ApiReply::Domains(Ok(vec![d.clone()]))),
            },
        );
    }
    let now = m.now;
    m.toasts
        .push(now, outpost::testkit::app::toast::Level::Error, text, text);
    let (vw, vh) = m.size;
    let mut t = Terminal::new(TestBackend::new(vw, vh)).expect("backend");
    t.draw(|f| outpost::testkit::ui::view(&m, f)).expect("draw");
    let buf = t.backend().buffer().clone();
    for y in 0..vh {
        let symbols = drawn_symbols(&buf, buf.area, y);
        prop_assert_eq!(
            terminal_width(&symbols),
            usize::from(vw),
            "view row {} draws {:?}",
            y,
            symbols
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// CI: a few dozen strings.
    #[test]
    fn any_text_stays_in_its_area_and_rows_draw_as_wide_as_laid_out(text in awkward(), w in 1u16..50, h in 1u16..6) {
        render_all(&text, w, h)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4000, ..ProptestConfig::default() })]

    /// The long run (`cargo test --test ui -- --ignored widths`).
    #[test]
    #[ignore = "long run: cargo test --test ui -- --ignored"]
    fn widths_long_run(text in awkward(), w in 1u16..120, h in 1u16..8) {
        render_all(&text, w, h)?;
    }
}
