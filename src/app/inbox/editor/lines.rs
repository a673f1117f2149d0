//! The editor's note and attachment lines as text, wrapped to the frame's
//! width: shared by drawing and by the mouse, since how many rows they take
//! decides where the body starts.

use super::Editor;
use crate::app::ctx::Ctx;
use crate::app::inbox::InboxModel;
use crate::app::inbox::layout::{self, EditorAreas, EditorRows};
use crate::app::keymap::{Action, Keymap};
use crate::text::sanitize::DisplayText;
use crate::text::wrap::wrap;

/// What the note under the fields says, for its look.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NoteKind {
    /// Fields the client refused.
    Invalid,
    /// The service's refusal or a failure.
    Problem,
    /// A status ("Saving…", "Saved").
    Status,
    /// The focused field's help.
    Help,
}

/// The editor's wrapped lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Lines {
    /// The note under the fields.
    pub note: Vec<String>,
    /// What the note is.
    pub kind: NoteKind,
    /// The attachments' names (empty without attachments).
    pub attached: Vec<String>,
    /// Where attachments are managed (empty without attachments).
    pub attachments_note: Vec<String>,
}

/// Where attachments are managed, said under them.
pub(crate) const ATTACHMENTS_NOTE: &str =
    "Attachments are added in the web dashboard; the public interface refuses them.";

/// The note: the fields' errors, else the service's last word, else the
/// focused field's help (with why some senders are unavailable).
pub(crate) fn note(keymap: &Keymap, e: &Editor) -> (String, NoteKind) {
    let errors: Vec<String> = e
        .form
        .fields
        .iter()
        .filter_map(|fd| fd.error.as_ref().map(|er| format!("{}: {er}", fd.label)))
        .collect();
    if !errors.is_empty() {
        return (format!("✗ {}", errors.join("; ")), NoteKind::Invalid);
    }
    if let Some(n) = &e.note {
        let kind = if n.contains(" — ") {
            NoteKind::Problem
        } else {
            NoteKind::Status
        };
        return (n.clone(), kind);
    }
    (help(keymap, e), NoteKind::Help)
}

/// The focused field's help line.
fn help(keymap: &Keymap, e: &Editor) -> String {
    match e.focused() {
        "body" if e.reply.is_some() => format!(
            "The reply, above the quoted message. {} sends (asks first) · {} quote in/out · {} finds. To is the thread's participant; a reply carries no Cc or Bcc.",
            keymap.key_label(Action::EditorSend),
            keymap.key_label(Action::ToggleQuote),
            keymap.key_label(Action::FindInBody)
        ),
        "from" if e.reply.is_some() && e.unavailable.is_empty() => {
            "The thread has no sender: choose the ready email sender this reply goes from (←/→)."
                .to_owned()
        }
        "body" => format!(
            "The body. {} sends (saving first) · {} saves · {} finds",
            keymap.key_label(Action::EditorSend),
            keymap.key_label(Action::SaveDraft),
            keymap.key_label(Action::FindInBody)
        ),
        "from" if !e.unavailable.is_empty() => format!(
            "Ready email senders only. Unavailable: {}",
            e.unavailable.join("; ")
        ),
        key => e
            .form
            .fields
            .iter()
            .find(|f| f.key == key)
            .map(|f| f.help.clone())
            .unwrap_or_default(),
    }
}

/// A byte count as `12 KB`.
pub(crate) fn size(bytes: u64) -> String {
    match bytes {
        0..=1023 => format!("{bytes} B"),
        1024..=1_048_575 => format!("{} KB", bytes.div_ceil(1024)),
        _ => format!("{:.1} MB", bytes as f64 / 1_048_576.0),
    }
}

/// The note and attachment lines of `e` at `width` columns.
pub(crate) fn lines(keymap: &Keymap, e: &Editor, width: u16) -> Lines {
    let w = usize::from(width.max(1));
    let (text, kind) = note(keymap, e);
    let note = wrap(DisplayText::inline(&text).as_str(), w);
    let (attached, attachments_note) = if e.attachments.is_empty() {
        (Vec::new(), Vec::new())
    } else {
        let names: Vec<String> = e
            .attachments
            .iter()
            .map(|a| format!("{} ({})", DisplayText::inline(&a.name), size(a.size)))
            .collect();
        (
            wrap(&format!("Attached: {}", names.join(", ")), w),
            wrap(ATTACHMENTS_NOTE, w),
        )
    };
    Lines {
        note,
        kind,
        attached,
        attachments_note,
    }
}

/// The open editor's areas and lines at the current size.
pub(crate) fn areas(inbox: &InboxModel, cx: &Ctx<'_>) -> Option<(EditorAreas, Lines)> {
    areas_in(inbox, cx.keymap, cx.layout().body)
}

/// The open editor's areas and lines in the pane's `body`.
pub(crate) fn areas_in(
    inbox: &InboxModel,
    keymap: &Keymap,
    body: crate::geometry::Rect,
) -> Option<(EditorAreas, Lines)> {
    let e = inbox.editor.as_ref()?;
    let l = lines(keymap, e, layout::editor_text_width(body));
    let rows = |v: &[String]| u16::try_from(v.len()).unwrap_or(u16::MAX);
    let a = layout::editor(
        body,
        EditorRows {
            note: rows(&l.note),
            attachments: rows(&l.attached).saturating_add(rows(&l.attachments_note)),
            searching: e.find.is_some(),
        },
    );
    Some((a, l))
}
