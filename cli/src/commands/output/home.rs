//! Printing what the commands that look after the home did or found: `gc`, `compact`,
//! `rebuild-index`, `doctor` and `stats`.

use serde_json::{Value, json};

use ash_memory::{CompactReport, Finding, GcReport, RebuildReport, Stats};

use super::{Output, emit, print_json};
use crate::wire;

impl Output {
    pub fn gc(&self, r: &GcReport) {
        if self.json {
            return print_json(&wire::gc(r));
        }
        let verb = if r.dry_run { "Would archive" } else { "Archived" };
        say!("{verb} {} memories", r.archived.len());
        for a in &r.archived {
            say!(
                "  {:<16} {}  {}",
                a.reason.as_str(),
                a.id,
                ash_memory_render::one_line(&a.content)
            );
        }
    }

    pub fn compact(&self, r: &CompactReport, days: u32) {
        if self.json {
            return print_json(
                &json!({ "forced": r.forced, "removed": r.removed, "kept": r.kept, "older_than_days": days }),
            );
        }
        if r.forced {
            say!(
                "Removed {} archive entries older than {days} days; {} kept",
                r.removed.len(),
                r.kept
            );
        } else {
            say!(
                "{} archive entries are older than {days} days ({} kept); run with --force to remove them",
                r.removed.len(),
                r.kept
            );
        }
    }

    pub fn rebuilt(&self, r: &RebuildReport) {
        if self.json {
            return print_json(&json!({
                "indexed": r.indexed, "embedded": r.embedded, "pending": r.pending, "quarantined": r.quarantined,
            }));
        }
        say!(
            "Indexed {} memories ({} newly embedded, {} without an embedding, {} lines quarantined)",
            r.indexed,
            r.embedded,
            r.pending,
            r.quarantined
        );
    }

    /// What `doctor` found.
    pub fn doctor(&self, findings: &[Finding]) {
        if self.json {
            let items: Vec<Value> = findings
                .iter()
                .map(|f| json!({ "check": f.check, "ok": f.ok, "detail": f.detail, "fixed": f.fixed }))
                .collect();
            let ok = findings.iter().all(|f| f.ok || f.fixed);
            return print_json(&json!({ "ok": ok, "findings": items }));
        }
        for f in findings {
            let mark = match (f.ok, f.fixed) {
                (true, _) => "ok   ",
                (false, true) => "fixed",
                (false, false) => "WARN ",
            };
            say!("{mark} {:<16} {}", f.check, f.detail);
        }
    }

    pub fn stats(&self, s: &Stats) {
        if self.json {
            return print_json(&wire::stats(s));
        }
        let h = &s.home;
        let list = |pairs: Vec<(String, u64)>| {
            let items: Vec<String> = pairs
                .iter()
                .filter(|(_, n)| *n > 0)
                .map(|(k, n)| format!("{k} {n}"))
                .collect();
            if items.is_empty() {
                "-".to_owned()
            } else {
                items.join(", ")
            }
        };
        say!("{:>12}: {}", "memories", h.memories);
        say!(
            "{:>12}: {}",
            "by type",
            list(h.by_type.iter().map(|(t, n)| (t.as_str().to_owned(), *n)).collect())
        );
        say!(
            "{:>12}: {} personal ({} users), {} group ({} chats)",
            "by scope",
            h.personal,
            h.users,
            h.group,
            h.chats
        );
        say!("{:>12}: {}", "by source", list(h.by_source.clone()));
        let a = &h.by_age;
        say!(
            "{:>12}: {} under a day, {} a week, {} a month, {} a year, {} older",
            "by age",
            a.day,
            a.week,
            a.month,
            a.year,
            a.older
        );
        say!(
            "{:>12}: {} superseded, {} expired, {} decayed",
            "awaiting gc",
            h.superseded,
            h.expired,
            h.decayed
        );
        say!(
            "{:>12}: {} (facts gc archives once faded, unless recalled or confirmed)",
            "fading",
            h.fading
        );
        say!("{:>12}: {}", "pending", h.pending);
        say!(
            "{:>12}: {}",
            "archived",
            list(h.archived.iter().map(|(r, n)| (r.as_str().to_owned(), *n)).collect())
        );
        say!("{:>12}: {}", "people", h.people);
        say!("{:>12}: {}", "quarantined", s.quarantined);
        if h.newer_format > 0 {
            say!("{:>12}: {}", "newer format", h.newer_format);
        }
        let i = &h.index;
        match (&i.model, i.dimension) {
            (Some(model), Some(dim)) => say!(
                "{:>12}: {} entries, {model} ({dim} dimensions), {}",
                "index",
                i.entries,
                if i.in_step {
                    "in step with memories.jsonl"
                } else {
                    "out of step (the next call mends it)"
                }
            ),
            _ => say!("{:>12}: missing (the next call builds it)", "index"),
        }
    }
}
