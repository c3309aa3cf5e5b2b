//! MCP's streamable HTTP transport inside `serve --mcp ADDR`, at `/mcp`. Every HTTP
//! request must carry `Authorization: Bearer <token>`; the token is checked on each one
//! (so a revoked token stops at once), and its caller travels to the tools in the
//! request's extensions. The server is stateless: it keeps no MCP sessions, so there is
//! no session that another token could reuse and nothing for idle clients to pile up,
//! and it answers each request with plain JSON.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt as _, Full, combinators::BoxBody};
use hyper::body::Incoming;
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

use super::MemoryTools;
use crate::server::Shared;

type Body = BoxBody<Bytes, Infallible>;

/// The most MCP connections at once, and how long a client may take to send a request's
/// headers.
const MAX_CONNECTIONS: usize = 256;
const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// Serves `tools` on `listener` until shutdown.
pub async fn serve_http(
    listener: TcpListener,
    tools: MemoryTools,
    shared: Arc<Shared>,
    mut stopped: watch::Receiver<bool>,
) {
    let cancel = CancellationToken::new();
    let config = StreamableHttpServerConfig::default()
        .with_cancellation_token(cancel.child_token())
        .with_legacy_session_mode(false)
        .with_json_response(true);
    let mcp = StreamableHttpService::new(
        move || Ok(tools.clone()),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    let slots = Arc::new(tokio::sync::Semaphore::new(MAX_CONNECTIONS));
    loop {
        let slot = tokio::select! {
            slot = slots.clone().acquire_owned() => slot.expect("the semaphore is never closed"),
            () = crate::server::until_stopped(&mut stopped) => break,
        };
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(e) => {
                    tracing::warn!("accepting an MCP connection: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = crate::server::until_stopped(&mut stopped) => break,
        };
        let _ = stream.set_nodelay(true);
        let (mcp, shared) = (mcp.clone(), shared.clone());
        let service = hyper::service::service_fn(move |request| {
            let (mcp, shared) = (mcp.clone(), shared.clone());
            async move { Ok::<_, Infallible>(answer(request, &mcp, &shared).await) }
        });
        let connection = hyper::server::conn::http1::Builder::new()
            .timer(hyper_util::rt::TokioTimer::new())
            .header_read_timeout(HEADER_TIMEOUT)
            .serve_connection(TokioIo::new(stream), service);
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                tracing::debug!("MCP connection: {e}");
            }
            drop(slot);
        });
    }
    cancel.cancel();
    if tokio::time::timeout(Duration::from_secs(5), graceful.shutdown())
        .await
        .is_err()
    {
        tracing::warn!("MCP connections still open at shutdown were dropped");
    }
}

async fn answer(
    mut request: Request<Incoming>,
    mcp: &StreamableHttpService<MemoryTools, LocalSessionManager>,
    shared: &Shared,
) -> Response<Body> {
    if request.uri().path() != "/mcp" {
        return plain(StatusCode::NOT_FOUND, "MCP is served at /mcp");
    }
    // The scheme is case-insensitive (RFC 9110, section 11.1).
    let bearer = request
        .headers()
        .get(hyper::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, token)| token.trim().to_owned());
    let Some(token) = bearer else {
        return plain(
            StatusCode::UNAUTHORIZED,
            "a token is required: Authorization: Bearer <token>",
        );
    };
    match shared.tokens.verify(&token) {
        Ok(issued) => {
            request.extensions_mut().insert(issued.caller());
            mcp.handle(request).await
        }
        Err(crate::server::tokens::TokenError::Unreadable(why)) => {
            tracing::error!("tokens cannot be checked: {why}");
            plain(
                StatusCode::SERVICE_UNAVAILABLE,
                "tokens cannot be checked now; the server's log says why",
            )
        }
        Err(e) => plain(StatusCode::UNAUTHORIZED, &e.to_string()),
    }
}

fn plain(status: StatusCode, text: &str) -> Response<Body> {
    let mut response = Response::new(Full::new(Bytes::from(format!("{text}\n"))).boxed());
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(
        hyper::header::CONTENT_TYPE,
        "text/plain; charset=utf-8".parse().expect("a valid header"),
    );
    if status == StatusCode::UNAUTHORIZED {
        headers.insert(
            hyper::header::WWW_AUTHENTICATE,
            "Bearer".parse().expect("a valid header"),
        );
    }
    response
}
