//! MCP (placeholder while the JSON-RPC server is built).
use std::sync::Arc;

use anyhow::{Result, bail};
use ash_memory::{Caller, MemoryStoreBuilder};
use tokio::net::TcpListener;
use tokio::sync::watch;

use super::session::Shared;

pub async fn serve_http(_listener: TcpListener, _shared: Arc<Shared>, _stopped: watch::Receiver<bool>) {}

pub fn serve_stdio(_builder: MemoryStoreBuilder, _caller: Caller) -> Result<()> {
    bail!("not yet")
}
