//! Stat trends: while a campaign is polled (launching or active, its detail
//! on screen), each answer of the poll adds its stats to a bounded ring of
//! samples for that campaign, drawn as a sparkline beside each counter. A
//! failed poll adds nothing: a gap in the service is not a zero.

use std::collections::{BTreeMap, VecDeque};

use crate::api::model::CampaignStats;

/// Samples kept per campaign (the oldest go first).
pub(crate) const SAMPLES: usize = 60;

/// Campaigns whose samples are kept (the one sampled longest ago goes
/// first), so opening many campaigns in a session stays small.
pub(crate) const CAMPAIGNS: usize = 16;

/// One campaign's samples, oldest first.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Ring {
    /// The stats of each poll, oldest first; at most [`SAMPLES`].
    pub samples: VecDeque<CampaignStats>,
    /// When it was last sampled, in samples taken by the pane (for the
    /// choice of which ring to drop).
    last: u64,
}

/// The rings of the campaigns polled in this session.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Trends {
    rings: BTreeMap<String, Ring>,
    /// Samples taken so far, all campaigns together.
    taken: u64,
}

impl Trends {
    /// Adds a poll's stats to the campaign's ring.
    pub fn record(&mut self, campaign: &str, stats: &CampaignStats) {
        self.taken += 1;
        if !self.rings.contains_key(campaign) && self.rings.len() >= CAMPAIGNS {
            let oldest = self
                .rings
                .iter()
                .min_by_key(|(_, r)| r.last)
                .map(|(id, _)| id.clone());
            if let Some(id) = oldest {
                self.rings.remove(&id);
            }
        }
        let ring = self.rings.entry(campaign.to_owned()).or_default();
        if ring.samples.len() == SAMPLES {
            ring.samples.pop_front();
        }
        ring.samples.push_back(stats.clone());
        ring.last = self.taken;
    }

    /// The campaign's samples, oldest first.
    pub fn samples(&self, campaign: &str) -> Option<&VecDeque<CampaignStats>> {
        self.rings.get(campaign).map(|r| &r.samples)
    }

    /// How many samples the campaign has.
    pub fn len(&self, campaign: &str) -> usize {
        self.samples(campaign).map_or(0, VecDeque::len)
    }

    /// One counter of the campaign over its last `n` samples, oldest
    /// first (`None` where a sample did not say it).
    pub fn series(
        &self,
        campaign: &str,
        n: usize,
        counter: impl Fn(&CampaignStats) -> Option<u64>,
    ) -> Vec<Option<u64>> {
        let Some(samples) = self.samples(campaign) else {
            return Vec::new();
        };
        let skip = samples.len().saturating_sub(n);
        samples.iter().skip(skip).map(counter).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sent(n: u64) -> CampaignStats {
        CampaignStats {
            sent: n,
            ..CampaignStats::default()
        }
    }

    #[test]
    fn a_ring_keeps_the_last_samples_in_order() {
        let mut t = Trends::default();
        for n in 0..(SAMPLES as u64 + 5) {
            t.record("c", &sent(n));
        }
        assert_eq!(t.len("c"), SAMPLES);
        let s = t.series("c", 3, |s| Some(s.sent));
        let last = SAMPLES as u64 + 4;
        assert_eq!(s, [Some(last - 2), Some(last - 1), Some(last)]);
        assert_eq!(t.series("c", 1000, |s| Some(s.sent)).len(), SAMPLES);
        assert!(t.series("other", 3, |s| Some(s.sent)).is_empty());
    }

    #[test]
    fn the_campaign_sampled_longest_ago_goes_first() {
        let mut t = Trends::default();
        for i in 0..CAMPAIGNS {
            t.record(&format!("c{i}"), &sent(1));
        }
        // c0 is sampled again: c1 is now the one sampled longest ago.
        t.record("c0", &sent(2));
        t.record("new", &sent(1));
        assert_eq!(t.len("c0"), 2);
        assert_eq!(t.len("c1"), 0, "dropped");
        assert_eq!(t.len("new"), 1);
        assert_eq!(t.rings.len(), CAMPAIGNS);
    }

    mod polls {
        //! Samples are taken by the pane's polls.

        use crossterm::event::KeyCode;

        use super::super::super::CampaignsSub;
        use crate::api::model::{Campaign, CampaignStatus, Channel};
        use crate::app::fixtures::{self, drive};
        use crate::app::{ApiReply, Cmd, Model, Msg, PaneSub, SubId, update};

        fn campaign(status: CampaignStatus, sent: u64) -> Campaign {
            let mut c = fixtures::campaign_detail("c-1", "EU", Channel::Email, status, 120);
            c.stats.sent = sent;
            c
        }

        /// Answers the campaign read among `cmds` with `c` (or an error).
        fn answer(m: &mut Model, cmds: &[Cmd], c: Result<Campaign, u16>) {
            let (id, _) = drive::api(cmds).remove(0);
            let reply = match c {
                Ok(c) => Ok(c),
                Err(status) => Err(drive::service_error(status, "{}")),
            };
            drive::reply(m, id, ApiReply::Campaign(Box::new(reply)));
        }

        /// The Campaigns pane with `c` open on its overview.
        fn opened(c: &Campaign) -> Model {
            let mut m = fixtures::model(100, 30);
            let cmds = drive::key(&mut m, KeyCode::Char('2'));
            let (id, _) = drive::api(&cmds).remove(0);
            let list = Ok(Some(vec![c.clone()]));
            drive::reply(&mut m, id, ApiReply::Campaigns(list));
            let cmds = drive::key(&mut m, KeyCode::Enter);
            answer(&mut m, &cmds, Ok(c.clone()));
            m
        }

        fn poll(m: &mut Model, c: Result<Campaign, u16>) {
            let watch = SubId::Pane(PaneSub::Campaigns(CampaignsSub::Watch("c-1".into())));
            let cmds = update(m, Msg::SubFired(watch));
            answer(m, &cmds, c);
        }

        fn sent(m: &Model) -> Vec<Option<u64>> {
            m.panes.campaigns.trends.series("c-1", 60, |s| Some(s.sent))
        }

        #[test]
        fn each_poll_of_a_sending_campaign_adds_a_sample_and_a_failed_one_none() {
            let mut m = opened(&campaign(CampaignStatus::Active, 10));
            poll(&mut m, Ok(campaign(CampaignStatus::Active, 12)));
            poll(&mut m, Err(503));
            poll(&mut m, Ok(campaign(CampaignStatus::Active, 15)));
            assert_eq!(sent(&m), [Some(10), Some(12), Some(15)]);
        }

        #[test]
        fn a_campaign_not_sending_or_not_shown_is_not_sampled() {
            let m = opened(&campaign(CampaignStatus::Paused, 10));
            assert!(sent(&m).is_empty(), "a paused campaign is not polled");
            let mut m = opened(&campaign(CampaignStatus::Active, 10));
            // Its answer arrives after the user went to another pane.
            let watch = SubId::Pane(PaneSub::Campaigns(CampaignsSub::Watch("c-1".into())));
            let cmds = update(&mut m, Msg::SubFired(watch));
            drive::key(&mut m, KeyCode::Char('1'));
            answer(&mut m, &cmds, Ok(campaign(CampaignStatus::Active, 11)));
            assert_eq!(sent(&m), [Some(10)]);
            // Paused meanwhile: the read on coming back says so, and adds
            // nothing.
            let cmds = drive::key(&mut m, KeyCode::Char('2'));
            answer(&mut m, &cmds, Ok(campaign(CampaignStatus::Paused, 11)));
            assert_eq!(sent(&m), [Some(10)]);
        }
    }
}
