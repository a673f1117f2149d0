//! What one answer may cost: a page holds no more than the page size asked
//! for, an unpaged list at most `bound::LIST_MAX` items, and an answer past
//! either is refused before any of its items is decoded. Each oversized
//! answer below ends in bytes that are not JSON: a client that decoded
//! the items before counting them would stop at those bytes with a syntax
//! error instead, so the error proves the reading stopped at the first
//! item too many.

use outpost::testkit::api::ApiError;
use outpost::testkit::api::bound::{ANSWER_MAX, LIST_MAX, Overflow};
use outpost::testkit::api::model::*;

use crate::support::*;

/// `{"<key>":[<item>,<item>,…` with `n` items, then garbage instead of the
/// rest of the answer.
fn runaway(key: &str, item: &str, n: usize) -> Vec<u8> {
    let mut body = format!("{{\"{key}\":[");
    body.reserve(n * (item.len() + 1) + 16);
    for i in 0..n {
        if i > 0 {
            body.push(',');
        }
        body.push_str(item);
    }
    body.push_str(",\u{1}not json");
    body.into_bytes()
}

fn json_list(key: &str, item: &str, n: usize) -> Vec<u8> {
    format!("{{\"{key}\":[{}]}}", vec![item; n].join(",")).into_bytes()
}

#[tokio::test]
async fn an_unpaged_list_of_millions_is_refused_at_its_first_item_too_many() {
    let srv = Server::always(Reply::raw(200, runaway("campaigns", "{}", LIST_MAX + 1))).await;
    let err = client(&srv.url()).list_campaigns().await.unwrap_err();
    assert_eq!(
        err,
        ApiError::TooMany {
            what: Overflow::List,
            may_have_reached: false
        }
    );
    let text = err.to_string();
    assert!(
        text.contains("more than 100000 items in one list") && text.contains("dropped"),
        "{text}"
    );
    assert_eq!(err.code(), "response_too_large");
    assert!(!err.retryable(), "the same answer would come back");
    assert_eq!(srv.count(), 1, "not retried");

    // Every unpaged list of the contract is bound the same way.
    let srv = Server::always(Reply::raw(200, runaway("domains", "{}", LIST_MAX + 1))).await;
    let err = client(&srv.url()).list_domains(true).await.unwrap_err();
    assert!(matches!(err, ApiError::TooMany { .. }), "{err:?}");
    let srv = Server::always(Reply::raw(200, runaway("senders", "{}", LIST_MAX + 1))).await;
    let err = client(&srv.url()).list_senders(None).await.unwrap_err();
    assert!(matches!(err, ApiError::TooMany { .. }), "{err:?}");
    let srv = Server::always(Reply::raw(200, runaway("searches", "{}", LIST_MAX + 1))).await;
    let err = client(&srv.url()).list_searches().await.unwrap_err();
    assert!(matches!(err, ApiError::TooMany { .. }), "{err:?}");
}

#[tokio::test]
async fn an_unpaged_list_of_exactly_the_bound_is_read() {
    let srv = Server::always(Reply::raw(200, json_list("campaigns", "{}", LIST_MAX))).await;
    let all = client(&srv.url()).list_campaigns().await.unwrap();
    assert_eq!(all.map(|c| c.len()), Some(LIST_MAX));
}

#[tokio::test]
async fn a_page_holds_no_more_than_the_page_size_asked_for() {
    let srv = Server::always(Reply::raw(200, runaway("threads", "{}", 51))).await;
    let q = ThreadQuery {
        limit: Some(50),
        ..Default::default()
    };
    let err = client(&srv.url()).list_threads(&q).await.unwrap_err();
    assert_eq!(
        err,
        ApiError::TooMany {
            what: Overflow::Page { limit: 50 },
            may_have_reached: false
        }
    );
    assert!(
        err.to_string()
            .contains("more than the 50 items per page asked for"),
        "{err}"
    );

    // Fifty is a page.
    let srv = Server::always(Reply::raw(200, json_list("threads", "{}", 50))).await;
    let page = client(&srv.url()).list_threads(&q).await.unwrap();
    assert_eq!(page.threads.len(), 50);

    // Without a limit, the contract's largest page (200) bounds it.
    let srv = Server::always(Reply::raw(200, runaway("prospects", "{}", 201))).await;
    let err = client(&srv.url())
        .list_leads("c1", &RosterQuery::default())
        .await
        .unwrap_err();
    assert!(
        matches!(
            err,
            ApiError::TooMany {
                what: Overflow::Page { limit: 200 },
                ..
            }
        ),
        "{err:?}"
    );

    // A results page: the search's own lists are not the page.
    let body = format!(
        "{{\"search\":{{\"sourcePlans\":[{}]}},\"results\":[{}],\"pagination\":{{}}}}",
        vec!["{}"; 40].join(","),
        vec!["{}"; 26].join(",")
    );
    let srv = Server::always(Reply::raw(200, body)).await;
    let q = ResultsQuery {
        limit: Some(25),
        ..Default::default()
    };
    let err = client(&srv.url())
        .query_results("s1", &q)
        .await
        .unwrap_err();
    assert!(
        matches!(
            err,
            ApiError::TooMany {
                what: Overflow::Page { limit: 25 },
                ..
            }
        ),
        "{err:?}"
    );
}

#[tokio::test]
async fn lists_inside_items_count_toward_the_answer() {
    // Four campaigns of 50,000 senders each: no list past its bound, but
    // more items than one answer may hold.
    let senders = vec!["{}"; LIST_MAX / 2].join(",");
    let item = format!("{{\"sender_accounts\":[{senders}]}}");
    let mut body = json_list("campaigns", &item, ANSWER_MAX / (LIST_MAX / 2));
    body.truncate(body.len() - 2);
    body.extend_from_slice(b",\x01not json");
    let srv = Server::always(Reply::raw(200, body)).await;
    let err = client(&srv.url()).list_campaigns().await.unwrap_err();
    assert!(
        matches!(
            err,
            ApiError::TooMany {
                what: Overflow::Answer,
                ..
            }
        ),
        "{err:?}"
    );
}

#[tokio::test]
async fn a_write_whose_oversized_answer_was_dropped_may_have_been_made() {
    let srv = Server::always(Reply::raw(200, runaway("prospects", "{}", LIST_MAX + 1))).await;
    let lead = LeadInput {
        email: Some("a@example.com".into()),
        ..Default::default()
    };
    let err = client(&srv.url())
        .add_leads("c1", &Channel::Email, &[lead])
        .await
        .unwrap_err();
    assert!(
        matches!(
            err,
            ApiError::TooMany {
                what: Overflow::List,
                may_have_reached: true
            }
        ),
        "{err:?}"
    );
    assert!(err.maybe_accepted());
    assert!(err.to_string().contains("refresh to check"), "{err}");
}
