//! Authentication, first on every request: a missing, malformed or unknown
//! Bearer key is 401 with the structured envelope, even on routes or ids
//! that do not exist. The key never leaves this module (not logged, not
//! echoed).

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::header::AUTHORIZATION;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::App;
use super::errors::unauthorized;

/// The workspace the request's key belongs to (an index into the world).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Ws(pub usize);

/// The Bearer token of a request, if the header is well-formed.
fn bearer(req: &Request) -> Result<&str, &'static str> {
    let value = req
        .headers()
        .get(AUTHORIZATION)
        .ok_or("Missing API key: send the header `Authorization: Bearer <API_KEY>`")?;
    let text = value.to_str().map_err(|_| "Invalid API key")?;
    let (scheme, token) = text
        .trim()
        .split_once(' ')
        .ok_or("Invalid authorization header: expected `Bearer <API_KEY>`")?;
    if !scheme.eq_ignore_ascii_case("bearer") {
        return Err("Invalid authorization header: expected `Bearer <API_KEY>`");
    }
    let token = token.trim();
    if !token.starts_with(crate::api::key::KEY_PREFIX) {
        return Err("Invalid API key");
    }
    Ok(token)
}

/// The middleware: resolves the key to a workspace or answers 401.
pub(crate) async fn layer(State(app): State<Arc<App>>, mut req: Request, next: Next) -> Response {
    let ws = match bearer(&req) {
        Ok(token) => app.workspace_of(token),
        Err(msg) => return unauthorized(msg).into_response(),
    };
    match ws {
        Some(i) => {
            req.extensions_mut().insert(Ws(i));
            next.run(req).await
        }
        None => unauthorized("Invalid API key").into_response(),
    }
}
