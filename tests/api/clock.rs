//! The service's clock: the client measures it from the `Date` of each
//! answer, and the demo service stamps its answers with its simulated
//! clock, so a dashboard measures ages against the clock that stamped the
//! times it shows.

use std::time::{SystemTime, UNIX_EPOCH};

use outpost::testkit::api::{ApiKey, Client, ClientConfig};
use outpost::testkit::demo::DemoConfig;
use serde_json::json;

use crate::support::{Reply, Server};

fn client(base: String, key: &str) -> Client {
    let key = ApiKey::parse(key).unwrap_or_else(|e| panic!("key: {e}"));
    Client::new(ClientConfig::new(base, key)).unwrap_or_else(|e| panic!("client: {e}"))
}

fn wall_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(0))
}

#[tokio::test]
async fn the_client_measures_a_service_clock_an_hour_behind() {
    let behind = httpdate::fmt_http_date(SystemTime::now() - std::time::Duration::from_secs(3600));
    let server =
        Server::start(move |_, _| Reply::json(200, &json!({})).header("Date", &behind)).await;
    let c = client(server.url(), "pk_live_clocktest0000000000");
    assert_eq!(c.clock_offset(), 0, "nothing known before an answer");
    let _ = c.get_context().await;
    let offset = c.clock_offset();
    assert!((-3602..=-3598).contains(&offset), "offset {offset}");
}

#[tokio::test]
async fn the_demo_service_stamps_its_answers_with_its_own_clock() {
    // A service whose clock reads an hour ahead of this machine's.
    let cfg = DemoConfig {
        time_scale: 1.0,
        epoch_ms: Some(wall_ms() + 3_600_000),
        ..DemoConfig::default()
    };
    let handle = outpost::testkit::demo::spawn("127.0.0.1:0".parse().expect("addr"), cfg)
        .await
        .expect("demo service");
    let c = client(handle.base_url(), outpost::testkit::demo::DEMO_KEY);
    c.get_context().await.expect("the context answers");
    let offset = c.clock_offset();
    assert!((3598..=3602).contains(&offset), "offset {offset}");
}
