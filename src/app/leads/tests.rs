//! Flows of the Leads pane through `update`, against a small fake service
//! that answers every request from the fixtures.

use std::collections::BTreeMap;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::campaign::{CHUNK, Stage};
use super::export::Phase;
use super::window::{MAX_PAGES, PAGE};
use super::*;
use crate::api::model::*;

use crate::app::fixtures;
use crate::app::{ApiReply, ApiRequest, Msg, Overlay, PaneSub, SubId, subscriptions, update};

/// A refusal for the other panes' writes the property test may cause.
fn gone() -> crate::api::ApiError {
    service_error(404, r#"{"error":{"code":"not_found","message":"gone"}}"#)
}

/// The run watch subscription of a search.
fn run_watch(search: &str) -> SubId {
    SubId::Pane(PaneSub::Leads(LeadsSub::RunWatch(search.into())))
}

use crate::app::ctx::Ctx;
use crate::app::fixtures::drive::and_queued;
use crate::app::fixtures::drive::{api, chars, ctrl, key, reply, service_error};

/// Runs `f` on the pane's state and context, as an entry point does (what
/// it queues is handed out by `and_queued` / `take_queued`).
fn with_pane<R>(m: &mut Model, f: impl FnOnce(&mut LeadsModel, &mut Ctx<'_>) -> R) -> R {
    let (leads, mut cx) = m.split::<LeadsModel>();
    f(leads, &mut cx)
}

/// A search id as pasted from the web dashboard (a UUID).
const PASTED: &str = "3f2b8c1e-5d4a-4e7b-9c1d-2a6f0e9b7c35";

/// Rewrites an honest answer: the fake plays a broken or hostile service.
type Tamper = Box<dyn FnMut(&ApiRequest, ApiReply) -> ApiReply>;

/// Answers requests from the fixtures, keeping a little state.
struct Fake {
    totals: BTreeMap<String, usize>,
    list_route: bool,
    rosters: BTreeMap<String, u64>,
    run: RunStatus,
    log: Vec<ApiRequest>,
    tamper: Option<Tamper>,
    /// Campaigns created through the Campaigns pane's form.
    created: Vec<Campaign>,
}

impl Fake {
    fn new() -> Fake {
        Fake {
            totals: [("s-3", 2000), ("s-2", 0), ("s-1", 340)]
                .into_iter()
                .map(|(k, v)| (k.to_owned(), v))
                .collect(),
            list_route: true,
            rosters: fixtures::campaigns()
                .into_iter()
                .map(|c| (c.id, c.stats.total))
                .collect(),
            run: RunStatus::Completed,
            log: Vec::new(),
            tamper: None,
            created: Vec::new(),
        }
    }

    /// Requests sent so far of one kind.
    fn count(&self, what: impl Fn(&ApiRequest) -> bool) -> usize {
        self.log.iter().filter(|r| what(r)).count()
    }

    fn search(&self, id: &str) -> Search {
        fixtures::searches()
            .into_iter()
            .find(|s| s.search_id == id)
            .unwrap_or_else(|| fixtures::search(id, "Pasted search", SearchKind::Recurring, 0))
    }

    fn answer(&mut self, req: &ApiRequest) -> ApiReply {
        self.log.push(req.clone());
        let honest = self.honest(req);
        match self.tamper.as_mut() {
            Some(t) => t(req, honest),
            None => honest,
        }
    }

    fn honest(&mut self, req: &ApiRequest) -> ApiReply {
        match req {
            ApiRequest::ListSearches => {
                ApiReply::Searches(Ok(self.list_route.then(fixtures::searches)))
            }
            ApiRequest::GetSearch { id, page } => self.get_search(id, page),
            ApiRequest::QueryResults { id, query } => self.query_results(id, query),
            ApiRequest::Enrichment { id, result_id } => {
                ApiReply::Enrichment(Box::new(Ok(fixtures::enrichment(id, result_id))))
            }
            ApiRequest::ListCampaigns => ApiReply::Campaigns(Ok(Some(self.campaigns()))),
            ApiRequest::GetCampaign { id } => self.get_campaign(id),
            ApiRequest::AddLeads { id, leads, channel } => self.add_leads(id, channel, leads),
            ApiRequest::RunSearch { id, .. } => self.run_search(id),
            ApiRequest::RunAll => ApiReply::RunAll(Box::new(Ok(RunAllResponse {
                surface: "lead-finder".into(),
                matched_count: 3,
                queued_count: 2,
                skipped_count: 1,
                results: vec![RunAllItem {
                    search_id: "s-9".into(),
                    title: "Seen only in run-all".into(),
                    status: RunStatus::Queued,
                    ..RunAllItem::default()
                }],
                agent_summary: "Queued 2 of 3 searches.".into(),
                ..RunAllResponse::default()
            }))),
            ApiRequest::CreateSearch(req) => {
                let mut s = fixtures::search("s-new", &req.title, req.kind.clone(), 0);
                s.source_plans.clone_from(&req.source_plans);
                ApiReply::SearchCreated(Box::new(Ok(s)))
            }
            // Tab reaches the Domains pane in the property test.
            ApiRequest::ListDomains { .. } => ApiReply::Domains(Ok(fixtures::domains())),
            ApiRequest::ListSenders => ApiReply::Senders(Ok(fixtures::senders())),
            ApiRequest::SenderSchedule { .. } => ApiReply::Schedule(Ok(serde_json::json!({}))),
            ApiRequest::VerifyDomain { .. } => ApiReply::Domain(Err(service_error(
                404,
                r#"{"error":{"code":"not_found","message":"gone"}}"#,
            ))),
            // And the Inbox pane: no threads; a write is refused.
            ApiRequest::ListThreads { .. } => ApiReply::Threads(Ok(ThreadPage::default())),
            ApiRequest::CreateThread(_) => ApiReply::ThreadCreated(Box::new(Err(gone()))),
            ApiRequest::GetThread { .. } | ApiRequest::PatchThread { .. } => {
                ApiReply::Thread(Box::new(Err(gone())))
            }
            ApiRequest::DeleteThread { .. } => ApiReply::ThreadDeleted(Err(gone())),
            ApiRequest::ListMessages { .. } => ApiReply::ThreadMessages(Err(gone())),
            ApiRequest::SendMessage { .. } => ApiReply::Sent(Box::new(Err(gone()))),
            // Tab reaches the Profile pane too.
            ApiRequest::GetContext => ApiReply::Context(Box::new(Ok(fixtures::company_profile()))),
            ApiRequest::PutContext(body) => {
                ApiReply::ContextSaved(Box::new(Ok(body.context.clone())))
            }
            ApiRequest::Redeem { .. } => {
                ApiReply::Redeemed(Box::new(Ok(fixtures::discovery_pass(true))))
            }
            // Tab reaches the Campaigns pane in the property test too.
            ApiRequest::ListLeads { .. } => ApiReply::Roster(Ok(RosterPage::default())),
            ApiRequest::GeneratedMessages { .. } => ApiReply::Messages(Ok(Vec::new())),
            ApiRequest::CreateCampaign(req) => {
                let id = format!("c-new-{}", self.created.len() + 1);
                let c =
                    fixtures::campaign(&id, &req.name, req.kind.clone(), CampaignStatus::Draft, 0);
                self.created.push(c.clone());
                ApiReply::Campaign(Box::new(Ok(c)))
            }
            ApiRequest::LaunchCampaign { .. }
            | ApiRequest::PauseCampaign { .. }
            | ApiRequest::ResumeCampaign { .. }
            | ApiRequest::UpdateCampaign { .. } => ApiReply::Campaign(Box::new(Err(
                service_error(400, r#"{"error":"not in this fake"}"#),
            ))),
            other => panic!("the Leads pane does not send {other:?}"),
        }
    }

    fn get_search(&self, id: &str, page: &SearchPageQuery) -> ApiReply {
        let total = self.totals.get(id).copied().unwrap_or(0);
        let n = |v: Option<u64>, or: usize| v.map_or(or, |v| usize::try_from(v).unwrap_or(or));
        let mut p = fixtures::search_page(
            &self.search(id),
            total,
            n(page.offset, 0),
            n(page.limit, 50),
        );
        if let Some(r) = p.latest_run.as_mut() {
            r.status = self.run.clone();
        }
        ApiReply::SearchPage(Box::new(Ok(p)))
    }

    /// The filter keeps every other row; cursors are `c<offset>`.
    fn query_results(&self, id: &str, query: &ResultsQuery) -> ApiReply {
        let total = self.totals.get(id).copied().unwrap_or(0) / 2;
        let offset: usize = query
            .cursor
            .as_deref()
            .and_then(|c| c.strip_prefix('c'))
            .and_then(|n| n.parse().ok())
            .unwrap_or(0);
        let limit = query.limit.map_or(25, |l| usize::try_from(l).unwrap_or(25));
        let end = (offset + limit).min(total);
        ApiReply::Results(Box::new(Ok(ResultsPage {
            search: self.search(id),
            query: QueryEcho {
                q: query.q.clone(),
                predicates: query.predicates.clone(),
            },
            results: (offset..end)
                .map(|i| fixtures::lead_result(id, i * 2))
                .collect(),
            pagination: Pagination {
                total: total as u64,
                limit: limit as u64,
                offset: offset as u64,
                has_more: end < total,
                next_cursor: (end < total).then(|| Cursor::Text(format!("c{end}"))),
            },
        })))
    }

    fn get_campaign(&self, id: &str) -> ApiReply {
        ApiReply::Campaign(Box::new(
            self.campaigns()
                .into_iter()
                .find(|c| c.id == id)
                .ok_or_else(|| {
                    service_error(
                        404,
                        r#"{"error":{"code":"not_found","message":"Campaign not found"}}"#,
                    )
                }),
        ))
    }

    fn add_leads(&mut self, id: &str, channel: &Channel, leads: &[LeadInput]) -> ApiReply {
        if let Err(e) = crate::api::validate::add_leads(channel, leads) {
            return ApiReply::LeadsAdded(Err(service_error(
                400,
                &format!(
                    r#"{{"error":{{"code":"invalid_request","message":"{}"}}}}"#,
                    e[0]
                ),
            )));
        }
        *self.rosters.entry(id.to_owned()).or_default() += leads.len() as u64;
        ApiReply::LeadsAdded(Ok(AddLeadsResponse {
            imported: leads.len() as u64,
            ..AddLeadsResponse::default()
        }))
    }

    fn run_search(&mut self, id: &str) -> ApiReply {
        self.run = RunStatus::Queued;
        ApiReply::RunStarted(Box::new(Ok(RunResponse {
            search: self.search(id),
            run: RunHandle {
                run_id: "run-new".into(),
                status: RunStatus::Queued,
                ..RunHandle::default()
            },
            disposition: "queued".into(),
            dispatch: "recorded".into(),
        })))
    }

    fn campaigns(&self) -> Vec<Campaign> {
        fixtures::campaigns()
            .into_iter()
            .chain(self.created.iter().cloned())
            .map(|mut c| {
                c.stats.total = self.rosters.get(&c.id).copied().unwrap_or(0);
                c
            })
            .collect()
    }

    /// Answers every request, and those the answers cause, until none is
    /// left; returns the other commands.
    fn serve(&mut self, m: &mut Model, mut cmds: Vec<Cmd>) -> Vec<Cmd> {
        let mut other = Vec::new();
        for _ in 0..10_000 {
            if cmds.is_empty() {
                return other;
            }
            let mut next = Vec::new();
            for c in cmds {
                match c {
                    Cmd::Api { id, req } => {
                        let r = self.answer(&req);
                        next.extend(reply(m, id, r));
                    }
                    c => other.push(c),
                }
            }
            cmds = next;
        }
        panic!("the requests never settle");
    }
}

/// A model on the Leads pane with the searches listed.
fn listed(fake: &mut Fake) -> Model {
    let mut m = fixtures::model(80, 24);
    m.pane = Pane::Leads;
    let cmds = m.start();
    assert_eq!(api(&cmds)[0].1, ApiRequest::ListSearches);
    fake.serve(&mut m, cmds);
    m
}

/// A model with the big search (2,000 results) open.
fn opened(fake: &mut Fake) -> Model {
    let mut m = listed(fake);
    let cmds = key(&mut m, KeyCode::Enter);
    let reqs = api(&cmds);
    assert_eq!(
        reqs[0].1,
        ApiRequest::GetSearch {
            id: "s-3".into(),
            page: SearchPageQuery {
                limit: Some(PAGE as u64),
                offset: Some(0),
                cursor: None
            }
        }
    );
    fake.serve(&mut m, cmds);
    assert_eq!(m.panes.leads.view, View::Search);
    m
}

/// Answers an export's path checks in `cmds`: its directory exists, and
/// the file exists when `file_exists`; returns what the file check caused.
fn path_checked(m: &mut Model, cmds: Vec<Cmd>, file_exists: bool) -> Vec<Cmd> {
    let mut cmds = cmds;
    loop {
        let Some(Cmd::CheckPath { id, .. }) = cmds.first() else {
            panic!("a path check: {cmds:?}");
        };
        let id = *id;
        let dir = matches!(
            m.requests.get(id),
            Some(crate::app::Purpose::Leads(Purpose::ExportDir))
        );
        let exists = if dir { true } else { file_exists };
        cmds = update(
            m,
            Msg::PathChecked {
                id,
                exists: Ok(exists),
            },
        );
        if !dir {
            return cmds;
        }
    }
}

#[test]
fn the_list_route_lists_and_run_statuses_are_read_for_visible_rows() {
    let mut fake = Fake::new();
    let m = listed(&mut fake);
    assert_eq!(m.panes.leads.list.rows.len(), 3);
    assert!(!m.panes.leads.list.registry);
    let metas: Vec<_> = fake
        .log
        .iter()
        .filter(|r| matches!(r, ApiRequest::GetSearch { page, .. } if page.limit == Some(1)))
        .collect();
    assert_eq!(metas.len(), 2, "only searches that ran need a status read");
    assert_eq!(m.panes.leads.list.rows[0].run, Some(RunStatus::Completed));
    assert_eq!(m.panes.leads.list.rows[1].run, None, "never run");
}

#[test]
fn without_the_list_route_the_registry_is_read_id_by_id() {
    let mut fake = Fake::new();
    fake.list_route = false;
    let mut m = fixtures::model(80, 24);
    m.pane = Pane::Leads;
    m.state.remember_search("s-1", "", "created");
    m.state.remember_search("s-3", "old label", "pasted");
    let cmds = m.start();
    fake.serve(&mut m, cmds);
    assert!(m.panes.leads.list.registry);
    let titles: Vec<_> = m
        .panes
        .leads
        .list
        .rows
        .iter()
        .map(|r| r.search.title.as_str())
        .collect();
    assert_eq!(
        titles,
        [
            "RevOps leaders at EU SaaS",
            "Founders hiring their first SDR"
        ],
        "newest remembered first, metadata read"
    );
    assert_eq!(m.panes.leads.list.rows[0].source, "pasted");
    assert_eq!(m.state.known_searches[1].label, "RevOps leaders at EU SaaS");
}

#[test]
fn paging_keeps_a_bounded_window_while_walking_deep() {
    let mut fake = Fake::new();
    fake.totals.insert("s-3".into(), 100_000);
    let mut m = opened(&mut fake);
    let o = m.panes.leads.open.as_ref().expect("open");
    assert_eq!(
        o.window.table.len, 100_000,
        "the length is the service's total"
    );
    for _ in 0..400 {
        let cmds = key(&mut m, KeyCode::PageDown);
        fake.serve(&mut m, cmds);
        let o = m.panes.leads.open.as_ref().expect("open");
        assert!(o.window.pages.len() <= MAX_PAGES);
        assert!(
            o.window.selected().is_some(),
            "the selection's page is loaded"
        );
    }
    let cmds = key(&mut m, KeyCode::Char('G'));
    let reqs = api(&cmds);
    assert!(
        reqs.iter().any(
            |(_, r)| matches!(r, ApiRequest::GetSearch { page, .. } if page.offset == Some(99_900))
        ),
        "the last page is read directly: {reqs:?}"
    );
    fake.serve(&mut m, cmds);
    let o = m.panes.leads.open.as_ref().expect("open");
    assert_eq!(o.window.table.selected, 99_999);
    assert!(o.window.loaded_rows() <= MAX_PAGES * PAGE);
    let biggest_get = fake
        .log
        .iter()
        .filter_map(|r| match r {
            ApiRequest::GetSearch { page, .. } => page.limit,
            _ => None,
        })
        .max();
    assert_eq!(biggest_get, Some(PAGE as u64), "never everything at once");
}

#[test]
fn a_reply_for_an_old_filter_is_dropped() {
    let mut fake = Fake::new();
    let mut m = opened(&mut fake);
    let cmds = key(&mut m, KeyCode::Char('G'));
    let (old, _) = api(&cmds)[0].clone();
    let cmds = and_queued(
        with_pane(&mut m, |l, cx| {
            search::apply_filter(
                l,
                cx,
                Filter {
                    q: "revops".into(),
                    predicates: Vec::new(),
                },
            )
        }),
        &mut m,
    );
    assert!(matches!(api(&cmds)[0].1, ApiRequest::QueryResults { .. }));
    let page = fixtures::search_page(&fake.search("s-3"), 2000, 1900, 100);
    reply(&mut m, old, ApiReply::SearchPage(Box::new(Ok(page))));
    let o = m.panes.leads.open.as_ref().expect("open");
    assert!(o.window.pages.is_empty(), "the stale page is not shown");
    assert_eq!(m.requests.in_flight(), 1);
}

#[test]
fn a_running_search_is_watched_until_it_completes() {
    let mut fake = Fake::new();
    fake.run = RunStatus::Running;
    let mut m = opened(&mut fake);
    let watch = run_watch("s-3");
    assert!(
        subscriptions(&m)
            .iter()
            .any(|s| s.id == watch && s.every == m.poll.run)
    );
    key(&mut m, KeyCode::Char('j'));
    key(&mut m, KeyCode::Char('j'));
    let selected = m
        .panes
        .leads
        .open
        .as_ref()
        .and_then(|o| o.window.selected())
        .map(|r| r.result_id.clone());
    fake.totals.insert("s-3".into(), 2050);
    let cmds = update(&mut m, Msg::SubFired(watch.clone()));
    assert_eq!(api(&cmds).len(), 1);
    let again = update(&mut m, Msg::SubFired(watch.clone()));
    assert!(api(&again).is_empty(), "one poll at a time");
    fake.serve(&mut m, cmds);
    let o = m.panes.leads.open.as_ref().expect("open");
    assert_eq!(o.window.total, Some(2050), "new results appear");
    assert_eq!(
        o.window.selected().map(|r| r.result_id.clone()),
        selected,
        "selection kept"
    );
    fake.run = RunStatus::Completed;
    let cmds = update(&mut m, Msg::SubFired(watch.clone()));
    fake.serve(&mut m, cmds);
    assert!(
        !subscriptions(&m).iter().any(|s| s.id == watch),
        "completed: no more polling"
    );
    assert_eq!(
        m.toasts.items().last().map(|t| t.title.as_str()),
        Some("Run completed")
    );
    key(&mut m, KeyCode::Char('1'));
    key(&mut m, KeyCode::Char('4'));
    assert!(
        subscriptions(&m)
            .iter()
            .all(|s| !matches!(s.id, SubId::Pane(PaneSub::Leads(LeadsSub::RunWatch(_)))))
    );
}

#[test]
fn r_continues_a_resumable_run_and_starts_a_fresh_one_otherwise() {
    let mut fake = Fake::new();
    let mut m = opened(&mut fake);
    let cmds = key(&mut m, KeyCode::Char('R'));
    assert_eq!(
        api(&cmds)[0].1,
        ApiRequest::RunSearch {
            id: "s-3".into(),
            continuation: None
        }
    );
    fake.serve(&mut m, cmds);
    assert!(subscriptions(&m).iter().any(|s| s.id == run_watch("s-3")));
    if let Some(r) = m
        .panes
        .leads
        .open
        .as_mut()
        .and_then(|o| o.latest_run.as_mut())
    {
        r.status = RunStatus::Failed;
    }
    let cmds = key(&mut m, KeyCode::Char('R'));
    assert_eq!(
        api(&cmds)[0].1,
        ApiRequest::RunSearch {
            id: "s-3".into(),
            continuation: Some(true)
        }
    );
    let (id, _) = api(&cmds)[0].clone();
    reply(
        &mut m,
        id,
        ApiReply::RunStarted(Box::new(Err(service_error(
            409,
            r#"{"error":{"code":"conflict","message":"A run is already queued"}}"#,
        )))),
    );
    assert_eq!(
        m.toasts.items().last().map(|t| t.title.as_str()),
        Some("Already running")
    );
}

#[test]
fn run_all_asks_with_a_count_then_reports_and_remembers() {
    let mut fake = Fake::new();
    let mut m = listed(&mut fake);
    let cmds = ctrl(&mut m, 'r');
    assert!(cmds.is_empty());
    let Some(Overlay::Confirm(c)) = &m.overlay else {
        panic!("asks first");
    };
    assert!(
        c.lines[0].contains("up to 3 of the 3 searches"),
        "{:?}",
        c.lines
    );
    let cmds = key(&mut m, KeyCode::Char('y'));
    assert_eq!(api(&cmds)[0].1, ApiRequest::RunAll);
    fake.serve(&mut m, cmds);
    let Some(Dialog::Report(r)) = &m.panes.leads.dialog else {
        panic!("a report");
    };
    assert!(
        r.lines
            .iter()
            .any(|(_, l)| l.contains("Queued 2 of 3 searches."))
    );
    assert!(r.lines[0].1.contains("queued 2"));
    assert!(
        m.state
            .known_searches
            .iter()
            .any(|k| k.id == "s-9" && k.source == "run-all")
    );
    key(&mut m, KeyCode::Enter);
    assert!(m.panes.leads.dialog.is_none());
}

#[test]
fn the_create_form_validates_on_the_client_and_shows_the_services_refusal() {
    let mut fake = Fake::new();
    let mut m = listed(&mut fake);
    key(&mut m, KeyCode::Char('n'));
    assert_eq!(m.panes.leads.view, View::NewSearch);
    chars(&mut m, "RevOps EU");
    assert_eq!(
        m.panes.leads.unsent().as_deref(),
        Some("the new-search form")
    );
    let cmds = ctrl(&mut m, 's');
    assert!(api(&cmds).is_empty(), "not sent while invalid");
    let form = &m.panes.leads.form.as_ref().expect("form").form;
    let err = |k: &str| {
        form.fields
            .iter()
            .find(|f| f.key == k)
            .and_then(|f| f.error.clone())
    };
    assert_eq!(err("intent").as_deref(), Some("required"));
    assert_eq!(err("queries").as_deref(), Some("at least 1 item"));
    let f = &mut m.panes.leads.form.as_mut().expect("form").form;
    f.set_value("intent", "Find RevOps leaders");
    f.set_value("queries", "head of revops");
    f.set_value("reason", "budget owners");
    let cmds = ctrl(&mut m, 's');
    let (id, req) = api(&cmds)[0].clone();
    assert!(matches!(req, ApiRequest::CreateSearch(_)));
    assert!(ctrl(&mut m, 's').is_empty(), "sent once");
    reply(
        &mut m,
        id,
        ApiReply::SearchCreated(Box::new(Err(service_error(
            400,
            r#"{"error":{"code":"invalid_request","message":"sourcePlans[0].query[0]: 1 to 240 chars"}}"#,
        )))),
    );
    let form = &m.panes.leads.form.as_ref().expect("the form stays").form;
    assert_eq!(form.value("title"), "RevOps EU", "nothing typed is lost");
    let q = form
        .fields
        .iter()
        .find(|f| f.key == "queries")
        .expect("field");
    assert_eq!(q.error.as_deref(), Some("line 1: 1 to 240 chars"));
    let cmds = ctrl(&mut m, 's');
    let cmds = fake.serve(&mut m, cmds);
    assert!(cmds.iter().any(|c| matches!(c, Cmd::SaveState(_))));
    assert!(m.panes.leads.form.is_none());
    assert_eq!(m.panes.leads.view, View::Search);
    assert_eq!(m.panes.leads.open_id(), Some("s-new"));
    assert!(
        m.state
            .known_searches
            .iter()
            .any(|k| k.id == "s-new" && k.source == "created")
    );
    assert!(!m.state.drafts.contains_key(DRAFT_KEY));
}

#[test]
fn a_draft_is_kept_and_offered_back() {
    let mut fake = Fake::new();
    let mut m = listed(&mut fake);
    key(&mut m, KeyCode::Char('n'));
    chars(&mut m, "Half typed");
    let mut state = m.state.clone();
    m.panes.leads.capture_drafts(&mut state);
    assert_eq!(state.drafts[DRAFT_KEY].fields["title"], "Half typed");
    let cmds = key(&mut m, KeyCode::Esc);
    assert!(cmds.iter().any(|c| matches!(c, Cmd::SaveState(_))), "saved");
    assert_eq!(m.panes.leads.view, View::Searches);
    key(&mut m, KeyCode::Char('n'));
    assert!(
        matches!(m.overlay, Some(Overlay::Confirm(_))),
        "offered back"
    );
    key(&mut m, KeyCode::Char('y'));
    let form = &m.panes.leads.form.as_ref().expect("form").form;
    assert_eq!(form.value("title"), "Half typed");
    key(&mut m, KeyCode::Esc);
    key(&mut m, KeyCode::Char('n'));
    key(&mut m, KeyCode::Char('n'));
    let form = &m.panes.leads.form.as_ref().expect("form").form;
    assert_eq!(form.value("title"), "", "declined: a fresh form");
    assert!(!m.state.drafts.contains_key(DRAFT_KEY));
}

#[test]
fn the_filter_is_built_from_descriptors_and_chips_can_be_removed() {
    let mut fake = Fake::new();
    let mut m = opened(&mut fake);
    let cmds = key(&mut m, KeyCode::Char('/'));
    assert!(
        matches!(api(&cmds)[0].1, ApiRequest::Enrichment { .. }),
        "descriptors are fetched"
    );
    fake.serve(&mut m, cmds);
    assert_eq!(
        m.panes.leads.descriptors["s-3"].len(),
        6,
        "cached per search"
    );
    ctrl(&mut m, 'n');
    chars(&mut m, "city");
    key(&mut m, KeyCode::Enter);
    key(&mut m, KeyCode::Tab);
    chars(&mut m, "Berlin");
    let Some(Dialog::Filter(b)) = &m.panes.leads.dialog else {
        panic!("builder open");
    };
    assert_eq!(b.rows[0].path.as_deref(), Some("person.location.city"));
    let cmds = key(&mut m, KeyCode::Enter);
    let (_, req) = api(&cmds)[0].clone();
    let ApiRequest::QueryResults { query, .. } = req else {
        panic!("the results query runs the filter");
    };
    assert_eq!(query.sort, Some(Sort::ScoreDesc));
    assert_eq!(
        query.predicates,
        vec![Predicate {
            path: "person.location.city".into(),
            operator: Operator::Contains,
            value: PredicateValue::Text("Berlin".into())
        }]
    );
    fake.serve(&mut m, cmds);
    let o = m.panes.leads.open.as_ref().expect("open");
    assert_eq!(o.window.total, Some(1000));
    assert_eq!(
        search::chips(o, m.panes.leads.open_descriptors()),
        ["City contains \"Berlin\""]
    );
    // Walk deep into the filtered list: cursors only.
    let cmds = key(&mut m, KeyCode::Char('G'));
    fake.serve(&mut m, cmds);
    let o = m.panes.leads.open.as_ref().expect("open");
    assert_eq!(o.window.table.selected, 999);
    assert!(o.window.selected().is_some());
    let cmds = key(&mut m, KeyCode::Char('x'));
    assert!(
        matches!(api(&cmds)[0].1, ApiRequest::GetSearch { .. }),
        "back to every result"
    );
}

#[test]
fn three_selected_leads_go_to_a_draft_campaign() {
    let mut fake = Fake::new();
    let mut m = opened(&mut fake);
    for _ in 0..3 {
        key(&mut m, KeyCode::Char(' '));
    }
    assert_eq!(
        m.panes.leads.open.as_ref().map(|o| o.marks.count()),
        Some(3)
    );
    let cmds = key(&mut m, KeyCode::Char('c'));
    assert_eq!(api(&cmds)[0].1, ApiRequest::ListCampaigns);
    fake.serve(&mut m, cmds);
    let Some(Dialog::Campaign(d)) = &m.panes.leads.dialog else {
        panic!("dialog");
    };
    assert_eq!(d.drafts().len(), 2, "only drafts are offered");
    let cmds = key(&mut m, KeyCode::Enter);
    let reqs = api(&cmds);
    let ApiRequest::AddLeads { id, leads, .. } = &reqs[0].1 else {
        panic!("adds");
    };
    assert_eq!((id.as_str(), leads.len()), ("c-1", 3));
    fake.serve(&mut m, cmds);
    let Some(Dialog::Campaign(d)) = &m.panes.leads.dialog else {
        panic!("dialog");
    };
    let job = d.job.as_ref().expect("job");
    assert_eq!(d.stage, Stage::Done);
    assert_eq!((job.imported, job.skipped), (3, 0));
    assert_eq!((job.campaign.stats.total, job.roster_after), (12, Some(15)));
    assert_eq!(
        m.panes.leads.open.as_ref().map(|o| o.marks.count()),
        Some(0)
    );
}

#[test]
fn leads_without_the_identity_are_reported_not_sent() {
    let mut fake = Fake::new();
    let mut m = opened(&mut fake);
    key(&mut m, KeyCode::Char('a'));
    assert_eq!(
        m.panes.leads.open.as_ref().map(|o| o.marks.count()),
        Some(100)
    );
    let cmds = key(&mut m, KeyCode::Char('c'));
    fake.serve(&mut m, cmds);
    let Some(Dialog::Campaign(d)) = &m.panes.leads.dialog else {
        panic!("dialog");
    };
    assert_eq!(d.selection.lacking(&Channel::Email), Some(25));
    assert_eq!(d.selection.lacking(&Channel::Network), Some(20));
    key(&mut m, KeyCode::Char('j'));
    let cmds = key(&mut m, KeyCode::Enter);
    let reqs = api(&cmds);
    let ApiRequest::AddLeads { leads, channel, .. } = &reqs[0].1 else {
        panic!("adds");
    };
    assert_eq!((channel, leads.len()), (&Channel::Network, 80));
    fake.serve(&mut m, cmds);
    let Some(Dialog::Campaign(d)) = &m.panes.leads.dialog else {
        panic!("dialog");
    };
    let job = d.job.as_ref().expect("job");
    assert_eq!((job.imported, job.skipped), (80, 20));
}

#[test]
fn all_matching_is_sent_in_chunks_of_at_most_a_thousand() {
    let mut fake = Fake::new();
    let mut m = opened(&mut fake);
    key(&mut m, KeyCode::Char('A'));
    assert_eq!(
        m.panes.leads.open.as_ref().map(|o| o.marks.count()),
        Some(2000)
    );
    key(&mut m, KeyCode::Char(' '));
    assert_eq!(
        m.panes.leads.open.as_ref().map(|o| o.marks.count()),
        Some(1999)
    );
    let cmds = key(&mut m, KeyCode::Char('c'));
    fake.serve(&mut m, cmds);
    fake.log.clear();
    let cmds = key(&mut m, KeyCode::Enter);
    fake.serve(&mut m, cmds);
    let chunks: Vec<usize> = fake
        .log
        .iter()
        .filter_map(|r| match r {
            ApiRequest::AddLeads { leads, .. } => Some(leads.len()),
            _ => None,
        })
        .collect();
    assert!(chunks.iter().all(|n| *n <= CHUNK && *n > 0), "{chunks:?}");
    assert_eq!(
        chunks.iter().sum::<usize>(),
        1999 - 500,
        "every 4th lacks an email"
    );
    let Some(Dialog::Campaign(d)) = &m.panes.leads.dialog else {
        panic!("dialog");
    };
    let job = d.job.as_ref().expect("job");
    assert_eq!((job.imported, job.skipped), (1499, 500));
    assert_eq!(job.roster_after, Some(12 + 1499));
}

#[test]
fn export_asks_before_replacing_and_writes_every_row() {
    let mut fake = Fake::new();
    let mut m = opened(&mut fake);
    key(&mut m, KeyCode::Char('E'));
    let Some(Dialog::Export(e)) = &m.panes.leads.dialog else {
        panic!("prompt");
    };
    assert_eq!(e.path_text(), "./revops-leaders-at-eu-saas-20261122.csv");
    let cmds = key(&mut m, KeyCode::Enter);
    let cmds = path_checked(&mut m, cmds, true);
    assert!(cmds.is_empty());
    assert!(matches!(m.overlay, Some(Overlay::Confirm(ref c)) if c.destructive));
    let cmds = key(&mut m, KeyCode::Char('y'));
    let other = fake.serve(&mut m, cmds);
    let Some(Cmd::WriteFile { id, file }) = other.first() else {
        panic!("writes: {other:?}");
    };
    assert!(file.overwrite, "replacing was confirmed");
    let text = String::from_utf8(file.bytes.clone()).expect("utf-8");
    assert_eq!(text.lines().count(), 2001);
    assert!(text.starts_with("result_id,score,quality_tier,name"));
    let gets = fake
        .log
        .iter()
        .filter(|r| matches!(r, ApiRequest::GetSearch { page, .. } if page.limit == Some(500)))
        .count();
    assert_eq!(gets, 4, "all pages");
    let id = *id;
    update(&mut m, Msg::FileWritten { id, result: Ok(()) });
    assert!(m.panes.leads.dialog.is_none());
    assert_eq!(
        m.toasts.items().last().map(|t| t.title.as_str()),
        Some("Exported")
    );
}

#[test]
fn export_without_asking_never_overwrites() {
    let mut fake = Fake::new();
    let mut m = opened(&mut fake);
    let cmds = with_pane(&mut m, |l, cx| start_export(l, cx, Some("out.csv".into())));
    let Some(Cmd::CheckPath { id, path }) = cmds.first() else {
        panic!("checks: {cmds:?}");
    };
    assert_eq!(path.to_str(), Some("out.csv"));
    let cmds = update(
        &mut m,
        Msg::PathChecked {
            id: *id,
            exists: Ok(false),
        },
    );
    let other = fake.serve(&mut m, cmds);
    let Some(Cmd::WriteFile { file, id }) = other.first() else {
        panic!("writes");
    };
    assert!(!file.overwrite);
    let id = *id;
    update(
        &mut m,
        Msg::FileWritten {
            id,
            result: Err("out.csv exists; not overwritten".into()),
        },
    );
    let Some(Dialog::Export(e)) = &m.panes.leads.dialog else {
        panic!("the prompt comes back");
    };
    assert!(
        e.error
            .as_deref()
            .is_some_and(|t| t.contains("not overwritten"))
    );
    key(&mut m, KeyCode::Esc);
    // Esc during a later export cancels it; its answers are ignored.
    key(&mut m, KeyCode::Char('E'));
    let cmds = key(&mut m, KeyCode::Enter);
    let cmds = path_checked(&mut m, cmds, false);
    assert!(matches!(&m.panes.leads.dialog, Some(Dialog::Export(e)) if e.phase == Phase::Fetching));
    key(&mut m, KeyCode::Esc);
    assert!(m.panes.leads.dialog.is_none());
    assert!(fake.serve(&mut m, cmds).is_empty(), "nothing written");
}

#[test]
fn the_detail_shows_enrichment_trees_and_descriptors() {
    let mut fake = Fake::new();
    let mut m = opened(&mut fake);
    let cmds = key(&mut m, KeyCode::Enter);
    assert!(matches!(api(&cmds)[0].1, ApiRequest::Enrichment { .. }));
    fake.serve(&mut m, cmds);
    let d = m.panes.leads.detail.as_ref().expect("detail");
    assert_eq!(m.panes.leads.view, View::Detail);
    assert!(
        d.person
            .lines()
            .iter()
            .any(|l| l.key.as_str() == "location")
    );
    assert!(
        d.enrichment
            .as_ref()
            .is_some_and(|e| e.enrichment_profile.truncation.truncated)
    );
    key(&mut m, KeyCode::Char('l'));
    key(&mut m, KeyCode::Char('l'));
    assert_eq!(
        m.panes.leads.detail.as_ref().map(|d| d.tab),
        Some(detail::Tab::Fields)
    );
    key(&mut m, KeyCode::Esc);
    assert_eq!(m.panes.leads.view, View::Search);
}

#[test]
fn open_search_by_an_unknown_id_remembers_it_only_once_the_service_answers() {
    let mut fake = Fake::new();
    let mut m = listed(&mut fake);
    key(&mut m, KeyCode::Char(':'));
    chars(&mut m, &format!("open search {PASTED}"));
    let cmds = key(&mut m, KeyCode::Enter);
    assert!(
        m.state.known_searches.is_empty(),
        "not kept before the service answers"
    );
    assert!(!cmds.iter().any(|c| matches!(c, Cmd::SaveState(_))));
    assert_eq!(m.panes.leads.open_id(), Some(PASTED));
    fake.serve(&mut m, cmds);
    assert_eq!(m.panes.leads.view, View::Search);
    assert!(
        m.state
            .known_searches
            .iter()
            .any(|k| k.id == PASTED && k.source == "pasted" && k.label == "Pasted search"),
        "{:?}",
        m.state.known_searches
    );
}

#[test]
fn open_search_by_an_id_the_service_does_not_know_remembers_nothing() {
    let mut fake = Fake::new();
    fake.tamper = Some(Box::new(|req, honest| match req {
        ApiRequest::GetSearch { .. } => ApiReply::SearchPage(Box::new(Err(gone()))),
        _ => honest,
    }));
    let mut m = listed(&mut fake);
    key(&mut m, KeyCode::Char(':'));
    chars(&mut m, &format!("open search {PASTED}"));
    let cmds = key(&mut m, KeyCode::Enter);
    fake.serve(&mut m, cmds);
    assert!(
        m.state.known_searches.is_empty(),
        "a 404 is never kept: {:?}",
        m.state.known_searches
    );
    assert!(m.panes.leads.unconfirmed.is_none());
}

/// `:open search WHAT` on the listed searches: what it sends (the search
/// it opened) or that it sent nothing.
fn open_search(what: &str) -> (Model, Vec<ApiRequest>) {
    let mut fake = Fake::new();
    let mut m = listed(&mut fake);
    key(&mut m, KeyCode::Char(':'));
    chars(&mut m, &format!("open search {what}"));
    let cmds = key(&mut m, KeyCode::Enter);
    let sent = api(&cmds).into_iter().map(|(_, r)| r).collect();
    (m, sent)
}

#[test]
fn open_search_resolves_an_id_a_prefix_a_title_and_a_part_of_one() {
    // The fixtures' ids are short ("s-3"): a prefix needs four characters,
    // so the prefix step is shown on a longer id.
    for (what, id) in [
        ("s-3", "s-3"),
        ("RevOps leaders at EU SaaS", "s-3"),
        ("fintech", "s-2"),
        ("FIRST SDR", "s-1"),
    ] {
        let (m, sent) = open_search(what);
        assert_eq!(m.panes.leads.open_id(), Some(id), "{what}");
        assert!(
            sent.iter()
                .any(|r| matches!(r, ApiRequest::GetSearch { id: i, .. } if i == id)),
            "{what}: {sent:?}"
        );
        assert!(
            m.state.known_searches.is_empty(),
            "a listed search needs no registry"
        );
    }
    let mut fake = Fake::new();
    let mut m = listed(&mut fake);
    m.panes.leads.list.rows[0].search.search_id = PASTED.into();
    key(&mut m, KeyCode::Char(':'));
    chars(&mut m, "open search 3f2b8");
    key(&mut m, KeyCode::Enter);
    assert_eq!(m.panes.leads.open_id(), Some(PASTED), "by id prefix");
}

#[test]
fn open_search_refuses_the_ambiguous_and_the_nonsense_before_any_request() {
    for (what, says) in [
        ("s-", "no search matches"),
        ("nonsense", "no search matches"),
        ("e", "matches 3 searches by part of a name"),
        ("DACH", "no search matches \"DACH\""),
    ] {
        let (m, sent) = open_search(what);
        assert!(sent.is_empty(), "{what}: nothing sent: {sent:?}");
        assert_eq!(m.panes.leads.open_id(), None, "{what}");
        assert!(m.state.known_searches.is_empty(), "{what}: nothing kept");
        let last = m.toasts.items().last().expect("told");
        assert!(
            last.text.as_str().contains(says),
            "{what}: {}",
            last.text.as_str()
        );
    }
}

#[test]
fn enter_on_a_row_still_loading_opens_it_when_it_arrives() {
    let mut fake = Fake::new();
    let mut m = opened(&mut fake);
    let pages = key(&mut m, KeyCode::Char('G'));
    let early = key(&mut m, KeyCode::Enter);
    assert!(api(&early).is_empty(), "nothing to open yet");
    assert_eq!(m.panes.leads.view, View::Search);
    fake.serve(&mut m, pages);
    assert_eq!(m.panes.leads.view, View::Detail, "opened on arrival");
    assert_eq!(
        m.panes
            .leads
            .detail
            .as_ref()
            .map(|d| d.result.result_id.as_str()),
        Some("s-3-r1999")
    );
}

#[test]
fn clicking_a_chip_removes_it_and_clicking_a_row_twice_opens_it() {
    use crossterm::event::{MouseButton, MouseEvent, MouseEventKind};
    let mut fake = Fake::new();
    let mut m = opened(&mut fake);
    let filter = Filter {
        q: "revops".into(),
        predicates: vec![Predicate {
            path: "person.seniority".into(),
            operator: Operator::Eq,
            value: PredicateValue::Text("head".into()),
        }],
    };
    let cmds = and_queued(
        with_pane(&mut m, |l, cx| search::apply_filter(l, cx, filter)),
        &mut m,
    );
    fake.serve(&mut m, cmds);
    let body = m.layout().body;
    let areas = layout::search_areas(body, &m.panes.leads);
    let spans = layout::chip_spans(&m.panes.leads, areas.chips);
    assert_eq!(spans.len(), 2);
    let click = |column: u16, row: u16| {
        Msg::Mouse(MouseEvent {
            kind: MouseEventKind::Down(MouseButton::Left),
            column,
            row,
            modifiers: KeyModifiers::NONE,
        })
    };
    let cmds = update(&mut m, click(spans[1].1 + 1, areas.chips.y));
    fake.serve(&mut m, cmds);
    let o = m.panes.leads.open.as_ref().expect("open");
    assert_eq!(o.filter.q, "revops");
    assert!(o.filter.predicates.is_empty(), "the predicate chip went");
    let areas = layout::search_areas(body, &m.panes.leads);
    let row_y = areas.table.y + 2 + 1;
    update(&mut m, click(10, row_y));
    assert_eq!(
        m.panes.leads.open.as_ref().map(|o| o.window.table.selected),
        Some(1)
    );
    let cmds = update(&mut m, click(10, row_y));
    fake.serve(&mut m, cmds);
    assert_eq!(m.panes.leads.view, View::Detail, "a second click opens");
}

mod props {
    use super::*;
    use proptest::prelude::*;

    fn any_key() -> impl Strategy<Value = KeyEvent> {
        let codes = prop_oneof![
            Just(KeyCode::Enter),
            Just(KeyCode::Esc),
            Just(KeyCode::Tab),
            Just(KeyCode::BackTab),
            Just(KeyCode::Up),
            Just(KeyCode::Down),
            Just(KeyCode::Left),
            Just(KeyCode::Right),
            Just(KeyCode::PageDown),
            Just(KeyCode::Backspace),
            proptest::sample::select(vec![
                'j', 'k', 'G', 'g', ' ', 'a', 'A', 'c', 'E', 'e', 'n', 'R', '/', 'x', 'u', 'l',
                'h', 'r', 'y', ':', '1', 'z', '='
            ])
            .prop_map(KeyCode::Char),
        ];
        (codes, any::<bool>()).prop_map(|(c, ctl)| {
            let ctl = ctl && matches!(c, KeyCode::Char('n' | 'd' | 's' | 'r'));
            KeyEvent::new(
                c,
                if ctl {
                    KeyModifiers::CONTROL
                } else {
                    KeyModifiers::NONE
                },
            )
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        #[test]
        fn random_keys_and_sizes_never_panic(
            keys in proptest::collection::vec(any_key(), 1..60),
            sizes in proptest::collection::vec((1u16..220, 1u16..60), 1..4),
        ) {
            let mut fake = Fake::new();
            let mut m = listed(&mut fake);
            for (i, k) in keys.into_iter().enumerate() {
                let cmds = update(&mut m, Msg::Key(k));
                // Answer some requests, leave others hanging.
                if i % 3 != 0 {
                    fake.serve(&mut m, cmds);
                }
                if let Some((w, h)) = sizes.get(i % 7) {
                    update(&mut m, Msg::Resize(*w, *h));
                    let backend = ratatui::backend::TestBackend::new(*w, *h);
                    let mut term = ratatui::Terminal::new(backend).expect("terminal");
                    term.draw(|f| crate::ui::view(&m, f)).expect("draw");
                }
                if m.quit {
                    break;
                }
            }
        }
    }
}

#[test]
fn a_taller_window_loads_the_rows_it_now_shows() {
    let mut fake = Fake::new();
    let mut m = opened(&mut fake);
    let cmds = update(&mut m, Msg::Resize(200, 260));
    let reqs = api(&cmds);
    assert!(
        reqs.iter().any(
            |(_, r)| matches!(r, ApiRequest::GetSearch { page, .. } if page.offset == Some(PAGE as u64))
        ),
        "the second page is read as soon as it is on screen: {reqs:?}"
    );
}

/// Every pagination total and count of the answers set to a huge number.
fn huge_numbers(_: &ApiRequest, reply: ApiReply) -> ApiReply {
    let huge_run = |r: &mut LatestRun| {
        for s in &mut r.source_status {
            for d in &mut s.query_diagnostics {
                d.fetched = u64::MAX;
                d.normalized = u64::MAX;
                d.ranked = u64::MAX;
                d.lead_extracted = u64::MAX;
                d.quality_kept = u64::MAX;
                d.stored = u64::MAX;
            }
        }
    };
    match reply {
        ApiReply::SearchPage(r) => ApiReply::SearchPage(Box::new(r.map(|mut p| {
            p.pagination.total = 10_000_000_000_000_000_000;
            p.pagination.has_more = true;
            if let Some(r) = p.latest_run.as_mut() {
                huge_run(r);
            }
            p
        }))),
        ApiReply::LeadsAdded(r) => ApiReply::LeadsAdded(r.map(|mut a| {
            a.imported = u64::MAX;
            a.duplicates = u64::MAX;
            a
        })),
        other => other,
    }
}

#[test]
fn huge_totals_and_counts_from_the_service_are_capped_and_saturate() {
    let mut fake = Fake::new();
    fake.tamper = Some(Box::new(huge_numbers));
    let mut m = opened(&mut fake);
    let o = m.panes.leads.open.as_ref().expect("open");
    assert_eq!(o.window.total, Some(window::MAX_TOTAL), "capped");
    for (w, h) in [(80, 24), (60, 15), (200, 50)] {
        update(&mut m, Msg::Resize(w, h));
        let backend = ratatui::backend::TestBackend::new(w, h);
        let mut term = ratatui::Terminal::new(backend).expect("terminal");
        term.draw(|f| crate::ui::view(&m, f)).expect("draw");
    }
    // Three leads to a campaign whose answer counts u64::MAX twice.
    for _ in 0..3 {
        key(&mut m, KeyCode::Char(' '));
    }
    let cmds = key(&mut m, KeyCode::Char('c'));
    fake.serve(&mut m, cmds);
    let cmds = key(&mut m, KeyCode::Enter);
    fake.serve(&mut m, cmds);
    let Some(Dialog::Campaign(d)) = &m.panes.leads.dialog else {
        panic!("dialog");
    };
    let job = d.job.as_ref().expect("job");
    assert_eq!((job.sent, job.imported), (u64::MAX, u64::MAX));
}

#[test]
fn esc_on_the_draft_prompt_keeps_the_draft_and_only_n_discards_it() {
    let mut fake = Fake::new();
    let mut m = listed(&mut fake);
    key(&mut m, KeyCode::Char('n'));
    chars(&mut m, "Half typed");
    key(&mut m, KeyCode::Esc);
    assert_eq!(m.state.drafts[DRAFT_KEY].fields["title"], "Half typed");
    for dismiss in [KeyCode::Esc, KeyCode::Char('q')] {
        key(&mut m, KeyCode::Char('n'));
        let Some(Overlay::Confirm(c)) = &m.overlay else {
            panic!("offered back");
        };
        assert_eq!(c.no.as_deref(), Some("discard the draft"), "n is labelled");
        let cmds = key(&mut m, dismiss);
        assert!(m.overlay.is_none(), "the prompt closes");
        assert!(!m.quit, "q on the prompt does not quit");
        assert!(
            !cmds.iter().any(|c| matches!(c, Cmd::SaveState(_))),
            "nothing to save: nothing changed"
        );
        assert_eq!(m.panes.leads.view, View::Searches, "back to the list");
        assert!(m.panes.leads.form.is_none());
        assert_eq!(
            m.state.drafts[DRAFT_KEY].fields["title"], "Half typed",
            "{dismiss:?} keeps the draft"
        );
    }
    key(&mut m, KeyCode::Char('n'));
    key(&mut m, KeyCode::Char('n'));
    assert!(!m.state.drafts.contains_key(DRAFT_KEY), "n discards it");
    assert_eq!(m.panes.leads.view, View::NewSearch, "on an empty form");
}

#[test]
fn esc_on_the_other_questions_chooses_nothing() {
    let mut fake = Fake::new();
    let mut m = listed(&mut fake);
    // Run all: Esc sends nothing.
    ctrl(&mut m, 'r');
    assert!(matches!(m.overlay, Some(Overlay::Confirm(ref c)) if c.no.is_none()));
    assert!(api(&key(&mut m, KeyCode::Esc)).is_empty());
    assert!(m.overlay.is_none());
    // Replace the file?: Esc goes back to the path, as typed.
    let cmds = key(&mut m, KeyCode::Enter);
    fake.serve(&mut m, cmds);
    key(&mut m, KeyCode::Char('E'));
    chars(&mut m, "x");
    let cmds = key(&mut m, KeyCode::Enter);
    path_checked(&mut m, cmds, true);
    assert!(matches!(m.overlay, Some(Overlay::Confirm(ref c)) if c.no.is_some()));
    assert!(key(&mut m, KeyCode::Esc).is_empty(), "nothing is written");
    let Some(Dialog::Export(e)) = &m.panes.leads.dialog else {
        panic!("the prompt comes back");
    };
    assert_eq!(e.phase, Phase::Prompt);
    assert!(e.path_text().ends_with(".csvx"), "{}", e.path_text());
}

/// Past its first page the service answers every page empty, and still says
/// there is more of a huge total.
fn empty_pages_with_more(req: &ApiRequest, reply: ApiReply) -> ApiReply {
    match (req, reply) {
        (ApiRequest::GetSearch { page, .. }, ApiReply::SearchPage(r)) => {
            let past = page.offset.unwrap_or(0) >= PAGE as u64;
            ApiReply::SearchPage(Box::new(r.map(|mut p| {
                if past {
                    p.results.clear();
                }
                p.pagination.total = 10_000_000_000_000_000_000;
                p.pagination.has_more = true;
                p
            })))
        }
        (_, reply) => reply,
    }
}

#[test]
fn an_empty_page_that_says_more_is_not_asked_again_and_again() {
    let mut fake = Fake::new();
    fake.tamper = Some(Box::new(empty_pages_with_more));
    let mut m = opened(&mut fake);
    let pages = |f: &Fake| {
        f.count(
            |r| matches!(r, ApiRequest::GetSearch { page, .. } if page.limit == Some(PAGE as u64)),
        )
    };
    let before = pages(&fake);
    let cmds = key(&mut m, KeyCode::Char('G'));
    fake.serve(&mut m, cmds);
    assert!(
        pages(&fake) - before <= 3,
        "{} page reads after G",
        pages(&fake) - before
    );
    let o = m.panes.leads.open.as_ref().expect("open");
    assert_eq!(o.window.total, Some(PAGE), "the list ends where rows end");
    assert_eq!(o.window.table.selected, PAGE - 1);
    // Moving about asks for nothing more.
    for k in [KeyCode::Char('G'), KeyCode::Char('j'), KeyCode::PageDown] {
        let cmds = key(&mut m, k);
        assert!(api(&cmds).is_empty(), "{k:?} asked again");
    }
    // A refresh asks once more, and settles.
    let before = pages(&fake);
    let cmds = key(&mut m, KeyCode::Char('r'));
    fake.serve(&mut m, cmds);
    assert!(pages(&fake) - before <= 3);
}

/// Every page answers the first rows again and says there are more.
fn same_rows_forever(req: &ApiRequest, reply: ApiReply) -> ApiReply {
    let first = |id: &str, n: usize| -> Vec<LeadResult> {
        (0..n).map(|i| fixtures::lead_result(id, i)).collect()
    };
    match (req, reply) {
        (ApiRequest::GetSearch { id, page }, ApiReply::SearchPage(r)) => {
            let n = page.limit.map_or(50, |l| usize::try_from(l).unwrap_or(50));
            ApiReply::SearchPage(Box::new(r.map(|mut p| {
                p.results = first(id, n);
                p.pagination.has_more = true;
                p
            })))
        }
        (ApiRequest::QueryResults { id, .. }, ApiReply::Results(r)) => {
            ApiReply::Results(Box::new(r.map(|mut p| {
                p.results = first(id, 100);
                p.pagination.has_more = true;
                p.pagination.next_cursor = Some(Cursor::Text("again".into()));
                p
            })))
        }
        (_, reply) => reply,
    }
}

/// Runs an export to `out.csv` (a new file) to its write; returns the CSV.
fn export_to_the_end(fake: &mut Fake, m: &mut Model) -> Option<String> {
    let cmds = with_pane(m, |l, cx| start_export(l, cx, Some("out.csv".into())));
    let Some(Cmd::CheckPath { id, .. }) = cmds.first() else {
        panic!("checks: {cmds:?}");
    };
    let cmds = update(
        m,
        Msg::PathChecked {
            id: *id,
            exists: Ok(false),
        },
    );
    let other = fake.serve(m, cmds);
    let Some(Cmd::WriteFile { id, file }) = other.first() else {
        return None;
    };
    let text = String::from_utf8(file.bytes.clone()).ok();
    let id = *id;
    update(m, Msg::FileWritten { id, result: Ok(()) });
    text
}

#[test]
fn an_export_walk_stops_when_the_service_repeats_itself() {
    // The same rows at every offset.
    let mut fake = Fake::new();
    fake.tamper = Some(Box::new(same_rows_forever));
    let mut m = opened(&mut fake);
    let text = export_to_the_end(&mut fake, &mut m).expect("written");
    assert_eq!(text.lines().count(), 1 + 500, "each row once");
    let last = m.toasts.items().last().expect("a toast");
    assert_eq!(last.title.as_str(), "Exported, maybe not every row");
    assert!(
        last.text.as_str().contains("rows already read again"),
        "{}",
        last.text
    );

    // A cursor that comes back (filtered: the rows differ, the cursor not).
    let mut fake = Fake::new();
    fake.tamper = Some(Box::new(|req, reply| match (req, reply) {
        (ApiRequest::QueryResults { .. }, ApiReply::Results(r)) => {
            ApiReply::Results(Box::new(r.map(|mut p| {
                p.pagination.next_cursor = Some(Cursor::Text("c100".into()));
                p
            })))
        }
        (_, reply) => reply,
    }));
    let mut m = opened(&mut fake);
    let cmds = and_queued(
        with_pane(&mut m, |l, cx| {
            search::apply_filter(
                l,
                cx,
                Filter {
                    q: "revops".into(),
                    predicates: Vec::new(),
                },
            )
        }),
        &mut m,
    );
    fake.serve(&mut m, cmds);
    let text = export_to_the_end(&mut fake, &mut m).expect("written");
    assert_eq!(text.lines().count(), 1 + 200);
    let last = m.toasts.items().last().expect("a toast");
    assert!(
        last.text.as_str().contains("cursor led back"),
        "{}",
        last.text
    );

    // Far more rows than the total first reported.
    let mut fake = Fake::new();
    fake.tamper = Some(Box::new(|req, reply| match (req, reply) {
        (ApiRequest::GetSearch { .. }, ApiReply::SearchPage(r)) => {
            ApiReply::SearchPage(Box::new(r.map(|mut p| {
                p.pagination.total = 10;
                p.pagination.has_more = true;
                p
            })))
        }
        (_, reply) => reply,
    }));
    let mut m = opened(&mut fake);
    fake.log.clear();
    let text = export_to_the_end(&mut fake, &mut m).expect("written");
    assert_eq!(text.lines().count(), 1 + 1500, "stopped past 10 + 1,000");
    let last = m.toasts.items().last().expect("a toast");
    assert!(
        last.text.as_str().contains("first reported 10"),
        "{}",
        last.text
    );
}

#[test]
fn adding_all_matching_sends_each_lead_once_when_the_service_repeats_itself() {
    let mut fake = Fake::new();
    fake.tamper = Some(Box::new(same_rows_forever));
    let mut m = opened(&mut fake);
    key(&mut m, KeyCode::Char('A'));
    let cmds = key(&mut m, KeyCode::Char('c'));
    fake.serve(&mut m, cmds);
    fake.log.clear();
    let cmds = key(&mut m, KeyCode::Enter);
    fake.serve(&mut m, cmds);
    let mut ids = std::collections::BTreeSet::new();
    let mut sent = 0;
    for r in &fake.log {
        if let ApiRequest::AddLeads { leads, .. } = r {
            for l in leads.iter() {
                sent += 1;
                let id = l
                    .custom_fields
                    .as_ref()
                    .and_then(|c| c.get("lead_finder_result_id"))
                    .and_then(|v| v.as_str())
                    .map(str::to_owned);
                assert!(ids.insert(id), "sent twice");
            }
        }
    }
    assert_eq!(
        sent,
        500 - 125,
        "the 500 distinct rows, less those without an email"
    );
    let Some(Dialog::Campaign(d)) = &m.panes.leads.dialog else {
        panic!("dialog");
    };
    let job = d.job.as_ref().expect("job");
    assert_eq!(d.stage, Stage::Done);
    assert!(
        job.walk_note
            .as_deref()
            .is_some_and(|n| n.contains("already read")),
        "{:?}",
        job.walk_note
    );
    assert_eq!(
        m.toasts.items().last().map(|t| t.level),
        Some(crate::app::toast::Level::Warning)
    );
    assert!(
        m.panes
            .leads
            .open
            .as_ref()
            .is_some_and(|o| o.marks.all.is_some()),
        "the selection stays for another try"
    );
}

#[test]
fn reopening_the_open_search_reads_it_again_and_watches_a_new_run() {
    let mut fake = Fake::new();
    let mut m = opened(&mut fake);
    let watch = run_watch("s-3");
    assert!(!subscriptions(&m).iter().any(|s| s.id == watch));
    key(&mut m, KeyCode::Esc);
    assert_eq!(m.panes.leads.view, View::Searches);
    // Meanwhile a run started elsewhere.
    fake.run = RunStatus::Running;
    let cmds = key(&mut m, KeyCode::Enter);
    assert!(
        api(&cmds)
            .iter()
            .any(|(_, r)| matches!(r, ApiRequest::GetSearch { id, .. } if id == "s-3")),
        "the search is read again: {cmds:?}"
    );
    fake.serve(&mut m, cmds);
    let o = m.panes.leads.open.as_ref().expect("open");
    assert_eq!(
        o.latest_run.as_ref().map(|r| r.status.clone()),
        Some(RunStatus::Running)
    );
    assert!(subscriptions(&m).iter().any(|s| s.id == watch), "watched");
}

#[test]
fn run_all_starts_the_watch_of_the_open_search() {
    for detail in [false, true] {
        let mut fake = Fake::new();
        fake.tamper = Some(Box::new(|_, reply| match reply {
            ApiReply::RunAll(r) => ApiReply::RunAll(Box::new(r.map(|mut a| {
                a.results.push(RunAllItem {
                    search_id: "s-3".into(),
                    title: "RevOps leaders at EU SaaS".into(),
                    status: RunStatus::Queued,
                    run_id: Some("run-2".into()),
                    ..RunAllItem::default()
                });
                a
            }))),
            other => other,
        }));
        let mut m = opened(&mut fake);
        if detail {
            let cmds = key(&mut m, KeyCode::Enter);
            fake.serve(&mut m, cmds);
            assert_eq!(m.panes.leads.view, View::Detail);
        }
        ctrl(&mut m, 'r');
        let cmds = key(&mut m, KeyCode::Char('y'));
        let (id, req) = api(&cmds)[0].clone();
        assert_eq!(req, ApiRequest::RunAll);
        let answer = fake.answer(&req);
        let polls = reply(&mut m, id, answer);
        let o = m.panes.leads.open.as_ref().expect("open");
        let run = o.latest_run.as_ref().expect("run");
        assert_eq!(
            (run.run_id.as_str(), &run.status),
            ("run-2", &RunStatus::Queued)
        );
        assert!(
            subscriptions(&m).iter().any(|s| s.id == run_watch("s-3")),
            "watched at once (detail: {detail})"
        );
        assert!(
            api(&polls)
                .iter()
                .any(|(_, r)| matches!(r, ApiRequest::GetSearch { .. })),
            "and read (detail: {detail})"
        );
    }
}

/// Once `gone` is set, every read of the search answers `status`.
fn failing_after(
    gone: std::rc::Rc<std::cell::Cell<bool>>,
    status: u16,
) -> impl FnMut(&ApiRequest, ApiReply) -> ApiReply {
    move |req, reply| match req {
        ApiRequest::GetSearch { id, .. } if id == "s-3" && gone.get() => {
            ApiReply::SearchPage(Box::new(Err(service_error(
                status,
                r#"{"error":{"code":"not_found","message":"Search not found"}}"#,
            ))))
        }
        _ => reply,
    }
}

#[test]
fn the_run_watch_of_a_deleted_search_ends_and_says_so() {
    let gone = std::rc::Rc::new(std::cell::Cell::new(false));
    let mut fake = Fake::new();
    fake.run = RunStatus::Running;
    fake.tamper = Some(Box::new(failing_after(gone.clone(), 404)));
    let mut m = opened(&mut fake);
    let watch = run_watch("s-3");
    assert!(subscriptions(&m).iter().any(|s| s.id == watch));
    gone.set(true);
    let cmds = update(&mut m, Msg::SubFired(watch.clone()));
    fake.serve(&mut m, cmds);
    assert!(
        !subscriptions(&m).iter().any(|s| s.id == watch),
        "a 404 ends the watch"
    );
    let backend = ratatui::backend::TestBackend::new(80, 24);
    let mut term = ratatui::Terminal::new(backend).expect("terminal");
    term.draw(|f| crate::ui::view(&m, f)).expect("draw");
    let screen: String = term
        .backend()
        .buffer()
        .content()
        .iter()
        .map(ratatui::buffer::Cell::symbol)
        .collect();
    assert!(
        screen.contains("? running · status unknown — search not found · r retries"),
        "{screen}"
    );
    // r tries again.
    gone.set(false);
    let cmds = key(&mut m, KeyCode::Char('r'));
    fake.serve(&mut m, cmds);
    assert!(
        subscriptions(&m).iter().any(|s| s.id == watch),
        "watched again"
    );
}

/// The run watch subscription of a search, with its period.
fn watch_period(m: &Model, search: &str) -> Option<std::time::Duration> {
    let id = run_watch(search);
    subscriptions(m)
        .into_iter()
        .find(|s| s.id == id)
        .map(|s| s.every)
}

#[test]
fn a_failed_refresh_keeps_what_is_shown_marked_stale_and_the_watch_goes_on() {
    let failing = std::rc::Rc::new(std::cell::Cell::new(false));
    let mut fake = Fake::new();
    fake.run = RunStatus::Running;
    fake.tamper = Some(Box::new(failing_after(failing.clone(), 500)));
    let mut m = opened(&mut fake);
    let watch = run_watch("s-3");
    let base = m.poll.run;
    failing.set(true);
    m.clock += 120;
    for i in 1..=5u32 {
        let every = watch_period(&m, "s-3").expect("still watched");
        assert_eq!(
            every,
            base * 2u32.pow((i - 1).min(3)),
            "slower after each failure"
        );
        let cmds = update(&mut m, Msg::SubFired(watch.clone()));
        fake.serve(&mut m, cmds);
    }
    assert!(watch_period(&m, "s-3").is_some(), "the next poll retries");
    let o = m.panes.leads.open.as_ref().expect("open");
    assert_eq!(o.search.result_count, 2000, "the counts stay");
    assert_eq!(
        o.latest_run.as_ref().map(|r| r.status.clone()),
        Some(RunStatus::Running),
        "the status stays"
    );
    assert!(o.watch_lost.is_none());
    let screen = screen_rows(&m, 80, 24).join("\n");
    // The watch really reads again, at the pace it is scheduled at.
    assert!(
        screen.contains("◐ running · run")
            && screen.contains("ago · retrying in 8 s · 2,000 results"),
        "{screen}"
    );
    assert!(!screen.contains("status unknown"), "{screen}");
    // The service answers again: fresh, and the normal pace.
    failing.set(false);
    let cmds = update(&mut m, Msg::SubFired(watch.clone()));
    fake.serve(&mut m, cmds);
    let o = m.panes.leads.open.as_ref().expect("open");
    assert!(!o.fresh.is_stale());
    assert_eq!(watch_period(&m, "s-3"), Some(base));
    let screen = screen_rows(&m, 80, 24).join("\n");
    assert!(!screen.contains('⚠'), "{screen}");
    assert!(screen.contains("· live ·"), "{screen}");
}

/// A refused key fails the same way every time: the run watch stops
/// instead of asking again, and the open search says how to fix the key
/// (it once went on polling, and said "retrying", for ever).
#[test]
fn a_refused_key_stops_the_run_watch_and_says_how_to_fix_it() {
    let refused = std::rc::Rc::new(std::cell::Cell::new(false));
    let mut fake = Fake::new();
    fake.run = RunStatus::Running;
    fake.tamper = Some(Box::new(failing_after(refused.clone(), 401)));
    let mut m = opened(&mut fake);
    assert!(watch_period(&m, "s-3").is_some(), "watched while running");
    refused.set(true);
    m.clock += 150;
    let cmds = update(&mut m, Msg::SubFired(run_watch("s-3")));
    fake.serve(&mut m, cmds);
    assert_eq!(watch_period(&m, "s-3"), None, "no poll can help");
    let screen = screen_rows(&m, 200, 50).join("\n");
    assert!(
        screen.contains("stale · as of 2m ago · key refused: see `outpost check`"),
        "{screen}"
    );
    assert!(!screen.contains("retrying"), "{screen}");
}

/// A search whose run is over is read once: it says when, never `live`,
/// and the key that reads it again; while its run is live and watched it
/// says `live`.
#[test]
fn the_open_search_says_live_only_while_its_run_is_watched() {
    let mut fake = Fake::new();
    fake.run = RunStatus::Running;
    let mut m = opened(&mut fake);
    let screen = screen_rows(&m, 80, 24).join("\n");
    assert!(
        screen.contains("◐ running · run") && screen.contains("ago · live · 2,000 results"),
        "{screen}"
    );
    let mut fake = Fake::new();
    let mut m2 = opened(&mut fake);
    assert_eq!(
        watch_period(&m2, "s-3"),
        None,
        "nothing polls a finished run"
    );
    m2.clock += 150;
    let screen = screen_rows(&m2, 80, 24).join("\n");
    assert!(
        screen.contains("● completed · run")
            && screen.contains("ago · as of 2m ago · 2,000 results"),
        "{screen}"
    );
    assert!(!screen.contains("live"), "{screen}");
    // Back on the list, nothing polls the open search any more.
    let cmds = key(&mut m, KeyCode::Esc);
    fake.serve(&mut m, cmds);
    let o = m.panes.leads.open.as_ref().map(|o| o.fresh.poll);
    assert!(matches!(o, None | Some(None)), "{o:?}");
}

#[test]
fn a_watched_list_row_keeps_its_values_when_a_read_fails_and_ends_only_when_gone() {
    let gone = std::rc::Rc::new(std::cell::Cell::new(false));
    let mut fake = Fake::new();
    fake.run = RunStatus::Running;
    fake.tamper = Some(Box::new(failing_after(gone.clone(), 404)));
    let mut m = listed(&mut fake);
    let watch = run_watch("s-3");
    assert!(subscriptions(&m).iter().any(|s| s.id == watch));
    gone.set(true);
    let cmds = update(&mut m, Msg::SubFired(watch.clone()));
    fake.serve(&mut m, cmds);
    assert!(!subscriptions(&m).iter().any(|s| s.id == watch), "ended");
    let row = &m.panes.leads.list.rows[0];
    assert!(row.gone && row.fresh.is_stale());
    // Another search whose status cannot be read: its counts and status
    // stay, marked stale, and it is still watched, more slowly.
    fake.tamper = Some(Box::new(|req, reply| match req {
        ApiRequest::GetSearch { id, .. } if id == "s-1" => ApiReply::SearchPage(Box::new(Err(
            service_error(503, r#"{"error":{"code":"unavailable","message":"busy"}}"#),
        ))),
        _ => reply,
    }));
    m.clock += 300;
    for _ in 0..6 {
        assert!(watch_period(&m, "s-1").is_some(), "still watched");
        let cmds = update(&mut m, Msg::SubFired(run_watch("s-1")));
        fake.serve(&mut m, cmds);
    }
    assert_eq!(watch_period(&m, "s-1"), Some(m.poll.run * 8));
    let screen = screen_rows(&m, 80, 24).join("\n");
    let line = screen
        .lines()
        .find(|l| l.contains("Founders hiring"))
        .unwrap_or_default();
    assert!(line.contains("272"), "the counts stay: {line}");
    assert!(
        line.contains("running ⚠5m"),
        "marked stale with its age: {line}"
    );
    assert!(!line.contains('…') && !line.contains("unknown"), "{line}");
    // Its watch reads it again by itself: the footer says when, not that
    // the Refresh key is needed.
    assert!(
        screen.contains("⚠ 1 row not refreshed (unavailable): retrying in 8 s"),
        "{screen}"
    );
}

#[test]
fn r_on_a_live_run_says_it_runs_and_sends_nothing() {
    let mut fake = Fake::new();
    fake.tamper = Some(Box::new(|_, reply| match reply {
        ApiReply::RunStarted(r) => ApiReply::RunStarted(Box::new(r.map(|mut a| {
            a.run.continuation_retry_after = Some("2026-11-22T12:05:00Z".into());
            a
        }))),
        other => other,
    }));
    let mut m = opened(&mut fake);
    let cmds = key(&mut m, KeyCode::Char('R'));
    assert_eq!(
        api(&cmds)[0].1,
        ApiRequest::RunSearch {
            id: "s-3".into(),
            continuation: None
        }
    );
    fake.serve(&mut m, cmds);
    assert!(
        m.panes
            .leads
            .open
            .as_ref()
            .and_then(|o| o.latest_run.as_ref())
            .is_some_and(|r| r.status.is_live())
    );
    // A second press while it is queued: nothing is sent.
    for status in [RunStatus::Queued, RunStatus::Running] {
        if let Some(r) = m
            .panes
            .leads
            .open
            .as_mut()
            .and_then(|o| o.latest_run.as_mut())
        {
            r.status = status.clone();
        }
        let cmds = key(&mut m, KeyCode::Char('R'));
        assert!(api(&cmds).is_empty(), "{status:?}: not sent again");
        let last = m.toasts.items().last().expect("told");
        assert_eq!(last.title.as_str(), "Already running");
        assert!(
            last.text.as_str().contains("after 2026-11-22 12:05"),
            "{}",
            last.text.as_str()
        );
    }
    // From the list, too.
    key(&mut m, KeyCode::Esc);
    if let Some(row) = m
        .panes
        .leads
        .list
        .rows
        .iter_mut()
        .find(|r| r.search.search_id == "s-1")
    {
        row.run = Some(RunStatus::Running);
    }
    m.panes.leads.list.table.select(2, 10);
    assert!(api(&key(&mut m, KeyCode::Char('R'))).is_empty());
    // Once the service's continuationRetryAfter has passed, R continues.
    m.clock = fixtures::CLOCK + 10 * 60;
    m.panes.leads.list.table.select(0, 10);
    let cmds = key(&mut m, KeyCode::Char('R'));
    assert_eq!(
        api(&cmds)[0].1,
        ApiRequest::RunSearch {
            id: "s-3".into(),
            continuation: Some(true)
        }
    );
}

#[test]
fn a_running_job_is_never_replaced_or_dropped() {
    use crossterm::event::{MouseButton, MouseEvent, MouseEventKind};
    let mut fake = Fake::new();
    let mut m = opened(&mut fake);
    for _ in 0..3 {
        key(&mut m, KeyCode::Char(' '));
    }
    let cmds = key(&mut m, KeyCode::Char('c'));
    fake.serve(&mut m, cmds);
    // The chunk goes out and is not answered yet.
    let chunk = key(&mut m, KeyCode::Enter);
    assert!(matches!(api(&chunk)[0].1, ApiRequest::AddLeads { .. }));
    assert!(m.panes.leads.job().is_some());
    let sending = |m: &Model| matches!(&m.panes.leads.dialog, Some(Dialog::Campaign(d)) if d.stage == Stage::Sending);
    // A click on a tab does not leave the pane under the dialog.
    let tabs = m.layout();
    let x = (0..m.size.0)
        .find(|x| tabs.tab_at(*x).map(|i| Pane::ALL[i]) == Some(Pane::Domains))
        .expect("a Domains tab");
    update(
        &mut m,
        Msg::Mouse(MouseEvent {
            kind: MouseEventKind::Down(MouseButton::Left),
            column: x,
            row: tabs.tabs.y,
            modifiers: KeyModifiers::NONE,
        }),
    );
    assert_eq!(m.pane, Pane::Leads);
    // Commands from elsewhere are refused with a notice.
    m.pane = Pane::Domains;
    for command in ["export", &format!("open search {PASTED}")] {
        key(&mut m, KeyCode::Char(':'));
        chars(&mut m, command);
        let cmds = key(&mut m, KeyCode::Enter);
        assert!(
            api(&cmds)
                .iter()
                .all(|(_, r)| !matches!(r, ApiRequest::GetSearch { id, .. } if id == PASTED))
        );
        assert!(sending(&m), "{command}: the job stays");
        assert_eq!(
            m.toasts.items().last().map(|t| t.title.as_str()),
            Some("Busy"),
            "{command}"
        );
        m.pane = Pane::Domains;
    }
    m.pane = Pane::Leads;
    assert_eq!(m.panes.leads.open_id(), Some("s-3"));
    assert!(!m.state.known_searches.iter().any(|k| k.id == PASTED));
    assert!(with_pane(&mut m, |l, cx| start_export(l, cx, Some("out.csv".into()))).is_empty());
    // A run-all answer arriving now does not replace the dialog either.
    let (run_all, _) = {
        let cmds = and_queued(with_pane(&mut m, run::run_all), &mut m);
        api(&cmds)[0].clone()
    };
    let answer = fake.answer(&ApiRequest::RunAll);
    reply(&mut m, run_all, answer);
    assert!(sending(&m));
    // The job ends as it would have.
    fake.serve(&mut m, chunk);
    let Some(Dialog::Campaign(d)) = &m.panes.leads.dialog else {
        panic!("dialog");
    };
    assert_eq!(d.stage, Stage::Done);
    assert_eq!(d.job.as_ref().map(|j| j.imported), Some(3));
}

#[test]
fn the_filter_builder_keeps_edits_on_esc_and_removes_a_row_only_on_ctrl_d() {
    let mut fake = Fake::new();
    let mut m = opened(&mut fake);
    let cmds = key(&mut m, KeyCode::Char('/'));
    fake.serve(&mut m, cmds);
    chars(&mut m, "revops");
    ctrl(&mut m, 'n');
    chars(&mut m, "city");
    key(&mut m, KeyCode::Enter);
    key(&mut m, KeyCode::Tab);
    chars(&mut m, "Berlin");
    let builder = |m: &Model| match &m.panes.leads.dialog {
        Some(Dialog::Filter(b)) => (
            b.rows.len(),
            b.rows.first().map(super::filter::Row::value_text),
        ),
        _ => panic!("builder open"),
    };
    // Backspace and Delete on the operator, then on the field: nothing goes.
    key(&mut m, KeyCode::BackTab);
    key(&mut m, KeyCode::Backspace);
    key(&mut m, KeyCode::BackTab);
    key(&mut m, KeyCode::Delete);
    assert_eq!(builder(&m), (1, Some("Berlin".into())), "the row stays");
    let Some(Dialog::Filter(b)) = &m.panes.leads.dialog else {
        panic!("builder");
    };
    assert_eq!(b.note.as_deref(), Some("Ctrl-D removes this predicate"));
    // Esc closes, and the edits come back with /.
    let cmds = key(&mut m, KeyCode::Esc);
    assert!(api(&cmds).is_empty(), "nothing applied");
    assert!(m.panes.leads.dialog.is_none());
    assert_eq!(
        m.toasts.items().last().map(|t| t.title.as_str()),
        Some("Filter not applied")
    );
    let cmds = key(&mut m, KeyCode::Char('/'));
    assert!(api(&cmds).is_empty(), "the descriptors are known");
    assert_eq!(builder(&m), (1, Some("Berlin".into())));
    let Some(Dialog::Filter(b)) = &m.panes.leads.dialog else {
        panic!("builder");
    };
    assert_eq!(b.q.lines().join(""), "revops");
    // Ctrl-D removes it; Enter applies what is left.
    ctrl(&mut m, 'd');
    assert_eq!(builder(&m).0, 0);
    let cmds = key(&mut m, KeyCode::Enter);
    fake.serve(&mut m, cmds);
    let o = m.panes.leads.open.as_ref().expect("open");
    assert_eq!(o.filter.q, "revops");
    assert!(o.filter.predicates.is_empty());
    // Applied: nothing is kept any more; an Esc without edits keeps nothing.
    assert!(m.panes.leads.filter_edits.is_empty());
    key(&mut m, KeyCode::Char('/'));
    key(&mut m, KeyCode::Esc);
    assert!(m.panes.leads.filter_edits.is_empty());
}

/// The screen as text, one string per row.
fn screen_rows(m: &Model, w: u16, h: u16) -> Vec<String> {
    let backend = ratatui::backend::TestBackend::new(w, h);
    let mut term = ratatui::Terminal::new(backend).expect("terminal");
    term.draw(|f| crate::ui::view(m, f)).expect("draw");
    let buf = term.backend().buffer().clone();
    (0..h)
        .map(|y| (0..w).map(|x| buf[(x, y)].symbol().to_owned()).collect())
        .collect()
}

#[test]
fn the_whole_lead_is_readable_on_small_screens() {
    for (w, h) in [(80, 24), (60, 15)] {
        let mut fake = Fake::new();
        // A long post: 30 lines of content, the last one marked.
        fake.tamper = Some(Box::new(|_, reply| match reply {
            ApiReply::SearchPage(r) => ApiReply::SearchPage(Box::new(r.map(|mut p| {
                for row in &mut p.results {
                    row.content = (1..=30)
                        .map(|i| format!("content line {i} of the post"))
                        .collect::<Vec<_>>()
                        .join("\n");
                }
                p
            }))),
            other => other,
        }));
        let mut m = listed(&mut fake);
        update(&mut m, Msg::Resize(w, h));
        let cmds = key(&mut m, KeyCode::Enter);
        fake.serve(&mut m, cmds);
        let cmds = key(&mut m, KeyCode::Enter);
        fake.serve(&mut m, cmds);
        assert_eq!(m.panes.leads.view, View::Detail);
        key(&mut m, KeyCode::Char('h'));
        assert_eq!(
            m.panes.leads.detail.as_ref().map(|d| d.tab),
            Some(detail::Tab::Lead)
        );
        let mut seen = String::new();
        for _ in 0..80 {
            seen.push_str(&screen_rows(&m, w, h).join("\n"));
            key(&mut m, KeyCode::Char('j'));
        }
        for want in [
            "search reason: Title matches Head of Revenue Operations",
            "signal reason: Posted about replacing their",
            "post: Hiring two RevOps analysts",
            "content line 1 of the post",
            "content line 30 of the post",
            "link: https://network.example/search?q=revops",
            "email: ana.lópez@brightlabs.com",
        ] {
            assert!(seen.contains(want), "{w}x{h}: {want:?} never on screen");
        }
        // The scroll stops at the end: one k shows the line before.
        let end = m.panes.leads.detail.as_ref().map(|d| d.lead_scroll);
        key(&mut m, KeyCode::Char('k'));
        assert_eq!(
            m.panes.leads.detail.as_ref().map(|d| d.lead_scroll + 1),
            end,
            "{w}x{h}"
        );
    }
}

#[test]
fn the_replace_question_and_a_failed_write_are_drawn() {
    let mut fake = Fake::new();
    let mut m = opened(&mut fake);
    let cmds = with_pane(&mut m, |l, cx| start_export(l, cx, Some("out.csv".into())));
    let Some(Cmd::CheckPath { id, .. }) = cmds.first() else {
        panic!("checks: {cmds:?}");
    };
    m.redraw = false;
    update(
        &mut m,
        Msg::PathChecked {
            id: *id,
            exists: Ok(true),
        },
    );
    assert!(matches!(m.overlay, Some(Overlay::Confirm(_))));
    assert!(m.redraw, "the question is drawn");
    let cmds = key(&mut m, KeyCode::Char('y'));
    let other = fake.serve(&mut m, cmds);
    let Some(Cmd::WriteFile { id, .. }) = other.first() else {
        panic!("writes");
    };
    m.redraw = false;
    update(
        &mut m,
        Msg::FileWritten {
            id: *id,
            result: Err("disk full".into()),
        },
    );
    assert!(m.redraw, "the failure is drawn");
}

#[test]
fn export_names_a_missing_directory_and_creates_it_only_when_told() {
    let mut fake = Fake::new();
    let mut m = opened(&mut fake);
    let cmds = with_pane(&mut m, |l, cx| {
        start_export(l, cx, Some("reports/new/out.csv".into()))
    });
    let Some(Cmd::CheckPath { id, path }) = cmds.first() else {
        panic!("checks the directory first: {cmds:?}");
    };
    assert_eq!(path.to_str(), Some("reports/new"));
    let id = *id;
    let cmds = update(
        &mut m,
        Msg::PathChecked {
            id,
            exists: Ok(false),
        },
    );
    assert!(cmds.is_empty(), "nothing read or written yet");
    let Some(Overlay::Confirm(c)) = &m.overlay else {
        panic!("asks");
    };
    assert!(
        c.lines[0].contains("reports/new does not exist"),
        "{:?}",
        c.lines
    );
    // Esc: back to the path, which says why.
    assert!(key(&mut m, KeyCode::Esc).is_empty());
    let Some(Dialog::Export(e)) = &m.panes.leads.dialog else {
        panic!("the prompt comes back");
    };
    assert_eq!(e.phase, Phase::Prompt);
    assert!(
        e.error
            .as_deref()
            .is_some_and(|t| t.contains("reports/new")),
        "{:?}",
        e.error
    );
    // Asked again, yes: the rows are read and written, creating it.
    let cmds = key(&mut m, KeyCode::Enter);
    let Some(Cmd::CheckPath { id, .. }) = cmds.first() else {
        panic!("checks again: {cmds:?}");
    };
    let id = *id;
    update(
        &mut m,
        Msg::PathChecked {
            id,
            exists: Ok(false),
        },
    );
    let cmds = key(&mut m, KeyCode::Char('y'));
    let other = fake.serve(&mut m, cmds);
    let Some(Cmd::WriteFile { file, .. }) = other.first() else {
        panic!("writes: {other:?}");
    };
    assert!(file.create_dirs && !file.overwrite);
}

/// A write whose answer was lost after it was sent.
fn lost_after_sending() -> crate::api::ApiError {
    crate::api::ApiError::Timeout {
        method: "POST".into(),
        after: std::time::Duration::from_secs(15),
        may_have_reached: true,
    }
}

/// The screen at 80x24 as one text.
fn screen(m: &Model) -> String {
    screen_rows(m, 80, 24).join("\n")
}

#[test]
fn run_all_shows_skipped_and_keeps_the_last_runs_status() {
    let mut fake = Fake::new();
    fake.tamper = Some(Box::new(|_, reply| match reply {
        ApiReply::RunAll(r) => ApiReply::RunAll(Box::new(r.map(|mut a| {
            a.results = vec![RunAllItem {
                search_id: "s-1".into(),
                title: "Founders hiring their first SDR".into(),
                status: RunStatus::parse("skipped"),
                code: Some("not_due".into()),
                ..RunAllItem::default()
            }];
            a
        }))),
        other => other,
    }));
    let mut m = listed(&mut fake);
    assert_eq!(m.panes.leads.list.rows[2].run, Some(RunStatus::Completed));
    ctrl(&mut m, 'r');
    let cmds = key(&mut m, KeyCode::Char('y'));
    fake.serve(&mut m, cmds);
    let Some(Dialog::Report(r)) = &m.panes.leads.dialog else {
        panic!("a report");
    };
    assert!(
        r.lines
            .iter()
            .any(|(_, l)| l.contains("Founders hiring their first SDR — skipped (not_due)")),
        "{:?}",
        r.lines
    );
    assert_eq!(
        m.panes.leads.list.rows[2].run,
        Some(RunStatus::Completed),
        "the last run's real status stays"
    );
}

#[test]
fn never_run_only_without_a_run_and_an_unknown_status_says_unknown() {
    let mut fake = Fake::new();
    // A search that does not exist, and one whose answer is malformed.
    fake.tamper = Some(Box::new(|req, reply| match req {
        ApiRequest::GetSearch { id, .. } if id == PASTED => {
            ApiReply::SearchPage(Box::new(Err(service_error(
                404,
                r#"{"error":{"code":"not_found","message":"Search not found"}}"#,
            ))))
        }
        ApiRequest::GetSearch { id, .. } if id == "s-1" => {
            ApiReply::SearchPage(Box::new(Err(crate::api::ApiError::Decode {
                status: 200,
                detail: "expected value at line 1 column 1".into(),
                may_have_reached: false,
            })))
        }
        // The search that never ran has no run.
        ApiRequest::GetSearch { id, .. } if id == "s-2" => match reply {
            ApiReply::SearchPage(p) => ApiReply::SearchPage(Box::new(p.map(|mut p| {
                p.latest_run = None;
                p
            }))),
            other => other,
        },
        _ => reply,
    }));
    let mut m = listed(&mut fake);
    let cmds = and_queued(
        with_pane(&mut m, |l, cx| search::open(l, cx, PASTED)),
        &mut m,
    );
    fake.serve(&mut m, cmds);
    let text = screen(&m);
    assert!(!text.contains("never run"), "{text}");
    assert!(text.contains("status unknown — search not found"), "{text}");
    let cmds = and_queued(
        with_pane(&mut m, |l, cx| search::open(l, cx, "s-1")),
        &mut m,
    );
    fake.serve(&mut m, cmds);
    let text = screen(&m);
    assert!(!text.contains("never run"), "{text}");
    assert!(
        text.contains("status unknown — malformed_response"),
        "{text}"
    );
    // A search that never ran says so.
    let cmds = and_queued(
        with_pane(&mut m, |l, cx| search::open(l, cx, "s-2")),
        &mut m,
    );
    fake.serve(&mut m, cmds);
    assert!(screen(&m).contains("never run — R runs it"));
}

#[test]
fn open_search_checks_the_id_before_sending() {
    let mut fake = Fake::new();
    let mut m = listed(&mut fake);
    key(&mut m, KeyCode::Char(':'));
    chars(&mut m, "open search 12; drop");
    let cmds = key(&mut m, KeyCode::Enter);
    assert!(api(&cmds).is_empty(), "nothing sent");
    assert!(m.state.known_searches.is_empty(), "nothing remembered");
    assert_eq!(m.panes.leads.open_id(), None);
    let last = m.toasts.items().last().expect("told");
    assert_eq!(last.title.as_str(), "No search opened");
    assert!(
        last.text.as_str().contains("\"12; drop\""),
        "{}",
        last.text.as_str()
    );
    assert!(is_search_id(PASTED) && !is_search_id("s-1"));
}

/// A filled create form, open.
fn create_form(fake: &mut Fake) -> Model {
    let mut m = listed(fake);
    key(&mut m, KeyCode::Char('n'));
    let f = m.panes.leads.form.as_mut().expect("form");
    f.form.set_value("title", "RevOps EU");
    f.form.set_value("intent", "Find RevOps leaders at EU SaaS");
    f.form.set_value("queries", "head of revops");
    f.form.set_value("reason", "They own the tooling budget");
    m
}

/// "min must not exceed max" shows at the minimum; lowering the maximum
/// (another field) clears it with that very key, not at the next Ctrl-S.
#[test]
fn a_fixed_size_range_clears_its_error_at_once() {
    let mut fake = Fake::new();
    let mut m = create_form(&mut fake);
    let f = m.panes.leads.form.as_mut().expect("form");
    f.form.set_value("size_min", "500");
    f.form.set_value("size_max", "50");
    assert!(ctrl(&mut m, 's').is_empty(), "refused");
    let error = |m: &Model| {
        let f = m.panes.leads.form.as_ref().expect("form");
        f.form
            .fields
            .iter()
            .find(|x| x.key == "size_min")
            .and_then(|x| x.error.clone())
    };
    assert_eq!(error(&m).as_deref(), Some("min must not exceed max"));
    let f = m.panes.leads.form.as_mut().expect("form");
    f.form.focus_key("size_max");
    key(&mut m, KeyCode::End);
    key(&mut m, KeyCode::Char('0'));
    key(&mut m, KeyCode::Char('0'));
    assert_eq!(error(&m), None, "5000 is above 500");
}

fn creates(fake: &Fake) -> usize {
    fake.count(|r| matches!(r, ApiRequest::CreateSearch(_)))
}

#[test]
fn an_uncertain_create_is_checked_and_asked_before_sending_again() {
    let mut fake = Fake::new();
    let mut m = create_form(&mut fake);
    let cmds = ctrl(&mut m, 's');
    let (id, req) = api(&cmds)[0].clone();
    fake.answer(&req);
    let check = reply(
        &mut m,
        id,
        ApiReply::SearchCreated(Box::new(Err(lost_after_sending()))),
    );
    assert_eq!(api(&check)[0].1, ApiRequest::ListSearches, "re-reads");
    let note = |m: &Model| {
        m.panes
            .leads
            .form
            .as_ref()
            .and_then(|f| f.form.note.clone())
            .unwrap_or_default()
    };
    assert!(
        note(&m).contains("may have reached the service"),
        "{}",
        note(&m)
    );
    fake.serve(&mut m, check);
    // A write that outlasted the timeout may still land: the list is read
    // again, further apart, before "most likely not created".
    for misses in 1..crate::logic::write::GOOD_READS {
        assert!(note(&m).contains("good reads"), "{}", note(&m));
        let sub = SubId::Pane(PaneSub::Leads(LeadsSub::CreateCheck(misses)));
        let scheduled = subscriptions(&m).into_iter().any(|s| s.id == sub);
        assert!(scheduled, "look {misses} is scheduled");
        let cmds = update(&mut m, Msg::SubFired(sub));
        assert_eq!(api(&cmds)[0].1, ApiRequest::ListSearches);
        fake.serve(&mut m, cmds);
    }
    assert!(note(&m).contains("most likely not created"), "{}", note(&m));
    assert!(
        new_search::recheck(&m.panes.leads.last_create).is_none(),
        "settled: no more looks"
    );
    // Ctrl-S asks first; only yes sends again.
    let cmds = ctrl(&mut m, 's');
    assert!(api(&cmds).is_empty(), "not sent again without asking");
    let Some(Overlay::Confirm(c)) = &m.overlay else {
        panic!("asks");
    };
    assert!(
        c.lines[0].starts_with("The last create request: timeout")
            && c.lines[1].contains("not found in the searches list after 5 good reads"),
        "{:?}",
        c.lines
    );
    let cmds = key(&mut m, KeyCode::Esc);
    assert!(api(&cmds).is_empty());
    ctrl(&mut m, 's');
    let cmds = key(&mut m, KeyCode::Char('y'));
    assert!(matches!(api(&cmds)[0].1, ApiRequest::CreateSearch(_)));
    fake.serve(&mut m, cmds);
    assert_eq!(creates(&fake), 2, "one more, after yes");
    assert_eq!(m.panes.leads.view, View::Search);
}

/// A lost create stays in question when its form is closed: reopened,
/// the form says so again and Ctrl-S asks before a second POST; the look
/// for it goes on meanwhile, and a search it finds then is announced and
/// listed without taking the user away from where they are.
#[test]
fn a_lost_create_is_still_in_question_after_its_form_is_closed() {
    let mut fake = Fake::new();
    let mut m = create_form(&mut fake);
    let cmds = ctrl(&mut m, 's');
    let (id, req) = api(&cmds)[0].clone();
    fake.answer(&req);
    let check = reply(
        &mut m,
        id,
        ApiReply::SearchCreated(Box::new(Err(lost_after_sending()))),
    );
    fake.serve(&mut m, check);
    key(&mut m, KeyCode::Esc);
    assert!(m.panes.leads.form.is_none(), "closed, kept as a draft");
    assert!(
        new_search::recheck(&m.panes.leads.last_create).is_some(),
        "still looked for"
    );
    // Reopened (the draft restored): it says so, and Ctrl-S asks.
    key(&mut m, KeyCode::Char('n'));
    key(&mut m, KeyCode::Char('y'));
    let note = m
        .panes
        .leads
        .form
        .as_ref()
        .and_then(|f| f.form.note.clone())
        .unwrap_or_default();
    assert!(note.contains("may have reached the service"), "{note}");
    assert!(
        api(&ctrl(&mut m, 's')).is_empty(),
        "not sent again by itself"
    );
    assert!(matches!(&m.overlay, Some(Overlay::Confirm(c)) if c.title == "Create again?"));
    key(&mut m, KeyCode::Esc);
    // Closed again; the service's list shows it at the next look.
    key(&mut m, KeyCode::Esc);
    m.overlay = None;
    let view = m.panes.leads.view;
    fake.tamper = Some(Box::new(|req, reply| match (req, reply) {
        (ApiRequest::ListSearches, ApiReply::Searches(Ok(Some(mut list)))) => {
            let mut made = fixtures::search("s-late", "RevOps EU", SearchKind::Recurring, 0);
            made.created_at = "2026-11-22T12:00:05Z".into();
            list.insert(0, made);
            ApiReply::Searches(Ok(Some(list)))
        }
        (_, reply) => reply,
    }));
    let sub = SubId::Pane(PaneSub::Leads(LeadsSub::CreateCheck(1)));
    let cmds = update(&mut m, Msg::SubFired(sub));
    fake.serve(&mut m, cmds);
    assert_eq!(m.panes.leads.view, view, "not taken elsewhere");
    assert!(
        m.panes
            .leads
            .list
            .rows
            .iter()
            .any(|r| r.search.search_id == "s-late")
    );
    assert!(!m.state.drafts.contains_key(DRAFT_KEY), "its draft goes");
    assert!(
        new_search::recheck(&m.panes.leads.last_create).is_none(),
        "settled"
    );
    assert_eq!(creates(&fake), 1);
}

/// The search a slow create made shows up only on a later look (the
/// service finished after the client gave up): it is found then and
/// opened, never reported "most likely not created".
#[test]
fn an_uncertain_create_found_on_a_later_look_is_opened() {
    let mut fake = Fake::new();
    let mut m = create_form(&mut fake);
    let cmds = ctrl(&mut m, 's');
    let (id, req) = api(&cmds)[0].clone();
    // The service received it; its answer was lost.
    fake.answer(&req);
    let check = reply(
        &mut m,
        id,
        ApiReply::SearchCreated(Box::new(Err(lost_after_sending()))),
    );
    fake.serve(&mut m, check);
    let shown = |m: &Model| {
        m.panes
            .leads
            .form
            .as_ref()
            .and_then(|f| f.form.note.clone())
            .unwrap_or_default()
    };
    assert!(shown(&m).contains("good reads"), "{}", shown(&m));
    fake.tamper = Some(Box::new(|req, reply| match (req, reply) {
        (ApiRequest::ListSearches, ApiReply::Searches(Ok(Some(mut list)))) => {
            let mut made = fixtures::search("s-slow", "RevOps EU", SearchKind::Recurring, 0);
            made.created_at = "2026-11-22T12:00:05Z".into();
            list.insert(0, made);
            ApiReply::Searches(Ok(Some(list)))
        }
        (_, reply) => reply,
    }));
    let sub = SubId::Pane(PaneSub::Leads(LeadsSub::CreateCheck(1)));
    let cmds = update(&mut m, Msg::SubFired(sub));
    fake.serve(&mut m, cmds);
    assert!(m.panes.leads.form.is_none(), "the form closes");
    assert_eq!(m.panes.leads.view, View::Search);
    assert_eq!(creates(&fake), 1, "never sent twice");
}

#[test]
fn an_uncertain_create_that_went_through_is_found_and_opened() {
    let mut fake = Fake::new();
    let mut m = create_form(&mut fake);
    // The service made it: the list shows it from now on.
    fake.tamper = Some(Box::new(|req, reply| match (req, reply) {
        (ApiRequest::ListSearches, ApiReply::Searches(Ok(Some(mut list)))) => {
            let mut made = fixtures::search("s-new", "RevOps EU", SearchKind::Recurring, 0);
            made.created_at = "2026-11-22T12:00:05Z".into();
            list.insert(0, made);
            ApiReply::Searches(Ok(Some(list)))
        }
        (_, reply) => reply,
    }));
    let cmds = ctrl(&mut m, 's');
    let (id, _) = api(&cmds)[0].clone();
    let check = reply(
        &mut m,
        id,
        ApiReply::SearchCreated(Box::new(Err(lost_after_sending()))),
    );
    fake.serve(&mut m, check);
    assert!(m.panes.leads.form.is_none(), "the form closes");
    assert_eq!(m.panes.leads.open_id(), Some("s-new"));
    assert!(!m.state.drafts.contains_key(DRAFT_KEY));
    assert_eq!(creates(&fake), 0, "never sent twice");
}

/// A create answered 502 after the service made the search ("r retries"
/// used to follow, and Ctrl-S made a second search): it goes to the lost
/// create check, never says "r retries", and Ctrl-S asks before a second
/// create.
#[test]
fn a_create_answered_502_is_checked_not_retried() {
    let mut fake = Fake::new();
    let mut m = create_form(&mut fake);
    let cmds = ctrl(&mut m, 's');
    let (id, _) = api(&cmds)[0].clone();
    let check = reply(
        &mut m,
        id,
        ApiReply::SearchCreated(Box::new(Err(bad_gateway()))),
    );
    assert_eq!(api(&check)[0].1, ApiRequest::ListSearches, "checked");
    let all: Vec<String> = m.toasts.log().map(|t| t.text.as_str().to_owned()).collect();
    assert!(!all.iter().any(|t| t.contains("r retries")), "{all:?}");
    let t = m.toasts.items().last().expect("told");
    assert_eq!(t.title.as_str(), "Search may have been created");
    assert!(
        t.text.as_str().contains("bad_gateway"),
        "{}",
        t.text.as_str()
    );
    fake.serve(&mut m, check);
    let u = m
        .panes
        .leads
        .last_create
        .uncertain
        .as_ref()
        .expect("in question");
    assert_eq!(u.check.absent, 1, "one good read so far");
    let cmds = ctrl(&mut m, 's');
    assert!(api(&cmds).is_empty(), "no second create without a yes");
    assert!(matches!(&m.overlay, Some(Overlay::Confirm(c)) if c.title == "Create again?"));
    assert_eq!(creates(&fake), 0);
}

/// When the searches cannot be listed (the list route answers 404), a lost
/// create cannot be checked: the verdict says so, and Ctrl-S still asks.
#[test]
fn a_lost_create_with_no_list_route_says_no_check_is_possible() {
    let mut fake = Fake::new();
    let mut m = create_form(&mut fake);
    fake.list_route = false;
    let cmds = ctrl(&mut m, 's');
    let (id, _) = api(&cmds)[0].clone();
    let check = reply(
        &mut m,
        id,
        ApiReply::SearchCreated(Box::new(Err(bad_gateway()))),
    );
    fake.serve(&mut m, check);
    let u = m
        .panes
        .leads
        .last_create
        .uncertain
        .as_ref()
        .expect("in question");
    assert!(
        matches!(
            u.check.verdict,
            Some(crate::logic::write::Verdict::NoCheck(_))
        ),
        "{u:?}"
    );
    assert!(
        new_search::recheck(&m.panes.leads.last_create).is_none(),
        "no more reads"
    );
    let note = m
        .panes
        .leads
        .form
        .as_ref()
        .and_then(|f| f.form.note.clone())
        .unwrap_or_default();
    assert!(
        note.contains("does not list searches, so Outpost cannot tell"),
        "{note}"
    );
    ctrl(&mut m, 's');
    let Some(Overlay::Confirm(c)) = &m.overlay else {
        panic!("asks");
    };
    assert!(c.lines[1].contains("Outpost cannot tell"), "{:?}", c.lines);
    assert_eq!(creates(&fake), 0);
}

#[test]
fn a_refused_create_says_why_in_plain_words() {
    let mut fake = Fake::new();
    fake.tamper = Some(Box::new(|req, reply| match req {
        ApiRequest::CreateSearch(_) => ApiReply::SearchCreated(Box::new(Err(service_error(
            403,
            r#"{"error":{"code":"forbidden","message":"Lead creation is not enabled"}}"#,
        )))),
        _ => reply,
    }));
    let mut m = create_form(&mut fake);
    let cmds = ctrl(&mut m, 's');
    fake.serve(&mut m, cmds);
    let note = m
        .panes
        .leads
        .form
        .as_ref()
        .and_then(|f| f.form.note.clone())
        .unwrap_or_default();
    assert!(
        note.contains("not allowed to create Lead Finder searches")
            && note.contains("Lead creation is not enabled"),
        "{note}"
    );
    // Known from the Profile: the form says so when it opens.
    key(&mut m, KeyCode::Esc);
    m.panes.leads.set_can_create_leads(Some(false));
    key(&mut m, KeyCode::Char('n'));
    if matches!(m.overlay, Some(Overlay::Confirm(_))) {
        key(&mut m, KeyCode::Char('n'));
    }
    let note = m
        .panes
        .leads
        .form
        .as_ref()
        .and_then(|f| f.form.note.clone())
        .unwrap_or_default();
    assert!(
        note.contains("may not create Lead Finder searches"),
        "{note}"
    );
    // A Lead Finder body: its message, what to try, what to do.
    let lf = service_error(
        422,
        r#"{"error":"unsupported","message":"This source cannot search that region","code":"geo","alternatives":["US","GB"],"action":{"label":"See coverage","href":"/docs/coverage"}}"#,
    );
    let text = new_search::refusal(&lf, None).unwrap_or_default();
    assert!(
        text.contains("This source cannot search that region")
            && text.contains("Try instead: US, GB")
            && text.contains("See coverage (/docs/coverage)"),
        "{text}"
    );
}

/// A write answered 502 after the service acted, as the client marks it.
fn bad_gateway() -> crate::api::ApiError {
    let mut e = crate::api::error::ServiceError::from_body(
        502,
        br#"{"error":{"code":"bad_gateway","message":"upstream answer lost"}}"#,
        None,
    );
    e.may_have_reached = true;
    crate::api::ApiError::Service(Box::new(e))
}

/// The run check's subscription of `search`, after `reads` reads.
fn run_check(search: &str, reads: u32) -> SubId {
    SubId::Pane(PaneSub::Leads(LeadsSub::RunCheck(search.into(), reads)))
}

/// Fires the run check of `search` until it settles; returns the reads.
fn settle_run_check(m: &mut Model, fake: &mut Fake, search: &str) -> u32 {
    for _ in 0..20 {
        let Some(u) = m.panes.leads.uncertain_runs.get(search) else {
            return 0;
        };
        if u.check.settled() {
            return u.check.absent + u.check.failed;
        }
        let sub = run_check(search, u.check.absent + u.check.failed);
        assert!(
            subscriptions(m).into_iter().any(|s| s.id == sub),
            "the next read is scheduled"
        );
        let cmds = update(m, Msg::SubFired(sub));
        fake.serve(m, cmds);
    }
    panic!("the check never settles");
}

/// R whose answer was lost (502 after sending): the search's run status is
/// read on the check's schedule; R is refused while it reads, then asks
/// with what the check saw — never "r retries".
#[test]
fn an_uncertain_run_is_checked_refused_while_checked_then_asked() {
    let mut fake = Fake::new();
    let mut m = opened(&mut fake);
    let runs = |fake: &Fake| fake.count(|r| matches!(r, ApiRequest::RunSearch { .. }));
    let cmds = key(&mut m, KeyCode::Char('R'));
    let (id, _) = api(&cmds)[0].clone();
    // The service never got it: the run status stays as it was.
    let reread = reply(
        &mut m,
        id,
        ApiReply::RunStarted(Box::new(Err(bad_gateway()))),
    );
    let t = m.toasts.items().last().expect("told");
    assert_eq!(t.title.as_str(), "Run may have reached the service");
    assert!(
        !t.text.as_str().contains("r retries"),
        "{}",
        t.text.as_str()
    );
    assert!(
        api(&reread)
            .iter()
            .any(|(_, r)| matches!(r, ApiRequest::GetSearch { id, .. } if id == "s-3")),
        "reads the search's run status"
    );
    fake.serve(&mut m, reread);
    // Checking: R sends nothing and asks nothing.
    let cmds = key(&mut m, KeyCode::Char('R'));
    assert!(api(&cmds).is_empty(), "not sent while checked");
    assert!(m.overlay.is_none(), "not asked while checked");
    let t = m.toasts.items().last().expect("told");
    assert_eq!(t.title.as_str(), "Not sent: still checking");
    assert!(
        t.text.as_str().contains("1 of 5 good reads"),
        "{}",
        t.text.as_str()
    );
    assert_eq!(settle_run_check(&mut m, &mut fake, "s-3"), 5);
    assert_eq!(runs(&fake), 0, "never sent again by itself");
    let cmds = key(&mut m, KeyCode::Char('R'));
    assert!(api(&cmds).is_empty());
    let Some(Overlay::Confirm(c)) = &m.overlay else {
        panic!("asks");
    };
    assert_eq!(c.title, "Run again?");
    assert!(
        c.lines[0].contains("(bad_gateway)")
            && c.lines[0].contains("not found in the search's run status after 5 good reads"),
        "{:?}",
        c.lines
    );
    let cmds = key(&mut m, KeyCode::Char('y'));
    fake.serve(&mut m, cmds);
    assert_eq!(runs(&fake), 1, "sent after yes");
}

/// A lost run answer whose run did start: the check's read finds the run
/// live again and settles it; R then says it runs.
#[test]
fn an_uncertain_run_that_started_is_found_by_the_check() {
    let mut fake = Fake::new();
    let mut m = opened(&mut fake);
    let cmds = key(&mut m, KeyCode::Char('R'));
    let (id, req) = api(&cmds)[0].clone();
    fake.answer(&req);
    let reread = reply(
        &mut m,
        id,
        ApiReply::RunStarted(Box::new(Err(bad_gateway()))),
    );
    fake.serve(&mut m, reread);
    assert!(m.panes.leads.uncertain_runs.is_empty(), "settled: found");
    assert!(
        m.toasts
            .items()
            .iter()
            .any(|t| t.title.as_str() == "Run started"
                && t.text
                    .as_str()
                    .contains("the search shows a new run (queued)")),
        "{:?}",
        m.toasts.items()
    );
    assert!(api(&key(&mut m, KeyCode::Char('R'))).is_empty());
    assert!(m.overlay.is_none(), "nothing to ask: it runs");
    assert_eq!(
        m.toasts.items().last().map(|t| t.title.as_str()),
        Some("Already running")
    );
}

/// A failed read of the run status is no evidence: ten of them say
/// "could not check", never "not found", and R then asks.
#[test]
fn failed_reads_of_a_lost_run_never_count_as_checks() {
    let mut fake = Fake::new();
    let mut m = opened(&mut fake);
    let cmds = key(&mut m, KeyCode::Char('R'));
    let (id, _) = api(&cmds)[0].clone();
    fake.tamper = Some(Box::new(|req, r| match req {
        ApiRequest::GetSearch { page, .. } if page.limit == Some(1) => {
            ApiReply::SearchPage(Box::new(Err(service_error(
                500,
                r#"{"error":{"code":"internal_error","message":"boom"}}"#,
            ))))
        }
        _ => r,
    }));
    let reread = reply(
        &mut m,
        id,
        ApiReply::RunStarted(Box::new(Err(bad_gateway()))),
    );
    fake.serve(&mut m, reread);
    assert_eq!(settle_run_check(&mut m, &mut fake, "s-3"), 10);
    let u = &m.panes.leads.uncertain_runs["s-3"];
    assert_eq!(u.check.absent, 0, "no failed read counted");
    key(&mut m, KeyCode::Char('R'));
    let Some(Overlay::Confirm(c)) = &m.overlay else {
        panic!("asks");
    };
    assert!(
        c.lines[0].contains("could not check: 10 reads failed")
            && !c.lines[0].contains("most likely"),
        "{:?}",
        c.lines
    );
}

/// A run the service refused (4xx) started nothing: the notice gives its
/// code and names the run key — never "r retries" (r refreshes).
#[test]
fn a_refused_run_names_the_run_key_not_refresh() {
    let mut fake = Fake::new();
    fake.tamper = Some(Box::new(|req, r| match req {
        ApiRequest::RunSearch { .. } => ApiReply::RunStarted(Box::new(Err(service_error(
            422,
            r#"{"error":"source_busy","message":"The source is busy","code":"busy","retryable":true}"#,
        )))),
        _ => r,
    }));
    let mut m = opened(&mut fake);
    let cmds = key(&mut m, KeyCode::Char('R'));
    fake.serve(&mut m, cmds);
    let t = m.toasts.items().last().expect("told");
    assert!(
        t.title.as_str().contains("starting the run"),
        "{}",
        t.title.as_str()
    );
    assert!(
        t.text.as_str().contains("R runs it again") && !t.text.as_str().contains("r retries"),
        "{}",
        t.text.as_str()
    );
    assert!(
        m.panes.leads.uncertain_runs.is_empty(),
        "nothing in question"
    );
}

#[test]
fn an_uncertain_run_all_reads_the_searches_and_warns_before_sending_again() {
    let mut fake = Fake::new();
    let mut m = listed(&mut fake);
    ctrl(&mut m, 'r');
    let cmds = key(&mut m, KeyCode::Char('y'));
    let (id, _) = api(&cmds)[0].clone();
    let reread = reply(
        &mut m,
        id,
        ApiReply::RunAll(Box::new(Err(lost_after_sending()))),
    );
    assert_eq!(api(&reread)[0].1, ApiRequest::ListSearches);
    fake.serve(&mut m, reread);
    assert_eq!(
        fake.count(|r| matches!(r, ApiRequest::GetSearch { page, .. } if page.limit == Some(1))),
        5,
        "the statuses are read again (2 at first, then all 3)"
    );
    // Checking the searches' runs: Ctrl-R sends nothing, asks nothing.
    let cmds = ctrl(&mut m, 'r');
    assert!(api(&cmds).is_empty());
    assert!(m.overlay.is_none(), "not asked while checked");
    assert_eq!(
        m.toasts.items().last().map(|t| t.title.as_str()),
        Some("Not sent: still checking")
    );
    for _ in 0..20 {
        let Some(u) = m.panes.leads.run_all_uncertain.as_ref() else {
            panic!("in question");
        };
        if u.check.settled() {
            break;
        }
        let reads = u.check.absent + u.check.failed;
        let sub = SubId::Pane(PaneSub::Leads(LeadsSub::RunAllCheck(reads)));
        assert!(subscriptions(&m).into_iter().any(|s| s.id == sub));
        let cmds = update(&mut m, Msg::SubFired(sub));
        fake.serve(&mut m, cmds);
    }
    assert_eq!(
        fake.count(|r| matches!(r, ApiRequest::RunAll)),
        0,
        "never sent again by itself"
    );
    let cmds = ctrl(&mut m, 'r');
    assert!(api(&cmds).is_empty());
    let Some(Overlay::Confirm(c)) = &m.overlay else {
        panic!("asks");
    };
    assert!(
        c.lines[0].contains("The last run-all (timeout)")
            && c.lines[0].contains("not found in the searches' runs after 5 good reads"),
        "{:?}",
        c.lines
    );
    assert!(
        c.lines[1].contains("of the 3 searches listed"),
        "{:?}",
        c.lines
    );
}

/// A lost run-all whose runs did start: a search showing a run id it did
/// not show before settles it; the next run-all still asks, saying so.
#[test]
fn an_uncertain_run_all_that_went_through_is_found() {
    let mut fake = Fake::new();
    let mut m = listed(&mut fake);
    ctrl(&mut m, 'r');
    let cmds = key(&mut m, KeyCode::Char('y'));
    let (id, _) = api(&cmds)[0].clone();
    fake.tamper = Some(Box::new(|req, r| match (req, r) {
        (ApiRequest::ListSearches, ApiReply::Searches(Ok(Some(mut list)))) => {
            for s in &mut list {
                s.last_run_id = Some(format!("run-new-{}", s.search_id));
            }
            ApiReply::Searches(Ok(Some(list)))
        }
        (_, r) => r,
    }));
    let reread = reply(&mut m, id, ApiReply::RunAll(Box::new(Err(bad_gateway()))));
    fake.serve(&mut m, reread);
    let u = m.panes.leads.run_all_uncertain.as_ref().expect("kept");
    assert!(
        matches!(
            &u.check.verdict,
            Some(crate::logic::write::Verdict::Found(_))
        ),
        "{u:?}"
    );
    ctrl(&mut m, 'r');
    let Some(Overlay::Confirm(c)) = &m.overlay else {
        panic!("asks");
    };
    assert!(
        c.lines[0].contains("It went: 3 searches show a new run"),
        "{:?}",
        c.lines
    );
}

#[test]
fn an_uncertain_add_stops_reads_the_roster_and_asks_before_sending_again() {
    let mut fake = Fake::new();
    let mut m = opened(&mut fake);
    for _ in 0..3 {
        key(&mut m, KeyCode::Char(' '));
    }
    let cmds = key(&mut m, KeyCode::Char('c'));
    fake.serve(&mut m, cmds);
    let cmds = key(&mut m, KeyCode::Enter);
    let (id, _) = api(&cmds)[0].clone();
    let roster = reply(&mut m, id, ApiReply::LeadsAdded(Err(lost_after_sending())));
    assert!(
        matches!(api(&roster)[0].1, ApiRequest::GetCampaign { .. }),
        "the roster is read back"
    );
    fake.serve(&mut m, roster);
    let Some(Dialog::Campaign(d)) = &m.panes.leads.dialog else {
        panic!("dialog");
    };
    assert_eq!(d.stage, Stage::Done);
    let error = d
        .job
        .as_ref()
        .and_then(|j| j.error.clone())
        .unwrap_or_default();
    assert!(
        error.contains("(3 leads) may have reached the service (timeout")
            && error.contains(
                "Sending them again is safe: the service drops leads the campaign already holds"
            ),
        "{error}"
    );
    assert_eq!(
        fake.count(|r| matches!(r, ApiRequest::AddLeads { .. })),
        0,
        "no more chunks"
    );
    // The same leads to the same campaign: asked first.
    key(&mut m, KeyCode::Enter);
    let cmds = key(&mut m, KeyCode::Char('c'));
    fake.serve(&mut m, cmds);
    let cmds = key(&mut m, KeyCode::Enter);
    assert!(api(&cmds).is_empty());
    let Some(Overlay::Confirm(c)) = &m.overlay else {
        panic!("asks");
    };
    assert_eq!(c.title, "Add again?");
    assert!(
        c.lines[1].starts_with("Sending them again is safe"),
        "{:?}",
        c.lines
    );
    let cmds = key(&mut m, KeyCode::Char('y'));
    assert!(matches!(api(&cmds)[0].1, ApiRequest::AddLeads { .. }));
}

/// A search with no results offers no key that acts on results: no
/// `c add…`, no `E export` (and `E` says there is nothing to export).
#[test]
fn a_search_with_no_results_offers_no_add_or_export() {
    let mut fake = Fake::new();
    let mut m = listed(&mut fake);
    key(&mut m, KeyCode::Down);
    let cmds = key(&mut m, KeyCode::Enter);
    fake.serve(&mut m, cmds);
    let open = m.panes.leads.open.as_ref().expect("a search open");
    assert_eq!(
        (open.search.search_id.as_str(), open.window.total),
        ("s-2", Some(0))
    );
    let hints = crate::app::hints(&m);
    for gone in [Action::AddToCampaign, Action::Export, Action::ToggleMark] {
        assert!(hints.iter().all(|(a, _)| *a != gone), "{gone:?}: {hints:?}");
    }
    assert!(
        hints.iter().any(|(a, _)| *a == Action::RunSearch),
        "{hints:?}"
    );
    key(&mut m, KeyCode::Char('E'));
    assert!(m.panes.leads.dialog.is_none());
    assert_eq!(
        m.toasts.items().last().map(|t| t.title.as_str()),
        Some("Nothing to export")
    );
}

#[test]
fn c_with_nothing_selected_adds_the_lead_under_the_cursor() {
    let mut fake = Fake::new();
    let mut m = opened(&mut fake);
    assert!(
        crate::app::hints(&m)
            .iter()
            .any(|(a, l)| *a == Action::AddToCampaign && *l == "add this lead to a campaign")
    );
    let cmds = key(&mut m, KeyCode::Char('c'));
    fake.serve(&mut m, cmds);
    let text = screen_rows(&m, 100, 30).join("\n");
    assert!(
        text.contains("Adding the lead under the cursor (Ana López) to a draft campaign."),
        "{text}"
    );
    let cmds = key(&mut m, KeyCode::Enter);
    let Some((_, ApiRequest::AddLeads { leads, .. })) = api(&cmds).into_iter().next() else {
        panic!("adds: {cmds:?}");
    };
    assert_eq!(leads.len(), 1);
    assert_eq!(leads[0].name.as_deref(), Some("Ana López"));
}

#[test]
fn slash_filters_the_searches_as_you_type_and_letters_never_act() {
    let mut fake = Fake::new();
    let mut m = listed(&mut fake);
    let before = fake.log.len();
    key(&mut m, KeyCode::Char('/'));
    // r refreshes, e opens, n creates, R runs: here they are typed.
    for c in "rev".chars() {
        let cmds = key(&mut m, KeyCode::Char(c));
        assert!(api(&cmds).is_empty(), "{c} typed, nothing sent");
    }
    let l = &m.panes.leads.list;
    assert_eq!(l.shown().len(), 1, "narrowed live");
    assert_eq!(l.selected_id().as_deref(), Some("s-3"));
    key(&mut m, KeyCode::Char('n'));
    assert_eq!(m.panes.leads.view, View::Searches, "n was typed");
    assert_eq!(m.panes.leads.list.shown().len(), 0);
    key(&mut m, KeyCode::Backspace);
    assert_eq!(fake.log.len(), before, "nothing sent while typing");
    let text = screen(&m);
    assert!(text.contains("Lead Finder searches (1 of 3)"), "{text}");
    assert!(text.contains("/ rev"), "{text}");
    // Enter keeps the query and gives the keys back; Esc clears it.
    key(&mut m, KeyCode::Enter);
    assert_eq!(m.panes.leads.list.shown().len(), 1);
    let cmds = key(&mut m, KeyCode::Enter);
    fake.serve(&mut m, cmds);
    assert_eq!(m.panes.leads.open_id(), Some("s-3"));
    key(&mut m, KeyCode::Esc);
    key(&mut m, KeyCode::Esc);
    assert!(m.panes.leads.list.query.is_none());
    assert_eq!(m.panes.leads.list.shown().len(), 3);
}

#[test]
fn text_typed_in_the_filter_builder_filters_the_results_live() {
    let mut fake = Fake::new();
    let mut m = opened(&mut fake);
    let cmds = key(&mut m, KeyCode::Char('/'));
    fake.serve(&mut m, cmds);
    chars(&mut m, "revops");
    let live = SubId::Pane(PaneSub::Leads(LeadsSub::LiveFilter));
    assert!(subscriptions(&m).iter().any(|s| s.id == live));
    let cmds = update(&mut m, Msg::SubFired(live.clone()));
    let reqs = api(&cmds);
    assert!(
        matches!(&reqs[0].1, ApiRequest::QueryResults { query, .. } if query.q.as_deref() == Some("revops")),
        "{reqs:?}"
    );
    fake.serve(&mut m, cmds);
    assert!(
        matches!(m.panes.leads.dialog, Some(Dialog::Filter(_))),
        "the builder stays open"
    );
    assert!(!subscriptions(&m).iter().any(|s| s.id == live));
    let o = m.panes.leads.open.as_ref().expect("open");
    assert_eq!(o.filter.q, "revops");
    assert_eq!(o.window.total, Some(1000));
    let text = screen(&m);
    assert!(text.contains("1,000 results match as you type"), "{text}");
    // Esc now keeps nothing: what was typed is applied.
    key(&mut m, KeyCode::Esc);
    assert!(m.panes.leads.filter_edits.is_empty());
}

#[test]
fn whole_numbers_in_the_enrichment_show_as_integers() {
    let mut fake = Fake::new();
    fake.tamper = Some(Box::new(|_, reply| match reply {
        ApiReply::Enrichment(r) => ApiReply::Enrichment(Box::new(r.map(|mut e| {
            e.enrichment_profile.company =
                serde_json::json!({"foundedYear": 2009.0, "revenueMusd": 12.5});
            e
        }))),
        other => other,
    }));
    let mut m = opened(&mut fake);
    let cmds = key(&mut m, KeyCode::Enter);
    fake.serve(&mut m, cmds);
    key(&mut m, KeyCode::Char('l'));
    let text = screen_rows(&m, 200, 50).join("\n");
    assert!(text.contains("2009"), "{text}");
    assert!(!text.contains("2009.0"), "{text}");
    assert!(text.contains("12.5"), "{text}");
}

#[test]
fn an_error_says_its_code_once() {
    let e = crate::api::ApiError::Timeout {
        method: "GET".into(),
        after: std::time::Duration::from_secs(15),
        may_have_reached: false,
    };
    assert_eq!(error_text(&e), "timeout: no answer within 15s");
    let e = service_error(
        500,
        r#"{"error":{"code":"internal_error","message":"boom"}}"#,
    );
    assert_eq!(error_text(&e), "internal_error: boom");
}

#[test]
fn a_remapped_key_is_shown_as_remapped_in_the_dialogs() {
    let mut fake = Fake::new();
    let mut m = opened(&mut fake);
    let over = |scope: &str, key: &str, action: &str| crate::config::KeyOverride {
        scope: scope.into(),
        key: key.into(),
        action: action.into(),
        origin: "test.toml".into(),
    };
    m.keymap = crate::app::keymap::Keymap::with_overrides(&[
        over("global", "r", "none"),
        over("global", "f5", "refresh"),
        over("global", "k", "none"),
        over("global", "j", "none"),
    ])
    .expect("keymap");
    let cmds = key(&mut m, KeyCode::Char('c'));
    fake.serve(&mut m, cmds);
    let text = screen_rows(&m, 100, 30).join("\n");
    assert!(
        text.contains("↑/↓ choose") && text.contains("F5 reload"),
        "{text}"
    );
    assert!(!text.contains(" r reload"), "{text}");
    // And it works: F5 reads the campaigns again.
    let cmds = key(&mut m, KeyCode::F(5));
    assert_eq!(api(&cmds)[0].1, ApiRequest::ListCampaigns);
}

/// The leads shown in the open search's loaded rows.
fn shown_names(m: &Model) -> Vec<String> {
    m.panes
        .leads
        .open
        .as_ref()
        .map(|o| o.window.loaded_iter().map(result_name).collect())
        .unwrap_or_default()
}

#[test]
fn a_page_asked_for_before_the_search_was_reopened_is_dropped() {
    let mut fake = Fake::new();
    let mut m = listed(&mut fake);
    // Opened, left before its first page answers, another opened, then
    // the first opened again: its first page is asked for again.
    let first = key(&mut m, KeyCode::Enter);
    let (stale, _) = api(&first)[0].clone();
    key(&mut m, KeyCode::Esc);
    key(&mut m, KeyCode::Char('j'));
    let other = key(&mut m, KeyCode::Enter);
    fake.serve(&mut m, other);
    key(&mut m, KeyCode::Esc);
    key(&mut m, KeyCode::Char('k'));
    let again = key(&mut m, KeyCode::Enter);
    assert_eq!(m.panes.leads.open_id(), Some("s-3"));
    assert!(
        api(&again)
            .iter()
            .any(|(_, r)| matches!(r, ApiRequest::GetSearch { id, .. } if id == "s-3")),
        "read again: {again:?}"
    );
    // The answer to the first open arrives late, with rows since gone.
    let mut page = fixtures::search_page(&fake.search("s-3"), 2000, 0, 100);
    for r in &mut page.results {
        r.entity_person = "Left long ago".into();
        r.canonical_lead = None;
    }
    reply(&mut m, stale, ApiReply::SearchPage(Box::new(Ok(page))));
    assert!(
        !shown_names(&m).iter().any(|n| n == "Left long ago"),
        "the stale page is not shown"
    );
    fake.serve(&mut m, again);
    assert!(!shown_names(&m).is_empty());
    assert!(!shown_names(&m).iter().any(|n| n == "Left long ago"));
}

#[test]
fn a_campaign_list_asked_for_by_a_closed_picker_is_dropped() {
    let mut fake = Fake::new();
    let mut m = opened(&mut fake);
    let first = key(&mut m, KeyCode::Char('c'));
    let (stale, _) = api(&first)[0].clone();
    key(&mut m, KeyCode::Esc);
    assert!(m.panes.leads.dialog.is_none());
    let again = key(&mut m, KeyCode::Char('c'));
    let mut old = fake.campaigns();
    for c in &mut old {
        c.name = format!("Stale {}", c.name);
    }
    reply(&mut m, stale, ApiReply::Campaigns(Ok(Some(old))));
    let text = screen_rows(&m, 100, 30).join("\n");
    assert!(!text.contains("Stale"), "{text}");
    assert!(text.contains("loading campaigns"), "still loading: {text}");
    fake.serve(&mut m, again);
    let Some(Dialog::Campaign(d)) = &m.panes.leads.dialog else {
        panic!("dialog");
    };
    assert!(d.campaigns.iter().all(|c| !c.name.starts_with("Stale")));
    assert_eq!(d.drafts().len(), 2);
}

#[test]
fn what_is_in_flight_is_read_from_the_request_table() {
    let mut fake = Fake::new();
    let mut m = opened(&mut fake);
    // A run request on its way: the run panel says so, and `R` again
    // sends nothing more.
    let cmds = key(&mut m, KeyCode::Char('R'));
    assert_eq!(api(&cmds).len(), 1);
    assert!(starting(&m.requests, "s-3"));
    assert!(
        screen_rows(&m, 100, 30)
            .join("\n")
            .contains("starting run…")
    );
    assert!(api(&key(&mut m, KeyCode::Char('R'))).is_empty());
    // Forgotten (the user moved on): nothing is in flight any more.
    m.requests
        .forget::<LeadsModel>(|p| matches!(p, Purpose::Run(_)));
    assert!(!starting(&m.requests, "s-3"));
    assert!(
        !screen_rows(&m, 100, 30)
            .join("\n")
            .contains("starting run…")
    );
}

#[test]
fn a_new_draft_campaign_is_made_in_the_campaigns_form_and_the_leads_go_into_it() {
    let mut fake = Fake::new();
    let mut m = opened(&mut fake);
    for _ in 0..3 {
        key(&mut m, KeyCode::Char(' '));
    }
    let cmds = key(&mut m, KeyCode::Char('c'));
    fake.serve(&mut m, cmds);
    // The last row of the picker.
    for _ in 0..5 {
        key(&mut m, KeyCode::Char('j'));
    }
    let text = screen_rows(&m, 100, 30).join("\n");
    assert!(text.contains("+ new draft campaign…"), "{text}");
    let cmds = key(&mut m, KeyCode::Enter);
    assert_eq!(m.pane, Pane::Campaigns, "the Campaigns pane's form");
    assert_eq!(m.panes.campaigns.view, crate::app::campaigns::View::Create);
    fake.serve(&mut m, cmds);
    let f = m.panes.campaigns.create.as_mut().expect("form");
    f.form.set_value("name", "Fresh from Leads");
    let cmds = ctrl(&mut m, 's');
    assert!(
        api(&cmds).iter().any(
            |(_, r)| matches!(r, ApiRequest::CreateCampaign(c) if c.name == "Fresh from Leads")
        ),
        "{cmds:?}"
    );
    fake.serve(&mut m, cmds);
    // Back on the Leads pane, the leads went into the new campaign.
    assert_eq!(m.pane, Pane::Leads);
    let Some(Dialog::Campaign(d)) = &m.panes.leads.dialog else {
        panic!("dialog");
    };
    let job = d.job.as_ref().expect("the add continued");
    assert_eq!(d.stage, Stage::Done);
    assert_eq!(job.campaign.name, "Fresh from Leads");
    assert_eq!((job.imported, job.roster_after), (3, Some(3)));
    assert_eq!(fake.rosters.get("c-new-1"), Some(&3));
    // The Campaigns pane's list shows its roster as it is now.
    assert!(m.panes.campaigns.list.loaded);
    let row = m
        .panes
        .campaigns
        .list
        .rows
        .iter()
        .find(|c| c.id == "c-new-1");
    assert_eq!(row.map(|c| c.stats.total), Some(3));
    // Handed over once: showing the pane again adds nothing more.
    key(&mut m, KeyCode::Enter);
    fixtures::drive::switch(&mut m, Pane::Campaigns);
    let cmds = fixtures::drive::switch(&mut m, Pane::Leads);
    assert!(
        !api(&cmds)
            .iter()
            .any(|(_, r)| matches!(r, ApiRequest::AddLeads { .. }))
    );
    // Remembered for the Campaigns pane's registry.
    assert!(m.state.known_campaigns.iter().any(|k| k.id == "c-new-1"));
}

#[test]
fn esc_in_the_campaigns_form_returns_to_the_picker_with_nothing_added() {
    let mut fake = Fake::new();
    let mut m = opened(&mut fake);
    let cmds = key(&mut m, KeyCode::Char('c'));
    fake.serve(&mut m, cmds);
    for _ in 0..5 {
        key(&mut m, KeyCode::Char('j'));
    }
    let cmds = key(&mut m, KeyCode::Enter);
    fake.serve(&mut m, cmds);
    assert_eq!(m.pane, Pane::Campaigns);
    let cmds = key(&mut m, KeyCode::Esc);
    fake.serve(&mut m, cmds);
    assert_eq!(m.pane, Pane::Leads);
    let Some(Dialog::Campaign(d)) = &m.panes.leads.dialog else {
        panic!("the picker stays");
    };
    assert_eq!(d.stage, Stage::Pick);
    assert_eq!(fake.count(|r| matches!(r, ApiRequest::AddLeads { .. })), 0);
}

#[test]
fn adding_to_a_campaign_remembers_it_for_the_campaigns_registry() {
    let mut fake = Fake::new();
    let mut m = opened(&mut fake);
    let cmds = key(&mut m, KeyCode::Char('c'));
    fake.serve(&mut m, cmds);
    let cmds = key(&mut m, KeyCode::Enter);
    assert!(
        cmds.iter().any(|c| matches!(c, Cmd::SaveState(_))),
        "saved: {cmds:?}"
    );
    let known = m.state.known_campaigns.iter().find(|k| k.id == "c-1");
    assert_eq!(
        known.map(|k| (k.label.as_str(), k.source.as_str())),
        Some(("EU RevOps — email", "leads"))
    );
}

/// Redeems a code on the Profile pane whose answer says whether the
/// account may create leads; back on the Leads pane afterwards.
fn redeem_access(fake: &mut Fake, m: &mut Model, can_create: bool) {
    fake.tamper = Some(Box::new(move |req, reply| match (req, reply) {
        (ApiRequest::Redeem { .. }, ApiReply::Redeemed(r)) => {
            let mut pass = (*r).expect("a pass");
            if let Some(a) = pass.access.as_mut() {
                a.can_create_leads = can_create;
            }
            ApiReply::Redeemed(Box::new(Ok(pass)))
        }
        (ApiRequest::CreateSearch(_), _) => ApiReply::SearchCreated(Box::new(Err(service_error(
            403,
            r#"{"error":{"code":"forbidden","message":"Lead creation is not enabled"}}"#,
        )))),
        (_, reply) => reply,
    }));
    let back = m.pane;
    let cmds = fixtures::drive::switch(m, Pane::Profile);
    fake.serve(m, cmds);
    key(m, KeyCode::Char(':'));
    chars(m, "redeem DEMO-PASS-1");
    let cmds = key(m, KeyCode::Enter);
    fake.serve(m, cmds);
    let cmds = fixtures::drive::switch(m, back);
    fake.serve(m, cmds);
}

fn form_note(m: &Model) -> String {
    m.panes
        .leads
        .form
        .as_ref()
        .and_then(|f| f.form.note.clone())
        .unwrap_or_default()
}

#[test]
fn what_the_profile_learns_of_the_account_reaches_the_create_form() {
    let mut fake = Fake::new();
    let mut m = create_form(&mut fake);
    assert!(form_note(&m).is_empty(), "not known yet: no warning");
    // The form is open when the Profile learns the account cannot create.
    redeem_access(&mut fake, &mut m, false);
    assert_eq!(m.panes.leads.can_create_leads, Some(false));
    assert!(
        form_note(&m).contains("may not create Lead Finder searches"),
        "warned up front: {}",
        form_note(&m)
    );
    // The refusal explains itself with what the account's access says.
    let cmds = ctrl(&mut m, 's');
    fake.serve(&mut m, cmds);
    let note = form_note(&m);
    assert!(
        note.contains("Lead creation is not enabled")
            && note.contains("This account cannot create leads (its access says so)")
            && note.contains(":redeem <code>"),
        "{note}"
    );
    // A later redeem that allows it takes the warning back.
    key(&mut m, KeyCode::Esc);
    redeem_access(&mut fake, &mut m, true);
    key(&mut m, KeyCode::Char('n'));
    if matches!(m.overlay, Some(Overlay::Confirm(_))) {
        key(&mut m, KeyCode::Char('y'));
    }
    assert_eq!(m.panes.leads.can_create_leads, Some(true));
    assert!(
        !form_note(&m).contains("may not create"),
        "{}",
        form_note(&m)
    );
}

#[test]
fn the_counts_of_a_started_run_show_whole_numbers_as_integers() {
    let mut fake = Fake::new();
    fake.tamper = Some(Box::new(|req, reply| match (req, reply) {
        (ApiRequest::RunSearch { .. }, ApiReply::RunStarted(r)) => {
            let mut r = (*r).expect("a run");
            r.run.counts.insert("found".into(), serde_json::json!(12.0));
            ApiReply::RunStarted(Box::new(Ok(r)))
        }
        (_, reply) => reply,
    }));
    let mut m = opened(&mut fake);
    let cmds = key(&mut m, KeyCode::Char('R'));
    fake.serve(&mut m, cmds);
    let t = m
        .toasts
        .items()
        .iter()
        .find(|t| t.title.as_str() == "Run started")
        .expect("the notice");
    assert!(t.text.as_str().contains("found 12"), "{}", t.text.as_str());
    assert!(!t.text.as_str().contains("12.0"), "{}", t.text.as_str());
}

#[test]
fn a_closed_search_draft_is_never_called_saved_when_the_state_cannot_be_written() {
    let mut fake = Fake::new();
    let mut m = listed(&mut fake);
    update(
        &mut m,
        Msg::Saved(Err(crate::store::StoreError::NotADirectory {
            path: "/tmp/outpost-data".into(),
        })),
    );
    key(&mut m, KeyCode::Char('n'));
    chars(&mut m, "Half typed");
    key(&mut m, KeyCode::Esc);
    assert!(
        m.state.drafts.contains_key(DRAFT_KEY),
        "kept in the session"
    );
    let screen = screen_rows(&m, 100, 30).join("\n");
    assert!(!screen.contains("saved locally"), "{screen}");
    assert!(
        m.toasts
            .log()
            .all(|l| !l.text.as_str().contains("saved locally")),
        "nor in :messages"
    );
    let last = m.toasts.items().last().expect("a notice");
    assert_eq!(last.title.as_str(), "Draft kept in this session only");
}

/// `abc`, the cursor moved back one, then Ctrl-U: readline clears to the
/// start and keeps `c` (ratatui-textarea's own Ctrl-U would undo).
fn typed_then_ctrl_u(m: &mut Model) {
    chars(m, "abc");
    key(m, KeyCode::Left);
    ctrl(m, 'u');
}

#[test]
fn ctrl_u_clears_to_the_start_in_every_text_box_of_the_pane() {
    let mut fake = Fake::new();
    // The searches list's query box.
    let mut m = listed(&mut fake);
    key(&mut m, KeyCode::Char('/'));
    typed_then_ctrl_u(&mut m);
    let q = m.panes.leads.list.query.as_ref().expect("the query box");
    assert_eq!(q.text.lines().join(""), "c", "the searches query");

    let mut m = opened(&mut fake);
    let cmds = key(&mut m, KeyCode::Char('/'));
    fake.serve(&mut m, cmds);
    let builder = |m: &Model| match &m.panes.leads.dialog {
        Some(Dialog::Filter(b)) => b.clone(),
        _ => panic!("the builder is open"),
    };
    // The builder's text box.
    typed_then_ctrl_u(&mut m);
    assert_eq!(builder(&m).q.lines().join(""), "c", "the filter's text");
    // The field picker's query.
    ctrl(&mut m, 'n');
    typed_then_ctrl_u(&mut m);
    let picker = builder(&m).picker.expect("the picker");
    assert_eq!(picker.query.lines().join(""), "c", "the picker's query");
    // A predicate's value (the picker emptied with Ctrl-K, then the field
    // picked).
    ctrl(&mut m, 'k');
    chars(&mut m, "city");
    key(&mut m, KeyCode::Enter);
    key(&mut m, KeyCode::Tab);
    typed_then_ctrl_u(&mut m);
    assert_eq!(
        builder(&m).rows.first().map(super::filter::Row::value_text),
        Some("c".into()),
        "the predicate's value"
    );
    key(&mut m, KeyCode::Esc);

    // The export path.
    key(&mut m, KeyCode::Char('E'));
    typed_then_ctrl_u(&mut m);
    let Some(Dialog::Export(e)) = &m.panes.leads.dialog else {
        panic!("the export prompt");
    };
    assert_eq!(e.path_text(), "c", "the export path");
}

#[test]
fn a_watched_run_that_fails_says_why_and_gets_attention() {
    let mut fake = Fake::new();
    fake.run = RunStatus::Running;
    let mut m = opened(&mut fake);
    fake.run = RunStatus::Failed;
    fake.tamper = Some(Box::new(|_, reply| match reply {
        ApiReply::SearchPage(p) => ApiReply::SearchPage(Box::new(p.map(|mut p| {
            if let Some(r) = p.latest_run.as_mut() {
                r.errors = vec![RunError {
                    source_id: "network_people".into(),
                    code: "provider_timeout".into(),
                    error: "upstream timed out after 30s".into(),
                }];
                r.source_status = vec![SourceStatus {
                    source_id: "web_signals".into(),
                    status: "failed".into(),
                    error: "quota exhausted".into(),
                    ..SourceStatus::default()
                }];
            }
            p
        }))),
        other => other,
    }));
    let cmds = update(&mut m, Msg::SubFired(run_watch("s-3")));
    let other = fake.serve(&mut m, cmds);
    let toast = m.toasts.items().last().expect("a notice");
    assert_eq!(toast.title.as_str(), "Run failed");
    assert!(
        toast.text.as_str().contains(
            "network_people provider_timeout: upstream timed out after 30s; web_signals: quota exhausted"
        ),
        "{}",
        toast.text
    );
    assert!(
        other
            .iter()
            .any(|c| matches!(c, Cmd::Notify { title, .. } if title == "Run failed")),
        "the bell and a desktop notification: {other:?}"
    );
}

#[test]
fn a_finished_run_rings_and_counts_one_result_as_one() {
    let mut m = fixtures::model(80, 24);
    let search = Search {
        title: "Founders hiring their first SDR".into(),
        result_count: 1,
        lead_count: 1,
        ..Search::default()
    };
    let run = LatestRun {
        status: RunStatus::Completed,
        ..LatestRun::default()
    };
    let cmds = update(&mut m, Msg::Resize(80, 24));
    assert!(!cmds.iter().any(|c| matches!(c, Cmd::Notify { .. })));
    searches::announce_run_end(&mut m.ctx(), &search, Some(&RunStatus::Running), Some(&run));
    let toast = m.toasts.items().last().expect("a notice");
    assert_eq!(toast.title.as_str(), "Run completed");
    assert_eq!(
        toast.text.as_str(),
        "Founders hiring their first SDR: 1 result, 1 lead"
    );
    let cmds = update(&mut m, Msg::Resize(80, 24));
    assert!(
        cmds.iter()
            .any(|c| matches!(c, Cmd::Notify { title, .. } if title == "Run completed")),
        "{cmds:?}"
    );
    // A run that failed without a reason says so.
    let failed = LatestRun {
        status: RunStatus::Failed,
        ..LatestRun::default()
    };
    searches::announce_run_end(
        &mut m.ctx(),
        &search,
        Some(&RunStatus::Running),
        Some(&failed),
    );
    let toast = m.toasts.items().last().expect("a notice");
    assert!(
        toast.text.as_str().contains("the service gave no reason"),
        "{}",
        toast.text
    );
}

/// Tab in the export's path completes it from the directory's listing (an
/// effect: `update` reads no directory) and never types a tab.
#[test]
fn tab_completes_the_export_path() {
    let mut fake = Fake::new();
    let mut m = opened(&mut fake);
    key(&mut m, KeyCode::Char('E'));
    let path = |m: &Model| match &m.panes.leads.dialog {
        Some(Dialog::Export(e)) => e.path.lines().join(""),
        _ => panic!("the export prompt"),
    };
    ctrl(&mut m, 'u');
    for c in "exp".chars() {
        key(&mut m, KeyCode::Char(c));
    }
    assert_eq!(path(&m), "exp");
    let cmds = key(&mut m, KeyCode::Tab);
    let [Cmd::ListDir { id, dir }] = &cmds[..] else {
        panic!("a listing: {cmds:?}");
    };
    assert_eq!(dir, std::path::Path::new("."));
    assert_eq!(path(&m), "exp", "no tab typed");
    let entry = |name: &str, dir| crate::app::path_complete::DirEntry {
        name: name.into(),
        dir,
    };
    let listing = Ok(crate::app::path_complete::DirListing {
        entries: vec![entry("exports", true), entry("notes.txt", false)],
        truncated: false,
    });
    update(&mut m, Msg::DirListed { id: *id, listing });
    assert_eq!(path(&m), "exports/");
}

#[test]
fn i_copies_the_selected_search_s_id_then_the_selected_result_s() {
    let mut fake = Fake::new();
    let mut m = listed(&mut fake);
    let copied = |cmds: &[Cmd]| {
        cmds.iter().find_map(|c| match c {
            Cmd::CopyId { text, what } => Some((text.clone(), what.clone())),
            _ => None,
        })
    };
    let (id, what) = copied(&key(&mut m, KeyCode::Char('I'))).expect("copied");
    assert_eq!(Some(id), m.panes.leads.list.selected_id());
    assert!(what.starts_with("the id of search “"), "{what}");
    let mut m = opened(&mut fake);
    let (id, what) = copied(&key(&mut m, KeyCode::Char('I'))).expect("copied");
    let selected = m
        .panes
        .leads
        .open
        .as_ref()
        .and_then(|o| o.window.selected());
    assert_eq!(Some(id), selected.map(|r| r.result_id.clone()));
    assert!(what.starts_with("the id of lead result"), "{what}");
}
