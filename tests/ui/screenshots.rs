//! The README's screenshots: each pane in a representative state, rendered
//! from the same `TestBackend` buffer as the snapshot tests (fixture data,
//! fixed clock) and written as SVG to `assets/screenshots/NAME.svg`.
//!
//! `UPDATE_SCREENSHOTS=1 cargo test --test ui screenshots` rewrites them;
//! without it the test fails when a committed picture is stale. A new pane
//! adds its line to `SCREENS` (and its picture to the README).

use std::path::PathBuf;

use crossterm::event::KeyCode;
use outpost::testkit::api::model::RunStatus;
use outpost::testkit::app::Model;

use crate::support::terminal;
use crate::svg::svg;

/// Width and height of every picture.
const SIZE: (u16, u16) = (120, 32);

/// The command that rewrites the pictures.
const UPDATE: &str = "UPDATE_SCREENSHOTS=1 cargo test --test ui screenshots";

/// Builds the model of a picture at a size.
type State = fn(u16, u16) -> Model;

/// Each picture: its file name and the state it shows.
const SCREENS: &[(&str, State)] = &[
    ("leads-searches", |w, h| {
        crate::leads::listed(w, h, &RunStatus::Completed)
    }),
    ("leads-search-running", |w, h| {
        crate::leads::opened(w, h, &RunStatus::Running)
    }),
    ("leads-result-detail", |w, h| {
        let run = RunStatus::Completed;
        let mut m = crate::leads::opened(w, h, &run);
        crate::leads::press(&mut m, KeyCode::Down, &run);
        crate::leads::press(&mut m, KeyCode::Enter, &run);
        m
    }),
    ("campaigns-list", crate::campaigns::listed),
    ("campaigns-detail", |w, h| crate::campaigns::opened(w, h, 2)),
    ("inbox-threads", crate::inbox::loaded),
    ("inbox-thread", |w, h| {
        let mut m = crate::inbox::loaded(w, h);
        crate::inbox::select(&mut m, "t-2");
        crate::inbox::press(&mut m, KeyCode::Enter);
        m
    }),
    ("inbox-editor", |w, h| {
        let mut m = crate::inbox::loaded(w, h);
        crate::inbox::select(&mut m, "t-4");
        crate::inbox::press(&mut m, KeyCode::Char('e'));
        m
    }),
    ("domains-list", crate::domains::loaded),
    ("profile", crate::profile::loaded),
    ("profile-form", |w, h| {
        let mut m = crate::profile::edited(w, h);
        if let Some(e) = m.panes.profile.editor.as_mut() {
            e.focus_on(outpost::testkit::app::profile::fields::FieldId::Overview);
        }
        m
    }),
    ("domains-dns-records", |w, h| {
        let mut m = crate::domains::loaded(w, h);
        crate::domains::press(&mut m, KeyCode::Enter);
        m
    }),
];

fn path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("assets/screenshots")
        .join(format!("{name}.svg"))
}

fn render(state: State) -> String {
    let (w, h) = SIZE;
    svg(terminal(&state(w, h), w, h).backend().buffer())
}

#[test]
fn screenshots_match_the_panes() {
    let update = std::env::var_os("UPDATE_SCREENSHOTS").is_some_and(|v| !v.is_empty());
    let mut stale = Vec::new();
    for (name, state) in SCREENS {
        let picture = render(*state);
        // A picture that changes from run to run could never be checked.
        assert_eq!(
            picture,
            render(*state),
            "{name} does not render the same twice"
        );
        let file = path(name);
        if update {
            if let Some(dir) = file.parent() {
                std::fs::create_dir_all(dir).expect("create assets/screenshots");
            }
            std::fs::write(&file, &picture).expect("write a screenshot");
        } else if std::fs::read_to_string(&file).ok().as_deref() != Some(picture.as_str()) {
            stale.push(file.display().to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "stale or missing screenshots: {}\nrun: {UPDATE}",
        stale.join(", ")
    );
}

/// Every picture is shown in the README, and every picture shown exists.
#[test]
fn screenshots_are_in_the_readme() {
    let readme = include_str!("../../README.md");
    for (name, _) in SCREENS {
        let link = format!("assets/screenshots/{name}.svg");
        assert!(readme.contains(&link), "README.md does not show {link}");
    }
    let shown = readme.matches("assets/screenshots/").count();
    assert_eq!(
        shown,
        SCREENS.len(),
        "README.md shows a picture no test renders"
    );
}
