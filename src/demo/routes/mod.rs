//! The HTTP routes, one module per area of the contract, and the router
//! that stacks the middleware around them.

mod campaigns;
mod context;
mod domains;
mod lead_finder;
mod senders;
mod threads;

use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, FromRequest, FromRequestParts, Path, Request};
use axum::http::request::Parts;
use axum::middleware::from_fn_with_state;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};

use super::auth::{self, Ws};
use super::clock::SimMs;
use super::errors::{DemoError, method_not_allowed, not_found};
use super::ids::IdGen;
use super::store::Workspace;
use super::{App, chaos, limits, log_layer, sim};

/// Everything a handler works on, brought up to simulated now.
pub(crate) struct Cx<'a> {
    /// The caller's workspace.
    pub ws: &'a mut Workspace,
    /// Id generator.
    pub ids: &'a mut IdGen,
    /// The poller-chain counter.
    pub chains: &'a mut u64,
    /// Simulated now.
    pub now: SimMs,
}

/// Runs `f` on the caller's workspace under the world lock, after the
/// lazy simulation has caught up with simulated now. Now is read once the
/// lock is held, so a request that waited for it never works in the past
/// of one that went before.
pub(crate) fn with<R>(app: &App, ws: Ws, f: impl FnOnce(Cx<'_>) -> R) -> R {
    let mut world = app.lock();
    let now = app.now();
    let world = &mut *world;
    let workspace = &mut world.workspaces[ws.0];
    sim::advance(workspace, now);
    f(Cx {
        ws: workspace,
        ids: &mut world.ids,
        chains: &mut world.poller_chains,
        now,
    })
}

/// The path parameters of a route; a parameter that does not decode is
/// simply an unknown id (404), never a plain-text rejection.
pub(crate) struct Ids(pub Vec<String>);

impl<S: Send + Sync> FromRequestParts<S> for Ids {
    type Rejection = DemoError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        Path::<Vec<String>>::from_request_parts(parts, state)
            .await
            .map(|Path(v)| Ids(v))
            .map_err(|_| not_found("Resource not found"))
    }
}

/// A count or offset from a request as a `usize`, saturating (a huge
/// `limit` or `offset` then simply reaches past the end of the list).
pub(super) fn to_usize(n: u64) -> usize {
    usize::try_from(n).unwrap_or(usize::MAX)
}

impl Ids {
    /// Parameter `i` (empty when absent).
    pub(super) fn get(&self, i: usize) -> &str {
        self.0.get(i).map_or("", String::as_str)
    }
}

/// A request body; a body that cannot be read (too large, broken
/// transfer) is a structured error, never a plain-text rejection.
pub(crate) struct Body(pub Bytes);

impl<S: Send + Sync> FromRequest<S> for Body {
    type Rejection = DemoError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        Bytes::from_request(req, state)
            .await
            .map(Body)
            .map_err(|e| DemoError::Structured {
                status: e.status(),
                code: "invalid_request",
                message: format!("body: {}", e.body_text()),
                extra: Default::default(),
                retry_after: None,
            })
    }
}

async fn fallback(req: Request) -> Response {
    not_found(format!("No route {} {}", req.method(), req.uri().path())).into_response()
}

async fn wrong_method(req: Request) -> Response {
    method_not_allowed(format!(
        "Method {} is not allowed on {}",
        req.method(),
        req.uri().path()
    ))
    .into_response()
}

/// The whole service.
pub(crate) fn router(app: Arc<App>) -> Router {
    use campaigns as c;
    use context as ctx;
    use domains as d;
    use lead_finder as lf;
    use senders as s;
    use threads as t;
    Router::new()
        .route("/api/lead-finder", get(lf::list).post(lf::create))
        .route("/api/lead-finder/run", post(lf::run_all))
        .route("/api/lead-finder/{id}", get(lf::get))
        .route("/api/lead-finder/{id}/run", post(lf::run))
        .route("/api/lead-finder/{id}/results/query", post(lf::query))
        .route(
            "/api/lead-finder/{id}/results/{rid}/enrichment",
            get(lf::enrichment),
        )
        .route("/api/campaigns", get(c::list).post(c::create))
        .route("/api/campaigns/{id}", get(c::get).patch(c::update))
        .route("/api/campaigns/{id}/launch", post(c::launch))
        .route("/api/campaigns/{id}/pause", post(c::pause))
        .route("/api/campaigns/{id}/resume", post(c::resume))
        .route(
            "/api/campaigns/{id}/leads",
            get(c::leads)
                .post(c::add_leads)
                .patch(c::edit_lead)
                .delete(c::delete_leads),
        )
        .route(
            "/api/campaigns/{id}/generate-messages",
            get(c::messages).patch(c::edit_message),
        )
        .route("/api/threads", get(t::list).post(t::create))
        .route(
            "/api/threads/{id}",
            get(t::get).patch(t::patch).delete(t::delete),
        )
        .route("/api/threads/{id}/messages", get(t::messages).post(t::send))
        .route("/api/senders", get(s::list))
        .route("/api/senders/{id}", get(s::get))
        .route("/api/senders/{id}/schedule", get(s::schedule))
        .route("/api/email/domains", get(d::list).post(d::create))
        .route("/api/email/domains/{id}/verify", post(d::verify))
        .route("/api/context", get(ctx::get).put(ctx::put))
        .route("/api/test-access/redeem", post(ctx::redeem))
        .fallback(fallback)
        .method_not_allowed_fallback(wrong_method)
        .layer(DefaultBodyLimit::max(8 * 1024 * 1024))
        .layer(from_fn_with_state(app.clone(), chaos::layer))
        .layer(from_fn_with_state(app.clone(), limits::layer))
        .layer(from_fn_with_state(app.clone(), auth::layer))
        .layer(from_fn_with_state(app.clone(), log_layer))
        .with_state(app)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::demo::DemoConfig;

    #[test]
    fn now_is_read_after_the_lock_is_taken() {
        let app = Arc::new(App::new(DemoConfig {
            time_scale: 60.0,
            ..DemoConfig::default()
        }));
        let held = app.lock();
        let waiting = {
            let app = app.clone();
            std::thread::spawn(move || with(&app, Ws(0), |cx| cx.now))
        };
        std::thread::sleep(std::time::Duration::from_millis(100));
        let released = app.now();
        drop(held);
        let seen = waiting.join().unwrap_or(i64::MIN);
        assert!(seen >= released, "{seen} < {released}");
    }
}
