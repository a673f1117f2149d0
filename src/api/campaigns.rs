//! Outbound campaign operations.

use reqwest::Method;

use super::client::{Client, json, query_of};
use super::error::ApiError;
use super::lead_finder::optional;
use super::model::*;
use super::{seg, validate};

impl Client {
    /// Lists campaigns through the optional `GET /api/campaigns` route;
    /// `Ok(None)` when the service does not offer it.
    pub async fn list_campaigns(&self) -> Result<Option<Vec<Campaign>>, ApiError> {
        optional(
            self.send::<CampaignList>(Method::GET, "/api/campaigns", &[], None)
                .await
                .map(|l| l.campaigns),
        )
    }

    /// Creates a draft campaign.
    pub async fn create_campaign(&self, req: &CreateCampaign) -> Result<Campaign, ApiError> {
        let mut e = Vec::new();
        if req.name.trim().is_empty() {
            e.push(validate::FieldError::new("name", "required"));
        }
        if !req.kind.is_known() {
            e.push(validate::FieldError::new("type", "one of network, email"));
        }
        if !e.is_empty() {
            return Err(ApiError::Invalid(e));
        }
        let env: CampaignEnvelope = self
            .send(Method::POST, "/api/campaigns", &[], json(req)?)
            .await?;
        Ok(env.campaign)
    }

    /// Reads one campaign with stats, sequence and senders.
    pub async fn get_campaign(&self, id: &str) -> Result<Campaign, ApiError> {
        let env: CampaignEnvelope = self
            .send(
                Method::GET,
                &format!("/api/campaigns/{}", seg(id)?),
                &[],
                None,
            )
            .await?;
        Ok(env.campaign)
    }

    /// Updates settings and/or replaces the sequence.
    pub async fn update_campaign(
        &self,
        id: &str,
        req: &UpdateCampaign,
    ) -> Result<Campaign, ApiError> {
        if let Some(nodes) = &req.sequence_nodes {
            validate::sequence(nodes)?;
        }
        let env: CampaignEnvelope = self
            .send(
                Method::PATCH,
                &format!("/api/campaigns/{}", seg(id)?),
                &[],
                json(req)?,
            )
            .await?;
        Ok(env.campaign)
    }

    /// Launches a draft campaign.
    pub async fn launch_campaign(&self, id: &str) -> Result<Campaign, ApiError> {
        self.campaign_action(id, "launch").await
    }

    /// Pauses an active campaign.
    pub async fn pause_campaign(&self, id: &str) -> Result<Campaign, ApiError> {
        self.campaign_action(id, "pause").await
    }

    /// Resumes a paused campaign.
    pub async fn resume_campaign(&self, id: &str) -> Result<Campaign, ApiError> {
        self.campaign_action(id, "resume").await
    }

    async fn campaign_action(&self, id: &str, action: &str) -> Result<Campaign, ApiError> {
        let env: CampaignEnvelope = self
            .send(
                Method::POST,
                &format!("/api/campaigns/{}/{action}", seg(id)?),
                &[],
                None,
            )
            .await?;
        Ok(env.campaign)
    }

    /// Lists a page of the roster.
    pub async fn list_leads(&self, id: &str, q: &RosterQuery) -> Result<RosterPage, ApiError> {
        validate::roster_query(q)?;
        self.send_page(
            Method::GET,
            &format!("/api/campaigns/{}/leads", seg(id)?),
            &query_of(q),
            None,
            q.limit.unwrap_or(validate::ROSTER_PAGE_MAX),
        )
        .await
    }

    /// Adds 1 to 1000 leads to a draft campaign of `channel`; rows lacking the
    /// channel's identity are refused before sending.
    pub async fn add_leads(
        &self,
        id: &str,
        channel: &Channel,
        leads: &[LeadInput],
    ) -> Result<AddLeadsResponse, ApiError> {
        validate::add_leads(channel, leads)?;
        let body = AddLeads {
            leads: leads.to_vec(),
        };
        self.send(
            Method::POST,
            &format!("/api/campaigns/{}/leads", seg(id)?),
            &[],
            json(&body)?,
        )
        .await
    }

    /// Edits one lead's profile fields.
    pub async fn edit_lead(&self, id: &str, req: &EditLead) -> Result<CampaignLead, ApiError> {
        let env: ProspectEnvelope = self
            .send(
                Method::PATCH,
                &format!("/api/campaigns/{}/leads", seg(id)?),
                &[],
                json(req)?,
            )
            .await?;
        Ok(env.prospect)
    }

    /// Deletes up to 500 leads, or all; returns how many were deleted.
    pub async fn delete_leads(&self, id: &str, req: &DeleteLeads) -> Result<u64, ApiError> {
        validate::delete_leads(req)?;
        let r: DeleteLeadsResponse = self
            .send(
                Method::DELETE,
                &format!("/api/campaigns/{}/leads", seg(id)?),
                &[],
                json(req)?,
            )
            .await?;
        Ok(r.deleted)
    }

    /// Lists generated messages.
    pub async fn generated_messages(
        &self,
        id: &str,
        q: &GeneratedMessagesQuery,
    ) -> Result<Vec<GeneratedMessage>, ApiError> {
        validate::generated_messages_query(q)?;
        let r: GeneratedMessages = self
            .send(
                Method::GET,
                &format!("/api/campaigns/{}/generate-messages", seg(id)?),
                &query_of(q),
                None,
            )
            .await?;
        Ok(r.messages)
    }

    /// Edits a generated email (it becomes `manually_edited`).
    pub async fn edit_generated_message(
        &self,
        id: &str,
        req: &EditGeneratedMessage,
    ) -> Result<GeneratedMessage, ApiError> {
        let env: GeneratedMessageEnvelope = self
            .send(
                Method::PATCH,
                &format!("/api/campaigns/{}/generate-messages", seg(id)?),
                &[],
                json(req)?,
            )
            .await?;
        Ok(env.message)
    }
}
