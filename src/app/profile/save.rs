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
use super::{DRAFT_KEY, Purpose, read, saving};
use crate::api::ApiError;
use crate::api::model::{CompanyContext, ContextResponse, PutContext};
use crate::app::keymap::{Action, Scope};
use crate::app::keys::{CLOSE, DISMISS, NO, YES};
use crate::app::pane::Answer;
use crate::app::toast::Level;
use crate::app::{ApiRequest, Cmd, Confirm, ConfirmAction, Model};
use crate::text::format::plural;
use crate::text::sanitize::DisplayText;

/// Opens the form on the field under the cursor, offering back an unsent
/// draft first. The form starts from the stored profile, so the profile
/// must have been read.
pub fn open_editor(m: &mut Model) -> Vec<Cmd> {
    if m.panes.profile.editor.is_some() || crate::app::read_only::refuse(m) {
        return Vec::new();
    }
    let Some(stored) = m.panes.profile.stored.clone() else {
        let why = if super::loading(m) {
            "the profile is still loading".to_owned()
        } else {
            format!(
                "the profile has not been read ({} reads it)",
                m.keymap.key_label(Action::Refresh)
            )
        };
        m.notify(
            Level::Info,
            "Cannot edit yet",
            &format!("{why}: a replacement starts from the stored profile"),
        );
        return Vec::new();
    };
    let focus = read::field_under_cursor(&m.panes.profile);
    let mut e = Editor::new(stored.body, stored.profile_missing);
    e.focus_on(focus);
    m.panes.profile.editor = Some(e);
    if m.state.drafts.contains_key(DRAFT_KEY) {
        m.confirm(Confirm {
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
pub fn restore_answered(m: &mut Model, answer: Answer) -> Vec<Cmd> {
    match answer {
        Answer::Yes => {
            let draft = m.state.drafts.get(DRAFT_KEY).cloned();
            if let (Some(e), Some(d)) = (m.panes.profile.editor.as_mut(), draft) {
                e.restore(&d);
            }
            Vec::new()
        }
        Answer::No => {
            m.state.drafts.remove(DRAFT_KEY);
            vec![m.save_state()]
        }
        // The draft stays saved as it is; the form behind the question closes.
        Answer::Dismissed => {
            m.panes.profile.editor = None;
            Vec::new()
        }
    }
}

/// A key while the form is open.
pub fn editor_key(m: &mut Model, key: KeyEvent) -> Vec<Cmd> {
    if saving(m) {
        m.notify(
            Level::Info,
            "Saving",
            "the form is read-only until the service answers",
        );
        return Vec::new();
    }
    let action = form_action(m, &key);
    let Some(e) = m.panes.profile.editor.as_mut() else {
        return Vec::new();
    };
    match action {
        Some(Action::SaveProfile) => return submit(m),
        Some(Action::Back) => return close_editor(m),
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
fn form_action(m: &Model, key: &KeyEvent) -> Option<Action> {
    if super::text::types(key) {
        return None;
    }
    m.keymap.action(Scope::Profile, key).filter(|a| {
        matches!(
            a,
            Action::SaveProfile | Action::Back | Action::PageDown | Action::PageUp
        )
    })
}

/// Closes the form; changes are kept as a draft.
fn close_editor(m: &mut Model) -> Vec<Cmd> {
    let Some(e) = m.panes.profile.editor.take() else {
        return Vec::new();
    };
    if !e.is_dirty() {
        // An open form has already offered back (or dropped) any draft:
        // closed clean, nothing of it is left to keep.
        if m.state.drafts.remove(DRAFT_KEY).is_some() {
            return vec![m.save_state()];
        }
        return Vec::new();
    }
    let key = m.keymap.key_label(Action::EditProfile);
    vec![m.keep_draft(
        DRAFT_KEY.into(),
        e.draft(),
        "the unsent profile form",
        &format!("{key} offers it back"),
    )]
}

/// Ctrl-S: checks the form and shows what the save changes.
fn submit(m: &mut Model) -> Vec<Cmd> {
    let stored = m.panes.profile.stored.as_ref().map(|s| s.body.clone());
    let Some(e) = m.panes.profile.editor.as_mut() else {
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
        m.notify(
            Level::Info,
            "Nothing to save",
            "the form matches the stored profile",
        );
        return Vec::new();
    }
    m.panes.profile.review = Some(Review {
        request,
        changes,
        scroll: 0,
    });
    Vec::new()
}

/// A key in the review, as in every confirm of the dashboard
/// ([`question`](crate::app::keys::question)): [`YES`] sends, [`NO`],
/// [`DISMISS`] or Back go back to the form; Enter does nothing (a full
/// replacement is sent only on purpose); the movement keys of the keymap
/// scroll.
pub fn review_key(m: &mut Model, key: KeyEvent) -> Vec<Cmd> {
    let body = m.layout().body;
    let Some(r) = m.panes.profile.review.as_ref() else {
        return Vec::new();
    };
    let shown = review::on_screen(m, r, body);
    let vp = shown.viewport;
    let max = shown.lines.len().saturating_sub(vp);
    if YES.matches(&key) {
        return send(m);
    }
    if NO.matches(&key) || DISMISS.matches(&key) {
        m.panes.profile.review = None;
        return Vec::new();
    }
    let action = m.keymap.action(Scope::Profile, &key);
    let Some(r) = m.panes.profile.review.as_mut() else {
        return Vec::new();
    };
    r.scroll = match action {
        Some(Action::Back) => {
            m.panes.profile.review = None;
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
fn send(m: &mut Model) -> Vec<Cmd> {
    let Some(r) = m.panes.profile.review.take() else {
        return Vec::new();
    };
    // A read on its way is older than what is about to be stored.
    m.requests
        .forget::<super::ProfileModel>(|p| matches!(p, Purpose::Load | Purpose::Check(_)));
    m.request(
        Purpose::Save(Box::new(r.request.clone())),
        ApiRequest::PutContext(Box::new(r.request)),
    );
    Vec::new()
}

/// The profile was stored: show it, close the form, drop the draft.
fn saved(m: &mut Model, body: PutContext, title: &str, text: &str) -> Vec<Cmd> {
    m.panes.profile.editor = None;
    m.state.drafts.remove(DRAFT_KEY);
    read::store(m, body, false);
    m.notify(Level::Success, title, text);
    vec![m.save_state()]
}

/// Why saving the profile again does no harm.
const SAFE_TO_REPEAT: &str = "Saving again is safe: a save replaces the whole profile, so the same replacement twice stores the same profile.";

/// The answer to the save.
pub fn on_saved(
    m: &mut Model,
    sent: PutContext,
    result: Result<CompanyContext, ApiError>,
) -> Vec<Cmd> {
    match result {
        Ok(context) => {
            let n = u64::try_from(diff_count(m, &sent)).unwrap_or(u64::MAX);
            let body = PutContext {
                context,
                profile: sent.profile,
            };
            saved(
                m,
                body,
                "Profile saved",
                &format!("{} changed", plural(n, "field", "fields")),
            )
        }
        Err(e) if e.maybe_accepted() => {
            // A full replacement is safe to repeat (`Settle::SafeToRepeat`);
            // one read of the stored profile is cheap and may settle it.
            let save = m.keymap.text_box_label(Action::SaveProfile);
            let said = format!(
                "{}: it may have been saved. {SAFE_TO_REPEAT} Reading the stored profile to learn whether it was.",
                e.code()
            );
            if let Some(ed) = m.panes.profile.editor.as_mut() {
                ed.note = Some(format!(
                    "The save may have reached the service ({said}) {save} reviews and sends it again."
                ));
            }
            m.notify(
                Level::Warning,
                "The save may have reached the service",
                &said,
            );
            m.request(Purpose::Check(Box::new(sent)), ApiRequest::GetContext);
            vec![m.save_state()]
        }
        Err(e) => {
            refused(m, &e);
            vec![m.save_state()]
        }
    }
}

fn diff_count(m: &Model, sent: &PutContext) -> usize {
    m.panes
        .profile
        .stored
        .as_ref()
        .map_or(0, |s| diff(&s.body, sent).len())
}

/// The service refused the save: the form stays, the fields it names are
/// marked, anything else is said on the form.
fn refused(m: &mut Model, e: &ApiError) {
    m.toasts.error(m.now, "saving the profile", e);
    let save = m.keymap.text_box_label(Action::SaveProfile);
    let Some(ed) = m.panes.profile.editor.as_mut() else {
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
pub fn on_checked(
    m: &mut Model,
    sent: &PutContext,
    result: Result<ContextResponse, ApiError>,
) -> Vec<Cmd> {
    match result {
        Ok(resp) => {
            let same_context = resp.context == sent.context;
            let same_profile = resp.profile.as_ref().is_none_or(|p| *p == sent.profile);
            if same_context && same_profile {
                return saved(
                    m,
                    sent.clone(),
                    "Profile saved",
                    "the service holds the profile that was sent",
                );
            }
            read::set_stored(m, resp);
            let save = m.keymap.text_box_label(Action::SaveProfile);
            if let Some(e) = m.panes.profile.editor.as_mut() {
                e.note = Some(format!(
                    "Not saved: the service holds another profile. Your changes are kept; {save} reviews them against it and sends them."
                ));
            }
            Vec::new()
        }
        Err(e) => {
            m.toasts.error(m.now, "checking the save", &e);
            let save = m.keymap.text_box_label(Action::SaveProfile);
            if let Some(ed) = m.panes.profile.editor.as_mut() {
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

/// The mouse on the form: a click focuses a field, the wheel steps.
pub fn form_mouse(m: &mut Model, ev: MouseEvent) {
    let body = m.layout().body;
    let tall = layout::tall(body);
    let Some(e) = m.panes.profile.editor.as_mut() else {
        return;
    };
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
