//! MCP's stdio transport, reading lines by the rules the JSON-RPC sockets use (`frame`):
//! every line gets an answer or is a message for the handler. The SDK's own transport
//! drops a line that is not JSON, is not UTF-8 or is too long, and a client that sent one
//! waits forever for its answer; here such a line is answered with -32700 or -32600 and
//! the next line is read as usual (an oversized line is skipped to its end: on stdio there
//! is no other connection to fall back on).

use std::sync::Arc;

use rmcp::RoleServer;
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use serde_json::Value;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt as _, BufReader};
use tokio::sync::{Mutex, mpsc};
use tokio::task::JoinHandle;

use crate::server::frame::{self, Frame, MAX_FRAME};
use crate::server::rpc::{self, RpcError};

/// Where answers go: one line at a time, whoever writes (the handler's answers and the
/// reader's errors).
type Out<W> = Arc<Mutex<Option<W>>>;

/// The transport: messages read by a task of its own, answers written whole.
pub struct Stdio<W> {
    incoming: mpsc::Receiver<RxJsonRpcMessage<RoleServer>>,
    out: Out<W>,
    reader: JoinHandle<()>,
}

impl<W: AsyncWrite + Send + Unpin + 'static> Stdio<W> {
    /// Reads `read` and writes `write`; must be called within a Tokio runtime.
    pub fn new<R: AsyncRead + Send + Unpin + 'static>(read: R, write: W) -> Self {
        let out = Arc::new(Mutex::new(Some(write)));
        // A few messages ahead at most: the reader waits for the handler, as a pipe would.
        let (sender, incoming) = mpsc::channel(16);
        let reader = tokio::spawn(read_lines(read, out.clone(), sender));
        Stdio { incoming, out, reader }
    }
}

impl<W> Drop for Stdio<W> {
    fn drop(&mut self) {
        self.reader.abort();
    }
}

/// Writes one line, whole.
async fn write_line<W: AsyncWrite + Unpin>(out: &Out<W>, line: Vec<u8>) -> std::io::Result<()> {
    let mut out = out.lock().await;
    let Some(write) = out.as_mut() else {
        return Err(std::io::Error::new(
            std::io::ErrorKind::NotConnected,
            "the transport is closed",
        ));
    };
    write.write_all(&line).await?;
    write.flush().await
}

fn line_of<T: serde::Serialize>(value: &T) -> Vec<u8> {
    let mut line = serde_json::to_vec(value).expect("messages serialize");
    line.push(b'\n');
    line
}

/// Reads lines until the client closes stdin: messages go to the handler, everything
/// else is answered here.
async fn read_lines<R: AsyncRead + Unpin, W: AsyncWrite + Unpin>(
    read: R,
    out: Out<W>,
    handler: mpsc::Sender<RxJsonRpcMessage<RoleServer>>,
) {
    let mut reader = BufReader::new(read);
    let mut line = Vec::new();
    loop {
        let answer = match frame::read_frame(&mut reader, &mut line, MAX_FRAME).await {
            Ok(Frame::Line) if frame::is_blank(&line) => continue,
            Ok(Frame::Line) => match message(&line) {
                Ok(Some(message)) => {
                    if handler.send(message).await.is_err() {
                        return;
                    }
                    continue;
                }
                Ok(None) => continue,
                Err(answer) => answer,
            },
            Ok(Frame::TooLong) => {
                tracing::warn!("skipping an MCP message over {} MiB", MAX_FRAME >> 20);
                match frame::skip_line(&mut reader).await {
                    Ok(_) => rpc::response(Value::Null, Err(frame::too_long(MAX_FRAME))),
                    Err(_) => return,
                }
            }
            Ok(Frame::End) => return,
            Err(e) => {
                tracing::error!("reading stdin: {e}");
                return;
            }
        };
        if write_line(&out, line_of(&answer)).await.is_err() {
            return;
        }
        line.shrink_to(64 * 1024);
    }
}

/// The message a line holds; `Ok(None)` for a notification that is not a well-formed
/// message (JSON-RPC answers no notification); the answer to send back for anything
/// else that is not a message.
fn message(line: &[u8]) -> Result<Option<RxJsonRpcMessage<RoleServer>>, Value> {
    let value = frame::parse(line).map_err(|e| rpc::response(Value::Null, Err(e)))?;
    let id = match &value {
        Value::Object(o) => o.get("id").cloned(),
        _ => None,
    };
    let is_notification = id.is_none() && value.get("method").is_some_and(Value::is_string);
    match serde_json::from_value(value) {
        Ok(message) => Ok(Some(message)),
        Err(_) if is_notification => Ok(None),
        Err(e) => {
            // Answer with the request's id when it is one a response may carry.
            let id = id.filter(|id| id.is_string() || id.is_i64()).unwrap_or(Value::Null);
            Err(rpc::response(
                id,
                Err(RpcError::invalid_request(format!("not an MCP message: {e}"))),
            ))
        }
    }
}

impl<W: AsyncWrite + Send + Unpin + 'static> Transport<RoleServer> for Stdio<W> {
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let out = self.out.clone();
        let line = line_of(&item);
        async move { write_line(&out, line).await }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        // (A channel's receive is cancel-safe: the SDK polls it inside a `select!`.)
        self.incoming.recv().await
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.reader.abort();
        if let Some(mut write) = self.out.lock().await.take() {
            write.flush().await?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_is_a_message_or_gets_an_answer() {
        let request = br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
        assert!(matches!(message(request), Ok(Some(_))));
        let other_note = br#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{}}"#;
        assert!(
            matches!(message(other_note), Ok(Some(_))),
            "the handler takes any notification"
        );
        let malformed_note = br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":7}"#;
        assert!(
            matches!(message(malformed_note), Ok(None)),
            "a notification is never answered"
        );
        for (line, code, id) in [
            (&b"{not json"[..], -32700, Value::Null),
            (&br#"{"jsonrpc":"2.0","id":7}"#[..], -32600, Value::from(7)),
            (
                &br#"{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}"#[..],
                -32600,
                Value::Null,
            ),
            (&b"[1,2]"[..], -32600, Value::Null),
            (&b"\0"[..], -32700, Value::Null),
        ] {
            let answer = message(line).expect_err("an answer");
            assert_eq!(answer["error"]["code"], code, "{answer}");
            assert_eq!(answer["id"], id, "{answer}");
        }
    }
}
