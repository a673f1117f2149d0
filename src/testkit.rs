//! What the integration tests (`tests/*`) and benches (`benches/*`) reach
//! inside the crate, and nothing more: everything else is `pub(crate)`, so
//! the compiler reports an item no one uses (`unreachable_pub`, `dead_code`).
//!
//! The modules mirror the crate's own paths (`testkit::app::Model` is
//! `crate::app::Model`), so a test reads like the code it drives. An item a
//! new test needs is added here; the service's wire types (`api::model`) and
//! the test fixtures are re-exported whole.

pub mod api {
    pub use crate::api::gate::{ConnState, RouteFamily};
    pub use crate::api::key::ApiKey;
    pub use crate::api::ops::ApiRequest;
    pub use crate::api::{ApiError, Client, ClientConfig, ServiceError, model};
    pub mod bound {
        pub use crate::api::bound::{ANSWER_MAX, LIST_MAX, Overflow};
    }
    pub mod client {
        pub use crate::api::client::{check_base_url, decode, is_loopback};
    }
    pub mod key {
        pub use crate::api::key::redact;
    }
    pub mod ops {
        pub use crate::api::ops::{execute, execute_recorded};
    }
    pub mod retry {
        pub use crate::api::retry::{MAX_WAIT, RetryPolicy};
    }
    pub mod validate {
        pub use crate::api::validate::MAX_INT;
    }
}
pub mod app {
    pub use crate::api::ops::{ApiReply, ApiRequest};
    pub use crate::app::cmd::{Cmd, RequestId};
    #[cfg(any(test, feature = "test-util"))]
    pub use crate::app::fixtures;
    pub use crate::app::msg::Msg;
    pub use crate::app::subscriptions::{SubId, subscriptions};
    pub use crate::app::{Confirm, ConfirmAction, Model, Overlay, Pane, PaneSub, Session, update};
    pub mod cache {
        pub use crate::app::cache::Cache;
    }
    pub mod campaigns {
        pub use crate::app::campaigns::{CampaignsModel, CampaignsSub, Dialog, Opened, Tab, View};
        pub mod import {
            pub use crate::app::campaigns::import::{Stage, open};
        }
        pub mod roster {
            pub use crate::app::campaigns::roster::PAGE;
        }
    }
    pub mod cmd {
        pub use crate::app::cmd::FileWrite;
    }
    pub mod path_complete {
        pub use crate::app::path_complete::{DirEntry, DirListing, PathCompletion};
    }
    pub mod ctx {
        pub use crate::app::ctx::Ctx;
    }
    pub mod domains {
        pub use crate::app::domains::{DomainsSub, View};
        pub mod layout {
            pub use crate::app::domains::layout::areas;
        }
    }
    pub mod help {
        pub use crate::app::help::{Row, rows, scroll_max};
    }
    pub mod inbox {
        pub use crate::app::inbox::InboxSub;
        pub mod layout {
            pub use crate::app::inbox::layout::list_viewport;
        }
        pub mod messages {
            pub use crate::app::inbox::messages::{MAX_PAGES, PAGE};
        }
    }
    pub mod journal_view {
        pub use crate::app::journal_view::Reading;
    }
    pub mod keymap {
        pub use crate::app::keymap::{Action, ComboCode, KeyCombo, Keymap, Scope};
    }
    pub mod leads {
        pub use crate::app::leads::{Dialog, Filter, LeadsModel, LeadsSub, View, start_export};
        pub mod facts {
            pub use crate::app::leads::facts::{fetch_next, wanted};
        }
        pub mod layout {
            pub use crate::app::leads::layout::{WIDE_TABLE, results_viewport, searches_viewport};
        }
        pub mod search {
            pub use crate::app::leads::search::{apply_filter, fetch_pages, open};
        }
    }
    pub mod msg {
        pub use crate::app::msg::OpenedProfile;
    }
    pub mod profile {
        pub mod diff {
            pub use crate::app::profile::diff::diff;
        }
        pub mod fields {
            pub use crate::app::profile::fields::FieldId;
        }
    }
    pub mod toast {
        pub use crate::app::toast::Level;
    }
}
pub mod config {
    pub use crate::config::KeyOverride;
    pub mod theme {
        pub use crate::config::theme::{ColourEnv, ThemeFile};
    }
}
pub mod demo {
    pub use crate::demo::{ChaosConfig, DEMO_KEY, DemoConfig, DemoHandle, OTHER_KEY, spawn};
    pub mod chaos {
        pub use crate::demo::chaos::{Chaos, Fault, LostAnswer};
    }
    pub mod people {
        pub use crate::demo::people::field_index;
    }
    pub mod seed {
        pub use crate::demo::seed::{ALWAYS_ON, LONG_THREAD_MESSAGES};
    }
}
pub mod dns {
    pub use crate::dns::{Answers, Lookup, Query};
    #[cfg(any(test, feature = "test-util"))]
    pub mod test_server {
        pub use crate::dns::test_server::{TestDns, TestRecord};
    }
}
pub mod files {
    #[cfg(any(test, feature = "test-util"))]
    pub mod testing {
        pub use crate::files::testing::mkfifo;
    }
}
pub mod journal {
    pub use crate::journal::{
        FILE, Journal, Outcome, Read, Record, Source, Target, VerdictLine, WriteLine, read,
    };
}
pub mod logic {
    pub mod export {
        pub use crate::logic::export::COLUMNS;
    }
    pub mod import {
        pub use crate::logic::import::{
            CHUNK, CHUNK_BYTES, CsvChunk, CsvPos, CsvRead, CsvRow, guess_all, identity_key,
            lacks_identity, lead_of,
        };
    }
    pub mod preflight {
        pub use crate::logic::preflight::{Finding, Kind, Preflight};
    }
    pub mod write {
        pub use crate::logic::write::{Settle, Verdict};
    }
}
pub mod runtime {
    pub use crate::runtime::{Channel, Host, Services, Stats, run, run_started, start, write_file};
    pub mod csv_import {
        pub use crate::runtime::csv_import::read_chunk;
    }
    pub mod effects {
        pub use crate::runtime::effects::execute;
    }
}
pub mod store {
    pub use crate::store::{State, Store, StoreError, write_atomic};
}
pub mod text {
    pub mod sanitize {
        pub use crate::text::sanitize::{DisplayText, inline};
    }
}
pub mod ui {
    pub use crate::ui::view;
    pub mod theme {
        pub use crate::ui::theme::Theme;
    }
    pub mod widgets {
        pub mod wrapped {
            pub use crate::ui::widgets::wrapped::lines;
        }
    }
}
