//! One client connection: newline-delimited frames in, one answer line per request out,
//! in order. A frame is capped at [`MAX_FRAME`]; a bigger one gets an error and the
//! connection is closed (the rest of the oversized line cannot be told from the next
//! request), while the server and every other connection carry on. A connection that
//! owes a token gets [`AUTH_WINDOW`] to present it, in frames of at most
//! [`MAX_FRAME_BEFORE_TOKEN`], so that an anonymous client cannot hold much.

use tokio::io::{AsyncBufReadExt as _, AsyncRead, AsyncReadExt as _, AsyncWrite, AsyncWriteExt as _, BufReader};
use tokio::sync::watch;

use super::rpc::{self, RpcError};
use super::session::Session;

/// The largest frame accepted, newline excluded: 4 MiB. A memory is at most 16 KiB, so
/// this leaves room for a large batch while bounding what one client can make the
/// server hold.
pub const MAX_FRAME: usize = 4 * 1024 * 1024;
/// The largest frame from a connection that has not presented its token yet.
pub const MAX_FRAME_BEFORE_TOKEN: usize = 64 * 1024;
/// How long a connection that owes a token may take to present it.
pub const AUTH_WINDOW: std::time::Duration = std::time::Duration::from_secs(10);

enum Frame {
    Line,
    TooLong,
    End,
}

/// Serves one connection until the client closes it, sends an oversized frame, or the
/// server shuts down (a request already read is answered first).
pub async fn serve<S: AsyncRead + AsyncWrite>(stream: S, mut session: Session, mut shutdown: watch::Receiver<bool>) {
    let (read, mut write) = tokio::io::split(stream);
    let mut reader = BufReader::new(read);
    let mut frame = Vec::new();
    let deadline = tokio::time::Instant::now() + AUTH_WINDOW;
    loop {
        let limit = if session.awaiting_token() {
            MAX_FRAME_BEFORE_TOKEN
        } else {
            MAX_FRAME
        };
        // Biased: a request already sent is read (and answered) before shutdown is seen.
        let next = tokio::select! {
            biased;
            next = read_frame(&mut reader, &mut frame, limit) => next,
            () = super::until_stopped(&mut shutdown) => break,
            () = tokio::time::sleep_until(deadline), if session.awaiting_token() => {
                let e = RpcError::unauthenticated(format!("no token presented within {} s", AUTH_WINDOW.as_secs()));
                let _ = send(&mut write, &rpc::response(serde_json::Value::Null, Err(e))).await;
                break;
            }
        };
        let answer = match next {
            Ok(Frame::Line) if frame.iter().all(u8::is_ascii_whitespace) => continue,
            Ok(Frame::Line) => session.answer(&frame).await,
            Ok(Frame::TooLong) => {
                tracing::warn!("closing a connection that sent a frame over {limit} bytes");
                let e = RpcError::invalid_request(if limit == MAX_FRAME {
                    format!("message larger than {} MiB", MAX_FRAME >> 20)
                } else {
                    format!("message larger than {} KiB before a token", limit >> 10)
                });
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
    let _ = write.shutdown().await;
}

async fn send<W: AsyncWrite + Unpin>(write: &mut W, answer: &serde_json::Value) -> std::io::Result<()> {
    let mut line = serde_json::to_vec(answer).expect("JSON values serialize");
    line.push(b'\n');
    write.write_all(&line).await?;
    write.flush().await
}

/// Reads the next line into `frame` (without its line ending, `\n` or `\r\n`), reading
/// at most two bytes past `limit`.
async fn read_frame<R: AsyncRead + Unpin>(
    reader: &mut BufReader<R>,
    frame: &mut Vec<u8>,
    limit: usize,
) -> std::io::Result<Frame> {
    frame.clear();
    let read = reader.take(limit as u64 + 2).read_until(b'\n', frame).await?;
    if read == 0 {
        return Ok(Frame::End);
    }
    if frame.last() == Some(&b'\n') {
        frame.pop();
        if frame.last() == Some(&b'\r') {
            frame.pop();
        }
    }
    if frame.len() > limit {
        return Ok(Frame::TooLong);
    }
    Ok(Frame::Line)
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn frames(input: &[u8], limit: usize) -> Vec<Result<Vec<u8>, &'static str>> {
        let mut reader = BufReader::new(input);
        let mut frame = Vec::new();
        let mut out = Vec::new();
        loop {
            match read_frame(&mut reader, &mut frame, limit).await.unwrap() {
                Frame::Line => out.push(Ok(frame.clone())),
                Frame::TooLong => {
                    out.push(Err("too long"));
                    return out;
                }
                Frame::End => return out,
            }
        }
    }

    #[tokio::test]
    async fn frames_end_at_newlines_and_stop_at_the_cap() {
        let at_cap = [vec![b'x'; 8], b"\n".to_vec()].concat();
        assert_eq!(frames(&at_cap, 8).await, [Ok(vec![b'x'; 8])]);
        let crlf_at_cap = [vec![b'x'; 8], b"\r\n".to_vec()].concat();
        assert_eq!(frames(&crlf_at_cap, 8).await, [Ok(vec![b'x'; 8])]);
        let over = [vec![b'x'; 9], b"\n".to_vec()].concat();
        assert_eq!(frames(&over, 8).await, [Err("too long")]);
        assert_eq!(
            frames(b"ab\ncd", 8).await,
            [Ok(b"ab".to_vec()), Ok(b"cd".to_vec())],
            "a last line without its newline still counts"
        );
        assert_eq!(frames(b"", 8).await, []);
    }
}
