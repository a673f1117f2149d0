//! `:journal`: the write journal of this profile in the dashboard, newest
//! first, each write beside its verdict when one was appended. `/` filters
//! it (the quick filter of the lists, [`LiveFilter`]); Enter opens the write's
//! target in the pane that owns it (a campaign, a thread, a search; the
//! pane alone when the target has no id it can open); Esc closes.
//!
//! The file is read by an effect ([`Cmd::ReadJournal`], answered by
//! [`Msg::JournalRead`](super::Msg::JournalRead)), never by `update` or the
//! view: the overlay says "reading…" until it arrives, and the refresh key
//! reads it again.

use std::path::PathBuf;

use crossterm::event::KeyEvent;

use super::command_line::Command;
use super::keymap::{Action, Scope};
use super::live_filter::{LiveFilter, hit};
use super::{Cmd, Model, Overlay, Pane};
use crate::journal::{self, Record};

/// What the runtime found reading the journal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reading {
    /// The file was read (a missing file is an empty journal).
    Read {
        /// The file.
        path: PathBuf,
        /// Its writes, newest first, with their verdicts.
        read: journal::Read,
    },
    /// This session keeps no journal (why: the demo's writes reach no one,
    /// or there is no data directory).
    NotKept(String),
    /// The file could not be read (why, naming it).
    Failed(String),
}

/// The open `:journal` overlay.
#[derive(Debug, Clone, Default)]
pub struct JournalView {
    /// What was read; `None` while the read is on its way.
    pub reading: Option<Reading>,
    /// The selected row among those the filter lets through.
    pub selected: usize,
    /// The first row shown (kept by the view's height, so the selection
    /// stays on screen).
    pub offset: usize,
    /// The `/` filter.
    pub needle: LiveFilter,
}

/// Rows a page key moves.
const PAGE: usize = 10;

impl JournalView {
    /// The writes the filter lets through, newest first.
    pub fn visible(&self) -> Vec<&Record> {
        let Some(Reading::Read { read, .. }) = &self.reading else {
            return Vec::new();
        };
        let needle = self.needle.lower();
        read.records
            .iter()
            .filter(|r| hit(&needle, haystack(r).iter().map(String::as_str)))
            .collect()
    }

    /// The selected write.
    pub fn selected(&self) -> Option<&Record> {
        self.visible().get(self.selected).copied()
    }

    /// Keeps the selection inside the rows shown.
    fn clamp(&mut self) {
        let n = self.visible().len();
        self.selected = self.selected.min(n.saturating_sub(1));
    }

    /// The first row to draw in a list of `rows` rows: the one drawn
    /// first before, moved only as far as the selection needs.
    pub fn first_row(&self, rows: usize) -> usize {
        let rows = rows.max(1);
        if self.selected < self.offset {
            self.selected
        } else if self.selected >= self.offset + rows {
            self.selected + 1 - rows
        } else {
            self.offset
        }
    }

    /// Whether a filter line is drawn above the list.
    pub fn filter_shown(&self) -> bool {
        self.needle.typing() || self.needle.active()
    }
}

/// Rows of the selected write's detail under the list.
pub(crate) const DETAIL_ROWS: u16 = 5;

/// Rows the list gets in an overlay `height` rows high (its border, the
/// filter line when shown, and the detail with its rule taken off, when
/// the list keeps at least 3 rows beside it).
pub(crate) fn list_rows(height: u16, filter: bool) -> u16 {
    let inner = height.saturating_sub(2).saturating_sub(u16::from(filter));
    if inner >= DETAIL_ROWS + 4 {
        inner - DETAIL_ROWS - 1
    } else {
        inner
    }
}

/// What the filter looks through: every text the row or its detail shows.
fn haystack(r: &Record) -> Vec<String> {
    let w = &r.write;
    let mut out = vec![
        w.operation.clone(),
        w.target.text(),
        w.summary.clone(),
        r.outcome_text(),
        w.source.as_str().to_owned(),
        w.at.clone(),
    ];
    out.extend(w.message.clone());
    if let Some(v) = &r.verdict {
        out.push(v.verdict.clone());
    }
    out
}

/// Where Enter on a write leads: the command that opens its target in the
/// pane owning it, or the pane alone when the target names nothing it can
/// open (a domain, the company profile, a create without an id).
pub(crate) fn open_target(r: &Record) -> Option<Command> {
    let t = &r.write.target;
    let id = t.id.clone().filter(|i| !i.trim().is_empty());
    let of = |pane: Pane, name: &'static str| match &id {
        Some(id) => Command::Of {
            pane,
            name,
            arg: Some(id.clone()),
        },
        None => Command::Pane(pane),
    };
    match t.kind.as_str() {
        "campaign" => Some(of(Pane::Campaigns, "open campaign")),
        "thread" => Some(of(Pane::Inbox, "open thread")),
        "search" => Some(of(Pane::Leads, "open search")),
        "domain" => Some(Command::Pane(Pane::Domains)),
        "profile" | "pass" => Some(Command::Pane(Pane::Profile)),
        _ => None,
    }
}

/// `:journal`: opens the overlay and asks for the file.
pub(crate) fn open(m: &mut Model) -> Vec<Cmd> {
    m.overlay = Some(Overlay::Journal(Box::default()));
    m.redraw = true;
    vec![Cmd::ReadJournal]
}

/// The journal was read: shown, if the overlay is still open.
pub(crate) fn on_read(m: &mut Model, reading: Reading) {
    if let Some(Overlay::Journal(j)) = m.overlay.as_mut() {
        j.reading = Some(reading);
        j.clamp();
        m.redraw = true;
    }
}

/// What a key in the overlay asks of the dashboard.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Done {
    /// Stay open.
    Keep,
    /// Close.
    Close,
    /// Read the file again.
    Reload,
    /// Close and run this command (open the selected write's target).
    Open(Command),
}

/// A key while the overlay is open: the filter takes every key while it
/// is typed; else the keymap's shared list keys move, `/` filters, Enter
/// opens, refresh reads again, Esc closes. Other keys do nothing.
pub(crate) fn key(m: &Model, j: &mut JournalView, key: KeyEvent) -> Done {
    if j.needle.typing() {
        if j.needle.key(key) {
            j.selected = 0;
            j.offset = 0;
        }
        return Done::Keep;
    }
    let n = j.visible().len();
    let last = n.saturating_sub(1);
    match m.keymap.action(Scope::Global, &key) {
        Some(Action::Down) => j.selected = (j.selected + 1).min(last),
        Some(Action::Up) => j.selected = j.selected.saturating_sub(1),
        Some(Action::PageDown) => j.selected = (j.selected + PAGE).min(last),
        Some(Action::PageUp) => j.selected = j.selected.saturating_sub(PAGE),
        Some(Action::Top) => j.selected = 0,
        Some(Action::Bottom) => j.selected = last,
        Some(Action::Filter) => j.needle.open(),
        Some(Action::Refresh) => return Done::Reload,
        Some(Action::Back | Action::Quit) => return Done::Close,
        Some(Action::Open) => {
            if let Some(c) = j.selected().and_then(open_target) {
                return Done::Open(c);
            }
        }
        _ => {}
    }
    let rows = list_rows(m.layout().body.height, j.filter_shown());
    j.offset = j.first_row(usize::from(rows));
    Done::Keep
}

/// Pasted text goes into the filter while it is typed.
pub(crate) fn paste(j: &mut JournalView, text: &str) {
    if j.needle.paste(text) {
        j.selected = 0;
        j.offset = 0;
    }
}

/// The footer's keys, as the keymap binds them: `(keys, what they do)`.
pub(crate) fn footer(m: &Model, j: &JournalView) -> Vec<(String, &'static str)> {
    if j.needle.typing() {
        return vec![
            (super::fixed_keys::CONFIRM.label.to_owned(), "keeps"),
            (super::fixed_keys::CLOSE.label.to_owned(), "cancels"),
        ];
    }
    let k = |a: Action| m.keymap.key_label(a);
    vec![
        (format!("{}/{}", k(Action::Down), k(Action::Up)), "move"),
        (k(Action::Filter), "filters"),
        (k(Action::Open), "opens"),
        (k(Action::Refresh), "reads again"),
        (k(Action::Back), "closes"),
    ]
}

#[cfg(test)]
mod tests {
    use crossterm::event::KeyCode;

    use super::*;
    use crate::app::fixtures::{self, drive};
    use crate::journal::{Outcome, Source, Target, VerdictLine, WriteLine};

    pub(crate) fn record(id: &str, kind: &str, target: Option<&str>, summary: &str) -> Record {
        Record {
            write: WriteLine {
                id: id.into(),
                at: "2026-05-01T10:00:00.000Z".into(),
                profile: None,
                source: Source::Dashboard,
                operation: "SendMessage".into(),
                target: Target {
                    kind: kind.into(),
                    id: target.map(str::to_owned),
                    name: None,
                },
                summary: summary.into(),
                outcome: Outcome::Done,
                status: None,
                code: None,
                message: None,
                settle: None,
            },
            verdict: None,
        }
    }

    fn read(records: Vec<Record>) -> Reading {
        Reading::Read {
            path: "journal.jsonl".into(),
            read: journal::Read {
                records,
                skipped: 0,
            },
        }
    }

    fn open_with(m: &mut Model, records: Vec<Record>) {
        drive::key(m, KeyCode::Char(':'));
        drive::chars(m, "journal");
        let cmds = drive::key(m, KeyCode::Enter);
        assert!(cmds.contains(&Cmd::ReadJournal), "{cmds:?} {:?}", m.overlay);
        super::super::update(m, super::super::Msg::JournalRead(Box::new(read(records))));
    }

    fn view(m: &Model) -> &JournalView {
        match &m.overlay {
            Some(Overlay::Journal(j)) => j,
            other => panic!("the journal is open: {other:?}"),
        }
    }

    #[test]
    fn the_file_is_read_by_an_effect_and_shown_when_it_arrives() {
        let mut m = fixtures::model(80, 24);
        drive::key(&mut m, KeyCode::Char(':'));
        drive::chars(&mut m, "journal");
        let cmds = drive::key(&mut m, KeyCode::Enter);
        assert_eq!(cmds, vec![Cmd::ReadJournal]);
        assert_eq!(view(&m).reading, None, "reading until the answer");
        super::super::update(
            &mut m,
            super::super::Msg::JournalRead(Box::new(read(vec![record("a", "thread", None, "x")]))),
        );
        assert_eq!(view(&m).visible().len(), 1);
        // A late answer after closing changes nothing.
        drive::key(&mut m, KeyCode::Esc);
        assert!(m.overlay.is_none());
        on_read(&mut m, read(Vec::new()));
        assert!(m.overlay.is_none());
    }

    #[test]
    fn slash_filters_and_enter_opens_the_selected_target_in_its_pane() {
        let mut m = fixtures::model(80, 24);
        open_with(
            &mut m,
            vec![
                record("c", "campaign", Some("c-1"), "daily limit: 40"),
                record("t", "thread", Some("t-9"), "subject: \"Re: pricing\""),
                record("d", "domain", None, "mail.acme.io"),
            ],
        );
        drive::key(&mut m, KeyCode::Char('/'));
        drive::chars(&mut m, "pricing");
        assert_eq!(view(&m).visible().len(), 1);
        drive::key(&mut m, KeyCode::Enter);
        assert!(!view(&m).needle.typing(), "Enter keeps the filter");
        let selected = view(&m).selected().map(|r| r.write.id.clone());
        assert_eq!(selected.as_deref(), Some("t"));
        assert_eq!(
            view(&m).selected().and_then(open_target),
            Some(Command::Of {
                pane: Pane::Inbox,
                name: "open thread",
                arg: Some("t-9".into())
            })
        );
        drive::key(&mut m, KeyCode::Enter);
        assert!(m.overlay.is_none(), "Enter closes it");
        assert_eq!(m.pane, Pane::Inbox, "and shows the thread's pane");
    }

    #[test]
    fn targets_lead_to_the_pane_owning_them() {
        let to = |kind: &str, id: Option<&str>| open_target(&record("x", kind, id, ""));
        assert_eq!(
            to("campaign", Some("c-1")),
            Some(Command::Of {
                pane: Pane::Campaigns,
                name: "open campaign",
                arg: Some("c-1".into())
            })
        );
        assert_eq!(
            to("search", Some("s-1")),
            Some(Command::Of {
                pane: Pane::Leads,
                name: "open search",
                arg: Some("s-1".into())
            })
        );
        assert_eq!(to("search", None), Some(Command::Pane(Pane::Leads)));
        assert_eq!(
            to("domain", Some("d-1")),
            Some(Command::Pane(Pane::Domains))
        );
        assert_eq!(to("pass", None), Some(Command::Pane(Pane::Profile)));
        assert_eq!(to("", None), None);
    }

    #[test]
    fn the_selection_moves_within_the_rows_and_esc_closes() {
        let mut m = fixtures::model(80, 24);
        open_with(
            &mut m,
            (0..30)
                .map(|n| record(&format!("e{n}"), "thread", None, "x"))
                .collect(),
        );
        drive::key(&mut m, KeyCode::Char('G'));
        assert_eq!(view(&m).selected, 29);
        drive::key(&mut m, KeyCode::Char('j'));
        assert_eq!(view(&m).selected, 29, "not past the last");
        drive::key(&mut m, KeyCode::PageUp);
        assert_eq!(view(&m).selected, 19);
        drive::key(&mut m, KeyCode::Char('g'));
        assert_eq!(view(&m).selected, 0);
        let cmds = drive::key(&mut m, KeyCode::Char('r'));
        assert_eq!(cmds, vec![Cmd::ReadJournal], "r reads it again");
        drive::key(&mut m, KeyCode::Esc);
        assert!(m.overlay.is_none());
    }

    #[test]
    fn a_verdict_is_found_by_the_filter() {
        let mut r = record("v", "domain", None, "");
        r.write.outcome = Outcome::MayHaveReached;
        r.write.code = Some("bad_gateway".into());
        r.verdict = Some(VerdictLine {
            entry: "v".into(),
            at: "2026-05-01T10:00:05.000Z".into(),
            profile: None,
            source: Source::Dashboard,
            verdict: "found".into(),
            text: "found in the domain list".into(),
        });
        let mut m = fixtures::model(80, 24);
        open_with(&mut m, vec![record("a", "thread", None, "x"), r]);
        drive::key(&mut m, KeyCode::Char('/'));
        drive::chars(&mut m, "domain list");
        assert_eq!(view(&m).visible().len(), 1);
    }
}
