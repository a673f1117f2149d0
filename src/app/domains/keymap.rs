//! The Senders & Domains pane's keys: its actions with their default keys, help and
//! whether they change the service, and the key that shows the pane. The
//! keymap gathers them through the pane registry, so they are declared here
//! alone (`assets/keymap.toml` is generated from them).

/// Appends the pane's block to the keymap's collector (see `app::keymap`).
macro_rules! pane_keys {
    ($($acc:tt)*) => {
        $crate::app::keymap::collect_actions! {
            $($acc)*
            pane {
                switch PaneDomains => "pane_domains", ["4"], "Senders & Domains pane";
                /// The Senders & Domains pane.
                Domains => "domains" {
                    ToggleSenders => "toggle_senders", ["s"], "switch between sending domains and senders";
                    AddDomain => "add_domain", ["a"], "add a sending domain", writes;
                    Verify => "verify", ["v"], "verify the domain (trigger a DNS check)", writes;
                    CopyValue => "copy_value", ["y"], "copy the selected DNS value (OSC 52, works over SSH)";
                    CopyRecord => "copy_record", ["Y"], "copy the record's name, type, value or zone-file line…";
                    SenderType => "sender_type", ["t"], "filter senders by type (all, email, network)";
                }
            }
        }
    };
}
pub(crate) use pane_keys;
