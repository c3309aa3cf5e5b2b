//! One client connection: newline-delimited frames in, one answer line per request out,
//! in order. A frame is capped at [`MAX_FRAME`]; a bigger one gets an error and the
//! connection is closed (the rest of the oversized line cannot be told from the next
//! request), while the server and every other connection carry on.

use tokio::io::{AsyncBufReadExt as _, AsyncRead, AsyncReadExt as _, AsyncWrite, AsyncWriteExt as _, BufReader};
use tokio::sync::watch;

use super::rpc::{self, RpcError};
use super::session::Session;

/// The largest frame accepted, newline excluded: 4 MiB. A memory is at most 16 KiB, so
/// this leaves room for a large batch while bounding what one client can make the
/// server hold.
pub const MAX_FRAME: usize = 4 * 1024 * 1024;

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
    loop {
        let next = tokio::select! {
            next = read_frame(&mut reader, &mut frame) => next,
            () = super::until_stopped(&mut shutdown) => break,
        };
        let answer = match next {
            Ok(Frame::Line) if frame.iter().all(u8::is_ascii_whitespace) => continue,
            Ok(Frame::Line) => session.answer(&frame).await,
            Ok(Frame::TooLong) => {
                tracing::warn!("closing a connection that sent a frame over {MAX_FRAME} bytes");
                let e = RpcError::invalid_request(format!("message larger than {} MiB", MAX_FRAME >> 20));
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
    }
    let _ = write.shutdown().await;
}

async fn send<W: AsyncWrite + Unpin>(write: &mut W, answer: &serde_json::Value) -> std::io::Result<()> {
    let mut line = serde_json::to_vec(answer).expect("JSON values serialize");
    line.push(b'\n');
    write.write_all(&line).await?;
    write.flush().await
}

/// Reads the next line into `frame` (without its line ending), reading at most one byte
/// past the cap.
async fn read_frame<R: AsyncRead + Unpin>(reader: &mut BufReader<R>, frame: &mut Vec<u8>) -> std::io::Result<Frame> {
    frame.clear();
    let read = reader.take(MAX_FRAME as u64 + 2).read_until(b'\n', frame).await?;
    if read == 0 {
        return Ok(Frame::End);
    }
    if frame.last() == Some(&b'\n') {
        frame.pop();
        if frame.last() == Some(&b'\r') {
            frame.pop();
        }
    }
    if frame.len() > MAX_FRAME {
        return Ok(Frame::TooLong);
    }
    Ok(Frame::Line)
}
