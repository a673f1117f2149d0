//! `ApiRequest` → a tokio task calling the client → `Msg::Api`.

use std::time::Instant;

use tokio::sync::mpsc::UnboundedSender;

use crate::api::Client;
use crate::api::model::AddLeadsResponse;
use crate::app::{ApiReply, ApiRequest, Msg, RequestId};

/// Runs one request in the background; its reply comes back on `tx`.
pub fn spawn_request(client: &Client, id: RequestId, req: ApiRequest, tx: &UnboundedSender<Msg>) {
    spawn_on(client.clone(), id, req, tx);
}

/// Runs a request the user explicitly retried: one attempt, sent at once
/// even while its route family is rate limited, never re-sent by itself
/// (see [`Client::with_bypass`]).
pub fn spawn_retry(client: &Client, id: RequestId, req: ApiRequest, tx: &UnboundedSender<Msg>) {
    spawn_on(client.with_bypass(), id, req, tx);
}

fn spawn_on(client: Client, id: RequestId, req: ApiRequest, tx: &UnboundedSender<Msg>) {
    let tx = tx.clone();
    tokio::spawn(async move {
        let started = Instant::now();
        let reply = execute(&client, req).await;
        // The receiver is gone only when the dashboard is closing.
        let _ = tx.send(Msg::Api {
            id,
            latency: started.elapsed(),
            reply: Box::new(reply),
        });
    });
}

/// Calls the operation a request names.
pub async fn execute(c: &Client, req: ApiRequest) -> ApiReply {
    match req {
        ApiRequest::ListDomains { skip_sync } => ApiReply::Domains(c.list_domains(skip_sync).await),
        ApiRequest::CreateDomain { name } => ApiReply::Domain(c.create_domain(&name).await),
        ApiRequest::VerifyDomain { id, poll } => ApiReply::Domain(c.verify_domain(&id, poll).await),
        ApiRequest::ListSenders => ApiReply::Senders(c.list_senders(None).await),
        ApiRequest::SenderSchedule { id } => ApiReply::Schedule(c.sender_schedule(&id).await),
        ApiRequest::ListSearches => ApiReply::Searches(c.list_searches().await),
        ApiRequest::GetSearch { id, page } => {
            ApiReply::SearchPage(Box::new(c.get_search(&id, &page).await))
        }
        ApiRequest::CreateSearch(req) => {
            ApiReply::SearchCreated(Box::new(c.create_search(&req).await))
        }
        ApiRequest::QueryResults { id, query } => {
            ApiReply::Results(Box::new(c.query_results(&id, &query).await))
        }
        ApiRequest::RunSearch { id, continuation } => {
            ApiReply::RunStarted(Box::new(c.run_search(&id, continuation).await))
        }
        ApiRequest::RunAll => ApiReply::RunAll(Box::new(c.run_all().await)),
        ApiRequest::Enrichment { id, result_id } => {
            ApiReply::Enrichment(Box::new(c.enrichment(&id, &result_id).await))
        }
        ApiRequest::ListCampaigns => ApiReply::Campaigns(c.list_campaigns().await),
        ApiRequest::GetCampaign { id } => ApiReply::Campaign(Box::new(c.get_campaign(&id).await)),
        ApiRequest::ListLeads { id, query } => ApiReply::Roster(c.list_leads(&id, &query).await),
        ApiRequest::AddLeads { id, channel, leads } => {
            ApiReply::LeadsAdded(c.add_leads(&id, &channel, &leads).await.map(without_echo))
        }
        ApiRequest::CreateCampaign(req) => {
            ApiReply::Campaign(Box::new(c.create_campaign(&req).await))
        }
        ApiRequest::UpdateCampaign { id, update } => {
            ApiReply::Campaign(Box::new(c.update_campaign(&id, &update).await))
        }
        ApiRequest::LaunchCampaign { id } => {
            ApiReply::Campaign(Box::new(c.launch_campaign(&id).await))
        }
        ApiRequest::PauseCampaign { id } => {
            ApiReply::Campaign(Box::new(c.pause_campaign(&id).await))
        }
        ApiRequest::ResumeCampaign { id } => {
            ApiReply::Campaign(Box::new(c.resume_campaign(&id).await))
        }
        ApiRequest::EditLead { id, edit } => {
            ApiReply::Lead(Box::new(c.edit_lead(&id, &edit).await))
        }
        ApiRequest::DeleteLeads { id, which } => {
            ApiReply::LeadsDeleted(c.delete_leads(&id, &which).await)
        }
        ApiRequest::GeneratedMessages { id, query } => {
            ApiReply::Messages(c.generated_messages(&id, &query).await)
        }
        ApiRequest::EditGeneratedMessage { id, edit } => {
            ApiReply::Message(Box::new(c.edit_generated_message(&id, &edit).await))
        }
        ApiRequest::ListThreads { query } => ApiReply::Threads(c.list_threads(&query).await),
        ApiRequest::GetThread { id } => ApiReply::Thread(Box::new(c.get_thread(&id).await)),
        ApiRequest::CreateThread(req) => {
            ApiReply::ThreadCreated(Box::new(c.create_thread(&req).await))
        }
        ApiRequest::PatchThread { id, patch } => {
            ApiReply::Thread(Box::new(c.patch_thread(&id, &patch).await))
        }
        ApiRequest::DeleteThread { id } => ApiReply::ThreadDeleted(c.delete_thread(&id).await),
        ApiRequest::ListMessages { id, page, limit } => {
            ApiReply::ThreadMessages(c.list_messages(&id, page, limit).await)
        }
        ApiRequest::SendMessage { id, send } => {
            ApiReply::Sent(Box::new(c.send_message(&id, &send).await))
        }
        ApiRequest::GetSender { id } => ApiReply::Sender(Box::new(c.get_sender(&id).await)),
        ApiRequest::GetContext => ApiReply::Context(Box::new(c.get_context().await)),
        ApiRequest::PutContext(req) => ApiReply::ContextSaved(Box::new(c.put_context(&req).await)),
        ApiRequest::Redeem { code } => ApiReply::Redeemed(Box::new(c.redeem(&code).await)),
    }
}

/// The add-leads answer without the leads it echoes back: no pane shows
/// them (the roster is read again), and an echo of 1,000 leads freed here,
/// on the task that decoded it, keeps the work off the loop's thread (it
/// was a third of what an import did there; `benches/campaigns_import.rs`).
fn without_echo(mut r: AddLeadsResponse) -> AddLeadsResponse {
    r.prospects = Vec::new();
    r
}
