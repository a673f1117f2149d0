//! The senders and one sender's schedule.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};

use super::{filter, loading_or_error, no_match, stale_span};
use crate::api::RouteFamily;
use crate::api::model::{Channel, SenderAccount};
use crate::app::Model;
use crate::app::domains::layout::Areas;
use crate::app::domains::{DomainsModel, Purpose};
use crate::app::keymap::Action;
use crate::text::sanitize::DisplayText;
use crate::ui::theme::Theme;
use crate::ui::widgets::json_tree;
use crate::ui::widgets::vtable::{self, Column, TableSpec};

/// The sender list's columns.
const COLS: [Column; 7] = [
    Column::new("Name", 10, 28),
    Column::new("Type", 7, 7).optional(2),
    Column::new("Account", 10, u16::MAX),
    Column::new("Status", 8, 20),
    Column::num("Daily", 5, 6).optional(1),
    Column::num("Wk conn/msg", 11, 11).optional(3),
    Column::new("Flags", 5, 16).optional(4),
];

/// The columns on a wide screen: every limit and flag on its own.
const WIDE_COLS: [Column; 10] = [
    Column::new("Name", 10, 28),
    Column::new("Type", 7, 7),
    Column::new("Email", 10, 40),
    Column::new("Provider account", 16, 32),
    Column::new("Status", 8, 24),
    Column::num("Daily", 5, 6),
    Column::num("Wk conn", 7, 8),
    Column::num("Wk msg", 6, 8),
    Column::new("Default", 7, 7),
    Column::new("Premium", 7, u16::MAX),
];

/// Draws the sender list.
pub(super) fn list(m: &Model, f: &mut Frame, a: Areas, theme: &Theme) {
    let d = &m.panes.domains;
    let senders = d.filtered_senders();
    let total = d.senders.items.len();
    filter::render(
        m,
        f,
        a.filter,
        &d.sender_query,
        (senders.len(), total),
        theme,
    );
    let wide = a.wide();
    let row = |i: usize| {
        senders
            .get(i)
            .map(|s| {
                if wide {
                    wide_row(s, theme)
                } else {
                    row(s, theme)
                }
            })
            .unwrap_or_default()
    };
    let mut title = Line::from(vec![
        Span::styled(format!(" Senders ({}) ", senders.len()), theme.title),
        Span::styled(format!(" type: {} ", d.sender_filter.label()), theme.info),
    ]);
    let reading = m
        .requests
        .pending::<DomainsModel>(|p| *p == Purpose::Senders);
    title
        .spans
        .extend(stale_span(m, &d.senders, reading, theme));
    let empty = if d.senders.loaded && total > 0 && d.sender_query.needle().is_none() {
        format!(
            "no {} senders — {} shows another type",
            d.sender_filter.label(),
            m.keymap.key_label(Action::SenderType)
        )
    } else if d.senders.loaded && total > 0 {
        no_match(m, "sender")
    } else {
        loading_or_error(m, &d.senders, "senders", RouteFamily::Senders)
    };
    vtable::render(
        f,
        a.list,
        TableSpec {
            title,
            columns: if wide { &WIDE_COLS } else { &COLS },
            state: &d.senders_table,
            row: &row,
            marked: None,
            footer: None,
            empty: &empty,
            focused: d.add.is_none(),
        },
        theme,
    );
}

/// The name to show: the display name, else first and last.
fn name(s: &SenderAccount) -> String {
    if s.display_name.trim().is_empty() {
        format!("{} {}", s.first_name, s.last_name)
    } else {
        s.display_name.clone()
    }
}

/// The address, or the provider's account id for a network sender.
fn account(s: &SenderAccount) -> &str {
    if s.email_address.is_empty() {
        &s.provider_account_id
    } else {
        &s.email_address
    }
}

/// One sender's cells.
fn row(s: &SenderAccount, theme: &Theme) -> Vec<Span<'static>> {
    let weekly = if s.kind == Channel::Network {
        format!("{}/{}", s.weekly_connection_limit, s.weekly_message_limit)
    } else {
        "—".into()
    };
    let mut flags = Vec::new();
    if s.is_default_sender {
        flags.push("default");
    }
    if s.is_premium {
        flags.push("premium");
    }
    vec![
        Span::raw(DisplayText::inline(name(s).trim()).into_string()),
        Span::styled(
            DisplayText::inline(s.kind.as_str()).into_string(),
            theme.dim,
        ),
        Span::raw(DisplayText::inline(account(s)).into_string()),
        Span::styled(
            DisplayText::inline(&s.status).into_string(),
            theme.sender_status(&s.status),
        ),
        Span::raw(s.daily_limit.to_string()),
        Span::raw(weekly),
        Span::styled(flags.join(" "), theme.key),
    ]
}

/// One sender's cells on a wide screen.
fn wide_row(s: &SenderAccount, theme: &Theme) -> Vec<Span<'static>> {
    let network = s.kind == Channel::Network;
    let weekly = |n: u64| {
        if network {
            Span::raw(n.to_string())
        } else {
            Span::styled("—", theme.dim)
        }
    };
    let flag = |on: bool| {
        if on {
            Span::styled("✓", theme.ok)
        } else {
            Span::styled("—", theme.dim)
        }
    };
    vec![
        Span::raw(DisplayText::inline(name(s).trim()).into_string()),
        Span::styled(
            DisplayText::inline(s.kind.as_str()).into_string(),
            theme.dim,
        ),
        if s.email_address.is_empty() {
            Span::styled("—", theme.dim)
        } else {
            Span::raw(DisplayText::inline(&s.email_address).into_string())
        },
        Span::styled(
            DisplayText::inline(&s.provider_account_id).into_string(),
            theme.dim,
        ),
        Span::styled(
            DisplayText::inline(&s.status).into_string(),
            theme.sender_status(&s.status),
        ),
        Span::raw(s.daily_limit.to_string()),
        weekly(s.weekly_connection_limit),
        weekly(s.weekly_message_limit),
        flag(s.is_default_sender),
        flag(s.is_premium),
    ]
}

/// Draws the open sender and its schedule.
pub(super) fn detail(m: &Model, f: &mut Frame, a: Areas, theme: &Theme) {
    let d = &m.panes.domains;
    let Some(s) = d.open_sender() else {
        return;
    };
    facts(f, a.info, s, theme);
    if let Some(tree) = d.schedule.items.first() {
        let (shown, total) = tree
            .filtered()
            .unwrap_or((tree.lines().len(), tree.lines().len()));
        super::filter::render(m, f, a.filter, &d.schedule_query, (shown, total), theme);
    }
    let reading = m
        .requests
        .pending::<DomainsModel>(|p| matches!(p, Purpose::Schedule(_)));
    let mut title = Line::from(Span::styled(" Schedule ", theme.title));
    title
        .spans
        .extend(stale_span(m, &d.schedule, reading, theme));
    match d.schedule.items.first() {
        Some(tree) => json_tree::render(f, a.list, tree, title, true, theme),
        None => {
            let text = loading_or_error(m, &d.schedule, "the schedule", RouteFamily::Senders);
            f.render_widget(
                Paragraph::new(Span::styled(text, theme.dim)).block(
                    Block::default()
                        .borders(Borders::ALL)
                        .border_style(theme.border)
                        .title(title),
                ),
                a.list,
            );
        }
    }
}

/// The sender's facts above its schedule.
fn facts(f: &mut Frame, area: Rect, s: &SenderAccount, theme: &Theme) {
    let t = |v: &str| DisplayText::inline(v).into_string();
    let yes_no = |b: bool| if b { "yes" } else { "no" };
    let info = vec![
        Line::from(vec![
            Span::styled(format!(" {} ", t(&s.display_name)), theme.title),
            Span::styled(format!(" {} sender ", t(s.kind.as_str())), theme.dim),
            Span::styled(t(&s.status), theme.sender_status(&s.status)),
        ]),
        Line::from(format!(
            " {} {} · {}",
            t(&s.first_name),
            t(&s.last_name),
            t(account(s))
        )),
        Line::from(format!(
            " daily limit {} · weekly connections {} · weekly messages {}",
            s.daily_limit, s.weekly_connection_limit, s.weekly_message_limit
        )),
        Line::from(format!(
            " default sender: {} · premium: {}",
            yes_no(s.is_default_sender),
            yes_no(s.is_premium)
        )),
        Line::from(Span::styled(
            " Future capacity map; an empty one does not mean disconnected.",
            theme.dim,
        )),
    ];
    let title = Line::from(Span::styled(" Sender ", theme.title));
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border);
    let block =
        crate::ui::widgets::id_tag::on_block(block, area, &title, &s.id, theme).title(title);
    f.render_widget(
        Paragraph::new(info).block(block).wrap(Wrap { trim: true }),
        area,
    );
}
