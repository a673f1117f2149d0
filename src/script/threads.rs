//! `outpost threads`: inbox threads, latest activity first.
//!
//! `threads --json`:
//!
//! ```json
//! {"total": 0,
//!  "threads": [{"id", "status", "participant_email", "participant_name",
//!               "draft_subject", "unread_count", "account_id",
//!               "created_at", "updated_at"}]}
//! ```
//!
//! `total` is how many threads the service holds (with `--status`, of that
//! status); `threads` holds at most `--limit` of them.

use std::io::Write;

use clap::Args;
use serde::Serialize;

use super::Ctx;
use super::exit::{Exit, Failure};
use super::output::{Col, Table, stdout_failure, write_json};
use crate::api::model::{Thread, ThreadQuery};
use crate::text::format;

/// Threads per page asked for (the contract's most).
const PAGE: u64 = 200;

/// Flags of `outpost threads`.
#[derive(Debug, Clone, Args)]
pub struct ThreadsArgs {
    /// Only threads of this status: draft, active or archived.
    #[arg(long, value_name = "STATUS", value_parser = ["draft", "active", "archived"])]
    pub status: Option<String>,
    /// At most N threads (pages are read until there are N).
    #[arg(long, value_name = "N", default_value_t = 50)]
    pub limit: u64,
    /// Print one JSON document instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// One thread in `threads --json`.
#[derive(Debug, Serialize)]
struct ThreadJson<'a> {
    id: &'a str,
    status: &'a str,
    participant_email: &'a str,
    participant_name: Option<&'a str>,
    draft_subject: Option<&'a str>,
    unread_count: u64,
    account_id: Option<&'a str>,
    created_at: Option<&'a str>,
    updated_at: Option<&'a str>,
}

impl<'a> From<&'a Thread> for ThreadJson<'a> {
    fn from(t: &'a Thread) -> Self {
        ThreadJson {
            id: &t.id,
            status: t.status.as_str(),
            participant_email: &t.participant_email,
            participant_name: t.participant_name.as_deref(),
            draft_subject: t.draft_subject.as_deref(),
            unread_count: t.unread_count,
            account_id: t.account_id.as_deref(),
            created_at: t.created_at.as_deref(),
            updated_at: t.updated_at.as_deref(),
        }
    }
}

/// `threads --json`.
#[derive(Debug, Serialize)]
struct ThreadsJson<'a> {
    total: u64,
    threads: Vec<ThreadJson<'a>>,
}

/// `outpost threads`.
pub(crate) async fn threads(
    ctx: &Ctx,
    a: &ThreadsArgs,
    out: &mut impl Write,
) -> Result<Exit, Failure> {
    let mut list: Vec<Thread> = Vec::new();
    let mut total = 0;
    let mut page = 1;
    while (list.len() as u64) < a.limit {
        let q = ThreadQuery {
            page: Some(page),
            limit: Some(PAGE.min(a.limit.max(1))),
            status: a.status.clone(),
        };
        let p: crate::api::model::ThreadPage = ctx
            .read(crate::api::ApiRequest::ListThreads { query: q.clone() })
            .await
            .map_err(|e| Failure::api("listing the threads", &e))?;
        total = p.total;
        let n = p.threads.len();
        let room = usize::try_from(a.limit).unwrap_or(usize::MAX) - list.len();
        list.extend(p.threads.into_iter().take(room));
        // A short page is the last; so is one past the total.
        if n == 0 || (list.len() as u64) >= total || (n as u64) < q.limit.unwrap_or(PAGE) {
            break;
        }
        page += 1;
    }
    let written = if a.json {
        write_json(
            out,
            &ThreadsJson {
                total,
                threads: list.iter().map(ThreadJson::from).collect(),
            },
        )
    } else {
        let mut t = Table::new(&[
            Col::left("ID", 0),
            Col::left("STATUS", 8),
            Col::num("UNREAD"),
            Col::left("PARTICIPANT", 36),
            Col::left("DRAFT SUBJECT", 36),
            Col::left("UPDATED", 16),
        ]);
        for th in &list {
            let who = match th.participant_name.as_deref().map(str::trim) {
                Some(n) if !n.is_empty() => format!("{n} <{}>", th.participant_email),
                _ => th.participant_email.clone(),
            };
            t.row(&[
                th.id.clone(),
                th.status.to_string(),
                format::count(th.unread_count),
                who,
                th.draft_subject.clone().unwrap_or_default(),
                format::date(th.updated_at.as_deref().unwrap_or_default()),
            ]);
        }
        if t.is_empty() {
            writeln!(out, "no threads")
        } else {
            if total > list.len() as u64 {
                crate::errln!(
                    "outpost: note: {} of {} threads shown; --limit N shows more",
                    format::count(list.len() as u64),
                    format::count(total)
                );
            }
            t.write(out)
        }
    };
    written.map_err(|e| stdout_failure(&e))?;
    Ok(Exit::Ok)
}
