//! A misbehaving policy component for the host's sandbox tests. It implements the same
//! world as the real guest, but `add` with the content "loop" spins forever and "hog"
//! allocates until memory runs out. Everything else answers like an empty memory.

#[cfg(target_arch = "wasm32")]
mod component {
    wit_bindgen::generate!({
        world: "policy",
        path: "../../wit",
    });

    use exports::ash::memory::memory as wit;

    struct Hostile;

    impl wit::Guest for Hostile {
        fn add(_c: wit::Caller, item: wit::NewMemory) -> Result<wit::Added, wit::Error> {
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
                _ => Err(wit::Error::InvalidInput("the hostile guest stores nothing".into())),
            }
        }
        fn add_batch(_c: wit::Caller, _items: Vec<wit::NewMemory>) -> Result<wit::Added, wit::Error> {
            Ok(wit::Added {
                memories: Vec::new(),
                superseded: Vec::new(),
                evicted: Vec::new(),
            })
        }
        fn history(_c: wit::Caller, id: String) -> Result<Vec<wit::Memory>, wit::Error> {
            Err(wit::Error::NotFound(id))
        }
        fn gc(dry_run: bool) -> Result<wit::GcReport, wit::Error> {
            Ok(wit::GcReport {
                archived: Vec::new(),
                dry_run,
            })
        }
        fn compact(_days: u32, force: bool) -> Result<wit::CompactReport, wit::Error> {
            Ok(wit::CompactReport {
                removed: Vec::new(),
                kept: 0,
                forced: force,
            })
        }
        fn get(_c: wit::Caller, id: String) -> Result<wit::Memory, wit::Error> {
            Err(wit::Error::NotFound(id))
        }
        fn list(_c: wit::Caller, _o: wit::ListOptions) -> Result<Vec<wit::Memory>, wit::Error> {
            Ok(Vec::new())
        }
        fn search(_c: wit::Caller, _q: wit::SearchQuery) -> Result<wit::SearchResults, wit::Error> {
            Ok(wit::SearchResults {
                hits: Vec::new(),
                notices: Vec::new(),
            })
        }
        fn delete(_c: wit::Caller, id: String) -> Result<String, wit::Error> {
            Err(wit::Error::NotFound(id))
        }
        fn people_list(_c: wit::Caller) -> Result<Vec<wit::Person>, wit::Error> {
            Ok(Vec::new())
        }
        fn people_show(_c: wit::Caller, r: String) -> Result<wit::Person, wit::Error> {
            Err(wit::Error::NotFound(r))
        }
        fn people_add(
            _c: wit::Caller,
            name: String,
            _relation: Option<String>,
            _aliases: Vec<String>,
        ) -> Result<wit::Person, wit::Error> {
            Err(wit::Error::InvalidInput(name))
        }
        fn people_alias(_c: wit::Caller, r: String, _alias: String) -> Result<wit::Person, wit::Error> {
            Err(wit::Error::NotFound(r))
        }
        fn people_merge(_c: wit::Caller, keep: String, _merge: String) -> Result<wit::Person, wit::Error> {
            Err(wit::Error::NotFound(keep))
        }
        fn context(_c: wit::Caller, _m: String, _t: Option<u32>) -> Result<wit::ContextBlock, wit::Error> {
            Ok(wit::ContextBlock {
                people: Vec::new(),
                memories: Vec::new(),
                markdown: String::new(),
                estimated_tokens: 0,
                dropped: 0,
            })
        }
        fn tool_schemas() -> String {
            "[]".into()
        }
        fn tool_call(_c: wit::Caller, name: String, _a: String) -> Result<String, wit::Error> {
            Err(wit::Error::InvalidInput(name))
        }
        fn rebuild_index() -> Result<wit::RebuildReport, wit::Error> {
            Ok(wit::RebuildReport {
                indexed: 0,
                embedded: 0,
                pending: 0,
                quarantined: 0,
            })
        }
        fn doctor(_fix: bool) -> Result<Vec<wit::Finding>, wit::Error> {
            Ok(Vec::new())
        }
    }

    export!(Hostile);
}
