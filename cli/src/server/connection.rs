//! One client connection: newline-delimited frames in, one answer line per request out,
//! in order. A frame is capped at [`MAX_FRAME`] (the line rules are `frame`'s); a bigger
//! one gets an error and the connection is closed (a client that sends one is broken or
//! hostile, and the rest of its line is not worth reading), while the server and every
//! other connection carry on. A connection that owes a token gets [`AUTH_WINDOW`] to
//! present it, in frames of at most [`MAX_FRAME_BEFORE_TOKEN`], so that an anonymous
//! client cannot hold much.

use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt as _, BufReader};
use tokio::sync::watch;

use super::frame::{self, Frame, MAX_FRAME};
use super::peers::{Place, Ticket};
use super::rpc::{self, RpcError};
use super::session::Session;

/// The largest frame from a connection that has not presented its token yet.
pub const MAX_FRAME_BEFORE_TOKEN: usize = 64 * 1024;
/// How long a connection that owes a token may take to present it.
pub const AUTH_WINDOW: std::time::Duration = std::time::Duration::from_secs(10);

/// Serves one connection until the client closes it, sends an oversized frame, or the
/// server shuts down (a request already read is answered first). `ticket` counts the
/// connection against its peer's share of token-less connections until it has a token;
/// `place` holds its place among a listener's token-less connections, which a newcomer
/// may end.
pub async fn serve<S: AsyncRead + AsyncWrite>(
    stream: S,
    mut session: Session,
    mut ticket: Option<Ticket>,
    mut place: Option<Place>,
    mut shutdown: watch::Receiver<bool>,
) {
    let (read, mut write) = tokio::io::split(stream);
    let mut reader = BufReader::new(read);
    let mut frame = Vec::new();
    let deadline = tokio::time::Instant::now() + AUTH_WINDOW;
    loop {
        if !session.awaiting_token() {
            ticket = None;
            place = None;
        }
        let limit = if session.awaiting_token() {
            MAX_FRAME_BEFORE_TOKEN
        } else {
            MAX_FRAME
        };
        // Biased: a request already sent is read (and answered) before shutdown is seen.
        let next = tokio::select! {
            biased;
            next = frame::read_frame(&mut reader, &mut frame, limit) => next,
            () = super::until_stopped(&mut shutdown) => break,
            () = tokio::time::sleep_until(deadline), if session.awaiting_token() => {
                let e = RpcError::unauthenticated(format!("no token presented within {} s", AUTH_WINDOW.as_secs()));
                let _ = send(&mut write, &rpc::response(serde_json::Value::Null, Err(e))).await;
                break;
            }
            () = wait_ended(place.as_ref()), if session.awaiting_token() && place.is_some() => {
                tracing::warn!("closing a connection that waited longest without a token, to make room");
                let e = RpcError::unauthenticated(
                    "closed to make room for newer connections: present a token in the first line",
                );
                let _ = send(&mut write, &rpc::response(serde_json::Value::Null, Err(e))).await;
                break;
            }
        };
        let answer = match next {
            Ok(Frame::Line) if frame::is_blank(&frame) => continue,
            Ok(Frame::Line) => session.answer(&frame).await,
            Ok(Frame::TooLong) => {
                tracing::warn!("closing a connection that sent a frame over {limit} bytes");
                let e = frame::too_long(limit);
                let _ = send(&mut write, &rpc::response(serde_json::Value::Null, Err(e))).await;
                break;
            }
            Ok(Frame::End) => break,
            Err(e) => {
                tracing::debug!("connection read failed: {e}");
                break;
            }
        };
        if let Some(answer) = answer
            && send(&mut write, &answer).await.is_err()
        {
            break;
        }
        // One big frame should not pin megabytes for the rest of a long connection.
        frame.shrink_to(MAX_FRAME_BEFORE_TOKEN);
    }
    drop(ticket);
    let _ = write.shutdown().await;
}

/// Resolves when a newcomer ends the wait of the connection at `place`.
async fn wait_ended(place: Option<&Place>) {
    match place {
        Some(place) => place.ended.notified().await,
        None => std::future::pending().await,
    }
}

/// Writes one answer line.
pub async fn send<W: AsyncWrite + Unpin>(write: &mut W, answer: &serde_json::Value) -> std::io::Result<()> {
    let mut line = serde_json::to_vec(answer).expect("JSON values serialize");
    line.push(b'\n');
    write.write_all(&line).await?;
    write.flush().await
}
