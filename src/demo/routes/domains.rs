//! Custom sending domains and their verification.

use std::sync::Arc;

use axum::Extension;
use axum::extract::{RawQuery, State};

use super::{Body, Ids, with};
use crate::api::model::*;
use crate::api::validate;
use crate::demo::App;
use crate::demo::auth::Ws;
use crate::demo::clock::iso;
use crate::demo::errors::{DemoResult, conflict, invalid_fields, not_found};
use crate::demo::http::{Query, body, created, ok};
use crate::demo::ids::hash_str;
use crate::demo::schema::{S, open};
use crate::demo::sim;
use crate::demo::store::{DomainRec, dns_records};

/// `GET /api/email/domains`: newest first; live refresh unless `skip_sync`.
pub(super) async fn list(
    State(app): State<Arc<App>>,
    Extension(w): Extension<Ws>,
    RawQuery(q): RawQuery,
) -> DemoResult {
    let q = Query::parse(q.as_deref());
    let skip_sync = q.boolean("skip_sync")?.unwrap_or(false);
    with(&app, w, |cx| {
        if !skip_sync {
            for d in &mut cx.ws.domains {
                sim::live_refresh(d, cx.now);
            }
        }
        let domains = cx.ws.domains.iter().rev().map(|d| d.d.clone()).collect();
        Ok(ok(DomainList { domains }))
    })
}

/// `POST /api/email/domains`: `pending`, with the records to publish.
pub(super) async fn create(
    State(app): State<Arc<App>>,
    Extension(w): Extension<Ws>,
    Body(bytes): Body,
) -> DemoResult {
    let (req, _): (CreateDomain, _) = body(&bytes, &open(vec![("domain", S::Str, true)]))?;
    let name = req.domain.trim().trim_end_matches('.').to_ascii_lowercase();
    validate::domain_name(&name).map_err(|e| invalid_fields(&e))?;
    with(&app, w, |cx| {
        if cx.ws.domains.iter().any(|d| d.d.domain == name) {
            return Err(conflict(format!(
                "The domain {name} has already been added"
            )));
        }
        let id = cx.ids.uuid();
        let d = SendingDomain {
            dns_records: dns_records(&name, hash_str(&id)),
            provider_domain_id: format!("dom_{:016x}", hash_str(&id)),
            id,
            user_id: cx.ws.user_id.clone(),
            domain: name,
            status: DomainStatus::Pending,
            verified_at: None,
            created_at: iso(cx.now),
            updated_at: iso(cx.now),
        };
        cx.ws.domains.push(DomainRec {
            d: d.clone(),
            propagated_at: None,
            chain: None,
            chains: 0,
        });
        Ok(created(DomainEnvelope { domain: d }))
    })
}

/// `POST /api/email/domains/{id}/verify[?poll=true]`.
pub(super) async fn verify(
    State(app): State<Arc<App>>,
    Extension(w): Extension<Ws>,
    ids: Ids,
    RawQuery(q): RawQuery,
) -> DemoResult {
    let poll = Query::parse(q.as_deref()).boolean("poll");
    with(&app, w, |cx| {
        let di = cx
            .ws
            .domain(ids.get(0))
            .ok_or_else(|| not_found("Domain not found"))?;
        let poll = poll?.unwrap_or(false);
        let d = &mut cx.ws.domains[di];
        if poll {
            sim::live_refresh(d, cx.now);
        } else if sim::trigger_verify(d, cx.now) {
            *cx.chains += 1;
        }
        Ok(ok(DomainEnvelope {
            domain: d.d.clone(),
        }))
    })
}
