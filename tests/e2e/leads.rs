//! The Leads pane end to end against `--demo`: create a search, run it,
//! watch results arrive, filter by one enrichment predicate, select three
//! leads, add them to a draft campaign and see its roster rise by three.

use crate::support::Pty;

/// Watch runs closely against the loopback demo service.
const FAST_POLL: &str = "[poll]\nrun_secs = 0.5\n";

const CTRL_N: &[u8] = b"\x0e";
const CTRL_S: &[u8] = b"\x13";

/// `(before, after)` of the "roster N → M" line.
fn roster(screen: &str) -> Option<(u64, u64)> {
    let line = screen
        .lines()
        .find(|l| l.contains("roster ") && l.contains('→'))?;
    let rest = &line[line.find("roster ")? + "roster ".len()..];
    let (a, b) = rest.split_once('→')?;
    let num = |s: &str| -> Option<u64> {
        let digits: String = s
            .trim()
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == ',')
            .filter(char::is_ascii_digit)
            .collect();
        digits.parse().ok()
    };
    Some((num(a)?, num(b)?))
}

#[test]
fn create_run_filter_select_and_add_three_leads_to_a_campaign() {
    let mut pty = Pty::spawn(&["--demo", "--time-scale", "600"], 110, 32, FAST_POLL);
    pty.wait_for("Lead Finder searches")
        .expect("the Leads pane opens first");

    // Create.
    pty.send(b"n");
    pty.wait_for("New Lead Finder search")
        .expect("the create form opens");
    pty.type_text("E2E RevOps leaders");
    pty.send(b"\t\t");
    pty.type_text("Find RevOps leaders who own tooling");
    pty.send(b"\t\t\t");
    pty.type_text("head of revenue operations");
    pty.send(b"\t");
    pty.type_text("They own the tooling budget");
    pty.send(CTRL_S);
    pty.wait_for("never run").expect("the new search opens");

    // Run and watch results arrive.
    pty.send(b"R");
    pty.wait_until("results arriving", |s| {
        s.contains("Results ") && !s.contains("Results 0 ") && s.contains("stored")
    })
    .expect("results appear while the run stores them");
    pty.wait_for("● completed").expect("the run completes");

    // Filter by one enrichment predicate picked from the descriptors.
    pty.send(b"/");
    pty.wait_for("Filter results").expect("the builder opens");
    pty.send(CTRL_N);
    pty.wait_for("Pick a field")
        .expect("the field picker opens");
    pty.type_text("email verified");
    pty.send(b"\r");
    pty.wait_for("Email verified ▾")
        .expect("the field is picked");
    pty.send(b"\r");
    let screen = pty
        .wait_for("[Email verified eq true ×]")
        .expect("the chip shows the filter");
    assert!(screen.contains("Matching"), "{screen}");

    // Select three and add them to the empty draft (network) campaign.
    pty.send(b" ");
    pty.send(b" ");
    pty.send(b" ");
    pty.wait_for("3 selected").expect("three selected");
    pty.send(b"c");
    pty.wait_for("Add to campaign").expect("the dialog opens");
    let screen = pty
        .wait_for("Platform eng intros")
        .expect("draft campaigns are offered");
    let draft_line = screen
        .lines()
        .find(|l| l.contains("Platform eng intros"))
        .unwrap_or_default();
    assert!(draft_line.contains("all have networkUrl"), "{screen}");
    let index = screen
        .lines()
        .filter(|l| l.contains(" roster "))
        .position(|l| l.contains("Platform eng intros"))
        .unwrap_or(0);
    for _ in 0..index {
        pty.send(b"j");
    }
    pty.send(b"\r");
    let screen = pty
        .wait_until("the roster read back", |s| roster(s).is_some())
        .expect("the roster is read back after the add");
    let (before, after) = roster(&screen).unwrap_or_default();
    assert_eq!(after, before + 3, "{screen}");
    assert!(screen.contains("imported 3"), "{screen}");

    pty.send(b"\r");
    pty.send(b"q");
    assert_eq!(pty.wait_exit(), Some(true), "q quits cleanly");
}

/// `/` narrows the searches as it is typed, and the letters typed never act
/// as commands (`r` would refresh, `n` open the form); a pasted id that is
/// not a UUID is refused before anything is sent.
#[test]
fn slash_filters_the_searches_live_and_a_bad_id_is_refused() {
    let mut pty = Pty::spawn(&["--demo"], 110, 32, "");
    // The list's title is drawn before its rows arrive: wait for a row.
    pty.wait_for("RevOps leaders at Series B SaaS")
        .expect("the Leads pane opens first, with its searches");
    pty.send(b"/");
    pty.type_text("revops");
    let screen = pty
        .wait_until("the list narrowed", |s| {
            s.contains(" of ") && s.contains("/ revops")
        })
        .expect("the list narrows as the query is typed");
    assert!(!screen.contains("New Lead Finder search"), "{screen}");
    pty.type_text("n");
    let screen = pty
        .wait_for("/ revopsn")
        .expect("n is typed, not a command");
    assert!(!screen.contains("New Lead Finder search"), "{screen}");
    pty.send(b"\x1b");
    pty.wait_until("the query cleared", |s| !s.contains("/ revops"))
        .expect("Esc clears the query");

    pty.send(b":");
    pty.type_text("open search not-a-search");
    pty.send(b"\r");
    pty.wait_for("No search opened")
        .expect("refused by the resolution rules before sending");
    pty.send(b"q");
    assert_eq!(pty.wait_exit(), Some(true), "q quits cleanly");
}
