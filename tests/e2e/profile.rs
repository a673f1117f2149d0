//! The Profile pane end to end: edit one field in each section, see the
//! review, save, restart and see the saved values; redeem `DEMO-PASS-1`
//! against `--demo` and see the remaining count.

use crate::support::Pty;

const CTRL_S: &[u8] = b"\x13";
const TAB: &[u8] = b"\t";
const PGDN: &[u8] = b"\x1b[6~";
const END: &[u8] = b"\x1b[F";

/// Edits one field of each section: the form opens on First name.
fn edit_every_section(pty: &Pty) -> Result<(), String> {
    pty.send(b"e");
    pty.wait_for("Edit company profile")?;
    // Profile: Last name (the cursor is at the end of the text).
    pty.send(TAB);
    pty.type_text("-Park");
    // User, Company, Content, Market: the first field of each (the cursor
    // at the start of a long text).
    for text in ["Ex-analyst. ", "Now: ", "Calm. ", "EU "] {
        pty.send(PGDN);
        pty.type_text(text);
    }
    // Extra: a new key after the opening brace.
    pty.send(PGDN);
    pty.send(END);
    pty.send(b"\r");
    pty.type_text("\"e2e\": true,");
    // Six edits counted, and extra still a valid object.
    pty.wait_for("6 fields changed")?;
    pty.wait_for("✓ a JSON object with 2 keys")?;
    Ok(())
}

#[test]
fn edit_each_section_review_save_restart_and_see_it_stored() {
    // One service for both runs of the dashboard (`--demo` starts a fresh
    // one on every start, so a restart there shows the seed again).
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let handle = rt
        .block_on(outpost::testkit::demo::spawn(
            "127.0.0.1:0".parse().expect("addr"),
            outpost::testkit::demo::DemoConfig::default(),
        ))
        .expect("demo service");
    let config = format!("base_url = \"{}\"\n", handle.base_url());
    let env = [("OUTPOST_API_KEY", outpost::testkit::demo::DEMO_KEY)];
    let pty = Pty::spawn_env(&[], 100, 50, &config, &env);
    pty.wait_for("Outpost").expect("the dashboard starts");
    pty.send(b"5");
    pty.wait_for(" stored ").expect("the profile is read");
    edit_every_section(&pty).expect("one edit in each section");
    pty.send(CTRL_S);
    let review = pty
        .wait_for("Review: 6 fields change")
        .expect("the review before sending");
    // All six changes, each with what it becomes.
    for want in [
        "Profile · Last name",
        "+ Chen-Park",
        "User · Professional background",
        "+ Ex-analyst. Ten years",
        "Company · Overview",
        "+ Now: Northwind",
        "Content · Network voice",
        "+ Calm. Practical",
        "Market · Target audience",
        "+ EU RevOps",
        "Extra",
        "+ extra.e2e: true",
    ] {
        assert!(review.contains(want), "{want}:\n{review}");
    }
    pty.send(b"y");
    pty.wait_for("Profile saved").expect("saved");
    pty.send(b"q");
    let pty = pty.restart(&[], 100, 50, &env);
    // The Profile pane was the last one: it opens first, read anew. Its
    // frame may arrive in more than one read: waited for whole.
    let wants = [
        " stored ",
        "Chen-Park",
        "Ex-analyst. Ten years",
        "Now: Northwind",
        "Calm. Practical",
        "EU RevOps",
    ];
    pty.wait_until("the stored profile with every edit", |s| {
        wants.iter().all(|w| s.contains(w))
    })
    .expect("the profile is read again");
    pty.send(b"G");
    pty.wait_for("e2e: true").expect("the new key of extra");
    drop(handle);
}

#[test]
fn redeem_demo_pass_1_and_see_the_remaining_count() {
    let pty = Pty::spawn(&["--demo"], 100, 30, "");
    pty.wait_for("Outpost").expect("the dashboard starts");
    pty.send(b":redeem DEMO-PASS-1\r");
    pty.wait_for("DEMO-PASS-1 redeemed").expect("redeemed");
    let screen = pty
        .wait_until("remaining N/100", |s| {
            s.lines().any(|l| {
                l.split("remaining ")
                    .nth(1)
                    .and_then(|r| r.split('/').next())
                    .is_some_and(|n| n.trim().parse::<u64>().is_ok_and(|n| n <= 100))
            })
        })
        .expect("the remaining count as a gauge");
    assert!(
        screen.contains("expires in 13d") || screen.contains("expires in 14d"),
        "{screen}"
    );
    assert!(screen.contains("can create leads"), "{screen}");
    // The same code again: refused, and said why.
    pty.send(b"p");
    pty.wait_for("Redeem a discovery pass").expect("the dialog");
    pty.type_text("DEMO-PASS-1\r");
    pty.wait_for("was not redeemed")
        .expect("a used code is refused");
    pty.wait_for("already been redeemed")
        .expect("with the service's reason");
}
