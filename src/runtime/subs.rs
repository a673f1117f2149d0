//! Runs the subscriptions the model asks for: diffs the wanted set against
//! the running tasks after every update, starting only new ones, stopping
//! only gone ones, and restarting those whose period changed.

use std::collections::BTreeMap;
use std::time::Duration;

use tokio::sync::mpsc::UnboundedSender;
use tokio::task::JoinHandle;
use tokio::time::{Instant, MissedTickBehavior};

use crate::app::{Msg, Sub, SubId};

/// The running subscription tasks.
#[derive(Debug, Default)]
pub(crate) struct SubManager {
    running: BTreeMap<SubId, (Duration, JoinHandle<()>)>,
}

impl SubManager {
    /// Makes the running set equal to `wanted`.
    pub(crate) fn sync(&mut self, wanted: Vec<Sub>, tx: &UnboundedSender<Msg>) {
        let wanted: BTreeMap<SubId, Duration> =
            wanted.into_iter().map(|s| (s.id, s.every)).collect();
        self.running.retain(|id, (every, task)| {
            let keep = wanted.get(id) == Some(every);
            if !keep {
                task.abort();
            }
            keep
        });
        for (id, every) in wanted {
            if self.running.contains_key(&id) {
                continue;
            }
            let tx = tx.clone();
            let sub = id.clone();
            let task = tokio::spawn(async move {
                let every = every.max(Duration::from_millis(50));
                let mut tick = tokio::time::interval_at(Instant::now() + every, every);
                tick.set_missed_tick_behavior(MissedTickBehavior::Delay);
                loop {
                    tick.tick().await;
                    if tx.send(Msg::SubFired(sub.clone())).is_err() {
                        break;
                    }
                }
            });
            self.running.insert(id, (every, task));
        }
    }
}

impl Drop for SubManager {
    fn drop(&mut self) {
        for (_, (_, task)) in std::mem::take(&mut self.running) {
            task.abort();
        }
    }
}
