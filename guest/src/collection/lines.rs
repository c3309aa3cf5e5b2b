//! What a line of a collection is, besides a record: a removal or an access marker, which
//! folds into the record it names, or a record of a newer format, kept in place untouched.

use serde::{Deserialize, Serialize};

use super::Record;

/// Just enough of a line to tell whether a newer writer made it.
#[derive(Deserialize)]
struct VersionProbe {
    version: u32,
}

/// A line that takes the record with this id out of the collection. Only these three
/// fields: a record line never parses as one.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Removal {
    id: String,
    version: u32,
    removed_at: String,
}

/// The longest line a collection's reader takes, in bytes. The biggest record this
/// guest writes is far smaller (16 KiB of content and as much context, an embedding);
/// a longer line was written by hand or by a broken tool, and is quarantined rather than
/// loaded, shown in every list and sent to every model that asks.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// The version removal and access lines carry: the first record version that knows them.
const MARKER_VERSION: u32 = 1;

/// A line that says the record with this id was returned at `accessed_at`. Appended
/// rather than a new version of the record, so that recall writes a few bytes; folded
/// into the record (and so kept by a rewrite). Only these three fields.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Access {
    id: String,
    version: u32,
    accessed_at: String,
}

/// The access line for this id at `at`.
pub(super) fn access_line(id: &str, at: &str) -> serde_json::Result<String> {
    serde_json::to_string(&Access {
        id: id.to_owned(),
        version: MARKER_VERSION,
        accessed_at: at.to_owned(),
    })
}

/// The removal line for this id, stamped `at`.
pub(super) fn removal_line(id: &str, at: &str) -> serde_json::Result<String> {
    serde_json::to_string(&Removal {
        id: id.to_owned(),
        version: MARKER_VERSION,
        removed_at: at.to_owned(),
    })
}

/// The id and time of an access line, if the line is one.
pub(super) fn access(line: &str) -> Option<(String, String)> {
    serde_json::from_str::<Access>(line)
        .ok()
        .filter(|a| a.version == MARKER_VERSION && crate::record::parse_time(&a.accessed_at).is_ok())
        .map(|a| (a.id, a.accessed_at))
}

/// The id a removal line removes, if the line is one. A stamp that is not a time makes
/// it no removal: an unreadable line, quarantined, rather than a silent delete.
pub(super) fn removal(line: &str) -> Option<String> {
    serde_json::from_str::<Removal>(line)
        .ok()
        .filter(|r| r.version == MARKER_VERSION && crate::record::parse_time(&r.removed_at).is_ok())
        .map(|r| r.id)
}

/// The ids named by the lines of `data` (records, removals and accesses), first
/// appearance first, each once: what a reader that missed these lines must look at again.
pub fn ids_named<T: Record>(data: &str) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    data.split('\n')
        .map(|line| line.strip_suffix('\r').unwrap_or(line))
        .filter(|line| !line.trim().is_empty())
        .filter_map(|line| {
            T::parse(line)
                .map(|r| r.id().to_owned())
                .ok()
                .or_else(|| removal(line))
                .or_else(|| access(line).map(|(id, _)| id))
        })
        .filter(|id| seen.insert(id.clone()))
        .collect()
}

/// The ids that removal lines in `data` name.
pub fn ids_removed(data: &str) -> std::collections::HashSet<String> {
    data.split('\n')
        .map(|line| line.strip_suffix('\r').unwrap_or(line))
        .filter_map(removal)
        .collect()
}

/// Whether a line that did not parse is a record of a newer format: such lines are kept in
/// place, untouched, rather than quarantined, so that an older guest never takes a newer
/// writer's data out of the source of truth.
pub(super) fn is_newer<T: Record>(line: &str) -> bool {
    // Only an object is a record (serde would also read `[2]` into the probe).
    line.trim_start().starts_with('{')
        && serde_json::from_str::<VersionProbe>(line).is_ok_and(|p| p.version > T::VERSION)
}
