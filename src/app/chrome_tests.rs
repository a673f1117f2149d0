//! Tests of the shared chrome's behaviour: quitting without losing typed
//! text, the "too small" screen's keys, the store's state, explicit
//! retries and readline keys in every text box.

use std::path::PathBuf;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::fixtures::{self, drive};
use super::toast::Level;
use super::{ApiRequest, Cmd, Model, Msg, Overlay, update};
use crate::store::StoreError;

fn not_a_dir() -> StoreError {
    StoreError::NotADirectory {
        path: PathBuf::from("/tmp/outpost-data"),
    }
}

/// The Domains pane's add dialog open with a name typed: unsent text.
fn typing_a_domain(m: &mut Model) {
    drive::key(m, KeyCode::Char('a'));
    drive::chars(m, "mail.acme.io");
    assert_eq!(m.unsent().as_deref(), Some("the add-domain dialog"));
}

fn quits(cmds: &[Cmd]) -> bool {
    cmds.contains(&Cmd::Quit)
}

fn resize(m: &mut Model, w: u16, h: u16) {
    update(m, Msg::Resize(w, h));
}

#[test]
fn q_on_the_too_small_screen_quits_instead_of_typing_into_a_hidden_box() {
    let mut m = fixtures::model(80, 24);
    drive::key(&mut m, KeyCode::Char(':'));
    resize(&mut m, 40, 10);
    assert!(m.layout().too_small);
    let cmds = drive::key(&mut m, KeyCode::Char('q'));
    assert!(quits(&cmds), "q quits: {cmds:?}");
    assert!(m.quit);
}

#[test]
fn the_too_small_screen_asks_before_losing_unsaved_text_and_keeps_it() {
    let mut m = fixtures::model(80, 24);
    typing_a_domain(&mut m);
    update(&mut m, Msg::Saved(Err(not_a_dir())));
    resize(&mut m, 50, 12);
    // Keys that would act on the hidden pane do nothing.
    assert!(drive::key(&mut m, KeyCode::Char('x')).is_empty());
    let cmds = drive::key(&mut m, KeyCode::Char('q'));
    assert!(!quits(&cmds), "not without asking");
    let Some(Overlay::Confirm(c)) = &m.overlay else {
        panic!("a question: {:?}", m.overlay);
    };
    assert!(c.destructive);
    assert!(
        c.lines.join(" ").contains("cannot be saved"),
        "{:?}",
        c.lines
    );
    // Esc keeps the session, the typed name untouched by the keys.
    drive::key(&mut m, KeyCode::Esc);
    assert!(m.overlay.is_none() && !m.quit);
    resize(&mut m, 80, 24);
    assert_eq!(
        m.panes
            .domains
            .add
            .as_ref()
            .map(|f| f.value("domain"))
            .as_deref(),
        Some("mail.acme.io")
    );
    resize(&mut m, 50, 12);
    drive::key(&mut m, KeyCode::Char('q'));
    let cmds = drive::key(&mut m, KeyCode::Char('y'));
    assert!(quits(&cmds), "y quits: {cmds:?}");
    assert!(
        matches!(&cmds[0], Cmd::SaveState(s) if s.drafts.contains_key("add-domain")),
        "one last attempt to save it: {cmds:?}"
    );
}

#[test]
fn q_with_unsent_text_warns_when_the_state_cannot_be_saved() {
    let mut m = fixtures::model(80, 24);
    typing_a_domain(&mut m);
    // Saving works: the usual question, text kept on disk.
    assert!(m.ask_quit().is_empty());
    let Some(Overlay::Confirm(c)) = m.overlay.take() else {
        panic!("asks");
    };
    assert!(!c.destructive);
    assert!(c.lines[1].contains("kept in the local state file"));
    // Saving fails: say so, name why, stay unless confirmed.
    update(&mut m, Msg::Saved(Err(not_a_dir())));
    assert!(!m.drafts_saved());
    assert!(m.ask_quit().is_empty(), "the session stays open");
    let Some(Overlay::Confirm(c)) = &m.overlay else {
        panic!("asks");
    };
    assert_eq!(c.title, "Quit and lose unsent text?");
    let text = c.lines.join("\n");
    assert!(
        text.contains("not saved: /tmp/outpost-data is not a directory"),
        "{text}"
    );
    assert!(text.contains("printed to the terminal"), "{text}");
    assert!(!text.contains("kept in the local state"), "{text}");
    assert!(!m.quit);
}

#[test]
fn draft_kept_is_said_only_when_saving_works() {
    let mut m = fixtures::model(80, 24);
    m.notify_draft_kept("the new search", "n offers it back");
    assert_eq!(m.toasts.items()[0].title.as_str(), "Draft kept");
    // The save that follows fails: the claim is taken back, the failure said.
    update(&mut m, Msg::Saved(Err(not_a_dir())));
    let titles: Vec<&str> = m.toasts.items().iter().map(|t| t.title.as_str()).collect();
    assert_eq!(titles, ["local state not saved"]);
    m.notify_draft_kept("the new search", "n offers it back");
    let last = &m.toasts.items()[1];
    assert_eq!(last.level, Level::Warning);
    assert_eq!(last.title.as_str(), "Draft kept in this session only");
    assert!(
        last.text.as_str().contains("printed when you quit"),
        "{}",
        last.text
    );
    // A later save that lands says so and clears the warning state.
    update(&mut m, Msg::Saved(Ok(())));
    assert!(m.drafts_saved());
    assert!(m.store_error.is_none());
}

#[test]
fn the_store_probe_sets_whether_drafts_are_saved() {
    let mut m = fixtures::model(80, 24);
    m.state_writable = None;
    assert!(!m.drafts_saved(), "not claimed before the probe answers");
    update(&mut m, Msg::StoreProbed(Ok(())));
    assert!(m.drafts_saved());
    update(&mut m, Msg::StoreProbed(Err(not_a_dir())));
    assert!(!m.drafts_saved());
    assert_eq!(
        m.toasts.items()[0].title.as_str(),
        "local state cannot be saved"
    );
    // A probe that passes does not overrule a save that failed since.
    update(&mut m, Msg::Saved(Err(not_a_dir())));
    update(&mut m, Msg::StoreProbed(Ok(())));
    assert!(!m.drafts_saved());
}

#[test]
fn request_now_is_an_explicit_retry() {
    let mut m = fixtures::model(80, 24);
    let before = m.requests.in_flight();
    let id = m.request_now(super::domains::Purpose::Senders, ApiRequest::ListSenders);
    assert_eq!(
        m.take_queued(),
        vec![Cmd::Api {
            id,
            req: ApiRequest::ListSenders
        }]
    );
    assert!(m.is_user_retry(id));
    assert!(m.take_user_retry(id), "the runtime sends it as a retry");
    assert!(!m.is_user_retry(id), "once");
    assert_eq!(m.requests.in_flight(), before + 1);
    assert!(m.requests.get(id).is_some(), "its reply reaches the pane");
}

/// A request is queued where it is recorded: code that makes one and
/// returns no command (or drops the ones it got) cannot leave it waiting
/// in the table unsent; the next `update` hands it to the runtime.
#[test]
fn a_request_recorded_is_always_handed_out() {
    let mut m = fixtures::model(80, 24);
    let id = m.request(super::domains::Purpose::Senders, ApiRequest::ListSenders);
    let cmds = update(&mut m, Msg::Resize(80, 24));
    assert_eq!(
        drive::api(&cmds),
        vec![(id, ApiRequest::ListSenders)],
        "sent with the next update's commands"
    );
    assert!(
        drive::api(&update(&mut m, Msg::Resize(80, 24))).is_empty(),
        "once"
    );
    assert_eq!(m.requests.in_flight(), 1);
}

/// Another workspace opened while the old one's requests were on their
/// way: the status bar counts only the new workspace's, before and after
/// the old answers arrive (they used to be taken off the new count).
#[test]
fn a_profile_switch_with_requests_in_flight_leaves_the_count_right() {
    let mut m = fixtures::model(100, 30);
    let old = drive::api(&m.start());
    assert!(!old.is_empty(), "the first pane reads its data");
    let mut session = m.session.clone();
    session.profile = Some("other".into());
    let opened = super::msg::OpenedProfile {
        session,
        state: crate::store::State::default(),
        poll: m.poll,
        notices: Vec::new(),
        cache: super::cache::Cache::default(),
    };
    let new = drive::api(&update(&mut m, Msg::ProfileOpened(Box::new(opened))));
    assert!(!new.is_empty(), "the pane reads the new workspace");
    let count = format!("⇅{} ", new.len());
    assert_eq!(m.requests.in_flight(), new.len());
    for (id, _) in old {
        let late = Err(crate::api::ApiError::Connect {
            host: "old.example".into(),
            detail: "closed".into(),
        });
        drive::reply(&mut m, id, super::ApiReply::Senders(late));
    }
    assert_eq!(
        m.requests.in_flight(),
        new.len(),
        "late answers of the old workspace"
    );
    assert!(screen(&m).join("\n").contains(&count), "{:?}", screen(&m));
    // Answered, with the reads the answers ask for.
    let mut queue = new;
    while let Some((id, req)) = queue.pop() {
        let answer = match req {
            ApiRequest::ListDomains { .. } => super::ApiReply::Domains(Ok(Vec::new())),
            ApiRequest::ListSenders => super::ApiReply::Senders(Ok(Vec::new())),
            other => panic!("not a read of the Domains pane: {other:?}"),
        };
        queue.extend(drive::api(&drive::reply(&mut m, id, answer)));
    }
    assert_eq!(m.requests.in_flight(), 0);
    assert!(!screen(&m).join("\n").contains('⇅'));
}

fn ctrl(c: char) -> KeyEvent {
    KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL)
}

fn command_text(m: &Model) -> String {
    match &m.overlay {
        Some(Overlay::Command(c)) => c.text(),
        _ => String::new(),
    }
}

#[test]
fn readline_keys_in_the_command_line() {
    let mut m = fixtures::model(80, 24);
    drive::key(&mut m, KeyCode::Char(':'));
    drive::chars(&mut m, "open search abc");
    update(&mut m, Msg::Key(ctrl('w')));
    assert_eq!(command_text(&m), "open search ");
    update(&mut m, Msg::Key(ctrl('a')));
    drive::chars(&mut m, "x");
    assert_eq!(command_text(&m), "xopen search ");
    update(&mut m, Msg::Key(ctrl('k')));
    assert_eq!(command_text(&m), "x", "Ctrl-K kills to the end");
    update(&mut m, Msg::Key(ctrl('e')));
    drive::chars(&mut m, "yz");
    update(&mut m, Msg::Key(ctrl('u')));
    assert_eq!(
        command_text(&m),
        "",
        "Ctrl-U clears to the start (not undo)"
    );
    drive::chars(&mut m, "help");
    update(&mut m, Msg::Key(ctrl('b')));
    update(&mut m, Msg::Key(ctrl('u')));
    assert_eq!(command_text(&m), "p", "only what is before the cursor");
}

#[test]
fn readline_keys_in_form_fields() {
    let mut m = fixtures::model(80, 24);
    drive::key(&mut m, KeyCode::Char('a'));
    drive::chars(&mut m, "mail.acme.io");
    update(&mut m, Msg::Key(ctrl('u')));
    let value = |m: &Model| m.panes.domains.add.as_ref().map(|f| f.value("domain"));
    assert_eq!(value(&m).as_deref(), Some(""));
    drive::chars(&mut m, "a.b c");
    update(&mut m, Msg::Key(ctrl('w')));
    assert_eq!(value(&m).as_deref(), Some("a.b"));
    // Ctrl-_ (sent as Ctrl-7) undoes.
    update(&mut m, Msg::Key(ctrl('7')));
    assert_eq!(value(&m).as_deref(), Some("a.b c"));
}

#[test]
fn refresh_sends_the_panes_requests_as_explicit_retries() {
    let mut m = fixtures::model(80, 24);
    let cmds = m.start();
    assert!(
        drive::api(&cmds)
            .iter()
            .all(|(id, _)| !m.is_user_retry(*id)),
        "loading is not a retry: {cmds:?}"
    );
    let mut pending = drive::api(&cmds);
    while let Some((id, req)) = pending.pop() {
        if let ApiRequest::ListDomains { .. } = req {
            let more = drive::reply(
                &mut m,
                id,
                super::ApiReply::Domains(Ok(fixtures::domains())),
            );
            pending.extend(drive::api(&more));
        }
    }
    let cmds = drive::key(&mut m, KeyCode::Char('r'));
    let sent = drive::api(&cmds);
    assert!(!sent.is_empty(), "r sends: {cmds:?}");
    assert!(
        sent.iter().all(|(id, _)| m.is_user_retry(*id)),
        "every request of the refresh is the user's retry: {sent:?}"
    );
    // The next request, not the user's, is ordinary again.
    let id = m.request(super::domains::Purpose::Senders, ApiRequest::ListSenders);
    assert!(!m.is_user_retry(id));
}

/// The new-search form closed with a title typed: a draft in the state.
fn closing_a_new_search_draft(m: &mut Model) {
    drive::switch(m, super::Pane::Leads);
    drive::key(m, KeyCode::Char('n'));
    drive::chars(m, "Unsent title");
    drive::key(m, KeyCode::Esc);
    assert!(m.panes.leads.form.is_none(), "the form closed");
    assert!(m.state.drafts.contains_key(super::leads::DRAFT_KEY));
}

#[test]
fn q_asks_about_closed_drafts_the_state_cannot_hold() {
    let mut m = fixtures::model(80, 24);
    // Saving works: a closed draft is on disk, q quits at once.
    closing_a_new_search_draft(&mut m);
    assert_eq!(m.unsent(), None);
    assert!(quits(&m.ask_quit()));

    let mut m = fixtures::model(80, 24);
    update(&mut m, Msg::Saved(Err(not_a_dir())));
    closing_a_new_search_draft(&mut m);
    assert_eq!(
        m.unsent().as_deref(),
        Some("a closed draft (New Lead Finder search)")
    );
    let cmds = drive::key(&mut m, KeyCode::Char('q'));
    assert!(!quits(&cmds), "not without asking: {cmds:?}");
    let Some(Overlay::Confirm(c)) = &m.overlay else {
        panic!("a question: {:?}", m.overlay);
    };
    assert_eq!(c.title, "Quit and lose unsent text?");
    assert!(c.lines.join(" ").contains("is not a directory"), "{c:?}");
    // Esc stays; y quits, with one last attempt to save.
    drive::key(&mut m, KeyCode::Esc);
    assert!(!m.quit);
    drive::key(&mut m, KeyCode::Char('q'));
    let cmds = drive::key(&mut m, KeyCode::Char('y'));
    assert!(quits(&cmds), "{cmds:?}");
}

#[test]
fn a_retracted_draft_kept_leaves_no_trace_in_messages() {
    let mut m = fixtures::model(80, 24);
    let logged = |m: &Model| m.toasts.log().any(|l| l.title.as_str() == "Draft kept");
    m.notify_draft_kept("an older draft", "it comes back");
    update(&mut m, Msg::Saved(Ok(())));
    m.toasts.clear();
    m.notify_draft_kept("the new search", "n offers it back");
    assert!(logged(&m));
    update(&mut m, Msg::Saved(Err(not_a_dir())));
    assert!(
        m.toasts
            .items()
            .iter()
            .all(|t| t.title.as_str() != "Draft kept"),
        "taken off the screen"
    );
    let kept: Vec<String> = m
        .toasts
        .log()
        .filter(|l| l.title.as_str() == "Draft kept")
        .map(|l| l.text.to_string())
        .collect();
    assert_eq!(
        kept,
        ["an older draft is saved locally; it comes back"],
        "the wrong claim is gone from :messages, the true older one stays"
    );
    // And while saving fails, it is never claimed at all.
    m.notify_draft_kept("the new search", "n offers it back");
    assert_eq!(
        m.toasts
            .log()
            .filter(|l| l.title.as_str() == "Draft kept")
            .count(),
        1
    );
}

/// The screen as text, one string per row.
fn screen(m: &Model) -> Vec<String> {
    super::cache_tests::screen(m)
        .lines()
        .map(str::to_owned)
        .collect()
}

fn question(no: Option<&str>) -> super::Confirm {
    super::Confirm {
        title: "Unsent draft".into(),
        lines: vec!["You have an unsent draft.".into()],
        yes: "Restore".into(),
        no: no.map(str::to_owned),
        destructive: false,
        on_yes: super::ConfirmAction::Quit,
    }
}

#[test]
fn a_question_footer_names_the_keys_its_handler_takes() {
    use super::dialog::Outcome;
    use super::pane::Answer;
    let press = |c: &super::Confirm, code| super::confirm_key(c, KeyEvent::from(code));
    for (no, shown) in [
        (None, vec![("y", "Restore"), ("n", "cancel")]),
        (
            Some("discard the draft"),
            vec![
                ("y", "Restore"),
                ("n", "discard the draft"),
                ("Esc", "cancel"),
            ],
        ),
    ] {
        let c = question(no);
        let mut m = fixtures::model(80, 24);
        m.overlay = Some(Overlay::Confirm(c.clone()));
        let rows = screen(&m);
        let footer = rows
            .iter()
            .find(|r| r.contains(" y  Restore"))
            .unwrap_or_else(|| panic!("a footer:\n{}", rows.join("\n")));
        let named: Vec<(&str, &str)> = shown.clone();
        for (key, does) in &named {
            assert!(footer.contains(&format!(" {key}  {does}")), "{footer}");
        }
        // What the footer names is what the keys do.
        assert_eq!(press(&c, KeyCode::Char('y')), Outcome::Act(Answer::Yes));
        let n = if no.is_some() {
            Answer::No
        } else {
            Answer::Dismissed
        };
        assert_eq!(press(&c, KeyCode::Char('n')), Outcome::Act(n));
        assert_eq!(press(&c, KeyCode::Esc), Outcome::Act(Answer::Dismissed));
        // A key the footer does not name does nothing.
        assert_eq!(press(&c, KeyCode::Char('x')), Outcome::Keep);
        assert!(!footer.contains(" x "), "{footer}");
        // The too-small screen names the same keys, `n` included.
        update(&mut m, Msg::Resize(50, 12));
        let small = screen(&m).join(" ");
        let line = named
            .iter()
            .map(|(k, d)| format!("{k} {d}"))
            .collect::<Vec<_>>()
            .join(" · ");
        assert!(small.contains(&line), "{line} in:\n{small}");
    }
}

#[test]
fn a_form_footer_names_the_keys_its_handler_takes() {
    use super::form::FormEvent;
    let mut m = fixtures::model(100, 30);
    drive::switch(&mut m, super::Pane::Leads);
    drive::key(&mut m, KeyCode::Char('n'));
    let rows = screen(&m);
    let footer = rows
        .iter()
        .find(|r| r.contains("Ctrl-S"))
        .unwrap_or_else(|| panic!("a footer:\n{}", rows.join("\n")));
    let Some(f) = m.panes.leads.form.as_mut() else {
        panic!("the form is open");
    };
    let keys: Vec<_> = f
        .form
        .keys()
        .into_iter()
        .map(|(k, what, does)| (k, what, does.map(str::to_owned)))
        .collect();
    for (k, what, does) in keys {
        if let Some(does) = does {
            assert!(footer.contains(&format!(" {} {does}", k.label)), "{footer}");
        }
        let event = f.form.handle_key(KeyEvent::new(
            k.code,
            if k.ctrl {
                KeyModifiers::CONTROL
            } else {
                KeyModifiers::NONE
            },
        ));
        let expected = match what {
            super::form::FormKey::Cancel => FormEvent::Cancel,
            super::form::FormKey::Submit => FormEvent::Submit,
            super::form::FormKey::Next | super::form::FormKey::Prev => FormEvent::Edited,
        };
        assert_eq!(event, expected, "{}", k.label);
    }
}

#[test]
fn the_command_line_footer_names_the_keys_its_handler_takes() {
    let mut m = fixtures::model(80, 24);
    drive::key(&mut m, KeyCode::Char(':'));
    let rows = screen(&m).join("\n");
    assert!(rows.contains(" Tab open search"), "{rows}");
    drive::chars(&mut m, "open search abc");
    let rows = screen(&m).join("\n");
    assert!(
        rows.contains("Enter runs · Esc closes · ↑/↓ history"),
        "{rows}"
    );
    for (k, what, _) in super::command_line::KEYS {
        assert_eq!(
            super::command_line::line_key(&KeyEvent::from(k.code)),
            Some(what),
            "{}",
            k.label
        );
    }
    drive::key(&mut m, KeyCode::Esc);
    assert!(m.overlay.is_none(), "Esc closes, as the footer says");
}

/// Text typed into any form is written to the state file at most three
/// seconds after the first key, however fast the typing goes on (the
/// timer is not restarted by each key), and not again until more is typed.
#[test]
fn typing_into_a_form_is_saved_within_three_seconds_of_the_first_key() {
    use super::subscriptions::{SubId, subscriptions};
    let keep_timer = |m: &Model| {
        subscriptions(m)
            .into_iter()
            .find(|s| s.id == SubId::KeepTyped)
            .map(|s| s.every)
    };
    let mut m = fixtures::model(80, 24);
    assert_eq!(keep_timer(&m), None, "nothing typed, nothing to keep");
    drive::key(&mut m, KeyCode::Char('a'));
    drive::chars(&mut m, "mail.ac");
    let first = keep_timer(&m);
    assert_eq!(first, Some(super::KEEP_TYPED_WITHIN));
    drive::chars(&mut m, "me.io");
    assert_eq!(
        keep_timer(&m),
        first,
        "the same timer: typing does not push it back"
    );
    let cmds = update(&mut m, Msg::SubFired(SubId::KeepTyped));
    assert!(
        matches!(&cmds[..], [Cmd::SaveState(s)] if s.drafts.get("add-domain")
            .is_some_and(|d| d.fields.values().any(|v| v == "mail.acme.io"))),
        "the form's text is written: {cmds:?}"
    );
    assert_eq!(keep_timer(&m), None, "saved: no timer until more is typed");
    // Keys that type nothing (list keys, no text box) start no timer.
    let mut m = fixtures::model(80, 24);
    drive::key(&mut m, KeyCode::Char('j'));
    drive::key(&mut m, KeyCode::Char('k'));
    assert_eq!(keep_timer(&m), None);
}
