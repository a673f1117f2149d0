//! The Profile pane's keys: its actions with their default keys, help and
//! whether they change the service, and the key that shows the pane. The
//! keymap gathers them through the pane registry, so they are declared here
//! alone (`assets/keymap.toml` is generated from them).

/// Appends the pane's block to the keymap's collector (see `app::keymap`).
macro_rules! pane_keys {
    ($($acc:tt)*) => {
        $crate::app::keymap::collect_actions! {
            $($acc)*
            pane {
                switch PaneProfile => "pane_profile", ["5"], "Profile pane";
                /// The Profile pane.
                Profile => "profile" {
                    EditProfile => "edit_profile", ["e"], "edit the profile as a form (saving shows the changes first and asks before sending)", writes;
                    RedeemPass => "redeem_pass", ["p"], "redeem a discovery-pass code", writes;
                    SaveProfile => "save_profile", ["ctrl-s"], "in the form: review the changes before they are sent";
                }
            }
        }
    };
}
pub(crate) use pane_keys;
