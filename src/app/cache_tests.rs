//! Instant open: every list pane opens on its last-known rows, marked
//! stale with their age, takes the fresh list in their place, keeps them
//! when the first read fails, and hands each fresh list to the cache.

use crossterm::event::KeyCode;

use super::cache::{Cache, Cached, CachedSearch};
use super::fixtures::{self, CLOCK, drive};
use super::{ApiReply, ApiRequest, Cmd, Model, Msg, Pane, RequestId, SubId, subscriptions};
use crate::api::ApiError;
use crate::api::model::{
    Campaign, CampaignStatus, RunStatus, Search, SearchKind, SendingDomain, Thread, ThreadPage,
};

/// Three hours before the fixtures' clock: the cache's age.
const AS_OF: i64 = CLOCK - 3 * 3600;

/// The screen as text, lines joined (the chrome tests read it too).
pub(super) fn screen(m: &Model) -> String {
    let (w, h) = m.size;
    let backend = ratatui::backend::TestBackend::new(w, h);
    let mut term = ratatui::Terminal::new(backend).expect("terminal");
    term.draw(|f| crate::ui::view(m, f)).expect("draw");
    let buf = term.backend().buffer().clone();
    (0..h)
        .map(|y| (0..w).map(|x| buf[(x, y)].symbol()).collect::<String>())
        .collect::<Vec<_>>()
        .join("\n")
}

/// A session started on `pane` (its first request sent), then given the
/// last-known lists, as the runtime does: the id of that request.
fn opened_on(pane: Pane, cache: Cache) -> (Model, RequestId) {
    let mut m = fixtures::model(100, 30);
    m.pane = pane;
    let cmds = m.start();
    let (id, _) = drive::api(&cmds)
        .into_iter()
        .find(|(_, r)| {
            matches!(
                r,
                ApiRequest::ListSearches
                    | ApiRequest::ListCampaigns
                    | ApiRequest::ListThreads { .. }
                    | ApiRequest::ListDomains { .. }
            )
        })
        .expect("the list is asked for first");
    m.adopt_cache(cache);
    (m, id)
}

fn offline() -> ApiError {
    ApiError::Connect {
        host: "127.0.0.1:8787".into(),
        detail: "connection refused".into(),
    }
}

fn old_domain() -> SendingDomain {
    fixtures::domain(
        "d-old",
        "old-mail.example.com",
        crate::api::model::DomainStatus::Verified,
        "2026-01-01T00:00:00Z",
    )
}

fn old_search() -> CachedSearch {
    CachedSearch {
        search: fixtures::search("s-old", "Old dentists in Lyon", SearchKind::Static, 40),
        run: Some(RunStatus::Completed),
        source: String::new(),
    }
}

fn old_campaign() -> Campaign {
    fixtures::campaign(
        "c-old",
        "Old spring outreach",
        crate::api::model::Channel::Email,
        CampaignStatus::Paused,
        12,
    )
}

fn old_thread() -> Thread {
    Thread {
        id: "t-old".into(),
        participant_email: "old.friend@example.com".into(),
        participant_name: Some("Old Friend".into()),
        ..Thread::default()
    }
}

/// Every list as it was three hours ago.
fn last_session() -> Cache {
    Cache {
        host: "127.0.0.1:8787".into(),
        searches: Some(Cached::of(&[old_search()], AS_OF)),
        campaigns: Some(Cached::of(&[old_campaign()], AS_OF)),
        threads: Some(Cached::of(&[old_thread()], AS_OF)),
        domains: Some(Cached::of(&[old_domain()], AS_OF)),
        ..Cache::default()
    }
}

/// The one fresh answer each pane's first request gets.
fn fresh_answer(pane: Pane) -> ApiReply {
    match pane {
        Pane::Leads => ApiReply::Searches(Ok(Some(fixtures::searches()))),
        Pane::Campaigns => ApiReply::Campaigns(Ok(Some(fixtures::campaigns()))),
        Pane::Inbox => {
            let threads = fixtures::threads();
            ApiReply::Threads(Ok(ThreadPage {
                total: threads.len() as u64,
                threads,
                page: 1,
                limit: 100,
            }))
        }
        _ => ApiReply::Domains(Ok(fixtures::domains())),
    }
}

/// The failed answer of each pane's first request.
fn failed_answer(pane: Pane) -> ApiReply {
    match pane {
        Pane::Leads => ApiReply::Searches(Err(offline())),
        Pane::Campaigns => ApiReply::Campaigns(Err(offline())),
        Pane::Inbox => ApiReply::Threads(Err(offline())),
        _ => ApiReply::Domains(Err(offline())),
    }
}

/// What each pane shows of the cached row, and of the fresh list.
fn names(pane: Pane) -> (&'static str, String) {
    match pane {
        Pane::Leads => (
            "Old dentists in Lyon",
            fixtures::searches()[0].title.clone(),
        ),
        Pane::Campaigns => ("Old spring outreach", fixtures::campaigns()[0].name.clone()),
        Pane::Inbox => (
            "Old Friend",
            fixtures::threads()[0]
                .participant_name
                .clone()
                .unwrap_or_default(),
        ),
        _ => (
            "old-mail.example.com",
            fixtures::domains()[0].domain.clone(),
        ),
    }
}

const LIST_PANES: [Pane; 4] = [Pane::Leads, Pane::Campaigns, Pane::Inbox, Pane::Domains];

#[test]
fn each_list_opens_on_its_cached_rows_marked_stale_with_their_age() {
    for pane in LIST_PANES {
        let (m, _) = opened_on(pane, last_session());
        let (old, _) = names(pane);
        let s = screen(&m);
        assert!(s.contains(old), "{pane:?} shows its cached row:\n{s}");
        assert!(
            s.contains("stale · as of 3h ago"),
            "{pane:?} marks it stale with its age:\n{s}"
        );
        assert!(!s.contains("loading"), "{pane:?} is not loading:\n{s}");
    }
}

#[test]
fn the_fresh_list_replaces_the_cached_rows_and_is_cached_itself() {
    for pane in LIST_PANES {
        let (mut m, id) = opened_on(pane, last_session());
        let cmds = drive::reply(&mut m, id, fresh_answer(pane));
        let (old, fresh) = names(pane);
        let s = screen(&m);
        assert!(s.contains(&fresh), "{pane:?} shows the fresh list:\n{s}");
        assert!(!s.contains(old), "{pane:?}: the cached row is gone:\n{s}");
        assert!(!s.contains("stale"), "{pane:?} is no longer stale:\n{s}");
        let held = match pane {
            Pane::Leads => m.cache.searches.as_ref().map(|c| c.as_of),
            Pane::Campaigns => m.cache.campaigns.as_ref().map(|c| c.as_of),
            Pane::Inbox => m.cache.threads.as_ref().map(|c| c.as_of),
            _ => m.cache.domains.as_ref().map(|c| c.as_of),
        };
        assert_eq!(held, Some(CLOCK), "{pane:?}: the cache holds it as of now");
        assert!(m.cache_due(), "{pane:?}: a save is due");
        if pane == Pane::Leads {
            // Each row's run status was the cache's: read again.
            let reads = drive::api(&cmds);
            assert!(
                reads
                    .iter()
                    .any(|(_, r)| matches!(r, ApiRequest::GetSearch { .. })),
                "{reads:?}"
            );
        }
    }
}

#[test]
fn a_failed_first_read_keeps_the_cached_rows_marked_stale() {
    for pane in LIST_PANES {
        let (mut m, id) = opened_on(pane, last_session());
        drive::reply(&mut m, id, failed_answer(pane));
        let (old, _) = names(pane);
        let s = screen(&m);
        assert!(s.contains(old), "{pane:?} keeps its cached row:\n{s}");
        assert!(s.contains("stale · as of 3h ago"), "{pane:?}:\n{s}");
        assert!(
            !s.contains("could not load") && !s.contains("could not list"),
            "{pane:?}: what it knows is shown, not an error in its place:\n{s}"
        );
        assert!(!m.cache_due(), "{pane:?}: nothing new to save");
    }
}

#[test]
fn the_cache_is_saved_behind_once_and_on_quit_for_this_service() {
    let (mut m, id) = opened_on(Pane::Domains, last_session());
    let cmds = drive::reply(&mut m, id, fresh_answer(Pane::Domains));
    let (live, _) = drive::api(&cmds).remove(0);
    assert!(
        subscriptions(&m).iter().any(|s| s.id == SubId::CacheSave),
        "the debounced save waits"
    );
    let cmds = super::update(&mut m, Msg::SubFired(SubId::CacheSave));
    let Some(Cmd::SaveCache(saved)) = cmds.first() else {
        panic!("a save: {cmds:?}");
    };
    assert_eq!(saved.host, "127.0.0.1:8787", "it names its service");
    assert_eq!(
        saved.domains.as_ref().map(|c| c.items.len()),
        Some(fixtures::domains().len())
    );
    assert!(
        !subscriptions(&m).iter().any(|s| s.id == SubId::CacheSave),
        "saved: no more timer"
    );
    // The same list read again (the live refresh): only its age
    // changed, saved on quit.
    m.clock += 60;
    drive::reply(&mut m, live, fresh_answer(Pane::Domains));
    assert!(!m.cache_due(), "no save for an unchanged list");
    let cmds = drive::key(&mut m, KeyCode::Char('q'));
    let saved = cmds.iter().find_map(|c| match c {
        Cmd::SaveCache(c) => c.domains.as_ref().map(|d| d.as_of),
        _ => None,
    });
    assert_eq!(saved, Some(CLOCK + 60), "quit writes the newest age");
    let quit_at = cmds.iter().position(|c| *c == Cmd::Quit);
    let save_at = cmds.iter().position(|c| matches!(c, Cmd::SaveCache(_)));
    assert!(save_at < quit_at, "saved before leaving: {cmds:?}");
}

#[test]
fn a_pane_holding_its_own_list_keeps_it() {
    let (mut m, id) = opened_on(Pane::Domains, Cache::default());
    drive::reply(&mut m, id, fresh_answer(Pane::Domains));
    m.adopt_cache(last_session());
    let s = screen(&m);
    assert!(!s.contains("old-mail.example.com"), "{s}");
    assert!(!s.contains("stale"), "{s}");
}

#[test]
fn another_profile_opens_on_its_own_last_known_lists() {
    let (mut m, id) = opened_on(Pane::Domains, last_session());
    drive::reply(&mut m, id, fresh_answer(Pane::Domains));
    let cmds = super::update(&mut m, Msg::Key(key(':')));
    assert!(cmds.is_empty());
    drive::chars(&mut m, "profile other");
    let cmds = drive::key(&mut m, KeyCode::Enter);
    assert!(
        matches!(
            cmds.as_slice(),
            [Cmd::SaveState(_), Cmd::SaveCache(_), Cmd::SwitchProfile(_)]
        ),
        "this workspace's lists are saved before the switch: {cmds:?}"
    );
    let other = SendingDomain {
        id: "d-other".into(),
        domain: "other-demo.test".into(),
        ..SendingDomain::default()
    };
    let mut session = m.session.clone();
    session.profile = Some("other".into());
    let opened = super::msg::OpenedProfile {
        session,
        state: crate::store::State::default(),
        poll: m.poll,
        notices: Vec::new(),
        cache: Cache {
            domains: Some(Cached::of(&[other], AS_OF)),
            searches: Some(Cached::of(
                &[CachedSearch {
                    search: Search {
                        search_id: "s-other".into(),
                        title: "Other workspace search".into(),
                        ..Search::default()
                    },
                    ..CachedSearch::default()
                }],
                AS_OF,
            )),
            ..Cache::default()
        },
    };
    super::update(&mut m, Msg::ProfileOpened(Box::new(opened)));
    let s = screen(&m);
    assert!(s.contains("other-demo.test"), "{s}");
    assert!(!s.contains(&fixtures::domains()[0].domain), "{s}");
    assert!(s.contains("stale · as of 3h ago"), "{s}");
    assert_eq!(
        m.panes.leads.list.rows.len(),
        1,
        "every pane takes its slice, shown or not"
    );
}

fn key(c: char) -> crossterm::event::KeyEvent {
    crossterm::event::KeyEvent::new(KeyCode::Char(c), crossterm::event::KeyModifiers::NONE)
}
