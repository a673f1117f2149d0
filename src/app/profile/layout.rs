//! The Profile pane's geometry, shared by drawing and by `update` (scroll
//! bounds, mouse hit-testing): computed from sizes alone.

use super::editor::{EditField, Editor, Input};
use super::fields::{Kind, Section};
use super::text::content;
use crate::geometry::{Rect, centered, split_left, split_top};
use crate::text::wrap::wrap;

/// From this width the discovery pass sits right of the profile, and the
/// form shows its changes beside it.
pub(crate) const WIDE: u16 = 120;
/// Width of the discovery-pass panel on a wide screen.
pub(crate) const PASS_W: u16 = 56;
/// Width of the live changes beside the form on a wide screen.
pub(crate) const CHANGES_W: u16 = 64;

/// Where the read view's parts go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Areas {
    /// The profile document (bordered).
    pub doc: Rect,
    /// The discovery pass (bordered); empty when not shown.
    pub pass: Rect,
    /// The `/` input line (zero height when not filtering).
    pub filter: Rect,
}

impl Areas {
    /// The document's lines on screen.
    pub(crate) fn viewport(&self) -> usize {
        usize::from(self.doc.height.saturating_sub(2))
    }

    /// Where the document's lines go: inside the border, a column of
    /// space on either side.
    pub(crate) fn text(&self) -> Rect {
        let a = self.doc;
        Rect {
            x: a.x.saturating_add(2),
            y: a.y.saturating_add(1),
            width: a.width.saturating_sub(4),
            height: a.height.saturating_sub(2),
        }
    }

    /// Width of the document's lines.
    pub(crate) fn doc_width(&self) -> u16 {
        self.text().width
    }

    /// The document line (from the top of the view) under a click.
    pub(crate) fn line_at(&self, x: u16, y: u16) -> Option<usize> {
        let a = self.doc;
        let inside = x > a.x && x + 1 < a.x + a.width && y > a.y && y + 1 < a.y + a.height;
        inside.then(|| usize::from(y - a.y - 1))
    }
}

/// The read view's areas: the pass at the right of a wide screen; on a
/// narrow one the pass is the document's first section (so it is never
/// cut: it scrolls with the profile). `filtering` keeps the last line for
/// the `/` input.
pub(crate) fn areas(body: Rect, filtering: bool) -> Areas {
    let f = u16::from(filtering).min(body.height);
    let (top, filter) = split_top(body, body.height - f);
    if pass_beside(top) {
        let (doc, pass) = split_left(top, top.width - PASS_W);
        Areas { doc, pass, filter }
    } else {
        Areas {
            doc: top,
            pass: Rect { width: 0, ..top },
            filter,
        }
    }
}

/// Whether the pass has a panel of its own beside the profile.
pub(crate) fn pass_beside(body: Rect) -> bool {
    body.width >= WIDE
}

/// Where the form's parts go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct FormAreas {
    /// The form (bordered).
    pub form: Rect,
    /// The changes so far (bordered); empty on a narrow screen.
    pub changes: Rect,
}

/// The form's areas.
pub(crate) fn form_areas(body: Rect) -> FormAreas {
    if body.width >= WIDE + 20 {
        let (form, changes) = split_left(body, body.width - CHANGES_W);
        FormAreas { form, changes }
    } else {
        FormAreas {
            form: body,
            changes: Rect { width: 0, ..body },
        }
    }
}

/// Rows of the form's note (the service's answer) above the fields.
pub(crate) const NOTE_H: u16 = 2;

/// The form's fields area: inside its border, below the note if any.
pub(crate) fn form_inner(body: Rect, has_note: bool) -> Rect {
    let a = form_areas(body).form;
    let note = if has_note { NOTE_H } else { 0 };
    let inner = Rect {
        x: a.x.saturating_add(1),
        y: a.y.saturating_add(1),
        width: a.width.saturating_sub(2),
        height: a.height.saturating_sub(2),
    };
    split_top(inner, note.min(inner.height / 2)).1
}

/// Whether the screen is tall enough for taller inputs.
pub(crate) fn tall(body: Rect) -> bool {
    body.height >= 40
}

/// Rows an editor of several lines has at least: fewer reads as a line
/// that cannot hold a paragraph (and scrolls a sentence away).
pub(crate) const MIN_EDITOR_ROWS: u16 = 4;

/// Rows of a field's input at `width`: a long text as tall as its text
/// (plus a line to grow into), within bounds that are larger on a tall
/// screen, and never fewer than [`MIN_EDITOR_ROWS`].
pub(crate) fn input_height(input: &Input, tall: bool, width: u16) -> u16 {
    let rows = |n: usize| u16::try_from(n).unwrap_or(u16::MAX);
    let most = if tall { 8 } else { 5 };
    match input {
        Input::Line(_) => 1,
        Input::Long(t) => {
            let lines = wrap(&content(t), usize::from(width.max(1))).len();
            rows(lines.saturating_add(1)).clamp(MIN_EDITOR_ROWS, most)
        }
        Input::List(l) => rows(l.items.len().saturating_add(1)).clamp(MIN_EDITOR_ROWS, most),
        Input::Json(_) => {
            if tall {
                14
            } else {
                8
            }
        }
    }
}

/// Rows under a field's input: its error, its help, or (lists and JSON)
/// its keys and check; none when there is nothing to say.
pub(crate) fn help_rows(f: &EditField) -> u16 {
    let says = f.error.is_some()
        || !f.id.help().is_empty()
        || matches!(f.id.kind(), Kind::List | Kind::Json);
    u16::from(says)
}

/// Rows of a field's block: label, input, help.
pub(crate) fn field_height(f: &EditField, tall: bool, width: u16) -> u16 {
    1 + input_height(&f.input, tall, width) + help_rows(f)
}

/// Width of a field's input inside the form's area.
pub(crate) fn input_width(inner: Rect) -> u16 {
    inner.width.saturating_sub(2)
}

/// One block of the form on screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Block {
    /// A section heading (one line).
    Heading(Section),
    /// Field `n` of the form: label, input, help line.
    Field(usize),
}

/// The form's blocks that are on screen, with their rectangles, inside
/// `inner` (the form's area inside its border). The focused field is
/// always shown, with its section heading when the section fits.
pub(crate) fn form_blocks(e: &Editor, inner: Rect, tall: bool) -> Vec<(Block, Rect)> {
    let mut blocks: Vec<(Block, u16)> = Vec::new();
    let mut section = None;
    for (i, f) in e.fields.iter().enumerate() {
        let s = f.id.section();
        if section != Some(s) {
            blocks.push((Block::Heading(s), 1));
            section = Some(s);
        }
        blocks.push((Block::Field(i), field_height(f, tall, input_width(inner))));
    }
    let focus = blocks
        .iter()
        .position(|(b, _)| *b == Block::Field(e.focus))
        .unwrap_or(0);
    let heading = blocks[..=focus]
        .iter()
        .rposition(|(b, _)| matches!(b, Block::Heading(_)))
        .unwrap_or(0);
    let span = |from: usize| -> u16 { blocks[from..=focus].iter().map(|(_, h)| *h).sum() };
    let mut start = heading;
    while start < focus && span(start) > inner.height {
        start += 1;
    }
    let mut y = inner.y;
    let bottom = inner.y.saturating_add(inner.height);
    let mut out = Vec::new();
    for (b, h) in blocks.into_iter().skip(start) {
        if y >= bottom {
            break;
        }
        let height = h.min(bottom - y);
        out.push((b, Rect { y, height, ..inner }));
        y = y.saturating_add(h);
    }
    out
}

/// The review of the changes: the whole body on a narrow screen (so no
/// border doubles up); else centred, 110 columns, as tall as its `lines`
/// need (the note and keys under them included; borders added here).
pub(crate) fn review_rect(body: Rect, lines: usize) -> Rect {
    if body.width < WIDE {
        return body;
    }
    let want = u16::try_from(lines.saturating_add(2)).unwrap_or(u16::MAX);
    centered(body, 110, want.clamp(12.min(body.height), body.height))
}

/// Width of the review's text (inside the border).
pub(crate) fn review_width(body: Rect) -> u16 {
    review_rect(body, 0).width.saturating_sub(2)
}

/// Where the redeem dialog goes: centred in `body`, at most 64 wide.
pub(crate) fn redeem_rect(body: Rect) -> Rect {
    centered(body, body.width.saturating_sub(4).min(64), 9)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::model::PutContext;

    #[test]
    fn the_focused_field_is_always_on_screen() {
        let mut e = Editor::new(PutContext::default(), false);
        let inner = Rect::new(1, 2, 60, 12);
        for i in 0..e.fields.len() {
            e.focus = i;
            let blocks = form_blocks(&e, inner, false);
            let shown = blocks.iter().find(|(b, _)| *b == Block::Field(i));
            let (_, r) = shown.expect("focused field shown");
            let need = field_height(&e.fields[i], false, input_width(inner));
            assert_eq!(r.height, need, "field {i} shown whole");
            assert!(blocks.iter().all(|(_, r)| r.y + r.height <= 14));
        }
        e.focus = 1;
        let blocks = form_blocks(&e, inner, false);
        assert_eq!(
            blocks[0].0,
            Block::Heading(Section::Profile),
            "its heading first"
        );
    }

    #[test]
    fn wide_screens_put_the_pass_beside_the_profile() {
        let body = Rect::new(0, 1, 200, 48);
        let a = areas(body, false);
        assert_eq!((a.doc.width, a.pass.width), (144, PASS_W));
        let body = Rect::new(0, 1, 80, 22);
        let f = areas(body, true);
        assert_eq!(
            (f.doc.height, f.filter.y),
            (21, 22),
            "a line for the / input"
        );
        let a = areas(body, false);
        assert_eq!(a.pass.width, 0, "the pass is in the document");
        assert_eq!(a.doc, body);
        assert_eq!(a.line_at(5, a.doc.y + 1), Some(0));
        assert_eq!(a.line_at(0, a.doc.y + 1), None, "the border is not a line");
    }
}
