//! The company profile and discovery-pass redemption.

use std::sync::Arc;

use axum::Extension;
use axum::extract::State;

use super::{Body, with};
use crate::api::model::*;
use crate::api::validate;
use crate::demo::App;
use crate::demo::auth::Ws;
use crate::demo::clock::{date, iso};
use crate::demo::errors::{DemoResult, invalid_fields};
use crate::demo::http::{body, ok};
use crate::demo::schema::{S, arr, closed, open};
use crate::demo::store::{PASS_CODES, PassRec};

fn strings(keys: &[&'static str]) -> Vec<(&'static str, S, bool)> {
    keys.iter().map(|k| (*k, S::Str, true)).collect()
}

fn lists(keys: &[&'static str]) -> Vec<(&'static str, S, bool)> {
    keys.iter().map(|k| (*k, arr(S::Str), true)).collect()
}

/// The complete profile: every section and field required, nothing else.
fn put_shape() -> S {
    let mut content = strings(&["networkVoice", "preferredTone", "postingCadence"]);
    content.extend(lists(&[
        "recommendedTopics",
        "contentFormats",
        "topicsToAvoid",
    ]));
    let mut market = strings(&["targetAudience", "industryContext"]);
    market.extend(lists(&[
        "icpJobTitles",
        "icpIndustries",
        "icpCompanySizes",
        "icpPainPoints",
        "icpKeywords",
    ]));
    closed(vec![
        (
            "context",
            closed(vec![
                ("user", closed(strings(&["professionalBackground"])), true),
                (
                    "company",
                    closed(strings(&[
                        "overview",
                        "product",
                        "problemSolved",
                        "differentiators",
                        "networkPresence",
                    ])),
                    true,
                ),
                ("content", closed(content), true),
                ("market", closed(market), true),
                ("extra", S::AnyObj, true),
            ]),
            true,
        ),
        (
            "profile",
            closed(strings(&[
                "firstName",
                "lastName",
                "companyName",
                "website",
            ])),
            true,
        ),
    ])
}

/// `GET /api/context`.
pub(super) async fn get(State(app): State<Arc<App>>, Extension(w): Extension<Ws>) -> DemoResult {
    with(&app, w, |cx| {
        Ok(ok(ContextResponse {
            context: cx.ws.context.clone(),
            profile: Some(cx.ws.profile.clone()),
        }))
    })
}

/// `PUT /api/context`: full replacement; partial bodies are 400.
pub(super) async fn put(
    State(app): State<Arc<App>>,
    Extension(w): Extension<Ws>,
    Body(bytes): Body,
) -> DemoResult {
    let (req, _): (PutContext, _) = body(&bytes, &put_shape())?;
    with(&app, w, |cx| {
        cx.ws.context = req.context.clone();
        cx.ws.profile = req.profile.clone();
        Ok(ok(ContextEnvelope {
            context: req.context,
        }))
    })
}

/// `POST /api/test-access/redeem`.
pub(super) async fn redeem(
    State(app): State<Arc<App>>,
    Extension(w): Extension<Ws>,
    Body(bytes): Body,
) -> DemoResult {
    let (req, _): (Redeem, _) = body(&bytes, &open(vec![("code", S::Str, true)]))?;
    validate::redeem_code(&req.code).map_err(|e| invalid_fields(&e))?;
    let code = req.code.trim().to_ascii_uppercase();
    with(&app, w, |cx| {
        let now = cx.now;
        let known = PASS_CODES.iter().find(|c| c.code == code);
        let active = cx.ws.pass.as_ref().filter(|p| p.state(now).0 == "active");
        let refusal = match (known, active) {
            (None, _) => Some("Unknown code".to_owned()),
            (Some(_), _) if cx.ws.redeemed.contains(&code) => {
                Some("This code has already been redeemed".to_owned())
            }
            (Some(_), Some(p)) => Some(format!(
                "A discovery pass is already active until {}",
                date(p.expires)
            )),
            (Some(_), None) => None,
        };
        let redeemed = match (refusal.is_none(), known) {
            (true, Some(pc)) => {
                cx.ws.redeemed.push(code.clone());
                cx.ws.pass = Some(PassRec {
                    id: cx.ids.uuid(),
                    activated: now,
                    expires: now + pc.lasts,
                    limit: pc.limit,
                    used: 0,
                });
                true
            }
            _ => false,
        };
        let eligibility = match refusal {
            Some(reason) => Eligibility {
                can_redeem: false,
                reason,
            },
            None => Eligibility {
                can_redeem: false,
                reason: "Redeemed: the pass is active".into(),
            },
        };
        let mut access = cx.ws.access.clone();
        if redeemed && access.verified_at.is_none() {
            access.verified_at = Some(iso(now));
            cx.ws.access = access.clone();
        }
        Ok(ok(DiscoveryPass {
            access: Some(access),
            eligibility: Some(eligibility),
            test_access: cx.ws.pass.as_ref().map(|p| p.render(now)),
            redeemed,
        }))
    })
}
