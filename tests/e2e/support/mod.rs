//! What the tests share: a test context over a fresh home and the real CLI ([`ctx`]), stand-ins
//! ([`fixtures`]), a loopback HTTP server ([`http_server`]), a running `serve` ([`server`]) and
//! a CLI call held at a fault point ([`held`]).

pub mod ctx;
pub mod fixtures;
pub mod held;
pub mod http_server;
pub mod server;
