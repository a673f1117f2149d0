//! The Senders & Domains pane.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};

use super::theme::Theme;
use super::widgets::dialog::centered;
use super::widgets::vtable::{self, Column, TableSpec};
use crate::api::model::{Channel, DomainStatus, SendingDomain};
use crate::app::Model;
use crate::app::domains::layout::{Areas, areas};
use crate::app::domains::{self, DomainsModel, View};
use crate::config::keymap::Action;
use crate::text::format;
use crate::text::sanitize::DisplayText;

impl super::PaneView for DomainsModel {
    fn view(m: &Model, f: &mut Frame, body: Rect, theme: &Theme) {
        render(m, f, body, theme);
    }
}

/// Draws the pane.
fn render(m: &Model, f: &mut Frame, body: Rect, theme: &Theme) {
    let d = &m.panes.domains;
    let a = areas(body, d.view);
    match d.view {
        View::Domains => domain_list(m, f, a, theme),
        View::DomainDetail => domain_detail(m, f, a, theme),
        View::Senders => sender_list(m, f, a, theme),
        View::SenderDetail => sender_detail(m, f, a, theme),
    }
    if let Some(form) = &d.add {
        let h = super::widgets::form::wanted_height(form);
        let rect = centered(body, 70.min(body.width.saturating_sub(4)), h);
        super::widgets::form::render(f, rect, form, theme);
    }
}

fn status_span(d: &SendingDomain, dm: &DomainsModel, m: &Model, theme: &Theme) -> Span<'static> {
    let mut text = format!("● {}", DisplayText::inline(d.status.as_str()));
    if let Some(left) = dm.next_check_in(m, &d.id) {
        if left.is_zero() {
            text.push_str(" · checking…");
        } else {
            text.push_str(&format!(" · next check {}", format::duration(left)));
        }
    } else if domains::verify_pending(m, &d.id) {
        text.push_str(" · starting…");
    }
    Span::styled(text, theme.domain_status(&d.status))
}

fn loading_or_error(loaded: bool, error: &Option<String>, what: &str) -> String {
    match (loaded, error) {
        (false, Some(e)) => format!(
            "could not load {what}: {} — r retries",
            DisplayText::inline(e)
        ),
        (false, None) => format!("loading {what}…"),
        (true, _) => format!("no {what} yet"),
    }
}

fn domain_list(m: &Model, f: &mut Frame, a: Areas, theme: &Theme) {
    let d = &m.panes.domains;
    let items = &d.domains.items;
    const COLS: [Column; 5] = [
        Column::new("Domain", 12, u16::MAX),
        Column::new("Status", 10, 34),
        Column::num("Records", 7, 7).optional(3),
        Column::new("Verified", 8, 16).optional(1),
        Column::new("Added", 8, 16).optional(2),
    ];
    let row = |i: usize| -> Vec<Span<'static>> {
        let Some(dom) = items.get(i) else {
            return Vec::new();
        };
        vec![
            Span::raw(DisplayText::inline(&dom.domain).into_string()),
            status_span(dom, d, m, theme),
            Span::raw(dom.dns_records.len().to_string()),
            Span::styled(
                dom.verified_at
                    .as_deref()
                    .map_or("—".into(), |t| format::ago(t, m.clock)),
                theme.dim,
            ),
            Span::styled(format::ago(&dom.created_at, m.clock), theme.dim),
        ]
    };
    let sync = if domains::syncing(m) {
        Span::styled(" syncing live status… ", theme.info)
    } else if d.synced {
        Span::styled(" live ", theme.ok)
    } else {
        Span::styled(" cached ", theme.dim)
    };
    let title = Line::from(vec![
        Span::styled(format!(" Sending domains ({}) ", items.len()), theme.title),
        sync,
    ]);
    let empty = if d.domains.loaded && items.is_empty() {
        "No sending domains yet — press a (or :domain add <name>) to add one".to_owned()
    } else {
        loading_or_error(d.domains.loaded, &d.domains.error, "sending domains")
    };
    let watching = d.watches.len();
    let footer = (watching > 0).then(|| {
        Line::from(Span::styled(
            format!(
                " watching {watching} verifying domain{} · poll every {} ",
                if watching == 1 { "" } else { "s" },
                format::duration(m.poll.domain)
            ),
            theme.info,
        ))
    });
    vtable::render(
        f,
        a.list,
        TableSpec {
            title,
            columns: &COLS,
            state: &d.table,
            row: &row,
            marked: None,
            footer,
            empty: &empty,
            focused: d.add.is_none(),
        },
        theme,
    );
}

fn domain_detail(m: &Model, f: &mut Frame, a: Areas, theme: &Theme) {
    let d = &m.panes.domains;
    let Some(dom) = d.open_domain() else {
        return;
    };
    let name = DisplayText::inline(&dom.domain).into_string();
    let mut info = vec![
        Line::from(vec![
            Span::styled(format!(" {name} "), theme.title),
            Span::raw(" "),
            status_span(dom, d, m, theme),
        ]),
        Line::from(Span::styled(
            format!(
                " added {} · verified {} · updated {}",
                format::date(&dom.created_at),
                dom.verified_at.as_deref().map_or("—".into(), format::date),
                format::ago(&dom.updated_at, m.clock),
            ),
            theme.dim,
        )),
    ];
    let guidance = match dom.status {
        DomainStatus::Verified => "Verified: mail from this domain can be sent.".to_owned(),
        DomainStatus::Verifying => format!(
            "Checking DNS: polled every {} while open (poll=true).",
            format::duration(d.watch_every(m.poll.domain, &dom.id))
        ),
        DomainStatus::Failed => {
            "The records did not verify: check them at your DNS host, then press v to verify again."
                .into()
        }
        _ => "Publish these records at your DNS host, then press v to verify.".into(),
    };
    info.push(Line::from(format!(" {guidance}")));
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border)
        .title(Span::styled(" Sending domain ", theme.title));
    f.render_widget(
        Paragraph::new(info).block(block).wrap(Wrap { trim: true }),
        a.info,
    );

    const COLS: [Column; 4] = [
        Column::new("Type", 4, 6),
        Column::new("Name", 8, 36),
        Column::new("Value", 12, u16::MAX),
        Column::num("Prio", 4, 8),
    ];
    let records = &dom.dns_records;
    let row = |i: usize| -> Vec<Span<'static>> {
        let Some(r) = records.get(i) else {
            return Vec::new();
        };
        vec![
            Span::styled(DisplayText::inline(&r.kind).into_string(), theme.header),
            Span::raw(DisplayText::inline(&r.name).into_string()),
            Span::raw(DisplayText::inline(&r.value).into_string()),
            Span::styled(
                if r.priority == 0 && !r.kind.eq_ignore_ascii_case("MX") {
                    "—".into()
                } else {
                    r.priority.to_string()
                },
                theme.dim,
            ),
        ]
    };
    vtable::render(
        f,
        a.list,
        TableSpec {
            title: Line::from(Span::styled(
                format!(" DNS records ({}) ", records.len()),
                theme.title,
            )),
            columns: &COLS,
            state: &d.records,
            row: &row,
            marked: None,
            footer: None,
            empty: "no records yet: press v to verify and fetch the expected records",
            focused: d.add.is_none(),
        },
        theme,
    );
    if a.value.height > 0 {
        let value = records
            .get(d.records.selected)
            .map(|r| DisplayText::inline(&r.value).into_string())
            .unwrap_or_default();
        let key = m.keymap.key_label(Action::CopyValue);
        let block = Block::default()
            .borders(Borders::ALL)
            .border_style(theme.border)
            .title(Span::styled(" Selected value ", theme.title))
            .title_bottom(Line::from(vec![
                Span::styled(format!(" {key} "), theme.key),
                Span::styled("copies it (OSC 52, works over SSH) ", theme.dim),
            ]));
        f.render_widget(
            Paragraph::new(value)
                .block(block)
                .wrap(Wrap { trim: false }),
            a.value,
        );
    }
}

fn sender_list(m: &Model, f: &mut Frame, a: Areas, theme: &Theme) {
    let d = &m.panes.domains;
    let senders = d.filtered_senders();
    const COLS: [Column; 7] = [
        Column::new("Name", 10, 28),
        Column::new("Type", 7, 7).optional(2),
        Column::new("Account", 10, u16::MAX),
        Column::new("Status", 8, 20),
        Column::num("Daily", 5, 6).optional(1),
        Column::num("Wk conn/msg", 11, 11).optional(3),
        Column::new("Flags", 5, 16).optional(4),
    ];
    let row = |i: usize| -> Vec<Span<'static>> {
        let Some(s) = senders.get(i) else {
            return Vec::new();
        };
        let name = if s.display_name.trim().is_empty() {
            format!("{} {}", s.first_name, s.last_name)
        } else {
            s.display_name.clone()
        };
        let account = if s.email_address.is_empty() {
            &s.provider_account_id
        } else {
            &s.email_address
        };
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
            Span::raw(DisplayText::inline(name.trim()).into_string()),
            Span::styled(
                DisplayText::inline(s.kind.as_str()).into_string(),
                theme.dim,
            ),
            Span::raw(DisplayText::inline(account).into_string()),
            Span::styled(
                DisplayText::inline(&s.status).into_string(),
                theme.sender_status(&s.status),
            ),
            Span::raw(s.daily_limit.to_string()),
            Span::raw(weekly),
            Span::styled(flags.join(" "), theme.key),
        ]
    };
    let title = Line::from(vec![
        Span::styled(format!(" Senders ({}) ", senders.len()), theme.title),
        Span::styled(format!(" type: {} ", d.sender_filter.label()), theme.info),
    ]);
    let empty = loading_or_error(d.senders.loaded, &d.senders.error, "senders");
    vtable::render(
        f,
        a.list,
        TableSpec {
            title,
            columns: &COLS,
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

fn sender_detail(m: &Model, f: &mut Frame, a: Areas, theme: &Theme) {
    let d = &m.panes.domains;
    let Some(s) = d.open_sender() else {
        return;
    };
    let t = |v: &str| DisplayText::inline(v).into_string();
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
            t(if s.email_address.is_empty() {
                &s.provider_account_id
            } else {
                &s.email_address
            })
        )),
        Line::from(format!(
            " daily limit {} · weekly connections {} · weekly messages {}",
            s.daily_limit, s.weekly_connection_limit, s.weekly_message_limit
        )),
        Line::from(format!(
            " default sender: {} · premium: {}",
            if s.is_default_sender { "yes" } else { "no" },
            if s.is_premium { "yes" } else { "no" }
        )),
        Line::from(Span::styled(
            " Future capacity map; an empty one does not mean disconnected.",
            theme.dim,
        )),
    ];
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border)
        .title(Span::styled(" Sender ", theme.title));
    f.render_widget(
        Paragraph::new(info).block(block).wrap(Wrap { trim: true }),
        a.info,
    );
    match d.schedule.items.first() {
        Some(tree) => super::widgets::json_tree::render(
            f,
            a.list,
            tree,
            Line::from(Span::styled(" Schedule ", theme.title)),
            true,
            theme,
        ),
        None => {
            let text = loading_or_error(d.schedule.loaded, &d.schedule.error, "the schedule");
            f.render_widget(
                Paragraph::new(Span::styled(text, theme.dim)).block(
                    Block::default()
                        .borders(Borders::ALL)
                        .border_style(theme.border)
                        .title(Span::styled(" Schedule ", theme.title)),
                ),
                a.list,
            );
        }
    }
}
