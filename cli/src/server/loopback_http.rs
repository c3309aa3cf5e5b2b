//! The accept loop of the HTTP listeners (MCP's streamable HTTP, the memory browser): at
//! most `max` connections at once, a bound on how long a client may take to send its
//! headers, and a graceful stop that waits a little for requests in flight.

use std::convert::Infallible;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::combinators::BoxBody;
use hyper::body::Incoming;
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;
use tokio::net::TcpListener;
use tokio::sync::watch;

/// An answer's body.
pub type Body = BoxBody<Bytes, Infallible>;

/// How long a client may take to send a request's headers.
const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// Answers each request on `listener` with `answer` until shutdown; `what` names the
/// listener in the log.
pub async fn serve<F, Fut>(
    listener: TcpListener,
    max: usize,
    what: &'static str,
    answer: F,
    mut stopped: watch::Receiver<bool>,
) where
    F: Fn(Request<Incoming>) -> Fut + Clone + Send + Sync + 'static,
    Fut: Future<Output = Response<Body>> + Send + 'static,
{
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    let slots = Arc::new(tokio::sync::Semaphore::new(max));
    loop {
        let slot = tokio::select! {
            slot = slots.clone().acquire_owned() => slot.expect("the semaphore is never closed"),
            () = super::until_stopped(&mut stopped) => break,
        };
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(e) => {
                    tracing::warn!("accepting {what} connection: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = super::until_stopped(&mut stopped) => break,
        };
        let _ = stream.set_nodelay(true);
        let answer = answer.clone();
        let service = hyper::service::service_fn(move |request| {
            let answered = answer(request);
            async move { Ok::<_, Infallible>(answered.await) }
        });
        let connection = hyper::server::conn::http1::Builder::new()
            .timer(hyper_util::rt::TokioTimer::new())
            .header_read_timeout(HEADER_TIMEOUT)
            .serve_connection(TokioIo::new(stream), service);
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                tracing::debug!("{what} connection: {e}");
            }
            drop(slot);
        });
    }
    if tokio::time::timeout(Duration::from_secs(5), graceful.shutdown())
        .await
        .is_err()
    {
        tracing::warn!("{what} connections still open at shutdown were dropped");
    }
}
