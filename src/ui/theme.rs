//! Colours and styles: the 16 ANSI colours (they follow the user's palette
//! and survive any SSH hop), or none at all with `NO_COLOR` or `theme =
//! "mono"` (bold and reverse keep the selection visible).

use ratatui::style::{Color, Modifier, Style};

use crate::api::model::{CampaignStatus, DomainStatus, RunStatus};
use crate::config::ThemeName;

/// Semantic styles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Theme {
    /// Plain text.
    pub text: Style,
    /// Secondary text.
    pub dim: Style,
    /// Titles and headings.
    pub title: Style,
    /// Table headers.
    pub header: Style,
    /// The selected row.
    pub selected: Style,
    /// Marked (multi-selected) rows.
    pub marked: Style,
    /// Borders.
    pub border: Style,
    /// The active tab.
    pub tab_active: Style,
    /// Other tabs.
    pub tab: Style,
    /// Keys in hints.
    pub key: Style,
    /// Success.
    pub ok: Style,
    /// Warning.
    pub warn: Style,
    /// Error.
    pub err: Style,
    /// Information / in progress.
    pub info: Style,
    /// The DEMO badge.
    pub badge: Style,
    /// The status bar.
    pub status: Style,
}

impl Theme {
    /// The theme for a name.
    pub fn new(name: ThemeName) -> Theme {
        match name {
            ThemeName::Default => Theme::colour(),
            ThemeName::Mono => Theme::mono(),
        }
    }

    fn colour() -> Theme {
        let plain = Style::new();
        Theme {
            text: plain,
            dim: Style::new().fg(Color::DarkGray),
            title: Style::new().fg(Color::Cyan).add_modifier(Modifier::BOLD),
            header: Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD),
            selected: Style::new().add_modifier(Modifier::REVERSED),
            marked: Style::new().fg(Color::Magenta).add_modifier(Modifier::BOLD),
            border: Style::new().fg(Color::DarkGray),
            tab_active: Style::new()
                .fg(Color::Black)
                .bg(Color::Cyan)
                .add_modifier(Modifier::BOLD),
            tab: plain,
            key: Style::new().fg(Color::Cyan).add_modifier(Modifier::BOLD),
            ok: Style::new().fg(Color::Green),
            warn: Style::new().fg(Color::Yellow),
            err: Style::new().fg(Color::Red).add_modifier(Modifier::BOLD),
            info: Style::new().fg(Color::Blue),
            badge: Style::new()
                .fg(Color::Black)
                .bg(Color::Yellow)
                .add_modifier(Modifier::BOLD),
            status: plain,
        }
    }

    fn mono() -> Theme {
        let plain = Style::new();
        let bold = Style::new().add_modifier(Modifier::BOLD);
        let rev = Style::new().add_modifier(Modifier::REVERSED);
        Theme {
            text: plain,
            dim: Style::new().add_modifier(Modifier::DIM),
            title: bold,
            header: bold,
            selected: rev,
            marked: bold,
            border: plain,
            tab_active: rev.add_modifier(Modifier::BOLD),
            tab: plain,
            key: bold,
            ok: plain,
            warn: bold,
            err: bold,
            info: plain,
            badge: rev,
            status: plain,
        }
    }

    /// The style of a domain status.
    pub fn domain_status(&self, s: &DomainStatus) -> Style {
        match s {
            DomainStatus::Verified => self.ok,
            DomainStatus::Verifying => self.info,
            DomainStatus::Failed => self.err,
            DomainStatus::Pending => self.warn,
            DomainStatus::Other(_) => self.dim,
        }
    }

    /// The style of a run status.
    pub fn run_status(&self, s: &RunStatus) -> Style {
        match s {
            RunStatus::Completed => self.ok,
            RunStatus::Queued | RunStatus::Running => self.info,
            RunStatus::Failed => self.err,
            RunStatus::Cancelled => self.warn,
            RunStatus::Other(_) => self.dim,
        }
    }

    /// The style of a campaign status.
    pub fn campaign_status(&self, s: &CampaignStatus) -> Style {
        match s {
            CampaignStatus::Active | CampaignStatus::Launching => self.ok,
            CampaignStatus::Draft => self.info,
            CampaignStatus::Paused => self.warn,
            CampaignStatus::Completed => self.dim,
            CampaignStatus::Other(_) => self.dim,
        }
    }

    /// The style of a sender status (`connected` is ready to send).
    pub fn sender_status(&self, s: &str) -> Style {
        match s {
            "connected" | "active" | "ready" => self.ok,
            "" => self.dim,
            _ => self.warn,
        }
    }
}
