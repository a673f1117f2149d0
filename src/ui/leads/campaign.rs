//! The "add to campaign" dialog: picking a draft campaign, then the
//! progress of the add and its report.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::dialogs::{frame, keys_line, line_at};
use super::{cells, t};
use crate::api::model::CampaignStatus;
use crate::app::Model;
use crate::app::keymap::Action;
use crate::app::leads::campaign::{AddJob, CampaignDialog, LIST_ROWS, Selection, Stage, identity};
use crate::app::leads::fixed_keys;
use crate::app::leads::words::plural;
use crate::geometry::centered;
use crate::text::format;
use crate::ui::theme::Theme;
use crate::ui::widgets::progress;

/// Add to campaign.
pub(super) fn render(m: &Model, f: &mut Frame, body: Rect, d: &CampaignDialog, theme: &Theme) {
    let area = centered(
        body,
        body.width.saturating_sub(4).min(90),
        cells(LIST_ROWS) + 9,
    );
    let k = |a| m.keymap.key_label(a);
    let hint = match d.stage {
        Stage::Pick => keys_line(
            &[
                (format!("{}/{}", k(Action::Up), k(Action::Down)), "choose"),
                (
                    fixed_keys::CONFIRM.label.into(),
                    if d.on_new() { "create" } else { "add" },
                ),
                (k(Action::Refresh), "reload"),
                (fixed_keys::CLOSE.label.into(), "cancel"),
            ],
            theme,
        ),
        Stage::Sending => keys_line(
            &[(fixed_keys::CLOSE.label.into(), "stop after this chunk")],
            theme,
        ),
        Stage::Done => keys_line(&[(fixed_keys::CONFIRM.label.into(), "close")], theme),
    };
    let inner = frame(f, area, "Add to campaign", hint, theme);
    if inner.height == 0 {
        return;
    }
    let intro = intro(m, d, theme);
    match (&d.stage, &d.job) {
        (Stage::Pick, _) => {
            let loading = crate::app::leads::campaign::campaigns_loading(&m.requests).then(|| {
                m.placeholder(
                    "campaigns",
                    crate::api::RouteFamily::Campaigns,
                    crate::app::Load::Pending,
                )
                .text
            });
            pick(f, inner, d, intro, loading, theme);
        }
        (Stage::Sending | Stage::Done, Some(job)) => progress_part(f, inner, d, job, intro, theme),
        (Stage::Sending | Stage::Done, None) => {
            let mut lines = vec![intro];
            if let Some(e) = &d.error {
                lines.push(Line::from(Span::styled(format!("✗ {}", t(e)), theme.err)));
            }
            f.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }), inner);
        }
    }
}

/// "Adding 3 selected leads to a draft campaign." (the lead under the
/// cursor says that nothing is selected, and how to select).
fn intro(m: &Model, d: &CampaignDialog, theme: &Theme) -> Line<'static> {
    let mut spans = vec![
        Span::styled("Adding ", theme.text),
        Span::styled(d.selection.what(), theme.marked),
        Span::styled(" to a draft campaign.", theme.text),
    ];
    if matches!(d.selection, Selection::Cursor(_)) && d.stage == Stage::Pick {
        spans.push(Span::styled(
            format!(
                " Nothing is selected: {} selects leads.",
                m.keymap.key_label(Action::ToggleMark)
            ),
            theme.dim,
        ));
    }
    Line::from(spans)
}

/// Choosing the campaign: the intro, then the drafts.
fn pick(
    f: &mut Frame,
    inner: Rect,
    d: &CampaignDialog,
    intro: Line<'static>,
    loading: Option<String>,
    theme: &Theme,
) {
    let lines = vec![
        intro,
        Line::from(Span::styled(
            "Email campaigns need an email, network campaigns a network URL; leads without it are reported, not sent.",
            theme.dim,
        )),
    ];
    // The intro wraps; the list below never does (names are cut). Saying
    // that nothing is selected takes a line more.
    let lines_needed = if matches!(d.selection, Selection::Cursor(_)) {
        4
    } else {
        3
    };
    let intro_h = lines_needed.min(inner.height);
    f.render_widget(
        Paragraph::new(lines).wrap(Wrap { trim: true }),
        Rect {
            height: intro_h,
            ..inner
        },
    );
    let list = Rect {
        y: inner.y + intro_h + 1,
        height: inner.height.saturating_sub(intro_h + 1),
        ..inner
    };
    f.render_widget(
        Paragraph::new(draft_lines(d, loading, list.width, theme)),
        list,
    );
}

/// The draft campaigns, with what the selection lacks for each, then
/// notes (campaigns not shown, the registry, an error).
fn draft_lines(
    d: &CampaignDialog,
    loading: Option<String>,
    width: u16,
    theme: &Theme,
) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    let drafts = d.drafts();
    if let Some(text) = loading {
        lines.push(Line::from(Span::styled(t(&text), theme.info)));
    } else if drafts.is_empty() {
        lines.push(Line::from(Span::styled(
            "No draft campaign: leads can only be added to drafts — create one below.",
            theme.warn,
        )));
    }
    let lack_w = 26usize;
    let name_w = usize::from(width)
        .saturating_sub(8 + 14 + lack_w + 2)
        .max(8);
    for i in d.table.visible(LIST_ROWS) {
        let Some(c) = drafts.get(i) else {
            if i == drafts.len() {
                lines.push(new_row(d, theme));
            }
            continue;
        };
        let lacking = match d.selection.lacking(&c.kind) {
            Some(0) => Span::styled("all have ".to_owned() + identity(&c.kind), theme.ok),
            Some(k) => Span::styled(
                format!(
                    "{k} {} {} (not sent)",
                    plural(k as u64, "lacks", "lack"),
                    identity(&c.kind)
                ),
                theme.warn,
            ),
            None => Span::styled(format!("{} checked as sent", identity(&c.kind)), theme.dim),
        };
        let style = if i == d.table.selected {
            theme.selected
        } else {
            theme.text
        };
        let name: String = t(&c.name).chars().take(name_w).collect();
        lines.push(Line::from(vec![
            Span::styled(
                format!(
                    "{name:<name_w$} {:<7} roster {:>6} ",
                    t(c.kind.as_str()),
                    format::count(c.stats.total)
                ),
                style,
            ),
            lacking,
        ]));
    }
    lines.extend(pick_notes(d, theme));
    lines
}

/// The last row: a new draft campaign, made in the Campaigns pane's form
/// and added to as soon as it exists.
fn new_row(d: &CampaignDialog, theme: &Theme) -> Line<'static> {
    let style = if d.on_new() {
        theme.selected
    } else {
        theme.info
    };
    Line::from(vec![
        Span::styled("+ new draft campaign…", style),
        Span::styled(" (the Campaigns form; the leads go into it)", theme.dim),
    ])
}

fn pick_notes(d: &CampaignDialog, theme: &Theme) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    let hidden = d
        .campaigns
        .iter()
        .filter(|c| c.status != CampaignStatus::Draft)
        .count() as u64;
    if hidden > 0 {
        lines.push(Line::default());
        lines.push(Line::from(Span::styled(
            format!(
                "{} not shown: {} frozen",
                format::plural(
                    hidden,
                    "launched or paused campaign is",
                    "launched or paused campaigns are"
                ),
                plural(hidden, "its roster is", "their roster is")
            ),
            theme.dim,
        )));
    }
    if d.registry {
        lines.push(Line::from(Span::styled(
            "campaigns known locally (the service does not list them)",
            theme.dim,
        )));
    }
    if let Some(e) = &d.error {
        lines.push(Line::from(Span::styled(format!("✗ {}", t(e)), theme.err)));
    }
    lines
}

/// Sending and the report: the campaign, a progress bar, the counts.
fn progress_part(
    f: &mut Frame,
    inner: Rect,
    d: &CampaignDialog,
    job: &AddJob,
    intro: Line<'static>,
    theme: &Theme,
) {
    let mut lines = vec![
        intro,
        Line::from(vec![
            Span::styled("Campaign: ", theme.header),
            Span::raw(t(&job.campaign.name)),
            Span::styled(format!(" ({})", t(job.campaign.kind.as_str())), theme.dim),
        ]),
        Line::default(),
    ];
    let bar_row = cells(lines.len());
    lines.push(Line::default());
    lines.push(Line::from(format!(
        "sent {} in {} of at most 1,000",
        format::count(job.sent),
        format::plural(job.chunks, "chunk", "chunks")
    )));
    if d.stage == Stage::Done {
        lines.extend(report_lines(job, theme));
    } else if job.stop {
        lines.push(Line::from(Span::styled(
            "stopping after the chunk in flight…",
            theme.warn,
        )));
    }
    lines.extend(ending_lines(d, job, theme));
    f.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }), inner);
    if bar_row < inner.height {
        let total = job.total.max(1);
        progress::render(
            f,
            line_at(inner, bar_row),
            job.considered.min(total),
            total,
            "leads",
            theme,
        );
    }
}

/// The service's counts, the leads skipped, and the roster before and
/// after.
fn report_lines(job: &AddJob, theme: &Theme) -> Vec<Line<'static>> {
    let mut lines = vec![Line::from(vec![
        Span::styled(
            format!("imported {}", format::count(job.imported)),
            theme.ok,
        ),
        Span::raw(" · "),
        Span::styled(
            format!("duplicates {}", format::count(job.duplicates)),
            theme.warn,
        ),
        Span::raw(" · "),
        Span::styled(
            format!(
                "skipped without {} {}",
                identity(&job.campaign.kind),
                format::count(job.skipped)
            ),
            if job.skipped > 0 {
                theme.warn
            } else {
                theme.dim
            },
        ),
    ])];
    if !job.skipped_names.is_empty() {
        let names: Vec<String> = job.skipped_names.iter().map(|n| t(n)).collect();
        let more = job.skipped > job.skipped_names.len() as u64;
        lines.push(Line::from(Span::styled(
            format!(
                "skipped: {}{}",
                names.join(", "),
                if more { ", …" } else { "" }
            ),
            theme.dim,
        )));
    }
    let before = job.campaign.stats.total;
    lines.push(Line::from(match job.roster_after {
        Some(after) => Span::styled(
            format!(
                "roster {} → {}",
                format::count(before),
                format::count(after)
            ),
            theme.title,
        ),
        None => Span::styled("reading the roster…", theme.info),
    }));
    lines
}

/// Why the add ended early, if it did.
fn ending_lines(d: &CampaignDialog, job: &AddJob, theme: &Theme) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    if let Some(why) = &job.walk_note {
        lines.push(Line::from(Span::styled(
            format!("reading the results stopped early: {}", t(why)),
            theme.warn,
        )));
    }
    if let Some(e) = &job.error {
        lines.push(Line::from(Span::styled(
            format!("stopped: {}", t(e)),
            theme.err,
        )));
    } else if job.stop && d.stage == Stage::Done {
        lines.push(Line::from(Span::styled("stopped by you", theme.warn)));
    }
    lines
}
