//! A ratatui buffer as an SVG picture: one monospace text cell per buffer
//! cell, with its foreground and background colour, bold, dim, italic,
//! underline and reverse. No dependencies; the same buffer always gives the
//! same bytes, so a committed picture can be checked for staleness.

use std::fmt::Write as _;

use ratatui::buffer::Buffer;
use ratatui::style::{Color, Modifier};

/// Cell width and height in pixels, for a 14 px monospace font.
const CELL_W: f32 = 8.4;
const CELL_H: f32 = 18.0;
/// Room around the screen.
const PAD: f32 = 12.0;
/// Text sits this far below the top of its cell.
const BASELINE: f32 = 13.5;

/// The terminal's own colours (`Color::Reset`).
const FG: &str = "#c8ccd4";
const BG: &str = "#1c1f24";

/// The 16 ANSI colours, in index order (black, red, …, white).
const PALETTE: [&str; 16] = [
    "#2a2e36", "#e06c75", "#98c379", "#e5c07b", "#61afef", "#c678dd", "#56b6c2", "#abb2bf",
    "#5c6370", "#ff7b86", "#b5e890", "#ffd68a", "#82c4ff", "#de95f0", "#7fd6e0", "#eceff4",
];

/// The hex colour of a terminal colour; `None` is the terminal's own.
fn hex(c: Color) -> Option<String> {
    let ansi = |i: usize| Some(PALETTE[i].to_owned());
    match c {
        Color::Reset => None,
        Color::Black => ansi(0),
        Color::Red => ansi(1),
        Color::Green => ansi(2),
        Color::Yellow => ansi(3),
        Color::Blue => ansi(4),
        Color::Magenta => ansi(5),
        Color::Cyan => ansi(6),
        Color::Gray => ansi(7),
        Color::DarkGray => ansi(8),
        Color::LightRed => ansi(9),
        Color::LightGreen => ansi(10),
        Color::LightYellow => ansi(11),
        Color::LightBlue => ansi(12),
        Color::LightMagenta => ansi(13),
        Color::LightCyan => ansi(14),
        Color::White => ansi(15),
        Color::Rgb(r, g, b) => Some(format!("#{r:02x}{g:02x}{b:02x}")),
        Color::Indexed(i) if i < 16 => ansi(usize::from(i)),
        Color::Indexed(i) if i < 232 => {
            // The xterm 6x6x6 cube.
            let level = |v: u8| if v == 0 { 0 } else { 55 + v * 40 };
            let i = i - 16;
            let (r, g, b) = (level(i / 36), level(i / 6 % 6), level(i % 6));
            Some(format!("#{r:02x}{g:02x}{b:02x}"))
        }
        Color::Indexed(i) => {
            let v = 8 + (i - 232) * 10;
            Some(format!("#{v:02x}{v:02x}{v:02x}"))
        }
    }
}

/// How a run of cells is drawn.
#[derive(Clone, PartialEq, Eq)]
struct Look {
    fg: String,
    bg: Option<String>,
    bold: bool,
    dim: bool,
    italic: bool,
    underlined: bool,
}

fn look(cell: &ratatui::buffer::Cell) -> Look {
    let m = cell.modifier;
    let (mut fg, mut bg) = (hex(cell.fg), hex(cell.bg));
    if m.contains(Modifier::REVERSED) {
        (fg, bg) = (
            Some(bg.unwrap_or_else(|| BG.to_owned())),
            Some(fg.unwrap_or_else(|| FG.to_owned())),
        );
    }
    Look {
        fg: fg.unwrap_or_else(|| FG.to_owned()),
        bg,
        bold: m.contains(Modifier::BOLD),
        dim: m.contains(Modifier::DIM),
        italic: m.contains(Modifier::ITALIC),
        underlined: m.contains(Modifier::UNDERLINED),
    }
}

fn escape(text: &str, out: &mut String) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Control characters are not allowed in XML.
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
}

/// The buffer as a standalone SVG document.
pub fn svg(buf: &Buffer) -> String {
    let area = buf.area;
    let width = f32::from(area.width) * CELL_W + 2.0 * PAD;
    let height = f32::from(area.height) * CELL_H + 2.0 * PAD;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" \
         viewBox=\"0 0 {width:.1} {height:.1}\" font-family=\"ui-monospace, SFMono-Regular, Menlo, \
         Consolas, 'DejaVu Sans Mono', monospace\" font-size=\"14\">"
    );
    let _ = writeln!(
        out,
        "<rect width=\"100%\" height=\"100%\" rx=\"6\" fill=\"{BG}\"/>"
    );
    // Backgrounds first, so no text is covered by a later row's fill.
    let mut texts = String::new();
    for y in 0..area.height {
        let top = PAD + f32::from(y) * CELL_H;
        let mut x = 0;
        while x < area.width {
            let first = look(&buf[(area.x + x, area.y + y)]);
            let start = x;
            let mut text = String::new();
            while x < area.width {
                let cell = &buf[(area.x + x, area.y + y)];
                if look(cell) != first {
                    break;
                }
                text.push_str(cell.symbol());
                x += 1;
            }
            let left = PAD + f32::from(start) * CELL_W;
            let cells = f32::from(x - start) * CELL_W;
            if let Some(bg) = &first.bg {
                let _ = writeln!(
                    out,
                    "<rect x=\"{left:.1}\" y=\"{top:.1}\" width=\"{cells:.1}\" height=\"{CELL_H:.1}\" fill=\"{bg}\"/>"
                );
            }
            if text.trim().is_empty() {
                continue;
            }
            let _ = write!(
                texts,
                "<text x=\"{left:.1}\" y=\"{:.1}\" textLength=\"{cells:.1}\" fill=\"{}\"",
                top + BASELINE,
                first.fg
            );
            if first.bold {
                texts.push_str(" font-weight=\"bold\"");
            }
            if first.dim {
                texts.push_str(" fill-opacity=\"0.6\"");
            }
            if first.italic {
                texts.push_str(" font-style=\"italic\"");
            }
            if first.underlined {
                texts.push_str(" text-decoration=\"underline\"");
            }
            texts.push_str(" xml:space=\"preserve\">");
            escape(&text, &mut texts);
            texts.push_str("</text>\n");
        }
    }
    out.push_str(&texts);
    out.push_str("</svg>\n");
    out
}

#[test]
fn cells_keep_their_colours_and_markup_is_escaped() {
    use ratatui::layout::Rect;
    use ratatui::style::Style;
    let mut buf = Buffer::empty(Rect::new(0, 0, 12, 2));
    buf.set_string(0, 0, "a<b & \"c\"", Style::new().fg(Color::Red));
    buf.set_string(
        0,
        1,
        "sel",
        Style::new()
            .add_modifier(Modifier::REVERSED | Modifier::BOLD)
            .fg(Color::Cyan),
    );
    let svg = svg(&buf);
    assert!(
        svg.contains(&format!(
            "fill=\"{}\" xml:space=\"preserve\">a&lt;b &amp; &quot;c&quot;</text>",
            PALETTE[1]
        )),
        "{svg}"
    );
    // Reverse: the text takes the background, the cells the foreground.
    assert!(
        svg.contains(&format!(
            "width=\"25.2\" height=\"18.0\" fill=\"{}\"",
            PALETTE[6]
        )),
        "{svg}"
    );
    assert!(
        svg.contains(&format!(
            "fill=\"{BG}\" font-weight=\"bold\" xml:space=\"preserve\">sel</text>"
        )),
        "{svg}"
    );
    assert!(svg.starts_with("<svg ") && svg.ends_with("</svg>\n"));
}
