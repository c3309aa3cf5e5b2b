//! Printing what moving memories in and out did: `import`, `export` and `migrate`.

use serde_json::{Value, json};

use ash_memory::{Imported, ImportedRecords, Migrated};

use super::{Output, emit, print_json};

impl Output {
    /// What an import did; `lines` maps each fact's position to its line in the file.
    pub fn imported(&self, r: &Imported, lines: &[usize]) {
        if self.json {
            let refused: Vec<Value> = r
                .refused
                .iter()
                .map(|f| json!({ "line": lines[f.position], "error": f.error.to_string() }))
                .collect();
            return print_json(&json!({
                "added": r.added,
                "present": r.present,
                "superseded": r.superseded,
                "evicted": r.evicted,
                "refused": refused,
            }));
        }
        say!(
            "Imported {} facts ({} already present, {} refused); {} memories replaced, {} evicted",
            r.added,
            r.present,
            r.refused.len(),
            r.superseded,
            r.evicted
        );
    }

    pub fn migrated(&self, r: &Migrated) {
        if self.json {
            return print_json(&json!({
                "from": r.from, "rows": r.rows, "people": r.people, "memories": r.memories,
                "present": r.present, "reembedded": r.reembedded, "quarantined": r.quarantined,
            }));
        }
        say!(
            "Migrated {} rows from {}: {} people and {} memories read in ({} already present, {} embedded again); {} set aside in memory/migration.quarantine.jsonl",
            r.rows,
            r.from.display(),
            r.people,
            r.memories,
            r.present,
            r.reembedded,
            r.quarantined
        );
    }

    /// Lines as they are, one per line (an export).
    pub fn lines(&self, lines: &[String]) {
        for line in lines {
            say!("{line}");
        }
    }

    pub fn imported_records(&self, r: &ImportedRecords) {
        if self.json {
            let refused: Vec<Value> = r
                .refused
                .iter()
                .map(|l| json!({ "position": l.position, "reason": l.reason }))
                .collect();
            return print_json(&json!({
                "memories": r.memories,
                "archived": r.archived,
                "people": r.people,
                "renamed": r.renamed,
                "present": r.present,
                "reembedded": r.reembedded,
                "refused": refused,
            }));
        }
        say!(
            "Imported {} memories, {} archive entries and {} people ({} already present, {} given new ids, {} embedded again, {} refused)",
            r.memories,
            r.archived,
            r.people,
            r.present,
            r.renamed,
            r.reembedded,
            r.refused.len()
        );
    }
}
