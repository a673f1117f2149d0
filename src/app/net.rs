//! What the dashboard knows of the network, shown lastingly (never only as a
//! toast that fades): online, offline since a time, or rate limited per
//! route family; and the one wording every pane uses for data that is not
//! there yet ([`Model::placeholder`]).
//!
//! # For pane owners
//!
//! - A list or view that has nothing to show yet draws
//!   `m.placeholder("sending domains", RouteFamily::EmailDomains, load)`
//!   (with `ui::widgets::placeholder::line` to style it), where `load` is
//!   [`Load::Pending`] while the first answer is awaited and
//!   [`Load::Failed`] with the error when it failed. It says `loading …`,
//!   or at once that the service cannot be reached (`offline since 14:02`)
//!   or that the family is rate limited, or `could not load …: code:
//!   message`, offering the Refresh key only when a retry can help.
//! - `m.net.offline_since()` and `m.net.rate_limited(family, m.now)` answer
//!   the same questions for a pane's own wording.
//! - The user's Refresh (`r`, `:refresh`) is an explicit retry with no
//!   code in the pane: what it sends with `Model::request` while handling
//!   `Action::Refresh` goes out at once, even through a closed rate-limit
//!   gate, as one attempt. Another explicit "try again" (a key in a dialog)
//!   sends with [`Model::request_now`].

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use crate::api::gate::human_wait;
use crate::api::{ApiError, ConnState, RateLimits, RouteFamily};
use crate::app::keymap::Action;
use crate::text::format;
use crate::text::sanitize::DisplayText;

use super::toast::{Level, error_body};
use super::{Cmd, Model};

/// A wait longer than this is no longer slept by the client (it fails
/// fast): the status bar then says how to try at once.
pub(crate) const LONG_WAIT: Duration = Duration::from_secs(120);

/// Network activity and reachability, for the status bar and placeholders.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NetStatus {
    /// Latency of the last answer.
    pub last_latency: Option<Duration>,
    /// Every route family's rate-limit closure (as the client published).
    pub limits: RateLimits,
    /// Whether connections succeed (as the client published).
    pub conn: ConnState,
}

impl Default for NetStatus {
    fn default() -> Self {
        NetStatus {
            last_latency: None,
            limits: RateLimits::default(),
            conn: ConnState::Online,
        }
    }
}

impl NetStatus {
    /// When the current outage began (the first failed connection), if
    /// connections fail now.
    pub fn offline_since(&self) -> Option<SystemTime> {
        match self.conn {
            ConnState::Offline { since } => Some(since),
            ConnState::Online | ConnState::RateLimited { .. } => None,
        }
    }

    /// The family refused last, while requests are being answered 429
    /// (whether or not its gate is still closed).
    pub fn refused(&self) -> Option<RouteFamily> {
        match self.conn {
            ConnState::RateLimited { family, .. } => Some(family),
            ConnState::Online | ConnState::Offline { .. } => None,
        }
    }

    /// When `family` opens again, if it is rate limited at `now`.
    pub fn rate_limited(&self, family: RouteFamily, now: Instant) -> Option<Instant> {
        self.limits.until(family, now)
    }

    /// Whether any family is rate limited at `now` (a countdown is shown).
    pub fn any_rate_limited(&self, now: Instant) -> bool {
        !self.limits.all_open(now)
    }
}

/// Unix seconds of a wall-clock instant (0 before the epoch).
pub(crate) fn unix_secs(t: SystemTime) -> i64 {
    t.duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

/// How far a pane's data got, for [`Model::placeholder`].
#[derive(Debug, Clone, Copy)]
pub enum Load<'a> {
    /// Nothing arrived yet; a request is (or will be) on its way.
    Pending,
    /// The last attempt failed.
    Failed(&'a ApiError),
}

impl<'a> Load<'a> {
    /// Failed with `error`, else pending.
    pub fn of(error: Option<&'a ApiError>) -> Load<'a> {
        error.map_or(Load::Pending, Load::Failed)
    }
}

/// The text a pane shows in place of data it does not have, and how loud.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placeholder {
    /// What to say, whole (the view wraps or cuts it).
    pub text: String,
    /// How to colour it: info while loading, warning while rate limited,
    /// error when offline or failed.
    pub level: Level,
}

/// The connection part of the status bar: what it says and how loud.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NetLine {
    /// The words (`online`, `offline since 14:02`, `rate limited ·
    /// lead-finder 42 s`).
    pub text: String,
    /// The same, shorter, for a narrow status bar (`rate limited 42 s`,
    /// `limited 27 h 46 min — r tries now`).
    pub short: String,
    /// How to colour them.
    pub level: Level,
}

impl Model {
    /// The wall-clock `HH:MM` (local) of an instant, for "offline since".
    pub fn clock_time(&self, t: SystemTime) -> String {
        format::clock_time(unix_secs(t), self.utc_offset)
    }

    /// The lasting connection state for the status bar: offline first (it
    /// stops everything), then the rate limit that lasts longest (with the
    /// count of limited families when more than one), then a family whose
    /// answers are 429 while no gate is closed, else online. A wait the
    /// client no longer sleeps through says how to try at once.
    pub fn net_line(&self) -> NetLine {
        if let Some(since) = self.net.offline_since() {
            let text = format!("offline since {}", self.clock_time(since));
            return NetLine {
                short: text.clone(),
                text,
                level: Level::Error,
            };
        }
        let closed: Vec<(RouteFamily, Instant)> = self.net.limits.closed(self.now).collect();
        let Some((family, until)) = closed.iter().copied().max_by_key(|(_, t)| *t) else {
            // No gate is closed this second, but the last answers were 429:
            // still rate limited, not online (a 1 s `Retry-After` reopens
            // the gate between refusals).
            if let Some(family) = self.net.refused() {
                return NetLine {
                    text: format!("rate limited · {family}"),
                    short: "rate limited".into(),
                    level: Level::Warning,
                };
            }
            return NetLine {
                text: "online".into(),
                short: "online".into(),
                level: Level::Success,
            };
        };
        let wait = until.saturating_duration_since(self.now);
        let who = if closed.len() == 1 {
            family.name().to_owned()
        } else {
            format!("{} families", closed.len())
        };
        let key = self.keymap.key_label(Action::Refresh);
        let (text, short) = if wait > LONG_WAIT {
            (
                format!(
                    "rate limited for {} · {who} — {key} tries once now",
                    human_wait(wait)
                ),
                format!("limited {} — {key} tries now", human_wait(wait)),
            )
        } else {
            (
                format!("rate limited · {who} {}", human_wait(wait)),
                format!("rate limited {}", human_wait(wait)),
            )
        };
        NetLine {
            text,
            short,
            level: Level::Warning,
        }
    }

    /// The connection came back after an outage: every pane entered this
    /// session reads again what it shows (its
    /// [`PaneUnit::reconnected`](super::pane::PaneUnit::reconnected)), the
    /// shown one first, so no list stays marked stale until the user
    /// changes panes.
    pub fn reconnected(&mut self) -> Vec<Cmd> {
        let shown = self.pane;
        let mut panes = vec![shown];
        panes.extend(self.entered.iter().copied().filter(|p| *p != shown));
        let mut cmds = Vec::new();
        for pane in panes {
            cmds.extend(super::dispatch::reconnected(self, pane));
        }
        self.redraw = true;
        cmds
    }

    /// What a pane shows in place of data it does not have yet (see the
    /// module docs): `what` names the data ("sending domains"), `family`
    /// the route family its request goes to. The text carries the
    /// service's own words, made inert here so no view can forget to.
    pub fn placeholder(&self, what: &str, family: RouteFamily, load: Load<'_>) -> Placeholder {
        let mut p = self.placeholder_raw(what, family, load);
        p.text = DisplayText::block(&p.text).into_string();
        p
    }

    /// The text of [`Model::placeholder`] for data whose last read failed
    /// with `error`, or is still on its way (`None`).
    pub fn placeholder_text(
        &self,
        what: &str,
        family: RouteFamily,
        error: Option<&ApiError>,
    ) -> String {
        self.placeholder(what, family, Load::of(error)).text
    }

    fn placeholder_raw(&self, what: &str, family: RouteFamily, load: Load<'_>) -> Placeholder {
        let key = self.keymap.key_label(Action::Refresh);
        match load {
            // Worded like the error toast: the retry key only when it can
            // help, how to fix a refused key.
            Load::Failed(e) => Placeholder {
                text: format!(
                    "could not load {what}: {}: {}",
                    e.code(),
                    error_body(e, &key)
                ),
                level: Level::Error,
            },
            Load::Pending => {
                if let Some(since) = self.net.offline_since() {
                    return Placeholder {
                        text: format!(
                            "offline since {}: cannot reach {} — still trying; {key} tries now",
                            self.clock_time(since),
                            self.session.host
                        ),
                        level: Level::Error,
                    };
                }
                if let Some(until) = self.net.rate_limited(family, self.now) {
                    let wait = until.saturating_duration_since(self.now);
                    return Placeholder {
                        text: format!(
                            "{family} is rate limited for {} — {what} load when it opens; {key} tries once now",
                            human_wait(wait)
                        ),
                        level: Level::Warning,
                    };
                }
                Placeholder {
                    text: format!("loading {what}…"),
                    level: Level::Info,
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::cache_tests::screen;
    use crate::app::fixtures;
    use crate::app::{Msg, update};

    fn offline(m: &mut Model, since: SystemTime) {
        update(m, Msg::Connection(ConnState::Offline { since }));
    }

    #[test]
    fn a_refused_connection_shows_at_once_and_lasts() {
        let mut m = fixtures::model(80, 24);
        assert_eq!(m.net_line().text, "online");
        let since = UNIX_EPOCH + Duration::from_secs(1_795_356_120); // 14:02 UTC
        m.redraw = false;
        offline(&mut m, since);
        assert!(m.redraw, "drawn at once");
        assert_eq!(m.net.offline_since(), Some(since));
        assert_eq!(m.net_line().text, "offline since 14:02");
        let p = m.placeholder("sending domains", RouteFamily::EmailDomains, Load::Pending);
        assert_eq!(
            p.text,
            "offline since 14:02: cannot reach 127.0.0.1:8787 — still trying; r tries now"
        );
        assert_eq!(p.level, Level::Error);
        update(&mut m, Msg::Connection(ConnState::Online));
        assert_eq!(m.net_line().text, "online");
        let p = m.placeholder("sending domains", RouteFamily::EmailDomains, Load::Pending);
        assert_eq!(p.text, "loading sending domains…");
    }

    #[test]
    fn rate_limits_are_per_family_with_the_longest_shown() {
        let mut m = fixtures::model(80, 24);
        let now = m.now;
        let limits: RateLimits = [(RouteFamily::LeadFinder, now + Duration::from_secs(42))]
            .into_iter()
            .collect();
        update(&mut m, Msg::RateLimit(limits));
        assert_eq!(m.net_line().text, "rate limited · lead-finder 42 s");
        assert!(m.countdown_visible(), "the one-second tick runs");
        // Another family is not held up by it.
        let p = m.placeholder("sending domains", RouteFamily::EmailDomains, Load::Pending);
        assert_eq!(p.text, "loading sending domains…");
        let p = m.placeholder("searches", RouteFamily::LeadFinder, Load::Pending);
        assert!(
            p.text.starts_with("lead-finder is rate limited for 42 s"),
            "{}",
            p.text
        );
        let limits: RateLimits = [
            (RouteFamily::LeadFinder, now + Duration::from_secs(42)),
            (RouteFamily::Threads, now + Duration::from_secs(7)),
        ]
        .into_iter()
        .collect();
        update(&mut m, Msg::RateLimit(limits));
        assert_eq!(m.net_line().text, "rate limited · 2 families 42 s");
        // The tick after the last closure ends stops the countdown.
        m.now = now + Duration::from_secs(43);
        assert_eq!(m.net_line().text, "online");
        assert!(!m.countdown_visible());
    }

    #[test]
    fn a_very_long_wait_is_shown_as_such_with_the_way_out() {
        let mut m = fixtures::model(80, 24);
        let now = m.now;
        let limits: RateLimits = [(RouteFamily::LeadFinder, now + Duration::from_secs(100_000))]
            .into_iter()
            .collect();
        update(&mut m, Msg::RateLimit(limits));
        assert_eq!(
            m.net_line().text,
            "rate limited for 27 h 46 min · lead-finder — r tries once now"
        );
        assert_eq!(m.net_line().short, "limited 27 h 46 min — r tries now");
    }

    #[test]
    fn requests_answered_429_say_rate_limited_until_a_good_answer() {
        let mut m = fixtures::model(80, 24);
        update(
            &mut m,
            Msg::Connection(ConnState::RateLimited {
                family: RouteFamily::EmailDomains,
                since: SystemTime::now(),
            }),
        );
        // No gate is closed (a 1 s `Retry-After` reopened it), yet the
        // answers are 429: not online.
        assert!(m.net.limits.all_open(m.now));
        let line = m.net_line();
        assert_eq!(line.text, "rate limited · email/domains");
        assert_eq!(line.short, "rate limited");
        assert_eq!(line.level, Level::Warning);
        update(&mut m, Msg::Connection(ConnState::Online));
        assert_eq!(m.net_line().text, "online");
    }

    /// The list read of a pane's first request, answered fresh or failed.
    fn answer(req: &crate::app::ApiRequest, ok: bool) -> Option<crate::app::ApiReply> {
        use crate::app::{ApiReply, ApiRequest};
        let down = || ApiError::Connect {
            host: "127.0.0.1:8787".into(),
            detail: "connection refused".into(),
        };
        Some(match req {
            ApiRequest::ListSearches => ApiReply::Searches(if ok {
                Ok(Some(fixtures::searches()))
            } else {
                Err(down())
            }),
            ApiRequest::ListCampaigns => ApiReply::Campaigns(if ok {
                Ok(Some(fixtures::campaigns()))
            } else {
                Err(down())
            }),
            ApiRequest::ListThreads { .. } => ApiReply::Threads(if ok {
                let threads = fixtures::threads();
                Ok(crate::api::model::ThreadPage {
                    total: threads.len() as u64,
                    threads,
                    page: 1,
                    limit: 100,
                })
            } else {
                Err(down())
            }),
            ApiRequest::ListDomains { .. } => ApiReply::Domains(if ok {
                Ok(fixtures::domains())
            } else {
                Err(down())
            }),
            _ => return None,
        })
    }

    /// Answers every list read among `cmds`; the rest are left unanswered.
    fn answer_lists(m: &mut Model, cmds: &[crate::app::Cmd], ok: bool) -> usize {
        let mut n = 0;
        for (id, req) in fixtures::drive::api(cmds) {
            if let Some(reply) = answer(&req, ok) {
                fixtures::drive::reply(m, id, reply);
                n += 1;
            }
        }
        n
    }

    /// Every list as it was three hours ago, one row each.
    fn last_session() -> crate::app::cache::Cache {
        use crate::api::model::{CampaignStatus, Channel, DomainStatus, SearchKind, Thread};
        use crate::app::cache::{Cache, Cached, CachedSearch};
        let as_of = fixtures::CLOCK - 3 * 3600;
        Cache {
            host: "127.0.0.1:8787".into(),
            searches: Some(Cached::of(
                &[CachedSearch {
                    search: fixtures::search("s-old", "Old dentists", SearchKind::Static, 4),
                    run: None,
                    source: String::new(),
                }],
                as_of,
            )),
            campaigns: Some(Cached::of(
                &[fixtures::campaign(
                    "c-old",
                    "Old outreach",
                    Channel::Email,
                    CampaignStatus::Paused,
                    3,
                )],
                as_of,
            )),
            threads: Some(Cached::of(
                &[Thread {
                    id: "t-old".into(),
                    participant_email: "old@example.com".into(),
                    ..Thread::default()
                }],
                as_of,
            )),
            domains: Some(Cached::of(
                &[fixtures::domain(
                    "d-old",
                    "old.example.com",
                    DomainStatus::Verified,
                    "2026-01-01T00:00:00Z",
                )],
                as_of,
            )),
            ..Cache::default()
        }
    }

    /// Lists shown from the cache whose reads failed while the service was
    /// down are read again when it comes back, in every pane entered, not
    /// only the one shown: none stays "stale" until the user changes panes.
    #[test]
    fn when_the_connection_returns_every_entered_pane_reads_its_list_again() {
        use crate::app::Pane;
        let mut m = fixtures::model(100, 30);
        m.pane = Pane::Leads;
        let cmds = m.start();
        m.adopt_cache(last_session());
        update(
            &mut m,
            Msg::Connection(ConnState::Offline {
                since: SystemTime::now(),
            }),
        );
        assert_eq!(answer_lists(&mut m, &cmds, false), 1);
        let lists = [Pane::Leads, Pane::Campaigns, Pane::Inbox, Pane::Domains];
        for pane in &lists[1..] {
            let cmds = crate::app::fixtures::drive::switch(&mut m, *pane);
            assert_eq!(answer_lists(&mut m, &cmds, false), 1, "{pane:?}");
        }
        for pane in lists {
            m.pane = pane;
            assert!(
                screen(&m).contains("stale"),
                "{pane:?} is stale while offline"
            );
        }
        m.pane = Pane::Domains;

        let cmds = update(&mut m, Msg::Connection(ConnState::Online));
        assert_eq!(
            answer_lists(&mut m, &cmds, true),
            4,
            "every list is read again"
        );
        let again = update(&mut m, Msg::Connection(ConnState::Online));
        assert!(again.is_empty(), "already online: nothing more");
        for pane in lists {
            // Looked at without entering it (entering reads again).
            m.pane = pane;
            let s = screen(&m);
            assert!(!s.contains("stale"), "{pane:?} is fresh again:\n{s}");
        }
        // Only panes that were entered read: the Profile pane never was.
        assert!(
            !fixtures::drive::api(&cmds)
                .iter()
                .any(|(_, r)| matches!(r, crate::app::ApiRequest::GetContext)),
            "{cmds:?}"
        );
    }

    /// While offline the service is tried now and then, so its return is
    /// seen even when every poller has backed off for minutes.
    #[test]
    fn while_offline_the_service_is_tried_until_it_answers() {
        use crate::app::{Cmd, SubId, subscriptions};
        let mut m = fixtures::model(80, 24);
        let probing = |m: &Model| subscriptions(m).iter().any(|s| s.id == SubId::Reconnect);
        assert!(!probing(&m));
        update(
            &mut m,
            Msg::Connection(ConnState::Offline {
                since: SystemTime::now(),
            }),
        );
        assert!(probing(&m));
        let cmds = update(&mut m, Msg::SubFired(SubId::Reconnect));
        assert!(
            matches!(cmds.as_slice(), [Cmd::ProbeConnection]),
            "{cmds:?}"
        );
        update(&mut m, Msg::Connection(ConnState::Online));
        assert!(!probing(&m));
    }

    /// The service's own words reach the placeholder made inert: an
    /// escape sequence in an error message never reaches a view.
    #[test]
    fn a_placeholder_carries_no_escape_from_the_service() {
        let m = fixtures::model(80, 24);
        let hostile = fixtures::drive::service_error(
            500,
            r#"{"error":{"code":"x\u001b[2J","message":"boom \u001b]52;c;aGk=\u0007done"}}"#,
        );
        let text = m.placeholder_text("searches", RouteFamily::LeadFinder, Some(&hostile));
        assert!(text.contains("boom") && text.contains("done"), "{text}");
        assert!(!text.chars().any(char::is_control), "{text:?}");
    }

    #[test]
    fn a_failed_load_offers_r_only_when_a_retry_can_help() {
        let m = fixtures::model(80, 24);
        let timeout = ApiError::Timeout {
            method: "GET".into(),
            after: Duration::from_secs(30),
            may_have_reached: false,
        };
        let p = m.placeholder("searches", RouteFamily::LeadFinder, Load::Failed(&timeout));
        assert_eq!(
            p.text,
            "could not load searches: timeout: no answer within 30s — r retries"
        );
        let refused = fixtures::drive::service_error(
            401,
            r#"{"error":{"code":"unauthorized","message":"Invalid API key"}}"#,
        );
        let p = m.placeholder("searches", RouteFamily::LeadFinder, Load::Failed(&refused));
        assert!(
            p.text.contains("unauthorized: Invalid API key"),
            "{}",
            p.text
        );
        assert!(p.text.contains("OUTPOST_API_KEY"), "{}", p.text);
        assert!(!p.text.contains("retries"), "{}", p.text);
    }
}
