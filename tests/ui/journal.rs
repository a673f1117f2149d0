//! `:journal`: the write journal over the pane, at the smallest size and a
//! large one, filtered, and when this session keeps none.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use insta::assert_snapshot;
use outpost::testkit::app::journal_view::Reading;
use outpost::testkit::app::{Cmd, Model, Msg, Overlay, fixtures, update};
use outpost::testkit::journal::{Outcome, Read, Record, Source, Target, VerdictLine, WriteLine};

use crate::support::{screen_text, terminal};

fn press(m: &mut Model, code: KeyCode) -> Vec<Cmd> {
    update(m, Msg::Key(KeyEvent::new(code, KeyModifiers::NONE)))
}

fn typed(m: &mut Model, text: &str) {
    for c in text.chars() {
        press(m, KeyCode::Char(c));
    }
}

#[expect(
    clippy::too_many_arguments,
    reason = "One journal line's fields, named at each call: a builder would only hide them."
)]
fn write(
    id: &str,
    at: &str,
    operation: &str,
    target: (&str, Option<&str>, Option<&str>),
    summary: &str,
    outcome: Outcome,
    failure: Option<(u16, &str, &str)>,
    verdict: Option<(&str, &str)>,
) -> Record {
    Record {
        write: WriteLine {
            id: id.into(),
            at: at.into(),
            profile: Some("acme".into()),
            source: Source::Dashboard,
            operation: operation.into(),
            target: Target {
                kind: target.0.into(),
                id: target.1.map(str::to_owned),
                name: target.2.map(str::to_owned),
            },
            summary: summary.into(),
            outcome,
            status: failure.map(|f| f.0),
            code: failure.map(|f| f.1.to_owned()),
            message: failure.map(|f| f.2.to_owned()),
            settle: None,
        },
        verdict: verdict.map(|(word, text)| VerdictLine {
            entry: id.into(),
            at: "2026-05-01T10:04:09.000Z".into(),
            profile: Some("acme".into()),
            source: Source::Dashboard,
            verdict: word.into(),
            text: text.into(),
        }),
    }
}

/// A journal of each kind of outcome, newest first.
fn records() -> Vec<Record> {
    vec![
        write(
            "e5",
            "2026-05-01T10:04:01.000Z",
            "CreateDomain",
            ("domain", Some("d-7"), Some("mail.lost-e2e.io")),
            "",
            Outcome::MayHaveReached,
            Some((502, "bad_gateway", "Simulated lost answer (chaos)")),
            Some(("found", "found in the domain list")),
        ),
        write(
            "e4",
            "2026-05-01T10:03:00.000Z",
            "RunSearch",
            ("search", Some("s-2"), None),
            "",
            Outcome::MayHaveReached,
            Some((504, "gateway_timeout", "no answer")),
            None,
        ),
        write(
            "e3",
            "2026-05-01T10:02:00.000Z",
            "LaunchCampaign",
            ("campaign", Some("c-1"), Some("Spring push")),
            "",
            Outcome::Refused,
            Some((409, "conflict", "Campaign is not a draft")),
            None,
        ),
        write(
            "e2",
            "2026-05-01T10:01:00.000Z",
            "SendMessage",
            ("thread", Some("t-9"), Some("rosa.garcia@northwind-demo.io")),
            "subject: \"Re: pricing for the team plan\"; body: \"Hi Rosa, thanks for the quick answer — the team plan is billed per seat and we can start with five seats this month…\"; from sender s-1",
            Outcome::Done,
            None,
            None,
        ),
        write(
            "e1",
            "2026-05-01T10:00:00.000Z",
            "AddLeads",
            ("campaign", Some("c-1"), None),
            "1,000 leads (email)",
            Outcome::Done,
            None,
            None,
        ),
    ]
}

fn opened(w: u16, h: u16, reading: Reading) -> Model {
    let mut m = fixtures::model(w, h);
    press(&mut m, KeyCode::Char(':'));
    typed(&mut m, "journal");
    let cmds = press(&mut m, KeyCode::Enter);
    assert_eq!(cmds, vec![Cmd::ReadJournal], "read by an effect");
    update(&mut m, Msg::JournalRead(Box::new(reading)));
    m
}

fn read() -> Reading {
    Reading::Read {
        path: "/data/profiles/acme/journal.jsonl".into(),
        read: Read {
            records: records(),
            skipped: 0,
        },
    }
}

#[test]
fn the_journal_fits_80x24_with_verdicts_beside_their_writes() {
    let mut m = opened(80, 24, read());
    let text = screen_text(&terminal(&m, 80, 24));
    assert!(text.contains("Journal · 5 writes · newest first"), "{text}");
    assert!(text.contains("CreateDomain"), "{text}");
    assert!(text.contains("thread rosa.garci…"), "cut with …:\n{text}");
    assert!(
        text.contains("may have reached → found"),
        "the verdict beside the write:\n{text}"
    );
    assert!(
        text.contains("verdict: found — found in the domain list"),
        "{text}"
    );
    assert_snapshot!("journal_80x24", text);
    // The send, selected, shows what was sent below the list.
    press(&mut m, KeyCode::Char('j'));
    press(&mut m, KeyCode::Char('j'));
    press(&mut m, KeyCode::Char('j'));
    let text = screen_text(&terminal(&m, 80, 24));
    assert!(text.contains("sent: subject: \"Re: pricing"), "{text}");
    assert_snapshot!("journal_send_selected_80x24", text);
}

#[test]
fn the_journal_at_200x50_shows_where_from_and_what_was_sent() {
    let m = opened(200, 50, read());
    let text = screen_text(&terminal(&m, 200, 50));
    assert!(text.contains("dashboard"), "{text}");
    assert!(text.contains("1,000 leads (email)"), "{text}");
    assert!(
        text.contains("may have reached (gateway_timeout) · no verdict recorded"),
        "{text}"
    );
    assert_snapshot!("journal_200x50", text);
}

#[test]
fn slash_narrows_the_journal() {
    let mut m = opened(80, 24, read());
    press(&mut m, KeyCode::Char('/'));
    typed(&mut m, "refused");
    let text = screen_text(&terminal(&m, 80, 24));
    assert!(text.contains("Journal · 1 of 5 writes"), "{text}");
    assert!(text.contains("LaunchCampaign"), "{text}");
    assert!(!text.contains("CreateDomain"), "{text}");
    assert_snapshot!("journal_filtered_80x24", text);
    press(&mut m, KeyCode::Enter);
    press(&mut m, KeyCode::Enter);
    assert!(m.overlay.is_none(), "Enter opened the campaign");
    assert_eq!(m.pane, outpost::testkit::app::Pane::Campaigns);
}

#[test]
fn a_session_without_a_journal_says_why() {
    let m = opened(
        80,
        24,
        Reading::NotKept("the demo's writes reach no one, so they are not journaled".into()),
    );
    let text = screen_text(&terminal(&m, 80, 24));
    assert!(text.contains("No journal: the demo's writes"), "{text}");
    assert!(matches!(m.overlay, Some(Overlay::Journal(_))));
}
