//! One `Guest` impl per exported interface: convert, call the service, convert back.

use std::cell::RefCell;

use super::ash::memory::types;
use super::convert::*;
use super::exports::ash::memory::{browse, conversations, maintenance, memories, people, portability, recall, tools};
use super::wit_ports::WitPorts;
use crate::api;
use crate::service::MemoryService;

thread_local! {
    /// One service per instance, so the collection cache lives between calls. The host
    /// throws the whole instance away after a trap, which also resets this.
    static SERVICE: RefCell<MemoryService<WitPorts>> = RefCell::new(MemoryService::new(WitPorts));
}

/// Runs `f` on the instance's service, mapping the policy's error onto the calling
/// interface's own `error` variant.
fn with_service<T, E>(
    f: impl FnOnce(&mut MemoryService<WitPorts>) -> Result<T, api::Error>,
    to_wit: impl FnOnce(api::Error) -> E,
) -> Result<T, E> {
    SERVICE.with(|s| f(&mut s.borrow_mut())).map_err(to_wit)
}

// ---- exports: one impl per interface ----

struct Component;

impl memories::Guest for Component {
    fn add(c: types::Caller, item: memories::NewMemory) -> Result<memories::Added, memories::Error> {
        with_service(|s| s.add(&caller(c), new_memory(item)), memories_error).map(added)
    }

    fn add_batch(c: types::Caller, items: Vec<memories::NewMemory>) -> Result<memories::Added, memories::Error> {
        let items = items.into_iter().map(new_memory).collect();
        with_service(|s| s.add_batch(&caller(c), items), memories_error).map(added)
    }

    fn import_facts(
        c: types::Caller,
        items: Vec<memories::NewMemory>,
        options: memories::ImportOptions,
    ) -> Result<memories::Imported, memories::Error> {
        let items = items.into_iter().map(new_memory).collect();
        with_service(|s| s.import(&caller(c), items, options.check_only), memories_error).map(imported)
    }

    fn get(c: types::Caller, id: String) -> Result<types::Memory, memories::Error> {
        with_service(|s| s.get(&caller(c), &id), memories_error).map(memory)
    }

    fn list(c: types::Caller, o: memories::ListOptions) -> Result<Vec<types::Memory>, memories::Error> {
        with_service(|s| s.list(&caller(c), &list_options(o)), memories_error).map(memories_of)
    }

    fn history(c: types::Caller, id: String) -> Result<Vec<types::Memory>, memories::Error> {
        with_service(|s| s.history(&caller(c), &id), memories_error).map(memories_of)
    }

    fn delete(c: types::Caller, id: String) -> Result<String, memories::Error> {
        with_service(|s| s.delete(&caller(c), &id), memories_error)
    }

    fn confirm(c: types::Caller, id: String) -> Result<types::Memory, memories::Error> {
        with_service(|s| s.confirm(&caller(c), &id), memories_error).map(memory)
    }

    fn correct(
        c: types::Caller,
        id: String,
        correction: memories::Correction,
    ) -> Result<memories::Added, memories::Error> {
        with_service(
            |s| s.correct(&caller(c), &id, correction_of(correction)),
            memories_error,
        )
        .map(added)
    }

    fn reflect(c: types::Caller) -> Result<memories::Reflection, memories::Error> {
        with_service(|s| s.reflect(&caller(c)), memories_error).map(|r| match r {
            crate::service::Reflection::Written(m) => memories::Reflection::Written(memory(*m)),
            crate::service::Reflection::Skipped(why) => memories::Reflection::Skipped(why),
        })
    }
}

impl recall::Guest for Component {
    fn search(c: types::Caller, q: recall::SearchQuery) -> Result<recall::SearchResults, recall::Error> {
        with_service(|s| s.search(&caller(c), &search_query(q)), recall_error).map(search_results)
    }

    fn context(
        c: types::Caller,
        message: String,
        max_tokens: Option<u32>,
        session: Option<String>,
    ) -> Result<recall::ContextBlock, recall::Error> {
        with_service(
            |s| s.context(&caller(c), &message, max_tokens, session.as_deref()),
            recall_error,
        )
        .map(context_block)
    }
}

impl people::Guest for Component {
    fn list(c: types::Caller) -> Result<Vec<types::Person>, people::Error> {
        with_service(|s| s.people_list(&caller(c)), people_error).map(people_of)
    }

    fn show(c: types::Caller, reference: String) -> Result<types::Person, people::Error> {
        with_service(|s| s.people_show(&caller(c), &reference), people_error).map(person)
    }

    fn add(c: types::Caller, p: people::NewPerson) -> Result<types::Person, people::Error> {
        with_service(
            |s| s.people_add(&caller(c), &p.name, p.relation.as_deref(), &p.aliases),
            people_error,
        )
        .map(person)
    }

    fn alias(c: types::Caller, reference: String, alias: String) -> Result<types::Person, people::Error> {
        with_service(|s| s.people_alias(&caller(c), &reference, &alias), people_error).map(person)
    }

    fn merge(c: types::Caller, keep: String, merge: String) -> Result<types::Person, people::Error> {
        with_service(|s| s.people_merge(&caller(c), &keep, &merge), people_error).map(person)
    }

    fn forget(c: types::Caller, reference: String, purge: bool) -> Result<people::Forgotten, people::Error> {
        with_service(|s| s.people_forget(&caller(c), &reference, purge), people_error).map(|f| people::Forgotten {
            person: person(f.person),
            archived: f.archived,
            unlinked: f.unlinked,
            purged: f.purged,
        })
    }
}

impl tools::Guest for Component {
    fn schemas() -> String {
        crate::tools::schemas().to_string()
    }

    fn call(c: types::Caller, name: String, arguments: String) -> Result<String, tools::Error> {
        with_service(|s| s.tool_call(&caller(c), &name, &arguments), tools_error)
    }

    fn run(c: types::Caller, name: String, arguments: String) -> Result<tools::Answer, tools::Error> {
        let (text, data) = with_service(|s| s.tool_run(&caller(c), &name, &arguments), tools_error)?;
        Ok(tools::Answer {
            text,
            data: data.to_string(),
        })
    }
}

impl maintenance::Guest for Component {
    fn gc(dry_run: bool) -> Result<maintenance::GcReport, maintenance::Error> {
        with_service(|s| s.gc(dry_run), maintenance_error).map(gc_report)
    }

    fn compact(older_than_days: u32, force: bool) -> Result<maintenance::CompactReport, maintenance::Error> {
        with_service(|s| s.compact(older_than_days, force), maintenance_error).map(compact_report)
    }

    fn flush_deferred() -> Result<u32, maintenance::Error> {
        with_service(|s| s.flush_deferred(), maintenance_error)
    }

    fn rebuild_index() -> Result<maintenance::RebuildReport, maintenance::Error> {
        with_service(|s| s.rebuild_index(), maintenance_error).map(rebuild_report)
    }

    fn doctor(fix: bool) -> Result<Vec<maintenance::Finding>, maintenance::Error> {
        with_service(|s| s.doctor(fix), maintenance_error).map(|f| f.into_iter().map(finding).collect())
    }

    fn stats() -> Result<maintenance::HomeStats, maintenance::Error> {
        with_service(|s| s.stats(), maintenance_error).map(stats)
    }
}

impl portability::Guest for Component {
    fn export_records(
        c: types::Caller,
        options: portability::ExportOptions,
    ) -> Result<Vec<String>, portability::Error> {
        with_service(
            |s| s.export_records(&caller(c), options.include_archive),
            portability_error,
        )
    }

    fn import_records(
        c: types::Caller,
        lines: Vec<String>,
        check_only: bool,
    ) -> Result<portability::ImportedRecords, portability::Error> {
        with_service(|s| s.import_records(&caller(c), &lines, check_only), portability_error).map(|r| {
            portability::ImportedRecords {
                memories: r.memories,
                archived: r.archived,
                people: r.people,
                renamed: r.renamed,
                present: r.present,
                reembedded: r.reembedded,
                refused: r
                    .refused
                    .into_iter()
                    .map(|(position, reason)| portability::RefusedLine { position, reason })
                    .collect(),
            }
        })
    }
}

impl conversations::Guest for Component {
    fn persist_turn(
        c: types::Caller,
        t: conversations::Turn,
    ) -> Result<conversations::StoredTurn, conversations::Error> {
        with_service(|s| s.persist_turn(&caller(c), turn(t)), conversations_error).map(|t| conversations::StoredTurn {
            session_id: t.session_id,
            message_ids: t.message_ids,
            redacted: t.redacted,
        })
    }

    fn extract(c: types::Caller, session: Option<String>) -> Result<conversations::Extraction, conversations::Error> {
        with_service(|s| s.extract(&caller(c), session.as_deref()), conversations_error).map(extraction)
    }

    fn profile(c: types::Caller) -> Result<conversations::UserProfile, conversations::Error> {
        with_service(|s| s.profile(&caller(c)), conversations_error).map(|p| conversations::UserProfile {
            notes: p.notes,
            memory_ids: p.memory_ids,
        })
    }
}

impl browse::Guest for Component {
    fn standings(c: types::Caller, ids: Vec<String>) -> Result<Vec<browse::Standing>, browse::Error> {
        with_service(|s| s.standings(&caller(c), &ids), browse_error).map(|v| v.into_iter().map(standing).collect())
    }

    fn sessions(c: types::Caller) -> Result<Vec<browse::SessionSummary>, browse::Error> {
        with_service(|s| s.sessions(&caller(c)), browse_error).map(|v| v.into_iter().map(session_summary).collect())
    }

    fn messages(c: types::Caller, session: String) -> Result<Vec<browse::SessionMessage>, browse::Error> {
        with_service(|s| s.session_messages(&caller(c), &session), browse_error)
            .map(|v| v.into_iter().map(session_message).collect())
    }
}

super::export!(Component with_types_in super);
