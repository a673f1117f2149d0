//! `outpost serve --tls-cert/--tls-key`: the demo service over HTTPS, the
//! real service's only path, so the client's TLS (trust roots,
//! `SSL_CERT_FILE`, certificate errors) can be tried end to end.
//!
//! Handshakes run in their own tasks: a client that stalls or fails its
//! handshake never holds up the next connection. A failed handshake is
//! logged (on stderr, like requests) when requests are logged.

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio_rustls::TlsAcceptor;
use tokio_rustls::server::TlsStream;

/// Longest a handshake may take before its connection is dropped.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// The server side of TLS: a certificate chain and its key.
#[derive(Clone)]
pub struct Tls(TlsAcceptor);

impl std::fmt::Debug for Tls {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Tls")
    }
}

impl Tls {
    /// Reads a PEM certificate chain (leaf first) and its PEM private key;
    /// the error says which file is wrong and how.
    pub fn from_pem_files(cert: &Path, key: &Path) -> Result<Tls, String> {
        let chain: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(cert)
            .and_then(Iterator::collect)
            .map_err(|e| format!("cannot read the certificate {}: {e}", cert.display()))?;
        if chain.is_empty() {
            return Err(format!(
                "no PEM certificate (-----BEGIN CERTIFICATE-----) in {}",
                cert.display()
            ));
        }
        let key = PrivateKeyDer::from_pem_file(key)
            .map_err(|e| format!("cannot read the private key {}: {e}", key.display()))?;
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let config = rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .and_then(|b| b.with_no_client_auth().with_single_cert(chain, key))
            .map_err(|e| format!("the certificate and key do not make a TLS server: {e}"))?;
        Ok(Tls(TlsAcceptor::from(Arc::new(config))))
    }

    /// Accepts TCP connections on `tcp` and hands over each one whose
    /// handshake succeeded.
    pub(crate) fn listen(self, tcp: TcpListener, log: bool) -> std::io::Result<TlsListener> {
        let local = tcp.local_addr()?;
        let (tx, rx) = mpsc::channel(64);
        tokio::spawn(async move {
            loop {
                let accepted = tokio::select! {
                    accepted = tcp.accept() => accepted,
                    // The server stopped: free the port.
                    () = tx.closed() => return,
                };
                let Ok((stream, peer)) = accepted else {
                    // Out of file descriptors and the like: wait, as
                    // axum's own listener does.
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                };
                let acceptor = self.0.clone();
                let tx = tx.clone();
                tokio::spawn(async move {
                    let shake = tokio::time::timeout(HANDSHAKE_TIMEOUT, acceptor.accept(stream));
                    match shake.await {
                        Ok(Ok(tls)) => {
                            let _ = tx.send((tls, peer)).await;
                        }
                        Ok(Err(e)) if log => {
                            crate::errln!("outpost serve: TLS handshake with {peer} failed: {e}");
                        }
                        Err(_) if log => {
                            crate::errln!("outpost serve: TLS handshake with {peer} timed out");
                        }
                        _ => {}
                    }
                });
            }
        });
        Ok(TlsListener { rx, local })
    }
}

/// The connections of [`Tls::listen`], for `axum::serve`.
pub(crate) struct TlsListener {
    rx: mpsc::Receiver<(TlsStream<TcpStream>, SocketAddr)>,
    local: SocketAddr,
}

impl axum::serve::Listener for TlsListener {
    type Io = TlsStream<TcpStream>;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        match self.rx.recv().await {
            Some(conn) => conn,
            // The accept task ended: no connection will ever come.
            None => std::future::pending().await,
        }
    }

    fn local_addr(&self) -> std::io::Result<Self::Addr> {
        Ok(self.local)
    }
}
