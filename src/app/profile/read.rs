//! The read view: loading the stored profile, the document's cursor and
//! scrolling, folding `extra`, and the mouse.

use crossterm::event::{MouseButton, MouseEvent, MouseEventKind};
use serde_json::Value;

use super::doc::{self, RowKind};
use super::fields::FieldId;
use super::layout::{self, Areas};
use super::{ProfileModel, Purpose, Stored, in_flight, pass, redeem, save};
use crate::api::ApiError;
use crate::api::model::{ContextResponse, PutContext};
use crate::app::json_tree::{JsonTree, NodeKind};
use crate::app::keymap::Action;
use crate::app::toast::Level;
use crate::app::{ApiRequest, Cmd, Model, Pane};

/// The read view's areas now.
pub fn areas(m: &Model) -> Areas {
    layout::areas(m.layout().body, m.panes.profile.needle.typing())
}

/// Whether the pass panel is shown on a narrow screen: once there is an
/// answer, or one is on its way.
pub fn pass_shown(m: &Model) -> bool {
    m.panes.profile.pass.is_some() || super::redeeming(m)
}

/// The pane became visible: read the profile the first time.
pub fn on_enter(m: &mut Model) -> Vec<Cmd> {
    if m.panes.profile.stored.is_some() {
        return Vec::new();
    }
    load(m)
}

/// Reads the stored profile (once at a time).
pub fn load(m: &mut Model) -> Vec<Cmd> {
    if in_flight(m, |p| *p == Purpose::Load) {
        return Vec::new();
    }
    m.request(Purpose::Load, ApiRequest::GetContext);
    Vec::new()
}

/// Takes the stored profile from an answer.
pub fn set_stored(m: &mut Model, resp: ContextResponse) {
    let profile_missing = resp.profile.is_none();
    let body = PutContext {
        context: resp.context,
        profile: resp.profile.unwrap_or_default(),
    };
    store(m, body, profile_missing);
}

/// Shows `body` as the stored profile.
pub fn store(m: &mut Model, body: PutContext, profile_missing: bool) {
    let clock = m.clock;
    let p = &mut m.panes.profile;
    p.fresh.ok(clock);
    p.tree = JsonTree::new(Value::Object(body.context.extra.clone()));
    p.stored = Some(Stored {
        body,
        profile_missing,
    });
    p.load_error = None;
    rebuild(m);
}

/// Lays the document out again (new data, folding or size), keeping the
/// cursor on the same field.
pub fn rebuild(m: &mut Model) {
    let a = areas(m);
    let p = &mut m.panes.profile;
    let Some(s) = &p.stored else {
        p.doc = doc::Doc::default();
        return;
    };
    let before = p.doc.rows.get(p.cursor).map(|r| r.kind.clone());
    p.doc = doc::build(&s.body, s.profile_missing, &p.tree, a.doc_width());
    let filtering = p.needle.active();
    if filtering {
        let doc = std::mem::take(&mut p.doc);
        p.doc = doc.filtered(&p.needle.text, &p.tree);
    }
    if a.pass.width == 0 && pass_shown(m) && !filtering {
        let heights: Vec<usize> = pass::items(m)
            .iter()
            .map(|i| pass::item_height(i, a.doc_width()))
            .collect();
        m.panes.profile.doc.prepend_pass(&heights);
    }
    let p = &mut m.panes.profile;
    let again = before.and_then(|k| p.doc.rows.iter().position(|r| r.kind == k));
    p.cursor = again.or_else(|| p.doc.first()).unwrap_or(0);
    keep_visible(p, a.viewport());
}

/// Puts the cursor on the pass when the document holds it (a redeem just
/// answered), scrolled to the top.
pub fn show_pass(m: &mut Model) {
    let vp = areas(m).viewport();
    let p = &mut m.panes.profile;
    if let Some(row) = p.doc.pass_row() {
        p.cursor = row;
        p.offset = 0;
        keep_visible(p, vp);
    }
}

/// Scrolls so the cursor's row is on screen (with its heading when the
/// row is the first of a section).
fn keep_visible(p: &mut ProfileModel, viewport: usize) {
    let viewport = viewport.max(1);
    let max = p.doc.height.saturating_sub(viewport);
    if let Some(row) = p.doc.rows.get(p.cursor) {
        let heading = p
            .cursor
            .checked_sub(1)
            .and_then(|i| p.doc.rows.get(i))
            .filter(|r| matches!(r.kind, RowKind::Header(_)))
            .map_or(row.top, |r| r.top);
        let bottom = row.top + row.height();
        if heading < p.offset {
            p.offset = heading;
        } else if bottom > p.offset + viewport {
            p.offset = bottom.saturating_sub(viewport).min(row.top);
        }
    }
    p.offset = p.offset.min(max);
}

fn move_cursor(m: &mut Model, action: Action) -> bool {
    let vp = areas(m).viewport();
    let p = &mut m.panes.profile;
    let d = &p.doc;
    let target = match action {
        Action::Down => d.step(p.cursor, true),
        Action::Up => d.step(p.cursor, false),
        Action::Top => d.first(),
        Action::Bottom => d.last(),
        Action::PageDown | Action::PageUp => {
            let top = d.rows.get(p.cursor).map_or(0, |r| r.top);
            let line = if action == Action::PageDown {
                top.saturating_add(vp)
            } else {
                top.saturating_sub(vp)
            };
            let row = d.row_at_line(line.min(d.height.saturating_sub(1)));
            row.and_then(|r| {
                if d.rows[r].selectable() {
                    Some(r)
                } else {
                    d.step(r, action == Action::PageDown)
                        .or_else(|| d.step(r, action != Action::PageDown))
                }
            })
        }
        _ => return false,
    };
    if let Some(t) = target {
        p.cursor = t;
    }
    keep_visible(p, vp);
    true
}

/// Enter: fold a container of `extra`, redeem a code on the pass, or edit
/// the field under the cursor.
fn open(m: &mut Model) -> Vec<Cmd> {
    let p = &mut m.panes.profile;
    if matches!(
        p.doc.rows.get(p.cursor).map(|r| &r.kind),
        Some(RowKind::Pass(_) | RowKind::PassHeading)
    ) {
        redeem::open_dialog(m, "");
        return Vec::new();
    }
    if let Some(RowKind::Extra(i)) = p.doc.rows.get(p.cursor).map(|r| r.kind.clone())
        && p.tree
            .lines()
            .get(i)
            .is_some_and(|l| l.kind == NodeKind::Container)
    {
        let n = p.tree.lines().len();
        p.tree.table.set_len(n, n.max(1));
        p.tree.table.select(i, n.max(1));
        p.tree.toggle(n.max(1));
        rebuild(m);
        return Vec::new();
    }
    save::open_editor(m)
}

/// A key action on the read view.
pub fn on_action(m: &mut Model, action: Action) -> Vec<Cmd> {
    if move_cursor(m, action) {
        return Vec::new();
    }
    match action {
        Action::Open => open(m),
        Action::EditProfile => save::open_editor(m),
        Action::RedeemPass => {
            redeem::open_dialog(m, "");
            Vec::new()
        }
        Action::Filter => {
            m.panes.profile.needle.open();
            rebuild(m);
            Vec::new()
        }
        Action::Back if m.panes.profile.needle.active() => {
            m.panes.profile.needle.clear();
            filtered(m, true);
            Vec::new()
        }
        Action::Refresh => {
            if in_flight(m, |p| *p == Purpose::Load) {
                m.notify(
                    Level::Info,
                    "Reloading",
                    "the profile is already being read",
                );
                return Vec::new();
            }
            load(m)
        }
        _ => Vec::new(),
    }
}

/// A key while the `/` input is open ([`Needle`](crate::app::needle::Needle):
/// Enter keeps the filter, Esc puts back the one before); anything else
/// edits it (readline keys) and filters as it goes — letters never act as
/// the pane's keys.
pub fn filter_key(m: &mut Model, key: crossterm::event::KeyEvent) -> Vec<Cmd> {
    let changed = m.panes.profile.needle.key(key);
    filtered(m, changed);
    Vec::new()
}

/// Pasted text goes into the open `/` input (made inert).
pub fn filter_paste(m: &mut Model, text: &str) -> Vec<Cmd> {
    let pasted = crate::text::sanitize::Pasted::inline(text);
    let changed = m.panes.profile.needle.paste(&pasted.text);
    filtered(m, changed);
    m.notify_paste(pasted.notice());
    Vec::new()
}

/// Lays the document out again after the filter changed (the cursor on
/// the first field shown) or the input opened or closed.
fn filtered(m: &mut Model, changed: bool) {
    rebuild(m);
    if changed {
        let p = &mut m.panes.profile;
        p.cursor = p.doc.first().unwrap_or(0);
        p.offset = 0;
    }
}

/// The field under the cursor (where the form opens).
pub fn field_under_cursor(p: &ProfileModel) -> FieldId {
    p.doc.field_at(p.cursor).unwrap_or(FieldId::FirstName)
}

/// The mouse: in the form a click focuses a field and the wheel steps
/// through fields; in the read view a click selects a row (a second click
/// opens it) and the wheel moves the cursor.
pub fn on_mouse(m: &mut Model, ev: MouseEvent) -> Vec<Cmd> {
    let p = &m.panes.profile;
    if p.review.is_some() || p.redeem.is_some() {
        return Vec::new();
    }
    if p.editor.is_some() {
        save::form_mouse(m, ev);
        return Vec::new();
    }
    match ev.kind {
        MouseEventKind::ScrollDown => on_action(m, Action::Down),
        MouseEventKind::ScrollUp => on_action(m, Action::Up),
        MouseEventKind::Down(MouseButton::Left) => {
            let a = areas(m);
            let p = &mut m.panes.profile;
            let Some(line) = a.line_at(ev.column, ev.row) else {
                return Vec::new();
            };
            let Some(row) = p.doc.row_at_line(p.offset + line) else {
                return Vec::new();
            };
            if !p.doc.rows[row].selectable() {
                return Vec::new();
            }
            let again = p.cursor == row;
            p.cursor = row;
            if again { open(m) } else { Vec::new() }
        }
        _ => Vec::new(),
    }
}

/// The answer to a read.
pub fn on_loaded(m: &mut Model, result: Result<ContextResponse, ApiError>) -> Vec<Cmd> {
    match result {
        Ok(resp) => set_stored(m, resp),
        Err(e) => failed_load(m, &e),
    }
    Vec::new()
}

fn failed_load(m: &mut Model, e: &ApiError) {
    let clock = m.clock;
    // What was read stays shown, marked stale with its age.
    m.panes
        .profile
        .fresh
        .fail_at(clock, format!("{}: {}", e.code(), e.message()), e);
    if m.panes.profile.stored.is_none() {
        m.panes.profile.load_error = Some(e.clone());
    }
    m.toasts.error(m.now, "loading the company profile", e);
}

/// Whether the pass's expiry counts down on screen now.
pub fn countdown_visible(m: &Model) -> bool {
    let p = &m.panes.profile;
    m.pane == Pane::Profile
        && p.editor.is_none()
        && p.pass
            .as_ref()
            .and_then(|a| a.pass.test_access.as_ref())
            .is_some_and(|t| pass::seconds_left(t, m.clock).is_some())
}
