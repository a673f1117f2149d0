//! A campaign's detail: the header (campaign, the keys its status allows
//! and those it does not, the tabs), then the overview with the stats
//! chart, the roster or the generated messages.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

use super::super::theme::Theme;
use super::super::widgets::placeholder;
use super::super::widgets::spark::spark;
use super::super::widgets::vtable::{self, Column, TableSpec};
use super::{empty_rows, filter_input, footer_line, lead_status, needle_chip, said};
use crate::api::RouteFamily;
use crate::api::model::{Campaign, CampaignStats, Channel, NodeType};
use crate::app::campaigns::lead::lead_name;
use crate::app::campaigns::roster::PAGE;
use crate::app::campaigns::sequence::step_name;
use crate::app::campaigns::{
    Opened, Purpose, Tab, detail, in_flight, layout, messages, rules, trend,
};
use crate::app::keymap::Action;
use crate::app::net::Load;
use crate::app::{Model, Placeholder};
use crate::text::format;
use crate::text::sanitize::DisplayText;
use crate::text::time_column::TimeColumn;
use crate::text::wrap::wrap;

/// Draws the detail.
pub(super) fn render(m: &Model, f: &mut Frame, body: Rect, theme: &Theme) {
    let Some(o) = m.panes.campaigns.open.as_ref() else {
        return;
    };
    let a = layout::detail(body);
    title_line(m, f, a.title, o, theme);
    keys_line(m, f, a.keys, &o.campaign, theme);
    tabs_line(f, a.tabs, o.tab, theme);
    if !o.loaded {
        let p = match &o.error {
            Some(e) if e.is_not_found() => said(
                "could not load the campaign: not found (deleted, or another workspace's)".into(),
            ),
            Some(e) => m.placeholder("the campaign", RouteFamily::Campaigns, Load::Failed(e)),
            None => m.placeholder("the campaign", RouteFamily::Campaigns, Load::Pending),
        };
        let block = bordered(" Campaign ", theme);
        let inner = block.inner(a.content);
        f.render_widget(block, a.content);
        f.render_widget(
            Paragraph::new(placeholder::lines(&p, inner.width, theme)),
            inner,
        );
        return;
    }
    match o.tab {
        Tab::Overview => overview(m, f, a.content, o, theme),
        Tab::Roster => roster(m, f, a.content, o, theme),
        Tab::Messages => message_list(m, f, a.content, o, theme),
    }
}

fn bordered<'a>(title: &'a str, theme: &Theme) -> Block<'a> {
    Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border)
        .title(Span::styled(title, theme.title))
}

fn title_line(m: &Model, f: &mut Frame, area: Rect, o: &Opened, theme: &Theme) {
    let c = &o.campaign;
    let name = if c.name.is_empty() {
        DisplayText::inline(&c.id).into_string()
    } else {
        DisplayText::inline(&c.name).into_string()
    };
    let mut spans = vec![
        Span::styled(format!(" {name} "), theme.title),
        Span::styled(
            format!(" {} ", DisplayText::inline(c.kind.as_str())),
            theme.dim,
        ),
    ];
    if o.loaded {
        spans.push(Span::styled(
            format!("● {}", DisplayText::inline(c.status.as_str())),
            theme.campaign_status(&c.status),
        ));
        // What a lost launch, pause or resume's check saw comes first,
        // then the stale mark: a narrow line cuts what follows them.
        if let Some(s) = m.panes.campaigns.changes.get(&c.id) {
            spans.push(Span::styled(
                format!(" · {} lost: {}", s.op.name(), s.text()),
                theme.warn,
            ));
        }
        // How fresh the values are, from the holder the watch runs on:
        // "live", "retrying in N s" or "stale · as of 2m ago · r retries".
        spans.push(Span::raw(" ·"));
        spans.push(crate::ui::widgets::stale::freshness(m, &o.fresh, theme));
        if area.width >= 100 {
            spans.push(Span::styled(
                format!("· created {}", format::ago(&c.created_at, m.clock)),
                theme.dim,
            ));
        }
    }
    if in_flight(m, |p| {
        matches!(
            p,
            Purpose::Launch(_) | Purpose::Pause(_) | Purpose::Resume(_)
        )
    }) {
        spans.push(Span::styled(" · sending…", theme.info));
    }
    let line = Line::from(spans);
    // The id at the right, in what the line leaves.
    let room = usize::from(area.width).saturating_sub(line.width() + 1);
    let tag = crate::ui::widgets::id_tag::tag(&c.id, room, theme);
    f.render_widget(Paragraph::new(line), area);
    if let Some(tag) = tag {
        let w = u16::try_from(tag.width())
            .unwrap_or(area.width)
            .min(area.width);
        let right = Rect {
            x: area.right().saturating_sub(w),
            width: w,
            ..area
        };
        f.render_widget(Paragraph::new(Line::from(tag)), right);
    }
}

/// The keys the status allows, and those it does not, dimmed with a short
/// reason (the full one comes as a notice when the key is pressed).
fn keys_line(m: &Model, f: &mut Frame, area: Rect, c: &Campaign, theme: &Theme) {
    let wide = area.width >= 120;
    let mut spans = vec![Span::raw(" ")];
    for (action, label, why) in detail::state_keys(&c.status) {
        let key = m.keymap.key_label(action);
        match why {
            None => {
                spans.push(Span::styled(key, theme.key));
                spans.push(Span::styled(format!(" {label}  "), theme.text));
            }
            Some(_) => {
                let short = if wide { short_reason(action) } else { "✗" };
                spans.push(Span::styled(format!("{key} {label} {short}  "), theme.dim));
            }
        }
    }
    f.render_widget(Paragraph::new(Line::from(spans)), area);
}

fn short_reason(action: Action) -> &'static str {
    match action {
        Action::Pause => "✗ active only",
        Action::Resume => "✗ paused only",
        Action::ImportCsv => "✗ roster frozen",
        // Launch and the sequence editor.
        _ => "✗ draft only",
    }
}

fn tabs_line(f: &mut Frame, area: Rect, current: Tab, theme: &Theme) {
    let mut spans = vec![Span::raw(" ")];
    for (tab, _, _) in layout::tab_spans(area) {
        let style = if tab == current {
            theme.tab_active
        } else {
            theme.tab
        };
        spans.push(Span::styled(format!(" {} ", tab.title()), style));
        spans.push(Span::raw(" "));
    }
    f.render_widget(Paragraph::new(Line::from(spans)), area);
}

/// Settings, senders and the sequence; the stats chart beside them.
fn overview(m: &Model, f: &mut Frame, area: Rect, o: &Opened, theme: &Theme) {
    let (left, right) = layout::overview(area);
    let width = usize::from(left.width.saturating_sub(2));
    let lines = settings_lines(m, o, width, theme);
    f.render_widget(
        Paragraph::new(lines).block(bordered(" Settings & sequence ", theme)),
        left,
    );
    stats_chart(m, f, right, o, theme);
}

/// What a part of the campaign not read yet says: loading while a read is
/// on its way, else that it was not read and how to read it.
fn unread(m: &Model, o: &Opened) -> String {
    let id = o.campaign.id.clone();
    if in_flight(m, |p| *p == Purpose::Campaign(id.clone())) {
        return "loading…".to_owned();
    }
    let key = m.keymap.key_label(Action::Refresh);
    match o.fresh.failed_code() {
        Some(code) => format!("not read ({code}) — {key} reads it"),
        None => format!("not read yet — {key} reads it"),
    }
}

/// The mark of values kept from before a write's partial reply, and what
/// is done about it.
fn carried_note(m: &Model, o: &Opened) -> String {
    let id = o.campaign.id.clone();
    let next = if in_flight(m, |p| *p == Purpose::Campaign(id.clone())) {
        "reading it again…".to_owned()
    } else {
        format!("{} reads it", m.keymap.key_label(Action::Refresh))
    };
    format!("~ from before the change · {next}")
}

/// Width of the labels of the settings.
const LABEL_W: usize = 15;

/// `label value`, the value wrapped under itself.
fn field(out: &mut Vec<Line<'static>>, label: &str, value: &str, width: usize, theme: &Theme) {
    let lines = wrap(value, width.saturating_sub(LABEL_W + 1).max(8));
    for (i, l) in lines.into_iter().enumerate() {
        let head = if i == 0 {
            Span::styled(format!(" {label:<LABEL_W$}"), theme.header)
        } else {
            Span::raw(" ".repeat(LABEL_W + 1))
        };
        out.push(Line::from(vec![head, Span::raw(l)]));
    }
}

/// Text indented by `indent`, wrapped to `width`, at most `max` lines.
fn indented(
    out: &mut Vec<Line<'static>>,
    indent: usize,
    spans: (&str, Span<'static>),
    width: usize,
    max: usize,
) {
    let (prefix, text) = spans;
    let room = width.saturating_sub(indent + prefix.chars().count()).max(8);
    let style = text.style;
    let mut lines = wrap(&text.content, room);
    if lines.len() > max {
        lines.truncate(max);
        if let Some(last) = lines.last_mut() {
            last.push('…');
        }
    }
    for (i, l) in lines.into_iter().enumerate() {
        let head = if i == 0 {
            format!("{}{prefix}", " ".repeat(indent))
        } else {
            " ".repeat(indent + prefix.chars().count())
        };
        out.push(Line::from(vec![Span::raw(head), Span::styled(l, style)]));
    }
}

fn yes(b: Option<bool>) -> String {
    match b {
        Some(true) => "yes".into(),
        Some(false) => "no".into(),
        None => "—".into(),
    }
}

/// Operating hours: `09:00–17:00 Europe/Berlin` when they have that shape
/// (the contract does not show it), else the object as JSON.
fn hours_text(v: &serde_json::Value) -> String {
    let get = |k: &str| v.get(k).and_then(serde_json::Value::as_str);
    let text = match (get("start"), get("end")) {
        (Some(a), Some(b)) => format!("{a}–{b} {}", get("timezone").unwrap_or_default()),
        _ => crate::text::format::json_text(v),
    };
    DisplayText::inline(text.trim()).into_string()
}

fn settings_lines(m: &Model, o: &Opened, width: usize, theme: &Theme) -> Vec<Line<'static>> {
    let c = &o.campaign;
    let mut out = Vec::new();
    match c.kind {
        Channel::Email => {
            let limit = c.daily_limit.map_or("—".into(), format::count);
            field(&mut out, "Daily limit", &limit, width, theme);
            field(
                &mut out,
                "Stop on reply",
                &yes(c.stop_on_reply),
                width,
                theme,
            );
            field(
                &mut out,
                "Open tracking",
                &yes(c.open_tracking),
                width,
                theme,
            );
            let sig = c.signature.as_deref().unwrap_or_default();
            let sig = if sig.trim().is_empty() {
                "—".to_owned()
            } else {
                DisplayText::inline(sig).into_string()
            };
            field(&mut out, "Signature", &sig, width, theme);
        }
        _ => {
            let skip = yes(c.skip_other_campaigns);
            field(&mut out, "Skip others", &skip, width, theme);
            let hours = c
                .operating_hours
                .as_ref()
                .map_or("any time".into(), hours_text);
            field(&mut out, "Hours", &hours, width, theme);
        }
    }
    // One sender a line: addresses are long and do not wrap well.
    let senders: Vec<String> = match &c.sender_accounts {
        None => vec!["—".to_owned()],
        Some(list) if list.is_empty() => vec!["none".to_owned()],
        Some(list) => list
            .iter()
            .map(|s| {
                let who = if s.email_address.is_empty() {
                    &s.display_name
                } else {
                    &s.email_address
                };
                DisplayText::inline(who).into_string()
            })
            .collect(),
    };
    for (i, s) in senders.iter().enumerate() {
        field(
            &mut out,
            if i == 0 { "Senders" } else { "" },
            s,
            width,
            theme,
        );
    }
    out.push(Line::default());
    sequence_lines(&mut out, m, o, width, theme);
    out
}

/// The sequence's steps, or why they are not shown; marked when kept from
/// before a reply that left them out.
fn sequence_lines(
    out: &mut Vec<Line<'static>>,
    m: &Model,
    o: &Opened,
    width: usize,
    theme: &Theme,
) {
    out.push(Line::from(Span::styled(" Sequence", theme.title)));
    // An edit kept locally (closed unsaved, or the dashboard quit) is not
    // what the service sends: the steps below are the saved ones.
    let key = crate::logic::preflight::unsaved_sequence_key(&o.campaign.id);
    if m.state.drafts.contains_key(&key) {
        let text = if rules::check(&o.campaign.status, rules::Op::EditSequence).is_ok() {
            let s = m.keymap.key_label(Action::EditSequence);
            format!("kept locally, not saved — {s} opens it")
        } else {
            "kept locally, not saved — no longer a draft, so it cannot be saved".to_owned()
        };
        for l in wrap(&text, width.saturating_sub(2).max(8)) {
            out.push(Line::from(Span::styled(format!(" {l}"), theme.warn)));
        }
    }
    if o.carried.contains(&"sequence") {
        out.push(Line::from(Span::styled(
            format!(" {}", carried_note(m, o)),
            theme.warn,
        )));
    }
    match &o.campaign.sequence_nodes {
        None => out.push(Line::from(Span::styled(
            format!(" {}", unread(m, o)),
            theme.dim,
        ))),
        Some(nodes) => {
            for (i, n) in nodes.iter().enumerate() {
                node_lines(out, i, n, width, theme);
            }
        }
    }
}

fn node_lines(
    out: &mut Vec<Line<'static>>,
    i: usize,
    n: &crate::api::model::SequenceNode,
    width: usize,
    theme: &Theme,
) {
    out.push(Line::from(vec![
        Span::styled(format!(" {:>2} ", i + 1), theme.dim),
        Span::styled(step_name(&n.kind).to_owned(), theme.key),
    ]));
    if n.kind == NodeType::End {
        return;
    }
    let empty = |s: &str| s.trim().is_empty();
    if n.kind == NodeType::Email {
        let subject = if empty(&n.subject) {
            Span::styled("(no subject yet)", theme.warn)
        } else {
            Span::styled(DisplayText::inline(&n.subject).into_string(), theme.text)
        };
        indented(out, 4, ("Subject: ", subject), width, 2);
    }
    let body = if empty(&n.body) {
        Span::styled("(no text yet)", theme.warn)
    } else {
        let first = n.body.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
        Span::styled(DisplayText::inline(first).into_string(), theme.dim)
    };
    indented(out, 4, ("", body), width, 2);
}

/// Every counter of `stats`, as bars against the roster total.
pub(super) fn stat_rows(s: &CampaignStats) -> Vec<(&'static str, Option<u64>)> {
    vec![
        ("total", Some(s.total)),
        ("sent", Some(s.sent)),
        ("replied", Some(s.replied)),
        ("bounced", Some(s.bounced)),
        ("completed", Some(s.completed)),
        ("timed out", Some(s.timed_out)),
        ("conn. sent", Some(s.connection_sent)),
        ("connected", Some(s.connected)),
        ("accepted", s.connections_accepted),
        ("msg sent", Some(s.message_sent)),
        ("contacted", s.contacted),
    ]
}

fn bar_style(label: &str, theme: &Theme) -> Style {
    match label {
        "replied" | "accepted" | "connected" => theme.ok,
        "bounced" => theme.err,
        "timed out" => theme.warn,
        "completed" | "total" => theme.dim,
        _ => theme.info,
    }
}

fn stats_chart(m: &Model, f: &mut Frame, area: Rect, o: &Opened, theme: &Theme) {
    let c = &o.campaign;
    let s = &c.stats;
    let value_w = 7usize;
    let label_w = 11usize;
    let inner = bordered(" Stats ", theme).inner(area);
    let room = usize::from(inner.width).saturating_sub(label_w + value_w + 3);
    let trend = Trend::of(m, c, room);
    let mut title = vec![Span::styled(" Stats ", theme.title)];
    if trend.polls > 0 {
        let polls = format!("· last {} polls ", trend.polls);
        title.push(Span::styled(polls, theme.dim));
    }
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border)
        .title(Line::from(title));
    f.render_widget(block, area);
    let bar_w = room.saturating_sub(trend.width + usize::from(trend.width > 0));
    let total = s.total.max(1);
    let mut lines: Vec<Line> = stat_rows(s)
        .into_iter()
        .enumerate()
        .map(|(i, (label, v))| {
            let (filled, text) = match v {
                #[expect(
                    clippy::cast_possible_truncation,
                    clippy::cast_precision_loss,
                    reason = "a bar of at most a screen's width; a count past 2^52 is drawn a cell short at worst"
                )]
                Some(n) => (
                    ((n.min(total) as f64 / total as f64) * bar_w as f64).round() as usize,
                    format::count(n),
                ),
                None => (0, "—".into()),
            };
            // Kept from before a partial reply: marked, not mixed in.
            let (text, value_style) = if o.carried.contains(&label) {
                (format!("~{text}"), theme.warn)
            } else {
                (text, Style::default())
            };
            let mut spans = vec![
                Span::styled(format!(" {label:<label_w$}"), theme.header),
                Span::styled("█".repeat(filled), bar_style(label, theme)),
                Span::styled("░".repeat(bar_w.saturating_sub(filled)), theme.border),
            ];
            if trend.width > 0 {
                spans.push(Span::styled(
                    format!(" {}", trend.line(i)),
                    bar_style(label, theme),
                ));
            }
            spans.push(Span::styled(format!(" {text:>value_w$}"), value_style));
            Line::from(spans)
        })
        .collect();
    let rate =
        crate::app::campaigns::list::reply_rate(c).map_or("—".into(), |r| format!("{r:.1}%"));
    lines.push(Line::from(vec![
        Span::styled(" reply rate ", theme.header),
        Span::raw(rate),
        // The counters are as fresh as the campaign (the one holder).
        Span::raw(" ·"),
        crate::ui::widgets::stale::freshness(m, &o.fresh, theme),
    ]));
    if o.carried
        .iter()
        .any(|l| stat_rows(s).iter().any(|(r, _)| r == l))
    {
        lines.push(Line::from(Span::styled(
            format!(" {}", carried_note(m, o)),
            theme.warn,
        )));
    }
    f.render_widget(Paragraph::new(lines), inner);
}

/// The sparklines beside the counters: each counter over the campaign's
/// last polls, from its trend (`app::campaigns::trend`).
struct Trend {
    /// Columns of each sparkline (0: none drawn).
    width: usize,
    /// Polls shown.
    polls: usize,
    /// Per counter (in `stat_rows` order), its values, oldest first.
    series: Vec<Vec<Option<u64>>>,
}

impl Trend {
    /// The trend of `c` for `room` columns beside the labels and values:
    /// half of them, once two polls are in (one point is no trend).
    fn of(m: &Model, c: &Campaign, room: usize) -> Trend {
        let trends = &m.panes.campaigns.trends;
        let width = (room / 2).min(trend::SAMPLES);
        if trends.len(&c.id) < 2 || width < 4 {
            return Trend {
                width: 0,
                polls: 0,
                series: Vec::new(),
            };
        }
        let samples: Vec<_> = trends
            .samples(&c.id)
            .map(|s| s.iter().skip(s.len().saturating_sub(width)).collect())
            .unwrap_or_default();
        let rows: Vec<Vec<Option<u64>>> = samples
            .iter()
            .map(|s| stat_rows(s).into_iter().map(|(_, v)| v).collect())
            .collect();
        let counters = stat_rows(&c.stats).len();
        let series = (0..counters)
            .map(|i| rows.iter().map(|r| r.get(i).copied().flatten()).collect())
            .collect();
        Trend {
            width,
            polls: samples.len(),
            series,
        }
    }

    /// Counter `i`'s sparkline.
    fn line(&self, i: usize) -> String {
        spark(
            self.series.get(i).map_or(&[][..], Vec::as_slice),
            self.width,
        )
    }
}

const ROSTER_COLS: [Column; 7] = [
    Column::new("Status", 8, 15),
    Column::new("Name", 8, 32),
    Column::new("Email", 8, 60),
    Column::new("Network URL", 11, 72).optional(2),
    Column::new("Company", 7, 32).optional(1),
    Column::new("Position", 8, 40).optional(3),
    Column::new("Updated", 7, 16).optional(4),
];

/// The roster's title: how many leads (and how many of the loaded ones
/// pass the text filter), the status filter, the page size.
fn roster_title(o: &Opened, theme: &Theme) -> Line<'static> {
    let r = &o.roster;
    let status = r
        .status
        .as_ref()
        .map_or("all".to_owned(), |s| s.as_str().to_owned());
    let total = r
        .window
        .total
        .map(|t| t as u64)
        .map_or("… leads".into(), |t| format::plural(t, "lead", "leads"));
    let mut spans = vec![Span::styled(format!(" Roster · {total} "), theme.title)];
    if r.filtering() {
        spans.push(Span::styled(
            format!(
                " {} of the {} loaded match ",
                format::count(r.matches.len() as u64),
                format::count(r.loaded_rows() as u64)
            ),
            theme.info,
        ));
    }
    spans.push(Span::styled(format!(" status: {status} "), theme.info));
    spans.push(Span::styled(format!(" pages of {PAGE} "), theme.dim));
    Line::from(spans)
}

fn roster_footer(m: &Model, o: &Opened, theme: &Theme) -> Line<'static> {
    let r = &o.roster;
    let mut foot = needle_chip(m, &r.needle, theme);
    if !r.needle.typing() {
        foot.push(Span::styled(
            format!(
                " {} status · {} filter · {} select ",
                m.keymap.key_label(Action::CampaignStatusFilter),
                m.keymap.key_label(Action::Filter),
                m.keymap.key_label(Action::MarkLead)
            ),
            theme.dim,
        ));
    }
    if !r.marks.is_empty() {
        foot.push(Span::styled(
            format!(" {} selected ", format::count(r.marks.len() as u64)),
            theme.marked,
        ));
    }
    if let Some(job) = &o.delete {
        foot.push(Span::styled(
            format!(
                " deleting… {} of {} ",
                format::count(job.deleted),
                format::count(job.total as u64)
            ),
            theme.warn,
        ));
    }
    footer_line(foot, &r.needle)
}

fn roster_empty(m: &Model, o: &Opened) -> Placeholder {
    let r = &o.roster;
    match (&r.window.error, r.window.total) {
        (Some(e), None) => m.placeholder("the roster", RouteFamily::Campaigns, Load::Failed(e)),
        (None, None) => m.placeholder("the roster", RouteFamily::Campaigns, Load::Pending),
        _ if r.filtering() => said(format!(
            "no loaded lead matches the filter — {} clears it",
            m.keymap.key_label(Action::Back)
        )),
        _ if r.status.is_some() => said("no lead has this status".into()),
        _ => said(format!(
            "No leads yet — {} imports a CSV file",
            m.keymap.key_label(Action::ImportCsv)
        )),
    }
}

fn roster(m: &Model, f: &mut Frame, area: Rect, o: &Opened, theme: &Theme) {
    let r = &o.roster;
    let vp = layout::tab_viewport(m.layout().body);
    let updated = TimeColumn::of(
        r.window
            .table
            .visible(vp)
            .filter_map(|i| r.shown(i))
            .map(|l| l.updated_at.as_str()),
        m.clock,
    );
    let row = |i: usize| -> Vec<Span<'static>> {
        let Some(l) = r.shown(i) else {
            return vec![Span::styled("…", theme.dim)];
        };
        vec![
            Span::styled(
                DisplayText::inline(l.status.as_str()).into_string(),
                lead_status(theme, &l.status),
            ),
            Span::raw(DisplayText::inline(&lead_name(l)).into_string()),
            Span::raw(DisplayText::inline(&l.email).into_string()),
            Span::styled(DisplayText::inline(&l.network_url).into_string(), theme.dim),
            Span::raw(DisplayText::inline(&l.company).into_string()),
            Span::raw(DisplayText::inline(&l.position).into_string()),
            Span::styled(updated.show(&l.updated_at, m.clock), theme.dim),
        ]
    };
    let marked = |i: usize| r.shown(i).is_some_and(|l| r.marks.contains(&l.id));
    let foot = roster_footer(m, o, theme);
    vtable::render(
        f,
        area,
        TableSpec {
            title: roster_title(o, theme),
            columns: &ROSTER_COLS,
            state: &r.window.table,
            row: &row,
            marked: Some(&marked),
            footer: Some(foot.clone()),
            empty: "",
            focused: true,
        },
        theme,
    );
    if r.window.table.len == 0 {
        empty_rows(f, area, &roster_empty(m, o), theme);
    }
    let what = "a name, email, company, position or status";
    filter_input(f, area, &r.needle, &foot, what, theme);
}

const MESSAGE_COLS: [Column; 6] = [
    Column::new("Status", 7, 8),
    Column::new("Lead", 8, 26),
    Column::new("Step", 4, 18),
    Column::new("Subject / text", 12, u16::MAX),
    Column::new("Edited", 6, 6).optional(2),
    Column::new("Created", 7, 16).optional(1),
];

fn messages_title(o: &Opened, theme: &Theme) -> Line<'static> {
    let l = &o.messages;
    let mut spans = vec![Span::styled(" Generated messages ", theme.title)];
    if l.needle.active() {
        spans.push(Span::styled(
            format!(
                " {} of {} match ",
                format::count(l.matches.len() as u64),
                format::count(l.items.len() as u64)
            ),
            theme.info,
        ));
    }
    spans.push(Span::styled(
        format!(" status: {} ", l.filter.as_str()),
        theme.info,
    ));
    spans.push(Span::styled(
        format!(
            " leads {}–{} ",
            format::count(l.offset + 1),
            format::count(l.offset + messages::LEADS_PER_PAGE)
        ),
        theme.dim,
    ));
    Line::from(spans)
}

fn messages_footer(m: &Model, o: &Opened, theme: &Theme) -> Line<'static> {
    let mut spans = needle_chip(m, &o.messages.needle, theme);
    if !o.messages.needle.typing() {
        spans.push(Span::styled(
            format!(
                " {} status · {} filter · {} at the end: next 100 leads ",
                m.keymap.key_label(Action::CampaignStatusFilter),
                m.keymap.key_label(Action::Filter),
                m.keymap.key_label(Action::PageDown)
            ),
            theme.dim,
        ));
    }
    footer_line(spans, &o.messages.needle)
}

fn messages_empty(m: &Model, o: &Opened) -> Placeholder {
    let l = &o.messages;
    match (&l.error, l.loaded) {
        (Some(e), _) => m.placeholder("the messages", RouteFamily::Campaigns, Load::Failed(e)),
        (None, false) => m.placeholder("the messages", RouteFamily::Campaigns, Load::Pending),
        _ if l.needle.active() => said(format!(
            "no message matches the filter — {} clears it",
            m.keymap.key_label(Action::Back)
        )),
        _ => said(format!("no {} message for these leads", l.filter.as_str())),
    }
}

fn message_list(m: &Model, f: &mut Frame, area: Rect, o: &Opened, theme: &Theme) {
    let l = &o.messages;
    let nodes = o.campaign.sequence_nodes.as_deref().unwrap_or_default();
    let vp = layout::tab_viewport(m.layout().body);
    let created = TimeColumn::of(
        l.table
            .visible(vp)
            .filter_map(|i| l.shown(i))
            .map(|x| x.created_at.as_str()),
        m.clock,
    );
    let names = |prospect: &str| {
        o.roster
            .loaded()
            .find(|x| x.id == prospect)
            .map_or_else(|| prospect.chars().take(8).collect(), lead_name)
    };
    let row = |i: usize| -> Vec<Span<'static>> {
        let Some(msg) = l.shown(i) else {
            return Vec::new();
        };
        let step = messages::step_of(nodes, msg).map_or("reply".to_owned(), |n| {
            format!("{} {}", n.position + 1, step_name(&n.kind))
        });
        let text = if msg.subject.trim().is_empty() {
            msg.body_text.lines().next().unwrap_or_default().to_owned()
        } else {
            msg.subject.clone()
        };
        vec![
            Span::styled(
                DisplayText::inline(msg.status.as_str()).into_string(),
                theme.info,
            ),
            Span::raw(DisplayText::inline(&names(&msg.prospect_id)).into_string()),
            Span::styled(step, theme.dim),
            Span::raw(DisplayText::inline(&text).into_string()),
            Span::raw(if msg.manually_edited { "yes" } else { "" }),
            Span::styled(created.show(&msg.created_at, m.clock), theme.dim),
        ]
    };
    let foot = messages_footer(m, o, theme);
    vtable::render(
        f,
        area,
        TableSpec {
            title: messages_title(o, theme),
            columns: &MESSAGE_COLS,
            state: &l.table,
            row: &row,
            marked: None,
            footer: Some(foot.clone()),
            empty: "",
            focused: true,
        },
        theme,
    );
    if l.table.len == 0 {
        empty_rows(f, area, &messages_empty(m, o), theme);
    }
    let what = "a lead, status, subject or text";
    filter_input(f, area, &l.needle, &foot, what, theme);
}
