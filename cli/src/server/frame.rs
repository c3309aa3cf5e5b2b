//! One line of JSON-RPC, as every transport that reads lines takes it (the sockets and TCP
//! in `connection`, MCP on stdio in `mcp::stdio`): at most a cap in bytes up to its `\n`
//! (a `\r` before it is dropped), UTF-8, JSON nested at most 128 deep (serde_json's
//! limit). A line that breaks a rule gets an answer, never silence, or the client waits
//! forever: -32700 for one that is not JSON, -32600 for one over the cap.

use serde_json::Value;
use tokio::io::{AsyncBufReadExt as _, AsyncRead, AsyncReadExt as _, BufReader};

use super::rpc::RpcError;

/// The largest line accepted, newline excluded: 4 MiB. A memory is at most 16 KiB, so
/// this leaves room for a large batch while bounding what one client can make the
/// server hold.
pub const MAX_FRAME: usize = 4 * 1024 * 1024;

/// What one read found.
#[derive(Debug, PartialEq, Eq)]
pub enum Frame {
    /// A line (possibly the last one, without its newline) is in the buffer.
    Line,
    /// The line was longer than the cap; only its start was read.
    TooLong,
    /// The client closed its end.
    End,
}

/// Reads the next line into `frame` (without its line ending, `\n` or `\r\n`), reading
/// at most two bytes past `limit`. After [`Frame::TooLong`] the rest of the line is still
/// unread: close the connection, or [`skip_line`].
pub async fn read_frame<R: AsyncRead + Unpin>(
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

/// Discards the rest of an oversized line, newline included, holding no more of it than
/// the reader's buffer. False when the client closed its end first.
pub async fn skip_line<R: AsyncRead + Unpin>(reader: &mut BufReader<R>) -> std::io::Result<bool> {
    loop {
        let available = reader.fill_buf().await?;
        if available.is_empty() {
            return Ok(false);
        }
        match available.iter().position(|&b| b == b'\n') {
            Some(at) => {
                reader.consume(at + 1);
                return Ok(true);
            }
            None => {
                let all = available.len();
                reader.consume(all);
            }
        }
    }
}

/// Whether a line holds nothing to answer (blank lines between requests are allowed).
pub fn is_blank(frame: &[u8]) -> bool {
    frame.iter().all(u8::is_ascii_whitespace)
}

/// The JSON value of a line; the error says what is wrong with it.
pub fn parse(frame: &[u8]) -> Result<Value, RpcError> {
    // RFC 8259 lets a parser ignore a byte order mark, and some clients on Windows send one.
    let frame = frame.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(frame);
    let text = std::str::from_utf8(frame).map_err(|e| {
        RpcError::parse(format!(
            "not UTF-8 (the byte at offset {} is not valid); send JSON as UTF-8",
            e.valid_up_to()
        ))
    })?;
    serde_json::from_str(text).map_err(|e| {
        if e.to_string().starts_with("recursion limit exceeded") {
            RpcError::parse("JSON nested more than 128 deep; a request needs far less")
        } else {
            RpcError::parse(format!("not JSON: {e}"))
        }
    })
}

/// The answer to a line over `limit` bytes.
pub fn too_long(limit: usize) -> RpcError {
    RpcError::invalid_request(if limit >= 1 << 20 {
        format!("message larger than {} MiB", limit >> 20)
    } else {
        format!("message larger than {} KiB before a token", limit >> 10)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn frames(input: &[u8], limit: usize, skip: bool) -> Vec<Result<Vec<u8>, &'static str>> {
        let mut reader = BufReader::new(input);
        let mut frame = Vec::new();
        let mut out = Vec::new();
        loop {
            match read_frame(&mut reader, &mut frame, limit).await.unwrap() {
                Frame::Line => out.push(Ok(frame.clone())),
                Frame::TooLong => {
                    out.push(Err("too long"));
                    if !skip || !skip_line(&mut reader).await.unwrap() {
                        return out;
                    }
                }
                Frame::End => return out,
            }
        }
    }

    #[tokio::test]
    async fn frames_end_at_newlines_and_stop_at_the_cap() {
        let at_cap = [vec![b'x'; 8], b"\n".to_vec()].concat();
        assert_eq!(frames(&at_cap, 8, false).await, [Ok(vec![b'x'; 8])]);
        let crlf_at_cap = [vec![b'x'; 8], b"\r\n".to_vec()].concat();
        assert_eq!(frames(&crlf_at_cap, 8, false).await, [Ok(vec![b'x'; 8])]);
        let over = [vec![b'x'; 9], b"\n".to_vec()].concat();
        assert_eq!(frames(&over, 8, false).await, [Err("too long")]);
        assert_eq!(
            frames(b"ab\ncd", 8, false).await,
            [Ok(b"ab".to_vec()), Ok(b"cd".to_vec())],
            "a last line without its newline still counts"
        );
        assert_eq!(frames(b"", 8, false).await, []);
    }

    #[tokio::test]
    async fn a_skipped_line_leaves_the_next_one_whole() {
        let input = [vec![b'x'; 100], b"\nok\n".to_vec(), vec![b'y'; 20]].concat();
        assert_eq!(
            frames(&input, 8, true).await,
            [Err("too long"), Ok(b"ok".to_vec()), Err("too long")]
        );
    }

    #[test]
    fn each_bad_line_says_what_is_wrong() {
        let deep = format!("{}{}", "[".repeat(129), "]".repeat(129));
        for (line, says) in [
            (&b"{not json"[..], "not JSON"),
            (&b"\0"[..], "not JSON"),
            (&b"\"\xff\xfe\""[..], "not UTF-8"),
            (deep.as_bytes(), "nested more than 128"),
        ] {
            let e = parse(line).unwrap_err();
            assert_eq!(e.code, -32700, "{line:?}");
            assert!(e.message.contains(says), "{line:?}: {}", e.message);
        }
        let fine = format!("{}{}", "[".repeat(100), "]".repeat(100));
        assert!(parse(fine.as_bytes()).is_ok());
        assert!(parse(b"\xEF\xBB\xBF{}").is_ok(), "a byte order mark is ignored");
        assert_eq!(too_long(MAX_FRAME).code, -32600);
    }
}
