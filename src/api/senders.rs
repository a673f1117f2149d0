//! Sender and sending-domain operations.

use reqwest::Method;
use serde_json::Value;

use super::client::{Client, json};
use super::error::ApiError;
use super::model::*;
use super::{seg, validate};

impl Client {
    /// Lists senders, all or of one channel.
    pub async fn list_senders(
        &self,
        kind: Option<&Channel>,
    ) -> Result<Vec<SenderAccount>, ApiError> {
        let q: Vec<(String, String)> = kind
            .map(|k| vec![("type".to_owned(), k.as_str().to_owned())])
            .unwrap_or_default();
        let r: SenderList = self.send(Method::GET, "/api/senders", &q, None).await?;
        Ok(r.senders)
    }

    /// Reads one sender.
    pub async fn get_sender(&self, id: &str) -> Result<SenderAccount, ApiError> {
        let env: SenderEnvelope = self
            .send(
                Method::GET,
                &format!("/api/senders/{}", seg(id)?),
                &[],
                None,
            )
            .await?;
        Ok(env.sender)
    }

    /// A sender's future capacity map; its shape is not shown by the
    /// contract, so it stays JSON.
    pub async fn sender_schedule(&self, id: &str) -> Result<Value, ApiError> {
        self.send(
            Method::GET,
            &format!("/api/senders/{}/schedule", seg(id)?),
            &[],
            None,
        )
        .await
    }

    /// Lists sending domains, newest first; `skip_sync` returns cached status.
    pub async fn list_domains(&self, skip_sync: bool) -> Result<Vec<SendingDomain>, ApiError> {
        let q: Vec<(String, String)> = if skip_sync {
            vec![("skip_sync".to_owned(), "true".to_owned())]
        } else {
            Vec::new()
        };
        let r: DomainList = self
            .send(Method::GET, "/api/email/domains", &q, None)
            .await?;
        Ok(r.domains)
    }

    /// Adds a sending domain.
    pub async fn create_domain(&self, name: &str) -> Result<SendingDomain, ApiError> {
        let name = name.trim().trim_end_matches('.').to_ascii_lowercase();
        validate::domain_name(&name)?;
        let env: DomainEnvelope = self
            .send(
                Method::POST,
                "/api/email/domains",
                &[],
                json(&CreateDomain { domain: name })?,
            )
            .await?;
        Ok(env.domain)
    }

    /// Verifies a domain: trigger mode, or with `poll` only reads the live
    /// status.
    pub async fn verify_domain(&self, id: &str, poll: bool) -> Result<SendingDomain, ApiError> {
        let q: Vec<(String, String)> = if poll {
            vec![("poll".to_owned(), "true".to_owned())]
        } else {
            Vec::new()
        };
        let env: DomainEnvelope = self
            .send(
                Method::POST,
                &format!("/api/email/domains/{}/verify", seg(id)?),
                &q,
                None,
            )
            .await?;
        Ok(env.domain)
    }
}
