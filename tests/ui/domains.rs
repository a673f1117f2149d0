//! Snapshots and flows of the Senders & Domains pane.

use std::time::Duration;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use insta::assert_snapshot;
use outpost::testkit::api::model::{DomainStatus, SendingDomain};
use outpost::testkit::app::{ApiReply, ApiRequest, Cmd, Model, Msg, fixtures, update};
use outpost::testkit::dns::{Lookup, Query};
use serde_json::json;

use crate::support::{offline, pane_body, refuse_key, screen_text, terminal};

/// Answers every request in `cmds` the way a fixture service would (and
/// DNS lookups the way a DNS server missing the DKIM key and holding
/// another SPF policy would); returns the follow-up commands.
pub fn answer(m: &mut Model, cmds: Vec<Cmd>, domains: &[SendingDomain]) -> Vec<Cmd> {
    let mut next = Vec::new();
    for cmd in cmds {
        if let Cmd::ResolveRecords { id, records } = &cmd {
            let asked = |d: &&SendingDomain| {
                d.dns_records
                    .iter()
                    .any(|r| records.contains(&Query::of(r, &d.domain)))
            };
            if let Some(dom) = domains.iter().find(asked) {
                let answers = fixtures::dns_answers(dom, records, &["DKIM"], &["SPF"]);
                next.extend(update(m, Msg::DnsResolved { id: *id, answers }));
            }
            continue;
        }
        let Cmd::Api { id, req } = cmd else { continue };
        let reply = match req {
            ApiRequest::ListDomains { .. } => ApiReply::Domains(Ok(domains.to_vec())),
            ApiRequest::ListSenders => ApiReply::Senders(Ok(fixtures::senders())),
            ApiRequest::SenderSchedule { .. } => ApiReply::Schedule(Ok(json!({
                "schedule": {
                    "2026-11-23": {"capacity": 40, "committed": 12},
                    "2026-11-24": {"capacity": 40, "committed": 0},
                    "2026-11-25": {"capacity": 35, "committed": 35}
                }
            }))),
            _ => continue,
        };
        next.extend(update(
            m,
            Msg::Api {
                id,
                latency: Duration::from_millis(42),
                reply: Box::new(reply),
            },
        ));
    }
    next
}

/// A model on the Domains pane with the fixture data loaded (cached, then live).
pub fn loaded(w: u16, h: u16) -> Model {
    let mut m = fixtures::model(w, h);
    let domains = fixtures::domains();
    let mut cmds = m.start();
    while !cmds.is_empty() {
        cmds = answer(&mut m, cmds, &domains);
    }
    m
}

pub fn press(m: &mut Model, code: KeyCode) {
    let cmds = update(m, Msg::Key(KeyEvent::new(code, KeyModifiers::NONE)));
    let domains = m.panes.domains.domains.items.clone();
    let mut cmds = answer(m, cmds, &domains);
    while !cmds.is_empty() {
        cmds = answer(m, cmds, &domains);
    }
}

fn snap(m: &Model, w: u16, h: u16) -> String {
    screen_text(&terminal(m, w, h))
}

#[test]
fn domain_list() {
    for (w, h) in [(80, 24), (200, 50)] {
        let m = loaded(w, h);
        assert_snapshot!(format!("domain_list_{w}x{h}"), snap(&m, w, h));
    }
}

#[test]
fn domain_detail_with_records() {
    for (w, h) in [(80, 24), (200, 50)] {
        let mut m = loaded(w, h);
        press(&mut m, KeyCode::Enter);
        let text = snap(&m, w, h);
        assert!(text.contains("DNS records (4)"), "{text}");
        assert_snapshot!(format!("domain_detail_{w}x{h}"), text);
    }
}

/// What DNS holds of each record, beside it: the summary names the records
/// that are wrong, and the selected one shows what DNS holds instead.
#[test]
fn dns_truth_per_record() {
    for (w, h) in [(80, 24), (200, 50)] {
        let mut m = loaded(w, h);
        press(&mut m, KeyCode::Enter);
        press(&mut m, KeyCode::Char('j'));
        let text = snap(&m, w, h);
        assert!(
            text.contains("2 of 4 records found; missing: DKIM; different: SPF"),
            "{text}"
        );
        assert!(
            text.contains("✗ missing") && text.contains("≠ differs"),
            "{text}"
        );
        assert!(
            text.contains("at DNS   v=spf1 include:amazonses.com ~all -changed"),
            "what DNS holds instead, under the selected value:\n{text}"
        );
        assert_snapshot!(format!("dns_truth_{w}x{h}"), text);
    }
    // The smallest screen keeps the column and the summary.
    let mut m = loaded(60, 15);
    press(&mut m, KeyCode::Enter);
    let text = snap(&m, 60, 15);
    assert!(
        text.contains("✓ found") && text.contains("✗ missing"),
        "{text}"
    );
    assert!(text.contains("2 of 4 records found"), "{text}");
}

/// A resolver that does not answer: said once, with why, and no count.
#[test]
fn dns_that_cannot_be_asked_says_why() {
    let mut m = loaded(80, 24);
    let cmds = update(
        &mut m,
        Msg::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)),
    );
    let text = snap(&m, 80, 24);
    assert!(text.contains("DNS checking 4 records…"), "{text}");
    assert!(text.contains("… checking"), "{text}");
    fixtures::drive::resolve(&mut m, &cmds, |q| outpost::testkit::dns::Answers {
        resolver: "127.0.0.1:9".into(),
        lookups: q
            .iter()
            .map(|q| (q.clone(), Lookup::Failed("no answer within 6s".into())))
            .collect(),
    });
    let text = snap(&m, 80, 24);
    assert!(
        text.contains("DNS could not be asked: no answer within 6s"),
        "{text}"
    );
    assert!(!text.contains("of 4 records found"), "{text}");
    assert!(text.contains("! error"), "{text}");
    assert!(
        text.contains("at DNS   unknown: no answer within 6s"),
        "{text}"
    );
}

#[test]
fn senders_and_a_schedule() {
    for (w, h) in [(80, 24), (200, 50)] {
        let mut m = loaded(w, h);
        press(&mut m, KeyCode::Char('s'));
        assert_snapshot!(format!("senders_{w}x{h}"), snap(&m, w, h));
        press(&mut m, KeyCode::Enter);
        let text = snap(&m, w, h);
        assert!(text.contains("capacity"), "{text}");
        assert_snapshot!(format!("sender_schedule_{w}x{h}"), text);
    }
}

#[test]
fn add_dialog_with_an_error() {
    let mut m = loaded(80, 24);
    press(&mut m, KeyCode::Char('a'));
    for c in "bad name".chars() {
        press(&mut m, KeyCode::Char(c));
    }
    update(
        &mut m,
        Msg::Key(KeyEvent::new(KeyCode::Char('s'), KeyModifiers::CONTROL)),
    );
    let text = snap(&m, 80, 24);
    assert!(text.contains("hostname"), "{text}");
    assert_snapshot!("add_domain_error_80x24", text);
}

/// An error too long for its field's row wraps onto the rows below (the
/// dialog grows); one too long for three rows ends with `…`. Never cut
/// without a sign.
#[test]
fn a_long_field_error_wraps_and_is_marked_when_cut() {
    let mut m = loaded(80, 24);
    press(&mut m, KeyCode::Char('a'));
    let long = "internal_error: Simulated failure (chaos): the request was not processed, and this sentence goes on past the dialog's edge";
    if let Some(form) = m.panes.domains.add.as_mut() {
        form.set_error("domain", long);
    }
    let text = snap(&m, 80, 24);
    assert!(text.contains("✗ internal_error"), "{text}");
    assert!(
        text.contains("past the dialog's edge"),
        "wrapped whole: {text}"
    );
    let longer = long.repeat(4);
    if let Some(form) = m.panes.domains.add.as_mut() {
        form.clear_errors();
        form.set_error("domain", &longer);
    }
    let text = snap(&m, 80, 24);
    let rows: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.contains("✗ internal_error"))
        .take(3)
        .collect();
    assert!(rows.len() == 3 && rows[2].contains('…'), "{text}");
}

#[test]
fn an_empty_workspace_says_what_to_do() {
    let mut m = fixtures::model(80, 24);
    let cmds = m.start();
    let mut cmds = answer(&mut m, cmds, &[]);
    while !cmds.is_empty() {
        cmds = answer(&mut m, cmds, &[]);
    }
    let text = snap(&m, 80, 24);
    assert!(text.contains("No sending domains yet"), "{text}");
}

#[test]
fn status_colours_follow_the_theme() {
    let m = loaded(80, 24);
    let t = terminal(&m, 80, 24);
    let buf = t.backend().buffer();
    let theme = outpost::testkit::ui::theme::Theme::from_config(&m.theme, m.colour);
    let find = |needle: &str| -> ratatui::style::Style {
        for y in 0..24 {
            let line: String = (0..80).map(|x| buf[(x, y)].symbol().to_owned()).collect();
            if let Some(col) = line.find(needle) {
                let x = u16::try_from(line[..col].chars().count()).expect("on screen");
                return buf[(x, y)].style();
            }
        }
        panic!("{needle} not on screen");
    };
    assert_eq!(
        find("● verified").fg,
        theme.domain_status(&DomainStatus::Verified).fg
    );
    assert_eq!(
        find("● failed").fg,
        theme.domain_status(&DomainStatus::Failed).fg
    );
    assert_eq!(
        find("● verifying").fg,
        theme.domain_status(&DomainStatus::Verifying).fg
    );
}

/// The keymap with `(scope, key, action)` bindings added.
fn remapped(bindings: &[(&str, &str, &str)]) -> outpost::testkit::app::keymap::Keymap {
    let overrides: Vec<outpost::testkit::config::KeyOverride> = bindings
        .iter()
        .map(
            |(scope, key, action)| outpost::testkit::config::KeyOverride {
                scope: (*scope).into(),
                key: (*key).into(),
                action: (*action).into(),
                origin: "/test/config.toml".into(),
            },
        )
        .collect();
    match outpost::testkit::app::keymap::Keymap::with_overrides(&overrides) {
        Ok(keys) => keys,
        Err(e) => panic!("bad bindings: {e}"),
    }
}

#[test]
fn texts_name_the_keys_in_force() {
    let keys = remapped(&[
        ("domains", "a", "none"),
        ("domains", "n", "add_domain"),
        ("domains", "v", "none"),
        ("domains", "V", "verify"),
        ("global", "r", "none"),
        ("global", "ctrl-r", "refresh"),
        ("global", ":", "none"),
        ("global", ";", "command"),
    ]);
    // The empty list says how to add one with the keys in force.
    let mut m = fixtures::model(80, 24);
    m.keymap = keys.clone();
    let cmds = m.start();
    let mut cmds = answer(&mut m, cmds, &[]);
    while !cmds.is_empty() {
        cmds = answer(&mut m, cmds, &[]);
    }
    let text = snap(&m, 80, 24);
    assert!(text.contains("press n (or ;domain add <name>)"), "{text}");
    // A pending domain's guidance, and a domain with no records yet.
    let mut domains = fixtures::domains();
    domains[1].dns_records.clear();
    let mut m = fixtures::model(80, 24);
    m.keymap = keys.clone();
    let mut cmds = m.start();
    while !cmds.is_empty() {
        cmds = answer(&mut m, cmds, &domains);
    }
    press(&mut m, KeyCode::Char('j'));
    press(&mut m, KeyCode::Enter);
    let text = snap(&m, 80, 24);
    assert!(text.contains("then press V to verify"), "{text}");
    assert!(text.contains("no records yet: press V"), "{text}");
    assert!(!text.contains("press v"), "{text}");
    // A list that could not load says which key retries.
    let mut m = fixtures::model(80, 24);
    m.keymap = keys;
    let cmds = m.start();
    for cmd in cmds {
        if let Cmd::Api { id, .. } = cmd {
            update(
                &mut m,
                Msg::Api {
                    id,
                    latency: Duration::from_millis(5),
                    reply: Box::new(ApiReply::Domains(Err(
                        outpost::testkit::api::ApiError::Connect {
                            host: "127.0.0.1:9".into(),
                            detail: "connection refused".into(),
                        },
                    ))),
                },
            );
        }
    }
    let text = snap(&m, 80, 24);
    assert!(text.contains("could not load sending domains"), "{text}");
    assert!(text.contains("Ctrl-R retries"), "{text}");
}

#[test]
fn the_filter_bar_narrows_the_list_as_typed() {
    for (w, h) in [(80, 24), (60, 15)] {
        let mut m = loaded(w, h);
        for c in "/fail".chars() {
            press(&mut m, KeyCode::Char(c));
        }
        let text = snap(&m, w, h);
        assert!(!text.contains("Add a sending domain"), "{text}");
        assert!(text.contains("1 of 4"), "{text}");
        assert!(!text.contains("acme-mail.com"), "{text}");
        assert_snapshot!(format!("domain_list_filtering_{w}x{h}"), text);
    }
    let mut m = loaded(80, 24);
    for c in "/zzz".chars() {
        press(&mut m, KeyCode::Char(c));
    }
    press(&mut m, KeyCode::Enter);
    let text = snap(&m, 80, 24);
    assert!(
        text.contains("no domain matches the filter — Esc clears it"),
        "{text}"
    );
    assert!(text.contains("0 of 4 · / edit · Esc clear"), "{text}");
    // Refining a kept filter into no match: Esc goes back to the kept one.
    let mut m = loaded(80, 24);
    for c in "/fail".chars() {
        press(&mut m, KeyCode::Char(c));
    }
    press(&mut m, KeyCode::Enter);
    for c in "/zz".chars() {
        press(&mut m, KeyCode::Char(c));
    }
    let text = snap(&m, 80, 24);
    assert!(
        text.contains("no domain matches the filter — Esc goes back to “fail”"),
        "{text}"
    );
    press(&mut m, KeyCode::Esc);
    let text = snap(&m, 80, 24);
    assert!(text.contains("/ fail") && text.contains("1 of 4"), "{text}");
}

/// Answers the requests in `cmds` with a timeout.
fn fail_all(m: &mut Model, cmds: Vec<Cmd>) {
    for cmd in cmds {
        if let Cmd::Api { id, req } = cmd {
            let err = outpost::testkit::api::ApiError::Timeout {
                method: "GET".into(),
                after: Duration::from_secs(30),
                may_have_reached: false,
            };
            let reply = match req {
                ApiRequest::ListSenders => ApiReply::Senders(Err(err)),
                ApiRequest::SenderSchedule { .. } => ApiReply::Schedule(Err(err)),
                ApiRequest::VerifyDomain { .. } => ApiReply::Domain(Err(err)),
                _ => ApiReply::Domains(Err(err)),
            };
            update(
                m,
                Msg::Api {
                    id,
                    latency: Duration::from_millis(42),
                    reply: Box::new(reply),
                },
            );
        }
    }
}

#[test]
fn stale_values_stay_on_screen_with_their_age() {
    let mut m = loaded(80, 24);
    let cmds = update(
        &mut m,
        Msg::Key(KeyEvent::new(KeyCode::Char('r'), KeyModifiers::NONE)),
    );
    fail_all(&mut m, cmds);
    // The watch of the verifying domain fails too.
    let watch = outpost::testkit::app::subscriptions(&m)
        .into_iter()
        .find(|s| format!("{:?}", s.id).contains("Watch"))
        .expect("the verifying domain is watched");
    let cmds = update(&mut m, Msg::SubFired(watch.id));
    fail_all(&mut m, cmds);
    // The list's retry, said from its one freshness holder as every pane
    // says it, counting down.
    let every = m.poll.domain.as_secs() * 2;
    let text = snap(&m, 80, 24);
    assert!(text.contains(&format!("retrying in {every} s")), "{text}");
    m.clock += 2;
    let text = snap(&m, 80, 24);
    assert!(
        text.contains(&format!("retrying in {} s", every - 2)),
        "{text}"
    );
    m.clock += 178;
    let text = snap(&m, 80, 24);
    assert!(text.contains("acme-mail.com"), "the values stay: {text}");
    assert!(text.contains("● verifying · as of 3m ago"), "{text}");
    // The pollers read again by themselves: never "r retries"; a failed
    // status read is a read.
    assert!(!text.contains("⚠ as of"), "{text}");
    assert!(!text.contains("r retries"), "{text}");
    assert!(!text.contains("may have"), "{text}");
    assert_snapshot!("domain_list_stale_80x24", text);
}

#[test]
fn wide_screens_show_more_columns() {
    let m = loaded(159, 30);
    let narrow = snap(&m, 159, 30);
    assert!(!narrow.contains("Types"), "{narrow}");
    let m = loaded(160, 30);
    let wide = snap(&m, 160, 30);
    for header in ["DNS", "Types", "Updated"] {
        assert!(wide.contains(header), "{header} missing:\n{wide}");
    }
    assert!(wide.contains("3 TXT, 1 MX"), "{wide}");
    // DNS not asked yet: nothing claimed about it.
    assert!(wide.contains("not checked"), "{wide}");
    assert!(!wide.contains('✓'), "{wide}");
    assert!(
        wide.contains("1 verified · 1 verifying · 1 pending · 1 failed"),
        "counts by status in the title:\n{wide}"
    );
    let mut m = loaded(160, 30);
    press(&mut m, KeyCode::Enter);
    let wide = snap(&m, 160, 30);
    assert!(wide.contains("For   Type DNS       Name"), "{wide}");
    assert!(
        wide.contains("DKIM  TXT  ✗ missing resend._domainkey"),
        "{wide}"
    );
    assert!(wide.contains("At DNS instead"), "{wide}");
    press(&mut m, KeyCode::Esc);
    // Back in the list, the domain opened says what DNS holds.
    let wide = snap(&m, 160, 30);
    let row = wide
        .lines()
        .find(|l| l.contains("mail.brightlabs.io"))
        .unwrap_or_default();
    assert!(
        row.contains("2/4 found · DKIM missing · SPF different"),
        "{row}"
    );
    press(&mut m, KeyCode::Char('s'));
    let wide = snap(&m, 160, 30);
    for header in [
        "Daily",
        "Wk conn",
        "Wk msg",
        "Default",
        "Premium",
        "Provider account",
    ] {
        assert!(wide.contains(header), "{header} missing:\n{wide}");
    }
}

/// At 200 columns: the record count by what DNS holds, for the domain
/// whose records were checked; `not checked` for the others.
#[test]
fn the_wide_list_says_what_dns_holds() {
    let mut m = loaded(200, 50);
    press(&mut m, KeyCode::Enter);
    press(&mut m, KeyCode::Esc);
    let text = snap(&m, 200, 50);
    assert!(text.contains("2/4 found · DKIM missing"), "{text}");
    assert_snapshot!("domain_list_dns_checked_200x50", text);
}

#[test]
fn the_copy_chooser_shows_what_each_choice_copies() {
    let mut m = loaded(80, 24);
    press(&mut m, KeyCode::Enter);
    update(
        &mut m,
        Msg::Key(KeyEvent::new(KeyCode::Char('Y'), KeyModifiers::SHIFT)),
    );
    let text = snap(&m, 80, 24);
    for line in ["n  name", "t  type", "v  value", "z  zone-file line"] {
        assert!(text.contains(line), "{line}:\n{text}");
    }
    assert!(text.contains("Enter copy"), "{text}");
    assert_snapshot!("copy_chooser_80x24", text);
}

#[test]
fn each_time_column_keeps_one_format() {
    // Added 40 days ago and 2 days ago, verified 35 days ago: relative
    // times throughout, never a date beside "2d ago".
    let mut domains = fixtures::domains();
    domains[3].created_at = "2026-10-13T12:00:00Z".into();
    domains[3].updated_at = "2026-10-13T12:00:00Z".into();
    domains[3].verified_at = Some("2026-10-18T12:00:00Z".into());
    let mut m = fixtures::model(200, 30);
    let mut cmds = m.start();
    while !cmds.is_empty() {
        cmds = answer(&mut m, cmds, &domains);
    }
    let text = snap(&m, 200, 30);
    let row = text
        .lines()
        .find(|l| l.contains("acme-mail.com"))
        .unwrap_or_default();
    assert!(row.contains("40d ago"), "{row}");
    assert!(row.contains("35d ago"), "{row}");
    assert!(!row.contains("2026-10"), "{row}");
}

#[test]
fn a_refused_key_or_connection_is_said_in_the_lists() {
    let (w, h) = (100, 30);
    let mut m = fixtures::model(w, h);
    let cmds = m.start();
    refuse_key(&mut m, cmds);
    let text = pane_body(&mut m, w, h);
    assert!(
        text.contains("could not load sending domains: unauthorized"),
        "{text}"
    );
    assert!(text.contains("outpost check"), "{text}");
    assert!(!text.contains("retries"), "{text}");
    let cmds = update(
        &mut m,
        Msg::Key(KeyEvent::new(KeyCode::Char('s'), KeyModifiers::NONE)),
    );
    refuse_key(&mut m, cmds);
    let text = pane_body(&mut m, w, h);
    assert!(
        text.contains("could not load senders: unauthorized"),
        "{text}"
    );
    assert!(text.contains("outpost check"), "{text}");
    assert!(!text.contains("retries"), "{text}");
    // A refused connection: said at once, not "loading".
    let mut m = fixtures::model(w, h);
    let _pending = m.start();
    offline(&mut m);
    let text = pane_body(&mut m, w, h);
    assert!(text.contains("offline since 14:02"), "{text}");
    assert!(!text.contains("loading sending domains"), "{text}");
    assert!(
        !text.contains("cached"),
        "nothing read, nothing cached: {text}"
    );
}

/// A domain with one record: its counts say "1 record", never "1 records".
#[test]
fn one_record_is_counted_as_one() {
    let mut domains = fixtures::domains();
    domains[0]
        .dns_records
        .retain(|r| r.name.contains("_domainkey"));
    assert_eq!(domains[0].dns_records.len(), 1);
    let mut m = fixtures::model(100, 30);
    let mut cmds = m.start();
    while !cmds.is_empty() {
        cmds = answer(&mut m, cmds, &domains);
    }
    // Opened, DNS not answered yet.
    let pending = update(
        &mut m,
        Msg::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)),
    );
    let text = snap(&m, 100, 30);
    assert!(text.contains("checking 1 record…"), "{text}");
    let mut cmds = answer(&mut m, pending, &domains);
    while !cmds.is_empty() {
        cmds = answer(&mut m, cmds, &domains);
    }
    let text = snap(&m, 100, 30);
    assert!(text.contains("0 of 1 record found"), "{text}");
    assert!(!text.contains("1 records"), "{text}");
}

/// `/dkim` in a domain's records: the bar says what is typed and how many
/// records match; only the DKIM record is listed.
#[test]
fn the_records_filter_bar_narrows_them_as_typed() {
    let mut m = loaded(80, 24);
    press(&mut m, KeyCode::Enter);
    for c in "/dkim".chars() {
        press(&mut m, KeyCode::Char(c));
    }
    let text = snap(&m, 80, 24);
    assert!(text.contains(" / dkim"), "{text}");
    assert!(text.contains("1 of 4"), "{text}");
    assert!(text.contains("DNS records (1 of 4)"), "{text}");
    assert!(text.contains("_domainkey"), "{text}");
    assert!(!text.contains("_dmarc"), "{text}");
    assert!(!text.contains("Add a sending domain"), "{text}");
}
