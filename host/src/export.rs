//! Moving a caller's records between homes: an export that describes itself (a header,
//! then people, memories and archive entries as the files hold them) and reading one
//! back. The format and what reading does are the component's (`wit/portability.wit`).

use crate::bindings::exports::ash::memory::portability::ExportOptions;
use crate::contract::{Caller, ImportedRecords};
use crate::error::Error;
use crate::store::MemoryStore;

/// The `format` an export's header line names.
pub const EXPORT_FORMAT: &str = "ash-memory-export";

/// Whether `text` is an export: its first line that is not blank is a JSON object
/// whose `format` is [`EXPORT_FORMAT`].
pub fn is_export(text: &str) -> bool {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    text.lines()
        .find(|l| !l.trim().is_empty())
        .and_then(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .is_some_and(|v| v["format"] == EXPORT_FORMAT)
}

impl MemoryStore {
    /// What `caller` may see, as export lines: the header, the user's people, the
    /// memories of the caller's scopes and, with `include_archive`, their archive entries.
    pub fn export_records(&mut self, caller: &Caller, include_archive: bool) -> Result<Vec<String>, Error> {
        let options = ExportOptions { include_archive };
        self.call_in(caller, |p, s| {
            p.ash_memory_portability().call_export_records(s, caller, options)
        })
    }

    /// Reads export lines into this home for `caller`, in one write; see
    /// `import-records` in `wit/portability.wit`. With `check_only`, reports what would
    /// be refused and writes nothing.
    pub fn import_records(
        &mut self,
        caller: &Caller,
        lines: &[String],
        check_only: bool,
    ) -> Result<ImportedRecords, Error> {
        // A write of the whole home: an id is kept when no scope holds it yet.
        self.call(|p, s| {
            p.ash_memory_portability()
                .call_import_records(s, caller, lines, check_only)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_export_is_told_by_its_header() {
        assert!(is_export(
            "\n{\"format\":\"ash-memory-export\",\"version\":1}\n{\"kind\":\"memory\"}"
        ));
        assert!(!is_export("{\"content\":\"I like tea\"}"));
        assert!(!is_export("I like tea"));
        assert!(!is_export(""));
    }
}
