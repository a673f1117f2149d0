//! The launch preflight as a command runs it (`logic::preflight`): the
//! campaign as the service sends it, its pending roster read page by page
//! with progress, whether the dashboard keeps an unsaved sequence for it,
//! and the report printed in groups. `campaign launch` calls [`run`] before
//! it asks to launch: errors refuse the launch, warnings need `--yes` (or a
//! second answer on a terminal).

#[cfg(test)]
use std::io::Write;
use std::path::PathBuf;

use super::Ctx;
use super::exit::Failure;
use crate::api::Client;
use crate::api::model::Campaign;
#[cfg(test)]
use crate::logic::preflight::Severity;
use crate::logic::preflight::{Preflight, Report, unsaved_sequence_key};
#[cfg(test)]
use crate::text::format;

/// Whether the dashboard keeps a sequence of `campaign` edited but not
/// saved, in this workspace's state file (`false` when it cannot be read:
/// the state file is the dashboard's, and its warnings are the
/// dashboard's to give).
pub(crate) fn unsaved_sequence(state_file: Option<PathBuf>, campaign: &str) -> bool {
    let (state, _) = crate::store::Store::new(state_file).load();
    state.drafts.contains_key(&unsaved_sequence_key(campaign))
}

/// The preflight of `campaign` (read with its sequence and senders: `GET
/// /api/campaigns/{id}`), every page of its pending roster read;
/// `progress` hears the pending leads checked and the service's count
/// after each page.
pub(crate) async fn run(
    ctx: &Ctx,
    campaign: &Campaign,
    progress: impl FnMut(u64, Option<u64>),
) -> Result<Report, Failure> {
    let unsaved = unsaved_sequence(ctx.state_file.clone(), &campaign.id);
    walk(&ctx.client, campaign, unsaved, progress).await
}

/// The preflight of `campaign` with `client`; `unsaved`: whether a
/// sequence edited in the dashboard is kept but not saved.
pub(crate) async fn walk(
    client: &Client,
    campaign: &Campaign,
    unsaved: bool,
    mut progress: impl FnMut(u64, Option<u64>),
) -> Result<Report, Failure> {
    let mut p = Preflight::new(campaign, unsaved);
    while let Some(q) = p.request() {
        let page = client
            .list_leads(&campaign.id, &q)
            .await
            .map_err(|e| Failure::api("reading the pending leads", &e))?;
        p.take(&page);
        let (checked, total) = p.progress();
        progress(checked, total);
    }
    let mut report = p.report();
    if let Some(why) = p.stopped() {
        crate::errln!("outpost: note: the preflight stopped reading the roster: {why}");
        report.complete = false;
    }
    Ok(report)
}

/// The report as lines: each group's heading, then its findings,
/// `error:` or `warning:` first; a last line for leads not checked.
#[cfg(test)]
pub(crate) fn print(report: &Report, out: &mut impl Write) -> std::io::Result<()> {
    for (kind, findings) in report.groups() {
        writeln!(out, "{}:", kind.title())?;
        for f in findings {
            let word = match f.severity() {
                Severity::Error => "error",
                Severity::Warning => "warning",
            };
            writeln!(out, "  {word}: {}", crate::text::sanitize::inline(&f.text))?;
        }
    }
    let unchecked = report.not_checked();
    if unchecked > 0 {
        writeln!(
            out,
            "{} not checked",
            format::plural(unchecked, "pending lead", "pending leads")
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::preflight::{Finding, Kind, Location};

    /// A seeded draft of the demo service, walked whole: its first email
    /// is empty, and the dashboard keeps an unsaved sequence of it.
    #[tokio::test]
    async fn a_draft_is_walked_with_progress_and_an_unsaved_sequence_is_seen() {
        let demo = crate::demo::spawn(
            ([127, 0, 0, 1], 0).into(),
            crate::demo::DemoConfig::default(),
        )
        .await
        .expect("demo service");
        let key = crate::api::ApiKey::parse(crate::demo::DEMO_KEY).expect("key");
        let client =
            Client::new(crate::api::ClientConfig::new(demo.base_url(), key)).expect("client");
        let list = client
            .list_campaigns()
            .await
            .expect("list")
            .unwrap_or_default();
        let draft = list
            .iter()
            .find(|c| c.status == crate::api::model::CampaignStatus::Draft)
            .expect("a seeded draft");
        let campaign = client.get_campaign(&draft.id).await.expect("the campaign");

        let dir = tempfile::tempdir().expect("dir");
        let state_file = dir.path().join("state.json");
        assert!(!unsaved_sequence(Some(state_file.clone()), &campaign.id));
        let mut state = crate::store::State::default();
        state.drafts.insert(
            unsaved_sequence_key(&campaign.id),
            crate::store::Draft::default(),
        );
        crate::store::Store::new(Some(state_file.clone()))
            .save(&state)
            .expect("saved");
        let unsaved = unsaved_sequence(Some(state_file), &campaign.id);
        assert!(unsaved);

        let mut seen = Vec::new();
        let report = walk(&client, &campaign, unsaved, |n, total| {
            seen.push((n, total));
        })
        .await
        .expect("walked");
        assert!(report.complete);
        assert_eq!(seen.last(), Some(&(report.checked, Some(report.checked))));
        assert!(
            report
                .warnings
                .iter()
                .any(|f| f.kind == Kind::UnsavedSequence),
            "{report:?}"
        );
    }

    #[test]
    fn a_report_prints_in_groups_errors_first() {
        let finding = |kind, text: &str| Finding {
            kind,
            location: Location::Roster,
            text: text.into(),
        };
        let report = Report {
            errors: vec![
                finding(Kind::NoBody, "Step 1 (email) has no body"),
                finding(Kind::NoBody, "Step 2 (email) has no body"),
            ],
            warnings: vec![finding(
                Kind::EmptyVariable,
                "%company% is empty for 1 of the 200 pending leads checked so far (450 in all): Rosa Garcia",
            )],
            checked: 200,
            pending: 450,
            complete: false,
        };
        let mut out = Vec::new();
        print(&report, &mut out).expect("printed");
        assert_eq!(
            String::from_utf8(out).expect("text"),
            "Steps without a body:\n  error: Step 1 (email) has no body\n  error: Step 2 (email) has no body\nEmpty variables:\n  warning: %company% is empty for 1 of the 200 pending leads checked so far (450 in all): Rosa Garcia\n250 pending leads not checked\n"
        );
    }
}
