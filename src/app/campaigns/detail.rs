//! A campaign's detail: open and refresh it, watch it while it sends, its
//! tabs, and launch / pause / resume — each asked first, each refused with
//! its reason when the campaign's status does not allow it, and each read
//! back when the answer was lost on the way.

use super::super::table::TableState;
use super::super::toast::Level;
use super::super::{ApiRequest, Cmd, Confirm, ConfirmAction, Pane};
use super::rules::{self, Op};
use super::{
    CampaignsModel, Confirmed, Opened, Purpose, Tab, View, error_text, layout, list, messages,
    pending, preflight, roster, sequence, settle, target, toast_error, upsert,
};
use crate::api::ApiError;
use crate::api::model::{Campaign, CampaignStatus, MessageStatus};
use crate::app::ctx::Ctx;
use crate::app::keymap::Action;
use crate::app::requests::Requests;
use crate::logic::write::{self, Outcome};
use crate::text::format;
use std::time::Duration;

/// A newer copy of a campaign over an older one: what the answer omits
/// (the pause answer has no sequence and two fewer counters; the list has
/// no senders) keeps its last known value.
pub(crate) fn merge(old: &Campaign, mut new: Campaign) -> Campaign {
    if old.id != new.id {
        return new;
    }
    if new.sequence_nodes.is_none() {
        new.sequence_nodes.clone_from(&old.sequence_nodes);
    }
    if new.sender_accounts.is_none() {
        new.sender_accounts.clone_from(&old.sender_accounts);
    }
    if new.stats.connections_accepted.is_none() {
        new.stats.connections_accepted = old.stats.connections_accepted;
    }
    if new.stats.contacted.is_none() {
        new.stats.contacted = old.stats.contacted;
    }
    new
}

/// Moves a table by a navigation action; whether it was one.
pub(crate) fn nav(t: &mut TableState, action: Action, viewport: usize) -> bool {
    match action {
        Action::Up => t.move_by(-1, viewport),
        Action::Down => t.move_by(1, viewport),
        Action::Top => t.top(viewport),
        Action::Bottom => t.bottom(viewport),
        Action::PageUp => t.page_up(viewport),
        Action::PageDown => t.page_down(viewport),
        _ => return false,
    }
    true
}

/// Says why a pane key does nothing here (never silently ignored).
pub(crate) fn disabled_notice(cx: &mut Ctx<'_>, action: Action) -> Vec<Cmd> {
    let why = match action {
        Action::CampaignStatusFilter => {
            "the status filter applies to a campaign's roster or messages"
        }
        Action::EditItem | Action::MarkLead | Action::MarkLoadedLeads => {
            "open a campaign's roster (or messages) to pick a lead"
        }
        Action::DeleteLeads | Action::DeleteAllLeads => "open a campaign's roster to delete leads",
        Action::EditSequence => "open a campaign to edit its sequence",
        Action::NextTab | Action::PrevTab => "open a campaign to see its roster and messages",
        Action::Filter => "the text filter applies to the roster or the messages",
        Action::PreviewNextLead | Action::PreviewPrevLead | Action::PreviewNextGap => {
            "the preview's keys work in the sequence editor"
        }
        _ => return Vec::new(),
    };
    cx.notify(Level::Info, action.name(), why);
    Vec::new()
}

/// Opens a campaign (the roster and messages load when their tab shows).
pub(crate) fn open(cm: &mut CampaignsModel, cx: &mut Ctx<'_>, id: &str) -> Vec<Cmd> {
    forget_open(cx);
    let known = cm.list.rows.iter().find(|c| c.id == id).cloned();
    // A row of the list is as fresh as the list's last good read.
    let mut fresh = super::super::fresh::Freshness::default();
    if known.is_some() {
        fresh.read_at = cm.list.fresh.read_at;
    }
    cm.open = Some(Opened {
        loaded: known.is_some(),
        campaign: known.unwrap_or_else(|| Campaign {
            id: id.to_owned(),
            ..Campaign::default()
        }),
        fresh,
        ..Opened::default()
    });
    cm.view = View::Detail;
    read(cx, id)
}

/// Forgets the answers meant for the campaign being left.
fn forget_open(cx: &mut Ctx<'_>) {
    cx.requests.forget::<super::CampaignsModel>(|p| {
        matches!(
            p,
            Purpose::Campaign(_) | Purpose::Roster { .. } | Purpose::Messages { .. }
        )
    });
}

/// Reads the open campaign again (unless a read is on its way).
pub(crate) fn read(cx: &mut Ctx<'_>, id: &str) -> Vec<Cmd> {
    if pending(cx.requests, |p| *p == Purpose::Campaign(id.to_owned())) {
        return Vec::new();
    }
    cx.request(
        Purpose::Campaign(id.to_owned()),
        ApiRequest::GetCampaign { id: id.to_owned() },
    );
    Vec::new()
}

/// Reads the open campaign again, dropping a read already on its way (its
/// answer may predate a change just made).
pub(crate) fn read_again(cx: &mut Ctx<'_>, id: &str) -> Vec<Cmd> {
    cx.requests
        .forget::<super::CampaignsModel>(|p| *p == Purpose::Campaign(id.to_owned()));
    read(cx, id)
}

/// The roster or messages shown, read again when the campaign changed
/// since they were read (a hidden tab is read when shown).
pub(crate) fn reread_stale(cm: &mut CampaignsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    let Some(o) = cm.open.as_ref() else {
        return Vec::new();
    };
    let on_screen = cx.is_shown(Pane::Campaigns) && cm.view == View::Detail;
    match o.tab {
        Tab::Roster if on_screen && o.roster.stale() => roster::fetch_pages(cm, cx),
        Tab::Messages if on_screen && o.messages.stale => messages::refresh(cm, cx),
        _ => Vec::new(),
    }
}

/// `r`: the campaign and the tab shown, read again.
pub(crate) fn refresh(cm: &mut CampaignsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    let Some(id) = cm.open_id().map(str::to_owned) else {
        return Vec::new();
    };
    let mut cmds = read(cx, &id);
    match cm.open.as_ref().map(|o| o.tab) {
        Some(Tab::Roster) => cmds.extend(roster::reload(cm, cx)),
        Some(Tab::Messages) => cmds.extend(messages::reload(cm, cx)),
        _ => {}
    }
    cmds
}

/// Whether the open campaign is watched: launching or active, loaded, its
/// detail on screen. [`super::schedule`] tells its freshness so, and
/// [`watch`] runs on what that freshness then schedules.
/// `shown`: the pane shown.
pub(crate) fn watched(c: &CampaignsModel, shown: Pane) -> bool {
    shown == Pane::Campaigns
        && c.view == View::Detail
        && c.open
            .as_ref()
            .is_some_and(|o| o.loaded && rules::is_live(&o.campaign.status))
}

/// The watch of the open campaign, when it runs: `(campaign, period)`,
/// the period its freshness schedules (each failed read in a row slows it
/// down; a refused key stops it). The detail draws "live" or "retrying"
/// from that same freshness, so it says what this really does.
pub(crate) fn watch(c: &CampaignsModel, shown: Pane) -> Option<(String, Duration)> {
    if !watched(c, shown) {
        return None;
    }
    let o = c.open.as_ref()?;
    Some((o.campaign.id.clone(), o.fresh.next_poll()?))
}

/// The campaign was read whole: nothing shown is carried over from before
/// a partial write reply any more.
pub(crate) fn whole_read(cm: &mut CampaignsModel, id: &str) {
    if let Some(o) = cm.open.as_mut().filter(|o| o.campaign.id == id) {
        o.carried.clear();
    }
}

/// The watch fired: read the campaign, and the roster rows or the
/// messages on screen.
pub(crate) fn on_watch(cm: &mut CampaignsModel, cx: &mut Ctx<'_>, id: &str) -> Vec<Cmd> {
    if cm.open_id() != Some(id) {
        return Vec::new();
    }
    let mut cmds = read(cx, id);
    match cm.open.as_ref().map(|o| o.tab) {
        Some(Tab::Roster) => cmds.extend(roster::refresh_visible(cm, cx)),
        Some(Tab::Messages) => cmds.extend(messages::refresh(cm, cx)),
        _ => {}
    }
    cmds
}

/// The open campaign answered.
pub(crate) fn on_campaign(
    cm: &mut CampaignsModel,
    cx: &mut Ctx<'_>,
    id: &str,
    result: Result<Campaign, ApiError>,
) -> Vec<Cmd> {
    let clock = cx.clock;
    let Some(o) = cm.open.as_mut().filter(|o| o.campaign.id == id) else {
        return Vec::new();
    };
    match result {
        Ok(c) => {
            let before = o.loaded.then(|| o.campaign.status.clone());
            let name = c.name.clone();
            let after = c.status.clone();
            upsert(cm, cx, c);
            whole_read(cm, id);
            sample(cm, cx, id);
            if let Some(before) = before
                && before != after
            {
                cx.notify(
                    Level::Info,
                    "Campaign status",
                    &format!("“{name}” is now {after}"),
                );
            }
            let cmds = reread_stale(cm, cx);
            // An id typed from outside the lists is kept only now that the
            // service has answered 200 for it.
            let confirmed = cm.unconfirmed.take_if(|(u, _)| u.as_str() == id);
            if let Some((_, source)) = confirmed {
                cx.state.remember_campaign(id, &name, &source);
                cx.save_state();
            } else if cm.list.registry && !name.is_empty() {
                cx.state.remember_campaign(id, &name, "opened");
                cx.save_state();
            }
            cmds
        }
        Err(e) => {
            // Refused (404, 403): never to be kept; a failure that may pass
            // leaves it for the retry's answer.
            let refused = e.status().is_some_and(|s| (400..500).contains(&s));
            if refused
                && cm
                    .unconfirmed
                    .as_ref()
                    .is_some_and(|(u, _)| u.as_str() == id)
            {
                cm.unconfirmed = None;
            }
            let Some(o) = cm.open.as_mut() else {
                return Vec::new();
            };
            if o.loaded {
                // The values shown stay, marked stale with their age.
                o.fresh.fail_at(clock, error_text(&e), &e);
            } else {
                o.error = Some(e.clone());
            }
            toast_error(cx, "reading the campaign", &e);
            Vec::new()
        }
    }
}

/// A poll of the open campaign answered: its stats (merged with what the
/// answer omitted) join its trend while it is watched — launching or
/// active, its detail on screen.
fn sample(c: &mut CampaignsModel, cx: &Ctx<'_>, id: &str) {
    let watched = cx.is_shown(Pane::Campaigns) && c.view == View::Detail;
    if let Some(o) = c.open.as_ref().filter(|o| o.campaign.id == id)
        && watched
        && rules::is_live(&o.campaign.status)
    {
        c.trends.record(id, &o.campaign.stats);
    }
}

/// Shows a tab, loading what it lists.
pub(crate) fn show_tab(cm: &mut CampaignsModel, cx: &mut Ctx<'_>, tab: Tab) -> Vec<Cmd> {
    let Some(o) = cm.open.as_mut() else {
        return Vec::new();
    };
    o.tab = tab;
    match tab {
        Tab::Overview => Vec::new(),
        Tab::Roster => roster::fetch_pages(cm, cx),
        Tab::Messages => messages::ensure_loaded(cm, cx),
    }
}

/// Back to the list (read again when older than the poll interval).
fn close(cm: &mut CampaignsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    forget_open(cx);
    cm.open = None;
    cm.view = View::List;
    list::ensure_fresh(&cm.list, cx)
}

/// Whether the tab shown has a text filter (Back clears it first).
fn filtering(o: &Opened) -> bool {
    match o.tab {
        Tab::Roster => o.roster.filtering(),
        Tab::Messages => o.messages.needle.active(),
        Tab::Overview => false,
    }
}

/// A key action on the detail.
pub(crate) fn on_action(cm: &mut CampaignsModel, cx: &mut Ctx<'_>, action: Action) -> Vec<Cmd> {
    let Some(o) = cm.open.as_ref() else {
        return close(cm, cx);
    };
    let tab = o.tab;
    match action {
        Action::Back if !filtering(o) => return close(cm, cx),
        Action::NextTab => return show_tab(cm, cx, tab.step(true)),
        Action::PrevTab => return show_tab(cm, cx, tab.step(false)),
        Action::Refresh => return refresh(cm, cx),
        Action::EditSequence => return sequence::open(cm, cx),
        _ => {}
    }
    match tab {
        Tab::Overview => match action {
            Action::Open => show_tab(cm, cx, Tab::Roster),
            Action::Up | Action::Down | Action::Top | Action::Bottom => Vec::new(),
            _ => roster::on_action(cm, cx, action),
        },
        Tab::Roster => roster::on_action(cm, cx, action),
        Tab::Messages => messages::on_action(cm, cx, action),
    }
}

/// The keys whose use depends on the campaign's status: `(action, label,
/// why not)`, for the detail's keys line.
pub(crate) fn state_keys(status: &CampaignStatus) -> Vec<(Action, &'static str, Option<String>)> {
    [
        (Action::Launch, "launch", Op::Launch),
        (Action::Pause, "pause", Op::Pause),
        (Action::Resume, "resume", Op::Resume),
        (Action::ImportCsv, "import", Op::ChangeRoster),
        (Action::EditSequence, "sequence", Op::EditSequence),
    ]
    .into_iter()
    .map(|(a, label, op)| (a, label, rules::check(status, op).err()))
    .collect()
}

/// Status-bar hints of the detail: the state keys that apply first, then
/// the tab's keys, then the state keys that do not apply, with why.
pub(crate) fn hints(c: &CampaignsModel) -> Vec<(Action, &'static str)> {
    let Some(o) = c.open.as_ref() else {
        return Vec::new();
    };
    let s = &o.campaign.status;
    let state = [
        (Action::Launch, Op::Launch, "launch"),
        (Action::Pause, Op::Pause, "pause"),
        (Action::Resume, Op::Resume, "resume"),
        (Action::ImportCsv, Op::ChangeRoster, "import"),
    ];
    let mut out: Vec<(Action, &'static str)> = state
        .iter()
        .filter(|(_, op, _)| rules::check(s, *op).is_ok())
        .map(|(a, _, label)| (*a, *label))
        .collect();
    out.extend(match o.tab {
        Tab::Overview => vec![
            (Action::NextTab, "roster"),
            (
                Action::EditSequence,
                rules::label(s, Op::EditSequence, "sequence"),
            ),
        ],
        Tab::Roster => vec![
            (Action::Open, "lead"),
            (Action::CampaignStatusFilter, "status"),
            (Action::MarkLead, "select"),
            (Action::EditItem, rules::label(s, Op::ChangeRoster, "edit")),
            (
                Action::DeleteLeads,
                rules::label(s, Op::ChangeRoster, "delete"),
            ),
            (Action::NextTab, "messages"),
        ],
        Tab::Messages => {
            let mut keys = vec![(Action::Open, "lead's messages")];
            keys.push((Action::CampaignStatusFilter, "status"));
            if edit_hint(o) == Some("edit") {
                keys.push((Action::EditItem, "edit"));
            }
            keys.push((Action::NextTab, "overview"));
            keys
        }
    });
    out.push((Action::Back, "back"));
    // A selected message that cannot be edited says so among the keys
    // that do not apply (none selected: no edit hint at all).
    if o.tab == Tab::Messages
        && let Some(label) = edit_hint(o).filter(|l| *l != "edit")
    {
        out.push((Action::EditItem, label));
    }
    out.extend(
        state
            .iter()
            .filter(|(_, op, _)| rules::check(s, *op).is_err())
            .map(|(a, op, label)| (*a, rules::label(s, *op, label))),
    );
    out
}

/// The messages tab's edit hint for the selected message: `edit`, or why
/// not (a sent message, a lead's reply); `None` with nothing selected.
fn edit_hint(o: &Opened) -> Option<&'static str> {
    let msg = o.messages.selected()?;
    let nodes = o.campaign.sequence_nodes.as_deref().unwrap_or_default();
    Some(match messages::editable(msg, nodes) {
        Ok(()) => "edit",
        Err(_) if messages::step_of(nodes, msg).is_none() => "edit ✗ lead's reply",
        Err(_) if msg.status == MessageStatus::Sent => "edit ✗ sent",
        Err(_) => "edit ✗ drafts and pending only",
    })
}

/// Checks `op` against the campaign; says why not with a notice.
pub(crate) fn allowed(cx: &mut Ctx<'_>, c: &Campaign, op: Op) -> bool {
    match rules::check(&c.status, op) {
        Ok(()) => true,
        Err(why) => {
            let title = format!("Cannot {}", op.name());
            cx.notify(Level::Warning, &title, &why);
            false
        }
    }
}

/// The campaign the state keys act on, or a notice saying there is none.
fn target_or_say(cm: &CampaignsModel, cx: &mut Ctx<'_>) -> Option<Campaign> {
    let t = target(cm);
    if t.is_none() {
        cx.notify(
            Level::Info,
            "No campaign",
            "select a campaign in the list (or open one) first",
        );
    }
    t
}

/// Whether a state change of campaign `id` is already on its way.
fn changing(requests: &Requests, id: &str) -> bool {
    pending(
        requests,
        |p| matches!(p, Purpose::Launch(c) | Purpose::Pause(c) | Purpose::Resume(c) if c == id),
    ) || super::preflight::running(requests, id)
}

/// `L`: the launch preflight runs first ([`preflight`]); what it finds
/// decides whether, and how, the launch is asked.
pub(crate) fn ask_launch(cm: &mut CampaignsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    let Some(c) = target_or_say(cm, cx) else {
        return Vec::new();
    };
    if !allowed(cx, &c, Op::Launch)
        || changing(cx.requests, &c.id)
        || !settle::may_ask(cm, cx, &c.id, Op::Launch)
        || offline(cx, Op::Launch)
    {
        return Vec::new();
    }
    preflight::start(cm, cx, c)
}

fn find(c: &CampaignsModel, id: &str) -> Option<Campaign> {
    c.open
        .as_ref()
        .map(|o| &o.campaign)
        .filter(|c| c.id == id)
        .or_else(|| c.list.rows.iter().find(|c| c.id == id))
        .cloned()
}

/// Sends the launch (once; it is never repeated by itself).
pub(crate) fn launch(cm: &mut CampaignsModel, cx: &mut Ctx<'_>, id: &str) -> Vec<Cmd> {
    if changing(cx.requests, id) {
        return Vec::new();
    }
    settle::sent_again(cm, id);
    cx.request(
        Purpose::Launch(id.to_owned()),
        ApiRequest::LaunchCampaign { id: id.to_owned() },
    );
    Vec::new()
}

/// `p`: asks before pausing.
pub(crate) fn ask_pause(cm: &mut CampaignsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    let Some(c) = target_or_say(cm, cx) else {
        return Vec::new();
    };
    if !allowed(cx, &c, Op::Pause)
        || changing(cx.requests, &c.id)
        || !settle::may_ask(cm, cx, &c.id, Op::Pause)
        || offline(cx, Op::Pause)
    {
        return Vec::new();
    }
    let mut lines = vec![
        format!("“{}” stops sending now.", c.name),
        format!(
            "Leads keep their place in the sequence; {} resumes it.",
            cx.keymap.key_label(Action::Resume)
        ),
    ];
    lines.extend(settle::again_line(cm, &c.id));
    cx.confirm(Confirm {
        title: "Pause campaign?".into(),
        lines,
        yes: "Pause".into(),
        no: None,
        destructive: false,
        on_yes: ConfirmAction::Pane(Confirmed::Pause(c.id).into()),
    });
    Vec::new()
}

/// Sends the pause.
pub(crate) fn pause(cm: &mut CampaignsModel, cx: &mut Ctx<'_>, id: &str) -> Vec<Cmd> {
    if changing(cx.requests, id) {
        return Vec::new();
    }
    settle::sent_again(cm, id);
    cx.request(
        Purpose::Pause(id.to_owned()),
        ApiRequest::PauseCampaign { id: id.to_owned() },
    );
    Vec::new()
}

/// `R`: asks before resuming.
pub(crate) fn ask_resume(cm: &mut CampaignsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    let Some(c) = target_or_say(cm, cx) else {
        return Vec::new();
    };
    if !allowed(cx, &c, Op::Resume)
        || changing(cx.requests, &c.id)
        || !settle::may_ask(cm, cx, &c.id, Op::Resume)
        || offline(cx, Op::Resume)
    {
        return Vec::new();
    }
    let mut lines = vec![format!(
        "“{}” starts sending again where it stopped.",
        c.name
    )];
    lines.extend(settle::again_line(cm, &c.id));
    cx.confirm(Confirm {
        title: "Resume campaign?".into(),
        lines,
        yes: "Resume".into(),
        no: None,
        destructive: true,
        on_yes: ConfirmAction::Pane(Confirmed::Resume(c.id).into()),
    });
    Vec::new()
}

/// Sends the resume.
pub(crate) fn resume(cm: &mut CampaignsModel, cx: &mut Ctx<'_>, id: &str) -> Vec<Cmd> {
    if changing(cx.requests, id) {
        return Vec::new();
    }
    settle::sent_again(cm, id);
    cx.request(
        Purpose::Resume(id.to_owned()),
        ApiRequest::ResumeCampaign { id: id.to_owned() },
    );
    Vec::new()
}

/// The answer to launch, pause or resume (`op`): `done` says what
/// happened. A lost answer is settled by reading the status ([`settle`]);
/// a refusal did nothing and says so, naming the key that asks again.
fn on_changed(
    cm: &mut CampaignsModel,
    cx: &mut Ctx<'_>,
    id: &str,
    result: Result<Campaign, ApiError>,
    op: Op,
    done: &str,
) -> Vec<Cmd> {
    let what = settle::title(op);
    match result {
        Ok(c) => {
            let name = c.name.clone();
            let carried = carried(cm, &c);
            upsert(cm, cx, c);
            cx.notify(Level::Success, &what, &format!("“{name}” {done}"));
            let mut cmds = reread_stale(cm, cx);
            if !carried.is_empty()
                && let Some(o) = cm.open.as_mut().filter(|o| o.campaign.id == id)
            {
                // The reply carried only part of the campaign: what it
                // left out is marked until the whole is read again.
                o.carried = carried;
                cmds.extend(read_again(cx, id));
            }
            cmds
        }
        Err(e) => {
            if write::of_error(&e) == Outcome::MayHaveReached {
                let name = find(cm, id).map(|c| c.name).unwrap_or_default();
                return settle::start(cm, cx, id, &name, op, &e);
            }
            // The service's refusal, as it says it ("No leads in campaign",
            // "Only active campaigns can be paused"): nothing was done. The
            // status may have moved under us, so it is read again.
            let key = settle::key_of(cx.keymap, op);
            cx.notify(
                Level::Error,
                &format!("{what} refused"),
                &format!(
                    "{} — nothing was done; {key} asks to {} again",
                    error_text(&e),
                    op.name()
                ),
            );
            reread(cm, cx, id)
        }
    }
}

/// The parts of the open campaign `c` (a write's reply) leaves out, whose
/// values shown are kept from before: the stats rows' labels, "sequence",
/// "senders".
fn carried(cm: &CampaignsModel, c: &Campaign) -> Vec<&'static str> {
    let Some(o) = cm
        .open
        .as_ref()
        .filter(|o| o.loaded && o.campaign.id == c.id)
    else {
        return Vec::new();
    };
    let old = &o.campaign;
    let mut out = Vec::new();
    if c.stats.connections_accepted.is_none() && old.stats.connections_accepted.is_some() {
        out.push("accepted");
    }
    if c.stats.contacted.is_none() && old.stats.contacted.is_some() {
        out.push("contacted");
    }
    if c.sequence_nodes.is_none() && old.sequence_nodes.is_some() {
        out.push("sequence");
    }
    if c.sender_accounts.is_none() && old.sender_accounts.is_some() {
        out.push("senders");
    }
    out
}

/// Offline, a state change is not offered: the status it depends on is as
/// old as the last good read. Says so; whether it is.
fn offline(cx: &mut Ctx<'_>, op: Op) -> bool {
    let Some(since) = cx.net.offline_since() else {
        return false;
    };
    let at = format::clock_time(crate::app::net::unix_secs(since), cx.utc_offset);
    cx.notify(
        Level::Warning,
        &format!("Cannot {} now", op.name()),
        &format!(
            "offline since {at}: the status shown is from before; {} {} once the service answers again",
            settle::key_of(cx.keymap, op),
            op.name()
        ),
    );
    true
}

/// Reads a campaign again, wherever it is shown.
fn reread(cm: &CampaignsModel, cx: &mut Ctx<'_>, id: &str) -> Vec<Cmd> {
    if cm.open_id() == Some(id) {
        read(cx, id)
    } else {
        cx.request(
            Purpose::Known(id.to_owned()),
            ApiRequest::GetCampaign { id: id.to_owned() },
        );
        Vec::new()
    }
}

/// The launch answered.
pub(crate) fn on_launched(
    cm: &mut CampaignsModel,
    cx: &mut Ctx<'_>,
    id: &str,
    result: Result<Campaign, ApiError>,
) -> Vec<Cmd> {
    on_changed(
        cm,
        cx,
        id,
        result,
        Op::Launch,
        "is launching: its stats update here while it sends",
    )
}

/// The pause answered.
pub(crate) fn on_paused(
    cm: &mut CampaignsModel,
    cx: &mut Ctx<'_>,
    id: &str,
    result: Result<Campaign, ApiError>,
) -> Vec<Cmd> {
    on_changed(cm, cx, id, result, Op::Pause, "is paused")
}

/// The resume answered.
pub(crate) fn on_resumed(
    cm: &mut CampaignsModel,
    cx: &mut Ctx<'_>,
    id: &str,
    result: Result<Campaign, ApiError>,
) -> Vec<Cmd> {
    on_changed(cm, cx, id, result, Op::Resume, "is sending again")
}

/// The roster viewport of the current size.
pub(crate) fn tab_viewport(cx: &Ctx<'_>) -> usize {
    layout::tab_viewport(cx.layout().body)
}
