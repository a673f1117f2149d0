//! `outpost searches` and `outpost results <search>`.
//!
//! `searches --json`:
//!
//! ```json
//! {"source": "service",
//!  "searches": [{"id", "title", "kind", "result_count", "lead_count",
//!                "contacted_count", "last_run_id", "created_at", "updated_at"}]}
//! ```
//!
//! `source` is `service`, or `local` when the service does not list
//! searches and the ids this profile's state file knows were read one by
//! one instead.
//!
//! `results --json` (one result per line inside `results`):
//!
//! ```json
//! {"search_id": "…", "q": "…" | null,
//!  "where": [{"path", "operator", "value"}],
//!  "results": [{"result_id", "score", "quality_tier", "name", "title",
//!               "company", "company_domain", "email", "network_url",
//!               "status", "created_at", "occurred_at", "query",
//!               "search_reason", "signal_reason", "search_url", "lead_id",
//!               "run_id"}],
//!  "count": 0, "complete": true, "stopped": null}
//! ```
//!
//! `complete` is false when more results match than were printed: the
//! walk stopped (`stopped` says why) or `--limit` was reached.
//!
//! `--csv FILE` writes the same columns as the dashboard's export (cells a
//! spreadsheet would run as formulas neutralised), to a temporary file
//! renamed into place at the end: a failed run leaves no half file.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use clap::Args;
use serde::Serialize;

use super::Ctx;
use super::exit::{Exit, Failure};
use super::output::{Col, Table, inert_json, stdout_failure, write_json, write_json_line};
use crate::api::model::{LeadResult, Operator, Predicate, PredicateValue, Search, SearchPageQuery};
use crate::api::{ApiError, ApiRequest, ResultRows};
use crate::logic::export::{COLUMNS, Page, PageRequest, Walk, record};
use crate::logic::results::{Filter, result_company, result_name};
use crate::store::{KnownId, State};
use crate::text::format;

/// Flags of `outpost results`.
#[derive(Debug, Clone, Args)]
pub struct ResultsArgs {
    /// The search: its id, a unique id prefix (4 characters or more), its
    /// exact title or a unique part of it.
    pub search: String,
    /// Free text, matched in names, titles, companies and reasons (at most
    /// 128 characters).
    #[arg(long, value_name = "TEXT")]
    pub q: Option<String>,
    /// A predicate on an enrichment path, up to 5: OP is contains, eq, gt,
    /// gte, lt or lte; VALUE is read as JSON when it is a number, true,
    /// false or a "quoted string", else as text.
    #[arg(
        long = "where",
        num_args = 3,
        value_names = ["PATH", "OP", "VALUE"],
        action = clap::ArgAction::Append,
        allow_hyphen_values = true
    )]
    pub predicates: Vec<String>,
    /// Write the results as CSV to FILE (an existing file is kept unless
    /// --force).
    #[arg(long, value_name = "FILE", conflicts_with = "json")]
    pub csv: Option<PathBuf>,
    /// Replace the --csv file when it exists.
    #[arg(long, requires = "csv")]
    pub force: bool,
    /// Stop after N results.
    #[arg(long, value_name = "N")]
    pub limit: Option<u64>,
    /// Print one JSON document instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// One search in `searches --json`.
#[derive(Debug, Serialize)]
struct SearchJson<'a> {
    id: &'a str,
    title: &'a str,
    kind: &'a str,
    result_count: u64,
    lead_count: u64,
    contacted_count: u64,
    last_run_id: Option<&'a str>,
    created_at: &'a str,
    updated_at: &'a str,
}

impl<'a> From<&'a Search> for SearchJson<'a> {
    fn from(s: &'a Search) -> Self {
        SearchJson {
            id: &s.search_id,
            title: &s.title,
            kind: s.kind.as_str(),
            result_count: s.result_count,
            lead_count: s.lead_count,
            contacted_count: s.contacted_count,
            last_run_id: s.last_run_id.as_deref(),
            created_at: &s.created_at,
            updated_at: &s.updated_at,
        }
    }
}

/// `searches --json`.
#[derive(Debug, Serialize)]
struct SearchesJson<'a> {
    source: &'a str,
    searches: Vec<SearchJson<'a>>,
}

/// The ids this workspace's state file knows (`kind` picks the list);
/// read without touching the file. A missing or unreadable file knows
/// none (said on stderr).
pub(super) fn known_ids(ctx: &Ctx, searches: bool) -> Vec<KnownId> {
    let Some(path) = &ctx.state_file else {
        return Vec::new();
    };
    let bytes = match crate::files::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Vec::new(),
        Err(e) => {
            crate::errln!("outpost: warning: cannot read {}: {e}", path.display());
            return Vec::new();
        }
    };
    match serde_json::from_slice::<State>(&bytes) {
        Ok(s) if searches => s.known_searches,
        Ok(s) => s.known_campaigns,
        Err(e) => {
            crate::errln!(
                "outpost: warning: {} is not readable state ({e})",
                path.display()
            );
            Vec::new()
        }
    }
}

/// Reads the searches the state file knows, one by one (a search gone
/// from the service is skipped with a note).
async fn known_searches(ctx: &Ctx) -> Result<Vec<Search>, Failure> {
    let mut out = Vec::new();
    let page = SearchPageQuery {
        limit: Some(1),
        ..SearchPageQuery::default()
    };
    for k in known_ids(ctx, true) {
        let req = ApiRequest::GetSearch {
            id: k.id.clone(),
            page: page.clone(),
        };
        match ctx.read::<crate::api::model::SearchPage>(req).await {
            Ok(p) => out.push(p.search),
            Err(e) if e.is_not_found() => {
                crate::errln!("outpost: note: search {} is gone from the service", k.id);
            }
            Err(e) => return Err(Failure::api(&format!("reading search {}", k.id), &e)),
        }
    }
    Ok(out)
}

/// `outpost searches`.
pub(crate) async fn searches(ctx: &Ctx, json: bool, out: &mut impl Write) -> Result<Exit, Failure> {
    let (list, source) = match ctx
        .read::<Option<Vec<Search>>>(ApiRequest::ListSearches)
        .await
    {
        Ok(Some(list)) => (list, "service"),
        Ok(None) => {
            crate::errln!(
                "outpost: note: the service does not list searches; showing the ids this workspace has seen"
            );
            (known_searches(ctx).await?, "local")
        }
        Err(e) => return Err(Failure::api("listing the searches", &e)),
    };
    let written = if json {
        write_json(
            out,
            &SearchesJson {
                source,
                searches: list.iter().map(SearchJson::from).collect(),
            },
        )
    } else {
        let mut t = Table::new(&[
            Col::left("ID", 0),
            Col::left("TITLE", 40),
            Col::left("KIND", 10),
            Col::num("RESULTS"),
            Col::num("LEADS"),
            Col::num("CONTACTED"),
            Col::left("UPDATED", 16),
        ]);
        for s in &list {
            t.row(&[
                s.search_id.clone(),
                s.title.clone(),
                s.kind.to_string(),
                format::count(s.result_count),
                format::count(s.lead_count),
                format::count(s.contacted_count),
                format::date(&s.updated_at),
            ]);
        }
        if t.is_empty() {
            writeln!(out, "no searches")
        } else {
            t.write(out)
        }
    };
    written.map_err(|e| stdout_failure(&e))?;
    Ok(Exit::Ok)
}

/// Parses `--where PATH OP VALUE` triples into predicates.
pub(crate) fn predicates(raw: &[String]) -> Result<Vec<Predicate>, Failure> {
    raw.chunks(3)
        .map(|c| {
            let [path, op, value] = c else {
                return Err(Failure::usage("--where takes three values: PATH OP VALUE"));
            };
            let operator = Operator::parse(op.trim());
            if !operator.is_known() {
                return Err(Failure::usage(format!(
                    "--where {path} {op} …: the operator must be one of contains, eq, gt, gte, lt, lte"
                )));
            }
            let value = match serde_json::from_str::<serde_json::Value>(value.trim()) {
                Ok(serde_json::Value::Bool(b)) => PredicateValue::Bool(b),
                Ok(serde_json::Value::Number(n)) => match n.as_f64() {
                    Some(f) => PredicateValue::Number(f),
                    None => PredicateValue::Text(value.clone()),
                },
                Ok(serde_json::Value::String(s)) => PredicateValue::Text(s),
                _ => PredicateValue::Text(value.clone()),
            };
            Ok(Predicate {
                path: path.clone(),
                operator,
                value,
            })
        })
        .collect()
}

/// One result in `results --json` (the CSV's columns, typed).
#[derive(Debug, Serialize)]
struct ResultJson<'a> {
    result_id: &'a str,
    score: f64,
    quality_tier: &'a str,
    name: String,
    title: &'a str,
    company: &'a str,
    company_domain: &'a str,
    email: &'a str,
    network_url: &'a str,
    status: &'a str,
    created_at: &'a str,
    occurred_at: &'a str,
    query: &'a str,
    search_reason: &'a str,
    signal_reason: &'a str,
    search_url: &'a str,
    lead_id: &'a str,
    run_id: &'a str,
}

impl<'a> From<&'a LeadResult> for ResultJson<'a> {
    fn from(r: &'a LeadResult) -> Self {
        let c = r.canonical_lead.as_ref();
        let field = |f: fn(&'a crate::api::model::CanonicalLead) -> &'a str| c.map_or("", f);
        ResultJson {
            result_id: &r.result_id,
            score: r.score,
            quality_tier: &r.quality_tier,
            name: result_name(r),
            title: field(|c| &c.title),
            company: result_company(r),
            company_domain: field(|c| &c.company_domain),
            email: field(|c| &c.email),
            network_url: field(|c| &c.network_url),
            status: &r.status,
            created_at: &r.created_at,
            occurred_at: &r.occurred_at,
            query: &r.query,
            search_reason: &r.search_reason,
            signal_reason: &r.signal_reason,
            search_url: &r.search_url,
            lead_id: &r.lead_id,
            run_id: &r.run_id,
        }
    }
}

/// The head of `results --json`, before the rows.
#[derive(Debug, Serialize)]
struct ResultsHead<'a> {
    search_id: &'a str,
    q: Option<&'a str>,
    #[serde(rename = "where")]
    predicates: Vec<PredicateJson<'a>>,
}

/// A `--where` predicate as `results --json` echoes it: a whole number as
/// an integer (`5000`, not `5000.0`), as every number Outpost shows.
#[derive(Debug, Serialize)]
struct PredicateJson<'a> {
    path: &'a str,
    operator: &'a Operator,
    value: serde_json::Value,
}

impl<'a> From<&'a Predicate> for PredicateJson<'a> {
    fn from(p: &'a Predicate) -> Self {
        let value = match &p.value {
            // `format::float` writes a whole float's digits, which JSON
            // reads back as an integer; any other number as itself.
            PredicateValue::Number(f) => serde_json::from_str(&format::float(*f))
                .or_else(|_| serde_json::to_value(f))
                .unwrap_or(serde_json::Value::Null),
            other => serde_json::to_value(other).unwrap_or(serde_json::Value::Null),
        };
        PredicateJson {
            path: &p.path,
            operator: &p.operator,
            value,
        }
    }
}

/// The end of `results --json`, after the rows: `complete` is false when
/// the walk stopped early or `--limit` left out results that match.
#[derive(Debug, Serialize)]
struct ResultsTail<'a> {
    count: u64,
    complete: bool,
    stopped: Option<&'a str>,
}

/// Where the rows go.
enum Sink {
    /// A table, printed at the end.
    Table(Table),
    /// JSON rows, streamed.
    Json { first: bool },
    /// A CSV file being written.
    Csv(Box<CsvFile>),
}

/// A CSV file written under a temporary name, renamed at the end.
struct CsvFile {
    path: PathBuf,
    tmp: PathBuf,
    w: csv::Writer<BufWriter<File>>,
}

impl CsvFile {
    fn create(path: &Path, force: bool) -> Result<CsvFile, Failure> {
        if path.is_dir() {
            return Err(Failure::usage(format!("{} is a directory", path.display())));
        }
        // Never over a named pipe or a device, --force or not.
        crate::files::check_target(path)
            .map_err(|e| Failure::usage(format!("cannot write {}: {e}", path.display())))?;
        if path.exists() && !force {
            return Err(Failure::usage(format!(
                "{} exists; pass --force to replace it",
                path.display()
            )));
        }
        let name = path.file_name().map_or_else(
            || "results.csv".into(),
            |n| n.to_string_lossy().into_owned(),
        );
        let tmp = path.with_file_name(format!(".{name}.outpost-{}.tmp", std::process::id()));
        let mut opts = std::fs::OpenOptions::new();
        opts.write(true).create_new(true);
        // Service data: readable by the user alone, as every file Outpost
        // writes (the dashboard's export, the state, the cache, the log).
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            opts.mode(0o600);
        }
        let file = opts
            .open(&tmp)
            .map_err(|e| Failure::usage(format!("cannot write {}: {e}", tmp.display())))?;
        let mut w = csv::WriterBuilder::new().from_writer(BufWriter::new(file));
        w.write_record(COLUMNS).map_err(|e| {
            Failure::new(Exit::Failed, format!("cannot write {}: {e}", tmp.display()))
        })?;
        Ok(CsvFile {
            path: path.to_owned(),
            tmp,
            w,
        })
    }

    fn row(&mut self, r: &LeadResult) -> Result<(), Failure> {
        self.w
            .write_record(record(r))
            .map_err(|e| self.failed(&e.to_string()))
    }

    fn failed(&self, why: &str) -> Failure {
        let _ = std::fs::remove_file(&self.tmp);
        Failure::new(
            Exit::Failed,
            format!("cannot write {}: {why}", self.path.display()),
        )
    }

    fn finish(self) -> Result<(), Failure> {
        let (path, tmp) = (self.path.clone(), self.tmp.clone());
        let fail = |why: String| {
            let _ = std::fs::remove_file(&tmp);
            Failure::new(
                Exit::Failed,
                format!("cannot write {}: {why}", path.display()),
            )
        };
        let buf = self.w.into_inner().map_err(|e| fail(e.to_string()))?;
        let file = buf.into_inner().map_err(|e| fail(e.to_string()))?;
        file.sync_all().map_err(|e| fail(e.to_string()))?;
        std::fs::rename(&tmp, &path).map_err(|e| fail(e.to_string()))
    }

    fn abandon(self) {
        let _ = std::fs::remove_file(&self.tmp);
    }
}

/// `outpost results <search>`.
pub(crate) async fn results(
    ctx: &Ctx,
    a: &ResultsArgs,
    out: &mut impl Write,
) -> Result<Exit, Failure> {
    let filter = Filter {
        q: a.q.clone().unwrap_or_default(),
        predicates: predicates(&a.predicates)?,
    };
    let page = super::resolve::search(ctx, &a.search, crate::logic::resolve::Use::Read).await?;
    let id = page.search.search_id;
    let mut sink = open_sink(a, &id, &filter, out)?;
    let (count, stopped, more) = match walk(ctx, a, &id, &filter, &mut sink, out).await {
        Ok(x) => x,
        Err(f) => {
            if let Sink::Csv(c) = sink {
                c.abandon();
            }
            return Err(f);
        }
    };
    close_sink(sink, count, stopped.as_deref(), more, out)?;
    if more && !a.json {
        crate::errln!(
            "outpost: note: the first {} results; more match (--limit)",
            format::count(count)
        );
    }
    match stopped {
        Some(why) => Err(Failure::new(
            Exit::Failed,
            format!("stopped after {} results: {why}", format::count(count)),
        )),
        None => Ok(Exit::Ok),
    }
}

/// The sink the flags ask for; JSON starts with its head at once.
fn open_sink(
    a: &ResultsArgs,
    id: &str,
    filter: &Filter,
    out: &mut impl Write,
) -> Result<Sink, Failure> {
    Ok(match (&a.csv, a.json) {
        (Some(path), _) => Sink::Csv(Box::new(CsvFile::create(path, a.force)?)),
        (None, true) => {
            let head = ResultsHead {
                search_id: id,
                q: a.q.as_deref().map(str::trim).filter(|q| !q.is_empty()),
                predicates: filter.predicates.iter().map(PredicateJson::from).collect(),
            };
            let mut text = serde_json::to_string_pretty(&head)
                .map_err(|e| Failure::new(Exit::Failed, e.to_string()))?;
            // Reopen the object to append the rows.
            text.truncate(text.trim_end().trim_end_matches('}').trim_end().len());
            write!(out, "{},\n  \"results\": [", inert_json(&text))
                .map_err(|e| stdout_failure(&e))?;
            Sink::Json { first: true }
        }
        (None, false) => Sink::Table(Table::new(&[
            Col::left("RESULT ID", 0),
            Col::num("SCORE"),
            Col::left("TIER", 9),
            Col::left("NAME", 24),
            Col::left("TITLE", 28),
            Col::left("COMPANY", 24),
            Col::left("EMAIL", 32),
            Col::left("STATUS", 10),
        ])),
    })
}

/// Ends the output: the CSV file renamed into place, JSON's tail, or the
/// table.
fn close_sink(
    sink: Sink,
    count: u64,
    stopped: Option<&str>,
    more: bool,
    out: &mut impl Write,
) -> Result<(), Failure> {
    match sink {
        Sink::Csv(c) => {
            let path = c.path.display().to_string();
            c.finish()?;
            writeln!(out, "wrote {} results to {path}", format::count(count))
        }
        Sink::Json { first } => {
            let tail = ResultsTail {
                count,
                complete: stopped.is_none() && !more,
                stopped,
            };
            let tail = serde_json::to_string_pretty(&tail)
                .map_err(|e| Failure::new(Exit::Failed, e.to_string()))?;
            // The tail's fields without its braces, after the rows.
            let inner = tail
                .trim()
                .trim_start_matches('{')
                .trim_end_matches('}')
                .trim_end();
            let close = if first { "]" } else { "\n  ]" };
            writeln!(out, "{close},{}\n}}", inert_json(inner))
        }
        Sink::Table(t) if t.is_empty() => writeln!(out, "no results"),
        Sink::Table(t) => t.write(out),
    }
    .map_err(|e| stdout_failure(&e))
}

/// Reads every page (or up to `--limit`) into the sink; returns the count
/// and why the walk stopped early, if it did.
async fn walk(
    ctx: &Ctx,
    a: &ResultsArgs,
    id: &str,
    filter: &Filter,
    sink: &mut Sink,
    out: &mut impl Write,
) -> Result<(u64, Option<String>, bool), Failure> {
    let mut walk = Walk::new(id, filter, 0);
    let mut count = 0u64;
    let limit = a.limit.unwrap_or(u64::MAX);
    // Rows of the last page read that --limit left out.
    let mut cut = false;
    while !walk.done && count < limit {
        let page = read_page(ctx, walk.request()).await.map_err(|e| fail(&e))?;
        let rows = walk.take(page);
        for r in rows {
            if count >= limit {
                cut = true;
                break;
            }
            count += 1;
            match sink {
                Sink::Csv(c) => c.row(&r)?,
                Sink::Json { first } => {
                    let sep = if *first { "\n    " } else { ",\n    " };
                    *first = false;
                    write!(out, "{sep}").map_err(|e| stdout_failure(&e))?;
                    let mut line = Vec::new();
                    write_json_line(&mut line, &ResultJson::from(&r))
                        .map_err(|e| stdout_failure(&e))?;
                    out.write_all(line.trim_ascii_end())
                        .map_err(|e| stdout_failure(&e))?;
                }
                Sink::Table(t) => t.row(&[
                    r.result_id.clone(),
                    format!("{:.2}", r.score),
                    r.quality_tier.clone(),
                    result_name(&r),
                    r.canonical_lead
                        .as_ref()
                        .map(|c| c.title.clone())
                        .unwrap_or_default(),
                    result_company(&r).to_owned(),
                    r.canonical_lead
                        .as_ref()
                        .map(|c| c.email.clone())
                        .unwrap_or_default(),
                    r.status.clone(),
                ]),
            }
        }
    }
    // More match when --limit left rows out, or stopped a walk that had
    // pages to go.
    let more = cut || (!walk.done && walk.stopped.is_none());
    Ok((count, walk.stopped.clone(), more))
}

/// Reads the page the walk asks for.
async fn read_page(ctx: &Ctx, req: PageRequest) -> Result<Page, ApiError> {
    let req = match req {
        PageRequest::Search { id, page } => ApiRequest::GetSearch { id, page },
        PageRequest::Query { id, query } => ApiRequest::QueryResults { id, query },
    };
    Ok(match ctx.read::<ResultRows>(req).await? {
        ResultRows::Search(p) => Page {
            results: p.results,
            pagination: p.pagination,
        },
        ResultRows::Query(p) => Page {
            results: p.results,
            pagination: p.pagination,
        },
    })
}

fn fail(e: &ApiError) -> Failure {
    Failure::api("reading the results", e)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn where_values_are_json_when_they_read_as_json_else_text() {
        let p = predicates(&args(&[
            "person.seniority",
            "eq",
            "vp",
            "company.size",
            "gte",
            "200",
            "person.remote",
            "eq",
            "true",
            "company.zip",
            "eq",
            "\"01067\"",
            "company.delta",
            "lt",
            "-5",
        ]))
        .unwrap();
        let values: Vec<_> = p.iter().map(|p| p.value.clone()).collect();
        assert_eq!(
            values,
            [
                PredicateValue::Text("vp".into()),
                PredicateValue::Number(200.0),
                PredicateValue::Bool(true),
                PredicateValue::Text("01067".into()),
                PredicateValue::Number(-5.0),
            ]
        );
        assert_eq!(p[1].operator, Operator::Gte);
        let echoed: Vec<_> = p.iter().map(|p| PredicateJson::from(p).value).collect();
        assert_eq!(
            serde_json::to_string(&echoed).unwrap(),
            r#"["vp",200,true,"01067",-5]"#,
            "whole numbers are echoed as integers"
        );
        let half = predicates(&args(&["score", "gte", "0.25"])).unwrap();
        assert_eq!(PredicateJson::from(&half[0]).value, serde_json::json!(0.25));
        let err = predicates(&args(&["a", "like", "x"])).unwrap_err();
        assert_eq!(err.exit, Exit::Usage);
        assert!(
            err.message.contains("contains, eq, gt, gte, lt, lte"),
            "{}",
            err.message
        );
    }

    /// `results --json` names the same company as the CSV: the lead's,
    /// else the one the search matched, a blank one counting as none (the
    /// JSON kept a company of spaces where the CSV wrote the matched one).
    #[test]
    fn a_blank_company_is_the_matched_one_in_json_as_in_the_csv() {
        let r = LeadResult {
            entity_company: "Matched Co".into(),
            canonical_lead: Some(crate::api::model::CanonicalLead {
                company: "  ".into(),
                ..Default::default()
            }),
            ..LeadResult::default()
        };
        assert_eq!(ResultJson::from(&r).company, "Matched Co");
        assert_eq!(record(&r)[5], "Matched Co");
    }
}
