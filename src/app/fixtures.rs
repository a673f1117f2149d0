//! Sample data for tests, snapshots and benchmarks (not used by the app).

use std::time::Instant;

use super::{Model, Session};
use crate::api::model::*;
use crate::config::keymap::Keymap;
use crate::store::State;

/// Wall clock of the fixtures: 2026-11-22T12:00:00Z.
pub const CLOCK: i64 = 1_795_348_800;

/// A model of the given size against a demo session, on the Domains pane.
pub fn model(w: u16, h: u16) -> Model {
    let session = Session {
        host: "127.0.0.1:8787".into(),
        demo: true,
        masked_key: "pk_live_…".into(),
        loopback: true,
    };
    let mut state = State::default();
    state.prefs.last_pane = Some("domains".into());
    let mut m = Model::new(Instant::now(), (w, h), session, Keymap::default(), state);
    m.clock = CLOCK;
    m
}

fn record(kind: &str, name: &str, value: &str, priority: u64) -> DnsRecord {
    DnsRecord {
        kind: kind.into(),
        name: name.into(),
        value: value.into(),
        priority,
    }
}

/// One domain with the three records to publish.
pub fn domain(id: &str, name: &str, status: DomainStatus, created_at: &str) -> SendingDomain {
    SendingDomain {
        id: id.into(),
        user_id: "user-1".into(),
        domain: name.into(),
        provider_domain_id: format!("prov-{id}"),
        verified_at: (status == DomainStatus::Verified).then(|| "2026-11-21T09:30:00Z".to_owned()),
        status,
        dns_records: vec![
            record(
                "TXT",
                &format!("resend._domainkey.{name}"),
                "p=MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQDx3",
                0,
            ),
            record(
                "TXT",
                &format!("send.{name}"),
                "v=spf1 include:amazonses.com ~all",
                0,
            ),
            record(
                "MX",
                &format!("send.{name}"),
                "feedback-smtp.us-east-1.amazonses.com",
                10,
            ),
            record("TXT", &format!("_dmarc.{name}"), "v=DMARC1; p=none;", 0),
        ],
        created_at: created_at.into(),
        updated_at: created_at.into(),
    }
}

/// Domains in every status, newest first.
pub fn domains() -> Vec<SendingDomain> {
    vec![
        domain(
            "d-4",
            "mail.brightlabs.io",
            DomainStatus::Verifying,
            "2026-11-22T11:50:00Z",
        ),
        domain(
            "d-3",
            "outreach.northwind.com",
            DomainStatus::Pending,
            "2026-11-21T08:00:00Z",
        ),
        domain(
            "d-2",
            "fail.example.org",
            DomainStatus::Failed,
            "2026-11-19T15:00:00Z",
        ),
        domain(
            "d-1",
            "acme-mail.com",
            DomainStatus::Verified,
            "2026-11-02T10:00:00Z",
        ),
    ]
}

/// Senders of both types, one email sender not ready.
pub fn senders() -> Vec<SenderAccount> {
    let s = |id: &str, kind: Channel, name: &str, email: &str, status: &str| SenderAccount {
        id: id.into(),
        kind,
        email_address: email.into(),
        provider_account_id: format!("acct-{id}"),
        display_name: name.into(),
        status: status.into(),
        first_name: name.split(' ').next().unwrap_or("").into(),
        last_name: name.split(' ').nth(1).unwrap_or("").into(),
        daily_limit: 40,
        is_default_sender: id == "s-1",
        weekly_connection_limit: 100,
        weekly_message_limit: 150,
        is_premium: id == "s-3",
    };
    vec![
        s(
            "s-1",
            Channel::Email,
            "Dana Reyes",
            "dana@acme-mail.com",
            "connected",
        ),
        s(
            "s-2",
            Channel::Email,
            "Sam Ortiz",
            "sam@outreach.northwind.com",
            "inbox_not_configured",
        ),
        s("s-3", Channel::Network, "Priya Natarajan", "", "connected"),
    ]
}
