//! The embedded demo service (axum): the whole contract, simulated, for
//! `outpost --demo`, `outpost serve` and every test that needs a server.

use std::net::SocketAddr;
use std::time::Duration;

/// The key of the seeded demo workspace.
pub const DEMO_KEY: &str = "pk_live_demo";
/// The key of the second, small workspace.
pub const OTHER_KEY: &str = "pk_live_demo_other";

/// Fault injection for reliability tests, reproducible from `seed`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ChaosConfig {
    /// Seed of every random choice.
    pub seed: u64,
    /// Added latency per request.
    pub latency: Duration,
    /// Share of requests answered 500 `internal_error` (0.0 to 1.0).
    pub error_rate: f64,
    /// Share of requests answered 429 `rate_limited`.
    pub rate_429: f64,
    /// Share of requests answered with truncated or invalid JSON.
    pub malformed_rate: f64,
}

/// How the demo service runs.
#[derive(Debug, Clone, PartialEq)]
pub struct DemoConfig {
    /// Simulated seconds per real second.
    pub time_scale: f64,
    /// When set, one search holds this many results (performance work).
    pub scale: Option<usize>,
    /// Requests per second allowed per key and route.
    pub rate_limit_per_sec: u32,
    /// Fault injection.
    pub chaos: ChaosConfig,
    /// One JSON log line per request to stderr (`outpost serve`).
    pub log_requests: bool,
}

impl Default for DemoConfig {
    fn default() -> Self {
        DemoConfig {
            time_scale: 60.0,
            scale: None,
            rate_limit_per_sec: 20,
            chaos: ChaosConfig::default(),
            log_requests: false,
        }
    }
}

/// A running demo service.
#[derive(Debug)]
pub struct DemoHandle {
    /// The bound address.
    pub addr: SocketAddr,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
}

impl DemoHandle {
    /// `http://ADDR`, the base URL to give a client.
    pub fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }
}

impl Drop for DemoHandle {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
    }
}

/// Binds `addr` (use port 0 for any) and serves in the background on the
/// current tokio runtime until the handle is dropped.
pub async fn spawn(addr: SocketAddr, config: DemoConfig) -> std::io::Result<DemoHandle> {
    let listener = tokio::net::TcpListener::bind(addr).await?;
    let addr = listener.local_addr()?;
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let app = router(config);
    tokio::spawn(async move {
        let _ = axum::serve(listener, app)
            .with_graceful_shutdown(async {
                let _ = rx.await;
            })
            .await;
    });
    Ok(DemoHandle {
        addr,
        shutdown: Some(tx),
    })
}

fn router(_config: DemoConfig) -> axum::Router {
    axum::Router::new()
}
