//! The one way replies are matched to requests, for every pane: each
//! request (or file effect) gets a fresh [`RequestId`] and an entry
//! `id → purpose` here. A reply whose id is no longer in the table was
//! forgotten — the user moved on — and is dropped before any pane sees it;
//! a pane that no longer wants an answer forgets its entry. What is in
//! flight for a pane is read from the table, not kept in pane fields, and
//! so is the status bar's count of requests on the wire
//! ([`Requests::in_flight`]).

use std::collections::{BTreeMap, BTreeSet};

use super::registry::Registered;
use super::{Purpose, RequestId};

/// What an id stands for: a request to the service, or a local effect
/// (a file check or write, a CSV read, a DNS question).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A request to the service: counted in [`Requests::in_flight`].
    Api,
    /// A local effect, answered like a request but not network activity.
    Effect,
}

/// Requests in flight and what each is for.
#[derive(Debug, Default)]
pub struct Requests {
    table: BTreeMap<RequestId, (Purpose, Kind)>,
    /// Requests to the service a pane forgot while they are still on the
    /// wire: no pane sees their replies, but they count as in flight until
    /// those arrive (or another workspace opens).
    forgotten: BTreeSet<RequestId>,
    /// How each write in flight is settled when its answer is lost (from
    /// the table of operations), read when its reply comes
    /// ([`Requests::settle_of`]).
    settles: BTreeMap<RequestId, crate::api::ops::Settle>,
    next: u64,
}

impl Requests {
    /// Records a new request or effect with its purpose; returns its id.
    /// Ids only grow, so a larger id was sent later.
    pub fn open(&mut self, purpose: Purpose, kind: Kind) -> RequestId {
        self.next += 1;
        let id = RequestId(self.next);
        self.table.insert(id, (purpose, kind));
        id
    }

    /// Records how write `id` is settled when its answer is lost.
    pub fn set_settle(&mut self, id: RequestId, settle: crate::api::ops::Settle) {
        self.settles.insert(id, settle);
    }

    /// How the write `id` answers is settled, taken with its reply (`None`
    /// for a read).
    pub fn settle_of(&mut self, id: RequestId) -> Option<crate::api::ops::Settle> {
        self.settles.remove(&id)
    }

    /// Takes the purpose of a reply; `None` when it was forgotten.
    pub fn take(&mut self, id: RequestId) -> Option<Purpose> {
        self.forgotten.remove(&id);
        self.table.remove(&id).map(|(p, _)| p)
    }

    /// The purpose recorded for `id`.
    pub fn get(&self, id: RequestId) -> Option<&Purpose> {
        self.table.get(&id).map(|(p, _)| p)
    }

    /// Requests to the service sent and not yet answered (the status bar's
    /// count): those a pane waits for and those it forgot, which are still
    /// on the wire. Derived here, so no other count can drift from it.
    pub fn in_flight(&self) -> usize {
        let waited = self.table.values().filter(|(_, k)| *k == Kind::Api);
        waited.count() + self.forgotten.len()
    }

    /// The oldest request of pane `P` whose purpose passes `f`.
    pub fn find<P: Registered>(&self, f: impl Fn(&P::Purpose) -> bool) -> Option<RequestId> {
        self.table
            .iter()
            .find(|(_, (p, _))| P::purpose(p).is_some_and(&f))
            .map(|(id, _)| *id)
    }

    /// Whether a request of pane `P` whose purpose passes `f` is in flight.
    pub fn pending<P: Registered>(&self, f: impl Fn(&P::Purpose) -> bool) -> bool {
        self.find::<P>(f).is_some()
    }

    /// The purposes of pane `P`'s requests in flight, oldest first.
    pub fn purposes<'a, P: Registered>(&'a self) -> impl Iterator<Item = &'a P::Purpose>
    where
        P::Purpose: 'a,
    {
        self.table.values().filter_map(|(p, _)| P::purpose(p))
    }

    /// How many requests of pane `P` pass `f`.
    pub fn count<P: Registered>(&self, f: impl Fn(&P::Purpose) -> bool) -> usize {
        self.table
            .values()
            .filter(|(p, _)| P::purpose(p).is_some_and(&f))
            .count()
    }

    /// Forgets the requests of pane `P` whose purpose passes `f`: their
    /// replies will be dropped. Returns how many were forgotten.
    pub fn forget<P: Registered>(&mut self, f: impl Fn(&P::Purpose) -> bool) -> usize {
        let before = self.table.len();
        let forgotten = &mut self.forgotten;
        self.table.retain(|id, (p, kind)| {
            let keep = !P::purpose(p).is_some_and(&f);
            if !keep && *kind == Kind::Api {
                forgotten.insert(*id);
            }
            keep
        });
        before - self.table.len()
    }

    /// Lets pane `P` amend the purposes of its requests in flight (e.g. a
    /// list still on its way learns that one of its rows is already older
    /// than what is shown).
    pub fn amend<P: Registered>(&mut self, mut f: impl FnMut(RequestId, &mut P::Purpose)) {
        for (id, (p, _)) in &mut self.table {
            if let Some(p) = P::purpose_mut(p) {
                f(*id, p);
            }
        }
    }

    /// Forgets every request (another workspace opened): their replies are
    /// dropped, and they no longer count as in flight (they belong to the
    /// workspace left). Ids keep growing, so a late reply never matches a
    /// new one.
    pub fn forget_all(&mut self) {
        self.table.clear();
        self.forgotten.clear();
        self.settles.clear();
    }
}
