//! JSON-RPC 2.0 envelopes: parsing requests (single or batch), shaping responses, and
//! the error codes. The standard codes cover the envelope; each policy error kind has
//! its own code in the application range, with its kind in `error.data.kind`, so that
//! a client can branch without reading the message.

use serde_json::{Value, json};

use ash_memory::Error;

/// An error answer: code, message, optional data.
#[derive(Debug, Clone, PartialEq)]
pub struct RpcError {
    pub code: i64,
    pub message: String,
    pub data: Option<Value>,
}

impl RpcError {
    fn new(code: i64, message: impl Into<String>) -> Self {
        RpcError {
            code,
            message: message.into(),
            data: None,
        }
    }
    pub fn parse(message: impl Into<String>) -> Self {
        Self::new(-32700, message)
    }
    pub fn invalid_request(message: impl Into<String>) -> Self {
        Self::new(-32600, message)
    }
    pub fn method_not_found(method: &str) -> Self {
        Self::new(-32601, format!("no method {method:?}; see docs/serving.md"))
    }
    pub fn invalid_params(message: impl Into<String>) -> Self {
        Self::new(-32602, message)
    }
    /// No token yet where one is needed, or the token is not (or no longer) valid.
    pub fn unauthenticated(message: impl Into<String>) -> Self {
        Self::new(-32001, message)
    }
    /// The request asks for more than the connection's caller may do.
    pub fn forbidden(message: impl Into<String>) -> Self {
        Self::new(-32003, message)
    }
    /// The peer already holds its share of connections that have no token yet.
    pub fn too_many_connections(message: impl Into<String>) -> Self {
        Self::new(-32004, message)
    }
}

impl From<Error> for RpcError {
    fn from(e: Error) -> Self {
        let (code, kind) = match &e {
            Error::InvalidInput(_) => (-32010, "invalid_input"),
            Error::SecretRefused(_) => (-32011, "secret_refused"),
            Error::MemoryNotFound(_) => (-32012, "memory_not_found"),
            Error::AmbiguousId(_) => (-32013, "ambiguous_id"),
            Error::PersonNotFound(_) => (-32014, "person_not_found"),
            Error::Unauthorized(_) => (-32015, "unauthorized"),
            Error::UnknownTool(_) => (-32016, "unknown_tool"),
            Error::SessionNotFound(_) => (-32017, "session_not_found"),
            Error::Storage(_) => (-32020, "storage"),
            Error::Index(_) => (-32021, "index"),
            Error::Busy(_) => (-32022, "busy"),
            Error::CpuLimit(_) | Error::MemoryLimit(_) | Error::Trap(_) | Error::Component(_) => (-32030, "sandbox"),
            Error::Config { .. } | Error::NotAFolder(_) => (-32031, "config"),
            Error::Io { .. } => (-32032, "io"),
            _ => (-32603, "internal"),
        };
        RpcError {
            code,
            message: e.to_string(),
            data: Some(json!({ "kind": kind })),
        }
    }
}

/// One request, checked against the envelope's rules.
#[derive(Debug)]
pub struct Request {
    /// `None` for a notification, which gets no answer.
    pub id: Option<Value>,
    pub method: String,
    /// Always an object (absent params become `{}`).
    pub params: serde_json::Map<String, Value>,
}

impl Request {
    /// Checks one element of a frame. On failure, returns the id to answer with (null
    /// when the id itself is unusable) and the error.
    pub fn from_value(value: Value) -> Result<Request, (Value, RpcError)> {
        let Value::Object(mut object) = value else {
            return Err((Value::Null, RpcError::invalid_request("a request is a JSON object")));
        };
        let id = match object.remove("id") {
            None => None,
            Some(id @ (Value::String(_) | Value::Number(_) | Value::Null)) => Some(id),
            Some(_) => {
                return Err((
                    Value::Null,
                    RpcError::invalid_request("\"id\" is a string, a number or null"),
                ));
            }
        };
        let answer_id = id.clone().unwrap_or(Value::Null);
        if object.get("jsonrpc") != Some(&json!("2.0")) {
            return Err((answer_id, RpcError::invalid_request("\"jsonrpc\" must be \"2.0\"")));
        }
        let method = match object.remove("method") {
            Some(Value::String(m)) => m,
            _ => return Err((answer_id, RpcError::invalid_request("\"method\" is a string"))),
        };
        let params = match object.remove("params") {
            None | Some(Value::Null) => serde_json::Map::new(),
            // Many clients send `[]` for a call without parameters.
            Some(Value::Array(p)) if p.is_empty() => serde_json::Map::new(),
            Some(Value::Object(p)) => p,
            Some(_) => {
                return Err((
                    answer_id,
                    RpcError::invalid_params("params are an object of named parameters"),
                ));
            }
        };
        if let Some(extra) = object.keys().find(|k| *k != "jsonrpc") {
            return Err((
                answer_id,
                RpcError::invalid_request(format!("unexpected member {extra:?}")),
            ));
        }
        Ok(Request { id, method, params })
    }
}

/// A response object.
pub fn response(id: Value, outcome: Result<Value, RpcError>) -> Value {
    match outcome {
        Ok(result) => json!({ "jsonrpc": "2.0", "id": id, "result": result }),
        Err(e) => {
            let mut error = json!({ "code": e.code, "message": e.message });
            if let Some(data) = e.data {
                error["data"] = data;
            }
            json!({ "jsonrpc": "2.0", "id": id, "error": error })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn envelopes_are_checked() {
        let ok = Request::from_value(json!({"jsonrpc": "2.0", "id": 7, "method": "health"})).unwrap();
        assert_eq!(
            (ok.id, ok.method.as_str(), ok.params.len()),
            (Some(json!(7)), "health", 0)
        );
        let note = Request::from_value(json!({"jsonrpc": "2.0", "method": "health"})).unwrap();
        assert_eq!(note.id, None);
        for (bad, code) in [
            (json!([1]), -32600),
            (json!({"jsonrpc": "1.0", "id": 1, "method": "x"}), -32600),
            (json!({"jsonrpc": "2.0", "id": 1}), -32600),
            (json!({"jsonrpc": "2.0", "id": {}, "method": "x"}), -32600),
            (json!({"jsonrpc": "2.0", "id": 1, "method": "x", "params": [1]}), -32602),
            (json!({"jsonrpc": "2.0", "id": 1, "method": "x", "extra": true}), -32600),
        ] {
            let (_, e) = Request::from_value(bad.clone()).unwrap_err();
            assert_eq!(e.code, code, "{bad}");
        }
    }

    #[test]
    fn policy_errors_keep_their_kind() {
        let e = RpcError::from(Error::MemoryNotFound("abc".into()));
        assert_eq!(e.code, -32012);
        assert_eq!(e.data, Some(json!({"kind": "memory_not_found"})));
        let answer = response(json!(1), Err(e));
        assert_eq!(answer["error"]["message"], "no memory abc is visible to you");
    }
}
