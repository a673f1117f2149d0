//! A tiny DNS server on 127.0.0.1 for tests: it answers UDP queries from a
//! zone the test edits while it runs (publish a record, take one away), so
//! a test can watch a record turn from missing to found. It knows TXT, MX,
//! CNAME and A records; a name it holds without the asked type gets an
//! empty answer, a name it does not hold NXDOMAIN. Only in test builds.

use std::collections::BTreeMap;
use std::net::{Ipv4Addr, SocketAddr, UdpSocket};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

use hickory_resolver::proto::op::{Message, ResponseCode};
use hickory_resolver::proto::rr::rdata::{A, CNAME, MX, TXT};
use hickory_resolver::proto::rr::{Name, RData, Record, RecordType};

/// A record the test server holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TestRecord {
    /// A TXT record: its strings (a long value split as DNS carries it).
    Txt(Vec<String>),
    /// An MX record: preference and exchange.
    Mx(u16, String),
    /// A CNAME record: the target.
    Cname(String),
    /// An A record.
    A(Ipv4Addr),
}

impl TestRecord {
    /// A TXT record holding `value`, split into strings of at most 255
    /// bytes as DNS carries long values (DKIM keys).
    pub fn txt(value: &str) -> TestRecord {
        let bytes = value.as_bytes();
        let strings = bytes
            .chunks(255)
            .map(|c| String::from_utf8_lossy(c).into_owned())
            .collect();
        TestRecord::Txt(strings)
    }

    fn kind(&self) -> RecordType {
        match self {
            TestRecord::Txt(_) => RecordType::TXT,
            TestRecord::Mx(..) => RecordType::MX,
            TestRecord::Cname(_) => RecordType::CNAME,
            TestRecord::A(_) => RecordType::A,
        }
    }

    fn rdata(&self) -> Option<RData> {
        Some(match self {
            TestRecord::Txt(strings) => RData::TXT(TXT::new(strings.clone())),
            TestRecord::Mx(p, host) => RData::MX(MX::new(*p, Name::from_ascii(host).ok()?)),
            TestRecord::Cname(host) => RData::CNAME(CNAME(Name::from_ascii(host).ok()?)),
            TestRecord::A(ip) => RData::A(A(*ip)),
        })
    }
}

/// Records by lower-case name without the trailing dot.
type Zone = BTreeMap<String, Vec<TestRecord>>;

/// The running server; stops when dropped.
#[derive(Debug)]
pub struct TestDns {
    addr: SocketAddr,
    zone: Arc<Mutex<Zone>>,
    queries: Arc<AtomicU64>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

fn key(name: &str) -> String {
    name.trim().trim_end_matches('.').to_ascii_lowercase()
}

impl TestDns {
    /// Starts a server on a free port of 127.0.0.1.
    pub fn start() -> std::io::Result<TestDns> {
        let socket = UdpSocket::bind("127.0.0.1:0")?;
        socket.set_read_timeout(Some(Duration::from_millis(50)))?;
        let addr = socket.local_addr()?;
        let zone = Arc::new(Mutex::new(Zone::new()));
        let queries = Arc::new(AtomicU64::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let (z, q, s) = (zone.clone(), queries.clone(), stop.clone());
        let thread = std::thread::spawn(move || serve(&socket, &z, &q, &s));
        Ok(TestDns {
            addr,
            zone,
            queries,
            stop,
            thread: Some(thread),
        })
    }

    /// Where it listens.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Adds a record at `name`.
    pub fn publish(&self, name: &str, record: TestRecord) {
        let mut zone = self.zone.lock().unwrap_or_else(PoisonError::into_inner);
        zone.entry(key(name)).or_default().push(record);
    }

    /// Takes every record of `name` away.
    pub fn remove(&self, name: &str) {
        let mut zone = self.zone.lock().unwrap_or_else(PoisonError::into_inner);
        zone.remove(&key(name));
    }

    /// Queries answered so far.
    pub fn queries(&self) -> u64 {
        self.queries.load(Ordering::Relaxed)
    }
}

impl Drop for TestDns {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn serve(socket: &UdpSocket, zone: &Mutex<Zone>, queries: &AtomicU64, stop: &AtomicBool) {
    let mut buf = [0u8; 4096];
    while !stop.load(Ordering::Relaxed) {
        let Ok((n, from)) = socket.recv_from(&mut buf) else {
            continue;
        };
        let Ok(request) = Message::from_vec(&buf[..n]) else {
            continue;
        };
        queries.fetch_add(1, Ordering::Relaxed);
        let zone = zone.lock().unwrap_or_else(PoisonError::into_inner).clone();
        if let Ok(bytes) = answer(&request, &zone).to_vec() {
            let _ = socket.send_to(&bytes, from);
        }
    }
}

/// The response to one request.
fn answer(request: &Message, zone: &Zone) -> Message {
    let mut response = Message::response(request.metadata.id, request.metadata.op_code);
    response.metadata.authoritative = true;
    response.metadata.recursion_desired = request.metadata.recursion_desired;
    response.metadata.recursion_available = true;
    response.add_queries(request.queries.clone());
    let mut known = false;
    for q in &request.queries {
        let Some(records) = zone.get(&key(&q.name().to_ascii())) else {
            continue;
        };
        known = true;
        for r in records.iter().filter(|r| r.kind() == q.query_type()) {
            if let Some(data) = r.rdata() {
                // A zero TTL: nothing in between keeps an old answer.
                response.add_answer(Record::from_rdata(q.name().clone(), 0, data));
            }
        }
    }
    if !known {
        response.metadata.response_code = ResponseCode::NXDomain;
    }
    response
}
