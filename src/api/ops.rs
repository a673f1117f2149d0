//! The one table of operations. Each operation of the contract is declared
//! once, in [`operations!`] below: its request (an [`ApiRequest`] variant
//! with its arguments), its route family, whether it writes and how an
//! answer of it that may have reached the service is settled ([`Settle`];
//! `None` for a read, which read-only mode lets through), the type of its
//! answer (an [`ApiReply`] variant) and the client call that carries it
//! out ([`execute`]). Everything else is generated from the table; the
//! client method (`api/<area>.rs`) builds the HTTP request and the demo
//! service keeps its own routes.
//!
//! A reply reaches its handler typed: [`ApiReply::answer`] hands the
//! handler a `Result<T, ApiError>` of the type it reads ([`Answer`], one per
//! reply type, generated too). A reply of another type is a programming
//! error, caught in that one place: asserted in debug builds, logged and
//! dropped otherwise.

use serde_json::Value;

use super::model::*;
use super::{ApiError, Client, RouteFamily};

/// How an operation's *may have reached* is settled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Settle {
    /// A read proves it (the thread's messages, a list, a status): a
    /// `logic::write::Check` on the one schedule.
    Check,
    /// Sending it again does no harm (adding leads: the service drops
    /// duplicates; a full-replacement PUT; the verify trigger).
    SafeToRepeat,
    /// The contract has no read that proves it (redeeming a pass): the
    /// verdict says so and the user decides.
    NoCheck,
}

/// A type an operation answers with: taken out of an [`ApiReply`] typed
/// (implemented for each reply type of the table, and for [`ResultRows`]).
pub trait Answer: Sized {
    /// The answer, when `reply` holds this type; the name of the reply's
    /// variant when it holds another.
    fn take(reply: ApiReply) -> Result<Result<Self, ApiError>, &'static str>;
}

/// Declares the operations and their replies, and generates from them
/// `ApiRequest` (with `name`, `family`, `settle`, `is_write`), `ApiReply`
/// (with `error`, `name`), an [`Answer`] per reply type and [`execute`].
///
/// An operation is its doc, its variant (fields in braces, one value as
/// `(name: Type)`, or none) and `=> { family, settle, reply, run }`:
/// `settle` may read the fields (by reference), `run` calls the client `c`
/// with them (by value) and awaits it. A reply is `Variant(Type)`; the
/// `boxed` ones are held in a `Box` (large answers: the enum stays small).
macro_rules! operations {
    (
        replies { $($replies:tt)* }
        boxed { $($boxed:tt)* }
        ops { $($ops:tt)* }
    ) => {
        operations!(@ops [] [$($replies)*] [$($boxed)*] $($ops)*);
    };
    // An operation with named fields.
    (@ops [$($acc:tt)*] $r:tt $b:tt
        $(#[$m:meta])* $name:ident { $( $(#[$fm:meta])* $f:ident : $ft:ty ),* $(,)? }
        => { $($spec:tt)* }
        $($rest:tt)*
    ) => {
        operations!(@ops [$($acc)*
            [[$(#[$m])*] $name [{ $( $(#[$fm])* $f : $ft ),* }] [{ $($f),* }] [$($f)*] { $($spec)* }]
        ] $r $b $($rest)*);
    };
    // An operation with one value.
    (@ops [$($acc:tt)*] $r:tt $b:tt
        $(#[$m:meta])* $name:ident ( $f:ident : $ft:ty )
        => { $($spec:tt)* }
        $($rest:tt)*
    ) => {
        operations!(@ops [$($acc)*
            [[$(#[$m])*] $name [($ft)] [($f)] [$f] { $($spec)* }]
        ] $r $b $($rest)*);
    };
    // An operation without arguments.
    (@ops [$($acc:tt)*] $r:tt $b:tt
        $(#[$m:meta])* $name:ident
        => { $($spec:tt)* }
        $($rest:tt)*
    ) => {
        operations!(@ops [$($acc)*
            [[$(#[$m])*] $name [] [{}] [] { $($spec)* }]
        ] $r $b $($rest)*);
    };
    // Every operation read: the generated code.
    (@ops
        [$( [[$(#[$m:meta])*] $name:ident [$($decl:tt)?] [$pat:tt] [$($f:ident)*] {
            family: $family:ident,
            settle: $settle:expr,
            reply: $reply:ident,
            run: |$c:ident| $run:expr $(,)?
        }] )*]
        [$( $(#[$rm:meta])* $rv:ident ( $rt:ty ) ),* $(,)?]
        [$( $(#[$bm:meta])* $bv:ident ( $bt:ty ) ),* $(,)?]
    ) => {
        /// One operation of the contract, with its arguments: a variant
        /// per entry of the table (`api::ops`).
        #[derive(Debug, Clone, PartialEq)]
        pub enum ApiRequest {
            $( $(#[$m])* $name $($decl)?, )*
        }

        impl ApiRequest {
            /// Every operation's name, in the table's order.
            pub const NAMES: &'static [&'static str] = &[$(stringify!($name)),*];

            /// The operation's name (its variant's).
            pub fn name(&self) -> &'static str {
                match self {
                    $( ApiRequest::$name { .. } => stringify!($name), )*
                }
            }

            /// The route family (rate-limit gate) its request goes to.
            pub fn family(&self) -> RouteFamily {
                match self {
                    $( ApiRequest::$name { .. } => RouteFamily::$family, )*
                }
            }

            /// How a reply of this operation that may have reached the
            /// service is settled (`None`: a read, which changes nothing
            /// and read-only mode lets through).
            pub fn settle(&self) -> Option<Settle> {
                match self {
                    $( ApiRequest::$name $pat => {
                        $( let _ = $f; )*
                        $settle
                    } )*
                }
            }

            /// Whether the operation can change the service.
            pub fn is_write(&self) -> bool {
                self.settle().is_some()
            }
        }

        /// The answer to one [`ApiRequest`], by the type of the answer.
        #[derive(Debug, Clone)]
        pub enum ApiReply {
            $( $(#[$rm])* $rv(Result<$rt, ApiError>), )*
            $( $(#[$bm])* $bv(Box<Result<$bt, ApiError>>), )*
        }

        impl ApiReply {
            /// The error, if the reply is one.
            pub fn error(&self) -> Option<&ApiError> {
                match self {
                    $( ApiReply::$rv(r) => r.as_ref().err(), )*
                    $( ApiReply::$bv(r) => r.as_ref().as_ref().err(), )*
                }
            }

            /// The reply of `req`'s operation failing with `error` (its
            /// variant, whatever the operation).
            pub fn failed(req: &ApiRequest, error: ApiError) -> ApiReply {
                match req {
                    $( ApiRequest::$name { .. } => ApiReply::$reply(Err(error).into()), )*
                }
            }

            /// The reply's variant, for the log.
            pub fn name(&self) -> &'static str {
                match self {
                    $( ApiReply::$rv(_) => stringify!($rv), )*
                    $( ApiReply::$bv(_) => stringify!($bv), )*
                }
            }
        }

        $(
            impl Answer for $rt {
                fn take(reply: ApiReply) -> Result<Result<Self, ApiError>, &'static str> {
                    match reply {
                        ApiReply::$rv(r) => Ok(r),
                        other => Err(other.name()),
                    }
                }
            }
        )*
        $(
            impl Answer for $bt {
                fn take(reply: ApiReply) -> Result<Result<Self, ApiError>, &'static str> {
                    match reply {
                        ApiReply::$bv(r) => Ok(*r),
                        other => Err(other.name()),
                    }
                }
            }
        )*

        /// Carries out one operation with the client; its reply (see
        /// [`execute`], which also records a write in the journal).
        async fn carry_out(client: &Client, req: ApiRequest) -> ApiReply {
            match req {
                $( ApiRequest::$name $pat => {
                    let $c = client;
                    ApiReply::$reply($run.into())
                } )*
            }
        }
    };
}

operations! {
    replies {
        /// Domains, newest first.
        Domains(Vec<SendingDomain>),
        /// One domain (create or verify).
        Domain(SendingDomain),
        /// Senders.
        Senders(Vec<SenderAccount>),
        /// A sender's schedule (free-form JSON).
        Schedule(Value),
        /// Searches; `None` when the list route is not offered.
        Searches(Option<Vec<Search>>),
        /// Campaigns; `None` when the list route is not offered.
        Campaigns(Option<Vec<Campaign>>),
        /// A roster page.
        Roster(RosterPage),
        /// The answer of add-leads.
        LeadsAdded(AddLeadsResponse),
        /// How many leads were deleted.
        LeadsDeleted(u64),
        /// Generated messages.
        Messages(Vec<GeneratedMessage>),
        /// A page of threads.
        Threads(ThreadPage),
        /// A deleted draft thread.
        ThreadDeleted(()),
        /// A page of a thread's messages.
        ThreadMessages(MessagesPage),
    }
    boxed {
        /// A search with a page of results.
        SearchPage(SearchPage),
        /// A created search.
        SearchCreated(Search),
        /// Filtered results.
        Results(ResultsPage),
        /// A started run.
        RunStarted(RunResponse),
        /// The answer of run-all.
        RunAll(RunAllResponse),
        /// An enrichment profile.
        Enrichment(EnrichmentResponse),
        /// One campaign.
        Campaign(Campaign),
        /// One lead (after an edit).
        Lead(CampaignLead),
        /// One generated message (after an edit).
        Message(GeneratedMessage),
        /// One thread (get, or patch).
        Thread(Thread),
        /// A created draft thread.
        ThreadCreated(CreateThreadResponse),
        /// A sent message with its thread.
        Sent(SendMessageResponse),
        /// One sender.
        Sender(SenderAccount),
        /// The company profile.
        Context(ContextResponse),
        /// The stored profile after a replacement.
        ContextSaved(CompanyContext),
        /// A discovery pass after a redeem.
        Redeemed(DiscoveryPass),
    }
    ops {
        /// `GET /api/email/domains`.
        ListDomains {
            /// Read the cached status without asking the mail provider.
            skip_sync: bool,
        } => {
            family: EmailDomains,
            settle: None,
            reply: Domains,
            run: |c| c.list_domains(skip_sync).await,
        }
        /// `POST /api/email/domains`: add a sending domain.
        CreateDomain {
            /// The domain name.
            name: String,
        } => {
            family: EmailDomains,
            // The list of domains proves it.
            settle: Some(Settle::Check),
            reply: Domain,
            run: |c| c.create_domain(&name).await,
        }
        /// `POST /api/email/domains/{id}/verify`.
        VerifyDomain {
            /// The domain's id.
            id: String,
            /// A watch poll (`poll=true`: a read) rather than a trigger.
            poll: bool,
        } => {
            family: EmailDomains,
            // A trigger does the same thing twice.
            settle: if *poll { None } else { Some(Settle::SafeToRepeat) },
            reply: Domain,
            run: |c| c.verify_domain(&id, poll).await,
        }
        /// `GET /api/senders`.
        ListSenders => {
            family: Senders,
            settle: None,
            reply: Senders,
            run: |c| c.list_senders(None).await,
        }
        /// `GET /api/senders/{id}/schedule`.
        SenderSchedule {
            /// The sender's id.
            id: String,
        } => {
            family: Senders,
            settle: None,
            reply: Schedule,
            run: |c| c.sender_schedule(&id).await,
        }
        /// `GET /api/senders/{id}`.
        GetSender {
            /// The sender's id.
            id: String,
        } => {
            family: Senders,
            settle: None,
            reply: Sender,
            run: |c| c.get_sender(&id).await,
        }
        /// Optional `GET /api/lead-finder`.
        ListSearches => {
            family: LeadFinder,
            settle: None,
            reply: Searches,
            run: |c| c.list_searches().await,
        }
        /// `GET /api/lead-finder/{id}`.
        GetSearch {
            /// The search's id.
            id: String,
            /// Which page, of what size.
            page: SearchPageQuery,
        } => {
            family: LeadFinder,
            settle: None,
            reply: SearchPage,
            run: |c| c.get_search(&id, &page).await,
        }
        /// `POST /api/lead-finder`: create a search.
        CreateSearch(req: Box<CreateSearch>) => {
            family: LeadFinder,
            // The list of searches proves it.
            settle: Some(Settle::Check),
            reply: SearchCreated,
            run: |c| c.create_search(&req).await,
        }
        /// `POST /api/lead-finder/{id}/results/query`.
        QueryResults {
            /// The search whose results are filtered.
            id: String,
            /// The query string: the filter, sort and page of the results.
            query: ResultsQuery,
        } => {
            family: LeadFinder,
            // A query carried in a body: it changes nothing.
            settle: None,
            reply: Results,
            run: |c| c.query_results(&id, &query).await,
        }
        /// `POST /api/lead-finder/{id}/run`.
        RunSearch {
            /// The search to run.
            id: String,
            /// Continue the last run rather than start afresh.
            continuation: Option<bool>,
        } => {
            family: LeadFinder,
            // The search's runs prove it.
            settle: Some(Settle::Check),
            reply: RunStarted,
            run: |c| c.run_search(&id, continuation).await,
        }
        /// `POST /api/lead-finder/run`.
        RunAll => {
            family: LeadFinder,
            // The searches' runs prove it.
            settle: Some(Settle::Check),
            reply: RunAll,
            run: |c| c.run_all().await,
        }
        /// The enrichment profile of a result.
        Enrichment {
            /// The search the result belongs to.
            id: String,
            /// The result id.
            result_id: String,
        } => {
            family: LeadFinder,
            settle: None,
            reply: Enrichment,
            run: |c| c.enrichment(&id, &result_id).await,
        }
        /// Optional `GET /api/campaigns`.
        ListCampaigns => {
            family: Campaigns,
            settle: None,
            reply: Campaigns,
            run: |c| c.list_campaigns().await,
        }
        /// `GET /api/campaigns/{id}`.
        GetCampaign {
            /// The campaign's id.
            id: String,
        } => {
            family: Campaigns,
            settle: None,
            reply: Campaign,
            run: |c| c.get_campaign(&id).await,
        }
        /// `POST /api/campaigns`.
        CreateCampaign(req: Box<CreateCampaign>) => {
            family: Campaigns,
            // The list of campaigns proves it.
            settle: Some(Settle::Check),
            reply: Campaign,
            run: |c| c.create_campaign(&req).await,
        }
        /// `PATCH /api/campaigns/{id}` (settings and/or the whole sequence).
        UpdateCampaign {
            /// The campaign to change.
            id: String,
            /// The JSON body: only the settings that change.
            update: Box<UpdateCampaign>,
        } => {
            family: Campaigns,
            // The campaign read again proves it.
            settle: Some(Settle::Check),
            reply: Campaign,
            run: |c| c.update_campaign(&id, &update).await,
        }
        /// `POST /api/campaigns/{id}/launch`.
        LaunchCampaign {
            /// The campaign to launch.
            id: String,
        } => {
            family: Campaigns,
            // The campaign's status proves it.
            settle: Some(Settle::Check),
            reply: Campaign,
            run: |c| c.launch_campaign(&id).await,
        }
        /// `POST /api/campaigns/{id}/pause`.
        PauseCampaign {
            /// The campaign to pause.
            id: String,
        } => {
            family: Campaigns,
            // The campaign's status proves it.
            settle: Some(Settle::Check),
            reply: Campaign,
            run: |c| c.pause_campaign(&id).await,
        }
        /// `POST /api/campaigns/{id}/resume`.
        ResumeCampaign {
            /// The campaign to resume.
            id: String,
        } => {
            family: Campaigns,
            // The campaign's status proves it.
            settle: Some(Settle::Check),
            reply: Campaign,
            run: |c| c.resume_campaign(&id).await,
        }
        /// `GET /api/campaigns/{id}/leads`.
        ListLeads {
            /// The campaign whose roster is read.
            id: String,
            /// The query string: the roster's filter, sort and page.
            query: RosterQuery,
        } => {
            family: Campaigns,
            settle: None,
            reply: Roster,
            run: |c| c.list_leads(&id, &query).await,
        }
        /// `POST /api/campaigns/{id}/leads`.
        AddLeads {
            /// The campaign the leads join.
            id: String,
            /// The channel the leads are added for.
            channel: Channel,
            /// The leads (shared: an import keeps the chunk it sends, to send
            /// it again without the rows a 400 names, and must not copy it).
            leads: std::sync::Arc<[LeadInput]>,
        } => {
            family: Campaigns,
            // The service drops duplicate leads.
            settle: Some(Settle::SafeToRepeat),
            reply: LeadsAdded,
            run: |c| c.add_leads(&id, &channel, &leads).await.map(without_echo),
        }
        /// `PATCH /api/campaigns/{id}/leads`: one lead's profile fields.
        EditLead {
            /// The campaign whose lead is edited.
            id: String,
            /// The JSON body: only the lead fields that change.
            edit: Box<EditLead>,
        } => {
            family: Campaigns,
            // Sets the same fields to the same values: sent again, it
            // changes nothing more (what the Campaigns pane says).
            settle: Some(Settle::SafeToRepeat),
            reply: Lead,
            run: |c| c.edit_lead(&id, &edit).await,
        }
        /// `DELETE /api/campaigns/{id}/leads`: up to 500 ids, or all.
        DeleteLeads {
            /// The campaign whose leads are removed.
            id: String,
            /// Which leads.
            which: DeleteLeads,
        } => {
            family: Campaigns,
            // A deleted lead stays deleted: sent again, the same ids
            // change nothing more (the roster is read again after it).
            settle: Some(Settle::SafeToRepeat),
            reply: LeadsDeleted,
            run: |c| c.delete_leads(&id, &which).await,
        }
        /// `GET /api/campaigns/{id}/generate-messages`.
        GeneratedMessages {
            /// The campaign whose generated messages are read.
            id: String,
            /// The query string: which leads' messages, and the page.
            query: GeneratedMessagesQuery,
        } => {
            family: Campaigns,
            settle: None,
            reply: Messages,
            run: |c| c.generated_messages(&id, &query).await,
        }
        /// `PATCH /api/campaigns/{id}/generate-messages`.
        EditGeneratedMessage {
            /// The campaign the message was generated for.
            id: String,
            /// The JSON body: the message's id and its new subject and/or text.
            edit: EditGeneratedMessage,
        } => {
            family: Campaigns,
            // Sets the same subject and text: sent again, it changes
            // nothing more.
            settle: Some(Settle::SafeToRepeat),
            reply: Message,
            run: |c| c.edit_generated_message(&id, &edit).await,
        }
        /// `GET /api/threads`.
        ListThreads {
            /// The query string: the status filter and the page.
            query: ThreadQuery,
        } => {
            family: Threads,
            settle: None,
            reply: Threads,
            run: |c| c.list_threads(&query).await,
        }
        /// `GET /api/threads/{id}`.
        GetThread {
            /// The thread's id.
            id: String,
        } => {
            family: Threads,
            settle: None,
            reply: Thread,
            run: |c| c.get_thread(&id).await,
        }
        /// `POST /api/threads`: a draft (never sends).
        CreateThread(req: Box<CreateThread>) => {
            family: Threads,
            // The list of drafts proves it.
            settle: Some(Settle::Check),
            reply: ThreadCreated,
            run: |c| c.create_thread(&req).await,
        }
        /// `PATCH /api/threads/{id}`.
        PatchThread {
            /// The thread to change.
            id: String,
            /// The JSON body: only the thread fields that change.
            patch: Box<PatchThread>,
        } => {
            family: Threads,
            // The thread read again proves it.
            settle: Some(Settle::Check),
            reply: Thread,
            run: |c| c.patch_thread(&id, &patch).await,
        }
        /// `DELETE /api/threads/{id}`: an unsent draft.
        DeleteThread {
            /// The draft thread to delete.
            id: String,
        } => {
            family: Threads,
            // The thread read again proves it.
            settle: Some(Settle::Check),
            reply: ThreadDeleted,
            run: |c| c.delete_thread(&id).await,
        }
        /// `GET /api/threads/{id}/messages`.
        ListMessages {
            /// The thread whose messages are read.
            id: String,
            /// Page number.
            page: Option<u64>,
            /// Messages per page (`limit`; `None`: the service's default).
            limit: Option<u64>,
        } => {
            family: Threads,
            settle: None,
            reply: ThreadMessages,
            run: |c| c.list_messages(&id, page, limit).await,
        }
        /// `POST /api/threads/{id}/messages`: sends (never retried).
        SendMessage {
            /// The draft thread to send.
            id: String,
            /// The JSON body: subject, text and HTML bodies, and the sender account.
            send: Box<SendMessage>,
        } => {
            family: Threads,
            // The thread's messages prove it.
            settle: Some(Settle::Check),
            reply: Sent,
            run: |c| c.send_message(&id, &send).await,
        }
        /// `GET /api/context`.
        GetContext => {
            family: Context,
            settle: None,
            reply: Context,
            run: |c| c.get_context().await,
        }
        /// `PUT /api/context`: the whole profile.
        PutContext(req: Box<PutContext>) => {
            family: Context,
            // A full replacement does the same thing twice.
            settle: Some(Settle::SafeToRepeat),
            reply: ContextSaved,
            run: |c| c.put_context(&req).await,
        }
        /// `POST /api/test-access/redeem`.
        Redeem {
            /// The access code.
            code: String,
        } => {
            family: TestAccess,
            // The contract has no read of a pass.
            settle: Some(Settle::NoCheck),
            reply: Redeemed,
            run: |c| c.redeem(&code).await,
        }
    }
}

tokio::task_local! {
    /// Set while [`execute_recorded`] carries out an operation: the client
    /// then leaves the journaling to it.
    static RECORDING: ();
}

/// Whether the current task is inside [`execute_recorded`] (a write sent
/// outside it is journaled by the client itself, by its route).
pub(crate) fn recording() -> bool {
    RECORDING.try_with(|()| ()).is_ok()
}

/// Carries out one operation with the client; its reply. A write is
/// recorded in the client's journal, if it carries one ([`execute_recorded`]).
pub async fn execute(client: &Client, req: ApiRequest) -> ApiReply {
    execute_recorded(client, req, None).await.0
}

/// Carries out one operation, and records it in the client's journal when
/// it is a write (`crate::journal`): the one place every write of the
/// dashboard and the CLI passes, so none is left out. The entry is
/// numbered `number` (the dashboard's request id, so a verdict can name
/// it later) or the journal's next number; its id is returned beside the
/// reply for the verdict line of a write that may have reached.
pub async fn execute_recorded(
    client: &Client,
    req: ApiRequest,
    number: Option<u64>,
) -> (ApiReply, Option<String>) {
    let journal = client.journal().filter(|_| req.is_write()).cloned();
    let draft = journal
        .as_ref()
        .map(|_| crate::journal::entry::Draft::of(&req));
    let reply = RECORDING.scope((), carry_out(client, req)).await;
    let id = journal.zip(draft).map(|(j, draft)| {
        let id = number.map_or_else(|| j.next_id(), |n| j.id_for(n));
        let line = draft.finish(&reply, id.clone(), &j);
        // A few hundred bytes appended: the reply waits no longer than a
        // small file write (this runs on the request's task, never on the
        // dashboard's loop).
        j.record(line);
        id
    });
    (reply, id)
}

/// A page of a search's results, from either read of them: the search
/// with a page (`GetSearch`) or the filter (`QueryResults`).
#[derive(Debug, Clone)]
pub(crate) enum ResultRows {
    /// The search, its latest run and a page of its results.
    Search(SearchPage),
    /// A page of the filtered results.
    Query(ResultsPage),
}

impl Answer for ResultRows {
    fn take(reply: ApiReply) -> Result<Result<Self, ApiError>, &'static str> {
        match reply {
            ApiReply::SearchPage(r) => Ok((*r).map(ResultRows::Search)),
            ApiReply::Results(r) => Ok((*r).map(ResultRows::Query)),
            other => Err(other.name()),
        }
    }
}

impl ApiReply {
    /// The answer as the type its handler reads; `None` when the reply
    /// holds another type. That is a programming error (a purpose answered
    /// by an operation its handler does not read), caught here, the one
    /// place: asserted in debug builds, logged and dropped otherwise.
    pub fn typed<T: Answer>(self) -> Option<Result<T, ApiError>> {
        match T::take(self) {
            Ok(answer) => Some(answer),
            Err(reply) => {
                let wanted = std::any::type_name::<T>();
                tracing::error!(reply, wanted, "a reply of another type: dropped");
                debug_assert!(false, "a {reply} reply reached a handler of {wanted}");
                None
            }
        }
    }

    /// Hands the answer, typed, to its handler `f` (see [`ApiReply::typed`];
    /// a reply of another type gives `R::default()`, no commands).
    pub fn answer<T: Answer, R: Default>(self, f: impl FnOnce(Result<T, ApiError>) -> R) -> R {
        self.typed().map_or_else(R::default, f)
    }
}

/// The add-leads answer without the leads it echoes back: no pane shows
/// them (the roster is read again), and an echo of 1,000 leads freed here,
/// on the task that decoded it, keeps the work off the loop's thread (it
/// was a third of what an import did there; `benches/campaigns_import.rs`).
fn without_echo(mut r: AddLeadsResponse) -> AddLeadsResponse {
    r.prospects = Vec::new();
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    fn campaign(id: &str) -> Campaign {
        Campaign {
            id: id.into(),
            ..Campaign::default()
        }
    }

    #[test]
    fn a_reply_reaches_its_handler_as_the_type_the_handler_reads() {
        let reply = ApiReply::Campaign(Box::new(Ok(campaign("c-1"))));
        let got = reply.answer(|r: Result<Campaign, ApiError>| r.map(|c| c.id).ok());
        assert_eq!(got.as_deref(), Some("c-1"));
        let failed = ApiReply::failed(
            &ApiRequest::LaunchCampaign { id: "c-1".into() },
            ApiError::ReadOnly {
                method: "POST".into(),
                path: "/api/campaigns/c-1/launch".into(),
            },
        );
        assert!(matches!(
            failed.typed::<Campaign>(),
            Some(Err(ApiError::ReadOnly { .. }))
        ));
    }

    #[test]
    fn either_read_of_results_is_a_page_of_results() {
        let page = ApiReply::SearchPage(Box::new(Ok(SearchPage::default())));
        assert!(matches!(page.typed(), Some(Ok(ResultRows::Search(_)))));
        let query = ApiReply::Results(Box::new(Ok(ResultsPage::default())));
        assert!(matches!(query.typed(), Some(Ok(ResultRows::Query(_)))));
    }

    /// A handler handed a reply of another type is a programming error:
    /// caught where replies are typed (in a release build: logged, dropped,
    /// no commands).
    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "a Senders reply reached a handler of")]
    fn a_reply_of_another_type_is_caught_in_one_place() {
        let reply = ApiReply::Senders(Ok(Vec::new()));
        reply.answer(|_: Result<Campaign, ApiError>| vec![1]);
    }
}
