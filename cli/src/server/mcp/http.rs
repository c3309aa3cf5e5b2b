//! MCP's streamable HTTP transport inside `serve --mcp ADDR`, at `/mcp`. Every HTTP
//! request must carry `Authorization: Bearer <token>`; the token is checked on each one
//! (so a revoked token stops at once), and its caller travels to the tools in the
//! request's extensions. The server is stateless: it keeps no MCP sessions, so there is
//! no session that another token could reuse and nothing for idle clients to pile up,
//! and it answers each request with plain JSON.

use std::sync::Arc;

use bytes::Bytes;
use http_body_util::{BodyExt as _, Full};
use hyper::body::Incoming;
use hyper::{Request, Response, StatusCode};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

use super::MemoryTools;
use crate::server::Shared;

use crate::server::loopback_http::Body;

/// The most MCP connections at once.
const MAX_CONNECTIONS: usize = 256;

/// Serves `tools` on `listener` until shutdown.
pub async fn serve_http(
    listener: TcpListener,
    tools: MemoryTools,
    shared: Arc<Shared>,
    stopped: watch::Receiver<bool>,
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
    let answer = move |request: Request<Incoming>| {
        let (mcp, shared) = (mcp.clone(), shared.clone());
        async move { answer(request, &mcp, &shared).await }
    };
    crate::server::loopback_http::serve(listener, MAX_CONNECTIONS, "MCP", answer, stopped).await;
    cancel.cancel();
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
