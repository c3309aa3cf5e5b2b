//! Printing results: aligned text for people, one JSON document for programs. JSON
//! field names are the JSONL field names.

use std::cell::RefCell;
use std::io::Write as _;

use serde_json::{Value, json};

use ash_memory::{
    Added, CompactReport, ContextBlock, Finding, Forgotten, GcReport, Imported, ImportedRecords, Memory, Migrated,
    Person, RebuildReport, Reflection, SearchResults, Stats,
};

use crate::eval::{EvalReport, Scores};

use crate::server::tokens::{Issued, TokenInfo};
use crate::wire;

thread_local! {
    /// What the command prints, written to stdout once at the end, so that a closed or
    /// broken stdout is one clean error after the work is done, never a panic half way.
    static OUT: RefCell<String> = const { RefCell::new(String::new()) };
}

/// Adds text to the output. Stored text is shown to people, never obeyed by their
/// terminal: control characters (escape sequences) and bidirectional overrides are
/// printed as visible escapes. JSON output needs none of this: serde escapes controls.
fn emit(text: &str) {
    OUT.with(|out| {
        let mut out = out.borrow_mut();
        for c in text.chars() {
            let hidden =
                (c.is_control() && c != '\n') || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}');
            if hidden {
                out.push_str(&c.escape_unicode().to_string());
            } else {
                out.push(c);
            }
        }
    });
}

/// Adds what `ash-memory-render` made of a result in the server's shape: the same text
/// `ash-sb` prints for it, already made visible.
fn emit_rendered(rendered: Result<String, ash_memory_render::ShapeError>) {
    let text = rendered.expect("the wire module writes the shapes the renderer reads");
    OUT.with(|out| out.borrow_mut().push_str(&text));
}

macro_rules! say {
    ($($arg:tt)*) => {{
        let mut line = format!($($arg)*);
        line.push('\n');
        emit(&line);
    }};
}

/// Writes what the command printed to stdout.
pub fn flush() -> std::io::Result<()> {
    let text = OUT.with(|out| std::mem::take(&mut *out.borrow_mut()));
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(text.as_bytes())?;
    stdout.flush()
}

pub struct Output {
    pub json: bool,
}

// After `say!`, so that the submodule sees it.
mod conversations;

fn print_json(v: &Value) {
    say!("{}", serde_json::to_string_pretty(v).expect("JSON values serialize"));
}

/// Scope as people read it.
fn scope(m: &Memory) -> String {
    match (&m.chat_id, &m.owner_user_id) {
        (Some(chat), _) => format!("chat {chat}"),
        (None, Some(user)) => format!("personal ({user})"),
        (None, None) => "none".into(),
    }
}

impl Output {
    /// One added memory: the memory's own fields, plus what it superseded and evicted.
    pub fn added(&self, a: &Added) {
        let Some(m) = a.memories.first() else { return };
        if self.json {
            let mut v = wire::memory(m);
            v["superseded"] = Value::Array(a.superseded.iter().map(|(old, _)| wire::memory(old)).collect());
            v["evicted"] = wire::memories(&a.evicted);
            v["restated"] = Value::Bool(a.restated.contains(&m.id));
            return print_json(&v);
        }
        emit_rendered(ash_memory_render::added(&wire::added(a)));
    }

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

    pub fn eval(&self, r: &EvalReport) {
        let scores = |s: &Scores| {
            json!({
                "questions": s.questions,
                "hit": {"1": s.hit[0], "5": s.hit[1], "10": s.hit[2]},
                "recall": {"1": s.recall[0], "5": s.recall[1], "10": s.recall[2]},
                "mrr": s.mrr,
                "shown": s.shown,
            })
        };
        if self.json {
            let categories: serde_json::Map<String, Value> =
                r.categories.iter().map(|(c, s)| (c.clone(), scores(s))).collect();
            return print_json(&json!({
                "memories": r.memories, "refused": r.refused,
                "overall": scores(&r.overall), "categories": categories,
            }));
        }
        say!("{} memories stored ({} refused)", r.memories, r.refused);
        say!(
            "{:<16} {:>9} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6}",
            "",
            "questions",
            "hit@1",
            "hit@5",
            "hit@10",
            "R@1",
            "R@5",
            "R@10",
            "MRR",
            "shown"
        );
        let row = |name: &str, s: &Scores| {
            say!(
                "{:<16} {:>9} {:>6.3} {:>6.3} {:>6.3} {:>6.3} {:>6.3} {:>6.3} {:>6.3} {:>6.2}",
                name,
                s.questions,
                s.hit[0],
                s.hit[1],
                s.hit[2],
                s.recall[0],
                s.recall[1],
                s.recall[2],
                s.mrr,
                s.shown
            );
        };
        row("all", &r.overall);
        for (c, s) in &r.categories {
            row(c, s);
        }
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

    pub fn history(&self, chain: &[Memory]) {
        if self.json {
            return print_json(&wire::memories(chain));
        }
        for (i, m) in chain.iter().enumerate() {
            let state = match (m.archive_reason, &m.superseded_at) {
                (Some(reason), _) => reason.as_str(),
                (None, Some(_)) => "replaced",
                (None, None) => "current",
            };
            let created: String = m.created_at.chars().take(19).collect();
            say!("{}. {created}  {state:<15}  {}  {}", i + 1, m.id, m.content);
        }
    }

    pub fn gc(&self, r: &GcReport) {
        if self.json {
            return print_json(&wire::gc(r));
        }
        let verb = if r.dry_run { "Would archive" } else { "Archived" };
        say!("{verb} {} memories", r.archived.len());
        for a in &r.archived {
            say!("  {:<16} {}  {}", a.reason.as_str(), a.id, a.content);
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

    pub fn search(&self, r: &SearchResults) {
        if self.json {
            return print_json(&wire::search(r));
        }
        emit_rendered(ash_memory_render::search(&wire::search(r)));
    }

    pub fn list(&self, memories: &[Memory]) {
        if self.json {
            return print_json(&wire::memories(memories));
        }
        emit_rendered(ash_memory_render::list(
            &json!({ "memories": wire::memories(memories) }),
        ));
    }

    pub fn show(&self, m: &Memory) {
        if self.json {
            return print_json(&wire::memory(m));
        }
        let none = || "-".to_owned();
        let rows = [
            ("id", m.id.clone()),
            ("content", m.content.clone()),
            ("type", m.memory_type.as_str().to_owned()),
            ("scope", scope(m)),
            ("source", m.source.clone()),
            ("created", m.created_at.clone()),
            ("observed", m.observed_at.clone().unwrap_or_else(none)),
            (
                "context",
                m.context.as_deref().map_or_else(none, |c| c.replace('\n', " / ")),
            ),
            ("expires", m.expires_at.clone().unwrap_or_else(none)),
            ("superseded", m.superseded_at.clone().unwrap_or_else(none)),
            ("superseded by", m.superseded_by_id.clone().unwrap_or_else(none)),
            ("embedded", if m.embedded { "yes" } else { "pending" }.to_owned()),
        ];
        for (k, v) in rows {
            say!("{k:>13}: {v}");
        }
    }

    pub fn deleted(&self, id: &str) {
        let result = json!({ "deleted": id });
        if self.json {
            return print_json(&result);
        }
        emit_rendered(ash_memory_render::deleted(&result));
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

    pub fn people(&self, people: &[Person]) {
        if self.json {
            return print_json(&wire::people(people));
        }
        if people.is_empty() {
            say!("No people yet.");
            return;
        }
        say!("{:<36}  {:<20}  {:<12}  ALIASES", "ID", "NAME", "RELATION");
        for p in people {
            let relation = p.relation.as_deref().unwrap_or("-");
            say!(
                "{:<36}  {:<20}  {:<12}  {}",
                p.id,
                p.name,
                relation,
                p.aliases.join(", ")
            );
        }
    }

    pub fn person(&self, p: &Person) {
        if self.json {
            return print_json(&wire::person(p));
        }
        say!("{:>13}: {}", "id", p.id);
        say!("{:>13}: {}", "name", p.name);
        say!("{:>13}: {}", "relation", p.relation.as_deref().unwrap_or("-"));
        say!(
            "{:>13}: {}",
            "aliases",
            if p.aliases.is_empty() {
                "-".to_owned()
            } else {
                p.aliases.join(", ")
            }
        );
        for (id, relation) in &p.relationships {
            say!("{:>13}: {relation} is {id}", "relationship");
        }
    }

    pub fn forgotten(&self, f: &Forgotten, purge: bool) {
        if self.json {
            return print_json(&wire::forgotten(f));
        }
        let fate = if purge { "removed" } else { "archived" };
        say!("Forgot {} ({})", f.person.name, f.person.id);
        say!("  {} memories about them alone {fate}", f.archived.len());
        say!(
            "  {} memories about them and others kept, without them",
            f.unlinked.len()
        );
        if purge {
            say!("  {} older archive entries about them removed", f.purged);
        }
    }

    pub fn context(&self, c: &ContextBlock) {
        if self.json {
            return print_json(&wire::context(c));
        }
        emit_rendered(ash_memory_render::context(&wire::context(c)));
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

    /// A correction: the new memory and the one it replaces.
    pub fn corrected(&self, a: &Added) {
        if a.memories.is_empty() {
            return;
        }
        if self.json {
            return print_json(&wire::added(a));
        }
        emit_rendered(ash_memory_render::corrected(&wire::added(a)));
    }

    pub fn confirmed(&self, m: &Memory) {
        if self.json {
            return print_json(&wire::memory(m));
        }
        say!("Confirmed {}: {}", m.id, m.content);
    }

    pub fn reflection(&self, r: &Reflection) {
        match r {
            Reflection::Written(m) if self.json => print_json(&json!({ "written": wire::memory(m) })),
            Reflection::Skipped(why) if self.json => print_json(&json!({ "skipped": why })),
            Reflection::Written(m) => say!("Reflection {}:\n{}", m.id, m.content),
            Reflection::Skipped(why) => say!("No reflection: {why}"),
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

    pub fn tools(&self, schemas: &Value) {
        print_json(schemas);
    }

    pub fn tool_result(&self, text: &str) {
        if self.json {
            return print_json(&json!({ "result": text }));
        }
        say!("{text}");
    }

    /// A new token: printed once, never stored.
    pub fn token_issued(&self, token: &str, t: &Issued) {
        if self.json {
            return print_json(&json!({ "token": token, "token_info": token_json(t, None) }));
        }
        // The token alone on stdout, so that `export ASH_RPC_TOKEN=$(ash-memory token issue
        // ...)` holds just the token; what it is goes to the person, on stderr.
        say!("{token}");
        let chat = t
            .chat_id
            .as_deref()
            .map(|c| format!(" in chat {c}"))
            .unwrap_or_default();
        let until = t
            .expires_at
            .as_deref()
            .map_or("until revoked".to_owned(), |e| format!("until {e}"));
        let _ = writeln!(
            std::io::stderr(),
            "note: token {} for user {}{chat}, {until}; shown only once",
            t.id,
            t.user_id
        );
    }

    pub fn token_revoked(&self, t: &Issued) {
        if self.json {
            return print_json(&json!({ "revoked": t.id }));
        }
        say!("Revoked token {} (user {})", t.id, t.user_id);
    }

    pub fn tokens(&self, tokens: &[TokenInfo]) {
        if self.json {
            let all: Vec<Value> = tokens
                .iter()
                .map(|t| token_json(&t.issued, t.revoked_at.as_deref()))
                .collect();
            return print_json(&Value::Array(all));
        }
        if tokens.is_empty() {
            say!("No tokens.");
            return;
        }
        say!("{:<12}  {:<16}  {:<16}  {:<20}  STATE", "ID", "USER", "CHAT", "CREATED");
        for t in tokens {
            let i = &t.issued;
            let state = match (&t.revoked_at, &i.expires_at) {
                (Some(at), _) => format!("revoked {at}"),
                (None, Some(e)) => format!("expires {e}"),
                (None, None) => "until revoked".to_owned(),
            };
            let chat = i.chat_id.as_deref().unwrap_or("-");
            say!(
                "{:<12}  {:<16}  {chat:<16}  {:<20}  {state}",
                i.id,
                i.user_id,
                i.created_at
            );
        }
    }
}

fn token_json(t: &Issued, revoked_at: Option<&str>) -> Value {
    json!({
        "id": t.id, "user_id": t.user_id, "chat_id": t.chat_id, "created_at": t.created_at,
        "expires_at": t.expires_at, "revoked_at": revoked_at,
    })
}
