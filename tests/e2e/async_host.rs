//! An agent host is async: the library, with an HTTP embedder and language model, called
//! from inside a tokio runtime of either flavour, as `#[tokio::main]` would call it.

use ash_memory::{Caller, MemoryStore, NewMemory, SearchQuery};

use crate::support::http_server::{Server, chat, embeddings};

/// Opens a store whose embedder and language model are the loopback stand-ins, adds two
/// memories (the language model is asked what the second is to the first, and says it is
/// a change), searches, and drops the store, all on the calling thread.
fn add_and_search_over_http() {
    let embedder = Server::start(|r| embeddings(r, 64));
    let llm = Server::start(|_| chat("Change."));
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("config.toml"),
        format!(
            "[embedder]\nprovider = \"openai\"\nbase_url = \"{}\"\nmodel = \"embed-1\"\ndimensions = 64\ntimeout_secs = 5\n\
             [llm]\nbase_url = \"{}\"\nmodel = \"judge-1\"\ntimeout_secs = 5\n\
             [memory]\nsupersession_threshold = 0.3\n",
            embedder.base_url(),
            llm.base_url()
        ),
    )
    .unwrap();
    let mut store = MemoryStore::builder(dir.path())
        .cache_dir(Some(crate::support::ctx::cache_dir().to_owned()))
        .open()
        .unwrap();
    let me = Caller::user("u");

    let dogs = store.add(&me, &NewMemory::text("I like dogs")).unwrap();
    assert!(dogs.memories[0].embedded, "embedded by the service");
    let cats = store.add(&me, &NewMemory::text("I like cats")).unwrap();
    let cats_id = cats.memories[0].id.clone();
    assert_eq!(
        cats.superseded.len(),
        1,
        "the language model's answer decided: {cats:?}"
    );
    assert_eq!(llm.count(), 1, "the language model was asked once");

    let found = store.search(&me, &SearchQuery::new("cats")).unwrap();
    let top = &found.hits[0];
    assert_eq!(
        (top.memory.id.as_str(), top.memory.content.as_str()),
        (cats_id.as_str(), "I like cats")
    );
    assert!(top.similarity.is_some(), "found by its vector: {found:?}");
    let paths: Vec<String> = embedder
        .requests
        .lock()
        .unwrap()
        .iter()
        .map(|r| r.path.clone())
        .collect();
    assert!(
        paths.len() >= 3 && paths.iter().all(|p| p == "/v1/embeddings"),
        "two adds and a search were embedded by the service: {paths:?}"
    );
    drop(store);
}

/// What `#[tokio::test]` and `#[tokio::main]` do: run the body as a task of a runtime.
fn inside(runtime: tokio::runtime::Runtime) {
    runtime.block_on(async { add_and_search_over_http() });
}

#[test]
fn a_store_over_http_works_inside_a_current_thread_runtime() {
    inside(
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap(),
    );
}

#[test]
fn a_store_over_http_works_inside_a_multi_thread_runtime() {
    inside(
        tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .unwrap(),
    );
}
