//! `campaign launch` runs the launch preflight against `outpost serve`: an
//! empty step and an unknown variable block it (exit 8, nothing sent); a
//! variable empty for some pending leads warns with their count and names
//! and needs the second yes; the launch is then sent once.

use outpost::testkit::api::model::*;
use outpost::testkit::api::{ApiKey, Client, ClientConfig};
use serde_json::json;

use crate::support::{Serve, cli, workspace};

const NAME: &str = "Preflight launch spring";

/// A draft email campaign of 250 leads, three without a plan, whose
/// sequence is the emails given (subject, body) and the end: set up with
/// the library's client.
fn draft(serve: &Serve, emails: &[(&str, &str)]) {
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    rt.block_on(async {
        let key = ApiKey::parse(outpost::testkit::demo::DEMO_KEY).expect("key");
        let c = Client::new(ClientConfig::new(&serve.url, key)).expect("client");
        let sender = c
            .list_senders(Some(&Channel::Email))
            .await
            .expect("senders")
            .into_iter()
            .find(|s| s.status == "connected")
            .expect("a ready sender")
            .id;
        let campaign = c
            .create_campaign(&CreateCampaign {
                kind: Channel::Email,
                name: NAME.into(),
                sender_account_ids: vec![sender],
                ..Default::default()
            })
            .await
            .expect("created");
        let gaps = [(17, "Rosa Garcia"), (140, "Bo Chen"), (230, "Kim Lee")];
        let leads: Vec<LeadInput> = (0..250)
            .map(|i| {
                let gap = gaps.iter().find(|(n, _)| *n == i);
                LeadInput {
                    email: Some(format!("launch{i}@example.com")),
                    first_name: Some(format!("Lead{i}")),
                    name: gap.map(|(_, name)| (*name).to_owned()),
                    custom_fields: gap.is_none().then(|| {
                        json!({"plan": "Growth"})
                            .as_object()
                            .cloned()
                            .unwrap_or_default()
                    }),
                    ..Default::default()
                }
            })
            .collect();
        c.add_leads(&campaign.id, &Channel::Email, &leads)
            .await
            .expect("leads");
        let node = |kind, subject: &str, body: &str| SequenceNodeInput {
            kind,
            subject: subject.into(),
            body: body.into(),
        };
        let mut nodes: Vec<SequenceNodeInput> = emails
            .iter()
            .map(|(subject, body)| node(NodeType::Email, subject, body))
            .collect();
        nodes.push(node(NodeType::End, "", ""));
        let update = UpdateCampaign {
            sequence_nodes: Some(nodes),
            ..Default::default()
        };
        c.update_campaign(&campaign.id, &update)
            .await
            .expect("sequence");
    });
}

fn launches(serve: &Serve) -> usize {
    serve
        .writes()
        .iter()
        .filter(|w| w.ends_with("/launch"))
        .count()
}

#[test]
fn an_empty_step_and_an_unknown_variable_block_and_an_empty_variable_warns() {
    let serve = Serve::start(&[]);
    let dir = workspace(&serve);
    let d = dir.path();
    draft(
        &serve,
        &[
            ("Hi %frist_name%", "50% off the %custom_fields.plan% plan"),
            ("", ""),
        ],
    );
    let blocked = cli(d, &["campaign", "launch", NAME, "--yes", "--json"]);
    assert_eq!(blocked.code, 8, "{}", blocked.stderr);
    let doc = blocked.json();
    assert_eq!(doc["outcome"], "blocked");
    assert_eq!(
        doc["preflight"]["errors"],
        json!([
            {"group": "sequence", "text": "Step 2 (email) has no body"},
            {"group": "sequence", "text": "Step 1 subject: %frist_name% names no lead field (did you mean %first_name%?)"},
        ])
    );
    assert!(
        blocked.stderr.contains("errors block the launch"),
        "{}",
        blocked.stderr
    );
    assert_eq!(launches(&serve), 0, "nothing sent");
}

#[test]
fn an_empty_variable_needs_the_second_yes_and_then_it_launches_once() {
    let serve = Serve::start(&[]);
    let dir = workspace(&serve);
    let d = dir.path();
    draft(
        &serve,
        &[("Hi %first_name%", "50% off the %custom_fields.plan% plan")],
    );
    let warning =
        "%custom_fields.plan% is empty for 3 of 250 pending leads: Rosa Garcia, Bo Chen, Kim Lee";

    // On a terminal: the launch is asked, then the warning asked again;
    // "n" to the second sends nothing.
    let config = std::fs::read_to_string(d.join("config.toml")).unwrap_or_default();
    let mut pty = crate::pty::Pty::spawn(&["campaign", "launch", NAME], 160, 30, &config);
    pty.wait_for("[y/N]").expect("the launch question");
    pty.type_text("y\r");
    let screen = pty
        .wait_for("launch all the same? [y/N]")
        .expect("the second question");
    assert!(screen.contains(warning), "{screen}");
    pty.type_text("n\r");
    assert_eq!(pty.wait_exit(), Some(false));
    assert_eq!(launches(&serve), 0, "not confirmed: nothing sent");

    // --yes answers both: the warning is said, the launch sent once.
    let r = cli(d, &["campaign", "launch", NAME, "--yes", "--json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let doc = r.json();
    assert_eq!(doc["outcome"], "done");
    assert_eq!(
        doc["preflight"],
        json!({"ran": true, "errors": [], "warnings": [{"group": "leads", "text": warning}]})
    );
    assert!(
        r.stderr
            .contains(&format!("outpost: warning: leads: {warning}")),
        "{}",
        r.stderr
    );
    assert_eq!(
        serve
            .wait_writes(1)
            .iter()
            .filter(|w| w.ends_with("/launch"))
            .count(),
        1
    );
}
