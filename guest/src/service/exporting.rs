//! `export-records`: what a caller may see, as lines of the export format (see
//! `wit/portability.wit`), and the header that describes them.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::MemoryService;
use crate::api::Error;
use crate::ports::{Collection, Ports};
use crate::record::{MemoryRecord, format_time};
use crate::scope::Caller;

/// The `format` of an export's header.
pub const EXPORT_FORMAT: &str = "ash-memory-export";
/// The export version this guest writes and reads.
pub const EXPORT_VERSION: u32 = 1;

/// The first line of an export.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Header {
    pub format: String,
    pub version: u32,
    /// The model whose vectors the memory lines carry, and their dimension.
    pub embedding_model: String,
    pub dimension: u32,
    pub exported_at: String,
    pub user_id: Option<String>,
    pub chat_id: Option<String>,
    pub include_archive: bool,
}

impl Header {
    /// Reads a header line, refusing anything that is not an export this guest reads.
    pub fn parse(line: &str) -> Result<Header, Error> {
        let not_export = |why: String| Error::InvalidInput(format!("not an ash-memory export: {why}"));
        let value: Value = serde_json::from_str(line).map_err(|e| not_export(format!("the first line: {e}")))?;
        if value["format"] != EXPORT_FORMAT {
            return Err(not_export(format!(
                "the first line has no \"format\":\"{EXPORT_FORMAT}\""
            )));
        }
        let header: Header = serde_json::from_value(value).map_err(|e| not_export(format!("its header: {e}")))?;
        if header.version > EXPORT_VERSION {
            return Err(Error::InvalidInput(format!(
                "the export is of version {}; this version reads up to {EXPORT_VERSION}",
                header.version
            )));
        }
        Ok(header)
    }
}

/// A record as an export line: its JSON with `kind` first.
pub(super) fn export_line(kind: &str, record_line: &str) -> String {
    let Ok(Value::Object(fields)) = serde_json::from_str::<Value>(record_line) else {
        unreachable!("records serialize as objects")
    };
    let mut out = serde_json::Map::with_capacity(fields.len() + 1);
    out.insert("kind".into(), Value::from(kind));
    out.extend(fields);
    Value::Object(out).to_string()
}

impl<P: Ports> MemoryService<P> {
    /// `export-records`; see `wit/portability.wit`.
    pub fn export_records(&mut self, caller: &Caller, include_archive: bool) -> Result<Vec<String>, Error> {
        if caller.user_id.is_none() && caller.chat_id.is_none() {
            return Err(Error::InvalidInput(
                "a caller with neither a user nor a chat has nothing to export".into(),
            ));
        }
        self.load()?;
        let want = self.wanted_index();
        let header = Header {
            format: EXPORT_FORMAT.into(),
            version: EXPORT_VERSION,
            embedding_model: want.model,
            dimension: want.dimension,
            exported_at: format_time(self.now()?),
            user_id: caller.user_id.clone(),
            chat_id: caller.chat_id.clone(),
            include_archive,
        };
        let mut lines = vec![serde_json::to_string(&header).expect("a header serializes")];
        if let Some(user) = &caller.user_id {
            // Merged entries too: they are kept on file, so an export keeps them.
            for p in self.people.iter().filter(|p| &p.owner_user_id == user) {
                lines.push(export_line("person", &p.to_line()));
            }
        }
        for r in self.memories.iter().filter(|r| caller.can_see(r)) {
            lines.push(export_line("memory", &r.to_line()));
        }
        if include_archive {
            let chunk = self.ports.read(Collection::Archive, 0, None)?;
            for line in chunk.data.lines().filter(|l| !l.trim().is_empty()) {
                // Only what parses: an entry that does not is not this caller's to take.
                if let Ok(r) = MemoryRecord::parse(line)
                    && caller.can_see(&r)
                {
                    lines.push(export_line("archived", line));
                }
            }
        }
        Ok(lines)
    }
}
