//! A misbehaving policy component for the host's sandbox tests. It implements the same
//! world as the real guest, but `memories.add` with the content "loop" spins forever and
//! "hog" allocates until memory runs out. Everything else answers like an empty memory.

#[cfg(target_arch = "wasm32")]
mod component {
    wit_bindgen::generate!({
        world: "policy",
        path: "../../wit",
    });

    use ash::memory::types::{Caller, Memory, Person};
    use exports::ash::memory::{browse, conversations, maintenance, memories, people, portability, recall, tools};

    struct Hostile;

    impl memories::Guest for Hostile {
        fn add(_c: Caller, item: memories::NewMemory) -> Result<memories::Added, memories::Error> {
            match item.content.as_str() {
                "loop" => {
                    let mut n: u64 = 0;
                    loop {
                        n = std::hint::black_box(n.wrapping_add(1));
                    }
                }
                "hog" => {
                    let mut hoard: Vec<Vec<u8>> = Vec::new();
                    loop {
                        hoard.push(vec![1u8; 1 << 20]);
                        std::hint::black_box(&hoard);
                    }
                }
                _ => Err(memories::Error::InvalidInput("the hostile guest stores nothing".into())),
            }
        }
        fn add_batch(_c: Caller, _items: Vec<memories::NewMemory>) -> Result<memories::Added, memories::Error> {
            Ok(memories::Added {
                memories: Vec::new(),
                superseded: Vec::new(),
                evicted: Vec::new(),
                restated: Vec::new(),
            })
        }
        fn import_facts(
            _c: Caller,
            _items: Vec<memories::NewMemory>,
            _o: memories::ImportOptions,
        ) -> Result<memories::Imported, memories::Error> {
            Err(memories::Error::InvalidInput("the hostile guest stores nothing".into()))
        }
        fn get(_c: Caller, id: String) -> Result<Memory, memories::Error> {
            Err(memories::Error::NotFound(id))
        }
        fn list(_c: Caller, _o: memories::ListOptions) -> Result<Vec<Memory>, memories::Error> {
            Ok(Vec::new())
        }
        fn history(_c: Caller, id: String) -> Result<Vec<Memory>, memories::Error> {
            Err(memories::Error::NotFound(id))
        }
        fn delete(_c: Caller, id: String) -> Result<String, memories::Error> {
            Err(memories::Error::NotFound(id))
        }
        fn confirm(_c: Caller, id: String) -> Result<Memory, memories::Error> {
            Err(memories::Error::NotFound(id))
        }
        fn correct(_c: Caller, id: String, _fix: memories::Correction) -> Result<memories::Added, memories::Error> {
            Err(memories::Error::NotFound(id))
        }
        fn reflect(_c: Caller) -> Result<memories::Reflection, memories::Error> {
            Ok(memories::Reflection::Skipped("no".into()))
        }
    }

    impl recall::Guest for Hostile {
        fn search(_c: Caller, _q: recall::SearchQuery) -> Result<recall::SearchResults, recall::Error> {
            Ok(recall::SearchResults {
                hits: Vec::new(),
                notices: Vec::new(),
            })
        }
        fn context(
            _c: Caller,
            _m: String,
            _t: Option<u32>,
            _s: Option<String>,
        ) -> Result<recall::ContextBlock, recall::Error> {
            Ok(recall::ContextBlock {
                people: Vec::new(),
                memories: Vec::new(),
                past_messages: Vec::new(),
                profile: Vec::new(),
                markdown: String::new(),
                estimated_tokens: 0,
                dropped: 0,
            })
        }
    }

    impl people::Guest for Hostile {
        fn list(_c: Caller) -> Result<Vec<Person>, people::Error> {
            Ok(Vec::new())
        }
        fn show(_c: Caller, r: String) -> Result<Person, people::Error> {
            Err(people::Error::NotFound(r))
        }
        fn add(_c: Caller, p: people::NewPerson) -> Result<Person, people::Error> {
            Err(people::Error::InvalidInput(p.name))
        }
        fn alias(_c: Caller, r: String, _alias: String) -> Result<Person, people::Error> {
            Err(people::Error::NotFound(r))
        }
        fn merge(_c: Caller, keep: String, _merge: String) -> Result<Person, people::Error> {
            Err(people::Error::NotFound(keep))
        }
        fn forget(_c: Caller, r: String, _purge: bool) -> Result<people::Forgotten, people::Error> {
            Err(people::Error::NotFound(r))
        }
    }

    impl browse::Guest for Hostile {
        fn standings(_c: Caller, _ids: Vec<String>) -> Result<Vec<browse::Standing>, browse::Error> {
            Ok(Vec::new())
        }
        fn sessions(_c: Caller) -> Result<Vec<browse::SessionSummary>, browse::Error> {
            Ok(Vec::new())
        }
        fn messages(_c: Caller, session: String) -> Result<Vec<browse::SessionMessage>, browse::Error> {
            Err(browse::Error::NotFound(session))
        }
    }

    impl conversations::Guest for Hostile {
        fn persist_turn(
            _c: Caller,
            _t: conversations::Turn,
        ) -> Result<conversations::StoredTurn, conversations::Error> {
            Err(conversations::Error::InvalidInput("no".into()))
        }
        fn extract(_c: Caller, _s: Option<String>) -> Result<conversations::Extraction, conversations::Error> {
            Err(conversations::Error::InvalidInput("no".into()))
        }
        fn profile(_c: Caller) -> Result<conversations::UserProfile, conversations::Error> {
            Err(conversations::Error::InvalidInput("no".into()))
        }
    }

    impl tools::Guest for Hostile {
        fn schemas() -> String {
            "[]".into()
        }
        fn call(_c: Caller, name: String, _a: String) -> Result<String, tools::Error> {
            Err(tools::Error::UnknownTool(name))
        }
        fn run(_c: Caller, name: String, _a: String) -> Result<tools::Answer, tools::Error> {
            Err(tools::Error::UnknownTool(name))
        }
    }

    impl portability::Guest for Hostile {
        fn export_records(_c: Caller, _o: portability::ExportOptions) -> Result<Vec<String>, portability::Error> {
            Ok(Vec::new())
        }
        fn import_records(
            _c: Caller,
            _lines: Vec<String>,
            _check_only: bool,
        ) -> Result<portability::ImportedRecords, portability::Error> {
            Err(portability::Error::InvalidInput("no".into()))
        }
    }

    impl maintenance::Guest for Hostile {
        fn stats() -> Result<maintenance::HomeStats, maintenance::Error> {
            Err(maintenance::Error::Storage("no stats".into()))
        }
        fn gc(dry_run: bool) -> Result<maintenance::GcReport, maintenance::Error> {
            Ok(maintenance::GcReport {
                archived: Vec::new(),
                dry_run,
            })
        }
        fn compact(_days: u32, force: bool) -> Result<maintenance::CompactReport, maintenance::Error> {
            Ok(maintenance::CompactReport {
                removed: Vec::new(),
                kept: 0,
                forced: force,
            })
        }
        fn flush_deferred() -> Result<u32, maintenance::Error> {
            Ok(0)
        }
        fn rebuild_index() -> Result<maintenance::RebuildReport, maintenance::Error> {
            Ok(maintenance::RebuildReport {
                indexed: 0,
                embedded: 0,
                pending: 0,
                quarantined: 0,
            })
        }
        fn doctor(_fix: bool) -> Result<Vec<maintenance::Finding>, maintenance::Error> {
            Ok(Vec::new())
        }
    }

    export!(Hostile);
}
