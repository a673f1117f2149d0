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
use crate::text::{self, sanitize::DisplayText};
use crate::ui::theme::Theme;

/// A column: header, width bounds, alignment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Column {
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
    pub(crate) const fn new(title: &'static str, min: u16, max: u16) -> Column {
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
    pub(crate) const fn num(title: &'static str, min: u16, max: u16) -> Column {
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
    pub(crate) const fn optional(self, rank: u8) -> Column {
        Column { drop: rank, ..self }
    }

    /// The same column, cut down to its `min` before any optional column
    /// is hidden.
    pub(crate) const fn squeezed(self) -> Column {
        Column {
            squeeze: true,
            ..self
        }
    }
}

/// What to draw.
pub(crate) struct TableSpec<'a> {
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
/// content needs within `[min, max]` (a number column always what its
/// figures need: a cut number reads as another number); squeezed columns
/// give up their room (down to `min`) first, then optional columns are
/// hidden (width 0) before any other content is cut; then text is cut from
/// the widest down to its `min`; a number column that still has no room is
/// hidden, never cut; only then is text cut below its `min`. Spare room goes
/// first to the columns whose text is cut, then to the last shown column, so
/// columns stay next to each other.
pub(crate) fn fit_widths(columns: &[Column], needs: &[u16], total: u16) -> Vec<u16> {
    let title = |c: &Column| u16::try_from(text::wrap::width(c.title)).unwrap_or(u16::MAX);
    // What a column would take with no limit on the room: the widest cell
    // (or the title), at least `min`.
    let full: Vec<u16> = columns
        .iter()
        .zip(needs)
        .map(|(c, n)| (*n).max(title(c)).max(c.min))
        .collect();
    let mut w: Vec<u16> = columns
        .iter()
        .zip(&full)
        .map(|(c, f)| {
            if c.right {
                *f
            } else {
                (*f).min(c.max.max(c.min))
            }
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
            .fold(0u16, u16::saturating_add)
    };
    let sum = |w: &[u16]| w.iter().fold(0u16, |a, b| a.saturating_add(*b));
    while firm(&w) > room(&w) {
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
    // Cuts text columns above `floor` (squeezed ones first, then the widest)
    // until the shown columns fit; numbers are never cut.
    let cut_text = |w: &mut Vec<u16>, floor: &dyn Fn(usize) -> u16| {
        while sum(w) > room(w) {
            let above = |squeezed_only: bool| {
                w.iter()
                    .enumerate()
                    .filter(|(i, v)| {
                        let c = &columns[*i];
                        !c.right && (!squeezed_only || c.squeeze) && **v > floor(*i)
                    })
                    .max_by_key(|(_, v)| **v)
                    .map(|(i, _)| i)
            };
            let Some(i) = above(true).or_else(|| above(false)) else {
                return;
            };
            w[i] -= 1;
        }
    };
    cut_text(&mut w, &|i| columns[i].min.max(1));
    // A number with no room is hidden: the rightmost first (the leftmost
    // figures are the ones a list is read by).
    while sum(&w) > room(&w) {
        let Some(i) = (0..columns.len())
            .rev()
            .find(|i| columns[*i].right && w[*i] > 0)
        else {
            break;
        };
        w[i] = 0;
    }
    cut_text(&mut w, &|_| 1);
    let spare = room(&w).saturating_sub(sum(&w));
    give_spare(&mut w, &full, spare);
    w
}

/// Spare room: to the columns cut below what they need first (an email cut
/// while columns sit empty reads as a wrong address), then to the last
/// shown column.
fn give_spare(w: &mut [u16], full: &[u16], mut spare: u16) {
    for (v, f) in w.iter_mut().zip(full) {
        if *v > 0 && *v < *f {
            let give = (*f - *v).min(spare);
            *v += give;
            spare -= give;
        }
    }
    if spare > 0
        && let Some(last) = w.iter_mut().rev().find(|v| **v > 0)
    {
        *last += spare;
    }
}

/// The note on the table's top border naming the columns hidden for want
/// of room, short enough for `room` columns ("" when none is hidden).
fn hidden_note(columns: &[Column], widths: &[u16], room: u16) -> String {
    let hidden: Vec<&str> = columns
        .iter()
        .zip(widths)
        .filter(|(_, w)| **w == 0)
        .map(|(c, _)| c.title)
        .collect();
    if hidden.is_empty() {
        return String::new();
    }
    let named = format!(" hidden: {} ", hidden.join(", "));
    if text::wrap::width(&named) <= usize::from(room) {
        return named;
    }
    let counted = format!(" {} hidden ", hidden.len());
    if text::wrap::width(&counted) <= usize::from(room) {
        counted
    } else {
        String::new()
    }
}

/// Draws the table into `area`.
pub(crate) fn render(f: &mut Frame, area: Rect, spec: TableSpec<'_>, theme: &Theme) {
    let title_width = u16::try_from(spec.title.width()).unwrap_or(u16::MAX);
    let mut block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border)
        .title(spec.title);
    if let Some(footer) = spec.footer {
        block = block.title_bottom(footer);
    }
    let inner = block.inner(area);
    if inner.height == 0 || inner.width == 0 {
        f.render_widget(block, area);
        return;
    }
    let viewport = inner.height.saturating_sub(1) as usize;
    let mut state = spec.state.clone();
    state.clamp(viewport);
    if state.len == 0 {
        f.render_widget(block, area);
        render_empty(f, inner, spec.columns, spec.empty, theme);
        return;
    }
    let range = state.visible(viewport);
    let rows: Vec<(usize, Vec<Span<'static>>)> =
        range.clone().map(|i| (i, (spec.row)(i))).collect();

    let mark_width: u16 = if spec.marked.is_some() { 2 } else { 0 };
    let table_width = inner.width.saturating_sub(mark_width + 1);
    let widths = fit_widths(spec.columns, &needs(spec.columns.len(), &rows), table_width);
    // Said on the border rather than left to be noticed: a missing column of
    // figures otherwise reads as a list without them.
    let note = hidden_note(
        spec.columns,
        &widths,
        area.width.saturating_sub(title_width.saturating_add(5)),
    );
    if !note.is_empty() {
        block = block.title_top(Line::styled(note, theme.dim).right_aligned());
    }
    f.render_widget(block, area);

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
            let title = Span::raw(text::wrap::fit(c.title, usize::from(*w)));
            cells.push(Cell::from(align(c, title, *w)).style(theme.header));
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
                // Cut with `…`: a cell cut silently reads as another value.
                // Numbers always have their room (fit_widths).
                let owned =
                    Span::styled(text::wrap::fit(&span.content, usize::from(*w)), span.style);
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
    use crate::geometry::table::{line_at, viewport};

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

    /// A number column with no room is hidden whole, never cut to other
    /// figures; the text around it is cut instead, down to its minimum.
    #[test]
    fn a_number_is_hidden_rather_than_cut() {
        let cols = [Column::new("Name", 10, 40), Column::num("Sent", 4, 6)];
        assert_eq!(fit_widths(&cols, &[40, 5], 30), vec![24, 5]);
        assert_eq!(
            fit_widths(&cols, &[40, 5], 14),
            vec![14, 0],
            "12,345 cut to 12,3 would read as another figure"
        );
        // A figure wider than its column's max is still shown whole.
        assert_eq!(fit_widths(&cols, &[12, 9], 30), vec![12, 17]);
    }

    /// Spare room widens the columns whose text is cut before it pads the
    /// last column.
    #[test]
    fn spare_room_goes_to_the_cut_columns_first() {
        let cols = [
            Column::new("Email", 10, 30),
            Column::new("Note", 4, u16::MAX),
        ];
        assert_eq!(fit_widths(&cols, &[40, 5], 60), vec![40, 19]);
    }

    /// What the table draws: a cut cell ends with `…`, and the border names
    /// the column hidden for want of room.
    #[test]
    fn cut_cells_end_with_an_ellipsis_and_hidden_columns_are_named() {
        let cols = [Column::new("Name", 8, 40), Column::num("Contacted", 9, 9)];
        let state = TableState {
            selected: 0,
            offset: 0,
            len: 1,
        };
        let draw = |cols: &[Column], width: u16| {
            let mut t = ratatui::Terminal::new(ratatui::backend::TestBackend::new(width, 4))
                .expect("test backend");
            t.draw(|f| {
                let row = |_: usize| {
                    vec![
                        Span::raw("DACH fintech founders in Berlin"),
                        Span::raw("12,345"),
                    ]
                };
                let spec = TableSpec {
                    title: Line::raw("Leads"),
                    columns: cols,
                    state: &state,
                    row: &row,
                    marked: None,
                    footer: None,
                    empty: "",
                    focused: true,
                };
                render(
                    f,
                    f.area(),
                    spec,
                    &Theme::new(crate::config::ThemeName::Default),
                );
            })
            .expect("draw");
            let buf = t.backend().buffer().clone();
            (0..buf.area.height)
                .map(|y| {
                    (0..buf.area.width)
                        .map(|x| buf[(x, y)].symbol())
                        .collect::<String>()
                })
                .collect::<Vec<_>>()
        };
        let wide = draw(&cols, 34);
        assert!(
            wide[2].contains("DACH fintech founder…    12,345"),
            "{wide:?}"
        );
        let narrow = draw(&cols, 20);
        assert!(narrow[2].contains("DACH fintech fou…"), "{narrow:?}");
        assert!(!narrow[2].contains("12"), "{narrow:?}");
        assert!(narrow[0].contains("1 hidden"), "{narrow:?}");
        let long = [Column::new("Name", 20, 40), Column::num("Contacted", 9, 9)];
        let named = draw(&long, 30);
        assert!(named[0].contains("hidden: Contacted"), "{named:?}");
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
