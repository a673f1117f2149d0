//! The `[theme]` table: a style per semantic role, layered over a base
//! theme. The built-in colour theme is `assets/theme.toml`, read with the
//! same parser, so the file a user copies is exactly what they get.

use std::collections::BTreeMap;

use ratatui::style::Color;
use serde::{Deserialize, Deserializer};

use super::ThemeName;

/// The default colour theme: the TOML a user can copy into `config.toml`,
/// and the source of the built-in colours.
pub(crate) const DEFAULT_TOML: &str = include_str!("../../assets/theme.toml");

/// The name errors in [`DEFAULT_TOML`] are reported under.
pub(crate) const DEFAULT_ORIGIN: &str = "assets/theme.toml (built in)";

macro_rules! roles {
    ($($variant:ident => $name:literal, $help:literal;)+) => {
        /// A semantic role a theme gives a style to.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Role { $(#[doc = $help] $variant,)+ }

        impl Role {
            /// Every role, in file order.
            pub const ALL: &'static [Role] = &[$(Role::$variant,)+];

            /// The key used in `[theme]`.
            pub fn name(self) -> &'static str {
                match self { $(Role::$variant => $name,)+ }
            }

            /// What the role colours.
            pub fn help(self) -> &'static str {
                match self { $(Role::$variant => $help,)+ }
            }

            /// The role of a `[theme]` key.
            pub fn parse(s: &str) -> Option<Role> {
                match s { $($name => Some(Role::$variant),)+ _ => None }
            }
        }
    };
}

// A new role adds a line here, a line to assets/theme.toml and its field to
// ui::theme::Theme (the compiler then asks for its slot there).
roles! {
    Text => "text", "plain text";
    Dim => "dim", "secondary text: hints, times, counts, completed campaigns";
    Title => "title", "titles and headings";
    Header => "header", "table headers";
    Selected => "selected", "the selected row";
    Marked => "marked", "marked (multi-selected) rows";
    Border => "border", "borders";
    TabActive => "tab_active", "the tab of the pane on screen";
    Tab => "tab", "the other tabs";
    Key => "key", "keys in hints and help";
    Ok => "ok", "success: verified domains, completed runs, active campaigns, connected senders";
    Warn => "warn", "warnings: pending domains, cancelled runs, paused campaigns, senders not connected";
    Err => "err", "errors: failed domains and runs, error messages";
    Info => "info", "in progress: verifying domains, queued and running runs, draft campaigns";
    Badge => "badge", "the DEMO badge";
    Status => "status", "the status bar";
}

/// The colour names a theme accepts, with their ANSI colour.
const NAMES: &[(&str, Color)] = &[
    ("black", Color::Black),
    ("red", Color::Red),
    ("green", Color::Green),
    ("yellow", Color::Yellow),
    ("blue", Color::Blue),
    ("magenta", Color::Magenta),
    ("cyan", Color::Cyan),
    ("gray", Color::Gray),
    ("darkgray", Color::DarkGray),
    ("lightred", Color::LightRed),
    ("lightgreen", Color::LightGreen),
    ("lightyellow", Color::LightYellow),
    ("lightblue", Color::LightBlue),
    ("lightmagenta", Color::LightMagenta),
    ("lightcyan", Color::LightCyan),
    ("white", Color::White),
];

/// A colour of a theme file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Colour {
    /// The terminal's own foreground or background.
    Reset,
    /// One of the 16 ANSI colours (they follow the user's palette).
    Ansi(Color),
    /// `#rrggbb`, used only on a truecolour terminal.
    Rgb(u8, u8, u8),
}

impl Colour {
    /// Parses a name (`cyan`, `darkgray`, `light-red`), `reset` or `#rrggbb`.
    pub fn parse(text: &str) -> Option<Colour> {
        if let Some(hex) = text.strip_prefix('#') {
            if hex.len() != 6 || !hex.chars().all(|c| c.is_ascii_hexdigit()) {
                return None;
            }
            let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).ok();
            return Some(Colour::Rgb(byte(0)?, byte(2)?, byte(4)?));
        }
        let name: String = text
            .chars()
            .filter(|c| !matches!(c, '-' | '_' | ' '))
            .map(|c| c.to_ascii_lowercase())
            .collect();
        let name = name.replace("grey", "gray");
        if name == "reset" {
            return Some(Colour::Reset);
        }
        NAMES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, c)| Colour::Ansi(*c))
    }

    /// The terminal colour (`None` for the terminal's own).
    pub fn color(self) -> Option<Color> {
        match self {
            Colour::Reset => None,
            Colour::Ansi(c) => Some(c),
            Colour::Rgb(r, g, b) => Some(Color::Rgb(r, g, b)),
        }
    }

    fn allowed() -> String {
        let names: Vec<&str> = NAMES.iter().map(|(n, _)| *n).collect();
        format!("{}, reset, or \"#rrggbb\"", names.join(", "))
    }
}

/// The style of one role: each field given replaces the one below it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StyleSpec {
    /// Foreground colour.
    pub fg: Option<Colour>,
    /// Background colour.
    pub bg: Option<Colour>,
    /// Bold on or off.
    pub bold: Option<bool>,
    /// Faint on or off.
    pub dim: Option<bool>,
    /// Italic on or off.
    pub italic: Option<bool>,
    /// Underline on or off.
    pub underlined: Option<bool>,
    /// Reverse video on or off.
    pub reversed: Option<bool>,
}

const STYLE_KEYS: &str = "fg, bg, bold, dim, italic, underlined, reversed";

impl StyleSpec {
    /// Whether the style needs a truecolour terminal.
    pub fn uses_rgb(&self) -> bool {
        [self.fg, self.bg]
            .iter()
            .any(|c| matches!(c, Some(Colour::Rgb(..))))
    }

    /// `other` over `self`, field by field.
    fn layer(&mut self, other: &StyleSpec) {
        self.fg = other.fg.or(self.fg);
        self.bg = other.bg.or(self.bg);
        self.bold = other.bold.or(self.bold);
        self.dim = other.dim.or(self.dim);
        self.italic = other.italic.or(self.italic);
        self.underlined = other.underlined.or(self.underlined);
        self.reversed = other.reversed.or(self.reversed);
    }

    fn parse(at: &str, value: &toml::Value) -> Result<StyleSpec, String> {
        let colour = |at: &str, v: &toml::Value| match v {
            toml::Value::String(s) => Colour::parse(s)
                .ok_or_else(|| format!("{at} = {v}: not a colour; allowed: {}", Colour::allowed())),
            _ => Err(format!("{at} = {v}: allowed: {}", Colour::allowed())),
        };
        match value {
            toml::Value::String(_) => Ok(StyleSpec {
                fg: Some(colour(at, value)?),
                ..StyleSpec::default()
            }),
            toml::Value::Table(t) => {
                let mut spec = StyleSpec::default();
                for (k, v) in t {
                    let at = format!("{at}.{k}");
                    let flag = |v: &toml::Value| {
                        v.as_bool()
                            .map(Some)
                            .ok_or_else(|| format!("{at} = {v}: allowed true or false"))
                    };
                    match k.as_str() {
                        "fg" => spec.fg = Some(colour(&at, v)?),
                        "bg" => spec.bg = Some(colour(&at, v)?),
                        "bold" => spec.bold = flag(v)?,
                        "dim" => spec.dim = flag(v)?,
                        "italic" => spec.italic = flag(v)?,
                        "underlined" => spec.underlined = flag(v)?,
                        "reversed" => spec.reversed = flag(v)?,
                        _ => return Err(format!("{at}: unknown key; allowed: {STYLE_KEYS}")),
                    }
                }
                Ok(spec)
            }
            _ => Err(format!(
                "{at} = {value}: allowed a colour (\"cyan\", \"#88c0d0\", \"reset\") or a table {{ {STYLE_KEYS} }}"
            )),
        }
    }
}

/// The `[theme]` table of a config file (or several, layered).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ThemeFile {
    /// The theme the roles are laid over (`default` when not given).
    pub base: Option<ThemeName>,
    /// Use `#rrggbb` colours: `None` follows `COLORTERM`.
    pub truecolor: Option<bool>,
    /// The styles given, by role.
    pub roles: BTreeMap<Role, StyleSpec>,
}

impl ThemeFile {
    /// `other` (a later layer) over `self`.
    pub fn layer(&mut self, other: ThemeFile) {
        self.base = other.base.or(self.base);
        self.truecolor = other.truecolor.or(self.truecolor);
        for (role, spec) in other.roles {
            self.roles.entry(role).or_default().layer(&spec);
        }
    }

    /// Reads `theme = "NAME"` or a `[theme]` table; errors name the key and
    /// what is allowed.
    pub fn from_value(value: &toml::Value) -> Result<ThemeFile, String> {
        let base = |at: &str, v: &toml::Value| match v.as_str() {
            Some("default") => Ok(ThemeName::Default),
            Some("mono") => Ok(ThemeName::Mono),
            _ => Err(format!(
                "{at} = {v}: allowed \"default\" or \"mono\" (or a [theme] table, see assets/theme.toml)"
            )),
        };
        let toml::Value::Table(table) = value else {
            return Ok(ThemeFile {
                base: Some(base("theme", value)?),
                ..ThemeFile::default()
            });
        };
        let mut file = ThemeFile::default();
        for (k, v) in table {
            let at = format!("theme.{k}");
            match k.as_str() {
                "base" => file.base = Some(base(&at, v)?),
                "truecolor" => {
                    file.truecolor = Some(v.as_bool().ok_or_else(|| {
                        format!(
                            "{at} = {v}: allowed true or false (leave it out to follow COLORTERM)"
                        )
                    })?);
                }
                _ => {
                    let role = Role::parse(k).ok_or_else(|| {
                        let roles: Vec<&str> = Role::ALL.iter().map(|r| r.name()).collect();
                        format!(
                            "{at}: unknown key; allowed: base, truecolor, {}",
                            roles.join(", ")
                        )
                    })?;
                    file.roles.insert(role, StyleSpec::parse(&at, v)?);
                }
            }
        }
        Ok(file)
    }

    /// The built-in colour theme, read from [`DEFAULT_TOML`] with the
    /// config parser.
    pub fn builtin() -> Result<ThemeFile, String> {
        let file = super::parse_file(std::path::Path::new(DEFAULT_ORIGIN), DEFAULT_TOML)
            .map_err(|e| e.to_string())?;
        Ok(file.theme.unwrap_or_default())
    }
}

impl<'de> Deserialize<'de> for ThemeFile {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let value = toml::Value::deserialize(d)?;
        ThemeFile::from_value(&value).map_err(serde::de::Error::custom)
    }
}

/// What the terminal can show, from the environment.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ColourEnv {
    /// `NO_COLOR` is set and not empty: no colour at all.
    pub no_color: bool,
    /// `COLORTERM` is `truecolor` or `24bit` (SSH does not forward it, so
    /// `[theme] truecolor = true` can say so instead).
    pub truecolor: bool,
}

impl ColourEnv {
    /// Reads `NO_COLOR` and `COLORTERM`.
    pub fn from_env() -> ColourEnv {
        ColourEnv::from_vars(
            std::env::var("NO_COLOR").ok().as_deref(),
            std::env::var("COLORTERM").ok().as_deref(),
        )
    }

    /// From the values of `NO_COLOR` and `COLORTERM`.
    pub fn from_vars(no_color: Option<&str>, colorterm: Option<&str>) -> ColourEnv {
        ColourEnv {
            no_color: no_color.is_some_and(|v| !v.is_empty()),
            truecolor: colorterm.is_some_and(|v| {
                matches!(
                    v.trim().to_ascii_lowercase().as_str(),
                    "truecolor" | "24bit"
                )
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::parse_file;
    use std::path::Path;

    fn err(text: &str) -> String {
        parse_file(Path::new("/x/config.toml"), text)
            .unwrap_err()
            .to_string()
    }

    fn theme(text: &str) -> ThemeFile {
        parse_file(Path::new("/x/config.toml"), text)
            .unwrap()
            .theme
            .unwrap()
    }

    #[test]
    fn colours_are_ansi_names_reset_or_hex() {
        assert_eq!(Colour::parse("cyan"), Some(Colour::Ansi(Color::Cyan)));
        assert_eq!(
            Colour::parse("Light-Red"),
            Some(Colour::Ansi(Color::LightRed))
        );
        assert_eq!(
            Colour::parse("dark grey"),
            Some(Colour::Ansi(Color::DarkGray))
        );
        assert_eq!(Colour::parse("reset"), Some(Colour::Reset));
        assert_eq!(
            Colour::parse("#88c0D0"),
            Some(Colour::Rgb(0x88, 0xc0, 0xd0))
        );
        for bad in ["#88c0d", "#88c0dz", "cyan2", "", "#"] {
            assert_eq!(Colour::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_embedded_theme_sets_every_role() {
        let file = ThemeFile::builtin().unwrap();
        assert_eq!(file.base, Some(ThemeName::Default));
        for role in Role::ALL {
            assert!(
                file.roles.contains_key(role),
                "assets/theme.toml does not set `{}`",
                role.name()
            );
        }
        // Each role is led by one comment: what it colours.
        let mut comment = None;
        let mut seen = 0;
        for (n, line) in DEFAULT_TOML
            .lines()
            .skip_while(|l| *l != "[theme]")
            .enumerate()
        {
            if let Some(text) = line.strip_prefix("# ") {
                comment = Some(text);
            } else if let Some((key, _)) = line.split_once(" = ")
                && let Some(role) = Role::parse(key)
            {
                assert_eq!(comment.take(), Some(role.help()), "[theme] line {n}");
                seen += 1;
            }
        }
        assert_eq!(seen, Role::ALL.len());
    }

    #[test]
    fn a_name_or_a_table() {
        assert_eq!(theme("theme = \"mono\"").base, Some(ThemeName::Mono));
        let t = theme(
            "[theme]\nbase = \"mono\"\ntruecolor = true\ntitle = \"magenta\"\n\
             selected = { bg = \"#334455\", reversed = false }\n",
        );
        assert_eq!(t.base, Some(ThemeName::Mono));
        assert_eq!(t.truecolor, Some(true));
        assert_eq!(t.roles[&Role::Title].fg, Some(Colour::Ansi(Color::Magenta)));
        assert_eq!(t.roles[&Role::Title].bold, None);
        let sel = t.roles[&Role::Selected];
        assert_eq!(sel.bg, Some(Colour::Rgb(0x33, 0x44, 0x55)));
        assert_eq!(sel.reversed, Some(false));
        assert!(sel.uses_rgb());
    }

    #[test]
    fn mistakes_name_the_file_the_key_and_what_is_allowed() {
        let e = err("[theme]\ntitel = \"cyan\"");
        assert!(
            e.starts_with("config file /x/config.toml: theme.titel: unknown key"),
            "{e}"
        );
        assert!(e.contains("base, truecolor, text, dim, title"), "{e}");
        let e = err("[theme]\ntitle = \"cyan2\"");
        assert!(e.contains("theme.title = \"cyan2\": not a colour"), "{e}");
        assert!(e.contains("lightcyan, white, reset, or \"#rrggbb\""), "{e}");
        let e = err("[theme]\ntitle = { fg = \"#12345\" }");
        assert!(
            e.contains("theme.title.fg = \"#12345\": not a colour"),
            "{e}"
        );
        let e = err("[theme]\ntitle = { bold = \"yes\" }");
        assert!(
            e.contains("theme.title.bold = \"yes\": allowed true or false"),
            "{e}"
        );
        let e = err("[theme]\ntitle = { colour = \"red\" }");
        assert!(
            e.contains("theme.title.colour: unknown key; allowed: fg, bg, bold"),
            "{e}"
        );
        let e = err("[theme]\ntitle = 3");
        assert!(e.contains("theme.title = 3: allowed a colour"), "{e}");
        let e = err("[theme]\nbase = \"neon\"");
        assert!(
            e.contains("theme.base = \"neon\": allowed \"default\" or \"mono\""),
            "{e}"
        );
        let e = err("[theme]\ntruecolor = \"auto\"");
        assert!(
            e.contains("theme.truecolor = \"auto\": allowed true or false"),
            "{e}"
        );
    }

    #[test]
    fn later_layers_win_field_by_field() {
        let mut t = theme("[theme]\ntitle = { fg = \"red\", bold = false }\nok = \"green\"");
        t.layer(theme("[theme]\nbase = \"mono\"\ntitle = \"blue\""));
        assert_eq!(t.base, Some(ThemeName::Mono));
        assert_eq!(t.roles[&Role::Title].fg, Some(Colour::Ansi(Color::Blue)));
        assert_eq!(t.roles[&Role::Title].bold, Some(false));
        assert_eq!(t.roles[&Role::Ok].fg, Some(Colour::Ansi(Color::Green)));
    }

    #[test]
    fn no_color_and_colorterm() {
        let env = ColourEnv::from_vars;
        assert!(env(Some("1"), None).no_color);
        assert!(!env(Some(""), None).no_color);
        assert!(env(None, Some("truecolor")).truecolor);
        assert!(env(None, Some("24bit")).truecolor);
        assert!(!env(None, Some("256")).truecolor);
        assert!(!env(None, None).truecolor);
    }
}
