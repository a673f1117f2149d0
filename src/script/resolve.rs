//! The commands' id arguments: a campaign, a search, a thread or a sender
//! named by its id, a unique id prefix, its exact name, or (for a read) a
//! unique part of its name — [`crate::logic::resolve`], the rule `:open`
//! follows too, fed with the service's lists (or, where the service does
//! not list campaigns or searches, the ids this workspace has seen, with
//! their labels).
//!
//! A whole id is read at once (no list needed) and taken only when the
//! service answers 200; a name is never sent as an id: what matches
//! nothing is refused before any request for it.

use super::Ctx;
use super::exit::{Exit, Failure};
use crate::api::model::{
    Campaign, Search, SearchPage, SearchPageQuery, SenderAccount, Thread, ThreadPage, ThreadQuery,
};
use crate::api::{ApiError, ApiRequest};
use crate::logic::resolve::{Item, Refused, Resolved, Use, looks_like_full_id, resolve};

/// Threads per page read to resolve a thread (the contract's most).
const THREAD_PAGE: u64 = 200;

/// A refusal as the command's failure: nothing matching is "not found"
/// (1), several or a part of a name for a change is a usage error (64).
fn refused(r: &Refused, typed: &str, kind: &str) -> Failure {
    let exit = match r {
        Refused::Unknown => Exit::Failed,
        _ => Exit::Usage,
    };
    let code = match r {
        Refused::Unknown => "not_found: ",
        _ => "",
    };
    let mut f = Failure::new(exit, format!("{code}{}", r.text(typed, kind)));
    if matches!(r, Refused::Unknown) {
        f.code = Some("not_found".into());
    }
    f
}

/// Resolves `typed` among `items`; the id to read, or the refusal.
fn pick(typed: &str, items: &[Item], use_: Use, kind: &str) -> Result<String, Failure> {
    match resolve(typed, items, use_) {
        Ok(Resolved::Found { id, .. } | Resolved::ReadFirst(id)) => Ok(id),
        Err(r) => Err(refused(&r, typed, kind)),
    }
}

/// A read of an id that came from a list or was typed whole: a 404 says
/// no such item (the typed text named in it).
fn read_failed(kind: &str, typed: &str, e: &ApiError) -> Failure {
    Failure::api(&format!("reading {kind} {}", typed.trim()), e)
}

/// The campaign `typed` names, read.
pub(crate) async fn campaign(ctx: &Ctx, typed: &str, use_: Use) -> Result<Campaign, Failure> {
    let id = if looks_like_full_id(typed) {
        typed.trim().to_owned()
    } else {
        let items = match ctx
            .read::<Option<Vec<Campaign>>>(ApiRequest::ListCampaigns)
            .await
        {
            Ok(Some(list)) => list.into_iter().map(|c| Item::new(c.id, c.name)).collect(),
            Ok(None) => known(ctx, false),
            Err(e) => return Err(Failure::api("listing the campaigns", &e)),
        };
        pick(typed, &items, use_, "campaign")?
    };
    ctx.read(ApiRequest::GetCampaign { id })
        .await
        .map_err(|e| read_failed("campaign", typed, &e))
}

/// The search `typed` names, read with its latest run (and one result).
pub(crate) async fn search(ctx: &Ctx, typed: &str, use_: Use) -> Result<SearchPage, Failure> {
    let id = if looks_like_full_id(typed) {
        typed.trim().to_owned()
    } else {
        let items = match ctx
            .read::<Option<Vec<Search>>>(ApiRequest::ListSearches)
            .await
        {
            Ok(Some(list)) => list
                .into_iter()
                .map(|s| Item::new(s.search_id, s.title))
                .collect(),
            Ok(None) => known(ctx, true),
            Err(e) => return Err(Failure::api("listing the searches", &e)),
        };
        pick(typed, &items, use_, "search")?
    };
    let page = SearchPageQuery {
        limit: Some(1),
        ..SearchPageQuery::default()
    };
    ctx.read::<SearchPage>(ApiRequest::GetSearch { id, page })
        .await
        .map_err(|e| read_failed("search", typed, &e))
}

/// The thread `typed` names (by id, prefix, participant address or name),
/// read.
pub(crate) async fn thread(ctx: &Ctx, typed: &str, use_: Use) -> Result<Thread, Failure> {
    let id = if looks_like_full_id(typed) {
        typed.trim().to_owned()
    } else {
        let mut items = Vec::new();
        let mut page = 1;
        loop {
            let q = ThreadQuery {
                page: Some(page),
                limit: Some(THREAD_PAGE),
                status: None,
            };
            let p: ThreadPage = ctx
                .read(ApiRequest::ListThreads { query: q })
                .await
                .map_err(|e| Failure::api("listing the threads", &e))?;
            let n = p.threads.len() as u64;
            items.extend(p.threads.into_iter().map(|t| {
                Item {
                    names: std::iter::once(t.participant_email.clone())
                        .chain(t.participant_name.clone())
                        .filter(|n| !n.trim().is_empty())
                        .collect(),
                    id: t.id,
                }
            }));
            if n < THREAD_PAGE || items.len() as u64 >= p.total {
                break;
            }
            page += 1;
        }
        pick(typed, &items, use_, "thread")?
    };
    ctx.read(ApiRequest::GetThread { id })
        .await
        .map_err(|e| read_failed("thread", typed, &e))
}

/// The email sender `typed` names (by id, prefix or address), among the
/// workspace's senders.
pub(crate) async fn sender(ctx: &Ctx, typed: &str) -> Result<SenderAccount, Failure> {
    let list: Vec<SenderAccount> = ctx
        .read(ApiRequest::ListSenders)
        .await
        .map_err(|e| Failure::api("listing the senders", &e))?;
    let items: Vec<Item> = list
        .iter()
        .filter(|s| s.kind.as_str() == "email")
        .map(|s| Item {
            id: s.id.clone(),
            names: vec![s.email_address.clone(), s.display_name.clone()],
        })
        .collect();
    let id = match resolve(typed, &items, Use::Write) {
        Ok(Resolved::Found { id, .. }) => id,
        // Senders are always listed: a whole id not among them is none.
        Ok(Resolved::ReadFirst(_)) => {
            return Err(refused(&Refused::Unknown, typed, "email sender"));
        }
        Err(r) => return Err(refused(&r, typed, "email sender")),
    };
    list.into_iter()
        .find(|s| s.id == id)
        .ok_or_else(|| refused(&Refused::Unknown, typed, "email sender"))
}

/// The ids this workspace's state knows, with their labels as names.
fn known(ctx: &Ctx, searches: bool) -> Vec<Item> {
    super::searches::known_ids(ctx, searches)
        .into_iter()
        .map(|k| Item::new(k.id, k.label))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_matching_is_not_found_and_several_a_usage_error() {
        let f = refused(&Refused::Unknown, "nope", "campaign");
        assert_eq!(f.exit, Exit::Failed);
        assert!(
            f.message
                .starts_with("not_found: no campaign matches \"nope\"")
        );
        let f = refused(
            &Refused::Ambiguous {
                how: crate::logic::resolve::How::Prefix,
                matches: vec![("a".into(), "A".into()), ("b".into(), "B".into())],
            },
            "abcd",
            "campaign",
        );
        assert_eq!(f.exit, Exit::Usage);
    }
}
