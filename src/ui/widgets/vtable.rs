//! The virtual table: rows are built only for the visible window, and
//! column widths are measured over that window only, so a frame costs the
//! same for 100 or 100,000 rows (ratatui's `Table::new` would gather every
//! row). Multi-select marks, a scrollbar and a footer come with it.

use ratatui::Frame;
use ratatui::layout::{Constraint, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{
    Block, Borders, Cell, Paragraph, Row, Scrollbar, ScrollbarOrientation, ScrollbarState, Table,
};

use crate::app::table::TableState;
use crate::text::sanitize::DisplayText;
use crate::ui::theme::Theme;

/// A column: header, width bounds, alignment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Column {
    /// Header text.
    pub title: &'static str,
    /// Narrowest it may get.
    pub min: u16,
    /// Widest it may get (`u16::MAX`: takes the spare room).
    pub max: u16,
    /// Right-aligned (numbers).
    pub right: bool,
    /// 0: always shown; otherwise hidden when the room runs out, highest
    /// first, before any content is cut.
    pub drop: u8,
    /// Gives up its room (down to `min`) before optional columns are
    /// hidden: a long name is cut rather than a column of figures lost.
    pub squeeze: bool,
}

impl Column {
    /// A left-aligned column.
    pub const fn new(title: &'static str, min: u16, max: u16) -> Column {
        Column {
            title,
            min,
            max,
            right: false,
            drop: 0,
            squeeze: false,
        }
    }

    /// A right-aligned column.
    pub const fn num(title: &'static str, min: u16, max: u16) -> Column {
        Column {
            title,
            min,
            max,
            right: true,
            drop: 0,
            squeeze: false,
        }
    }

    /// The same column, hidden at rank `rank` when the room runs out.
    pub const fn optional(self, rank: u8) -> Column {
        Column { drop: rank, ..self }
    }

    /// The same column, cut down to its `min` before any optional column
    /// is hidden.
    pub const fn squeezed(self) -> Column {
        Column {
            squeeze: true,
            ..self
        }
    }
}

pub use crate::geometry::table::{line_at, viewport};

/// What to draw.
pub struct TableSpec<'a> {
    /// Title in the top border.
    pub title: Line<'a>,
    /// Columns.
    pub columns: &'a [Column],
    /// Selection and scroll.
    pub state: &'a TableState,
    /// Builds one row's cells; called only for visible rows.
    pub row: &'a dyn Fn(usize) -> Vec<Span<'static>>,
    /// Whether a row is marked (multi-select); `None` hides the mark column.
    pub marked: Option<&'a dyn Fn(usize) -> bool>,
    /// Text in the bottom border.
    pub footer: Option<Line<'a>>,
    /// Shown when there are no rows.
    pub empty: &'a str,
    /// Whether the table has the focus (selection highlighted).
    pub focused: bool,
}

/// Fits column widths to `total` columns: each column gets what its visible
/// content needs within `[min, max]`; squeezed columns give up their room
/// (down to `min`) first, then optional columns are hidden (width 0) before
/// any other content is cut; then overflow is taken from the widest, and
/// spare room goes to the last shown column, so columns stay next to each
/// other.
pub fn fit_widths(columns: &[Column], needs: &[u16], total: u16) -> Vec<u16> {
    let mut w: Vec<u16> = columns
        .iter()
        .zip(needs)
        .map(|(c, n)| {
            (*n).max(u16::try_from(c.title.chars().count()).unwrap_or(u16::MAX))
                .clamp(c.min, c.max.max(c.min))
        })
        .collect();
    let shown = |w: &[u16]| u16::try_from(w.iter().filter(|v| **v > 0).count()).unwrap_or(u16::MAX);
    let room = |w: &[u16]| total.saturating_sub(shown(w).saturating_sub(1));
    // Squeezable columns count at their minimum when deciding what to hide.
    let firm = |w: &[u16]| -> u16 {
        columns
            .iter()
            .zip(w)
            .map(|(c, v)| if c.squeeze { (*v).min(c.min) } else { *v })
            .sum()
    };
    loop {
        if firm(&w) <= room(&w) {
            break;
        }
        let Some(i) = columns
            .iter()
            .enumerate()
            .filter(|(i, c)| c.drop > 0 && w[*i] > 0)
            .max_by_key(|(_, c)| c.drop)
            .map(|(i, _)| i)
        else {
            break;
        };
        w[i] = 0;
    }
    let avail = room(&w);
    let mut sum: u16 = w.iter().sum();
    while sum > avail {
        // Shrink the widest column still above its minimum; when all are at
        // their minimum, squeeze the widest anyway.
        let widest_above = |floor: &dyn Fn(usize) -> u16| {
            w.iter()
                .enumerate()
                .filter(|(i, v)| **v > floor(*i))
                .max_by_key(|(_, v)| **v)
                .map(|(i, _)| i)
        };
        // Squeezed columns first: they are the ones cut to keep the others.
        let squeezed = w
            .iter()
            .enumerate()
            .filter(|(i, v)| columns[*i].squeeze && **v > columns[*i].min)
            .max_by_key(|(_, v)| **v)
            .map(|(i, _)| i);
        let Some(i) = squeezed
            .or_else(|| widest_above(&|i| columns[i].min))
            .or_else(|| widest_above(&|_| 1))
        else {
            break;
        };
        w[i] -= 1;
        sum -= 1;
    }
    if sum < avail
        && let Some(last) = w.iter_mut().rev().find(|v| **v > 0)
    {
        *last += avail - sum;
    }
    w
}

/// Draws the table into `area`.
pub fn render(f: &mut Frame, area: Rect, spec: TableSpec<'_>, theme: &Theme) {
    let mut block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border)
        .title(spec.title);
    if let Some(footer) = spec.footer {
        block = block.title_bottom(footer);
    }
    let inner = block.inner(area);
    f.render_widget(block, area);
    if inner.height == 0 || inner.width == 0 {
        return;
    }
    let viewport = inner.height.saturating_sub(1) as usize;
    let mut state = spec.state.clone();
    state.clamp(viewport);
    if state.len == 0 {
        render_empty(f, inner, spec.columns, spec.empty, theme);
        return;
    }
    let range = state.visible(viewport);
    let rows: Vec<(usize, Vec<Span<'static>>)> =
        range.clone().map(|i| (i, (spec.row)(i))).collect();

    let mark_width: u16 = if spec.marked.is_some() { 2 } else { 0 };
    let table_width = inner.width.saturating_sub(mark_width + 1);
    let widths = fit_widths(spec.columns, &needs(spec.columns.len(), &rows), table_width);

    let header_cells = header_cells(spec.columns, &widths, mark_width > 0, theme);
    let table_rows = body_rows(rows, spec.columns, &widths, spec.marked, theme);
    let mut constraints: Vec<Constraint> = Vec::new();
    if mark_width > 0 {
        constraints.push(Constraint::Length(1));
    }
    constraints.extend(
        widths
            .iter()
            .filter(|w| **w > 0)
            .map(|w| Constraint::Length(*w)),
    );
    let highlight = if spec.focused {
        theme.selected
    } else {
        Style::new()
    };
    let table = Table::new(table_rows, constraints)
        .header(Row::new(header_cells))
        .column_spacing(1)
        .row_highlight_style(highlight);
    let mut ts =
        ratatui::widgets::TableState::default().with_selected(Some(state.selected - state.offset));
    let table_area = Rect {
        width: inner.width.saturating_sub(1),
        ..inner
    };
    f.render_stateful_widget(table, table_area, &mut ts);

    if state.len > viewport {
        let bar_area = Rect {
            y: inner.y + 1,
            height: inner.height.saturating_sub(1),
            ..area
        };
        render_scrollbar(f, bar_area, &state, viewport, theme);
    }
}

/// A cell's text, padded on the left in a right-aligned column.
fn align(col: &Column, span: Span<'static>, width: u16) -> Span<'static> {
    if col.right {
        let pad = usize::from(width).saturating_sub(span.width());
        Span::styled(format!("{}{}", " ".repeat(pad), span.content), span.style)
    } else {
        span
    }
}

/// The header row's cells (an empty one over the mark column).
fn header_cells(
    columns: &[Column],
    widths: &[u16],
    marks: bool,
    theme: &Theme,
) -> Vec<Cell<'static>> {
    let mut cells: Vec<Cell> = Vec::new();
    if marks {
        cells.push(Cell::from(""));
    }
    for (c, w) in columns.iter().zip(widths) {
        if *w > 0 {
            cells.push(Cell::from(align(c, Span::raw(c.title), *w)).style(theme.header));
        }
    }
    cells
}

/// The visible rows, with their marks, in the shown columns.
fn body_rows(
    rows: Vec<(usize, Vec<Span<'static>>)>,
    columns: &[Column],
    widths: &[u16],
    marked: Option<&dyn Fn(usize) -> bool>,
    theme: &Theme,
) -> Vec<Row<'static>> {
    rows.into_iter()
        .map(|(i, cells)| {
            let is_marked = marked.is_some_and(|m| m(i));
            let mut out: Vec<Cell> = Vec::new();
            if marked.is_some() {
                out.push(Cell::from(if is_marked { "●" } else { " " }).style(theme.marked));
            }
            for (c, (col, w)) in columns.iter().zip(widths).enumerate() {
                if *w == 0 {
                    continue;
                }
                let span = cells.get(c).cloned().unwrap_or_default();
                let owned = Span::styled(span.content.into_owned(), span.style);
                out.push(Cell::from(align(col, owned, *w)));
            }
            let row = Row::new(out);
            if is_marked {
                row.style(theme.marked)
            } else {
                row
            }
        })
        .collect()
}

/// The header and the "nothing here" line of an empty table.
fn render_empty(f: &mut Frame, inner: Rect, columns: &[Column], empty: &str, theme: &Theme) {
    let header = Line::from(
        columns
            .iter()
            .map(|c| Span::styled(format!("{} ", c.title), theme.header))
            .collect::<Vec<_>>(),
    );
    f.render_widget(
        // Wrapped, not cut: the end of a long placeholder says what to do
        // (`outpost check`, the Refresh key).
        Paragraph::new(
            std::iter::once(header)
                .chain(super::wrapped::lines(
                    DisplayText::block(empty).as_str(),
                    inner.width,
                    theme.dim,
                ))
                .collect::<Vec<_>>(),
        ),
        inner,
    );
}

/// What each column's visible cells need, in columns.
fn needs(columns: usize, rows: &[(usize, Vec<Span<'static>>)]) -> Vec<u16> {
    (0..columns)
        .map(|c| {
            rows.iter()
                .map(|(_, cells)| {
                    cells
                        .get(c)
                        .map_or(0, |s| u16::try_from(s.width()).unwrap_or(u16::MAX))
                })
                .max()
                .unwrap_or(0)
        })
        .collect()
}

/// The scrollbar beside the rows, when they do not all fit.
fn render_scrollbar(f: &mut Frame, area: Rect, state: &TableState, viewport: usize, theme: &Theme) {
    let mut sb = ScrollbarState::new(state.len.saturating_sub(viewport)).position(state.offset);
    f.render_stateful_widget(
        Scrollbar::new(ScrollbarOrientation::VerticalRight)
            .begin_symbol(None)
            .end_symbol(None)
            .style(theme.dim),
        area,
        &mut sb,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_fit_the_room() {
        let cols = [
            Column::new("Name", 4, 30),
            Column::new("Note", 4, u16::MAX),
            Column::num("N", 3, 6),
        ];
        let w = fit_widths(&cols, &[10, 50, 2], 40);
        assert_eq!(w.iter().sum::<u16>() + 2, 40);
        assert_eq!(w[2], 3);
        let w = fit_widths(&cols, &[10, 5, 2], 60);
        assert_eq!(
            w,
            vec![10, 5, 43],
            "spare room goes last, columns stay together"
        );
        let cols = [
            Column::new("Domain", 6, u16::MAX),
            Column::num("Records", 7, 7).optional(2),
            Column::new("Added", 5, 10).optional(1),
        ];
        let w = fit_widths(&cols, &[20, 1, 7], 30);
        assert_eq!(
            w,
            vec![20, 0, 9],
            "the optional column goes before content is cut"
        );
        let w = fit_widths(&cols, &[30, 1, 7], 30);
        assert_eq!(w, vec![30, 0, 0]);
    }

    /// A squeezed column is the one cut, down to its minimum, before an
    /// optional column goes or a wider column is cut.
    #[test]
    fn a_squeezed_column_gives_up_its_room_first() {
        let cols = [
            Column::new("Name", 8, 40).squeezed(),
            Column::new("Email", 10, 40),
            Column::num("Sent", 4, 6).optional(1),
        ];
        // Everything wants 40 + 30 + 4 (+2 gaps) = 76 in 60 columns.
        let w = fit_widths(&cols, &[40, 30, 4], 60);
        assert_eq!(w, vec![24, 30, 4], "the name is cut, the email kept whole");
        // Past the name's minimum, the optional column goes.
        let w = fit_widths(&cols, &[40, 30, 4], 40);
        assert_eq!(w[2], 0);
        assert_eq!(w[0], 9, "{w:?}");
    }

    #[test]
    fn line_hit_testing() {
        let area = Rect::new(0, 1, 40, 10);
        assert_eq!(line_at(area, 5, 3), Some(0));
        assert_eq!(line_at(area, 5, 2), None, "header row");
        assert_eq!(line_at(area, 0, 3), None, "border");
        assert_eq!(line_at(area, 5, 10), None, "bottom border");
        assert_eq!(viewport(area), 7);
    }
}
