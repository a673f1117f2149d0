//! Process signals: SIGTERM, SIGHUP and SIGQUIT (and Ctrl-C outside raw
//! mode) all mean "save and quit".

/// Waits for a signal that asks the process to end.
pub async fn wait_for_shutdown() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let mut streams = Vec::new();
        for kind in [
            SignalKind::terminate(),
            SignalKind::hangup(),
            SignalKind::quit(),
            SignalKind::interrupt(),
        ] {
            match signal(kind) {
                Ok(s) => streams.push(s),
                Err(e) => tracing::warn!("cannot watch signal {kind:?}: {e}"),
            }
        }
        if streams.is_empty() {
            std::future::pending::<()>().await;
        }
        let waits = streams.iter_mut().map(|s| Box::pin(s.recv()));
        let _ = futures_select_all(waits).await;
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// Resolves when the first of the futures does.
async fn futures_select_all<F: std::future::Future + Unpin>(futs: impl Iterator<Item = F>) {
    let mut futs: Vec<F> = futs.collect();
    std::future::poll_fn(move |cx| {
        for f in &mut futs {
            if std::pin::Pin::new(f).poll(cx).is_ready() {
                return std::task::Poll::Ready(());
            }
        }
        std::task::Poll::Pending
    })
    .await;
}
