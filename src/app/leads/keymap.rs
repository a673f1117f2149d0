//! The Leads pane's keys: its actions with their default keys, help and
//! whether they change the service, and the key that shows the pane. The
//! keymap gathers them through the pane registry, so they are declared here
//! alone (`assets/keymap.toml` is generated from them).

/// Appends the pane's block to the keymap's collector (see `app::keymap`).
macro_rules! pane_keys {
    ($($acc:tt)*) => {
        $crate::app::keymap::collect_actions! {
            $($acc)*
            pane {
                switch PaneLeads => "pane_leads", ["1"], "Leads pane";
                /// The Leads pane.
                Leads => "leads" {
                    NewSearch => "new_search", ["n"], "create a search", writes;
                    RunSearch => "run_search", ["R"], "run the search (resumes when the last run can continue)", writes;
                    RunAll => "run_all", ["ctrl-r"], "run every eligible search", writes;
                    ToggleMark => "toggle_mark", ["space"], "select / unselect the lead";
                    MarkLoaded => "mark_loaded", ["a"], "select every loaded lead";
                    MarkMatching => "mark_matching", ["A"], "select every lead matching the filter";
                    AddToCampaign => "add_to_campaign", ["c"], "add the selected leads to a campaign…", writes;
                    Export => "export", ["E"], "export the filtered results to CSV";
                    Enrichment => "enrichment", ["e"], "open the result on its enrichment fields and coverage";
                    RemoveChip => "remove_chip", ["x"], "remove the last filter chip (or click a chip)";
                    ClearMarks => "clear_marks", ["u"], "unselect every lead";
                    NextSection => "next_section", ["l", "right"], "next part of the result detail (lead, person, company, fields)";
                    PrevSection => "prev_section", ["h", "left"], "previous part of the result detail";
                }
            }
        }
    };
}
pub(crate) use pane_keys;
