//! What the tests share: a test context over a fresh home and the real CLI ([`ctx`]), stand-ins
//! ([`fixtures`]), a loopback HTTP server ([`http_server`]) and a running `serve` ([`server`]).

pub mod ctx;
pub mod fixtures;
pub mod http_server;
pub mod server;
