//! Client-side validation: out-of-bound requests are refused before any
//! request is sent, with a message naming the field.

use outpost::testkit::api::model::*;
use outpost::testkit::api::{ApiError, Client};
use serde_json::json;

use crate::support::*;

#[track_caller]
fn refused<T: std::fmt::Debug>(r: Result<T, ApiError>, field: &str) {
    match r {
        Err(ApiError::Invalid(errors)) => {
            assert!(
                errors.iter().any(|e| e.path == field),
                "no error names `{field}`: {errors:?}"
            );
            let text = ApiError::Invalid(errors).to_string();
            assert!(text.starts_with("invalid request: "), "{text}");
            assert!(text.contains(field), "{text}");
        }
        other => panic!("expected a validation error naming `{field}`, got {other:?}"),
    }
}

/// `n` characters.
fn long(n: usize) -> String {
    "x".repeat(n)
}

/// A generated-messages query with this status and lead limit.
fn gm(status: Option<&str>, prospect_limit: Option<u64>) -> GeneratedMessagesQuery {
    GeneratedMessagesQuery {
        status: status.map(str::to_owned),
        prospect_limit,
        ..Default::default()
    }
}

#[tokio::test]
async fn out_of_bound_requests_never_reach_the_server() {
    let srv = Server::always(Reply::json(200, &json!({}))).await;
    let c = client(&srv.url());

    search_page_and_query_bounds(&c).await;
    predicate_bounds(&c).await;
    search_plan_bounds(&c).await;
    roster_bounds(&c).await;
    delete_and_message_bounds(&c).await;
    campaign_bounds(&c).await;
    inbox_bounds(&c).await;
    domain_and_pass_bounds(&c).await;
    assert_eq!(srv.count(), 0, "nothing was sent: {:#?}", srv.hits());
    assert_eq!(c.attempts(), 0);

    the_bounds_themselves_are_allowed(&c).await;
    assert_eq!(srv.count(), 6);
}

/// Lead Finder: the search page and results-query bounds.
async fn search_page_and_query_bounds(c: &Client) {
    for limit in [0, 501] {
        let q = SearchPageQuery {
            limit: Some(limit),
            ..Default::default()
        };
        refused(c.get_search("s1", &q).await, "limit");
    }
    refused(
        c.query_results(
            "s1",
            &ResultsQuery {
                q: Some(long(129)),
                ..Default::default()
            },
        )
        .await,
        "q",
    );
    refused(
        c.query_results(
            "s1",
            &ResultsQuery {
                limit: Some(0),
                ..Default::default()
            },
        )
        .await,
        "limit",
    );
    refused(
        c.query_results(
            "s1",
            &ResultsQuery {
                limit: Some(101),
                ..Default::default()
            },
        )
        .await,
        "limit",
    );
    refused(
        c.query_results(
            "s1",
            &ResultsQuery {
                cursor: Some(String::new()),
                ..Default::default()
            },
        )
        .await,
        "cursor",
    );
    refused(
        c.query_results(
            "s1",
            &ResultsQuery {
                cursor: Some(long(1025)),
                ..Default::default()
            },
        )
        .await,
        "cursor",
    );
}

/// Lead Finder: results-query predicates.
async fn predicate_bounds(c: &Client) {
    let p = |path: String, value: PredicateValue| Predicate {
        path,
        operator: Operator::Eq,
        value,
    };
    let six = (0..6)
        .map(|i| p(format!("f{i}"), PredicateValue::Bool(true)))
        .collect();
    refused(
        c.query_results(
            "s1",
            &ResultsQuery {
                predicates: six,
                ..Default::default()
            },
        )
        .await,
        "predicates",
    );
    let bad = vec![p(String::new(), PredicateValue::Text(long(513)))];
    let q = ResultsQuery {
        predicates: bad,
        ..Default::default()
    };
    refused(c.query_results("s1", &q).await, "predicates[0].path");
    refused(c.query_results("s1", &q).await, "predicates[0].value");
    let op = vec![Predicate {
        path: "a".into(),
        operator: Operator::Other("regex".into()),
        value: PredicateValue::Number(1.0),
    }];
    refused(
        c.query_results(
            "s1",
            &ResultsQuery {
                predicates: op,
                ..Default::default()
            },
        )
        .await,
        "predicates[0].operator",
    );
}

/// Lead Finder: a new search and its source plans.
async fn search_plan_bounds(c: &Client) {
    let mut s = crate::http::valid_search();
    s.source_plans[0].query = vec!["ok".into(), long(241)];
    s.source_plans[0].reason = String::new();
    refused(c.create_search(&s).await, "sourcePlans[0].query[1]");
    refused(c.create_search(&s).await, "sourcePlans[0].reason");
    let mut s = crate::http::valid_search();
    s.source_plans[0].unresolved_preferences = Some(vec!["a".into(); 4]);
    s.source_plans[0].person_criteria = Some(vec![]);
    refused(
        c.create_search(&s).await,
        "sourcePlans[0].unresolvedPreferences",
    );
    refused(c.create_search(&s).await, "sourcePlans[0].personCriteria");
    let mut s = crate::http::valid_search();
    s.source_plans.clear();
    s.title = " ".into();
    refused(c.create_search(&s).await, "sourcePlans");
    refused(c.create_search(&s).await, "title");
}

/// Campaigns: roster paging and lead rows.
async fn roster_bounds(c: &Client) {
    refused(
        c.list_leads(
            "c1",
            &RosterQuery {
                limit: Some(201),
                ..Default::default()
            },
        )
        .await,
        "limit",
    );
    refused(
        c.list_leads(
            "c1",
            &RosterQuery {
                limit: Some(0),
                ..Default::default()
            },
        )
        .await,
        "limit",
    );
    refused(
        c.list_leads(
            "c1",
            &RosterQuery {
                page: Some(0),
                ..Default::default()
            },
        )
        .await,
        "page",
    );
    refused(c.add_leads("c1", &Channel::Email, &[]).await, "leads");
    let lead = LeadInput {
        email: Some("a@x.io".into()),
        ..Default::default()
    };
    refused(
        c.add_leads("c1", &Channel::Email, &vec![lead.clone(); 1001])
            .await,
        "leads",
    );
    refused(
        c.add_leads("c1", &Channel::Network, std::slice::from_ref(&lead))
            .await,
        "row 0",
    );
    let rows = [
        lead,
        LeadInput {
            network_url: Some("https://n/in/x".into()),
            ..Default::default()
        },
    ];
    refused(c.add_leads("c1", &Channel::Email, &rows).await, "row 1");
}

/// Campaigns: lead deletion and generated-message queries.
async fn delete_and_message_bounds(c: &Client) {
    refused(
        c.delete_leads(
            "c1",
            &DeleteLeads::Ids {
                ids: vec!["x".into(); 501],
            },
        )
        .await,
        "ids",
    );
    refused(
        c.delete_leads("c1", &DeleteLeads::Ids { ids: vec![] })
            .await,
        "ids",
    );
    refused(
        c.delete_leads("c1", &DeleteLeads::All { all: false }).await,
        "all",
    );
    refused(
        c.generated_messages("c1", &gm(None, Some(101))).await,
        "prospect_limit",
    );
    refused(
        c.generated_messages("c1", &gm(None, Some(0))).await,
        "prospect_limit",
    );
    refused(
        c.generated_messages("c1", &gm(Some("archived"), None))
            .await,
        "status",
    );
}

/// Campaigns: create and update bodies.
async fn campaign_bounds(c: &Client) {
    refused(
        c.create_campaign(&CreateCampaign {
            kind: Channel::Email,
            ..Default::default()
        })
        .await,
        "name",
    );
    let sms = CreateCampaign {
        kind: Channel::Other("sms".into()),
        name: "n".into(),
        ..Default::default()
    };
    refused(c.create_campaign(&sms).await, "type");
    let no_end = UpdateCampaign {
        sequence_nodes: Some(vec![SequenceNodeInput {
            kind: NodeType::Email,
            ..Default::default()
        }]),
        ..Default::default()
    };
    refused(
        c.update_campaign("c1", &no_end).await,
        "sequence_nodes[0].type",
    );
}

/// Inbox: paging, new threads and thread patches.
async fn inbox_bounds(c: &Client) {
    refused(c.list_messages("t1", None, Some(201)).await, "limit");
    refused(c.list_messages("t1", Some(0), None).await, "page");
    refused(
        c.list_threads(&ThreadQuery {
            limit: Some(0),
            ..Default::default()
        })
        .await,
        "limit",
    );
    refused(c.create_thread(&CreateThread::default()).await, "thread");
    let only_sender = CreateThread {
        account_id: Some(Some("acc_1".into())),
        ..Default::default()
    };
    refused(c.create_thread(&only_sender).await, "thread");
    let attach = CreateThread {
        draft_subject: Some("x".into()),
        draft_attachments: Some(vec![json!({"name": "a.pdf"})]),
        ..Default::default()
    };
    refused(c.create_thread(&attach).await, "draft_attachments");
    refused(
        c.patch_thread("t1", &PatchThread::default()).await,
        "thread",
    );
    let draft = PatchThread {
        status: Some(ThreadStatus::Draft),
        ..Default::default()
    };
    refused(c.patch_thread("t1", &draft).await, "status");
    let huge = PatchThread {
        unread_count: Some(9_007_199_254_740_992),
        ..Default::default()
    };
    refused(c.patch_thread("t1", &huge).await, "unread_count");
}

/// Domains and the discovery pass.
async fn domain_and_pass_bounds(c: &Client) {
    refused(c.create_domain("localhost").await, "domain");
    refused(c.create_domain("bad..example.com").await, "domain");
    refused(c.redeem("").await, "code");
    refused(c.redeem("   ").await, "code");
    refused(c.redeem(&long(101)).await, "code");
}

/// The bounds themselves are allowed (6 requests).
async fn the_bounds_themselves_are_allowed(c: &Client) {
    c.redeem(&long(100)).await.unwrap();
    c.list_leads(
        "c1",
        &RosterQuery {
            page: Some(1),
            limit: Some(1),
            status: None,
        },
    )
    .await
    .unwrap();
    c.get_search(
        "s1",
        &SearchPageQuery {
            limit: Some(1),
            ..Default::default()
        },
    )
    .await
    .unwrap();
    c.query_results(
        "s1",
        &ResultsQuery {
            q: Some(long(128)),
            limit: Some(100),
            ..Default::default()
        },
    )
    .await
    .unwrap();
    c.generated_messages("c1", &gm(Some("sent"), Some(100)))
        .await
        .unwrap();
    c.list_messages("t1", Some(1), Some(200)).await.unwrap();
}
