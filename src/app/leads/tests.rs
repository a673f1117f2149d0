//! Flows of the Leads pane through `update`.
