//! Sender accounts and their future-capacity schedule.

use std::sync::Arc;

use axum::Extension;
use axum::extract::{RawQuery, State};
use serde_json::{Map, json};

use super::{Ids, with};
use crate::api::model::*;
use crate::demo::App;
use crate::demo::auth::Ws;
use crate::demo::clock::{DAY, date};
use crate::demo::errors::{DemoResult, invalid_field, not_found};
use crate::demo::http::{Query, ok};
use crate::demo::sim;
use crate::demo::store::{CampaignRec, Phase, SENDER_READY};

/// `GET /api/senders?type=`.
pub(super) async fn list(
    State(app): State<Arc<App>>,
    Extension(w): Extension<Ws>,
    RawQuery(q): RawQuery,
) -> DemoResult {
    let q = Query::parse(q.as_deref());
    let kind = match q.get("type").filter(|s| !s.is_empty()) {
        None => None,
        Some(t @ ("email" | "network")) => Some(Channel::parse(t)),
        Some(_) => return Err(invalid_field("type", "one of email, network")),
    };
    with(&app, w, |cx| {
        let senders = cx
            .ws
            .senders
            .iter()
            .filter(|s| kind.as_ref().is_none_or(|k| &s.kind == k))
            .cloned()
            .collect();
        Ok(ok(SenderList { senders }))
    })
}

/// `GET /api/senders/{id}`.
pub(super) async fn get(
    State(app): State<Arc<App>>,
    Extension(w): Extension<Ws>,
    ids: Ids,
) -> DemoResult {
    with(&app, w, |cx| {
        let sender = cx
            .ws
            .sender(ids.get(0))
            .cloned()
            .ok_or_else(|| not_found("Sender not found"))?;
        Ok(ok(SenderEnvelope { sender }))
    })
}

/// Sends a live campaign still needs: one per remaining sending node of
/// every lead that is not terminal.
fn remaining_sends(c: &CampaignRec) -> u64 {
    let sending: Vec<usize> = (0..c.nodes.len())
        .filter(|k| CampaignRec::sends(&c.nodes[*k].kind))
        .collect();
    c.leads
        .iter()
        .filter(|l| !l.status.is_terminal())
        .map(|l| {
            let from = match (l.phase, l.node) {
                (Phase::Ready(_, k), _) => k,
                (_, Some(k)) => k + 1,
                (_, None) => 0,
            };
            sending.iter().filter(|k| **k >= from).count() as u64
        })
        .sum()
}

/// `GET /api/senders/{id}/schedule`: `{schedule: {date: {capacity,
/// committed}}}` for the next 14 simulated days.
pub(super) async fn schedule(
    State(app): State<Arc<App>>,
    Extension(w): Extension<Ws>,
    ids: Ids,
) -> DemoResult {
    with(&app, w, |cx| {
        let s = cx
            .ws
            .sender(ids.get(0))
            .cloned()
            .ok_or_else(|| not_found("Sender not found"))?;
        let capacity = if s.status == SENDER_READY {
            s.daily_limit
        } else {
            0
        };
        // Per live campaign using this sender: (work left, this sender's
        // share of the campaign's daily cap).
        let mut work: Vec<(u64, u64)> = cx
            .ws
            .campaigns
            .iter()
            .filter(|c| {
                matches!(
                    c.c.status,
                    CampaignStatus::Active | CampaignStatus::Launching
                ) && c.sender_ids.contains(&s.id)
            })
            .map(|c| {
                let share =
                    u64::from(sim::daily_cap(c, &cx.ws.senders)) / c.sender_ids.len().max(1) as u64;
                (remaining_sends(c), share.max(1))
            })
            .collect();
        let mut schedule = Map::new();
        for d in 0..14 {
            let mut committed = 0u64;
            for (left, share) in &mut work {
                let today = (*left).min(*share).min(capacity.saturating_sub(committed));
                *left -= today;
                committed += today;
            }
            schedule.insert(
                date(cx.now + d * DAY),
                json!({"capacity": capacity, "committed": committed}),
            );
        }
        Ok(ok(json!({ "schedule": schedule })))
    })
}
