//! The Campaigns pane's keys: its actions with their default keys, help and
//! whether they change the service, and the key that shows the pane. The
//! keymap gathers them through the pane registry, so they are declared here
//! alone (`assets/keymap.toml` is generated from them).

/// Appends the pane's block to the keymap's collector (see `app::keymap`).
macro_rules! pane_keys {
    ($($acc:tt)*) => {
        $crate::app::keymap::collect_actions! {
            $($acc)*
            pane {
                switch PaneCampaigns => "pane_campaigns", ["2"], "Campaigns pane";
                /// The Campaigns pane.
                Campaigns => "campaigns" {
                    NewCampaign => "new_campaign", ["n"], "create a campaign (the type first, then its settings)", writes;
                    ImportCsv => "import_csv", ["i"], "import leads from a CSV file into the draft", writes;
                    Launch => "launch", ["L"], "launch the draft (the launch preflight first, then asks, naming the pending leads)", writes;
                    Pause => "pause", ["p"], "pause the active campaign", writes;
                    Resume => "resume", ["R"], "resume the paused campaign", writes;
                    NextTab => "next_tab", ["l", "right"], "next part of the campaign (overview, roster, messages)";
                    PrevTab => "prev_tab", ["h", "left"], "previous part of the campaign";
                    CampaignStatusFilter => "campaign_status_filter", ["t"], "filter the roster or the messages by status";
                    EditItem => "edit", ["e"], "edit the selected lead or message", writes;
                    EditSequence => "edit_sequence", ["s"], "edit the sequence (draft only)", writes;
                    DeleteLeads => "delete_leads", ["d"], "delete the selected leads (draft only)", writes;
                    DeleteAllLeads => "delete_all_leads", ["D"], "delete every lead of the roster (draft only)", writes;
                    MarkLead => "mark_lead", ["space"], "select / unselect the lead";
                    MarkLoadedLeads => "mark_loaded_leads", ["a"], "select every loaded lead (the pages read so far; while filtered, those shown)";
                    PreviewNextLead => "preview_next_lead", ["ctrl-l"], "in the sequence editor: preview the next lead of the roster";
                    PreviewPrevLead => "preview_prev_lead", ["ctrl-o"], "in the sequence editor: preview the previous lead";
                    PreviewNextGap => "preview_next_gap", ["ctrl-g"], "in the sequence editor: preview the next lead for whom a variable of the sequence is empty";
                }
            }
        }
    };
}
pub(crate) use pane_keys;
