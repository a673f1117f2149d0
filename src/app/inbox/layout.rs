//! The Inbox pane's geometry, shared by drawing and by `update` (page
//! sizes, scroll bounds, mouse hit-testing): computed from sizes alone.

use crate::geometry::{Rect, split_left, split_top, table};

/// Where the thread list goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ListAreas {
    /// The table.
    pub table: Rect,
    /// The `/` filter line under it (zero height when not filtering).
    pub filter: Rect,
}

/// The thread list's areas; `filtering` keeps a line for the filter input.
pub(crate) fn list(body: Rect, filtering: bool) -> ListAreas {
    let h = u16::from(filtering).min(body.height);
    let (table, filter) = split_top(body, body.height - h);
    ListAreas { table, filter }
}

/// Rows of the thread list on screen.
pub fn list_viewport(body: Rect, filtering: bool) -> usize {
    table::viewport(list(body, filtering).table)
}

/// Where an open thread goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ThreadAreas {
    /// Facts about the thread (bordered).
    pub info: Rect,
    /// The messages table.
    pub table: Rect,
    /// The `/` filter line under the table (zero height when not
    /// filtering).
    pub filter: Rect,
    /// The selected message's body (bordered).
    pub reading: Rect,
}

/// Screens at least this wide put the reading pane beside the messages.
pub(crate) const SIDE_BY_SIDE: u16 = 150;

/// The open thread's areas; `filtering` keeps a line under the table for
/// the `/` input.
pub(crate) fn thread(body: Rect, filtering: bool) -> ThreadAreas {
    let info_h = if body.height >= 18 { 5 } else { 4 };
    let (info, rest) = split_top(body, info_h.min(body.height / 3));
    let (table, reading) = if rest.width >= SIDE_BY_SIDE {
        split_left(rest, (rest.width * 9 / 20).max(60))
    } else {
        // Half for the messages (five rows at 80x24), half for the body.
        let h = (rest.height / 2).clamp(5.min(rest.height), 14);
        split_top(rest, h)
    };
    let f = u16::from(filtering).min(table.height);
    let (table, filter) = split_top(table, table.height - f);
    ThreadAreas {
        info,
        table,
        filter,
        reading,
    }
}

/// Rows of the messages table on screen.
pub(crate) fn messages_viewport(body: Rect, filtering: bool) -> usize {
    table::viewport(thread(body, filtering).table)
}

/// Inner size (columns, rows) of the reading pane.
pub(crate) fn reading_size(body: Rect) -> (u16, u16) {
    let r = thread(body, false).reading;
    (r.width.saturating_sub(2), r.height.saturating_sub(2))
}

/// Where the editor's parts go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct EditorAreas {
    /// The bordered frame around everything.
    pub frame: Rect,
    /// One rectangle per field, label included, in form order (From, To,
    /// Name, Cc, Bcc, Subject).
    pub fields: [Rect; 6],
    /// Label width of each field.
    pub labels: [u16; 6],
    /// The line under the fields: the focused field's help, or the errors.
    pub note: Rect,
    /// The attachments lines (zero height without attachments).
    pub attachments: Rect,
    /// The rule above the body.
    pub rule: Rect,
    /// The body text area.
    pub body: Rect,
    /// The find line under the body (zero height when not finding).
    pub search: Rect,
}

/// Label width of the left column.
const LABEL: u16 = 9;
/// Label width of the right column (side by side).
const RIGHT_LABEL: u16 = 6;
/// Frames at least this wide (inside) put To/Name and Cc/Bcc side by side.
const PAIRS: u16 = 68;

/// Rows the editor's note and attachment lines ask for (their text
/// wrapped to the frame's width).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct EditorRows {
    /// The note under the fields (at least one row; at most three).
    pub note: u16,
    /// The attachments (zero without attachments).
    pub attachments: u16,
    /// The find line is open.
    pub searching: bool,
}

/// Rows of the note at most.
const NOTE_MAX: u16 = 3;
/// Rows of text the body keeps before the note or the attachments grow.
const BODY_MIN: u16 = 3;

/// The width of the editor's text lines (inside the frame) for `body`.
pub(crate) fn editor_text_width(body: Rect) -> u16 {
    body.width.saturating_sub(2)
}

/// The editor's areas.
pub(crate) fn editor(body: Rect, rows: EditorRows) -> EditorAreas {
    let frame = body;
    let inner = Rect {
        x: frame.x.saturating_add(1),
        y: frame.y.saturating_add(1),
        width: frame.width.saturating_sub(2),
        height: frame.height.saturating_sub(2),
    };
    let pairs = inner.width >= PAIRS;
    let mut field_rows = Vec::new();
    let mut rest = inner;
    for _ in 0..(if pairs { 4 } else { 6 }) {
        let (row, r) = split_top(rest, 1);
        field_rows.push(row);
        rest = r;
    }
    let mut fields = [Rect::default(); 6];
    let mut labels = [LABEL; 6];
    if pairs {
        let (to, name) = split_left(field_rows[1], field_rows[1].width * 3 / 5);
        let (cc, bcc) = split_left(field_rows[2], field_rows[2].width / 2);
        fields = [field_rows[0], to, name, cc, bcc, field_rows[3]];
        labels[2] = RIGHT_LABEL;
        labels[4] = RIGHT_LABEL;
    } else {
        fields.copy_from_slice(&field_rows[..6]);
    }
    // The rule and the find line are fixed; the note and the attachments
    // grow into what the body can spare.
    let fixed = 1 + u16::from(rows.searching);
    let spare = |r: Rect| r.height.saturating_sub(fixed + BODY_MIN);
    let note_h = rows.note.clamp(1, NOTE_MAX).min(spare(rest).max(1));
    let (note, rest) = split_top(rest, note_h);
    let att_h = match rows.attachments {
        0 => 0,
        n => n.min(spare(rest)).max(1),
    };
    let (attachments, rest) = split_top(rest, att_h);
    let (rule, rest) = split_top(rest, 1);
    let search_h = u16::from(rows.searching).min(rest.height);
    let (body, search) = split_top(rest, rest.height - search_h);
    EditorAreas {
        frame,
        fields,
        labels,
        note,
        attachments,
        rule,
        body,
        search,
    }
}

impl EditorAreas {
    /// The field under a click.
    pub(crate) fn field_at(&self, x: u16, y: u16) -> Option<usize> {
        self.fields.iter().position(|r| contains(*r, x, y))
    }

    /// Whether a click lands in the body.
    pub(crate) fn in_body(&self, x: u16, y: u16) -> bool {
        contains(self.body, x, y)
    }
}

/// Whether `(x, y)` is inside `r`.
pub(crate) fn contains(r: Rect, x: u16, y: u16) -> bool {
    x >= r.x && x < r.x.saturating_add(r.width) && y >= r.y && y < r.y.saturating_add(r.height)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_editor_keeps_room_for_the_body_at_the_minimum_size() {
        // 60x15 leaves a 13-row body: six field rows, the note, the rule
        // and at least three rows of text.
        let a = editor(
            Rect::new(0, 1, 60, 13),
            EditorRows {
                note: 3,
                attachments: 0,
                searching: false,
            },
        );
        assert!(a.body.height >= 3, "{a:?}");
        assert_eq!(a.fields[0].y, 2);
        let wide = editor(
            Rect::new(0, 1, 200, 48),
            EditorRows {
                note: 1,
                attachments: 2,
                searching: true,
            },
        );
        assert_eq!(
            wide.fields[1].y, wide.fields[2].y,
            "To and Name share a row"
        );
        assert_eq!(wide.search.height, 1);
        assert_eq!(wide.attachments.height, 2);
        assert_eq!(
            wide.field_at(wide.fields[5].x + 3, wide.fields[5].y),
            Some(5)
        );
        assert!(wide.in_body(wide.body.x, wide.body.y));
    }

    #[test]
    fn the_reading_pane_goes_beside_on_wide_screens() {
        let narrow = thread(Rect::new(0, 1, 80, 22), false);
        assert_eq!(narrow.table.x, narrow.reading.x);
        assert!(
            messages_viewport(Rect::new(0, 1, 80, 22), false) > 3,
            "more than three messages at 80x24"
        );
        let wide = thread(Rect::new(0, 1, 200, 48), true);
        assert_eq!(wide.table.y, wide.reading.y);
        assert_eq!(wide.filter.y, wide.table.y + wide.table.height);
        assert!(messages_viewport(Rect::new(0, 1, 60, 13), true) >= 1);
    }
}
