//! Conversations (seeds 002 and 003): sessions and their messages as stored records, the
//! redaction of secrets from what users say, reading exchanges for facts, and the user
//! profile assembled from long-lived memories. Plain policy over plain data; the service
//! (`service::conversing`, `service::extracting`, `service::profiling`) does the I/O.

pub mod extraction;
pub mod profile;
pub mod records;
pub mod redaction;

pub use records::{MessageRecord, Role, SessionRecord};
