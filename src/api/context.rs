//! Company profile and discovery-pass operations.

use reqwest::Method;

use super::client::{Client, json};
use super::error::ApiError;
use super::model::*;
use super::validate;

impl Client {
    /// Reads the company profile.
    pub async fn get_context(&self) -> Result<ContextResponse, ApiError> {
        self.send(Method::GET, "/api/context", &[], None).await
    }

    /// Replaces the whole company profile.
    pub async fn put_context(&self, req: &PutContext) -> Result<CompanyContext, ApiError> {
        let env: ContextEnvelope = self
            .send(Method::PUT, "/api/context", &[], json(req)?)
            .await?;
        Ok(env.context)
    }

    /// Redeems a discovery-pass code.
    pub async fn redeem(&self, code: &str) -> Result<DiscoveryPass, ApiError> {
        let code = code.trim();
        validate::redeem_code(code)?;
        self.send(
            Method::POST,
            "/api/test-access/redeem",
            &[],
            json(&Redeem {
                code: code.to_owned(),
            })?,
        )
        .await
    }
}
