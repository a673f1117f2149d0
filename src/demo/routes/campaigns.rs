//! Outbound campaigns: create, read, update, launch / pause / resume, the
//! roster (list, add, edit, delete) and generated messages.

use std::collections::HashSet;
use std::sync::Arc;

use axum::Extension;
use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use serde_json::{Value, json};
use uuid::Uuid;

use super::{Body, Ids, to_usize, with};
use crate::api::model::*;
use crate::api::validate::{self, Errors, FieldError};
use crate::demo::App;
use crate::demo::auth::Ws;
use crate::demo::clock::{SimMs, iso};
use crate::demo::errors::{
    DemoResult, conflict, flat, invalid, invalid_field, invalid_fields, not_found,
};
use crate::demo::http::{Query, json_value, ok};
use crate::demo::schema::{S, arr, check_body, closed, null_or, open, positive};
use crate::demo::sim;
use crate::demo::store::*;
use crate::logic::lead_field::{LeadField, looks_like_email, looks_like_url};

const EMAIL_FIELDS: &[&str] = &["daily_limit", "stop_on_reply", "open_tracking", "signature"];
const NETWORK_FIELDS: &[&str] = &["skip_other_campaigns", "operating_hours"];

fn channel_fields(kind: &Channel) -> Vec<(&'static str, S, bool)> {
    match kind {
        Channel::Network => vec![
            ("skip_other_campaigns", S::Bool, false),
            ("operating_hours", S::AnyObj, false),
        ],
        _ => vec![
            ("daily_limit", positive(), false),
            ("stop_on_reply", S::Bool, false),
            ("open_tracking", S::Bool, false),
            ("signature", S::Str, false),
        ],
    }
}

/// Checks a create or update body for `kind` and drops the other channel's
/// fields (silently ignored, as the contract says).
fn settings_body(
    mut v: Value,
    kind: &Channel,
    mut base: Vec<(&'static str, S, bool)>,
) -> DemoResult<Value> {
    base.extend(channel_fields(kind));
    check_body(&open(base), &v).map_err(|e| invalid_fields(&e))?;
    let other = if *kind == Channel::Network {
        EMAIL_FIELDS
    } else {
        NETWORK_FIELDS
    };
    if let Some(obj) = v.as_object_mut() {
        for k in other {
            obj.remove(*k);
        }
    }
    Ok(v)
}

fn decode<T: serde::de::DeserializeOwned>(v: Value) -> DemoResult<T> {
    serde_json::from_value(v).map_err(|e| invalid(format!("body: {e}")))
}

/// Resolves `sender_account_ids` for a campaign of `kind`: each must exist,
/// be of the same type (rule 2) and be connected. Empty: the workspace's
/// connected senders of that type, default first.
fn senders_for(ws: &Workspace, kind: &Channel, ids: &[String]) -> DemoResult<Vec<String>> {
    if ids.is_empty() {
        let mut found: Vec<&SenderAccount> = ws
            .senders
            .iter()
            .filter(|s| &s.kind == kind && s.status == SENDER_READY)
            .collect();
        found.sort_by_key(|s| !s.is_default_sender);
        if found.is_empty() {
            return Err(invalid_field(
                "sender_account_ids",
                &format!(
                    "no connected {kind} sender in this workspace; connect one in the web dashboard first"
                ),
            ));
        }
        return Ok(found.iter().map(|s| s.id.clone()).collect());
    }
    let mut errs = Errors::default();
    for (i, id) in ids.iter().enumerate() {
        let path = || format!("sender_account_ids[{i}]");
        match ws.sender(id) {
            None => errs.push(path(), "unknown sender account"),
            Some(s) if &s.kind != kind => errs.push(
                path(),
                format!(
                    "is a {} sender; a {kind} campaign needs {kind} senders",
                    s.kind
                ),
            ),
            Some(s) if s.status != SENDER_READY => {
                errs.push(path(), format!("sender is {} and cannot send", s.status));
            }
            Some(_) => {}
        }
    }
    errs.finish().map_err(|e| invalid_fields(&e))?;
    let mut seen = HashSet::new();
    Ok(ids
        .iter()
        .filter(|id| seen.insert(id.as_str()))
        .cloned()
        .collect())
}

fn name_taken(ws: &Workspace, name: &str, except: Option<&str>) -> bool {
    let name = name.trim().to_lowercase();
    ws.campaigns
        .iter()
        .any(|c| c.c.name.trim().to_lowercase() == name && Some(c.c.id.as_str()) != except)
}

fn find(ws: &Workspace, id: &str) -> DemoResult<usize> {
    ws.campaign(id)
        .ok_or_else(|| not_found("Campaign not found"))
}

fn envelope(c: &CampaignRec, senders: &[SenderAccount]) -> CampaignEnvelope {
    CampaignEnvelope {
        campaign: c.render(senders, true, true, false),
    }
}

/// `GET /api/campaigns` (optional route): newest first, with stats.
pub(super) async fn list(State(app): State<Arc<App>>, Extension(w): Extension<Ws>) -> DemoResult {
    with(&app, w, |cx| {
        let campaigns = cx
            .ws
            .campaigns
            .iter()
            .rev()
            .map(|c| c.render(&cx.ws.senders, false, false, false))
            .collect();
        Ok(ok(CampaignList { campaigns }))
    })
}

/// `POST /api/campaigns`: a draft with the seeded two-node sequence.
pub(super) async fn create(
    State(app): State<Arc<App>>,
    Extension(w): Extension<Ws>,
    Body(bytes): Body,
) -> DemoResult {
    let v = json_value(&bytes)?;
    check_body(
        &open(vec![
            ("type", S::Enum(&["network", "email"]), true),
            ("name", S::Str, true),
        ]),
        &v,
    )
    .map_err(|e| invalid_fields(&e))?;
    let kind = Channel::parse(v.get("type").and_then(Value::as_str).unwrap_or_default());
    let v = settings_body(v, &kind, vec![("sender_account_ids", arr(S::Str), false)])?;
    let req: CreateCampaign = decode(v)?;
    if req.name.trim().is_empty() {
        return Err(invalid_field("name", "required"));
    }
    with(&app, w, |cx| {
        let senders = senders_for(cx.ws, &kind, &req.sender_account_ids)?;
        if name_taken(cx.ws, &req.name, None) {
            return Err(conflict(format!(
                "A campaign named \"{}\" already exists",
                req.name.trim()
            )));
        }
        let mut c = new_campaign(
            cx.ids,
            &cx.ws.user_id,
            kind.clone(),
            req.name.trim(),
            cx.now,
        );
        c.sender_ids = senders;
        if kind == Channel::Email {
            c.c.daily_limit = req.daily_limit.or(c.c.daily_limit);
            c.c.stop_on_reply = req.stop_on_reply.or(c.c.stop_on_reply);
            c.c.open_tracking = req.open_tracking.or(c.c.open_tracking);
            c.c.signature = req.signature.clone().or(c.c.signature);
        } else {
            c.c.skip_other_campaigns = req.skip_other_campaigns.or(c.c.skip_other_campaigns);
            c.c.operating_hours = req.operating_hours.clone().or(c.c.operating_hours);
        }
        let body = envelope(&c, &cx.ws.senders);
        cx.ws.campaigns.push(c);
        Ok(crate::demo::http::created(body))
    })
}

/// `GET /api/campaigns/{id}`.
pub(super) async fn get(
    State(app): State<Arc<App>>,
    Extension(w): Extension<Ws>,
    ids: Ids,
) -> DemoResult {
    with(&app, w, |cx| {
        let ci = find(cx.ws, ids.get(0))?;
        Ok(ok(envelope(&cx.ws.campaigns[ci], &cx.ws.senders)))
    })
}

fn sequence_kinds_ok(kind: &Channel, nodes: &[SequenceNodeInput]) -> Result<(), Vec<FieldError>> {
    let allowed = if *kind == Channel::Email {
        "email, end"
    } else {
        "connection_request, message, end"
    };
    let mut errs = Errors::default();
    for (i, n) in nodes.iter().enumerate() {
        let fits = match kind {
            Channel::Email => matches!(n.kind, NodeType::Email | NodeType::End),
            _ => matches!(
                n.kind,
                NodeType::ConnectionRequest | NodeType::Message | NodeType::End
            ),
        };
        if !fits {
            errs.push(
                format!("sequence_nodes[{i}].type"),
                format!("a {kind} campaign uses {allowed}"),
            );
        }
    }
    errs.finish()
}

/// `PATCH /api/campaigns/{id}`: settings (draft or paused) and/or the whole
/// sequence (draft only).
pub(super) async fn update(
    State(app): State<Arc<App>>,
    Extension(w): Extension<Ws>,
    ids: Ids,
    Body(bytes): Body,
) -> DemoResult {
    let v = json_value(&bytes);
    with(&app, w, |cx| {
        let ci = find(cx.ws, ids.get(0))?;
        let v = v?;
        let kind = cx.ws.campaigns[ci].c.kind.clone();
        let v = settings_body(
            v,
            &kind,
            vec![
                ("name", S::Str, false),
                ("sender_account_ids", arr(S::Str), false),
                (
                    "sequence_nodes",
                    arr(closed(vec![
                        ("type", S::Str, true),
                        ("subject", S::Str, false),
                        ("body", S::Str, false),
                    ])),
                    false,
                ),
            ],
        )?;
        let req: UpdateCampaign = decode(v)?;
        let senders = check_update(cx.ws, ci, &req, ids.get(0))?;
        let now = cx.now;
        let node_ids: Vec<String> = req
            .sequence_nodes
            .iter()
            .flatten()
            .map(|_| cx.ids.uuid())
            .collect();
        let c = &mut cx.ws.campaigns[ci];
        apply_update(c, &req, senders, node_ids, now);
        let cap = sim::daily_cap(c, &cx.ws.senders);
        if let Some(r) = &mut c.runner {
            r.cap = cap;
        }
        Ok(ok(envelope(&cx.ws.campaigns[ci], &cx.ws.senders)))
    })
}

/// Checks an update body against campaign `ci` and its state; the new
/// sender ids when the body names some.
fn check_update(
    ws: &Workspace,
    ci: usize,
    req: &UpdateCampaign,
    id: &str,
) -> DemoResult<Option<Vec<String>>> {
    let kind = &ws.campaigns[ci].c.kind;
    let has_settings = req.name.is_some()
        || req.sender_account_ids.is_some()
        || req.daily_limit.is_some()
        || req.stop_on_reply.is_some()
        || req.open_tracking.is_some()
        || req.signature.is_some()
        || req.skip_other_campaigns.is_some()
        || req.operating_hours.is_some();
    if !has_settings && req.sequence_nodes.is_none() {
        return Err(invalid_field(
            "body",
            "at least one campaign field is required",
        ));
    }
    let status = &ws.campaigns[ci].c.status;
    if has_settings && !matches!(status, CampaignStatus::Draft | CampaignStatus::Paused) {
        return Err(flat(
            StatusCode::BAD_REQUEST,
            format!(
                "Campaign settings can only be changed while the campaign is a draft or paused (it is {status})"
            ),
        ));
    }
    if let Some(nodes) = &req.sequence_nodes {
        if *status != CampaignStatus::Draft {
            return Err(flat(
                StatusCode::BAD_REQUEST,
                format!(
                    "The sequence can only be changed while the campaign is a draft (it is {status})"
                ),
            ));
        }
        validate::sequence(nodes).map_err(|e| invalid_fields(&e))?;
        sequence_kinds_ok(kind, nodes).map_err(|e| invalid_fields(&e))?;
    }
    if let Some(name) = &req.name
        && name.trim().is_empty()
    {
        return Err(invalid_field("name", "required"));
    }
    let senders = match &req.sender_account_ids {
        Some(list) if list.is_empty() => {
            return Err(invalid_field("sender_account_ids", "at least 1 item"));
        }
        Some(list) => Some(senders_for(ws, kind, list)?),
        None => None,
    };
    if let Some(name) = &req.name
        && name_taken(ws, name, Some(id))
    {
        return Err(conflict(format!(
            "A campaign named \"{}\" already exists",
            name.trim()
        )));
    }
    Ok(senders)
}

/// Writes a checked update into the campaign; channel settings of the other
/// channel are ignored, a new sequence gets `node_ids`.
fn apply_update(
    c: &mut CampaignRec,
    req: &UpdateCampaign,
    senders: Option<Vec<String>>,
    node_ids: Vec<String>,
    now: SimMs,
) {
    if let Some(name) = &req.name {
        c.c.name = name.trim().to_owned();
    }
    if let Some(s) = senders {
        c.sender_ids = s;
    }
    if c.c.kind == Channel::Email {
        c.c.daily_limit = req.daily_limit.or(c.c.daily_limit);
        c.c.stop_on_reply = req.stop_on_reply.or(c.c.stop_on_reply);
        c.c.open_tracking = req.open_tracking.or(c.c.open_tracking);
        c.c.signature = req.signature.clone().or(c.c.signature.clone());
    } else {
        c.c.skip_other_campaigns = req.skip_other_campaigns.or(c.c.skip_other_campaigns);
        c.c.operating_hours = req.operating_hours.clone().or(c.c.operating_hours.clone());
    }
    if let Some(nodes) = &req.sequence_nodes {
        let id = c.c.id.clone();
        c.nodes = nodes
            .iter()
            .zip(node_ids)
            .enumerate()
            .map(|(i, (n, nid))| node(nid, &id, i, n.kind.clone(), &n.subject, &n.body))
            .collect();
        c.edits.clear();
    }
    c.c.updated_at = iso(now);
}

/// `POST /api/campaigns/{id}/launch`.
pub(super) async fn launch(
    State(app): State<Arc<App>>,
    Extension(w): Extension<Ws>,
    ids: Ids,
) -> DemoResult {
    with(&app, w, |cx| {
        let ci = find(cx.ws, ids.get(0))?;
        let c = &cx.ws.campaigns[ci];
        if c.c.status != CampaignStatus::Draft {
            return Err(conflict(format!(
                "Only draft campaigns can be launched (this one is {})",
                c.c.status
            )));
        }
        if !c.leads.iter().any(|l| l.status == LeadStatus::Pending) {
            return Err(flat(StatusCode::BAD_REQUEST, "No leads in campaign"));
        }
        let cap = sim::daily_cap(c, &cx.ws.senders);
        let c = &mut cx.ws.campaigns[ci];
        sim::launch(c, cx.now, cap);
        Ok(ok(envelope(c, &cx.ws.senders)))
    })
}

/// `POST /api/campaigns/{id}/pause`: only an active campaign.
pub(super) async fn pause(
    State(app): State<Arc<App>>,
    Extension(w): Extension<Ws>,
    ids: Ids,
) -> DemoResult {
    with(&app, w, |cx| {
        let ci = find(cx.ws, ids.get(0))?;
        let c = &mut cx.ws.campaigns[ci];
        if c.c.status != CampaignStatus::Active {
            return Err(flat(
                StatusCode::BAD_REQUEST,
                "Only active campaigns can be paused",
            ));
        }
        sim::pause(c, cx.now);
        Ok(ok(CampaignEnvelope {
            campaign: c.render(&cx.ws.senders, false, true, true),
        }))
    })
}

/// `POST /api/campaigns/{id}/resume`: only a paused campaign.
pub(super) async fn resume(
    State(app): State<Arc<App>>,
    Extension(w): Extension<Ws>,
    ids: Ids,
) -> DemoResult {
    with(&app, w, |cx| {
        let ci = find(cx.ws, ids.get(0))?;
        let c = &mut cx.ws.campaigns[ci];
        if c.c.status != CampaignStatus::Paused {
            return Err(flat(
                StatusCode::BAD_REQUEST,
                "Only paused campaigns can be resumed",
            ));
        }
        sim::resume(c, cx.now);
        Ok(ok(envelope(c, &cx.ws.senders)))
    })
}

fn frozen(c: &CampaignRec) -> DemoResult<()> {
    if c.c.status == CampaignStatus::Draft {
        Ok(())
    } else {
        Err(flat(
            StatusCode::BAD_REQUEST,
            format!(
                "Leads can only be changed while the campaign is a draft (it is {}); the roster is frozen",
                c.c.status
            ),
        ))
    }
}

/// `GET /api/campaigns/{id}/leads`.
pub(super) async fn leads(
    State(app): State<Arc<App>>,
    Extension(w): Extension<Ws>,
    ids: Ids,
    RawQuery(q): RawQuery,
) -> DemoResult {
    let q = Query::parse(q.as_deref());
    let parsed = (|| {
        let rq = RosterQuery {
            page: q.int("page")?,
            limit: q.int("limit")?,
            status: q.get("status").filter(|s| !s.is_empty()).map(str::to_owned),
        };
        validate::roster_query(&rq).map_err(|e| invalid_fields(&e))?;
        let status = match &rq.status {
            Some(s) => {
                let st = LeadStatus::parse(s);
                if !st.is_known() {
                    let all: Vec<&str> = LeadStatus::KNOWN.iter().map(LeadStatus::as_str).collect();
                    return Err(invalid_field(
                        "status",
                        &format!("one of {}", all.join(", ")),
                    ));
                }
                Some(st)
            }
            None => None,
        };
        Ok((rq.page.unwrap_or(1), rq.limit.unwrap_or(50), status))
    })();
    with(&app, w, |cx| {
        let ci = find(cx.ws, ids.get(0))?;
        let (page, limit, status) = parsed?;
        let c = &cx.ws.campaigns[ci];
        let matching: Vec<&LeadRec> = c
            .leads
            .iter()
            .filter(|l| status.as_ref().is_none_or(|s| &l.status == s))
            .collect();
        let skip = to_usize((page - 1).saturating_mul(limit));
        let prospects = matching
            .iter()
            .skip(skip)
            .take(to_usize(limit))
            .map(|l| l.render(&c.c, &c.nodes))
            .collect();
        Ok(ok(RosterPage {
            prospects,
            total: matching.len() as u64,
            page,
            limit,
        }))
    })
}

fn lead_fields() -> Vec<(&'static str, S, bool)> {
    LeadField::ALL
        .into_iter()
        .map(|f| (f.name(), null_or(S::Str), false))
        .chain(std::iter::once((
            "custom_fields",
            null_or(S::AnyObj),
            false,
        )))
        .collect()
}

fn identity_ok(kind: &Channel, value: &str) -> bool {
    match kind {
        Channel::Network => looks_like_url(value),
        _ => looks_like_email(value),
    }
}

fn identity_name(kind: &Channel) -> &'static str {
    if *kind == Channel::Network {
        "network_url"
    } else {
        "email"
    }
}

/// `POST /api/campaigns/{id}/leads`: bulk add with dedup.
pub(super) async fn add_leads(
    State(app): State<Arc<App>>,
    Extension(w): Extension<Ws>,
    ids: Ids,
    Body(bytes): Body,
) -> DemoResult {
    let v = json_value(&bytes);
    with(&app, w, |cx| {
        let ci = find(cx.ws, ids.get(0))?;
        frozen(&cx.ws.campaigns[ci])?;
        let v = v?;
        check_body(&open(vec![("leads", arr(open(lead_fields())), true)]), &v)
            .map_err(|e| invalid_fields(&e))?;
        let req: AddLeads = decode(v)?;
        let kind = cx.ws.campaigns[ci].c.kind.clone();
        validate::add_leads(&kind, &req.leads).map_err(|e| invalid_fields(&e))?;
        let mut bad = Errors::default();
        for (i, l) in req.leads.iter().enumerate() {
            let id = if kind == Channel::Network {
                &l.network_url
            } else {
                &l.email
            };
            if !identity_ok(&kind, id.as_deref().unwrap_or_default()) {
                bad.push(
                    format!("row {i}"),
                    format!("invalid {}", identity_name(&kind)),
                );
            }
        }
        bad.finish().map_err(|e| invalid_fields(&e))?;
        // The pre-query reads at most 100,000 existing leads; past that the
        // storage constraint gives the same answer, so all keys are used.
        let roster = cx.ws.campaigns[ci].roster_keys();
        let mut batch = HashSet::new();
        let mut out = AddLeadsResponse::default();
        let mut keep = Vec::new();
        for (i, input) in req.leads.iter().enumerate() {
            let key = dedup_key(
                &kind,
                input.email.as_deref().unwrap_or_default(),
                input.network_url.as_deref().unwrap_or_default(),
            );
            let reason = if roster.contains(&key) {
                Some("roster")
            } else if !batch.insert(key) {
                Some("batch")
            } else {
                None
            };
            match reason {
                Some(r) => out.duplicate_rows.push(DuplicateRow {
                    index: i as u64,
                    reason: r.into(),
                }),
                None => keep.push(i),
            }
        }
        // `batch` now holds exactly the keys of the imported rows.
        roster.extend(batch);
        let c = &cx.ws.campaigns[ci];
        let fresh: Vec<LeadRec> = keep
            .iter()
            .map(|i| new_lead(c, cx.ids.next_uuid(), cx.ids.seed(), &req.leads[*i], cx.now))
            .collect();
        out.prospects = fresh.iter().map(|l| l.render(&c.c, &c.nodes)).collect();
        out.imported = fresh.len() as u64;
        out.duplicates = out.duplicate_rows.len() as u64;
        let c = &mut cx.ws.campaigns[ci];
        c.leads.extend(fresh);
        c.c.updated_at = iso(cx.now);
        Ok(ok(out))
    })
}

/// `PATCH /api/campaigns/{id}/leads`: edits one lead's profile fields.
pub(super) async fn edit_lead(
    State(app): State<Arc<App>>,
    Extension(w): Extension<Ws>,
    ids: Ids,
    Body(bytes): Body,
) -> DemoResult {
    let v = json_value(&bytes);
    with(&app, w, |cx| {
        let ci = find(cx.ws, ids.get(0))?;
        frozen(&cx.ws.campaigns[ci])?;
        let v = v?;
        let mut fields = lead_fields();
        fields.push(("id", S::Str, true));
        check_body(&open(fields), &v).map_err(|e| invalid_fields(&e))?;
        let req: EditLead = decode(v)?;
        let c = &cx.ws.campaigns[ci];
        let li = lead_id(&req.id)
            .and_then(|id| c.leads.iter().position(|l| l.id == id))
            .ok_or_else(|| not_found("Lead not found in this campaign"))?;
        let (email, url) = edited_identity(c, li, &req.fields)?;
        let c = &mut cx.ws.campaigns[ci];
        c.keys = None;
        let kind = c.c.kind.clone();
        let lead = &mut c.leads[li];
        let mut text = lead.text.fields(&kind).into_owned();
        apply_lead_edit(&mut text, &kind, &req.fields, (email, url));
        lead.text = LeadText::Own(Box::new(text));
        lead.updated = cx.now;
        Ok(ok(ProspectEnvelope {
            prospect: c.lead(li),
        }))
    })
}

/// The email and network URL lead `li` would have after the edit `f`; an
/// error when the channel's identity is missing or invalid, or another lead
/// of the campaign already has it.
fn edited_identity(c: &CampaignRec, li: usize, f: &LeadInput) -> DemoResult<(String, String)> {
    let kind = &c.c.kind;
    let (cur_email, cur_url) = c.leads[li].text.identities(kind);
    let email = f
        .email
        .as_deref()
        .map_or(cur_email.as_str(), str::trim)
        .to_owned();
    let url = f
        .network_url
        .as_deref()
        .map_or(cur_url.as_str(), str::trim)
        .to_owned();
    let identity = if *kind == Channel::Network {
        &url
    } else {
        &email
    };
    if !identity_ok(kind, identity) {
        return Err(invalid_field(
            identity_name(kind),
            &format!(
                "a {} campaign lead needs a valid {}",
                kind,
                identity_name(kind)
            ),
        ));
    }
    let key = dedup_key(kind, &email, &url);
    if (0..c.leads.len()).any(|j| j != li && c.key_of(j) == key) {
        return Err(conflict(format!(
            "Another lead of this campaign already has this {}",
            identity_name(kind)
        )));
    }
    Ok((email, url))
}

/// Writes a checked lead edit; the other channel's identity is dropped
/// when invalid.
fn apply_lead_edit(p: &mut OwnText, kind: &Channel, f: &LeadInput, (email, url): (String, String)) {
    p.email = email;
    p.network_url = url;
    if *kind == Channel::Network && !p.email.is_empty() && !looks_like_email(&p.email) {
        p.email.clear();
    }
    if *kind == Channel::Email && !p.network_url.is_empty() && !looks_like_url(&p.network_url) {
        p.network_url.clear();
    }
    // The identities were checked and written above.
    let others = LeadField::ALL
        .into_iter()
        .filter(|x| !matches!(x, LeadField::Email | LeadField::NetworkUrl));
    for field in others {
        if let Some(v) = field.of_input(f) {
            *p.field_mut(field) = v.trim().to_owned();
        }
    }
    if let Some(cf) = &f.custom_fields {
        p.custom_fields = cf.clone();
    }
}

/// `DELETE /api/campaigns/{id}/leads`: by ids (1 to 500) or all.
pub(super) async fn delete_leads(
    State(app): State<Arc<App>>,
    Extension(w): Extension<Ws>,
    ids: Ids,
    Body(bytes): Body,
) -> DemoResult {
    let v = json_value(&bytes);
    with(&app, w, |cx| {
        let ci = find(cx.ws, ids.get(0))?;
        frozen(&cx.ws.campaigns[ci])?;
        let v = v?;
        check_body(
            &open(vec![("ids", arr(S::Str), false), ("all", S::Bool, false)]),
            &v,
        )
        .map_err(|e| invalid_fields(&e))?;
        let req = match (v.get("ids"), v.get("all")) {
            (Some(_), _) => decode::<DeleteLeads>(json!({"ids": v["ids"]}))?,
            (None, Some(all)) => DeleteLeads::All {
                all: all.as_bool().unwrap_or(false),
            },
            (None, None) => {
                return Err(invalid_field(
                    "body",
                    "`ids` (1 to 500 lead ids) or `all: true` is required",
                ));
            }
        };
        validate::delete_leads(&req).map_err(|e| invalid_fields(&e))?;
        let c = &mut cx.ws.campaigns[ci];
        let before = c.leads.len();
        match &req {
            DeleteLeads::All { .. } => c.leads.clear(),
            DeleteLeads::Ids { ids } => {
                let gone: HashSet<Uuid> = ids.iter().filter_map(|id| lead_id(id)).collect();
                c.leads.retain(|l| !gone.contains(&l.id));
            }
        }
        let deleted = before - c.leads.len();
        if deleted > 0 {
            c.keys = None;
        }
        if deleted > 0 {
            c.c.updated_at = iso(cx.now);
        }
        Ok(ok(DeleteLeadsResponse {
            deleted: deleted as u64,
        }))
    })
}

/// `GET /api/campaigns/{id}/generate-messages`.
pub(super) async fn messages(
    State(app): State<Arc<App>>,
    Extension(w): Extension<Ws>,
    ids: Ids,
    RawQuery(q): RawQuery,
) -> DemoResult {
    let q = Query::parse(q.as_deref());
    let parsed = (|| {
        let gq = GeneratedMessagesQuery {
            status: q.get("status").map(str::to_owned),
            prospect_id: q
                .get("prospect_id")
                .filter(|s| !s.is_empty())
                .map(str::to_owned),
            prospect_limit: q.int("prospect_limit")?,
            prospect_offset: q.int("prospect_offset")?,
        };
        validate::generated_messages_query(&gq).map_err(|e| invalid_fields(&e))?;
        Ok(gq)
    })();
    with(&app, w, |cx| {
        let ci = find(cx.ws, ids.get(0))?;
        let gq = parsed?;
        let want = gq.status.clone().unwrap_or_else(|| "draft".into());
        let c = &cx.ws.campaigns[ci];
        let mut leads: Vec<usize> = (0..c.leads.len()).collect();
        if let Some(pid) = &gq.prospect_id {
            let pid = lead_id(pid);
            leads.retain(|i| Some(c.leads[*i].id) == pid);
        }
        if let Some(limit) = gq.prospect_limit {
            let off = to_usize(gq.prospect_offset.unwrap_or(0));
            leads = leads.into_iter().skip(off).take(to_usize(limit)).collect();
        }
        let mut out = Vec::new();
        for i in leads {
            out.extend(
                c.messages_of(i)
                    .into_iter()
                    .filter(|m| want == "all" || m.status.as_str() == want),
            );
            // Replies are merged whatever the status filter: they are the
            // conversation, not generated messages.
            if gq.prospect_id.is_some()
                && let Some(reply) = c.inbound_reply(i, &cx.ws.senders)
            {
                out.push(reply);
            }
        }
        Ok(ok(GeneratedMessages { messages: out }))
    })
}

/// `PATCH /api/campaigns/{id}/generate-messages`: edits a generated email.
pub(super) async fn edit_message(
    State(app): State<Arc<App>>,
    Extension(w): Extension<Ws>,
    ids: Ids,
    Body(bytes): Body,
) -> DemoResult {
    let parsed = (|| {
        let v = json_value(&bytes)?;
        check_body(
            &open(vec![
                ("message_id", S::Str, true),
                ("subject", S::Str, false),
                ("body_text", S::Str, false),
                ("body_html", S::Str, false),
            ]),
            &v,
        )
        .map_err(|e| invalid_fields(&e))?;
        decode::<EditGeneratedMessage>(v)
    })();
    with(&app, w, |cx| {
        let ci = find(cx.ws, ids.get(0))?;
        let req = parsed?;
        let c = &cx.ws.campaigns[ci];
        let not_found_msg = || not_found("Generated message not found");
        let li = c
            .lead_of_message(&req.message_id)
            .ok_or_else(not_found_msg)?;
        let found = c
            .messages_of(li)
            .into_iter()
            .find(|m| m.id == req.message_id)
            .ok_or_else(not_found_msg)?;
        if found.status == MessageStatus::Sent {
            return Err(flat(
                StatusCode::BAD_REQUEST,
                "Sent messages cannot be edited",
            ));
        }
        let c = &mut cx.ws.campaigns[ci];
        let e = c.edits.entry(found.id.clone()).or_default();
        if req.subject.is_some() {
            e.subject = req.subject.clone();
        }
        if req.body_text.is_some() {
            e.body_text = req.body_text.clone();
        }
        if req.body_html.is_some() {
            e.body_html = req.body_html.clone();
        }
        let message = c
            .messages_of(li)
            .into_iter()
            .find(|m| m.id == found.id)
            .unwrap_or(found);
        Ok(ok(GeneratedMessageEnvelope { message }))
    })
}
