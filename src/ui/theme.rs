//! Colours and styles: the 16 ANSI colours of `assets/theme.toml` (they
//! follow the user's palette and survive any SSH hop) with the user's
//! `[theme]` roles over them, or none at all with `NO_COLOR` or `base =
//! "mono"` (bold and reverse keep the selection visible).

use std::sync::LazyLock;

use ratatui::style::{Modifier, Style};

use crate::api::model::{CampaignStatus, DomainStatus, RunStatus};
use crate::config::ThemeName;
use crate::config::theme::{ColourEnv, Role, StyleSpec, ThemeFile};

/// The built-in colour theme, read once from `assets/theme.toml`.
static COLOUR: LazyLock<Theme> = LazyLock::new(|| {
    #[expect(
        clippy::expect_used,
        reason = "The embedded file is part of the build, not outside data, and `config::theme::tests::the_embedded_theme_sets_every_role` keeps it valid."
    )]
    let file = ThemeFile::builtin().expect("assets/theme.toml is a valid theme");
    Theme::plain().layered(&file, false)
});

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
            ThemeName::Default => *COLOUR,
            ThemeName::Mono => Theme::mono(),
        }
    }

    /// The theme a configuration asks for: its base with its `[theme]`
    /// roles over it. `NO_COLOR` wins (mono, roles ignored); a role with a
    /// `#rrggbb` colour applies only on a truecolour terminal.
    pub fn from_config(file: &ThemeFile, env: ColourEnv) -> Theme {
        if env.no_color {
            return Theme::mono();
        }
        let truecolor = file.truecolor.unwrap_or(env.truecolor);
        Theme::new(file.base.unwrap_or_default()).layered(file, truecolor)
    }

    /// No style at all: the ground the built-in file is laid on.
    fn plain() -> Theme {
        let s = Style::new();
        Theme {
            text: s,
            dim: s,
            title: s,
            header: s,
            selected: s,
            marked: s,
            border: s,
            tab_active: s,
            tab: s,
            key: s,
            ok: s,
            warn: s,
            err: s,
            info: s,
            badge: s,
            status: s,
        }
    }

    /// `file`'s roles over this theme.
    fn layered(mut self, file: &ThemeFile, truecolor: bool) -> Theme {
        for (role, spec) in &file.roles {
            if spec.uses_rgb() && !truecolor {
                continue;
            }
            let slot = self.slot(*role);
            *slot = apply(*slot, spec);
        }
        self
    }

    /// The style of a role.
    fn slot(&mut self, role: Role) -> &mut Style {
        match role {
            Role::Text => &mut self.text,
            Role::Dim => &mut self.dim,
            Role::Title => &mut self.title,
            Role::Header => &mut self.header,
            Role::Selected => &mut self.selected,
            Role::Marked => &mut self.marked,
            Role::Border => &mut self.border,
            Role::TabActive => &mut self.tab_active,
            Role::Tab => &mut self.tab,
            Role::Key => &mut self.key,
            Role::Ok => &mut self.ok,
            Role::Warn => &mut self.warn,
            Role::Err => &mut self.err,
            Role::Info => &mut self.info,
            Role::Badge => &mut self.badge,
            Role::Status => &mut self.status,
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
            CampaignStatus::Completed | CampaignStatus::Other(_) => self.dim,
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

/// `spec` over `style`: colours replace (`reset` leaves the terminal's
/// own), flags switch their modifier on or off.
fn apply(mut style: Style, spec: &StyleSpec) -> Style {
    if let Some(c) = spec.fg {
        style.fg = c.color();
    }
    if let Some(c) = spec.bg {
        style.bg = c.color();
    }
    for (flag, m) in [
        (spec.bold, Modifier::BOLD),
        (spec.dim, Modifier::DIM),
        (spec.italic, Modifier::ITALIC),
        (spec.underlined, Modifier::UNDERLINED),
        (spec.reversed, Modifier::REVERSED),
    ] {
        match flag {
            Some(true) => style.add_modifier.insert(m),
            Some(false) => style.add_modifier.remove(m),
            None => {}
        }
    }
    style
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::parse_file;
    use ratatui::style::Color;
    use std::path::Path;

    fn file(text: &str) -> ThemeFile {
        parse_file(Path::new("/x/config.toml"), text)
            .unwrap()
            .theme
            .unwrap_or_default()
    }

    const COLOUR_TERM: ColourEnv = ColourEnv {
        no_color: false,
        truecolor: false,
    };

    #[test]
    fn without_a_theme_table_the_default_is_the_builtin_file() {
        let t = Theme::from_config(&ThemeFile::default(), COLOUR_TERM);
        assert_eq!(t, Theme::new(ThemeName::Default));
        assert_eq!(
            t,
            Theme::plain().layered(&ThemeFile::builtin().unwrap(), false)
        );
        assert_ne!(t, Theme::plain());
    }

    #[test]
    fn a_role_colour_keeps_the_rest_of_its_style() {
        let t = Theme::from_config(&file("[theme]\ntitle = \"magenta\""), COLOUR_TERM);
        let d = Theme::new(ThemeName::Default);
        assert_eq!(t.title.fg, Some(Color::Magenta));
        assert!(t.title.add_modifier.contains(Modifier::BOLD));
        assert_eq!(
            Theme {
                title: d.title,
                ..t
            },
            d,
            "other roles untouched"
        );

        let t = Theme::from_config(
            &file("[theme]\nselected = { fg = \"black\", bg = \"lightblue\", reversed = false }"),
            COLOUR_TERM,
        );
        assert_eq!(
            t.selected,
            Style::new().fg(Color::Black).bg(Color::LightBlue)
        );
        let t = Theme::from_config(
            &file("[theme]\nkey = { fg = \"reset\", bold = false }"),
            COLOUR_TERM,
        );
        assert_eq!(t.key, Style::new());
    }

    #[test]
    fn hex_colours_only_on_a_truecolour_terminal() {
        let f = file("[theme]\nok = \"#a3be8c\"\nerr = \"lightred\"");
        let sixteen = Theme::from_config(&f, COLOUR_TERM);
        assert_eq!(
            sixteen.ok,
            Theme::new(ThemeName::Default).ok,
            "keeps its default"
        );
        assert_eq!(sixteen.err.fg, Some(Color::LightRed));
        let env = ColourEnv {
            truecolor: true,
            ..COLOUR_TERM
        };
        assert_eq!(
            Theme::from_config(&f, env).ok.fg,
            Some(Color::Rgb(0xa3, 0xbe, 0x8c))
        );
        // Over SSH COLORTERM is lost: the file can say so.
        let forced = file("[theme]\ntruecolor = true\nok = \"#a3be8c\"");
        assert_eq!(
            Theme::from_config(&forced, COLOUR_TERM).ok.fg,
            Some(Color::Rgb(0xa3, 0xbe, 0x8c))
        );
        // A role is applied whole or not at all: no half-applied style.
        let f = file("[theme]\nselected = { bg = \"#334455\", reversed = false }");
        assert_eq!(
            Theme::from_config(&f, COLOUR_TERM).selected,
            Style::new().add_modifier(Modifier::REVERSED)
        );
    }

    #[test]
    fn no_color_wins_and_mono_can_take_a_colour() {
        let f = file("[theme]\nerr = \"red\"\ntitle = \"magenta\"");
        let env = ColourEnv {
            no_color: true,
            truecolor: true,
        };
        let t = Theme::from_config(&f, env);
        assert_eq!(t, Theme::mono());
        for s in [t.title, t.err, t.ok, t.selected, t.badge] {
            assert_eq!((s.fg, s.bg), (None, None));
        }
        assert!(t.selected.add_modifier.contains(Modifier::REVERSED));

        let f = file("[theme]\nbase = \"mono\"\nerr = \"red\"");
        let t = Theme::from_config(&f, COLOUR_TERM);
        assert_eq!(t.err.fg, Some(Color::Red));
        assert!(t.err.add_modifier.contains(Modifier::BOLD));
        assert_eq!(
            Theme {
                err: Theme::mono().err,
                ..t
            },
            Theme::mono()
        );
        assert_eq!(
            Theme::from_config(&file("theme = \"mono\""), COLOUR_TERM),
            Theme::mono()
        );
    }
}
