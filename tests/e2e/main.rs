//! End-to-end tests: the real `ash-memory` binary and library, running the real policy
//! component in wasmtime over real files, a real SQLite index with sqlite-vec, and the
//! embedded model. One test binary; `ctx`, `fixtures`, `http_server` and `server` are the
//! shared helpers.

mod support;

mod async_host;
mod browser;
mod cli;
mod conformance;
mod context;
mod contract;
mod conversations;
mod crash;
mod decay;
mod edges;
mod embedder_http;
mod entities;
mod eval;
mod everyday_changes;
mod evolution;
mod fidelity;
mod follow_ups;
mod forgetting;
mod from_index;
mod from_index_context;
mod from_index_list;
mod import;
mod lifetimes;
mod llm_http;
mod mcp;
mod mcp_lines;
mod mcp_resources;
mod migration;
#[cfg(feature = "native-policy")]
mod named_times;
mod native;
mod nearby;
mod news_told_in_passing;
mod one_shot;
mod one_truth;
mod other_people;
mod people;
mod polyglot;
mod portability;
mod postgres;
mod postgres_layout;
mod postgres_locks;
mod reads_beside_writes;
mod reads_during_writes;
mod recall;
mod recovery;
mod reflection;
mod replies;
mod routines;
mod sandbox;
mod sandbox_client;
mod scoping;
mod secret_shapes;
mod serve;
mod stats;
mod storage;
mod told_back_to_front;
mod transformer;
mod trust;
mod turns_of_talk;
