//! The id of the item a detail view shows, dim at the right of its title:
//! `id 7dfa1b2c…`, or the whole id where there is room (`I` copies it).

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Block;

use crate::text::sanitize::DisplayText;
use crate::ui::theme::Theme;

/// The fewest columns the cut form needs (`id 7dfa1b2c… ` with its spaces).
const CUT: usize = 15;

/// The tag for `id` in `room` columns: the whole id when it fits, its head
/// when only that does, nothing when not even that.
pub(crate) fn tag(id: &str, room: usize, theme: &Theme) -> Option<Span<'static>> {
    let id = DisplayText::inline(id).into_string();
    if id.is_empty() {
        return None;
    }
    let whole = format!(" id {id} ");
    let text = if whole.chars().count() <= room {
        whole
    } else if room >= CUT {
        format!(" id {} ", crate::app::ids::short(&id))
    } else {
        return None;
    };
    Some(Span::styled(text, theme.dim))
}

/// `block` with the tag at the right of its top border, in what `area`'s
/// width leaves beside `title` (the title on the left).
pub(crate) fn on_block<'a>(
    block: Block<'a>,
    area: Rect,
    title: &Line<'_>,
    id: &str,
    theme: &Theme,
) -> Block<'a> {
    let room = usize::from(area.width)
        .saturating_sub(4)
        .saturating_sub(title.width() + 1);
    match tag(id, room, theme) {
        Some(t) => block.title_top(Line::from(t).right_aligned()),
        None => block,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_whole_id_where_it_fits_its_head_where_not() {
        let theme = Theme::new(crate::config::ThemeName::Default);
        let id = "7dfa1b2c-5d4a-4e7b-9c1d-2a6f0e9b7c35";
        let text = |room| tag(id, room, &theme).map(|s| s.content.into_owned());
        assert_eq!(
            text(60).as_deref(),
            Some(" id 7dfa1b2c-5d4a-4e7b-9c1d-2a6f0e9b7c35 ")
        );
        assert_eq!(text(20).as_deref(), Some(" id 7dfa1b2c… "));
        assert_eq!(text(8), None);
    }
}
