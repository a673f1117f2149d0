//! The read view: loading the stored profile, the document's cursor and
//! scrolling, folding `extra`, and the mouse.

use crossterm::event::{MouseButton, MouseEvent, MouseEventKind};
use serde_json::Value;

use super::doc::{self, RowKind};
use super::fields::FieldId;
use super::layout::{self, Areas};
use super::{ProfileModel, Purpose, Stored, in_flight, pass, redeem, redeem_pending, save};
use crate::api::ApiError;
use crate::api::model::{ContextResponse, PutContext};
use crate::app::ctx::Ctx;
use crate::app::json_tree::{JsonTree, NodeKind};
use crate::app::keymap::Action;
use crate::app::requests::Requests;
use crate::app::toast::Level;
use crate::app::{ApiRequest, Cmd};

/// The read view's areas now.
pub(super) fn areas(p: &ProfileModel, cx: &Ctx<'_>) -> Areas {
    layout::areas(cx.layout().body, p.needle.typing())
}

/// Whether the pass panel is shown on a narrow screen: once there is an
/// answer, or one is on its way.
pub(crate) fn pass_shown(p: &ProfileModel, requests: &Requests) -> bool {
    p.pass.is_some() || redeem_pending(requests)
}

/// The pane became visible: read the profile the first time.
pub(super) fn on_enter(p: &ProfileModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    if p.stored.is_some() {
        return Vec::new();
    }
    load(cx)
}

/// Reads the stored profile (once at a time).
pub(super) fn load(cx: &mut Ctx<'_>) -> Vec<Cmd> {
    if in_flight(cx.requests, |p| *p == Purpose::Load) {
        return Vec::new();
    }
    cx.request(Purpose::Load, ApiRequest::GetContext);
    Vec::new()
}

/// Takes the stored profile from an answer.
pub(super) fn set_stored(p: &mut ProfileModel, cx: &Ctx<'_>, resp: ContextResponse) {
    let profile_missing = resp.profile.is_none();
    let body = PutContext {
        context: resp.context,
        profile: resp.profile.unwrap_or_default(),
    };
    store(p, cx, body, profile_missing);
}

/// Shows `body` as the stored profile.
pub(super) fn store(p: &mut ProfileModel, cx: &Ctx<'_>, body: PutContext, profile_missing: bool) {
    p.fresh.ok(cx.clock);
    p.tree = JsonTree::new(Value::Object(body.context.extra.clone()));
    p.stored = Some(Stored {
        body,
        profile_missing,
    });
    p.load_error = None;
    rebuild(p, cx);
}

/// Lays the document out again (new data, folding or size), keeping the
/// cursor on the same field.
pub(super) fn rebuild(p: &mut ProfileModel, cx: &Ctx<'_>) {
    let a = areas(p, cx);
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
    if a.pass.width == 0 && pass_shown(p, cx.requests) && !filtering {
        let heights: Vec<usize> =
            pass::items_of(p, cx.keymap, cx.clock, redeem_pending(cx.requests))
                .iter()
                .map(|i| pass::item_height(i, a.doc_width()))
                .collect();
        p.doc.prepend_pass(&heights);
    }
    let again = before.and_then(|k| p.doc.rows.iter().position(|r| r.kind == k));
    p.cursor = again.or_else(|| p.doc.first()).unwrap_or(0);
    keep_visible(p, a.viewport());
}

/// Puts the cursor on the pass when the document holds it (a redeem just
/// answered), scrolled to the top.
pub(super) fn show_pass(p: &mut ProfileModel, cx: &Ctx<'_>) {
    let vp = areas(p, cx).viewport();
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

fn move_cursor(p: &mut ProfileModel, cx: &Ctx<'_>, action: Action) -> bool {
    let vp = areas(p, cx).viewport();
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
fn open(p: &mut ProfileModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    if matches!(
        p.doc.rows.get(p.cursor).map(|r| &r.kind),
        Some(RowKind::Pass(_) | RowKind::PassHeading)
    ) {
        redeem::open_dialog(p, cx, "");
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
        rebuild(p, cx);
        return Vec::new();
    }
    save::open_editor(p, cx)
}

/// A key action on the read view.
pub(super) fn on_action(p: &mut ProfileModel, cx: &mut Ctx<'_>, action: Action) -> Vec<Cmd> {
    if move_cursor(p, cx, action) {
        return Vec::new();
    }
    match action {
        Action::Open => open(p, cx),
        Action::EditProfile => save::open_editor(p, cx),
        Action::RedeemPass => {
            redeem::open_dialog(p, cx, "");
            Vec::new()
        }
        Action::Filter => {
            p.needle.open();
            rebuild(p, cx);
            Vec::new()
        }
        Action::Back if p.needle.active() => {
            p.needle.clear();
            filtered(p, cx, true);
            Vec::new()
        }
        Action::Refresh => {
            if in_flight(cx.requests, |p| *p == Purpose::Load) {
                cx.notify(
                    Level::Info,
                    "Reloading",
                    "the profile is already being read",
                );
                return Vec::new();
            }
            load(cx)
        }
        _ => Vec::new(),
    }
}

/// A key while the `/` input is open ([`LiveFilter`](crate::app::live_filter::LiveFilter):
/// Enter keeps the filter, Esc puts back the one before); anything else
/// edits it (readline keys) and filters as it goes — letters never act as
/// the pane's keys.
pub(super) fn filter_key(
    p: &mut ProfileModel,
    cx: &Ctx<'_>,
    key: crossterm::event::KeyEvent,
) -> Vec<Cmd> {
    let changed = p.needle.key(key);
    filtered(p, cx, changed);
    Vec::new()
}

/// Pasted text goes into the open `/` input (made inert).
pub(super) fn filter_paste(p: &mut ProfileModel, cx: &mut Ctx<'_>, text: &str) {
    let pasted = crate::text::sanitize::Pasted::inline(text);
    let changed = p.needle.paste(&pasted.text);
    filtered(p, cx, changed);
    cx.notify_paste(pasted.notice());
}

/// Lays the document out again after the filter changed (the cursor on
/// the first field shown) or the input opened or closed.
fn filtered(p: &mut ProfileModel, cx: &Ctx<'_>, changed: bool) {
    rebuild(p, cx);
    if changed {
        p.cursor = p.doc.first().unwrap_or(0);
        p.offset = 0;
    }
}

/// The field under the cursor (where the form opens).
pub(super) fn field_under_cursor(p: &ProfileModel) -> FieldId {
    p.doc.field_at(p.cursor).unwrap_or(FieldId::FirstName)
}

/// The mouse: in the form a click focuses a field and the wheel steps
/// through fields; in the read view a click selects a row (a second click
/// opens it) and the wheel moves the cursor.
pub(super) fn on_mouse(p: &mut ProfileModel, cx: &mut Ctx<'_>, ev: MouseEvent) -> Vec<Cmd> {
    if p.review.is_some() || p.redeem.is_some() {
        return Vec::new();
    }
    if let Some(e) = p.editor.as_mut() {
        save::form_mouse(e, cx.layout().body, ev);
        return Vec::new();
    }
    match ev.kind {
        MouseEventKind::ScrollDown => on_action(p, cx, Action::Down),
        MouseEventKind::ScrollUp => on_action(p, cx, Action::Up),
        MouseEventKind::Down(MouseButton::Left) => {
            let a = areas(p, cx);
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
            if again { open(p, cx) } else { Vec::new() }
        }
        _ => Vec::new(),
    }
}

/// The answer to a read.
pub(super) fn on_loaded(
    p: &mut ProfileModel,
    cx: &mut Ctx<'_>,
    result: Result<ContextResponse, ApiError>,
) -> Vec<Cmd> {
    match result {
        Ok(resp) => set_stored(p, cx, resp),
        Err(e) => failed_load(p, cx, &e),
    }
    Vec::new()
}

fn failed_load(p: &mut ProfileModel, cx: &mut Ctx<'_>, e: &ApiError) {
    // What was read stays shown, marked stale with its age.
    p.fresh
        .fail_at(cx.clock, format!("{}: {}", e.code(), e.message()), e);
    if p.stored.is_none() {
        p.load_error = Some(e.clone());
    }
    cx.toasts.error(cx.now, "loading the company profile", e);
}
