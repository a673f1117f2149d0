//! Pollers and timers as a function of the model: after every update the
//! runtime diffs `subscriptions(&model)` against what runs and starts or
//! stops only what changed. "Stop polling when the domain is no longer
//! watched" therefore needs no code: the subscription simply disappears.

use std::time::Duration;

use super::Model;

/// Identifies a subscription; the runtime keeps one task per id.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SubId {
    /// Poll a verifying domain (`poll=true`); the number is the watch's
    /// generation, bumped by a manual check so the timer restarts.
    DomainWatch(String, u32),
    /// Poll a search while its run is queued or running.
    RunWatch(String),
    /// One-second tick while a countdown is on screen.
    Countdown,
    /// Tick while a toast is waiting to expire.
    Toasts,
}

/// A wanted subscription: fire `Msg::SubFired(id)` every `every`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sub {
    /// Identity.
    pub id: SubId,
    /// Period; a change restarts the timer.
    pub every: Duration,
}

/// Every subscription the model wants now.
pub fn subscriptions(m: &Model) -> Vec<Sub> {
    let mut subs = Vec::new();
    m.domains.subscriptions(m, &mut subs);
    m.leads.subscriptions(m, &mut subs);
    if m.countdown_visible() {
        subs.push(Sub {
            id: SubId::Countdown,
            every: Duration::from_secs(1),
        });
    }
    if !m.toasts.is_empty() {
        subs.push(Sub {
            id: SubId::Toasts,
            every: Duration::from_millis(500),
        });
    }
    subs
}
