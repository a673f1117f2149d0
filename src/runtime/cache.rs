//! The last-known lists on disk (`app::cache`): `cache.json` beside the
//! workspace's state file, read at start while the first requests are in
//! flight, and written behind by one task — in order, only the newest of
//! a burst, awaited on the way out so the save on quit lands. It is only a
//! cache: whatever goes wrong is logged, never shown.

use std::path::Path;

use tokio::sync::mpsc::{self, UnboundedReceiver, UnboundedSender};
use tokio::task::JoinHandle;

use crate::app::cache::{CACHE_VERSION, Cache, MAX_FILE_BYTES};
use crate::store::CacheFile;

/// The cache's file name, beside the state file of its workspace.
pub(crate) const FILE_NAME: &str = "cache.json";

/// The cache file of the workspace whose state file is `state_file`.
pub(crate) fn beside(state_file: &Path) -> CacheFile {
    CacheFile::new(state_file.with_file_name(FILE_NAME))
}

/// Reads the last-known lists of the service at `host`. `None` when there
/// are none, or they cannot be used: unreadable, corrupt, of another
/// format, or of another service (the profile's address changed) — logged.
pub(crate) fn load(file: &CacheFile, host: &str) -> Option<Cache> {
    let path = file.path().display();
    match file.load::<Cache>(CACHE_VERSION, MAX_FILE_BYTES) {
        Ok(Some(c)) if c.host == host => {
            tracing::info!("last-known lists read from {path}");
            Some(c)
        }
        Ok(Some(c)) => {
            tracing::info!(
                "last-known lists in {path} are of {}, not {host}: not shown",
                c.host
            );
            None
        }
        Ok(None) => None,
        Err(why) => {
            tracing::warn!("last-known lists in {path} ignored: {why}");
            None
        }
    }
}

/// Starts reading the last-known lists on a blocking thread now (see
/// [`load`]); the answer is awaited before the first frame.
pub(crate) fn read_behind(
    file: Option<CacheFile>,
    host: String,
) -> impl Future<Output = Option<Cache>> {
    let read = file.map(|file| tokio::task::spawn_blocking(move || load(&file, &host)));
    async move {
        match read {
            Some(read) => read.await.ok().flatten(),
            None => None,
        }
    }
}

/// One write: where, and what.
type Job = (CacheFile, Box<Cache>);

/// Writes caches behind, one at a time, in the order asked.
#[derive(Debug)]
pub(crate) struct Writer {
    tx: UnboundedSender<Job>,
    task: JoinHandle<()>,
}

impl Writer {
    /// Starts the writer task (needs a tokio runtime).
    pub(crate) fn spawn() -> Writer {
        let (tx, rx) = mpsc::unbounded_channel();
        Writer {
            tx,
            task: tokio::spawn(write_all(rx)),
        }
    }

    /// Asks for `cache` to be written to `file`.
    pub(crate) fn save(&self, file: CacheFile, cache: Box<Cache>) {
        // The task only ends after `finish`, which consumes the writer.
        let _ = self.tx.send((file, cache));
    }

    /// Waits until everything asked is written.
    pub(crate) async fn finish(self) {
        drop(self.tx);
        let _ = self.task.await;
    }
}

/// The writer task: a burst of saves is written once per file, newest.
async fn write_all(mut rx: UnboundedReceiver<Job>) {
    while let Some(first) = rx.recv().await {
        let mut jobs = vec![first];
        while let Ok(next) = rx.try_recv() {
            jobs.retain(|(f, _)| *f != next.0);
            jobs.push(next);
        }
        for (file, cache) in jobs {
            let written = tokio::task::spawn_blocking(move || {
                let result = file.save(&*cache);
                (file, result)
            })
            .await;
            match written {
                Ok((_, Ok(()))) => {}
                Ok((file, Err(e))) => {
                    tracing::warn!(
                        "last-known lists not saved to {}: {e}",
                        file.path().display()
                    );
                }
                Err(e) => tracing::warn!("last-known lists not saved: {e}"),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::model::SendingDomain;
    use crate::app::cache::Cached;

    fn cache(host: &str, names: &[&str]) -> Cache {
        let items: Vec<SendingDomain> = names
            .iter()
            .map(|n| SendingDomain {
                id: (*n).into(),
                domain: (*n).into(),
                ..SendingDomain::default()
            })
            .collect();
        Cache {
            host: host.into(),
            domains: Some(Cached::of(&items, 5)),
            ..Cache::default()
        }
    }

    #[tokio::test]
    async fn the_newest_save_lands_and_reads_back_for_its_service_only() {
        let dir = tempfile::tempdir().unwrap();
        let file = beside(&dir.path().join("state.json"));
        assert_eq!(file.path(), dir.path().join("cache.json"));
        assert_eq!(load(&file, "h:1"), None, "no file: nothing");
        let w = Writer::spawn();
        for n in ["a", "b", "c"] {
            w.save(file.clone(), Box::new(cache("h:1", &[n])));
        }
        w.finish().await;
        let back = load(&file, "h:1").unwrap();
        assert_eq!(back, cache("h:1", &["c"]), "the last one asked");
        assert_eq!(load(&file, "other:2"), None, "another service's lists");
        let left: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .filter_map(Result::ok)
            .map(|e| e.file_name())
            .collect();
        assert_eq!(left, ["cache.json"], "no temp file left");
    }

    /// What `tracing` logs while `f` runs on this thread.
    fn logged(f: impl FnOnce()) -> String {
        use std::sync::{Arc, Mutex};
        let buf: Arc<Mutex<Vec<u8>>> = Arc::default();
        let sink = buf.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_writer(move || Sink(sink.clone()))
            .with_ansi(false)
            .finish();
        tracing::subscriber::with_default(subscriber, f);
        let bytes = buf.lock().map(|b| b.clone()).unwrap_or_default();
        String::from_utf8_lossy(&bytes).into_owned()
    }

    struct Sink(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

    impl std::io::Write for Sink {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            if let Ok(mut v) = self.0.lock() {
                v.extend_from_slice(b);
            }
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_corrupt_cache_is_ignored_with_a_log_line() {
        let dir = tempfile::tempdir().unwrap();
        let file = beside(&dir.path().join("state.json"));
        std::fs::write(file.path(), b"{\"v\":1,\"domains\":{\"as_of\":").unwrap();
        let mut read = Some(Cache::default());
        let log = logged(|| read = load(&file, ""));
        assert_eq!(read, None);
        assert!(
            log.contains("WARN") && log.contains("ignored: it is corrupt"),
            "{log}"
        );
        std::fs::write(file.path(), b"{\"v\":99}").unwrap();
        let log = logged(|| read = load(&file, ""));
        assert_eq!(read, None, "another format");
        assert!(log.contains("format 99"), "{log}");
    }
}
