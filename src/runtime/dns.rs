//! Outpost's own DNS lookups (`Cmd::ResolveRecords`): each question asked
//! with hickory-resolver on tokio, all of a batch at once, each within a
//! time limit, answered by one `Msg::DnsResolved`. Nothing here blocks the
//! loop: the resolver is built (reading the system's settings when no
//! resolver is configured) inside the task, on first use.

use std::net::SocketAddr;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use hickory_resolver::config::{ConnectionConfig, NameServerConfig, ResolveHosts, ResolverConfig};
use hickory_resolver::net::runtime::TokioRuntimeProvider;
use hickory_resolver::proto::rr::{Name, RData, Record, RecordType};
use hickory_resolver::{Resolver, TokioResolver};
use tokio::sync::OnceCell;
use tokio::sync::mpsc::UnboundedSender;
use tokio::task::JoinSet;

use crate::app::{Msg, RequestId};
use crate::dns::{Answers, Found, Lookup, Query};

/// The longest one lookup may take, retries included.
pub(crate) const LOOKUP_TIMEOUT: Duration = Duration::from_secs(6);

/// Each attempt's own limit (the resolver tries twice).
const ATTEMPT_TIMEOUT: Duration = Duration::from_secs(2);

/// The resolver of the DNS checks: the configured address, or the system's.
/// Cheap to clone; built once, on first use.
#[derive(Clone)]
pub struct DnsResolver {
    target: Option<SocketAddr>,
    timeout: Duration,
    built: Arc<OnceCell<Result<TokioResolver, String>>>,
}

impl std::fmt::Debug for DnsResolver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DnsResolver")
            .field("target", &self.target)
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

impl Default for DnsResolver {
    /// The system's resolver.
    fn default() -> Self {
        DnsResolver::new(crate::config::dns::Dns::default())
    }
}

impl DnsResolver {
    /// The resolver `[dns]` names (the system's when it names none).
    pub fn new(settings: crate::config::dns::Dns) -> DnsResolver {
        DnsResolver {
            target: settings.resolver,
            timeout: LOOKUP_TIMEOUT,
            built: Arc::new(OnceCell::new()),
        }
    }

    /// The same resolver with another limit per lookup (tests).
    pub fn with_timeout(mut self, timeout: Duration) -> DnsResolver {
        self.timeout = timeout;
        self
    }

    /// Which resolver answers, as shown: `1.1.1.1:53` or `system resolver`.
    pub fn label(&self) -> String {
        self.target
            .map_or_else(|| "system resolver".to_owned(), |a| a.to_string())
    }

    /// Asks every question at once; each answer within the time limit.
    pub async fn resolve(&self, queries: Vec<Query>) -> Answers {
        let resolver = self
            .built
            .get_or_init(|| async { build(self.target) })
            .await;
        let lookups = match resolver {
            Ok(r) => ask_all(r, queries, self.timeout).await,
            Err(why) => queries
                .into_iter()
                .map(|q| (q, Lookup::Failed(why.clone())))
                .collect(),
        };
        Answers {
            resolver: self.label(),
            lookups,
        }
    }
}

/// Runs a `Cmd::ResolveRecords` in the background; the answers come back
/// on `tx` as `Msg::DnsResolved`.
pub(crate) fn spawn(
    dns: &DnsResolver,
    id: RequestId,
    queries: Vec<Query>,
    tx: &UnboundedSender<Msg>,
) {
    let (dns, tx) = (dns.clone(), tx.clone());
    tokio::spawn(async move {
        let answers = dns.resolve(queries).await;
        // The receiver is gone only when the dashboard is closing.
        let _ = tx.send(Msg::DnsResolved { id, answers });
    });
}

/// The hickory resolver: the configured address over UDP (TCP when an
/// answer is too long), or the system's settings. Its cache keeps no
/// answer longer than the checks' own short cache, so a record just
/// published is seen at the next check, whatever its TTL.
fn build(target: Option<SocketAddr>) -> Result<TokioResolver, String> {
    let mut builder = match target {
        Some(addr) => {
            let mut udp = ConnectionConfig::udp();
            udp.port = addr.port();
            let mut tcp = ConnectionConfig::tcp();
            tcp.port = addr.port();
            let server = NameServerConfig::new(addr.ip(), true, vec![udp, tcp]);
            Resolver::builder_with_config(
                ResolverConfig::from_name_servers(vec![server]),
                TokioRuntimeProvider::default(),
            )
        }
        None => Resolver::builder_tokio()
            .map_err(|e| format!("cannot read the system's DNS settings: {e}"))?,
    };
    let opts = builder.options_mut();
    opts.timeout = ATTEMPT_TIMEOUT;
    opts.attempts = 2;
    opts.positive_max_ttl = Some(crate::dns::CACHE_FOR);
    opts.negative_max_ttl = Some(crate::dns::CACHE_FOR);
    // /etc/hosts holds no TXT or MX record: only DNS tells.
    opts.use_hosts_file = ResolveHosts::Never;
    builder
        .build()
        .map_err(|e| format!("cannot set up the DNS resolver: {e}"))
}

/// Every question at once, answered in the order asked.
async fn ask_all(r: &TokioResolver, queries: Vec<Query>, limit: Duration) -> Vec<(Query, Lookup)> {
    let mut set = JoinSet::new();
    for (i, q) in queries.iter().enumerate() {
        let (r, q) = (r.clone(), q.clone());
        set.spawn(async move { (i, ask(&r, &q, limit).await) });
    }
    let mut answers: Vec<Option<Lookup>> = vec![None; queries.len()];
    while let Some(done) = set.join_next().await {
        if let Ok((i, lookup)) = done
            && let Some(slot) = answers.get_mut(i)
        {
            *slot = Some(lookup);
        }
    }
    queries
        .into_iter()
        .zip(answers)
        .map(|(q, a)| {
            let a = a.unwrap_or_else(|| Lookup::Failed("the lookup stopped".into()));
            (q, a)
        })
        .collect()
}

/// One question.
async fn ask(r: &TokioResolver, q: &Query, limit: Duration) -> Lookup {
    let Ok(kind) = RecordType::from_str(&q.kind) else {
        return Lookup::Failed(format!("cannot check a {} record", q.kind));
    };
    let Ok(name) = Name::from_ascii(&q.name) else {
        return Lookup::Failed(format!("{} is not a DNS name", q.name));
    };
    match tokio::time::timeout(limit, r.lookup(name, kind)).await {
        Err(_) => Lookup::Failed(format!(
            "no answer within {}",
            crate::text::format::duration(limit)
        )),
        Ok(Ok(lookup)) => {
            let found: Vec<Found> = lookup
                .answers()
                .iter()
                .filter(|rec| rec.record_type() == kind)
                .map(found)
                .collect();
            if found.is_empty() {
                Lookup::NoRecords
            } else {
                Lookup::Records(found)
            }
        }
        Ok(Err(e)) if e.is_nx_domain() => Lookup::NoName,
        Ok(Err(e)) if e.is_no_records_found() => Lookup::NoRecords,
        Ok(Err(e)) => Lookup::Failed(e.to_string()),
    }
}

/// One record as the checks compare it.
fn found(rec: &Record) -> Found {
    let plain = |value: String| Found {
        priority: None,
        value,
    };
    match &rec.data {
        // A long value comes in strings of at most 255 bytes: one value.
        RData::TXT(txt) => plain(String::from_utf8_lossy(&txt.txt_data.concat()).into_owned()),
        RData::MX(mx) => Found {
            priority: Some(mx.preference),
            value: mx.exchange.to_ascii(),
        },
        RData::CNAME(c) => plain(c.0.to_ascii()),
        RData::A(a) => plain(a.0.to_string()),
        RData::AAAA(a) => plain(a.0.to_string()),
        other => plain(other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::dns::Dns;
    use crate::dns::test_server::{TestDns, TestRecord};

    fn q(name: &str, kind: &str) -> Query {
        Query {
            name: name.into(),
            kind: kind.into(),
        }
    }

    fn resolver(addr: SocketAddr) -> DnsResolver {
        DnsResolver::new(Dns {
            resolver: Some(addr),
        })
    }

    #[tokio::test]
    async fn answers_come_back_per_question_against_a_local_server() {
        let server = TestDns::start().unwrap();
        let key = "p=".to_owned() + &"A".repeat(400);
        server.publish("s1._domainkey.x.io", TestRecord::txt(&key));
        server.publish("send.x.io", TestRecord::Mx(10, "mx.example.net".into()));
        let dns = resolver(server.addr());
        assert_eq!(dns.label(), server.addr().to_string());
        let answers = dns
            .resolve(vec![
                q("s1._domainkey.x.io.", "TXT"),
                q("send.x.io.", "MX"),
                q("send.x.io.", "TXT"),
                q("_dmarc.x.io.", "TXT"),
                q("x.io.", "BOGUS"),
            ])
            .await;
        let l = &answers.lookups;
        assert_eq!(l.len(), 5);
        assert_eq!(
            l[0].1,
            Lookup::Records(vec![Found {
                priority: None,
                value: key,
            }]),
            "the 255-byte strings joined into one value"
        );
        assert_eq!(
            l[1].1,
            Lookup::Records(vec![Found {
                priority: Some(10),
                value: "mx.example.net.".into(),
            }])
        );
        assert_eq!(l[2].1, Lookup::NoRecords, "the name holds only an MX");
        assert_eq!(l[3].1, Lookup::NoName);
        assert!(
            matches!(&l[4].1, Lookup::Failed(why) if why.contains("BOGUS")),
            "{:?}",
            l[4]
        );
    }

    #[tokio::test]
    async fn a_record_published_later_is_seen_at_the_next_lookup() {
        let server = TestDns::start().unwrap();
        server.publish("x.io", TestRecord::txt("v=spf1 -all"));
        let dns = resolver(server.addr());
        let ask = || dns.resolve(vec![q("_dmarc.x.io.", "TXT")]);
        assert_eq!(ask().await.lookups[0].1, Lookup::NoName);
        server.publish("_dmarc.x.io", TestRecord::txt("v=DMARC1; p=none"));
        let seen = ask().await.lookups[0].1.clone();
        assert!(matches!(seen, Lookup::Records(_)), "{seen:?}");
    }

    #[tokio::test]
    async fn a_silent_server_fails_within_the_limit() {
        // Bound, never read: every query goes unanswered.
        let silent = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
        let dns = resolver(silent.local_addr().unwrap()).with_timeout(Duration::from_millis(300));
        let answers = dns.resolve(vec![q("x.io.", "TXT")]).await;
        assert!(
            matches!(&answers.lookups[0].1, Lookup::Failed(why) if why.starts_with("no answer within")),
            "{:?}",
            answers.lookups
        );
    }
}
