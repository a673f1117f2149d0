//! Input arrives whole: a burst of keys larger than crossterm's 1 KiB read
//! buffer, typed without bracketed paste (a terminal that does not support
//! it, tmux `paste-buffer`, a slow SSH link catching up), is processed as it
//! arrives — not stalled until the next key press.

use crate::support::Pty;

#[test]
fn three_thousand_plain_keys_in_one_write_all_arrive_without_another_key() {
    let pty = Pty::spawn(&["--demo"], 100, 30, "");
    pty.wait_for("Outpost").expect("the dashboard starts");
    pty.send(b":");
    pty.wait_for("Tab open search")
        .expect("the command line opens");
    // 2,990 filler keys and a marker at the very end: the marker shows only
    // once every byte before it was read and handled, in order.
    let mut burst = "a".repeat(2990).into_bytes();
    burst.extend_from_slice(b"ZQ-END-789");
    assert_eq!(burst.len(), 3000);
    pty.send(&burst);
    let screen = pty
        .wait_for("ZQ-END-789")
        .expect("the end of the burst is shown without another key");
    assert!(
        screen.contains(":") && screen.contains("aaaaZQ-END-789"),
        "{screen}"
    );
}
