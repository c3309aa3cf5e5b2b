//! One connection's state: who it speaks for. A connection on the owner-only Unix socket
//! is trusted to name its caller in each request (it is the local agent host); one that
//! presented a token is pinned to the token's caller, and a request naming anyone else
//! is refused, not quietly narrowed. A connection on the sandbox socket or on TCP must
//! present a token before anything but `health`.

use std::sync::Arc;

use serde_json::{Map, Value};

use ash_memory::Caller;

use super::Shared;
use super::rpc::{self, Request, RpcError};
use super::tokens::TokenError;
use super::worker::Worker;

/// The most requests one batch may hold: a batch is answered whole, so its size bounds
/// what one frame can make the server build.
pub const MAX_BATCH: usize = 100;

/// Where a connection came in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transport {
    /// The owner-only Unix socket: callers may be named in requests.
    OwnerSocket,
    /// The sandbox socket (`serve --sandbox-socket`): a token first, always.
    SandboxSocket,
    /// Loopback TCP: a token first, always.
    Tcp,
}

/// Who a connection speaks for.
#[derive(Debug, Clone)]
enum Authority {
    /// The owner's local agent host: the request names the caller.
    Owner,
    /// Nobody yet (TCP before `auth`).
    Nobody,
    /// The caller of the token with this id.
    Pinned { token_id: String, caller: Caller },
}

/// One connection.
pub struct Session {
    shared: Arc<Shared>,
    authority: Authority,
}

/// The user a request on the owner's socket acts as when it names none, as for the CLI.
pub const DEFAULT_USER: &str = "local";

impl Session {
    /// A connection that came in on `transport`.
    pub fn new(shared: Arc<Shared>, transport: Transport) -> Self {
        let authority = match transport {
            Transport::OwnerSocket => Authority::Owner,
            Transport::SandboxSocket | Transport::Tcp => Authority::Nobody,
        };
        Session { shared, authority }
    }

    /// The store thread, for the methods.
    pub fn worker(&self) -> &Worker {
        &self.shared.worker
    }

    /// Whether the connection still has to present a token (it is then held to a small
    /// frame and a deadline).
    pub fn awaiting_token(&self) -> bool {
        matches!(self.authority, Authority::Nobody)
    }

    /// Answers one frame (a request or a batch); `None` when nothing is to be sent back
    /// (notifications only).
    pub async fn answer(&mut self, frame: &[u8]) -> Option<Value> {
        let value = match super::frame::parse(frame) {
            Ok(v) => v,
            Err(e) => return Some(rpc::response(Value::Null, Err(e))),
        };
        match value {
            Value::Array(batch) if batch.is_empty() => Some(rpc::response(
                Value::Null,
                Err(RpcError::invalid_request("an empty batch")),
            )),
            Value::Array(batch) if batch.len() > MAX_BATCH => Some(rpc::response(
                Value::Null,
                Err(RpcError::invalid_request(format!(
                    "a batch holds at most {MAX_BATCH} requests"
                ))),
            )),
            Value::Array(batch) => {
                let mut answers = Vec::new();
                for item in batch {
                    answers.extend(self.answer_one(item).await);
                }
                (!answers.is_empty()).then_some(Value::Array(answers))
            }
            single => self.answer_one(single).await,
        }
    }

    async fn answer_one(&mut self, value: Value) -> Option<Value> {
        let request = match Request::from_value(value) {
            Ok(r) => r,
            Err((id, e)) => return Some(rpc::response(id, Err(e))),
        };
        let started = std::time::Instant::now();
        let method = request.method.clone();
        let outcome = self.dispatch(request.method.as_str(), request.params).await;
        match &outcome {
            Ok(_) => tracing::debug!("{method} answered in {:.1} ms", started.elapsed().as_secs_f64() * 1e3),
            Err(e) => tracing::debug!("{method} failed ({}): {}", e.code, e.message),
        }
        request.id.map(|id| rpc::response(id, outcome))
    }

    async fn dispatch(&mut self, method: &str, mut params: Map<String, Value>) -> Result<Value, RpcError> {
        match method {
            "health" => return Ok(super::methods::health()),
            "auth" => return self.authenticate(params),
            _ => {}
        }
        let caller = self.caller(&mut params)?;
        super::methods::call(self, method, caller, params).await
    }

    /// `auth {token}`: pins this connection to the token's caller.
    fn authenticate(&mut self, mut params: Map<String, Value>) -> Result<Value, RpcError> {
        let token = match params.remove("token") {
            Some(Value::String(t)) => t,
            _ => return Err(RpcError::invalid_params("auth takes {\"token\": \"ash_...\"}")),
        };
        if let Some(extra) = params.keys().next() {
            return Err(RpcError::invalid_params(format!(
                "auth takes only \"token\", not {extra:?}"
            )));
        }
        if let Authority::Pinned { .. } = self.authority {
            return Err(RpcError::forbidden("this connection is already pinned to a token"));
        }
        let issued = self.shared.tokens.verify(&token).map_err(refusal)?;
        let caller = issued.caller();
        tracing::info!("a connection authenticated as token {}", issued.id);
        self.authority = Authority::Pinned {
            token_id: issued.id,
            caller: caller.clone(),
        };
        Ok(serde_json::json!({ "user_id": caller.user_id, "chat_id": caller.chat_id }))
    }

    /// The caller of a request, taking `user_id` and `chat_id` out of its params.
    fn caller(&self, params: &mut Map<String, Value>) -> Result<Caller, RpcError> {
        match &self.authority {
            Authority::Owner => owner_caller(params),
            Authority::Nobody => Err(RpcError::unauthenticated(
                "this connection needs a token: call auth {\"token\": ...} first",
            )),
            Authority::Pinned { token_id, caller } => {
                let user = take_id(params, "user_id")?;
                let chat = take_id(params, "chat_id")?;
                // A revoked or expired token stops working on the next request, not at
                // the next connection.
                self.shared.tokens.verify_id(token_id).map_err(refusal)?;
                if user.is_some() && user != caller.user_id {
                    return Err(RpcError::forbidden(format!(
                        "this connection acts for user {:?} only",
                        caller.user_id.as_deref().unwrap_or_default()
                    )));
                }
                if chat.is_some() && chat != caller.chat_id {
                    return Err(RpcError::forbidden(match &caller.chat_id {
                        Some(c) => format!("this connection acts in chat {c:?} only"),
                        None => "this connection's token is for no chat".to_owned(),
                    }));
                }
                Ok(caller.clone())
            }
        }
    }

    /// Whether the connection may run maintenance: the owner's socket only.
    pub fn is_owner(&self) -> bool {
        matches!(self.authority, Authority::Owner)
    }
}

/// Who a request on the owner's socket speaks for: `user_id` (default `local`, as for the
/// CLI) and `chat_id`, taken out of its params.
pub fn owner_caller(params: &mut Map<String, Value>) -> Result<Caller, RpcError> {
    let user = take_id(params, "user_id")?;
    let chat = take_id(params, "chat_id")?;
    Ok(Caller {
        user_id: Some(user.unwrap_or_else(|| DEFAULT_USER.to_owned())),
        chat_id: chat,
    })
}

/// Why a token is refused, as the client may see it: a token file that cannot be read
/// is the owner's problem, logged in full, and its path is not told to the client.
fn refusal(e: TokenError) -> RpcError {
    if let TokenError::Unreadable(_) = &e {
        tracing::error!("{e}");
        return RpcError::unauthenticated("tokens cannot be checked now; the server's log says why");
    }
    RpcError::unauthenticated(e.to_string())
}

fn take_id(params: &mut Map<String, Value>, key: &str) -> Result<Option<String>, RpcError> {
    match params.remove(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(RpcError::invalid_params(format!("{key} is a string"))),
    }
}
