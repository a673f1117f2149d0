//! `[notify]`: how the dashboard gets attention when something the user
//! waits for happens (a watched domain verifies or fails, a run completes,
//! a reply arrives): the terminal bell, and a desktop notification sent as
//! an escape sequence the terminal turns into one (OSC 9 or OSC 777; over
//! SSH too, since it travels with the output).

use serde::Deserialize;

/// The desktop notification sequence.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Desktop {
    /// `ESC ] 9 ; text BEL` (iTerm2, Windows Terminal, WezTerm, kitty…).
    #[default]
    Osc9,
    /// `ESC ] 777 ; notify ; title ; text BEL` (rxvt, foot, Ghostty…).
    Osc777,
    /// No desktop notification.
    None,
}

/// `[notify]` of a config file.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NotifyFile {
    /// Ring the terminal bell.
    pub bell: Option<bool>,
    /// `"osc9"`, `"osc777"` or `"none"`.
    pub desktop: Option<Desktop>,
}

/// How to get attention, resolved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Notify {
    /// Ring the terminal bell.
    pub bell: bool,
    /// The desktop notification sequence.
    pub desktop: Desktop,
}

impl Default for Notify {
    fn default() -> Self {
        Notify {
            bell: true,
            desktop: Desktop::Osc9,
        }
    }
}

impl Notify {
    /// A later layer over this one.
    pub fn layer(&mut self, file: NotifyFile) {
        self.bell = file.bell.unwrap_or(self.bell);
        self.desktop = file.desktop.unwrap_or(self.desktop);
    }

    /// The bytes that ring and notify, for inert `title` and `text` (the
    /// caller sanitizes them: a control inside would end the sequence).
    pub fn sequence(&self, title: &str, text: &str) -> String {
        // `;` separates OSC 777's fields, and a BEL or ESC would end the
        // sequence: both are kept out of what is shown.
        let clean = |s: &str| -> String {
            s.chars()
                .map(|c| if c.is_control() { ' ' } else { c })
                .collect::<String>()
        };
        let (title, text) = (clean(title), clean(text));
        let mut out = String::new();
        match self.desktop {
            Desktop::Osc9 => out.push_str(&format!("\x1b]9;{title}: {text}\x07")),
            Desktop::Osc777 => out.push_str(&format!(
                "\x1b]777;notify;{};{}\x07",
                title.replace(';', ","),
                text.replace(';', ",")
            )),
            Desktop::None => {}
        }
        if self.bell {
            out.push('\x07');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequences_follow_the_setting_and_stay_closed() {
        let n = Notify::default();
        assert_eq!(
            n.sequence("Domain verified", "mail.acme.io"),
            "\x1b]9;Domain verified: mail.acme.io\x07\x07"
        );
        let n = Notify {
            bell: false,
            desktop: Desktop::Osc777,
        };
        assert_eq!(
            n.sequence("Run; done", "a\x07b"),
            "\x1b]777;notify;Run, done;a b\x07",
            "a separator or a control cannot end or split the sequence"
        );
        let n = Notify {
            bell: false,
            desktop: Desktop::None,
        };
        assert_eq!(n.sequence("x", "y"), "");
        let mut n = Notify::default();
        n.layer(NotifyFile {
            bell: Some(false),
            desktop: None,
        });
        assert_eq!(
            n,
            Notify {
                bell: false,
                desktop: Desktop::Osc9
            }
        );
    }
}
