//! Inbox thread operations.

use reqwest::Method;

use super::client::{Client, json, query_of};
use super::error::ApiError;
use super::model::*;
use super::{seg, validate};

impl Client {
    /// Lists threads, newest activity first.
    pub async fn list_threads(&self, q: &ThreadQuery) -> Result<ThreadPage, ApiError> {
        validate::thread_paging(q.page, q.limit)?;
        self.send_page(
            Method::GET,
            "/api/threads",
            &query_of(q),
            None,
            q.limit.unwrap_or(validate::THREAD_PAGE_MAX),
        )
        .await
    }

    /// Reads one thread.
    pub async fn get_thread(&self, id: &str) -> Result<Thread, ApiError> {
        let env: ThreadEnvelope = self
            .send(
                Method::GET,
                &format!("/api/threads/{}", seg(id)?),
                &[],
                None,
            )
            .await?;
        Ok(env.thread)
    }

    /// Creates a draft thread (does not send). A 409 carries the existing
    /// thread: see [`ApiError::existing_thread`].
    pub async fn create_thread(
        &self,
        req: &CreateThread,
    ) -> Result<CreateThreadResponse, ApiError> {
        validate::create_thread(req)?;
        self.send(Method::POST, "/api/threads", &[], json(req)?)
            .await
    }

    /// Updates a thread (status, unread count, sender, draft fields).
    pub async fn patch_thread(&self, id: &str, req: &PatchThread) -> Result<Thread, ApiError> {
        validate::patch_thread(req)?;
        let env: ThreadEnvelope = self
            .send(
                Method::PATCH,
                &format!("/api/threads/{}", seg(id)?),
                &[],
                json(req)?,
            )
            .await?;
        Ok(env.thread)
    }

    /// Deletes an unsent draft thread. An empty 200 or 204 answer is a
    /// success too, not only `{deleted: true}`.
    pub async fn delete_thread(&self, id: &str) -> Result<(), ApiError> {
        let _: Option<Deleted> = self
            .send(
                Method::DELETE,
                &format!("/api/threads/{}", seg(id)?),
                &[],
                None,
            )
            .await?;
        Ok(())
    }

    /// Lists a page of a thread's messages, oldest first.
    pub async fn list_messages(
        &self,
        id: &str,
        page: Option<u64>,
        limit: Option<u64>,
    ) -> Result<MessagesPage, ApiError> {
        validate::thread_paging(page, limit)?;
        let mut q = Vec::new();
        if let Some(p) = page {
            q.push(("page".to_owned(), p.to_string()));
        }
        if let Some(l) = limit {
            q.push(("limit".to_owned(), l.to_string()));
        }
        self.send_page(
            Method::GET,
            &format!("/api/threads/{}/messages", seg(id)?),
            &q,
            None,
            limit.unwrap_or(validate::THREAD_PAGE_MAX),
        )
        .await
    }

    /// Sends the thread's message. Never retried after it may have reached
    /// the service: a second send must be impossible.
    pub async fn send_message(
        &self,
        id: &str,
        req: &SendMessage,
    ) -> Result<SendMessageResponse, ApiError> {
        self.send(
            Method::POST,
            &format!("/api/threads/{}/messages", seg(id)?),
            &[],
            json(req)?,
        )
        .await
    }
}
