//! The interface's records mapped onto the index crate's types, as the Rust host maps its
//! own bindings' (`host/src/index.rs`).

use crate::ash::memory::files;
use crate::exports::ash::memory::index as wit;

ash_memory_index::map_wit_types!(wit, files);
