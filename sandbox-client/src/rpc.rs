//! The JSON-RPC 2.0 messages that `ash-memory serve` speaks: how a request is written, how an
//! answer is read, and every way a call can fail. The failures are one type so that `main`
//! reports each of them the same way: one `error: ...` line on stderr and exit status 1.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The biggest request line the server accepts (before the newline); it answers a bigger one
/// with an error and closes the connection, so the client refuses to send it at all.
pub const MAX_REQUEST_BYTES: usize = 4 * 1024 * 1024;

/// The biggest answer line the client reads. Answers are bounded by the server's own limits
/// (a search or list of at most a few hundred memories); a line beyond this is a broken or
/// hostile server, and reading it whole would only exhaust the sandbox's memory.
pub const MAX_RESPONSE_BYTES: usize = 16 * 1024 * 1024;

/// One request object, as it goes on the wire.
#[derive(Debug, Serialize)]
struct Request<'a> {
    jsonrpc: &'static str,
    id: u64,
    method: &'a str,
    params: &'a Map<String, Value>,
}

/// The request line for `method`, without its newline.
pub fn encode(id: u64, method: &str, params: &Map<String, Value>) -> Vec<u8> {
    let request = Request {
        jsonrpc: "2.0",
        id,
        method,
        params,
    };
    serde_json::to_vec(&request).expect("a JSON map always serializes")
}

/// The error object of a JSON-RPC error response.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct RpcError {
    pub code: i64,
    pub message: String,
    /// For policy errors, `{"kind": "memory_not_found"}` and the like.
    #[serde(default)]
    pub data: Option<Value>,
}

/// Reads one answer line: the call's `result`, or the failure it reports. `expected_id` is
/// the id of the request it answers; the server answers in request order, so any other id
/// means the conversation is out of step. An error may carry id null (a request the server
/// could not read), and is reported all the same.
pub fn decode(line: &[u8], expected_id: u64) -> Result<Value, Error> {
    let value: Value =
        serde_json::from_slice(line).map_err(|e| Error::Protocol(format!("the answer is not JSON ({e})")))?;
    let Value::Object(mut answer) = value else {
        return Err(Error::Protocol("the answer is not a JSON-RPC response object".into()));
    };
    if let Some(error) = answer.remove("error") {
        let error: RpcError = serde_json::from_value(error)
            .map_err(|e| Error::Protocol(format!("the error object is malformed ({e})")))?;
        return Err(Error::Server(error));
    }
    let id = answer.get("id").and_then(Value::as_u64);
    if id != Some(expected_id) {
        let got = answer.get("id").map_or_else(|| "none".to_owned(), Value::to_string);
        return Err(Error::Protocol(format!("answer for id {got}, expected {expected_id}")));
    }
    answer
        .remove("result")
        .ok_or_else(|| Error::Protocol("the answer has neither result nor error".into()))
}

/// Everything that can make a command fail.
#[derive(Debug)]
pub enum Error {
    /// Nothing listens where the client looked: no socket file, or connection refused.
    NoServer { at: String },
    /// Connecting failed for another reason (permissions, a path too long, a name that does
    /// not resolve).
    Connect { at: String, reason: String },
    /// Reading or writing failed after the connection was made.
    Io { at: String, reason: String },
    /// The server did not answer in time.
    Timeout { at: String, secs: u64 },
    /// The server closed the connection before answering.
    Closed { at: String },
    /// The request would exceed the server's limit.
    RequestTooLarge,
    /// The answer exceeds what the client reads.
    ResponseTooLarge,
    /// The answer is not what the protocol says.
    Protocol(String),
    /// The server answered with a JSON-RPC error.
    Server(RpcError),
    /// The command line or environment is inconsistent.
    Usage(String),
}

impl From<ash_memory_render::ShapeError> for Error {
    fn from(e: ash_memory_render::ShapeError) -> Self {
        Error::Protocol(e.to_string())
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::NoServer { at } => write!(f, "no ash-memory server at {at}; start one with `ash-memory serve`"),
            Error::Connect { at, reason } => write!(f, "cannot connect to {at}: {reason}"),
            Error::Io { at, reason } => write!(f, "talking to the server at {at} failed: {reason}"),
            Error::Timeout { at, secs } => write!(
                f,
                "no answer from the server at {at} within {secs} s (see ASH_RPC_TIMEOUT_SECS)"
            ),
            Error::Closed { at } => write!(f, "the server at {at} closed the connection without answering"),
            Error::RequestTooLarge => write!(
                f,
                "the request is larger than the server's limit of {} MiB",
                MAX_REQUEST_BYTES >> 20
            ),
            Error::ResponseTooLarge => write!(
                f,
                "the server's answer is larger than {} MiB; refused",
                MAX_RESPONSE_BYTES >> 20
            ),
            Error::Protocol(what) => write!(f, "unexpected answer from the server: {what}"),
            Error::Server(e) => f.write_str(&e.message),
            Error::Usage(what) => f.write_str(what),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn encodes_a_request_on_one_line() {
        let params = json!({"query": "tea", "limit": 3}).as_object().unwrap().clone();
        let line = encode(7, "memory.search", &params);
        assert!(!line.contains(&b'\n'));
        let v: Value = serde_json::from_slice(&line).unwrap();
        assert_eq!(
            v,
            json!({"jsonrpc": "2.0", "id": 7, "method": "memory.search", "params": {"query": "tea", "limit": 3}})
        );
    }

    #[test]
    fn decodes_a_result() {
        let got = decode(br#"{"jsonrpc":"2.0","id":2,"result":{"deleted":"abc"}}"#, 2).unwrap();
        assert_eq!(got, json!({"deleted": "abc"}));
    }

    #[test]
    fn a_null_result_is_a_result() {
        assert_eq!(
            decode(br#"{"jsonrpc":"2.0","id":1,"result":null}"#, 1).unwrap(),
            Value::Null
        );
    }

    #[test]
    fn decodes_an_error_even_with_a_null_id() {
        let line = br#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"message larger than 4 MiB"}}"#;
        match decode(line, 1) {
            Err(Error::Server(e)) => {
                assert_eq!(e.code, -32600);
                assert_eq!(e.message, "message larger than 4 MiB");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn keeps_the_error_kind() {
        let line = br#"{"jsonrpc":"2.0","id":1,"error":{"code":-32012,"message":"no memory abc","data":{"kind":"memory_not_found"}}}"#;
        let Err(Error::Server(e)) = decode(line, 1) else {
            panic!()
        };
        assert_eq!(e.data, Some(json!({"kind": "memory_not_found"})));
        assert_eq!(Error::Server(e).to_string(), "no memory abc");
    }

    #[test]
    fn refuses_a_mismatched_id_or_a_non_object() {
        assert!(matches!(
            decode(br#"{"jsonrpc":"2.0","id":3,"result":{}}"#, 2),
            Err(Error::Protocol(_))
        ));
        assert!(matches!(
            decode(br#"[{"id":1,"result":{}}]"#, 1),
            Err(Error::Protocol(_))
        ));
        assert!(matches!(decode(b"not json", 1), Err(Error::Protocol(_))));
        assert!(matches!(
            decode(br#"{"jsonrpc":"2.0","id":1}"#, 1),
            Err(Error::Protocol(_))
        ));
    }
}
