//! Lead Finder operations.

use reqwest::Method;

use super::client::{Client, json};
use super::error::ApiError;
use super::model::*;
use super::{seg, validate};

impl Client {
    /// Lists searches through the optional `GET /api/lead-finder` route;
    /// `Ok(None)` when the service does not offer it (404 or 405).
    pub async fn list_searches(&self) -> Result<Option<Vec<Search>>, ApiError> {
        optional(
            self.send::<SearchList>(Method::GET, "/api/lead-finder", &[], None)
                .await
                .map(|l| l.searches),
        )
    }

    /// Creates a search (`POST /api/lead-finder`), validated first.
    pub async fn create_search(&self, req: &CreateSearch) -> Result<Search, ApiError> {
        validate::create_search(req)?;
        let env: SearchEnvelope = self
            .send(Method::POST, "/api/lead-finder", &[], json(req)?)
            .await?;
        Ok(env.search)
    }

    /// Reads a search with a page of its results and its latest run.
    pub async fn get_search(
        &self,
        id: &str,
        page: &SearchPageQuery,
    ) -> Result<SearchPage, ApiError> {
        validate::search_page(page)?;
        let mut q = Vec::new();
        if let Some(v) = page.limit {
            q.push(("limit".to_owned(), v.to_string()));
        }
        if let Some(v) = page.offset {
            q.push(("offset".to_owned(), v.to_string()));
        }
        if let Some(v) = page.cursor {
            q.push(("cursor".to_owned(), v.to_string()));
        }
        self.send_page(
            Method::GET,
            &format!("/api/lead-finder/{}", seg(id)?),
            &q,
            None,
            page.limit.unwrap_or(validate::SEARCH_PAGE_MAX),
        )
        .await
    }

    /// Filters a search's results (`POST .../results/query`), validated first.
    pub async fn query_results(
        &self,
        id: &str,
        query: &ResultsQuery,
    ) -> Result<ResultsPage, ApiError> {
        validate::results_query(query)?;
        self.send_page(
            Method::POST,
            &format!("/api/lead-finder/{}/results/query", seg(id)?),
            &[],
            json(query)?,
            query.limit.unwrap_or(validate::RESULTS_PAGE_MAX),
        )
        .await
    }

    /// Runs one search; `continuation` resumes a resumable run.
    pub async fn run_search(
        &self,
        id: &str,
        continuation: Option<bool>,
    ) -> Result<RunResponse, ApiError> {
        let q: Vec<(String, String)> = continuation
            .map(|c| vec![("continuation".to_owned(), c.to_string())])
            .unwrap_or_default();
        self.send(
            Method::POST,
            &format!("/api/lead-finder/{}/run", seg(id)?),
            &q,
            None,
        )
        .await
    }

    /// Runs every eligible search.
    pub async fn run_all(&self) -> Result<RunAllResponse, ApiError> {
        self.send(Method::POST, "/api/lead-finder/run", &[], None)
            .await
    }

    /// Reads a result's enrichment profile and field descriptors.
    pub async fn enrichment(
        &self,
        id: &str,
        result_id: &str,
    ) -> Result<EnrichmentResponse, ApiError> {
        self.send(
            Method::GET,
            &format!(
                "/api/lead-finder/{}/results/{}/enrichment",
                seg(id)?,
                seg(result_id)?
            ),
            &[],
            None,
        )
        .await
    }
}

/// Maps "route not offered" (404, 405) on an optional route to `Ok(None)`.
pub(crate) fn optional<T>(r: Result<T, ApiError>) -> Result<Option<T>, ApiError> {
    match r {
        Ok(v) => Ok(Some(v)),
        Err(e) if matches!(e.status(), Some(404 | 405)) => Ok(None),
        Err(e) => Err(e),
    }
}
