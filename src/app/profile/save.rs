//! Editing and saving: the form (offered back from a draft), the review of
//! the changes before the one `PUT`, the answer — the field the service
//! names marked, or, after a save that may have reached the service, a
//! read to learn whether it did.

use crossterm::event::{KeyEvent, MouseButton, MouseEvent, MouseEventKind};

use super::diff::diff;
use super::editor::Editor;
use super::fields::FieldId;
use super::layout::{self, Block};
use super::review::{self, Review};
use super::{DRAFT_KEY, ProfileModel, Purpose, read, save_pending};
use crate::api::ApiError;
use crate::api::model::{CompanyContext, ContextResponse, PutContext};
use crate::app::ctx::Ctx;
use crate::app::fixed_keys::{CLOSE, DISMISS, NO, YES};
use crate::app::keymap::{Action, Keymap, Scope};
use crate::app::pane::Answer;
use crate::app::toast::Level;
use crate::app::{ApiRequest, Cmd, Confirm, ConfirmAction};
use crate::geometry::Rect;
use crate::text::format::plural;
use crate::text::sanitize::DisplayText;

/// Opens the form on the field under the cursor, offering back an unsent
/// draft first. The form starts from the stored profile, so the profile
/// must have been read.
pub(super) fn open_editor(p: &mut ProfileModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    if p.editor.is_some() || crate::app::read_only::refuse(cx) {
        return Vec::new();
    }
    let Some(stored) = p.stored.clone() else {
        let why = if p.loading(cx.requests) {
            "the profile is still loading".to_owned()
        } else {
            format!(
                "the profile has not been read ({} reads it)",
                cx.keymap.key_label(Action::Refresh)
            )
        };
        cx.notify(
            Level::Info,
            "Cannot edit yet",
            &format!("{why}: a replacement starts from the stored profile"),
        );
        return Vec::new();
    };
    let focus = read::field_under_cursor(p);
    let mut e = Editor::new(stored.body, stored.profile_missing);
    e.focus_on(focus);
    p.editor = Some(e);
    if cx.state.drafts.contains_key(DRAFT_KEY) {
        cx.confirm(Confirm {
            title: "Unsent draft".into(),
            lines: vec![
                "You have unsent changes to the company profile.".into(),
                format!(
                    "{} restores them; {} discards them and starts from the stored profile; {} keeps them for later.",
                    YES.label, NO.label, CLOSE.label
                ),
            ],
            yes: "Restore".into(),
            no: Some("discard the draft".into()),
            destructive: false,
            on_yes: ConfirmAction::Pane(super::Confirmed::RestoreDraft.into()),
        });
    }
    Vec::new()
}

/// The answer to "restore the draft?".
pub(super) fn restore_answered(p: &mut ProfileModel, cx: &mut Ctx<'_>, answer: Answer) -> Vec<Cmd> {
    match answer {
        Answer::Yes => {
            let draft = cx.state.drafts.get(DRAFT_KEY).cloned();
            if let (Some(e), Some(d)) = (p.editor.as_mut(), draft) {
                e.restore(&d);
            }
            Vec::new()
        }
        Answer::No => {
            cx.state.drafts.remove(DRAFT_KEY);
            cx.save_state();
            Vec::new()
        }
        // The draft stays saved as it is; the form behind the question closes.
        Answer::Dismissed => {
            p.editor = None;
            Vec::new()
        }
    }
}

/// A key while the form is open.
pub(super) fn editor_key(p: &mut ProfileModel, cx: &mut Ctx<'_>, key: KeyEvent) -> Vec<Cmd> {
    if save_pending(cx.requests) {
        cx.notify(
            Level::Info,
            "Saving",
            "the form is read-only until the service answers",
        );
        return Vec::new();
    }
    let action = form_action(cx.keymap, &key);
    let Some(e) = p.editor.as_mut() else {
        return Vec::new();
    };
    match action {
        Some(Action::SaveProfile) => return submit(p, cx),
        Some(Action::Back) => return close_editor(p, cx),
        Some(Action::PageDown | Action::PageUp) => {
            e.jump_section(action == Some(Action::PageDown));
            return Vec::new();
        }
        _ => {}
    }
    e.key(key);
    Vec::new()
}

/// The form's own keys as the keymap binds them: save, close, and the
/// section jumps — bound to a chord or a named key (a letter always types
/// into the focused field).
fn form_action(keymap: &Keymap, key: &KeyEvent) -> Option<Action> {
    if super::text::types(key) {
        return None;
    }
    keymap.action(Scope::Profile, key).filter(|a| {
        matches!(
            a,
            Action::SaveProfile | Action::Back | Action::PageDown | Action::PageUp
        )
    })
}

/// Closes the form; changes are kept as a draft.
fn close_editor(p: &mut ProfileModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    let Some(e) = p.editor.take() else {
        return Vec::new();
    };
    if !e.is_dirty() {
        // An open form has already offered back (or dropped) any draft:
        // closed clean, nothing of it is left to keep.
        if cx.state.drafts.remove(DRAFT_KEY).is_some() {
            cx.save_state();
        }
        return Vec::new();
    }
    let key = cx.keymap.key_label(Action::EditProfile);
    cx.keep_draft(
        DRAFT_KEY.into(),
        e.draft(),
        "the unsent profile form",
        &format!("{key} offers it back"),
    );
    Vec::new()
}

/// Ctrl-S: checks the form and shows what the save changes.
fn submit(p: &mut ProfileModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    let stored = p.stored.as_ref().map(|s| s.body.clone());
    let Some(e) = p.editor.as_mut() else {
        return Vec::new();
    };
    e.clear_errors();
    let request = match e.request() {
        Ok(r) => r,
        Err(errors) => {
            for (field, message) in errors {
                e.set_error(field, &message);
            }
            return Vec::new();
        }
    };
    let base = stored.unwrap_or_else(|| e.base.clone());
    let changes = diff(&base, &request);
    if changes.is_empty() {
        cx.notify(
            Level::Info,
            "Nothing to save",
            "the form matches the stored profile",
        );
        return Vec::new();
    }
    p.review = Some(Review {
        request,
        changes,
        scroll: 0,
    });
    Vec::new()
}

/// A key in the review, as in every confirm of the dashboard
/// ([`question`](crate::app::fixed_keys::question)): [`YES`] sends, [`NO`],
/// [`DISMISS`] or Back go back to the form; Enter does nothing (a full
/// replacement is sent only on purpose); the movement keys of the keymap
/// scroll.
pub(super) fn review_key(p: &mut ProfileModel, cx: &mut Ctx<'_>, key: KeyEvent) -> Vec<Cmd> {
    let body = cx.layout().body;
    let Some(r) = p.review.as_ref() else {
        return Vec::new();
    };
    let shown = review::laid_out(cx.keymap, r, body);
    let vp = shown.viewport;
    let max = shown.lines.len().saturating_sub(vp);
    if YES.matches(&key) {
        return send(p, cx);
    }
    if NO.matches(&key) || DISMISS.matches(&key) {
        p.review = None;
        return Vec::new();
    }
    let action = cx.keymap.action(Scope::Profile, &key);
    let Some(r) = p.review.as_mut() else {
        return Vec::new();
    };
    r.scroll = match action {
        Some(Action::Back) => {
            p.review = None;
            return Vec::new();
        }
        Some(Action::Down) => r.scroll.saturating_add(1),
        Some(Action::Up) => r.scroll.saturating_sub(1),
        Some(Action::PageDown) => r.scroll.saturating_add(vp),
        Some(Action::PageUp) => r.scroll.saturating_sub(vp),
        Some(Action::Top) => 0,
        Some(Action::Bottom) => max,
        _ => r.scroll,
    }
    .min(max);
    Vec::new()
}

/// Sends the reviewed replacement: once; the form stays until the answer.
fn send(p: &mut ProfileModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    let Some(r) = p.review.take() else {
        return Vec::new();
    };
    // A read on its way is older than what is about to be stored.
    cx.requests
        .forget::<ProfileModel>(|p| matches!(p, Purpose::Load | Purpose::Check(_)));
    cx.request(
        Purpose::Save(Box::new(r.request.clone())),
        ApiRequest::PutContext(Box::new(r.request)),
    );
    Vec::new()
}

/// The profile was stored: show it, close the form, drop the draft.
fn saved(
    p: &mut ProfileModel,
    cx: &mut Ctx<'_>,
    body: PutContext,
    title: &str,
    text: &str,
) -> Vec<Cmd> {
    p.editor = None;
    cx.state.drafts.remove(DRAFT_KEY);
    read::store(p, cx, body, false);
    cx.notify(Level::Success, title, text);
    cx.save_state();
    Vec::new()
}

/// Why saving the profile again does no harm.
const SAFE_TO_REPEAT: &str = "Saving again is safe: a save replaces the whole profile, so the same replacement twice stores the same profile.";

/// The answer to the save.
pub(super) fn on_saved(
    p: &mut ProfileModel,
    cx: &mut Ctx<'_>,
    sent: PutContext,
    result: Result<CompanyContext, ApiError>,
) -> Vec<Cmd> {
    match result {
        Ok(context) => {
            let n = u64::try_from(diff_count(p, &sent)).unwrap_or(u64::MAX);
            let body = PutContext {
                context,
                profile: sent.profile,
            };
            saved(
                p,
                cx,
                body,
                "Profile saved",
                &format!("{} changed", plural(n, "field", "fields")),
            )
        }
        Err(e) if e.maybe_accepted() => {
            // A full replacement is safe to repeat (`Settle::SafeToRepeat`);
            // one read of the stored profile is cheap and may settle it.
            let save = cx.keymap.text_box_label(Action::SaveProfile);
            let said = format!(
                "{}: it may have been saved. {SAFE_TO_REPEAT} Reading the stored profile to learn whether it was.",
                e.code()
            );
            if let Some(ed) = p.editor.as_mut() {
                ed.note = Some(format!(
                    "The save may have reached the service ({said}) {save} reviews and sends it again."
                ));
            }
            cx.notify(
                Level::Warning,
                "The save may have reached the service",
                &said,
            );
            cx.request(Purpose::Check(Box::new(sent)), ApiRequest::GetContext);
            cx.save_state();
            Vec::new()
        }
        Err(e) => {
            refused(p, cx, &e);
            cx.save_state();
            Vec::new()
        }
    }
}

fn diff_count(p: &ProfileModel, sent: &PutContext) -> usize {
    p.stored.as_ref().map_or(0, |s| diff(&s.body, sent).len())
}

/// The service refused the save: the form stays, the fields it names are
/// marked, anything else is said on the form.
fn refused(p: &mut ProfileModel, cx: &mut Ctx<'_>, e: &ApiError) {
    cx.toasts.error(cx.now, "saving the profile", e);
    let save = cx.keymap.text_box_label(Action::SaveProfile);
    let Some(ed) = p.editor.as_mut() else {
        return;
    };
    let message = e.message();
    let mut placed = false;
    if e.status().is_some_and(|s| s == 400 || s == 422) {
        // `context.company.overview: expected a string; profile.website: …`
        for part in message.split("; ") {
            if let Some((path, text)) = part.split_once(": ")
                && let Some((field, rest)) = FieldId::from_path(path.trim())
            {
                let text = DisplayText::inline(text.trim()).into_string();
                let shown = match rest.trim_start_matches('.') {
                    "" => text,
                    at => format!("{}: {text}", DisplayText::inline(at)),
                };
                ed.set_error(field, &shown);
                placed = true;
            }
        }
    }
    if !placed {
        ed.note = Some(format!(
            "Not saved — {}: {}. Your changes are kept; {save} reviews and tries again.",
            e.code(),
            message
        ));
    }
}

/// The read after an uncertain save: stored if the service holds what
/// was sent.
pub(super) fn on_checked(
    p: &mut ProfileModel,
    cx: &mut Ctx<'_>,
    sent: &PutContext,
    result: Result<ContextResponse, ApiError>,
) -> Vec<Cmd> {
    match result {
        Ok(resp) => {
            let same_context = resp.context == sent.context;
            let same_profile = resp.profile.as_ref().is_none_or(|p| *p == sent.profile);
            if same_context && same_profile {
                return saved(
                    p,
                    cx,
                    sent.clone(),
                    "Profile saved",
                    "the service holds the profile that was sent",
                );
            }
            read::set_stored(p, cx, resp);
            let save = cx.keymap.text_box_label(Action::SaveProfile);
            if let Some(e) = p.editor.as_mut() {
                e.note = Some(format!(
                    "Not saved: the service holds another profile. Your changes are kept; {save} reviews them against it and sends them."
                ));
            }
            Vec::new()
        }
        Err(e) => {
            cx.toasts.error(cx.now, "checking the save", &e);
            let save = cx.keymap.text_box_label(Action::SaveProfile);
            if let Some(ed) = p.editor.as_mut() {
                ed.note = Some(format!(
                    "The save may have reached the service; reading the stored profile failed ({}: {}), which proves nothing. {SAFE_TO_REPEAT} {save} reviews and sends it again.",
                    e.code(),
                    e.message()
                ));
            }
            Vec::new()
        }
    }
}

/// The mouse on the form `e`, laid out in the pane's `body`: a click
/// focuses a field, the wheel steps.
pub(super) fn form_mouse(e: &mut Editor, body: Rect, ev: MouseEvent) {
    let tall = layout::tall(body);
    match ev.kind {
        MouseEventKind::ScrollDown => e.focus = (e.focus + 1).min(e.fields.len().saturating_sub(1)),
        MouseEventKind::ScrollUp => e.focus = e.focus.saturating_sub(1),
        MouseEventKind::Down(MouseButton::Left) => {
            let inner = layout::form_inner(body, e.note.is_some());
            let hit = layout::form_blocks(e, inner, tall)
                .into_iter()
                .find(|(_, r)| ev.row >= r.y && ev.row < r.y + r.height && ev.column >= r.x);
            if let Some((Block::Field(i), _)) = hit {
                e.focus = i;
            }
        }
        _ => {}
    }
}
